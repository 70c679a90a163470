//! Nothing a document shows can go stale unseen. In every document (the top-level `*.md`
//! and `docs/*.md`):
//! - each example marked ```` ```sh deny RULE ```` or ```` ```sh allow ```` gets that
//!   verdict from the built binary: a deny with that very rule (an internal error or an
//!   unreadable command is no pass), an allow silent;
//! - each ```` ```console ```` block is run: its `$ ` lines, one after the other, in a
//!   throwaway HOME holding the built binary on PATH, and what they print (stdout and
//!   stderr) must be what the block shows (`…` stands for any text in a line, a line of
//!   `…` alone for any lines);
//! - each relative link names a file (and heading) that is there;
//! - the counts and lists they give (fixture cases, the rules) are computed here from
//!   `fixtures/` and the rule ids, and compared.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{allow_problem, claude_event, deny_reason, guard_path, ledger_rule, run};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(file: &str) -> String {
    std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Every document, by its path from the repository's root: the top-level `*.md` and
/// `docs/*.md`.
fn documents() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["", "docs"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                out.push(if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                });
            }
        }
    }
    out.sort();
    out
}

/// The fenced blocks of a document whose opening fence is `info` (after the backticks) or
/// starts with `info` and a space: (the rest of the info string, the body, the line). A
/// block indented under a list item loses that indentation.
fn blocks(text: &str, info: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String, usize, usize)> = None;
    let mut other_fence = false;
    for (n, line) in text.lines().enumerate() {
        let fence = line.trim();
        let indent = line.len() - line.trim_start().len();
        match &mut current {
            None if other_fence => other_fence = fence != "```",
            None => {
                if let Some(rest) = fence.strip_prefix("```") {
                    let arg = if rest == info {
                        Some("")
                    } else {
                        rest.strip_prefix(info).and_then(|r| r.strip_prefix(' '))
                    };
                    match arg {
                        Some(arg) => {
                            current = Some((arg.trim().to_owned(), String::new(), n + 1, indent))
                        }
                        None => other_fence = true,
                    }
                }
            }
            Some(_) if fence == "```" => {
                out.extend(current.take().map(|(a, b, l, _)| (a, b, l)));
            }
            Some((_, body, _, strip)) => {
                body.push_str(&line[indent.min(*strip)..]);
                body.push('\n');
            }
        }
    }
    out
}

/// Each example: `Some(rule)` for a deny, `None` for an allow, and the command.
fn examples(file: &str) -> Vec<(Option<String>, String)> {
    let text = read(file);
    let mut out = Vec::new();
    for (arg, body, line) in blocks(&text, "sh") {
        let body = body.trim_end_matches('\n').to_owned();
        if let Some(rule) = arg.strip_prefix("deny") {
            let rule = rule.trim();
            assert!(
                !rule.is_empty(),
                "{file}:{line}: a deny example names no rule"
            );
            out.push((Some(rule.to_owned()), body));
        } else if arg == "allow" {
            out.push((None, body));
        } else {
            panic!("{file}:{line}: ```sh {arg}: say `sh deny RULE` or `sh allow`");
        }
    }
    out.extend(table_examples(file, &text));
    out
}

/// The rows of every `| command | verdict |` table: a command written as one code span
/// (`⏎` for a newline), and `allow` or ``deny `RULE` ``.
fn table_examples(file: &str, text: &str) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for (n, line) in text.lines().enumerate() {
        if line == "| command | verdict |" {
            inside = true;
            continue;
        }
        if !inside || line.starts_with("|---") {
            continue;
        }
        let Some(row) = line.strip_prefix("| ").and_then(|l| l.strip_suffix(" |")) else {
            inside = false;
            continue;
        };
        let (command, verdict) = row
            .rsplit_once(" | ")
            .unwrap_or_else(|| panic!("{file}:{}: not a two-cell row", n + 1));
        let command = command
            .strip_prefix("``")
            .and_then(|c| c.strip_suffix("``"))
            .or_else(|| command.strip_prefix('`').and_then(|c| c.strip_suffix('`')))
            .unwrap_or_else(|| panic!("{file}:{}: the command is not one code span", n + 1));
        let deny = match verdict {
            "allow" => None,
            v => Some(
                v.strip_prefix("deny `")
                    .and_then(|r| r.strip_suffix('`'))
                    .unwrap_or_else(|| panic!("{file}:{}: verdict {v:?}", n + 1))
                    .to_owned(),
            ),
        };
        out.push((deny, command.replace('⏎', "\n")));
    }
    out
}

fn check_examples(file: &str, minimum: usize) {
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
    check_examples("SKILL.md", 7);
}

#[test]
fn readme_examples_get_the_verdict_and_rule_they_show() {
    check_examples("README.md", 13);
}

#[test]
fn the_rules_document_s_examples_get_the_verdict_and_rule_they_show() {
    check_examples("docs/rules.md", 30);
}

#[test]
fn every_other_document_s_examples_get_the_verdict_and_rule_they_show() {
    for file in documents() {
        if !["README.md", "SKILL.md", "docs/rules.md"].contains(&file.as_str()) {
            check_examples(&file, 0);
        }
    }
}

/// `expected` (a line of a block, `…` standing for any text) matches `line`.
fn line_matches(expected: &str, line: &str) -> bool {
    let parts: Vec<&str> = expected.split('…').collect();
    if parts.len() == 1 {
        return expected == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..];
    if !rest.ends_with(last) {
        return false;
    }
    rest = &rest[..rest.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// `expected` (lines; a line `…` alone stands for any lines) matches `actual`.
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"…", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && lines_match(rest, more)),
    }
}

/// A throwaway HOME for a console block: the built binary at `~/.cargo/bin`, first on
/// PATH, and a project folder (the working directory) holding the repository's
/// `examples/`. No agent is installed: what a block shows of one, it sets up itself.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("home/.cargo/bin");
        std::fs::create_dir_all(&bin).unwrap();
        // A hard link, not a copy: a binary just written can be briefly busy (ETXTBSY)
        // while a process another test forks still holds the write descriptor.
        let guard = bin.join("heredoc-guard");
        if std::fs::hard_link(guard_path(), &guard).is_err() {
            std::fs::copy(guard_path(), &guard).unwrap();
        }
        let examples = dir.path().join("home/project/examples");
        std::fs::create_dir_all(&examples).unwrap();
        for entry in std::fs::read_dir(root().join("examples")).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, examples.join(path.file_name().unwrap())).unwrap();
        }
        Sandbox { dir }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// Runs one `$ ` line with bash, stderr into stdout; what it printed, with the
    /// sandbox's HOME written `/home/you`.
    fn run(&self, line: &str) -> String {
        let home = self.home();
        // The README's first command builds the guard with cargo; here it is built.
        let line = line.replace("cargo run --release --quiet", "heredoc-guard");
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("exec 2>&1\n{line}"))
            .current_dir(home.join("project"))
            .env_clear()
            .env("HOME", &home)
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", home.join(".cargo/bin").display()),
            )
            .env("LANG", "C.UTF-8")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).replace(&home.display().to_string(), "/home/you")
    }
}

/// One `$ ` line of a console block and the lines the block shows it print.
type Step = (String, Vec<String>);

/// The console blocks of `file`: each `$ ` line and the lines it shows, in order.
fn console_blocks(file: &str) -> Vec<(usize, Vec<Step>)> {
    let text = read(file);
    blocks(&text, "console")
        .into_iter()
        .map(|(arg, body, line)| {
            assert!(
                arg.is_empty(),
                "{file}:{line}: ```console takes nothing after it"
            );
            let mut steps: Vec<Step> = Vec::new();
            for l in body.lines() {
                match (l.strip_prefix("$ "), steps.last_mut()) {
                    (Some(command), _) => steps.push((command.to_owned(), Vec::new())),
                    (None, Some((_, shown))) => shown.push(l.to_owned()),
                    (None, None) => panic!("{file}:{line}: a console block starts with `$ `"),
                }
            }
            (line, steps)
        })
        .collect()
}

#[test]
fn every_console_block_prints_what_it_shows() {
    let mut ran = 0;
    for file in documents() {
        for (line, steps) in console_blocks(&file) {
            let sandbox = Sandbox::new();
            for (command, shown) in steps {
                let printed = sandbox.run(&command);
                let actual: Vec<&str> = printed.lines().map(str::trim_end).collect();
                let expected: Vec<&str> = shown.iter().map(|s| s.trim_end()).collect();
                assert!(
                    lines_match(&expected, &actual),
                    "{file}:{line}: `{command}` printed:\n{printed}\nthe document shows:\n{}",
                    shown.join("\n")
                );
                ran += 1;
            }
        }
    }
    // The README, the install guide and the reference each show the guard's real output.
    assert!(ran >= 8, "only {ran} console commands in the documents");
}

#[test]
fn the_console_matcher_tells_a_different_output_apart() {
    assert!(line_matches("a … c", "a bbb c"));
    assert!(!line_matches("a … c", "a bbb d"));
    assert!(!line_matches("exit 2", "exit 0"));
    assert!(lines_match(&["x", "…", "z"], &["x", "y1", "y2", "z"]));
    assert!(!lines_match(&["x", "…", "z"], &["x", "y1"]));
    assert!(!lines_match(&["x"], &["x", "more"]));
}

#[test]
fn the_readme_shows_the_launcher_install_writes() {
    let shown = crate::support::launcher("'/abs/path/heredoc-guard'");
    assert!(
        read("docs/install.md").lines().any(|l| l == shown),
        "docs/install.md's launcher differs from:\n{shown}"
    );
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_relative_link_names_a_file_and_heading_that_are_there() {
    let mut links = 0;
    for file in documents() {
        let text = read(&file);
        let base = Path::new(&file).parent().unwrap_or(Path::new(""));
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let resolved = if path.is_empty() {
                PathBuf::from(&file)
            } else {
                base.join(path)
            };
            let full = root().join(&resolved);
            assert!(
                full.exists(),
                "{file}: link to {target}: {} is not there",
                resolved.display()
            );
            if !anchor.is_empty() {
                let there = std::fs::read_to_string(&full).unwrap();
                assert!(
                    anchors(&there).iter().any(|a| a == anchor),
                    "{file}: link to {target}: no heading #{anchor} in {}",
                    resolved.display()
                );
            }
            links += 1;
        }
    }
    assert!(links >= 10, "only {links} relative links");
}

/// The rule ids the binary writes to the ledger, read from their one definition
/// (`Rule::id` in src/verdict.rs).
fn rule_ids() -> Vec<String> {
    let text = read("src/verdict.rs");
    let start = text
        .find("pub fn id(self)")
        .expect("Rule::id in src/verdict.rs");
    let body = &text[start..];
    let body = &body[..body.find("\n    }\n").expect("the end of Rule::id")];
    let ids: Vec<String> = body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Rule::"))
        .filter_map(|l| l.split_once("=> \""))
        .filter_map(|(_, id)| id.strip_suffix("\","))
        .map(str::to_owned)
        .collect();
    assert!(ids.len() >= 10, "rule ids: {ids:?}");
    ids
}

#[test]
fn every_rule_has_its_section_in_the_rules_document_and_a_row_in_the_ledger_reference() {
    let rules = read("docs/rules.md");
    let headings = anchors(&rules);
    let reference = read("docs/reference.md");
    let row = reference
        .lines()
        .find(|l| l.starts_with("| `rule` |"))
        .expect("docs/reference.md: the ledger's `rule` row");
    let listed: Vec<&str> = row.split('`').skip(3).step_by(2).collect();
    let mut ids = rule_ids();
    for id in &ids {
        assert!(
            headings.contains(id),
            "docs/rules.md has no `## {id}` section"
        );
    }
    let mut listed_sorted: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
    listed_sorted.sort();
    ids.sort();
    assert_eq!(listed_sorted, ids, "the ledger's rule row: {row}");
}

#[test]
fn skill_md_reading_a_deny_names_every_rule_a_command_can_meet() {
    let skill = read("SKILL.md");
    let section: String = skill
        .lines()
        .skip_while(|l| *l != "## Reading a deny")
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!section.is_empty(), "SKILL.md has no \"Reading a deny\"");
    for id in rule_ids() {
        assert!(
            section.contains(&format!("`{id}`")),
            "SKILL.md, Reading a deny, lacks `{id}`"
        );
    }
}

fn with_commas(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn the_fixture_counts_the_documents_give_are_the_fixtures_there_are() {
    let cases = crate::fixtures::load();
    let total = with_commas(cases.len());
    let shells = with_commas(cases.iter().filter(|c| c.run).count());
    let files = std::fs::read_dir(crate::fixtures::fixtures_dir())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "txt")
        })
        .count();
    let phrase =
        format!("{total} fixture cases in {files} files, {shells} of them run in the shells");
    let mut found = 0;
    for file in documents() {
        let text = read(&file).replace('\n', " ");
        for (i, _) in text.match_indices(" fixture cases in ") {
            let start = text[..i]
                .rfind(|c: char| !(c.is_ascii_digit() || c == ','))
                .map_or(0, |s| s + 1);
            let shown: String = text[start..].chars().take(phrase.len()).collect();
            assert_eq!(shown, phrase, "{file} gives other fixture counts");
            found += 1;
        }
    }
    assert!(
        found >= 1,
        "no document gives the fixture counts ({phrase})"
    );
}

#[test]
fn the_readme_s_speed_figures_are_the_performance_document_s() {
    let readme = read("README.md");
    let speed: String = readme
        .lines()
        .skip_while(|l| *l != "## Speed")
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect::<Vec<_>>()
        .join(" ");
    let performance = read("docs/performance.md");
    let mut figures = 0;
    let words: Vec<&str> = speed.split_whitespace().collect();
    for pair in words.windows(2) {
        if pair[1].trim_end_matches(|c: char| !c.is_alphabetic()) == "ms" {
            let n = pair[0].trim_start_matches(|c: char| !c.is_ascii_digit());
            assert!(
                performance.contains(&format!("{n} ms")),
                "README, Speed: {n} ms is not in docs/performance.md"
            );
            figures += 1;
        }
    }
    assert!(figures >= 2, "README, Speed, gives {figures} figures in ms");
}

#[test]
fn the_readme_is_for_users_short_and_in_a_newcomer_s_order() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines: move detail into docs/"
    );
    let headings: Vec<&str> = readme.lines().filter(|l| l.starts_with("## ")).collect();
    let mut at = 0;
    for wanted in [
        "What the model sees",
        "Try it",
        "Install",
        "Check",
        "When it blocks",
        "Uninstall",
        "Report a bypass",
        "License",
    ] {
        let found = headings[at..]
            .iter()
            .position(|h| h.contains(wanted))
            .unwrap_or_else(|| panic!("README: no `## …{wanted}…` after {:?}", headings.get(at)));
        at += found + 1;
    }
    for file in documents() {
        assert!(
            !read(&file).contains("effects model"),
            "{file} names the effects model, which the judge replaced"
        );
    }
}

#[test]
fn the_defaults_contributing_gives_are_the_ones_the_suites_use() {
    let contributing = read("CONTRIBUTING.md");
    // The differential suite's default size, and the fuzz corpus's generated seeds.
    for (shown, file, needle) in [
        (
            "(3,000 cases by default)",
            "tests/it/differential.rs",
            "\"HEREDOC_GUARD_DIFF_CASES\", 3_000)",
        ),
        (
            "2,000 generated commands",
            "fuzz/seed-corpus",
            "\"SEED_GENERATED\", \"2000\"",
        ),
    ] {
        assert!(
            contributing.contains(shown),
            "CONTRIBUTING.md lacks {shown:?}"
        );
        assert!(
            read(file).contains(needle),
            "{file} no longer has {needle}: update CONTRIBUTING.md"
        );
    }
}

#[test]
fn ci_runs_the_readme_s_test_command() {
    let readme = read("README.md");
    let command = readme
        .lines()
        .find(|l| l.starts_with("cargo test"))
        .expect("README.md gives the test command");
    let command = command.split('#').next().unwrap().trim();
    assert_eq!(command, "cargo test --locked");
    let ci = read(".ci/run");
    assert!(
        ci.lines()
            .any(|l| l.starts_with(&format!("{command} 2>&1"))),
        ".ci/run does not run the README's test command {command}"
    );
}
