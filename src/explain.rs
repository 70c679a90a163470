//! `explain`: what the guard sees in a command, for a person (text, coloured on a
//! terminal) or a script (`--json`): each heredoc, each substitution found in an unquoted
//! body, and the verdict with its rule.

use serde_json::json;

use crate::analyze::{self, Context, FindingKind, Report};
use crate::delimiter::Quoting;
use crate::prefilter;
use crate::verdict::Denial;

/// What `explain` found: the report (when the command could be read) and the deny.
pub struct Explanation {
    pub report: Report,
    pub denial: Option<Denial>,
}

/// Analyses a command the way the hook does.
pub fn explain(command: &str) -> Explanation {
    if !prefilter::has_heredoc_operator(command.as_bytes()) {
        return Explanation {
            report: Report::default(),
            denial: None,
        };
    }
    match analyze::inspect(command) {
        Ok(report) => {
            let denial = analyze::verdict_for(&report).into_denial();
            Explanation { report, denial }
        }
        Err(denial) => Explanation {
            report: Report::default(),
            denial: Some(denial),
        },
    }
}

fn quoting(q: Quoting) -> &'static str {
    match q {
        Quoting::Unquoted => "unquoted",
        Quoting::Quoted => "quoted",
        Quoting::AnsiC => "ansi-c quoted",
    }
}

fn context(c: Context) -> &'static str {
    match c {
        Context::TopLevel => "top level",
        Context::Substitution => "inside $(...) or <(...)",
        Context::Backquote => "inside backquotes",
    }
}

fn kind(k: &FindingKind) -> String {
    match k {
        FindingKind::Substitution(s) => s.describe().to_owned(),
        FindingKind::Boundary(b) => format!("heredoc boundary: {b:?}"),
        FindingKind::AnsiCDelimiter => "ANSI-C/locale quoted delimiter".to_owned(),
    }
}

impl Explanation {
    /// The text form; `color` adds ANSI colours to the verdict.
    pub fn text(&self, color: bool) -> String {
        let paint = |code: &str, s: &str| {
            if color {
                format!("\x1b[{code}m{s}\x1b[0m")
            } else {
                s.to_owned()
            }
        };
        let mut out = String::new();
        if self.report.heredocs.is_empty() {
            out.push_str("no heredocs\n");
        }
        for (i, h) in self.report.heredocs.iter().enumerate() {
            out.push_str(&format!(
                "heredoc {} at {}:{}: {}{} ({}, {}{})\n",
                i + 1,
                h.opener.line,
                h.opener.column,
                if h.strip_tabs { "<<-" } else { "<<" },
                crate::reason::clip(&h.delimiter.written, 40),
                quoting(h.delimiter.quoting),
                if h.strip_tabs { "strips tabs, " } else { "" },
                context(h.context)
            ));
            for f in self.report.findings.iter().filter(|f| f.heredoc == i) {
                out.push_str(&format!(
                    "  {}:{}: {}: {}\n",
                    f.pos.line,
                    f.pos.column,
                    kind(&f.kind),
                    f.excerpt
                ));
            }
        }
        match &self.denial {
            None => out.push_str(&format!("verdict: {}\n", paint("32", "allow"))),
            Some(d) => {
                out.push_str(&format!(
                    "verdict: {} ({})\n",
                    paint("31", "deny"),
                    d.rule.id()
                ));
                out.push_str(&format!("reason: {}\n", d.reason));
            }
        }
        out
    }

    /// The JSON form.
    pub fn json(&self) -> String {
        let heredocs: Vec<_> = self
            .report
            .heredocs
            .iter()
            .map(|h| {
                json!({
                    "line": h.opener.line,
                    "column": h.opener.column,
                    "delimiter": h.delimiter.written,
                    "closing_line": h.delimiter.closing,
                    "quoting": quoting(h.delimiter.quoting),
                    "strip_tabs": h.strip_tabs,
                    "context": context(h.context),
                    "body_line": h.body_line,
                })
            })
            .collect();
        let findings: Vec<_> = self
            .report
            .findings
            .iter()
            .map(|f| {
                json!({
                    "heredoc": f.heredoc + 1,
                    "line": f.pos.line,
                    "column": f.pos.column,
                    "kind": kind(&f.kind),
                    "rule": analyze::rule_of(&f.kind).id(),
                    "excerpt": f.excerpt,
                })
            })
            .collect();
        json!({
            "verdict": if self.denial.is_some() { "deny" } else { "allow" },
            "rule": self.denial.as_ref().map(|d| d.rule.id()),
            "reason": self.denial.as_ref().map(|d| d.reason.clone()),
            "heredocs": heredocs,
            "findings": findings,
        })
        .to_string()
    }
}
