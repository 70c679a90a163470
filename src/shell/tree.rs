//! The commands a reading saw, recorded by the grammar as events in the order it reads
//! them: simple commands with their words and redirections, where compound commands,
//! function definitions and substitutions open and close, pipes between commands, and
//! the arithmetic and `[[ ]]` texts the shell evaluates. The effects model
//! (`effects.rs`) replays them to judge what each command can do.

use super::text::{Builder, Text};

/// The word of the last WORD-like token.
#[derive(Clone, Debug, PartialEq)]
pub struct Word {
    /// The token's text as bash builds it (quotes kept).
    pub text: Text<'static>,
    /// Command offsets of the word as written.
    pub start: u32,
    pub end: u32,
    pub quoted: bool,
    pub dollar: bool,
    /// `$'…'` / `$"…"` somewhere in it.
    pub ansi_c: bool,
    /// Holds `$(…)`, backquotes, `${…}`, `$[…]` or `<(…)` (not counting quoting).
    pub expansion: bool,
    /// It starts in the value of an alias (the alias's name stood in the text).
    pub from_alias: bool,
}

impl Word {
    pub(super) fn empty() -> Word {
        Word {
            text: Builder::default().finish(0),
            start: 0,
            end: 0,
            quoted: false,
            dollar: false,
            ansi_c: false,
            expansion: false,
            from_alias: false,
        }
    }
}

/// One thing the grammar read. (The rare large ones are boxed: a reading holds a few
/// events per line, and each is as wide as the widest kind.)
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A simple command, once its words and redirections are read.
    Simple(SimpleCommand),
    /// A compound command or a function definition opens at this command offset.
    Open(Compound, u32),
    /// The innermost open compound command closes at this command offset; the
    /// [`Event::Redirect`]s right after it are its redirections.
    Close(u32),
    /// A redirection of the compound command that just closed.
    Redirect(Box<Redirect>),
    /// `|` or `|&`: the next command reads what the one before writes (with `|&`, what
    /// it writes to standard error too).
    Pipe { stderr: bool },
    /// The program of a command substitution, backquoted command or process substitution
    /// at this command offset starts.
    SubstOpen(u32),
    /// It ends; the offset is where the construct ends.
    SubstClose(u32, u32),
    /// The expression of `((…))` or `for ((…))`, which the shell evaluates.
    Arith(Box<Text<'static>>),
    /// The words of one `[[ ]]` term, operators included, in order.
    Cond(Vec<Word>),
    /// Words the shell expands where they stand: a `case` item's patterns, a `select`
    /// list.
    Words(Vec<Word>),
    /// A top-level input unit ended (bash runs it before it reads the next).
    Unit,
}

/// A compound command or a definition.
#[derive(Clone, Debug, PartialEq)]
pub enum Compound {
    /// `{ …; }`, `( … )`, `if`, `case`, `[[ ]]`, `(( ))`: run once.
    Group,
    /// `( … )`: a subshell.
    Subshell,
    /// `while`, `until`, `select`, `for ((…))`: may run many times.
    Loop,
    /// `for NAME in WORDS`: the name and the words, when written.
    For(Option<Box<Word>>, Option<Vec<Word>>),
    /// `name () …` or `function name …`: its name as written.
    Function(Box<Word>),
    /// `case WORD in …`: the word, expanded once.
    Case(Option<Box<Word>>),
    /// `select NAME in …`: reads its answers from standard input into `REPLY`.
    Select(Option<Box<Word>>),
    /// `coproc`.
    Coproc,
}

/// A simple command: its words (assignments first), and its redirections.
#[derive(Clone, Debug, PartialEq)]
pub struct SimpleCommand {
    /// Command offset of its first token.
    pub at: u32,
    /// Command offset where it ends.
    pub end: u32,
    pub words: Box<[Word]>,
    pub redirects: Box<[Redirect]>,
}

/// One redirection.
#[derive(Clone, Debug, PartialEq)]
pub struct Redirect {
    /// Command offset of the operator.
    pub at: u32,
    pub op: RedirOp,
    /// The file descriptor written before the operator (`3<`, `{fd}>`), as written.
    pub fd: Option<Box<[u8]>>,
    /// The target word (a file, a here-string's word, a heredoc's delimiter).
    pub target: Option<Word>,
}

impl Redirect {
    /// Whether it is on standard input: no descriptor written, or one whose digits read as
    /// 0 (`0<`, and `00<`: bash reads the digits as a number).
    pub fn on_stdin(&self) -> bool {
        self.fd
            .as_deref()
            .is_none_or(|fd| !fd.is_empty() && fd.iter().all(|&b| b == b'0'))
    }
}

/// What a redirection does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedirOp {
    /// `<`.
    Input,
    /// `>`, `>>`, `>|`, `&>`, `&>>`.
    Output,
    /// `<>`: opened for reading and writing (descriptor 0 unless one is written).
    ReadWrite,
    /// `<<`, `<<-`: the heredoc whose operator is at [`Redirect::at`].
    Heredoc,
    /// `<<<`.
    HereString,
    /// `<&`, `>&`.
    Duplicate,
}

impl RedirOp {
    /// Whether it gives the command's standard input (or another descriptor) text.
    pub fn feeds_input(self) -> bool {
        matches!(
            self,
            RedirOp::Heredoc | RedirOp::HereString | RedirOp::Input | RedirOp::ReadWrite
        )
    }
}
