//! The `heredoc-guard` binary: hook mode (no arguments) reads one event on stdin and exits
//! 0 (allow, nothing printed) or 2 (deny, reason on stderr, deny JSON on stdout). The exit
//! code is decided in one place, `main`; every panic becomes a deny.

use std::io::{Read, Write};
use std::process::ExitCode;

use heredoc_guard::check_event;
use heredoc_guard::verdict::{Denial, Rule, Stage};
use heredoc_guard::{config, ledger, limits, output, reason};

const HELP: &str = "heredoc-guard: a PreToolUse hook for Claude Code and Codex that denies a shell
command when an unquoted heredoc body holds a command substitution the shell would run.

Usage:
  heredoc-guard                  hook mode: read one hook event (JSON) on stdin
  heredoc-guard config claude    print Claude Code settings.json hook set-up
  heredoc-guard config codex     print Codex hooks.json / config.toml hook set-up
  heredoc-guard explain [--json] [-c COMMAND]
                                 show what the guard sees in a plain command (stdin or -c)
  heredoc-guard strip [-c COMMAND]
                                 print the command with heredoc bodies that are data removed
  heredoc-guard --help | --version

Exit status: hook mode and explain, 0 allow, 2 deny (hook mode prints nothing on allow;
on deny, the reason on stderr and the deny JSON on stdout); strip, 0 when stripped, 2 when
the command cannot be read exactly (nothing on stdout: scan the whole command). Any other
status is a fault; the launcher printed by `config` turns it into a deny.

Each deny appends one JSON line to ~/.claude/logs/heredoc-guard-ledger.jsonl; set
HEREDOC_GUARD_LEDGER to move it. Nothing turns the guard off.
";

enum Outcome {
    Allow,
    Deny(Denial, Option<String>),
    /// A subcommand printed its output; exit with this code.
    Exit(u8),
    UsageError(String),
}

fn main() -> ExitCode {
    // Every panic is caught below and turned into a deny; keep the default hook quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(run)
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
        ["explain", rest @ ..] => explain(rest),
        ["strip", rest @ ..] => strip(rest),
        [first, ..] => Outcome::UsageError(format!("unknown argument `{first}`")),
    }
}

/// The command for `explain`/`strip`: `-c COMMAND`, or stdin. Other flags are returned.
fn command_input<'a>(args: &[&'a str]) -> Result<(String, Vec<&'a str>), String> {
    let mut flags = Vec::new();
    let mut command = None;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "-c" {
            let value = args.get(i + 1).ok_or("-c needs a command")?;
            command = Some((*value).to_owned());
            i += 2;
        } else {
            flags.push(args[i]);
            i += 1;
        }
    }
    match command {
        Some(c) => Ok((c, flags)),
        None => {
            let mut bytes = Vec::new();
            let limit = limits::MAX_EVENT_BYTES as u64 + 1;
            std::io::stdin()
                .lock()
                .take(limit)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read stdin ({e})"))?;
            let text =
                String::from_utf8(bytes).map_err(|_| "stdin is not UTF-8 text".to_owned())?;
            Ok((text, flags))
        }
    }
}

fn explain(args: &[&str]) -> Outcome {
    let (command, flags) = match command_input(args) {
        Ok(x) => x,
        Err(e) => return Outcome::UsageError(format!("explain: {e}")),
    };
    let json = match flags.as_slice() {
        [] => false,
        ["--json"] => true,
        [other, ..] => return Outcome::UsageError(format!("explain: unknown argument `{other}`")),
    };
    let explanation = heredoc_guard::explain::explain(&command);
    let text = if json {
        format!("{}\n", explanation.json())
    } else {
        use std::io::IsTerminal;
        let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        explanation.text(color)
    };
    match print(&text) {
        Outcome::Exit(0) => Outcome::Exit(if explanation.denial.is_some() { 2 } else { 0 }),
        other => other,
    }
}

fn strip(args: &[&str]) -> Outcome {
    let (command, flags) = match command_input(args) {
        Ok(x) => x,
        Err(e) => return Outcome::UsageError(format!("strip: {e}")),
    };
    if let [other, ..] = flags.as_slice() {
        return Outcome::UsageError(format!("strip: unknown argument `{other}`"));
    }
    match heredoc_guard::strip::strip(&command) {
        Ok(stripped) => print(&stripped),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "heredoc-guard strip: {e}");
            Outcome::Exit(2)
        }
    }
}

fn print(text: &str) -> Outcome {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Outcome::Exit(0),
        Err(e) => Outcome::UsageError(format!("cannot write to stdout ({e})")),
    }
}

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
    let result = check_event(&input);
    match result.verdict.into_denial() {
        None => Outcome::Allow,
        Some(denial) => Outcome::Deny(denial, result.command),
    }
}
