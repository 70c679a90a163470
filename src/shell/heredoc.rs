//! Heredoc bodies, as `gather_here_documents` and `make_here_document` read them: at
//! the newline token after their operators, one after another, line by line from the
//! input after the current line, until the closing line (or, in bash 5.2+ inside a
//! command substitution, a line that starts with the delimiter and holds the `)`).

use super::lexer::{PST_EOFTOKEN, Pending, R, Reader};
use super::text::{Builder, Text};
use super::{Exec, Heredoc, Run, Shell};

/// Quote removal on a delimiter word, as `string_quote_removal` does it: quotes go,
/// a backslash keeps the character after it (inside double quotes only before `$`, `` ` ``,
/// `"`, `\` and newline); `$'…'` and `$"…"` lose their `$`.
pub fn quote_removal(word: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(word.len());
    let mut i = 0;
    while let Some(&c) = word.get(i) {
        match c {
            b'\\' => {
                if let Some(&n) = word.get(i + 1) {
                    if n != b'\n' {
                        out.push(n);
                    }
                    i += 2;
                } else {
                    i += 1;
                }
            }
            b'\'' => {
                i += 1;
                while let Some(&q) = word.get(i) {
                    i += 1;
                    if q == b'\'' {
                        break;
                    }
                    out.push(q);
                }
            }
            b'"' => {
                i += 1;
                while let Some(&q) = word.get(i) {
                    i += 1;
                    match q {
                        b'"' => break,
                        b'\\' => match word.get(i) {
                            Some(&n) if matches!(n, b'$' | b'`' | b'"' | b'\\') => {
                                out.push(n);
                                i += 1;
                            }
                            Some(b'\n') => i += 1,
                            _ => out.push(b'\\'),
                        },
                        _ => out.push(q),
                    }
                }
            }
            b'$' if matches!(word.get(i + 1), Some(b'\'' | b'"')) => i += 1,
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The document with backslash-newline pairs removed (the intended reading reads
/// physical lines; what it expands is still joined).
fn join_lines(doc: &Text<'static>) -> Text<'static> {
    let bytes = doc.bytes();
    if memchr::memchr(b'\\', bytes).is_none() {
        return doc.clone();
    }
    let mut b = Builder::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' => {
                b.push(b'\\', doc.origin(i));
                if let Some(&n) = bytes.get(i + 1) {
                    b.push(n, doc.origin(i + 1));
                }
                i += 2;
            }
            c => {
                b.push(c, doc.origin(i));
                i += 1;
            }
        }
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
            return Err(self.limit("number of heredocs"));
        }
        let zsh = self.d.is_zsh();
        let unquoted = !p.word.quoted;
        let word = p.word.text.bytes();
        let mut closing = if unquoted && !self.d.always_quote_removal() {
            word.to_vec()
        } else {
            quote_removal(word)
        };
        if zsh && p.strip_tabs {
            let n = closing.iter().take_while(|&&c| c == b'\t').count();
            closing.drain(..n);
        }
        let physical = !self.d.joins_closer();
        let early_end_rule = self.d.early_end()
            && self.parser_state & PST_EOFTOKEN != 0
            && self.shell_eof_token != 0;
        let intended_paren_end = self.d.shell == Shell::Intended
            && self.parser_state & PST_EOFTOKEN != 0
            && self.shell_eof_token != 0;
        let mut doc = unquoted.then(Builder::default);
        let body_start = self.input.next_origin();
        let mut body_end = body_start;
        let mut closer = None;
        let mut early_end = false;
        let len = closing.len();
        loop {
            let Some(line) = self.input.read_line(unquoted && !physical) else {
                break;
            };
            let t = &line.text;
            let l = t.bytes();
            let line_start = t.origin(0);
            let line_end = t.origin(l.len());
            // The intended reading closes only on a line that stands in the command as it
            // is (not one made by joining lines or removing backslashes).
            let contiguous = |from: usize| !physical || (from..l.len().saturating_sub(1)).all(|i| t.origin(i + 1) == t.origin(i) + 1);
            let is_closer = |s: &[u8]| s.len() == len + 1 && s.starts_with(&closing) && s[len] == b'\n';
            let mut off = 0;
            if p.strip_tabs && !l.is_empty() {
                if !zsh && is_closer(l) && contiguous(0) {
                    closer = Some((line_start, line_end));
                    break;
                }
                off = l.iter().take_while(|&&c| c == b'\t').count();
            }
            let rest = &l[off..];
            if rest.is_empty() {
                continue;
            }
            if is_closer(rest) && contiguous(off) {
                closer = Some((line_start, line_end));
                break;
            }
            let starts = rest.starts_with(&closing);
            if starts && early_end_rule && rest[len..].contains(&self.shell_eof_token) {
                self.early_end_here(t, off + len, line_start, &mut closer);
                early_end = true;
                break;
            }
            if starts && intended_paren_end && contiguous(off) {
                let after = &rest[len..];
                let blanks = after.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
                if after.get(blanks) == Some(&self.shell_eof_token) {
                    self.early_end_here(t, off + len, line_start, &mut closer);
                    early_end = true;
                    break;
                }
            }
            if let Some(d) = doc.as_mut() {
                d.push_text(t, off, l.len());
            }
            body_end = line_end;
            if line.at_eof {
                break;
            }
        }
        let document = doc.map(|d| {
            let text = d.finish(body_end);
            if physical { join_lines(&text) } else { text }
        });
        let index = self.out.heredocs.len();
        if let Some(document) = &document {
            for (at, end, kind) in super::expand::body_substitutions(document) {
                self.out.exec.push(Exec {
                    at,
                    end,
                    what: Run::Subst(kind),
                    in_body: Some(index),
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
            document,
            context: self.context,
        });
        self.out.features.heredoc = true;
        Ok(())
    }

    /// The heredoc ends inside this line: the delimiter closes it, the rest of the line
    /// (from byte `from`) is read again as code.
    fn early_end_here(&mut self, line: &Text<'static>, from: usize, line_start: u32, closer: &mut Option<(u32, u32)>) {
        let rest = line.slice(from, line.len());
        *closer = Some((line_start, line.origin(from)));
        self.input.ungets(rest);
    }
}

#[cfg(test)]
mod tests {
    use super::quote_removal;

    #[test]
    fn quote_removal_matches_bash_for_delimiters() {
        for (w, want) in [
            ("'EOF'", "EOF"),
            ("\"EOF\"", "EOF"),
            ("\\EOF", "EOF"),
            ("E\"OF\"", "EOF"),
            ("'a\\b'", "a\\b"),
            ("\"a'b\"", "a'b"),
            ("\"a\\b\"", "a\\b"),
            ("\"a\\$b\"", "a$b"),
            ("$'EOF'", "EOF"),
        ] {
            assert_eq!(quote_removal(w.as_bytes()), want.as_bytes(), "{w}");
        }
    }
}
