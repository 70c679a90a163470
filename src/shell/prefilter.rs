//! The fast path: a byte scan that tells whether a command needs reading at all. It runs
//! before anything else; a command that holds no heredoc operator and could define no
//! alias is allowed without being read.

/// True when the bytes hold `<<` (also with the two `<` split by backslash-newlines, which
/// bash joins before it reads the operator; `<<<` counts too), or the word `alias`, also
/// spelled with quotes or backslashes inside it (an alias value can hold a heredoc that
/// the text itself does not show).
pub fn may_hold_heredoc(bytes: &[u8]) -> bool {
    has_heredoc_operator(bytes) || may_name_alias(bytes)
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

/// `alias` in either case (`BASH_ALIASES[name]=…` defines one too), with any quote
/// characters or backslash-newlines between its letters.
fn may_name_alias(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(pos) = memchr::memchr2(b'a', b'A', &bytes[i..]) {
        let start = i + pos;
        let mut j = start + 1;
        let mut matched = 1;
        while matched < 5 {
            match bytes.get(j) {
                Some(b'\'' | b'"') => j += 1,
                Some(b'\\') => {
                    j += if bytes.get(j + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    }
                }
                Some(&c) if c.to_ascii_lowercase() == b"alias"[matched] => {
                    matched += 1;
                    j += 1;
                }
                _ => break,
            }
        }
        if matched == 5 {
            return true;
        }
        i = start + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::may_hold_heredoc;

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
    fn sees_alias_however_it_is_quoted() {
        assert!(may_hold_heredoc(b"alias c=cat"));
        assert!(may_hold_heredoc(b"al'i'as c=cat"));
        assert!(may_hold_heredoc(b"\\alias c=cat"));
        assert!(may_hold_heredoc(b"ali\\\nas c=cat"));
        assert!(!may_hold_heredoc(b"echo aliens"));
    }
}
