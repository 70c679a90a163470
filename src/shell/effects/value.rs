//! Values in the effects model: what a variable or a word can hold, joined over every
//! way it is assigned, and the shell's own variables that hold numbers or the command's
//! text.

use crate::shell::Bytes;

use super::{Judge, MAX_NEST, MAX_STATICS, Prog};
use crate::shell::word::{Param, ParamOp, Piece, WordInfo};

/// Whether heredoc text holds substitution syntax (`$` or a backquote): what evaluating
/// it can run.
pub(super) fn live(text: &[u8]) -> bool {
    memchr::memchr2(b'$', b'`', text).is_some()
}

/// The values a variable or a word can have.
/// The longest value the model builds by joining pieces (`x=$x$x`, a `printf` loop): a
/// longer one is text the command composes (or, with heredoc text in it, heredoc text
/// the guard cannot see whole), so no value outgrows the command by much.
pub(super) const MAX_VALUE_BYTES: usize = 1 << 20;

/// The work of copying or comparing `n` bytes of a value (a copy costs far less per byte
/// than reading shell text: 256 bytes a unit).
pub(super) fn copy_work(n: usize) -> usize {
    n / 256 + 1
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Val {
    pub(super) statics: Vec<Vec<u8>>,
    pub(super) num: bool,
    pub(super) env: bool,
    pub(super) opaque: bool,
    /// Heredoc text the guard cannot see whole (an unquoted body's expansion, text a
    /// command made of a body, the shell's copy of the command text).
    pub(super) body: bool,
    /// Quoted heredoc bodies the value is a piece of (`read v <<'EOF'`, `$(cat <<'EOF' …)`):
    /// known text, judged by what it holds. Shared, not copied: a body can be megabytes,
    /// and a value is cloned and joined on every pass.
    pub(super) texts: Vec<Bytes>,
    /// Text the command composes from its own words in a way the guard does not compute
    /// (literals glued to expansions, brace expansion, `printf` output, a name spelled at
    /// run time): unlike the environment's values, the command chose it.
    pub(super) authored: bool,
    /// The authored values are all paths (a glob with a `/`): never a builtin's name.
    pub(super) paths: bool,
}

impl Val {
    pub(super) fn lit(v: Vec<u8>) -> Val {
        Val {
            statics: vec![v],
            ..Val::default()
        }
    }
    pub(super) fn num() -> Val {
        Val {
            num: true,
            ..Val::default()
        }
    }
    pub(super) fn env() -> Val {
        Val {
            env: true,
            ..Val::default()
        }
    }
    pub(super) fn opaque() -> Val {
        Val {
            opaque: true,
            ..Val::default()
        }
    }
    pub(super) fn body() -> Val {
        Val {
            body: true,
            ..Val::default()
        }
    }

    pub(super) fn authored() -> Val {
        Val {
            authored: true,
            ..Val::default()
        }
    }

    pub(super) fn text(t: impl Into<Bytes>) -> Val {
        Val {
            texts: vec![t.into()],
            ..Val::default()
        }
    }

    /// Heredoc text, known or not.
    pub(super) fn heredoc(&self) -> bool {
        self.body || !self.texts.is_empty()
    }

    /// Heredoc text that may hold a substitution (unknown text, or known text holding
    /// substitution syntax): what evaluating it can run.
    pub(super) fn live_text(&self) -> bool {
        self.body || self.texts.iter().any(|t| live(t))
    }

    /// [`Val::join`], saying whether it changed the value (no copy of it is made: a join
    /// only adds, so a change shows in the flags or the number of texts).
    pub(super) fn join_changed(&mut self, o: &Val) -> bool {
        let flags = |v: &Val| (v.num, v.env, v.opaque, v.body, v.authored, v.paths);
        let before = (flags(self), self.statics.len(), self.texts.len());
        self.join(o);
        before != (flags(self), self.statics.len(), self.texts.len())
    }

    pub(super) fn join(&mut self, o: &Val) {
        self.num |= o.num;
        self.env |= o.env;
        self.opaque |= o.opaque;
        self.body |= o.body;
        self.paths = match (self.authored, o.authored) {
            (true, true) => self.paths && o.paths,
            (false, true) => o.paths,
            _ => self.paths,
        };
        self.authored |= o.authored;
        for s in &o.statics {
            if !self.statics.contains(s) {
                self.statics.push(s.clone());
            }
        }
        if self.statics.len() > MAX_STATICS {
            self.statics.clear();
            self.authored = true;
        }
        for t in &o.texts {
            if !self.texts.contains(t) {
                self.texts.push(t.clone());
            }
        }
        if self.texts.len() > MAX_STATICS {
            self.texts.clear();
            self.body = true;
        }
    }

    /// The same value as heredoc text (set by text a heredoc holds): its literals are
    /// known text, anything else unknown text.
    pub(super) fn as_heredoc_text(&self) -> Val {
        let mut v = Val {
            texts: self.texts.clone(),
            body: self.body || self.authored || self.opaque || self.env,
            num: self.num,
            ..Val::default()
        };
        for s in &self.statics {
            if !v.texts.iter().any(|t| **t == **s) {
                v.texts.push(s.as_slice().into());
            }
        }
        v
    }

    /// The value and, for each text holding a backslash, the text as `read` without `-r`
    /// takes it: a backslash-newline removed, any other backslash removed and the byte
    /// after it kept.
    pub(super) fn unescaped(&self) -> Val {
        let mut v = self.clone();
        for t in &self.texts {
            if !t.contains(&b'\\') {
                continue;
            }
            let out = remove_backslashes(t, None);
            v.join(&Val::text(out));
        }
        v
    }

    /// What one `read -r` into a single variable takes from the value, in line mode (no
    /// `-d`, `-n`, `-N`, `-a`): one line of a text, as is (`IFS=`) or trimmed of the
    /// default IFS's blanks; every line is a candidate, as a loop reads them all. The whole
    /// texts stay candidates too: a text here is not always the bytes the shell reads (a
    /// substitution's output keeps its trailing newline here, texts joined in a word are
    /// held apart), so a line of the shell's may span two of the guard's. Its literals are
    /// split as [`Val::with_fields`] splits them.
    pub(super) fn with_lines(&self) -> Val {
        let mut v = Val {
            texts: Vec::new(),
            ..self.clone()
        }
        .with_fields();
        let mut lines: Vec<&[u8]> = self.texts.iter().map(|t| &t[..]).collect();
        for t in &self.texts {
            for line in t.split(|&c| c == b'\n') {
                let trimmed = line.trim_ascii();
                for cand in [line, trimmed] {
                    if !cand.is_empty() && !lines.contains(&cand) {
                        lines.push(cand);
                    }
                }
            }
        }
        if lines.len() <= MAX_STATICS {
            lines.into_iter().for_each(|l| v.join(&Val::text(l)));
        } else if lines.iter().all(|l| {
            l.iter().all(|c| {
                c.is_ascii_digit() || matches!(c, b' ' | b'\t' | b'\n' | b'-' | b'+' | b'.')
            })
        }) {
            // Many lines that are all numbers (`while read -r n` over a column of
            // figures): a number, whichever line it is.
            v.num = true;
        } else {
            v.body = true;
        }
        v
    }

    /// What one `read -r` into a single variable takes, in line mode, from input that is
    /// one known text read from its first byte (a heredoc of the `read` command itself):
    /// the text's first line, as is or trimmed of blanks (the IFS whitespace at its ends;
    /// arithmetic and names are blind to the difference between the two). Any other
    /// value is read as [`Val::with_lines`] reads it.
    pub(super) fn first_line(&self) -> Val {
        let [text] = &self.texts[..] else {
            return self.with_lines();
        };
        let line = text.split(|&c| c == b'\n').next().unwrap_or_default();
        if line.ends_with(b"\\") {
            // A line the shell might join to the next (it does not in a quoted body at
            // the top level, but nothing is lost by judging every line).
            return self.with_lines();
        }
        let mut v = Val {
            texts: Vec::new(),
            ..self.clone()
        };
        v.join(&Val::text(line));
        if line.trim_ascii() != line {
            v.join(&Val::text(line.trim_ascii()));
        }
        v
    }

    /// The value and the blank-separated fields of each of its texts (what `read`
    /// gives several variables, or an array).
    pub(super) fn with_fields(&self) -> Val {
        let mut v = self.clone();
        // More fields than a value keeps are as good as many: the split stops there.
        fn fields<T: AsRef<[u8]>>(all: &[T]) -> Option<Vec<Vec<u8>>> {
            let mut out = Vec::new();
            for t in all.iter().map(AsRef::as_ref) {
                for f in t
                    .as_ref()
                    .split(|c| matches!(c, b' ' | b'\t' | b'\n'))
                    .filter(|f| !f.is_empty())
                {
                    if out.len() > MAX_STATICS {
                        return None;
                    }
                    out.push(f.to_vec());
                }
            }
            Some(out)
        }
        match fields(&self.statics) {
            Some(fs) => fs.into_iter().for_each(|f| v.join(&Val::lit(f))),
            None => v.authored = true,
        }
        match fields(&self.texts).filter(|fs| v.texts.len() + fs.len() <= MAX_STATICS) {
            Some(fs) => fs.into_iter().for_each(|f| v.join(&Val::text(f))),
            // Many fields that are all numbers (`while read -r n` over a column of
            // figures): a number, whichever field it is.
            None if self.texts.iter().all(|t| {
                t.iter().all(|c| {
                    c.is_ascii_digit() || matches!(c, b' ' | b'\t' | b'\n' | b'-' | b'+' | b'.')
                })
            }) =>
            {
                v.texts.clear();
                v.num = true;
            }
            None => v.body = true,
        }
        v
    }

    /// The bytes of the texts it holds (what a copy of it copies).
    pub(super) fn bytes(&self) -> usize {
        // A text is shared, not copied, but what takes the value goes on to scan it.
        self.statics.iter().map(Vec::len).sum::<usize>()
            + self.texts.iter().map(|t| t.len()).sum::<usize>()
    }

    /// The one literal it can be.
    pub(super) fn single(&self) -> Option<&[u8]> {
        match self.statics.as_slice() {
            [s] if !self.num && !self.env && !self.opaque && !self.authored && !self.heredoc() => {
                Some(s)
            }
            _ => None,
        }
    }

    /// Only the literal values the command gives it (one or more).
    pub(super) fn only_statics(&self) -> bool {
        !self.statics.is_empty()
            && !self.num
            && !self.env
            && !self.opaque
            && !self.authored
            && !self.heredoc()
    }

    /// Text the command chose: its literals (more than one of them) or text composed from
    /// them. What it makes a builtin do is the command's doing, not the environment's.
    pub(super) fn chosen(&self) -> bool {
        self.authored
            || self.statics.len() > 1
            || (!self.statics.is_empty() && self.single().is_none())
    }
}

/// What the model knows of one variable.
#[derive(Clone, Debug, Default)]
pub(super) struct Var {
    pub(super) val: Val,
    /// `declare -i`: assignments are evaluated as arithmetic.
    pub(super) integer: bool,
    /// `declare -A`: subscripts are keys, not arithmetic.
    pub(super) assoc: bool,
    /// `declare -n`: it names other variables (read and written through it).
    pub(super) is_ref: bool,
    /// The variables it names, when the command names them literally.
    pub(super) refs: Vec<Vec<u8>>,
}

/// Shell variables whose values hold the command's own text (or text the shell took
/// from it): a payload written as data in a quoted heredoc is in them.
pub(super) const COMMAND_TEXT_VARIABLES: [&[u8]; 15] = [
    b"BASH_EXECUTION_STRING",
    b"BASH_COMMAND",
    b"BASH_ARGV",
    b"BASH_ARGV0",
    b"BASH_SOURCE",
    b"FUNCNAME",
    b"COMP_LINE",
    b"COMP_WORDS",
    b"READLINE_LINE",
    b"ZSH_EXECUTION_STRING",
    b"ZSH_ARGZERO",
    b"ZSH_SCRIPT",
    b"funcstack",
    b"history",
    b"historywords",
];

/// Shell variables that hold numbers.
pub(super) const NUMERIC_VARIABLES: [&[u8]; 24] = [
    b"?",
    b"$",
    b"!",
    b"#",
    b"-",
    b"RANDOM",
    b"SRANDOM",
    b"LINENO",
    b"SECONDS",
    b"BASHPID",
    b"PPID",
    b"UID",
    b"EUID",
    b"EPOCHSECONDS",
    b"EPOCHREALTIME",
    b"PIPESTATUS",
    b"BASH_SUBSHELL",
    b"SHLVL",
    b"OPTIND",
    b"BASH_LINENO",
    b"BASH_ARGC",
    b"HISTCMD",
    b"GROUPS",
    b"COLUMNS",
];

impl Judge {
    // ---- values ----

    pub(super) fn var(&self, name: &[u8]) -> Val {
        let v = self.var_at(name);
        // Every use copies the value: its bytes are work (a long value used many times).
        if !self.meter.charge(copy_work(v.bytes())) {
            return Val::body();
        }
        v
    }

    /// The value of `name`: through references, the join of every variable they reach,
    /// each visited once (references that refer to each other do not multiply).
    fn var_at(&self, name: &[u8]) -> Val {
        let plain = |n: &[u8]| -> Val {
            if n == b"IFS" {
                // The shell sets it at start-up whatever the environment says.
                Val::lit(b" \t\n".to_vec())
            } else if COMMAND_TEXT_VARIABLES.contains(&n) {
                Val::body()
            } else if NUMERIC_VARIABLES.contains(&n) {
                Val::num()
            } else {
                Val::env()
            }
        };
        // Positional parameters past `$9` (`${10}`) are set with the others.
        let positional = |n: &[u8]| n.len() > 1 && n.iter().all(u8::is_ascii_digit);
        let name: &[u8] = if positional(name) { b"@" } else { name };
        match self.vars.get(name) {
            None => return plain(name),
            Some(v) if !v.is_ref => return v.val.clone(),
            Some(_) => {}
        }
        let mut out = Val::default();
        let mut seen: std::collections::HashSet<&[u8]> = std::collections::HashSet::new();
        let mut todo: Vec<(&[u8], usize)> = vec![(name, 0)];
        while let Some((n, depth)) = todo.pop() {
            let n: &[u8] = if positional(n) { b"@" } else { n };
            if !seen.insert(n) {
                continue;
            }
            if !self.meter.charge(1) {
                return Val::body();
            }
            match self.vars.get(n) {
                Some(v) if v.is_ref => {
                    // Read through the reference: the named variables' values.
                    for target in &v.refs {
                        if depth < MAX_NEST {
                            todo.push((target, depth + 1));
                        } else {
                            out.opaque = true;
                        }
                    }
                    if v.refs.is_empty() || !v.val.only_statics() {
                        // Named at run time: any variable, the shell's copy of the command too.
                        out.body = true;
                    }
                }
                Some(v) => out.join(&v.val),
                None => out.join(&plain(n)),
            }
        }
        out
    }

    pub(super) fn assign_val(&mut self, name: &[u8], val: &Val, integer: bool) {
        // The new value's bytes are compared with the old ones: work.
        if !self.meter.charge(copy_work(val.bytes())) {
            return;
        }
        let entry = self.vars.entry(name.to_vec()).or_default();
        let changed = entry.val.join_changed(val) || (integer && !entry.integer);
        entry.integer |= integer;
        if changed {
            self.changed = true;
        }
    }

    /// The value of `${!x}` when `x` holds `v`.
    pub(super) fn indirect(&self, v: &Val, depth: usize) -> Val {
        let mut out = Val::default();
        if v.heredoc() {
            out.body = true;
        }
        if v.opaque || v.env {
            out.opaque = true;
        }
        if v.num {
            // `${!#}`: a number names a positional parameter.
            out.join(&self.var(b"@"));
        }
        if v.authored {
            out.authored = true;
        }
        for s in &v.statics {
            let name = s.split(|&c| c == b'[').next().unwrap_or(s);
            if depth < MAX_NEST && crate::shell::syntax::legal_identifier(name) {
                out.join(&self.var(name));
            } else {
                out.opaque = true;
            }
        }
        out
    }

    pub(super) fn param_val(&self, p: &Param, prog: &Prog<'_>) -> Val {
        let base = if p.indirect {
            self.indirect(&self.var(&p.name), 0)
        } else {
            self.var(&p.name)
        };
        let arg = || {
            p.arg
                .as_ref()
                .map_or_else(|| Val::lit(Vec::new()), |a| self.word_val(a, prog))
        };
        match p.op {
            ParamOp::Plain | ParamOp::Error => base,
            ParamOp::Length => Val::num(),
            ParamOp::Names => {
                // `${!prefix@}`: the names of the variables that start so (every name
                // looked at is work).
                if !self.meter.charge(self.vars.len() + 1) {
                    return Val::body();
                }
                let mut v = Val::opaque();
                let mut names: Vec<&Vec<u8>> = self
                    .vars
                    .keys()
                    .filter(|n| n.starts_with(&p.name))
                    .collect();
                names.sort();
                if names.len() <= MAX_STATICS {
                    for n in names {
                        v.join(&Val::lit(n.clone()));
                    }
                } else {
                    v.authored = true;
                }
                v
            }
            ParamOp::Default | ParamOp::Assign => {
                let mut v = base;
                v.join(&arg());
                v
            }
            ParamOp::Alternate => {
                let mut v = arg();
                v.join(&Val::lit(Vec::new()));
                v
            }
            ParamOp::Part | ParamOp::Prompt => {
                let a = arg();
                if base.heredoc() || a.heredoc() {
                    Val::body()
                } else if base.num && base.statics.is_empty() && !base.opaque && !base.env {
                    Val::num()
                } else if !base.statics.is_empty() || base.authored || a.authored {
                    // Text made from the command's literals (`${x^^}`, `${x#a}`).
                    Val::authored()
                } else {
                    Val::opaque()
                }
            }
        }
    }

    pub(super) fn word_val(&self, w: &WordInfo, prog: &Prog<'_>) -> Val {
        if w.unread {
            // A word the guard could not read through (nested past what it follows): text
            // the command wrote, not the environment's.
            return Val::authored();
        }
        if !w.breaks.is_empty() {
            // A compound assignment: the values of its elements.
            let mut v = Val::default();
            let mut cuts = vec![0];
            cuts.extend(w.breaks.iter().copied());
            cuts.push(w.pieces.len());
            for pair in cuts.windows(2) {
                let (a, b) = (pair[0], pair[1].max(pair[0]));
                let element = WordInfo {
                    pieces: w.pieces.get(a..b).unwrap_or_default().to_vec(),
                    breaks: Vec::new(),
                    ..w.clone()
                };
                if element
                    .pieces
                    .iter()
                    .all(|p| matches!(p, Piece::Lit(l) if l.is_empty()))
                {
                    continue;
                }
                v.join(&self.word_val(&element, prog));
            }
            return v;
        }
        if let Some(v) = w.value() {
            return Val::lit(v);
        }
        // Every piece is valued once: the joins below reuse these (a word nested in a
        // parameter's argument is not valued again per use, which would grow with the
        // nesting as a power).
        if !self.meter.charge(w.pieces.len() + 1) {
            return Val::body();
        }
        let vals: Vec<Option<Val>> = w
            .pieces
            .iter()
            .map(|piece| match piece {
                Piece::Lit(_) => None,
                Piece::Param(p) => Some(self.param_val(p, prog)),
                Piece::Subst(at) => {
                    Some(self.subst_out.get(at).cloned().unwrap_or_else(Val::opaque))
                }
                Piece::Arith(_) => Some(Val::num()),
            })
            .collect();
        let mut acc = Val::default();
        let mut concat: Option<Vec<u8>> = Some(Vec::new());
        let mut non_lit = 0usize;
        let mut has_lit = false;
        let mut all_num = true;
        for (piece, val) in w.pieces.iter().zip(&vals) {
            let v = match (piece, val) {
                (Piece::Lit(l), _) => {
                    if let Some(c) = concat.as_mut() {
                        c.extend_from_slice(l);
                    }
                    has_lit |= !l.is_empty();
                    all_num &= l.iter().all(u8::is_ascii_digit);
                    continue;
                }
                (_, Some(v)) => v.clone(),
                (_, None) => Val::opaque(),
            };
            non_lit += 1;
            match (v.single(), concat.as_mut()) {
                (Some(s), Some(c)) => c.extend_from_slice(s),
                _ => concat = None,
            }
            all_num &= v.num && v.statics.is_empty() && !v.opaque && !v.env && !v.heredoc();
            acc.join(&v);
        }
        if acc.body {
            return Val::body();
        }
        if !acc.texts.is_empty() {
            // Heredoc text among other pieces: the texts the joined word can be, each piece
            // put in its place (a name and a subscript can only meet once joined).
            // A word that is one piece is that piece's texts, shared, not copied.
            if let ([Piece::Subst(_) | Piece::Param(_)], [Some(v)]) = (&w.pieces[..], &vals[..])
                && v.statics.is_empty()
                && !(v.num || v.env || v.opaque || v.authored || w.many)
                && v.texts.iter().all(|t| t.len() <= MAX_VALUE_BYTES)
            {
                return Val {
                    texts: v.texts.clone(),
                    ..Val::default()
                };
            }
            let mut combos: Vec<Vec<u8>> = vec![Vec::new()];
            for (piece, val) in w.pieces.iter().zip(&vals) {
                let options: Vec<Bytes> = match (piece, val) {
                    (Piece::Lit(l), _) => vec![l.as_slice().into()],
                    (Piece::Arith(_), _) => vec![b"0"[..].into()],
                    (Piece::Param(_), Some(v)) => {
                        let mut o = v.texts.clone();
                        o.extend(v.statics.iter().map(|s| s.as_slice().into()));
                        if v.num || v.env || v.opaque || v.authored || o.is_empty() {
                            o.push(b""[..].into());
                        }
                        o
                    }
                    (_, Some(v)) => {
                        let mut o = v.texts.clone();
                        o.extend(v.statics.iter().map(|s| s.as_slice().into()));
                        if o.is_empty() || v.opaque || v.authored {
                            o.push(b""[..].into());
                        }
                        o
                    }
                    (_, None) => vec![b""[..].into()],
                };
                match product(&combos, &options, b"") {
                    Some(next) if self.meter.charge(copy_work(bytes_of(&next))) => combos = next,
                    _ => return Val::body(),
                }
            }
            let mut v = Val::default();
            for c in combos {
                v.join(&Val::text(c));
            }
            v.num |= acc.num;
            v.opaque |= acc.opaque || w.many;
            return v;
        }
        if w.many {
            // Brace expansion or a glob: words the command spells, or file names (all of
            // them paths when the pattern holds a `/`), heredoc text among them once the
            // command named a file with it.
            let mut v = Val::authored();
            if self.heredoc_names && !w.brace {
                v.body = true;
            }
            v.paths = !w.brace
                && w.pieces
                    .iter()
                    .any(|p| matches!(p, Piece::Lit(l) if l.contains(&b'/')));
            v.join(&acc);
            return v;
        }
        if w.tilde {
            let mut v = Val::env();
            v.join(&acc);
            if has_lit || non_lit > 0 {
                v.authored = true;
            }
            return v;
        }
        if let Some(c) = concat {
            // A value made of values can double at every assignment (`x=$x$x`): its bytes
            // are work.
            if !self.meter.charge(copy_work(c.len())) {
                return Val::body();
            }
            if c.len() <= MAX_VALUE_BYTES {
                return Val::lit(c);
            }
            // Too long to follow as a literal: text the command composes.
            let mut v = acc;
            v.statics.clear();
            v.authored = true;
            return v;
        }
        if non_lit == 1 && !has_lit {
            return acc;
        }
        if all_num {
            return Val::num();
        }
        if let Some(v) = static_combos(w, &vals) {
            if !self.meter.charge(copy_work(bytes_of(&v.statics))) {
                return Val::body();
            }
            return v;
        }
        // Literals glued to values the guard does not know: text the command composes
        // (a path when a literal piece holds a `/`).
        let mut v = acc;
        v.statics.clear();
        v.authored = true;
        v.paths = w
            .pieces
            .iter()
            .any(|p| matches!(p, Piece::Lit(l) if l.contains(&b'/')));
        v
    }
}

/// Every text `combos` can go on to once each is followed by `sep` and one of `options`;
/// `None` past [`MAX_STATICS`] texts or a text over [`MAX_VALUE_BYTES`] (the caller
/// charges the bytes it keeps).
pub(super) fn product<T: AsRef<[u8]>>(
    combos: &[Vec<u8>],
    options: &[T],
    sep: &[u8],
) -> Option<Vec<Vec<u8>>> {
    if combos.len().saturating_mul(options.len()) > MAX_STATICS {
        return None;
    }
    let mut next = Vec::with_capacity(combos.len() * options.len());
    for c in combos {
        for o in options {
            let o = o.as_ref();
            if c.len() + sep.len() + o.len() > MAX_VALUE_BYTES {
                return None;
            }
            let mut t = Vec::with_capacity(c.len() + sep.len() + o.len());
            t.extend_from_slice(c);
            t.extend_from_slice(sep);
            t.extend_from_slice(o);
            next.push(t);
        }
    }
    Some(next)
}

/// The bytes of `texts` (what keeping them copied).
pub(super) fn bytes_of(texts: &[Vec<u8>]) -> usize {
    texts.iter().map(Vec::len).sum()
}

/// Every literal a word can be when each of its pieces has only literal values
/// (`cfg_$k` in `for k in host port`), if there are few enough; `vals` are the pieces'
/// values.
fn static_combos(w: &WordInfo, vals: &[Option<Val>]) -> Option<Val> {
    let mut combos: Vec<Vec<u8>> = vec![Vec::new()];
    for (piece, val) in w.pieces.iter().zip(vals) {
        let options: Vec<Vec<u8>> = match (piece, val) {
            (Piece::Lit(l), _) => vec![l.clone()],
            (Piece::Arith(_), _) | (_, None) => return None,
            (_, Some(v)) => {
                if !v.only_statics() {
                    return None;
                }
                v.statics.clone()
            }
        };
        combos = product(&combos, &options, b"")?;
    }
    let mut v = Val::default();
    for c in combos {
        v.join(&Val::lit(c));
    }
    Some(v)
}

/// `text` with its backslash-newlines removed and each other backslash removed, the byte
/// after it kept: every backslash (`read` without `-r`, an unquoted word), or only those
/// before a byte of `only` (an unquoted heredoc body: `$`, `` ` `` and `\\`).
pub(super) fn remove_backslashes(text: &[u8], only: Option<&[u8]>) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match (text[i], text.get(i + 1)) {
            (b'\\', Some(b'\n')) => i += 2,
            (b'\\', Some(&c)) if only.is_none_or(|o| o.contains(&c)) => {
                out.push(c);
                i += 2;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}
