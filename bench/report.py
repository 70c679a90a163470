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
    """The guard's verdict on the event: its exit code says it (0 allow, 2 deny)."""
    with open(event, "rb") as stdin:
        code = subprocess.run([guard], stdin=stdin, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode
    return {0: "allow", 2: "deny"}.get(code, f"exit {code}")

def order(path):
    number = path.name.split("-", 1)[0].rstrip("ab")
    return (int(number) if number.isdigit() else 0, path.name)

print("| case | event size | verdict | guard median | baseline median | ratio | guard peak RSS |")
print("|---|---:|---|---:|---:|---:|---:|")
for result in sorted(out.glob("*.hyperfine.json"), key=order):
    name = result.name.removesuffix(".hyperfine.json")
    event = out / "events" / f"{name}.json"
    runs = {r["command"]: r for r in json.loads(result.read_text())["results"]}
    g, b = runs["guard"]["median"], runs["baseline"]["median"]
    size = event.stat().st_size
    size_text = f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} B"
    print(f"| {name} | {size_text} | {verdict(event)} | {g * 1000:.2f} ms | {b * 1000:.2f} ms | {g / b:.2f}x | {peak_rss_kib(event) / 1024:.1f} MiB |")
