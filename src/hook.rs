//! Hook mode (no arguments, or `--agent NAME`): one event on stdin, a verdict out. Allow:
//! exit 0, nothing printed. Deny: the reason on stderr, one deny JSON line on stdout in the
//! agent's own form ([`Form`]), both flushed before anything else, then one ledger record
//! written within [`LEDGER_DEADLINE`], then exit 2 whatever the ledger did. Every panic is a
//! deny. A person who runs `heredoc-guard` on a terminal gets a short help instead (no
//! event can come from a terminal, and nothing is recorded).
//!
//! The agent: the one `--agent` names (the hook install writes for Gemini CLI and Copilot
//! CLI says it, since Copilot's Claude-style events look like Claude Code's), else the one
//! the event's shape names. An event whose shape cannot come from the named agent is a
//! hook set up for one client and run by another: it denies (`invalid-event`), in the form
//! of the client whose event it is. `--agent` only chooses how a deny is written: no value
//! of it allows anything the guard would deny.

use std::borrow::Cow;
use std::io::{IsTerminal, Read, Write};
use std::os::fd::AsFd;
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::json;

use heredoc_guard::limits;
use heredoc_guard::verdict::Denial;
use heredoc_guard::{Agent, Context};

use crate::ledger;

/// How long a deny waits for its ledger record before it exits anyway.
const LEDGER_DEADLINE: Duration = Duration::from_secs(1);

/// What a person sees when they run the hook by hand on a terminal.
const TERMINAL_HELP: &str = "\
heredoc-guard is a PreToolUse hook: an agent runs it with one hook event (JSON) on stdin, \
and it exits 0 to allow or 2 to deny. A terminal sends no event, so nothing was checked.

  heredoc-guard install claude     set it up for Claude Code (or: codex, gemini, copilot)
  heredoc-guard doctor             check that every agent here runs it
  heredoc-guard explain 'COMMAND'  show what it sees in a command, and its verdict
  heredoc-guard --help             everything else
";

/// The wall-clock bound on the whole hook process: past it, the kernel ends the process
/// (SIGALRM, default action), whatever it is doing (waiting on stdin included).
pub const BACKSTOP_SECONDS: u32 = 4;
/// The CPU-time bound on the whole hook process: past it, the kernel ends the process
/// (SIGALRM from a CPU-time timer). Five times what the check may take by its own clock
/// ([`limits::MAX_CPU`]) with start-up and the event's decoding: only a loop that the work
/// meter does not see can reach it. A debug build gets as long as its meter's clock.
pub const BACKSTOP_CPU: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(20)
} else {
    Duration::from_millis(200)
};
/// The address space the hook process may use: past it an allocation fails and the
/// process aborts.
pub const BACKSTOP_ADDRESS_SPACE: u64 = 4 << 30;

/// Bounds the hook process from outside the check, for a path the work meter and its clock
/// do not cover (the meter reads the clock only as work is charged): a SIGALRM after
/// [`BACKSTOP_SECONDS`] by the wall clock or [`BACKSTOP_CPU`] of CPU time, and an
/// address-space limit of [`BACKSTOP_ADDRESS_SPACE`]. Each ends the process by a signal,
/// which the installed launcher (and Claude Code's `"onFailure": "block"`) turns into a
/// deny, long before the clients' hook timeout, past which Codex would run the command.
/// One or two system calls each, no thread; a failure to set them leaves the meter's own
/// limits. The CPU timer is given back to be kept alive until the process exits.
fn backstops() -> Option<nix::sys::timer::Timer> {
    use nix::sys::signal::{SigEvent, SigevNotify, Signal};
    use nix::sys::timer::{Expiration, Timer, TimerSetTimeFlags};
    let _ = nix::unistd::alarm::set(BACKSTOP_SECONDS);
    let _ = nix::sys::resource::setrlimit(
        nix::sys::resource::Resource::RLIMIT_AS,
        BACKSTOP_ADDRESS_SPACE,
        BACKSTOP_ADDRESS_SPACE,
    );
    let on_expiry = SigEvent::new(SigevNotify::SigevSignal {
        signal: Signal::SIGALRM,
        si_value: 0,
    });
    let mut timer = Timer::new(nix::time::ClockId::CLOCK_PROCESS_CPUTIME_ID, on_expiry).ok()?;
    timer
        .set(
            Expiration::OneShot(BACKSTOP_CPU.into()),
            TimerSetTimeFlags::empty(),
        )
        .ok()?;
    Some(timer)
}

/// The hook's arguments: none, or `--agent NAME` for a known agent (`Some(named)`);
/// `None` for anything else (the command line's, or a bad invocation it denies).
pub fn hook_args(args: &[std::ffi::OsString]) -> Option<Option<Agent>> {
    match args {
        [] => Some(None),
        [flag, name] if flag == "--agent" => name.to_str().and_then(Agent::from_id).map(Some),
        _ => None,
    }
}

/// How a client reads a deny on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Claude Code and Codex: `{"hookSpecificOutput": {"hookEventName": "PreToolUse",
    /// "permissionDecision": "deny", "permissionDecisionReason": R}}`, exactly those fields
    /// (Codex rejects any other, and then runs the command).
    Claude,
    /// Gemini CLI: `{"decision": "deny", "reason": R}` (JSON on stdout decides whatever
    /// the exit status; Claude's form is an allow there).
    Gemini,
    /// Copilot CLI: `{"permissionDecision": "deny", "permissionDecisionReason": R}` (in
    /// both of its hook forms; with exit 2 alone the model is not told why).
    Copilot,
}

impl Form {
    /// The form `agent` reads (Claude's when the agent is not known).
    pub fn of(agent: Option<Agent>) -> Form {
        match agent {
            Some(Agent::Gemini) => Form::Gemini,
            Some(Agent::Copilot) => Form::Copilot,
            Some(Agent::Claude | Agent::Codex) | None => Form::Claude,
        }
    }
}

/// Runs hook mode for the agent `named` on the command line (if any), and gives the exit
/// status.
pub fn main(named: Option<Agent>) -> ExitCode {
    // First: the hook's time limit counts its CPU time from here.
    heredoc_guard::hook_process();
    if std::io::stdin().is_terminal() {
        let _ = std::io::stderr().write_all(TERMINAL_HELP.as_bytes());
        return ExitCode::from(2);
    }
    let _cpu_timer = backstops();
    // Every panic is caught below and turned into a deny; keep the default hook quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let input = match read_stdin() {
        Ok(input) => input,
        Err(e) => {
            let denial = Denial::invalid_event(
                "unreadable stdin",
                &format!("stdin could not be read ({e})"),
            );
            deny(&denial, b"", &named_context(named), Form::of(named));
            return ExitCode::from(2);
        }
    };
    let checked =
        std::panic::catch_unwind(AssertUnwindSafe(move || heredoc_guard::check_event(input)));
    match checked {
        Ok(mut result) => {
            let shape = result.context.agent;
            if let (Some(named), Some(shape)) = (named, shape)
                && !shape.shape_fits(named)
            {
                let denial = Denial::invalid_event(
                    "agent mismatch",
                    &format!(
                        "the hook was set up for {} (heredoc-guard --agent {}), but the event is {}'s, so a deny in {}'s form could go unread",
                        named.id(),
                        named.id(),
                        shape.id(),
                        named.id()
                    ),
                );
                deny(
                    &denial,
                    result.command(),
                    &result.context,
                    Form::of(Some(shape)),
                );
                return ExitCode::from(2);
            }
            if named.is_some() {
                result.context.agent = named;
            }
            match result.verdict.denial() {
                None => ExitCode::SUCCESS,
                Some(denial) => {
                    let form = Form::of(result.context.agent);
                    deny(denial, result.command(), &result.context, form);
                    ExitCode::from(2)
                }
            }
        }
        Err(_) => {
            let form = Form::of(named);
            deny(&Denial::internal("panic"), b"", &named_context(named), form);
            ExitCode::from(2)
        }
    }
}

/// The context of an event that could not be read: only the agent the hook names.
fn named_context(named: Option<Agent>) -> Context<'static> {
    Context {
        agent: named,
        ..Context::default()
    }
}

/// Reads stdin, at most [`limits::MAX_EVENT_BYTES`] + 1 bytes, into a buffer allocated
/// once: the file's size when stdin is a file, else the limit itself, reserved but not
/// touched (pages are only used as bytes arrive). Only when the system refuses that
/// reservation does the buffer grow as it fills.
fn read_stdin() -> std::io::Result<Vec<u8>> {
    let limit = limits::MAX_EVENT_BYTES + 1;
    let file = std::fs::File::from(std::io::stdin().as_fd().try_clone_to_owned()?);
    let size = match file.metadata() {
        Ok(m) if m.is_file() => usize::try_from(m.len()).unwrap_or(limit).min(limit),
        _ => limit,
    };
    let mut input = Vec::new();
    // One more byte than a file holds, so that reading up to its end never grows the buffer.
    if input.try_reserve_exact(size.saturating_add(1)).is_err() {
        input = Vec::with_capacity(64 * 1024);
    }
    file.take(limit as u64).read_to_end(&mut input)?;
    Ok(input)
}

/// The deny JSON line (without newline) in `form`.
pub fn deny_json(reason: &str, form: Form) -> String {
    match form {
        Form::Claude => json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }),
        Form::Gemini => json!({"decision": "deny", "reason": reason}),
        Form::Copilot => json!({
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }),
    }
    .to_string()
}

/// Prints a deny (reason on stderr, JSON in `form` on stdout, both flushed), then appends
/// it to the ledger within [`LEDGER_DEADLINE`]. A panic anywhere in here is swallowed; the
/// caller exits 2 whatever happens.
pub fn deny(denial: &Denial, command: &[u8], context: &Context<'_>, form: Form) {
    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(stderr, "{}", denial.reason);
        let _ = stderr.flush();
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{}", deny_json(&denial.reason, form));
        let _ = stdout.flush();
        drop(stdout);
        let line = ledger::record(denial, command, context, crate::utc::now_millis());
        if let Err(note) = append_within_deadline(line) {
            let _ = writeln!(
                stderr,
                "heredoc-guard: ledger not written ({note}); the deny stands"
            );
        }
    }));
}

/// Appends `line` to the ledger on a helper thread (started only on the deny path) and
/// waits at most [`LEDGER_DEADLINE`] for it: a ledger on a file system that stops
/// answering cannot keep the process alive, since returning from `main` ends the process
/// and the helper with it. When no thread can be started, it writes here: the open is
/// non-blocking and only a regular file is written.
fn append_within_deadline(line: String) -> Result<(), Cow<'static, str>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let for_thread = line.clone();
    let spawned = std::thread::Builder::new()
        .name("heredoc-guard-ledger".to_owned())
        .stack_size(64 * 1024)
        .spawn(move || {
            let _ = tx.send(ledger::append(&for_thread));
        });
    match spawned {
        Ok(_) => match rx.recv_timeout(LEDGER_DEADLINE) {
            Ok(result) => result.map_err(Cow::Owned),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(Cow::Owned(format!(
                "no answer within {} ms",
                LEDGER_DEADLINE.as_millis()
            ))),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(Cow::Borrowed("the ledger writer failed"))
            }
        },
        Err(_) => ledger::append(&line).map_err(Cow::Owned),
    }
}
