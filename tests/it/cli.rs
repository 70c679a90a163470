//! The command line: help, version, and unknown arguments that deny in hook mode.

use crate::support::{deny_reason, run_with};

#[test]
fn help_names_every_subcommand_exit_codes_and_the_ledger_variable() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(&["--help"], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0));
    for needle in [
        "install",
        "uninstall",
        "doctor",
        "log",
        "config",
        "explain",
        "strip",
        "0 allow",
        "2 deny",
        "HEREDOC_GUARD_LEDGER",
    ] {
        assert!(r.stdout.contains(needle), "help lacks {needle}");
    }
}

#[test]
fn version_prints_the_crate_version() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(&["--version"], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0));
    assert_eq!(
        r.stdout.trim(),
        format!("heredoc-guard {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn unknown_arguments_deny_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["--bogus"][..], &["frobnicate"], &["config", "vim"]] {
        let r = run_with(args, b"{\"tool_name\":\"Write\"}", &dir.path().join("l"));
        let reason = deny_reason(&r).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert!(reason.contains("--help"), "{reason}");
    }
}

#[test]
fn an_event_with_invalid_utf8_is_denied_as_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let mut event = br#"{"tool_name":"Bash","tool_input":{"command":"cat <<EOF"#.to_vec();
    event.extend_from_slice(&[0xff, 0xfe]);
    event.extend_from_slice(br#"\nEOF"}}"#);
    let r = crate::support::run(&event, &dir.path().join("l"));
    let reason = deny_reason(&r).expect("deny");
    assert!(
        reason.starts_with("heredoc-guard could not read the hook event"),
        "{reason}"
    );
}
