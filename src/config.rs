//! `heredoc-guard config claude|codex`: ready-to-paste hook settings that run the binary by
//! absolute path inside a fail-closed `sh` launcher. Both agents run the command when a
//! hook is missing, crashes or exits with a status other than 0 or 2; the launcher turns
//! every such status into exit 2 with a message on stderr.

use serde_json::json;

/// Seconds the agent waits for the hook.
pub const HOOK_TIMEOUT_SECS: u64 = 30;

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

/// The Claude Code `settings.json` fragment.
pub fn claude(binary: &str) -> String {
    let v = json!({
        "hooks": {
            "PreToolUse": [{
                "matcher": "Bash",
                "hooks": [{
                    "type": "command",
                    "command": launcher(binary),
                    "timeout": HOOK_TIMEOUT_SECS,
                    "onFailure": "block"
                }]
            }]
        }
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// The Codex `hooks.json` fragment and the equivalent `config.toml` tables.
pub fn codex(binary: &str) -> String {
    let v = json!({
        "hooks": {
            "PreToolUse": [{
                "matcher": "^(Bash|apply_patch)$",
                "hooks": [{
                    "type": "command",
                    "command": launcher(binary),
                    "timeout": HOOK_TIMEOUT_SECS
                }]
            }]
        }
    });
    let json_form = serde_json::to_string_pretty(&v).unwrap_or_default();
    format!(
        "# ~/.codex/hooks.json\n{json_form}\n\n# or, the same in ~/.codex/config.toml\n[[hooks.PreToolUse]]\nmatcher = \"^(Bash|apply_patch)$\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\ntimeout = {HOOK_TIMEOUT_SECS}\n\n# Codex asks you to review and trust a new hook once before it runs it.\n",
        toml_basic_string(&launcher(binary))
    )
}
