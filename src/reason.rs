//! The messages: what the model reads when a command is denied. Each says what was found,
//! where (line and column in the command), and how to rewrite; none is over ~600
//! characters.

use crate::analyze::{Finding, FindingKind, Report};
use crate::body::BoundaryKind;
use crate::limits::Limit;
use crate::shell;
use crate::verdict::{Denial, Rule, Stage};

pub fn internal(cause: &'static str) -> Denial {
    Denial::failure(
        Rule::InternalError,
        Stage::Internal,
        cause,
        format!(
            "heredoc-guard failed internally ({cause}); it denies what it cannot check. Quote the heredoc delimiter (<<'EOF') or split the command, and retry."
        ),
    )
}

/// The deny for a hook event that could not be read (`detail` says what was wrong).
pub fn invalid_event(cause: &'static str, detail: &str) -> Denial {
    Denial::failure(
        Rule::InvalidEvent,
        Stage::Event,
        cause,
        format!(
            "heredoc-guard could not read the hook event: {}. It denies what it cannot read; check that the hook is set up as `heredoc-guard config claude` or `config codex` prints.",
            clip(detail, 200)
        ),
    )
}

pub fn limit_denial(limit: Limit) -> Denial {
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

pub fn parse_denial(failure: &shell::ParseFailure) -> Denial {
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
pub fn reason(report: &Report, f: &Finding) -> String {
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
