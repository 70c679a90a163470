//! What each builtin does with its arguments after expansion: the builtins of bash (and
//! zsh where they differ), which of them change nothing the guard follows, and for the
//! others what they change: the reading (`alias`, `shopt`, `set`), a name (`hash`,
//! `enable`), a variable (`declare`, `read`, `mapfile`, `printf -v`), or what runs (`eval`,
//! `source`, `trap`, `fc`).

use super::value::Val;
use super::{Ctx, Effect, Judge, Prog, Taint, literal_prefix_assignment, split_subscript};
use crate::shell::text::Text;
use crate::shell::tree::SimpleCommand;
use crate::shell::word::{self, WordInfo};

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
/// zsh builtins beyond bash's that `zsh -f` has without `zmodload` (zsh 5.9: `stat`,
/// `zpty`, `getcap`… are builtins only once their module is loaded, which is itself a
/// builtin the guard does not follow).
pub(super) const ZSH_BUILTINS: [&[u8]; 38] = [
    b"autoload",
    b"bindkey",
    b"bye",
    b"chdir",
    b"compctl",
    b"disable",
    b"echotc",
    b"echoti",
    b"emulate",
    b"float",
    b"functions",
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
    b"setopt",
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
    b"zregexparse",
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
        let zsh = self.d.is_zsh();
        let vals: Vec<Val> = args.iter().map(|a| self.word_val(a, prog)).collect();
        if self.meter.over().is_some() {
            // Past the meter the verdict is a limit: nothing more to follow.
            return Val::body();
        }
        // Option words and names as written: a bracket pattern that matches no file
        // stays as it is (`-vBASH_ALIASES[cat]`).
        let statics: Vec<Option<Vec<u8>>> = args.iter().map(WordInfo::literal).collect();
        match name {
            n if INERT.contains(&n) => {}
            b"alias" | b"unalias" => {
                // An alias is expanded in text the shell reads when it runs it: a
                // substitution after the definition (on its line for bash; anywhere in zsh,
                // which reads the whole command first) and text `eval` runs.
                let mut all = Vec::with_capacity(c.words.len());
                all.extend(c.words.iter().map(|w| self.read_word(&w.text, &prog.ends)));
                let command = crate::shell::alias::command(&all);
                match &command {
                    crate::shell::alias::AliasCommand::Define(defs) => {
                        for (n, _) in defs {
                            self.unit_aliases.push((n.clone(), at));
                        }
                    }
                    crate::shell::alias::AliasCommand::Remove(..) => {}
                    _ => self.unit_aliases.push((Vec::new(), at)),
                }
                if zsh
                    && name == b"alias"
                    && statics.iter().any(|s| {
                        s.as_deref().is_some_and(|s| {
                            s.starts_with(b"-") && (s.contains(&b'g') || s.contains(&b's'))
                        })
                    })
                {
                    // Global and suffix aliases are expanded anywhere in text read
                    // later (`eval`, `source`), not only in command position.
                    self.effect(Effect::UnfollowedAlias {
                        at,
                        end: c.end,
                        what: "a zsh global or suffix alias, which is expanded anywhere in text zsh reads later",
                    });
                }
                // An alias the guard cannot read is expanded by text read later, on this
                // line too (`eval p`), in every shell.
                match command {
                    crate::shell::alias::AliasCommand::Define(_) => {
                        // zsh reads the whole command before it runs any of it: an alias
                        // it defines is not expanded in its later lines (measured, zsh
                        // 5.9); text `eval` runs is read with it.
                        if !zsh && (ctx.nested > 0 || ctx.in_function) {
                            self.effect(Effect::Unfollowed {
                                at,
                                what: "an alias defined inside a function, eval or trap text",
                            });
                        }
                    }
                    crate::shell::alias::AliasCommand::Unfollowed(_) => self.effect(Effect::UnfollowedAlias {
                        at,
                        end: c.end,
                        what: "an alias definition whose value the guard cannot read (computed, several lines, or an open quote)",
                    }),
                    crate::shell::alias::AliasCommand::None => {
                        // `alias` reached some other way (a computed name).
                        self.effect(Effect::UnfollowedAlias {
                            at,
                            end: c.end,
                            what: "an alias definition the guard cannot read",
                        });
                    }
                    crate::shell::alias::AliasCommand::Remove(..) => {}
                }
                if zsh {
                    return Val::default();
                }
            }
            b"shopt" => self.shopt(&statics, at),
            b"set" => self.set(&statics, &vals, at),
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
                    // Options such as GLOB_SUBST and PROMPT_SUBST make values expand as
                    // patterns or prompts, on this line too.
                    self.zsh_expanding_option(at);
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
            | b"float" => {
                // The words as written, for the compound values' subscripts.
                let written = &c.words[c.words.len().saturating_sub(args.len())..];
                self.declare(prog, name, args, written, &statics, &vals, at, ctx)
            }
            b"read" | b"getln" | b"vared" => self.read(args, &statics, here, at, ctx, prog),
            b"mapfile" | b"readarray" => self.mapfile(args, &statics, &vals, here, at, ctx, prog),
            b"printf" | b"print" => self.printf(name, args, &statics, &vals, at, ctx, prog),
            b"getopts" => {
                // The option letters come from the command's own option string.
                if let Some(target) = args.get(1) {
                    match target.value() {
                        Some(n) => self.assign(&n, None, &Val::authored(), at, ctx, prog),
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
            // The text runs with the command's redirections (its heredoc as input).
            b"eval" => self.eval_text(prog, args, &vals, at, here),
            b"." | b"source" => {
                let k = statics
                    .iter()
                    .position(|s| {
                        s.as_deref()
                            .is_none_or(|s| !s.starts_with(b"-") || s == b"-")
                    })
                    .unwrap_or(args.len());
                let Some(path_word) = args.get(k) else {
                    return Val::opaque();
                };
                let path = vals[k].clone();
                let what = "source, which runs heredoc text in this shell";
                if here.stdin.heredoc() {
                    // Any path can reach standard input (`/dev/stdin`, `/proc/$$/fd/0`, a
                    // link the command made): heredoc text given to source is run.
                    let stdin = here.stdin.clone();
                    self.run_heredoc_text(&stdin, at, ctx, what);
                    return Val::opaque();
                }
                if path.heredoc() {
                    // Heredoc text chooses the file.
                    self.run_heredoc_text(
                        &path,
                        at,
                        ctx,
                        "source of a file that heredoc text names",
                    );
                    return Val::opaque();
                }
                let mut content = if path_word.process {
                    let mut v = Val::default();
                    for s in path_word.substs() {
                        v.join(&self.subst_out.get(&s).cloned().unwrap_or_else(Val::opaque));
                    }
                    v
                } else {
                    let mut v = self.file_content(path_word, prog);
                    if self.names_descriptor(path_word, prog) {
                        v.join(&self.fd_inputs);
                    }
                    v
                };
                if !here.stdin.opaque || !here.stdin.statics.is_empty() || here.stdin.authored {
                    // Text given on its input (`<<< 'f() { …; }'`, a pipe from printf):
                    // any path can reach it.
                    content.join(&here.stdin);
                }
                if content.heredoc() {
                    self.run_heredoc_text(&content, at, ctx, what);
                } else {
                    // Every literal text it may run: the file's when the command wrote it,
                    // and text given on its input (`. /dev/stdin <<<'eval "$x"'`), even
                    // beside a file that was there.
                    for t in content.statics.clone() {
                        self.run_code(&t, at, here);
                    }
                    if content.authored {
                        // Text this command made (`<(printf …)`, a file it wrote): any
                        // effect.
                        self.unknown(at, ctx, "source of text this command composes");
                    }
                }
                // A file that was there before (a virtualenv's activate, an .env): the
                // environment's, like the user's startup files.
            }
            b"trap" => {
                let mut k = 0;
                if let Some(Some(o)) = statics.first() {
                    if o == b"--" {
                        k = 1;
                    } else if o.starts_with(b"-") && o.len() > 1 {
                        // -p, -l, -P: print; nothing set.
                        return Val::authored();
                    }
                }
                if args.len() >= k + 2 && statics[k].as_deref() != Some(b"-") {
                    self.eval_text(prog, &args[k..k + 1], &vals[k..k + 1], at, ctx);
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
                // The history holds this command's own text.
                return Val::body();
            }
            b"history" => return Val::body(),
            b"hash" => {
                if zsh {
                    for s in &statics {
                        match s {
                            Some(s) if s.starts_with(b"-") => {}
                            Some(s) => {
                                if let Some(eq) = s.iter().position(|&c| c == b'=') {
                                    self.rebind(s[..eq].to_vec(), from, "the command that reads the heredoc is bound elsewhere by hash");
                                }
                            }
                            None => {
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
                let mut k = 0;
                while k < statics.len() {
                    match statics[k].as_deref() {
                        Some(b"-V") if name == b"compgen" => {
                            // bash 5.3: the completions go into an array, not out.
                            if let Some(t) = args.get(k + 1) {
                                self.read_target(t, &Val::authored(), at, ctx, prog);
                            }
                            k += 2;
                        }
                        Some(b"-W") | Some(b"-C") | Some(b"-F") if name == b"compgen" => {
                            let Some(v) = vals.get(k + 1) else { break };
                            let what = "compgen, which expands its word list or runs its command";
                            if !self.check_code(v, at, what) {
                                match (statics[k].as_deref(), v.single()) {
                                    (Some(b"-C"), Some(code)) => {
                                        let code = code.to_vec();
                                        self.run_code(&code, at, ctx);
                                    }
                                    (Some(b"-W"), Some(list)) => {
                                        let list = list.to_vec();
                                        self.run_document(&list, at, ctx);
                                    }
                                    _ if v.chosen() => {
                                        self.unknown(at, ctx, "compgen with a word list or command this command builds");
                                    }
                                    _ => {}
                                }
                            }
                            k += 2;
                        }
                        _ => k += 1,
                    }
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
        // What a builtin prints is made of the command's own words and variables.
        let listing = matches!(
            name,
            b"declare" | b"typeset" | b"export" | b"readonly" | b"set" | b"local"
        ) && (args.is_empty()
            || statics.iter().any(|s| {
                s.as_deref()
                    .is_some_and(|s| s.starts_with(b"-") && s.contains(&b'p'))
            }));
        if vals.iter().any(Val::heredoc)
            || (listing
                && self.meter.charge(self.vars.len() / 16 + 1)
                && self.vars.values().any(|v| v.val.heredoc()))
        {
            return Val::body();
        }
        builtin_output(name, &statics)
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

    fn set(&mut self, statics: &[Option<Vec<u8>>], vals: &[Val], at: u32) {
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
                    self.set_positional(&v);
                }
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
                        let plain: Vec<u8> = name
                            .iter()
                            .filter(|&&c| c != b'_')
                            .map(u8::to_ascii_lowercase)
                            .collect();
                        if on
                            && self.d.is_zsh()
                            && matches!(plain.as_slice(), b"globsubst" | b"promptsubst")
                        {
                            self.zsh_expanding_option(at);
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
        written: &[crate::shell::tree::Word],
        statics: &[Option<Vec<u8>>],
        vals: &[Val],
        at: u32,
        ctx: &Ctx,
    ) {
        let mut integer = name == b"integer";
        let mut assoc = false;
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
                        if s.contains(&b'A') && on {
                            assoc = true;
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
            if ctx.body_code && (integer || nameref) {
                // Heredoc text that makes later assignments arithmetic or references.
                self.effect(Effect::Flow {
                    at,
                    taint: Taint::Body,
                    what: "heredoc text run as code that gives a variable the integer or nameref attribute",
                    in_body: None,
                });
            }
            // A compound value's subscripts (`a=([x]=1)`) are evaluated as arithmetic when
            // the array is indexed, as in a plain assignment.
            if let Some(asg) = written
                .get(k)
                .and_then(|w| word::assignment(&w.text, &prog.ends))
            {
                let assoc_now = assoc || self.vars.get(&asg.name).is_some_and(|v| v.assoc);
                if !assoc_now {
                    self.check_word(&asg.value, prog);
                }
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
                    if !crate::shell::syntax::legal_identifier(base) {
                        continue;
                    }
                    if let Some(sub) = sub {
                        let a = word::arith(&Text::command(sub), &());
                        self.check_arith(&a, prog, None);
                    }
                    self.attributes(base, integer, assoc, nameref);
                    match value {
                        Some(v) => self.assign(base, None, &v, at, ctx, prog),
                        None => {
                            let v = self.var(base);
                            self.assign_val(base, &v, false);
                        }
                    }
                }
                None => {
                    // A word with expansions: `name=$value` keeps the name literal.
                    match literal_prefix_assignment(a) {
                        Some((target, value_pieces)) => {
                            let (base, sub) = split_subscript(&target);
                            if !crate::shell::syntax::legal_identifier(base) {
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
                                tilde: a.tilde,
                                unread: a.unread,
                                ..WordInfo::default()
                            };
                            let v = self.word_val(&vw, prog);
                            let base = base.to_vec();
                            self.attributes(&base, integer, assoc, nameref);
                            self.assign(&base, None, &v, at, ctx, prog);
                        }
                        None => match super::split_at_equals(a) {
                            // `"$k=$v"`, `"${name}_port=80"`: the names it can be.
                            Some((n, v)) => {
                                let nv = self.word_val(&n, prog);
                                let vv = self.word_val(&v, prog);
                                if nv.only_statics() {
                                    for name in &nv.statics {
                                        let (base, _) = split_subscript(name);
                                        self.attributes(base, integer, assoc, nameref);
                                    }
                                }
                                self.assign_named(&nv, &vv, at, ctx, prog, "declare");
                            }
                            None => {
                                self.assign_named(
                                    &vals[k],
                                    &Val::default(),
                                    at,
                                    ctx,
                                    prog,
                                    "declare",
                                );
                            }
                        },
                    }
                }
            }
        }
    }

    /// A zsh option that makes values expand (as patterns with glob qualifiers, as
    /// prompts) in a command with heredocs: heredoc text in a value can then run.
    fn zsh_expanding_option(&mut self, at: u32) {
        if !self.no_heredoc {
            self.effect(Effect::Flow {
                at,
                taint: Taint::Body,
                what: "a zsh option (GLOB_SUBST, PROMPT_SUBST, …) that makes values, heredoc text among them, expand as code",
                in_body: None,
            });
        }
    }

    /// The attributes `declare` gives a variable.
    fn attributes(&mut self, name: &[u8], integer: bool, assoc: bool, nameref: bool) {
        let entry = self.vars.entry(name.to_vec()).or_default();
        let before = (entry.integer, entry.assoc, entry.is_ref);
        entry.integer |= integer;
        entry.assoc |= assoc;
        entry.is_ref |= nameref;
        if (entry.integer, entry.assoc, entry.is_ref) != before {
            self.changed = true;
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
        // What it reads: its input, whatever that is (a here-string of the command's own
        // text is the command's; several variables get fields of it).
        let mut v = (*here.stdin).clone();
        if statics.iter().any(|s| {
            s.as_deref()
                .is_some_and(|s| s.starts_with(b"-") && s.len() > 1 && s.contains(&b'u'))
        }) {
            // `read -u 3`: another descriptor.
            v.join(&self.fd_inputs);
        }
        // Its options are the words before the first that is not one (`read v -r` reads
        // `-r` as a name).
        let leading = statics
            .iter()
            .take_while(|s| {
                s.as_deref()
                    .is_some_and(|s| s.starts_with(b"-") && s.len() > 1)
            })
            .count();
        let options: Vec<&[u8]> = statics[..leading]
            .iter()
            .flatten()
            .map(Vec::as_slice)
            .collect();
        let raw = options.iter().any(|o| o != b"--" && o.contains(&b'r'));
        if !raw {
            // Without `-r`, a backslash escapes the byte after it and is removed, and a
            // backslash-newline joins lines (`a[$\(…)]` reads as `a[$(…)]`).
            v = v.unescaped();
        }
        // One line to a single variable with `-r` in line mode; otherwise fields of what
        // it reads go to several variables or an array's elements.
        let v = if raw
            && args.len() == leading + 1
            && statics.iter().all(Option::is_some)
            // Only options that leave what one read takes alone: `-r`, `-s` (silent), `-e`
            // (readline; zsh: echo instead of assigning), and `--`.
            && options
                .iter()
                .all(|o| *o == b"--" || o[1..].iter().all(|c| b"rse".contains(c)))
        {
            if here.own_heredoc {
                // Its own heredoc, read from the start whenever it runs: the first line.
                v.first_line()
            } else {
                v.with_lines()
            }
        } else {
            v.with_fields()
        };
        let mut k = 0;
        let mut targets = 0;
        while k < args.len() {
            match statics[k].as_deref() {
                Some(s) if s.starts_with(b"-") && s.len() > 1 => {
                    let takes = s.last().is_some_and(|l| b"adinNptu".contains(l));
                    if self.d.is_zsh()
                        && s.last().is_some_and(|l| b"tknu".contains(l))
                        && let Some(t) = args.get(k + 1)
                    {
                        // zsh evaluates a timeout, a count or a descriptor as arithmetic.
                        self.arith_operand(t, prog);
                    }
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
        let name = t
            .literal()
            .or_else(|| self.word_val(t, prog).single().map(<[u8]>::to_vec));
        match name {
            Some(n) => {
                // zsh: `name?prompt` reads into `name`.
                let n = n.split(|&c| c == b'?').next().unwrap_or_default().to_vec();
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
                self.assign_named(&tv, v, at, ctx, prog, "a variable named at run time");
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
        let v = here.stdin.clone();
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
                    if let Some(cb) = vals.get(k + 1)
                        && !self.check_code(cb, at, "mapfile -C's callback")
                    {
                        if let Some(code) = cb.single().map(<[u8]>::to_vec) {
                            self.run_code(&code, at, ctx);
                        } else if cb.chosen() {
                            self.unknown(at, ctx, "a mapfile callback this command builds");
                        }
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
        let mut v = Val::authored();
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
                Some(o) if name == b"printf" && o.starts_with(b"-v") && o.len() > 2 => {
                    // `-vNAME`.
                    let t = Text::pinned(o[2..].to_vec(), at);
                    let target = self.read_word(&t, &());
                    self.read_target(&target, &v, at, ctx, prog);
                    k += 1;
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

/// What a builtin that ran prints, as the effects model sees it: nothing, the
/// environment's text, the exact text of an `echo` or `printf` of literals, or else text
/// the command composes.
fn builtin_output(name: &[u8], statics: &[Option<Vec<u8>>]) -> Val {
    match name {
        b":" | b"true" | b"false" | b"exit" | b"return" | b"break" | b"continue" | b"shift"
        | b"test" | b"[" | b"unset" | b"wait" | b"alias" | b"unalias" | b"shopt" | b"setopt"
        | b"unsetopt" | b"hash" | b"enable" | b"trap" | b"local" | b"export" | b"readonly"
        | b"declare" | b"typeset" | b"read" | b"mapfile" | b"readarray" | b"let" | b"getopts" => {
            Val::default()
        }
        b"pwd" | b"dirs" | b"jobs" | b"times" | b"type" | b"help" | b"caller" | b"umask"
        | b"ulimit" | b"which" | b"whence" | b"where" | b"cd" | b"pushd" | b"popd" => Val::opaque(),
        b"echo" | b"printf" => printed(name, statics).map_or_else(Val::authored, Val::lit),
        _ => Val::authored(),
    }
}

/// The exact output of `echo` or `printf` given literal words without options or
/// escapes (`printf` with `%s` and `%%` only, and `\n`), or `None`.
/// The most bytes a computed `printf` is followed for (a long format reused for many
/// arguments would otherwise multiply the input).
const MAX_PRINTED: usize = 64 * 1024;

pub(super) fn printed(name: &[u8], statics: &[Option<Vec<u8>>]) -> Option<Vec<u8>> {
    let words: Vec<&[u8]> = statics
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
                    // A format reused for many arguments: text the command composes.
                    return None;
                }
            }
            Some(out)
        }
        _ => None,
    }
}
