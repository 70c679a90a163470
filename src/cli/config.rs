//! `heredoc-guard config claude|codex|gemini|copilot`: ready-to-paste hook settings that run
//! the binary by absolute path inside a fail-closed `sh` launcher. Claude Code and Codex
//! run the command when a hook is missing, crashes or exits with a status other than 0 or
//! 2; their launcher turns every such status into exit 2 with a message on stderr. Gemini
//! CLI runs it when a hook prints nothing (whatever its exit status: 1, a signal, a
//! timeout), and reads only JSON on stdout as a deny; Copilot CLI blocks a failed hook but
//! does not tell the model why. Their launcher ([`json_launcher`]) runs the binary with
//! `--agent gemini|copilot`, passes an allow (exit 0) as silence and a deny in the client's
//! form as it is, and turns everything else into that client's deny JSON, exit 0.

use serde_json::{Value, json};

/// Seconds the agent waits for the hook.
pub const HOOK_TIMEOUT_SECS: u64 = 30;

/// The Claude Code matcher: every Claude tool that runs shell text (a plain list of names,
/// which Claude matches exactly).
pub const CLAUDE_MATCHER: &str = "Bash|Monitor|mcp__workspace__bash";

/// The Codex matcher: every shell tool arrives as `Bash`; `apply_patch` is allowed unread.
/// Anchored, since Codex reads anything but a plain list as an unanchored regex.
pub const CODEX_MATCHER: &str = "^(Bash|apply_patch)$";

/// The Claude Code hook handler for `binary` (an absolute path, or `heredoc-guard` to run
/// it from PATH): the launcher, with `"onFailure": "block"` for a guard that times out.
pub fn claude_handler(binary: &str) -> Value {
    json!({
        "type": "command",
        "command": launcher(binary),
        "timeout": HOOK_TIMEOUT_SECS,
        "onFailure": "block"
    })
}

/// The Codex hook handler for `binary`: the launcher (Codex has no `onFailure`).
pub fn codex_handler(binary: &str) -> Value {
    json!({
        "type": "command",
        "command": launcher(binary),
        "timeout": HOOK_TIMEOUT_SECS
    })
}

/// The Gemini CLI matcher: a regex on the tool name (anchored here).
pub const GEMINI_MATCHER: &str = "^run_shell_command$";

/// Milliseconds Gemini CLI waits for the hook (its `timeout` is in ms); past it, Gemini
/// runs the command. The guard ends itself after [`crate::hook::BACKSTOP_SECONDS`].
pub const GEMINI_TIMEOUT_MS: u64 = HOOK_TIMEOUT_SECS * 1000;

/// The Gemini CLI hook handler for `binary`: the JSON launcher for Gemini's form.
pub fn gemini_handler(binary: &str) -> Value {
    json!({
        "type": "command",
        "command": json_launcher(Client::Gemini, binary),
        "timeout": GEMINI_TIMEOUT_MS
    })
}

/// The Copilot CLI hook file (`$COPILOT_HOME/hooks/heredoc-guard.json`) for `binary`: its
/// own `preToolUse` form (every tool; the guard allows all but `bash` unread), the JSON
/// launcher for Copilot's form.
pub fn copilot_hooks_file(binary: &str) -> Value {
    json!({
        "version": 1,
        "hooks": {
            "preToolUse": [copilot_handler(binary)]
        }
    })
}

/// The Copilot CLI `preToolUse` handler for `binary`.
pub fn copilot_handler(binary: &str) -> Value {
    json!({
        "type": "command",
        "bash": json_launcher(Client::Copilot, binary),
        "timeoutSec": HOOK_TIMEOUT_SECS
    })
}

/// A matcher group holding one handler.
pub fn group(matcher: &str, handler: Value) -> Value {
    json!({"matcher": matcher, "hooks": [handler]})
}

/// The launcher lines this and earlier releases wrote, without their final argument (the
/// quoted binary path), with the client each is for: the current exit-status launcher
/// first.
fn launcher_prefixes() -> [(Client, String); 5] {
    let strip = |full: String| full.strip_suffix("''").unwrap_or(&full).to_owned();
    [
        (Client::ExitStatus, strip(launcher(""))),
        (
            Client::ExitStatus,
            strip(launcher_saying(PREVIOUS_MISSING_MESSAGE, "")),
        ),
        (
            Client::ExitStatus,
            strip(LEGACY_LAUNCHER.replace("{binary}", "''")),
        ),
        (Client::Gemini, strip(json_launcher(Client::Gemini, ""))),
        (Client::Copilot, strip(json_launcher(Client::Copilot, ""))),
    ]
}

/// Which clients a launcher line is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    /// Claude Code and Codex: exit 2 and the reason on stderr.
    ExitStatus,
    /// Gemini CLI: `{"decision":"deny","reason":…}` on stdout, exit 0.
    Gemini,
    /// Copilot CLI: `{"permissionDecision":"deny","permissionDecisionReason":…}`, exit 0.
    Copilot,
}

/// The client a launcher line (any release's) is for, and the binary it runs.
pub fn launcher_of(command: &str) -> Option<(Client, String)> {
    launcher_prefixes()
        .into_iter()
        .find_map(|(client, prefix)| {
            let word = sh_unquote_word(command.strip_prefix(prefix.as_str())?)?;
            (!word.is_empty()).then_some((client, word))
        })
}

/// The launcher of earlier releases (no word on a missing binary): still recognised, so
/// that install replaces it, uninstall removes it and doctor checks it.
const LEGACY_LAUNCHER: &str = "sh -c '\"$0\"; rc=$?; if [ \"$rc\" -eq 0 ] || [ \"$rc\" -eq 2 ]; then exit \"$rc\"; fi; echo \"heredoc-guard: the guard failed (exit status $rc); denying the command\" >&2; exit 2' {binary}";

/// True when `command` is the exit-status launcher this release writes (with any binary).
pub fn is_current_launcher(command: &str) -> bool {
    launcher_binary(command).is_some() && command.starts_with(launcher_prefixes()[0].1.as_str())
}

/// The binary a launcher line runs, when `command` is exactly a launcher line (as printed
/// by [`launcher`], [`json_launcher`] or an earlier release, with any binary path or a
/// bare name).
pub fn launcher_binary(command: &str) -> Option<String> {
    launcher_of(command).map(|(_, binary)| binary)
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

/// What the launcher says when the binary is not there: what is missing, where it was
/// expected, how to install it, how to remove the hook. The same words for every case
/// (a moved or removed binary, a plugin or a shared project setting on a machine without
/// it); `$w` names the path, or PATH for a bare name.
pub const MISSING_MESSAGE: &str = "heredoc-guard is missing: $w, so every shell command is blocked. Install it (npm install -g heredoc-guard, or cargo install --locked heredoc-guard; see https://github.com/heredoc-guard/heredoc-guard), or remove its hook: the heredoc-guard entry under hooks.PreToolUse in ~/.claude/settings.json, .claude/settings.local.json, .claude/settings.json or ~/.codex/hooks.json, or for the Claude Code plugin: claude plugin disable heredoc-guard";

/// [`MISSING_MESSAGE`] of the releases before the npm package (install from a clone):
/// their launcher is still recognised, so that install replaces it and doctor checks it.
const PREVIOUS_MISSING_MESSAGE: &str = "heredoc-guard is missing: $w, so every shell command is blocked. Install it (in a clone of heredoc-guard: cargo install --locked --path .; see its README), or remove its hook: the heredoc-guard entry under hooks.PreToolUse in ~/.claude/settings.json, .claude/settings.local.json, .claude/settings.json or ~/.codex/hooks.json, or for the Claude Code plugin: claude plugin disable heredoc-guard";

/// The launcher line: runs `binary` when it is there, passes 0 and 2 through, and turns
/// anything else into 2 with a message on stderr ([`MISSING_MESSAGE`] when the binary is
/// missing or not executable).
pub fn launcher(binary: &str) -> String {
    launcher_saying(MISSING_MESSAGE, binary)
}

fn launcher_saying(missing_message: &str, binary: &str) -> String {
    format!(
        "sh -c 'if case $0 in */*) [ -f \"$0\" ] && [ -x \"$0\" ];; *) command -v \"$0\" >/dev/null 2>&1;; esac; then \"$0\"; rc=$?; else rc=127; fi; if [ \"$rc\" -eq 0 ] || [ \"$rc\" -eq 2 ]; then exit \"$rc\"; fi; if [ \"$rc\" -eq 126 ] || [ \"$rc\" -eq 127 ]; then case $0 in */*) w=\"$0 does not exist or is not executable\";; *) w=\"$0 was not found on PATH\";; esac; echo \"{missing_message}\" >&2; else echo \"heredoc-guard: the guard failed (exit status $rc); denying the command\" >&2; fi; exit 2' {}",
        sh_quote(binary)
    )
}

/// The JSON launcher for Gemini CLI or Copilot CLI (`client`): runs `binary --agent
/// gemini|copilot` (an absolute path, or a bare name looked up on PATH) and keeps its
/// stdout; exit 0 passes as an allow (nothing printed); exit 2 with a deny in the client's
/// form passes that deny on; anything else (a missing binary, exit 1, a signal, a deny in
/// another form) prints the client's deny JSON with a reason of its own. It always exits 0:
/// the JSON decides. A path that JSON would need to escape is left out of the reason. For
/// [`Client::ExitStatus`] it is [`launcher`].
pub fn json_launcher(client: Client, binary: &str) -> String {
    let (agent, start, close, missing) = match client {
        Client::Gemini => (
            "gemini",
            r#"{\"decision\":\"deny\","#,
            r#"{\"decision\":\"deny\",\"reason\":\"%s\"}\n"#,
            GEMINI_MISSING,
        ),
        Client::ExitStatus => return launcher(binary),
        Client::Copilot => (
            "copilot",
            r#"{\"permissionDecision\":\"deny\","#,
            r#"{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"%s\"}\n"#,
            COPILOT_MISSING,
        ),
    };
    format!(
        "sh -c 'if case $0 in */*) [ -f \"$0\" ] && [ -x \"$0\" ];; *) command -v \"$0\" >/dev/null 2>&1;; esac; then out=$(\"$0\" --agent {agent}); rc=$?; else rc=127; fi; if [ \"$rc\" -eq 0 ]; then exit 0; fi; if [ \"$rc\" -eq 2 ]; then case $out in \"{start}\"*) printf \"%s\\n\" \"$out\"; exit 0;; esac; r=\"heredoc-guard denied, but not in the form this hook reads (is the binary older than the hook? run heredoc-guard doctor); denying the command\"; elif [ \"$rc\" -eq 126 ] || [ \"$rc\" -eq 127 ]; then case $0 in *[\\\"\\\\]*|*[[:cntrl:]]*) w=\"its binary does not exist or is not executable\";; */*) w=\"$0 does not exist or is not executable\";; *) w=\"$0 was not found on PATH\";; esac; r=\"{missing}\"; else r=\"heredoc-guard: the guard failed (exit status $rc); denying the command\"; fi; printf \"{close}\" \"$r\"; exit 0' {}",
        sh_quote(binary)
    )
}

/// What the Gemini CLI launcher says when the binary is not there (`$w` names it).
const GEMINI_MISSING: &str = "heredoc-guard is missing: $w, so every shell command is blocked. Install it (npm install -g heredoc-guard, or cargo install --locked heredoc-guard; see https://github.com/heredoc-guard/heredoc-guard), or remove its hook: the heredoc-guard entry under hooks.BeforeTool in ~/.gemini/settings.json, .gemini/settings.json or /etc/gemini-cli/settings.json";

/// What the Copilot CLI launcher says when the binary is not there (`$w` names it).
const COPILOT_MISSING: &str = "heredoc-guard is missing: $w, so every tool call is blocked. Install it (npm install -g heredoc-guard, or cargo install --locked heredoc-guard; see https://github.com/heredoc-guard/heredoc-guard), or remove its hook: ~/.copilot/hooks/heredoc-guard.json";

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
            "PreToolUse": [group(CLAUDE_MATCHER, claude_handler(binary))]
        }
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// The Gemini CLI `settings.json` fragment.
pub fn gemini(binary: &str) -> String {
    let v = json!({
        "hooks": {
            "BeforeTool": [group(GEMINI_MATCHER, gemini_handler(binary))]
        }
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// The Copilot CLI hook file.
pub fn copilot(binary: &str) -> String {
    let v = copilot_hooks_file(binary);
    format!(
        "# $COPILOT_HOME/hooks/heredoc-guard.json (default ~/.copilot/hooks/heredoc-guard.json)\n{}\n",
        serde_json::to_string_pretty(&v).unwrap_or_default()
    )
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
    fn launcher_binary_reads_the_launcher_of_earlier_releases() {
        let old = super::LEGACY_LAUNCHER.replace("{binary}", "'/opt/x/heredoc-guard'");
        assert_eq!(
            launcher_binary(&old).as_deref(),
            Some("/opt/x/heredoc-guard")
        );
    }

    #[test]
    fn launcher_binary_reads_the_launcher_that_said_to_install_from_a_clone() {
        let previous = super::launcher_saying(super::PREVIOUS_MISSING_MESSAGE, "/x/heredoc-guard");
        assert_ne!(previous, launcher("/x/heredoc-guard"));
        assert_eq!(
            launcher_binary(&previous).as_deref(),
            Some("/x/heredoc-guard")
        );
        assert!(!super::is_current_launcher(&previous));
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
