//! Paths as a command names them: a word's value resolved as far as its text allows (`~`,
//! `$HOME`, `${HOME}`, `$PWD` and the agents' home variables the guard knows, brace
//! expansion, relative to a working directory), normalised by its components, and matched
//! as a glob when it is one; and the shapes of the places that are the guard's: the
//! managed-policy directories and the files the agents read hooks and settings from.
//!
//! Nothing here reads the disk: what a file holds is `hooks.rs`'s business.

use std::path::{Path, PathBuf};

use crate::shell::word::{ParamOp, Piece, WordInfo};

/// A path a command names.
#[derive(Clone, Debug)]
pub(super) enum Target {
    /// One path, absolute and normalised.
    Exact(PathBuf),
    /// A glob the shell expands (absolute, normalised): it stands for every path it matches.
    Pattern(PathBuf),
}

/// Targets are compared and hashed by their bytes, not component by component as paths are
/// (a target is absolute and normalised: the same path is the same bytes). Asked for every
/// path a command writes (`Walker::touch`'s set of paths already touched).
impl PartialEq for Target {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Target::Exact(a), Target::Exact(b)) | (Target::Pattern(a), Target::Pattern(b)) => {
                a.as_os_str() == b.as_os_str()
            }
            _ => false,
        }
    }
}

impl Eq for Target {}

impl std::hash::Hash for Target {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let (tag, p) = match self {
            Target::Exact(p) => (0u8, p),
            Target::Pattern(p) => (1u8, p),
        };
        tag.hash(state);
        p.as_os_str().as_encoded_bytes().hash(state);
    }
}

impl Target {
    /// The path to show in a reason (clipped: it comes from the command).
    pub(super) fn shown(&self) -> String {
        let p = match self {
            Target::Exact(p) | Target::Pattern(p) => p,
        };
        clip(&p.to_string_lossy())
    }
}

/// A path (or a command's name) for a reason, at most [`SHOWN_CHARS`] characters: the
/// reason stays short however long the command's words are.
pub(super) fn clip(s: &str) -> String {
    let n = s.chars().count();
    if n <= SHOWN_CHARS {
        return s.to_owned();
    }
    let tail: String = s.chars().skip(n - (SHOWN_CHARS - 3)).collect();
    format!("...{tail}")
}

/// Most characters of a path or name a reason shows.
pub(super) const SHOWN_CHARS: usize = 80;

/// Most texts one word's brace expansion is followed to.
const MAX_BRACE_TEXTS: usize = 64;
/// Longest text a word is followed to: a longer one is no path (`PATH_MAX`), and is not
/// built (a long value used many times would cost its length each time).
pub(super) const MAX_TEXT: usize = 4096;

/// The texts a word stands for, and whether they are globs: its literal pieces, a `~` at
/// its start, the variables `var` knows (each value it may hold) and the substitutions
/// `subst` knows (by offset) replaced, brace expansion made. `None` when a piece is
/// computed otherwise (a substitution or a variable they do not know, `~user`), or it
/// stands for more than [`MAX_BRACE_TEXTS`] texts through its variables.
pub(super) fn texts(
    info: &WordInfo,
    var: &dyn Fn(&[u8]) -> Vec<String>,
    subst: &dyn Fn(u32) -> Option<String>,
) -> Option<(Vec<String>, bool)> {
    if info.unread || !info.breaks.is_empty() || info.process {
        return None;
    }
    let mut outs: Vec<Vec<u8>> = vec![Vec::new()];
    let append = |outs: &mut Vec<Vec<u8>>, values: &[String]| -> Option<()> {
        if values.is_empty()
            || outs.len() * values.len() > MAX_BRACE_TEXTS
            || values.iter().any(|v| v.len() > MAX_TEXT)
            || outs.iter().any(|o| o.len() > MAX_TEXT)
        {
            return None;
        }
        *outs = outs
            .iter()
            .flat_map(|o| {
                values.iter().map(move |v| {
                    let mut n = o.clone();
                    n.extend_from_slice(v.as_bytes());
                    n
                })
            })
            .collect();
        Some(())
    };
    for p in &info.pieces {
        match p {
            Piece::Lit(l) => {
                if l.len() > MAX_TEXT || outs.iter().any(|o| o.len() > MAX_TEXT) {
                    return None;
                }
                outs.iter_mut().for_each(|o| o.extend_from_slice(l));
            }
            Piece::Param(p)
                if !p.indirect
                    && p.subscript.is_none()
                    && p.slice.is_empty()
                    && !p.zsh_eval
                    && !p.zsh_glob
                    && matches!(
                        p.op,
                        ParamOp::Plain | ParamOp::Default | ParamOp::Assign | ParamOp::Error
                    ) =>
            {
                append(&mut outs, &var(&p.name))?;
            }
            // `HOME` and `PWD` cut, replaced or offset (`${HOME%/}`, `${HOME:+$HOME}`,
            // `${HOME:0}`): a directory's path, taken whole (round 74).
            Piece::Param(p)
                if matches!(p.name.as_slice(), b"HOME" | b"PWD")
                    && !p.indirect
                    && p.subscript.is_none()
                    && !p.zsh_eval
                    && !p.zsh_glob
                    && p.op != ParamOp::Length =>
            {
                append(&mut outs, &var(&p.name))?;
            }
            Piece::Subst(at) => append(&mut outs, &[subst(*at)?])?,
            _ => return None,
        }
    }
    // (`HOME` looked up only for a tilde: most words have none.)
    let home = if info.tilde { var(b"HOME") } else { Vec::new() };
    let mut texts = Vec::with_capacity(outs.len());
    for o in outs {
        let mut text = String::from_utf8_lossy(&o).into_owned();
        if info.tilde {
            let rest = text.strip_prefix('~')?;
            // `~+` is `PWD`, `~-` `OLDPWD` (and `~+1`, `~-1` the directory stack's): a
            // working directory the command was in, from which a relative path is read
            // (round 72).
            // (`~0`, `~1`: the stack's too, round 73.)
            let dirs = rest
                .strip_prefix(['+', '-'])
                .or_else(|| {
                    rest.starts_with(|c: char| c.is_ascii_digit())
                        .then_some(rest)
                })
                .map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit()));
            text = match dirs {
                Some(after) if after.is_empty() || after.starts_with('/') => format!(".{after}"),
                _ if rest.is_empty() || rest.starts_with('/') => {
                    format!("{}{rest}", home.first()?)
                }
                _ => return None,
            };
        }
        texts.push(text);
    }
    if info.brace {
        let mut all = Vec::new();
        for t in &texts {
            expand_braces(t, &mut all);
        }
        if all.len() >= MAX_BRACE_TEXTS {
            // More words than followed: the word as a glob with each `{…}` as `*`, which
            // matches every one of them (and more).
            return Some((texts.iter().map(|t| braces_as_stars(t)).collect(), true));
        }
        let glob = info.many && all.iter().any(|t| is_glob(t));
        return Some((all, glob));
    }
    let glob = info.many && texts.iter().any(|t| is_glob(t));
    Some((texts, glob))
}

/// `text` with each outermost `{…}` replaced by `*`.
pub(super) fn braces_as_stars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    out.push('*');
                }
                depth += 1;
            }
            '}' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

/// Bash's brace expansion of `text` (`a{b,c}d` → `abd`, `acd`), nested; ranges and
/// anything it cannot split stay as written. At most [`MAX_BRACE_TEXTS`] results.
fn expand_braces(text: &str, out: &mut Vec<String>) {
    if out.len() >= MAX_BRACE_TEXTS {
        return;
    }
    let b = text.as_bytes();
    let mut open = None;
    let mut depth = 0usize;
    let mut commas = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'{' => {
                if depth == 0 {
                    open = Some(i);
                    commas.clear();
                }
                depth += 1;
            }
            b',' if depth == 1 => commas.push(i),
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    let Some(o) = open else { continue };
                    if commas.is_empty() {
                        open = None;
                        continue;
                    }
                    let (head, tail) = (&text[..o], &text[i + 1..]);
                    let mut start = o + 1;
                    for end in commas.iter().copied().chain(std::iter::once(i)) {
                        let alt = &text[start..end];
                        expand_braces(&format!("{head}{alt}{tail}"), out);
                        start = end + 1;
                    }
                    return;
                }
            }
            _ => {}
        }
    }
    out.push(text.to_owned());
}

/// Whether `s` holds a glob character.
pub(super) fn is_glob(s: &str) -> bool {
    // (A `[` with no `]` after it matches itself: `[`, `x[`.)
    s.contains(['*', '?']) || s.find('[').is_some_and(|i| s[i + 1..].contains(']'))
}

/// `text` as an absolute, normalised path: relative to `cwd`; `.` and `..` resolved by
/// their components (as the shell's `cd` does without `-P`).
pub(super) fn absolute(text: &str, cwd: &Path) -> PathBuf {
    let p = Path::new(text);
    if p.is_absolute() {
        normalize(p)
    } else {
        // `cwd`, then `text`, as one path: the same components as `cwd.join(text)`.
        let mut out = Normalized::default();
        out.extend(cwd.as_os_str().as_encoded_bytes());
        out.extend(text.as_bytes());
        out.into_path()
    }
}

/// `p` with `.` and `..` resolved by its components.
pub(super) fn normalize(p: &Path) -> PathBuf {
    let mut out = Normalized::default();
    out.extend(p.as_os_str().as_encoded_bytes());
    out.into_path()
}

/// A path being normalised, a byte at a time: what pushing `p.components()` onto an
/// empty `PathBuf` builds (a root, then names joined by `/`; `.` dropped, `..` popping
/// the last name, never the root), without a `PathBuf` push per component (the tamper
/// walk normalises every `cd` from every directory it follows).
#[derive(Default)]
struct Normalized {
    bytes: Vec<u8>,
    rooted: bool,
}

impl Normalized {
    fn extend(&mut self, path: &[u8]) {
        if path.first() == Some(&b'/') {
            // A root restarts the path, as `PathBuf::push` of an absolute path does.
            self.bytes.clear();
            self.bytes.push(b'/');
            self.rooted = true;
        }
        for name in path.split(|&b| b == b'/') {
            match name {
                b"" | b"." => {}
                b".." => {
                    let keep = self
                        .bytes
                        .iter()
                        .rposition(|&b| b == b'/')
                        .map_or(0, |at| if at == 0 && self.rooted { 1 } else { at });
                    self.bytes.truncate(keep);
                }
                _ => {
                    if !self.bytes.is_empty() && self.bytes.last() != Some(&b'/') {
                        self.bytes.push(b'/');
                    }
                    self.bytes.extend_from_slice(name);
                }
            }
        }
    }

    fn into_path(self) -> PathBuf {
        use std::os::unix::ffi::OsStringExt;
        PathBuf::from(std::ffi::OsString::from_vec(self.bytes))
    }
}

/// The target a text names from `cwd`.
pub(super) fn target(text: &str, glob: bool, cwd: &Path) -> Option<Target> {
    if text.is_empty() {
        return None;
    }
    let p = absolute(text, cwd);
    Some(if glob {
        Target::Pattern(p)
    } else {
        Target::Exact(p)
    })
}

/// Whether `pattern` (a glob path) matches `path`, component by component: `*`, `?` and
/// `[…]` within one component, never a leading `.` (bash without `dotglob`).
/// A component `**` matches any number of components (zsh, and bash with `globstar`:
/// round 73).
pub(super) fn glob_matches(pattern: &Path, path: &Path) -> bool {
    let pc: Vec<String> = pattern
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let xc: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    // matched[j]: the pattern's components so far match the path's first `j`.
    let mut matched = vec![false; xc.len() + 1];
    matched[0] = true;
    for p in &pc {
        let mut next = vec![false; xc.len() + 1];
        if p == "**" {
            let mut any = false;
            for j in 0..=xc.len() {
                any |= matched[j];
                next[j] = any;
            }
        } else {
            for j in 0..xc.len() {
                if matched[j] && fnmatch(p.as_bytes(), xc[j].as_bytes(), true) {
                    next[j + 1] = true;
                }
            }
        }
        matched = next;
    }
    matched[xc.len()]
}

/// Whether `pattern` matches `path` or a directory above it.
pub(super) fn glob_covers(pattern: &Path, path: &Path) -> bool {
    path.ancestors().any(|a| glob_matches(pattern, a))
}

/// fnmatch(3) of one name: `*`, `?`, `[…]` (`!` or `^` negates, ranges), `\` escapes.
/// With `period`, a leading `.` is matched only by a `.` written in the pattern. `flat`
/// patterns (`find -path`) let `*` match `/` too: call with `period` false.
pub(super) fn fnmatch(p: &[u8], s: &[u8], period: bool) -> bool {
    if period && s.first() == Some(&b'.') && p.first() != Some(&b'.') {
        return false;
    }
    // Iterative, with one backtrack point for the last `*` (linear in practice).
    let (mut pi, mut si) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        let step = match p.get(pi) {
            Some(b'*') => {
                star = Some((pi, si));
                pi += 1;
                continue;
            }
            Some(b'?') => Some(pi + 1),
            Some(b'[') => class(p, pi, s[si]),
            Some(b'\\') if pi + 1 < p.len() => (p[pi + 1] == s[si]).then_some(pi + 2),
            Some(&c) => (c == s[si]).then_some(pi + 1),
            None => None,
        };
        match step {
            Some(next) => {
                pi = next;
                si += 1;
            }
            None => match star {
                Some((sp, ss)) => {
                    pi = sp + 1;
                    si = ss + 1;
                    star = Some((sp, ss + 1));
                }
                None => return false,
            },
        }
    }
    p[pi.min(p.len())..].iter().all(|&c| c == b'*')
}

/// Matches byte `c` against the class at `p[at]` (`[`); the index after the class when it
/// matches. An unclosed `[` is a plain character.
fn class(p: &[u8], at: usize, c: u8) -> Option<usize> {
    let mut i = at + 1;
    let negate = matches!(p.get(i), Some(b'!' | b'^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while let Some(&x) = p.get(i) {
        if x == b']' && !first {
            return (matched != negate).then_some(i + 1);
        }
        first = false;
        // `[:alpha:]`, `[=c=]`, `[.c.]` (round 72): a class by name; an equivalence class
        // or a collating symbol, its character (any, where it names more than one).
        if x == b'['
            && let Some(&kind @ (b':' | b'=' | b'.')) = p.get(i + 1)
            && let Some(len) = p
                .get(i + 2..)
                .and_then(|rest| rest.windows(2).position(|w| w == [kind, b']']))
        {
            let name = &p[i + 2..i + 2 + len];
            matched |= match kind {
                b':' => posix_class(name, c),
                _ => name.len() != 1 || name.first() == Some(&c),
            };
            i += len + 4;
            continue;
        }
        if p.get(i + 1) == Some(&b'-') && p.get(i + 2).is_some_and(|&e| e != b']') {
            let e = p[i + 2];
            matched |= x <= c && c <= e;
            i += 3;
        } else {
            matched |= x == c;
            i += 1;
        }
    }
    // No closing `]`: the `[` stands for itself.
    (c == b'[').then_some(at + 1)
}

/// Whether `c` is in the POSIX class `name` (in the C locale; an unknown name matches
/// any byte: what it may match, it counts as matching).
fn posix_class(name: &[u8], c: u8) -> bool {
    match name {
        b"alpha" => c.is_ascii_alphabetic(),
        b"digit" => c.is_ascii_digit(),
        b"alnum" => c.is_ascii_alphanumeric(),
        b"upper" => c.is_ascii_uppercase(),
        b"lower" => c.is_ascii_lowercase(),
        b"space" => c.is_ascii_whitespace() || c == 0x0b,
        b"blank" => c == b' ' || c == b'\t',
        b"punct" => c.is_ascii_punctuation(),
        b"print" => c.is_ascii_graphic() || c == b' ',
        b"graph" => c.is_ascii_graphic(),
        b"cntrl" => c.is_ascii_control(),
        b"xdigit" => c.is_ascii_hexdigit(),
        _ => true,
    }
}

/// The system-wide (managed) policy directories of the agents: Claude Code's
/// `managed-settings.json` and `managed-settings.d/` (Linux, macOS), Codex's
/// `requirements.toml` and `managed_config.toml`, Gemini CLI's system settings, Copilot
/// CLI's `policy.d`.
pub(super) const MANAGED_ROOTS: [&str; 6] = [
    "/etc/claude-code",
    "/Library/Application Support/ClaudeCode",
    "/etc/codex",
    "/etc/gemini-cli",
    "/Library/Application Support/GeminiCli",
    "/etc/github-copilot",
];

/// File names of the settings the agents read in a directory of theirs: (directory name,
/// file names). A name ending in `/*.json` is every `.json` file of that subdirectory.
const SETTINGS_IN: [(&str, &[&str]); 5] = [
    (".claude", &["settings.json", "settings.local.json"]),
    (".codex", &["hooks.json", "config.toml"]),
    (".gemini", &["settings.json"]),
    (
        ".copilot",
        &["settings.json", "config.json", "hooks/*.json"],
    ),
    (
        ".github",
        &[
            "copilot/settings.json",
            "copilot/settings.local.json",
            "hooks/*.json",
        ],
    ),
];

/// Whether `path` is, by its place, a file an agent reads settings or hooks from: one of
/// [`SETTINGS_IN`] under a directory of that name, or under one of `homes` (the agents'
/// own directories the environment names: `CLAUDE_CONFIG_DIR`, `CODEX_HOME`,
/// `COPILOT_HOME`, each with the names of its default directory).
pub(super) fn settings_shape(path: &Path, homes: &[(&'static str, PathBuf)]) -> bool {
    SETTINGS_IN.iter().any(|(dir, names)| {
        names.iter().any(|name| {
            in_dir_shape(path, name, |d| d.file_name().is_some_and(|n| n == *dir))
                || homes
                    .iter()
                    .any(|(h, home)| h == dir && in_dir_shape(path, name, |d| d == home))
        })
    })
}

/// Whether `path` is `name` (`a/b`, or `a/*.json`) inside a directory `is_dir` accepts.
fn in_dir_shape(path: &Path, name: &str, is_dir: impl Fn(&Path) -> bool) -> bool {
    let parts: Vec<&str> = name.split('/').collect();
    let mut at = path;
    for (i, part) in parts.iter().enumerate().rev() {
        let Some(file) = at.file_name().map(|n| n.to_string_lossy()) else {
            return false;
        };
        let last = i == parts.len() - 1;
        let ok = if last && *part == "*.json" {
            file.ends_with(".json")
        } else {
            file == *part
        };
        if !ok {
            return false;
        }
        let Some(parent) = at.parent() else {
            return false;
        };
        at = parent;
    }
    is_dir(at)
}

/// Whether `path` is, by its place, a file that can hold a hook without being settings:
/// a Claude Code plugin's `hooks/hooks.json`, or the list of installed plugins.
pub(super) fn plugin_shape(path: &Path) -> bool {
    in_dir_shape(path, "hooks/hooks.json", |_| true)
        || in_dir_shape(path, "plugins/installed_plugins.json", |d| {
            d.file_name().is_some_and(|n| n == ".claude")
        })
}

/// The files of [`SETTINGS_IN`] inside directory `dir` as a project (`dir/.claude/…`),
/// without the `*.json` ones (listed by the caller).
pub(super) fn project_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (sub, names) in SETTINGS_IN {
        for name in names.iter().filter(|n| !n.ends_with("*.json")) {
            out.push(dir.join(sub).join(name));
        }
    }
    out
}

/// The directories of `*.json` hook files inside a project or home directory `dir`.
pub(super) fn hook_dirs(dir: &Path) -> [PathBuf; 2] {
    [dir.join(".copilot/hooks"), dir.join(".github/hooks")]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `normalize` as the standard library's components spell it.
    fn by_components(p: &Path) -> PathBuf {
        use std::path::Component;
        let mut out = PathBuf::new();
        for c in p.components() {
            match c {
                Component::Prefix(_) | Component::CurDir => {}
                Component::RootDir => out.push("/"),
                Component::ParentDir => {
                    out.pop();
                }
                Component::Normal(n) => out.push(n),
            }
        }
        out
    }

    #[test]
    fn byte_normalisation_builds_what_the_components_build() {
        // Every path of up to four names from these, each joined by `/` or `//`, with or
        // without a leading and a trailing `/`, alone and joined to a working directory.
        let names = ["", ".", "..", "a", "b.c", "...", ".d"];
        let mut paths = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &paths {
                for n in names {
                    for sep in ["/", "//"] {
                        next.push(if p.is_empty() {
                            n.to_string()
                        } else {
                            format!("{p}{sep}{n}")
                        });
                    }
                }
            }
            paths.extend(next);
            paths.sort();
            paths.dedup();
        }
        let mut checked = 0;
        for p in &paths {
            for q in [p.clone(), format!("/{p}"), format!("{p}/")] {
                assert_eq!(
                    normalize(Path::new(&q)),
                    by_components(Path::new(&q)),
                    "{q:?}"
                );
                if !q.starts_with('/') {
                    for cwd in ["/", "/w/x", "/w/x/"] {
                        assert_eq!(
                            absolute(&q, Path::new(cwd)),
                            by_components(&Path::new(cwd).join(&q)),
                            "{cwd:?} + {q:?}"
                        );
                    }
                }
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn globs_match_one_component_at_a_time_and_not_a_leading_dot() {
        let m = |p: &str, x: &str| glob_matches(Path::new(p), Path::new(x));
        assert!(m("/h/.claude/*.json", "/h/.claude/settings.json"));
        assert!(m("/h/.c*/settings.json", "/h/.claude/settings.json"));
        assert!(!m("/h/*/settings.json", "/h/.claude/settings.json"));
        assert!(!m("/h/*", "/h/.claude/settings.json"));
        assert!(glob_covers(
            Path::new("/h/.c*"),
            Path::new("/h/.claude/settings.json")
        ));
        assert!(m("/h/.claude/settings[.]json", "/h/.claude/settings.json"));
        assert!(m("/h/.claude/s?ttings.json", "/h/.claude/settings.json"));
        assert!(!m(
            "/h/.claude/[!s]ettings.json",
            "/h/.claude/settings.json"
        ));
        assert!(fnmatch(b"*settings*", b".claude/settings.json", false));
    }

    #[test]
    fn paths_are_normalised_by_their_components_and_braces_expanded() {
        assert_eq!(
            absolute("../.claude/./settings.json", Path::new("/h/p")),
            PathBuf::from("/h/.claude/settings.json")
        );
        let mut all = Vec::new();
        expand_braces("/h/.claude/{settings,x{1,2}}.json", &mut all);
        assert_eq!(
            all,
            [
                "/h/.claude/settings.json",
                "/h/.claude/x1.json",
                "/h/.claude/x2.json"
            ]
        );
        let mut all = Vec::new();
        expand_braces("a{1..3}b", &mut all);
        assert_eq!(all, ["a{1..3}b"]);
        assert_eq!(braces_as_stars("/h/.c{a,b{c,d}}/x{1,2}"), "/h/.c*/x*");
    }

    #[test]
    fn settings_shapes_are_the_files_the_agents_read() {
        let homes = vec![(".codex", PathBuf::from("/x/codexhome"))];
        for p in [
            "/h/.claude/settings.json",
            "/p/.claude/settings.local.json",
            "/h/.codex/config.toml",
            "/x/codexhome/hooks.json",
            "/h/.gemini/settings.json",
            "/h/.copilot/hooks/guard.json",
            "/p/.github/hooks/a.json",
            "/p/.github/copilot/settings.json",
        ] {
            assert!(settings_shape(Path::new(p), &homes), "{p}");
        }
        for p in [
            "/h/.vscode/settings.json",
            "/h/settings.json",
            "/h/.claude/CLAUDE.md",
            "/h/.codex/auth.json",
            "/p/.github/workflows/ci.yml",
        ] {
            assert!(!settings_shape(Path::new(p), &homes), "{p}");
        }
        assert!(plugin_shape(Path::new(
            "/h/.claude/plugins/cache/g/hooks/hooks.json"
        )));
        assert!(plugin_shape(Path::new(
            "/h/.claude/plugins/installed_plugins.json"
        )));
    }
}
