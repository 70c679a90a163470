# The eval-nested-substitution recursion (a_eval_nested_subst.py) on the 256 MiB-stack
# thread (the command nests > 48 levels elsewhere) with a large heredoc as the eval's input:
# every recursion level clones the Ctx (stdin = the body text) and keeps it on the stack
# until the overflow.
import json, subprocess, time
import os
BIN = os.environ.get("HEREDOC_GUARD_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../target/release/heredoc-guard"))
def gen(body_kb, depth=60):
    body = ("y" * 63 + "\n") * (body_kb * 1024 // 64)
    deep = "(" * depth + ":" + ")" * depth + "\n"
    return deep + "eval 'echo $(echo $(echo x))' <<'EOF'\n" + body + "EOF\n"
if __name__ == "__main__":
    for body_kb in [0, 4, 64]:
        cmd = gen(body_kb)
        ev = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": cmd}})
        t = time.time()
        p = subprocess.run(["bash", "-c", f"ulimit -v 8000000; exec /usr/bin/time -f '%e s %M KB' {BIN}"], input=ev.encode(), capture_output=True)
        print(f"eval-nested-bigstack body={body_kb}K size={len(cmd)} wall={time.time()-t:.2f}s rc={p.returncode} stderr={p.stderr.decode().strip()[-120:]!r} out={p.stdout.decode()[:100]!r}", flush=True)
