//! What denies, from the readings of a command and what the judge found in them: text that any reading holds as a
//! heredoc body (the intended reading's bodies and every shell's) must not be run by any
//! shell, neither as a substitution the shell expands in an unquoted body nor as code it
//! reads there. Plus the delimiters and commands the guard does not follow (`$'…'`
//! delimiters, delimiters holding a command substitution, aliases and options that change
//! how later lines are read).

use crate::judge::Found;
use crate::report::{Finding, FindingKind, Heredoc, Report};
use crate::shell::{self, Dialect, Reading, Run, Shell};
use std::rc::Rc;

/// Turns the readings of `command` into the report.
pub fn report(
    command: &str,
    intended: &Reading,
    shells: &[(Dialect, Rc<Reading>)],
    judged: &[Rc<Vec<Found>>],
) -> Report {
    let bytes = command.as_bytes();
    // What each of the intended reading's bodies runs, grouped in one pass.
    let mut runs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); intended.heredocs.len()];
    for e in &intended.exec {
        if let Some(list) = e.in_body.and_then(|i| runs.get_mut(i as usize)) {
            list.push((e.at as usize, e.end as usize));
        }
    }
    // Openers and body starts are not in order (`cat <<A <<B` asks for B's opener after
    // A's body): their positions in one pass over the offsets sorted.
    let places = shell::Positions::of_all(
        bytes,
        intended.heredocs.iter().flat_map(|h| [h.op, h.body.0]),
    );
    let heredocs: Vec<Heredoc> = intended
        .heredocs
        .iter()
        .zip(runs)
        .zip(places.chunks(2))
        .map(|((h, runs), at)| Heredoc {
            opener: at[0],
            written: lossy(bytes, h.word.0, h.word.1),
            closing: String::from_utf8_lossy(&h.closing).into_owned(),
            quoted: h.quoted,
            ansi_c: h.ansi_c,
            strip_tabs: h.strip_tabs,
            context: h.context,
            body_line: at[1].line,
            body: (h.body.0 as usize, h.body.1 as usize),
            closer: h.closer.map(|(s, e)| (s as usize, e as usize)),
            runs,
        })
        .collect();

    // Every byte range that some reading holds as a heredoc body or closing line.
    // (A reading shared by several dialects once.)
    let distinct = |k: usize| !shells[..k].iter().any(|(_, r)| Rc::ptr_eq(r, &shells[k].1));
    let mut regions: Vec<(u32, u32)> = intended
        .heredocs
        .iter()
        .chain(
            shells
                .iter()
                .enumerate()
                .filter(|&(k, _)| distinct(k))
                .flat_map(|(_, (_, r))| r.heredocs.iter()),
        )
        .flat_map(|h| std::iter::once(h.body).chain(h.closer))
        .filter(|(s, e)| s < e)
        .collect();
    // A shell that closes a heredoc on a later line than the intended reading reads what
    // follows its closing line in its own way (code, where the intended reading may see a
    // quoted string after an early end): all of it counts as heredoc text.
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    // The intended reading's closing line of the first heredoc opened at each operator.
    let mut intended_closer: std::collections::HashMap<u32, Option<(u32, u32)>> =
        std::collections::HashMap::with_capacity(intended.heredocs.len());
    for i in &intended.heredocs {
        intended_closer.entry(i.op).or_insert(i.closer);
    }
    for (k, (_, reading)) in shells.iter().enumerate() {
        // A reading shared by several dialects closes its heredocs where it did before.
        if shells[..k].iter().any(|(_, r)| Rc::ptr_eq(r, reading)) {
            continue;
        }
        for h in &reading.heredocs {
            let Some((start, end)) = h.closer else {
                continue;
            };
            let later = intended_closer
                .get(&h.op)
                .copied()
                .flatten()
                .is_some_and(|(i_start, _)| start > i_start);
            if later && end < len {
                regions.push((end, len));
            }
        }
    }
    regions.sort_unstable();
    let regions = merge(regions);
    let inside = |at: u32| {
        let k = regions.partition_point(|&(s, _)| s <= at);
        k > 0 && regions.get(k - 1).is_some_and(|&(_, e)| at < e)
    };

    let mut findings: Vec<Finding> = Vec::new();
    // Where each (offset, kind) already stands in `findings`.
    let mut seen: std::collections::HashMap<(usize, FindingKind), usize> =
        std::collections::HashMap::new();
    // The intended reading's bodies by start, for the body an offset lies in.
    let mut by_start: Vec<(usize, usize, usize)> = heredocs
        .iter()
        .enumerate()
        .map(|(i, h)| (h.body.0, h.body.1, i))
        .collect();
    by_start.sort_unstable();
    let heredoc_of = |at: usize| {
        let k = by_start.partition_point(|&(s, _, _)| s <= at);
        by_start[..k]
            .iter()
            .rev()
            .take(4)
            .find(|&&(s, e, _)| s <= at && at < e)
            .map(|&(_, _, i)| i)
    };
    // The intended reading runs nothing, but what its unquoted bodies would run counts:
    // a command a shell rejects only for a slip elsewhere runs once the slip is fixed.
    // Which findings each reading's runs made or joined, in order: a reading shared by
    // several dialects is gone through once, and each later dialect that shares it joins
    // the same findings (what a run makes of a finding depends on the run alone).
    let intended_dialect = Dialect::new(Shell::Intended);
    let mut touched: Vec<(*const Reading, Vec<usize>)> = Vec::new();
    let sources = shells
        .iter()
        .map(|(d, r)| (*d, &**r, false))
        .chain(std::iter::once((intended_dialect, intended, true)));
    for (dialect, reading, only_bodies) in sources {
        if !only_bodies
            && let Some((_, ks)) = touched.iter().find(|(p, _)| std::ptr::eq(*p, reading))
        {
            for &k in ks {
                if let Some(f) = findings.get_mut(k)
                    && !f.shells.contains(&dialect.shell)
                {
                    f.shells.push(dialect.shell);
                }
            }
            continue;
        }
        let mut ks: Vec<usize> = Vec::new();
        for e in reading
            .exec
            .iter()
            .filter(|e| !only_bodies || e.in_body.is_some())
        {
            // Heredoc text that only becomes arguments of a command whose name is not
            // heredoc text (bash 3.2 ending `$(…)` at a body's `)`) runs nothing. What a
            // shell expands in a body counts wherever its offset lies.
            if e.in_body.is_none() && (!inside(e.at) || e.what == Run::Arg) {
                continue;
            }
            let kind = match (e.what, e.in_body) {
                (Run::Subst(k), Some(_)) => FindingKind::Substitution(k),
                _ => FindingKind::Boundary,
            };
            let at = e.at as usize;
            if let Some(&k) = seen.get(&(at, kind.clone()))
                && let Some(f) = findings.get_mut(k)
            {
                if !f.shells.contains(&dialect.shell) {
                    f.shells.push(dialect.shell);
                }
                ks.push(k);
                continue;
            }
            let excerpt = match kind {
                FindingKind::Substitution(_) => {
                    let end = e.end.max(e.at + 1).min(e.at.saturating_add(EXCERPT_BYTES));
                    lossy(bytes, e.at, end)
                }
                _ => line_from(bytes, at),
            };
            seen.insert((at, kind.clone()), findings.len());
            ks.push(findings.len());
            findings.push(Finding {
                kind,
                heredoc: heredoc_of(at),
                at,
                pos: UNSET,
                excerpt,
                shells: vec![dialect.shell],
            });
        }
        if !only_bodies {
            touched.push((reading, ks));
        }
    }
    for (dialect, reading) in shells {
        // zsh's grammar accepts lines that bash's rejects (a leading `;`, `() { … }`,
        // `always`, `repeat`): where the zsh reading fails on text some reading holds as
        // heredoc, zsh may well run it.
        let zsh_error_in_heredoc = reading
            .error
            .filter(|e| dialect.is_zsh() && e.limit.is_none() && inside(e.at));
        let unreliable = reading
            .unreliable
            .map(|w| (w, reading.unreliable_at))
            .or(zsh_error_in_heredoc.map(|e| {
                (
                    "zsh's grammar, which accepts more than bash's, reads heredoc text here as commands",
                    e.at,
                )
            }))
            // (`eval` or `trap` text the guard cannot know: `nested`.)
            .or(reading.escapes_differ);
        if let Some((what, unreliable_at)) = unreliable {
            if let Some(f) = findings
                .iter_mut()
                .find(|f| f.kind == FindingKind::Unfollowed(what))
            {
                f.shells.push(dialect.shell);
                continue;
            }
            let at = unreliable_at;
            findings.push(Finding {
                kind: FindingKind::Unfollowed(what),
                heredoc: None,
                at: at as usize,
                pos: UNSET,
                excerpt: line_from(bytes, at as usize),
                shells: vec![dialect.shell],
            });
        }
    }
    for (i, h) in intended.heredocs.iter().enumerate() {
        let kind = if h.ansi_c {
            FindingKind::AnsiCDelimiter
        } else if h.word_has_expansion
            && delimiter_has_expansion(&bytes[h.word.0 as usize..h.word.1 as usize])
        {
            FindingKind::DelimiterExpansion
        } else {
            continue;
        };
        findings.push(Finding {
            kind,
            heredoc: Some(i),
            at: h.word.0 as usize,
            pos: UNSET,
            excerpt: lossy(bytes, h.word.0, h.word.1),
            shells: vec![Shell::Intended],
        });
    }
    // A heredoc ended early (`EOF)` inside `$(…)`) while a later line, outside every
    // body, is its closing line again: the text between looks like the body and is code.
    let early: Vec<(usize, &shell::Heredoc, (u32, u32))> = intended
        .heredocs
        .iter()
        .enumerate()
        .filter_map(|(i, h)| h.closer.filter(|_| h.early_end).map(|c| (i, h, c)))
        .collect();
    let later = later_closing_lines(
        bytes,
        &early
            .iter()
            .map(|(_, h, (_, end))| (*end as usize, h.closing.as_slice(), h.strip_tabs))
            .collect::<Vec<_>>(),
    );
    // Which shells close each heredoc (by operator) where: one pass over their heredocs.
    let closed_by: std::collections::HashSet<(u32, u32, Shell)> = if early.is_empty() {
        std::collections::HashSet::new()
    } else {
        shells
            .iter()
            .flat_map(|(d, r)| {
                r.heredocs
                    .iter()
                    .filter_map(move |o| o.closer.map(|(s, _)| (o.op, s, d.shell)))
            })
            .collect()
    };
    for ((i, h, (closer_start, closer_end)), later) in early.into_iter().zip(later) {
        let outside_bodies = |at: &usize| !inside(u32::try_from(*at).unwrap_or(u32::MAX));
        if later.filter(outside_bodies).is_none() {
            continue;
        }
        let mut ending: Vec<Shell> = shells
            .iter()
            .map(|(d, _)| d.shell)
            .filter(|s| closed_by.contains(&(h.op, closer_start, *s)))
            .collect();
        ending.dedup();
        if ending.is_empty() {
            ending.push(Shell::Intended);
        }
        findings.push(Finding {
            kind: FindingKind::Boundary,
            heredoc: Some(i),
            at: closer_end as usize,
            pos: UNSET,
            excerpt: line_from(bytes, closer_end as usize),
            shells: ending,
        });
    }
    for (d, r) in std::iter::once((Dialect::new(Shell::Intended), intended))
        .chain(shells.iter().map(|(d, r)| (*d, &**r)))
    {
        nested_findings(bytes, d, &r.nested, &mut findings);
    }
    operator_line_findings(bytes, intended, &mut findings);
    backquote_closer_findings(bytes, intended, &mut findings);
    judge_findings(bytes, intended, shells, judged, &mut findings);
    // What the text itself shows (a substitution in a body, a body that ends elsewhere)
    // comes before what the judge adds about the same command.
    findings.sort_by_key(|f| (effect_kind(&f.kind), f.at, rank(&f.kind)));
    // Positions in one pass, now that the findings are in order.
    let mut positions = shell::Positions::new(bytes);
    for f in &mut findings {
        f.pos = positions.of(f.at as u32);
    }
    Report {
        heredocs,
        findings,
        runs_cut: intended.runs_cut,
        clean: None,
    }
}

/// What literal `eval` and `trap` texts hold: a heredoc whose unquoted body runs a
/// substitution, or text the guard cannot read (a shell, zsh above all, may parse what
/// this reader does not, and a heredoc in it may then run).
fn nested_findings(
    bytes: &[u8],
    d: Dialect,
    nested: &[shell::Nested],
    findings: &mut Vec<Finding>,
) {
    for n in nested {
        let r = &n.reading;
        let mut add = |kind: FindingKind| {
            if let Some(f) = findings
                .iter_mut()
                .find(|f| f.kind == kind && f.at == n.at as usize)
            {
                if !f.shells.contains(&d.shell) {
                    f.shells.push(d.shell);
                }
                return;
            }
            findings.push(Finding {
                kind,
                heredoc: None,
                at: n.at as usize,
                pos: UNSET,
                excerpt: line_from(bytes, n.at as usize),
                shells: vec![d.shell],
            });
        };
        if let Some(e) = r.exec.iter().find(|e| e.in_body.is_some()) {
            match e.what {
                Run::Subst(k) => add(FindingKind::Substitution(k)),
                _ => add(FindingKind::Boundary),
            }
        }
        if r.error.is_some_and(|e| e.limit.is_none())
            && crate::search::find(&n.text, b"<<").is_some()
        {
            add(FindingKind::Unfollowed(
                "eval or trap text that the guard cannot parse (a shell may), which can hold a heredoc whose body runs",
            ));
        }
        if let Some(what) = r.unreliable {
            add(FindingKind::Unfollowed(what));
        }
        if let Some((what, _)) = r.escapes_differ {
            add(FindingKind::Unfollowed(what));
        }
        nested_findings(bytes, d, &r.nested, findings);
    }
}

/// Text joined to a heredoc's operator line (a backslash-newline, an open quote, a `$(`
/// that runs on): the body starts lines later than the operator's line ends, and the lines
/// between, which an author takes for the first body lines, are code in every shell.
fn operator_line_findings(bytes: &[u8], intended: &Reading, findings: &mut Vec<Finding>) {
    // Other heredocs' bodies and closing lines, and their operators with their words.
    let mut covered: Vec<(u32, u32)> = intended
        .heredocs
        .iter()
        .flat_map(|h| [h.body, (h.op, h.word.1)].into_iter().chain(h.closer))
        .filter(|(s, e)| s < e)
        .collect();
    covered.sort_unstable();
    let covered = merge(covered);
    for (i, h) in intended.heredocs.iter().enumerate() {
        // The operator line as its author sees it: the physical line where the word
        // starts, when a backslash-newline joins the next line into or after the word
        // (`<<E\`, `<<E\`+`X;cmd`); otherwise the line the word ends on.
        let (w0, w1) = (
            (h.word.0 as usize).min(bytes.len()),
            (h.word.1 as usize).min(bytes.len()),
        );
        let from = crate::search::find(bytes.get(w0..w1).unwrap_or_default(), b"\\\n")
            .map_or(w1, |k| w0 + k);
        let Some(nl) = memchr::memchr(b'\n', &bytes[from..]).map(|n| from + n) else {
            continue;
        };
        let line_after = u32::try_from(nl + 1).unwrap_or(u32::MAX);
        if h.body.0 <= line_after {
            continue;
        }
        // The gap may hold other heredocs' bodies, read first (`cat <<A <<B`, a
        // `$(cat <<B` on the operator line), and the operators that close what the
        // operator line opened (`)`): words in it are what an author takes for the body.
        let mut at = line_after as usize;
        let end = (h.body.0 as usize).min(bytes.len());
        let mut word_at = None;
        for &(s, e) in covered.iter().chain(std::iter::once(&(h.body.0, h.body.0))) {
            let (s, e) = (s as usize, e as usize);
            if e <= at {
                continue;
            }
            let gap_end = s.min(end);
            if at < gap_end
                && let Some(k) = bytes[at..gap_end]
                    .iter()
                    .position(|&c| !c.is_ascii_whitespace() && !b")}]`;&|\"'".contains(&c))
            {
                word_at = Some(at + k);
                break;
            }
            at = at.max(e);
            if at >= end {
                break;
            }
        }
        if let Some(at) = word_at {
            findings.push(boundary(bytes, i, at));
        }
    }
}

/// A heredoc in backquotes whose closing line the closing backquote ends, with words after
/// it on the same line (``E`canary` text``): the author's line is not the delimiter alone,
/// and its later lines, which the author may take for body (down to a line `E`), are code.
/// Blanks and what closes the enclosing constructs (`` E`" ``, `` E`) ``) may follow.
fn backquote_closer_findings(bytes: &[u8], intended: &Reading, findings: &mut Vec<Finding>) {
    for (i, h) in intended.heredocs.iter().enumerate() {
        let Some((start, end)) = h.closer else {
            continue;
        };
        if h.context != shell::Context::Backquote {
            continue;
        }
        // The closing backquote, at the closing line's end or just before it (the end of a
        // backquoted text is mapped past its backquote).
        let end = end as usize;
        let Some(quote) = [end, end.wrapping_sub(1)]
            .into_iter()
            .find(|&p| bytes.get(p) == Some(&b'`'))
        else {
            continue;
        };
        // On the closing line itself (not a backquote on the line after it).
        if bytes
            .get(start as usize..quote)
            .is_none_or(|line| line.contains(&b'\n'))
        {
            continue;
        }
        let from = quote + 1;
        let line_end = memchr::memchr(b'\n', bytes.get(from..).unwrap_or_default())
            .map_or(bytes.len(), |n| from + n);
        let word = bytes
            .get(from..line_end)
            .unwrap_or_default()
            .iter()
            .position(|&c| !c.is_ascii_whitespace() && !b")}]`;&|\"'".contains(&c));
        if let Some(k) = word {
            let at = from + k;
            findings.push(boundary(bytes, i, at));
        }
    }
}

/// Heredoc text at `at` that the intended reading reads as code (heredoc `i`'s operator
/// line or closing line).
fn boundary(bytes: &[u8], i: usize, at: usize) -> Finding {
    Finding {
        kind: FindingKind::Boundary,
        heredoc: Some(i),
        at,
        pos: UNSET,
        excerpt: line_from(bytes, at),
        shells: vec![Shell::Intended],
    }
}

/// What the judge found, as findings: values that may be heredoc text reaching a hidden
/// evaluator, and changes the reader does not follow before a heredoc read after them.
/// `judged` holds, in order, the intended reading's and each shell's.
fn judge_findings(
    bytes: &[u8],
    intended: &Reading,
    shells: &[(Dialect, Rc<Reading>)],
    judged: &[Rc<Vec<Found>>],
    findings: &mut Vec<Finding>,
) {
    let index_of = |op: u32| intended.heredocs.iter().position(|h| h.op == op);
    let readings = std::iter::once((Dialect::new(Shell::Intended), intended))
        .chain(shells.iter().map(|(d, r)| (*d, &**r)));
    // Where each (kind, offset) stands in `findings`: one look-up per finding.
    let mut index: std::collections::HashMap<(FindingKind, usize), usize> = findings
        .iter()
        .enumerate()
        .map(|(i, f)| ((f.kind.clone(), f.at), i))
        .collect();
    for ((dialect, reading), found) in readings.zip(judged) {
        for f in found.iter() {
            let (kind, at, heredoc) = match *f {
                Found::Evaluation {
                    at,
                    evaluator,
                    what,
                    unknown,
                    in_body,
                } => (
                    FindingKind::Evaluation {
                        evaluator,
                        what,
                        unknown,
                        in_body: in_body.is_some(),
                    },
                    at,
                    in_body
                        .and_then(|i| reading.heredocs.get(i))
                        .and_then(|h| index_of(h.op)),
                ),
                Found::Change { at, what } => (FindingKind::ReadingOption(what), at, None),
                Found::Unread { at, in_body, what } => (
                    FindingKind::Unread(what),
                    at,
                    in_body
                        .and_then(|i| reading.heredocs.get(i))
                        .and_then(|h| index_of(h.op)),
                ),
            };
            let at = at as usize;
            if let Some(old) = index
                .get(&(kind.clone(), at))
                .and_then(|&i| findings.get_mut(i))
            {
                if !old.shells.contains(&dialect.shell) {
                    old.shells.push(dialect.shell);
                }
                continue;
            }
            index.insert((kind.clone(), at), findings.len());
            findings.push(Finding {
                kind,
                heredoc,
                at,
                pos: UNSET,
                excerpt: line_from(bytes, at),
                shells: vec![dialect.shell],
            });
        }
    }
}

/// A finding's position before the pass that sets them all.
const UNSET: shell::Pos = shell::Pos { line: 0, column: 0 };

/// Excerpts stop after this many bytes (a reason shows far fewer).
const EXCERPT_BYTES: u32 = 240;

/// The findings the judge adds.
fn effect_kind(k: &FindingKind) -> bool {
    matches!(
        k,
        FindingKind::Evaluation { .. } | FindingKind::ReadingOption(_) | FindingKind::Unread(_)
    )
}

/// Substitutions come first at one offset: they say the most.
fn rank(k: &FindingKind) -> u8 {
    match k {
        FindingKind::Substitution(_) => 0,
        FindingKind::Evaluation { .. } | FindingKind::Unread(_) => 1,
        FindingKind::AnsiCDelimiter | FindingKind::DelimiterExpansion => 3,
        FindingKind::ReadingOption(_) => 4,
        FindingKind::Boundary | FindingKind::Unfollowed(_) => 5,
    }
}

fn merge(mut v: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(v.len());
    for (s, e) in v.drain(..) {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// An expansion in a delimiter word outside quotes: `$(…)`, `${…}`, `$[…]`, `<(…)`, or
/// backquotes holding quotes, a backslash or `$`. Shells read such words differently
/// (measured): bash 5.2+ keeps its own re-print of a `$(…)` program, bash before 5.2
/// removes the quotes inside them from the closing line and 4.4 and 5.1 count them as
/// quoting, zsh counts quotes anywhere as quoting. A plain backquoted word reads the same
/// everywhere but in quoting (3.2 and 4.4 count it as quoting), which the body rule covers.
fn delimiter_has_expansion(word: &[u8]) -> bool {
    let mut i = 0;
    let mut quote = 0u8;
    while i < word.len() {
        let c = word[i];
        match (quote, c) {
            (0, b'\'' | b'"') => quote = c,
            (q, _) if q != 0 && c == q => quote = 0,
            (0 | b'"', b'\\') => i += 1,
            (0, b'$') if matches!(word.get(i + 1), Some(b'(' | b'{' | b'[')) => return true,
            (0, b'<' | b'>') if word.get(i + 1) == Some(&b'(') => return true,
            (0, b'`') => {
                let end = word[i + 1..]
                    .iter()
                    .position(|&b| b == b'`')
                    .map_or(word.len(), |p| i + 1 + p);
                if word[i + 1..end]
                    .iter()
                    .any(|b| matches!(b, b'\'' | b'"' | b'\\' | b'$'))
                {
                    return true;
                }
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

fn lossy(bytes: &[u8], start: u32, end: u32) -> String {
    let end = (end as usize).min(bytes.len());
    let start = (start as usize).min(end);
    String::from_utf8_lossy(&bytes[start..end]).into_owned()
}

/// From `at` to the end of its line (at most [`EXCERPT_BYTES`]).
fn line_from(bytes: &[u8], at: usize) -> String {
    let at = at.min(bytes.len());
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
    let end = end.min(at + EXCERPT_BYTES as usize);
    String::from_utf8_lossy(&bytes[at..end]).into_owned()
}

/// For each `(from, closing, strip_tabs)`: the start of the first line after the line
/// holding `from` that is `closing` as a closing line (tabs stripped first for `<<-`),
/// alone or followed by `)`. One pass over the lines for all of them: every line walks a
/// trie of the closings (as far as it matches one), so the time is linear in the command
/// whatever the number of heredocs.
fn later_closing_lines(bytes: &[u8], asks: &[(usize, &[u8], bool)]) -> Vec<Option<usize>> {
    let mut found = vec![None; asks.len()];
    if asks.is_empty() {
        return found;
    }
    // The trie: node 0 is the root; edges by byte; each node lists the asks whose closing
    // ends there.
    let mut edges: std::collections::HashMap<(usize, u8), usize> = Default::default();
    let mut ends: Vec<Vec<usize>> = vec![Vec::new()];
    let mut node_of = Vec::with_capacity(asks.len());
    for (closing, _) in asks.iter().map(|(_, c, t)| (c, t)) {
        let mut node = 0;
        for &c in closing.iter() {
            let next = ends.len();
            node = *edges.entry((node, c)).or_insert(next);
            if node == next {
                ends.push(Vec::new());
            }
        }
        node_of.push(node);
    }
    // Where each ask starts looking: the line after the one holding `from`.
    let mut order: Vec<(usize, usize)> = asks
        .iter()
        .enumerate()
        .filter_map(|(k, (from, _, _))| {
            let nl = memchr::memchr(b'\n', bytes.get(*from..)?)?;
            Some((from + nl + 1, k))
        })
        .collect();
    order.sort_unstable();
    let mut next_ask = 0;
    // The asks waiting at each node: (ask, strip_tabs).
    let mut waiting: Vec<Vec<(usize, bool)>> = vec![Vec::new(); ends.len()];
    // How many asks wait, anywhere in the trie (so the end test is not a walk of it).
    let mut pending = 0usize;
    let mut start = order.first().map_or(bytes.len(), |&(s, _)| s);
    while start < bytes.len() && next_ask <= order.len() {
        while let Some(&(_, k)) = order.get(next_ask).filter(|(s, _)| *s <= start) {
            waiting[node_of[k]].push((k, asks[k].2));
            pending += 1;
            next_ask += 1;
        }
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |p| start + p);
        let line = &bytes[start..end];
        let tabs = line.iter().take_while(|&&c| c == b'\t').count();
        // The line as it is (plain `<<`), then without its leading tabs (`<<-`).
        for (from, strip) in [(0, false), (tabs, true)] {
            if strip && tabs == 0 {
                // Same text: the walk below takes both kinds of asks.
                continue;
            }
            let text = &line[from..];
            let mut node = 0;
            let mut j = 0;
            loop {
                if matches!(text.get(j), None | Some(b')')) {
                    let list = &mut waiting[node];
                    list.retain(|&(k, s)| {
                        let hit = s == strip || tabs == 0;
                        if hit {
                            found[k] = Some(start);
                            pending -= 1;
                        }
                        !hit
                    });
                }
                match text.get(j).and_then(|&c| edges.get(&(node, c))) {
                    Some(&n) => {
                        node = n;
                        j += 1;
                    }
                    None => break,
                }
            }
        }
        if next_ask == order.len() && pending == 0 {
            break;
        }
        start = end + 1;
    }
    found
}
