//! The fast path: a byte scan that tells whether a command could hold a heredoc at all.
//! It runs before anything else is touched; a command without `<<` is allowed here.

/// True when the bytes hold `<<`, also when the two `<` are split by backslash-newlines
/// (bash joins those before it reads the operator). `<<<` counts too; the parser then
/// finds a here-string and no heredoc.
pub fn has_heredoc_operator(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(pos) = bytes[i..].iter().position(|&b| b == b'<') {
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
    use super::has_heredoc_operator;

    #[test]
    fn sees_plain_and_split_operators() {
        assert!(has_heredoc_operator(b"cat <<EOF"));
        assert!(has_heredoc_operator(b"cat <\\\n<EOF"));
        assert!(has_heredoc_operator(b"cat <\\\n\\\n<EOF"));
        assert!(has_heredoc_operator(b"cat <<<word"));
    }

    #[test]
    fn ignores_single_redirections() {
        assert!(!has_heredoc_operator(b"cat < a > b"));
        assert!(!has_heredoc_operator(b"cat <\\ <x"));
        assert!(!has_heredoc_operator(b""));
        assert!(!has_heredoc_operator(b"<"));
    }
}
