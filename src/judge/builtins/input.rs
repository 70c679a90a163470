//! The builtins that assign what they read: `read` (zsh's `vared`, `getln`), `mapfile`,
//! `getopts`.

use super::*;
use crate::judge::evaluators::Evaluator;
use crate::judge::facts::{Expr, Src, Target};
use crate::judge::value::{ByteSet, Val};
use crate::judge::walk::{Ctx, Walk};
use crate::shell::word::WordInfo;

/// `read`: what it reads goes to its targets (fields, lines), or `REPLY`.
#[allow(clippy::too_many_arguments)]
pub(super) fn read(
    w: &mut Walk<'_>,
    name: &[u8],
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
    here: &Ctx,
    own: Option<usize>,
) {
    let zsh = w.zsh();
    let leading = lits
        .iter()
        .take_while(|s| {
            s.as_deref()
                .is_some_and(|s| s.starts_with(b"-") && s.len() > 1)
        })
        .count();
    let options: Vec<&[u8]> = lits[..leading]
        .iter()
        .flatten()
        .map(Vec::as_slice)
        .collect();
    let other_fd = options.iter().any(|o| o != b"--" && o.contains(&b'u'));
    let raw = options.iter().any(|o| o != b"--" && o.contains(&b'r'));
    let mut value = if other_fd {
        Expr::unknown()
    } else {
        here.stdin.clone()
    };
    // `read -r v` from its own quoted heredoc: it reads the body from its first byte
    // each time it runs, and takes the first line.
    if let Some(i) = own
        && name == b"read"
        && raw
        && args.len() == leading + 1
        && lits.iter().all(Option::is_some)
        && options
            .iter()
            .all(|o| *o == b"--" || o[1..].iter().all(|c| b"rse".contains(c)))
    {
        value = Expr(vec![Src::Body {
            heredoc: i,
            first_line: true,
        }]);
    }
    let value = value.part(ByteSet::EMPTY);
    let mut k = 0;
    let mut targets = 0;
    while k < args.len() {
        match lits[k].as_deref() {
            Some(s) if s.starts_with(b"-") && s.len() > 1 && k < leading.max(1) + args.len() => {
                let takes = s.last().is_some_and(|l| b"adinNptu".contains(l));
                if zsh
                    && s.last().is_some_and(|l| b"tknu".contains(l))
                    && let Some(t) = args.get(k + 1)
                {
                    // zsh evaluates a timeout, a count or a descriptor as arithmetic.
                    let e = w.word_expr(t);
                    w.site(
                        t.start,
                        Evaluator::Arithmetic,
                        "zsh read's numeric options",
                        e,
                        None,
                    );
                }
                if (s.contains(&b'a') || (zsh && s.contains(&b'A')))
                    && let Some(t) = args.get(k + 1)
                {
                    name_target(w, t, value.clone(), "read", at, ctx);
                    targets += 1;
                }
                k += if takes { 2 } else { 1 };
            }
            _ => {
                name_target(w, &args[k], value.clone(), "read", at, ctx);
                targets += 1;
                k += 1;
            }
        }
    }
    if targets == 0 {
        let r = w.var(b"REPLY");
        w.assign(Target::Var(r), value, at, ctx);
    }
}

/// `mapfile`, `readarray`: its input's lines go to an array (`-C`'s callback is explicit).
pub(super) fn mapfile(
    w: &mut Walk<'_>,
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
    here: &Ctx,
) {
    let mut value = here.stdin.clone().part(ByteSet::EMPTY);
    let mut k = 0;
    let mut target = None;
    while k < args.len() {
        match lits[k].as_deref() {
            Some(s) if s.starts_with(b"-") && s.len() > 1 => {
                if s.contains(&b'u') {
                    value = Expr::unknown();
                }
                let takes = s.last().is_some_and(|l| b"dnOsucC".contains(l));
                k += if takes { 2 } else { 1 };
            }
            _ => {
                target = Some(k);
                k += 1;
            }
        }
    }
    match target.and_then(|t| args.get(t)) {
        Some(t) => match t.literal() {
            Some(n) => {
                let v = w.var(&n);
                w.facts.arrays.push(v);
                w.assign(Target::Var(v), value, at, ctx);
            }
            // bash checks the name before it evaluates anything.
            None => dynamic_assignment(w, Expr::default(), value, at, ctx),
        },
        None => {
            let v = w.var(b"MAPFILE");
            w.assign(Target::Var(v), value, at, ctx);
        }
    }
}

pub(super) fn getopts(
    w: &mut Walk<'_>,
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
) {
    // The option letters come from the command's own option string.
    let letters = match lits.first() {
        Some(Some(o)) => ByteSet::of(o).union(ByteSet::of(b"?:")),
        _ => ByteSet::ALL,
    };
    if let Some(t) = args.get(1) {
        if w.zsh() || t.literal().is_some() {
            name_target(w, t, Expr::val(Val::fixed(letters)), "getopts", at, ctx);
        } else {
            dynamic_assignment(w, Expr::default(), Expr::val(Val::fixed(letters)), at, ctx);
        }
    }
    let mut v = if args.len() > 2 {
        Expr::default()
    } else {
        Expr::var(w.var(b"@"))
    };
    for a in args.iter().skip(2) {
        v.join(w.word_expr(a));
    }
    let o = w.var(b"OPTARG");
    w.assign(Target::Var(o), v.part(ByteSet::EMPTY), at, ctx);
    let i = w.var(b"OPTIND");
    w.facts.assign(Target::Var(i), Expr::val(Val::number()), at);
}
