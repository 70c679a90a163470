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

/// Which Claude Code settings file: the user's, or one of the project's two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`).
    User,
    /// `./.claude/settings.local.json`: this user's, in this project (not committed).
    ProjectLocal,
    /// `./.claude/settings.json`: the project's, committed and shared with the team.
    ProjectShared,
}

impl Scope {
    /// The scope for `--project` and `--shared`.
    pub fn of_flags(project: bool, shared: bool) -> Scope {
        match (project, shared) {
            (_, true) => Scope::ProjectShared,
            (true, false) => Scope::ProjectLocal,
            (false, false) => Scope::User,
        }
    }

    /// The flags that name this scope, for messages (` --project`, ` --shared`, or none).
    pub fn flags(self) -> &'static str {
        match self {
            Scope::User => "",
            Scope::ProjectLocal => " --project",
            Scope::ProjectShared => " --project --shared",
        }
    }
}

/// The settings file of `scope`.
pub fn settings_path(scope: Scope) -> Result<PathBuf, String> {
    let project = |name: &str| {
        std::env::current_dir()
            .map(|cwd| cwd.join(".claude").join(name))
            .map_err(|e| format!("cannot read the current directory ({e})"))
    };
    match scope {
        Scope::User => Ok(config_dir()?.join("settings.json")),
        Scope::ProjectLocal => project("settings.local.json"),
        Scope::ProjectShared => project("settings.json"),
    }
}

/// Every settings file whose hooks Claude Code runs here (user, project, project local),
/// with its scope.
pub fn all_settings_paths() -> Vec<(Scope, PathBuf)> {
    let mut paths: Vec<(Scope, PathBuf)> = Vec::new();
    for scope in [Scope::User, Scope::ProjectShared, Scope::ProjectLocal] {
        if let Ok(p) = settings_path(scope)
            && !paths.iter().any(|(_, q)| q == &p)
        {
            paths.push((scope, p));
        }
    }
    paths
}

/// `installed_plugins.json`: where Claude Code keeps each installed plugin.
pub fn installed_plugins_path() -> Result<PathBuf, String> {
    Ok(config_dir()?.join("plugins/installed_plugins.json"))
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
