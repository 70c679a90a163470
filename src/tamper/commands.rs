//! What each command does to files and to the guard, by its name (after the wrappers
//! `sudo`, `env`, `timeout`, `xargs`, … and their options) and its words: which operands it
//! writes, edits, moves away, removes or restores, the code it hands an interpreter, the
//! shell text it runs, and the guard's own CLI, package and plugin and the clients' hooks
//! switches. Options are read as each program reads them, as far as the operands go.

use std::path::PathBuf;

/// Deepest working directory `cd` is followed into, in path components.
const MAX_CWD_DEPTH: usize = 64;

use super::Ctx;
use super::paths::{self, Target};
use super::walk::{Action, Arg, How, Walker};

/// What a command name is to the guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Guard,
    Wrapper,
    Remove,
    Mode,
    Truncate,
    Move,
    CopyTo,
    Tee,
    Dd,
    Sed,
    Awk,
    Git,
    Find,
    Editor,
    Interpreter,
    Shell,
    Eval,
    Trap,
    Alias,
    Source,
    Cd,
    PackageManager,
    Claude,
    Codex,
    Gio,
    Mount,
    Zmodload,
}

/// Whether a line of `words` (as written, nothing computed) running a command of `kind`
/// can be one the rule denies: the words each command's handler below needs are there.
pub(super) fn concerns(kind: Kind, words: &[&str]) -> bool {
    let has = |w: &[&str]| words.iter().any(|x| w.contains(x));
    match kind {
        Kind::Wrapper | Kind::Cd => false,
        Kind::Git => has(&["checkout", "restore", "rm", "mv"]),
        // Naming heredoc-guard or the running binary: found by the caller.
        Kind::PackageManager | Kind::Claude => false,
        Kind::Codex => has(&["features"]),
        Kind::Find => has(&["-delete", "-exec", "-execdir", "-ok", "-okdir"]),
        Kind::Sed => words.iter().any(|w| {
            w.starts_with("--in-place")
                || (w.starts_with('-') && !w.starts_with("--") && w.contains('i'))
        }),
        Kind::Awk => words.iter().any(|w| w.contains("inplace")),
        Kind::Source => words.iter().any(|w| names_descriptor(w)),
        _ => true,
    }
}

/// Programs that only read the files their words name, and the shell's builtins that
/// name no file (`export`, `local`, `read`, …) (sorted: a test checks): given a
/// settings file, they change nothing. (Not `xxd` nor `tree`, which write a file they are
/// given: round 75.) Any other program the rule does not know may write
/// what it is given ([`Walker::touch_if_settings`]); so may `jsonlint -i`, `taplo fmt` and
/// `view` with `:w!` (round 78), which are not here.
pub(super) const READERS: &[&str] = &[
    ":",
    "[",
    "ag",
    "b2sum",
    "base64",
    "basename",
    "bat",
    "batcat",
    "break",
    "cat",
    "cksum",
    "cmp",
    "column",
    "continue",
    "cut",
    "declare",
    "diff",
    "dirname",
    "du",
    "echo",
    "egrep",
    "exit",
    "export",
    "false",
    "fgrep",
    "file",
    "fold",
    "grep",
    "gron",
    "head",
    "hexdump",
    "jless",
    "jq",
    "less",
    "let",
    "local",
    "ls",
    "md5sum",
    "more",
    "nl",
    "od",
    "printf",
    "pwd",
    "read",
    "readlink",
    "readonly",
    "realpath",
    "return",
    "rg",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "shasum",
    "shift",
    "sleep",
    "stat",
    "strings",
    "tac",
    "tail",
    "test",
    "tr",
    "true",
    "typeset",
    "unset",
    "wait",
    "wc",
];

/// Whether `name` is one of [`READERS`] (a set built once).
pub(super) fn is_reader(name: &str) -> bool {
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&'static str>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| READERS.iter().copied().collect())
        .contains(name)
}

/// Whether a command of `kind` takes its operands by place (a destination, an option's
/// value), so that a word standing for many words cannot stand in for them: not one that
/// does the same to each operand (`rm`, `chmod`, `truncate`, `tee`, an editor).
pub(super) fn by_place(kind: Kind) -> bool {
    !matches!(
        kind,
        Kind::Remove | Kind::Mode | Kind::Truncate | Kind::Tee | Kind::Editor
    )
}

/// The commands the rule looks at, by name (a basename), and what each is; sorted by
/// name (a test checks, so that a name is listed once), looked up in a map built from it.
const KINDS: &[(&str, Kind)] = &[
    // (zsh's precommand modifier: `- sh -c …` runs `sh`; round 82.)
    ("-", Kind::Wrapper),
    (".", Kind::Source),
    ("Rscript", Kind::Interpreter),
    ("alias", Kind::Alias),
    ("ash", Kind::Shell),
    ("awk", Kind::Awk),
    ("bash", Kind::Shell),
    ("brew", Kind::PackageManager),
    ("builtin", Kind::Wrapper),
    ("bun", Kind::PackageManager),
    ("bunx", Kind::Wrapper),
    ("busybox", Kind::Wrapper),
    ("cargo", Kind::PackageManager),
    ("cd", Kind::Cd),
    ("chattr", Kind::Mode),
    ("chdir", Kind::Cd),
    ("chgrp", Kind::Mode),
    ("chmod", Kind::Mode),
    ("chown", Kind::Mode),
    ("claude", Kind::Claude),
    ("codex", Kind::Codex),
    ("command", Kind::Wrapper),
    ("cp", Kind::CopyTo),
    ("dash", Kind::Shell),
    ("dd", Kind::Dd),
    ("deno", Kind::Interpreter),
    ("doas", Kind::Wrapper),
    ("ed", Kind::Editor),
    ("emacs", Kind::Editor),
    ("env", Kind::Wrapper),
    ("eval", Kind::Eval),
    ("ex", Kind::Editor),
    ("exec", Kind::Wrapper),
    ("find", Kind::Find),
    ("fish", Kind::Shell),
    ("gawk", Kind::Awk),
    ("gio", Kind::Gio),
    ("git", Kind::Git),
    ("gsed", Kind::Sed),
    ("heredoc-guard", Kind::Guard),
    ("install", Kind::CopyTo),
    ("ionice", Kind::Wrapper),
    ("ksh", Kind::Shell),
    ("link", Kind::CopyTo),
    ("ln", Kind::CopyTo),
    ("lua", Kind::Interpreter),
    ("luajit", Kind::Interpreter),
    ("micro", Kind::Editor),
    ("mksh", Kind::Shell),
    ("mount", Kind::Mount),
    ("mv", Kind::Move),
    ("nano", Kind::Editor),
    ("nice", Kind::Wrapper),
    ("nocorrect", Kind::Wrapper),
    ("node", Kind::Interpreter),
    ("nodejs", Kind::Interpreter),
    ("noglob", Kind::Wrapper),
    ("nohup", Kind::Wrapper),
    ("npm", Kind::PackageManager),
    ("npx", Kind::Wrapper),
    ("nvim", Kind::Editor),
    ("osascript", Kind::Interpreter),
    ("perl", Kind::Interpreter),
    ("php", Kind::Interpreter),
    ("pnpm", Kind::PackageManager),
    ("pnpx", Kind::Wrapper),
    ("pushd", Kind::Cd),
    ("rm", Kind::Remove),
    ("rmdir", Kind::Remove),
    ("rsync", Kind::CopyTo),
    ("ruby", Kind::Interpreter),
    ("scp", Kind::CopyTo),
    ("sed", Kind::Sed),
    ("setsid", Kind::Wrapper),
    ("sh", Kind::Shell),
    ("shred", Kind::Remove),
    ("source", Kind::Source),
    ("sponge", Kind::Tee),
    ("srm", Kind::Remove),
    ("stdbuf", Kind::Wrapper),
    ("sudo", Kind::Wrapper),
    ("tclsh", Kind::Interpreter),
    ("tee", Kind::Tee),
    ("time", Kind::Wrapper),
    ("timeout", Kind::Wrapper),
    ("trap", Kind::Trap),
    ("trash", Kind::Remove),
    ("trash-put", Kind::Remove),
    ("truncate", Kind::Truncate),
    ("unlink", Kind::Remove),
    ("vi", Kind::Editor),
    ("vim", Kind::Editor),
    ("wipe", Kind::Remove),
    ("xargs", Kind::Wrapper),
    ("yarn", Kind::PackageManager),
    ("zmodload", Kind::Zmodload),
    ("zsh", Kind::Shell),
];

/// The kind of the command named `name` (a basename).
pub(super) fn kind(name: &str, ctx: &Ctx) -> Option<Kind> {
    // (A map built once: most names of a script are none of these, and a search of the
    // table compared each with several names.)
    static BY_NAME: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Kind>> =
        std::sync::OnceLock::new();
    let by_name = BY_NAME.get_or_init(|| KINDS.iter().copied().collect());
    if let Some(&k) = by_name.get(name) {
        return Some(k);
    }
    Some(match name {
        n if n.starts_with("python") || n.starts_with("pypy") => Kind::Interpreter,
        n if ctx.is_exe_name(n) => Kind::Guard,
        _ => return None,
    })
}

/// The names of the rule's commands a command name written as a glob may match
/// (`/usr/bin/c[p]`, `c?`, `[e]nv`): `python3` and `pypy3` among them, and the guard's own
/// names.
pub(super) fn glob_names(pattern: &str, ctx: &Ctx) -> Vec<String> {
    let p = pattern.as_bytes();
    KINDS
        .iter()
        .map(|(n, _)| *n)
        .chain(["python3", "pypy3"])
        .filter(|n| paths::fnmatch(p, n.as_bytes(), true))
        .map(str::to_owned)
        .chain(
            ctx.exe_names()
                .filter(|n| paths::fnmatch(p, n.as_bytes(), true)),
        )
        .collect()
}

/// How `xargs` splits what it reads into items.
#[derive(Clone, Copy)]
enum Split {
    Blanks,
    Lines,
    At(char),
}

impl Split {
    fn items(self, text: &str) -> Vec<String> {
        let items: Vec<String> = match self {
            Split::Blanks => blank_items(text),
            Split::Lines => text.lines().map(|l| l.trim_start().to_owned()).collect(),
            Split::At(c) => text.split(c).map(str::to_owned).collect(),
        };
        items.into_iter().filter(|i| !i.is_empty()).collect()
    }
}

/// The items `xargs` reads from `text` by default: split at blanks, where single and double
/// quotes keep blanks in an item and are removed, and a backslash keeps the character after
/// it (`'.claude/settings.json'`, `settings\.json`; round 81).
fn blank_items(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut item = String::new();
    let mut started = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                started = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    item.push(q);
                }
            }
            '\\' => {
                started = true;
                if let Some(n) = chars.next() {
                    item.push(n);
                }
            }
            c if c.is_ascii_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut item));
                    started = false;
                }
            }
            c => {
                started = true;
                item.push(c);
            }
        }
    }
    if started {
        out.push(item);
    }
    out
}

/// How `xargs`, given options `opts` (the words between it and its command), splits its
/// input, and its replace string: `-0`, `--null`; `-d X`, `--delimiter X`, `--delimiter=X`
/// (`\n`, `\t`, `\0` decoded); a replace string (`-I R`, `-i`, `--replace`) takes whole
/// lines; short options bundled (`-0r`, `-rI{}`).
fn xargs_opts(opts: &[Arg]) -> (Split, Option<String>) {
    // (Its escapes as `xargs` decodes them: `\n`, `\012`, `\x0a`, …; one it does not
    // know of splits at blanks, as if none were given.)
    let delim = |d: &str| -> Split {
        let Some(e) = d.strip_prefix('\\') else {
            return d.chars().next().map_or(Split::Blanks, Split::At);
        };
        let c = match e {
            "n" => Some('\n'),
            "t" => Some('\t'),
            "r" => Some('\r'),
            "a" => Some('\x07'),
            "b" => Some('\x08'),
            "f" => Some('\x0c'),
            "v" => Some('\x0b'),
            "\\" => Some('\\'),
            _ => match e.strip_prefix('x').or_else(|| e.strip_prefix('X')) {
                Some(hex) => u8::from_str_radix(hex, 16).ok().map(char::from),
                None => u8::from_str_radix(e, 8).ok().map(char::from),
            },
        };
        c.map_or(Split::Blanks, Split::At)
    };
    let mut split: Option<Split> = None;
    let mut replace: Option<String> = None;
    let mut k = 0;
    while k < opts.len() {
        let v = opts[k].v();
        let next = opts.get(k + 1).map(Arg::v);
        k += 1;
        if let Some(long) = v.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, val)) => (n, Some(val)),
                None => (long, None),
            };
            match name {
                "null" => split = Some(Split::At('\0')),
                "delimiter" => {
                    let d = value.or(next);
                    if value.is_none() {
                        k += 1;
                    }
                    split = Some(delim(d.unwrap_or("\n")));
                }
                "replace" => replace = Some(value.unwrap_or("{}").to_owned()),
                _ => {}
            }
            continue;
        }
        let Some(cluster) = v.strip_prefix('-') else {
            continue;
        };
        for (at, c) in cluster.char_indices() {
            let tail = &cluster[at + c.len_utf8()..];
            match c {
                '0' => split = Some(Split::At('\0')),
                'r' | 't' | 'p' | 'x' | 'b' => continue,
                'd' | 'I' | 'i' | 'n' | 'L' | 'l' | 'P' | 's' | 'E' | 'e' | 'a' => {
                    // An option that takes a value: the rest of the word, else the next.
                    let value = if tail.is_empty() && !matches!(c, 'i' | 'l' | 'e') {
                        k += 1;
                        next
                    } else {
                        Some(tail)
                    };
                    match c {
                        'd' => split = Some(delim(value.unwrap_or("\n"))),
                        'I' => replace = value.map(str::to_owned),
                        'i' => replace = Some(if tail.is_empty() { "{}" } else { tail }.to_owned()),
                        _ => {}
                    }
                    break;
                }
                _ => break,
            }
        }
    }
    let split = split.unwrap_or(if replace.is_some() {
        Split::Lines
    } else {
        Split::Blanks
    });
    (split, replace)
}

/// Whether a shell given `words` runs the arguments `xargs` adds as code: `-c` with no
/// script word after it (the first argument is the script), or a script that may run its
/// arguments (`$0`…`$9`, `$@`, `$*`, `${…}` anywhere, `eval`, `source`, `.`).
fn runs_its_args(words: &[Arg]) -> bool {
    let Some(c) = words
        .iter()
        .position(|a| !a.v().starts_with("--") && a.v().starts_with('-') && a.v().contains('c'))
    else {
        return false;
    };
    let Some(script) = words[c + 1..].iter().find(|a| !a.is("--")) else {
        return true;
    };
    let t = script.value.as_deref().unwrap_or("$");
    // (Any expansion of its arguments may stand where a command's name does: `exec "$@"`,
    // `true; "$@"`; a script that only lists them, `ls -l "$@"`, counts too.)
    t.contains("eval")
        || t.contains("source")
        || t.contains(". ")
        || t.contains("${")
        || t.as_bytes()
            .windows(2)
            .any(|w| w[0] == b'$' && (w[1].is_ascii_digit() || matches!(w[1], b'@' | b'*')))
}

/// Whether a path may name a descriptor the command was given, however it is spelled:
/// standard input (`/dev/stdin`, `//dev/./stdin`, `/dev/fd/0`, `/proc/self/fd/0`, and
/// through `..` or a root: `/dev/../dev/stdin`, `/proc/self/root/dev/stdin`), or another
/// (`/dev/fd/3`, given a heredoc or the pipe: `3<&0`); a last name `stdin`, `stdout` or
/// `stderr`, or a number after `fd`, or alone in a directory the command may have entered
/// (`cd /dev/fd && bash 0`; round 82). (A file of such a name elsewhere is taken for it.)
pub(super) fn names_descriptor(path: &str) -> bool {
    let mut parts = path.split('/').filter(|p| !p.is_empty() && *p != ".").rev();
    let number = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    match (parts.next(), parts.next()) {
        (Some("stdin" | "stdout" | "stderr"), _) => true,
        (Some(n), Some("fd")) => number(n),
        (Some(n), None) => number(n) && !path.starts_with('/'),
        _ => false,
    }
}

impl Walker<'_> {
    /// Walks one command's words (after its assignments); returns its name.
    pub(super) fn command(
        &mut self,
        args: &[Arg],
        stdin: &[super::walk::Shown],
        depth: usize,
    ) -> Option<String> {
        // `env -S 'TEXT'` (also in a cluster, `-iS`, and GNU's abbreviations, `--sp=TEXT`;
        // round 82): TEXT split as env splits it ([`env_split`]) and run, env's options and
        // assignments in it too, with the words after it (round 73): walked as `env` of those
        // words, given what the command reads.
        if let Some((text, after)) = env_split_string(args) {
            let mut all = String::from("env ");
            all.push_str(&env_split(&text));
            for a in args.get(after..).unwrap_or_default() {
                all.push(' ');
                all.push_str(&shell_quote(a.v()));
            }
            self.nested_fed(all.as_bytes(), depth, stdin);
        }
        // `npx -c 'TEXT'`, `npm exec --call=TEXT`: TEXT run by a shell (round 82).
        for text in package_call(args) {
            self.nested_fed(text.as_bytes(), depth, stdin);
        }
        // `npm exec [--] CMD …` runs CMD as `npx` does.
        if let Some(x) = npm_exec(args)
            && depth < super::walk::MAX_DEPTH
            && self.charge(args.len())
        {
            let mut named = vec![Arg::plain("npx".to_owned())];
            named.extend(args[x + 1..].iter().cloned());
            return self.command(&named, stdin, depth + 1);
        }
        let at = skip_wrappers(args, self.ctx);
        // `… | xargs env`, `xargs nice`: a wrapper after `xargs` with no command of its own
        // runs the words `xargs` reads (round 81). (`xargs` alone runs `echo`.)
        if at >= args.len()
            && !stdin.is_empty()
            && args
                .iter()
                .position(|a| basename(a.v()) == "xargs")
                .is_some_and(|x| x + 1 < args.len())
        {
            let mut named = args.to_vec();
            let x = args
                .iter()
                .position(|a| basename(a.v()) == "xargs")
                .unwrap_or(0);
            let (split, _) = xargs_opts(&args[x + 1..]);
            for t in stdin {
                named.extend(
                    split
                        .items(&String::from_utf8_lossy(t))
                        .into_iter()
                        .map(Arg::plain),
                );
            }
            if named.len() > args.len() && self.charge(named.len()) {
                return self.command(&named, &[], depth);
            }
            return None;
        }
        // `sudo -s`, `sudo -i`, `doas -s`: with no command, a shell that reads its script
        // from standard input (round 82).
        if at >= args.len()
            && !stdin.is_empty()
            && args
                .iter()
                .any(|a| matches!(basename(a.v()), "sudo" | "doas"))
        {
            self.may_run(stdin, depth);
            return None;
        }
        let name_arg = args.get(at)?;
        // A name computed at run time may be a shell (`… | "$SHELL"`, `… | $run`): it may
        // run what it reads (round 82).
        if name_arg.value.is_none() {
            self.may_run(stdin, depth);
        }
        let full = match name_arg.value.clone() {
            // (zsh's `=rm` runs `rm` from PATH: round 72.)
            Some(v) => match v.strip_prefix('=') {
                Some(n) if !n.is_empty() && !n.contains(['=', '/']) => n.to_owned(),
                _ => v,
            },
            // A name written as a glob runs what it matches: any of the rule's commands
            // whose name it may match (round 71).
            // A name written as a glob runs what it matches: each of the rule's commands
            // whose name it may match is walked, a wrapper's too (`/usr/bin/[e]nv rm …`;
            // rounds 71, 72).
            None => {
                let ([t], true) = name_arg.texts()? else {
                    return None;
                };
                // (A `[` with no `]` after it is no pattern: `[ -f x ]` runs `[`.)
                if !paths::is_glob(t) {
                    let mut named = args[at..].to_vec();
                    named[0] = Arg::plain(t.clone());
                    return self.command(&named, stdin, depth);
                }
                // (Each of the rule's names matched: charged.)
                if !self.charge(1 + KINDS.len()) {
                    return None;
                }
                let mut out = None;
                for n in glob_names(basename(t), self.ctx) {
                    if !self.charge(args.len() - at) {
                        return None;
                    }
                    let mut named = args[at..].to_vec();
                    named[0] = Arg::plain(n);
                    out = out.or(self.command(&named, stdin, depth));
                }
                return out;
            }
        };
        let name = basename(&full).to_owned();
        // A function the command defines that may run what it reads: `f() { sh; }; … | f`
        // (round 82).
        if self.any_runs_input || self.runs_input.contains(name.as_bytes()) {
            self.may_run(stdin, depth);
        }
        // A wrapper's directory (`env -C d`, `sudo -D d`): a working directory the
        // command may run in (round 73).
        for w in args[..at].windows(2) {
            if matches!(w[0].v(), "-C" | "--chdir" | "-D") {
                self.cd(std::slice::from_ref(&w[1]));
            }
        }
        for a in &args[..at] {
            if let Some(d) = a.v().strip_prefix("--chdir=") {
                self.cd(&[Arg::plain(d.to_owned())]);
            }
        }
        // `xargs` gives the command the words it reads (`echo f | xargs rm`: round 72), in
        // place of the replace string where it has one (`-I{}`, `-i`: round 73); a word
        // that is a glob stays one.
        let xargs = args[..at].iter().position(|a| basename(a.v()) == "xargs");
        // (Only `xargs` reads them: a heredoc's body is not taken apart for any other.)
        // (Its items as `xargs` splits them: at NULs with `-0`, at the delimiter of `-d`,
        // at line ends with a replace string, else at blanks; round 81.)
        let (split, replace) =
            xargs.map_or((Split::Blanks, None), |x| xargs_opts(&args[x + 1..at]));
        // (Charged a unit a byte: each `xargs` in a group given a large body splits it
        // again, into a string an item; round 82.)
        if xargs.is_some() && !self.charge(1 + stdin.iter().map(|t| t.len()).sum::<usize>()) {
            return None;
        }
        let read: Vec<String> = stdin
            .iter()
            .filter(|_| xargs.is_some())
            .flat_map(|t| split.items(&String::from_utf8_lossy(t)))
            .collect();
        let as_arg = |w: String| {
            if paths::is_glob(&w) {
                Arg::unvalued(Some((vec![w], true)))
            } else {
                Arg::plain(w)
            }
        };
        // (A shell's `-c` script that `xargs` gives no script word, or one that runs its
        // arguments: what `xargs` read is that script, or runs in it; round 81.)
        let read_runs = xargs.is_some() && replace.is_none() && runs_its_args(&args[at + 1..]);
        let with_read: Vec<Arg>;
        let rest = match (xargs, replace) {
            (None, _) => &args[at + 1..],
            (Some(_), _) if read.is_empty() => &args[at + 1..],
            (Some(_), Some(r)) => {
                with_read = args[at + 1..]
                    .iter()
                    .map(|a| match a.v() {
                        v if v.contains(r.as_str()) => {
                            let texts: Vec<String> =
                                read.iter().map(|w| v.replace(r.as_str(), w)).collect();
                            match texts.as_slice() {
                                [one] => as_arg(one.clone()),
                                _ => Arg::unvalued(Some((
                                    texts.clone(),
                                    texts.iter().any(|t| paths::is_glob(t)),
                                ))),
                            }
                        }
                        _ => a.clone(),
                    })
                    .collect();
                with_read.as_slice()
            }
            (Some(_), None) => {
                with_read = args[at + 1..]
                    .iter()
                    .cloned()
                    .chain(read.iter().cloned().map(as_arg))
                    .collect();
                with_read.as_slice()
            }
        };
        let is_guard_path = self.ctx.is_exe(&full);
        let kind = if is_guard_path {
            Some(Kind::Guard)
        } else {
            kind(&name, self.ctx)
        };
        match kind {
            Some(Kind::Guard) => {
                if let Some(sub) = operands(rest).first().map(|&i| rest[i].v())
                    && matches!(sub, "install" | "uninstall")
                {
                    self.actions.push(Action::Guard(format!(
                        "run heredoc-guard {sub}, which changes the agents' hooks"
                    )));
                }
            }
            Some(Kind::Remove) => {
                for i in operands(rest) {
                    self.touch(&rest[i], How::Remove, &name, None);
                }
            }
            Some(Kind::Mode) => self.mode(&name, rest),
            Some(Kind::Truncate) => {
                for i in operands_with(rest, &["-s", "-r", "--size", "--reference"]) {
                    self.touch(&rest[i], How::Write, &name, None);
                }
            }
            Some(Kind::Move) => self.copy(&name, rest, true),
            Some(Kind::CopyTo) => self.copy(&name, rest, false),
            Some(Kind::Tee) => {
                for i in operands_with(rest, &["--output-error"]) {
                    self.touch(&rest[i], How::Write, &name, None);
                }
            }
            Some(Kind::Dd) => {
                for a in rest {
                    if let Some(of) = a.value.as_deref().and_then(|v| v.strip_prefix("of=")) {
                        let arg = Arg::plain(of.to_owned());
                        self.touch(&arg, How::Write, &name, None);
                    }
                }
            }
            Some(Kind::Sed) => self.sed(&name, rest),
            Some(Kind::Awk) => self.awk(&name, rest, stdin),
            Some(Kind::Git) => self.git(rest),
            Some(Kind::Find) => self.find(rest, stdin, depth),
            Some(Kind::Editor) => {
                for i in operands(rest) {
                    if !rest[i].v().starts_with('+') {
                        self.touch(&rest[i], How::Edit, &name, None);
                    }
                }
            }
            Some(Kind::Interpreter) => self.interpreter(&name, rest, stdin),
            Some(Kind::Shell) => {
                if read_runs {
                    for t in stdin {
                        self.nested(t, depth);
                    }
                }
                self.shell(&name, rest, stdin, depth)
            }
            Some(Kind::Eval) => {
                let values: Option<Vec<String>> = rest.iter().map(shown_text).collect();
                match values {
                    // (Given what the command reads: `… | eval sh`, round 82.)
                    Some(v) => self.nested_fed(v.join(" ").as_bytes(), depth, stdin),
                    // (Text of no value the rule knows may be a line it read: `… | while
                    // read -r l; do eval "$l"; done`, round 82.)
                    None => self.may_run(stdin, depth),
                }
            }
            // `trap 'TEXT' SIGNAL…`: TEXT runs as shell code when the signal comes (on
            // `EXIT`, as the command ends), read as `eval`'s is. (The action is the first
            // word that is not `--` nor one of the options `-l`, `-p`, `-P`: zsh runs
            // `trap '-x; …' EXIT`, round 78.) A word that is only a name (a function's:
            // `trap cleanup EXIT`), `-` or empty runs no text of its own.
            Some(Kind::Trap) => {
                let mut words = rest.iter().skip_while(|a| {
                    let v = a.v();
                    v.len() > 1
                        && v.starts_with('-')
                        && v[1..].bytes().all(|c| matches!(c, b'l' | b'p' | b'P'))
                });
                let action = match words.next() {
                    Some(a) if a.is("--") => words.next(),
                    a => a,
                };
                // (A bare name runs a command too: `trap sh EXIT`, with what the shell reads
                // then, walked with what the trap is given; round 82.)
                // (Kept: a later `exec` may give the shell what it reads at the end.)
                if let Some(a) = action {
                    self.traps.push(shown_text(a));
                    if shown_text(a).is_none() {
                        // (Computed at run time: it may run a shell on what it reads.)
                        self.may_run(stdin, depth);
                    }
                }
                if let Some(text) = action.and_then(shown_text)
                    && (!stdin.is_empty()
                        || !text.bytes().all(|c| {
                            c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':')
                        }))
                {
                    if stdin.is_empty() {
                        self.nested_defined(text.as_bytes(), depth);
                    } else {
                        self.nested_fed(text.as_bytes(), depth, stdin);
                    }
                }
            }
            // `alias NAME='TEXT'`: TEXT runs wherever NAME is a command's name, in text
            // the walk reads again without the command's aliases too (`trap NAME EXIT`,
            // `eval NAME`: round 79), so it is walked where it is defined.
            Some(Kind::Alias) => {
                for a in rest.iter().filter(|a| !a.is_option()) {
                    if let Some((name, text)) =
                        shown_text(a).as_deref().and_then(|v| v.split_once('='))
                    {
                        // (An alias of a command that may run what it reads, given text,
                        // runs it: `alias f=sh` then `… | f`; round 82.)
                        // (Past its assignments: `alias f='A=1 sh'`.)
                        let first = text
                            .split_ascii_whitespace()
                            .find(|w| {
                                crate::shell::syntax::assignment(w.as_bytes(), false).is_none()
                            })
                            .unwrap_or_default();
                        if !crate::shell::word::as_written(first.as_bytes())
                            || matches!(
                                self::kind(basename(first), self.ctx),
                                Some(
                                    Kind::Shell
                                        | Kind::Interpreter
                                        | Kind::Eval
                                        | Kind::Source
                                        | Kind::Wrapper
                                        | Kind::Awk
                                )
                            )
                        {
                            self.runs_input.insert(name.as_bytes().to_vec());
                        }
                        self.nested_defined(text.as_bytes(), depth);
                    }
                }
            }
            Some(Kind::Source) => {
                // (`source -- /dev/stdin`, bash 5.3's `source -p DIR FILE`: any word may be
                // the file; one of no value the rule knows first.)
                let file = rest.iter().find(|a| !a.is("--"));
                if file.is_some_and(|a| a.value.is_none())
                    || rest.iter().any(|a| names_descriptor(a.v()))
                {
                    for t in stdin {
                        self.nested(t, depth);
                    }
                }
            }
            Some(Kind::Cd) => self.cd(rest),
            Some(Kind::PackageManager) => self.package(&name, rest),
            Some(Kind::Claude) => {
                let verbs: Vec<&str> = rest.iter().map(Arg::v).collect();
                if matches!(verbs.first(), Some(&("plugin" | "plugins")))
                    && matches!(
                        verbs.get(1),
                        Some(&("disable" | "uninstall" | "remove" | "rm"))
                    )
                    && verbs.iter().any(|v| v.starts_with("heredoc-guard"))
                {
                    self.actions.push(Action::Guard(format!(
                        "claude plugin {} the heredoc-guard plugin",
                        verbs[1]
                    )));
                }
            }
            Some(Kind::Codex) => {
                let ops: Vec<&str> = operands(rest).iter().map(|&i| rest[i].v()).collect();
                if ops.first() == Some(&"features")
                    && ops.get(1) == Some(&"disable")
                    && ops[2..]
                        .iter()
                        .any(|f| matches!(*f, "hooks" | "codex_hooks"))
                {
                    self.actions.push(Action::Guard(
                        "switch Codex's hooks off (codex features disable hooks writes [features] hooks = false)".to_owned(),
                    ));
                }
            }
            Some(Kind::Gio) => self.gio(rest),
            // zsh's `zsh/mapfile` module: its `mapfile` parameter writes, and `unset`
            // removes, any file by name (`unset "mapfile[$HOME/.claude/settings.json]"`,
            // round 76), through `read`, `typeset`, `let` or a plain assignment alike.
            // Loading it, or a module the words do not show, is denied.
            Some(Kind::Zmodload) => {
                // (Testing, listing or unloading loads nothing: `-e`, `-l`, `-L`, `-u`.)
                let loads = !rest.iter().any(|a| {
                    a.v().starts_with('-')
                        && !a.v().starts_with("--")
                        && a.v()[1..]
                            .bytes()
                            .any(|c| matches!(c, b'e' | b'l' | b'L' | b'u'))
                });
                // (A module looked up where the command says, `module_path`, may be any
                // under any name.)
                if loads
                    && (self.module_path_named
                        || rest.iter().any(|a| {
                            a.value.is_none() || a.v().contains("mapfile") || paths::is_glob(a.v())
                        }))
                {
                    self.actions.push(Action::Guard(
                        "load zsh's mapfile module (zsh/mapfile), whose mapfile parameter writes and removes any file by its name, heredoc-guard's hook files too".to_owned(),
                    ));
                }
            }
            Some(Kind::Mount) => {
                // What is mounted hides what is below the mount point.
                let ops = operands_with(
                    rest,
                    &["-o", "-t", "-O", "-L", "-U", "--options", "--types"],
                );
                if let Some(&i) = ops.last() {
                    self.touch(&rest[i], How::WriteInto, &name, None);
                }
            }
            // A program the rule does not know, given a settings file or the guard's
            // binary as a word, may write it (`sort -o f`, `curl -o f`, `tar -cf f`, `gzip
            // f`, a wrapper the rule does not know, `flock l rm f`: round 74): unless it only
            // reads ([`READERS`]), what its words name counts as written.
            None if !self.reader(&name) => {
                for a in rest {
                    self.touch_if_settings(a, &name);
                }
                self.unknown_runs(&name, rest, stdin, depth);
            }
            Some(Kind::Wrapper) | None => {}
        }
        Some(name)
    }

    fn mode(&mut self, name: &str, rest: &[Arg]) {
        let ops = operands(rest);
        let by_reference = rest.iter().any(|a| a.v().starts_with("--reference"));
        // chmod's mode may be written as an option (`chmod -x f`).
        let mode_as_option = name == "chmod"
            && rest.iter().any(|a| {
                a.is_option()
                    && !a.v().starts_with("--")
                    && a.v()[1..].bytes().all(|c| b"rwxXst".contains(&c))
            });
        // `chattr -i f`: the attribute looks like an option and is skipped as one.
        let skip = usize::from(!by_reference && !mode_as_option && name != "chattr");
        for &i in ops.iter().skip(skip) {
            let v = rest[i].v();
            if name == "chattr" && (v.starts_with('+') || v.starts_with('=')) {
                continue;
            }
            self.touch(&rest[i], How::Mode, name, None);
        }
    }

    /// `mv` (sources moved away) and the copies (`cp`, `ln`, `install`, `rsync`, `scp`):
    /// the destination written, or each source's name inside it when it is a directory.
    fn copy(&mut self, name: &str, rest: &[Arg], moves: bool) {
        let takes = [
            "-t",
            "--target-directory",
            "-S",
            "--suffix",
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
            "-e",
            "--rsh",
            "--exclude",
            "--include",
            "-f",
            "--filter",
            "--files-from",
            "--exclude-from",
            "--include-from",
            "-T",
            "--temp-dir",
            "--partial-dir",
            "--backup-dir",
            "--chmod",
            "--chown",
            "-P",
            "-i",
            "-F",
            "-J",
            "-l",
            "-c",
        ];
        // Options that take a value only for some of these commands.
        let takes: Vec<&str> = takes
            .iter()
            .copied()
            .filter(|o| match *o {
                "-t" | "--target-directory" => name != "rsync",
                "-T" => name == "rsync",
                "-P" | "-i" | "-F" | "-J" | "-l" | "-c" => name == "scp",
                "-e" | "-f" => name == "rsync",
                "-m" | "-o" | "-g" => name == "install",
                _ => true,
            })
            .collect();
        // `-t` in a cluster or glued to its value (`cp -ft d f`, `cp -td f`, `install -Dt
        // d f`), as getopt reads it: apart (round 74).
        let apart: Vec<Arg>;
        let rest = if !matches!(name, "rsync" | "scp")
            && rest.iter().any(|a| {
                a.is_option() && !a.v().starts_with("--") && a.v().contains('t') && a.v() != "-t"
            }) {
            apart = rest
                .iter()
                .flat_map(|a| {
                    let v = a.v();
                    match v.strip_prefix('-').and_then(|c| c.split_once('t')) {
                        Some((before, after)) if !v.starts_with("--") && v != "-t" => {
                            let mut out = Vec::new();
                            if !before.is_empty() {
                                out.push(Arg::plain(format!("-{before}")));
                            }
                            out.push(Arg::plain("-t".to_owned()));
                            if !after.is_empty() {
                                out.push(Arg::plain(after.to_owned()));
                            }
                            out
                        }
                        _ => vec![a.clone()],
                    }
                })
                .collect();
            apart.as_slice()
        } else {
            rest
        };
        let mut target_dir: Option<usize> = None;
        let mut i = 0;
        while i < rest.len() {
            let v = rest[i].v();
            if v == "--" {
                break;
            }
            if (v == "-t" || v == "--target-directory") && name != "rsync" {
                target_dir = Some(i + 1);
            }
            if let Some(dir) = v.strip_prefix("--target-directory=") {
                let _ = dir;
                target_dir = Some(i);
            }
            i += 1;
        }
        let ops = operands_with(rest, &takes);
        let no_dir = rest.iter().any(|a| {
            name != "rsync" && a.is_option() && !a.v().starts_with("--") && a.v().contains('T')
        }) || rest.iter().any(|a| a.is("--no-target-directory"));
        let deletes = name == "rsync" && rest.iter().any(|a| a.v().starts_with("--delete"));
        let (sources, dest): (Vec<usize>, Option<usize>) = match target_dir {
            Some(d) => (ops.iter().copied().filter(|&i| i != d).collect(), Some(d)),
            None if ops.len() >= 2 || (name == "ln" && ops.len() == 1) => {
                if ops.len() == 1 {
                    (ops.clone(), None)
                } else {
                    (ops[..ops.len() - 1].to_vec(), ops.last().copied())
                }
            }
            None => (ops.clone(), None),
        };
        let moves =
            moves || (name == "rsync" && rest.iter().any(|a| a.is("--remove-source-files")));
        if moves {
            for &s in &sources {
                self.touch(&rest[s], How::MoveAway, name, None);
            }
        }
        let dest_arg: Arg = match dest {
            Some(d) if target_dir == Some(d) && rest[d].v().starts_with("--target-directory=") => {
                let dir = rest[d]
                    .v()
                    .trim_start_matches("--target-directory=")
                    .to_owned();
                Arg::plain(dir)
            }
            Some(d) => match rest.get(d) {
                Some(a) => a.clone(),
                None => return,
            },
            // `ln -s target`: the link is made in the working directory.
            None if name == "ln" => Arg::plain(".".to_owned()),
            None => return,
        };
        if dest_arg.v().contains(':') && name == "scp" {
            return;
        }
        if deletes {
            self.touch(&dest_arg, How::Remove, name, None);
        }
        for dest_target in self.targets(&dest_arg, None) {
            let into_dir = !no_dir
                && match &dest_target {
                    Target::Exact(p) => {
                        target_dir.is_some()
                            || dest_arg.v().ends_with('/')
                            || std::fs::metadata(p).is_ok_and(|m| m.is_dir())
                    }
                    Target::Pattern(_) => false,
                };
            if !into_dir {
                // (A tree copied onto it writes inside it: `cp -rT src ~`, round 73.)
                let recursive = rest.iter().any(|a| {
                    a.is_option() && !a.v().starts_with("--") && a.v().contains(['r', 'R', 'a'])
                        || matches!(a.v(), "--recursive" | "--archive")
                });
                self.actions.push(Action::Touch {
                    target: dest_target,
                    how: if recursive {
                        How::WriteInto
                    } else {
                        How::Write
                    },
                    by: name.to_owned(),
                });
                continue;
            }
            let (Target::Exact(dir) | Target::Pattern(dir)) = &dest_target;
            for &s in &sources {
                let Some((texts, glob)) = rest[s].texts() else {
                    continue;
                };
                for t in texts {
                    // A directory's contents copied into the destination (`cp -r d/.
                    // dest`, `rsync -a d/ dest`) may replace anything inside it.
                    let contents = t.ends_with("/.") || (name == "rsync" && t.ends_with('/'));
                    let base = basename(t.trim_end_matches('/'));
                    let (landed, how) = if contents {
                        (Some(dest_target.clone()), How::WriteInto)
                    } else if base.is_empty() || base == "." || base == ".." {
                        (None, How::Write)
                    } else {
                        let source_dir = self
                            .targets(&rest[s], None)
                            .iter()
                            .any(|t| matches!(t, Target::Exact(p) if p.is_dir()));
                        let how = if source_dir {
                            How::WriteInto
                        } else {
                            How::Write
                        };
                        (paths::target(base, glob, dir), how)
                    };
                    self.actions.extend(landed.map(|target| Action::Touch {
                        target,
                        how,
                        by: name.to_owned(),
                    }));
                }
            }
        }
    }

    fn sed(&mut self, name: &str, rest: &[Arg]) {
        // A script's `w FILE` (and `s///w FILE`) writes FILE, the rest of its line (round
        // 74): any word of the command may be the script, and the text after any `w` the
        // file (a settings file among them is judged).
        for a in rest {
            let v = a.v();
            for (at, _) in v.match_indices('w') {
                let file = v[at + 1..].lines().next().unwrap_or("").trim();
                if !file.is_empty() {
                    self.touch_if_settings(&Arg::plain(file.to_owned()), name);
                }
            }
        }
        let in_place = rest.iter().any(|a| {
            let v = a.v();
            v.starts_with("--in-place")
                || (v.starts_with('-') && !v.starts_with("--") && v.contains('i'))
        });
        if !in_place {
            return;
        }
        let takes = ["-e", "--expression", "-f", "--file", "-l", "--line-length"];
        let scripted = rest.iter().any(|a| {
            let v = a.v();
            takes
                .iter()
                .take(4)
                .any(|t| v == *t || v.starts_with(&format!("{t}=")))
        });
        let ops = operands_with(rest, &takes);
        for &i in ops.iter().skip(usize::from(!scripted)) {
            self.touch(&rest[i], How::Edit, name, None);
        }
    }

    fn awk(&mut self, name: &str, rest: &[Arg], stdin: &[super::walk::Shown]) {
        let in_place = rest.windows(2).any(|w| w[0].is("-i") && w[1].is("inplace"))
            || rest
                .iter()
                .any(|a| matches!(a.v(), "-iinplace" | "--include=inplace"));
        let takes = ["-i", "--include", "-f", "--file", "-v", "--assign", "-F"];
        let programmed = rest.iter().any(|a| a.is("-f") || a.is("--file"));
        let ops = operands_with(rest, &takes);
        if in_place {
            for &i in ops.iter().skip(usize::from(!programmed)) {
                self.touch(&rest[i], How::Edit, name, None);
            }
        }
        // Its program may write files itself (`print > "f"`).
        self.code(name, rest, stdin);
    }

    fn interpreter(&mut self, name: &str, rest: &[Arg], stdin: &[super::walk::Shown]) {
        if matches!(name, "perl" | "ruby") {
            // `-i`, `-i.bak`, `-pi`: in place; the files are the operands that are not
            // code (`-e CODE`, a cluster ending in `e`).
            let in_place = rest.iter().any(|a| {
                let v = a.v();
                v.strip_prefix('-').is_some_and(|flags| {
                    !flags.starts_with('-')
                        && flags.split_once('i').is_some_and(|(before, _)| {
                            before
                                .bytes()
                                .all(|c| b"lnpaswtc0".contains(&c) || c.is_ascii_digit())
                        })
                })
            });
            if in_place {
                let mut skip_next = false;
                let mut files = Vec::new();
                for (i, a) in rest.iter().enumerate() {
                    if skip_next {
                        skip_next = false;
                        continue;
                    }
                    if a.is_option() {
                        skip_next = a.v().ends_with('e') || a.v().ends_with('E');
                        continue;
                    }
                    files.push(i);
                }
                for i in files {
                    self.touch(&rest[i], How::Edit, name, None);
                }
            }
        }
        self.code(name, rest, stdin);
    }

    /// Code an interpreter runs: all its arguments and its standard input.
    fn code(&mut self, name: &str, rest: &[Arg], stdin: &[super::walk::Shown]) {
        let mut text: Vec<u8> = Vec::new();
        for a in rest {
            text.extend_from_slice(a.v().as_bytes());
            text.push(b'\n');
        }
        for t in stdin {
            text.extend_from_slice(t);
            text.push(b'\n');
        }
        // (Scanned below for paths: charged as the reader charges text.)
        if !self.charge(1 + text.len() / crate::shell::BYTES_PER_WORK) {
            return;
        }
        let mut named: Vec<Target> = Vec::new();
        for a in rest.iter().filter(|a| !a.is_option()) {
            named.extend(self.targets(a, None));
        }
        for token in path_tokens(&text) {
            let arg = Arg::unvalued(expand_token(token, self.ctx).map(|t| (vec![t], false)));
            named.extend(self.targets(&arg, None));
        }
        self.actions.push(Action::Code {
            by: name.to_owned(),
            text,
            named,
        });
    }

    /// A shell given the words `rest` after its name, its options read as each shell its name
    /// may be reads them ([`shell_options`]; `sh` may be any): the text of `-c` is walked as
    /// a script, and so is its standard input where it may be the script (no script
    /// operand, `-s`, `-o shinstdin`, or a descriptor named as the script: `sh /dev/stdin`,
    /// `bash /dev/fd/3 3<<'EOF'`).
    fn shell(&mut self, name: &str, rest: &[Arg], stdin: &[super::walk::Shown], depth: usize) {
        let hows: &[ShellOpts] = if name.starts_with("zsh") {
            &[ShellOpts::Zsh]
        } else if name.starts_with("bash") {
            &[ShellOpts::Bash]
        } else {
            &[ShellOpts::Bash, ShellOpts::Dash, ShellOpts::Zsh]
        };
        let mut texts: Vec<usize> = Vec::new();
        let mut from_stdin = false;
        for &how in hows {
            let (i, code, s_flag) = shell_options(rest, how);
            let first = rest.get(i);
            if code && !texts.contains(&i) {
                texts.push(i);
            }
            // (A script word with no value the rule knows may be empty: `sh $(true)`.)
            from_stdin |= s_flag
                || (!code && first.is_none_or(|a| a.value.is_none() || names_descriptor(a.v())));
        }
        for i in texts {
            // `-c TEXT` (also `-lc`, `-ec`, `-c -e TEXT`): TEXT is the first operand (each
            // text it may be: `xargs -I{} sh -c '{}'` given several lines).
            // (Given what the shell reads: `… | sh -c 'cat | sh'`, round 82.)
            let first = rest.get(i);
            if let Some(t) = first.and_then(|a| a.value.clone()) {
                self.nested_fed(t.as_bytes(), depth, stdin);
            } else if let Some((texts, _)) = first.and_then(Arg::texts) {
                for t in texts {
                    self.nested_fed(t.as_bytes(), depth, stdin);
                }
            } else {
                // (Text of no value the rule knows may be a line it read: `… | while read
                // -r l; do sh -c "$l"; done`, round 82.)
                self.may_run(stdin, depth);
            }
        }
        if from_stdin {
            for t in stdin {
                self.nested(t, depth);
            }
        }
    }

    /// What a program the rule does not know may run: a command of its words, as a
    /// wrapper does (`flock l sh -c …`, `taskset 1 rm f`, `strace -f sh -c …`, `unshare -r
    /// …`, `chrt 1 …`, `prlimit … sh -c …`), and shell text it is given (`script -c TEXT`,
    /// `watch TEXT`, `su -c TEXT`, `flock l -c TEXT`). Each word that names one of the
    /// rule's commands (or the guard) is walked as that command with the words after it,
    /// given what the program reads; for one of [`TEXT_RUNNERS`], each word that holds a
    /// blank, an operator, a quote or an expansion is read as a script, given the same.
    /// (Round 94: the wrappers the rule did not know ran `sh -c` text unread.)
    fn unknown_runs(
        &mut self,
        name: &str,
        rest: &[Arg],
        stdin: &[super::walk::Shown],
        depth: usize,
    ) {
        // (A shell reads what these are given on standard input: `at`, `ssh`, `unshare`,
        // `script`, `su` or `newgrp` with no command of their own.)
        if STDIN_RUNNERS.contains(&name) && !(name == "ssh" && ssh_runs_command(rest)) {
            self.may_run(stdin, depth);
        }
        if TEXT_RUNNERS.contains(&name) {
            // Each word that is shell text, as each text it may be (`xargs -I{}` given
            // lines, a glob that matches nothing); and for `watch`, `ssh` and `parallel`,
            // which hand a shell their words as one line (where a quoted `~` or `$HOME` is
            // expanded), the words joined with blanks from the first that is shell text or
            // names a command of the rule's (not their options and host before it:
            // `watch -n1 'jq . f'`, `ssh devbox 'cat f'` read `jq`, `cat`).
            let joins = matches!(name, "watch" | "ssh" | "parallel");
            let mut joined: Option<String> = None;
            for a in rest {
                let Some((texts, _)) = a.texts() else {
                    // (A word of no text the rule knows: what the command reads may be
                    // that text.)
                    self.may_run(stdin, depth);
                    continue;
                };
                let mut text_word = false;
                for t in texts {
                    if t.bytes().any(|c| SHELL_TEXT_BYTE[usize::from(c)]) {
                        text_word = true;
                        self.nested_given(t.as_bytes(), depth, stdin);
                    }
                }
                let Some(first) = texts.first() else {
                    continue;
                };
                if joins
                    && joined.is_none()
                    && (text_word
                        || kind(basename(first), self.ctx).is_some()
                        || runs_input_or_text(basename(first)))
                {
                    joined = Some(String::new());
                }
                if let Some(j) = joined.as_mut() {
                    j.push_str(first);
                    j.push(' ');
                }
            }
            // (One word read already alone.)
            if let Some(j) = joined.filter(|j| j.trim_end().contains(' ')) {
                self.nested_given(j.as_bytes(), depth, stdin);
            }
        }
        // (Inside an outer one's words, which are each walked from there.)
        if self.in_unknown {
            return;
        }
        for (j, a) in rest.iter().enumerate() {
            // A word that names one of the rule's commands: as written, zsh's `=rm`, or a
            // glob with a letter in its last part that may match one (`/bin/r[m]`; not
            // `d/*`, every file of a directory given to a linter).
            let names = match a.value.as_deref() {
                Some(v) => names_rule_command(v, self.ctx) || self.ctx.is_exe(v),
                None => a.texts().is_some_and(|(texts, glob)| {
                    glob && texts.iter().any(|t| {
                        let name = basename(t);
                        name.bytes().any(|c| c.is_ascii_alphanumeric())
                            && !glob_names(name, self.ctx).is_empty()
                    })
                }),
            };
            if names {
                if !self.charge(rest.len() - j) {
                    return;
                }
                self.in_unknown = true;
                self.command(&rest[j..], stdin, depth);
                self.in_unknown = false;
            }
        }
    }

    /// Walks what a command reads on standard input as a script it may run.
    fn may_run(&mut self, stdin: &[super::walk::Shown], depth: usize) {
        for t in stdin {
            self.nested(t, depth);
        }
    }

    /// `cd`: the directory it names is taken in when a later command needs the working
    /// directories ([`Walker::settle_cwds`]), from the ones the `cd`s before it left: a
    /// script of `cd d && ls` lines resolves no path.
    fn cd(&mut self, rest: &[Arg]) {
        let ops = operands(rest);
        match ops.first() {
            None => self.pending_cds.push(None),
            Some(&i) if rest[i].is("-") => {}
            Some(&i) => self.pending_cds.push(Some(rest[i].clone())),
        }
    }

    /// Takes in the directories of the `cd`s not yet taken in, in order: each is read
    /// from the working directories the ones before it left, as if taken in at once.
    pub(super) fn settle_cwds(&mut self) {
        if self.pending_cds.is_empty() {
            return;
        }
        for cd in std::mem::take(&mut self.pending_cds) {
            let dirs: Vec<PathBuf> = match cd {
                None => self.ctx.home.iter().cloned().collect(),
                Some(a) => self
                    .targets(&a, None)
                    .into_iter()
                    .filter_map(|t| match t {
                        Target::Exact(p) => Some(p),
                        Target::Pattern(_) => None,
                    })
                    .collect(),
            };
            self.enter(dirs);
        }
    }

    /// The working directories after a `cd` to one of `dirs`.
    fn enter(&mut self, dirs: Vec<PathBuf>) {
        for d in dirs {
            // `cd` after `cd`, read in any order, nests without end (`cd d_1`, `cd d_2`,
            // … as `d_1/d_2/…`): a directory past [`MAX_CWD_DEPTH`] components is not
            // followed (relative paths are then read from the others).
            // (Normalized: its components are its names, and the root.)
            let bytes = d.as_os_str().as_encoded_bytes();
            let names = bytes
                .split(|&b| b == b'/')
                .filter(|n| !n.is_empty())
                .count();
            if names + usize::from(bytes.first() == Some(&b'/')) > MAX_CWD_DEPTH {
                continue;
            }
            // (Normalized paths: their bytes say whether they are the same.)
            if !self.cwds.iter().any(|c| c.as_os_str() == d.as_os_str()) {
                // Past the most followed, the oldest `cd` is forgotten (never the event's
                // directory): a later relative path is read from the latest ones.
                if self.cwds.len() >= super::walk::MAX_CWDS {
                    self.cwds.remove(1.min(self.cwds.len() - 1));
                }
                self.cwds.push(d);
                self.target_cache.borrow_mut().clear();
            }
        }
    }

    fn git(&mut self, rest: &[Arg]) {
        let mut i = 0;
        let mut cwd: Option<PathBuf> = None;
        while i < rest.len() {
            let v = rest[i].v();
            if v == "-C" {
                cwd = rest.get(i + 1).and_then(|a| {
                    self.targets(a, None).into_iter().find_map(|t| match t {
                        Target::Exact(p) => Some(p),
                        Target::Pattern(_) => None,
                    })
                });
                i += 2;
                continue;
            }
            if matches!(v, "-c" | "--git-dir" | "--work-tree" | "--namespace") {
                i += 2;
                continue;
            }
            if !v.starts_with('-') {
                break;
            }
            i += 1;
        }
        let Some(verb) = rest.get(i).map(Arg::v) else {
            return;
        };
        let how = match verb {
            "checkout" | "restore" => How::Restore,
            "rm" => How::Remove,
            "mv" => How::MoveAway,
            _ => return,
        };
        let args = &rest[i + 1..];
        let takes = ["-b", "-B", "--orphan", "-s", "--source", "--conflict"];
        let ops = operands_with(args, &takes);
        let by = format!("git {verb}");
        let cwd = cwd.as_deref();
        if how == How::MoveAway && ops.len() >= 2 {
            for &s in &ops[..ops.len() - 1] {
                self.touch(&args[s], How::MoveAway, &by, cwd);
            }
            if let Some(&d) = ops.last() {
                self.touch(&args[d], How::Write, &by, cwd);
            }
            return;
        }
        for i in ops {
            self.touch(&args[i], how, &by, cwd);
        }
    }

    fn find(&mut self, rest: &[Arg], stdin: &[super::walk::Shown], depth: usize) {
        let mut i = 0;
        // (Its options before the starting points: `-O3`, `-D tree`, round 74.)
        while i < rest.len() {
            match rest[i].v() {
                "-H" | "-L" | "-P" => i += 1,
                "-D" => i += 2,
                v if v.starts_with("-O") => i += 1,
                _ => break,
            }
        }
        let mut starts = Vec::new();
        while i < rest.len() {
            let v = rest[i].v();
            if v.starts_with('-') || v == "(" || v == "!" {
                break;
            }
            starts.extend(self.targets(&rest[i], None));
            i += 1;
        }
        if starts.is_empty() {
            self.settle_cwds();
            starts.extend(self.cwds.iter().cloned().map(Target::Exact));
        }
        let (mut names, mut patterns) = (Vec::new(), Vec::new());
        // (A negation or an alternative makes the names no limit: `! -name x`, round 74.)
        let any_name = rest[i..]
            .iter()
            .any(|a| matches!(a.v(), "!" | "-not" | "-o" | "-or"));
        let mut destructive = false;
        while i < rest.len() {
            let v = rest[i].v().to_owned();
            match v.as_str() {
                "-name" | "-iname" => {
                    // (An unquoted glob's pattern too: `-name *.log`, round 74.)
                    names.extend(rest.get(i + 1).and_then(|a| {
                        a.value.clone().or_else(|| match a.texts() {
                            Some(([t], _)) => Some(t.clone()),
                            _ => None,
                        })
                    }));
                    i += 2;
                    continue;
                }
                "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                    patterns.extend(rest.get(i + 1).and_then(|a| a.value.clone()));
                    i += 2;
                    continue;
                }
                "-delete" => destructive = true,
                // (Files it writes: round 74.)
                "-fprint" | "-fprint0" | "-fls" => {
                    if let Some(a) = rest.get(i + 1) {
                        let a = a.clone();
                        self.touch(&a, How::Write, "find", None);
                    }
                    i += 2;
                    continue;
                }
                "-fprintf" => {
                    if let Some(a) = rest.get(i + 1) {
                        let a = a.clone();
                        self.touch(&a, How::Write, "find", None);
                    }
                    i += 3;
                    continue;
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    destructive = true;
                    let end = rest[i + 1..]
                        .iter()
                        .position(|a| a.is(";") || a.is("+"))
                        .map_or(rest.len(), |n| i + 1 + n);
                    // The command it runs, with `{}` for what it finds.
                    let sub = &rest[i + 1..end];
                    self.command(sub, stdin, depth);
                    i = end + 1;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        if destructive {
            if any_name {
                names.clear();
                patterns.clear();
            }
            self.actions.push(Action::Find {
                starts,
                names,
                paths: patterns,
            });
        }
    }

    fn package(&mut self, name: &str, rest: &[Arg]) {
        let ops: Vec<&str> = operands(rest).iter().map(|&i| rest[i].v()).collect();
        let verb = ops.first().copied().unwrap_or("");
        let changes = matches!(
            verb,
            "uninstall"
                | "remove"
                | "rm"
                | "r"
                | "un"
                | "unlink"
                | "install"
                | "i"
                | "add"
                | "update"
                | "upgrade"
                | "up"
                | "link"
                | "global"
                | "reinstall"
        );
        let names_guard = rest.iter().any(|a| {
            let v = a.v().trim_start_matches('@');
            v == "heredoc-guard"
                || v.starts_with("heredoc-guard@")
                || v.starts_with("heredoc-guard/")
                || self.ctx.is_exe(a.v())
        });
        if changes && names_guard {
            self.actions.push(Action::Guard(format!(
                "{name} {verb} the installed heredoc-guard"
            )));
        }
    }

    fn gio(&mut self, rest: &[Arg]) {
        let ops = operands(rest);
        let Some((&first, files)) = ops.split_first() else {
            return;
        };
        match rest[first].v() {
            "remove" | "trash" => {
                for &i in files {
                    self.touch(&rest[i], How::Remove, "gio", None);
                }
            }
            "rename" => {
                if let Some(&i) = files.first() {
                    self.touch(&rest[i], How::MoveAway, "gio", None);
                }
            }
            "move" | "copy" => {
                let sub: Vec<Arg> = rest[first + 1..].to_vec();
                self.copy("gio", &sub, rest[first].is("move"));
            }
            "save" => {
                if let Some(&i) = files.first() {
                    self.touch(&rest[i], How::Write, "gio", None);
                }
            }
            _ => {}
        }
    }
}

/// The bytes that make a word given to a program shell text it may run
/// ([`Walker::unknown_runs`]): blanks, operators, quotes, expansions and braces.
const SHELL_TEXT_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = matches!(
            c as u8,
            b' ' | b'\t'
                | b'\n'
                | b';'
                | b'&'
                | b'|'
                | b'<'
                | b'>'
                | b'('
                | b'`'
                | b'$'
                | b'\''
                | b'"'
                | b'\\'
                | b'{'
        );
        c += 1;
    }
    t
};

/// Whether `ssh` given `rest` names a command after its host (which then reads what ssh
/// reads: `ssh h bash -s <<'EOF'`), past its options and their values.
fn ssh_runs_command(rest: &[Arg]) -> bool {
    let mut operands = 0;
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        let v = a.v();
        if v == "--" {
            operands += rest.len() - i - 1;
            break;
        }
        if v.starts_with('-') && v.len() > 1 {
            i += if takes_next(v, b"BbcDEeFIiJLlmOopQRSWw", &[]) {
                2
            } else {
                1
            };
            continue;
        }
        operands += 1;
        i += 1;
    }
    operands > 1
}

/// Whether word `w` names one of the rule's commands or a program that runs shell text
/// or what it reads: by its file name, zsh's `=rm` as `rm`.
pub(super) fn names_rule_command(w: &str, ctx: &Ctx) -> bool {
    let w = w.strip_prefix('=').filter(|n| !n.is_empty()).unwrap_or(w);
    let name = basename(w);
    kind(name, ctx).is_some() || runs_input_or_text(name)
}

/// Whether program `name` runs a shell on what it reads or on a word
/// ([`STDIN_RUNNERS`], [`TEXT_RUNNERS`]).
pub(super) fn runs_input_or_text(name: &str) -> bool {
    STDIN_RUNNERS.contains(&name) || TEXT_RUNNERS.contains(&name)
}

/// Programs that hand what they read on standard input to a shell: `at` and `batch`,
/// `ssh`, and with no command of their own `unshare`, `script`, `su`, `runuser`, `newgrp`,
/// `sg`. (Not `crontab -`: its lines are five time fields and a command, run later.)
const STDIN_RUNNERS: &[&str] = &[
    "at", "batch", "newgrp", "runuser", "script", "sg", "ssh", "su", "unshare",
];

/// Programs that run shell text they are given as a word, by their manuals (`script -c`,
/// `su -c`, `runuser -c`, `flock -c`, `sg GROUP CMD`, `watch`, `parallel`, `tmux`,
/// `screen`, `ssh`, terminal emulators' `-e`, `entr -s`):
/// each of their words that is shell text (a blank, an operator, a quote, an expansion) is
/// read as a script. Other programs' text words are data (`gh issue comment --body '…'`);
/// their words that name a command are walked ([`Walker::unknown_runs`]).
const TEXT_RUNNERS: &[&str] = &[
    "entr",
    "flock",
    "gnome-terminal",
    "konsole",
    "parallel",
    "runuser",
    "screen",
    "script",
    "sem",
    "sg",
    "ssh",
    "su",
    "tmux",
    "watch",
    "x-terminal-emulator",
    "xterm",
];

/// The index of the command's name, past wrappers (`sudo`, `env`, `command`, `exec`,
/// `nohup`, `nice`, `timeout`, `xargs`, …) and their options.
fn skip_wrappers(args: &[Arg], ctx: &Ctx) -> usize {
    let mut at = 0;
    while let Some(a) = args.get(at) {
        let Some(v) = a.value.as_deref() else {
            return at;
        };
        let name = basename(v);
        if kind(name, ctx) != Some(Kind::Wrapper) {
            return at;
        }
        at += 1;
        // The wrapper's options (and their values), then its own operands.
        let (short, long) = wrapper_takes(name);
        while let Some(o) = args.get(at) {
            let v = o.v();
            if v == "--" {
                at += 1;
                // (`env -- X=1 sh`: env takes assignments after it too.)
                while name == "env" && args.get(at).is_some_and(|a| a.v().contains('=')) {
                    at += 1;
                }
                break;
            }
            // (`env -` is `env -i`.)
            if name == "env" && v == "-" {
                at += 1;
                continue;
            }
            if name == "command" && matches!(v, "-v" | "-V") {
                // `command -v x` only says where x is.
                return args.len();
            }
            if v.starts_with('-') && v.len() > 1 {
                at += if takes_next(v, short, long) { 2 } else { 1 };
                continue;
            }
            if name == "env" && v.contains('=') {
                at += 1;
                continue;
            }
            break;
        }
        if name == "timeout" {
            // The duration.
            at += 1;
        }
        if name == "nice" && args.get(at).is_some_and(|a| a.v().parse::<i64>().is_ok()) {
            at += 1;
        }
    }
    at
}

/// Where `env` is given `-S TEXT` among `args` (after an `env`): TEXT, and the index of
/// the first word after it. (`-S` in a cluster of env's flags, `-iS`,
/// `-vSTEXT`; `--split-string` and its abbreviations, `--sp TEXT`, `--s=TEXT`.)
fn env_split_string(args: &[Arg]) -> Option<(String, usize)> {
    let env = args.iter().position(|a| basename(a.v()) == "env")?;
    let mut value_next = false;
    for (i, a) in args.iter().enumerate().skip(env + 1) {
        let v = a.v();
        let next = || args.get(i + 1).and_then(|a| a.value.clone());
        if value_next && !v.starts_with('-') {
            value_next = false;
            continue;
        }
        if let Some(long) = v.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, val)) => (n, Some(val.to_owned())),
                None => (long, None),
            };
            if !name.is_empty() && "split-string".starts_with(name) {
                return match value {
                    Some(val) => Some((val, i + 1)),
                    None => Some((next()?, i + 2)),
                };
            }
            value_next = value.is_none()
                && !name.is_empty()
                && ["unset", "chdir", "argv0"]
                    .iter()
                    .any(|o| o.starts_with(name));
            continue;
        }
        let Some(letters) = v.strip_prefix('-') else {
            // (The command env runs, or an assignment.)
            if v.contains('=') || value_next {
                value_next = false;
                continue;
            }
            return None;
        };
        if std::mem::take(&mut value_next) {
            continue;
        }
        for (k, c) in letters.char_indices() {
            match c {
                'S' => {
                    let rest = &letters[k + 1..];
                    return if rest.is_empty() {
                        Some((next()?, i + 2))
                    } else {
                        Some((rest.to_owned(), i + 1))
                    };
                }
                // (Another option's value: the rest of the word, or the next word: `-u X
                // -S …`, round 82.)
                'u' | 'C' | 'a' => {
                    value_next = k + 1 == letters.len();
                    break;
                }
                _ => {}
            }
        }
    }
    None
}

/// `env -S`'s text as GNU env splits it, written back as shell words: blanks separate
/// words; `'…'` keeps its text (but `\\` and `\'`), `"…"` and bare text take env's escapes
/// (`\_` a blank, `\t`, `\n`, `\v`, `\f`, `\r`, `\c` ends the text, `\\`, `\"`, `\'`, `\$`,
/// `\#`); a `#` that starts a word starts a comment; `${NAME}` is the variable's value
/// (written `"${NAME}"`, the shell's own).
fn env_split(text: &str) -> String {
    let b = text.as_bytes();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut lit: Vec<u8> = Vec::new();
    let mut in_word = false;
    // (A `~` that starts a word is left to the shell's reading, which takes it for the home
    // directory: env does not, but a path it names there may be the hook's.)
    let flush_lit = |word: &mut String, lit: &mut Vec<u8>| {
        if !lit.is_empty() {
            let text = String::from_utf8_lossy(lit);
            match text.strip_prefix('~').filter(|_| word.is_empty()) {
                Some(rest) => {
                    word.push('~');
                    word.push_str(&shell_quote(rest));
                }
                None => word.push_str(&shell_quote(&text)),
            }
            lit.clear();
        }
    };
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i += 1;
        match (quote, c) {
            (None, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') => {
                if in_word {
                    flush_lit(&mut word, &mut lit);
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, b'#') if !in_word => break,
            (None, b'\'' | b'"') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), _) if c == q => quote = None,
            (Some(b'\''), b'\\') => match b.get(i) {
                Some(&n @ (b'\\' | b'\'')) => {
                    lit.push(n);
                    i += 1;
                }
                _ => lit.push(c),
            },
            (Some(b'\''), _) => lit.push(c),
            (_, b'\\') => {
                let Some(&n) = b.get(i) else { break };
                i += 1;
                in_word = true;
                match n {
                    b'c' => break,
                    b'_' if quote.is_none() => {
                        flush_lit(&mut word, &mut lit);
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                    b'_' => lit.push(b' '),
                    b't' => lit.push(b'\t'),
                    b'n' => lit.push(b'\n'),
                    b'v' => lit.push(0x0b),
                    b'f' => lit.push(0x0c),
                    b'r' => lit.push(b'\r'),
                    _ => lit.push(n),
                }
            }
            (_, b'$') if b.get(i) == Some(&b'{') => {
                let end = b[i..].iter().position(|&x| x == b'}').map(|k| i + k);
                let Some(end) = end else { break };
                let name = &b[i + 1..end];
                // (env runs nothing given another name.)
                if name.first().is_none_or(u8::is_ascii_digit)
                    || !name.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    break;
                }
                flush_lit(&mut word, &mut lit);
                word.push_str("\"${");
                word.push_str(&String::from_utf8_lossy(name));
                word.push_str("}\"");
                i = end + 1;
                in_word = true;
            }
            _ => {
                lit.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        flush_lit(&mut word, &mut lit);
        words.push(word);
    }
    words.join(" ")
}

/// `v` as one shell word, single-quoted.
fn shell_quote(v: &str) -> String {
    format!("'{}'", v.replace('\'', "'\\''"))
}

/// The texts `npx`, `pnpx`, `bunx` or `npm exec` (`npm x`) run with a shell: `-c TEXT`,
/// `--call TEXT`, `--call=TEXT`.
fn package_call(args: &[Arg]) -> Vec<String> {
    let start = args
        .iter()
        .position(|a| matches!(basename(a.v()), "npx" | "pnpx" | "bunx"))
        .or_else(|| npm_exec(args));
    let Some(start) = start else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut k = start + 1;
    while let Some(a) = args.get(k) {
        let v = a.v();
        k += 1;
        if v == "--" {
            break;
        }
        // (npm takes `--c`, `--ca`, `--cal` for `--call`.)
        let call = |o: &str| o.len() >= 3 && "--call".starts_with(o);
        if let Some((o, t)) = v.split_once('=')
            && (o == "-c" || call(o))
        {
            out.push(t.to_owned());
        } else if v == "-c" || call(v) {
            out.extend(args.get(k).and_then(|a| a.value.clone()));
            k += 1;
        }
    }
    out
}

/// Where `npm exec` (`npm exe`, `npm x`, behind npm's options: `npm -y exec`, `npm
/// --prefix d exec`) or `pnpm exec` stands among `args`: the index of `exec`.
fn npm_exec(args: &[Arg]) -> Option<usize> {
    let npm = args
        .iter()
        .position(|a| matches!(basename(a.v()), "npm" | "pnpm"))?;
    // (Any word after it: npm's options may take values, `npm --prefix d exec`.)
    args.iter()
        .enumerate()
        .skip(npm + 1)
        .find(|(_, a)| matches!(a.v(), "exec" | "exe" | "x"))
        .map(|(i, _)| i)
}

/// Whose option parsing a shell's words are read by.
#[derive(Clone, Copy, PartialEq)]
enum ShellOpts {
    Bash,
    Dash,
    Zsh,
}

/// How shell `how` reads the words `rest` after its name: the index of its first operand,
/// whether `-c` makes that operand its text, and whether an option makes it read its script
/// from standard input (`-s`, also in a cluster: `-es x`; `-o shinstdin`, dash's `-o
/// stdin`, zsh's `--shinstdin`; round 82). bash first takes its long options, with one dash
/// or two (`-login`, `-rcfile FILE`: `parse_long_options`, up to the first word that is
/// none); then each `o` in a cluster takes the next word in bash and dash (`-eo pipefail`),
/// as does bash's `O`, and zsh's `o` the rest of its word where there is one.
fn shell_options(rest: &[Arg], how: ShellOpts) -> (usize, bool, bool) {
    let mut i = 0;
    let (mut code, mut s_flag) = (false, false);
    if how == ShellOpts::Bash {
        while let Some(v) = rest.get(i).and_then(|a| a.value.as_deref()) {
            let long = v
                .strip_prefix("--")
                .filter(|n| !n.is_empty())
                .or_else(|| v.strip_prefix('-'));
            match long {
                Some("rcfile" | "init-file") => i += 2,
                Some(
                    "debug" | "debugger" | "dump-po-strings" | "dump-strings" | "help" | "login"
                    | "noediting" | "noprofile" | "norc" | "posix" | "pretty-print" | "protected"
                    | "restricted" | "verbose" | "version" | "wordexp",
                ) => i += 1,
                _ => break,
            }
        }
    }
    // (A word of no value the rule knows is the first operand: the script, which may be
    // empty, or `-c`'s text.)
    while let Some(v) = rest.get(i).and_then(|a| a.value.as_deref()) {
        let (on, flags) = match v.as_bytes().first() {
            Some(b'-') => (true, &v[1..]),
            Some(b'+') => (false, &v[1..]),
            _ => break,
        };
        i += 1;
        if flags.is_empty() || flags == "-" {
            break;
        }
        if let Some(long) = flags.strip_prefix('-') {
            match long {
                "rcfile" | "init-file" | "emulate" => i += 1,
                _ => s_flag |= how == ShellOpts::Zsh && stdin_option(long, on),
            }
            continue;
        }
        for (k, c) in flags.bytes().enumerate() {
            match c {
                b'c' => code = true,
                b's' => s_flag = true,
                b'o' if how == ShellOpts::Zsh && k + 1 < flags.len() => {
                    s_flag |= stdin_option(&flags[k + 1..], on);
                    break;
                }
                b'o' => {
                    // (An option's name of no value the rule knows may be that one.)
                    s_flag |= rest
                        .get(i)
                        .is_some_and(|a| a.value.as_deref().is_none_or(|n| stdin_option(n, on)));
                    i += 1;
                }
                b'O' if how == ShellOpts::Bash => i += 1,
                _ => {}
            }
        }
    }
    (i, code, s_flag)
}

/// Whether option `name`, set (`on`, `-o`) or unset (`+o`), makes a shell read its script
/// from standard input: zsh's `SHIN_STDIN` however spelled (case, `_` and `-` do not
/// count; `no` turns it around), dash's `stdin`.
fn stdin_option(name: &str, on: bool) -> bool {
    let n: String = name
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match n.strip_prefix("no") {
        Some("shinstdin" | "stdin") => !on,
        _ => matches!(n.as_str(), "shinstdin" | "stdin") && on,
    }
}

/// A wrapper's options that take a value: its letters, and its long options (`--signal`).
fn wrapper_takes(name: &str) -> (&'static [u8], &'static [&'static str]) {
    match name {
        "sudo" => (
            b"ugCDprtTUhR",
            &[
                "--user",
                "--group",
                "--chdir",
                "--prompt",
                "--close-from",
                "--role",
                "--type",
                "--other-user",
                "--host",
                "--chroot",
                "--command-timeout",
            ],
        ),
        "doas" => (b"uC", &[]),
        "env" => (
            b"uCSa",
            &["--unset", "--chdir", "--split-string", "--argv0"],
        ),
        "exec" => (b"a", &[]),
        "nice" => (b"n", &["--adjustment"]),
        "ionice" => (
            b"cnpPu",
            &["--class", "--classdata", "--pid", "--pgid", "--uid"],
        ),
        "timeout" => (b"sk", &["--signal", "--kill-after"]),
        "stdbuf" => (b"ioe", &["--input", "--output", "--error"]),
        "time" => (b"fo", &["--format", "--output"]),
        "xargs" => (
            b"InPdLsEa",
            &[
                "--arg-file",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--max-chars",
                "--process-slot-var",
            ],
        ),
        "npx" | "bunx" | "pnpx" => (b"pc", &["--package", "--call"]),
        _ => (b"", &[]),
    }
}

/// Whether option word `v` (`-x…` or `--…`) takes the next word as its value, as getopt
/// reads it: a cluster whose first letter that takes a value is its last (`-iu X`, not
/// `-uX`), or a long option without `=` that is one of `long` or the start of one
/// (`--sig KILL`: GNU takes an unambiguous start for the whole; round 82).
fn takes_next(v: &str, short: &[u8], long: &[&str]) -> bool {
    match v.strip_prefix("--") {
        Some(l) => !l.contains('=') && !l.is_empty() && long.iter().any(|o| o[2..].starts_with(l)),
        None => {
            let letters = v.as_bytes().get(1..).unwrap_or_default();
            letters
                .iter()
                .position(|c| short.contains(c))
                .is_some_and(|k| k + 1 == letters.len())
        }
    }
}

/// The indices of the operands: words that are not options (or are after `--`).
/// The text a word gives a command that runs it as shell code (`eval`, `trap`): its value,
/// or, for a word that is a glob, the pattern as written, which is what the shell passes
/// where nothing matches (`trap 'rm ~/.claude/settings.json'* EXIT`, round 78).
fn shown_text(a: &Arg) -> Option<String> {
    match (&a.value, a.texts()) {
        (Some(v), _) => Some(v.clone()),
        (None, Some(([one], true))) => Some(one.clone()),
        _ => None,
    }
}

fn operands(args: &[Arg]) -> Vec<usize> {
    operands_with(args, &[])
}

/// [`operands`], skipping the value after each option in `takes` (`-s 0`, not `--size=0`).
fn operands_with(args: &[Arg], takes: &[&str]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut options = true;
    while i < args.len() {
        let a = &args[i];
        if options && a.is("--") {
            options = false;
            i += 1;
            continue;
        }
        if options && a.is_option() {
            i += if takes.contains(&a.v()) { 2 } else { 1 };
            continue;
        }
        out.push(i);
        i += 1;
    }
    out
}

pub(super) fn basename(s: &str) -> &str {
    match crate::search::rfind_byte(s.as_bytes(), b'/') {
        Some(at) => s.get(at + 1..).unwrap_or(s),
        None => s,
    }
}

/// The pieces of code text that may be paths: split at blanks, quotes, brackets and
/// operators; kept when they hold a `/` or start with `~`, and are not a URL.
fn path_tokens(text: &[u8]) -> impl Iterator<Item = &str> {
    text.split(|c| c.is_ascii_whitespace() || b"'\"`(),;[]{}=+<>|&*".contains(c))
        .filter_map(|t| std::str::from_utf8(t).ok())
        .filter(|t| (t.contains('/') || t.starts_with('~')) && !t.contains("://") && t.len() < 4096)
}

/// A code token as a path: `~` and `$HOME`/`${HOME}` at its start replaced.
fn expand_token(t: &str, ctx: &Ctx) -> Option<String> {
    let home = || ctx.var(b"HOME");
    if let Some(rest) = t.strip_prefix('~') {
        return (rest.is_empty() || rest.starts_with('/'))
            .then(|| format!("{}{rest}", home().unwrap_or_default()));
    }
    for v in ["$HOME", "${HOME}"] {
        if let Some(rest) = t.strip_prefix(v) {
            return home().map(|h| format!("{h}{rest}"));
        }
    }
    (!t.contains('$')).then(|| t.to_owned())
}

#[cfg(test)]
mod tests {
    /// The table is sorted by name, with no name twice: the binary search finds each.
    #[test]
    fn the_kinds_table_is_sorted_and_each_name_is_found() {
        assert!(
            super::KINDS
                .windows(2)
                .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes())
        );
        let home = std::env::temp_dir();
        let ctx = super::Ctx {
            cwd: None,
            exe: Vec::new(),
            path_dirs: Vec::new(),
            home: Some(home),
            homes: Vec::new(),
            managed: Vec::new(),
        };
        for &(n, k) in super::KINDS {
            assert_eq!(super::kind(n, &ctx), Some(k), "{n}");
        }
    }
}
