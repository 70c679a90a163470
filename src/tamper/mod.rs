//! The `guard-tamper` rule: a shell command from the agent that would switch the guard off
//! or change it, decided by what the command does to the guard, on the reader's readings
//! of it (every dialect's, the same the other rules see), never by a scanner of its own.
//!
//! Denied (`judge` below):
//! - running the guard's own `install` or `uninstall` (any path to it, behind `sudo`,
//!   `env`, `timeout`, …), a package manager removing or replacing it (`npm uninstall -g
//!   heredoc-guard`, `cargo uninstall heredoc-guard`), `claude plugin disable|uninstall
//!   heredoc-guard…`, and `codex features disable hooks`;
//! - writing, moving, removing or changing the mode of the guard's binary (the running
//!   one, and `heredoc-guard` in each PATH directory), a directory holding it, or a file
//!   of that name;
//! - writing, editing in place, moving, removing or restoring (`git checkout`) a file that
//!   holds a heredoc-guard hook now, or a directory above one the guard knows
//!   (`hooks.rs` reads the files at check time, without ever waiting);
//! - the same for the agents' managed-policy directories (`/etc/claude-code`, `/etc/codex`,
//!   `/etc/gemini-cli`, `/etc/github-copilot`, `/Library/Application Support/…`);
//! - writing into a settings file an agent reads (user, project, local: by its place,
//!   `paths.rs`) when the command shows text that switches hooks off (`switches.rs`, with
//!   the evidence from each client);
//! - loading zsh's `zsh/mapfile` module (its `mapfile` parameter writes and removes any
//!   file by name), and a command in a quoted subscript a builtin evaluates (`read
//!   'a[$(rm f)]'`), walked as shell text;
//! - interpreter code (inline, or a heredoc, here-string or pipe it reads) that names a
//!   file holding the hook and writes files (`open(…, 'w')`, `writeFileSync`, `unlink`,
//!   `rename`, …), or names a settings file and shows a switch-off.
//!
//! Everything else about settings is an ordinary file: a project's permissions, a theme, a
//! model, another tool's hook, any program reading them, and writing them by heredoc,
//! `jq … > tmp && mv tmp f`, `sed -i` or inline code when nothing there holds the hook and
//! the command shows no switch-off. A switch-off shown is denied whatever is installed:
//! the guard runs, so some install of it is in force, and no agent task needs it.
//!
//! Paths: `~`, `$HOME`, `${HOME}`, `$PWD` and the agents' home variables resolve from the
//! guard's environment, a variable the command gives a literal value (an assignment,
//! `export`, a `for` loop) to each of its values, `$(command -v X)` to X on PATH, relative
//! paths from the event's `cwd` and every directory a literal `cd` names. It is a check of
//! the text, not a sandbox: a path the command computes otherwise (a substitution, a
//! function's argument), content it does not show (a file written by a program, a
//! value from a variable), a script it writes first and runs, and the agents' own file
//! tools (Claude Code's Write and Edit, Codex's apply_patch), which the hook is not called
//! for, are not covered. Against an agent that means to switch the guard off, the answer
//! is the managed install: root-owned policy that no user-level change undoes.

mod braces;
mod commands;
mod hooks;
mod judge;
mod paths;
mod printed;
mod switches;
#[cfg(test)]
mod tests;
mod walk;

use std::path::{Path, PathBuf};

use crate::shell::Reading;
use crate::verdict::{Denial, Rule};
use hooks::Places;
use walk::Walker;

/// What the check knows of the place the command runs in: where it is, and where the
/// guard and the agents' settings are.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ctx {
    /// `$HOME`.
    home: Option<PathBuf>,
    /// The event's working directory (or the process's).
    cwd: Option<PathBuf>,
    /// The running guard's binary.
    exe: Vec<PathBuf>,
    /// The agents' directories the environment names, with the name of the default one:
    /// (`.claude`, `$CLAUDE_CONFIG_DIR`), (`.codex`, `$CODEX_HOME`), (`.gemini`,
    /// `$GEMINI_CLI_HOME`), (`.copilot`, `$COPILOT_HOME`).
    homes: Vec<(&'static str, PathBuf)>,
    /// `$PATH`'s directories (where other copies of the guard are looked for).
    path_dirs: Vec<PathBuf>,
    /// Managed-policy files the environment moves (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`).
    managed: Vec<PathBuf>,
}

/// The environment variables naming the agents' directories.
const HOME_VARS: [(&str, &str); 4] = [
    ("CLAUDE_CONFIG_DIR", ".claude"),
    ("CODEX_HOME", ".codex"),
    ("GEMINI_CLI_HOME", ".gemini"),
    ("COPILOT_HOME", ".copilot"),
];

impl Ctx {
    /// The context of this process, for a command run in `cwd` (the event's; `None`: the
    /// process's own). Reads the environment and the running binary's path, nothing else.
    pub(crate) fn of_process(cwd: Option<&str>) -> Ctx {
        let env_path = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        let cwd = cwd
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::current_dir().ok())
            .map(|p| paths::normalize(&p));
        Ctx {
            home: env_path("HOME").map(|p| paths::normalize(&p)),
            cwd,
            exe: std::env::current_exe().into_iter().collect(),
            homes: HOME_VARS
                .iter()
                .filter_map(|(var, dir)| env_path(var).map(|p| (*dir, paths::normalize(&p))))
                .collect(),
            path_dirs: std::env::var_os("PATH")
                .map(|p| {
                    std::env::split_paths(&p)
                        .filter(|d| d.is_absolute())
                        .take(64)
                        .collect()
                })
                .unwrap_or_default(),
            managed: env_path("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
                .into_iter()
                .collect(),
        }
    }

    /// The value of a variable the guard knows (`HOME`, the agents' home variables).
    fn var(&self, name: &[u8]) -> Option<String> {
        let path = if name == b"HOME" {
            self.home.as_ref()
        } else {
            let (_, dir) = HOME_VARS.iter().find(|(v, _)| v.as_bytes() == name)?;
            self.homes.iter().find(|(d, _)| d == dir).map(|(_, p)| p)
        };
        path.map(|p| p.to_string_lossy().into_owned())
    }

    /// Whether `text` names the guard: `heredoc-guard`, or the running binary's path.
    fn names_guard(&self, text: &[u8]) -> bool {
        crate::search::find(text, b"heredoc-guard").is_some()
            || self.exe.iter().any(|e| {
                let e = e.as_os_str().as_encoded_bytes();
                e.len() > 1 && crate::search::find(text, e).is_some()
            })
    }

    /// Whether the command word `word` runs the guard: a file named `heredoc-guard`, or
    /// the running binary by its path.
    fn is_exe(&self, word: &str) -> bool {
        if !self.may_name_exe(word.as_bytes()) {
            return false;
        }
        let p = Path::new(word);
        p.file_name().is_some_and(|n| n == "heredoc-guard")
            || (p.is_absolute() && self.exe.iter().any(|e| paths::normalize(p) == *e))
    }

    /// Whether text may name the guard's binary: it holds `heredoc-guard` or the running
    /// binary's file name (a path's file name, normalised or not, is text of the word).
    fn may_name_exe(&self, word: &[u8]) -> bool {
        let holds = |name: &[u8]| !name.is_empty() && find(word, name);
        holds(b"heredoc-guard") || self.exe.iter().any(|e| last_name(e).is_none_or(holds))
    }

    /// Whether `name` (a bare command name) is the running binary's file name.
    /// The file names the guard's binary runs under.
    fn exe_names(&self) -> impl Iterator<Item = String> + '_ {
        self.exe
            .iter()
            .filter_map(|e| e.file_name())
            .map(|n| n.to_string_lossy().into_owned())
    }

    fn is_exe_name(&self, name: &str) -> bool {
        self.exe.iter().any(|e| {
            // (A path not ending in `/` or `.` ends in its file name: most names are
            // told apart without taking the path apart.)
            let b = e.as_os_str().as_encoded_bytes();
            (b.ends_with(name.as_bytes()) || b.ends_with(b"/") || b.ends_with(b"."))
                && e.file_name().is_some_and(|n| n == name)
        })
    }

    fn managed_roots(&self) -> impl Iterator<Item = PathBuf> + '_ {
        paths::MANAGED_ROOTS
            .iter()
            .map(PathBuf::from)
            .chain(self.managed.iter().cloned())
    }
}

/// Whether `needle` occurs in `hay`.
pub(super) fn find(hay: &[u8], needle: &[u8]) -> bool {
    crate::search::contains(hay, needle)
}

/// The bytes after a path's last `/`, where they are its file name (not empty, `.` or
/// `..`): what [`Path::file_name`] gives, without taking the path apart.
fn last_name(p: &Path) -> Option<&[u8]> {
    let b = p.as_os_str().as_encoded_bytes();
    let name = match crate::search::rfind_byte(b, b'/') {
        Some(at) => b.get(at + 1..)?,
        None => b,
    };
    (!matches!(name, b"" | b"." | b"..")).then_some(name)
}

/// The denial for `command`, when what it does would switch the guard off or change it.
/// `readings` are the reader's readings of it (every dialect the check made); they share
/// one work meter, which this check charges too: past it, the verdict is a limit.
pub(crate) fn check(command: &str, readings: &[&Reading], ctx: &Ctx) -> Option<Denial> {
    let work = &readings.first()?.work;
    let mut walker = Walker::new(ctx, work);
    walker.readings_agree = readings.len() > 1;
    for r in readings {
        walker.reading(r, command.as_bytes(), 0);
        if walker.over {
            break;
        }
    }
    let over = || {
        Some(crate::reason::limit_denial(match work.over() {
            Some(crate::shell::Over::Time) => crate::limits::Limit::Time,
            Some(crate::shell::Over::Depth) => crate::limits::Limit::Nesting,
            _ => crate::limits::Limit::Work,
        }))
    };
    if walker.over {
        return over();
    }
    if walker.actions.is_empty() {
        return None;
    }
    let switch = switches::find(command.as_bytes())
        .or_else(|| walker.shown.iter().find_map(|t| switches::find(t)));
    let places = Places::new(ctx);
    let mut judged = std::collections::HashSet::new();
    for action in &walker.actions {
        // The same path changed the same way is judged once.
        if let walk::Action::Touch { target, how, .. } = action
            && !judged.insert((target, *how))
        {
            continue;
        }
        // Judging looks at the disk (a few `stat`s, a small file read once): charged.
        if !work.charge(JUDGE_WORK) {
            return over();
        }
        if let Some(what) = judge::judge(action, &places, switch, ctx) {
            return Some(denial(&what));
        }
    }
    None
}

/// The work one action's judging is charged (in the reader's units, about a microsecond
/// each: the `stat`s and the one read it may take).
const JUDGE_WORK: usize = 256;

/// Whether a one-line command the reader need not read (no newline, heredoc, quote,
/// escape or expansion: every word is as written) may concern the guard: it writes a file
/// through a redirection (not `2>&1`, not `/dev/null`), or any of its words (as brace
/// expansion makes them, zsh's `=rm` as `rm`) is a command the rule looks at with the
/// words that make it one (`git checkout`, `sed -i`, `find -delete`, a package manager
/// naming heredoc-guard, …), or a glob that may name one (`/usr/bin/c[p]`), or a JSON or
/// TOML file (which a program the rule does not know may write). Any word, not
/// the first: words before a command's name that the shells read as precommands or
/// keywords (`time -p`, `coproc`, `function f {`, zsh's `repeat 1`, `nocorrect`, `{ … }
/// always { … }`) are not all known here (round 73). Such a line is then read, so that
/// [`check`] sees it; the others cannot be denied by it.
pub(crate) fn may_concern(line: &[u8], ctx: &Ctx) -> bool {
    if writes_a_file(line) || ctx.names_guard(line) {
        return true;
    }
    // (A line with more words written as patterns than [`MAX_PATTERN_WORDS`] is read,
    // where the work meter bounds what it costs: each is matched against every name the
    // rule knows, unmetered here; a line of them ran into the process's backstop, round 81.)
    let mut patterns = 0usize;
    line.split(|c| b";&|()".contains(c)).any(|segment| {
        let mut words: Vec<String> = Vec::new();
        // (A redirection glued to a word ends it: `rm</dev/null f`, round 74.)
        for w in segment
            .split(|&c| c.is_ascii_whitespace() || c == b'<' || c == b'>')
            .filter(|w| !w.is_empty())
        {
            match braces::expand(&crate::shell::text::Text::command(w)) {
                Some(made) => words.extend(
                    made.iter()
                        .map(|t| String::from_utf8_lossy(t.bytes()).into_owned()),
                ),
                // (More words than followed: read.)
                None => return true,
            }
        }
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        refs.iter().any(|w| {
            let w = w.strip_prefix('=').filter(|n| !n.is_empty()).unwrap_or(w);
            let name = w.rsplit('/').next().unwrap_or(w);
            if paths::is_glob(name) {
                patterns += 1;
                return patterns > MAX_PATTERN_WORDS
                    || !commands::glob_names(name, ctx).is_empty()
                    || w.contains(".json");
            }
            // (A word that may name a settings file, for a program the rule does not
            // know, which may write it: `sort -o f.json`, round 74.)
            if name.ends_with(".json") || name.ends_with(".toml") {
                return true;
            }
            commands::kind(name, ctx).is_some_and(|k| commands::concerns(k, &refs))
        })
    })
}

/// Most words written as patterns [`may_concern`] matches in a line; past them it is read.
const MAX_PATTERN_WORDS: usize = 64;

/// Whether a line (as written) redirects output to a file other than `/dev/null`.
fn writes_a_file(line: &[u8]) -> bool {
    memchr::memchr_iter(b'>', line).any(|at| {
        let rest = &line[at + 1..];
        let rest = rest
            .strip_prefix(b">")
            .or_else(|| rest.strip_prefix(b"|"))
            .unwrap_or(rest);
        let start = rest
            .iter()
            .position(|c| !c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let target: Vec<u8> = rest[start..]
            .iter()
            .copied()
            .take_while(|c| !c.is_ascii_whitespace() && !b";&|()<>".contains(c))
            .collect();
        // `>&1`, `>&-`: a descriptor (`>&file` writes a file).
        let dup = rest.get(start) == Some(&b'&')
            && rest
                .get(start + 1)
                .is_none_or(|c| c.is_ascii_digit() || *c == b'-');
        let empty_dup = rest.get(start) == Some(&b'&');
        !(dup || (target.is_empty() && !empty_dup) || target == b"/dev/null")
    })
}

fn denial(what: &str) -> Denial {
    Denial::new(
        Rule::GuardTamper,
        format!(
            "heredoc-guard: this command would {what}: the agent may not switch off or change the guard that checks its own commands. If that is really wanted, the user does it from a terminal, outside the agent (heredoc-guard doctor shows the setup; heredoc-guard uninstall removes it). Reading these files is allowed."
        ),
    )
}
