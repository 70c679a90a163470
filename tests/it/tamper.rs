//! The `guard-tamper` rule through the built binary, as the agents call it: a Bash or
//! Monitor command that would switch the guard off or change it is denied with a reason
//! that says to do it from a terminal; reading the settings and the guard's read-only
//! subcommands pass.

use crate::support::{
    allow_problem, claude_event, codex_event, deny_reason, last_ledger_rule, run,
};

const DENIED: [&str; 16] = [
    // Routes the review of the first version found past it: a `<<` inside quotes,
    // arithmetic, a here-string or a comment hid the lines after it; sudo's and exec's
    // options, `bash -c --`, and shell text nested past the depth read.
    "echo \"<<X\"\nrm ~/.claude/settings.json",
    "cat <<< hi\nrm ~/.claude/settings.json",
    "echo $((1<<X))\nrm ~/.claude/settings.json",
    "x=1 # <<E\nrm ~/.codex/hooks.json",
    "sudo -E rm ~/.claude/settings.json",
    "exec -a x heredoc-guard uninstall claude",
    "bash -c -- 'rm ~/.claude/settings.json'",
    "eval eval eval eval eval eval rm ~/.claude/settings.json",
    "heredoc-guard uninstall claude",
    "~/.cargo/bin/heredoc-guard install codex --no-trust",
    "npm uninstall -g heredoc-guard",
    "rm -f ~/.cargo/bin/heredoc-guard",
    "jq 'del(.hooks)' ~/.claude/settings.json > /tmp/s && mv /tmp/s ~/.claude/settings.json",
    "echo '{}' > ~/.codex/hooks.json",
    "claude plugin disable heredoc-guard@heredoc-guard",
    "sudo rm /etc/claude-code/managed-settings.d/heredoc-guard.json",
];

const ALLOWED: [&str; 6] = [
    "cat ~/.claude/settings.json",
    "jq .hooks ~/.codex/hooks.json",
    "heredoc-guard doctor",
    "heredoc-guard explain 'heredoc-guard uninstall claude'",
    "heredoc-guard log --since 1d",
    "echo '{}' > settings.json",
];

#[test]
fn tampering_with_the_guard_is_denied_by_guard_tamper_in_both_agents_events() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    for command in DENIED {
        for event in [claude_event(command), codex_event(command)] {
            let r = run(&event, &ledger);
            let reason = deny_reason(&r).unwrap_or_else(|e| panic!("{command}: {e}"));
            assert!(
                reason.contains("from a terminal") && reason.contains("heredoc-guard"),
                "{command}: {reason}"
            );
            assert_eq!(
                last_ledger_rule(&ledger).as_deref(),
                Some("guard-tamper"),
                "{command}"
            );
        }
    }
}

#[test]
fn a_monitor_command_that_removes_the_guard_is_denied_too() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let event = serde_json::json!({
        "session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/w",
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "Monitor",
        "tool_input": {"command": "rm ~/.claude/settings.json; tail -f log", "description": "watch"},
        "tool_use_id": "toolu_1"
    })
    .to_string()
    .into_bytes();
    let r = run(&event, &ledger);
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert_eq!(last_ledger_rule(&ledger).as_deref(), Some("guard-tamper"));
}

#[test]
fn reading_the_settings_and_the_guard_s_own_read_only_commands_pass() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    for command in ALLOWED {
        let r = run(&claude_event(command), &ledger);
        assert_eq!(allow_problem(&r), None, "{command}");
    }
}

#[test]
fn explain_shows_the_same_verdict_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    let r = crate::support::run_with(
        &["explain", "--json", "heredoc-guard uninstall claude"],
        b"",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stdout.contains("guard-tamper"), "{}", r.stdout);
}

/// The tamper check reads within the limits too: a command naming the guard's settings
/// that is over the command size, or holds more heredoc operators than the reader
/// follows, is denied as a limit (what it does cannot be read), and a long line holding
/// many heredocs is read in linear time (it was cut by the process alarm at 4 s).
#[test]
fn commands_naming_the_guard_beyond_the_limits_are_denied_as_limits() {
    use heredoc_guard::check_command;
    let huge = format!("echo ~/.claude/settings.json {}", "a".repeat(5 << 20));
    let reason = check_command(&huge).into_denial().expect("denied").reason;
    assert!(
        reason.starts_with("inspection limit: command size"),
        "{reason}"
    );

    let many = format!(
        "echo settings {}\n{}",
        "cat <<E ".repeat(heredoc_guard::reader::MAX_HEREDOCS + 1),
        "E\n".repeat(heredoc_guard::reader::MAX_HEREDOCS + 1)
    );
    let reason = check_command(&many).into_denial().expect("denied").reason;
    assert!(
        reason.starts_with("inspection limit: number of heredocs"),
        "{reason}"
    );

    let long_line = format!(
        "echo settings {}{}\n{}",
        "x|".repeat(200_000),
        " cat <<E".repeat(999),
        "E\n".repeat(999)
    );
    // The tamper check (which runs first, and would deny it as `guard-tamper`) passes it:
    // no protected file is named. The reading then meets its work limit on the 999
    // heredocs of one long line.
    crate::support::limit_reason(&long_line, "reading work");
}
