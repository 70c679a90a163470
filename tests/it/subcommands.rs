//! `explain` and `strip`, through the built binary: the command as an argument, with `-c`
//! or on stdin; `strip` against fixtures/strip.cases.

use crate::fixtures::fixtures_dir;
use crate::support::run_with;

struct StripCase {
    name: String,
    input: String,
    /// `None`: the command must not be stripped (exit 2, nothing on stdout).
    output: Option<String>,
}

fn decode(block: &str) -> String {
    block
        .strip_suffix('\n')
        .unwrap_or(block)
        .replace("⟨TAB⟩", "\t")
        .replace("⟨CR⟩", "\r")
}

fn strip_cases() -> Vec<StripCase> {
    let text = std::fs::read_to_string(fixtures_dir().join("strip.cases")).expect("strip.cases");
    let mut cases = Vec::new();
    for chunk in text.split("### strip: ").skip(1) {
        let (name, rest) = chunk.split_once('\n').expect("name line");
        let rest = rest.strip_prefix("### input\n").expect("### input");
        let (input, output) = rest.split_once("### output").expect("### output");
        let output = if output.starts_with(": error") {
            None
        } else {
            let body = output.strip_prefix('\n').expect("output block");
            Some(decode(body.trim_end_matches('\n')))
        };
        cases.push(StripCase {
            name: name.trim().to_owned(),
            input: decode(input),
            output,
        });
    }
    cases
}

#[test]
fn strip_meets_every_case_in_the_strip_table() {
    let dir = tempfile::tempdir().unwrap();
    let cases = strip_cases();
    assert!(cases.len() >= 20, "only {} strip cases", cases.len());
    let mut problems = Vec::new();
    for case in &cases {
        let r = run_with(&["strip", "-c", &case.input], b"", &dir.path().join("l"));
        match &case.output {
            Some(expected) => {
                if r.code != Some(0) || &r.stdout != expected {
                    problems.push(format!(
                        "{}: exit {:?}\n--- expected\n{expected}\n--- got\n{}\n--- stderr\n{}",
                        case.name, r.code, r.stdout, r.stderr
                    ));
                }
            }
            None => {
                if r.code != Some(2) || !r.stdout.is_empty() {
                    problems.push(format!(
                        "{}: expected exit 2 and no output, got {r:?}",
                        case.name
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn strip_reads_the_command_from_stdin_too() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(
        &["strip"],
        b"cat <<'EOF'\nrm -rf /\nEOF\necho ok",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(0));
    assert_eq!(r.stdout, "cat <<'EOF'\nEOF\necho ok");
}

#[test]
fn strip_says_its_name_once_when_it_cannot_read_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(
        &["strip", "cat <<EOF\nno closer"],
        b"",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr
            .starts_with("heredoc-guard strip: could not read the command at line 1"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.matches("heredoc-guard").count(), 1, "{}", r.stderr);
}

#[test]
fn explain_and_strip_take_the_command_as_an_argument_or_with_c() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = "cat <<EOF\n$(id)\nEOF";
    for args in [&["explain", cmd][..], &["explain", "-c", cmd]] {
        let r = run_with(args, b"", &dir.path().join("l"));
        assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
        assert!(
            r.stdout
                .contains("verdict: deny (heredoc-command-substitution)"),
            "{}",
            r.stdout
        );
    }
    for args in [
        &["strip", "cat <<'E'\nx\nE"][..],
        &["strip", "-c", "cat <<'E'\nx\nE"],
    ] {
        let r = run_with(args, b"", &dir.path().join("l"));
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (Some(0), "cat <<'E'\nE"),
            "{args:?}"
        );
    }
}

#[test]
fn explain_lists_heredocs_and_substitutions_and_exits_like_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = "cat <<EOF\nhi $(id) `date`\nEOF\ncat <<-'X'\n\tq\n\tX";
    let r = run_with(&["explain", "-c", cmd], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stdout
            .contains("heredoc 1 at 1:5: <<EOF (unquoted, top level)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("2:4: command substitution $(...): $(id)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("2:10: backtick command substitution: `date`"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("heredoc 2 at 4:5: <<-'X' (quoted, strips tabs, top level)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("verdict: deny (heredoc-command-substitution)"),
        "{}",
        r.stdout
    );
    assert!(
        !r.stdout.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    let r = run_with(
        &["explain"],
        b"cat <<'EOF'\n$(id)\nEOF",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("verdict: allow"), "{}", r.stdout);
    // An allow says why: per heredoc why its body is data, and what cleared the command.
    assert!(
        r.stdout
            .contains("stays data: the delimiter is quoted: every shell keeps the body as written"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("why: every shell ends each heredoc where it appears to end"),
        "{}",
        r.stdout
    );
}

#[test]
fn explain_json_gives_the_same_facts_for_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = "x=$(cat <<EOF\nhi $(id)\nEOF\n)";
    let r = run_with(
        &["explain", "--json", "-c", cmd],
        b"",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(2));
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(v["verdict"], "deny");
    assert_eq!(v["rule"], "heredoc-command-substitution");
    assert_eq!(v["heredocs"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["heredocs"][0]["quoting"], "unquoted");
    assert_eq!(
        v["heredocs"][0]["context"],
        "inside $(...), <(...) or ${ ...; }"
    );
    assert_eq!(v["findings"][0]["line"], 2);
    assert_eq!(v["findings"][0]["column"], 4);
    assert_eq!(v["findings"][0]["excerpt"], "$(id)");
    let r = run_with(
        &["explain", "--json", "-c", "ls"],
        b"",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(v["verdict"], "allow");
    assert_eq!(v["why"], "nothing-to-read");
    assert_eq!(v["heredocs"].as_array().map(Vec::len), Some(0));
    let r = run_with(
        &[
            "explain",
            "--json",
            "-c",
            "cat <<E\nno expansion\nE\nx=$(cat <<F\n$HOME\nF\n)",
        ],
        b"",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(v["why"], "judged");
    assert_eq!(v["heredocs"][0]["stays_data"], "nothing-expands");
    assert_eq!(v["heredocs"][1]["stays_data"], "expansions-run-nothing");
    assert_eq!(v["findings"].as_array().map(Vec::len), Some(0));
}

#[test]
fn explain_reports_an_unparsable_command_as_a_deny() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(
        &["explain", "-c", "cat <<EOF\nno closer"],
        b"",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(2));
    assert!(r.stdout.contains("unparsable-command"), "{}", r.stdout);
}
