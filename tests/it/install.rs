//! `install` and `uninstall` without the agents on PATH: what is written (each expected
//! entry written out here, not taken from the code), where (`--project` is the personal
//! settings.local.json, `--shared` the committed settings.json running heredoc-guard from
//! PATH), idempotence, other settings kept, bounded backups, invalid JSON, read-only files
//! and dangling symlinks refused, symlinks followed, a binary in a cargo target/ directory
//! warned about, and uninstall giving the settings back.

use serde_json::Value;

use crate::sandbox::{Sandbox, json};
use crate::support::launcher;

/// The Claude Code settings install writes into an empty file, for the binary `quoted`
/// (quoted for sh).
fn claude_entry(quoted: &str) -> Value {
    serde_json::json!({"hooks": {"PreToolUse": [{
        "matcher": "Bash|Monitor|mcp__workspace__bash",
        "hooks": [{"type": "command", "command": launcher(quoted), "timeout": 30, "onFailure": "block"}]
    }]}})
}

/// The Codex hooks.json install writes into an empty file.
fn codex_entry(quoted: &str) -> Value {
    serde_json::json!({"hooks": {"PreToolUse": [{
        "matcher": "^(Bash|apply_patch)$",
        "hooks": [{"type": "command", "command": launcher(quoted), "timeout": 30}]
    }]}})
}

/// The sandbox's guard, as install quotes its real path.
fn quoted_guard(sb: &Sandbox) -> String {
    let real = std::fs::canonicalize(sb.guard()).unwrap();
    format!("'{}'", real.display())
}

fn backups_of(path: &std::path::Path) -> Vec<std::path::PathBuf> {
    let name = format!(
        "{}.heredoc-guard-backup-",
        path.file_name().unwrap().to_string_lossy()
    );
    let mut found: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&name))
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

const SETTINGS: &str = "{\n  \"model\": \"opus\",\n  \"env\": {\"FOO\": \"1\"},\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n";

#[test]
fn install_claude_writes_the_launcher_with_on_failure_block_for_every_shell_tool() {
    let sb = Sandbox::new();
    let r = sb.run(&["install", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout
            .contains("claude is not on PATH; the hook is written all the same"),
        "{}",
        r.stdout
    );
    let v = json(&std::fs::read_to_string(sb.claude_settings()).unwrap());
    assert_eq!(v, claude_entry(&quoted_guard(&sb)));
}

#[test]
fn install_claude_says_whether_the_claude_code_found_honours_on_failure() {
    for (version, said) in [
        ("2.1.295 (Claude Code)", "Claude Code 2.1.295 ("),
        (
            "2.1.294 (Claude Code)",
            "predates 2.1.295 and ignores \"onFailure\"",
        ),
    ] {
        let mut sb = Sandbox::new();
        let fake = sb.home().join("fake");
        std::fs::create_dir_all(&fake).unwrap();
        let script = fake.join("claude");
        std::fs::write(&script, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        sb.path_front.push(fake);
        let r = sb.run(&["install", "claude"]);
        assert_eq!(r.code, Some(0), "{r:?}");
        assert!(r.stdout.contains(said), "{version}: {}", r.stdout);
        let v = json(&std::fs::read_to_string(sb.claude_settings()).unwrap());
        assert_eq!(v, claude_entry(&quoted_guard(&sb)), "{version}");
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
    let mut expected = json(SETTINGS);
    let ours = claude_entry(&quoted_guard(&sb))["hooks"]["PreToolUse"][0].clone();
    expected["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(ours);
    assert_eq!(v, expected);
    let backups = backups_of(&path);
    assert_eq!(backups.len(), 1);
    assert_eq!(std::fs::read_to_string(&backups[0]).unwrap(), SETTINGS);
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
fn backups_are_bounded_and_uninstall_says_where_they_are_and_removes_them_when_asked() {
    let sb = Sandbox::new();
    let path = sb.write(".claude/settings.json", SETTINGS);
    for _ in 0..4 {
        assert_eq!(sb.run(&["install", "claude"]).code, Some(0));
        assert_eq!(sb.run(&["uninstall", "claude"]).code, Some(0));
    }
    let kept = backups_of(&path);
    assert_eq!(kept.len(), 3, "the newest three are kept: {kept:?}");
    let r = sb.run(&["uninstall", "claude"]);
    assert!(
        r.stdout
            .contains("Backups heredoc-guard made of ~/.claude/settings.json are kept: ")
            && r.stdout
                .contains("heredoc-guard uninstall claude --remove-backups"),
        "{}",
        r.stdout
    );
    let r = sb.run(&["uninstall", "claude", "--remove-backups"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("Removed 3 backups"), "{}", r.stdout);
    assert!(backups_of(&path).is_empty());
    assert_eq!(
        json(&std::fs::read_to_string(&path).unwrap()),
        json(SETTINGS)
    );
}

#[test]
fn a_read_only_settings_file_and_a_dangling_symlink_are_refused_and_left_as_they_are() {
    let sb = Sandbox::new();
    let path = sb.write(".claude/settings.json", SETTINGS);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let r = sb.run(&["install", "claude"]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stderr
            .contains("is read-only (mode 0444); nothing was changed"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), SETTINGS);
    assert!(backups_of(&path).is_empty());
    std::fs::remove_file(&path).unwrap();
    let missing = sb.home().join("dotfiles/claude.json");
    std::os::unix::fs::symlink(&missing, &path).unwrap();
    let r = sb.run(&["install", "claude"]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "is a symlink to {}, which does not exist; nothing was changed",
            missing.display()
        )),
        "{}",
        r.stderr
    );
    assert!(
        std::fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(!missing.exists());
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
fn install_project_writes_the_personal_settings_local_json_by_default() {
    let sb = Sandbox::new();
    let r = sb.run(&["install", "claude", "--project"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let local = sb.home().join("work/.claude/settings.local.json");
    let v = json(&std::fs::read_to_string(&local).unwrap());
    assert_eq!(v, claude_entry(&quoted_guard(&sb)));
    assert!(!sb.home().join("work/.claude/settings.json").exists());
    assert!(!sb.claude_settings().exists());
    assert!(
        r.stdout.contains("Only you, in this project"),
        "{}",
        r.stdout
    );
    assert_eq!(sb.run(&["uninstall", "claude", "--project"]).code, Some(0));
    assert!(!local.exists());
}

#[test]
fn install_project_shared_runs_heredoc_guard_from_path_in_the_committed_settings_json() {
    for flags in [&["--project", "--shared"][..], &["--shared"]] {
        let sb = Sandbox::new();
        let mut args = vec!["install", "claude"];
        args.extend_from_slice(flags);
        let r = sb.run(&args);
        assert_eq!(r.code, Some(0), "{r:?}");
        let shared = sb.home().join("work/.claude/settings.json");
        let v = json(&std::fs::read_to_string(&shared).unwrap());
        assert_eq!(v, claude_entry("'heredoc-guard'"), "{flags:?}");
        assert!(!sb.home().join("work/.claude/settings.local.json").exists());
        assert!(r.stdout.contains("This file is shared"), "{}", r.stdout);
        let mut args = vec!["uninstall", "claude"];
        args.extend_from_slice(flags);
        assert_eq!(sb.run(&args).code, Some(0));
        assert!(!shared.exists());
    }
}

#[test]
fn uninstall_names_the_other_file_that_holds_the_hook() {
    let sb = Sandbox::new();
    assert_eq!(sb.run(&["install", "claude", "--project"]).code, Some(0));
    let r = sb.run(&["uninstall", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains(
            ".claude/settings.local.json has one: heredoc-guard uninstall claude --project"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn install_warns_when_the_binary_lives_in_a_cargo_target_directory() {
    let sb = Sandbox::new();
    let built = sb
        .home()
        .join("src/heredoc-guard/target/release/heredoc-guard");
    std::fs::create_dir_all(built.parent().unwrap()).unwrap();
    crate::support::place_guard(&built);
    let mut command = std::process::Command::new(&built);
    command
        .args(["install", "claude"])
        .env_clear()
        .env("HOME", sb.home())
        .env("PATH", "/usr/bin:/bin")
        .current_dir(sb.home().join("work"));
    let r = crate::support::run_command(command, b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout
            .contains("is inside a cargo target/ directory: `cargo clean` or a rebuild removes it")
            && r.stdout.contains("cargo install --locked --path ."),
        "{}",
        r.stdout
    );
    let r = sb.run(&["install", "codex", "--no-trust"]);
    assert!(!r.stdout.contains("Warning"), "{}", r.stdout);
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
    assert!(r.stdout.contains("~/.codex: created"), "{}", r.stdout);
    let v = json(&std::fs::read_to_string(sb.codex_hooks()).unwrap());
    assert_eq!(v, codex_entry(&quoted_guard(&sb)));
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
        "CODEX_HOME is honoured, and created"
    );
}

#[test]
fn the_plugin_hook_runs_the_guard_from_path_and_fails_closed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let hooks = json(&std::fs::read_to_string(format!("{root}/hooks/hooks.json")).unwrap());
    assert_eq!(hooks["hooks"], claude_entry("'heredoc-guard'")["hooks"]);
    let command = hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
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
    assert!(crate::support::deny_reason(&run(&with_guard, &live)).is_ok());
    assert_eq!(
        crate::support::allow_problem(&run(&with_guard, &crate::support::claude_event("ls"))),
        None
    );
    let r = run("/usr/bin:/bin", &crate::support::claude_event("ls"));
    assert_eq!(r.code, Some(2), "no guard on PATH must deny: {r:?}");
    assert!(
        r.stderr
            .starts_with("heredoc-guard is missing: heredoc-guard was not found on PATH"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_plugin_names_the_crate_s_repository_and_version_and_ships_its_icon() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| json(&std::fs::read_to_string(root.join(p)).unwrap());
    let plugin = read(".claude-plugin/plugin.json");
    let market = read(".claude-plugin/marketplace.json");
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let repository = cargo
        .lines()
        .find_map(|l| l.strip_prefix("repository = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("repository in Cargo.toml");
    let entry = &market["plugins"][0];
    for v in [&plugin, entry] {
        assert_eq!(v["homepage"], repository, "{v}");
        assert_eq!(v["repository"], repository, "{v}");
        assert_eq!(v["version"], env!("CARGO_PKG_VERSION"), "{v}");
        let text = v["description"].as_str().unwrap_or_default();
        assert!(text.contains("npm install -g heredoc-guard"), "{text}");
    }
    let icon = plugin["icon"].as_str().expect("icon");
    let svg = std::fs::read_to_string(root.join(icon)).expect("the icon file");
    assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{svg}");
    // The README's marketplace line names the same repository.
    let owner_repo = repository.trim_start_matches("https://github.com/");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("/plugin marketplace add {owner_repo}")),
        "README lacks the marketplace line for {owner_repo}"
    );
}

#[test]
fn the_plugin_shares_the_top_level_skill_md() {
    let root = env!("CARGO_MANIFEST_DIR");
    let plugin =
        json(&std::fs::read_to_string(format!("{root}/.claude-plugin/plugin.json")).unwrap());
    assert_eq!(plugin["skills"], "./");
    let skill = std::fs::read_to_string(format!("{root}/SKILL.md")).unwrap();
    assert!(skill.starts_with("---\nname: heredoc-guard\n"), "{skill}");
    assert!(
        !std::path::Path::new(root).join("skills").exists(),
        "one SKILL.md, not two"
    );
}

#[test]
fn install_replaces_the_entry_an_earlier_release_wrote_and_uninstall_removes_it() {
    let sb = Sandbox::new();
    // The launcher of releases before this one, written out as they wrote it.
    let old = r#"sh -c '"$0"; rc=$?; if [ "$rc" -eq 0 ] || [ "$rc" -eq 2 ]; then exit "$rc"; fi; echo "heredoc-guard: the guard failed (exit status $rc); denying the command" >&2; exit 2' '/old/bin/heredoc-guard'"#;
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{
        "matcher": "Bash|Monitor|mcp__workspace__bash",
        "hooks": [{"type": "command", "command": old, "timeout": 30, "onFailure": "block"}]}]}});
    sb.write(".claude/settings.json", &settings.to_string());
    let r = sb.run(&["install", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let v = json(&std::fs::read_to_string(sb.claude_settings()).unwrap());
    assert_eq!(v, claude_entry(&quoted_guard(&sb)));
    sb.write(".claude/settings.json", &settings.to_string());
    let r = sb.run(&["uninstall", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(!sb.claude_settings().exists(), "{}", r.stdout);
}

#[test]
fn install_codex_passes_on_what_codex_said_when_its_app_server_stops() {
    let mut sb = Sandbox::new();
    let fake = sb.home().join("fake");
    std::fs::create_dir_all(&fake).unwrap();
    std::fs::write(
        fake.join("codex"),
        "#!/bin/sh\necho 'Error: cannot read config.toml: invalid TOML at line 3' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(fake.join("codex"), std::fs::Permissions::from_mode(0o755)).unwrap();
    sb.path_front.push(fake);
    let r = sb.run(&["install", "codex"]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stderr.contains(
            "codex app-server exited before answering initialize; Codex said: Error: cannot read config.toml: invalid TOML at line 3"
        ),
        "{}",
        r.stderr
    );
}
