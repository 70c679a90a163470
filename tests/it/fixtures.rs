//! Runs every case in `fixtures/*.txt` through the built binary (see fixtures/README.md).

use std::path::{Path, PathBuf};

use crate::oracle::{self, Sandbox};
use crate::support::{GuardHome, allow_problem, claude_event, deny_reason, last_ledger_rule, run};

/// One fixture case.
#[derive(Clone, Debug)]
pub struct Case {
    pub file: String,
    pub name: String,
    /// `None` for allow, the rule id for deny.
    pub deny: Option<String>,
    /// Harmless to run in the shells (only `cat`, `true`, builtins and `canary`).
    pub run: bool,
    /// `run: shells with locales`: run where the shells find GBK, Big5 and GB18030
    /// ([`oracle::locales`]); a deny is then one the shells confirm (some runs the canary).
    pub locales: bool,
    pub event: bool,
    /// The command names an evaluator for its heredoc text (`eval`, `source`, a value run
    /// as a command name…): outside the promise, allowed, and a shell may run the canary.
    pub explicit: Option<String>,
    /// `### home: guarded`: run with the user-level hooks installed in the throwaway HOME
    /// (otherwise: nothing installed).
    pub guarded: bool,
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
                run: false,
                locales: false,
                event: false,
                explicit: None,
                guarded: false,
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
                (case.run, case.locales) = match r.trim() {
                    "shells" => (true, false),
                    "shells with locales" => (true, true),
                    other => panic!("{file}: bad run line {other:?}"),
                };
                continue;
            }
            if content == "### kind: event" {
                case.event = true;
                continue;
            }
            if let Some(what) = content.strip_prefix("### explicit: ") {
                case.explicit = Some(what.trim().to_owned());
                continue;
            }
            if let Some(h) = content.strip_prefix("### home: ") {
                case.guarded = match h.trim() {
                    "guarded" => true,
                    "bare" => false,
                    other => panic!("{file}: bad home line {other:?}"),
                };
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

/// Checks one stdin against a case's expectation, run in `home`; returns a problem, if any.
fn check(
    case: &Case,
    stdin: &[u8],
    shape: &str,
    home: &GuardHome,
    ledger: &Path,
) -> Option<String> {
    let _ = std::fs::remove_file(ledger);
    let r = home.run(stdin, ledger);
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
        assert!(
            c.explicit.is_none() || c.deny.is_none(),
            "{}: a case whose evaluator is explicit is allowed",
            c.name
        );
    }
}

#[test]
fn every_fixture_case_gets_its_expected_verdict_as_claude_and_codex_event() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger.jsonl");
    // Throwaway homes: nothing installed, and the user-level hooks installed.
    let (bare, guarded) = (GuardHome::bare(), GuardHome::guarded());
    let mut problems = Vec::new();
    let cases = load();
    for case in &cases {
        let home = if case.guarded { &guarded } else { &bare };
        if case.event {
            problems.extend(check(case, case.body.as_bytes(), "event", home, &ledger));
        } else {
            let (claude, codex) = (home.claude_event(&case.body), home.codex_event(&case.body));
            problems.extend(check(case, &claude, "claude", home, &ledger));
            problems.extend(check(case, &codex, "codex", home, &ledger));
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
fn guard_denies_every_runnable_fixture_that_a_shell_runs_the_canary_in() {
    let shells = oracle::shells();
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger.jsonl");
    let mut problems = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    let mut ran = 0;
    let mut explicit_ran = 0;
    let mut no_locales: Vec<String> = Vec::new();
    for case in load().iter().filter(|c| c.run) {
        let sandbox = if case.locales {
            match oracle::locales() {
                Some(dir) => Sandbox::with_locales(dir),
                None => {
                    no_locales.push(case.name.clone());
                    continue;
                }
            }
        } else {
            Sandbox::new()
        };
        let ran_in: Vec<&str> = shells
            .iter()
            .filter(|s| sandbox.run(s, &case.body).canary_ran)
            .map(|s| s.name.as_str())
            .collect();
        let denied = run(&claude_event(&case.body), &ledger).code == Some(2);
        ran += 1;
        if !ran_in.is_empty() && !denied && case.explicit.is_none() {
            problems.push(format!(
                "{}: BYPASS: the canary ran in {}",
                case.name,
                ran_in.join(", ")
            ));
        }
        // A fixture that says a substitution runs must show one running somewhere; where
        // the shells that would run it are not here, the case is skipped, and said so.
        if case.deny.as_deref() == Some("heredoc-command-substitution") && ran_in.is_empty() {
            if oracle::missing_shells().is_empty() {
                problems.push(format!(
                    "{}: expects a substitution to run, but no shell ran the canary",
                    case.name
                ));
            } else {
                skipped.push(case.name.clone());
            }
        }
        // A locale case that denies shows the shells reading its text as the rule says
        // (bash, in GBK, reads `中\\` as one character and runs the body's `$(canary)`).
        if case.locales && case.deny.is_some() && ran_in.is_empty() {
            problems.push(format!(
                "{}: expects a locale to make the shells run heredoc text, but none ran the canary",
                case.name
            ));
        }
        // Allowed with the canary running: only where the command itself names the
        // evaluator (the case says which), outside the promise by design.
        if case.deny.is_none() && !ran_in.is_empty() && case.explicit.is_none() {
            problems.push(format!(
                "{}: expects allow, but the canary ran in {}",
                case.name,
                ran_in.join(", ")
            ));
        }
        if !ran_in.is_empty() && !denied {
            explicit_ran += 1;
        }
    }
    oracle::tell(&format!(
        "fixtures run in the shells: {ran} cases ({explicit_ran} allowed that run the canary through an evaluator the command names){}{}",
        if skipped.is_empty() {
            String::new()
        } else {
            format!(
                "; {} not judged, since no shell here runs their substitution (it needs {}): {}",
                skipped.len(),
                oracle::missing_shells().join(", "),
                skipped.join(", ")
            )
        },
        match oracle::locales() {
            Some(dir) if no_locales.is_empty() => format!(
                "; the locale cases with GBK, Big5 and GB18030 built by localedef in {}",
                dir.display()
            ),
            _ if no_locales.is_empty() => String::new(),
            _ => format!(
                "; {} locale cases not run, since localedef or its charmaps (the locales package) are missing: {}",
                no_locales.len(),
                no_locales.join(", ")
            ),
        }
    ));
    if !no_locales.is_empty() && oracle::shells_required() {
        problems.push(format!(
            "{} locale cases need localedef and the GBK, BIG5 and GB18030 charmaps (the locales package), which are required here",
            no_locales.len()
        ));
    }
    assert!(ran >= 100, "only {ran} runnable cases");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A long PR body: thousands of `)` (numbered lists, links, smileys balanced by `(`), read
/// in a quoted heredoc inside `$(…)`. brush-parser denied it; bash runs it as data.
fn long_pr_body_command(quote: &str) -> String {
    let mut body = String::new();
    // 1,800 lines: under the 128 KiB a single argument to `bash -c` may hold.
    for i in 0..1800 {
        body.push_str(&format!(
            "({i}) item, see [docs](https://x.io/{i}) (cc @a) `canary`\n"
        ));
    }
    format!("true --body \"$(cat <<{quote}EOF{quote}\n{body}EOF\n)\"")
}

#[test]
fn allows_long_quoted_pr_body_with_thousands_of_closing_parens_and_no_shell_runs_it() {
    let command = long_pr_body_command("'");
    assert!(command.matches(')').count() > 5000);
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(&claude_event(&command), &dir.path().join("ledger.jsonl"));
    assert_eq!(allow_problem(&r), None);
    let sandbox = Sandbox::new();
    for shell in oracle::shells() {
        assert!(
            !sandbox.run(shell, &command).canary_ran,
            "{} ran the canary",
            shell.name
        );
    }
}

#[test]
fn denies_long_unquoted_pr_body_with_thousands_of_closing_parens_whose_backquotes_run() {
    let command = long_pr_body_command("");
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(&claude_event(&command), &dir.path().join("ledger.jsonl"));
    assert!(deny_reason(&r).is_ok(), "allowed: {}", r.stdout);
    let sandbox = Sandbox::new();
    assert!(
        oracle::shells()
            .iter()
            .any(|s| sandbox.run(s, &command).canary_ran)
    );
}
