//! The hidden evaluators: the rules of bash and zsh that evaluate a value's text although
//! no word of the command says "run this" (measured in every shell: the team's
//! `hidden-evaluators.md`). This list, not a list of flows, is what must be complete: a
//! value that reaches one of these is accepted only when the guard can show what it is.
//!
//! Each evaluator judges a [`Val`] by the bytes its heredoc text may hold and by what its
//! fixed texts name:
//! - **arithmetic** evaluates a value as an expression: a subscript in it (`a[…]`) is
//!   expanded (a `$(…)`, a backquote, or in bash 3.2 a backslash-escaped one, runs), and
//!   every name in it is a variable evaluated in turn;
//! - a **subscript expanded again** (`(( a[$v] ))` before bash 5.2, `unset "a[$v]"`,
//!   `read "a[$v]"`): a `$` or a backquote in the value runs, then the subscript is
//!   arithmetic;
//! - a **name** (`${!v}`, a nameref, `unset "$v"`, `declare "$v=1"`, `[[ -v $v ]]`): a
//!   subscript in the value is arithmetic;
//! - **prompt expansion** (`${v@P}`, `PS4` under `set -x`, zsh `print -P` and `(%%)` with
//!   `PROMPT_SUBST`), a **word list** expanded again (`compgen -W`, `declare -a "a=($v)"`)
//!   and zsh's **`(e)`** flag expand the value as a string: a `$` or a backquote in it
//!   runs;
//! - a zsh **glob pattern** made of a value (`${~v}`, `GLOB_SUBST`): a qualifier, written
//!   in parentheses, runs code.
//!
//! Text the command fixes is the author's code wherever it is evaluated; what it names
//! (a variable in arithmetic, an expansion in a prompt) is judged in turn.

use super::value::{ByteSet, Val};

/// Bytes that make an expansion in a subscript or a string: `$`, a backquote, and a
/// backslash (bash 3.2 removes backslashes from a subscript before it expands it).
const EXPANDING: ByteSet = ByteSet::of_const(b"$`\\");

/// Whether text made of these bytes may expand something when it is expanded again: a
/// `$`, a backquote, a backslash, or a process substitution (`<(…)`, `>(…)`, which word
/// lists and bash 3.2's subscripts and `${!x}` run too).
fn expanding(b: ByteSet) -> bool {
    b.any_of(&EXPANDING) || (b.has(b'(') && (b.has(b'<') || b.has(b'>')))
}

/// [`expanding`] for a text known exactly.
fn expanding_text(t: &[u8]) -> bool {
    t.iter().any(|c| EXPANDING.has(*c)) || t.windows(2).any(|w| matches!(w, b"<(" | b">("))
}

/// Bytes that can start a name (an identifier in arithmetic).
pub(super) const NAME_START: ByteSet =
    ByteSet::of_const(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_");

/// What evaluates a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Evaluator {
    Arithmetic,
    Subscript,
    Name,
    Prompt,
    WordList,
    ZshExpansion,
    ZshGlob,
}

impl Evaluator {
    /// A few words for a person: what the evaluator does with the value.
    pub fn does(self) -> &'static str {
        match self {
            Evaluator::Arithmetic => "evaluates it as arithmetic (a subscript in it runs)",
            Evaluator::Subscript => "expands it again as a subscript (a $(...) in it runs)",
            Evaluator::Name => "takes it as a variable's name (its subscript runs)",
            Evaluator::Prompt => "expands it as a prompt (a $(...) in it runs)",
            Evaluator::WordList => "expands it again as words (a $(...) in it runs)",
            Evaluator::ZshExpansion => "expands it again (a $(...) in it runs)",
            Evaluator::ZshGlob => "uses it as a glob pattern (a qualifier in it runs code)",
        }
    }

    /// The stable name of the evaluator (explain's JSON).
    pub fn id(self) -> &'static str {
        match self {
            Evaluator::Arithmetic => "arithmetic",
            Evaluator::Subscript => "subscript",
            Evaluator::Name => "name",
            Evaluator::Prompt => "prompt",
            Evaluator::WordList => "word-list",
            Evaluator::ZshExpansion => "zsh-expansion",
            Evaluator::ZshGlob => "zsh-glob",
        }
    }
}

/// Deepest chain of fixed texts followed through the evaluators they reach (a prompt
/// whose text expands `${w@P}`, whose text…); deeper is dangerous (fail closed).
const MAX_DEPTH: usize = 8;

/// What the judge knows of the variables a value can name.
pub(super) trait Refs {
    /// What variable `name` may hold.
    fn var(&self, name: &[u8]) -> Val;
    /// Whether the shell judged is zsh.
    fn zsh(&self) -> bool;
    /// Whether variable `name` holds a value that arithmetic would run heredoc text from
    /// (the solver's fixed point over every variable).
    fn arith_dangerous(&self, name: &[u8]) -> bool;
    /// Whether some such variable has a name made only of these bytes.
    fn arith_dangerous_named_by(&self, bytes: &ByteSet) -> bool;
    /// Whether the command itself made some variable hold such a value (the environment's
    /// text can name it; the environment is the user's, not the author's).
    fn arith_dangerous_made(&self) -> bool;
    /// What a fixed text names or runs when it is evaluated as arithmetic.
    fn arith_refs(&self, text: &[u8]) -> LitRefs;
    /// The evaluators a fixed text reaches when it is expanded as a string (a prompt, a
    /// word list): each with the variable it gives them (`None`: a value the guard does
    /// not know, such as a substitution's output).
    /// `output_evaluated`: what the text's substitutions print is evaluated in turn (a
    /// subscript), so a substitution there is text the guard does not know.
    fn string_refs(&self, text: &[u8], output_evaluated: bool)
    -> Vec<(Evaluator, Option<Vec<u8>>)>;
    /// Whether a command name may run code the command defines: a function, an alias, a
    /// trap, or a zsh hook (`command_not_found_handler`, `chpwd`, `TRAPZERR`, …).
    fn defines_code(&self) -> bool;
}

/// What a fixed text does when evaluated as arithmetic.
#[derive(Default)]
pub(super) struct LitRefs {
    /// Names it evaluates (identifiers, and parameters expanded in its subscripts).
    pub names: Vec<Vec<u8>>,
    /// A substitution in a subscript: its output is evaluated in turn.
    pub runs: bool,
}

/// Whether `v`, reaching `e`, can make the shell run heredoc text (or text that may be
/// heredoc text). `strict`: the evaluator is itself in an unquoted heredoc body, so what
/// the command fixed runs because heredoc text asked for it: fixed text counts as heredoc
/// text there.
pub(super) fn dangerous(e: Evaluator, v: &Val, refs: &dyn Refs, strict: bool) -> bool {
    if strict && (v.fixed.is_some() || !v.lits.is_empty()) {
        // The names a fixed text evaluates stay names, judged as they are.
        if v.lits.iter().any(|l| lit_reaches(e, l, refs, 0)) {
            return true;
        }
        let mut s = v.as_heredoc();
        s.env = v.env;
        return reaches(e, &s, refs, 0);
    }
    reaches(e, v, refs, 0)
}

fn reaches(e: Evaluator, v: &Val, refs: &dyn Refs, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    if v.htexts.iter().any(|t| text_reaches(e, t, refs)) {
        return true;
    }
    let lits = || v.lits.iter().any(|l| lit_reaches(e, l, refs, depth));
    // The environment's text in arithmetic names variables too (`$((MACHTYPE))` evaluates
    // `x86_64`): dangerous when the command made some variable so.
    let env = || v.env && refs.arith_dangerous_made();
    match e {
        Evaluator::Arithmetic => arith(v, refs) || lits() || env(),
        Evaluator::Subscript => {
            v.heredoc.is_some_and(expanding)
                || v.fixed.is_some_and(expanding)
                || arith(v, refs)
                || lits()
                || env()
        }
        Evaluator::Name => {
            v.heredoc
                .is_some_and(|h| h.has(b'[') && (expanding(h) || named(&h, refs)))
                || v.fixed
                    .is_some_and(|f| f.has(b'[') && (expanding(f) || named(&f, refs)))
                || lits()
        }
        Evaluator::Prompt | Evaluator::WordList | Evaluator::ZshExpansion => {
            v.heredoc.is_some_and(|h| {
                expanding(h) || (e == Evaluator::WordList && h.has(b'[') && named(&h, refs))
            }) || v.fixed.is_some_and(expanding)
                || lits()
        }
        // (A qualifier's `[beg,end]` is evaluated as a subscript is: round 88.)
        Evaluator::ZshGlob => {
            v.heredoc.is_some_and(|h| h.has(b'('))
                || v.fixed.is_some_and(|f| {
                    f.has(b'(')
                        && (f.has(b'e')
                            || f.has(b'+')
                            || (f.has(b'[') && (expanding(f) || named(&f, refs))))
                })
                || lits()
        }
    }
}

/// Heredoc text known exactly, reaching `e`: judged by what it says.
fn text_reaches(e: Evaluator, t: &[u8], refs: &dyn Refs) -> bool {
    match e {
        // A subscript that expands something (the text glued to a name may make one), or
        // a name of a dangerous variable.
        Evaluator::Arithmetic => {
            subscript_expands(t)
                || named_in(t, refs)
                || assigns_special(t, refs.zsh())
                || zsh_output_base(t, refs.zsh())
        }
        Evaluator::Subscript => {
            expanding_text(t)
                || subscript_expands(t)
                || named_in(t, refs)
                || assigns_special(t, refs.zsh())
        }
        Evaluator::Name => {
            let Some(open) = t.iter().position(|&c| c == b'[') else {
                return false;
            };
            if !subscriptable_name(&t[..open], refs.zsh()) {
                // Not a name: the shell refuses it before it evaluates anything.
                return false;
            }
            // A `]` may be quoted or escaped inside the subscript, and bash 3.2 and zsh
            // evaluate it even when text follows: from the first `[` to the last `]`.
            let close = t.iter().rposition(|&c| c == b']').filter(|&c| c > open);
            let sub = t
                .get(open + 1..close.unwrap_or(t.len()))
                .unwrap_or_default();
            expanding_text(sub) || named_in(sub, refs) || assigns_special(sub, refs.zsh())
        }
        Evaluator::Prompt | Evaluator::WordList | Evaluator::ZshExpansion => expanding_text(t),
        Evaluator::ZshGlob => t.contains(&b'('),
    }
}

/// Whether a name can take a subscript that is evaluated: an identifier, or in zsh (its
/// `(P)`) a special parameter (`@`, `*`, `#`, `?`, `-`, `$`, `!`, `_`) or a positional
/// one; bash refuses those before it evaluates anything.
fn subscriptable_name(name: &[u8], zsh: bool) -> bool {
    crate::shell::syntax::legal_identifier(name)
        || (zsh
            && ((!name.is_empty() && name.iter().all(u8::is_ascii_digit))
                || matches!(name, b"@" | b"*" | b"#" | b"?" | b"-" | b"$" | b"!" | b"_")))
}

/// Whether a subscript's text expands anything when it is expanded: a `$`, a backquote or
/// a process substitution that no backslash quotes; or, with a subscript nested in it, one that a backslash
/// quotes (bash 3.2 removes the backslashes, then expands the nested subscript again).
fn expands(sub: &[u8]) -> bool {
    let mut i = 0;
    while i < sub.len() {
        match sub[i] {
            b'\\' => i += 1,
            b'$' | b'`' => return true,
            // A process substitution (bash 3.2 runs it in a subscript).
            b'<' | b'>' if sub.get(i + 1) == Some(&b'(') => return true,
            _ => {}
        }
        i += 1;
    }
    sub.contains(&b'[') && escaped_expansion(sub)
}

/// Whether heredoc text evaluated as arithmetic names a dangerous variable.
fn named_in(t: &[u8], refs: &dyn Refs) -> bool {
    if !t.iter().any(|c| NAME_START.has(*c)) {
        return false;
    }
    refs.arith_refs(t)
        .names
        .iter()
        .any(|n| refs.arith_dangerous(n))
}

/// Text evaluated as arithmetic, or glued to a name in arithmetic (`$((a$v))`): a `[`
/// with an expansion after it (a `]` may be quoted or escaped: anything after the first
/// `[` may be the subscript).
fn subscript_expands(t: &[u8]) -> bool {
    t.iter()
        .position(|&c| c == b'[')
        .is_some_and(|open| expands(&t[open + 1..]))
}

/// Whether removing a text's backslashes (a backslash-newline whole, else the backslash)
/// makes a `$(`.
fn escaped_expansion(t: &[u8]) -> bool {
    if !t.contains(&b'\\') {
        return false;
    }
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        match (t[i], t.get(i + 1)) {
            (b'\\', Some(b'\n')) => i += 2,
            (b'\\', Some(&c)) => {
                out.push(c);
                i += 2;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out.windows(2).any(|w| w == b"$(") || out.contains(&b'`')
}

/// Whether some arithmetic-dangerous variable has a name made of these bytes.
fn named(bytes: &ByteSet, refs: &dyn Refs) -> bool {
    bytes.any_of(&NAME_START) && refs.arith_dangerous_named_by(bytes)
}

/// Arithmetic on `v`'s heredoc and inexact fixed text: a subscript that expands, a name
/// of a dangerous variable, or an assignment to one that changes reading.
fn arith(v: &Val, refs: &dyn Refs) -> bool {
    [v.heredoc, v.fixed].into_iter().flatten().any(|b| {
        (b.has(b'[') && expanding(b))
            || named(&b, refs)
            || may_assign_special(b, refs.zsh())
            || (refs.zsh() && b.has(b'[') && b.has(b'#'))
    })
}

/// Whether text zsh evaluates as arithmetic may set the output base (`[##16]`): the
/// result is then letters (`FF`), which name variables wherever it is evaluated again.
fn zsh_output_base(t: &[u8], zsh: bool) -> bool {
    zsh && crate::search::find(t, b"[#").is_some()
}

/// Whether a text known exactly, evaluated as arithmetic, may assign a variable whose
/// value changes how later text is read (`histchars=123` makes `3` zsh's comment
/// character, `BASH_COMPAT=31`, `POSIXLY_CORRECT++`): it names one. (The assignment may
/// be in the text around it: `n=histchars; (( $n = 123 ))`.)
fn assigns_special(t: &[u8], zsh: bool) -> bool {
    special_names(zsh).any(|(name, _)| crate::search::find(t, name).is_some())
}

/// The same, for text known only by its bytes (but for the names whose change the
/// readings cover: `super::solve::covered_by_readings`).
fn may_assign_special(b: ByteSet, zsh: bool) -> bool {
    special_names(zsh).any(|(name, inc)| {
        !super::solve::covered_by_readings(name)
            && b.holds_all(name)
            && (b.has(b'=') || (inc && (b.has(b'+') || b.has(b'-'))))
    })
}

/// The special variables of the dialect whose assignment changes reading, each with
/// whether `++`/`--` can give it a value that does (a number: zsh's `histchars` takes
/// one only through `=`; `HISTCHARS++` only steps a number an earlier assignment gave
/// it, and that assignment is a change of its own).
fn special_names(zsh: bool) -> impl Iterator<Item = (&'static [u8], bool)> {
    super::walk::SPECIAL_CHANGES
        .iter()
        .filter(move |n| super::walk::special_change(n, zsh).is_some())
        .map(|n| {
            let inc = n.first().is_some_and(u8::is_ascii_uppercase) && *n != b"HISTCHARS";
            (*n, inc)
        })
}

/// What a fixed text reaches through `e`: what it names, judged in turn.
fn lit_reaches(e: Evaluator, text: &[u8], refs: &dyn Refs, depth: usize) -> bool {
    match e {
        Evaluator::Arithmetic => lit_arith(text, refs),
        Evaluator::Name => {
            let Some(open) = text.iter().position(|&c| c == b'[') else {
                return false;
            };
            // From the first `[` to the last `]` (bash 3.2 and zsh evaluate a subscript
            // with text after it): judged as one subscript.
            let close = text.iter().rposition(|&c| c == b']').filter(|&c| c > open);
            let sub = text
                .get(open + 1..close.unwrap_or(text.len()))
                .unwrap_or_default();
            lit_arith(sub, refs) || lit_string(sub, refs, depth, true)
        }
        Evaluator::Subscript => lit_string(text, refs, depth, true) || lit_arith(text, refs),
        // (A prompt decodes its escapes before it expands: `\044((v))`, `$\[((v))`, and
        // zsh's `print -P` its echo escapes, `\x24((v))`, round 102.)
        Evaluator::Prompt => {
            lit_string(text, refs, depth, false)
                || (text.contains(&b'\\') && lit_string(&prompt_decoded(text), refs, depth, false))
        }
        // (A list read again as a compound assignment evaluates each `[key]=` as an
        // indexed array's subscript: `y='[x]=1'; declare -a "arr=($y)"`, round 102.)
        Evaluator::WordList => {
            lit_string(text, refs, depth, false)
                || list_keys(text).any(|k| lit_arith(k, refs) || lit_string(k, refs, depth, true))
        }
        Evaluator::ZshExpansion => lit_string(text, refs, depth, false),
        // A qualifier the command fixes that runs code (`e:…:`, `+name`) runs it where the
        // value is used: code the guard does not follow there. One that picks a range of
        // the matches (`[beg,end]`, `/([x])`) evaluates it as a subscript (round 88). Glued
        // to other text of the pattern (`${~z}${~w}`), a qualifier may have opened before
        // this text (its code up to the last `)`) and any bracket may be part of a range.
        Evaluator::ZshGlob => {
            qualifier_code_reaches(qualifiers(text), refs)
                || (text.iter().any(|c| matches!(c, b'[' | b']'))
                    && text
                        .split(|c| matches!(c, b'(' | b')' | b'[' | b']' | b','))
                        .any(|part| lit_arith(part, refs) || lit_string(part, refs, depth, true)))
        }
    }
}

/// The keys of a list's `[key]=value` (`+=` too) elements, as written: from a `[` to the
/// first `]=` or `]+=` after it (a key may hold brackets of its own, `[z[0]]=1`).
fn list_keys(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    memchr::memchr_iter(b'[', text).filter_map(move |open| {
        let rest = text.get(open + 1..)?;
        let close = memchr::memmem::find_iter(rest, b"]")
            .find(|&k| rest[k + 1..].starts_with(b"=") || rest[k + 1..].starts_with(b"+="))?;
        rest.get(..close)
    })
}

/// Prompt text with the escapes a prompt (bash's `\[`, `\]`, `\nnn`) or zsh's `print`
/// (`\xHH`, `\0nnn`, `\uHHHH`) decodes before it expands: what the expansion may then
/// read. Other escapes are kept as written.
pub(super) fn prompt_decoded(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let rest = text.get(i + 1..).unwrap_or_default();
        let digits = |from: usize, max: usize, radix: u32| {
            let run = rest
                .iter()
                .skip(from)
                .take(max)
                .take_while(|d| char::from(**d).is_digit(radix))
                .count();
            let value = rest
                .get(from..from + run)
                .and_then(|d| u32::from_str_radix(std::str::from_utf8(d).ok()?, radix).ok());
            (run, value)
        };
        match rest.first() {
            Some(b'[' | b']') => i += 2,
            Some(b'x') => match digits(1, 2, 16) {
                (n, Some(v)) if n > 0 => {
                    out.push(v as u8);
                    i += 2 + n;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            },
            Some(b'u' | b'U') => match digits(1, 8, 16) {
                (n, Some(v)) if n > 0 && v < 0x80 => {
                    out.push(v as u8);
                    i += 2 + n;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            },
            Some(d) if d.is_ascii_digit() => {
                // (`\0nnn` in zsh's `print`: up to three digits after the 0.)
                let from = usize::from(*d == b'0' && rest.get(1).is_some_and(u8::is_ascii_digit));
                match digits(from, 3, 8) {
                    (n, Some(v)) if n > 0 => {
                        out.push((v & 0xff) as u8);
                        i += 1 + from + n;
                    }
                    _ => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The text of `text` that may be glob qualifiers: from its first `(`, or, glued after
/// another text's `(`, up to its last `)`.
fn qualifiers(text: &[u8]) -> &[u8] {
    let open = text.iter().position(|&c| c == b'(');
    let close = text.iter().rposition(|&c| c == b')');
    match (open, close) {
        (Some(o), _) => text.get(o..).unwrap_or_default(),
        (None, Some(c)) => text.get(..c).unwrap_or_default(),
        (None, None) => &[],
    }
}

/// The code of glob qualifiers `quals` (from their `(`, or glued text up to its `)`):
/// each `e` with a delimiter that closes after it (`e:…:`, `e{…}`), and whether a `+` and
/// a name (`+f`) runs a function. Text such as `(none)` holds none.
fn qualifier_code(quals: &[u8]) -> (Vec<&[u8]>, bool) {
    let mut code = Vec::new();
    let mut func = false;
    // (Read in turn as zsh reads them: an `e`'s code is skipped whole, and a `:` starts
    // the modifiers, where no qualifier is.)
    let mut i = 0;
    while let Some(&c) = quals.get(i) {
        i += 1;
        match c {
            b':' => break,
            b'+' => {
                func |= quals.get(i).is_some_and(|&n| {
                    NAME_START.has(n) || n.is_ascii_digit() || n == b'$' || n == b'`'
                });
            }
            b'e' => {
                let Some(&d) = quals.get(i) else { continue };
                let close = match d {
                    b'{' => b'}',
                    b'[' => b']',
                    b'<' => b'>',
                    b'(' => b')',
                    d => d,
                };
                let rest = quals.get(i + 1..).unwrap_or_default();
                if let Some(end) = rest.iter().position(|&c| c == close) {
                    code.push(rest.get(..end).unwrap_or_default());
                    i += end + 2;
                }
            }
            _ => {}
        }
    }
    (code, func)
}

/// Whether qualifier code the command fixes may reach heredoc text: any code but plain
/// words ([`plain_code`]), code that names a variable arithmetic would run heredoc text
/// from, any code where the command defines code a name may run (a function, an alias, a
/// trap, a hook: it reads what the command is given); a function it runs (`+f`), code the
/// guard does not follow. Code such as the
/// ` abov` of `(see above)` runs only a command named by the command's own words.
/// (`(e:'read -r l; let l':)` reads what the command is given and evaluates it.)
fn qualifier_code_reaches(quals: &[u8], refs: &dyn Refs) -> bool {
    let (code, func) = qualifier_code(quals);
    func || code
        .iter()
        .any(|c| !plain_code(c) || lit_arith(c, refs) || (!c.is_empty() && refs.defines_code()))
}

/// Builtins and words by which qualifier code may read, evaluate or assign text (an alias
/// table's entry among them), or run a function, or a command named otherwise.
const EVALUATING: &[&[u8]] = &[
    b"alias",
    b"eval",
    b"source",
    b".",
    b"read",
    b"typeset",
    b"declare",
    b"export",
    b"local",
    b"set",
    b"let",
    b"print",
    b"printf",
    b"builtin",
    b"command",
    b"functions",
    b"unalias",
    b"setopt",
    b"unsetopt",
    b"emulate",
    b"integer",
    b"float",
    b"readonly",
    b"zle",
    b"bindkey",
    b"autoload",
    b"vared",
    b"getopts",
    b"mapfile",
    b"readarray",
    b"unset",
    b"trap",
    b"exec",
    b"noglob",
    b"nocorrect",
    b"test",
    b"return",
    b"exit",
    b"shift",
    b"break",
    b"continue",
    b"repeat",
    b"sched",
    b"fc",
    b"r",
    b"zparseopts",
    b"zstyle",
    b"zmodload",
    b"enable",
    b"disable",
    b"hash",
    b"whence",
    b"type",
    b"which",
    b"kill",
    b"wait",
    b"fg",
    b"bg",
    b"jobs",
    b"limit",
    b"ulimit",
    b"cd",
    b"pushd",
    b"popd",
    b"chdir",
    b"dirs",
    b"getln",
    b"pushln",
    b"bye",
    b"logout",
    b"private",
    b"history",
    b"nameref",
    b"umask",
    b"disown",
    b"suspend",
    // The modules' builtins: numbers evaluated as arithmetic (`sysseek REPLY`, `zsystem
    // flock -t REPLY`, round 100), names assigned.
    b"sysseek",
    b"sysread",
    b"syswrite",
    b"sysopen",
    b"syserror",
    b"zsystem",
    b"zselect",
    b"ztcp",
    b"zsocket",
    b"zpty",
    b"zftp",
    b"zformat",
    b"zregexparse",
    b"strftime",
    b"zstat",
    b"stat",
    b"zgetattr",
    b"zsetattr",
    b"zdelattr",
    b"zlistattr",
    b"pcre_compile",
    b"pcre_match",
    b"pcre_study",
    b"ztie",
    b"zuntie",
    b"zgdbmpath",
    b"echotc",
    b"echoti",
    b"zcurses",
    b"compadd",
    b"compset",
    b"compdescribe",
    b"comparguments",
    b"compvalues",
    b"compquote",
    b"comptags",
    b"comptry",
    b"compfiles",
    b"compgroups",
    b"compctl",
    b"compcall",
    b"zcompile",
    b"zprof",
    b"getcap",
    b"setcap",
    b"clone",
];

/// Whether qualifier code is plain words (letters, digits, ` -_./,`) none of which is one
/// of [`EVALUATING`].
fn plain_code(c: &[u8]) -> bool {
    c.iter()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'-' | b'_' | b'.' | b'/' | b','))
        && !c.split(|&b| b == b' ').any(|w| EVALUATING.contains(&w))
}

/// Whether qualifier code the command fixes may assign a variable: any code but plain
/// words ([`plain_code`]).
fn qualifier_code_may_assign(quals: &[u8]) -> bool {
    let (code, func) = qualifier_code(quals);
    func || code.iter().any(|c| !plain_code(c))
}

/// A fixed text evaluated as arithmetic: a substitution in a subscript (its output is
/// evaluated), or a name of a dangerous variable.
fn lit_arith(text: &[u8], refs: &dyn Refs) -> bool {
    // (zsh takes letters past ASCII in names, which the reader does not name: any.)
    if zsh_output_base(text, refs.zsh()) || (refs.zsh() && !text.is_ascii()) {
        return true;
    }
    if !text
        .iter()
        .any(|c| NAME_START.has(*c) || *c == b'$' || *c == b'`')
    {
        return false;
    }
    let r = refs.arith_refs(text);
    r.runs || r.names.iter().any(|n| refs.arith_dangerous(n)) || assigns_special(text, refs.zsh())
}

/// A fixed text expanded as a string: the evaluators its own expansions reach, each
/// judged on the variable it gives them.
fn lit_string(text: &[u8], refs: &dyn Refs, depth: usize, output_evaluated: bool) -> bool {
    if !text.contains(&b'$') && !text.contains(&b'`') {
        return false;
    }
    refs.string_refs(text, output_evaluated)
        .into_iter()
        .any(|(inner, name)| match name {
            Some(n) => reaches(inner, &refs.var(&n), refs, depth + 1),
            None => true,
        })
}

/// Whether expanding `v` again as `e` does may assign a variable: text known to hold
/// `${name=…}` (`:=`, zsh's `::=`: [`Val::fixed_known_to_assign`]), a prompt's escape that
/// makes its `$` (`\044{…}`), zsh glob qualifiers (`(e:…:)`, `(+f)`), which run code in
/// the shell itself; arithmetic and a name expand text only in a subscript (`a[${x=…}]`).
/// (A `$(…)` runs in a subshell: what it assigns stays there.)
/// Only the text the command fixes counts: heredoc text there is the evaluators' own
/// finding where the command holds a heredoc, and run-time text (a program's output) that
/// defines an alias is the program's, as `eval "$(ssh-agent -s)"` is. Text known only by
/// its bytes counts where an exact text known to assign went into it: the bytes alone
/// (`$`, `{`, `=` somewhere in a join of many texts) would count most scripts' values.
/// (`named_elsewhere`: the command holds a nameref, which may name an alias table.)
pub(super) fn expands_assignment(v: &Val, e: Evaluator, named_elsewhere: bool) -> bool {
    let subscript = || v.fixed_bytes().is_some_and(|b| b.has(b'['));
    match e {
        Evaluator::ZshGlob => {
            v.lits
                .iter()
                .any(|t| qualifier_code_may_assign(qualifiers(t)))
                || v.fixed_letters()
                    .is_some_and(|b| b.has(b'(') && (b.has(b'e') || b.has(b'+')))
        }
        // (A prompt decodes its escapes first: `\044\173x\075…}`.)
        Evaluator::Prompt => {
            v.fixed_known_to_assign(named_elsewhere)
                || v.lits.iter().any(|l| {
                    use super::value::may_make;
                    may_make(l, b'$') && may_make(l, b'{') && may_make(l, b'=')
                })
        }
        Evaluator::Arithmetic | Evaluator::Name => {
            v.fixed_known_to_assign(named_elsewhere) && subscript()
        }
        _ => v.fixed_known_to_assign(named_elsewhere),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A prompt decodes bash's `\nnn` and drops `\[`/`\]`; zsh's `print` decodes `\xHH`,
    /// `\0nnn` and `\uHHHH`; other escapes stay as written (round 102).
    #[test]
    fn prompt_escapes_are_decoded_as_the_shells_decode_them() {
        assert_eq!(prompt_decoded(b"\\044((v))"), b"$((v))");
        assert_eq!(prompt_decoded(b"$\\[((v))\\]"), b"$((v))");
        assert_eq!(prompt_decoded(b"\\x24{!v}"), b"${!v}");
        assert_eq!(prompt_decoded(b"\\0044(x)"), b"$(x)");
        assert_eq!(prompt_decoded(b"\\u0024(x)"), b"$(x)");
        assert_eq!(prompt_decoded(b"\\w \\t"), b"\\w \\t");
    }

    /// A list read again evaluates each `[key]=` (or `[key]+=`) key, brackets inside it too.
    #[test]
    fn list_keys_are_each_element_s_key_to_its_own_closing_bracket() {
        let keys: Vec<&[u8]> = list_keys(b"[x]=1 [z[0]]+=2 [y] w=[q]").collect();
        assert_eq!(keys, vec![&b"x"[..], b"z[0]", b"0]"]);
    }

    struct NoVars;
    impl Refs for NoVars {
        fn var(&self, _: &[u8]) -> Val {
            Val::env()
        }
        fn arith_dangerous(&self, _: &[u8]) -> bool {
            false
        }
        fn arith_dangerous_made(&self) -> bool {
            false
        }
        fn zsh(&self) -> bool {
            false
        }
        fn arith_dangerous_named_by(&self, _: &ByteSet) -> bool {
            false
        }
        fn arith_refs(&self, _: &[u8]) -> LitRefs {
            LitRefs::default()
        }
        fn defines_code(&self) -> bool {
            false
        }
        fn string_refs(&self, _: &[u8], _: bool) -> Vec<(Evaluator, Option<Vec<u8>>)> {
            Vec::new()
        }
    }

    #[test]
    fn heredoc_text_is_judged_by_its_bytes() {
        let payload = Val::heredoc(ByteSet::of(b"a[$(canary)]"));
        let numbers = Val::heredoc(ByteSet::of(b"12 34\n"));
        let words = Val::heredoc(ByteSet::of(b"name,qty\n"));
        for e in [Evaluator::Arithmetic, Evaluator::Name, Evaluator::Subscript] {
            assert!(dangerous(e, &payload, &NoVars, false), "{e:?}");
            assert!(!dangerous(e, &numbers, &NoVars, false), "{e:?}");
            assert!(!dangerous(e, &words, &NoVars, false), "{e:?}");
        }
        let dollar = Val::heredoc(ByteSet::of(b"$(canary)"));
        assert!(!dangerous(Evaluator::Arithmetic, &dollar, &NoVars, false));
        assert!(dangerous(Evaluator::Subscript, &dollar, &NoVars, false));
        assert!(dangerous(Evaluator::Prompt, &dollar, &NoVars, false));
        assert!(!dangerous(
            Evaluator::ZshGlob,
            &Val::heredoc(ByteSet::of(b"$x *.c")),
            &NoVars,
            false
        ));
        assert!(dangerous(
            Evaluator::ZshGlob,
            &Val::heredoc(ByteSet::of(b"/(e:x:)")),
            &NoVars,
            false
        ));
        // Run-time text: anything.
        assert!(dangerous(
            Evaluator::Arithmetic,
            &Val::unknown(),
            &NoVars,
            false
        ));
        // The environment's and fixed numbers: never.
        assert!(!dangerous(Evaluator::Prompt, &Val::env(), &NoVars, false));
        assert!(!dangerous(
            Evaluator::Arithmetic,
            &Val::number(),
            &NoVars,
            true
        ));
    }
}
