"""Reads hyperfine's JSON results and measures peak RSS; prints a Markdown table."""
import json, pathlib, subprocess, sys

out, guard = pathlib.Path(sys.argv[1]), sys.argv[2]

def peak_rss_kib(event):
    """Peak RSS from GNU time (a fork of Python would count Python's own pages)."""
    with open(event, "rb") as stdin:
        done = subprocess.run(["/usr/bin/time", "-f", "%M", guard], stdin=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(done.stderr.strip().splitlines()[-1])

print("| case | event size | guard median | baseline median | ratio | guard peak RSS |")
print("|---|---:|---:|---:|---:|---:|")
for result in sorted(out.glob("*.hyperfine.json")):
    name = result.name.removesuffix(".hyperfine.json")
    event = out / "events" / f"{name}.json"
    runs = {r["command"]: r for r in json.loads(result.read_text())["results"]}
    g, b = runs["guard"]["median"], runs["baseline"]["median"]
    size = event.stat().st_size
    size_text = f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} B"
    print(f"| {name} | {size_text} | {g * 1000:.2f} ms | {b * 1000:.2f} ms | {g / b:.2f}x | {peak_rss_kib(event) / 1024:.1f} MiB |")
