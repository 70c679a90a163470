//! Doctor's checks for Claude Code: a heredoc-guard hook in a settings file Claude Code
//! reads, pointing at an existing binary, in a fail-closed form (exec form or launcher,
//! with `"onFailure": "block"`, no invalid value that makes Claude drop the entry), with a
//! matcher covering every shell tool, on a Claude Code new enough for `onFailure`; then
//! the live probe.

use std::path::Path;

use serde_json::Value;

use super::matcher::{self, Client};
use super::probe::{self, Case, Launch};
use super::report::{Check, Section};
use crate::client::{self, claude};
use crate::event::SHELL_TOOLS;
use crate::install::{hooks_doc, json_file::JsonFile};

const FIX: &str = "heredoc-guard install claude";

/// The Claude Code section, or `None` when neither `claude` nor a settings file is here.
pub fn check(ledger_dir: &Path) -> Option<Section> {
    let found = claude::find();
    let files: Vec<_> = claude::all_settings_paths()
        .into_iter()
        .filter(|p| p.exists())
        .collect();
    if found.is_none() && files.is_empty() {
        return None;
    }
    let mut checks = Vec::new();
    let version = found
        .as_ref()
        .and_then(|f| f.version.as_ref().ok().copied());
    let title = match &found {
        Some(f) => match &f.version {
            Ok(v) => format!("claude {v} ({})", f.binary.display()),
            Err(e) => format!("claude ({}; version unknown: {e})", f.binary.display()),
        },
        None => "claude (not on PATH; settings found)".to_owned(),
    };
    match version {
        Some(v) if v < claude::ON_FAILURE_SINCE => checks.push(Check::fail(
            format!("Claude Code {v} predates {}: it ignores \"onFailure\", so a hook that times out lets the command run", claude::ON_FAILURE_SINCE),
            "update Claude Code (npm install -g @anthropic-ai/claude-code), then heredoc-guard install claude",
        )),
        Some(v) => checks.push(Check::pass(format!("Claude Code {v} knows \"onFailure\": \"block\" ({} or later)", claude::ON_FAILURE_SINCE))),
        None => {}
    }
    let mut hooks = 0;
    for path in &files {
        let file = match JsonFile::load(path) {
            Ok(f) => f,
            Err(e) => {
                checks.push(Check::fail(
                    e,
                    format!("fix {} by hand, then {FIX}", path.display()),
                ));
                continue;
            }
        };
        let what = client::tilde(path);
        let found = match hooks_doc::find(&file.doc, &what) {
            Ok(f) => f,
            Err(e) => {
                checks.push(Check::fail(e, format!("fix {what} by hand, then {FIX}")));
                continue;
            }
        };
        for f in found {
            hooks += 1;
            check_hook(&what, &f, version, ledger_dir, &mut checks);
        }
    }
    if hooks == 0 {
        let places: Vec<String> = claude::all_settings_paths()
            .iter()
            .map(|p| client::tilde(p))
            .collect();
        checks.push(Check::fail(
            format!(
                "no heredoc-guard hook in {}: Claude Code runs every command unchecked",
                places.join(", ")
            ),
            FIX,
        ));
    }
    Some(Section {
        name: "claude".to_owned(),
        title,
        checks,
    })
}

fn check_hook(
    what: &str,
    f: &hooks_doc::Found,
    version: Option<claude::Version>,
    ledger_dir: &Path,
    checks: &mut Vec<Check>,
) {
    let entry = &f.entry;
    let exec = entry.get("args").is_some();
    let launcher =
        crate::config::launcher_binary(entry.get("command").and_then(Value::as_str).unwrap_or(""))
            .is_some();
    let on_failure = entry.get("onFailure");
    let form = match (exec, launcher) {
        (true, _) => "exec form",
        (false, true) => "sh launcher",
        (false, false) => "bare command",
    };
    checks.push(Check::pass(format!(
        "{what}: PreToolUse hook ({form}) running {}",
        f.binary
    )));
    // Values Claude Code refuses make it drop the whole entry, silently.
    let mut invalid = Vec::new();
    if entry.get("type").and_then(Value::as_str) != Some("command") {
        invalid.push("\"type\" is not \"command\"".to_owned());
    }
    if let Some(t) = entry.get("timeout")
        && !t.as_f64().is_some_and(|t| t > 0.0)
    {
        invalid.push(format!("\"timeout\": {t} is not a positive number"));
    }
    if let Some(v) = on_failure
        && v != "block"
    {
        invalid.push(format!(
            "\"onFailure\": {v} (only \"block\" fails closed; an invalid value drops the entry)"
        ));
    }
    if let Some(a) = entry.get("args")
        && !a.as_array().is_some_and(|a| a.iter().all(Value::is_string))
    {
        invalid.push("\"args\" is not a list of strings".to_owned());
    }
    if !invalid.is_empty() {
        checks.push(Check::fail(
            format!("{what}: the hook entry has {}", invalid.join(", ")),
            FIX,
        ));
    }
    if on_failure.is_none() && !launcher {
        checks.push(Check::fail(
            format!("{what}: the hook has neither \"onFailure\": \"block\" nor the launcher: a guard that cannot start or crashes lets the command run"),
            FIX,
        ));
    } else if on_failure.is_some_and(|v| v == "block") {
        checks.push(Check::pass(format!(
            "{what}: fails closed (\"onFailure\": \"block\"{})",
            if launcher { " and the launcher" } else { "" }
        )));
    }
    if exec && version.is_some_and(|v| v < claude::ON_FAILURE_SINCE) {
        checks.push(Check::fail(
            format!(
                "{what}: the exec form needs Claude Code {} or later",
                claude::ON_FAILURE_SINCE
            ),
            FIX,
        ));
    }
    let missing: Vec<&str> = SHELL_TOOLS
        .iter()
        .copied()
        .filter(|t| !matcher::covers(Client::Claude, f.matcher.as_deref(), t))
        .collect();
    if missing.is_empty() {
        checks.push(Check::pass(format!(
            "{what}: matcher {:?} covers {}",
            f.matcher.as_deref().unwrap_or(""),
            SHELL_TOOLS.join(", ")
        )));
    } else {
        checks.push(Check::fail(
            format!(
                "{what}: matcher {:?} misses {} (shell tools that then run unchecked)",
                f.matcher.as_deref().unwrap_or(""),
                missing.join(", ")
            ),
            FIX,
        ));
    }
    if !client::is_executable_file(Path::new(&f.binary)) && f.binary.contains('/') {
        checks.push(Check::fail(
            format!("{what}: {} is not an executable file", f.binary),
            format!("build heredoc-guard, then {FIX} from the new binary"),
        ));
        return;
    }
    let command = entry
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let launch = if exec {
        let args = entry
            .get("args")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        Launch::Exec(command, args)
    } else {
        Launch::ShC(command)
    };
    let cases = [
        Case {
            name: "Bash heredoc with $(...)",
            event: probe::event(false, "Bash", probe::DENY_COMMAND),
            deny: true,
        },
        Case {
            name: "Monitor heredoc with $(...)",
            event: probe::event(false, "Monitor", probe::DENY_COMMAND),
            deny: true,
        },
        Case {
            name: "Bash quoted heredoc",
            event: probe::event(false, "Bash", probe::ALLOW_COMMAND),
            deny: false,
        },
    ];
    let problems = probe::run(&launch, &cases, ledger_dir);
    if problems.is_empty() {
        checks.push(Check::pass(format!("{what}: live probe {}: Bash and Monitor heredocs with $(...) denied, a quoted heredoc allowed", launch.describe())));
    } else {
        checks.push(Check::fail(
            format!(
                "{what}: live probe {}: {}",
                launch.describe(),
                problems.join("; ")
            ),
            FIX,
        ));
    }
}
