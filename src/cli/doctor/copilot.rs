//! Doctor's checks for Copilot CLI: heredoc-guard hooks in every place Copilot reads hooks
//! from (its `hooks/*.json` and `settings.json`, a repository's `.github/hooks/*.json`,
//! `.github/copilot/settings*.json` and Claude Code's `.claude/settings*.json`), in either
//! of its forms: its own `preToolUse` handlers (`bash`), or Claude-style `PreToolUse`
//! groups. Each pointing at a binary that is there, answering the live probe through `bash
//! -c` as Copilot reads an answer; the JSON launcher for Copilot's form (without it a
//! failure of the guard still blocks, but the model is not told why). Also: a
//! `disableAllHooks` (a warning: Copilot describes it as switching every hook off).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::matcher::{self, Client};
use super::probe::{self, Answer, Case, Launch};
use super::report::{Check, Section};
use crate::cli::client::{self, copilot};
use crate::cli::config;
use crate::cli::install::{copilot as install, hooks_doc, json_file::JsonFile};
use crate::hook::Form;

const FIX: &str = "heredoc-guard install copilot";

/// One heredoc-guard hook Copilot runs: where, its command line, and (Claude-style) its
/// matcher.
struct Hook {
    place: String,
    line: String,
    binary: String,
    claude_style: Option<Option<String>>,
}

/// The Copilot CLI section. `asked`: the user named Copilot (`doctor copilot`).
pub fn check(asked: bool) -> Section {
    let binary = client::find_on_path("copilot");
    let home = copilot::home().ok();
    let root = copilot::repo_root();
    let repo_hooks = root.as_ref().map(|r| r.join(".github/hooks"));
    let used = home.as_deref().is_some_and(Path::is_dir)
        || repo_hooks.as_deref().is_some_and(Path::is_dir);
    let title = match &binary {
        Some(b) => format!("copilot ({})", b.display()),
        None if used => "copilot (not on PATH; settings found)".to_owned(),
        None => "copilot (not found)".to_owned(),
    };
    let shown = home
        .as_deref()
        .map_or_else(|| "~/.copilot".to_owned(), client::tilde);
    if !used {
        let text = match &binary {
            Some(_) => format!(
                "copilot is on PATH, but Copilot CLI is not set up here (no {shown}): not checked"
            ),
            None => format!("Copilot CLI is not here (not on PATH, no {shown}): not checked"),
        };
        let check = if asked {
            Check::fail("copilot.present", text, FIX)
        } else {
            Check::note("copilot.present", text)
        };
        return Section {
            name: "copilot".to_owned(),
            title,
            checks: vec![check],
            used: false,
        };
    }
    let mut checks = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(home) = &home {
        files.extend(copilot::json_files(&home.join("hooks")));
        files.push(home.join("settings.json"));
    }
    if let Some(root) = &root {
        files.extend(copilot::json_files(&root.join(".github/hooks")));
        for rel in [
            ".github/copilot/settings.json",
            ".github/copilot/settings.local.json",
            ".claude/settings.json",
            ".claude/settings.local.json",
        ] {
            files.push(root.join(rel));
        }
    }
    let mut hooks = Vec::new();
    for path in files.iter().filter(|p| p.is_file()) {
        let what = client::tilde(path);
        let file = match JsonFile::load(path) {
            Ok(f) => f,
            Err(e) => {
                checks.push(Check::fail(
                    "copilot.settings",
                    e,
                    format!("fix {what} by hand, then {FIX}"),
                ));
                continue;
            }
        };
        if file.doc.get("disableAllHooks") == Some(&Value::Bool(true)) {
            checks.push(Check::warn(
                "copilot.hooks_enabled",
                format!("{what} sets disableAllHooks, which Copilot CLI describes as switching off every user and repository hook (measured in 1.0.102 with -p: a hook in ~/.copilot/hooks still ran)"),
                format!("remove disableAllHooks from {what}"),
            ));
        }
        let native = file
            .doc
            .get("hooks")
            .and_then(|h| h.get("preToolUse"))
            .and_then(Value::as_array);
        for handler in native.into_iter().flatten() {
            if let Some(binary) = install::guard_binary(handler) {
                let line = handler
                    .get("bash")
                    .or_else(|| handler.get("command"))
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                hooks.push(Hook {
                    place: what.clone(),
                    line,
                    binary,
                    claude_style: None,
                });
            }
        }
        if let Ok(found) = hooks_doc::find(&file.doc, &what) {
            for f in found {
                let line = f
                    .entry
                    .get("command")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                hooks.push(Hook {
                    place: what.clone(),
                    line,
                    binary: f.binary,
                    claude_style: Some(f.matcher),
                });
            }
        }
    }
    if hooks.is_empty() {
        checks.push(Check::fail(
            "copilot.hook",
            format!("no heredoc-guard hook in {shown}/hooks, {shown}/settings.json or this repository's .github/hooks, .github/copilot or .claude settings: Copilot CLI runs every command unchecked"),
            FIX,
        ));
    } else if hooks.len() > 1 {
        let places: Vec<&str> = hooks.iter().map(|h| h.place.as_str()).collect();
        checks.push(Check::warn(
            "copilot.duplicate",
            format!(
                "heredoc-guard runs {} times for each command ({})",
                hooks.len(),
                places.join("; ")
            ),
            "keep one: heredoc-guard uninstall copilot (the user's), or remove the others by hand",
        ));
    }
    for hook in &hooks {
        check_hook(hook, &mut checks);
    }
    Section {
        name: "copilot".to_owned(),
        title,
        checks,
        used: true,
    }
}

fn check_hook(hook: &Hook, checks: &mut Vec<Check>) {
    let place = hook.place.as_str();
    let style = if hook.claude_style.is_some() {
        "Claude-style PreToolUse"
    } else {
        "preToolUse"
    };
    checks.push(
        Check::pass(
            "copilot.hook",
            format!("{style} hook running {}", hook.binary),
        )
        .at(place),
    );
    match config::launcher_of(&hook.line) {
        Some((config::Client::Copilot, _)) => checks.push(
            Check::pass(
                "copilot.hook.launcher",
                "inside the fail-closed launcher for Copilot CLI (every failure of the guard is a deny that says why)",
            )
            .at(place),
        ),
        Some((config::Client::Gemini, _)) => checks.push(
            Check::fail(
                "copilot.hook.launcher",
                "the launcher for Gemini CLI: Copilot CLI ignores Gemini's deny JSON and runs the command",
                FIX,
            )
            .at(place),
        ),
        _ => checks.push(
            Check::warn(
                "copilot.hook.launcher",
                "not the launcher for Copilot CLI: a failure of the guard still blocks (Copilot blocks a hook that errors), but the model is not told why",
                FIX,
            )
            .at(place),
        ),
    }
    if let Some(m) = &hook.claude_style {
        let shown = m.as_deref().unwrap_or("");
        if matcher::covers(Client::Claude, m.as_deref(), "Bash") {
            checks.push(
                Check::pass(
                    "copilot.hook.matcher",
                    format!("matcher {shown:?} covers Bash (Copilot's shell tool in Claude-style events)"),
                )
                .at(place),
            );
        } else {
            checks.push(
                Check::fail(
                    "copilot.hook.matcher",
                    format!("matcher {shown:?} does not cover Bash"),
                    FIX,
                )
                .at(place),
            );
        }
    }
    if let Some(problem) = super::missing_binary(&hook.binary) {
        checks.push(Check::fail("copilot.hook.binary", problem.0, problem.1).at(place));
        return;
    }
    let launch = Launch::BashC("Copilot CLI", hook.line.clone());
    let event = |command: &str| {
        if hook.claude_style.is_some() {
            probe::event(false, "Bash", command)
        } else {
            probe::copilot_event("bash", command)
        }
    };
    let cases = [
        Case {
            name: "bash heredoc with $(...)",
            event: event(probe::DENY_COMMAND),
            deny: true,
        },
        Case {
            name: "bash quoted heredoc",
            event: event(probe::ALLOW_COMMAND),
            deny: false,
        },
    ];
    // Copilot reads its own deny JSON in both forms, and exit 2 in the Claude style.
    let answer = match (&hook.claude_style, config::launcher_of(&hook.line)) {
        (Some(_), Some((config::Client::ExitStatus, _)) | None) => Answer::ExitStatus,
        _ => Answer::Json(Form::Copilot),
    };
    let problems = probe::run_reading(&launch, &cases, answer);
    if problems.is_empty() {
        checks.push(Check::pass("copilot.hook.probe", format!("live probe {}: a heredoc with $(...) denied as Copilot reads a deny, a quoted heredoc allowed", launch.describe())).at(place));
    } else {
        checks.push(
            Check::fail(
                "copilot.hook.probe",
                format!("live probe {}: {}", launch.describe(), problems.join("; ")),
                FIX,
            )
            .at(place),
        );
    }
}
