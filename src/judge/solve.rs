//! The solver: the values of the walk's [`Facts`] (every variable joined over every
//! assignment, every substitution's output), then each hidden-evaluator site judged once
//! on its value, each change to later text judged against the heredocs it can reach.
//!
//! The values only grow and the lattice is finite, so a worklist reaches the fixed point;
//! every evaluation is charged to the command's meter, and a meter that runs out ends the
//! judgement as a limit (a deny), never as an allow.

use super::GaveUp;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;
use std::rc::Rc;

use super::evaluators::{self, Evaluator, LitRefs, Refs};
use super::facts::{Expr, Facts, Needs, Src, Target, Var, When};
use super::value::{ByteSet, Val};
use crate::shell::text::Text;
use crate::shell::word::{self, Piece};
use crate::shell::{Dialect, Heredoc, Work};

/// Text-holding variables the shell sets itself and the walk does not follow, never
/// assigned by the command: they may hold the command's own text (and so heredoc text) or
/// another program's. (`BASH_REMATCH`, `match`, `MATCH`, `REPLY`, `MAPFILE`, `OLDPWD`, `_`
/// are followed where the shell sets them.)
fn shell_text_variable(name: &[u8], zsh: bool) -> bool {
    if zsh {
        matches!(
            name,
            b"functions"
                | b"functions_source"
                | b"dis_functions"
                | b"dis_functions_source"
                | b"history"
                | b"historywords"
                | b"jobtexts"
                | b"ZSH_EXECUTION_STRING"
                | b"ZSH_DEBUG_CMD"
                | b"BUFFER"
                | b"LBUFFER"
                | b"RBUFFER"
                | b"PREBUFFER"
                | b"CUTBUFFER"
                | b"killring"
                | b"nameddirs"
                | b"commands"
                | b"dirstack"
                | b"mapfile"
                | b"zsh_scheduled_events"
                | b"keymaps"
                | b"widgets"
        )
    } else {
        matches!(
            name,
            b"BASH_COMMAND"
                | b"BASH_EXECUTION_STRING"
                | b"COMP_LINE"
                | b"COMP_WORDS"
                | b"READLINE_LINE"
                | b"READLINE_ARGUMENT"
                | b"BASH_CMDS"
                | b"DIRSTACK"
        )
    }
}

/// Bytes that, in an alias's value, can change how the text after the alias is read
/// (a heredoc operator, a quote, a comment, a substitution, a line end, a group, and a
/// blank, which may end it: the next word is then expanded as an alias too).
const RESHAPING: ByteSet = ByteSet::of_const(b"<#'\"\\$`(){}[]\n \t");

/// One finding of the solver: a site whose value is dangerous, or a change that reaches
/// a later heredoc.
#[derive(Debug, Clone)]
pub(super) enum Found {
    Evaluation {
        at: u32,
        evaluator: Evaluator,
        what: &'static str,
        /// The value holds run-time text the command does not show (else: heredoc text).
        unknown: bool,
        in_body: Option<usize>,
    },
    Change {
        at: u32,
        what: &'static str,
    },
    Unread {
        at: u32,
        in_body: Option<usize>,
        what: &'static str,
    },
}

pub(super) struct Solver<'a> {
    facts: &'a Facts,
    d: Dialect,
    heredocs: &'a [Heredoc],
    /// The reading or its `eval` and `trap` texts hold a heredoc.
    pub holds_heredoc: bool,
    /// IFS may be anything (an evaluator may assign it through a value: `n='IFS=1';
    /// $((n))`): `read`'s fields are any part of a line.
    pub ifs_unknown: bool,
    /// Leave out what `eval` of computed text may assign any variable: the values the rest
    /// of the command gives ([`Solver::judge_eval_attrs`]).
    pub skip_eval_assigns: bool,
    /// A field was split with the values IFS is known to hold.
    pub fields_split: std::cell::Cell<bool>,
    text: Option<&'a [u8]>,
    meter: &'a Work,
    /// Each variable's representative (a nameref to a fixed name, tied arrays).
    rep: Vec<Var>,
    vals: Vec<Val>,
    assigned: Vec<bool>,
    /// What variables named at run time may hold.
    any: Val,
    /// Every variable's value, joined.
    all: Val,
    substs: HashMap<u32, Val>,
    bodies: RefCell<HashMap<(usize, bool), ByteSet>>,
    computed_refs: HashSet<Var>,
    case_changed: HashSet<Var>,
    assoc: HashSet<Var>,
    /// The variables arithmetic would run heredoc text from (a fixed point).
    arith_dangerous: HashSet<Var>,
    /// A variable named at run time may hold such a value (part of the same fixed point).
    any_dangerous: bool,
    /// Whether that fixed point is known: it is computed only where an evaluator is
    /// judged, and until it is, every variable counts as dangerous (fail closed).
    dangerous_known: bool,
    lit_cache: RefCell<HashMap<Rc<[u8]>, Rc<LitRefs>>>,
    /// Where a hidden evaluator expands text that may hold a substitution, which the shell
    /// reads only then ([`Solver::read_by_evaluators`]): text read after a change before it.
    evaluated_reads: Vec<u32>,
    /// zsh may print an arithmetic result in another base here (`[##16]` in the text):
    /// letters, which name variables.
    zsh_bases: bool,

    /// [`Solver::assigns_any_name`], once the values are solved.
    any_name_assigned: std::cell::OnceCell<bool>,
    any_name_computing: std::cell::Cell<bool>,
    /// The text may move an array's first element (`unset`, zsh's `shift`), once.
    heads_moved: std::cell::OnceCell<bool>,
    /// The text names `IFS` ([`Solver::may_be`]), once.
    ifs_named: std::cell::OnceCell<bool>,
    /// The offsets of the commands that run text the guard does not read as `eval` of
    /// computed text does ([`Solver::evals_own`]), once: looked up for each `$_`.
    eval_runs_at: std::cell::OnceCell<rustc_hash::FxHashSet<u32>>,
    /// The variables given the integer or float attribute, by their canonical name
    /// ([`Solver::read_val`]), once: looked up on each read.
    integer_vars: std::cell::OnceCell<rustc_hash::FxHashSet<Var>>,
    solved: bool,
    /// The values were left unsolved, nothing being there to read them
    /// ([`Solver::needs_values`]): a value read all the same is run-time text.
    unsolved: bool,
    /// [`Solver::is_array`] of each representative asked.
    array_memo: RefCell<HashMap<Var, bool>>,
    /// Every variable may be an array (a computed nameref or name, `coproc`, `compgen`).
    every_array: std::cell::OnceCell<bool>,
    /// The names the text writes with a subscript or a list after them.
    array_spelled: std::cell::OnceCell<HashSet<&'a [u8]>>,
}

impl<'a> Solver<'a> {
    pub fn new(
        facts: &'a Facts,
        d: Dialect,
        heredocs: &'a [Heredoc],
        text: Option<&'a [u8]>,
        meter: &'a Work,
    ) -> Self {
        let n = facts.names.len();
        let mut rep: Vec<Var> = (0..n as Var).collect();
        fn find(rep: &mut [Var], v: Var) -> Var {
            let mut r = v;
            while rep[r as usize] != r {
                r = rep[r as usize];
            }
            let mut x = v;
            while rep[x as usize] != r {
                let next = rep[x as usize];
                rep[x as usize] = r;
                x = next;
            }
            r
        }
        for &(a, b) in &facts.same {
            if (a as usize) < n && (b as usize) < n {
                let (ra, rb) = (find(&mut rep, a), find(&mut rep, b));
                if ra != rb {
                    rep[rb as usize] = ra;
                }
            }
        }
        for v in 0..n as Var {
            let r = find(&mut rep, v);
            rep[v as usize] = r;
        }
        let canon = |v: Var| rep.get(v as usize).copied().unwrap_or(v);
        Solver {
            computed_refs: facts.computed_refs.iter().map(|&v| canon(v)).collect(),
            case_changed: facts.case_changed.iter().map(|&v| canon(v)).collect(),
            assoc: facts.assoc.iter().map(|&v| canon(v)).collect(),
            facts,
            d,
            holds_heredoc: !heredocs.is_empty(),
            ifs_unknown: false,
            skip_eval_assigns: false,
            fields_split: std::cell::Cell::new(false),
            heredocs,
            text,
            meter,
            vals: vec![Val::default(); n],
            assigned: vec![false; n],
            rep,
            any: Val::default(),
            all: Val::default(),
            substs: HashMap::default(),
            bodies: RefCell::new(HashMap::default()),
            arith_dangerous: HashSet::default(),
            any_dangerous: false,
            dangerous_known: false,
            lit_cache: RefCell::new(HashMap::default()),
            evaluated_reads: Vec::new(),
            zsh_bases: d.is_zsh() && text.is_some_and(|t| crate::search::find(t, b"[#").is_some()),
            array_memo: RefCell::new(HashMap::default()),
            any_name_assigned: std::cell::OnceCell::new(),
            any_name_computing: std::cell::Cell::new(false),
            ifs_named: std::cell::OnceCell::new(),
            eval_runs_at: std::cell::OnceCell::new(),
            integer_vars: std::cell::OnceCell::new(),
            heads_moved: std::cell::OnceCell::new(),
            solved: false,
            unsolved: false,
            every_array: std::cell::OnceCell::new(),
            array_spelled: std::cell::OnceCell::new(),
        }
    }

    fn canon(&self, v: Var) -> Var {
        self.rep.get(v as usize).copied().unwrap_or(v)
    }

    fn spend(&self, n: usize) -> Result<(), GaveUp> {
        if self.meter.charge(n) {
            Ok(())
        } else {
            Err(GaveUp)
        }
    }

    /// Whether judging reads any value once it is solved: a hidden-evaluator site, an
    /// integer or nameref attribute, `set -x`, names made one (a nameref to a fixed name,
    /// tied names: their special rules), text run whose name is computed, or a change to
    /// how later text is read whose rule looks at a value. A command that has none (plain
    /// commands, quoted heredocs, loops that only print) is judged without its values.
    pub fn needs_values(&self) -> bool {
        let f = self.facts;
        !f.sites.is_empty()
            || !f.integers.is_empty()
            || f.any_integer.is_some()
            || f.any_nameref.is_some()
            || f.xtrace.is_some()
            || !f.same.is_empty()
            || !f.unread_runs.is_empty()
            || f.changes.iter().any(|c| !matches!(c.when, When::Always))
    }

    /// Leaves the values unsolved ([`Solver::needs_values`] said nothing reads them); should
    /// one be read all the same, it is run-time text, which may be heredoc text (fail
    /// closed).
    pub fn leave_unsolved(&mut self) {
        self.unsolved = true;
        // (What any variable, and every variable, may hold: run-time text too, for a
        // reader that looks at them directly.)
        self.any = Val::unknown();
        self.all = Val::unknown();
    }

    /// The value of variable `v` now.
    fn var_val(&self, v: Var) -> Val {
        if self.unsolved {
            return Val::unknown();
        }
        let c = self.canon(v);
        let mut out = if self.assigned.get(c as usize).copied().unwrap_or(false) {
            self.vals.get(c as usize).cloned().unwrap_or_default()
        } else {
            self.default(c)
        };
        out.join(&self.any);
        if self.computed_refs.contains(&c) {
            out.join(&self.all);
            out.join(&Val::env());
        }
        if self.facts.any_case || self.case_changed.contains(&c) {
            out = cased(&out);
        }
        out
    }

    /// Whether variable `v` may be an array where a value is given to it: flow-insensitively
    /// and by more ways than the walk follows, so by what could make any name one (a name
    /// computed at run time, a nameref), what the walk saw (`declare -a`, `read -a`,
    /// `mapfile`), the shell's own arrays, and the text: the name written with a subscript
    /// or a list anywhere (`z[0]=`, `printf -v 'z[0]'`, `${z[0]:=…}`, `z=(…)`), or a
    /// command that makes an array of a name it is given (`coproc`, `compgen -V`).
    fn is_array(&self, v: Var) -> bool {
        let c = self.canon(v);
        if let Some(&known) = self.array_memo.borrow().get(&c) {
            return known;
        }
        let found = self.is_array_uncached(c);
        self.array_memo.borrow_mut().insert(c, found);
        found
    }

    /// [`Solver::is_array`] of a representative, worked out (once per variable: the
    /// text is searched once for every name, not once per site).
    fn is_array_uncached(&self, c: Var) -> bool {
        let every = *self.every_array.get_or_init(|| {
            // (Any nameref: `declare -n r=arr; arr=(1); declare r="$v"` gives the array
            // through a name the walk took for a scalar's; and the commands' names with
            // quotes and backslashes dropped, `comp''gen -V`, round 102.)
            self.facts.any_nameref.is_some()
                || self.facts.has_nameref
                || !self.facts.computed_refs.is_empty()
                || self.assigns_any_name()
                || self.text.is_none_or(|text| {
                    let kept = crate::shell::syntax::unquoted_spelling(text);
                    crate::search::find(&kept, b"coproc").is_some()
                        || crate::search::find(&kept, b"compgen").is_some()
                })
        });
        if every || self.facts.arrays.iter().any(|&a| self.canon(a) == c) {
            return true;
        }
        let name = self.facts.names.name(c);
        if matches!(
            name,
            b"DIRSTACK"
                | b"BASH_REMATCH"
                | b"BASH_ARGV"
                | b"BASH_ARGC"
                | b"BASH_SOURCE"
                | b"BASH_LINENO"
                | b"BASH_VERSINFO"
                | b"BASH_ALIASES"
                | b"BASH_CMDS"
                | b"FUNCNAME"
                | b"GROUPS"
                | b"PIPESTATUS"
                | b"COMP_WORDS"
                | b"COPROC"
                | b"MAPFILE"
        ) {
            return true;
        }
        let Some(text) = self.text else {
            return true;
        };
        if !name.is_empty()
            && name
                .iter()
                .all(|&b| crate::shell::syntax::legal_variable_char(b))
        {
            // A name of variable characters: written as an array exactly where the run of
            // such characters before a `[`, `=(` or `+=(` is the name.
            return self
                .array_spelled
                .get_or_init(|| names_written_as_arrays(text))
                .contains(name);
        }
        memchr::memmem::find_iter(text, name).any(|at| {
            let after = &text[at + name.len()..];
            let before = text[..at].last().copied();
            let starts = before.is_none_or(|b| !crate::shell::syntax::legal_variable_char(b));
            starts
                && (after.first() == Some(&b'[')
                    || after.starts_with(b"=(")
                    || after.starts_with(b"+=("))
        })
    }

    /// Field `index` (or the rest, `last`) of each line of `v` as `read -r` splits it,
    /// with every value `IFS` may have (bash's default among them): exact texts split
    /// exactly; anything else, a part of the value.
    fn fields(&self, v: &Val, index: usize, last: bool) -> Result<Val, GaveUp> {
        let ifs_val = match self.facts.names.get(b"IFS") {
            Some(x)
                if self
                    .assigned
                    .get(self.canon(x) as usize)
                    .copied()
                    .unwrap_or(false) =>
            {
                Some(self.var_val(x))
            }
            _ => None,
        };
        // A name computed at run time may be IFS (`printf -v "$n"`, `declare "$n=…"`, a
        // nameref to a computed name): IFS is then not known.
        if self.ifs_unknown
            || !self.any.is_empty()
            || !self.computed_refs.is_empty()
            || self.facts.any_nameref.is_some()
        {
            return Ok(v.substring());
        }
        let mut sets: Vec<&[u8]> = vec![b" \t\n", b" \t\n\0"];
        if let Some(i) = &ifs_val {
            if i.fixed.is_some() || i.has_heredoc() || i.env || i.unknown {
                return Ok(v.substring());
            }
            sets.extend(i.lits.iter().map(|l| &**l));
        }
        // Bytes past ASCII: the shells split by characters of the locale (a multibyte IFS
        // character, or an ASCII byte inside a character of another encoding).
        let ascii = |t: &[u8]| t.iter().all(u8::is_ascii);
        if !sets.iter().all(|s| ascii(s)) || !v.lits.iter().chain(&v.htexts).all(|t| ascii(t)) {
            return Ok(v.substring());
        }
        let exact = v.fixed.is_none() && v.heredoc.is_none() && !v.unknown;
        if !exact {
            return Ok(v.substring());
        }
        let mut out = Val {
            env: v.env,
            ..Val::default()
        };
        self.fields_split.set(true);
        for (texts, heredoc) in [(&v.lits, false), (&v.htexts, true)] {
            for t in texts {
                self.spend(t.len() / 16 + 1)?;
                for line in t.split(|&c| c == b'\n') {
                    for ifs in &sets {
                        for f in read_field(line, ifs, index, last) {
                            out.join(&if heredoc {
                                Val::heredoc_text(f)
                            } else {
                                Val::lit(f)
                            });
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// What reading variable `v` gives: its value, and for a zsh integer with a base
    /// (`typeset -i 16 x`), `16#FF`, letters a later pattern keeps.
    fn read_val(&self, v: Var) -> Val {
        let mut out = self.var_val(v);
        let c = self.canon(v);
        if self.d.is_zsh()
            && self
                .integer_vars
                .get_or_init(|| {
                    self.facts
                        .integers
                        .iter()
                        .map(|&(i, _)| self.canon(i))
                        .collect()
                })
                .contains(&c)
        {
            // (An integer or float variable prints in its base, `16#FF`, or as a float.)
            out.join(&Val::zsh_number());
        }
        out
    }

    /// The value of a variable the command never assigns.
    fn default(&self, v: Var) -> Val {
        self.default_named(self.facts.names.name(v))
    }

    /// The value of the variable `name`, which the command never assigns.
    fn default_named(&self, name: &[u8]) -> Val {
        if name.first() == Some(&0) {
            // The judge's own (an array's computed keys, `Walk::keys_var`): no value but
            // what it is given.
            Val::default()
        } else if shell_text_variable(name, self.d.is_zsh()) {
            Val::unknown()
        } else if shell_number_variable(name) {
            Val::number()
        } else if let Some(text) = shell_default_text(name, self.d.is_zsh()) {
            // The shell's own value, text it fixes (an alias may take its `<`).
            let mut v = Val::lit(text);
            v.env = true;
            v
        } else {
            Val::env()
        }
    }

    /// Heredoc `i`'s text as bytes (its first line only, when asked and when that line
    /// does not go on past a trailing backslash).
    fn body(&self, i: usize, first_line: bool) -> Result<ByteSet, GaveUp> {
        if let Some(b) = self.bodies.borrow().get(&(i, first_line)) {
            return Ok(*b);
        }
        let b = match (self.heredocs.get(i), self.text) {
            (Some(h), Some(text)) => {
                let (s, e) = (h.body.0 as usize, (h.body.1 as usize).min(text.len()));
                let body = text.get(s.min(e)..e).unwrap_or_default();
                let part = if first_line {
                    match memchr::memchr(b'\n', body) {
                        Some(nl) if !body[..nl].ends_with(b"\\") => &body[..nl + 1],
                        _ => body,
                    }
                } else {
                    body
                };
                if !self.meter.charge(crate::shell::bulk_work(part.len())) {
                    return Err(GaveUp);
                }
                ByteSet::of(part)
            }
            // A body whose text the offsets do not give (text `eval` runs): any byte.
            _ => ByteSet::ALL,
        };
        self.bodies.borrow_mut().insert((i, first_line), b);
        Ok(b)
    }

    /// Heredoc `i`'s text as a value: exact when it is short and its offsets give it,
    /// else its bytes.
    fn body_val(&self, i: usize, first_line: bool) -> Result<Val, GaveUp> {
        let bytes = self.body(i, first_line)?;
        let exact = match (self.heredocs.get(i), self.text) {
            (Some(h), Some(text)) if h.quoted && !h.strip_tabs => {
                let (s, e) = (h.body.0 as usize, (h.body.1 as usize).min(text.len()));
                let body = text.get(s.min(e)..e).unwrap_or_default();
                let part = if first_line {
                    match memchr::memchr(b'\n', body) {
                        Some(nl) if !body[..nl].ends_with(b"\\") => &body[..nl],
                        _ => body,
                    }
                } else {
                    body
                };
                (part.len() <= 4096).then_some(part)
            }
            _ => None,
        };
        Ok(match exact {
            Some(t) => Val::heredoc_text(t),
            None => Val::heredoc(bytes),
        })
    }

    /// The value of an expression now.
    fn eval(&self, e: &Expr) -> Result<Val, GaveUp> {
        self.spend(e.0.len() + 1)?;
        if self.unsolved {
            return Ok(Val::unknown());
        }
        let mut out = Val::default();
        for s in &e.0 {
            let v = match s {
                Src::Val(v) if self.zsh_bases && v.fixed == Some(super::value::NUMBER) => {
                    let mut w = v.clone();
                    w.fixed = Some(super::value::NUMBER.union(ByteSet::of(
                        b"#_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    )));
                    w
                }
                // (A known value is joined where it stands, not copied first.)
                Src::Val(v) => {
                    out.join(v);
                    continue;
                }
                Src::Var(v) => self.read_val(*v),
                Src::AnyVar => {
                    let mut v = self.all.clone();
                    v.join(&self.any);
                    v.join(&Val::env());
                    v
                }
                Src::Named(inner) => {
                    let names = self.eval(inner)?;
                    let mut v = Val::default();
                    // A fixed name and a name read exactly from a heredoc alike.
                    for l in names.lits.iter().chain(names.htexts.iter()) {
                        let (base, _) = super::builtins::split_subscript(l);
                        let base = kept_as(base);
                        match self.facts.names.get(base) {
                            Some(x) => v.join(&self.var_val(x)),
                            None => v.join(&self.default_named(base)),
                        }
                    }
                    if names.fixed.is_some()
                        || names.heredoc.is_some()
                        || names.env
                        || names.unknown
                    {
                        v.join(&self.all);
                        v.join(&self.any);
                        v.join(&Val::env());
                    }
                    v
                }
                Src::Keys(x) => {
                    // bash's and zsh's own associative arrays hold names the command may
                    // have given them (`hash -p`, `alias`, functions).
                    let own = matches!(
                        self.facts.names.name(*x),
                        b"BASH_CMDS"
                            | b"BASH_ALIASES"
                            | b"aliases"
                            | b"galiases"
                            | b"saliases"
                            | b"commands"
                            | b"functions"
                            | b"builtins"
                            | b"parameters"
                            | b"options"
                            | b"nameddirs"
                            | b"userdirs"
                            | b"dis_functions"
                            | b"dis_aliases"
                            | b"reswords"
                            | b"modules"
                            | b"history"
                            | b"historywords"
                            | b"jobtexts"
                            | b"jobdirs"
                            | b"jobstates"
                            | b"widgets"
                            | b"zsh_scheduled_events"
                    );
                    let c = self.canon(*x);
                    // Keys given through a name computed at run time, or computed keys.
                    let any_key = !self.facts.computed_refs.is_empty()
                        || self.facts.any_nameref.is_some()
                        || self.assigns_any_name()
                        || self.facts.computed_keys.iter().any(|&k| self.canon(k) == c);
                    if own || (self.assoc.contains(&c) && any_key) {
                        Val::unknown()
                    } else if self.assoc.contains(&c) || self.d.is_zsh() {
                        // The literal keys it is given, or an indexed array's numbers.
                        let mut v = Val::number();
                        for (k, t) in &self.facts.literal_keys {
                            if self.canon(*k) == c {
                                v.join(&Val::lit(t));
                            }
                        }
                        v
                    } else {
                        Val::number()
                    }
                }
                Src::Subst(at) => match self.substs.get(at) {
                    Some(v) => v.trim_newlines(),
                    None => Val::default(),
                },
                Src::Body {
                    heredoc,
                    first_line,
                } => self.body_val(*heredoc, *first_line)?,
                Src::Glue(parts) => {
                    let mut acc: Option<Val> = None;
                    for p in parts {
                        let v = self.eval(p)?;
                        acc = Some(match acc {
                            None => v,
                            Some(a) => a.glue(&v),
                        });
                    }
                    acc.unwrap_or_default()
                }
                Src::Part(inner, extra) => self.eval(inner)?.part(*extra),
                Src::Sub(inner) => self.eval(inner)?.substring(),
                Src::Wild(inner) => self.eval(inner)?.wild(),
                Src::Escaped(inner) => self.eval(inner)?.escaped(),
                Src::ProgramQuoted(inner) => self.eval(inner)?.program_quoted(),
                Src::Repeated(inner) => {
                    let v = self.eval(inner)?;
                    // (Each of its rounds glues the texts kept to the value's, copying their
                    // bytes: charged for the rounds it took, at most `MAX_REPEAT_ROUNDS`.)
                    let bytes: usize = v.lits.iter().map(|l| l.len()).sum();
                    let (out, rounds) = v.repeated();
                    self.spend(
                        rounds * (v.lits.len() + 1) * (bytes / crate::shell::BYTES_PER_WORK + 1),
                    )?;
                    out
                }
                Src::SourceCopies(value) => copied(&self.eval(value)?),
                Src::EvalAssigns(value, name) | Src::RunCopies(value, name) => {
                    let runs = match name {
                        Some((n, gate)) => self.may_be(n, *gate)?,
                        None => true,
                    };
                    if runs {
                        copied(&self.eval(value)?)
                    } else {
                        Val::default()
                    }
                }
                Src::Cased(inner) => cased(&self.eval(inner)?),
                // (Where the name may run another program: any text, and what the model
                // knew of the words, which stay the command's own text.)
                Src::Modelled(inner) => {
                    let mut v = self.eval(inner)?;
                    if super::rebinds_programs(self.facts) {
                        v.join(&Val::unknown());
                    }
                    v
                }
                Src::ZshArith(pasted, opens) => {
                    // (As text: a zsh number's own letters, `16#FF`, hold no `[`, and
                    // start with no `#`.)
                    let text_holds = |v: &Val, c: u8| {
                        v.lits.iter().chain(&v.htexts).any(|l| l.contains(&c))
                            || [v.fixed, v.heredoc].iter().flatten().any(|b| b.has(c))
                    };
                    if text_holds(&self.eval(pasted)?, b'[') || text_holds(&self.eval(opens)?, b'#')
                    {
                        Val::fixed(super::value::ZSH_BASED_OUTPUT)
                    } else {
                        Val::zsh_number()
                    }
                }
                Src::Files { inner, option } => {
                    let v = self.eval(inner)?;
                    let may = |t: &[u8]| {
                        if *option {
                            t.first() == Some(&b'-')
                        } else {
                            t.iter().any(|c| matches!(c, b'*' | b'?' | b'['))
                        }
                    };
                    let bytes: &[u8] = if *option { b"-" } else { b"*?[" };
                    if v.lits.iter().chain(&v.htexts).any(|t| may(t))
                        || [v.heredoc, v.fixed]
                            .into_iter()
                            .flatten()
                            .any(|b| bytes.iter().any(|&c| b.has(c)))
                    {
                        Val::unknown()
                    } else {
                        Val::default()
                    }
                }
                Src::Head(a) => self.head(*a)?,
                Src::Field { inner, index, last } => {
                    let v = self.eval(inner)?;
                    self.fields(&v, *index, *last)?
                }
            };
            out.join(&v);
        }
        Ok(out)
    }

    /// The fixed point of every assignment and substitution.
    pub fn solve(&mut self) -> Result<(), GaveUp> {
        // Facts: the assignments, the positional parameters of calls, the substitutions.
        enum F<'e> {
            Assign(Target, &'e Expr),
            Subst(u32, &'e Expr),
        }
        // A call of a function the command defines (or of a command named at run time,
        // which may be any) gives it its arguments and its input.
        let mut calls: Vec<(Target, &Expr)> = Vec::new();
        let functions: HashSet<&[u8]> = self.facts.functions.iter().map(|f| &f[..]).collect();
        // (zsh expands a definition's name, `=cat() { … }` is `/usr/bin/cat`'s, and a
        // command-not-found handler runs with any command's words: any call may be a call
        // of such a function.)
        let zsh = self.d.is_zsh();
        let expanded: Vec<&[u8]> = functions
            .iter()
            .copied()
            .filter(|f| super::builtins::runs_for_any_call(zsh, f))
            .collect();
        if !functions.is_empty() {
            let at = self.facts.names.get(b"@");
            // (A zsh command of redirections alone runs `$NULLCMD`: `cat`, unless the
            // command may set it, by name or by a name computed at run time.)
            let null_command: &[u8] = if self
                .text
                .is_none_or(|t| crate::search::find(t, b"NULLCMD").is_some())
                || self
                    .facts
                    .assigns
                    .iter()
                    .any(|(t, _, _)| matches!(t, Target::Any))
            {
                b""
            } else {
                b"cat"
            };
            for (k, (name, args, stdin)) in self.facts.calls.iter().enumerate() {
                let name: &[u8] = if &name[..] == super::facts::NULL_COMMAND {
                    null_command
                } else {
                    name
                };
                // (zsh's `functions -c f g`: a call of `g` runs `f`.)
                let copied = self.copied_from(name)?;
                // (Those whose name may be the call's.)
                let expanded: Vec<&[u8]> = expanded
                    .iter()
                    .copied()
                    .filter(|f| super::builtins::runs_for_call(zsh, f, name))
                    .collect();
                if !name.is_empty()
                    && !functions.contains(name)
                    && expanded.is_empty()
                    && copied.is_empty()
                {
                    continue;
                }
                if let Some(at) = at {
                    calls.push((Target::Var(at), args));
                }
                // (A call recorded without its first argument: every argument.)
                let e = self.facts.call_first.get(k).unwrap_or(args);
                for f in std::iter::once(name)
                    .chain(expanded.iter().copied())
                    .chain(copied.iter().copied())
                {
                    if let Some(v) = self.facts.names.get(&super::walk::function_first(f)) {
                        calls.push((Target::Var(v), e));
                    }
                    if let Some(s) = self.facts.names.get(&super::walk::function_stdin(f)) {
                        calls.push((Target::Var(s), stdin));
                    }
                }
            }
        }
        let mut facts: Vec<F<'_>> = Vec::new();
        for (t, e, at) in &self.facts.assigns {
            if self.skip_eval_assigns && self.evals_own(t, e, *at) {
                continue;
            }
            facts.push(F::Assign(*t, e));
        }
        for &(t, e) in &calls {
            facts.push(F::Assign(t, e));
        }
        for (at, e) in &self.facts.substs {
            facts.push(F::Subst(*at, e));
        }
        // Dependencies: which facts read a variable, a substitution, or every variable.
        let mut by_var: HashMap<Var, Vec<usize>> = HashMap::default();
        let mut by_subst: HashMap<u32, Vec<usize>> = HashMap::default();
        let mut by_all: Vec<usize> = Vec::new();
        // Fields read IFS, which changes when it is assigned or any name computed at run
        // time may be it.
        let ifs = self.facts.names.get(b"IFS").map(|v| self.canon(v));
        let mut by_any: Vec<usize> = Vec::new();
        for (k, f) in facts.iter().enumerate() {
            let e = match f {
                F::Assign(_, e) | F::Subst(_, e) => e,
            };
            let mut reads = Reads::default();
            reads.of(e);
            if reads.fields {
                if let Some(ifs) = ifs {
                    by_var.entry(ifs).or_default().push(k);
                }
                by_any.push(k);
            }
            for v in reads.vars {
                by_var.entry(self.canon(v)).or_default().push(k);
            }
            for s in reads.substs {
                by_subst.entry(s).or_default().push(k);
            }
            if reads.all {
                by_all.push(k);
            }
        }
        for t in self
            .facts
            .assigns
            .iter()
            .map(|(t, _, _)| t)
            .chain(calls.iter().map(|(t, _)| t))
        {
            if let Target::Var(v) = t {
                let c = self.canon(*v) as usize;
                if let Some(a) = self.assigned.get_mut(c) {
                    *a = true;
                }
            }
        }
        if let Some(at) = self.facts.names.get(b"@") {
            let c = self.canon(at) as usize;
            if self.assigned.get(c).copied().unwrap_or(false)
                && let Some(v) = self.vals.get_mut(c)
            {
                // The script's own arguments too.
                v.join(&Val::env());
            }
        }
        let mut queued = vec![true; facts.len()];
        let mut work: std::collections::VecDeque<usize> = (0..facts.len()).collect();
        while let Some(k) = work.pop_front() {
            queued[k] = false;
            let (changed_var, changed_subst) = match &facts[k] {
                F::Assign(t, e) => {
                    let v = self.eval(e)?;
                    match t {
                        Target::Var(x) => {
                            let c = self.canon(*x);
                            let Some(slot) = self.vals.get_mut(c as usize) else {
                                continue;
                            };
                            if slot.join_changed(&v) {
                                // (Every variable's: not the judge's own names, which no
                                // shell can name.)
                                if self.facts.names.name(c).first() != Some(&0)
                                    && let Some(joined) = self.vals.get(c as usize)
                                {
                                    self.all.join(joined);
                                }
                                (Some(Some(c)), None)
                            } else {
                                (None, None)
                            }
                        }
                        Target::Any => {
                            if self.any.join_changed(&v) {
                                (Some(None), None)
                            } else {
                                (None, None)
                            }
                        }
                    }
                }
                F::Subst(at, e) => {
                    let v = self.eval(e)?;
                    let slot = self.substs.entry(*at).or_default();
                    if slot.join_changed(&v) {
                        (None, Some(*at))
                    } else {
                        (None, None)
                    }
                }
            };
            let mut push = |list: &[usize], work: &mut std::collections::VecDeque<usize>| {
                for &j in list {
                    if !queued[j] {
                        queued[j] = true;
                        work.push_back(j);
                    }
                }
            };
            match changed_var {
                // One variable changed: what reads it, and what reads every variable.
                Some(Some(c)) => {
                    if let Some(list) = by_var.get(&c) {
                        push(list, &mut work);
                    }
                    push(&by_all, &mut work);
                }
                // What any variable may hold changed: everything that reads a variable.
                Some(None) => {
                    for list in by_var.values() {
                        push(list, &mut work);
                    }
                    push(&by_all, &mut work);
                    push(&by_any, &mut work);
                }
                None => {}
            }
            if let Some(at) = changed_subst
                && let Some(list) = by_subst.get(&at)
            {
                push(list, &mut work);
            }
        }
        self.solved = true;
        Ok(())
    }

    /// The variables that arithmetic would run heredoc text from: those whose value is
    /// dangerous by itself, then those that name one, until nothing changes.
    fn dangerous_fixed_point(&mut self) -> Result<(), GaveUp> {
        // From here on the set grows to the fixed point; each step reads it as it stands.
        self.dangerous_known = true;
        let n = self.facts.names.len() as Var;
        let candidates: Vec<Var> = (0..n).filter(|&v| self.canon(v) == v).collect();
        loop {
            let mut grew = false;
            if !self.any_dangerous {
                self.spend(4)?;
                let any = self.any.clone();
                if evaluators::dangerous(Evaluator::Arithmetic, &any, self, false) {
                    self.any_dangerous = true;
                    grew = true;
                }
            }
            for &v in &candidates {
                if self.arith_dangerous.contains(&v) {
                    continue;
                }
                self.spend(4)?;
                let val = self.var_val(v);
                if evaluators::dangerous(Evaluator::Arithmetic, &val, self, false) {
                    self.arith_dangerous.insert(v);
                    grew = true;
                }
            }
            if !grew {
                return Ok(());
            }
        }
    }

    /// Judges every site (when the reading holds heredoc text) and every change.
    pub fn judge(&mut self, heredocs: bool) -> Result<Vec<Found>, GaveUp> {
        // The evaluators consult which variables are dangerous: computed where one is
        // judged (a command of plain words and heredocs judges none, and a 2 KB message
        // would be read as arithmetic for nothing). An evaluator judged without it sees
        // every variable as dangerous.
        let judges_evaluators = heredocs
            && (!self.facts.sites.is_empty()
                || !self.facts.integers.is_empty()
                || self.facts.any_integer.is_some()
                || self.facts.any_nameref.is_some()
                || self.facts.xtrace.is_some());
        // (An integer variable of the shell tied to another name: `judge_changes`.)
        let judges_tied_integers = !self.facts.same.is_empty() && self.heredocs_present() && {
            let zsh = self.d.is_zsh();
            let mut class_sizes: HashMap<Var, usize> = HashMap::default();
            for v in 0..self.facts.names.len() as Var {
                *class_sizes.entry(self.canon(v)).or_default() += 1;
            }
            (0..self.facts.names.len() as Var).any(|v| {
                super::builtins::integer_on_append(self.facts.names.name(v), zsh)
                    && class_sizes.get(&self.canon(v)).is_some_and(|&n| n > 1)
            })
        };
        if judges_evaluators || judges_tied_integers {
            self.dangerous_fixed_point()?;
        }
        let mut found = Vec::new();
        if heredocs {
            self.judge_sites(&mut found)?;
        }
        self.judge_literal_heredocs(&mut found)?;
        self.evaluated_reads = self.read_by_evaluators()?;
        self.judge_changes(&mut found)?;
        Ok(found)
    }

    /// Text the command fixes that a hidden evaluator expands (a prompt, a subscript, a
    /// word list, an integer's value), holding a heredoc operator in a substitution: the
    /// shell reads that heredoc only when the evaluator runs the substitution, which no
    /// reading sees (`x='PATH[$(cat <<E …)]'; echo $((x))`, `compgen -W '$(cat <<E …)'`,
    /// round 102). Judged on every site, heredoc at the command's top level or not: the
    /// value's texts known exactly, as written and as a prompt decodes them (pieces glued,
    /// `$'\x3c'`), and the values of the names arithmetic evaluates (`y=x; echo $((y))`).
    fn judge_literal_heredocs(&self, found: &mut Vec<Found>) -> Result<(), GaveUp> {
        // (Where the command's text may spell a heredoc operator once decoded: `<<`, or
        // an escape that may make a `<`.)
        let spelled = self.text.is_none_or(|t| {
            crate::search::find(t, b"<<").is_some()
                || (t.contains(&b'<') && t.contains(&b'\\'))
                || t.iter().filter(|&&c| c == b'<').nth(1).is_some()
        });
        if self.unsolved
            || !spelled
            || (self.facts.sites.is_empty()
                && self.facts.integers.is_empty()
                && self.facts.xtrace.is_none())
        {
            return Ok(());
        }
        let mut push = |at: u32, evaluator: Evaluator, what: &'static str| {
            found.push(Found::Evaluation {
                at,
                evaluator,
                what,
                unknown: false,
                in_body: None,
            });
        };
        for s in &self.facts.sites {
            self.spend(8)?;
            if !self.site_runs(s)? {
                continue;
            }
            let names = matches!(
                s.evaluator,
                Evaluator::Arithmetic | Evaluator::Subscript | Evaluator::Name
            );
            if self.holds_heredoc_text(&self.eval(&s.value)?, names, &mut Vec::new())? {
                push(s.at, s.evaluator, s.what);
            }
        }
        for &(v, at) in &self.facts.integers {
            self.spend(8)?;
            if self.holds_heredoc_text(&self.var_val(v), true, &mut Vec::new())? {
                push(at, Evaluator::Arithmetic, "an integer variable");
            }
        }
        if let Some(at) = self.facts.xtrace
            && (!self.d.is_zsh() || self.facts.prompt_subst)
            && self.holds_heredoc_text(&self.ps4(), false, &mut Vec::new())?
        {
            push(at, Evaluator::Prompt, "PS4 under set -x");
        }
        Ok(())
    }

    /// Whether a value may hold a heredoc in a substitution ([`Solver::judge_literal_heredocs`]),
    /// its texts known exactly (as written, and as a prompt decodes them) or (`names`:
    /// evaluated as arithmetic) through the names they evaluate, each name once.
    fn holds_heredoc_text(
        &self,
        v: &Val,
        names: bool,
        seen: &mut Vec<Var>,
    ) -> Result<bool, GaveUp> {
        for l in v.lits.iter().chain(&v.htexts) {
            self.spend(l.len() / 64 + 1)?;
            if heredoc_in_substitution(l)
                || (l.contains(&b'\\')
                    && heredoc_in_substitution(&super::evaluators::prompt_decoded(l)))
            {
                return Ok(true);
            }
            if names {
                for n in self.arith_refs(l).names {
                    let Some(x) = self.facts.names.get(kept_as(&n)) else {
                        continue;
                    };
                    let c = self.canon(x);
                    if seen.contains(&c) {
                        continue;
                    }
                    if seen.len() >= 64 {
                        // (Past that many names: as if one held it.)
                        return Ok(true);
                    }
                    seen.push(c);
                    if self.holds_heredoc_text(&self.var_val(x), true, seen)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// Whether an evaluator may assign a variable through its value (`n='IFS=1'; $((n))`,
    /// a prompt's `${x:=…}`): a value that may hold `=`, or run-time text.
    pub fn sites_may_assign(&self) -> Result<bool, GaveUp> {
        let assigns = |v: &Val| v.unknown || v.bytes().has(b'=');
        for s in &self.facts.sites {
            self.spend(8)?;
            if assigns(&self.eval(&s.value)?) {
                return Ok(true);
            }
        }
        Ok(self
            .facts
            .integers
            .iter()
            .any(|&(v, _)| assigns(&self.var_val(v))))
    }

    /// Whether a site's evaluator runs, as far as the judge knows: the option or the
    /// array it needs, the builtin it may be.
    fn site_runs(&self, s: &super::facts::Site) -> Result<bool, GaveUp> {
        Ok(match s.needs {
            Some(Needs::PromptSubst) => self.facts.prompt_subst,
            Some(Needs::GlobSubst) => self.facts.glob_subst,
            Some(Needs::Array(v)) => self.is_array(v),
            Some(Needs::Builtin(k)) => {
                let run = self.facts.unread_runs.get(k);
                let call_of = run.and_then(|r| r.call_of.as_ref());
                let copied = match call_of {
                    Some(f) => self.copied_from(f)?,
                    None => Vec::new(),
                };
                if let Some(f) = call_of
                    && !self.facts.positional_runners.iter().any(|r| {
                        r == f
                            || super::builtins::runs_for_call(self.d.is_zsh(), r, f)
                            || copied.iter().any(|c| c.is_empty() || *c == &r[..])
                    })
                {
                    // (A call of a function that does not run its arguments.)
                    return Ok(false);
                }
                match run.and_then(|r| r.name.as_ref()) {
                    Some(n) => self.may_be(n, super::builtins::Gate::Evaluates)?,
                    None => true,
                }
            }
            _ => true,
        })
    }

    /// The hidden evaluators, each on its value.
    fn judge_sites(&self, found: &mut Vec<Found>) -> Result<(), GaveUp> {
        let zsh = self.d.is_zsh();
        for s in &self.facts.sites {
            if !self.site_runs(s)? {
                continue;
            }
            // (A subscript of an array declared associative is evaluated all the same: bash
            // 3.2 has no associative arrays, and where the declaration holds is not
            // followed: a function never called, a branch, a subshell, `unset`.)
            let v = self.eval(&s.value)?;
            if s.needs == Some(Needs::ListValue) && !may_start_with_paren(&v) {
                continue;
            }
            self.judge_site(s, &v, found)?;
        }
        // Attributes: every value an integer variable is given is arithmetic.
        for &(v, at) in &self.facts.integers {
            let val = self.var_val(v);
            if evaluators::dangerous(Evaluator::Arithmetic, &val, self, false) {
                found.push(Found::Evaluation {
                    at,
                    evaluator: Evaluator::Arithmetic,
                    what: "an integer variable",
                    unknown: val.unknown,
                    in_body: None,
                });
            }
        }
        // Every variable's value, joined: only where an attribute on a computed name needs
        // it.
        let every = if self.facts.any_integer.is_some() || self.facts.any_nameref.is_some() {
            self.every()
        } else {
            Val::default()
        };
        if let Some(at) = self.facts.any_integer
            && evaluators::dangerous(Evaluator::Arithmetic, &every, self, false)
        {
            found.push(Found::Evaluation {
                at,
                evaluator: Evaluator::Arithmetic,
                what: "the integer attribute on a name computed at run time",
                unknown: every.unknown,
                in_body: None,
            });
        }
        if let Some(at) = self.facts.any_nameref
            && evaluators::dangerous(Evaluator::Name, &every, self, false)
        {
            found.push(Found::Evaluation {
                at,
                evaluator: Evaluator::Name,
                what: "the nameref attribute on a name computed at run time",
                unknown: every.unknown,
                in_body: None,
            });
        }
        if let Some(at) = self.facts.xtrace
            && (!zsh || self.facts.prompt_subst)
        {
            found.extend(self.ps4_found(at, "PS4 under set -x"));
        }
        for u in &self.facts.unread {
            found.push(Found::Unread {
                at: u.at,
                in_body: u.in_body,
                what: u.what,
            });
        }
        Ok(())
    }

    /// A site judged on its value: a finding where the value is dangerous there.
    fn judge_site(
        &self,
        s: &super::facts::Site,
        v: &Val,
        found: &mut Vec<Found>,
    ) -> Result<(), GaveUp> {
        self.spend(8)?;
        if evaluators::dangerous(s.evaluator, v, self, s.in_body.is_some()) {
            found.push(Found::Evaluation {
                at: s.at,
                evaluator: s.evaluator,
                what: s.what,
                unknown: v.unknown,
                in_body: s.in_body,
            });
        }
        Ok(())
    }

    /// What `set -x` at `at` (`what`) runs of PS4 as a prompt, when it may run heredoc
    /// text.
    fn ps4_found(&self, at: u32, what: &'static str) -> Option<Found> {
        let v = self.ps4();
        evaluators::dangerous(Evaluator::Prompt, &v, self, false).then_some(Found::Evaluation {
            at,
            evaluator: Evaluator::Prompt,
            what,
            unknown: v.unknown,
            in_body: None,
        })
    }

    /// PS4's value (never named: what a name computed at run time may give it, `eval`
    /// too).
    fn ps4(&self) -> Val {
        match self.facts.names.get(b"PS4") {
            Some(ps4) => self.var_val(ps4),
            None => {
                let mut v = self.default_named(b"PS4");
                v.join(&self.any);
                v
            }
        }
    }

    /// An assignment that `eval` of computed text makes itself: what its text may assign
    /// any variable, and the `$_` it leaves (its own text).
    fn evals_own(&self, t: &Target, e: &Expr, at: u32) -> bool {
        match t {
            Target::Any => e.0.iter().all(|s| matches!(s, Src::EvalAssigns(..))),
            // (An `eval`'s own: its text. A command named at run time's last word counts,
            // it may be heredoc text given to `echo`.)
            Target::Var(v) => {
                self.facts.names.name(*v) == b"_"
                    && self
                        .eval_runs_at
                        .get_or_init(|| {
                            self.facts
                                .unread_runs
                                .iter()
                                .filter(|r| r.name.is_none())
                                .map(|r| r.command_at)
                                .collect()
                        })
                        .contains(&at)
            }
        }
    }

    /// Whether the name a command named at run time has may be a builtin that does what
    /// `gate` says ([`super::builtins::may_be`]; any part of it where the text names `IFS`).
    fn may_be(&self, name: &Expr, gate: super::builtins::Gate) -> Result<bool, GaveUp> {
        let v = self.eval(name)?;
        let any_split = *self.ifs_named.get_or_init(|| {
            self.text
                .is_none_or(|t| crate::search::find(t, b"IFS").is_some())
        });
        Ok(super::builtins::may_be(
            &v,
            gate,
            self.d.is_zsh(),
            any_split,
        ))
    }

    /// An array's first element ([`Src::Head`]): the plain first words of the lists it is
    /// given where every assignment to it is one, with what names computed at run time may
    /// give it; else its whole value.
    fn head(&self, a: Var) -> Result<Val, GaveUp> {
        self.spend(self.facts.assigns.len() / 16 + self.facts.array_heads.len() + 1)?;
        let c = self.canon(a);
        let heads: Vec<&(Var, usize, Rc<[u8]>)> = self
            .facts
            .array_heads
            .iter()
            .filter(|(x, _, _)| self.canon(*x) == c)
            .collect();
        // (`unset 'a[0]'` and zsh's `shift a` move another element first.)
        let moved = *self.heads_moved.get_or_init(|| {
            self.text.is_none_or(|t| {
                crate::search::find(t, b"unset").is_some()
                    || crate::search::find(t, b"shift").is_some()
            })
        });
        let only_lists = !heads.is_empty()
            && !moved
            && !self.computed_refs.contains(&c)
            && self
                .facts
                .assigns
                .iter()
                .enumerate()
                .filter(|(_, (t, _, _))| matches!(t, Target::Var(x) if self.canon(*x) == c))
                .all(|(k, _)| heads.iter().any(|(_, i, _)| *i == k));
        if !only_lists {
            return Ok(self.read_val(a));
        }
        let mut v = self.any.clone();
        for (_, _, h) in heads {
            v.join(&Val::lit(h));
        }
        if self.facts.any_case || self.case_changed.contains(&c) {
            v = cased(&v);
        }
        Ok(v)
    }

    /// Whether the command may assign a name computed at run time: a `Target::Any`
    /// assignment, but a command named at run time's only where its name may be a builtin
    /// that assigns.
    fn assigns_any_name(&self) -> bool {
        if !self.solved {
            // (While the values grow, a name's is not known yet.)
            return self.facts.assigns.iter().any(|(t, _, _)| *t == Target::Any);
        }
        if let Some(&known) = self.any_name_assigned.get() {
            return known;
        }
        if self.any_name_computing.replace(true) {
            // (Asked again while a name is evaluated for it, `${!m[@]}` as a command's
            // name: as if so.)
            return true;
        }
        let any = self.facts.assigns.iter().any(|(t, e, _)| {
            *t == Target::Any
                && !e.0.iter().all(|s| match s {
                    Src::EvalAssigns(_, Some((name, gate)))
                    | Src::RunCopies(_, Some((name, gate))) => {
                        self.may_be(name, *gate).is_ok_and(|may| !may)
                    }
                    // (A sourced file that copies no heredoc text names its own.)
                    Src::SourceCopies(value) => self.eval(value).is_ok_and(|v| !v.has_heredoc()),
                    _ => false,
                })
        });
        self.any_name_computing.set(false);
        *self.any_name_assigned.get_or_init(|| any)
    }

    /// Where an assignment to a name computed at run time may write zsh's `options`
    /// table (any option, PROMPT_SUBST among them): a name whose exact text is `options`
    /// before any subscript, or (where the reading holds a heredoc) whose bytes may spell
    /// it, or that a program's output or other run-time text gives. (The environment's own
    /// text is the user's.)
    pub fn may_write_options(&self) -> Result<Option<u32>, GaveUp> {
        for c in &self.facts.changes {
            let When::AliasEntry { name, .. } = &c.when else {
                continue;
            };
            self.spend(4)?;
            let v = self.eval(name)?;
            let exact = v
                .lits
                .iter()
                .chain(&v.htexts)
                .any(|l| l.split(|&c| c == b'[').next().unwrap_or_default() == b"options");
            let spelled = [v.heredoc, v.fixed]
                .into_iter()
                .flatten()
                .any(|b| b.holds_all(b"options"));
            // (Text known only by its bytes, or not at all, counts where the reading holds
            // heredoc text for an option to hand to an evaluator: `export "$_key"=` in a
            // script without one changes nothing the guard judges.)
            if exact || (self.holds_heredoc && (spelled || v.unknown)) {
                return Ok(Some(c.at));
            }
        }
        Ok(None)
    }

    /// The runs of text the guard does not read that may leave attributes or options
    /// ([`Facts::unread_runs`]): every `eval`, and each command named at run time whose
    /// name may be a builtin that sets them (text the command fixes or heredoc text that
    /// may spell one; a program's output or the environment's text run as a name is
    /// explicit, `$PYTHON -`).
    pub fn runs_leaving_attrs(&self) -> Result<Vec<usize>, GaveUp> {
        self.runs_that_may(super::builtins::Gate::Attrs, usize::MAX)
    }

    /// Whether text the guard does not read may source a file: `eval` of computed text, or
    /// a command named at run time whose name may be `.` or `source`. A function such a
    /// file defines may run in place of any name ([`super::walk::Walk::sources_files`]).
    pub fn unread_may_source(&self) -> Result<bool, GaveUp> {
        Ok(!self
            .runs_that_may(super::builtins::Gate::Sources, 1)?
            .is_empty())
    }

    /// The runs of text the guard does not read ([`Facts::unread_runs`]) that may do what
    /// `gate` says, up to `most` of them: every `eval`, and each command named at run time
    /// whose name may be such a builtin. Not a wrapper's call: its function's `"$@"` is a
    /// run of its own, and what it leaves is that run's.
    fn runs_that_may(
        &self,
        gate: super::builtins::Gate,
        most: usize,
    ) -> Result<Vec<usize>, GaveUp> {
        let mut out = Vec::new();
        for (k, r) in self.facts.unread_runs.iter().enumerate() {
            if out.len() >= most {
                break;
            }
            if r.call_of.is_some() {
                continue;
            }
            let may = match &r.name {
                None => true,
                Some(name) => self.may_be(name, gate)?,
            };
            if may {
                out.push(k);
            }
        }
        Ok(out)
    }

    /// Every variable's value, joined (the defaults of those never assigned too).
    fn every(&self) -> Val {
        if self.unsolved {
            return Val::unknown();
        }
        let mut every = self.all.clone();
        every.join(&self.any);
        for v in 0..self.facts.names.len() as Var {
            if self.canon(v) == v && !self.assigned.get(v as usize).copied().unwrap_or(false) {
                every.join(&self.default(v));
            }
        }
        every
    }

    /// What `eval` of computed text at `at` may leave for the command's later lines: the
    /// integer or nameref attribute on any name, `set -x` with PS4 (see
    /// [`Facts::eval_attrs`]). Judged on a solver that leaves out what such `eval` text
    /// itself assigns ([`Solver::skip_eval_assigns`]): that text is explicit.
    pub fn judge_eval_attrs(&mut self, runs: &[usize]) -> Result<Vec<Found>, GaveUp> {
        let runs: Vec<&super::facts::UnreadRun> = runs
            .iter()
            .filter_map(|&k| self.facts.unread_runs.get(k))
            .collect();
        let Some(first) = runs.first() else {
            return Ok(Vec::new());
        };
        let at = first.at;
        let index = runs.iter().map(|r| r.index).min().unwrap_or(0);
        let from = runs.iter().map(|r| r.from).min().unwrap_or(0);
        let from_site = runs.iter().map(|r| r.from_site).min().unwrap_or(0);
        self.dangerous_fixed_point()?;
        let zsh = self.d.is_zsh();
        let mut found = Vec::new();
        // (Leaving out the variables whose whole values are every such text: `eval "$v"`.)
        let explicit: HashSet<Var> = first
            .explicit
            .iter()
            .filter(|v| runs.iter().all(|r| r.explicit.contains(v)))
            .map(|&v| self.canon(v))
            .collect();
        // The integer attribute evaluates the values assigned after it is given; a nameref
        // takes as its target the value its name holds when it is given (later values go
        // to the target).
        let last = runs.iter().map(|r| r.index).max().unwrap_or(0);
        let (mut later, mut earlier) = (Val::default(), Val::default());
        for (k, (t, e, at)) in self.facts.assigns.iter().enumerate() {
            let deferred = self.facts.assign_deferred.get(k).copied().unwrap_or(true);
            let runs_later = k >= from || deferred;
            let runs_earlier = k < last || from == 0 || deferred;
            let counts = |after: bool| match t {
                Target::Any => true,
                Target::Var(v) => {
                    let c = self.canon(*v);
                    // (A variable whose value is the text, given a value after it.)
                    (!explicit.contains(&c) || (after && k >= index))
                        && self.facts.names.name(c).first() != Some(&0)
                }
            };
            if (runs_later && counts(true)) || (runs_earlier && counts(false)) {
                if self.evals_own(t, e, *at) {
                    continue;
                }
                let v = self.eval(e)?;
                if runs_later && counts(true) {
                    later.join(&v);
                }
                if runs_earlier && counts(false) {
                    earlier.join(&v);
                }
            }
        }
        let every = earlier;
        self.spend(16)?;
        let mut attrs = vec![(
            Evaluator::Arithmetic,
            "the integer attribute that text the guard cannot read (eval of computed text, a command named at run time) may give any name",
            &later,
        )];
        if !zsh {
            attrs.push((
                Evaluator::Name,
                "the nameref attribute that text the guard cannot read (eval of computed text, a command named at run time) may give any name",
                &every,
            ));
        }
        for (e, what, every) in attrs {
            if evaluators::dangerous(e, every, self, false) {
                found.push(Found::Evaluation {
                    at,
                    evaluator: e,
                    what,
                    unknown: every.unknown,
                    in_body: None,
                });
            }
        }
        if zsh {
            // zsh's PROMPT_SUBST and GLOB_SUBST, where nothing else may set them.
            for (k, s) in self.facts.sites.iter().enumerate() {
                if k < from_site && !s.later {
                    // (It runs before the option may be set.)
                    continue;
                }
                let judged = match s.needs {
                    Some(Needs::PromptSubst) => !self.facts.prompt_subst,
                    Some(Needs::GlobSubst) => !self.facts.glob_subst,
                    _ => false,
                };
                if !judged {
                    continue;
                }
                let v = self.eval(&s.value)?;
                self.judge_site(s, &v, &mut found)?;
            }
        }
        found.extend(self.ps4_found(
            at,
            "PS4 under the set -x that text the guard cannot read (eval of computed text, a command named at run time) may turn on",
        ));
        Ok(found)
    }

    /// The changes to how later text is read, each judged against the text after it.
    /// The command spells no heredoc operator (`<<`) anywhere, eval text included: only
    /// an alias it defines may make one.
    fn operator_free(&self) -> bool {
        self.heredocs.is_empty() && self.text.is_some_and(|t| !crate::check::spells_heredoc(t))
    }

    fn judge_changes(&self, found: &mut Vec<Found>) -> Result<(), GaveUp> {
        let zsh = self.d.is_zsh();
        // A special variable reached through a nameref or a tied name: its rule too.
        // (Only the special names can have one: they are found once, not per assignment.)
        let specials: Vec<(Var, &[u8])> = if self.facts.same.is_empty() {
            Vec::new()
        } else {
            self.facts
                .names
                .names
                .iter()
                .enumerate()
                .filter(|(_, name)| {
                    super::walk::special_change(name, zsh).is_some()
                        || super::builtins::integer_on_append(name, zsh)
                        || (!zsh && super::walk::locale_name(name))
                })
                .map(|(v, name)| (v as Var, &**name))
                .collect()
        };
        for (t, e, at) in &self.facts.assigns {
            let Target::Var(x) = t else { continue };
            let c = self.canon(*x);
            if c == *x && self.facts.same.is_empty() {
                continue;
            }
            for &(v, name) in &specials {
                if v == *x || self.canon(v) != c {
                    continue;
                }
                if let Some((what, reshapes)) = super::walk::special_change(name, zsh)
                    && (!reshapes || reshapes_text(&self.eval(e)?))
                    && (!self.operator_free() || self.eval(e)?.may_hold(b"<"))
                    && self.later_text(*at, 0, true, true)
                {
                    found.push(Found::Change { at: *at, what });
                }
                // A locale reached through a nameref (`declare -n r=LC_ALL; r=zh_CN.GBK`).
                if !zsh
                    && super::walk::locale_name(name)
                    && self.text.is_none_or(|t| !t.is_ascii())
                    && !self.operator_free()
                    && !super::walk::plain_locale_val(&self.eval(e)?)
                {
                    found.push(Found::Change {
                        at: *at,
                        what: super::walk::LOCALE_CHANGE,
                    });
                }
                // (Or appended to, which evaluates where assigning may not: not told apart.)
                if super::builtins::integer_on_append(name, zsh) && self.heredocs_present() {
                    let val = self.eval(e)?;
                    if evaluators::dangerous(Evaluator::Arithmetic, &val, self, false) {
                        found.push(Found::Evaluation {
                            at: *at,
                            evaluator: Evaluator::Arithmetic,
                            what: "an integer variable of the shell",
                            unknown: val.unknown,
                            in_body: None,
                        });
                    }
                }
            }
        }
        // A locale set through a name computed at run time (`declare "$n=…"`, `printf -v
        // "$n"`, `${!n:=…}`, a nameref to a computed name): the name may be `LC_ALL`
        // (round 62).
        if !zsh
            && self.text.is_none_or(|t| !t.is_ascii())
            && !self.operator_free()
            && self.assigns_any_name()
        {
            // (Not what `eval`, `.` or a command named at run time may assign: text run
            // explicitly, whose own changes are its author's.)
            let explicit = |e: &Expr| {
                e.0.iter().all(|s| {
                    matches!(
                        s,
                        Src::EvalAssigns(..) | Src::SourceCopies(_) | Src::RunCopies(..)
                    )
                })
            };
            for (t, e, at) in &self.facts.assigns {
                if *t == Target::Any
                    && !explicit(e)
                    && !super::walk::plain_locale_val(&self.eval(e)?)
                {
                    found.push(Found::Change {
                        at: *at,
                        what: super::walk::LOCALE_CHANGE,
                    });
                    break;
                }
            }
        }
        // An alias table (or zsh's functions table) given a key the command does not fix:
        // an alias named by heredoc text may rebind any later command (`echo` made
        // `eval`), whatever its value, where later text may hand it heredoc text.
        let tables = if zsh {
            super::ALIAS_TABLES_ZSH
        } else {
            super::ALIAS_TABLES_BASH
        };
        // (With no heredoc operator spelled there is no heredoc text to hand it.)
        let tables = if self.operator_free() {
            &[][..]
        } else {
            tables
        };
        for table in tables {
            let Some(t) = self.facts.names.get(table) else {
                continue;
            };
            let t = self.canon(t);
            // Its keys, given under its name or any name one with it (a nameref:
            // `declare -n r=BASH_ALIASES; r[$n]=…`).
            let named = self.facts.computed_keys.iter().any(|&k| self.canon(k) == t)
                || self.facts.names.names.iter().enumerate().any(|(k, name)| {
                    name.strip_prefix(b"\0keys ").is_some_and(|base| {
                        self.facts
                            .names
                            .get(base)
                            .is_some_and(|b| self.canon(b) == t)
                            && self.var_val(k as Var).has_heredoc()
                    })
                });
            if !named {
                continue;
            }
            let first = self
                .facts
                .assigns
                .iter()
                .find_map(|(target, _, at)| match target {
                    Target::Var(x) if self.canon(*x) == t => Some(*at),
                    _ => None,
                });
            // (A function is looked up when a command runs, not when text is read: zsh
            // reading the whole command first does not keep it from a later one, and the
            // function's own text, heredoc text, is what may run.)
            if let Some(at) = first
                && (table.ends_with(b"functions") || self.later_text(at, 0, true, true))
            {
                found.push(Found::Change {
                    at,
                    what: "an alias named by text the command does not fix, which may rebind any later command",
                });
            }
        }
        // Changes to how later text is read: denied when text is read after them. With no
        // heredoc operator spelled in the command (judged only where a reading is not inert:
        // `judge::inert`), only an alias that may make one counts: a value
        // that may hold a `<` (the shell's own `COMP_WORDBREAKS` holds one).
        let operator_free = self.operator_free();
        // (The shell's own defaults are known text: `COMP_WORDBREAKS`, zsh's `WORDCHARS`
        // and `patchars` hold a `<`, `default_named`.)
        let makes_lt = |v: &Val| v.may_hold(b"<");
        for c in &self.facts.changes {
            let applies = match &c.when {
                When::Always => !operator_free,
                When::MakesOperator(e) => {
                    operator_free && {
                        let v = self.eval(e)?;
                        v.may_hold(b"$`\\") && v.may_hold(b"<")
                    }
                }
                When::AnyValue(e) => !operator_free || makes_lt(&self.eval(e)?),
                When::Locale(e) => {
                    let v = self.eval(e)?;
                    (!operator_free || makes_lt(&v)) && !super::walk::plain_locale_val(&v)
                }
                When::Reshapes(e) => {
                    let v = self.eval(e)?;
                    reshapes_text(&v) && (!operator_free || makes_lt(&v))
                }
                // (Any later command may be rebound to an evaluator whose own words
                // become code: `echo p` made `let p`, `echo '$p'` made `eval '$p'`.)
                When::HeredocName(name) => !operator_free && self.eval(name)?.has_heredoc(),
                When::AliasEntry { name, value } => match special_named(&self.eval(name)?, zsh) {
                    None => false,
                    Some(reshapes) => {
                        let v = self.eval(value)?;
                        (!reshapes || reshapes_text(&v)) && (!operator_free || makes_lt(&v))
                    }
                },
                When::AliasWords(e) => {
                    let v = self.eval(e)?;
                    alias_words(&v) && (!operator_free || makes_lt(&v))
                }
                When::EvalAlias {
                    spelled,
                    other_first,
                    raw_operator,
                    text,
                } => {
                    let v = self.eval(text)?;
                    // A heredoc after it, or a heredoc operator the alias itself may hold
                    // (`eval "alias show='cat <<$d'"`: the lines after `show` are its body,
                    // unquoted where the operator's word is).
                    // (The command's own text: heredoc text run by `eval` is explicit.)
                    let makes_operator = *raw_operator
                        || v.lits
                            .iter()
                            .any(|l| crate::search::find(l, b"<<").is_some())
                        || v.fixed.is_some_and(|b| b.has(b'<'));
                    (makes_operator || self.heredocs.iter().any(|h| h.op > c.at))
                        && (*spelled || {
                            // Exact texts that hold `alias`, or bytes of the command's
                            // own text that can spell it. (Heredoc text run by `eval` is
                            // explicit, and so is what it defines.)
                            // (`ALIAS`: `BASH_ALIASES`.)
                            let spells = |b: Option<ByteSet>| {
                                b.is_some_and(|b| {
                                    b"alias".iter().all(|&c| b.has(c))
                                        || b"ALIAS".iter().all(|&c| b.has(c))
                                })
                            };
                            v.lits.iter().chain(&v.htexts).any(|l| {
                                crate::search::find(l, b"alias").is_some()
                                    || crate::search::find(l, b"ALIAS").is_some()
                            }) || (spells(v.fixed_bytes())
                                && (!*other_first
                                    || v.fixed_bytes()
                                        .is_some_and(|b| b"\n;&|".iter().any(|&c| b.has(c)))))
                        })
                }
            };
            // A locale holds for the text read after it and for every unquoted body
            // expanded after it, wherever the body stands: on the same line, in the command
            // the assignment is a prefix of (a builtin's or a function's, bash 4.4 on), in
            // a function defined before, in a loop run again (`中\$(…)` in GBK: the `\` is
            // the character's second byte). Wherever the text holds a byte past ASCII.
            let later = c.what == super::walk::LOCALE_CHANGE
                || match c.scope_end {
                    // In a subshell: text read again after it inside it, a function's, or (not
                    // in zsh, which reads the whole substitution before it runs any of it) a
                    // heredoc after it inside it.
                    Some(end) => {
                        (!zsh && self.heredocs.iter().any(|h| h.op > c.at && h.op < end))
                            || self.facts.rereads.iter().any(|&(r, _)| r > c.at && r < end)
                            || self.evaluated_reads.iter().any(|&r| r > c.at && r < end)
                            || self.facts.function_rereads
                    }
                    None => self.later_text(c.at, c.unit, c.later_units, false),
                };
            if applies && later {
                found.push(Found::Change {
                    at: c.at,
                    what: c.what,
                });
            }
        }
        self.judge_evaluator_assignments(found)
    }

    /// Text a hidden evaluator expands again may assign a variable (`${BASH_ALIASES[s]=…}`
    /// in a subscript a value gives arithmetic, in a prompt, in zsh's `(e)`), an alias
    /// table's entry too, from any text (the shell's `COMP_WORDBREAKS` holds a `<`): an
    /// alias the readings do not see, which may make the lines after it a heredoc's
    /// unquoted body. A change wherever text is read after it, heredoc operator spelled or
    /// not. (zsh reads a substitution's text when it runs it: an alias defined before
    /// reaches it.)
    fn judge_evaluator_assignments(&self, found: &mut Vec<Found>) -> Result<(), GaveUp> {
        const WHAT: &str = "text a hidden evaluator expands again, which may define an alias that makes a heredoc operator";
        let f = &self.facts;
        if f.sites.is_empty()
            && f.integers.is_empty()
            && f.any_integer.is_none()
            && f.any_nameref.is_none()
            && f.xtrace.is_none()
        {
            return Ok(());
        }
        // (A nameref may name an alias table: text that assigns through it needs no table's
        // name in its own bytes.)
        let elsewhere = f.has_nameref || f.any_nameref.is_some() || !f.computed_refs.is_empty();
        // The variables whose value, evaluated as arithmetic, may expand an assignment:
        // itself, or through the names it evaluates (a fixed point; inexact text may name
        // any).
        let n = f.names.len();
        let mut assigning = vec![false; n];
        let mut any = false;
        for (v, a) in assigning.iter_mut().enumerate() {
            self.spend(2)?;
            // (Seeded by what is known to assign: a text that may, by its bytes alone,
            // counts where it reaches an evaluator itself, not through every name.)
            let val = self.var_val(v as Var);
            if val.fixed_known_to_assign(elsewhere)
                && val.fixed_bytes().is_some_and(|b| b.has(b'['))
            {
                *a = true;
                any = true;
            }
        }
        // (Names read from texts known exactly: a text known by its bytes alone may spell
        // most names, `_` and `cat` among them, and would count most scripts.)
        let named = |val: &Val| -> Result<Vec<Var>, GaveUp> {
            let mut out = Vec::new();
            for t in val.lits.iter().chain(&val.htexts) {
                self.spend(t.len() / 16 + 1)?;
                for name in self.arith_refs(t).names {
                    if let Some(v) = self.facts.names.get(kept_as(&name)) {
                        out.push(v);
                    }
                }
            }
            Ok(out)
        };
        // The fixed point over the names each variable's value evaluates, each value read
        // once (a variable that names one that assigns, assigns).
        if any {
            let mut names: Vec<Vec<Var>> = Vec::with_capacity(n);
            for v in 0..n {
                names.push(named(&self.var_val(v as Var))?);
            }
            loop {
                let mut changed = false;
                for (v, its) in names.iter().enumerate() {
                    self.spend(its.len() + 1)?;
                    if !assigning[v]
                        && its
                            .iter()
                            .any(|&x| assigning.get(x as usize) != Some(&false))
                    {
                        assigning[v] = true;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        let names_one = |val: &Val, assigning: &[bool]| -> Result<bool, GaveUp> {
            Ok(any
                && named(val)?
                    .iter()
                    .any(|&x| assigning.get(x as usize) != Some(&false)))
        };
        let assigns = |val: &Val, e: Evaluator| -> Result<bool, GaveUp> {
            Ok(evaluators::expands_assignment(val, e, elsewhere)
                || (matches!(
                    e,
                    Evaluator::Arithmetic | Evaluator::Subscript | Evaluator::Name
                ) && names_one(val, &assigning)?))
        };
        let push = |at: u32, found: &mut Vec<Found>| {
            if self.later_text(at, 0, true, true) {
                found.push(Found::Change { at, what: WHAT });
            }
        };
        for s in &f.sites {
            self.spend(8)?;
            if self.site_runs(s)? && assigns(&self.eval(&s.value)?, s.evaluator)? {
                push(s.at, found);
            }
        }
        for &(v, at) in &f.integers {
            if assigns(&self.var_val(v), Evaluator::Arithmetic)? {
                push(at, found);
            }
        }
        if f.any_integer.is_some() || f.any_nameref.is_some() {
            let every = self.every();
            // (Every value joined is inexact: what is known to assign counts, as for the
            // names arithmetic evaluates.)
            let known = every.fixed_known_to_assign(elsewhere) || names_one(&every, &assigning)?;
            for at in [f.any_integer, f.any_nameref].into_iter().flatten() {
                if known {
                    push(at, found);
                }
            }
        }
        if let Some(at) = f.xtrace
            && (!self.d.is_zsh() || f.prompt_subst)
            && assigns(&self.ps4(), Evaluator::Prompt)?
        {
            push(at, found);
        }
        Ok(())
    }

    fn heredocs_present(&self) -> bool {
        self.holds_heredoc
    }
}

/// The functions whose bodies a call of `name` runs through zsh's `functions -c` copies
/// (`copies`: from, to; a copy of a copy too; an empty name, computed at run time, may be
/// any: its source is every function, given as the empty name).
fn copied_from<'c>(
    copies: &'c [super::facts::FunctionCopy],
    name: &[u8],
    zsh: bool,
) -> Vec<&'c [u8]> {
    let mut out: Vec<&[u8]> = Vec::new();
    if copies.is_empty() {
        return out;
    }
    // (A copy whose name may be the call's: a command-not-found handler's, a name zsh
    // expands, [`super::builtins::runs_for_call`].)
    let reaches = |to: &[u8], out: &[&[u8]]| {
        to.is_empty()
            || to == name
            || super::builtins::runs_for_call(zsh, to, name)
            || out.contains(&to)
    };
    loop {
        let before = out.len();
        for (from, to) in copies {
            if reaches(to, &out) && !out.contains(&&from[..]) {
                out.push(from);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

impl Solver<'_> {
    /// [`copied_from`] for a call of `name`, charged to the meter (its passes over the
    /// copies are at most as many as the copies).
    fn copied_from(&self, name: &[u8]) -> Result<Vec<&[u8]>, GaveUp> {
        let n = self.facts.function_copies.len();
        if n > 0 {
            self.spend(n.saturating_mul(n) / 8 + 1)?;
        }
        Ok(copied_from(
            &self.facts.function_copies,
            name,
            self.d.is_zsh(),
        ))
    }

    /// Whether text is read after a change at `at` in input unit `unit`: a later unit
    /// that holds a command (when `later_units`), or text read again when it runs (a
    /// substitution, `eval` text) after it. zsh reads the whole command before it runs
    /// any of it: only text read again counts. `anywhere`: the change's unit is not known.
    fn later_text(&self, at: u32, unit: usize, later_units: bool, anywhere: bool) -> bool {
        let zsh = self.d.is_zsh();
        if self.facts.function_rereads {
            return true;
        }
        if !zsh && later_units && (anywhere || self.facts.last_unit > unit) {
            return true;
        }
        self.facts
            .rereads
            .iter()
            .any(|&(r, u)| r > at && (zsh || anywhere || later_units || u == unit))
            || self.evaluated_reads.iter().any(|&r| r > at)
    }

    /// Where a hidden evaluator expands text that may hold a substitution (`$(…)`, a
    /// backquote), which the shell reads only when it runs it, aliases defined before it
    /// applied: a prompt's, zsh's `(e)` and glob qualifiers', PS4's under `set -x`, and a
    /// subscript's in arithmetic or a name (`x='a[$(s…)]'; (( x ))`, `test -v "$x"`).
    fn read_by_evaluators(&self) -> Result<Vec<u32>, GaveUp> {
        let f = self.facts;
        let mut out = Vec::new();
        // (Only text the command fixes, known to hold one: a body made of a program's
        // output is the program's text, not the author's, and most joined values hold a
        // `$` and a `(`.)
        // (A prompt decodes its escapes first, zsh's `print -P` too: `\044\050`.)
        let substitutes = |v: &Val, e: Evaluator| {
            let decoded = e == Evaluator::Prompt
                && (v.lits.iter().any(|l| {
                    use super::value::may_make;
                    may_make(l, b'`') || (may_make(l, b'$') && may_make(l, b'('))
                }) || v.fixed.is_some_and(|b| b.has(b'\\')));
            (v.fixed_substs_any() || decoded)
                && (!matches!(e, Evaluator::Arithmetic | Evaluator::Name)
                    || v.fixed_bytes().is_some_and(|b| b.has(b'[')))
        };
        for s in &f.sites {
            self.spend(8)?;
            if self.site_runs(s)? && substitutes(&self.eval(&s.value)?, s.evaluator) {
                out.push(s.at);
            }
        }
        for &(v, at) in &f.integers {
            self.spend(2)?;
            if substitutes(&self.var_val(v), Evaluator::Arithmetic) {
                out.push(at);
            }
        }
        if f.any_integer.is_some() || f.any_nameref.is_some() {
            let every = self.every();
            if substitutes(&every, Evaluator::Arithmetic) {
                out.extend([f.any_integer, f.any_nameref].into_iter().flatten());
            }
        }
        if let Some(at) = f.xtrace
            && (!self.d.is_zsh() || f.prompt_subst)
            && substitutes(&self.ps4(), Evaluator::Prompt)
        {
            out.push(at);
        }
        Ok(out)
    }
}

/// The special variables whose change the guard's readings already cover: POSIX mode
/// turns alias expansion on (the guard reads every command with aliases expanded too),
/// and a compat level brings back older versions' behaviour (bash 3.2 to 5.1 are read
/// too); no red team has made either run heredoc text. Named exactly (by the command, or
/// by heredoc text known exactly), they still count.
pub(super) fn covered_by_readings(name: &[u8]) -> bool {
    matches!(name, b"POSIXLY_CORRECT" | b"BASH_COMPAT")
}

/// Whether a value may reshape the text after an alias whose value it is: a heredoc
/// operator or a `<` that joins the next one, a comment, a line end, a quote or a
/// construct it leaves open. Exact texts are judged by what they hold; other text by its
/// bytes; the environment's text never counts.
fn reshapes_text(v: &Val) -> bool {
    v.lits.iter().chain(&v.htexts).any(|t| reshaping_text(t))
        || [v.heredoc, v.fixed]
            .into_iter()
            .flatten()
            .any(|b| b.any_of(&RESHAPING))
}

/// An exact alias value that may reshape the text after it.
fn reshaping_text(t: &[u8]) -> bool {
    if t.iter().any(|c| matches!(c, b'<' | b'#' | b'\n')) || matches!(t.last(), Some(b' ' | b'\t'))
    {
        return true;
    }
    // Quotes and a trailing backslash: left open?
    let (mut quote, mut i) = (0u8, 0);
    let mut depth: i64 = 0;
    let mut backquotes = 0usize;
    while i < t.len() {
        let c = t[i];
        match (quote, c) {
            (0 | b'"', b'\\') => {
                if i + 1 == t.len() {
                    return true;
                }
                i += 1;
            }
            (0, b'\'' | b'"') => quote = c,
            (q, _) if q != 0 && c == q => quote = 0,
            (0 | b'"', b'`') => backquotes += 1,
            (0, b'(' | b'{' | b'[') => depth += 1,
            (0, b')' | b'}' | b']') => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    quote != 0 || depth != 0 || backquotes % 2 == 1
}

/// Whether a name computed at run time may be a special variable whose assignment changes
/// how later text is read (an alias table's entry or the whole table, `histchars`,
/// `options`…: [`super::walk::special_change`]), and if so whether only a value that may
/// reshape text changes it (`Some(true)`) or any value (`Some(false)`). Exact texts by
/// their name before any subscript; other text by whether its bytes can spell the name,
/// but for the two whose effect the readings already cover ([`covered_by_readings`]).
fn special_named(v: &Val, zsh: bool) -> Option<bool> {
    use super::walk::{SPECIAL_CHANGES, special_change};
    let exact = v.lits.iter().chain(&v.htexts).filter_map(|l| {
        let base = l.split(|&c| c == b'[').next().unwrap_or_default();
        special_change(base, zsh)
    });
    let spelled = [v.heredoc, v.fixed].into_iter().flatten().flat_map(|b| {
        SPECIAL_CHANGES
            .iter()
            .filter(move |name| b.holds_all(name) && !covered_by_readings(name))
            .filter_map(|name| special_change(name, zsh))
    });
    exact
        .chain(spelled)
        .map(|(_, reshapes)| reshapes)
        .reduce(|a, b| a && b)
}

/// Whether the words of a command named at run time show a definition `name=value` whose
/// value reshapes text (a `=` with a reshaping byte after it). Only words the command
/// shows count: a command named at run time with words it computes is explicit
/// evaluation.
fn alias_words(v: &Val) -> bool {
    v.lits.iter().chain(&v.htexts).any(|l| {
        l.iter().position(|&c| c == b'=').is_some_and(|eq| {
            let value = &l[eq + 1..];
            value
                .iter()
                .any(|&c| RESHAPING.has(c) && !matches!(c, b' ' | b'\t'))
                || matches!(value.last(), Some(b' ' | b'\t'))
        })
    })
}

/// A value after a case change: its texts' letters in either case. (The texts are kept
/// as they are too: what a case change cannot change, a `=` and the bytes after it, is
/// still judged on them, `declare -l "$n"` before `${a}as h='cat <<EOF'`.)
/// What text the guard does not read may copy from a value: any heredoc or run-time text
/// it holds, as any such text (a harmless piece must not hide what text it does not read
/// may make of it); nothing, where it holds none.
fn copied(v: &Val) -> Val {
    if v.has_heredoc() {
        Val {
            heredoc: Some(ByteSet::ALL),
            unknown: v.unknown,
            ..Val::default()
        }
    } else {
        Val::default()
    }
}

fn cased(v: &Val) -> Val {
    let mut out = v.clone();
    if let Some(h) = out.heredoc_bytes() {
        out.heredoc = Some(h.both_cases());
    }
    if let Some(f) = out.fixed_bytes() {
        // (A case change makes no `$`, `{`, `=`, `(` or backquote: what was known of the
        // text holds.)
        out.fixed_assigns = v.fixed_assigns_any();
        out.fixed_substs = v.fixed_substs_any();
        out.fixed = Some(f.both_cases());
        out.zsh_number = false;
    }
    out
}

/// What an expression reads.
#[derive(Default)]
struct Reads {
    vars: Vec<Var>,
    substs: Vec<u32>,
    all: bool,
    /// It splits fields (it reads IFS).
    fields: bool,
}

impl Reads {
    fn of(&mut self, e: &Expr) {
        for s in &e.0 {
            match s {
                Src::Val(_) | Src::Body { .. } => {}
                Src::Var(v) => self.vars.push(*v),
                Src::AnyVar | Src::Named(_) => {
                    self.all = true;
                    if let Src::Named(inner) = s {
                        self.of(inner);
                    }
                }
                Src::Keys(v) | Src::Head(v) => self.vars.push(*v),
                Src::Subst(at) => self.substs.push(*at),
                Src::Glue(parts) => parts.iter().for_each(|p| self.of(p)),
                Src::Part(inner, _)
                | Src::Sub(inner)
                | Src::Wild(inner)
                | Src::Escaped(inner)
                | Src::ProgramQuoted(inner)
                | Src::Repeated(inner)
                | Src::Cased(inner)
                | Src::Modelled(inner)
                | Src::Files { inner, .. }
                | Src::EvalAssigns(inner, None)
                | Src::RunCopies(inner, None)
                | Src::SourceCopies(inner) => self.of(inner),
                Src::ZshArith(a, b) => {
                    self.of(a);
                    self.of(b);
                }
                Src::EvalAssigns(inner, Some((name, _)))
                | Src::RunCopies(inner, Some((name, _))) => {
                    self.of(inner);
                    self.of(name);
                }
                Src::Field { inner, .. } => {
                    self.fields = true;
                    self.of(inner)
                }
            }
        }
    }
}

/// Field `index` of `line` as `read` splits it with `ifs` in each shell (`last`: the rest
/// of the line from that field on, with and without one trailing delimiter, as versions
/// differ): what IFS whitespace is differs (bash 3.2 and 4.4: space, tab and newline;
/// bash 5.1 on also `\r`, `\v` and `\f`; zsh: space, tab and newline, but one written
/// twice in IFS is not whitespace), each a value it may be (round 82).
fn read_field<'a>(line: &'a [u8], ifs: &[u8], index: usize, last: bool) -> Vec<&'a [u8]> {
    let twice = |c: u8| ifs.iter().filter(|&&x| x == c).count() > 1;
    let mut out = read_field_with(line, ifs, index, last, &|c| {
        matches!(c, b' ' | b'\t' | b'\n')
    });
    let more = [
        read_field_with(line, ifs, index, last, &|c| {
            matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
        }),
        read_field_with(line, ifs, index, last, &|c| {
            matches!(c, b' ' | b'\t' | b'\n') && !twice(c)
        }),
    ];
    for f in more.into_iter().flatten() {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// [`read_field`] in one shell, `space` saying which IFS bytes are whitespace there:
/// IFS whitespace around a field is skipped, and one other IFS byte ends a field.
fn read_field_with<'a>(
    line: &'a [u8],
    ifs: &[u8],
    index: usize,
    last: bool,
    space: &dyn Fn(u8) -> bool,
) -> Vec<&'a [u8]> {
    let is_ifs = |c: u8| ifs.contains(&c);
    let is_ws = |c: u8| is_ifs(c) && space(c);
    let mut i = 0;
    while i < line.len() && is_ws(line[i]) {
        i += 1;
    }
    for _ in 0..index {
        if i >= line.len() {
            return vec![&[]];
        }
        while i < line.len() && !is_ifs(line[i]) {
            i += 1;
        }
        // The delimiter: IFS whitespace, at most one other IFS byte, IFS whitespace.
        while i < line.len() && is_ws(line[i]) {
            i += 1;
        }
        if i < line.len() && is_ifs(line[i]) && !is_ws(line[i]) {
            i += 1;
        }
        while i < line.len() && is_ws(line[i]) {
            i += 1;
        }
    }
    let rest = line.get(i..).unwrap_or_default();
    if last {
        let mut end = rest.len();
        while end > 0 && is_ws(rest[end - 1]) {
            end -= 1;
        }
        let trimmed = &rest[..end];
        let mut out = vec![trimmed];
        if let Some((&c, before)) = trimmed.split_last()
            && is_ifs(c)
        {
            let mut e = before.len();
            while e > 0 && is_ws(before[e - 1]) {
                e -= 1;
            }
            out.push(&before[..e]);
        }
        out
    } else {
        let end = rest.iter().position(|&c| is_ifs(c)).unwrap_or(rest.len());
        vec![&rest[..end]]
    }
}

/// The name under which the judge keeps a parameter: the positional parameters (and
/// their other spellings) are all kept as `@`.
fn kept_as(name: &[u8]) -> &[u8] {
    if (!name.is_empty() && name.iter().all(u8::is_ascii_digit))
        || matches!(name, b"@" | b"*" | b"argv" | b"BASH_ARGV")
    {
        b"@"
    } else {
        name
    }
}

/// A variable the shell keeps as a number (`RANDOM`, `SECONDS`, `LINENO`…).
fn shell_number_variable(name: &[u8]) -> bool {
    matches!(
        name,
        b"RANDOM"
            | b"SRANDOM"
            | b"SECONDS"
            | b"LINENO"
            | b"EPOCHSECONDS"
            | b"BASHPID"
            | b"PPID"
            | b"UID"
            | b"EUID"
            | b"OPTIND"
            | b"SHLVL"
            | b"COLUMNS"
            | b"LINES"
            | b"BASH_SUBSHELL"
            | b"HISTCMD"
            | b"ZSH_SUBSHELL"
            | b"TTYIDLE"
            | b"GID"
            | b"EGID"
    )
}

impl Refs for Solver<'_> {
    fn defines_code(&self) -> bool {
        !self.facts.functions.is_empty()
            || self.text.is_none_or(|t| {
                [
                    &b"alias"[..],
                    b"trap",
                    b"TRAP",
                    b"_functions",
                    b"command_not_found",
                    b"chpwd",
                    b"precmd",
                    b"preexec",
                    b"periodic",
                    b"zshexit",
                    b"zshaddhistory",
                    b"functions[",
                ]
                .iter()
                .any(|n| crate::search::find(t, n).is_some())
            })
    }
    fn var(&self, name: &[u8]) -> Val {
        let name = kept_as(name);
        match self.facts.names.get(name) {
            Some(v) => self.var_val(v),
            None => {
                let mut v = self.default_named(name);
                v.join(&self.any);
                v
            }
        }
    }

    fn arith_dangerous(&self, name: &[u8]) -> bool {
        if !self.dangerous_known {
            return true;
        }
        let name = kept_as(name);
        match self.facts.names.get(name) {
            Some(v) => self.arith_dangerous.contains(&self.canon(v)),
            None => shell_text_variable(name, self.d.is_zsh()) || self.any_dangerous,
        }
    }

    fn zsh(&self) -> bool {
        self.d.is_zsh()
    }

    fn arith_dangerous_made(&self) -> bool {
        !self.dangerous_known
            || self.any_dangerous
            || self.arith_dangerous.iter().any(|&v| {
                // `$_` is every command's last word, and `PWD`, `OLDPWD` and the
                // directory stack are run-time text after any `cd`: no environment
                // value names one unless the environment means it to.
                let n = self.facts.names.name(v);
                !matches!(n, b"_" | b"PWD" | b"OLDPWD" | b"DIRSTACK" | b"dirstack")
                    && crate::shell::syntax::legal_identifier(n)
            })
    }

    fn arith_dangerous_named_by(&self, bytes: &ByteSet) -> bool {
        if !self.dangerous_known {
            return true;
        }
        if self.arith_dangerous.iter().any(|&v| {
            let n = self.facts.names.name(v);
            crate::shell::syntax::legal_identifier(n) && bytes.holds_all(n)
        }) {
            return true;
        }
        // A name never assigned that the shell fills with text.
        let zsh = self.d.is_zsh();
        // (zsh's `userdirs`, never assigned, holds the password database's home
        // directories: the system's text, not the command's.)
        // (zle's buffers, `BUFFER`, `CUTBUFFER`, `killring`…, hold text only inside a
        // widget, which needs an interactive shell on a terminal: an agent's `zsh -c` has
        // them empty.)
        const TEXT: [&[u8]; 18] = [
            b"BASH_COMMAND",
            b"BASH_EXECUTION_STRING",
            b"COMP_LINE",
            b"COMP_WORDS",
            b"READLINE_LINE",
            b"READLINE_ARGUMENT",
            b"BASH_CMDS",
            b"functions",
            b"functions_source",
            b"dis_functions",
            b"dis_functions_source",
            b"history",
            b"historywords",
            b"jobtexts",
            b"ZSH_EXECUTION_STRING",
            b"ZSH_DEBUG_CMD",
            b"nameddirs",
            b"commands",
        ];
        TEXT.iter()
            .any(|n| shell_text_variable(n, zsh) && bytes.holds_all(n))
            || self.any_dangerous
    }

    fn arith_refs(&self, text: &[u8]) -> LitRefs {
        let key: Rc<[u8]> = Rc::from(text);
        if let Some(r) = self.lit_cache.borrow().get(&key) {
            return LitRefs {
                names: r.names.clone(),
                runs: r.runs,
            };
        }
        let _ = self.meter.charge(crate::shell::bulk_work(text.len()));
        let a = word::arith(&Text::command(text), &());
        let mut r = LitRefs::default();
        collect_arith(&a, &mut r, false);
        let out = LitRefs {
            names: r.names.clone(),
            runs: r.runs,
        };
        self.lit_cache.borrow_mut().insert(key, Rc::new(r));
        out
    }

    fn string_refs(
        &self,
        text: &[u8],
        output_evaluated: bool,
    ) -> Vec<(Evaluator, Option<Vec<u8>>)> {
        let _ = self.meter.charge(crate::shell::bulk_work(text.len()));
        let doc = word::document(&Text::command(text), &());
        let mut out = Vec::new();
        if doc.cut || doc.requoted {
            out.push((Evaluator::Arithmetic, None));
        }
        // A substitution in the text runs a program where the text is expanded: its
        // output is unknown (what a subscript evaluates), and a program that may itself
        // evaluate what it reads (the heredoc on its input) is not followed there.
        let substs = || doc.pieces.iter().any(|p| matches!(p, Piece::Subst(_)));
        let mut unshown = false;
        string_pieces(&doc.pieces, &mut out, &mut unshown);
        if unshown && (output_evaluated || !plain_program(text)) || (output_evaluated && substs()) {
            out.push((Evaluator::Arithmetic, None));
        }
        out
    }
}

/// What arithmetic text evaluates: its names (and the parameters its subscripts expand),
/// and whether a subscript holds a substitution (its output is evaluated in turn; outside
/// a subscript `$(…)` is a syntax error there).
fn collect_arith(a: &word::Arith, r: &mut LitRefs, in_sub: bool) {
    r.names.extend(a.names.iter().cloned());
    for p in &a.params {
        r.names.push(p.name.clone());
        if in_sub && (p.indirect || p.subscript.is_some() || p.arg.is_some()) {
            r.runs = true;
        }
    }
    if in_sub && !a.substs.is_empty() {
        r.runs = true;
    }
    for s in &a.subscripts {
        collect_arith(s, r, true);
    }
}

/// Whether the programs in fixed text only print: no construct that evaluates a value or
/// assigns (arithmetic, a subscript, an indirection, a braced expansion, an assignment, a
/// zsh flag, a heredoc, an alias), and every command's name, quotes and backslash-newlines
/// dropped, one of a few programs that print (round 102: a list of the commands that
/// assign, test or evaluate was walked around by every spelling a command can take,
/// `$(l"e"t v)`, `$(for OPTIND in …)`, zsh's `zformat`, a glob `$(le? v)`).
fn plain_program(text: &[u8]) -> bool {
    // (Where a substitution ends is found by counting parentheses: a quote, a backslash
    // or a comment after the first substitution's start may end it elsewhere, `$(echo
    // ")"; let k)`, `` `echo \`let k\`` ``, round 102: not plain.)
    let first = [crate::search::find(text, b"$("), memchr::memchr(b'`', text)]
        .into_iter()
        .flatten()
        .min();
    if first.is_some_and(|f| may_hide_an_end(&text[f..])) {
        return false;
    }
    // (Only the substitutions' programs: the text around them is the prompt's or the
    // list's own, whose expansions are judged as such, `${LINENO}` in a PS4.)
    substitution_programs(text)
        .iter()
        .all(|p| plain_commands(p))
}

/// Whether text may end a substitution elsewhere than counted parentheses say: a single
/// quote, a backslash, a `#` that starts a word (a comment), or a `)` or backquote inside
/// double quotes.
fn may_hide_an_end(t: &[u8]) -> bool {
    let mut in_double = false;
    for (i, &c) in t.iter().enumerate() {
        match c {
            b'\'' | b'\\' => return true,
            b'"' => in_double = !in_double,
            b')' | b'`' if in_double => return true,
            b'#' if !in_double
                && (i == 0 || t[i - 1].is_ascii_whitespace() || b"(;|&".contains(&t[i - 1])) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// The programs of the substitutions in text: from each `$(` to its `)` (parentheses
/// counted), from each backquote to the next; to the end where none closes.
fn substitution_programs(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'`' {
            let end = memchr::memchr(b'`', &text[i + 1..]).map_or(text.len(), |k| i + 1 + k);
            out.push(&text[i + 1..end]);
            i = end + 1;
        } else if text[i] == b'$' && text.get(i + 1) == Some(&b'(') {
            let mut depth = 0usize;
            let mut end = text.len();
            for (k, &c) in text.iter().enumerate().skip(i + 1) {
                match c {
                    b'(' => depth += 1,
                    b')' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            end = k;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            out.push(&text[i + 2..end.max(i + 2)]);
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// [`plain_program`] of one substitution's program.
fn plain_commands(text: &[u8]) -> bool {
    const MARKERS: [&[u8]; 14] = [
        b"((", b"$[", b"[", b"{!", b"@P", b"{(", b"{~", b"<<", b"=", b"${", b"$~", b"$^", b"$=",
        b"alias",
    ];
    // (And the explicit evaluators, given only expansions: what `eval "$v"` runs is the
    // author's choice; `eval let k` is a program of fixed text, not followed here.)
    const PRINTERS: [&[u8]; 27] = [
        b"echo",
        b"date",
        b"pwd",
        b"whoami",
        b"hostname",
        b"uname",
        b"basename",
        b"dirname",
        b"id",
        b"git",
        b"tput",
        b"cat",
        b"ls",
        b"head",
        b"tail",
        b"wc",
        b"tr",
        b"cut",
        b"sort",
        b"uniq",
        b"tty",
        b"true",
        b"false",
        b":",
        b"eval",
        b"source",
        b".",
    ];
    const KEYWORDS: [&[u8]; 3] = [b"!", b"then", b"else"];
    let kept = crate::shell::syntax::unquoted_spelling(text);
    if MARKERS
        .iter()
        .any(|m| crate::search::find(text, m).is_some() || crate::search::find(&kept, m).is_some())
    {
        return false;
    }
    // (Words split at blanks and separators; a name is the first word, and the first after
    // a separator that starts a command.)
    let mut at_command = true;
    let mut word_start: Option<usize> = None;
    let mut plain = true;
    // (The command is `eval`, `source` or `.`: its words must be expansions.)
    let mut explicit = false;
    // (The word started right after a `$`: an expansion's name.)
    let mut dollar = false;
    let mut word_dollar = false;
    let mut redirected = false;
    let mut end_word = |from: Option<usize>,
                        to: usize,
                        word_dollar: bool,
                        at_command: &mut bool,
                        explicit: &mut bool| {
        if let Some(f) = from {
            let w = &kept[f..to];
            if *at_command && !KEYWORDS.contains(&w) {
                plain &= PRINTERS.contains(&w);
                *explicit = matches!(w, b"eval" | b"source" | b".");
                *at_command = false;
            } else if *explicit && !word_dollar {
                plain = false;
            }
        }
    };
    for (i, &c) in kept.iter().enumerate() {
        let starts_command = matches!(
            c,
            b';' | b'|' | b'&' | b'(' | b')' | b'{' | b'}' | b'`' | b'\n'
        );
        if c.is_ascii_whitespace() || starts_command || c == b'$' || c == b'<' || c == b'>' {
            end_word(
                word_start.take(),
                i,
                word_dollar,
                &mut at_command,
                &mut explicit,
            );
            if starts_command {
                at_command = true;
                explicit = false;
            }
            dollar = c == b'$';
            if matches!(c, b'<' | b'>') && explicit {
                // (A redirection feeds `source` or `eval` text: `. <(echo let k)`.)
                redirected = true;
            }
        } else if word_start.is_none() {
            word_start = Some(i);
            word_dollar = dollar;
            dollar = false;
        }
    }
    end_word(
        word_start,
        kept.len(),
        word_dollar,
        &mut at_command,
        &mut explicit,
    );
    plain && !redirected
}

/// Whether text holds a heredoc operator (`<<`, not `<<<`) after a substitution's start
/// (`$(`, a backquote): a heredoc the substitution reads when it runs.
fn heredoc_in_substitution(t: &[u8]) -> bool {
    // (A backslash-newline is joined where the substitution is read: `<\⏎<E`.)
    if crate::search::find(t, b"\\\n").is_some() {
        let mut out = Vec::with_capacity(t.len());
        let mut i = 0;
        while i < t.len() {
            if t[i] == b'\\' && t.get(i + 1) == Some(&b'\n') {
                i += 2;
            } else {
                out.push(t[i]);
                i += 1;
            }
        }
        return heredoc_in_substitution_joined(&out);
    }
    heredoc_in_substitution_joined(t)
}

/// [`heredoc_in_substitution`] of text with its lines joined.
fn heredoc_in_substitution_joined(t: &[u8]) -> bool {
    // (A process substitution's too: `<(cat <<E …)`, round 102; and bash 5.3's `${ …; }`
    // and `${| …; }`.)
    let funsub = memchr::memmem::find_iter(t, b"${")
        .find(|&k| matches!(t.get(k + 2), Some(b' ' | b'\t' | b'\n' | b'|')));
    let Some(start) = [
        crate::search::find(t, b"$("),
        memchr::memchr(b'`', t),
        crate::search::find(t, b"<("),
        crate::search::find(t, b">("),
        funsub,
    ]
    .into_iter()
    .flatten()
    .min() else {
        return false;
    };
    memchr::memmem::find_iter(&t[start..], b"<<")
        .any(|k| t.get(start + k + 2) != Some(&b'<') && (k == 0 || t[start + k - 1] != b'<'))
}

/// The evaluators the expansions of fixed text reach, with the variable each is given;
/// `unshown`: the text holds a substitution.
fn string_pieces(
    pieces: &[Piece],
    out: &mut Vec<(Evaluator, Option<Vec<u8>>)>,
    unshown: &mut bool,
) {
    for p in pieces {
        match p {
            Piece::Param(p) => {
                let name = (!p.name.is_empty()).then(|| p.name.clone());
                if let Some(s) = &p.subscript {
                    arith_pieces(s, out);
                }
                for s in &p.slice {
                    arith_pieces(s, out);
                }
                if p.indirect && p.op != word::ParamOp::Names {
                    out.push((Evaluator::Name, name.clone()));
                }
                if p.op == word::ParamOp::Prompt {
                    out.push((Evaluator::Prompt, name.clone()));
                }
                if p.zsh_eval {
                    out.push((Evaluator::ZshExpansion, name.clone()));
                }
                if let Some(arg) = &p.arg {
                    string_pieces(&arg.pieces, out, unshown);
                }
            }
            Piece::Arith(a) => arith_pieces(a, out),
            Piece::Subst(_) => *unshown = true,
            Piece::Lit(_) => {}
        }
    }
}

fn arith_pieces(a: &word::Arith, out: &mut Vec<(Evaluator, Option<Vec<u8>>)>) {
    for n in &a.names {
        out.push((Evaluator::Arithmetic, Some(n.clone())));
    }
    for p in &a.params {
        out.push((
            Evaluator::Arithmetic,
            (!p.name.is_empty()).then(|| p.name.clone()),
        ));
    }
    if !a.substs.is_empty() {
        out.push((Evaluator::Arithmetic, None));
    }
    for s in &a.subscripts {
        arith_pieces(s, out);
    }
}

/// Whether a value may start with `(`: run-time text, bytes that hold one, or a text known
/// exactly that starts with it.
fn may_start_with_paren(v: &Val) -> bool {
    v.unknown
        || v.heredoc.is_some_and(|h| h.has(b'('))
        || v.fixed.is_some_and(|f| f.has(b'('))
        || v.lits
            .iter()
            .chain(v.htexts.iter())
            .any(|t| t.first() == Some(&b'('))
}

/// The runs of variable characters that stand right before a `[`, `=(` or `+=(` in
/// `text` (each whole: the byte before it is not one): the names it writes with a
/// subscript or a list (`z[0]=`, `${z[0]}`, `z=(…)`, `z+=(…)`).
fn names_written_as_arrays(text: &[u8]) -> HashSet<&[u8]> {
    let mut out = HashSet::default();
    for at in memchr::memchr3_iter(b'[', b'=', b'+', text) {
        let rest = &text[at..];
        let ends = rest.starts_with(b"[") || rest.starts_with(b"=(") || rest.starts_with(b"+=(");
        if !ends {
            continue;
        }
        let start = text[..at]
            .iter()
            .rposition(|&b| !crate::shell::syntax::legal_variable_char(b))
            .map_or(0, |p| p + 1);
        if start < at {
            out.insert(&text[start..at]);
        }
    }
    out
}

/// The default value a shell gives a variable the command never assigns, where it holds
/// text an alias may take a heredoc operator's `<` from (measured: bash 3.2 to 5.3, zsh
/// 5.9).
fn shell_default_text(name: &[u8], zsh: bool) -> Option<&'static [u8]> {
    match (name, zsh) {
        (b"COMP_WORDBREAKS", false) => Some(b" \t\n\"'@><=;|&(:"),
        (b"WORDCHARS", true) => Some(b"*?_-.[]~=/&;!#$%^(){}<>"),
        (b"patchars", true) => Some(b"| ~ ( ? * [ < ^ # ?( *( +( !( \\!( @("),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::names_written_as_arrays;

    /// A heredoc operator after a substitution's start, lines joined, `<<<` aside.
    #[test]
    fn a_heredoc_counts_only_inside_a_substitution() {
        use super::heredoc_in_substitution as h;
        assert!(h(b"PATH[$(cat <<E\n$(x)\nE\n)]"));
        assert!(h(b"`cat <<E`"));
        assert!(h(b"<(cat <<E\nx\nE\n)"));
        assert!(h(b"$(cat <\\\n<E\nx\nE\n)"));
        assert!(h(b"PATH[${ cat <<E\n$(x)\nE\n}]"));
        assert!(h(b"${|cat <<E\nx\nE\n}"));
        assert!(!h(b"${x} <<E"));
        assert!(!h(b"$(cat <<<x)"));
        assert!(!h(b"cat <<E $(x)"));
    }

    /// Prompt code is plain only where each command of its substitutions prints, its end
    /// is where its parentheses say, and `eval`/`source` are given expansions only.
    #[test]
    fn prompt_code_is_plain_only_where_each_command_prints() {
        use super::plain_program as plain;
        assert!(plain(b"+ $(date +%s) ${BASH_SOURCE##*/}:${LINENO} "));
        assert!(plain(b"+ $(date \"+%T\") $(basename \"$0\")"));
        assert!(plain(b"$(eval \"$v\")"));
        assert!(!plain(b"$(l\"e\"t v)"));
        assert!(!plain(b"$(for OPTIND in x; do :; done)"));
        assert!(!plain(b"$(echo \")\"; let k)"));
        assert!(!plain(b"$(echo # )\nlet k)"));
        assert!(!plain(b"`echo \\`let k\\``"));
        assert!(!plain(b"$(eval let k)"));
        assert!(!plain(b"$(. <(echo let k))"));
        assert!(!plain(b"$(echo ${PATH:$v})"));
    }

    /// The list the byte-spelling checks walk holds only names the match knows, in one
    /// dialect or the other (a name added to one and not the other would go unjudged).
    #[test]
    fn every_listed_special_name_is_one_the_change_table_knows() {
        use super::super::walk::{SPECIAL_CHANGES, special_change};
        for name in SPECIAL_CHANGES {
            assert!(
                special_change(name, false).is_some() || special_change(name, true).is_some(),
                "{}",
                String::from_utf8_lossy(name)
            );
        }
        assert!(special_change(b"histchars", true).is_some());
        assert!(special_change(b"histchars", false).is_none());
    }

    #[test]
    fn names_written_with_a_subscript_or_a_list_are_found_whole() {
        let found = names_written_as_arrays(
            b"z[0]=1; a=(x); b+=(y); echo ${c[1]}; xd[2]=; e =(f); g= (h); 9k[1]; $m[1]",
        );
        let mut names: Vec<&[u8]> = found.into_iter().collect();
        names.sort();
        // Each run of variable characters right before `[`, `=(` or `+=(`, whole: not `d`
        // of `xd`, not `e` or `g` (a space stands between), `9k` as written.
        let want: Vec<&[u8]> = vec![b"9k", b"a", b"b", b"c", b"m", b"xd", b"z"];
        assert_eq!(names, want);
    }
}
