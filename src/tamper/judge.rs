//! What each action of a command does to the guard (`walk.rs` finds the actions): a
//! change to the guard itself; a path that is a managed-policy file, the guard's binary, a
//! file that holds its hook now (or a directory above one); a settings file written with a
//! switch-off the command shows; code that writes files and names one of those.

use std::path::{Path, PathBuf};

use super::Ctx;
use super::hooks::Places;
use super::paths::{self, Target};
use super::walk::{self, Action};

/// What an action does to the guard, for the reason; `None` when it leaves it alone.
pub(super) fn judge(
    action: &Action,
    places: &Places<'_>,
    switch: Option<&str>,
    ctx: &Ctx,
) -> Option<String> {
    match action {
        Action::Guard(what) => Some(what.clone()),
        Action::Unread => Some(format!(
            "run shell text past what heredoc-guard reads (nested over {} levels, or over {} texts), which may name its files",
            walk::MAX_DEPTH,
            walk::MAX_NESTED
        )),
        // (By a command: `tee PATH`, `rm PATH`; by the shell: write PATH through a
        // redirection, or zsh's mapfile.)
        Action::Touch { target, how, by } => touch(target, *how, places, switch, ctx).map(|what| {
            if [walk::BY_REDIRECTION, walk::BY_MAPFILE].contains(&by.as_str()) {
                format!("write {} through {}{what}", target.shown(), paths::clip(by))
            } else {
                format!("{} {}{what}", paths::clip(by), target.shown())
            }
        }),
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
                // `-path` matches the path as find prints it (the start as written, then
                // the rest): tried as is, and after any directory.
                let full = k.to_string_lossy();
                let pathed = patterns.is_empty()
                    || patterns.iter().any(|p| {
                        let anywhere = format!("*/{}", p.trim_start_matches("./"));
                        paths::fnmatch(p.as_bytes(), full.as_bytes(), false)
                            || paths::fnmatch(anywhere.as_bytes(), full.as_bytes(), false)
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
        Action::Code { by, text, named } => {
            code(&paths::clip(by), text, named, places, switch, ctx)
        }
    }
}

/// What writing, moving or removing `t` does to the guard: the end of the reason after
/// the command and the path.
fn touch(
    t: &Target,
    how: walk::How,
    places: &Places<'_>,
    switch: Option<&str>,
    ctx: &Ctx,
) -> Option<String> {
    let recursive = how.recursive();
    if let Some(what) = managed(t, recursive, ctx) {
        return Some(format!(", {what}"));
    }
    // A path that is not there holds nothing and is above nothing: only a new binary on
    // PATH, or settings written with a switch-off, concern the guard there.
    let absent = matches!(t, Target::Exact(p)
        if places.lstat(p) == Err(std::io::ErrorKind::NotFound));
    if binary(t, recursive && !absent, places, ctx) {
        return Some(", the guard's binary".to_owned());
    }
    if !absent && let Some(held) = hook_file(t, recursive, places, ctx) {
        return Some(match held {
            None => ", which holds heredoc-guard's hook".to_owned(),
            Some(k) => format!(", which holds {k} with heredoc-guard's hook"),
        });
    }
    let s = switch?;
    (how.writes_content() && settings_file(t, absent, places, ctx))
        .then(|| format!(" with {s}, which switches the agents' hooks off (the guard's too)"))
}

/// Markers of code that writes, moves or removes files (Python, JavaScript, Ruby, Perl,
/// PHP, awk).
const WRITES: [&str; 29] = [
    // (Code that runs a command may do anything to a file it names: `awk
    // 'BEGIN{system("rm …")}'`, round 82.)
    "system",
    "popen",
    "spawn",
    "subprocess",
    "execSync",
    "execFile",
    "Command::new",
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
    let has = |s: &str| crate::search::find(text, s.as_bytes()).is_some();
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
    (settings_dir || named.iter().any(|t| settings_file(t, false, places, ctx))).then(|| {
        format!(
            "run {by} code that shows {s} and names an agent's settings, which switches hooks off"
        )
    })
}

/// What a managed-policy place `t` is (`recursive`: a directory above one counts).
fn managed(t: &Target, recursive: bool, ctx: &Ctx) -> Option<&'static str> {
    // (Most paths a script writes share not even their first directory with a managed
    // root, and are told apart without building the roots: a path is under a root, or
    // above one, only where their first components are the same.)
    if let Target::Exact(p) = t
        && ctx.managed.is_empty()
    {
        let mut parts = p.components();
        match (parts.next(), parts.next()) {
            // Relative: neither under nor above an absolute root.
            (Some(c), _) if c != std::path::Component::RootDir => return None,
            (_, Some(std::path::Component::Normal(first)))
                if !paths::MANAGED_ROOTS.iter().any(|r| {
                    r.strip_prefix('/')
                        .and_then(|r| r.split('/').next())
                        .is_some_and(|f| f.as_bytes() == first.as_encoded_bytes())
                }) =>
            {
                return None;
            }
            _ => {}
        }
    }
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
            let real = places.real(p);
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
    match t {
        Target::Exact(p) => {
            let shaped = paths::settings_shape(p, &ctx.homes) || paths::plugin_shape(p);
            let exists = places.lstat(p).is_ok();
            // A new file holds no hook, and is no known file's target.
            if !exists && !recursive {
                return None;
            }
            let known = places.known();
            let real = places.real(p);
            let is_known = known.iter().any(|k| k == p || real.as_ref() == Some(k));
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
        Target::Pattern(p) => places
            .known()
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
fn settings_file(t: &Target, absent: bool, places: &Places<'_>, ctx: &Ctx) -> bool {
    match t {
        Target::Exact(p) => {
            paths::settings_shape(p, &ctx.homes)
                || (!absent && places.real(p).is_some_and(|r| places.known().contains(&r)))
        }
        Target::Pattern(p) => places
            .known()
            .iter()
            .any(|k| paths::glob_matches(p, k) && paths::settings_shape(k, &ctx.homes)),
    }
}
