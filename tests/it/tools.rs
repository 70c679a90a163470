//! Which tools are read as shell: Claude Code's `Monitor` and `mcp__workspace__bash` like
//! `Bash`; `PowerShell` is not bash and passes unread; Codex `apply_patch` is never parsed.

use crate::support::{allow_problem, deny_reason, last_ledger_rule, run};

fn event(tool: &str, input: serde_json::Value) -> Vec<u8> {
    serde_json::json!({
        "session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/w",
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input, "tool_use_id": "toolu_1"
    })
    .to_string()
    .into_bytes()
}

const LIVE: &str = "cat <<EOF\n$(touch /tmp/canary)\nEOF";
const QUOTED: &str = "cat <<'EOF'\n$(touch /tmp/canary)\nEOF";

#[test]
fn a_monitor_call_with_a_live_heredoc_is_denied_and_a_quoted_one_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let input =
        |c: &str| serde_json::json!({"command": c, "description": "watch", "timeout_ms": 30000});
    let r = run(&event("Monitor", input(LIVE)), &ledger);
    let reason = deny_reason(&r).expect("Monitor deny");
    assert!(reason.contains("$(touch /tmp/canary)"), "{reason}");
    assert_eq!(
        last_ledger_rule(&ledger).as_deref(),
        Some("heredoc-command-substitution")
    );
    let r = run(&event("Monitor", input(QUOTED)), &ledger);
    assert_eq!(allow_problem(&r), None);
}

#[test]
fn an_mcp_workspace_bash_call_is_read_like_bash() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let r = run(
        &event("mcp__workspace__bash", serde_json::json!({"command": LIVE})),
        &ledger,
    );
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    let r = run(
        &event(
            "mcp__workspace__bash",
            serde_json::json!({"command": QUOTED}),
        ),
        &ledger,
    );
    assert_eq!(allow_problem(&r), None);
}

#[test]
fn a_monitor_event_without_a_string_command_is_denied_as_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    for input in [
        serde_json::json!({"description": "x"}),
        serde_json::json!({"command": 3}),
    ] {
        let r = run(&event("Monitor", input), &ledger);
        assert!(deny_reason(&r).is_ok(), "{r:?}");
        assert_eq!(last_ledger_rule(&ledger).as_deref(), Some("invalid-event"));
    }
}

#[test]
fn powershell_and_apply_patch_pass_unread_even_with_heredoc_text() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let r = run(
        &event("PowerShell", serde_json::json!({"command": LIVE})),
        &ledger,
    );
    assert_eq!(allow_problem(&r), None);
    let patch = format!("*** Begin Patch\n*** Add File: x.sh\n+{LIVE}\n*** End Patch");
    let r = run(
        &event("apply_patch", serde_json::json!({"command": patch})),
        &ledger,
    );
    assert_eq!(allow_problem(&r), None);
    assert!(!ledger.exists());
}

#[test]
fn tool_names_are_matched_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    for tool in ["bash", "monitor", "MonitorX", "mcp__other__bash"] {
        let r = run(&event(tool, serde_json::json!({"command": LIVE})), &ledger);
        assert_eq!(allow_problem(&r), None, "{tool}");
    }
}
