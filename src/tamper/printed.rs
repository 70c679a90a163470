//! What `printf`, `echo -e` and zsh's `echo` and `print` print from the literal text of
//! their words: the backslash escapes decoded (`\x2e`, `\056`, `\u002e`, `\n`), and for
//! `printf` its format applied (each conversion takes the next word, `%b` decoding its
//! escapes; the format used again while words remain). Text the command makes this way is
//! text it shows: a switch written to a settings file, a program piped into a shell (round
//! 79). Rough where it cannot matter (widths and precisions are not applied) and bounded.

/// Most bytes made for one command.
const MAX_PRINTED: usize = 64 * 1024;

/// What `printf WORDS…` prints (`words` are its arguments, after `printf`).
pub(super) fn printf(words: &[Vec<u8>]) -> Vec<u8> {
    // (`-v NAME` assigns instead of printing: the text is the same.)
    let words = match words {
        [v, _, rest @ ..] if v.as_slice() == b"-v" => rest,
        [dd, rest @ ..] if dd.as_slice() == b"--" => rest,
        _ => words,
    };
    let Some((format, args)) = words.split_first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut next = 0;
    loop {
        let before = next;
        let mut i = 0;
        while i < format.len() && out.len() < MAX_PRINTED {
            match format[i] {
                b'\\' => {
                    let (_, n) = escape(&format[i..], &mut out, true);
                    i += n;
                }
                b'%' if format.get(i + 1) == Some(&b'%') => {
                    out.push(b'%');
                    i += 2;
                }
                b'%' => {
                    let mut j = i + 1;
                    while format
                        .get(j)
                        .is_some_and(|c| b"-+ #0123456789.*'".contains(c))
                    {
                        j += 1;
                    }
                    // (A `*` width or precision takes an argument of its own.)
                    next += format[i + 1..j].iter().filter(|&&c| c == b'*').count();
                    let arg = args.get(next).map(Vec::as_slice).unwrap_or_default();
                    next += 1;
                    match format.get(j) {
                        Some(b'b') => {
                            if decode_into(arg, &mut out) {
                                return out;
                            }
                        }
                        Some(b'c') => out.extend(arg.first()),
                        _ => out.extend_from_slice(arg),
                    }
                    i = j + 1;
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        if next >= args.len() || next == before || out.len() >= MAX_PRINTED {
            return out;
        }
    }
}

/// What `echo -e WORDS…` (zsh's `echo` and `print` alike) prints: the words joined by
/// spaces, their escapes decoded (options as words: a rough reading of what is shown).
pub(super) fn echo(words: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, w) in words.iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        if decode_into(w, &mut out) || out.len() >= MAX_PRINTED {
            break;
        }
    }
    out
}

/// Decodes the escapes of `text` into `out`; whether a `\c` ended the output.
fn decode_into(text: &[u8], out: &mut Vec<u8>) -> bool {
    let mut i = 0;
    while i < text.len() && out.len() < MAX_PRINTED {
        if text[i] == b'\\' {
            let (stop, n) = escape(&text[i..], out, false);
            if stop {
                return true;
            }
            i += n;
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    false
}

/// The escape at the start of `t` (a `\` first): its bytes pushed to `out`; whether it is
/// `\c` (no more output), and how many bytes of `t` it took. In `printf`'s format
/// (`format`), `\c` is itself and an octal escape is `\` and up to three digits (`\0101`
/// is a backspace and a `1`); elsewhere (`%b`, `echo -e`) `\c` ends the output and `\0`
/// takes three digits after it.
fn escape(t: &[u8], out: &mut Vec<u8>, format: bool) -> (bool, usize) {
    let digits = |from: usize, max: usize, radix: u32| {
        let mut v: u32 = 0;
        let mut n = 0;
        while n < max
            && let Some(d) = t.get(from + n).and_then(|&c| char::from(c).to_digit(radix))
        {
            v = v.saturating_mul(radix).saturating_add(d);
            n += 1;
        }
        (v, n)
    };
    let Some(&c) = t.get(1) else {
        out.push(b'\\');
        return (false, 1);
    };
    let simple = match c {
        b'a' => Some(7),
        b'b' => Some(8),
        b'e' | b'E' => Some(27),
        b'f' => Some(12),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'v' => Some(11),
        b'\\' => Some(b'\\'),
        b'"' => Some(b'"'),
        b'\'' => Some(b'\''),
        _ => None,
    };
    if let Some(b) = simple {
        out.push(b);
        return (false, 2);
    }
    match c {
        b'c' if format => {
            out.extend_from_slice(b"\\c");
            (false, 2)
        }
        b'c' => (true, 2),
        b'x' => match digits(2, 2, 16) {
            (_, 0) => {
                out.extend_from_slice(b"\\x");
                (false, 2)
            }
            (v, n) => {
                out.push(v as u8);
                (false, 2 + n)
            }
        },
        b'u' | b'U' => {
            let (v, n) = digits(2, if c == b'u' { 4 } else { 8 }, 16);
            match char::from_u32(v).filter(|_| n > 0) {
                Some(ch) => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    (false, 2 + n)
                }
                None => {
                    out.push(b'\\');
                    (false, 1)
                }
            }
        }
        // `\0NNN` (echo's) and `\NNN` (printf's): octal.
        b'0'..=b'7' => {
            let from = if c == b'0' && !format { 2 } else { 1 };
            let (v, n) = digits(from, 3, 8);
            out.push((v & 0xff) as u8);
            (false, from + n)
        }
        _ => {
            out.push(b'\\');
            out.push(c);
            (false, 2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(ws: &[&str]) -> Vec<Vec<u8>> {
        ws.iter().map(|w| w.as_bytes().to_vec()).collect()
    }

    #[test]
    fn printf_applies_its_format_and_decodes_escapes_as_bash_prints_them() {
        // (Each expected text is what bash 5.2's printf prints for these words, checked with
        // the pinned shell.)
        for (args, printed) in [
            (
                &["rm -f ~/.claude/%s.json", "settings"][..],
                "rm -f ~/.claude/settings.json",
            ),
            (&["settings\\x2ejson"], "settings.json"),
            (&["settings\\056json"], "settings.json"),
            (&["%s\\n", "a", "b"], "a\nb\n"),
            (
                &["{\"%s\": %s}", "disableAllHooks", "true"],
                "{\"disableAllHooks\": true}",
            ),
            (&["%b", "H\\157\\157ks"], "Hooks"),
            (&["100%% done"], "100% done"),
            (&["-v", "x", "%s", "y"], "y"),
            (&["a\\cb"], "a\\cb"),
            (&["%b|", "a\\cb"], "a"),
            (&["\\0101"], "\u{8}1"),
            (&["%b", "\\0101"], "A"),
            (&["\\u006f"], "o"),
            (
                &["%*s -f ~/.claude/%s.json", "0", "rm", "settings"],
                "rm -f ~/.claude/settings.json",
            ),
        ] {
            assert_eq!(
                String::from_utf8_lossy(&printf(&words(args))),
                printed,
                "printf {args:?}"
            );
        }
    }

    #[test]
    fn echo_decodes_escapes_as_zsh_s_echo_and_print_do() {
        assert_eq!(echo(&words(&["rm", "x\\x2ejson"])), b"rm x.json");
        assert_eq!(echo(&words(&["H\\0157\\0157ks"])), b"Hooks");
        assert_eq!(echo(&words(&["a\\c", "b"])), b"a");
    }
}
