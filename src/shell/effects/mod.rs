//! The effects model: what the commands a reading saw can do beyond what their text shows,
//! judged by what each builtin does with its arguments after expansion, never by how its
//! name is spelled.
//!
//! It replays the grammar's events (`tree.rs`) as the shell would run them, with a model
//! of the shell's state that only grows: the values variables can hold (joined over every
//! assignment, whatever its order), the names the command rebinds (functions, `hash -p`,
//! `BASH_CMDS`, aliases), and the points past which the guard cannot know the state. A
//! value is a literal the command fixes, a number, the environment's (a variable the
//! command never sets), opaque (command output, a file, a computed name), or heredoc text
//! (a body, or the shell's own copy of the command text, `BASH_EXECUTION_STRING`, `$_`).
//!
//! It reports [`Effect`]s; the rules decide which deny:
//! - a command whose effect on the reading or the state cannot be known (text run in this
//!   shell that the command does not show, a command named at run time);
//! - a change to how later lines are read that the reader does not follow;
//! - a heredoc that reaches a command that may not be what it is named;
//! - a value that reaches a context that evaluates it (arithmetic, a subscript, `${!x}`,
//!   `eval`, a command name), with where it came from.
mod builtins;
mod code;
mod context;
mod files;
mod program;
mod state;
mod value;

use std::collections::HashMap;

use super::text::Text;
use super::tree::{Compound, RedirOp, Redirect, SimpleCommand};
use super::word::{self, Arith, Param, ParamOp, Piece, WordInfo};
use super::{Dialect, Reading};
use builtins::{BASH_BUILTINS, ZSH_BUILTINS};
use program::{Node, Prog, build};
use value::{Val, Var};

/// What a command can do that the reading of its text does not show.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// A command whose effect the guard cannot know (text run in this shell that the
    /// command does not show, a command named at run time): from command offset `from`
    /// on, any command may be other than it reads.
    Unknown {
        at: u32,
        from: u32,
        what: &'static str,
    },
    /// A change to how the lines after it are read that the reader does not follow.
    Unfollowed { at: u32, what: &'static str },
    /// An alias the guard does not follow: text the shell reads later expands it, on this
    /// line too (`eval p`, `$(p)` after `alias p=…;`): it counts when anything follows
    /// `end` (where the command that makes it ends) or a later line does.
    UnfollowedAlias {
        at: u32,
        end: u32,
        what: &'static str,
    },
    /// The heredoc whose operator is at `op` reaches a command (at `at`) that may not be
    /// what it is named, or that turns it into a script.
    Receiver {
        op: u32,
        at: u32,
        what: &'static str,
    },
    /// A value reaches a context that evaluates it (at `at`).
    Flow {
        at: u32,
        taint: Taint,
        what: &'static str,
        /// The context is in the unquoted body of this reading's heredoc number `n`.
        in_body: Option<usize>,
    },
}

/// Where a value that reaches an evaluating context comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Taint {
    /// The environment's text: a variable the command never sets, another program's
    /// output, a file that was there (ordered first: the least a value can bring).
    Env,
    /// A value the command fixes, holding a substitution the evaluation runs.
    Fixed,
    /// Text the command composes in a way the guard does not compute (`printf` output,
    /// literals glued to values, a name spelled at run time).
    Opaque,
    /// Heredoc text, or the shell's own copy of the command text.
    Body,
}

impl Taint {
    /// A few words for a person.
    pub fn describe(self) -> &'static str {
        match self {
            Taint::Fixed => "a value holding a substitution",
            Taint::Env => {
                "the environment's text (a variable this command does not set, another program's output)"
            }
            Taint::Opaque => {
                "text this command composes at run time (printf output, glued pieces, a computed name)"
            }
            Taint::Body => "heredoc text (or the shell's own copy of the command text)",
        }
    }
}

/// Most distinct literal values kept for one variable.
const MAX_STATICS: usize = 8;
/// Deepest nesting of `eval` texts and of variable lookups followed.
const MAX_NEST: usize = 8;

/// Where a command runs.
#[derive(Clone, Debug)]
struct Ctx {
    /// What its standard input carries.
    stdin: std::rc::Rc<Val>,
    /// The operator of the heredoc that feeds it, when one does.
    feeding: Option<u32>,
    /// Its standard input is one heredoc's known text (`stdin`'s one text), given by a
    /// redirection of this simple command itself: each time it runs, it reads that text
    /// from its first byte (a loop around it does not move on to later lines).
    own_heredoc: bool,
    /// Its standard input is a pipe from the command before it (zsh reads the pipe, then
    /// the input redirections of the command it feeds: MULTIOS).
    piped: bool,
    /// The start of the outermost loop or function around it: what it changes reaches
    /// every command from there on.
    scope: Option<u32>,
    /// Inside a function body (run whenever the function is called).
    in_function: bool,
    /// Inside text run by `eval`, `trap` or `source` of a literal.
    nested: usize,
    /// The text run is heredoc text (a quoted body sourced or `eval`ed): what it defines
    /// is heredoc text too.
    body_code: bool,
}

impl Ctx {
    fn from(&self, end: u32) -> u32 {
        self.scope.unwrap_or(end)
    }
}

/// Judges a reading's commands; appends the effects to `out.effects`.
pub fn judge(out: &mut Reading, d: Dialect, text: &[u8]) {
    let mut j = Judge::new(d, out.heredocs.is_empty(), out.work.clone());
    j.aliases = out.aliases.clone();
    {
        let prog = build(text, &out.events, &out.heredocs, Some(&out.bodies));
        j.run(&prog);
    }
    // Past the meter, the reading is a limit (the caller says so).
    out.effects.append(&mut j.effects);
    if crate::shell::exits_after_verdict() {
        // The process ends after its verdict: the walk's state is not freed piece by piece.
        std::mem::forget(j);
    }
}

/// The most passes over the commands while their values still change (a chain of
/// assignments, calls or `eval`s one step longer takes one pass more).
const MAX_PASSES: usize = 16;

struct Judge {
    d: Dialect,
    vars: HashMap<Vec<u8>, Var>,
    changed: bool,
    checking: bool,
    /// Functions the command defines: name → offset of the definition.
    functions: HashMap<Vec<u8>, u32>,
    /// Functions whose body is heredoc text (defined by a sourced or `eval`ed body).
    body_functions: Vec<Vec<u8>>,
    /// Names bound to other commands (`hash -p`, `BASH_CMDS`, aliases, `enable -f`):
    /// name, from where, why.
    rebinds: Vec<(Vec<u8>, u32, &'static str)>,
    /// Any name may be bound elsewhere from here on (`command_not_found_handle`, a name
    /// computed at run time), and why.
    any_rebind: Option<(u32, &'static str)>,
    /// `set -x` or `set -o xtrace`: PS4 is expanded before every command.
    xtrace: Option<u32>,
    /// Where the last simple command starts (the offsets only grow).
    last_start: Option<u32>,
    /// What each substitution writes.
    subst_out: HashMap<u32, Val>,
    /// The substitutions being walked, innermost last.
    in_substs: Vec<u32>,
    /// What the files this command writes hold, by their name as written.
    files: HashMap<Vec<u8>, Val>,
    /// The aliases the reading expands, for text `eval` runs.
    aliases: Option<super::alias::Aliases>,
    /// Literal code an evaluation met, to be judged in place (see `run_fixed_code`).
    fixed_code: std::cell::RefCell<Vec<Vec<u8>>>,
    /// Aliases defined earlier in this input unit (zsh: in this command), with where: a
    /// substitution after them is read with them when it runs. An empty name: one the
    /// guard cannot read.
    unit_aliases: Vec<(Vec<u8>, u32)>,
    effects: Vec<Effect>,
    /// The effects already in `effects`.
    effects_seen: std::collections::HashSet<Effect>,
    no_heredoc: bool,
    /// The command's meter: the readings' work and this walk's share it.
    meter: super::Work,
    /// A command name with several literal values is being followed one value at a time.
    following_names: bool,
    /// The command writes a file it names at run time.
    files_unknown: bool,
    /// Where this command changes PATH (`PATH=d:$PATH`, zsh `path`): a later name can
    /// find a file this command wrote.
    path_changed: Option<u32>,
    /// A file this command made is named by heredoc text: a glob can list it.
    heredoc_names: bool,
    /// What descriptors other than standard input can be read for (`exec 3<<'EOF'`,
    /// `exec 3< <(…)`, a coprocess's output): `read -u`, `<&3`.
    fd_inputs: Val,
    /// An `exec` gives standard input something else (`exec <f`, `exec 0<&3`): every
    /// command's input may be any of [`Judge::fd_inputs`].
    stdin_reopened: bool,
}

impl Judge {
    fn new(d: Dialect, no_heredoc: bool, meter: super::Work) -> Judge {
        // `$_` holds, before the first command, what the shell that runs this one set.
        let mut vars = HashMap::new();
        vars.insert(
            b"_".to_vec(),
            Var {
                val: Val::env(),
                ..Var::default()
            },
        );
        Judge {
            d,
            vars,
            changed: false,
            checking: false,
            functions: HashMap::new(),
            body_functions: Vec::new(),
            rebinds: Vec::new(),
            any_rebind: None,
            xtrace: None,
            last_start: None,
            subst_out: HashMap::new(),
            files: HashMap::new(),
            aliases: None,
            unit_aliases: Vec::new(),
            fixed_code: std::cell::RefCell::new(Vec::new()),
            effects: Vec::new(),
            no_heredoc,
            meter,
            following_names: false,
            files_unknown: false,
            fd_inputs: Val::opaque(),
            stdin_reopened: false,
            path_changed: None,
            heredoc_names: false,
            in_substs: Vec::new(),
            effects_seen: std::collections::HashSet::new(),
        }
    }

    fn run(&mut self, prog: &Prog<'_>) {
        let ctx = Ctx {
            stdin: std::rc::Rc::new(Val::opaque()),
            feeding: None,
            own_heredoc: false,
            piped: false,
            scope: None,
            in_function: false,
            nested: 0,
            body_code: false,
        };
        // Collect until the values settle (each pass can only add; each is charged to the
        // meter), then check: a chain of assignments, calls or `eval`s takes a pass a step.
        for _ in 0..MAX_PASSES {
            self.changed = false;
            self.unit_aliases.clear();
            self.walk(prog, &prog.root, &ctx);
            if !self.changed || self.meter.over().is_some() {
                break;
            }
        }
        self.checking = true;
        self.unit_aliases.clear();
        self.walk(prog, &prog.root, &ctx);
        self.startup_and_xtrace();
    }

    fn effect(&mut self, e: Effect) {
        // Past the meter the verdict is a limit, whatever the walk still finds.
        if self.checking && self.meter.over().is_none() && self.effects_seen.insert(e.clone()) {
            self.effects.push(e);
        }
    }

    fn spend(&mut self, n: usize) -> bool {
        self.meter.charge(n)
    }

    /// Whether any of the values is heredoc text that may hold a substitution
    /// ([`Val::live_text`]): each text shared between them is looked at once, and the
    /// bytes looked at are work (past the meter: true, the verdict is a limit).
    fn any_live_text<'v>(&self, vals: impl Iterator<Item = &'v Val>) -> bool {
        let mut seen: std::collections::HashSet<*const u8> = std::collections::HashSet::new();
        for v in vals {
            if v.body {
                return true;
            }
            for t in &v.texts {
                if !seen.insert(t.as_ptr()) {
                    continue;
                }
                // A `memchr` scan: priced as a copy of its bytes.
                if !self.meter.charge(value::copy_work(t.len())) {
                    return true;
                }
                if value::live(t) {
                    return true;
                }
            }
        }
        false
    }

    /// Reads a word of the program (quotes kept), charged to the meter by the work it took
    /// (a word is read in full, then charged: at most one word's work past the limit). Once
    /// the meter is over, an empty word: the verdict is a limit whatever the walk finds
    /// from then on, and the walk ends the sooner.
    fn read_word(&self, text: &Text<'_>, ends: &dyn word::SubstEnds) -> WordInfo {
        if !self.meter.charge(1) {
            return WordInfo::default();
        }
        let (info, work) = word::read_counted(text, ends);
        self.meter.charge(work);
        info
    }

    // ---- the walk ----

    fn walk(&mut self, prog: &Prog<'_>, nodes: &[(Node<'_>, bool)], ctx: &Ctx) -> Val {
        // The outputs of commands run one after another are joined end to end, as they
        // come (the last one waits: a pipe may take it as the next command's input).
        let mut out = Val::default();
        let mut made = 0usize;
        let mut last: Option<Val> = None;
        let finish = |out: &mut Val, made: &mut usize, v: Val| {
            if !v.statics.is_empty() || v.heredoc() || v.authored {
                *made += 1;
            }
            out.join(&v);
        };
        for (node, piped) in nodes {
            if !self.spend(1) {
                return out;
            }
            let c = if *piped {
                let mut c = ctx.clone();
                c.stdin = std::rc::Rc::new(last.clone().unwrap_or_default());
                c.piped = true;
                c
            } else {
                let mut c = ctx.clone();
                c.piped = false;
                c
            };
            let o = match node {
                Node::Simple(cmd, index) => self.simple(prog, cmd, *index, &c),
                Node::Compound {
                    kind,
                    at,
                    children,
                    redirects,
                } => self.compound(prog, kind, *at, children, redirects, &c),
                Node::Arith(t) => {
                    let a = word::arith(t, &prog.ends);
                    // Its substitutions run first (their output is then evaluated).
                    let mut substs = Vec::new();
                    word::arith_substs(&a, &mut substs);
                    for s in substs {
                        self.subst(prog, s, &c);
                    }
                    for n in a.assigned.clone() {
                        self.assign(&n, None, &Val::num(), a.at, &c, prog);
                    }
                    self.check_arith(&a, prog, None);
                    Val::opaque()
                }
                Node::Cond(words) => {
                    self.cond(prog, words, &c);
                    Val::opaque()
                }
                Node::Unit => {
                    // bash reads the next unit with the aliases defined so far (the reading
                    // with alias expansion follows them); zsh read them all at once.
                    if !self.d.is_zsh() {
                        self.unit_aliases.clear();
                    }
                    continue;
                }
            };
            // Its output is copied and compared as it is joined: its bytes are work.
            if !self.spend(value::copy_work(o.bytes())) {
                return out;
            }
            // Piped, the command before it wrote into this one's input, not out.
            if !*piped && let Some(v) = last.take() {
                finish(&mut out, &mut made, v);
            }
            last = Some(o);
        }
        if let Some(v) = last.take() {
            finish(&mut out, &mut made, v);
        }
        // Two outputs the command fixes (literals, heredoc text) make text neither is alone.
        if made > 1 {
            if out.heredoc() {
                return Val::body();
            }
            out.statics.clear();
            out.authored = true;
        }
        out
    }

    /// Where an alias defined earlier on this line (zsh: in this command) is named in
    /// the substitution at `at`.
    fn alias_in_subst(&self, prog: &Prog<'_>, at: u32) -> Option<u32> {
        if self.unit_aliases.is_empty() {
            return None;
        }
        let nodes = prog.substs.get(&at)?;
        let mut words = Vec::new();
        collect_words(prog, nodes, &mut words, 0, &self.meter);
        // The words read and the aliases looked up are work.
        let bytes: usize = words.iter().map(Vec::len).sum();
        if !self
            .meter
            .charge(crate::shell::bulk_work(bytes) + words.len() + self.unit_aliases.len())
        {
            return None;
        }
        let words: std::collections::HashSet<Vec<u8>> = words.into_iter().collect();
        self.unit_aliases
            .iter()
            .find(|(n, def)| *def < at && (n.is_empty() || words.contains(n)))
            .map(|(_, def)| *def)
    }

    fn subst(&mut self, prog: &Prog<'_>, at: u32, ctx: &Ctx) -> Val {
        let Some(nodes) = prog.substs.get(&at) else {
            return Val::opaque();
        };
        // A substitution met again inside its own program (text `eval` runs has one key
        // for all its substitutions): what it gave so far; the passes join the rest.
        if self.in_substs.contains(&at) {
            return self.subst_out.get(&at).cloned().unwrap_or_else(Val::opaque);
        }
        self.in_substs.push(at);
        let v = self.walk(prog, nodes, ctx);
        self.in_substs.pop();
        let mut v = v;
        if v.statics.is_empty() && !v.heredoc() && !v.authored {
            v = Val::opaque();
        }
        // A substitution drops the trailing newlines of what it captures.
        for s in &mut v.statics {
            while s.last() == Some(&b'\n') {
                s.pop();
            }
        }
        let entry = self.subst_out.entry(at).or_default();
        if *entry != v {
            *entry = v.clone();
            self.changed = true;
        }
        v
    }

    fn cond(&mut self, prog: &Prog<'_>, words: &[super::tree::Word], ctx: &Ctx) {
        let infos: Vec<WordInfo> = words
            .iter()
            .map(|w| self.read_word(&w.text, &prog.ends))
            .collect();
        for i in &infos {
            for s in i.substs() {
                self.subst(prog, s, ctx);
            }
            self.word_assignments(i, prog, i.start, ctx);
            self.check_word(i, prog);
        }
        let op = |k: usize| infos.get(k).and_then(WordInfo::value);
        match infos.len() {
            3 => {
                let o = op(1).unwrap_or_default();
                if matches!(
                    o.as_slice(),
                    b"-eq" | b"-ne" | b"-lt" | b"-le" | b"-gt" | b"-ge"
                ) {
                    for k in [0, 2] {
                        self.arith_operand(&infos[k], prog);
                    }
                }
                if o == b"=~" {
                    // The matched text: bash's BASH_REMATCH, zsh's MATCH and match.
                    let v = self.word_val(&infos[0], prog).with_fields();
                    let mut any = v.clone();
                    any.join(&Val::authored());
                    self.assign_val(b"BASH_REMATCH", &any, false);
                    self.assign_val(b"MATCH", &any, false);
                    self.assign_val(b"match", &any, false);
                }
            }
            2 if op(0).as_deref() == Some(b"-v") => {
                let v = self.word_val(&infos[1], prog);
                self.check_name(
                    &v,
                    infos[1].start,
                    None,
                    "[[ -v ]], which evaluates a subscript",
                );
            }
            _ => {}
        }
    }

    /// A word evaluated as arithmetic (`[[ x -eq y ]]`, `let`, an integer value).
    fn arith_operand(&mut self, w: &WordInfo, prog: &Prog<'_>) {
        if !self.checking {
            return;
        }
        let v = self.word_val(w, prog);
        let t = self.arith_taint(&v, false, 0);
        self.run_fixed_code(w.start);
        if let Some(t) = t.filter(|t| *t == Taint::Body) {
            self.effect(Effect::Flow {
                at: w.start,
                taint: t,
                what: "arithmetic, which evaluates the names and subscripts in a value",
                in_body: None,
            });
        }
        if let Some(text) = w.value() {
            let a = word::arith(&Text::command(&text), &());
            if let Some(t) = self
                .static_arith_taint(&a, false, 0, false)
                .filter(|t| *t == Taint::Body)
            {
                self.effect(Effect::Flow {
                    at: w.start,
                    taint: t,
                    what: "arithmetic, which evaluates the names and subscripts in a value",
                    in_body: None,
                });
            }
        }
    }

    fn compound(
        &mut self,
        prog: &Prog<'_>,
        kind: &Compound,
        at: u32,
        children: &[(Node<'_>, bool)],
        redirects: &[&Redirect],
        ctx: &Ctx,
    ) -> Val {
        let mut inner = ctx.clone();
        self.redirect_input(prog, redirects.iter().copied(), &mut inner);
        match kind {
            Compound::Loop => inner.scope = Some(ctx.scope.unwrap_or(at)),
            Compound::For(var, words) => {
                inner.scope = Some(ctx.scope.unwrap_or(at));
                let mut v = Val::default();
                match words {
                    Some(ws) => {
                        for w in ws {
                            let i = self.read_word(&w.text, &prog.ends);
                            for s in i.substs() {
                                self.subst(prog, s, ctx);
                            }
                            self.check_word(&i, prog);
                            v.join(&self.word_val(&i, prog));
                        }
                    }
                    None => v = self.var(b"@"),
                }
                if let Some(var) = var {
                    let name = self.read_word(&var.text, &prog.ends).value();
                    match name {
                        Some(n) => self.assign(&n, None, &v, at, &inner, prog),
                        None => self.assign_dynamic(&Val::opaque(), at, "a for loop's variable"),
                    }
                }
            }
            Compound::Function(name) => {
                inner.scope = Some(ctx.scope.unwrap_or(at));
                inner.in_function = true;
                match self.read_word(&name.text, &prog.ends).value() {
                    Some(n) => {
                        if matches!(
                            n.as_slice(),
                            b"command_not_found_handle" | b"command_not_found_handler"
                        ) {
                            self.any(ctx.from(at), "a command_not_found_handle function");
                        }
                        if ctx.body_code && !self.body_functions.contains(&n) {
                            self.body_functions.push(n.clone());
                            self.changed = true;
                        }
                        if let std::collections::hash_map::Entry::Vacant(e) =
                            self.functions.entry(n)
                        {
                            e.insert(at);
                            self.changed = true;
                        }
                    }
                    None => self.any(
                        ctx.from(at),
                        "a function whose name is computed at run time",
                    ),
                }
            }
            Compound::Case(word) => {
                if let Some(w) = word {
                    let i = self.read_word(&w.text, &prog.ends);
                    for s in i.substs() {
                        self.subst(prog, s, ctx);
                    }
                    self.word_assignments(&i, prog, i.start, ctx);
                    self.check_word(&i, prog);
                }
            }
            Compound::Select(var) => {
                inner.scope = Some(ctx.scope.unwrap_or(at));
                // The answer read from standard input, and the word it picks.
                let answer = if inner.stdin.heredoc() {
                    (*inner.stdin).clone()
                } else {
                    Val::opaque()
                };
                self.assign(b"REPLY", None, &answer, at, &inner, prog);
                if let Some(n) = var
                    .as_ref()
                    .and_then(|v| self.read_word(&v.text, &prog.ends).value())
                {
                    self.assign(&n, None, &Val::authored(), at, &inner, prog);
                }
            }
            Compound::Group | Compound::Subshell | Compound::Coproc => {}
        }
        for r in redirects {
            if let Some(t) = &r.target {
                let i = self.read_word(&t.text, &prog.ends);
                for s in i.substs() {
                    self.subst(prog, s, ctx);
                }
                self.check_word(&i, prog);
            }
        }
        let mut out = self.walk(prog, children, &inner);
        if inner.stdin.heredoc() {
            out.body = true;
        }
        self.record_writes(prog, redirects.iter().copied(), &out);
        if matches!(kind, Compound::Coproc) {
            // Read back through `${COPROC[0]}`.
            self.add_fd_input(&out);
        }
        out
    }

    /// Whether a later simple command exists after `end`.
    fn later_command(&self, end: u32) -> bool {
        self.last_start.is_some_and(|s| s >= end)
    }

    fn simple(&mut self, prog: &Prog<'_>, c: &SimpleCommand, index: usize, ctx: &Ctx) -> Val {
        if !self.checking {
            self.last_start = self.last_start.max(Some(c.at));
        }
        // Past the meter, not even read (the verdict is a limit).
        if self.meter.over().is_some() {
            return Val::opaque();
        }
        let cached = prog.is_read(index);
        let read = prog.simple_words(c, index, &self.meter);
        let infos = &read.infos;
        // Read again from the cache: charged as if read again, so that the meter's
        // account does not depend on the cache (the first reading charged as it went).
        if !self.spend(if cached { read.work } else { 0 } + 1) {
            return Val::opaque();
        }
        // The input the command runs with.
        let mut here = ctx.clone();
        self.redirect_input(prog, c.redirects.iter(), &mut here);
        if here.own_heredoc && expands_anything(c) {
            // Something it expands (`2>$(read -r x)`, a zsh prefix assignment's `$(…)`)
            // runs with the heredoc as its input too, and may read its first line first.
            here.own_heredoc = false;
        }
        // Substitutions run first, with the command's input.
        for i in infos {
            for s in i.substs() {
                if let Some(a) = self.alias_in_subst(prog, s) {
                    self.effect(Effect::UnfollowedAlias {
                        at: a,
                        end: a,
                        what: "an alias used in a substitution that runs after its definition on the same line (the shell reads the substitution's text when it runs it)",
                    });
                }
                self.subst(prog, s, &here);
            }
        }
        for r in &c.redirects {
            if let Some(t) = &r.target
                && r.op != RedirOp::Heredoc
            {
                let i = self.read_word(&t.text, &prog.ends);
                for s in i.substs() {
                    self.subst(prog, s, ctx);
                }
                self.check_word(&i, prog);
            }
        }
        let n_assign = read.assignments.len();
        for (w, i) in c.words.iter().zip(infos) {
            self.word_assignments(i, prog, w.start, ctx);
            self.check_word(i, prog);
        }
        for (w, a) in c.words.iter().zip(&read.assignments) {
            // The value's own evaluating contexts (`b=([k]=v)` subscripts).
            let assoc = self.vars.get(&a.name).is_some_and(|v| v.assoc);
            if !assoc {
                self.check_word(&a.value, prog);
            }
            let v = self.word_val(&a.value, prog);
            self.assign(&a.name, a.subscript.as_ref(), &v, w.start, ctx, prog);
        }
        // Unquoted heredoc bodies are expanded when the command runs.
        for r in &c.redirects {
            if r.op == RedirOp::Heredoc {
                self.body(prog, r.at, ctx);
            }
        }
        let words = &infos[n_assign..];
        let out = self.command(prog, c, words, ctx, &here);
        if let Some(last) = infos.last() {
            let v = self.word_val(last, prog);
            self.assign_val(b"_", &v, false);
        }
        let mut out = out;
        if words.is_empty() {
            // `$(< file)`: the file's text (zsh: with a heredoc, the heredoc).
            out.join(&here.stdin);
        }
        self.record_writes(prog, c.redirects.iter(), &out);
        out
    }

    /// An unquoted heredoc body's expansions, evaluated when its command runs.
    fn body(&mut self, prog: &Prog<'_>, op: u32, ctx: &Ctx) {
        let Some((index, h)) = prog.heredocs.iter().enumerate().find(|(_, h)| h.op == op) else {
            return;
        };
        if h.quoted {
            return;
        }
        // What the scan could not follow denies: expansions it did not read (they may
        // assign, name a variable or evaluate a subscript), or a word bash reads again once
        // it removes its double quotes.
        let unfollowed = [
            (
                h.body_eval.cut,
                "more expansions than the guard reads in a body (over 4,096 that assign, name or evaluate, or nested over 64 deep)",
            ),
            (
                h.body_eval.requoted,
                "a ${…} word whose double quotes bash removes before it expands the rest (${x-\"$\"(cmd)} runs cmd)",
            ),
        ];
        let checking = self.checking;
        for (_, what) in unfollowed.into_iter().filter(|(on, _)| *on && checking) {
            self.effect(Effect::Flow {
                at: op,
                taint: Taint::Body,
                what,
                in_body: Some(index),
            });
        }
        for piece in h.body_eval.pieces.iter() {
            match piece {
                Piece::Param(p) => {
                    let mut params = Vec::new();
                    collect_params(p, &mut params);
                    for q in params {
                        if q.op == ParamOp::Assign && !q.indirect {
                            let v = self.param_val(q, prog);
                            let name = q.name.clone();
                            self.assign(&name, None, &v, q.at, ctx, prog);
                        }
                        if q.indirect && q.op != ParamOp::Names {
                            let v = self.var(&q.name);
                            self.check_name(
                                &v,
                                q.at,
                                Some(index),
                                "${!name} in an unquoted heredoc body, which expands the variable a value names",
                            );
                        }
                        if let Some(s) = &q.subscript {
                            self.check_arith(s, prog, Some(index));
                        }
                        for s in &q.slice {
                            self.check_arith(s, prog, Some(index));
                        }
                        // Arithmetic in its word (`${x:-'$((z))'}`: a quote in a body is
                        // a plain character) is evaluated too.
                        let ariths = q.arg.iter().flat_map(|arg| arg.pieces.iter());
                        for a in ariths.filter_map(|piece| match piece {
                            Piece::Arith(a) => Some(a),
                            _ => None,
                        }) {
                            for n in a.assigned.clone() {
                                self.assign(&n, None, &Val::num(), a.at, ctx, prog);
                            }
                            self.check_arith(a, prog, Some(index));
                        }
                    }
                }
                Piece::Arith(a) => {
                    for n in a.assigned.clone() {
                        self.assign(&n, None, &Val::num(), a.at, ctx, prog);
                    }
                    self.check_arith(a, prog, Some(index));
                }
                Piece::Subst(_) | Piece::Lit(_) => {}
            }
        }
    }

    /// The command after its assignments: its name resolved, then what it does.
    fn command(
        &mut self,
        prog: &Prog<'_>,
        c: &SimpleCommand,
        words: &[WordInfo],
        ctx: &Ctx,
        here: &Ctx,
    ) -> Val {
        let mut i = 0;
        let mut exec = false;
        let mut bypass_functions = false;
        let zsh = self.d.is_zsh();
        // An unquoted expansion in the command's words is split into words first (`$c`
        // holding `. /dev/stdin` runs `.`): its fields take its place.
        if words.first().is_some_and(|w| w.split) && self.vars.contains_key(&b"IFS"[..]) {
            // Split by a separator the command sets: the words are not followed.
            self.unknown(
                c.at,
                ctx,
                "a command named by a value split with an IFS this command sets",
            );
            self.receiver_unknown(c, here);
            return Val::opaque();
        }
        let split_words;
        let words = match self.split_fields(words, prog) {
            Some(w) => {
                split_words = w;
                &split_words[..]
            }
            None => words,
        };
        let name = loop {
            let Some(w) = words.get(i) else {
                if exec {
                    self.exec_redirects(prog, c);
                }
                return Val::opaque();
            };
            let v = self.word_val(w, prog);
            if v.heredoc() {
                self.check_code(
                    &v,
                    w.start,
                    "a command name, which runs heredoc text as a command",
                );
                self.receiver_unknown(c, here);
                return Val::body();
            }
            if v.single().is_none() && !v.authored && !v.statics.is_empty() && !self.following_names
            {
                // A name with a few literal values (`${EDITOR:-true}`, `"$@"` of a
                // wrapper): each is followed as if written there; the environment's
                // value is the environment's command.
                self.following_names = true;
                let mut out = Val::default();
                for s in v.statics.clone() {
                    let mut alt = words.to_vec();
                    if let Some(slot) = alt.get_mut(i) {
                        *slot = WordInfo {
                            start: w.start,
                            end: w.end,
                            pieces: vec![Piece::Lit(s)],
                            split: w.split,
                            ..WordInfo::default()
                        };
                    }
                    if v.statics.len() > 1 && i < alt.len() {
                        // An array's elements (`"${a[@]}"`): the others can follow it.
                        alt.insert(i + 1, w.clone());
                    }
                    out.join(&self.command(prog, c, &alt, ctx, here));
                }
                self.following_names = false;
                if v.env || v.opaque || v.num {
                    out.join(&Val::opaque());
                }
                return out;
            }
            let Some(name) = v.single().map(<[u8]>::to_vec) else {
                // A name with a slash is a file: never a builtin, a function or an alias.
                let path = w
                    .pieces
                    .iter()
                    .any(|p| matches!(p, Piece::Lit(l) if l.contains(&b'/')))
                    || (v.authored && v.paths && v.statics.iter().all(|n| n.contains(&b'/')));
                // The environment's value or literals of plain commands
                // (`${PY:-python3}`, `"$@"` of `run npm test`).
                let candidates_plain = !v.authored
                    && v.statics.iter().all(|n| {
                        n.contains(&b'/')
                            || (!self.functions.contains_key(n)
                                && !BASH_BUILTINS.contains(&n.as_slice())
                                && !ZSH_BUILTINS.contains(&n.as_slice()))
                    });
                if path || candidates_plain {
                    if here.stdin.heredoc() {
                        for n in v.statics.clone() {
                            self.check_receiver(&n, c, here, false);
                        }
                    }
                    return Val::opaque();
                }
                if v.chosen() {
                    // A name the command spells at run time (`${a}as`, `{alias,true}`,
                    // `$_`): it can be any builtin.
                    self.unknown(
                        c.at,
                        ctx,
                        "a command whose name this command builds at run time",
                    );
                    self.receiver_unknown(c, here);
                }
                // Otherwise the environment's command (`"$PYTHON"`, `$(command -v x)`).
                return Val::opaque();
            };
            match name.as_slice() {
                b"builtin" => {
                    i += 1;
                    if words.get(i).and_then(WordInfo::value).as_deref() == Some(b"--") {
                        i += 1;
                    }
                }
                b"command" => {
                    i += 1;
                    bypass_functions = true;
                    while let Some(o) = words.get(i).and_then(WordInfo::value) {
                        match o.as_slice() {
                            b"-p" | b"-pp" => i += 1,
                            b"--" => {
                                i += 1;
                                break;
                            }
                            o if o.starts_with(b"-") && o.len() > 1 => {
                                // -v, -V: describe the name, run nothing.
                                return Val::opaque();
                            }
                            _ => break,
                        }
                    }
                }
                b"exec" => {
                    i += 1;
                    exec = true;
                    bypass_functions = true;
                    while let Some(o) = words.get(i).and_then(WordInfo::value) {
                        match o.as_slice() {
                            b"-a" => i += 2,
                            b"--" => {
                                i += 1;
                                break;
                            }
                            o if o.starts_with(b"-") && o.len() > 1 => i += 1,
                            _ => break,
                        }
                    }
                }
                w if zsh && crate::shell::syntax::ZSH_PRECOMMANDS.contains(&w) => i += 1,
                _ => break name,
            }
        };
        let args = &words[i + 1..];
        let at = words.get(i).map_or(c.at, |w| w.start);
        // The command reads a heredoc (its own, or one its input comes from).
        if here.stdin.heredoc() {
            // (Words split from a value or an array's elements have no alias origin.)
            let from_alias = (c.words.len() + i)
                .checked_sub(words.len())
                .and_then(|k| c.words.get(k))
                .is_some_and(|w| w.from_alias);
            if from_alias {
                let op = here.feeding.unwrap_or(c.at);
                self.effect(Effect::Receiver {
                    op,
                    at: c.at,
                    what: "the command that reads the heredoc comes from an alias this command defines",
                });
            }
            self.check_receiver(&name, c, here, bypass_functions);
        }
        if !bypass_functions && self.body_functions.contains(&name) {
            self.effect(Effect::Flow {
                at,
                taint: Taint::Body,
                what: "a function whose body is heredoc text, which a call runs as code",
                in_body: None,
            });
        }
        if !bypass_functions && self.functions.contains_key(&name) {
            // A call: its arguments become the positional parameters.
            let mut v = Val::default();
            for a in args {
                v.join(&self.word_val(a, prog));
            }
            self.set_positional(&v);
            return Val::authored();
        }
        let builtin = BASH_BUILTINS.contains(&name.as_slice())
            || (zsh && ZSH_BUILTINS.contains(&name.as_slice()));
        if !builtin {
            // An external command: it cannot change this shell. What it prints: `cat`, its
            // files or its input as they are; `echo` and `printf`, their words; another
            // program, text made from its input (heredoc text that can hold a substitution,
            // or the command's own text) or else the environment's.
            let base = name.rsplit(|&c| c == b'/').next().unwrap_or(&name);
            let arg_vals: Vec<Val> = args.iter().map(|a| self.word_val(a, prog)).collect();
            if base == b"cat" {
                let mut out = Val::default();
                let mut files = 0;
                for a in args {
                    if a.value().as_deref() == Some(b"-") {
                        out.join(&here.stdin);
                        files += 1;
                    } else if !a.value().is_some_and(|v| v.starts_with(b"-")) {
                        files += 1;
                        if a.process {
                            for s in a.substs() {
                                out.join(
                                    &self.subst_out.get(&s).cloned().unwrap_or_else(Val::opaque),
                                );
                            }
                        } else {
                            out.join(&self.file_content(a, prog));
                            if self.names_descriptor(a, prog) {
                                out.join(&here.stdin);
                                out.join(&self.fd_inputs);
                            }
                        }
                    }
                }
                if files == 0 {
                    out = (*here.stdin).clone();
                }
                return out;
            }
            if arg_vals.iter().any(Val::heredoc) && matches!(base, b"echo" | b"printf") {
                return Val::body();
            }
            if matches!(base, b"echo" | b"printf") {
                let statics: Vec<Option<Vec<u8>>> = args.iter().map(WordInfo::literal).collect();
                return builtins::printed(base, &statics).map_or_else(Val::authored, Val::lit);
            }
            if matches!(base, b"ps" | b"pgrep" | b"pstree")
                || (matches!(base, b"env" | b"printenv")
                    && self.meter.charge(self.vars.len() / 16 + 1)
                    && self.vars.values().any(|v| v.val.heredoc()))
            {
                // The shell's own command line (heredoc text in it), or variables that
                // hold heredoc text.
                return Val::body();
            }
            if arg_vals.iter().any(Val::heredoc) && !self.heredoc_names {
                // It may make a file named by heredoc text (`touch`, `mkdir`).
                self.heredoc_names = true;
                self.changed = true;
            }
            let stdin = &here.stdin;
            if self.any_live_text(std::iter::once(&**stdin).chain(&arg_vals)) {
                return Val::body();
            }
            if stdin.authored || stdin.only_statics() {
                return Val::authored();
            }
            return Val::opaque();
        }
        self.builtin(prog, c, &name, args, at, ctx, here)
    }

    /// The words with each unquoted expansion whose value holds blanks split into fields,
    /// when one does; `None` when nothing splits.
    fn split_fields(&self, words: &[WordInfo], prog: &Prog<'_>) -> Option<Vec<WordInfo>> {
        let first = words.first()?;
        if !first.split {
            return None;
        }
        let v = self.word_val(first, prog);
        let text = v.single()?;
        if !text.iter().any(|c| matches!(c, b' ' | b'\t' | b'\n')) {
            return None;
        }
        if !self
            .meter
            .charge(crate::shell::bulk_work(text.len()) + words.len())
        {
            return None;
        }
        let mut out: Vec<WordInfo> = text
            .split(|c| matches!(c, b' ' | b'\t' | b'\n'))
            .filter(|f| !f.is_empty())
            .map(|f| WordInfo {
                start: first.start,
                end: first.end,
                pieces: vec![Piece::Lit(f.to_vec())],
                ..WordInfo::default()
            })
            .collect();
        out.extend(words[1..].iter().cloned());
        Some(out)
    }

    /// The positional parameters (`$1`, `$@`, `${10}`…) may hold `v`.
    pub(super) fn set_positional(&mut self, v: &Val) {
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
            b"argv",
        ] {
            self.assign_val(p, v, false);
        }
    }

    fn receiver_unknown(&mut self, c: &SimpleCommand, here: &Ctx) {
        if here.stdin.heredoc() {
            let op = here.feeding.unwrap_or(c.at);
            self.effect(Effect::Receiver {
                op,
                at: c.at,
                what: "the command that reads the heredoc is named at run time",
            });
        }
    }

    /// A command that reads heredoc text: is it what it is named?
    fn check_receiver(
        &mut self,
        name: &[u8],
        c: &SimpleCommand,
        here: &Ctx,
        bypass_functions: bool,
    ) {
        if !self.checking {
            return;
        }
        let op = here.feeding.unwrap_or(c.at);
        let pos = if here.in_function { u32::MAX } else { op };
        if !bypass_functions && self.functions.contains_key(name) {
            self.effect(Effect::Receiver {
                op,
                at: c.at,
                what: "the command that reads the heredoc is a function this command defines",
            });
            return;
        }
        if let Some((_, _, why)) = self
            .rebinds
            .iter()
            .find(|(n, from, _)| n == name && *from < pos)
        {
            let why = *why;
            self.effect(Effect::Receiver {
                op,
                at: c.at,
                what: why,
            });
            return;
        }
        if let Some((from, why)) = self.any_rebind
            && from < pos
        {
            self.effect(Effect::Receiver {
                op,
                at: c.at,
                what: why,
            });
            return;
        }
        if let Some(from) = self.path_changed
            && from < pos
            && !name.contains(&b'/')
            && (!self.files.is_empty() || self.files_unknown || self.heredoc_names)
        {
            self.effect(Effect::Receiver {
                op,
                at: c.at,
                what: "the command that reads the heredoc is looked up in a PATH this command changes, after it wrote files",
            });
        }
    }
}

/// Every offset of an effect moved to `at` (an effect found in text `eval` runs).
fn pin(e: Effect, at: u32) -> Effect {
    match e {
        Effect::Unknown { what, .. } => Effect::Unknown { at, from: at, what },
        Effect::Unfollowed { what, .. } => Effect::Unfollowed { at, what },
        Effect::UnfollowedAlias { what, .. } => Effect::UnfollowedAlias { at, end: at, what },
        Effect::Receiver { what, .. } => Effect::Receiver { op: at, at, what },
        Effect::Flow { taint, what, .. } => Effect::Flow {
            at,
            taint,
            what,
            in_body: None,
        },
    }
}

fn collect_params<'a>(p: &'a Param, out: &mut Vec<&'a Param>) {
    out.push(p);
    if let Some(a) = &p.arg {
        out.extend(a.params());
    }
}

/// The literal words of a program's simple commands (nested programs included).
fn collect_words(
    prog: &Prog<'_>,
    nodes: &[(Node<'_>, bool)],
    out: &mut Vec<Vec<u8>>,
    depth: usize,
    meter: &crate::shell::Work,
) {
    if depth > MAX_NEST {
        return;
    }
    for (node, _) in nodes {
        match node {
            Node::Simple(c, index) => {
                for i in &prog.simple_words(c, *index, meter).infos {
                    if let Some(v) = i.value() {
                        out.push(v);
                    }
                    for s in i.substs() {
                        if let Some(n) = prog.substs.get(&s) {
                            collect_words(prog, n, out, depth + 1, meter);
                        }
                    }
                }
            }
            Node::Compound { children, .. } => collect_words(prog, children, out, depth + 1, meter),
            _ => {}
        }
    }
}

/// `name[sub]` → (`name`, `sub`).
fn split_subscript(s: &[u8]) -> (&[u8], Option<&[u8]>) {
    match s.iter().position(|&c| c == b'[') {
        Some(open) if s.last() == Some(&b']') => (&s[..open], Some(&s[open + 1..s.len() - 1])),
        _ => (s, None),
    }
}

/// A literal subscript key (`BASH_CMDS[cat]`).
fn static_key(a: &Arith) -> Option<Vec<u8>> {
    if a.params.is_empty() && a.substs.is_empty() && !a.odd && a.names.len() == 1 {
        a.names.first().cloned()
    } else {
        None
    }
}

/// A word `name=…` whose name part is literal: the name, and the value's pieces.
fn literal_prefix_assignment(w: &WordInfo) -> Option<(Vec<u8>, Vec<Piece>)> {
    let Some(Piece::Lit(first)) = w.pieces.first() else {
        return None;
    };
    let eq = first.iter().position(|&c| c == b'=')?;
    let name = first[..eq]
        .strip_suffix(b"+")
        .unwrap_or(&first[..eq])
        .to_vec();
    let mut rest = vec![Piece::Lit(first[eq + 1..].to_vec())];
    rest.extend(w.pieces.iter().skip(1).cloned());
    Some((name, rest))
}

/// A word split at its first literal `=` (`"$k=$v"` → `$k`, `$v`), or `None`.
fn split_at_equals(w: &WordInfo) -> Option<(WordInfo, WordInfo)> {
    let (k, eq) = w.pieces.iter().enumerate().find_map(|(k, p)| match p {
        Piece::Lit(l) => l.iter().position(|&c| c == b'=').map(|eq| (k, eq)),
        _ => None,
    })?;
    let Some(Piece::Lit(l)) = w.pieces.get(k) else {
        return None;
    };
    let mut name = w.pieces[..k].to_vec();
    name.push(Piece::Lit(l[..eq].to_vec()));
    let mut value = vec![Piece::Lit(l[eq + 1..].to_vec())];
    value.extend(w.pieces[k + 1..].iter().cloned());
    let part = |pieces| WordInfo {
        pieces,
        start: w.start,
        end: w.end,
        unread: w.unread,
        ..WordInfo::default()
    };
    Some((part(name), part(value)))
}

/// Whether a simple command's words or redirection targets may expand anything that runs
/// (a `$`, a backquote or a parenthesis anywhere in them; a heredoc's delimiter is not
/// expanded).
fn expands_anything(c: &SimpleCommand) -> bool {
    c.words
        .iter()
        .map(|w| w.text.bytes())
        .chain(
            c.redirects
                .iter()
                .filter(|r| r.op != RedirOp::Heredoc)
                .filter_map(|r| r.target.as_ref().map(|t| t.text.bytes())),
        )
        .any(|b| b.iter().any(|c| matches!(c, b'$' | b'`' | b'(')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Shell;

    fn effects(cmd: &str, shell: Shell) -> Vec<Effect> {
        super::super::read(cmd, Dialect::new(shell)).effects
    }

    fn has(cmd: &str, f: impl Fn(&Effect) -> bool) -> bool {
        effects(cmd, Shell::Bash52).iter().any(f)
    }

    #[test]
    fn a_quoted_heredoc_given_to_a_rebound_name_is_a_receiver() {
        let recv = |e: &Effect| matches!(e, Effect::Receiver { .. });
        assert!(has("hash -p /bin/bash cat\ncat <<'EOF'\nx\nEOF\n", recv));
        assert!(has("cat() { bash; }\ncat <<'EOF'\nx\nEOF\n", recv));
        assert!(has("BASH_CMDS[cat]=/bin/bash\ncat <<'EOF'\nx\nEOF\n", recv));
        assert!(has(
            "command_not_found_handle() { bash; }\nxx <<'EOF'\nx\nEOF\n",
            recv
        ));
        assert!(has("exec <<'EOF'\nx\nEOF\nbash\n", recv));
        assert!(!has("cat <<'EOF'\nx\nEOF\n", recv));
        assert!(!has("f() { :; }\ncat <<'EOF'\nx\nEOF\n", recv));
    }

    #[test]
    fn heredoc_text_that_reaches_an_evaluating_context_is_a_flow() {
        let body = |e: &Effect| {
            matches!(
                e,
                Effect::Flow {
                    taint: Taint::Body,
                    ..
                }
            )
        };
        assert!(has("read -r v <<'EOF'\na[$(x)]\nEOF\necho $((v))\n", body));
        assert!(has(
            "v=$(cat <<'EOF'\na[$(x)]\nEOF\n)\n[[ $v -eq 0 ]]\n",
            body
        ));
        // Known heredoc text that holds nothing to run is a plain value there.
        assert!(!has("v=$(cat <<'EOF'\n1\nEOF\n)\n[[ $v -eq 0 ]]\n", body));
        assert!(has("v=$(cat <<'EOF'\nx\nEOF\n)\neval \"$v\"\n", body));
        assert!(has(
            ": \"$(cat <<'EOF'\na[$(x)]\nEOF\n)\"\necho ${!_}\n",
            body
        ));
        assert!(!has("echo ${!_}\n", body));
        assert!(has(
            "cat <<EOF\n$(( ${BASH_EXECUTION_STRING#*@} ))\nEOF\n",
            body
        ));
        assert!(!has("read -r v <<'EOF'\nx\nEOF\necho \"$v\"\n", body));
    }

    #[test]
    fn text_this_command_builds_and_runs_is_unknown_and_the_environments_is_not() {
        let unknown = |e: &Effect| matches!(e, Effect::Unknown { .. });
        // Built from the command's own words.
        assert!(has(". <(printf '%b' x)\n", unknown));
        // printf of literals with `%s` only is computed, and its text followed.
        assert!(!has(". <(printf 'x=%s' y)\n", unknown));
        assert!(has(". <(printf 'alias %s' x=y)\n", |e: &Effect| matches!(
            e,
            Effect::Unfollowed { .. }
        )));
        // The environment's: another program's output, a file that was there, a command
        // named by the environment.
        assert!(!has("eval \"$(ssh-agent -s)\"\n", unknown));
        assert!(!has("source .venv/bin/activate\n", unknown));
        assert!(!has("\"$PYTHON\" -m pytest\n", unknown));
        // Literal text is read, not unknown.
        assert!(!has("eval 'echo hi'\n", unknown));
        assert!(!has("trap 'rm -f \"$tmp\"' EXIT\n", unknown));
        assert!(!has("printf -v stamp '%(%F)T' -1\n", unknown));
    }
}
