//! Reading a heredoc delimiter word as bash does: quoted or not, and the closing line it
//! waits for.
//!
//! Bash's rule: if any part of the word is quoted (`'…'`, `"…"`, or a backslash), the body
//! is inert data; backquotes are not quoting. `$'…'` and `$"…"` are refused outright:
//! bash closes on the decoded word, which parsers get wrong.

/// How a delimiter word is quoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quoting {
    /// No quoting: the body is expanded like a double-quoted string.
    Unquoted,
    /// Some quoting: the body is data.
    Quoted,
    /// `$'…'` or `$"…"` somewhere in the word.
    AnsiC,
}

/// A delimiter as written and as bash reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delimiter {
    /// The word as written after `<<`, quotes included.
    pub written: String,
    /// The closing line bash waits for (quote removal applied).
    pub closing: String,
    /// How it is quoted.
    pub quoting: Quoting,
}

impl Delimiter {
    /// Classifies a delimiter word as written after `<<` / `<<-`.
    pub fn read(written: &str) -> Delimiter {
        let quoting = if written.contains("$'") || written.contains("$\"") {
            Quoting::AnsiC
        } else if written.contains(['\'', '"', '\\']) {
            Quoting::Quoted
        } else {
            Quoting::Unquoted
        };
        Delimiter {
            written: written.to_owned(),
            closing: remove_quotes(written),
            quoting,
        }
    }
}

/// Shell quote removal on a delimiter word (single, double quotes and backslashes).
fn remove_quotes(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    out.push(q);
                }
            }
            '"' => {
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => match chars.peek() {
                            Some(&n) if matches!(n, '$' | '`' | '"' | '\\') => {
                                out.push(n);
                                chars.next();
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => out.push('\\'),
                        },
                        _ => out.push(q),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(n) => out.push(n),
            },
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_quoting_form_counts_as_quoted() {
        for w in [
            "'EOF'", "\"EOF\"", "\\EOF", "E\"OF\"", "EO\\F", "EOF\"\"", "'E'OF",
        ] {
            let d = Delimiter::read(w);
            assert_eq!(d.quoting, Quoting::Quoted, "{w}");
            assert_eq!(d.closing, "EOF", "{w}");
        }
    }

    #[test]
    fn backquotes_and_dollar_words_are_unquoted() {
        assert_eq!(Delimiter::read("`EOF`").quoting, Quoting::Unquoted);
        let d = Delimiter::read("$EOF");
        assert_eq!(d.quoting, Quoting::Unquoted);
        assert_eq!(d.closing, "$EOF");
    }

    #[test]
    fn ansi_c_and_locale_quoting_is_its_own_class() {
        assert_eq!(Delimiter::read("$'EOF'").quoting, Quoting::AnsiC);
        assert_eq!(Delimiter::read("$\"EOF\"").quoting, Quoting::AnsiC);
        assert_eq!(Delimiter::read("E$'OF'").quoting, Quoting::AnsiC);
    }
}
