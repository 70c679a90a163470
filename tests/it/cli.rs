//! The command line: hook mode is no arguments; everything else is a person or a script. A
//! mistake in a known subcommand is a usage error (clap's whole message, exit 2, no deny
//! JSON, no record); only an unknown first argument, which is what a hook set up with
//! arguments sends, denies with a `bad-invocation` record; a bare run on a terminal prints
//! a short help. Help names every subcommand, with examples.

use std::process::Command;

use crate::support::{Run, deny_reason, guard_path, ledger_rule, run_command, run_with};

#[test]
fn help_names_every_subcommand_exit_codes_the_ledger_and_gives_examples() {
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
        "XDG_STATE_HOME",
        "Examples:\n  heredoc-guard install claude",
    ] {
        assert!(
            r.stdout.contains(needle),
            "help lacks {needle}: {}",
            r.stdout
        );
    }
    let r = run_with(&["install", "--help"], b"", &dir.path().join("l"));
    assert!(
        r.stdout.contains("Usage: heredoc-guard install <AGENT>") && r.stdout.contains("Agents:"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("<COMMAND>"), "{}", r.stdout);
    for sub in ["doctor", "log", "explain", "strip", "uninstall"] {
        let r = run_with(&[sub, "--help"], b"", &dir.path().join("l"));
        assert!(r.stdout.contains("Examples:"), "{sub}: {}", r.stdout);
    }
}

#[test]
fn version_prints_the_crate_version_and_the_commit_it_was_built_from() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(&["--version"], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0));
    let line = r.stdout.trim();
    let rest = line
        .strip_prefix(&format!(
            "heredoc-guard {} (commit ",
            env!("CARGO_PKG_VERSION")
        ))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line}"));
    // In a git checkout, the commit is HEAD's; elsewhere (no git) it says unknown.
    let head = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    match head {
        Some(head) => assert!(
            head.starts_with(rest) && rest.len() == 12,
            "{line} vs {head}"
        ),
        None => assert!(
            rest == "unknown" || rest.bytes().all(|b| b.is_ascii_hexdigit()),
            "{line}"
        ),
    }
}

#[test]
fn a_mistake_in_a_known_subcommand_prints_clap_s_whole_message_and_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    for (args, says) in [
        (&["install"][..], "Usage: heredoc-guard install <AGENT>"),
        (&["install", "vim"], "unrecognized subcommand 'vim'"),
        (
            &["config"],
            "the following required arguments were not provided:\n  <AGENT>",
        ),
        (&["config", "vim"], "invalid value 'vim' for '<AGENT>'"),
        (&["explain", "-c", "ls", "ls"], "cannot be used with"),
        (
            &["doctor", "--bogus"],
            "unexpected argument '--bogus' found",
        ),
    ] {
        let r = run_with(args, b"{\"tool_name\":\"Write\"}", &ledger);
        assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
        assert!(r.stdout.is_empty(), "{args:?}: no deny JSON: {}", r.stdout);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.lines().count() > 2 && r.stderr.contains("--help"),
            "{args:?}: the whole message: {}",
            r.stderr
        );
    }
    assert!(!ledger.exists(), "a usage error wrote a ledger record");
}

#[test]
fn an_unknown_first_argument_denies_as_a_bad_invocation_with_clap_s_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    for args in [&["--bogus"][..], &["frobnicate"], &["instal", "claude"]] {
        let r = run_with(args, b"{\"tool_name\":\"Write\"}", &ledger);
        let reason = deny_reason(&r).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert!(
            reason.starts_with("heredoc-guard: unknown first argument")
                && reason.contains("--help"),
            "{reason}"
        );
        assert_eq!(ledger_rule(&ledger), "bad-invocation", "{args:?}");
    }
    let r = run_with(&["instal", "claude"], b"", &ledger);
    assert!(
        r.stderr.contains("tip: some similar subcommands exist"),
        "clap's whole message follows the reason: {}",
        r.stderr
    );
}

/// Runs the guard with `args` on a pseudo-terminal (script(1)), as a person at a shell.
fn on_terminal(args: &str, env: &[(&str, &str)], ledger: &std::path::Path) -> Run {
    let mut command = Command::new("script");
    command
        .args(["-q", "-e", "-c"])
        .arg(format!("{} {args}", guard_path()))
        .arg("/dev/null")
        .env("HEREDOC_GUARD_LEDGER", ledger)
        .env("TERM", "dumb");
    for (k, v) in env {
        command.env(k, v);
    }
    run_command(command, b"")
}

#[test]
fn a_bare_run_on_a_terminal_prints_a_short_help_and_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    let r = on_terminal("", &[], &ledger);
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(
        r.stdout.contains("heredoc-guard is a PreToolUse hook")
            && r.stdout.contains("heredoc-guard install claude")
            && r.stdout.contains("heredoc-guard --help"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("permissionDecision"), "{}", r.stdout);
    // A typo on a terminal is a person's: clap's message, no deny.
    let r = on_terminal("instal claude", &[], &ledger);
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stdout.contains("similar subcommand"), "{}", r.stdout);
    assert!(!r.stdout.contains("permissionDecision"), "{}", r.stdout);
    assert!(!ledger.exists(), "a terminal run wrote a ledger record");
}

#[test]
fn explain_colours_only_on_a_terminal_and_never_with_no_color_set() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    let cmd = "explain 'cat <<EOF\n$(id)\nEOF'";
    let coloured = on_terminal(cmd, &[], &ledger);
    assert!(coloured.stdout.contains('\x1b'), "{:?}", coloured.stdout);
    let plain = on_terminal(cmd, &[("NO_COLOR", "1")], &ledger);
    assert!(!plain.stdout.contains('\x1b'), "{:?}", plain.stdout);
    // An empty NO_COLOR does not count (https://no-color.org).
    let empty = on_terminal(cmd, &[("NO_COLOR", "")], &ledger);
    assert!(empty.stdout.contains('\x1b'), "{:?}", empty.stdout);
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

#[test]
fn a_key_the_guard_reads_given_twice_is_denied_since_readers_disagree_on_which_wins() {
    let dir = tempfile::tempdir().unwrap();
    for event in [
        r#"{"tool_name":"Write","tool_input":{"command":"x"},"tool_name":"Bash"}"#,
        r#"{"tool_name":"Bash","tool_input":{"command":"ls","command":"cat <<EOF\n$(id)\nEOF"}}"#,
        r#"{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":{"command":"ls"}}"#,
    ] {
        let r = crate::support::run(event.as_bytes(), &dir.path().join("l"));
        let reason = deny_reason(&r).unwrap_or_else(|e| panic!("{event}: {e}"));
        assert!(reason.contains("is given twice"), "{reason}");
        assert_eq!(ledger_rule(&dir.path().join("l")), "invalid-event");
    }
}

#[test]
fn tool_input_before_tool_name_is_read_all_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    let live = r#"{"tool_input":{"command":"cat <<EOF\n$(id)\nEOF"},"tool_name":"Bash"}"#;
    let r = crate::support::run(live.as_bytes(), &ledger);
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert_eq!(ledger_rule(&ledger), "heredoc-command-substitution");
    let quoted = r#"{"tool_input":{"command":"cat <<'EOF'\n$(id)\nEOF"},"tool_name":"Bash"}"#;
    let r = crate::support::run(quoted.as_bytes(), &ledger);
    assert_eq!(crate::support::allow_problem(&r), None);
    let patch = r#"{"tool_input":{"command":"cat <<EOF\n$(id)\nEOF"},"tool_name":"apply_patch"}"#;
    let r = crate::support::run(patch.as_bytes(), &ledger);
    assert_eq!(crate::support::allow_problem(&r), None);
}

#[test]
fn the_quick_start_demo_writes_no_record_to_the_user_s_ledger() {
    // The README's first command runs the sample event with the ledger moved into target/.
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let demo = readme
        .lines()
        .find(|l| l.contains("cargo run") && l.contains("examples/event-deny.json"))
        .expect("the README runs examples/event-deny.json");
    assert!(
        demo.contains("HEREDOC_GUARD_LEDGER=target/"),
        "the demo writes to the user's ledger: {demo}"
    );
    let mut command = Command::new(guard_path());
    command.env("HEREDOC_GUARD_LEDGER", "/dev/null");
    let event = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/event-deny.json"
    ))
    .unwrap();
    let r = run_command(command, &event);
    assert!(deny_reason(&r).is_ok(), "{r:?}");
}

#[test]
fn completions_and_the_man_page_come_from_the_command_line_definition() {
    let dir = tempfile::tempdir().unwrap();
    let l = dir.path().join("l");
    for (shell, says) in [
        ("bash", "complete -F _heredoc__guard"),
        ("zsh", "#compdef heredoc-guard"),
        ("fish", "complete -c heredoc-guard"),
    ] {
        let r = run_with(&["completions", shell], b"", &l);
        assert_eq!(r.code, Some(0), "{shell}: {r:?}");
        assert!(r.stdout.contains(says), "{shell}: {}", r.stdout);
        for sub in ["install", "uninstall", "doctor", "explain"] {
            assert!(r.stdout.contains(sub), "{shell} lacks {sub}");
        }
    }
    let r = run_with(&["completions", "tcsh"], b"", &l);
    assert_eq!(r.code, Some(2), "{r:?}");
    let man = run_with(&["man"], b"", &l);
    assert_eq!(man.code, Some(0), "{man:?}");
    assert!(
        man.stdout.starts_with(".ie") || man.stdout.contains(".TH heredoc-guard"),
        "{}",
        man.stdout
    );
    assert!(man.stdout.contains("completions"), "{}", man.stdout);
    // The man page is for packagers: not listed in --help.
    let help = run_with(&["--help"], b"", &l);
    assert!(!help.stdout.contains("\n  man "), "{}", help.stdout);
    assert!(!l.exists(), "nothing recorded");
}
