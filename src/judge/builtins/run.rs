//! What each builtin the judge follows does to the walk: one function per kind of
//! builtin ([`super::Kind`]), chosen by [`handler`]. The name table (`super::TABLE`) says
//! which kind a command name is in bash and in zsh; [`super::command`] works out the
//! name, what every command gives (calls, sourced files, wrappers) and calls the
//! kind's function with the command's words ([`Call`]).

use super::*;

/// A builtin's call: the command, its name and words, where it runs.
#[derive(Clone, Copy)]
pub(super) struct Call<'c> {
    pub c: &'c SimpleCommand,
    pub name: &'c [u8],
    /// Its arguments as written, and as read.
    pub raw_args: &'c [Word],
    pub args: &'c [WordInfo],
    /// Each argument's text where it is fixed (a glob, braces or a tilde may be any word).
    pub lits: &'c [Option<Vec<u8>>],
    /// Where its name stands.
    pub at: u32,
    pub ctx: &'c Ctx,
    /// The context its words are expanded in (its input, after its redirections).
    pub here: &'c Ctx,
    /// Its own heredoc, when it reads one.
    pub own: Option<usize>,
    pub zsh: bool,
}

/// What a builtin prints where it may print text the guard does not follow: run-time
/// text, or nothing.
fn run_time_text_if(prints: bool) -> Expr {
    if prints {
        Expr::unknown()
    } else {
        Expr::default()
    }
}

/// What a builtin of one kind does: what it prints (its output, for a capture or a pipe).
type Handler = fn(&mut Walk<'_>, &Call<'_>) -> Result<Expr, GaveUp>;

/// The function for builtins of kind `k`.
pub(super) fn handler(k: Kind) -> Handler {
    match k {
        Kind::Print => on_print,
        Kind::Cat => on_cat,
        Kind::Declare => on_declare,
        Kind::Read => on_read,
        Kind::Mapfile => on_mapfile,
        Kind::Getopts => on_getopts,
        Kind::Let => on_let,
        Kind::Unset => on_unset,
        Kind::Test => on_test,
        Kind::Cd => on_cd,
        Kind::Wait => on_wait,
        Kind::Compgen => on_compgen,
        Kind::Shopt => on_shopt,
        Kind::Set => on_set,
        Kind::Setopt => on_setopt,
        Kind::Emulate => on_emulate,
        Kind::Alias => on_alias,
        Kind::Numeric => on_numeric,
        Kind::ZshAssigning => on_zsh_assigning,
        Kind::Quiet => on_quiet,
        Kind::Other => on_other,
    }
}

fn on_print(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        name,
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    print(w, name, args, lits, at, ctx)
}

fn on_cat(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call { args, here, .. } = *call;
    Ok(cat(w, args, here))
}

fn on_declare(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        name,
        raw_args,
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    declare(w, name, raw_args, args, lits, at, ctx)
}

fn on_read(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        name,
        args,
        lits,
        at,
        ctx,
        here,
        own,
        zsh,
        ..
    } = *call;
    read(w, name, args, lits, at, ctx, here, own);
    // zsh's `read -e` prints what it read.
    Ok(if zsh {
        Expr::var(w.var(input::READ_ECHO))
    } else {
        Expr::default()
    })
}

fn on_mapfile(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        args,
        lits,
        at,
        ctx,
        here,
        ..
    } = *call;
    mapfile(w, args, lits, at, ctx, here);
    Ok(Expr::default())
}

fn on_getopts(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    getopts(w, args, lits, at, ctx);
    Ok(Expr::default())
}

fn on_let(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call { args, at, ctx, .. } = *call;
    for a in args {
        let e = w.word_expr(a);
        w.site(a.start, Evaluator::Arithmetic, "let", e, None);
        if let Some(t) = a.literal() {
            let x = crate::shell::word::arith(&crate::shell::text::Text::command(&t), &());
            let r = w.arith_result(&x);
            for n in x.assigned {
                let v = w.var(&n);
                w.assign(Target::Var(v), r.clone(), at, ctx);
            }
        }
    }
    Ok(Expr::default())
}

fn on_unset(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call { args, lits, .. } = *call;
    // (Options only before the first operand and up to `--`: `unset x -f "$k"`
    // unsets `-f` and `$k` as variables, round 102.)
    let mut functions = false;
    let mut options = true;
    for (a, l) in args.iter().zip(lits) {
        match l.as_deref() {
            Some(b"--") if options => options = false,
            Some(o) if options && o.starts_with(b"-") && o.len() > 1 => {
                if o[1..].contains(&b'f') {
                    functions = true;
                }
            }
            _ if functions => options = false,
            _ => {
                options = false;
                let e = w.word_expr(a);
                w.site(a.start, Evaluator::Name, "unset", e, None);
            }
        }
    }
    Ok(Expr::default())
}

fn on_test(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        name,
        args,
        lits,
        zsh,
        ..
    } = *call;
    let globbed = caret_globs(w, args);
    let args = globbed.as_deref().unwrap_or(args);
    // `test` reads operators by their values: a word computed at run time may be
    // `-v` (or zsh's `-t`) where an operator may stand (`[ "$o" "$n" ]`), and one
    // that may be several words (`"$@"`, `"${a[@]}"`, `$x`) may hold both `-v` and
    // its name. Where every word is one, POSIX's rules by their count say where
    // an operator may stand: the first of two, the first or second of three, and
    // anywhere in more (`!`, `(` and bash's full parse of longer tests).
    // (A glob or brace word may become any words: `[ * ]` in a directory holding
    // the files `-v` and `a[i]`.)
    let lits = unglobbed(args, lits);
    let count = args.len()
        - usize::from(name == b"[" && lits.last().and_then(|l| l.as_deref()) == Some(b"]"));
    let one_each = args.iter().all(|a| w.one_argument(a));
    let operator_at = |k: usize| !one_each || count > 3 || k == 0 || (count == 3 && k == 1);
    // (A literal operator after it is no name: `[ "$x" -gt 0 ]`, `[ "$a" = b ]`.)
    let operator_word = |l: &[u8]| {
        matches!(l, b"]" | b")" | b"=" | b"==" | b"!=" | b"<" | b">")
            || (l.len() > 1 && l[0] == b'-' && l[1..].iter().all(u8::is_ascii_alphabetic))
    };
    for (k, l) in lits.iter().enumerate() {
        if l.is_none() {
            let own = args.get(k).filter(|a| !w.one_argument(a));
            let next = args
                .get(k + 1)
                .filter(|_| k + 1 < count && operator_at(k))
                .filter(|_| {
                    !lits
                        .get(k + 1)
                        .and_then(|n| n.as_deref())
                        .is_some_and(operator_word)
                });
            for word in own.into_iter().chain(next).collect::<Vec<_>>() {
                let e = w.word_expr(word);
                w.site(word.start, Evaluator::Name, "test -v", e.clone(), None);
                if zsh {
                    w.site(word.start, Evaluator::Arithmetic, "zsh test -t", e, None);
                }
            }
            continue;
        }
        let Some(next) = args.get(k + 1) else { break };
        match l.as_deref() {
            Some(b"-v") => {
                let e = w.word_expr(next);
                w.site(next.start, Evaluator::Name, "test -v", e, None);
            }
            Some(b"-t") if zsh => {
                let e = w.word_expr(next);
                w.site(next.start, Evaluator::Arithmetic, "zsh test -t", e, None);
            }
            _ => {}
        }
    }
    Ok(Expr::default())
}

fn on_cd(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call { at, ctx, .. } = *call;
    // The directory the shell lands in may be named by heredoc text whatever the
    // words say: a link the command made is resolved where the shell goes
    // physical (`cd -P`, `set -P`, zsh's `chase_links` or `-w`) or where the path
    // it followed is gone (`cd L; rm ../L; cd .`).
    for n in [&b"PWD"[..], b"OLDPWD", b"DIRSTACK", b"dirstack"] {
        let t = w.var(n);
        w.assign(Target::Var(t), Expr::unknown(), at, ctx);
    }
    Ok(Expr::unknown())
}

fn on_wait(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    let p = getopt::parse_in(w, args, lits, b"fnp", b"p");
    if p.rejected {
        return Ok(Expr::default());
    }
    for t in p.args(b'p').map(getopt::OptArg::word).collect::<Vec<_>>() {
        name_target(w, &t, Expr::val(Val::number()), "wait -p", at, ctx);
    }
    if p.unread {
        dynamic_assignment(w, Expr::unknown(), Expr::val(Val::number()), at, ctx);
        // A computed word may be `-p` and the name after it, or hold both
        // (`"${u:-$@}"`): each is evaluated as a name.
        if let Some(k) = lits.iter().position(Option::is_none) {
            let own = args.get(k).filter(|a| !w.one_argument(a));
            for word in own.into_iter().chain(args.get(k + 1)).collect::<Vec<_>>() {
                let e = w.word_expr(word);
                w.site(word.start, Evaluator::Name, "wait -p", e, None);
            }
        }
    }
    Ok(Expr::default())
}

fn on_compgen(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    let p = getopt::parse_in(w, args, lits, b"abcdefgjksuvIEDACFGPSXWVo", b"ACFGPSXWVo");
    if p.rejected {
        return Ok(Expr::default());
    }
    for list in p.args(b'W').map(getopt::OptArg::word).collect::<Vec<_>>() {
        let e = w.word_expr(&list);
        w.site(list.start, Evaluator::WordList, "compgen -W", e, None);
    }
    for t in p.args(b'V').map(getopt::OptArg::word).collect::<Vec<_>>() {
        name_target(w, &t, Expr::unknown(), "compgen -V", at, ctx);
    }
    if p.unread {
        // An option the guard cannot read may be `-W` or `-V`.
        for a in args {
            let e = w.word_expr(a);
            w.site(a.start, Evaluator::WordList, "compgen -W", e, None);
        }
        dynamic_assignment(w, Expr::unknown(), Expr::unknown(), at, ctx);
    }
    Ok(Expr::unknown())
}

// (An option word that is a glob may name any option, a file the command made
// matching it: `set -o x?race`, `set -?` beside a file `-x`, round 101.)
fn on_shopt(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    shopt(w, &unglobbed(args, lits), at, ctx);
    Ok(Expr::default())
}

fn on_set(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    set(w, args, &unglobbed(args, lits), at, ctx);
    Ok(run_time_text_if(args.is_empty()))
}

fn on_setopt(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        name,
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    setopt(w, name, &unglobbed(args, lits), at, ctx);
    Ok(Expr::default())
}

fn on_emulate(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call { at, ctx, .. } = *call;
    // `emulate sh`/`ksh` turn prompt_subst and glob_subst on (`csh` glob_subst):
    // any emulation is taken to.
    w.facts.prompt_subst = true;
    w.facts.glob_subst = true;
    w.change(
        at,
        "zsh emulate, which sets options that change how zsh reads later text",
        When::Always,
        ctx,
    );
    Ok(Expr::default())
}

fn on_alias(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        c,
        name,
        args,
        lits,
        at,
        ctx,
        ..
    } = *call;
    alias(w, c, name, args, lits, at, ctx)?;
    // `alias` alone, `-p`, or a name without `=` prints definitions.
    let prints = args.is_empty()
        || lits
            .iter()
            .any(|l| l.as_deref().is_none_or(|l| !l.contains(&b'=')));
    Ok(run_time_text_if(prints))
}

fn on_numeric(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call { name, args, .. } = *call;
    // zsh `shift -p n`: the count after the option. Every word but `--` and
    // shift's option clusters (`-pp`) is judged: zsh's own option parsing is not
    // followed (`exit -- "$v"`, `shift -pp "$v"`, round 102).
    let option = |a: &WordInfo| {
        a.literal().is_some_and(|l| {
            l == b"--"
                || (name == b"shift"
                    && l.len() > 1
                    && l[0] == b'-'
                    && l[1..].iter().all(|&c| c == b'p'))
        })
    };
    // (zsh's `shift name` shifts an array, but evaluates a name that is none as
    // arithmetic: which it is, is not followed.)
    for a in args.iter().filter(|a| !option(a)) {
        let e = w.word_expr(a);
        w.site(
            a.start,
            Evaluator::Arithmetic,
            "a numeric argument of zsh's shift, return, exit, bye, logout, break or continue",
            e,
            None,
        );
    }
    Ok(Expr::default())
}

// (`stat -c …` is GNU's program, or zsh/stat's builtin refusing `-c` before it does
// anything: prints what the program prints.)
fn on_zsh_assigning(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        name,
        args,
        lits,
        at,
        ctx,
        here,
        ..
    } = *call;
    if name == b"stat" && output::zstat_refuses(lits) {
        let e = program_output(w, name, args, lits, here);
        Ok(Expr(vec![Src::Modelled(std::rc::Rc::new(e))]))
    } else {
        // (A module's builtin may also print: a date, a file's data, what it read.)
        Ok(run_time_text_if(zsh_assigning(
            w, name, args, lits, at, ctx,
        )))
    }
}

fn on_quiet(_w: &mut Walk<'_>, _call: &Call<'_>) -> Result<Expr, GaveUp> {
    Ok(Expr::default())
}

// (A model by the name's last part holds only for the program the name finds: not
// for a path the command may have made, `./d/wc`, nor where it may change what
// the name runs, `PATH=d wc`: round 69.)
fn on_other(w: &mut Walk<'_>, call: &Call<'_>) -> Result<Expr, GaveUp> {
    let Call {
        name,
        args,
        lits,
        here,
        ..
    } = *call;
    let e = program_output(w, name, args, lits, here);
    Ok(if name.contains(&b'/') {
        let mut any = Expr::unknown();
        any.join(e);
        any
    } else {
        Expr(vec![Src::Modelled(std::rc::Rc::new(e))])
    })
}
