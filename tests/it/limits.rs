//! Inspection limits and hostile sizes: every one ends in a deny or a verdict, never a
//! crash, and a verdict is a real one: a deny by a rule of the checks, never an internal
//! error (a reader panic). (How time grows with the input is measured by the benchmark,
//! bench/run.)

use crate::support::{Run, allow_problem, claude_event, deny_reason, last_ledger_rule, run};

/// A verdict the checks reached: a silent allow, or a deny whose record names a rule other
/// than `internal-error`. Returns the problem, if any.
fn verdict_problem(r: &Run, ledger: &std::path::Path) -> Option<String> {
    if r.code == Some(0) {
        return allow_problem(r);
    }
    if let Err(e) = deny_reason(r) {
        return Some(e);
    }
    match last_ledger_rule(ledger).as_deref() {
        Some("internal-error") => Some(format!("an internal error, not a verdict: {}", r.stderr)),
        Some(_) => None,
        None => Some("a deny without a ledger record".to_owned()),
    }
}

fn rule_and_reason(stdin: &[u8]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let r = run(stdin, &dir.path().join("l.jsonl"));
    (r.code, r.stderr)
}

#[test]
fn one_hundred_thousand_nested_substitutions_are_denied_by_the_nesting_limit() {
    let cmd = format!(
        "echo {}x{}\ncat <<EOF\nhi\nEOF",
        "$(echo ".repeat(100_000),
        ")".repeat(100_000)
    );
    let (code, stderr) = rule_and_reason(&claude_event(&cmd));
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("inspection limit: nesting depth"),
        "{stderr}"
    );
}

/// A line without `<<`, a quote, an escape or `$` is allowed unread, however deep it
/// nests (100,000 subshells): it holds no heredoc and cannot build one.
#[test]
fn deep_nesting_without_a_heredoc_or_an_expansion_stays_on_the_fast_path() {
    let cmd = format!("{}echo x{}", "( ".repeat(100_000), " )".repeat(100_000));
    let dir = tempfile::tempdir().unwrap();
    let r = run(&claude_event(&cmd), &dir.path().join("l"));
    assert_eq!(allow_problem(&r), None);
}

/// A line with expansions is read even without `<<` (`eval` could build a heredoc from
/// them): 100,000 nested `$(` are then past the nesting limit, a deny.
#[test]
fn deep_nesting_of_substitutions_on_one_line_is_read_and_denied_past_the_nesting_limit() {
    let cmd = format!("echo {}x{}", "$(echo ".repeat(100_000), ")".repeat(100_000));
    let (code, stderr) = rule_and_reason(&claude_event(&cmd));
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("inspection limit: nesting depth"),
        "{stderr}"
    );
}

#[test]
fn nesting_just_under_the_limit_gets_a_verdict_for_every_construct() {
    let n = heredoc_guard::reader::MAX_NESTING - 2;
    let shapes = [
        format!("echo {}x{}", "$(echo ".repeat(n), ")".repeat(n)),
        format!("{}true; {}", "{ ".repeat(n), "}; ".repeat(n)),
        format!("{}true; {}", "if true; then ".repeat(n), "fi; ".repeat(n)),
        format!("cat {}x{}", "<(cat ".repeat(n), ")".repeat(n)),
        format!("echo {}x{}", "${x:-".repeat(n), "}".repeat(n)),
    ];
    for shape in shapes {
        let cmd = format!("{shape}\ncat <<EOF\n$HOME\nEOF");
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("l");
        let r = run(&claude_event(&cmd), &ledger);
        assert_eq!(verdict_problem(&r, &ledger), None, "{}", &cmd[..60]);
    }
}

#[test]
fn nesting_inside_a_word_holding_a_heredoc_gets_a_verdict() {
    let n = 150;
    let cmd = format!(
        "echo {}$(cat <<EOF\n$(id)\nEOF\n){}",
        "\"$(echo ".repeat(n),
        ")\"".repeat(n)
    );
    let (code, stderr) = rule_and_reason(&claude_event(&cmd));
    assert_eq!(code, Some(2), "{stderr}");
}

/// An event just under the event size limit (8 MiB) is read and answered; a heredoc
/// command over the command size limit (1 MiB) is denied by that limit, with advice that
/// can help.
#[test]
fn an_event_at_the_size_limit_gets_a_verdict() {
    let body = "x".repeat(heredoc_guard::limits::MAX_EVENT_BYTES - 1024);
    let event =
        serde_json::json!({"tool_name": "Write", "tool_input": {"content": body}}).to_string();
    let dir = tempfile::tempdir().unwrap();
    let r = run(event.as_bytes(), &dir.path().join("l"));
    assert_eq!(allow_problem(&r), None);
    let cmd = format!("cat <<EOF\n{}\nEOF", "y".repeat(2 * 1024 * 1024));
    let (code, stderr) = rule_and_reason(&claude_event(&cmd));
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("inspection limit: command size"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("quoted heredoc"),
        "advice that cannot help: {stderr}"
    );
}

#[test]
fn an_event_over_the_stdin_limit_is_denied() {
    let big = vec![b' '; heredoc_guard::limits::MAX_EVENT_BYTES + 10];
    let (code, stderr) = rule_and_reason(&big);
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("inspection limit: event size"),
        "{stderr}"
    );
    // Over the size limits any heredoc is denied, quoted or not: no heredoc advice.
    assert!(
        !stderr.contains("quoted heredoc") && !stderr.contains("<<'EOF'"),
        "advice that cannot help: {stderr}"
    );
}

#[test]
fn a_one_mib_unquoted_body_gets_a_verdict_both_ways() {
    let clean = format!(
        "cat <<EOF\n{}EOF",
        "text with $HOME and ${USER:-x}\n".repeat(33_000)
    );
    let dir = tempfile::tempdir().unwrap();
    let r = run(&claude_event(&clean), &dir.path().join("l"));
    assert_eq!(allow_problem(&r), None);
    let live = format!(
        "cat <<EOF\n{}$(id)\nEOF",
        "text with $HOME and ${USER:-x}\n".repeat(33_000)
    );
    let r = run(&claude_event(&live), &dir.path().join("l"));
    assert!(deny_reason(&r).is_ok());
    assert!(r.stderr.contains("line 33002"), "{}", r.stderr);
}

#[test]
fn too_many_heredocs_are_denied_by_the_limit() {
    // (All on one command's line, each body an empty line: the count is reached in about
    // half the time budget on the 2-core machine; 16,385 commands of one heredoc each cost
    // about the whole budget there and may end on the time limit first, which denies too.)
    let n = heredoc_guard::reader::MAX_HEREDOCS + 1;
    let cmd = format!("cat {}\n{}", "<<E ".repeat(n), "E\n".repeat(n));
    let (code, stderr) = rule_and_reason(&claude_event(&cmd));
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("inspection limit: number of heredocs"),
        "{stderr}"
    );
}

#[test]
fn inputs_the_fuzzer_found_get_a_verdict_as_raw_stdin_and_as_a_command() {
    // Each stalled the parser the guard used before its own reader (a loop, exponential
    // backtracking, endless allocation); the guard must answer, allow or deny. Raw fuzz
    // bytes are not an event: deny.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/regressions") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("read");
        let (code, _) = rule_and_reason(&bytes);
        assert_eq!(code, Some(2), "{} as raw stdin", path.display());
        let command = String::from_utf8_lossy(&bytes);
        let tmp = tempfile::tempdir().unwrap();
        let ledger = tmp.path().join("l");
        let r = run(&claude_event(&command), &ledger);
        assert_eq!(
            verdict_problem(&r, &ledger),
            None,
            "{} as a command",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 3, "only {seen} regressions");
}
