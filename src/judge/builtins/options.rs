//! What changes how later text is read: `shopt`, `set`, zsh's `setopt` and `emulate`,
//! `alias`; and zsh's builtins that assign named variables.

use super::*;
use crate::judge::GaveUp;
use crate::judge::facts::{Expr, Target, When};
use crate::judge::value::ByteSet;
use crate::judge::walk::{Ctx, Walk};
use crate::shell::tree::SimpleCommand;
use crate::shell::word::{Piece, WordInfo};

/// What turning a `shopt` option on or off does to later text, when the reader does not
/// follow it (`extglob` and `expand_aliases` are read both ways).
fn shopt_effect(name: &[u8], on: bool) -> Option<&'static str> {
    match name {
        n if n.starts_with(b"compat") && on => {
            Some("a bash compatibility level, which makes bash read later text as an older version")
        }
        b"interactive_comments" if !on => {
            Some("interactive_comments off, which makes `#` part of words in later text")
        }
        _ => None,
    }
}

/// The same for `set -o`.
fn set_option_effect(name: &[u8], on: bool) -> Option<&'static str> {
    match name {
        b"posix" if on => {
            Some("POSIX mode, which turns alias expansion on and changes how later text is read")
        }
        b"histexpand" if on => Some("history expansion, which rewrites later text with `!`"),
        b"keyword" if on => {
            Some("set -o keyword, which changes how the words of later commands are read")
        }
        _ => None,
    }
}

pub(super) fn shopt(w: &mut Walk<'_>, lits: &[Option<Vec<u8>>], at: u32, ctx: &Ctx) {
    let mut set = None;
    let mut o_mode = false;
    for s in lits {
        let Some(s) = s else {
            w.change(
                at,
                "shopt with an option named at run time",
                When::Always,
                ctx,
            );
            // (`shopt -os $o`: any of `set -o`'s too, xtrace among them; round 101.)
            named_at_run_time(w, at);
            return;
        };
        match s.as_slice() {
            b"-s" => set = Some(true),
            b"-u" => set = Some(false),
            b"-o" => o_mode = true,
            o if o.starts_with(b"-") => {
                if o.contains(&b's') {
                    set = Some(true);
                }
                if o.contains(&b'u') {
                    set = Some(false);
                }
                if o.contains(&b'o') {
                    o_mode = true;
                }
            }
            name => {
                let Some(on) = set else { continue };
                let what = if o_mode {
                    set_option_effect(name, on)
                } else {
                    shopt_effect(name, on)
                };
                if let Some(what) = what {
                    w.change(at, what, When::Always, ctx);
                }
                if o_mode && on && name == b"xtrace" {
                    w.facts.xtrace.get_or_insert(at);
                }
                if o_mode && on && name == b"verbose" {
                    w.facts.verbose = true;
                }
            }
        }
    }
}

/// `set`, read as bash's `set.def` reads its words: while a word starts with `-` or `+`,
/// each letter is a flag, and each `o` takes the next word as an option's name, unless
/// there is none or it is empty or starts with `-` or `+` (then `set` lists the options and
/// that word is read as flags: `set -o -x`, `set -eoo pipefail xtrace`, round 100); `-`
/// or `--` ends them. zsh also takes the rest of the word after an `o` as the name
/// (`set -opromptsubst`); a name taken both ways is judged both ways.
pub(super) fn set(
    w: &mut Walk<'_>,
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
) {
    let zsh = w.zsh();
    let mut k = 0;
    while k < lits.len() {
        let Some(s) = &lits[k] else {
            // A word computed at run time: an option or a positional parameter.
            w.change(
                at,
                "set with an option named at run time",
                When::Always,
                ctx,
            );
            named_at_run_time(w, at);
            let mut v = Expr::default();
            for a in &args[k..] {
                v.join(w.word_expr(a));
            }
            let p = w.var(b"@");
            w.facts.assign(Target::Var(p), v, at);
            return;
        };
        if s == b"--" || s == b"-" || !(s.starts_with(b"-") || s.starts_with(b"+")) {
            let start = if s == b"--" || s == b"-" { k + 1 } else { k };
            let mut v = Expr::default();
            for a in args.iter().skip(start) {
                v.join(w.word_expr(a));
            }
            if start < args.len() {
                let p = w.var(b"@");
                w.facts.assign(Target::Var(p), v, at);
            }
            return;
        }
        let on = s.starts_with(b"-");
        let letters = &s[1..];
        // The words the `o`s take, each the one after the last taken.
        let mut taken = k;
        // zsh's `-A` (`+A`): the rest of the word is the array's name (`-Aaliases`), or
        // the next word where none is (bin_set; round 101).
        let mut array: Option<usize> = None;
        for (i, &l) in letters.iter().enumerate() {
            match l {
                b'A' if zsh => {
                    array = Some(i);
                    break;
                }
                b'o' => {
                    // zsh: the rest of the word is the name (`-oxtrace`).
                    if zsh && i + 1 < letters.len() {
                        set_o(w, &letters[i + 1..], on, at, ctx);
                    }
                    match lits.get(taken + 1) {
                        Some(Some(name))
                            if !name.is_empty()
                                && !name.starts_with(b"-")
                                && !name.starts_with(b"+") =>
                        {
                            set_o(w, name, on, at, ctx);
                            taken += 1;
                        }
                        Some(None) => {
                            w.change(
                                at,
                                "set -o with an option named at run time",
                                When::Always,
                                ctx,
                            );
                            named_at_run_time(w, at);
                            return;
                        }
                        // (None, or one read as flags: `set` lists the options.)
                        _ => {}
                    }
                    if zsh && i + 1 < letters.len() {
                        break;
                    }
                }
                b'H' if on => w.change(
                    at,
                    "set -H, which turns history expansion on for later text",
                    When::Always,
                    ctx,
                ),
                b'k' if on => w.change(
                    at,
                    "set -k, which changes how the words of later commands are read",
                    When::Always,
                    ctx,
                ),
                b'x' if on => {
                    w.facts.xtrace.get_or_insert(at);
                }
                b'v' if on => w.facts.verbose = true,
                _ => {}
            }
        }
        if let Some(i) = array {
            // zsh `set -A name values`: an array.
            let rest = letters.get(i + 1..).unwrap_or_default();
            let (name, values) = if rest.is_empty() {
                (args.get(taken + 1).cloned(), taken + 2)
            } else {
                let attached = args.get(k).map(|word| WordInfo {
                    start: word.start,
                    end: word.end,
                    pieces: vec![Piece::Lit(rest.to_vec())],
                    ..WordInfo::default()
                });
                (attached, taken + 1)
            };
            if let Some(t) = &name {
                let mut v = Expr::default();
                for a in args.iter().skip(values) {
                    v.join(w.word_expr(a));
                }
                name_target(w, t, v, "set -A", at, ctx);
                // (An associative array takes its keys from the values: `set -A aliases
                // "$n" "$v"` names an alias by them.)
                if let Some(name) = t.literal() {
                    let var = w.var(&name);
                    w.facts.computed_keys.push(var);
                }
            }
            return;
        }
        k = taken + 1;
    }
}

/// `set -o name` (`+o`: off).
fn set_o(w: &mut Walk<'_>, name: &[u8], on: bool, at: u32, ctx: &Ctx) {
    let zsh = w.zsh();
    if let Some(what) = set_option_effect(name, on) {
        w.change(at, what, When::Always, ctx);
    }
    if on && name == b"xtrace" {
        w.facts.xtrace.get_or_insert(at);
    }
    if on && name == b"verbose" {
        w.facts.verbose = true;
    }
    if zsh {
        if on {
            zsh_option(w, name, at, ctx);
        } else {
            // `set +o noprompt_subst` turns it on.
            let mut off = b"no".to_vec();
            off.extend_from_slice(name);
            zsh_option(w, &off, at, ctx);
        }
    }
}

/// An option named at run time may be any: `xtrace` (PS4 is then expanded), zsh's
/// prompt_subst and glob_subst.
fn named_at_run_time(w: &mut Walk<'_>, at: u32) {
    w.facts.xtrace.get_or_insert(at);
    w.facts.verbose = true;
    if w.zsh() {
        w.facts.prompt_subst = true;
        w.facts.glob_subst = true;
    }
}

/// A zsh option name, normalized (case and `_` ignored, a leading `no` read as off).
fn zsh_option(w: &mut Walk<'_>, name: &[u8], at: u32, ctx: &Ctx) -> bool {
    let plain: Vec<u8> = name
        .iter()
        .filter(|&&c| c != b'_')
        .map(u8::to_ascii_lowercase)
        .collect();
    // A leading `no` turns the option off, twice on again (`unsetopt noprompt_subst`);
    // `nomatch` and `notify` are options of their own.
    let (mut on, mut o) = (true, plain);
    while o.len() > 2 && o.starts_with(b"no") && o != b"notify" && o != b"nomatch" {
        on = !on;
        o.drain(..2);
    }
    match o.as_slice() {
        // (`promptvars` is zsh's alias of it, options.c: round 101.)
        b"promptsubst" | b"promptvars" if on => w.facts.prompt_subst = true,
        b"globsubst" if on => w.facts.glob_subst = true,
        b"xtrace" if on => {
            w.facts.xtrace.get_or_insert(at);
        }
        b"verbose" if on => w.facts.verbose = true,
        // (`cd` gives `PWD` run-time text whatever the options.)
        b"chaselinks" | b"chasedots" => {}
        b"errexit" | b"pipefail" | b"nullglob" | b"nomatch" | b"clobber" | b"errreturn"
        | b"unset" | b"verbose" | b"localoptions" | b"xtrace" | b"promptsubst" | b"promptvars"
        | b"globsubst" => {}
        _ => {
            w.change(
                at,
                "a zsh option, which can change how zsh reads later text",
                When::Always,
                ctx,
            );
            return false;
        }
    }
    true
}

pub(super) fn setopt(w: &mut Walk<'_>, name: &[u8], lits: &[Option<Vec<u8>>], at: u32, ctx: &Ctx) {
    for s in lits {
        match s {
            Some(s) if s.starts_with(b"-") || s.starts_with(b"+") => {
                w.change(
                    at,
                    "a zsh option, which can change how zsh reads later text",
                    When::Always,
                    ctx,
                );
                // (`-m`: the words are patterns, which may match any option.)
                named_at_run_time(w, at);
            }
            Some(s) => {
                if name == b"unsetopt" {
                    // Turning an option off: only `no…` spellings turn one on.
                    let mut off = b"no".to_vec();
                    off.extend_from_slice(s);
                    zsh_option(w, &off, at, ctx);
                } else {
                    zsh_option(w, s, at, ctx);
                }
            }
            None => {
                w.change(at, "a zsh option named at run time", When::Always, ctx);
                named_at_run_time(w, at);
            }
        }
    }
}

/// `alias`/`unalias`: a literal definition at the top level is followed by the reader
/// (in the readings that expand aliases); one in a function, or one whose value is not
/// literal, changes later text in a way the reader does not follow.
pub(super) fn alias(
    w: &mut Walk<'_>,
    c: &SimpleCommand,
    name: &[u8],
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
) -> Result<(), GaveUp> {
    let zsh = w.zsh();
    if name == b"unalias" {
        return Ok(());
    }
    // (An option word computed at run time may be `-g`.)
    if zsh
        && lits.iter().zip(args).any(|(s, a)| match s.as_deref() {
            Some(s) => s.starts_with(b"-") && (s.contains(&b'g') || s.contains(&b's')),
            None => !matches!(a.pieces.first(), Some(Piece::Lit(l)) if l.first().is_some_and(|&c| c != b'-')),
        })
    {
        w.change(
            at,
            "a zsh global or suffix alias, which is expanded anywhere in text zsh reads later",
            When::Always,
            ctx,
        );
    }
    let _ = c;
    for (a, l) in args.iter().zip(lits) {
        // (A glob may match a file the command made, `s=cat <<E`: round 63.)
        match l.as_ref().filter(|_| !a.many) {
            Some(t) if t.starts_with(b"-") && !t.contains(&b'=') => {}
            Some(t) => {
                let Some(eq) = t.iter().position(|&c| c == b'=') else {
                    continue;
                };
                let value = Expr::lit(&t[eq + 1..]);
                let multiline = t.contains(&b'\n');
                if ctx.in_function || ctx.read_later || multiline || open_quote(t) {
                    w.change(at, "an alias defined where the guard does not follow it (in a function or text read later, or one that spans lines)", When::Reshapes(value), ctx);
                } else {
                    // Followed in later units; text read again in this one (a
                    // substitution, eval text) is read with it too.
                    w.change_in_unit(at, "an alias used in text read again on the line that defines it (a substitution, eval text)", When::Reshapes(value));
                }
                let table = w.var(if zsh {
                    &b"aliases"[..]
                } else {
                    b"BASH_ALIASES"
                });
                w.facts
                    .assign(Target::Var(table), Expr::lit(&t[eq + 1..]), at);
            }
            None => {
                let e = if a.many {
                    Expr::unknown()
                } else {
                    w.word_expr(a)
                };
                let (value, name) = match split_at_equals(a).filter(|_| !a.many) {
                    Some((n, v)) => (
                        w.word_expr(&v),
                        (n.literal().is_none()).then(|| w.word_expr(&n)),
                    ),
                    None => (e.clone(), Some(e)),
                };
                if let Some(name) = name {
                    // A name that may be heredoc text may be any later command's (`echo`
                    // made `eval`): whatever the value, later text may run.
                    w.change(
                        at,
                        "an alias named by text the command does not fix, which may rebind any later command",
                        When::HeredocName(name),
                        ctx,
                    );
                }
                let table = w.var(if zsh {
                    &b"aliases"[..]
                } else {
                    b"BASH_ALIASES"
                });
                w.facts.assign(Target::Var(table), value.clone(), at);
                w.change(
                    at,
                    "an alias defined with a value computed at run time",
                    When::Reshapes(value),
                    ctx,
                );
            }
        }
    }
    Ok(())
}

/// A value with an open quote or a trailing backslash (the reader follows neither).
fn open_quote(value: &[u8]) -> bool {
    let mut quote = 0u8;
    let mut i = 0;
    while i < value.len() {
        let c = value[i];
        match (quote, c) {
            (0, b'\\') | (b'"', b'\\') => {
                if i + 1 == value.len() {
                    return true;
                }
                i += 1;
            }
            (0, b'\'' | b'"') => quote = c,
            (q, _) if q != 0 && c == q => quote = 0,
            _ => {}
        }
        i += 1;
    }
    quote != 0
}

/// zsh builtins that assign named variables: `zparseopts` (`-A name`, `-a name`,
/// `spec=name`), `zformat` (`-f name`, `-a name`), `zregexparse` (its first two
/// words), `zstyle` (`-s`, `-a`, `-b` … `name`), and the modules' builtins (any word).
/// Returns whether it may print run-time text (a module's builtin).
/// A variable's name written in a zsh builtin's word (`-aNAME`, `v=NAME`): evaluated, its
/// subscript runs.
fn name_site(w: &mut Walk<'_>, at: u32, name: &[u8]) {
    w.site(
        at,
        crate::judge::evaluators::Evaluator::Name,
        "a zsh builtin's variable",
        Expr::lit(name),
        None,
    );
}

/// The words that name a variable as written (an identifier): integers from `at` on.
fn integers_named(w: &mut Walk<'_>, words: &[&WordInfo], at: u32) {
    for t in words {
        if let Some(n) = t.literal()
            && crate::shell::syntax::legal_identifier(&n)
        {
            let v = w.var(&n);
            w.facts.integers.push((v, at));
        }
    }
}

pub(super) fn zsh_assigning(
    w: &mut Walk<'_>,
    name: &[u8],
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
) -> bool {
    let mut all = Expr::var(w.var(b"@"));
    for a in args {
        all.join(w.word_expr(a));
    }
    let value = all.part(ByteSet::EMPTY);
    let mut targets: Vec<&WordInfo> = Vec::new();
    if matches!(name, b"zparseopts" | b"zstyle" | b"zformat") {
        super::computed_names(w, args, lits, "a zsh builtin's variable");
    }
    match name {
        b"zparseopts" => {
            for (k, l) in lits.iter().enumerate() {
                match l.as_deref() {
                    Some(b"-A" | b"-a" | b"-M") => targets.extend(args.get(k + 1)),
                    // (The name written right after the option: `-aNAME`.)
                    Some(s) if s.len() > 2 && matches!(&s[..2], b"-A" | b"-a" | b"-M") => {
                        let n = &s[2..];
                        name_site(w, args.get(k).map_or(at, |a| a.start), n);
                        if crate::shell::syntax::legal_identifier(n) {
                            let v = w.var(n);
                            w.assign(Target::Var(v), value.clone(), at, ctx);
                        }
                    }
                    // (A spec for a long option starts with `-`: `-x=a[$k]`, round 102.)
                    Some(s) if s.contains(&b'=') => {
                        let eq = s.iter().rposition(|&c| c == b'=').unwrap_or(0);
                        let n = &s[eq + 1..];
                        if crate::shell::syntax::legal_identifier(n) {
                            let v = w.var(n);
                            w.assign(Target::Var(v), value.clone(), at, ctx);
                        } else {
                            // (`v=a[$i]`: its subscript runs.)
                            name_site(w, args.get(k).map_or(at, |a| a.start), n);
                        }
                    }
                    None => dynamic_assignment(w, Expr::default(), value.clone(), at, ctx),
                    _ => {}
                }
            }
        }
        b"zformat" => {
            if let Some(t) = args.get(1) {
                targets.push(t);
            }
        }
        b"zregexparse" => {
            // (After its options: `-c`, `--`.)
            super::computed_names(w, args, lits, "a zsh builtin's variable");
            let mut skip = 0;
            while let Some(Some(l)) = lits.get(skip) {
                if l == b"--" {
                    skip += 1;
                    break;
                }
                if l.len() > 1 && l[0] == b'-' {
                    skip += 1;
                    continue;
                }
                break;
            }
            // Its two names get the match's offsets, numbers, with `setiparam`: a name
            // new to the shell is an integer from then on, and every later assignment to
            // it is evaluated (round 101).
            let names: Vec<&WordInfo> = args.iter().skip(skip).take(2).collect();
            for t in &names {
                let number = Expr::val(crate::judge::value::Val::number());
                name_target(w, t, number, "a zsh builtin's variable", at, ctx);
            }
            integers_named(w, &names, at);
        }
        b"zstyle"
            if lits.first().is_some_and(|l| {
                l.as_deref().is_some_and(|l| {
                    matches!(l, b"-s" | b"-a" | b"-b" | b"-t" | b"-T" | b"-g" | b"-m")
                })
            }) =>
        {
            // What it reads back is what any `zstyle` stored: run-time text.
            let styles = Expr::unknown();
            let mut t = args.get(3).into_iter().collect::<Vec<_>>();
            if lits.first().is_some_and(|l| l.as_deref() == Some(b"-g")) {
                t.extend(args.get(1));
            }
            for t in t {
                name_target(w, t, styles.clone(), "a zsh builtin's variable", at, ctx);
            }
        }
        b"zstyle" => {}
        _ => {
            // A module's builtin (`strftime -s name`, `sysread -i fd name`, `zstat -A
            // name`, `private name=value`…): which of its words names a variable depends
            // on its options; any may, and what it stores is run-time text.
            // Its numbers (a timeout, an offset, a descriptor) are arithmetic.
            // With no name, `REPLY` or `reply` (`sysread`, `zselect`…).
            for n in [&b"REPLY"[..], b"reply"] {
                let v = w.var(n);
                w.assign(Target::Var(v), Expr::unknown(), at, ctx);
            }
            for a in args {
                name_target(w, a, Expr::unknown(), "a zsh module's variable", at, ctx);
                let e = w.word_expr(a);
                w.site(
                    a.start,
                    crate::judge::evaluators::Evaluator::Arithmetic,
                    "a zsh module's numeric argument",
                    e,
                    None,
                );
            }
            return true;
        }
    }
    for t in targets {
        name_target(w, t, value.clone(), "a zsh builtin's variable", at, ctx);
    }
    false
}
