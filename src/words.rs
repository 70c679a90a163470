//! Finding the command substitutions inside one word of the outer command, so that
//! heredocs inside `"$(cat <<EOF … EOF)"` and backquotes are inspected too.
//!
//! A word parser that is not heredoc-aware stops a `$(` at the first `)` of a body line
//! (`1) first item`). This scanner tracks bash's quoting itself and asks the shell parser
//! (through [`ProgramOracle`]) where a `$(` really closes: at the longest prefix that is a
//! complete program, which is where bash closes it whenever the two agree on the inside.

use crate::lex;

/// What the scanner needs from the shell parser.
pub trait ProgramOracle {
    /// True when `text` is a complete program and a `)` appended to it would be an
    /// operator (not part of a comment): `$(` + text + `)` is then a whole substitution.
    fn closes_substitution(&mut self, text: &str) -> Result<bool, ScanError>;
}

/// The kind of substitution a nested program came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InnerKind {
    Dollar,
    Backquote,
}

/// A nested program: its text as bash parses it and where it starts in the word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inner {
    pub kind: InnerKind,
    pub text: String,
    /// Byte offset in the word where the program's text starts.
    pub start: usize,
    /// For a backquoted text: each removal of backquote escaping, as (offset in `text`,
    /// bytes removed); a 2 is a backslash-newline, which bash removes before it reads
    /// the heredocs inside.
    pub removed: Vec<(usize, usize)>,
}

/// Why a word could not be scanned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScanError {
    /// Quoting or a substitution never closes.
    Unterminated(&'static str),
    /// Too many parse attempts were needed to find where substitutions end.
    Budget,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Unquoted,
    DoubleQuoted,
    Parameter,
}

/// True when the text may hold a heredoc operator (`<<`, also split by backslash-newline).
pub fn may_hold_heredoc(text: &str) -> bool {
    crate::prefilter::has_heredoc_operator(text.as_bytes())
}

/// Every substitution in `word` whose program may hold a heredoc, outermost first.
/// Substitutions whose text cannot hold a heredoc are skipped without parsing.
pub fn nested_programs(
    word: &str,
    oracle: &mut dyn ProgramOracle,
) -> Result<Vec<Inner>, ScanError> {
    let b = word.as_bytes();
    let mut found = Vec::new();
    if !may_hold_heredoc(word) {
        return Ok(found);
    }
    let mut stack = vec![Mode::Unquoted];
    let mut i = 0;
    while i < b.len() {
        let mode = *stack.last().unwrap_or(&Mode::Unquoted);
        let c = b[i];
        match c {
            b'\\' => i += 2,
            b'\'' if mode == Mode::Unquoted => {
                let close = b[i + 1..]
                    .iter()
                    .position(|&q| q == b'\'')
                    .ok_or(ScanError::Unterminated("single quote"))?;
                i += close + 2;
            }
            b'"' if mode == Mode::DoubleQuoted => {
                stack.pop();
                i += 1;
            }
            b'"' => {
                stack.push(Mode::DoubleQuoted);
                i += 1;
            }
            b'}' if mode == Mode::Parameter => {
                stack.pop();
                i += 1;
            }
            b'`' => {
                let end = lex::backtick_end(b, i + 1);
                if end > b.len() || b.get(end - 1) != Some(&b'`') || end == i + 1 {
                    return Err(ScanError::Unterminated("backquote"));
                }
                let raw = &word[i + 1..end - 1];
                if may_hold_heredoc(raw) {
                    let (text, removed) = lex::unescape_backquoted(raw);
                    found.push(Inner {
                        kind: InnerKind::Backquote,
                        text,
                        start: i + 1,
                        removed,
                    });
                }
                i = end;
            }
            b'$' => match b.get(i + 1) {
                Some(b'\'') if mode != Mode::DoubleQuoted => {
                    let mut j = i + 2;
                    loop {
                        match b.get(j) {
                            None => return Err(ScanError::Unterminated("$'...' string")),
                            Some(b'\\') => j += 2,
                            Some(b'\'') => break,
                            Some(_) => j += 1,
                        }
                    }
                    i = j + 1;
                }
                Some(b'"') if mode != Mode::DoubleQuoted => {
                    stack.push(Mode::DoubleQuoted);
                    i += 2;
                }
                Some(b'{') => {
                    stack.push(Mode::Parameter);
                    i += 2;
                }
                Some(b'(') => {
                    if b.get(i + 2) == Some(&b'(') && lex::is_arithmetic(b, i + 3) {
                        i += 3;
                        continue;
                    }
                    let start = i + 2;
                    let close = substitution_close(word, start, oracle)?;
                    let text = &word[start..close];
                    if may_hold_heredoc(text) {
                        found.push(Inner {
                            kind: InnerKind::Dollar,
                            text: text.to_owned(),
                            start,
                            removed: Vec::new(),
                        });
                    }
                    i = close + 1;
                }
                _ => i += 1,
            },
            _ => i += 1,
        }
    }
    Ok(found)
}

/// Where the `$(` whose text starts at `start` closes: the byte offset of its `)`.
/// Tries the longest candidate first (the common `"$(cat <<'EOF' … )"`), then the others
/// from the shortest on.
fn substitution_close(
    word: &str,
    start: usize,
    oracle: &mut dyn ProgramOracle,
) -> Result<usize, ScanError> {
    let closes: Vec<usize> = word[start..]
        .match_indices(')')
        .map(|(at, _)| start + at)
        .collect();
    let Some(&last) = closes.last() else {
        return Err(ScanError::Unterminated("command substitution"));
    };
    if oracle.closes_substitution(&word[start..last])? {
        return Ok(last);
    }
    for &at in &closes[..closes.len() - 1] {
        if oracle.closes_substitution(&word[start..at])? {
            return Ok(at);
        }
    }
    Err(ScanError::Unterminated("command substitution"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An oracle that accepts a candidate when its parentheses and quotes balance and it
    /// holds no heredoc body cut short; enough to test the scanner's own logic.
    struct Balanced;
    impl ProgramOracle for Balanced {
        fn closes_substitution(&mut self, text: &str) -> Result<bool, ScanError> {
            let opens = text.matches('(').count();
            let closes = text.matches(')').count();
            Ok(opens == closes && text.matches('"').count().is_multiple_of(2))
        }
    }

    fn programs(word: &str) -> Vec<String> {
        nested_programs(word, &mut Balanced)
            .unwrap_or_default()
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn finds_the_heredoc_program_in_a_double_quoted_substitution() {
        assert_eq!(
            programs("\"$(cat <<'EOF'\nx\nEOF\n)\""),
            vec!["cat <<'EOF'\nx\nEOF\n"]
        );
    }

    #[test]
    fn skips_substitutions_without_heredoc_operator() {
        assert!(programs("\"$(date) and $(whoami)\"").is_empty());
    }

    #[test]
    fn single_quotes_hide_substitutions() {
        assert!(programs("'$(cat <<EOF)'").is_empty());
    }

    #[test]
    fn backquotes_are_unescaped_before_parsing() {
        assert_eq!(
            programs("`cat <<EOF\n\\$(id)\nEOF\n`"),
            vec!["cat <<EOF\n$(id)\nEOF\n"]
        );
    }

    #[test]
    fn finds_substitutions_inside_parameter_expansions() {
        assert_eq!(
            programs("${x:-$(cat <<EOF\nx\nEOF\n)}"),
            vec!["cat <<EOF\nx\nEOF\n"]
        );
    }
}
