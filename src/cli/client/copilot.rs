//! Copilot CLI: where it reads hooks (1.0.102, measured and read in its bundle): every
//! `*.json` in `$COPILOT_HOME/hooks/` (default `~/.copilot`), its own form
//! (`{"version":1,"hooks":{"preToolUse":[…]}}`) or Claude Code's; inline `hooks` in
//! `$COPILOT_HOME/settings.json`, which also holds `disableAllHooks`; a repository's
//! `.github/hooks/*.json`, `.github/copilot/settings.json` and `settings.local.json`, and
//! Claude Code's `.claude/settings.json` and `settings.local.json`. Copilot has no
//! system-wide file on disk (its managed settings come from GitHub).

use std::path::PathBuf;

/// Copilot's home: `COPILOT_HOME`, or `~/.copilot`.
pub fn home() -> Result<PathBuf, String> {
    match std::env::var_os("COPILOT_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Ok(super::home()?.join(".copilot")),
    }
}

/// The hook file `install copilot` writes.
pub fn hooks_path() -> Result<PathBuf, String> {
    Ok(home()?.join("hooks/heredoc-guard.json"))
}

/// The user's settings file.
pub fn settings_path() -> Result<PathBuf, String> {
    Ok(home()?.join("settings.json"))
}

/// The `*.json` files of a directory, in name order.
pub fn json_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
        .collect();
    files.sort();
    files
}

/// The repository root Copilot reads repository hooks from: the nearest directory up from
/// the current one holding `.git`, else the current directory.
pub fn repo_root() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let root = cwd
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(std::path::Path::to_path_buf);
    Some(root.unwrap_or(cwd))
}
