//! Runs every case in `fixtures/*.txt` through the built binary (see fixtures/README.md).

use std::path::{Path, PathBuf};

use crate::oracle::{self, Sandbox};
use crate::support::{
    allow_problem, claude_event, codex_event, deny_reason, last_ledger_rule, run,
};

/// How a case may be run in bash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunIn {
    No,
    Bash,
    /// bash 5.3 syntax: bash 5.2 cannot run it; the guard denies it anyway.
    Bash53,
}

/// One fixture case.
#[derive(Clone, Debug)]
pub struct Case {
    pub file: String,
    pub name: String,
    /// `None` for allow, the rule id for deny.
    pub deny: Option<String>,
    pub run: RunIn,
    pub event: bool,
    pub body: String,
}

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Reads every case of every fixture file.
pub fn load() -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("fixture file");
        let file = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        parse_file(&file, &text, &mut cases);
    }
    cases
}

fn parse_file(file: &str, text: &str, out: &mut Vec<Case>) {
    let mut current: Option<Case> = None;
    let mut in_header = false;
    let finish = |case: Option<Case>, out: &mut Vec<Case>| {
        if let Some(mut c) = case {
            c.body = c
                .body
                .trim_end_matches('\n')
                .replace("⟨TAB⟩", "\t")
                .replace("⟨CR⟩", "\r");
            out.push(c);
        }
    };
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches('\n');
        if let Some(name) = content.strip_prefix("### case: ") {
            finish(current.take(), out);
            current = Some(Case {
                file: file.to_owned(),
                name: name.trim().to_owned(),
                deny: None,
                run: RunIn::No,
                event: false,
                body: String::new(),
            });
            in_header = true;
            continue;
        }
        let Some(case) = current.as_mut() else {
            continue; // comments before the first case
        };
        if in_header {
            if let Some(expect) = content.strip_prefix("### expect: ") {
                case.deny = match expect.trim() {
                    "allow" => None,
                    other => Some(
                        other
                            .strip_prefix("deny ")
                            .unwrap_or_else(|| panic!("{file}: bad expect line {content:?}"))
                            .trim()
                            .to_owned(),
                    ),
                };
                continue;
            }
            if let Some(r) = content.strip_prefix("### run: ") {
                case.run = match r.trim() {
                    "bash" => RunIn::Bash,
                    "bash53" => RunIn::Bash53,
                    other => panic!("{file}: bad run line {other:?}"),
                };
                continue;
            }
            if content == "### kind: event" {
                case.event = true;
                continue;
            }
            assert!(
                !content.starts_with("###"),
                "{file}: unknown header {content:?}"
            );
            in_header = false;
        }
        case.body.push_str(line);
    }
    finish(current.take(), out);
}

/// Checks one stdin against a case's expectation; returns a problem, if any.
fn check(case: &Case, stdin: &[u8], shape: &str, ledger: &Path) -> Option<String> {
    let _ = std::fs::remove_file(ledger);
    let r = run(stdin, ledger);
    let problem = match &case.deny {
        None => allow_problem(&r),
        Some(rule) => match deny_reason(&r) {
            Err(p) => Some(p),
            Ok(reason) if reason.chars().count() > 600 => {
                Some(format!("reason too long: {reason}"))
            }
            Ok(_) => match last_ledger_rule(ledger) {
                Some(got) if &got == rule => None,
                got => Some(format!(
                    "ledger rule {got:?}, expected {rule}; stderr {}",
                    r.stderr
                )),
            },
        },
    };
    problem.map(|p| format!("{}:{} [{shape}]: {p}", case.file, case.name))
}

#[test]
fn fixture_tables_hold_at_least_150_command_cases_with_unique_names() {
    let cases = load();
    let commands = cases.iter().filter(|c| !c.event).count();
    assert!(commands >= 150, "only {commands} command cases");
    let mut names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate case names");
    for c in &cases {
        assert!(
            c.name.starts_with("allows_") == c.deny.is_none()
                && (c.name.starts_with("allows_") || c.name.starts_with("denies_")),
            "{}: the name must say allows_/denies_ as the expectation does",
            c.name
        );
    }
}

#[test]
fn every_fixture_case_gets_its_expected_verdict_as_claude_and_codex_event() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger.jsonl");
    let mut problems = Vec::new();
    let cases = load();
    for case in &cases {
        if case.event {
            problems.extend(check(case, case.body.as_bytes(), "event", &ledger));
        } else {
            problems.extend(check(case, &claude_event(&case.body), "claude", &ledger));
            problems.extend(check(case, &codex_event(&case.body), "codex", &ledger));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn guard_denies_exactly_where_bash_runs_the_canary_for_runnable_fixtures() {
    let Some(bash) = oracle::bash_path() else {
        panic!("bash is required for the oracle tests");
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger.jsonl");
    let mut problems = Vec::new();
    let mut ran = 0;
    for case in load().iter().filter(|c| c.run != RunIn::No) {
        let sandbox = Sandbox::new();
        let outcome = sandbox.run(&bash, &case.body);
        let denied = run(&claude_event(&case.body), &ledger).code == Some(2);
        ran += 1;
        match case.run {
            RunIn::Bash => {
                let bypass = outcome.canary_ran && !denied;
                // A deny where bash ran nothing is only right when bash also rejected
                // the command (a syntax error), or when the fixture expects that deny
                // by design (a missing closer, an ANSI-C delimiter).
                let false_denial = denied
                    && !outcome.canary_ran
                    && !outcome.syntax_error
                    && case.deny.as_deref() != Some("unparsable-command");
                if bypass || false_denial {
                    problems.push(format!(
                        "{}: bash ran canary: {}, guard denied: {denied}",
                        case.name, outcome.canary_ran
                    ));
                }
            }
            RunIn::Bash53 => {
                if !denied {
                    problems.push(format!("{}: bash 5.3 syntax must deny", case.name));
                }
            }
            RunIn::No => {}
        }
    }
    assert!(ran >= 100, "only {ran} runnable cases");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
