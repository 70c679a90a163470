//! What the guard saw in a command: its heredocs and the findings that deny it, or the
//! check's [`crate::check::Clean`] when nothing does. The data types every other module
//! shares; they depend on nothing but the shell reader's types and that one value.

use crate::judge::Evaluator;
use crate::shell::{Context, Pos, Shell, SubstKind};

/// A heredoc as the command's author meant it (the intended reading).
#[derive(Clone, Debug)]
pub struct Heredoc {
    /// Where the `<<` is.
    pub opener: Pos,
    /// The delimiter word as written.
    pub written: String,
    /// The closing line the shell waits for.
    pub closing: String,
    pub quoted: bool,
    /// `$'…'` / `$"…"` in the delimiter.
    pub ansi_c: bool,
    pub strip_tabs: bool,
    pub context: Context,
    /// The line the body starts on.
    pub body_line: usize,
    /// Command byte range of the body lines.
    pub body: (usize, usize),
    /// Command byte range of the closing line, when there is one.
    pub closer: Option<(usize, usize)>,
    /// Command byte ranges of the substitutions an unquoted body runs.
    pub runs: Vec<(usize, usize)>,
}

/// What a finding is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// A shell runs a substitution in an unquoted heredoc body.
    Substitution(SubstKind),
    /// A shell reads text that is a heredoc body (to this or another shell, or as its
    /// author wrote it) as code: the body ends elsewhere than it appears to.
    Boundary,
    /// The delimiter is `$'…'` or `$"…"`.
    AnsiCDelimiter,
    /// The delimiter holds an expansion (`$(…)`, `${…}`, `$[…]`, backquotes with quotes),
    /// which shells read differently.
    DelimiterExpansion,
    /// The command changes how the shell reads text after it, in a way the guard does
    /// not follow, and a heredoc is read after it.
    ReadingOption(&'static str),
    /// A value that may be heredoc text (heredoc text, or run-time text the command does
    /// not show) reaches a hidden evaluator: in the command, or in an unquoted body (where
    /// anything the command fixed counts too).
    Evaluation {
        evaluator: Evaluator,
        /// The construct (`$((...))`, `unset`, `${!name}`…).
        what: &'static str,
        /// Run-time text (program output, a file…), not known heredoc text.
        unknown: bool,
        in_body: bool,
    },
    /// Expansions of an unquoted body the guard does not follow (too many, nested too
    /// deep, a word bash reads again once it removes its double quotes).
    Unread(&'static str),
    /// A shell reads part of the command in a way the guard does not follow.
    Unfollowed(&'static str),
}

/// One finding: what, where, which shells, and a short excerpt of the source.
#[derive(Clone, Debug)]
pub struct Finding {
    pub kind: FindingKind,
    /// The heredoc it concerns, when there is one.
    pub heredoc: Option<usize>,
    /// Command byte offset and position.
    pub at: usize,
    pub pos: Pos,
    pub excerpt: String,
    /// The shells that read it this way.
    pub shells: Vec<Shell>,
}

/// Everything the guard saw: the heredocs and the findings, in order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub heredocs: Vec<Heredoc>,
    pub findings: Vec<Finding>,
    /// Some heredoc body held more substitutions than are listed (see
    /// `shell::MAX_BODY_SUBSTITUTIONS`): the heredocs' `runs` are not all there is.
    pub runs_cut: bool,
    /// Set only by a check that finished with nothing to deny: why the command is
    /// allowed. A report without it denies, whatever its findings.
    pub clean: Option<crate::check::Clean>,
}
