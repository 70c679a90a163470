//! The live probe: the configured hook command run exactly as the client runs it (`sh -c`
//! for a shell-form command in Claude Code, the binary itself for the exec form, `$SHELL
//! -lc` in Codex) on events that must be denied and one that must be allowed, with the
//! exit codes and output checked. The probe's denies go to no ledger: `HEREDOC_GUARD_LEDGER`
//! is `/dev/null`, which the guard refuses to write (not a regular file).

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use crate::cli::client::process;

/// How a client starts a hook command.
#[derive(Clone, Debug)]
pub enum Launch {
    /// `sh -c "<command>"` (Claude Code, shell form).
    ShC(String),
    /// The command itself with its arguments, no shell (Claude Code exec form).
    Exec(String, Vec<String>),
    /// `$SHELL -lc "<command>"` (Codex).
    LoginShell(String),
}

impl Launch {
    /// How it is run, for messages.
    pub fn describe(&self) -> String {
        match self {
            Launch::ShC(_) => "through `sh -c`, as Claude Code runs it".to_owned(),
            Launch::Exec(..) => "directly (exec form), as Claude Code runs it".to_owned(),
            Launch::LoginShell(_) => format!("through `{} -lc`, as Codex runs it", login_shell()),
        }
    }

    fn command(&self) -> Command {
        match self {
            Launch::ShC(line) => {
                let mut c = Command::new("sh");
                c.arg("-c").arg(line);
                c
            }
            Launch::Exec(program, args) => {
                let mut c = Command::new(program);
                c.args(args);
                c
            }
            Launch::LoginShell(line) => {
                let mut c = Command::new(login_shell());
                c.arg("-lc").arg(line);
                c
            }
        }
    }
}

fn login_shell() -> String {
    std::env::var("SHELL")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/bin/sh".to_owned())
}

/// A heredoc whose body the shell would run: must be denied.
pub const DENY_COMMAND: &str = "cat <<EOF\n$(heredoc-guard-doctor-probe)\nEOF";
/// The same body behind a quoted delimiter: must be allowed.
pub const ALLOW_COMMAND: &str = "cat <<'EOF'\n$(heredoc-guard-doctor-probe)\nEOF";

/// A PreToolUse event the way `client` sends it for `tool`.
pub fn event(codex: bool, tool: &str, command: &str) -> Vec<u8> {
    let cwd = std::env::current_dir()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "/".to_owned());
    let v = if codex {
        json!({"session_id": "doctor", "turn_id": "doctor", "transcript_path": null, "cwd": cwd,
            "hook_event_name": "PreToolUse", "model": "doctor", "permission_mode": "default",
            "tool_name": tool, "tool_input": {"command": command}, "tool_use_id": "doctor"})
    } else {
        let input = if tool == "Monitor" {
            json!({"command": command, "description": "doctor probe", "timeout_ms": 1000})
        } else {
            json!({"command": command, "description": "doctor probe"})
        };
        json!({"session_id": "doctor", "transcript_path": "", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": input, "tool_use_id": "doctor"})
    };
    v.to_string().into_bytes()
}

/// One probe's expectation.
pub struct Case {
    pub name: &'static str,
    pub event: Vec<u8>,
    pub deny: bool,
}

/// Runs every case; returns the problems (empty when all held).
pub fn run(launch: &Launch, cases: &[Case]) -> Vec<String> {
    let mut problems = Vec::new();
    for case in cases {
        let mut command = launch.command();
        command.env("HEREDOC_GUARD_LEDGER", "/dev/null");
        let done = match process::run(command, &case.event, Duration::from_secs(15)) {
            Ok(done) => done,
            Err(e) => {
                problems.push(format!("{}: {e}", case.name));
                continue;
            }
        };
        let stdout = done.stdout.trim();
        let stderr_first = done.stderr.lines().next().unwrap_or("").trim().to_owned();
        let problem = if case.deny {
            if done.code != Some(2) {
                Some(format!(
                    "expected a deny (exit 2), got {}",
                    done.status_text()
                ))
            } else if stderr_first.is_empty() {
                Some("denied without a reason on stderr (Codex then runs the command)".to_owned())
            } else if !is_deny_json(stdout.lines().last().unwrap_or("")) {
                Some(format!(
                    "exit 2, but stdout does not end in the deny JSON: {stdout:?}"
                ))
            } else {
                None
            }
        } else if done.code != Some(0) {
            Some(format!(
                "expected an allow (exit 0), got {}: {}",
                done.status_text(),
                stderr_first
            ))
        } else if !stdout.is_empty() {
            Some(format!("allowed, but printed {stdout:?} on stdout"))
        } else {
            None
        };
        if let Some(p) = problem {
            problems.push(format!("{}: {p}", case.name));
        }
    }
    problems
}

fn is_deny_json(line: &str) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|v| {
        v.pointer("/hookSpecificOutput/permissionDecision") == Some(&json!("deny"))
            && v.pointer("/hookSpecificOutput/permissionDecisionReason")
                .and_then(Value::as_str)
                .is_some_and(|r| !r.trim().is_empty())
    })
}
