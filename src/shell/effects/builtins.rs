//! What each builtin does with its arguments after expansion: the builtins of bash (and
//! zsh where they differ), which of them change nothing the guard follows, and for the
//! others what they change: the reading (`alias`, `shopt`, `set`), a name (`hash`,
//! `enable`), a variable (`declare`, `read`, `mapfile`, `printf -v`), or what runs (`eval`,
//! `source`, `trap`, `fc`).

use super::program::build;
use super::value::Val;
use super::{
    Ctx, Effect, Judge, MAX_NEST, Prog, Taint, literal_prefix_assignment, pin, split_subscript,
};
use crate::shell::text::Text;
use crate::shell::tree::SimpleCommand;
use crate::shell::word::{self, WordInfo};
use crate::shell::{Dialect, Shell};

/// The builtins of bash (5.3), and of zsh where they differ.
pub(super) const BASH_BUILTINS: [&[u8]; 61] = [
    b".",
    b":",
    b"[",
    b"alias",
    b"bg",
    b"bind",
    b"break",
    b"builtin",
    b"caller",
    b"cd",
    b"command",
    b"compgen",
    b"complete",
    b"compopt",
    b"continue",
    b"declare",
    b"dirs",
    b"disown",
    b"echo",
    b"enable",
    b"eval",
    b"exec",
    b"exit",
    b"export",
    b"false",
    b"fc",
    b"fg",
    b"getopts",
    b"hash",
    b"help",
    b"history",
    b"jobs",
    b"kill",
    b"let",
    b"local",
    b"logout",
    b"mapfile",
    b"popd",
    b"printf",
    b"pushd",
    b"pwd",
    b"read",
    b"readarray",
    b"readonly",
    b"return",
    b"set",
    b"shift",
    b"shopt",
    b"source",
    b"suspend",
    b"test",
    b"times",
    b"trap",
    b"true",
    b"type",
    b"typeset",
    b"ulimit",
    b"umask",
    b"unalias",
    b"unset",
    b"wait",
];
pub(super) const ZSH_BUILTINS: [&[u8]; 46] = [
    b"autoload",
    b"bindkey",
    b"bye",
    b"cap",
    b"chdir",
    b"clone",
    b"compctl",
    b"disable",
    b"echotc",
    b"echoti",
    b"emulate",
    b"float",
    b"functions",
    b"getcap",
    b"getln",
    b"integer",
    b"limit",
    b"noglob",
    b"nocorrect",
    b"print",
    b"pushln",
    b"r",
    b"rehash",
    b"sched",
    b"setcap",
    b"setopt",
    b"stat",
    b"ttyctl",
    b"unfunction",
    b"unhash",
    b"unlimit",
    b"unsetopt",
    b"vared",
    b"whence",
    b"where",
    b"which",
    b"zcompile",
    b"zformat",
    b"zle",
    b"zmodload",
    b"zparseopts",
    b"zprof",
    b"zpty",
    b"zregexparse",
    b"zsocket",
    b"zstyle",
];

/// Builtins that change nothing the guard follows: no reading, no name, no variable it
/// does not see assigned, nothing evaluated.
pub(super) const INERT: [&[u8]; 39] = [
    b":",
    b"true",
    b"false",
    b"echo",
    b"pwd",
    b"dirs",
    b"jobs",
    b"times",
    b"type",
    b"help",
    b"caller",
    b"umask",
    b"ulimit",
    b"wait",
    b"bg",
    b"fg",
    b"disown",
    b"kill",
    b"suspend",
    b"logout",
    b"exit",
    b"return",
    b"break",
    b"continue",
    b"shift",
    b"bind",
    b"complete",
    b"compopt",
    b"history",
    b"bye",
    b"whence",
    b"where",
    b"which",
    b"rehash",
    b"unhash",
    b"unfunction",
    b"zstyle",
    b"limit",
    b"unlimit",
];

/// Locales whose characters bash reads as it reads ASCII (UTF-8 and single-byte sets).
pub(super) fn plain_locale(v: &[u8]) -> bool {
    let lower = v.to_ascii_lowercase();
    let charset = match lower.iter().position(|&c| c == b'.') {
        Some(dot) => &lower[dot + 1..],
        None => return true,
    };
    let charset = charset.split(|&c| c == b'@').next().unwrap_or(charset);
    matches!(charset, b"utf-8" | b"utf8")
        || charset.starts_with(b"iso-8859")
        || charset.starts_with(b"iso8859")
        || matches!(charset, b"ascii" | b"us-ascii" | b"ansi_x3.4-1968")
}

impl Judge {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn builtin(
        &mut self,
        prog: &Prog<'_>,
        c: &SimpleCommand,
        name: &[u8],
        args: &[WordInfo],
        at: u32,
        ctx: &Ctx,
        here: &Ctx,
    ) -> Val {
        let from = ctx.from(c.end);
        let zsh = self.d.shell == Shell::Zsh;
        let vals: Vec<Val> = args.iter().map(|a| self.word_val(a, prog)).collect();
        let statics: Vec<Option<Vec<u8>>> = args.iter().map(WordInfo::value).collect();
        match name {
            n if INERT.contains(&n) => {}
            b"alias" | b"unalias" => {
                if zsh {
                    // zsh reads the whole command before it runs any of it: an alias it
                    // defines is not expanded in it (measured, zsh 5.9).
                    return Val::opaque();
                }
                let mut all = Vec::with_capacity(c.words.len());
                all.extend(c.words.iter().map(|w| word::read(&w.text, &prog.ends)));
                match crate::shell::alias::command(&all) {
                    crate::shell::alias::AliasCommand::Define(_) => {
                        if ctx.nested > 0 || ctx.in_function {
                            self.effect(Effect::Unfollowed {
                                at,
                                what: "an alias defined inside a function, eval or trap text",
                            });
                        }
                    }
                    crate::shell::alias::AliasCommand::Unfollowed(_) => self.effect(Effect::Unfollowed {
                        at,
                        what: "an alias definition whose value the guard cannot read (computed, several lines, or an open quote)",
                    }),
                    crate::shell::alias::AliasCommand::None => {
                        // `alias` reached some other way (a computed name).
                        self.effect(Effect::Unfollowed {
                            at,
                            what: "an alias definition the guard cannot read",
                        });
                    }
                    crate::shell::alias::AliasCommand::Remove(..) => {}
                }
            }
            b"shopt" => self.shopt(&statics, at),
            b"set" => self.set(prog, &statics, &vals, at),
            b"setopt" | b"unsetopt" | b"emulate" => {
                let inert = name != b"emulate"
                    && statics.iter().all(|s| {
                        s.as_deref().is_some_and(|s| {
                            let s: Vec<u8> = s
                                .iter()
                                .filter(|&&c| c != b'_')
                                .map(u8::to_ascii_lowercase)
                                .collect();
                            let s = s.strip_prefix(b"no").unwrap_or(&s);
                            matches!(
                                s,
                                b"errexit"
                                    | b"pipefail"
                                    | b"nullglob"
                                    | b"nomatch"
                                    | b"clobber"
                                    | b"err_return"
                                    | b"errreturn"
                                    | b"unset"
                                    | b"verbose"
                                    | b"localoptions"
                            )
                        })
                    });
                if !inert {
                    self.effect(Effect::Unfollowed {
                        at,
                        what: "a zsh option, which can change how zsh reads later lines",
                    });
                }
                if name == b"emulate"
                    && let Some(k) = statics.iter().position(|s| s.as_deref() == Some(b"-c"))
                {
                    self.eval_text(
                        prog,
                        args.get(k + 1..).unwrap_or(&[]),
                        vals.get(k + 1..).unwrap_or(&[]),
                        at,
                        ctx,
                    );
                }
            }
            b"declare" | b"typeset" | b"local" | b"export" | b"readonly" | b"integer"
            | b"float" => self.declare(prog, name, args, &statics, &vals, at, ctx),
            b"read" | b"getln" | b"vared" => self.read(args, &statics, here, at, ctx, prog),
            b"mapfile" | b"readarray" => self.mapfile(args, &statics, &vals, here, at, ctx, prog),
            b"printf" | b"print" => self.printf(name, args, &statics, &vals, at, ctx, prog),
            b"getopts" => {
                if let Some(target) = args.get(1) {
                    match target.value() {
                        Some(n) => self.assign(&n, None, &Val::opaque(), at, ctx, prog),
                        None => self.assign_dynamic(&vals[1], at, "getopts's variable"),
                    }
                }
                let mut v = self.var(b"@");
                for x in vals.iter().skip(2) {
                    v.join(x);
                }
                self.assign_val(b"OPTARG", &v, false);
            }
            b"let" => {
                for a in args {
                    self.arith_operand(a, prog);
                    if let Some(t) = a.value() {
                        let x = word::arith(&Text::command(&t), &());
                        for n in x.assigned {
                            self.assign(&n, None, &Val::num(), at, ctx, prog);
                        }
                    }
                }
            }
            b"eval" => self.eval_text(prog, args, &vals, at, ctx),
            b"." | b"source" => {
                let path = vals.first().cloned().unwrap_or_else(Val::opaque);
                let stdin_path = statics
                    .first()
                    .and_then(|s| s.as_deref())
                    .is_some_and(|p| p.starts_with(b"/dev/") || p.starts_with(b"/proc/"));
                if path.heredoc() || (here.stdin.heredoc() && (stdin_path || path.opaque)) {
                    self.check_code(
                        &Val::body(),
                        at,
                        "source, which runs heredoc text in this shell",
                    );
                    if !path.heredoc() {
                        self.effect(Effect::Flow {
                            at,
                            taint: Taint::Body,
                            what: "source, which runs heredoc text in this shell",
                            in_body: None,
                        });
                    }
                }
                self.unknown(at, ctx, "source, which runs a file's text in this shell");
            }
            b"trap" => {
                let first = statics.first().cloned().flatten();
                let is_option = first.as_deref().is_some_and(|f| f.starts_with(b"-"));
                if !args.is_empty() && !is_option && args.len() >= 2 {
                    self.eval_text(prog, &args[..1], &vals[..1], at, ctx);
                }
            }
            b"fc" | b"r" => {
                let list = statics.iter().any(|s| {
                    s.as_deref()
                        .is_some_and(|s| s.starts_with(b"-") && s.contains(&b'l'))
                });
                if !list {
                    self.effect(Effect::Flow {
                        at,
                        taint: Taint::Body,
                        what: "fc, which runs commands from the history (and the history holds this command's own text)",
                        in_body: None,
                    });
                }
            }
            b"hash" => {
                if zsh {
                    for (k, s) in statics.iter().enumerate() {
                        match s {
                            Some(s) if s.starts_with(b"-") => {}
                            Some(s) => {
                                if let Some(eq) = s.iter().position(|&c| c == b'=') {
                                    self.rebind(s[..eq].to_vec(), from, "the command that reads the heredoc is bound elsewhere by hash");
                                }
                            }
                            None => {
                                let _ = k;
                                self.any(from, "names bound by hash at run time");
                            }
                        }
                    }
                } else if let Some(p) = statics.iter().position(|s| s.as_deref() == Some(b"-p")) {
                    for s in statics.iter().skip(p + 2) {
                        match s {
                            Some(n) => self.rebind(
                                n.clone(),
                                from,
                                "the command that reads the heredoc is bound elsewhere by hash -p",
                            ),
                            None => self.any(from, "names bound by hash -p at run time"),
                        }
                    }
                    if statics.len() <= p + 2 || statics.get(p + 1).is_some_and(Option::is_none) {
                        self.any(from, "names bound by hash -p at run time");
                    }
                } else if statics.iter().any(Option::is_none) {
                    self.any(from, "names bound by hash at run time");
                }
            }
            b"enable" => {
                let load = statics.iter().any(|s| {
                    s.as_deref()
                        .is_some_and(|s| s.starts_with(b"-") && s.contains(&b'f'))
                });
                if load || statics.iter().any(Option::is_none) {
                    for s in statics.iter().flatten().filter(|s| !s.starts_with(b"-")) {
                        self.rebind(
                            s.clone(),
                            from,
                            "the command that reads the heredoc is a builtin loaded by enable -f",
                        );
                    }
                    self.unknown(at, ctx, "enable -f, which loads a builtin's code");
                    if statics.iter().any(Option::is_none) {
                        self.any(from, "builtins loaded by enable at run time");
                    }
                }
            }
            b"compgen" | b"complete" => {
                for (k, s) in statics.iter().enumerate() {
                    match s.as_deref() {
                        Some(b"-W") | Some(b"-C") => {
                            if let Some(v) = vals.get(k + 1) {
                                self.check_code(
                                    v,
                                    at,
                                    "compgen, which expands its word list or runs its command",
                                );
                            }
                        }
                        _ => {}
                    }
                }
                if name == b"compgen" && vals.iter().any(|v| v.opaque) {
                    // A word list or command this command does not fix.
                    self.unknown(
                        at,
                        ctx,
                        "compgen with a word list or command computed at run time",
                    );
                }
            }
            b"unset" => {
                let mut functions = false;
                for (k, s) in statics.iter().enumerate() {
                    match s.as_deref() {
                        Some(b"-f") => functions = true,
                        Some(o) if o.starts_with(b"-") => {}
                        _ if functions => {}
                        _ => self.check_name(
                            &vals[k],
                            args[k].start,
                            None,
                            "unset, which evaluates a subscript",
                        ),
                    }
                }
            }
            b"test" | b"[" => {
                for (k, s) in statics.iter().enumerate() {
                    if s.as_deref() == Some(b"-v")
                        && let Some(v) = vals.get(k + 1)
                    {
                        self.check_name(v, at, None, "test -v, which evaluates a subscript");
                    }
                }
            }
            b"cd" | b"pushd" | b"popd" | b"chdir" => {
                let mut v = Val::opaque();
                for x in &vals {
                    v.join(x);
                }
                for n in [&b"PWD"[..], b"OLDPWD", b"DIRSTACK"] {
                    self.assign_val(n, &v, false);
                }
            }
            b"autoload" | b"zmodload" | b"sched" | b"zcompile" | b"functions" | b"zle"
            | b"zpty" | b"zsocket" | b"ztcp" | b"clone" | b"zparseopts" | b"zformat"
            | b"zregexparse" | b"bindkey" | b"compctl" => {
                if name == b"sched"
                    || name == b"functions"
                    || name == b"autoload"
                    || name == b"zmodload"
                {
                    self.unknown(
                        at,
                        ctx,
                        "a zsh builtin that loads or runs code the guard does not see",
                    );
                }
            }
            _ => self.unknown(at, ctx, "a builtin whose effect the guard does not model"),
        }
        Val::opaque()
    }

    fn shopt(&mut self, statics: &[Option<Vec<u8>>], at: u32) {
        let mut set = None;
        let mut o_mode = false;
        for s in statics {
            let Some(s) = s else {
                self.effect(Effect::Unfollowed {
                    at,
                    what: "shopt with an option named at run time",
                });
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
                        self.effect(Effect::Unfollowed { at, what });
                    }
                    if o_mode && on && matches!(name, b"xtrace") {
                        self.xtrace.get_or_insert(at);
                    }
                }
            }
        }
    }

    fn set(&mut self, prog: &Prog<'_>, statics: &[Option<Vec<u8>>], vals: &[Val], at: u32) {
        let mut k = 0;
        while k < statics.len() {
            let Some(s) = &statics[k] else {
                self.effect(Effect::Unfollowed {
                    at,
                    what: "set with an option named at run time",
                });
                return;
            };
            if s == b"--" || !(s.starts_with(b"-") || s.starts_with(b"+")) {
                // The rest are the positional parameters.
                let start = if s == b"--" { k + 1 } else { k };
                let mut v = Val::default();
                for x in vals.iter().skip(start) {
                    v.join(x);
                }
                if start < vals.len() {
                    for p in [
                        &b"@"[..],
                        b"*",
                        b"1",
                        b"2",
                        b"3",
                        b"4",
                        b"5",
                        b"6",
                        b"7",
                        b"8",
                        b"9",
                    ] {
                        self.assign_val(p, &v, false);
                    }
                }
                let _ = prog;
                return;
            }
            let on = s.starts_with(b"-");
            let letters = &s[1..];
            if letters.contains(&b'o') {
                match statics.get(k + 1) {
                    Some(Some(name)) => {
                        if let Some(what) = set_option_effect(name, on) {
                            self.effect(Effect::Unfollowed { at, what });
                        }
                        if on && name == b"xtrace" {
                            self.xtrace.get_or_insert(at);
                        }
                        k += 1;
                    }
                    Some(None) => {
                        self.effect(Effect::Unfollowed {
                            at,
                            what: "set -o with an option named at run time",
                        });
                        return;
                    }
                    None => {}
                }
            }
            for &l in letters {
                let what = match l {
                    b'H' if on => Some("set -H, which turns history expansion on for later lines"),
                    b'k' if on => {
                        Some("set -k, which changes how the words of later commands are read")
                    }
                    _ => None,
                };
                if let Some(what) = what {
                    self.effect(Effect::Unfollowed { at, what });
                }
                if l == b'x' && on {
                    self.xtrace.get_or_insert(at);
                }
            }
            k += 1;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn declare(
        &mut self,
        prog: &Prog<'_>,
        name: &[u8],
        args: &[WordInfo],
        statics: &[Option<Vec<u8>>],
        vals: &[Val],
        at: u32,
        ctx: &Ctx,
    ) {
        let mut integer = name == b"integer";
        let mut nameref = false;
        let mut functions = false;
        let mut options = true;
        for (k, a) in args.iter().enumerate() {
            if options {
                match &statics[k] {
                    Some(s) if s == b"--" => {
                        options = false;
                        continue;
                    }
                    Some(s) if (s.starts_with(b"-") || s.starts_with(b"+")) && s.len() > 1 => {
                        let on = s.starts_with(b"-");
                        if s.contains(&b'i') && on {
                            integer = true;
                        }
                        if s.contains(&b'n') && on {
                            nameref = true;
                        }
                        if s.contains(&b'f') || s.contains(&b'F') {
                            functions = true;
                        }
                        continue;
                    }
                    _ => options = false,
                }
            }
            if functions {
                continue;
            }
            // `name`, `name=value`, `name[sub]=value`, `name=(…)`.
            match statics[k].as_deref() {
                Some(s) => {
                    let (target, value) = match s.iter().position(|&c| c == b'=') {
                        Some(eq) => (&s[..eq], Some(Val::lit(s[eq + 1..].to_vec()))),
                        None => (s, None),
                    };
                    let target = target.strip_suffix(b"+").unwrap_or(target);
                    let (base, sub) = split_subscript(target);
                    if !crate::shell::lexer::legal_identifier(base) {
                        continue;
                    }
                    if let Some(sub) = sub {
                        let a = word::arith(&Text::command(sub), &());
                        self.check_arith(&a, prog, None);
                    }
                    if integer {
                        self.vars.entry(base.to_vec()).or_default().integer = true;
                    }
                    let v = value.unwrap_or_else(|| self.var(base));
                    if nameref {
                        self.nameref(&v, at);
                    }
                    self.assign(base, None, &v, at, ctx, prog);
                }
                None => {
                    // A word with expansions: `name=$value` keeps the name literal.
                    match literal_prefix_assignment(a) {
                        Some((target, value_pieces)) => {
                            let (base, sub) = split_subscript(&target);
                            if !crate::shell::lexer::legal_identifier(base) {
                                self.assign_dynamic(&vals[k], at, "declare");
                                continue;
                            }
                            if let Some(sub) = sub {
                                let x = word::arith(&Text::command(sub), &());
                                self.check_arith(&x, prog, None);
                            }
                            let vw = WordInfo {
                                start: a.start,
                                end: a.end,
                                pieces: value_pieces,
                                many: false,
                                tilde: a.tilde,
                                unread: a.unread,
                            };
                            let v = self.word_val(&vw, prog);
                            if integer {
                                self.vars.entry(base.to_vec()).or_default().integer = true;
                            }
                            if nameref {
                                self.nameref(&v, at);
                            }
                            let base = base.to_vec();
                            self.assign(&base, None, &v, at, ctx, prog);
                        }
                        None => self.assign_dynamic(&vals[k], at, "declare"),
                    }
                }
            }
        }
    }

    /// `declare -n r=target`: assignments to `r` go to the target.
    fn nameref(&mut self, target: &Val, at: u32) {
        match target.single() {
            Some(t) if crate::shell::lexer::legal_identifier(split_subscript(t).0) => {
                let (base, sub) = split_subscript(t);
                if matches!(
                    base,
                    b"POSIXLY_CORRECT"
                        | b"BASH_ALIASES"
                        | b"BASH_CMDS"
                        | b"BASH_COMPAT"
                        | b"BASH_ENV"
                        | b"ENV"
                        | b"PS4"
                ) || sub.is_some()
                {
                    self.effect(Effect::Unfollowed {
                        at,
                        what: "a nameref to a variable that changes how the shell reads or runs commands",
                    });
                }
            }
            _ => self.assign_dynamic(
                target,
                at,
                "declare -n, which names the variable assignments go to",
            ),
        }
    }

    fn read(
        &mut self,
        args: &[WordInfo],
        statics: &[Option<Vec<u8>>],
        here: &Ctx,
        at: u32,
        ctx: &Ctx,
        prog: &Prog<'_>,
    ) {
        let v = if here.stdin.heredoc() {
            here.stdin.clone()
        } else {
            Val::opaque()
        };
        let mut k = 0;
        let mut targets = 0;
        while k < args.len() {
            match statics[k].as_deref() {
                Some(s) if s.starts_with(b"-") && s.len() > 1 => {
                    let takes = s.last().is_some_and(|l| b"adinNptu".contains(l));
                    if s.contains(&b'a')
                        && let Some(t) = args.get(k + 1)
                    {
                        self.read_target(t, &v, at, ctx, prog);
                        targets += 1;
                    }
                    k += if takes { 2 } else { 1 };
                }
                _ => {
                    self.read_target(&args[k], &v, at, ctx, prog);
                    targets += 1;
                    k += 1;
                }
            }
        }
        if targets == 0 {
            self.assign(b"REPLY", None, &v, at, ctx, prog);
        }
    }

    fn read_target(&mut self, t: &WordInfo, v: &Val, at: u32, ctx: &Ctx, prog: &Prog<'_>) {
        match t.value() {
            Some(n) => {
                let (base, sub) = split_subscript(&n);
                if let Some(sub) = sub {
                    let a = word::arith(&Text::command(sub), &());
                    self.check_arith(&a, prog, None);
                }
                let base = base.to_vec();
                self.assign(&base, None, v, at, ctx, prog);
            }
            None => {
                let tv = self.word_val(t, prog);
                self.assign_dynamic(&tv, at, "a variable named at run time");
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mapfile(
        &mut self,
        args: &[WordInfo],
        statics: &[Option<Vec<u8>>],
        vals: &[Val],
        here: &Ctx,
        at: u32,
        ctx: &Ctx,
        prog: &Prog<'_>,
    ) {
        let v = if here.stdin.heredoc() {
            here.stdin.clone()
        } else {
            Val::opaque()
        };
        let mut k = 0;
        let mut target = None;
        while k < args.len() {
            match statics[k].as_deref() {
                Some(b"-C") => {
                    if here.stdin.heredoc() {
                        self.effect(Effect::Flow {
                            at,
                            taint: Taint::Body,
                            what: "mapfile -C, whose callback is run with the heredoc's lines",
                            in_body: None,
                        });
                    }
                    if let Some(cb) = vals.get(k + 1) {
                        self.check_code(cb, at, "mapfile -C's callback");
                    }
                    k += 2;
                }
                Some(s) if s.starts_with(b"-") && s.len() > 1 => {
                    let takes = s.last().is_some_and(|l| b"dnOsuc".contains(l));
                    k += if takes { 2 } else { 1 };
                }
                _ => {
                    target = Some(k);
                    k += 1;
                }
            }
        }
        match target {
            Some(t) => self.read_target(&args[t], &v, at, ctx, prog),
            None => self.assign(b"MAPFILE", None, &v, at, ctx, prog),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn printf(
        &mut self,
        name: &[u8],
        args: &[WordInfo],
        statics: &[Option<Vec<u8>>],
        vals: &[Val],
        at: u32,
        ctx: &Ctx,
        prog: &Prog<'_>,
    ) {
        let mut v = Val::opaque();
        for x in vals {
            if x.heredoc() {
                v = Val::body();
            }
        }
        let mut k = 0;
        while k < args.len() {
            match statics[k].as_deref() {
                Some(b"-v") => {
                    if let Some(t) = args.get(k + 1) {
                        self.read_target(t, &v, at, ctx, prog);
                    }
                    k += 2;
                }
                Some(s) if name == b"print" && s.starts_with(b"-") && s.len() > 1 => {
                    if s.contains(&b'P') {
                        for x in vals {
                            self.check_code(
                                x,
                                at,
                                "print -P, which runs the substitutions a prompt holds",
                            );
                        }
                    }
                    if s.contains(&b'v')
                        && let Some(t) = args.get(k + 1)
                    {
                        self.read_target(t, &v, at, ctx, prog);
                        k += 1;
                    }
                    k += 1;
                }
                _ => break,
            }
        }
    }

    /// Text run in this shell (`eval`, `trap`, `emulate -c`): literal text is read and its
    /// commands judged in place; heredoc text denies; anything else is unknown.
    fn eval_text(&mut self, prog: &Prog<'_>, args: &[WordInfo], vals: &[Val], at: u32, ctx: &Ctx) {
        let mut joined = Val::default();
        for v in vals {
            joined.join(v);
        }
        if self.check_code(&joined, at, "eval, which runs heredoc text as commands") {
            return;
        }
        let texts: Option<Vec<Vec<u8>>> = args.iter().map(WordInfo::value).collect();
        let Some(texts) = texts.filter(|_| ctx.nested < MAX_NEST) else {
            self.unknown(
                at,
                ctx,
                "text run in this shell that the guard cannot read (computed at run time)",
            );
            return;
        };
        let text = texts.join(&b' ');
        if text.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        if !self.spend(text.len() / 16 + 1) {
            return;
        }
        let nested = Text::pinned(text, at);
        let budget = crate::shell::MAX_WORK.saturating_sub(self.work);
        let d = Dialect {
            aliases: false,
            ..self.d
        };
        let reading = crate::shell::read_inner(nested, d, budget);
        self.work = self.work.saturating_add(reading.work);
        if reading.error.is_some_and(|e| e.limit) {
            self.work_limit = true;
            return;
        }
        let inner = build(&[], &reading.events, &reading.heredocs);
        let mut c = ctx.clone();
        c.nested += 1;
        c.scope = Some(ctx.from(at));
        let _ = prog;
        self.walk(&inner, &inner.root, &c);
        // What the text's own heredocs and effects are: its own reading's.
        for e in &reading.effects {
            match e {
                Effect::Flow { .. } | Effect::Receiver { .. } | Effect::Unfollowed { .. } => {
                    let e = pin(e.clone(), at);
                    self.effect(e);
                }
                Effect::Unknown { what, .. } => self.unknown(at, ctx, what),
            }
        }
        if reading.features.alias_def {
            self.effect(Effect::Unfollowed {
                at,
                what: "an alias defined inside eval or trap text",
            });
        }
    }
}

/// What turning a `shopt` option on or off does to the reading, when it is something
/// the reader does not follow. `extglob` and `expand_aliases` are followed (both ways).
fn shopt_effect(name: &[u8], on: bool) -> Option<&'static str> {
    match name {
        n if n.starts_with(b"compat") && on => Some(
            "a bash compatibility level, which makes bash read later lines as an older version",
        ),
        b"interactive_comments" if !on => {
            Some("interactive_comments off, which makes `#` part of words in later lines")
        }
        _ => None,
    }
}

/// The same for `set -o`.
fn set_option_effect(name: &[u8], on: bool) -> Option<&'static str> {
    match name {
        b"posix" if on => {
            Some("POSIX mode, which turns alias expansion on and changes how later lines are read")
        }
        b"histexpand" if on => Some("history expansion, which rewrites later lines with `!`"),
        b"keyword" if on => {
            Some("set -o keyword, which changes how the words of later commands are read")
        }
        _ => None,
    }
}
