//! `log`: the last denials (time, rule, cause, and where each came from: agent, tool,
//! directory, session) and counts by rule, from the ledger and the one earlier releases
//! wrote, filtered by agent, directory and time; never any command text.

use crate::sandbox::{Sandbox, json};
use crate::support::{claude_event, codex_event};

fn deny(sb: &Sandbox, event: &[u8]) {
    assert_eq!(sb.run_with(&[], event, &[]).code, Some(2));
}

fn ledger(sb: &Sandbox) -> std::path::PathBuf {
    sb.home().join(".local/state/heredoc-guard/ledger.jsonl")
}

#[test]
fn log_shows_the_last_denials_with_rule_cause_and_where_they_came_from() {
    let sb = Sandbox::new();
    deny(&sb, &claude_event("cat <<EOF\nsecret-marker $(id)\nEOF"));
    deny(&sb, &codex_event("cat <<EOF\nsecret-marker `id`\nEOF"));
    deny(&sb, b"not json");
    let r = sb.run(&["log", "-n", "2"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.starts_with("3 denials in "), "{}", r.stdout);
    assert!(r.stdout.contains("last 2:"), "{}", r.stdout);
    // The second-last denial: the Codex event of crate::support::codex_event.
    assert!(
        r.stdout.contains(
            "heredoc-command-substitution\n      codex, Bash, in /home/u/project, session s-1\n"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("invalid-event (not json)\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("     2  heredoc-command-substitution"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("     1  invalid-event"), "{}", r.stdout);
    assert!(!r.stdout.contains("secret-marker"), "{}", r.stdout);
}

#[test]
fn log_json_gives_the_same_facts() {
    let sb = Sandbox::new();
    deny(&sb, &claude_event("cat <<EOF\n$(id)\nEOF"));
    deny(&sb, &claude_event("cat <<EOF\nno closer"));
    let r = sb.run(&["log", "--json", "-n", "1"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let v = json(&r.stdout);
    assert_eq!(v["total"], 2);
    assert_eq!(v["counts"]["heredoc-command-substitution"], 1);
    assert_eq!(v["counts"]["unparsable-command"], 1);
    let last = v["last"].as_array().unwrap();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0]["rule"], "unparsable-command");
    assert_eq!(last[0]["cause"], "heredoc without closing line");
    assert_eq!(last[0]["agent"], "claude");
    assert_eq!(last[0]["cwd"], "/home/u/project");
    assert_eq!(last[0]["tool"], "Bash");
    assert_eq!(last[0]["session_id"], "abc123");
}

/// A ledger line written by hand: the ledger's format is the contract `log` reads.
fn line(ts: &str, rule: &str, agent: &str, cwd: &str) -> String {
    serde_json::json!({"ts": ts, "command_sha256": "0", "rule": rule, "reason": "r",
        "agent": agent, "cwd": cwd, "tool": "Bash", "session_id": "s", "hook_event": "PreToolUse"})
    .to_string()
}

#[test]
fn log_filters_by_agent_directory_and_time() {
    let sb = Sandbox::new();
    let recent = {
        let out = std::process::Command::new("date")
            .args(["-u", "-d", "10 minutes ago", "+%Y-%m-%dT%H:%M:%S.000Z"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let lines = [
        line("2026-01-01T10:00:00.000Z", "rule-a", "claude", "/w/app"),
        line("2026-01-02T10:00:00.000Z", "rule-b", "codex", "/w/app/sub"),
        line(
            "2026-01-03T10:00:00.000Z",
            "rule-c",
            "claude",
            "/w/application",
        ),
        line(&recent, "rule-d", "codex", "/w/other"),
    ];
    sb.write(
        ".local/state/heredoc-guard/ledger.jsonl",
        &format!("{}\n", lines.join("\n")),
    );
    let rules = |args: &[&str]| {
        let mut all = vec!["log", "--json"];
        all.extend_from_slice(args);
        let r = sb.run(&all);
        assert_eq!(r.code, Some(0), "{args:?}: {r:?}");
        json(&r.stdout)["last"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["rule"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(rules(&[]), ["rule-a", "rule-b", "rule-c", "rule-d"]);
    assert_eq!(rules(&["--agent", "codex"]), ["rule-b", "rule-d"]);
    assert_eq!(rules(&["--dir", "/w/app"]), ["rule-a", "rule-b"]);
    assert_eq!(
        rules(&["--since", "2026-01-02", "--until", "2026-01-03"]),
        ["rule-b"]
    );
    assert_eq!(rules(&["--since", "1h"]), ["rule-d"]);
    assert_eq!(
        rules(&["--agent", "claude", "--since", "2026-01-02T00:00Z"]),
        ["rule-c"]
    );
    let r = sb.run(&["log", "--agent", "codex"]);
    assert!(
        r.stdout.starts_with("2 denials matching (of 4) in "),
        "{}",
        r.stdout
    );
    let r = sb.run(&["log", "--since", "last tuesday"]);
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stderr.contains("cannot read the time"), "{}", r.stderr);
}

#[test]
fn log_reads_the_ledger_earlier_releases_wrote_under_claude_logs_too() {
    let sb = Sandbox::new();
    // The old format: local time with an offset, no agent or directory.
    sb.write(
        ".claude/logs/heredoc-guard-ledger.jsonl",
        "{\"command_sha256\":\"0\",\"reason\":\"r\",\"rule\":\"old-rule\",\"ts\":\"2026-01-01T12:00:00.000+01:00\"}\n",
    );
    sb.write(
        ".local/state/heredoc-guard/ledger.jsonl",
        &format!(
            "{}\n",
            line("2026-01-01T10:30:00.000Z", "new-rule", "claude", "/w")
        ),
    );
    let r = sb.run(&["log"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.starts_with("2 denials in "), "{}", r.stdout);
    assert!(
        r.stdout.contains(".claude/logs/heredoc-guard-ledger.jsonl"),
        "{}",
        r.stdout
    );
    // Merged by time: 11:00Z (the old one) after 10:30Z.
    let old = r.stdout.find("old-rule").unwrap();
    let new = r.stdout.find("new-rule").unwrap();
    assert!(new < old, "{}", r.stdout);
}

#[test]
fn log_with_no_ledger_says_nothing_was_recorded() {
    let sb = Sandbox::new();
    let r = sb.run(&["log"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("No denials recorded"), "{}", r.stdout);
}

#[test]
fn log_skips_lines_that_are_not_records_and_counts_them() {
    let sb = Sandbox::new();
    deny(&sb, &claude_event("cat <<EOF\n$(id)\nEOF"));
    let ledger = ledger(&sb);
    let mut text = std::fs::read_to_string(&ledger).unwrap();
    text.push_str("garbage\n");
    std::fs::write(&ledger, text).unwrap();
    let r = sb.run(&["log"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.starts_with("1 denial in "), "{}", r.stdout);
    assert!(r.stdout.contains("1 line not read"), "{}", r.stdout);
}

#[test]
fn usage_errors_and_a_bare_run_on_a_terminal_leave_no_record() {
    let sb = Sandbox::new();
    for args in [
        &["install"][..],
        &["config"],
        &["explain", "--bogus"],
        &["install", "vim"],
    ] {
        let r = sb.run(args);
        assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
    }
    assert!(!ledger(&sb).exists(), "a usage error wrote a record");
}
