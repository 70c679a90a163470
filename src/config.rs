//! `heredoc-guard config claude|codex`: ready-to-paste hook settings that run the binary by
//! absolute path inside a fail-closed `sh` launcher. Both agents run the command when a
//! hook is missing, crashes or exits with a status other than 0 or 2; the launcher turns
//! every such status into exit 2 with a message on stderr.

use serde_json::{Value, json};

/// Seconds the agent waits for the hook.
pub const HOOK_TIMEOUT_SECS: u64 = 30;

/// The Claude Code matcher: every Claude tool that runs shell text (a plain list of names,
/// which Claude matches exactly).
pub const CLAUDE_MATCHER: &str = "Bash|Monitor|mcp__workspace__bash";

/// The Codex matcher: every shell tool arrives as `Bash`; `apply_patch` is allowed unread.
/// Anchored, since Codex reads anything but a plain list as an unanchored regex.
pub const CODEX_MATCHER: &str = "^(Bash|apply_patch)$";

/// How a Claude Code hook entry runs the guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaudeForm {
    /// `"command": "<abs path>", "args": []`: no shell (Claude Code 2.1.295 and later).
    Exec,
    /// The `sh` launcher line, for versions without the exec form.
    Launcher,
}

/// The Claude Code hook handler for `binary`, always with `"onFailure": "block"`.
pub fn claude_handler(binary: &str, form: ClaudeForm) -> Value {
    match form {
        ClaudeForm::Exec => json!({
            "type": "command",
            "command": binary,
            "args": [],
            "timeout": HOOK_TIMEOUT_SECS,
            "onFailure": "block"
        }),
        ClaudeForm::Launcher => json!({
            "type": "command",
            "command": launcher(binary),
            "timeout": HOOK_TIMEOUT_SECS,
            "onFailure": "block"
        }),
    }
}

/// The Codex hook handler for `binary`: the launcher (Codex has no `onFailure`).
pub fn codex_handler(binary: &str) -> Value {
    json!({
        "type": "command",
        "command": launcher(binary),
        "timeout": HOOK_TIMEOUT_SECS
    })
}

/// A matcher group holding one handler.
pub fn group(matcher: &str, handler: Value) -> Value {
    json!({"matcher": matcher, "hooks": [handler]})
}

/// The launcher line without its final argument (the quoted binary path).
fn launcher_prefix() -> String {
    let full = launcher("");
    full.strip_suffix("''").unwrap_or(&full).to_owned()
}

/// The binary a launcher line runs, when `command` is exactly a launcher line (as printed
/// by [`launcher`], with any binary path or a bare name).
pub fn launcher_binary(command: &str) -> Option<String> {
    let rest = command.strip_prefix(&launcher_prefix())?;
    let word = sh_unquote_word(rest)?;
    (!word.is_empty()).then_some(word)
}

/// Reads one POSIX sh word made of single-quoted parts, backslash escapes and plain
/// characters; `None` for anything else (spaces, expansions, trailing text).
fn sh_unquote_word(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    other => out.push(other),
                }
            },
            '\\' => out.push(chars.next()?),
            c if c.is_alphanumeric() || "/._-+,:@%".contains(c) => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

/// Quotes a string for POSIX sh with single quotes.
pub fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The launcher line: runs `binary`, passes 0 and 2 through, turns anything else into 2.
pub fn launcher(binary: &str) -> String {
    format!(
        "sh -c '\"$0\"; rc=$?; if [ \"$rc\" -eq 0 ] || [ \"$rc\" -eq 2 ]; then exit \"$rc\"; fi; echo \"heredoc-guard: the guard failed (exit status $rc); denying the command\" >&2; exit 2' {}",
        sh_quote(binary)
    )
}

fn toml_basic_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The Claude Code `settings.json` fragment (launcher form: right for every version).
pub fn claude(binary: &str) -> String {
    let v = json!({
        "hooks": {
            "PreToolUse": [group(CLAUDE_MATCHER, claude_handler(binary, ClaudeForm::Launcher))]
        }
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// The Codex `hooks.json` fragment and the equivalent `config.toml` tables.
pub fn codex(binary: &str) -> String {
    let v = json!({
        "hooks": {"PreToolUse": [group(CODEX_MATCHER, codex_handler(binary))]}
    });
    let json_form = serde_json::to_string_pretty(&v).unwrap_or_default();
    format!(
        "# ~/.codex/hooks.json\n{json_form}\n\n# or, the same in ~/.codex/config.toml\n[[hooks.PreToolUse]]\nmatcher = {}\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\ntimeout = {HOOK_TIMEOUT_SECS}\n\n# Codex runs a new hook only once it is trusted: `heredoc-guard install codex` does all of this.\n",
        toml_basic_string(CODEX_MATCHER),
        toml_basic_string(&launcher(binary))
    )
}

#[cfg(test)]
mod tests {
    use super::{launcher, launcher_binary};

    #[test]
    fn launcher_binary_reads_back_every_path_the_launcher_quotes() {
        for path in [
            "/usr/bin/heredoc-guard",
            "/tmp/it's a dir/heredoc-guard",
            "heredoc-guard",
        ] {
            assert_eq!(launcher_binary(&launcher(path)).as_deref(), Some(path));
        }
    }

    #[test]
    fn launcher_binary_refuses_other_commands_and_trailing_text() {
        assert_eq!(launcher_binary("/usr/bin/heredoc-guard"), None);
        assert_eq!(
            launcher_binary(&format!("{} ; rm -rf x", launcher("/g"))),
            None
        );
        assert_eq!(launcher_binary(&format!("{}$(x)", launcher("/g"))), None);
    }
}
