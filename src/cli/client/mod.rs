//! The agents' side of the machine: where their binaries and settings are, and running a
//! child process with a deadline (for `claude --version`, `codex app-server` and the
//! doctor's live probe). Nothing here is on the hook's path.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod process;

use std::path::{Path, PathBuf};

/// The user's home directory, from `HOME`.
pub fn home() -> Result<PathBuf, String> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| "HOME is not set".to_owned())
}

/// The first executable file named `name` in the directories of `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable_file(candidate))
}

/// True for a regular file with an execute bit (symlinks followed).
pub fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// This binary's own absolute path, symlinks resolved: what install writes into the
/// agents' settings.
pub fn own_binary() -> Result<String, String> {
    let path = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| format!("cannot find the binary's own path ({e})"))?;
    path.into_os_string()
        .into_string()
        .map_err(|_| "the binary's own path is not valid UTF-8".to_owned())
}

/// `path` with the home directory written as `~`, for messages.
pub fn tilde(path: &Path) -> String {
    match home() {
        Ok(h) => match path.strip_prefix(&h) {
            Ok(rest) if !h.as_os_str().is_empty() && h != Path::new("/") => {
                format!("~/{}", rest.display())
            }
            _ => path.display().to_string(),
        },
        Err(_) => path.display().to_string(),
    }
}
