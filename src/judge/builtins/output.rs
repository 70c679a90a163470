//! What commands print: `echo`, `printf` and zsh's `print` (and `-v`), `cat`, and the few
//! programs whose output the guard can show (numbers, the system's text, a part of their
//! input); every other program prints run-time text.

use super::*;
use crate::judge::GaveUp;
use crate::judge::evaluators::Evaluator;
use crate::judge::facts::{Expr, Needs, Src};
use crate::judge::value::{ByteSet, Val};
use crate::judge::walk::{Ctx, Walk};
use crate::shell::word::WordInfo;

/// What a program prints, where the guard can show it: a few programs print numbers or
/// the system's text (never text they read), or a part of their input; every other
/// program prints run-time text (it may read the command's own text, a file the command
/// wrote, its input). Its errors too ([`Walk::program_errors`]): those of the programs
/// that print numbers or the system's text quote their words only, unless they read
/// lines (`date -f`, `tput -S`, `git rev-list --stdin`); any other's may be any text
/// (`tee /dev/stderr`).
pub(super) fn program_output(
    w: &mut Walk<'_>,
    name: &[u8],
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    here: &Ctx,
) -> Expr {
    let base = name.rsplit(|&c| c == b'/').next().unwrap_or(name);
    let words_in_errors = match base {
        b"wc" | b"nproc" | b"seq" | b"grep" | b"git" | b"uname" | b"whoami" | b"hostname"
        | b"id" | b"logname" | b"arch" | b"getconf" | b"mktemp" | b"basename" | b"dirname"
        | b"expr" => {
            base != b"git"
                || lits
                    .iter()
                    .all(|l| l.as_deref().is_some_and(|l| !l.starts_with(b"--st")))
        }
        b"date" | b"tput" => !reads_lines(base, lits),
        _ => false,
    };
    w.program_errors = !words_in_errors;
    w.program_quotes = words_in_errors;
    let mut args_part = Expr::default();
    for a in args {
        args_part.join(w.word_expr(a));
    }
    // A word computed at run time may be an option that makes a count print file names
    // (`wc --files0-from=-`, `grep -c -r`).
    let mut options_part = Expr::default();
    for (a, l) in args.iter().zip(lits) {
        if l.is_none() {
            let inner = std::rc::Rc::new(w.word_expr(a));
            options_part.join(Expr(vec![Src::Files {
                inner,
                option: true,
            }]));
        }
    }
    args_part.join(options_part.clone());
    let args_part = || args_part.clone().part(ByteSet::of(b" \n"));
    let has = |o: &[u8]| lits.iter().any(|l| l.as_deref() == Some(o));
    // (After `--` every word is a file's name, `-x` too.)
    let end_of_options = lits
        .iter()
        .position(|l| l.as_deref() == Some(b"--"))
        .unwrap_or(lits.len());
    // (A short option's value in the next word is no file: `head -n 1`, `cut -d . -f 1`.
    // Not `tail`'s: with `_POSIX2_VERSION` before 2001 its bare `-c` takes no value,
    // round 68.)
    let valued = if base == b"tail" {
        &b""[..]
    } else {
        option_table(base).map_or(&b""[..], |(_, valued, _)| valued)
    };
    let mut files = false;
    let mut k = 0;
    while let Some(l) = lits.get(k) {
        match l.as_deref() {
            Some(l) if k < end_of_options && l.starts_with(b"-") && l != b"-" => {
                let letters = &l[1..];
                // (`head -99c`, `tail -5l`: the obsolete `-NUM…` form takes no word after
                // it, round 68.)
                if !l.starts_with(b"--")
                    && !letters.first().is_some_and(u8::is_ascii_digit)
                    && letters
                        .iter()
                        .position(|c| valued.contains(c))
                        .is_some_and(|p| p + 1 == letters.len())
                {
                    k += 1;
                }
            }
            Some(b"--") if k == end_of_options => {}
            _ => files = true,
        }
        k += 1;
    }
    // `--help`, `--version` (or a prefix GNU takes for one): the program's own text.
    if lits
        .iter()
        .take(end_of_options)
        .flatten()
        .any(|l| l.len() >= 3 && (b"--help".starts_with(l) || b"--version".starts_with(l)))
    {
        let mut e = Expr::val(Val::env());
        e.join(args_part());
        return e;
    }
    let options_plain = || plain_options(base, &lits[..end_of_options.min(lits.len())]);
    match base {
        // Counts, and the names it was given (and `total` under several, or `--total`;
        // `seq -f` prints what its format says, `%a` a hex float's letters).
        b"wc" | b"nproc" | b"seq"
            if lits.iter().all(|l| l.as_deref().is_none_or(|l| !files0(l))) =>
        {
            let mut e = Expr::val(Val::number());
            e.join(args_part());
            let operands = lits
                .iter()
                .enumerate()
                .filter(|&(k, l)| {
                    k > end_of_options || l.as_deref().is_none_or(|l| !l.starts_with(b"-"))
                })
                .count();
            if !options_plain() || (base == b"wc" && operands > 1) {
                e.join(Expr::val(Val::env()));
            }
            e
        }
        b"grep"
            if has(b"-c")
                && lits.iter().all(|l| {
                    l.as_deref().is_none_or(|l| {
                        !l.starts_with(b"-")
                            || matches!(l, b"-c" | b"-v" | b"-i" | b"-E" | b"-F" | b"-x" | b"-w")
                    })
                }) =>
        {
            let mut e = Expr::val(Val::number());
            e.join(args_part());
            e
        }
        // (`git rev-list --count` is not a count alone: trace2, which a config file the
        // command writes can turn on, prints config values and more to its output.)
        //
        // Numbers from the system, and the words: `date` with a format of numeric
        // conversions only (a zone's or a month's name comes from files `TZ`, `TZDIR`
        // and `LOCPATH` may point at, which the command may have made), `tput`'s numeric
        // capabilities, `id`'s numbers.
        b"date" if date_numeric(lits) => {
            let mut e = Expr::val(Val::number());
            e.join(args_part());
            e
        }
        // (GNU `stat` with a format of numeric conversions only: sizes, times, counts.)
        b"stat" if stat_numeric(lits) => Expr::val(Val::number()),
        // (`-T NAME` names the terminal whose entry is read: a number still.)
        b"tput" if tput_number(lits) => Expr::val(Val::number()),
        // (`id -u USER`: the user's number.)
        b"id"
            if lits.iter().any(|l| {
                l.as_deref().is_some_and(|l| {
                    l.starts_with(b"-") && l.iter().any(|c| matches!(c, b'u' | b'g' | b'G'))
                })
            }) && lits.iter().all(|l| {
                l.as_deref().is_none_or(|l| {
                    !l.starts_with(b"-") || (!l.contains(&b'n') && !l.starts_with(b"--"))
                })
            }) =>
        {
            Expr::val(Val::number())
        }
        // The system's text, not files the command may write: the kernel's and the C
        // library's (`uname` without the host's name, which `hostname NAME` sets), or a
        // path made from `TMPDIR` and the words.
        b"uname" | b"arch" | b"getconf"
            if lits.iter().all(|l| {
                l.as_deref()
                    .is_some_and(|l| !l.contains(&b'n') && !l.contains(&b'a'))
            }) =>
        {
            let mut e = Expr::val(Val::env());
            e.join(args_part());
            e
        }
        // The template (an argument, or its own `tmp.`), its run of `X` made letters and
        // digits, a suffix after it (`--suffix`, or implied), in a directory (`TMPDIR`'s,
        // `/tmp`, an argument's: `-p DIR`, `--tmpdir=DIR`): each argument whole, as it was
        // known (letters and digits in place of an `X` make no `$`, `{`, `=`, `(` nor
        // backquote, so what was known of the arguments holds: not any part of them),
        // glued.
        b"mktemp" => {
            // Each argument as the program gets it: a word that may be several (split, a
            // glob, `"$@"`) gives it contiguous parts of its text, which may end inside a
            // `${` the whole closes (round 99).
            let mut args_whole = options_part;
            for a in args {
                let e = w.word_expr(a);
                args_whole.join(if w.one_argument(a) { e } else { e.substring() });
            }
            let made = || {
                Expr::glue(vec![
                    args_whole.clone(),
                    Expr::val(Val::fixed(ByteSet::of(MKTEMP_MADE))),
                    args_whole.clone(),
                ])
            };
            let mut dir = Expr::val(Val::env());
            dir.join(Expr::var(w.var(b"TMPDIR")));
            dir.join(args_whole.clone());
            let mut e = made();
            e.join(Expr::glue(vec![dir, Expr::lit(b"/"), made()]));
            e
        }
        // A number (arithmetic, a comparison's 0 or 1, `length`, `index`, how much `:`
        // matched), or an argument or a contiguous part of one (`|`, `&`, `substr`, a
        // group `:` or `match` matched, `+ TOKEN`, a lone argument): each argument's parts,
        // as they were known (a word that may be several gives parts of its text, as
        // `mktemp`'s do). It reads no file and no input.
        b"expr" => {
            let mut e = Expr::val(Val::number());
            for a in args {
                e.join(w.word_expr(a).substring());
            }
            e
        }
        // A path made from the words (`readlink`, `realpath` and the `pwd` program print
        // a link's target, which the command may have made: not here).
        b"basename" | b"dirname" => {
            let mut e = Expr::val(Val::env());
            e.join(args_part());
            e
        }
        // Lines of its input, in part, and the bytes its words add (`cut
        // --output-delimiter`). `--files0-from` reads the files a list names: not here.
        // (Only with options that print nothing of their own: not `head -v`'s header nor
        // `sort --debug`'s marks; `uniq -c` adds counts.)
        b"head" | b"tail" | b"sort" | b"uniq" | b"cut"
            if !files
                && options_plain()
                && lits
                    .iter()
                    .all(|l| l.as_deref().is_some_and(|l| !files0(l))) =>
        {
            Expr::glue(vec![
                here.stdin.clone().part(ByteSet::of(b" \n")),
                args_part(),
                Expr::val(Val::number()),
            ])
            .part(ByteSet::EMPTY)
        }
        // `tr -d SET`, `tr -s SET`: its input, bytes taken out; `tr SET1 SET2` with plain
        // sets: its input with SET2's bytes (a range, a class or an escape: any byte).
        b"tr" if lits.iter().all(Option::is_some) => {
            let sets: Vec<&[u8]> = lits
                .iter()
                .flatten()
                .map(Vec::as_slice)
                .filter(|l| !l.starts_with(b"-"))
                .collect();
            let deletes = lits
                .iter()
                .flatten()
                .any(|l| l.starts_with(b"-") && (l.contains(&b'd') || l.contains(&b's')));
            let plain = |t: &[u8]| {
                !t.iter()
                    .any(|c| matches!(c, b'-' | b'[' | b'\\' | b':' | b'='))
            };
            match sets.as_slice() {
                [_] if deletes => here.stdin.clone().part(ByteSet::EMPTY),
                [_, set2] if plain(set2) => here.stdin.clone().part(ByteSet::of(set2)),
                _ => Expr::unknown(),
            }
        }
        _ => Expr::unknown(),
    }
}

/// A printf format of one `%s` and plain text around it (letters, digits, blanks,
/// punctuation other than `%` and `\`, and the escapes `\n`, `\t`, `\\`, `%%`): the text
/// before it and after it, decoded.
fn one_string_format(f: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut pre = Vec::new();
    let mut suf = Vec::new();
    let mut seen = false;
    let mut i = 0;
    while let Some(&c) = f.get(i) {
        let out = if seen { &mut suf } else { &mut pre };
        match (c, f.get(i + 1)) {
            (b'%', Some(b's')) if !seen => {
                seen = true;
                i += 2;
                continue;
            }
            (b'%', Some(b'%')) => out.push(b'%'),
            (b'\\', Some(b'n')) => out.push(b'\n'),
            (b'\\', Some(b't')) => out.push(b'\t'),
            (b'\\', Some(b'\\')) => out.push(b'\\'),
            (b'%' | b'\\', _) => return None,
            _ => {
                out.push(c);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    seen.then_some((pre, suf))
}

/// The argument places of a printf format, in order, each with whether it is numeric: a
/// conversion other than `%s`, `%c`, `%b` and `%q`, or a `*` width or precision. `None`
/// where a conversion is not read here (`%1$d`, a format that ends inside one).
fn numeric_slots(f: &[u8]) -> Option<Vec<bool>> {
    let mut out = Vec::new();
    let mut i = 0;
    // A width or a precision: a `*` takes an argument, as a number; digits take none.
    let amount = |i: &mut usize, out: &mut Vec<bool>| {
        if f.get(*i) == Some(&b'*') {
            out.push(true);
            *i += 1;
        }
        while f.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
    };
    while i < f.len() {
        if f[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if f.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while f.get(i).is_some_and(|c| b"-+ #0'".contains(c)) {
            i += 1;
        }
        amount(&mut i, &mut out);
        if f.get(i) == Some(&b'.') {
            i += 1;
            amount(&mut i, &mut out);
        }
        while f.get(i).is_some_and(|c| b"hlLqjzt".contains(c)) {
            i += 1;
        }
        let c = *f.get(i)?;
        if c == b'$' {
            return None;
        }
        i += 1;
        out.push(!matches!(c, b's' | b'c' | b'b' | b'q'));
    }
    Some(out)
}

/// Whether `date`'s words are fixed, read no file of dates (`-f`) and give a format of
/// numeric conversions only (`+%s`, `+%Y-%m-%dT%H:%M:%S`): its output is digits and the
/// format's own text.
fn date_numeric(lits: &[Option<Vec<u8>>]) -> bool {
    let mut format = None;
    let mut words = lits.iter();
    while let Some(l) = words.next() {
        let Some(l) = l.as_deref() else {
            return false;
        };
        if l.starts_with(b"--f")
            || (l.starts_with(b"-") && !l.starts_with(b"--") && l.contains(&b'f'))
        {
            return false;
        }
        // An option's own word, which may start with `+` (`-d +1day`, `-r +x`).
        let takes_word = matches!(l, b"--date" | b"--reference" | b"--set")
            || (l.starts_with(b"-")
                && !l.starts_with(b"--")
                && l.last().is_some_and(|c| matches!(c, b'd' | b'r' | b's')));
        if takes_word {
            words.next();
            continue;
        }
        if let Some(f) = l.strip_prefix(b"+") {
            if format.is_some() {
                return false;
            }
            format = Some(f);
        }
    }
    let Some(f) = format else {
        return false;
    };
    let mut k = 0;
    while k < f.len() {
        if f[k] == b'%' {
            // Flags and a width (`%-d`, `%02H`), then the conversion.
            k += 1;
            while k < f.len() && matches!(f[k], b'-' | b'_' | b'0' | b'^' | b'#' | b'1'..=b'9') {
                k += 1;
            }
            match f.get(k) {
                Some(
                    b's' | b'Y' | b'm' | b'd' | b'H' | b'M' | b'S' | b'N' | b'j' | b'y' | b'e'
                    | b'k' | b'l' | b'I' | b'u' | b'w' | b'C' | b'G' | b'g' | b'U' | b'V' | b'W'
                    | b'D' | b'F' | b'T' | b'R' | b'n' | b't' | b'%' | b'q',
                ) => {}
                _ => return false,
            }
        }
        k += 1;
    }
    true
}

/// Whether GNU `stat` prints numbers only: one format (`-c F`, `--format=F`, `--printf
/// F`, long options by any prefix GNU takes) of decimal conversions (`%s`, `%Y`, `%i`,
/// …, never the hex ones nor a name's), blanks and digits between them (`\n` and
/// `\t` in `--printf`'s), besides `-L` and file names. (BSD's `stat` has no `-c`.)
fn stat_numeric(lits: &[Option<Vec<u8>>]) -> bool {
    let long = |l: &[u8], of: &[u8]| !l.is_empty() && of.starts_with(l);
    let mut format: Option<(&[u8], bool)> = None;
    let mut words = lits.iter();
    while let Some(l) = words.next() {
        let Some(l) = l.as_deref() else {
            return false;
        };
        let given = if let Some(name) = l.strip_prefix(b"--") {
            let (name, value) = match name.iter().position(|&c| c == b'=') {
                Some(e) => (&name[..e], Some(&name[e + 1..])),
                None => (name, None),
            };
            if name.is_empty() {
                // (Then file names only.)
                break;
            }
            if long(name, b"dereference") && value.is_none() {
                continue;
            }
            let printf = long(name, b"printf");
            if !printf && !long(name, b"format") {
                return false;
            }
            let value = match value {
                Some(v) => v,
                None => match words.next() {
                    Some(Some(v)) => v.as_slice(),
                    _ => return false,
                },
            };
            Some((value, printf))
        } else if let Some(letters) = l.strip_prefix(b"-").filter(|r| !r.is_empty()) {
            let ls = letters.iter().take_while(|&&c| c == b'L').count();
            match letters.get(ls) {
                None => None,
                Some(b'c') if ls + 1 < letters.len() => Some((&letters[ls + 1..], false)),
                Some(b'c') => match words.next() {
                    Some(Some(v)) => Some((v.as_slice(), false)),
                    _ => return false,
                },
                Some(_) => return false,
            }
        } else {
            None
        };
        if let Some(f) = given {
            if format.is_some() {
                return false;
            }
            format = Some(f);
        }
    }
    let Some((f, printf)) = format else {
        return false;
    };
    let mut k = 0;
    while let Some(&c) = f.get(k) {
        match c {
            // In GNU's order: flags, a width, then the conversion (a character out of
            // place is printed as `?` and the rest as text, `%..Y`: round 97's second
            // helper). Not the `'` and `I` flags (the locale's digits and separators),
            // nor a precision (a time's fraction after a `.`).
            b'%' => {
                k += 1;
                let skip = |k: usize, set: &dyn Fn(u8) -> bool| {
                    k + f
                        .get(k..)
                        .map_or(0, |r| r.iter().take_while(|&&c| set(c)).count())
                };
                k = skip(k, &|c| matches!(c, b'-' | b'+' | b' ' | b'#' | b'0'));
                k = skip(k, &|c| c.is_ascii_digit());
                if !f.get(k).is_some_and(|c| b"abBdghiosuWXYZ%".contains(c)) {
                    return false;
                }
            }
            b'\\' if printf => {
                k += 1;
                if !f.get(k).is_some_and(|c| matches!(c, b'n' | b't')) {
                    return false;
                }
            }
            b' ' | b'\t' | b'\n' | b'0'..=b'9' => {}
            _ => return false,
        }
        k += 1;
    }
    true
}

/// Whether zsh/stat's `stat` builtin stops at its first word with an error, having
/// printed and assigned nothing: a cluster of `-L`s then `-c` (its options have no `c`;
/// a `--…` word ends them, and it then prints a file's data).
pub(super) fn zstat_refuses(lits: &[Option<Vec<u8>>]) -> bool {
    lits.first().and_then(|l| l.as_deref()).is_some_and(|l| {
        l.strip_prefix(b"-").is_some_and(|letters| {
            let ls = letters.iter().take_while(|&&c| c == b'L').count();
            letters.get(ls) == Some(&b'c')
        })
    })
}

/// Whether `tput` prints a numeric capability (`cols`, `lines`, `colors`), of the terminal
/// or of one `-T` names.
fn tput_number(lits: &[Option<Vec<u8>>]) -> bool {
    let words: Option<Vec<&[u8]>> = lits.iter().map(|l| l.as_deref()).collect();
    let Some(words) = words else {
        return false;
    };
    let cap = match words.as_slice() {
        [cap] => cap,
        [t, cap] if t.starts_with(b"-T") && t.len() > 2 => cap,
        [b"-T", _, cap] => cap,
        _ => return false,
    };
    matches!(*cap, b"cols" | b"lines" | b"colors" | b"pairs" | b"it")
}

/// Whether `date` or `tput` reads lines (`date -f FILE`, `--file`, `tput -S`), whose
/// errors quote them; a word computed at run time may be such an option.
fn reads_lines(base: &[u8], lits: &[Option<Vec<u8>>]) -> bool {
    let short = match base {
        b"date" => b'f',
        b"tput" => b'S',
        _ => return false,
    };
    lits.iter().any(|l| match l.as_deref() {
        None => true,
        Some(l) => {
            l.starts_with(b"--f")
                || l.starts_with(b"--st")
                || (l.starts_with(b"-") && !l.starts_with(b"--") && l.contains(&short))
        }
    })
}

/// What `cat` prints: its input, or what the process substitutions it is given write;
/// files are run-time text.
pub(super) fn cat(w: &mut Walk<'_>, args: &[WordInfo], here: &Ctx) -> Expr {
    let mut out = Expr::default();
    let mut files = 0;
    for a in args {
        let lit = a.literal();
        match lit.as_deref() {
            Some(b"-") => {
                out.join(here.stdin.clone());
                files += 1;
            }
            Some(b"-u" | b"--") => {}
            // `-v`, `-E`, `-A`, `-n`…: what it prints is not what it reads (`M-BM-$`, a
            // `$` at each line's end), not shown.
            Some(o) if o.starts_with(b"-") => return Expr::unknown(),
            _ => {
                files += 1;
                if a.process {
                    for s in a.substs() {
                        out.join(Expr(vec![Src::Subst(s)]));
                    }
                } else {
                    out.join(Expr::unknown());
                }
            }
        }
    }
    if files == 0 {
        out = here.stdin.clone();
    }
    let _ = w;
    out
}

/// `echo`, `printf`, zsh `print`: what they print, and `-v`.
pub(super) fn print(
    w: &mut Walk<'_>,
    name: &[u8],
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
) -> Result<Expr, GaveUp> {
    let zsh = w.zsh();
    let globbed = super::caret_globs(w, args);
    let args = globbed.as_deref().unwrap_or(args);
    // (A glob or brace word may become any words, `-v` and a name among them: `printf *`
    // in a directory holding the files `-v` and `a[i]`.)
    let lits = super::unglobbed(args, lits);
    let lits = lits.as_slice();
    let base = name.rsplit(|&c| c == b'/').next().unwrap_or(name);
    let mut targets: Vec<WordInfo> = Vec::new();
    let mut prompt = false;
    let mut stack = false;
    let mut format_opt: Option<WordInfo> = None;
    let mut unread = false;
    let k = match base {
        b"echo" => {
            let p = getopt::parse_in(w, args, lits, b"neE", b"");
            if p.unread || p.rejected {
                // Not options: echo prints them.
                0
            } else {
                args.len() - p.operands.len()
            }
        }
        b"printf" => {
            let p = getopt::parse_in(w, args, lits, b"v", b"v");
            if p.rejected && !zsh {
                return Ok(Expr::default());
            }
            targets.extend(p.args(b'v').map(getopt::OptArg::word));
            unread = p.unread;
            if p.rejected {
                // zsh takes a word of options it does not know for the format (`-Z%d`).
                unread = true;
                0
            } else {
                if p.unread
                    && let Some(t) = p.operands.get(1)
                {
                    // A computed first word may be `-v`: the next word its target.
                    targets.push(t.clone());
                }
                if p.unread
                    && let Some(t) = p.operands.first()
                    && !w.one_argument(t)
                {
                    // One that may be several words may hold both (`printf *`, `printf "$@"`).
                    targets.push(t.clone());
                }
                args.len() - p.operands.len()
            }
        }
        b"pushln" => {
            // zsh's `print -nz`, without options: every word onto the buffer stack.
            stack = true;
            0
        }
        _ => {
            // zsh's print.
            let p = getopt::parse_in(w, args, lits, b"abcCDefilmnNoOpPrRsSuvxXz", b"CfuvxX");
            // (A word with braces is read before they are expanded: `-{P,P}` is `-P -P`.)
            let braced = args.iter().any(|a| a.brace);
            if p.rejected && !braced {
                return Ok(Expr::default());
            }
            // (A word computed at run time may be `-P`: `print $o "$v"`, round 100.)
            prompt = p.has(b'P') || p.unread || braced;
            stack = p.has(b'z') || p.has(b's');
            targets.extend(p.args(b'v').map(getopt::OptArg::word));
            format_opt = p.args(b'f').next().map(getopt::OptArg::word);
            unread = p.unread;
            if p.unread {
                // A computed word may be `-v` and its name (`print "$@"`).
                super::computed_names(w, args, lits, "print -v");
            }
            args.len() - p.operands.len()
        }
    };
    let rest = args.get(k..).unwrap_or(&[]);
    // The printed text: the words (with their escapes) or a format's conversions. (A word
    // that may be several, `"$@"`, prints them one after another: `echo` with a blank
    // between them, a format reused with none, [`Expr::repeated`].)
    let several: Vec<bool> = rest.iter().map(|a| !w.one_argument(a)).collect();
    let many = several.contains(&true);
    let mut parts = Vec::with_capacity(rest.len());
    for (a, &several) in rest.iter().zip(&several) {
        let e = w.word_expr(a);
        parts.push(if several && base == b"echo" {
            Expr::glue(vec![e, Expr::lit(b" ")]).repeated()
        } else {
            e
        });
    }
    if prompt {
        for (a, e) in rest.iter().zip(&parts) {
            w.site_needing(
                a.start,
                Evaluator::Prompt,
                "zsh print -P",
                e.clone(),
                Needs::PromptSubst,
            );
        }
    }
    if zsh && (base == b"printf" || format_opt.is_some()) {
        // zsh evaluates the arguments of numeric conversions as arithmetic (a format it
        // cannot read may hold one).
        let (format, skip) = match &format_opt {
            Some(f) => (f.literal(), 0),
            None => (rest.first().and_then(WordInfo::literal), 1),
        };
        // (Each argument fills the conversion of its place in the format, reused from the
        // start as long as arguments are left: where each is one word and the format reads
        // plainly, only those of numeric places are evaluated; round 82.)
        let one_word = rest.iter().skip(skip).all(|a| !a.many);
        let slots = format
            .as_deref()
            .and_then(numeric_slots)
            .filter(|_| one_word);
        if format.is_none_or(|f| {
            f.windows(2)
                .any(|p| p[0] == b'%' && !matches!(p[1], b's' | b'c' | b'%' | b'b' | b'q'))
        }) {
            for (j, (a, e)) in rest.iter().zip(&parts).skip(skip).enumerate() {
                if let Some(slots) = &slots
                    && !slots.get(j % slots.len().max(1)).copied().unwrap_or(false)
                {
                    continue;
                }
                w.site(
                    a.start,
                    Evaluator::Arithmetic,
                    "zsh printf's numeric conversions",
                    e.clone(),
                    None,
                );
            }
        }
    }
    let opts_lits = lits.get(..k).unwrap_or_default();
    // (A word that may become other words, file names from a glob, is not its text.)
    let exact = if format_opt.is_some() || unread || rest.iter().any(|a| a.many) {
        None
    } else {
        printed(base, opts_lits, lits.get(k..).unwrap_or(&[]))
    };
    // (A format read by its value: a glob, `%s*`, may be a file's name the command made.)
    let numeric = if base == b"printf" && !unread {
        rest.first()
            .and_then(WordInfo::value)
            .and_then(|f| numeric_output(&f))
    } else {
        None
    };
    // `printf 'PRE%sSUF' WORD…` with plain text around one `%s` (`printf '%s\n' "$x"`):
    // each word as it is, between the format's own text.
    let one_string = if base == b"printf" && !unread && format_opt.is_none() {
        rest.first()
            .and_then(WordInfo::value)
            .and_then(|f| one_string_format(&f))
    } else {
        None
    };
    let out = match (exact, numeric, one_string) {
        (Some(t), _, _) => Expr::lit(&t),
        // Only numbers and the format's own text.
        (None, Some(bytes), _) => Expr::val(Val::fixed(bytes)),
        (None, None, Some((pre, suf))) => {
            let words = parts.get(1..).unwrap_or_default();
            let mut pieces = Vec::with_capacity(3 * words.len().max(1));
            for (e, &several) in words.iter().zip(several.iter().skip(1)) {
                let one = Expr::glue(vec![Expr::lit(&pre), e.clone(), Expr::lit(&suf)]);
                pieces.push(if several { one.repeated() } else { one });
            }
            if words.is_empty() {
                pieces.push(Expr::lit(&[pre, suf].concat()));
            }
            Expr::glue(pieces)
        }
        // Escapes (`\044`, `%b`, zsh's echo) can make any byte of heredoc text. (`echo`
        // decodes only backslash escapes: text without a `\` comes out as it went in.
        // `printf`'s conversions and zsh's `print` options make bytes from other text.)
        (None, None, None) if base == b"echo" => Expr::glue(parts).escaped(),
        // (A format reused for words that may be several: its text between them too.)
        (None, None, None) if many => Expr::glue(parts).repeated().wild(),
        (None, None, None) => Expr::glue(parts).wild(),
    };
    if stack {
        // zsh's buffer stack (or history), which `read -z` and `getln` read back.
        let s = w.var(ZSH_STACK);
        w.assign(Target::Var(s), out.clone(), at, ctx);
    }
    // (`-v` takes a name and needs a format after it: one computed word that stays one
    // field assigns nothing.)
    if unread && base == b"printf" {
        if matches!(args, [a] if w.one_field(a)) {
            w.facts.one_word_printfs.push((at, out.clone()));
        } else {
            dynamic_assignment(w, Expr::unknown(), out.clone(), at, ctx);
        }
    }
    if !targets.is_empty() {
        for t in &targets {
            name_target(w, t, out.clone(), "printf -v", at, ctx);
        }
        return Ok(Expr::default());
    }
    Ok(out)
}

/// The bytes `mktemp` puts in place of its template's `X`s (and the `.` of its own
/// templates: `tmp.XXXXXXXXXX`, BSD's `-t PREFIX` as `PREFIX.XXXXXXXX`).
const MKTEMP_MADE: &[u8] = b".0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// zsh's buffer stack, as the judge keeps it.
pub(super) const ZSH_STACK: &[u8] = b"\0zsh-buffer-stack";

/// The bytes `printf` prints for a format whose conversions all print numbers (`%d`,
/// `%i`, `%u`, with flags and widths, and `%(…)T` with numeric fields): the format's own
/// text, digits, signs, spaces and points. `None` for any other format.
fn numeric_output(format: &[u8]) -> Option<ByteSet> {
    let mut bytes = ByteSet::of(b"0123456789-+ .");
    let mut k = 0;
    while k < format.len() {
        let c = format[k];
        if c == b'\\' {
            // An escape may make any byte.
            match format.get(k + 1) {
                Some(b'n') => {
                    bytes = bytes.union(ByteSet::of(b"\n"));
                    k += 2;
                    continue;
                }
                _ => return None,
            }
        }
        if c != b'%' {
            bytes = bytes.union(ByteSet::of(&[c]));
            k += 1;
            continue;
        }
        k += 1;
        if format.get(k) == Some(&b'%') {
            bytes = bytes.union(ByteSet::of(b"%"));
            k += 1;
            continue;
        }
        while format
            .get(k)
            .is_some_and(|c| b"-+ #0123456789.".contains(c))
        {
            k += 1;
        }
        match format.get(k) {
            Some(b'd' | b'i' | b'u') => k += 1,
            Some(b'(') => {
                let close = format[k..].iter().position(|&c| c == b')')? + k;
                let inner = &format[k + 1..close];
                // strftime fields that print numbers only.
                let mut j = 0;
                while j < inner.len() {
                    if inner[j] == b'%' {
                        if !inner
                            .get(j + 1)
                            .is_some_and(|f| b"sYmdHMSjeIklsuVwWGgCyz%".contains(f))
                        {
                            return None;
                        }
                        j += 2;
                    } else {
                        bytes = bytes.union(ByteSet::of(&inner[j..j + 1]));
                        j += 1;
                    }
                }
                if format.get(close + 1) != Some(&b'T') {
                    return None;
                }
                k = close + 2;
            }
            _ => return None,
        }
    }
    Some(bytes)
}

/// The most bytes a computed `printf` is followed for.
const MAX_PRINTED: usize = 64 * 1024;

/// The exact output of `echo` or `printf` given literal words without options or escapes
/// (`printf` with `%s` and `%%` only, and `\n`), or `None`.
fn printed(name: &[u8], options: &[Option<Vec<u8>>], lits: &[Option<Vec<u8>>]) -> Option<Vec<u8>> {
    // `echo -n` and `-E` print the words as they are (without or with the newline);
    // anything else (`-e`) may print escapes.
    let mut newline = true;
    for o in options.iter().filter(|_| name == b"echo") {
        match o.as_deref() {
            Some(b"-n") if name == b"echo" => newline = false,
            Some(b"-E") if name == b"echo" => {}
            _ => return None,
        }
    }
    let words: Vec<&[u8]> = lits
        .iter()
        .map(|s| s.as_deref())
        .collect::<Option<Vec<_>>>()?;
    if words.iter().any(|w| w.contains(&b'\\')) && name == b"echo" {
        return None;
    }
    match name {
        b"echo" => {
            if words.first().is_some_and(|w| w.starts_with(b"-")) {
                return None;
            }
            let mut out = words.join(&b' ');
            if newline {
                out.push(b'\n');
            }
            Some(out)
        }
        b"printf" => {
            let (format, args) = words.split_first()?;
            if format.starts_with(b"-") || args.iter().any(|a| a.contains(&b'\\')) {
                return None;
            }
            let mut pieces: Vec<Option<Vec<u8>>> = Vec::new();
            let mut lit = Vec::new();
            let mut k = 0;
            while k < format.len() {
                match (format[k], format.get(k + 1)) {
                    (b'%', Some(b'%')) => lit.push(b'%'),
                    (b'%', Some(b's')) => {
                        pieces.push(Some(std::mem::take(&mut lit)));
                        pieces.push(None);
                    }
                    (b'\\', Some(b'n')) => lit.push(b'\n'),
                    (b'%' | b'\\', _) => return None,
                    (c, _) => {
                        lit.push(c);
                        k += 1;
                        continue;
                    }
                }
                k += 2;
            }
            pieces.push(Some(lit));
            let slots = pieces.iter().filter(|p| p.is_none()).count();
            let mut out = Vec::new();
            let mut next = 0;
            loop {
                for p in &pieces {
                    match p {
                        Some(l) => out.extend_from_slice(l),
                        None => {
                            if let Some(a) = args.get(next) {
                                out.extend_from_slice(a);
                            }
                            next += 1;
                        }
                    }
                }
                if slots == 0 || next >= args.len() {
                    break;
                }
                if out.len() > MAX_PRINTED {
                    return None;
                }
            }
            Some(out)
        }
        _ => None,
    }
}

/// Whether a word is `--files0-from` (the program then reads the files a list names), by
/// any spelling GNU's options take: the whole name, or any prefix of it from `--f` on
/// (`--fi=list`), with or without `=value`.
fn files0(l: &[u8]) -> bool {
    let name = l.split(|&c| c == b'=').next().unwrap_or_default();
    crate::search::find(l, b"files0").is_some()
        || (name.len() >= 3 && b"--files0-from".starts_with(name))
}

/// Whether every option word of a program whose output the judge shows is one that adds
/// nothing of the program's own text (a short option's letters, or a long option, each
/// from the program's list; what follows a letter that takes a value is that value).
fn plain_options(base: &[u8], lits: &[Option<Vec<u8>>]) -> bool {
    let Some((flags, valued, long)) = option_table(base) else {
        return false;
    };
    let mut words = lits.iter();
    while let Some(l) = words.next() {
        let Some(l) = l.as_deref() else {
            // A word computed at run time may be any option.
            return false;
        };
        if let Some(name) = l.strip_prefix(b"--") {
            let name = name.split(|&c| c == b'=').next().unwrap_or_default();
            if !long.contains(&name) {
                return false;
            }
            continue;
        }
        let Some(letters) = l.strip_prefix(b"-").filter(|r| !r.is_empty()) else {
            continue;
        };
        if base == b"seq"
            && letters
                .first()
                .is_some_and(|c| c.is_ascii_digit() || *c == b'.')
        {
            // A negative number.
            continue;
        }
        for (k, c) in letters.iter().enumerate() {
            if valued.contains(c) {
                // (Not after the obsolete `-NUM`: `head -99c FILE` reads FILE.)
                if k + 1 == letters.len() && !letters[0].is_ascii_digit() {
                    // Its value is the next word.
                    words.next();
                }
                break;
            }
            if !flags.contains(c) {
                return false;
            }
        }
    }
    true
}

/// The options of a program whose output the judge shows: (flags, letters taking a value,
/// long options).
type OptionTable = (&'static [u8], &'static [u8], &'static [&'static [u8]]);

fn option_table(base: &[u8]) -> Option<OptionTable> {
    Some(match base {
        b"wc" => (
            b"clwmL",
            b"",
            &[b"bytes", b"chars", b"lines", b"words", b"max-line-length"],
        ),
        b"nproc" => (b"", b"", &[b"all", b"ignore"]),
        b"seq" => (b"w", b"s", &[b"equal-width", b"separator"]),
        b"head" => (
            b"qz0123456789",
            b"cn",
            &[b"bytes", b"lines", b"quiet", b"silent", b"zero-terminated"],
        ),
        b"tail" => (
            b"qzfF0123456789",
            b"cns",
            &[
                b"bytes",
                b"lines",
                b"quiet",
                b"silent",
                b"zero-terminated",
                b"follow",
                b"retry",
                b"sleep-interval",
                b"pid",
            ],
        ),
        b"sort" => (
            b"bdfghiMnRrVsumz",
            b"ktSTo",
            &[
                b"ignore-leading-blanks",
                b"dictionary-order",
                b"ignore-case",
                b"general-numeric-sort",
                b"ignore-nonprinting",
                b"month-sort",
                b"human-numeric-sort",
                b"numeric-sort",
                b"random-sort",
                b"reverse",
                b"version-sort",
                b"key",
                b"merge",
                b"output",
                b"stable",
                b"buffer-size",
                b"field-separator",
                b"temporary-directory",
                b"unique",
                b"zero-terminated",
                b"parallel",
            ],
        ),
        b"uniq" => (
            b"cdDiuz",
            b"fsw",
            &[
                b"count",
                b"repeated",
                b"ignore-case",
                b"unique",
                b"zero-terminated",
                b"skip-fields",
                b"skip-chars",
                b"check-chars",
            ],
        ),
        b"cut" => (
            b"snz",
            b"bcdf",
            &[
                b"bytes",
                b"characters",
                b"delimiter",
                b"fields",
                b"complement",
                b"only-delimited",
                b"output-delimiter",
                b"zero-terminated",
            ],
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{numeric_slots, stat_numeric, zstat_refuses};

    fn words(ws: &[&str]) -> Vec<Option<Vec<u8>>> {
        ws.iter().map(|w| Some(w.as_bytes().to_vec())).collect()
    }

    /// GNU `stat`'s formats: decimal conversions in its order count as numbers; a name, a
    /// hex conversion, the locale's flags, a precision (`%.3Y` prints a fraction), a
    /// conversion out of order (`%..Y` prints `?Y`),
    /// an escape that makes a letter, `-f`, `--terse` and a computed word do not. Where
    /// GNU `stat` is on the machine, each format taken is run and its output checked to
    /// hold nothing but digits, blanks and `%` (the program's word, not the function's).
    #[test]
    fn gnu_stat_prints_a_number_only_for_decimal_conversions_in_its_order() {
        let taken: &[&[&str]] = &[
            &["-c", "%s", "f"],
            &["-Lc", "%Y", "f"],
            &["-c%s %i", "f"],
            &["--form=%s", "f"],
            &["--printf", "%s\\n", "f"],
            &["f", "-c", "%-8Y"],
            &["-c", "100%%", "f"],
        ];
        let refused: &[&[&str]] = &[
            &["-c", "%n", "f"],
            &["-c", "%f", "f"],
            &["-c", "%'s", "f"],
            &["-c", "1%..Y", "."],
            &["-c", "1%.-Y", "."],
            &["-c", "%.3Y", "."],
            &["-c", "size %s", "f"],
            &["--printf=%s\\x41", "f"],
            &["-f", "-c", "%s", "f"],
            &["-t", "f"],
            &["-c", "%s", "-c", "%s", "f"],
            &["f"],
        ];
        for ws in taken {
            assert!(stat_numeric(&words(ws)), "{ws:?}");
        }
        for ws in refused {
            assert!(!stat_numeric(&words(ws)), "{ws:?}");
        }
        let mut computed = words(&["-c", "%s"]);
        computed.push(None);
        assert!(!stat_numeric(&computed));
        assert!(zstat_refuses(&words(&["-LLc", "%s"])) && !zstat_refuses(&words(&["-L", "-c"])));
        let gnu = std::process::Command::new("stat")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"stat (GNU coreutils)"));
        if !gnu {
            eprintln!("no GNU stat here: the formats are not run");
            return;
        }
        for ws in taken {
            let args: Vec<&str> = ws
                .iter()
                .map(|w| if *w == "f" { "Cargo.toml" } else { *w })
                .collect();
            let out = std::process::Command::new("stat")
                .args(&args)
                .env("LC_ALL", "C")
                .output()
                .expect("stat runs");
            assert!(out.status.success(), "{ws:?}");
            assert!(
                out.stdout
                    .iter()
                    .all(|c| c.is_ascii_digit() || b" \n%-".contains(c)),
                "stat {ws:?} printed {:?}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        for ws in [["-c", "1%..Y", "."], ["-c", "1%.-Y", "."]] {
            let out = std::process::Command::new("stat")
                .args(ws)
                .output()
                .expect("stat runs");
            assert!(out.stdout.iter().any(u8::is_ascii_alphabetic), "{ws:?}");
        }
    }

    #[test]
    fn a_printf_format_s_argument_places_are_numeric_where_a_conversion_or_a_star_takes_a_number() {
        assert_eq!(numeric_slots(b"%3d %s\n"), Some(vec![true, false]));
        assert_eq!(
            numeric_slots(b"%-*.*f|%c"),
            Some(vec![true, true, true, false])
        );
        assert_eq!(numeric_slots(b"100%% %b %s"), Some(vec![false, false]));
        // (`q` may be a length, `%qd`: read as one, what follows is the conversion.)
        assert_eq!(numeric_slots(b"%qd %q "), Some(vec![true, true]));
        assert_eq!(numeric_slots(b"%ld %'09.2f"), Some(vec![true, true]));
        // (Positional arguments, and a format that ends inside a conversion, are not read.)
        assert_eq!(numeric_slots(b"%1$d"), None);
        assert_eq!(numeric_slots(b"%*1$d"), None);
        assert_eq!(numeric_slots(b"%-5"), None);
    }
}
