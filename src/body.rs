//! Reading a heredoc body as bash reads it: the line joins, where it really ends, and the
//! substitutions an unquoted body would run.
//!
//! This module works on raw text only, never on a parser's pieces: a parser that reads a
//! body differently from bash (an unterminated `$(`, a `)` in a comment) cannot hide a
//! substitution from a linear scan that looks at every `$` and backquote.

use crate::lex;

/// A construct in an unquoted body that makes the shell run a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubstKind {
    /// `$(…)`, also when nested in `${…}`, `$((…))` or `$[…]`.
    Dollar,
    /// `` `…` ``.
    Backtick,
    /// bash 5.3 `${ cmd; }` / `${| cmd; }`.
    FunSub,
    /// `${name@P}`: prompt expansion runs substitutions held in the variable.
    PromptExpansion,
    /// zsh `${(e)x}` / `${(%)x}`: evaluates substitutions held in the variable.
    ZshEvaluation,
}

impl SubstKind {
    /// A few words for a person.
    pub fn describe(self) -> &'static str {
        match self {
            SubstKind::Dollar => "command substitution $(...)",
            SubstKind::Backtick => "backtick command substitution",
            SubstKind::FunSub => "bash 5.3 ${ cmd; } substitution",
            SubstKind::PromptExpansion => "${name@P} prompt expansion",
            SubstKind::ZshEvaluation => "zsh ${(e)...} evaluation",
        }
    }
}

/// One substitution found in a body: its kind and its byte range in the body as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Substitution {
    pub kind: SubstKind,
    pub start: usize,
    pub end: usize,
}

/// Why the shell's end of a heredoc differs from the parser's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundaryKind {
    /// After backslash-newline joining, a body line equals the delimiter.
    JoinedCloser,
    /// The last body line ends in a backslash, which joins the closing line into the body.
    SwallowedCloser,
    /// Inside `$(…)`/`<(…)`, a line starting with the delimiter and holding a `)` ends the
    /// heredoc in bash 5.2+, and the rest of the line runs as code.
    EarlyEndInSubstitution,
}

/// A boundary problem and the byte offset of the line it concerns in the body as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    pub kind: BoundaryKind,
    pub offset: usize,
}

/// The body with every unescaped backslash-newline removed, as bash reads an unquoted body,
/// plus what is needed to map offsets back to the text as written.
pub struct Joined {
    pub text: String,
    /// For each removed pair: its offset in `text`.
    removed_at: Vec<usize>,
}

impl Joined {
    /// Removes backslash-newline pairs. `\\` is an escaped backslash and joins nothing.
    pub fn new(body: &str) -> Joined {
        let bytes = body.as_bytes();
        let mut text = Vec::with_capacity(bytes.len());
        let mut removed_at = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'\\' {
                match bytes.get(i + 1) {
                    Some(b'\n') => {
                        removed_at.push(text.len());
                        i += 2;
                    }
                    Some(&next) => {
                        text.push(b);
                        text.push(next);
                        i += 2;
                    }
                    None => {
                        text.push(b);
                        i += 1;
                    }
                }
            } else {
                text.push(b);
                i += 1;
            }
        }
        // Only ASCII pairs were removed from valid UTF-8, so this cannot fail; fall back to
        // the lossy form rather than panic.
        let text = String::from_utf8(text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Joined { text, removed_at }
    }

    /// Maps an offset in the joined text back to the body as written.
    pub fn original_offset(&self, joined: usize) -> usize {
        let before = self.removed_at.partition_point(|&at| at <= joined);
        joined + 2 * before
    }
}

/// Finds every substitution an unquoted body would run, in order.
pub fn substitutions(body: &str) -> Vec<Substitution> {
    let joined = Joined::new(body);
    scan(joined.text.as_bytes())
        .into_iter()
        .map(|s| Substitution {
            kind: s.kind,
            start: joined.original_offset(s.start),
            end: joined.original_offset(s.end.saturating_sub(1)) + 1,
        })
        .collect()
}

/// Checks where bash would end the heredoc against where the parser ended it.
///
/// `body` is the parser's body (leading tabs already stripped for `<<-`), `closing` the
/// delimiter after quote removal.
pub fn boundary(
    body: &str,
    closing: &str,
    strip_tabs: bool,
    unquoted: bool,
    in_substitution: bool,
) -> Option<Boundary> {
    if in_substitution {
        let mut offset = 0;
        for line in body.split_inclusive('\n') {
            let content = line.strip_suffix('\n').unwrap_or(line);
            let content = if strip_tabs {
                content.trim_start_matches('\t')
            } else {
                content
            };
            if content
                .strip_prefix(closing)
                .is_some_and(|rest| rest.contains(')'))
            {
                return Some(Boundary {
                    kind: BoundaryKind::EarlyEndInSubstitution,
                    offset,
                });
            }
            offset += line.len();
        }
    }
    if !unquoted {
        return None;
    }
    let joined = Joined::new(body);
    if !joined.text.is_empty() && !joined.text.ends_with('\n') {
        let last_line = body.trim_end_matches('\n').rfind('\n').map_or(0, |p| p + 1);
        return Some(Boundary {
            kind: BoundaryKind::SwallowedCloser,
            offset: last_line,
        });
    }
    let mut offset = 0;
    for line in joined.text.split_inclusive('\n') {
        let content = line.strip_suffix('\n').unwrap_or(line);
        if content == closing || (strip_tabs && content.trim_start_matches('\t') == closing) {
            return Some(Boundary {
                kind: BoundaryKind::JoinedCloser,
                offset: joined.original_offset(offset),
            });
        }
        offset += line.len();
    }
    None
}

/// A finding in the joined text.
struct Found {
    kind: SubstKind,
    start: usize,
    end: usize,
}

/// The linear scan over an unquoted, joined body. Every `$` and backquote is looked at;
/// the scan never skips the inside of `${…}`, `$((…))` or `$[…]`, so nested substitutions
/// are found. A found `$(…)` or backquote is skipped as a whole (it denies anyway).
fn scan(b: &[u8]) -> Vec<Found> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                i += if matches!(b.get(i + 1), Some(b'$' | b'`' | b'\\')) {
                    2
                } else {
                    1
                }
            }
            b'`' => {
                let end = lex::backtick_end(b, i + 1);
                found.push(Found {
                    kind: SubstKind::Backtick,
                    start: i,
                    end,
                });
                i = end;
            }
            b'$' => match b.get(i + 1) {
                Some(b'(') => {
                    if b.get(i + 2) == Some(&b'(') && lex::is_arithmetic(b, i + 3) {
                        i += 3;
                    } else {
                        let end = lex::bracket_end(b, i + 2, b'(', b')');
                        found.push(Found {
                            kind: SubstKind::Dollar,
                            start: i,
                            end,
                        });
                        i = end;
                    }
                }
                Some(b'{') => {
                    if let Some(kind) = brace_kind(b, i + 2) {
                        let end = lex::bracket_end(b, i + 2, b'{', b'}');
                        found.push(Found {
                            kind,
                            start: i,
                            end,
                        });
                    }
                    i += 2;
                }
                Some(b'$') => i += 2,
                _ => i += 1,
            },
            _ => i += 1,
        }
    }
    found
}

/// What a `${` starting its inside at `from` runs, if anything.
fn brace_kind(b: &[u8], from: usize) -> Option<SubstKind> {
    match b.get(from) {
        Some(b' ' | b'\t' | b'\n' | b'|') => return Some(SubstKind::FunSub),
        Some(b'(') => {
            // zsh flags `${(…)…}`; unterminated ones are not read further: deny.
            let Some(close) = b[from..].iter().position(|&c| c == b')') else {
                return Some(SubstKind::ZshEvaluation);
            };
            let flags = &b[from + 1..from + close];
            if flags.iter().any(|&c| c == b'e' || c == b'%') {
                return Some(SubstKind::ZshEvaluation);
            }
            return None;
        }
        _ => {}
    }
    let end = lex::bracket_end(b, from, b'{', b'}');
    let inner = &b[from..end.saturating_sub(1).max(from)];
    if inner.ends_with(b"@P") {
        return Some(SubstKind::PromptExpansion);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(body: &str) -> Vec<SubstKind> {
        substitutions(body).into_iter().map(|s| s.kind).collect()
    }

    #[test]
    fn finds_dollar_paren_and_backtick() {
        assert_eq!(kinds("a $(id) b\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("a `id` b\n"), vec![SubstKind::Backtick]);
    }

    #[test]
    fn escapes_are_literal_but_escaped_backslash_is_not() {
        assert!(kinds("\\$(id) \\`id\\`\n").is_empty());
        assert_eq!(kinds("\\\\$(id)\n"), vec![SubstKind::Dollar]);
    }

    #[test]
    fn variables_and_arithmetic_run_nothing() {
        assert!(
            kinds("$HOME ${HOME} ${x:-text} ${#x} ${x:0:3} ${x//a/b} $((i+1)) $$(x) $[1+2]\n")
                .is_empty()
        );
    }

    #[test]
    fn nested_substitutions_are_found() {
        assert_eq!(kinds("${x:-$(id)}\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("$(( $(id) ))\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("$[ `id` ]\n"), vec![SubstKind::Backtick]);
    }

    #[test]
    fn dollar_double_paren_closed_by_single_paren_is_a_subshell() {
        assert_eq!(kinds("$((id) )\n"), vec![SubstKind::Dollar]);
        assert_eq!(kinds("$((1+2)\n"), vec![SubstKind::Dollar]);
    }

    #[test]
    fn backslash_newline_joins_before_scanning() {
        let subs = substitutions("x $\\\n(id)\n");
        assert_eq!(subs.len(), 1);
        assert_eq!(subs[0].start, 2);
        assert_eq!(&"x $\\\n(id)\n"[subs[0].start..subs[0].end], "$\\\n(id)");
    }

    #[test]
    fn funsub_prompt_and_zsh_eval_are_found() {
        assert_eq!(kinds("${ id; }\n"), vec![SubstKind::FunSub]);
        assert_eq!(kinds("${| id; }\n"), vec![SubstKind::FunSub]);
        assert_eq!(kinds("${v@P}\n"), vec![SubstKind::PromptExpansion]);
        assert_eq!(kinds("${(e)v}\n"), vec![SubstKind::ZshEvaluation]);
    }

    #[test]
    fn joined_closer_and_swallowed_closer_are_boundaries() {
        let b = boundary("hi\nEO\\\nF\necho x\n", "EOF", false, true, false).map(|b| b.kind);
        assert_eq!(b, Some(BoundaryKind::JoinedCloser));
        let b = boundary("hi\nlast\\\n", "EOF", false, true, false).map(|b| b.kind);
        assert_eq!(b, Some(BoundaryKind::SwallowedCloser));
        assert_eq!(boundary("hi\nlast\\\\\n", "EOF", false, true, false), None);
        assert_eq!(boundary("hi\nEO\\\nF\n", "EOF", false, false, false), None);
    }

    #[test]
    fn early_end_applies_only_inside_substitutions() {
        let body = "EOF $(id)\n)\n";
        assert_eq!(
            boundary(body, "EOF", false, false, true).map(|b| b.kind),
            Some(BoundaryKind::EarlyEndInSubstitution)
        );
        assert_eq!(boundary(body, "EOF", false, false, false), None);
    }
}
