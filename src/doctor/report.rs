//! What doctor found, and how it is shown: each check passed or failed with the command
//! that fixes it; as text (problems last, each with what to try) or as JSON.

use std::io::Write;

use serde_json::{Value, json};

/// One check.
#[derive(Clone, Debug)]
pub struct Check {
    pub ok: bool,
    pub text: String,
    /// What to run or do to fix a failed check.
    pub fix: Option<String>,
}

impl Check {
    pub fn pass(text: impl Into<String>) -> Check {
        Check {
            ok: true,
            text: text.into(),
            fix: None,
        }
    }

    pub fn fail(text: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            ok: false,
            text: text.into(),
            fix: Some(fix.into()),
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
}

/// Everything doctor found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub sections: Vec<Section>,
    /// Gaps no hook can close, said once.
    pub notes: Vec<String>,
}

impl Report {
    /// The failed checks, with the section they belong to.
    pub fn problems(&self) -> Vec<(&str, &Check)> {
        self.sections
            .iter()
            .flat_map(|s| {
                s.checks
                    .iter()
                    .filter(|c| !c.ok)
                    .map(move |c| (s.name.as_str(), c))
            })
            .collect()
    }

    pub fn to_json(&self) -> Value {
        let sections: Vec<Value> = self
            .sections
            .iter()
            .map(|s| {
                let checks: Vec<Value> = s
                    .checks
                    .iter()
                    .map(|c| json!({"ok": c.ok, "check": c.text, "fix": c.fix}))
                    .collect();
                json!({"name": s.name, "title": s.title, "checks": checks})
            })
            .collect();
        json!({
            "ok": self.problems().is_empty(),
            "problems": self.problems().len(),
            "sections": sections,
            "notes": self.notes,
        })
    }

    pub fn print_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for s in &self.sections {
            writeln!(out, "{}", s.title)?;
            for c in &s.checks {
                writeln!(out, "  {}  {}", if c.ok { "ok  " } else { "FAIL" }, c.text)?;
            }
        }
        if !self.notes.is_empty() {
            writeln!(out, "\nNot covered by any hook:")?;
            for n in &self.notes {
                writeln!(out, "  - {n}")?;
            }
        }
        let problems = self.problems();
        if problems.is_empty() {
            let agents: Vec<&str> = self
                .sections
                .iter()
                .map(|s| s.name.as_str())
                .filter(|n| *n == "claude" || *n == "codex")
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
                writeln!(out, "  Error: {section}: {}", c.text)?;
                if let Some(fix) = &c.fix {
                    writeln!(out, "    Try: {fix}")?;
                }
            }
        }
        Ok(())
    }
}
