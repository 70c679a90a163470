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
    /// A substitution in an unquoted body cannot be shown whole: its end depends on the
    /// shell (a comment, a `case` or a heredoc inside it), it does not close, it is text a
    /// shell expands again later, or its bytes split a character.
    NotWhole,
}

impl std::fmt::Display for StripError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StripError::Unreadable(d) => write!(f, "{}", d.reason),
            StripError::UncertainBoundary => write!(
                f,
                "a heredoc's end is uncertain (a shell would read it differently); scan the whole command"
            ),
            StripError::NotWhole => write!(
                f,
                "a substitution in a heredoc body cannot be shown whole (its end depends on the shell, or it is expanded again later); scan the whole command"
            ),
        }
    }
}

/// Removes heredoc bodies that are data from `command`.
pub fn strip(command: &str) -> Result<String, StripError> {
    let cuts = cuts(command)?;
    let mut out = String::with_capacity(command.len());
    let mut at = 0;
    for cut in cuts {
        out.push_str(
            command
                .get(at..cut.body.0)
                .ok_or(StripError::UncertainBoundary)?,
        );
        for &(s, e) in &cut.runs {
            out.push_str(command.get(s..e).ok_or(StripError::NotWhole)?);
            out.push('\n');
        }
        at = cut.body.1;
    }
    out.push_str(command.get(at..).ok_or(StripError::UncertainBoundary)?);
    Ok(out)
}

/// One body `strip` removes: its byte range, and the runs it prints in its place, each
/// the whole substitution a shell runs (command byte ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub body: (usize, usize),
    pub runs: Vec<(usize, usize)>,
}

/// The bodies `strip` removes, in order, with what it prints for each: every substitution
/// the body runs, whole (a `$((…) )` that a shell runs as a command through its last `)`),
/// or an error when one cannot be shown whole. Never a run cut short or left out.
pub fn cuts(command: &str) -> Result<Vec<Cut>, StripError> {
    let report = check::inspect(command).map_err(StripError::Unreadable)?;
    if report.runs_cut
        || report
            .findings
            .iter()
            .any(|f| !matches!(f.kind, FindingKind::Substitution(_)))
    {
        return Err(StripError::UncertainBoundary);
    }
    let bytes = command.as_bytes();
    let mut bodies: Vec<&crate::report::Heredoc> = report.heredocs.iter().collect();
    bodies.sort_by_key(|h| h.body.0);
    let mut cuts: Vec<Cut> = Vec::new();
    for h in bodies {
        let ((start, end), found) = (h.body, &h.runs);
        if cuts.last().is_some_and(|c| start < c.body.1) {
            // A heredoc inside another's body (or one read twice): already cut.
            continue;
        }
        let body = bytes.get(..end).ok_or(StripError::NotWhole)?;
        let mut runs: Vec<(usize, usize)> = Vec::with_capacity(found.len());
        let mut found: Vec<usize> = found.iter().map(|&(s, _)| s).collect();
        found.sort_unstable();
        for s in found {
            if runs.last().is_some_and(|&(_, e)| s < e) {
                // Inside the run before it (a substitution nested in one), shown with it.
                continue;
            }
            let e = crate::shell::whole_run(body, s).ok_or(StripError::NotWhole)?;
            if command.get(s..e).is_none() || s < start {
                return Err(StripError::NotWhole);
            }
            runs.push((s, e));
        }
        cuts.push(Cut {
            body: (start, end),
            runs,
        });
    }
    Ok(cuts)
}
