//! The settings that switch an agent's hooks off, as text a command shows: a key and the
//! value that switches, in JSON, TOML, Python, JavaScript or `jq` spelling (quotes,
//! backslashes and `:`/`=`/`|=` between them are skipped; JSON's `\u00XX` escapes are
//! decoded first). Found in the real clients (the versions the suite pins):
//!
//! - **Claude Code** (`@anthropic-ai/claude-code` 2.1.328, strings of its native binary
//!   `bin/claude.exe`): `"disableAllHooks": true` in any settings file it reads (user,
//!   project, local, `--settings`) switches off every hook but the managed ones ("Hooks
//!   configured in managed settings (they run even under a non-managed disableAllHooks)";
//!   measured: a project's `.claude/settings.json` holding only it turns a user install
//!   off, not the managed one: `tests/it/clients/`). `enabledPlugins` with
//!   `"heredoc-guard@…": false` turns the guard's plugin off. `allowManagedHooksOnly` is
//!   read from managed settings only, so it is not one here.
//! - **Codex** (`@openai/codex` 0.169.0, measured with its own `codex app-server`
//!   `hooks/list`): `[features] hooks = false` (also `features.hooks = false`, an inline
//!   `features = { hooks = false }`, and the legacy name `codex_hooks`, listed among the
//!   binary's `codex_features::legacy` aliases) in the user's `config.toml` or a trusted
//!   project's `.codex/config.toml` lists no hook at all; `hooks.state."<key>".enabled =
//!   false` in the user's `config.toml` disables that one hook (`"enabled": false` in the
//!   list). `codex features disable hooks` writes the first (`commands.rs`).
//! - **Gemini CLI** (`@google/gemini-cli` 0.61.0, its JS bundle: the settings schema in
//!   `bundle/chunk-2YTYPKEZ.js`, `enableHooks: settings.hooksConfig.enabled` and
//!   `disabledHooks: settings.hooksConfig?.disabled` in `bundle/gemini-3HFX2LNT.js`):
//!   `hooksConfig.enabled: false` ("Canonical toggle for the hooks system. When disabled,
//!   no hooks will be executed."), and `hooksConfig.disabled`, a list of hook names or
//!   commands not run (merged as a union over user and workspace settings).
//! - **Copilot CLI** (`@github/copilot` 1.0.102, its unpacked `cli-main.js` and
//!   `prebuilds/linux-x64/runtime.node`): `disableAllHooks` ("Disable all hooks, both
//!   user-level and repo-level"), in its settings and in hook files ("disableAllHooks must
//!   be a boolean"); `disabledHooks` ("Hooks discovered but not executed (content-hash
//!   keys)").
//!
//! A key whose value the command computes (`{"disableAllHooks": $x}`, a key glued from
//! pieces in code) is not shown, and not found.

/// The switch-off `text` shows, named for the reason.
pub(super) fn find(text: &[u8]) -> Option<&'static str> {
    if crate::search::find(text, b"\\u").is_some() {
        return find_in(&decode_unicode_escapes(text));
    }
    find_in(text)
}

fn find_in(t: &[u8]) -> Option<&'static str> {
    if value_after(t, b"disableAllHooks", Value::True) {
        return Some("\"disableAllHooks\": true");
    }
    if plugin_off(t) {
        return Some("the heredoc-guard plugin set to false in enabledPlugins");
    }
    if has(t, b"features")
        && (value_after(t, b"codex_hooks", Value::TomlFalse)
            || word_value_after(t, b"hooks", Value::TomlFalse))
    {
        return Some("Codex's [features] hooks = false");
    }
    if has(t, b"hooks.state") && word_value_after(t, b"enabled", Value::TomlFalse) {
        return Some("a Codex hook's hooks.state enabled = false");
    }
    if has(t, b"hooksConfig")
        && (word_value_after(t, b"enabled", Value::False)
            || word_value_after(t, b"disabled", Value::List))
    {
        return Some("Gemini CLI's hooksConfig (enabled: false, or a disabled list)");
    }
    if value_after(t, b"disabledHooks", Value::List) {
        return Some("Copilot CLI's disabledHooks");
    }
    None
}

/// The values that switch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Value {
    /// `true` (any case), `1`.
    True,
    /// `false` (any case), `0`, after `:` or `=`.
    False,
    /// `false` after `=` (TOML).
    TomlFalse,
    /// A list with something in it: `[` and then not `]`.
    List,
}

fn has(t: &[u8], needle: &[u8]) -> bool {
    crate::search::find(t, needle).is_some()
}

/// Whether `key` appears followed by an assignment of `value`.
fn value_after(t: &[u8], key: &[u8], value: Value) -> bool {
    memchr::memmem::find_iter(t, key).any(|at| assigned(&t[at + key.len()..], value))
}

/// [`value_after`], for a key that must be a word of its own (not inside a longer name).
fn word_value_after(t: &[u8], key: &[u8], value: Value) -> bool {
    memchr::memmem::find_iter(t, key).any(|at| {
        let before = at.checked_sub(1).map(|i| t[i]);
        // A `\n` or `\t` escape (`printf '[features]\nhooks = false'`) ends a word too.
        let escape = at >= 2 && t[at - 2] == b'\\' && matches!(before, Some(b'n' | b't'));
        let word_start = escape || !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
        word_start && assigned(&t[at + key.len()..], value)
    })
}

/// Whether `rest` (the text after a key) assigns `value`: the key's word ends, then at
/// most a few quotes, backslashes, blanks and one `:`, `=` or `|=`, then the value.
fn assigned(rest: &[u8], value: Value) -> bool {
    if rest
        .first()
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        return false;
    }
    let mut i = 0;
    let mut sep = None;
    while i < rest.len() && i < 16 {
        match rest[i] {
            b'"' | b'\'' | b'\\' | b' ' | b'\t' | b'\n' | b'\r' | b']' => {}
            b':' | b'=' if sep.is_none() => sep = Some(rest[i]),
            b'|' if sep.is_none() && rest.get(i + 1) == Some(&b'=') => {}
            _ => break,
        }
        i += 1;
    }
    let Some(sep) = sep else { return false };
    let word: Vec<u8> = rest[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect();
    match value {
        Value::True => word == b"true" || word == b"1",
        Value::False => word == b"false" || word == b"0",
        Value::TomlFalse => sep == b'=' && word == b"false",
        Value::List => {
            rest.get(i) == Some(&b'[')
                && rest[i + 1..]
                    .iter()
                    .find(|c| !c.is_ascii_whitespace())
                    .is_some_and(|&c| c != b']')
        }
    }
}

/// `"heredoc-guard@<marketplace>": false`.
fn plugin_off(t: &[u8]) -> bool {
    const KEY: &[u8] = b"heredoc-guard@";
    memchr::memmem::find_iter(t, KEY).any(|at| {
        let rest = &t[at + KEY.len()..];
        let name = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
            .count();
        assigned(&rest[name..], Value::False)
    })
}

/// `t` with JSON's `\u00XX` escapes of ASCII characters decoded (a key spelled with them
/// is the same key to the client).
fn decode_unicode_escapes(t: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        if t[i] == b'\\'
            && t.get(i + 1) == Some(&b'u')
            && let Some(hex) = t.get(i + 2..i + 6)
            && let Ok(s) = std::str::from_utf8(hex)
            && let Ok(n) = u8::from_str_radix(s.get(2..).unwrap_or(""), 16)
            && s.starts_with("00")
            && n.is_ascii()
        {
            out.push(n);
            i += 6;
            continue;
        }
        out.push(t[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::find;

    #[test]
    fn finds_each_client_s_switch_in_the_spellings_a_command_uses() {
        for t in [
            "{\"disableAllHooks\": true}",
            "{\\\"disableAllHooks\\\":true}",
            "jq '.disableAllHooks = true' s.json",
            "jq '.disableAllHooks |= true'",
            "d['disableAllHooks'] = True",
            "{\"disable\\u0041llHooks\": true}",
            "{\"enabledPlugins\": {\"heredoc-guard@heredoc-guard\": false}}",
            "[features]\nhooks = false\n",
            "[features]\ncodex_hooks=false",
            "features.hooks = false",
            "features = { hooks = false }",
            "printf '[features]\\nhooks = false\\n'",
            "[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = false",
            "{\"hooksConfig\": {\"enabled\": false}}",
            "jq '.hooksConfig.enabled = false'",
            "{\"hooksConfig\": {\"disabled\": [\"heredoc-guard\"]}}",
            "{\"disabledHooks\": [\"sha256:abc\"]}",
        ] {
            assert!(find(t.as_bytes()).is_some(), "not found: {t}");
        }
    }

    #[test]
    fn finds_nothing_in_settings_that_keep_hooks_on() {
        for t in [
            "{\"disableAllHooks\": false}",
            "jq 'del(.disableAllHooks)' s.json",
            "{\"theme\": \"dark\", \"hooks\": {}}",
            "{\"hooks\": {\"PreToolUse\": []}}",
            "[features]\nweb_search = false\nhooks = true\n",
            "[tui]\nhooks = false\n",
            "{\"hooksConfig\": {\"enabled\": true, \"disabled\": []}}",
            "{\"enabledPlugins\": {\"heredoc-guard@heredoc-guard\": true}}",
            "{\"allowManagedHooksOnly\": true}",
            "echo disableAllHooks",
            "{\"disabledHooks\": []}",
        ] {
            assert_eq!(find(t.as_bytes()), None, "found in: {t}");
        }
    }
}
