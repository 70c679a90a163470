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
