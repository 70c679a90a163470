//! The fail-closed launcher printed by `config`: every fault of the binary (missing, not
//! executable, aborting, exit 1, killed) becomes exit 2 with a message; allows and denies
//! pass through unchanged.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use heredoc_guard::config;

use crate::support::{claude_event, guard_path, run_command, run_with};

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
        let (code, _, stderr) = launch(&config::launcher(&binary), &claude_event("ls"), &ledger);
        assert_eq!(code, Some(2), "{what}");
        assert!(stderr.contains("denying the command"), "{what}: {stderr}");
    }
}

#[test]
fn launcher_passes_a_real_allow_and_a_real_deny_through() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let line = config::launcher(guard_path());
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
    let (code, _, stderr) = launch(&config::launcher(&binary), b"{}", &dir.path().join("l"));
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn config_claude_prints_settings_covering_every_shell_tool_with_timeout_on_failure_and_launcher() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(&["config", "claude"], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0), "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("settings JSON");
    let group = &v["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "Bash|Monitor|mcp__workspace__bash");
    let hook = &group["hooks"][0];
    assert_eq!(hook["type"], "command");
    assert_eq!(hook["onFailure"], "block");
    assert!(hook["timeout"].as_u64().is_some_and(|t| t > 0));
    let command = hook["command"].as_str().unwrap();
    let canonical = std::fs::canonicalize(guard_path()).unwrap();
    assert_eq!(command, config::launcher(&canonical.to_string_lossy()));
    assert!(Path::new(&canonical).is_absolute());
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
    assert!(
        v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .starts_with("sh -c ")
    );
}
