//! Doctor's checks for Gemini CLI: heredoc-guard hooks under `hooks.BeforeTool` in every
//! settings file Gemini reads (system defaults, user, project, system) and in its
//! extensions' `hooks/hooks.json`; each inside the JSON launcher for Gemini's form (Gemini
//! runs the command when a hook prints nothing or answers in Claude's form), with a matcher
//! covering `run_shell_command`, a timeout longer than the guard may take, not listed in
//! `hooksConfig.disabled`, pointing at a binary that is there, and answering the live probe
//! through `bash -c`. Also: `hooksConfig.enabled: false` (no hook runs at all), and a
//! current folder Gemini does not trust (it then runs no hook from any settings file).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::matcher::{self, Client};
use super::probe::{self, Answer, Case, Launch};
use super::report::{Check, Section};
use crate::cli::client::{self, gemini};
use crate::cli::config;
use crate::cli::install::{hooks_doc, json_file::JsonFile};
use crate::hook::Form;

const FIX: &str = "heredoc-guard install gemini";

/// One settings file as Gemini merges it.
struct Layer {
    path: PathBuf,
    doc: Map<String, Value>,
    project: bool,
}

/// The Gemini CLI section. `asked`: the user named Gemini (`doctor gemini`).
pub fn check(asked: bool) -> Section {
    let binary = client::find_on_path("gemini");
    let dir = gemini::dir().ok();
    let project = gemini::project_settings_path().filter(|p| p.is_file());
    let system = gemini::system_settings_path();
    let used = dir.as_deref().is_some_and(Path::is_dir) || project.is_some() || system.is_file();
    let title = match &binary {
        Some(b) => format!("gemini ({})", b.display()),
        None if used => "gemini (not on PATH; settings found)".to_owned(),
        None => "gemini (not found)".to_owned(),
    };
    let shown = dir
        .as_deref()
        .map_or_else(|| "~/.gemini".to_owned(), client::tilde);
    if !used {
        let text = match &binary {
            Some(_) => format!(
                "gemini is on PATH, but Gemini CLI is not set up here (no {shown}): not checked"
            ),
            None => format!("Gemini CLI is not here (not on PATH, no {shown}): not checked"),
        };
        let check = if asked {
            Check::fail("gemini.present", text, FIX)
        } else {
            Check::note("gemini.present", text)
        };
        return Section {
            name: "gemini".to_owned(),
            title,
            checks: vec![check],
            used: false,
        };
    }
    let mut checks = Vec::new();
    // In the order Gemini merges them: later ones win.
    let candidates = [
        (Some(gemini::system_defaults_path()), false),
        (gemini::settings_path().ok(), false),
        (project, true),
        (Some(system), false),
    ];
    let mut layers = Vec::new();
    for (path, is_project) in candidates {
        let Some(path) = path.filter(|p| p.is_file()) else {
            continue;
        };
        match JsonFile::load(&path) {
            Ok(f) => layers.push(Layer {
                path,
                doc: f.doc,
                project: is_project,
            }),
            Err(e) => checks.push(Check::fail(
                "gemini.settings",
                e,
                format!("fix {} by hand, then {FIX}", client::tilde(&path)),
            )),
        }
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let folder_trust = layers
        .iter()
        .filter(|l| !l.project)
        .filter_map(|l| {
            l.doc
                .get("security")?
                .get("folderTrust")?
                .get("enabled")?
                .as_bool()
        })
        .next_back()
        .unwrap_or(true);
    let trusted = gemini::trusted(&cwd, folder_trust) == Some(true);
    if trusted {
        checks.push(Check::pass(
            "gemini.trust",
            format!("Gemini CLI trusts this folder ({})", cwd.display()),
        ));
    } else {
        checks.push(Check::warn(
            "gemini.trust",
            format!(
                "Gemini CLI does not trust this folder ({}): there it runs no hook from any settings file, heredoc-guard's included (measured in 0.61.0's source: hooks load only in a trusted folder), and asks before each shell command; in headless mode (-p) it refuses to start",
                cwd.display()
            ),
            "trust the folder when Gemini CLI asks (or in its /permissions), then heredoc-guard doctor gemini",
        ));
    }
    let counted: Vec<&Layer> = layers.iter().filter(|l| trusted || !l.project).collect();
    let enabled = counted.iter().rev().find_map(|l| {
        let on = l.doc.get("hooksConfig")?.get("enabled")?.as_bool()?;
        Some((on, &l.path))
    });
    if let Some((false, path)) = enabled {
        checks.push(Check::fail(
            "gemini.hooks_enabled",
            format!(
                "{} sets hooksConfig.enabled to false: Gemini CLI runs no hook at all",
                client::tilde(path)
            ),
            format!(
                "remove hooksConfig.enabled from {} (or sudo heredoc-guard install gemini --managed, which pins it on)",
                client::tilde(path)
            ),
        ));
    }
    let disabled: Vec<String> = counted
        .iter()
        .filter_map(|l| l.doc.get("hooksConfig")?.get("disabled")?.as_array())
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let mut hooks: Vec<(String, hooks_doc::Found)> = Vec::new();
    for layer in &layers {
        let what = client::tilde(&layer.path);
        match hooks_doc::find_in(&layer.doc, hooks_doc::BEFORE_TOOL, &what) {
            Ok(found) if layer.project && !trusted && !found.is_empty() => {
                checks.push(Check::note(
                    "gemini.hook.untrusted",
                    format!("{what} holds a heredoc-guard hook, which does not run in this untrusted folder"),
                ));
            }
            Ok(found) => hooks.extend(found.into_iter().map(|f| (what.clone(), f))),
            Err(e) => checks.push(Check::fail(
                "gemini.settings",
                e,
                format!("fix {what} by hand, then {FIX}"),
            )),
        }
    }
    for file in extension_hook_files() {
        let what = client::tilde(&file);
        if let Ok(found) = JsonFile::load(&file)
            .and_then(|f| hooks_doc::find_in(&f.doc, hooks_doc::BEFORE_TOOL, &what))
        {
            hooks.extend(found.into_iter().map(|f| (what.clone(), f)));
        }
    }
    if hooks.is_empty() {
        let user = gemini::settings_path().map_or_else(
            |_| "~/.gemini/settings.json".to_owned(),
            |p| client::tilde(&p),
        );
        checks.push(Check::fail(
            "gemini.hook",
            format!("no heredoc-guard hook under hooks.BeforeTool in {user}, the project's .gemini/settings.json or {}: Gemini CLI runs every command unchecked", gemini::system_settings_path().display()),
            FIX,
        ));
    } else if hooks.len() > 1 {
        let places: Vec<&str> = hooks.iter().map(|(p, _)| p.as_str()).collect();
        checks.push(Check::warn(
            "gemini.duplicate",
            format!(
                "heredoc-guard runs {} times for each command ({})",
                hooks.len(),
                places.join("; ")
            ),
            "keep one: heredoc-guard uninstall gemini (the user's), or remove the others by hand",
        ));
    }
    for (place, found) in &hooks {
        check_hook(place, found, &disabled, &mut checks);
    }
    Section {
        name: "gemini".to_owned(),
        title,
        checks,
        used: true,
    }
}

/// The `hooks/hooks.json` of every extension in the user's `.gemini/extensions`.
fn extension_hook_files() -> Vec<PathBuf> {
    let Ok(dir) = gemini::dir() else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("extensions"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path().join("hooks/hooks.json"))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn check_hook(place: &str, f: &hooks_doc::Found, disabled: &[String], checks: &mut Vec<Check>) {
    let entry = &f.entry;
    let command = entry.get("command").and_then(Value::as_str).unwrap_or("");
    checks.push(
        Check::pass(
            "gemini.hook",
            format!("BeforeTool hook running {}", f.binary),
        )
        .at(place),
    );
    match config::launcher_of(command) {
        Some((config::Client::Gemini, _)) => checks.push(
            Check::pass(
                "gemini.hook.launcher",
                "inside the fail-closed launcher for Gemini CLI (every failure of the guard prints Gemini's deny JSON)",
            )
            .at(place),
        ),
        _ => checks.push(
            Check::fail(
                "gemini.hook.launcher",
                "not inside the launcher for Gemini CLI: Gemini runs the command when the hook prints nothing (a missing binary, a crash, a signal) and reads Claude Code's deny JSON as an allow",
                FIX,
            )
            .at(place),
        ),
    }
    let name = entry.get("name").and_then(Value::as_str).unwrap_or(command);
    if disabled.iter().any(|d| d == name) {
        checks.push(
            Check::fail(
                "gemini.hook.disabled",
                "listed in hooksConfig.disabled: Gemini CLI skips it",
                "remove it from hooksConfig.disabled (Gemini's /hooks enable)",
            )
            .at(place),
        );
    }
    let shown = f.matcher.as_deref().unwrap_or("");
    if matcher::covers(Client::Gemini, f.matcher.as_deref(), "run_shell_command") {
        checks.push(
            Check::pass(
                "gemini.hook.matcher",
                format!("matcher {shown:?} covers run_shell_command"),
            )
            .at(place),
        );
    } else {
        checks.push(
            Check::fail(
                "gemini.hook.matcher",
                format!("matcher {shown:?} does not cover run_shell_command"),
                FIX,
            )
            .at(place),
        );
    }
    // Gemini's default is 60000 ms; past the timeout it runs the command.
    let floor = u64::from(crate::hook::BACKSTOP_SECONDS + 1) * 1000;
    if let Some(t) = entry.get("timeout").and_then(Value::as_f64)
        && t < floor as f64
    {
        checks.push(
            Check::fail(
                "gemini.hook.timeout",
                format!("timeout {t} ms is shorter than the guard may take ({floor} ms): Gemini CLI runs the command when the hook times out"),
                FIX,
            )
            .at(place),
        );
    }
    if let Some(problem) = super::missing_binary(&f.binary) {
        checks.push(Check::fail("gemini.hook.binary", problem.0, problem.1).at(place));
        return;
    }
    let launch = Launch::BashC("Gemini CLI", command.to_owned());
    let cases = [
        Case {
            name: "run_shell_command heredoc with $(...)",
            event: probe::gemini_event(probe::DENY_COMMAND),
            deny: true,
        },
        Case {
            name: "run_shell_command quoted heredoc",
            event: probe::gemini_event(probe::ALLOW_COMMAND),
            deny: false,
        },
    ];
    let problems = probe::run_reading(&launch, &cases, Answer::Json(Form::Gemini));
    if problems.is_empty() {
        checks.push(Check::pass("gemini.hook.probe", format!("live probe {}: a heredoc with $(...) denied in Gemini's form, a quoted heredoc allowed", launch.describe())).at(place));
    } else {
        checks.push(
            Check::fail(
                "gemini.hook.probe",
                format!("live probe {}: {}", launch.describe(), problems.join("; ")),
                FIX,
            )
            .at(place),
        );
    }
}
