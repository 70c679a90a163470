//! `strip`: the command with every heredoc body that is data removed, for other guards
//! that scan a command for forbidden phrases and must see only what the shell executes.
//!
//! Quoted bodies are blanked; unquoted bodies are reduced to the substitutions in them
//! (those run). Everything outside heredoc bodies is kept byte for byte, closing lines
//! included. When the command cannot be read exactly (a parse failure, a limit, a body
//! whose end bash reads differently, a body that cannot be mapped back to the source),
//! `strip` gives an error, and the caller must scan the whole command.

use crate::analyze::{self, FindingKind};
use crate::body;
use crate::delimiter::Quoting;
use crate::prefilter;
use crate::verdict::Denial;

/// Why a command could not be stripped.
#[derive(Debug)]
pub enum StripError {
    /// The guard could not read the command (its deny says why).
    Unreadable(Denial),
    /// Where bash ends a heredoc differs from the plain reading, or an ANSI-C delimiter.
    UncertainBoundary,
    /// A heredoc body could not be mapped back to the command's bytes.
    Unmapped,
}

impl std::fmt::Display for StripError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StripError::Unreadable(d) => write!(f, "{}", d.reason),
            StripError::UncertainBoundary => write!(
                f,
                "a heredoc's end is uncertain (bash would read it differently); scan the whole command"
            ),
            StripError::Unmapped => write!(
                f,
                "a heredoc body could not be mapped back to the command; scan the whole command"
            ),
        }
    }
}

/// Removes heredoc bodies that are data from `command`.
pub fn strip(command: &str) -> Result<String, StripError> {
    if !prefilter::has_heredoc_operator(command.as_bytes()) {
        return Ok(command.to_owned());
    }
    let report = analyze::inspect_with_spans(command).map_err(StripError::Unreadable)?;
    if report.findings.iter().any(|f| {
        matches!(
            f.kind,
            FindingKind::Boundary(_) | FindingKind::AnsiCDelimiter
        )
    }) {
        return Err(StripError::UncertainBoundary);
    }
    let mut cuts = Vec::with_capacity(report.heredocs.len());
    for h in &report.heredocs {
        // A heredoc read twice (from brush's rebuilt word and from the source) is cut
        // once, where the source reading maps it.
        let Some((start, end)) = h.body_span else {
            let mapped_twin = report.heredocs.iter().any(|o| {
                o.opener == h.opener && o.delimiter == h.delimiter && o.body_span.is_some()
            });
            if mapped_twin {
                continue;
            }
            return Err(StripError::Unmapped);
        };
        let keep = match h.delimiter.quoting {
            Quoting::Unquoted => body::substitutions(&h.body)
                .iter()
                .map(|s| format!("{}\n", &h.body[s.start..s.end]))
                .collect(),
            Quoting::Quoted | Quoting::AnsiC => String::new(),
        };
        cuts.push((start, end, keep));
    }
    cuts.sort_by_key(|c| c.0);
    let mut out = String::with_capacity(command.len());
    let mut at = 0;
    for (start, end, keep) in cuts {
        if start < at || end > command.len() {
            return Err(StripError::Unmapped);
        }
        out.push_str(command.get(at..start).ok_or(StripError::Unmapped)?);
        out.push_str(&keep);
        at = end;
    }
    out.push_str(command.get(at..).ok_or(StripError::Unmapped)?);
    Ok(out)
}
