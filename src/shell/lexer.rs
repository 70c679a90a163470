//! bash's tokenizer: `read_token`, `read_token_word`, reserved words and the special
//! cases of `special_case_tokens`, with the lexer state bash keeps in globals
//! (`parser_state`, the last tokens read, pending heredocs, the end-of-substitution
//! token). The grammar that drives it is in grammar.rs.

use std::rc::Rc;

use super::input::Input;
use super::syntax::*;
use super::text::{Builder, Text};
use super::tree::Word;
use super::{
    Context, Exec, Probe, ReadError, Reading, Run, SubstKind, ZSH_KEYWORD, ZSH_RBRACE_ASSIGNMENT,
    ZSH_REDIRECTED_COMMAND, ZSH_WORD_PAREN,
};

/// A token, as bash's `yylex` returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Word,
    AssignmentWord,
    Number,
    RedirWord,
    ArithCmd,
    ArithForExprs,
    CondCmd,
    If,
    Then,
    Else,
    Elif,
    Fi,
    Case,
    Esac,
    For,
    Select,
    While,
    Until,
    Do,
    Done,
    In,
    Function,
    Time,
    TimeOpt,
    TimeIgn,
    LBrace,
    RBrace,
    Bang,
    CondStart,
    CondEnd,
    Coproc,
    AndAnd,
    OrOr,
    GreaterGreater,
    LessLess,
    LessLessMinus,
    LessLessLess,
    LessAnd,
    GreaterAnd,
    LessGreater,
    GreaterBar,
    AndGreater,
    AndGreaterGreater,
    BarAnd,
    SemiSemi,
    SemiAnd,
    SemiSemiAnd,
    /// `>`, `<`, `-`, `;`, `(`, `)`, `|`, `&`, newline.
    Char(u8),
    DolParen,
    DolBrace,
    Eof,
    /// No token read yet (bash's 0).
    None,
    /// An alias was expanded: read the token again (bash's `RE_READ_TOKEN`); never
    /// returned by [`Reader::read_token`].
    ReRead,
}

const RESERVED: [(&[u8], Tok); 22] = [
    (b"if", Tok::If),
    (b"then", Tok::Then),
    (b"else", Tok::Else),
    (b"elif", Tok::Elif),
    (b"fi", Tok::Fi),
    (b"case", Tok::Case),
    (b"esac", Tok::Esac),
    (b"for", Tok::For),
    (b"select", Tok::Select),
    (b"while", Tok::While),
    (b"until", Tok::Until),
    (b"do", Tok::Do),
    (b"done", Tok::Done),
    (b"in", Tok::In),
    (b"function", Tok::Function),
    (b"time", Tok::Time),
    (b"{", Tok::LBrace),
    (b"}", Tok::RBrace),
    (b"!", Tok::Bang),
    (b"[[", Tok::CondStart),
    (b"]]", Tok::CondEnd),
    (b"coproc", Tok::Coproc),
];

/// The work of a word's bytes looked at again whole, per [`super::BYTES_PER_WORK`] bytes.
const WORD_PASSES_WORK: usize = 4;

/// The bytes after which `read_token_word` may decide anything but "a plain character of
/// the word": quotes, escapes, expansions, metacharacters and blanks, subscripts,
/// assignments, braces, pattern characters.
const WORD_PLAIN_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let stops = b"\\'\"`$<>();&| \t\n[]={}@*+?!";
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether a word is an assignment in zsh only: to a positional parameter (`1=x`,
/// `2+=y`), or to a name that holds a byte past ASCII (a letter in a UTF-8 locale, `é=1`).
pub(super) fn zsh_only_assignment(bytes: &[u8]) -> bool {
    let Some(eq) = bytes.iter().position(|&c| c == b'=') else {
        return false;
    };
    let name = bytes[..eq].strip_suffix(b"+").unwrap_or(&bytes[..eq]);
    let name = name.split(|&c| c == b'[').next().unwrap_or_default();
    !name.is_empty()
        && (name.iter().all(u8::is_ascii_digit)
            || (!name.is_ascii()
                && !name[0].is_ascii_digit()
                && name
                    .iter()
                    .all(|&c| c >= 0x80 || c.is_ascii_alphanumeric() || c == b'_')))
}

/// zsh's reserved words that bash does not have and the reader does not follow: each puts
/// a later word in command position (`repeat 1 {…`, `nocorrect {…`) or opens a loop.
const ZSH_ONLY_RESERVED: [&[u8]; 4] = [b"repeat", b"foreach", b"nocorrect", b"end"];

/// What a `$` construct in a word was.
pub enum Expansion {
    Dollar,
    Quoted,
}

/// A heredoc waiting for its body (bash's `redir_stack`).
#[derive(Clone, Debug)]
pub struct Pending {
    pub op: u32,
    pub strip_tabs: bool,
    pub word: Word,
}

/// The reader of one text (the command, or text derived from it) as one shell.
pub struct Reader<'s, 'o> {
    pub(super) d: Probe,
    pub(super) input: Input<'s>,
    pub(super) out: &'o mut Reading,
    pub(super) depth: usize,
    /// The depth this reader started at.
    pub(super) base_depth: usize,
    pub(super) context: Context,

    pub(super) parser_state: u32,
    pub(super) last_read_token: Tok,
    pub(super) token_before_that: Tok,
    pub(super) two_tokens_ago: Tok,
    pub(super) current_token: Tok,
    pub(super) token_to_read: Option<Tok>,
    pub(super) word_to_read: Option<Word>,
    pub(super) esacs_needed: i32,
    pub(super) expecting_in: i32,
    /// bash 5.3's `expecting_in_command`.
    pub(super) expecting_in_command: Tok,
    pub(super) open_brace_count: i32,
    pub(super) need_here_doc: Vec<Pending>,
    pub(super) shell_eof_token: u8,
    pub(super) dstack: Vec<u8>,
    /// Extended patterns are on whatever the dialect says (a `[[ … == … ]]` pattern).
    pub(super) extglob_forced: bool,
    pub(super) eof_reached: bool,

    /// The last word read.
    pub(super) word: Word,
    /// The grammar's lookahead token and its word.
    pub(super) peeked: Option<(Tok, Option<Word>)>,
    /// Command offsets of `$(…)` read as programs at parse time (start, end), in the
    /// order read, and the same by start for lookups.
    pub(super) parsed: Vec<(u32, u32)>,
    pub(super) parsed_by_start: rustc_hash::FxHashMap<u32, u32>,
    /// Inside text bash reads again: command substitutions keep their text in the word.
    pub(super) want_text: usize,
    /// Inside an older bash's scan of a substitution's text (nothing read there runs).
    pub(super) text_scans: usize,
    /// Reading only for where a construct ends (`xparse_dolparen`): words are not expanded.
    pub(super) extent_only: bool,
    /// Command offset of the last token's first character.
    pub(super) tok_at: u32,
    /// Levels of arithmetic text (`((…))`, `$((…))`, `$[…]`) around the reader, not
    /// counting those outside a command substitution: zsh reads them in math mode.
    pub(super) zsh_math: usize,
    /// zsh: a `}` split off the end of the last word (gettokstr's `{foo}` hack), read
    /// next as its own token; its command offset.
    pub(super) zsh_rbrace: Option<u32>,
    /// zsh: the command that allowed assignments as arguments is `typeset`-like.
    pub(super) zsh_typeset: bool,
}

pub type R<T> = Result<T, ReadError>;

fn legal_number(s: &[u8]) -> Option<i64> {
    let s = std::str::from_utf8(s).ok()?;
    let t = s.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
    t.parse::<i64>().ok()
}

impl<'s, 'o> Reader<'s, 'o> {
    pub fn new(
        d: Probe,
        text: Rc<Text<'s>>,
        out: &'o mut Reading,
        depth: usize,
        context: Context,
    ) -> Reader<'s, 'o> {
        Reader {
            d,
            input: Input::new(text, out.work.clone()),
            out,
            depth,
            base_depth: depth,
            context,
            parser_state: 0,
            last_read_token: Tok::Char(b'\n'),
            token_before_that: Tok::None,
            two_tokens_ago: Tok::None,
            current_token: Tok::Char(b'\n'),
            token_to_read: None,
            word_to_read: None,
            esacs_needed: 0,
            expecting_in: 0,
            expecting_in_command: Tok::None,
            open_brace_count: 0,
            need_here_doc: Vec::new(),
            shell_eof_token: 0,
            dstack: Vec::new(),
            extglob_forced: false,
            eof_reached: false,
            word: Word::empty(),
            peeked: None,
            parsed: Vec::new(),
            parsed_by_start: rustc_hash::FxHashMap::default(),
            want_text: 0,
            text_scans: 0,
            extent_only: false,
            tok_at: 0,
            zsh_math: 0,
            zsh_rbrace: None,
            zsh_typeset: false,
        }
    }

    /// Marks the reading as not followed (zsh only), keeping the first reason.
    pub fn zsh_unreliable(&mut self, what: &'static str) {
        let at = self.input.last_origin();
        self.zsh_unreliable_at(what, at);
    }

    /// [`Reader::zsh_unreliable`] for the construct at command offset `at`.
    pub fn zsh_unreliable_at(&mut self, what: &'static str, at: u32) {
        if self.d.zsh() && self.out.unreliable.is_none() {
            self.out.unreliable = Some(what);
            self.out.unreliable_at = at;
        }
    }

    /// bash 3.2 and 4.4 rewrite a `$'…'` string in the text of a `$(…)`, `${…}` or `$[…]`
    /// as they scan it: decoded and single-quoted again, its `$` dropped. A `$` before it
    /// (`$$'\\'`) then starts another `$'…'` string in the text they run, which the reader,
    /// reading the text as written, does not follow (round 79: a heredoc body line run by
    /// bash 3.2). Called with the scanned text `b` holding the `'` that opens a `$'…'`.
    pub fn ansi_c_after_dollar(&mut self, b: &Builder) {
        if b.bytes().ends_with(b"$$'") && !self.d.matched_51() && self.out.unreliable.is_none() {
            self.out.unreliable = Some(
                "bash 3.2 and 4.4 rewrite a $'…' string in a substitution's text, and a $ before it then starts another string",
            );
            self.out.unreliable_at = self.input.last_origin();
        }
    }

    pub fn err(&self, cause: &'static str) -> ReadError {
        ReadError {
            cause,
            at: self.input.last_origin(),
            limit: None,
            discard: false,
        }
    }

    pub fn limit(&self, stop: super::Stop) -> ReadError {
        ReadError {
            cause: stop.cause(),
            at: self.input.last_origin(),
            limit: Some(stop),
            discard: false,
        }
    }

    /// bash's `reset_parser` after an error it recovers from: the rest of the line goes,
    /// and the parser starts afresh on the next one.
    pub fn reset_parser(&mut self) {
        self.dstack.clear();
        self.open_brace_count = 0;
        self.parser_state = 0;
        self.need_here_doc.clear();
        self.esacs_needed = 0;
        self.expecting_in = 0;
        self.expecting_in_command = Tok::None;
        self.current_token = Tok::Char(b'\n');
        self.last_read_token = Tok::Char(b'\n');
        self.token_before_that = Tok::None;
        self.token_to_read = None;
        self.word_to_read = None;
        self.peeked = None;
        self.shell_eof_token = 0;
        self.extglob_forced = false;
        self.depth = self.base_depth;
        self.zsh_rbrace = None;
        self.input.discard_line();
    }

    /// Enters one level of nesting; fails past the limit, or past the depth this
    /// reading's stack allows (the caller then reads again on a larger one).
    pub fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > self.out.work.max_depth() {
            if self.depth > super::MAX_NESTING {
                return Err(self.limit(super::Stop::Nesting));
            }
            self.out.work.stop(super::Over::Depth);
            return Err(self.limit(super::Stop::Deep));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub fn run(&mut self, at: u32, end: u32, what: Run) {
        self.out.exec.push(Exec {
            at,
            end,
            what,
            in_body: None,
        });
    }

    fn getc(&mut self, rqn: bool) -> Option<u8> {
        self.input.getc(rqn)
    }

    /// `yylex`: the next token, keeping the last three.
    pub fn yylex(&mut self) -> R<Tok> {
        self.two_tokens_ago = self.token_before_that;
        self.token_before_that = self.last_read_token;
        self.last_read_token = self.current_token;
        let t = self.read_token()?;
        self.current_token = t;
        Ok(t)
    }

    pub fn reserved_word_acceptable(&self, t: Tok) -> bool {
        match t {
            Tok::Char(b'\n' | b';' | b'(' | b')' | b'|' | b'&')
            | Tok::LBrace
            | Tok::RBrace
            | Tok::AndAnd
            | Tok::ArithCmd
            | Tok::Bang
            | Tok::BarAnd
            | Tok::CondEnd
            | Tok::Do
            | Tok::Done
            | Tok::Elif
            | Tok::Else
            | Tok::Esac
            | Tok::Fi
            | Tok::If
            | Tok::OrOr
            | Tok::SemiSemi
            | Tok::SemiAnd
            | Tok::SemiSemiAnd
            | Tok::Then
            | Tok::Time
            | Tok::TimeOpt
            | Tok::TimeIgn
            | Tok::Coproc
            | Tok::Until
            | Tok::While
            | Tok::None
            | Tok::DolParen => true,
            Tok::DolBrace if self.d.parse53() => true,
            _ => {
                self.last_read_token == Tok::Word
                    && matches!(self.token_before_that, Tok::Coproc | Tok::Function)
            }
        }
    }

    fn parsing_redirection(t: Tok) -> bool {
        matches!(
            t,
            Tok::Char(b'<' | b'>')
                | Tok::GreaterGreater
                | Tok::GreaterBar
                | Tok::LessGreater
                | Tok::LessLessMinus
                | Tok::LessLess
                | Tok::LessLessLess
                | Tok::LessAnd
                | Tok::GreaterAnd
                | Tok::AndGreater
        )
    }

    pub fn command_token_position(&self, t: Tok) -> bool {
        t == Tok::AssignmentWord
            || (self.parser_state & PST_REDIRLIST != 0 && !Self::parsing_redirection(t))
            || (!matches!(t, Tok::SemiSemi | Tok::SemiAnd | Tok::SemiSemiAnd)
                && self.reserved_word_acceptable(t))
    }

    pub fn assignment_acceptable(&self, t: Tok) -> bool {
        self.command_token_position(t) && self.parser_state & PST_CASEPAT == 0
    }

    fn time_command_acceptable(&self) -> bool {
        match self.last_read_token {
            Tok::None | Tok::Char(b';' | b'\n') if self.token_before_that == Tok::Char(b'|') => {
                false
            }
            Tok::None
            | Tok::Char(b';' | b'\n' | b'&' | b'(' | b')')
            | Tok::AndAnd
            | Tok::OrOr
            | Tok::While
            | Tok::Do
            | Tok::Until
            | Tok::If
            | Tok::Then
            | Tok::Elif
            | Tok::Else
            | Tok::LBrace
            | Tok::Bang
            | Tok::Time
            | Tok::TimeOpt
            | Tok::TimeIgn
            | Tok::DolParen => true,
            _ => false,
        }
    }

    /// `read_token (READ)`, again after an alias was expanded.
    pub fn read_token(&mut self) -> R<Tok> {
        loop {
            let t = self.read_token_once()?;
            if t != Tok::ReRead {
                return Ok(t);
            }
        }
    }

    fn read_token_once(&mut self) -> R<Tok> {
        // Every token counts against the work budget (besides its characters, which the
        // input charges): a loop that does not move on (a token read again and again at
        // the end of the input, an alias expanded again) ends at the budget, a deny,
        // instead of hanging the hook.
        self.spend(super::TOKEN_WORK)?;
        if let Some(t) = self.token_to_read.take() {
            if let Some(w) = self.word_to_read.take() {
                self.word = w;
            }
            return Ok(t);
        }
        if let Some(at) = self.zsh_rbrace.take() {
            // The `}` split off the last word: always the reserved word in zsh.
            self.tok_at = at;
            self.parser_state &= !PST_ASSIGNOK;
            if self.open_brace_count > 0 {
                self.open_brace_count -= 1;
            }
            return Ok(Tok::RBrace);
        }
        if self.parser_state & (PST_CONDCMD | PST_CONDEXPR) == PST_CONDCMD {
            self.parser_state |= PST_CONDEXPR;
            self.out.features.cond = true;
            let end = self.parse_cond_command()?;
            if end != Tok::CondEnd {
                return Err(self.err("syntax error in conditional expression"));
            }
            self.token_to_read = Some(Tok::CondEnd);
            self.parser_state &= !(PST_CONDEXPR | PST_CONDCMD);
            return Ok(Tok::CondCmd);
        }
        let mut c = loop {
            match self.getc(true) {
                Some(c) if shellblank(c) => continue,
                other => break other,
            }
        };
        let Some(mut ch) = c.take() else {
            self.eof_reached = true;
            self.tok_at = self.input.next_origin();
            return Ok(Tok::Eof);
        };
        self.tok_at = self.input.last_origin();
        if ch == b'#' {
            // A comment: discard to the end of the line.
            loop {
                match self.getc(false) {
                    None => {
                        if self.d.parse53() {
                            self.eof_reached = true;
                            return Ok(Tok::Eof);
                        }
                        break;
                    }
                    Some(b'\n') => {
                        self.input.ungetc(b'\n');
                        break;
                    }
                    Some(_) => {}
                }
            }
            // shell_getc (0) reads the newline again.
            match self.getc(false) {
                Some(_) => {}
                None => {
                    self.eof_reached = true;
                    return Ok(Tok::Eof);
                }
            }
            self.tok_at = self.input.last_origin();
            ch = b'\n';
        }
        if ch == b'\n' {
            if !self.need_here_doc.is_empty() {
                self.gather_here_documents()?;
            }
            self.parser_state &= !PST_ASSIGNOK;
            return Ok(Tok::Char(b'\n'));
        }
        if self.parser_state & PST_REGEXP != 0 {
            return self.read_token_word(ch);
        }
        if shellmeta(ch) {
            self.parser_state &= !PST_ASSIGNOK;
            // zsh reads an operator's characters without line continuation (`<<\⏎-E` is
            // `<<` and the word `-E` there; bash joins it into `<<-E`). Asked only where a
            // backslash-newline stands.
            let probe = self.d.clone();
            let join = || !probe.zsh();
            let peek = if self.parser_state & PST_CMDSUBST != 0 && ch == self.shell_eof_token {
                self.getc(false)
            } else {
                self.input.getc_joining(join)
            };
            if peek == Some(ch) {
                match ch {
                    b'<' => {
                        let p2 = self.input.getc_joining(join);
                        return Ok(match p2 {
                            Some(b'-') => Tok::LessLessMinus,
                            Some(b'<') => Tok::LessLessLess,
                            other => {
                                if let Some(o) = other {
                                    self.input.ungetc(o);
                                }
                                Tok::LessLess
                            }
                        });
                    }
                    b'>' => return Ok(Tok::GreaterGreater),
                    b';' => {
                        self.parser_state |= PST_CASEPAT;
                        let p2 = self.input.getc_joining(join);
                        if p2 == Some(b'&') {
                            return Ok(Tok::SemiSemiAnd);
                        }
                        if let Some(o) = p2 {
                            self.input.ungetc(o);
                        }
                        return Ok(Tok::SemiSemi);
                    }
                    b'&' => return Ok(Tok::AndAnd),
                    b'|' => return Ok(Tok::OrOr),
                    b'(' => {
                        if let Some(t) = self.parse_dparen()? {
                            return Ok(t);
                        }
                    }
                    _ => {}
                }
            } else {
                match (ch, peek) {
                    (b'<', Some(b'&')) => return Ok(Tok::LessAnd),
                    (b'>', Some(b'&')) => return Ok(Tok::GreaterAnd),
                    (b'<', Some(b'>')) => return Ok(Tok::LessGreater),
                    (b'>', Some(b'|')) => return Ok(Tok::GreaterBar),
                    (b'&', Some(b'>')) => {
                        let p2 = self.input.getc_joining(join);
                        if p2 == Some(b'>') {
                            return Ok(Tok::AndGreaterGreater);
                        }
                        if let Some(o) = p2 {
                            self.input.ungetc(o);
                        }
                        return Ok(Tok::AndGreater);
                    }
                    (b'|', Some(b'&')) => return Ok(Tok::BarAnd),
                    (b';', Some(b'&')) => {
                        self.parser_state |= PST_CASEPAT;
                        return Ok(Tok::SemiAnd);
                    }
                    _ => {}
                }
            }
            if ch == b'('
                && peek != Some(b')')
                && ((self.word.start < self.word.end && self.word.end == self.tok_at)
                    || (self.last_read_token == Tok::Word
                        && self.parser_state & (PST_CASEPAT | PST_CONDEXPR) == 0))
                && self.d.zsh()
            {
                // zsh: a `(` inside a word opens a glob group or qualifiers that the word
                // goes on through, blanks and newlines included (gettokstr's LX2_INPAR,
                // `pct`); bash ends the word there. After a word, out of command position,
                // a `(` starts such a word (gettok's LX1_INPAR), where bash reads
                // `name ( )` as a function. Only `name()` is the same.
                self.zsh_unreliable_at(ZSH_WORD_PAREN, self.tok_at);
            }
            if let Some(p) = peek {
                self.input.ungetc(p);
            }
            if ch == b')'
                && self.last_read_token == Tok::Char(b'(')
                && self.token_before_that == Tok::Word
            {
                self.parser_state |= PST_ALLOWOPNBRC;
            }
            // bash 5.3 takes a `(` for a subshell in fewer places: asked only where the two
            // rules part.
            let old_rule = ch == b'(' && self.parser_state & PST_CASEPAT == 0;
            let rule53 = old_rule
                && self.parser_state & PST_CONDCMD == 0
                && self.last_read_token != Tok::Word;
            // `name()`: the `(` and `)` are read at once, and the state the old rule sets
            // is cleared again by the `)`.
            let closes_at_once = old_rule != rule53
                && self
                    .input
                    .rest_of_line()
                    .is_some_and(|r| r.first() == Some(&b')'));
            let subshell_paren = if old_rule == rule53 || closes_at_once {
                old_rule
            } else if self.d.parse53() {
                rule53
            } else {
                old_rule
            };
            if subshell_paren {
                self.parser_state |= PST_SUBSHELL;
            } else if self.parser_state & PST_CASEPAT != 0 && ch == b')' {
                self.parser_state &= !PST_CASEPAT;
            } else if self.parser_state & PST_SUBSHELL != 0 && ch == b')' {
                self.parser_state &= !PST_SUBSHELL;
            }
            if (ch != b'>' && ch != b'<') || peek != Some(b'(') {
                return Ok(Tok::Char(ch));
            }
            // `<(` / `>(`: a word (process substitution).
            return self.read_token_word(ch);
        }
        if ch == b'-' && matches!(self.last_read_token, Tok::LessAnd | Tok::GreaterAnd) {
            return Ok(Tok::Char(b'-'));
        }
        self.read_token_word(ch)
    }

    /// `read_token_word`; a word (not a reserved word) is recorded as code this shell
    /// reads, at its first character.
    pub fn read_token_word(&mut self, first: u8) -> R<Tok> {
        let arg = self.argument_position();
        let t = self.read_token_word_inner(first, arg)?;
        if matches!(
            t,
            Tok::Word | Tok::AssignmentWord | Tok::Number | Tok::RedirWord
        ) {
            let at = self.word.start;
            self.run(at, at, if arg { Run::Arg } else { Run::Token });
        }
        Ok(t)
    }

    /// Whether a word read now is an argument of the simple command being read: after a
    /// word, not in command position (not the command's name, an assignment before it, or
    /// a redirection's target). Such a word runs and writes nothing by itself.
    fn argument_position(&self) -> bool {
        matches!(self.last_read_token, Tok::Word)
            && !self.command_token_position(self.last_read_token)
            && self.parser_state & (PST_CASEPAT | PST_CONDCMD | PST_CONDEXPR | PST_COMPASSIGN) == 0
    }

    fn read_token_word_inner(&mut self, first: u8, arg: bool) -> R<Tok> {
        use super::syntax::{P_ALLOWESC, P_ARITH, P_ARRAYSUB, P_COMMAND, P_DOLBRACE, P_FIRSTCLOSE};
        let start = self.input.last_origin();
        let mut b = Builder::with_capacity(16);
        let mut w = Word::empty();
        w.start = start;
        w.from_alias = self.input.reading_alias();
        let mut all_digits = first.is_ascii_digit();
        let mut dollar_present = false;
        let mut quoted = false;
        let mut pass_next = false;
        let mut character = Some(first);
        let mut origin = start;
        // zsh's gettokstr: `{`s not yet closed in this word (`bct`), and the command
        // offset of the word's last character when it is a `}` that closes none of them
        // and no backslash quotes (counted in every reading; zsh is asked where they
        // decide).
        let mut zsh_braces = 0usize;
        let mut zsh_last_rbrace: Option<u32> = None;
        enum Step {
            Char,
            Next,
            Token,
        }
        let mut glued = false;
        while let Some(c) = character {
            let cd = self.dstack.last().copied().unwrap_or(0);
            let mut escaped = false;
            let step = if pass_next {
                pass_next = false;
                escaped = true;
                Step::Char
            } else if c == b'{'
                && b.is_empty()
                && self.parser_state & PST_CASEPAT == 0
                && self.reserved_word_acceptable(self.last_read_token)
                && !self.next_breaks_word()
                && self.d.zsh()
            {
                // zsh: a `{` that starts a word in command position is a word by itself
                // (gettokstr's LX2_INBRACE: `!lexbuf.len && incmdpos`), so `{echo x}`
                // is a group. Followed by a blank, a newline, `;`, `&` or `|`, it is that
                // word in bash too (zsh is not asked).
                b.push(c, origin);
                all_digits = false;
                character = None;
                Step::Token
            } else if c == b'\\' {
                if self.parser_state & PST_NOEXPAND != 0 {
                    pass_next = true;
                    quoted = true;
                    Step::Char
                } else {
                    let peek = self.getc(false);
                    if peek == Some(b'\n') {
                        Step::Next
                    } else {
                        if let Some(p) = peek {
                            self.input.ungetc(p);
                            if cd == 0 || cd == b'`' || (cd == b'"' && bs_dquote(p)) {
                                pass_next = true;
                            }
                        }
                        quoted = true;
                        Step::Char
                    }
                }
            } else if self.parser_state & PST_FUNSUBST != 0
                && b.is_empty()
                && !quoted
                && self.reserved_word_acceptable(self.last_read_token)
                && c == b'}'
            {
                b.push(c, origin);
                all_digits = false;
                dollar_present = false;
                character = None;
                Step::Token
            } else if shellquote(c) {
                self.dstack.push(c);
                b.push(c, origin);
                if c == b'`' {
                    self.out.features.backquote = true;
                    w.expansion = true;
                    self.parse_matched_pair(c, c, c, P_COMMAND, &mut b)?;
                    if self.d.backquote_quotes_word() {
                        quoted = true;
                    }
                } else {
                    let part = b.len();
                    self.parse_matched_pair(c, c, c, 0, &mut b)?;
                    quoted = true;
                    if c == b'"' {
                        // bash looks for `$` in this part only (`strchr (ttok, '$')`).
                        dollar_present |= b.bytes()[part..].contains(&b'$');
                    }
                }
                self.dstack.pop();
                all_digits = false;
                Step::Next
            } else if self.parser_state & PST_REGEXP != 0 && (c == b'(' || c == b'|') {
                if c == b'|' {
                    Step::Char
                } else {
                    self.dstack.push(c);
                    b.push(c, origin);
                    self.raw_capture(|r| r.parse_matched_pair(cd, b'(', b')', 0, &mut b))?;
                    self.dstack.pop();
                    dollar_present = false;
                    all_digits = false;
                    Step::Next
                }
            } else if self.word_extglob(c, cd, origin, &mut b)? {
                dollar_present = false;
                all_digits = false;
                Step::Next
            } else if let Some(step) = self.word_expansion(c, cd, origin, &mut b, &mut w)? {
                match step {
                    Expansion::Dollar => {
                        dollar_present = true;
                        all_digits = false;
                    }
                    Expansion::Quoted => {
                        quoted = true;
                        all_digits = false;
                    }
                }
                Step::Next
            } else if c == b'['
                && ((!b.is_empty()
                    && self.assignment_acceptable(self.last_read_token)
                    && legal_identifier(b.bytes()))
                    || (b.is_empty() && self.parser_state & PST_COMPASSIGN != 0))
                && !self.d.zsh()
            {
                b.push(c, origin);
                self.parse_matched_pair(cd, b'[', b']', P_ARRAYSUB, &mut b)?;
                all_digits = false;
                Step::Next
            } else if c == b'='
                && !b.is_empty()
                && (self.assignment_acceptable(self.last_read_token)
                    || self.parser_state & PST_ASSIGNOK != 0)
                && self.token_is_assignment(b.bytes())
                && self.peek_is(b'(')
            {
                b.push(b'=', origin);
                b.push(b'(', self.input.last_origin());
                self.parse_compound_assignment(&mut b)?;
                b.push(b')', self.input.last_origin());
                all_digits = false;
                Step::Next
            } else if shellbreak(c) {
                self.input.ungetc(c);
                Step::Token
            } else {
                Step::Char
            };
            match step {
                Step::Token => break,
                Step::Char => {
                    if glued {
                        // Text glued to the end of a substitution or a quoted part is code
                        // where it stands (a heredoc line bash 3.2 or 5.2+ reads on from):
                        // part of a command's name, or of one of its arguments.
                        self.run(origin, origin, if arg { Run::Arg } else { Run::Token });
                        glued = false;
                    }
                    b.push(c, origin);
                    all_digits &= c.is_ascii_digit();
                    dollar_present |= c == b'$';
                    zsh_last_rbrace = None;
                    if !escaped {
                        if c == b'{' {
                            zsh_braces += 1;
                        } else if c == b'}' {
                            match zsh_braces.checked_sub(1) {
                                Some(n) => zsh_braces = n,
                                None => zsh_last_rbrace = Some(origin),
                            }
                        }
                    }
                    if !pass_next {
                        // The characters after it that this loop would take one at a time
                        // as plain characters, taken at once (what the loop does for each
                        // of them: push it, and keep `all_digits`).
                        let from = b.len();
                        if self.input.take_run_until(&WORD_PLAIN_STOP, &mut b) > 0 {
                            all_digits &= b.bytes()[from..].iter().all(u8::is_ascii_digit);
                        }
                    }
                }
                Step::Next => {
                    zsh_last_rbrace = None;
                    glued = true;
                }
            }
            let cd = self.dstack.last().copied().unwrap_or(0);
            character = self.getc(cd != b'\'' && !pass_next);
            origin = self.input.last_origin();
        }
        let _ = (P_ALLOWESC, P_ARITH, P_DOLBRACE, P_FIRSTCLOSE);
        let mut next_is_redir = matches!(character, Some(b'<' | b'>'));
        w.end = self.input.next_origin();
        if let Some(at) = zsh_last_rbrace
            && b.bytes().contains(&b'=')
        {
            // Whether zsh splits the `}` depends on whether it reads the word as an
            // assignment, which this reader decides only nearly as zsh does.
            self.zsh_unreliable_at(ZSH_RBRACE_ASSIGNMENT, at);
        }
        if let Some(at) = zsh_last_rbrace
            && b.len() > 1
            && character != Some(b'(')
            && !self.zsh_envstring(b.bytes())
            && self.d.zsh()
        {
            // zsh gives back a `}` that ends a word and closes no `{` of it ("hack to
            // get {foo} command syntax work", the end of gettokstr): `<<'EOF'}` is the
            // delimiter `EOF` and then a `}`. Not in an assignment (`peek == STRING`),
            // nor before a `(`, which zsh reads on through (then not followed).
            b.pop();
            w.end = at;
            next_is_redir = false;
            self.zsh_rbrace = Some(at);
        }
        let text = b.finish(w.end);
        // A word is looked at again as a whole several times (assignment, quote removal,
        // expansion, copies), in every reading: a quarter unit per byte, besides the
        // reading of its characters (a long word read a run at a time costs little there).
        self.spend(super::bulk_work(text.len()) * WORD_PASSES_WORK)?;
        // The word's bytes, looked at below while the reader moves on: a copy, on the stack
        // for a word that fits (most words).
        let mut short = [0u8; 64];
        let long: Vec<u8>;
        let bytes: &[u8] = match text.bytes() {
            t if t.len() <= short.len() => {
                let n = t.len();
                short[..n].copy_from_slice(t);
                &short[..n]
            }
            t => {
                long = t.to_vec();
                &long
            }
        };
        w.quoted = quoted;
        w.dollar = dollar_present;
        w.text = text;
        self.word = w;

        // NUMBER: all digits before `<` / `>`, or after `<&` / `>&`.
        if all_digits
            && (next_is_redir || matches!(self.last_read_token, Tok::LessAnd | Tok::GreaterAnd))
            && legal_number(bytes).is_some_and(|n| i32::try_from(n).is_ok())
        {
            return Ok(Tok::Number);
        }
        // zsh keeps a command that has only redirections so far in command position (its
        // par_redir): a reserved word or a `{` there starts a compound command, which bash
        // reads as a plain word (a redirection's own target aside).
        if self.parser_state & PST_REDIRLIST != 0
            && !super::grammar::is_redirection_op(self.last_read_token)
            && (bytes.first() == Some(&b'{')
                || RESERVED.iter().any(|(w, _)| *w == bytes)
                || ZSH_ONLY_RESERVED.contains(&bytes))
        {
            self.zsh_unreliable_at(ZSH_REDIRECTED_COMMAND, self.word.start);
        }
        // bash's special case reads an unquoted `}` as the reserved word too, with the
        // same count, when a `{` is open, it stands in command position and no `{` is
        // allowed next: zsh is not asked then.
        let bash_reserved_rbrace = self.open_brace_count > 0
            && self.reserved_word_acceptable(self.last_read_token)
            && self.parser_state & PST_ALLOWOPNBRC == 0;
        if bytes == b"}" && !quoted && !dollar_present && !bash_reserved_rbrace && self.d.zsh() {
            // exalias: an unquoted `}` is the reserved word wherever it stands.
            if self.open_brace_count > 0 {
                self.open_brace_count -= 1;
            }
            return Ok(Tok::RBrace);
        }
        if let Some(t) = self.special_case_tokens(bytes) {
            return Ok(t);
        }
        if self.alias_expand(bytes, quoted)? {
            return Ok(Tok::ReRead);
        }
        if !dollar_present
            && !quoted
            && self.reserved_word_acceptable(self.last_read_token)
            && let Some(t) = self.check_reserved(bytes)
        {
            return Ok(t);
        }
        if !dollar_present
            && !quoted
            && self.reserved_word_acceptable(self.last_read_token)
            && ZSH_ONLY_RESERVED.contains(&bytes)
        {
            self.zsh_unreliable_at(ZSH_KEYWORD, self.word.start);
        }
        let is_assignment = assignment(bytes, self.parser_state & PST_COMPASSIGN != 0).is_some();
        let nosplit = is_assignment
            && (self.assignment_acceptable(self.last_read_token)
                || self.parser_state & PST_COMPASSIGN != 0);
        if self.command_token_position(self.last_read_token)
            && (is_assignment_builtin(bytes) || bytes == b"eval" || bytes == b"let")
        {
            self.parser_state |= PST_ASSIGNOK;
            self.zsh_typeset = is_assignment_builtin(bytes) && bytes != b"alias";
        }
        if bytes.first() == Some(&b'{')
            && bytes.last() == Some(&b'}')
            && next_is_redir
            && bytes.len() >= 2
            && (legal_identifier(&bytes[1..bytes.len() - 1])
                || super::syntax::array_reference(&bytes[1..bytes.len() - 1]))
        {
            return Ok(Tok::RedirWord);
        }
        let result = if nosplit {
            Tok::AssignmentWord
        } else {
            Tok::Word
        };
        match self.last_read_token {
            Tok::Function => {
                self.parser_state |= PST_ALLOWOPNBRC;
            }
            Tok::Case | Tok::Select | Tok::For => {
                self.expecting_in += 1;
            }
            _ => {}
        }
        Ok(result)
    }

    /// [`token_is_assignment`], charged for what it looked at.
    fn token_is_assignment(&self, token: &[u8]) -> bool {
        let (is, looked) = token_is_assignment(token);
        self.out.work.charge(super::bulk_work(looked)) && is
    }

    /// Reads one character and gives it back; true when it is `want` (which is then
    /// consumed).
    /// Whether the next character, looked at without reading it, ends the word being
    /// read whatever the dialect: a blank, a newline, `;`, `&` or `|` in the current line.
    /// Not `<` or `>`: bash's word loop reads on through `<(…)` and `>(…)`, and joins a
    /// backslash-newline after them; nor `(` or `)`. Where the next character is not in
    /// the line (the line must be refilled, or an alias's text ends with the space bash
    /// adds), false. Nothing is read: a character read and given back at the end of an
    /// alias's text is given back differently the second time (round 26).
    fn next_breaks_word(&self) -> bool {
        matches!(
            self.input.peek_in_line(),
            Some(b' ' | b'\t' | b'\n' | b';' | b'&' | b'|')
        )
    }

    fn peek_is(&mut self, want: u8) -> bool {
        match self.getc(true) {
            Some(c) if c == want => true,
            Some(c) => {
                self.input.ungetc(c);
                false
            }
            None => false,
        }
    }

    /// Whether the text ahead closes an `open` just read plainly, on this line: every bash
    /// scanner then reads it alike, and the dialect's scanner need not be asked.
    pub(super) fn plain_ahead(
        &self,
        open: u8,
        close: u8,
        nest: bool,
        quotes: bool,
        command: bool,
    ) -> bool {
        self.input
            .rest_of_line()
            .is_some_and(|r| super::plain::closes_plainly(r, open, close, nest, quotes, command))
    }

    /// An extended pattern `@(…)`, `!(…)`… in a word, when extglob is on.
    fn word_extglob(&mut self, c: u8, cd: u8, origin: u32, b: &mut Builder) -> R<bool> {
        if !pattern_char(c) {
            return Ok(false);
        }
        // Only a pattern character before `(` can start one: where extglob could change
        // the reading (a feature, and the only place the dialect's extglob is asked).
        if !self.peek_is(b'(') {
            return Ok(false);
        }
        self.out.features.extglob_chars = true;
        if !(self.extglob_forced || self.d.extglob()) {
            self.input.ungetc(b'(');
            return Ok(false);
        }
        self.dstack.push(b'(');
        b.push(c, origin);
        b.push(b'(', self.input.last_origin());
        self.raw_capture(|r| r.parse_matched_pair(cd, b'(', b')', 0, b))?;
        self.dstack.pop();
        Ok(true)
    }

    /// Text bash reads as a pattern and expands only when it runs (an extended pattern,
    /// a `=~` group): what the scan meets on the way (a `"$(…)"` it reads as a program)
    /// is not what runs, which the word's expansion finds. Only the features are kept.
    fn raw_capture(&mut self, f: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        let saved = std::mem::take(&mut *self.out);
        self.out.work = saved.work.clone();
        let parsed = self.parsed.len();
        self.want_text += 1;
        let r = f(self);
        self.want_text -= 1;
        let scratch = std::mem::replace(&mut *self.out, saved);
        for (start, _) in self.parsed.drain(parsed..) {
            self.parsed_by_start.remove(&start);
        }
        self.out.features.merge(scratch.features);
        if self.out.unreliable.is_none() {
            self.out.unreliable = scratch.unreliable;
            self.out.unreliable_at = scratch.unreliable_at;
        }
        r
    }

    /// zsh: whether a word is read as an assignment (gettokstr's ENVSTRING: an
    /// identifier, subscript or `+` before `=`, in command position or after a
    /// `typeset`-like command). Nearly zsh's rule: a word holding `=` that ends in such
    /// a `}` also makes the zsh reading not followed.
    fn zsh_envstring(&self, bytes: &[u8]) -> bool {
        self.parser_state & PST_COMPASSIGN == 0
            && assignment(bytes, false).is_some()
            && (self.assignment_acceptable(self.last_read_token)
                || (self.parser_state & PST_ASSIGNOK != 0 && self.zsh_typeset))
    }

    /// `$(…)`, `<(…)`, `>(…)`, `${…}`, `$[…]`, `$'…'`, `$"…"`, `$$` in a word.
    fn word_expansion(
        &mut self,
        c: u8,
        cd: u8,
        origin: u32,
        b: &mut Builder,
        w: &mut Word,
    ) -> R<Option<Expansion>> {
        use super::syntax::{P_ALLOWESC, P_ARITH, P_COMMAND, P_DOLBRACE, P_FIRSTCLOSE};
        if !shellexp(c) {
            return Ok(None);
        }
        let peek = self.getc(true);
        let peek_at = self.input.last_origin();
        match peek {
            Some(b'(') => {
                b.push(c, origin);
                b.push(b'(', peek_at);
                w.expansion = true;
                self.dstack.push(b'(');
                let kind = if c == b'$' {
                    SubstKind::Dollar
                } else {
                    SubstKind::Process
                };
                let r = self.parse_comsub(cd, b'(', b')', P_COMMAND, b, origin, kind);
                self.dstack.pop();
                r?;
                Ok(Some(Expansion::Dollar))
            }
            Some(p @ (b'{' | b'[')) if c == b'$' => {
                b.push(c, origin);
                b.push(p, peek_at);
                w.expansion = true;
                if p == b'{' {
                    self.out.features.dollar_brace = true;
                    if self.peek_funsub_char() && self.d.funsub() {
                        self.dstack.push(b'{');
                        let r = self.parse_comsub(
                            cd,
                            b'{',
                            b'}',
                            P_COMMAND,
                            b,
                            origin,
                            SubstKind::FunSub,
                        );
                        self.dstack.pop();
                        r?;
                    } else {
                        let flags = if !self.plain_ahead(b'{', b'}', false, false, false)
                            && self.d.matched_pair_32()
                        {
                            P_FIRSTCLOSE
                        } else {
                            P_FIRSTCLOSE | P_DOLBRACE
                        };
                        self.parse_matched_pair(cd, b'{', b'}', flags, b)?;
                    }
                } else {
                    self.out.features.arith = true;
                    let flags = if !self.plain_ahead(b'[', b']', true, false, false)
                        && self.d.matched_pair_32()
                    {
                        0
                    } else {
                        P_ARITH
                    };
                    self.parse_matched_pair(cd, b'[', b']', flags, b)?;
                }
                Ok(Some(Expansion::Dollar))
            }
            Some(q @ (b'\'' | b'"')) if c == b'$' => {
                b.push(c, origin);
                b.push(q, peek_at);
                self.dstack.push(q);
                let flags = if q == b'\'' { P_ALLOWESC } else { 0 };
                let r = self.parse_matched_pair(q, q, q, flags, b);
                self.dstack.pop();
                r?;
                w.ansi_c = true;
                Ok(Some(Expansion::Quoted))
            }
            Some(b'$') if c == b'$' => {
                b.push(b'$', origin);
                b.push(b'$', peek_at);
                Ok(Some(Expansion::Dollar))
            }
            Some(x) if c == b'$' && x >= 0x80 => {
                // zsh, in a UTF-8 locale, takes a letter past ASCII for a name's (`$é`).
                self.zsh_unreliable_at(
                    "a $ before a letter past ASCII, which zsh reads as a parameter's name in a UTF-8 locale",
                    origin,
                );
                self.input.ungetc(x);
                Ok(None)
            }
            other => {
                if let Some(o) = other {
                    self.input.ungetc(o);
                }
                Ok(None)
            }
        }
    }

    /// True when the next character may follow `${` in a bash 5.3 `${ cmd; }` (not read).
    fn peek_funsub_char(&mut self) -> bool {
        match self.getc(true) {
            Some(c) => {
                self.input.ungetc(c);
                funsub_char(c)
            }
            None => false,
        }
    }

    /// CHECK_FOR_RESERVED_WORD.
    fn check_reserved(&mut self, tok: &[u8]) -> Option<Tok> {
        let &(_, t) = RESERVED.iter().find(|(w, _)| *w == tok)?;
        // `coproc` is a reserved word from bash 4.0 on; to bash 3.2 it is a plain word.
        if t == Tok::Coproc && !self.d.coproc_reserved() {
            return None;
        }
        if self.parser_state & PST_CASEPAT != 0 && t != Tok::Esac {
            return None;
        }
        if t == Tok::Time && !self.time_command_acceptable() {
            return None;
        }
        if self.parser_state & PST_CASEPAT != 0
            && matches!(self.last_read_token, Tok::Char(b'|') | Tok::Char(b'('))
            && t == Tok::Esac
        {
            return None;
        }
        match t {
            Tok::Esac => {
                self.parser_state &= !(PST_CASEPAT | PST_CASESTMT);
                self.esacs_needed -= 1;
            }
            Tok::Case => {
                // bash 5.3's state, kept in every reading (only 5.3's rule reads it).
                self.parser_state |= PST_CASESTMT;
                self.expecting_in_command = Tok::Case;
                self.out.features.case = true;
            }
            Tok::CondEnd => self.parser_state &= !(PST_CONDCMD | PST_CONDEXPR),
            Tok::CondStart => self.parser_state |= PST_CONDCMD,
            Tok::For => self.expecting_in_command = Tok::For,
            Tok::LBrace => self.open_brace_count += 1,
            Tok::RBrace if self.open_brace_count > 0 => self.open_brace_count -= 1,
            _ => {}
        }
        Some(t)
    }

    /// `special_case_tokens`.
    fn special_case_tokens(&mut self, tok: &[u8]) -> Option<Tok> {
        if self.last_read_token == Tok::Word
            && matches!(self.token_before_that, Tok::For | Tok::Case | Tok::Select)
            && tok == b"in"
        {
            let rule53 = self.expecting_in_command == Tok::Case;
            let old_rule = self.token_before_that == Tok::Case;
            let case = if rule53 == old_rule {
                old_rule
            } else if self.d.parse53() {
                rule53
            } else {
                old_rule
            };
            if case {
                self.parser_state |= PST_CASEPAT;
                self.esacs_needed += 1;
            }
            if self.expecting_in > 0 {
                self.expecting_in -= 1;
            }
            self.expecting_in_command = Tok::None;
            return Some(Tok::In);
        }
        if self.expecting_in > 0
            && matches!(self.last_read_token, Tok::Word | Tok::Char(b'\n'))
            && tok == b"in"
        {
            let old_rule = self.parser_state & PST_CASESTMT != 0;
            let rule53 = self.expecting_in_command == Tok::Case && old_rule;
            let case = if rule53 == old_rule {
                old_rule
            } else if self.d.parse53() {
                rule53
            } else {
                old_rule
            };
            if case {
                self.parser_state |= PST_CASEPAT;
                self.esacs_needed += 1;
            }
            self.expecting_in -= 1;
            self.expecting_in_command = Tok::None;
            return Some(Tok::In);
        } else if self.expecting_in > 0
            && matches!(self.last_read_token, Tok::Char(b'\n' | b';'))
            && tok == b"do"
        {
            self.expecting_in -= 1;
            self.expecting_in_command = Tok::None;
            return Some(Tok::Do);
        }
        if self.last_read_token == Tok::Word
            && matches!(self.token_before_that, Tok::For | Tok::Select)
            && tok == b"do"
        {
            if self.expecting_in > 0 {
                self.expecting_in -= 1;
            }
            self.expecting_in_command = Tok::None;
            return Some(Tok::Do);
        }
        if self.esacs_needed > 0 && self.last_read_token == Tok::In && tok == b"esac" {
            self.esacs_needed -= 1;
            self.parser_state &= !PST_CASEPAT;
            return Some(Tok::Esac);
        }
        if self.parser_state & PST_ALLOWOPNBRC != 0 {
            self.parser_state &= !PST_ALLOWOPNBRC;
            if tok == b"{" {
                self.open_brace_count += 1;
                return Some(Tok::LBrace);
            }
        }
        if self.last_read_token == Tok::ArithForExprs && tok == b"do" {
            return Some(Tok::Do);
        }
        if self.last_read_token == Tok::ArithForExprs && tok == b"{" {
            self.open_brace_count += 1;
            return Some(Tok::LBrace);
        }
        if self.open_brace_count > 0
            && self.reserved_word_acceptable(self.last_read_token)
            && tok == b"}"
        {
            self.open_brace_count -= 1;
            return Some(Tok::RBrace);
        }
        if self.last_read_token == Tok::Time && tok == b"-p" {
            return Some(Tok::TimeOpt);
        }
        if self.last_read_token == Tok::Time && tok == b"--" {
            return Some(Tok::TimeIgn);
        }
        if self.last_read_token == Tok::TimeOpt && tok == b"--" {
            return Some(Tok::TimeIgn);
        }
        if self.parser_state & PST_CONDEXPR != 0 && tok == b"]]" {
            return Some(Tok::CondEnd);
        }
        None
    }
}

/// `token_is_assignment`: the word read so far, with an `=` after it, is an assignment
/// whose `=` is that one. Without copying the word: a word of many `=` reads in linear
/// time (`assignment` stops at the first `=`).
/// Also gives how many bytes it looked at, for the work meter.
fn token_is_assignment(token: &[u8]) -> (bool, usize) {
    let Some(&c) = token.first() else {
        return (false, 0);
    };
    if !legal_variable_starter(c) {
        return (false, 1);
    }
    let mut i = 0;
    while let Some(&c) = token.get(i) {
        match c {
            b'[' => {
                let n = skip_subscript(token, i);
                if token.get(n) != Some(&b']') {
                    return (false, n);
                }
                // `name[sub]` or `name[sub]+` then the `=`.
                return (matches!(&token[n + 1..], [] | [b'+']), token.len());
            }
            b'+' => return (i + 1 == token.len(), i + 1),
            c if legal_variable_char(c) => i += 1,
            _ => return (false, i + 1),
        }
    }
    (true, i)
}

fn is_assignment_builtin(w: &[u8]) -> bool {
    matches!(
        w,
        b"alias" | b"declare" | b"export" | b"local" | b"readonly" | b"typeset"
    )
}
