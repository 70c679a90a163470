//! Text a command runs again and spells literally: the words of `eval`, the action of
//! `trap` and the text of zsh's `emulate … -c`, once quotes are removed (`eval 'cat <<E … E'`, `eval $'cat <<E\n…'`). The shell
//! reads that text as a program when it runs it, so the reader reads it too, as the same
//! shell, with the aliases the command defined: a heredoc in it is a heredoc like any
//! other. Text the command composes at run time is explicit evaluation and is not read.
//!
//! Every offset of such a reading is the offset of the command that runs it.

use super::text::Text;
use super::tree::{Event, SimpleCommand, Word};
use super::word;
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
    let mut texts: Vec<(u32, Vec<u8>)> = Vec::new();
    // (zsh's GLOB_SUBST may be on where the command may turn it on: a word that names it,
    // `emulate`, the `options` table, or an option named at run time.)
    // (Asked only of a name that needs it, so that readings alike stay shared.)
    let mut glob_subst_known: Option<bool> = None;
    let events = &out.events;
    let mut glob_subst =
        || *glob_subst_known.get_or_insert_with(|| dialect.zsh() && may_turn_glob_subst_on(events));
    for e in &out.events {
        let Event::Simple(c) = e else { continue };
        if !may_run_again(c, &mut glob_subst) {
            continue;
        }
        // (Its words are read again below, each a few times: charged by their length. A
        // meter that runs out denies, in the rules that charge it after.)
        let bytes: usize = c.words.iter().map(|w| w.text.len()).sum();
        if !out
            .work
            .charge(4 * (bytes / super::BYTES_PER_WORK + c.words.len()))
        {
            return;
        }
        // Text the guard cannot know exactly: spelled with escapes the shells decode
        // differently, or, where it may spell a heredoc operator, partly computed (a glob
        // or braces in a name or a word, a tilde, an expansion: round 63).
        // (zsh is asked only where it matters, so that readings alike stay shared.)
        let unfollowed = if spelled_apart(c, || dialect.zsh()) {
            Some(ESCAPES_DIFFER)
        } else {
            match literal_text(c, || dialect.zsh()) {
                Again::Text(t) => {
                    texts.push((c.at, t));
                    None
                }
                Again::Each(ts) => {
                    texts.extend(ts.into_iter().map(|t| (c.at, t)));
                    None
                }
                Again::No => None,
                // (By the words' literal parts, in an expansion's word too, `${u:-…}`:
                // what a substitution prints is computed text, explicit, whatever its
                // program holds.)
                Again::EachOrUnknown(ts) => {
                    texts.extend(ts.into_iter().map(|t| (c.at, t)));
                    partly_computed(c)
                }
                Again::Unknown => partly_computed(c),
            }
        };
        if let Some(what) = unfollowed {
            out.escapes_differ.get_or_insert((what, c.at));
        }
    }
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
    super::sort_exec(&mut out.exec);
    read_nested(&mut out, dialect, depth);
    out
}

/// Why `eval` or `trap` text partly computed that may spell a heredoc operator is not
/// followed.
const PARTLY_COMPUTED: &str = "eval or trap text partly computed at run time (an expansion, a glob, braces or a tilde in a word, or in the command's name) that may spell a heredoc operator, so the guard cannot tell where a heredoc's body is; write the text literally, or run it from a file";

/// Why `eval` or `trap` text spelled with such escapes is not followed.
const ESCAPES_DIFFER: &str = "eval or trap text spelled with a $'…' escape the shells decode differently (\\d, \\$, \\c, \\x{…}, a NUL inside, an ASCII \\u) or, in zsh, a $\"…\" string, so the guard cannot tell which text runs; write the characters themselves";

/// [`PARTLY_COMPUTED`] where a word's literal parts (in an expansion's word too,
/// `${u:-…}`) may spell a heredoc operator: what a substitution prints is computed text,
/// explicit, whatever its program holds.
fn partly_computed(c: &SimpleCommand) -> Option<&'static str> {
    c.words
        .iter()
        .any(|w| {
            let mut lit = Vec::new();
            literal_parts(&word::read(&w.text, &()), &mut lit);
            crate::check::may_spell_lt(&lit)
        })
        .then_some(PARTLY_COMPUTED)
}

/// The first word that is no assignment: the command's name.
fn name_word(c: &SimpleCommand) -> Option<usize> {
    c.words
        .iter()
        .position(|w| super::syntax::assignment(w.text.bytes(), false).is_none())
}

/// Whether a command among `events` may turn zsh's GLOB_SUBST on: a word that names it
/// (case and `_` aside: `setopt glob_subst`, `options[globsubst]=on`), `emulate` (`sh` and
/// `ksh` turn it on), the `options` table, or `setopt`, `unsetopt` or `set` (as any word,
/// or inside one) with a word computed at run time, a pattern or `-m`.
fn may_turn_glob_subst_on(events: &[Event]) -> bool {
    events.iter().any(|e| {
        let Event::Simple(c) = e else { return false };
        // (Quotes, backslashes and braces dropped: `\setopt`, `glob{,}subst`.)
        let norm = super::syntax::option_spelling;
        // (Behind any precommand or in literal `eval` text, `builtin setopt glob${e}subst`,
        // `eval "setopt glob\${e}subst"`; `-m` takes patterns, `setopt -m 'glob?ubst'`:
        // round 101.)
        let computed = c.words.iter().any(|w| {
            let t = norm(w.text.bytes());
            t == b"set"
                || crate::search::contains(&t, b"setopt")
                || crate::search::contains(&t, b"unsetopt")
        }) && c.words.iter().any(|w| {
            let t = w.text.bytes();
            t.iter().any(|c| b"$`?*[<(#^~".contains(c))
                || (matches!(t.first(), Some(b'-' | b'+')) && t.contains(&b'm'))
        });
        computed
            || c.words.iter().any(|w| {
                let raw = w.text.bytes();
                let t = norm(raw);
                crate::search::contains(raw, b"$'")
                    || crate::search::contains(&t, b"globsubst")
                    || crate::search::contains(&t, b"emulate")
                    || crate::search::contains(&t, b"options")
            })
    })
}

/// The names of the commands that run text again, and of those that may stand before them.
const RUN_AGAIN: [&[u8]; 14] = [
    b"jobs",
    b"eval",
    b"trap",
    b"compgen",
    b"mapfile",
    b"readarray",
    b"fc",
    b"builtin",
    b"command",
    b"noglob",
    b"nocorrect",
    b"exec",
    b"-",
    b"emulate",
];

/// Whether a command may be `eval` or `trap` (or one of the words before them): its name
/// may spell one, or is a glob, braces or a tilde (`ev?l`, `{eval,}`). (A name an
/// expansion gives, `$cmd`, is a value run as a command name: explicit.) A name that
/// starts with text that starts none of them (`test_expect_${outcome}`) is none of them;
/// where it may give no word at all (an expansion, a glob under `nullglob`), the next
/// word is the name.
fn may_run_again(c: &SimpleCommand, glob_subst: &mut dyn FnMut() -> bool) -> bool {
    let Some(first) = name_word(c) else {
        return false;
    };
    for w in c.words.iter().skip(first) {
        match name_runs_again(w, glob_subst) {
            Name::May => return true,
            Name::Not => return false,
            Name::NotOrGone => {}
        }
    }
    false
}

/// What a command's name word may be, for [`may_run_again`].
enum Name {
    /// One of [`RUN_AGAIN`].
    May,
    /// None of them.
    Not,
    /// None of them, or no word (the next word is the name).
    NotOrGone,
}

fn name_runs_again(w: &Word, glob_subst: &mut dyn FnMut() -> bool) -> Name {
    let raw = w.text.bytes();
    // (A backquote is a substitution as `$(` is: `` `true` eval … ``, round 100.)
    let spelled = super::syntax::may_be_one_of(raw, &RUN_AGAIN) || raw.contains(&b'`');
    // (Most names are plain bytes: nothing to read.)
    if !spelled
        && raw
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"_./:-+=,@%".contains(c))
    {
        return Name::Not;
    }
    let info = word::read(&w.text, &());
    // (zsh globs `${~v}`'s value, and any unquoted expansion's under GLOB_SUBST, whose
    // qualifiers may replace the whole name: `.${~v}` with `v='(e:REPLY=eval:)'`.)
    let globbed = info.pieces.iter().any(|p| match p {
        word::Piece::Param(p) => p.zsh_glob,
        _ => false,
    });
    if info.many || info.tilde || info.brace || info.braced || info.unread || globbed {
        return Name::May;
    }
    if !spelled {
        return Name::Not;
    }
    match info.value() {
        Some(v) if RUN_AGAIN.contains(&v.as_slice()) => Name::May,
        Some(_) => Name::Not,
        // (Its literal start, quotes removed: what every word it gives starts with.)
        None => {
            let start = match info.pieces.first() {
                Some(word::Piece::Lit(l)) => l.as_slice(),
                _ => b"",
            };
            if start.is_empty()
                || RUN_AGAIN.iter().any(|n| n.starts_with(start))
                || (info.split && glob_subst())
            {
                Name::May
            } else {
                Name::NotOrGone
            }
        }
    }
}

/// Whether a word of the command holds a `$'…'` whose escapes the shells decode
/// differently ([`word::ansi_c_differs`]), or, in zsh, a `$"…"`. (Read without its quotes,
/// so a `$"` inside a quoted string counts too; but not where the `$` is escaped, `\$"`,
/// or is the second of `$$`, the shell's process ID: `trap "rm -f /tmp/x.$$" EXIT`. In a
/// substitution's text bash 3.2 and 4.4 read `$$'…'` as a `$` and a string they rewrite:
/// that text is not followed, [`super::lexer::Reader::ansi_c_after_dollar`].)
fn spelled_apart(c: &SimpleCommand, zsh: impl Fn() -> bool) -> bool {
    c.words.iter().any(|w| {
        let t = w.text.bytes();
        let mut at = 0;
        while let Some(&b) = t.get(at) {
            match (b, t.get(at + 1)) {
                (b'\\', _) | (b'$', Some(b'$')) => at += 2,
                (b'$', Some(b'"')) if zsh() => return true,
                (b'$', Some(b'\'')) => {
                    // (To the first `'` no `\` escapes.)
                    let from = at + 2;
                    let mut k = from;
                    while k < t.len() && t[k] != b'\'' {
                        k += if t[k] == b'\\' { 2 } else { 1 };
                    }
                    if t.get(from..k.min(t.len()))
                        .is_some_and(word::ansi_c_differs)
                    {
                        return true;
                    }
                    at += 1;
                }
                _ => at += 1,
            }
        }
        false
    })
}

/// The literal pieces of a word, and of the words inside its expansions (a default, an
/// alternative, a replacement), in order.
fn literal_parts(info: &word::WordInfo, out: &mut Vec<u8>) {
    for p in &info.pieces {
        match p {
            word::Piece::Lit(l) => out.extend_from_slice(l),
            word::Piece::Param(p) => {
                if let Some(arg) = &p.arg {
                    literal_parts(arg, out);
                }
            }
            word::Piece::Subst(_) | word::Piece::Arith(_) => {}
        }
    }
}

/// The text option `want` of a builtin gives (`-C TEXT`, `-CTEXT`, `-aC TEXT`) where it is
/// more than a command's name, reading
/// its options as `internal_getopt` does: clusters of letters, each of `valued` taking the
/// rest of its word or the next word, to `--` or a word that is no option. (A word with no
/// known value among them may be the option: unknown.)
fn option_text(mut words: impl Iterator<Item = Option<Vec<u8>>>, valued: &[u8], want: u8) -> Again {
    while let Some(w) = words.next() {
        let Some(w) = w else {
            return Again::Unknown;
        };
        if w.as_slice() == b"--" || w.len() < 2 || w[0] != b'-' {
            return Again::No;
        }
        for (i, &c) in w.iter().enumerate().skip(1) {
            if !valued.contains(&c) {
                continue;
            }
            // (Another option's value may be computed at run time: `compgen -W "$w"`.)
            let arg = match w.get(i + 1..).filter(|r| !r.is_empty()) {
                Some(rest) => rest.to_vec(),
                None => match words.next() {
                    Some(Some(a)) => a,
                    Some(None) if c == want => return Again::Unknown,
                    Some(None) => break,
                    None => return Again::No,
                },
            };
            // (A bare command name is the callback the command names, given words of
            // its own: explicit. Text that is more than a name is read as a program.)
            if c == want {
                let bare = arg
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || b"_./:-+,@%".contains(c));
                return if bare { Again::No } else { Again::Text(arg) };
            }
            break;
        }
    }
    Again::No
}

/// What a simple command that may be `eval` or `trap` runs again.
enum Again {
    /// Its literal text.
    Text(Vec<u8>),
    /// Texts one of which it runs (zsh's `emulate … -c`): each read as a program.
    Each(Vec<Vec<u8>>),
    /// The same, with words of no known value among them, which may be `-c` or an option's
    /// name (`emulate zsh -o $o -c '…'`): the known words each read as a program, the
    /// others as [`Again::Unknown`] (round 101).
    EachOrUnknown(Vec<Vec<u8>>),
    /// Nothing: it is neither, or it lists, resets or only looks a name up.
    No,
    /// Text the guard does not know: a word with no known value (an expansion, a glob,
    /// braces, a tilde) where it names the command or gives its text.
    Unknown,
}

/// The text a simple command runs again when it is `eval` or `trap` with literal words
/// (zsh's `trap` takes an action that starts with `-`).
fn literal_text(c: &SimpleCommand, zsh: impl Fn() -> bool) -> Again {
    let Some(first) = name_word(c) else {
        return Again::No;
    };
    let mut words = c
        .words
        .iter()
        .skip(first)
        .map(|w| word::read(&w.text, &()).value());
    // (A word with no known value may be anything: unknown. No word: nothing runs.)
    macro_rules! next {
        () => {
            match words.next() {
                Some(Some(v)) => v,
                Some(None) => return Again::Unknown,
                None => return Again::No,
            }
        };
    }
    let mut name = next!();
    loop {
        match name.as_slice() {
            b"noglob" | b"nocorrect" | b"-" => name = next!(),
            // (zsh's `exec` runs a builtin, then exits; `-a NAME`, `-c`, `-l`.)
            b"exec" => {
                name = next!();
                while name.len() > 1 && name[0] == b'-' {
                    if name.as_slice() == b"--" {
                        name = next!();
                        break;
                    }
                    if super::syntax::zsh_exec_takes_next(&name) {
                        let _ = next!();
                    }
                    name = next!();
                }
            }
            b"builtin" => {
                name = next!();
                if name.as_slice() == b"--" {
                    name = next!();
                }
            }
            // bash's `jobs -x CMD` runs CMD in the shell (options in clusters of `lpnxrs`,
            // then `--`); without an `x` it only lists.
            b"jobs" => {
                let mut x = false;
                loop {
                    name = next!();
                    match name.as_slice() {
                        b"--" => {
                            name = next!();
                            break;
                        }
                        [b'-', o @ ..]
                            if !o.is_empty() && o.iter().all(|c| b"lpnxrs".contains(c)) =>
                        {
                            x |= o.contains(&b'x');
                        }
                        _ => break,
                    }
                }
                if !x {
                    return Again::No;
                }
            }
            b"command" => {
                // Options as bash's `internal_getopt` reads them: clusters of `p`, `v`,
                // `V`, then `--`; `-v` or `-V` only look the name up.
                name = next!();
                while name.len() > 1 && name[0] == b'-' {
                    if name.as_slice() == b"--" {
                        name = next!();
                        break;
                    }
                    if name[1..].iter().any(|c| matches!(c, b'v' | b'V')) {
                        return Again::No;
                    }
                    if !name[1..].iter().all(|&c| c == b'p') {
                        return Again::No;
                    }
                    name = next!();
                }
            }
            _ => break,
        }
    }
    match name.as_slice() {
        b"trap" => {
            // Only the action is read: the signals may be computed (`trap 'code' $sig`).
            let mut action = next!();
            if action.as_slice() == b"--" {
                action = next!();
            } else if action.starts_with(b"-") && action.len() > 1 && !zsh() {
                return Again::No;
            }
            match words.next() {
                Some(_) if action.as_slice() != b"-" => Again::Text(action),
                _ => Again::No,
            }
        }
        // zsh's `emulate MODE -c TEXT`: `-c` only sets a flag, and the text is the first
        // word left where its options end, past `-x`, `+x`, `-o NAME`, a lone `-` (round
        // 97's second helper). Where an option word holds a `c`, each word is read as a
        // text of its own (a mode or an option's name reads as a harmless command); a
        // word with no known value may be `-c` or the text: unknown.
        b"emulate" if zsh() => {
            let mut all: Vec<Vec<u8>> = Vec::new();
            let mut unknown = false;
            for w in words {
                match w {
                    Some(v) => all.push(v),
                    None => unknown = true,
                }
            }
            let flags_c = all
                .iter()
                .any(|v| v.len() > 1 && matches!(v[0], b'-' | b'+') && v[1..].contains(&b'c'));
            match (flags_c, unknown) {
                (_, true) => Again::EachOrUnknown(all),
                (true, false) => Again::Each(all),
                (false, false) => Again::No,
            }
        }
        // The text a callback or an editor option names, which the shell runs as a
        // command (with words of its own after it): `compgen -C`, `mapfile -C`, `fc -e`
        // (round 100). Options as `internal_getopt` reads them.
        b"compgen" => option_text(words, b"oAGWPSXFCV", b'C'),
        b"mapfile" | b"readarray" => option_text(words, b"dunOCcs", b'C'),
        b"fc" => option_text(words, b"e", b'e'),
        b"eval" => {
            let mut args: Vec<Vec<u8>> = Vec::new();
            for w in words {
                match w {
                    Some(v) => args.push(v),
                    None => return Again::Unknown,
                }
            }
            if args.first().is_some_and(|a| a.as_slice() == b"--") {
                args.remove(0);
            }
            if args.is_empty() {
                Again::No
            } else {
                Again::Text(args.join(&b' '))
            }
        }
        _ => Again::No,
    }
}
