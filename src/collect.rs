//! Finding every heredoc in a command: the parse of the outer program, then of every
//! program nested in its words (`$(…)`, backquotes), with positions mapped back to the
//! whole command (and byte ranges of bodies, for `strip`).

use std::rc::Rc;

use crate::analyze::{Context, Heredoc};
use crate::delimiter::Delimiter;
use crate::limits::{self, Limit};
use crate::reason::{clip, limit_denial, parse_denial};
use crate::shell::{self, Oracle, Pos};
use crate::verdict::{Denial, Rule};
use crate::words::{self, InnerKind, ScanError};

/// Where a parsed text starts in the whole command.
#[derive(Clone, Copy, Debug)]
pub struct Origin {
    line: usize,
    column: usize,
}

impl Origin {
    pub const START: Origin = Origin { line: 1, column: 1 };

    /// A position in the parsed text, as a position in the whole command.
    fn map(self, p: Pos) -> Pos {
        if p.line <= 1 {
            Pos {
                line: self.line,
                column: self.column + p.column.saturating_sub(1),
            }
        } else {
            Pos {
                line: self.line + p.line - 1,
                column: p.column,
            }
        }
    }

    /// The origin of text that starts `prefix` further on.
    fn advance(self, prefix: &str) -> Origin {
        match prefix.rfind('\n') {
            None => Origin {
                line: self.line,
                column: self.column + prefix.chars().count(),
            },
            Some(nl) => Origin {
                line: self.line + prefix.matches('\n').count(),
                column: 1 + prefix[nl + 1..].chars().count(),
            },
        }
    }
}

/// Nested programs deeper than this are not followed (the byte-level nesting limit
/// normally stops such commands first).
const MAX_PROGRAM_DEPTH: usize = 64;

/// The state of one analysis: the oracle's budget, the heredocs found so far, and whether
/// body byte ranges are wanted.
pub struct Walk<'a> {
    pub oracle: &'a mut Oracle,
    pub out: &'a mut Vec<Heredoc>,
    pub spans: bool,
}

/// Where a parsed text sits in the whole command: how an offset in it maps to an offset
/// in the command. `None` where it cannot be mapped (brush's rebuilt words).
#[derive(Clone, Debug)]
pub enum Place {
    /// The text starts at this offset of the command, byte for byte.
    Exact(usize),
    /// The text starts this many bytes into the parent text.
    Shifted(Rc<Place>, usize),
    /// The parent text with backquote escaping removed: (offset, bytes removed) pairs.
    Unescaped(Rc<Place>, Rc<Vec<(usize, usize)>>),
}

impl Place {
    /// The command offset of offset `o` in this text: of the first byte that produced the
    /// character at `o`, escape included.
    pub fn at(&self, o: usize) -> usize {
        match self {
            Place::Exact(b) => b + o,
            Place::Shifted(parent, by) => parent.at(by + o),
            Place::Unescaped(parent, removed) => {
                let shift: usize = removed
                    .iter()
                    .take_while(|(p, _)| *p < o)
                    .map(|(_, n)| n)
                    .sum();
                parent.at(o + shift)
            }
        }
    }

    fn shifted(&self, by: usize) -> Place {
        match self {
            Place::Exact(b) => Place::Exact(b + by),
            other => Place::Shifted(Rc::new(other.clone()), by),
        }
    }
}

/// Character index to byte offset for one parsed text; the table of char starts is built
/// once, on first use, and only for non-ASCII text.
struct CharIndex<'s> {
    text: &'s str,
    ascii: bool,
    starts: std::cell::OnceCell<Vec<usize>>,
}

impl<'s> CharIndex<'s> {
    fn new(text: &'s str) -> Self {
        CharIndex {
            text,
            ascii: text.is_ascii(),
            starts: std::cell::OnceCell::new(),
        }
    }

    /// Byte offset of character `ci`; one past the end is allowed (the parser was given a
    /// final newline the text may not have).
    fn byte(&self, ci: usize) -> Option<usize> {
        if self.ascii {
            return (ci <= self.text.len() + 1).then_some(ci);
        }
        let starts = self.starts.get_or_init(|| {
            let mut v: Vec<usize> = self.text.char_indices().map(|(b, _)| b).collect();
            v.push(self.text.len());
            v.push(self.text.len() + 1);
            v
        });
        starts.get(ci).copied()
    }

    /// The byte range of a character range.
    fn range(&self, (start, end): (usize, usize)) -> Option<(usize, usize)> {
        Some((self.byte(start)?, self.byte(end)?))
    }
}

/// The body part of a heredoc's span (body lines and closing line): all but the last line.
fn body_part(src: &str, (start, end): (usize, usize)) -> Option<(usize, usize)> {
    // The parser saw a final newline that the command may not have.
    let seg = src.get(start..end.min(src.len()))?;
    let without_newline = seg.strip_suffix('\n').unwrap_or(seg);
    Some(match without_newline.rfind('\n') {
        Some(nl) => (start, start + nl + 1),
        None => (start, start),
    })
}

impl Walk<'_> {
    /// Parses `src` and collects its heredocs, following nested programs in its words.
    /// `place` maps offsets in `src` to the whole command, where that is known.
    pub fn collect(
        &mut self,
        src: &str,
        origin: Origin,
        place: Option<Place>,
        context: Context,
        depth: usize,
    ) -> Result<(), Denial> {
        if depth > MAX_PROGRAM_DEPTH {
            return Err(limit_denial(Limit::Nesting));
        }
        let parsed = self.oracle.parse(src).map_err(|f| match ansi_c_delimiter(src) {
            Some(written) => Denial::new(
                Rule::AnsiCDelimiter,
                format!(
                    "heredoc-guard: ANSI-C/locale quoted delimiter <<{}: rewrite it with plain quotes, <<'EOF'.",
                    clip(&written, 40)
                ),
            ),
            None => parse_denial(&f),
        })?;
        let chars = CharIndex::new(src);
        for h in parsed.heredocs {
            if self.out.len() >= limits::MAX_HEREDOCS {
                return Err(limit_denial(Limit::Heredocs));
            }
            let body_span = match (self.spans, &place, h.span_chars) {
                (true, Some(place), Some(span)) => chars
                    .range(span)
                    .and_then(|range| body_part(src, range))
                    .map(|(s, e)| (place.at(s), place.at(e))),
                _ => None,
            };
            let body_origin = origin.map(Pos {
                line: h.body_line,
                column: 1,
            });
            self.out.push(Heredoc {
                delimiter: Delimiter::read(&h.here_end),
                strip_tabs: h.strip_tabs,
                body: h.body,
                opener: origin.map(h.opener),
                body_line: body_origin.line,
                context: if h.in_process_substitution {
                    Context::Substitution
                } else {
                    context
                },
                body_span,
            });
        }
        for word in parsed.words {
            let word_origin = word.pos.map_or(origin, |p| {
                let m = origin.map(p);
                Origin {
                    line: m.line,
                    column: m.column,
                }
            });
            // The word as brush rebuilt it, and as written in the source where brush's
            // location finds it (a word can start one blank early). Brush's rebuild of a
            // nested construct can differ from what bash reads (it strips `<<-` tabs,
            // drops comments); when the two differ, both are inspected.
            let written = word
                .span_chars
                .and_then(|span| chars.range(span))
                .and_then(|(s, e)| {
                    let s = if matches!(src.as_bytes().get(s), Some(b' ' | b'\t')) {
                        s + 1
                    } else {
                        s
                    };
                    src.get(s..e).map(|text| (s, text))
                });
            let same = written.is_some_and(|(_, text)| text == word.text);
            if !same {
                self.word(&word.text, word_origin, None, depth)?;
            }
            if let Some((s, text)) = written.filter(|(_, t)| same || words::may_hold_heredoc(t)) {
                let word_place = place.as_ref().map(|p| p.shifted(s));
                self.word(text, word_origin, word_place, depth)?;
            }
        }
        Ok(())
    }

    /// Follows the programs nested in one word; `place` maps the word to the command.
    fn word(
        &mut self,
        text: &str,
        origin: Origin,
        place: Option<Place>,
        depth: usize,
    ) -> Result<(), Denial> {
        let inners = words::nested_programs(text, self.oracle).map_err(|e| match e {
            ScanError::Budget => limit_denial(Limit::ParseAttempts),
            ScanError::Unterminated(what) => parse_denial(&shell::ParseFailure {
                message: format!("unterminated {what}"),
                cause: "unterminated quote or substitution",
            }),
        })?;
        for inner in inners {
            let inner_origin = origin.advance(&text[..inner.start]);
            if joined_closer(&inner) {
                return Err(Denial::new(
                    Rule::HeredocBoundary,
                    format!(
                        "heredoc-guard: line {}, column {}: inside backquotes, a backslash at a line end joins lines before bash reads the heredoc, and here the joined line closes it; what follows runs as code. Use $(...) instead of backquotes, or remove the trailing backslash.",
                        inner_origin.line, inner_origin.column
                    ),
                ));
            }
            let inner_context = match inner.kind {
                InnerKind::Dollar => Context::Substitution,
                InnerKind::Backquote => Context::Backquote,
            };
            let inner_place = place.as_ref().map(|p| {
                let at_start = p.shifted(inner.start);
                if inner.removed.is_empty() {
                    at_start
                } else {
                    Place::Unescaped(Rc::new(at_start), Rc::new(inner.removed.clone()))
                }
            });
            self.collect(
                &inner.text,
                inner_origin,
                inner_place,
                inner_context,
                depth + 1,
            )?;
        }
        Ok(())
    }
}

/// True when a backslash-newline removed from a backquoted text made a line that closes
/// one of its heredocs: the heredoc then ends where a plain reading says it does not.
fn joined_closer(inner: &words::Inner) -> bool {
    let joins: Vec<usize> = inner
        .removed
        .iter()
        .filter(|(_, n)| *n == 2)
        .map(|(at, _)| *at)
        .collect();
    if joins.is_empty() {
        return false;
    }
    let Ok(parsed) = shell::parse(&inner.text) else {
        return false; // the recursive parse reports the failure
    };
    let closings: Vec<(String, bool)> = parsed
        .heredocs
        .iter()
        .map(|h| (Delimiter::read(&h.here_end).closing, h.strip_tabs))
        .collect();
    joins.into_iter().any(|at| {
        let start = inner.text[..at.min(inner.text.len())]
            .rfind('\n')
            .map_or(0, |p| p + 1);
        let end = inner.text[at.min(inner.text.len())..]
            .find('\n')
            .map_or(inner.text.len(), |p| at + p);
        let line = &inner.text[start..end];
        closings.iter().any(|(closing, tabs)| {
            line == closing || (*tabs && line.trim_start_matches('\t') == closing)
        })
    })
}

/// A `<<$'…'` / `<<$"…"` delimiter word in text the parser rejected (brush waits for a
/// closing line `$EOF` where bash waits for `EOF`, so such a command often fails to parse).
fn ansi_c_delimiter(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let mut i = 0;
    while let Some(at) = src[i..].find("<<") {
        let mut j = i + at + 2;
        if b.get(j) == Some(&b'<') {
            i = j + 1;
            continue;
        }
        if b.get(j) == Some(&b'-') {
            j += 1;
        }
        while matches!(b.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        let end = src[j..]
            .find(|c: char| {
                c.is_ascii_whitespace() || matches!(c, ';' | '|' | '&' | '<' | '>' | '(' | ')')
            })
            .map_or(src.len(), |e| j + e);
        let word = &src[j..end];
        if word.contains("$'") || word.contains("$\"") {
            return Some(word.to_owned());
        }
        i = end.max(j + 1).min(src.len());
    }
    None
}
