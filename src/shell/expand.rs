//! What runs when text is expanded: an unquoted heredoc body (bash and zsh read it like
//! a double-quoted string whose quotes are literal), a word of a command, an arithmetic
//! expression. Command substitutions that were not read as programs when the command was
//! parsed (older bash; backquotes always; text bash captured raw) are found here, the way
//! subst.c finds them, and their programs read.

use std::rc::Rc;

use super::lexer::{R, Reader, Tok};
use super::syntax::funsub_char;
use super::text::{Builder, Text};
use super::tree::Word;
use super::{ComsubScanner, Context, Reading, Run, SubstKind};

/// Every substitution an unquoted heredoc body runs in bash or zsh, with its command
/// offsets. One pass, linear in the body: it looks at every `$` and backquote, never skips
/// the inside of `${…}`, `$((…))` or `$[…]` (substitutions nested there are found), and
/// takes `$((…))` / `$[…]` as arithmetic only when it is plain arithmetic.
pub fn body_substitutions_counted(doc: &Text<'_>) -> (Vec<(u32, u32, SubstKind)>, usize) {
    let mut scan = BodyScan {
        doc,
        b: doc.bytes(),
        found: Vec::new(),
        frames: Vec::new(),
        quote_in_brace: false,
        steps: 0,
    };
    scan.run();
    (scan.found, scan.steps)
}

/// An open `${` of a body: where it starts, its nesting of plain braces, and whether an
/// assignment operator (`=`) was seen at its level.
struct Frame {
    at: usize,
    depth: usize,
    assigns: bool,
    /// A `[` was seen (a subscript, which bash before 5.2 can expand twice).
    subscript: bool,
}

struct BodyScan<'a, 'd> {
    doc: &'a Text<'d>,
    b: &'a [u8],
    found: Vec<(u32, u32, SubstKind)>,
    /// The `${` open at this point of the scan, innermost last.
    frames: Vec<Frame>,
    /// A quote stood inside some `${…}` holding a subscript or an assignment: where that
    /// `${` ends is not certain any more (the shells treat quotes there differently), so
    /// from here on an escaped substitution anywhere counts as one that may be expanded
    /// again.
    quote_in_brace: bool,
    /// Constructs looked at (the scan's work).
    steps: usize,
}

impl BodyScan<'_, '_> {
    fn push(&mut self, start: usize, end: usize, kind: SubstKind) {
        let end = end.max(start + 1).min(self.b.len().max(start + 1));
        self.found
            .push((self.doc.origin(start), self.doc.origin(end - 1) + 1, kind));
    }

    fn run(&mut self) {
        let b = self.b;
        let mut i = 0;
        // One past the most listed tells the caller the list was cut.
        while i < b.len() && self.found.len() <= super::MAX_BODY_SUBSTITUTIONS {
            if self.frames.is_empty() {
                let Some(off) = memchr::memchr3(b'\\', b'`', b'$', &b[i..]) else {
                    break;
                };
                i += off;
            }
            self.steps += 1;
            i = self.step(i);
        }
    }

    /// Reads the construct at `i`; gives where the scan goes on.
    fn step(&mut self, i: usize) -> usize {
        let b = self.b;
        match b[i] {
            b'\\' => {
                let escaped = matches!(b.get(i + 1), Some(b'$' | b'`'));
                // bash before 5.2 expands an array subscript twice: an escaped
                // substitution inside one runs (`${a[b[\$(cmd)]]}`). Elsewhere in `${…}`
                // it becomes literal text, which is judged where it is evaluated.
                if escaped && (self.frames.iter().any(|f| f.subscript) || self.quote_in_brace) {
                    self.push(i, i + 2, SubstKind::ReExpansion);
                }
                // zsh keeps the backslash of `\"` inside `${…}` and opens a quote there,
                // in which `}` does not close: where the brace ends is no longer certain.
                if matches!(b.get(i + 1), Some(b'"' | b'\''))
                    && self.frames.last().is_some_and(|f| f.assigns || f.subscript)
                {
                    self.quote_in_brace = true;
                }
                // Inside `${…}` a backslash takes any character with it (`\}` does not
                // close the brace); elsewhere only `$`, a backquote and `\`.
                if escaped || b.get(i + 1) == Some(&b'\\') || !self.frames.is_empty() {
                    i + 2
                } else {
                    i + 1
                }
            }
            b'`' => {
                let end = backquote_end(b, i + 1);
                // A command of blanks alone runs nothing.
                let inner = &b[(i + 1).min(end)..end.saturating_sub(1).max(i + 1)];
                if !blank(inner) || end == b.len() {
                    self.push(i, end, SubstKind::Backtick);
                }
                end
            }
            b'$' => {
                match b.get(i + 1) {
                    Some(b'(') if b.get(i + 2) == Some(&b'(') => {
                        // The inside is scanned on either way: a `${…}`, `$(…)` or backquote
                        // there counts. What is not plain arithmetic counts too, unless
                        // what stopped the plain reading is such a substitution.
                        if let Err(stop) = plain_arithmetic(b, i + 3, b')', false)
                            && !starts_substitution(b, stop)
                        {
                            self.push(i, stop + 1, SubstKind::UnclearArithmetic);
                        }
                        i + 3
                    }
                    Some(b'(') => {
                        let end = paren_end(b, i + 2);
                        let inner = &b[(i + 2).min(end)..end.saturating_sub(1).max(i + 2)];
                        if !blank(inner) || end == b.len() {
                            self.push(i, end, SubstKind::Dollar);
                        }
                        end
                    }
                    Some(b'[') => {
                        if let Err(stop) = plain_arithmetic(b, i + 2, b']', false)
                            && !starts_substitution(b, stop)
                        {
                            self.push(i, stop + 1, SubstKind::UnclearArithmetic);
                        }
                        i + 2
                    }
                    Some(b'{') => self.open_brace(i),
                    Some(b'$') => i + 2,
                    _ => i + 1,
                }
            }
            c if !self.frames.is_empty() => {
                match c {
                    b'{' => {
                        if let Some(f) = self.frames.last_mut() {
                            f.depth += 1;
                        }
                    }
                    b'}' => self.close_brace(i),
                    b'=' => {
                        if let Some(f) = self.frames.last_mut() {
                            f.assigns = true;
                        }
                    }
                    b'[' => {
                        if let Some(f) = self.frames.last_mut() {
                            f.subscript = true;
                        }
                    }
                    b'\'' | b'"'
                        if self.frames.last().is_some_and(|f| f.assigns || f.subscript) =>
                    {
                        self.quote_in_brace = true;
                    }
                    _ => {}
                }
                i + 1
            }
            _ => i + 1,
        }
    }

    /// `${` at `i`.
    fn open_brace(&mut self, i: usize) -> usize {
        let b = self.b;
        let from = i + 2;
        match b.get(from) {
            Some(&c) if funsub_char(c) => {
                self.push(i, from + 1, SubstKind::FunSub);
                return from;
            }
            Some(b'(') => {
                // zsh flags `${(…)…}`: letters (and `@ - + 0 * ~`) only, outside the flags'
                // arguments (`j:, :`, `s(,)`), none that evaluates (`e`, and `l`, `r`, `I`,
                // whose arguments are arithmetic) or reads a name from the value (`P`);
                // flags that do not close, or are not read whole, count.
                let cut = std::cell::Cell::new(false);
                let flags = super::word::zsh_flags(b, from + 1, b.len(), &cut);
                let harmless = !cut.get()
                    && flags.as_ref().is_some_and(|(_, f)| {
                        f.iter().all(|&c| {
                            (c.is_ascii_alphabetic() || b"@-+0*~".contains(&c))
                                && !matches!(c, b'e' | b'P' | b'l' | b'r' | b'I')
                        })
                    });
                if !harmless {
                    let end = flags.map_or(from + 1, |(close, _)| close + 1);
                    self.push(i, end, SubstKind::ZshEvaluation);
                }
            }
            _ => {}
        }
        self.frames.push(Frame {
            at: i,
            depth: 0,
            assigns: false,
            subscript: false,
        });
        from
    }

    /// `}` at `i` inside a `${`.
    fn close_brace(&mut self, i: usize) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        if f.depth > 0 {
            f.depth -= 1;
            return;
        }
        let at = f.at;
        self.frames.pop();
        if self.b[..i].ends_with(b"@P") {
            self.push(at, i + 1, SubstKind::PromptExpansion);
        }
    }
}

/// Whether the text from `from` is plain arithmetic up to its closing `))` (or `]` when
/// `close` is `]`): names, numbers (`16#ff`), operators, blanks, balanced parentheses,
/// `$name` and `${…}` without parentheses. No quotes, backslashes, backquotes, newlines,
/// comments or `$(`: where those appear, bash, its versions and zsh disagree on whether
/// the text is arithmetic or a command. Gives the index after the closing text, or the
/// index of the first character it does not accept; it stops there, so a scan never runs
/// past the next `$((`.
///
/// With `skip_substitutions`, a `$(…)` or backquoted command inside is stepped over (its
/// program is read on its own), and the text around it is judged.
fn plain_arithmetic(
    b: &[u8],
    from: usize,
    close: u8,
    skip_substitutions: bool,
) -> Result<usize, usize> {
    let mut depth = 0usize;
    let mut brace = 0usize;
    let mut j = from;
    while let Some(&c) = b.get(j) {
        match c {
            b'(' if brace == 0 => depth += 1,
            b')' if brace == 0 => {
                if depth == 0 {
                    // `$((…))`: the first `)` at depth 0 must be followed by the second.
                    return if close == b')' && b.get(j + 1) == Some(&b')') {
                        Ok(j + 2)
                    } else {
                        Err(j)
                    };
                }
                depth -= 1;
            }
            b']' if close == b']' && depth == 0 && brace == 0 => return Ok(j + 1),
            b'{' if brace > 0 => brace += 1,
            b'}' if brace > 0 => brace -= 1,
            b'$' => match b.get(j + 1) {
                Some(b'{') => {
                    brace += 1;
                    j += 1;
                }
                Some(&n) if n.is_ascii_alphanumeric() || b"_#?@*!-$".contains(&n) => {}
                Some(b'(') if skip_substitutions && b.get(j + 2) != Some(&b'(') => {
                    j = paren_end(b, j + 2).saturating_sub(1);
                }
                _ => return Err(j),
            },
            b'`' if skip_substitutions => j = backquote_end(b, j + 1).saturating_sub(1),
            b'#' => {
                // A base (`16#ff`) follows a digit, `${#x}` is a length; elsewhere `#`
                // may start a comment.
                let after_digit = j
                    .checked_sub(1)
                    .and_then(|p| b.get(p))
                    .is_some_and(u8::is_ascii_digit);
                if !after_digit && brace == 0 {
                    return Err(j);
                }
            }
            c if c.is_ascii_alphanumeric() => {}
            b' ' | b'\t' | b'_' | b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!'
            | b'&' | b'|' | b'^' | b'~' | b'?' | b':' | b',' | b'.' | b'[' | b']' | b'@' => {}
            _ => return Err(j),
        }
        j += 1;
    }
    Err(b.len().saturating_sub(1).max(from))
}

/// A `$(` (not `$((`) or a backquote at `at`: a substitution the scan reports itself.
fn starts_substitution(b: &[u8], at: usize) -> bool {
    match b.get(at) {
        Some(b'`') => true,
        Some(b'$') => b.get(at + 1) == Some(&b'(') && b.get(at + 2) != Some(&b'('),
        _ => false,
    }
}

/// Blanks and newlines only.
fn blank(s: &[u8]) -> bool {
    s.iter().all(|c| matches!(c, b' ' | b'\t' | b'\n'))
}

/// The end (exclusive) of a backquoted command whose text starts at `from`; the end of
/// the text when it does not close.
fn backquote_end(b: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'`' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// The end (exclusive) of a parenthesized text starting after `(` at `from`: nested
/// parentheses, quotes and backslashes counted; the end of the text when it does not close.
fn paren_end(b: &[u8], from: usize) -> usize {
    let mut depth = 0usize;
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 1,
            b'\'' => {
                j = memchr::memchr(b'\'', &b[(j + 1).min(b.len())..]).map_or(b.len(), |p| j + 1 + p)
            }
            b'"' => j = dquote_end(b, j + 1).saturating_sub(1),
            b'`' => j = backquote_end(b, j + 1).saturating_sub(1),
            b'(' => depth += 1,
            b')' => {
                if depth == 0 {
                    return j + 1;
                }
                depth -= 1;
            }
            _ => {}
        }
        j += 1;
    }
    b.len()
}

fn dquote_end(b: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// After `$((` (the second `(` at `open`): bash's decision at expansion time. The text to
/// the matching `)` must start with `(`, end with `)`, and have balanced parentheses
/// inside (`chk_arithsub`); otherwise it is a command substitution of a subshell.
pub fn is_arithmetic(b: &[u8], open: usize) -> bool {
    // The extent of `$(` … `)`, counting the inner `(`.
    let end = paren_end(b, open);
    if end > b.len() || b.get(end.wrapping_sub(1)) != Some(&b')') {
        return false;
    }
    // temp = b[open .. end-1]; it must start with `(` and end with `)`.
    let temp = &b[open..end - 1];
    if temp.first() != Some(&b'(') || temp.last() != Some(&b')') || temp.len() < 2 {
        return false;
    }
    chk_arithsub(&temp[1..temp.len() - 1])
}

fn chk_arithsub(s: &[u8]) -> bool {
    let mut count = 0i64;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'(' => count += 1,
            b')' => {
                count -= 1;
                if count < 0 {
                    return false;
                }
            }
            _ => {}
        }
        match s[i] {
            b'\\' => i += 2,
            b'\'' => {
                i = memchr::memchr(b'\'', &s[(i + 1).min(s.len())..]).map_or(s.len(), |p| i + 2 + p)
            }
            b'"' => i = dquote_end(s, i + 1),
            _ => i += 1,
        }
    }
    count == 0
}

/// How text around a construct is quoted during expansion.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Word,
    Dquote,
    Arith,
}

impl<'s> Reader<'s, '_> {
    /// Expands a word of a command: finds what it runs that was not read yet.
    pub fn expand_word(&mut self, w: &Word) -> R<()> {
        if self.extent_only {
            return Ok(());
        }
        if !w
            .text
            .bytes()
            .iter()
            .any(|&c| matches!(c, b'`' | b'$' | b'<' | b'>'))
        {
            return Ok(());
        }
        let t = Rc::new(w.text.clone());
        let depth = self.depth;
        let r = self.walk(&t, 0, Mode::Word, 0).map(|_| ());
        self.expansion_failed(r, depth)
    }

    /// Expands an arithmetic expression (`((…))`, `for ((…))`).
    pub fn expand_arith(&mut self, t: &Rc<Text<'static>>) -> R<()> {
        if self.extent_only {
            return Ok(());
        }
        if !t.bytes().iter().any(|&c| matches!(c, b'`' | b'$')) {
            return Ok(());
        }
        let depth = self.depth;
        let r = self.walk(t, 0, Mode::Arith, 0).map(|_| ());
        self.expansion_failed(r, depth)
    }

    /// A shell that fails to expand a word reports it and goes on (what ran before the
    /// failure stays recorded); the intended reading cannot read it, and a limit is a limit.
    fn expansion_failed(&mut self, r: R<()>, depth: usize) -> R<()> {
        match r {
            Err(e) if e.limit.is_none() && self.d.runs() => {
                self.depth = depth;
                Ok(())
            }
            other => other,
        }
    }

    /// True when the `$(` at command offset `at` was read as a program at parse time;
    /// gives where it ends.
    fn parsed_end(&self, at: u32) -> Option<u32> {
        self.parsed_by_start.get(&at).copied()
    }

    /// Walks `t` from `i` in `mode` until `close` (0: the end); returns the index after
    /// `close`.
    fn walk(&mut self, t: &Rc<Text<'static>>, mut i: usize, mode: Mode, close: u8) -> R<usize> {
        self.enter()?;
        let b = t.bytes();
        while i < b.len() {
            let c = b[i];
            if close != 0 && c == close {
                self.leave();
                return Ok(i + 1);
            }
            let before = i;
            self.spend(1)?;
            match c {
                b'\\' => i += 2,
                b'\'' if mode == Mode::Word => {
                    i = memchr::memchr(b'\'', &b[i + 1..]).map_or(b.len(), |p| i + 2 + p);
                }
                b'"' if mode == Mode::Word => {
                    i = self.walk(t, i + 1, Mode::Dquote, b'"')?;
                }
                b'`' => {
                    i = self.backquote(t, i, mode == Mode::Dquote)?;
                }
                b'$' => match b.get(i + 1) {
                    Some(b'\'') if mode == Mode::Word => {
                        // $'…': backslash escapes.
                        let mut j = i + 2;
                        while j < b.len() && b[j] != b'\'' {
                            j += if b[j] == b'\\' { 2 } else { 1 };
                        }
                        i = j + 1;
                    }
                    Some(b'"') if mode == Mode::Word => {
                        i = self.walk(t, i + 2, Mode::Dquote, b'"')?;
                    }
                    Some(b'(') => i = self.dollar_paren(t, i, SubstKind::Dollar)?,
                    Some(b'{') => {
                        if b.get(i + 2).copied().is_some_and(funsub_char) && self.d.funsub() {
                            i = self.raw_comsub(t, i, i + 2, b'}', SubstKind::FunSub)?;
                        } else {
                            // Walk the inside; quotes there are read as in a word.
                            let inner = if mode == Mode::Word {
                                Mode::Word
                            } else {
                                Mode::Dquote
                            };
                            i = self.walk_brace(t, i + 2, inner)?;
                        }
                    }
                    Some(b'[') => {
                        i = self.walk(t, i + 2, Mode::Arith, b']')?;
                    }
                    Some(b'$') => i += 2,
                    _ => i += 1,
                },
                b'<' | b'>' if mode == Mode::Word && b.get(i + 1) == Some(&b'(') => {
                    i = self.dollar_paren(t, i, SubstKind::Process)?;
                }
                _ => i += 1,
            }
            // Every step moves on (a loop here would be a hang in the hook).
            if i <= before {
                return Err(self.err("expansion made no progress"));
            }
        }
        self.leave();
        Ok(b.len())
    }

    /// `${…}` from its inside at `i`: nested braces counted, quotes skipped, substitutions
    /// walked.
    fn walk_brace(&mut self, t: &Rc<Text<'static>>, mut i: usize, mode: Mode) -> R<usize> {
        self.enter()?;
        let b = t.bytes();
        let mut depth = 0usize;
        while i < b.len() {
            let before = i;
            match b[i] {
                b'}' => {
                    if depth == 0 {
                        self.leave();
                        return Ok(i + 1);
                    }
                    depth -= 1;
                    i += 1;
                }
                b'{' => {
                    depth += 1;
                    i += 1;
                }
                b'\\' => i += 2,
                b'\'' if mode == Mode::Word => {
                    i = memchr::memchr(b'\'', &b[i + 1..]).map_or(b.len(), |p| i + 2 + p);
                }
                b'"' => i = self.walk(t, i + 1, Mode::Dquote, b'"')?,
                b'`' => i = self.backquote(t, i, mode == Mode::Dquote)?,
                b'$' => match b.get(i + 1) {
                    Some(b'(') => i = self.dollar_paren(t, i, SubstKind::Dollar)?,
                    Some(b'{') => i = self.walk_brace(t, i + 2, mode)?,
                    Some(b'[') => i = self.walk(t, i + 2, Mode::Arith, b']')?,
                    _ => i += 1,
                },
                b'<' | b'>' if b.get(i + 1) == Some(&b'(') => {
                    i = self.dollar_paren(t, i, SubstKind::Process)?;
                }
                _ => i += 1,
            }
            if i <= before {
                return Err(self.err("expansion made no progress"));
            }
        }
        self.leave();
        Ok(b.len())
    }

    /// A backquoted command at `i`: its text, with bash's backslash removal, read as a
    /// program. Inside double quotes, `\"` loses its backslash too (every shell measured).
    fn backquote(&mut self, t: &Rc<Text<'static>>, i: usize, in_dquote: bool) -> R<usize> {
        let b = t.bytes();
        let end = backquote_end(b, i + 1);
        let closed = b.get(end.wrapping_sub(1)) == Some(&b'`') && end > i + 1;
        self.run(
            t.origin(i),
            t.origin(end.saturating_sub(1)) + 1,
            Run::Subst(SubstKind::Backtick),
        );
        self.out.features.backquote = true;
        let inner_end = if closed { end - 1 } else { end };
        // The text is copied a byte at a time.
        self.spend(inner_end.saturating_sub(i))?;
        // de_backslash: `\$`, `` \` `` and `\\` lose their backslash (and `\"` in quotes). The
        // intended reading keeps `\"` as written, as a reader of the text sees it: where
        // that changes a heredoc's closing line, the readings differ and the guard denies.
        let mut nb = Builder::with_capacity(inner_end.saturating_sub(i + 1));
        let mut j = i + 1;
        while j < inner_end {
            if b[j] == b'\\'
                && (matches!(b.get(j + 1), Some(b'$' | b'`' | b'\\'))
                    || (in_dquote && b.get(j + 1) == Some(&b'"') && self.d.unescapes_dquote()))
                && j + 1 < inner_end
            {
                j += 1;
            }
            nb.push(b[j], t.origin(j));
            j += 1;
        }
        let inner = nb.finish(t.origin(inner_end));
        let end_at = t.origin(end.saturating_sub(1)) + 1;
        self.read_subst(t.origin(i), end_at, inner, Context::Backquote)?;
        Ok(end)
    }

    /// `$(` (or `<(`, `>(`) at `i`.
    fn dollar_paren(&mut self, t: &Rc<Text<'static>>, i: usize, kind: SubstKind) -> R<usize> {
        let b = t.bytes();
        let at = t.origin(i);
        if let Some(end) = self.parsed_end(at) {
            // Read as a program when the command was parsed.
            // (At least past `$(`: in text bash pushed back, origins need not grow.)
            let mut j = i + 2;
            while j < b.len() && t.origin(j) < end {
                j += 1;
            }
            return Ok(j.min(b.len()));
        }
        if kind == SubstKind::Dollar && b.get(i + 2) == Some(&b'(') {
            // bash decides arithmetic or command by scanning to the matching `)`, at every
            // level of nesting (quadratic in the depth, as in bash): each scan is charged.
            self.spend(super::bulk_work(paren_end(b, i + 2) - i) * 8)?;
            if is_arithmetic(b, i + 2) {
                self.out.features.arith = true;
                let end = paren_end(b, i + 2);
                // `$((` expr `))`: walk the expression.
                let inner = Rc::new(t.slice(i + 3, end.saturating_sub(2)));
                self.walk(&inner, 0, Mode::Arith, 0)?;
                if plain_arithmetic(b, i + 3, b')', true).is_err()
                    && super::may_hold_heredoc(&b[i..])
                    && self.out.unreliable.is_none()
                {
                    // Not plain arithmetic (quotes, comments, newlines…): bash's versions
                    // and zsh may take it for a subshell, where the extent of `$(` is found
                    // by rules this reader does not follow; with a heredoc operator in
                    // reach, the reading is not to be trusted.
                    self.out.unreliable =
                        Some("a heredoc operator after $(( that is not plain arithmetic");
                    self.out.unreliable_at = t.origin(i);
                }
                return Ok(end);
            }
            // A subshell in a command substitution: bash finds its end by counting.
            let end = paren_end(b, i + 2);
            self.run(at, t.origin(end.saturating_sub(1)) + 1, Run::Subst(kind));
            self.out.features.comsub = true;
            let inner = t.slice(i + 2, end.saturating_sub(1));
            let end_at = t.origin(end.saturating_sub(1)) + 1;
            self.read_subst(at, end_at, inner, Context::Substitution)?;
            return Ok(end);
        }
        self.raw_comsub(t, i, i + 2, b')', kind)
    }

    /// A command substitution found when the word is expanded: its end found as this
    /// bash finds it then, its program read.
    fn raw_comsub(
        &mut self,
        t: &Rc<Text<'static>>,
        i: usize,
        from: usize,
        close: u8,
        kind: SubstKind,
    ) -> R<usize> {
        self.out.features.comsub = true;
        let at = t.origin(i);
        let end = if self.d.comsub() == ComsubScanner::MatchedPair {
            super::old::extract_delimited_32(t.bytes(), from, kind == SubstKind::Dollar)
        } else {
            let depth = self.depth;
            match self.extent_by_parse(t, from, close) {
                Ok(end) => end,
                // bash runs what it read when a heredoc took the rest of the word (a
                // body running to the end, `)` and all): measured in bash 5.1.
                Err(e) if e.limit.is_none() => {
                    self.depth = depth;
                    t.len()
                }
                Err(e) => return Err(e),
            }
        };
        self.run(at, t.origin(end.saturating_sub(1)) + 1, Run::Subst(kind));
        let inner = t.slice(from, end.saturating_sub(1));
        let end_at = t.origin(end.saturating_sub(1)) + 1;
        self.read_subst(at, end_at, inner, Context::Substitution)?;
        Ok(end)
    }

    /// `xparse_dolparen`: parses from `from` as a command substitution and gives the index
    /// just past its closing token. Only the extent is kept.
    fn extent_by_parse(&mut self, t: &Rc<Text<'static>>, from: usize, close: u8) -> R<usize> {
        self.enter()?;
        // Read in place from `from` (not a copy of the rest: a word of many `$(` is read in
        // linear time); the input charges what the parse reads.
        let mut scratch = Reading {
            work: self.out.work.clone(),
            bodies: Rc::clone(&self.out.bodies),
            ..Reading::default()
        };
        let consumed = {
            let mut r = Reader::new(
                self.d.clone(),
                Rc::clone(t),
                &mut scratch,
                self.depth,
                Context::Substitution,
            );
            r.input.start_at(from);
            r.extent_only = true;
            r.read_dolparen(close)?
        };
        self.leave();
        Ok(consumed)
    }

    /// [`Reader::read_nested`] for the program of the substitution at command offsets
    /// `at..end`, recorded as such for the effects model.
    fn read_subst(&mut self, at: u32, end: u32, text: Text<'static>, context: Context) -> R<()> {
        let mark = self.out.events.len();
        self.out.events.push(super::tree::Event::SubstOpen(at));
        let r = self.read_nested(text, context);
        if r.is_err() {
            self.out.events.truncate(mark);
        } else {
            self.out
                .events
                .push(super::tree::Event::SubstClose(at, end));
        }
        r
    }

    /// Reads a derived text (a backquoted command, a command substitution found during
    /// expansion) as a program of its own; what it finds goes into this reading.
    pub fn read_nested(&mut self, text: Text<'static>, context: Context) -> R<()> {
        self.enter()?;
        self.spend(text.len().div_ceil(super::BYTES_PER_WORK))?;
        let depth = self.depth;
        let d = self.d.clone();
        let mut nested = Reader::new(d.clone(), Rc::new(text), &mut *self.out, depth, context);
        let r = nested.read_program();
        self.leave();
        match r {
            // A shell runs what it could read of a substitution and goes on.
            Err(e) if e.limit.is_none() && d.runs() => Ok(()),
            other => other,
        }
    }
}

impl Reader<'_, '_> {
    /// Counts work (text read again, tokens, expansion steps); past the budget, the
    /// reading stops at a limit.
    pub(crate) fn spend(&mut self, n: usize) -> R<()> {
        if self.out.work.charge(n) {
            return Ok(());
        }
        Err(self.limit(
            self.out
                .work
                .over()
                .map_or(super::Stop::Work, super::Stop::of_over),
        ))
    }

    /// For [`Reader::extent_by_parse`]: the program of a command substitution and its
    /// closing token, read from the start of this reader's text; the stream offset after it.
    pub fn read_dolparen(&mut self, close: u8) -> R<usize> {
        self.parser_state |= super::syntax::PST_CMDSUBST | super::syntax::PST_EOFTOKEN;
        self.shell_eof_token = close;
        self.token_to_read = Some(if close == b')' {
            Tok::DolParen
        } else {
            Tok::DolBrace
        });
        self.parse_comsub_program(close)?;
        if !self.need_here_doc.is_empty() {
            self.gather_here_documents()?;
        }
        Ok(self.input.offset_after_last())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(body: &str) -> Vec<SubstKind> {
        body_substitutions_counted(&Text::command(body.as_bytes()))
            .0
            .into_iter()
            .map(|s| s.2)
            .collect()
    }

    #[test]
    fn finds_dollar_paren_and_backtick() {
        assert_eq!(kinds("a $(id) b\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("a `id` b\n"), vec![SubstKind::Backtick]);
    }

    #[test]
    fn escapes_are_literal_but_escaped_backslash_is_not() {
        assert!(kinds("\\$(id) \\`id\\`\n").is_empty());
        assert_eq!(kinds("\\\\$(id)\n"), vec![SubstKind::Dollar]);
    }

    #[test]
    fn variables_and_arithmetic_run_nothing() {
        assert!(
            kinds("$HOME ${HOME} ${x:-text} ${#x} ${x:0:3} ${x//a/b} $((i+1)) $$(x) $[1+2]\n")
                .is_empty()
        );
    }

    #[test]
    fn nested_substitutions_are_found() {
        assert_eq!(kinds("${x:-$(id)}\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("$(( $(id) ))\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("$[ `id` ]\n"), vec![SubstKind::Backtick]);
    }

    #[test]
    fn dollar_double_paren_that_is_not_plain_arithmetic_counts() {
        assert_eq!(kinds("$((id) )\n"), vec![SubstKind::UnclearArithmetic]);
        assert_eq!(kinds("$((1+2)\n"), vec![SubstKind::UnclearArithmetic]);
        assert_eq!(kinds("$((a) + (b))\n"), vec![SubstKind::UnclearArithmetic]);
    }

    #[test]
    fn a_substitution_of_blanks_runs_nothing_but_an_unclosed_one_counts() {
        assert!(kinds("a ` ` b $( ) c\n").is_empty());
        assert_eq!(kinds("a `\n"), vec![SubstKind::Backtick]);
    }

    #[test]
    fn arithmetic_with_comments_quotes_backslashes_or_newlines_counts() {
        // Red-team shapes: each is a command to some shell (bash's comment rule in
        // `$((`, nested quotes, zsh's quote handling, subscripts expanded twice).
        for body in [
            "$(( #(\ncanary)))\n",
            "$(( canary \"${x:-\"))\"}\" ) )\n",
            "$(( ')' ;canary))\n",
            "$(( b[a[\\$(canary)]] ))\n",
            "$[ a[\\$(canary)] ]\n",
            "$((1 +\n2))\n",
        ] {
            assert!(
                kinds(body).contains(&SubstKind::UnclearArithmetic),
                "{body:?}: {:?}",
                kinds(body)
            );
        }
        assert!(kinds("$((16#ff + ${#x} * $y)) $[ 2#1 ]\n").is_empty());
    }

    #[test]
    fn escaped_substitutions_inside_subscripts_count() {
        for body in ["${a[b[\\$(canary)]]}\n", "${x[a[\\`canary\\`]]}\n"] {
            assert!(
                kinds(body).contains(&SubstKind::ReExpansion),
                "{body:?}: {:?}",
                kinds(body)
            );
        }
        // Plain defaults, escapes outside subscripts, assignments: literal text, judged
        // where it is evaluated (the effects model).
        assert!(
            kinds("${X:-'}'} \\$(id) ${x:=text} ${#x} ${x:=$HOME/.config} ${OUT:-\\$PWD/out} ${d:=$}\n")
                .is_empty()
        );
    }

    #[test]
    fn zsh_flags_with_arguments_or_evaluation_count() {
        for body in ["${(j:):e)x}\n", "${(j(x)e)x}\n", "${(P)x}\n", "${(%)x}\n"] {
            assert_eq!(kinds(body), vec![SubstKind::ZshEvaluation], "{body:?}");
        }
        assert!(kinds("${(U)x} ${(L)x}\n").is_empty());
        // Arguments are read to their own delimiters: a separator is no flag.
        assert!(kinds("${(j:, :)arr} ${(s:,:)csv} ${(@)a} ${(pj:e:)a}\n").is_empty());
        for body in [
            "${(j.\\.).e)x}\n",
            "${(j.\\.e)x}.)\n",
            "${(s:,:e)x}\n",
            "${(l:n:)x}\n",
            "${(#)x}\n",
            "${(j:x)x}\n",
        ] {
            assert_eq!(kinds(body), vec![SubstKind::ZshEvaluation], "{body:?}");
        }
    }

    #[test]
    fn funsub_prompt_and_zsh_eval_are_found() {
        assert_eq!(kinds("${ id; }\n"), vec![SubstKind::FunSub]);
        assert_eq!(kinds("${| id; }\n"), vec![SubstKind::FunSub]);
        assert_eq!(kinds("${v@P}\n"), vec![SubstKind::PromptExpansion]);
        assert_eq!(kinds("${(e)v}\n"), vec![SubstKind::ZshEvaluation]);
    }
}
