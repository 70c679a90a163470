"""Ordinary shell scripts for the bench, each at an exact size in bytes.

The first seven are the script shapes of issue 28 ("Scripts at reading speed"); the last
two are templates of real public scripts' shapes (an installer, a test suite), written
here, not copied. Nothing in any of them runs heredoc text: a guard that denies one of them
denies an ordinary script. Every text is ASCII, so its length is its size in bytes.
"""

# One shape: (name, header, unit(i), footer). The script is the header, units 0, 1, 2, ...
# while they fit, a comment line that pads it to the exact size, and the footer.


def echo_lines(i):
    return f'echo "line {i} $HOME" >> out.txt\n'


def heredoc_functions(i):
    return (f"write_{i}() {{\n  cat > file_{i}.txt <<'EOF'\n"
            f"config {i} $(not run) ${{X}}\nmore text here\nEOF\n}}\n")


def read_loops(i):
    return f"while read -r l; do echo \"got $l\"; done <<'EOF'\nitem {i} a\nitem {i} b\nEOF\n"


def exports(i):
    return f'export VAR_{i}="value-{i}"\n'


def if_blocks(i):
    return f'if [[ -f "file_{i}.txt" ]]; then\n  echo "found {i}"\nfi\n'


def pipelines(i):
    return f"cd dir_{i} && ls -la | grep -v x | wc -l\n"


TEST_HEADER = ('pass=0\nfail=0\ncleanup() { rm -rf "$tmp"; }\ntrap cleanup EXIT\n'
               'tmp=$(mktemp -d)\n')


def test_blocks(i):
    return f"""test_{i}() {{
  local out
  out=$(printf '%s\\n' "case {i}")
  if [ "$out" = "case {i}" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  cat > "$tmp/expected_{i}" <<'EOF'
expected output {i} with $(not run)
EOF
}}
test_{i}
"""


# Imitates the shape of a curl-piped installer such as rustup's rustup-init.sh
# (rust-lang/rustup) or nvm's install.sh (nvm-sh/nvm): small helpers (say, err, need_cmd,
# ensure), platform detection with `case "$(uname -s)"`, curl-or-wget downloads, a quoted
# heredoc written as an env file, `main "$@"` at the end.
INSTALLER_HEADER = r"""#!/bin/sh
set -u
TOOL_HOME="${TOOL_HOME:-$HOME/.tool}"
say() { printf 'tool-install: %s\n' "$1"; }
err() { say "$1" >&2; exit 1; }
need_cmd() { if ! command -v "$1" > /dev/null 2>&1; then err "need '$1' (command not found)"; fi; }
ensure() { if ! "$@"; then err "command failed: $*"; fi; }
downloader() {
  if command -v curl > /dev/null 2>&1; then
    curl --proto '=https' --tlsv1.2 --silent --show-error --fail --location "$1" --output "$2"
  elif command -v wget > /dev/null 2>&1; then
    wget --https-only --secure-protocol=TLSv1_2 "$1" -O "$2"
  else
    err "need curl or wget"
  fi
}
get_architecture() {
  _ostype="$(uname -s)"
  _cputype="$(uname -m)"
  case "$_ostype" in
    Linux) _ostype=unknown-linux-gnu ;;
    Darwin) _ostype=apple-darwin ;;
    FreeBSD) _ostype=unknown-freebsd ;;
    *) err "unrecognized OS type: $_ostype" ;;
  esac
  case "$_cputype" in
    x86_64 | x86-64 | amd64) _cputype=x86_64 ;;
    aarch64 | arm64) _cputype=aarch64 ;;
    *) err "unknown CPU type: $_cputype" ;;
  esac
  RETVAL="$_cputype-$_ostype"
}
"""


def installer(i):
    return f"""install_component_{i}() {{
  local _dir="$TOOL_HOME/components/c{i}"
  local _url="${{TOOL_DIST_SERVER:-https://static.example.org}}/dist/c{i}/$RETVAL/c{i}.tar.gz"
  ensure mkdir -p "$_dir"
  if [ -n "${{TOOL_VERBOSE:-}}" ]; then
    say "downloading component {i} from $_url"
  fi
  downloader "$_url" "$_dir/c{i}.tar.gz" || err "download of component {i} failed"
  ensure tar -xzf "$_dir/c{i}.tar.gz" -C "$_dir"
  case "$RETVAL" in
    *-apple-darwin) ensure chmod +x "$_dir/bin/"* ;;
    *) ensure chmod 755 "$_dir/bin/"* ;;
  esac
  cat > "$_dir/env" <<'EOF'
#!/bin/sh
case ":${{PATH}}:" in
  *:"$HOME/.tool/bin":*) ;;
  *) export PATH="$HOME/.tool/bin:$PATH" ;;
esac
EOF
  say "installed component {i} to $_dir"
}}
"""


INSTALLER_FOOTER = """main() {
  need_cmd uname
  need_cmd mkdir
  need_cmd tar
  get_architecture || return 1
  _i=0
  while command -v "install_component_$_i" > /dev/null 2>&1; do
    "install_component_$_i" || return 1
    _i=$((_i + 1))
  done
}
main "$@" || exit 1
"""

# Imitates the shape of a test script from git's own test suite (git/git, t/tNNNN-*.sh):
# `test_expect_success 'title' '...'` blocks whose single-quoted bodies hold commands and
# `<<-\EOF` heredocs, expected output written with quoted heredocs between them, the test
# library sourced at the top and `test_done` at the end.
TEST_SUITE_HEADER = """#!/bin/sh
test_description='log and diff on a small history'
. ./test-lib.sh
"""


def test_suite(i):
    return f"""test_expect_success 'commit {i} and its log' '
\techo "content {i}" >file{i} &&
\tgit add file{i} &&
\ttest_tick &&
\tgit commit -m "commit {i}" &&
\tcat >expect <<-\\EOF &&
\tcommit {i}
\tEOF
\tgit log -1 --format=%s >actual &&
\ttest_cmp expect actual
'

cat >expect.diff{i} <<\\EOF
diff --git a/file{i} b/file{i}
--- a/file{i}
+++ b/file{i}
@@ -1 +1 @@
-content {i}
+changed {i} with $(not run) and `not run`
EOF

test_expect_success 'diff {i}' '
\techo "changed {i} with \\$(not run) and \\`not run\\`" >file{i} &&
\tgit diff file{i} >actual &&
\ttest_cmp expect.diff{i} actual
'

"""


SHAPES = [
    ("echo-lines", "", echo_lines, ""),
    ("heredoc-functions", "", heredoc_functions, ""),
    ("read-loops", "", read_loops, ""),
    ("exports", "", exports, ""),
    ("if-blocks", "", if_blocks, ""),
    ("pipelines", "", pipelines, ""),
    ("test-blocks", TEST_HEADER, test_blocks, ""),
    ("installer", INSTALLER_HEADER, installer, INSTALLER_FOOTER),
    ("test-suite", TEST_SUITE_HEADER, test_suite, "test_done\n"),
]

# What each shape is, for the report.
TITLES = {
    "echo-lines": '`echo "line $i $HOME" >> out.txt` lines',
    "heredoc-functions": "functions that write a quoted heredoc each",
    "read-loops": "`while read -r l; do ...; done <<'EOF'` loops",
    "exports": '`export VAR_i="value-i"` lines',
    "if-blocks": "`if [[ -f ... ]]; then ...; fi` blocks",
    "pipelines": "`cd d && ls -la | grep -v x | wc -l` lines",
    "test-blocks": "test-script blocks (functions, a trap, a quoted heredoc)",
    "installer": "installer (shape of rustup-init.sh, nvm's install.sh)",
    "test-suite": "test suite (shape of git's t/tNNNN-*.sh)",
}

# The sizes of issue 28: 4 KiB to just under the command size limit (1 MiB = 1,048,576
# bytes); 1,040,000 leaves room under it.
SIZES = [4096, 16384, 65536, 262144, 1040000]


def script(shape, size):
    """The script of `shape` (a name in SHAPES), exactly `size` bytes long."""
    _, header, unit, footer = next(s for s in SHAPES if s[0] == shape)
    parts, used, i = [header], len(header) + len(footer), 0
    if used > size:
        raise ValueError(f"{shape}: {size} bytes is less than its header and footer ({used})")
    while True:
        u = unit(i)
        if used + len(u) > size:
            break
        parts.append(u)
        used += len(u)
        i += 1
    rest = size - used
    if rest == 1:
        parts.append("\n")
    elif rest > 1:
        parts.append("#" + "-" * (rest - 2) + "\n")
    parts.append(footer)
    text = "".join(parts)
    assert len(text) == size and text.isascii()
    return text
