//! `doctor` without the real agents (the real-client suite covers it with them): it exits
//! 0 only when the hooks it finds (in settings files and in enabled plugins) are
//! registered, fail-closed, covering every shell tool, and answer the live probe; each
//! problem is named with the command that fixes it; a hook that runs twice is a warning; an
//! agent on PATH that is not set up here is a note; `doctor claude`/`doctor codex` check one;
//! the JSON has stable check ids; and doctor writes nothing to disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::sandbox::{Sandbox, json};

/// Every file and directory under `root` with its size and modification time.
fn tree(root: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            }
            out.insert(entry.path(), (meta.len(), meta.modified().unwrap()));
        }
    }
    out
}

/// A stand-in `codex` that, when run at all, creates Codex's home as the real one does.
fn fake_codex(sb: &mut Sandbox) {
    let dir = sb.home().join("fake-codex");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("codex");
    std::fs::write(
        &script,
        "#!/bin/sh\nmkdir -p \"${CODEX_HOME:-$HOME/.codex}\" && touch \"${CODEX_HOME:-$HOME/.codex}/state_5.sqlite\"\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    sb.path_front.push(dir);
}

/// The Claude Code plugin installed and enabled as `claude plugin install` leaves it: the
/// plugin's files in the plugin cache, `installed_plugins.json`, `enabledPlugins`.
fn install_plugin(sb: &Sandbox) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cache = sb
        .home()
        .join(".claude/plugins/cache/heredoc-guard/heredoc-guard/0.1.0");
    std::fs::create_dir_all(cache.join("hooks")).unwrap();
    std::fs::copy(
        root.join("hooks/hooks.json"),
        cache.join("hooks/hooks.json"),
    )
    .unwrap();
    sb.write(
        ".claude/plugins/installed_plugins.json",
        &serde_json::json!({"version": 2, "plugins": {"heredoc-guard@heredoc-guard": [
            {"scope": "user", "installPath": cache, "version": "0.1.0"}]}})
        .to_string(),
    );
    sb.write(
        ".claude/settings.json",
        r#"{"enabledPlugins": {"heredoc-guard@heredoc-guard": true}}"#,
    );
    cache
}

/// The check ids and statuses of a `doctor --json` report.
fn statuses(report: &serde_json::Value) -> Vec<(String, String)> {
    report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["checks"].as_array().unwrap().iter())
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn doctor_with_no_agent_and_no_settings_fails_and_says_what_to_install() {
    let sb = Sandbox::new();
    let r = sb.run(&["doctor"]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stdout
            .contains("neither Claude Code nor Codex is set up here"),
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
        !sb.home().join(".local/state/heredoc-guard").exists(),
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

#[test]
fn doctor_changes_nothing_on_disk_and_starts_no_codex_without_a_codex_home() {
    let mut sb = Sandbox::new();
    fake_codex(&mut sb);
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let before = tree(sb.home());
    let r = sb.run(&["doctor"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("note  codex is on PATH, but Codex is not set up here (no ~/.codex)"),
        "an agent not used here is a note: {}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("All checks passed: heredoc-guard guards claude."),
        "{}",
        r.stdout
    );
    let r = sb.run(&["doctor", "--json"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert_eq!(tree(sb.home()), before, "doctor changed files under HOME");
    assert!(!sb.home().join(".codex").exists());
}

#[test]
fn doctor_limited_to_one_agent_checks_only_it_and_fails_when_it_is_not_set_up() {
    let mut sb = Sandbox::new();
    fake_codex(&mut sb);
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let r = sb.run(&["doctor", "claude"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(!r.stdout.to_lowercase().contains("codex"), "{}", r.stdout);
    let r = sb.run(&["doctor", "codex"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("Error: codex: codex is on PATH, but Codex is not set up here"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.to_lowercase().contains("claude"), "{}", r.stdout);
}

#[test]
fn doctor_counts_the_enabled_plugin_as_guarding_and_probes_its_hook_from_path() {
    let sb = Sandbox::new();
    let cache = install_plugin(&sb);
    let r = sb.run(&["doctor", "claude"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    let place = format!(
        "plugin heredoc-guard@heredoc-guard (~/{})",
        cache.strip_prefix(sb.home()).unwrap().display()
    );
    for line in [
        format!("ok    {place}: PreToolUse hook (sh launcher) running heredoc-guard"),
        format!("ok    {place}: fails closed (\"onFailure\": \"block\" and the launcher)"),
        format!("ok    {place}: live probe through `sh -c`"),
    ] {
        assert!(r.stdout.contains(&line), "lacks {line:?}: {}", r.stdout);
    }
    // Disabled in the project's personal settings: no longer guarding.
    sb.write(
        "work/.claude/settings.local.json",
        r#"{"enabledPlugins": {"heredoc-guard@heredoc-guard": false}}"#,
    );
    let r = sb.run(&["doctor", "claude"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("no enabled plugin holds one"),
        "{}",
        r.stdout
    );
}

#[test]
fn doctor_fails_the_plugin_when_heredoc_guard_is_not_on_path() {
    let sb = Sandbox::new();
    install_plugin(&sb);
    std::fs::remove_file(sb.guard()).unwrap();
    let elsewhere = sb.home().join("elsewhere/heredoc-guard");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    crate::support::place_guard(&elsewhere);
    let mut command = std::process::Command::new(&elsewhere);
    command
        .args(["doctor", "claude"])
        .env_clear()
        .env("HOME", sb.home())
        .env("PATH", "/usr/bin:/bin");
    let r = crate::support::run_command(command, b"");
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("heredoc-guard is not on PATH: the hook blocks every shell command"),
        "{}",
        r.stdout
    );
}

#[test]
fn doctor_warns_about_a_hook_that_runs_twice_and_still_passes() {
    let sb = Sandbox::new();
    install_plugin(&sb);
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let r = sb.run(&["doctor", "--json", "claude"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    let v = json(&r.stdout);
    assert_eq!(v["warnings"], 1, "{v}");
    assert!(
        statuses(&v).contains(&("claude.duplicate".to_owned(), "warn".to_owned())),
        "{v}"
    );
    let r = sb.run(&["doctor", "claude"]);
    assert!(
        r.stdout
            .contains("heredoc-guard runs 2 times for each command"),
        "{}",
        r.stdout
    );
}

#[test]
fn doctor_json_has_a_schema_version_and_stable_check_ids() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let r = sb.run(&["doctor", "--json"]);
    let v = json(&r.stdout);
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["ok"], true, "{v}");
    let ids: Vec<String> = statuses(&v).into_iter().map(|(id, _)| id).collect();
    for id in [
        "claude.hook",
        "claude.hook.fail-closed",
        "claude.hook.matcher",
        "claude.hook.probe",
        "codex.present",
        "ledger.writable",
    ] {
        assert!(ids.iter().any(|i| i == id), "no {id} in {ids:?}");
    }
    let first = &v["sections"][0]["checks"][0];
    for key in ["id", "status", "ok", "where", "check", "fix"] {
        assert!(first.get(key).is_some(), "{key} missing: {first}");
    }
}

#[test]
fn doctor_warns_about_an_entry_an_earlier_release_wrote() {
    let sb = Sandbox::new();
    let guard = std::fs::canonicalize(sb.guard()).unwrap();
    // The exec form earlier releases wrote for Claude Code 2.1.295 and later.
    sb.write(
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Monitor|mcp__workspace__bash",
            "hooks": [{"type": "command", "command": guard, "args": [], "timeout": 30, "onFailure": "block"}]}]}})
        .to_string(),
    );
    let r = sb.run(&["doctor", "--json", "claude"]);
    assert_eq!(r.code, Some(0), "still guarded: {}", r.stdout);
    let v = json(&r.stdout);
    assert!(
        statuses(&v).contains(&("claude.hook.form".to_owned(), "warn".to_owned())),
        "{v}"
    );
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let v = json(&sb.run(&["doctor", "--json", "claude"]).stdout);
    assert_eq!(v["warnings"], 0, "{v}");
}

#[test]
fn doctor_names_a_project_settings_file_that_switches_every_hook_off() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    assert_eq!(sb.run(&["doctor", "claude"]).code, Some(0));
    sb.write("work/.claude/settings.json", r#"{"disableAllHooks": true}"#);
    let r = sb.run(&["doctor", "claude"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("work/.claude/settings.json")
            && r.stdout.contains("\"disableAllHooks\": true")
            && r.stdout.contains("Only the managed install survives it")
            && r.stdout
                .contains("sudo heredoc-guard install claude --managed"),
        "{}",
        r.stdout
    );
    let v = json(&sb.run(&["doctor", "--json", "claude"]).stdout);
    assert!(
        statuses(&v).contains(&("claude.hooks_off".to_owned(), "fail".to_owned())),
        "{v}"
    );
    // The same key set to false switches nothing off.
    sb.write(
        "work/.claude/settings.json",
        r#"{"disableAllHooks": false}"#,
    );
    assert_eq!(sb.run(&["doctor", "claude"]).code, Some(0));
}

#[test]
fn doctor_names_a_codex_config_that_switches_hooks_off() {
    let sb = Sandbox::new();
    sb.write(
        ".codex/hooks.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [
            {"type": "command", "command": sb.guard()}]}]}})
        .to_string(),
    );
    sb.write(
        ".codex/config.toml",
        "model = \"o3\"\n\n[features]\nhooks = false\n",
    );
    sb.write(
        "work/.codex/config.toml",
        "[features]\ncodex_hooks = false\n",
    );
    let v = json(&sb.run(&["doctor", "--json", "codex"]).stdout);
    let off: Vec<_> = v["sections"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["id"] == "codex.hooks_off")
        .collect();
    assert_eq!(off.len(), 2, "{v}");
    assert!(off.iter().all(|c| c["status"] == "fail"), "{v}");
    assert!(
        off.iter().any(|c| c["where"]
            .as_str()
            .is_some_and(|p| p.ends_with("work/.codex/config.toml"))),
        "{v}"
    );
}
