//! The judge's values: what a variable, a word or a command's output can hold, as far as
//! a hidden evaluator cares. Four kinds, joined:
//!
//! - text the command fixes (its literals, arithmetic results, loop words), kept exactly
//!   while there are few ([`MAX_LITS`]), else as the bytes it may hold;
//! - heredoc text, or text that may be heredoc text (program and function output, file
//!   contents, names assigned at run time), as the bytes it may hold: what an evaluator can
//!   make of it depends only on which bytes it holds, and the bytes of a part of a text,
//!   or of texts glued together, are the bytes of the texts;
//! - the environment's text (a variable the command never assigns): never heredoc text.
//!
//! The lattice is finite (a few flags, two sets of 256 bytes, a capped list), so the
//! solver's joins end.

use std::rc::Rc;

/// Most exact texts kept for one value; past it, their bytes.
pub(super) const MAX_LITS: usize = 8;
/// Most rounds [`Val::repeated`] takes before it gives up settling (conservatively).
const MAX_REPEAT_ROUNDS: usize = 4 * MAX_LITS;
/// Longest exact text kept; a longer one is kept as its bytes.
const MAX_LIT_BYTES: usize = 4096;

/// A set of bytes.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct ByteSet([u64; 4]);

impl ByteSet {
    pub const EMPTY: ByteSet = ByteSet([0; 4]);
    pub const ALL: ByteSet = ByteSet([u64::MAX; 4]);

    /// The bytes of `text` (word at a time where it can).
    pub fn of(text: &[u8]) -> ByteSet {
        let mut s = ByteSet::EMPTY;
        s.add_all(text);
        s
    }

    /// The set of the given bytes (for constants).
    pub const fn of_const(text: &[u8]) -> ByteSet {
        let mut s = [0u64; 4];
        let mut k = 0;
        while k < text.len() {
            let b = text[k];
            s[(b >> 6) as usize] |= 1 << (b & 63);
            k += 1;
        }
        ByteSet(s)
    }

    /// The set whose bit `c % 64` of word `c / 64` is set for each byte `c`.
    pub const fn from_words(words: [u64; 4]) -> ByteSet {
        ByteSet(words)
    }

    pub fn add_all(&mut self, text: &[u8]) {
        for &b in text {
            self.0[(b >> 6) as usize] |= 1 << (b & 63);
        }
    }

    pub fn has(&self, b: u8) -> bool {
        self.0[(b >> 6) as usize] & (1 << (b & 63)) != 0
    }

    /// Every byte of the set is one of `bytes`.
    pub fn within(&self, bytes: &[u8]) -> bool {
        let allowed = ByteSet::of(bytes);
        self.0
            .iter()
            .zip(allowed.0.iter())
            .all(|(a, b)| a & !b == 0)
    }

    pub fn any_of(&self, other: &ByteSet) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    /// Every byte of `text` is in the set.
    pub fn holds_all(&self, text: &[u8]) -> bool {
        text.iter().all(|&b| self.has(b))
    }

    pub fn union(self, other: ByteSet) -> ByteSet {
        ByteSet([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
            self.0[3] | other.0[3],
        ])
    }

    /// The set with every ASCII letter's other case added (`declare -u`, `${x^^}`); with
    /// a byte past ASCII, every ASCII letter (the locale may map a letter to one: `ı` to
    /// `I`, `ſ` to `S`, the Kelvin sign to `k`).
    pub fn both_cases(self) -> ByteSet {
        if self.0[2] != 0 || self.0[3] != 0 {
            let mut s = self;
            s.add_all(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
            return s;
        }
        let mut s = self;
        for b in b'a'..=b'z' {
            if self.has(b) || self.has(b.to_ascii_uppercase()) {
                s.add_all(&[b, b.to_ascii_uppercase()]);
            }
        }
        s
    }
}

/// The bytes of a decimal number (an arithmetic result, a length, a process id).
pub(crate) const NUMBER: ByteSet = ByteSet::of_const(b"0123456789-");

/// The bytes a number zsh's arithmetic prints may hold beyond a decimal's: a float's
/// (`1.5`, `1e+20`, `Inf`, `NaN`: `FORCE_FLOAT`, `0 ** -1`), and a base's (`16#FF` from an
/// output base `[#16]` or a variable keeping a constant's base, `0xff` too). Whole, such a number evaluates to itself; a part of
/// one (`${y#*#}` of `16#FF` is `FF`), or one glued to other text, may be a name.
pub(crate) const ZSH_NUMBER_LETTERS: ByteSet =
    ByteSet::of_const(b"0123456789-+.#aefnxABCDEFGHIJKLMNOPQRSTUVWXYZ");

/// What zsh prints for arithmetic whose own text sets an output base (`[##16]` prints
/// `FF`, `[#10_3]` groups with `_`): letters whole.
pub(crate) const ZSH_BASED_OUTPUT: ByteSet =
    ByteSet::of_const(b"0123456789-+.#_aefnxABCDEFGHIJKLMNOPQRSTUVWXYZ");

/// The bytes a program's error message does not show as themselves (GNU's `quote()` in
/// the C locale, `wc`'s shell quoting, git's): control bytes, DEL, bytes past ASCII, the
/// backslash and the quotes (`'` as `\'` where it closes the quoting, `'\''` in shell
/// quoting; round 99).
pub(crate) const QUOTE_ESCAPES_BYTES: ByteSet = ByteSet::from_words([
    0xFFFF_FFFF | (1 << b'\'') | (1 << b'"'),
    (1 << (b'\\' - 64)) | (1 << (0x7F - 64)),
    u64::MAX,
    u64::MAX,
]);

/// The bytes such a message writes for one: `\`, an escape's letters and digits, quotes,
/// and the `$` of shell quoting's `$'\001'`.
pub(crate) const QUOTE_ESCAPES: ByteSet = ByteSet::of_const(b"\\01234567abfnrtv'\"$");

/// What a value can hold.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub(crate) struct Val {
    /// Texts the command fixes, exactly.
    pub lits: Vec<Rc<[u8]>>,
    /// Text the command fixes, not kept exactly: the bytes it may hold.
    pub fixed: Option<ByteSet>,
    /// Heredoc texts known exactly (a quoted body, its first line), at most
    /// [`MAX_LITS`].
    pub htexts: Vec<Rc<[u8]>>,
    /// Heredoc text not known exactly, or text that may be heredoc text (run-time text):
    /// the bytes it may hold.
    pub heredoc: Option<ByteSet>,
    /// Part of [`Val::heredoc`] is run-time text the command does not show (program or
    /// function output, a file, a name assigned at run time): for the message only.
    pub unknown: bool,
    /// The environment's text.
    pub env: bool,
    /// [`Val::fixed`] (or [`Val::heredoc`]) includes a number zsh's arithmetic printed:
    /// whole, a number; a part of it, or it glued to other text, holds
    /// [`ZSH_NUMBER_LETTERS`] (which [`Val::fixed_bytes`], [`Val::heredoc_bytes`] and
    /// [`Val::bytes`] count).
    pub zsh_number: bool,
    /// Known: an exact text that holds an assignment expansion went into the inexact fixed
    /// text (the lits folded into their bytes, a part of one).
    pub fixed_assigns: bool,
    /// Known: an exact text that holds a substitution (`$(`, a backquote) went into the
    /// inexact fixed text, as [`Val::fixed_assigns`] says of an assignment.
    pub fixed_substs: bool,
    /// The inexact fixed text may end right after a `$` or inside an open `${` (a part of
    /// text that holds a `$`, `${v#x}` of `x${`): glued to a `(` or a `=`, it may make a
    /// substitution or an assignment (round 61).
    pub open_end: bool,
}

/// Whether a text known exactly ends right after a `$` or inside an open `${`, read as
/// bash matches one (`parse_matched_pair`): inside it every `{` opens and every `}` closes
/// (`${o%{}` is open, and an inner `${p}` closed leaves the outer one open), and a `[`
/// opens a subscript whose `]` ends it, a `}` in it closing nothing (bash 5.2 on: `${a[c}]`
/// is open). A quote, a backslash or a substitution after the first `${` makes it open: a
/// `}` may be text there (`${o%'}'`, `${o%$(echo })}`) and the count cannot be trusted.
fn open_text(l: &[u8]) -> bool {
    if l.last() == Some(&b'$') {
        return true;
    }
    let Some(first) = crate::search::find(l, b"${") else {
        return false;
    };
    let mut depth = 0usize;
    let mut brackets = 0usize;
    let mut k = first;
    while k < l.len() {
        match l[k] {
            b'\\' | b'\'' | b'"' | b'`' => return true,
            b'$' if l.get(k + 1) == Some(&b'(') => return true,
            b'$' if l.get(k + 1) == Some(&b'{') && brackets == 0 => {
                depth += 1;
                k += 1;
            }
            _ if depth == 0 => {}
            b'[' => brackets += 1,
            b']' => brackets = brackets.saturating_sub(1),
            _ if brackets > 0 => {}
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {}
        }
        k += 1;
    }
    depth > 0 || brackets > 0
}

/// Whether a text known exactly holds a substitution, which a hidden evaluator that expands
/// it again reads only then (`$(`, a backquote).
pub(crate) fn substituting_text(t: &[u8]) -> bool {
    t.contains(&b'`') || crate::search::find(t, b"$(").is_some()
}

/// Whether a text known exactly holds an assignment expansion, or an expansion that
/// expands another value again (`${y@P}`, zsh's `${(e)y}`, `${(%)y}`), which may hold one
/// its escapes make: `${name=v}`, `${name:=v}`,
/// zsh's `${name::=v}` (a name with its flags before it, `${(P)name=v}`, and its
/// subscript, whatever it holds: `${a[${e}s]=v}`), or bash 5.3's `${ cmd; }` and
/// `${| cmd; }`, which run in the shell itself.
pub(crate) fn assigning_text(t: &[u8]) -> bool {
    let again = |rest: &[u8]| {
        rest.starts_with(b"(")
            && rest
                .iter()
                .take_while(|&&c| c != b')')
                .any(|c| matches!(c, b'e' | b'%'))
    };
    // (A `$` and a `{`: "${" cannot overlap itself, so this is every match.)
    memchr::memchr_iter(b'$', t)
        .filter(|&i| t.get(i + 1) == Some(&b'{'))
        .any(|i| {
            // (zsh's flags take delimited arguments that may hold any byte, `(s:():e)`: a `${(`
            // is not read past, and counts.)
            if t.get(i + 2) == Some(&b'(') {
                return true;
            }
            if again(t.get(i + 2..).unwrap_or_default())
                || t[i..]
                    .iter()
                    .position(|&c| c == b'}')
                    .is_some_and(|end| crate::search::find(&t[i..i + end], b"@P").is_some())
            {
                return true;
            }
            let mut k = i + 2;
            if matches!(t.get(k), Some(b' ' | b'\t' | b'\n' | b'|')) {
                return true;
            }
            // zsh's flags, `(…)`.
            if t.get(k) == Some(&b'(') {
                match t[k..].iter().position(|&c| c == b')') {
                    Some(close) => k += close + 1,
                    None => return false,
                }
            }
            // Indirection and zsh's `^`, `=`, `~` before the name.
            while matches!(t.get(k), Some(b'!' | b'^' | b'=' | b'~')) {
                k += 1;
            }
            let name = t[k.min(t.len())..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            // (A name zsh takes past ASCII, or a nested `${…}`: not followed, counted.)
            if name == 0 {
                return t.get(k).is_some_and(|&c| !c.is_ascii() || c == b'$');
            }
            k += name;
            // A subscript (quotes and nested `${…}` in it may hold a `]`: any `=` after it).
            if t.get(k) == Some(&b'[') {
                return t[k..].contains(&b'=');
            }
            if t.get(k) == Some(&b':') {
                k += 1;
                if t.get(k) == Some(&b':') {
                    k += 1;
                }
            }
            t.get(k) == Some(&b'=')
        })
}

/// Whether a text known exactly may make `c` once its escapes are decoded (`printf`,
/// `echo -e`, `%b`, `${x@E}`, a prompt): `c` itself, or an escape that decodes to it (an
/// octal `\NNN` or `\0NNN`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`).
pub(crate) fn may_make(t: &[u8], c: u8) -> bool {
    let value = |digits: &[u8], radix: u32, max: usize| -> Option<u32> {
        let n = digits
            .iter()
            .take(max)
            .take_while(|d| (**d as char).is_digit(radix))
            .count();
        let d = std::str::from_utf8(digits.get(..n)?).ok()?;
        u32::from_str_radix(d, radix).ok()
    };
    t.contains(&c)
        || memchr::memchr_iter(b'\\', t).any(|i| {
            let e = t.get(i + 1..).unwrap_or_default();
            let made = match e.first() {
                Some(b'x') => value(&e[1..], 16, 2),
                Some(b'u') => value(&e[1..], 16, 4),
                Some(b'U') => value(&e[1..], 16, 8),
                // (`\0NNN` in `echo -e` and `%b`; `\NNN` in `printf`'s format and prompts;
                // past `\377` the byte wraps.)
                Some(b'0') => value(&e[1..], 8, 3)
                    .filter(|v| *v & 0xff == u32::from(c))
                    .or_else(|| value(e, 8, 3)),
                Some(b'1'..=b'7') => value(e, 8, 3),
                _ => None,
            };
            made.is_some_and(|v| v & 0xff == u32::from(c) || v == u32::from(c))
        })
}

/// Whether text known by these bytes may hold `c` once its escapes are decoded (`%b`,
/// `${x@E}`): `c` itself, or a `\\` and the digits of an escape that makes it (`\\x24`,
/// `\\u0024`, `\\44`, `\\044`, `\\0044`, and `\\444`, which wraps past `\\377`).
pub(crate) fn bytes_may_make(b: ByteSet, c: u8) -> bool {
    let digits = |s: &str| s.bytes().all(|d| b.has(d) || b.has(d.to_ascii_uppercase()));
    let wrapped = u32::from(c) + 256;
    b.has(c)
        || (b.has(b'\\')
            && (((b.has(b'x') || b.has(b'u') || b.has(b'U')) && digits(&format!("{c:x}")))
                || digits(&format!("{c:o}"))
                || digits(&format!("{wrapped:o}"))))
}

/// Whether text known by these bytes may hold an assignment expansion.
pub(crate) fn bytes_may_assign(b: ByteSet) -> bool {
    b.has(b'$') && b.has(b'{') && b.has(b'=')
}

impl Val {
    pub fn lit(text: &[u8]) -> Val {
        let mut v = Val::default();
        v.add_lit(Rc::from(text));
        v
    }

    pub fn fixed(bytes: ByteSet) -> Val {
        Val {
            fixed: Some(bytes),
            ..Val::default()
        }
    }

    pub fn number() -> Val {
        Val::fixed(NUMBER)
    }

    /// What zsh's arithmetic prints: a number, whose letters count once it is cut or glued.
    pub fn zsh_number() -> Val {
        Val {
            fixed: Some(NUMBER),
            zsh_number: true,
            ..Val::default()
        }
    }

    /// Whether the fixed text may end inside an unclosed `${` (or with a `$`), which text
    /// glued after it may make an assignment expansion: exact texts are looked at.
    fn open_at_end(&self) -> bool {
        // (Text known by its bytes only counts where it is known to: [`Val::open_end`];
        // most joined values hold a `$`, and a `=` may follow any.)
        self.lits.iter().any(|l| open_text(l))
    }

    /// Whether the text the command fixes is known to hold an assignment expansion: an
    /// exact text that does, or one that went into the inexact text. (What a value carries
    /// on; [`Val::fixed_known_to_assign`] is what a decision reads.)
    pub fn fixed_assigns_any(&self) -> bool {
        self.lits.iter().any(|l| assigning_text(l)) || self.fixed_assigns
    }

    /// Whether the text the command fixes is known to hold a substitution: an exact text
    /// that does, or one that went into the inexact text ([`Val::fixed_substs`]).
    pub fn fixed_substs_any(&self) -> bool {
        self.lits.iter().any(|l| substituting_text(l)) || self.fixed_substs
    }

    /// [`Val::fixed_assigns_any`], where the assignment may reach an alias table, the one
    /// that matters here: an exact text; or inexact text (most scripts' joined values hold
    /// `$`, `{`, `=`) whose bytes spell a table's name (`ALIAS`, `alias`), or may name one
    /// held elsewhere: `${!n=…}`, zsh's `${(P)n::=…}`, a bash 5.3 `${ …; }` that runs
    /// commands in the shell itself (`;`, `&` or a newline ends them), or where the command
    /// holds a nameref (`named_elsewhere`: `declare -n r=BASH_ALIASES; ${r[s]=…}`).
    pub fn fixed_known_to_assign(&self, named_elsewhere: bool) -> bool {
        self.lits.iter().any(|l| assigning_text(l))
            || (self.fixed_assigns
                && self.fixed_letters().is_some_and(|b| {
                    named_elsewhere
                        || b.holds_all(b"ALIAS")
                        || b.holds_all(b"alias")
                        || b.has(b'!')
                        || (b.has(b'(') && b.has(b'P'))
                        || b"\n;&".iter().any(|&c| b.has(c))
                }))
    }

    /// [`Val::fixed`], with the letters a zsh number may hold.
    pub fn fixed_letters(&self) -> Option<ByteSet> {
        self.fixed.map(|f| {
            if self.zsh_number {
                f.union(ZSH_NUMBER_LETTERS)
            } else {
                f
            }
        })
    }

    pub fn env() -> Val {
        Val {
            env: true,
            ..Val::default()
        }
    }

    pub fn heredoc(bytes: ByteSet) -> Val {
        Val {
            heredoc: Some(bytes),
            ..Val::default()
        }
    }

    /// Heredoc text known exactly.
    pub fn heredoc_text(text: &[u8]) -> Val {
        let mut v = Val::default();
        v.add_htext(Rc::from(text));
        v
    }

    /// Whether the value may hold heredoc text.
    pub fn has_heredoc(&self) -> bool {
        self.heredoc.is_some() || !self.htexts.is_empty()
    }

    /// The bytes of its heredoc text, exact or not.
    pub fn heredoc_bytes(&self) -> Option<ByteSet> {
        let heredoc = self.heredoc.map(|h| {
            if self.zsh_number {
                h.union(ZSH_NUMBER_LETTERS)
            } else {
                h
            }
        });
        if self.htexts.is_empty() {
            return heredoc;
        }
        let mut b = heredoc.unwrap_or_default();
        for t in &self.htexts {
            b.add_all(t);
        }
        Some(b)
    }

    /// Adds heredoc text `t`; whether the value changed.
    fn add_htext(&mut self, t: Rc<[u8]>) -> bool {
        if t.len() > MAX_LIT_BYTES {
            let b = ByteSet::of(&t);
            let before = self.heredoc;
            self.heredoc = Some(self.heredoc.map_or(b, |f| f.union(b)));
            return self.heredoc != before;
        }
        // A text the bytes already cover adds nothing (and the solver's joins then end).
        // (The same text is most often the very same one, shared: compared by address
        // first.)
        if self.htexts.iter().any(|l| Rc::ptr_eq(l, &t))
            || self.htexts.iter().any(|l| **l == *t)
            || self.heredoc.is_some_and(|h| h.holds_all(&t))
        {
            return false;
        }
        self.htexts.push(t);
        if self.htexts.len() > MAX_LITS {
            let mut b = self.heredoc.unwrap_or_default();
            for l in self.htexts.drain(..) {
                b.add_all(&l);
            }
            self.heredoc = Some(b);
        }
        true
    }

    /// Run-time text the command does not show: possibly heredoc text, any byte.
    pub fn unknown() -> Val {
        Val {
            heredoc: Some(ByteSet::ALL),
            unknown: true,
            ..Val::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lits.is_empty()
            && self.fixed.is_none()
            && self.heredoc.is_none()
            && self.htexts.is_empty()
            && !self.env
    }

    /// Adds fixed text `t`; whether the value changed (a text pushed changes it: the bytes
    /// did not hold it, so even once the texts become their bytes, those grew).
    fn add_lit(&mut self, t: Rc<[u8]>) -> bool {
        if t.len() > MAX_LIT_BYTES {
            let b = ByteSet::of(&t);
            let before = (
                self.fixed,
                self.fixed_assigns,
                self.fixed_substs,
                self.open_end,
            );
            self.fixed_assigns |= assigning_text(&t);
            self.fixed_substs |= substituting_text(&t);
            self.open_end |= open_text(&t);
            self.fixed = Some(self.fixed.map_or(b, |f| f.union(b)));
            return (
                self.fixed,
                self.fixed_assigns,
                self.fixed_substs,
                self.open_end,
            ) != before;
        }
        if self.lits.iter().any(|l| Rc::ptr_eq(l, &t))
            || self.lits.iter().any(|l| **l == *t)
            || self.fixed.is_some_and(|f| f.holds_all(&t))
        {
            return false;
        }
        self.lits.push(t);
        if self.lits.len() > MAX_LITS {
            let mut b = self.fixed.unwrap_or_default();
            for l in self.lits.drain(..) {
                b.add_all(&l);
                self.fixed_assigns |= assigning_text(&l);
                self.fixed_substs |= substituting_text(&l);
                self.open_end |= open_text(&l);
            }
            self.fixed = Some(b);
        }
        true
    }

    /// Joins `other` in (either may be what it holds).
    pub fn join(&mut self, other: &Val) {
        self.join_changed(other);
    }

    /// Joins `other` in; whether the value changed (exactly: each step says whether it
    /// changed it, and none undoes another's change).
    pub fn join_changed(&mut self, other: &Val) -> bool {
        let mut changed = false;
        for l in &other.lits {
            changed |= self.add_lit(Rc::clone(l));
        }
        if let Some(f) = other.fixed {
            let before = (
                self.fixed,
                self.fixed_assigns,
                self.fixed_substs,
                self.open_end,
            );
            self.fixed = Some(self.fixed.map_or(f, |s| s.union(f)));
            self.fixed_assigns |= other.fixed_assigns;
            self.fixed_substs |= other.fixed_substs;
            self.open_end |= other.open_end;
            changed |= (
                self.fixed,
                self.fixed_assigns,
                self.fixed_substs,
                self.open_end,
            ) != before;
        }
        if let Some(h) = other.heredoc {
            let before = self.heredoc;
            self.heredoc = Some(self.heredoc.map_or(h, |s| s.union(h)));
            changed |= self.heredoc != before;
        }
        for t in &other.htexts {
            changed |= self.add_htext(Rc::clone(t));
        }
        changed |= (other.unknown && !self.unknown)
            || (other.env && !self.env)
            || (other.zsh_number && !self.zsh_number);
        self.unknown |= other.unknown;
        self.env |= other.env;
        self.zsh_number |= other.zsh_number;
        changed
    }

    /// Every byte the value's fixed and heredoc text may hold (the environment's text
    /// is not counted: it is never heredoc text).
    pub fn bytes(&self) -> ByteSet {
        let mut b = self.fixed_letters().unwrap_or_default();
        for l in &self.lits {
            b.add_all(l);
        }
        b.union(self.heredoc_bytes().unwrap_or_default())
    }

    /// Whether the value may hold one of the bytes of `set` (in any text, a zsh number's
    /// letters counted).
    pub fn may_hold(&self, set: &[u8]) -> bool {
        self.lits
            .iter()
            .chain(&self.htexts)
            .any(|l| l.iter().any(|c| set.contains(c)))
            || [self.fixed_bytes(), self.heredoc_bytes()]
                .iter()
                .flatten()
                .any(|b| set.iter().any(|&c| b.has(c)))
    }

    /// The bytes of the text the command fixes (exact or not).
    pub fn fixed_bytes(&self) -> Option<ByteSet> {
        if self.lits.is_empty() {
            return self.fixed_letters();
        }
        let mut b = self.fixed_letters().unwrap_or_default();
        for l in &self.lits {
            b.add_all(l);
        }
        Some(b)
    }

    /// Exactly the empty text, and nothing else.
    fn is_empty_text(&self) -> bool {
        matches!(self.lits.as_slice(), [l] if l.is_empty())
            && *self
                == Val {
                    lits: self.lits.clone(),
                    ..Val::default()
                }
    }

    /// `self` then `other`, glued: fixed with fixed stays fixed (exact when both are and
    /// the texts stay few), the environment's glued to fixed text is the environment's, and
    /// anything glued to heredoc text is heredoc text holding the bytes of both (the
    /// environment's part adds none: it is never heredoc text, and what runs from it is
    /// the environment's).
    pub fn glue(&self, other: &Val) -> Val {
        if self.is_empty() {
            return other.clone();
        }
        if other.is_empty() {
            return self.clone();
        }
        // The empty text glued to a value is that value: `"$v"`, `"${LANG:-C.UTF-8}"`
        // keep what was known of `v` exactly (round 70: a locale's name stays known).
        if self.is_empty_text() {
            return other.clone();
        }
        if other.is_empty_text() {
            return self.clone();
        }
        let mut out = Val::default();
        // Fixed × fixed.
        let exact = !self.lits.is_empty() && !other.lits.is_empty();
        if exact && self.lits.len() * other.lits.len() <= MAX_LITS {
            for a in &self.lits {
                for b in &other.lits {
                    let mut t = Vec::with_capacity(a.len() + b.len());
                    t.extend_from_slice(a);
                    t.extend_from_slice(b);
                    out.add_lit(Rc::from(t));
                }
            }
        }
        let (fa, fb) = (self.fixed_bytes(), other.fixed_bytes());
        let inexact = (exact && self.lits.len() * other.lits.len() > MAX_LITS)
            || (fa.is_some() && fb.is_some() && (self.fixed.is_some() || other.fixed.is_some()));
        // (Glued, two texts with no assignment expansion may make one across the seam: an
        // exact text ending inside an open `${`, and a `{` or `=` after it.)
        // (Or text known by its bytes that may end so: [`Val::open_end`], rounds 61, 62.)
        let open = self.open_at_end() || (self.open_end && self.fixed.is_some());
        let seam = open && fb.is_some_and(|b| b.has(b'=') || b.has(b'{'));
        // (Glued into text known by its bytes, where the result may end so: the other's
        // end, or this one's: how many `${` and `[` the other closes is not known, round 98:
        // `${o%${BASH_ALIASES[` then `c` then `]=…}`.)
        let ends_open = other.open_at_end() || other.open_end || open;
        let known = |v: &Val| v.fixed_assigns || v.lits.iter().any(|l| assigning_text(l));
        let glued_known = seam || known(self) || known(other);
        // (And a `$` that ends one, a `(` in the other.)
        let substs = |v: &Val| v.fixed_substs_any();
        let glued_substs =
            substs(self) || substs(other) || (open && fb.is_some_and(|b| b.has(b'(')));
        if inexact && let (Some(a), Some(b)) = (fa, fb) {
            let f = a.union(b);
            out.fixed_assigns |= glued_known;
            out.fixed_substs |= glued_substs;
            out.open_end |= ends_open;
            out.fixed = Some(out.fixed.map_or(f, |s| s.union(f)));
        }
        // The environment's with fixed or the environment's: the environment's, and the
        // fixed text's bytes are still there (glued to heredoc text later, they count).
        if (self.env && (other.env || fb.is_some())) || (other.env && fa.is_some()) {
            out.env = true;
            if let Some(f) = [fa, fb].into_iter().flatten().reduce(ByteSet::union) {
                out.fixed_assigns |= glued_known;
                out.fixed_substs |= glued_substs;
                out.open_end |= ends_open;
                out.fixed = Some(out.fixed.map_or(f, |s| s.union(f)));
            }
        }
        // Heredoc text with anything.
        if self.has_heredoc() || other.has_heredoc() {
            out.heredoc = Some(self.bytes().union(other.bytes()));
            out.unknown = self.unknown || other.unknown;
        }
        out
    }

    /// A part of the value (`${x#p}`, `${x:1}`, a field, a line), plus `extra` bytes a
    /// replacement may add: exact texts become their bytes.
    pub fn part(&self, extra: ByteSet) -> Val {
        let mut out = Val {
            env: self.env,
            unknown: self.unknown,
            ..Val::default()
        };
        if let Some(f) = self.fixed_bytes() {
            out.fixed = Some(f.union(extra));
            // (A part may end after any `$` in it.)
            out.open_end = self.open_end || f.union(extra).has(b'$');
            // (A replacement or a deletion may make one from what it removes or adds: by
            // the bytes; [`Val::substring`] keeps what was known of a contiguous part.)
            // (Text known exactly: its `$`, `{` and `=` in that order, or the replacement's.)
            let ordered = |l: &[u8]| {
                let has = |c: u8| extra.has(c);
                let d = if has(b'$') {
                    Some(0)
                } else {
                    l.iter().position(|&c| c == b'$')
                };
                let b = d.and_then(|d| {
                    if has(b'{') {
                        Some(d)
                    } else {
                        l[d..].iter().position(|&c| c == b'{').map(|k| d + k)
                    }
                });
                b.is_some_and(|b| has(b'=') || l[b..].contains(&b'='))
            };
            out.fixed_assigns = self.fixed_assigns
                || self.lits.iter().any(|l| assigning_text(l) || ordered(l))
                || self
                    .fixed_letters()
                    .is_some_and(|b| bytes_may_assign(b.union(extra)));
            // (A `$` and a `(` after it, or a backquote, the replacement's too.)
            let subst_ordered = |l: &[u8]| {
                extra.has(b'`')
                    || l.contains(&b'`')
                    || (extra.has(b'$') && (extra.has(b'(') || l.contains(&b'(')))
                    || l.iter()
                        .position(|&c| c == b'$')
                        .is_some_and(|d| extra.has(b'(') || l[d..].contains(&b'('))
            };
            out.fixed_substs = self.fixed_substs
                || self.lits.iter().any(|l| subst_ordered(l))
                || self.fixed.is_some_and(|b| {
                    let b = b.union(extra);
                    b.has(b'`') || (b.has(b'$') && b.has(b'('))
                });
        }
        if let Some(h) = self.heredoc_bytes() {
            out.heredoc = Some(h.union(extra));
        }
        out
    }

    /// A contiguous part of the value (`${x#p}`, `${x:1:2}`, a field of a line, what a
    /// pattern matched): [`Val::part`] with no bytes added, which keeps what was known of
    /// the fixed text (a part of texts that hold no assignment expansion holds none).
    pub fn substring(&self) -> Val {
        let mut out = self.part(ByteSet::EMPTY);
        if out.fixed.is_some() {
            out.fixed_assigns = self.fixed_assigns_any();
            out.fixed_substs = self.fixed_substs_any();
        }
        out
    }

    /// The value after its backslash escapes are decoded (`echo` under `xpg_echo`, `-e` or
    /// zsh, `${x@E}`): a decoder changes only text that holds a `\`, so each part of the
    /// value that may hold one (its fixed text, its heredoc text) is [`Val::wild`]'s, and a
    /// part that cannot is kept as it was. (Else text decoded again, `x=$(echo "$x")` in a
    /// loop, would grow from the empty text to any bytes, taken for text that assigns.)
    pub fn escaped(&self) -> Val {
        let fixed = self.fixed_bytes().is_some_and(|b| b.has(b'\\'));
        let heredoc = self.heredoc_bytes().is_some_and(|b| b.has(b'\\'));
        if !fixed && !heredoc {
            return self.clone();
        }
        let wild = self.wild();
        let mut out = self.clone();
        if heredoc {
            out.htexts = wild.htexts;
            out.heredoc = wild.heredoc;
        }
        if fixed {
            out.lits = wild.lits;
            out.fixed = wild.fixed;
            out.open_end = wild.open_end;
            out.fixed_assigns = wild.fixed_assigns;
            out.fixed_substs = wild.fixed_substs;
            out.zsh_number = wild.zsh_number;
        }
        out
    }

    /// The value as a program's error message quotes it (GNU's `quote()`, `wc`'s shell
    /// quoting, git's): a byte it does not show as itself (a control byte, DEL, a byte past
    /// ASCII, a backslash, a quote) becomes an escape (`\004`, `\n`, `\\`, `\'`,
    /// `'\''`, `$'\001'`), which a decoder (`echo -e`, `${x@E}`) reads back as other
    /// bytes (`\004` then `4` as `\0044`, a `$`: round 99). Text that holds no such byte
    /// is shown as it is; text that may is known by its bytes and the escapes', its flags
    /// kept (an escape makes no `${`, assignment nor substitution until decoded: the `$`
    /// of `$'…'` is followed by a quote).
    pub fn program_quoted(&self) -> Val {
        let shown = |b: ByteSet| !b.any_of(&QUOTE_ESCAPES_BYTES);
        let fixed = self.fixed_bytes().is_some_and(|b| !shown(b));
        let heredoc = self.heredoc_bytes().is_some_and(|b| !shown(b));
        let mut out = self.clone();
        if fixed {
            let f = self.fixed_bytes().unwrap_or_default().union(QUOTE_ESCAPES);
            out.open_end = self.open_end || self.open_at_end();
            out.fixed_assigns = self.fixed_assigns_any();
            out.fixed_substs = self.fixed_substs_any();
            out.lits.clear();
            out.fixed = Some(f);
            out.zsh_number = false;
        }
        if heredoc {
            let h = self
                .heredoc_bytes()
                .unwrap_or_default()
                .union(QUOTE_ESCAPES);
            out.htexts.clear();
            out.heredoc = Some(h);
        }
        out
    }

    /// Any number of the value's texts, one after another (a loop's output, a format
    /// reused for each word, `"$*"`): the texts a value holds are alternatives, and text
    /// that holds several of them at once has seams between them (`${o%$` then
    /// `{BASH_ALIASES[c]=…}`). The value joined with itself glued to it, until that adds
    /// nothing: exact texts while few, then their bytes, with what the seams may make.
    /// Also how many rounds it took (for the work meter).
    pub fn repeated(&self) -> (Val, usize) {
        let mut acc = self.clone();
        // (Each round adds texts until they are more than [`MAX_LITS`] and become bytes;
        // then the bytes and flags settle: a few rounds.)
        for round in 1..=MAX_REPEAT_ROUNDS {
            let mut next = acc.clone();
            next.join(&acc.glue(self));
            if next == acc {
                return (acc, round);
            }
            acc = next;
        }
        // (Not settled: text that may hold anything the bytes allow, counted as making
        // both an assignment and a substitution.)
        let mut out = acc.part(ByteSet::EMPTY);
        if out.fixed.is_some() {
            out.fixed_assigns = true;
            out.fixed_substs = true;
            out.open_end = true;
        }
        (out, MAX_REPEAT_ROUNDS)
    }

    /// The value after a transformation that can make any byte of its text (`${x@E}`,
    /// `printf %b`, zsh flags): heredoc text may then hold anything.
    pub fn wild(&self) -> Val {
        let mut out = self.clone();
        if out.has_heredoc() {
            out.htexts.clear();
            out.heredoc = Some(ByteSet::ALL);
        }
        if out.fixed_bytes().is_some() {
            out.lits.clear();
            // (Its escapes may make the `$`, the `{` and the `=`.)
            // (Text known by its bytes: a `\` in it may make any, round 61.)
            let makes = |c: u8| self.fixed.is_some_and(|b| bytes_may_make(b, c));
            out.open_end =
                self.open_end || makes(b'$') || self.lits.iter().any(|l| may_make(l, b'$'));
            out.fixed_assigns = self.fixed_assigns_any()
                || (makes(b'$') && makes(b'{') && makes(b'='))
                || self
                    .lits
                    .iter()
                    .any(|l| may_make(l, b'$') && may_make(l, b'{') && may_make(l, b'='));
            out.fixed_substs = self.fixed_substs_any()
                || makes(b'`')
                || (makes(b'$') && makes(b'('))
                || self
                    .lits
                    .iter()
                    .any(|l| may_make(l, b'`') || (may_make(l, b'$') && may_make(l, b'(')));
            out.fixed = Some(ByteSet::ALL);
            out.zsh_number = false;
        }
        out
    }

    /// The value as text heredoc text makes (assigned by heredoc text run as code): every
    /// kind becomes heredoc text.
    pub fn as_heredoc(&self) -> Val {
        let mut out = Val {
            unknown: self.unknown,
            zsh_number: self.zsh_number,
            ..Val::default()
        };
        for t in self.lits.iter().chain(&self.htexts) {
            out.add_htext(Rc::clone(t));
        }
        if let Some(b) = self
            .fixed
            .into_iter()
            .chain(self.heredoc)
            .reduce(ByteSet::union)
        {
            out.heredoc = Some(out.heredoc.map_or(b, |h| h.union(b)));
        }
        out
    }

    /// Trailing newlines dropped (a command substitution): only exact texts change.
    pub fn trim_newlines(&self) -> Val {
        let mut out = self.clone();
        for l in out.lits.iter_mut().chain(out.htexts.iter_mut()) {
            let end = l.iter().rposition(|&c| c != b'\n').map_or(0, |k| k + 1);
            if end != l.len() {
                *l = Rc::from(&l[..end]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_change_of_a_letter_past_ascii_may_make_any_ascii_letter() {
        // `ı` (U+0131) upper-cases to `I` and `ſ` (U+017F) to `S` in a UTF-8 locale.
        let dotless_i = ByteSet::of("ı".as_bytes()).both_cases();
        assert!(dotless_i.has(b'I') && dotless_i.has(b'S') && dotless_i.has(b'k'));
        // ASCII text keeps to its own letters in either case.
        let ascii = ByteSet::of(b"ab").both_cases();
        assert!(ascii.has(b'A') && ascii.has(b'b') && !ascii.has(b'I'));
    }

    #[test]
    fn bytes_that_may_spell_an_escape_may_make_its_byte() {
        for (t, c) in [
            (&b"\\x24"[..], b'$'),
            (b"\\u0024", b'$'),
            (b"\\44", b'$'),
            (b"\\044", b'$'),
            (b"\\444", b'$'),
            (b"\\x7B", b'{'),
            (b"\\573", b'{'),
            (b"$", b'$'),
        ] {
            assert!(bytes_may_make(ByteSet::of(t), c), "{t:?} {c}");
        }
        for (t, c) in [
            (&b"\\033[31;1m"[..], b'$'),
            (b"\\xf0\\x9f\\x95", b'$'),
            (b"x24", b'$'),
            (b"\\x2", b'$'),
        ] {
            assert!(!bytes_may_make(ByteSet::of(t), c), "{t:?} {c}");
        }
    }

    #[test]
    fn decoding_backslash_escapes_changes_only_the_parts_that_hold_a_backslash() {
        // The empty text and text without a `\` come out as they went in, decoded again
        // and again (`x=$(echo "$x")` in a loop): never any bytes, never text that assigns.
        let mut v = Val::lit(b"");
        v.join(&Val::unknown());
        for _ in 0..4 {
            v = v.escaped();
        }
        assert_eq!(v.lits, vec![Rc::from(&b""[..])]);
        assert!(v.fixed.is_none() && !v.fixed_known_to_assign(false));
        let plain = Val::heredoc(ByteSet::of(b"ab c"));
        assert_eq!(plain.escaped(), plain);
        // A `\` in the fixed text: any byte, and `\044\173\075` may spell `${=`.
        let esc = Val::lit(b"\\044\\173BASH_ALIASES[s]\\075x}").escaped();
        assert_eq!(esc.fixed, Some(ByteSet::ALL));
        assert!(esc.fixed_known_to_assign(false));
        // A `\` in the heredoc text: its text may become any; the fixed text is kept.
        let mut both = Val::lit(b"a");
        both.join(&Val::heredoc(ByteSet::of(b"\\x24")));
        let both = both.escaped();
        assert_eq!(both.heredoc, Some(ByteSet::ALL));
        assert_eq!(both.lits, vec![Rc::from(&b"a"[..])]);
    }

    #[test]
    fn texts_printed_one_after_another_may_make_what_no_one_of_them_holds() {
        let mut words = Val::default();
        for t in [&b"z[${o%$"[..], b"{BASH_ALIASES[c]", b"=cat <<E;:}}]"] {
            words.join(&Val::lit(t));
        }
        // As alternatives, no one text assigns; glued, `${o%${BASH_ALIASES[c]=cat…}}`.
        assert!(!words.fixed_known_to_assign(false));
        assert!(words.repeated().0.fixed_known_to_assign(false));
        // Numbers glued stay digits and `+`: nothing to assign, nothing substituted.
        let mut sums = Val::lit(b"1+");
        sums.join(&Val::lit(b"2+"));
        let (r, _) = sums.repeated();
        assert!(!r.fixed_known_to_assign(false) && !r.fixed_substs_any());
        assert!(r.fixed_bytes().is_some_and(|b| !b.has(b'$') && b.has(b'+')));
        // Any number of `ab`: more texts than are kept, so its bytes, and only those.
        let (ab, _) = Val::lit(b"ab").repeated();
        assert!(ab.lits.is_empty() && ab.fixed == Some(ByteSet::of(b"ab")));
    }

    #[test]
    fn a_text_is_open_where_bash_would_still_be_reading_its_expansion() {
        for (t, open) in [
            (&b"x$"[..], true),
            (b"${o%", true),
            (b"${o%${p}", true),
            (b"${o%{}", true),
            (b"${a[c}", true),
            (b"${a[c}}", true),
            (b"${BASH_ALIASES[", true),
            (b"${o%'}'", true),
            (b"${o%$(echo })", true),
            (b"a}${b", true),
            (b"${o}", false),
            (b"${o%${p}}", false),
            (b"${a[c]}", false),
            (b"${a[${b}]}", false),
            (b"plain", false),
            (b"$x}", false),
        ] {
            assert_eq!(open_text(t), open, "{:?}", String::from_utf8_lossy(t));
        }
    }

    #[test]
    fn an_open_text_known_by_its_bytes_stays_open_through_what_is_glued_after_it() {
        // Nine texts, one open: their bytes; `c` after it closes nothing known, and the
        // `]=…}` after that makes the assignment.
        let mut v = Val::default();
        for t in [
            &b"1"[..],
            b"2",
            b"3",
            b"4",
            b"5",
            b"6",
            b"7",
            b"8",
            b"+z[${o%${A[",
        ] {
            v.join(&Val::lit(t));
        }
        assert!(v.lits.is_empty() && v.open_end);
        let g = v.glue(&Val::lit(b"c")).glue(&Val::lit(b"]=cat}}]"));
        assert!(g.fixed_assigns);
    }

    /// A program's error message shows text without a control byte, DEL, a byte past
    /// ASCII or a backslash as it is; one with such a byte comes back with escapes that
    /// `echo -e` decodes: the byte 4 then `4` as `\0044`, a `$` (GNU `mktemp`, round 99).
    #[test]
    fn program_quoting_keeps_plain_text_exact_and_escapes_are_decoded_again() {
        for plain in [&b"a=b"[..], b"z[${o%${BASH_ALIASES[c]=x}}]", b""] {
            assert_eq!(Val::lit(plain).program_quoted(), Val::lit(plain));
        }
        let hidden = Val::lit(b"z[\x044\x0f3o%\x044\x0f3BASH_ALIASES[c]=x}}]");
        let quoted = hidden.program_quoted();
        assert!(quoted.lits.is_empty() && !quoted.fixed_assigns);
        assert!(
            quoted
                .fixed_bytes()
                .is_some_and(|b| b.has(b'\\') && b.has(b'0'))
        );
        assert!(quoted.escaped().fixed_known_to_assign(false));
        // (Heredoc text too.)
        let body = Val {
            htexts: vec![Rc::from(&b"\x01"[..])],
            ..Val::default()
        };
        assert!(body.program_quoted().heredoc.is_some_and(|h| h.has(b'7')));
    }

    #[test]
    fn glued_fixed_texts_stay_exact_and_heredoc_text_takes_every_byte() {
        let a = Val::lit(b"a[");
        let b = Val::lit(b"1]");
        assert_eq!(a.glue(&b).lits, vec![Rc::from(&b"a[1]"[..])]);
        let h = Val::heredoc(ByteSet::of(b"$(x)"));
        let g = a.glue(&h);
        let bytes = g.heredoc.unwrap_or_default();
        assert!(bytes.has(b'[') && bytes.has(b'$') && bytes.has(b'x'));
        assert!(g.lits.is_empty());
        // The environment's glued to heredoc text: the heredoc text's bytes (the
        // environment's part is never heredoc text).
        let eh = Val::env().glue(&h);
        assert!(eh.heredoc.is_some_and(|b| b.has(b'$') && !b.has(b'a')));
        // The environment's glued to fixed text: the environment's, no heredoc text.
        let e = Val::env().glue(&a);
        assert!(e.env && e.heredoc.is_none());
    }

    #[test]
    fn a_zsh_number_is_digits_whole_and_may_hold_letters_once_cut_or_glued() {
        let n = Val::zsh_number();
        // Whole, it evaluates to itself: only a number's bytes.
        assert_eq!(n.fixed, Some(NUMBER));
        // Cut (`${y#*#}` of `16#FF`) or glued to a letter (`Inf` then `x`): letters.
        assert!(
            n.part(ByteSet::EMPTY)
                .fixed
                .is_some_and(|b| b.has(b'F') && b.has(b'n'))
        );
        let glued = n.glue(&Val::lit(b"x"));
        assert!(
            glued
                .fixed_bytes()
                .is_some_and(|b| b.has(b'I') && b.has(b'x'))
        );
        assert!(n.may_hold(b"F") && !Val::number().may_hold(b"F"));
    }

    #[test]
    fn many_texts_become_their_bytes() {
        let mut v = Val::default();
        for k in 0..(MAX_LITS + 3) {
            v.join(&Val::lit(format!("x{k}").as_bytes()));
        }
        // The texts past the cap are kept as their bytes; what came after starts a new list.
        assert!(v.lits.len() <= MAX_LITS);
        assert!(v.fixed.is_some_and(|b| b.has(b'x') && b.has(b'8')));
    }

    #[test]
    fn a_text_the_bytes_already_cover_changes_nothing_so_the_solver_ends() {
        // Past the cap, texts are their bytes; joining one of them again must leave the
        // value equal, or the solver's fixed point never ends (a 40 ms limit deny on two
        // `read -r` of one table).
        for heredoc in [false, true] {
            let make = |t: &[u8]| {
                if heredoc {
                    Val::heredoc_text(t)
                } else {
                    Val::lit(t)
                }
            };
            let mut v = Val::default();
            for k in 0..(MAX_LITS + 1) {
                v.join(&make(format!("x{k}").as_bytes()));
            }
            let before = v.clone();
            v.join(&make(b"x3"));
            assert!(v == before, "joining a covered text changed the value");
            v.join(&make(b"y"));
            assert!(v != before, "a text with a new byte must change it");
        }
    }

    #[test]
    fn a_part_keeps_the_bytes_and_adds_the_replacement() {
        let h = Val::heredoc(ByteSet::of(b"abc"));
        let p = h.part(ByteSet::of(b"["));
        assert!(p.heredoc.is_some_and(|b| b.has(b'[') && b.has(b'a')));
        assert!(
            Val::lit(b"xy")
                .part(ByteSet::EMPTY)
                .fixed
                .is_some_and(|b| b.has(b'y'))
        );
    }
}
