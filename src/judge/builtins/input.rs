//! The builtins that assign what they read: `read` (zsh's `vared`, `getln`), `mapfile`,
//! `getopts`.

use super::*;
use crate::judge::evaluators::Evaluator;
use crate::judge::facts::{Expr, Src, Target, When};
use crate::judge::value::{ByteSet, Val};
use crate::judge::walk::{Ctx, Walk};
use crate::shell::word::WordInfo;

/// What zsh's `read -e` echoed, as the judge keeps it.
pub(super) const READ_ECHO: &[u8] = b"\0zsh-read-echo";

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
    // zsh's `-k` and `-t` take a number when one follows; `-A` makes the first name an
    // array. bash's `-a` takes the array's name.
    let p = if zsh {
        getopt::parse_in(w, args, lits, b"rszpqAclneEktdu", b"du")
    } else {
        getopt::parse_in(w, args, lits, b"aderinNpstuE", b"adinNptu")
    };
    if zsh {
        // A number written right after `-t` or `-k` in an option word (`-t1+x`): also
        // evaluated as arithmetic (whatever follows it, which the parse above rejects and
        // zsh reads as the number).
        for (word, lit) in args.iter().zip(lits) {
            if lit.as_deref() == Some(b"--".as_slice()) {
                break;
            }
            let dash = matches!(word.pieces.first(), Some(crate::shell::word::Piece::Lit(l)) if l.starts_with(b"-"));
            let attached = dash
                && match lit {
                    Some(l) => l
                        .iter()
                        .position(|&c| matches!(c, b't' | b'k'))
                        .is_some_and(|k| k + 1 < l.len()),
                    // (`-t$n`: what follows is not known.)
                    None => true,
                };
            if attached {
                let e = w.word_expr(word);
                w.site(
                    word.start,
                    Evaluator::Arithmetic,
                    "zsh read's numeric options",
                    e,
                    None,
                );
            }
        }
    }
    if p.rejected {
        // (zsh takes a number written after `-k` or `-t`, `-k1`, which the letters above
        // do not: its names are still names. A letter zsh does not take makes it stop.)
        let numbers_only = || {
            lits.iter()
                .flatten()
                .filter(|l| l.starts_with(b"-"))
                .all(|l| {
                    let mut prev = b'-';
                    for &c in l.iter().skip(1) {
                        if matches!(prev, b'd' | b'u') {
                            // (The rest of the word is the option's argument.)
                            return true;
                        }
                        let ok = b"rszpqAclneEktdu".contains(&c)
                            || (c.is_ascii_digit()
                                && (matches!(prev, b'k' | b't') || prev.is_ascii_digit()));
                        if !ok {
                            return false;
                        }
                        prev = c;
                    }
                    true
                })
        };
        if zsh && numbers_only() {
            super::computed_names(w, args, lits, "read");
            for t in p.operands {
                name_target(w, t, Expr::unknown(), "read", at, ctx);
            }
        }
        return;
    }
    let other_fd = p.has(b'u') || p.unread;
    let mut value = if other_fd {
        Expr::unknown()
    } else if zsh && (p.has(b'z') || name == b"getln") {
        // zsh's buffer stack: what `print -z` pushed.
        Expr::var(w.var(super::output::ZSH_STACK))
    } else {
        here.stdin.clone()
    };
    if zsh && (p.has(b'e') || p.has(b'E')) {
        // zsh's `read -e` echoes what it reads: its output is that input.
        let out = w.var(READ_ECHO);
        w.assign(Target::Var(out), value.clone(), at, ctx);
    }
    // `read -r v` from its own quoted heredoc: it reads the body from its first byte
    // each time it runs, and takes the first line.
    if let Some(i) = own
        && name == b"read"
        && p.has(b'r')
        && !p.unread
        && p.opts.iter().all(|(l, _)| b"rse".contains(l))
        && p.operands.len() == 1
        && lits.iter().all(Option::is_some)
    {
        value = Expr(vec![Src::Body {
            heredoc: i,
            first_line: true,
        }]);
    }
    // `read -r a b c`: each name gets its field of a line (split with IFS), exactly
    // where the lines are exact; other options read otherwise: a part of the input.
    let by_field = !other_fd
        && p.has(b'r')
        && p.opts.iter().all(|(l, _)| b"rs".contains(l))
        && !(zsh && (p.has(b'z') || name == b"getln"));
    let whole = value.clone();
    let value = value.part(ByteSet::EMPTY);
    let mut targets = 0;
    if zsh
        && (p.has(b'k') || p.has(b't'))
        && let Some(t) = p.operands.first()
    {
        // zsh evaluates a timeout or a count as arithmetic (the word after `-t` or `-k`
        // may be one, or the first name).
        let e = w.word_expr(t);
        w.site(
            t.start,
            Evaluator::Arithmetic,
            "zsh read's numeric options",
            e,
            None,
        );
    }
    for a in p.args(b'a').map(getopt::OptArg::word).collect::<Vec<_>>() {
        if let Some(n) = a.literal() {
            let (base, _) = split_subscript(&n);
            if crate::shell::syntax::legal_identifier(base) {
                let v = w.var(base);
                w.facts.arrays.push(v);
            }
        }
        name_target(w, &a, value.clone(), "read", at, ctx);
        targets += 1;
    }
    let n = p.operands.len();
    for (k, t) in p.operands.iter().enumerate() {
        let v = if by_field {
            Expr(vec![Src::Field {
                inner: std::rc::Rc::new(whole.clone()),
                index: k,
                last: k + 1 == n,
            }])
        } else {
            value.clone()
        };
        // zsh's `read 'name?prompt'`: the name is what comes before the `?` (the prompt
        // is only printed).
        if zsh
            && k == 0
            && let Some(crate::shell::word::Piece::Lit(l)) = t.pieces.first()
            && let Some(q) = l.iter().position(|&c| c == b'?')
            && crate::shell::syntax::legal_identifier(&l[..q])
        {
            let x = w.var(&l[..q]);
            w.assign(Target::Var(x), v, at, ctx);
            targets += 1;
            continue;
        }
        name_target(w, t, v, "read", at, ctx);
        targets += 1;
    }
    if p.unread {
        // An option the guard cannot read may name any variable.
        dynamic_assignment(w, Expr::unknown(), value.clone(), at, ctx);
    }
    if targets == 0 || p.unread {
        let r = w.var(b"REPLY");
        w.assign(Target::Var(r), value.clone(), at, ctx);
        if w.zsh() {
            // zsh's `read -A` with no name: the array `reply`.
            let r = w.var(b"reply");
            w.assign(Target::Var(r), value, at, ctx);
        }
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
    let p = getopt::parse_in(w, args, lits, b"dnOsutCc", b"dnOsuCc");
    if p.rejected {
        return;
    }
    let value = if p.has(b'u') || p.unread {
        Expr::unknown()
    } else {
        here.stdin.clone().part(ByteSet::EMPTY)
    };
    if p.unread {
        dynamic_assignment(w, Expr::unknown(), value.clone(), at, ctx);
    }
    if p.has(b'C') || p.unread {
        // (Text it runs in this shell, which may source a file.)
        w.sources_anywhere = true;
        // The callback runs with each line: it may define an alias from one.
        w.change(
            at,
            "mapfile's callback, which may define an alias that makes a heredoc operator",
            When::MakesOperator(value.clone()),
            ctx,
        );
    }
    match p.operands.first() {
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
    if w.zsh() {
        // (One word may give both the option string and the name: `getopts "$@"`.)
        super::computed_names(w, args, lits, "getopts");
    }
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
