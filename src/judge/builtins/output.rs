//! What commands print: `echo`, `printf` and zsh's `print` (and `-v`), `cat`, and the few
//! programs whose output the guard can show (numbers, the system's text, a part of their
//! input); every other program prints run-time text.

use super::*;
use crate::judge::evaluators::Evaluator;
use crate::judge::facts::{Expr, Needs, Src};
use crate::judge::value::{ByteSet, Val};
use crate::judge::walk::{Ctx, Out, Walk};
use crate::shell::word::{Piece, WordInfo};

/// What a program prints, where the guard can show it: a few programs print numbers or
/// the system's text (never text they read), or a part of their input; every other
/// program prints run-time text (it may read the command's own text, a file the command
/// wrote, its input).
pub(super) fn program_output(
    w: &mut Walk<'_>,
    name: &[u8],
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    here: &Ctx,
) -> Expr {
    let base = name.rsplit(|&c| c == b'/').next().unwrap_or(name);
    let mut args_part = Expr::default();
    for a in args {
        args_part.join(w.word_expr(a));
    }
    let args_part = || args_part.clone().part(ByteSet::of(b" \n"));
    let has = |o: &[u8]| lits.iter().any(|l| l.as_deref() == Some(o));
    let files = lits.iter().any(|l| {
        l.as_deref()
            .is_none_or(|l| !l.starts_with(b"-") || l == b"-")
    });
    match base {
        // Counts, and the names it was given.
        b"wc" | b"nproc" | b"seq" => {
            let mut e = Expr::val(Val::number());
            e.join(args_part());
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
        b"git"
            if lits
                .first()
                .is_some_and(|l| l.as_deref() == Some(b"rev-list"))
                && has(b"--count") =>
        {
            Expr::val(Val::number())
        }
        // The system's text (a date, a name, a number), or its format from the words.
        b"date" | b"uname" | b"whoami" | b"hostname" | b"id" | b"logname" | b"arch"
        | b"getconf" | b"tput" | b"mktemp" => {
            let mut e = Expr::val(Val::env());
            e.join(args_part());
            e
        }
        // A path made from the words, or the working directory.
        b"basename" | b"dirname" | b"realpath" | b"readlink" | b"pwd" => {
            let mut e = Expr::val(Val::env());
            e.join(args_part());
            let pwd = w.var(b"PWD");
            e.join(Expr::var(pwd));
            e
        }
        // Lines of its input, in part.
        b"head" | b"tail" | b"sort" | b"uniq" | b"cut" if !files => {
            here.stdin.clone().part(ByteSet::of(b" \n"))
        }
        _ => Expr::unknown(),
    }
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
            Some(o) if o.starts_with(b"-") => {}
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
) -> Result<Expr, Out> {
    let zsh = w.zsh();
    let base = name.rsplit(|&c| c == b'/').next().unwrap_or(name);
    let mut k = 0;
    let mut target: Option<&WordInfo> = None;
    let mut target_lit: Option<Vec<u8>> = None;
    let mut prompt = false;
    if base != b"echo" {
        while k < args.len() {
            match lits[k].as_deref() {
                Some(b"-v") => {
                    target = args.get(k + 1);
                    k += 2;
                }
                Some(b"--") => {
                    k += 1;
                    break;
                }
                Some(o) if base == b"printf" && o.starts_with(b"-v") && o.len() > 2 => {
                    target_lit = Some(o[2..].to_vec());
                    k += 1;
                }
                Some(o) if base == b"print" && o.starts_with(b"-") && o.len() > 1 => {
                    if o.contains(&b'P') {
                        prompt = true;
                    }
                    if o.contains(&b'v') {
                        target = args.get(k + 1);
                        k += 1;
                    }
                    k += 1;
                }
                _ => break,
            }
        }
    }
    let rest = args.get(k..).unwrap_or(&[]);
    // The printed text: the words (with their escapes) or a format's conversions.
    let mut parts = Vec::with_capacity(rest.len());
    for a in rest {
        parts.push(w.word_expr(a));
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
    if zsh && base == b"printf" {
        // zsh evaluates the arguments of numeric conversions as arithmetic.
        if let Some(f) = rest.first().and_then(WordInfo::literal)
            && f.windows(2)
                .any(|p| p[0] == b'%' && !matches!(p[1], b's' | b'c' | b'%' | b'b' | b'q'))
        {
            for (a, e) in rest.iter().zip(&parts).skip(1) {
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
    let exact = printed(base, lits.get(k..).unwrap_or(&[]));
    let out = match exact {
        Some(t) => Expr::lit(&t),
        // Escapes (`\044`, `%b`, zsh's echo) can make any byte of heredoc text.
        None => Expr::glue(parts).wild(),
    };
    if let Some(t) = target {
        name_target(w, t, out.clone(), "printf -v", at, ctx);
        return Ok(Expr::default());
    }
    if let Some(n) = target_lit {
        let word = WordInfo {
            start: at,
            end: at,
            pieces: vec![Piece::Lit(n)],
            ..WordInfo::default()
        };
        name_target(w, &word, out, "printf -v", at, ctx);
        return Ok(Expr::default());
    }
    Ok(out)
}

/// The most bytes a computed `printf` is followed for.
const MAX_PRINTED: usize = 64 * 1024;

/// The exact output of `echo` or `printf` given literal words without options or escapes
/// (`printf` with `%s` and `%%` only, and `\n`), or `None`.
fn printed(name: &[u8], lits: &[Option<Vec<u8>>]) -> Option<Vec<u8>> {
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
            out.push(b'\n');
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
