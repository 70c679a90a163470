# A large quoted heredoc written to a file, then `cat f` M times at the top level: each
# read clones the file's Val (the body text) as the command's output, Judge::walk keeps
# every output in `segments` and joins them (memcmp per join): N x B memory and time.
import json, subprocess, time
import os
BIN = os.environ.get("HEREDOC_GUARD_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../target/release/heredoc-guard"))
def gen(body_kb, m):
    body = ("y" * 63 + "\n") * (body_kb * 1024 // 64)
    return "cat >f <<'EOF'\n" + body + "EOF\n" + "cat f\n" * m
if __name__ == "__main__":
    for body_kb, m in [(1024, 100), (1024, 400), (3500, 800)]:
        cmd = gen(body_kb, m)
        ev = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": cmd}})
        t = time.time()
        p = subprocess.run(["bash", "-c", f"ulimit -v 8000000; exec /usr/bin/time -f '%e s %M KB' {BIN}"], input=ev.encode(), capture_output=True)
        print(f"file-readback body={body_kb}K m={m} size={len(cmd)} wall={time.time()-t:.2f}s rc={p.returncode} time={p.stderr.decode().strip()[-40:]!r} out={p.stdout.decode()[:120]!r}", flush=True)
