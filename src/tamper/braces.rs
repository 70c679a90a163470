//! Brace expansion as bash makes it (braceexp.c), on a word as written, before any other
//! expansion: a quoted or escaped brace or comma is no brace syntax, nor is the `{` of
//! `${`; a group is a comma list or a sequence (`{a..e}`, `{1..9..2}`, zero-padded
//! `{01..10}`), and a `{…}` that is neither stays as written while a group inside it
//! still expands (`{x{a,b}}` is `{xa}` and `{xb}`). Each word it makes keeps its bytes'
//! command offsets, and the word reader then reads it like any word (round 72).

use crate::shell::text::{Builder, Text};

/// Most words one word's expansion is followed to: past it, the caller counts the
/// command past its limits.
pub(super) const MAX_WORDS: usize = 4096;

/// One piece of a word brace expansion makes: bytes of the word as written, or bytes a
/// sequence made (standing at the group's offset).
#[derive(Clone, Debug)]
enum Seg {
    Raw(usize, usize),
    Made(Vec<u8>),
}

/// The words brace expansion makes of `text`, in order; `None` past [`MAX_WORDS`].
/// A word with no brace expansion is itself.
pub(super) fn expand(text: &Text<'_>) -> Option<Vec<Text<'static>>> {
    let raw = text.bytes();
    let words = expand_range(raw, 0, raw.len())?;
    let group_origin = text.origin(raw.iter().position(|&c| c == b'{').unwrap_or(0));
    Some(
        words
            .into_iter()
            .map(|segs| {
                let mut b = Builder::default();
                for s in segs {
                    match s {
                        Seg::Raw(start, end) => b.push_text(text, start, end),
                        Seg::Made(bytes) => {
                            for c in bytes {
                                b.push(c, group_origin);
                            }
                        }
                    }
                }
                b.finish(text.origin(raw.len()))
            })
            .collect(),
    )
}

fn expand_range(raw: &[u8], start: usize, end: usize) -> Option<Vec<Vec<Seg>>> {
    let Some((open, close, alts)) = find_group(raw, start, end)? else {
        return Some(vec![vec![Seg::Raw(start, end)]]);
    };
    let post = expand_range(raw, close + 1, end)?;
    let mut out: Vec<Vec<Seg>> = Vec::new();
    for alt in alts {
        let inner: Vec<Vec<Seg>> = match alt {
            Alt::Range(s, e) => expand_range(raw, s, e)?,
            Alt::Made(bytes) => vec![vec![Seg::Made(bytes)]],
        };
        for i in &inner {
            for p in &post {
                if out.len() >= MAX_WORDS {
                    return None;
                }
                let mut w = vec![Seg::Raw(start, open)];
                w.extend(i.iter().cloned());
                w.extend(p.iter().cloned());
                out.push(w);
            }
        }
    }
    Some(out)
}

/// An alternative of a group: a range of the word, or the text of a sequence's member.
enum Alt {
    Range(usize, usize),
    Made(Vec<u8>),
}

/// The first group in `start..end` that brace expansion expands: its `{`, its `}` and its
/// alternatives; `None` where a sequence has more than [`MAX_WORDS`] members.
fn find_group(raw: &[u8], start: usize, end: usize) -> Option<Option<Group>> {
    // One pass pairs each `{` with its `}` and says whether a comma stands at its own
    // level or a brace inside it: only a group with such a comma, or one holding no brace
    // (a sequence's, `{1..9}`), may expand (a `{` that opens no group: the text after it
    // may hold one). The first of those in order of their `{` is the group. (Each `{`
    // looked for its `}` to the end of the word before: `{{{…` was quadratic, unmetered;
    // round 82.)
    let mut open: Vec<(usize, bool, bool)> = Vec::new();
    let mut groups: Vec<(usize, usize, bool)> = Vec::new();
    for (i, c) in unquoted(raw, start, end) {
        match c {
            b'{' => {
                if let Some(top) = open.last_mut() {
                    top.2 = true;
                }
                open.push((i, false, false));
            }
            b',' => {
                if let Some(top) = open.last_mut() {
                    top.1 = true;
                }
            }
            b'}' => {
                if let Some((at, comma, inner)) = open.pop()
                    && (comma || !inner)
                {
                    groups.push((at, i, comma));
                }
            }
            _ => {}
        }
    }
    groups.sort_unstable_by_key(|&(at, _, _)| at);
    for (i, close, _) in groups {
        match alternatives(raw, i, close) {
            Members::Alts(alts) => return Some(Some((i, close, alts))),
            Members::TooMany => return None,
            Members::No => {}
        }
    }
    Some(None)
}

/// The bytes of `raw[start..end]` outside quoted parts, escapes and expansions
/// ([`skip_part`]), with their offsets: what brace expansion looks at.
fn unquoted(raw: &[u8], start: usize, end: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut i = start;
    std::iter::from_fn(move || {
        while i < end {
            if let Some(next) = skip_part(raw, i, end) {
                i = next;
                continue;
            }
            let at = i;
            i += 1;
            return raw.get(at).map(|&c| (at, c));
        }
        None
    })
}

/// A group: its `{`, its `}` and its alternatives.
type Group = (usize, usize, Vec<Alt>);

/// What a `{…}` holds: alternatives, none (no group), or more than are followed.
enum Members {
    Alts(Vec<Alt>),
    No,
    TooMany,
}

/// A group's alternatives: split at its own commas, or a sequence's members.
fn alternatives(raw: &[u8], open: usize, close: usize) -> Members {
    let mut alts = Vec::new();
    let mut from = open + 1;
    let mut depth = 0usize;
    for (i, c) in unquoted(raw, open + 1, close) {
        match c {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                alts.push(Alt::Range(from, i));
                from = i + 1;
            }
            _ => {}
        }
    }
    if !alts.is_empty() {
        alts.push(Alt::Range(from, close));
        return Members::Alts(alts);
    }
    raw.get(open + 1..close).map_or(Members::No, sequence)
}

/// `a..e`, `1..10`, `1..10..2`, `01..10`: the members, as bash makes them.
fn sequence(body: &[u8]) -> Members {
    let Ok(s) = std::str::from_utf8(body) else {
        return Members::No;
    };
    let parts: Vec<&str> = s.split("..").collect();
    let (a, b, step) = match parts.as_slice() {
        [a, b] => (*a, *b, None),
        [a, b, c] => match c.parse::<i64>() {
            Ok(c) => (*a, *b, Some(c)),
            Err(_) => return Members::No,
        },
        _ => return Members::No,
    };
    let step = step.map_or(1, i64::unsigned_abs).max(1);
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let padded = |t: &str| {
            let t = t.strip_prefix('-').unwrap_or(t);
            t.len() > 1 && t.starts_with('0')
        };
        let width = if padded(a) || padded(b) {
            a.len().max(b.len())
        } else {
            0
        };
        let count = x.abs_diff(y) / step + 1;
        if count > MAX_WORDS as u64 {
            return Members::TooMany;
        }
        let mut out = Vec::new();
        let mut v = x;
        for _ in 0..count {
            out.push(Alt::Made(format!("{v:0width$}").into_bytes()));
            v = if x <= y {
                v.saturating_add(step as i64)
            } else {
                v.saturating_sub(step as i64)
            };
        }
        return Members::Alts(out);
    }
    // (Letters only: `{1..a}` and `{!..%}` stay as written.)
    let (&[x], &[y]) = (a.as_bytes(), b.as_bytes()) else {
        return Members::No;
    };
    if !x.is_ascii_alphabetic() || !y.is_ascii_alphabetic() {
        return Members::No;
    }
    let mut out = Vec::new();
    let mut v = i64::from(x);
    let (lo, hi) = (i64::from(x), i64::from(y));
    while (lo <= hi && v <= hi) || (lo > hi && v >= hi) {
        if let Ok(c) = u8::try_from(v) {
            out.push(Alt::Made(vec![c]));
        }
        v += if lo <= hi {
            step as i64
        } else {
            -(step as i64)
        };
    }
    Members::Alts(out)
}

/// Past the quoted or nested part that starts at `raw[i]` (an escaped byte, `'…'`,
/// `"…"`, a backquoted part, `$'…'`, `${…}`, `$(…)`), at most `end`; `None` where none
/// starts there. Always past `i`.
fn skip_part(raw: &[u8], i: usize, end: usize) -> Option<usize> {
    // Past the first unescaped `close` from `from` (escapes skipped where `escapes`).
    let past = |from: usize, close: u8, escapes: bool| {
        let mut j = from;
        while j < end && raw[j] != close {
            if escapes && raw[j] == b'\\' {
                j += 1;
            }
            j += 1;
        }
        (j + 1).min(end)
    };
    Some(match raw.get(i..end)? {
        [b'\\', ..] => (i + 2).min(end),
        [b'\'', ..] => past(i + 1, b'\'', false),
        [b'"', ..] => past(i + 1, b'"', true),
        [b'`', ..] => past(i + 1, b'`', true),
        [b'$', b'\'', ..] => past(i + 2, b'\'', true),
        [b'$', open @ (b'{' | b'('), ..] => {
            let close = if *open == b'{' { b'}' } else { b')' };
            let mut depth = 0usize;
            let mut j = i + 1;
            // (Quotes and escapes inside skipped, nested braces or parentheses counted:
            // no recursion, whatever the nesting.)
            while j < end {
                match raw[j] {
                    b'\\' => {
                        j += 2;
                        continue;
                    }
                    b'\'' => {
                        j = past(j + 1, b'\'', false);
                        continue;
                    }
                    b'"' => {
                        j = past(j + 1, b'"', true);
                        continue;
                    }
                    _ => {}
                }
                if raw[j] == *open {
                    depth += 1;
                } else if raw[j] == close {
                    depth -= 1;
                    if depth == 0 {
                        return Some(j + 1);
                    }
                }
                j += 1;
            }
            end
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &str) -> Vec<String> {
        expand(&Text::command(w.as_bytes()))
            .unwrap()
            .iter()
            .map(|t| String::from_utf8_lossy(t.bytes()).into_owned())
            .collect()
    }

    /// What bash 5.2 prints for `printf '%s\n' WORD` (its words before quote removal
    /// here): lists, nesting, sequences, and braces that are no group.
    #[test]
    fn words_are_the_ones_bash_makes() {
        assert_eq!(words("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(words("{a,b}{1,2}"), ["a1", "a2", "b1", "b2"]);
        assert_eq!(words("x{a,{b,c}}"), ["xa", "xb", "xc"]);
        assert_eq!(words("f{n..n}"), ["fn"]);
        assert_eq!(words("{1..3}"), ["1", "2", "3"]);
        assert_eq!(words("{3..1}"), ["3", "2", "1"]);
        assert_eq!(words("{1..7..3}"), ["1", "4", "7"]);
        assert_eq!(words("{08..10}"), ["08", "09", "10"]);
        assert_eq!(words("{a..e..2}"), ["a", "c", "e"]);
        assert_eq!(words("{x}"), ["{x}"]);
        assert_eq!(words("{x{a,b}}"), ["{xa}", "{xb}"]);
        assert_eq!(words("{a{b,c}"), ["{ab", "{ac"]);
        assert_eq!(words("${x},{a,b}"), ["${x},a", "${x},b"]);
        assert_eq!(words("{\"{\",z}"), ["\"{\"", "z"]);
        assert_eq!(words("{\\{,z}"), ["\\{", "z"]);
        assert_eq!(words("{$'\\x7b',z}"), ["$'\\x7b'", "z"]);
        assert_eq!(words("d/{s,\"}\"}"), ["d/s", "d/\"}\""]);
        assert_eq!(words("'{a,b}'"), ["'{a,b}'"]);
        assert_eq!(words("{a,b"), ["{a,b"]);
        assert_eq!(words("{1..a}"), ["{1..a}"]);
        assert_eq!(words("${x:-{a,b}}"), ["${x:-{a,b}}"]);
        assert_eq!(words("$(echo q)-{a,b}"), ["$(echo q)-a", "$(echo q)-b"]);
        assert_eq!(words("\"$(echo {c,d})\""), ["\"$(echo {c,d})\""]);
        assert_eq!(words("$(echo ')' {c,d})"), ["$(echo ')' {c,d})"]);
    }

    #[test]
    fn too_many_words_are_none() {
        let w = format!("x{{{}}}", ",".repeat(MAX_WORDS + 1));
        assert!(expand(&Text::command(w.as_bytes())).is_none());
        assert!(expand(&Text::command(b"{1..100000}")).is_none());
    }
}
