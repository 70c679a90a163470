# A group fed a large quoted heredoc, holding many `cat`s: each `cat` outputs the body
# text (a clone), Judge::walk keeps every output in `segments` (another clone each) and
# joins them (Val::join -> texts.contains: a memcmp of the body per segment): memory grows
# as N x B (OOM-kill = no verdict = the client runs the command) and time as N x B.
import sys, json, subprocess, time
import os
BIN = os.environ.get("HEREDOC_GUARD_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../target/release/heredoc-guard"))
def gen(body_kb, n):
    body = ("y" * 63 + "\n") * (body_kb * 1024 // 64)
    return "{\n" + "cat\n" * n + "} <<'EOF'\n" + body + "EOF\n"
if __name__ == "__main__":
    for body_kb, n in [(1024, 100), (1024, 400), (3500, 200), (3500, 800)]:
        cmd = gen(body_kb, n)
        ev = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": cmd}})
        t = time.time()
        p = subprocess.run(["bash", "-c", f"ulimit -v 6000000; exec /usr/bin/time -f '%e s %M KB' {BIN}"], input=ev.encode(), capture_output=True)
        print(f"cat-segments body={body_kb}K n={n} size={len(cmd)} wall={time.time()-t:.2f}s rc={p.returncode} time={p.stderr.decode().strip()[-60:]!r} out={p.stdout.decode()[:120]!r}", flush=True)
