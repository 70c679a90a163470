//! The whole extent of a substitution found in an unquoted heredoc body, for `strip`: the
//! text a shell runs, from its `$` or backquote through its last character, found by the
//! rules every shell agrees on, or nothing when the extent depends on the shell (a comment,
//! a `case` pattern or a heredoc inside, a construct that does not close).

/// Constructs nested deeper than this have no extent here (the scan recurses per level).
const MAX_DEPTH: usize = 64;

/// The end (exclusive) of the construct starting at `at` in `b` (a heredoc body's text as
/// it stands in the command), or `None` when it cannot be told for every shell.
///
/// `$(…)` and `$((…) )` (which a shell may run as a command) end at the `)` that balances
/// the first `(`; `$[…]` at its `]`; `${…}` at its `}`; bash 5.3's `${ cmd; }` at the `}`
/// that ends its command list; a backquoted command at its closing backquote. An escaped
/// `\$`, or a `$` that opens none of these (text a shell expands again later), has no
/// extent in the body.
pub fn whole_run(b: &[u8], at: usize) -> Option<usize> {
    let rest = b.get(at..)?;
    let end = match rest {
        [b'$', b'(', ..] => command_end(0, b, at + 2, b')'),
        [b'$', b'[', ..] => bracket_end(0, b, at + 2),
        [b'$', b'{', c, ..] if super::syntax::funsub_char(*c) => command_end(0, b, at + 2, b'}'),
        [b'$', b'{', ..] => brace_end(0, b, at + 2),
        [b'`', ..] => backquote_end(b, at + 1),
        _ => None,
    }?;
    // Over more than one line, or with a parenthesis inside a `${…}` inside it, the shells'
    // ways of finding the end can part (line joins, heredocs, `(` counted or not): none.
    let text = &b[at..end];
    if text.contains(&b'\n') || paren_in_brace(text) {
        return None;
    }
    Some(end)
}

/// A `(` or `)` inside a `${…}` of `text` (past its first two bytes).
fn paren_in_brace(text: &[u8]) -> bool {
    let mut depth = 0usize;
    let mut j = 2;
    while let Some(&c) = text.get(j) {
        match c {
            b'$' if text.get(j + 1) == Some(&b'{') => {
                depth += 1;
                j += 1;
            }
            b'{' if depth > 0 => depth += 1,
            b'}' if depth > 0 => depth -= 1,
            b'(' | b')' if depth > 0 => return true,
            _ => {}
        }
        j += 1;
    }
    false
}

/// After `$(` (or `${ `): the index past the closing `)` (or the `}` that ends the command
/// list). Quotes, escapes and nested substitutions are stepped over; a comment, a heredoc
/// operator or a `case` (whose patterns end in a bare `)`) inside make the end depend on
/// the shell: `None`.
fn command_end(d: usize, b: &[u8], from: usize, close: u8) -> Option<usize> {
    if d > MAX_DEPTH {
        return None;
    }
    let mut depth = 0usize;
    let mut j = from;
    // Whether the last byte ends a word (a `#` after it starts a comment, a `}` after a
    // `;` or newline is the reserved word).
    let mut word_start = true;
    let mut command_start = true;
    while let Some(&c) = b.get(j) {
        let next = match c {
            b'\\' => j + 2,
            b'\'' => j + 1 + memchr::memchr(b'\'', b.get(j + 1..)?)? + 1,
            b'"' => dquote_end(d + 1, b, j + 1)?,
            b'`' => backquote_end(b, j + 1)?,
            b'$' if matches!(b.get(j + 1), Some(b'(')) => command_end(d + 1, b, j + 2, b')')?,
            b'$' if matches!(b.get(j + 1), Some(b'{')) => match b.get(j + 2) {
                Some(&n) if super::syntax::funsub_char(n) => command_end(d + 1, b, j + 2, b'}')?,
                _ => brace_end(d + 1, b, j + 2)?,
            },
            b'#' if word_start => return None,
            b'<' if b.get(j + 1) == Some(&b'<') => return None,
            b'c' if word_start && b[j..].starts_with(b"case") => return None,
            b'(' if close == b')' => {
                depth += 1;
                j + 1
            }
            b')' if close == b')' => {
                if depth == 0 {
                    return Some(j + 1);
                }
                depth -= 1;
                j + 1
            }
            b'}' if close == b'}' && command_start => return Some(j + 1),
            _ => j + 1,
        };
        word_start = matches!(c, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')');
        command_start = match c {
            b';' | b'\n' | b'&' | b'|' => true,
            b' ' | b'\t' => command_start,
            _ => false,
        };
        j = next;
    }
    None
}

/// After `"`: the index past the closing `"`, nested substitutions stepped over.
fn dquote_end(d: usize, b: &[u8], from: usize) -> Option<usize> {
    if d > MAX_DEPTH {
        return None;
    }
    let mut j = from;
    while let Some(&c) = b.get(j) {
        j = match c {
            b'\\' => j + 2,
            b'"' => return Some(j + 1),
            b'`' => backquote_end(b, j + 1)?,
            b'$' if matches!(b.get(j + 1), Some(b'(')) => command_end(d + 1, b, j + 2, b')')?,
            b'$' if matches!(b.get(j + 1), Some(b'{')) => brace_end(d + 1, b, j + 2)?,
            _ => j + 1,
        };
    }
    None
}

/// After an opening backquote: the index past the closing one.
fn backquote_end(b: &[u8], from: usize) -> Option<usize> {
    let mut j = from;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'`' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// After `${`: the index past its `}` (nested braces counted, quotes and substitutions
/// stepped over).
fn brace_end(d: usize, b: &[u8], from: usize) -> Option<usize> {
    balanced_end(d, b, from, (b'{', b'}'), true)
}

/// After `$[`: the index past the `]` that balances it.
fn bracket_end(d: usize, b: &[u8], from: usize) -> Option<usize> {
    balanced_end(d, b, from, (b'[', b']'), false)
}

/// The index past the `close` that balances an `open` before `from`: nested pairs
/// counted, backslashes, backquotes and `$(…)` stepped over, and quotes too when
/// `quotes` (inside `${…}`, not inside `$[…]`).
fn balanced_end(
    d: usize,
    b: &[u8],
    from: usize,
    (open, close): (u8, u8),
    quotes: bool,
) -> Option<usize> {
    if d > MAX_DEPTH {
        return None;
    }
    let mut depth = 0usize;
    let mut j = from;
    while let Some(&c) = b.get(j) {
        j = match c {
            b'\\' => j + 2,
            b'\'' if quotes => j + 1 + memchr::memchr(b'\'', b.get(j + 1..)?)? + 1,
            b'"' if quotes => dquote_end(d + 1, b, j + 1)?,
            b'`' => backquote_end(b, j + 1)?,
            b'$' if matches!(b.get(j + 1), Some(b'(')) => command_end(d + 1, b, j + 2, b')')?,
            c if c == open => {
                depth += 1;
                j + 1
            }
            c if c == close => {
                if depth == 0 {
                    return Some(j + 1);
                }
                depth -= 1;
                j + 1
            }
            _ => j + 1,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::whole_run;

    fn run(s: &str) -> Option<&str> {
        whole_run(s.as_bytes(), 0).map(|e| &s[..e])
    }

    #[test]
    fn a_substitution_runs_through_its_last_character() {
        assert_eq!(run("$(id) x"), Some("$(id)"));
        assert_eq!(
            run("$((echo hi; git push --force origin main) ) x"),
            Some("$((echo hi; git push --force origin main) )")
        );
        assert_eq!(
            run("$(echo \")\" 'a)' $(b) `c)`) x"),
            Some("$(echo \")\" 'a)' $(b) `c)`)")
        );
        assert_eq!(run("`a \\` b` x"), Some("`a \\` b`"));
        assert_eq!(run("${x:-$(id)} y"), Some("${x:-$(id)}"));
        assert_eq!(run("${ id; } y"), Some("${ id; }"));
        assert_eq!(run("$[ a[1] ] y"), Some("$[ a[1] ]"));
    }

    #[test]
    fn an_extent_some_shell_reads_differently_has_none() {
        for s in [
            "$(echo a # )\n)",
            "$(case x in x) y;; esac)",
            "$(cat <<E\n)\nE\n)",
            "$(never closed",
            "`never closed",
            "\\$(escaped)",
            "$x",
            "$(( a ${x:-)} ))",
            "$(echo a\nb)",
        ] {
            assert_eq!(run(s), None, "{s:?}");
        }
    }
}
