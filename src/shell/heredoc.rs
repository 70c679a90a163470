//! Heredoc bodies, as `gather_here_documents` and `make_here_document` read them: at
//! the newline token after their operators, one after another, line by line from the
//! input after the current line, until the closing line (or, in bash 5.2+ inside a
//! command substitution, a line that starts with the delimiter and holds the `)`).

use super::input::Here;
use super::lexer::{Pending, R, Reader};
use super::syntax::{PST_EOFTOKEN, quote_removal};
use super::text::{Builder, Text};
use super::{Exec, Heredoc, Run};

/// A piece of an unquoted heredoc's document: bytes of the stream, or a joined line.
enum Part {
    Stream(usize, usize),
    Owned(Text<'static>),
}

/// The document an unquoted heredoc expands: one slice of the stream when its lines came
/// from there in a row (tabs a `<<-` strips change nothing a substitution needs), else the
/// pieces put together.
fn document<'t>(stream: &'t Text<'_>, parts: Vec<Part>, end: u32) -> Text<'t> {
    let in_a_row = parts
        .windows(2)
        .all(|w| matches!(w, [Part::Stream(_, a), Part::Stream(b, _)] if a == b));
    match (parts.first(), parts.last()) {
        (None, _) => Builder::default().finish(end),
        (Some(Part::Stream(s, _)), Some(Part::Stream(_, e))) if in_a_row => stream.view(*s, *e),
        _ => {
            let mut b = Builder::default();
            for part in &parts {
                match part {
                    Part::Stream(s, e) => b.push_text(stream, *s, *e),
                    Part::Owned(t) => b.push_text(t, 0, t.len()),
                }
            }
            b.finish(end)
        }
    }
}

/// What the scan of an unquoted body found: what the judge evaluates, the
/// substitutions that run, and the scan's steps (for the meter).
#[derive(Debug)]
pub(crate) struct BodyScan {
    pub(crate) eval: std::rc::Rc<super::word::BodyExpansions>,
    pub(crate) found: Vec<(u32, u32, super::SubstKind)>,
    pub(crate) steps: usize,
}

/// The unquoted bodies the readings of one command scanned, by where the body starts and
/// its length, each with its text (a scan is reused only for the same bytes from the
/// same offsets). One `Bodies` serves one command ([`Bodies::serves`]).
#[derive(Debug, Default)]
pub(crate) struct Bodies {
    /// The command served: its address and length.
    command: std::cell::Cell<Option<(usize, usize)>>,
    scanned: std::cell::RefCell<rustc_hash::FxHashMap<(u32, usize), Vec<Scanned>>>,
    /// The bytes of the texts kept.
    bytes: std::cell::Cell<usize>,
}

type Scanned = (Kept, std::rc::Rc<BodyScan>);

/// The text a kept scan was made from: a part of the checked command, whose offsets say
/// its bytes (nothing to copy), or a copy of the text.
#[derive(Debug)]
enum Kept {
    Command(u32, u32),
    Copy(Text<'static>),
}

impl Kept {
    /// Whether `document` is this text: the same bytes from the same offsets.
    fn is(&self, document: &Text<'_>) -> bool {
        match self {
            Kept::Command(start, end) => document.command_span() == Some((*start, *end)),
            Kept::Copy(text) => text.same(document),
        }
    }
}

/// The most body text [`Bodies`] keeps (twice the largest command the guard reads, 1 MiB):
/// past it, a body is scanned by every reading.
pub(crate) const MAX_KEPT_BODY_BYTES: usize = 2 * 1024 * 1024;

impl Bodies {
    /// Whether these bodies serve `command` (the first command asked about is served):
    /// only then may its text be read as [`Text::checked_command`], whose parts are known
    /// by their offsets. The readings that share one `Bodies` borrow the same command for
    /// its whole life, so its bytes cannot change under it.
    pub(crate) fn serves(&self, command: &[u8]) -> bool {
        let this = (command.as_ptr() as usize, command.len());
        match self.command.get() {
            None => {
                self.command.set(Some(this));
                true
            }
            Some(served) => served == this,
        }
    }

    /// The bytes of body text copied to be kept (a part of the checked command is kept by
    /// its offsets).
    #[cfg(test)]
    pub(crate) fn kept_bytes(&self) -> usize {
        self.bytes.get()
    }

    /// The scan of `document`: another reading's, when it scanned the same text.
    pub(crate) fn scan(&self, document: Text<'_>) -> std::rc::Rc<BodyScan> {
        let key = (document.origin(0), document.len());
        if let Some(seen) = self.scanned.borrow().get(&key)
            && let Some((_, scan)) = seen.iter().find(|(kept, _)| kept.is(&document))
        {
            return std::rc::Rc::clone(scan);
        }
        let (found, steps) = super::expand::body_substitutions_counted(&document);
        let scan = std::rc::Rc::new(BodyScan {
            eval: std::rc::Rc::new(super::word::document(&document, &())),
            found,
            steps,
        });
        let kept = match document.command_span() {
            Some((start, end)) => Some(Kept::Command(start, end)),
            None => {
                let bytes = self.bytes.get().saturating_add(document.len());
                (bytes <= MAX_KEPT_BODY_BYTES).then(|| {
                    self.bytes.set(bytes);
                    Kept::Copy(document.into_owned())
                })
            }
        };
        if let Some(kept) = kept {
            self.scanned
                .borrow_mut()
                .entry(key)
                .or_default()
                .push((kept, std::rc::Rc::clone(&scan)));
        }
        scan
    }
}

/// The document with backslash-newline pairs removed (the intended reading reads
/// physical lines; what it expands is still joined).
pub(crate) fn join_lines(doc: Text<'_>) -> Text<'_> {
    let bytes = doc.bytes();
    if crate::search::find(bytes, b"\\\n").is_none() {
        return doc;
    }
    // Text between backslashes is copied a run at a time (not a byte and a lookup of its
    // origin at a time).
    let mut b = Builder::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let Some(off) = memchr::memchr(b'\\', &bytes[i..]) else {
            b.push_text(&doc, i, bytes.len());
            break;
        };
        b.push_text(&doc, i, i + off);
        i += off;
        if bytes.get(i + 1) == Some(&b'\n') {
            // A backslash-newline pair: gone.
        } else {
            // A backslash keeps the character after it.
            b.push_text(&doc, i, (i + 2).min(bytes.len()));
        }
        i += 2;
    }
    b.finish(doc.origin(bytes.len()))
}

impl Reader<'_, '_> {
    /// `gather_here_documents`: reads the bodies of every pending heredoc, in order.
    pub fn gather_here_documents(&mut self) -> R<()> {
        let pending = std::mem::take(&mut self.need_here_doc);
        for p in pending {
            self.make_here_document(p)?;
        }
        Ok(())
    }

    /// `make_here_document`.
    fn make_here_document(&mut self, p: Pending) -> R<()> {
        if self.out.heredocs.len() >= super::MAX_HEREDOCS {
            return Err(self.limit(super::Stop::Heredocs));
        }
        // zsh strips the closing word's tabs (`<<-`): asked only then.
        let zsh = p.strip_tabs && self.d.zsh();
        let unquoted = !p.word.quoted;
        let word = p.word.text.bytes();
        // Quote removal on an unquoted word changes nothing unless it holds a backslash or
        // a quote: asked only then.
        let removed = quote_removal(word);
        let mut closing = if unquoted && removed != word && !self.d.always_quote_removal() {
            word.to_vec()
        } else {
            removed
        };
        if zsh && p.strip_tabs {
            let n = closing.iter().take_while(|&&c| c == b'\t').count();
            closing.drain(..n);
        }
        // Asked only where it decides: an unquoted body's lines, or a line whose bytes
        // are not contiguous in the command.
        let probe = self.d.clone();
        let physical_cell = std::cell::OnceCell::new();
        let physical = || *physical_cell.get_or_init(|| !probe.joins_closer());
        let eof_token = (self.parser_state & PST_EOFTOKEN != 0 && self.shell_eof_token != 0)
            .then_some(self.shell_eof_token);
        let early_end_rule = eof_token.is_some() && self.d.early_end();
        let intended_paren_end = eof_token.is_some() && self.d.paren_ends_heredoc();
        let stream = std::rc::Rc::clone(self.input.stream_rc());
        let mut parts: Vec<Part> = Vec::new();
        let body_start = self.input.next_line_origin();
        let mut body_end = body_start;
        let mut closer = None;
        let mut early_end = false;
        while let Some(here) = self.input.next_here(|| unquoted && !physical()) {
            let line_start = match &here {
                Here::Stream { start, .. } => stream.origin(*start),
                Here::Owned(h) => h.text.origin(0),
            };
            // The line's text (no newline), its end, and whether it stands in the command
            // as it is (the intended reading closes only on such lines).
            let (text, owned, at_eof, line_end) = match &here {
                Here::Stream { start, end, at_eof } => (
                    &stream.bytes()[*start..*end],
                    None,
                    *at_eof,
                    stream.origin(*end) + 1,
                ),
                Here::Owned(h) => {
                    let b = h.text.bytes();
                    let content = b.strip_suffix(b"\n").unwrap_or(b);
                    (content, Some(&h.text), h.at_eof, h.text.origin(b.len()))
                }
            };
            let contiguous = |from: usize| {
                let as_written = match (&here, owned) {
                    (Here::Stream { start, end, .. }, _) => stream.contiguous(start + from, *end),
                    (_, Some(t)) => t.contiguous(from, text.len()),
                    _ => true,
                };
                as_written || !physical()
            };
            let mut off = 0;
            if p.strip_tabs {
                if !zsh && text == closing.as_slice() && contiguous(0) {
                    closer = Some((line_start, line_end));
                    break;
                }
                off = text.iter().take_while(|&&c| c == b'\t').count();
            }
            let rest = &text[off..];
            if rest == closing.as_slice() && contiguous(off) {
                closer = Some((line_start, line_end));
                break;
            }
            if let Some(eof) = eof_token.filter(|_| rest.starts_with(&closing)) {
                let after = &rest[closing.len()..];
                let blanks = after
                    .iter()
                    .take_while(|&&c| c == b' ' || c == b'\t')
                    .count();
                let ends = (early_end_rule && after.contains(&eof))
                    || (intended_paren_end && after.get(blanks) == Some(&eof) && contiguous(off));
                if ends {
                    let line = match (&here, owned) {
                        (Here::Stream { start, end, .. }, _) => {
                            let to = if at_eof { *end } else { end + 1 };
                            stream.slice(*start, to)
                        }
                        (_, Some(t)) => (*t).clone(),
                        _ => stream.slice(0, 0),
                    };
                    self.early_end_here(&line, off + closing.len(), line_start, &mut closer);
                    early_end = true;
                    break;
                }
            }
            if unquoted {
                match (&here, owned) {
                    (Here::Stream { start, end, at_eof }, _) => {
                        let to = if *at_eof { *end } else { end + 1 };
                        // Lines that follow each other in the stream make one part.
                        match parts.last_mut() {
                            Some(Part::Stream(_, last_end)) if *last_end == *start => {
                                *last_end = to;
                            }
                            _ => parts.push(Part::Stream(*start, to)),
                        }
                    }
                    (_, Some(t)) => parts.push(Part::Owned((*t).clone())),
                    _ => {}
                }
            }
            body_end = line_end;
            if at_eof {
                break;
            }
        }
        let index = self.out.heredocs.len();
        let mut body_eval = std::rc::Rc::default();
        if unquoted {
            let document = document(&stream, parts, body_end);
            // Joining changes only a document with a backslash-newline in it.
            let document = if crate::search::find(document.bytes(), b"\\\n").is_some() && physical()
            {
                join_lines(document)
            } else {
                document
            };
            let len = document.len();
            let scan = std::rc::Rc::clone(&self.out.bodies).scan(document);
            body_eval = std::rc::Rc::clone(&scan.eval);
            let (found, steps) = (&scan.found, scan.steps);
            // The scan's work: its steps and its bytes (the lines were charged as read),
            // whether this reading scanned it or another one did.
            self.spend(steps / 2 + super::bulk_work(len))?;
            self.out.runs_cut |= found.len() > super::MAX_BODY_SUBSTITUTIONS;
            for &(at, end, kind) in found.iter().take(super::MAX_BODY_SUBSTITUTIONS) {
                self.out.exec.push(Exec {
                    at,
                    end,
                    what: Run::Subst(kind),
                    // (Fewer than `MAX_HEREDOCS`, which fits: the reader stops at that
                    // many. Out of range it would still count as in a body.)
                    in_body: Some(u32::try_from(index).unwrap_or(u32::MAX)),
                });
            }
        }
        let body_end = closer.map_or(body_end, |(s, _)| s.max(body_start));
        self.out.heredocs.push(Heredoc {
            op: p.op,
            strip_tabs: p.strip_tabs,
            word: (p.word.start, p.word.end),
            quoted: !unquoted,
            ansi_c: p.word.ansi_c,
            word_has_expansion: p.word.expansion,
            closing,
            body: (body_start, body_end.max(body_start)),
            closer,
            early_end,
            context: self.context,
            body_eval,
        });
        self.out.features.heredoc = true;
        Ok(())
    }

    /// The heredoc ends inside this line: the delimiter closes it, the rest of the line
    /// (from byte `from`) is read again as code.
    fn early_end_here(
        &mut self,
        line: &Text<'static>,
        from: usize,
        line_start: u32,
        closer: &mut Option<(u32, u32)>,
    ) {
        let rest = line.slice(from, line.len());
        *closer = Some((line_start, line.origin(from)));
        self.input.ungets(rest);
    }
}
