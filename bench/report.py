"""Reads hyperfine's JSON results and measures peak RSS; prints a Markdown table. Then,
from <out>/cpu.json (bench/cpu.py), the ordinary scripts next to `bash -n`, their CPU per
KiB by size band, the process ratios and peak RSS at 1 MiB, against issue 28's goals."""
import json, pathlib, statistics, subprocess, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import shapes

out, guard = pathlib.Path(sys.argv[1]), sys.argv[2]

def peak_rss_kib(event):
    """Peak RSS from GNU time (a fork of Python would count Python's own pages)."""
    with open(event, "rb") as stdin:
        done = subprocess.run(["/usr/bin/time", "-f", "%M", guard], stdin=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(done.stderr.strip().splitlines()[-1])

def verdict(event):
    """The guard's verdict on the event: its exit code says it (0 allow, 2 deny), and for
    a limit, which one."""
    with open(event, "rb") as stdin:
        done = subprocess.run([guard], stdin=stdin, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    text = {0: "allow", 2: "deny"}.get(done.returncode, f"exit {done.returncode}")
    if done.stderr.startswith("inspection limit: "):
        text += " (" + done.stderr.split(" (limit")[0].removeprefix("inspection limit: ") + ")"
    return text

def order(path):
    number = path.name.split("-", 1)[0].rstrip("ab")
    return (int(number) if number.isdigit() else 0, path.name)

print("| case | event size | verdict | guard median | guard max | baseline median | ratio | guard peak RSS |")
print("|---|---:|---|---:|---:|---:|---:|---:|")
worst = (0.0, "")
for result in sorted(out.glob("*.hyperfine.json"), key=order):
    name = result.name.removesuffix(".hyperfine.json")
    event = out / "events" / f"{name}.json"
    runs = {r["command"]: r for r in json.loads(result.read_text())["results"]}
    g, b = runs["guard"]["median"], runs["baseline"]["median"]
    size = event.stat().st_size
    size_text = f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} B"
    gmax = runs["guard"]["max"]
    # hyperfine subtracts the shell's start-up; a baseline shorter than that measures 0.
    ratio = f"{g / b:.2f}x" if b > 0 else "n/a"
    worst = max(worst, (gmax, name))
    print(f"| {name} | {size_text} | {verdict(event)} | {g * 1000:.2f} ms | {gmax * 1000:.2f} ms | {b * 1000:.2f} ms | {ratio} | {peak_rss_kib(event) / 1024:.1f} MiB |")
print()
print(f"Worst case: {worst[1]}, {worst[0] * 1000:.1f} ms (slowest run of the guard, whole process).")


def size_label(size):
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size:,} B"


def verdict_text(row):
    """allow, or DENIED with the rule (and the limit, for a limit), plainly."""
    if row["verdict"] == "allow":
        return "allow"
    what = row["rule"]
    if row["reason"].startswith("inspection limit: "):
        what += ": " + row["reason"].removeprefix("inspection limit: ").split(" (")[0]
    return f"**DENIED** ({what})" if row["verdict"] == "deny" else f"**{row['verdict'].upper()}** ({what})"


def title(shape):
    """The shape's title, its `|` escaped for a Markdown table."""
    return shapes.TITLES.get(shape, shape).replace("|", "\\|")


def ms(seconds):
    return f"{seconds * 1000:.2f}"


cpu_path = out / "cpu.json"
if cpu_path.exists():
    cpu = json.loads(cpu_path.read_text())
    rows = cpu["shapes"]
    order = {name: k for k, (name, *_) in enumerate(shapes.SHAPES)}
    rows.sort(key=lambda r: (order.get(r["shape"], len(order)), r["size"]))
    sizes = sorted({r["size"] for r in rows})
    cell = {(r["shape"], r["size"]): r for r in rows}
    try:
        version = subprocess.run([cpu["bash"], "--version"], capture_output=True,
                                 text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        version = "version unknown"
    budget = 0.040

    print()
    print("### Ordinary scripts next to `bash -n` (issue 28)")
    print()
    print(f"CPU time (user+sys) of the whole process, median of {min(r['runs'] for r in rows)}"
          f" to {max(r['runs'] for r in rows)} runs, the guard on the Claude Code Bash event and"
          f" `bash -n` on the same text, interleaved; guard / `bash -n` in ms. `bash -n`:"
          f" {cpu['bash']} ({version}). Every script here is ordinary (nothing runs heredoc"
          " text): a deny is a failure of the guard.")
    print()
    print("| script | " + " | ".join(size_label(s) for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for name, *_ in shapes.SHAPES:
        cells = []
        for size in sizes:
            r = cell.get((name, size))
            if r is None:
                cells.append("")
                continue
            v = verdict_text(r)
            cells.append(("" if v == "allow" else v + " ") + f"{ms(r['guard_cpu'])} / {ms(r['bash_cpu'])}")
        print(f"| {title(name)} | " + " | ".join(cells) + " |")

    print()
    print("CPU per KiB by size band (µs per KiB of command, whole process; median over the scripts, min–max):")
    print()
    print("| band | scripts | guard | `bash -n` | guard ÷ `bash -n`, median (max) | denied |")
    print("|---|---:|---:|---:|---:|---:|")
    bands = [("≤ 4 KiB", 0, 4096), ("4–16 KiB", 4096, 16384), ("16–64 KiB", 16384, 65536),
             ("64–256 KiB", 65536, 262144), ("256 KiB–1 MiB", 262144, 1048576)]
    for band, lo, hi in bands:
        inside = [r for r in rows if lo < r["size"] <= hi]
        if not inside:
            continue
        g = [r["guard_cpu"] * 1e6 / (r["size"] / 1024) for r in inside]
        b = [r["bash_cpu"] * 1e6 / (r["size"] / 1024) for r in inside]
        x = [r["guard_cpu"] / r["bash_cpu"] for r in inside if r["bash_cpu"] > 0]
        denied = sum(r["verdict"] != "allow" for r in inside)
        print(f"| {band} | {len(inside)} | {statistics.median(g):.1f} ({min(g):.1f}–{max(g):.1f})"
              f" | {statistics.median(b):.1f} ({min(b):.1f}–{max(b):.1f})"
              f" | {statistics.median(x):.1f}× ({max(x):.1f}×) | {denied} |")

    print()
    print("Process ratios: the guard next to `cat >/dev/null` on the same event, interleaved in one run:")
    print()
    print("| event | verdict | runs | guard CPU | `cat` CPU | ratio (CPU) | guard wall | `cat` wall | ratio (wall) | goal |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in cpu["ratios"]:
        ratio = r["guard_cpu"] / r["cat_cpu"] if r["cat_cpu"] > 0 else float("inf")
        met = "met" if ratio <= r["goal"] else "**not met**"
        print(f"| {r['title']} | {verdict_text(r)} | {r['runs']} | {ms(r['guard_cpu'])} ms | {ms(r['cat_cpu'])} ms"
              f" | {ratio:.2f}× | {ms(r['guard_wall'])} ms | {ms(r['cat_wall'])} ms"
              f" | {r['guard_wall'] / r['cat_wall']:.2f}× | ≤ {r['goal']}× (CPU): {met} |")

    big = [r for r in rows if "guard_rss_kib" in r]
    if big:
        print()
        print("Peak RSS at 1 MiB (GNU time, median of 3):")
        print()
        print("| script | size | guard | `bash -n` | goal ≤ 4 MiB |")
        print("|---|---:|---:|---:|---|")
        for r in big:
            met = "met" if r["guard_rss_kib"] <= 4096 else "**not met**"
            print(f"| {title(r['shape'])} | {size_label(r['size'])}"
                  f" | {r['guard_rss_kib'] / 1024:.1f} MiB | {r['bash_rss_kib'] / 1024:.1f} MiB | {met} |")

    print()
    denied = [r for r in rows if r["verdict"] != "allow"]
    slow = [r for r in rows if r["verdict"] == "allow" and r["guard_cpu"] > budget]
    allowed = len(rows) - len(denied) - len(slow)
    print(f"- Ordinary scripts allowed within the 40 ms CPU budget: {allowed} of {len(rows)}.")
    at64 = [r for r in rows if r["size"] == 65536]
    if at64:
        worst = max(at64, key=lambda r: r["guard_cpu"])
        fast = sum(r["verdict"] == "allow" and r["guard_cpu"] <= 0.005 for r in at64)
        print(f"- 64 KiB allowed in ≤ 5 ms: {fast} of {len(at64)} (slowest: {worst['shape']},"
              f" {ms(worst['guard_cpu'])} ms).")
    if denied:
        print(f"- **FAILURE: {len(denied)} ordinary script(s) DENIED**: "
              + ", ".join(f"{r['shape']} at {size_label(r['size'])} {verdict_text(r).removeprefix('**DENIED** ')}"
                          for r in denied) + ".")
    if slow:
        print(f"- Allowed over the 40 ms budget: "
              + ", ".join(f"{r['shape']} at {size_label(r['size'])} ({ms(r['guard_cpu'])} ms)" for r in slow) + ".")
