//! Text a command runs again and spells literally: the words of `eval` and the action of
//! `trap`, once quotes are removed (`eval 'cat <<E … E'`, `eval $'cat <<E\n…'`). The shell
//! reads that text as a program when it runs it, so the reader reads it too, as the same
//! shell, with the aliases the command defined: a heredoc in it is a heredoc like any
//! other. Text the command composes at run time is explicit evaluation and is not read.
//!
//! Every offset of such a reading is the offset of the command that runs it.

use super::text::Text;
use super::tree::{Event, SimpleCommand};
use super::word::{self, WordInfo};
use super::{Context, Probe, ReadError, Reading, Stop, lexer};

/// A program read from text the command runs again.
#[derive(Clone, Debug)]
pub struct Nested {
    /// The command that runs it.
    pub at: u32,
    /// Its text, quotes removed.
    pub text: Vec<u8>,
    pub reading: Reading,
}

/// Deepest chain of `eval` text within `eval` text read.
const MAX_NESTED: usize = 8;

/// Reads the literal `eval` and `trap` texts of `out`'s commands into `out.nested`.
pub(super) fn read_nested(out: &mut Reading, dialect: &Probe, depth: usize) {
    // Text spelled with escapes the shells decode differently is not known; as `eval` or
    // `trap` text, the guard cannot tell what runs.
    if out.escapes_differ.is_none()
        && let Some(at) = out.events.iter().find_map(|e| match e {
            Event::Simple(c) if may_run_again(c) && spelled_apart(c, dialect.zsh()) => Some(c.at),
            _ => None,
        })
    {
        out.escapes_differ = Some((ESCAPES_DIFFER, at));
    }
    let texts: Vec<(u32, Vec<u8>)> = out
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Simple(c) => literal_text(c).map(|t| (c.at, t)),
            _ => None,
        })
        .collect();
    for (at, text) in texts {
        if out.work.over().is_some() {
            return;
        }
        if depth >= MAX_NESTED {
            out.error = Some(ReadError {
                cause: Stop::Nesting.cause(),
                at,
                limit: Some(Stop::Nesting),
                discard: false,
            });
            return;
        }
        if !out.work.charge(text.len() / super::BYTES_PER_WORK + 1) {
            return;
        }
        let reading = read_text(Text::pinned(text.clone(), at), dialect, out, depth + 1);
        if let Some(e) = reading.error.filter(|e| e.limit.is_some()) {
            // A limit inside the text is the command's limit.
            out.error = Some(e);
        }
        out.features.merge(reading.features);
        out.nested.push(Nested { at, text, reading });
    }
}

/// Reads `text` as a program of its own, with the aliases `parent` has defined.
fn read_text(text: Text<'static>, dialect: &Probe, parent: &Reading, depth: usize) -> Reading {
    let text = std::rc::Rc::new(text);
    let mut out = Reading {
        work: parent.work.clone(),
        aliases: parent.aliases.clone().filter(|_| dialect.aliases()),
        ..Reading::default()
    };
    let result =
        lexer::Reader::new(dialect.clone(), text, &mut out, 0, Context::TopLevel).read_program();
    if let Err(e) = result {
        out.error = Some(e);
    }
    out.exec.sort_by_key(|e| e.at);
    read_nested(&mut out, dialect, depth);
    out
}

/// Why `eval` or `trap` text spelled with such escapes is not followed.
const ESCAPES_DIFFER: &str = "eval or trap text spelled with a $'…' escape the shells decode differently (\\d, \\$, \\c, \\x{…}, a NUL inside, an ASCII \\u) or, in zsh, a $\"…\" string, so the guard cannot tell which text runs; write the characters themselves";

/// The first word that is no assignment: the command's name.
fn name_word(c: &SimpleCommand) -> Option<usize> {
    c.words
        .iter()
        .position(|w| super::syntax::assignment(w.text.bytes(), false).is_none())
}

/// Whether a command may be `eval` or `trap` (or one of the words before them).
fn may_run_again(c: &SimpleCommand) -> bool {
    name_word(c)
        .and_then(|first| c.words.get(first))
        .is_some_and(|w| {
            super::syntax::may_be_one_of(
                w.text.bytes(),
                &[
                    b"eval",
                    b"trap",
                    b"builtin",
                    b"command",
                    b"noglob",
                    b"nocorrect",
                    b"-",
                ],
            )
        })
}

/// Whether a word of the command holds a `$'…'` whose escapes the shells decode
/// differently ([`word::ansi_c_differs`]), or, in zsh, a `$"…"`.
fn spelled_apart(c: &SimpleCommand, zsh: bool) -> bool {
    c.words.iter().any(|w| {
        let t = w.text.bytes();
        memchr::memchr_iter(b'$', t).any(|at| match t.get(at + 1) {
            Some(b'"') => zsh,
            Some(b'\'') => {
                // (To the first `'` no `\` escapes.)
                let from = at + 2;
                let mut k = from;
                while k < t.len() && t[k] != b'\'' {
                    k += if t[k] == b'\\' { 2 } else { 1 };
                }
                t.get(from..k.min(t.len()))
                    .is_some_and(word::ansi_c_differs)
            }
            _ => false,
        })
    })
}

/// The text a simple command runs again when it is `eval` or `trap` with literal words.
fn literal_text(c: &SimpleCommand) -> Option<Vec<u8>> {
    let first = name_word(c)?;
    // Only a command named one of these can be `eval` or `trap`: others are not read.
    if !may_run_again(c) {
        return None;
    }
    let mut words = c
        .words
        .get(first..)?
        .iter()
        .map(|w| word::read(&w.text, &()));
    let mut name = words.next()?.literal()?;
    let mut rest: Vec<WordInfo> = Vec::new();
    while matches!(
        name.as_slice(),
        b"builtin" | b"command" | b"noglob" | b"nocorrect" | b"-"
    ) {
        let v = words.next()?.literal()?;
        name = if matches!(v.as_slice(), b"-p" | b"--") {
            words.next()?.literal()?
        } else {
            v
        };
    }
    if !matches!(name.as_slice(), b"eval" | b"trap") {
        return None;
    }
    rest.extend(words);
    if name.as_slice() == b"trap" {
        // Only the action is read: the signals may be computed (`trap 'code' $sig`).
        let mut args = rest.iter();
        let mut action = args.next()?.literal()?;
        if action.as_slice() == b"--" {
            action = args.next()?.literal()?;
        } else if action.starts_with(b"-") && action.len() > 1 {
            return None;
        }
        return (action.as_slice() != b"-" && args.next().is_some()).then_some(action);
    }
    let lits: Vec<Vec<u8>> = rest.iter().map(WordInfo::literal).collect::<Option<_>>()?;
    match name.as_slice() {
        b"eval" => {
            let args = match lits.first().map(Vec::as_slice) {
                Some(b"--") => &lits[1..],
                _ => &lits[..],
            };
            (!args.is_empty()).then(|| args.join(&b' '))
        }
        _ => None,
    }
}
