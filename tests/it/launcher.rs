//! The fail-closed launcher printed by `config` and written by `install`: every fault of
//! the binary (missing, not executable, aborting, exit 1, killed) becomes exit 2 with a
//! message; a missing binary gets the one message that says what is missing, where, and how
//! to install it or remove the hook; allows and denies pass through unchanged.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::support::{claude_event, guard_path, run_command, run_with};

/// The launcher for `binary`, quoted for sh as install quotes it.
fn launcher(binary: &str) -> String {
    crate::support::launcher(&format!("'{}'", binary.replace('\'', r"'\''")))
}

/// Runs the launcher line under `sh -c`, as the agents do, feeding `stdin`.
fn launch(line: &str, stdin: &[u8], ledger: &Path) -> (Option<i32>, String, String) {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(line)
        .env("HEREDOC_GUARD_LEDGER", ledger);
    let r = run_command(command, stdin);
    (r.code, r.stdout, r.stderr)
}

fn script(dir: &Path, name: &str, body: &str, mode: u32) -> String {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn launcher_turns_every_fault_of_the_binary_into_a_deny() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let faults = [
        (
            "missing",
            dir.path().join("nope").to_string_lossy().into_owned(),
        ),
        (
            "not executable",
            script(dir.path(), "noexec", "#!/bin/sh\nexit 0\n", 0o644),
        ),
        (
            "exit 1",
            script(dir.path(), "one", "#!/bin/sh\nexit 1\n", 0o755),
        ),
        (
            "abort",
            script(dir.path(), "abort", "#!/bin/sh\nkill -ABRT $$\n", 0o755),
        ),
        (
            "killed",
            script(dir.path(), "killed", "#!/bin/sh\nkill -KILL $$\n", 0o755),
        ),
        (
            "exit 3",
            script(dir.path(), "three", "#!/bin/sh\nexit 3\n", 0o755),
        ),
    ];
    for (what, binary) in faults {
        let (code, _, stderr) = launch(&launcher(&binary), &claude_event("ls"), &ledger);
        assert_eq!(code, Some(2), "{what}");
        let said = if what == "missing" || what == "not executable" {
            format!("heredoc-guard is missing: {binary} does not exist or is not executable")
        } else {
            "denying the command".to_owned()
        };
        assert!(stderr.contains(&said), "{what}: {stderr}");
    }
}

#[test]
fn a_missing_binary_is_named_with_where_it_was_expected_how_to_install_it_and_how_to_remove_the_hook()
 {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    // By path (install's entries), and by name from PATH (the plugin, --shared).
    let gone = dir.path().join("moved/heredoc-guard");
    for (line, named) in [
        (
            launcher(gone.to_str().unwrap()),
            format!("{} does not exist or is not executable", gone.display()),
        ),
        (
            launcher("heredoc-guard"),
            "heredoc-guard was not found on PATH".to_owned(),
        ),
    ] {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&line)
            .env("PATH", "/usr/bin:/bin")
            .env("HEREDOC_GUARD_LEDGER", &ledger);
        let r = run_command(command, &claude_event("ls"));
        assert_eq!(r.code, Some(2), "{r:?}");
        let first = r.stderr.lines().next().unwrap_or("");
        assert!(first.starts_with("heredoc-guard is missing: "), "{first}");
        for part in [
            named.as_str(),
            "every shell command is blocked",
            "npm install -g heredoc-guard",
            "~/.claude/settings.json",
            "~/.codex/hooks.json",
            "claude plugin disable heredoc-guard",
        ] {
            assert!(first.contains(part), "lacks {part:?}: {first}");
        }
        assert_eq!(
            r.stderr.lines().count(),
            1,
            "only our message: {}",
            r.stderr
        );
    }
}

#[test]
fn launcher_passes_a_real_allow_and_a_real_deny_through() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let line = launcher(guard_path());
    let (code, stdout, stderr) = launch(&line, &claude_event("cat <<'EOF'\n$(id)\nEOF"), &ledger);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", ""));
    let (code, stdout, stderr) = launch(&line, &claude_event("cat <<EOF\n$(id)\nEOF"), &ledger);
    assert_eq!(code, Some(2));
    assert!(
        stdout.contains("\"permissionDecision\":\"deny\""),
        "{stdout}"
    );
    assert!(!stderr.contains("denying the command"), "{stderr}");
}

#[test]
fn launcher_quotes_a_binary_path_with_spaces_and_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("it's a dir");
    std::fs::create_dir(&odd).unwrap();
    let binary = script(&odd, "guard", "#!/bin/sh\nexit 0\n", 0o755);
    let (code, _, stderr) = launch(&launcher(&binary), b"{}", &dir.path().join("l"));
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn config_claude_prints_the_settings_entry_with_the_launcher_on_failure_block_and_every_shell_tool()
{
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(&["config", "claude"], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0), "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("settings JSON");
    let canonical = std::fs::canonicalize(guard_path()).unwrap();
    let expected = serde_json::json!({"hooks": {"PreToolUse": [{
        "matcher": "Bash|Monitor|mcp__workspace__bash",
        "hooks": [{"type": "command", "command": launcher(canonical.to_str().unwrap()),
                   "timeout": 30, "onFailure": "block"}]}]}});
    assert_eq!(v, expected);
}

#[test]
fn config_codex_prints_anchored_matcher_in_json_and_toml_forms() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(&["config", "codex"], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains("\"matcher\": \"^(Bash|apply_patch)$\""),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("[[hooks.PreToolUse]]"));
    assert!(r.stdout.contains("matcher = \"^(Bash|apply_patch)$\""));
    assert!(r.stdout.contains("trust"));
    let json_start = r.stdout.find('{').unwrap();
    let json_end = r.stdout.find("\n}\n").unwrap() + 2;
    let v: serde_json::Value = serde_json::from_str(&r.stdout[json_start..json_end]).unwrap();
    let canonical = std::fs::canonicalize(guard_path()).unwrap();
    let expected = serde_json::json!({"hooks": {"PreToolUse": [{
        "matcher": "^(Bash|apply_patch)$",
        "hooks": [{"type": "command", "command": launcher(canonical.to_str().unwrap()),
                   "timeout": 30}]}]}});
    assert_eq!(v, expected);
}
