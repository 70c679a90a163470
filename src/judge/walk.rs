//! One walk over a reading's commands, recording [`Facts`]: what each assignment assigns,
//! what each substitution writes, which hidden evaluators each word and builtin reaches
//! (with the expression of the value), and what changes how later text is read. The walk
//! is flow-insensitive (a variable holds every value assigned to it anywhere), so one pass
//! is enough whatever the order, loops and functions of the command.

use super::GaveUp;
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use super::builtins;
use super::evaluators::Evaluator;
use super::facts::{Change, Expr, Facts, Needs, Site, Src, Target, Unread, Var, When};
use super::program::{Feed, Node, Prog};
use super::value::{ByteSet, Val};
use crate::shell::tree::{Compound, RedirOp, Redirect, SimpleCommand, Word};
use crate::shell::word::{self, Arith, Param, ParamOp, Piece, SubstEnds, WordInfo};
use crate::shell::{Context, Dialect, Heredoc, Nested, Work};

pub(super) mod lines;
pub(super) use lines::RUN_BETWEEN;

/// The pseudo-variable for what `exec` redirections give every later command's input
/// (no shell name holds a NUL).
pub(super) const SHELL_STDIN: &[u8] = b"\0stdin";

/// The pseudo-variable for the input a function's calls give it.
/// The pseudo-variable for the first argument a function's calls give it (the name its
/// `"$@"` runs), or, for `name` empty, any function's (a call of a command named at run
/// time).
pub(super) fn function_first(name: &[u8]) -> Vec<u8> {
    let mut v = super::facts::FIRST_ARG.to_vec();
    v.push(b':');
    v.extend_from_slice(name);
    v
}

pub(super) fn function_stdin(name: &[u8]) -> Vec<u8> {
    let mut v = b"\0stdin:".to_vec();
    v.extend_from_slice(name);
    v
}

/// Where a command runs.
#[derive(Clone)]
pub(super) struct Ctx {
    /// What its standard input carries.
    pub stdin: Expr,
    /// Inside a function body, a substitution or text run later: a heredoc here is read
    /// when it runs.
    pub read_later: bool,
    /// Inside a function body (an alias defined here is defined when it is called).
    pub in_function: bool,
    /// Fed by a pipe (zsh reads the pipe, then the command's own input redirections).
    pub piped: bool,
    /// Its output may be captured (a substitution, a pipe, a function, text run later):
    /// an `exec` that sends standard error there sends it there for every later command.
    pub captured: bool,
    /// Its standard error goes where its output goes (`2>&1` on it or around it).
    pub stderr_out: bool,
    /// Its input is read a whole line at a time by every command that reads it (see
    /// `lines`): each `read -r` gets one whole line.
    pub whole_lines: bool,
    /// Inside a subshell substitution (`$(…)`, backquotes, `<(…)`, `>(…)`) that ends at
    /// this offset: a change made here reaches no text after it.
    pub scope_end: Option<u32>,
}

/// The walk's state.
pub(super) struct Walk<'a> {
    pub d: Dialect,
    pub facts: Facts,
    pub meter: &'a Work,
    prog: &'a Prog<'a>,
    heredocs: &'a [Heredoc],
    /// The text the reading's offsets index (`None`: offsets pinned to one place).
    text: Option<&'a [u8]>,
    /// Heredoc index by the offset of its operator.
    by_op: HashMap<u32, usize>,
    unit: usize,
    /// The reading's literal `eval` and `trap` texts, and, by the offset of the command
    /// that runs each, its unit and its input.
    nested: &'a [Nested],
    /// The offsets of the commands that run such texts, in order.
    nested_at: Vec<u32>,
    runs_nested: HashMap<u32, (usize, Expr)>,
    /// This walk is of such a text: its heredocs' bodies are not in the command's text.
    in_nested: bool,
    /// Whether the text names a zsh hook list ([`Walk::zsh_hooks_by_list`]), once known.
    names_hook_list: std::cell::Cell<Option<bool>>,
    /// [`Walk::every_body`]'s value for a trap (`[0]`) and for a command-not-found handler
    /// (`[1]`), once computed: it depends on the program only, and a script may set many.
    every_body_once: [Option<Expr>; 2],
    /// The substitutions being walked (text with pinned offsets has one key for all its
    /// substitutions: a substitution met inside itself is not walked again).
    in_substs: Vec<u32>,
    /// Standard error may reach every capture and pipe (an `exec 2>&1` where output is
    /// captured, `BASH_XTRACEFD`): set for the walk again when the first walk finds one.
    pub stderr_merged: bool,
    /// What the command being judged writes to standard error may be any text: it runs
    /// a program whose errors the guard cannot show (`tee /dev/stderr`, `date -f -`).
    pub program_errors: bool,
    /// The program run last quotes its words in its error messages as GNU's `quote()`
    /// does ([`Val::program_quoted`]).
    ///
    /// [`Val::program_quoted`]: super::value::Val::program_quoted
    pub program_quotes: bool,
    /// The walk found such a redirection or assignment.
    pub merge_found: bool,
    /// The command's name was computed at run time and may be skipped (`builtins::command`):
    /// the offset of the word after it.
    pub skippable_name: Option<usize>,
    /// `set -x` traces may expand PS4 with any variable's value (the text names PS4, or
    /// a name assigned at run time may be it): in what standard error carries.
    trace_prompts: bool,
    /// Fields are not followed a line at a time in loops (see `lines`): set for the walk
    /// again when the command may run code between the loop's reads (a trap, a hook, a
    /// function named like a builtin).
    pub no_whole_lines: bool,
    /// A loop's input was taken a whole line at a time.
    pub used_whole_lines: bool,
    /// ... counting on a program that never reads its input (`mkdir`): what its name runs
    /// must not be changed (`PATH`, `hash`).
    pub used_quiet_programs: bool,
    /// `set -v` may be on: standard error may carry the command's own text.
    pub verbose: bool,
    /// Text the walk does not read may run `shift` (set for the walk again when the first
    /// finds a command named at run time or `eval` of computed text).
    pub shifts_unseen: bool,
    /// The assignments walked now stand before a program's name (its environment's).
    for_a_program: bool,
    /// A nameref may be in the command: `"$r"` may be several words (a nameref to `a[@]`,
    /// bash 5.2) (set for the walk again when the first finds one).
    pub namerefs_seen: bool,
    /// Everything the command ran so far is inert ([`builtins::inert`]): literal
    /// assignments, `export`, `set`, `cd` to a plain directory, an environment's file
    /// sourced, function definitions. A file sourced while it holds is the environment's
    /// ([`builtins`]'s `sourced`).
    pub inert_so_far: bool,
    /// The command just walked sourced an environment's file.
    pub sourced_environment: bool,
    /// [`Walk::text_names_cdable_vars`], once.
    cdable_memo: std::cell::Cell<Option<bool>>,
    /// [`Walk::text_may_remove_globs`], once.
    nullglob_memo: std::cell::Cell<Option<bool>>,
    /// [`Walk::text_holds_shift`], once.
    shift_memo: std::cell::Cell<Option<bool>>,
    /// zsh's options the command's text names ([`ZshOptions`]): `None`, not known.
    pub zsh_options: Option<ZshOptions>,
    /// The function whose body is being walked, where its name is known.
    pub function_named: Option<Vec<u8>>,
    /// The names of the functions the command defines (anywhere: a call before the
    /// definition runs it too, in a loop), and whether one is named otherwise than plainly
    /// (any command may then be a function).
    pub functions: Rc<(super::FunctionNames, bool)>,
    /// The functions the command's own text defines, and whether one is named otherwise
    /// than plainly (not those text the guard does not read may define).
    pub own_functions: Rc<(super::FunctionNames, bool)>,
    /// The command gives a heredoc or a here-string on a descriptor other than standard
    /// input somewhere: a sourced file may read it.
    pub other_fd_text: bool,
    /// The command's text names zsh's `zargs` and `functions` or `alias`, which may give
    /// it another name ([`Walk::text_copies_zargs`]; `eval` and `trap` texts: their
    /// command's).
    pub copies_zargs: bool,
    /// The command may source a file that is not the environment's somewhere (a walk
    /// before found one, or text it does not read that may): a function the file defines
    /// may run in place of any name and copy what a call gives it into any name
    /// ([`super::builtins`]'s `sourced`).
    pub sources_files: bool,
    /// This walk met such a source (so far, in the text's order).
    pub copying_source: bool,
    /// Text the walk does not read may source such a file, anywhere.
    pub unread_sources: bool,
    /// The command holds a heredoc somewhere, its `eval` and `trap` texts included: a
    /// file it writes may hold heredoc text.
    pub holds_heredoc: bool,
    /// The command judged now starts after a name computed at run time that may be empty
    /// ([`super::builtins`]' `command`).
    pub after_skipped_name: bool,
    /// Text this walk does not read, or `eval` or `trap` text it reads apart, may source
    /// such a file (`mapfile -C`'s callback, a literal `eval '. ./lib.sh'`): the next walk
    /// counts every call ([`Walk::unread_sources`]).
    pub sources_anywhere: bool,
}

/// zsh options a command's text names, by any spelling zsh takes: case and `_` ignored,
/// and quotes and backslashes dropped (`'options[glob''subst]'`, `noglob_subst` too).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZshOptions {
    pub prompt_subst: bool,
    pub glob_subst: bool,
    pub glob_assign: bool,
    /// Options named some other way: `setopt`, `set -o`, `set +o`, `options`, `emulate`.
    pub options: bool,
    /// The `options` table named: any option may be set through it, by a name computed at
    /// run time too (`set -A options prompt$'\163'ubst on`, `typeset "options[$k]=on"`,
    /// `zformat -f "options[$k]" on`; round 101).
    pub table: bool,
    /// `xtrace` named anywhere (`set -A options xtrace on`, `${options[xtrace]::=on}`,
    /// `read -A options`), or a function traced (`functions -t f`, `typeset -ft f`,
    /// `autoload -t f`): PS4 may be expanded (round 100).
    pub xtrace: bool,
}

impl ZshOptions {
    pub fn named_in(text: &[u8]) -> ZshOptions {
        let plain = crate::shell::syntax::option_spelling(text);
        let has = |n: &[u8]| crate::search::find(&plain, n).is_some();
        ZshOptions {
            // (`promptvars`: zsh's alias of it, round 101.)
            prompt_subst: has(b"promptsubst") || has(b"promptvars"),
            glob_subst: has(b"globsubst"),
            glob_assign: has(b"globassign"),
            options: [&b"setopt"[..], b"set -o", b"set +o", b"options", b"emulate"]
                .iter()
                .any(|n| has(n)),
            table: writes_options_table(&plain),
            // (`emulate` takes option flags too: `emulate zsh -x`.)
            xtrace: has(b"xtrace")
                || has(b"sourcetrace")
                || has(b"emulate")
                || traces_functions(&plain),
        }
    }
}

/// Whether (normalized) text may write zsh's `options` table: `options` as a name of its
/// own, or after an expansion (`${p}options`), before `[`, `=`, `+=` or `(`, or after an
/// option word ending in `a` (`set -A options`, `read -rA options`): an element by any
/// key, a key computed at run time too (round 101). (`GREP_OPTIONS=`, "extra options"
/// are not.)
fn writes_options_table(plain: &[u8]) -> bool {
    memchr::memmem::find_iter(plain, b"options").any(|at| {
        let after = plain.get(at + b"options".len()..).unwrap_or_default();
        let before = plain.get(..at).unwrap_or_default();
        let glued = before
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        let name_start = before.len() - glued;
        let own_name = glued == 0 || before.get(name_start.wrapping_sub(1)) == Some(&b'$');
        let option_word = before
            .strip_suffix(b" ")
            .or_else(|| before.strip_suffix(b"\t"))
            .is_some_and(|b| {
                let word = b
                    .rsplit(|c| c.is_ascii_whitespace())
                    .next()
                    .unwrap_or_default();
                word.starts_with(b"-") && word.ends_with(b"a")
            });
        (own_name && matches!(after.first(), Some(b'[' | b'=' | b'+' | b'(')))
            || (glued == 0 && option_word)
    })
}

/// Whether text holds `set` with an option word (`-…`, `+…`) holding one of `letters`, or
/// a word computed at run time (`set -G`, zsh's NULL_GLOB).
fn sets_letter(text: &[u8], letters: &[u8]) -> bool {
    let words: Vec<&[u8]> = text
        .split(|c| c.is_ascii_whitespace() || b";&|(){}".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().any(|(k, w)| {
        *w == b"set"
            && words[k + 1..]
                .iter()
                .take_while(|o| o.starts_with(b"-") || o.starts_with(b"+") || o.contains(&b'$'))
                .any(|o| {
                    o.iter()
                        .any(|c| letters.contains(c) || *c == b'$' || *c == b'`')
                })
    })
}

/// Whether text (lower case) holds a builtin that gives functions the trace attribute:
/// `functions`, `typeset` and its kin, or `autoload`, with an option word holding a `t`
/// (`-t`, `-T`, `-ft`, `+t` aside: any).
fn traces_functions(plain: &[u8]) -> bool {
    // (Most text names none of them: not split into words, a megabyte of body too.)
    const NAMES: [&[u8]; 9] = [
        b"functions",
        b"autoload",
        b"typeset",
        b"declare",
        b"local",
        b"readonly",
        b"export",
        b"integer",
        b"float",
    ];
    if !NAMES.iter().any(|n| crate::search::contains(plain, n)) {
        return false;
    }
    let words: Vec<&[u8]> = plain
        .split(|c| c.is_ascii_whitespace() || b";&|(){}".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().any(|(k, w)| {
        // (`$'functions'`: the quotes dropped, its `$` kept, round 102.)
        let w = w.strip_prefix(b"$").unwrap_or(w);
        let functions = matches!(w, b"functions" | b"autoload");
        let typeset = matches!(
            w,
            b"typeset" | b"declare" | b"local" | b"readonly" | b"export" | b"integer" | b"float"
        );
        if !functions && !typeset {
            return false;
        }
        let opts: Vec<&&[u8]> = words[k + 1..]
            .iter()
            .take_while(|o| o.starts_with(b"-") || o.starts_with(b"+"))
            .collect();
        // (An option word computed at run time: `-f$o`, or the first word, `typeset $o f`.)
        // (A glob or a tilde too: `functions -? f` beside a file `-t`, round 101.)
        // (zsh's EXTENDED_GLOB patterns too: `functions ^x f` beside a file `-t`.)
        let dynamic = |o: &[u8]| o.iter().any(|c| b"$`?*[~^#".contains(c));
        let computed =
            opts.iter().any(|o| dynamic(o)) || words.get(k + 1).is_some_and(|o| dynamic(o));
        let has = |c: u8| opts.iter().any(|o| o.contains(&c));
        // (`typeset -T` without `-f` ties a scalar to an array: no trace.)
        (functions && (has(b't') || computed))
            || (typeset && ((has(b't') && has(b'f')) || computed))
    })
}

/// Whether a piece of a word may give zsh's globbing a `(`: written in it, in the word of
/// a `${…}` inside it, or in a pattern `${~v}` gives.
fn glob_paren(p: &Piece) -> bool {
    match p {
        Piece::Lit(l) => l.contains(&b'('),
        Piece::Param(p) => {
            p.zsh_glob
                || p.arg
                    .as_ref()
                    .is_some_and(|a| a.pieces.iter().any(glob_paren))
        }
        Piece::Subst(_) | Piece::Arith(_) => false,
    }
}

/// Whether `raw` (a word as written) holds a `(` and every one is quoted (in `'…'`, `"…"`
/// or after a backslash). A word with backquotes or `$'…'`, whose quotes this does not
/// follow (a `'` in a comment, `$'\''`), is not.
fn parens_all_quoted(raw: &[u8]) -> bool {
    if raw.contains(&b'`') || raw.windows(2).any(|w| w == b"$'") {
        return false;
    }
    let (mut single, mut double, mut escaped) = (false, false, false);
    let mut any = false;
    for &c in raw {
        if escaped {
            escaped = false;
            any |= c == b'(';
            continue;
        }
        match c {
            b'\\' if !single => escaped = true,
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'(' if !single && !double => return false,
            b'(' => any = true,
            _ => {}
        }
    }
    any
}

/// The body index of an evaluator in a heredoc of `eval` text (not one of the reading's
/// heredocs: the rules name no heredoc for it).
pub(super) const NESTED_BODY: usize = usize::MAX;

impl<'a> Walk<'a> {
    pub fn new(
        d: Dialect,
        prog: &'a Prog<'a>,
        heredocs: &'a [Heredoc],
        text: Option<&'a [u8]>,
        meter: &'a Work,
        nested: &'a [Nested],
    ) -> Self {
        let by_op = heredocs
            .iter()
            .enumerate()
            .map(|(i, h)| (h.op, i))
            .collect();
        Walk {
            d,
            facts: Facts::default(),
            meter,
            prog,
            heredocs,
            text,
            by_op,
            unit: 0,
            nested,
            nested_at: {
                let mut at: Vec<u32> = nested.iter().map(|n| n.at).collect();
                at.sort_unstable();
                at
            },
            runs_nested: HashMap::default(),
            in_nested: false,
            names_hook_list: std::cell::Cell::new(None),
            every_body_once: [None, None],
            in_substs: Vec::new(),
            stderr_merged: false,
            program_errors: false,
            program_quotes: false,
            skippable_name: None,
            merge_found: false,
            trace_prompts: text.is_none_or(|t| {
                crate::search::find(t, b"PS4").is_some()
                    || crate::search::find(t, b"PROMPT4").is_some()
            }),
            no_whole_lines: false,
            used_whole_lines: false,
            used_quiet_programs: false,
            verbose: false,
            shifts_unseen: false,
            for_a_program: false,
            namerefs_seen: false,
            inert_so_far: true,
            sourced_environment: false,
            shift_memo: std::cell::Cell::new(None),
            zsh_options: None,
            cdable_memo: std::cell::Cell::new(None),
            nullglob_memo: std::cell::Cell::new(None),
            function_named: None,
            functions: Rc::new((super::FunctionNames::default(), false)),
            own_functions: Rc::new((super::FunctionNames::default(), false)),
            other_fd_text: false,
            copies_zargs: false,
            sources_files: false,
            copying_source: false,
            unread_sources: false,
            sources_anywhere: false,
            after_skipped_name: false,
            holds_heredoc: false,
        }
    }

    pub fn zsh(&self) -> bool {
        self.d.is_zsh()
    }

    /// Whether the command's text names the option that makes `cd word` go to the
    /// directory a variable named `word` holds (`shopt -s cdable_vars`, zsh's
    /// `CDABLE_VARS` in any case, with any underscores).
    pub fn text_names_cdable_vars(&self) -> bool {
        self.text_test(&self.cdable_memo, |t| {
            let plain: Vec<u8> = t
                .iter()
                .filter(|&&c| c != b'_')
                .map(u8::to_ascii_lowercase)
                .collect();
            crate::search::find(&plain, b"cdablevars").is_some()
        })
    }

    /// `test` of the command's text (true where the walk has none: fail closed), asked
    /// once and kept in `memo`.
    fn text_test(
        &self,
        memo: &std::cell::Cell<Option<bool>>,
        test: impl FnOnce(&[u8]) -> bool,
    ) -> bool {
        if let Some(known) = memo.get() {
            return known;
        }
        let found = self.text.is_none_or(test);
        memo.set(Some(found));
        found
    }

    /// The command's text, where the walk has it.
    /// Whether the command's text names zsh's `zargs` (a function that runs its words) and
    /// `functions` or `alias`, which may give it another name.
    fn text_copies_zargs(&self) -> bool {
        self.text.is_none_or(|t| {
            crate::search::find(t, b"zargs").is_some()
                && (crate::search::find(t, b"functions").is_some()
                    || crate::search::find(t, b"alias").is_some())
        })
    }

    pub fn source_text(&self) -> Option<&'a [u8]> {
        self.text
    }

    /// Whether the command may have a word with literal text give no word: it names
    /// `nullglob` (bash's `shopt`, zsh's `NULL_GLOB`, `CSH_NULL_GLOB`; case and `_` aside)
    /// or zsh's `RC_EXPAND_PARAM`, writes a `(N` qualifier, `(#q`, `${^…}`, or names
    /// options some other way (`setopt`, `options`, `emulate`, `shopt` with a word computed
    /// at run time). Otherwise the settings are the environment's (round 100).
    pub fn text_may_remove_globs(&self) -> bool {
        self.text_test(&self.nullglob_memo, |t| {
            // (Quotes, backslashes and braces dropped: `\set -{P,P}`, `glob{,}subst`.)
            let kept = crate::shell::syntax::unquoted_spelling(t);
            let plain = crate::shell::syntax::option_spelling(t);
            let has = |n: &[u8]| crate::search::find(&plain, n).is_some();
            let raw = |n: &[u8]| crate::search::find(t, n).is_some();
            // (bash turns `nullglob` on only by `shopt`; zsh by `setopt`, `set -o`, the
            // `options` table, `emulate`, or `set -G` (`-P` for RC_EXPAND_PARAM); a word
            // spelled with `$'…'` escapes may spell any of them.)
            has(b"nullglob")
                || has(b"rcexpandparam")
                || has(b"globsubst")
                || has(b"shopt")
                || has(b"setopt")
                || has(b"options")
                || has(b"emulate")
                || raw(b"$'")
                || raw(b"(#q")
                || raw(b"${^")
                || raw(b"$^")
                || sets_letter(&kept, b"GP")
        })
    }

    /// Whether the command's text holds `shift` (unknown text, a nested one: yes), or
    /// text it does not read may run it (`s=sh; s+=ift; $s`).
    pub fn text_holds_shift(&self) -> bool {
        if self.shifts_unseen {
            return true;
        }
        if let Some(known) = self.shift_memo.get() {
            return known;
        }
        // (zsh's `argv[1]=()` too.)
        let holds = self.text.is_none_or(|t| {
            crate::search::find(t, b"shift").is_some() || crate::search::find(t, b"argv").is_some()
        });
        self.shift_memo.set(Some(holds));
        holds
    }

    /// Whether the command may turn zsh's GLOB_SUBST on: it names it, or names options
    /// some other way ([`ZshOptions`]), or an option at run time. Otherwise the settings
    /// are the user's environment's, and what only GLOB_SUBST would glob is not judged again.
    fn may_set_glob_subst(&self) -> bool {
        self.facts.glob_subst || self.zsh_options.is_none_or(|o| o.glob_subst || o.options)
    }

    /// Whether zsh's GLOB_ASSIGN may be on: the command names it ([`ZshOptions`]), or names
    /// an option at run time.
    fn names_glob_assign(&self) -> bool {
        self.facts.glob_subst || self.zsh_options.is_none_or(|o| o.glob_assign)
    }

    pub(super) fn spend(&self, n: usize) -> Result<(), GaveUp> {
        if self.meter.charge(n) {
            Ok(())
        } else {
            Err(GaveUp)
        }
    }

    pub fn var(&mut self, name: &[u8]) -> Var {
        // zsh's positional parameters are one with `argv`, which the command may assign
        // (`1=x`, `argv[2]=y`, `read -r 1`): `@` stands for them all ([`Walk::param_var`]).
        if self.zsh() && positional(name) {
            return self.facts.names.id(b"@");
        }
        self.facts.names.id(name)
    }

    /// Whether zsh takes `name` for a parameter a command may assign though it is no
    /// identifier: a positional parameter's number, or `0`.
    pub fn zsh_parameter_name(&self, name: &[u8]) -> bool {
        self.zsh() && !name.is_empty() && name.iter().all(u8::is_ascii_digit)
    }

    /// Walks the whole program.
    pub fn run(&mut self) -> Result<(), GaveUp> {
        self.copies_zargs = self.zsh() && self.text_copies_zargs();
        if self.zsh() {
            // zsh's prompt parameters are one with their PROMPT names, its tied arrays with
            // their scalars.
            for (a, b) in [
                (&b"PS1"[..], &b"PROMPT"[..]),
                (b"PS2", b"PROMPT2"),
                (b"PS3", b"PROMPT3"),
                (b"PS4", b"PROMPT4"),
                // The arrays tied to colon-separated scalars.
                (b"path", b"PATH"),
                (b"cdpath", b"CDPATH"),
                (b"fpath", b"FPATH"),
                (b"fignore", b"FIGNORE"),
                (b"mailpath", b"MAILPATH"),
                (b"manpath", b"MANPATH"),
                (b"module_path", b"MODULE_PATH"),
                (b"psvar", b"PSVAR"),
                (b"watch", b"WATCH"),
                (b"zsh_eval_context", b"ZSH_EVAL_CONTEXT"),
            ] {
                let (x, y) = (self.var(a), self.var(b));
                self.facts.same.push((x, y));
            }
        }
        // The shell's own standard input: the environment's, or what an `exec` gives it.
        let shell_stdin = self.var(SHELL_STDIN);
        let ctx = Ctx {
            stdin: Expr(vec![Src::Val(Val::env()), Src::Var(shell_stdin)]),
            read_later: false,
            in_function: false,
            piped: false,
            captured: false,
            stderr_out: false,
            whole_lines: false,
            scope_end: None,
        };
        let root = &self.prog.root;
        self.walk(root, &ctx)?;
        self.walk_nested(&ctx)
    }

    /// The literal `eval` and `trap` texts, each walked as if it stood where the command
    /// that runs it stands (the walk is flow-insensitive: where does not matter), with
    /// that command's input; each is text read again when it runs.
    fn walk_nested(&mut self, ctx: &Ctx) -> Result<(), GaveUp> {
        for n in self.nested {
            let (unit, stdin) = self
                .runs_nested
                .get(&n.at)
                .cloned()
                .unwrap_or_else(|| (self.unit, ctx.stdin.clone()));
            self.facts.rereads.push((n.at, unit));
            let prog = super::program::build(&n.reading.events);
            let mut sub = Walk::new(
                self.d,
                &prog,
                &n.reading.heredocs,
                None,
                self.meter,
                &n.reading.nested,
            );
            sub.facts = std::mem::take(&mut self.facts);
            sub.unit = unit;
            sub.in_nested = true;
            sub.stderr_merged = self.stderr_merged;
            sub.trace_prompts = self.trace_prompts;
            sub.no_whole_lines = self.no_whole_lines;
            sub.verbose = self.verbose;
            sub.functions = Rc::clone(&self.functions);
            sub.zsh_options = self.zsh_options;
            sub.sources_files = self.sources_files;
            sub.unread_sources = self.unread_sources;
            sub.copying_source = self.copying_source;
            sub.holds_heredoc = self.holds_heredoc;
            sub.other_fd_text = self.other_fd_text;
            sub.copies_zargs = self.copies_zargs;
            let c = Ctx {
                stdin,
                read_later: true,
                in_function: ctx.in_function,
                piped: false,
                captured: true,
                stderr_out: ctx.stderr_out,
                whole_lines: false,
                scope_end: ctx.scope_end,
            };
            sub.facts.deferred += 1;
            let result = sub.walk(&prog.root, &c).and_then(|_| sub.walk_nested(&c));
            self.facts = std::mem::take(&mut sub.facts);
            self.facts.deferred = self.facts.deferred.saturating_sub(1);
            self.merge_found |= sub.merge_found;
            self.used_whole_lines |= sub.used_whole_lines;
            self.used_quiet_programs |= sub.used_quiet_programs;
            // (A source in such text, walked after the rest: anywhere.)
            self.sources_anywhere |= sub.sources_anywhere || sub.copying_source;
            result?;
        }
        Ok(())
    }

    /// Walks a list of commands; what they write, one after another.
    fn walk(&mut self, nodes: &[(Node<'_>, Feed)], ctx: &Ctx) -> Result<Expr, GaveUp> {
        let mut outs: Vec<Expr> = Vec::new();
        let mut last: Option<Expr> = None;
        for (k, (node, feed)) in nodes.iter().enumerate() {
            self.spend(1)?;
            if !matches!(node, Node::Unit) {
                self.facts.last_unit = self.facts.last_unit.max(self.unit);
            }
            let mut c = ctx.clone();
            c.piped = *feed != Feed::Own;
            // A pipeline's commands write into a pipe.
            c.captured |= c.piped || nodes.get(k + 1).is_some_and(|(_, f)| *f != Feed::Own);
            if c.piped {
                let mut stdin = last.take().unwrap_or_default();
                if *feed == Feed::PipeErr {
                    // What the command before wrote to standard error: run-time text (an
                    // error message that quotes its words, `set -v`'s lines).
                    stdin.join(Expr::unknown());
                }
                c.stdin = stdin;
            } else if let Some(o) = last.take() {
                outs.push(o);
            }
            if self.inert_so_far
                && self.facts.deferred == 0
                && (c.piped
                    || c.captured
                    || match node {
                        Node::Simple(_) | Node::Unit => false,
                        // (A function that may write heredoc text: the environment's file
                        // may call it, `hash` in a venv's `activate`, round 108.)
                        Node::Compound {
                            kind: Compound::Function(_),
                            children,
                            redirects,
                            ..
                        } => may_give_heredoc_text(children, redirects),
                        _ => true,
                    })
            {
                // (A pipeline, a substitution, a compound command, arithmetic, `[[ ]]`.)
                self.inert_so_far = false;
            }
            let out = match node {
                Node::Simple(cmd) => self.simple(cmd, &c)?,
                Node::Compound {
                    kind,
                    at,
                    children,
                    redirects,
                } => self.compound(kind, *at, children, redirects, &c)?,
                Node::Arith(t) => {
                    let a = word::arith(t, self.ends());
                    self.spend(t.len() / 16 + 1)?;
                    self.arith(&a, &c, None, false)?;
                    self.error_text(&c)
                }
                Node::Cond(words) => {
                    self.cond(words, &c)?;
                    self.error_text(&c)
                }
                Node::Words(words) => {
                    for w in *words {
                        let i = self.read(w)?;
                        self.expand(&i, &c)?;
                    }
                    self.error_text(&c)
                }
                Node::Unit => {
                    self.unit += 1;
                    continue;
                }
            };
            last = Some(out);
        }
        if let Some(o) = last {
            outs.push(o);
        }
        Ok(Expr::glue(outs))
    }

    /// Where the program's substitutions end. Text whose offsets are pinned to one place
    /// (`eval` text) has one key for all of them, which tells nothing of any one: the
    /// word reader finds each end itself there (a `$((` is then arithmetic).
    fn ends(&self) -> &dyn word::SubstEnds {
        if self.text.is_none() {
            &()
        } else {
            &self.prog.ends
        }
    }

    /// Reads a word of the program (quotes kept), charging its work.
    pub fn read(&self, w: &Word) -> Result<WordInfo, GaveUp> {
        let (mut info, work) = word::read_counted(&w.text, self.ends());
        self.spend(work + 1)?;
        if self.zsh() {
            // (EXTENDED_GLOB taken as possibly on: no spelling of its name is looked for,
            // round 102.)
            info.as_zsh_reads();
        }
        Ok(info)
    }

    /// Reads an assignment word (`name=value`, `name=(…)`), when it is one.
    pub fn assignment(&self, w: &Word) -> Result<Option<word::Assignment>, GaveUp> {
        self.spend(w.text.len() / 16 + 1)?;
        let mut a = word::assignment(&w.text, self.ends());
        if self.zsh()
            && let Some(a) = a.as_mut()
            && is_compound(w)
        {
            // (A list's elements are globbed: `x=(^zzz)` under EXTENDED_GLOB, round 102.)
            a.value.as_zsh_reads();
        }
        Ok(a)
    }

    /// A substitution's program, run with `ctx`: its output is recorded.
    fn subst(&mut self, at: u32, ctx: &Ctx) -> Result<(), GaveUp> {
        self.facts.rereads.push((at, self.unit));
        self.facts.function_rereads |= ctx.in_function;
        let prog = self.prog;
        let Some(nodes) = prog.substs.get(&at) else {
            self.facts
                .substs
                .entry(at)
                .or_default()
                .join(Expr::unknown());
            return Ok(());
        };
        if self.in_substs.contains(&at) {
            return Ok(());
        }
        let mut c = ctx.clone();
        c.read_later = true;
        c.piped = false;
        c.captured = true;
        if self.text.and_then(|t| t.get(at as usize)) == Some(&b'>') {
            // `>(…)` reads what is written into it (a command's output or its errors).
            c.stdin = Expr::unknown();
        }
        c.stderr_out = false;
        // A subshell's changes die with it (bash 5.3's `${ …; }` runs in the shell itself).
        let t = self.text.unwrap_or_default();
        let subshell = match t.get(at as usize) {
            Some(b'`') => true,
            Some(b'$' | b'<' | b'>') => t.get(at as usize + 1) == Some(&b'('),
            _ => false,
        };
        if subshell && let Some(end) = self.prog.ends.end_of(at) {
            c.scope_end = Some(end);
        }
        self.in_substs.push(at);
        let out = self.walk(nodes, &c);
        self.in_substs.pop();
        let out = out?;
        self.facts.substs.entry(at).or_default().join(out);
        Ok(())
    }

    /// Everything a word does when it is expanded: its substitutions run, its assignments
    /// (`${x:=…}`, `$((x=…))`) assign, and its evaluators see their values.
    pub fn expand(&mut self, w: &WordInfo, ctx: &Ctx) -> Result<(), GaveUp> {
        for s in w.substs() {
            self.subst(s, ctx)?;
        }
        if self.zsh() && w.split {
            self.zsh_globs(w);
        }
        self.pieces_sites(&w.pieces, ctx, None, None)
    }

    /// What zsh's globbing may evaluate in an unquoted word `w`: its expansions under
    /// GLOB_SUBST, the whole word where a pattern is glued from pieces, and the qualifiers
    /// of a `${x:-word}` word ([`Walk::zsh_word_qualifiers`]).
    fn zsh_globs(&mut self, w: &WordInfo) {
        // zsh with GLOB_SUBST makes an unquoted expansion a glob pattern (a
        // substitution's output too).
        let subst = self.may_set_glob_subst();
        for p in &w.pieces {
            let (at, v) = match p {
                Piece::Param(p) => (p.at, self.param_expr(p)),
                Piece::Subst(at) if subst => (*at, Expr(vec![Src::Subst(*at)])),
                Piece::Subst(_) | Piece::Lit(_) | Piece::Arith(_) => continue,
            };
            self.site_needing(
                at,
                Evaluator::ZshGlob,
                "an unquoted expansion under zsh's GLOB_SUBST",
                v,
                Needs::GlobSubst,
            );
        }
        // The pattern is the whole word, its pieces glued (`${~v}${~x}`: a qualifier
        // one opens, text the other gives; `${w:-/(}[x]${w:-)}`: a qualifier written
        // across the words of `${…}`, which keep their `(` and `)`).
        let pattern = w
            .pieces
            .iter()
            .any(|p| matches!(p, Piece::Param(p) if p.zsh_glob));
        let words = w.pieces.iter().any(glob_paren)
            && w.pieces
                .iter()
                .any(|p| matches!(p, Piece::Param(p) if p.arg.is_some()));
        if w.pieces.len() > 1 && (pattern || words || subst) {
            let glued = self.word_expr(w);
            let raw = self
                .text
                .filter(|_| !self.in_nested)
                .and_then(|t| t.get(w.start as usize..w.end as usize));
            if words && !raw.is_some_and(parens_all_quoted) {
                self.site(
                    w.start,
                    Evaluator::ZshGlob,
                    "a glob qualifier in the word of zsh's ${x:-word}",
                    glued.clone(),
                    None,
                );
            }
            if pattern {
                self.site(
                    w.start,
                    Evaluator::ZshGlob,
                    "zsh ${~name}",
                    glued.clone(),
                    None,
                );
            }
            if subst {
                self.site_needing(
                    w.start,
                    Evaluator::ZshGlob,
                    "an unquoted expansion under zsh's GLOB_SUBST",
                    glued,
                    Needs::GlobSubst,
                );
            }
        }
        self.zsh_word_qualifiers(&w.pieces);
    }

    /// zsh globs the word of an unquoted `${x:-word}` (`-` or `+`, with or without the
    /// colon; not `=`'s) as a pattern written in the command, qualifiers included:
    /// `(e:…:)` and `(+f)` run code, `([beg,end])` evaluates a subscript (`${w:-/([x])}`,
    /// `ls -d ${d:-*(om[1,n])}`; round 88). Where a `(` may be in the word (written, in a
    /// `${…}` word inside it, from a pattern `${~v}` gives), its literal text, or its whole
    /// value where anything but text is in it, is judged as a qualifier the command writes.
    fn zsh_word_qualifiers(&mut self, pieces: &[Piece]) {
        for p in pieces {
            let Piece::Param(p) = p else { continue };
            let Some(arg) = &p.arg else { continue };
            // (A nested expansion's inner one, or a default's own default.)
            self.zsh_word_qualifiers(&arg.pieces);
            if !matches!(p.op, ParamOp::Default | ParamOp::Alternate) {
                continue;
            }
            // A `(` written in the word, in a default word inside it (`${:-(}`), or a
            // pattern `${~v}` gives it: the word may hold a qualifier.
            let Some(open) = arg.pieces.iter().position(glob_paren) else {
                continue;
            };
            // (A `(` the command quotes is text, no qualifier: `${x:-"/(a|b)/"}`. Where
            // the word's text is not the command's own, counted.)
            let raw = self
                .text
                .filter(|_| !self.in_nested)
                .and_then(|t| t.get(arg.start as usize..arg.end as usize));
            if matches!(arg.pieces.get(open), Some(Piece::Lit(_)))
                && arg.pieces.iter().filter(|q| glob_paren(q)).count() == 1
                && raw.is_some_and(parens_all_quoted)
            {
                continue;
            }
            // Its literal text, or, where anything but text is in it, its whole value
            // (a value glued into a qualifier is part of it).
            let value = if arg.pieces.iter().all(|q| matches!(q, Piece::Lit(_))) {
                Expr::lit(&arg.written_text())
            } else {
                self.word_expr(arg)
            };
            self.site(
                p.at,
                Evaluator::ZshGlob,
                "a glob qualifier in the word of zsh's ${x:-word}",
                value,
                None,
            );
        }
    }

    /// The evaluators in expansion pieces (a word's, or an unquoted body's). In a compound
    /// array assignment, `array` is the array and its `[k]=` keys are subscripts.
    fn pieces_sites(
        &mut self,
        pieces: &[Piece],
        ctx: &Ctx,
        body: Option<usize>,
        array: Option<Var>,
    ) -> Result<(), GaveUp> {
        for p in pieces {
            match p {
                Piece::Param(p) => self.param_sites(p, ctx, body)?,
                Piece::Arith(a) => match array {
                    Some(v) => self.arith_in(a, ctx, body, true, Some(v))?,
                    None => self.arith(a, ctx, body, false)?,
                },
                Piece::Subst(_) | Piece::Lit(_) => {}
            }
        }
        if self.zsh() {
            self.zsh_unbraced_subscripts(pieces, ctx, body, None)?;
        }
        Ok(())
    }

    /// zsh (without KSH_ARRAYS) subscripts an expansion followed by `[…]`: what the
    /// brackets hold is evaluated (arithmetic, for an array or a string), and the
    /// expansions in them first. Two places:
    ///
    /// - an expansion written without braces (`$y[x]`, and `$@[x]`, `$#[x]`, `$$[x]`, …,
    ///   a bracket after a quote `"$y["x"]"`: the reader gives a plain `$name[…]` its own);
    ///   after braces (`"${y}[x]"` in a word, a body, an assignment) zsh 5.9 leaves `[x]`
    ///   as text after the value;
    /// - inside a nested expansion (`nested`: `${${y}[x]}`, `${(e)$(cmd)[x]}`), after any
    ///   inner expansion, where quotes and backslashes before the bracket are removed
    ///   first (`${${y}''[x]}`, `${${y}\[x]}`, `${"${y}"\[x]}`: the inner word is read as
    ///   in double quotes, where they stay in its text), and quotes inside it too.
    fn zsh_unbraced_subscripts(
        &mut self,
        pieces: &[Piece],
        ctx: &Ctx,
        body: Option<usize>,
        nested: Option<u32>,
    ) -> Result<(), GaveUp> {
        let quote = |c: &u8| matches!(c, b'\'' | b'"' | b'\\');
        for (k, p) in pieces.iter().enumerate() {
            let at = match (p, nested) {
                (Piece::Lit(_), _) => continue,
                (_, Some(at)) => at,
                (Piece::Param(p), None) => {
                    if p.braced
                        || p.subscript.is_some()
                        || p.zsh_subscript.is_some()
                        || p.name.is_empty()
                    {
                        continue;
                    }
                    p.at
                }
                (_, None) => continue,
            };
            let Some(Piece::Lit(l)) = pieces.get(k + 1) else {
                continue;
            };
            let open = if nested.is_some() {
                l.iter().position(|c| !quote(c)).unwrap_or(l.len())
            } else if matches!(p, Piece::Param(p) if p.name == b"#") {
                // `$#name[…]` where the reader stopped at a quote (`"$#y["x"]"`): the
                // length of `name`, subscripted.
                l.iter()
                    .position(|&c| !crate::shell::syntax::legal_variable_char(c))
                    .unwrap_or(l.len())
            } else {
                0
            };
            if l.get(open) != Some(&b'[') {
                continue;
            }
            // Each subscript in turn (`[1][x]`): the brackets' text, through the pieces
            // that follow when it holds expansions, up to the first `]`.
            let mut rest = &l[open + 1..];
            let mut next = k + 2;
            loop {
                let mut text: Vec<u8> = Vec::new();
                let mut closed = false;
                loop {
                    match rest.iter().position(|&c| c == b']') {
                        Some(end) => {
                            text.extend_from_slice(&rest[..end]);
                            rest = &rest[end + 1..];
                            closed = true;
                        }
                        None => text.extend_from_slice(rest),
                    }
                    if closed {
                        break;
                    }
                    match pieces.get(next) {
                        Some(Piece::Lit(l)) => rest = l,
                        Some(Piece::Param(q)) => {
                            let v = self.param_expr(q);
                            self.site(q.at, Evaluator::Subscript, "a zsh subscript", v, body);
                            rest = &[];
                        }
                        Some(Piece::Arith(_) | Piece::Subst(_)) => rest = &[],
                        None => break,
                    }
                    next += 1;
                }
                if nested.is_some() {
                    text.retain(|c| !quote(c));
                }
                self.spend(text.len() / 16 + 1)?;
                let mut a = word::arith(&crate::shell::Text::command(&text), &());
                a.at = at;
                // (Its offsets are the text's, not the command's: a substitution spelled
                // in the literal text is the author's, and is not looked up by offset.)
                a.substs.clear();
                self.arith_in(&a, ctx, body, true, None)?;
                let skip = if nested.is_some() {
                    rest.iter().position(|c| !quote(c)).unwrap_or(rest.len())
                } else {
                    0
                };
                match rest.get(skip) {
                    Some(b'[') if closed => rest = &rest[skip + 1..],
                    _ => break,
                }
            }
        }
        Ok(())
    }

    fn param_sites(&mut self, p: &Param, ctx: &Ctx, body: Option<usize>) -> Result<(), GaveUp> {
        self.spend(1)?;
        let base = self.param_var(&p.name);
        if let Some(a) = &p.subscript {
            let array = (!p.name.is_empty()).then(|| self.var(&p.name));
            self.arith_in(a, ctx, body, false, array)?;
        }
        if let Some(a) = p.zsh_subscript.as_ref().filter(|_| self.zsh()) {
            let array = (!p.name.is_empty()).then(|| self.var(&p.name));
            self.arith_in(a, ctx, body, false, array)?;
        }
        for s in &p.slice {
            self.arith(s, ctx, body, false)?;
        }
        if let Some(arg) = &p.arg {
            self.pieces_sites(&arg.pieces, ctx, body, None)?;
            if self.zsh() && p.nested {
                self.zsh_unbraced_subscripts(&arg.pieces, ctx, body, Some(p.at))?;
            }
            // The word assigned: in an unquoted body, its text is the body's, heredoc
            // text (`${x:=\$(cmd)}` gives `x` the text `$(cmd)`).
            let value = |w: &mut Self| {
                if body.is_some() {
                    w.body_word_expr(arg)
                } else {
                    w.word_expr(arg)
                }
            };
            if p.op == ParamOp::Assign && !p.indirect && !p.name.is_empty() {
                let v = self.var(&p.name);
                if let Some(sub) = &p.subscript {
                    self.key(v, sub);
                }
                let value = value(self);
                self.assign(Target::Var(v), value, p.at, ctx);
            } else if p.op == ParamOp::Assign && p.indirect {
                // `${!n:=v}`, zsh `${(P)n=v}`: the variable the value of `n` names, which
                // may be one whose change the reader does not follow (`galiases[X]`).
                let value = value(self);
                self.facts.assign(Target::Any, value.clone(), p.at);
                self.change(
                    p.at,
                    "a variable named at run time, which may be an alias table's entry (BASH_ALIASES, zsh's aliases)",
                    When::AliasEntry {
                        name: base.clone(),
                        value,
                    },
                    ctx,
                );
            }
        }
        // (zsh reads `${!name}` as a bad substitution: only its `(P)` flag is indirect.)
        if p.indirect && p.op != ParamOp::Names && (!self.zsh() || p.flags) {
            // (zsh's nested `${(P)${x}}`: the inner expansion's value names the variable.)
            let mut named = base.clone();
            if p.name.is_empty()
                && let Some(arg) = &p.arg
            {
                named.join(self.word_expr(arg));
            }
            self.site(p.at, Evaluator::Name, "${!name}", named, body);
        }
        // What the operators below evaluate: with `${!n@P}`, zsh `${(Pe)n}`, the value of
        // the variable `n` names (and, read both ways, `n`'s own).
        let base = if p.indirect && p.op != ParamOp::Names {
            let mut v = base.clone();
            v.join(Expr(vec![Src::Named(std::rc::Rc::new(base))]));
            v
        } else {
            base
        };
        if p.op == ParamOp::Prompt {
            self.site(p.at, Evaluator::Prompt, "${name@P}", base.clone(), body);
        }
        // zsh's flags and `~` act on the value the operators made (a replacement, a
        // default, a join with the `p` flag's words), and on the parameter's own.
        let shaped = if self.zsh() && (p.zsh_eval || p.zsh_char || p.zsh_glob) {
            let mut v = base.clone();
            v.join(self.param_expr(p));
            if let Some(arg) = &p.arg {
                v.join(self.word_expr(arg));
            }
            v
        } else {
            base.clone()
        };
        if p.zsh_eval && self.zsh() {
            self.site(
                p.at,
                Evaluator::ZshExpansion,
                "zsh ${(e)name}",
                shaped.clone(),
                body,
            );
        }
        if p.zsh_char && self.zsh() {
            self.site(
                p.at,
                Evaluator::Arithmetic,
                "zsh ${(#)name}",
                shaped.clone(),
                body,
            );
        }
        if p.zsh_glob && self.zsh() {
            self.site(p.at, Evaluator::ZshGlob, "zsh ${~name}", shaped, body);
        }
        // zsh's `(#m)` and `(#b)` in a pattern (`${z/(#m)*/}`, or in a pattern a
        // parameter gives, `${z/$~p/}`) set `MATCH` and `match` to what matched: a part of
        // the value. Any pattern operator may.
        if self.zsh() && p.op == ParamOp::Part && p.arg.is_some() {
            let part = base.substring();
            for n in [&b"MATCH"[..], b"match"] {
                let v = self.var(n);
                self.assign(Target::Var(v), part.clone(), p.at, ctx);
            }
        }
        Ok(())
    }

    /// A site, recorded.
    pub fn site(
        &mut self,
        at: u32,
        e: Evaluator,
        what: &'static str,
        value: Expr,
        body: Option<usize>,
    ) {
        // (Text expanded again may assign an alias table, `${BASH_ALIASES[y]=…}`: the
        // solver's `judge_evaluator_assignments`, on every site.)
        self.facts.sites.push(Site {
            at,
            evaluator: e,
            what,
            value,
            in_body: body,
            array: None,
            needs: None,
            later: self.facts.deferred > 0,
        });
    }

    pub fn site_needing(
        &mut self,
        at: u32,
        e: Evaluator,
        what: &'static str,
        value: Expr,
        needs: Needs,
    ) {
        self.facts.sites.push(Site {
            at,
            evaluator: e,
            what,
            value,
            in_body: None,
            array: None,
            needs: Some(needs),
            later: self.facts.deferred > 0,
        });
    }

    /// Arithmetic text: its names are evaluated, its parameters' values pasted in and
    /// evaluated, its substitutions run and their output evaluated; in a subscript a
    /// parameter's value is expanded a second time (bash before 5.2, zsh).
    pub fn arith(
        &mut self,
        a: &Arith,
        ctx: &Ctx,
        body: Option<usize>,
        in_sub: bool,
    ) -> Result<(), GaveUp> {
        self.arith_in(a, ctx, body, in_sub, None)
    }

    fn arith_in(
        &mut self,
        a: &Arith,
        ctx: &Ctx,
        body: Option<usize>,
        in_sub: bool,
        array: Option<Var>,
    ) -> Result<(), GaveUp> {
        self.spend(1 + a.names.len() + a.params.len())?;
        let first = self.facts.sites.len();
        let e = if in_sub {
            Evaluator::Subscript
        } else {
            Evaluator::Arithmetic
        };
        for n in &a.names {
            let v = self.var(n);
            self.site(
                a.at,
                Evaluator::Arithmetic,
                "arithmetic",
                Expr::var(v),
                body,
            );
        }
        if a.wide && self.zsh() {
            // zsh takes letters past ASCII in names (a UTF-8 locale): `(( é ))` reads a
            // variable the reader does not name, any one.
            self.site(
                a.at,
                Evaluator::Arithmetic,
                "arithmetic",
                Expr(vec![Src::AnyVar]),
                body,
            );
        }
        for p in &a.params {
            self.param_sites(p, ctx, body)?;
            let v = self.param_expr(p);
            self.site(p.at, e, "arithmetic", v, body);
        }
        for &s in &a.substs {
            self.subst(s, ctx)?;
            self.site(a.at, e, "arithmetic", Expr(vec![Src::Subst(s)]), body);
        }
        // Expansions pasted side by side are one text where it is evaluated (`$(( $a$b ))`
        // of `a[` and `$(…)]`, read from two heredoc lines): judged whole too (round 82).
        if a.params.len() + a.substs.len() > 1 {
            let mut parts: Vec<Expr> = a.params.iter().map(|p| self.param_expr(p)).collect();
            parts.extend(a.substs.iter().map(|&s| Expr(vec![Src::Subst(s)])));
            self.site(a.at, e, "arithmetic", Expr::glue(parts), body);
        }
        for s in &a.subscripts {
            self.arith(s, ctx, body, true)?;
        }
        let result = self.arith_result(a);
        for n in &a.assigned {
            let v = self.var(n);
            self.assign(Target::Var(v), result.clone(), a.at, ctx);
        }
        if let Some(array) = array {
            for s in &mut self.facts.sites[first..] {
                s.array = Some(array);
            }
        }
        Ok(())
    }

    /// The variable a parameter reads (positional parameters are one, `$0` is also
    /// `BASH_ARGV0`'s).
    fn param_var(&mut self, name: &[u8]) -> Expr {
        match name {
            b"" => Expr::unknown(),
            b"#" | b"?" | b"$" | b"!" => Expr::val(Val::number()),
            b"-" => Expr::val(Val::fixed(ByteSet::of(b"abcdefhikmnprstuvxBCEHPT"))),
            b"@" | b"*" => Expr::var(self.var(b"@")),
            b"0" => {
                let mut e = Expr::var(self.var(b"0"));
                e.join(Expr::var(self.var(b"BASH_ARGV0")));
                if self.zsh() {
                    // zsh's `$0` in a function is its name.
                    e.join(self.function_names_value());
                }
                e
            }
            // The names of the functions running (and `main`, `source`): bash's
            // `FUNCNAME`, zsh's `funcstack` (in zsh, `FUNCNAME` is a name like any other, and
            // in bash `funcstack`).
            b"FUNCNAME" | b"funcstack" if (name == b"funcstack") == self.zsh() => {
                let mut e = Expr::var(self.var(name));
                e.join(self.function_names_value());
                e
            }
            // zsh's traces: a function's or a file's name, a `:` and a line number (a
            // file's name is any text: one the command sources, or zsh's own).
            b"functrace" | b"funcfiletrace" | b"funcsourcetrace" if self.zsh() => {
                let mut e = Expr::var(self.var(name));
                e.join(Expr::glue(vec![
                    self.function_names_value(),
                    Expr::val(Val::fixed(ByteSet::of(b":0123456789"))),
                ]));
                e.join(Expr::val(Self::any_name()));
                e
            }
            n if n.iter().all(u8::is_ascii_digit) => Expr::var(self.var(b"@")),
            b"argv" if self.d.is_zsh() => Expr::var(self.var(b"@")),
            b"BASH_ARGV" if !self.d.is_zsh() => Expr::var(self.var(b"@")),
            n => Expr::var(self.var(n)),
        }
    }

    /// The names of the functions the command defines, as text it fixes (any text where
    /// one is named otherwise than plainly).
    fn function_names_value(&self) -> Expr {
        let (names, odd) = &*self.functions;
        if *odd {
            // (In bash a name holds a `$` only inside backquotes, "not a valid identifier"
            // elsewhere, and what runs there runs in a subshell: any bytes. A zsh function
            // the command's own text names otherwise than plainly may be named anything, an
            // alias assignment too: round 99. Names only `eval` of computed text may give
            // are any bytes, as run-time text is: round 48's limit.)
            return Expr::val(if self.zsh() && self.own_functions.1 {
                Self::any_name()
            } else {
                Val::fixed(ByteSet::ALL)
            });
        }
        let mut v = Val::lit(b"main");
        v.join(&Val::lit(b"source"));
        for n in names {
            v.join(&Val::lit(n));
        }
        Expr::val(v)
    }

    /// A name zsh takes whatever it holds (a function's, a file's): any text the command
    /// may fix, known to hold an assignment expansion, a substitution and an open `${`.
    fn any_name() -> Val {
        let mut v = Val::fixed(ByteSet::ALL);
        v.fixed_assigns = true;
        v.fixed_substs = true;
        v.open_end = true;
        v
    }

    /// What a parameter expansion gives.
    pub fn param_expr(&mut self, p: &Param) -> Expr {
        // zsh's `${+name}`, `$+name`, with nothing after the name but a subscript: `0` or
        // `1` (a flag, `${(l:3::$:)+x}`, or a modifier, `$+x:s/1/…/`, makes other text of
        // it; `${+x:-w}` is `x`'s value). bash ends at `${+…}`, a bad substitution: its
        // value is never used. (bash's `$+name` is text, read as the value.)
        if p.zsh_set
            && p.op == ParamOp::Plain
            && !p.nested
            && !p.flags
            && !p.zsh_eval
            && !p.zsh_char
            && !p.indirect
            && (self.zsh() || p.braced)
        {
            let mut v = Val::lit(b"0");
            v.join(&Val::lit(b"1"));
            return Expr::val(v);
        }
        let mut base = self.param_var(&p.name);
        if p.joined {
            // Elements joined with IFS's first character (which may be none: `IFS=`, the
            // elements glued), as many as there are.
            let ifs = self.var(b"IFS");
            base = Expr::glue(vec![base, Expr::var(ifs)])
                .repeated()
                .part(ByteSet::EMPTY);
        }
        let base = if p.indirect && p.op != ParamOp::Names {
            Expr(vec![Src::Named(std::rc::Rc::new(base))])
        } else {
            base
        };
        // zsh's subscript on a scalar is a part of it (`${c[1,3]}`).
        let base = if self.zsh() && (p.subscript.is_some() || p.zsh_subscript.is_some()) {
            base.substring()
        } else {
            base
        };
        // A pattern inside `${…}` (`${x#p}`, `${x/p/r}`) is no file-name glob.
        let arg = p
            .arg
            .as_ref()
            .map(|a| self.word_expr_as(a, p.op != ParamOp::Part));
        let v = match p.op {
            ParamOp::Plain | ParamOp::Error => base,
            ParamOp::Length => Expr::val(Val::number()),
            ParamOp::Default | ParamOp::Assign => {
                let mut v = base;
                if let Some(a) = arg {
                    v.join(a);
                }
                v
            }
            ParamOp::Alternate => {
                let mut v = Expr::lit(b"");
                if let Some(a) = arg {
                    v.join(a);
                }
                v
            }
            ParamOp::Part => {
                let text = p.arg.as_ref().and_then(|a| match a.pieces.first() {
                    Some(Piece::Lit(l)) => Some(l.clone()),
                    _ => None,
                });
                match text.as_deref() {
                    // zsh's `${x:#pattern}`: the elements that match, or none.
                    Some(t) if t.starts_with(b":#") => base.substring(),
                    // An offset and a length (`${x:1:2}`, `${x: -1}`): a contiguous part.
                    Some(t)
                        if t.starts_with(b":")
                            && t.get(1).is_some_and(|c| {
                                c.is_ascii_digit() || matches!(c, b' ' | b'$' | b'(')
                            }) =>
                    {
                        base.substring()
                    }
                    // zsh's modifiers (`${x:s/l/r/}`, `${x:u}`): a replacement's bytes may
                    // be added, letters' case changed.
                    Some(t) if t.starts_with(b":") => {
                        let a = arg.unwrap_or_default();
                        let v = Expr::glue(vec![base.part(ByteSet::EMPTY), a]).part(ByteSet::EMPTY);
                        let mut v = Expr(vec![Src::Cased(std::rc::Rc::new(v))]);
                        // zsh's `:a`, `:A`, `:P` resolve the path (a link the command made
                        // may lead to a directory named by heredoc text) and `:c` searches
                        // PATH: run-time text.
                        // `:&` repeats the last substitution, made by another word.
                        if self.zsh()
                            && (t.contains(&b'&')
                                || t.windows(2).any(|m| {
                                    m[0] == b':' && matches!(m[1], b'a' | b'A' | b'P' | b'c')
                                }))
                        {
                            v.join(Expr::unknown());
                        }
                        v
                    }
                    // `${x@E}` expands backslash escapes: any byte, from text that holds a
                    // `\`.
                    Some(t) if t.starts_with(b"@E") => base.escaped(),
                    // Other transforms quote: quotes, `$`, backslashes, `=`, brackets.
                    // (`@L`, `@U`, `@u` change letters' case.)
                    Some(t) if t.starts_with(b"@") => Expr(vec![Src::Cased(std::rc::Rc::new(
                        base.part(ByteSet::of(b"'\"$\\=[]() -")),
                    ))]),
                    Some(t)
                        if t.starts_with(b"^") || t.starts_with(b",") || t.starts_with(b"~") =>
                    {
                        Expr(vec![Src::Cased(std::rc::Rc::new(base))])
                    }
                    // `${x#p}`, `${x%%p}`: a pattern removed, a part of the value left.
                    Some(t) if t.starts_with(b"#") || t.starts_with(b"%") => base.substring(),
                    _ => match arg {
                        // A replacement's bytes may be added.
                        Some(a) => {
                            Expr::glue(vec![base.part(ByteSet::EMPTY), a]).part(ByteSet::EMPTY)
                        }
                        None => base.part(ByteSet::EMPTY),
                    },
                }
            }
            ParamOp::Prompt => base.wild(),
            ParamOp::Names => {
                if p.indirect {
                    // `${!a[@]}`: an associative array's keys are text, an indexed
                    // array's numbers.
                    let v = self.var(&p.name);
                    let keys = self.keys_var(v);
                    Expr(vec![Src::Keys(v), Src::Var(keys)])
                } else {
                    // `${!prefix*}`: names of variables.
                    Expr::val(Val::fixed(ByteSet::of(
                        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
                    )))
                }
            }
        };
        let mut v = v;
        if p.zsh_keys {
            // zsh `${(k)a}`, `${a[(i)…]}`: its keys too.
            let a = self.var(&p.name);
            let keys = self.keys_var(a);
            v.join(Expr(vec![Src::Keys(a), Src::Var(keys)]));
        }
        if let Some(fw) = &p.flag_words {
            // zsh `${(pj:$sep:)a}`: the flags' words' values are in it.
            let f = self.word_expr(fw);
            v = Expr::glue(vec![v, f]);
        }
        if p.zsh_eval || p.flags { v.wild() } else { v }
    }

    /// What a word in an unquoted heredoc body expands to: its literal text is heredoc
    /// text.
    fn body_word_expr(&mut self, w: &WordInfo) -> Expr {
        if w.unread {
            return Expr::unknown();
        }
        let mut parts: Vec<Expr> = Vec::with_capacity(w.pieces.len());
        for p in &w.pieces {
            parts.push(match p {
                Piece::Lit(l) => Expr::val(Val::heredoc_text(l)),
                Piece::Param(p) => self.param_expr(p),
                Piece::Subst(at) => Expr(vec![Src::Subst(*at)]),
                Piece::Arith(a) => self.arith_result(a),
            });
        }
        Expr::glue(parts)
    }

    /// A word's text as the command writes it (`None`: not at hand).
    pub fn text_of(&self, w: &WordInfo) -> Option<&'a [u8]> {
        self.text
            .and_then(|t| t.get(w.start as usize..w.end as usize))
    }

    /// What arithmetic `a` prints: a decimal number; in zsh one whose letters count once
    /// it is cut ([`Val::zsh_number`]: a float, a base's `16#FF`), and letters whole where
    /// its text sets an output base (`[##16]` prints `FF`). (A value that may set one is
    /// denied where arithmetic evaluates it: `evaluators::zsh_output_base`.)
    pub fn arith_result(&mut self, a: &crate::shell::word::Arith) -> Expr {
        if self.zsh() && !a.key && !a.hash && (!a.params.is_empty() || !a.substs.is_empty()) {
            // Text its expansions paste in may set the output base: a `[` pasted in
            // (`$(( $p$q ))`, `p='['`), or a `#` pasted right after a `[` that starts no
            // subscript (`$(( [${h}${h}16] 255 ))`, `h='#'`). (A number pasted in holds
            // neither: `16#FF` makes no `[#`.)
            let mut pasted = Expr::default();
            let mut opens = Expr::default();
            // (What follows an open `[` may start with a `#`: every expansion's, as one
            // that pastes nothing may stand between, `[${e}${h}16]`.)
            for p in &a.params {
                let v = self.param_expr(p);
                if a.open_bracket {
                    opens.join(v.clone());
                }
                pasted.join(v);
            }
            for &s in &a.substs {
                let v = Expr(vec![Src::Subst(s)]);
                if a.open_bracket {
                    opens.join(v.clone());
                }
                pasted.join(v);
            }
            return Expr(vec![Src::ZshArith(
                std::rc::Rc::new(pasted),
                std::rc::Rc::new(opens),
            )]);
        }
        Expr::val(if !self.zsh() || a.key {
            Val::number()
        } else if a.hash {
            Val::fixed(super::value::ZSH_BASED_OUTPUT)
        } else {
            Val::zsh_number()
        })
    }

    /// What a word expands to: its pieces glued; a glob can make other words (file names
    /// are run-time text).
    pub fn word_expr(&mut self, w: &WordInfo) -> Expr {
        self.word_expr_as(w, true)
    }

    /// [`Walk::word_expr`], with its glob expanded to file names or not (`glob`).
    fn word_expr_as(&mut self, w: &WordInfo, glob: bool) -> Expr {
        if w.unread {
            return Expr::unknown();
        }
        let mut parts: Vec<Expr> = Vec::with_capacity(w.pieces.len() + 1);
        if w.tilde {
            let mut t = Expr::var(self.var(b"HOME"));
            t.join(Expr::var(self.var(b"PWD")));
            t.join(Expr::var(self.var(b"OLDPWD")));
            t.join(Expr::val(Val::env()));
            if self.zsh() {
                // `~name` is a named directory: any parameter holding a path.
                t.join(Expr(vec![Src::AnyVar]));
            }
            parts.push(t);
        }
        for p in &w.pieces {
            parts.push(match p {
                Piece::Lit(l) => Expr::lit(l),
                Piece::Param(p) => self.param_expr(p),
                Piece::Subst(at) => Expr(vec![Src::Subst(*at)]),
                Piece::Arith(a) => self.arith_result(a),
            });
        }
        let mut e = Expr::glue(parts);
        // (A number alone is one field: zsh's, `16#FF`, is not cut by splitting.)
        let one_number = matches!(w.pieces.as_slice(), [Piece::Arith(_)]) && !w.brace;
        // (zsh expands braces after parameters and quote removal, and `BRACE_CCL` makes
        // `{a-c}` a range: any unquoted `{…}` may be a sequence.)
        let brace = w.brace || (self.zsh() && w.braced);
        if (brace || !w.breaks.is_empty()) && !one_number {
            let made = if brace {
                brace_sequence_bytes(w, self.zsh())
            } else {
                ByteSet::EMPTY
            };
            e = e.part(made);
        }
        if glob && w.many && !w.brace {
            // File names a glob may list: text the command may have made.
            e.join(Expr::unknown());
        }
        let expands = || {
            w.pieces
                .iter()
                .any(|p| matches!(p, Piece::Param(_) | Piece::Subst(_)))
        };
        if glob && !self.zsh() && (w.split || (!w.breaks.is_empty() && expands())) {
            // bash globs an unquoted expansion's value (`o='a*'; for x in $o`): the file
            // names it may list, where the value may be a pattern. (zsh only with
            // GLOB_SUBST, judged as such.)
            let inner = Rc::new(e.clone());
            e.join(Expr(vec![Src::Files {
                inner,
                option: false,
            }]));
        }
        e
    }

    /// An assignment: the value joins the variable's; a special variable's rule applies.
    pub fn assign(&mut self, target: Target, value: Expr, at: u32, ctx: &Ctx) {
        if let Target::Var(v) = target {
            let name: Rc<[u8]> = Rc::clone(&self.facts.names.names[v as usize]);
            if &*name == b"BASH_XTRACEFD" && !self.zsh() {
                // `set -x`'s trace (expanded words) may go to any descriptor: a capture.
                self.merge_found = true;
            }
            self.special_assignment(&name, &value, at, ctx);
        }
        self.facts.assign(target, value, at);
    }

    /// What assigning a special variable does beyond holding the value (the solver does
    /// the same for one reached through a nameref).
    fn special_assignment(&mut self, name: &[u8], value: &Expr, at: u32, ctx: &Ctx) {
        let zsh = self.zsh();
        if builtins::integer_special(name, zsh) {
            self.site(
                at,
                Evaluator::Arithmetic,
                "an integer variable of the shell",
                value.clone(),
                None,
            );
        }
        if let Some((what, reshapes)) = special_change(name, zsh) {
            let when = if reshapes {
                When::Reshapes(value.clone())
            } else {
                When::AnyValue(value.clone())
            };
            self.change(at, what, when, ctx);
        }
        // bash reads the lines after a locale's change in that locale: in one whose
        // characters take a byte past ASCII and a `\\` or quote after it as one (GBK, Big5,
        // GB18030, Shift_JIS), `中\\'` holds no escape, and a quoted heredoc's delimiter may
        // be unquoted. Only where the text holds such a byte, and the value may name such a
        // locale (not `C`, `POSIX` or a UTF-8 one).
        // (`eval` and `trap` text is walked without the command's text: counted.)
        if !zsh
            && !self.for_a_program
            && locale_name(name)
            && self.text.is_none_or(|t| !t.is_ascii())
            && !plain_locale(value)
        {
            self.change(at, LOCALE_CHANGE, When::Locale(value.clone()), ctx);
        }
    }

    /// A change to how later text is read.
    pub fn change(&mut self, at: u32, what: &'static str, when: When, ctx: &Ctx) {
        self.facts.changes.push(Change {
            at,
            what,
            unit: self.unit,
            when,
            later_units: true,
            scope_end: ctx.scope_end,
        });
    }

    /// A change the reader follows in later units (a literal alias at the top level): only
    /// text read again in its own unit is read otherwise.
    pub fn change_in_unit(&mut self, at: u32, what: &'static str, when: When) {
        self.facts.changes.push(Change {
            at,
            what,
            unit: self.unit,
            when,
            later_units: false,
            scope_end: None,
        });
    }

    /// The standard input a command runs with: its context's, and its input redirections
    /// (bash reads the last; zsh all of them, one after another, after a pipe).
    fn input(&mut self, redirects: &[&Redirect], ctx: &Ctx) -> Result<Expr, GaveUp> {
        let mut inputs: Vec<Expr> = Vec::new();
        for r in redirects {
            if !self.on_stdin(r) {
                // Another descriptor: read by `read -u`, `<&n` (run-time text).
                continue;
            }
            let e = match r.op {
                RedirOp::Heredoc => match self.by_op.get(&r.at) {
                    Some(&i) => self.body_expr(i, false),
                    None => Expr::unknown(),
                },
                RedirOp::HereString => match &r.target {
                    Some(t) => {
                        let i = self.read(t)?;
                        Expr::glue(vec![self.word_expr(&i), Expr::lit(b"\n")])
                    }
                    None => Expr::unknown(),
                },
                RedirOp::Input | RedirOp::ReadWrite => {
                    let null = match &r.target {
                        Some(t) => self.read(t)?.literal().as_deref() == Some(b"/dev/null"),
                        None => false,
                    };
                    if null {
                        Expr::lit(b"")
                    } else {
                        Expr::unknown()
                    }
                }
                RedirOp::Duplicate => {
                    // `<&3`, `0<&3`: another descriptor's input (`>&2` gives none).
                    if !self.duplicates_input(r) {
                        continue;
                    }
                    Expr::unknown()
                }
                RedirOp::Output => continue,
            };
            inputs.push(e);
        }
        if inputs.is_empty() {
            return Ok(ctx.stdin.clone());
        }
        if self.zsh() {
            // MULTIOS: the pipe, then each input, one stream.
            if ctx.piped {
                inputs.insert(0, ctx.stdin.clone());
            }
            return Ok(Expr::glue(inputs));
        }
        let mut s = Expr::default();
        for e in inputs {
            s.join(e);
        }
        Ok(s)
    }

    /// What a command that prints nothing writes to its output: its error messages
    /// (run-time text) when standard error goes there.
    fn error_text(&self, ctx: &Ctx) -> Expr {
        if ctx.stderr_out || self.stderr_merged {
            Expr::unknown()
        } else {
            Expr::default()
        }
    }

    /// What a command writes to standard error: its error messages and `set -x`'s trace,
    /// which quote its words (parts of them, the shell's own text around them) and the
    /// values they reach.
    fn stderr_text<'w>(&mut self, words: impl Iterator<Item = &'w WordInfo>) -> Expr {
        if self.verbose || self.trace_prompts {
            // `set -v` echoes the text the shell reads (a heredoc's body in a substitution
            // too); PS4 may run a substitution: run-time text.
            return Expr::unknown();
        }
        // Each quoted in the shell's own text (`bash: line 1: [: …: integer expression
        // expected`): the environment's text around it, which keeps heredoc text's bytes
        // and takes the place of fixed text.
        let quoted =
            |inner: Expr| Expr::glue(vec![Expr::val(Val::env()), inner, Expr::val(Val::env())]);
        let mut e = Expr::val(Val::env());
        for w in words {
            let v = self.word_expr(w);
            e.join(quoted(if self.program_quotes {
                v.program_quoted()
            } else {
                v
            }));
        }
        // An error may quote a value a word reaches (`let x` quotes x's value, `time`
        // prints TIMEFORMAT's): any variable's.
        e.join(quoted(Expr(vec![Src::AnyVar])));
        e
    }

    /// Whether a word is one field whatever its parameters hold: no unquoted expansion,
    /// glob or brace, and none of the bytes that can make a quoted expansion several
    /// words (`"$@"`, `"${a[@]}"`, `"$*"` with an empty IFS, zsh's `(@)`, `=` and `^`).
    /// Unknown (its text not at hand): not.
    pub fn one_field(&self, t: &WordInfo) -> bool {
        !t.split
            && !t.many
            && !t.brace
            && !t.unread
            && self
                .text
                .and_then(|text| text.get(t.start as usize..t.end as usize))
                .is_some_and(|b| {
                    !b.iter()
                        .any(|c| matches!(c, b'@' | b'*' | b'=' | b'(' | b'^' | b'!'))
                })
    }

    /// Whether a word is one argument whatever its values hold, as [`Walk::one_field`] says
    /// but reading its pieces: a quoted substitution (`"$(…)"`) and `"$*"` are one; `"$@"`,
    /// `"${a[@]}"`, `"${!a[@]}"` (an `@` anywhere in it, nested too), zsh's flags,
    /// `${=x}`/`${^x}`, and any expansion where a nameref may be one, may not be.
    pub fn one_argument(&self, t: &WordInfo) -> bool {
        if t.split || t.many || t.brace || t.unread || !t.breaks.is_empty() {
            return false;
        }
        let plain = t.pieces.iter().all(|p| match p {
            Piece::Param(p) => {
                !self.namerefs_seen
                    && p.name != b"@"
                    && !p.indirect
                    && !p.flags
                    && !p.zsh_glob
                    && p.op != ParamOp::Names
            }
            _ => true,
        });
        // (Nested too: `"${u:-$@}"`, `"${u:-${a[@]}}"`.)
        plain
            && self
                .text
                .and_then(|text| text.get(t.start as usize..t.end as usize))
                .is_some_and(|b| {
                    // (zsh's `^c` under `extendedglob`, which the reading does not take
                    // for a glob: [`Walk::caret_glob`].)
                    let several = b.contains(&b'@') || (self.zsh() && b.first() == Some(&b'^'));
                    !several
                        && ![&b"${="[..], b"$=", b"${^", b"$^"]
                            .iter()
                            .any(|n| crate::search::find(b, n).is_some())
                })
    }

    /// Whether a word starts with an unquoted `^`: zsh's negated glob under
    /// `extendedglob` (`^c`), which the reading does not take for a glob.
    pub fn caret_glob(&self, t: &WordInfo) -> bool {
        self.zsh()
            && self
                .text
                .and_then(|text| text.get(t.start as usize))
                .is_some_and(|&c| c == b'^')
    }

    /// Whether `name` may be a function the command defines (`true() { …; }`): then a
    /// command of that name runs it, not the builtin.
    pub fn may_be_function(&self, name: &[u8]) -> bool {
        let (names, any) = &*self.functions;
        *any || names.contains(name)
    }

    /// Where a command's standard output and standard error go, after its redirections
    /// in order (`>/dev/null 2>&1` sends both nowhere, `2>&1 >/dev/null` errors to the
    /// output): whether each may reach the output around it. `stderr_out`: its standard
    /// error already goes there. A file may be the output by another spelling
    /// (`/./dev/stdout`, a link the command made): only `/dev/null` and a closed
    /// descriptor are not. (zsh, with MULTIOS, writes to every redirection of a descriptor.)
    fn output_streams(
        &self,
        redirects: &[&Redirect],
        stderr_out: bool,
    ) -> Result<(bool, bool), GaveUp> {
        // Descriptor → may reach the output; 1 and 2 first, then any named here.
        let mut fds: Vec<(u32, bool)> = vec![(1, true), (2, stderr_out)];
        // The descriptors this command redirected so far (zsh's MULTIOS writes to each).
        let mut redirected: Vec<u32> = Vec::new();
        let zsh = self.zsh();
        for r in redirects {
            if matches!(r.op, RedirOp::Heredoc | RedirOp::HereString) {
                continue;
            }
            let op_byte = self.text.and_then(|t| t.get(r.at as usize)).copied();
            let target = match &r.target {
                Some(t) => self.read(t)?.literal(),
                None => None,
            };
            // A descriptor's number (`002` is 2); one past what a shell opens is the
            // largest, another descriptor.
            let number = |t: &[u8]| -> Option<u32> {
                let t = t.strip_suffix(b"-").unwrap_or(t);
                if t.is_empty() || !t.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let t = &t[t
                    .iter()
                    .take_while(|&&c| c == b'0')
                    .count()
                    .min(t.len() - 1)..];
                if t.len() > 9 {
                    return Some(u32::MAX);
                }
                std::str::from_utf8(t).ok()?.parse().ok()
            };
            // `N>&M`, `N>&-`: the reader keeps no word for a number or `-`; the text does.
            let spelled = match (&r.target, r.op) {
                (None, RedirOp::Duplicate) => self.duplicated(r),
                _ => None,
            };
            let to_descriptor = target
                .as_deref()
                .and_then(number)
                .or(spelled.and_then(|d| d));
            let closes = target.as_deref() == Some(b"-") || spelled == Some(None);
            let written: Vec<u32> = match r.fd.as_deref() {
                Some(fd) => match number(fd).filter(|_| !fd.ends_with(b"-")) {
                    Some(n) => vec![n],
                    // `{name}>`: a new descriptor.
                    None => continue,
                },
                None => match r.op {
                    RedirOp::Output if op_byte.is_none_or(|b| b == b'&') => vec![1, 2],
                    RedirOp::Output => vec![1],
                    RedirOp::Duplicate if op_byte.is_some_and(|b| b == b'<') => vec![0],
                    RedirOp::Duplicate if to_descriptor.is_some() || closes => vec![1],
                    // `>&word`: both outputs to a file.
                    RedirOp::Duplicate => vec![1, 2],
                    _ => vec![0],
                },
            };
            let reaches = match r.op {
                RedirOp::Duplicate if closes => false,
                RedirOp::Duplicate => match to_descriptor {
                    Some(n) => fds.iter().find(|(f, _)| *f == n).is_none_or(|&(_, o)| o),
                    None => target.as_deref() != Some(b"/dev/null"),
                },
                // Opened for reading only: nothing written to it arrives.
                RedirOp::Input => false,
                _ => target.as_deref() != Some(b"/dev/null"),
            };
            for n in written {
                let again = redirected.contains(&n);
                match fds.iter_mut().find(|(f, _)| *f == n) {
                    Some((_, o)) => *o = reaches || (zsh && again && *o),
                    None => fds.push((n, reaches)),
                }
                redirected.push(n);
            }
        }
        let of = |n: u32| fds.iter().find(|(f, _)| *f == n).is_some_and(|&(_, o)| o);
        Ok((of(1), of(2)))
    }

    /// The descriptor a duplication the reader kept no word for names, from the text:
    /// `Some(Some(n))` for `>&n` (and `>&n-`), `Some(None)` for `>&-`; `None` where the
    /// text does not say (text run later, whose offsets are pinned).
    fn duplicated(&self, r: &Redirect) -> Option<Option<u32>> {
        let t = self.text?;
        let rest = t.get(r.at as usize..)?;
        if !matches!(rest.first(), Some(b'<' | b'>')) || rest.get(1) != Some(&b'&') {
            return None;
        }
        let rest = &rest[2..];
        let rest = &rest[rest
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count()..];
        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return (rest.first() == Some(&b'-')).then_some(None);
        }
        let zeros = rest[..digits]
            .iter()
            .take_while(|&&c| c == b'0')
            .count()
            .min(digits - 1);
        if digits - zeros > 9 {
            return None;
        }
        let n = std::str::from_utf8(&rest[zeros..digits])
            .ok()?
            .parse()
            .ok()?;
        Some(Some(n))
    }

    /// Whether a command with redirections may be `exec` (which keeps them for every
    /// later command): `exec`, `command` or `builtin` before it, or a name given at run
    /// time.
    fn may_be_exec(&self, words: &[WordInfo]) -> bool {
        match words.first().map(WordInfo::value) {
            None => false,
            Some(None) => true,
            Some(Some(n)) => matches!(n.as_slice(), b"exec" | b"command" | b"builtin"),
        }
    }

    /// Whether an input redirection is standard input's: no descriptor written, or 0
    /// (bash reads `00` as 0; zsh takes one digit only, so `10<f` is the word `10` and
    /// `<f`).
    fn on_stdin(&self, r: &Redirect) -> bool {
        match r.fd.as_deref() {
            None => true,
            Some(fd) if self.zsh() && fd.len() > 1 && fd.iter().all(u8::is_ascii_digit) => true,
            Some(fd) => !fd.is_empty() && fd.iter().all(|&c| c == b'0'),
        }
    }

    /// A redirection word bash expands again ([`Self::reexpands_word`]): its value is an
    /// evaluator's (words expanded again).
    fn word_reexpanded(&mut self, r: &Redirect, i: &WordInfo) {
        if self.reexpands_word(r) && i.literal().is_none() {
            let value = self.word_expr(i);
            self.site(
                r.at,
                Evaluator::WordList,
                "the word of >& (bash 5.2 and older expand it again as a file name)",
                value,
                None,
            );
        }
    }

    /// Whether bash (5.2 and older, not zsh) expands a redirection's word a second time:
    /// `>&word` and `1>&word` whose word is not a descriptor turn into `&>word`, and the
    /// word, already expanded, is expanded again as a file name (`$(…)` in its value runs;
    /// redir.c, fixed in 5.3). Where the text's offsets do not say the operator, it counts.
    fn reexpands_word(&self, r: &Redirect) -> bool {
        let on_stdout = match r.fd.as_deref() {
            None => true,
            Some(fd) => {
                let digits = fd
                    .iter()
                    .skip_while(|&&c| c == b'0')
                    .copied()
                    .collect::<Vec<u8>>();
                // bash 3.2 reads `{name}` as a word before the operator, not a name
                // for the descriptor: the operator is `>&word` there.
                (fd.iter().all(u8::is_ascii_digit) && digits == b"1") || fd.first() == Some(&b'{')
            }
        };
        !self.zsh()
            && r.op == RedirOp::Duplicate
            && on_stdout
            && self
                .text
                .is_none_or(|t| t.get(r.at as usize) == Some(&b'>'))
    }

    /// Whether a duplication redirection gives input (`<&`), not output (`>&`): its
    /// operator, where the text's offsets say it (else it counts as input).
    fn duplicates_input(&self, r: &Redirect) -> bool {
        self.text
            .is_none_or(|t| t.get(r.at as usize) != Some(&b'>'))
    }

    /// Whether zsh may run any function the command defines as a hook: the command names
    /// a hook list (`chpwd_functions`, `zshexit_functions`, …) or `add-zsh-hook`, or its
    /// text is not the command's (round 97's third helper).
    fn zsh_hooks_by_list(&self) -> bool {
        // (Searched once per walk: a script defines many functions.)
        if !self.zsh() {
            return false;
        }
        if let Some(known) = self.names_hook_list.get() {
            return known;
        }
        let names = self.text.is_none_or(|t| {
            crate::search::find(t, b"_functions").is_some()
                || crate::search::find(t, b"zsh-hook").is_some()
        });
        self.names_hook_list.set(Some(names));
        names
    }

    /// The text of every heredoc given to a compound command (a group, a loop, a
    /// subshell) or to a simple command the shell runs itself (any, for a command-not-found
    /// handler: `any_simple`), as it reads it ([`Walk::body_expr`]): what code the shell runs by
    /// itself inside one (a trap, a hook) may read.
    pub(super) fn every_body(&mut self, any_simple: bool) -> Expr {
        if let Some(e) = &self.every_body_once[usize::from(any_simple)] {
            return e.clone();
        }
        let e = self.every_body_of(any_simple);
        self.every_body_once[usize::from(any_simple)] = Some(e.clone());
        e
    }

    /// [`Walk::every_body`], computed.
    fn every_body_of(&mut self, any_simple: bool) -> Expr {
        type Simple<'r> = (&'r SimpleCommand, Option<&'r SimpleCommand>, bool);
        // (A redirection that gives input other than a heredoc: `<`, `<<<`, `<>`, `<&`.)
        let gives_input = |r: &Redirect| match r.op {
            RedirOp::Heredoc | RedirOp::Output => false,
            RedirOp::Duplicate => self.duplicates_input(r),
            RedirOp::Input | RedirOp::ReadWrite | RedirOp::HereString => true,
        };
        fn heredoc_ops<'r>(
            rs: impl IntoIterator<Item = &'r Redirect>,
        ) -> impl Iterator<Item = u32> {
            rs.into_iter()
                .filter(|r| r.op == RedirOp::Heredoc)
                .map(|r| r.at)
        }
        fn collect<'r>(
            nodes: &[(super::program::Node<'r>, super::program::Feed)],
            out: &mut Vec<u32>,
            simple: &mut Vec<Simple<'r>>,
            fed_compound: &mut bool,
            gives_input: &dyn Fn(&Redirect) -> bool,
        ) {
            for (i, (n, feed)) in nodes.iter().enumerate() {
                // (Given input other than its heredocs: a pipe, or such a redirection.)
                let piped = *feed != super::program::Feed::Own;
                match n {
                    super::program::Node::Compound {
                        kind,
                        children,
                        redirects,
                        ..
                    } => {
                        out.extend(heredoc_ops(redirects.iter().copied()));
                        // (A coprocess reads what the shell writes to it.)
                        *fed_compound |= matches!(kind, Compound::Coproc)
                            || piped
                            || redirects.iter().any(|r| gives_input(r));
                        collect(children, out, simple, fed_compound, gives_input);
                    }
                    // (A program's that writes into a pipe the shell's own reads, a group or
                    // a builtin: `cat <<'E' | { :; }`, counted as that reader's.)
                    super::program::Node::Simple(c) => {
                        let fed = piped || c.redirects.iter().any(gives_input);
                        match nodes.get(i + 1) {
                            Some((
                                super::program::Node::Compound { .. },
                                super::program::Feed::Pipe | super::program::Feed::PipeErr,
                            )) => out.extend(heredoc_ops(&c.redirects)),
                            Some((
                                super::program::Node::Simple(reader),
                                super::program::Feed::Pipe | super::program::Feed::PipeErr,
                            )) => simple.push((c, Some(*reader), fed)),
                            _ => simple.push((c, None, fed)),
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut ops = Vec::new();
        let mut simple = Vec::new();
        let mut fed_otherwise = false;
        collect(
            &self.prog.root,
            &mut ops,
            &mut simple,
            &mut fed_otherwise,
            &gives_input,
        );
        for (at, nodes) in &self.prog.substs {
            collect(
                nodes,
                &mut ops,
                &mut simple,
                &mut fed_otherwise,
                &gives_input,
            );
            // (A process substitution written to, `>(…)`, reads what the command before
            // it writes: code the shell runs there, a trap it inherits, reads that.)
            fed_otherwise |= self
                .text
                .is_none_or(|t| t.get(*at as usize..).is_some_and(|r| r.starts_with(b">(")));
        }
        // A simple command's too where the shell itself runs it with its redirections in
        // place, so that code it runs by itself then reads them: a function (its `RETURN`
        // trap under `set -T`, a trap inside it), a builtin (`exit`'s `EXIT` trap, `kill -USR1
        // $$`'s handler, zsh's `chpwd` after `cd`), a name computed at run time; for a
        // command-not-found handler, any (it runs with the redirections of the command not
        // found). Not a program's: it runs in a process of its own (round 94).
        let in_shell = |c: &SimpleCommand| {
            c.words
                .iter()
                .find(|w| !crate::shell::word::is_assignment(&w.text))
                .map(|w| w.text.bytes())
                .is_none_or(|n| {
                    !crate::shell::word::as_written(n)
                        || super::inert::builtin(n)
                        || self.may_be_function(n)
                })
        };
        for (c, reader, fed) in simple {
            // (Or a pipe's reader's: `cat <<'E' | f`.)
            let itself = any_simple || in_shell(c);
            fed_otherwise |= fed && itself;
            if itself || reader.is_some_and(in_shell) {
                ops.extend(heredoc_ops(&c.redirects));
            }
        }
        let mut out = Expr::default();
        for op in ops {
            if let Some(&i) = self.by_op.get(&op) {
                out.join(self.body_expr(i, false));
            }
        }
        // What a compound command or a command the shell runs itself is given otherwise
        // (a pipe, a file, a process substitution, a here-string) may be heredoc text by
        // any route: run-time text, where the command holds a heredoc (`echo "$(cat <<'E'
        // …)" | f`, `f < <(cat <<'E' …)` under a `RETURN` trap; round 97).
        if fed_otherwise && !self.heredocs.is_empty() {
            out.join(Expr::unknown());
        }
        out
    }

    /// What heredoc `i`'s text is as its command reads it: a quoted body as is; an
    /// unquoted one with its expansions' values glued in.
    fn body_expr(&mut self, i: usize, first_line: bool) -> Expr {
        let Some(h) = self.heredocs.get(i) else {
            return Expr::unknown();
        };
        if self.in_nested {
            // `eval` text's bodies: their bytes are not the command's at their offsets.
            return Expr::val(Val::heredoc(ByteSet::ALL));
        }
        if h.quoted || !h.body_eval.expands {
            return Expr(vec![Src::Body {
                heredoc: i,
                first_line,
            }]);
        }
        let eval = Rc::clone(&h.body_eval);
        // Its literal text, then the values its expansions give.
        let literal = Val::heredoc(ByteSet::from_words(eval.literal_bytes));
        let mut parts = vec![Expr::val(literal)];
        for n in &eval.names {
            parts.push(self.param_var(n));
        }
        for p in &eval.pieces {
            parts.push(match p {
                Piece::Param(p) => self.param_expr(p),
                Piece::Arith(a) => self.arith_result(a),
                Piece::Subst(_) | Piece::Lit(_) => Expr::unknown(),
            });
        }
        if eval.names_cut || eval.cut || eval.requoted {
            parts.push(Expr::unknown());
        }
        Expr::glue(parts)
    }

    /// An unquoted heredoc body's expansions, evaluated when its command runs.
    fn body(&mut self, op: u32, ctx: &Ctx) -> Result<(), GaveUp> {
        let Some(&i) = self.by_op.get(&op) else {
            return Ok(());
        };
        let Some(h) = self.heredocs.get(i) else {
            return Ok(());
        };
        if h.quoted {
            return Ok(());
        }
        let i = if self.in_nested { NESTED_BODY } else { i };
        let eval = Rc::clone(&h.body_eval);
        // What the scan could not follow denies: expansions it did not read (they may
        // assign, name a variable or evaluate a subscript), or a word bash reads again once
        // it removes its double quotes.
        if eval.cut {
            self.facts.unread.push(Unread {
                at: op,
                in_body: Some(i),
                what: "more expansions than the guard reads in a body (over 4,096 that assign, name or evaluate, or nested over 64 deep)",
            });
        }
        if eval.requoted {
            self.facts.unread.push(Unread {
                at: op,
                in_body: Some(i),
                what: "a ${…} word whose double quotes bash removes before it expands the rest (${x-\"$\"(cmd)} runs cmd)",
            });
        }
        self.pieces_sites(&eval.pieces, ctx, Some(i), None)
    }

    /// A simple command.
    fn simple(&mut self, c: &SimpleCommand, ctx: &Ctx) -> Result<Expr, GaveUp> {
        if self.zsh() {
            // zsh assigns `1=x`, `0=x` (bash: a command's name): the word's text.
            for w in &c.words {
                let b = w.text.bytes();
                let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let eq = digits + usize::from(b.get(digits) == Some(&b'+'));
                if digits == 0 || b.get(eq) != Some(&b'=') {
                    break;
                }
                let i = self.read(w)?;
                let value = self.word_expr(&i).part(ByteSet::EMPTY);
                let v = self.var(&b[..digits]);
                self.assign(Target::Var(v), value, w.start, ctx);
            }
        }
        let mut assignments: Vec<word::Assignment> = Vec::new();
        for w in &c.words {
            match self.assignment(w)? {
                Some(a) => assignments.push(a),
                None => break,
            }
        }
        let mut infos = Vec::with_capacity(c.words.len());
        for w in &c.words[assignments.len()..] {
            infos.push(self.read(w)?);
        }
        let redirects: Vec<&Redirect> = c.redirects.iter().collect();
        let here = Ctx {
            stdin: self.input(&redirects, ctx)?,
            ..ctx.clone()
        };
        // Substitutions in words run with the command's input (a redirection's target is
        // expanded after the redirections before it).
        for a in &assignments {
            for s in a.value.substs() {
                self.subst(s, &here)?;
            }
            if let Some(sub) = &a.subscript {
                let mut substs = Vec::new();
                word::arith_substs(sub, &mut substs);
                for s in substs {
                    self.subst(s, &here)?;
                }
            }
        }
        for i in &infos {
            self.expand(i, &here)?;
        }
        let mut targets = Vec::new();
        for r in &c.redirects {
            self.named_fd(r, &here)?;
            if let Some(t) = &r.target
                && r.op != RedirOp::Heredoc
            {
                let i = self.read(t)?;
                self.expand(&i, &here)?;
                self.word_reexpanded(r, &i);
                targets.push(i);
            }
        }
        // (Assignments before a program's name are its environment's, not the shell's: a
        // locale there does not change how the shell reads on.)
        self.for_a_program = infos.first().and_then(WordInfo::value).is_some_and(|n| {
            n.contains(&b'/') || (!super::inert::builtin(&n) && !self.may_be_function(&n))
        });
        for (w, a) in c.words.iter().zip(&assignments) {
            self.assignment_word(w, a, ctx)?;
        }
        self.for_a_program = false;
        for r in &c.redirects {
            if r.op == RedirOp::Heredoc {
                self.body(r.at, ctx)?;
            }
        }
        if self.nested_at.binary_search(&c.at).is_ok() {
            let mut stdin = here.stdin.clone();
            // A trap's text runs where the shell takes the signal (`DEBUG`, `ERR`, `ZERR`),
            // reading what the command running then is given: any heredoc (round 88).
            if infos.iter().any(|i| i.value().as_deref() == Some(b"trap")) {
                stdin.join(self.every_body(false));
            }
            self.runs_nested
                .entry(c.at)
                .or_insert_with(|| (self.unit, stdin));
        }
        let words = &c.words[assignments.len()..];
        let own = if self.in_nested {
            None
        } else {
            self.own_heredoc(c, &here)
        };
        self.program_errors = false;
        self.program_quotes = false;
        let mut out = builtins::command(self, c, words, &infos, ctx, &here, own)?;
        let environment_source = std::mem::take(&mut self.sourced_environment);
        if self.inert_so_far
            && self.facts.deferred == 0
            && !builtins::inert(self, c, &assignments, &infos, &targets, environment_source)
        {
            self.inert_so_far = false;
        }
        let (stdout_out, stderr_out) =
            self.output_streams(&redirects, ctx.stderr_out || self.stderr_merged)?;
        if !stdout_out {
            out = Expr::default();
        }
        if stderr_out {
            // What it writes to standard error reaches its output: its error messages and
            // traces quote its words.
            let words = assignments
                .iter()
                .map(|a| &a.value)
                .chain(&infos)
                .chain(&targets);
            out.join(self.stderr_text(words));
            if self.program_errors {
                out.join(Expr::unknown());
            }
        }
        if ctx.captured && self.may_be_exec(&infos) && self.output_streams(&redirects, false)?.1 {
            // `exec 2>&1` where output is captured: every later command's.
            self.merge_found = true;
        }
        let last = infos
            .last()
            .map(|l| self.word_expr(l))
            .or_else(|| assignments.last().map(|a| Expr::lit(&a.name)));
        if let Some(e) = last {
            let v = self.var(b"_");
            self.facts.assign(Target::Var(v), e, c.at);
        }
        Ok(out)
    }

    /// A list written inside a quoted word (`declare -a 'c=([y]=1)'`), which bash reads as a
    /// compound assignment to `v`: its `[k]=` subscripts are evaluated, and its keys (and
    /// bash 5.1's and zsh's pairs) are the array's.
    pub fn compound_text(&mut self, v: Var, value: &[u8], ctx: &Ctx) -> Result<(), GaveUp> {
        self.spend(value.len() / 16 + 1)?;
        let mut t = b"x=".to_vec();
        t.extend_from_slice(value);
        let Some(a) = word::assignment(&crate::shell::Text::command(&t), &()) else {
            self.facts.computed_keys.push(v);
            return Ok(());
        };
        self.pieces_sites(&a.value.pieces, ctx, None, Some(v))?;
        self.compound_keys(v, &a.value.pieces, true);
        Ok(())
    }

    /// The keys a list gives array `v`: its `[k]=` subscripts, and, where its elements may
    /// be key-value pairs (`pairs`: zsh, and bash 5.1's quoted lists), its elements too.
    fn compound_keys(&mut self, v: Var, pieces: &[Piece], pairs: bool) {
        for p in pieces {
            match p {
                Piece::Arith(x) => self.key(v, x),
                Piece::Lit(l) if pairs => self.facts.literal_keys.push((v, Rc::from(&l[..]))),
                Piece::Param(_) | Piece::Subst(_) if pairs => self.facts.computed_keys.push(v),
                Piece::Lit(_) | Piece::Param(_) | Piece::Subst(_) => {}
            }
        }
    }

    /// A key array `v` is given, as a subscript's text reads: the text, or any text where
    /// it expands something.
    pub fn literal_or_computed_key(&mut self, v: Var, sub: &[u8]) {
        if sub
            .iter()
            .any(|c| matches!(c, b'$' | b'`' | b'\\' | b'<' | b'>'))
        {
            self.facts.computed_keys.push(v);
        } else {
            self.facts.literal_keys.push((v, Rc::from(sub)));
        }
    }

    /// A key array `v` is given, as its subscript reads: its names as literal text, or,
    /// with an expansion or a substitution in it, any text.
    fn key(&mut self, v: Var, sub: &Arith) {
        let plain = sub.substs.is_empty() && sub.subscripts.is_empty() && !sub.odd;
        if plain && sub.params.is_empty() {
            for n in &sub.names {
                self.facts.literal_keys.push((v, Rc::from(&n[..])));
            }
        } else if let [p] = &sub.params[..]
            && plain
            && sub.names.is_empty()
        {
            // `a[$k]=…`: the key is `k`'s value, with the digits and operators that may
            // stand around it.
            let key = self
                .param_expr(p)
                .part(ByteSet::of(b"0123456789+-*/%<>=!&|^~?:,() \t"));
            let keys = self.keys_var(v);
            self.facts.assign(Target::Var(keys), key, sub.at);
        } else {
            self.facts.computed_keys.push(v);
        }
    }

    /// The variable that holds the keys array `v` is given by a parameter's value
    /// (`a[$k]=…`): a name no shell variable has.
    pub fn keys_var(&mut self, v: Var) -> Var {
        let mut name = b"\0keys ".to_vec();
        name.extend_from_slice(self.facts.names.name(v));
        self.var(&name)
    }

    /// An assignment word (`name=value`, `name[sub]=value`, `name=(…)`): its evaluators
    /// (the subscript, a compound value's keys), then the assignment.
    pub fn assignment_word(
        &mut self,
        w: &Word,
        a: &word::Assignment,
        ctx: &Ctx,
    ) -> Result<(), GaveUp> {
        let v = self.var(&a.name);
        if let Some(sub) = &a.subscript {
            self.arith_in(sub, ctx, None, false, Some(v))?;
            self.key(v, sub);
            self.facts.arrays.push(v);
        }
        if self.zsh() && &*a.name == b"options" {
            // zsh's options table: `options[prompt_subst]=on` sets an option; any may be.
            self.facts.prompt_subst = true;
            self.facts.glob_subst = true;
            self.facts.xtrace.get_or_insert(w.start);
            self.facts.verbose = true;
        }
        let compound = is_compound(w);
        if compound {
            // A list: `[k]=` keys are subscripts (and keys; zsh's elements may be too,
            // by pairs, in an associative array). Its words are globbed.
            self.pieces_sites(&a.value.pieces, ctx, None, Some(v))?;
            if self.zsh() {
                self.zsh_globs(&a.value);
            }
            let pairs = self.zsh();
            self.compound_keys(v, &a.value.pieces, pairs);
        } else {
            self.pieces_sites(&a.value.pieces, ctx, None, None)?;
            // zsh's GLOB_ASSIGN globs a scalar assignment's value.
            if self.zsh() && self.names_glob_assign() {
                self.zsh_globs(&a.value);
            }
        }
        let mut value = self.word_expr(&a.value);
        if a.append {
            self.append_site(v, &value, w.start);
        }
        if a.append && !compound {
            value = self.appended(v, value);
        }
        if self.zsh() && a.subscript.is_some() && !compound {
            // zsh: an element of a scalar is a part of its text, and `y[2]=…` splices the
            // value into it (round 61): the old text before or after it, or the value.
            let mut spliced = self.appended(v, value.clone());
            spliced.join(Expr::glue(vec![value.clone(), Expr::var(v)]));
            spliced.join(value);
            value = spliced;
        }
        let head = if compound && !a.append {
            plain_head(w.text.bytes())
        } else {
            None
        };
        self.assign(Target::Var(v), value, w.start, ctx);
        if let Some(head) = head
            && let Some(k) = self
                .facts
                .assigns
                .iter()
                .rposition(|(t, _, at)| *t == Target::Var(v) && *at == w.start)
        {
            self.facts.array_heads.push((v, k, Rc::from(head)));
        }
        Ok(())
    }

    /// `name+=value` on an integer variable of the shell evaluates the value, where
    /// `name=value` may not ([`builtins::integer_on_append`]).
    pub fn append_site(&mut self, v: Var, value: &Expr, at: u32) {
        let name = Rc::clone(&self.facts.names.names[v as usize]);
        if builtins::integer_on_append(&name, self.zsh())
            && !builtins::integer_special(&name, self.zsh())
        {
            self.site(
                at,
                Evaluator::Arithmetic,
                "an integer variable of the shell",
                value.clone(),
                None,
            );
        }
    }

    /// What `name+=value` leaves in `v`: its old value (or nothing) and the value, joined.
    pub fn appended(&mut self, v: Var, value: Expr) -> Expr {
        appended_to(Expr::var(v), value)
    }

    /// What `"$name+=value"` may leave in any variable.
    pub fn appended_to_any(value: Expr) -> Expr {
        appended_to(Expr(vec![Src::AnyVar]), value)
    }

    /// `{name[sub]}>file`: the shell assigns the descriptor to the element, its subscript
    /// expanded and evaluated (as a name the command gives at run time).
    fn named_fd(&mut self, r: &Redirect, ctx: &Ctx) -> Result<(), GaveUp> {
        let Some(fd) = r.fd.as_deref() else {
            return Ok(());
        };
        let Some(inner) = fd.strip_prefix(b"{").and_then(|f| f.strip_suffix(b"}")) else {
            return Ok(());
        };
        if !inner.contains(&b'[') {
            // `{name}>file`: the shell assigns the descriptor's number to `name`; zsh
            // makes it an integer (it stays one, the descriptor closed: every later
            // assignment to it is evaluated, round 100).
            let v = self.var(inner);
            if self.zsh() {
                self.facts.integers.push((v, r.at));
            }
            self.assign(Target::Var(v), Expr::val(Val::number()), r.at, ctx);
            return Ok(());
        }
        self.spend(inner.len() / 16 + 1)?;
        let i = word::read(&crate::shell::text::Text::command(inner), &());
        self.expand(&i, ctx)?;
        let e = self.word_expr(&i);
        self.site(
            r.at,
            Evaluator::Name,
            "a descriptor named {name[subscript]}",
            e,
            None,
        );
        Ok(())
    }

    /// For a command whose standard input is its own quoted heredoc, read from its first
    /// byte each time it runs (see [`builtins`]'s `read`): that heredoc's index.
    fn own_heredoc(&self, c: &SimpleCommand, here: &Ctx) -> Option<usize> {
        if here.piped && self.zsh() {
            return None;
        }
        let inputs: Vec<&Redirect> = c
            .redirects
            .iter()
            .filter(|r| (r.op.feeds_input() || r.op == RedirOp::Duplicate) && self.on_stdin(r))
            .collect();
        let [r] = inputs.as_slice() else {
            return None;
        };
        if r.op != RedirOp::Heredoc {
            return None;
        }
        let i = *self.by_op.get(&r.at)?;
        let h = self.heredocs.get(i)?;
        if !h.quoted || h.context != Context::TopLevel {
            return None;
        }
        // Something it expands first may read the heredoc's first line.
        let expands = c
            .words
            .iter()
            .map(|w| w.text.bytes())
            .chain(
                c.redirects
                    .iter()
                    .filter(|r| r.op != RedirOp::Heredoc)
                    .filter_map(|r| r.target.as_ref().map(|t| t.text.bytes())),
            )
            .any(|b| b.iter().any(|c| matches!(c, b'$' | b'`' | b'(')));
        (!expands).then_some(i)
    }

    /// A compound command.
    fn compound(
        &mut self,
        kind: &Compound,
        at: u32,
        children: &[(Node<'_>, Feed)],
        redirects: &[&Redirect],
        ctx: &Ctx,
    ) -> Result<Expr, GaveUp> {
        let mut inner = ctx.clone();
        // Its commands share its input: a later one reads what an earlier one left (any
        // part of it), never known exactly, unless each reads whole lines (`read -r`).
        inner.stdin = self.input(redirects, ctx)?;
        // A coprocess reads what the shell writes to it (`>&${COPROC[1]}`, zsh's `>&p`):
        // run-time text (round 97's third helper).
        if matches!(kind, Compound::Coproc) {
            inner.stdin.join(Expr::unknown());
        }
        inner.whole_lines = self.whole_lines(kind, at, children, redirects, ctx)?;
        if !inner.whole_lines {
            inner.stdin = inner.stdin.part(ByteSet::EMPTY);
        }
        inner.piped = false;
        let (stdout_out, stderr_out) =
            self.output_streams(redirects, ctx.stderr_out || self.stderr_merged)?;
        inner.stderr_out = stderr_out;
        let mut targets = Vec::new();
        for r in redirects {
            self.named_fd(r, ctx)?;
            if let Some(t) = &r.target
                && r.op != RedirOp::Heredoc
            {
                let i = self.read(t)?;
                self.expand(&i, ctx)?;
                self.word_reexpanded(r, &i);
                targets.push(i);
            }
        }
        for r in redirects {
            if r.op == RedirOp::Heredoc {
                self.body(r.at, ctx)?;
            }
        }
        let mut named: Option<Vec<u8>> = None;
        match kind {
            Compound::For(var, words) => {
                let mut v = Expr::default();
                match words {
                    Some(ws) => {
                        for w in ws {
                            let i = self.read(w)?;
                            self.expand(&i, ctx)?;
                            v.join(self.word_expr(&i));
                        }
                    }
                    None => v = Expr::var(self.var(b"@")),
                }
                if let Some(var) = var {
                    match self.read(var)?.value() {
                        Some(n) => {
                            let t = self.var(&n);
                            self.assign(Target::Var(t), v, at, ctx);
                        }
                        None => self.facts.assign(Target::Any, v, at),
                    }
                }
            }
            Compound::Function(name) => {
                inner.read_later = true;
                inner.in_function = true;
                inner.captured = true;
                let info = self.read(name)?;
                if self.zsh() {
                    // zsh expands a function's name word (`function $((x)) {…}`).
                    self.expand(&info, ctx)?;
                }
                let n = info.value();
                if n.as_deref().is_none_or(lines::may_run_between_reads) {
                    self.facts.hooks = true;
                }
                // (A name the walk does not know, zsh's `=cat() { … }` among them: the
                // function any call may be, [`super::facts::ANY_FUNCTION`], and any hook
                // the shell runs by itself.)
                let unknown = n.is_none();
                let n = n.unwrap_or_else(|| {
                    unknown_function_name(&info, self.zsh() && self.may_set_glob_subst())
                });
                named = Some(n.clone());
                // Its input is what its calls give it.
                let s = self.var(&function_stdin(&n));
                inner.stdin.join(Expr::var(s));
                let any = self.var(&function_stdin(b""));
                inner.stdin.join(Expr::var(any));
                // A function the shell runs by itself (`TRAPZERR`, `chpwd`,
                // `command_not_found_handler`, `zshexit`, …) reads what the command
                // running then is given: any heredoc (round 88).
                if unknown || lines::shell_hook(&n) || self.zsh_hooks_by_list() {
                    // (A command-not-found handler runs with the redirections of any
                    // command, a program's name; the others as a trap does.)
                    let any = unknown || n.starts_with(b"command_not_found");
                    inner.stdin.join(self.every_body(any));
                }
                self.facts.functions.push(Rc::from(n));
            }
            Compound::Case(Some(w)) => {
                let i = self.read(w)?;
                self.expand(&i, ctx)?;
            }
            Compound::Select(var) => {
                // The answer read from standard input, and the word it picks.
                let reply = self.var(b"REPLY");
                self.assign(
                    Target::Var(reply),
                    inner.stdin.clone().part(ByteSet::EMPTY),
                    at,
                    ctx,
                );
                if let Some(var) = var
                    && let Some(n) = self.read(var)?.value()
                {
                    let t = self.var(&n);
                    // The word it picks: text the command fixes, which the guard does
                    // not keep (`select c in let`), or any; known to end inside a `${`,
                    // and to hold an assignment and a substitution (its words, glued
                    // round after round, may make one: round 98).
                    let mut picked = Expr::unknown();
                    picked.join(Expr::val(Val {
                        fixed: Some(ByteSet::ALL),
                        fixed_assigns: true,
                        fixed_substs: true,
                        open_end: true,
                        ..Val::default()
                    }));
                    self.assign(Target::Var(t), picked, at, ctx);
                }
                if self.zsh() {
                    // zsh expands PS3 as a prompt (with PROMPT_SUBST).
                    let ps3 = self.var(b"PS3");
                    self.site_needing(
                        at,
                        Evaluator::Prompt,
                        "zsh's select prompt PS3",
                        Expr::var(ps3),
                        Needs::PromptSubst,
                    );
                }
            }
            Compound::Case(None)
            | Compound::Group
            | Compound::Subshell
            | Compound::Loop
            | Compound::Coproc => {}
        }
        let function = matches!(kind, Compound::Function(_));
        let repeats = matches!(
            kind,
            Compound::For(..) | Compound::Loop | Compound::Select(_)
        );
        self.facts.deferred += u32::from(function);
        self.facts.repeating += u32::from(repeats);
        let outer = if function {
            Some(std::mem::replace(&mut self.function_named, named))
        } else {
            None
        };
        let out = self.walk(children, &inner);
        if let Some(outer) = outer {
            self.function_named = outer;
        }
        self.facts.deferred = self.facts.deferred.saturating_sub(u32::from(function));
        self.facts.repeating = self.facts.repeating.saturating_sub(u32::from(repeats));
        let mut out = out?;
        if function {
            // A function's output is what a call writes: not known here.
            return Ok(Expr::default());
        }
        if repeats {
            // A loop writes what its body writes, round after round, one text.
            out = out.repeated();
        }
        if !stdout_out && !stderr_out {
            return Ok(Expr::default());
        }
        if stderr_out {
            // Its own redirections' errors (`{ …; } 2>&1 <"$f"`).
            out.join(self.stderr_text(targets.iter()));
        }
        Ok(out)
    }

    /// `[[ … ]]`: integer comparisons evaluate both sides, `-v` a name; `=~` sets the
    /// match variables.
    fn cond(&mut self, words: &[Word], ctx: &Ctx) -> Result<(), GaveUp> {
        let mut infos = Vec::with_capacity(words.len());
        for w in words {
            let i = self.read(w)?;
            self.expand(&i, ctx)?;
            infos.push(i);
        }
        let op = |k: usize| infos.get(k).and_then(WordInfo::value);
        let zsh = self.zsh();
        match infos.len() {
            3 => {
                let o = op(1).unwrap_or_default();
                if matches!(
                    o.as_slice(),
                    b"-eq" | b"-ne" | b"-lt" | b"-le" | b"-gt" | b"-ge"
                ) {
                    for k in [0, 2] {
                        let e = self.word_expr(&infos[k]);
                        self.site(
                            infos[k].start,
                            Evaluator::Arithmetic,
                            "[[ -eq ]] and the other integer comparisons",
                            e,
                            None,
                        );
                    }
                }
                // The matched text: bash's BASH_REMATCH (`=~`), zsh's match variables (`=~`,
                // and patterns with backreference flags). (zsh's MBEGIN and MEND are the
                // match's offsets, numbers: integers the shell sets, which a later
                // assignment evaluates, [`super::builtins::integer_special`].)
                let matches = o == b"=~" || (zsh && matches!(o.as_slice(), b"=" | b"==" | b"!="));
                if matches {
                    let v = self.word_expr(&infos[0]).part(ByteSet::EMPTY);
                    for n in [&b"BASH_REMATCH"[..], b"MATCH", b"match", b"mbegin", b"mend"] {
                        let t = self.var(n);
                        self.assign(Target::Var(t), v.clone(), infos[0].start, ctx);
                    }
                }
            }
            2 => match op(0).as_deref() {
                Some(b"-v") => {
                    let e = self.word_expr(&infos[1]);
                    self.site(infos[1].start, Evaluator::Name, "[[ -v ]]", e, None);
                }
                Some(b"-t") if zsh => {
                    let e = self.word_expr(&infos[1]);
                    self.site(
                        infos[1].start,
                        Evaluator::Arithmetic,
                        "zsh [[ -t ]]",
                        e,
                        None,
                    );
                }
                _ => {}
            },
            _ => {}
        }
        Ok(())
    }
}

/// `old` (or nothing) and `value`, joined: what `+=` leaves.
/// The judge's name for a function whose name word the walk does not know
/// ([`super::facts::ANY_FUNCTION`]), narrowed by the literal text the word starts and ends
/// with (`_${p}_max` starts with `_` and ends with `_max`, whatever `p` is), up to a byte
/// that zsh may expand there ([`super::builtins::zsh_name_ends`]). A leading `=` or `~`
/// makes a path of it, and so any name; a value that may be globbed (`${~p}`, where the
/// command may turn GLOB_SUBST on) may hold `(#i)` or `~`, which change what the text
/// after it matches: no end is known then.
fn unknown_function_name(info: &WordInfo, may_glob_values: bool) -> Vec<u8> {
    // (A word that may split defines a function per word, `_${p}_m` with `p=(x y)` defines
    // `_x` and `y_m`: only the first starts, only the last ends, as the word does. Unquoted
    // expansions, `"$@"`, flags, subscripts.)
    let may_split = info.split
        || info.unread
        || info.pieces.iter().any(|p| {
            matches!(p, Piece::Param(p) if p.flags
                || p.zsh_keys
                || matches!(p.name.as_slice(), b"@" | b"*" | b"argv")
                || p.subscript.is_some()
                || p.zsh_subscript.is_some())
        });
    if may_split {
        return super::facts::ANY_FUNCTION.to_vec();
    }
    let glob_value = info
        .pieces
        .iter()
        .any(|p| matches!(p, Piece::Param(p) if p.zsh_glob || may_glob_values));
    let prefix: &[u8] = match info.pieces.first() {
        Some(Piece::Lit(l)) if !matches!(l.first(), Some(b'=' | b'~')) => {
            &l[..super::builtins::zsh_name_ends(l, false).0]
        }
        Some(Piece::Lit(_)) => return super::facts::ANY_FUNCTION.to_vec(),
        _ => b"",
    };
    let suffix: &[u8] = match info.pieces.last() {
        Some(Piece::Lit(l)) if info.pieces.len() > 1 && !glob_value => {
            &l[l.len() - super::builtins::zsh_name_ends(l, true).1..]
        }
        _ => b"",
    };
    if prefix.is_empty() && suffix.is_empty() {
        return super::facts::ANY_FUNCTION.to_vec();
    }
    super::facts::any_function_fitting(prefix, suffix)
}

fn appended_to(mut old: Expr, value: Expr) -> Expr {
    old.join(Expr::lit(b""));
    Expr::glue(vec![old, value])
}

/// Whether `name` is one of zsh's positional parameters (`1`, `@`, `*`, `argv`); `0` is
/// not.
fn positional(name: &[u8]) -> bool {
    matches!(name, b"@" | b"*" | b"argv")
        || (!name.is_empty() && name != b"0" && name.iter().all(u8::is_ascii_digit))
}

/// Whether an assignment word's value is a compound list (`name=(…)`).
/// The first element of a list assignment's text (`a=(kubectl apply -f -)`), where it is a
/// plain word: letters, digits and `_./:+-@%,=` up to a blank or the closing parenthesis.
fn plain_head(text: &[u8]) -> Option<&[u8]> {
    let eq = crate::shell::syntax::assignment(text, false)?;
    let list = text.get(eq + 2..text.len().checked_sub(1)?)?;
    let start = list.iter().position(|c| !matches!(c, b' ' | b'\t'))?;
    let rest = &list[start..];
    let end = rest
        .iter()
        .position(|c| matches!(c, b' ' | b'\t'))
        .unwrap_or(rest.len());
    let head = &rest[..end];
    (!head.is_empty()
        && head
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"_./:+-@%,=".contains(c)))
    .then_some(head)
}

fn is_compound(w: &Word) -> bool {
    let b = w.text.bytes();
    crate::shell::syntax::assignment(b, false)
        .is_some_and(|eq| b.get(eq + 1) == Some(&b'(') && b.last() == Some(&b')'))
}

/// Every name [`special_change`] knows, in either dialect.
pub(super) const SPECIAL_CHANGES: [&[u8]; 12] = [
    b"BASH_ALIASES",
    b"POSIXLY_CORRECT",
    b"BASH_COMPAT",
    b"aliases",
    b"dis_aliases",
    b"galiases",
    b"saliases",
    b"dis_galiases",
    b"dis_saliases",
    b"histchars",
    b"HISTCHARS",
    b"options",
];

/// What assigning a special variable changes in how later text is read (and whether
/// only a value that may reshape text changes it).
/// A locale's name known exactly that reads bytes as ASCII or UTF-8: `C`, `POSIX`, empty, or
/// one whose codeset is UTF-8 with no modifier (`zh_CN.GBK@utf8` is GBK where a directory
/// holds it).
fn plain_locale(value: &Expr) -> bool {
    let [Src::Val(v)] = value.0.as_slice() else {
        return false;
    };
    plain_locale_val(v)
}

/// [`plain_locale`] of a value.
pub(super) fn plain_locale_val(v: &Val) -> bool {
    // (Inexact text, even of the exact texts' bytes alone, may spell any name: `${a%utf8}`
    // glued to `${b%.utf8}` of `zh_CN.utf8` and `GBK.utf8` is `zh_CN.GBK`, round 70.)
    v.fixed.is_none()
        && v.heredoc.is_none()
        && v.htexts.is_empty()
        && !v.unknown
        && (!v.env || environment_locale_plain())
        && (!v.lits.is_empty() || v.env)
        && v.lits.iter().all(|l| plain_locale_name(l))
}

/// A locale's name that reads bytes as ASCII or UTF-8: `C`, `POSIX`, empty, or a UTF-8
/// codeset with no modifier.
fn plain_locale_name(l: &[u8]) -> bool {
    let l = l.to_ascii_lowercase();
    let codeset = l.iter().position(|&c| c == b'.').map(|d| &l[d + 1..]);
    matches!(l.as_slice(), b"" | b"c" | b"posix")
        || codeset.is_some_and(|c| matches!(c, b"utf-8" | b"utf8"))
}

/// Whether every locale variable of the guard's own environment (the agent's, which the
/// shell it runs inherits) names a plain locale: a value the command takes from the
/// environment (`LC_ALL=${LANG:-C.UTF-8}`) then changes nothing about how text is read.
fn environment_locale_plain() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .all(|n| std::env::var_os(n).is_none_or(|v| plain_locale_name(v.as_encoded_bytes())))
}

/// The variables whose value is the locale bash reads text in.
pub(super) fn locale_name(name: &[u8]) -> bool {
    matches!(name, b"LC_ALL" | b"LC_CTYPE" | b"LANG")
}

/// What a change of locale is, for its finding.
pub(super) const LOCALE_CHANGE: &str = "a locale, in which bash may read a byte past ASCII and a \\ or quote after it as one character";

pub(super) fn special_change(name: &[u8], zsh: bool) -> Option<(&'static str, bool)> {
    Some(match name {
        b"BASH_ALIASES" if !zsh => ("an alias defined through BASH_ALIASES", true),
        // (A disabled one, once `enable -a` turns it on.)
        b"aliases" | b"dis_aliases" if zsh => ("an alias defined through zsh's aliases", true),
        // (Any value: the alias replaces any word, a heredoc's delimiter too.)
        b"galiases" | b"saliases" | b"dis_galiases" | b"dis_saliases" if zsh => (
            "a zsh global or suffix alias defined through its table, which is expanded anywhere in text zsh reads later",
            false,
        ),
        b"histchars" | b"HISTCHARS" if zsh => (
            "zsh's histchars, whose third character starts a comment in text zsh reads later",
            false,
        ),
        b"POSIXLY_CORRECT" if !zsh => (
            "POSIXLY_CORRECT, which turns POSIX mode (and alias expansion) on",
            false,
        ),
        b"BASH_COMPAT" if !zsh => (
            "BASH_COMPAT, which makes bash read later text as an older version",
            false,
        ),
        b"options" if zsh => ("a zsh option set through $options", false),
        _ => return None,
    })
}

/// The bytes a brace word's sequences may make that its text does not hold: `{a..c}`
/// makes `b`, `{Z..a}` makes `[`, a backquote and more, zsh's `{a-c}` (`BRACE_CCL`) too.
/// Every byte between the least and the greatest of the word's own (its braces, commas and
/// dots aside), every digit where it holds one; in zsh, where a sequence's ends are expanded first (`{$a..$b}`), any
/// printable byte.
fn brace_sequence_bytes(w: &WordInfo, zsh: bool) -> ByteSet {
    let lits = || {
        w.pieces.iter().filter_map(|p| match p {
            Piece::Lit(l) => Some(l.as_slice()),
            _ => None,
        })
    };
    let ranged = zsh || lits().any(|l| crate::search::find(l, b"..").is_some());
    if !ranged {
        return ByteSet::EMPTY;
    }
    // (A sequence's end past ASCII, `{a..é}`, spans every letter between.)
    if lits().flatten().any(|c| !c.is_ascii())
        || (zsh && w.pieces.iter().any(|p| !matches!(p, Piece::Lit(_))))
    {
        let all: Vec<u8> = (0x20..=0x7e).chain(0x80..=0xff).collect();
        return ByteSet::of(&all);
    }
    let own = lits()
        .flatten()
        .copied()
        .filter(|c| c.is_ascii() && !matches!(c, b'{' | b'}' | b',' | b'.'));
    let (lo, hi) = own.fold((u8::MAX, 0u8), |(lo, hi), c| (lo.min(c), hi.max(c)));
    if lo > hi {
        return ByteSet::EMPTY;
    }
    let mut range: Vec<u8> = (lo..=hi).collect();
    if range.iter().any(u8::is_ascii_digit) {
        // A number's sequence: every digit, and a sign (`{1..10}` makes `5`).
        range.extend_from_slice(b"0123456789-");
    }
    ByteSet::of(&range)
}

/// Whether commands (a function's body and its redirections) may give heredoc text: a
/// heredoc or here-string operator, or `<<` in a word (`eval` text, a substitution).
fn may_give_heredoc_text(nodes: &[(Node<'_>, Feed)], redirects: &[&Redirect]) -> bool {
    let gives = |r: &Redirect| {
        matches!(r.op, RedirOp::Heredoc | RedirOp::HereString)
            || r.target
                .as_ref()
                .is_some_and(|t| crate::search::find(t.text.bytes(), b"<<").is_some())
    };
    redirects.iter().any(|r| gives(r))
        || nodes.iter().any(|(n, _)| match n {
            Node::Simple(c) => {
                c.redirects.iter().any(gives)
                    || c.words
                        .iter()
                        .any(|w| crate::search::find(w.text.bytes(), b"<<").is_some())
            }
            Node::Compound {
                children,
                redirects,
                ..
            } => may_give_heredoc_text(children, redirects),
            _ => false,
        })
}
