//! `doctor` without the agents on PATH (the real-client suite covers it with them): it
//! exits 0 only when the hook it finds is registered, fail-closed, covering every shell
//! tool, and answers the live probe; each problem is named with the command that fixes it.

use crate::sandbox::{Sandbox, json};

#[test]
fn doctor_with_no_agent_and_no_settings_fails_and_says_what_to_install() {
    let sb = Sandbox::new();
    let r = sb.run(&["doctor"]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stdout.contains("neither claude nor codex"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Try: "), "{}", r.stdout);
}

#[test]
fn doctor_passes_for_installed_claude_settings_and_probes_bash_and_monitor() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let r = sb.run(&["doctor"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(
        r.stdout.contains("live probe through `sh -c`"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Bash and Monitor heredocs with $(...) denied"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("write_stdin"),
        "the gaps are named: {}",
        r.stdout
    );
    assert!(
        !sb.home()
            .join(".claude/logs/heredoc-guard-ledger.jsonl")
            .metadata()
            .is_ok_and(|m| m.len() > 0),
        "the probe's denies stay out of the user's ledger"
    );
}

#[test]
fn doctor_names_a_bash_only_matcher_and_a_bare_command_without_on_failure() {
    let sb = Sandbox::new();
    let guard = sb.guard();
    sb.write(
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": guard}]}]}})
        .to_string(),
    );
    let r = sb.run(&["doctor", "--json"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    let v = json(&r.stdout);
    assert_eq!(v["ok"], false);
    let text = v["sections"].to_string();
    assert!(
        text.contains("misses Monitor, mcp__workspace__bash"),
        "{text}"
    );
    assert!(
        text.contains("neither \\\"onFailure\\\": \\\"block\\\" nor the launcher"),
        "{text}"
    );
    assert!(text.contains("heredoc-guard install claude"), "{text}");
}

#[test]
fn doctor_names_an_invalid_on_failure_value_that_makes_claude_drop_the_hook() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let text = std::fs::read_to_string(sb.claude_settings()).unwrap();
    std::fs::write(sb.claude_settings(), text.replace("\"block\"", "\"bogus\"")).unwrap();
    let r = sb.run(&["doctor"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("\"onFailure\": \"bogus\""),
        "{}",
        r.stdout
    );
}

#[test]
fn doctor_fails_when_the_hook_binary_is_gone_or_allows_everything() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    // A stand-in that allows everything: registered, fail-closed, and still no guard.
    let stand_in = sb.home().join("stand-in");
    crate::support::place_guard(&stand_in);
    // Removed first: the guard in bin/ may be a hard link to the built binary.
    std::fs::remove_file(sb.guard()).unwrap();
    std::fs::write(sb.guard(), "#!/bin/sh\ncat >/dev/null\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(sb.guard(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = std::process::Command::new(&stand_in);
    command
        .arg("doctor")
        .env_clear()
        .env("HOME", sb.home())
        .env("PATH", "/usr/bin:/bin");
    let r = crate::support::run_command(command, b"");
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("expected a deny (exit 2), got exit 0"),
        "{}",
        r.stdout
    );
    std::fs::remove_file(sb.guard()).unwrap();
    let mut command = std::process::Command::new(&stand_in);
    command
        .arg("doctor")
        .env_clear()
        .env("HOME", sb.home())
        .env("PATH", "/usr/bin:/bin");
    let r = crate::support::run_command(command, b"");
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("is not an executable file"),
        "{}",
        r.stdout
    );
}

#[test]
fn doctor_fails_a_codex_hook_when_codex_is_not_there_to_confirm_its_trust() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "codex", "--no-trust"]).code, Some(0));
    let r = sb.run(&["doctor"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("whether Codex trusts the hook cannot be checked"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("through `/bin/sh -lc`"),
        "the probe runs as Codex would: {}",
        r.stdout
    );
}

#[test]
fn doctor_fails_when_the_ledger_cannot_be_written() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let r = sb.run_with(&["doctor"], b"", &[("HEREDOC_GUARD_LEDGER", "/dev/null")]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("the ledger cannot be written"),
        "{}",
        r.stdout
    );
}
