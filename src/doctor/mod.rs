//! `heredoc-guard doctor [--json]`: is every agent found here really guarded? For Claude
//! Code and Codex (each when its binary or its settings are found): the hook registered,
//! pointing at an existing heredoc-guard, fail-closed, covering every shell tool, trusted
//! (Codex), on a client new enough (Claude); a live probe of the configured command; and
//! the ledger writable. Exit 0 only when nothing leaves commands unguarded.

mod claude;
mod codex;
pub mod matcher;
pub mod probe;
pub mod report;

use report::{Check, Report, Section};

/// Gaps that no hook closes, named in every report.
pub const NOT_COVERED: [&str; 3] = [
    "Codex's write_stdin (typing into a shell that exec_command started) fires no PreToolUse event",
    "claude --bare skips every hook",
    "Codex has no onFailure: a hook that times out (30 s here) lets the command run",
];

/// Runs every check.
pub fn run() -> Report {
    let dir = std::env::temp_dir().join(format!("heredoc-guard-doctor-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut report = Report::default();
    report.sections.extend(claude::check(&dir));
    report.sections.extend(codex::check(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    if report.sections.is_empty() {
        report.sections.push(Section {
            name: "agents".to_owned(),
            title: "agents".to_owned(),
            checks: vec![Check::fail(
                "neither claude nor codex is on PATH, and neither has settings here: nothing to guard",
                "install Claude Code or Codex, then heredoc-guard install claude (or codex)",
            )],
        });
    }
    report.sections.push(ledger());
    report.notes = NOT_COVERED.iter().map(|s| (*s).to_owned()).collect();
    report
}

fn ledger() -> Section {
    let check = match crate::ledger::path() {
        Err(e) => Check::fail(
            format!("no ledger path: {e}"),
            "set HOME, or HEREDOC_GUARD_LEDGER to a file path",
        ),
        Ok(path) => {
            let dir_ok = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or(Ok(()), |d| {
                    std::fs::create_dir_all(d).map_err(|e| e.to_string())
                });
            match dir_ok.and_then(|()| crate::ledger::open_for_append(&path).map(drop)) {
                Ok(()) => Check::pass(format!("{} is writable", crate::client::tilde(&path))),
                Err(e) => Check::fail(
                    format!(
                        "the ledger cannot be written ({e}): denials still deny, but leave no record"
                    ),
                    "point HEREDOC_GUARD_LEDGER at a writable regular file",
                ),
            }
        }
    };
    Section {
        name: "ledger".to_owned(),
        title: "ledger".to_owned(),
        checks: vec![check],
    }
}
