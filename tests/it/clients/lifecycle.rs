//! `doctor`, `install` and `uninstall` in a HOME that already has settings of its own, with
//! both real clients on PATH: doctor fails before install, passes after, fails once the
//! Codex entry is edited (Codex then silently skips it), passes after install again; and
//! uninstall gives the settings back.

use serde_json::Value;

use super::Home;
use super::codex::CONFIG;

const CLAUDE_SETTINGS: &str = r#"{
  "model": "opus",
  "env": {"FOO": "1"},
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "echo bye"}]}],
    "PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "true"}]}]
  }
}
"#;

const CODEX_HOOKS: &str = r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]}}
"#;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn doctor_fails_before_install_passes_after_fails_on_an_edited_codex_entry_and_uninstall_restores_the_settings()
 {
    let home = Home::new();
    let claude_settings = home.path().join(".claude/settings.json");
    let codex_dir = home.path().join(".codex");
    std::fs::create_dir_all(claude_settings.parent().unwrap()).unwrap();
    std::fs::create_dir_all(&codex_dir).unwrap();
    std::fs::write(&claude_settings, CLAUDE_SETTINGS).unwrap();
    std::fs::write(codex_dir.join("config.toml"), CONFIG).unwrap();
    std::fs::write(codex_dir.join("hooks.json"), CODEX_HOOKS).unwrap();

    let before = home.guard_cmd(&["doctor"]);
    assert_eq!(before.code, Some(1), "{before:?}");
    assert!(
        before.stdout.contains("Try: heredoc-guard install claude"),
        "{}",
        before.stdout
    );
    assert!(
        before.stdout.contains("Try: heredoc-guard install codex"),
        "{}",
        before.stdout
    );

    for agent in ["claude", "codex"] {
        let r = home.guard_cmd(&["install", agent]);
        assert_eq!(r.code, Some(0), "install {agent}: {r:?}");
    }
    let after = home.guard_cmd(&["doctor", "--json"]);
    let report: Value = serde_json::from_str(&after.stdout).expect("doctor --json");
    assert_eq!(after.code, Some(0), "{}", after.stdout);
    assert_eq!(report["ok"], true);
    let checks = report["sections"].to_string();
    assert!(checks.contains("live probe"), "{checks}");
    assert!(checks.contains("trusted, and not modified"), "{checks}");

    // Any edit of the entry makes Codex skip it: doctor must say so.
    let hooks_path = codex_dir.join("hooks.json");
    let text = std::fs::read_to_string(&hooks_path).unwrap();
    assert!(text.contains("\"timeout\": 30"), "{text}");
    std::fs::write(
        &hooks_path,
        text.replace("\"timeout\": 30", "\"timeout\": 31"),
    )
    .unwrap();
    let edited = home.guard_cmd(&["doctor"]);
    assert_eq!(edited.code, Some(1), "{}", edited.stdout);
    assert!(
        edited.stdout.contains("modified since it was trusted"),
        "{}",
        edited.stdout
    );
    assert!(
        edited.stdout.contains("Try: heredoc-guard install codex"),
        "{}",
        edited.stdout
    );

    let again = home.guard_cmd(&["install", "codex"]);
    assert_eq!(again.code, Some(0), "{again:?}");
    let fixed = home.guard_cmd(&["doctor"]);
    assert_eq!(fixed.code, Some(0), "{}", fixed.stdout);

    for agent in ["claude", "codex"] {
        let r = home.guard_cmd(&["uninstall", agent]);
        assert_eq!(r.code, Some(0), "uninstall {agent}: {r:?}");
    }
    let settings = std::fs::read_to_string(&claude_settings).unwrap();
    assert_eq!(json(&settings), json(CLAUDE_SETTINGS));
    let hooks = std::fs::read_to_string(&hooks_path).unwrap();
    assert_eq!(json(&hooks), json(CODEX_HOOKS));
    let config = std::fs::read_to_string(codex_dir.join("config.toml")).unwrap();
    assert_eq!(config, CONFIG);
    let gone = home.guard_cmd(&["doctor"]);
    assert_eq!(gone.code, Some(1), "{}", gone.stdout);
}
