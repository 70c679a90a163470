//! What doctor found, and how it is shown: each check with a stable id, a status (pass,
//! warn, fail, note), where it looked, what it found and the command that fixes it; as text
//! (problems last, each with what to try) or as JSON ([`SCHEMA_VERSION`]).

use std::io::Write;

use serde_json::{Value, json};

/// The version of `doctor --json`'s shape; raised when a field changes meaning or goes.
pub const SCHEMA_VERSION: u32 = 1;

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    /// Guarded, but something is worth changing (a hook that runs twice).
    Warn,
    /// Commands may run unguarded: doctor exits 1.
    Fail,
    /// Information (an agent not used here).
    Note,
}

impl Status {
    pub fn id(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::Note => "note",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Status::Pass => "ok  ",
            Status::Warn => "WARN",
            Status::Fail => "FAIL",
            Status::Note => "note",
        }
    }
}

/// One check.
#[derive(Clone, Debug)]
pub struct Check {
    /// Stable id, such as `claude.hook.matcher`: the same check has the same id in every
    /// release.
    pub id: &'static str,
    pub status: Status,
    /// The settings file, plugin or hook the check is about, when it is about one.
    pub place: Option<String>,
    pub text: String,
    /// What to run or do to fix a failed (or warned) check.
    pub fix: Option<String>,
}

impl Check {
    pub fn pass(id: &'static str, text: impl Into<String>) -> Check {
        Check {
            id,
            status: Status::Pass,
            place: None,
            text: text.into(),
            fix: None,
        }
    }

    pub fn fail(id: &'static str, text: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            id,
            status: Status::Fail,
            place: None,
            text: text.into(),
            fix: Some(fix.into()),
        }
    }

    pub fn warn(id: &'static str, text: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            status: Status::Warn,
            ..Check::fail(id, text, fix)
        }
    }

    pub fn note(id: &'static str, text: impl Into<String>) -> Check {
        Check {
            status: Status::Note,
            ..Check::pass(id, text)
        }
    }

    /// The same check, about `place` (shown before the text).
    pub fn at(mut self, place: &str) -> Check {
        self.place = Some(place.to_owned());
        self
    }

    fn shown(&self) -> String {
        match &self.place {
            Some(p) => format!("{p}: {}", self.text),
            None => self.text.clone(),
        }
    }
}

/// The checks of one agent (or of the ledger).
#[derive(Clone, Debug)]
pub struct Section {
    /// Short name: `claude`, `codex`, `ledger`, `agents`.
    pub name: String,
    /// The heading shown above the checks (binary, version).
    pub title: String,
    pub checks: Vec<Check>,
    /// True when this agent is set up here (false: only a note that it is not used).
    pub used: bool,
}

/// Everything doctor found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub sections: Vec<Section>,
    /// Gaps no hook can close, said once.
    pub notes: Vec<String>,
}

impl Report {
    fn with(&self, status: Status) -> Vec<(&str, &Check)> {
        self.sections
            .iter()
            .flat_map(|s| {
                s.checks
                    .iter()
                    .filter(move |c| c.status == status)
                    .map(move |c| (s.name.as_str(), c))
            })
            .collect()
    }

    /// The failed checks, with the section they belong to.
    pub fn problems(&self) -> Vec<(&str, &Check)> {
        self.with(Status::Fail)
    }

    pub fn to_json(&self) -> Value {
        let sections: Vec<Value> = self
            .sections
            .iter()
            .map(|s| {
                let checks: Vec<Value> = s
                    .checks
                    .iter()
                    .map(|c| {
                        json!({"id": c.id, "status": c.status.id(), "ok": c.status != Status::Fail,
                            "where": c.place, "check": c.text, "fix": c.fix})
                    })
                    .collect();
                json!({"name": s.name, "title": s.title, "used": s.used, "checks": checks})
            })
            .collect();
        json!({
            "schema_version": SCHEMA_VERSION,
            "ok": self.problems().is_empty(),
            "problems": self.problems().len(),
            "warnings": self.with(Status::Warn).len(),
            "sections": sections,
            "not_covered": self.notes,
        })
    }

    pub fn print_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for s in &self.sections {
            writeln!(out, "{}", s.title)?;
            for c in &s.checks {
                writeln!(out, "  {}  {}", c.status.label(), c.shown())?;
            }
        }
        if !self.notes.is_empty() {
            writeln!(out, "\nNot covered by any hook:")?;
            for n in &self.notes {
                writeln!(out, "  - {n}")?;
            }
        }
        let warnings = self.with(Status::Warn);
        if !warnings.is_empty() {
            writeln!(out, "\nWorth a look:")?;
            for (section, c) in &warnings {
                writeln!(out, "  Warning: {section}: {}", c.shown())?;
                if let Some(fix) = &c.fix {
                    writeln!(out, "    Try: {fix}")?;
                }
            }
        }
        let problems = self.problems();
        if problems.is_empty() {
            let agents: Vec<&str> = self
                .sections
                .iter()
                .filter(|s| s.used && s.name != "ledger" && s.name != "agents")
                .map(|s| s.name.as_str())
                .collect();
            writeln!(
                out,
                "\nAll checks passed: heredoc-guard guards {}.",
                agents.join(" and ")
            )?;
        } else {
            writeln!(
                out,
                "\n{} problem{} leave{} commands unguarded:",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" },
                if problems.len() == 1 { "s" } else { "" }
            )?;
            for (section, c) in problems {
                writeln!(out, "  Error: {section}: {}", c.shown())?;
                if let Some(fix) = &c.fix {
                    writeln!(out, "    Try: {fix}")?;
                }
            }
        }
        Ok(())
    }
}
