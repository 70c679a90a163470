//! Small byte-level helpers shared by the body scanner and the word scanner: where a
//! backquote, a `$((` or a `${` ends. No parser crate here, only bash's bracket rules.

/// The end (exclusive) of a backquoted substitution whose text starts at `from`
/// (a backslash escapes the next byte); the end of the text when it is unterminated.
pub fn backtick_end(b: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'`' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// The end (exclusive) of a bracketed construct whose inside starts at `from`, counting
/// nested `open`/`close` pairs and skipping backslash escapes; the end of the text if none.
pub fn bracket_end(b: &[u8], from: usize, open: u8, close: u8) -> usize {
    let mut depth = 0usize;
    let mut j = from;
    while j < b.len() {
        let c = b[j];
        if c == b'\\' {
            j += 2;
            continue;
        }
        if c == open {
            depth += 1;
        } else if c == close {
            if depth == 0 {
                return j + 1;
            }
            depth -= 1;
        }
        j += 1;
    }
    b.len()
}

/// After `$((`: true when the text closes as arithmetic (`))` at depth zero). When a lone
/// `)` closes first, bash reads `$( (…) …)`, a command substitution holding a subshell;
/// an unterminated `$((` is not arithmetic either (callers fail closed on it).
pub fn is_arithmetic(b: &[u8], from: usize) -> bool {
    let end = bracket_end(b, from, b'(', b')');
    end <= b.len() && end >= 1 && b.get(end - 1) == Some(&b')') && b.get(end) == Some(&b')')
}

/// Removes backquote escaping as bash does before parsing a backquoted command:
/// `\$`, `` \` `` and `\\` lose their backslash, backslash-newline is removed (measured:
/// it joins a split closing line inside backquotes); any other backslash stays.
/// Also gives every removal: its offset in the result and how many bytes went (1 for an
/// escaping backslash, 2 for a backslash-newline).
pub fn unescape_backquoted(inner: &str) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(inner.len());
    let mut removed = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n) = chars.peek()
            && matches!(n, '$' | '`' | '\\' | '\n')
        {
            if n == '\n' {
                removed.push((out.len(), 2));
            } else {
                removed.push((out.len(), 1));
                out.push(n);
            }
            chars.next();
            continue;
        }
        out.push(c);
    }
    (out, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_needs_a_double_close() {
        assert!(is_arithmetic(b"1+2))", 0));
        assert!(is_arithmetic(b" (1+2) ))", 0));
        assert!(!is_arithmetic(b"id) )", 0));
        assert!(!is_arithmetic(b"1+2", 0));
    }

    #[test]
    fn backquote_unescaping_matches_bash() {
        assert_eq!(
            unescape_backquoted(r"a \$(id) \` \\ \n"),
            (r"a $(id) ` \ \n".to_owned(), vec![(2, 1), (8, 1), (10, 1)])
        );
        assert_eq!(
            unescape_backquoted("Z\\\n9"),
            ("Z9".to_owned(), vec![(1, 2)])
        );
        assert_eq!(
            unescape_backquoted("Z\\\\\n9"),
            ("Z\\\n9".to_owned(), vec![(1, 1)])
        );
    }
}
