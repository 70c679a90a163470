//! What runs when text is expanded: an unquoted heredoc body (bash and zsh read it like
//! a double-quoted string whose quotes are literal), a word of a command, an arithmetic
//! expression. Command substitutions that were not read as programs when the command was
//! parsed (older bash; backquotes always; text bash captured raw) are found here, the way
//! subst.c finds them, and their programs read.

use std::rc::Rc;

use super::lexer::{R, Reader, Tok, Word, funsub_char};
use super::text::{Builder, Text};
use super::{ComsubScanner, Context, Reading, Run, Shell, SubstKind};

/// Every substitution an unquoted heredoc body runs in bash or zsh, with its command
/// offsets. The scan is linear, looks at every `$` and backquote, and never skips the
/// inside of `${…}`, `$((…))` or `$[…]`, so substitutions nested there are found.
pub fn body_substitutions(doc: &Text<'_>) -> Vec<(u32, u32, SubstKind)> {
    let b = doc.bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let Some(off) = memchr::memchr3(b'\\', b'`', b'$', &b[i..]) else {
            break;
        };
        i += off;
        match b[i] {
            b'\\' => {
                i += if matches!(b.get(i + 1), Some(b'$' | b'`' | b'\\')) {
                    2
                } else {
                    1
                };
            }
            b'`' => {
                let end = backquote_end(b, i + 1);
                // A command of blanks alone runs nothing.
                if !blank(&b[(i + 1).min(end)..end.saturating_sub(1).max(i + 1)]) || end == b.len()
                {
                    found.push((
                        doc.origin(i),
                        doc.origin(end.saturating_sub(1)) + 1,
                        SubstKind::Backtick,
                    ));
                }
                i = end;
            }
            _ => match b.get(i + 1) {
                Some(b'(') => {
                    if b.get(i + 2) == Some(&b'(') && is_arithmetic(b, i + 2) {
                        i += 3;
                    } else {
                        let end = paren_end(b, i + 2);
                        if !blank(&b[(i + 2).min(end)..end.saturating_sub(1).max(i + 2)])
                            || end == b.len()
                        {
                            found.push((
                                doc.origin(i),
                                doc.origin(end.saturating_sub(1)) + 1,
                                SubstKind::Dollar,
                            ));
                        }
                        i = end;
                    }
                }
                Some(b'{') => {
                    if let Some(kind) = brace_kind(b, i + 2) {
                        let end = brace_end(b, i + 2);
                        found.push((doc.origin(i), doc.origin(end.saturating_sub(1)) + 1, kind));
                    }
                    i += 2;
                }
                Some(b'$') => i += 2,
                _ => i += 1,
            },
        }
    }
    found
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

/// The end (exclusive) of `${…}` whose inside starts at `from`.
fn brace_end(b: &[u8], from: usize) -> usize {
    let mut depth = 0usize;
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 1,
            b'{' => depth += 1,
            b'}' => {
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

/// What a `${` whose inside starts at `from` runs, if anything.
fn brace_kind(b: &[u8], from: usize) -> Option<SubstKind> {
    match b.get(from) {
        Some(&c) if funsub_char(c) => return Some(SubstKind::FunSub),
        Some(b'(') => {
            // zsh flags `${(…)…}`; one that does not close is not read further.
            let Some(close) = b[from..].iter().position(|&c| c == b')') else {
                return Some(SubstKind::ZshEvaluation);
            };
            let flags = &b[from + 1..from + close];
            if flags.iter().any(|&c| c == b'e' || c == b'%') {
                return Some(SubstKind::ZshEvaluation);
            }
            return None;
        }
        _ => {}
    }
    let end = brace_end(b, from);
    let inner = &b[from..end.saturating_sub(1).max(from)];
    if inner.ends_with(b"@P") {
        return Some(SubstKind::PromptExpansion);
    }
    None
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
        let t = w.text.clone();
        if !t
            .bytes()
            .iter()
            .any(|&c| matches!(c, b'`' | b'$' | b'<' | b'>'))
        {
            return Ok(());
        }
        let depth = self.depth;
        let r = self.walk(&t, 0, Mode::Word, 0).map(|_| ());
        self.expansion_failed(r, depth)
    }

    /// Expands an arithmetic expression (`((…))`, `for ((…))`).
    pub fn expand_arith(&mut self, t: &Text<'static>) -> R<()> {
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
            Err(e) if !e.limit && self.d.shell != Shell::Intended => {
                self.depth = depth;
                Ok(())
            }
            other => other,
        }
    }

    /// True when the `$(` at command offset `at` was read as a program at parse time;
    /// gives where it ends.
    fn parsed_end(&self, at: u32) -> Option<u32> {
        self.parsed.iter().find(|&&(s, _)| s == at).map(|&(_, e)| e)
    }

    /// Walks `t` from `i` in `mode` until `close` (0: the end); returns the index after
    /// `close`.
    fn walk(&mut self, t: &Text<'static>, mut i: usize, mode: Mode, close: u8) -> R<usize> {
        self.enter()?;
        let b = t.bytes().to_vec();
        while i < b.len() {
            let c = b[i];
            if close != 0 && c == close {
                self.leave();
                return Ok(i + 1);
            }
            match c {
                b'\\' => i += 2,
                b'\'' if mode == Mode::Word => {
                    i = memchr::memchr(b'\'', &b[i + 1..]).map_or(b.len(), |p| i + 2 + p);
                }
                b'"' if mode == Mode::Word => {
                    i = self.walk(t, i + 1, Mode::Dquote, b'"')?;
                }
                b'`' => {
                    i = self.backquote(t, i)?;
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
                        if self.d.funsub() && b.get(i + 2).copied().is_some_and(funsub_char) {
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
        }
        self.leave();
        Ok(b.len())
    }

    /// `${…}` from its inside at `i`: nested braces counted, quotes skipped, substitutions
    /// walked.
    fn walk_brace(&mut self, t: &Text<'static>, mut i: usize, mode: Mode) -> R<usize> {
        self.enter()?;
        let b = t.bytes().to_vec();
        let mut depth = 0usize;
        while i < b.len() {
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
                b'`' => i = self.backquote(t, i)?,
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
        }
        self.leave();
        Ok(b.len())
    }

    /// A backquoted command at `i`: its text, with bash's backslash removal, read as a
    /// program.
    fn backquote(&mut self, t: &Text<'static>, i: usize) -> R<usize> {
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
        // de_backslash: `\$`, `` \` `` and `\\` lose their backslash.
        let mut nb = Builder::with_capacity(inner_end.saturating_sub(i + 1));
        let mut j = i + 1;
        while j < inner_end {
            if b[j] == b'\\'
                && matches!(b.get(j + 1), Some(b'$' | b'`' | b'\\'))
                && j + 1 < inner_end
            {
                j += 1;
            }
            nb.push(b[j], t.origin(j));
            j += 1;
        }
        let inner = nb.finish(t.origin(inner_end));
        self.read_nested(inner, Context::Backquote)?;
        Ok(end)
    }

    /// `$(` (or `<(`, `>(`) at `i`.
    fn dollar_paren(&mut self, t: &Text<'static>, i: usize, kind: SubstKind) -> R<usize> {
        let b = t.bytes();
        let at = t.origin(i);
        if let Some(end) = self.parsed_end(at) {
            // Read as a program when the command was parsed.
            let mut j = i;
            while j < b.len() && t.origin(j) < end {
                j += 1;
            }
            return Ok(j);
        }
        if kind == SubstKind::Dollar && b.get(i + 2) == Some(&b'(') {
            if is_arithmetic(b, i + 2) {
                self.out.features.arith = true;
                let end = paren_end(b, i + 2);
                // `$((` expr `))`: walk the expression.
                let inner = t.slice(i + 3, end.saturating_sub(2));
                self.walk(&inner, 0, Mode::Arith, 0)?;
                return Ok(end);
            }
            // A subshell in a command substitution: bash finds its end by counting.
            let end = paren_end(b, i + 2);
            self.run(at, t.origin(end.saturating_sub(1)) + 1, Run::Subst(kind));
            self.out.features.comsub = true;
            let inner = t.slice(i + 2, end.saturating_sub(1));
            self.read_nested(inner, Context::Substitution)?;
            return Ok(end);
        }
        self.raw_comsub(t, i, i + 2, b')', kind)
    }

    /// A command substitution found when the word is expanded: its end found as this
    /// bash finds it then, its program read.
    fn raw_comsub(
        &mut self,
        t: &Text<'static>,
        i: usize,
        from: usize,
        close: u8,
        kind: SubstKind,
    ) -> R<usize> {
        self.out.features.comsub = true;
        let at = t.origin(i);
        let end = if self.d.comsub_scanner() == ComsubScanner::MatchedPair {
            super::old::extract_delimited_32(t.bytes(), from, kind == SubstKind::Dollar)
        } else {
            let depth = self.depth;
            match self.extent_by_parse(t, from, close) {
                Ok(end) => end,
                // bash runs what it read when a heredoc took the rest of the word (a
                // body running to the end, `)` and all): measured in bash 5.1.
                Err(e) if !e.limit => {
                    self.depth = depth;
                    t.len()
                }
                Err(e) => return Err(e),
            }
        };
        self.run(at, t.origin(end.saturating_sub(1)) + 1, Run::Subst(kind));
        let inner = t.slice(from, end.saturating_sub(1));
        self.read_nested(inner, Context::Substitution)?;
        Ok(end)
    }

    /// `xparse_dolparen`: parses from `from` as a command substitution and gives the index
    /// just past its closing token. Only the extent is kept.
    fn extent_by_parse(&mut self, t: &Text<'static>, from: usize, close: u8) -> R<usize> {
        self.enter()?;
        let rest = Rc::new(t.slice(from, t.len()));
        self.spend(rest.len())?;
        let mut scratch = Reading {
            work: self.out.work,
            ..Reading::default()
        };
        let consumed = {
            let mut r = Reader::new(
                self.d,
                Rc::clone(&rest),
                &mut scratch,
                self.depth,
                Context::Substitution,
            );
            r.extent_only = true;
            r.read_dolparen(close)?
        };
        self.out.work = scratch.work;
        self.leave();
        Ok(from + consumed)
    }

    /// Reads a derived text (a backquoted command, a command substitution found during
    /// expansion) as a program of its own; what it finds goes into this reading.
    pub fn read_nested(&mut self, text: Text<'static>, context: Context) -> R<()> {
        self.enter()?;
        self.spend(text.len())?;
        let depth = self.depth;
        let d = self.d;
        let mut nested = Reader::new(d, Rc::new(text), &mut *self.out, depth, context);
        let r = nested.read_program();
        self.leave();
        match r {
            // A shell runs what it could read of a substitution and goes on.
            Err(e) if !e.limit && d.shell != Shell::Intended => Ok(()),
            other => other,
        }
    }
}

impl Reader<'_, '_> {
    /// Counts text read again; past the budget, the reading stops at a limit (older bash
    /// reads nested substitutions once per level).
    fn spend(&mut self, n: usize) -> R<()> {
        self.out.work = self.out.work.saturating_add(n);
        if self.out.work > super::MAX_REREAD_BYTES {
            return Err(self.limit("text read again"));
        }
        Ok(())
    }

    /// For [`Reader::extent_by_parse`]: the program of a command substitution and its
    /// closing token, read from the start of this reader's text; the stream offset after it.
    pub fn read_dolparen(&mut self, close: u8) -> R<usize> {
        self.parser_state |= super::lexer::PST_CMDSUBST | super::lexer::PST_EOFTOKEN;
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

impl Shell {
    /// Shells whose `$(…)` in a word is read at parse time.
    pub fn parses_comsub_early(self) -> bool {
        matches!(
            self,
            Shell::Intended | Shell::Bash52 | Shell::Bash53 | Shell::Zsh
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(body: &str) -> Vec<SubstKind> {
        body_substitutions(&Text::command(body.as_bytes()))
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
    fn dollar_double_paren_that_is_not_arithmetic_is_a_subshell() {
        assert_eq!(kinds("$((id) )\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("$((1+2)\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("$((a) + (b))\n"), vec![SubstKind::Dollar]);
    }

    #[test]
    fn a_substitution_of_blanks_runs_nothing_but_an_unclosed_one_counts() {
        assert!(kinds("a ` ` b $( ) c\n").is_empty());
        assert_eq!(kinds("a `\n"), vec![SubstKind::Backtick]);
    }

    #[test]
    fn funsub_prompt_and_zsh_eval_are_found() {
        assert_eq!(kinds("${ id; }\n"), vec![SubstKind::FunSub]);
        assert_eq!(kinds("${| id; }\n"), vec![SubstKind::FunSub]);
        assert_eq!(kinds("${v@P}\n"), vec![SubstKind::PromptExpansion]);
        assert_eq!(kinds("${(e)v}\n"), vec![SubstKind::ZshEvaluation]);
    }
}
