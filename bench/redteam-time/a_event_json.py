# Large events: 64 MiB of escapes in an ignored field, in the command, surrogate pairs.
import json, subprocess, time
import os
BIN = os.environ.get("HEREDOC_GUARD_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../target/release/heredoc-guard"))
def t(label, ev):
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "%e s %M KB", BIN], input=ev, capture_output=True)
    print(f"{label:40s} size={len(ev)} wall={time.time()-t0:.3f}s rc={p.returncode} {p.stderr.decode().strip()[-30:]!r} {p.stdout[:100]!r}", flush=True)
N = 64 * 1024 * 1024 - 200
hd = "\ncat <<'EOF'\nx\nEOF\n"
t("ignored field of \\u escapes", b'{"hook_event_name":"PreToolUse","tool_name":"Bash","x":"' + b"\\u0041" * (N // 6) + b'","tool_input":{"command":"cat <<EOF\\nx\\nEOF\\n"}}')
t("command of \\n escapes (64MiB)", b'{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"' + b"\\n" * (N // 2) + b'"}}')
t("command of surrogate pairs", b'{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"<<E ' + b"\\ud83d\\ude00" * (N // 12) + b'"}}')
t("deep arrays ignored", b'{"hook_event_name":"PreToolUse","tool_name":"Bash","x":' + b"[" * 100 + b"]" * 100 + b',"tool_input":{"command":"cat <<EOF\\nx\\nEOF\\n"}}')
t("many small keys ignored", b'{"hook_event_name":"PreToolUse","tool_name":"Bash",' + b'"k":0,' * (N // 6) + b'"tool_input":{"command":"cat <<EOF\\nx\\nEOF\\n"}}')
t("big tool_input extra keys", b'{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{' + b'"k":[1,2,{"a":"b"}],' * (N // 21) + b'"command":"cat <<EOF\\nx\\nEOF\\n"}}')
