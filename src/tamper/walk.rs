//! The walk over a command's readings: the events the reader recorded
//! (`crate::shell::tree`) in order, each simple command's words after quote removal
//! (`crate::shell::word`), its redirections, the heredocs and here-strings it reads, and
//! what it pipes on; text a command runs as shell code (`bash -c`, `eval`, a heredoc, a
//! here-string or a pipe given to a shell) read by the reader again and walked the same
//! way. Nothing here looks at the command's text with a scanner of its own.
//!
//! The walk gives [`Action`]s (`commands.rs` says which command does what): a path written,
//! edited, moved away, removed or restored (its name resolved as `paths.rs` resolves it,
//! from every working directory the command can be in: the event's, and each a literal
//! `cd` names), code handed to an interpreter, a change to the guard itself. A word the
//! guard cannot resolve (a substitution, a variable it does not know) names no path:
//! computed paths are not covered. Every word read and every command walked is charged to
//! the readings' work meter.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::Ctx;
use super::braces;
use super::paths::{self, Target};
use crate::shell::text::Text;
use crate::shell::tree::{Compound, Event, RedirOp, Redirect, SimpleCommand, Word};
use crate::shell::word::{self, Ends, WordInfo};
use crate::shell::{Dialect, Reading, Shell, Work};

/// How a command changes a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum How {
    /// Writes it (a redirection, `tee`, `cp`/`mv`/`ln` onto it, `dd of=`, `truncate`).
    Write,
    /// Edits it in place (`sed -i`, `perl -i`, an editor).
    Edit,
    /// Removes it, and what is below it.
    Remove,
    /// Moves it away, and what is below it.
    MoveAway,
    /// Changes its mode, owner or attributes, and what is below it.
    Mode,
    /// Puts back another version of it, and of what is below it (`git checkout`).
    Restore,
    /// Copies a directory onto it: what is below it may be replaced (`cp -r d/. dest`).
    WriteInto,
}

impl How {
    /// What is done to what is below a directory too.
    pub(super) fn recursive(self) -> bool {
        matches!(
            self,
            How::Remove | How::MoveAway | How::Mode | How::Restore | How::WriteInto
        )
    }

    /// It puts text of the command's into the file.
    pub(super) fn writes_content(self) -> bool {
        matches!(self, How::Write | How::Edit)
    }
}

/// One thing a command does that may concern the guard.
#[derive(Clone, Debug)]
pub(super) enum Action {
    /// A change to the guard itself: what it is, for the reason.
    Guard(String),
    /// A path changed: how, and by which command (its name, for the reason).
    Touch {
        target: Target,
        how: How,
        by: String,
    },
    /// `find` removing (or running a command on) what it finds under `starts`, filtered by
    /// its `-name` patterns and its `-path` patterns.
    Find {
        starts: Vec<Target>,
        names: Vec<String>,
        paths: Vec<String>,
    },
    /// Code an interpreter runs (its arguments and what it reads on standard input), and
    /// the paths it names (in its text and as operands).
    Code {
        by: String,
        text: Vec<u8>,
        named: Vec<Target>,
    },
    /// Shell text the guard does not read (nested past its limits) that names the guard's
    /// places.
    Unread,
}

/// Commands whose output, piped on, is their input, or a part of it or made from it: all of
/// it counts as text the command shows (`… | tee /dev/null | sh`, round 79).
const PASSES_INPUT: [&str; 12] = [
    "cat", "head", "tail", "tac", "tee", "sort", "uniq", "grep", "egrep", "fgrep", "cut", "tr",
];

/// A compound command open around the events walked: what is piped into it (which a
/// command in it may read), and, where its output is piped on, what its commands write
/// (round 81: `… | { sed p; } | sh`, `… | while read -r l; do echo "$l"; done | sh`).
struct Frame {
    input: Option<Vec<Shown>>,
    /// Its input was given to it (piped into it, its own heredoc or here-string), not
    /// inherited from a compound around it: it passes it on, once.
    own_input: bool,
    /// Its output is piped into another command (its own, or an enclosing one's).
    collects: bool,
    out: Vec<Shown>,
}

/// A text the command shows that a command reads or writes on a pipe: shared, not copied,
/// as it goes from stage to stage.
pub(super) type Shown = Rc<[u8]>;

/// Adds `texts` to `out`, each once (the same text passed on by several stages is one).
/// (Empty texts add nothing; the search for the same text looks at the last few, where a
/// text passed on by the stage before stands: a list of many texts is joined into one at
/// its compound's end, so it stays short.)
fn add_shown(out: &mut Vec<Shown>, texts: Vec<Shown>) {
    for t in texts {
        if !t.is_empty() && !out.iter().rev().take(16).any(|o| Rc::ptr_eq(o, &t)) {
            out.push(t);
        }
    }
}

/// The compound commands of `events` whose output is piped on, or that are given a heredoc or
/// a here-string of their own, by the index of their opening event: the index of their
/// closing event, and whether their output is piped on (past their redirections). (Most
/// readings have none: one pass, no allocation then.)
fn compounds(events: &[Event]) -> rustc_hash::FxHashMap<usize, (usize, bool)> {
    let mut out = rustc_hash::FxHashMap::default();
    let mut open: Vec<usize> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::Open(..) => open.push(i),
            Event::Close(_) => {
                let Some(o) = open.pop() else { continue };
                let after = || {
                    events[i + 1..]
                        .iter()
                        .take_while(|e| matches!(e, Event::Redirect(_)))
                };
                let given = after().any(|e| {
                    matches!(e, Event::Redirect(rd) if matches!(rd.op, RedirOp::Heredoc | RedirOp::HereString))
                });
                let piped_on = matches!(
                    events[i + 1..]
                        .iter()
                        .find(|e| !matches!(e, Event::Redirect(_))),
                    Some(Event::Pipe { .. })
                );
                if given || piped_on {
                    out.insert(o, (i, piped_on));
                }
            }
            _ => {}
        }
    }
    out
}

/// Commands whose output holds no text of their input, only a count or a digest of it
/// (`… | wc -c | sh`): what they read is not passed on ([`Walker::passed_on`]).
const COUNTS_INPUT: [&str; 9] = [
    "wc",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
];

/// Commands whose output is their words, escapes decoded and a format applied
/// ([`Walker::printed`]).
const PRINTS_WORDS: [&str; 3] = ["echo", "print", "printf"];

/// What a change made by the shell itself, not by a command, is said to be done by (the
/// reason says "write PATH through …").
pub(super) const BY_REDIRECTION: &str = "a redirection";
pub(super) const BY_MAPFILE: &str = "zsh's mapfile";

/// Whether a word whose text is `raw` may name one of [`PRINTS_WORDS`], by any path
/// (`/usr/bin/printf`) or spelling (`\printf`, `"printf"`).
fn may_name_printer(raw: &[u8]) -> bool {
    let base = &raw[crate::search::rfind_byte(raw, b'/').map_or(0, |k| k + 1)..];
    crate::shell::syntax::may_be_one_of(base, &PRINTS_WORDS.map(str::as_bytes))
}

/// Deepest nesting of shell text run by a shell (`bash -c`, `eval`, a heredoc given to a
/// shell) that is read.
pub(super) const MAX_DEPTH: usize = 4;
/// Most nested shell texts read for one command.
pub(super) const MAX_NESTED: usize = 64;
/// Most names whose values are followed, and values kept for each.
const MAX_NAMES: usize = 256;
const MAX_VALUES: usize = 16;
/// Most working directories followed (the event's and those `cd` names).
pub(super) const MAX_CWDS: usize = 8;

/// Substrings of shell text that could concern the guard, for text that is not read.
const MARKERS: [&str; 10] = [
    "heredoc-guard",
    ".claude",
    ".codex",
    ".gemini",
    ".copilot",
    "/etc/",
    "/Library/",
    "settings",
    "hooks",
    "config",
];

/// A word of a simple command, read.
#[derive(Clone)]
pub(super) struct Arg {
    /// Its one value, when the guard knows it (literal pieces and known variables; no
    /// glob, no brace expansion).
    pub(super) value: Option<String>,
    /// The texts it stands for as paths, and whether they are globs ([`Arg::texts`]).
    texts: Texts,
    /// The words brace expansion makes of it ([`braces::expand`]): a command's arguments
    /// are those words.
    split: Option<Vec<Arg>>,
    /// Brace expansion makes more words of it than are followed.
    unsplit: bool,
}

/// The texts an argument stands for as paths.
#[derive(Clone, Debug)]
enum Texts {
    /// Not known.
    Unknown,
    /// Its one value, no glob (most words: kept once).
    Value,
    Some(Vec<String>, bool),
}

impl Arg {
    /// A word whose one value is `v`, a path as written (no glob).
    pub(super) fn plain(v: String) -> Arg {
        Arg {
            value: Some(v),
            texts: Texts::Value,
            split: None,
            unsplit: false,
        }
    }

    /// An argument that stands for `texts` (globs when `glob`), of no one known value.
    pub(super) fn unvalued(texts: Option<(Vec<String>, bool)>) -> Arg {
        Arg {
            value: None,
            texts: match texts {
                Some((t, glob)) => Texts::Some(t, glob),
                None => Texts::Unknown,
            },
            split: None,
            unsplit: false,
        }
    }

    /// The texts it stands for as paths, and whether they are globs.
    pub(super) fn texts(&self) -> Option<(&[String], bool)> {
        match &self.texts {
            Texts::Unknown => None,
            Texts::Value => self
                .value
                .as_ref()
                .map(|v| (std::slice::from_ref(v), false)),
            Texts::Some(t, glob) => Some((t.as_slice(), *glob)),
        }
    }

    pub(super) fn is(&self, s: &str) -> bool {
        self.value.as_deref() == Some(s)
    }

    pub(super) fn v(&self) -> &str {
        self.value.as_deref().unwrap_or("")
    }

    /// An option word: `-x…` or `--…` (not `-` alone).
    pub(super) fn is_option(&self) -> bool {
        self.value
            .as_deref()
            .is_some_and(|v| v.starts_with('-') && v.len() > 1)
    }
}

/// The walk over one command's readings.
pub(super) struct Walker<'a> {
    pub(super) ctx: &'a Ctx,
    pub(super) work: &'a Work,
    /// Every working directory a command can be in (once the pending `cd`s are taken in).
    pub(super) cwds: Vec<PathBuf>,
    /// The `cd`s walked whose directories are not yet in [`Walker::cwds`], in order
    /// (`None`: to the home directory).
    pub(super) pending_cds: Vec<Option<Arg>>,
    pub(super) actions: Vec<Action>,
    /// Text the command shows beyond its own bytes: word values that quote removal or
    /// escapes change, nested shell text.
    pub(super) shown: Vec<Vec<u8>>,
    /// Simple commands already walked (the readings mostly agree), by their [`key`].
    seen: HashSet<u64>,
    /// More than one reading of the command is walked: its simple commands are looked up
    /// in [`Walker::seen`] (one reading meets each of its own once; nested text, read by
    /// two shells, always is).
    pub(super) readings_agree: bool,
    /// The paths already touched, and how: the same change to the same path is one
    /// action (the first, which is the one judged).
    touched: rustc_hash::FxHashSet<(Target, How)>,
    /// The keys' hasher, keyed at random for each process: a command whose key is that of
    /// one walked before is not walked, so the keys must not be foreseeable (with a fixed
    /// key, a command could be written to collide with a harmless one before it, and hide).
    hashes: std::collections::hash_map::RandomState,
    /// The substitutions of the reading being walked that say where a program is.
    located: HashMap<u32, String>,
    /// The body of each heredoc of the reading being walked, by its operator's offset.
    bodies: HashMap<u32, (u32, u32)>,
    /// The literal values the command gives each name.
    vars: HashMap<Vec<u8>, Vec<String>>,
    nested: usize,
    /// Nested shell texts already read and walked (every reading of the command meets
    /// the same `eval` text), by their hash ([`Walker::hashes`]).
    nested_seen: HashSet<u64>,
    /// What the next reading walked is given on standard input as a whole (text run with
    /// input: `… | eval sh`, `… | sh -c 'cat | sh'`; [`Walker::nested_fed`]).
    feed: Option<Vec<Shown>>,
    /// What a redirection-only `exec` left the shell reading when the last reading walked
    /// ended: `eval "exec <<<'…'"; sh` (round 82; a child shell's is taken too).
    exec_left: Option<Vec<Shown>>,
    /// The traps set in the reading walked (their text; `None`: computed at run time):
    /// walked again where a later redirection-only `exec` changes what the shell reads
    /// (`trap sh EXIT; exec <<<'…'`; round 82).
    pub(super) traps: Vec<Option<String>>,
    /// The meter ran out: the walk stopped.
    pub(super) over: bool,
    /// Each path text's targets from the working directories (emptied when they change).
    /// (By the text, then whether it is a glob: looked up by the borrowed text.)
    pub(super) target_cache:
        std::cell::RefCell<rustc_hash::FxHashMap<String, [Option<Vec<Target>>; 2]>>,
    /// The words being read are a reader's (`echo`, `grep`, `export`, …: [`READERS`]
    /// with its output piped nowhere): what a word stands for as a path is not needed
    /// (such a program writes nothing it is given), only the text it shows.
    ///
    /// [`READERS`]: super::commands::READERS
    words_only: bool,
    /// The names of the functions the command defines (in any reading walked, its `eval`
    /// texts too): such a name runs the function, not the program (`read() { rm -f "$1";
    /// }; read f`: round 76), so it is no reader.
    shadowed: rustc_hash::FxHashSet<Vec<u8>>,
    /// The functions and aliases the command defines that may run what they read: their
    /// body or value runs a shell, an interpreter, `eval`, `source`, a wrapper, a trap, a
    /// name computed at run time, or another of the command's functions ([`Walker::input_runners`];
    /// round 82).
    pub(super) runs_input: rustc_hash::FxHashSet<Vec<u8>>,
    /// A `command_not_found_handle` the command defines may run what it reads: any
    /// command given text may run it.
    pub(super) any_runs_input: bool,
    /// A function is defined under a name the walk cannot tell (quoted, expanded, zsh's
    /// `functions[…]=`): no name is taken for a reader.
    shadow_all: bool,
    /// Text a shell runs later as code that the command shows quoted: a subscript with a
    /// substitution in a name or value given to the shell (`read 'a[$(rm f)]'`, a value
    /// `'a[$(rm f)]'` later read by arithmetic: round 76), walked as nested shell text.
    subscript_code: Vec<Vec<u8>>,
    /// The words being read are a builtin's that takes names or arithmetic
    /// ([`TAKES_NAMES`]).
    takes_names: bool,
    /// The command names zsh's `module_path` (where `zmodload` looks modules up).
    pub(super) module_path_named: bool,
    /// The text names `mapfile` (zsh's parameter of files).
    mapfile_named: bool,
    /// Walking the words of a program the rule does not know as a command
    /// ([`Walker::unknown_runs`]): a program it does not know among them adds no walk of
    /// its own, its later words are each walked from the outer one.
    pub(super) in_unknown: bool,
}

impl<'a> Walker<'a> {
    pub(super) fn new(ctx: &'a Ctx, work: &'a Work) -> Walker<'a> {
        Walker {
            ctx,
            work,
            cwds: ctx.cwd.iter().cloned().collect(),
            pending_cds: Vec::new(),
            actions: Vec::new(),
            shown: Vec::new(),
            seen: HashSet::new(),
            readings_agree: false,
            touched: rustc_hash::FxHashSet::default(),
            hashes: std::collections::hash_map::RandomState::new(),
            located: HashMap::new(),
            bodies: HashMap::new(),
            vars: HashMap::new(),
            nested: 0,
            nested_seen: HashSet::new(),
            feed: None,
            exec_left: None,
            traps: Vec::new(),
            over: false,
            target_cache: std::cell::RefCell::new(rustc_hash::FxHashMap::default()),
            words_only: false,
            shadowed: rustc_hash::FxHashSet::default(),
            runs_input: rustc_hash::FxHashSet::default(),
            any_runs_input: false,
            shadow_all: false,
            subscript_code: Vec::new(),
            takes_names: false,
            module_path_named: false,
            mapfile_named: false,
            in_unknown: false,
        }
    }

    /// Whether `name` (a command's name) only reads what it is given: one of
    /// [`super::commands::READERS`] that the command does not define as a function.
    pub(super) fn reader(&self, name: &str) -> bool {
        !self.shadow_all
            && !self.shadowed.contains(name.as_bytes())
            && super::commands::is_reader(name)
    }

    /// Takes in the functions reading `r` of `text` defines, its literal `eval` and
    /// `trap` texts' too ([`Walker::shadowed`]); where the text may rebind a name another
    /// way (zsh's `functions` table, `hash`, `BASH_CMDS`, zsh's `commands`, an alias table
    /// or an alias named at run time, an exported function, `fpath` and `autoload`,
    /// `PATH`, `enable`, `eval`, a sourced file, `command_not_found_handle`), no name is
    /// taken for a reader (round 76).
    fn functions_defined(&mut self, r: &Reading, text: &[u8]) {
        if crate::search::find(text, b"mapfile").is_some() {
            self.mapfile_named = true;
        }
        if crate::search::find(text, b"module_path").is_some()
            || crate::search::find(text, b"MODULE_PATH").is_some()
        {
            self.module_path_named = true;
        }
        if self.shadow_all {
            // (Nothing more to learn: no name is a reader.)
            return;
        }
        let holds = |m: &[u8]| crate::search::find(text, m).is_some();
        if writes_tables(text) {
            self.shadow_all = true;
            return;
        }
        // (The commands are looked at only where the text may define a function, name one
        // of the commands above, or source a file.)
        // (Or a name spelled with quotes, escapes or expansions: `'ev'al`, `\\.`, `$e`.)
        let scan = memchr::memchr3(b'(', b'\'', b'"', text).is_some()
            || memchr::memchr3(b'\\', b'$', b'`', text).is_some()
            || holds(b"function")
            || REBINDERS.iter().any(|m| holds(m))
            || holds(b". ")
            || holds(b".\t");
        for e in r.events.iter().filter(|_| scan) {
            match e {
                Event::Open(Compound::Function(w), _) => {
                    let raw = w.text.bytes();
                    if raw.is_empty()
                        || raw
                            .iter()
                            .any(|c| matches!(c, b'\'' | b'"' | b'\\' | b'$' | b'`'))
                    {
                        self.shadow_all = true;
                    } else {
                        // (`/bin/cat() {…}` runs for `/bin/cat`, which names `cat`.)
                        let base = match crate::search::rfind_byte(raw, b'/') {
                            Some(at) => &raw[at + 1..],
                            None => raw,
                        };
                        self.shadowed.insert(base.to_vec());
                        self.shadowed.insert(raw.to_vec());
                    }
                }
                // The command's name (a sourced file may define any function: `.` too).
                Event::Simple(c) if command_name(&c.words).is_some_and(rebinds) => {
                    self.shadow_all = true;
                }
                _ => {}
            }
        }
        for n in &r.nested {
            self.functions_defined(&n.reading, &n.text);
        }
    }

    /// The functions reading `r` defines whose body may run what they read
    /// ([`Walker::runs_input`]): each simple command in it is looked at (a call of another
    /// function it defines counts, in any order).
    fn input_runners(&mut self, r: &Reading) {
        let names: Vec<Vec<u8>> = r
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Open(Compound::Function(w), _) => Some(unquoted_name(w.text.bytes())),
                _ => None,
            })
            .collect();
        if !names.is_empty() {
            // (Looked up by name: a script defines hundreds.)
            let set: rustc_hash::FxHashSet<&[u8]> = names.iter().map(Vec::as_slice).collect();
            let mut runs = vec![false; names.len()];
            let mut open: Vec<Option<usize>> = Vec::new();
            let mut k = 0;
            for e in &r.events {
                match e {
                    Event::Open(Compound::Function(_), _) => {
                        open.push(Some(k));
                        k += 1;
                    }
                    Event::Open(..) => open.push(None),
                    Event::Close(_) => {
                        open.pop();
                    }
                    Event::Simple(c)
                        if open.iter().any(Option::is_some) && self.may_run_input(c, &set) =>
                    {
                        for &i in open.iter().flatten() {
                            runs[i] = true;
                        }
                    }
                    _ => {}
                }
            }
            for (n, runs) in names.into_iter().zip(runs) {
                if !runs {
                    continue;
                }
                if matches!(
                    n.as_slice(),
                    b"command_not_found_handle" | b"command_not_found_handler"
                ) {
                    self.any_runs_input = true;
                }
                let base = match crate::search::rfind_byte(&n, b'/') {
                    Some(at) => n[at + 1..].to_vec(),
                    None => n.clone(),
                };
                self.runs_input.insert(base);
                self.runs_input.insert(n);
            }
        }
        for n in &r.nested {
            self.input_runners(&n.reading);
        }
    }

    /// Whether simple command `c`, in a function's body, may run what the function reads:
    /// named at run time or otherwise than as written, a shell, an interpreter, `eval`,
    /// `source`, a trap, a wrapper (of any of them), or one of the command's functions
    /// `names`.
    pub(super) fn may_run_input(
        &self,
        c: &SimpleCommand,
        names: &rustc_hash::FxHashSet<&[u8]>,
    ) -> bool {
        use super::commands::{Kind, kind};
        let Some(raw) = command_name(&c.words) else {
            return false;
        };
        if !word::as_written(raw) || names.contains(raw) {
            return true;
        }
        let base = &raw[crate::search::rfind_byte(raw, b'/').map_or(0, |k| k + 1)..];
        let Ok(name) = std::str::from_utf8(base) else {
            return true;
        };
        let k = kind(name, self.ctx);
        names.contains(base)
            || matches!(
                k,
                Some(
                    Kind::Shell
                        | Kind::Interpreter
                        | Kind::Eval
                        | Kind::Source
                        | Kind::Trap
                        | Kind::Wrapper
                        | Kind::Awk
                )
            )
            // (A program the rule does not know that runs a shell on what it reads, or
            // whose words run one: `… | flock l xargs sh`, `… | unshare`; round 94.)
            || (k.is_none()
                && !self.reader(name)
                && (super::commands::runs_input_or_text(name)
                    || c.words.iter().skip(1).any(|w| {
                        let t = w.text.bytes();
                        !word::as_written(t)
                            || std::str::from_utf8(t).map_or(true, |t| {
                                super::commands::names_rule_command(t, self.ctx)
                            })
                    })))
    }

    /// Walks reading `r` of `text` (the command, or nested shell text) at `depth`.
    pub(super) fn reading(&mut self, r: &Reading, text: &[u8], depth: usize) {
        self.functions_defined(r, text);
        self.input_runners(r);
        let ends = Ends::of(&r.events);
        let found = self.located(r, &ends);
        self.assignments(r, &ends);
        let saved = std::mem::replace(&mut self.located, found);
        let bodies = r.heredocs.iter().map(|h| (h.op, h.body)).collect();
        let saved_bodies = std::mem::replace(&mut self.bodies, bodies);
        let mut last_out: Option<Vec<Shown>> = None;
        // What the last pipe carries, and how deep in substitutions it was made: the
        // command at that depth reads it, and a command in a substitution of that stage
        // reads it as well (`… | grep "$(cat)"`, `… | tee >(sh)`: round 81).
        let mut piped: Option<(usize, Vec<Shown>)> = None;
        let mut subst_depth = 0usize;
        // What every command after it reads in place of what it is given otherwise: the
        // input the text was given as a whole, and what a redirection-only `exec` gives the
        // shell (`exec <<<'…'; sh`, `exec 3<<'EOF'` then `sh <&3`; round 82).
        let mut exec_input: Option<Vec<Shown>> = self.feed.take();
        // The compound commands open around the event walked ([`Frame`]), and those piped
        // on or given a heredoc or here-string, by their opening event.
        let mut frames: Vec<Frame> = Vec::new();
        let compounds = compounds(&r.events);
        for (i, e) in r.events.iter().enumerate() {
            if self.over {
                return;
            }
            let next_pipe = matches!(r.events.get(i + 1), Some(Event::Pipe { .. }));
            match e {
                Event::Simple(c) => {
                    let mine = match &piped {
                        Some((d, t)) if *d < subst_depth => Some(t.clone()),
                        Some((d, _)) if *d == subst_depth => piped.take().map(|(_, t)| t),
                        _ => None,
                    };
                    // (In a compound command given text, each command may read it: its
                    // first, and any after it that the ones before left it to, `… | if
                    // true; then sh; fi`, `… | { true; env -u X sh; }`; round 82.)
                    let given = match (mine, frames.last()) {
                        (Some(t), _) => Some(t),
                        (None, Some(f)) => f.input.clone(),
                        _ => None,
                    };
                    let given = match (given, &exec_input) {
                        (g, None) => g,
                        (None, Some(e)) => Some(e.clone()),
                        (Some(mut g), Some(e)) => {
                            g.extend(e.iter().cloned());
                            Some(g)
                        }
                    };
                    if is_exec_only(c) {
                        let mut texts: Vec<Shown> = exec_input.take().unwrap_or_default();
                        for rd in &c.redirects {
                            texts.extend(self.given_text(rd, text, &ends));
                        }
                        if !self.charge(1 + texts.len()) {
                            return;
                        }
                        exec_input = (!texts.is_empty()).then_some(texts);
                    }
                    let stdin = match given {
                        Some(t) => match self.owned(t) {
                            Some(t) => Some(t),
                            None => return,
                        },
                        None => None,
                    };
                    // What it writes matters only to a command it pipes into, or to the one
                    // a compound command around it pipes into.
                    let collects = !next_pipe && frames.last().is_some_and(|f| f.collects);
                    self.exec_left = None;
                    let out = self.simple(c, text, &ends, stdin, depth, next_pipe || collects);
                    // (Text it ran, `eval "exec <<<'…'"`, may have left the shell another
                    // standard input.)
                    if let Some(left) = self.exec_left.take() {
                        exec_input = Some(left);
                    }
                    last_out = None;
                    match frames.last_mut() {
                        Some(f) if collects => {
                            let out = out.unwrap_or_default();
                            if !self.charge(1 + out.len()) {
                                return;
                            }
                            add_shown(&mut f.out, out);
                        }
                        _ => last_out = out,
                    }
                }
                Event::Open(..) => {
                    let shape = compounds.get(&i).copied();
                    // Its own heredocs and here-strings (`{ sh; } <<'EOF'`), else what is
                    // piped into it, else what its parent was given.
                    let own = shape
                        .and_then(|(close, _)| self.stage_input(&r.events, close, text, &ends));
                    let piped_in = piped.take_if(|(d, _)| *d == subst_depth).map(|(_, t)| t);
                    let own_input = own.is_some() || piped_in.is_some();
                    let parent = frames.last();
                    let inherited = match (&own, &piped_in, parent) {
                        (None, None, Some(f)) => f.input.clone(),
                        _ => None,
                    };
                    // (Copied from its parent's: charged, the texts shared.)
                    if !self.charge(1 + inherited.as_ref().map_or(0, Vec::len)) {
                        return;
                    }
                    let input = own.or(piped_in).or(inherited);
                    let collects = shape.is_some_and(|(_, piped_on)| piped_on)
                        || parent.is_some_and(|f| f.collects);
                    frames.push(Frame {
                        input,
                        own_input,
                        collects,
                        out: Vec::new(),
                    });
                    last_out = None;
                }
                Event::Close(_) => {
                    last_out = None;
                    if let Some(mut f) = frames.pop().filter(|f| f.collects) {
                        // What it was given may be passed on (`while read -r l; do echo
                        // "$l"; done`, `{ cat; }`; once, by the compound it was given to).
                        if f.own_input
                            && let Some(t) = f.input.take()
                        {
                            let Some(t) = self.owned(t) else {
                                return;
                            };
                            add_shown(&mut f.out, t);
                        }
                        // (Many texts, one after another on the pipe: one text, read once.)
                        if f.out.len() > 8 {
                            let mut joined: Vec<u8> = Vec::new();
                            for t in &f.out {
                                joined.extend_from_slice(t);
                                joined.push(b'\n');
                            }
                            if !self.charge(1 + joined.len() / crate::shell::BYTES_PER_WORK) {
                                return;
                            }
                            f.out = vec![Rc::from(joined)];
                        }
                        // (Its redirections stand between it and the pipe.)
                        let piped_on = matches!(
                            r.events[i + 1..]
                                .iter()
                                .find(|e| !matches!(e, Event::Redirect(_))),
                            Some(Event::Pipe { .. })
                        );
                        if piped_on {
                            last_out = (!f.out.is_empty()).then_some(f.out);
                        } else if let Some(p) = frames.last_mut().filter(|p| p.collects) {
                            if !self.charge(1 + f.out.len()) {
                                return;
                            }
                            add_shown(&mut p.out, f.out);
                        }
                    }
                }
                Event::Pipe { .. } => piped = last_out.take().map(|t| (subst_depth, t)),
                Event::SubstOpen(_) => {
                    subst_depth += 1;
                    last_out = None;
                }
                Event::SubstClose(..) => {
                    subst_depth = subst_depth.saturating_sub(1);
                    last_out = None;
                }
                // (A compound command's redirections: its output still goes to a pipe
                // after them.)
                Event::Redirect(rd) => self.redirect(rd, &ends, BY_REDIRECTION),
                // `[[ -v 'a[$(…)]' ]]`, `[[ 'a[$(…)]' -eq 0 ]]`: a name or arithmetic the
                // shell evaluates, its subscript's command run.
                Event::Cond(words) => {
                    last_out = None;
                    for w in words {
                        if memchr::memchr(b'[', w.text.bytes()).is_none() {
                            continue;
                        }
                        let Some(info) = self.word(w, &ends) else {
                            return;
                        };
                        let lit = info.written_text();
                        if subscript_code(&lit) {
                            self.subscript_code.push(lit);
                        }
                    }
                }
                _ => last_out = None,
            }
        }
        self.located = saved;
        self.bodies = saved_bodies;
        if let Some(input) = &exec_input {
            for t in std::mem::take(&mut self.traps) {
                match t {
                    Some(t) => self.nested_fed(t.as_bytes(), depth, input),
                    None => {
                        for text in input {
                            self.nested(text, depth);
                        }
                    }
                }
            }
        }
        self.exec_left = exec_input;
        for code in std::mem::take(&mut self.subscript_code) {
            if self.over {
                return;
            }
            self.nested(&code, depth);
        }
    }

    /// The substitutions of reading `r` that only say where a program is (`$(command -v
    /// heredoc-guard)`, `` `which X` ``, `$(type -P X)`), by their offset: the path of the
    /// first `X` in a PATH directory.
    fn located(&mut self, r: &Reading, ends: &Ends) -> HashMap<u32, String> {
        let mut out = HashMap::new();
        // Each open substitution: its offset and the simple commands directly in it.
        let mut open: Vec<(u32, Vec<&SimpleCommand>, bool)> = Vec::new();
        for e in &r.events {
            match e {
                Event::SubstOpen(at) => open.push((*at, Vec::new(), false)),
                Event::SubstClose(at, _) => {
                    let Some((start, simples, other)) = open.pop() else {
                        continue;
                    };
                    if let Some(parent) = open.last_mut() {
                        parent.2 = true;
                    }
                    if start != *at || other {
                        continue;
                    }
                    if let [c] = simples.as_slice()
                        && let Some(path) = self.lookup(c, ends)
                    {
                        out.insert(start, path);
                    }
                }
                Event::Simple(c) => {
                    if let Some(top) = open.last_mut() {
                        top.1.push(c);
                    }
                }
                _ => {
                    if let Some(top) = open.last_mut() {
                        top.2 = true;
                    }
                }
            }
        }
        out
    }

    /// `which X`, `command -v X`, `type -p X`, `type -P X`, `whence -p X`: where X is.
    fn lookup(&mut self, c: &SimpleCommand, ends: &Ends) -> Option<String> {
        if !c.redirects.is_empty()
            || !(2..=3).contains(&c.words.len())
            || c.words.first().is_some_and(|w| {
                !crate::shell::syntax::may_be_one_of(
                    w.text.bytes(),
                    &[b"which", b"command", b"type", b"whence"],
                )
            })
        {
            return None;
        }
        let mut values = Vec::with_capacity(c.words.len());
        for w in &c.words {
            values.push(self.word(w, ends)?.value()?);
        }
        let words: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let name = match words.as_slice() {
            [b"which", x] | [b"command", b"-v", x] | [b"type", b"-p" | b"-P", x] => x,
            [b"whence", b"-p", x] => x,
            _ => return None,
        };
        let name = std::str::from_utf8(name).ok()?;
        if name.contains('/') {
            return None;
        }
        self.ctx
            .path_dirs
            .iter()
            .map(|d| d.join(name))
            .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
            .map(|p| p.to_string_lossy().into_owned())
    }

    pub(super) fn charge(&mut self, n: usize) -> bool {
        if !self.work.charge(n) {
            self.over = true;
        }
        !self.over
    }

    /// Reads a word, charging the meter.
    fn word(&mut self, w: &Word, ends: &Ends) -> Option<WordInfo> {
        let (info, steps) = word::read_counted(&w.text, ends);
        self.charge(steps + 1).then_some(info)
    }

    fn arg(&mut self, w: &Word, ends: &Ends) -> Option<Arg> {
        let raw = w.text.bytes();
        // A reader's word (no path, no element of zsh's `mapfile`) matters only for the
        // text it shows, where that text may hold a switch, and for a subscript a builtin
        // that takes names evaluates ([`Walker::arg_of`]); one that can spell neither is
        // not read.
        if self.words_only
            && !self.mapfile_named
            && !may_show(raw, self.takes_names.then_some(b"[".as_slice()))
        {
            return self
                .charge(1 + raw.len() / crate::shell::BYTES_PER_WORK)
                .then(|| Arg::unvalued(None));
        }
        if word::as_written(raw) {
            // A word that is itself (`ls`, `-la`, `out.txt`): what the reading below would
            // make of it, without reading it (most words of a script).
            if !self.charge(word::as_written_steps(raw) + 1) {
                return None;
            }
            if raw.len() > paths::MAX_TEXT {
                return Some(Arg::unvalued(None));
            }
            if !self.charge(raw.len() / crate::shell::BYTES_PER_WORK) {
                return None;
            }
            let text = String::from_utf8_lossy(raw).into_owned();
            // zsh's `=name` is the path of the command `name` in PATH (`cp x
            // =heredoc-guard`: round 73); bash's, the word.
            if let Some(n) = text.strip_prefix('=').filter(|n| {
                !n.is_empty()
                    && n.bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"_.-+".contains(&c))
            }) && let Some(p) = self
                .ctx
                .path_dirs
                .iter()
                .map(|d| d.join(n))
                .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
            {
                let found = p.to_string_lossy().into_owned();
                return Some(Arg {
                    value: Some(text.clone()),
                    ..Arg::unvalued(Some((vec![text, found], false)))
                });
            }
            return Some(Arg::plain(text));
        }
        // Brace expansion comes first, on the word as written: each word it makes is an
        // argument (`cp {x,.claude/}`), read like any word.
        // (A `{` only after `$` is no brace expansion's: most `{`s of a script.)
        let group = memchr::memchr_iter(b'{', raw).any(|i| i == 0 || raw[i - 1] != b'$');
        if group {
            let Some(words) = braces::expand(&w.text) else {
                // More words than followed: a glob standing for them all (each group a
                // `*`), and a command that takes its operands by place past its limits
                // ([`Walker::simple`]).
                let a = self.arg_of(&w.text, ends)?;
                let stars = a.texts().map(|(t, _)| {
                    let t: Vec<String> = t.iter().map(|t| paths::braces_as_stars(t)).collect();
                    (t, true)
                });
                return Some(Arg {
                    unsplit: true,
                    ..Arg::unvalued(stars)
                });
            };
            if !self.charge(words.len()) {
                return None;
            }
            if let [one] = words.as_slice() {
                return self.arg_of(one, ends);
            }
            let mut parts = Vec::with_capacity(words.len());
            for t in &words {
                parts.push(self.arg_of(t, ends)?);
            }
            // (Where the words are not taken apart, a redirection's: all their texts.)
            let mut all: Vec<String> = Vec::new();
            let mut glob = false;
            for p in &parts {
                match p.texts() {
                    Some((t, g)) => {
                        all.extend(t.iter().cloned());
                        glob |= g;
                    }
                    None => {
                        return Some(Arg {
                            split: Some(parts),
                            ..Arg::unvalued(None)
                        });
                    }
                }
            }
            return Some(Arg {
                split: Some(parts),
                ..Arg::unvalued(Some((all, glob)))
            });
        }
        self.arg_of(&w.text, ends)
    }

    /// The argument a word's text (after brace expansion) is.
    fn arg_of(&mut self, text: &Text<'_>, ends: &Ends) -> Option<Arg> {
        if let Some(a) = self.assignment_tilde(text, ends) {
            return a;
        }
        let (info, steps) = word::read_counted(text, ends);
        if !self.charge(steps + 1) {
            return None;
        }
        // `$PWD` is every working directory, the `cd`s' so far too (without the event's,
        // the first `cd`'s).
        if self.cwds.is_empty()
            || info
                .pieces
                .iter()
                .any(|p| matches!(p, word::Piece::Param(p) if p.name == b"PWD"))
        {
            self.settle_cwds();
        }
        // A word whose value differs from how it is written is text the command shows.
        let lit = info.written_text();
        if self.takes_names && subscript_code(&lit) {
            self.subscript_code.push(lit.clone());
        }
        // (A reader's word is read as a path only where it may be an element of zsh's
        // `mapfile`, which names a file: `unset "mapfile[$HOME/…]"`.)
        let paths_needed =
            !self.words_only || (self.mapfile_named && super::find(&lit, b"mapfile"));
        // (Kept only when it may hold a switch: the switches' keys all hold `ooks`.)
        if lit != text.bytes()
            && (super::find(&lit, b"ooks") || super::find(&lit, b"heredoc-guard@"))
        {
            self.shown.push(lit);
        }
        let texts = if !paths_needed {
            None
        } else {
            self.texts(&info)
        };
        let built: usize = texts
            .as_ref()
            .map_or(0, |(t, _)| t.iter().map(String::len).sum());
        if !self.charge(built / crate::shell::BYTES_PER_WORK) {
            return None;
        }
        Some(match texts {
            Some((mut t, false)) if t.len() == 1 && !info.brace => match t.pop() {
                Some(v) => Arg::plain(v),
                None => Arg::unvalued(None),
            },
            texts => Arg::unvalued(texts),
        })
    }

    /// An argument shaped as an assignment whose value starts with a tilde (`dd
    /// of=~/.claude/settings.json`): bash expands the tilde after the `=` (zsh does not:
    /// then a file under a directory named `~`, none of the guard's). `None` for any other
    /// word; `Some(None)` when the meter ran out.
    fn assignment_tilde(&mut self, text: &Text<'_>, ends: &Ends) -> Option<Option<Arg>> {
        let raw = text.bytes();
        let eq = raw.iter().position(|&c| c == b'=')?;
        if raw.get(eq + 1) != Some(&b'~')
            || !crate::shell::syntax::legal_identifier(raw.get(..eq).unwrap_or_default())
        {
            return None;
        }
        let rest = text.slice(eq + 1, raw.len());
        let (info, steps) = word::read_counted(&rest, ends);
        if !self.charge(steps + 1) {
            return Some(None);
        }
        if self.cwds.is_empty() {
            self.settle_cwds();
        }
        let name = String::from_utf8_lossy(raw.get(..eq).unwrap_or_default()).into_owned();
        let texts = self.texts(&info).map(|(t, glob)| {
            let t: Vec<String> = t.into_iter().map(|t| format!("{name}={t}")).collect();
            (t, glob)
        });
        Some(Some(match texts {
            Some((mut t, false)) if t.len() == 1 && !info.brace => match t.pop() {
                Some(v) => Arg::plain(v),
                None => Arg::unvalued(None),
            },
            texts => Arg::unvalued(texts),
        }))
    }

    /// The texts a word stands for ([`paths::texts`]), with the variables the guard knows:
    /// `HOME`, `PWD`, the agents' home variables, and the literal values the command itself
    /// gives a name (an assignment, `export`, a `for` loop), each of them.
    fn texts(&self, info: &WordInfo) -> Option<(Vec<String>, bool)> {
        let (vars, cwds, ctx) = (&self.vars, self.cwds.as_slice(), self.ctx);
        let var = |name: &[u8]| known_values(vars, ctx, cwds, name);
        let located = &self.located;
        let subst = |at: u32| located.get(&at).cloned();
        paths::texts(info, &var, &subst)
    }

    /// Records the literal values reading `r` gives names (over the whole reading, in any
    /// order: a value counts wherever the name is used).
    fn assignments(&mut self, r: &Reading, ends: &Ends) {
        for e in &r.events {
            let (names, values): (Vec<Vec<u8>>, Vec<WordInfo>) = match e {
                Event::Simple(c) => {
                    // Leading assignments, and those of `export`, `declare`, `local`, ….
                    let declares = c
                        .words
                        .iter()
                        .find(|w| !word::is_assignment(&w.text))
                        .is_some_and(|w| {
                            matches!(
                                w.text.bytes(),
                                b"export" | b"declare" | b"typeset" | b"local" | b"readonly"
                            )
                        });
                    let mut names = Vec::new();
                    let mut values = Vec::new();
                    for w in &c.words {
                        let Some(a) = word::assignment(&w.text, ends) else {
                            if declares {
                                continue;
                            }
                            break;
                        };
                        if !self.charge(1 + w.text.len() / crate::shell::BYTES_PER_WORK) {
                            return;
                        }
                        names.push(a.name);
                        values.push(a.value);
                    }
                    (names, values)
                }
                Event::Open(Compound::For(Some(name), Some(words)), _) => {
                    let Some(n) = self.word(name, ends).and_then(|i| i.value()) else {
                        continue;
                    };
                    let mut values = Vec::new();
                    for w in words {
                        let Some(i) = self.word(w, ends) else { return };
                        values.push(i);
                    }
                    (vec![n; values.len()], values)
                }
                _ => continue,
            };
            for (name, value) in names.into_iter().zip(values) {
                let lit = value.written_text();
                if subscript_code(&lit) {
                    self.subscript_code.push(lit);
                }
                let Some((texts, _)) = self.texts(&value) else {
                    continue;
                };
                let built: usize = texts.iter().map(String::len).sum();
                if !self.charge(built / crate::shell::BYTES_PER_WORK) {
                    return;
                }
                if self.vars.len() >= MAX_NAMES && !self.vars.contains_key(&name) {
                    continue;
                }
                let known = self.vars.entry(name).or_default();
                for t in texts {
                    if known.len() < MAX_VALUES && !known.contains(&t) {
                        known.push(t);
                    }
                }
            }
        }
    }

    /// The targets a path argument names, from every working directory (or from `cwd`).
    pub(super) fn targets(&mut self, a: &Arg, cwd: Option<&Path>) -> Vec<Target> {
        let Some((texts, glob)) = a.texts() else {
            return Vec::new();
        };
        if cwd.is_none() {
            self.settle_cwds();
        }
        let cwds: Vec<&Path> = match cwd {
            Some(c) => vec![c],
            None => self.cwds.iter().map(PathBuf::as_path).collect(),
        };
        let mut out = Vec::new();
        for t in texts {
            if Path::new(t).is_absolute() {
                out.extend(paths::target(t, glob, Path::new("/")));
            } else if cwd.is_none() {
                // The same relative text from the same directories: the same targets.
                if let Some(known) = self
                    .target_cache
                    .borrow()
                    .get(t.as_str())
                    .and_then(|slots| slots[usize::from(glob)].as_ref())
                {
                    out.extend(known.iter().cloned());
                    continue;
                }
                let found: Vec<Target> = cwds
                    .iter()
                    .filter_map(|c| paths::target(t, glob, c))
                    .collect();
                out.extend(found.iter().cloned());
                self.target_cache.borrow_mut().entry(t.clone()).or_default()[usize::from(glob)] =
                    Some(found);
            } else {
                for c in &cwds {
                    out.extend(paths::target(t, glob, c));
                }
            }
        }
        out
    }

    /// [`Walker::touch`] as written, for the targets that may be a settings file or the
    /// guard's binary: a JSON or TOML file, a glob, or a name the binary runs under (a
    /// program's other words, its options and data, are not looked up on the disk).
    pub(super) fn touch_if_settings(&mut self, a: &Arg, by: &str) {
        let may_be = |t: &str| {
            t.ends_with(".json")
                || t.ends_with(".toml")
                || paths::is_glob(t)
                || self
                    .ctx
                    .exe_names()
                    .any(|n| t.rsplit('/').next() == Some(n.as_str()))
        };
        if a.texts().is_some_and(|(t, _)| t.iter().any(|t| may_be(t))) {
            self.touch(a, How::Write, by, None);
        }
        // An option glued to its value (`-o$HOME/.claude/settings.json`, `--output=…`):
        // the value (round 75).
        let glued: Vec<String> = a
            .texts()
            .map(|(t, _)| {
                t.iter()
                    .filter_map(|t| {
                        let rest = t.strip_prefix('-')?;
                        match rest.strip_prefix('-') {
                            Some(long) => long.split_once('=').map(|(_, v)| v.to_owned()),
                            None => rest.get(1..).map(str::to_owned),
                        }
                    })
                    .filter(|v| may_be(v))
                    .collect()
            })
            .unwrap_or_default();
        for v in glued {
            self.touch(&Arg::plain(v), How::Write, by, None);
        }
    }

    pub(super) fn touch(&mut self, a: &Arg, how: How, by: &str, cwd: Option<&Path>) {
        for target in self.targets(a, cwd) {
            // (Most scripts write the same few files again and again: a target touched
            // before is looked up, not copied.)
            let key = (target, how);
            if self.touched.contains(&key) {
                continue;
            }
            self.touched.insert(key.clone());
            self.actions.push(Action::Touch {
                target: key.0,
                how,
                by: by.to_owned(),
            });
        }
    }

    /// A redirection that writes a file.
    fn redirect(&mut self, rd: &Redirect, ends: &Ends, by: &str) {
        let writes = match rd.op {
            RedirOp::Output | RedirOp::ReadWrite => true,
            // `>& file` and `&> file`: a word that is not a descriptor is a file.
            RedirOp::Duplicate => true,
            _ => false,
        };
        let Some(t) = rd.target.as_ref().filter(|_| writes) else {
            return;
        };
        let Some(a) = self.arg(t, ends) else { return };
        if rd.op == RedirOp::Duplicate
            && a.value
                .as_deref()
                .is_none_or(|v| v == "-" || v.bytes().all(|c| c.is_ascii_digit()))
        {
            return;
        }
        self.touch(&a, How::Write, by, None);
    }

    /// Walks one simple command; returns what it writes to the pipe it `pipes` into, when
    /// the command shows it (`cat` of a heredoc, `echo`, `printf`).
    fn simple(
        &mut self,
        c: &SimpleCommand,
        text: &[u8],
        ends: &Ends,
        piped: Option<Vec<Shown>>,
        depth: usize,
        pipes: bool,
    ) -> Option<Vec<Shown>> {
        if !self.charge(1) {
            return None;
        }
        if (depth > 0 || self.readings_agree)
            && !self
                .seen
                .insert(key(&self.hashes, c, &self.bodies, depth, piped.is_some()))
        {
            return None;
        }
        if self.plain_command(c, pipes, piped.as_ref().is_some_and(|p| !p.is_empty())) {
            self.redirects(c, ends);
            let name = c
                .words
                .iter()
                .find(|w| !word::is_assignment(&w.text))
                .and_then(|w| std::str::from_utf8(w.text.bytes()).ok())
                .map(super::commands::basename);
            // (Piped on, it passes on what it read: [`Walker::passed_on`]; a redirection
            // of its standard input takes the pipe's place. One of [`PASSES_INPUT`] given
            // nothing passes on nothing, as the slow path's does.)
            let Some(piped) = piped.filter(|p| pipes && !p.is_empty()) else {
                return (pipes && name.is_some_and(|n| PASSES_INPUT.contains(&n))).then(Vec::new);
            };
            let replaced = self.replaces_stdin(c, ends);
            let counts = name.is_some_and(|n| COUNTS_INPUT.contains(&n));
            return (!replaced && !counts).then_some(piped);
        }
        // What it reads on standard input that the command shows. (A redirection of its
        // standard input takes the pipe's place: `sed p < /dev/null` reads no piped text.)
        let replaced = piped.is_some() && self.replaces_stdin(c, ends);
        let mut stdin: Vec<Shown> = piped.filter(|_| !replaced).unwrap_or_default();
        for rd in &c.redirects {
            stdin.extend(self.given_text(rd, text, ends));
        }
        let mut args = Vec::with_capacity(c.words.len());
        let assignments = c
            .words
            .iter()
            .take_while(|w| word::is_assignment(&w.text))
            .count();
        // A command named as written by a program that only reads (piped nowhere): its
        // words are read for the text they show, not as paths.
        let words_only = !pipes
            && c.words.get(assignments).is_some_and(|w| {
                let raw = w.text.bytes();
                word::as_written(raw)
                    && std::str::from_utf8(raw)
                        .is_ok_and(|n| self.reader(super::commands::basename(n)))
            });
        // (Behind a wrapper too: `builtin read`, `command printf`.)
        let takes_names = {
            let mut names = c.words[assignments..].iter().map(|w| w.text.bytes());
            // (A name computed at run time may be any of them.)
            let may = takes_names;
            match names.next() {
                Some(b"builtin" | b"command") => names.next().is_some_and(may),
                Some(first) => may(first),
                None => false,
            }
        };
        for (k, w) in c.words[assignments..].iter().enumerate() {
            self.words_only = words_only && k > 0;
            self.takes_names = takes_names;
            let a = self.arg(w, ends);
            self.words_only = false;
            self.takes_names = false;
            let mut a = a?;
            match a.split.take() {
                // (Brace expansion's words, each an argument: `cp {x,.claude/}`.)
                Some(parts) => args.extend(parts),
                None => args.push(a),
            }
        }
        // An element of zsh's `mapfile` names the file it reads, writes or removes
        // (`unset "mapfile[$HOME/.claude/settings.json]"`, `read "mapfile[f]"`): where the
        // module is loaded by a route the rule does not see (round 76), each is written.
        let mapfile_named = self.mapfile_named;
        for a in args.iter().filter(|_| mapfile_named) {
            let elements: Vec<String> = a
                .texts()
                .map(|(t, _)| t.iter().filter_map(|t| mapfile_element(t)).collect())
                .unwrap_or_default();
            for e in elements {
                self.touch(&Arg::plain(e), How::Write, BY_MAPFILE, None);
            }
        }
        // A word brace expansion makes too many words of, given to a command the rule
        // looks at that takes its operands by place (or named so that it may be one):
        // past the limits. (`rm -f out{1..5000}.txt` takes the glob.)
        if args.iter().any(|a| a.unsplit)
            && args.first().is_none_or(|a| {
                a.value.as_deref().is_none_or(|v| {
                    super::commands::kind(super::commands::basename(v), self.ctx)
                        .is_some_and(super::commands::by_place)
                })
            })
        {
            self.over = true;
            return None;
        }
        self.redirects(c, ends);
        let printed = self.printed(c, assignments, ends);
        let name = self.command(&args, &stdin, depth);
        if !pipes {
            return None;
        }
        match name.as_deref() {
            Some(name) if PASSES_INPUT.contains(&name) => Some(stdin),
            // (A glob's words as its pattern: `echo ~/.c*/s* | xargs rm`, round 73.)
            Some(name) if PRINTS_WORDS.contains(&name) => {
                let words: Vec<String> = args
                    .iter()
                    .skip(1)
                    .map(|a| match (&a.value, a.texts()) {
                        (Some(v), _) => v.clone(),
                        (None, Some((t, true))) => t.join(" "),
                        _ => String::new(),
                    })
                    .collect();
                let mut shown: Vec<Shown> = vec![Rc::from(words.join(" ").into_bytes())];
                // `printf '%s\n' 'rm …'`: the words after the format, a line each
                // (round 78).
                if name == "printf" {
                    shown.push(Rc::from(
                        words.get(1..).unwrap_or_default().join("\n").into_bytes(),
                    ));
                }
                shown.extend(printed.map(Rc::from));
                // (Run by `xargs`: what it read is among its words, `… | xargs echo | sh`.)
                if args
                    .iter()
                    .any(|a| a.value.as_deref().map(super::commands::basename) == Some("xargs"))
                {
                    shown.extend(stdin);
                }
                Some(shown)
            }
            Some(name) if COUNTS_INPUT.contains(&name) => None,
            _ => Self::passed_on(stdin),
        }
    }

    /// What a program the rule does not model passes on to the command it pipes into:
    /// the text it read that the command shows, as [`PASSES_INPUT`] do (a filter may pass
    /// it on unchanged: `printf 'rm …' | sed 's/x/y/' | sh`, `awk '{print}'`, `rev | rev`,
    /// `paste -`; round 81). What a filter makes of it (`sed 's/X/cl/'`) is text it
    /// decodes first, which the rule does not follow.
    fn passed_on(stdin: Vec<Shown>) -> Option<Vec<Shown>> {
        (!stdin.is_empty()).then_some(stdin)
    }

    /// Whether the redirections of simple command `c` leave its standard input other text
    /// than the pipe's: read in order, the last that sets it is a heredoc, a here-string or
    /// a file other than standard input itself (`< /dev/null`; not `< /dev/stdin`,
    /// `0</dev/fd/0`). A descriptor copied onto it may be the pipe (`3<&0 </dev/null 0<&3`
    /// gives it back); a descriptor spelled `00` is 0.
    fn replaces_stdin(&mut self, c: &SimpleCommand, ends: &Ends) -> bool {
        let mut replaced = false;
        for rd in c.redirects.iter().filter(|rd| rd.on_stdin()) {
            match rd.op {
                RedirOp::Duplicate => {
                    // (`<&-` closes it: left as it was.)
                    if rd.target.as_ref().is_none_or(|t| t.text.bytes() != b"-") {
                        replaced = false;
                    }
                }
                RedirOp::Heredoc | RedirOp::HereString => replaced = true,
                RedirOp::Input | RedirOp::ReadWrite => {
                    replaced = rd.target.as_ref().is_some_and(|t| {
                        self.arg(t, ends)
                            .and_then(|a| a.value)
                            .is_some_and(|v| !super::commands::names_descriptor(&v))
                    });
                }
                RedirOp::Output => {}
            }
        }
        replaced
    }

    /// Text given to a command, its own copy of the list (the texts are shared), charged
    /// to the meter (`None`: past it).
    fn owned(&mut self, t: Vec<Shown>) -> Option<Vec<Shown>> {
        self.charge(1 + t.len()).then_some(t)
    }

    /// The text a heredoc or a here-string gives the command it redirects (its body, its
    /// word's value), where the command shows it.
    fn given_text(&mut self, rd: &Redirect, text: &[u8], ends: &Ends) -> Option<Shown> {
        match rd.op {
            RedirOp::Heredoc => {
                let &(s, e) = self.bodies.get(&rd.at)?;
                text.get(s as usize..e as usize).map(Rc::from)
            }
            RedirOp::HereString => {
                let v = self.arg(rd.target.as_ref()?, ends)?.value?;
                Some(Rc::from(v.into_bytes()))
            }
            _ => None,
        }
    }

    /// The text of the heredocs and here-strings right after the closing event at `close`
    /// (a compound command's own standard input).
    fn stage_input(
        &mut self,
        events: &[Event],
        close: usize,
        text: &[u8],
        ends: &Ends,
    ) -> Option<Vec<Shown>> {
        let mut out: Vec<Shown> = Vec::new();
        for e in events.get(close + 1..)?.iter() {
            let Event::Redirect(rd) = e else { break };
            out.extend(self.given_text(rd, text, ends));
        }
        // (Many: one text of them all, as zsh reads them one after another, and the last
        // on its own, the one bash reads.)
        if out.len() > 8 {
            let mut joined: Vec<u8> = Vec::new();
            for t in &out {
                joined.extend_from_slice(t);
                joined.push(b'\n');
            }
            let last = out.pop();
            out = std::iter::once(Rc::from(joined)).chain(last).collect();
        }
        (!out.is_empty()).then_some(out)
    }

    /// What `printf`, `echo` or `print` (named as written) print from escapes and a
    /// format, where a word holds a `\` or a `%` ([`super::printed`]); kept as shown text
    /// where it may hold a switch.
    fn printed(&mut self, c: &SimpleCommand, assignments: usize, ends: &Ends) -> Option<Vec<u8>> {
        // (Behind a wrapper, or spelled with quotes or escapes: `command printf`, `\\printf`;
        // the first word that may be one of them, round 80.)
        let words = c.words.get(assignments..)?;
        let at = words
            .iter()
            .position(|w| may_name_printer(w.text.bytes()))?;
        let (first, rest) = words.get(at..)?.split_first()?;
        let raw = first.text.bytes();
        let is_printf =
            crate::shell::syntax::may_be_one_of(raw, &[b"printf"]) || super::find(raw, b"printf");
        if !rest
            .iter()
            .any(|w| memchr::memchr2(b'\\', b'%', w.text.bytes()).is_some())
        {
            return None;
        }
        let mut lits = Vec::with_capacity(rest.len());
        for w in rest {
            lits.push(self.word(w, ends)?.written_text());
        }
        let out = if is_printf {
            super::printed::printf(&lits)
        } else {
            super::printed::echo(&lits)
        };
        if !self.charge(out.len() / crate::shell::BYTES_PER_WORK) {
            return None;
        }
        if super::find(&out, b"ooks") || super::find(&out, b"heredoc-guard@") {
            self.shown.push(out.clone());
        }
        Some(out)
    }

    /// The files a simple command's redirections write.
    fn redirects(&mut self, c: &SimpleCommand, ends: &Ends) {
        for rd in &c.redirects {
            self.redirect(rd, ends, BY_REDIRECTION);
            // zsh's `>!` and `>>!` write the word after the `!` (bash, a file named `!`:
            // round 73).
            if rd.op == RedirOp::Output
                && let Some(t) = rd.target.as_ref().filter(|t| t.text.bytes() == b"!")
                && let Some(next) = c.words.iter().find(|w| w.start >= t.end)
                && let Some(a) = self.arg(next, ends)
            {
                self.touch(&a, How::Write, BY_REDIRECTION, None);
            }
        }
    }

    /// Whether simple command `c` does nothing the rule looks at but through its
    /// redirections, seen without reading its words (most commands of a script): named as
    /// written by a program the rule does not know ([`super::commands::kind`]) or a reader,
    /// none of the builtins that take names, and each word itself (no quote, expansion,
    /// glob or brace) naming no JSON or TOML file and not the guard's binary, so that
    /// [`Walker::touch_if_settings`] finds nothing in it; no `env` or `-S` word (`env -S`
    /// behind a program, round 78), no heredoc or here-string (text it shows). What it
    /// writes matters only to a command it `pipes` into: for one of [`PRINTS_WORDS`], or
    /// of [`PASSES_INPUT`] given text, it is read (the slow path); one of [`PASSES_INPUT`]
    /// given none passes on none (`ls | grep x | wc -l`), any other what it read
    /// ([`Walker::passed_on`]); an element of zsh's `mapfile` may be any word. `fed`: it
    /// is given text, which a function of its name may run.
    fn plain_command(&mut self, c: &SimpleCommand, pipes: bool, fed: bool) -> bool {
        // (What it reads on standard input is text the command shows, for a switch: a
        // heredoc or a here-string takes the slow path.)
        if self.mapfile_named
            || c.redirects
                .iter()
                .any(|rd| matches!(rd.op, RedirOp::Heredoc | RedirOp::HereString))
        {
            return false;
        }
        let mut words = c
            .words
            .iter()
            .skip_while(|w| word::is_assignment(&w.text))
            .map(|w| w.text.bytes());
        let Some(raw) = words.next() else {
            return false;
        };
        let mut cost = 1 + raw.len() / crate::shell::BYTES_PER_WORK;
        // (`env -S TEXT` runs TEXT behind any program: `flock l env -S rm …`.)
        let plain = |t: &[u8]| {
            word::as_written(t)
                && !t.starts_with(b"=")
                && !t.starts_with(b"-S")
                && !t.starts_with(b"--split-string")
                && t != b"env"
                && !t.ends_with(b"/env")
                && !super::find(t, b".json")
                && !super::find(t, b".toml")
                && !self.ctx.may_name_exe(t)
        };
        // (A later word that names one of the rule's commands, which a program the rule
        // does not know may run: `flock l sh …`; round 94.)
        let mut names_command = false;
        // (A later word that names one of [`PRINTS_WORDS`], which a function of the
        // command's name or a wrapper may run, `f() { "$@"; }; f printf 'fals%s' e`: what it
        // prints is read ([`Walker::printed`]) on the slow path; round 105.)
        let mut names_printer = false;
        for t in words {
            if !plain(t) {
                return false;
            }
            names_printer = names_printer || may_name_printer(t);
            // (An option is no command's name: `ls -la | grep -v x`.)
            names_command = names_command
                || (!(t.len() > 1 && t[0] == b'-')
                    && std::str::from_utf8(t)
                        .is_ok_and(|t| super::commands::names_rule_command(t, self.ctx)));
            cost += 1 + t.len() / crate::shell::BYTES_PER_WORK;
        }
        let Ok(full) = std::str::from_utf8(raw) else {
            return false;
        };
        let name = super::commands::basename(full);
        if (names_command && !self.reader(name)) || super::commands::runs_input_or_text(name) {
            return false;
        }
        // (A function the command defines that may run what it reads, given input: round
        // 82. One a sourced file may define is that file's, run on purpose.)
        let function = fed
            && (self.any_runs_input
                || self.runs_input.contains(name.as_bytes())
                || self.runs_input.contains(raw));
        if !plain(raw)
            || function
            || takes_names(name.as_bytes())
            || super::commands::kind(name, self.ctx).is_some()
            || names_printer
            || (pipes && ((fed && PASSES_INPUT.contains(&name)) || PRINTS_WORDS.contains(&name)))
        {
            return false;
        }
        self.charge(cost)
    }

    /// Reads shell text a command runs and walks it, within the limits; text past them
    /// that names the guard's places, or may spell them hidden, is an [`Action::Unread`].
    pub(super) fn nested(&mut self, text: &[u8], depth: usize) {
        self.nested_counted(text, depth, true, &[]);
    }

    /// [`Walker::nested`] for text run with `stdin` as its standard input: each command in
    /// it may read it (`… | eval sh`, `… | sh -c 'cat | sh'`; round 82).
    pub(super) fn nested_fed(&mut self, text: &[u8], depth: usize, stdin: &[Shown]) {
        self.nested_counted(text, depth, true, stdin);
    }

    /// [`Walker::nested`] for text the command gives as a definition or a handler at the
    /// top level (`alias x='…'`, `trap '…' EXIT`): not counted among the [`MAX_NESTED`]
    /// texts run (a plugin defines a hundred aliases; what they cost is charged to the
    /// meter as any reading is).
    pub(super) fn nested_defined(&mut self, text: &[u8], depth: usize) {
        self.nested_counted(text, depth, depth > 0, &[]);
    }

    /// [`Walker::nested_fed`] for text a program the rule does not know is given, which it
    /// may run (`script -c TEXT`, `watch TEXT`): not counted among the [`MAX_NESTED`] texts
    /// run (a script gives such programs many words), charged to the meter as any reading
    /// is.
    pub(super) fn nested_given(&mut self, text: &[u8], depth: usize, stdin: &[Shown]) {
        self.nested_counted(text, depth, false, stdin);
    }

    fn nested_counted(&mut self, text: &[u8], depth: usize, counted: bool, stdin: &[Shown]) {
        // (Text read again is walked whole: a program it does not know walks its own
        // words.)
        let in_unknown = std::mem::take(&mut self.in_unknown);
        self.nested_read(text, depth, counted, stdin);
        self.in_unknown = in_unknown;
    }

    fn nested_read(&mut self, text: &[u8], depth: usize, counted: bool, stdin: &[Shown]) {
        // (Charged before it is hashed: three hundred shells in a group given an 800 KB
        // body hashed it each time, unmetered; round 82.)
        let given: usize = stdin.iter().map(|t| t.len()).sum();
        if !self.charge(1 + (text.len() + given) / crate::shell::BYTES_PER_WORK) {
            return;
        }
        if !self
            .nested_seen
            .insert(self.hashes.hash_one((text, depth, stdin)))
        {
            return;
        }
        self.shown.push(text.to_vec());
        if depth + 1 > MAX_DEPTH
            || (counted && self.nested >= MAX_NESTED)
            || text.len() > crate::limits::MAX_COMMAND_BYTES
        {
            // Text that may spell a place without showing it (quotes, an expansion, an
            // escape split `.cl""aude`) counts as naming one; so does the text it is given,
            // which it may run (`eval eval eval eval eval sh <<<'rm …'`, round 82).
            let hides = |t: &[u8]| {
                t.iter()
                    .any(|c| matches!(c, b'\'' | b'"' | b'$' | b'\\' | b'`'))
                    || names_places(t, self.ctx)
            };
            if hides(text) || stdin.iter().any(|t| hides(t)) {
                self.actions.push(Action::Unread);
            }
            return;
        }
        if counted {
            self.nested += 1;
        }
        for shell in [Shell::Bash52, Shell::Zsh] {
            let r = crate::shell::read_bytes(
                text,
                Dialect::new(shell),
                self.work,
                &crate::shell::bodies_for(),
            );
            if self.work.over().is_some() {
                self.over = true;
                return;
            }
            self.feed = (!stdin.is_empty()).then(|| stdin.to_vec());
            self.reading(&r, text, depth + 1);
            self.feed = None;
        }
    }
}

/// A function's name as the shell takes it: its quotes and backslashes removed (zsh's
/// `'f'() …` defines `f`).
fn unquoted_name(raw: &[u8]) -> Vec<u8> {
    raw.iter()
        .copied()
        .filter(|c| !matches!(c, b'\'' | b'"' | b'\\'))
        .collect()
}

/// Whether simple command `c` is `exec` with redirections only: they change the shell's
/// own descriptors, for every command after it.
fn is_exec_only(c: &SimpleCommand) -> bool {
    // (Also behind `command` or `builtin`: `command exec <<<'…'`.)
    let mut words = c
        .words
        .iter()
        .map(|w| w.text.bytes())
        .skip_while(|w| matches!(*w, b"command" | b"builtin"));
    words.next() == Some(b"exec") && words.next().is_none() && !c.redirects.is_empty()
}

/// Whether text writes a table of functions, commands or aliases, an exported function,
/// or the places functions and programs are looked up: it holds one of `functions[`,
/// `functions=`, `functions+=` (and so for `commands` and `aliases`), `BASH_CMDS`,
/// `BASH_ALIASES`, `BASH_FUNC`, `fpath`, `FPATH`, `PATH`, `path=`, `path+=`, `path[` or
/// `command_not_found`. (A search per stem, each hit's neighbours then looked at: one
/// pass over a script for each of seven stems, not nineteen.)
fn writes_tables(text: &[u8]) -> bool {
    let followed = |stem: &[u8], ok: &dyn Fn(&[u8], &[u8]) -> bool| {
        memchr::memmem::find_iter(text, stem).any(|at| {
            let before = text.get(..at).unwrap_or_default();
            let after = text.get(at + stem.len()..).unwrap_or_default();
            ok(before, after)
        })
    };
    let assigned = |after: &[u8]| {
        after.starts_with(b"[") || after.starts_with(b"=") || after.starts_with(b"+=")
    };
    followed(b"functions", &|_, a| assigned(a))
        || followed(b"commands", &|_, a| assigned(a))
        || followed(b"aliases", &|_, a| assigned(a))
        || followed(b"BASH_", &|_, a| {
            a.starts_with(b"CMDS") || a.starts_with(b"ALIASES") || a.starts_with(b"FUNC")
        })
        || followed(b"PATH", &|_, _| true)
        || followed(b"path", &|b, a| b.ends_with(b"f") || assigned(a))
        || followed(b"command_not_found", &|_, _| true)
}

/// Whether a word written as `raw` may show text that holds a switch's key, or (with
/// `also`) that text: its literal text after quote removal ([`literal_text`], what
/// [`Walker::arg_of`] looks in) may hold `ooks`, `heredoc-guard@` or `also`. That text is a
/// subsequence of the bytes as written, but where an escape or a translation makes bytes
/// (`$'…'`, `$"…"`) or a brace sequence does (`{n..p}`, `{Z..a}`), so those always may.
fn may_show(raw: &[u8], also: Option<&[u8]>) -> bool {
    fn subsequence(hay: &[u8], needle: &[u8]) -> bool {
        let mut at = 0;
        for &c in needle {
            match hay.get(at..).and_then(|rest| memchr::memchr(c, rest)) {
                Some(i) => at += i + 1,
                None => return false,
            }
        }
        true
    }
    super::find(raw, b"$'")
        || super::find(raw, b"$\"")
        || (raw.contains(&b'{') && super::find(raw, b".."))
        || subsequence(raw, b"ooks")
        || subsequence(raw, b"heredoc-guard@")
        || also.is_some_and(|a| subsequence(raw, a))
}

/// The file an element of zsh's `mapfile` names (`mapfile[f]`, `mapfile[f]=x`).
fn mapfile_element(t: &str) -> Option<String> {
    let at = t.find("mapfile[")?;
    let rest = &t[at + "mapfile[".len()..];
    let end = rest.rfind(']')?;
    Some(rest[..end].to_owned())
}

/// Whether quoted text may be a subscript that runs a command once the shell takes it as
/// a name or arithmetic: a name's `[` with a `$(` or a backquote after it (`a[$(…)]`,
/// `x+b[\`…\`]`; not `[sic]` nor a `[` after a blank).
fn subscript_code(lit: &[u8]) -> bool {
    memchr::memchr_iter(b'[', lit).any(|at| {
        at > 0
            && lit
                .get(at - 1)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            && lit.get(at + 1..).is_some_and(|rest| {
                rest.contains(&b'`') || crate::search::find(rest, b"$(").is_some()
            })
    })
}

/// The shell's builtins that take a word as a variable's name or as arithmetic, evaluating
/// a subscript in it (`read 'a[$(…)]'`, `printf -v`, `let`, `unset`, `test -v`, …).
const TAKES_NAMES: [&[u8]; 19] = [
    b"read",
    b"printf",
    b"print",
    b"let",
    b"declare",
    b"typeset",
    b"local",
    b"export",
    b"readonly",
    b"unset",
    b"test",
    b"[",
    b"mapfile",
    b"readarray",
    b"getopts",
    b"wait",
    b"vared",
    b"zparseopts",
    b"integer",
];

/// Whether a command's name written as `raw` may be one of [`TAKES_NAMES`] once its quotes
/// and escapes go (`\read`, `'unset'`), or is computed at run time (round 80).
fn takes_names(raw: &[u8]) -> bool {
    crate::shell::syntax::may_be_one_of(raw, &TAKES_NAMES) || raw.contains(&b'`')
}

/// Commands that rebind a name, or run text that may.
const REBINDERS: [&[u8]; 7] = [
    b"hash",
    b"alias",
    b"autoload",
    b"enable",
    b"eval",
    b"source",
    b"functions",
];

/// Whether a command named `raw` (as written) may rebind a name or run text that may: one
/// of `REBINDERS` or `.` once its quotes and escapes are taken away, or a name computed at
/// run time (which may be any of them).
fn rebinds(raw: &[u8]) -> bool {
    if raw.iter().any(|c| matches!(c, b'$' | b'`')) {
        return true;
    }
    let bare: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|c| !matches!(c, b'\'' | b'"' | b'\\'))
        .collect();
    bare == b"." || REBINDERS.contains(&bare.as_slice())
}

/// The name of a simple command as written (its words after the assignments): the first
/// word, or the one after `builtin` or `command`.
fn command_name(words: &[Word]) -> Option<&[u8]> {
    let mut names = words.iter().map(|w| w.text.bytes()).skip_while(|w| {
        memchr::memchr(b'=', w).is_some() && crate::shell::syntax::assignment(w, false).is_some()
    });
    let first = names.next()?;
    if matches!(first, b"builtin" | b"command") {
        return names.next();
    }
    Some(first)
}

/// Whether `text` names a place of the guard's ([`MARKERS`], the running binary's name).
pub(super) fn names_places(text: &[u8], ctx: &Ctx) -> bool {
    MARKERS
        .iter()
        .any(|m| crate::search::find(text, m.as_bytes()).is_some())
        || ctx.names_guard(text)
}

/// The values the tamper walk knows a name may hold: those the command gives it, and
/// `PWD` (every working directory the command may be in: after a `cd` too, round 74),
/// `HOME` and the agents' home variables.
fn known_values(
    vars: &HashMap<Vec<u8>, Vec<String>>,
    ctx: &Ctx,
    cwds: &[PathBuf],
    name: &[u8],
) -> Vec<String> {
    let mut out: Vec<String> = vars.get(name).cloned().unwrap_or_default();
    if name == b"PWD" {
        out.extend(cwds.iter().map(|p| p.to_string_lossy().into_owned()));
    } else {
        out.extend(ctx.var(name));
    }
    out
}

/// A simple command's identity across readings: its offsets, words, redirections and the
/// bodies it reads (readings that agree give the same key).
fn key(
    hashes: &std::collections::hash_map::RandomState,
    c: &SimpleCommand,
    bodies: &HashMap<u32, (u32, u32)>,
    depth: usize,
    piped: bool,
) -> u64 {
    let mut h = hashes.build_hasher();
    (depth, piped, c.at, c.end, c.words.len()).hash(&mut h);
    for w in &c.words {
        w.text.bytes().hash(&mut h);
    }
    for rd in &c.redirects {
        (rd.at, rd.op as u8).hash(&mut h);
        if let Some(t) = &rd.target {
            t.text.bytes().hash(&mut h);
        }
        if rd.op == RedirOp::Heredoc
            && let Some(body) = bodies.get(&rd.at)
        {
            body.hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::RandomState;

    #[test]
    fn the_keys_of_walked_commands_differ_from_one_walk_to_the_next() {
        let r = crate::shell::read("rm settings.json", Dialect::new(Shell::Bash52));
        let c = r
            .events
            .iter()
            .find_map(|e| match e {
                Event::Simple(c) => Some(c),
                _ => None,
            })
            .expect("a simple command");
        let bodies = HashMap::new();
        let (one, other) = (RandomState::new(), RandomState::new());
        // Within a walk, the same command has the same key; across walks (processes), the
        // key cannot be foreseen.
        assert_eq!(
            key(&one, c, &bodies, 0, false),
            key(&one, c, &bodies, 0, false)
        );
        assert_ne!(
            key(&one, c, &bodies, 0, false),
            key(&other, c, &bodies, 0, false)
        );
    }

    #[test]
    fn text_that_writes_a_table_of_names_or_the_lookup_path_is_found_by_any_of_its_markers() {
        for marker in [
            "functions[",
            "functions=",
            "functions+=",
            "BASH_CMDS",
            "commands[",
            "commands=",
            "commands+=",
            "BASH_ALIASES",
            "aliases[",
            "aliases=",
            "aliases+=",
            "BASH_FUNC",
            "fpath",
            "FPATH",
            "PATH",
            "path=",
            "path+=",
            "path[",
            "command_not_found",
        ] {
            for text in [
                marker.to_owned(),
                format!("x {marker}y"),
                format!("a=1;{marker}"),
            ] {
                assert!(writes_tables(text.as_bytes()), "{text}");
            }
        }
        for text in [
            "functions list",
            "commands run",
            "my aliases: none",
            "BASH_VERSION",
            "the path is long",
            "command_not_foun",
            "echo $HOME",
        ] {
            assert!(!writes_tables(text.as_bytes()), "{text}");
        }
    }
}
