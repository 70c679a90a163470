//! The messages: what the model reads when a command is denied. Each says what was found,
//! where (line and column in the command), and how to rewrite; none is over 600
//! characters. A delimiter is shown whole or not at all: advice never shows a clipped or
//! altered delimiter, and control characters in it are named, not printed.

use crate::limits::Limit;
use crate::report::{Finding, FindingKind, Heredoc, Report};
use crate::shell::{Pos, Shell};
use crate::verdict::{Denial, Rule, Stage, clip};

/// Longest delimiter shown in a message.
const MAX_SHOWN_DELIMITER: usize = 80;

/// The rule a finding falls under.
pub fn rule_of(kind: &FindingKind) -> Rule {
    match kind {
        FindingKind::Substitution(_) => Rule::CommandSubstitution,
        FindingKind::Boundary | FindingKind::DelimiterExpansion | FindingKind::Unfollowed(_) => {
            Rule::HeredocBoundary
        }
        FindingKind::AnsiCDelimiter => Rule::AnsiCDelimiter,
        FindingKind::ReadingOption(_) => Rule::ReadingOption,
        FindingKind::Evaluation { in_body: true, .. } => Rule::CommandSubstitution,
        FindingKind::Evaluation { in_body: false, .. } => Rule::HeredocFlow,
        FindingKind::Unread(_) => Rule::CommandSubstitution,
    }
}

pub fn limit_denial(limit: Limit) -> Denial {
    Denial::failure(
        Rule::InspectionLimit,
        Stage::Limits,
        limit.name(),
        format!(
            "inspection limit: {} (limit {}); heredoc-guard denies what it cannot inspect. {}",
            limit.name(),
            limit.value(),
            limit_advice(limit)
        ),
    )
}

/// What to do about each limit: advice that fits its cause. Over the event or command
/// size, any heredoc is denied, quoted or not, so no heredoc advice is given there.
fn limit_advice(limit: Limit) -> &'static str {
    match limit {
        Limit::EventSize => {
            "The whole hook event is that large: run the work as several smaller commands."
        }
        Limit::CommandSize => {
            "Run it as several smaller commands (write large content in parts, each command under the limit)."
        }
        Limit::Heredocs => "Split the command into several commands with fewer heredocs each.",
        Limit::Nesting => {
            "Nest less: compute inner values first on lines of their own (v=$(cmd)), then use $v."
        }
        Limit::Work | Limit::Time => {
            "Split the command into smaller ones, or write large content with a quoted heredoc (<<'EOF') in a command of its own."
        }
    }
}

/// The deny for a command the reader could not read: `what` says what, `cause` is the
/// short static cause for the ledger.
pub fn parse_denial(what: &str, cause: &'static str, at: Pos) -> Denial {
    Denial::failure(
        Rule::UnparsableCommand,
        Stage::Parse,
        cause,
        format!(
            "heredoc-guard could not read the command at line {}, column {}: {}; it denies what it cannot read. Check the quoting, and that every heredoc's closing line is the delimiter alone on its line (no spaces, no CR).",
            at.line,
            at.column,
            clip(what, 160)
        ),
    )
}

/// The delimiter as it can be shown, or `None` when it cannot be shown whole and as is.
fn showable(s: &str) -> Option<&str> {
    (s.chars().count() <= MAX_SHOWN_DELIMITER && !s.chars().any(char::is_control)).then_some(s)
}

/// Names the control characters of a delimiter, for a message.
fn control_note(s: &str) -> String {
    let mut names: Vec<&str> = Vec::new();
    for c in s.chars() {
        let name = match c {
            '\r' => "a carriage return (CR)",
            '\t' => "a tab",
            c if c.is_control() => "a control character",
            _ => continue,
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    if names.is_empty() {
        String::new()
    } else {
        format!(" (its delimiter holds {})", names.join(" and "))
    }
}

fn op(h: &Heredoc) -> &'static str {
    if h.strip_tabs { "<<-" } else { "<<" }
}

/// How to name a heredoc: its opener as written, or where it is when the delimiter
/// cannot be shown.
fn named(h: &Heredoc) -> String {
    match showable(&h.written) {
        Some(w) => format!(
            "{}{w} (opened at line {}, column {})",
            op(h),
            h.opener.line,
            h.opener.column
        ),
        None => format!(
            "opened at line {}, column {}{}",
            h.opener.line,
            h.opener.column,
            control_note(&h.written)
        ),
    }
}

/// The quoted form to suggest, or advice worded without the delimiter.
fn quote_advice(h: &Heredoc) -> String {
    match showable(&h.closing) {
        Some(c) if !c.contains('\'') && !c.is_empty() => {
            format!("quote the delimiter: {}'{c}'", op(h))
        }
        _ => {
            "quote the delimiter (put it in single quotes, so that the closing line stays the same)"
                .to_owned()
        }
    }
}

fn shell_list(shells: &[Shell]) -> String {
    let mut names: Vec<&str> = shells.iter().map(|s| s.name()).collect();
    names.sort_unstable();
    names.dedup();
    names.join(", ")
}

/// The message for the model: what, where, and the rewrite.
pub fn reason(report: &Report, f: &Finding) -> String {
    let h = f.heredoc.and_then(|i| report.heredocs.get(i));
    let at = format!("line {}, column {}", f.pos.line, f.pos.column);
    let excerpt = clip(&f.excerpt, 40);
    let generic = Heredoc {
        opener: f.pos,
        written: String::new(),
        closing: String::new(),
        quoted: false,
        ansi_c: false,
        strip_tabs: false,
        context: crate::shell::Context::TopLevel,
        body_line: f.pos.line,
        body: (0, 0),
        closer: None,
        runs: Vec::new(),
    };
    let h = h.unwrap_or(&generic);
    match &f.kind {
        FindingKind::Substitution(kind) => format!(
            "heredoc-guard: {at}: the body of the unquoted heredoc {} holds a {} \"{excerpt}\", which the shell runs on this machine before the command. If the body is data, {}. If a value must expand, compute it first on its own line (v=$(cmd)) and use $v in the body.",
            named(h),
            kind.describe(),
            quote_advice(h)
        ),
        FindingKind::Boundary => format!(
            "heredoc-guard: {at}: {} read \"{excerpt}\" as commands, though it stands in a heredoc body: the heredoc ends elsewhere than it appears to (a backslash at a line end, a body line that starts with the delimiter inside $(...), or (( read as arithmetic). Write the closing line as the delimiter alone, put `)` on its own line, and {}.",
            shell_list(&f.shells),
            quote_advice(h)
        ),
        FindingKind::AnsiCDelimiter => format!(
            "heredoc-guard: {at}: ANSI-C/locale quoted delimiter ($'...' or $\"...\"): bash closes on the decoded word, which readers get wrong. Rewrite it with plain single quotes, <<'EOF'."
        ),
        FindingKind::DelimiterExpansion => format!(
            "heredoc-guard: {at}: the heredoc delimiter holds an expansion ($(...), ${{...}}, $[...] or backquotes): bash versions and zsh disagree on its closing line and on whether it quotes the body. Use a plain word as the delimiter, quoted: <<'EOF'."
        ),
        FindingKind::Unfollowed(what) if let Some(advice) = crate::shell::zsh_advice(what) => {
            format!(
                "heredoc-guard: {at}: {what} (here: \"{excerpt}\"), and heredoc-guard denies what it cannot follow (the command may run in zsh). {advice} Quote the heredoc delimiter: <<'EOF'."
            )
        }
        FindingKind::Unfollowed(what) => format!(
            "heredoc-guard: {}: {what}; heredoc-guard denies what it cannot follow. Keep heredocs out of ((...)), $((...)) and other text bash reads twice (write `( (` with a space for nested subshells).",
            shell_list(&f.shells)
        ),
        FindingKind::ReadingOption(what) => format!(
            "heredoc-guard: {at}: {what} (\"{excerpt}\"); heredoc-guard does not follow that change, and a heredoc is read after it (an alias or option can make a quoted body code). Run it as a command of its own, before this one, or leave it out."
        ),
        FindingKind::Evaluation {
            evaluator,
            what,
            unknown,
            in_body: true,
        } => format!(
            "heredoc-guard: {at}: the unquoted heredoc {} holds {what} (\"{excerpt}\"), which {}, given {}. Compute the value first on its own line (n=$((...)), v=${{!name}}) and use $n in the body, or {}.",
            named(h),
            evaluator.does(),
            if *unknown {
                "a value computed at run time"
            } else {
                "a value the command does not fix"
            },
            quote_advice(h)
        ),
        FindingKind::Evaluation {
            evaluator,
            what,
            unknown,
            in_body: false,
        } => format!(
            "heredoc-guard: {at}: {} reaches {what}, which {} (\"{excerpt}\"). Keep heredoc text as data: pass it as an argument or on standard input, not into arithmetic, ${{!...}}, subscripts, namerefs or prompts (compare numbers with [ \"$v\" -ge N ]); if it must run, say so with eval or source.",
            if *unknown {
                "a value computed at run time (program output, a file, a name set at run time), which may hold heredoc text,"
            } else {
                "heredoc text"
            },
            evaluator.does()
        ),
        FindingKind::Unread(what) => format!(
            "heredoc-guard: {at}: the unquoted heredoc {} holds {what}; heredoc-guard denies what it cannot follow. If the body is data, {}; otherwise compute the values first on lines of their own and use $v in the body.",
            named(h),
            quote_advice(h)
        ),
    }
}
