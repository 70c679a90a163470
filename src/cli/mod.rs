//! The command line for everything but hook mode, declared with clap: subcommands, flags,
//! help and errors. Everything here is for a person or a script, so a mistake is a usage
//! error: clap's whole message on stderr, exit 2, no deny JSON and no ledger record. The
//! one exception is a first argument that is no subcommand: that is what a hook set up
//! with arguments looks like, so unless stdin is a terminal it denies (the deny JSON, a
//! `bad-invocation` ledger record, exit 2). Operations that fail exit 1.

pub mod client;
pub mod config;
pub mod doctor;
mod help;
pub mod install;
pub mod log;

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use heredoc_guard::Context;
use heredoc_guard::verdict::{Denial, Rule, Stage};
use heredoc_guard::{explain, limits, strip};

const AFTER_HELP: &str = "\
Examples:
  heredoc-guard install claude          guard Claude Code (~/.claude/settings.json)
  heredoc-guard install claude --project
                                        only in this project, only for you
  heredoc-guard install codex           guard Codex, and trust the hook
  heredoc-guard install gemini          guard Gemini CLI (~/.gemini/settings.json)
  heredoc-guard install copilot         guard Copilot CLI (~/.copilot/hooks/)
  sudo heredoc-guard install claude --managed
                                        for every user here; no user setting undoes it
  heredoc-guard doctor                  check that every agent here runs it
  heredoc-guard explain 'cat <<EOF
  $(date)
  EOF'                                  what the guard sees, and its verdict
  heredoc-guard log --since 1d          the denials of the last day, and where

Hook mode (no arguments, or --agent claude|codex|gemini|copilot: the agent whose hook \
runs it): read one pre-tool event (JSON) on stdin; exit 0 and print nothing to allow; \
exit 2 to deny, with the reason on stderr and one deny JSON line on stdout in that \
agent's form. Any other status is a fault; the installed hook turns it into a deny.

Exit status: explain 0 allow, 2 deny; strip 0 stripped, 2 cannot be read exactly; doctor \
0 guarded, 1 problems found; install, uninstall, log and config 0 done, 1 failed; 2 for a \
usage error.

Each deny appends one JSON line to $XDG_STATE_HOME/heredoc-guard/ledger.jsonl (default \
~/.local/state/heredoc-guard/ledger.jsonl); HEREDOC_GUARD_LEDGER moves it. Nothing turns \
the guard off.";

/// `--version`: the crate's version and the commit it was built from (build.rs; `unknown`
/// when built outside a git checkout and not from a packaged crate).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("HEREDOC_GUARD_COMMIT"),
    ")"
);

/// heredoc-guard: a PreToolUse hook for Claude Code, Codex, Gemini CLI and Copilot CLI that
/// denies a shell command when an unquoted heredoc body holds a command substitution the
/// shell would run.
#[derive(Parser)]
#[command(name = "heredoc-guard", version = VERSION, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Add the hook to an agent's settings (idempotent; keeps a backup)
    #[command(
        subcommand_value_name = "AGENT",
        subcommand_help_heading = "Agents",
        disable_help_subcommand = true,
        after_help = "Examples:\n  heredoc-guard install claude\n  heredoc-guard install claude --project\n  heredoc-guard install claude --project --shared\n  heredoc-guard install codex\n  heredoc-guard install gemini\n  heredoc-guard install copilot\n  sudo heredoc-guard install claude --managed --managed-only\n  sudo heredoc-guard install codex --managed\n  sudo heredoc-guard install gemini --managed"
    )]
    Install {
        #[command(subcommand)]
        agent: InstallAgent,
    },
    /// Remove exactly what install added
    #[command(
        subcommand_value_name = "AGENT",
        subcommand_help_heading = "Agents",
        disable_help_subcommand = true,
        after_help = "Examples:\n  heredoc-guard uninstall claude\n  heredoc-guard uninstall codex --remove-backups"
    )]
    Uninstall {
        #[command(subcommand)]
        agent: UninstallAgent,
    },
    /// Check that the agents here run the hook, fail-closed, and that it works
    #[command(
        after_help = "Exit status: 0 when every agent set up here is guarded, 1 otherwise. An agent on PATH but not set up here is a note, unless it is named.\n\nExamples:\n  heredoc-guard doctor\n  heredoc-guard doctor claude\n  heredoc-guard doctor --json"
    )]
    Doctor {
        /// Check only this agent (and fail when it is not set up here)
        #[arg(value_enum, value_name = "AGENT")]
        agent: Option<Agent>,
        /// Print the findings as JSON (each check with a stable id; schema_version 1)
        #[arg(long)]
        json: bool,
    },
    /// Show the last denials from the ledger (time, rule, cause, where) and counts by rule
    #[command(
        after_help = "Examples:\n  heredoc-guard log\n  heredoc-guard log --agent codex --since 2h\n  heredoc-guard log --dir . -n 50\n  heredoc-guard log --since 2026-12-01 --until 2026-12-02 --json"
    )]
    Log {
        /// Print as JSON
        #[arg(long)]
        json: bool,
        /// How many denials to show
        #[arg(short = 'n', default_value_t = 20, value_name = "N")]
        n: usize,
        /// Only denials from this agent
        #[arg(long, value_enum, value_name = "AGENT")]
        agent: Option<Agent>,
        /// Only denials whose working directory is DIR or under it
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// Only denials since TIME: a duration back (30m, 2h, 7d, 1w) or a date (2026-12-01)
        #[arg(long, value_name = "TIME")]
        since: Option<String>,
        /// Only denials before TIME (same forms as --since)
        #[arg(long, value_name = "TIME")]
        until: Option<String>,
    },
    /// Print the hook settings to paste by hand (install does this for you)
    Config {
        #[arg(value_enum, value_name = "AGENT")]
        agent: Agent,
    },
    /// Show what the guard sees in a command; exit 0 allow, 2 deny
    #[command(
        after_help = "The command comes from the argument, -c, or else stdin.\n\nExamples:\n  heredoc-guard explain 'cat <<EOF\n  $(date)\n  EOF'\n  heredoc-guard explain --json < command.sh"
    )]
    Explain {
        /// Print the same facts as JSON
        #[arg(long)]
        json: bool,
        /// The command (else read from stdin)
        #[arg(value_name = "COMMAND", conflicts_with = "c")]
        command: Option<String>,
        /// The command, as an option
        #[arg(short = 'c', value_name = "COMMAND")]
        c: Option<String>,
    },
    /// Print the command with heredoc bodies that are data removed
    #[command(
        after_help = "The command comes from the argument, -c, or else stdin. Exit 2 (and nothing on stdout) when the command cannot be read exactly: then scan all of it.\n\nExamples:\n  heredoc-guard strip \"$cmd\" | my-phrase-scanner\n  heredoc-guard strip < command.sh"
    )]
    Strip {
        /// The command (else read from stdin)
        #[arg(value_name = "COMMAND", conflicts_with = "c")]
        command: Option<String>,
        /// The command, as an option
        #[arg(short = 'c', value_name = "COMMAND")]
        c: Option<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    #[command(
        after_help = "Examples:\n  heredoc-guard completions bash > ~/.local/share/bash-completion/completions/heredoc-guard\n  heredoc-guard completions zsh > ~/.zfunc/_heredoc-guard\n  heredoc-guard completions fish > ~/.config/fish/completions/heredoc-guard.fish"
    )]
    Completions {
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), for packagers: heredoc-guard man > heredoc-guard.1
    #[command(hide = true)]
    Man,
}

#[derive(Subcommand)]
enum InstallAgent {
    /// Claude Code: ~/.claude/settings.json (--project: ./.claude/settings.local.json)
    Claude {
        /// Only in this project, only for you: ./.claude/settings.local.json
        #[arg(long)]
        project: bool,
        /// The project's shared ./.claude/settings.json (committed: the whole team runs
        /// heredoc-guard from PATH); implies --project
        #[arg(long)]
        shared: bool,
        /// System-wide, for every user, and no user can remove it (root):
        /// /etc/claude-code/managed-settings.d/heredoc-guard.json
        #[arg(long, conflicts_with_all = ["project", "shared"])]
        managed: bool,
        /// With --managed: also allowManagedHooksOnly (user, project and plugin hooks are ignored)
        #[arg(long, requires = "managed")]
        managed_only: bool,
    },
    /// Codex: $CODEX_HOME/hooks.json (default ~/.codex), then trust it via codex app-server
    Codex {
        /// Do not trust the hook; review it in Codex yourself (it does not run until then)
        #[arg(long)]
        no_trust: bool,
        /// System-wide, for every user, and no user can remove it (root): the hook in
        /// /etc/codex/requirements.toml (managed hooks need no trust)
        #[arg(long, conflicts_with = "no_trust")]
        managed: bool,
        /// With --managed: also allow_managed_hooks_only (user, project and session hooks are ignored)
        #[arg(long, requires = "managed")]
        managed_only: bool,
    },
    /// Gemini CLI: $GEMINI_CLI_HOME/.gemini/settings.json (default ~/.gemini)
    Gemini {
        /// System-wide, above every user and project setting (root):
        /// /etc/gemini-cli/settings.json (GEMINI_CLI_SYSTEM_SETTINGS_PATH moves it)
        #[arg(long)]
        managed: bool,
    },
    /// Copilot CLI: $COPILOT_HOME/hooks/heredoc-guard.json (default ~/.copilot)
    Copilot,
}

#[derive(Subcommand)]
enum UninstallAgent {
    /// Claude Code: ~/.claude/settings.json (--project: ./.claude/settings.local.json)
    Claude {
        /// This project's ./.claude/settings.local.json
        #[arg(long)]
        project: bool,
        /// The project's shared ./.claude/settings.json; implies --project
        #[arg(long)]
        shared: bool,
        /// Also remove the backups heredoc-guard made of the file
        #[arg(long)]
        remove_backups: bool,
        /// The system-wide drop-in install --managed wrote (root)
        #[arg(long, conflicts_with_all = ["project", "shared", "remove_backups"])]
        managed: bool,
    },
    /// Codex: $CODEX_HOME/hooks.json, and the hook's trust entry in config.toml
    Codex {
        /// Also remove the backups heredoc-guard made of the file
        #[arg(long)]
        remove_backups: bool,
        /// The hook install --managed put in /etc/codex/requirements.toml (root)
        #[arg(long, conflicts_with = "remove_backups")]
        managed: bool,
    },
    /// Gemini CLI: $GEMINI_CLI_HOME/.gemini/settings.json
    Gemini {
        /// Also remove the backups heredoc-guard made of the file
        #[arg(long)]
        remove_backups: bool,
        /// The hook install --managed put in the system settings (root)
        #[arg(long, conflicts_with = "remove_backups")]
        managed: bool,
    },
    /// Copilot CLI: $COPILOT_HOME/hooks/heredoc-guard.json
    Copilot {
        /// Also remove the backups heredoc-guard made of the file
        #[arg(long)]
        remove_backups: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Agent {
    Claude,
    Codex,
    Gemini,
    Copilot,
}

impl Agent {
    fn id(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
        }
    }
}

/// The command line as `--help`, completions and the man page show it.
fn command() -> clap::Command {
    help::command(Cli::command())
}

/// Parses the arguments and runs the subcommand.
pub fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match command()
        .try_get_matches_from(&args)
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => return parse_error(&e, &args),
    };
    let code = match cli.command {
        Cmd::Install { agent } => operation(|out| match agent {
            InstallAgent::Claude {
                managed: true,
                managed_only,
                ..
            } => install::managed_claude(managed_only, out),
            InstallAgent::Claude {
                project, shared, ..
            } => install::claude(client::claude::Scope::of_flags(project, shared), out),
            InstallAgent::Codex {
                managed: true,
                managed_only,
                ..
            } => install::managed_codex(managed_only, out),
            InstallAgent::Codex { no_trust, .. } => install::codex(!no_trust, out),
            InstallAgent::Gemini { managed: true } => install::gemini::install_managed(out),
            InstallAgent::Gemini { managed: false } => install::gemini::install(out),
            InstallAgent::Copilot => install::copilot::install(out),
        }),
        Cmd::Uninstall { agent } => operation(|out| match agent {
            UninstallAgent::Claude { managed: true, .. } => install::managed::uninstall_claude(out),
            UninstallAgent::Claude {
                project,
                shared,
                remove_backups,
                ..
            } => install::uninstall::claude(
                client::claude::Scope::of_flags(project, shared),
                remove_backups,
                out,
            ),
            UninstallAgent::Codex { managed: true, .. } => install::managed::uninstall_codex(out),
            UninstallAgent::Codex { remove_backups, .. } => {
                install::uninstall::codex(remove_backups, out)
            }
            UninstallAgent::Gemini { managed: true, .. } => install::gemini::uninstall_managed(out),
            UninstallAgent::Gemini { remove_backups, .. } => {
                install::gemini::uninstall(remove_backups, out)
            }
            UninstallAgent::Copilot { remove_backups } => {
                install::copilot::uninstall(remove_backups, out)
            }
        }),
        Cmd::Doctor { agent, json } => doctor(agent, json),
        Cmd::Log {
            json,
            n,
            agent,
            dir,
            since,
            until,
        } => log(json, n, agent, dir, since, until),
        Cmd::Config { agent } => match client::own_binary() {
            Ok(binary) => match agent {
                Agent::Claude => print(&format!("{}\n", config::claude(&binary))),
                Agent::Codex => print(&config::codex(&binary)),
                Agent::Gemini => print(&format!("{}\n", config::gemini(&binary))),
                Agent::Copilot => print(&config::copilot(&binary)),
            },
            Err(e) => fail(&format!("heredoc-guard config: {e}")),
        },
        Cmd::Explain { json, command, c } => explain(json, command.or(c)),
        Cmd::Strip { command, c } => strip(command.or(c)),
        Cmd::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut command(), "heredoc-guard", &mut out);
            print(&String::from_utf8_lossy(&out))
        }
        Cmd::Man => {
            let mut out = Vec::new();
            match clap_mangen::Man::new(command()).render(&mut out) {
                Ok(()) => print(&String::from_utf8_lossy(&out)),
                Err(e) => fail(&format!("heredoc-guard man: {e}")),
            }
        }
    };
    ExitCode::from(code)
}

/// A parse error: help and version are printed as asked; a mistake in a known subcommand
/// is a usage error; an unknown first argument denies when a hook could have sent it.
fn parse_error(e: &clap::Error, args: &[OsString]) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let first = args.get(1).map(|a| a.to_string_lossy().into_owned());
    let known = first.as_deref().is_some_and(|f| {
        f == "help" || Cli::command().get_subcommands().any(|s| s.get_name() == f)
    });
    if known || std::io::stdin().is_terminal() {
        let _ = e.print();
        return ExitCode::from(2);
    }
    let first = first.unwrap_or_default();
    let denial = Denial::failure(
        Rule::BadInvocation,
        Stage::Invocation,
        "unknown first argument",
        format!(
            "heredoc-guard: unknown first argument {first:?}, so the guard did not run and denies. As a hook it takes no arguments, or only --agent claude|codex|gemini|copilot: check the hook's command (heredoc-guard doctor); for the commands, see heredoc-guard --help."
        ),
    );
    crate::hook::deny(&denial, b"", &Context::default(), crate::hook::Form::Claude);
    let _ = write!(std::io::stderr(), "{}", e.render());
    ExitCode::from(2)
}

fn doctor(agent: Option<Agent>, json: bool) -> u8 {
    let only = match agent {
        None => doctor::Only::All,
        Some(Agent::Claude) => doctor::Only::Claude,
        Some(Agent::Codex) => doctor::Only::Codex,
        Some(Agent::Gemini) => doctor::Only::Gemini,
        Some(Agent::Copilot) => doctor::Only::Copilot,
    };
    let report = doctor::run(only);
    let mut out = Vec::new();
    let _ = if json {
        writeln!(out, "{}", report.to_json())
    } else {
        report.print_text(&mut out)
    };
    match print(&String::from_utf8_lossy(&out)) {
        0 if report.problems().is_empty() => 0,
        0 => 1,
        other => other,
    }
}

fn log(
    json: bool,
    n: usize,
    agent: Option<Agent>,
    dir: Option<std::path::PathBuf>,
    since: Option<String>,
    until: Option<String>,
) -> u8 {
    let now = crate::utc::now_millis();
    let when = |t: Option<String>| t.map(|t| log::parse_when(&t, now)).transpose();
    let filter = (|| {
        Ok::<_, String>(log::Filter {
            agent: agent.map(|a| a.id().to_owned()),
            dir: dir
                .map(|d| std::path::absolute(&d).map_err(|e| format!("--dir {}: {e}", d.display())))
                .transpose()?,
            since: when(since)?,
            until: when(until)?,
        })
    })();
    let filter = match filter {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "heredoc-guard log: {e}");
            return 2;
        }
    };
    match log::read(n, &filter) {
        Ok(summary) => {
            let mut out = Vec::new();
            let _ = log::print(&summary, json, &mut out);
            print(&String::from_utf8_lossy(&out))
        }
        Err(e) => fail(&format!("heredoc-guard log: {e}")),
    }
}

/// Runs an install or uninstall: its lines on stdout, a failure on stderr with exit 1.
fn operation(f: impl FnOnce(&mut dyn Write) -> Result<(), String>) -> u8 {
    let mut stdout = std::io::stdout().lock();
    let result = f(&mut stdout);
    let _ = stdout.flush();
    drop(stdout);
    match result {
        Ok(()) => 0,
        Err(e) => fail(&format!("Error: {e}")),
    }
}

fn fail(message: &str) -> u8 {
    let _ = writeln!(std::io::stderr(), "{message}");
    1
}

/// The command for `explain`/`strip`: the argument, or stdin.
fn command_input(command: Option<String>) -> Result<String, String> {
    if let Some(c) = command {
        return Ok(c);
    }
    if std::io::stdin().is_terminal() {
        return Err(
            "no command: give it as an argument (in single quotes), or on stdin".to_owned(),
        );
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

/// Colour only on a terminal, and never when `NO_COLOR` is set to anything but empty
/// (<https://no-color.org>).
fn color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn explain(json: bool, command: Option<String>) -> u8 {
    let command = match command_input(command) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "heredoc-guard explain: {e}");
            return 2;
        }
    };
    let explanation = explain::explain(&command);
    let text = if json {
        format!("{}\n", explanation.json())
    } else {
        explanation.text(color())
    };
    match print(&text) {
        0 if explanation.denial.is_some() => 2,
        other => other,
    }
}

fn strip(command: Option<String>) -> u8 {
    let command = match command_input(command) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "heredoc-guard strip: {e}");
            return 2;
        }
    };
    match strip::strip(&command) {
        Ok(stripped) => print(&stripped),
        Err(e) => {
            let text = e.to_string();
            // The deny's reason names the guard already: say it once.
            let text = text
                .strip_prefix("heredoc-guard: ")
                .or_else(|| text.strip_prefix("heredoc-guard "))
                .unwrap_or(&text);
            let _ = writeln!(std::io::stderr(), "heredoc-guard strip: {text}");
            2
        }
    }
}

/// Prints `text` on stdout: 0, or 1 when stdout cannot take it.
fn print(text: &str) -> u8 {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => 0,
        Err(e) => {
            drop(stdout);
            fail(&format!("heredoc-guard: cannot write to stdout ({e})"))
        }
    }
}
