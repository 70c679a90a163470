//! The checked path: from a command to a verdict. Fast path first (no heredoc operator:
//! allow without parsing), then the limits, then the parse on a thread with a known stack
//! and a deadline, then the rules on every heredoc found.
//!
//! This is the only module that can create a [`Checked`] token, so the only place an
//! allow can come from.

use std::sync::mpsc;
use std::time::Duration;

use crate::body::{self, BoundaryKind, SubstKind};
use crate::delimiter::{Delimiter, Quoting};
use crate::limits::{self, Limit};
use crate::prefilter;
use crate::shell::{self, Oracle, Pos};
use crate::verdict::{Denial, Rule, Stage, Verdict};
use crate::words::{self, InnerKind, ScanError};

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

/// Turns a report into a verdict: the first finding denies.
pub fn verdict_for(report: &Report) -> Verdict {
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
    match rx.recv_timeout(Duration::from_millis(limits::ANALYSIS_TIMEOUT_MS)) {
        Ok(Ok(result)) => result,
        Ok(Err(_panic)) => Err(internal("the analysis panicked")),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(limit_denial(Limit::Time)),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(internal("the analysis thread died")),
    }
}

fn internal(cause: &'static str) -> Denial {
    Denial::failure(
        Rule::InternalError,
        Stage::Internal,
        cause,
        format!(
            "heredoc-guard failed internally ({cause}); it denies what it cannot check. Quote the heredoc delimiter (<<'EOF') or split the command, and retry."
        ),
    )
}

fn limit_denial(limit: Limit) -> Denial {
    Denial::failure(
        Rule::InspectionLimit,
        Stage::Limits,
        limit.name(),
        format!(
            "inspection limit: {} (limit {}); heredoc-guard denies what it cannot inspect. Split the command into smaller ones, or write large content with a quoted heredoc (<<'EOF') in a command of its own.",
            limit.name(),
            limit.value()
        ),
    )
}

fn parse_denial(failure: &shell::ParseFailure) -> Denial {
    let message = clip(&failure.message, 200);
    Denial::failure(
        Rule::UnparsableCommand,
        Stage::Parse,
        failure.cause,
        format!(
            "could not parse the command: {message}; heredoc-guard denies what it cannot read. Check the quoting, and that every heredoc's closing line is the delimiter alone on its line (no spaces, no CR)."
        ),
    )
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
    walk.collect(command, Origin::START, Some(0), Context::TopLevel, 0)?;
    heredocs.sort_by_key(|h: &Heredoc| (h.opener.line, h.opener.column));
    let mut findings = Vec::new();
    for (index, heredoc) in heredocs.iter().enumerate() {
        judge(index, heredoc, &mut findings);
    }
    Ok(Report { heredocs, findings })
}

/// Where a parsed text starts in the whole command.
#[derive(Clone, Copy, Debug)]
struct Origin {
    line: usize,
    column: usize,
}

impl Origin {
    const START: Origin = Origin { line: 1, column: 1 };

    /// A position in the parsed text, as a position in the whole command.
    fn map(self, p: Pos) -> Pos {
        if p.line <= 1 {
            Pos {
                line: self.line,
                column: self.column + p.column.saturating_sub(1),
            }
        } else {
            Pos {
                line: self.line + p.line - 1,
                column: p.column,
            }
        }
    }

    /// The origin of text that starts `prefix` further on.
    fn advance(self, prefix: &str) -> Origin {
        match prefix.rfind('\n') {
            None => Origin {
                line: self.line,
                column: self.column + prefix.chars().count(),
            },
            Some(nl) => Origin {
                line: self.line + prefix.matches('\n').count(),
                column: 1 + prefix[nl + 1..].chars().count(),
            },
        }
    }
}

/// Nested programs deeper than this are not followed (the byte-level nesting limit
/// normally stops such commands first).
const MAX_PROGRAM_DEPTH: usize = 64;

/// The state of one analysis: the oracle's budget, the heredocs found so far, and whether
/// body byte ranges are wanted.
struct Walk<'a> {
    oracle: &'a mut Oracle,
    out: &'a mut Vec<Heredoc>,
    spans: bool,
}

/// Byte offset of character index `ci` in `s` (`s.len()` for the end).
fn char_to_byte(s: &str, ci: usize) -> Option<usize> {
    if s.is_ascii() {
        // One past the end: the newline the parser was given in addition.
        return (ci <= s.len() + 1).then_some(ci);
    }
    s.char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(s.len()))
        .nth(ci)
}

/// The byte range of a parsed text's character range.
fn byte_range(s: &str, (start, end): (usize, usize)) -> Option<(usize, usize)> {
    Some((char_to_byte(s, start)?, char_to_byte(s, end)?))
}

/// The body part of a heredoc's span (body lines and closing line): all but the last line.
fn body_part(src: &str, (start, end): (usize, usize)) -> Option<(usize, usize)> {
    // The parser saw a final newline that the command may not have.
    let seg = src.get(start..end.min(src.len()))?;
    let without_newline = seg.strip_suffix('\n').unwrap_or(seg);
    Some(match without_newline.rfind('\n') {
        Some(nl) => (start, start + nl + 1),
        None => (start, start),
    })
}

impl Walk<'_> {
    /// Parses `src` and collects its heredocs, following nested programs in its words.
    /// `base` is where `src` starts in the whole command, when it is an exact slice of it.
    fn collect(
        &mut self,
        src: &str,
        origin: Origin,
        base: Option<usize>,
        context: Context,
        depth: usize,
    ) -> Result<(), Denial> {
        if depth > MAX_PROGRAM_DEPTH {
            return Err(limit_denial(Limit::Nesting));
        }
        let parsed = shell::parse(src).map_err(|f| match ansi_c_delimiter(src) {
            Some(written) => Denial::new(
                Rule::AnsiCDelimiter,
                format!(
                    "heredoc-guard: ANSI-C/locale quoted delimiter <<{}: rewrite it with plain quotes, <<'EOF'.",
                    clip(&written, 40)
                ),
            ),
            None => parse_denial(&f),
        })?;
        for h in parsed.heredocs {
            if self.out.len() >= limits::MAX_HEREDOCS {
                return Err(limit_denial(Limit::Heredocs));
            }
            let body_span = match (self.spans, base, h.span_chars) {
                (true, Some(base), Some(span)) => byte_range(src, span)
                    .and_then(|range| body_part(src, range))
                    .map(|(s, e)| (base + s, base + e)),
                _ => None,
            };
            let body_origin = origin.map(Pos {
                line: h.body_line,
                column: 1,
            });
            self.out.push(Heredoc {
                delimiter: Delimiter::read(&h.here_end),
                strip_tabs: h.strip_tabs,
                body: h.body,
                opener: origin.map(h.opener),
                body_line: body_origin.line,
                context: if h.in_process_substitution {
                    Context::Substitution
                } else {
                    context
                },
                body_span,
            });
        }
        for word in parsed.words {
            let word_origin = word.pos.map_or(origin, |p| {
                let m = origin.map(p);
                Origin {
                    line: m.line,
                    column: m.column,
                }
            });
            // Where the word's text starts in the whole command, if it is an exact slice
            // (brush sometimes starts a word one blank early, and rebuilds some words).
            let word_base = match (self.spans, base, word.span_chars) {
                (true, Some(base), Some(span)) => byte_range(src, span).and_then(|(s, e)| {
                    [s, s + 1]
                        .into_iter()
                        .find(|&s| src.get(s..e) == Some(word.text.as_str()))
                        .map(|s| base + s)
                }),
                _ => None,
            };
            let inners = words::nested_programs(&word.text, self.oracle).map_err(|e| match e {
                ScanError::Budget => limit_denial(Limit::ParseAttempts),
                ScanError::Unterminated(what) => parse_denial(&shell::ParseFailure {
                    message: format!("unterminated {what}"),
                    cause: "unterminated quote or substitution",
                }),
            })?;
            for inner in inners {
                if inner.joined_lines {
                    let at = word_origin.advance(&word.text[..inner.start]);
                    return Err(Denial::new(
                        Rule::HeredocBoundary,
                        format!(
                            "heredoc-guard: line {}, column {}: inside backquotes, a backslash at a line end joins lines before bash reads the heredoc, so a split line can close it early and what follows runs as code. Use $(...) instead of backquotes, or remove the trailing backslashes.",
                            at.line, at.column
                        ),
                    ));
                }
                let inner_context = match inner.kind {
                    InnerKind::Dollar => Context::Substitution,
                    InnerKind::Backquote => Context::Backquote,
                };
                let exact = word.text.get(inner.start..inner.start + inner.text.len())
                    == Some(inner.text.as_str());
                let inner_base = word_base.filter(|_| exact).map(|b| b + inner.start);
                let inner_origin = word_origin.advance(&word.text[..inner.start]);
                self.collect(
                    &inner.text,
                    inner_origin,
                    inner_base,
                    inner_context,
                    depth + 1,
                )?;
            }
        }
        Ok(())
    }
}

/// A `<<$'…'` / `<<$"…"` delimiter word in text the parser rejected (brush waits for a
/// closing line `$EOF` where bash waits for `EOF`, so such a command often fails to parse).
fn ansi_c_delimiter(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let mut i = 0;
    while let Some(at) = src[i..].find("<<") {
        let mut j = i + at + 2;
        if b.get(j) == Some(&b'<') {
            i = j + 1;
            continue;
        }
        if b.get(j) == Some(&b'-') {
            j += 1;
        }
        while matches!(b.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        let end = src[j..]
            .find(|c: char| {
                c.is_ascii_whitespace() || matches!(c, ';' | '|' | '&' | '<' | '>' | '(' | ')')
            })
            .map_or(src.len(), |e| j + e);
        let word = &src[j..end];
        if word.contains("$'") || word.contains("$\"") {
            return Some(word.to_owned());
        }
        i = end.max(j + 1).min(src.len());
    }
    None
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

/// At most `max` characters of `s` on one line, with `…` when cut.
pub fn clip(s: &str, max: usize) -> String {
    let one_line: String = s
        .chars()
        .map(|c| {
            if c == '\n' {
                '⏎'
            } else if c.is_control() {
                '?'
            } else {
                c
            }
        })
        .collect();
    if one_line.chars().count() <= max {
        one_line
    } else {
        let mut cut: String = one_line.chars().take(max).collect();
        cut.push('…');
        cut
    }
}

/// The message for the model: what, where, and the rewrite.
fn reason(report: &Report, f: &Finding) -> String {
    let h = &report.heredocs[f.heredoc];
    let op = if h.strip_tabs { "<<-" } else { "<<" };
    let written = clip(&h.delimiter.written, 40);
    let closing = clip(&h.delimiter.closing, 40);
    let quoted_form = if closing.contains('\'') {
        "<<'EOF'".to_owned()
    } else {
        format!("{op}'{closing}'")
    };
    let where_ = format!("line {}, column {}", f.pos.line, f.pos.column);
    let opened = format!(
        "{op}{written} (opened at line {}, column {})",
        h.opener.line, h.opener.column
    );
    match &f.kind {
        FindingKind::Substitution(kind) => format!(
            "heredoc-guard: {where_}: the body of the unquoted heredoc {opened} holds a {} \"{}\", which the shell runs on this machine before the command. If the body is data, quote the delimiter: {quoted_form}. If a value must expand, compute it first on its own line (v=$(cmd)) and use $v in the body.",
            kind.describe(),
            f.excerpt
        ),
        FindingKind::Boundary(BoundaryKind::JoinedCloser) => format!(
            "heredoc-guard: {where_}: in the unquoted heredoc {opened}, a backslash at a line end joins lines, and bash ends the heredoc at the joined line \"{closing}\"; what follows runs as commands. Remove the trailing backslash, or quote the delimiter: {quoted_form}."
        ),
        FindingKind::Boundary(BoundaryKind::SwallowedCloser) => format!(
            "heredoc-guard: {where_}: the last body line of the unquoted heredoc {opened} ends in a backslash, so bash joins the closing line into the body and reads on past it. Remove the trailing backslash (or write it as \\\\), or quote the delimiter: {quoted_form}."
        ),
        FindingKind::Boundary(BoundaryKind::EarlyEndInSubstitution) => format!(
            "heredoc-guard: {where_}: inside $(...) the body line \"{}\" of heredoc {opened} starts with the delimiter and holds a `)`: bash ends the heredoc there and runs the rest of the line as code. Reword that line or pick a delimiter that no body line starts with.",
            f.excerpt
        ),
        FindingKind::AnsiCDelimiter => format!(
            "heredoc-guard: {where_}: ANSI-C/locale quoted delimiter {op}{written}: rewrite it with plain quotes, <<'EOF'."
        ),
    }
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
            verdict: Verdict::deny(Denial::failure(
                Rule::InvalidEvent,
                Stage::Event,
                e.cause,
                format!(
                    "heredoc-guard could not read the hook event: {}. It denies what it cannot read; check that the hook is set up as `heredoc-guard config claude` or `config codex` prints.",
                    clip(&e.detail, 200)
                ),
            )),
            command: None,
        },
    }
}
