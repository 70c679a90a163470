//! The live probe: the configured hook command run exactly as the client runs it (`sh -c`
//! for a shell-form command in Claude Code, the binary itself for the exec form, `$SHELL
//! -lc` in Codex, `bash -c` in Gemini CLI and Copilot CLI) on events that must be denied
//! and one that must be allowed, with the exit codes and output checked as that client
//! reads them ([`Answer`]). The probe's denies go to no ledger: `HEREDOC_GUARD_LEDGER`
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
    /// `bash -c "<command>"` (Gemini CLI, Copilot CLI); `.0` names the client.
    BashC(&'static str, String),
}

/// How the client reads the hook's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Claude Code and Codex: exit 2 with the reason on stderr and the deny JSON last on
    /// stdout; an allow is exit 0 with nothing on stdout.
    ExitStatus,
    /// Gemini CLI and Copilot CLI: the deny JSON in the client's form on stdout decides; an
    /// allow is nothing on stdout (the launcher exits 0 for both).
    Json(crate::hook::Form),
}

impl Launch {
    /// How it is run, for messages.
    pub fn describe(&self) -> String {
        match self {
            Launch::ShC(_) => "through `sh -c`, as Claude Code runs it".to_owned(),
            Launch::Exec(..) => "directly (exec form), as Claude Code runs it".to_owned(),
            Launch::LoginShell(_) => format!("through `{} -lc`, as Codex runs it", login_shell()),
            Launch::BashC(client, _) => format!("through `bash -c`, as {client} runs it"),
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
            Launch::BashC(_, line) => {
                let mut c = Command::new("bash");
                c.arg("-c").arg(line);
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

/// A Gemini CLI BeforeTool event for `run_shell_command` (0.61.0's fields).
pub fn gemini_event(command: &str) -> Vec<u8> {
    let cwd = std::env::current_dir()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "/".to_owned());
    json!({"session_id": "doctor", "transcript_path": "", "cwd": cwd,
        "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00.000Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command, "description": "doctor probe"}})
    .to_string()
    .into_bytes()
}

/// A Copilot CLI preToolUse event for `tool` in its own form (1.0.102's fields).
pub fn copilot_event(tool: &str, command: &str) -> Vec<u8> {
    let cwd = std::env::current_dir()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "/".to_owned());
    json!({"sessionId": "doctor", "timestamp": 1_767_225_600_000_u64, "cwd": cwd,
        "toolName": tool, "toolArgs": {"command": command, "description": "doctor probe"}})
    .to_string()
    .into_bytes()
}

/// One probe's expectation.
pub struct Case {
    pub name: &'static str,
    pub event: Vec<u8>,
    pub deny: bool,
}

/// Runs every case, read as Claude Code and Codex read an answer; returns the problems
/// (empty when all held).
pub fn run(launch: &Launch, cases: &[Case]) -> Vec<String> {
    run_reading(launch, cases, Answer::ExitStatus)
}

/// Runs every case, read as `answer` says; returns the problems (empty when all held).
pub fn run_reading(launch: &Launch, cases: &[Case], answer: Answer) -> Vec<String> {
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
        let problem = if let Answer::Json(form) = answer {
            json_problem(case.deny, form, &done, stdout)
        } else if case.deny {
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

/// What is wrong with a Gemini or Copilot answer, if anything.
fn json_problem(
    deny: bool,
    form: crate::hook::Form,
    done: &process::Finished,
    stdout: &str,
) -> Option<String> {
    use crate::hook::Form;
    let (key, reason) = match form {
        Form::Gemini => ("/decision", "/reason"),
        Form::Copilot | Form::Claude => ("/permissionDecision", "/permissionDecisionReason"),
    };
    if deny {
        let read = serde_json::from_str::<Value>(stdout).ok();
        let denied = read.as_ref().is_some_and(|v| {
            v.pointer(key) == Some(&json!("deny"))
                && v.pointer(reason)
                    .and_then(Value::as_str)
                    .is_some_and(|r| !r.trim().is_empty())
        });
        (!denied).then(|| {
            format!(
                "expected the deny JSON on stdout, got {} with stdout {stdout:?} (the client then runs the command)",
                done.status_text()
            )
        })
    } else if done.code != Some(0) || !stdout.is_empty() {
        Some(format!(
            "expected an allow (exit 0, nothing on stdout), got {} with stdout {stdout:?}",
            done.status_text()
        ))
    } else {
        None
    }
}

fn is_deny_json(line: &str) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|v| {
        v.pointer("/hookSpecificOutput/permissionDecision") == Some(&json!("deny"))
            && v.pointer("/hookSpecificOutput/permissionDecisionReason")
                .and_then(Value::as_str)
                .is_some_and(|r| !r.trim().is_empty())
    })
}
