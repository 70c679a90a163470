//! What a word of a command expands to, read statically: its literal pieces (quotes
//! removed, `$'…'` decoded), the parameters it expands (with the operator applied), the
//! substitutions and arithmetic it holds, and whether it can turn into other words (glob,
//! brace expansion). The effects model decides from this what the word's value can be;
//! nothing here runs or guesses a value.

use super::text::Text;

/// Most pieces or nesting read in one word; past it the word counts as unknown.
const MAX_PIECES: usize = 4096;
const MAX_DEPTH: usize = 64;

/// A word, read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WordInfo {
    /// Command offsets of the word.
    pub start: u32,
    pub end: u32,
    /// What it is made of, in order.
    pub pieces: Vec<Piece>,
    /// Unquoted glob characters or brace expansion: it may become other words.
    pub many: bool,
    /// Brace expansion: it becomes other words.
    pub brace: bool,
    /// An unquoted `{` closed by an unquoted `}` (zsh expands braces after parameters
    /// and quote removal, `{a".."c}`, `{a$d c}`, and `BRACE_CCL` reads `{a-c}`).
    pub braced: bool,
    /// An expansion outside quotes: its value is split into words (and globbed).
    pub split: bool,
    /// A tilde the shell expands (`~`, `~user`).
    pub tilde: bool,
    /// The reading gave up on it (too long, too deep, not closed): its value is unknown.
    pub unread: bool,
    /// An unquoted `#`, `^` or `~` (not a tilde the shell expands): a pattern under zsh's
    /// EXTENDED_GLOB (`-A#` matches a file `-A`, `^x` every other name, round 102).
    pub zsh_pattern: bool,
    /// An unquoted `(`: zsh may read a glob qualifier (`*(e:…:)`), a group or `=(…)`
    /// there. (A quoted or escaped one is text in every shell.)
    pub paren: bool,
    /// It holds a process substitution (`<(…)`, `>(…)`): a file name whose content is
    /// what that substitution writes.
    pub process: bool,
    /// A compound assignment's value (`a=(x .)`): the pieces at which each element after
    /// the first starts.
    pub breaks: Vec<usize>,
}

/// A piece of a word.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Text that stands for itself (quotes removed).
    Lit(Vec<u8>),
    /// `$name`, `${…}` (boxed: a piece is mostly literal text, and a list of pieces is
    /// as wide as its widest kind).
    Param(Box<Param>),
    /// `$(…)`, `` `…` ``, `<(…)`, `>(…)`, bash 5.3 `${ …; }` at this command offset.
    Subst(u32),
    /// `$((…))`, `$[…]` (boxed, as a parameter is).
    Arith(Box<Arith>),
}

/// A parameter expansion.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub at: u32,
    /// An identifier, digits, or one special character (`@*#?-$!0_`).
    pub name: Vec<u8>,
    /// `${!name…}`: the value names the variable expanded.
    pub indirect: bool,
    pub op: ParamOp,
    /// `${name[sub]}` with a subscript that is not `@` or `*`: evaluated.
    pub subscript: Option<Box<Arith>>,
    /// The word of `:-`, `:=`, `:+`, `:?` (and without the colon).
    pub arg: Option<Box<WordInfo>>,
    /// The offset and length of `${name:off:len}`.
    pub slice: Vec<Arith>,
    /// zsh `${(e)name}`: the value is expanded again, its substitutions run.
    pub zsh_eval: bool,
    /// zsh `${~name}`, `$~name`: the value is a glob pattern (whose qualifiers can run
    /// code).
    pub zsh_glob: bool,
    /// zsh parameter flags (`(q)`, `(g::)`, `(j:…:)`…): the value may be transformed,
    /// its bytes changed.
    pub flags: bool,
    /// zsh `${(#)name}`: the value is evaluated as arithmetic (its character printed).
    pub zsh_char: bool,
    /// `${a[*]}`, `$*`: the elements joined with the first character of `IFS`.
    pub joined: bool,
    /// `$name[…]`: zsh's subscript (bash reads `[…]` as text after the value).
    pub zsh_subscript: Option<Box<Arith>>,
    /// zsh `${(k)a}`, `${a[(i)…]}`: the array's keys are in the value.
    pub zsh_keys: bool,
    /// zsh's `p` flag with `$name` in a flag's argument (`${(pj:$sep:)a}`): those words'
    /// values are in the value too.
    pub flag_words: Option<Box<WordInfo>>,
    /// Written in braces (`${name}`): zsh takes a `[` after the `}` for text, where it
    /// subscripts `$name[…]` (and `$@[…]`, `$#[…]`, …).
    pub braced: bool,
    /// zsh's nested expansion (`${${v}…}`, `${"$(cmd)"…}`): [`Param::arg`] is the inner
    /// one with what follows it, where zsh subscripts a `[` after the inner expansion.
    pub nested: bool,
    /// zsh's `${+name}`, `$+name` (a `+` among the leading `~^=+`): with nothing after the
    /// name but a subscript, `1` where the name is set, else `0`. (bash: `${+…}` is a bad
    /// substitution, which ends the shell; `$+name` is text.)
    pub zsh_set: bool,
}

/// What a parameter expansion does with the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamOp {
    /// `$x`, `${x}`.
    Plain,
    /// `${#x}`: a number.
    Length,
    /// `${x:-w}`, `${x-w}`: the value or the word.
    Default,
    /// `${x:=w}`, `${x=w}`: also assigns the word.
    Assign,
    /// `${x:+w}`, `${x+w}`: the word or nothing.
    Alternate,
    /// `${x:?w}`: the value (or an error).
    Error,
    /// Part of the value: `${x:1}`, `${x#p}`, `${x/p/r}`, case changes, `@` transforms.
    Part,
    /// `${x@P}`: prompt expansion of the value (it runs substitutions it holds).
    Prompt,
    /// `${!prefix*}`, `${!a[@]}`: names or keys.
    Names,
}

/// An arithmetic text: the names it reads and assigns, and what it expands first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Arith {
    pub at: u32,
    /// Identifiers read as variables (their values are evaluated in turn).
    pub names: Vec<Vec<u8>>,
    /// Identifiers assigned (`x=`, `x+=`, `x++`).
    pub assigned: Vec<Vec<u8>>,
    /// Parameter expansions inside, expanded before the evaluation.
    pub params: Vec<Param>,
    /// Substitutions inside.
    pub substs: Vec<u32>,
    /// Subscripts inside (`a[…]`), each evaluated too.
    pub subscripts: Vec<Arith>,
    /// Quotes, backslashes or backquotes the evaluation does not take as plain.
    pub odd: bool,
    /// Its text holds a `#` (zsh's output base `[##16]`, a constant in a base `16#ff`) other
    /// than a parameter's (`$#`, `${#x}`), or not all of it was read.
    pub hash: bool,
    /// A compound assignment's `[k]=`: evaluated, but its result is no part of the value.
    pub key: bool,
    /// Its text holds a byte past ASCII (zsh takes such letters in names).
    pub wide: bool,
    /// Its text holds a `[` that follows no name and no `]` (nor a blank after one): no
    /// subscript's, so zsh's output base (`[#16]`) where what an expansion pastes after it
    /// starts with a `#`.
    pub open_bracket: bool,
}

/// An assignment word: `name=value`, `name+=value`, `name[sub]=value`, `name=(…)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    pub name: Vec<u8>,
    pub subscript: Option<Arith>,
    pub value: WordInfo,
    /// `name+=value`: the value is appended to the old one (a list's elements added).
    pub append: bool,
}

/// Where each substitution in the text ends, by its start (command offsets): the reader
/// keeps only `$(` and `)` of a program read at parse time.
pub trait SubstEnds {
    fn end_of(&self, at: u32) -> Option<u32>;
}

impl SubstEnds for () {
    fn end_of(&self, _: u32) -> Option<u32> {
        None
    }
}

/// Where each substitution a reading read as a program ends, from its events
/// (`SubstClose`).
pub struct Ends(rustc_hash::FxHashMap<u32, u32>);

impl Ends {
    pub fn of(events: &[super::tree::Event]) -> Ends {
        Ends(
            events
                .iter()
                .filter_map(|e| match e {
                    super::tree::Event::SubstClose(at, end) => Some((*at, *end)),
                    _ => None,
                })
                .collect(),
        )
    }

    /// Each substitution's start and end.
    pub fn extents(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.0.iter().map(|(&at, &end)| (at, end))
    }
}

impl SubstEnds for Ends {
    fn end_of(&self, at: u32) -> Option<u32> {
        self.0.get(&at).copied()
    }
}

impl WordInfo {
    /// The word as zsh expands it: zsh expands braces after quote removal (`-{v".."v}` is
    /// `-v`, `l{e".."e}t` is `let`) and BRACE_CCL reads `{v}` as `v`, so a word in braces
    /// may be another word; under EXTENDED_GLOB (taken as possibly on always, as a setopt
    /// may be spelled any way) `#`, `^` and `~` are patterns (`-A#` matches a file `-A`),
    /// so such a word may be a file's name (round 102).
    pub fn as_zsh_reads(&mut self) {
        if self.braced {
            self.brace = true;
            self.many = true;
        }
        // (Not `[[ … =~ … ]]`'s operator, a word of its own.)
        let operator = matches!(self.pieces.as_slice(), [Piece::Lit(l)] if l == b"=~");
        if self.zsh_pattern && !operator {
            self.many = true;
        }
    }

    /// The word's value when it is one known word: literal pieces only.
    pub fn value(&self) -> Option<Vec<u8>> {
        if self.many || self.tilde || self.unread || !self.breaks.is_empty() {
            return None;
        }
        let mut v = Vec::new();
        for p in &self.pieces {
            match p {
                Piece::Lit(l) => v.extend_from_slice(l),
                _ => return None,
            }
        }
        Some(v)
    }

    /// The word's text when it is literal pieces only, glob characters kept as written
    /// (a pattern that matches no file stays as it is); brace expansion and tildes still
    /// make it unknown.
    pub fn literal(&self) -> Option<Vec<u8>> {
        if self.tilde || self.unread || self.brace || !self.breaks.is_empty() {
            return None;
        }
        let mut v = Vec::new();
        for p in &self.pieces {
            match p {
                Piece::Lit(l) => v.extend_from_slice(l),
                _ => return None,
            }
        }
        Some(v)
    }

    /// The literal pieces glued: the word's text after quote removal, less what it
    /// expands (`/pr''oc` and `/pr${e}oc` give `/proc`).
    pub fn written_text(&self) -> Vec<u8> {
        let mut v = Vec::new();
        for p in &self.pieces {
            if let Piece::Lit(l) = p {
                v.extend_from_slice(l);
            }
        }
        v
    }

    /// Every substitution offset in the word, nested ones included.
    pub fn substs(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.collect_substs(&mut out);
        out
    }

    fn collect_substs(&self, out: &mut Vec<u32>) {
        for p in &self.pieces {
            match p {
                Piece::Subst(at) => out.push(*at),
                Piece::Param(p) => param_substs(p, out),
                Piece::Arith(a) => arith_substs(a, out),
                Piece::Lit(_) => {}
            }
        }
    }
}

fn param_substs(p: &Param, out: &mut Vec<u32>) {
    if let Some(a) = &p.arg {
        a.collect_substs(out);
    }
    if let Some(s) = &p.subscript {
        arith_substs(s, out);
    }
    for s in &p.slice {
        arith_substs(s, out);
    }
}

pub(crate) fn arith_substs(a: &Arith, out: &mut Vec<u32>) {
    out.extend_from_slice(&a.substs);
    for p in &a.params {
        param_substs(p, out);
    }
    for s in &a.subscripts {
        arith_substs(s, out);
    }
}

/// Reads a word of a command as written (quotes kept).
pub fn read(text: &Text<'_>, ends: &dyn SubstEnds) -> WordInfo {
    read_counted(text, ends).0
}

/// Whether [`read_counted`] reads `text` as itself: no byte in it is one the word's
/// reading treats specially (quotes, escapes, expansions, globs, braces, a tilde; `.` and
/// `,` only within braces), so it is one literal piece with nothing to split, glob, brace
/// or expand, read in [`as_written_steps`]. (A caller may then skip the reading.)
pub fn as_written(text: &[u8]) -> bool {
    !text.is_empty()
        && !text
            .iter()
            .any(|&c| SPECIAL[usize::from(c)] && !matches!(c, b'.' | b','))
}

/// The steps [`read_counted`] takes on a word [`as_written`]: one per run it reads (each
/// `.` and `,` a run of its own), and one per [`BYTES_PER_STEP`] bytes of each run.
pub fn as_written_steps(text: &[u8]) -> usize {
    let mut steps = 0;
    let mut i = 0;
    while i < text.len() {
        let end = if matches!(text[i], b'.' | b',') {
            i + 1
        } else {
            text[i..]
                .iter()
                .position(|c| matches!(c, b'.' | b','))
                .map_or(text.len(), |n| i + n)
        };
        steps += 1 + (end - i) / BYTES_PER_STEP;
        i = end;
    }
    steps
}

/// Reads a word as [`read`] does, and counts the work it took (in the reader's units:
/// a step per piece, one per [`crate::shell::BYTES_PER_WORK`] bytes scanned).
pub fn read_counted(text: &Text<'_>, ends: &dyn SubstEnds) -> (WordInfo, usize) {
    let mut p = Parser::new(text, ends, true);
    let mut info = WordInfo {
        start: text.origin(0),
        end: text.origin(text.len().saturating_sub(1)).saturating_add(1),
        ..WordInfo::default()
    };
    p.word(0, text.len(), Mode::Word, &mut info);
    (info, p.steps.get())
}

/// Whether a word is an assignment word ([`assignment`] is then `Some`), without
/// reading its value.
pub fn is_assignment(text: &Text<'_>) -> bool {
    super::syntax::assignment(text.bytes(), false).is_some()
}

/// Reads an assignment word, when it is one.
pub fn assignment(text: &Text<'_>, ends: &dyn SubstEnds) -> Option<Assignment> {
    let b = text.bytes();
    let eq = super::syntax::assignment(b, false)?;
    let append = b[..eq].ends_with(b"+");
    let lhs = b[..eq].strip_suffix(b"+").unwrap_or(&b[..eq]);
    let (name, subscript) = match lhs.iter().position(|&c| c == b'[') {
        Some(open) if lhs.last() == Some(&b']') => {
            let mut p = Parser::new(text, ends, true);
            let a = p.arith(open + 1, lhs.len() - 1);
            (lhs[..open].to_vec(), Some(a))
        }
        _ => (lhs.to_vec(), None),
    };
    let mut p = Parser::new(text, ends, true);
    let mut value = WordInfo {
        start: text.origin(eq + 1),
        end: text.origin(b.len().saturating_sub(1)).saturating_add(1),
        ..WordInfo::default()
    };
    let compound = b.get(eq + 1) == Some(&b'(') && b.last() == Some(&b')');
    if compound {
        p.word(eq + 2, b.len() - 1, Mode::Compound, &mut value);
    } else {
        p.word(eq + 1, b.len(), Mode::Assign, &mut value);
    }
    Some(Assignment {
        name,
        subscript,
        value,
        append,
    })
}

/// Reads arithmetic text (`((…))`, a `let` argument, an integer value).
pub fn arith(text: &Text<'_>, ends: &dyn SubstEnds) -> Arith {
    let mut p = Parser::new(text, ends, true);
    p.arith(0, text.len())
}

/// What an unquoted heredoc body's expansion evaluates (see [`document`]).
#[derive(Debug, Default)]
pub struct BodyExpansions {
    /// Its expansions that do more than stand for a value (assign, name another variable,
    /// evaluate a subscript, an offset or arithmetic, take part of a value), in order.
    pub pieces: Vec<Piece>,
    /// It expands something (a value, a substitution, arithmetic).
    pub expands: bool,
    /// Not every expansion was read (too many, or nested too deep): what it evaluates is
    /// not known.
    pub cut: bool,
    /// A `${…}` word makes a new expansion once bash removes its double quotes
    /// (`${x-"$"(cmd)}`, `${x-$"ab"}`): what it runs or reads is not followed.
    pub requoted: bool,
    /// The variables its expansions that only stand for a value expand (`$HOME`,
    /// `${USER:-me}`), at most [`MAX_BODY_NAMES`]; past it, [`BodyExpansions::names_cut`].
    pub names: Vec<Vec<u8>>,
    pub names_cut: bool,
    /// The bytes its literal text holds (escapes removed), as a set: bit `c % 64` of word
    /// `c / 64` for byte `c`.
    pub literal_bytes: [u64; 4],
}

/// Most distinct variable names kept for a body's plain expansions.
pub const MAX_BODY_NAMES: usize = 64;

/// Reads text a shell expands like a double-quoted string whose quotes are literal (an
/// unquoted heredoc body): what its expansion evaluates. A parameter expansion that only
/// stands for a value (`$HOME`, `${USER:-me}`) evaluates nothing: it is counted, not
/// kept, so that a long body of such text is not cut at [`MAX_PIECES`].
pub fn document(text: &Text<'_>, ends: &dyn SubstEnds) -> BodyExpansions {
    let mut p = Parser::new(text, ends, false);
    p.drop_inert = true;
    p.body = true;
    let mut info = WordInfo::default();
    p.word(0, text.len(), Mode::Document, &mut info);
    BodyExpansions {
        expands: p.dropped.get() || !info.pieces.is_empty(),
        cut: p.cut.get(),
        requoted: p.requoted.get(),
        pieces: info.pieces,
        names: p.dropped_names.take(),
        names_cut: p.names_cut.get(),
        literal_bytes: p.literal.get(),
    }
}

/// Whether removing the double quotes of `word` (the inside of a `${…}` in a body, as bash
/// does before it expands the word) puts a `$` or a backquote before text that makes an
/// expansion it did not make with the quotes in place.
fn new_expansion_without_quotes(word: &[u8]) -> bool {
    fn starts(b: &[u8]) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 1,
                b'`' => n += 1,
                b'$' if b
                    .get(i + 1)
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || b"_({[@*#?$!-".contains(&c)) =>
                {
                    n += 1
                }
                _ => {}
            }
            i += 1;
        }
        n
    }
    if !word.contains(&b'"') {
        return false;
    }
    let mut stripped = Vec::with_capacity(word.len());
    let mut i = 0;
    while i < word.len() {
        match word[i] {
            // Inside the quotes bash also drops the backslash before any other character
            // (`"$\(cmd)"` is `$(cmd)`); dropped everywhere here, which can only make more
            // expansions.
            b'\\' => {
                match word.get(i + 1) {
                    Some(&c @ (b'$' | b'`' | b'\\')) => stripped.extend_from_slice(&[b'\\', c]),
                    Some(b'\n') | None => {}
                    Some(&c) => stripped.push(c),
                }
                i += 2;
            }
            b'"' => i += 1,
            c => {
                stripped.push(c);
                i += 1;
            }
        }
    }
    starts(&stripped) > starts(word)
}

/// An expansion that only stands for a value: `$x`, `${#x}`, `${x:-text}` (a literal
/// word), with no subscript, offset, assignment, indirection or zsh flag.
fn inert(piece: &Piece) -> bool {
    let Piece::Param(p) = piece else {
        return false;
    };
    matches!(
        p.op,
        ParamOp::Plain | ParamOp::Length | ParamOp::Default | ParamOp::Alternate | ParamOp::Error
    ) && !p.indirect
        && !p.joined
        && p.subscript.is_none()
        && p.zsh_subscript.is_none()
        && p.slice.is_empty()
        && !p.zsh_eval
        && !p.zsh_glob
        && !p.flags
        && p.arg
            .as_ref()
            .is_none_or(|a| !a.unread && a.pieces.iter().all(|x| matches!(x, Piece::Lit(_))))
}

/// The bytes some arm of [`Parser::word`] reads specially, in some mode; every other byte
/// is literal text in every mode.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let special = b"\\'\"`$<>*?[{,.}~ \t\n";
    let mut k = 0;
    while k < special.len() {
        t[special[k] as usize] = true;
        k += 1;
    }
    t
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A word: quotes, escapes, globs.
    Word,
    /// Inside double quotes.
    Dquote,
    /// The value of an assignment: a word where `~` after `:` expands too.
    Assign,
    /// Inside `name=(…)`: several words; `[k]=` subscripts.
    Compound,
    /// A heredoc body: `\` escapes `$`, `` ` `` and `\` only; quotes are literal.
    Document,
    /// The word of a `${…}` inside double quotes or a body: as inside double quotes, but a
    /// `"` opens a double-quoted part whose quotes go (`${x:-"$y"}` is y's value), while a
    /// `'` is a plain character (`${x:-'$((z))'}` evaluates z).
    BraceWord,
}

struct Parser<'a, 't> {
    t: &'a Text<'t>,
    /// Leave out of the top-level pieces the parameter expansions that only stand for a
    /// value (an unquoted body's scan: [`document`]).
    drop_inert: bool,
    /// The names of the parameters dropped as inert (distinct, at most
    /// [`MAX_BODY_NAMES`]).
    dropped_names: std::cell::RefCell<Vec<Vec<u8>>>,
    names_cut: std::cell::Cell<bool>,
    /// The bytes of a body's literal text, as a set (bit `c` of word `c / 64`).
    literal: std::cell::Cell<[u64; 4]>,
    /// Some expansion was left out as inert.
    dropped: std::cell::Cell<bool>,
    /// Some piece was not read: past [`MAX_PIECES`] in a word, or nested past [`MAX_DEPTH`].
    cut: std::cell::Cell<bool>,
    /// Reading a heredoc body (whose `${…}` words bash expands once more after it removes
    /// their double quotes).
    body: bool,
    /// A `${…}` word in a body makes a new expansion once its double quotes go
    /// (`${x-"$"(cmd)}` is `$(cmd)` to bash): not followed.
    requoted: std::cell::Cell<bool>,
    /// The work done: a step per piece read, and a step per [`BYTES_PER_STEP`] bytes a
    /// run or a scan passes over.
    steps: std::cell::Cell<usize>,
    b: &'a [u8],
    ends: &'a dyn SubstEnds,
    depth: usize,
    /// Keep literal text (not needed where only the expansions matter).
    keep: bool,
}

/// Bytes of a run or a scan per step of work (as the reader's bulk reads).
const BYTES_PER_STEP: usize = crate::shell::BYTES_PER_WORK;

impl<'a, 't> Parser<'a, 't> {
    fn new(t: &'a Text<'t>, ends: &'a dyn SubstEnds, keep: bool) -> Parser<'a, 't> {
        Parser {
            t,
            drop_inert: false,
            dropped_names: std::cell::RefCell::new(Vec::new()),
            names_cut: std::cell::Cell::new(false),
            literal: std::cell::Cell::new([0; 4]),
            dropped: std::cell::Cell::new(false),
            cut: std::cell::Cell::new(false),
            body: false,
            requoted: std::cell::Cell::new(false),
            b: t.bytes(),
            ends,
            depth: 0,
            keep,
            steps: std::cell::Cell::new(0),
        }
    }

    /// Counts a scan from `from` to `end` as work; gives `end`.
    fn span(&self, from: usize, end: usize) -> usize {
        self.step(end.saturating_sub(from) / BYTES_PER_STEP + 1);
        end
    }

    fn step(&self, n: usize) {
        self.steps.set(self.steps.get().saturating_add(n));
    }

    fn lit(&self, info: &mut WordInfo, c: u8) {
        if self.drop_inert && self.depth == 1 {
            self.literal_byte(c);
        }
        if !self.keep {
            return;
        }
        if let Some(Piece::Lit(l)) = info.pieces.last_mut() {
            l.push(c);
        } else {
            info.pieces.push(Piece::Lit(vec![c]));
        }
    }

    fn lits(&self, info: &mut WordInfo, run: &[u8]) {
        self.step(run.len() / BYTES_PER_STEP);
        if self.drop_inert && self.depth == 1 {
            self.literal_bytes(run);
        }
        if !self.keep || run.is_empty() {
            return;
        }
        if let Some(Piece::Lit(l)) = info.pieces.last_mut() {
            l.extend_from_slice(run);
        } else {
            info.pieces.push(Piece::Lit(run.to_vec()));
        }
    }

    /// A byte of a body's literal text (what it holds besides its expansions' values).
    fn literal_byte(&self, c: u8) {
        self.literal_bytes(&[c]);
    }

    /// The bytes of a run of a body's literal text, gathered into the set at once (a body
    /// is mostly literal text: a megabyte of it, a byte at a time through the cell, cost
    /// half the body's reading).
    fn literal_bytes(&self, run: &[u8]) {
        let mut b = self.literal.get();
        for &c in run {
            b[usize::from(c >> 6)] |= 1 << (c & 63);
        }
        self.literal.set(b);
    }

    fn push(&self, info: &mut WordInfo, p: Piece) {
        if self.drop_inert && self.depth == 1 && inert(&p) {
            self.dropped.set(true);
            // A default's literal word may be the value.
            if let Piece::Param(q) = &p
                && let Some(arg) = &q.arg
            {
                for piece in &arg.pieces {
                    if let Piece::Lit(l) = piece {
                        self.literal_bytes(l);
                    }
                }
            }
            if let Piece::Param(q) = &p
                && q.op != ParamOp::Length
            {
                self.dropped_name(&q.name);
            }
            return;
        }
        if info.pieces.len() >= MAX_PIECES {
            info.unread = true;
            self.cut.set(true);
            return;
        }
        info.pieces.push(p);
    }

    /// The name of a parameter a body's expansion reads that was dropped: kept once, up
    /// to [`MAX_BODY_NAMES`] of them (past it, `names_cut`).
    fn dropped_name(&self, name: &[u8]) {
        if self.names_cut.get() {
            return;
        }
        let mut names = self.dropped_names.borrow_mut();
        if !names.iter().any(|n| n.as_slice() == name) {
            if names.len() >= MAX_BODY_NAMES {
                self.names_cut.set(true);
            } else {
                names.push(name.to_vec());
            }
        }
    }

    /// Reads `from..to` in `mode` into `info`.
    fn word(&mut self, from: usize, to: usize, mode: Mode, info: &mut WordInfo) {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            info.unread = true;
            self.cut.set(true);
            self.depth -= 1;
            return;
        }
        let b = self.b;
        let to = to.min(b.len());
        let mut i = from;
        let unquoted = matches!(mode, Mode::Word | Mode::Assign | Mode::Compound);
        let mut at_start = true;
        let mut brace_open = 0usize;
        let mut no_bracket_close = false;
        // A word that looks like an assignment (`a=~`, `PATH=x:~/bin`): bash expands a
        // tilde after its `=` or a `:` there too, outside posix mode (round 65).
        let assignment_like = mode == Mode::Word
            && from == 0
            && super::syntax::assignment(&b[from..to], false).is_some();
        while i < to {
            self.step(1);
            if mode == Mode::Compound && at_start && b[i] == b'[' {
                // `[k]=v` in a compound assignment: the subscript is evaluated.
                let close = self.span(i + 1, bracket_end(b, i + 1, to));
                if b.get(close) == Some(&b']') && b.get(close + 1) == Some(&b'=') {
                    let mut a = self.arith(i + 1, close);
                    a.key = true;
                    self.push(info, Piece::Arith(Box::new(a)));
                    i = close + 2;
                    at_start = false;
                    continue;
                }
            }
            let c = b[i];
            let start_of_word = at_start;
            at_start = false;
            match c {
                b'\\' => {
                    let n = b.get(i + 1).copied();
                    match (mode, n) {
                        (_, Some(b'\n')) => i += 2,
                        (Mode::Dquote | Mode::BraceWord, Some(n))
                            if !matches!(n, b'$' | b'`' | b'"' | b'\\') =>
                        {
                            self.lit(info, b'\\');
                            i += 1;
                        }
                        (Mode::Document, Some(n)) if !matches!(n, b'$' | b'`' | b'\\') => {
                            self.lit(info, b'\\');
                            i += 1;
                        }
                        (_, Some(n)) => {
                            self.lit(info, n);
                            i += 2;
                        }
                        (_, None) => {
                            self.lit(info, b'\\');
                            i += 1;
                        }
                    }
                }
                b'\'' if unquoted => {
                    let end = self.span(
                        i + 1,
                        memchr::memchr(b'\'', &b[i + 1..to]).map_or(to, |p| i + 1 + p),
                    );
                    if end >= to {
                        info.unread = true;
                    }
                    self.lits(info, &b[i + 1..end.min(to)]);
                    if b[i + 1..end.min(to)].is_empty() {
                        // `''` is an empty word, not nothing.
                        self.push(info, Piece::Lit(Vec::new()));
                    }
                    i = end + 1;
                }
                b'"' if unquoted || mode == Mode::BraceWord => {
                    let end = self.dquote_end(i + 1, to);
                    if end > to {
                        info.unread = true;
                    }
                    if end == i + 2 {
                        self.push(info, Piece::Lit(Vec::new()));
                    }
                    self.word(i + 1, end.saturating_sub(1).min(to), Mode::Dquote, info);
                    i = end;
                }
                b'`' => {
                    let end = self.span(i + 1, backquote_end(b, i + 1, to));
                    if mode == Mode::Word {
                        info.split = true;
                    }
                    self.push(info, Piece::Subst(self.t.origin(i)));
                    i = end;
                }
                b'$' => i = self.dollar(i, to, mode, info),
                b'<' | b'>' if unquoted && b.get(i + 1) == Some(&b'(') => {
                    let at = self.t.origin(i);
                    info.process = true;
                    self.push(info, Piece::Subst(at));
                    i = self.skip_subst(at, i + 2, to);
                }
                b'*' | b'?' if unquoted => {
                    info.many = true;
                    self.lit(info, c);
                    i += 1;
                }
                b'[' if unquoted => {
                    // A bracket expression only with its `]` (`[` alone is a word). One
                    // look per word: once a `]` is found the word is a pattern, and once
                    // none is, none follows a later `[` either (`[[[[…` stays linear).
                    if !info.many && !no_bracket_close {
                        if memchr::memchr(b']', &b[i + 1..to]).is_some() {
                            info.many = true;
                        } else {
                            no_bracket_close = true;
                        }
                    }
                    self.lit(info, c);
                    i += 1;
                }
                b'{' if unquoted => {
                    brace_open += 1;
                    self.lit(info, c);
                    i += 1;
                }
                b',' if unquoted && brace_open > 0 => {
                    info.many = true;
                    info.brace = true;
                    self.lit(info, c);
                    i += 1;
                }
                b'.' if unquoted && brace_open > 0 && b.get(i + 1) == Some(&b'.') => {
                    info.many = true;
                    info.brace = true;
                    self.lit(info, c);
                    i += 1;
                }
                b'}' if unquoted => {
                    if brace_open > 0 {
                        info.braced = true;
                    }
                    brace_open = brace_open.saturating_sub(1);
                    self.lit(info, c);
                    i += 1;
                }
                // zsh's `=cmd` is the path of `cmd` (its EQUALS option): no known value.
                // (A name's first byte after it: not `=~`, `==`, operators of `[[ ]]`,
                // round 67.)
                b'=' if mode == Mode::Word
                    && start_of_word
                    && b.get(i + 1).is_some_and(|&n| {
                        n.is_ascii_alphanumeric() || matches!(n, b'_' | b'.' | b'/')
                    })
                    && i + 1 < to =>
                {
                    info.tilde = true;
                    self.lit(info, c);
                    i += 1;
                }
                b'~' if (mode == Mode::Word && start_of_word)
                    || (mode == Mode::Assign
                        && (i == from || matches!(b.get(i.wrapping_sub(1)), Some(b':'))))
                    || (assignment_like
                        && matches!(b.get(i.wrapping_sub(1)), Some(b'=' | b':'))) =>
                {
                    info.tilde = true;
                    self.lit(info, c);
                    i += 1;
                }
                b' ' | b'\t' | b'\n' if mode == Mode::Compound => {
                    // Elements are apart: the next starts a piece of its own.
                    at_start = true;
                    if self.keep && info.breaks.len() < MAX_PIECES {
                        info.breaks.push(info.pieces.len());
                        self.push(info, Piece::Lit(Vec::new()));
                    }
                    i += 1;
                }
                _ => {
                    // A run of bytes no arm above reads specially is literal text as a
                    // whole (one copy, not one push per byte). Inside double quotes and
                    // in a body only `\`, `` ` `` and `$` are read specially.
                    let run = if unquoted || mode == Mode::BraceWord {
                        b[i..to]
                            .iter()
                            .position(|&c| SPECIAL[usize::from(c)])
                            .map_or(to, |n| i + n.max(1))
                    } else {
                        memchr::memchr3(b'\\', b'`', b'$', &b[i..to]).map_or(to, |n| i + n.max(1))
                    };
                    if unquoted
                        && !info.zsh_pattern
                        && memchr::memchr3(b'#', b'^', b'~', &b[i..run]).is_some()
                    {
                        info.zsh_pattern = true;
                    }
                    if (unquoted || mode == Mode::BraceWord)
                        && !info.paren
                        && memchr::memchr(b'(', &b[i..run]).is_some()
                    {
                        info.paren = true;
                    }
                    self.lits(info, &b[i..run]);
                    i = run;
                }
            }
        }
        self.depth -= 1;
    }

    /// The `$` at `i`: gives where reading goes on.
    fn dollar(&mut self, i: usize, to: usize, mode: Mode, info: &mut WordInfo) -> usize {
        let b = self.b;
        let at = self.t.origin(i);
        let unquoted = matches!(mode, Mode::Word | Mode::Assign | Mode::Compound);
        if mode == Mode::Word && !matches!(b.get(i + 1), Some(b'\'' | b'"')) {
            info.split = true;
        }
        match b.get(i + 1).copied() {
            Some(b'\'') if unquoted => {
                let (decoded, end) = ansi_c(b, i + 2, to);
                self.span(i + 2, end);
                // (Escapes the shells decode differently: no value known.)
                if end > to
                    || b.get(i + 2..end.saturating_sub(1))
                        .is_some_and(ansi_c_differs)
                {
                    info.unread = true;
                }
                if decoded.is_empty() {
                    self.push(info, Piece::Lit(Vec::new()));
                }
                for c in decoded {
                    self.lit(info, c);
                }
                end
            }
            Some(b'"') if unquoted => {
                let end = self.dquote_end(i + 2, to);
                if end > to {
                    info.unread = true;
                }
                if end == i + 3 {
                    self.push(info, Piece::Lit(Vec::new()));
                }
                self.word(i + 2, end.saturating_sub(1).min(to), Mode::Dquote, info);
                end
            }
            Some(b'(') if b.get(i + 2) == Some(&b'(') && self.ends.end_of(at).is_none() => {
                let end = self.span(i + 2, self.paren_end(i + 2, to));
                let a = self.arith(i + 3, end.saturating_sub(2).max(i + 3));
                self.push(info, Piece::Arith(Box::new(a)));
                end
            }
            Some(b'(') => {
                self.push(info, Piece::Subst(at));
                self.skip_subst(at, i + 2, to)
            }
            Some(b'[') => {
                let end = self.span(i + 2, bracket_end(b, i + 2, to));
                let a = self.arith(i + 2, end);
                self.push(info, Piece::Arith(Box::new(a)));
                end + 1
            }
            Some(b'{') => {
                // (A reading keeps a bash 5.3 `${ …; }` as `${}`, its program read on its
                // own: the recorded end says it is one.)
                if b.get(i + 2)
                    .copied()
                    .is_some_and(|c| super::syntax::funsub_char(c) || c == b'}')
                    && self.ends.end_of(at).is_some()
                {
                    self.push(info, Piece::Subst(at));
                    return self.skip_subst(at, i + 2, to);
                }
                let end = self.span(i + 2, self.brace_end(i + 2, to));
                if end > to {
                    info.unread = true;
                }
                let p = self.brace(at, i + 2, end.saturating_sub(1).min(to), mode);
                self.push(info, Piece::Param(Box::new(p)));
                end
            }
            Some(c) if super::syntax::legal_variable_starter(c) => {
                let mut j = i + 1;
                while j < to && super::syntax::legal_variable_char(b[j]) {
                    j += 1;
                }
                // (A body's `$name` with no zsh subscript or modifier after it is a plain
                // parameter, which [`Parser::push`] drops there, keeping its name: done
                // without building it, most of a body's expansions.)
                if self.drop_inert && self.depth == 1 && !matches!(b.get(j), Some(b'[' | b':')) {
                    self.dropped.set(true);
                    self.dropped_name(&b[i + 1..j]);
                    return j;
                }
                let mut p = plain(at, b[i + 1..j].to_vec());
                p.zsh_subscript = self.zsh_subscript(j, to);
                self.zsh_modifiers(&mut p, j, to, mode);
                self.push(info, Piece::Param(Box::new(p)));
                j
            }
            Some(b'~' | b'^' | b'=' | b'+')
                if b.get(i + 1..to)
                    .unwrap_or_default()
                    .iter()
                    .find(|c| !matches!(c, b'~' | b'^' | b'=' | b'+'))
                    .is_some_and(|&c| zsh_param_starts(c)) =>
            {
                // zsh `$~name`, `$^name`, `$=name`, `$+name`, and their runs (`$=~name`,
                // `$^~name`) (bash: literal text; read as the value here, which only
                // widens what the word can be).
                let flags_end = i
                    + 1
                    + b.get(i + 1..to)
                        .unwrap_or_default()
                        .iter()
                        .take_while(|c| matches!(c, b'~' | b'^' | b'=' | b'+'))
                        .count();
                // (`$~#name[…]`, `$~#@[…]`: the length, its subscript evaluated.)
                let name_start = flags_end
                    + usize::from(
                        b.get(flags_end) == Some(&b'#')
                            && b.get(flags_end + 1).copied().is_some_and(zsh_param_starts),
                    );
                let j = zsh_param_end(b, name_start, to);
                let mut p = plain(at, b[name_start..j].to_vec());
                p.zsh_glob = b[i + 1..flags_end].contains(&b'~');
                p.zsh_set = b[i + 1..flags_end].contains(&b'+');
                p.zsh_subscript = self.zsh_subscript(j, to);
                self.zsh_modifiers(&mut p, j, to, mode);
                self.push(info, Piece::Param(Box::new(p)));
                j
            }
            Some(c) if c.is_ascii_digit() || b"@*#?-$!_".contains(&c) => {
                let mut p = plain(at, vec![c]);
                // zsh reads `$#name[…]` as `${#name[…]}`, `$#@[…]` as `${#@[…]}`: the
                // subscript is evaluated (bash: `$#` and text).
                if c == b'#' && b.get(i + 2).copied().is_some_and(zsh_param_starts) {
                    let j = zsh_param_end(b, i + 2, to);
                    p.zsh_subscript = self.zsh_subscript(j, to);
                } else {
                    // zsh subscripts the special parameters too (`$@[x]`, `$$[x]`,
                    // `$-[x]`; `$1[x]` it does not, read so here all the same).
                    p.zsh_subscript = self.zsh_subscript(i + 2, to);
                }
                self.push(info, Piece::Param(Box::new(p)));
                i + 2
            }
            _ => {
                self.lit(info, b'$');
                i + 1
            }
        }
    }

    /// zsh applies modifiers after `$name` (`$x:A`, `$x:u`, `$x:s/l/r/`, after a
    /// subscript too) as it does inside `${…}`: read as `${name:…}` where the name (and its
    /// subscript) ends at `j`. (bash: text after the value, which stays in the word: read
    /// both ways, which only widens what the word can be.)
    fn zsh_modifiers(&mut self, p: &mut Param, j: usize, to: usize, mode: Mode) {
        let b = self.b;
        let mut k = j;
        if b.get(k) == Some(&b'[') {
            let close = bracket_end(b, k + 1, to);
            if close >= to {
                return;
            }
            k = close + 1;
        }
        let start = k;
        while k + 1 < to
            && b.get(k) == Some(&b':')
            && b.get(k + 1)
                .is_some_and(|c| b"aAcefFghlpPqQrstuwWx&".contains(c))
        {
            let c = b[k + 1];
            k += 2;
            if matches!(c, b's' | b'g' | b'F' | b'W' | b'&') {
                // A substitution's or a separator's text: the rest of the word.
                k = to;
                break;
            }
            while k < to && b[k].is_ascii_digit() {
                k += 1;
            }
        }
        if k == start {
            return;
        }
        let words = if matches!(mode, Mode::Dquote | Mode::Document | Mode::BraceWord) {
            Mode::BraceWord
        } else {
            Mode::Word
        };
        p.op = ParamOp::Part;
        // (Kept whole, as inside `${…}`, where a body's text is otherwise dropped.)
        let keep = std::mem::replace(&mut self.keep, true);
        p.arg = Some(self.word_at(start, k, words));
        self.keep = keep;
    }

    /// zsh takes `$name[…]` (and `$#name[…]`) for `${name[…]}`: the brackets at `j`, when
    /// they close before `to`, are evaluated. (bash: text after the value, which stays in
    /// the word: read both ways, which only widens what the word does.)
    fn zsh_subscript(&mut self, j: usize, to: usize) -> Option<Box<Arith>> {
        if j >= to || self.b.get(j) != Some(&b'[') {
            return None;
        }
        let close = self.span(j + 1, bracket_end(self.b, j + 1, to));
        (close < to).then(|| Box::new(self.arith(j + 1, close)))
    }

    /// The subscripts at `j` inside `${…}` ending at `to` (`[1][x]`), each evaluated in
    /// turn: the first, the others among its subscripts; and where they end.
    fn zsh_subscripts(&mut self, mut j: usize, to: usize) -> (Option<Box<Arith>>, usize) {
        let mut first: Option<Box<Arith>> = None;
        while j < to && self.b.get(j) == Some(&b'[') {
            let close = self.span(j + 1, bracket_end(self.b, j + 1, to));
            let a = self.arith(j + 1, close.min(to));
            match first.as_mut() {
                Some(f) => f.subscripts.push(a),
                None => first = Some(Box::new(a)),
            }
            j = close + 1;
        }
        (first, j)
    }

    /// Skips the program of the substitution at `at` whose text starts at `from`.
    fn skip_subst(&self, at: u32, from: usize, to: usize) -> usize {
        // In pinned text (what `eval` runs) every substitution has the same offset: its
        // end is found by counting.
        if let Some(end) = self.ends.end_of(at).filter(|_| !self.t.is_pinned()) {
            let j = self
                .t
                .first_origin_at_least(from, to, end.saturating_sub(1));
            // Past the closing `)` or `}`.
            return (j + 1).min(to.max(from));
        }
        self.span(from, self.paren_end(from, to))
    }

    /// [`paren_end`] from the top; past [`MAX_END_DEPTH`] the word is cut (not read) and
    /// the construct runs to `to`.
    fn paren_end(&self, from: usize, to: usize) -> usize {
        paren_end_or_cut(self.b, from, to, &self.cut)
    }

    /// [`brace_end`] from the top; past [`MAX_END_DEPTH`] the word is cut (not read) and
    /// the construct does not close.
    fn brace_end(&self, from: usize, to: usize) -> usize {
        brace_end(0, self.b, from, to).unwrap_or_else(|| {
            self.cut.set(true);
            to + 1
        })
    }

    /// Past the `"` closing one whose inside starts at `from` (`to + 1` when none): as
    /// [`dquote_end`], with a command substitution the reader has read skipped whole.
    fn dquote_end(&self, from: usize, to: usize) -> usize {
        let b = self.b;
        let mut i = from;
        let mut looked = 0usize;
        while i < to {
            looked += 1;
            match b[i] {
                b'\\' => i += 2,
                b'"' => {
                    self.step(looked / BYTES_PER_STEP + 1);
                    return i + 1;
                }
                b'`' => i = self.span(i + 1, backquote_end(b, i + 1, to)),
                b'$' if b.get(i + 1) == Some(&b'(') => {
                    i = self.skip_subst(self.t.origin(i), i + 2, to);
                }
                b'$' if b.get(i + 1) == Some(&b'{') => {
                    i = self.span(i + 2, self.brace_end(i + 2, to))
                }
                _ => i += 1,
            }
        }
        self.step(looked / BYTES_PER_STEP + 1);
        to + 1
    }

    /// The inside of `${…}` at `from..to`; its words keep their literal text.
    /// Inside double quotes or a body (`mode`), its words are read as double-quoted text:
    /// a quote there is a plain character (`"${x:-'$((z))'}"` evaluates `z`).
    fn brace(&mut self, at: u32, from: usize, to: usize, mode: Mode) -> Param {
        if self.body && matches!(mode, Mode::Document | Mode::BraceWord) {
            // A range that is not there is a word not read: fail closed.
            let requoted = self.b.get(from..to).is_none_or(|word| {
                self.step(word.len() / BYTES_PER_STEP + 1);
                new_expansion_without_quotes(word)
            });
            if requoted {
                self.requoted.set(true);
            }
        }
        let keep = std::mem::replace(&mut self.keep, true);
        let words = if matches!(mode, Mode::Dquote | Mode::Document | Mode::BraceWord) {
            Mode::BraceWord
        } else {
            Mode::Word
        };
        let p = self.brace_inside(at, from, to, words);
        self.keep = keep;
        p
    }

    fn brace_inside(&mut self, at: u32, from: usize, to: usize, words: Mode) -> Param {
        let b = self.b;
        let mut p = plain(at, Vec::new());
        p.braced = true;
        let mut i = from;
        // zsh: parameter flags `(…)` and the `=`, `~`, `^` prefixes. `e` evaluates the
        // value (as `@P` does), `P` names the variable the value names.
        if b.get(i) == Some(&b'(')
            && let Some(close) = flags_end(b, i + 1, to, &self.cut).map(|c| self.span(i + 1, c))
        {
            let flags = &b[i + 1..close];
            p.flags = true;
            if flags.contains(&b'P') {
                p.indirect = true;
            }
            if flags.contains(&b'e') || flags.contains(&b'%') {
                p.zsh_eval = true;
            }
            if flags.contains(&b'#') {
                p.zsh_char = true;
            }
            if flags.contains(&b'k') {
                p.zsh_keys = true;
            }
            if flags.contains(&b'p') && flags.contains(&b'$') {
                // `p`: `$name` in a flag's argument is that name's value.
                p.flag_words = Some(self.word_at(i + 1, close, Mode::Dquote));
                // `~` in the flags: the strings the flags after it insert (`j`, `l`, `r`,
                // `s`) are patterns, globbed: values, here (round 100).
                if flags.contains(&b'~') {
                    p.zsh_glob = true;
                }
            }
            if flags
                .iter()
                .any(|&c| matches!(c, b'$' | b'`' | b'l' | b'r' | b'I'))
            {
                // Flag arguments (`(l:expr:)`, `(I:expr:)`) are expanded and evaluated as
                // arithmetic (a bare name in them too).
                let a = self.arith(i + 1, close);
                p.slice.push(a);
            }
            i = close + 1;
        }
        // (zsh's `${+name}` tests whether the name is set: its subscript is evaluated.)
        while matches!(b.get(i), Some(b'=' | b'~' | b'^' | b'+')) && i + 1 < to {
            if b[i] == b'~' {
                p.zsh_glob = true;
            }
            if b[i] == b'+' {
                p.zsh_set = true;
            }
            i += 1;
        }
        // zsh nests expansions (`${(e)${v}}`, `${#${v}}`, `${"$(cmd)"}`): the inner one's
        // value is the value, and subscripts after it (`${${v}[x]}`, `${${v}[1][x]}`) are
        // evaluated, as `$name[…]`'s are.
        let nested = i + usize::from(b.get(i) == Some(&b'#'));
        let inner_end = match (b.get(nested), b.get(nested + 1)) {
            (Some(b'$'), Some(b'{')) => Some(self.span(nested + 2, self.brace_end(nested + 2, to))),
            (Some(b'$'), Some(b'(')) => {
                Some(self.skip_subst(self.t.origin(nested), nested + 2, to))
            }
            (Some(b'"'), _) => Some(self.dquote_end(nested + 1, to)),
            _ => None,
        };
        if let Some(inner_end) = inner_end {
            p.op = ParamOp::Default;
            p.nested = true;
            p.arg = Some(self.word_at(nested, to, Mode::Dquote));
            let (subscripts, after) = self.zsh_subscripts(inner_end, to);
            p.zsh_subscript = subscripts;
            // An offset after it (`${${v}: x}`, `${${v}:1:(x)}`) is arithmetic, as
            // `${name:off:len}`'s is (the other `:` operators are words, read above).
            if b.get(after) == Some(&b':')
                && !b.get(after + 1).is_some_and(|c| b"-=+?#|*^/:".contains(c))
            {
                self.offsets(&mut p, after + 1, to);
            }
            return p;
        }
        if b.get(i) == Some(&b'#') && i + 1 < to {
            // `${#x}`; `${#}` alone is the count.
            p.op = ParamOp::Length;
            i += 1;
        } else if b.get(i) == Some(&b'!') && i + 1 < to {
            p.indirect = true;
            i += 1;
        }
        let name_start = i;
        if i < to && super::syntax::legal_variable_starter(b[i]) {
            while i < to && super::syntax::legal_variable_char(b[i]) {
                i += 1;
            }
        } else if i < to && b[i].is_ascii_digit() {
            while i < to && b[i].is_ascii_digit() {
                i += 1;
            }
        } else if i < to && b"@*#?-$!_0".contains(&b[i]) {
            i += 1;
        }
        p.name = b[name_start..i].to_vec();
        if b.get(i) == Some(&b'[') {
            let close = self.span(i + 1, bracket_end(b, i + 1, to));
            let sub = &b[(i + 1).min(close)..close];
            p.joined |= sub == b"*";
            // zsh's subscript flags `(i)`, `(I)`, `(k)`, `(K)` give keys.
            if sub.first() == Some(&b'(')
                && sub[1..]
                    .iter()
                    .take_while(|&&c| c != b')')
                    .any(|c| matches!(c, b'i' | b'I' | b'k' | b'K'))
            {
                p.zsh_keys = true;
            }
            if p.indirect && matches!(sub, b"@" | b"*") {
                p.op = ParamOp::Names;
            } else if !matches!(sub, b"@" | b"*") {
                p.subscript = Some(Box::new(self.arith(i + 1, close)));
            }
            i = close + 1;
            // zsh subscripts the result again (`${y[1][x]}`): each evaluated in turn (bash
            // refuses the word before it expands anything).
            let (again, after) = self.zsh_subscripts(i, to);
            if let Some(again) = again {
                match p.subscript.as_mut() {
                    Some(s) => {
                        s.subscripts.push(*again);
                    }
                    None => p.subscript = Some(again),
                }
            }
            i = after;
        }
        if i >= to {
            return p;
        }
        if p.indirect && matches!(b[i], b'*' | b'@') && i + 1 == to {
            p.op = ParamOp::Names;
            p.indirect = false;
            return p;
        }
        let c = b[i];
        let colon = c == b':';
        let op_at = if colon { i + 1 } else { i };
        match b.get(op_at).copied() {
            Some(o @ (b'-' | b'=' | b'+' | b'?')) => {
                if colon && p.op == ParamOp::Length {
                    p.op = ParamOp::Part;
                }
                p.op = match o {
                    b'-' => ParamOp::Default,
                    b'=' => ParamOp::Assign,
                    b'+' => ParamOp::Alternate,
                    _ => ParamOp::Error,
                };
                p.arg = Some(self.word_at(op_at + 1, to, words));
            }
            // (zsh's forms after `:` are read with bash's offset too, which bash takes
            // them for.)
            Some(b':') if colon && b.get(op_at + 1) == Some(&b'=') => {
                // zsh `${x::=w}`: assigns the word whatever the value.
                self.offsets(&mut p, i + 1, to);
                p.op = ParamOp::Assign;
                p.arg = Some(self.word_at(op_at + 2, to, words));
            }
            Some(b'^') if colon => {
                // zsh `${a:^b}`, `${a:^^b}`: zipped with the elements of array `b`.
                self.offsets(&mut p, i + 1, to);
                let from = op_at + 1 + usize::from(b.get(op_at + 1) == Some(&b'^'));
                let end = zsh_param_end(b, from, to);
                let mut arg = WordInfo {
                    start: self.t.origin(from),
                    end: self.t.origin(end),
                    ..WordInfo::default()
                };
                self.push(
                    &mut arg,
                    Piece::Param(Box::new(plain(self.t.origin(from), b[from..end].to_vec()))),
                );
                p.op = ParamOp::Default;
                p.arg = Some(Box::new(arg));
            }
            _ if colon => {
                // `${x:off:len}`; zsh's modifiers (`${x:h}`, `${x:s/l/r/}`) after a letter or
                // `&`, and its `${x:#pattern}` filter, read as words too.
                p.op = ParamOp::Part;
                self.offsets(&mut p, i + 1, to);
                if b.get(op_at)
                    .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'&' || c == b'#')
                {
                    let mut arg = WordInfo::default();
                    self.word(i, to, words, &mut arg);
                    p.arg = Some(Box::new(arg));
                }
            }
            Some(b'@') if b.get(op_at + 1) == Some(&b'P') => p.op = ParamOp::Prompt,
            _ => {
                p.op = ParamOp::Part;
                // The pattern and replacement are expanded words.
                let mut arg = WordInfo::default();
                self.word(i, to, words, &mut arg);
                p.arg = Some(Box::new(arg));
            }
        }
        p
    }

    /// The word at `from..to`, read in `mode`, with its command offsets.
    fn word_at(&mut self, from: usize, to: usize, mode: Mode) -> Box<WordInfo> {
        let mut w = WordInfo {
            start: self.t.origin(from),
            end: self.t.origin(to),
            ..WordInfo::default()
        };
        self.word(from, to, mode, &mut w);
        Box::new(w)
    }

    /// The offset and length of `${x:off:len}` at `from..to`, each arithmetic.
    fn offsets(&mut self, p: &mut Param, from: usize, to: usize) {
        let b = self.b;
        let to = to.min(b.len());
        let mut j = from;
        let mut depth = 0usize;
        for (k, &c) in b.iter().enumerate().take(to).skip(from) {
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b':' if depth == 0 => {
                    p.slice.push(self.arith(j, k));
                    j = k + 1;
                }
                _ => {}
            }
        }
        p.slice.push(self.arith(j.min(to), to));
    }

    /// Arithmetic text at `from..to`.
    fn arith(&mut self, from: usize, to: usize) -> Arith {
        let b = self.b;
        let to = to.min(b.len());
        let mut a = Arith {
            at: self.t.origin(from),
            ..Arith::default()
        };
        // (A parameter's `#`, `$#` and `${#x}`, is none: its value is a number.)
        a.hash = b.get(from..to).is_none_or(|t| {
            memchr::memchr_iter(b'#', t)
                .any(|k| !(t[..k].ends_with(b"$") || t[..k].ends_with(b"${")))
        });
        a.wide = b.get(from..to).is_none_or(|t| !t.is_ascii());
        a.open_bracket = b.get(from..to).is_none_or(|t| {
            memchr::memchr_iter(b'[', t).any(|k| {
                let before = t[..k].iter().rev().find(|c| !matches!(c, b' ' | b'\t'));
                // (`$[` is arithmetic of its own, no output base.)
                !before
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b']' | b'$'))
            })
        });
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            a.odd = true;
            self.cut.set(true);
            self.depth -= 1;
            return a;
        }
        let mut i = from;
        while i < to {
            let c = b[i];
            if c.is_ascii_digit() {
                // A number, `16#ff` and `0x1f` included.
                while i < to && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'#' | b'_' | b'@'))
                {
                    i += 1;
                }
                continue;
            }
            if super::syntax::legal_variable_starter(c) {
                let s = i;
                while i < to && super::syntax::legal_variable_char(b[i]) {
                    i += 1;
                }
                let name = b[s..i].to_vec();
                let mut j = i;
                if b.get(j) == Some(&b'[') {
                    let close = self.span(j + 1, bracket_end(b, j + 1, to));
                    let sub = self.arith(j + 1, close);
                    a.subscripts.push(sub);
                    j = close + 1;
                    i = j;
                }
                while j < to && matches!(b[j], b' ' | b'\t' | b'\n') {
                    j += 1;
                }
                let assigns = match (b.get(j), b.get(j + 1)) {
                    (Some(b'='), n) => n != Some(&b'='),
                    (Some(b'+' | b'-'), Some(n)) if *n == b[j] => true,
                    (Some(b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'^' | b'|'), Some(b'=')) => {
                        true
                    }
                    (Some(b'<'), Some(b'<')) | (Some(b'>'), Some(b'>')) => {
                        b.get(j + 2) == Some(&b'=')
                    }
                    _ => false,
                };
                let before = b[from..s]
                    .iter()
                    .rev()
                    .find(|c| !matches!(c, b' ' | b'\t' | b'\n'));
                let pre_inc = b[from..s].ends_with(b"++") || b[from..s].ends_with(b"--");
                if assigns || (pre_inc && before.is_some()) {
                    a.assigned.push(name.clone());
                }
                a.names.push(name);
                continue;
            }
            match c {
                b'$' => {
                    let mut w = WordInfo::default();
                    let next = self.dollar(i, to, Mode::Dquote, &mut w);
                    for piece in w.pieces {
                        match piece {
                            Piece::Param(p) => a.params.push(*p),
                            Piece::Subst(s) => a.substs.push(s),
                            Piece::Arith(x) => a.subscripts.push(*x),
                            Piece::Lit(_) => {}
                        }
                    }
                    i = next.max(i + 1);
                }
                b'`' => {
                    a.substs.push(self.t.origin(i));
                    a.odd = true;
                    i = self.span(i + 1, backquote_end(b, i + 1, to));
                }
                b'\'' | b'"' | b'\\' => {
                    a.odd = true;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        self.depth -= 1;
        a
    }
}

fn plain(at: u32, name: Vec<u8>) -> Param {
    let joined = name == b"*";
    Param {
        at,
        name,
        indirect: false,
        op: ParamOp::Plain,
        subscript: None,
        arg: None,
        slice: Vec::new(),
        zsh_eval: false,
        zsh_glob: false,
        flags: false,
        zsh_char: false,
        zsh_subscript: None,
        zsh_keys: false,
        flag_words: None,
        joined,
        braced: false,
        nested: false,
        zsh_set: false,
    }
}

/// The `)` closing zsh parameter flags that start at `from` (a `$(…)` inside skipped).
/// [`paren_end`] from the top; past [`MAX_END_DEPTH`] `cut` is set (the word is not read)
/// and the construct runs to `to`.
fn paren_end_or_cut(b: &[u8], from: usize, to: usize, cut: &std::cell::Cell<bool>) -> usize {
    paren_end(0, b, from, to).unwrap_or_else(|| {
        cut.set(true);
        to
    })
}

/// Whether a zsh parameter's name can start with `c` after `$`, `$#` or a flag run: a
/// name, digits, or one of the special parameters.
fn zsh_param_starts(c: u8) -> bool {
    super::syntax::legal_variable_starter(c) || c.is_ascii_digit() || b"@*#?-$!".contains(&c)
}

/// Past the zsh parameter name at `from`: a name, digits, or one special character.
fn zsh_param_end(b: &[u8], from: usize, to: usize) -> usize {
    let Some(&c) = b.get(from).filter(|_| from < to) else {
        return from;
    };
    let run = |keep: fn(u8) -> bool| {
        from + b
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| keep(c))
            .count()
    };
    if super::syntax::legal_variable_starter(c) {
        run(super::syntax::legal_variable_char)
    } else if c.is_ascii_digit() {
        run(|c| c.is_ascii_digit())
    } else {
        from + 1
    }
}

/// The `)` closing zsh's parameter flags `(…)` whose inside starts at `from`
/// ([`zsh_flags`]).
fn flags_end(b: &[u8], from: usize, to: usize, cut: &std::cell::Cell<bool>) -> Option<usize> {
    // An argument that does not close: the first `)` (zsh refuses the word).
    flags_with_arguments_end(b, from, to, cut).or_else(|| {
        let mut i = from;
        while i < to.min(b.len()) {
            match b[i] {
                b'$' if b.get(i + 1) == Some(&b'(') => i = paren_end_or_cut(b, i + 2, to, cut),
                b')' => return Some(i),
                _ => i += 1,
            }
        }
        None
    })
}

fn flags_with_arguments_end(
    b: &[u8],
    from: usize,
    to: usize,
    cut: &std::cell::Cell<bool>,
) -> Option<usize> {
    zsh_flags(b, from, to, cut).map(|(close, _)| close)
}

/// zsh's parameter flags whose inside starts at `from` (past the `(`): the index of the
/// `)` that closes them, and the flags themselves, outside their arguments (a `$(…)` among
/// them is skipped). `None` when no `)` closes them. Each argument of `j:…:`, `s.….`,
/// `l:…::…::…:`, `I:…:` is read up to its own closing delimiter (the same character, or
/// the match of `(`, `[`, `{`, `<`), which may be `)`.
pub(crate) fn zsh_flags(
    b: &[u8],
    from: usize,
    to: usize,
    cut: &std::cell::Cell<bool>,
) -> Option<(usize, Vec<u8>)> {
    // Flags are short: past [`MAX_FLAGS_BYTES`] they are not read (and count as unread),
    // which keeps a body of many unclosed `${(` linear.
    let to = to.min(b.len()).min(from.saturating_add(MAX_FLAGS_BYTES));
    let mut flags = Vec::new();
    let mut i = from;
    while i < to {
        match b[i] {
            b'$' if b.get(i + 1) == Some(&b'(') => i = paren_end_or_cut(b, i + 2, to, cut),
            b')' => return Some((i, flags)),
            c @ (b'j' | b's' | b'l' | b'r' | b'Z' | b'_' | b'I' | b'g') => {
                flags.push(c);
                i += 1;
                let open = *b.get(i).filter(|_| i < to)?;
                let close = match open {
                    b'(' => b')',
                    b'[' => b']',
                    b'{' => b'}',
                    b'<' => b'>',
                    d => d,
                };
                // `l` and `r` take up to three arguments, each in its own delimiters.
                let most = if matches!(c, b'l' | b'r') { 3 } else { 1 };
                for n in 0..most {
                    if n > 0 && b.get(i).filter(|_| i < to) != Some(&open) {
                        break;
                    }
                    // (zsh ends an argument at the first delimiter; whether a backslash
                    // escapes it is not followed: such flags are not read.)
                    let mut j = i + 1;
                    while j < to && b[j] != close {
                        if b[j] == b'\\' {
                            return None;
                        }
                        j += 1;
                    }
                    if j >= to {
                        return None;
                    }
                    i = j + 1;
                }
            }
            c => {
                flags.push(c);
                i += 1;
            }
        }
    }
    None
}

/// The most bytes of zsh parameter flags [`zsh_flags`] reads.
const MAX_FLAGS_BYTES: usize = 256;

/// How deep the end finders below follow constructs inside constructs (they recurse once
/// per level); past it they give up, and the reader counts the word as not read
/// ([`Parser::cut`]), which it reads no deeper than [`MAX_DEPTH`] anyway.
const MAX_END_DEPTH: usize = 4 * MAX_DEPTH;

/// Past the `"` closing a double-quoted part whose inside starts at `from`; `None` past
/// [`MAX_END_DEPTH`] levels (`d` is this one).
fn dquote_end(d: usize, b: &[u8], from: usize, to: usize) -> Option<usize> {
    if d > MAX_END_DEPTH {
        return None;
    }
    let mut i = from;
    while i < to {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            b'`' => i = backquote_end(b, i + 1, to),
            b'$' if b.get(i + 1) == Some(&b'(') => i = paren_end(d + 1, b, i + 2, to)?,
            b'$' if b.get(i + 1) == Some(&b'{') => i = brace_end(d + 1, b, i + 2, to)?,
            _ => i += 1,
        }
    }
    Some(to + 1)
}

/// Past the backquote closing one whose inside starts at `from`.
fn backquote_end(b: &[u8], from: usize, to: usize) -> usize {
    let mut i = from;
    while i < to {
        match b[i] {
            b'\\' => i += 2,
            b'`' => return i + 1,
            _ => i += 1,
        }
    }
    to
}

/// Past the `)` closing a `(` whose inside starts at `from`, quotes and nesting followed.
fn paren_end(d: usize, b: &[u8], from: usize, to: usize) -> Option<usize> {
    if d > MAX_END_DEPTH {
        return None;
    }
    let mut depth = 1usize;
    let mut i = from;
    while i < to {
        match b[i] {
            b'\\' => i += 1,
            b'\'' => i = memchr::memchr(b'\'', &b[i + 1..to]).map_or(to, |p| i + 1 + p),
            b'"' => i = dquote_end(d + 1, b, i + 1, to)?.saturating_sub(1),
            b'`' => i = backquote_end(b, i + 1, to).saturating_sub(1),
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(to)
}

/// Past the `}` closing a `${` whose inside starts at `from`.
fn brace_end(d: usize, b: &[u8], from: usize, to: usize) -> Option<usize> {
    if d > MAX_END_DEPTH {
        return None;
    }
    let mut depth = 1usize;
    let mut i = from;
    while i < to {
        match b[i] {
            b'\\' => i += 1,
            b'\'' => i = memchr::memchr(b'\'', &b[i + 1..to]).map_or(to, |p| i + 1 + p),
            b'"' => i = dquote_end(d + 1, b, i + 1, to)?.saturating_sub(1),
            b'`' => i = backquote_end(b, i + 1, to).saturating_sub(1),
            b'$' if b.get(i + 1) == Some(&b'(') => {
                i = paren_end(d + 1, b, i + 2, to)?.saturating_sub(1)
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(to + 1)
}

/// The `]` closing a `[` whose inside starts at `from` (its index; `to` when none).
fn bracket_end(b: &[u8], from: usize, to: usize) -> usize {
    let mut depth = 1usize;
    let mut i = from;
    while i < to {
        match b[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    to
}

/// Decodes `$'…'` from its inside at `from` as bash's `ansicstr` does; gives the bytes and
/// the index past the closing quote.
fn ansi_c(b: &[u8], from: usize, to: usize) -> (Vec<u8>, usize) {
    // Where it ends: the first `'` no `\` escapes (the lexer pairs a `\` with the byte
    // after it, whatever the escape).
    let mut close = from;
    while close < to && b[close] != b'\'' {
        close += if b[close] == b'\\' { 2 } else { 1 };
    }
    let end = close.min(to);
    let mut out = Vec::new();
    let mut i = from;
    while i < end {
        let c = b[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&e) = b.get(i).filter(|_| i < end) else {
            out.push(b'\\');
            break;
        };
        i += 1;
        let before = out.len();
        match e {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'e' | b'E' => out.push(27),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' | b'\'' | b'"' | b'?' => out.push(e),
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                let mut n = 1;
                while n < 3 && i < end && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push((v & 0xff) as u8);
            }
            b'x' | b'u' | b'U' => {
                // (bash's `\x{HH…}`: every hex digit up to a `}`, which it takes.)
                let braced = e == b'x' && b.get(i) == Some(&b'{') && i < end;
                if braced {
                    i += 1;
                }
                let max = match e {
                    _ if braced => usize::MAX,
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let mut v: u32 = 0;
                let mut n = 0;
                while n < max && i < end && b[i].is_ascii_hexdigit() {
                    v = v.saturating_mul(16).saturating_add(hex(b[i]));
                    i += 1;
                    n += 1;
                }
                if braced && b.get(i) == Some(&b'}') && i < end {
                    i += 1;
                }
                if n == 0 && !braced {
                    out.push(b'\\');
                    out.push(e);
                } else if e == b'x' {
                    out.push((v & 0xff) as u8);
                } else {
                    let ch = char::from_u32(v).unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
            }
            b'c' => {
                if let Some(&x) = b.get(i).filter(|_| i < end) {
                    out.push(x.to_ascii_uppercase() & 0x1f);
                    i += 1;
                }
            }
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
        // bash ends the text at a NUL an escape makes (`$'ev\0x'al` is `eval`).
        if out[before..].contains(&0) {
            out.truncate(before);
            break;
        }
    }
    (out, end + 1)
}

/// Whether the text of a `$'…'` (between its quotes) holds an escape that bash (3.2 to
/// 5.3) and zsh do not all decode alike: `\d` and other escapes bash keeps and zsh drops
/// the `\` of, `\$`, `\c`, `\M-`, `\C-`, `\x{…}`, `\x` with no digit, a NUL (bash ends the
/// text there, zsh keeps it), `\u` and `\U` (bash 3.2 keeps them as written, bash 4.4 on
/// outside a UTF-8 locale). The escapes every shell reads alike are `\a \b \e \E \f \n \r
/// \t \v \\ \' \" \?` and an octal or `\x` escape of a byte that is no NUL.
pub fn ansi_c_differs(content: &[u8]) -> bool {
    let mut i = 0;
    while let Some(k) = content
        .get(i..)
        .and_then(|r| r.iter().position(|&c| c == b'\\'))
    {
        i += k + 1;
        let Some(&e) = content.get(i) else {
            return true;
        };
        i += 1;
        let digits = |i: usize, max: usize, radix: u32| -> (u32, usize) {
            let mut v: u32 = 0;
            let mut n = 0;
            while n < max
                && let Some(d) = content
                    .get(i + n)
                    .and_then(|&c| char::from(c).to_digit(radix))
            {
                v = v.saturating_mul(radix).saturating_add(d);
                n += 1;
            }
            (v, n)
        };
        match e {
            b'a' | b'b' | b'e' | b'E' | b'f' | b'n' | b'r' | b't' | b'v' => {}
            b'\\' | b'\'' | b'"' | b'?' => {}
            // (A NUL: bash ends the text there, zsh keeps it, even at the end.)
            b'0'..=b'7' => {
                let (v, n) = digits(i - 1, 3, 8);
                i += n - 1;
                if v == 0 || v > 0xff {
                    return true;
                }
            }
            b'x' => {
                let (v, n) = digits(i, 2, 16);
                i += n;
                if v == 0 {
                    return true;
                }
            }
            // (bash 3.2 never decodes `\u`, bash 4.4 on only in a UTF-8 locale.)
            _ => return true,
        }
    }
    false
}

fn hex(c: u8) -> u32 {
    match c {
        b'0'..=b'9' => u32::from(c - b'0'),
        b'a'..=b'f' => u32::from(c - b'a' + 10),
        _ => u32::from(c.to_ascii_lowercase().wrapping_sub(b'a')) + 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &str) -> Option<String> {
        read(&Text::command(s.as_bytes()), &())
            .value()
            .map(|v| String::from_utf8_lossy(&v).into_owned())
    }

    #[test]
    fn a_word_as_written_is_read_as_one_literal_piece_in_its_steps() {
        let long = "a".repeat(5000);
        for w in [
            "ls",
            "-la",
            "out.txt",
            "dir_0",
            "--flag=v:1,2",
            "a@b%c+d",
            "x=y",
            "é/ü",
            "..",
            ".a,",
            &long,
        ] {
            assert!(as_written(w.as_bytes()), "{w}");
            let (info, steps) = read_counted(&Text::command(w.as_bytes()), &());
            assert!(
                matches!(info.pieces.as_slice(), [Piece::Lit(l)] if l == w.as_bytes()),
                "{w}"
            );
            assert!(
                !info.many && !info.brace && !info.split && !info.tilde && !info.unread,
                "{w}"
            );
            assert!(!info.process && info.breaks.is_empty(), "{w}");
            assert_eq!(steps, as_written_steps(w.as_bytes()), "{w}");
        }
        // Any byte the reading treats specially: not plain.
        for w in [
            "", "~", "a*", "a?", "[a]", "{a,b}", "{a.b}", "$x", "`x`", "'x'", "\"x\"", "a\\b",
            "<(x)", "a b",
        ] {
            assert!(!as_written(w.as_bytes()), "{w}");
        }
    }

    #[test]
    fn quotes_escapes_and_ansi_c_give_the_literal_value() {
        assert_eq!(value("alias").as_deref(), Some("alias"));
        assert_eq!(value("'al'ias").as_deref(), Some("alias"));
        assert_eq!(value("\\alias").as_deref(), Some("alias"));
        assert_eq!(value("a\"li\"as").as_deref(), Some("alias"));
        assert_eq!(value("$'\\x61lias'").as_deref(), Some("alias"));
        assert_eq!(value("$'\\141lias'").as_deref(), Some("alias"));
        assert_eq!(value("''").as_deref(), Some(""));
        // bash ends the text at a NUL; a `\x{…}` takes every hex digit.
        assert_eq!(value("$'ev\\0x'al").as_deref(), None);
        assert_eq!(value("$'\\x{61}'").as_deref(), None);
        assert_eq!(value("$'a\\0'").as_deref(), None);
        assert_eq!(value("$'\\u2713'").as_deref(), None);
        assert_eq!(value("$'\\x41\\t'").as_deref(), Some("A\t"));
    }

    #[test]
    fn ansi_c_escapes_the_shells_decode_differently_are_found() {
        // bash 3.2 keeps `\u` as written (bash 4.4 outside UTF-8); zsh drops the `\` of `\d`
        // and `\$` and reads `\c`, `\M-`, `\x` with no digit otherwise, and keeps a NUL that
        // bash ends the text at.
        for t in [
            "\\u0061",
            "\\d",
            "\\$",
            "\\cA",
            "\\M-a",
            "\\C-a",
            "\\x{41}",
            "\\xg",
            "\\u{41}",
            "a\\0b",
            "\\x00b",
            "\\400",
            "\\",
            "a\\0",
            "\\u2713",
            "\\U0001F600",
        ] {
            assert!(ansi_c_differs(t.as_bytes()), "{t:?}");
        }
        for t in ["\\n\\t\\e[31m\\\\\\'\\\"\\?", "\\x41\\101\\x414", "plain"] {
            assert!(!ansi_c_differs(t.as_bytes()), "{t:?}");
        }
    }

    #[test]
    fn expansions_globs_and_braces_have_no_literal_value() {
        for w in [
            "${a}as",
            "$a",
            "al{ias,}",
            "al*s",
            "~/x",
            "$(echo alias)",
            "`x`",
        ] {
            assert_eq!(value(w), None, "{w}");
        }
    }

    #[test]
    fn parameters_with_operators_and_arithmetic_names_are_read() {
        let w = read(&Text::command(b"${x:-$HOME/a}$((i+1))${a[j]}"), &());
        let params: Vec<&Param> = w
            .pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Param(p) => Some(&**p),
                _ => None,
            })
            .collect();
        let names: Vec<&[u8]> = params.iter().map(|p| p.name.as_slice()).collect();
        assert_eq!(names, [&b"x"[..], b"a"]);
        let inner = params
            .first()
            .and_then(|p| p.arg.as_ref())
            .and_then(|a| a.pieces.first());
        assert!(matches!(inner, Some(Piece::Param(p)) if p.name == b"HOME"));
        let arith = w.pieces.iter().find_map(|p| match p {
            Piece::Arith(a) => Some(a.names.clone()),
            _ => None,
        });
        assert_eq!(arith, Some(vec![b"i".to_vec()]));
        let sub = params
            .get(1)
            .and_then(|p| p.subscript.as_ref())
            .map(|s| s.names.clone());
        assert_eq!(sub, Some(vec![b"j".to_vec()]));
    }

    #[test]
    fn assignments_are_split_into_name_subscript_and_value() {
        let a = assignment(&Text::command(b"BASH_ALIASES[c]='cat <<E'"), &()).unwrap();
        assert_eq!(a.name, b"BASH_ALIASES");
        assert!(a.subscript.is_some());
        assert_eq!(a.value.value().as_deref(), Some(&b"cat <<E"[..]));
        let a = assignment(&Text::command(b"x+=1"), &()).unwrap();
        assert_eq!(a.name, b"x");
        assert!(assignment(&Text::command(b"1x=2"), &()).is_none());
    }

    #[test]
    fn the_quick_assignment_test_agrees_with_reading_the_assignment() {
        let words: [&[u8]; 12] = [
            b"x=1",
            b"x+=1",
            b"a[$(i)]=v",
            b"a[i]+=(1 2)",
            b"echo",
            b"=x",
            b"1x=2",
            b"\\x=1",
            b"'x'=1",
            b"x$(a=b)",
            b"_=",
            b"a[b]c=1",
        ];
        let assignments: Vec<bool> = words
            .iter()
            .map(|w| is_assignment(&Text::command(w)))
            .collect();
        // (Whether bash assigns each, measured with bash 5.2: `bash -c 'WORD; declare -p'`.)
        assert_eq!(
            assignments,
            [
                true, true, true, true, false, false, false, false, false, false, true, false
            ]
        );
        for w in words {
            let t = Text::command(w);
            assert_eq!(is_assignment(&t), assignment(&t, &()).is_some(), "{w:?}");
        }
    }
}
