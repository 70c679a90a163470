//! The deny ledger: one JSON line per deny, appended with a single `write` on a file
//! opened with O_APPEND, so concurrent hooks never interleave. It holds a SHA-256 of the
//! command, never its text.
//!
//! Default path `~/.claude/logs/heredoc-guard-ledger.jsonl`; `HEREDOC_GUARD_LEDGER` moves
//! it (a leading `~` is expanded). Failing to write never changes a verdict.

use std::fs::{DirBuilder, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::PathBuf;

use serde_json::json;
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

/// The ledger line for a deny (without newline).
pub fn record(denial: &Denial, command: &[u8]) -> String {
    let ts = chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, false);
    let mut line = json!({
        "ts": ts,
        "command_sha256": command_sha256(command),
        "rule": denial.rule.id(),
        "reason": denial.rule.summary(),
    });
    if let (Some((stage, cause)), Some(map)) = (denial.failure, line.as_object_mut()) {
        map.insert("stage".to_owned(), json!(stage.id()));
        map.insert("cause".to_owned(), json!(cause));
    }
    line.to_string()
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
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let written = file
        .write(line.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if written != line.len() {
        return Err(format!("short write to {}", path.display()));
    }
    Ok(())
}
