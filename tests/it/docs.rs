//! Every example in README.md and skills/heredoc-guard/SKILL.md marked ```` ```sh deny ```` or
//! ```` ```sh allow ```` gets that verdict from the built binary.

use std::path::Path;

use crate::support::{claude_event, run};

fn examples(file: &str) -> Vec<(bool, String)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut out = Vec::new();
    let mut current: Option<(bool, String)> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```sh deny") => current = Some((true, String::new())),
            (None, "```sh allow") => current = Some((false, String::new())),
            (Some(_), "```") => out.extend(current.take()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, _) => {}
        }
    }
    out.into_iter()
        .map(|(d, b)| (d, b.trim_end_matches('\n').to_owned()))
        .collect()
}

fn check(file: &str, minimum: usize) {
    let dir = tempfile::tempdir().unwrap();
    let all = examples(file);
    assert!(all.len() >= minimum, "{file}: only {} examples", all.len());
    for (deny, command) in all {
        let r = run(&claude_event(&command), &dir.path().join("l"));
        let expected = if deny { Some(2) } else { Some(0) };
        assert_eq!(r.code, expected, "{file} example:\n{command}\n{}", r.stderr);
    }
}

#[test]
fn skill_md_before_examples_deny_and_after_examples_allow() {
    check("skills/heredoc-guard/SKILL.md", 7);
}

#[test]
fn readme_examples_get_the_verdict_they_show() {
    check("README.md", 4);
}
