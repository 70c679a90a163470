//! The one path from a command to a report and a verdict, shared by the hook, `explain`
//! and `strip`: the fast path (nothing to read), the size limit, then the command read as
//! every shell reads it, then the rules.
//!
//! This is the only module that can create a [`Checked`] token, so the only place an
//! allow can come from.

use std::borrow::Cow;

use crate::limits::{self, Limit};
use crate::reason;
use crate::report::Report;
use crate::rules;
use crate::shell::{self, Dialect, Reading, Shell};
use crate::verdict::{Denial, Verdict};

/// Proof that the checked path found nothing to deny. Only this module can make one.
pub struct Checked(());

/// Stack for the reading thread: the reader recurses once per nesting level, up to
/// [`shell::MAX_NESTING`], in debug builds too.
const READ_STACK_BYTES: usize = 256 * 1024 * 1024;

/// Checks a shell command: the whole guard for one Bash command.
pub fn check_command(command: &str) -> Verdict {
    if let Some(denial) = crate::tamper::check(command) {
        return Verdict::deny(denial);
    }
    match inspect(command) {
        Ok(report) => verdict_for(&report),
        Err(denial) => Verdict::deny(denial),
    }
}

/// Turns a report into a verdict: the first finding denies. Crate-private: a report built
/// outside the checked path must not become an allow.
pub(crate) fn verdict_for(report: &Report) -> Verdict {
    match report.findings.first() {
        None => Verdict::allow(Checked(())),
        Some(f) => Verdict::deny(Denial::new(
            reason::rule_of(&f.kind),
            reason::reason(report, f),
        )),
    }
}

/// Reads `command` and applies the rules; a command that cannot be read is a denial.
pub fn inspect(command: &str) -> Result<Report, Denial> {
    let bytes = command.as_bytes();
    if !shell::needs_reading(bytes) {
        return Ok(Report::default());
    }
    if bytes.len() > limits::MAX_COMMAND_BYTES {
        return Err(reason::limit_denial(Limit::CommandSize));
    }
    if let Some(at) = bytes.iter().position(|&b| matches!(b, 0 | 1 | 0x7f)) {
        return Err(reason::parse_denial(
            "a NUL, \\x01 or \\x7f byte, which bash treats specially",
            "control byte",
            shell::pos(bytes, at as u32),
        ));
    }
    let readings = read_all(command)?;
    let (intended, shells) = readings;
    if let Some(e) = intended.error {
        return Err(if e.limit {
            reason::limit_denial(Limit::of_reader_cause(e.cause))
        } else {
            reason::parse_denial(e.cause, "syntax error", shell::pos(bytes, e.at))
        });
    }
    if let Some(h) = intended
        .heredocs
        .iter()
        .find(|h| h.closer.is_none() && !h.ansi_c)
    {
        return Err(reason::parse_denial(
            "a heredoc has no closing line (a line holding only its delimiter)",
            "heredoc without closing line",
            shell::pos(bytes, h.op),
        ));
    }
    if let Some(e) = shells.iter().find_map(|(_, r)| r.error.filter(|e| e.limit)) {
        return Err(reason::limit_denial(Limit::of_reader_cause(e.cause)));
    }
    Ok(rules::report(command, &intended, &shells))
}

type Readings = (Reading, Vec<(Dialect, Reading)>);

/// Reads the command as intended and as every shell, on a thread with a stack that holds
/// the deepest nesting the reader follows; the thread is joined before this returns.
fn read_all(command: &str) -> Result<Readings, Denial> {
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("heredoc-guard-read".to_owned())
            .stack_size(READ_STACK_BYTES)
            .spawn_scoped(scope, || read_all_here(command))
            .map(|handle| handle.join())
    });
    match result {
        Ok(Ok(readings)) => Ok(readings),
        Ok(Err(_panic)) => Err(reason::internal("the reader panicked")),
        Err(_) => Err(reason::internal("could not start the reading thread")),
    }
}

/// [`read_all`] on the calling thread (for the fuzzer, which must see panics); the caller
/// provides a stack large enough for [`shell::MAX_NESTING`]. The readings share one work
/// budget ([`shell::MAX_WORK`]); once a reading reaches it, the others are not read (the
/// limit denies).
pub fn read_all_here(command: &str) -> Readings {
    let mut left = shell::MAX_WORK;
    let read = |d: Dialect, left: &mut usize| {
        let r = shell::read_within(command, d, *left);
        *left = left.saturating_sub(r.work);
        r
    };
    let intended = read(Dialect::new(Shell::Intended), &mut left);
    let mut shells = Vec::with_capacity(Shell::RUNNING.len() * 2);
    let at_limit = |r: &Reading| r.error.is_some_and(|e| e.limit);
    if at_limit(&intended) {
        return (intended, shells);
    }
    let mut extglob = intended.features.extglob_chars;
    let every = needs_every_shell(&intended) || aliases_here(&intended);
    for s in Shell::RUNNING {
        // bash 5.2 and zsh are always read: zsh's lexer differs from bash's in plain
        // words (`}` ends a word, `<` ends a subscript, quotes inside `"${…}"`), so no
        // feature of the intended reading says zsh reads the command the same.
        if !every && !matches!(s, Shell::Bash52 | Shell::Zsh) {
            continue;
        }
        let r = read(Dialect::new(s), &mut left);
        extglob |= r.features.extglob_chars;
        let stop = at_limit(&r);
        shells.push((Dialect::new(s), r));
        if stop {
            return (intended, shells);
        }
    }
    let aliases = intended.features.alias_def || shells.iter().any(|(_, r)| r.features.alias_def);
    // extglob is off in `bash -c`, but a user's shell may have it on; alias expansion is
    // off in `bash -c` and on in Claude Code's shell: read every way that can differ.
    let mut extra: Vec<Dialect> = Vec::new();
    for s in Shell::RUNNING.into_iter().filter(|s| *s != Shell::Zsh) {
        if extglob {
            extra.push(Dialect {
                shell: s,
                extglob: true,
                aliases: false,
            });
        }
        if aliases {
            extra.push(Dialect {
                shell: s,
                extglob: false,
                aliases: true,
            });
            if extglob {
                extra.push(Dialect {
                    shell: s,
                    extglob: true,
                    aliases: true,
                });
            }
        }
    }
    for d in extra {
        let r = read(d, &mut left);
        let stop = at_limit(&r);
        shells.push((d, r));
        if stop {
            break;
        }
    }
    (intended, shells)
}

/// Whether the command defines aliases (every shell is then read, with and without them).
fn aliases_here(intended: &Reading) -> bool {
    intended.features.alias_def
}

/// Whether bash versions other than 5.2 could read the command differently: every
/// construct where their readers differ (measured) is a reason. A command of plain words
/// and heredocs at the top level or in compound commands reads the same in every bash.
fn needs_every_shell(intended: &Reading) -> bool {
    let f = intended.features;
    f.comsub
        || f.backquote
        || f.arith
        || f.dollar_brace
        || f.extglob_chars
        || f.cond
        || f.dparen_subshell
        || intended.unreliable.is_some()
        || intended.error.is_some()
}

/// The outcome of one hook event: the verdict, the command (for the ledger's hash) and
/// where the event came from (for the ledger's record). Both borrow from the event's bytes
/// where JSON allows; the command is the one unescaped copy, moved out of the event.
pub struct EventVerdict<'a> {
    pub verdict: Verdict,
    /// The command, when the event held one (the ledger hashes it; empty otherwise).
    pub command: Option<Cow<'a, str>>,
    pub context: crate::event::Context<'a>,
}

/// Checks one hook event as read from stdin.
pub fn check_event(bytes: &[u8]) -> EventVerdict<'_> {
    if bytes.len() > limits::MAX_EVENT_BYTES {
        return EventVerdict {
            verdict: Verdict::deny(reason::limit_denial(Limit::EventSize)),
            command: None,
            context: crate::event::Context::default(),
        };
    }
    let read = crate::event::read(bytes);
    let (verdict, command) = match read.command {
        Ok(None) => (Verdict::allow(Checked(())), None),
        Ok(Some(command)) => (check_command(&command), Some(command)),
        Err(e) => (
            Verdict::deny(reason::invalid_event(e.cause, &e.detail)),
            None,
        ),
    };
    EventVerdict {
        verdict,
        command,
        context: read.context,
    }
}
