//! The deny ledger: one JSON line per deny, appended with a single `write` on a file
//! opened with O_APPEND, so concurrent hooks never interleave. It holds a SHA-256 of the
//! command, never its text, and where the deny came from: the agent, its session id, the
//! working directory, the tool and the hook event, as the event gave them.
//!
//! Where: `HEREDOC_GUARD_LEDGER` when set (a leading `~` is expanded), else
//! `$XDG_STATE_HOME/heredoc-guard/ledger.jsonl`, else
//! `~/.local/state/heredoc-guard/ledger.jsonl`. Earlier releases wrote
//! `~/.claude/logs/heredoc-guard-ledger.jsonl`; `log` reads that file too.
//!
//! Failing to write never changes a verdict, and the verdict never waits on the ledger:
//! the caller prints it first, the time comes from the system clock in UTC (no zone file
//! is read), and the file is opened with O_NONBLOCK and written only when it is a regular
//! file, so a FIFO, a device or a socket at the path cannot hang the hook.

use std::collections::BTreeMap;
use std::fs::{DirBuilder, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use heredoc_guard::Context;
use heredoc_guard::verdict::Denial;

/// The environment variable that moves the ledger.
pub const LEDGER_ENV: &str = "HEREDOC_GUARD_LEDGER";

/// Longest value of a context field kept in a record (a path, a session id).
const MAX_FIELD_BYTES: usize = 1024;

/// Hex SHA-256 of the command's bytes.
pub fn command_sha256(command: &[u8]) -> String {
    Sha256::digest(command)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// At most [`MAX_FIELD_BYTES`] of `s`, cut at a character boundary.
fn bounded(s: &str) -> &str {
    if s.len() <= MAX_FIELD_BYTES {
        return s;
    }
    let mut end = MAX_FIELD_BYTES;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The ledger line for a deny (without newline), keys in sorted order.
pub fn record(denial: &Denial, command: &[u8], context: &Context<'_>, millis: i64) -> String {
    let mut line: BTreeMap<&str, Value> = BTreeMap::new();
    line.insert("ts", json!(crate::utc::rfc3339(millis)));
    line.insert("command_sha256", json!(command_sha256(command)));
    line.insert("rule", json!(denial.rule.id()));
    line.insert("reason", json!(denial.rule.summary()));
    if let Some((stage, cause)) = denial.failure {
        line.insert("stage", json!(stage.id()));
        line.insert("cause", json!(cause));
    }
    if let Some(agent) = context.agent {
        line.insert("agent", json!(agent.id()));
    }
    let fields = [
        ("session_id", &context.session_id),
        ("cwd", &context.cwd),
        ("tool", &context.tool),
        ("hook_event", &context.hook_event),
    ];
    for (key, value) in fields {
        if let Some(v) = value {
            line.insert(key, json!(bounded(v)));
        }
    }
    serde_json::to_string(&line).unwrap_or_default()
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// Where the ledger is, read from the environment at call time.
pub fn path() -> Result<PathBuf, String> {
    if let Some(custom) = std::env::var_os(LEDGER_ENV).filter(|v| !v.is_empty()) {
        let text = custom.to_string_lossy();
        let rest = if text == "~" {
            Some("")
        } else {
            text.strip_prefix("~/")
        };
        return match rest {
            Some(rest) => home()
                .map(|h| h.join(rest))
                .ok_or_else(|| format!("HOME is not set, so {LEDGER_ENV}={text} has no place")),
            None => Ok(PathBuf::from(custom)),
        };
    }
    // The XDG base directory rule: a relative XDG_STATE_HOME is ignored.
    let state = match std::env::var_os("XDG_STATE_HOME").map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => dir,
        _ => home()
            .ok_or("neither HOME nor XDG_STATE_HOME is set")?
            .join(".local/state"),
    };
    Ok(state.join("heredoc-guard/ledger.jsonl"))
}

/// Where earlier releases wrote the ledger, when `HEREDOC_GUARD_LEDGER` does not move it.
pub fn old_path() -> Option<PathBuf> {
    if std::env::var_os(LEDGER_ENV).is_some_and(|v| !v.is_empty()) {
        return None;
    }
    Some(home()?.join(".claude/logs/heredoc-guard-ledger.jsonl"))
}

/// Opens the ledger for appending without ever blocking: O_NONBLOCK (a FIFO without a
/// reader fails at once instead of waiting for one), created 0600 when `create`, and
/// refused unless the opened file is a regular file. `doctor` opens it without `create`,
/// which changes nothing on disk.
pub fn open_for_append(path: &Path, create: bool) -> Result<File, String> {
    let file = OpenOptions::new()
        .append(true)
        .create(create)
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

/// Appends one record line. Errors are returned for a note on stderr; they never change
/// the verdict.
pub fn append(line: &str) -> Result<(), String> {
    let path = path()?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut bytes = Vec::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line.as_bytes());
    bytes.push(b'\n');
    let mut file = open_for_append(&path, true)?;
    let written = file
        .write(&bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if written != bytes.len() {
        return Err(format!("short write to {}", path.display()));
    }
    Ok(())
}
