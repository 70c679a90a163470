//! The contexts that evaluate a value: arithmetic (and the subscripts and names in it),
//! `${!name}`, `${name@P}`, text run as code. Each judges where the value can come from.

use super::value::Val;
use super::{Ctx, Effect, Judge, MAX_NEST, Prog, Taint};
use crate::shell::text::Text;
use crate::shell::word::{self, Arith, ParamOp, WordInfo};

impl Judge {
    // ---- evaluation contexts ----

    /// The worst taint a value evaluated as arithmetic can bring (its literal values are
    /// evaluated in turn: names are looked up, subscripts expanded).
    pub(super) fn arith_taint(&self, v: &Val, in_body: bool, depth: usize) -> Option<Taint> {
        if v.body {
            return Some(Taint::Body);
        }
        let mut worst = None;
        if v.opaque || v.env {
            // The environment's text (another program's output, a file that was there).
            worst = Some(Taint::Env);
        }
        if v.authored {
            // Text this command composes in a way the guard does not compute.
            worst = Some(Taint::Opaque);
        }
        if depth >= MAX_NEST {
            return worst.max(Some(Taint::Opaque));
        }
        // Every text and literal is read as arithmetic again, byte by byte, at every depth:
        // work (past the meter the verdict is a limit, and nothing more is read).
        let bytes: usize = v.texts.iter().map(|t| t.len()).sum::<usize>()
            + v.statics.iter().map(Vec::len).sum::<usize>();
        if !self.meter.charge(bytes + v.texts.len() + v.statics.len()) {
            return Some(Taint::Body);
        }
        for t in &v.texts {
            // Known heredoc text: a substitution in it can run once glued to a name
            // (`$((a$v))` with `[$(…)]`); otherwise it is judged as a literal would be
            // (names are looked up).
            if glued_subscript(t) {
                return Some(Taint::Body);
            }
            let a = word::arith(&Text::command(t), &());
            if self
                .static_arith_taint(&a, in_body, depth + 1, false)
                .is_some_and(|t| t != Taint::Env)
            {
                return Some(Taint::Body);
            }
        }
        for s in &v.statics {
            let a = word::arith(&Text::command(s), &());
            let t = self.static_arith_taint(&a, in_body, depth + 1, false);
            if t == Some(Taint::Fixed) {
                // Literal code the evaluation runs: judged in place by the caller.
                self.fixed_code.borrow_mut().push(s.clone());
            }
            worst = worst.max(t);
        }
        worst
    }

    /// Runs, in place, the literal code an evaluation met (a `$(…)` in a subscript of a
    /// value the command fixed): what it does is judged like any command's.
    pub(super) fn run_fixed_code(&mut self, at: u32) {
        let pending: Vec<Vec<u8>> = std::mem::take(&mut *self.fixed_code.borrow_mut());
        let ctx = Ctx {
            stdin: std::rc::Rc::new(Val::opaque()),
            feeding: None,
            own_heredoc: false,
            piped: false,
            scope: Some(at),
            in_function: false,
            nested: 1,
            body_code: false,
        };
        for text in pending {
            self.run_document(&text, at, &ctx);
        }
    }

    /// Which taints a context denies: in an unquoted body, any value the command does not
    /// fix (and a fixed one holding a substitution); in the command, heredoc text.
    fn denies(t: Taint, in_body: bool) -> bool {
        if in_body {
            t != Taint::Env
        } else {
            t == Taint::Body
        }
    }

    /// [`Judge::arith_taint`] for a literal arithmetic text: `$` and backquotes in it are
    /// expanded only inside subscripts (elsewhere they are a syntax error).
    pub(super) fn static_arith_taint(
        &self,
        a: &Arith,
        in_body: bool,
        depth: usize,
        in_subscript: bool,
    ) -> Option<Taint> {
        let mut worst = None;
        if in_subscript && (!a.substs.is_empty() || a.odd && !a.substs.is_empty()) {
            worst = Some(Taint::Fixed);
        }
        if in_subscript {
            for p in &a.params {
                let v = self.var(&p.name);
                if !v.statics.is_empty() || v.heredoc() || v.opaque {
                    worst = worst.max(self.arith_taint(&v, in_body, depth));
                }
            }
        }
        // A name written many times is looked up once; past the meter, nothing more.
        let mut looked: std::collections::HashSet<&[u8]> = std::collections::HashSet::new();
        for n in &a.names {
            if self.meter.over().is_some() {
                return Some(Taint::Body);
            }
            if looked.insert(n.as_slice()) {
                worst = worst.max(self.arith_taint(&self.var(n), in_body, depth));
            }
        }
        for s in &a.subscripts {
            if self.meter.over().is_some() {
                return Some(Taint::Body);
            }
            worst = worst.max(self.static_arith_taint(s, in_body, depth, true));
        }
        worst
    }

    /// Checks an arithmetic text of the command (or of an unquoted body).
    pub(super) fn check_arith(&mut self, a: &Arith, prog: &Prog<'_>, in_body: Option<usize>) {
        if !self.checking {
            return;
        }
        let b = in_body.is_some();
        let mut worst = None;
        let mut looked: std::collections::HashSet<&[u8]> = std::collections::HashSet::new();
        for n in &a.names {
            if self.meter.over().is_some() {
                return;
            }
            if looked.insert(n.as_slice()) {
                worst = worst.max(self.arith_taint(&self.var(n), b, 0));
            }
        }
        for p in &a.params {
            let v = self.param_val(p, prog);
            worst = worst.max(self.arith_taint(&v, b, 0));
        }
        for s in &a.substs {
            let v = self.subst_out.get(s).cloned().unwrap_or_else(Val::opaque);
            if v.heredoc() {
                worst = worst.max(self.arith_taint(&v, b, 0));
            }
        }
        if let Some(t) = worst.filter(|t| Self::denies(*t, b)) {
            self.effect(Effect::Flow {
                at: a.at,
                taint: t,
                what: "arithmetic, which evaluates the names and subscripts in a value",
                in_body,
            });
        }
        if b {
            self.fixed_code.borrow_mut().clear();
        } else {
            self.run_fixed_code(a.at);
        }
        for s in &a.subscripts {
            self.check_arith(s, prog, in_body);
        }
    }

    /// Checks a value used as a variable's name (`${!x}`, `declare -n`, `unset`,
    /// `[[ -v ]]`): a subscript in it is evaluated.
    pub(super) fn check_name(
        &mut self,
        v: &Val,
        at: u32,
        in_body: Option<usize>,
        what: &'static str,
    ) {
        if !self.checking {
            return;
        }
        let b = in_body.is_some();
        let mut worst = None;
        if v.body {
            worst = Some(Taint::Body);
        } else if v.authored {
            worst = Some(Taint::Opaque);
        } else if v.opaque || v.env {
            worst = Some(Taint::Env);
        }
        for t in &v.texts {
            // Known heredoc text names a variable (`name[subscript…`; bash 3.2 and zsh
            // evaluate the subscript even when text follows it, and a value's end may be
            // trimmed (`$(…)`, `read`)): everything from the first `[` to the last `]` may
            // be the subscript, and is judged as one.
            let Some(open) = t.iter().position(|&c| c == b'[') else {
                continue;
            };
            if crate::shell::syntax::legal_identifier(&t[..open]) {
                let close = t.iter().rposition(|&c| c == b']').filter(|&c| c > open);
                let sub = t
                    .get(open + 1..close.unwrap_or(t.len()))
                    .unwrap_or_default();
                let a = word::arith(&Text::command(sub), &());
                if escaped_expansion(sub)
                    || self
                        .static_arith_taint(&a, b, 1, true)
                        .is_some_and(|t| t != Taint::Env)
                {
                    worst = worst.max(Some(Taint::Body));
                }
            }
        }
        for s in &v.statics {
            if let Some(open) = s.iter().position(|&c| c == b'[') {
                let sub = s
                    .get(open + 1..s.len().saturating_sub(1))
                    .unwrap_or_default();
                let a = word::arith(&Text::command(sub), &());
                let t = self.static_arith_taint(&a, b, 1, true);
                if t == Some(Taint::Fixed) {
                    self.fixed_code.borrow_mut().push(sub.to_vec());
                }
                worst = worst.max(t);
            }
        }
        if let Some(t) = worst.filter(|t| Self::denies(*t, b)) {
            self.effect(Effect::Flow {
                at,
                taint: t,
                what,
                in_body,
            });
        }
        if b {
            self.fixed_code.borrow_mut().clear();
        } else {
            self.run_fixed_code(at);
        }
    }

    /// Checks text the shell runs as code (`eval`, `trap`, a command name, a callback).
    pub(super) fn check_code(&mut self, v: &Val, at: u32, what: &'static str) -> bool {
        if v.heredoc() {
            self.effect(Effect::Flow {
                at,
                taint: Taint::Body,
                what,
                in_body: None,
            });
            return true;
        }
        false
    }

    /// The evaluating contexts inside a word: arithmetic, subscripts, `${!x}`, `${x@P}`.
    pub(super) fn check_word(&mut self, w: &WordInfo, prog: &Prog<'_>) {
        if !self.checking {
            return;
        }
        for (array, a) in w.ariths() {
            // An associative array's subscript is a key, not arithmetic.
            if array.is_some_and(|n| self.vars.get(n).is_some_and(|v| v.assoc)) {
                continue;
            }
            self.check_arith(a, prog, None);
        }
        for p in w.params() {
            if p.zsh_glob && self.d.is_zsh() {
                let v = self.param_val(p, prog);
                if v.heredoc() {
                    self.effect(Effect::Flow {
                        at: p.at,
                        taint: super::Taint::Body,
                        what: "zsh ${~name}, which makes a value a glob pattern (a glob qualifier runs code)",
                        in_body: None,
                    });
                }
            }
            if p.indirect && p.op != ParamOp::Names {
                let v = self.var(&p.name);
                self.check_name(
                    &v,
                    p.at,
                    None,
                    "${!name}, which expands the variable a value names",
                );
            }
            if p.op == ParamOp::Prompt || p.zsh_eval {
                // The value it expands, a default's word included (`${(e)x:-…}`).
                let v = if p.zsh_eval {
                    let mut v = self.param_val(p, prog);
                    v.join(&self.var(&p.name));
                    v
                } else {
                    self.var(&p.name)
                };
                for text in v.statics.clone() {
                    let ctx = Ctx {
                        stdin: std::rc::Rc::new(Val::opaque()),
                        feeding: None,
                        own_heredoc: false,
                        piped: false,
                        scope: Some(p.at),
                        in_function: false,
                        nested: 1,
                        body_code: false,
                    };
                    self.run_document(&text, p.at, &ctx);
                }
                if v.live_text() || v.opaque {
                    self.effect(Effect::Flow {
                        at: p.at,
                        taint: if v.live_text() {
                            Taint::Body
                        } else {
                            Taint::Opaque
                        },
                        what: "${name@P}, which runs the substitutions a value holds",
                        in_body: None,
                    });
                }
            }
        }
    }

    /// The assignments inside a word (`${x:=…}`, `$((x=…))`).
    pub(super) fn word_assignments(&mut self, w: &WordInfo, prog: &Prog<'_>, at: u32, ctx: &Ctx) {
        for p in w.params() {
            if p.op == ParamOp::Assign && !p.indirect {
                let v = self.param_val(p, prog);
                let name = p.name.clone();
                self.assign(&name, None, &v, at, ctx, prog);
            }
        }
        for (_, a) in w.ariths() {
            for n in a.assigned.clone() {
                self.assign(&n, None, &Val::num(), at, ctx, prog);
            }
        }
    }
}

/// Heredoc text holding a `[` with a substitution after it: glued to a name in
/// arithmetic (`$((a$v))`), it becomes a subscript whose substitution runs.
fn glued_subscript(t: &[u8]) -> bool {
    t.iter().position(|&c| c == b'[').is_some_and(|open| {
        let rest = &t[open..];
        rest.windows(2).any(|w| w == b"$(") || rest.contains(&b'`') || escaped_expansion(rest)
    })
}

/// Whether a subscript's text makes a `$(` once its backslashes go: bash 3.2 expands a
/// subscript as an unquoted word (a backslash-newline removed, every other backslash
/// removed and the byte after it kept), then expands a subscript nested in the result
/// again, so `b[\$\(…\)]` inside one runs. (A backquote counts wherever it is.)
fn escaped_expansion(sub: &[u8]) -> bool {
    if !sub.contains(&b'\\') {
        return false;
    }
    let out = super::value::remove_backslashes(sub, None);
    out.windows(2).any(|w| w == b"$(")
}
