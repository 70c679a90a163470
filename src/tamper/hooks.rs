//! Which files hold heredoc-guard's hook now, read at check time, and which files the
//! guard knows to look at.
//!
//! A file is read only when the command writes, moves or removes it (or a directory above
//! it) and it is, by its place, a file an agent reads hooks from (`paths.rs`), or one of
//! the known files below (a symlink's target included). The read never waits: the file is
//! looked at with `stat` first (only a regular file is opened), opened with `O_NONBLOCK`
//! (a FIFO swapped in meanwhile does not block the open) and checked again on the open
//! descriptor, and at most [`MAX_FILE_BYTES`] are read. What cannot be read that way (a
//! FIFO, a device, a file too large, no permission) counts as holding the hook.
//!
//! Holding the hook: in a JSON file, a string under a key that names hooks or plugins
//! (`hooks`, `enabledPlugins`, `plugins`) that names heredoc-guard or the running guard's
//! binary (a JSON file that does not parse: the text names it anywhere); in any other
//! file (TOML), the text names it; and a Codex `config.toml` whose `hooks.state` trust
//! entries refer to a file that holds it (removing the trust stops the hook).
//!
//! The known files: the user's (`~/.claude`, `~/.codex`, `~/.gemini`, `~/.copilot`, and the
//! directories `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `GEMINI_CLI_HOME`, `COPILOT_HOME` name),
//! and the project's, in the event's working directory and each directory above it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::Ctx;
use super::paths;

/// Most bytes of a file read to see whether it holds the hook; a larger file counts as
/// holding it (settings files are a few kilobytes).
pub(super) const MAX_FILE_BYTES: u64 = 512 * 1024;
/// Most `*.json` files listed in one hooks directory (and plugins followed).
const MAX_LISTED: usize = 256;
/// Most directories above the working directory looked at as projects.
const MAX_ANCESTORS: usize = 32;

/// What the guard knows about the places of one command's check: read once, on demand.
pub(super) struct Places<'c> {
    ctx: &'c Ctx,
    known: RefCell<Option<std::rc::Rc<Vec<PathBuf>>>>,
    binaries: RefCell<Option<std::rc::Rc<Vec<PathBuf>>>>,
    held: RefCell<HashMap<PathBuf, bool>>,
    /// Each directory's real path (`None`: it cannot be resolved), looked up once.
    real_dirs: RefCell<HashMap<PathBuf, Option<PathBuf>>>,
    /// Each path's `lstat`: its file type, or the kind of error (a path is asked up to
    /// three times for one action: whether it is there, whether it is a link, whether it
    /// exists).
    lstats: RefCell<rustc_hash::FxHashMap<PathBuf, Result<std::fs::FileType, std::io::ErrorKind>>>,
}

impl<'c> Places<'c> {
    pub(super) fn new(ctx: &'c Ctx) -> Places<'c> {
        Places {
            ctx,
            known: RefCell::new(None),
            binaries: RefCell::new(None),
            held: RefCell::new(HashMap::new()),
            real_dirs: RefCell::new(HashMap::new()),
            lstats: RefCell::new(rustc_hash::FxHashMap::default()),
        }
    }

    /// `std::fs::symlink_metadata(path)`'s file type (or the kind of its error), looked
    /// up once per path for the check (the command has not run: nothing changes them).
    pub(super) fn lstat(&self, path: &Path) -> Result<std::fs::FileType, std::io::ErrorKind> {
        if let Some(&known) = self.lstats.borrow().get(path) {
            return known;
        }
        let got = std::fs::symlink_metadata(path)
            .map(|m| m.file_type())
            .map_err(|e| e.kind());
        self.lstats.borrow_mut().insert(path.to_owned(), got);
        got
    }

    /// `std::fs::canonicalize(path)`, with the directory above it resolved once for every
    /// file in it (a command writing many files asks for the same directory each time):
    /// the path's last name resolves by itself unless it is a symbolic link, which is
    /// resolved whole.
    pub(super) fn real(&self, path: &Path) -> Option<PathBuf> {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return std::fs::canonicalize(path).ok();
        };
        if name == ".." || name == "." || dir.as_os_str().is_empty() {
            return std::fs::canonicalize(path).ok();
        }
        let known = self.real_dirs.borrow().get(dir).cloned();
        let real_dir = match known {
            Some(r) => r,
            None => {
                let r = std::fs::canonicalize(dir).ok();
                self.real_dirs
                    .borrow_mut()
                    .insert(dir.to_owned(), r.clone());
                r
            }
        };
        // No directory, no file in it.
        let real_dir = real_dir?;
        let file_type = self.lstat(path).ok()?;
        if file_type.is_symlink() {
            return std::fs::canonicalize(path).ok();
        }
        Some(real_dir.join(name))
    }

    /// Whether the file at `path` holds heredoc-guard's hook now (or cannot be read safely).
    pub(super) fn holds(&self, path: &Path) -> bool {
        if let Some(&h) = self.held.borrow().get(path) {
            return h;
        }
        let h = holds(path, self.ctx, true);
        self.held.borrow_mut().insert(path.to_owned(), h);
        h
    }

    /// The known files that exist, each also as its symlink's target.
    pub(super) fn known(&self) -> std::rc::Rc<Vec<PathBuf>> {
        if let Some(k) = self.known.borrow().as_ref() {
            return std::rc::Rc::clone(k);
        }
        let k = std::rc::Rc::new(known_files(self.ctx));
        *self.known.borrow_mut() = Some(std::rc::Rc::clone(&k));
        k
    }

    /// The guard's binaries: the one running, and `heredoc-guard` in each PATH directory,
    /// each also as its symlink's target.
    pub(super) fn binaries(&self) -> std::rc::Rc<Vec<PathBuf>> {
        if let Some(b) = self.binaries.borrow().as_ref() {
            return std::rc::Rc::clone(b);
        }
        let mut out = Vec::new();
        for exe in &self.ctx.exe {
            with_target(exe, &mut out);
        }
        for dir in &self.ctx.path_dirs {
            let p = dir.join("heredoc-guard");
            if std::fs::symlink_metadata(&p).is_ok() {
                with_target(&p, &mut out);
            }
        }
        let b = std::rc::Rc::new(out);
        *self.binaries.borrow_mut() = Some(std::rc::Rc::clone(&b));
        b
    }
}

/// Pushes `p` and, when it resolves elsewhere (a symlink on its way), where it resolves.
fn with_target(p: &Path, out: &mut Vec<PathBuf>) {
    let p = paths::normalize(p);
    if let Ok(real) = std::fs::canonicalize(&p)
        && real != p
        && !out.contains(&real)
    {
        out.push(real);
    }
    if !out.contains(&p) {
        out.push(p);
    }
}

fn known_files(ctx: &Ctx) -> Vec<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    let mut hook_dirs: Vec<PathBuf> = Vec::new();
    if let Some(home) = &ctx.home {
        candidates.extend(paths::project_files(home));
        candidates.push(home.join(".claude/plugins/installed_plugins.json"));
        hook_dirs.extend(paths::hook_dirs(home));
    }
    for (dir, path) in &ctx.homes {
        match *dir {
            ".claude" => {
                candidates.push(path.join("settings.json"));
                candidates.push(path.join("settings.local.json"));
                candidates.push(path.join("plugins/installed_plugins.json"));
            }
            ".codex" => {
                candidates.push(path.join("hooks.json"));
                candidates.push(path.join("config.toml"));
            }
            ".gemini" => candidates.push(path.join(".gemini/settings.json")),
            ".copilot" => {
                candidates.push(path.join("settings.json"));
                candidates.push(path.join("config.json"));
                hook_dirs.push(path.join("hooks"));
            }
            _ => {}
        }
    }
    if let Some(cwd) = &ctx.cwd {
        for dir in cwd.ancestors().take(MAX_ANCESTORS) {
            candidates.extend(paths::project_files(dir));
            hook_dirs.extend(paths::hook_dirs(dir));
        }
    }
    // The installed Claude Code plugins' hook files (the guard's plugin among them).
    let registries: Vec<PathBuf> = candidates
        .iter()
        .filter(|c| c.ends_with("plugins/installed_plugins.json"))
        .cloned()
        .collect();
    for registry in registries {
        candidates.extend(plugin_hook_files(&registry));
    }
    for dir in &hook_dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten().take(MAX_LISTED) {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "json") {
                candidates.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for c in candidates {
        if std::fs::symlink_metadata(&c).is_ok() {
            with_target(&c, &mut out);
        }
    }
    out
}

/// The `hooks/hooks.json` of each plugin `installed_plugins.json` lists (`plugins.<key>[]
/// .installPath`).
fn plugin_hook_files(registry: &Path) -> Vec<PathBuf> {
    let Content::Bytes(bytes) = read_small(registry) else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Vec::new();
    };
    let Some(plugins) = v.get("plugins").and_then(serde_json::Value::as_object) else {
        return Vec::new();
    };
    plugins
        .values()
        .filter_map(serde_json::Value::as_array)
        .flatten()
        .filter_map(|e| e.get("installPath")?.as_str())
        .map(|p| Path::new(p).join("hooks/hooks.json"))
        .filter(|p| p.is_absolute())
        .take(MAX_LISTED)
        .collect()
}

/// What reading a file gave.
enum Content {
    /// Nothing there (or a directory, which holds no hook itself).
    Absent,
    Bytes(Vec<u8>),
    /// It cannot be read without waiting or within the size limit, or at all.
    Unreadable,
}

/// Reads a small regular file without ever blocking (see the module's doc).
fn read_small(path: &Path) -> Content {
    use std::os::unix::fs::OpenOptionsExt;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Content::Absent,
        Err(_) => return Content::Unreadable,
    };
    if meta.is_dir() {
        return Content::Absent;
    }
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return Content::Unreadable;
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
    else {
        return Content::Unreadable;
    };
    match file.metadata() {
        Ok(m) if m.is_file() && m.len() <= MAX_FILE_BYTES => {}
        _ => return Content::Unreadable,
    }
    let mut bytes = Vec::new();
    match file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes) {
        Ok(n) if n as u64 <= MAX_FILE_BYTES => Content::Bytes(bytes),
        _ => Content::Unreadable,
    }
}

/// Whether the file at `path` holds the hook (see the module's doc); `follow`: a Codex
/// trust entry is followed to the file it names (once).
fn holds(path: &Path, ctx: &Ctx, follow: bool) -> bool {
    let bytes = match read_small(path) {
        Content::Absent => return false,
        Content::Unreadable => return true,
        Content::Bytes(b) => b,
    };
    let is_json = path.extension().is_some_and(|x| x == "json");
    if is_json && let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) {
        return json_holds(&v, false, ctx);
    }
    if ctx.names_guard(&bytes) {
        return true;
    }
    follow
        && path.file_name().is_some_and(|n| n == "config.toml")
        && trusted_files(&bytes)
            .iter()
            .any(|f| f.as_path() != path && holds(f, ctx, false))
}

/// Whether a string under a hooks or plugins key of `v` names the guard.
fn json_holds(v: &serde_json::Value, under: bool, ctx: &Ctx) -> bool {
    use serde_json::Value;
    match v {
        Value::String(s) => under && ctx.names_guard(s.as_bytes()),
        Value::Array(a) => a.iter().any(|x| json_holds(x, under, ctx)),
        Value::Object(m) => m.iter().any(|(k, x)| {
            let lower = k.to_ascii_lowercase();
            let under = under || lower.contains("hook") || lower.contains("plugin");
            (under && ctx.names_guard(k.as_bytes())) || json_holds(x, under, ctx)
        }),
        _ => false,
    }
}

/// The files a Codex `config.toml`'s trust entries name: `hooks.state."<file>:<event>:
/// <group>:<handler>"`.
fn trusted_files(toml: &[u8]) -> Vec<PathBuf> {
    const KEY: &[u8] = b"hooks.state.\"";
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(toml, KEY) {
        let rest = &toml[at + KEY.len()..];
        let Some(end) = memchr::memchr(b'"', rest) else {
            continue;
        };
        let key = String::from_utf8_lossy(&rest[..end]);
        let mut parts = key.rsplitn(4, ':');
        let (_, _, _) = (parts.next(), parts.next(), parts.next());
        if let Some(file) = parts.next().filter(|f| f.starts_with('/'))
            && out.len() < MAX_LISTED
        {
            out.push(PathBuf::from(file));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Ctx {
        Ctx {
            home: None,
            cwd: None,
            exe: vec![PathBuf::from("/opt/hg/bin/guard-bin")],
            homes: Vec::new(),
            path_dirs: Vec::new(),
            managed: Vec::new(),
        }
    }

    #[test]
    fn a_json_file_holds_the_hook_only_under_a_hooks_or_plugins_key() {
        let c = ctx();
        let hook = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "/u/.cargo/bin/heredoc-guard"}]}]}});
        assert!(json_holds(&hook, false, &c));
        let renamed = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [
            {"command": "x=1; /opt/hg/bin/guard-bin || exit 2"}]}]}});
        assert!(json_holds(&renamed, false, &c));
        let plugin = serde_json::json!({"enabledPlugins": {"heredoc-guard@heredoc-guard": true}});
        assert!(json_holds(&plugin, false, &c));
        let permission =
            serde_json::json!({"permissions": {"allow": ["Bash(heredoc-guard doctor)"]}});
        assert!(!json_holds(&permission, false, &c));
        let other = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [
            {"command": "other-guard"}]}]}, "theme": "dark"});
        assert!(!json_holds(&other, false, &c));
    }

    #[test]
    fn codex_trust_entries_name_their_files() {
        let toml = b"model = \"o3\"\n[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:x\"\n";
        assert_eq!(trusted_files(toml), [PathBuf::from("/h/.codex/hooks.json")]);
        assert!(trusted_files(b"[hooks.state.\"relative:pre_tool_use:0:0\"]").is_empty());
    }

    #[test]
    fn what_cannot_be_read_without_waiting_counts_as_holding_the_hook() {
        let dir = tempfile::tempdir().unwrap();
        let c = ctx();
        let fifo = dir.path().join("settings.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        assert!(made, "mkfifo");
        let t = std::time::Instant::now();
        assert!(holds(&fifo, &c, true));
        assert!(t.elapsed() < std::time::Duration::from_secs(1));
        assert!(holds(Path::new("/dev/zero"), &c, true));
        let big = dir.path().join("big.json");
        std::fs::write(&big, vec![b' '; (MAX_FILE_BYTES + 1) as usize]).unwrap();
        assert!(holds(&big, &c, true));
        assert!(!holds(&dir.path().join("missing.json"), &c, true));
        let plain = dir.path().join("plain.json");
        std::fs::write(&plain, r#"{"theme": "dark"}"#).unwrap();
        assert!(!holds(&plain, &c, true));
        assert!(!holds(dir.path(), &c, true));
    }
}
