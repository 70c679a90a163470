"""Measures the CPU time of whole processes, for issue 28's goals; writes <out>/cpu.json.

- Each ordinary script of <out>/shapes/: the guard on its event and `bash -n` on the same
  text, interleaved run for run, each process's own user+sys time (wait4's rusage: the
  whole process, exec to exit), the median; the guard's verdict (exit code, the first line
  of stderr, the rule of the ledger record a deny writes); at 1 MiB, the peak RSS of both
  (GNU time: a child of Python would also count Python's pages).
- The process ratios: the guard and `cat` on the same event, interleaved, for a non-shell
  event, a one-line command and a 2 KiB commit with a quoted heredoc message.

Usage: cpu.py OUT GUARD BASH RUNS
"""
import json, os, pathlib, statistics, subprocess, sys, tempfile, time

out, guard, bash, runs = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
CAT = "/bin/cat" if os.path.exists("/bin/cat") else "/usr/bin/cat"
# A deny appends a ledger record, as in an agent: part of the process's cost.
ledger = out / "ledger.jsonl"
env = dict(os.environ, HEREDOC_GUARD_LEDGER=str(ledger))


def cpu_once(argv, stdin_path):
    """One run: (user+sys seconds, wall seconds, exit status). stdout and stderr go to
    /dev/null; the child is spawned without a copy of Python (posix_spawn)."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, stdin_path, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    return usage.ru_utime + usage.ru_stime, wall, os.waitstatus_to_exitcode(status)


def side_by_side(a, b, n):
    """`n` runs of each of two (argv, stdin) pairs, interleaved, the order swapped every
    run: the lists of their CPU and wall times."""
    times = {"a": ([], []), "b": ([], [])}
    for i in range(n):
        order = (("a", a), ("b", b)) if i % 2 == 0 else (("b", b), ("a", a))
        for key, (argv, stdin) in order:
            c, w, _ = cpu_once(argv, stdin)
            times[key][0].append(c)
            times[key][1].append(w)
    return times["a"], times["b"]


def verdict(event):
    """The guard's verdict: allow (exit 0, silent), deny (exit 2: the rule from the ledger
    record, the reason from stderr), or what else it did."""
    with tempfile.TemporaryDirectory() as d:
        own = dict(env, HEREDOC_GUARD_LEDGER=os.path.join(d, "ledger.jsonl"))
        with open(event, "rb") as stdin:
            done = subprocess.run([guard], stdin=stdin, capture_output=True, env=own)
        reason = done.stderr.decode(errors="replace").split("\n", 1)[0]
        rule = ""
        try:
            lines = pathlib.Path(own["HEREDOC_GUARD_LEDGER"]).read_text().splitlines()
            rule = json.loads(lines[-1]).get("rule", "") if lines else ""
        except (OSError, ValueError):
            pass
    if done.returncode == 0 and not done.stdout and not done.stderr:
        return {"verdict": "allow", "rule": "", "reason": ""}
    if done.returncode == 2:
        return {"verdict": "deny", "rule": rule or "(no ledger record)", "reason": reason}
    return {"verdict": f"exit {done.returncode}", "rule": rule, "reason": reason}


def peak_rss_kib(argv, stdin_path):
    """Peak RSS by GNU time, the median of three runs."""
    seen = []
    for _ in range(3):
        with open(stdin_path, "rb") as stdin:
            done = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdin=stdin,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, env=env)
        seen.append(int(done.stderr.strip().splitlines()[-1]))
    return statistics.median(seen)


def med(xs):
    return statistics.median(xs)


result = {"guard": guard, "bash": bash, "runs": runs, "shapes": [], "ratios": []}

for event in sorted((out / "shapes").glob("*.json")):
    shape, size = event.stem.split("@")
    size = int(size)
    text = event.with_suffix(".sh")
    # Large inputs: a fifth of the runs (each run takes tens of milliseconds).
    n = runs if size <= 65536 else max(runs // 5, 10)
    g, b = side_by_side(([guard], str(event)), ([bash, "-n", str(text)], "/dev/null"), n)
    row = {"shape": shape, "size": size, "runs": n,
           "guard_cpu": med(g[0]), "guard_cpu_max": max(g[0]), "bash_cpu": med(b[0]),
           **verdict(event)}
    if size > 1024 * 1024 - 65536:
        row["guard_rss_kib"] = peak_rss_kib([guard], str(event))
        row["bash_rss_kib"] = peak_rss_kib([bash, "-n", str(text)], "/dev/null")
    result["shapes"].append(row)

# The three process ratios of issue 28, each the guard next to `cat` on the same event.
RATIOS = [("1-non-bash", "a non-shell event (Write, 2 KiB)", 1.1),
          ("2-no-heredoc", "a one-line command", 1.1),
          ("3-commit-2k", "a 2 KiB git commit with a quoted heredoc message", 1.2)]
n = max(runs, 50)
for name, title, goal in RATIOS:
    event = out / "events" / f"{name}.json"
    g, c = side_by_side(([guard], str(event)), ([CAT], str(event)), n)
    result["ratios"].append({"case": name, "title": title, "goal": goal, "runs": n,
                             "guard_cpu": med(g[0]), "cat_cpu": med(c[0]),
                             "guard_wall": med(g[1]), "cat_wall": med(c[1]),
                             **verdict(event)})

(out / "cpu.json").write_text(json.dumps(result, indent=1))
