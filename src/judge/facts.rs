//! What the walk records for the solver: every assignment (a variable and the expression
//! of its value), every substitution's output, every hidden-evaluator site with the
//! expression of the value that reaches it, and every change to how later text is read.
//! Nothing here is judged: the solver computes the values, then each site is judged once.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use super::evaluators::Evaluator;
use super::value::{ByteSet, Val};

/// A variable, by its interned name.
pub(super) type Var = u32;

/// Names, interned.
#[derive(Default)]
pub(super) struct Names {
    ids: HashMap<Rc<[u8]>, Var>,
    pub(super) names: Vec<Rc<[u8]>>,
}

impl Names {
    pub fn id(&mut self, name: &[u8]) -> Var {
        if let Some(&v) = self.ids.get(name) {
            return v;
        }
        let v = self.names.len() as Var;
        let rc: Rc<[u8]> = Rc::from(name);
        self.names.push(Rc::clone(&rc));
        self.ids.insert(rc, v);
        v
    }

    pub fn get(&self, name: &[u8]) -> Option<Var> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, v: Var) -> &[u8] {
        self.names.get(v as usize).map_or(&[], |n| n)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// Where a value comes from; an [`Expr`] is the join of some.
#[derive(Clone, Debug)]
pub(super) enum Src {
    /// A value known when it was read.
    Val(Val),
    /// What a variable holds (every assignment to it, joined).
    Var(Var),
    /// What any variable holds (a name computed at run time).
    AnyVar,
    /// The variable that a value names (`${!x}`): a fixed name's variable, else any.
    Named(Rc<Expr>),
    /// An array's keys: an associative array's are any text assigned, an indexed
    /// array's numbers.
    Keys(Var),
    /// What the substitution at this command offset writes.
    Subst(u32),
    /// Heredoc `n`'s text as its command reads it (`first_line`: only its first line).
    Body { heredoc: usize, first_line: bool },
    /// Pieces one after another.
    Glue(Vec<Expr>),
    /// A part of a value, plus bytes a replacement may add.
    Part(Rc<Expr>, ByteSet),
    /// A contiguous part of a value (`${x#p}`, a field, what a pattern matched).
    Sub(Rc<Expr>),
    /// A transformation that can make any byte of heredoc text.
    Wild(Rc<Expr>),
    /// Backslash escapes decoded (`echo`, `${x@E}`): [`Src::Wild`] for each part of the
    /// value that may hold a `\`, the rest as it was.
    Escaped(Rc<Expr>),
    /// The value as a program's error message quotes it ([`Val::program_quoted`]).
    ///
    /// [`Val::program_quoted`]: super::value::Val::program_quoted
    ProgramQuoted(Rc<Expr>),
    /// Any number of the value's texts one after another ([`Val::repeated`]): a loop's
    /// output, a format reused for each word, `"$*"`.
    ///
    /// [`Val::repeated`]: super::value::Val::repeated
    Repeated(Rc<Expr>),
    /// A case change (`${x^^}`, `declare -u`): letters of either case.
    Cased(Rc<Expr>),
    /// What a program's output model says it prints (`wc`'s counts): only where nothing in
    /// the command may change what the program's name runs (`PATH`, `hash`, …); else
    /// text the guard does not know.
    Modelled(Rc<Expr>),
    /// zsh's arithmetic result where its text pastes values in (`$(( $a + 1 ))`): a
    /// number, or letters (an output base, `[##16]` prints `FF`) where a value pasted in
    /// may hold a `[` (the first), or one pasted right after a `[` a `#` (the second).
    ZshArith(Rc<Expr>, Rc<Expr>),
    /// What `eval` of computed text may assign any variable (`n=x; eval "$n=\$k"`): any
    /// heredoc or run-time text the value holds (the variables', the text's, what it
    /// reads), as any such text. (Even where the text is heredoc text, which it runs
    /// explicitly: a harmless piece of heredoc text in it must not hide the rest.)
    /// For a command named at run time (the second: its name), only where the name may
    /// be a builtin that does what the gate says ([`super::builtins::may_be`]).
    EvalAssigns(Rc<Expr>, Option<(Rc<Expr>, super::builtins::Gate)>),
    /// What `.` or `source` may copy into any variable: any heredoc text the value
    /// holds, as any such text. Unlike `eval`'s, it makes no name count as assigned at
    /// run time where the value holds no heredoc text (the sourced file's own text and
    /// names are its own, explicit: [`super::builtins`]'s `sourced`).
    SourceCopies(Rc<Expr>),
    /// The same, of the data such a run is given (its input; a command named at run
    /// time's arguments too): kept where what the run itself assigns is left out, for
    /// what it leaves the rest of the command (`c=read; $c -r r <<'EOF'`).
    RunCopies(Rc<Expr>, Option<(Rc<Expr>, super::builtins::Gate)>),
    /// An array's first element as a command's name (`"${cmd[@]}"`, `$cmd`): the plain
    /// first words of the lists it is given, where it is given nothing else; else its
    /// value.
    Head(Var),
    /// Names of files on disk, which the command may have made from heredoc text: where
    /// the value may be a glob (an unquoted expansion holding `*`, `?` or `[`), or, with
    /// `option`, an option word (`wc $o` with `o=--files0-from=-`, `grep -c $o` with
    /// `o=-r`); else nothing. (The environment's text counts for neither: its choice.)
    Files { inner: Rc<Expr>, option: bool },
    /// Field `index` of each line `read -r` splits with `IFS` (`last`: the rest of the
    /// line, for the last name).
    Field {
        inner: Rc<Expr>,
        index: usize,
        last: bool,
    },
}

/// A value's expression: the join of its sources.
#[derive(Clone, Debug, Default)]
pub(super) struct Expr(pub Vec<Src>);

impl Expr {
    pub fn val(v: Val) -> Expr {
        Expr(vec![Src::Val(v)])
    }

    pub fn lit(t: &[u8]) -> Expr {
        Expr::val(Val::lit(t))
    }

    pub fn unknown() -> Expr {
        Expr::val(Val::unknown())
    }

    pub fn var(v: Var) -> Expr {
        Expr(vec![Src::Var(v)])
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn join(&mut self, other: Expr) {
        self.0.extend(other.0);
    }

    /// Pieces glued: one piece is itself.
    pub fn glue(mut parts: Vec<Expr>) -> Expr {
        parts.retain(|p| !p.is_empty());
        match parts.len() {
            0 => Expr::lit(b""),
            1 => parts.pop().unwrap_or_default(),
            _ => Expr(vec![Src::Glue(parts)]),
        }
    }

    pub fn part(self, extra: ByteSet) -> Expr {
        Expr(vec![Src::Part(Rc::new(self), extra)])
    }

    pub fn substring(self) -> Expr {
        Expr(vec![Src::Sub(Rc::new(self))])
    }

    pub fn wild(self) -> Expr {
        Expr(vec![Src::Wild(Rc::new(self))])
    }

    pub fn escaped(self) -> Expr {
        Expr(vec![Src::Escaped(Rc::new(self))])
    }

    pub fn program_quoted(self) -> Expr {
        Expr(vec![Src::ProgramQuoted(Rc::new(self))])
    }

    pub fn repeated(self) -> Expr {
        Expr(vec![Src::Repeated(Rc::new(self))])
    }
}

/// One run of text the guard does not read ([`Facts::unread_runs`]).
#[derive(Debug)]
pub(super) struct UnreadRun {
    /// Where its text starts, and the command that runs it (the `$_` that command sets is
    /// its own text).
    pub at: u32,
    pub command_at: u32,
    /// For a command named at run time, its name: it may leave attributes or options only
    /// where the name may be a builtin that sets them (`c=declare; $c -i x`); a program's
    /// output or the environment's text run as a name is explicit (`$PYTHON -`).
    pub name: Option<Expr>,
    /// The variables whose whole values are its text, and nothing else (`eval "$v"`).
    pub explicit: Vec<Var>,
    /// The first assignment recorded after it, and the first that may run after it (0 in
    /// a loop, a function, or text that runs later); the first site that may run after it.
    pub index: usize,
    pub from: usize,
    pub from_site: usize,
    /// A call of this function with its first argument as the name: it counts only where
    /// the function runs its arguments (`run(){ "$@"; }`, [`Facts::positional_runners`]),
    /// whatever the order of the call and the definition; its attributes are the
    /// function's own run's.
    pub call_of: Option<Rc<[u8]>>,
    /// Its name is made of the positional parameters (`"$@"`, `$1`): a function's own
    /// arguments, which the calls' first arguments already stand for.
    pub positional: bool,
}

/// Who an assignment assigns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    Var(Var),
    /// A variable named at run time: any.
    Any,
}

/// A hidden evaluator and the value that reaches it.
#[derive(Debug)]
pub(super) struct Site {
    pub at: u32,
    pub evaluator: Evaluator,
    /// The construct, for the message (`$((...))`, `${!name}`, `unset`…).
    pub what: &'static str,
    pub value: Expr,
    /// In the unquoted body of this reading's heredoc `n`.
    pub in_body: Option<usize>,
    /// A subscript of this array (skipped when it is associative: its keys are text).
    pub array: Option<Var>,
    /// Only with this zsh option on (flow-insensitively: anywhere in the command).
    pub needs: Option<Needs>,
    /// Recorded in text that may run later than where it is written ([`Facts::deferred`]).
    pub later: bool,
}

/// A zsh option an evaluator depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Needs {
    PromptSubst,
    GlobSubst,
    /// The variable may be an indexed array (see the solver's `is_array`).
    Array(Var),
    /// The value may start with `(` (bash's `declare` reads such a value given to an
    /// array as a list).
    ListValue,
    /// The command named at run time that is [`Facts::unread_runs`]'s entry may be a
    /// builtin that evaluates its arguments (`c=test; $c -v "$k"`, `c=unset; $c "$k"`).
    Builtin(usize),
}

/// A change to how text read after it is read, which the reader does not follow.
#[derive(Debug)]
pub(super) struct Change {
    pub at: u32,
    pub what: &'static str,
    /// The input unit it runs in.
    pub unit: usize,
    /// When it is a change at all.
    pub when: When,
    /// Text read in later units is read with it (else only text read again when it runs:
    /// substitutions, `eval` text; the reader follows what it defines for later units).
    pub later_units: bool,
    /// Made in a subshell (`$(…)`, backquotes, `<(…)`) that ends here: only text inside
    /// it is read with it.
    pub scope_end: Option<u32>,
}

/// When a possible change is one.
#[derive(Debug)]
pub(super) enum When {
    Always,
    /// Text run again that may define an alias (a value expanded as a prompt, `mapfile`'s
    /// callback): only where the command spells no `<<`, and then where the value may hold
    /// an expansion (`$`, a backquote, an escape) and a `<` (the alias may make a heredoc
    /// operator of it).
    MakesOperator(Expr),
    /// A special variable any value of which changes reading (a zsh global or suffix
    /// alias table's entry, `histchars`): with no heredoc operator spelled in the
    /// command, only a value that may hold a `<` (one an alias makes a heredoc's).
    AnyValue(Expr),
    /// A locale: where the value may name one that is not plain (the environment's counts
    /// as plain where the guard's own environment names plain locales).
    Locale(Expr),
    /// An alias's value that may hold bytes that reshape the text after it.
    Reshapes(Expr),
    /// An alias named by a word the command does not fix: when the name may be heredoc
    /// text (then any later command's).
    HeredocName(Expr),
    /// An assignment to a name computed at run time: when the name may be a special
    /// variable that changes reading (an alias table's entry, `histchars`…) and, for
    /// some, the value may reshape text.
    AliasEntry {
        name: Expr,
        value: Expr,
    },
    /// A command named at run time, which may be `alias`: when a word `name=value` of it
    /// may have a value that reshapes text.
    AliasWords(Expr),
    /// `eval` of text computed at run time, which may define an alias that makes a
    /// later word a heredoc operator no line closes: when a heredoc's text comes after it
    /// (then an unquoted body's), and the text spells `alias` (`spelled`) or its value may
    /// (`other_first`: the text starts with another command's name, so only a separator
    /// in the value can start `alias`).
    /// (`raw_operator`: its words as written may make a heredoc operator once expanded:
    /// a `<`, an escape `$'\x3c'` or a zsh flag's padding `${(l:2::<:)q}`.)
    EvalAlias {
        spelled: bool,
        other_first: bool,
        raw_operator: bool,
        text: Expr,
    },
}

/// A word the reader gave up on (too long, too deep), where the judge needs its value.
#[derive(Debug)]
pub(super) struct Unread {
    pub at: u32,
    /// In the unquoted body of this reading's heredoc `n`.
    pub in_body: Option<usize>,
    pub what: &'static str,
}

/// zsh's `functions -c FROM TO`: (`FROM`, `TO`), a name computed at run time empty.
pub(super) type FunctionCopy = (Rc<[u8]>, Rc<[u8]>);

/// Everything the walk found in one reading.
#[derive(Default)]
pub(super) struct Facts {
    pub names: Names,
    /// Every assignment: who, what, where.
    pub assigns: Vec<(Target, Expr, u32)>,
    pub substs: HashMap<u32, Expr>,
    pub sites: Vec<Site>,
    /// Variables with the integer attribute: every value assigned is arithmetic.
    pub integers: Vec<(Var, u32)>,
    /// The integer attribute given to a name computed at run time.
    pub any_integer: Option<u32>,
    /// The nameref attribute given to a name computed at run time.
    pub any_nameref: Option<u32>,
    /// The command may put a program under a modelled program's name
    /// (`super::places_programs`): what such a name prints is any text.
    pub places_programs: bool,
    /// Text run that the guard does not read (`eval` of computed text, a command named at
    /// run time): what it runs is explicit, but it may give any name the integer or
    /// nameref attribute, or turn on `set -x` (zsh: `PROMPT_SUBST`, `GLOB_SUBST`), for the
    /// command's later lines (`c=-i; eval "declare $c x"; x=$k`).
    pub unread_runs: Vec<UnreadRun>,
    /// How deep the walk is in text that may run later than where it is written (a
    /// function's body, `eval` and `trap` text), and in loops.
    pub deferred: u32,
    pub repeating: u32,
    /// For each assignment: recorded in text that runs later.
    pub assign_deferred: Vec<bool>,
    /// Namerefs whose target is computed: reads are any variable, writes go to any.
    pub computed_refs: Vec<Var>,
    /// Variables that are associative arrays.
    pub assoc: Vec<Var>,
    /// Variables made arrays by a declaration or a builtin that fills one (`declare -a`,
    /// `read -a`, `mapfile`).
    pub arrays: Vec<Var>,
    /// The keys an array is given as literal text (`a[node]=…`, `a=([node]=…)`).
    pub literal_keys: Vec<(Var, Rc<[u8]>)>,
    /// Arrays given a key computed at run time (`a[$k]=…`): any text may be a key.
    pub computed_keys: Vec<Var>,
    /// Variables whose case attribute changes the bytes assigned.
    pub case_changed: Vec<Var>,
    /// A case attribute given to a name computed at run time: any variable's bytes may be
    /// changed.
    pub any_case: bool,
    /// Variables that are one another's (a nameref to a fixed name, zsh's tied arrays).
    pub same: Vec<(Var, Var)>,
    /// Calls of commands by a fixed name (empty: named at run time), their arguments and
    /// their standard input: a function's positional parameters and input.
    pub calls: Vec<(Rc<[u8]>, Expr, Expr)>,
    /// Arrays given a list whose first element is a plain word (`cmd=(kubectl apply -f -)`),
    /// with the index of that assignment: the name `"${cmd[@]}"` runs, where every
    /// assignment to the array is such a list ([`Src::Head`]).
    pub array_heads: Vec<(Var, usize, Rc<[u8]>)>,
    /// Functions whose body runs their positional parameters as a command (`"$@"`).
    pub positional_runners: Vec<Rc<[u8]>>,
    /// For each call, what its first argument may be where it may name a builtin that
    /// assigns (`ensure read x` gives a function that runs `"$@"` one): see
    /// [`FIRST_ARG`].
    pub call_first: Vec<Expr>,
    /// Functions defined.
    pub functions: Vec<Rc<[u8]>>,
    /// zsh's `functions -c FROM TO`: calls of `TO` run `FROM`'s body (an empty name: one
    /// computed at run time, which may be any).
    pub function_copies: Vec<FunctionCopy>,
    pub changes: Vec<Change>,
    /// Text read again when it runs (a substitution, `eval` text), with its unit.
    pub rereads: Vec<(u32, usize)>,
    /// A function body holds text read again when it runs: a function defined before a
    /// change may be called after it, so that text is read after any change.
    pub function_rereads: bool,
    /// The command declares a nameref (`declare -n`, `local -n`).
    pub has_nameref: bool,
    /// `printf` given one computed word that stays one field, at these offsets with what
    /// it prints: it assigns nothing, but where a nameref to `a[@]` may make the word
    /// several (bash 5.2), it may be `-v`.
    pub one_word_printfs: Vec<(u32, Expr)>,
    /// The last input unit that holds a command.
    pub last_unit: usize,
    /// `set -x` (PS4 is then a prompt expanded before every command).
    pub xtrace: Option<u32>,
    /// `set -v`: the shell echoes the text it reads (a substitution's too, a heredoc's
    /// body in it) to standard error.
    pub verbose: bool,
    /// zsh options that make values evaluate.
    pub prompt_subst: bool,
    pub glob_subst: bool,
    pub unread: Vec<Unread>,
    /// A function the shell may run between a loop's reads: one named like a builtin a
    /// loop counts on, a zsh hook, or one named at run time.
    pub hooks: bool,
}

/// The judge's own name for what a function's first positional parameter may be (the
/// name `"$@"` runs): every call's first argument, and every value the positional
/// parameters are otherwise given (`set --`, zsh's `argv`).
pub(super) const FIRST_ARG: &[u8] = b"\0first";

/// The judge's own name for a function whose name the walk does not know (zsh expands a
/// definition's name: `=cat() { … }`): in [`Facts::positional_runners`], any call may be
/// a call of it.
pub(super) const ANY_FUNCTION: &[u8] = b"\0any function";

/// The name of the call a zsh command of redirections alone makes (`$NULLCMD`'s): the
/// solver names it `cat`, or any where the command may set `NULLCMD`.
pub(super) const NULL_COMMAND: &[u8] = b"\0null command";

/// [`ANY_FUNCTION`] narrowed by what its name's word shows: every name it may take starts
/// with `prefix` and ends with `suffix` (`function _${p}_max`, `function _nav_{up,down}`).
pub(super) fn any_function_fitting(prefix: &[u8], suffix: &[u8]) -> Vec<u8> {
    let mut n = ANY_FUNCTION.to_vec();
    n.push(0);
    n.extend_from_slice(prefix);
    n.push(0);
    n.extend_from_slice(suffix);
    n
}

impl Facts {
    /// A write to a variable no text names (through a nameref whose target is computed, by
    /// a `printf` whose `-v` a nameref may give): any variable may get the value, and the
    /// name may be one whose change the readings do not follow.
    pub fn write_to_unnamed(&mut self, at: u32, value: Expr, what: &'static str) {
        self.assign(Target::Any, value.clone(), at);
        self.changes.push(Change {
            at,
            what,
            unit: 0,
            when: When::AliasEntry {
                name: Expr::unknown(),
                value,
            },
            later_units: true,
            scope_end: None,
        });
    }

    pub fn assign(&mut self, target: Target, value: Expr, at: u32) {
        if !value.is_empty() {
            if let Target::Var(v) = target
                && self.names.name(v) == b"@"
            {
                let first = self.names.id(FIRST_ARG);
                self.assigns.push((Target::Var(first), value.clone(), at));
                self.assign_deferred.push(self.deferred > 0);
            }
            self.assigns.push((target, value, at));
            self.assign_deferred.push(self.deferred > 0);
        }
    }
}
