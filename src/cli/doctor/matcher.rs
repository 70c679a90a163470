//! Does a hook's matcher cover a tool name? Each client reads matchers its own way: a value
//! of only letters, digits, `_` and `|` is a list of exact names in Claude Code and Codex;
//! empty, absent or `*` matches every tool; anything else is a regex, unanchored in Codex.
//! For Claude Code (and Copilot CLI's Claude-style hooks) the regex is taken as anchored to
//! the whole name, the stricter reading, so that doctor never claims coverage that a looser
//! reading would be needed for. Gemini CLI tests every matcher as an unanchored regex
//! (`new RegExp(m).test(name)`), and one that is not a regex as the exact name.

use regex::Regex;

/// Which client reads the matcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    Claude,
    Codex,
    Gemini,
}

/// True when `matcher` sends `tool` to the hook. An invalid regex covers nothing.
pub fn covers(client: Client, matcher: Option<&str>, tool: &str) -> bool {
    let m = matcher.unwrap_or("");
    if m.is_empty() || m == "*" {
        return true;
    }
    if client == Client::Gemini {
        return Regex::new(m).map_or(m == tool, |re| re.is_match(tool));
    }
    if m.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
    {
        return m.split('|').any(|name| name == tool);
    }
    let pattern = match client {
        Client::Claude => format!("^(?:{m})$"),
        Client::Codex | Client::Gemini => m.to_owned(),
    };
    Regex::new(&pattern).is_ok_and(|re| re.is_match(tool))
}

#[cfg(test)]
mod tests {
    use super::{Client, covers};

    #[test]
    fn lists_match_exactly_and_regexes_follow_each_client() {
        assert!(covers(Client::Claude, Some("Bash|Monitor"), "Monitor"));
        assert!(!covers(Client::Claude, Some("Bash"), "Monitor"));
        assert!(!covers(Client::Claude, Some("Bash"), "BashX"));
        assert!(covers(Client::Claude, None, "Monitor"));
        assert!(covers(Client::Claude, Some("*"), "Bash"));
        assert!(covers(
            Client::Claude,
            Some("mcp__.*"),
            "mcp__workspace__bash"
        ));
        assert!(!covers(Client::Claude, Some("Bas.?"), "xBash"));
        assert!(covers(Client::Codex, Some("^(Bash|apply_patch)$"), "Bash"));
        assert!(covers(Client::Codex, Some("as.?"), "Bash"));
        assert!(!covers(Client::Codex, Some("^apply_patch$"), "Bash"));
        assert!(!covers(Client::Codex, Some("(("), "Bash"));
        assert!(covers(
            Client::Gemini,
            Some("^run_shell_command$"),
            "run_shell_command"
        ));
        assert!(covers(Client::Gemini, Some("shell"), "run_shell_command"));
        assert!(!covers(
            Client::Gemini,
            Some("^shell$"),
            "run_shell_command"
        ));
    }
}
