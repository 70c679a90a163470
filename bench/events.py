"""Writes the benchmark's hook events: <out>/events/ one JSON event per case (timed next to
`cat` by hyperfine), <out>/shapes/ the ordinary scripts of bench/shapes.py at each size,
each as <shape>@<size>.json (a Claude Code PreToolUse Bash event) and <shape>@<size>.sh
(the same command, for `bash -n`).

Usage: events.py OUT [--quick] [--shapes-only] [--sizes N,N,...]
  --quick        the cases the process ratios use and the heredoc bodies, and the shapes
                 at 4 KiB and 1,040,000 bytes (BENCH_QUICK=1 bench/run)
  --shapes-only  no events/ cases
  --sizes        the shapes' sizes in bytes (default: bench/shapes.py's SIZES)
"""
import argparse, json, pathlib, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import shapes

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--quick", action="store_true")
parser.add_argument("--shapes-only", action="store_true")
parser.add_argument("--sizes")
args = parser.parse_args()

root = pathlib.Path(args.out)
out = root / "events"
shape_dir = root / "shapes"
for d in (out, shape_dir):
    d.mkdir(parents=True, exist_ok=True)
    for old in list(d.glob("*.json")) + list(d.glob("*.sh")):
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
    "5a-heredoc-1m-quoted": heredoc(M - 4096, True),
    "5b-heredoc-1m-unquoted": heredoc(M - 4096, False),
    "6-subshells-990": subshells(990),
    "7-scale-256k": heredoc(256 * 1024, False),
    "7-scale-512k": heredoc(512 * 1024, False),
    "7-scale-1m": heredoc(M - 4096, False),
    "8-subshells-250": subshells(250),
    "8-subshells-500": subshells(500),
    "8-substitutions-100": nested(100),
    "8-substitutions-200": nested(200),
    "8-substitutions-400-work-limit": nested(400),
    "9-commit-256k-in-substitution": commit(256 * 1024),
    "9-commit-1m-in-substitution": commit(M - 4096),
    "10-dense-code-1m": bash("echo " + "a " * ((M - 4096) // 2) + "\ncat <<EOF\nx\nEOF"),
    "10-empty-lines-1m": bash("cat <<EOF\n" + "\n" * (M - 4096) + "EOF"),
    "10-backquotes-1m": bash("cat <<EOF\n" + "`a` " * ((M - 4096) // 4) + "\nEOF"),
}

# One construct × k, each filling the command size limit (1 MiB) or the nesting it allows:
# the shapes that were slow once (quadratic rescans, recursion per operator, a later line
# searched per heredoc) and the dense ones. Each must be answered, allow or deny, in well
# under 100 ms.
LIMIT = M - 4096
HD = "\ncat <<EOF\nx\nEOF"

def fill(prefix, unit, suffix=""):
    return bash(prefix + unit * ((LIMIT - len(prefix) - len(suffix)) // len(unit)) + suffix)

cases.update({
    "11-word-1m": fill("echo ", "a", HD),
    "11-quoted-parts-in-a-word-1m": fill("echo ", '"a"', HD),
    "11-backquotes-in-quotes-in-a-word-1m": fill("echo ", '"`a`"', HD),
    "11-assignments-in-a-word-1m": fill("a=", "a=", HD),
    "11-arithmetic-in-a-word-1m": fill("echo ", "$((1))", HD),
    "11-substitutions-in-a-word-1m": fill("echo ", "$(a)", HD),
    "11-substitutions-across-joined-lines-in-a-word-1m": fill("echo \"", "$(a)\\\n", "\"" + HD),
    "11-conditional-and-1m": fill("[[ a", " && a", " ]]" + HD),
    "11-compound-assignment-1m": fill("a=(", " x", " )" + HD),
    "11-nested-arithmetic-900": bash("echo " + "$((" * 900 + "1" + "))" * 900 + HD),
    "11-backslash-newlines-in-an-operator-1m": fill("echo a <", "\\\n", "<a" + HD),
    "11-joined-body-lines-1m": fill("cat <<EOF\n", "a\\\n", "\nEOF"),
    "11-quoted-default-words-in-a-body-1m": fill("cat <<EOF\n", '${a-"$b"} ', "\nEOF"),
    "11-early-ends-then-lines-1m": fill("echo $(cat <<EOF\nEOF)\n" * 990, "a\n", "EOF\n"),
    "11-heredoc-operators-after-a-body-1m": fill("cat <<E\n", "x\n", "E\n" + "cat <<F " * 990 + "\n" + "F\n" * 990),
    "11-dense-lines-1m": fill("", "a a a a a a a a a a a a a a a a a a a a a a a a\n", HD),
})
# The time red team's shapes (bench/redteam-time/), built against the effects model, each
# near the command size limit; and events at the event size limit (8 MiB) whose decoding
# comes before any other limit.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "redteam-time"))
import a_alias_defs, a_files_glob, a_names_prefix, a_unset_effects, a_assign_named
import a_read_fields, a_cat_segments, a_positional_bigval, a_eval_fanout, a_split_rebinds
import a_unit_aliases, a_starts
RT = "\ncat <<'EOF'\nx\nEOF\n"
E = 8 * M - 1024
cases.update({
    "12-alias-definitions-40000": bash(a_alias_defs.gen(40000) + RT),
    "12-files-globbed-40000": bash(a_files_glob.gen(40000, 40000) + RT),
    "12-names-by-prefix-30000": bash(a_names_prefix.gen(30000, 30000) + RT),
    "12-unset-effects-80000": bash(a_unset_effects.gen(80000) + RT),
    "12-assign-named-30000": bash(a_assign_named.gen(30000, 30000) + RT),
    "12-read-fields-1m-x50": bash(a_read_fields.gen(1000, 50)),
    "12-cat-segments-1m-x400": bash(a_cat_segments.gen(1000, 400)),
    "12-positional-1m-x20000": bash(a_positional_bigval.gen(800, 20000)),
    "12-eval-fanout-8": bash(a_eval_fanout.gen(8, 100) + RT),
    "12-split-rebinds-100000": bash(a_split_rebinds.gen(100000) + RT),
    "12-unit-aliases-15000": bash(a_unit_aliases.gen(15000, 15000) + RT),
    "12-starts-60000": bash(a_starts.gen(60000) + RT),
    "12-arithmetic-self-naming-800k": bash("v=$(cat <<'E'\n" + "+".join(["v"] * 400000) + "\nE\n)\necho $((v))\n"),
    "12-eight-texts-as-90000-arguments": bash(("".join(f"v=$(cat <<'E'\n{'a' * 60000}{j}\nE\n)\n" for j in range(8)) + "grep" + " $v" * 100000)[:M - 4096] + "\n"),
    # guard-tamper's walk of text piped through compound commands (round 81): a command
    # in a piped group whose words the walk once scanned again for each word, a group of
    # commands piped into a shell, and a plain line of `[` commands each once matched
    # against every command name the rule knows, unmetered.
    "12-piped-group-words-390k": bash("printf a | { true; " + "-x " * 40000 + "foo " + '"$y" ' * 40000 + "; }" + RT),
    "12-piped-group-echoes-100k": bash("{ " + "echo;" * 20000 + " } | sh" + RT),
    "12-test-brackets-900k": bash("[ a ];" * 150000),
    # Round 82: a word of open braces (each `{` looked for its `}` to the word's end:
    # quadratic, unmetered, into the backstop at 16 KB), and 300,000 groups opened and
    # never closed.
    "12-open-braces-16k": bash("echo " + "{" * 16000),
    "12-open-brace-groups-1m": bash("echo " + "{a," * 300000),
    # Round 97: a trap per block beside functions and heredocs (what a trap may read was
    # gathered over the whole program for each trap: quadratic, 25 KB took 40 ms).
    "12-traps-beside-heredocs-100k": bash("".join(
        "trap 'rm -f \"$tmp\"' EXIT\ng_%d() { local n=$1; echo $((n + 1)); }\n"
        "cat <<'E' > \"out%d.txt\"\nx\nE\ng_%d 3\n" % (i, i, i) for i in range(1000))),
    # Round 97's fourth helper: literal eval text read with a copy of the alias table
    # each (quadratic, 52 KB took 2.3 billion instructions), and each eval or trap
    # command looked up in a list of every such text (quadratic).
    "12-aliases-beside-evals-52k": bash("cat <<'E' > f\nx\nE\n" + "".join(
        "alias a%d='ls -l'\neval :\n" % i for i in range(2000))),
    "12-eval-lines-56k": bash("eval :;" * 8000),
    "12-event-8m-newline-escapes": bash("\n" * (E // 2)),
    "12-event-8m-unicode-escapes": bash("\x01" * (E // 6)),
    "12-event-8m-write": {"hook_event_name": "PreToolUse", "tool_name": "Write",
                          "tool_input": {"file_path": "/tmp/x", "content": "x\n" * (E // 3)}},
})


# The ordinary scripts (issue 28), each at each size.
if args.sizes:
    sizes = [int(n) for n in args.sizes.split(",")]
elif args.quick:
    sizes = [shapes.SIZES[0], shapes.SIZES[-1]]
else:
    sizes = shapes.SIZES
for shape, *_ in shapes.SHAPES:
    for size in sizes:
        text = shapes.script(shape, size)
        (shape_dir / f"{shape}@{size}.json").write_text(json.dumps(bash(text)))
        (shape_dir / f"{shape}@{size}.sh").write_text(text)

# What the process ratios and BENCH_QUICK=1 time with hyperfine.
QUICK = ["1-non-bash", "2-no-heredoc", "3-commit-2k", "5a-heredoc-1m-quoted", "5b-heredoc-1m-unquoted"]
if args.shapes_only:
    cases = {}
elif args.quick:
    cases = {name: cases[name] for name in QUICK}
for name, event in cases.items():
    (out / f"{name}.json").write_text(json.dumps(event))
