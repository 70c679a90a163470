//! `log`: the last denials (time, rule, cause) and counts by rule, from the ledger, with no
//! command text.

use crate::sandbox::{Sandbox, json};
use crate::support::claude_event;

fn deny(sb: &Sandbox, event: &[u8]) {
    assert_eq!(sb.run_with(&[], event, &[]).code, Some(2));
}

#[test]
fn log_shows_the_last_denials_with_rule_and_cause_and_counts_every_rule() {
    let sb = Sandbox::new();
    deny(&sb, &claude_event("cat <<EOF\nsecret-marker $(id)\nEOF"));
    deny(&sb, &claude_event("cat <<EOF\nsecret-marker `id`\nEOF"));
    deny(&sb, b"not json");
    let r = sb.run(&["log", "-n", "2"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.starts_with("3 denials in "), "{}", r.stdout);
    assert!(r.stdout.contains("last 2:"), "{}", r.stdout);
    assert!(
        r.stdout.contains("invalid-event  (not json)"),
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
    assert!(chrono::DateTime::parse_from_rfc3339(last[0]["ts"].as_str().unwrap()).is_ok());
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
    let ledger = sb.home().join(".claude/logs/heredoc-guard-ledger.jsonl");
    let mut text = std::fs::read_to_string(&ledger).unwrap();
    text.push_str("garbage\n");
    std::fs::write(&ledger, text).unwrap();
    let r = sb.run(&["log"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.starts_with("1 denial in "), "{}", r.stdout);
    assert!(r.stdout.contains("1 line not read"), "{}", r.stdout);
}
