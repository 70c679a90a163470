//! The fast path: a byte scan that tells whether a command needs reading at all. It runs
//! before anything else. A command needs no reading when it is one line (no newline byte),
//! holds no heredoc operator, and no quote, escape or expansion (from which text run
//! again, by `eval` or a name computed to be it, could build a newline and `<<`): bash
//! reads a line whole before it runs any of it, so nothing in it (an alias, an option)
//! can change how it is read, and with no heredoc there is no body to run. Everything
//! else is read.

/// True when the command must be read: it holds a newline, or `<<` (also with the two
/// `<` split by backslash-newlines, which bash joins before it reads the operator; `<<<`
/// counts too).
pub fn needs_reading(bytes: &[u8]) -> bool {
    memchr::memchr(b'\n', bytes).is_some()
        || has_heredoc_operator(bytes)
        // Text run again (`eval`, `source`, `trap`, under any name the command computes)
        // can be built with a newline and `<<` from quotes, escapes and expansions
        // (`$'\n'`, `"<""<"`, `${IFS:2:1}`): a line that holds any of them is read.
        || bytes.iter().any(|&b| REREAD_BYTES[usize::from(b)])
}

/// The bytes from which a line can build text that differs from what it spells: quotes,
/// escapes, expansions. A line without them runs only the words it shows.
const REREAD_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    t[b'$' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'`' as usize] = true;
    t
};

/// True when the bytes hold a heredoc operator (see [`needs_reading`]).
pub fn may_hold_heredoc(bytes: &[u8]) -> bool {
    has_heredoc_operator(bytes)
}

fn has_heredoc_operator(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(pos) = memchr::memchr(b'<', &bytes[i..]) {
        let mut j = i + pos + 1;
        while bytes.get(j) == Some(&b'\\') && bytes.get(j + 1) == Some(&b'\n') {
            j += 2;
        }
        if bytes.get(j) == Some(&b'<') {
            return true;
        }
        i = j;
        if i >= bytes.len() {
            break;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{may_hold_heredoc, needs_reading};

    #[test]
    fn sees_plain_and_split_operators() {
        assert!(may_hold_heredoc(b"cat <<EOF"));
        assert!(may_hold_heredoc(b"cat <\\\n<EOF"));
        assert!(may_hold_heredoc(b"cat <\\\n\\\n<EOF"));
        assert!(may_hold_heredoc(b"cat <<<word"));
    }

    #[test]
    fn ignores_single_redirections() {
        assert!(!may_hold_heredoc(b"cat < a > b"));
        assert!(!may_hold_heredoc(b"cat <\\ <x"));
        assert!(!may_hold_heredoc(b""));
        assert!(!may_hold_heredoc(b"<"));
    }

    #[test]
    fn one_line_without_an_operator_needs_no_reading_and_more_lines_do() {
        assert!(!needs_reading(b"alias c=cat; c x"));
        assert!(needs_reading(b"alias c='cat'; c x"));
        assert!(needs_reading(b"eval \"cat <\"\"<E${IFS:2:1}x${IFS:2:1}E\""));
        assert!(!needs_reading(b"git status"));
        assert!(needs_reading(b"alias c=cat\nc x"));
        assert!(needs_reading(b"echo 'a\nb'"));
        assert!(needs_reading(b"cat <<EOF"));
        assert!(needs_reading(b"eval $'cat <\\x3cE\\n$(x)\\nE'"));
    }
}
