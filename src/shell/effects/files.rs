//! The files and descriptors a command writes and reads back: what each file it wrote
//! holds (by its name as written, normalized), what a redirection gives a command as
//! input, the descriptors `exec` opens for every later command, and what a name of a file
//! can be (`./a`, `$PWD/a`, `~+/a` and a variable holding `a` are one file).

use super::program::Prog;
use super::value::Val;
use super::{Ctx, Effect, Judge};
use crate::shell::tree::{RedirOp, Redirect, SimpleCommand};
use crate::shell::word::{ParamOp, Piece, WordInfo};

impl Judge {
    /// The input a command's redirections give it.
    pub(super) fn redirect_input<'a>(
        &mut self,
        prog: &Prog<'_>,
        redirects: impl Iterator<Item = &'a Redirect>,
        ctx: &mut Ctx,
    ) {
        // Set below only by a heredoc on descriptor 0 that no later redirection of the
        // same command (on descriptor 0, or with no number written) follows.
        ctx.own_heredoc = false;
        // zsh (MULTIOS, on by default) reads every input redirection of descriptor 0 of one
        // command in turn; bash reads the last. So in zsh a second one adds to the first.
        // A pipe into it is one (zsh).
        let mut earlier_input = ctx.piped;
        ctx.piped = false;
        if self.stdin_reopened {
            let v = self.fd_inputs.clone();
            std::rc::Rc::make_mut(&mut ctx.stdin).join(&v);
        }
        // Every input the command had or its redirections gave, on any descriptor: what a
        // later `<&3` or `< /dev/fd/3` may read (the model does not follow which
        // descriptor holds which: `3<<'F' </dev/null 0<&3` reads the heredoc).
        let mut given: Vec<std::rc::Rc<Val>> = vec![ctx.stdin.clone()];
        for r in redirects {
            // `<>` and `<&`/`>&` written without a number count as descriptor 0 too.
            let fd0 = is_descriptor(r.fd.as_deref(), 0, self.d.is_zsh());
            ctx.own_heredoc &= !fd0;
            match r.op {
                RedirOp::Heredoc => {
                    // Whether the value is the body's own text (not its expansion).
                    let mut whole = false;
                    let v = prog
                        .heredocs
                        .iter()
                        .enumerate()
                        .find(|(_, h)| h.op == r.at)
                        .and_then(|(index, h)| {
                            // A quoted body is its text; an unquoted one the text its
                            // expansion makes (a substitution in it denies on its own).
                            if !h.quoted && h.body_eval.expands {
                                return self.spliced_body(h, prog);
                            }
                            let quoted = h.quoted;
                            let text = prog.heredoc_text(index, |text| {
                                // `<<-`: the shell strips every line's leading tabs; an
                                // unquoted body loses its backslash-newlines and the
                                // backslash of `\$`, `` \` `` and `\\`.
                                let text = if h.strip_tabs {
                                    strip_leading_tabs(text)
                                } else {
                                    text.to_vec()
                                };
                                if quoted {
                                    text
                                } else {
                                    super::value::remove_backslashes(&text, Some(b"$`\\"))
                                }
                                .into()
                            })?;
                            // The text as written is the text the shell reads only at the
                            // top level: in backquotes the shell has removed backslashes
                            // first, and bash before 5.2 its backslash-newlines in `$(…)`.
                            whole = h.context == crate::shell::Context::TopLevel;
                            Some(Val::text(text))
                        })
                        .unwrap_or_else(Val::body);
                    if fd0 {
                        let joins = self.feed(ctx, v, &mut earlier_input);
                        ctx.feeding = Some(r.at);
                        ctx.own_heredoc = whole && !joins;
                    } else {
                        std::rc::Rc::make_mut(&mut ctx.stdin).join(&v);
                        ctx.feeding.get_or_insert(r.at);
                    }
                }
                RedirOp::HereString => {
                    let v = r.target.as_ref().map_or_else(Val::opaque, |t| {
                        self.word_val(&self.read_word(&t.text, &prog.ends), prog)
                    });
                    if v.heredoc() {
                        ctx.feeding.get_or_insert(r.at);
                    }
                    if fd0 {
                        self.feed(ctx, v, &mut earlier_input);
                    } else {
                        std::rc::Rc::make_mut(&mut ctx.stdin).join(&v);
                    }
                }
                RedirOp::Input | RedirOp::ReadWrite => {
                    let v = r.target.as_ref().map_or_else(Val::opaque, |t| {
                        let i = self.read_word(&t.text, &prog.ends);
                        // `< <(…)`: what the process substitution writes; `< file`: what
                        // this command wrote there, if it did.
                        if i.process {
                            let mut v = Val::default();
                            for s in i.substs() {
                                v.join(
                                    &self.subst_out.get(&s).cloned().unwrap_or_else(Val::opaque),
                                );
                            }
                            return v;
                        }
                        let mut v = self.file_content(&i, prog);
                        if self.names_descriptor(&i, prog) {
                            // Standard input itself (`< /dev/stdin`): what it was; another
                            // open descriptor (`/dev/fd/3`): what it reads.
                            let work: usize = given
                                .iter()
                                .map(|g| g.texts.len() + g.statics.len() + 1)
                                .sum();
                            if self.spend(work) {
                                given.iter().for_each(|g| v.join(g));
                            } else {
                                v.join(&Val::body());
                            }
                            v.join(&self.fd_inputs);
                        }
                        v
                    });
                    if fd0 {
                        self.feed(ctx, v, &mut earlier_input);
                    } else {
                        // `3<f`: read through `<&3` (or `-u 3`) later in the command.
                        std::rc::Rc::make_mut(&mut ctx.stdin).join(&v);
                    }
                }
                RedirOp::Duplicate if fd0 => {
                    // `<&3`: what that descriptor reads: one `exec` opened, or one this
                    // command's own redirections opened (`3<<'E' 0<&3`, or `3<&0 0<&3`
                    // giving standard input back).
                    // Work: every input so far is joined again (past the meter, the verdict
                    // is a limit).
                    let work: usize = given
                        .iter()
                        .map(|g| g.texts.len() + g.statics.len() + 1)
                        .sum();
                    if !self.spend(work) {
                        return;
                    }
                    let mut v = self.fd_inputs.clone();
                    given.iter().for_each(|g| v.join(g));
                    self.feed(ctx, v, &mut earlier_input);
                }
                _ => {}
            }
            if !given
                .last()
                .is_some_and(|g| std::rc::Rc::ptr_eq(g, &ctx.stdin))
            {
                given.push(ctx.stdin.clone());
            }
        }
    }

    /// Gives a command's standard input the value of one of its input redirections: in
    /// place of what it had, or, in zsh after another input redirection of the same
    /// command, after it. Returns whether it was added.
    fn feed(&self, ctx: &mut Ctx, v: Val, earlier_input: &mut bool) -> bool {
        let joins = *earlier_input && self.d.is_zsh();
        if joins {
            let stdin = std::rc::Rc::make_mut(&mut ctx.stdin);
            // One stream: the end of one input and the start of the next make a line
            // neither holds, which the model does not compute.
            let glued = stdin.heredoc() || v.heredoc();
            stdin.join(&v);
            stdin.body |= glued;
        } else {
            ctx.stdin = std::rc::Rc::new(v);
        }
        *earlier_input = true;
        joins
    }

    /// What a command writes into files, read later by `<`, `$(<…)`, `cat` or `source`:
    /// its output where its standard output goes; a file opened on another descriptor
    /// (`exec 3>f`, `2>f`) can be given anything the command writes, heredoc text too.
    pub(super) fn record_writes<'a>(
        &mut self,
        prog: &Prog<'_>,
        redirects: impl Iterator<Item = &'a Redirect>,
        out: &Val,
    ) {
        for r in redirects {
            if r.op == RedirOp::Duplicate
                && is_descriptor(r.fd.as_deref(), 1, self.d.is_zsh())
                && let Some(t) = &r.target
                && !matches!(t.text.bytes(), b"1" | b"2" | b"-")
            {
                // `>&3`, `>&"${COPROC[1]}"`: a pipe can carry it back to a read.
                self.add_fd_input(out);
            }
            if !matches!(r.op, RedirOp::Output | RedirOp::ReadWrite) {
                continue;
            }
            let Some(t) = &r.target else { continue };
            let target = self.read_word(&t.text, &prog.ends);
            if self.word_val(&target, prog).heredoc() && !self.heredoc_names {
                self.heredoc_names = true;
                self.changed = true;
            }
            let stdout = is_descriptor(r.fd.as_deref(), 1, self.d.is_zsh());
            let v = if stdout {
                out.clone()
            } else if prog.heredocs.is_empty() {
                Val::authored()
            } else {
                Val::body()
            };
            match self.file_keys(&target, prog) {
                Some(keys) => {
                    for key in keys {
                        let entry = self.files.entry(key).or_default();
                        let before = entry.clone();
                        entry.join(&v);
                        if *entry != before {
                            self.changed = true;
                        }
                    }
                }
                None => {
                    // A file named at run time: any file this command reads back later.
                    if !self.files_unknown {
                        self.files_unknown = true;
                        self.changed = true;
                    }
                }
            }
        }
    }

    /// What a file this command wrote holds (the environment's, if it wrote none there;
    /// unknown text once it wrote a file it named at run time).
    pub(super) fn file(&self, key: &[u8]) -> Val {
        match self.files.get(key) {
            Some(v) if self.files_unknown => {
                let mut v = v.clone();
                v.authored = true;
                v
            }
            Some(v) => v.clone(),
            None if self.files_unknown => Val::authored(),
            None => Val::opaque(),
        }
    }

    /// The files a word can name, as keys (`./a`, `$PWD/a`, `~+/a` and `a` are one;
    /// a variable with literal values names each), or `None` for a name the guard cannot
    /// tell (a glob, text composed at run time).
    pub(super) fn file_keys(&self, w: &WordInfo, prog: &Prog<'_>) -> Option<Vec<Vec<u8>>> {
        if w.many || w.unread || w.process {
            return None;
        }
        let mut pieces = w.pieces.clone();
        let mut tilde = w.tilde;
        if let Some(Piece::Lit(l)) = pieces.first_mut()
            && tilde
            && (l.starts_with(b"~+/") || l.as_slice() == b"~+")
        {
            // `~+` is the working directory.
            l.splice(0..2, b".".iter().copied());
            tilde = false;
        }
        if let Some(Piece::Param(p)) = pieces.first()
            && p.name == b"PWD"
            && p.op == ParamOp::Plain
            && !p.indirect
        {
            pieces[0] = Piece::Lit(b"./".to_vec());
        }
        let resolved = WordInfo {
            pieces,
            tilde: false,
            ..w.clone()
        };
        let v = self.word_val(&resolved, prog);
        if !tilde && v.only_statics() {
            let keys: Vec<Vec<u8>> = v
                .statics
                .iter()
                .map(|s| normal_path(s))
                .filter(|k| !k.is_empty() && !k.starts_with(b"-"))
                .collect();
            return (!keys.is_empty()).then_some(keys);
        }
        // Named by the environment's values: the same spelling names the same file.
        let mut key = vec![0];
        for p in &resolved.pieces {
            match p {
                Piece::Lit(l) => key.extend_from_slice(l),
                Piece::Param(p) if p.op == ParamOp::Plain && !p.indirect => {
                    key.extend_from_slice(b"\0$");
                    key.extend_from_slice(&p.name);
                }
                _ => return None,
            }
        }
        Some(vec![normal_path(&key)])
    }

    /// What reading the file a word names gives: what this command wrote there, or the
    /// environment's (text it composed, once it wrote a file it named at run time or
    /// when the name itself is composed).
    pub(super) fn file_content(&self, w: &WordInfo, prog: &Prog<'_>) -> Val {
        let procfs = w
            .pieces
            .iter()
            .any(|p| matches!(p, Piece::Lit(l) if l.windows(6).any(|x| x == b"/proc/")));
        let process_text = |v: &[u8]| {
            [&b"cmdline"[..], b"environ", b"/fd/", b"mem", b"/task/"]
                .iter()
                .any(|k| v.windows(k.len()).any(|x| x == *k))
        };
        if procfs && !self.no_heredoc && w.value().is_none_or(|v| process_text(&v)) {
            // `/proc/$$/cmdline`, `/proc/self/environ`: the shell's copy of the command.
            return Val::body();
        }
        match self.file_keys(w, prog) {
            Some(keys) => {
                let mut v = Val::default();
                for k in keys {
                    v.join(&self.file(&k));
                }
                v
            }
            None if self.files.is_empty() && !self.files_unknown => Val::opaque(),
            None => {
                // Any file: those this command wrote whose name can end as this one does
                // (`"$(git rev-parse --show-toplevel)/env.sh"` is no `notes.md`).
                let mut tail = Vec::new();
                for p in w.pieces.iter().rev() {
                    match p {
                        Piece::Lit(l) => tail.splice(0..0, l.iter().copied()),
                        _ => break,
                    };
                }
                let (base, whole) = match tail.iter().rposition(|&c| c == b'/') {
                    Some(slash) => (&tail[slash + 1..], true),
                    None => (&tail[..], false),
                };
                let mut v = if self.files_unknown {
                    Val::authored()
                } else {
                    Val::opaque()
                };
                // Every file written is looked at: work (charged before the names are
                // even counted, so that a walk past its limit does not count them again
                // for every argument).
                if !self.meter.charge(self.files.len() + 1) {
                    return Val::body();
                }
                let names: usize = self.files.keys().map(Vec::len).sum();
                if !self.meter.charge(crate::shell::bulk_work(names)) {
                    return Val::body();
                }
                for (k, f) in &self.files {
                    let kb = k.rsplit(|&c| c == b'/').next().unwrap_or(k);
                    let fits = w.many
                        || kb.contains(&0)
                        || if whole {
                            kb == base
                        } else {
                            kb.ends_with(base)
                        };
                    if fits {
                        v.join(f);
                    }
                }
                v
            }
        }
    }

    /// Whether a word can name an open descriptor (`/dev/stdin`, `/dev/fd/0`,
    /// `/proc/self/fd/0`, a glob or a name the guard cannot tell).
    pub(super) fn names_descriptor(&self, w: &WordInfo, prog: &Prog<'_>) -> bool {
        match self.file_keys(w, prog) {
            Some(keys) => keys.iter().any(|k| {
                k.windows(5).any(|w| w == b"stdin")
                    || k.windows(3).any(|w| w == b"fd/")
                    || k.windows(3).any(|w| w == b"fd\0")
                    || k.first() == Some(&0)
            }),
            None => true,
        }
    }

    pub(super) fn add_fd_input(&mut self, v: &Val) {
        let before = self.fd_inputs.clone();
        self.fd_inputs.join(v);
        if self.fd_inputs != before {
            self.changed = true;
        }
    }

    /// `exec` with redirections only: they stay for every later command.
    pub(super) fn exec_redirects(&mut self, prog: &Prog<'_>, c: &SimpleCommand) {
        // A file it opens for writing gets what every later command writes there.
        let later = if prog.heredocs.is_empty() {
            Val::authored()
        } else {
            Val::body()
        };
        self.record_writes(prog, c.redirects.iter(), &later);
        // Standard input given something else: what every later command reads.
        if !self.stdin_reopened
            && c.redirects.iter().any(|r| {
                (r.op.feeds_input() || r.op == RedirOp::Duplicate)
                    && is_descriptor(r.fd.as_deref(), 0, self.d.is_zsh())
            })
        {
            self.stdin_reopened = true;
            self.changed = true;
        }
        // A descriptor it opens for reading: what later reads of it get.
        for r in c.redirects.iter().filter(|r| r.op.feeds_input()) {
            let mut on_zero = r.clone();
            on_zero.fd = None;
            let mut tmp = Ctx {
                stdin: std::rc::Rc::new(Val::default()),
                feeding: None,
                own_heredoc: false,
                piped: false,
                scope: None,
                in_function: false,
                nested: 0,
                body_code: false,
            };
            self.redirect_input(prog, std::iter::once(&on_zero), &mut tmp);
            self.add_fd_input(&tmp.stdin);
        }
        for r in &c.redirects {
            if matches!(r.op, RedirOp::Heredoc | RedirOp::HereString) && self.later_command(c.end) {
                self.effect(Effect::Receiver {
                    op: r.at,
                    at: c.at,
                    what: "exec makes the heredoc the input of every later command",
                });
            }
        }
    }
}

/// Whether a redirection's descriptor is `n`: written with no number (each caller's
/// operators default to `n`, or are counted as if they did), or a number equal to it
/// however many zeros lead it (`00<f` is descriptor 0 in bash). zsh takes only one digit
/// for a descriptor: `10<f` is the word `10` and `<f` on the default one.
fn is_descriptor(fd: Option<&[u8]>, n: u8, zsh: bool) -> bool {
    let Some(f) = fd else {
        return true;
    };
    if zsh && f.len() > 1 && f.iter().all(u8::is_ascii_digit) {
        return true;
    }
    if f.is_empty() || !f.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let digits: Vec<u8> = f.iter().copied().skip_while(|&c| c == b'0').collect();
    digits.len() <= 3
        && digits
            .iter()
            .fold(0u16, |v, &c| v * 10 + u16::from(c - b'0'))
            == u16::from(n)
}

/// A path as a key: `.` components and repeated slashes dropped (`./a`, `.//./a` and
/// `a` are one file).
fn normal_path(p: &[u8]) -> Vec<u8> {
    let p = p.strip_prefix(b"~+/").unwrap_or(p);
    let absolute = p.starts_with(b"/");
    let parts: Vec<&[u8]> = p
        .split(|&c| c == b'/')
        .filter(|c| !c.is_empty() && *c != b".")
        .collect();
    let mut out = Vec::new();
    if absolute {
        out.push(b'/');
    }
    out.extend_from_slice(&parts.join(&b'/'));
    out
}

/// A `<<-` body as the shell gives it: the leading tabs of every line removed.
fn strip_leading_tabs(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for line in text.split_inclusive(|&c| c == b'\n') {
        let tabs = line.iter().take_while(|&&c| c == b'\t').count();
        out.extend_from_slice(&line[tabs..]);
    }
    out
}

/// The most texts an unquoted body's splices make (each value a parameter can hold, for
/// each parameter): past it, the body is text the guard does not compute.
const MAX_SPLICED: usize = 8;

/// The largest unquoted body that expands something whose text is made (past it, the
/// body is text the guard does not compute: denied where it is evaluated).
const MAX_SPLICED_BODY: usize = 64 * 1024;

/// A value the guard does not know but trusts (the environment's, a number, a shell's own
/// variable such as `$-`), spliced into a body: a letter, which keeps a name a name
/// (`a$#[…]` is `a0[…]`, `$-[…]` is `hBc[…]`), and nothing, which joins what is on either
/// side (`\$${X}(…)` with X unset is `$(…)`).
const UNKNOWN_PART: &[u8] = b"x";

/// Whether a parameter in a body is spliced as the value the effects model gives it: a
/// plain value, its length, or a default, alternate or assigned word. Part of a value
/// (`${x/p/r}`, `${x:1}`, case changes), a prompt, names, an element, an indirect name or
/// a zsh flag make text from the value the model does not follow (`${#/0/a[}` is `a[`).
fn splices_as_valued(p: &crate::shell::word::Param) -> bool {
    matches!(
        p.op,
        ParamOp::Plain
            | ParamOp::Length
            | ParamOp::Default
            | ParamOp::Assign
            | ParamOp::Alternate
            | ParamOp::Error
    ) && p.subscript.is_none()
        && !p.indirect
        && p.slice.is_empty()
        && !p.zsh_eval
        && !p.zsh_glob
}

/// Whether the parameter at `at` of `text` takes part of its value without adding text
/// that could start an expansion: a slice (`${x:0:2}`), a trimmed prefix or suffix
/// (`${x#p}`, `${x%p}`), (bash) a case change (`${x^^}`), or a replacement of letters by
/// letters. Of a value the guard trusts but does not know, that is a value it trusts but
/// does not know; another replacement (`${x/p/a[}`) or a transform (`${x@Q}`) adds text
/// the command chose.
fn part_of_value(p: &crate::shell::word::Param, text: &[u8], zsh: bool) -> bool {
    if p.op != ParamOp::Part || p.indirect || p.subscript.is_some() || p.zsh_eval || p.zsh_glob {
        return false;
    }
    let Some(t) = text.get(p.at as usize..) else {
        return false;
    };
    let Some(rest) = t.strip_prefix(b"${") else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    if name == 0 {
        // A special parameter (`$#`, `$-`, `$?`): its name is one byte.
        return false;
    }
    match (rest.get(name), rest.get(name + 1)) {
        (Some(b':'), Some(c)) => c.is_ascii_digit() || *c == b' ',
        (Some(b'#' | b'%'), _) => true,
        (Some(b'^' | b','), _) => !zsh,
        // A replacement whose pattern and word are letters, digits and `_` only
        // (`${HOME//a/b}`): text it adds cannot start an expansion or end a name.
        (Some(b'/'), _) => {
            let op = &rest[name..];
            op.iter().position(|&c| c == b'}').is_some_and(|end| {
                op[..end]
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'/'))
            })
        }
        _ => false,
    }
}

impl Judge {
    /// The texts an unquoted body that expands something gives: its literal text
    /// (escapes and backslash-newlines removed) with each parameter's literal values in
    /// place, a value it does not know but trusts as [`UNKNOWN_PART`] and as nothing,
    /// arithmetic as `0`;
    /// with the values themselves beside them. `None` (text the guard does not compute)
    /// when that makes more than [`MAX_SPLICED`] texts, a parameter holds heredoc text or
    /// text the command composes, the body is over [`MAX_SPLICED_BODY`], it joins a list
    /// (`$*`, `${a[*]}` join with IFS's first character), or zsh may take a `[` after a
    /// parameter as its subscript.
    fn spliced_body(&mut self, h: &crate::shell::Heredoc, prog: &Prog<'_>) -> Option<Val> {
        let (s, e) = (h.body.0 as usize, h.body.1 as usize);
        let raw = prog.text.get(s..e.min(prog.text.len()))?;
        if raw.len() > MAX_SPLICED_BODY
            || [&b"[*]"[..], b"[@]", b"$*", b"$@", b"${*", b"${@"]
                .iter()
                .any(|p| memchr::memmem::find(raw, p).is_some())
        {
            return None;
        }
        if self.d.is_zsh() && memchr::memmem::find(raw, b"${(").is_some() {
            // zsh's parameter flags (`(Q)` removes quoting, `(e)` expands again).
            return None;
        }
        if !self.meter.charge(crate::shell::bulk_work(raw.len()) + 1) {
            return None;
        }
        // The shell joins the body's backslash-newlines before it expands anything
        // (`$\⏎x` is `$x`), and `<<-` then strips the tabs that start a joined line (not
        // those after a join): the text is read joined, then stripped.
        let joined = crate::shell::heredoc::join_lines(crate::shell::Text::command(raw))
            .bytes()
            .to_vec();
        let raw = if h.strip_tabs {
            strip_leading_tabs(&joined)
        } else {
            joined
        };
        let info = crate::shell::word::document_kept(&crate::shell::Text::command(&raw), &());
        if info.unread {
            return None;
        }
        // Each parameter's candidates, counted before the texts are made.
        let mut spliced = Val::default();
        let mut count = 1usize;
        for piece in info.pieces.iter() {
            match piece {
                Piece::Param(p) => {
                    let part = part_of_value(p, &raw, self.d.is_zsh());
                    if !splices_as_valued(p) && !part {
                        return None;
                    }
                    let pv = self.param_val(p, prog);
                    if pv.heredoc()
                        || pv.authored
                        || part && !pv.statics.is_empty()
                        || self.d.is_zsh() && pv.statics.len() > 1
                    {
                        // zsh splices an array whole, its elements joined with IFS's first
                        // character (`a` and `[` make `a[` with IFS empty).
                        return None;
                    }
                    let n = pv.statics.len() + usize::from(pv.env || pv.opaque || pv.num);
                    count = count.saturating_mul(n.max(1));
                    if count > MAX_SPLICED {
                        return None;
                    }
                    spliced.join(&pv);
                }
                Piece::Arith(_) => spliced.join(&Val::num()),
                Piece::Subst(_) => return None,
                Piece::Lit(_) => {}
            }
        }
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for (k, piece) in info.pieces.iter().enumerate() {
            match piece {
                Piece::Lit(l) => texts.iter_mut().for_each(|t| t.extend_from_slice(l)),
                Piece::Arith(_) => texts.iter_mut().for_each(|t| t.push(b'0')),
                Piece::Subst(_) => return None,
                Piece::Param(p) => {
                    let part = part_of_value(p, &raw, self.d.is_zsh());
                    if !splices_as_valued(p) && !part
                        || self.d.is_zsh()
                            && matches!(info.pieces.get(k + 1), Some(Piece::Lit(l)) if l.first().is_some_and(|c| b"[:".contains(c)))
                    {
                        // zsh: `$d[2]` in a body is an element of d, `$d:s/a/b/` a
                        // modifier.
                        return None;
                    }
                    let pv = self.param_val(p, prog);
                    if pv.heredoc() || pv.authored || part && !pv.statics.is_empty() {
                        return None;
                    }
                    let mut values: Vec<&[u8]> = pv.statics.iter().map(Vec::as_slice).collect();
                    if pv.env || pv.opaque || pv.num || values.is_empty() {
                        values.push(UNKNOWN_PART);
                        // Nothing differs from a letter only where it joins what could
                        // start an expansion or an escape with what follows it.
                        let before = match k.checked_sub(1).map(|j| &info.pieces[j]) {
                            Some(Piece::Lit(l)) => l.last().is_some_and(|c| b"$\\".contains(c)),
                            Some(_) => true,
                            None => false,
                        };
                        let after = match info.pieces.get(k + 1) {
                            Some(Piece::Lit(l)) => l.first().is_some_and(|c| b"({$`\\".contains(c)),
                            Some(_) => true,
                            None => false,
                        };
                        if before || after {
                            values.push(b"");
                        }
                    }
                    let mut next = Vec::new();
                    for t in &texts {
                        for v in &values {
                            let mut n = t.clone();
                            n.extend_from_slice(v);
                            next.push(n);
                        }
                    }
                    if next.len() > MAX_SPLICED {
                        return None;
                    }
                    texts = next;
                }
            }
        }
        for t in texts {
            spliced.join(&Val::text(t));
        }
        Some(spliced)
    }
}
