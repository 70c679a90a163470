//! The one path from a command to a report and a verdict, shared by the hook, `explain`
//! and `strip`: the fast path (nothing to read), the size limit, then the command read as
//! every shell reads it, then the rules.
//!
//! This is the only module that can build a [`Clean`] (why a command is allowed, and
//! per heredoc why its text stays data), so the only place an allow can come from.

use crate::limits::{self, Limit};
use crate::reason;
use crate::report::Report;
use crate::rules;
use crate::shell::{self, Dialect, Reading, Shell};
use crate::tamper;
use crate::verdict::Denial;
use std::rc::Rc;

/// Why a command is allowed, and per heredoc why its text stays data. Only this module
/// builds one, and only where a check finished with nothing to deny: an allow is this
/// value, never an empty list of findings (a [`Report`] without it denies).
#[derive(Clone, Debug)]
pub struct Clean {
    why: Why,
    kept: Vec<Kept>,
}

/// Why nothing in the command runs heredoc text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The event is not a shell command.
    NotShell,
    /// One line without `<<`, quotes, escapes or expansions: no shell finds or builds a
    /// heredoc in it.
    NothingToRead,
    /// Read as every shell reads it: no heredoc in any reading.
    NoHeredoc,
    /// Read as every shell reads it: each ends every heredoc where it appears to end,
    /// reads the rest as the guard does, and no value that may be heredoc text reaches a
    /// hidden evaluator in any of them.
    Judged,
}

/// Why one heredoc's body is data to the shell that reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// The delimiter is quoted: every shell keeps the body as written.
    Quoted,
    /// Unquoted, but the body holds no `$` and no backquote: nothing in it expands.
    NothingExpands,
    /// Unquoted; its expansions run no command, and none gives a hidden evaluator text
    /// that may be heredoc text.
    ExpansionsRunNothing,
}

impl Clean {
    /// Why the command is allowed.
    pub fn why(&self) -> Why {
        self.why
    }

    /// Per heredoc of the report, in its order, why its body is data.
    pub fn kept(&self) -> &[Kept] {
        &self.kept
    }

    fn without_heredocs(why: Why) -> Self {
        Clean {
            why,
            kept: Vec::new(),
        }
    }
}

impl Why {
    /// A stable id, for `explain --json`.
    pub fn id(self) -> &'static str {
        match self {
            Why::NotShell => "not-shell",
            Why::NothingToRead => "nothing-to-read",
            Why::NoHeredoc => "no-heredoc",
            Why::Judged => "judged",
        }
    }

    /// The reason in words.
    pub fn says(self) -> &'static str {
        match self {
            Why::NotShell => "not a shell command",
            Why::NothingToRead => {
                "one line without <<, quotes, escapes or expansions: no shell finds or builds a heredoc in it"
            }
            Why::NoHeredoc => "no shell reads a heredoc in it",
            Why::Judged => {
                "every shell ends each heredoc where it appears to end, and no text that may be heredoc text reaches a hidden evaluator"
            }
        }
    }
}

impl Kept {
    /// A stable id, for `explain --json`.
    pub fn id(self) -> &'static str {
        match self {
            Kept::Quoted => "quoted",
            Kept::NothingExpands => "nothing-expands",
            Kept::ExpansionsRunNothing => "expansions-run-nothing",
        }
    }

    /// The reason in words.
    pub fn says(self) -> &'static str {
        match self {
            Kept::Quoted => "the delimiter is quoted: every shell keeps the body as written",
            Kept::NothingExpands => {
                "unquoted, but the body holds no $ and no backquote: nothing in it expands"
            }
            Kept::ExpansionsRunNothing => {
                "unquoted; its expansions run no command and give no hidden evaluator text that may be heredoc text"
            }
        }
    }
}

/// Why each heredoc of a report that nothing denies keeps its body as data.
fn kept(bytes: &[u8], report: &Report) -> Vec<Kept> {
    report
        .heredocs
        .iter()
        .map(|h| {
            if h.quoted {
                Kept::Quoted
            } else if bytes
                .get(h.body.0..h.body.1)
                .is_some_and(|b| memchr::memchr2(b'$', b'`', b).is_none())
            {
                Kept::NothingExpands
            } else {
                Kept::ExpansionsRunNothing
            }
        })
        .collect()
}

/// Checks a shell command: the whole guard for one Bash command.
pub fn check_command(command: &str) -> Verdict {
    check_from(command, &tamper::Ctx::of_process(None))
}

/// [`check_command`] without the clock: the work budget and every other limit as the hook
/// has them, and no time limit. For tests whose subject is the work budget or a verdict
/// within it, which a slower machine must not turn into a time limit (speed is the
/// bench's to measure); the hook never calls it.
pub fn check_command_without_clock(command: &str) -> Verdict {
    match inspect_from(command, Some(&tamper::Ctx::of_process(None)), false) {
        Ok(report) => verdict_for(&report),
        Err(denial) => Verdict::deny(denial),
    }
}

/// [`check_command`], run where `tamper` says.
fn check_from(command: &str, tamper: &tamper::Ctx) -> Verdict {
    match inspect_from(command, Some(tamper), true) {
        Ok(report) => verdict_for(&report),
        Err(denial) => Verdict::deny(denial),
    }
}

/// Turns a report into a verdict: the first finding denies. Crate-private: a report built
/// outside the checked path must not become an allow.
pub(crate) fn verdict_for(report: &Report) -> Verdict {
    match (report.findings.first(), &report.clean) {
        (Some(f), _) => Verdict::deny(Denial::new(
            reason::rule_of(&f.kind),
            reason::reason(report, f),
        )),
        (None, Some(clean)) => Verdict::allow(clean),
        // A report no finished check vouched for (built elsewhere, or cut short).
        (None, None) => Verdict::deny(Denial::internal(
            "the check did not finish: nothing found, but nothing shown clean",
        )),
    }
}

/// Reads `command` and applies the rules; a command that cannot be read is a denial.
///
/// Bounded by construction: the readings and the rules charge one work budget
/// ([`shell::MAX_WORK`]) and look at the clock as they go ([`limits::MAX_CPU`] of the
/// reading thread's CPU time, [`limits::MAX_TIME`] by the wall clock); they read
/// on the calling thread, nesting at most [`limits::SMALL_STACK_DEPTH`] levels, which fits a small
/// stack. Only a command that nests deeper is read again, on a thread with a stack for
/// [`shell::MAX_NESTING`] levels.
pub fn inspect(command: &str) -> Result<Report, Denial> {
    inspect_from(command, None, true)
}

/// [`inspect`] with the `guard-tamper` rule too (run in this process's directory), as
/// the hook decides: for `explain`.
pub(crate) fn inspect_guarded(command: &str) -> Result<Report, Denial> {
    inspect_from(command, Some(&tamper::Ctx::of_process(None)), true)
}

/// [`inspect`]; with `tamper`, the `guard-tamper` rule runs on the readings, before the others; a line
/// that needs no reading is read when it may concern the guard. Without `clock`, no time
/// limit ([`check_command_without_clock`]).
fn inspect_from(
    command: &str,
    tamper: Option<&tamper::Ctx>,
    clock: bool,
) -> Result<Report, Denial> {
    let deadline = if !clock {
        None
    } else if shell::exits_after_verdict() {
        Some(shell::Deadline::at_thread_cpu(
            limits::MAX_TIME,
            limits::MAX_CPU,
        ))
    } else {
        Some(shell::Deadline::after(limits::MAX_TIME, limits::MAX_CPU))
    };
    let bytes = command.as_bytes();
    if !shell::needs_reading(bytes) && !tamper.is_some_and(|t| tamper::may_concern(bytes, t)) {
        return Ok(Report {
            clean: Some(Clean::without_heredocs(Why::NothingToRead)),
            ..Report::default()
        });
    }
    if bytes.len() > limits::MAX_COMMAND_BYTES {
        return Err(reason::limit_denial(Limit::CommandSize));
    }
    if let Some(at) = memchr::memchr3(0, 1, 0x7f, bytes) {
        return Err(reason::parse_denial(
            "a NUL, \\x01 or \\x7f byte, which bash treats specially",
            "control byte",
            shell::pos(bytes, at as u32),
        ));
    }
    match inspect_within(command, tamper, deadline, limits::SMALL_STACK_DEPTH) {
        Attempt::Done(result) => result,
        Attempt::Deeper => inspect_on_large_stack(command, tamper, deadline),
    }
}

/// Stack for the thread that reads a command nesting past [`limits::SMALL_STACK_DEPTH`]: the
/// reader recurses once per nesting level, up to [`shell::MAX_NESTING`], in debug builds
/// too.
const READ_STACK_BYTES: usize = 256 * 1024 * 1024;

/// What one attempt at reading a command came to.
enum Attempt {
    Done(Result<Report, Denial>),
    /// The command nests deeper than the attempt could follow on its stack.
    Deeper,
}

thread_local! {
    /// Readings started on a large-stack thread from this thread.
    static LARGE_STACK_READINGS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many commands this thread has read again on a large-stack thread (for tests: an
/// ordinary command spawns no thread).
pub fn large_stack_readings() -> usize {
    LARGE_STACK_READINGS.with(|n| n.get())
}

/// Reads the command again, on a thread with a stack for [`shell::MAX_NESTING`] levels;
/// joined before this returns.
fn inspect_on_large_stack(
    command: &str,
    tamper: Option<&tamper::Ctx>,
    deadline: Option<shell::Deadline>,
) -> Result<Report, Denial> {
    // The CPU time the first attempt left, counted from now on the reading thread.
    let cpu_left = deadline
        .and_then(|d| d.cpu_left())
        .unwrap_or(limits::MAX_CPU);
    LARGE_STACK_READINGS.with(|n| n.set(n.get() + 1));
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("heredoc-guard-read".to_owned())
            .stack_size(READ_STACK_BYTES)
            .spawn_scoped(scope, || {
                let deadline = deadline.map(|d| d.on_this_thread(cpu_left));
                match inspect_within(command, tamper, deadline, shell::MAX_NESTING) {
                    Attempt::Done(result) => result,
                    Attempt::Deeper => Err(reason::limit_denial(Limit::Nesting)),
                }
            })
            .map(|handle| handle.join())
    });
    match result {
        Ok(Ok(result)) => result,
        Ok(Err(_panic)) => Err(Denial::internal("the reader panicked")),
        Err(_) => Err(Denial::internal("could not start the reading thread")),
    }
}

/// The readings and the rules, with one meter nesting at most `max_depth` levels.
fn inspect_within(
    command: &str,
    tamper: Option<&tamper::Ctx>,
    deadline: Option<shell::Deadline>,
    max_depth: usize,
) -> Attempt {
    let work = shell::Work::new(shell::MAX_WORK, deadline, max_depth);
    let (intended, shells) = read_all_with(command, &work);
    if work.over() == Some(shell::Over::Depth) {
        return Attempt::Deeper;
    }
    let result = judge(command, &work, &intended, &shells, tamper);
    if shell::exits_after_verdict() {
        // The process ends after this verdict: freeing the readings one by one would
        // only delay it (up to tens of milliseconds for the largest).
        std::mem::forget((intended, shells));
    }
    Attempt::Done(result)
}

/// Tells the checks of this process that it is the hook, which exits after its one
/// verdict: the time limit ([`limits::MAX_CPU`]) counts the process's CPU time from its
/// start, and what the check built is not freed.
pub fn hook_process() {
    shell::exit_after_verdict();
}

/// The denials the readings force (errors, limits, a heredoc without its closing line),
/// then `guard-tamper` (with `tamper`), then the rules, charged to the same meter before
/// they run.
fn judge(
    command: &str,
    work: &shell::Work,
    intended: &Rc<Reading>,
    shells: &[(Dialect, Rc<Reading>)],
    tamper: Option<&tamper::Ctx>,
) -> Result<Report, Denial> {
    let bytes = command.as_bytes();
    if let Some(e) = intended.error {
        return Err(if let Some(stop) = e.limit {
            reason::limit_denial(Limit::of_stop(stop))
        } else {
            reason::parse_denial(e.cause, "syntax error", shell::pos(bytes, e.at))
        });
    }
    // A heredoc the input ends first is denied: what follows the command (a client's
    // wrapper, the next line of a script) would be its body, and what its author wrote as
    // body after that end runs as code (a backquote in it ends the backquotes). Inside
    // backquotes one case is read: the author's closing line is there, as written, before
    // the backquotes close, and the shell only joined it to the line before (a trailing
    // backslash, joined while the backquotes are read). Its body then ends with the
    // backquoted text in every shell measured (bash 3.2 to 5.3 and zsh keep it as data,
    // with a warning); that a shell reads it otherwise is for the rules, which compare
    // every reading.
    if let Some(h) = intended
        .heredocs
        .iter()
        .find(|h| h.closer.is_none() && !h.ansi_c && !closed_as_written_in_backquotes(bytes, h))
    {
        return Err(reason::parse_denial(
            "a heredoc has no closing line (a line holding only its delimiter)",
            "heredoc without closing line",
            shell::pos(bytes, h.op),
        ));
    }
    if let Some(stop) = shells
        .iter()
        .find_map(|(_, r)| r.error.and_then(|e| e.limit))
    {
        return Err(reason::limit_denial(Limit::of_stop(stop)));
    }
    if let Some(ctx) = tamper {
        // Each distinct program once (dialects that read alike share one reading, and
        // readings that differ only in the quirks they asked read the same program).
        let mut readings: Vec<&Reading> = Vec::with_capacity(4);
        for r in std::iter::once(intended).chain(shells.iter().map(|(_, r)| r)) {
            if !readings
                .iter()
                .any(|x| std::ptr::eq(*x, &**r) || x.same_program(r))
            {
                readings.push(r);
            }
        }
        if let Some(denial) = tamper::check(command, &readings, ctx) {
            return Err(denial);
        }
    }
    // The judge, on every reading (charged to the same meter): a judge that gives up is
    // a limit, which denies. A reading shared by several dialects is judged once per
    // family (the judge tells bash from zsh, nothing finer).
    // No heredoc, in any reading or spelled anywhere in the text, and no reading that may
    // make one: no heredoc text, and nothing for the judge to keep from running. (An
    // alias defined at run time may make a heredoc operator from text that only becomes
    // `<<` once expanded, `eval "alias s=\$'cat \x3c\x3cE'"`, and its body is the
    // author's later text, on a line of its own or in a value built at run time,
    // `n=$'\n'; eval "s$n# …"`, `${y@P}`: a reading that is not inert, one that may change
    // the alias table or reach a hidden evaluator, is judged whatever its length,
    // [`crate::judge::inert`].)
    let no_heredoc = !spells_heredoc(bytes)
        && std::iter::once(intended)
            .chain(shells.iter().map(|(_, r)| r))
            .all(|r| !r.holds_heredoc())
        && inert_readings(intended, shells, bytes, work);
    let entries: Vec<(Dialect, &Rc<Reading>)> =
        std::iter::once((Dialect::new(Shell::Intended), intended))
            .chain(shells.iter().map(|(d, r)| (*d, r)))
            .collect();
    // Which entry each is judged as: itself, or one judged before it that read the same
    // program for the same family (the same reading; bash 3.2 reading a command step for
    // step as 5.2 does while asking other quirks; or keeping a substitution's text in a
    // word where 5.2 keeps `$()`). Nothing is judged where no reading holds a heredoc.
    let mut judged_as: Vec<usize> = Vec::with_capacity(entries.len());
    for (k, &(d, r)) in entries.iter().enumerate() {
        if no_heredoc {
            judged_as.push(k);
            continue;
        }
        let root = (0..k)
            .filter(|&j| judged_as.get(j) == Some(&j))
            .find(|&j| {
                let (dj, rj) = entries[j];
                dj.is_zsh() == d.is_zsh() && (Rc::ptr_eq(rj, r) || rj.same_program_judged(r, work))
            })
            .unwrap_or(k);
        judged_as.push(root);
    }
    let last_judged = (0..entries.len()).rev().find(|&k| judged_as[k] == k);
    let mut judged: Vec<Judged> = Vec::with_capacity(entries.len());
    // Whether a reading is inert for zsh, by the reading, once asked.
    let mut zsh_inert: Vec<(usize, bool)> = Vec::new();
    for (k, &(d, r)) in entries.iter().enumerate() {
        if no_heredoc {
            judged.push(Rc::new(Vec::new()));
            continue;
        }
        if let Some(found) = judged.get(judged_as[k]).filter(|_| judged_as[k] != k) {
            let found = Rc::clone(found);
            judged.push(found);
            continue;
        }
        // (A reading that is inert holds nothing the judge looks for: its heredocs' text
        // reaches no hidden evaluator, and nothing in it changes how text is read. A
        // reading zsh reads too is tested as zsh first, once: inert for zsh, it is inert
        // for bash, `inert_readings`.)
        let zsh_too = !d.is_zsh()
            && entries
                .iter()
                .any(|(dz, rz)| dz.is_zsh() && Rc::ptr_eq(rz, r));
        // (By the reading's first entry.)
        let first = entries
            .iter()
            .position(|(_, x)| Rc::ptr_eq(x, r))
            .unwrap_or(k);
        let as_zsh = |zsh_inert: &mut Vec<(usize, bool)>| -> bool {
            if let Some(&(_, known)) = zsh_inert.iter().find(|(p, _)| *p == first) {
                return known;
            }
            let known =
                work.charge(shell::bulk_work(bytes.len())) && crate::judge::inert(r, true, bytes);
            zsh_inert.push((first, known));
            known
        };
        let inert = if d.is_zsh() || zsh_too {
            let for_zsh = as_zsh(&mut zsh_inert);
            debug_assert!(
                d.is_zsh() || !for_zsh || crate::judge::inert(r, false, bytes),
                "a reading inert for zsh is inert for bash"
            );
            for_zsh
                || (!d.is_zsh()
                    && work.charge(shell::bulk_work(bytes.len()))
                    && crate::judge::inert(r, false, bytes))
        } else {
            work.charge(shell::bulk_work(bytes.len())) && crate::judge::inert(r, false, bytes)
        };
        if inert {
            judged.push(Rc::new(Vec::new()));
            continue;
        }
        match crate::judge::judge(r, d, bytes, work, last_judged == Some(k)) {
            Ok(found) => judged.push(Rc::new(found)),
            Err(crate::judge::GaveUp) => return Err(over_limit(work)),
        }
    }
    // The rules' work, known before they run: linear in the command, the readings' runs
    // and heredocs, and the judge's findings (limits before work).
    let rules_work = shell::bulk_work(bytes.len())
        + std::iter::once(intended)
            .chain(shells.iter().map(|(_, r)| r))
            .map(|r| r.exec.len() + r.heredocs.len())
            .sum::<usize>()
            * RULE_WORK
        + judged.iter().map(|f| f.len()).sum::<usize>() * RULE_WORK;
    if !work.charge(rules_work) {
        return Err(over_limit(work));
    }
    let mut report = rules::report(command, intended, shells, &judged);
    // A heredoc without its closing line in another reading (a shell that expands an
    // alias into a heredoc: zsh always, bash in Claude Code's shell) reads on to the end
    // of the input for its body, as the intended one would (above); the rules' findings
    // come first.
    if report.findings.is_empty()
        && let Some(h) = shells
            .iter()
            .flat_map(|(_, r)| r.heredocs.iter())
            .find(|h| {
                // One an alias made: its operator is not spelled where the reading puts it
                // (an alias's name, never `<`, stands there).
                let spelled = bytes.get(h.op as usize) == Some(&b'<');
                h.closer.is_none()
                    && !spelled
                    && !h.ansi_c
                    && !closed_as_written_in_backquotes(bytes, h)
            })
    {
        return Err(reason::parse_denial(
            "a heredoc has no closing line (a line holding only its delimiter) where a shell \
             expands an alias into it",
            "heredoc without closing line",
            shell::pos(bytes, h.op),
        ));
    }
    // The clock once more: a verdict after the deadline is a deny.
    if !work.check_clock() {
        return Err(over_limit(work));
    }
    // Every stage finished: a report with nothing to deny is clean, and says why.
    if report.findings.is_empty() {
        let holds_heredoc = std::iter::once(intended)
            .chain(shells.iter().map(|(_, r)| r))
            .any(|r| r.holds_heredoc());
        report.clean = Some(
            if (no_heredoc || !holds_heredoc) && report.heredocs.is_empty() {
                Clean::without_heredocs(Why::NoHeredoc)
            } else {
                Clean {
                    why: Why::Judged,
                    kept: kept(bytes, &report),
                }
            },
        );
    }
    Ok(report)
}

/// What the judge found in one reading, shared by the dialects that read it alike.
type Judged = Rc<Vec<crate::judge::Found>>;

/// Whether the text spells a heredoc operator: `<<`, its two characters perhaps apart
/// by backslash-newlines (which the shell removes before it reads the operator).
pub(crate) fn spells_heredoc(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'<', bytes).any(|i| {
        let mut j = i + 1;
        while bytes.get(j) == Some(&b'\\') && bytes.get(j + 1) == Some(&b'\n') {
            j += 2;
        }
        bytes.get(j) == Some(&b'<')
    })
}

/// Whether text may make a `<` once the shell expands it: the byte itself, an escape for
/// it (`\x3c`, `\74`, `\074`, `\u3c`, `\U003C`, in `$'…'`, `printf` or `echo -e`), a
/// zsh flag that makes characters (`${(l:2::<:)q}`, `${(#)n}`), or a brace sequence whose
/// ends lie on either side of it (`{;..>}`, zsh's `{$a..$b}`).
pub(crate) fn may_spell_lt(t: &[u8]) -> bool {
    if t.contains(&b'<') || crate::search::find(t, b"${(").is_some() {
        return true;
    }
    let escape = memchr::memchr_iter(b'\\', t).any(|i| {
        let rest = t.get(i + 1..).unwrap_or_default();
        match rest.first() {
            Some(b'u' | b'U' | b'x' | b'X') => true,
            Some(b'0'..=b'7') => {
                let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                let d = rest.get(..digits).unwrap_or_default();
                let d = &d[d.iter().take_while(|&&c| c == b'0').count()..];
                d.starts_with(b"74")
            }
            _ => false,
        }
    });
    let range = memchr::memmem::find_iter(t, b"..").any(|i| {
        let (Some(&a), Some(&b)) = (i.checked_sub(1).and_then(|k| t.get(k)), t.get(i + 2)) else {
            return false;
        };
        let (lo, hi) = (a.min(b), a.max(b));
        lo <= b'<' && b'<' <= hi && !(a.is_ascii_digit() && b.is_ascii_digit())
    });
    escape || range
}

/// Whether every reading is inert ([`crate::judge::inert`]), each once for its family,
/// charged to the meter by the command's length per reading.
fn inert_readings(
    intended: &Rc<Reading>,
    shells: &[(Dialect, Rc<Reading>)],
    bytes: &[u8],
    work: &shell::Work,
) -> bool {
    // Each distinct reading once: as zsh where zsh reads it (the test's zsh family only
    // adds conditions, so a reading inert for zsh is inert for bash: in a debug build,
    // checked), else as bash.
    let mut distinct: Vec<(bool, &Rc<Reading>)> = Vec::with_capacity(4);
    for (zsh, r) in
        std::iter::once((false, intended)).chain(shells.iter().map(|(d, r)| (d.is_zsh(), r)))
    {
        match distinct.iter_mut().find(|(_, x)| Rc::ptr_eq(x, r)) {
            Some((z, _)) => *z |= zsh,
            None => distinct.push((zsh, r)),
        }
    }
    distinct.into_iter().all(|(zsh, r)| {
        let inert =
            work.charge(shell::bulk_work(bytes.len())) && crate::judge::inert(r, zsh, bytes);
        debug_assert!(
            !inert || !zsh || crate::judge::inert(r, false, bytes),
            "a reading inert for zsh is inert for bash"
        );
        inert
    })
}

/// Whether a heredoc without its closing line sits in backquotes whose text holds, as
/// written, a line that is its closing line (tabs stripped for `<<-`).
fn closed_as_written_in_backquotes(bytes: &[u8], h: &shell::Heredoc) -> bool {
    if h.context != shell::Context::Backquote {
        return false;
    }
    let (start, end) = (h.body.0 as usize, h.body.1 as usize);
    let Some(body) = bytes.get(start..end) else {
        return false;
    };
    // Whole lines only: an empty closing word matches no unfinished last piece.
    body.split_inclusive(|&c| c == b'\n').any(|line| {
        let Some(line) = line.strip_suffix(b"\n") else {
            return false;
        };
        let line = if h.strip_tabs {
            let tabs = line.iter().take_while(|&&c| c == b'\t').count();
            line.get(tabs..).unwrap_or_default()
        } else {
            line
        };
        line == h.closing.as_slice()
    })
}

/// The work of the rules for one run, heredoc or option of a reading.
const RULE_WORK: usize = 4;

fn over_limit(work: &shell::Work) -> Denial {
    reason::limit_denial(match work.over() {
        Some(shell::Over::Time) => Limit::Time,
        Some(shell::Over::Depth) => Limit::Nesting,
        _ => Limit::Work,
    })
}

type Readings = (Rc<Reading>, Vec<(Dialect, Rc<Reading>)>);

/// Reads the command as every shell reads it, and as intended, all charging `work`; once
/// a reading reaches a limit, the others are not read (the limit denies).
///
/// Read once where the shells agree: bash 5.2 is read first, and records every quirk of
/// the dialect table its reader asked ([`Reading::asked`]); another dialect that differs
/// from it in none of them would take the very same steps, so it shares that reading
/// instead of being read again. A large command also shares it when none of the
/// constructs the versions are measured to read differently appears in it (the features;
/// a small command is read by every shell that may differ, in microseconds).
fn read_all_with(command: &str, work: &shell::Work) -> Readings {
    // A body every shell reads alike is scanned once, for all of them.
    let bodies = shell::bodies_for();
    let read = |d: Dialect| Rc::new(shell::read_sharing(command, d, work, &bodies));
    let at_limit = |r: &Reading| r.error.is_some_and(|e| e.limit.is_some());
    let base_dialect = Dialect::new(Shell::Bash52);
    let base = read(base_dialect);
    let mut shells: Vec<(Dialect, Rc<Reading>)> = Vec::with_capacity(Shell::RUNNING.len() * 2);
    if at_limit(&base) {
        shells.push((base_dialect, Rc::clone(&base)));
        return (base, shells);
    }
    let large = command.len() > limits::READ_EVERY_SHELL_BYTES;
    let same_features = large && !needs_every_shell(&base) && !aliases_here(&base);
    // The reading of `d`: the base's when it provably takes the same steps.
    let share_or_read = |d: Dialect, base_d: Dialect, base: &Rc<Reading>| {
        let same_steps = shell::differences(d, base_d) & base.asked == 0;
        let same_by_features = same_features && !d.shell.quirks().zsh && d.shell != Shell::Intended;
        if same_steps || same_by_features {
            Rc::clone(base)
        } else {
            read(d)
        }
    };
    let intended = share_or_read(Dialect::new(Shell::Intended), base_dialect, &base);
    if at_limit(&intended) {
        return (intended, shells);
    }
    let mut extglob = intended.features.extglob_chars || base.features.extglob_chars;
    for s in Shell::RUNNING {
        let d = Dialect::new(s);
        let r = if s == Shell::Bash52 {
            Rc::clone(&base)
        } else {
            share_or_read(d, base_dialect, &base)
        };
        extglob |= r.features.extglob_chars;
        let stop = at_limit(&r);
        shells.push((d, r));
        if stop {
            return (intended, shells);
        }
    }
    let aliases = intended.features.alias_def || shells.iter().any(|(_, r)| r.features.alias_def);
    // extglob is off in `bash -c`, but a user's shell may have it on; alias expansion is
    // off in `bash -c` and on in Claude Code's shell: read every way that can differ, each
    // group with its own bash 5.2 reading as the base.
    let mut groups: Vec<(bool, bool)> = Vec::new();
    if extglob {
        groups.push((true, false));
    }
    if aliases {
        groups.push((false, true));
        if extglob {
            groups.push((true, true));
        }
    }
    for (extglob, aliases) in groups {
        let variant = |shell| Dialect {
            shell,
            extglob,
            aliases,
        };
        let group_base_d = variant(Shell::Bash52);
        let group_base = read(group_base_d);
        let stop = at_limit(&group_base);
        shells.push((group_base_d, Rc::clone(&group_base)));
        if stop {
            break;
        }
        for s in Shell::RUNNING
            .into_iter()
            .filter(|s| s.quirks().bash_options && *s != Shell::Bash52)
        {
            let d = variant(s);
            let r = if shell::differences(d, group_base_d) & group_base.asked == 0 {
                Rc::clone(&group_base)
            } else {
                read(d)
            };
            let stop = at_limit(&r);
            shells.push((d, r));
            if stop {
                return (intended, shells);
            }
        }
    }
    (intended, shells)
}

/// Whether the command defines aliases (every shell is then read, with and without them).
fn aliases_here(intended: &Reading) -> bool {
    intended.features.alias_def
}

/// Whether bash versions other than 5.2 could read the command differently: every
/// construct where their readers differ (measured) is a reason. A command of plain words
/// and heredocs at the top level or in compound commands reads the same in every bash.
fn needs_every_shell(intended: &Reading) -> bool {
    let f = intended.features;
    f.comsub
        || f.backquote
        || f.arith
        || f.dollar_brace
        || f.extglob_chars
        || f.cond
        || f.dparen_subshell
        || intended.unreliable.is_some()
        || intended.error.is_some()
}

/// The outcome of one hook event: the verdict, the command (for the ledger's hash) and
/// where the event came from (for the ledger's record).
pub struct EventVerdict {
    pub verdict: Verdict,
    /// The event's buffer, where the command was decoded in place.
    command: Option<shell::Source>,
    pub context: crate::event::Context<'static>,
}

impl EventVerdict {
    /// The command, when the event held one (the ledger hashes it; empty otherwise).
    pub fn command(&self) -> &[u8] {
        self.command.as_ref().map_or(&[], shell::Source::bytes)
    }
}

/// Checks one hook event as read from stdin. The command's JSON string is unescaped in
/// place, in `bytes`, which the verdict then keeps: the command and its bodies are parts of
/// that one buffer, never copies.
pub fn check_event(mut bytes: Vec<u8>) -> EventVerdict {
    if bytes.len() > limits::MAX_EVENT_BYTES {
        return EventVerdict {
            verdict: Verdict::deny(reason::limit_denial(Limit::EventSize)),
            command: None,
            context: crate::event::Context::default(),
        };
    }
    let read = crate::event::read(&mut bytes);
    let context = read.context;
    let (verdict, command) = match read.command {
        Ok(None) => (
            Verdict::allow(&Clean::without_heredocs(Why::NotShell)),
            None,
        ),
        Ok(Some(range)) => match shell::Source::new(std::sync::Arc::new(bytes), range) {
            Some(source) => match std::str::from_utf8(source.bytes()) {
                Ok(command) => {
                    let here = tamper::Ctx::of_process(context.cwd.as_deref());
                    let verdict = check_from(command, &here);
                    (verdict, Some(source))
                }
                Err(_) => (
                    Verdict::deny(Denial::internal("the command is not UTF-8")),
                    None,
                ),
            },
            None => (
                Verdict::deny(Denial::internal("the command is not in the event")),
                None,
            ),
        },
        Err(e) => (
            Verdict::deny(Denial::invalid_event(e.cause, &e.detail)),
            None,
        ),
    };
    EventVerdict {
        verdict,
        command,
        context,
    }
}

#[derive(Debug)]
enum Outcome {
    Allow,
    Deny(Denial),
}

/// The guard's decision. Must be used: dropping a verdict silently is a bug.
#[must_use]
#[derive(Debug)]
pub struct Verdict {
    outcome: Outcome,
}

impl Verdict {
    /// An allow; only a finished check holds a [`Clean`], and only this module can build
    /// one.
    fn allow(_clean: &Clean) -> Self {
        Verdict {
            outcome: Outcome::Allow,
        }
    }

    /// A deny.
    pub fn deny(denial: Denial) -> Self {
        Verdict {
            outcome: Outcome::Deny(denial),
        }
    }

    /// True when the command may run.
    pub fn is_allow(&self) -> bool {
        matches!(self.outcome, Outcome::Allow)
    }

    /// The denial, when it is a deny.
    pub fn denial(&self) -> Option<&Denial> {
        match &self.outcome {
            Outcome::Allow => None,
            Outcome::Deny(d) => Some(d),
        }
    }

    /// Consumes the verdict, giving the denial when it is a deny.
    pub fn into_denial(self) -> Option<Denial> {
        match self.outcome {
            Outcome::Allow => None,
            Outcome::Deny(d) => Some(d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_no_finished_check_vouched_for_denies_even_without_findings() {
        // Built outside the check (as a default, or by the rules alone): no Clean.
        let v = verdict_for(&Report::default());
        let d = v
            .denial()
            .map(|d| (d.rule, d.reason.contains("did not finish")));
        assert_eq!(d, Some((crate::verdict::Rule::InternalError, true)));
    }

    #[test]
    fn a_finished_check_says_why_each_heredoc_stays_data() {
        let cmd = "cat <<'A'\n$(x)\nA\ncat <<B\nplain\nB\ncat <<C\n$HOME ${n:-1}\nC\n";
        let report = inspect(cmd).map_err(|d| d.reason).unwrap_or_default();
        let clean = report.clean.as_ref().map(|c| (c.why(), c.kept().to_vec()));
        assert_eq!(
            clean,
            Some((
                Why::Judged,
                vec![
                    Kept::Quoted,
                    Kept::NothingExpands,
                    Kept::ExpansionsRunNothing
                ]
            ))
        );
        assert!(verdict_for(&report).is_allow());
    }

    #[test]
    fn a_denied_command_has_no_clean_value() {
        let report = inspect("cat <<B\n$(id)\nB\n")
            .map_err(|d| d.reason)
            .unwrap_or_default();
        assert!(report.clean.is_none(), "{report:?}");
        assert!(!report.findings.is_empty());
    }

    #[test]
    fn zsh_mapfile_read_back_under_the_e_flag_is_a_heredoc_flow_without_the_tamper_rule() {
        // (With the tamper rule, loading zsh/mapfile is denied first: redteam16.txt.)
        let cmd =
            "zmodload zsh/mapfile\ncat > f <<'EOF'\n$(canary)\nEOF\nprint -r -- ${(e)mapfile[f]}\n";
        let rule = check_from_report(cmd);
        assert_eq!(rule, Some(crate::verdict::Rule::HeredocFlow));
    }

    /// The rule the judge alone (no tamper rule) denies `cmd` by.
    fn check_from_report(cmd: &str) -> Option<crate::verdict::Rule> {
        match inspect(cmd) {
            Ok(report) => verdict_for(&report).denial().map(|d| d.rule),
            Err(d) => Some(d.rule),
        }
    }

    #[test]
    fn commands_without_heredocs_say_which_check_cleared_them() {
        let why = |c: &str| inspect(c).ok().and_then(|r| r.clean).map(|c| c.why());
        assert_eq!(why("ls -la"), Some(Why::NothingToRead));
        assert_eq!(why("ls \"$HOME\""), Some(Why::NoHeredoc));
        assert_eq!(why("echo a\necho b"), Some(Why::NoHeredoc));
    }
}
