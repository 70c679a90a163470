//! The checked path: from a command to a verdict. Fast path first (no heredoc operator:
//! allow without parsing), then the limits, then the parse on a thread with a known stack
//! and a deadline, then the rules on every heredoc found.
//!
//! This is the only module that can create a [`Checked`] token, so the only place an
//! allow can come from.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::body::{self, BoundaryKind, SubstKind};
use crate::collect::{Origin, Place, Walk};
use crate::delimiter::{Delimiter, Quoting};
use crate::limits::{self, Limit};
use crate::prefilter;
use crate::reason::{clip, internal, limit_denial, reason};
use crate::shell::{Oracle, Pos};
use crate::verdict::{Denial, Rule, Verdict};

/// Proof that the checked path found nothing to deny. Only this module can make one.
pub struct Checked(());

/// Where a heredoc sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// In the outer command (or one of its compound commands).
    TopLevel,
    /// Inside `$(…)`, `<(…)` or `>(…)`.
    Substitution,
    /// Inside a backquoted substitution.
    Backquote,
}

/// A heredoc in our own terms.
#[derive(Clone, Debug)]
pub struct Heredoc {
    pub delimiter: Delimiter,
    pub strip_tabs: bool,
    pub body: String,
    /// Where the delimiter word is, in the whole command.
    pub opener: Pos,
    /// The line the body starts on, in the whole command.
    pub body_line: usize,
    pub context: Context,
    /// Byte range of the body (without the closing line) in the whole command; only
    /// computed for `strip`, and only where the parser's text maps back exactly.
    pub body_span: Option<(usize, usize)>,
}

/// What a rule found in one heredoc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    Substitution(SubstKind),
    Boundary(BoundaryKind),
    AnsiCDelimiter,
}

/// One finding: which heredoc, what, where (in the whole command), and a short excerpt.
#[derive(Clone, Debug)]
pub struct Finding {
    pub heredoc: usize,
    pub kind: FindingKind,
    pub pos: Pos,
    pub excerpt: String,
}

/// Everything the analysis saw: the heredocs and the findings, in order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub heredocs: Vec<Heredoc>,
    pub findings: Vec<Finding>,
}

/// Checks a shell command: the whole guard for one Bash command.
pub fn check_command(command: &str) -> Verdict {
    if !prefilter::has_heredoc_operator(command.as_bytes()) {
        return Verdict::allow(Checked(()));
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
        Some(f) => Verdict::deny(Denial::new(rule_of(&f.kind), reason(report, f))),
    }
}

/// The rule a finding falls under.
pub fn rule_of(kind: &FindingKind) -> Rule {
    match kind {
        FindingKind::Substitution(_) => Rule::CommandSubstitution,
        FindingKind::Boundary(_) => Rule::HeredocBoundary,
        FindingKind::AnsiCDelimiter => Rule::AnsiCDelimiter,
    }
}

/// Runs the full inspection (limits, parse, rules) of a heredoc-bearing command on a
/// thread with a large stack, within the time limit. Any fault is a denial.
pub fn inspect(command: &str) -> Result<Report, Denial> {
    inspect_with(command, false)
}

/// [`inspect`], also mapping every body back to its byte range in the command.
pub fn inspect_with_spans(command: &str) -> Result<Report, Denial> {
    inspect_with(command, true)
}

fn inspect_with(command: &str, spans: bool) -> Result<Report, Denial> {
    limits::check_command(command).map_err(limit_denial)?;
    let (tx, rx) = mpsc::channel();
    let owned = command.to_owned();
    let spawned = std::thread::Builder::new()
        .name("heredoc-guard-analysis".to_owned())
        .stack_size(limits::ANALYSIS_STACK_BYTES)
        .spawn(move || {
            let result = std::panic::catch_unwind(|| analyze(&owned, spans));
            // The receiver may have timed out and gone; nothing to do then.
            let _ = tx.send(result);
        });
    if spawned.is_err() {
        return Err(internal("could not start the analysis thread"));
    }
    // Wait in short slices: between them, the deadline and the process's memory are
    // checked (brush-parser has inputs on which it loops allocating, ~700 MB/s).
    let start = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_millis(limits::WATCH_INTERVAL_MS)) {
            Ok(Ok(result)) => return result,
            Ok(Err(_panic)) => return Err(internal("the analysis panicked")),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(internal("the analysis thread died"));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if start.elapsed() >= Duration::from_millis(limits::ANALYSIS_TIMEOUT_MS) {
                    return Err(limit_denial(Limit::Time));
                }
                if limits::resident_bytes().is_some_and(|rss| rss > limits::MAX_RESIDENT_BYTES) {
                    return Err(limit_denial(Limit::Memory));
                }
            }
        }
    }
}

/// The same inspection as [`inspect`] on the calling thread, without the panic net or the
/// deadline: for the fuzzer, which must see our own panics. The caller provides a stack
/// large enough for [`limits::MAX_NESTING`].
pub fn inspect_unguarded(command: &str) -> Result<Report, Denial> {
    limits::check_command(command).map_err(limit_denial)?;
    analyze(command, true)
}

/// The analysis proper (runs on the analysis thread).
fn analyze(command: &str, spans: bool) -> Result<Report, Denial> {
    let mut heredocs = Vec::new();
    let mut oracle = Oracle::new(limits::MAX_PARSE_ATTEMPTS);
    let mut walk = Walk {
        oracle: &mut oracle,
        out: &mut heredocs,
        spans,
    };
    walk.collect(
        command,
        Origin::START,
        Some(Place::Exact(0)),
        Context::TopLevel,
        0,
    )?;
    heredocs.sort_by_key(|h: &Heredoc| (h.opener.line, h.opener.column));
    // A word whose rebuilt text differs from its source is inspected twice; where both
    // readings agree on a heredoc, keep one (with the source's byte range).
    heredocs.dedup_by(|later, earlier| {
        let same = later.opener == earlier.opener
            && later.delimiter == earlier.delimiter
            && later.body == earlier.body;
        if same {
            earlier.body_span = earlier.body_span.or(later.body_span);
        }
        same
    });
    let mut findings = Vec::new();
    for (index, heredoc) in heredocs.iter().enumerate() {
        judge(index, heredoc, &mut findings);
    }
    Ok(Report { heredocs, findings })
}

/// Applies the rules to one heredoc.
fn judge(index: usize, h: &Heredoc, findings: &mut Vec<Finding>) {
    let at_line = |offset: usize| -> Pos {
        let before = &h.body[..floor_char_boundary(&h.body, offset)];
        let line = h.body_line + before.matches('\n').count();
        let column = 1 + before
            .rfind('\n')
            .map_or(before, |nl| &before[nl + 1..])
            .chars()
            .count();
        Pos { line, column }
    };
    if h.delimiter.quoting == Quoting::AnsiC {
        findings.push(Finding {
            heredoc: index,
            kind: FindingKind::AnsiCDelimiter,
            pos: h.opener,
            excerpt: clip(&h.delimiter.written, 40),
        });
        return;
    }
    let unquoted = h.delimiter.quoting == Quoting::Unquoted;
    // Bash's early end of a heredoc inside `$(…)` and `<(…)` (measured); backquoted
    // substitutions are read as a string first and do not have it (measured).
    let in_substitution = h.context == Context::Substitution;
    if let Some(b) = body::boundary(
        &h.body,
        &h.delimiter.closing,
        h.strip_tabs,
        unquoted,
        in_substitution,
    ) {
        let line_end = h.body[b.offset..]
            .find('\n')
            .map_or(h.body.len(), |e| b.offset + e);
        findings.push(Finding {
            heredoc: index,
            kind: FindingKind::Boundary(b.kind),
            pos: at_line(b.offset),
            excerpt: clip(&h.body[b.offset..line_end], 40),
        });
        return;
    }
    if unquoted {
        for s in body::substitutions(&h.body) {
            findings.push(Finding {
                heredoc: index,
                kind: FindingKind::Substitution(s.kind),
                pos: at_line(s.start),
                excerpt: clip(&h.body[s.start..s.end], 40),
            });
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The outcome of one hook event: the verdict and the command bytes (for the ledger hash).
pub struct EventVerdict {
    pub verdict: Verdict,
    /// The command, when the event held one; the ledger hashes it (empty otherwise).
    pub command: Option<String>,
}

/// Checks one hook event as read from stdin.
pub fn check_event(bytes: &[u8]) -> EventVerdict {
    if bytes.len() > limits::MAX_EVENT_BYTES {
        return EventVerdict {
            verdict: Verdict::deny(limit_denial(Limit::EventSize)),
            command: None,
        };
    }
    match crate::event::read(bytes) {
        Ok(crate::event::Event::NotShell) => EventVerdict {
            verdict: Verdict::allow(Checked(())),
            command: None,
        },
        Ok(crate::event::Event::Shell(command)) => EventVerdict {
            verdict: check_command(&command),
            command: Some(command),
        },
        Err(e) => EventVerdict {
            verdict: Verdict::deny(crate::reason::invalid_event(e.cause, &e.detail)),
            command: None,
        },
    }
}
