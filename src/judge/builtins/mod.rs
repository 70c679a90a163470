//! What a command does, by its name: a table of the builtins of bash and zsh that assign
//! variables, reach a hidden evaluator or change how later text is read, and what each
//! prints. Every other command (an external program, a function, a builtin that does none
//! of these) changes no variable the guard follows, and prints run-time text.
//!
//! A command named at run time (`$cmd`, `"$@"`) is explicit evaluation under the promise
//! (the command runs a value as a command name): not followed. So are `eval`, `source`,
//! `trap`, `fc`, interpreters, functions and anything that rebinds a name: the reader reads
//! literal `eval` and `trap` text as programs of their own.

mod declare;
mod getopt;
mod input;
mod options;
mod output;
mod run;

use declare::declare;
use input::{getopts, mapfile, read};
use options::{alias, set, setopt, shopt, zsh_assigning};
use output::{cat, print, program_output};

use super::GaveUp;
use super::evaluators::Evaluator;
use super::facts::{Expr, Needs, Src, Target, When};
use super::value::{ByteSet, Val};
use super::walk::{Ctx, SHELL_STDIN, Walk};
use crate::shell::tree::{RedirOp, SimpleCommand, Word};
use crate::shell::word::{Piece, WordInfo};

/// What a command does with its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Prints its arguments (`echo`, `printf`, zsh `print`); `printf -v`/`print -v` assign.
    Print,
    /// `cat`: prints its input or files.
    Cat,
    /// `declare`, `typeset`, `local`, `export`, `readonly`, zsh `integer`, `float`.
    Declare,
    /// `read` (zsh also `vared`, `getln`): assigns what it reads.
    Read,
    /// `mapfile`, `readarray`.
    Mapfile,
    Getopts,
    Let,
    Unset,
    /// `test`, `[`: `-v` names a variable.
    Test,
    /// `cd`, `pushd`, `popd`, zsh `chdir`: `PWD`, `OLDPWD`, `DIRSTACK`.
    Cd,
    Wait,
    Compgen,
    Shopt,
    Set,
    /// zsh `setopt`, `unsetopt`.
    Setopt,
    Emulate,
    /// `alias`, `unalias`.
    Alias,
    /// zsh's builtins that evaluate a numeric argument (`shift`, `return`, `exit`,
    /// `break`, `continue`); in bash a plain number.
    Numeric,
    /// zsh `zparseopts`, `zformat`, `zregexparse`, `zstyle`, and the modules' builtins
    /// (`strftime -s`, `sysread`, `zstat -A`, `private`…): assign named variables.
    ZshAssigning,
    /// Prints nothing and assigns nothing the guard follows.
    Quiet,
    /// Anything else: assigns nothing the guard follows, prints run-time text.
    Other,
}

/// The table: a command name and what it does, in bash and in zsh.
#[rustfmt::skip]
const TABLE: &[(&[u8], Kind, Kind)] = {
    use Kind::*;
    &[
        (b"echo", Print, Print), (b"printf", Print, Print), (b"print", Other, Print), (b"pushln", Other, Print),
        (b"cat", Cat, Cat),
        (b"declare", Declare, Declare), (b"typeset", Declare, Declare),
        (b"local", Declare, Declare), (b"export", Declare, Declare),
        (b"readonly", Declare, Declare), (b"integer", Other, Declare), (b"float", Other, Declare),
        (b"read", Read, Read), (b"vared", Other, Read), (b"getln", Other, Read),
        (b"mapfile", Mapfile, Other), (b"readarray", Mapfile, Other),
        (b"getopts", Getopts, Getopts), (b"let", Let, Let), (b"unset", Unset, Unset),
        (b"test", Test, Test), (b"[", Test, Test),
        (b"cd", Cd, Cd), (b"pushd", Cd, Cd), (b"popd", Cd, Cd), (b"chdir", Other, Cd),
        (b"wait", Wait, Quiet), (b"compgen", Compgen, Other),
        (b"shopt", Shopt, Other), (b"set", Set, Set),
        (b"setopt", Other, Setopt), (b"unsetopt", Other, Setopt), (b"emulate", Other, Emulate),
        (b"alias", Alias, Alias), (b"unalias", Alias, Alias),
        (b"shift", Quiet, Numeric), (b"return", Quiet, Numeric), (b"exit", Quiet, Numeric),
        (b"break", Quiet, Numeric), (b"continue", Quiet, Numeric),
        (b"zparseopts", Other, ZshAssigning), (b"zformat", Other, ZshAssigning),
        (b"zregexparse", Other, ZshAssigning), (b"zstyle", Other, ZshAssigning),
        (b"strftime", Other, ZshAssigning), (b"sysopen", Other, ZshAssigning),
        (b"syserror", Other, ZshAssigning), (b"sysread", Other, ZshAssigning),
        (b"zstat", Other, ZshAssigning), (b"private", Other, ZshAssigning),
        (b"pcre_match", Other, ZshAssigning), (b"zsystem", Other, ZshAssigning),
        (b"zselect", Other, ZshAssigning), (b"zpty", Other, ZshAssigning),
        (b"ztcp", Other, ZshAssigning), (b"zsocket", Other, ZshAssigning),
        (b"zgetattr", Other, ZshAssigning), (b"zlistattr", Other, ZshAssigning),
        (b"zcurses", Other, ZshAssigning), (b"sysseek", Other, ZshAssigning),
        (b"syswrite", Other, ZshAssigning), (b"stat", Other, ZshAssigning),
        (b"bye", Quiet, Numeric), (b"logout", Quiet, Numeric),
        (b":", Quiet, Quiet), (b"true", Quiet, Quiet), (b"false", Quiet, Quiet),
        (b"trap", Other, Other), (b"umask", Quiet, Quiet), (b"ulimit", Quiet, Quiet),
        (b"kill", Quiet, Quiet), (b"disown", Quiet, Quiet), (b"eval", Other, Other),
    ]
};

fn kind(name: &[u8], zsh: bool) -> Kind {
    // A path runs the program, never a builtin (`/bin/echo` still prints its words).
    let base = name.rsplit(|&c| c == b'/').next().unwrap_or(name);
    let path = base.len() != name.len();
    match TABLE.iter().find(|(n, _, _)| *n == base) {
        Some((_, b, z)) => {
            let k = if zsh { *z } else { *b };
            match (path, k) {
                (false, k) | (true, k @ (Kind::Print | Kind::Cat | Kind::Quiet)) => k,
                (true, _) => Kind::Other,
            }
        }
        None => Kind::Other,
    }
}

/// Integer variables the shell itself declares: assigning one evaluates the value.
pub(super) fn integer_special(name: &[u8], zsh: bool) -> bool {
    if zsh {
        matches!(
            name,
            b"SECONDS"
                | b"RANDOM"
                | b"OPTIND"
                | b"HISTSIZE"
                | b"SAVEHIST"
                | b"COLUMNS"
                | b"LINES"
                | b"SHLVL"
                | b"MAILCHECK"
                | b"KEYTIMEOUT"
                | b"LISTMAX"
                | b"ERRNO"
                | b"FUNCNEST"
                | b"TRY_BLOCK_ERROR"
                | b"TRY_BLOCK_INTERRUPT"
                | b"ZLE_RPROMPT_INDENT"
                | b"UID"
                | b"EUID"
                | b"GID"
                | b"EGID"
                | b"LOGCHECK"
                // (Read as numbers by `cd` and `pushd`, after each command, or by zle.)
                | b"DIRSTACKSIZE"
                | b"REPORTTIME"
                | b"REPORTMEMORY"
                | b"PERIOD"
                | b"TMOUT"
                // (Made integers by any match: `=~`, `(#m)` in a pattern, whatever was
                // before; taken as integers wherever assigned, round 101.)
                | b"MBEGIN"
                | b"MEND"
                | b"BAUD"
                // (zsh/example's integer, once `zmodload zsh/example`, round 102.)
                | b"exint"
        )
    } else {
        // RANDOM and SRANDOM from bash 5.1 (taken for every version).
        matches!(name, b"OPTIND" | b"HISTCMD" | b"RANDOM" | b"SRANDOM")
    }
}

/// Whether a word may give no word at all: it has no literal text (quotes removed) that
/// stays whatever its expansions give (`$o`, `"$@"`, `${a[@]}`), or may be a glob that
/// matches nothing under `nullglob`.
fn may_give_no_word(w: &Walk<'_>, word: &WordInfo) -> bool {
    // (Literal text too, where the command may remove a word that globs: beside an
    // unquoted expansion or a glob of its own, under `nullglob`, zsh's `${^a}` of an empty
    // array, `(N)`, `rc_expand_param`: [`Walk::text_may_remove_globs`].)
    // (A `${~v}` value may hold its own `(N)` qualifier, and `${^a}` an empty array:
    // whatever the options.)
    word.pieces
        .iter()
        .all(|p| !matches!(p, Piece::Lit(l) if !l.is_empty()))
        || word.pieces.iter().any(|p| match p {
            Piece::Param(p) => p.zsh_glob,
            _ => false,
        })
        || crate::search::contains(&word_text(w, word), b"$^")
        || crate::search::contains(&word_text(w, word), b"${^")
        || ((word.many || word.split) && w.text_may_remove_globs())
}

/// The command's text of a word (empty where the walk has no text).
fn word_text(w: &Walk<'_>, word: &WordInfo) -> Vec<u8> {
    w.source_text()
        .and_then(|t| t.get(word.start as usize..word.end as usize))
        .map(<[u8]>::to_vec)
        .unwrap_or_default()
}

/// Where `jobs`'s words (after its name) leave the command `jobs -x` runs: the index of
/// its name among them; `None` where no `-x` is given. (A word computed at run time may be
/// an option that holds the `x`: it is then the index.)
fn jobs_runs(words: &[WordInfo]) -> Option<usize> {
    let mut x = false;
    for (k, w) in words.iter().enumerate() {
        match w.value().as_deref() {
            Some(b"--") => return x.then_some(k + 1),
            Some([b'-', o @ ..]) if !o.is_empty() && o.iter().all(|c| b"lpnxrs".contains(c)) => {
                x |= o.contains(&b'x');
            }
            None => return Some(k),
            Some(_) => return x.then_some(k),
        }
    }
    None
}

/// Integer variables of the shell that `name+=value` evaluates the value for (before the
/// shell ignores it or refuses a read-only one), where a plain `name=value` may not: the
/// ones [`integer_special`] names, and bash's `BASHPID` and `LINENO` (3.2, 4.4), zsh's
/// read-only integers and those its modules make (`zsh/datetime`, `zsh/curses`) (round
/// 100, measured in every shell).
pub(crate) fn integer_on_append(name: &[u8], zsh: bool) -> bool {
    integer_special(name, zsh)
        || if zsh {
            matches!(
                name,
                b"LINENO"
                    | b"PPID"
                    | b"status"
                    | b"ARGC"
                    | b"TTYIDLE"
                    | b"ZSH_SUBSHELL"
                    | b"HISTCMD"
                    | b"EPOCHSECONDS"
                    | b"EPOCHREALTIME"
                    | b"SRANDOM"
                    | b"ZCURSES_COLORS"
                    | b"ZCURSES_COLOR_PAIRS"
            )
        } else {
            matches!(name, b"BASHPID" | b"LINENO")
        }
}

/// Whether `eval`'s text starts with a command name written whole, other than `alias` or
/// a wrapper that runs its argument (`builtin`, `command`, `time`…) (`eval "git $opts"`):
/// its first word, literal and ended by a blank.
fn starts_with_other_name(args: &[WordInfo]) -> bool {
    let Some(Piece::Lit(l)) = args.first().and_then(|a| a.pieces.first()) else {
        return false;
    };
    let l = &l[l.iter().take_while(|c| matches!(c, b' ' | b'\t')).count()..];
    let word = l
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'-')
        .count();
    word > 0
        && !matches!(
            &l[..word],
            b"alias"
                | b"builtin"
                | b"command"
                | b"time"
                | b"exec"
                | b"eval"
                | b"nocorrect"
                | b"noglob"
        )
        && matches!(l.get(word), Some(b' ' | b'\t'))
}

/// Whether a word's literal parts spell `alias` (or `ALIAS`, as `BASH_ALIASES` does).
fn spells_alias(a: &WordInfo) -> bool {
    a.pieces.iter().any(|p| match p {
        Piece::Lit(l) => {
            crate::search::find(l, b"alias").is_some() || crate::search::find(l, b"ALIAS").is_some()
        }
        _ => false,
    })
}

/// The literal text of each word (`None` where it expands).
fn literals(words: &[WordInfo]) -> Vec<Option<Vec<u8>>> {
    words.iter().map(WordInfo::literal).collect()
}

/// The words with zsh's `^c` (a glob under `extendedglob`, which the reading does not take
/// for one) marked as globs, where one is among them.
pub(super) fn caret_globs(w: &Walk<'_>, args: &[WordInfo]) -> Option<Vec<WordInfo>> {
    args.iter().any(|a| w.caret_glob(a)).then(|| {
        args.iter()
            .map(|a| {
                let mut g = a.clone();
                g.many |= w.caret_glob(a);
                g
            })
            .collect()
    })
}

/// The words' literal values, none for a glob, brace or tilde word that is not shaped as an
/// assignment: it may become any word, an option among them.
fn as_options_may_be(args: &[WordInfo], lits: Vec<Option<Vec<u8>>>) -> Vec<Option<Vec<u8>>> {
    args.iter()
        .zip(lits)
        .map(|(a, l)| {
            let assignment = l
                .as_deref()
                .is_some_and(|v| crate::shell::syntax::assignment(v, false).is_some());
            if (a.many || a.brace || a.tilde) && !assignment {
                None
            } else {
                l
            }
        })
        .collect()
}

/// The words' literal values, none for a glob or brace word: it may become any words, an
/// option and a name among them (`printf *`, `[ * ]` with files named `-v` and `a[i]`).
pub(super) fn unglobbed(args: &[WordInfo], lits: &[Option<Vec<u8>>]) -> Vec<Option<Vec<u8>>> {
    args.iter()
        .zip(lits)
        .map(|(a, l)| if a.many || a.brace { None } else { l.clone() })
        .collect()
}

/// A builtin that takes a variable's name after an option, in an option word or as an
/// operand, given words computed at run time: each such word (which may be the option and
/// its name, `"$@"`, `-a"$x"`, or the name itself) and the word after it are evaluated as
/// names, whose subscripts run (zsh's `zparseopts`, `zstyle`, `zformat`, `getopts`,
/// `print`, `read` with options it does not know).
pub(super) fn computed_names(
    w: &mut Walk<'_>,
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    what: &'static str,
) {
    for k in 0..args.len() {
        let computed = lits.get(k).is_none_or(Option::is_none)
            || args.get(k).is_some_and(|a| !w.one_argument(a));
        if !computed {
            continue;
        }
        for word in args
            .get(k)
            .into_iter()
            .chain(args.get(k + 1))
            .collect::<Vec<_>>()
        {
            let e = w.word_expr(word);
            w.site(word.start, Evaluator::Name, what, e, None);
        }
    }
}

/// Text run that the guard does not read: `eval` of text computed at run time, a command
/// named at run time (`name`: which may be `eval`, `read`, `declare`, `set`…). What it runs
/// is explicit; what it assigns is not followed (`n=x; eval "$n=\$k"`, `c=read; $c -r x
/// <<< "$k"`, `eval "$(echo declare -n x=k)"`): any variable may get the heredoc and
/// run-time text any variable holds, the words hold, or it reads (a program's output too:
/// `$_` holds it, and what runs may copy it anywhere). It may also give any name an
/// attribute or set any option for the lines after it, as `declare $opt x` and `set $opt`
/// may ([`super::facts::Facts::unread_runs`]).
fn runs_unread_text(
    w: &mut Walk<'_>,
    command_at: u32,
    at: u32,
    words: &[WordInfo],
    text: Expr,
    stdin: Expr,
    name: Option<Expr>,
) {
    // What it may assign itself (left out where what it leaves the rest of the command is
    // judged): any variable's text, its words', its input's. The data it is given, copied
    // (kept there): a named command's words, the input.
    let gate = |g: Gate| name.clone().map(|n| (std::rc::Rc::new(n), g));
    let mut value = Expr(vec![Src::AnyVar]);
    value.join(text.clone());
    let mut effects = vec![
        Src::EvalAssigns(std::rc::Rc::new(value), gate(Gate::Copies)),
        Src::EvalAssigns(std::rc::Rc::new(stdin.clone()), gate(Gate::ReadsInput)),
        Src::RunCopies(std::rc::Rc::new(stdin), gate(Gate::ReadsInput)),
    ];
    if name.is_some() {
        effects.push(Src::RunCopies(std::rc::Rc::new(text), gate(Gate::Copies)));
    }
    for e in effects {
        w.facts.assign(Target::Any, Expr(vec![e]), at);
    }
    if name.is_none() {
        // (`eval` may give case attributes; `set -v`: the judge.)
        w.facts.any_case = true;
    }
    // (A name made of the positional parameters, however: `"$@"`, `$argv[2,-1]`.)
    let positional = words.first().is_some_and(|first| {
        first.pieces.iter().any(|p| {
            matches!(p, Piece::Param(p) if matches!(p.name.as_slice(), b"@" | b"*" | b"argv")
                || p.name.iter().all(u8::is_ascii_digit))
        })
    });
    if let (true, Some(f)) = (positional, w.function_named.clone()) {
        // (zsh expands a definition's name, `=cat() { "$@"; }` is `/usr/bin/cat`'s: such
        // a function may be the one any call names.)
        // (Kept by its name as written: [`runs_for_call`] reads what it may be.)
        w.facts.positional_runners.push(std::rc::Rc::from(&f[..]));
    }
    if name.is_some() {
        // It may be a builtin that evaluates its arguments as names, arithmetic or words
        // (`test -v`, `unset`, `let`, `declare -i x=`, `compgen -W`): each argument there,
        // and an array's other elements (`cmd=(test -v "$k"); "${cmd[@]}"`).
        let k = w.facts.unread_runs.len();
        if let Some(first) = words.first()
            && let Some(Expr(srcs)) = array_head(w, first)
            && let [Src::Head(v)] = srcs.as_slice()
        {
            argument_sites(w, first.start, Expr::var(*v), k);
        }
        for a in words.iter().skip(1) {
            let e = w.word_expr(a);
            argument_sites(w, a.start, e, k);
        }
    }
    let explicit = whole_values(w, words);
    let f = &mut w.facts;
    let index = f.assigns.len();
    let anywhere = f.deferred > 0 || f.repeating > 0;
    let from = if anywhere { 0 } else { index };
    let from_site = if anywhere { 0 } else { f.sites.len() };
    f.unread_runs.push(super::facts::UnreadRun {
        at,
        command_at,
        name,
        explicit,
        index,
        from,
        from_site,
        call_of: None,
        positional,
    });
}

/// Names a literal assignment in an inert preamble may not give a value: those that
/// change where a file name leads or what runs (`PATH`, `HOME`, `CDPATH`, `PS4`…).
fn special_name(n: &[u8]) -> bool {
    matches!(
        n,
        b"PATH"
            | b"HOME"
            | b"CDPATH"
            | b"PWD"
            | b"OLDPWD"
            | b"IFS"
            | b"PS4"
            | b"PROMPT4"
            | b"ENV"
            | b"FPATH"
            | b"GLOBIGNORE"
            | b"path"
            | b"cdpath"
            | b"fpath"
            | b"home"
            | b"argv"
            | b"options"
            | b"functions"
            | b"aliases"
            | b"NULLCMD"
            | b"READNULLCMD"
            | b"LANG"
            | b"TMPPREFIX"
            | b"module_path"
            | b"MODULE_PATH"
            | b"manpath"
    ) || n.starts_with(b"BASH")
        || n.starts_with(b"LC_")
        || n.ends_with(b"_functions")
        || n.starts_with(b"ZSH")
        || n.starts_with(b"LD_")
        || n.starts_with(b"SHELL")
}

/// Whether a function the command defines may stand for `name` (`cd(){ …; }`), or may run
/// beside it as one of zsh's hooks (`chpwd`, `TRAPZERR`, `TRAPEXIT`, `precmd`…): the
/// command defines one by that name, or any hook, or names one otherwise than plainly.
fn shadowed(w: &Walk<'_>, name: &[u8]) -> bool {
    let (own, computed) = &*w.own_functions;
    *computed
        || own.contains(name)
        || own.iter().any(|f| {
            f.starts_with(b"TRAP")
                || matches!(
                    f.as_slice(),
                    b"chpwd"
                        | b"precmd"
                        | b"preexec"
                        | b"periodic"
                        | b"zshaddhistory"
                        | b"zshexit"
                        | b"command_not_found_handler"
                        | b"command_not_found_handle"
                )
        })
}

/// A word made only of literal text and plain parameters (`$x`, `${x}`), with no byte
/// a shell may read as a glob, a subscript, a tilde or a brace: what it says is what it
/// is, and expanding it runs nothing.
fn plain_word(w: &WordInfo) -> bool {
    w.pieces.iter().all(|p| match p {
        Piece::Lit(l) => !l.iter().any(|c| {
            matches!(
                c,
                b'*' | b'?'
                    | b'['
                    | b']'
                    | b'('
                    | b')'
                    | b'~'
                    | b'{'
                    | b'}'
                    | b'='
                    | b'^'
                    | b'#'
                    | b'<'
                    | b'>'
                    | b'|'
                    | b'`'
                    | b'$'
                    | b'\\'
            )
        }),
        Piece::Param(p) => plain_param(p),
        _ => false,
    })
}

/// A parameter expanded as its plain value: `$x`, `${x}`, with no operator, subscript
/// (zsh's `$x[1]` too), slice, indirection or flag (zsh's `(e)`, `~`, `(#)`, `(k)`…).
fn plain_param(p: &crate::shell::word::Param) -> bool {
    p.op == crate::shell::word::ParamOp::Plain
        && !p.indirect
        && p.subscript.is_none()
        && p.zsh_subscript.is_none()
        && p.arg.is_none()
        && p.slice.is_empty()
        && !p.flags
        && !p.zsh_eval
        && !p.zsh_glob
        && !p.zsh_char
        && !p.zsh_keys
        && p.flag_words.is_none()
}

/// Whether text names a device or the process's own files (`dev`, `proc`, `fd`, in any
/// case): a sourced name that may lead to the command's own input or text.
pub(super) fn names_device(text: &[u8]) -> bool {
    let low = text.to_ascii_lowercase();
    [&b"dev"[..], b"proc", b"fd"]
        .iter()
        .any(|d| crate::search::find(&low, d).is_some())
}

/// Whether a simple command the walk met at the top level is inert: it cannot write a
/// file, run a program or a function, evaluate anything, or change where a file name
/// leads. Literal assignments (not to [`special_name`]s, no arrays, no subscripts),
/// `export`, `readonly`, `declare -x/-r/-g`, `set`, `shopt`, `:`, `true`, `false`, a test
/// of plain words (`test`, `[ … ]`),
/// `umask`, `unset` of plain names, `cd`/`pushd` to a plain directory that names no
/// device, `exec` with redirections alone; every word made of literal text and plain
/// parameters; no heredoc or here-string; output only to `/dev/null` or a descriptor. An
/// `.` or `source` of an environment's file is inert too ([`sourced`] says which).
pub(super) fn inert(
    w: &Walk<'_>,
    c: &SimpleCommand,
    assignments: &[crate::shell::word::Assignment],
    infos: &[WordInfo],
    targets: &[WordInfo],
    environment_source: bool,
) -> bool {
    let mut target = targets.iter();
    for r in &c.redirects {
        if matches!(r.op, RedirOp::Heredoc | RedirOp::HereString) {
            return false;
        }
        let t = target.next().and_then(WordInfo::literal);
        let ok = match r.op {
            RedirOp::Output | RedirOp::ReadWrite => t.as_deref() == Some(b"/dev/null"),
            RedirOp::Duplicate => {
                t.is_some_and(|t| t.as_slice() == b"-" || t.iter().all(u8::is_ascii_digit))
            }
            RedirOp::Input => t.is_some(),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    for (a, raw) in assignments.iter().zip(&c.words) {
        let after = raw
            .text
            .bytes()
            .get(a.name.len() + 1 + usize::from(a.append)..);
        if !crate::shell::syntax::legal_identifier(&a.name)
            || special_name(&a.name)
            || a.subscript.is_some()
            || after.is_some_and(|b| b.first() == Some(&b'('))
            || !a.value.pieces.iter().all(|p| match p {
                Piece::Lit(_) => true,
                Piece::Param(p) => plain_param(p),
                _ => false,
            })
        {
            return false;
        }
    }
    let Some(first) = infos.first() else {
        // Redirections alone run zsh's `$NULLCMD` or `$READNULLCMD`.
        return c.redirects.is_empty();
    };
    let Some(name) = first.value() else {
        return false;
    };
    if shadowed(w, &name) {
        return false;
    }
    let args = &infos[1..];
    let options = |allowed: &[u8]| {
        args.iter().all(|a| match a.literal() {
            Some(l) if l.starts_with(b"-") || l.starts_with(b"+") => {
                l.len() > 1 && l[1..].iter().all(|c| allowed.contains(c))
            }
            _ => true,
        })
    };
    // Names, or `name=value` of literal text and plain parameters.
    let declarations = || {
        args.iter().all(|a| {
            a.pieces.iter().all(|p| match p {
                Piece::Lit(l) => !l.iter().any(|c| {
                    matches!(
                        c,
                        b'*' | b'?' | b'[' | b']' | b'(' | b')' | b'~' | b'`' | b'$' | b'\\'
                    )
                }),
                Piece::Param(p) => plain_param(p),
                _ => false,
            }) && {
                // The name, up to its `=`, is literal text (`export X${e}=…` may name any
                // variable, `PATH` too) and not a special name.
                let mut name = Vec::new();
                let mut literal = true;
                for p in &a.pieces {
                    match p {
                        Piece::Lit(l) => match memchr::memchr(b'=', l) {
                            Some(eq) => {
                                name.extend_from_slice(&l[..eq]);
                                break;
                            }
                            None => name.extend_from_slice(l),
                        },
                        _ => {
                            literal = false;
                            break;
                        }
                    }
                }
                literal
                    && (name.starts_with(b"-")
                        || name.starts_with(b"+")
                        || (crate::shell::syntax::legal_identifier(&name) && !special_name(&name)))
            }
        })
    };
    let names_no_device = |a: &WordInfo| {
        a.literal().is_some_and(|l| {
            !l.starts_with(b"-")
                && !l.starts_with(b"+")
                && !w.text_names_cdable_vars()
                && !names_device(&l)
        }) && plain_word(a)
    };
    match name.as_slice() {
        b"." | b"source" => environment_source,
        b":" | b"true" | b"false" => args.iter().all(plain_word),
        // (A test of plain words, `[ -f .env ] && . ./.env`: it reads, and evaluates no
        // name or number a plain word can make run anything.)
        b"test" => args.iter().all(plain_word),
        b"[" => args.split_last().is_some_and(|(last, rest)| {
            last.literal().as_deref() == Some(b"]") && rest.iter().all(plain_word)
        }),
        b"exec" => args.is_empty(),
        b"umask" => args.iter().all(plain_word),
        // (Not zsh's `set -A name …`, which assigns an array.)
        b"set" => set_inert(args),
        b"shopt" => {
            // Options that change neither where a name leads nor what runs.
            args.iter().all(|a| {
                a.literal().is_some_and(|l| {
                    matches!(
                        l.as_slice(),
                        b"-s"
                            | b"-u"
                            | b"-q"
                            | b"expand_aliases"
                            | b"extglob"
                            | b"nullglob"
                            | b"globstar"
                            | b"dotglob"
                            | b"failglob"
                            | b"nocaseglob"
                            | b"nocasematch"
                            | b"lastpipe"
                            | b"inherit_errexit"
                    )
                })
            })
        }
        b"export" | b"readonly" => options(b"") && declarations(),
        b"declare" | b"typeset" => options(b"xrg") && declarations(),
        b"unset" => options(b"vf") && args.iter().all(plain_word),
        b"cd" | b"pushd" => args.len() <= 1 && args.iter().all(names_no_device),
        _ => false,
    }
}

/// Whether `set`'s words are inert: the flags `-e -u -x -v -a` (and `+`), `-o`/`+o` with
/// one of the same options by name (each `o` of a cluster taking the next word,
/// `-euo pipefail`), `--` and plain words after it (the positional
/// parameters). Not zsh's other one-letter flags (`-T` is `CDABLE_VARS`, `-A` assigns an
/// array) nor options named otherwise.
fn set_inert(args: &[WordInfo]) -> bool {
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        let Some(l) = a.literal() else {
            return false;
        };
        match l.as_slice() {
            b"--" => return rest.all(plain_word),
            // (Each `o` of a word takes the next word as an option's name, as bash reads
            // them: `-o pipefail`, `-euo pipefail`.)
            f if f.len() > 1
                && (f[0] == b'-' || f[0] == b'+')
                && f[1..]
                    .iter()
                    .all(|c| matches!(c, b'e' | b'u' | b'x' | b'v' | b'a' | b'o')) =>
            {
                for _ in f[1..].iter().filter(|&&c| c == b'o') {
                    let name = rest.next().and_then(WordInfo::literal);
                    if !name.as_deref().is_some_and(|n| {
                        matches!(
                            n,
                            b"errexit"
                                | b"nounset"
                                | b"xtrace"
                                | b"verbose"
                                | b"pipefail"
                                | b"allexport"
                        )
                    }) {
                        return false;
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// `.` or `source`: text the guard does not read (a file, its input) runs in this shell.
/// What it runs is explicit, and so are the functions, aliases and attributes it defines
/// (a receiver the command sets up, or the environment's own). What it copies into
/// variables is not: a hidden evaluator later in the command may read them (`. ./f`,
/// where `f` says `x=$k`, then `${x@P}`). It may copy into any variable any heredoc or
/// run-time text its words (the file's positional parameters) or its input hold (even
/// where its input is the text it runs, `. /dev/stdin <<'EOF'`: what runs may read the
/// rest as data); and, as `eval` of computed text may, any that any
/// variable holds, unless it is the environment's file: sourced at the top level after
/// nothing but inert commands ([`inert`]: nothing could have written a file, run code or
/// moved a name), with no assignment before its name, by a name of literal text and
/// parameters the command has not assigned that names no device (`dev`, `proc`, `fd`, in
/// any case) and starts with no `-` or `~` (`. ./test-lib.sh` at a test's top, `source
/// .venv/bin/activate` first). Returns whether it was.
fn sourced(
    w: &mut Walk<'_>,
    at: u32,
    path: Option<&WordInfo>,
    prefixed: bool,
    other_fd: bool,
    words: Expr,
    stdin: Expr,
) -> bool {
    let environment = w.inert_so_far
        && !shadowed(w, b".")
        && !shadowed(w, b"source")
        && !prefixed
        && w.facts.deferred == 0
        && w.facts.repeating == 0
        && path.is_some_and(|p| {
            // (Its literal text joined, quotes removed and parameters left out: `/pr''oc`
            // and `/pr${e}oc` name `/proc`.)
            let joined = p.written_text();
            plain_word(p)
                && !joined.starts_with(b"-")
                && !names_device(&joined)
                && p.pieces.iter().all(|piece| match piece {
                    Piece::Lit(_) => true,
                    Piece::Param(p) => {
                        // Not assigned so far, by any spelling zsh ties to it (`psvar` and
                        // `PSVAR`, `argv` and the positional parameters), nor by a name
                        // computed at run time (an environment's file's copies aside).
                        let n = &p.name;
                        crate::shell::syntax::legal_identifier(n)
                            && n.as_slice() != b"argv"
                            && !special_name(n)
                            && !w.facts.assigns.iter().any(|(t, e, _)| match t {
                                Target::Var(x) => w.facts.names.name(*x).eq_ignore_ascii_case(n),
                                Target::Any => {
                                    !e.0.iter().all(|s| matches!(s, Src::SourceCopies(_)))
                                }
                            })
                    }
                    _ => false,
                })
        });
    let mut value = if environment {
        Expr::default()
    } else {
        Expr(vec![Src::AnyVar])
    };
    value.join(words);
    // (Its input even where that is the text it runs, `. /dev/stdin <<'EOF'`: what runs
    // may read the rest of it as data, `read -r x`; and what the command gives on other
    // descriptors, which it may read or run, `. /dev/fd/3 3<<'EOF'`.)
    value.join(stdin);
    // (Where it is not the environment's, any file the command wrote from its heredocs,
    // which it may read as data: `read -r n < d`, round 104. The file it sources too,
    // under any name: `cat > lib.sh <<'EOF'` then `. ./lib.sh`, which may read what it
    // was written from, a heredoc moved away first, `mv lib.sh d`.)
    if !environment && w.holds_heredoc {
        value.join(Expr::val(Val::heredoc(ByteSet::ALL)));
    }
    // (An environment's file, sourced after inert commands alone, sees only its own: no
    // descriptor the command opened before it is still open.)
    if other_fd || (w.other_fd_text && !environment) {
        value.join(Expr::unknown());
    }
    w.facts.assign(
        Target::Any,
        Expr(vec![Src::SourceCopies(std::rc::Rc::new(value))]),
        at,
    );
    w.copying_source |= !environment;
    environment
}

/// A call where the command may source a file that is not the environment's
/// ([`Walk::sources_files`]): a function the file defines may run in place of the name
/// (behind `builtin` or `command` too: the file may define those), and copy what the call
/// gives it (its words, its input) into any name, as the file itself may copy any name's text (`printf … >
/// lib.sh; . ./lib.sh; f <<'EOF'`, then `$((n))`: round 104). What it runs is explicit;
/// what it copies is not followed, so it is taken as any heredoc text it may hold. (The
/// environment's file, sourced first, is taken to define functions that copy nothing:
/// `docs/threat-model.md`.)
fn sourced_function_copies(
    w: &mut Walk<'_>,
    args: &[WordInfo],
    given: &Expr,
    gives: bool,
    input: &Expr,
    at: u32,
) {
    // (A name the command's own text defines as a function too: the file may define it
    // again.)
    // (Any name's text it may copy too: the file's own copies hold it, `sourced`.)
    let mut value = Expr::default();
    if gives {
        value.join(given.clone());
    } else {
        for a in args {
            if a.literal().is_none() {
                value.join(w.word_expr(a));
            }
        }
    }
    value.join(input.clone());
    // (Text the command fixes holds no heredoc text: nothing to copy, and no name is
    // given a value at run time.)
    let fixed = value
        .0
        .iter()
        .all(|s| matches!(s, Src::Val(v) if !v.has_heredoc() && !v.unknown));
    if !fixed {
        w.facts.assign(
            Target::Any,
            Expr(vec![Src::SourceCopies(std::rc::Rc::new(value))]),
            at,
        );
    }
}

/// What a builtin that a command named at run time may be can do that the guard follows
/// ([`runs_unread_text`]): the table [`RUN_TIME_BUILTINS`] says, for each, which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gate {
    /// Copy its arguments (or, through a nameref or text it runs, any variable) into a
    /// variable: `printf -v`, `declare`, `read` (its names), `eval`, `source`.
    Copies,
    /// Copy its input into a variable: `read`, `mapfile`, `eval` (text it runs may read).
    /// Not `.` or `source`, whose input is the code they run when it is `/dev/stdin`.
    ReadsInput,
    /// Give a name the integer or nameref attribute, or turn on `set -x` or a zsh option,
    /// for the lines after it (or run text that may).
    Attrs,
    /// Evaluate an argument as a name, arithmetic or words expanded again: `test -v`,
    /// `unset`, `let`, `compgen -W`, `exit` in zsh.
    Evaluates,
    /// Source a file: `.`, `source`.
    Sources,
}

/// The builtins of bash and zsh (with the modules zsh may load) that a command named at run
/// time may be and that do something the guard follows, each with what (`C` copies its
/// arguments, `I` its input, `A` leaves attributes or options, `E` evaluates arguments;
/// `a`: leaves attributes in zsh only). Those that print, test files or move directories
/// do none of these; those that rebind what a name runs (`hash`, `enable`, `autoload`,
/// `functions`) are receivers the command redefines, explicit.
const RUN_TIME_BUILTINS: &[(&[u8], &str)] = &[
    (b".", "CA"),
    (b"-", "CIAE"),
    (b"[", "E"),
    (b"break", "E"),
    (b"builtin", "CIAE"),
    (b"bye", "E"),
    (b"caller", "E"),
    (b"command", "CIAE"),
    (b"compgen", "CE"),
    (b"complete", "E"),
    (b"continue", "E"),
    (b"declare", "CAE"),
    (b"emulate", "A"),
    (b"eval", "CIAE"),
    (b"exec", "CIAE"),
    (b"exit", "E"),
    (b"export", "CaE"),
    (b"fc", "CA"),
    (b"float", "CAE"),
    (b"getln", "CI"),
    (b"getopts", "CE"),
    (b"integer", "CAE"),
    (b"jobs", "CIAE"),
    (b"let", "CE"),
    (b"local", "CAE"),
    (b"logout", "E"),
    (b"mapfile", "CIE"),
    (b"noglob", "CIAE"),
    (b"pcre_compile", "E"),
    (b"pcre_match", "CE"),
    (b"print", "CE"),
    (b"printf", "CE"),
    (b"private", "CAE"),
    (b"r", "CA"),
    (b"read", "CIE"),
    (b"readarray", "CIE"),
    (b"readonly", "CaE"),
    (b"return", "E"),
    (b"sched", "CA"),
    (b"set", "CA"),
    (b"setopt", "A"),
    (b"shift", "E"),
    (b"shopt", "A"),
    (b"source", "CA"),
    (b"stat", "CE"),
    (b"strftime", "CE"),
    (b"syserror", "CE"),
    (b"sysopen", "CE"),
    (b"sysread", "CIE"),
    (b"sysseek", "E"),
    (b"syswrite", "E"),
    (b"test", "E"),
    (b"trap", "CA"),
    (b"typeset", "CAE"),
    (b"unset", "E"),
    (b"unsetopt", "A"),
    (b"vared", "CIE"),
    (b"wait", "CE"),
    (b"zcurses", "CE"),
    (b"zformat", "CE"),
    (b"zgetattr", "CE"),
    (b"zlistattr", "CE"),
    (b"zparseopts", "CE"),
    (b"zpty", "CE"),
    (b"zregexparse", "CE"),
    (b"zselect", "CE"),
    (b"zsocket", "CE"),
    (b"zstat", "CE"),
    (b"zstyle", "CE"),
    (b"zsystem", "CE"),
    (b"ztcp", "CE"),
];

/// Whether the builtin `name` does what `gate` says ([`RUN_TIME_BUILTINS`]).
fn builtin_does(name: &[u8], gate: Gate, zsh: bool) -> bool {
    RUN_TIME_BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .is_some_and(|(_, what)| match gate {
            Gate::Copies => what.contains('C'),
            Gate::ReadsInput => what.contains('I'),
            Gate::Attrs => what.contains('A') || (zsh && what.contains('a')),
            Gate::Evaluates => what.contains('E'),
            Gate::Sources => matches!(name, b"." | b"source"),
        })
}

/// Whether a command name word may expand to the name of such a builtin: not a path (a
/// `/` in its text), and not text that starts with what no such name starts with.
fn may_name_builtin(word: &WordInfo) -> bool {
    // (A tilde: zsh's named directory may be any text, `hash -d x=let; ~x`, round 102.)
    if word.many || word.brace || word.tilde {
        // Brace expansion or a glob may make any word of it (`{declare,-i,n}`,
        // `de[c]lare`, `$c{,/x}`).
        return true;
    }
    let lits = || {
        word.pieces.iter().filter_map(|p| match p {
            Piece::Lit(l) => Some(l),
            _ => None,
        })
    };
    if lits().any(|l| l.contains(&b'/')) {
        return false;
    }
    match word.pieces.first() {
        Some(Piece::Lit(l)) if !l.is_empty() => RUN_TIME_BUILTINS.iter().any(|(b, _)| {
            // (Either starts the other: their first bytes agree.)
            b.first() == l.first()
                && (b.starts_with(l)
                    || (l.starts_with(b) && l.get(b.len()).is_some_and(u8::is_ascii_whitespace)))
        }),
        _ => true,
    }
}

/// Whether a value run as a command's name may be a builtin that does what `gate` says:
/// text the command fixes or heredoc text naming one (its first word: the name is split;
/// with `any_split`, where `IFS` may be anything, any part of it), or bytes that may spell
/// one. A program's output or the environment's text run as a name (`$PYTHON -`,
/// `"$EDITOR"`) is explicit: the guard cannot tell it from a program, and what it leaves is
/// the author's.
pub(crate) fn may_be(v: &Val, gate: Gate, zsh: bool, any_split: bool) -> bool {
    let does = |n: &[u8]| builtin_does(n, gate, zsh);
    let names = |t: &[u8]| {
        let first = t
            .split(u8::is_ascii_whitespace)
            .find(|w| !w.is_empty())
            .unwrap_or_default();
        // (A path is a program; a glob in a name may match a file of any name: `c=de?lare;
        // $c`.)
        // (zsh's EXTENDED_GLOB patterns too: `^x`, `l#t`, round 102.)
        let pattern = |c: &u8| matches!(c, b'*' | b'?' | b'[') || (zsh && b"#^~".contains(c));
        (!first.contains(&b'/') && (does(first) || first.iter().any(pattern)))
            || (any_split
                && RUN_TIME_BUILTINS
                    .iter()
                    .any(|(n, _)| n.len() > 1 && does(n) && crate::search::find(t, n).is_some()))
    };
    // Text known only by its bytes: where they can spell one (of two letters or more: a
    // path's bytes hold a `.`).
    let spells = |b: Option<ByteSet>| {
        b.is_some_and(|b| {
            RUN_TIME_BUILTINS
                .iter()
                .any(|(n, _)| n.len() > 1 && does(n) && n.iter().all(|c| b.has(*c)))
        })
    };
    // (`.` is one letter: a text known only by its bytes may be it where they are dots and
    // blanks alone, `c=${PWD:0:0}.`; a path's other bytes say it is not.)
    let dot = |b: Option<ByteSet>| {
        gate == Gate::Sources && b.is_some_and(|b| b.has(b'.') && b.within(b". \t\n"))
    };
    v.lits.iter().chain(&v.htexts).any(|t| names(t))
        || spells(v.fixed)
        || (!v.unknown && spells(v.heredoc))
        || dot(v.fixed)
        || (!v.unknown && dot(v.heredoc))
}

/// What a call's first argument may be, as the name a function's `"$@"` runs: nothing
/// where it cannot name a builtin that assigns ([`may_name_builtin`]); every
/// argument where the command may `shift` them.
fn first_arg(w: &mut Walk<'_>, args: &[WordInfo]) -> Expr {
    let shifts = w.text_holds_shift();
    let mut first = Expr::default();
    for a in args {
        // (Where the arguments may be shifted, `-` is standard input's name, not zsh's
        // precommand.)
        if may_name_builtin(a) && !(shifts && a.value().as_deref() == Some(b"-")) {
            first.join(w.word_expr(a));
        }
        // An argument that may be empty or split (unquoted `$@` drops an empty one).
        let plain = a.value().is_some_and(|v| !v.is_empty()) && !a.split && !a.many;
        if !shifts && plain {
            break;
        }
    }
    first
}

/// A call of a function that runs its arguments: the first may be a builtin that
/// evaluates the others, as a command named at run time may ([`runs_unread_text`]).
fn builtin_arguments(
    w: &mut Walk<'_>,
    function: &[u8],
    command_at: u32,
    first: Expr,
    args: &[WordInfo],
) {
    let k = w.facts.unread_runs.len();
    for a in args.iter().skip(1) {
        let e = w.word_expr(a);
        argument_sites(w, a.start, e, k);
    }
    let f = &mut w.facts;
    let index = f.assigns.len();
    f.unread_runs.push(super::facts::UnreadRun {
        at: command_at,
        command_at,
        name: Some(first),
        explicit: Vec::new(),
        index,
        from: index,
        from_site: f.sites.len(),
        call_of: Some(std::rc::Rc::from(function)),
        positional: false,
    });
}

/// An argument a builtin named at run time (unread run `k`) may evaluate: as a name, as
/// arithmetic, as words expanded again.
fn argument_sites(w: &mut Walk<'_>, at: u32, value: Expr, k: usize) {
    for ev in [Evaluator::Name, Evaluator::Arithmetic, Evaluator::WordList] {
        w.site_needing(
            at,
            ev,
            "an argument of a builtin named at run time",
            value.clone(),
            Needs::Builtin(k),
        );
    }
}

/// A command name that is the first positional parameter (`"$@"`, `$1`, `"${@}"`,
/// `$*`): what calls give as their first argument ([`super::facts::FIRST_ARG`]).
fn positional_name(w: &mut Walk<'_>, word: &WordInfo) -> Option<Expr> {
    let p = whole_value(word)?;
    if !matches!(p.name.as_slice(), b"@" | b"*" | b"1") {
        return None;
    }
    // What `set --` gives them, what calls of this function give it, and what calls of a
    // command named at run time (any function) give.
    let mut e = Expr::var(w.var(super::facts::FIRST_ARG));
    if let Some(f) = w.function_named.clone() {
        e.join(Expr::var(w.var(&super::walk::function_first(&f))));
        e.join(Expr::var(w.var(&super::walk::function_first(b""))));
    } else if w.facts.deferred > 0 {
        // (A function whose name the walk does not know, or text run later: any call's.)
        return None;
    }
    Some(e)
}

/// A command name that is an array's (or a variable's) whole value (`"${cmd[@]}"`,
/// `$cmd`): its first element ([`Src::Head`]).
fn array_head(w: &mut Walk<'_>, word: &WordInfo) -> Option<Expr> {
    let p = whole_value(word)?;
    crate::shell::syntax::legal_identifier(&p.name).then(|| Expr(vec![Src::Head(w.var(&p.name))]))
}

/// The one parameter a word is, when it expands to that parameter's value as it is: no
/// operator, indirection, subscript, offset or zsh flag (anything else is the word's
/// value, [`Walk::word_expr`]).
fn whole_value(word: &WordInfo) -> Option<&crate::shell::word::Param> {
    let [Piece::Param(p)] = word.pieces.as_slice() else {
        return None;
    };
    plain_param(p).then_some(p)
}

/// The variables whose whole values words are made of, with blanks between them
/// (`"$v"`, `$a $b`, `${v}`): none when a word holds anything else.
fn whole_values(w: &mut Walk<'_>, args: &[WordInfo]) -> Vec<super::facts::Var> {
    let mut vars = Vec::new();
    for a in args {
        for p in &a.pieces {
            match p {
                Piece::Lit(l) if l.iter().all(|c| matches!(c, b' ' | b'\t' | b'\n')) => {}
                Piece::Param(p) if plain_param(p) => {
                    let v = w.var(&p.name);
                    vars.push(v);
                }
                _ => return Vec::new(),
            }
        }
    }
    vars
}

/// A simple command after its assignments (`raw`: its words as written, `words`: read):
/// its name, then what it does. Its output.
pub(super) fn command(
    w: &mut Walk<'_>,
    c: &SimpleCommand,
    raw: &[Word],
    words: &[WordInfo],
    ctx: &Ctx,
    here: &Ctx,
    own: Option<usize>,
) -> Result<Expr, GaveUp> {
    // A name computed at run time may give no word (`$o let "$k"` with `o` empty or unset,
    // `"$@"` with no arguments), and one after a wrapper may be its option (`command $o
    // let`, `o=-p`; `jobs $o let`, `o=-x`): the command may start at the next word, judged
    // too (round 100), up to [`MAX_SKIPPED_NAMES`] such words in a row (past them, a limit).
    let mut out = Expr::default();
    let mut start = 0;
    for _ in 0..=MAX_SKIPPED_NAMES {
        w.skippable_name = None;
        w.after_skipped_name = start > 0;
        let e = command_from(
            w,
            c,
            raw.get(start..).unwrap_or(&[]),
            words.get(start..).unwrap_or(&[]),
            ctx,
            here,
            own,
        )?;
        out.join(e);
        match w.skippable_name.take() {
            Some(n) => start += n,
            None => return Ok(out),
        }
    }
    Err(GaveUp)
}

/// zsh's `functions -c FROM TO` (options in a cluster, `-ct`; `--` or `-` ends them; zsh
/// takes exactly two names after `-c`): `TO` is now a function with `FROM`'s body, whose
/// calls the solver gives `FROM` (round 109). A name computed at run time may be any
/// (recorded empty); a word that may be several (`$arr`, `${=x}`) may be the option and
/// both names. A copy that may be a hook the shell runs by itself (`TRAPDEBUG`,
/// `command_not_found_handler`…) reads any heredoc, as such a hook defined by name does
/// (round 110).
fn function_copy(w: &mut Walk<'_>, args: &[WordInfo], at: u32) {
    let several = args
        .iter()
        .any(|a| a.literal().is_none() && !w.one_field(a));
    let mut copies = several;
    let mut k = 0;
    while let Some(a) = args.get(k) {
        match a.literal() {
            Some(o) if matches!(o.as_slice(), b"--" | b"-") => {
                k += 1;
                break;
            }
            Some(o) if o.len() > 1 && (o.starts_with(b"-") || o.starts_with(b"+")) => {
                copies |= o.starts_with(b"-") && o.contains(&b'c');
                k += 1;
            }
            // (An option word computed at run time may be `-c`, where two names follow.)
            None if args.len() >= k + 3 => {
                copies = true;
                k += 1;
            }
            _ => break,
        }
    }
    if !copies || (!several && args.len() < k + 2) {
        return;
    }
    let name = |a: Option<&WordInfo>| -> std::rc::Rc<[u8]> {
        match a.and_then(WordInfo::literal).filter(|_| !several) {
            Some(n) => std::rc::Rc::from(n.as_slice()),
            None => std::rc::Rc::from(&b""[..]),
        }
    };
    let (from, to) = (name(args.get(k)), name(args.get(k + 1)));
    if to.is_empty() || super::walk::lines::shell_hook(&to) {
        let stdin = w.every_body(true);
        let v = w.var(&super::walk::function_stdin(&from));
        w.facts.assign(Target::Var(v), stdin, at);
    }
    w.facts.function_copies.push((from, to));
}

/// A zsh command of redirections alone (`<<'E' … E`, `< f`, `> f`): zsh runs `$NULLCMD`
/// (`cat`) with them, or `$READNULLCMD` (the environment's pager) for one `<`, and either
/// may name a function the command defines (round 109): `$READNULLCMD` any function,
/// `$NULLCMD` one named `cat` unless the command may set it (round 110), given the
/// command's input; its output is then run-time text. (zsh's `emulate sh` runs `:`, which
/// reads nothing; an assignment before the redirections runs nothing either.)
fn null_command(w: &mut Walk<'_>, c: &SimpleCommand, here: &Ctx) -> Expr {
    // (`$READNULLCMD` is the environment's, any name; `$NULLCMD` `cat` unless the command
    // may set it: the solver's, [`super::facts::NULL_COMMAND`].)
    let read = matches!(&c.redirects[..], [r] if r.op == RedirOp::Input);
    let name: &[u8] = if read {
        b""
    } else {
        super::facts::NULL_COMMAND
    };
    w.facts.call_first.push(Expr::default());
    w.facts
        .calls
        .push((std::rc::Rc::from(name), Expr::default(), here.stdin.clone()));
    let mut out = here.stdin.clone();
    let (names, any) = &*w.functions;
    if *any || !names.is_empty() {
        out.join(Expr::unknown());
    }
    out
}

/// Most names computed at run time in a row that [`command`] judges the command after.
const MAX_SKIPPED_NAMES: usize = 16;

/// [`command`] from the first of `words` (a name computed at run time that may be skipped
/// leaves the offset of the word after it in [`Walk::skippable_name`]).
fn command_from(
    w: &mut Walk<'_>,
    c: &SimpleCommand,
    raw: &[Word],
    words: &[WordInfo],
    ctx: &Ctx,
    here: &Ctx,
    own: Option<usize>,
) -> Result<Expr, GaveUp> {
    let zsh = w.zsh();
    let mut i = 0;
    // `builtin` and `command` skip functions.
    let mut wrapped = false;
    let name = loop {
        let Some(word) = words.get(i) else {
            // No command: redirections (`exec` alone, `$(< f)`, zsh's `$(<<<x)`).
            let exec =
                i > 0 && words.get(i - 1).and_then(WordInfo::value).as_deref() == Some(b"exec");
            if exec
                && c.redirects
                    .iter()
                    .any(|r| r.op.feeds_input() || r.op == RedirOp::Duplicate)
            {
                // Every later command reads what `exec` gave standard input.
                let s = w.var(SHELL_STDIN);
                w.facts.assign(Target::Var(s), here.stdin.clone(), c.at);
                w.facts.assign(Target::Var(s), Expr::unknown(), c.at);
            }
            if zsh && c.words.is_empty() && !c.redirects.is_empty() {
                return Ok(null_command(w, c, here));
            }
            return Ok(here.stdin.clone());
        };
        let Some(n) = word.value() else {
            // A command named at run time: explicit (a value run as a command name). It
            // may be `alias`, whose definitions may reshape later text; its arguments and
            // input may be a function's.
            // The words that may be `alias`'s definitions: its arguments, and the name's own
            // value when the shell splits it into words.
            let mut all = Vec::new();
            let mut args = Expr::default();
            for (k, a) in words[i..].iter().enumerate() {
                let e = w.word_expr(a);
                args.join(e.clone());
                if k > 0 || a.split {
                    if !all.is_empty() {
                        all.push(Expr::lit(b" "));
                    }
                    all.push(e);
                }
            }
            w.change(
                c.at,
                "a command named at run time, which may be alias, with a definition that may reshape later text",
                When::AliasWords(Expr::glue(all)),
                ctx,
            );
            // It may be `eval`, `read`, `printf -v`, `declare`, `set`: as `eval` of
            // computed text (`c=read; $c -r x <<< "$k"; echo "${x@P}"`), where its name may
            // be such a builtin (not a path, not a word that starts otherwise).
            let name = positional_name(w, word)
                .or_else(|| array_head(w, word))
                .unwrap_or_else(|| w.word_expr(word));
            if may_name_builtin(word) {
                runs_unread_text(
                    w,
                    c.at,
                    word.start,
                    &words[i..],
                    args.clone(),
                    here.stdin.clone(),
                    Some(name),
                );
            }
            let first = first_arg(w, &words[i + 1..]);
            w.facts.call_first.push(first);
            w.facts
                .calls
                .push((std::rc::Rc::from(&b""[..]), args, here.stdin.clone()));
            if (i > 0 || may_give_no_word(w, word)) && i + 1 < words.len() {
                w.skippable_name = Some(i + 1);
            }
            return Ok(Expr::unknown());
        };
        match n.as_slice() {
            b"builtin" => {
                wrapped = true;
                i += 1;
                if words.get(i).and_then(WordInfo::value).as_deref() == Some(b"--") {
                    i += 1;
                }
            }
            b"command" => {
                wrapped = true;
                i += 1;
                // (Options as `internal_getopt` reads them: clusters of `p`, `v`, `V`
                // (`-pp`, round 100); `-v` or `-V` only look the name up.)
                while let Some(o) = words.get(i).and_then(WordInfo::value) {
                    match o.as_slice() {
                        b"--" => {
                            i += 1;
                            break;
                        }
                        [b'-', p @ ..] if !p.is_empty() && p.iter().all(|&c| c == b'p') => i += 1,
                        o if o.starts_with(b"-") && o.len() > 1 => return Ok(Expr::unknown()),
                        _ => break,
                    }
                }
            }
            b"exec" if i + 1 == words.len() => {
                wrapped = true;
                i += 1;
            }
            // zsh's `exec` runs a builtin too (`exec let x`): what follows its options.
            b"exec" if zsh => {
                wrapped = true;
                i += 1;
                // (`-a NAME`, in a cluster too: `-la NAME`, `-ca NAME`, round 100; `-aNAME` and
                // `-aa` take no word, round 101.)
                while let Some(o) = words.get(i).and_then(WordInfo::value) {
                    match o.as_slice() {
                        b"--" => {
                            i += 1;
                            break;
                        }
                        o if o.starts_with(b"-") && o.len() > 1 => {
                            i += if crate::shell::syntax::zsh_exec_takes_next(o) {
                                2
                            } else {
                                1
                            };
                        }
                        _ => break,
                    }
                }
            }
            // `jobs -x command args`: the command runs in this shell (bash), a builtin too.
            // (Options as `internal_getopt` reads them: clusters of `lpnxrs`, `--`; an `x`
            // in any, `-xl`, `-x -r`, round 100. A word computed at run time may be one:
            // it is then taken for the command's name, a name computed at run time.)
            b"jobs" if !zsh && jobs_runs(&words[i + 1..]).is_some() => {
                i += 1 + jobs_runs(&words[i + 1..]).unwrap_or(0);
            }
            w_ if zsh && crate::shell::syntax::ZSH_PRECOMMANDS.contains(&w_) => i += 1,
            _ => break n,
        }
    };
    let args = &words[i + 1..];
    let raw_args = raw.get(i + 1..).unwrap_or(&[]);
    let at = words.get(i).map_or(c.at, |x| x.start);
    if zsh && name.as_slice() == b"functions" {
        function_copy(w, args, at);
    }
    // Its arguments and input are a function's when it is one: kept where its name may be
    // a function's ([`Walk::may_be_function`]: every name the walk may meet defined as
    // one), is empty, or is `eval` (whose text is judged for what it may rebind). Elsewhere the
    // call is kept by its name alone, with run-time text in their place should they be
    // read (fail closed).
    // (An empty name is as a name computed at run time: any function's.)
    let gives = w.may_be_function(&name) || matches!(name.as_slice(), b"eval" | b"");
    let mut out_of_runs = Expr::default();
    let mut all = if gives {
        Expr::default()
    } else {
        Expr::unknown()
    };
    for a in args.iter().filter(|_| gives) {
        all.join(w.word_expr(a));
    }
    if name.as_slice() == b"eval" && args.iter().any(|a| a.literal().is_none()) {
        // Text computed at run time that spells `alias`, or whose value the command's
        // parameters make spell it: what it runs is explicit, but the alias it defines
        // reads the author's later text otherwise (a word made a heredoc operator that no
        // line closes turns the heredocs after it into an unquoted body). (Text with a
        // program's output in it, `eval "$(ssh-agent -s)"`, is the program's.)
        let output = args
            .iter()
            .any(|a| a.pieces.iter().any(|p| matches!(p, Piece::Subst(_))));
        let mut text = Vec::new();
        for a in args {
            text.push(w.word_expr(a));
            text.push(Expr::lit(b" "));
        }
        w.change(
            at,
            "eval of text computed at run time, which may define an alias that makes the heredocs after it one unquoted body",
            When::EvalAlias {
                spelled: args.iter().any(spells_alias),
                other_first: starts_with_other_name(args),
                raw_operator: args
                    .iter()
                    .any(|a| w.text_of(a).is_none_or(crate::check::may_spell_lt)),
                text: if output {
                    Expr::default()
                } else {
                    Expr::glue(text)
                },
            },
            ctx,
        );
        runs_unread_text(w, c.at, at, args, all.clone(), here.stdin.clone(), None);
    }
    if matches!(name.as_slice(), b"." | b"source") {
        let mut given = Expr::default();
        for a in args.iter().skip(1) {
            given.join(w.word_expr(a));
        }
        let prefixed = raw.len() < c.words.len();
        // (Text it is given on another descriptor: a heredoc or here-string of its own.)
        let other_fd = c.redirects.iter().any(|r| {
            matches!(r.op, RedirOp::Heredoc | RedirOp::HereString)
                && r.fd.as_deref().is_some_and(|fd| fd != b"0")
        });
        w.sourced_environment = sourced(
            w,
            at,
            args.first(),
            prefixed,
            other_fd,
            given,
            here.stdin.clone(),
        );
    }
    // (After such a file is sourced: in the text's order, or anywhere in a loop or in text
    // that runs later; anywhere where text the guard does not read may source it.)
    let after_source =
        w.copying_source || w.unread_sources || w.facts.deferred > 0 || w.facts.repeating > 0;
    // (A name computed at run time is a value run as a command name: what it names is the
    // command's explicit choice, and a builtin it may be is followed as such,
    // `runs_unread_text`.)
    // (Nor the words after one that may be empty: judged as the command too, where the
    // name may be the source itself, `$c /dev/stdin <<'EOF'` with `c=.`.) Behind `builtin`
    // or `command` too: the file may define a function of that name, or alias it (round
    // 107). (Not `eval`, whose text runs here, explicitly: a function the file names
    // `eval` is left to it, `fixtures/open/redteam104.txt`.)
    let literal_name = !w.after_skipped_name && words.get(i).is_some_and(|n| n.literal().is_some());
    if w.sources_files
        && after_source
        && literal_name
        && !matches!(name.as_slice(), b"." | b"source" | b"eval")
    {
        // (Its input, a compound command's around it too; and what the command gives on
        // other descriptors anywhere.)
        let mut input = here.stdin.clone();
        if w.other_fd_text {
            input.join(Expr::val(Val::heredoc(ByteSet::ALL)));
        }
        sourced_function_copies(w, args, &all, gives, &input, at);
    }
    let first = if gives {
        first_arg(w, args)
    } else {
        Expr::unknown()
    };
    if gives && !first.is_empty() && w.may_be_function(&name) {
        // A function that runs its arguments (`run(){ "$@"; }`, defined before or after
        // this call): this call's first one may be a builtin that evaluates the others
        // (`run test -v "$k"`).
        builtin_arguments(w, &name, c.at, first.clone(), args);
    }
    w.facts.call_first.push(first);
    let stdin = if gives {
        here.stdin.clone()
    } else {
        Expr::unknown()
    };
    w.facts
        .calls
        .push((std::rc::Rc::from(name.as_slice()), all, stdin));
    // A function the command defines (or a program a rebound name runs) may run instead
    // of the builtin: its output is run-time text; the builtin's effects are kept (either
    // may run).
    let shadowed = !wrapped && w.may_be_function(&name);
    // (A word that is a glob, braces or a tilde may become any word, an option among them,
    // a file the command made matching it or a named directory giving it: `printf -? "$n"`
    // beside a file `-v`, `hash -d o=-v; print ~o`; round 101. A word shaped as an
    // assignment stays one.)
    // (zargs by its own name, or by any name a function may have where the command may
    // copy it or alias it: `functions -c zargs z`, `alias z=zargs`.)
    if zsh && (name.as_slice() == b"zargs" || (w.may_be_function(&name) && w.copies_zargs)) {
        out_of_runs.join(zargs(w, c, raw_args, args, at, ctx, here, own)?);
    }
    // (zsh's autoloaded `zcalc` evaluates its words as arithmetic; what it reads it reads
    // from the terminal.)
    if zsh && name.as_slice() == b"zcalc" {
        for a in args {
            let e = w.word_expr(a);
            w.site(a.start, Evaluator::Arithmetic, "zcalc", e, None);
        }
    }
    let lits = as_options_may_be(args, literals(args));
    let call = run::Call {
        c,
        name: &name,
        raw_args,
        args,
        lits: &lits,
        at,
        ctx,
        here,
        own,
        zsh,
    };
    let out = run::handler(kind(&name, zsh))(w, &call);
    let mut out = out?;
    if shadowed {
        out.join(Expr::unknown());
    }
    out.join(out_of_runs);
    Ok(out)
}

/// zsh's `zargs [options --] [inputs] [-- command [initial-args]]` (autoloaded) runs
/// `command initial-args inputs`, a function or a builtin too (rounds 109, 110). Its
/// options (up to `--` or the first word that is none, as `zparseopts -D` reads them)
/// take values it evaluates as arithmetic (`-n`, `-s`, `-l`, `-P`…): each one computed at
/// run time is an arithmetic site. Each word that may be the end of the inputs (a literal
/// `--`; any literal word where an option may change that string, `-e`, `--eof`; any word
/// computed at run time) may start the command: each such split is judged as the command
/// it runs, at most [`MAX_SKIPPED_NAMES`] of them (past them, a limit). Where a word may
/// expand to other words (braces, a glob: `{--,let}`) or an option may build the command
/// from the inputs (`-i`, `-I`, `--replace`), the command may be any: as a command named
/// at run time that may be any builtin. Their output joined.
#[allow(clippy::too_many_arguments)]
fn zargs(
    w: &mut Walk<'_>,
    c: &SimpleCommand,
    raw: &[Word],
    args: &[WordInfo],
    at: u32,
    ctx: &Ctx,
    here: &Ctx,
    own: Option<usize>,
) -> Result<Expr, GaveUp> {
    let (mut eof, mut replace_unknown) = (false, false);
    // (The strings `-i`/`-I`/`--replace` replace in the command's words with the inputs:
    // attached, `{}` or the next word.)
    let mut replaced: Vec<Vec<u8>> = Vec::new();
    // (Where the inputs may start: after the options and the `--` that ends them, or at
    // the first word computed at run time among them, which may be none.)
    let mut inputs = None;
    for (k, a) in args.iter().enumerate() {
        let next = || {
            args.get(k + 1)
                .and_then(WordInfo::literal)
                .filter(|n| n.as_slice() != b"--")
        };
        match a.literal() {
            Some(l) if l.as_slice() == b"--" => {
                inputs.get_or_insert(k + 1);
                break;
            }
            Some(l) if l.starts_with(b"--") => {
                eof |= l.starts_with(b"--eof");
                if let Some(r) = l.strip_prefix(b"--replace") {
                    match r.strip_prefix(b"=") {
                        Some(r) => replaced.push(r.to_vec()),
                        None => replaced.extend([b"{}".to_vec()].into_iter().chain(next())),
                    }
                }
            }
            Some(l) if l.starts_with(b"-") && l.len() > 1 => {
                eof |= l.contains(&b'e') || l.contains(&b'E');
                if let Some(i) = l.iter().position(|&c| c == b'i' || c == b'I') {
                    match &l[i + 1..] {
                        [] => replaced.extend([b"{}".to_vec()].into_iter().chain(next())),
                        r => replaced.push(r.to_vec()),
                    }
                }
            }
            Some(_) => {
                inputs.get_or_insert(k);
                break;
            }
            None => {
                let e = w.word_expr(a);
                w.site(
                    a.start,
                    Evaluator::Arithmetic,
                    "zargs's numeric options",
                    e,
                    None,
                );
                eof = true;
                replace_unknown = true;
                inputs.get_or_insert(k);
            }
        }
    }
    let inputs = inputs.unwrap_or(args.len());
    let splits: Vec<usize> = (inputs..args.len())
        .filter(|&p| {
            p + 1 < args.len()
                && args[p]
                    .literal()
                    .is_none_or(|l| eof || l.as_slice() == b"--")
        })
        .collect();
    // (A word that may be several, or text zsh may expand: quotes are not told apart. A
    // command name the inputs may replace a part of.)
    // (A glob: its names are inputs, unless it may give the separator, `--`, which a
    // glob whose literal end holds another byte never does, `*.txt`; or it may be the
    // command's name.)
    let glob_byte = |c: &u8| matches!(c, b'*' | b'?' | b'[' | b'~' | b'^' | b'#' | b'<' | b'(');
    let globbed = |a: &WordInfo| {
        a.pieces
            .iter()
            .any(|p| matches!(p, Piece::Lit(l) if l.iter().any(glob_byte)))
    };
    let may_give_separator = |a: &WordInfo| match a.pieces.last() {
        Some(Piece::Lit(l)) => {
            let end = l.iter().rposition(glob_byte).map_or(0, |e| e + 1);
            l[end..].iter().all(|&c| c == b'-')
        }
        _ => true,
    };
    let expands = args.iter().any(|a| {
        (a.literal().is_none() && !a.brace && !w.one_argument(a))
            || (a.brace
                && a.pieces.iter().any(|p| {
                    matches!(p, Piece::Lit(l) if l.contains(&b',') || crate::search::find(l, b"..").is_some())
                }))
            || matches!(a.pieces.first(), Some(Piece::Lit(l)) if l.first() == Some(&b'='))
            || (globbed(a) && may_give_separator(a))
    }) || splits
        .iter()
        .any(|&p| args.get(p + 1).is_some_and(&globbed));
    let replaced_name = (replace_unknown || !replaced.is_empty())
        && splits.iter().any(|&p| {
            args.get(p + 1)
                .and_then(WordInfo::literal)
                .is_some_and(|n| {
                    replace_unknown
                        || replaced
                            .iter()
                            .any(|r| r.is_empty() || crate::search::find(&n, r).is_some())
                })
        });
    let mut out = Expr::default();
    if expands || replaced_name {
        let mut all = Expr::default();
        for a in args {
            all.join(w.word_expr(a));
        }
        // (Any builtin: one that evaluates its words too, as a name, arithmetic or words.)
        runs_unread_text(w, c.at, at, args, all.clone(), here.stdin.clone(), None);
        for a in args {
            let e = w.word_expr(a);
            for ev in [Evaluator::Name, Evaluator::Arithmetic, Evaluator::WordList] {
                w.site(
                    a.start,
                    ev,
                    "a word of a command zargs may build",
                    e.clone(),
                    None,
                );
            }
        }
        let first = first_arg(w, args);
        w.facts.call_first.push(first);
        w.facts
            .calls
            .push((std::rc::Rc::from(&b""[..]), all, here.stdin.clone()));
        out.join(Expr::unknown());
    }
    if splits.len() > MAX_SKIPPED_NAMES {
        return Err(GaveUp);
    }
    for p in splits {
        w.spend(args.len())?;
        let order = (p + 1..args.len()).chain(0..p);
        let words: Vec<WordInfo> = order.clone().filter_map(|k| args.get(k).cloned()).collect();
        let raw_words: Vec<Word> = if raw.len() == args.len() {
            order.filter_map(|k| raw.get(k).cloned()).collect()
        } else {
            Vec::new()
        };
        // (As a command of its own: a name computed at run time in it may be skipped.)
        let after = w.after_skipped_name;
        out.join(command(w, c, &raw_words, &words, ctx, here, own)?);
        w.after_skipped_name = after;
    }
    Ok(out)
}

/// Whether zsh gives a function defined by the name `name` another name: it expands the
/// definition's name word (`=cat` is cat's path, `~/f` a path in the home directory,
/// braces and globs other names; round 104).
pub(super) fn zsh_expands_name(zsh: bool, name: &[u8]) -> bool {
    zsh && (matches!(name.first(), Some(b'=' | b'~')) || name.iter().any(zsh_name_special))
}

/// A byte where zsh may expand a definition's name word: a glob's (`*`, `?`, `[…]`, `<1-5>`;
/// with EXTENDED_GLOB `^x`, `x#`, `a~b`, `(a|b)`, `(#i)`; with KSH_GLOB `@(…)`, `+(…)`,
/// `!(…)`) or a brace's.
fn zsh_name_special(c: &u8) -> bool {
    matches!(
        c,
        b'*' | b'?'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'<'
            | b'>'
            | b'^'
            | b'#'
            | b'('
            | b')'
            | b'|'
            | b'~'
            | b'@'
            | b'+'
            | b'!'
    )
}

/// The literal text every name zsh makes of the name word `text` starts and ends with
/// (its lengths: text before the first byte it may expand, text after the last), where
/// `ends` says the word's end is its own (no expansion after it). `x#` may repeat `x` no
/// times, and a `~`, `^` or `#` (`a*~b`, `^x`, `(#i)x`) may make what follows them a
/// pattern that excludes or ignores case: no end is known then.
pub(super) fn zsh_name_ends(text: &[u8], ends: bool) -> (usize, usize) {
    let prefix = match text.iter().position(zsh_name_special) {
        None => text.len(),
        Some(i) if text[i] == b'#' => i.saturating_sub(1),
        Some(i) => i,
    };
    let suffix = if !ends || text.iter().any(|c| matches!(c, b'~' | b'^' | b'#')) {
        0
    } else {
        text.iter()
            .rposition(zsh_name_special)
            .map_or(text.len(), |e| text.len() - e - 1)
    };
    (prefix, suffix)
}

/// Whether the function the walk recorded under the name `f` may be what a call of a
/// name other than `f` runs (`call`; empty: a name computed at run time, which may be
/// any): one whose name it does not know ([`super::facts::ANY_FUNCTION`]), where the name
/// may fit ([`super::facts::any_function_fitting`]); one zsh names by expanding its name,
/// where the expansion may give the call's name (`=cat` and `~/f` any path; braces and
/// globs keep the text before and after them); and the command-not-found handlers, which
/// the shell runs with the words of any command it does not find (bash 4 on, zsh).
pub(super) fn runs_for_call(zsh: bool, f: &[u8], call: &[u8]) -> bool {
    let fits = |prefix: &[u8], suffix: &[u8]| {
        call.is_empty()
            || (call.len() >= prefix.len() + suffix.len()
                && call.starts_with(prefix)
                && call.ends_with(suffix))
    };
    if let Some(pattern) = f.strip_prefix(super::facts::ANY_FUNCTION) {
        return match pattern {
            [] => true,
            [0, rest @ ..] => {
                let mut parts = rest.splitn(2, |&c| c == 0);
                let prefix = parts.next().unwrap_or_default();
                let suffix = parts.next().unwrap_or_default();
                fits(prefix, suffix)
            }
            _ => true,
        };
    }
    if matches!(
        f,
        b"command_not_found_handle" | b"command_not_found_handler"
    ) {
        return true;
    }
    if !zsh_expands_name(zsh, f) {
        return false;
    }
    if matches!(f.first(), Some(b'=' | b'~')) {
        return true;
    }
    let (prefix, suffix) = zsh_name_ends(f, true);
    fits(&f[..prefix], &f[f.len() - suffix.min(f.len() - prefix)..])
}

/// Whether the function `f` may run for some call other than one by its own name
/// ([`runs_for_call`] for a call named at run time).
pub(super) fn runs_for_any_call(zsh: bool, f: &[u8]) -> bool {
    runs_for_call(zsh, f, b"")
}

/// A variable a builtin assigns, named by a word: a fixed name (its subscript evaluated),
/// or a name computed at run time (a name evaluator; any variable may get the value).
fn name_target(
    w: &mut Walk<'_>,
    t: &WordInfo,
    value: Expr,
    what: &'static str,
    at: u32,
    ctx: &Ctx,
) {
    match t.literal() {
        Some(n) => {
            // zsh: `name?prompt` reads into `name`.
            let n = if w.zsh() {
                n.split(|&c| c == b'?').next().unwrap_or_default().to_vec()
            } else {
                n
            };
            let (base, sub) = split_subscript(&n);
            if sub.is_some() {
                w.site(t.start, Evaluator::Name, what, Expr::lit(&n), None);
            }
            if crate::shell::syntax::legal_identifier(base) || w.zsh_parameter_name(base) {
                let v = w.var(base);
                if let Some(sub) = sub {
                    // A key the array is given: its text, or any text where the
                    // subscript expands something (`read 'm[$x]'`).
                    w.literal_or_computed_key(v, sub);
                }
                w.assign(Target::Var(v), value, at, ctx);
            } else if t.many || w.caret_glob(t) {
                // A pattern (zsh's `^c` under `extendedglob` too): the shell may give it a
                // file's name (`read a*`), any name, and
                // the files' names may be heredoc text (`printf *` with files `-v` and
                // `a[i]`: the glob's value, as the word gives it).
                let mut glob = t.clone();
                glob.many = true;
                let e = w.word_expr(&glob);
                w.site(t.start, Evaluator::Name, what, e, None);
                dynamic_assignment(w, Expr::unknown(), value, at, ctx);
            }
        }
        None => {
            let e = w.word_expr(t);
            w.site(t.start, Evaluator::Name, what, e.clone(), None);
            dynamic_assignment(w, e, value, at, ctx);
        }
    }
}

/// An assignment to a name computed at run time: any variable may get the value, and the
/// name may be an alias table's entry (`BASH_ALIASES[x]`, zsh's `aliases[x]`).
fn dynamic_assignment(w: &mut Walk<'_>, name: Expr, value: Expr, at: u32, ctx: &Ctx) {
    w.facts.assign(Target::Any, value.clone(), at);
    w.change(
        at,
        "a variable named at run time, which may be an alias table's entry (BASH_ALIASES, zsh's aliases)",
        When::AliasEntry { name, value },
        ctx,
    );
}

/// `name[sub]` → (`name`, `sub`).
pub(super) fn split_subscript(s: &[u8]) -> (&[u8], Option<&[u8]>) {
    match s.iter().position(|&c| c == b'[') {
        Some(open) if s.last() == Some(&b']') => (&s[..open], Some(&s[open + 1..s.len() - 1])),
        _ => (s, None),
    }
}

/// A word split at its first literal `=` (`"$k=$v"` → `$k`, `$v`), or `None`.
pub(super) fn split_at_equals(w: &WordInfo) -> Option<(WordInfo, WordInfo)> {
    let (k, eq) = w.pieces.iter().enumerate().find_map(|(k, p)| match p {
        Piece::Lit(l) => l.iter().position(|&c| c == b'=').map(|eq| (k, eq)),
        _ => None,
    })?;
    let Some(Piece::Lit(l)) = w.pieces.get(k) else {
        return None;
    };
    let mut name = w.pieces[..k].to_vec();
    name.push(Piece::Lit(l[..eq].to_vec()));
    let mut value = vec![Piece::Lit(l[eq + 1..].to_vec())];
    value.extend(w.pieces[k + 1..].iter().cloned());
    let part = |pieces| WordInfo {
        pieces,
        start: w.start,
        end: w.end,
        unread: w.unread,
        ..WordInfo::default()
    };
    Some((part(name), part(value)))
}
