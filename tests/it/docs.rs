//! Every example in README.md and SKILL.md marked ```` ```sh deny RULE ```` or
//! ```` ```sh allow ```` gets that verdict from the built binary: a deny with that very
//! rule (an internal error or an unreadable command is no pass), an allow silent.

use std::path::Path;

use crate::support::{allow_problem, claude_event, deny_reason, ledger_rule, run};

/// Each example: `Some(rule)` for a deny, `None` for an allow, and the command.
fn examples(file: &str) -> Vec<(Option<String>, String)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut out = Vec::new();
    let mut current: Option<(Option<String>, String)> = None;
    for line in text.lines() {
        let fence = line.trim_end();
        match &mut current {
            None => {
                if let Some(rule) = fence.strip_prefix("```sh deny") {
                    let rule = rule.trim();
                    assert!(!rule.is_empty(), "{file}: a deny example names no rule");
                    current = Some((Some(rule.to_owned()), String::new()));
                } else if fence == "```sh allow" {
                    current = Some((None, String::new()));
                }
            }
            Some(_) if fence == "```" => out.extend(current.take()),
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    out.into_iter()
        .map(|(d, b)| (d, b.trim_end_matches('\n').to_owned()))
        .collect()
}

fn check(file: &str, minimum: usize) {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    let all = examples(file);
    assert!(all.len() >= minimum, "{file}: only {} examples", all.len());
    for (deny, command) in all {
        let r = run(&claude_event(&command), &ledger);
        match deny {
            Some(rule) => {
                assert!(deny_reason(&r).is_ok(), "{file} example:\n{command}\n{r:?}");
                assert_eq!(ledger_rule(&ledger), rule, "{file} example:\n{command}");
            }
            None => assert_eq!(allow_problem(&r), None, "{file} example:\n{command}"),
        }
    }
}

#[test]
fn skill_md_before_examples_deny_with_their_rule_and_after_examples_allow() {
    check("SKILL.md", 7);
}

#[test]
fn readme_examples_get_the_verdict_and_rule_they_show() {
    check("README.md", 4);
}

#[test]
fn the_readme_shows_the_launcher_install_writes() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let shown = crate::support::launcher("'/abs/path/heredoc-guard'");
    assert!(
        readme.lines().any(|l| l == shown),
        "README's launcher differs from:\n{shown}"
    );
}
