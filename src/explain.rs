//! `explain`: what the guard sees in a command, for a person (text, coloured on a
//! terminal) or a script (`--json`): each heredoc, each finding, and the verdict with its
//! rule.

use serde_json::json;

use crate::check;
use crate::reason;
use crate::report::{FindingKind, Report};
use crate::shell::Context;
use crate::verdict::Denial;

/// What `explain` found: the report (when the command could be read) and the deny.
pub struct Explanation {
    pub report: Report,
    pub denial: Option<Denial>,
}

/// Analyses a command the way the hook does.
pub fn explain(command: &str) -> Explanation {
    match check::inspect_guarded(command) {
        Ok(report) => {
            let denial = check::verdict_for(&report).into_denial();
            Explanation { report, denial }
        }
        Err(denial) => Explanation {
            report: Report::default(),
            denial: Some(denial),
        },
    }
}

fn context(c: Context) -> &'static str {
    match c {
        Context::TopLevel => "top level",
        Context::Substitution => "inside $(...), <(...) or ${ ...; }",
        Context::Backquote => "inside backquotes",
        Context::Reread => "in text bash reads twice",
    }
}

fn kind(k: &FindingKind) -> String {
    match k {
        FindingKind::Substitution(s) => s.describe().to_owned(),
        FindingKind::Boundary => "heredoc text read as code".to_owned(),
        FindingKind::AnsiCDelimiter => "ANSI-C/locale quoted delimiter".to_owned(),
        FindingKind::DelimiterExpansion => "delimiter holding an expansion".to_owned(),
        FindingKind::ReadingOption(what) => {
            format!("{what} (changes how a later heredoc is read)")
        }
        FindingKind::Unfollowed(what) => (*what).to_owned(),
        FindingKind::Evaluation {
            evaluator,
            what,
            unknown,
            in_body,
        } => format!(
            "{} reaches {what}{}, which {}",
            if *unknown {
                "run-time text (may be heredoc text)"
            } else {
                "heredoc text"
            },
            if *in_body { " in an unquoted body" } else { "" },
            evaluator.does()
        ),
        FindingKind::Unread(what) => (*what).to_owned(),
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
                "heredoc {} at {}:{}: {}{} ({}, {}{}{})\n",
                i + 1,
                h.opener.line,
                h.opener.column,
                if h.strip_tabs { "<<-" } else { "<<" },
                crate::verdict::clip(&h.written, 80),
                if h.ansi_c {
                    "ansi-c quoted"
                } else if h.quoted {
                    "quoted"
                } else {
                    "unquoted"
                },
                if h.strip_tabs { "strips tabs, " } else { "" },
                context(h.context),
                if h.closer.is_none() {
                    ", no closing line: the body ends where the text it is in ends"
                } else {
                    ""
                }
            ));
            if let Some(k) = self.report.clean.as_ref().and_then(|c| c.kept().get(i)) {
                out.push_str(&format!("  stays data: {}\n", k.says()));
            }
            for f in self.report.findings.iter().filter(|f| f.heredoc == Some(i)) {
                out.push_str(&format!(
                    "  {}:{}: {}: {}\n",
                    f.pos.line,
                    f.pos.column,
                    kind(&f.kind),
                    crate::verdict::clip(&f.excerpt, 60)
                ));
            }
        }
        for f in self.report.findings.iter().filter(|f| f.heredoc.is_none()) {
            out.push_str(&format!(
                "{}:{}: {}: {}\n",
                f.pos.line,
                f.pos.column,
                kind(&f.kind),
                crate::verdict::clip(&f.excerpt, 60)
            ));
        }
        match &self.denial {
            None => {
                out.push_str(&format!("verdict: {}\n", paint("32", "allow")));
                if let Some(c) = &self.report.clean {
                    out.push_str(&format!("why: {}\n", c.why().says()));
                }
            }
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
            .enumerate()
            .map(|(i, h)| {
                json!({
                    "stays_data": self.report.clean.as_ref().and_then(|c| c.kept().get(i)).map(|k| k.id()),
                    "line": h.opener.line,
                    "column": h.opener.column,
                    "delimiter": h.written,
                    "closing_line": h.closing,
                    "quoting": if h.ansi_c { "ansi-c quoted" } else if h.quoted { "quoted" } else { "unquoted" },
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
                    "heredoc": f.heredoc.map(|i| i + 1),
                    "evaluator": match &f.kind {
                        FindingKind::Evaluation { evaluator, .. } => Some(evaluator.id()),
                        _ => None,
                    },
                    "line": f.pos.line,
                    "column": f.pos.column,
                    "kind": kind(&f.kind),
                    "rule": reason::rule_of(&f.kind).id(),
                    "excerpt": f.excerpt,
                    "shells": f.shells.iter().map(|s| s.name()).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "verdict": if self.denial.is_some() { "deny" } else { "allow" },
            "rule": self.denial.as_ref().map(|d| d.rule.id()),
            "reason": self.denial.as_ref().map(|d| d.reason.clone()),
            "why": self.report.clean.as_ref().filter(|_| self.denial.is_none()).map(|c| c.why().id()),
            "heredocs": heredocs,
            "findings": findings,
        })
        .to_string()
    }
}
