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

/// Runs the guard in hook mode under timeout(1) with `env` set on top of a ledger in a
/// temporary directory; returns the run and how long it took.
fn timed(
    env: &[(&str, &std::ffi::OsStr)],
    dir: &std::path::Path,
) -> (crate::support::Run, Duration) {
    let mut command = Command::new("timeout");
    command
        .args(["20", guard_path()])
        .env("HEREDOC_GUARD_LEDGER", dir.join("l.jsonl"))
        .env("HOME", dir)
        .env_remove("XDG_STATE_HOME");
    for (k, v) in env {
        command.env(k, v);
    }
    let started = Instant::now();
    let r = run_command(command, &claude_event(LIVE));
    (r, started.elapsed())
}

#[test]
fn no_environment_delays_the_exit_after_a_deny() {
    // Each once made (or could make) the process wait after printing its verdict: a zone
    // file on a FIFO or an endless device, a home, state directory or ledger on one.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let fifo = fifo.as_os_str();
    let zero = std::ffi::OsStr::new("/dev/zero");
    let colon_fifo = format!(":{}", dir.path().join("fifo").display());
    let cases: Vec<(&str, Vec<(&str, &std::ffi::OsStr)>)> = vec![
        ("TZ on a FIFO", vec![("TZ", fifo)]),
        ("TZ=:FIFO", vec![("TZ", std::ffi::OsStr::new(&colon_fifo))]),
        ("TZ on /dev/zero", vec![("TZ", zero)]),
        (
            "TZ=:/dev/zero",
            vec![("TZ", std::ffi::OsStr::new(":/dev/zero"))],
        ),
        ("ledger on a FIFO", vec![("HEREDOC_GUARD_LEDGER", fifo)]),
        ("ledger on /dev/zero", vec![("HEREDOC_GUARD_LEDGER", zero)]),
        (
            "HOME on a FIFO, default ledger",
            vec![
                ("HEREDOC_GUARD_LEDGER", std::ffi::OsStr::new("")),
                ("HOME", fifo),
            ],
        ),
        (
            "HOME on /dev/zero, default ledger",
            vec![
                ("HEREDOC_GUARD_LEDGER", std::ffi::OsStr::new("")),
                ("HOME", zero),
            ],
        ),
        (
            "XDG_STATE_HOME on a FIFO",
            vec![
                ("HEREDOC_GUARD_LEDGER", std::ffi::OsStr::new("")),
                ("XDG_STATE_HOME", fifo),
            ],
        ),
        (
            "XDG_STATE_HOME on /dev/zero",
            vec![
                ("HEREDOC_GUARD_LEDGER", std::ffi::OsStr::new("")),
                ("XDG_STATE_HOME", zero),
            ],
        ),
    ];
    let mut slow = Vec::new();
    for (what, env) in &cases {
        let (r, took) = timed(env, dir.path());
        assert!(deny_reason(&r).is_ok(), "{what}: {r:?}");
        // Generous for a loaded machine; a hang is stopped by timeout(1) at 20 s.
        if took > Duration::from_secs(5) {
            slow.push(format!("{what}: {took:?}"));
        }
    }
    assert!(slow.is_empty(), "the exit waited: {slow:?}");
}

#[test]
fn a_zone_file_on_a_fifo_does_not_change_the_recorded_time_which_is_utc() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let (r, _) = timed(&[("TZ", fifo.as_os_str())], dir.path());
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    let text = std::fs::read_to_string(dir.path().join("l.jsonl")).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert!(v["ts"].as_str().is_some_and(|t| t.ends_with('Z')), "{v}");
}

/// The hook process is bounded from outside the check too: a path no work meter covers
/// (here, an input that never ends) is ended by SIGALRM four seconds in (or 200 ms of CPU
/// time in), a signal the
/// installed launcher and Claude Code's `"onFailure": "block"` turn into a deny, far below
/// the clients' hook timeout; and its address space is capped at 4 GiB, so a runaway
/// allocation aborts instead of taking the machine's memory.
#[test]
fn a_hook_whose_input_never_ends_is_ended_by_its_alarm_within_its_address_space_cap() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = Command::new(guard_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the hook");
    // Keep its stdin open and empty: it waits for the rest of the event.
    let _stdin = child.stdin.take();
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(500));
    let limits =
        std::fs::read_to_string(format!("/proc/{}/limits", child.id())).expect("the hook's limits");
    let address_space = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))
        .expect("an address-space line");
    assert!(
        address_space.split_whitespace().nth(3) == Some("4294967296"),
        "{address_space}"
    );
    // And a CPU-time timer that sends SIGALRM (a loop the work meter does not see ends
    // too): the kernel lists it with the process's CPU clock (-6, `CPUCLOCK_SCHED` of the
    // process itself), never the wall clock (1).
    let timers =
        std::fs::read_to_string(format!("/proc/{}/timers", child.id())).expect("the hook's timers");
    assert!(
        timers.contains("signal: 14/") && timers.contains("ClockID: -6"),
        "no CPU-time SIGALRM timer:\n{timers}"
    );
    let status = child.wait().expect("the hook ends");
    let took = started.elapsed();
    assert_eq!(status.signal(), Some(14), "{status:?}: ended by SIGALRM");
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(10),
        "took {took:?}"
    );
}
