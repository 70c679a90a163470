//! `declare` and its kin (`typeset`, `local`, `export`, `readonly`, zsh's `integer` and
//! `float`): attributes, and the names and values they assign, fixed or computed.

use super::*;
use crate::judge::GaveUp;
use crate::judge::evaluators::Evaluator;
use crate::judge::facts::{Expr, Needs, Target};
use crate::judge::walk::{Ctx, Walk};
use crate::shell::tree::Word;
use crate::shell::word::{Piece, WordInfo};

/// `declare` and its kin: options, then `name`, `name=value`, `name[sub]=value` words.
pub(super) fn declare(
    w: &mut Walk<'_>,
    name: &[u8],
    raw: &[Word],
    args: &[WordInfo],
    lits: &[Option<Vec<u8>>],
    at: u32,
    ctx: &Ctx,
) -> Result<Expr, GaveUp> {
    let zsh = w.zsh();
    // bash's export and readonly refuse a subscripted name before evaluating anything, and
    // give no integer or nameref attribute.
    let plain = !zsh && matches!(name, b"export" | b"readonly");
    let mut integer = matches!(name, b"integer" | b"float");
    let (mut nameref, mut assoc, mut array, mut case, mut functions, mut print, mut tied) =
        (false, false, false, false, false, args.is_empty(), false);
    // zsh's `typeset -m`: each name is a pattern, any variable's.
    let mut pattern = false;
    let mut options = true;
    for (k, (a, l)) in args.iter().zip(lits).enumerate() {
        // A word brace expansion makes many of is computed at run time (`{-i,n}` is
        // `-i n`). (A glob or a tilde that is no assignment comes here computed already,
        // `builtins::as_options_may_be`: `declare -?` beside a file `-i`, round 101.)
        let l = if a.brace { &None } else { l };
        let raw_word = raw.get(k);
        if options {
            match l.as_deref() {
                Some(b"--") => {
                    options = false;
                    continue;
                }
                Some(s) if (s.starts_with(b"-") || s.starts_with(b"+")) && s.len() > 1 => {
                    let on = s.starts_with(b"-");
                    for &o in &s[1..] {
                        match o {
                            // (`-F`: zsh's float, bash's function names.)
                            b'i' | b'E' if on => integer = true,
                            b'F' if on && zsh => integer = true,
                            // (zsh 5.9, the one the suite runs, has no namerefs.)
                            b'n' if on && !zsh => {
                                nameref = true;
                                w.facts.has_nameref = true;
                            }
                            b'A' if on => assoc = true,
                            b'a' if on => array = true,
                            b'l' | b'u' | b'c' if on => case = true,
                            // (`+f`, `+F` turn an attribute off: names stay variables'
                            // names, round 102.)
                            b'f' | b'F' if on => functions = true,
                            b'p' => print = true,
                            b'T' if zsh => tied = true,
                            b'm' if zsh => pattern = true,
                            _ => {}
                        }
                    }
                    continue;
                }
                Some(_) => options = false,
                None => {
                    // An option word computed at run time may give any attribute: one
                    // that may start with `-` or `+` and is not a quoted `name=value`.
                    let may_start_option = a.brace
                        || a
                        .pieces
                        .first()
                        .is_some_and(|p| !matches!(p, Piece::Lit(l) if !l.starts_with(b"-") && !l.starts_with(b"+")));
                    let assignment = !a.split && split_at_equals(a).is_some();
                    // (After `-f`/`-F` the words are functions' names.)
                    if !plain && !functions && may_start_option && !assignment {
                        w.facts.any_integer.get_or_insert(at);
                        // (zsh 5.9, the one the suite runs, has no namerefs.)
                        if !zsh {
                            w.facts.any_nameref.get_or_insert(at);
                        }
                        w.facts.any_case = true;
                        // (It may be empty: the words after it may be options still. It is
                        // read as a name too, below.)
                    } else {
                        options = false;
                    }
                }
            }
        }
        if functions {
            continue;
        }
        // A glob (`declare a*`) may become any file's name: a name computed at run time.
        // (An assignment is not globbed: only a name part with a pattern counts.)
        let globbed_name = a.many
            && l.as_deref().is_some_and(|s| {
                let name = s.split(|&c| c == b'=').next().unwrap_or_default();
                let base = name.split(|&c| c == b'[').next().unwrap_or_default();
                let assignment = s.contains(&b'=') && crate::shell::syntax::legal_identifier(base);
                !assignment && s.iter().any(|c| matches!(c, b'*' | b'?' | b'['))
            });
        let l = if globbed_name || pattern {
            None
        } else {
            l.as_deref()
        };
        match l {
            Some(s) => {
                let (target, value) = match s.iter().position(|&c| c == b'=') {
                    Some(eq) => (&s[..eq], Some(&s[eq + 1..])),
                    None => (s, None),
                };
                let append = target.ends_with(b"+");
                let target = target.strip_suffix(b"+").unwrap_or(target);
                let (base, sub) = split_subscript(target);
                if !crate::shell::syntax::legal_identifier(base) && !w.zsh_parameter_name(base) {
                    continue;
                }
                let v = w.var(base);
                if sub.is_some() {
                    w.site(a.start, Evaluator::Name, "declare", Expr::lit(target), None);
                }
                attributes(w, v, integer, assoc, array, case, at);
                if tied {
                    if let Some(prev) = w.facts.names.get(b"\0tied") {
                        w.facts.same.push((prev, v));
                    }
                    let t = w.var(b"\0tied");
                    w.facts.same.push((t, v));
                }
                let value_expr = match value {
                    Some(text) => {
                        // A compound value written as such (`m=(…)`) is read as an
                        // assignment word: its keys are subscripts.
                        if let Some(rw) = raw_word
                            && let Some(asg) = w.assignment(rw)?
                            && rw.text.bytes().get(
                                asg.name.len()
                                    + 1
                                    + usize::from(
                                        rw.text.bytes().get(asg.name.len()) == Some(&b'+'),
                                    ),
                            ) == Some(&b'(')
                        {
                            w.assignment_word(rw, &asg, ctx)?;
                            if assoc {
                                w.facts.assoc.push(v);
                            }
                            continue;
                        }
                        // The word's own value (quotes removed), from the word as read.
                        let e = value_after_equals(w, a).unwrap_or_else(|| Expr::lit(text));
                        if array || text.first() == Some(&b'(') {
                            // A quoted list is read again as words (its subscripts too).
                            list_site(w, a.start, "declare -a with a quoted list", e.clone(), None);
                        }
                        if text.first() == Some(&b'(') {
                            w.compound_text(v, text, ctx)?;
                        }
                        Some(e)
                    }
                    None => None,
                };
                if nameref {
                    match value {
                        Some(t) => {
                            let (tb, _) = split_subscript(t);
                            if crate::shell::syntax::legal_identifier(tb) {
                                let tv = w.var(tb);
                                w.facts.same.push((v, tv));
                            }
                            w.site(a.start, Evaluator::Name, "a nameref", Expr::lit(t), None);
                        }
                        None => {
                            w.site(a.start, Evaluator::Name, "a nameref", Expr::var(v), None);
                            w.facts.computed_refs.push(v);
                        }
                    }
                    continue;
                }
                if let Some(e) = value_expr {
                    if append {
                        w.append_site(v, &e, at);
                    }
                    let e = if append { w.appended(v, e) } else { e };
                    w.assign(Target::Var(v), e, at, ctx);
                }
            }
            None => {
                if tied {
                    // zsh `typeset -T $n foo`: tied to a name computed at run time, the
                    // literal names tied here may be any variable.
                    let t = w.var(b"\0tied");
                    w.facts.computed_refs.push(t);
                }
                // `name=$value` keeps the name fixed; `"$k=$v"`, `"$name"` compute it, and
                // so do braces and a glob (`{PS4,y}=…`, `LC_AL?=*` matching a file the
                // command made: round 64).
                match literal_prefix(a).filter(|_| !pattern && !a.brace && !a.many) {
                    Some((target, value, append)) => {
                        let (base, sub) = split_subscript(&target);
                        if !crate::shell::syntax::legal_identifier(base)
                            && !w.zsh_parameter_name(base)
                        {
                            continue;
                        }
                        let v = w.var(base);
                        if sub.is_some() {
                            w.site(
                                a.start,
                                Evaluator::Name,
                                "declare",
                                Expr::lit(&target),
                                None,
                            );
                        }
                        attributes(w, v, integer, assoc, array, case, at);
                        let e = w.word_expr(&value);
                        if nameref {
                            w.site(a.start, Evaluator::Name, "a nameref", e, None);
                            w.facts.computed_refs.push(v);
                            continue;
                        }
                        if array || is_quoted_list(&value) {
                            list_site(
                                w,
                                a.start,
                                "declare with a list in a value",
                                e.clone(),
                                None,
                            );
                        }
                        // A name that may be an array (made anywhere in the command, by
                        // any of the ways a name becomes one: the solver's `is_array`): its
                        // value is a list read again as words.
                        list_site(
                            w,
                            a.start,
                            "declare of a name that may be an array, with a value",
                            e.clone(),
                            Some(Needs::Array(v)),
                        );
                        if append {
                            w.append_site(v, &e, at);
                        }
                        let e = if append { w.appended(v, e) } else { e };
                        w.assign(Target::Var(v), e, at, ctx);
                    }
                    None => {
                        // The name and the value, split at the first literal `=`; a name
                        // that may end in `+` appends.
                        let (name_part, value_part) = match split_at_equals(a) {
                            Some((n, v)) => {
                                let append = match n.pieces.last() {
                                    Some(Piece::Lit(l)) => l.ends_with(b"+"),
                                    _ => true,
                                };
                                let value = w.word_expr(&v);
                                let value = if append {
                                    let mut both = value.clone();
                                    both.join(Walk::appended_to_any(value));
                                    both
                                } else {
                                    value
                                };
                                // (Braces alone give names the command spells, by their
                                // bytes; a glob may give any file's name.)
                                let spelled: Option<Vec<u8>> = n
                                    .pieces
                                    .iter()
                                    .map(|p| match p {
                                        Piece::Lit(l) => Some(l.clone()),
                                        _ => None,
                                    })
                                    .collect::<Option<Vec<_>>>()
                                    .map(|ls| ls.concat())
                                    .filter(|l| !l.iter().any(|c| matches!(c, b'*' | b'?' | b'[')));
                                let name = if let Some(l) = spelled.filter(|_| a.brace && !pattern)
                                {
                                    Expr::val(crate::judge::value::Val::fixed(
                                        crate::judge::value::ByteSet::of(&l),
                                    ))
                                } else if pattern || a.brace || a.many {
                                    Expr::unknown()
                                } else {
                                    w.word_expr(&n)
                                };
                                (name, Some(value))
                            }
                            None => (w.word_expr(a), None),
                        };
                        if plain {
                            if let Some(v) = value_part {
                                w.facts.assign(Target::Any, v, at);
                            }
                            continue;
                        }
                        w.site(
                            a.start,
                            Evaluator::Name,
                            "declare of a name computed at run time",
                            name_part.clone(),
                            None,
                        );
                        if integer {
                            w.facts.any_integer.get_or_insert(at);
                        }
                        if nameref {
                            w.facts.any_nameref.get_or_insert(at);
                        }
                        if case {
                            w.facts.any_case = true;
                        }
                        if let Some(v) = value_part {
                            if array || assoc {
                                list_site(
                                    w,
                                    a.start,
                                    "declare -a of a name computed at run time",
                                    v.clone(),
                                    None,
                                );
                            } else {
                                // The name may be an array's (the shell's own, such as
                                // BASH_ALIASES, at least): a value that starts with `(` is
                                // read again as a list.
                                list_site(
                                    w,
                                    a.start,
                                    "declare of a name computed at run time, with a list",
                                    v.clone(),
                                    Some(Needs::ListValue),
                                );
                            }
                            dynamic_assignment(w, name_part, v, at, ctx);
                        }
                    }
                }
            }
        }
    }
    // `declare -p` prints values, `declare -f` functions' code (their heredocs' text).
    Ok(if print || functions {
        Expr::unknown()
    } else {
        Expr::default()
    })
}

#[allow(clippy::too_many_arguments)]
/// A declaration's value that bash reads again as a list (`declare a=$v` where `a` is an
/// array, or `-a`, and `$v` is `(…)`: its words are expanded, a `$(…)` in them runs). zsh
/// never does: it refuses a list's text as an array's value (`inconsistent type for
/// assignment`, with `typeset` a reserved word or a builtin, in every emulation).
fn list_site(w: &mut Walk<'_>, at: u32, what: &'static str, value: Expr, needs: Option<Needs>) {
    if w.zsh() {
        return;
    }
    match needs {
        Some(n) => w.site_needing(at, Evaluator::WordList, what, value, n),
        None => w.site(at, Evaluator::WordList, what, value, None),
    }
}

fn attributes(
    w: &mut Walk<'_>,
    v: u32,
    integer: bool,
    assoc: bool,
    array: bool,
    case: bool,
    at: u32,
) {
    if integer {
        w.facts.integers.push((v, at));
    }
    if assoc {
        w.facts.assoc.push(v);
    }
    if array || assoc {
        w.facts.arrays.push(v);
    }
    if case {
        w.facts.case_changed.push(v);
    }
}

/// A value whose text starts with `(` (a list `declare` reads again).
fn is_quoted_list(value: &WordInfo) -> bool {
    matches!(value.pieces.first(), Some(Piece::Lit(l)) if l.first() == Some(&b'('))
}

/// The expression of what follows the first `=` of a literal `declare` word.
fn value_after_equals(w: &mut Walk<'_>, a: &WordInfo) -> Option<Expr> {
    let (_, value, _) = literal_prefix(a)?;
    Some(w.word_expr(&value))
}

/// A word `name=…` whose name part is literal: the name, the value as a word, and whether
/// it appends (`name+=…`).
fn literal_prefix(w: &WordInfo) -> Option<(Vec<u8>, WordInfo, bool)> {
    let Some(Piece::Lit(first)) = w.pieces.first() else {
        return None;
    };
    let eq = first.iter().position(|&c| c == b'=')?;
    let append = first[..eq].ends_with(b"+");
    let name = first[..eq]
        .strip_suffix(b"+")
        .unwrap_or(&first[..eq])
        .to_vec();
    let mut rest = vec![Piece::Lit(first[eq + 1..].to_vec())];
    rest.extend(w.pieces.iter().skip(1).cloned());
    Some((
        name,
        WordInfo {
            start: w.start,
            end: w.end,
            pieces: rest,
            tilde: w.tilde,
            unread: w.unread,
            many: w.many,
            ..WordInfo::default()
        },
        append,
    ))
}
