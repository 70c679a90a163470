//! Whether a reading is inert: a program that can neither change the shell's alias table
//! (or anything else about how text is read) nor reach a hidden evaluator, whatever its
//! values are. Such a program never makes a heredoc at run time (only an alias defined at
//! run time could), and its heredocs' text, whatever flows where, reaches no evaluator but
//! the unquoted bodies' own `$(…)`, which the rules judge: the judge has nothing to look
//! for in it.
//!
//! The test allows, it never finds: what it does not know denies inertness and sends the
//! reading to the judge. So it is a list of what is known harmless, not of what is harmful:
//! commands named by literal text that are no builtin of bash or zsh (a program runs in a
//! process of its own and cannot change the shell), a few builtins with arguments of known
//! shapes (`echo`, `cd`, `export NAME=…`, `read -r NAME`, `set -e`, `test -f …`), names
//! assigned that are written out and are none of the shells' own, and expansions that only
//! give a value (`$x`, `${x:-w}`, `${x#p}`, `$(…)`, whose program is judged here too).
//! Arithmetic may read names that hold numbers: a name that everything in the reading
//! assigns gives it digits or an arithmetic result (`pass=0`, `pass=$((pass + 1))`, `for i
//! in 1 2 3`), or nothing in it assigns where the reading holds no heredoc (the
//! environment's values are no heredoc text, but arithmetic evaluates a name they spell:
//! `USER=root`, `read -r root <<'EOF'`, `$((USER))`). A file sourced by literal words or
//! quoted parameters runs code the command names (explicit, and so are the aliases and
//! functions it defines); it may copy any name's text into any name (`$1`, `$_`), so
//! arithmetic on names anywhere beside it is the judge's, and so is a trace (`set -x`)
//! unless the file is the environment's, sourced first. A wrapper that runs its
//! arguments (`ensure() { "$@"; }`) runs what each call names first: plain text that is
//! no builtin's name, at every call.
//! Every way the inert vocabulary assigns a name is a site: `NAME=` words before a command
//! and in `export` and the rest, `read`'s names, `for`'s name and `${NAME:=…}`; a name with
//! any other value at any site, in any order, keeps the arithmetic that reads it from being
//! inert. Subscripts, offsets, `$x` inside arithmetic, indirection, prompt expansion, zsh's
//! flags and parentheses, `[[ … -eq … ]]`, `test -v`, a named descriptor, `select`,
//! `coproc`, text the reading did not finish, and any `alias` in the command's text are
//! not inert.

use crate::shell::tree::{Compound, Event, RedirOp, Redirect, SimpleCommand, Word};
use crate::shell::word::{self, Arith, Ends, Param, ParamOp, Piece, SubstEnds, WordInfo};
use crate::shell::{Heredoc, Reading};

/// The builtins of bash (3.2 to 5.3, `enable -a`) and of zsh (`${(k)builtins}`, the
/// autoloaded ones included), and the precommand words both read as commands. A literal
/// command name that is none of these runs a program, or a function the program defines
/// (whose commands are in the reading too).
const BUILTINS: &[&[u8]] = &[
    b"-",
    b".",
    b":",
    b"[",
    b"alias",
    b"autoload",
    b"bg",
    b"bind",
    b"bindkey",
    b"break",
    b"builtin",
    b"bye",
    b"caller",
    b"cd",
    b"chdir",
    b"command",
    b"compadd",
    b"comparguments",
    b"compcall",
    b"compctl",
    b"compdescribe",
    b"compfiles",
    b"compgen",
    b"compgroups",
    b"complete",
    b"compopt",
    b"compquote",
    b"compset",
    b"comptags",
    b"comptry",
    b"compvalues",
    b"continue",
    b"declare",
    b"dirs",
    b"disable",
    b"disown",
    b"echo",
    b"echotc",
    b"echoti",
    b"emulate",
    b"enable",
    b"eval",
    b"exec",
    b"exit",
    b"export",
    b"false",
    b"fc",
    b"fg",
    b"float",
    b"functions",
    b"getln",
    b"getopts",
    b"hash",
    b"help",
    b"history",
    b"integer",
    b"jobs",
    b"kill",
    b"let",
    b"limit",
    b"local",
    b"log",
    b"logout",
    b"mapfile",
    b"nocorrect",
    b"noglob",
    b"popd",
    b"print",
    b"printf",
    b"private",
    b"pushd",
    b"pushln",
    b"pwd",
    b"r",
    b"read",
    b"readarray",
    b"readonly",
    b"rehash",
    b"return",
    b"sched",
    b"set",
    b"setopt",
    b"shift",
    b"shopt",
    b"source",
    b"suspend",
    b"test",
    b"time",
    b"times",
    b"trap",
    b"true",
    b"ttyctl",
    b"type",
    b"typeset",
    b"ulimit",
    b"umask",
    b"unalias",
    b"unfunction",
    b"unhash",
    b"unlimit",
    b"unset",
    b"unsetopt",
    b"vared",
    b"wait",
    b"whence",
    b"where",
    b"which",
    b"zcompile",
    b"zformat",
    b"zle",
    b"zmodload",
    b"zparseopts",
    b"zregexparse",
    b"zstyle",
];

/// The shells' own variables (bash's `compgen -v` in an empty environment, 3.2 to 5.3, and
/// the manual's "Shell Variables"; zsh's specials, the ones its modules autoload, and the
/// manual's "Parameters Set By The Shell" and "Parameters Used By The Shell") that are not
/// [`EXEMPT`]: assigning one may do more than hold the value. (Any name starting
/// `BASH` counts as well, and [`super::builtins::integer_special`] and
/// [`super::walk::special_change`] are asked too.)
const SPECIALS: &[&[u8]] = &[
    b"ARGC",
    b"ARGV0",
    b"BASHOPTS",
    b"BAUD",
    b"CDPATH",
    b"CHILD_MAX",
    b"COLUMNS",
    b"COMPREPLY",
    b"COMP_CWORD",
    b"COMP_KEY",
    b"COMP_LINE",
    b"COMP_POINT",
    b"COMP_TYPE",
    b"COMP_WORDBREAKS",
    b"COMP_WORDS",
    b"COPROC",
    b"CORRECT_IGNORE",
    b"CORRECT_IGNORE_FILE",
    b"CPUTYPE",
    b"DIRSTACK",
    b"DIRSTACKSIZE",
    b"EGID",
    b"EMACS",
    b"ENV",
    b"EPOCHREALTIME",
    b"EPOCHSECONDS",
    b"ERRNO",
    b"EUID",
    b"EXECIGNORE",
    b"FCEDIT",
    b"FIGNORE",
    b"FPATH",
    b"FUNCNAME",
    b"FUNCNEST",
    b"GID",
    b"GLOBIGNORE",
    b"GLOBSORT",
    b"GROUPS",
    b"HISTCHARS",
    b"HISTCMD",
    b"HISTCONTROL",
    b"HISTFILE",
    b"HISTFILESIZE",
    b"HISTIGNORE",
    b"HISTORY_IGNORE",
    b"HISTSIZE",
    b"HISTTIMEFORMAT",
    b"HOST",
    b"HOSTFILE",
    b"HOSTNAME",
    b"HOSTTYPE",
    b"IFS",
    b"IGNOREEOF",
    b"INPUTRC",
    b"INSIDE_EMACS",
    b"KEYBOARD_HACK",
    b"KEYTIMEOUT",
    b"LANG",
    b"LC_ALL",
    b"LC_CTYPE",
    b"LINENO",
    b"LINES",
    b"LISTMAX",
    b"LOGCHECK",
    b"LOGNAME",
    b"MACHTYPE",
    b"MAIL",
    b"MAILCHECK",
    b"MAILPATH",
    b"MAPFILE",
    b"MATCH",
    b"MBEGIN",
    b"MEND",
    b"MODULE_PATH",
    b"NULLCMD",
    b"OPTARG",
    b"OPTERR",
    b"OPTIND",
    b"OSTYPE",
    b"PERIOD",
    b"PIPESTATUS",
    b"POSIXLY_CORRECT",
    b"POSTEDIT",
    b"PPID",
    b"PROMPT",
    b"PROMPT2",
    b"PROMPT3",
    b"PROMPT4",
    b"PROMPT_COMMAND",
    b"PROMPT_DIRTRIM",
    b"PROMPT_EOL_MARK",
    b"PS0",
    b"PS1",
    b"PS2",
    b"PS3",
    b"PS4",
    b"PSVAR",
    b"RANDOM",
    b"READLINE_ARGUMENT",
    b"READLINE_LINE",
    b"READLINE_MARK",
    b"READLINE_POINT",
    b"READNULLCMD",
    b"REPLY",
    b"REPORTMEMORY",
    b"REPORTTIME",
    b"RPROMPT",
    b"RPROMPT2",
    b"RPS1",
    b"RPS2",
    b"SAVEHIST",
    b"SECONDS",
    b"SHELLOPTS",
    b"SHLVL",
    b"SPROMPT",
    b"SRANDOM",
    b"STTY",
    b"TERMINFO",
    b"TERMINFO_DIRS",
    b"TEXTDOMAIN",
    b"TEXTDOMAINDIR",
    b"TIMEFMT",
    b"TIMEFORMAT",
    b"TMOUT",
    b"TMPPREFIX",
    b"TMPSUFFIX",
    b"TRY_BLOCK_ERROR",
    b"TRY_BLOCK_INTERRUPT",
    b"TTY",
    b"TTYIDLE",
    b"UID",
    b"USERNAME",
    b"VENDOR",
    b"WATCH",
    b"WATCHFMT",
    b"WORDCHARS",
    b"ZBEEP",
    b"ZDOTDIR",
    b"ZLE_LINE_ABORTED",
    b"ZLE_REMOVE_SUFFIX_CHARS",
    b"ZLE_RPROMPT_INDENT",
    b"ZLE_SPACE_SUFFIX_CHARS",
    b"ZLE_STATE",
    b"ZSH_ARGZERO",
    b"ZSH_EVAL_CONTEXT",
    b"ZSH_EXECUTION_STRING",
    b"ZSH_NAME",
    b"ZSH_PATCHLEVEL",
    b"ZSH_SCRIPT",
    b"ZSH_SUBSHELL",
    b"ZSH_VERSION",
    b"_",
    b"aliases",
    b"argv",
    b"auto_resume",
    b"builtins",
    b"cdpath",
    b"commands",
    b"dirstack",
    b"dis_aliases",
    b"dis_builtins",
    b"dis_functions",
    b"dis_functions_source",
    b"dis_galiases",
    b"dis_patchars",
    b"dis_reswords",
    b"dis_saliases",
    b"epochtime",
    b"errnos",
    b"fignore",
    b"fpath",
    b"funcfiletrace",
    b"funcsourcetrace",
    b"funcstack",
    b"functions",
    b"functions_source",
    b"functrace",
    b"galiases",
    b"histchars",
    b"history",
    b"historywords",
    b"jobdirs",
    b"jobstates",
    b"jobtexts",
    b"keymaps",
    b"langinfo",
    b"mailpath",
    b"manpath",
    b"mapfile",
    b"match",
    b"mbegin",
    b"mend",
    b"module_path",
    b"modules",
    b"nameddirs",
    b"options",
    b"parameters",
    b"patchars",
    b"pipestatus",
    b"prompt",
    b"psvar",
    b"reply",
    b"reswords",
    b"saliases",
    b"signals",
    b"status",
    b"sysparams",
    b"termcap",
    b"terminfo",
    b"userdirs",
    b"usergroups",
    b"watch",
    b"widgets",
    b"zsh_eval_context",
    b"zsh_scheduled_events",
];

/// The shells' own variables a command may set without changing how text is read or
/// evaluated (where programs are found, the home and working directories). (Not the
/// locale: bash reads text in GBK or Big5 otherwise.)
/// (`SPECIALS` leaves them out; listed here so that the choice is read.)
const EXEMPT: &[&[u8]] = &[
    b"HOME", b"MANPATH", b"OLDPWD", b"PATH", b"PWD", b"SHELL", b"TERM", b"path",
];

/// Whether `reading` is inert (the module's doc), in the family `zsh` says, for the
/// command `text` it read. (The zsh family's test only adds conditions to bash's: a
/// reading inert for zsh is inert for bash, and a reading both read alike is tested once,
/// as zsh: `check.rs`.)
pub fn inert(reading: &Reading, zsh: bool, text: &[u8]) -> bool {
    if spells_alias(text) || (zsh && super::wide_outside_bodies(text, &reading.heredocs)) {
        return false;
    }
    let numbers = Numbers {
        runners: runners(reading),
        // (Heredoc text may be anywhere a reading holds a heredoc or the text spells one.)
        heredoc: reading.holds_heredoc() || crate::check::spells_heredoc(text),
        ..Numbers::default()
    };
    program(reading, zsh, Some(text), &numbers) && numbers.hold_numbers(zsh)
}

/// Whether a reading's program is inert, its literal `eval` and `trap` texts' too; `text`
/// is the command's where the reading's offsets point into it (not in such a text, whose
/// offsets are all its command's).
fn program(reading: &Reading, zsh: bool, text: Option<&[u8]>, numbers: &Numbers) -> bool {
    let ends = Ends::of(&reading.events);
    let mut nested: Vec<u32> = reading.nested.iter().map(|n| n.at).collect();
    nested.sort_unstable();
    let mut p = Plain {
        zsh,
        ends: &ends,
        text,
        numbers,
        nested: &nested,
        depth: 0,
        piped: false,
        setup_only: true,
        functions: Vec::new(),
    };
    reading.heredocs.iter().all(|h| p.heredoc(h))
        && reading.events.iter().all(|e| p.event(e))
        && reading.nested.iter().all(|n| {
            // (Quotes removed, its text may spell what the command's does not:
            // `eval $'\x61lias s=…'`.)
            !spells_alias(&n.text)
                && (!zsh || n.text.is_ascii())
                && program(&n.reading, zsh, None, numbers)
        })
}

/// The names arithmetic reads, and the names given something other than a number.
#[derive(Default)]
struct Numbers {
    /// (Sets: a script reads and assigns the same names many times, and the check at the
    /// end stays linear in them.)
    read: std::cell::RefCell<rustc_hash::FxHashSet<Vec<u8>>>,
    other: std::cell::RefCell<rustc_hash::FxHashSet<Vec<u8>>>,
    /// The reading holds a heredoc, or its text spells one: some text may be heredoc
    /// text.
    heredoc: bool,
    /// Every name given a value, a number or not, where [`Numbers::heredoc`]: a name
    /// arithmetic reads and nothing assigns holds the environment's text, which may be
    /// the name of one that holds heredoc text.
    given: std::cell::RefCell<rustc_hash::FxHashSet<Vec<u8>>>,
    /// A file is sourced: it may give any name the environment's text, which may be the
    /// name of a variable the command gives heredoc text (`ID=debian` from
    /// `/etc/os-release`, then `read -r debian <<'EOF'` and `$((ID))`), or copy any
    /// name's text into any name (`$1`, `$_`, `BASH_REMATCH` among them, round 104).
    sourced: std::cell::Cell<bool>,
    /// A file is sourced where it is not the environment's (after other commands, in a
    /// function, in a pipe): it may copy any name's text into any name, PS4 among them
    /// (the judge's `sourced`).
    copied: std::cell::Cell<bool>,
    /// `set -x` (or `+x`): PS4 is expanded as a prompt before each later command.
    xtrace: std::cell::Cell<bool>,
    /// The functions that run their arguments as a command (`ensure() { "$@"; }`), by
    /// name ([`runners`]); `None` where such a function cannot be told by its name or
    /// may change its arguments first.
    runners: Option<rustc_hash::FxHashSet<Vec<u8>>>,
    /// A command that may change a function's positional parameters while it runs: `set
    /// --`, `shift`, and `trap`, `eval`, `.` and `source`, whose text may (a trap's action
    /// runs inside whatever function is running: round 104).
    positional: std::cell::Cell<bool>,
}

/// The functions of a reading (and of its literal `eval` and `trap` texts) whose bodies
/// run `"$@"` as a command: a wrapper (`ensure() { if ! "$@"; then err …; fi; }`) runs
/// what each call names first. `None` where one has a name that is not plain text or
/// changes its positional parameters (`set`, `shift`) or none can be told.
fn runners(reading: &Reading) -> Option<rustc_hash::FxHashSet<Vec<u8>>> {
    fn scan(reading: &Reading, out: &mut rustc_hash::FxHashSet<Vec<u8>>) -> bool {
        // The compound commands open, each with the name of a function it defines.
        let mut open: Vec<Option<&[u8]>> = Vec::new();
        // Per open function: whether its body runs "$@" and whether it changes the
        // positional parameters.
        let mut bodies: Vec<(bool, bool)> = Vec::new();
        for e in &reading.events {
            match e {
                Event::Open(Compound::Function(name), _) => {
                    let t = name.text.bytes();
                    open.push(Some(t));
                    bodies.push((false, false));
                }
                Event::Open(..) => open.push(None),
                Event::Close(_) => {
                    if let Some(Some(name)) = open.pop() {
                        let (runs, changes) = bodies.pop().unwrap_or_default();
                        if runs {
                            // (A name of letters, digits, `_` and `-` only: zsh expands a
                            // definition's name, `=cat() { … }` names a path.)
                            let plain = name.first().is_some_and(|c| !c.is_ascii_digit())
                                && name
                                    .iter()
                                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'));
                            if changes || !plain {
                                return false;
                            }
                            out.insert(name.to_vec());
                        }
                    }
                }
                Event::Simple(c) => {
                    let first = c
                        .words
                        .iter()
                        .find(|w| !word::is_assignment(&w.text))
                        .map(|w| w.text.bytes());
                    if let Some(body) = bodies.last_mut() {
                        match first {
                            Some(b"\"$@\"" | b"\"${@}\"") => body.0 = true,
                            Some(b"set" | b"shift") => body.1 = true,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        // (A function left open: the reading stopped inside it.)
        bodies.is_empty() && reading.nested.iter().all(|n| scan(&n.reading, out))
    }
    let mut out = rustc_hash::FxHashSet::default();
    scan(reading, &mut out).then_some(out)
}

impl Numbers {
    /// Arithmetic that reads only names, which [`Numbers::hold_numbers`] checks once the
    /// whole reading is walked: no subscript, substitution, `$x`, quote, `#` or base.
    fn arith(&self, a: &Arith) -> bool {
        let plain = a.params.is_empty()
            && a.substs.is_empty()
            && a.subscripts.is_empty()
            && !a.odd
            && !a.hash
            && !a.wide
            && !a.open_bracket;
        if plain {
            let mut read = self.read.borrow_mut();
            read.extend(a.names.iter().cloned());
            read.extend(a.assigned.iter().cloned());
        }
        plain
    }

    /// `name` is given a value, a number or not.
    fn assigned(&self, name: &[u8], number: bool) {
        if self.heredoc {
            let mut given = self.given.borrow_mut();
            if !given.contains(name) {
                given.insert(name.to_vec());
            }
        }
        if !number {
            let mut other = self.other.borrow_mut();
            if !other.contains(name) {
                other.insert(name.to_vec());
            }
        }
    }

    /// Every name arithmetic reads is none of the shells' own and is given only numbers.
    fn hold_numbers(&self, zsh: bool) -> bool {
        let other = self.other.borrow();
        // (After a source, no name arithmetic reads is known: the judge looks.)
        if self.sourced.get() && !self.read.borrow().is_empty() {
            return false;
        }
        // (A file that may copy heredoc text into PS4, and a trace that expands it.)
        if self.copied.get() && self.xtrace.get() {
            return false;
        }
        // (A wrapper's arguments are what its calls name only where nothing may change
        // them while it runs.)
        if self.positional.get() && self.runners.as_ref().is_some_and(|r| !r.is_empty()) {
            return false;
        }
        let read = self.read.borrow();
        // (A name nothing assigns holds the environment's text, no heredoc text; but
        // arithmetic evaluates a name that text spells, `USER=root`, then `read -r root
        // <<'EOF'` and `$((USER))` (round 103), or `root=_` and `$_` holding heredoc text
        // (round 104): where the reading holds a heredoc, the judge looks.)
        if self.heredoc {
            let given = self.given.borrow();
            if read.iter().any(|n| !given.contains(n)) {
                return false;
            }
        }
        read.iter()
            // (Not the exempt names, which the shell sets itself: `cd` copies `PWD` to
            // `OLDPWD`, round 62.)
            .all(|n| ordinary_name(n, zsh) && !EXEMPT.contains(&n.as_slice()) && !other.contains(n))
    }
}

/// A value that is digits or arithmetic results: nothing arithmetic reads in it is text.
fn number(v: &WordInfo) -> bool {
    !v.unread
        && v.pieces.iter().all(|p| match p {
            Piece::Lit(l) => l.iter().all(u8::is_ascii_digit),
            Piece::Arith(_) => true,
            Piece::Param(_) | Piece::Subst(_) => false,
        })
}

/// Whether a word starts with letters, digits or `_` written out (no pattern, brace,
/// tilde or `=` among them) that no builtin's or precommand word's name starts with
/// ([`BUILTINS`]), and its expansions are quoted: whatever they expand to, it is one word
/// that names no builtin. (Unquoted, a value may be a glob that `nullglob` removes with
/// the letters, and so may a glob written after it, `zz"$x"*`, where the environment sets
/// the option; in zsh, `^` spreads a word over an array, `zz$^@`, and an empty one removes
/// it: the next word would be the command.)
fn past_builtins(info: &WordInfo, text: &[u8], zsh: bool) -> bool {
    let Some(Piece::Lit(prefix)) = info.pieces.first() else {
        return false;
    };
    !info.unread
        && !info.split
        && !info.many
        && !text.iter().any(|c| b"*?[".contains(c))
        && !(zsh && (info.zsh_pattern || text.contains(&b'^')))
        && !prefix.is_empty()
        && prefix
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && !BUILTINS.iter().any(|b| b.starts_with(prefix))
}

/// Whether a command named at run time may be a wrapper that runs its arguments: its
/// written letters start one's name (or no wrapper can be told).
fn past_runners(info: &WordInfo, runners: Option<&rustc_hash::FxHashSet<Vec<u8>>>) -> bool {
    let Some(Piece::Lit(prefix)) = info.pieces.first() else {
        return true;
    };
    runners.is_none_or(|r| r.iter().any(|n| n.starts_with(prefix)))
}

/// Whether `name` is a builtin of bash or zsh ([`BUILTINS`]).
pub(super) fn builtin(name: &[u8]) -> bool {
    // (Asked of every command's name: a set, not a search of the sorted list.)
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&'static [u8]>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| BUILTINS.iter().copied().collect())
        .contains(name)
}

/// Whether the text spells `alias` in any case (`alias`, `unalias`, `BASH_ALIASES`, zsh's
/// `aliases`, `galiases`).
fn spells_alias(text: &[u8]) -> bool {
    memchr::memchr2_iter(b'a', b'A', text).any(|at| {
        text.get(at..at + 5)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"alias"))
    })
}

struct Plain<'a> {
    zsh: bool,
    ends: &'a Ends,
    /// The command's text, where the reading's offsets point (not in `eval` text).
    text: Option<&'a [u8]>,
    numbers: &'a Numbers,
    /// The offsets of the commands whose literal `eval` and `trap` texts were read, in
    /// order (a script may hold thousands: searched, not scanned).
    nested: &'a [u32],
    /// Compound commands and substitutions open around the next event.
    depth: usize,
    /// The event before was a `|`: the next command reads a pipe.
    piped: bool,
    /// Every command so far set names to literal text or sourced an environment's file
    /// (nothing could have written a file or given a name run-time text).
    setup_only: bool,
    /// The compound commands open around the event walked, each with the name of the
    /// function it defines.
    functions: Vec<Option<Vec<u8>>>,
}

impl Plain<'_> {
    /// A heredoc whose body is data, or whose expansions only give a value (a `$(…)` in an
    /// unquoted body is the rules' to deny; here it is not inert).
    fn heredoc(&self, h: &Heredoc) -> bool {
        if h.word_has_expansion {
            return false;
        }
        if h.quoted {
            return true;
        }
        let e = &h.body_eval;
        !e.cut
            && !e.requoted
            && e.pieces.iter().all(|p| match p {
                Piece::Param(p) => self.param(p),
                Piece::Arith(a) => self.numbers.arith(a),
                Piece::Subst(_) | Piece::Lit(_) => false,
            })
    }

    fn event(&mut self, e: &Event) -> bool {
        let piped = std::mem::replace(&mut self.piped, matches!(e, Event::Pipe { .. }));
        let setup = std::mem::replace(&mut self.setup_only, false);
        match e {
            Event::Open(c, _) => {
                self.depth += 1;
                self.functions.push(match c {
                    Compound::Function(name) => Some(name.text.bytes().to_vec()),
                    _ => None,
                });
            }
            Event::Close(_) => {
                self.depth = self.depth.saturating_sub(1);
                self.functions.pop();
            }
            Event::SubstOpen(_) => self.depth += 1,
            Event::SubstClose(..) => self.depth = self.depth.saturating_sub(1),
            Event::Unit => self.setup_only = setup,
            _ => {}
        }
        match e {
            Event::Simple(c) => {
                let at_top = setup && !piped && self.depth == 0 && self.text.is_some();
                let (ok, setup) = self.simple(c, at_top);
                self.setup_only = ok && setup;
                ok
            }
            Event::Open(c, _) => match c {
                Compound::Group | Compound::Subshell | Compound::Loop => true,
                // (zsh expands a function's name word: `function ${(e)x} { …; }`.)
                Compound::Function(name) => self.read(name).value().is_some(),
                Compound::For(name, words) => {
                    let infos: Vec<WordInfo> =
                        words.iter().flatten().map(|w| self.read(w)).collect();
                    if let Some(n) = name.as_deref().and_then(|n| self.read(n).value()) {
                        // (Without `in`: the positional parameters.)
                        self.numbers
                            .assigned(&n, words.is_some() && infos.iter().all(number));
                    }
                    name.as_deref()
                        .is_none_or(|n| self.plain_name(&self.read(n)))
                        && words.iter().flatten().all(|w| !w.from_alias)
                        && infos.iter().all(|i| self.info(i))
                }
                Compound::Case(w) => w.as_deref().is_none_or(|w| self.word(w)),
                Compound::Select(_) | Compound::Coproc => false,
            },
            Event::Close(_)
            | Event::Pipe { .. }
            | Event::SubstOpen(_)
            | Event::SubstClose(..)
            | Event::Unit => true,
            Event::Redirect(r) => self.redirect(r),
            // (`((…))`, `for ((…))`: a name in it evaluates its value.)
            Event::Arith(t) => self.numbers.arith(&word::arith(t, self.ends)),
            Event::Cond(words) => words.iter().all(|w| {
                let info = self.read(w);
                info.value().is_none_or(|v| !arithmetic_or_name_test(&v)) && self.info(&info)
            }),
            Event::Words(words) => words.iter().all(|w| self.word(w)),
        }
    }

    fn read(&self, w: &Word) -> WordInfo {
        // (A word of plain bytes, no quote, expansion, glob, brace or tilde, is its text:
        // most words of a script.)
        let t = w.text.bytes();
        if plain_bytes(t) {
            return WordInfo {
                start: w.start,
                end: w.end,
                pieces: vec![Piece::Lit(t.to_vec())],
                ..WordInfo::default()
            };
        }
        let mut info = word::read(&w.text, self.ends);
        if self.zsh {
            // (EXTENDED_GLOB taken as possibly on: a word it may make a pattern is judged.)
            info.as_zsh_reads();
        }
        info
    }

    /// A name written out as an identifier that is none of the shells' own.
    fn plain_name(&self, info: &WordInfo) -> bool {
        info.value().is_some_and(|n| ordinary_name(&n, self.zsh))
    }

    fn redirect(&self, r: &Redirect) -> bool {
        // (`{fd}>file` assigns the variable the braces name; bash up to 5.2 expands a
        // duplication's word again where it is no number, `>&"$x"`.)
        r.fd.as_deref().is_none_or(|fd| !fd.starts_with(b"{"))
            && r.target.as_ref().is_none_or(|w| {
                self.word(w) && (r.op != RedirOp::Duplicate || self.read(w).value().is_some())
            })
    }

    /// Whether the command is inert, and whether it only sets names to literal text or
    /// sources an environment's file (`setup`: every command before it did, and it reads
    /// no pipe and stands at the top level of the command's own text).
    fn simple(&mut self, c: &SimpleCommand, setup: bool) -> (bool, bool) {
        let inert = self.simple_inert(c, setup);
        if !(inert && setup) {
            return (inert, false);
        }
        let literal = |w: &Word| {
            let t = w.text.bytes();
            plain_bytes(t) || single_quoted(t)
        };
        // (`export NAME`, `export NAME=value` of plain text too: the environment's file
        // reads them.)
        // (Not to a name where a file is looked for: as the judge's `sourced` says.)
        let searched = |w: &Word| {
            let t = w.text.bytes();
            let name = t
                .split(|&b| b == b'=' || b == b'+')
                .next()
                .unwrap_or_default();
            matches!(
                name,
                b"PATH" | b"HOME" | b"CDPATH" | b"PS4" | b"path" | b"cdpath" | b"fpath"
            )
        };
        let exports = c.words.first().is_some_and(|n| n.text.bytes() == b"export")
            && c.words.iter().all(|w| plain_bytes(w.text.bytes()));
        let sets_literals = c.redirects.is_empty()
            && !c.words.iter().any(searched)
            && (exports
                || c.words.iter().all(|w| {
                    word::is_assignment(&w.text)
                        && w.text
                            .bytes()
                            .iter()
                            .position(|&b| b == b'=')
                            .is_some_and(|e| {
                                let v = &w.text.bytes()[e + 1..];
                                v.is_empty() || plain_bytes(v) || single_quoted(v)
                            })
                }));
        let sources = c
            .words
            .first()
            .is_some_and(|n| matches!(n.text.bytes(), b"." | b"source"))
            && c.words.iter().all(literal);
        (inert, sets_literals || sources)
    }

    fn simple_inert(&mut self, c: &SimpleCommand, setup: bool) -> bool {
        if !c.redirects.iter().all(|r| self.redirect(r)) {
            return false;
        }
        let mut words = c.words.iter().peekable();
        // The assignments before the command's name.
        while let Some(w) = words.peek() {
            if w.from_alias {
                return false;
            }
            if !word::is_assignment(&w.text) {
                break;
            }
            let Some(a) = word::assignment(&w.text, self.ends) else {
                return false;
            };
            if !self.assignment(w, &a) {
                return false;
            }
            words.next();
        }
        let Some(name) = words.next() else {
            return true;
        };
        let args: Vec<&Word> = words.collect();
        if name.from_alias || args.iter().any(|w| w.from_alias) {
            return false;
        }
        let name_text = name.text.bytes();
        let runners = self.numbers.runners.as_ref();
        // A wrapper's `"$@"`: it runs what each of its calls names first, a program or a
        // function the command defines ([`Plain::runner_call`] checks every call).
        if matches!(name_text, b"\"$@\"" | b"\"${@}\"") {
            let inside = self.functions.iter().rev().find_map(|f| f.as_deref());
            return inside.is_some_and(|f| runners.is_some_and(|r| r.contains(f)))
                && args.iter().all(|w| self.value_only(w));
        }
        let name: std::borrow::Cow<'_, [u8]> = if plain_bytes(name_text) {
            std::borrow::Cow::Borrowed(name_text)
        } else {
            let info = self.read(name);
            match info.value() {
                Some(v) => std::borrow::Cow::Owned(v),
                // A command named at run time whose name starts with written letters that
                // no builtin's name starts with (`"install_component_$i"`): a program, or
                // a function the command defines, as a name written out is. (Its
                // expansions only give a value; splitting and globbing leave the letters
                // in front of its first field.)
                // (Nor a wrapper's name: it would run what follows it.)
                None if past_builtins(&info, name_text, self.zsh) => {
                    return self.info(&info)
                        && !past_runners(&info, runners)
                        && args.iter().all(|w| self.value_only(w));
                }
                // (A command named at run time, or by a glob or braces.)
                None => return false,
            }
        };
        // (A wrapper may be named like a builtin, `cd() { "$@"; }`, and shadow it.)
        if !self.runner_call(&name, &args) {
            return false;
        }
        // (By its name's value, `\set` and `'shift'` too.)
        if matches!(
            name.as_ref(),
            b"shift" | b"trap" | b"eval" | b"." | b"source"
        ) || (name.as_ref() == b"set" && self.sets_positional(&args))
        {
            self.numbers.positional.set(true);
        }
        if name.contains(&b'/') || !builtin(&name) {
            // A program: a process of its own. (Or a function the command defines.) Its
            // words only give values (a word of plain bytes is its text: not read).
            return args.iter().all(|w| self.value_only(w)) && (!self.zsh || !wide(&name));
        }
        if matches!(
            name.as_ref(),
            b"export" | b"readonly" | b"local" | b"declare" | b"typeset"
        ) {
            // An assignment's value is read once, as the assignment's (the whole word's
            // reading gives the same pieces after its name, an identifier); any other word
            // is an option that only marks (`-x`) or a name of no special meaning.
            return args
                .iter()
                .all(|w| match word::assignment(&w.text, self.ends) {
                    Some(a) => self.assignment(w, &a),
                    None => {
                        let info = self.read(w);
                        self.info(&info)
                            && match info.value() {
                                Some(v) if v.starts_with(b"-") => {
                                    v.len() > 1 && v[1..].iter().all(|c| b"xrgp".contains(c))
                                }
                                _ => self.plain_name(&info),
                            }
                    }
                });
        }
        // (Whatever their words' values: not asked for them.)
        if matches!(
            name.as_ref(),
            b"echo" | b"cd" | b"pwd" | b"true" | b"false" | b":" | b"kill"
        ) {
            return args.iter().all(|w| self.value_only(w));
        }
        let infos: Vec<WordInfo> = args.iter().map(|w| self.read(w)).collect();
        if !infos.iter().all(|i| self.info(i)) {
            return false;
        }
        let lits: Vec<Option<Vec<u8>>> = infos.iter().map(WordInfo::value).collect();
        let all_literal = || lits.iter().all(Option::is_some);
        let lit = |k: usize| lits.get(k).and_then(|l| l.as_deref());
        match name.as_ref() {
            // Literal text, read as a program of its own (inert itself: `inert`).
            b"eval" => all_literal() && self.read_again(c.at),
            // Or listing, or putting a signal's default back.
            b"trap" => {
                all_literal()
                    && (self.read_again(c.at)
                        || lit(0).is_none_or(|a| matches!(a, b"-" | b"-p" | b"-l" | b"-P")))
            }
            // (Where a command is: `-v`, `-V`.)
            b"command" => matches!(lit(0), Some(b"-v" | b"-V")),
            // A file sourced by literal words, with no redirection or assignment to give
            // it the command's text: it runs code the command names, which is explicit.
            // Before anything could have written one or given a name run-time text, at
            // the top level, not piped (`. ./test-lib.sh` at a test's top), it is an
            // environment's file, and what it copies into names is the environment's text
            // and its literal words; elsewhere it may copy any name's text into any name
            // (the judge's `sourced` takes them so). Either way arithmetic on names after
            // it is the judge's ([`Numbers::sourced`]), and so is a trace after a copying
            // one ([`Numbers::copied`]): the inert vocabulary reaches no other evaluator
            // a value can.
            // A path with parameters in it (`. "$TEST_DIRECTORY"/lib.sh`, `source
            // "$PLUGIN_PATH/common/functions"`) names a file at run time, any file: the
            // command names `.` for it all the same, and it may copy as any source not the
            // environment's may.
            b"." | b"source" => {
                self.numbers.sourced.set(true);
                let literal = args.iter().all(|w| plain_bytes(w.text.bytes()))
                    && lit(0).is_some_and(|p| {
                        !p.starts_with(b"-")
                            && !p.starts_with(b"~")
                            && !super::builtins::names_device(p)
                    });
                // (Its written text joined, parameters left out, as the judge reads it: no
                // device, no option, no `~`.)
                let joined = infos
                    .first()
                    .map(WordInfo::written_text)
                    .unwrap_or_default();
                let computed = !literal
                    && !joined.starts_with(b"-")
                    && !joined.starts_with(b"~")
                    && !super::builtins::names_device(&joined)
                    && infos
                        .iter()
                        .any(|i| i.pieces.iter().any(|p| matches!(p, Piece::Param(_))))
                    && infos.iter().all(|i| {
                        i.pieces
                            .iter()
                            .all(|p| matches!(p, Piece::Lit(_) | Piece::Param(_)))
                    });
                if !setup || computed {
                    self.numbers.copied.set(true);
                }
                c.redirects.is_empty() && c.words.len() == args.len() + 1 && (literal || computed)
            }
            b"times" | b"umask" => all_literal(),
            // Completion specifications: what they name (`-F` a function, `-C` a command,
            // `-W` words expanded again) runs only when an interactive shell completes a
            // word, never in the command. (zsh has them only as `bashcompinit`'s
            // functions, the environment's.)
            b"complete" | b"compopt" => true,
            // (zsh evaluates their argument as arithmetic.)
            b"exit" | b"return" | b"break" | b"continue" | b"shift" => infos.iter().all(|i| {
                i.value().is_some_and(|v| v.iter().all(u8::is_ascii_digit))
                    || matches!(i.pieces.as_slice(), [Piece::Param(p)] if plain_param(p) && p.name == b"?")
            }),
            b"wait" => infos.is_empty(),
            // `read -r NAME…`: options that take no value (zsh evaluates `-t`'s and
            // `-k`'s, takes `NAME?prompt`), names of no special meaning.
            b"read" => {
                // (Without a name, `REPLY`.)
                if lits.iter().all(|v| v.as_deref().is_some_and(|v| v.starts_with(b"-"))) {
                    self.numbers.assigned(b"REPLY", false);
                }
                lits.iter().all(|v| {
                v.as_deref().is_some_and(|v| {
                    (v.len() > 1
                        && v[0] == b'-'
                        && v[1..].iter().all(|c| matches!(c, b'r' | b's' | b'e')))
                        || {
                            self.numbers.assigned(v, false);
                            ordinary_name(v, self.zsh)
                        }
                    })
                })
            }
            // (Not `printf -v NAME`; zsh evaluates the arguments of its numeric
            // conversions as arithmetic.)
            b"printf" => {
                lit(0).is_some_and(|f| !f.starts_with(b"-") && (!self.zsh || text_format(f)))
            }
            b"set" => {
                if lits
                    .iter()
                    .flatten()
                    .take_while(|a| a.as_slice() != b"--")
                    .any(|a| matches!(a.first(), Some(b'-' | b'+')) && a.contains(&b'x'))
                {
                    self.numbers.xtrace.set(true);
                }
                set_args(&lits)
            }
            // (Each word one argument, written or double-quoted whole, holding no `@`,
            // `*` or `=`: no value split into words that are operators, `"$@"`,
            // `"${a[@]}"`, zsh's arrays and `${=x}`.)
            b"test" | b"[" if !args.iter().zip(&lits).all(|(w, l)| l.is_some() || one_word(w)) => {
                false
            }
            b"test" => test_args(&lits),
            b"[" => match lits.split_last() {
                Some((Some(close), rest)) if close == b"]" => test_args(rest),
                _ => false,
            },
            _ => false,
        }
    }

    /// `NAME=value`, `NAME+=value` with no subscript and no list (`NAME=(…)`: arrays, whose
    /// `declare NAME=$v` reads a value as a list again), to a name of no special meaning.
    fn assignment(&mut self, w: &Word, a: &word::Assignment) -> bool {
        let t = w.text.bytes();
        let list = t
            .iter()
            .position(|&c| c == b'=')
            .is_some_and(|e| t.get(e + 1) == Some(&b'('));
        self.numbers.assigned(&a.name, number(&a.value));
        !list
            && a.subscript.is_none()
            && ordinary_name(&a.name, self.zsh)
            && a.value.breaks.is_empty()
            && self.info(&a.value)
    }

    fn word(&self, w: &Word) -> bool {
        !w.from_alias && self.value_only(w)
    }

    /// [`Self::info`] of the word's reading (a word of plain bytes gives its text, which
    /// is ASCII and holds no `(`: read without building its reading).
    /// A call of a wrapper that runs its arguments (`ensure mkdir -p "$d"`) names what it
    /// runs with plain text that is no builtin's or wrapper's name: a program, or a
    /// function the command defines. Any other command passes.
    fn runner_call(&self, name: &[u8], args: &[&Word]) -> bool {
        let Some(runners) = self.numbers.runners.as_ref() else {
            return true;
        };
        if !runners.contains(name) {
            return true;
        }
        args.first().is_none_or(|w| {
            let t = w.text.bytes();
            plain_bytes(t)
                && !builtin(t)
                && !runners.contains(t)
                && (!self.zsh || (!wide(t) && !t.starts_with(b"=")))
        })
    }

    /// Whether `set`'s words may give the positional parameters values: `--` or `-` (by
    /// value: `'--'` too), or a word that is no option or `-o`'s name.
    fn sets_positional(&self, args: &[&Word]) -> bool {
        let mut k = 0;
        while let Some(w) = args.get(k) {
            let Some(v) = self.read(w).value() else {
                return true;
            };
            match v.as_slice() {
                b"--" | b"-" => return true,
                // (`-o NAME`, `-eo NAME`.)
                [b'-' | b'+', .., b'o'] => k += 2,
                [b'-' | b'+', ..] => k += 1,
                _ => return true,
            }
        }
        false
    }

    fn value_only(&self, w: &Word) -> bool {
        let t = w.text.bytes();
        plain_bytes(t) || quoted_plain(t) || single_quoted(t) || self.info(&self.read(w))
    }

    /// A word whose expansion only gives a value.
    fn info(&self, info: &WordInfo) -> bool {
        // (zsh's glob qualifiers and `=(…)` run code: an unquoted `(`.)
        if info.unread || (info.process || info.paren) && self.zsh {
            return false;
        }
        info.pieces.iter().all(|p| match p {
            // (zsh's names take letters past ASCII.)
            Piece::Lit(l) => !self.zsh || !wide(l),
            Piece::Param(p) => self.param(p),
            // Its program is among the reading's events, judged with them.
            Piece::Subst(at) => self.ends.end_of(*at).is_some() && self.subst_in_text(*at),
            Piece::Arith(a) => self.numbers.arith(a),
        })
    }

    /// A substitution the text holds as written (`$(`, a backquote or `<(`): bash 5.3's
    /// `${ …; }` runs in the shell itself.
    fn subst_in_text(&self, at: u32) -> bool {
        let Some(rest) = self.text.and_then(|t| t.get(at as usize..)) else {
            return false;
        };
        !(rest.starts_with(b"${") || self.zsh && rest.starts_with(b"="))
    }

    /// The command at `at` is one whose literal text was read (at the top level, where
    /// each command has an offset of its own).
    fn read_again(&self, at: u32) -> bool {
        self.text.is_some() && self.nested.binary_search(&at).is_ok()
    }

    fn param(&self, p: &Param) -> bool {
        let op_ok = match p.op {
            ParamOp::Plain
            | ParamOp::Length
            | ParamOp::Default
            | ParamOp::Alternate
            | ParamOp::Error
            | ParamOp::Part => true,
            // (Not to an element: `${z[0]:=1}` makes an array.)
            ParamOp::Assign => {
                self.numbers
                    .assigned(&p.name, p.arg.as_deref().is_some_and(number));
                ordinary_name(&p.name, self.zsh)
                    && p.subscript.is_none()
                    && p.zsh_subscript.is_none()
            }
            _ => false,
        };
        op_ok
            && plain_param(p)
            && p.subscript.as_deref().is_none_or(name_free)
            && p.slice.iter().all(name_free)
            && p.zsh_subscript.as_deref().is_none_or(name_free)
            && p.arg.as_deref().is_none_or(|a| self.info(a))
    }
}

/// A word of plain bytes: no quote, expansion, glob, brace or tilde; its value is its text,
/// which gives no `(` and nothing past ASCII (most words of a script).
fn plain_bytes(t: &[u8]) -> bool {
    !t.is_empty()
        && t.iter()
            .all(|c| c.is_ascii_alphanumeric() || b"_./:=+,@%-".contains(c))
}

/// A word that is one single-quoted string (`'diff 0'`, `'echo "$(x)" && ...'`): its
/// text, whatever bytes it holds, in every shell (no expansion, pattern, brace or name in
/// it: zsh's glob qualifiers and names past ASCII need unquoted text).
fn single_quoted(t: &[u8]) -> bool {
    t.len() >= 2 && t[0] == b'\'' && t[t.len() - 1] == b'\'' && !t[1..t.len() - 1].contains(&b'\'')
}

/// A double-quoted word of plain bytes, blanks and `$name` expansions, each name ended by
/// a blank, `/`, `-`, `,` or the closing quote (`"line $i $HOME"`): what its reading gives
/// without reading it, literal text and plain parameters (no subscript, no zsh modifier,
/// no `(`), which [`Plain::info`] takes as values only. Most quoted words of a script.
fn quoted_plain(t: &[u8]) -> bool {
    let Some(inner) = t.strip_prefix(b"\"").and_then(|r| r.strip_suffix(b"\"")) else {
        return false;
    };
    let mut i = 0;
    while let Some(&c) = inner.get(i) {
        if c == b'$' {
            let name = inner.get(i + 1..).unwrap_or_default();
            let len = name
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            if len == 0 || name.first().is_some_and(u8::is_ascii_digit) {
                return false;
            }
            i += 1 + len;
            if !matches!(inner.get(i), None | Some(b' ' | b'/' | b'-' | b',')) {
                return false;
            }
            continue;
        }
        if !(c == b' ' || c.is_ascii_alphanumeric() || b"_./:=+,@%-".contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

/// A parameter expansion with no indirection and none of zsh's flags.
fn plain_param(p: &Param) -> bool {
    !p.indirect && !p.zsh_eval && !p.zsh_glob && !p.flags && !p.zsh_char && p.flag_words.is_none()
}

/// Arithmetic that reads no variable: numbers and operators.
fn name_free(a: &Arith) -> bool {
    a.names.is_empty()
        && a.assigned.is_empty()
        && a.params.is_empty()
        && a.substs.is_empty()
        && a.subscripts.is_empty()
        && !a.odd
        && !a.hash
}

/// Bytes past ASCII: zsh takes letters there in names.
fn wide(v: &[u8]) -> bool {
    !v.is_ascii()
}

/// An identifier that is none of the shells' own variables.
fn ordinary_name(name: &[u8], zsh: bool) -> bool {
    crate::shell::syntax::legal_identifier(name)
        && !name.starts_with(b"BASH")
        && !special(name)
        && !super::builtins::integer_on_append(name, zsh)
        && !super::builtins::integer_on_append(name, !zsh)
        && super::walk::special_change(name, zsh).is_none()
        && super::walk::special_change(name, !zsh).is_none()
}

/// Whether `name` is one of [`SPECIALS`] (asked of every name assigned: a set).
fn special(name: &[u8]) -> bool {
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&'static [u8]>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| SPECIALS.iter().copied().collect())
        .contains(name)
}

/// `[[ … ]]` and `test` words that evaluate arithmetic or a name (whose subscript is
/// expanded): `-eq` and the rest, `-v`, `-R`, zsh's `-t`.
fn arithmetic_or_name_test(v: &[u8]) -> bool {
    matches!(
        v,
        b"-eq" | b"-ne" | b"-lt" | b"-le" | b"-gt" | b"-ge" | b"-v" | b"-R" | b"-t"
    )
}

/// `test` words that evaluate a name (whose subscript is expanded): `-v`, `-R`, zsh's
/// `-t` (which evaluates its descriptor as arithmetic).
fn name_test(v: &[u8]) -> bool {
    matches!(v, b"-v" | b"-R" | b"-t")
}

/// A word computed at run time that is one argument: double-quoted whole, with no `@`, `*`
/// or `=` in it.
fn one_word(w: &Word) -> bool {
    let t = w.text.bytes();
    t.len() >= 2
        && t.first() == Some(&b'"')
        && t.last() == Some(&b'"')
        && !t[1..t.len() - 1]
            .iter()
            .any(|c| matches!(c, b'"' | b'@' | b'*' | b'='))
}

/// A `printf` format whose conversions take text (`%s`, `%b`, `%q`, `%%`), with no width or
/// precision taken from an argument: zsh evaluates a numeric conversion's argument.
fn text_format(f: &[u8]) -> bool {
    let mut k = 0;
    while let Some(i) = f.get(k..).and_then(|r| r.iter().position(|&c| c == b'%')) {
        let mut j = k + i + 1;
        while f.get(j).is_some_and(|c| b"-+ #0123456789.$'".contains(c)) {
            j += 1;
        }
        if !matches!(f.get(j), Some(b's' | b'b' | b'q' | b'%')) {
            return false;
        }
        k = j + 1;
    }
    true
}

/// `test`'s arguments (without `[`'s `]`) where no operator can come from a value: one
/// word; a literal unary operator and its operand; an operand, a literal binary operator
/// and an operand; any of these after a literal `!`. Never arithmetic or `-v`.
fn test_args(args: &[Option<Vec<u8>>]) -> bool {
    let lit = |k: usize| args.get(k).and_then(|a| a.as_deref());
    // (`test`'s integer comparisons take integers only, in every bash and zsh: `[ "$v"
    // -eq 1 ]` with `a[$(x)]` in `v` says "integer expression expected" and runs
    // nothing; `[[ ]]`'s evaluate arithmetic.)
    if args.iter().flatten().any(|a| name_test(a)) {
        return false;
    }
    let (rest, from) = if lit(0) == Some(b"!".as_slice()) && args.len() > 1 {
        (&args[1..], 1)
    } else {
        (args, 0)
    };
    match rest.len() {
        0 | 1 => true,
        2 => lit(from).is_some_and(|v| v.starts_with(b"-")),
        3 => lit(from + 1).is_some_and(crate::shell::grammar::test_binop),
        _ => false,
    }
}

/// `set`'s arguments: `-e`, `-u`, `-x`, `-o pipefail` and the like (with `+`), or `--`
/// and positional values. (`-x` prints each command after PS4, which a prompt expands: in
/// an inert reading PS4 is the environment's, no name is given heredoc text a hidden
/// evaluator reads, and what the trace writes reaches none.)
fn set_args(args: &[Option<Vec<u8>>]) -> bool {
    let mut k = 0;
    while let Some(a) = args.get(k) {
        let Some(a) = a.as_deref() else {
            return false;
        };
        if a == b"--" {
            return true;
        }
        match a {
            b"-o" | b"+o" => {
                let Some(Some(o)) = args.get(k + 1) else {
                    return false;
                };
                if !matches!(
                    o.as_slice(),
                    b"pipefail" | b"errexit" | b"nounset" | b"noclobber" | b"errtrace"
                ) {
                    return false;
                }
                k += 2;
                continue;
            }
            _ => {
                let ok = a.len() > 1
                    && matches!(a[0], b'-' | b'+')
                    && a[1..].iter().all(|c| matches!(c, b'e' | b'u' | b'x'))
                    || (a.len() > 2
                        && matches!(a[0], b'-' | b'+')
                        && a.ends_with(b"o")
                        && a[1..a.len() - 1]
                            .iter()
                            .all(|c| matches!(c, b'e' | b'u' | b'x'))
                        && matches!(args.get(k + 1), Some(Some(o)) if o == b"pipefail"));
                if !ok {
                    return false;
                }
                k += if a.ends_with(b"o") { 2 } else { 1 };
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::{Dialect, Shell, read};

    fn inert_in(command: &str, shell: Shell) -> bool {
        let r = read(command, Dialect::new(shell));
        assert!(r.error.is_none(), "{command:?} reads");
        inert(&r, shell == Shell::Zsh, command.as_bytes())
    }

    fn inert_everywhere(command: &str) -> bool {
        [Shell::Bash32, Shell::Bash52, Shell::Bash53, Shell::Zsh]
            .into_iter()
            .all(|s| inert_in(command, s))
    }

    /// Every command is inert in every shell read.
    fn inert_everywhere_all(commands: &[&str]) {
        for c in commands {
            assert!(inert_everywhere(c), "{c:?}");
        }
    }

    /// Every command is left to the judge in some shell read.
    fn judged_everywhere_all(commands: &[&str]) {
        for c in commands {
            assert!(!inert_everywhere(c), "{c:?}");
        }
    }

    /// A quoted or escaped parenthesis is text in zsh too (`zsh -c 'echo "*(e:echo
    /// hi:)"'` prints its text): only an unquoted one may be a glob qualifier.
    #[test]
    fn quoted_parentheses_are_text_in_zsh() {
        for c in [
            "echo \"(x)\"",
            "echo '*(e:echo hi:)'",
            "echo \\(x\\)",
            "say \"need '$1' (command not found)\"",
            "test_expect_success 'diff 0' 'echo \"$(not run)\" >file0'",
        ] {
            assert!(inert_in(c, Shell::Zsh), "{c:?}");
            assert!(inert_everywhere(c), "{c:?}");
        }
    }

    /// A file sourced by literal words runs code the command names (explicit), wherever
    /// it stands; it may copy any name's text into any name, so arithmetic on names is
    /// the judge's after any source, and so is `set -x` with a source that is not the
    /// environment's file (PS4 may be given heredoc text). A source given the command's
    /// text (a redirection, an assignment before it, words that are not literal, a device)
    /// is not inert.
    #[test]
    fn a_file_sourced_by_literal_words_is_inert_where_nothing_reads_what_it_copies() {
        inert_everywhere_all(&[
            "test_description='a b (c)'\n. ./test-lib.sh\necho hi",
            "source .venv/bin/activate\nA=1 B='x y'\n. ./lib.sh arg\npytest -q",
            "GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME=main\nexport GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME\n. ./test-lib.sh",
            ". ./a.sh; . ./b.sh\ncat > f <<'EOF'\n$(x)\nEOF",
            "x=$(id)\n. ./lib.sh",
            "x=\"$y\"\n. ./lib.sh",
            "cat > lib.sh <<'E'\nx\nE\n. ./lib.sh",
            "echo x | . ./lib.sh",
            "{ . ./lib.sh; } <<'E'\nx\nE",
            "f() { . ./lib.sh; }",
            "while :; do . ./lib.sh; done",
            "echo $(. ./lib.sh)",
            "eval '. ./lib.sh'",
            "mkdir d\n. ./lib.sh",
            "export X=$(id)\n. ./lib.sh",
            "export X\nread -r X\n. ./lib.sh",
            "PATH=/opt/x\n. lib.sh",
            ". \"$f\"",
            ". ./lib.sh \"$x\"",
            ". \"$TEST_DIRECTORY\"/lib-httpd.sh\ncat <<'EOF'\n$(x)\nEOF",
            "source \"${BATS_ROOT:-.}/$BATS_LIBDIR/common.bash\"",
            // (The environment's file copies only the environment's text: PS4 too.)
            ". ./test-lib.sh\nset -x\necho hi",
        ]);
        judged_everywhere_all(&[
            ". ./lib.sh <<'E'\nx\nE",
            "X=1 . ./lib.sh",
            ". /dev/stdin",
            ". ./proc/x",
            ". -p x lib.sh",
            ". $(f)",
            ". ./lib.sh $((n))",
            ". /etc/os-release\nread -r debian <<'EOF'\na[$(id)]\nEOF\necho $((ID))",
            // (It may copy `$1`, `$_` or `BASH_REMATCH` into the name: round 104.)
            ". ./lib.sh\n((n))",
            "((n))\nx=literal\n. ./lib.sh",
            "mkdir d; . ./lib.sh; echo $((n + 1))",
            "read -r x <<'EOF'\n1\nEOF\n. ./lib.sh\n((n))",
            "((n))\nx=$(id)\n. ./lib.sh",
            "cat f | . ./lib.sh\n((n))",
            "f() { . ./lib.sh; }\n((n))",
            "{ . ./lib.sh; } <<'EOF'\nx\nEOF\n((n))",
            "mkdir d; x=$(id); . ./lib.sh; echo $((n + 1))",
            "read -r x <<'EOF'\n$(id)\nEOF\necho hi; . ./lib.sh\nset -x\necho done",
            "set -x\nf() { . ./lib.sh; }",
            ". \"$TEST_DIRECTORY\"/lib.sh\nset -x",
        ]);
    }

    /// A command named at run time is a program or a function only where the letters
    /// written in front of its first expansion start no builtin's name; else it may be
    /// `let`, `read` or `printf -v`.
    #[test]
    fn a_command_named_at_run_time_past_every_builtin_is_a_program() {
        inert_everywhere_all(&[
            "\"install_component_$i\" || exit 1",
            "\"run_$k\" arg \"$v\"",
            "zz\"$x\"",
            "\"run_${k}_$j\" x",
        ]);
        for c in [
            "\"$cmd\" x",
            "l$x v",
            "\"le\"$x v",
            "pr$x -v n",
            "type$x x",
            "ex$x -a",
            "x_*$y v",
            "{a,b}$x v",
            "~$x v",
            "=$x v",
            "x=$(id); zz$((x)) v",
            "zz$x setopt globsubst",
            "zz$^@ setopt globsubst",
            "\"zz\"$^@ setopt globsubst",
            "\"zz$^@\" setopt globsubst",
            "zz${^@} setopt globsubst",
            "zz\"$x\"* let v",
            "zz\"$x\"? let v",
            "zz\"$x\"[a] let v",
            "zz${!x} v",
        ] {
            assert!(
                !inert_in(c, Shell::Bash52) || !inert_in(c, Shell::Zsh),
                "{c:?}"
            );
        }
    }

    /// The shortcut for quoted words claims only what reading them gives: where it takes a
    /// word as values only, the word's full reading does too, in bash and zsh.
    #[test]
    fn quoted_plain_words_take_the_shortcut_only_where_their_reading_agrees() {
        let words = [
            "\"line 1 $HOME\"",
            "\"$a-$b/$c,d e\"",
            "\"\"",
            "\"value-1\"",
            "\"$HOME/.local/bin:$PATH\"",
        ];
        for w in words {
            assert!(quoted_plain(w.as_bytes()), "{w}");
            let c = format!("printf %s {w}");
            assert!(inert_everywhere(&c), "{c:?}");
        }
        // What the shortcut leaves to the full reading: subscripts, zsh modifiers and
        // qualifiers, indirection, substitutions, escapes, history, positional names.
        for w in [
            "\"$a[1]\"",
            "\"$a:h\"",
            "\"$a.b\"",
            "\"${a}\"",
            "\"$(x)\"",
            "\"a\\b\"",
            "\"!x\"",
            "\"$1\"",
            "\"$\"",
            "\"a(b)\"",
            "\"a\"b\"",
            "'a'",
        ] {
            assert!(!quoted_plain(w.as_bytes()), "{w}");
        }
    }

    #[test]
    fn programs_plain_builtins_and_plain_assignments_are_inert() {
        inert_everywhere_all(&[
            "cd src && cargo test --release 2>&1 | tail -5",
            "export PATH=\"$HOME/.local/bin:$PATH\"\nset -euo pipefail\nls -la",
            "set -x\nset -ex\nset -xeuo pipefail\nmake",
            "for f in *.txt; do echo \"$f: $(wc -l < \"$f\")\"; done",
            "if [[ -f \"$f\" && $x == y* ]]; then printf '%s\\n' \"${f#./}\"; fi",
            "while read -r line; do echo \"${line:-none}\"; done < in.txt",
            "[ -d build ] || mkdir -p build; test \"$a\" = \"$b\" && exit 0",
            "local_x=$(git rev-parse HEAD) ; echo ${#local_x}",
            "while read -r l; do echo \"got $l\"; done <<'EOF'\n$(x)\nEOF",
            "printf '%s: %b\\n' \"$a\" \"$b\"; [ \"$(id -u)\" = 0 ]",
            // Literal `eval` and `trap` text that is inert itself.
            "cleanup() { rm -rf \"$tmp\"; }\ntrap cleanup EXIT\ntmp=$(mktemp -d)",
            "trap 'rm -f \"$f\"' EXIT INT; trap - INT; trap -p",
            "eval 'n=1'; echo $((n + 1))",
            "if command -v curl >/dev/null 2>&1; then curl -sSf x; fi",
        ]);
    }

    #[test]
    fn what_may_define_an_alias_or_evaluate_is_not_inert() {
        for c in [
            // The alias table, by its builtin or its names.
            "alias s=x",
            "x=1; BASH_ALIASES[s]=y",
            "n=$'\\x41'; unset n",
            // Names assigned at run time.
            "printf -v \"$n\" %s x",
            "read -r \"$n\"",
            "export \"$k=$v\"",
            "declare -n r=x",
            "declare -i n=1",
            // Hidden evaluators.
            "echo $(( x + 1 )); read -r x",
            "(( x )); x=$1",
            "echo \"${a[i]}\"",
            "echo \"${!x}\"",
            "echo \"${x@P}\"",
            "echo \"${x:$o}\"",
            "[[ $a -eq 1 ]]",
            "test -v x",
            "[ $a $b ]",
            "PS4=x",
            "SECONDS=x",
            // Commands named at run time, and builtins not on the list.
            "$cmd x",
            "eval \"$x\"",
            "trap \"$x\" EXIT",
            "trap -- \"$x\" EXIT",
            "eval 'read -r n'; echo $((n))",
            "trap 'n=$1' EXIT; ((n++))",
            "eval \"set -v\"",
            "eval $'\\x61lias s=x'",
            "eval 'eval x'",
            "trap 'echo ${x@P}' EXIT",
            "eval 'echo $(date)'",
            "command x",
            "command -p x",
            "set -x\nPS4='$(id) '",
            "set -x\nexport PS4",
            "set -o posix",
            "shopt -s expand_aliases",
            "exec 3>f",
            "echo x {fd}>f",
            "coproc cat",
            // Round 52: operators a value may be, and a duplication's word.
            "test \"$@\"",
            "a=(-v x); [ \"${a[@]}\" ]",
            "[ $x ]",
            "echo x >&\"$fd\"",
            "declare z=$v; : ${z[0]:=1}",
        ] {
            assert!(!inert_in(c, Shell::Bash52), "{c:?}");
        }
    }

    /// A wrapper that runs its arguments (`ensure() { if ! "$@"; then …; fi; }`) runs what
    /// its calls name first: inert where each call names plain text that is no builtin's
    /// or wrapper's name, and the wrapper keeps its positional parameters.
    #[test]
    fn a_wrapper_running_its_arguments_is_inert_where_every_call_names_a_program() {
        inert_everywhere_all(&[
            "ensure() { if ! \"$@\"; then echo \"failed: $*\" >&2; exit 1; fi; }\nensure mkdir -p \"$d\"\nensure tar -xf x.tar",
            "ignore() { \"$@\"; }\nignore rm -f x\nignore",
            "run() { \"${@}\" > /dev/null 2>&1; }\nrun ./configure --prefix=/usr",
            "set -eu\nset -o pipefail\nset -eo pipefail\nensure() { \"$@\"; }\nensure make",
        ]);
        judged_everywhere_all(&[
            // A builtin, the wrapper itself, a name computed at run time or none written.
            "ensure() { \"$@\"; }\nensure let x",
            "ensure() { \"$@\"; }\nensure read -r x",
            "ensure() { \"$@\"; }\nensure ensure let x",
            "ensure() { \"$@\"; }\nensure \"$cmd\" x",
            "ensure() { \"$@\"; }\n\"ens$x\" let y",
            "ensure() { \"$@\"; }\nensure noglob x",
            // It changes its positional parameters, or runs them where it is no function.
            "ensure() { shift; \"$@\"; }\nensure x let y",
            "ensure() { set -- let x; \"$@\"; }\nensure true",
            "\"$@\"",
            "{ \"$@\"; }",
            "f() { g() { \"$@\"; }; }\nf let x\ng let x",
            // (A wrapper named like a builtin shadows it.)
            "cd() { \"$@\"; }\ncd let x",
            "echo() { \"$@\"; }\necho read x",
            // Round 104: what may change its positional parameters while it runs, by any
            // spelling, anywhere in the command; a name zsh expands.
            "ensure() { \\set -- let x; \"$@\"; }\nensure cat",
            "ensure() { set '--' let x; \"$@\"; }\nensure cat",
            "ensure() { 'shift'; \"$@\"; }\nensure cat let x",
            "ensure() { eval 'set -- let x'; \"$@\"; }\nensure cat",
            "trap 'set -- let x' DEBUG\nensure() { \"$@\"; }\nensure cat",
            "g() { trap 'set -- let x' DEBUG; }\nensure() { g; \"$@\"; }\nensure cat",
            "ensure() { . ./lib.sh; \"$@\"; }\nensure cat",
            "=cat() { \"$@\"; }\n/bin/cat let x",
            "a/b() { \"$@\"; }\na/b let x",
        ]);
    }

    /// `test`'s integer comparisons take integers only (the shells say "integer
    /// expression expected" to `a[$(x)]`); completion specifications run nothing in a
    /// shell that completes no word. `test -v`, `[[ -eq ]]` and `compgen -W` evaluate.
    #[test]
    fn test_comparisons_and_completion_specifications_are_inert() {
        inert_everywhere_all(&[
            "[ \"$n\" -eq 0 ] && echo none",
            "test \"$a\" -lt \"$b\"",
            "complete -F _comp_cmd_acpi acpi",
            "complete -W \"$words\" -o nospace tool",
            "compopt -o filenames",
        ]);
        judged_everywhere_all(&[
            "[ -v \"$n\" ]",
            "test -R \"$n\"",
            "[[ $n -eq 0 ]]",
            "compgen -W \"$words\" -- x",
        ]);
    }

    #[test]
    fn arithmetic_on_names_given_only_numbers_is_inert() {
        inert_everywhere_all(&[
            "pass=0\nfail=0\npass=$((pass + 1)); echo \"$pass $fail\"",
            "for i in 1 2 3; do echo $((i * 2)); done",
            "n=0; ((n++)); (( n > 1 )) && echo big",
            "for ((i = 0; i < 3; i++)); do echo $i; done",
            "x=1; cat <<EOF\n$((x + 1))\nEOF",
            // (Names the command never assigns: the environment's, no heredoc text.)
            "echo $((COUNT + 1))",
            ": ${n:=0}; echo $((n))",
            ": ${n:=}; m=; echo $((n + m))",
            "export n=12; n+=3; echo $((n))",
        ]);
    }

    #[test]
    fn arithmetic_on_a_name_given_text_anywhere_is_not_inert() {
        for c in [
            // Text at any site, before or after the arithmetic, in any form.
            "read -r n; echo $((n))",
            "echo $((n)); n=$(cat f)",
            "n=$1; echo $((n))",
            "n=x; n=1; echo $((n))",
            "export n=\"$v\"; echo $((n))",
            "local n=a; ((n++))",
            "for i in a b; do echo $((i)); done",
            "for i in 1 \"$x\"; do echo $((i)); done",
            "for i; do echo $((i)); done",
            ": ${n:=x}; echo $((n))",
            "while read -r n; do (( n )); done <<'EOF'\n1\nEOF",
            "cat <<EOF\n$((n))\nEOF\nn=$2",
            // The shells' own names, and arithmetic that reads more than names.
            "echo $((REPLY))",
            "echo $((RANDOM + 1))",
            "echo $(($n + 1))",
            "echo $((a[1]))",
            "echo $(($(cat f)))",
            "echo $((16#ff))",
        ] {
            for shell in [Shell::Bash52, Shell::Zsh] {
                assert!(!inert_in(c, shell), "{c:?} {shell:?}");
            }
        }
    }

    /// A name nothing assigns holds the environment's text, which arithmetic evaluates as
    /// an expression: it may name a variable that holds heredoc text (round 103,
    /// `USER=root` in the environment), or one that names `$_` (round 104). Where the
    /// reading holds a heredoc, the judge looks.
    #[test]
    fn arithmetic_on_a_name_nothing_assigns_where_a_heredoc_is_is_not_inert() {
        for c in [
            "read -r root <<'EOF'\na[$(id)]\nEOF\necho $((USER))",
            "read -r <<'EOF'\na[$(id)]\nEOF\necho $((USER))",
            "root=_\necho \"$(cat <<'EOF'\nPATH[$(id)]\nEOF\n)\"\necho $((USER))",
            "n=0; cat > f <<'EOF'\nx\nEOF\necho $((n + COUNT))",
        ] {
            for shell in [Shell::Bash52, Shell::Zsh] {
                assert!(!inert_in(c, shell), "{c:?} {shell:?}");
            }
        }
        // (No heredoc: no heredoc text for the environment's to name.)
        inert_everywhere_all(&[
            "for w in a b; do :; done; echo $((COUNT + 1))",
            "echo $((USER)); x=$(cat f)",
            "n=0; i=1; echo $((n + i + COUNT))",
        ]);
    }

    #[test]
    fn zsh_flags_qualifiers_and_wide_names_are_not_inert_in_zsh() {
        for c in [
            "echo ${(e)x}",
            "echo ${(P)x}",
            // (An unquoted parenthesis: glob qualifiers run code.)
            "echo ${x:-(e:y:)}",
            "echo ${x:-*(e:y:)}",
            "echo $~x",
            "é=1",
            "exit $n",
            // Round 52: zsh's arithmetic in `-t`, `read -t`, printf's numbers, a prompt in a
            // read name, DIRSTACKSIZE.
            "[[ -t x ]]",
            "test -t x",
            "read -t1+x v",
            "read -A 'aliases?'",
            "read 'x?y'",
            "printf '%d' x",
            "DIRSTACKSIZE=$x",
            // Round 54: zsh expands a function's name.
            "function ${(e)x} { :; }",
        ] {
            assert!(!inert_in(c, Shell::Zsh), "{c:?}");
        }
    }

    #[test]
    fn the_word_alias_in_any_case_anywhere_is_not_inert() {
        for t in [
            "alias",
            "x=1; ALIAS",
            "echo BASH_aLiAs",
            "unAlias",
            "a aliaS",
        ] {
            assert!(spells_alias(t.as_bytes()), "{t:?}");
        }
        for t in ["alia", "ali as", "a-l-i-a-s", "", "aaaa"] {
            assert!(!spells_alias(t.as_bytes()), "{t:?}");
        }
    }

    #[test]
    fn the_lists_are_sorted_and_leave_the_exempt_names_out() {
        assert!(BUILTINS.windows(2).all(|w| w[0] < w[1]));
        assert!(SPECIALS.windows(2).all(|w| w[0] < w[1]));
        for n in EXEMPT {
            assert!(!SPECIALS.contains(n), "{}", String::from_utf8_lossy(n));
        }
    }
}
