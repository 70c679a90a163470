//! Text every bash scanner reads alike: where the versions' scanners of `$(…)`, `${…}`,
//! `$((…))` and quoted strings differ (bash 3.2's `parse_matched_pair`, 4.4's and 5.1's
//! `parse_comsub` text scanners, 5.2's recursive parser), they differ on a quote, a
//! backslash, a backquote, a comment, a heredoc, a nested expansion, a `case`, or a
//! newline. Text ahead that holds none of these, and the closing character on the same
//! line, is read the same by all of them, so the reader need not ask which scanner the
//! dialect has (a reading that never asks is shared by every version; see `Probe`).

/// Whether `rest` (the rest of the current line, nothing pushed in front of it) holds the
/// `close` that ends a construct whose `open` was just read, with only plain text before
/// it: words of letters, digits and the punctuation no scanner decides on, `$name`, and
/// (with `quotes`) single-quoted text and double-quoted plain text. `nest`: an inner
/// `open` counts (and needs its own `close`). `command`: the text is commands (the old
/// scanners track `case` there).
pub(super) fn closes_plainly(
    rest: &[u8],
    open: u8,
    close: u8,
    nest: bool,
    quotes: bool,
    command: bool,
) -> bool {
    if open == close {
        // Quoted text: only a backslash, a backquote and an expansion other than `$name`
        // are decided on, by every scanner.
        let mut i = 0;
        while let Some(&c) = rest.get(i) {
            i += 1;
            match c {
                c if c == close => return true,
                b'\\' | b'`' => return false,
                b'$' if !rest
                    .get(i)
                    .is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'_') =>
                {
                    return false;
                }
                _ => {}
            }
        }
        return false;
    }
    let mut depth = 1usize;
    let mut i = 0;
    while let Some(&c) = rest.get(i) {
        i += 1;
        if c == close {
            depth -= 1;
            if depth == 0 {
                return true;
            }
            continue;
        }
        if c == open {
            if !nest {
                return false;
            }
            depth += 1;
            continue;
        }
        match c {
            b'$' => {
                if !rest
                    .get(i)
                    .is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'_')
                {
                    return false;
                }
            }
            b'\'' if quotes => {
                // Single-quoted text ends at the next `'` on this line, whatever it holds.
                match rest.get(i..).and_then(|r| memchr::memchr(b'\'', r)) {
                    Some(n) => i += n + 1,
                    None => return false,
                }
            }
            b'"' if quotes => {
                // Double-quoted plain text: letters, digits, plain punctuation, `$name`.
                loop {
                    let Some(&q) = rest.get(i) else { return false };
                    i += 1;
                    match q {
                        b'"' => break,
                        b'$' => {
                            if !rest
                                .get(i)
                                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'_')
                            {
                                return false;
                            }
                        }
                        q if plain_byte(q) || matches!(q, b' ' | b'\t' | b'#' | b'{' | b'}') => {}
                        b'(' | b')' | b'<' | b'>' | b'[' | b']' => {}
                        _ => return false,
                    }
                }
            }
            b' ' | b'\t' => {}
            b'<' | b'>' => {
                if matches!(rest.get(i), Some(b'(' | b'<')) {
                    return false;
                }
            }
            b'c' | b'e'
                if command
                    && (i < 2 || !rest.get(i - 2).is_some_and(u8::is_ascii_alphanumeric))
                    && is_case_word(rest.get(i - 1..).unwrap_or_default()) =>
            {
                return false;
            }
            c if plain_byte(c) => {}
            _ => return false,
        }
    }
    false
}

/// A byte no scanner decides on outside quotes.
fn plain_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'_' | b'-'
                | b'+'
                | b'*'
                | b'/'
                | b'%'
                | b'='
                | b','
                | b'.'
                | b':'
                | b'@'
                | b'^'
                | b'~'
                | b'&'
                | b'|'
                | b';'
                | b'?'
                | b'!'
                | b'['
                | b']'
        )
}

/// Whether `text` starts with the word `case` or `esac` (a reserved word the old
/// scanners track in command text).
fn is_case_word(text: &[u8]) -> bool {
    (text.starts_with(b"case") || text.starts_with(b"esac"))
        && !text
            .get(4)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

#[cfg(test)]
mod tests {
    use super::closes_plainly;

    /// Whether `text` closes a command substitution's `$(` plainly.
    fn closes_command(text: &[u8]) -> bool {
        closes_plainly(text, b'(', b')', false, true, true)
    }

    #[test]
    fn plain_text_closes_plainly() {
        for text in [
            &b"mktemp -d) rest"[..],
            b"dirname \"$0\")",
            b"printf '%s\\n' \"x 1\")",
            b"echo \"case 1\" cases)",
        ] {
            assert!(closes_command(text), "{}", String::from_utf8_lossy(text));
        }
        assert!(closes_plainly(
            b"pass + 1))",
            b'(',
            b')',
            true,
            false,
            false
        ));
        assert!(closes_plainly(b"HOME}/x", b'{', b'}', false, false, false));
        assert!(closes_plainly(
            b"case {i} (x) #1\"",
            b'"',
            b'"',
            false,
            false,
            false
        ));
    }

    #[test]
    fn anything_a_scanner_decides_on_is_not_plain() {
        for text in [
            &b"echo `x`)"[..],
            b"echo \\x)",
            b"echo # c)",
            b"cat <<E)",
            b"echo $(x))",
            b"echo ${x})",
            b"case x in a) ;; esac)",
            b"x; case $y in a",
            b"echo \"$(x)\")",
            b"echo \"a\\\"b\")",
            b"echo x",
            b"diff <(a) b)",
            b"echo 'a",
        ] {
            assert!(!closes_command(text), "{}", String::from_utf8_lossy(text));
        }
        assert!(!closes_plainly(b"x:-'a'}", b'{', b'}', false, false, false));
        assert!(!closes_plainly(b"a{b}}", b'{', b'}', false, false, false));
    }
}
