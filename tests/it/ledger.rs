//! The deny ledger: one strict record per deny, none per allow, a hash and never the text,
//! where the deny came from (agent, session, directory, tool, hook event), the time in UTC,
//! whole lines under concurrency, its place under XDG_STATE_HOME, and a deny that stands
//! when the ledger cannot be written.

use std::path::Path;

use serde::Deserialize;

use crate::support::{claude_event, deny_reason, run, run_env, run_with};

/// A ledger record, decoded strictly: an unknown field is an error.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    ts: String,
    command_sha256: String,
    rule: String,
    reason: String,
    stage: Option<String>,
    cause: Option<String>,
    agent: Option<String>,
    session_id: Option<String>,
    cwd: Option<String>,
    tool: Option<String>,
    hook_event: Option<String>,
}

/// Seconds since the epoch, now.
fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The seconds since the epoch that GNU date reads in `ts` (the oracle for the format).
fn date_reads(ts: &str) -> u64 {
    let out = std::process::Command::new("date")
        .args(["-u", "-d", ts, "+%s"])
        .output()
        .expect("date");
    assert!(out.status.success(), "date cannot read {ts:?}");
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

fn records(ledger: &Path) -> Vec<Record> {
    std::fs::read_to_string(ledger)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad ledger line {l:?}: {e}")))
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

const LIVE: &str = "cat <<EOF\nsecret-marker $(id)\nEOF";

#[test]
fn a_deny_appends_one_strict_record_with_the_command_hash_where_it_came_from_and_no_text() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let before = now_secs();
    let r = run(&claude_event(LIVE), &ledger);
    let after = now_secs();
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    let recs = records(&ledger);
    assert_eq!(recs.len(), 1);
    let rec = &recs[0];
    assert_eq!(rec.rule, "heredoc-command-substitution");
    assert_eq!(rec.command_sha256, sha256_hex(LIVE.as_bytes()));
    assert!(rec.stage.is_none() && rec.cause.is_none());
    // UTC with milliseconds, and the time of the run.
    assert!(
        rec.ts.len() == 24 && rec.ts.ends_with('Z') && rec.ts.as_bytes()[19] == b'.',
        "ts {}",
        rec.ts
    );
    let at = date_reads(&rec.ts);
    assert!(before <= at && at <= after, "{before} <= {at} <= {after}");
    assert!(!rec.reason.is_empty());
    // Fields of crate::support::claude_event.
    assert_eq!(rec.agent.as_deref(), Some("claude"));
    assert_eq!(rec.session_id.as_deref(), Some("abc123"));
    assert_eq!(rec.cwd.as_deref(), Some("/home/u/project"));
    assert_eq!(rec.tool.as_deref(), Some("Bash"));
    assert_eq!(rec.hook_event.as_deref(), Some("PreToolUse"));
    let text = std::fs::read_to_string(&ledger).unwrap();
    assert!(
        !text.contains("secret-marker") && !text.contains("EOF"),
        "{text}"
    );
}

#[test]
fn a_codex_deny_is_recorded_as_codex_with_its_session_and_directory() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let r = run(&crate::support::codex_event(LIVE), &ledger);
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    let rec = &records(&ledger)[0];
    assert_eq!(rec.agent.as_deref(), Some("codex"));
    assert_eq!(rec.session_id.as_deref(), Some("s-1"));
    assert_eq!(rec.cwd.as_deref(), Some("/home/u/project"));
    assert_eq!(rec.tool.as_deref(), Some("Bash"));
}

#[test]
fn an_allow_writes_nothing_to_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let r = run(&claude_event("cat <<'EOF'\n$(id)\nEOF"), &ledger);
    assert_eq!(r.code, Some(0));
    assert!(!ledger.exists());
}

#[test]
fn failure_records_carry_stage_and_cause_and_hash_the_empty_command_for_bad_events() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let _ = run(b"not json", &ledger);
    let _ = run(&claude_event("cat <<EOF\nno closer"), &ledger);
    let _ = run(
        &claude_event(&format!(
            "cat <<EOF\nx\nEOF\n{}x{}",
            "$(echo ".repeat(2_000),
            ")".repeat(2_000)
        )),
        &ledger,
    );
    let _ = run(&claude_event("cat <<$'EOF'\nx\nEOF"), &ledger);
    let recs = records(&ledger);
    assert_eq!(recs.len(), 4);
    assert_eq!(recs[0].rule, "invalid-event");
    assert_eq!(recs[0].stage.as_deref(), Some("event"));
    assert_eq!(recs[0].cause.as_deref(), Some("not json"));
    assert_eq!(
        recs[0].command_sha256,
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(recs[1].rule, "unparsable-command");
    assert_eq!(recs[1].stage.as_deref(), Some("parse"));
    assert_eq!(
        recs[1].cause.as_deref(),
        Some("heredoc without closing line")
    );
    assert_eq!(recs[2].rule, "inspection-limit");
    assert_eq!(recs[2].stage.as_deref(), Some("limits"));
    assert_eq!(recs[2].cause.as_deref(), Some("nesting depth"));
    assert_eq!(recs[3].rule, "ansi-c-delimiter");
}

#[test]
fn thirty_two_concurrent_denies_leave_thirty_two_whole_lines() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let handles: Vec<_> = (0..32)
        .map(|i| {
            let ledger = ledger.clone();
            std::thread::spawn(move || {
                let cmd = format!("cat <<EOF\n{i} $(id)\nEOF");
                run(&claude_event(&cmd), &ledger).code
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), Some(2));
    }
    let recs = records(&ledger);
    assert_eq!(recs.len(), 32);
    let mut hashes: Vec<&str> = recs.iter().map(|r| r.command_sha256.as_str()).collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), 32);
}

#[test]
fn a_read_only_ledger_directory_still_denies_with_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o500)).unwrap();
    let ledger = ro.join("sub/l.jsonl");
    let r = run(&claude_event(LIVE), &ledger);
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    // Root ignores directory permissions; the note is only checked where they hold (the
    // next test checks it in a way root cannot write through).
    if std::fs::metadata(&ledger).is_err() {
        assert!(r.stderr.contains("ledger not written"), "{}", r.stderr);
    }
}

#[test]
fn a_ledger_path_under_a_regular_file_still_denies_with_the_json_and_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let r = run(&claude_event(LIVE), &file.join("sub/l.jsonl"));
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert!(r.stderr.contains("ledger not written"), "{}", r.stderr);
}

#[test]
fn a_ledger_path_that_is_a_directory_still_denies() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&claude_event(LIVE), dir.path());
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert!(r.stderr.contains("ledger not written"), "{}", r.stderr);
}

#[test]
fn the_default_ledger_lives_under_xdg_state_home_then_home_and_tilde_is_expanded() {
    let home = tempfile::tempdir().unwrap();
    let home_dir = home.path().to_str().unwrap();
    let r = run_env(
        &claude_event(LIVE),
        &[
            ("HEREDOC_GUARD_LEDGER", None),
            ("XDG_STATE_HOME", None),
            ("HOME", Some(home_dir)),
        ],
    );
    assert_eq!(r.code, Some(2));
    let default = home.path().join(".local/state/heredoc-guard/ledger.jsonl");
    assert_eq!(records(&default).len(), 1);
    assert!(
        !home.path().join(".claude").exists(),
        "no ~/.claude for a Codex-only user"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&default).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let dir_mode = std::fs::metadata(default.parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir_mode, 0o700);

    let state = home.path().join("state");
    let r = run_env(
        &claude_event(LIVE),
        &[
            ("HEREDOC_GUARD_LEDGER", None),
            ("XDG_STATE_HOME", state.to_str()),
            ("HOME", Some(home_dir)),
        ],
    );
    assert_eq!(r.code, Some(2));
    assert_eq!(records(&state.join("heredoc-guard/ledger.jsonl")).len(), 1);
    // A relative XDG_STATE_HOME is ignored, as the XDG rules say.
    let r = run_env(
        &claude_event(LIVE),
        &[
            ("HEREDOC_GUARD_LEDGER", None),
            ("XDG_STATE_HOME", Some("relative/state")),
            ("HOME", Some(home_dir)),
        ],
    );
    assert_eq!(r.code, Some(2));
    assert_eq!(records(&default).len(), 2);

    let r = run_env(
        &claude_event(LIVE),
        &[
            ("HEREDOC_GUARD_LEDGER", Some("~/moved/l.jsonl")),
            ("HOME", Some(home_dir)),
        ],
    );
    assert_eq!(r.code, Some(2));
    assert_eq!(records(&home.path().join("moved/l.jsonl")).len(), 1);
}

#[test]
fn no_environment_variable_or_flag_turns_a_deny_into_an_allow() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    for flag in ["--off", "--allow", "--disable", "-n", "--dry-run"] {
        let r = run_with(&[flag], &claude_event(LIVE), &ledger);
        assert_eq!(r.code, Some(2), "{flag}: {r:?}");
    }
    for var in [
        "HEREDOC_GUARD_DISABLE",
        "HEREDOC_GUARD_OFF",
        "HEREDOC_GUARD",
        "HEREDOC_GUARD_ALLOW",
    ] {
        let r = run_env(
            &claude_event(LIVE),
            &[(var, Some("1")), ("HEREDOC_GUARD_LEDGER", ledger.to_str())],
        );
        assert_eq!(r.code, Some(2), "{var}");
    }
}
