//! bash's input layer, as `shell_getc`, `shell_ungetc`, `shell_ungets`, `push_string` and
//! `read_a_line` in parse.y: the lexer reads one line at a time, with backslash-newline
//! removed where bash removes it; heredoc lines are read from the stream after the current
//! line; bash can push text back in front of what is left.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use super::text::{Builder, Text};

/// How a reading ran out: its work budget or the wall clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    Work,
    Time,
    /// Nesting deeper than this reading may go on its stack (see [`Work::new`]).
    Depth,
}

/// The work budget that every reading of one command, and the rules after them, draw on:
/// the one meter of the reader. Every byte the input layer hands out is charged here (a
/// character read one at a time, a run or a heredoc line read in bulk), and so is every
/// other step that reads text again (expansion, the scanners of older bash, the rules).
/// Every [`CLOCK_EVERY`] units it also reads the clock: past the deadline, the reading
/// stops as it does at the end of its budget. Once over, the input ends at once (every
/// loop that reads ends) and the reading is a limit (a deny).
#[derive(Clone, Debug)]
pub struct Work(Rc<Meter>);

/// When the readings stop by the clock: at a wall-clock instant, or once the reading
/// thread has used its budget of CPU time. The CPU clock does not move while the machine
/// runs other work, so the verdict on an input does not depend on the machine's load; the
/// wall clock bounds a thread that is not scheduled at all.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    wall: Instant,
    /// The reading thread's CPU clock at which to stop (`None` when it cannot be read:
    /// the wall clock still bounds the reading).
    cpu: Option<Duration>,
}

impl Deadline {
    /// A deadline `wall` from now by the wall clock and `cpu` of this thread's CPU time.
    /// The CPU part counts on the calling thread only: make it on the thread that reads.
    pub fn after(wall: Duration, cpu: Duration) -> Deadline {
        Deadline {
            wall: Instant::now() + wall,
            cpu: thread_cpu().map(|now| now + cpu),
        }
    }

    /// A deadline `wall` from now by the wall clock and at `cpu` of this thread's CPU
    /// time counted from the hook's start ([`exit_after_verdict`]; the thread's start when
    /// it was not called).
    pub fn at_thread_cpu(wall: Duration, cpu: Duration) -> Deadline {
        let start =
            Duration::from_nanos(HOOK_START_CPU_NS.load(std::sync::atomic::Ordering::Relaxed));
        Deadline::since(wall, start, cpu)
    }

    /// A deadline `wall` from now by the wall clock and at `cpu` of this thread's CPU time
    /// past `start` (a reading of this thread's CPU clock).
    fn since(wall: Duration, start: Duration, cpu: Duration) -> Deadline {
        Deadline {
            wall: Instant::now() + wall,
            cpu: thread_cpu().map(|_| start + cpu),
        }
    }

    /// A deadline at a wall-clock instant only.
    pub fn at(wall: Instant) -> Deadline {
        Deadline { wall, cpu: None }
    }

    /// The same wall-clock instant, with `cpu` of CPU time from now on the calling thread.
    pub fn on_this_thread(self, cpu: Duration) -> Deadline {
        Deadline {
            wall: self.wall,
            cpu: thread_cpu().map(|now| now + cpu),
        }
    }

    fn passed(&self) -> bool {
        Instant::now() >= self.wall
            || self
                .cpu
                .is_some_and(|stop| thread_cpu().is_some_and(|now| now >= stop))
    }

    /// The CPU time left before this deadline, on the thread that made it.
    pub fn cpu_left(&self) -> Option<Duration> {
        Some(self.cpu?.saturating_sub(thread_cpu()?))
    }
}

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu() -> Option<Duration> {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID)
        .ok()
        .map(Duration::from)
}

#[derive(Debug)]
struct Meter {
    used: Cell<usize>,
    budget: usize,
    deadline: Option<Deadline>,
    /// Deepest nesting allowed (see [`Work::max_depth`]).
    max_depth: usize,
    next_clock: Cell<usize>,
    over: Cell<Option<Over>>,
}

/// Units of work between two looks at the clock (about 0.05 ms of reading, 2 ms of the
/// effects walk at its slowest).
pub const CLOCK_EVERY: usize = 4 * 1024;

/// Set by the hook process, which makes one check and exits.
static EXITS_AFTER_VERDICT: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// This thread's CPU time when the hook started ([`exit_after_verdict`]), in nanoseconds.
/// A process keeps its CPU time across `exec` (`cargo run` execs the binary after its own
/// work), so the hook's time counts from here, not from the clock's zero.
static HOOK_START_CPU_NS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Marks this process as one that exits after its one verdict (the hook): its time limit
/// counts from this call (make it first), and what the check built is not freed.
pub fn exit_after_verdict() {
    let now = thread_cpu().map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    HOOK_START_CPU_NS.store(now, std::sync::atomic::Ordering::Relaxed);
    EXITS_AFTER_VERDICT.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether this process exits after its one verdict ([`exit_after_verdict`]).
pub fn exits_after_verdict() -> bool {
    EXITS_AFTER_VERDICT.load(std::sync::atomic::Ordering::Relaxed)
}

impl Default for Work {
    fn default() -> Work {
        Work::new(super::MAX_WORK, None, super::MAX_NESTING)
    }
}

impl Work {
    /// A meter of `budget` units, stopping at `deadline`, for readings that may nest
    /// `max_depth` levels deep.
    pub fn new(budget: usize, deadline: Option<Deadline>, max_depth: usize) -> Work {
        Work(Rc::new(Meter {
            used: Cell::new(0),
            budget,
            deadline,
            max_depth,
            next_clock: Cell::new(CLOCK_EVERY),
            over: Cell::new(None),
        }))
    }

    /// Charges `n` units; false once the budget or the time is over.
    #[inline]
    pub fn charge(&self, n: usize) -> bool {
        let m = &*self.0;
        let used = m.used.get().saturating_add(n);
        m.used.set(used);
        if used >= m.next_clock.get() {
            self.slow_checks(used);
        }
        m.over.get().is_none()
    }

    #[cold]
    fn slow_checks(&self, used: usize) {
        let m = &*self.0;
        m.next_clock
            .set(used.saturating_add(CLOCK_EVERY).min(m.budget + 1));
        if m.over.get().is_some() {
            return;
        }
        if used > m.budget {
            m.over.set(Some(Over::Work));
        } else if m.deadline.is_some_and(|d| d.passed()) {
            m.over.set(Some(Over::Time));
        }
    }

    /// Looks at the clock now; false once the budget or the time is over.
    pub fn check_clock(&self) -> bool {
        self.slow_checks(self.0.used.get());
        self.0.over.get().is_none()
    }

    /// Marks the readings as over (nesting past [`Work::max_depth`]).
    pub fn stop(&self, why: Over) {
        if self.0.over.get().is_none() {
            self.0.over.set(Some(why));
        }
    }

    /// Why the work stopped, once it has.
    pub fn over(&self) -> Option<Over> {
        self.0.over.get()
    }

    /// The units used so far.
    pub fn used(&self) -> usize {
        self.0.used.get()
    }

    /// The deepest nesting the readings may follow: [`super::MAX_NESTING`], or less on a
    /// small stack (the caller reads again on a larger one when it is reached).
    pub fn max_depth(&self) -> usize {
        self.0.max_depth
    }
}

/// The current line buffer (bash's `shell_input_line`).
#[derive(Clone, Debug)]
enum Line {
    /// No line read yet, or the stream ended.
    Empty,
    /// Bytes `start..end` of the stream, then `tail` (the newline bash adds, or a
    /// backslash in place of it).
    Stream {
        start: usize,
        end: usize,
        tail: Option<u8>,
    },
    /// Text pushed back into the input; `true` when heredoc lines are read from it too.
    Owned(Rc<Text<'static>>, bool),
}

impl Line {
    fn len(&self) -> usize {
        match self {
            Line::Empty => 0,
            Line::Stream { start, end, tail } => end - start + usize::from(tail.is_some()),
            Line::Owned(t, _) => t.len(),
        }
    }
}

/// An alias's value pushed in front of the rest of the line.
#[derive(Clone, Debug)]
struct AliasPush {
    name: Vec<u8>,
    /// The command offset of the word it replaced (every byte of the value points there).
    origin: u32,
    /// The value ends in a blank: the word after it is expanded too.
    expand_next: bool,
    /// bash gives a space after the value (it does not end in a blank or an operator).
    wants_space: bool,
    space_given: bool,
}

/// One heredoc line: bytes `start..end` of the stream as they are (the newline after them
/// not included), or a line that had to be joined or came from pushed text.
pub enum Here {
    Stream {
        start: usize,
        end: usize,
        at_eof: bool,
    },
    Owned(HereLine),
}

/// One heredoc line as `read_a_line` returns it.
pub struct HereLine {
    /// The line, newline included (joined when backslash-newlines are removed).
    pub text: Text<'static>,
    /// The stream ended inside it (bash supplied the newline).
    pub at_eof: bool,
}

/// The reader's input: a stream (the command, or a derived text) read line by line.
pub struct Input<'s> {
    stream: Rc<Text<'s>>,
    /// The meter every byte read is charged to.
    work: Work,
    /// Stream offset where the next line starts.
    next: usize,
    line: Line,
    idx: usize,
    /// Lines saved by `push_string`, restored when the pushed text runs out.
    saved: Vec<(Line, usize)>,
    /// For each saved line, the alias whose value was pushed in front of it, if any.
    aliases: Vec<Option<AliasPush>>,
    /// An alias whose value ended in a blank ran out: the next word is expanded too
    /// (bash's `PST_ALEXPNEXT`, set by `pop_string`).
    alias_expand_next: bool,
    /// bash's `eol_ungetc_lookahead`.
    lookahead: Option<(u8, u32)>,
    /// The origin of the last character returned.
    last: u32,
    /// What was read while capturing (nested captures share the outermost one).
    capture: Option<Builder>,
    capture_depth: usize,
    /// Stream offset of the last character read, when it came from the stream.
    last_stream: Option<usize>,
    /// `last` and `last_stream` before the last two reads, for `ungetc`.
    history: [(u32, Option<usize>); 2],
    /// The last character returned was the space after an alias's value.
    gave_alias_space: bool,
}

impl<'s> Input<'s> {
    pub fn new(stream: Rc<Text<'s>>, work: Work) -> Input<'s> {
        Input {
            stream,
            work,
            next: 0,
            line: Line::Empty,
            idx: 0,
            saved: Vec::new(),
            aliases: Vec::new(),
            alias_expand_next: false,
            lookahead: None,
            last: 0,
            capture: None,
            capture_depth: 0,
            last_stream: None,
            history: [(0, None); 2],
            gave_alias_space: false,
        }
    }

    /// Reads the stream from byte `start` on (a command substitution parsed in place in
    /// the text of a word), as if it began there.
    pub fn start_at(&mut self, start: usize) {
        self.next = start.min(self.stream.len());
        self.line = Line::Empty;
        self.idx = 0;
    }

    /// Starts recording every character read (and every heredoc line).
    pub fn capture_start(&mut self) {
        if self.capture_depth == 0 {
            self.capture = Some(Builder::default());
        }
        self.capture_depth += 1;
    }

    /// Stops recording; the outermost capture gives what was read.
    pub fn capture_end(&mut self) -> Option<Text<'static>> {
        self.capture_depth = self.capture_depth.saturating_sub(1);
        if self.capture_depth == 0 {
            let end = self.last;
            self.capture.take().map(|b| b.finish(end + 1))
        } else {
            None
        }
    }

    fn captured(&mut self, c: u8, origin: u32) {
        if let Some(b) = self.capture.as_mut() {
            b.push(c, origin);
        }
    }

    /// The command offset of the last character returned by [`Input::getc`].
    pub fn last_origin(&self) -> u32 {
        self.last
    }

    pub fn stream_rc(&self) -> &Rc<Text<'s>> {
        &self.stream
    }

    /// The command offset where the next unread line of the stream starts, counted from
    /// the end of the line before it (a derived text can drop a line's first bytes).
    pub fn next_line_origin(&self) -> u32 {
        if let Line::Owned(_, true) = &self.line {
            return self.next_origin();
        }
        match self.next.checked_sub(1) {
            Some(prev) => self.stream.origin(prev) + 1,
            None => self.stream.origin(0),
        }
    }

    /// The rest of the current line of the stream, when nothing (a character given back,
    /// pushed text, an alias) stands in front of it: what the next reads return, up to
    /// the line's end.
    pub fn rest_of_line(&self) -> Option<&[u8]> {
        if self.lookahead.is_some() || !self.saved.is_empty() {
            return None;
        }
        match &self.line {
            Line::Stream { start, end, .. } => self.stream.bytes().get(start + self.idx..*end),
            _ => None,
        }
    }

    /// The command offset of the next character, without reading it.
    pub fn next_origin(&self) -> u32 {
        if let Some((_, o)) = self.lookahead {
            return o;
        }
        if self.idx < self.line.len() {
            return self.origin_in_line(self.idx);
        }
        self.stream.origin(self.next)
    }

    fn byte_in_line(&self, i: usize) -> Option<u8> {
        match &self.line {
            Line::Empty => None,
            Line::Stream { start, end, tail } => {
                if start + i < *end {
                    self.stream.get(start + i)
                } else if start + i == *end {
                    *tail
                } else {
                    None
                }
            }
            Line::Owned(t, _) => t.get(i),
        }
    }

    fn origin_in_line(&self, i: usize) -> u32 {
        match &self.line {
            Line::Empty => self.stream.origin(self.next),
            Line::Stream { start, .. } => self.stream.origin(start + i),
            Line::Owned(t, _) => t.origin(i),
        }
    }

    /// Reads the next physical line of the stream into the line buffer, as the top of
    /// `shell_getc` does. False at the end of the stream.
    fn fill(&mut self, remove_quoted_newline: &dyn Fn() -> bool) -> bool {
        let bytes = self.stream.bytes();
        let start = self.next;
        if start >= bytes.len() {
            self.line = Line::Empty;
            self.idx = 0;
            return false;
        }
        let (end, next, newline) = match self.stream.line_end(start) {
            n if n < bytes.len() => (n, n + 1, true),
            _ => (bytes.len(), bytes.len(), false),
        };
        // At the end of a string, a line ending in an unescaped backslash gets a
        // backslash instead of the newline (when newlines are being removed).
        let tail = if !newline
            && odd_trailing_backslashes(&bytes[start..end])
            && remove_quoted_newline()
        {
            b'\\'
        } else {
            b'\n'
        };
        self.line = Line::Stream {
            start,
            end,
            tail: Some(tail),
        };
        self.idx = 0;
        self.next = next;
        true
    }

    /// Reads, all at once, the characters of the current stream line from here up to (not
    /// including) the first of `stops` or the line's end, appending them to `out`: what
    /// [`Input::getc`] would return one by one for them (none of them is a backslash,
    /// which `stops` must hold). Gives how many were read; 0 when the next character is a
    /// stop, pushed text or a lookahead is in the way, or a line must be read first.
    pub fn take_run(&mut self, stops: [u8; 3], out: &mut Builder) -> usize {
        self.take_run_with(out, |rest| {
            memchr::memchr3(stops[0], stops[1], stops[2], rest).unwrap_or(rest.len())
        })
    }

    /// [`Input::take_run`] up to the first byte `stop` holds (which must hold `\\`).
    pub fn take_run_until(&mut self, stop: &[bool; 256], out: &mut Builder) -> usize {
        self.take_run_with(out, |rest| {
            rest.iter()
                .position(|&c| stop[c as usize])
                .unwrap_or(rest.len())
        })
    }

    fn take_run_with(&mut self, out: &mut Builder, find: impl Fn(&[u8]) -> usize) -> usize {
        if self.lookahead.is_some() {
            return 0;
        }
        let Line::Stream { start, end, .. } = self.line else {
            return 0;
        };
        let from = start + self.idx;
        if from >= end {
            return 0;
        }
        let n = find(&self.stream.bytes()[from..end]);
        if n == 0 || !self.work.charge(bulk_work(n)) {
            return 0;
        }
        out.push_text(&self.stream, from, from + n);
        if let Some(b) = self.capture.as_mut() {
            b.push_text(&self.stream, from, from + n);
        }
        let last = from + n - 1;
        // As after `n` calls of `getc`: the states before the last two reads.
        let state = |p: usize| (self.stream.origin(p), Some(p));
        self.history = match n {
            1 => [self.history[1], (self.last, self.last_stream)],
            2 => [(self.last, self.last_stream), state(last - 1)],
            _ => [state(last - 2), state(last - 1)],
        };
        self.last = self.stream.origin(last);
        self.last_stream = Some(last);
        self.idx += n;
        n
    }

    /// `shell_getc`: the next character, or `None` at the end of input.
    pub fn getc(&mut self, remove_quoted_newline: bool) -> Option<u8> {
        self.getc_joining(|| remove_quoted_newline)
    }

    /// [`Input::getc`], where whether a backslash-newline is removed is asked only where
    /// one stands (`join` may ask the dialect a quirk: only where it decides).
    pub fn getc_joining(&mut self, join: impl Fn() -> bool) -> Option<u8> {
        // The chokepoint: every character costs a unit; past the budget or the deadline
        // the input ends.
        if !self.work.charge(1) {
            return None;
        }
        self.history = [self.history[1], (self.last, self.last_stream)];
        self.gave_alias_space = false;
        if let Some((c, o)) = self.lookahead.take() {
            self.last = o;
            self.captured(c, o);
            return Some(c);
        }
        // Most characters: a byte of the current stream line before its end, not a
        // backslash (which may join lines): what the loop below returns for it.
        if let Line::Stream { start, end, .. } = self.line {
            let i = start + self.idx;
            if i < end
                && let Some(c) = self.stream.get(i)
                && c != b'\\'
            {
                self.idx += 1;
                let origin = self.stream.origin(i);
                self.last = origin;
                self.last_stream = Some(i);
                self.captured(c, origin);
                return Some(c);
            }
        }
        loop {
            if self.idx >= self.line.len() && self.saved.is_empty() && !self.fill(&join) {
                return None;
            }
            let mut c = self.byte_in_line(self.idx);
            if c.is_some() {
                self.idx += 1;
            }
            if c.is_none() {
                if let Some(Some(a)) = self.aliases.last_mut()
                    && !a.space_given
                    && a.wants_space
                {
                    // bash returns a space at the end of an alias's value before it goes
                    // back to the line, so that the alias stays in use while its last
                    // word is read (shell_getc's PST_ENDALIAS).
                    a.space_given = true;
                    let origin = a.origin;
                    self.last = origin;
                    self.last_stream = None;
                    self.gave_alias_space = true;
                    self.captured(b' ', origin);
                    return Some(b' ');
                }
                if let Some(Some(a)) = self.aliases.pop() {
                    self.alias_expand_next |= a.expand_next;
                }
                // The pushed text ran out: back to the line it interrupted.
                match self.saved.pop() {
                    Some((line, idx)) => {
                        self.line = line;
                        self.idx = idx;
                        c = self.byte_in_line(self.idx);
                        if c.is_some() {
                            self.idx += 1;
                        } else {
                            continue;
                        }
                    }
                    None => continue,
                }
            }
            let c = c?;
            let origin = self.origin_in_line(self.idx - 1);
            if c == b'\\' && self.byte_in_line(self.idx) == Some(b'\n') && join() {
                // `goto restart_read`: the pair disappears, the next line is read (and
                // charged: a run of backslash-newlines is read in this loop).
                if !self.work.charge(LINE_WORK) || !self.fill(&join) {
                    return None;
                }
                continue;
            }
            self.last = origin;
            self.last_stream = match &self.line {
                Line::Stream { start, .. } => Some(start + self.idx - 1),
                _ => None,
            };
            self.captured(c, origin);
            return Some(c);
        }
    }

    /// The character [`Input::getc`] would return next, when it stands in the current
    /// line (or was given back) and reading it changes nothing else; `None` where the
    /// line must be refilled or an alias's text ends (what comes next is not known
    /// without reading it). Nothing is read or charged.
    pub fn peek_in_line(&self) -> Option<u8> {
        if let Some((c, _)) = self.lookahead {
            return Some(c);
        }
        if self.idx < self.line.len() {
            self.byte_in_line(self.idx)
        } else {
            None
        }
    }

    /// `shell_ungetc`: gives back the last character read.
    pub fn ungetc(&mut self, c: u8) {
        if let Some(b) = self.capture.as_mut() {
            b.pop();
        }
        let (last, last_stream) = self.history[1];
        self.history = [self.history[0], self.history[0]];
        let unread = self.last;
        self.last = last;
        self.last_stream = last_stream;
        if std::mem::take(&mut self.gave_alias_space) {
            self.lookahead = Some((c, unread));
        } else if self.idx > 0 {
            self.idx -= 1;
        } else {
            self.lookahead = Some((c, unread));
        }
    }

    /// `shell_ungets` when the current line is used up (the only way bash calls it):
    /// the text becomes the current line.
    pub fn ungets(&mut self, text: Text<'static>) {
        if let Some(b) = self.capture.as_mut() {
            // The pushed-back text is read again: what was captured of it goes.
            for _ in 0..text.len() {
                b.pop();
            }
        }
        if self.idx < self.line.len() {
            // The current line is not used up: the text comes first, then its rest.
            self.push_string(text);
        } else {
            self.line = Line::Owned(Rc::new(text), false);
            self.idx = 0;
        }
    }

    /// `push_string`: reads `text` first, then the rest of the current line.
    pub fn push_string(&mut self, text: Text<'static>) {
        let line = std::mem::replace(&mut self.line, Line::Owned(Rc::new(text), false));
        self.saved.push((line, self.idx));
        self.aliases.push(None);
        self.idx = 0;
    }

    /// `push_string`, where heredoc lines are read from the pushed text itself.
    pub fn push_string_own_heredocs(&mut self, text: Text<'static>) {
        let line = std::mem::replace(&mut self.line, Line::Owned(Rc::new(text), true));
        self.saved.push((line, self.idx));
        self.aliases.push(None);
        self.idx = 0;
    }

    /// `push_string` of an alias's value (`alias_expand_token`): read first, then the rest
    /// of the line; the alias stays in use until the value is read.
    pub fn push_alias(&mut self, name: Vec<u8>, text: Text<'static>, origin: u32) {
        let bytes = text.bytes();
        let last = bytes.last().copied();
        let expand_next = matches!(last, Some(b' ' | b'\t'));
        let wants_space = last.is_some_and(|c| {
            !super::syntax::shellblank(c) && c != b'\n' && !super::syntax::shellmeta(c)
        });
        let line = std::mem::replace(&mut self.line, Line::Owned(Rc::new(text), false));
        self.saved.push((line, self.idx));
        self.aliases.push(Some(AliasPush {
            name,
            origin,
            expand_next,
            wants_space,
            space_given: false,
        }));
        self.idx = 0;
    }

    /// Whether the character just read came from an alias's value.
    pub fn reading_alias(&self) -> bool {
        self.lookahead.is_none() && matches!(self.aliases.last(), Some(Some(_)))
    }

    /// Whether the alias `name` is being expanded (its value is still being read).
    pub fn alias_in_use(&self, name: &[u8]) -> bool {
        self.aliases.iter().flatten().any(|a| a.name == name)
    }

    /// Whether an alias value that ended in a blank ran out since the last call.
    pub fn take_alias_expand_next(&mut self) -> bool {
        std::mem::take(&mut self.alias_expand_next)
    }

    /// A heredoc line from pushed text that keeps its own heredoc lines.
    fn read_pushed_line(&mut self) -> Option<HereLine> {
        let Line::Owned(t, true) = &self.line else {
            return None;
        };
        let t = Rc::clone(t);
        if self.idx >= t.len() {
            return None;
        }
        let rest = &t.bytes()[self.idx..];
        let n = memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n + 1);
        let mut b = Builder::with_capacity(n + 1);
        b.push_text(&t, self.idx, self.idx + n);
        if b.last_byte() != Some(b'\n') {
            b.push(b'\n', t.origin(t.len()));
        }
        self.idx += n;
        let text = b.finish(t.origin(self.idx));
        Some(HereLine {
            text,
            at_eof: false,
        })
    }

    /// Drops what is left of the current line and any pushed text (bash's `reset_parser`).
    pub fn discard_line(&mut self) {
        self.line = Line::Empty;
        self.idx = 0;
        self.saved.clear();
        self.aliases.clear();
        self.alias_expand_next = false;
        self.lookahead = None;
    }

    /// The next heredoc line, in place in the stream when it needs no joining (the fast
    /// path of [`Input::read_line`]).
    pub fn next_here(&mut self, remove_quoted_newline: impl Fn() -> bool) -> Option<Here> {
        if self.work.over().is_some() {
            return None;
        }
        if !matches!(self.line, Line::Owned(_, true)) {
            let bytes = self.stream.bytes();
            let start = self.next;
            if start >= bytes.len() {
                return None;
            }
            let nl = memchr::memchr(b'\n', &bytes[start..]).map(|n| start + n);
            let end = nl.unwrap_or(bytes.len());
            if !self.work.charge(LINE_WORK + bulk_work(end - start)) {
                return None;
            }
            // Whether backslash-newlines are removed matters only for a line that ends in
            // one (asked only then).
            if !(odd_trailing_backslashes(&bytes[start..end]) && remove_quoted_newline()) {
                self.next = nl.map_or(bytes.len(), |n| n + 1);
                if let Some(b) = self.capture.as_mut() {
                    b.push_text(&self.stream, start, self.next);
                }
                return Some(Here::Stream {
                    start,
                    end,
                    at_eof: nl.is_none(),
                });
            }
        }
        self.read_line(remove_quoted_newline()).map(Here::Owned)
    }

    /// `read_a_line`: the next heredoc line, read from the stream after the current line.
    /// With `remove_quoted_newline` (an unquoted delimiter), backslash-newline pairs are
    /// removed; a backslash keeps the character after it from being looked at.
    pub fn read_line(&mut self, remove_quoted_newline: bool) -> Option<HereLine> {
        let (line, joined) = self.read_line_inner(remove_quoted_newline)?;
        // A joined line is built a byte at a time: a unit per byte.
        let bytes = if joined {
            line.text.len()
        } else {
            bulk_work(line.text.len())
        };
        if !self.work.charge(LINE_WORK + bytes) {
            return None;
        }
        if let Some(b) = self.capture.as_mut() {
            b.push_text(&line.text, 0, line.text.len());
        }
        Some(line)
    }

    fn read_line_inner(&mut self, remove_quoted_newline: bool) -> Option<(HereLine, bool)> {
        if let Some(l) = self.read_pushed_line() {
            return Some((l, false));
        }
        let bytes = self.stream.bytes();
        let start = self.next;
        if start >= bytes.len() {
            return None;
        }
        let rest = &bytes[start..];
        let nl = memchr::memchr(b'\n', rest).map(|n| start + n);
        let phys_end = nl.unwrap_or(bytes.len());
        let has_backslash = memchr::memchr(b'\\', &bytes[start..phys_end]).is_some();
        if !remove_quoted_newline || !has_backslash {
            // One physical line, as it is.
            let mut b = Builder::with_capacity(phys_end - start + 1);
            b.push_text(&self.stream, start, phys_end);
            let (end, at_eof) = match nl {
                Some(n) => {
                    b.push(b'\n', self.stream.origin(n));
                    (n + 1, false)
                }
                None => {
                    b.push(b'\n', self.stream.origin(bytes.len()));
                    (bytes.len(), true)
                }
            };
            self.next = end;
            return Some((
                HereLine {
                    text: b.finish(self.stream.origin(end)),
                    at_eof,
                },
                false,
            ));
        }
        // Joined lines: walk byte by byte as read_a_line does.
        let mut b = Builder::with_capacity(phys_end - start + 1);
        let mut i = start;
        let mut pass_next = false;
        let at_eof;
        loop {
            let Some(&c) = bytes.get(i) else {
                // End of the stream: bash supplies the newline.
                b.push(b'\n', self.stream.origin(bytes.len()));
                at_eof = true;
                break;
            };
            let origin = self.stream.origin(i);
            i += 1;
            if c == 0 {
                continue;
            }
            if pass_next {
                b.push(c, origin);
                pass_next = false;
            } else if c == b'\\' {
                if bytes.get(i) == Some(&b'\n') {
                    i += 1;
                    continue;
                }
                pass_next = true;
                b.push(c, origin);
            } else {
                b.push(c, origin);
            }
            if c == b'\n' {
                at_eof = false;
                break;
            }
        }
        self.next = i;
        Some((
            HereLine {
                text: b.finish(self.stream.origin(i)),
                at_eof,
            },
            true,
        ))
    }

    /// The stream offset just past the last character read from the stream.
    pub fn offset_after_last(&self) -> usize {
        self.last_stream.map_or(self.next, |o| o + 1)
    }
}

/// The work of a heredoc line, besides its bytes.
pub const LINE_WORK: usize = 2;

/// The work of `n` bytes read in bulk (a run or a line found with `memchr`).
pub fn bulk_work(n: usize) -> usize {
    n.div_ceil(super::BYTES_PER_WORK)
}

fn odd_trailing_backslashes(line: &[u8]) -> bool {
    line.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hook's CPU time counts from its start, not from the thread's: a process that
    /// `exec`s the hook (as `cargo run` does) keeps the CPU time it used before, which
    /// must not count against the hook's limit.
    #[test]
    fn a_cpu_deadline_counts_from_the_start_it_is_given() {
        let burn = |d: Duration| {
            let from = thread_cpu().unwrap_or_default();
            let mut x = 0u64;
            while thread_cpu().unwrap_or_default() < from + d {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        };
        std::thread::spawn(move || {
            burn(Duration::from_millis(30));
            let start = thread_cpu().expect("a thread CPU clock");
            let d = Deadline::since(Duration::from_secs(3600), start, Duration::from_millis(20));
            assert!(!d.passed(), "30 ms used before the start count against it");
            burn(Duration::from_millis(25));
            assert!(d.passed(), "25 ms after the start, a 20 ms budget is spent");
        })
        .join()
        .expect("the thread ends");
    }

    fn read_all(src: &str, rqn: bool) -> String {
        let t = Rc::new(Text::command(src.as_bytes()));
        let mut input = Input::new(t, Work::default());
        let mut out = Vec::new();
        while let Some(c) = input.getc(rqn) {
            out.push(c);
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn getc_removes_backslash_newline_and_adds_the_final_newline() {
        assert_eq!(read_all("a\\\nb", true), "ab\n");
        assert_eq!(read_all("a\\\nb", false), "a\\\nb\n");
        assert_eq!(read_all("a\\", true), "a\\\\");
    }

    #[test]
    fn heredoc_lines_come_from_after_the_current_line() {
        let t = Rc::new(Text::command(b"x\nbody\\\nmore\nEOF\nrest"));
        let mut input = Input::new(t, Work::default());
        assert_eq!(input.getc(true), Some(b'x'));
        assert_eq!(input.getc(true), Some(b'\n'));
        let l = input.read_line(true).map(|l| l.text.bytes().to_vec());
        assert_eq!(l.as_deref(), Some(&b"bodymore\n"[..]));
        let l = input.read_line(false).map(|l| l.text.bytes().to_vec());
        assert_eq!(l.as_deref(), Some(&b"EOF\n"[..]));
        assert_eq!(input.getc(true), Some(b'r'));
    }

    #[test]
    fn escaped_backslash_before_newline_joins_nothing() {
        let t = Rc::new(Text::command(b"\na\\\\\nb\n"));
        let mut input = Input::new(t, Work::default());
        input.getc(true);
        let l = input.read_line(true).map(|l| l.text.bytes().to_vec());
        assert_eq!(l.as_deref(), Some(&b"a\\\\\n"[..]));
    }
}
