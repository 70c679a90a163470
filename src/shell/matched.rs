//! Constructs bash reads as one piece of a word: `parse_matched_pair` (quotes, `${…}`,
//! `$[…]`, `$((…))`, extended patterns, array subscripts), `parse_comsub` (`$(…)`,
//! `<(…)`, `>(…)`, bash 5.3 `${ …; }`), `parse_dparen` / `parse_arith_cmd` (`((…))`)
//! and `parse_compound_assignment` (`a=(…)`), each as the bash version being read does.

use super::lexer::{Pending, R, Reader, Tok};
use super::syntax::*;
use super::syntax::{
    PST_ALLOWOPNBRC, PST_ASSIGNOK, PST_CASEPAT, PST_CMDSUBST, PST_COMPASSIGN, PST_CONDCMD,
    PST_CONDEXPR, PST_EOFTOKEN, PST_EXTPAT, PST_FUNSUBST, PST_NOEXPAND, PST_REDIRLIST, PST_REGEXP,
    PST_SUBSHELL, funsub_char, shellquote,
};
use super::text::Builder;
use super::{ComsubScanner, Context, Run, SubstKind, ZSH_DOLBRACE_BRACE, ZSH_MATH};

const LEX_WASDOL: u32 = 0x0001;
const LEX_CKCOMMENT: u32 = 0x0002;
const LEX_INCOMMENT: u32 = 0x0004;
const LEX_PASSNEXT: u32 = 0x0008;
const LEX_GTLT: u32 = 0x1000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum DolBrace {
    None,
    Param,
    Op,
    Word,
    Quote,
    Quote2,
}

/// The lexer state `parse_comsub` saves and restores around the nested parse.
struct Saved {
    parser_state: u32,
    last_read_token: Tok,
    token_before_that: Tok,
    two_tokens_ago: Tok,
    current_token: Tok,
    esacs_needed: i32,
    expecting_in: i32,
    expecting_in_command: Tok,
    need_here_doc: Vec<Pending>,
    shell_eof_token: u8,
    extglob_forced: bool,
}

impl Reader<'_, '_> {
    fn save(&mut self) -> Saved {
        Saved {
            parser_state: self.parser_state,
            last_read_token: self.last_read_token,
            token_before_that: self.token_before_that,
            two_tokens_ago: self.two_tokens_ago,
            current_token: self.current_token,
            esacs_needed: self.esacs_needed,
            expecting_in: self.expecting_in,
            expecting_in_command: self.expecting_in_command,
            need_here_doc: std::mem::take(&mut self.need_here_doc),
            shell_eof_token: self.shell_eof_token,
            extglob_forced: self.extglob_forced,
        }
    }

    fn restore(&mut self, s: Saved) {
        self.parser_state = s.parser_state;
        self.last_read_token = s.last_read_token;
        self.token_before_that = s.token_before_that;
        self.two_tokens_ago = s.two_tokens_ago;
        self.current_token = s.current_token;
        self.esacs_needed = s.esacs_needed;
        self.expecting_in = s.expecting_in;
        self.expecting_in_command = s.expecting_in_command;
        self.need_here_doc = s.need_here_doc;
        self.shell_eof_token = s.shell_eof_token;
        self.extglob_forced = s.extglob_forced;
    }

    /// `parse_matched_pair`: reads up to the `close` that matches, appending what it
    /// reads (the closing character included) to `b`.
    pub fn parse_matched_pair(
        &mut self,
        qc: u8,
        open: u8,
        close: u8,
        flags: u32,
        b: &mut Builder,
    ) -> R<()> {
        self.enter()?;
        let arith = flags & P_ARITH != 0;
        // zsh's math mode, followed in every reading: zsh is asked where it decides (a
        // quote or backslash in it, a bracket bash does not count).
        let zsh_math = arith;
        if arith {
            self.want_text += 1;
        }
        if zsh_math {
            self.zsh_math += 1;
        }
        // Both scanners read single-quoted text to its `'` alike (no escapes in it).
        let nest = open != close && flags & P_FIRSTCLOSE == 0;
        let alike = (open == b'\'' && flags & P_ALLOWESC == 0)
            || self.plain_ahead(open, close, nest, false, flags & P_COMMAND != 0);
        let r = if !alike && self.d.matched_pair_32() {
            self.matched_pair_32(qc, open, close, flags, b)
        } else {
            self.matched_pair(qc, open, close, flags, b)
        };
        if arith {
            self.want_text -= 1;
        }
        if zsh_math {
            self.zsh_math -= 1;
        }
        self.leave();
        r
    }

    fn matched_pair(&mut self, qc: u8, open: u8, close: u8, flags: u32, b: &mut Builder) -> R<()> {
        // zsh reads `((…))`, `$((…))` and `$[…]` with its `dquote_parse` in math mode
        // (lex.c `cmd_or_math`, `gettok`'s `dbparens`): it counts `(`/`)` and `[`/`]`
        // (an unbalanced one ends the text), a quote is a plain character (`"` quotes
        // only inside `${…}`), a backslash keeps the next character special, and
        // parentheses count inside backquotes. Where bash's reading and zsh's can part
        // (a quote, backslash or backquote; brackets or, in `$[…]`, parentheses that do
        // not balance), the zsh reading is not followed.
        let zsh_math_level = flags & P_ARITH != 0;
        let mut zsh_other = 0usize;
        let mut dolbrace = if flags & P_DOLBRACE != 0 {
            DolBrace::Param
        } else {
            DolBrace::None
        };
        let mut count = 1usize;
        let mut tflags = 0u32;
        if flags & P_COMMAND != 0
            && qc != b'`'
            && qc != b'\''
            && qc != b'"'
            && flags & P_DQUOTE == 0
        {
            tflags |= LEX_CKCOMMENT;
        }
        let rflags = if qc == b'"' {
            P_DQUOTE
        } else {
            flags & P_DQUOTE
        };
        // This call's own text: its length and last character.
        let base = b.len();
        let mut prev_at = self.input.last_origin();
        let mut this_at = prev_at;
        // The bytes this loop decides nothing on, read a run at a time where nothing
        // before them is pending (an escape, a comment, a `$`, `<` or `>`): none is a
        // quote, escape, expansion, redirection character, comment, line end or bracket
        // of this text, so each is pushed as read and leaves no state. Not in arithmetic
        // or `${…}`, where more characters decide (zsh's math, the operator's state).
        let runs = !zsh_math_level && flags & P_DOLBRACE == 0;
        let mut plain_stop = [false; 256];
        if runs {
            for c in [
                b'\\', b'\'', b'"', b'`', b'$', b'#', b'\n', b'<', b'>', open, close,
            ] {
                plain_stop[c as usize] = true;
            }
        }
        while count > 0 {
            if runs
                && self.zsh_math == 0
                && tflags & (LEX_PASSNEXT | LEX_INCOMMENT | LEX_WASDOL | LEX_GTLT) == 0
            {
                let run = self.input.take_run_until(&plain_stop, b);
                if run > 0 {
                    self.spend(run.div_ceil(super::BYTES_PER_WORK))?;
                    this_at = self.input.last_origin();
                    continue;
                }
            }
            prev_at = this_at;
            // This loop decides more per character than the input charges for one.
            self.spend(1)?;
            let ch = self
                .input
                .getc(qc != b'\'' && tflags & LEX_PASSNEXT == 0)
                .ok_or_else(|| {
                    self.err("unexpected end of input in a quoted or bracketed construct")
                })?;
            let origin = self.input.last_origin();
            this_at = origin;
            if tflags & LEX_INCOMMENT != 0 {
                b.push(ch, origin);
                if ch == b'\n' {
                    tflags &= !LEX_INCOMMENT;
                }
                continue;
            } else if tflags & LEX_CKCOMMENT != 0
                && ch == b'#'
                && (b.len() == base || matches!(b.last_byte(), Some(b'\n' | b' ' | b'\t')))
            {
                tflags |= LEX_INCOMMENT;
            }
            if tflags & LEX_PASSNEXT != 0 {
                tflags &= !LEX_PASSNEXT;
                if qc != b'\'' && ch == b'\n' {
                    if b.len() > base {
                        b.pop();
                    }
                    continue;
                }
                b.push(ch, origin);
                continue;
            } else if ch == close {
                count -= 1;
            } else if ch == open
                && ((open != close && tflags & LEX_WASDOL != 0 && open == b'{')
                    || flags & P_FIRSTCLOSE == 0)
            {
                // A nested `${`, or a nested opener.
                count += 1;
            }
            if self.zsh_math > 0 && matches!(ch, b'\'' | b'"' | b'`' | b'\\') {
                self.zsh_unreliable(ZSH_MATH);
            }
            if zsh_math_level {
                // The other bracket than the one bash counts: `[`/`]` in `((…))`,
                // `(`/`)` in `$[…]`.
                let (o, c) = if open == b'[' {
                    (b'(', b')')
                } else {
                    (b'[', b']')
                };
                if ch == o {
                    zsh_other += 1;
                } else if ch == c {
                    match zsh_other.checked_sub(1) {
                        Some(n) => zsh_other = n,
                        None => self.zsh_unreliable(ZSH_MATH),
                    }
                }
                if count == 0 && zsh_other != 0 {
                    self.zsh_unreliable(ZSH_MATH);
                }
            }
            if flags & P_DOLBRACE != 0
                && flags & P_DQUOTE == 0
                && ch == b'{'
                && tflags & LEX_WASDOL == 0
            {
                // zsh counts every `{` inside an unquoted `${…}` (gettokstr's `bct`); bash
                // only `${`.
                self.zsh_unreliable(ZSH_DOLBRACE_BRACE);
            }
            b.push(ch, origin);
            if count == 0 {
                break;
            }
            if open == b'\'' {
                if flags & P_ALLOWESC != 0 && ch == b'\\' {
                    tflags |= LEX_PASSNEXT;
                }
                continue;
            }
            if ch == b'\\' {
                tflags |= LEX_PASSNEXT;
            }
            if flags & P_DOLBRACE != 0 {
                let n = b.len() - base;
                dolbrace = match dolbrace {
                    DolBrace::Param if n > 1 && matches!(ch, b'%' | b'#' | b'^' | b',') => {
                        DolBrace::Quote
                    }
                    DolBrace::Param if n > 1 && ch == b'/' => DolBrace::Quote2,
                    DolBrace::Param if b"#%^,~:-=?+/".contains(&ch) => DolBrace::Op,
                    DolBrace::Op if !b"#%^,~:-=?+/".contains(&ch) => DolBrace::Word,
                    other => other,
                };
            }
            if flags & P_DQUOTE != 0 && flags & P_DOLBRACE != 0 && ch == b'\'' && self.d.zsh() {
                // zsh's `dquote_parse`: inside `"${…}"` a `'` is a plain character (bash
                // reads it so only in POSIX mode: parse_matched_pair's `posixly_correct`
                // test, which zsh takes whatever the operator). A `$` before it does not
                // make the next character a `$(`, `${` or `$[` in zsh.
                tflags &= !(LEX_WASDOL | LEX_GTLT);
                continue;
            }
            let mut dollar_word = false;
            if open != close {
                if shellquote(ch) {
                    self.dstack.push(ch);
                    let nflags = if tflags & LEX_WASDOL != 0 && ch == b'\'' {
                        self.ansi_c_after_dollar(b);
                        P_ALLOWESC | rflags
                    } else {
                        rflags
                    };
                    if ch == b'`' {
                        self.out.features.backquote = true;
                    }
                    self.parse_matched_pair(ch, ch, ch, nflags, b)?;
                    self.dstack.pop();
                } else {
                    let wasdol = tflags & LEX_WASDOL != 0;
                    let subscript_or_brace = flags & (P_ARRAYSUB | P_DOLBRACE) != 0;
                    let arith = flags & P_ARITH != 0;
                    // `$(`, `${`, `$[` in a subscript or `${…}`; `$(` in arithmetic (5.2+);
                    // `${ cmd; }` in arithmetic (5.3); `<(` in a subscript or `${…}` (5.1+).
                    // (Each quirk is asked only where it decides.)
                    dollar_word = (subscript_or_brace
                        && wasdol
                        && matches!(ch, b'(' | b'{' | b'['))
                        || (arith && wasdol && ch == b'(' && self.d.matched_52())
                        || (arith && wasdol && ch == b'{' && self.peek_funsub() && self.d.funsub())
                        || (subscript_or_brace
                            && tflags & LEX_GTLT != 0
                            && ch == b'('
                            && self.d.matched_51());
                }
            } else if open == b'"' && ch == b'`' {
                self.out.features.backquote = true;
                self.parse_matched_pair(0, b'`', b'`', rflags, b)?;
            } else if open != b'`' && tflags & LEX_WASDOL != 0 && matches!(ch, b'(' | b'{' | b'[') {
                dollar_word = true;
            }
            if dollar_word {
                if open == ch {
                    count -= 1;
                }
                // The `$` (or `<`/`>`) before this character.
                let at = prev_at;
                match ch {
                    b'(' => {
                        let was_gtlt = tflags & LEX_GTLT != 0;
                        let kind = if was_gtlt {
                            SubstKind::Process
                        } else {
                            SubstKind::Dollar
                        };
                        self.parse_comsub(
                            0,
                            b'(',
                            b')',
                            (rflags | P_COMMAND) & !P_DQUOTE,
                            b,
                            at,
                            kind,
                        )?;
                    }
                    b'{' => {
                        self.out.features.dollar_brace = true;
                        if self.peek_funsub() && self.d.funsub() {
                            self.parse_comsub(
                                0,
                                b'{',
                                b'}',
                                rflags | P_COMMAND,
                                b,
                                at,
                                SubstKind::FunSub,
                            )?;
                        } else {
                            self.parse_matched_pair(
                                0,
                                b'{',
                                b'}',
                                P_FIRSTCLOSE | P_DOLBRACE | rflags,
                                b,
                            )?;
                        }
                    }
                    _ => {
                        self.out.features.arith = true;
                        let f = if self.d.matched_52() {
                            rflags | P_ARITH
                        } else {
                            rflags
                        };
                        self.parse_matched_pair(0, b'[', b']', f, b)?;
                    }
                }
            }
            if (ch == b'<' || ch == b'>') && tflags & LEX_GTLT == 0 {
                tflags |= LEX_GTLT;
            } else {
                tflags &= !LEX_GTLT;
            }
            // From 5.1 a `$` right after a `$` does not start an expansion: asked only for
            // `$$`, where the two rules part.
            let set_dol = ch == b'$' && (tflags & LEX_WASDOL == 0 || !self.d.matched_51());
            if set_dol {
                tflags |= LEX_WASDOL;
            } else {
                tflags &= !LEX_WASDOL;
            }
        }
        Ok(())
    }

    /// bash 3.2's `parse_matched_pair`.
    fn matched_pair_32(
        &mut self,
        qc: u8,
        open: u8,
        close: u8,
        flags: u32,
        b: &mut Builder,
    ) -> R<()> {
        let mut count = 1usize;
        let mut pass_next = false;
        let mut was_dollar = false;
        let mut in_comment = false;
        let check_comment = flags & P_COMMAND != 0
            && qc != b'`'
            && qc != b'\''
            && qc != b'"'
            && flags & P_DQUOTE == 0;
        let rflags = if qc == b'"' {
            P_DQUOTE
        } else {
            flags & P_DQUOTE
        };
        let base = b.len();
        // The bytes this loop decides nothing on (after anything but `$` or `\\`), read a
        // run at a time.
        let mut plain_stop = [false; 256];
        for c in [b'\\', b'\'', b'"', b'`', b'$', b'#', b'\n', open, close] {
            plain_stop[c as usize] = true;
        }
        let mut comment_stop = [false; 256];
        comment_stop[b'\n' as usize] = true;
        comment_stop[b'\\' as usize] = true;
        while count > 0 {
            if !pass_next && !was_dollar {
                let stop = if in_comment {
                    &comment_stop
                } else {
                    &plain_stop
                };
                let run = self.input.take_run_until(stop, b);
                if run > 0 && !in_comment {
                    was_dollar = false;
                }
                self.spend(run.div_ceil(super::BYTES_PER_WORK))?;
            }
            self.spend(super::CHAR_WORK)?;
            let ch = self.input.getc(qc != b'\'' && !pass_next).ok_or_else(|| {
                self.err("unexpected end of input in a quoted or bracketed construct")
            })?;
            let origin = self.input.last_origin();
            if in_comment {
                b.push(ch, origin);
                if ch == b'\n' {
                    in_comment = false;
                }
                continue;
            } else if check_comment
                && ch == b'#'
                && (b.len() == base || matches!(b.last_byte(), Some(b'\n' | b' ' | b'\t')))
            {
                in_comment = true;
            }
            if pass_next {
                pass_next = false;
                if qc != b'\'' && ch == b'\n' {
                    if b.len() > base {
                        b.pop();
                    }
                    continue;
                }
                b.push(ch, origin);
                continue;
            } else if ch == close {
                count -= 1;
            } else if ch == open
                && ((open != close && was_dollar && open == b'{') || flags & P_FIRSTCLOSE == 0)
            {
                count += 1;
            }
            b.push(ch, origin);
            if count == 0 {
                break;
            }
            if open == b'\'' {
                if flags & P_ALLOWESC != 0 && ch == b'\\' {
                    pass_next = true;
                }
                continue;
            }
            if ch == b'\\' {
                pass_next = true;
            }
            if open != close {
                if shellquote(ch) {
                    self.dstack.push(ch);
                    let nflags = if was_dollar && ch == b'\'' {
                        self.ansi_c_after_dollar(b);
                        P_ALLOWESC | rflags
                    } else {
                        rflags
                    };
                    if ch == b'`' {
                        self.out.features.backquote = true;
                    }
                    self.parse_matched_pair(ch, ch, ch, nflags, b)?;
                    self.dstack.pop();
                }
            } else if open == b'"' && ch == b'`' {
                self.out.features.backquote = true;
                self.parse_matched_pair(0, b'`', b'`', rflags, b)?;
            } else if open != b'`' && was_dollar && matches!(ch, b'(' | b'{' | b'[') {
                if open == ch {
                    count -= 1;
                }
                match ch {
                    b'(' => {
                        self.out.features.comsub = true;
                        self.parse_matched_pair(0, b'(', b')', rflags & !P_DQUOTE, b)?;
                    }
                    b'{' => {
                        self.out.features.dollar_brace = true;
                        self.parse_matched_pair(0, b'{', b'}', P_FIRSTCLOSE | rflags, b)?;
                    }
                    _ => {
                        self.out.features.arith = true;
                        self.parse_matched_pair(0, b'[', b']', rflags, b)?;
                    }
                }
            }
            was_dollar = ch == b'$';
        }
        Ok(())
    }

    /// True when the next character may follow `${` in a bash 5.3 `${ cmd; }`.
    fn peek_funsub(&mut self) -> bool {
        match self.input.getc(true) {
            Some(c) => {
                self.input.ungetc(c);
                funsub_char(c)
            }
            None => false,
        }
    }

    /// `parse_comsub`: reads `$(…)` (or `<(…)`, `>(…)`, `${ …; }`) after its opening
    /// character, appending its text to `b`. True when the program was read here (bash
    /// 5.2+); false when only its extent was found (older bash, or `$((…))`, which is
    /// decided when the word is expanded). `at` is the command offset of the `$`, `<` or
    /// `>`.
    #[allow(clippy::too_many_arguments)]
    pub fn parse_comsub(
        &mut self,
        qc: u8,
        open: u8,
        close: u8,
        flags: u32,
        b: &mut Builder,
        at: u32,
        kind: SubstKind,
    ) -> R<bool> {
        if open == b'(' {
            match self.input.getc(true) {
                Some(b'(') => {
                    self.input.ungetc(b'(');
                    self.out.features.arith = true;
                    let pflags = if !self.plain_ahead(b'(', b')', true, false, false)
                        && self.d.matched_pair_32()
                    {
                        0
                    } else {
                        P_ARITH
                    };
                    self.parse_matched_pair(qc, open, close, pflags, b)?;
                    return Ok(false);
                }
                Some(c) => self.input.ungetc(c),
                None => {}
            }
        }
        self.out.features.comsub = true;
        // A command substitution is read as commands, in zsh too (`skipcomm`).
        let zsh_math = std::mem::take(&mut self.zsh_math);
        let r = self.comsub_body(qc, open, close, flags, b, at, kind);
        self.zsh_math = zsh_math;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn comsub_body(
        &mut self,
        qc: u8,
        open: u8,
        close: u8,
        flags: u32,
        b: &mut Builder,
        at: u32,
        kind: SubstKind,
    ) -> R<bool> {
        // Plain text to the closing `)` on this line is read alike by every scanner (and
        // read at once: no alias defined meanwhile can apply, were aliases expanded).
        // Not inside an older bash's scan of a substitution's text: that scan runs
        // nothing (what runs is read when the text is expanded).
        let plain = open == b'('
            && self.text_scans == 0
            && !self.d.aliases()
            && self.plain_ahead(b'(', b')', false, true, true);
        let scanner = if plain {
            ComsubScanner::Recursive
        } else {
            self.d.comsub()
        };
        match scanner {
            ComsubScanner::MatchedPair => {
                self.text_scans += 1;
                let r = self.parse_matched_pair(qc, open, close, P_COMMAND, b);
                self.text_scans -= 1;
                r?;
                Ok(false)
            }
            ComsubScanner::Old44 | ComsubScanner::Old51 => {
                self.text_scans += 1;
                let r = self.old_parse_comsub(qc, open, close, flags, b);
                self.text_scans -= 1;
                r?;
                Ok(false)
            }
            ComsubScanner::Recursive => {
                // What runs is recorded now; for older bash, when the word is expanded.
                let end_hint = self.input.last_origin();
                self.run(at, end_hint, Run::Subst(kind));
                self.recursive_comsub(open, close, b, at)?;
                Ok(true)
            }
        }
    }

    /// bash 5.2+: the program inside is read by a recursive call of the parser, which
    /// stops at the closing token.
    fn recursive_comsub(&mut self, open: u8, close: u8, b: &mut Builder, at: u32) -> R<()> {
        if open == b'{' {
            // `${` then a blank, newline or `|`: the blank is consumed (a newline is not).
            if self.input.getc(true) == Some(b'\n') {
                self.input.ungetc(b'\n');
            }
        }
        self.enter()?;
        let saved = self.save();
        self.parser_state &=
            !(PST_REGEXP | PST_EXTPAT | PST_CONDCMD | PST_CONDEXPR | PST_COMPASSIGN);
        self.parser_state &= !(PST_CASEPAT | PST_SUBSHELL | PST_REDIRLIST | PST_ALLOWOPNBRC);
        self.parser_state |= PST_CMDSUBST | PST_EOFTOKEN | PST_NOEXPAND;
        if open == b'{' {
            self.parser_state |= PST_FUNSUBST;
        }
        self.shell_eof_token = close;
        self.esacs_needed = 0;
        self.expecting_in = 0;
        self.expecting_in_command = Tok::None;
        self.current_token = Tok::Char(b'\n');
        self.token_to_read = Some(if open == b'(' {
            Tok::DolParen
        } else {
            Tok::DolBrace
        });
        let saved_context = self.context;
        self.context = Context::Substitution;
        let start = self.input.next_origin();
        // The text is kept only where bash reads it again (arithmetic, patterns), and, in
        // the intended reading, in a heredoc delimiter (its closing line as written).
        let keep = self.want_text > 0
            || (matches!(self.last_read_token, Tok::LessLess | Tok::LessLessMinus)
                && self.d.keeps_delimiter_text());
        if keep {
            self.input.capture_start();
        }
        let mark = self.out.events.len();
        self.out.events.push(super::tree::Event::SubstOpen(at));
        let r = self.parse_comsub_program(close);
        let captured = if keep { self.input.capture_end() } else { None };
        if r.is_ok() && !self.need_here_doc.is_empty() {
            if self.d.zsh() {
                // zsh gives a heredoc that is still pending at the `)` no body at all, and
                // reads the lines after as commands (measured, zsh 5.9).
                self.need_here_doc.clear();
            } else {
                // `$(cat <<EOF)`: the body is read now, from the lines after this one.
                self.gather_here_documents()?;
            }
        }
        self.context = saved_context;
        r?;
        let closing = if close == b'}' {
            Tok::RBrace
        } else {
            Tok::Char(close)
        };
        if self.current_token != closing {
            return Err(self.err("command substitution not closed"));
        }
        let end = self.input.last_origin();
        self.restore(saved);
        self.leave();
        if self.out.events.len() > mark {
            self.out
                .events
                .push(super::tree::Event::SubstClose(at, end.saturating_add(1)));
        }
        // The word keeps the text of the substitution (bash keeps its own re-print of
        // the program; the text as read, heredoc lines included, serves the same purposes
        // here: a nested subshell read again, a delimiter compared).
        match captured {
            Some(t) => b.push_text(&t, 0, t.len()),
            None => b.push(close, end),
        }
        let _ = start;
        self.parsed.push((at, end + 1));
        self.parsed_by_start.insert(at, end + 1);
        Ok(())
    }

    /// `parse_dparen` after `((`: an arithmetic command or `for ((`, or a nested subshell
    /// read again from the text. `None` when `((` is not special here.
    pub fn parse_dparen(&mut self) -> R<Option<Tok>> {
        if self.last_read_token == Tok::For {
            self.out.features.arith = true;
            return match self.parse_arith_cmd()? {
                Some(true) => Ok(Some(Tok::ArithForExprs)),
                _ => Err(self.err("syntax error in for (( ))")),
            };
        }
        if self.reserved_word_acceptable(self.last_read_token) {
            self.out.features.arith = true;
            return match self.parse_arith_cmd()? {
                Some(true) => Ok(Some(Tok::ArithCmd)),
                Some(false) => {
                    self.out.features.dparen_subshell = true;
                    let subshell = if self.d.parse53() {
                        self.parser_state & (PST_CASEPAT | PST_CONDCMD) == 0
                    } else {
                        self.parser_state & PST_CASEPAT == 0
                    };
                    if subshell {
                        self.parser_state |= PST_SUBSHELL;
                    }
                    Ok(Some(Tok::Char(b'(')))
                }
                None => Err(self.err("unexpected end of input in (( ))")),
            };
        }
        Ok(None)
    }

    /// `parse_arith_cmd`: reads to the matching `)`, then one more character. True when
    /// that is `)` (an arithmetic command), false for a nested subshell (its text is pushed
    /// back and read again as commands).
    fn parse_arith_cmd(&mut self) -> R<Option<bool>> {
        let mut b = Builder::default();
        let open_at = self.input.last_origin();
        let pflags =
            if !self.plain_ahead(b'(', b')', true, false, false) && self.d.matched_pair_32() {
                0
            } else {
                P_ARITH
            };
        self.parse_matched_pair(0, b'(', b')', pflags, &mut b)?;
        let c = self.input.getc(false);
        let c_at = self.input.last_origin();
        if c == Some(b')') {
            // The expression is expanded when the command runs.
            let text = b.finish(c_at);
            let body = std::rc::Rc::new(text.slice(0, text.len().saturating_sub(1)));
            self.expand_arith(&body)?;
            let body = std::rc::Rc::try_unwrap(body).unwrap_or_else(|shared| (*shared).clone());
            self.out
                .events
                .push(super::tree::Event::Arith(Box::new(body)));
            return Ok(Some(true));
        }
        let Some(c) = c else {
            return Ok(None);
        };
        if self.d.parse53() {
            self.input.ungetc(c);
        }
        // `(` + text + `)` [+ c]: read again as tokens.
        let text = b.finish(c_at);
        let mut p = Builder::with_capacity(text.len() + 2);
        p.push(b'(', open_at);
        p.push_text(&text, 0, text.len());
        if !self.d.parse53() {
            p.push(c, c_at);
        }
        let pushed = p.finish(c_at);
        if self.d.heredoc_from_stream() {
            // bash reads the heredoc lines of this text from the input after it, not from
            // the text: past modelling, and never what the text shows.
            let b = pushed.bytes();
            if b.contains(&b'\n') && b.windows(2).any(|w| w == b"<<") {
                self.out.unreliable = Some(
                    "bash reads `((…) )` again as nested subshells, and the heredocs in it from the lines after it",
                );
                self.out.unreliable_at = open_at;
            }
            self.input.push_string(pushed);
        } else {
            self.input.push_string_own_heredocs(pushed);
        }
        Ok(Some(false))
    }

    /// `parse_compound_assignment`: the words of `a=(…)`, read as tokens.
    pub fn parse_compound_assignment(&mut self, b: &mut Builder) -> R<()> {
        self.enter()?;
        let saved = (
            self.parser_state,
            self.last_read_token,
            self.token_before_that,
            self.two_tokens_ago,
            self.current_token,
            self.esacs_needed,
            self.expecting_in,
        );
        let saved_word = self.word.clone();
        self.last_read_token = Tok::Word;
        let assignok = self.parser_state & PST_ASSIGNOK;
        self.parser_state &= !(PST_NOEXPAND | PST_CONDCMD | PST_CONDEXPR | PST_REGEXP | PST_EXTPAT);
        self.parser_state |= PST_COMPASSIGN;
        self.esacs_needed = 0;
        self.expecting_in = 0;
        let mut first = true;
        loop {
            // bash reads these with read_token, not yylex: the last token stays WORD.
            let t = self.read_token()?;
            match t {
                Tok::Char(b')') => break,
                Tok::Char(b'\n') => continue,
                Tok::Word | Tok::AssignmentWord => {
                    if !first {
                        b.push(b' ', self.word.start);
                    }
                    first = false;
                    let w = self.word.clone();
                    b.push_text(&w.text, 0, w.text.len());
                    self.expand_word(&w)?;
                }
                Tok::Eof => {
                    return Err(super::ReadError {
                        discard: true,
                        ..self.err("unexpected end of input in a compound assignment")
                    });
                }
                _ => {
                    return Err(super::ReadError {
                        discard: true,
                        ..self.err("syntax error in a compound assignment")
                    });
                }
            }
        }
        self.parser_state = saved.0;
        self.last_read_token = saved.1;
        self.token_before_that = saved.2;
        self.two_tokens_ago = saved.3;
        self.current_token = saved.4;
        self.esacs_needed = saved.5;
        self.expecting_in = saved.6;
        self.word = saved_word;
        if assignok != 0 {
            self.parser_state |= PST_ASSIGNOK;
        }
        self.leave();
        Ok(())
    }
}
