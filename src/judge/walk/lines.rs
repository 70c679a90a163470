//! Whether the commands of a compound read its standard input a whole line at a time:
//! then each `read -r` in them gets one whole line of it (a loop over a table's rows),
//! and its fields are followed exactly instead of as any part of the input.

use super::{Ctx, Feed, Node, Walk};
use crate::judge::GaveUp;
use crate::shell::tree::{Compound, RedirOp, Redirect, SimpleCommand, Word};

/// Whether a function of this name may run between a loop's reads: it stands for a
/// builtin a loop counts on (`read` or one of [`QUIET`]), or zsh runs it as a hook.
pub(in crate::judge) fn may_run_between_reads(name: &[u8]) -> bool {
    name == b"read" || QUIET.contains(&name) || QUIET_PROGRAMS.contains(&name) || shell_hook(name)
}

/// Whether the shell runs a function of this name by itself: zsh's `TRAP…` functions and
/// hooks, and the handler of a command not found (bash's and zsh's).
pub(in crate::judge) fn shell_hook(name: &[u8]) -> bool {
    name.starts_with(b"TRAP")
        || matches!(
            name,
            b"chpwd"
                | b"precmd"
                | b"preexec"
                | b"periodic"
                | b"zshexit"
                | b"zshaddhistory"
                | b"command_not_found_handle"
                | b"command_not_found_handler"
        )
}

/// Commands that make the shell run code between a loop's reads, or run code the guard
/// does not see (`trap`, sourced files, `eval` text, hooks): with any of them, no loop's
/// fields are followed a line at a time.
pub(in crate::judge) const RUN_BETWEEN: &[&[u8]] = &[
    b"trap",
    b"eval",
    b"source",
    b".",
    b"enable",
    b"autoload",
    b"zmodload",
    b"add-zsh-hook",
    b"functions",
    b"fc",
];

/// Programs that never read standard input (none of them asks a question, as `rm -i`
/// does), where the command does not change what their names run (see
/// `Walk::used_quiet_programs`).
const QUIET_PROGRAMS: &[&[u8]] = &[
    b"mkdir",
    b"touch",
    b"chmod",
    b"chown",
    b"rmdir",
    b"sleep",
    b"basename",
    b"dirname",
    b"mktemp",
];

/// Where a command's standard input comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    /// What the command around it reads.
    Inherited,
    /// A stream of its own (a heredoc, a here-string, `/dev/null`).
    Own,
    /// Anything else (a file, a descriptor), which may be the loop's input again.
    Other,
}

/// Builtins that never read standard input.
const QUIET: &[&[u8]] = &[
    b"echo",
    b"printf",
    b"print",
    b"test",
    b"[",
    b":",
    b"true",
    b"false",
    b"let",
    b"local",
    b"declare",
    b"typeset",
    b"export",
    b"readonly",
    b"unset",
    b"shift",
    b"return",
    b"break",
    b"continue",
    b"exit",
    b"cd",
    b"pwd",
    b"set",
    b"shopt",
    b"getopts",
    b"integer",
];

impl Walk<'_> {
    /// Whether a compound's commands get its input a whole line at a time: its own input
    /// redirection, no command run in the background (two readers at once may read any
    /// part) and every reader `read -r`; without one, what the enclosing one gets.
    pub(super) fn whole_lines(
        &mut self,
        kind: &Compound,
        at: u32,
        children: &[(Node<'_>, Feed)],
        redirects: &[&Redirect],
        ctx: &Ctx,
    ) -> Result<bool, GaveUp> {
        if self.no_whole_lines || matches!(kind, Compound::Function(_) | Compound::Coproc) {
            return Ok(false);
        }
        match self.input_of(redirects) {
            Input::Inherited => return Ok(ctx.whole_lines),
            Input::Other => return Ok(false),
            Input::Own => {}
        }
        let (Some(text), Some(end)) = (self.text, redirects.iter().map(|r| r.at).min()) else {
            return Ok(false);
        };
        let Some(region) = text.get(at as usize..end as usize) else {
            return Ok(false);
        };
        self.spend(region.len() / 64 + 1)?;
        let at_byte = |i: usize| region.get(i).copied().unwrap_or(b' ');
        for i in memchr::memchr2_iter(b'&', b'(', region) {
            let before = if i == 0 { b' ' } else { at_byte(i - 1) };
            let after = at_byte(i + 1);
            let background = region[i] == b'&'
                && !(after == b'&'
                    || before == b'&'
                    || matches!(before, b'<' | b'>')
                    || after == b'>');
            let process_subst = region[i] == b'(' && matches!(before, b'<' | b'>');
            if background || process_subst {
                return Ok(false);
            }
        }
        let whole = self.reads_whole_lines(children)?;
        self.used_whole_lines |= whole;
        Ok(whole)
    }

    /// Whether every command in `nodes` that may read their shared input is `read -r`
    /// (line options only), with no substitution that may read it.
    pub(super) fn reads_whole_lines(&mut self, nodes: &[(Node<'_>, Feed)]) -> Result<bool, GaveUp> {
        if self.text.is_none() {
            // Offsets pinned to one place: substitutions cannot be told apart.
            return Ok(false);
        }
        for (node, feed) in nodes {
            self.spend(1)?;
            let redirects: &[&Redirect] = match node {
                Node::Simple(c) => &c.redirects.iter().collect::<Vec<_>>(),
                Node::Compound { redirects, .. } => redirects,
                _ => &[],
            };
            if *feed != Feed::Own && self.input_of(redirects) != Input::Other {
                // It reads the pipe, and so do its substitutions.
                continue;
            }
            let ok = match node {
                Node::Simple(c) => self.simple_reads_lines(c)?,
                Node::Compound {
                    kind,
                    children,
                    redirects,
                    ..
                } => {
                    // Its own words (`for … in $(…)`, `case $(…) in`) and redirection
                    // targets run substitutions.
                    let mut words: Vec<&Word> = match kind {
                        Compound::For(_, Some(ws)) => ws.iter().collect(),
                        Compound::Case(Some(w)) | Compound::Select(Some(w)) => vec![w],
                        _ => Vec::new(),
                    };
                    words.extend(redirects.iter().filter_map(|r| r.target.as_ref()));
                    let mut words_read = true;
                    for w in words {
                        words_read &= self.substs_read_lines(w.start, w.end)?;
                    }
                    if matches!(kind, Compound::Function(_)) {
                        // A definition reads nothing; a call is a command of its own.
                        true
                    } else if !words_read {
                        false
                    } else if self.input_of(redirects) == Input::Own {
                        true
                    } else {
                        self.reads_whole_lines(children)?
                    }
                }
                Node::Arith(t) => !t.bytes().iter().any(|&b| matches!(b, b'$' | b'`')),
                Node::Cond(words) | Node::Words(words) => {
                    let mut read = true;
                    for w in *words {
                        read &= self.substs_read_lines(w.start, w.end)?;
                    }
                    read
                }
                Node::Unit => true,
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the substitutions between two offsets (a command's, a word's) read the
    /// input a whole line at a time, if at all.
    fn substs_read_lines(&mut self, start: u32, end: u32) -> Result<bool, GaveUp> {
        let prog = self.prog;
        let offsets = &prog.subst_offsets;
        let first = offsets.partition_point(|&at| at < start);
        let last = offsets.partition_point(|&at| at < end);
        for at in offsets.get(first..last).unwrap_or_default() {
            let Some(nodes) = prog.substs.get(at) else {
                return Ok(false);
            };
            if !self.reads_whole_lines(nodes)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// What a command's redirections give its standard input: bash reads the last one
    /// (`3<&0 </dev/null <&3` reads descriptor 3, a copy of the loop's input), zsh every
    /// one of them in turn.
    fn input_of(&self, redirects: &[&Redirect]) -> Input {
        let inputs: Vec<&&Redirect> = redirects
            .iter()
            .filter(|r| {
                // `0>&3` duplicates onto descriptor 0 as `0<&3` does.
                self.on_stdin(r)
                    && (r.op.feeds_input()
                        || (r.op == RedirOp::Duplicate
                            && (r.fd.is_some() || self.duplicates_input(r))))
            })
            .collect();
        let considered: &[&&Redirect] = if self.zsh() {
            &inputs
        } else {
            inputs.last().map_or(&[], std::slice::from_ref)
        };
        if considered.is_empty() {
            Input::Inherited
        } else if considered.iter().all(|r| self.own_input(r)) {
            Input::Own
        } else {
            Input::Other
        }
    }

    /// Whether a redirection gives standard input a stream of its own: a heredoc, a
    /// here-string, `/dev/null`. A descriptor duplicated (`<&0`, `<&3`) or a file
    /// (`/dev/stdin` by any spelling, a link to it) may be the loop's input again.
    fn own_input(&self, r: &Redirect) -> bool {
        self.on_stdin(r)
            && match r.op {
                RedirOp::Heredoc | RedirOp::HereString => true,
                RedirOp::Input => r
                    .target
                    .as_ref()
                    .is_some_and(|t| t.text.bytes() == b"/dev/null"),
                _ => false,
            }
    }

    fn simple_reads_lines(&mut self, c: &SimpleCommand) -> Result<bool, GaveUp> {
        if c.words.iter().any(|w| w.from_alias) {
            return Ok(false);
        }
        // Its substitutions run with the input (a redirection comes after them).
        if !self.substs_read_lines(c.at, c.end)? {
            return Ok(false);
        }
        let redirects: Vec<&Redirect> = c.redirects.iter().collect();
        if self.input_of(&redirects) == Input::Own {
            return Ok(true);
        }
        let mut words = Vec::with_capacity(c.words.len());
        for w in &c.words {
            let raw = w.text.bytes();
            // A word of plain characters is its own literal (most are: read it only
            // otherwise).
            let plain = !raw.is_empty()
                && raw
                    .iter()
                    .all(|&b| b.is_ascii_alphanumeric() || b"-_./,:@%+".contains(&b));
            if words.is_empty() && !plain && self.assignment(w)?.is_some() {
                continue;
            }
            words.push(if plain {
                Some(raw.to_vec())
            } else {
                self.read(w)?.literal()
            });
        }
        let Some(name) = words.first() else {
            return Ok(true);
        };
        let Some(name) = name.as_deref() else {
            return Ok(false);
        };
        if QUIET.contains(&name) {
            return Ok(true);
        }
        let base = name.rsplit(|&c| c == b'/').next().unwrap_or(name);
        if QUIET_PROGRAMS.contains(&base) {
            self.used_quiet_programs = true;
            return Ok(true);
        }
        if name != b"read" {
            return Ok(false);
        }
        // `read -r` with `-r`/`-s` only: one whole line each time.
        let mut raw = false;
        for w in &words[1..] {
            match w.as_deref() {
                Some(o) if o.starts_with(b"-") => {
                    if o.len() < 2 || !o[1..].iter().all(|&b| b == b'r' || b == b's') {
                        return Ok(false);
                    }
                    raw |= o.contains(&b'r');
                }
                Some(_) => {}
                None => return Ok(false),
            }
        }
        Ok(raw)
    }
}
