//! A builtin's words parsed as its `getopt`-style loop parses them: clusters of option
//! letters (`-ap`), an option's argument attached (`-vname`) or in the next word, `--`,
//! then operands. The builtins that assign a variable named by an option (`read -a`,
//! `printf -v`, `wait -p`, `compgen -V`) or evaluate one (`compgen -W`) are read this
//! way, so that no spelling of an option hides what it does. A computed word among the
//! options is reported (the caller assumes the worst of it), and so is a letter the
//! builtin does not take (it then does nothing).

use crate::shell::word::{Piece, WordInfo};

/// An option's argument: its own word, or the rest of the option's cluster.
#[derive(Clone, Debug)]
pub(super) enum OptArg<'a> {
    Word(&'a WordInfo),
    /// Attached text, with the word it came from (for offsets).
    Attached(Vec<u8>, &'a WordInfo),
    /// Attached text with expansions in it (`-v"$x"`).
    Computed(WordInfo),
}

impl OptArg<'_> {
    /// The argument as a word of its own.
    pub fn word(&self) -> WordInfo {
        match self {
            OptArg::Word(w) => (*w).clone(),
            OptArg::Attached(text, from) => WordInfo {
                start: from.start,
                end: from.end,
                pieces: vec![Piece::Lit(text.clone())],
                ..WordInfo::default()
            },
            OptArg::Computed(w) => w.clone(),
        }
    }
}

/// The words parsed.
#[derive(Debug, Default)]
pub(super) struct Parsed<'a> {
    /// Each option letter, with its argument when it takes one.
    pub opts: Vec<(u8, Option<OptArg<'a>>)>,
    /// The words after the options.
    pub operands: &'a [WordInfo],
    /// A word where an option may stand that the guard cannot read (computed): what the
    /// builtin does with it is not known.
    pub unread: bool,
    /// A letter the builtin does not take: it reports it and does nothing (every shell
    /// read; the letters given are every version's).
    pub rejected: bool,
}

impl Parsed<'_> {
    /// Whether option `letter` was given.
    pub fn has(&self, letter: u8) -> bool {
        self.opts.iter().any(|(l, _)| *l == letter)
    }

    /// The arguments given to option `letter`.
    pub fn args(&self, letter: u8) -> impl Iterator<Item = &OptArg<'_>> {
        self.opts
            .iter()
            .filter(move |(l, _)| *l == letter)
            .filter_map(|(_, a)| a.as_ref())
    }
}

/// [`parse`] in the walk: where the command may remove a glob that matches nothing
/// (`nullglob`, zsh's NULL_GLOB), a glob word where the options end may give no word, and
/// the words after it may be options (`printf q*.none -v "$k" x`, round 102).
pub(super) fn parse_in<'a>(
    w: &crate::judge::walk::Walk<'_>,
    args: &'a [WordInfo],
    lits: &[Option<Vec<u8>>],
    known: &[u8],
    takes: &[u8],
) -> Parsed<'a> {
    let mut p = parse(args, lits, known, takes);
    if !p.unread
        && p.operands.first().is_some_and(|o| o.many || o.brace)
        && w.text_may_remove_globs()
    {
        p.unread = true;
    }
    p
}

/// Parses `args` (their literal values in `lits`) with the option letters `known`, of
/// which `takes` take an argument.
pub(super) fn parse<'a>(
    args: &'a [WordInfo],
    lits: &[Option<Vec<u8>>],
    known: &[u8],
    takes: &[u8],
) -> Parsed<'a> {
    let mut out = Parsed {
        operands: &[],
        ..Parsed::default()
    };
    let mut k = 0;
    while let Some(word) = args.get(k) {
        let lit = lits.get(k).cloned().flatten();
        match lit.as_deref() {
            Some(b"--") => {
                k += 1;
                break;
            }
            Some(s) if s.len() > 1 && s.first() == Some(&b'-') => {
                let mut i = 1;
                while let Some(&letter) = s.get(i) {
                    if !known.contains(&letter) {
                        out.rejected = true;
                    }
                    if takes.contains(&letter) {
                        let rest = s.get(i + 1..).unwrap_or_default();
                        let arg = if rest.is_empty() {
                            k += 1;
                            args.get(k).map(OptArg::Word)
                        } else {
                            Some(OptArg::Attached(rest.to_vec(), word))
                        };
                        out.opts.push((letter, arg));
                        break;
                    }
                    out.opts.push((letter, None));
                    i += 1;
                }
                k += 1;
            }
            Some(_) => break,
            None => {
                // Options written before an expansion (`-v"$x"`): the letters, then the
                // rest of the word as the argument of the first that takes one. (In a
                // glob, braces or a tilde only the letters before the first character
                // that makes a pattern: a file's name may give the others, `-?` beside a
                // file `-v`, round 101; `-vBASH_ALIASES[cat]` is `-v` all the same.)
                let pattern = word.many || word.brace || word.tilde;
                if let Some(Piece::Lit(l)) = word.pieces.first()
                    && l.len() > 1
                    && l.first() == Some(&b'-')
                {
                    let written = if pattern {
                        l.iter()
                            // (zsh's EXTENDED_GLOB `#` and `^` too: `-P#`, round 102.)
                            .position(|c| b"*?[{~#^".contains(c))
                            .map_or(l.len(), |k| k.max(1))
                    } else {
                        l.len()
                    };
                    let mut given = false;
                    for (i, &letter) in l.iter().enumerate().take(written).skip(1) {
                        if !known.contains(&letter) {
                            out.rejected = true;
                        }
                        if takes.contains(&letter) {
                            let mut pieces = Vec::new();
                            if let Some(rest) = l.get(i + 1..).filter(|r| !r.is_empty()) {
                                pieces.push(Piece::Lit(rest.to_vec()));
                            }
                            pieces.extend(word.pieces.iter().skip(1).cloned());
                            let arg = WordInfo {
                                pieces,
                                ..word.clone()
                            };
                            out.opts.push((letter, Some(OptArg::Computed(arg))));
                            given = true;
                            break;
                        }
                        out.opts.push((letter, None));
                    }
                    if given {
                        k += 1;
                        continue;
                    }
                    // Letters computed after the written ones.
                    out.unread = true;
                    break;
                }
                // A computed word: an option when its text starts with `-` (written, or
                // from an expansion the guard does not know, or a glob or brace that may
                // make one: `*`, `{-v,x}`, extglob's `@(…)`, zsh's `<1-9>`, `(a|b)` and `^c`).
                let starts_plain = matches!(
                    word.pieces.first(),
                    Some(Piece::Lit(l)) if l.first().is_some_and(|&c| c != b'-'
                        && !(pattern && b"*?[{@!+~<(=^".contains(&c)))
                );
                if !starts_plain {
                    out.unread = true;
                }
                break;
            }
        }
    }
    out.operands = args.get(k..).unwrap_or_default();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(texts: &[&str]) -> Vec<WordInfo> {
        texts
            .iter()
            .map(|t| WordInfo {
                pieces: vec![Piece::Lit(t.as_bytes().to_vec())],
                ..WordInfo::default()
            })
            .collect()
    }

    fn lits(w: &[WordInfo]) -> Vec<Option<Vec<u8>>> {
        w.iter().map(WordInfo::literal).collect()
    }

    #[test]
    fn a_cluster_gives_its_rest_to_the_option_that_takes_an_argument() {
        let w = words(&["-ap", "x"]);
        let p = parse(&w, &lits(&w), b"adprs", b"adp");
        let a: Vec<Vec<u8>> = p.args(b'a').map(|a| a.word().literal().unwrap()).collect();
        assert_eq!(a, vec![b"p".to_vec()]);
        assert_eq!(p.operands.len(), 1);
        assert!(!p.unread);
    }

    #[test]
    fn an_argument_may_be_the_next_word_and_options_end_at_double_dash() {
        let w = words(&["-r", "-a", "arr", "--", "-x"]);
        let p = parse(&w, &lits(&w), b"adprs", b"adp");
        assert!(p.has(b'r'));
        assert_eq!(p.args(b'a').count(), 1);
        assert_eq!(p.operands.len(), 1);
    }

    #[test]
    fn an_unknown_letter_or_a_computed_option_is_reported() {
        let w = words(&["-Z", "x"]);
        assert!(parse(&w, &lits(&w), b"r", b"").rejected);
        let computed = vec![WordInfo {
            pieces: vec![Piece::Lit(b"-".to_vec()), Piece::Subst(0)],
            ..WordInfo::default()
        }];
        assert!(parse(&computed, &lits(&computed), b"v", b"v").unread);
    }

    #[test]
    fn an_attached_argument_with_an_expansion_is_computed_not_unread() {
        let w = vec![WordInfo {
            pieces: vec![Piece::Lit(b"-v".to_vec()), Piece::Subst(0)],
            ..WordInfo::default()
        }];
        let p = parse(&w, &lits(&w), b"v", b"v");
        assert!(!p.unread);
        assert!(matches!(p.args(b'v').next(), Some(OptArg::Computed(_))));
    }
}
