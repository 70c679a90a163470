//! Text run in this shell: `eval` and `trap` text (every text its words can be, the
//! environment's values standing as a placeholder), `source`d files and heredoc text
//! sourced or evaled, read as the shell reads it (with the aliases the reading expands)
//! and judged in turn, within the command's meter.

use super::program::{Prog, build};
use super::value::{Val, bytes_of, copy_work, product};
use super::{Ctx, Effect, Judge, MAX_NEST, Taint, pin};
use crate::shell::Dialect;
use crate::shell::text::Text;
use crate::shell::word::{self, Piece, WordInfo};

impl Judge {
    /// Text run in this shell (`eval`, `trap`, `emulate -c`): heredoc text denies;
    /// literal text (each value it can have) is read and its commands judged in place;
    /// text this command composes otherwise is an unknown effect; the environment's text
    /// (what another program prints) is the environment's.
    pub(super) fn eval_text(
        &mut self,
        prog: &Prog<'_>,
        args: &[WordInfo],
        vals: &[Val],
        at: u32,
        ctx: &Ctx,
    ) {
        let mut joined = Val::default();
        for v in vals {
            joined.join(v);
        }
        if joined.heredoc() {
            self.run_heredoc_text(
                &joined,
                at,
                ctx,
                "eval, which runs heredoc text as commands",
            );
            return;
        }
        // Every text it can be: the words' literal values, one value of each at a time.
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        // The texts were too many or too long to follow: what runs is not known.
        let mut gave_up = false;
        for (k, v) in vals.iter().enumerate() {
            let options: Vec<Vec<u8>> = match args[k].literal() {
                Some(lit) => vec![lit],
                None if v.only_statics() => v.statics.clone(),
                None => match self.texts_with_placeholders(&args[k], prog) {
                    Some(o) => o,
                    None => {
                        texts.clear();
                        gave_up = true;
                        break;
                    }
                },
            };
            let sep: &[u8] = if k > 0 { b" " } else { b"" };
            match product(&texts, &options, sep) {
                Some(next) if self.meter.charge(copy_work(bytes_of(&next))) => texts = next,
                _ => {
                    texts.clear();
                    gave_up = true;
                    break;
                }
            }
        }
        if texts.is_empty() {
            if joined.chosen() || gave_up || ctx.nested >= MAX_NEST {
                self.unknown(
                    at,
                    ctx,
                    "text run in this shell that this command builds at run time",
                );
                // Text it composes can spell a heredoc (a newline and `<<` from escapes
                // and expansions) whose body then runs, on this very line.
                self.effect(Effect::Flow {
                    at,
                    taint: Taint::Body,
                    what: "eval or trap text that this command composes at run time, which can hold a heredoc whose body runs",
                    in_body: None,
                });
            }
            return;
        }
        for t in texts {
            self.run_code(&t, at, ctx);
        }
    }

    /// Every text a word can be when its pieces are literals, values with literal values
    /// or the environment's values, each of the last standing as one plain word
    /// (`trap "rm -f $tmp" EXIT` runs `rm -f` on the environment's file name); `None`
    /// when a piece is text the command composes or heredoc text.
    pub(super) fn texts_with_placeholders(
        &self,
        w: &WordInfo,
        prog: &Prog<'_>,
    ) -> Option<Vec<Vec<u8>>> {
        if w.many || w.unread {
            return None;
        }
        let mut combos: Vec<Vec<u8>> = vec![Vec::new()];
        for piece in &w.pieces {
            let v = match piece {
                Piece::Lit(l) => Val::lit(l.clone()),
                Piece::Param(p) => self.param_val(p, prog),
                Piece::Subst(at) => self.subst_out.get(at).cloned().unwrap_or_else(Val::opaque),
                Piece::Arith(_) => Val::num(),
            };
            if v.authored || v.heredoc() {
                return None;
            }
            let mut options = v.statics.clone();
            if v.env || v.opaque || v.num {
                options.push(b"_hg_value".to_vec());
            }
            combos = product(&combos, &options, b"")
                .filter(|next| !next.is_empty() && self.meter.charge(copy_work(bytes_of(next))))?;
        }
        Some(combos)
    }

    /// Literal text run in this shell: read (with the aliases the reading expands) and
    /// its commands judged in place, as if they stood where the text is run.
    pub(super) fn run_code(&mut self, text: &[u8], at: u32, ctx: &Ctx) {
        if text.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        if ctx.nested >= MAX_NEST {
            self.unknown(at, ctx, "text run in this shell, nested too deep to follow");
            return;
        }
        if !self.spend(text.len() / 16 + 1) {
            return;
        }
        let nested = Text::pinned(text.to_vec(), at);
        let d = Dialect {
            aliases: self.aliases.is_some(),
            ..self.d
        };
        let reading = crate::shell::read_inner(nested, d, &self.meter, self.aliases.clone());
        if reading.error.is_some_and(|e| e.limit.is_some()) {
            // Text run in this shell past a limit of the reader (its heredocs, its
            // nesting): what it does cannot be read, so the command is a limit.
            self.meter.stop(crate::shell::Over::Work);
            return;
        }
        if reading.error.is_some()
            && (!self.no_heredoc || memchr::memmem::find(text, b"<<").is_some())
        {
            // Text this reader cannot parse (a syntax error here) may be text the shell
            // parses (zsh takes `;cat <<E`, `() { … }`, `for i (1) …`): what it runs is not
            // known, and it can hold a heredoc whose body runs, or read the command's own
            // heredoc as code (`. /dev/stdin`). As at the top level, it denies; in a
            // command with no heredoc, text without `<<` cannot reach one.
            self.effect(Effect::Flow {
                at,
                taint: Taint::Body,
                what: "eval or trap text that the guard cannot parse (the shell may), which can hold a heredoc whose body runs",
                in_body: None,
            });
        }
        let inner = build(&[], &reading.events, &reading.heredocs, None);
        let mut c = ctx.clone();
        c.nested += 1;
        c.scope = Some(ctx.from(at));
        self.walk(&inner, &inner.root, &c);
        // What its reading saw as text (heredoc text read as code inside it) and did.
        for e in &reading.effects {
            let e = pin(e.clone(), at);
            self.effect(e);
        }
        if reading.features.alias_def {
            self.effect(Effect::Unfollowed {
                at,
                what: "an alias defined inside eval or trap text",
            });
        }
        // Heredoc text the text's own reading runs (its bodies read as code).
        if reading.exec.iter().any(|e| e.in_body.is_some()) {
            self.effect(Effect::Flow {
                at,
                taint: Taint::Body,
                what: "eval or trap text whose own heredoc runs a substitution",
                in_body: None,
            });
        }
    }

    /// Heredoc text run in this shell (`eval`, `source`): it runs as the commands it holds.
    /// Text the guard cannot see whole denies; known text (a quoted body) that runs any
    /// command denies (heredoc text read as code); known text of assignments and
    /// definitions only (an `.env`, a function library) is judged for what it defines.
    pub(super) fn run_heredoc_text(&mut self, v: &Val, at: u32, ctx: &Ctx, what: &'static str) {
        let deny = |j: &mut Judge| {
            j.effect(Effect::Flow {
                at,
                taint: Taint::Body,
                what,
                in_body: None,
            });
        };
        if v.body {
            return deny(self);
        }
        // What the text defines and assigns is heredoc text in turn.
        let mut body = ctx.clone();
        body.body_code = true;
        for text in v.texts.clone() {
            if runs_commands(&text, self.d, &self.meter) {
                return deny(self);
            }
            self.run_code(&text, at, &body);
        }
    }

    /// Literal text the shell expands like a double-quoted string (a prompt, a word list):
    /// the substitutions in it run, each judged in place.
    pub(super) fn run_document(&mut self, text: &[u8], at: u32, ctx: &Ctx) {
        for (start, end) in crate::shell::substitution_spans(text) {
            let inner = text.get(start..end).unwrap_or_default().to_vec();
            self.run_code(&inner, at, ctx);
        }
    }
}

/// Whether text, run as a program, runs any command at its top level (more than
/// assignments, definitions and declarations).
fn runs_commands(text: &[u8], d: Dialect, meter: &crate::shell::Work) -> bool {
    let reading = crate::shell::read_inner(
        Text::pinned(text.to_vec(), 0),
        Dialect {
            aliases: false,
            ..d
        },
        meter,
        None,
    );
    if reading.error.is_some() {
        // What it runs before the error, or all of it (zsh): not followed.
        return true;
    }
    let mut depth = 0usize;
    for e in &reading.events {
        match e {
            crate::shell::tree::Event::Open(crate::shell::tree::Compound::Function(_), _) => {
                depth += 1
            }
            crate::shell::tree::Event::Open(..) if depth > 0 => depth += 1,
            crate::shell::tree::Event::Close(_) if depth > 0 => depth -= 1,
            crate::shell::tree::Event::Simple(c) if depth == 0 => {
                let bytes: usize = c.words.iter().map(|w| w.text.len()).sum();
                if !meter.charge(crate::shell::bulk_work(bytes) + c.words.len()) {
                    return true;
                }
                let words: Vec<WordInfo> =
                    c.words.iter().map(|w| word::read(&w.text, &())).collect();
                let name = words
                    .iter()
                    .find(|w| {
                        w.value()
                            .is_none_or(|v| crate::shell::syntax::assignment(&v, false).is_none())
                    })
                    .map(WordInfo::value);
                match name {
                    None => {}
                    Some(Some(n))
                        if matches!(
                            n.as_slice(),
                            b"export"
                                | b"declare"
                                | b"typeset"
                                | b"local"
                                | b"readonly"
                                | b":"
                                | b"true"
                        ) => {}
                    Some(_) => return true,
                }
                if !c.redirects.is_empty() {
                    return true;
                }
            }
            crate::shell::tree::Event::Arith(_) | crate::shell::tree::Event::Cond(_)
                if depth == 0 =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}
