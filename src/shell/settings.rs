//! Commands that change how bash reads the lines after them: alias definitions (an alias
//! value can hold `<<` or a whole heredoc the text does not show), and the options that
//! turn alias expansion, POSIX mode, history expansion or an older bash's parsing on.
//! Read from a simple command's words after quote removal; names built at run time
//! (`$cmd -s expand_aliases`, `eval`) are not seen.

use super::Setting;

/// The setting a simple command (its words, quotes removed) changes, if any.
pub fn setting(words: &[Vec<u8>]) -> Option<Setting> {
    // Skip assignments before the command name; some of them are settings themselves.
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let Some(eq) = w.iter().position(|&c| c == b'=') else {
            break;
        };
        if !super::lexer::legal_identifier(&w[..eq]) {
            break;
        }
        if let Some(s) = variable_setting(&w[..eq]) {
            return Some(s);
        }
        i += 1;
    }
    let mut rest = words.get(i..).unwrap_or(&[]);
    while let Some((first, tail)) = rest.split_first() {
        if matches!(first.as_slice(), b"builtin" | b"command") {
            rest = tail;
        } else {
            break;
        }
    }
    let (name, args) = rest.split_first()?;
    match name.as_slice() {
        b"alias" => args
            .iter()
            .any(|a| a.contains(&b'='))
            .then_some(Setting::AliasDefinition),
        b"shopt" => {
            let setting = args
                .iter()
                .any(|a| a.starts_with(b"-") && a.contains(&b's'));
            if !setting {
                return None;
            }
            args.iter().find_map(|a| match a.as_slice() {
                b"expand_aliases" | b"posix" => Some(Setting::AliasExpansion),
                b"extglob" => Some(Setting::Extglob),
                a if a.starts_with(b"compat") => Some(Setting::Compat),
                b"histexpand" | b"history" => Some(Setting::HistoryExpansion),
                _ => None,
            })
        }
        b"set" => {
            let mut it = args.iter().peekable();
            while let Some(a) = it.next() {
                if (a.starts_with(b"-") || a.starts_with(b"+"))
                    && a.contains(&b'o')
                    && let Some(v) = it.peek()
                {
                    match v.as_slice() {
                        b"posix" => return Some(Setting::AliasExpansion),
                        b"histexpand" | b"history" => return Some(Setting::HistoryExpansion),
                        _ => {}
                    }
                }
                if a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b'H') {
                    return Some(Setting::HistoryExpansion);
                }
            }
            None
        }
        b"export" | b"declare" | b"typeset" | b"readonly" | b"local" => args.iter().find_map(|a| {
            let name = a.split(|&c| c == b'=').next().unwrap_or(a);
            variable_setting(name)
        }),
        _ => None,
    }
}

/// The variables that change how bash reads: set through any route (an assignment, `${v:=…}`,
/// `for v in`, `read v`, `printf -v v`, `declare -n`), they switch POSIX mode (and with it
/// alias expansion), define aliases (`BASH_ALIASES[name]=…`) or an older bash's parsing.
const READING_VARIABLES: [(&[u8], Setting); 5] = [
    (b"POSIXLY_CORRECT", Setting::AliasExpansion),
    (b"BASH_ALIASES", Setting::AliasDefinition),
    (b"BASH_COMPAT", Setting::Compat),
    (b"BASHOPTS", Setting::AliasExpansion),
    (b"SHELLOPTS", Setting::AliasExpansion),
];

/// Where the command names one of [`READING_VARIABLES`] anywhere in its text, also with
/// quotes, backslashes or backslash-newlines between the letters: the setting and the
/// offset of the name's first letter. Found in the text, not the grammar, since every
/// route that sets one of them counts.
pub fn mentioned(bytes: &[u8]) -> Option<(Setting, u32)> {
    let mut i = 0;
    while let Some(pos) = memchr::memchr3(b'P', b'B', b'S', &bytes[i..]) {
        let start = i + pos;
        for (name, setting) in READING_VARIABLES {
            if spelled_at(bytes, start, name) {
                return Some((setting, start as u32));
            }
        }
        i = start + 1;
    }
    None
}

/// Whether `name` is spelled from `start`, with quotes and backslashes (and
/// backslash-newlines) allowed between its letters.
fn spelled_at(bytes: &[u8], start: usize, name: &[u8]) -> bool {
    let mut j = start;
    let mut matched = 0;
    while matched < name.len() {
        match bytes.get(j) {
            Some(&c) if c == name[matched] => {
                matched += 1;
                j += 1;
            }
            Some(b'\'' | b'"' | b'\\' | b'\n') if matched > 0 => j += 1,
            _ => return false,
        }
    }
    true
}

fn variable_setting(name: &[u8]) -> Option<Setting> {
    match name {
        b"POSIXLY_CORRECT" => Some(Setting::AliasExpansion),
        b"BASH_COMPAT" => Some(Setting::Compat),
        b"BASHOPTS" | b"SHELLOPTS" => Some(Setting::AliasExpansion),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Vec<u8>> {
        s.split(' ').map(|w| w.as_bytes().to_vec()).collect()
    }

    #[test]
    fn alias_definitions_and_reading_options_are_recognised() {
        assert_eq!(
            setting(&words("alias c=cat")),
            Some(Setting::AliasDefinition)
        );
        assert_eq!(
            setting(&words("builtin alias c=cat")),
            Some(Setting::AliasDefinition)
        );
        assert_eq!(setting(&words("alias")), None);
        assert_eq!(
            setting(&words("shopt -s expand_aliases")),
            Some(Setting::AliasExpansion)
        );
        assert_eq!(setting(&words("shopt -s extglob")), Some(Setting::Extglob));
        assert_eq!(
            setting(&words("set -o posix")),
            Some(Setting::AliasExpansion)
        );
        assert_eq!(setting(&words("set -eH")), Some(Setting::HistoryExpansion));
        assert_eq!(
            setting(&words("POSIXLY_CORRECT=1 true")),
            Some(Setting::AliasExpansion)
        );
        assert_eq!(
            setting(&words("export BASH_COMPAT=50")),
            Some(Setting::Compat)
        );
        assert_eq!(setting(&words("echo alias x=y")), None);
    }
}
