//! `install` and `uninstall` without the agents on PATH: what is written, idempotence,
//! other settings kept, backups, invalid JSON refused, symlinks followed, and uninstall
//! giving the settings back.

use crate::sandbox::{Sandbox, json};

const SETTINGS: &str = "{\n  \"model\": \"opus\",\n  \"env\": {\"FOO\": \"1\"},\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n";

#[test]
fn install_claude_without_claude_on_path_writes_the_launcher_with_on_failure_block_and_says_why() {
    let sb = Sandbox::new();
    let r = sb.run(&["install", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout
            .contains("claude is not on PATH: using the sh launcher"),
        "{}",
        r.stdout
    );
    let v = json(&std::fs::read_to_string(sb.claude_settings()).unwrap());
    let group = &v["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "Bash|Monitor|mcp__workspace__bash");
    let hook = &group["hooks"][0];
    assert_eq!(hook["onFailure"], "block");
    assert_eq!(hook["timeout"], 30);
    let guard = std::fs::canonicalize(sb.guard()).unwrap();
    assert_eq!(
        hook["command"],
        heredoc_guard::config::launcher(guard.to_str().unwrap())
    );
    assert!(hook.get("args").is_none());
}

#[test]
fn install_claude_picks_the_exec_form_when_claude_says_2_1_295_or_later_and_the_launcher_before() {
    for (version, exec) in [
        ("2.1.295 (Claude Code)", true),
        ("2.1.294 (Claude Code)", false),
    ] {
        let sb = Sandbox::new();
        let fake = sb.home().join("fake");
        std::fs::create_dir_all(&fake).unwrap();
        let script = fake.join("claude");
        std::fs::write(&script, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut sb = sb;
        sb.path_front.push(fake);
        let r = sb.run(&["install", "claude"]);
        assert_eq!(r.code, Some(0), "{r:?}");
        let v = json(&std::fs::read_to_string(sb.claude_settings()).unwrap());
        let hook = &v["hooks"]["PreToolUse"][0]["hooks"][0];
        assert_eq!(hook.get("args").is_some(), exec, "{version}: {hook}");
        assert_eq!(hook["onFailure"], "block");
        let said = if exec {
            "using the exec form"
        } else {
            "using the sh launcher"
        };
        assert!(r.stdout.contains(said), "{version}: {}", r.stdout);
    }
}

#[test]
fn a_second_install_changes_nothing_and_says_so() {
    let sb = Sandbox::new();
    sb.write(".claude/settings.json", SETTINGS);
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let first = std::fs::read(sb.claude_settings()).unwrap();
    let r = sb.run(&["install", "claude"]);
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("nothing changed"), "{}", r.stdout);
    assert_eq!(std::fs::read(sb.claude_settings()).unwrap(), first);
}

#[test]
fn install_keeps_every_other_setting_and_a_backup_and_uninstall_gives_the_settings_back() {
    let sb = Sandbox::new();
    let path = sb.write(".claude/settings.json", SETTINGS);
    let r = sb.run(&["install", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let v = json(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(v["model"], "opus");
    assert_eq!(v["env"]["FOO"], "1");
    assert_eq!(v["hooks"]["PreToolUse"][0]["matcher"], "Write");
    assert_eq!(v["hooks"]["PreToolUse"].as_array().unwrap().len(), 2);
    let backups: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("settings.json.heredoc-guard-backup-")
        })
        .collect();
    assert_eq!(backups.len(), 1);
    assert_eq!(
        std::fs::read_to_string(backups[0].path()).unwrap(),
        SETTINGS
    );
    let r = sb.run(&["uninstall", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!(
        json(&std::fs::read_to_string(&path).unwrap()),
        json(SETTINGS)
    );
    let r = sb.run(&["uninstall", "claude"]);
    assert!(r.stdout.contains("nothing changed"), "{}", r.stdout);
}

#[test]
fn uninstall_removes_a_settings_file_that_install_created() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    assert!(sb.claude_settings().exists());
    assert_eq!(sb.run(&["uninstall", "claude"]).code, Some(0));
    assert!(!sb.claude_settings().exists());
}

#[test]
fn install_refuses_a_settings_file_that_is_not_json_and_changes_nothing() {
    let sb = Sandbox::new();
    for bad in ["{\"model\": \"opus\",,}", "[1, 2]", "{\"hooks\": []}"] {
        let path = sb.write(".claude/settings.json", bad);
        let r = sb.run(&["install", "claude"]);
        assert_eq!(r.code, Some(1), "{bad}: {r:?}");
        assert!(r.stderr.contains("settings.json"), "{}", r.stderr);
        assert!(
            r.stderr.contains("nothing was changed") || r.stderr.contains("not an"),
            "{}",
            r.stderr
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
        let entries = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(entries, 1, "no backup or temp file is left");
    }
}

#[test]
fn install_project_writes_dot_claude_in_the_current_directory() {
    let sb = Sandbox::new();
    let r = sb.run(&["install", "claude", "--project"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(sb.home().join("work/.claude/settings.json").exists());
    assert!(!sb.claude_settings().exists());
    assert_eq!(sb.run(&["uninstall", "claude", "--project"]).code, Some(0));
    assert!(!sb.home().join("work/.claude/settings.json").exists());
}

#[test]
fn install_writes_through_a_symlinked_settings_file() {
    let sb = Sandbox::new();
    let target = sb.write("dotfiles/claude-settings.json", SETTINGS);
    std::fs::create_dir_all(sb.home().join(".claude")).unwrap();
    std::os::unix::fs::symlink(&target, sb.claude_settings()).unwrap();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    assert!(
        std::fs::symlink_metadata(sb.claude_settings())
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("onFailure")
    );
}

#[test]
fn installing_from_a_new_binary_path_replaces_the_old_entry() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
    let other = sb.home().join("other/heredoc-guard");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    crate::support::place_guard(&other);
    let mut command = std::process::Command::new(&other);
    command
        .args(["install", "claude"])
        .env_clear()
        .env("HOME", sb.home())
        .env("PATH", "/usr/bin:/bin");
    let r = crate::support::run_command(command, b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    let v = json(&std::fs::read_to_string(sb.claude_settings()).unwrap());
    let groups = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{v}");
    assert_eq!(groups[0]["hooks"].as_array().unwrap().len(), 1, "{v}");
    let command = groups[0]["hooks"][0]["command"].as_str().unwrap();
    assert!(command.contains("other/heredoc-guard"), "{command}");
}

#[test]
fn install_codex_no_trust_writes_the_launcher_and_says_how_to_trust_it() {
    let sb = Sandbox::new();
    let r = sb.run(&["install", "codex", "--no-trust"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains("Not trusted (--no-trust)"),
        "{}",
        r.stdout
    );
    let v = json(&std::fs::read_to_string(sb.codex_hooks()).unwrap());
    let group = &v["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "^(Bash|apply_patch)$");
    assert!(
        group["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .starts_with("sh -c ")
    );
    assert!(group["hooks"][0].get("onFailure").is_none());
}

#[test]
fn install_codex_without_codex_on_path_writes_the_hook_but_fails_since_it_cannot_be_trusted() {
    let sb = Sandbox::new();
    let r = sb.run_with(
        &["install", "codex"],
        b"",
        &[("CODEX_HOME", sb.home().join("ch").to_str().unwrap())],
    );
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(r.stderr.contains("codex is not on PATH"), "{}", r.stderr);
    assert!(
        sb.home().join("ch/hooks.json").exists(),
        "CODEX_HOME is honoured"
    );
}

#[test]
fn the_plugin_hook_runs_the_guard_from_path_and_fails_closed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let hooks = json(&std::fs::read_to_string(format!("{root}/hooks/hooks.json")).unwrap());
    let group = &hooks["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], heredoc_guard::config::CLAUDE_MATCHER);
    let hook = &group["hooks"][0];
    assert_eq!(hook["onFailure"], "block");
    let command = hook["command"].as_str().unwrap();
    assert_eq!(command, heredoc_guard::config::launcher("heredoc-guard"));
    let sb = Sandbox::new();
    let run = |path: &str, event: &[u8]| {
        let mut c = std::process::Command::new("sh");
        c.arg("-c")
            .arg(command)
            .env_clear()
            .env("PATH", path)
            .env("HOME", sb.home());
        crate::support::run_command(c, event)
    };
    let with_guard = format!("{}:/usr/bin:/bin", sb.home().join("bin").display());
    let live = crate::support::claude_event("cat <<EOF\n$(id)\nEOF");
    assert_eq!(run(&with_guard, &live).code, Some(2));
    assert_eq!(
        run(&with_guard, &crate::support::claude_event("ls")).code,
        Some(0)
    );
    let r = run("/usr/bin:/bin", &crate::support::claude_event("ls"));
    assert_eq!(r.code, Some(2), "no guard on PATH must deny: {r:?}");
}
