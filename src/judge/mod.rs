//! The judge: decides, for one reading of a command, whether a shell would run heredoc
//! text through a hidden evaluator, or read text after a change the reader does not
//! follow. It never reads shell text itself: it gets the reading's commands from the
//! reader, with their words read.
//!
//! The promise it keeps: text a command's author wrote as heredoc data never runs as code
//! unless the command itself names an evaluator for it. Hidden evaluation (arithmetic,
//! subscripts, indirection, prompt expansion, word lists, zsh's flags and qualifiers) is
//! judged soundly: a value that reaches a hidden evaluator passes only when the guard can
//! show what it is (text the command fixes, or heredoc text whose bytes cannot make the
//! evaluator run anything); program and function output, file contents and names assigned
//! at run time count as heredoc text. Explicit evaluation (`eval`, `source`, interpreters,
//! a value run as a command name, functions and names the command rebinds) is the
//! author's choice and is not followed.
//!
//! - `walk`: one pass over the commands, recording facts (assignments, outputs, sites);
//! - `solve`: the values (a fixed point), then each site judged once;
//! - `evaluators`: the short list of hidden evaluators and what each does with a value;
//! - `builtins`: the table of what each builtin does;
//! - `value`: the lattice of values.
//!
//! Its maps hash with the Fx hasher (`rustc-hash`): their keys are offsets, interned ids
//! and names, and a command written to make them collide only costs time, which the work
//! meter and the time limit turn into a deny. (The tamper walk's keys, where a collision
//! would skip a command, keep a random key.)

mod builtins;
mod evaluators;
mod facts;
mod inert;
mod program;
mod solve;
mod value;
mod walk;

/// The tables whose entries are aliases, and zsh's tables of functions (a function named
/// by heredoc text rebinds a command the same way, and its code may define aliases).
pub(crate) const ALIAS_TABLES_BASH: &[&[u8]] = &[b"BASH_ALIASES"];
pub(crate) const ALIAS_TABLES_ZSH: &[&[u8]] = &[
    b"aliases",
    b"galiases",
    b"saliases",
    b"dis_aliases",
    b"dis_galiases",
    b"dis_saliases",
    b"functions",
    b"dis_functions",
];

pub use evaluators::Evaluator;
pub use inert::inert;

use crate::shell::{Dialect, Reading, Work};
use facts::Target;

/// What the judge found in one reading.
#[derive(Debug, Clone)]
pub enum Found {
    /// A value that may be heredoc text reaches a hidden evaluator.
    Evaluation {
        at: u32,
        evaluator: Evaluator,
        /// The construct (`$((...))`, `unset`, `${!name}`…).
        what: &'static str,
        /// The value holds run-time text the command does not show (else heredoc text).
        unknown: bool,
        /// In the unquoted body of this reading's heredoc `n`.
        in_body: Option<usize>,
    },
    /// A change to how later text is read, which the reader does not follow, before a
    /// heredoc read after it.
    Change { at: u32, what: &'static str },
    /// Expansions of an unquoted body the reader did not follow (too many, too deep, or
    /// a word bash reads again once it removes its double quotes).
    Unread {
        at: u32,
        in_body: Option<usize>,
        what: &'static str,
    },
}

/// A write through a nameref whose target the command computes (`declare -n r=$n`, `local
/// -n r=$1`, `declare -n r` given its target later, a chain of them, a zsh tie to a computed
/// name, any name where a nameref's name or option is computed) may write any variable, an
/// alias table's entry too: each is also an assignment to a name computed at run time.
fn writes_through_computed_refs(f: &mut facts::Facts) {
    if f.computed_refs.is_empty() && f.any_nameref.is_none() {
        return;
    }
    // A nameref the walk cannot name (`declare $opt r=v`, `declare -n "$x=$n"`): any
    // variable written may be one.
    let any = f.any_nameref.is_some();
    // The refs, and the names one with them (`declare -n b=r`, chains of them): the
    // classes of `same` (union-find, near-linear however long the chains), those that
    // hold a ref.
    let mut rep: std::collections::HashMap<facts::Var, facts::Var> =
        std::collections::HashMap::new();
    fn find(
        rep: &mut std::collections::HashMap<facts::Var, facts::Var>,
        v: facts::Var,
    ) -> facts::Var {
        let mut r = v;
        while let Some(&p) = rep.get(&r).filter(|&&p| p != r) {
            r = p;
        }
        let mut x = v;
        while let Some(&p) = rep.get(&x).filter(|&&p| p != r) {
            rep.insert(x, r);
            x = p;
        }
        r
    }
    for &(a, b) in &f.same {
        let (ra, rb) = (find(&mut rep, a), find(&mut rep, b));
        if ra != rb {
            rep.insert(rb, ra);
        }
    }
    let ref_classes: std::collections::HashSet<facts::Var> =
        f.computed_refs.iter().map(|&r| find(&mut rep, r)).collect();
    let mut is_ref = |x: facts::Var| ref_classes.contains(&find(&mut rep, x));
    let writes: Vec<(facts::Expr, u32)> = f
        .assigns
        .iter()
        .filter(|(t, _, _)| matches!(t, Target::Var(x) if any || is_ref(*x)))
        .map(|(_, e, at)| (e.clone(), *at))
        .collect();
    for (e, at) in writes {
        f.write_to_unnamed(
            at,
            e,
            "a write through a nameref whose target is computed at run time, which may be an alias table's entry (BASH_ALIASES, zsh's aliases)",
        );
    }
}

/// Whether standard error may reach a capture or a pipe where no redirection on the
/// command says so: an `exec 2>&1` where output is captured, `BASH_XTRACEFD` named
/// anywhere (a nameref's target too), or `set -x` where a name assigned at run time may
/// be `BASH_XTRACEFD`.
/// (`rest`: what unread text may do is left out, [`judge`].)
fn stderr_may_reach_captures(w: &walk::Walk<'_>, rest: bool) -> bool {
    let f = &w.facts;
    let evals = !rest && runs_eval(f);
    w.merge_found
        || (!w.zsh()
            && (f.names.names.iter().any(|n| &**n == b"BASH_XTRACEFD")
                || ((f.xtrace.is_some() || evals)
                    && (f.any_nameref.is_some()
                        || !f.computed_refs.is_empty()
                        || f.assigns.iter().any(|(t, e, _)| {
                            matches!(t, Target::Any)
                                && !(rest
                                    && e.0.iter().all(|s| matches!(s, facts::Src::EvalAssigns(..))))
                        })))))
}

/// Whether the command runs `eval` of computed text ([`facts::Facts::unread_runs`]): it
/// may turn on `set -x` and `set -v`.
fn runs_eval(f: &facts::Facts) -> bool {
    f.unread_runs.iter().any(|r| r.name.is_none())
}

/// What a walk found that reaches back to commands before it: the walk again from the
/// start.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Opts {
    stderr_merged: bool,
    verbose: bool,
    /// A builtin's name may run something else: every builtin's output is run-time text.
    builtins_rebound: bool,
    no_whole_lines: bool,
    ifs_unknown: bool,
    /// Text the walk does not read runs (a command named at run time, `eval` of computed
    /// text): it may be `shift`, whatever the text spells.
    shifts: bool,
    /// A nameref is in the command: an expansion may be several words.
    namerefs: bool,
    /// A file that is not the environment's may be sourced (by the command's text, or by
    /// text the walk does not read: [`solve::Solver::unread_may_source`]): a function it
    /// defines may run in place of any name ([`walk::Walk::sources_files`]).
    sourced_functions: bool,
    /// The second: text the walk does not read may source it, anywhere.
    unread_sources: bool,
    /// zsh: a name computed at run time may spell `options` (the solver's reading of it,
    /// [`solve::Solver::may_write_options`]): any option may be on.
    options_table: Option<u32>,
}

/// The names of the functions a command may define.
pub(crate) type FunctionNames = rustc_hash::FxHashSet<Vec<u8>>;

/// The names of the functions a reading defines (in its `eval` and `trap` texts too,
/// zsh's `functions[name]=` too), and whether one is named otherwise than plainly
/// (quoted, expanded, a whole `functions=(…)`).
fn function_names(reading: &Reading, zsh: bool) -> (FunctionNames, bool) {
    fn plain(raw: &[u8]) -> bool {
        !raw.is_empty()
            && !raw
                .iter()
                .any(|c| matches!(c, b'\'' | b'"' | b'\\' | b'$' | b'`'))
    }
    fn collect(r: &Reading, zsh: bool, out: &mut (FunctionNames, bool)) {
        for e in &r.events {
            if let crate::shell::tree::Event::Simple(c) = e {
                for (k, w) in c.words.iter().enumerate() {
                    let raw = w.text.bytes();
                    // What a builtin's name runs, changed: `enable -n`, zsh `disable`,
                    // `hash -p`, the tables of commands (any command may then run
                    // something else).
                    if (k == 0 && matches!(raw, b"enable" | b"disable" | b"hash"))
                        || raw.starts_with(b"BASH_CMDS")
                        || (zsh && crate::search::find(raw, b"commands").is_some())
                    {
                        out.1 = true;
                    }
                    // zsh's functions table: `functions[name]=body` defines `name`.
                    if !zsh {
                        continue;
                    }
                    let Some(at) = crate::search::find(raw, b"functions") else {
                        continue;
                    };
                    let key = raw[at + b"functions".len()..]
                        .strip_prefix(b"[")
                        .and_then(|k| k.iter().position(|&c| c == b']').map(|e| &k[..e]));
                    match key {
                        Some(k) if at == 0 && plain(k) => {
                            out.0.insert(k.to_vec());
                        }
                        _ => out.1 = true,
                    }
                }
            }
            if let crate::shell::tree::Event::Open(crate::shell::tree::Compound::Function(w), _) = e
            {
                let raw = w.text.bytes();
                // (zsh expands a definition's name: `=cat() { … }` defines the function
                // named by cat's path, `~/f`, braces and globs make other names; round
                // 104.)
                if !plain(raw) || builtins::zsh_expands_name(zsh, raw) {
                    out.1 = true;
                } else {
                    out.0.insert(raw.to_vec());
                }
            }
        }
        for n in &r.nested {
            collect(&n.reading, zsh, out);
        }
    }
    let mut out = (FunctionNames::default(), false);
    collect(reading, zsh, &mut out);
    // Run when a command is not found: where a builtin is disabled, it runs for it.
    if [
        &b"command_not_found_handle"[..],
        b"command_not_found_handler",
    ]
    .iter()
    .any(|n| out.0.contains(*n))
    {
        out.1 = true;
    }
    out
}

/// Whether the command may change what a builtin's name runs, by any spelling (the walk
/// has the names after quote removal and wrappers): `enable`, zsh's `disable`, `hash`,
/// `autoload`, text the guard does not read (`eval` of text computed at run time,
/// `source`), or the tables of commands (`BASH_CMDS`, zsh's `commands`, `fpath`). (A
/// command named at run time is explicit: `$e -n echo` is the command's choice.) (zsh's `functions[name]=` is read as a definition of `name`; a
/// write to a name computed at run time is not counted here.)
fn rebinds_builtins(f: &facts::Facts, rest: bool) -> bool {
    rebinds_builtins_but_eval(f)
        || (!rest
            && f.calls
                .iter()
                .any(|(n, args, _)| &**n == b"eval" && !fixed(args)))
}

/// Text the command fixes (`eval 'hash -r'`) is read and walked: its commands are calls.
fn fixed(e: &facts::Expr) -> bool {
    e.0.iter()
        .all(|s| matches!(s, facts::Src::Val(v) if !v.unknown && v.heredoc.is_none() && !v.env))
}

/// [`rebinds_builtins`] but for `eval` of computed text.
fn rebinds_builtins_but_eval(f: &facts::Facts) -> bool {
    f.calls.iter().any(|(n, _, _)| {
        matches!(
            &**n,
            b"enable" | b"disable" | b"hash" | b"autoload" | b"source" | b"."
        )
    }) || f.assigns.iter().any(|(t, _, _)| match t {
        Target::Any => false,
        Target::Var(v) => matches!(
            f.names.name(*v),
            b"BASH_CMDS" | b"commands" | b"fpath" | b"FPATH"
        ),
    })
}

/// Whether the shell may run code between a loop's reads, or code the guard does not
/// see: a trap, `eval` or `source`, a hook, a function named like a builtin a loop counts
/// on, a command named at run time.
fn runs_between_reads(f: &facts::Facts) -> bool {
    f.hooks
        || f.calls
            .iter()
            .any(|(n, _, _)| n.is_empty() || walk::RUN_BETWEEN.contains(&&**n))
}

/// Whether the command may change what a program's name runs: it assigns `PATH` (zsh's
/// `path`), `BASH_CMDS` or zsh's `commands`, or a name computed at run time, or runs `hash`.
pub(in crate::judge) fn rebinds_programs(f: &facts::Facts) -> bool {
    f.any_nameref.is_some()
        || !f.computed_refs.is_empty()
        || f.assigns.iter().any(|(t, _, _)| match t {
            Target::Any => true,
            Target::Var(v) => matches!(
                f.names.name(*v),
                b"PATH" | b"path" | b"BASH_CMDS" | b"commands"
            ),
        })
        || f.calls.iter().any(|(n, _, _)| &**n == b"hash")
        || f.places_programs
}

/// The programs whose output the judge models (`builtins::output`'s `program_output`).
const MODELLED_PROGRAMS: &[&[u8]] = &[
    b"arch",
    b"basename",
    b"date",
    b"dirname",
    b"getconf",
    b"git",
    b"grep",
    b"hostname",
    b"id",
    b"logname",
    b"mktemp",
    b"nproc",
    b"seq",
    b"stat",
    b"tput",
    b"uname",
    b"wc",
    b"whoami",
];

/// Whether the command may put a program under the name of one whose output the judge
/// models, which then runs in its place from a `PATH` directory: a word naming one given
/// to a program that writes, links, copies or moves files (`ln -sf /usr/bin/head ~/bin/wc`,
/// `cp`, `mv`, `install`, `dd of=…`, `curl -o`; a word with an expansion or a glob may be
/// one), a redirection that writes one (`> ~/bin/wc`), a directory copied whole or an archive unpacked, whose files it does not see
/// (`cp -r src/. bin/`, `tar -x`; round 82).
fn places_programs(reading: &Reading) -> bool {
    use crate::shell::tree::{Event, RedirOp, Redirect};
    // (A name written otherwise than plainly, an expansion or a glob, may be one: `w$'c'`,
    // `"$n"`, `src/*`.)
    let names_one = |raw: &[u8]| MODELLED_PROGRAMS.contains(&&*last_name(raw));
    let may_name_one = |raw: &[u8]| {
        names_one(raw)
            || raw
                .iter()
                .any(|c| matches!(c, b'$' | b'`' | b'*' | b'?' | b'[' | b'{'))
    };
    let writes_one = |rd: &Redirect| {
        matches!(
            rd.op,
            RedirOp::Output | RedirOp::ReadWrite | RedirOp::Duplicate
        ) && rd
            .target
            .as_ref()
            .is_some_and(|t| names_one(t.text.bytes()))
    };
    reading.events.iter().any(|e| match e {
        Event::Simple(c) => {
            // (The command's name: the first word past assignments, wrappers, their
            // options and numbers; looked at once.)
            let name_at = c.words.iter().position(|w| {
                let t = w.text.bytes();
                !(t.starts_with(b"-")
                    || t.first().is_some_and(u8::is_ascii_digit)
                    || crate::shell::syntax::assignment(t, false).is_some()
                    || matches!(
                        &*last_name(t),
                        b"sudo"
                            | b"doas"
                            | b"env"
                            | b"command"
                            | b"builtin"
                            | b"exec"
                            | b"nice"
                            | b"nohup"
                            | b"time"
                            | b"timeout"
                            | b"stdbuf"
                            | b"ionice"
                            | b"setsid"
                            | b"xargs"
                    ))
            });
            c.redirects.iter().any(writes_one)
                || name_at.is_some_and(|k| {
                    let rest = || c.words[k + 1..].iter().map(|w| w.text.bytes());
                    match &*last_name(c.words[k].text.bytes()) {
                        b"tar" | b"bsdtar" | b"unzip" | b"cpio" | b"7z" | b"rsync" => true,
                        b"cp" => rest().any(|a| {
                            may_name_one(a)
                                || (a.starts_with(b"-")
                                    && (a.starts_with(b"--r")
                                        || (!a.starts_with(b"--")
                                            && a.iter().any(|c| b"rRa".contains(c)))))
                        }),
                        b"ln" | b"mv" | b"install" | b"link" => rest().any(may_name_one),
                        b"dd" | b"curl" | b"wget" | b"tee" => rest().any(names_one),
                        _ => false,
                    }
                })
        }
        Event::Redirect(rd) => writes_one(rd),
        _ => false,
    })
}

/// Whether a reading gives a heredoc or a here-string on a descriptor other than standard
/// input anywhere, its `eval` and `trap` texts included.
fn gives_other_fd_text(reading: &Reading) -> bool {
    use crate::shell::tree::{Event, RedirOp, Redirect};
    let other = |r: &Redirect| {
        matches!(r.op, RedirOp::Heredoc | RedirOp::HereString)
            && r.fd.as_deref().is_some_and(|fd| fd != b"0")
    };
    reading.events.iter().any(|e| match e {
        Event::Simple(c) => c.redirects.iter().any(other),
        Event::Redirect(r) => other(r),
        _ => false,
    }) || reading
        .nested
        .iter()
        .any(|n| gives_other_fd_text(&n.reading))
}

/// The last name of a path as written (quotes and backslashes taken away, a trailing `/`
/// dropped).
fn last_name(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let last = |t: &[u8]| -> (usize, usize) {
        let end = t.len() - usize::from(t.ends_with(b"/"));
        let start = memchr::memrchr(b'/', &t[..end]).map_or(0, |k| k + 1);
        (start, end)
    };
    if memchr::memchr3(b'\'', b'"', b'\\', raw).is_none() {
        let (start, end) = last(raw);
        return std::borrow::Cow::Borrowed(&raw[start..end]);
    }
    let t: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|c| !matches!(c, b'\'' | b'"' | b'\\'))
        .collect();
    let (start, end) = last(&t);
    std::borrow::Cow::Owned(t[start..end].to_vec())
}

/// The one way the judge stops before it finishes: the command's meter ran out (work or
/// the clock), in the walk, the solver or a builtin's model alike. The check turns it into
/// a limit, which denies; no cap inside the judge ends any other way (a chain followed too
/// deep counts as dangerous, a value with too many texts as the bytes it may hold).
#[derive(Debug, Clone, Copy)]
pub struct GaveUp;

/// Frees what a judging built, unless it is the `last` judging of a process that ends after
/// this verdict: freeing it piece by piece would only delay the verdict (as the readings
/// are not freed there). An earlier judging's memory is freed for the next to reuse.
fn release<T>(built: T, last: bool) {
    if last && crate::shell::exits_after_verdict() {
        std::mem::forget(built);
    } else {
        drop(built);
    }
}

/// Judges one reading of `text` as dialect `d` reads it, charging `meter`. A reading
/// without heredocs holds no heredoc text: only what could make one (an alias that
/// reshapes later text) is judged there. `last`: no judging follows it in this check.
pub fn judge(
    reading: &Reading,
    d: Dialect,
    text: &[u8],
    meter: &Work,
    last: bool,
) -> Result<Vec<Found>, GaveUp> {
    let prog = program::build(&reading.events);
    let holds = reading.holds_heredoc();
    // Walked again, from the start, with what a walk found that reaches back: standard
    // error in every capture, no loop's lines taken whole, IFS not known.
    let mut opts = Opts::default();
    let functions = std::rc::Rc::new(function_names(reading, d.is_zsh()));
    // A heredoc or here-string given on a descriptor other than standard input, anywhere:
    // text a sourced file may read (`. /dev/fd/3 3<<'EOF'`, a call's `f 3<<'EOF'`).
    // (In its `eval` and `trap` texts too.)
    let other_fd_text = gives_other_fd_text(reading);
    let places_programs = places_programs(reading);
    // (Scanned once, not on every pass.)
    let zsh_wide = d.is_zsh() && wide_outside_bodies(text, &reading.heredocs);
    // zsh's options named anywhere in the text, by any spelling zsh takes (case and `_`
    // ignored) and quotes make (`'options[glob''subst]'`: quotes and backslashes dropped):
    // read once for every walk.
    let zsh_options = d.is_zsh().then(|| walk::ZshOptions::named_in(text));
    let walk_once = |opts: Opts| -> Result<walk::Walk<'_>, GaveUp> {
        let mut w = walk::Walk::new(
            d,
            &prog,
            &reading.heredocs,
            Some(text),
            meter,
            &reading.nested,
        );
        w.stderr_merged = opts.stderr_merged;
        w.no_whole_lines = opts.no_whole_lines;
        w.verbose = opts.verbose;
        w.shifts_unseen = opts.shifts;
        w.namerefs_seen = opts.namerefs;
        w.own_functions = std::rc::Rc::clone(&functions);
        w.other_fd_text = other_fd_text;
        w.sources_files = opts.sourced_functions || opts.unread_sources;
        w.unread_sources = opts.unread_sources;
        w.holds_heredoc = holds;
        // (Every option may be on where a name computed at run time may be `options`.)
        w.zsh_options = zsh_options.map(|mut z| {
            if opts.options_table.is_some() {
                z.table = true;
                z.options = true;
                z.glob_subst = true;
                z.glob_assign = true;
            }
            z
        });
        w.facts.places_programs = places_programs;
        w.functions = if opts.builtins_rebound {
            std::rc::Rc::new((functions.0.clone(), true))
        } else {
            std::rc::Rc::clone(&functions)
        };
        w.run()?;
        if w.facts.has_nameref || w.facts.any_nameref.is_some() || !w.facts.computed_refs.is_empty()
        {
            // A nameref to `a[@]` makes a quoted word several (bash 5.2): a `printf` of one
            // computed word may be `printf -v NAME FORMAT` after all.
            for (at, e) in std::mem::take(&mut w.facts.one_word_printfs) {
                w.facts.write_to_unnamed(
                    at,
                    e,
                    "a variable named at run time, which may be an alias table's entry (BASH_ALIASES, zsh's aliases)",
                );
            }
        }
        writes_through_computed_refs(&mut w.facts);
        if d.is_zsh() {
            // zsh's prompt_subst and glob_subst may be set by routes the walk does not
            // follow (`set -oprompt_subst`, `options[…]` written by `read` or `printf -v`,
            // `set -A options …`): an option named anywhere in the text, by any spelling
            // zsh takes (case and `_` ignored) and quotes make (`'options[glob''subst]'`:
            // quotes and backslashes dropped), counts as set.
            let mut named = w.zsh_options.unwrap_or_default();
            // zsh's `options` table given any value, by any route the walk follows (`set
            // -A $'options' …`, `read -Ar options`, `set +A options`, `${(AA)=options::=…}`,
            // round 102): any option may be on.
            if let Some(o) = w.facts.names.get(b"options")
                && w.facts.assigns.iter().any(|(t, _, _)| *t == Target::Var(o))
            {
                named.table = true;
                named.glob_subst = true;
            }
            if named.prompt_subst || named.table {
                w.facts.prompt_subst = true;
            }
            if named.glob_subst {
                w.facts.glob_subst = true;
            }
            if named.xtrace || named.table {
                // (Where the table is written under a computed name, there.)
                w.facts
                    .xtrace
                    .get_or_insert(opts.options_table.unwrap_or(0));
            }
            // zsh takes letters past ASCII in names (a UTF-8 locale), which the reader
            // does not read as names (`read -r é`, `é=$(…)`): text past ASCII outside the
            // heredocs' bodies and comments counts as a variable named at run time, given
            // any text.
            if zsh_wide {
                w.facts.assign(Target::Any, facts::Expr::unknown(), 0);
            }
        }
        Ok(w)
    };
    // Walked until what it finds reaches back no further (`rest`: leaving out what unread
    // text may do to the walk, for what it may leave the rest of the command).
    let settle = |mut opts: Opts, rest: bool| -> Result<(Opts, walk::Walk<'_>), GaveUp> {
        loop {
            let w = walk_once(opts)?;
            let mut next = opts;
            next.verbose |= w.facts.verbose || (!rest && runs_eval(&w.facts));
            next.shifts |= w
                .facts
                .unread_runs
                .iter()
                .any(|r| r.call_of.is_none() && !r.positional);
            next.builtins_rebound |= rebinds_builtins(&w.facts, rest);
            next.sourced_functions |= !rest && w.copying_source;
            next.unread_sources |= !rest && w.sources_anywhere;
            next.namerefs |= w.facts.has_nameref
                || w.facts.any_nameref.is_some()
                || !w.facts.computed_refs.is_empty();
            next.stderr_merged |= stderr_may_reach_captures(&w, rest);
            next.no_whole_lines |= w.used_whole_lines
                && (runs_between_reads(&w.facts)
                    || (w.used_quiet_programs && rebinds_programs(&w.facts)));
            if next == opts {
                return Ok((opts, w));
            }
            opts = next;
        }
    };
    let found = loop {
        let (settled, w) = settle(opts, false)?;
        opts = settled;
        let mut next = opts;
        let xtrace = (w.facts.xtrace.is_some() || runs_eval(&w.facts)) && !w.zsh();
        let facts = w.facts;
        let mut s = solve::Solver::new(&facts, d, &reading.heredocs, Some(text), meter);
        s.holds_heredoc = holds;
        s.ifs_unknown = opts.ifs_unknown;
        if s.needs_values() {
            s.solve()?;
        } else {
            s.leave_unsolved();
        }
        // zsh's `options` table written under a name computed at run time that may spell
        // it (`n="${a}ions[…]"; typeset "$n=on"`, round 101): walked again with every
        // option possibly on.
        if d.is_zsh()
            && opts.options_table.is_none()
            && let Some(at) = s.may_write_options()?
        {
            opts.options_table = Some(at);
            continue;
        }
        // Text the walk does not read that may source a file: walked again with what the
        // functions such a file defines may copy.
        if !opts.unread_sources && s.unread_may_source()? {
            opts.unread_sources = true;
            continue;
        }
        let ifs_matters = !opts.ifs_unknown && s.fields_split.get();
        let xtracefd_matters = xtrace && !opts.stderr_merged;
        if holds && (ifs_matters || xtracefd_matters) && s.sites_may_assign()? {
            // An evaluator may assign IFS, or BASH_XTRACEFD under `set -x`.
            next.ifs_unknown = true;
            next.stderr_merged |= xtrace;
            if next != opts {
                opts = next;
                continue;
            }
        }
        let mut found = s.judge(holds)?;
        let runs = if holds {
            s.runs_leaving_attrs()?
        } else {
            Vec::new()
        };
        release(s, last);
        if !runs.is_empty() {
            // What unread text may leave for the rest of the command (attributes, options),
            // judged on the rest as if that text did nothing else: what it assigns and the
            // functions it may define are its own (explicit).
            let (_, rest) = settle(
                Opts {
                    ifs_unknown: opts.ifs_unknown,
                    ..Opts::default()
                },
                true,
            )?;
            let mut s = solve::Solver::new(&rest.facts, d, &reading.heredocs, Some(text), meter);
            s.holds_heredoc = holds;
            s.ifs_unknown = opts.ifs_unknown;
            s.skip_eval_assigns = true;
            s.solve()?;
            let runs = s.runs_leaving_attrs()?;
            found.extend(s.judge_eval_attrs(&runs)?);
        }
        release(facts, last);
        break found;
    };
    release(prog, last);
    // bash expands the translation of a `$"…"` string again, as a double-quoted string:
    // where the command names the message catalog (`TEXTDOMAIN`, `TEXTDOMAINDIR`), one it
    // wrote may hold heredoc text.
    let mut found = found;
    if holds
        && !d.is_zsh()
        && {
            // (Spelled with quotes or backslashes in it too: `TEXT""DOMAIN=…`.)
            let plain: Vec<u8> = text
                .iter()
                .filter(|&&c| !matches!(c, b'\'' | b'"' | b'\\'))
                .copied()
                .collect();
            crate::search::find(&plain, b"TEXTDOMAIN").is_some()
        }
        && let Some(at) = crate::search::find(text, b"$\"")
    {
        found.push(solve::Found::Evaluation {
            at: at as u32,
            evaluator: Evaluator::WordList,
            what: "a $\"…\" string's translation, from a message catalog the command names (TEXTDOMAIN, TEXTDOMAINDIR)",
            unknown: true,
            in_body: None,
        });
    }
    Ok(found
        .into_iter()
        .map(|f| match f {
            solve::Found::Evaluation {
                at,
                evaluator,
                what,
                unknown,
                in_body,
            } => Found::Evaluation {
                at,
                evaluator,
                what,
                unknown,
                in_body,
            },
            solve::Found::Change { at, what } => Found::Change { at, what },
            solve::Found::Unread { at, in_body, what } => Found::Unread { at, in_body, what },
        })
        .collect())
}

/// Whether `text` may name a variable with letters past ASCII, which zsh takes in names
/// (a UTF-8 locale: any character `iswalnum` calls a letter or digit): such a character
/// anywhere outside the heredocs' bodies, or an escape that may make a byte past ASCII
/// (`\u00e9`, `\xc3`, `\303`, `\703`, zsh's `\M-C` and `\MC`). Quotes and comments are not worked out: a
/// character in one counts as well, so no reading of them can be wrong. Symbols and
/// punctuation past ASCII (`✓`, `—`, `→`, emoji) are no letters and do not count.
fn wide_outside_bodies(text: &[u8], heredocs: &[crate::shell::Heredoc]) -> bool {
    let mut bodies: Vec<(usize, usize)> = heredocs
        .iter()
        .map(|h| (h.body.0 as usize, h.body.1 as usize))
        .filter(|(a, b)| a < b)
        .collect();
    bodies.sort_unstable();
    let mut from = 0;
    for (start, end) in bodies
        .into_iter()
        .chain(std::iter::once((text.len(), text.len())))
    {
        if let Some(part) = text.get(from..start.max(from))
            && wide_in(part)
        {
            return true;
        }
        from = from.max(end);
    }
    false
}

/// Whether octal digits make a byte past ASCII: three of them, the first `2` to `7`.
fn high_octal(d: &[u8]) -> bool {
    d.len() >= 3 && matches!(d[0], b'2'..=b'7') && d[1..3].iter().all(|c| matches!(c, b'0'..=b'7'))
}

/// [`wide_outside_bodies`] on one stretch of text.
fn wide_in(part: &[u8]) -> bool {
    // An escape that may make a byte past ASCII.
    let escape = memchr::memchr_iter(b'\\', part).any(|i| {
        let e = part.get(i + 1..).unwrap_or_default();
        match e.first() {
            // (zsh's `\M` with or without its `-`; three octal digits from `\200`, past
            // `\377` wrapping, or four after a `0`.)
            Some(b'u' | b'U' | b'M') => true,
            Some(b'x') => e
                .get(1)
                .is_some_and(|c| matches!(c, b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')),
            Some(b'0') => high_octal(&e[1..]),
            Some(_) => high_octal(e),
            None => false,
        }
    });
    if escape {
        return true;
    }
    if part.is_ascii() {
        return false;
    }
    // (Text cut inside a character, or not UTF-8: counted.)
    let Ok(s) = std::str::from_utf8(part) else {
        return true;
    };
    s.chars()
        .any(|c| !c.is_ascii() && (c.is_alphanumeric() || ('\u{0E00}'..='\u{0EFF}').contains(&c)))
}
