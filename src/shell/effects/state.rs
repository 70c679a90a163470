//! What commands change in the model's state: variables (and the special ones that change
//! how the shell reads or runs commands), names bound elsewhere, and the points past which
//! the state cannot be known.

use super::builtins::plain_locale;
use super::value::Val;
use super::{Ctx, Effect, Judge, Prog, Taint, static_key};
use crate::shell::word::Arith;

impl Judge {
    // ---- assignments ----

    /// An assignment to `name` (static) of `val`, by any route.
    pub(super) fn assign(
        &mut self,
        name: &[u8],
        subscript: Option<&Arith>,
        val: &Val,
        at: u32,
        ctx: &Ctx,
        prog: &Prog<'_>,
    ) {
        let from_body;
        let val = if ctx.body_code {
            // Assigned by heredoc text run as code: the value is heredoc text.
            from_body = val.as_heredoc_text();
            &from_body
        } else {
            val
        };
        if let Some(a) = subscript {
            self.check_arith(a, prog, None);
        }
        // An assignment to a reference names what it refers to.
        if self.vars.get(name).is_some_and(|v| v.is_ref) {
            let targets: Vec<Vec<u8>> = if val.only_statics() {
                val.statics.clone()
            } else {
                Vec::new()
            };
            for t in &targets {
                self.nameref_target(t, at, prog);
            }
            if !val.only_statics() {
                self.assign_dynamic(
                    val,
                    at,
                    "a nameref, which names the variable assignments go to",
                );
            }
            let entry = self.vars.entry(name.to_vec()).or_default();
            for t in targets {
                if !entry.refs.contains(&t) {
                    entry.refs.push(t);
                    self.changed = true;
                }
            }
            self.assign_val(name, val, false);
            return;
        }
        let integer = self.vars.get(name).is_some_and(|v| v.integer);
        if integer {
            let taint = self.arith_taint(val, false, 0);
            self.run_fixed_code(at);
            if let Some(t) = taint.filter(|t| *t == Taint::Body) {
                self.effect(Effect::Flow {
                    at,
                    taint: t,
                    what: "an integer variable, whose assignments are evaluated as arithmetic",
                    in_body: None,
                });
            }
        }
        let from = ctx.from(at);
        if name == b"PATH" || (name == b"path" && self.d.is_zsh()) {
            let first = self.path_changed.is_none_or(|p| from < p);
            if first {
                self.path_changed = Some(from);
                self.changed = true;
            }
        }
        match name {
            b"POSIXLY_CORRECT" => self.effect(Effect::Unfollowed {
                at,
                what: "POSIXLY_CORRECT, which turns POSIX mode (and alias expansion) on",
            }),
            b"BASH_COMPAT" => self.effect(Effect::Unfollowed {
                at,
                what: "BASH_COMPAT, which makes bash read later lines as an older version",
            }),
            b"BASH_ALIASES" | b"aliases" | b"galiases"
                if (name == b"BASH_ALIASES") != self.d.is_zsh() =>
            {
                self.effect(Effect::Unfollowed {
                    at,
                    what: "an alias defined through BASH_ALIASES or zsh's aliases",
                });
                // Text `eval` or `trap` reads on this very line expands it too: an alias
                // whose value is heredoc text, or text the command composes, runs it.
                let mut v = val.clone();
                v.env = false;
                v.opaque = false;
                v.num = false;
                if v.heredoc() || v.authored {
                    self.effect(Effect::Flow {
                        at,
                        taint: Taint::Body,
                        what: "an alias table entry (BASH_ALIASES, zsh's aliases) whose value is heredoc text or text the command composes",
                        in_body: None,
                    });
                }
            }
            b"options" if self.d.is_zsh() => self.effect(Effect::Unfollowed {
                at,
                what: "a zsh option set through $options",
            }),
            b"functions" if self.d.is_zsh() => {
                // zsh: `functions[f]=text` defines f with text as its body.
                self.check_code(
                    val,
                    at,
                    "zsh's functions array, whose values are function bodies",
                );
                if let Some(code) = val.single().map(<[u8]>::to_vec) {
                    self.run_code(&code, at, ctx);
                } else if val.chosen() {
                    self.unknown(at, ctx, "a zsh function whose body this command builds");
                }
                let key = subscript.and_then(static_key);
                match key {
                    Some(k) => self.rebind(
                        k,
                        from,
                        "the command that reads the heredoc is a zsh function this command defines",
                    ),
                    None => self.any(from, "zsh functions defined at run time"),
                }
            }
            b"BASH_CMDS" | b"commands" | b"functions" => {
                if name != b"BASH_CMDS" && !self.d.is_zsh() {
                    // Plain variables in bash.
                } else {
                    let key = subscript.and_then(static_key);
                    match key {
                        Some(k) => self.rebind(k, from, "a command bound through BASH_CMDS"),
                        None => {
                            self.any(from, "names bound through BASH_CMDS at run time");
                        }
                    }
                }
            }
            b"BASH_ENV" | b"ENV" | b"ZDOTDIR" if !self.no_heredoc => self.startup(at),
            b"LC_ALL" | b"LC_CTYPE" | b"LANG" => {
                let plain = !val.heredoc()
                    && !val.opaque
                    && !val.env
                    && val.statics.iter().all(|s| plain_locale(s));
                if !plain {
                    self.effect(Effect::Unfollowed {
                        at,
                        what: "a locale whose multibyte characters bash may read differently",
                    });
                }
            }
            _ => {}
        }
        self.assign_val(name, val, false);
    }

    /// An assignment to a name computed at run time: it may set anything. A name this
    /// command builds is its doing (an alias, a bound command, an option may follow); a
    /// name the environment gives (`export $(grep … .env)`) is the environment's.
    /// An assignment to the variable a value names: each literal name it can be; the
    /// environment's name given a value that is not the command's text (any variable may
    /// now hold the environment's data); anything else is not followed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn assign_named(
        &mut self,
        target: &Val,
        value: &Val,
        at: u32,
        ctx: &Ctx,
        prog: &Prog<'_>,
        what: &'static str,
    ) {
        if target.only_statics() {
            for n in target.statics.clone() {
                // A name can carry its value (`x='PS4=…'; declare "$x"`).
                let (n, value) = match n.iter().position(|&c| c == b'=') {
                    Some(eq) => (&n[..eq], Val::lit(n[eq + 1..].to_vec())),
                    None => (&n[..], value.clone()),
                };
                let value = &value;
                let n = n.strip_suffix(b"+").unwrap_or(n);
                let (base, sub) = super::split_subscript(n);
                if !crate::shell::syntax::legal_identifier(base) {
                    continue;
                }
                if let Some(sub) = sub {
                    let a = crate::shell::word::arith(&crate::shell::text::Text::command(sub), &());
                    self.check_arith(&a, prog, None);
                }
                let base = base.to_vec();
                self.assign(&base, None, value, at, ctx, prog);
            }
            return;
        }
        if !target.chosen() && !target.heredoc() && !value.heredoc() && !value.authored {
            self.check_name(target, at, None, what);
            let names: Vec<Vec<u8>> = self.vars.keys().cloned().collect();
            for n in names {
                self.assign_val(&n, &Val::opaque(), false);
            }
            return;
        }
        self.assign_dynamic(target, at, what);
    }

    pub(super) fn assign_dynamic(&mut self, target: &Val, at: u32, what: &'static str) {
        self.check_name(target, at, None, what);
        if target.chosen() || target.heredoc() {
            self.effect(Effect::Unfollowed {
                at,
                what: "an assignment to a variable whose name this command builds at run time (it can define aliases or bind commands)",
            });
        }
    }

    /// A reference now names `target` (literal): what that can reach.
    pub(super) fn nameref_target(&mut self, target: &[u8], at: u32, prog: &Prog<'_>) {
        let (base, sub) = super::split_subscript(target);
        if let Some(sub) = sub {
            // `declare -n r='a[x]'`: every use of `r` evaluates the subscript.
            let a = crate::shell::word::arith(&crate::shell::text::Text::command(sub), &());
            self.check_arith(&a, prog, None);
        }
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

    pub(super) fn rebind(&mut self, name: Vec<u8>, from: u32, why: &'static str) {
        if !self.meter.charge(self.rebinds.len() / 16 + 1) {
            return;
        }
        if !self
            .rebinds
            .iter()
            .any(|(n, f, _)| *n == name && *f <= from)
        {
            self.rebinds.push((name, from, why));
            self.changed = true;
        }
    }

    pub(super) fn any(&mut self, from: u32, why: &'static str) {
        if self.any_rebind.is_none_or(|(f, _)| from < f) {
            self.any_rebind = Some((from, why));
            self.changed = true;
        }
    }

    /// A command whose effect the guard cannot know, on text this command chose: from
    /// here on, any name may be bound elsewhere and later lines read otherwise.
    pub(super) fn unknown(&mut self, at: u32, ctx: &Ctx, what: &'static str) {
        let from = ctx.from(at);
        self.any(from, what);
        self.effect(Effect::Unknown { at, from, what });
    }

    pub(super) fn startup(&mut self, at: u32) {
        self.effect(Effect::Receiver {
            op: at,
            at,
            what: "a child shell runs the startup file named here (BASH_ENV, ENV, ZDOTDIR), which a heredoc of this command may have written",
        });
    }

    pub(super) fn startup_and_xtrace(&mut self) {
        if let Some(at) = self.xtrace {
            let v = self.var(b"PS4");
            for text in v.statics.clone() {
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
                self.run_document(&text, at, &ctx);
            }
            if v.live_text() {
                self.effect(Effect::Flow {
                    at,
                    taint: if v.live_text() {
                        Taint::Body
                    } else {
                        Taint::Opaque
                    },
                    what: "PS4 with set -x, which expands the prompt before every command",
                    in_body: None,
                });
            }
        }
    }
}
