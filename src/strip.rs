//! `strip`: the command with every heredoc body that is data removed, for other guards
//! that scan a command for forbidden phrases and must see only what the shell executes.
//!
//! Quoted bodies are blanked; unquoted bodies are reduced to the substitutions in them
//! (those run). Everything outside heredoc bodies is kept byte for byte, closing lines
//! included. When the command cannot be read exactly (it cannot be read, or a shell reads
//! its heredocs differently from how they appear), `strip` gives an error, and the caller
//! must scan the whole command.

use crate::check;
use crate::report::FindingKind;
use crate::verdict::Denial;

/// Why a command could not be stripped.
#[derive(Debug)]
pub enum StripError {
    /// The guard could not read the command (its deny says why).
    Unreadable(Denial),
    /// A shell would end a heredoc elsewhere, or the command changes how it is read.
    UncertainBoundary,
}

impl std::fmt::Display for StripError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StripError::Unreadable(d) => write!(f, "{}", d.reason),
            StripError::UncertainBoundary => write!(
                f,
                "a heredoc's end is uncertain (a shell would read it differently); scan the whole command"
            ),
        }
    }
}

/// Removes heredoc bodies that are data from `command`.
pub fn strip(command: &str) -> Result<String, StripError> {
    let report = check::inspect(command).map_err(StripError::Unreadable)?;
    if report.runs_cut
        || report
            .findings
            .iter()
            .any(|f| !matches!(f.kind, FindingKind::Substitution(_)))
    {
        return Err(StripError::UncertainBoundary);
    }
    let mut cuts: Vec<(usize, usize, String)> = report
        .heredocs
        .iter()
        .map(|h| {
            let keep = h
                .runs
                .iter()
                .filter_map(|&(s, e)| command.get(s..e))
                .map(|s| format!("{s}\n"))
                .collect::<String>();
            (h.body.0, h.body.1, keep)
        })
        .collect();
    cuts.sort_by_key(|c| c.0);
    let mut out = String::with_capacity(command.len());
    let mut at = 0;
    for (start, end, keep) in cuts {
        if start < at {
            // A heredoc inside another's body (or one read twice): already cut.
            continue;
        }
        out.push_str(
            command
                .get(at..start)
                .ok_or(StripError::UncertainBoundary)?,
        );
        out.push_str(&keep);
        at = end;
    }
    out.push_str(command.get(at..).ok_or(StripError::UncertainBoundary)?);
    Ok(out)
}
