//! `--help` at every level lists what that level takes: the walk starts at
//! `heredoc-guard --help`, follows every subcommand and agent each level lists, and checks
//! each level's own help; a level that takes an agent lists every option each agent takes
//! (read from the agent's own `--help`), so `install --help` alone shows them all.

use crate::support::{Run, run_with};

fn help(path: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let mut args = path.to_vec();
    args.push("--help");
    let r = run_with(&args, b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0), "{path:?} --help: {r:?}");
    assert!(r.stderr.is_empty(), "{path:?} --help: {}", r.stderr);
    r
}

/// The lines of a section (`Commands:`, `Agents:`, `Options:`, ...) up to the next blank line.
fn section<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| *l != title)
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

/// The names a `Commands:` or `Agents:` section lists (not clap's own `help`).
fn children(text: &str) -> Vec<String> {
    ["Commands:", "Agents:"]
        .iter()
        .flat_map(|t| section(text, t))
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_owned)
        .collect()
}

/// The options (`--x`, `-x`) an `Options:` section lists, help and version aside.
fn options(text: &str) -> Vec<String> {
    section(text, "Options:")
        .iter()
        .filter(|l| l.trim_start().starts_with('-'))
        // The option's own words: `-n <N>`, `-h, --help`, `--agent <AGENT>`; not its help.
        .flat_map(|l| {
            l.split_whitespace()
                .take_while(|w| w.starts_with('-') || w.starts_with('<'))
        })
        .filter(|w| w.starts_with('-'))
        .map(|w| w.trim_end_matches(',').to_owned())
        .filter(|w| !["-h", "--help", "-V", "--version"].contains(&w.as_str()))
        .collect()
}

/// The options "Options by agent" gives `agent`: its first line names it, the next lines
/// (indented past the agent column) continue it.
fn options_by_agent(text: &str, agent: &str) -> Vec<String> {
    let lines = section(text, "Options by agent:");
    let mut out = Vec::new();
    let mut inside = false;
    for l in lines {
        let rest = l.trim_start();
        let first = rest.split_whitespace().next().unwrap_or("");
        if !first.starts_with("--") {
            inside = first == agent;
            let option = rest.split_whitespace().nth(1);
            if let Some(option) = option.filter(|w| inside && w.starts_with("--")) {
                out.push(option.to_owned());
            }
        } else if inside {
            out.push(first.to_owned());
        }
    }
    out
}

fn walk(path: &mut Vec<String>, seen: &mut Vec<String>) {
    let args: Vec<String> = path.clone();
    let text = help(&args.iter().map(String::as_str).collect::<Vec<_>>()).stdout;
    let usage = text
        .lines()
        .find(|l| l.starts_with("Usage: heredoc-guard"))
        .unwrap_or_else(|| panic!("{args:?}: no usage line:\n{text}"));
    seen.push(args.join(" "));
    if usage.contains("[OPTIONS]") {
        assert!(
            !options(&text).is_empty(),
            "{args:?}: the usage takes [OPTIONS] but none is listed:\n{text}"
        );
    }
    let kids = children(&text);
    if usage.contains("<AGENT>") && !kids.is_empty() {
        assert!(
            text.contains("Options by agent:"),
            "{args:?}: takes an agent but lists no agent's options:\n{text}"
        );
    }
    for kid in kids {
        path.push(kid.clone());
        let child: Vec<&str> = path.iter().map(String::as_str).collect();
        let child_text = help(&child).stdout;
        if usage.contains("<AGENT>") {
            let listed = options_by_agent(&text, &kid);
            let wanted = options(&child_text);
            assert_eq!(
                listed,
                wanted,
                "{args:?} --help lists for {kid} other options than `{}` --help takes:\n{text}",
                child.join(" ")
            );
        }
        walk(path, seen);
        path.pop();
    }
}

#[test]
fn every_level_of_help_lists_its_subcommands_and_the_options_they_take() {
    let mut seen = Vec::new();
    walk(&mut Vec::new(), &mut seen);
    // The levels the walk must have reached: every subcommand and every agent, written
    // out here, not read from the guard.
    for level in [
        "install claude",
        "install codex",
        "install gemini",
        "install copilot",
        "uninstall claude",
        "uninstall codex",
        "uninstall gemini",
        "uninstall copilot",
        "doctor",
        "log",
        "config",
        "explain",
        "strip",
        "completions",
    ] {
        assert!(
            seen.iter().any(|s| s == level),
            "not reached: {level} in {seen:?}"
        );
    }
}

#[test]
fn install_and_uninstall_help_list_every_agent_s_options() {
    let install = help(&["install"]).stdout;
    for (agent, wanted) in [
        (
            "claude",
            &["--project", "--shared", "--managed", "--managed-only"][..],
        ),
        ("codex", &["--no-trust", "--managed", "--managed-only"][..]),
        ("gemini", &["--managed"][..]),
        ("copilot", &[][..]),
    ] {
        assert_eq!(options_by_agent(&install, agent), wanted, "{install}");
    }
    assert!(install.contains("copilot  (no options)"), "{install}");
    let uninstall = help(&["uninstall"]).stdout;
    for (agent, wanted) in [
        (
            "claude",
            &["--project", "--shared", "--remove-backups", "--managed"][..],
        ),
        ("codex", &["--remove-backups", "--managed"][..]),
        ("gemini", &["--remove-backups", "--managed"][..]),
        ("copilot", &["--remove-backups"][..]),
    ] {
        assert_eq!(options_by_agent(&uninstall, agent), wanted, "{uninstall}");
    }
}
