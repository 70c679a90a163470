"""Public scripts read whole as commands: the needless side of a change, measured (opt-in,
not part of the test suite: it needs the repositories on this machine).

- `corpus.py extract OUT MIRROR...`: every shell script in each bare git repository (the
  tip's tree): files named *.sh, *.bash, *.zsh, *.zsh-theme, *.plugin.zsh, or whose first
  line is a `#!` naming sh, bash, dash, ksh or zsh; up to 1,000,000 bytes, valid UTF-8.
  Written to OUT/<owner+name>/<path with / as __>, with OUT/SOURCES listing each
  repository and its commit.
- `corpus.py run GUARD OUT.json --home DIR [--dir CORPUS]`: each script as a Claude Code
  Bash event (cwd CORPUS), the guard's verdict, rule and the process's CPU time; HOME is
  DIR (an empty directory), the ledger goes under it.
- `corpus.py cmp A.json B.json`: verdicts that differ, the denied counts, CPU in all, and
  the median per-script CPU ratio over scripts above 2 ms.

The repositories of the 2026-12-07 corpus (17, 3,591 scripts then): git, bats-core,
ohmyzsh, dokku, nvm, acme.sh, pyenv, rbenv, asdf, rustup, docker-install,
Homebrew/install, zsh-autosuggestions, bash-completion, n, neofetch, powerlevel10k.
"""
import json, os, pathlib, statistics, subprocess, sys

SUFFIXES = (".sh", ".bash", ".zsh", ".zsh-theme", ".plugin.zsh")
SHELLS = (b"sh", b"bash", b"dash", b"ksh", b"zsh")


def is_script(path, head):
    if path.endswith(SUFFIXES):
        return True
    if head.startswith(b"#!"):
        first = head.split(b"\n", 1)[0]
        words = first[2:].replace(b"/", b" ").split()
        return any(w in SHELLS for w in words)
    return False


def extract(out, mirrors):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sources = []
    count = 0
    for m in mirrors:
        m = pathlib.Path(m)
        name = m.parent.name if m.name == "repo" else m.name
        git = ["git", f"--git-dir={m}"]
        commit = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        tree = subprocess.run(git + ["ls-tree", "-r", "-z", "HEAD"], capture_output=True).stdout
        entries = []
        for e in tree.split(b"\0"):
            if not e:
                continue
            meta, path = e.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob" and mode in (b"100644", b"100755"):
                entries.append((sha.decode(), path.decode(errors="replace")))
        batch = subprocess.run(git + ["cat-file", "--batch"], input="".join(s + "\n" for s, _ in entries).encode(),
                               capture_output=True).stdout
        pos = 0
        kept = 0
        for sha, path in entries:
            header_end = batch.index(b"\n", pos)
            size = int(batch[pos:header_end].split()[2])
            data = batch[header_end + 1:header_end + 1 + size]
            pos = header_end + 1 + size + 1
            if size > 1_000_000 or not is_script(path, data[:200]):
                continue
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            d = out / name
            d.mkdir(exist_ok=True)
            (d / path.replace("/", "__")).write_bytes(data)
            kept += 1
        sources.append(f"{name} {commit} {kept}")
        count += kept
    (out / "SOURCES").write_text("\n".join(sources) + "\n")
    print(f"{count} scripts from {len(sources)} repositories in {out}")


def run(guard, out, home, corpus):
    corpus = pathlib.Path(corpus)
    home = pathlib.Path(home)
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, HOME=str(home), HEREDOC_GUARD_LEDGER=str(home / "ledger.jsonl"))
    results = {}
    files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.name != "SOURCES")
    for p in files:
        text = p.read_text()
        event = json.dumps({"session_id": "corpus", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                            "tool_input": {"command": text}, "cwd": str(corpus)})
        (home / "event.json").write_text(event)
        actions = [(os.POSIX_SPAWN_OPEN, 0, str(home / "event.json"), os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 2, str(home / "stderr"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
        # (Spawned, not forked: a forked copy of Python would count its own page faults.)
        pid = os.posix_spawn(guard, [guard], env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        reason = (home / "stderr").read_text(errors="replace").split("\n", 1)[0]
        rule = ""
        if code == 2:
            try:
                rule = json.loads((home / "ledger.jsonl").read_text().splitlines()[-1]).get("rule", "")
            except (OSError, ValueError, IndexError):
                pass
        results[str(p.relative_to(corpus))] = {
            "verdict": "allow" if code == 0 else "deny" if code == 2 else f"exit {code}",
            "rule": rule, "reason": reason[:300], "cpu": usage.ru_utime + usage.ru_stime, "bytes": len(text)}
    pathlib.Path(out).write_text(json.dumps(results, indent=0))
    denied = sum(1 for v in results.values() if v["verdict"] != "allow")
    cpu = sum(v["cpu"] for v in results.values())
    print(f"{len(results)} scripts, {denied} denied, {cpu:.2f} s of CPU")


def cmp(a, b):
    a = json.loads(pathlib.Path(a).read_text())
    b = json.loads(pathlib.Path(b).read_text())
    for k in sorted(set(a) | set(b)):
        va, vb = a.get(k), b.get(k)
        if not va or not vb or (va["verdict"], va["rule"]) != (vb["verdict"], vb["rule"]):
            show = lambda v: "-" if not v else f'{v["verdict"]} {v["rule"]} {v["reason"][:120]}'
            print(f"{k}\n  A: {show(va)}\n  B: {show(vb)}")
    for name, r in (("A", a), ("B", b)):
        denied = sum(1 for v in r.values() if v["verdict"] != "allow")
        print(f"{name}: {len(r)} scripts, {denied} denied, {sum(v['cpu'] for v in r.values()):.2f} s of CPU")
    ratios = [b[k]["cpu"] / a[k]["cpu"] for k in a if k in b and a[k]["cpu"] > 0.002]
    if ratios:
        print(f"median B/A per script over {len(ratios)} above 2 ms: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "extract" and len(sys.argv) > 3:
        extract(sys.argv[2], sys.argv[3:])
    elif cmd == "run" and len(sys.argv) >= 6 and sys.argv[4] == "--home":
        corpus = sys.argv[sys.argv.index("--dir") + 1] if "--dir" in sys.argv else "target/corpus"
        run(sys.argv[2], sys.argv[3], sys.argv[5], corpus)
    elif cmd == "cmp" and len(sys.argv) == 4:
        cmp(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
