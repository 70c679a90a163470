//! The verdict never waits on the ledger: a FIFO, a device or a socket at the ledger path
//! cannot hang the hook or take the deny away, and a deny whose output cannot be printed
//! still exits 2.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::{claude_event, deny_reason, guard_path, run, run_command};

const LIVE: &str = "cat <<EOF\n$(id)\nEOF";

fn mkfifo(path: &std::path::Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_fifo_without_a_reader_at_the_ledger_path_does_not_hang_the_deny() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("ledger.fifo");
    mkfifo(&fifo);
    let started = Instant::now();
    // Under timeout(1): a guard that blocks on the FIFO is killed and fails the test.
    let mut command = Command::new("timeout");
    command
        .args(["10", guard_path()])
        .env("HEREDOC_GUARD_LEDGER", &fifo);
    let r = run_command(command, &claude_event(LIVE));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert!(r.stderr.contains("ledger not written"), "{}", r.stderr);
}

#[test]
fn a_fifo_with_a_reader_gets_no_record_since_it_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("ledger.fifo");
    mkfifo(&fifo);
    // A reader that holds the FIFO open and collects whatever is written, for 3 s.
    let mut reader = Command::new("timeout")
        .arg("3")
        .arg("cat")
        .arg(&fifo)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let r = run(&claude_event(LIVE), &fifo);
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    let out = {
        use std::io::Read;
        let mut s = String::new();
        let _ = reader.stdout.take().unwrap().read_to_string(&mut s);
        s
    };
    let _ = reader.wait();
    assert_eq!(out, "", "a record went into the FIFO");
}

#[test]
fn a_character_device_at_the_ledger_path_is_not_written_and_the_deny_stands() {
    let r = run(&claude_event(LIVE), std::path::Path::new("/dev/null"));
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
}

#[test]
fn a_deny_with_stdout_and_stderr_closed_still_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("\"$0\" >&- 2>&-; echo \"rc=$?\"")
        .arg(guard_path())
        .env("HEREDOC_GUARD_LEDGER", dir.path().join("l.jsonl"));
    let r = run_command(command, &claude_event(LIVE));
    assert_eq!(r.stdout.trim(), "rc=2", "{r:?}");
    assert!(
        dir.path().join("l.jsonl").exists(),
        "the ledger record is still written"
    );
}

#[test]
fn a_deny_into_a_closed_pipe_still_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg("\"$0\" | true; echo \"rc=${PIPESTATUS[0]}\"")
        .arg(guard_path())
        .env("HEREDOC_GUARD_LEDGER", dir.path().join("l.jsonl"));
    let r = run_command(command, &claude_event(LIVE));
    assert_eq!(r.stdout.trim(), "rc=2", "{r:?}");
}
