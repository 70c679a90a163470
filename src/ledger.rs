//! The deny ledger: one JSON line per deny, appended with a single `write` on a file
//! opened with O_APPEND, so concurrent hooks never interleave. It holds a SHA-256 of the
//! command, never its text.
//!
//! Default path `~/.claude/logs/heredoc-guard-ledger.jsonl`; `HEREDOC_GUARD_LEDGER` moves
//! it (a leading `~` is expanded). Failing to write never changes a verdict, and the
//! verdict never waits on the ledger: the caller prints it first, and the file is opened
//! with O_NONBLOCK and written only when it is a regular file, so a FIFO, a device or a
//! socket at the path cannot hang the hook.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::PathBuf;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::verdict::Denial;

/// The environment variable that moves the ledger.
pub const LEDGER_ENV: &str = "HEREDOC_GUARD_LEDGER";

/// Hex SHA-256 of the command's bytes.
pub fn command_sha256(command: &[u8]) -> String {
    let digest = Sha256::digest(command);
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// The ledger line for a deny (without newline), keys in sorted order.
pub fn record(denial: &Denial, command: &[u8]) -> String {
    let ts = chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, false);
    let mut line: BTreeMap<&str, Value> = BTreeMap::new();
    line.insert("ts", json!(ts));
    line.insert("command_sha256", json!(command_sha256(command)));
    line.insert("rule", json!(denial.rule.id()));
    line.insert("reason", json!(denial.rule.summary()));
    if let Some((stage, cause)) = denial.failure {
        line.insert("stage", json!(stage.id()));
        line.insert("cause", json!(cause));
    }
    serde_json::to_string(&line).unwrap_or_default()
}

/// Where the ledger is, read from the environment at call time.
pub fn path() -> Result<PathBuf, String> {
    let home = || std::env::var_os("HOME").filter(|h| !h.is_empty());
    match std::env::var_os(LEDGER_ENV).filter(|v| !v.is_empty()) {
        Some(custom) => {
            let text = custom.to_string_lossy().into_owned();
            if text == "~" {
                home()
                    .map(PathBuf::from)
                    .ok_or_else(|| "HOME is not set".to_owned())
            } else if let Some(rest) = text.strip_prefix("~/") {
                home()
                    .map(|h| PathBuf::from(h).join(rest))
                    .ok_or_else(|| "HOME is not set".to_owned())
            } else {
                Ok(PathBuf::from(custom))
            }
        }
        None => home()
            .map(|h| PathBuf::from(h).join(".claude/logs/heredoc-guard-ledger.jsonl"))
            .ok_or_else(|| "HOME is not set".to_owned()),
    }
}

/// Opens the ledger for appending without ever blocking: O_NONBLOCK (a FIFO without a
/// reader fails at once instead of waiting for one), created 0600, and refused unless the
/// opened file is a regular file. Also used by `doctor` to check the ledger is writable.
pub fn open_for_append(path: &std::path::Path) -> Result<File, String> {
    let file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot stat {}: {e}", path.display()))?;
    if !meta.file_type().is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    Ok(file)
}

/// Appends one record. Errors are returned for a note on stderr; they never change the
/// verdict.
pub fn append(denial: &Denial, command: &[u8]) -> Result<(), String> {
    let path = path()?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        {
            DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
    }
    let mut line = record(denial, command);
    line.push('\n');
    let mut file = open_for_append(&path)?;
    let written = file
        .write(line.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if written != line.len() {
        return Err(format!("short write to {}", path.display()));
    }
    Ok(())
}
