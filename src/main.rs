//! The `heredoc-guard` binary: hook mode (no arguments) reads one event on stdin and exits
//! 0 (allow, nothing printed) or 2 (deny, reason on stderr, deny JSON on stdout). The exit
//! code is decided in one place, `main`; every panic becomes a deny.

use std::io::{Read, Write};
use std::process::ExitCode;

use heredoc_guard::analyze;
use heredoc_guard::verdict::{Denial, Rule, Stage};
use heredoc_guard::{config, ledger, limits, output};

const HELP: &str = "heredoc-guard: a PreToolUse hook for Claude Code and Codex that denies a shell
command when an unquoted heredoc body holds a command substitution the shell would run.

Usage:
  heredoc-guard                  hook mode: read one hook event (JSON) on stdin
  heredoc-guard config claude    print Claude Code settings.json hook set-up
  heredoc-guard config codex     print Codex hooks.json / config.toml hook set-up
  heredoc-guard --help | --version

Exit status (hook mode): 0 allow (prints nothing), 2 deny (reason on stderr, deny JSON on
stdout). Any other status is a fault; the launcher printed by `config` turns it into a deny.

Each deny appends one JSON line to ~/.claude/logs/heredoc-guard-ledger.jsonl; set
HEREDOC_GUARD_LEDGER to move it. Nothing turns the guard off.
";

enum Outcome {
    Allow,
    Deny(Denial, Option<String>),
    Printed,
    UsageError(String),
}

fn main() -> ExitCode {
    // Every panic is caught below and turned into a deny; keep the default hook quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(run).unwrap_or_else(|_| {
        Outcome::Deny(
            Denial::failure(
                Rule::InternalError,
                Stage::Internal,
                "panic",
                "heredoc-guard failed internally (a panic); it denies what it cannot check. Quote the heredoc delimiter (<<'EOF') or split the command, and retry.".to_owned(),
            ),
            None,
        )
    });
    match outcome {
        Outcome::Allow | Outcome::Printed => ExitCode::SUCCESS,
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

/// Prints a deny and appends it to the ledger.
fn deny(denial: &Denial, command: &[u8]) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{}", denial.reason);
    if let Err(note) = ledger::append(denial, command) {
        let _ = writeln!(
            stderr,
            "heredoc-guard: ledger not written ({note}); the deny stands"
        );
    }
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", output::deny_json(&denial.reason));
    let _ = stdout.flush();
}

fn run() -> Outcome {
    let args: Vec<String> = match std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(args) => args,
        Err(_) => return Outcome::UsageError("an argument is not valid UTF-8".to_owned()),
    };
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => hook(),
        ["--help" | "-h"] => print(HELP),
        ["--version" | "-V"] => print(&format!("heredoc-guard {}\n", env!("CARGO_PKG_VERSION"))),
        ["config", agent] => {
            let binary = match std::env::current_exe().and_then(std::fs::canonicalize) {
                Ok(p) => p.to_string_lossy().into_owned(),
                Err(e) => {
                    return Outcome::UsageError(format!("cannot find the binary's own path ({e})"));
                }
            };
            match *agent {
                "claude" => print(&format!("{}\n", config::claude(&binary))),
                "codex" => print(&config::codex(&binary)),
                other => Outcome::UsageError(format!(
                    "unknown agent `{other}` (expected claude or codex)"
                )),
            }
        }
        [first, ..] => Outcome::UsageError(format!("unknown argument `{first}`")),
    }
}

fn print(text: &str) -> Outcome {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Outcome::Printed,
        Err(e) => Outcome::UsageError(format!("cannot write to stdout ({e})")),
    }
}

fn hook() -> Outcome {
    let mut input = Vec::new();
    let limit = limits::MAX_EVENT_BYTES as u64 + 1;
    if let Err(e) = std::io::stdin().lock().take(limit).read_to_end(&mut input) {
        return Outcome::Deny(
            Denial::failure(
                Rule::InvalidEvent,
                Stage::Event,
                "unreadable stdin",
                format!(
                    "heredoc-guard could not read the hook event from stdin ({e}); it denies what it cannot read."
                ),
            ),
            None,
        );
    }
    let result = analyze::check_event(&input);
    match result.verdict.into_denial() {
        None => Outcome::Allow,
        Some(denial) => Outcome::Deny(denial, result.command),
    }
}
