//! How bash before 5.2 finds the end of `$(…)`: bash 4.4 and 5.1 scan the text with
//! their own `parse_comsub` (a character scanner that knows a little about reserved
//! words, `case`, comments and one heredoc at a time), and bash 3.2 counts parentheses
//! (`parse_matched_pair`); when the word is expanded, 3.2 finds the end again with
//! subst.c's `extract_delimited_string`. The program inside is read only then.

use super::SubstKind;
use super::lexer::{R, Reader};
use super::syntax::{P_ALLOWESC, P_COMMAND, P_DOLBRACE, P_DQUOTE, P_FIRSTCLOSE};
use super::syntax::{shellblank, shellbreak, shellmeta, shellquote};
use super::text::Builder;

const LEX_WASDOL: u32 = 0x0001;
const LEX_CKCOMMENT: u32 = 0x0002;
const LEX_INCOMMENT: u32 = 0x0004;
const LEX_PASSNEXT: u32 = 0x0008;
const LEX_RESWDOK: u32 = 0x0010;
const LEX_CKCASE: u32 = 0x0020;
const LEX_INCASE: u32 = 0x0040;
const LEX_INHEREDOC: u32 = 0x0080;
const LEX_HEREDELIM: u32 = 0x0100;
const LEX_STRIPDOC: u32 = 0x0200;
const LEX_QUOTEDDOC: u32 = 0x0400;
const LEX_INWORD: u32 = 0x0800;

impl Reader<'_, '_> {
    /// bash 4.4 / 5.1 `parse_comsub`, after `$(`; appends the text (closing `)`
    /// included) to `b`.
    pub fn old_parse_comsub(
        &mut self,
        qc: u8,
        open: u8,
        close: u8,
        flags: u32,
        b: &mut Builder,
    ) -> R<()> {
        self.enter()?;
        let r = self.old_comsub_inner(qc, open, close, flags, b);
        self.leave();
        r
    }

    fn old_comsub_inner(
        &mut self,
        qc: u8,
        open: u8,
        close: u8,
        flags: u32,
        b: &mut Builder,
    ) -> R<()> {
        let v51 = self.d.matched_51();
        let mut count = 1usize;
        let mut tflags = LEX_RESWDOK;
        if flags & P_COMMAND != 0 && qc != b'\'' && qc != b'"' && flags & P_DQUOTE == 0 {
            tflags |= LEX_CKCASE;
        }
        if tflags & LEX_CKCASE != 0 {
            tflags |= LEX_CKCOMMENT;
        }
        let rflags = flags & P_DQUOTE;
        let mut ret = Builder::default();
        let mut lex_rwlen = 0usize;
        let mut lex_wlen = 0usize;
        let mut heredelim: Option<Vec<u8>> = None;
        let mut lex_firstind: Option<usize> = None;
        let eof = |s: &Self| s.err("unexpected end of input in $(...)");
        while count > 0 {
            // Body and comment text runs to a newline (and in a body, to the closing
            // character or a backslash) with nothing to decide: read it in one go, exactly
            // what the loop below pushes character by character.
            let run = if tflags & LEX_INHEREDOC != 0 {
                self.input.take_run([b'\n', close, b'\\'], &mut ret)
            } else if tflags & LEX_INCOMMENT != 0 {
                self.input.take_run([b'\n', b'\n', b'\\'], &mut ret)
            } else {
                0
            };
            // Work: a run costs as text read again, a character read one by one
            // [`super::CHAR_WORK`] (nested substitutions are scanned once per level).
            self.spend(run.div_ceil(super::BYTES_PER_WORK) + super::CHAR_WORK)?;
            let rqn = qc != b'\''
                && tflags & (LEX_INCOMMENT | LEX_PASSNEXT) == 0
                && (!v51 || tflags & LEX_QUOTEDDOC == 0);
            let ch = self.input.getc(rqn).ok_or_else(|| eof(self))?;
            let origin = self.input.last_origin();
            let retind = ret.len();
            let line_matches =
                |ret: &Builder, first: usize, heredelim: &[u8], strip: bool| -> bool {
                    let bytes = ret.bytes();
                    let mut tind = first;
                    while strip && bytes.get(tind) == Some(&b'\t') {
                        tind += 1;
                    }
                    let line = bytes.get(tind..).unwrap_or(&[]);
                    if v51 {
                        line == heredelim
                    } else {
                        line.starts_with(heredelim)
                    }
                };
            if ch == b'\n' {
                if tflags & LEX_HEREDELIM != 0 && heredelim.is_some() {
                    tflags &= !LEX_HEREDELIM;
                    tflags |= LEX_INHEREDOC;
                    lex_firstind = Some(retind + 1);
                } else if tflags & LEX_INHEREDOC != 0 {
                    let first = lex_firstind.unwrap_or(retind);
                    let hd = heredelim.as_deref().unwrap_or(&[]);
                    if line_matches(&ret, first, hd, tflags & LEX_STRIPDOC != 0) {
                        tflags &= !(LEX_STRIPDOC | LEX_INHEREDOC | LEX_QUOTEDDOC);
                        heredelim = None;
                        lex_firstind = None;
                    } else {
                        lex_firstind = Some(retind + 1);
                    }
                }
            }
            if tflags & LEX_INHEREDOC != 0 && ch == close && count == 1 {
                let first = lex_firstind.unwrap_or(retind);
                let hd = heredelim.as_deref().unwrap_or(&[]);
                let bytes = ret.bytes();
                let mut tind = first;
                while tflags & LEX_STRIPDOC != 0 && bytes.get(tind) == Some(&b'\t') {
                    tind += 1;
                }
                if bytes.get(tind..).unwrap_or(&[]) == hd {
                    tflags &= !(LEX_STRIPDOC | LEX_INHEREDOC | LEX_QUOTEDDOC);
                    heredelim = None;
                    lex_firstind = None;
                }
            }
            if tflags & (LEX_INCOMMENT | LEX_INHEREDOC) != 0 {
                ret.push(ch, origin);
                if tflags & LEX_INCOMMENT != 0 && ch == b'\n' {
                    tflags &= !LEX_INCOMMENT;
                }
                continue;
            }
            if tflags & LEX_PASSNEXT != 0 {
                tflags &= !LEX_PASSNEXT;
                if qc != b'\'' && ch == b'\n' {
                    if !ret.is_empty() {
                        ret.pop();
                    }
                    continue;
                }
                ret.push(ch, origin);
                continue;
            }
            if shellbreak(ch) {
                tflags &= !LEX_INWORD;
            } else if tflags & LEX_INWORD != 0 {
                lex_wlen += 1;
            } else {
                tflags |= LEX_INWORD;
                lex_wlen = 0;
                if tflags & LEX_RESWDOK != 0 {
                    lex_rwlen = 0;
                }
            }
            if shellblank(ch) && tflags & LEX_HEREDELIM == 0 && lex_rwlen == 0 {
                ret.push(ch, origin);
                continue;
            }
            if tflags & LEX_HEREDELIM != 0 {
                if lex_firstind.is_none() && !shellbreak(ch) {
                    lex_firstind = Some(ret.len());
                } else if let Some(first) = lex_firstind
                    && tflags & LEX_PASSNEXT == 0
                    && shellbreak(ch)
                {
                    if heredelim.is_none() {
                        let word = ret.bytes().get(first..).unwrap_or(&[]).to_vec();
                        let removed = super::syntax::quote_removal(&word);
                        if removed != word {
                            tflags |= LEX_QUOTEDDOC;
                        }
                        heredelim = Some(removed);
                    }
                    if ch == b'\n' {
                        tflags |= LEX_INHEREDOC;
                        tflags &= !LEX_HEREDELIM;
                        lex_firstind = Some(ret.len() + 1);
                    } else {
                        lex_firstind = None;
                    }
                }
            }
            // Metacharacters that can introduce a reserved word.
            if tflags & LEX_RESWDOK == 0
                && tflags & LEX_CKCASE != 0
                && tflags & LEX_INCOMMENT == 0
                && (shellmeta(ch) || ch == b'\n')
            {
                ret.push(ch, origin);
                let peekc = self.input.getc(true);
                if peekc == Some(ch) && matches!(ch, b'&' | b'|' | b';') {
                    ret.push(ch, self.input.last_origin());
                    tflags |= LEX_RESWDOK;
                    lex_rwlen = 0;
                    continue;
                } else if ch == b'\n' || matches!(ch, b';' | b'&' | b'|') {
                    if let Some(p) = peekc {
                        self.input.ungetc(p);
                    }
                    tflags |= LEX_RESWDOK;
                    lex_rwlen = 0;
                    continue;
                } else if peekc.is_none() {
                    return Err(eof(self));
                } else {
                    ret.pop();
                    if let Some(p) = peekc {
                        self.input.ungetc(p);
                    }
                }
            }
            if tflags & LEX_RESWDOK != 0 {
                if ch.is_ascii_lowercase() {
                    ret.push(ch, origin);
                    lex_rwlen += 1;
                    continue;
                } else if lex_rwlen == 4 && shellbreak(ch) {
                    let last4 = ret
                        .bytes()
                        .get(ret.len().saturating_sub(4)..)
                        .unwrap_or(&[])
                        .to_vec();
                    if last4 == b"case" {
                        tflags |= LEX_INCASE;
                        tflags &= !LEX_RESWDOK;
                    } else if last4 == b"esac" {
                        tflags &= !LEX_INCASE;
                        tflags |= LEX_RESWDOK;
                        lex_rwlen = 0;
                    } else if matches!(
                        last4.as_slice(),
                        b"done" | b"then" | b"else" | b"elif" | b"time"
                    ) {
                        tflags |= LEX_RESWDOK;
                        lex_rwlen = 0;
                    } else if !v51 || !shellmeta(ch) {
                        tflags &= !LEX_RESWDOK;
                    } else {
                        lex_rwlen = 0;
                    }
                } else if tflags & LEX_CKCOMMENT != 0
                    && ch == b'#'
                    && (lex_rwlen == 0 || (tflags & LEX_INWORD != 0 && lex_wlen == 0))
                {
                    // A comment starts: LEX_RESWDOK unchanged.
                } else if tflags & LEX_INCASE == 0
                    && (shellblank(ch) || ch == b'\n')
                    && lex_rwlen == 2
                    && ret.bytes().ends_with(b"do")
                {
                    lex_rwlen = 0;
                } else if (tflags & LEX_INCASE != 0 && ch != b'\n') || !shellbreak(ch) {
                    // In a case, a pattern list comes; elsewhere a word that is not reserved.
                    tflags &= !LEX_RESWDOK;
                }
            }
            // The start of a heredoc operator.
            if tflags & LEX_INCOMMENT == 0 && tflags & LEX_CKCASE != 0 && ch == b'<' {
                ret.push(ch, origin);
                let peekc = self.input.getc(true).ok_or_else(|| eof(self))?;
                if peekc == ch {
                    ret.push(peekc, self.input.last_origin());
                    let p2 = self.input.getc(true).ok_or_else(|| eof(self))?;
                    if p2 == b'-' {
                        ret.push(p2, self.input.last_origin());
                        tflags |= LEX_STRIPDOC;
                    } else {
                        self.input.ungetc(p2);
                    }
                    if p2 != b'<' {
                        tflags |= LEX_HEREDELIM;
                        lex_firstind = None;
                    }
                    continue;
                } else if v51 {
                    self.input.ungetc(peekc);
                    continue;
                } else {
                    // bash 4.4 falls through with the peeked character.
                    let ch = peekc;
                    let origin = self.input.last_origin();
                    self.old_tail(
                        ch,
                        origin,
                        qc,
                        open,
                        close,
                        flags,
                        rflags,
                        &mut tflags,
                        &mut count,
                        &mut ret,
                        v51,
                    )?;
                    continue;
                }
            } else if tflags & LEX_CKCOMMENT != 0
                && tflags & LEX_INCOMMENT == 0
                && ch == b'#'
                && ((tflags & LEX_RESWDOK != 0 && lex_rwlen == 0)
                    || (tflags & LEX_INWORD != 0 && lex_wlen == 0))
            {
                tflags |= LEX_INCOMMENT;
            }
            self.old_tail(
                ch,
                origin,
                qc,
                open,
                close,
                flags,
                rflags,
                &mut tflags,
                &mut count,
                &mut ret,
                v51,
            )?;
        }
        b.push_text(&ret.finish(self.input.last_origin() + 1), 0, usize::MAX);
        Ok(())
    }

    /// The end of the old scanner's loop: counting, quotes, nested constructs.
    #[allow(clippy::too_many_arguments)]
    fn old_tail(
        &mut self,
        ch: u8,
        origin: u32,
        _qc: u8,
        open: u8,
        close: u8,
        flags: u32,
        rflags: u32,
        tflags: &mut u32,
        count: &mut usize,
        ret: &mut Builder,
        v51: bool,
    ) -> R<()> {
        if ch == close && *tflags & LEX_INCASE == 0 {
            *count -= 1;
        } else if flags & P_FIRSTCLOSE == 0 && *tflags & LEX_INCASE == 0 && ch == open {
            *count += 1;
        }
        ret.push(ch, origin);
        if *count == 0 {
            return Ok(());
        }
        if ch == b'\\' {
            *tflags |= LEX_PASSNEXT;
        }
        if shellquote(ch) {
            self.dstack.push(ch);
            let nflags = if *tflags & LEX_WASDOL != 0 && ch == b'\'' {
                self.ansi_c_after_dollar(ret);
                P_ALLOWESC | rflags
            } else {
                rflags
            };
            self.parse_matched_pair(ch, ch, ch, nflags, ret)?;
            self.dstack.pop();
        } else if *tflags & LEX_WASDOL != 0 && matches!(ch, b'(' | b'{' | b'[') {
            if *tflags & LEX_INCASE == 0 && open == ch {
                *count -= 1;
            }
            match ch {
                b'(' => {
                    self.parse_comsub(
                        0,
                        b'(',
                        b')',
                        (rflags | P_COMMAND) & !P_DQUOTE,
                        ret,
                        origin.saturating_sub(1),
                        SubstKind::Dollar,
                    )?;
                }
                b'{' => {
                    self.out.features.dollar_brace = true;
                    self.parse_matched_pair(
                        0,
                        b'{',
                        b'}',
                        P_FIRSTCLOSE | P_DOLBRACE | rflags,
                        ret,
                    )?;
                }
                _ => {
                    self.out.features.arith = true;
                    self.parse_matched_pair(0, b'[', b']', rflags, ret)?;
                }
            }
        }
        let set = if v51 {
            ch == b'$' && *tflags & LEX_WASDOL == 0
        } else {
            ch == b'$'
        };
        if set {
            *tflags |= LEX_WASDOL;
        } else {
            *tflags &= !LEX_WASDOL;
        }
        Ok(())
    }
}

/// bash 3.2 subst.c `extract_delimited_string` for `$(` (`comments`: EX_COMMAND) and
/// for `<(` / `>(` (no comments): the index just past the matching `)` (the end of the
/// text when there is none).
pub fn extract_delimited_32(s: &[u8], from: usize, comments: bool) -> usize {
    let mut i = from;
    let mut nesting = 1usize;
    let mut pass = false;
    let mut in_comment = false;
    while i < s.len() {
        let c = s[i];
        if in_comment {
            if c == b'\n' {
                in_comment = false;
            }
            i += 1;
            continue;
        }
        if pass {
            pass = false;
            i += 1;
            continue;
        }
        if comments && c == b'#' && (i == 0 || s[i - 1] == b'\n' || shellblank(s[i - 1])) {
            in_comment = true;
            i += 1;
            continue;
        }
        if c == b'\\' {
            pass = true;
            i += 1;
            continue;
        }
        if s[i..].starts_with(b"$(") {
            i = extract_delimited_32(s, i + 2, comments);
            continue;
        }
        if c == b'(' {
            i = extract_delimited_32(s, i + 1, comments);
            continue;
        }
        if c == b')' {
            nesting -= 1;
            if nesting == 0 {
                return i + 1;
            }
        }
        if c == b'`' {
            let mut j = i + 1;
            while j < s.len() && s[j] != b'`' {
                if s[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            i = j + 1;
            continue;
        }
        if c == b'\'' {
            i = memchr::memchr(b'\'', &s[(i + 1).min(s.len())..]).map_or(s.len(), |p| i + 2 + p);
            continue;
        }
        if c == b'"' {
            i = skip_double_quoted_32(s, i + 1);
            continue;
        }
        i += 1;
    }
    s.len()
}

/// bash 3.2 subst.c `skip_double_quoted`: from just inside a `"`, the index just past its
/// closing `"`. A `$(…)` or `${…}` inside is skipped whole (its quotes and parentheses
/// are its own), a backquoted part up to its closing backquote.
fn skip_double_quoted_32(s: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut backquote = false;
    while let Some(&c) = s.get(i) {
        if c == b'\\' {
            i += 2;
        } else if backquote {
            backquote = c != b'`';
            i += 1;
        } else if c == b'`' {
            backquote = true;
            i += 1;
        } else if s[i..].starts_with(b"$(") {
            i = extract_delimited_32(s, i + 2, true);
        } else if s[i..].starts_with(b"${") {
            i = extract_dollar_brace_32(s, i + 2);
        } else if c == b'"' {
            return i + 1;
        } else {
            i += 1;
        }
    }
    s.len()
}

/// bash 3.2 subst.c `extract_dollar_brace_string`: from just inside `${`, the index just
/// past the matching `}`, skipping quoted strings and substitutions inside.
fn extract_dollar_brace_32(s: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut nesting = 1usize;
    while let Some(&c) = s.get(i) {
        if c == b'\\' {
            i += 2;
        } else if s[i..].starts_with(b"${") {
            nesting += 1;
            i += 2;
        } else if c == b'}' {
            nesting -= 1;
            if nesting == 0 {
                return i + 1;
            }
            i += 1;
        } else if c == b'`' {
            let mut j = i + 1;
            while j < s.len() && s[j] != b'`' {
                if s[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            i = j + 1;
        } else if s[i..].starts_with(b"$(") {
            i = extract_delimited_32(s, i + 2, true);
        } else if c == b'\'' {
            i = memchr::memchr(b'\'', &s[(i + 1).min(s.len())..]).map_or(s.len(), |p| i + 2 + p);
        } else if c == b'"' {
            i = skip_double_quoted_32(s, i + 1);
        } else {
            i += 1;
        }
    }
    s.len()
}
