//! The one place that reads shell text: a reader of bash modelled on bash's own parser
//! (parse.y: `shell_getc`, `read_token`, `read_token_word`, `parse_matched_pair`,
//! `parse_comsub`, `gather_here_documents`, make_cmd.c: `make_here_document`), run once
//! per shell the command may meet.
//!
//! A [`Reading`] says, for one shell, where every heredoc body is and what that shell
//! runs: every token it reads as code and every substitution it expands, each as an
//! offset in the command. The rules compare readings: text that one shell reads as a
//! heredoc body and another runs is found wherever it sits.
//!
//! Total by construction: every byte is read by one state of the reader; a construct that
//! does not close, a state the reader does not know, or a byte it cannot place ends the
//! reading with a [`ReadError`].

mod alias;
mod expand;
mod extent;
pub(crate) mod grammar;
mod heredoc;
mod input;
mod lexer;
mod matched;
mod nested;
mod old;
mod plain;
mod prefilter;
mod small;
pub(crate) mod syntax;
pub(crate) mod text;
pub(crate) mod tree;
pub(crate) mod word;

pub use extent::whole_run;
pub(crate) use heredoc::MAX_KEPT_BODY_BYTES;
pub use input::{Deadline, Over, Work, bulk_work, exit_after_verdict, exits_after_verdict};
pub use nested::Nested;
pub use prefilter::{may_hold_heredoc, needs_reading};
pub use text::{Pos, Positions, Source, Text, pos};

/// The shells a command is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shell {
    /// The reading a careful person has: bash 5.3's grammar without its quirks (heredocs
    /// close on a physical line equal to the delimiter, or the delimiter and `)` inside a
    /// command substitution; text bash pushes back keeps its own heredoc bodies). Not a
    /// shell that runs anything: its bodies are what the command's author meant as bodies.
    Intended,
    Bash32,
    Bash44,
    Bash51,
    Bash52,
    Bash53,
    Zsh,
}

impl Shell {
    /// Every shell that runs commands, in the order they are read.
    pub const RUNNING: [Shell; 6] = [
        Shell::Bash52,
        Shell::Bash53,
        Shell::Bash51,
        Shell::Bash44,
        Shell::Bash32,
        Shell::Zsh,
    ];

    /// Every reading: the intended one, then the shells.
    pub const ALL: [Shell; 7] = [
        Shell::Intended,
        Shell::Bash32,
        Shell::Bash44,
        Shell::Bash51,
        Shell::Bash52,
        Shell::Bash53,
        Shell::Zsh,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Shell::Intended => "the intended reading",
            Shell::Bash32 => "bash 3.2",
            Shell::Bash44 => "bash 4.4",
            Shell::Bash51 => "bash 5.1",
            Shell::Bash52 => "bash 5.2",
            Shell::Bash53 => "bash 5.3",
            Shell::Zsh => "zsh",
        }
    }

    /// The bash release this reading follows (`"5.2"`), for the tests' and the fuzz
    /// targets' lists of pinned shells.
    pub fn bash_version(self) -> Option<&'static str> {
        self.quirks().bash
    }

    /// How this shell reads: the one table of the ways the shells differ. Every arm names
    /// every quirk (no defaults), so a new quirk is decided for every shell and a new bash
    /// version is one arm here plus the measured deltas it brings.
    pub(crate) const fn quirks(self) -> Quirks {
        use ComsubScanner::{MatchedPair, Old44, Old51, Recursive};
        match self {
            Shell::Intended => Quirks {
                bash: None,
                runs: false,
                zsh: false,
                bash_options: false,
                funsub: true,
                parse53: true,
                early_end: false,
                joins_closer: false,
                heredoc_from_stream: false,
                always_quote_removal: false,
                comsub: Recursive,
                coproc_reserved: true,
                backquote_quotes_word: false,
                matched_pair_32: false,
                matched_51: true,
                matched_52: true,
                drops_bad_line: false,
                unescapes_dquote: false,
                paren_ends_heredoc: true,
                keeps_delimiter_text: true,
            },
            Shell::Bash32 => Quirks {
                bash: Some("3.2"),
                runs: true,
                zsh: false,
                bash_options: true,
                funsub: false,
                parse53: false,
                early_end: false,
                joins_closer: true,
                heredoc_from_stream: true,
                always_quote_removal: true,
                comsub: MatchedPair,
                coproc_reserved: false,
                backquote_quotes_word: true,
                matched_pair_32: true,
                matched_51: false,
                matched_52: false,
                drops_bad_line: true,
                unescapes_dquote: true,
                paren_ends_heredoc: false,
                keeps_delimiter_text: false,
            },
            Shell::Bash44 => Quirks {
                bash: Some("4.4"),
                runs: true,
                zsh: false,
                bash_options: true,
                funsub: false,
                parse53: false,
                early_end: false,
                joins_closer: true,
                heredoc_from_stream: true,
                always_quote_removal: true,
                comsub: Old44,
                coproc_reserved: true,
                backquote_quotes_word: true,
                matched_pair_32: false,
                matched_51: false,
                matched_52: false,
                drops_bad_line: true,
                unescapes_dquote: true,
                paren_ends_heredoc: false,
                keeps_delimiter_text: false,
            },
            Shell::Bash51 => Quirks {
                bash: Some("5.1"),
                runs: true,
                zsh: false,
                bash_options: true,
                funsub: false,
                parse53: false,
                early_end: false,
                joins_closer: true,
                heredoc_from_stream: true,
                always_quote_removal: true,
                comsub: Old51,
                coproc_reserved: true,
                backquote_quotes_word: false,
                matched_pair_32: false,
                matched_51: true,
                matched_52: false,
                drops_bad_line: true,
                unescapes_dquote: true,
                paren_ends_heredoc: false,
                keeps_delimiter_text: false,
            },
            Shell::Bash52 => Quirks {
                bash: Some("5.2"),
                runs: true,
                zsh: false,
                bash_options: true,
                funsub: false,
                parse53: false,
                early_end: true,
                joins_closer: true,
                heredoc_from_stream: true,
                always_quote_removal: false,
                comsub: Recursive,
                coproc_reserved: true,
                backquote_quotes_word: false,
                matched_pair_32: false,
                matched_51: true,
                matched_52: true,
                drops_bad_line: true,
                unescapes_dquote: true,
                paren_ends_heredoc: false,
                keeps_delimiter_text: false,
            },
            Shell::Bash53 => Quirks {
                bash: Some("5.3"),
                runs: true,
                zsh: false,
                bash_options: true,
                funsub: true,
                parse53: true,
                early_end: true,
                joins_closer: true,
                heredoc_from_stream: true,
                always_quote_removal: false,
                comsub: Recursive,
                coproc_reserved: true,
                backquote_quotes_word: false,
                matched_pair_32: false,
                matched_51: true,
                matched_52: true,
                drops_bad_line: true,
                unescapes_dquote: true,
                paren_ends_heredoc: false,
                keeps_delimiter_text: false,
            },
            Shell::Zsh => Quirks {
                bash: None,
                runs: true,
                zsh: true,
                bash_options: false,
                funsub: false,
                parse53: false,
                early_end: false,
                joins_closer: true,
                heredoc_from_stream: false,
                always_quote_removal: false,
                comsub: Recursive,
                coproc_reserved: true,
                backquote_quotes_word: false,
                matched_pair_32: false,
                matched_51: true,
                matched_52: true,
                drops_bad_line: false,
                unescapes_dquote: true,
                paren_ends_heredoc: false,
                keeps_delimiter_text: false,
            },
        }
    }
}

/// The ways the readings differ, as [`Shell::quirks`] sets them for each shell: the reader
/// asks these, never a shell's name.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quirks {
    /// The bash release read (`"5.2"`); `None` for the intended reading and zsh.
    pub bash: Option<&'static str>,
    /// A shell that runs what it reads (the intended reading only says where bodies are):
    /// it reports a word it cannot expand and goes on, running what it read before.
    pub runs: bool,
    /// zsh's language: its lexer, its expansions and its builtins.
    pub zsh: bool,
    /// bash's `extglob` and `expand_aliases` change its reading (each is read both ways).
    pub bash_options: bool,
    /// bash 5.3's `${ cmd; }` and `${| cmd; }`.
    pub funsub: bool,
    /// bash 5.3's parse.y: `${` and a comment at the end of input, `(` as a subshell
    /// outside case patterns and conditionals, `case`/`for` expecting `in`, `((` pushed
    /// back without its last character.
    pub parse53: bool,
    /// A heredoc line that starts with the delimiter and holds a `)` ends the heredoc
    /// inside `$(…)` (make_here_document's backwards-compatibility branch, bash 5.2+).
    pub early_end: bool,
    /// Heredoc lines of an unquoted delimiter are joined before the closing line is
    /// looked for (every real shell); the intended reading looks at physical lines.
    pub joins_closer: bool,
    /// bash reads heredoc lines from the input stream even while it reads text it pushed
    /// back (parse_dparen's nested subshell).
    pub heredoc_from_stream: bool,
    /// Quote removal on every delimiter, quoted or not (bash before 5.2).
    pub always_quote_removal: bool,
    /// Which algorithm finds the end of `$(…)` at parse time.
    pub comsub: ComsubScanner,
    /// `coproc` is a reserved word (bash 4.0 on).
    pub coproc_reserved: bool,
    /// A backquoted command in a word marks the word quoted (bash before 5.1).
    pub backquote_quotes_word: bool,
    /// bash 3.2's parse_matched_pair (no arithmetic flags for `((`).
    pub matched_pair_32: bool,
    /// parse_matched_pair's and the old comsub scanners' rules from bash 5.1 on.
    pub matched_51: bool,
    /// parse_matched_pair's rules from bash 5.2 on.
    pub matched_52: bool,
    /// A syntax error in a line: bash reports it, drops the line and reads on.
    pub drops_bad_line: bool,
    /// de_backslash: `\"` loses its backslash inside backquotes in double quotes (the
    /// intended reading keeps it as a reader of the text sees it).
    pub unescapes_dquote: bool,
    /// Inside `$(…)`, the delimiter followed by `)` ends the heredoc (the intended
    /// reading of an early end).
    pub paren_ends_heredoc: bool,
    /// A heredoc delimiter's text is kept as written (its closing line as the author
    /// meant it).
    pub keeps_delimiter_text: bool,
}

/// A shell and the options that change how it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dialect {
    pub shell: Shell,
    /// bash's `extglob` (off in `bash -c` unless the command turns it on).
    pub extglob: bool,
    /// bash's `expand_aliases`: aliases the command defines are expanded in the input
    /// units after the one that defines them (on in Claude Code's shell, off in `bash -c`).
    pub aliases: bool,
}

impl Dialect {
    pub fn new(shell: Shell) -> Dialect {
        Dialect {
            shell,
            extglob: false,
            aliases: false,
        }
    }

    /// This reading's quirks.
    pub(crate) const fn q(self) -> Quirks {
        self.shell.quirks()
    }

    pub(crate) fn is_zsh(self) -> bool {
        self.q().zsh
    }
}

/// The quirks a reading consults, one bit each (see [`Probe`]).
pub(crate) mod quirk {
    pub const ZSH: u32 = 1 << 0;
    pub const RUNS: u32 = 1 << 1;
    pub const FUNSUB: u32 = 1 << 2;
    pub const PARSE53: u32 = 1 << 3;
    pub const EARLY_END: u32 = 1 << 4;
    pub const JOINS_CLOSER: u32 = 1 << 5;
    pub const HEREDOC_FROM_STREAM: u32 = 1 << 6;
    pub const ALWAYS_QUOTE_REMOVAL: u32 = 1 << 7;
    pub const COMSUB: u32 = 1 << 8;
    pub const COPROC_RESERVED: u32 = 1 << 9;
    pub const BACKQUOTE_QUOTES_WORD: u32 = 1 << 10;
    pub const MATCHED_PAIR_32: u32 = 1 << 11;
    pub const MATCHED_51: u32 = 1 << 12;
    pub const MATCHED_52: u32 = 1 << 13;
    pub const DROPS_BAD_LINE: u32 = 1 << 14;
    pub const UNESCAPES_DQUOTE: u32 = 1 << 15;
    pub const PAREN_ENDS_HEREDOC: u32 = 1 << 16;
    pub const KEEPS_DELIMITER_TEXT: u32 = 1 << 17;
    pub const EXTGLOB: u32 = 1 << 18;
}

/// A dialect as the reader consults it: every quirk the reader asks is recorded, so a
/// reading says which of the ways the shells differ it depended on. A reading whose
/// record holds none of the quirks in which another dialect differs is, by construction,
/// that dialect's reading too: the reader's only dependence on the dialect is through
/// these questions (its fields are private to this type).
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    d: Dialect,
    asked: std::rc::Rc<std::cell::Cell<u32>>,
}

impl Probe {
    pub fn new(d: Dialect) -> Probe {
        Probe {
            d,
            asked: std::rc::Rc::new(std::cell::Cell::new(0)),
        }
    }

    fn ask<T>(&self, bit: u32, v: T) -> T {
        self.asked.set(self.asked.get() | bit);
        v
    }

    /// The quirks asked so far (by this reading and the readings it started).
    pub fn asked(&self) -> u32 {
        self.asked.get()
    }

    pub fn zsh(&self) -> bool {
        self.ask(quirk::ZSH, self.d.q().zsh)
    }
    pub fn runs(&self) -> bool {
        self.ask(quirk::RUNS, self.d.q().runs)
    }
    pub fn funsub(&self) -> bool {
        self.ask(quirk::FUNSUB, self.d.q().funsub)
    }
    pub fn parse53(&self) -> bool {
        self.ask(quirk::PARSE53, self.d.q().parse53)
    }
    pub fn early_end(&self) -> bool {
        self.ask(quirk::EARLY_END, self.d.q().early_end)
    }
    pub fn joins_closer(&self) -> bool {
        self.ask(quirk::JOINS_CLOSER, self.d.q().joins_closer)
    }
    pub fn heredoc_from_stream(&self) -> bool {
        self.ask(quirk::HEREDOC_FROM_STREAM, self.d.q().heredoc_from_stream)
    }
    pub fn always_quote_removal(&self) -> bool {
        self.ask(quirk::ALWAYS_QUOTE_REMOVAL, self.d.q().always_quote_removal)
    }
    pub fn comsub(&self) -> ComsubScanner {
        self.ask(quirk::COMSUB, self.d.q().comsub)
    }
    pub fn coproc_reserved(&self) -> bool {
        self.ask(quirk::COPROC_RESERVED, self.d.q().coproc_reserved)
    }
    pub fn backquote_quotes_word(&self) -> bool {
        self.ask(
            quirk::BACKQUOTE_QUOTES_WORD,
            self.d.q().backquote_quotes_word,
        )
    }
    pub fn matched_pair_32(&self) -> bool {
        self.ask(quirk::MATCHED_PAIR_32, self.d.q().matched_pair_32)
    }
    pub fn matched_51(&self) -> bool {
        self.ask(quirk::MATCHED_51, self.d.q().matched_51)
    }
    pub fn matched_52(&self) -> bool {
        self.ask(quirk::MATCHED_52, self.d.q().matched_52)
    }
    pub fn drops_bad_line(&self) -> bool {
        self.ask(quirk::DROPS_BAD_LINE, self.d.q().drops_bad_line)
    }
    pub fn unescapes_dquote(&self) -> bool {
        self.ask(quirk::UNESCAPES_DQUOTE, self.d.q().unescapes_dquote)
    }
    pub fn paren_ends_heredoc(&self) -> bool {
        self.ask(quirk::PAREN_ENDS_HEREDOC, self.d.q().paren_ends_heredoc)
    }
    pub fn keeps_delimiter_text(&self) -> bool {
        self.ask(quirk::KEEPS_DELIMITER_TEXT, self.d.q().keeps_delimiter_text)
    }
    pub fn extglob(&self) -> bool {
        self.ask(quirk::EXTGLOB, self.d.extglob)
    }

    /// Whether alias expansion is on (the reading's alias table says it; not a quirk
    /// two readings of one group differ in).
    pub fn aliases(&self) -> bool {
        self.d.aliases
    }
}

/// The quirks in which two dialects differ, as [`quirk`] bits.
pub(crate) fn differences(a: Dialect, b: Dialect) -> u32 {
    let (x, y) = (a.q(), b.q());
    let mut bits = 0;
    let mut differ = |bit: u32, same: bool| {
        if !same {
            bits |= bit;
        }
    };
    differ(quirk::ZSH, x.zsh == y.zsh);
    differ(quirk::RUNS, x.runs == y.runs);
    differ(quirk::FUNSUB, x.funsub == y.funsub);
    differ(quirk::PARSE53, x.parse53 == y.parse53);
    differ(quirk::EARLY_END, x.early_end == y.early_end);
    differ(quirk::JOINS_CLOSER, x.joins_closer == y.joins_closer);
    differ(
        quirk::HEREDOC_FROM_STREAM,
        x.heredoc_from_stream == y.heredoc_from_stream,
    );
    differ(
        quirk::ALWAYS_QUOTE_REMOVAL,
        x.always_quote_removal == y.always_quote_removal,
    );
    differ(quirk::COMSUB, x.comsub == y.comsub);
    differ(
        quirk::COPROC_RESERVED,
        x.coproc_reserved == y.coproc_reserved,
    );
    differ(
        quirk::BACKQUOTE_QUOTES_WORD,
        x.backquote_quotes_word == y.backquote_quotes_word,
    );
    differ(
        quirk::MATCHED_PAIR_32,
        x.matched_pair_32 == y.matched_pair_32,
    );
    differ(quirk::MATCHED_51, x.matched_51 == y.matched_51);
    differ(quirk::MATCHED_52, x.matched_52 == y.matched_52);
    differ(quirk::DROPS_BAD_LINE, x.drops_bad_line == y.drops_bad_line);
    differ(
        quirk::UNESCAPES_DQUOTE,
        x.unescapes_dquote == y.unescapes_dquote,
    );
    differ(
        quirk::PAREN_ENDS_HEREDOC,
        x.paren_ends_heredoc == y.paren_ends_heredoc,
    );
    differ(
        quirk::KEEPS_DELIMITER_TEXT,
        x.keeps_delimiter_text == y.keeps_delimiter_text,
    );
    differ(quirk::EXTGLOB, a.extglob == b.extglob);
    bits
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ComsubScanner {
    Recursive,
    Old51,
    Old44,
    MatchedPair,
}

/// Where a heredoc sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    TopLevel,
    /// Inside `$(…)`, `<(…)`, `>(…)` or bash 5.3 `${ …; }`.
    Substitution,
    /// Inside a backquoted command.
    Backquote,
    /// In text bash reads twice (arithmetic, patterns) or pushes back.
    Reread,
}

/// One heredoc as a shell reads it.
#[derive(Clone, Debug)]
pub struct Heredoc {
    /// Command offset of the `<<` / `<<-` operator.
    pub op: u32,
    pub strip_tabs: bool,
    /// Command offsets of the delimiter word as written.
    pub word: (u32, u32),
    /// Any quoting in the delimiter: the body is data.
    pub quoted: bool,
    /// `$'…'` or `$"…"` in the delimiter.
    pub ansi_c: bool,
    /// The delimiter holds a substitution (`$(…)`, backquotes, `${…}`, `$[…]`): bash closes
    /// on the word as it keeps it, which is not always the word as written.
    pub word_has_expansion: bool,
    /// The closing line the shell waits for.
    pub closing: Vec<u8>,
    /// Command offsets of the body (from the first body line to the closing line).
    pub body: (u32, u32),
    /// Command offsets of the closing line; `None` when the input ended first.
    pub closer: Option<(u32, u32)>,
    /// Ended by a line that starts with the delimiter and holds the `)` of the enclosing
    /// substitution (bash 5.2+); the rest of that line was read as code.
    pub early_end: bool,
    pub context: Context,
    /// What an unquoted body evaluates when it is expanded, for the effects model: its
    /// expansions that assign, name or evaluate, whether it expands anything, and whether
    /// every expansion was read.
    pub(crate) body_eval: std::rc::Rc<word::BodyExpansions>,
}

impl Heredoc {
    /// The same heredoc, read the same way (the very same scan of its body).
    fn same(&self, other: &Heredoc) -> bool {
        self.op == other.op
            && self.strip_tabs == other.strip_tabs
            && self.word == other.word
            && self.quoted == other.quoted
            && self.ansi_c == other.ansi_c
            && self.word_has_expansion == other.word_has_expansion
            && self.closing == other.closing
            && self.body == other.body
            && self.closer == other.closer
            && self.early_end == other.early_end
            && self.context == other.context
            // (A quoted body is not scanned: neither holds a scan.)
            && (self.quoted || std::rc::Rc::ptr_eq(&self.body_eval, &other.body_eval))
    }
}

/// What runs at a command offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// A token read as code.
    Token,
    /// A word read as an argument of the simple command being read (not its name, an
    /// assignment or a redirection's target): it runs and writes nothing by itself.
    Arg,
    /// A substitution in a word or in a heredoc body.
    Subst(SubstKind),
}

/// A construct that makes the shell run a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SubstKind {
    /// `$(…)`, also nested in `${…}`, `$((…))` or `$[…]`.
    Dollar,
    /// `` `…` ``.
    Backtick,
    /// `<(…)` / `>(…)`.
    Process,
    /// bash 5.3 `${ cmd; }` / `${| cmd; }`.
    FunSub,
    /// `${name@P}`: prompt expansion runs substitutions held in the variable.
    PromptExpansion,
    /// zsh `${(e)x}` / `${(%)x}`: evaluates substitutions held in the variable (also
    /// flags with arguments, which can hide an `e`).
    ZshEvaluation,
    /// `$((…))` or `$[…]` that is not plain arithmetic (quotes, backslashes, comments,
    /// newlines…): the shells disagree on whether it is arithmetic or a command.
    UnclearArithmetic,
    /// An escaped `\$` or backquote inside `${…}`, or an assignment `${x:=…}` whose value
    /// holds `$`, a backquote or a backslash: text the shell can expand a second time (an
    /// array subscript in arithmetic, a variable evaluated later in the body).
    ReExpansion,
}

impl SubstKind {
    /// A few words for a person.
    pub fn describe(self) -> &'static str {
        match self {
            SubstKind::Dollar => "command substitution $(...)",
            SubstKind::Backtick => "backtick command substitution",
            SubstKind::Process => "process substitution <(...)",
            SubstKind::FunSub => "bash 5.3 ${ cmd; } substitution",
            SubstKind::PromptExpansion => "${name@P} prompt expansion",
            SubstKind::ZshEvaluation => "zsh ${(e)...} evaluation",
            SubstKind::UnclearArithmetic => {
                "$((...)) or $[...] that is not plain arithmetic (a shell may run it as a command)"
            }
            SubstKind::ReExpansion => {
                "${...} holding an escaped substitution or an assignment a shell can expand again"
            }
        }
    }
}

/// Something a shell runs, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exec {
    pub at: u32,
    /// Where the construct ends (for excerpts); equal to `at` for tokens.
    pub end: u32,
    pub what: Run,
    /// Found in the body of heredoc number `n` of the same reading (fewer than
    /// [`MAX_HEREDOCS`]; 32 bits, as offsets are: a script holds one per word).
    pub in_body: Option<u32>,
}

impl Reading {
    /// Whether the reading, or an `eval` or `trap` text it read, holds a heredoc.
    pub fn holds_heredoc(&self) -> bool {
        !self.heredocs.is_empty() || self.nested.iter().any(|n| n.reading.holds_heredoc())
    }

    /// [`Reading::same_program`], or the same but for how a word keeps a substitution's
    /// text: bash 5.2 reads `"$(…)"`'s program as it reads the word and keeps `"$()"`, an
    /// older bash's scanner keeps the whole text and reads the same program (the same
    /// events, at the same offsets) when the word is expanded. Such a word must read the
    /// same (its pieces, flags and offsets; as an assignment, the same name, subscript and
    /// value) and hold the same bytes at the same command offsets outside its
    /// substitutions. What the judge finds in one it then finds in the other: it reads a
    /// word through that reading, and looks at its bytes only outside substitutions (a
    /// prefix, a last byte, whether it holds `$`, `(` or a backquote, which `$(` is).
    /// Reading the words again is charged to `work`; past it, the readings count as
    /// different (each is then judged, and the meter stops that).
    pub fn same_program_judged(&self, other: &Reading, work: &Work) -> bool {
        if self.same_program(other) {
            return true;
        }
        if self.events.len() != other.events.len()
            || self.heredocs.len() != other.heredocs.len()
            || !self
                .heredocs
                .iter()
                .zip(&other.heredocs)
                .all(|(a, b)| a.same(b))
            || self.nested.len() != other.nested.len()
            || !self.nested.iter().zip(&other.nested).all(|(a, b)| {
                a.at == b.at && a.text == b.text && a.reading.same_program(&b.reading)
            })
        {
            return false;
        }
        let ends = word::Ends::of(&self.events);
        // The insides of the substitutions, merged: `$(` and the closing `)` stay.
        let mut insides: Vec<(u32, u32)> = ends
            .extents()
            .map(|(at, end)| (at.saturating_add(2), end.saturating_sub(1)))
            .filter(|(s, e)| s < e)
            .collect();
        insides.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(insides.len());
        for (s, e) in insides {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let ends = SubstExtents {
            ends,
            insides: merged,
        };
        self.events
            .iter()
            .zip(&other.events)
            .all(|(a, b)| a == b || same_but_substitution_text(a, b, &ends, work))
    }

    /// Whether `other` read the same program: the same commands, heredocs (the very same
    /// scan of each body) and `eval` and `trap` texts. What the judge finds in one it finds
    /// in the other, for the same family of shells.
    pub fn same_program(&self, other: &Reading) -> bool {
        self.events == other.events
            && self.heredocs.len() == other.heredocs.len()
            && self
                .heredocs
                .iter()
                .zip(&other.heredocs)
                .all(|(a, b)| a.same(b))
            && self.nested.len() == other.nested.len()
            && self.nested.iter().zip(&other.nested).all(|(a, b)| {
                a.at == b.at && a.text == b.text && a.reading.same_program(&b.reading)
            })
    }
}

/// One shell's reading of a command.
#[derive(Clone, Debug, Default)]
pub struct Reading {
    pub heredocs: Vec<Heredoc>,
    pub exec: Vec<Exec>,
    /// The commands read, as the grammar read them (for the judge).
    pub events: Vec<tree::Event>,
    /// Literal `eval` and `trap` texts, read as programs of their own.
    pub nested: Vec<Nested>,
    /// The quirks the reading consulted ([`quirk`] bits): another dialect that differs in
    /// none of them reads the command the same.
    pub asked: u32,
    /// The aliases the command has defined so far, when this reading expands them.
    pub aliases: Option<alias::Aliases>,
    /// The constructs seen, for deciding which other shells could read differently.
    pub features: Features,
    /// For bash: the reading stopped at a syntax error after complete commands that bash
    /// runs before it reads on.
    pub error: Option<ReadError>,
    /// The shell reads part of the command in a way the reader does not follow (what).
    pub unreliable: Option<&'static str>,
    /// Command offset of the construct [`Reading::unreliable`] names.
    pub unreliable_at: u32,
    /// `eval` or `trap` text the guard cannot know (what, and the command's offset):
    /// spelled with a `$'…'` (or, in zsh, `$"…"`) string the shells decode differently, or
    /// partly computed where it may spell a heredoc operator. The reading is not followed
    /// ([`nested`]).
    pub escapes_differ: Option<(&'static str, u32)>,
    /// A heredoc body held more than [`MAX_BODY_SUBSTITUTIONS`]; the rest are not listed.
    pub runs_cut: bool,
    /// The meter this reading charged its work to (shared by the readings of a command).
    pub work: Work,
    /// The unquoted bodies scanned so far, shared by the readings of one command.
    pub(crate) bodies: Bodies,
}

/// Constructs where shells are known to read differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub heredoc: bool,
    pub comsub: bool,
    pub backquote: bool,
    pub arith: bool,
    pub dollar_brace: bool,
    pub extglob_chars: bool,
    pub cond: bool,
    pub case: bool,
    pub dparen_subshell: bool,
    /// An `alias` or `unalias` command in the top-level program.
    pub alias_def: bool,
    /// An alias was expanded.
    pub alias_used: bool,
}

impl Features {
    pub fn merge(&mut self, o: Features) {
        self.heredoc |= o.heredoc;
        self.comsub |= o.comsub;
        self.backquote |= o.backquote;
        self.arith |= o.arith;
        self.dollar_brace |= o.dollar_brace;
        self.extglob_chars |= o.extglob_chars;
        self.cond |= o.cond;
        self.case |= o.case;
        self.dparen_subshell |= o.dparen_subshell;
        self.alias_def |= o.alias_def;
        self.alias_used |= o.alias_used;
    }
}

/// zsh constructs this reader does not follow ([`Reading::unreliable`] of the zsh
/// reading), each named for a person.
pub const ZSH_MATH: &str = "zsh reads `((…))`, `$((…))` and `$[…]` with its own rules for quotes, backslashes, backquotes and brackets";
pub const ZSH_WORD_PAREN: &str =
    "zsh reads a `(` inside a word, or after one, as a glob group that a word goes on through";
pub const ZSH_RBRACE_ASSIGNMENT: &str =
    "zsh splits a `}` off the end of a word unless it reads the word as an assignment";
pub const ZSH_KEYWORD: &str =
    "zsh reads `repeat`, `foreach`, `nocorrect` and `end` as reserved words with their own grammar";
pub const ZSH_REDIRECTED_COMMAND: &str = "zsh reads a reserved word or a `{` after leading redirections (`</dev/null {`, `>f if`) as the start of a compound command, where bash reads a plain word";
pub const ZSH_NAMED_COPROC: &str = "zsh reads `coproc NAME` followed by a compound command as the command NAME run as a coprocess, where bash names the coprocess";
pub const ZSH_DOLBRACE_BRACE: &str =
    "zsh counts a `{` inside an unquoted `${…}` where bash does not, and so can end it elsewhere";

/// The rewrite that keeps a command clear of a zsh construct the reader does not follow.
pub fn zsh_advice(what: &str) -> Option<&'static str> {
    Some(match what {
        ZSH_MATH => {
            "Keep quotes, backslashes and backquotes out of (( )), $(( )) and $[ ] (put values in variables first), and balance their brackets."
        }
        ZSH_WORD_PAREN => {
            "Quote a `(` that belongs to a word, quote subscript keys (a['k']=v), and write a function as name() with no blank inside the parentheses."
        }
        ZSH_RBRACE_ASSIGNMENT => "Quote the `}` at the end of the word: a='x}'.",
        ZSH_DOLBRACE_BRACE => "Quote the `${...}` that holds a `{`: \"${x:-{}}\".",
        ZSH_KEYWORD => {
            "Write the loop with bash's syntax (for/while), or quote the word: 'repeat'."
        }
        ZSH_REDIRECTED_COMMAND => {
            "Put the redirections after the command: { ...; } </dev/null, or quote the word: '{'."
        }
        ZSH_NAMED_COPROC => "Start the coprocess without a name: coproc { ...; }.",
        _ => return None,
    })
}

/// Why a text could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// A short static cause.
    pub cause: &'static str,
    /// Command offset near which it happened.
    pub at: u32,
    /// The limit it stopped at; `None` when the text is malformed.
    pub limit: Option<Stop>,
    /// bash drops the rest of the line and reads on (an error inside `a=(…)`).
    pub discard: bool,
}

/// Deepest nesting of constructs the reader follows.
pub const MAX_NESTING: usize = 1_000;
/// Most heredocs in one command, nested ones included.
pub const MAX_HEREDOCS: usize = 1 << 14;
// A heredoc's number is kept in 32 bits ([`Exec::in_body`]).
const _: () = assert!(MAX_HEREDOCS <= u32::MAX as usize);
/// The most work the readings of one command may do together, in units of roughly 10 ns
/// (measured): a token is [`TOKEN_WORK`] units, a character scanned one at a time by the
/// older bash's scanners [`CHAR_WORK`], a step of an expansion 1, and text read again
/// (older bash reads a nested substitution's text once per level of nesting) 1 per
/// [`BYTES_PER_WORK`] bytes. Past it the reading stops at a limit (a deny). The readers are
/// linear; this bounds the constant: about 250,000 tokens of shell code.
pub const MAX_WORK: usize = 4 * 1024 * 1024;
/// The most substitutions listed for one heredoc body (one is enough to deny; explain
/// and strip show what is listed, and strip refuses a body cut short).
pub const MAX_BODY_SUBSTITUTIONS: usize = 1_000;
/// The work of one token.
pub const TOKEN_WORK: usize = 16;
/// Bytes read again per unit of work.
pub const BYTES_PER_WORK: usize = 16;
/// The work of one character the scanners of bash before 5.2 read one at a time (they find
/// where `$(…)` ends, and scan it again at every level of nesting).
pub const CHAR_WORK: usize = 4;

/// Which of the reader's limits stopped a reading (a [`ReadError`] that is not malformed
/// text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// More heredocs than [`MAX_HEREDOCS`].
    Heredocs,
    /// Nesting past [`MAX_NESTING`].
    Nesting,
    /// Nesting deeper than this thread's stack allows ([`Over::Depth`]); the caller
    /// reads again on a larger stack.
    Deep,
    /// The work budget ([`Over::Work`]).
    Work,
    /// The clock ([`Over::Time`]).
    Time,
}

impl Stop {
    /// The words a reading error shows for it.
    pub fn cause(self) -> &'static str {
        match self {
            Stop::Heredocs => "number of heredocs",
            Stop::Nesting => "nesting depth",
            Stop::Deep => "deeper than this stack",
            Stop::Work => "work",
            Stop::Time => "time",
        }
    }

    /// The stop for a meter that ran out.
    pub fn of_over(over: Over) -> Stop {
        match over {
            Over::Work => Stop::Work,
            Over::Time => Stop::Time,
            Over::Depth => Stop::Deep,
        }
    }
}

/// Reads `command` as `dialect` reads it, within [`MAX_WORK`] and [`MAX_NESTING`].
pub fn read(command: &str, dialect: Dialect) -> Reading {
    read_with(command, dialect, &Work::default())
}

/// Reads `command` as `dialect` reads it, charging `work` (which says how deep it may
/// nest). A reading that ran out of work, time or stack ends in a limit error, whatever
/// it read before.
pub fn read_with(command: &str, dialect: Dialect, work: &Work) -> Reading {
    read_sharing(command, dialect, work, &Bodies::default())
}

/// The unquoted heredoc bodies the readings of one command have scanned: a body every
/// shell reads alike (the same text, from the same offsets) is scanned once.
pub(crate) type Bodies = std::rc::Rc<heredoc::Bodies>;

/// Bodies for one command.
pub(crate) fn bodies_for() -> Bodies {
    std::rc::Rc::new(heredoc::Bodies::default())
}

/// [`read_with`], sharing the scans of unquoted heredoc bodies with the other readings
/// given the same `bodies`: a scan depends only on the body's text and offsets, so a
/// reading finds exactly what its own scan would (and charges the same work).
pub(crate) fn read_sharing(
    command: &str,
    dialect: Dialect,
    work: &Work,
    bodies: &Bodies,
) -> Reading {
    read_bytes(command.as_bytes(), dialect, work, bodies)
}

/// [`read_sharing`] for text that may not be UTF-8 (shell text a command runs, which
/// `guard-tamper` reads).
pub(crate) fn read_bytes(bytes: &[u8], dialect: Dialect, work: &Work, bodies: &Bodies) -> Reading {
    let text = std::rc::Rc::new(if bodies.serves(bytes) {
        Text::checked_command(bytes)
    } else {
        Text::command(bytes)
    });
    let mut out = Reading {
        work: work.clone(),
        bodies: std::rc::Rc::clone(bodies),
        aliases: dialect.aliases.then(alias::Aliases::default),
        ..Reading::default()
    };
    let probe = Probe::new(dialect);
    let result = lexer::Reader::new(
        probe.clone(),
        std::rc::Rc::clone(&text),
        &mut out,
        0,
        Context::TopLevel,
    )
    .read_program();
    if let Err(e) = result {
        out.error = Some(e);
    }
    sort_exec(&mut out.exec);
    nested::read_nested(&mut out, &probe, 0);
    limit_error(&mut out);
    out.asked = probe.asked();
    out
}

/// Puts a reading's [`Exec`]s in the order of the text, each run where it stands (a
/// stable sort: those at one offset keep the order they were found in). Most readings
/// find them in order already, and the sort's buffer (half the list, megabytes for a large
/// script) is then not taken.
pub(crate) fn sort_exec(exec: &mut [Exec]) {
    if !exec.is_sorted_by_key(|e| e.at) {
        exec.sort_by_key(|e| e.at);
    }
}

/// A reading whose meter ran out is a limit, whatever it read before.
fn limit_error(out: &mut Reading) {
    if let Some(over) = out.work.over() {
        let at = out.error.map_or(0, |e| e.at);
        let stop = Stop::of_over(over);
        out.error = Some(ReadError {
            cause: stop.cause(),
            at,
            limit: Some(stop),
            discard: false,
        });
    }
}

/// Where each substitution a reading read as a program ends, by its start, and the
/// command offsets inside them (merged, in order).
struct SubstExtents {
    ends: word::Ends,
    insides: Vec<(u32, u32)>,
}

impl SubstExtents {
    fn inside(&self, o: u32) -> bool {
        let k = self.insides.partition_point(|&(s, _)| s <= o);
        k > 0 && self.insides.get(k - 1).is_some_and(|&(_, e)| o < e)
    }
}

impl word::SubstEnds for SubstExtents {
    fn end_of(&self, at: u32) -> Option<u32> {
        word::SubstEnds::end_of(&self.ends, at)
    }
}

/// Two events that differ only in how their words keep substitutions' texts
/// ([`Reading::same_program_judged`]): simple commands at the same offsets whose words and
/// redirections' words read the same.
fn same_but_substitution_text(
    a: &tree::Event,
    b: &tree::Event,
    ends: &SubstExtents,
    work: &Work,
) -> bool {
    let (tree::Event::Simple(a), tree::Event::Simple(b)) = (a, b) else {
        return false;
    };
    a.at == b.at
        && a.end == b.end
        && a.words.len() == b.words.len()
        && a.redirects.len() == b.redirects.len()
        && a.words
            .iter()
            .zip(&b.words)
            .all(|(x, y)| same_word_read(x, y, ends, work))
        && a.redirects.iter().zip(&b.redirects).all(|(x, y)| {
            x.at == y.at
                && x.op == y.op
                && x.fd == y.fd
                && match (&x.target, &y.target) {
                    (Some(x), Some(y)) => same_word_read(x, y, ends, work),
                    (None, None) => true,
                    _ => false,
                }
        })
}

/// The longest pair of words [`same_word_read`] compares.
const MAX_COMPARED_WORD_BYTES: usize = 1024;

/// Two words that read the same: equal, or (neither pinned to one offset) the same flags
/// and offsets, the same reading as a word and as an assignment, and the same bytes at the
/// same offsets outside the substitutions read as programs.
fn same_word_read(x: &tree::Word, y: &tree::Word, ends: &SubstExtents, work: &Work) -> bool {
    if x == y {
        return true;
    }
    // (A long word, such as a heredoc's body inside `"$(…)"`, costs more to compare than
    // a short command costs to judge: its readings are judged each.)
    if x.text.len() + y.text.len() > MAX_COMPARED_WORD_BYTES
        || !work.charge(bulk_work(x.text.len() + y.text.len()))
    {
        return false;
    }
    if x.text.is_pinned()
        || y.text.is_pinned()
        || (
            x.start,
            x.end,
            x.quoted,
            x.dollar,
            x.ansi_c,
            x.expansion,
            x.from_alias,
        ) != (
            y.start,
            y.end,
            y.quoted,
            y.dollar,
            y.ansi_c,
            y.expansion,
            y.from_alias,
        )
    {
        return false;
    }
    // Each byte with its command offset, outside the substitutions' insides.
    fn outside<'t>(
        t: &'t Text<'_>,
        ends: &'t SubstExtents,
    ) -> impl Iterator<Item = (u8, u32)> + 't {
        t.bytes()
            .iter()
            .copied()
            .zip(t.origins())
            .filter(|&(_, o)| !ends.inside(o))
    }
    if !outside(&x.text, ends).eq(outside(&y.text, ends)) {
        return false;
    }
    let (xi, xs) = word::read_counted(&x.text, ends);
    let (yi, ys) = word::read_counted(&y.text, ends);
    work.charge(xs + ys)
        && xi == yi
        && word::assignment(&x.text, ends) == word::assignment(&y.text, ends)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The substitutions a reading found in heredoc bodies, as command offsets.
    fn body_runs(r: &Reading) -> Vec<u32> {
        r.exec
            .iter()
            .filter(|e| e.in_body.is_some())
            .map(|e| e.at)
            .collect()
    }

    /// Whether bash 5.2's reading of `command` asked if the shell is zsh.
    fn asks_zsh(command: &str) -> bool {
        read(command, Dialect::new(Shell::Bash52)).asked & quirk::ZSH != 0
    }

    #[test]
    fn bash_3_2_keeping_a_substitutions_text_in_a_word_reads_the_same_program_for_the_judge() {
        let w = Work::default();
        let same = [
            "os=\"$(uname -s)\"\ncat <<'EOF'\nx\nEOF\n",
            "mkdir -p \"$(dirname \"$0\")/d\" > \"$(mktemp)\"\ncat <<'EOF'\nx\nEOF\n",
        ];
        for c in same {
            let new = read(c, Dialect::new(Shell::Bash52));
            let old = read(c, Dialect::new(Shell::Bash32));
            // (The words differ: bash 3.2 keeps the substitution's text.)
            assert!(!new.same_program(&old), "{c:?}");
            assert!(new.same_program_judged(&old, &w), "{c:?}");
            assert!(old.same_program_judged(&new, &w), "{c:?}");
            // (Each byte's offset, a run at a time, is what asking for it finds.)
            for e in new.events.iter().chain(&old.events) {
                if let tree::Event::Simple(sc) = e {
                    for t in sc.words.iter().map(|w| &w.text) {
                        let each: Vec<u32> = (0..t.len()).map(|i| t.origin(i)).collect();
                        assert_eq!(t.origins().collect::<Vec<_>>(), each);
                    }
                }
            }
        }
        // Where bash 3.2's scanner ends the substitution elsewhere (at a case pattern's
        // `)`), it reads another program: judged on its own.
        let c = "x=\"$(case a in a) echo y;; esac)\"\ncat <<'EOF'\nx\nEOF\n";
        let new = read(c, Dialect::new(Shell::Bash52));
        let old = read(c, Dialect::new(Shell::Bash32));
        assert!(!new.same_program_judged(&old, &w));
    }

    #[test]
    fn zsh_shares_bash_reading_of_plain_script_text_and_reads_it_alike() {
        // Script text where zsh's reader takes bash's steps: bash 5.2's reading never asks
        // whether the shell is zsh (so zsh shares it, and a script is read once), and
        // zsh's own reading, asked every question, reads the same program.
        let plain = [
            "echo \"line $i $HOME\" >> out.txt\necho b\n",
            "cd d && ls -la | grep -v x | wc -l\n",
            "f() { printf '%s\\n' \"$1\"; }\nf x\n",
            "g() {\n  cat > \"$1\" <<'EOF'\nkeep $(id)\nEOF\n}\n",
            "{ echo a; } > f\n{\necho b\n}\n",
            "while read -r l; do echo \"got $l\"; done <<'EOF'\na\nEOF\n",
            "n=$((n + 1))\nif [ \"$n\" -gt 2 ]; then echo y; fi\n",
            "export V_1=\"value-1\"\ncat <<EOF\n$(date)\nEOF\n",
            "x=${HOME:-/root}; echo \"${x}\" a\\\nb\n",
        ];
        for command in plain {
            assert!(!asks_zsh(command), "{command:?} asked for zsh");
            let (bodies, work) = (Bodies::default(), Work::default());
            let bash = read_sharing(command, Dialect::new(Shell::Bash52), &work, &bodies);
            let zsh = read_sharing(command, Dialect::new(Shell::Zsh), &work, &bodies);
            assert!(
                bash.same_program(&zsh),
                "{command:?} reads otherwise in zsh"
            );
            let runs = |r: &Reading| r.exec.iter().map(|e| (e.at, e.end)).collect::<Vec<_>>();
            assert_eq!(runs(&bash), runs(&zsh), "{command:?}");
            assert_eq!(zsh.unreliable, None, "{command:?}");
        }
        // Where zsh's reader may part from bash's, the reading asks (and zsh reads the
        // command itself): a `{` glued to a word in command position (a process
        // substitution too, which bash reads on through), an array element
        // assigned, a `}` that closes no `{`, `<<-`, a loop without `do`, a quote in
        // arithmetic, a `'` in `"${…}"`, a backslash-newline inside an operator.
        let asking = [
            "{echo x}\n",
            "{<(:); echo }\n",
            "{\\\n echo a; }\n",
            "{>(:) }\n",
            "a[1]=x\n",
            "echo }\n",
            "cat <<-EOF\n\tEOF\n",
            "for i in 1 2; echo $i\n",
            "echo $(( \"1\" + 2 ))\n",
            "echo \"${x:-'a'}\"\n",
            "cat <\\\n<EOF\nx\nEOF\n",
        ];
        for command in asking {
            assert!(asks_zsh(command), "{command:?} did not ask for zsh");
        }
    }

    #[test]
    fn readings_of_one_command_share_its_body_scans_without_copying_the_body() {
        let command = "cat <<EOF\n$(id)\nEOF\n";
        let bodies = Bodies::default();
        let work = Work::default();
        let first = read_sharing(command, Dialect::new(Shell::Intended), &work, &bodies);
        let second = read_sharing(command, Dialect::new(Shell::Bash52), &work, &bodies);
        assert_eq!(body_runs(&first), [10]);
        assert_eq!(body_runs(&second), [10]);
        // One scan, shared: the second reading holds the first one's result.
        let eval = |r: &Reading| r.heredocs.first().map(|h| std::rc::Rc::clone(&h.body_eval));
        assert!(
            matches!((eval(&first), eval(&second)), (Some(a), Some(b)) if std::rc::Rc::ptr_eq(&a, &b))
        );
        // Kept by its offsets in the command: no byte of the body was copied.
        assert_eq!(bodies.kept_bytes(), 0);
    }

    #[test]
    fn bodies_shared_with_another_command_of_the_same_shape_are_not_taken_for_it() {
        // Same length, same body offsets: only the bytes differ.
        let live = "cat <<EOF\n$(id)\nEOF\n";
        let inert = "cat <<EOF\n${id}\nEOF\n";
        assert_eq!(live.len(), inert.len());
        let bodies = Bodies::default();
        let work = Work::default();
        let d = Dialect::new(Shell::Bash52);
        assert_eq!(body_runs(&read_sharing(live, d, &work, &bodies)), [10]);
        assert_eq!(
            body_runs(&read_sharing(inert, d, &work, &bodies)),
            Vec::<u32>::new()
        );
        // And the other way round.
        let bodies = Bodies::default();
        assert_eq!(
            body_runs(&read_sharing(inert, d, &work, &bodies)),
            Vec::<u32>::new()
        );
        assert_eq!(body_runs(&read_sharing(live, d, &work, &bodies)), [10]);
    }

    fn closings(command: &str, shell: Shell) -> Vec<String> {
        read(command, Dialect::new(shell))
            .heredocs
            .iter()
            .map(|h| String::from_utf8_lossy(&h.closing).into_owned())
            .collect()
    }

    #[test]
    fn zsh_splits_a_closing_brace_off_the_end_of_a_word() {
        let cmd = "{ cat <<'EOF'}\nEOF\n{ cat <<'X'\nEOF}\nX\n}\n";
        assert_eq!(closings(cmd, Shell::Zsh), ["EOF", "X"]);
        assert_eq!(closings(cmd, Shell::Bash52), ["EOF}"]);
        // Escaped, or closing a `{` of the word: kept.
        assert_eq!(closings("{ cat <<EOF\\}\nEOF}\n}\n", Shell::Zsh), ["EOF}"]);
        assert_eq!(closings("cat <<E{O}F\nE{O}F\n", Shell::Zsh), ["E{O}F"]);
        // A `}` alone is the reserved word wherever it stands; `{x}` in command position
        // is a group.
        assert!(read("echo a}", Dialect::new(Shell::Zsh)).error.is_some());
        assert!(read("echo }", Dialect::new(Shell::Zsh)).error.is_some());
        assert!(read("echo a\\}", Dialect::new(Shell::Zsh)).error.is_none());
        assert!(read("{echo a}", Dialect::new(Shell::Zsh)).error.is_none());
        // An assignment keeps it, a word that may be one is not followed.
        let r = read("a=b} true", Dialect::new(Shell::Zsh));
        assert_eq!(r.unreliable, Some(ZSH_RBRACE_ASSIGNMENT));
    }

    #[test]
    fn zsh_ends_a_word_inside_a_subscript() {
        let cmd = "a[x<<2]=y\n2]=y\n";
        assert_eq!(closings(cmd, Shell::Zsh), ["2]=y"]);
        assert!(closings(cmd, Shell::Bash52).is_empty());
        let r = read("a[[1](N)<<2]=x\n2]=x\n", Dialect::new(Shell::Zsh));
        assert_eq!(r.unreliable, Some(ZSH_WORD_PAREN));
        let r = read("a['x y']=1; f() { :; }\n", Dialect::new(Shell::Zsh));
        assert_eq!((r.unreliable, r.error), (None, None));
    }

    #[test]
    fn zsh_arithmetic_with_quotes_backslashes_or_unbalanced_brackets_is_not_followed() {
        for cmd in [
            "(( x = \")\" <<2 ))\n",
            "(( x = ')' ))\n",
            "(( \\( ))\n",
            "(( ] ))\n",
            "echo $(( a[1 ))\n",
            "echo \"$[ \"]\" ]\"\n",
        ] {
            let r = read(cmd, Dialect::new(Shell::Zsh));
            assert_eq!(r.unreliable, Some(ZSH_MATH), "{cmd:?}");
            assert_eq!(read(cmd, Dialect::new(Shell::Bash52)).unreliable, None);
        }
        for cmd in [
            "(( x + 1 ))\n",
            "(( a[1] > 0 )) && echo $(( ${#a[@]} - 1 )) $[x+1]\n",
            "echo $(( $(wc -l <\"$f\") + 1 ))\n",
        ] {
            assert_eq!(
                read(cmd, Dialect::new(Shell::Zsh)).unreliable,
                None,
                "{cmd:?}"
            );
        }
    }

    #[test]
    fn zsh_reads_single_quotes_inside_double_quoted_braces_as_plain_characters() {
        // zsh: `'` is plain inside "${…}", `"` nests; the word runs on to line 2.
        let cmd = "echo \"${x:-'\"'}\" <<'EOF'\n}\"\nEOF\n";
        assert!(closings(cmd, Shell::Zsh).is_empty());
        assert_eq!(closings(cmd, Shell::Bash52), ["EOF"]);
        let cmd = "echo \"${x:-'}\"'}\" <<'EOF'\nx\nEOF\n";
        assert_eq!(closings(cmd, Shell::Bash52), ["EOF"]);
        assert!(closings(cmd, Shell::Zsh).is_empty());
        // Read alike.
        for cmd in [
            "echo \"${x:-\"'\"}\" <<'EOF'\nx\nEOF\n",
            "echo \"${x:-default}\" \"${x#*/}\" <<'EOF'\nx\nEOF\n",
        ] {
            assert_eq!(closings(cmd, Shell::Zsh), ["EOF"], "{cmd:?}");
            assert_eq!(read(cmd, Dialect::new(Shell::Zsh)).unreliable, None);
        }
    }
}
