//! The texts the reader reads: the command itself, or a text bash derives from it (a
//! heredoc line with its backslash-newlines joined, a backquoted command after bash's
//! backslash removal, a string bash pushes back into its input). Every byte keeps the
//! offset in the command it came from, so every finding points at the source.

use super::small::{Bytes, Runs};

/// A text's bytes: borrowed from the command, or its own (inline while short).
#[derive(Clone, Debug)]
enum Store<'s> {
    Borrowed(&'s [u8]),
    Own(Bytes),
}

impl std::ops::Deref for Store<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Store::Borrowed(b) => b,
            Store::Own(b) => b,
        }
    }
}

/// A text and, for each byte, the command offset it came from.
#[derive(Clone, Debug)]
pub struct Text<'s> {
    bytes: Store<'s>,
    /// Where each run of consecutive bytes starts: (offset here, offset in the command).
    /// Within a run, offsets advance together. Empty means the text is the command.
    runs: Runs,
    /// The command offset just past the text (for a byte bash adds at the end).
    end: u32,
    /// Every byte came from this one command offset (an alias's value, text `eval` runs).
    pin: Option<u32>,
    /// The last line end looked for: (searched from, the `\n` found or the length). A
    /// line read again from a later start within it costs nothing to find.
    line_end_seen: std::cell::Cell<(u32, u32)>,
    /// Its bytes are the checked command's own ([`Text::checked_command`], or a part of it
    /// as [`Text::view`] and [`Text::slice`] cut it): one run, so its offsets say which
    /// bytes it holds.
    of_command: bool,
}

/// The same bytes from the same command offsets ([`Text::same`]).
impl PartialEq for Text<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.same(other) && self.of_command == other.of_command
    }
}

impl<'s> Text<'s> {
    /// The command itself (or any text read as if it were one: its offsets are its own).
    pub fn command(bytes: &'s [u8]) -> Text<'s> {
        Text {
            bytes: Store::Borrowed(bytes),
            runs: Runs::None,
            end: bytes.len() as u32,
            pin: None,
            line_end_seen: std::cell::Cell::new((u32::MAX, 0)),
            of_command: false,
        }
    }

    /// The command being checked: [`Text::command`], and every part cut from it knows that
    /// its offsets say its bytes ([`Text::command_span`]).
    pub fn checked_command(bytes: &'s [u8]) -> Text<'s> {
        Text {
            of_command: true,
            ..Text::command(bytes)
        }
    }

    /// For a part of the checked command ([`Text::checked_command`]): the command offsets
    /// it spans, which say its bytes.
    pub fn command_span(&self) -> Option<(u32, u32)> {
        let start = self.origin(0);
        (self.of_command && self.pin.is_none() && self.runs.len() <= 1)
            .then(|| (start, start.saturating_add(self.bytes.len() as u32)))
    }

    /// A text that is not in the command (an alias's value, a string `eval` runs), every
    /// byte of which stands for command offset `origin`.
    pub fn pinned(bytes: Vec<u8>, origin: u32) -> Text<'static> {
        Text {
            bytes: Store::Own(Bytes::from_vec(bytes)),
            runs: Runs::None,
            end: origin,
            pin: Some(origin),
            line_end_seen: std::cell::Cell::new((u32::MAX, 0)),
            of_command: false,
        }
    }

    /// Whether every byte stands for one command offset ([`Text::pinned`]): offsets do
    /// not tell its places apart.
    pub fn is_pinned(&self) -> bool {
        self.pin.is_some()
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The same bytes from the same command offsets.
    pub fn same(&self, other: &Text<'_>) -> bool {
        self.pin == other.pin
            && self.end == other.end
            && self.runs == other.runs
            && *self.bytes == *other.bytes
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The index of the first `\n` at or after `start`, or the length when there is none.
    /// Asked again from a later start on the same line, it answers without a search.
    pub fn line_end(&self, start: usize) -> usize {
        let (from, end) = self.line_end_seen.get();
        let (from, end) = (from as usize, end as usize);
        if from <= start && start <= end {
            return end;
        }
        let end = memchr::memchr(b'\n', self.bytes.get(start..).unwrap_or(&[]))
            .map_or(self.bytes.len(), |n| start + n);
        // (Kept in 32 bits, as the text's offsets are: a text past them is not kept.)
        if let (Ok(s), Ok(e)) = (u32::try_from(start), u32::try_from(end)) {
            self.line_end_seen.set((s, e));
        }
        end
    }

    pub fn get(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// The command offset of byte `i`; past the end, the end of the source.
    pub fn origin(&self, i: usize) -> u32 {
        if let Some(pin) = self.pin {
            return pin;
        }
        if i >= self.bytes.len() {
            return self.end;
        }
        if self.runs.is_empty() {
            return i as u32;
        }
        let i = i as u32;
        let k = self.runs.partition_point(|&(at, _)| at <= i);
        match k.checked_sub(1).and_then(|k| self.runs.get(k)) {
            Some(&(at, src)) => src + (i - at),
            None => self.end,
        }
    }

    /// [`Text::origin`] of every byte in turn, a run at a time.
    pub fn origins(&self) -> impl Iterator<Item = u32> + '_ {
        let mut k = 0usize;
        (0..self.bytes.len()).map(move |i| {
            if let Some(pin) = self.pin {
                return pin;
            }
            if self.runs.is_empty() {
                return i as u32;
            }
            let i = i as u32;
            while self.runs.get(k).is_some_and(|&(at, _)| at <= i) {
                k += 1;
            }
            match k.checked_sub(1).and_then(|k| self.runs.get(k)) {
                Some(&(at, src)) => src + (i - at),
                None => self.end,
            }
        })
    }

    /// The first index in `from..to` whose [`Text::origin`] is at least `target` (`to`
    /// when none): what asking the origin of every index in turn finds, a run of the text
    /// at a time (within a run, origins advance with the index).
    pub fn first_origin_at_least(&self, from: usize, to: usize, target: u32) -> usize {
        if from >= to {
            return from;
        }
        if let Some(pin) = self.pin {
            return if pin >= target { from } else { to };
        }
        let len = self.bytes.len();
        // The stretches of indexes with their origins, in order: (start, end, origin at
        // start, advancing?). Before the first run and past the bytes the origin is `end`.
        // Walked lazily from the run holding `from`: the answer is usually in it, so a
        // caller asking once per substitution of a word stays linear.
        let first_run = self.runs.first().map_or(len, |&(at, _)| at as usize);
        let k = self
            .runs
            .partition_point(|&(at, _)| at as usize <= from)
            .saturating_sub(1);
        let runs = self.runs.iter().enumerate().skip(k).map(|(n, &(at, src))| {
            let end = self.runs.get(n + 1).map_or(len, |&(next, _)| next as usize);
            (at as usize, end.min(len), src, true)
        });
        // With no runs, the text is the command: each index is its own origin.
        let head = if self.runs.is_empty() {
            (0, len, 0, true)
        } else {
            (0, first_run.min(len), self.end, false)
        };
        let stretches = std::iter::once(head)
            .chain(runs.take_while(|&(start, ..)| start < to))
            .chain(std::iter::once((len, usize::MAX, self.end, false)));
        for (start, end, origin, advancing) in stretches {
            let (lo, hi) = (start.max(from), end.min(to));
            if lo >= hi {
                continue;
            }
            let at_lo = if advancing {
                origin.saturating_add(u32::try_from(lo - start).unwrap_or(u32::MAX))
            } else {
                origin
            };
            let first = if at_lo >= target {
                lo
            } else if advancing {
                lo.saturating_add((target - at_lo) as usize)
            } else {
                continue;
            };
            if first < hi {
                return first;
            }
        }
        to
    }

    /// An owned copy of bytes `start..end` with their origins.
    pub fn slice(&self, start: usize, end: usize) -> Text<'static> {
        self.view(start, end).into_owned()
    }

    /// Bytes `start..end` with their origins, borrowed from this text (no copy).
    pub fn view(&self, start: usize, end: usize) -> Text<'_> {
        let end = end.min(self.bytes.len());
        let start = start.min(end);
        let bytes = &self.bytes[start..end];
        let (s, e) = (start as u32, end as u32);
        let runs = if self.runs.is_empty() {
            Runs::One((0, s))
        } else {
            // The run holding `start`, then every run that starts before `end`.
            let first = self
                .runs
                .partition_point(|&(at, _)| at <= s)
                .saturating_sub(1);
            let mut runs = Runs::None;
            for &(at, src) in self.runs.get(first..).unwrap_or(&[]) {
                if at >= e {
                    break;
                }
                if at <= s {
                    runs.push((0, src + (s - at)));
                } else {
                    runs.push((at - s, src));
                }
            }
            runs
        };
        Text {
            bytes: Store::Borrowed(bytes),
            runs,
            end: self.origin(end),
            pin: self.pin,
            line_end_seen: std::cell::Cell::new((u32::MAX, 0)),
            of_command: self.of_command,
        }
    }

    /// This text with its bytes owned (copied only when they are borrowed).
    pub fn into_owned(self) -> Text<'static> {
        Text {
            bytes: Store::Own(match self.bytes {
                Store::Borrowed(b) => Bytes::from_slice(b),
                Store::Own(b) => b,
            }),
            runs: self.runs,
            end: self.end,
            pin: self.pin,
            line_end_seen: self.line_end_seen,
            of_command: self.of_command,
        }
    }

    /// True when bytes `start..end` stand in the command as they are here (one run).
    pub fn contiguous(&self, start: usize, end: usize) -> bool {
        if self.pin.is_some() {
            return end <= start + 1;
        }
        if self.runs.is_empty() || end <= start + 1 {
            return true;
        }
        let (s, e) = (start as u32, end as u32);
        let k = self.runs.partition_point(|&(at, _)| at <= s);
        // No run may start inside (start, end).
        self.runs.get(k).is_none_or(|&(at, _)| at >= e)
    }
}

/// Builds a derived text byte by byte.
#[derive(Default)]
pub struct Builder {
    bytes: Bytes,
    runs: Runs,
    last: Option<u32>,
}

impl Builder {
    pub fn with_capacity(n: usize) -> Builder {
        Builder {
            bytes: Bytes::with_capacity(n),
            runs: Runs::None,
            last: None,
        }
    }

    /// Appends one byte that came from command offset `origin`.
    pub fn push(&mut self, byte: u8, origin: u32) {
        if self.last.map(|l| l + 1) != Some(origin) {
            self.runs.push((self.bytes.len() as u32, origin));
        }
        self.last = Some(origin);
        self.bytes.push(byte);
    }

    /// Appends bytes `start..end` of `text`, run by run.
    pub fn push_text(&mut self, text: &Text<'_>, start: usize, end: usize) {
        let end = end.min(text.len());
        if start >= end {
            return;
        }
        if let Some(pin) = text.pin {
            for &c in &text.bytes[start..end] {
                self.push(c, pin);
            }
            return;
        }
        let mut i = start;
        // The run after the one holding `i`, found once and then walked in order (a text
        // of many runs is copied in linear time).
        let mut k = text.runs.partition_point(|&(at, _)| at as usize <= i);
        while i < end {
            // The run holding `i` ends where the next run starts.
            let run_end = if text.runs.is_empty() {
                end
            } else {
                text.runs
                    .get(k)
                    .map_or(end, |&(at, _)| (at as usize).min(end))
            };
            let origin = if text.runs.is_empty() {
                text.origin(i)
            } else {
                match k.checked_sub(1).and_then(|h| text.runs.get(h)) {
                    Some(&(at, src)) => src + (i as u32 - at),
                    None => text.end,
                }
            };
            k += 1;
            if self.last.map(|l| l + 1) != Some(origin) {
                self.runs.push((self.bytes.len() as u32, origin));
            }
            self.bytes.extend_from_slice(&text.bytes[i..run_end]);
            self.last = Some(origin + (run_end - i - 1) as u32);
            i = run_end;
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn last_byte(&self) -> Option<u8> {
        self.bytes.last().copied()
    }

    /// Drops the last byte (bash's `retind--`).
    pub fn pop(&mut self) {
        if self.bytes.pop().is_some() {
            let len = self.bytes.len() as u32;
            while self.runs.last().is_some_and(|&(at, _)| at >= len) {
                self.runs.pop();
            }
            self.last = if self.bytes.is_empty() {
                None
            } else {
                self.runs.last().map(|&(at, src)| src + (len - 1 - at))
            };
        }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The text; `end` is the command offset just past it.
    pub fn finish(self, end: u32) -> Text<'static> {
        Text {
            bytes: Store::Own(self.bytes),
            runs: self.runs,
            end,
            pin: None,
            line_end_seen: std::cell::Cell::new((u32::MAX, 0)),
            of_command: false,
        }
    }
}

/// The command inside the buffer it was decoded in (the hook's event), shared with the
/// verdict (the ledger hashes it): never a copy. Its fields are private and
/// its range is checked when it is made ([`Source::new`]), against a buffer nothing writes
/// once shared: [`Source::bytes`] is always that range.
#[derive(Clone, Debug)]
pub struct Source {
    buf: std::sync::Arc<Vec<u8>>,
    range: std::ops::Range<usize>,
}

impl Source {
    /// The bytes at `range` of `buf`; `None` when `buf` has no such range.
    pub fn new(buf: std::sync::Arc<Vec<u8>>, range: std::ops::Range<usize>) -> Option<Source> {
        buf.get(range.clone())?;
        Some(Source { buf, range })
    }

    /// Its bytes: the range [`Source::new`] checked, in a buffer nothing writes once it is
    /// shared. Indexed, not defaulted: were the range ever not there, the check would
    /// panic (a deny), not judge an empty text.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.range.clone()]
    }
}

/// A line and column (both from 1; columns count characters) of a command offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// Line and column of many offsets of one command: each asked in time proportional to the
/// distance from the offset asked before it, so offsets asked in increasing order cost one
/// pass over the command in all.
pub struct Positions<'a> {
    command: &'a [u8],
    at: usize,
    pos: Pos,
}

impl<'a> Positions<'a> {
    pub fn new(command: &'a [u8]) -> Positions<'a> {
        Positions {
            command,
            at: 0,
            pos: Pos { line: 1, column: 1 },
        }
    }

    /// The positions of `offsets`, in their order, in one pass over the command whatever
    /// that order is.
    pub fn of_all(command: &'a [u8], offsets: impl Iterator<Item = u32>) -> Vec<Pos> {
        let mut order: Vec<(u32, usize)> = offsets.zip(0..).collect();
        order.sort_unstable();
        let mut out = vec![Pos { line: 1, column: 1 }; order.len()];
        let mut p = Positions::new(command);
        for (offset, k) in order {
            if let Some(slot) = out.get_mut(k) {
                *slot = p.of(offset);
            }
        }
        out
    }

    /// The position of `offset`: in time proportional to the distance from the offset
    /// asked before it when it is not before it (ask in order: [`Positions::of_all`]).
    pub fn of(&mut self, offset: u32) -> Pos {
        let offset = (offset as usize).min(self.command.len());
        if offset < self.at {
            self.at = 0;
            self.pos = Pos { line: 1, column: 1 };
        }
        for &b in &self.command[self.at..offset] {
            if b == b'\n' {
                self.pos.line += 1;
                self.pos.column = 1;
            } else if (b & 0xC0) != 0x80 {
                self.pos.column += 1;
            }
        }
        self.at = offset;
        self.pos
    }
}

/// Line and column of command offset `offset` in `command`.
pub fn pos(command: &[u8], offset: u32) -> Pos {
    let offset = (offset as usize).min(command.len());
    let before = &command[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    Pos { line, column }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index [`Text::first_origin_at_least`] finds is the one asking every index's
    /// origin in turn finds, for texts whose origins jump back and forth (an alias's value
    /// or a pushed-back string among command bytes), repeat, and run past the bytes.
    #[test]
    fn the_first_index_at_an_origin_is_the_one_a_byte_by_byte_scan_finds() {
        let naive = |t: &Text<'_>, from: usize, to: usize, target: u32| {
            let mut j = from;
            while j < to && t.origin(j) < target {
                j += 1;
            }
            j.max(from)
        };
        let mut seed = 12345u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut texts = vec![
            Text::command(b"echo \"$(cat)\" done"),
            Text::pinned(b"abc def".to_vec(), 7),
            Text::command(b"0123456789").slice(2, 8),
        ];
        for _ in 0..60 {
            let mut b = Builder::default();
            let mut origin = next(20) as u32;
            for _ in 0..next(14) {
                if next(3) == 0 {
                    origin = next(30) as u32;
                } else {
                    origin += 1;
                }
                b.push(b'x', origin);
            }
            let t = b.finish(next(40) as u32);
            texts.push(t.slice(next(3) as usize, 12));
            texts.push(t);
        }
        for t in &texts {
            for from in 0..=t.len() + 2 {
                for to in from..=t.len() + 3 {
                    for target in 0..45 {
                        assert_eq!(
                            t.first_origin_at_least(from, to, target),
                            naive(t, from, to, target),
                            "{:?} from {from} to {to} target {target}",
                            t.bytes()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn derived_text_maps_every_byte_to_its_origin() {
        let mut b = Builder::default();
        for (i, byte) in b"ab".iter().enumerate() {
            b.push(*byte, i as u32);
        }
        b.push(b'c', 9);
        b.push(b'd', 10);
        let t = b.finish(11);
        assert_eq!(
            (0..5).map(|i| t.origin(i)).collect::<Vec<_>>(),
            vec![0, 1, 9, 10, 11]
        );
        let s = t.slice(1, 3);
        assert_eq!(s.bytes(), b"bc");
        assert_eq!((s.origin(0), s.origin(1)), (1, 9));
    }

    #[test]
    fn slices_keep_their_origins_and_know_when_they_are_contiguous() {
        let mut b = Builder::default();
        for (i, byte) in b"abcd".iter().enumerate() {
            b.push(*byte, i as u32 * 2);
        }
        let t = b.finish(8);
        let s = t.slice(1, 3);
        assert_eq!(s.bytes(), b"bc");
        assert_eq!((s.origin(0), s.origin(1), s.origin(2)), (2, 4, 6));
        assert!(!t.contiguous(0, 2));
        let c = Text::command(b"hello");
        assert!(c.contiguous(0, 5));
        let cs = c.slice(1, 4);
        assert_eq!((cs.origin(0), cs.origin(2)), (1, 3));
    }

    #[test]
    fn popping_a_byte_keeps_the_map_whole() {
        let mut b = Builder::default();
        b.push(b'a', 0);
        b.push(b'\\', 1);
        b.pop();
        b.push(b'x', 3);
        let t = b.finish(4);
        assert_eq!((t.origin(0), t.origin(1)), (0, 3));
    }

    #[test]
    fn positions_count_lines_and_characters() {
        assert_eq!(pos(b"ab\ncd", 4), Pos { line: 2, column: 2 });
        assert_eq!(pos("é$(x)".as_bytes(), 2), Pos { line: 1, column: 2 });
    }
}
