import json, subprocess, sys, time
import os
BIN = os.environ.get("HEREDOC_GUARD_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../target/release/heredoc-guard"))
HD = "\ncat <<'EOF'\nx\nEOF\n"
def run(cmd, label="", heredoc=True):
    if heredoc:
        cmd = cmd + HD
    ev = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": cmd}})
    t = time.time()
    p = subprocess.run([BIN], input=ev.encode(), capture_output=True)
    dt = time.time() - t
    out = p.stdout.decode()[:300]
    print(f"{label:30s} size={len(cmd):8d} t={dt*1000:8.1f}ms rc={p.returncode} {out[:200]!r}", flush=True)
    return dt, p
