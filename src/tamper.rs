//! The `guard-tamper` rule: a shell command from the agent that would switch the guard
//! off or change it, denied with a reason that says to do it from a terminal.
//!
//! What it denies, read from the command's text:
//!
//! - running `heredoc-guard install` or `uninstall` (any path to it, behind `sudo`, `env`,
//!   `command`, `exec`, `nohup`, `timeout`, …);
//! - removing, moving or replacing the guard's binary: `rm`, `mv`, `unlink`, `shred`,
//!   `truncate`, `chmod`, `chown`, `chattr` of a path to it, a copy or link (`cp`, `ln`,
//!   `install`, `rsync`) onto it, a redirection (`>`, `>>`) or `tee` into it, a package
//!   manager removing or replacing it (`npm uninstall -g heredoc-guard`,
//!   `cargo uninstall heredoc-guard`, `npm install -g heredoc-guard` over it), and
//!   `claude plugin disable|uninstall heredoc-guard…`;
//! - writing, moving or removing the settings that hold the hook: Claude Code's
//!   `.claude/settings.json` and `.claude/settings.local.json` (the user's and any
//!   project's) and the `.claude` directory itself, Codex's `.codex/hooks.json`,
//!   `.codex/config.toml` (where the hook's trust is) and the `.codex` directory, and the
//!   managed files under `/etc/claude-code`, `/Library/Application Support/ClaudeCode` and
//!   `/etc/codex`: by the commands above, by a redirection, `tee`, `sed -i`/`perl -i`,
//!   `git checkout|restore|rm|mv` of them, or an interpreter's inline code (`python3 -c`,
//!   `node -e`, …) that names them.
//!
//! `bash -c`/`sh -c`/`eval` strings are read the same way, and text inside `$(…)` and
//! backquotes. A heredoc body is data, skipped, unless it goes to a shell (read the same
//! way: `bash <<'EOF'`, `cat <<'EOF' | sh`) or an interpreter (`python3 - <<'EOF'`, which
//! is denied when the code names a protected file).
//!
//! What it passes: reading those files (`cat`, `jq`, `grep`, `less`, `cp` from them),
//! `heredoc-guard explain|doctor|log|config|strip|completions`, and everything else.
//!
//! It is a best-effort check of the text, not a sandbox: a command can reach the same
//! files through names it computes at run time (`f=~/.cl; rm "${f}aude/settings.json"`), a
//! script it writes first, a program that does it by itself, or a file-editing tool the
//! hook does not see (Claude Code's Write and Edit, Codex's apply_patch). Against an agent
//! that means to switch the guard off, the answer is the managed install: root-owned
//! policy that no user-level change undoes.

use crate::verdict::{Denial, Rule};

/// Substrings of which a command must hold one before it is read at all: the check costs
/// nothing for the commands that cannot concern it.
const MARKERS: [&str; 7] = [
    "heredoc-guard",
    ".claude",
    ".codex",
    "claude-code",
    "ClaudeCode",
    "/etc/codex",
    "settings",
];

/// What a tampering command would do, for the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tamper {
    pub what: String,
}

/// The denial for `command`, when it would switch the guard off or change it.
pub fn check(command: &str) -> Option<Denial> {
    if !has_marker(command) {
        return None;
    }
    if let Some(limit) = over_limits(command) {
        return Some(crate::reason::limit_denial(limit));
    }
    let t = find_in(command, 0)?;
    Some(Denial::new(
        Rule::GuardTamper,
        format!(
            "heredoc-guard: this command would {}: the agent may not switch off or change the guard that checks its own commands. If that is really wanted, the user does it from a terminal, outside the agent (heredoc-guard doctor shows the setup; heredoc-guard uninstall removes it). Reading the settings (cat, jq, grep) is allowed.",
            t.what
        ),
    ))
}

/// The first tampering found in `command` (for the unit tests: [`check`] is the way in).
#[cfg(test)]
fn find(command: &str) -> Option<Tamper> {
    if !has_marker(command) {
        return None;
    }
    find_in(command, 0)
}

/// Whether `command` holds one of the [`MARKERS`] (a vectorised search for each: this runs
/// on every command, up to 1 MiB).
fn has_marker(command: &str) -> bool {
    MARKERS
        .iter()
        .any(|m| memchr::memmem::find(command.as_bytes(), m.as_bytes()).is_some())
}

/// Whether `command` (which holds a marker) is too large to read within the limits (over
/// the command size, or with more heredoc operators than the reader follows): denied as a
/// limit, since what it does to the guard cannot be read.
fn over_limits(command: &str) -> Option<crate::limits::Limit> {
    if command.len() > crate::limits::MAX_COMMAND_BYTES {
        return Some(crate::limits::Limit::CommandSize);
    }
    let operators = memchr::memmem::find_iter(command.as_bytes(), b"<<").count();
    (operators > crate::shell::MAX_HEREDOCS).then_some(crate::limits::Limit::Heredocs)
}

fn find_in(command: &str, depth: usize) -> Option<Tamper> {
    if depth > 4 {
        // Text nested deeper than the check reads, in a command that names the guard:
        // what it does cannot be read.
        return Some(Tamper {
            what: "run shell text nested deeper than heredoc-guard reads, in a command that names its files".to_owned(),
        });
    }
    let (lines, bodies) = without_heredoc_bodies(command);
    let anywhere_config_dir = command.contains(".claude") || command.contains(".codex");
    let split = split_commands(&lines);
    for simple in &split.commands {
        if let Some(t) = judge(simple, anywhere_config_dir, depth) {
            return Some(t);
        }
    }
    if let Some(t) = split
        .nested
        .iter()
        .find_map(|inner| find_in(inner, depth + 1))
    {
        return Some(t);
    }
    // A heredoc given to a shell or an interpreter is code, not data.
    bodies.iter().find_map(|h| {
        receivers_of(h).iter().find_map(|receiver| {
            if is_shell(receiver) {
                find_in(&h.body, depth + 1)
            } else if is_interpreter(receiver) {
                names_protected(&h.body, anywhere_config_dir).map(|what| Tamper {
                    what: format!("run {receiver} code (a heredoc) that names {what}"),
                })
            } else {
                None
            }
        })
    })
}

/// The commands a heredoc's text reaches: the one it is given to, and those its output
/// is piped to on the same line (`cat <<'EOF' | sh`).
fn receivers_of(h: &Body<'_>) -> Vec<String> {
    // The receiver's name stands right before the `<<` and its pipes right after: only
    // the nearest [`RECEIVER_WINDOW`] bytes are read, so a long line holding many
    // heredocs is read in linear time.
    let mut names: Vec<String> = receiver_of(tail(h.before, RECEIVER_WINDOW))
        .into_iter()
        .collect();
    for piped in head(h.after, RECEIVER_WINDOW).split('|').skip(1) {
        if let Some(name) = receiver_of(piped) {
            names.push(name);
        }
    }
    names
}

/// How much of a heredoc's line, before and after its `<<`, is read for its receiver.
const RECEIVER_WINDOW: usize = 4096;

/// The last `n` bytes of `s` (from a character boundary).
fn tail(s: &str, n: usize) -> &str {
    let mut start = s.len().saturating_sub(n);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

/// The first `n` bytes of `s` (to a character boundary).
fn head(s: &str, n: usize) -> &str {
    let mut end = n.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn is_shell(name: &str) -> bool {
    matches!(name, "bash" | "sh" | "zsh" | "dash" | "ksh")
}

fn is_interpreter(name: &str) -> bool {
    matches!(
        name,
        "python" | "python3" | "python2" | "node" | "perl" | "ruby" | "php" | "deno" | "bun"
    )
}

/// The first protected path named anywhere in `code`.
fn names_protected(code: &str, anywhere: bool) -> Option<String> {
    code.split(|c: char| c.is_whitespace() || "'\"(),;[]{}`=".contains(c))
        .find_map(|piece| target_of(piece, anywhere))
}

/// The command a heredoc goes to: the name of the last simple command in the text of its
/// line before the `<<`.
fn receiver_of(before: &str) -> Option<String> {
    let split = split_commands(before);
    let words: Vec<&str> = split
        .commands
        .last()?
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.as_str()),
            Token::WriteTo(_) => None,
        })
        .collect();
    let name = words.iter().find(|w| !is_prefix_word(w))?;
    Some(basename(name).to_owned())
}

/// One token of a simple command: a word (quotes removed), or a redirection target.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    /// The target of `>`, `>>`, `>|`, `&>`, `<>`: a file written.
    WriteTo(String),
}

/// A heredoc's body, and its line's text before its `<<`.
struct Body<'a> {
    before: &'a str,
    /// The rest of its line after the `<<`.
    after: &'a str,
    body: String,
}

/// The command's text with heredoc bodies (the lines after a `<<WORD` up to the line
/// holding only WORD) blanked, and the bodies.
fn without_heredoc_bodies(command: &str) -> (String, Vec<Body<'_>>) {
    let mut out = String::with_capacity(command.len());
    let mut pending: std::collections::VecDeque<(String, bool, &str, &str)> =
        std::collections::VecDeque::new();
    let mut bodies = Vec::new();
    let mut body = String::new();
    for line in command.split_inclusive('\n') {
        if let Some((delim, strip_tabs, before, after)) = pending.front() {
            let text = line.trim_end_matches('\n');
            let text = if *strip_tabs {
                text.trim_start_matches('\t')
            } else {
                text
            };
            if text == delim {
                bodies.push(Body {
                    before,
                    after,
                    body: std::mem::take(&mut body),
                });
                pending.pop_front();
            } else {
                body.push_str(line);
            }
            out.push('\n');
            continue;
        }
        out.push_str(line);
        pending.extend(
            heredoc_delimiters(line)
                .into_iter()
                .map(|(word, strip, at)| (word, strip, &line[..at], &line[at..])),
        );
    }
    if !pending.is_empty() {
        // A heredoc that never closes (or a `<<` this scanner took for one inside quotes,
        // a comment or arithmetic): its lines are judged as commands, not hidden.
        out.push_str(&body);
    }
    (out, bodies)
}

/// The delimiters of the heredocs a line opens, with whether `<<-` strips tabs and the
/// byte offset of the `<<`.
fn heredoc_delimiters(line: &str) -> Vec<(String, bool, usize)> {
    let mut found = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i..].starts_with(b"<<<") {
            // A here-string, not a heredoc.
            i += 3;
            continue;
        }
        if b[i] == b'<' && b[i + 1] == b'<' {
            let mut j = i + 2;
            let strip = b.get(j) == Some(&b'-');
            if strip {
                j += 1;
            }
            while b.get(j).is_some_and(|c| *c == b' ' || *c == b'\t') {
                j += 1;
            }
            let start = j;
            while b.get(j).is_some_and(|c| {
                !matches!(
                    c,
                    b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b')' | b'<' | b'>'
                )
            }) {
                j += 1;
            }
            let word: String = line[start..j]
                .chars()
                .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                .collect();
            if !word.is_empty() {
                found.push((word, strip, i));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

/// Reads a `$(…)` (from just after its `(`) or a backquoted text (from just after its
/// opening backquote) up to its end; returns the inner text and the index after the end.
fn substitution(chars: &[char], mut i: usize, backquote: bool) -> (String, usize) {
    let mut inner = String::new();
    let mut depth = 1usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            inner.push(c);
            inner.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if backquote && c == '`' {
            return (inner, i + 1);
        }
        if !backquote {
            if c == '(' {
                depth += 1;
            } else if c == ')' {
                depth -= 1;
                if depth == 0 {
                    return (inner, i + 1);
                }
            }
        }
        inner.push(c);
        i += 1;
    }
    (inner, i)
}

/// What [`split_commands`] found: the simple commands, and the texts of the substitutions
/// in them (read again as commands of their own).
struct Split {
    commands: Vec<Vec<Token>>,
    nested: Vec<String>,
}

/// Splits text into simple commands (on newlines, `;`, `&`, `|`, parentheses), each a list
/// of tokens with quotes removed; a `$(…)` or backquoted text stays in its word and is
/// also kept to be read on its own.
fn split_commands(text: &str) -> Split {
    let mut commands = Vec::new();
    let mut nested = Vec::new();
    let mut current: Vec<Token> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut redirect_next = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let flush_word = |word: &mut String,
                      in_word: &mut bool,
                      redirect_next: &mut bool,
                      current: &mut Vec<Token>| {
        if *in_word {
            let w = std::mem::take(word);
            if *redirect_next {
                current.push(Token::WriteTo(w));
                *redirect_next = false;
            } else {
                current.push(Token::Word(w));
            }
            *in_word = false;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    } else if chars[i] == '`' || (chars[i] == '$' && chars.get(i + 1) == Some(&'('))
                    {
                        let backquote = chars[i] == '`';
                        let (inner, next) =
                            substitution(&chars, i + if backquote { 1 } else { 2 }, backquote);
                        word.push_str(&format!("$({inner})"));
                        nested.push(inner);
                        i = next;
                        continue;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '\\' => {
                in_word = true;
                if let Some(&n) = chars.get(i + 1) {
                    if n != '\n' {
                        word.push(n);
                    }
                    i += 1;
                }
            }
            '`' | '$' if c == '`' || chars.get(i + 1) == Some(&'(') => {
                in_word = true;
                let backquote = c == '`';
                let (inner, next) =
                    substitution(&chars, i + if backquote { 1 } else { 2 }, backquote);
                word.push_str(&format!("$({inner})"));
                nested.push(inner);
                i = next;
                continue;
            }
            ' ' | '\t' => flush_word(&mut word, &mut in_word, &mut redirect_next, &mut current),
            '\n' | ';' | '&' | '|' | '(' | ')' => {
                flush_word(&mut word, &mut in_word, &mut redirect_next, &mut current);
                // `&>` is a redirection, not a separator.
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    i += 1;
                    redirect_next = true;
                    if chars.get(i + 1) == Some(&'>') {
                        i += 1;
                    }
                } else if !current.is_empty() {
                    commands.push(std::mem::take(&mut current));
                }
            }
            '>' => {
                // A descriptor number right before it (`2>`) is no word of the command.
                if in_word && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                flush_word(&mut word, &mut in_word, &mut redirect_next, &mut current);
                while matches!(chars.get(i + 1), Some('>' | '|')) {
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'&') {
                    // `>&2`: a descriptor, not a file.
                    i += 1;
                } else {
                    redirect_next = true;
                }
            }
            '<' => {
                flush_word(&mut word, &mut in_word, &mut redirect_next, &mut current);
                if chars.get(i + 1) == Some(&'>') {
                    i += 1;
                    redirect_next = true;
                }
                // `<file` only reads: the next word stays a word.
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    flush_word(&mut word, &mut in_word, &mut redirect_next, &mut current);
    if !current.is_empty() {
        commands.push(current);
    }
    Split { commands, nested }
}

/// Words that put the next word in command position.
fn is_prefix_word(w: &str) -> bool {
    matches!(
        w,
        "sudo"
            | "doas"
            | "env"
            | "command"
            | "builtin"
            | "exec"
            | "nohup"
            | "nice"
            | "time"
            | "stdbuf"
            | "setsid"
            | "then"
            | "do"
            | "else"
            | "elif"
            | "if"
            | "while"
            | "until"
            | "!"
            | "{"
            | "}"
            | "xargs"
    ) || is_assignment(w)
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

fn basename(w: &str) -> &str {
    w.rsplit('/').next().unwrap_or(w)
}

/// A path to the guard's binary (or the npm package that holds it).
fn is_guard_binary(w: &str) -> bool {
    basename(w.trim_end_matches('/')) == "heredoc-guard"
        // `"$(command -v heredoc-guard)"`, `` `which heredoc-guard` ``
        || (w.contains("$(") && w.contains("heredoc-guard"))
        || w.contains("node_modules/heredoc-guard")
        || w.contains("@heredoc-guard/")
}

/// A settings file (or a directory holding them) where the hook lives.
fn is_protected_setting(w: &str, anywhere_config_dir: bool) -> bool {
    let w = w.trim_end_matches('/');
    let name = basename(w);
    let parent = w.strip_suffix(name).unwrap_or("").trim_end_matches('/');
    let parent_name = basename(parent);
    let claude_file = matches!(name, "settings.json" | "settings.local.json");
    let codex_file = matches!(name, "hooks.json" | "config.toml");
    (claude_file && parent_name == ".claude")
        || (codex_file && parent_name == ".codex")
        || name == ".claude"
        || name == ".codex"
        || w.starts_with("/etc/claude-code")
        || w.starts_with("/etc/codex")
        || w.starts_with("/Library/Application Support/ClaudeCode")
        || (claude_file && w.contains("CLAUDE_CONFIG_DIR"))
        || (codex_file && w.contains("CODEX_HOME"))
        // `cd ~/.claude && rm settings.json`: a bare name, when the command names the
        // directory somewhere.
        || (anywhere_config_dir && parent.is_empty() && (claude_file || codex_file))
}

/// `~/.claude` or `~/.codex` itself (a directory), not a file in it.
fn is_config_dir(w: &str) -> bool {
    matches!(basename(w.trim_end_matches('/')), ".claude" | ".codex")
}

fn target_of(w: &str, anywhere: bool) -> Option<String> {
    if is_guard_binary(w) {
        Some(format!("the guard's binary {w}"))
    } else if is_protected_setting(w, anywhere) {
        Some(format!("the settings that hold the guard's hook ({w})"))
    } else {
        None
    }
}

/// Judges one simple command.
fn judge(tokens: &[Token], anywhere: bool, depth: usize) -> Option<Tamper> {
    // A redirection into a protected file, whatever the command.
    for t in tokens {
        if let Token::WriteTo(target) = t
            && let Some(what) = target_of(target, anywhere)
        {
            return Some(Tamper {
                what: format!("write {what} (a redirection)"),
            });
        }
    }
    let words: Vec<&str> = tokens
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.as_str()),
            Token::WriteTo(_) => None,
        })
        .collect();
    // Skip what puts the next word in command position (and their options).
    let mut at = 0;
    while at < words.len() {
        let w = words[at];
        if is_prefix_word(w) {
            at += 1;
            // Options of sudo, env, nice, timeout…: skip them (and `-u user`).
            while at < words.len() && words[at].starts_with('-') {
                // `-n` takes a number for nice, none for sudo.
                let takes_value = matches!(words[at], "-u" | "-g" | "-C" | "-a")
                    || (words[at] == "-n"
                        && words.get(at + 1).is_some_and(|v| v.parse::<i64>().is_ok()));
                at += if takes_value { 2 } else { 1 };
            }
            continue;
        }
        if w == "timeout" {
            at += 1;
            while at < words.len() && words[at].starts_with('-') {
                at += 1;
            }
            at += 1; // the duration
            continue;
        }
        break;
    }
    let name_word = *words.get(at)?;
    let name = basename(name_word);
    let args = &words[at + 1..];
    let first_operand = args.iter().find(|a| !a.starts_with('-')).copied();

    // heredoc-guard install|uninstall.
    if is_guard_binary(name_word) {
        return match first_operand {
            Some(sub @ ("install" | "uninstall")) => Some(Tamper {
                what: format!("run heredoc-guard {sub}, which changes the agents' hooks"),
            }),
            _ => None,
        };
    }
    let names_guard_package = || {
        args.iter().any(|a| {
            let a = a.trim_start_matches('@');
            a == "heredoc-guard"
                || a.starts_with("heredoc-guard@")
                || a.starts_with("heredoc-guard/")
                || is_guard_binary(a)
        })
    };
    match name {
        // Shells and eval: read their command strings the same way.
        "bash" | "sh" | "zsh" | "dash" | "ksh" => {
            if let Some(i) = args
                .iter()
                .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
                && let Some(code) = args
                    .get(i + 1)
                    .filter(|a| **a != "--")
                    .or_else(|| args.get(i + 2))
            {
                return find_in(code, depth + 1);
            }
            None
        }
        "eval" => find_in(&args.join(" "), depth + 1),
        // Interpreters' inline code that names a protected file.
        "python" | "python3" | "python2" | "node" | "perl" | "ruby" | "php" | "deno" | "bun" => {
            let inline = args
                .iter()
                .position(|a| matches!(*a, "-c" | "-e" | "-E" | "-pe" | "-ne" | "-pie" | "eval"));
            if let Some(i) = inline {
                // perl -i edits files in place: the files are the operands.
                if name == "perl"
                    && args
                        .iter()
                        .any(|a| a.starts_with("-i") || a.starts_with("-pi"))
                {
                    for a in args {
                        if let Some(what) = target_of(a, anywhere) {
                            return Some(Tamper {
                                what: format!("edit {what} in place"),
                            });
                        }
                    }
                }
                if let Some(what) = args
                    .get(i + 1)
                    .and_then(|code| names_protected(code, anywhere))
                {
                    return Some(Tamper {
                        what: format!("run inline code that names {what}"),
                    });
                }
            }
            if name == "bun"
                && names_guard_package()
                && args
                    .iter()
                    .any(|a| matches!(*a, "remove" | "rm" | "add" | "install" | "i" | "uninstall"))
            {
                return Some(Tamper {
                    what: "change the installed heredoc-guard package".to_owned(),
                });
            }
            None
        }
        // Package managers removing or replacing the installed guard.
        "npm" | "pnpm" | "yarn" | "cargo" | "brew" => {
            let verb = first_operand.unwrap_or("");
            let changes = matches!(
                verb,
                "uninstall"
                    | "remove"
                    | "rm"
                    | "r"
                    | "un"
                    | "unlink"
                    | "install"
                    | "i"
                    | "add"
                    | "update"
                    | "upgrade"
                    | "up"
                    | "link"
                    | "global"
            );
            (changes && names_guard_package()).then(|| Tamper {
                what: format!("{name} {verb} the installed heredoc-guard"),
            })
        }
        "claude" => {
            let plugin = args.first() == Some(&"plugin") || args.first() == Some(&"plugins");
            let verb = args.get(1).copied().unwrap_or("");
            (plugin
                && matches!(verb, "disable" | "uninstall" | "remove" | "rm")
                && args.iter().any(|a| a.starts_with("heredoc-guard")))
            .then(|| Tamper {
                what: format!("claude plugin {verb} the heredoc-guard plugin"),
            })
        }
        // Removing, moving, changing the mode or owner: every operand counts.
        "rm" | "unlink" | "shred" | "truncate" | "chmod" | "chown" | "chgrp" | "chattr"
        | "rmdir" | "srm" | "trash" | "trash-put" | "gio" => args
            .iter()
            .filter(|a| !a.starts_with('-'))
            .find_map(|a| target_of(a, anywhere))
            .map(|what| Tamper {
                what: format!("{name} {what}"),
            }),
        // Moving, copying or linking: what is moved away, and what is written over (the
        // last operand, or -t DIR).
        "mv" | "cp" | "ln" | "install" | "rsync" | "scp" => {
            let mut operands: Vec<&str> = Vec::new();
            let mut target_dir: Option<&str> = None;
            let mut i = 0;
            while i < args.len() {
                let a = args[i];
                if a == "-t" || a == "--target-directory" {
                    target_dir = args.get(i + 1).copied();
                    i += 2;
                    continue;
                }
                if let Some(dir) = a.strip_prefix("--target-directory=") {
                    target_dir = Some(dir);
                } else if !a.starts_with('-') {
                    operands.push(a);
                }
                i += 1;
            }
            let (sources, dest) = match target_dir {
                Some(dir) => (&operands[..], Some(dir)),
                None if operands.len() >= 2 => {
                    (&operands[..operands.len() - 1], operands.last().copied())
                }
                None => (&operands[..], None),
            };
            if name == "mv"
                && let Some(what) = sources.iter().find_map(|a| target_of(a, anywhere))
            {
                return Some(Tamper {
                    what: format!("mv {what} away"),
                });
            }
            let dest = dest?;
            // Onto the file itself, or into a directory where a source of that name lands
            // (`cp /tmp/settings.json ~/.claude/`; but `cp CLAUDE.md ~/.claude/` passes).
            let direct = (!is_config_dir(dest))
                .then(|| target_of(dest, anywhere))
                .flatten();
            let landed = || {
                // Past a path's length or a thousand sources, only the directory itself
                // is judged (each source would cost the destination's length again).
                if dest.len() > 4096 || sources.len() > 1000 {
                    return is_config_dir(dest).then(|| dest.to_owned());
                }
                sources.iter().find_map(|s| {
                    let name = basename(s.trim_end_matches('/'));
                    target_of(&format!("{}/{name}", dest.trim_end_matches('/')), anywhere)
                })
            };
            direct.or_else(landed).map(|what| Tamper {
                what: format!("{name} onto {what}"),
            })
        }
        "tee" | "sponge" => args
            .iter()
            .filter(|a| !a.starts_with('-'))
            .find_map(|a| target_of(a, anywhere))
            .map(|what| Tamper {
                what: format!("write {what} ({name})"),
            }),
        "dd" => args
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .find_map(|a| target_of(a, anywhere))
            .map(|what| Tamper {
                what: format!("write {what} (dd)"),
            }),
        "sed" | "gsed" => {
            let in_place = args.iter().any(|a| {
                a.starts_with("-i")
                    || *a == "--in-place"
                    || a.starts_with("--in-place=")
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
            });
            if !in_place {
                return None;
            }
            args.iter()
                .filter(|a| !a.starts_with('-'))
                .find_map(|a| target_of(a, anywhere))
                .map(|what| Tamper {
                    what: format!("edit {what} in place (sed -i)"),
                })
        }
        "git" => {
            let verb = first_operand.unwrap_or("");
            if !matches!(
                verb,
                "checkout" | "restore" | "rm" | "mv" | "reset" | "stash" | "clean"
            ) {
                return None;
            }
            args.iter()
                .filter(|a| !a.starts_with('-'))
                .find_map(|a| target_of(a, anywhere))
                .map(|what| Tamper {
                    what: format!("git {verb} {what}"),
                })
        }
        "find" => {
            let destructive = args
                .iter()
                .any(|a| matches!(*a, "-delete" | "-exec" | "-execdir" | "-ok"));
            if !destructive {
                return None;
            }
            args.iter()
                .find_map(|a| target_of(a, anywhere))
                .map(|what| Tamper {
                    what: format!("find … -delete/-exec on {what}"),
                })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::find;

    #[test]
    fn denies_what_switches_the_guard_off() {
        for c in [
            "heredoc-guard uninstall claude",
            "heredoc-guard install codex --no-trust",
            "~/.cargo/bin/heredoc-guard uninstall codex",
            "sudo /usr/local/bin/heredoc-guard uninstall claude --managed",
            "env FOO=1 heredoc-guard uninstall claude",
            "cd /tmp && heredoc-guard uninstall claude",
            "echo ok; heredoc-guard uninstall claude",
            "rm ~/.cargo/bin/heredoc-guard",
            "rm -f \"$(command -v heredoc-guard)\" /usr/local/bin/heredoc-guard",
            "mv /usr/local/bin/heredoc-guard /tmp/x",
            "cp /bin/true ~/.cargo/bin/heredoc-guard",
            "chmod -x ~/.cargo/bin/heredoc-guard",
            "printf '#!/bin/sh\\nexit 0' > ~/.cargo/bin/heredoc-guard",
            "npm uninstall -g heredoc-guard",
            "npm rm -g heredoc-guard",
            "cargo uninstall heredoc-guard",
            "claude plugin disable heredoc-guard@heredoc-guard",
            "claude plugin uninstall heredoc-guard@heredoc-guard",
            "echo '{}' > ~/.claude/settings.json",
            "jq 'del(.hooks)' ~/.claude/settings.json > /tmp/s && mv /tmp/s ~/.claude/settings.json",
            "rm -rf ~/.claude",
            "rm .claude/settings.local.json",
            "sed -i 's/heredoc-guard/true/' ~/.codex/hooks.json",
            "tee ~/.codex/config.toml < /dev/null",
            "cat /dev/null >| $HOME/.codex/hooks.json",
            "git checkout -- .claude/settings.json",
            "cd ~/.claude && rm settings.json",
            "python3 -c \"import os; os.remove(os.path.expanduser('~/.claude/settings.json'))\"",
            "bash -c 'rm ~/.codex/hooks.json'",
            "sh -c \"heredoc-guard uninstall codex\"",
            "eval 'heredoc-guard uninstall claude'",
            "sudo rm /etc/claude-code/managed-settings.d/heredoc-guard.json",
            "sudo tee /etc/codex/requirements.toml < x",
            "echo x >> /etc/codex/requirements.toml",
            "x=$(rm ~/.claude/settings.json)",
            "cat <<'EOF' > ~/.claude/settings.json\n{}\nEOF",
            "find ~/.codex -name hooks.json -delete",
            "timeout 5 heredoc-guard uninstall claude",
            "cp --target-directory=/usr/local/bin ./heredoc-guard",
            "cp -t ~/.claude /tmp/settings.json",
            "mv ~/.codex ~/.codex.off",
            "cp /tmp/settings.json ~/.claude/",
            "python3 - <<'EOF'\nimport os\nos.remove(os.path.expanduser('~/.claude/settings.json'))\nEOF",
            "bash <<'EOF'\necho hi\nheredoc-guard uninstall codex\nEOF",
            "cat <<'EOF' | sh\nrm ~/.codex/hooks.json\nEOF",
            "rm \"$(command -v heredoc-guard)\"",
            "rm $(which heredoc-guard)",
            "echo \"$(rm ~/.codex/hooks.json)\"",
            "perl -pi -e 's/x/y/' ~/.claude/settings.json",
        ] {
            assert!(find(c).is_some(), "not denied: {c}");
        }
    }

    #[test]
    fn passes_reading_and_the_guard_s_read_only_commands() {
        for c in [
            "cat ~/.claude/settings.json",
            "jq .hooks ~/.claude/settings.json",
            "grep -n heredoc-guard ~/.codex/hooks.json",
            "less .claude/settings.local.json",
            "cp ~/.claude/settings.json /tmp/backup.json",
            "heredoc-guard explain 'cat <<EOF\nx\nEOF'",
            "heredoc-guard explain 'heredoc-guard uninstall claude'",
            "heredoc-guard doctor",
            "heredoc-guard doctor claude --json",
            "heredoc-guard log --since 1d",
            "heredoc-guard config claude",
            "heredoc-guard --version",
            "heredoc-guard completions bash > ~/.local/share/bash-completion/completions/heredoc-guard.bash",
            "echo heredoc-guard uninstall is how you remove it",
            "git commit -m 'install heredoc-guard'",
            "cargo build --release",
            "npm install -g @anthropic-ai/claude-code",
            "rm -rf target/ node_modules/",
            "echo '{}' > settings.json",
            "sed -i 's/a/b/' config.toml",
            "vim .vscode/settings.json",
            "mkdir -p .claude/commands && echo hi > .claude/commands/x.md",
            "ls -la ~/.claude ~/.codex",
            "cat > notes.md <<'EOF'\nrm ~/.claude/settings.json\nheredoc-guard uninstall claude\nEOF",
            "ls 2>/dev/null; echo done >&2",
            "diff ~/.claude/settings.json ~/.claude/settings.json.heredoc-guard-backup-x",
            "cp CLAUDE.md ~/.claude/",
            "cp ~/.claude/settings.json .",
            "cp ~/.claude/settings.json ./",
            "mv notes.md ~/.claude/",
            "cp ~/.codex/config.toml /tmp/config.toml.bak",
        ] {
            assert_eq!(find(c), None, "denied: {c}");
        }
    }
}
