//! Claude Code: where its settings live and which version is installed.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use super::process;

/// The first version that knows `"onFailure"` and the exec form (`"args": []`).
pub const ON_FAILURE_SINCE: Version = Version(2, 1, 295);

/// A Claude Code version, as `claude --version` prints it (`2.1.328 (Claude Code)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32, pub u32);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// Reads the first `X.Y.Z` of `claude --version`'s output.
pub fn parse_version(text: &str) -> Option<Version> {
    let word = text.split_whitespace().next()?;
    let mut parts = word.split('.').map(|p| p.parse::<u32>().ok());
    let v = Version(parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(v)
}

/// The user's Claude Code directory: `CLAUDE_CONFIG_DIR`, or `~/.claude`.
pub fn config_dir() -> Result<PathBuf, String> {
    match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Ok(super::home()?.join(".claude")),
    }
}

/// The settings file `install claude` writes: the user's, or `./.claude/settings.json`.
pub fn settings_path(project: bool) -> Result<PathBuf, String> {
    if project {
        let cwd = std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory ({e})"))?;
        Ok(cwd.join(".claude/settings.json"))
    } else {
        Ok(config_dir()?.join("settings.json"))
    }
}

/// Every settings file whose hooks Claude Code runs here (user, project, project local).
pub fn all_settings_paths() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Ok(p) = settings_path(false) {
        paths.push(p);
    }
    if let Ok(cwd) = std::env::current_dir() {
        paths.push(cwd.join(".claude/settings.json"));
        paths.push(cwd.join(".claude/settings.local.json"));
    }
    paths.dedup();
    paths
}

/// What `claude --version` said: the binary, and the version or why there is none.
pub struct Found {
    pub binary: PathBuf,
    pub version: Result<Version, String>,
}

/// Looks for `claude` on PATH and asks its version (10 s at most).
pub fn find() -> Option<Found> {
    let binary = super::find_on_path("claude")?;
    let mut command = Command::new(&binary);
    command.arg("--version");
    let version = match process::run(command, b"", Duration::from_secs(10)) {
        Ok(done) if done.code == Some(0) => parse_version(&done.stdout)
            .ok_or_else(|| format!("`claude --version` printed {:?}", done.stdout.trim())),
        Ok(done) => Err(format!(
            "`claude --version` ended with {}",
            done.status_text()
        )),
        Err(e) => Err(e),
    };
    Some(Found { binary, version })
}

#[cfg(test)]
mod tests {
    use super::{Version, parse_version};

    #[test]
    fn reads_the_version_claude_prints_and_refuses_other_text() {
        assert_eq!(
            parse_version("2.1.328 (Claude Code)\n"),
            Some(Version(2, 1, 328))
        );
        assert_eq!(parse_version("2.1.295"), Some(Version(2, 1, 295)));
        assert_eq!(parse_version("claude 2.1.3"), None);
        assert_eq!(parse_version("2.1"), None);
        assert_eq!(parse_version("2.1.3.4"), None);
        assert!(Version(2, 1, 294) < super::ON_FAILURE_SINCE);
        assert!(Version(2, 10, 0) > super::ON_FAILURE_SINCE);
    }
}
