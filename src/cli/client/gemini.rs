//! Gemini CLI: where its settings live (measured in 0.61.0 and read in its bundle): the
//! user's `$GEMINI_CLI_HOME/.gemini/settings.json` (default home `~`), the project's
//! `.gemini/settings.json`, the system file `/etc/gemini-cli/settings.json`
//! (`/Library/Application Support/GeminiCli/settings.json` on macOS;
//! `GEMINI_CLI_SYSTEM_SETTINGS_PATH` moves it) and its `system-defaults.json` beside it,
//! and the trusted folders (`trustedFolders.json` in the user's `.gemini`,
//! `GEMINI_CLI_TRUSTED_FOLDERS_PATH` moves it). Settings merge as defaults, system
//! defaults, user, project (trusted folders only), then the system file over all.

use std::path::{Path, PathBuf};

/// The home Gemini CLI uses: `GEMINI_CLI_HOME`, or `HOME`.
fn cli_home() -> Result<PathBuf, String> {
    match std::env::var_os("GEMINI_CLI_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => super::home(),
    }
}

/// The user's `.gemini` directory.
pub fn dir() -> Result<PathBuf, String> {
    Ok(cli_home()?.join(".gemini"))
}

/// The user's settings file.
pub fn settings_path() -> Result<PathBuf, String> {
    Ok(dir()?.join("settings.json"))
}

/// The project's settings file, for the current directory.
pub fn project_settings_path() -> Option<PathBuf> {
    std::env::current_dir()
        .ok()
        .map(|d| d.join(".gemini/settings.json"))
}

/// The system settings file (every user's, above their own settings).
pub fn system_settings_path() -> PathBuf {
    if let Some(p) = std::env::var_os("GEMINI_CLI_SYSTEM_SETTINGS_PATH").filter(|v| !v.is_empty()) {
        return PathBuf::from(p);
    }
    if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/GeminiCli/settings.json")
    } else {
        PathBuf::from("/etc/gemini-cli/settings.json")
    }
}

/// The system defaults file, beside the system settings (below the user's settings).
pub fn system_defaults_path() -> PathBuf {
    if let Some(p) = std::env::var_os("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").filter(|v| !v.is_empty()) {
        return PathBuf::from(p);
    }
    system_settings_path().parent().map_or_else(
        || PathBuf::from("system-defaults.json"),
        |d| d.join("system-defaults.json"),
    )
}

/// The trusted folders file.
pub fn trusted_folders_path() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("GEMINI_CLI_TRUSTED_FOLDERS_PATH").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    Ok(dir()?.join("trustedFolders.json"))
}

/// Whether Gemini CLI trusts `folder`, as it decides (0.61.0, `checkPathTrust`): the
/// environment (`GEMINI_CLI_TRUST_WORKSPACE`, `GEMINI_RESTRICTED_MODE`), then folder trust
/// switched off in the settings (`folder_trust_enabled`), then the longest matching rule of
/// the trusted folders file (`TRUST_FOLDER`, `TRUST_PARENT` for the rule's parent,
/// `DO_NOT_TRUST`). `None`: no rule (Gemini then asks, in a terminal, and refuses to run
/// in headless mode).
pub fn trusted(folder: &Path, folder_trust_enabled: bool) -> Option<bool> {
    let env = |k: &str| std::env::var(k).ok();
    if env("GEMINI_RESTRICTED_MODE").as_deref() == Some("true")
        || env("GEMINI_CLI_TRUST_WORKSPACE").as_deref() == Some("false")
    {
        return Some(false);
    }
    if env("GEMINI_CLI_TRUST_WORKSPACE").as_deref() == Some("true") || !folder_trust_enabled {
        return Some(true);
    }
    let text = std::fs::read_to_string(trusted_folders_path().ok()?).ok()?;
    let rules: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).ok()?;
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let here = real(folder);
    let mut best: Option<(usize, &str)> = None;
    for (rule, level) in &rules {
        let Some(level) = level.as_str() else {
            continue;
        };
        let path = Path::new(rule);
        let effective = if level == "TRUST_PARENT" {
            path.parent().unwrap_or(path)
        } else {
            path
        };
        if here.starts_with(real(effective)) && best.is_none_or(|(len, _)| rule.len() > len) {
            best = Some((rule.len(), level));
        }
    }
    match best.map(|(_, level)| level) {
        Some("DO_NOT_TRUST") => Some(false),
        Some("TRUST_FOLDER" | "TRUST_PARENT") => Some(true),
        _ => None,
    }
}
