"""Reads hyperfine's JSON results and measures peak RSS; prints a Markdown table."""
import json, pathlib, subprocess, sys

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
