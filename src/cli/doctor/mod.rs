//! `heredoc-guard doctor [claude|codex|gemini|copilot] [--json]`: is every agent set up
//! here really guarded? For Claude Code (its settings files and the plugins they enable),
//! Codex (the hooks its own `codex app-server` lists), Gemini CLI ([`gemini`]) and Copilot
//! CLI ([`copilot`]): the hook registered, pointing at a heredoc-guard
//! that is there, fail-closed, covering every shell tool, trusted (Codex), on a client new
//! enough (Claude); a live probe of the configured command; a hook that runs twice; and the
//! ledger writable. An agent whose binary is on PATH but that is not set up here (no
//! settings, no home directory) is a note. Exit 0 only when nothing leaves commands
//! unguarded.
//!
//! Doctor changes nothing on disk: it starts `codex app-server` only when Codex's home
//! exists, the probe's denies go to `/dev/null` (not a regular file, so no record is
//! written), and the ledger is opened without being created.

mod claude;
mod codex;
mod copilot;
mod gemini;
pub mod matcher;
pub mod probe;
pub mod report;
mod switches;

use report::{Check, Report, Section};

/// Gaps that no hook closes, named in every report that checks their agent.
pub const NOT_COVERED: [(Only, &str); 6] = [
    (
        Only::Codex,
        "Codex's write_stdin (typing into a shell that exec_command started) fires no PreToolUse event",
    ),
    (Only::Claude, "claude --bare skips every hook"),
    (
        Only::Codex,
        "Codex has no onFailure: a hook that times out (30 s here) lets the command run",
    ),
    (
        Only::Copilot,
        "Copilot CLI lets the command run when a hook times out (30 s here)",
    ),
    (
        Only::Gemini,
        "Gemini CLI runs no settings hook in a folder it does not trust (it asks before each shell command there instead)",
    ),
    (
        Only::Gemini,
        "Gemini CLI lets the command run when a hook times out (30 s here); the guard ends itself within 4 s",
    ),
];

/// Which agents to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Only {
    All,
    Claude,
    Codex,
    Gemini,
    Copilot,
}

/// Runs every check (for `only` agents).
pub fn run(only: Only) -> Report {
    let mut report = Report::default();
    let wanted = |agent: Only| only == Only::All || only == agent;
    if wanted(Only::Claude) {
        report.sections.push(claude::check(only == Only::Claude));
    }
    if wanted(Only::Codex) {
        report.sections.push(codex::check(only == Only::Codex));
    }
    if wanted(Only::Gemini) {
        report.sections.push(gemini::check(only == Only::Gemini));
    }
    if wanted(Only::Copilot) {
        report.sections.push(copilot::check(only == Only::Copilot));
    }
    if only == Only::All && !report.sections.iter().any(|s| s.used) {
        report.sections.push(Section {
            name: "agents".to_owned(),
            title: "agents".to_owned(),
            checks: vec![Check::fail(
                "agents.none",
                "neither Claude Code nor Codex is set up here (nor Gemini CLI, nor Copilot CLI; no settings, no home directory): nothing is guarded",
                "install one of them, then heredoc-guard install claude (or codex, gemini, copilot)",
            )],
            used: false,
        });
    }
    report.sections.push(ledger());
    report.notes = NOT_COVERED
        .iter()
        .filter(|(agent, _)| only == Only::All || only == *agent)
        .map(|(_, s)| (*s).to_owned())
        .collect();
    report
}

/// The ledger: writable when it exists, or creatable where it will be.
fn ledger() -> Section {
    let tilde = |p: &std::path::Path| crate::cli::client::tilde(p);
    let check = match crate::ledger::path() {
        Err(e) => Check::fail(
            "ledger.writable",
            format!("no ledger path: {e}"),
            "set HOME, or HEREDOC_GUARD_LEDGER to a file path",
        ),
        Ok(path) if path.exists() => match crate::ledger::open_for_append(&path, false) {
            Ok(_) => Check::pass("ledger.writable", format!("{} is writable", tilde(&path))),
            Err(e) => Check::fail(
                "ledger.writable",
                format!(
                    "the ledger cannot be written ({e}): denials still deny, but leave no record"
                ),
                "point HEREDOC_GUARD_LEDGER at a writable regular file",
            ),
        },
        Ok(path) => {
            // The nearest directory that exists: the guard creates the rest on its first deny.
            let existing = path.ancestors().skip(1).find(|d| d.exists());
            match existing {
                Some(d)
                    if d.is_dir() && !d.metadata().is_ok_and(|m| m.permissions().readonly()) =>
                {
                    Check::pass(
                        "ledger.writable",
                        format!(
                            "{} does not exist yet; the first deny creates it",
                            tilde(&path)
                        ),
                    )
                }
                _ => Check::fail(
                    "ledger.writable",
                    format!(
                        "the ledger {} cannot be created (no writable directory on its path): denials still deny, but leave no record",
                        tilde(&path)
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
        used: false,
    }
}

/// Why the binary a hook runs is not there, with what fixes it: a path that is not an
/// executable file, or a bare name that is not on PATH (resolved as the client resolves
/// it, from the PATH it was started with).
fn missing_binary(binary: &str) -> Option<(String, String)> {
    use crate::cli::client;
    let install = "install heredoc-guard (npm install -g heredoc-guard, or cargo install --locked heredoc-guard), or remove the hook (heredoc-guard uninstall, from any copy of it)";
    if binary.contains('/') {
        (!client::is_executable_file(std::path::Path::new(binary))).then(|| {
            (
                format!("{binary} is not an executable file: the hook blocks every shell command"),
                format!(
                    "{install}; after installing, run heredoc-guard install again from the installed binary"
                ),
            )
        })
    } else {
        client::find_on_path(binary).is_none().then(|| {
            (
                format!("{binary} is not on PATH: the hook blocks every shell command"),
                format!("{install}; the directory it goes to (npm's global bin, ~/.cargo/bin) must be on the PATH the agent starts with"),
            )
        })
    }
}
