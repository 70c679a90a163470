//! Aliases a command defines for itself, followed as bash follows them: `alias name=value`
//! with a literal value takes effect once the input unit holding it has run, and from then
//! on, with alias expansion on (Claude Code's shell turns `expand_aliases` on), a word in
//! command position that names it is replaced by the value (`alias_expand_token`).
//!
//! Only literal definitions are followed; the effects model (`effects.rs`) judges every
//! other way to define an alias as a change it does not follow.

use super::lexer::{R, Reader};
use super::syntax::PST_ALEXPNEXT;
use super::text::Text;
use super::tree::Event;
use super::word::{self, WordInfo};

/// The aliases defined so far, by name (a later definition replaces an earlier one).
#[derive(Clone, Debug, Default)]
pub struct Aliases {
    // (Shared: each literal `eval` or `trap` text is read with the table as it stands,
    // and a script may hold thousands of them; copied only where one defines an alias.)
    defs: std::rc::Rc<std::collections::HashMap<Vec<u8>, Vec<u8>>>,
}

impl Aliases {
    pub fn get(&self, name: &[u8]) -> Option<&[u8]> {
        self.defs.get(name).map(Vec::as_slice)
    }

    fn set(&mut self, name: Vec<u8>, value: Vec<u8>) {
        std::rc::Rc::make_mut(&mut self.defs).insert(name, value);
    }

    fn remove(&mut self, name: &[u8]) {
        std::rc::Rc::make_mut(&mut self.defs).remove(name);
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }
}

/// What an `alias` or `unalias` command does, read from its words.
#[derive(Debug, PartialEq, Eq)]
pub enum AliasCommand {
    /// Not `alias` or `unalias`.
    None,
    /// Literal definitions, each one the reader follows.
    Define(Vec<(Vec<u8>, Vec<u8>)>),
    /// `unalias` of these names (`-a`: all).
    Remove(Vec<Vec<u8>>, bool),
    /// A definition the reader does not follow (a value or name that is not literal, a
    /// value with a newline or an open quote); the first such word's offset.
    Unfollowed(u32),
}

/// A name bash accepts for an alias (`legal_alias_name`).
fn legal_name(name: &[u8]) -> bool {
    !name.is_empty()
        && !name.iter().any(|&c| {
            matches!(c, b'/' | b'$' | b'`' | b'=' | b'\'' | b'"' | b'\\')
                || super::syntax::shellblank(c)
                || super::syntax::shellmeta(c)
                || c == b'\n'
        })
}

/// A value the reader follows: one line, quotes closed, no backslash at its end.
fn followable(value: &[u8]) -> bool {
    if value.contains(&b'\n') {
        return false;
    }
    let mut quote = 0u8;
    let mut i = 0;
    while i < value.len() {
        let c = value[i];
        match (quote, c) {
            (0, b'\\') | (b'"', b'\\') => {
                if i + 1 == value.len() {
                    return false;
                }
                i += 1;
            }
            (0, b'\'' | b'"') => quote = c,
            (q, _) if q != 0 && c == q => quote = 0,
            _ => {}
        }
        i += 1;
    }
    quote == 0
}

/// Words that may stand before `alias` or `unalias` and still run it: `builtin`,
/// `command` (with `-p` and `--`), `exec`, and zsh's precommand modifiers
/// ([`super::syntax::ZSH_PRECOMMANDS`]: zsh runs `noglob alias p=…` as the builtin). Read
/// in every dialect: where a shell would not run the builtin, taking the alias as defined
/// only adds denials.
/// The names a command that is `alias` or `unalias` may start with.
const ALIAS_LEADS: &[&[u8]] = &[
    b"alias",
    b"unalias",
    b"builtin",
    b"command",
    b"-p",
    b"--",
    b"exec",
    b"noglob",
    b"nocorrect",
    b"-",
];

fn leads_alias(word: &[u8]) -> bool {
    matches!(word, b"builtin" | b"command" | b"-p" | b"--" | b"exec")
        || super::syntax::ZSH_PRECOMMANDS.contains(&word)
}

/// Reads an `alias`/`unalias` command from its words (assignments first, then the name,
/// after `builtin` and `command` and their options).
pub fn command(words: &[WordInfo]) -> AliasCommand {
    let mut i = words
        .iter()
        .take_while(|w| {
            w.value()
                .is_some_and(|v| super::syntax::assignment(&v, false).is_some())
        })
        .count();
    let mut name = None;
    while let Some(w) = words.get(i) {
        let Some(v) = w.value() else {
            return AliasCommand::None;
        };
        match v.as_slice() {
            w if name.is_none() && leads_alias(w) => i += 1,
            b"alias" | b"unalias" => {
                name = Some(v);
                i += 1;
                break;
            }
            _ => return AliasCommand::None,
        }
    }
    let Some(name) = name else {
        return AliasCommand::None;
    };
    let args = words.get(i..).unwrap_or(&[]);
    if name == b"unalias" {
        let mut all = false;
        let mut names = Vec::new();
        for w in args {
            match w.value() {
                Some(v) if v == b"-a" => all = true,
                Some(v) => names.push(v),
                None => return AliasCommand::Remove(Vec::new(), true),
            }
        }
        return AliasCommand::Remove(names, all);
    }
    let mut defs = Vec::new();
    let mut options = true;
    for w in args {
        let Some(v) = w.value() else {
            return AliasCommand::Unfollowed(w.start);
        };
        if options && v.first() == Some(&b'-') && !v.contains(&b'=') {
            if v == b"--" {
                options = false;
            }
            continue;
        }
        options = false;
        let Some(eq) = v.iter().position(|&c| c == b'=') else {
            continue;
        };
        let (n, value) = (&v[..eq], &v[eq + 1..]);
        if !legal_name(n) {
            continue;
        }
        if !followable(value) {
            return AliasCommand::Unfollowed(w.start);
        }
        defs.push((n.to_vec(), value.to_vec()));
    }
    AliasCommand::Define(defs)
}

impl Reader<'_, '_> {
    /// After an input unit of the top-level program has been read (bash runs it now):
    /// the aliases it defines take effect for the units after it.
    pub fn unit_done(&mut self, mark: usize) {
        if self.base_depth != 0 {
            return;
        }
        let events = self.out.events.get(mark..).unwrap_or(&[]);
        let mut depth = 0usize;
        let mut changes: Vec<AliasCommand> = Vec::new();
        for e in events {
            match e {
                Event::SubstOpen(_) => depth += 1,
                Event::SubstClose(..) => depth = depth.saturating_sub(1),
                Event::Simple(c) if depth == 0 => {
                    // Its words are read again (work), as few as tell whether it is an
                    // `alias` or `unalias` command ([`command`] reads the same leading
                    // words), then all of them when it is. Past the limit the reading
                    // ends at its next step; nothing more is looked at here.
                    let mut words: Vec<WordInfo> = Vec::new();
                    let mut named = false;
                    let mut leading = true;
                    for w in &c.words {
                        // A word that cannot be an assignment or one of the names that
                        // lead to `alias` ends the look without being read.
                        let raw = w.text.bytes();
                        if !named
                            && !raw.contains(&b'=')
                            && !super::syntax::may_be_one_of(raw, ALIAS_LEADS)
                        {
                            break;
                        }
                        let (info, work) = word::read_counted(&w.text, &());
                        if !self.out.work.charge(work) {
                            return;
                        }
                        let v = if named { None } else { info.value() };
                        words.push(info);
                        if named {
                            continue;
                        }
                        match v.as_deref() {
                            Some(v) if leading && super::syntax::assignment(v, false).is_some() => {
                            }
                            Some(w) if leads_alias(w) => leading = false,
                            Some(b"alias" | b"unalias") => named = true,
                            _ => break,
                        }
                    }
                    if !named {
                        continue;
                    }
                    match command(&words) {
                        AliasCommand::None => {}
                        other => changes.push(other),
                    }
                }
                _ => {}
            }
        }
        self.out.events.push(Event::Unit);
        if changes.is_empty() {
            return;
        }
        self.out.features.alias_def = true;
        if let Some(table) = self.out.aliases.as_mut() {
            for change in changes {
                match change {
                    AliasCommand::Define(defs) => {
                        for (n, v) in defs {
                            table.set(n, v);
                        }
                    }
                    AliasCommand::Remove(names, all) => {
                        if all {
                            *table = Aliases::default();
                        }
                        for n in names {
                            table.remove(&n);
                        }
                    }
                    AliasCommand::None | AliasCommand::Unfollowed(_) => {}
                }
            }
        }
    }

    /// `alias_expand_token`: a word in command position (or after an alias whose value
    /// ends in a blank) that names an alias not being expanded is replaced by its value.
    /// True when the value was pushed (the token is read again).
    pub fn alias_expand(&mut self, word: &[u8], quoted: bool) -> R<bool> {
        if self.input.take_alias_expand_next() {
            self.parser_state |= PST_ALEXPNEXT;
        }
        let Some(table) = self.out.aliases.as_ref() else {
            return Ok(false);
        };
        if quoted {
            return Ok(false);
        }
        let eligible = self.parser_state & PST_ALEXPNEXT != 0
            || self.assignment_acceptable(self.last_read_token);
        let value = match table.get(word) {
            Some(v) if eligible && !self.input.alias_in_use(word) => v.to_vec(),
            _ => {
                self.parser_state &= !PST_ALEXPNEXT;
                return Ok(false);
            }
        };
        self.spend(value.len().div_ceil(super::BYTES_PER_WORK) + 1)?;
        let origin = self.word.start;
        self.input
            .push_alias(word.to_vec(), Text::pinned(value, origin), origin);
        self.out.features.alias_used = true;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of a command, separated by `|`.
    fn cmd(s: &str) -> AliasCommand {
        let words: Vec<WordInfo> = s
            .split('|')
            .map(|w| word::read(&Text::command(w.as_bytes()), &()))
            .collect();
        command(&words)
    }

    #[test]
    fn literal_definitions_are_read_however_the_name_is_spelled() {
        let want = AliasCommand::Define(vec![(b"ll".to_vec(), b"ls -la".to_vec())]);
        assert_eq!(cmd("alias|ll='ls -la'"), want);
        assert_eq!(cmd(r"\alias|ll=ls\ -la"), want);
        assert_eq!(cmd(r#"command|-p|alias|ll="ls -la""#), want);
        assert_eq!(cmd("builtin|--|alias|ll='ls -la'"), want);
        assert_eq!(cmd(r"$'\x61lias'|ll=ls\ -la"), want);
        assert_eq!(cmd(r"alias|--|ll=$'ls\x20-la'"), want);
        assert_eq!(cmd("al'i'as|ll='ls -la'"), want);
    }

    #[test]
    fn values_that_are_not_literal_or_not_one_line_are_not_followed() {
        assert!(matches!(cmd("alias|c=$x"), AliasCommand::Unfollowed(_)));
        assert!(matches!(
            cmd(r"alias|c=$'cat\n<<E'"),
            AliasCommand::Unfollowed(_)
        ));
        assert!(matches!(
            cmd(r#"alias|c='echo "'"#),
            AliasCommand::Unfollowed(_)
        ));
        assert_eq!(cmd("echo|alias|c=x"), AliasCommand::None);
        assert_eq!(cmd("alias"), AliasCommand::Define(vec![]));
    }
}
