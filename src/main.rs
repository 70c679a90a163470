//! The `heredoc-guard` binary. Hook mode (no arguments) reads one event on stdin and exits
//! 0 (allow, nothing printed) or 2 (deny, reason on stderr, deny JSON on stdout); it runs
//! before any argument parsing. Every other use goes through the clap-declared CLI in
//! `cli`. The exit code is decided in `main`; every panic in hook mode becomes a deny, and
//! a panic while printing a deny still exits 2.

mod cli;

use std::io::{Read, Write};
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

use heredoc_guard::verdict::{Denial, Rule, Stage};
use heredoc_guard::{ledger, limits, output, reason};

/// What a run comes to.
pub enum Outcome {
    Allow,
    Deny(Denial, Option<String>),
    /// A subcommand printed its output; exit with this code.
    Exit(u8),
    /// The arguments could not be read: deny, since the guard did not run.
    UsageError(String),
}

fn main() -> ExitCode {
    // Every panic is caught below and turned into a deny; keep the default hook quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let hook_mode = std::env::args_os().len() <= 1;
    let outcome = std::panic::catch_unwind(|| if hook_mode { hook() } else { cli::run() })
        .unwrap_or_else(|_| Outcome::Deny(reason::internal("panic"), None));
    match outcome {
        Outcome::Allow => ExitCode::SUCCESS,
        Outcome::Exit(code) => ExitCode::from(code),
        Outcome::Deny(denial, command) => {
            deny(&denial, command.as_deref().unwrap_or("").as_bytes());
            ExitCode::from(2)
        }
        Outcome::UsageError(message) => {
            let denial = Denial::failure(
                Rule::InternalError,
                Stage::Internal,
                "bad invocation",
                format!(
                    "heredoc-guard: {message}; run `heredoc-guard --help`. Denying, since the guard did not run."
                ),
            );
            deny(&denial, b"");
            ExitCode::from(2)
        }
    }
}

/// Prints a deny (reason on stderr, JSON on stdout, both flushed), then appends it to the
/// ledger: the verdict never waits on the ledger. A panic anywhere in here is swallowed;
/// the caller exits 2 whatever happens.
fn deny(denial: &Denial, command: &[u8]) {
    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(stderr, "{}", denial.reason);
        let _ = stderr.flush();
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{}", output::deny_json(&denial.reason));
        let _ = stdout.flush();
        drop(stdout);
        if let Err(note) = ledger::append(denial, command) {
            let _ = writeln!(
                stderr,
                "heredoc-guard: ledger not written ({note}); the deny stands"
            );
        }
    }));
}

/// Hook mode: one event on stdin, through the library's checked path.
fn hook() -> Outcome {
    let mut input = Vec::new();
    let limit = limits::MAX_EVENT_BYTES as u64 + 1;
    if let Err(e) = std::io::stdin().lock().take(limit).read_to_end(&mut input) {
        return Outcome::Deny(
            reason::invalid_event(
                "unreadable stdin",
                &format!("stdin could not be read ({e})"),
            ),
            None,
        );
    }
    let result = checks::event(&input);
    match result.verdict.into_denial() {
        None => Outcome::Allow,
        Some(denial) => Outcome::Deny(denial, result.command),
    }
}

/// Every call into the checking code, in one place.
pub mod checks {
    use heredoc_guard::EventVerdict;
    use heredoc_guard::explain::{self, Explanation};
    use heredoc_guard::strip::{self, StripError};

    /// A hook event to a verdict.
    pub fn event(bytes: &[u8]) -> EventVerdict {
        heredoc_guard::check_event(bytes)
    }

    /// What the guard sees in a command (`explain`).
    pub fn explain(command: &str) -> Explanation {
        explain::explain(command)
    }

    /// The command with its data heredoc bodies removed (`strip`).
    pub fn strip(command: &str) -> Result<String, StripError> {
        strip::strip(command)
    }
}
