//! What a deny says: the [`Denial`] with its stable [`Rule`] id and the [`Stage`] that
//! reached it. The [`crate::Verdict`] that holds it lives with the check, the only code
//! that can make an allow.

/// The stable rule ids written to the ledger and shown by `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// An unquoted heredoc body holds a command substitution the shell would run.
    CommandSubstitution,
    /// Where bash ends the heredoc differs from a plain reading of the body.
    HeredocBoundary,
    /// The delimiter is `$'…'` or `$"…"` quoted.
    AnsiCDelimiter,
    /// The command changes how the shell reads the lines after it.
    ReadingOption,
    /// Heredoc text reaches a hidden evaluator (arithmetic, a subscript, a name, a prompt).
    HeredocFlow,
    /// The command could not be parsed.
    UnparsableCommand,
    /// The command is over an inspection limit.
    InspectionLimit,
    /// The hook event could not be read.
    InvalidEvent,
    /// The guard itself failed (a panic).
    InternalError,
    /// The guard was started with a first argument it does not know: a hook set up with
    /// arguments. It denies, since it did not run.
    BadInvocation,
    /// The command would switch the guard off or change it (src/tamper.rs).
    GuardTamper,
}

impl Rule {
    /// The stable id of the rule, as written to the ledger.
    pub fn id(self) -> &'static str {
        match self {
            Rule::CommandSubstitution => "heredoc-command-substitution",
            Rule::HeredocBoundary => "heredoc-boundary",
            Rule::AnsiCDelimiter => "ansi-c-delimiter",
            Rule::ReadingOption => "reading-option",
            Rule::HeredocFlow => "heredoc-flow",
            Rule::UnparsableCommand => "unparsable-command",
            Rule::InspectionLimit => "inspection-limit",
            Rule::InvalidEvent => "invalid-event",
            Rule::InternalError => "internal-error",
            Rule::BadInvocation => "bad-invocation",
            Rule::GuardTamper => "guard-tamper",
        }
    }

    /// A short static text for the rule; it never carries any of the command's text.
    pub fn summary(self) -> &'static str {
        match self {
            Rule::CommandSubstitution => {
                "unquoted heredoc body holds a command substitution the shell would run"
            }
            Rule::HeredocBoundary => {
                "the shell would end the heredoc somewhere other than where it appears to end"
            }
            Rule::AnsiCDelimiter => "heredoc delimiter uses $'...' or $\"...\" quoting",
            Rule::ReadingOption => {
                "the command changes how the shell reads a later heredoc in a way the guard does not follow"
            }
            Rule::HeredocFlow => {
                "heredoc text reaches a hidden evaluator (arithmetic, a subscript, a name, a prompt)"
            }
            Rule::UnparsableCommand => "the command could not be parsed",
            Rule::InspectionLimit => "the command is over an inspection limit",
            Rule::InvalidEvent => "the hook event could not be read",
            Rule::InternalError => "heredoc-guard failed internally",
            Rule::BadInvocation => {
                "heredoc-guard was started with an argument it does not know, so it did not run"
            }
            Rule::GuardTamper => {
                "the command would switch off or change the guard, its binary or the settings holding its hook"
            }
        }
    }
}

/// Where in the pipeline a failure happened (for failure rules only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Event,
    Limits,
    Parse,
    Internal,
    Invocation,
}

impl Stage {
    /// The stable name written to the ledger.
    pub fn id(self) -> &'static str {
        match self {
            Stage::Event => "event",
            Stage::Limits => "limits",
            Stage::Parse => "parse",
            Stage::Internal => "internal",
            Stage::Invocation => "invocation",
        }
    }
}

/// Why a command was denied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denial {
    /// The rule that fired.
    pub rule: Rule,
    /// The message for the model: what was found, where, and how to rewrite.
    pub reason: String,
    /// For failures: the stage and a short static cause.
    pub failure: Option<(Stage, &'static str)>,
}

impl Denial {
    /// A denial by a rule about the command's content.
    pub fn new(rule: Rule, reason: String) -> Self {
        Denial {
            rule,
            reason,
            failure: None,
        }
    }

    /// A denial because something could not be inspected (fail closed).
    pub fn failure(rule: Rule, stage: Stage, cause: &'static str, reason: String) -> Self {
        Denial {
            rule,
            reason,
            failure: Some((stage, cause)),
        }
    }

    /// The deny for a failure of the guard itself (a panic, a thread that did not start).
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
                "heredoc-guard could not read the hook event: {}. It denies what it cannot read; check the hook set-up with `heredoc-guard doctor`, and install it again with `heredoc-guard install claude` (or codex, gemini, copilot).",
                clip(detail, 200)
            ),
        )
    }
}

/// At most `max` characters of `s` on one line, with `…` when cut; newlines and control
/// characters shown as `⏎` and `\xNN`.
pub(crate) fn clip(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push('⏎'),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
