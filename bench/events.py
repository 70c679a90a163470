"""Writes the benchmark's hook events to <out>/events/: one JSON event per case."""
import json, pathlib, sys

out = pathlib.Path(sys.argv[1]) / "events"
out.mkdir(parents=True, exist_ok=True)
for old in out.glob("*.json"):
    old.unlink()

def bash(cmd):
    return {"session_id": "bench", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": cmd, "description": "bench"}}

LINE = "- handle `EOF)` closers and $(...) text in the message body, see #12\n"

def commit(size):
    body = LINE * (size // len(LINE))
    return bash("git commit -m \"$(cat <<'EOF'\nfix: the thing\n\n" + body + "EOF\n)\"")

def heredoc(size, quoted):
    text = "text with $HOME and ${USER:-me}, 50% off (see notes)\n"
    delim = "'EOF'" if quoted else "EOF"
    return bash(f"cat > notes.md <<{delim}\n" + text * (size // len(text)) + "EOF")

def nested(depth):
    return bash("echo " + "$(echo " * depth + "x" + ")" * depth + "\ncat <<EOF\n$HOME\nEOF")

def subshells(depth):
    return bash("( " * depth + "echo x" + " )" * depth + "\ncat <<EOF\n$HOME\nEOF")

M = 1024 * 1024
cases = {
    "1-non-bash": {"tool_name": "Write", "tool_input": {"file_path": "/tmp/x", "content": "x" * 2000}},
    "2-no-heredoc": bash("git status --short && cargo test --quiet 2>&1 | tail -20"),
    "3-commit-2k": commit(2048),
    "4-heredoc-100k": heredoc(100 * 1024, True),
    "5a-heredoc-1m-quoted": heredoc(M, True),
    "5b-heredoc-1m-unquoted": heredoc(M, False),
    "6-subshells-990": subshells(990),
    "7-scale-256k": heredoc(256 * 1024, False),
    "7-scale-1m": heredoc(M, False),
    "7-scale-4m": heredoc(4 * M - 4096, False),
    "8-subshells-250": subshells(250),
    "8-subshells-500": subshells(500),
    "8-substitutions-100": nested(100),
    "8-substitutions-200": nested(200),
    "8-substitutions-400-work-limit": nested(400),
    "9-commit-1m-in-substitution": commit(M),
    "9-commit-4m-in-substitution": commit(4 * M - 4096),
    "10-dense-code-at-work-limit": bash("echo " + "a " * (M // 2) + "\ncat <<EOF\nx\nEOF"),
    "10-empty-lines-4m": bash("cat <<EOF\n" + "\n" * (4 * M - 4096) + "EOF"),
    "10-backquotes-4m": bash("cat <<EOF\n" + "`a` " * ((4 * M - 4096) // 4) + "\nEOF"),
}

# One construct × k, each filling the command size limit (4 MiB) or the nesting it allows:
# the shapes that were slow once (quadratic rescans, recursion per operator, a later line
# searched per heredoc) and the dense ones. Each must be answered, allow or deny, in well
# under 100 ms.
LIMIT = 4 * M - 4096
HD = "\ncat <<EOF\nx\nEOF"

def fill(prefix, unit, suffix=""):
    return bash(prefix + unit * ((LIMIT - len(prefix) - len(suffix)) // len(unit)) + suffix)

cases.update({
    "11-word-4m": fill("echo ", "a", HD),
    "11-quoted-parts-in-a-word-4m": fill("echo ", '"a"', HD),
    "11-backquotes-in-quotes-in-a-word-4m": fill("echo ", '"`a`"', HD),
    "11-assignments-in-a-word-4m": fill("a=", "a=", HD),
    "11-arithmetic-in-a-word-4m": fill("echo ", "$((1))", HD),
    "11-substitutions-in-a-word-4m": fill("echo ", "$(a)", HD),
    "11-conditional-and-4m": fill("[[ a", " && a", " ]]" + HD),
    "11-compound-assignment-4m": fill("a=(", " x", " )" + HD),
    "11-nested-arithmetic-900": bash("echo " + "$((" * 900 + "1" + "))" * 900 + HD),
    "11-backslash-newlines-in-an-operator-4m": fill("echo a <", "\\\n", "<a" + HD),
    "11-joined-body-lines-4m": fill("cat <<EOF\n", "a\\\n", "\nEOF"),
    "11-early-ends-then-lines-4m": fill("echo $(cat <<EOF\nEOF)\n" * 990, "a\n", "EOF\n"),
    "11-heredoc-operators-after-a-body-4m": fill("cat <<E\n", "x\n", "E\n" + "cat <<F " * 990 + "\n" + "F\n" * 990),
    "11-dense-lines-4m": fill("", "a a a a a a a a a a a a a a a a a a a a a a a a\n", HD),
})
for name, event in cases.items():
    (out / f"{name}.json").write_text(json.dumps(event))
