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
//! guard's environment, relative paths from the event's `cwd` and every directory a literal
//! `cd` names. It is a check of the text, not a sandbox: a path the command computes (a
//! substitution, a variable), content it does not show (a file written by a program, a
//! value from a variable), a script it writes first and runs, and the agents' own file
//! tools (Claude Code's Write and Edit, Codex's apply_patch), which the hook is not called
//! for, are not covered. Against an agent that means to switch the guard off, the answer
//! is the managed install: root-owned policy that no user-level change undoes.

mod commands;
mod hooks;
mod paths;
mod switches;
#[cfg(test)]
mod tests;
mod walk;

use std::path::{Path, PathBuf};

use crate::shell::Reading;
use crate::verdict::{Denial, Rule};
use hooks::Places;
use paths::Target;
use walk::{Action, Walker};

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
        memchr::memmem::find(text, b"heredoc-guard").is_some()
            || self.exe.iter().any(|e| {
                let e = e.as_os_str().as_encoded_bytes();
                e.len() > 1 && memchr::memmem::find(text, e).is_some()
            })
    }

    /// Whether the command word `word` runs the guard: a file named `heredoc-guard`, or
    /// the running binary by its path.
    fn is_exe(&self, word: &str) -> bool {
        let p = Path::new(word);
        p.file_name().is_some_and(|n| n == "heredoc-guard")
            || (p.is_absolute() && self.exe.iter().any(|e| paths::normalize(p) == *e))
    }

    /// Whether `name` (a bare command name) is the running binary's file name.
    fn is_exe_name(&self, name: &str) -> bool {
        self.exe
            .iter()
            .any(|e| e.file_name().is_some_and(|n| n == name))
    }

    fn managed_roots(&self) -> impl Iterator<Item = PathBuf> + '_ {
        paths::MANAGED_ROOTS
            .iter()
            .map(PathBuf::from)
            .chain(self.managed.iter().cloned())
    }
}

/// The denial for `command`, when what it does would switch the guard off or change it.
/// `readings` are the reader's readings of it (every dialect the check made); they share
/// one work meter, which this check charges too: past it, the verdict is a limit.
pub(crate) fn check(command: &str, readings: &[&Reading], ctx: &Ctx) -> Option<Denial> {
    let work = &readings.first()?.work;
    let mut walker = Walker::new(ctx, work);
    for r in readings {
        walker.reading(r, command.as_bytes(), 0);
        if walker.over {
            break;
        }
    }
    if walker.over {
        return Some(crate::reason::limit_denial(match work.over() {
            Some(crate::shell::Over::Time) => crate::limits::Limit::Time,
            Some(crate::shell::Over::Depth) => crate::limits::Limit::Nesting,
            _ => crate::limits::Limit::Work,
        }));
    }
    if walker.actions.is_empty() {
        return None;
    }
    let switch = switches::find(command.as_bytes())
        .or_else(|| walker.shown.iter().find_map(|t| switches::find(t)));
    let places = Places::new(ctx);
    let what = walker
        .actions
        .iter()
        .find_map(|a| judge(a, &places, switch, ctx))?;
    Some(denial(&what))
}

/// Whether a one-line command the reader need not read (no newline, heredoc, quote,
/// escape or expansion: every word is as written) may concern the guard: it writes a file
/// through a redirection (not `2>&1`, not `/dev/null`), or a word is a command the rule
/// looks at, with the words that make it one (`git checkout`, `sed -i`, `find -delete`,
/// a package manager naming heredoc-guard, …). Such a line is then read, so that [`check`]
/// sees it; the others cannot be denied by it.
pub(crate) fn may_concern(line: &[u8], ctx: &Ctx) -> bool {
    if writes_a_file(line) || ctx.names_guard(line) {
        return true;
    }
    line.split(|c| b";&|()".contains(c)).any(|segment| {
        let words: Vec<&str> = segment
            .split(|c| c.is_ascii_whitespace() || b"<>".contains(c))
            .filter(|w| !w.is_empty())
            .filter_map(|w| std::str::from_utf8(w).ok())
            .collect();
        // The command's name: its first word past assignments; past a wrapper (whose
        // options may take values), any later word.
        let mut after_wrapper = false;
        for (i, w) in words.iter().enumerate() {
            let name = w.rsplit('/').next().unwrap_or(w);
            let kind = commands::kind(name, ctx);
            if kind == Some(commands::Kind::Wrapper) {
                after_wrapper = true;
                continue;
            }
            if !after_wrapper && w.contains('=') && i + 1 < words.len() {
                continue;
            }
            if kind.is_some_and(|k| commands::concerns(k, &words)) {
                return true;
            }
            if !after_wrapper {
                return false;
            }
        }
        false
    })
}

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

/// What an action does to the guard, for the reason; `None` when it leaves it alone.
fn judge(action: &Action, places: &Places<'_>, switch: Option<&str>, ctx: &Ctx) -> Option<String> {
    match action {
        Action::Guard(what) => Some(what.clone()),
        Action::Unread => Some(format!(
            "run shell text nested deeper than heredoc-guard reads ({} levels), naming its files",
            walk::MAX_DEPTH
        )),
        Action::Touch { target, how, by } => {
            let shown = target.shown();
            if let Some(what) = managed(target, how.recursive(), ctx) {
                return Some(format!("{by} {shown}, {what}"));
            }
            if binary(target, how.recursive(), places, ctx) {
                return Some(format!("{by} {shown}, the guard's binary"));
            }
            if let Some(held) = hook_file(target, how.recursive(), places, ctx) {
                return Some(match held {
                    None => format!("{by} {shown}, which holds heredoc-guard's hook"),
                    Some(k) => format!("{by} {shown}, which holds {k} with heredoc-guard's hook"),
                });
            }
            let s = switch?;
            (how.writes_content() && settings_file(target, places, ctx)).then(|| {
                format!(
                    "{by} {shown} with {s}, which switches the agents' hooks off (the guard's too)"
                )
            })
        }
        Action::Find {
            starts,
            names,
            paths: patterns,
        } => {
            let known = places.known();
            known.iter().find_map(|k| {
                let start = starts.iter().find(|s| match s {
                    Target::Exact(p) => k.starts_with(p),
                    Target::Pattern(p) => paths::glob_covers(p, k),
                })?;
                let name = k.file_name()?.to_string_lossy();
                let named = names.is_empty()
                    || names
                        .iter()
                        .any(|n| paths::fnmatch(n.as_bytes(), name.as_bytes(), false));
                let pathed = patterns.is_empty()
                    || patterns.iter().any(|p| {
                        paths::fnmatch(p.as_bytes(), k.to_string_lossy().as_bytes(), false)
                            || paths::fnmatch(
                                p.trim_start_matches("./").as_bytes(),
                                k.to_string_lossy().as_bytes(),
                                false,
                            )
                            || k.to_string_lossy()
                                .ends_with(p.trim_start_matches(['.', '*']))
                    });
                (named && pathed && places.holds(k)).then(|| {
                    format!(
                        "find {} -delete/-exec, reaching {}, which holds heredoc-guard's hook",
                        start.shown(),
                        paths::clip(&k.to_string_lossy())
                    )
                })
            })
        }
        Action::Code { by, text, named } => code(by, text, named, places, switch, ctx),
    }
}

/// Markers of code that writes, moves or removes files (Python, JavaScript, Ruby, Perl,
/// PHP, awk).
const WRITES: [&str; 22] = [
    "write",
    "dump",
    "remove",
    "unlink",
    "rename",
    "replace",
    "rmtree",
    "rmSync",
    "rmdir",
    "truncate",
    "move",
    "copy",
    "delete",
    "chmod",
    "symlink",
    "put_contents",
    "'w",
    "\"w",
    "'a'",
    "\"a\"",
    "'>",
    "\">",
];

fn code(
    by: &str,
    text: &[u8],
    named: &[Target],
    places: &Places<'_>,
    switch: Option<&str>,
    ctx: &Ctx,
) -> Option<String> {
    let has = |s: &str| memchr::memmem::find(text, s.as_bytes()).is_some();
    let writes = WRITES.iter().any(|w| has(w)) || has("> \"") || has(">\"");
    // Code that removes whole trees: a directory it names counts for what is below it.
    let trees = ["rmtree", "rmSync", "rm_rf", "remove_dir", "recursive"]
        .iter()
        .any(|w| has(w));
    if writes {
        for t in named {
            let shown = t.shown();
            if let Some(what) = managed(t, trees, ctx) {
                return Some(format!(
                    "run {by} code that writes files and names {shown}, {what}"
                ));
            }
            if binary(t, trees, places, ctx) {
                return Some(format!(
                    "run {by} code that writes files and names {shown}, the guard's binary"
                ));
            }
            if hook_file(t, trees, places, ctx).is_some() {
                return Some(format!(
                    "run {by} code that writes files and names {shown}, which holds heredoc-guard's hook"
                ));
            }
        }
        // A path the code builds from its pieces (`Path.home() / '.claude' /
        // 'settings.json'`): a file holding the hook whose directory and name it both names.
        let known = places.known();
        for k in known.iter() {
            let (Some(name), Some(dir)) = (
                k.file_name().map(|n| n.to_string_lossy()),
                k.parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy()),
            ) else {
                continue;
            };
            if has(&name) && has(&dir) && places.holds(k) {
                return Some(format!(
                    "run {by} code that writes files and names {dir} and {name}: {}, which holds heredoc-guard's hook",
                    paths::clip(&k.to_string_lossy())
                ));
            }
        }
    }
    let s = switch?;
    let settings_dir = [".claude", ".codex", ".gemini", ".copilot", ".github"]
        .iter()
        .any(|d| has(d));
    (settings_dir || named.iter().any(|t| settings_file(t, places, ctx))).then(|| {
        format!(
            "run {by} code that shows {s} and names an agent's settings, which switches hooks off"
        )
    })
}

/// What a managed-policy place `t` is (`recursive`: a directory above one counts).
fn managed(t: &Target, recursive: bool, ctx: &Ctx) -> Option<&'static str> {
    let hit = ctx.managed_roots().any(|root| match t {
        Target::Exact(p) => p.starts_with(&root) || (recursive && root.starts_with(p)),
        Target::Pattern(p) => {
            literal_prefix(p).starts_with(&root)
                || paths::glob_matches(p, &root)
                || (recursive && paths::glob_covers(p, &root))
        }
    });
    hit.then_some("a managed-policy file (the agents' system-wide settings)")
}

/// The directories of a pattern before its first glob component.
fn literal_prefix(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        if paths::is_glob(&c.as_os_str().to_string_lossy()) {
            break;
        }
        out.push(c);
    }
    out
}

/// Whether `t` is the guard's binary (`recursive`: or a directory holding it): the running
/// one, `heredoc-guard` in a PATH directory (there or not: a new one there is the one a
/// hook running `heredoc-guard` by name finds), or any file of that name.
fn binary(t: &Target, recursive: bool, places: &Places<'_>, ctx: &Ctx) -> bool {
    let bins = places.binaries();
    match t {
        Target::Exact(p) => {
            let real = std::fs::canonicalize(p).ok();
            let is = |q: &Path| {
                bins.iter()
                    .any(|b| b == q || (recursive && b.starts_with(q)))
            };
            let named = p.file_name().is_some_and(|n| n == "heredoc-guard");
            is(p)
                || real.as_deref().is_some_and(is)
                || (named && std::fs::metadata(p).is_ok_and(|m| !m.is_dir()))
                || (named
                    && p.parent()
                        .is_some_and(|d| ctx.path_dirs.iter().any(|x| paths::normalize(x) == d)))
        }
        Target::Pattern(p) => bins
            .iter()
            .any(|b| paths::glob_matches(p, b) || (recursive && paths::glob_covers(p, b))),
    }
}

/// When `t` holds the hook (`Some(None)`), or a file it matches or (`recursive`) a known
/// file below it does (`Some` of that file).
fn hook_file(
    t: &Target,
    recursive: bool,
    places: &Places<'_>,
    ctx: &Ctx,
) -> Option<Option<String>> {
    let known = places.known();
    match t {
        Target::Exact(p) => {
            let real = std::fs::canonicalize(p).ok();
            let is_known = known.iter().any(|k| k == p || real.as_ref() == Some(k));
            let shaped = paths::settings_shape(p, &ctx.homes) || paths::plugin_shape(p);
            if (is_known || shaped) && places.holds(p) {
                return Some(None);
            }
            if !recursive {
                return None;
            }
            let under = |k: &Path| {
                k != p && (k.starts_with(p) || real.as_deref().is_some_and(|r| k.starts_with(r)))
            };
            // The known files below it, and the project files of the directory itself.
            let probes: Vec<PathBuf> = if std::fs::metadata(p).is_ok_and(|m| m.is_dir()) {
                paths::project_files(p)
                    .into_iter()
                    .chain(p.parent().map(paths::project_files).unwrap_or_default())
                    .filter(|f| f.starts_with(p))
                    .collect()
            } else {
                Vec::new()
            };
            known
                .iter()
                .filter(|k| under(k))
                .chain(probes.iter())
                .find(|k| places.holds(k))
                .map(|k| Some(paths::clip(&k.to_string_lossy())))
        }
        Target::Pattern(p) => known
            .iter()
            .find(|k| {
                (paths::glob_matches(p, k) || (recursive && paths::glob_covers(p, k)))
                    && places.holds(k)
            })
            .map(|k| Some(paths::clip(&k.to_string_lossy()))),
    }
}

/// Whether `t` is a settings file an agent reads (by its place), or a pattern matching one
/// the guard knows.
fn settings_file(t: &Target, places: &Places<'_>, ctx: &Ctx) -> bool {
    match t {
        Target::Exact(p) => {
            paths::settings_shape(p, &ctx.homes)
                || std::fs::canonicalize(p).is_ok_and(|r| places.known().contains(&r))
        }
        Target::Pattern(p) => places
            .known()
            .iter()
            .any(|k| paths::glob_matches(p, k) && paths::settings_shape(k, &ctx.homes)),
    }
}
