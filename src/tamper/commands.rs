//! What the commands a reading saw do to files and to the guard, from the reader's own
//! events (`crate::shell::tree`): each simple command's words after quote removal
//! (`crate::shell::word`), its redirections, and the heredocs and here-strings it reads.
//! Nothing here looks at the command's text with a scanner of its own: text a command runs
//! as shell code (`bash -c`, `eval`, a heredoc or a pipe given to a shell) is read by the
//! reader again and walked the same way.
//!
//! Each command gives [`Action`]s: a path it writes, edits, moves away, removes or
//! restores (its name resolved as `paths.rs` resolves it, from every working directory the
//! command can be in: the event's, and each a literal `cd` names), code it hands an
//! interpreter, or a change to the guard itself (its CLI's `install`/`uninstall`, its
//! package, its plugin, a client's own hooks switch). A word the guard cannot resolve (a
//! substitution, a variable it does not know) names no path: computed paths are not
//! covered.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use super::Ctx;
use super::paths::{self, Target};
use crate::shell::tree::{Event, RedirOp, Redirect, SimpleCommand, Word};
use crate::shell::word::{self, SubstEnds, WordInfo};
use crate::shell::{Dialect, Reading, Shell, Text, Work};

/// How a command changes a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum How {
    /// Writes it (a redirection, `tee`, `cp`/`mv`/`ln` onto it, `dd of=`, `truncate`).
    Write,
    /// Edits it in place (`sed -i`, `perl -i`, an editor).
    Edit,
    /// Removes it, and what is below it.
    Remove,
    /// Moves it away, and what is below it.
    MoveAway,
    /// Changes its mode, owner or attributes, and what is below it.
    Mode,
    /// Puts back another version of it, and of what is below it (`git checkout`).
    Restore,
}

impl How {
    /// What is done to what is below a directory too.
    pub(super) fn recursive(self) -> bool {
        matches!(self, How::Remove | How::MoveAway | How::Mode | How::Restore)
    }

    /// It puts text of the command's into the file.
    pub(super) fn writes_content(self) -> bool {
        matches!(self, How::Write | How::Edit)
    }
}

/// One thing a command does that may concern the guard.
#[derive(Clone, Debug)]
pub(super) enum Action {
    /// A change to the guard itself: what it is, for the reason.
    Guard(String),
    /// A path changed: how, and by which command (its name, for the reason).
    Touch {
        target: Target,
        how: How,
        by: String,
    },
    /// `find` removing (or running a command on) what it finds under `starts`, filtered by
    /// its `-name` patterns and its `-path` patterns.
    Find {
        starts: Vec<Target>,
        names: Vec<String>,
        paths: Vec<String>,
    },
    /// Code an interpreter runs (its arguments and what it reads on standard input), and
    /// the paths it names (in its text and as operands).
    Code {
        by: String,
        text: Vec<u8>,
        named: Vec<Target>,
    },
    /// Shell text the guard does not read (nested past its limits) that names the guard's
    /// places.
    Unread,
}

/// Deepest nesting of shell text run by a shell (`bash -c`, `eval`, a heredoc given to a
/// shell) that is read.
pub(super) const MAX_DEPTH: usize = 4;
/// Most nested shell texts read for one command.
const MAX_NESTED: usize = 64;
/// Most working directories followed (the event's and those `cd` names).
const MAX_CWDS: usize = 8;

/// Substrings of shell text that could concern the guard, for text that is not read.
const MARKERS: [&str; 10] = [
    "heredoc-guard",
    ".claude",
    ".codex",
    ".gemini",
    ".copilot",
    "/etc/",
    "/Library/",
    "settings",
    "hooks",
    "config",
];

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
    Source,
    Cd,
    PackageManager,
    Claude,
    Codex,
    Gio,
}

/// The kind of the command named `name` (a basename).
pub(super) fn kind(name: &str, ctx: &Ctx) -> Option<Kind> {
    Some(match name {
        "heredoc-guard" => Kind::Guard,
        "sudo" | "doas" | "env" | "command" | "exec" | "nohup" | "nice" | "ionice" | "time"
        | "timeout" | "stdbuf" | "setsid" | "builtin" | "busybox" | "xargs" => Kind::Wrapper,
        "rm" | "unlink" | "shred" | "srm" | "trash" | "trash-put" | "rmdir" | "wipe" => {
            Kind::Remove
        }
        "chmod" | "chown" | "chgrp" | "chattr" => Kind::Mode,
        "truncate" => Kind::Truncate,
        "mv" => Kind::Move,
        "cp" | "ln" | "install" | "rsync" | "scp" | "link" => Kind::CopyTo,
        "tee" | "sponge" => Kind::Tee,
        "dd" => Kind::Dd,
        "sed" | "gsed" => Kind::Sed,
        "awk" | "gawk" => Kind::Awk,
        "git" => Kind::Git,
        "find" => Kind::Find,
        "ed" | "ex" | "vi" | "vim" | "nvim" | "nano" | "emacs" | "micro" => Kind::Editor,
        "node" | "nodejs" | "deno" | "perl" | "ruby" | "php" | "lua" | "luajit" | "Rscript"
        | "osascript" | "tclsh" => Kind::Interpreter,
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "fish" => Kind::Shell,
        "eval" => Kind::Eval,
        "source" | "." => Kind::Source,
        "cd" | "pushd" => Kind::Cd,
        "npm" | "pnpm" | "yarn" | "bun" | "cargo" | "brew" => Kind::PackageManager,
        "claude" => Kind::Claude,
        "codex" => Kind::Codex,
        "gio" => Kind::Gio,
        n if n.starts_with("python") || n.starts_with("pypy") => Kind::Interpreter,
        n if ctx.is_exe_name(n) => Kind::Guard,
        _ => return None,
    })
}

/// A word of a simple command, read.
#[derive(Clone)]
struct Arg {
    /// Its one value, when the guard knows it (literal pieces and known variables; no
    /// glob, no brace expansion).
    value: Option<String>,
    /// The texts it stands for as paths, and whether they are globs.
    texts: Option<(Vec<String>, bool)>,
}

impl Arg {
    fn is(&self, s: &str) -> bool {
        self.value.as_deref() == Some(s)
    }

    fn v(&self) -> &str {
        self.value.as_deref().unwrap_or("")
    }

    /// An option word: `-x…` or `--…` (not `-` alone).
    fn is_option(&self) -> bool {
        self.value
            .as_deref()
            .is_some_and(|v| v.starts_with('-') && v.len() > 1)
    }
}

/// The walk over one command's readings.
pub(super) struct Walker<'a> {
    ctx: &'a Ctx,
    work: &'a Work,
    /// Every working directory a command can be in.
    cwds: Vec<PathBuf>,
    pub(super) actions: Vec<Action>,
    /// Text the command shows beyond its own bytes: word values that quote removal or
    /// escapes change, nested shell text.
    pub(super) shown: Vec<Vec<u8>>,
    /// Simple commands already walked (the readings mostly agree).
    seen: HashSet<u64>,
    /// The substitutions of the reading being walked that say where a program is.
    located: HashMap<u32, String>,
    nested: usize,
    /// The meter ran out: the walk stopped.
    pub(super) over: bool,
}

impl<'a> Walker<'a> {
    pub(super) fn new(ctx: &'a Ctx, work: &'a Work) -> Walker<'a> {
        Walker {
            ctx,
            work,
            cwds: ctx.cwd.iter().cloned().collect(),
            actions: Vec::new(),
            shown: Vec::new(),
            seen: HashSet::new(),
            located: HashMap::new(),
            nested: 0,
            over: false,
        }
    }

    /// Walks reading `r` of `text` (the command, or nested shell text) at `depth`.
    pub(super) fn reading(&mut self, r: &Reading, text: &[u8], depth: usize) {
        let ends = Ends(
            r.events
                .iter()
                .filter_map(|e| match e {
                    Event::SubstClose(at, end) => Some((*at, *end)),
                    _ => None,
                })
                .collect(),
        );
        let found = self.located(r, &ends);
        let saved = std::mem::replace(&mut self.located, found);
        let mut last_out: Option<Vec<Vec<u8>>> = None;
        let mut piped: Option<Vec<Vec<u8>>> = None;
        for e in &r.events {
            if self.over {
                return;
            }
            match e {
                Event::Simple(c) => {
                    let stdin = piped.take();
                    last_out = self.simple(c, r, text, &ends, stdin, depth);
                }
                Event::Pipe => piped = last_out.take(),
                Event::Redirect(rd) => {
                    last_out = None;
                    self.redirect(rd, &ends, "a redirection");
                }
                _ => last_out = None,
            }
        }
        self.located = saved;
    }

    /// The substitutions of reading `r` that only say where a program is (`$(command -v
    /// heredoc-guard)`, `` `which X` ``, `$(type -P X)`), by their offset: the path of the
    /// first `X` in a PATH directory.
    fn located(&mut self, r: &Reading, ends: &Ends) -> HashMap<u32, String> {
        let mut out = HashMap::new();
        // Each open substitution: its offset and the simple commands directly in it.
        let mut open: Vec<(u32, Vec<&SimpleCommand>, bool)> = Vec::new();
        for e in &r.events {
            match e {
                Event::SubstOpen(at) => open.push((*at, Vec::new(), false)),
                Event::SubstClose(at, _) => {
                    let Some((start, simples, other)) = open.pop() else {
                        continue;
                    };
                    if let Some(parent) = open.last_mut() {
                        parent.2 = true;
                    }
                    if start != *at || other {
                        continue;
                    }
                    if let [c] = simples.as_slice()
                        && let Some(path) = self.lookup(c, ends)
                    {
                        out.insert(start, path);
                    }
                }
                Event::Simple(c) => {
                    if let Some(top) = open.last_mut() {
                        top.1.push(c);
                    }
                }
                _ => {
                    if let Some(top) = open.last_mut() {
                        top.2 = true;
                    }
                }
            }
        }
        out
    }

    /// `which X`, `command -v X`, `type -p X`, `type -P X`, `whence -p X`: where X is.
    fn lookup(&mut self, c: &SimpleCommand, ends: &Ends) -> Option<String> {
        if !c.redirects.is_empty() {
            return None;
        }
        let mut values = Vec::with_capacity(c.words.len());
        for w in &c.words {
            values.push(self.word(w, ends)?.value()?);
        }
        let words: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let name = match words.as_slice() {
            [b"which", x] | [b"command", b"-v", x] | [b"type", b"-p" | b"-P", x] => x,
            [b"whence", b"-p", x] => x,
            _ => return None,
        };
        let name = std::str::from_utf8(name).ok()?;
        if name.contains('/') {
            return None;
        }
        self.ctx
            .path_dirs
            .iter()
            .map(|d| d.join(name))
            .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
            .map(|p| p.to_string_lossy().into_owned())
    }

    fn charge(&mut self, n: usize) -> bool {
        if !self.work.charge(n) {
            self.over = true;
        }
        !self.over
    }

    /// Reads a word, charging the meter.
    fn word(&mut self, w: &Word, ends: &Ends) -> Option<WordInfo> {
        let (info, steps) = word::read_counted(&w.text, ends);
        self.charge(steps + 1).then_some(info)
    }

    fn arg(&mut self, w: &Word, ends: &Ends) -> Option<Arg> {
        let info = self.word(w, ends)?;
        // A word whose value differs from how it is written is text the command shows.
        let lit: Vec<u8> = info
            .pieces
            .iter()
            .filter_map(|p| match p {
                word::Piece::Lit(l) => Some(l.as_slice()),
                _ => None,
            })
            .flatten()
            .copied()
            .collect();
        // (Kept only when it may hold a switch: the switches' keys all hold `ooks`.)
        if lit != w.text.bytes()
            && (memchr::memmem::find(&lit, b"ooks").is_some()
                || memchr::memmem::find(&lit, b"heredoc-guard@").is_some())
        {
            self.shown.push(lit);
        }
        let ctx = self.ctx;
        let pwd = self.cwds.first().cloned();
        let var = move |name: &[u8]| -> Option<String> {
            if name == b"PWD" {
                return pwd.as_ref().map(|p| p.to_string_lossy().into_owned());
            }
            ctx.var(name)
        };
        let located = &self.located;
        let subst = |at: u32| located.get(&at).cloned();
        let texts = paths::texts(&info, &var, &subst);
        let value = match &texts {
            Some((t, false)) if t.len() == 1 && !info.brace => t.first().cloned(),
            _ => None,
        };
        Some(Arg { value, texts })
    }

    /// The targets a path argument names, from every working directory (or from `cwd`).
    fn targets(&self, a: &Arg, cwd: Option<&Path>) -> Vec<Target> {
        let Some((texts, glob)) = &a.texts else {
            return Vec::new();
        };
        let cwds: Vec<&Path> = match cwd {
            Some(c) => vec![c],
            None => self.cwds.iter().map(PathBuf::as_path).collect(),
        };
        let mut out = Vec::new();
        for t in texts {
            if Path::new(t).is_absolute() {
                out.extend(paths::target(t, *glob, Path::new("/")));
            } else {
                for c in &cwds {
                    out.extend(paths::target(t, *glob, c));
                }
            }
        }
        out
    }

    fn touch(&mut self, a: &Arg, how: How, by: &str, cwd: Option<&Path>) {
        for target in self.targets(a, cwd) {
            self.actions.push(Action::Touch {
                target,
                how,
                by: by.to_owned(),
            });
        }
    }

    /// A redirection that writes a file.
    fn redirect(&mut self, rd: &Redirect, ends: &Ends, by: &str) {
        let writes = match rd.op {
            RedirOp::Output | RedirOp::ReadWrite => true,
            // `>& file` and `&> file`: a word that is not a descriptor is a file.
            RedirOp::Duplicate => true,
            _ => false,
        };
        let Some(t) = rd.target.as_ref().filter(|_| writes) else {
            return;
        };
        let Some(a) = self.arg(t, ends) else { return };
        if rd.op == RedirOp::Duplicate
            && a.value
                .as_deref()
                .is_none_or(|v| v == "-" || v.bytes().all(|c| c.is_ascii_digit()))
        {
            return;
        }
        self.touch(&a, How::Write, by, None);
    }

    /// Walks one simple command; returns what it writes to a pipe, when the command shows
    /// it (`cat` of a heredoc, `echo`, `printf`).
    fn simple(
        &mut self,
        c: &SimpleCommand,
        r: &Reading,
        text: &[u8],
        ends: &Ends,
        piped: Option<Vec<Vec<u8>>>,
        depth: usize,
    ) -> Option<Vec<Vec<u8>>> {
        if !self.charge(1) {
            return None;
        }
        if !self.seen.insert(key(c, r, depth, piped.is_some())) {
            return None;
        }
        // What it reads on standard input that the command shows.
        let mut stdin: Vec<Vec<u8>> = piped.unwrap_or_default();
        for rd in &c.redirects {
            match rd.op {
                RedirOp::Heredoc => {
                    if let Some(h) = r.heredocs.iter().find(|h| h.op == rd.at)
                        && let Some(body) = text.get(h.body.0 as usize..h.body.1 as usize)
                    {
                        stdin.push(body.to_vec());
                    }
                }
                RedirOp::HereString => {
                    if let Some(t) = &rd.target
                        && let Some(a) = self.arg(t, ends)
                        && let Some(v) = a.value
                    {
                        stdin.push(v.into_bytes());
                    }
                }
                _ => {}
            }
        }
        let mut args = Vec::with_capacity(c.words.len());
        let assignments = c
            .words
            .iter()
            .take_while(|w| word::assignment(&w.text, ends).is_some())
            .count();
        for w in &c.words[assignments..] {
            args.push(self.arg(w, ends)?);
        }
        for rd in &c.redirects {
            self.redirect(rd, ends, "a redirection");
        }
        let name = self.command(&args, &stdin, depth);
        match name.as_deref() {
            Some("cat") => Some(stdin),
            Some("echo" | "printf") => Some(vec![
                args.iter()
                    .skip(1)
                    .map(Arg::v)
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into_bytes(),
            ]),
            _ => None,
        }
    }

    /// Walks one command's words (after its assignments); returns its name.
    fn command(&mut self, args: &[Arg], stdin: &[Vec<u8>], depth: usize) -> Option<String> {
        let at = skip_wrappers(args, self.ctx);
        let name_arg = args.get(at)?;
        let full = name_arg.value.clone()?;
        let name = basename(&full).to_owned();
        let rest = &args[at + 1..];
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
                        let arg = Arg {
                            value: Some(of.to_owned()),
                            texts: Some((vec![of.to_owned()], false)),
                        };
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
            Some(Kind::Shell) => self.shell(rest, stdin, depth),
            Some(Kind::Eval) => {
                let values: Option<Vec<&str>> = rest.iter().map(|a| a.value.as_deref()).collect();
                if let Some(v) = values {
                    self.nested(v.join(" ").as_bytes(), depth);
                }
            }
            Some(Kind::Source) => {
                if rest.first().is_some_and(|a| {
                    matches!(a.v(), "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0")
                }) {
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
        let no_dir = rest.iter().any(|a| a.is("-T") && name != "rsync")
            || rest.iter().any(|a| a.is("--no-target-directory"));
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
                Arg {
                    value: Some(dir.clone()),
                    texts: Some((vec![dir], false)),
                }
            }
            Some(d) => match rest.get(d) {
                Some(a) => a.clone(),
                None => return,
            },
            // `ln -s target`: the link is made in the working directory.
            None if name == "ln" => Arg {
                value: Some(".".to_owned()),
                texts: Some((vec![".".to_owned()], false)),
            },
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
                self.actions.push(Action::Touch {
                    target: dest_target,
                    how: How::Write,
                    by: name.to_owned(),
                });
                continue;
            }
            let (Target::Exact(dir) | Target::Pattern(dir)) = &dest_target;
            for &s in &sources {
                let Some((texts, glob)) = &rest[s].texts else {
                    continue;
                };
                for t in texts {
                    let base = basename(t.trim_end_matches('/'));
                    if base.is_empty() || base == "." || base == ".." {
                        continue;
                    }
                    self.actions
                        .extend(paths::target(base, *glob, dir).map(|target| Action::Touch {
                            target,
                            how: How::Write,
                            by: name.to_owned(),
                        }));
                }
            }
        }
    }

    fn sed(&mut self, name: &str, rest: &[Arg]) {
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

    fn awk(&mut self, name: &str, rest: &[Arg], stdin: &[Vec<u8>]) {
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

    fn interpreter(&mut self, name: &str, rest: &[Arg], stdin: &[Vec<u8>]) {
        if matches!(name, "perl" | "ruby") {
            // `-i`, `-i.bak`, `-pi`: in place; the files are the operands that are not
            // code (`-e CODE`, a cluster ending in `e`).
            let in_place = rest.iter().any(|a| {
                let v = a.v();
                v.strip_prefix('-').is_some_and(|flags| {
                    !flags.starts_with('-')
                        && flags.split_once('i').is_some_and(|(before, _)| {
                            before.bytes().all(|c| b"lnpaswtc0".contains(&c))
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
    fn code(&mut self, name: &str, rest: &[Arg], stdin: &[Vec<u8>]) {
        let mut text: Vec<u8> = Vec::new();
        for a in rest {
            text.extend_from_slice(a.v().as_bytes());
            text.push(b'\n');
        }
        for t in stdin {
            text.extend_from_slice(t);
            text.push(b'\n');
        }
        let mut named: Vec<Target> = Vec::new();
        for a in rest.iter().filter(|a| !a.is_option()) {
            named.extend(self.targets(a, None));
        }
        for token in path_tokens(&text) {
            let arg = Arg {
                value: None,
                texts: expand_token(token, self.ctx).map(|t| (vec![t], false)),
            };
            named.extend(self.targets(&arg, None));
        }
        self.actions.push(Action::Code {
            by: name.to_owned(),
            text,
            named,
        });
    }

    fn shell(&mut self, rest: &[Arg], stdin: &[Vec<u8>], depth: usize) {
        let takes = ["-o", "+o", "-O", "+O", "--rcfile", "--init-file"];
        let mut i = 0;
        while i < rest.len() {
            let v = rest[i].v();
            if v == "--" || !(v.starts_with('-') || v.starts_with('+')) || v == "-" {
                break;
            }
            if takes.contains(&v) {
                i += 2;
                continue;
            }
            if !v.starts_with("--") && v.contains('c') {
                // `-c TEXT` (also `-lc`, `-ec`): TEXT is the next word that is not `--`.
                let text = rest[i + 1..].iter().find(|a| !a.is("--"));
                if let Some(t) = text.and_then(|a| a.value.clone()) {
                    self.nested(t.as_bytes(), depth);
                }
                return;
            }
            i += 1;
        }
        let script = rest[i..].iter().find(|a| !a.is("--") && !a.is("-"));
        let from_stdin = script.is_none() || rest.iter().any(|a| a.is("-s"));
        if from_stdin {
            for t in stdin {
                self.nested(t, depth);
            }
        }
    }

    fn cd(&mut self, rest: &[Arg]) {
        let ops = operands(rest);
        let dirs: Vec<PathBuf> = match ops.first() {
            None => self.ctx.home.iter().cloned().collect(),
            Some(&i) if rest[i].is("-") => Vec::new(),
            Some(&i) => self
                .targets(&rest[i], None)
                .into_iter()
                .filter_map(|t| match t {
                    Target::Exact(p) => Some(p),
                    Target::Pattern(_) => None,
                })
                .collect(),
        };
        for d in dirs {
            if self.cwds.len() < MAX_CWDS && !self.cwds.contains(&d) {
                self.cwds.push(d);
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

    fn find(&mut self, rest: &[Arg], stdin: &[Vec<u8>], depth: usize) {
        let mut i = 0;
        while i < rest.len() && matches!(rest[i].v(), "-H" | "-L" | "-P") {
            i += 1;
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
            starts.extend(self.cwds.iter().cloned().map(Target::Exact));
        }
        let (mut names, mut patterns) = (Vec::new(), Vec::new());
        let mut destructive = false;
        while i < rest.len() {
            let v = rest[i].v().to_owned();
            match v.as_str() {
                "-name" | "-iname" => {
                    names.extend(rest.get(i + 1).and_then(|a| a.value.clone()));
                    i += 2;
                    continue;
                }
                "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                    patterns.extend(rest.get(i + 1).and_then(|a| a.value.clone()));
                    i += 2;
                    continue;
                }
                "-delete" => destructive = true,
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

    /// Reads shell text a command runs and walks it, within the limits; text past them
    /// that names the guard's places is an [`Action::Unread`].
    fn nested(&mut self, text: &[u8], depth: usize) {
        self.shown.push(text.to_vec());
        if depth + 1 > MAX_DEPTH
            || self.nested >= MAX_NESTED
            || text.len() > crate::limits::MAX_COMMAND_BYTES
        {
            if names_places(text, self.ctx) {
                self.actions.push(Action::Unread);
            }
            return;
        }
        self.nested += 1;
        for shell in [Shell::Bash52, Shell::Zsh] {
            let r = crate::shell::read_inner(
                Text::command(text).into_owned(),
                Dialect::new(shell),
                self.work,
                None,
            );
            if self.work.over().is_some() {
                self.over = true;
                return;
            }
            self.reading(&r, text, depth + 1);
        }
    }
}

/// Whether `text` names a place of the guard's ([`MARKERS`], the running binary's name).
pub(super) fn names_places(text: &[u8], ctx: &Ctx) -> bool {
    MARKERS
        .iter()
        .any(|m| memchr::memmem::find(text, m.as_bytes()).is_some())
        || ctx.names_guard(text)
}

/// Where each substitution ends, by its start (from the reading's events).
struct Ends(HashMap<u32, u32>);

impl SubstEnds for Ends {
    fn end_of(&self, at: u32) -> Option<u32> {
        self.0.get(&at).copied()
    }
}

/// A simple command's identity across readings: its offsets, words, redirections and the
/// bodies it reads (readings that agree give the same key).
fn key(c: &SimpleCommand, r: &Reading, depth: usize, piped: bool) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (depth, piped, c.at, c.end, c.words.len()).hash(&mut h);
    for w in &c.words {
        w.text.bytes().hash(&mut h);
    }
    for rd in &c.redirects {
        (rd.at, rd.op as u8).hash(&mut h);
        if let Some(t) = &rd.target {
            t.text.bytes().hash(&mut h);
        }
        if rd.op == RedirOp::Heredoc
            && let Some(hd) = r.heredocs.iter().find(|hd| hd.op == rd.at)
        {
            hd.body.hash(&mut h);
        }
    }
    h.finish()
}

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
        let takes: &[&str] = match name {
            "sudo" => &[
                "-u", "-g", "-C", "-D", "-p", "-r", "-t", "-T", "-U", "-h", "--user", "--group",
                "--chdir", "--prompt",
            ],
            "doas" => &["-u", "-C"],
            "env" => &["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
            "exec" => &["-a"],
            "nice" => &["-n", "--adjustment"],
            "ionice" => &["-c", "-n", "-p", "-t"],
            "timeout" => &["-s", "--signal", "-k", "--kill-after"],
            "stdbuf" => &["-i", "-o", "-e"],
            "xargs" => &["-I", "-n", "-P", "-d", "-L", "-s", "-E", "-a", "--arg-file"],
            _ => &[],
        };
        while let Some(o) = args.get(at) {
            let v = o.v();
            if v == "--" {
                at += 1;
                break;
            }
            if name == "command" && matches!(v, "-v" | "-V") {
                // `command -v x` only says where x is.
                return args.len();
            }
            if v.starts_with('-') && v.len() > 1 {
                at += if takes.contains(&v) { 2 } else { 1 };
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

/// The indices of the operands: words that are not options (or are after `--`).
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

fn basename(s: &str) -> &str {
    s.rsplit('/').next().unwrap_or(s)
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
