//! The command line for everything but hook mode, declared with clap: subcommands, flags,
//! help and errors. A parse error denies (exit 2 with the deny JSON): a hook set up with a
//! wrong argument must not let commands through. Operations that fail exit 1.

use std::io::{Read, Write};

use clap::{Parser, Subcommand, ValueEnum};

use crate::{Outcome, checks};
use heredoc_guard::{client, config, doctor, install, limits, log};

const AFTER_HELP: &str = "\
Hook mode (no arguments): read one PreToolUse event (JSON) on stdin; exit 0 and print \
nothing to allow; exit 2 to deny, with the reason on stderr and one deny JSON line on \
stdout. Any other status is a fault; the installed hook turns it into a deny.

Exit status of the subcommands: explain 0 allow, 2 deny; strip 0 stripped, 2 cannot be \
read exactly; doctor 0 guarded, 1 problems found; install, uninstall, log and config 0 \
done, 1 failed. A bad argument denies (exit 2, deny JSON).

Set-up: heredoc-guard install claude; heredoc-guard install codex; heredoc-guard doctor.

Each deny appends one JSON line to ~/.claude/logs/heredoc-guard-ledger.jsonl; set \
HEREDOC_GUARD_LEDGER to move it. Nothing turns the guard off.";

/// heredoc-guard: a PreToolUse hook for Claude Code and Codex that denies a shell command
/// when an unquoted heredoc body holds a command substitution the shell would run.
#[derive(Parser)]
#[command(name = "heredoc-guard", version, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Add the hook to an agent's settings (idempotent; keeps a backup)
    Install {
        #[command(subcommand)]
        agent: InstallAgent,
    },
    /// Remove exactly what install added
    Uninstall {
        #[command(subcommand)]
        agent: UninstallAgent,
    },
    /// Check that every agent found here runs the hook, fail-closed, and that it works
    Doctor {
        /// Print the findings as JSON
        #[arg(long)]
        json: bool,
    },
    /// Show the last denials from the ledger (time, rule, cause) and counts by rule
    Log {
        /// Print as JSON
        #[arg(long)]
        json: bool,
        /// How many denials to show
        #[arg(short = 'n', default_value_t = 20, value_name = "N")]
        n: usize,
    },
    /// Print the hook settings to paste by hand (install does this for you)
    Config {
        #[arg(value_enum)]
        agent: Agent,
    },
    /// Show what the guard sees in a plain command (stdin or -c); exit 0 allow, 2 deny
    Explain {
        /// Print the same facts as JSON
        #[arg(long)]
        json: bool,
        /// The command (else read from stdin)
        #[arg(short = 'c', value_name = "COMMAND")]
        command: Option<String>,
    },
    /// Print the command with heredoc bodies that are data removed
    Strip {
        /// The command (else read from stdin)
        #[arg(short = 'c', value_name = "COMMAND")]
        command: Option<String>,
    },
}

#[derive(Subcommand)]
enum InstallAgent {
    /// Claude Code: ~/.claude/settings.json (or ./.claude/settings.json with --project)
    Claude {
        /// Write ./.claude/settings.json instead of the user's settings
        #[arg(long)]
        project: bool,
    },
    /// Codex: $CODEX_HOME/hooks.json (default ~/.codex), then trust it via codex app-server
    Codex {
        /// Do not trust the hook; review it in Codex yourself (it does not run until then)
        #[arg(long)]
        no_trust: bool,
    },
}

#[derive(Subcommand)]
enum UninstallAgent {
    /// Claude Code: ~/.claude/settings.json (or ./.claude/settings.json with --project)
    Claude {
        /// Edit ./.claude/settings.json instead of the user's settings
        #[arg(long)]
        project: bool,
    },
    /// Codex: $CODEX_HOME/hooks.json, and the hook's trust entry in config.toml
    Codex,
}

#[derive(Clone, Copy, ValueEnum)]
enum Agent {
    Claude,
    Codex,
}

/// Parses the arguments and runs the subcommand.
pub fn run() -> Outcome {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => print(&e.to_string()),
                _ => Outcome::UsageError(first_line(&e.to_string())),
            };
        }
    };
    match cli.command {
        Cmd::Install { agent } => operation(|out| match agent {
            InstallAgent::Claude { project } => install::claude(project, out),
            InstallAgent::Codex { no_trust } => install::codex(!no_trust, out),
        }),
        Cmd::Uninstall { agent } => operation(|out| match agent {
            UninstallAgent::Claude { project } => install::uninstall::claude(project, out),
            UninstallAgent::Codex => install::uninstall::codex(out),
        }),
        Cmd::Doctor { json } => {
            let report = doctor::run();
            let mut out = Vec::new();
            let _ = if json {
                writeln!(out, "{}", report.to_json())
            } else {
                report.print_text(&mut out)
            };
            match print(&String::from_utf8_lossy(&out)) {
                Outcome::Exit(0) => Outcome::Exit(if report.problems().is_empty() { 0 } else { 1 }),
                other => other,
            }
        }
        Cmd::Log { json, n } => match log::read(n) {
            Ok(summary) => {
                let mut out = Vec::new();
                let _ = log::print(&summary, json, &mut out);
                print(&String::from_utf8_lossy(&out))
            }
            Err(e) => fail(&format!("heredoc-guard log: {e}")),
        },
        Cmd::Config { agent } => match client::own_binary() {
            Ok(binary) => match agent {
                Agent::Claude => print(&format!("{}\n", config::claude(&binary))),
                Agent::Codex => print(&config::codex(&binary)),
            },
            Err(e) => Outcome::UsageError(e),
        },
        Cmd::Explain { json, command } => explain(json, command),
        Cmd::Strip { command } => strip(command),
    }
}

fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or("bad arguments");
    line.strip_prefix("error: ").unwrap_or(line).to_owned()
}

/// Runs an install or uninstall: its lines on stdout, a failure on stderr with exit 1.
fn operation(f: impl FnOnce(&mut dyn Write) -> Result<(), String>) -> Outcome {
    let mut stdout = std::io::stdout().lock();
    let result = f(&mut stdout);
    let _ = stdout.flush();
    drop(stdout);
    match result {
        Ok(()) => Outcome::Exit(0),
        Err(e) => fail(&format!("Error: {e}")),
    }
}

fn fail(message: &str) -> Outcome {
    let _ = writeln!(std::io::stderr(), "{message}");
    Outcome::Exit(1)
}

/// The command for `explain`/`strip`: `-c COMMAND`, or stdin.
fn command_input(command: Option<String>) -> Result<String, String> {
    if let Some(c) = command {
        return Ok(c);
    }
    let mut bytes = Vec::new();
    let limit = limits::MAX_EVENT_BYTES as u64 + 1;
    std::io::stdin()
        .lock()
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin ({e})"))?;
    String::from_utf8(bytes).map_err(|_| "stdin is not UTF-8 text".to_owned())
}

fn explain(json: bool, command: Option<String>) -> Outcome {
    let command = match command_input(command) {
        Ok(c) => c,
        Err(e) => return Outcome::UsageError(format!("explain: {e}")),
    };
    let explanation = checks::explain(&command);
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

fn strip(command: Option<String>) -> Outcome {
    let command = match command_input(command) {
        Ok(c) => c,
        Err(e) => return Outcome::UsageError(format!("strip: {e}")),
    };
    match checks::strip(&command) {
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
