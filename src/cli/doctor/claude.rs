//! Doctor's checks for Claude Code: heredoc-guard hooks in the settings files Claude Code
//! reads (user, project, project local) and in the plugins those files enable
//! (`enabledPlugins`, found through `plugins/installed_plugins.json`), each pointing at a
//! binary that is there (a bare name resolved on PATH, as the client does), in a
//! fail-closed form (the launcher or the exec form, with `"onFailure": "block"`, no invalid
//! value that makes Claude drop the entry), with a matcher covering every shell tool, on a
//! Claude Code new enough for `onFailure`; then the live probe of each; and a hook that
//! runs more than once.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::matcher::{self, Client};
use super::probe::{self, Case, Launch};
use super::report::{Check, Section};
use crate::cli::client::{self, claude};
use crate::cli::install::{hooks_doc, json_file::JsonFile};
use heredoc_guard::SHELL_TOOLS;

const FIX: &str = "heredoc-guard install claude";

/// One heredoc-guard hook Claude Code runs here: in a settings file or a plugin.
struct Hook {
    place: String,
    found: hooks_doc::Found,
}

/// The Claude Code section. `asked`: the user named Claude (`doctor claude`), so an
/// agent that is not set up here is a failure, not a note.
pub fn check(asked: bool) -> Section {
    let found = claude::find();
    let config_dir = claude::config_dir().ok();
    let files: Vec<(claude::Scope, PathBuf)> = claude::all_settings_paths()
        .into_iter()
        .filter(|(_, p)| std::fs::symlink_metadata(p).is_ok())
        .collect();
    // The system-wide (managed) files, read last: Claude Code applies them above the rest.
    let managed_files = crate::cli::install::managed::claude_files();
    let used = config_dir.as_deref().is_some_and(Path::is_dir)
        || !files.is_empty()
        || !managed_files.is_empty();
    let title = match &found {
        Some(f) => match &f.version {
            Ok(v) => format!("claude {v} ({})", f.binary.display()),
            Err(e) => format!("claude ({}; version unknown: {e})", f.binary.display()),
        },
        None if used => "claude (not on PATH; settings found)".to_owned(),
        None => "claude (not found)".to_owned(),
    };
    let dir = config_dir
        .as_deref()
        .map_or_else(|| "~/.claude".to_owned(), client::tilde);
    if !used {
        let text = match &found {
            Some(_) => format!(
                "claude is on PATH, but Claude Code is not set up here (no {dir}, no .claude/settings*.json): not checked"
            ),
            None => format!("Claude Code is not here (not on PATH, no {dir}): not checked"),
        };
        let check = if asked {
            Check::fail(
                "claude.present",
                text,
                format!("run Claude Code once, then {FIX}"),
            )
        } else {
            Check::note("claude.present", text)
        };
        return Section {
            name: "claude".to_owned(),
            title,
            checks: vec![check],
            used: false,
        };
    }
    let mut checks = Vec::new();
    let version = found
        .as_ref()
        .and_then(|f| f.version.as_ref().ok().copied());
    match version {
        Some(v) if v < claude::ON_FAILURE_SINCE => checks.push(Check::fail(
            "claude.version",
            format!("Claude Code {v} predates {}: it ignores \"onFailure\", so a hook that times out lets the command run", claude::ON_FAILURE_SINCE),
            "update Claude Code (npm install -g @anthropic-ai/claude-code), then heredoc-guard doctor claude",
        )),
        Some(v) => checks.push(Check::pass("claude.version", format!("Claude Code {v} knows \"onFailure\": \"block\" ({} or later)", claude::ON_FAILURE_SINCE))),
        None => {}
    }
    let mut hooks = Vec::new();
    let mut enabled: Vec<(String, bool)> = Vec::new();
    let managed_only = managed_files.iter().any(|p| {
        JsonFile::load(p)
            .is_ok_and(|f| f.doc.get("allowManagedHooksOnly") == Some(&Value::Bool(true)))
    });
    let paths = files
        .iter()
        .map(|(_, p)| (false, p))
        .chain(managed_files.iter().map(|p| (true, p)));
    for (is_managed, path) in paths {
        if managed_only && !is_managed {
            continue;
        }
        let what = client::tilde(path);
        let file = match JsonFile::load(path) {
            Ok(f) => f,
            Err(e) => {
                checks.push(Check::fail(
                    "claude.settings",
                    e,
                    format!("fix {what} by hand, then {FIX}"),
                ));
                continue;
            }
        };
        if let Some(target) = &file.dangling {
            checks.push(Check::warn(
                "claude.settings",
                format!("{what} is a symlink to {}, which does not exist: Claude Code reads no settings there", target.display()),
                format!("create {} or remove the link", target.display()),
            ));
        }
        match hooks_doc::find(&file.doc, &what) {
            Ok(found) => hooks.extend(found.into_iter().map(|f| Hook {
                place: what.clone(),
                found: f,
            })),
            Err(e) => checks.push(Check::fail(
                "claude.settings",
                e,
                format!("fix {what} by hand, then {FIX}"),
            )),
        }
        // Later files win: user, then project, then project local.
        if let Some(Value::Object(plugins)) = file.doc.get("enabledPlugins") {
            for (key, on) in plugins {
                enabled.retain(|(k, _)| k != key);
                enabled.push((key.clone(), on.as_bool() == Some(true)));
            }
        }
    }
    let plugin_dirs = if managed_only {
        checks.push(Check::note(
            "claude.managed_only",
            "managed settings set allowManagedHooksOnly: Claude Code runs only the managed hooks, so user, project and plugin hooks are not checked",
        ));
        Vec::new()
    } else {
        plugin_hooks(&enabled, &mut hooks, &mut checks)
    };
    // Every settings file in reach that switches hooks off (the plugins' own too).
    let managed_hook = managed_files.iter().any(|p| {
        JsonFile::load(p)
            .and_then(|f| hooks_doc::find(&f.doc, ""))
            .is_ok_and(|found| !found.is_empty())
    });
    let switch_files: Vec<(bool, PathBuf)> = files
        .iter()
        .map(|(_, p)| (false, p.clone()))
        .chain(plugin_dirs.iter().map(|d| (false, d.join("settings.json"))))
        .chain(managed_files.iter().map(|p| (true, p.clone())))
        .collect();
    checks.extend(super::switches::claude(&switch_files, managed_hook));
    for hook in &hooks {
        check_hook(hook, version, &mut checks);
    }
    if hooks.is_empty() {
        let places: Vec<String> = claude::all_settings_paths()
            .iter()
            .map(|(_, p)| client::tilde(p))
            .collect();
        checks.push(Check::fail(
            "claude.hook",
            format!(
                "no heredoc-guard hook in {}, and no enabled plugin holds one: Claude Code runs every command unchecked",
                places.join(", ")
            ),
            FIX,
        ));
    } else if hooks.len() > 1 {
        let places: Vec<&str> = hooks.iter().map(|h| h.place.as_str()).collect();
        checks.push(Check::warn(
            "claude.duplicate",
            format!(
                "heredoc-guard runs {} times for each command ({}): guarded, but every call is paid for twice and each deny is recorded twice",
                hooks.len(),
                places.join("; ")
            ),
            "keep one: heredoc-guard uninstall claude (for a settings file; add --project for the project's), or claude plugin disable heredoc-guard",
        ));
    }
    Section {
        name: "claude".to_owned(),
        title,
        checks,
        used: true,
    }
}

/// The heredoc-guard hooks of the enabled plugins, from where Claude Code installed them;
/// returns the enabled plugins' directories.
fn plugin_hooks(
    enabled: &[(String, bool)],
    hooks: &mut Vec<Hook>,
    checks: &mut Vec<Check>,
) -> Vec<PathBuf> {
    let mut plugin_dirs = Vec::new();
    let on: Vec<&str> = enabled
        .iter()
        .filter(|(_, on)| *on)
        .map(|(k, _)| k.as_str())
        .collect();
    if on.is_empty() {
        return plugin_dirs;
    }
    let installed = claude::installed_plugins_path()
        .ok()
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    for key in on {
        let dirs: Vec<PathBuf> = installed
            .as_ref()
            .and_then(|v| v.get("plugins")?.get(key)?.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|e| e.get("installPath")?.as_str().map(PathBuf::from))
            .filter(|p| p.is_dir())
            .collect();
        let ours = key.split('@').next() == Some("heredoc-guard");
        let Some(dir) = dirs.first() else {
            if ours {
                checks.push(Check::fail(
                    "claude.plugin",
                    format!("the plugin {key} is enabled but not installed here"),
                    format!(
                        "claude plugin install {key}, or claude plugin disable {key} and {FIX}"
                    ),
                ));
            }
            continue;
        };
        plugin_dirs.push(dir.clone());
        let place = format!("plugin {key} ({})", client::tilde(dir));
        let hooks_file = dir.join("hooks/hooks.json");
        let found = JsonFile::load(&hooks_file)
            .and_then(|f| hooks_doc::find(&f.doc, &client::tilde(&hooks_file)));
        match found {
            Ok(found) if found.is_empty() && ours => checks.push(
                Check::fail(
                    "claude.plugin",
                    "the plugin holds no heredoc-guard hook",
                    format!("claude plugin update {key}, or {FIX}"),
                )
                .at(&place),
            ),
            Ok(found) => hooks.extend(found.into_iter().map(|f| Hook {
                place: place.clone(),
                found: f,
            })),
            Err(e) if ours => checks.push(
                Check::fail(
                    "claude.plugin",
                    e,
                    format!("claude plugin update {key}, or {FIX}"),
                )
                .at(&place),
            ),
            Err(_) => {}
        }
    }
    plugin_dirs
}

fn check_hook(hook: &Hook, version: Option<claude::Version>, checks: &mut Vec<Check>) {
    let place = hook.place.as_str();
    let f = &hook.found;
    let entry = &f.entry;
    let exec = entry.get("args").is_some();
    let command_text = entry.get("command").and_then(Value::as_str).unwrap_or("");
    let launcher = crate::cli::config::launcher_binary(command_text).is_some();
    let on_failure = entry.get("onFailure");
    let form = match (exec, launcher) {
        (true, _) => "exec form",
        (false, true) => "sh launcher",
        (false, false) => "bare command",
    };
    checks.push(
        Check::pass(
            "claude.hook",
            format!("PreToolUse hook ({form}) running {}", f.binary),
        )
        .at(place),
    );
    if exec || (launcher && !crate::cli::config::is_current_launcher(command_text)) {
        checks.push(
            Check::warn(
                "claude.hook.form",
                "written by an earlier release: when the binary goes missing, the agent's commands are blocked with no word of what is missing or what to do",
                FIX,
            )
            .at(place),
        );
    }
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
        checks.push(
            Check::fail(
                "claude.hook.entry",
                format!("the hook entry has {}", invalid.join(", ")),
                FIX,
            )
            .at(place),
        );
    }
    if on_failure.is_none() && !launcher {
        checks.push(Check::fail(
            "claude.hook.fail-closed",
            "the hook has neither \"onFailure\": \"block\" nor the launcher: a guard that cannot start or crashes lets the command run",
            FIX,
        ).at(place));
    } else if on_failure.is_some_and(|v| v == "block") {
        checks.push(
            Check::pass(
                "claude.hook.fail-closed",
                format!(
                    "fails closed (\"onFailure\": \"block\"{})",
                    if launcher { " and the launcher" } else { "" }
                ),
            )
            .at(place),
        );
    }
    if exec && version.is_some_and(|v| v < claude::ON_FAILURE_SINCE) {
        checks.push(
            Check::fail(
                "claude.hook.entry",
                format!(
                    "the exec form needs Claude Code {} or later",
                    claude::ON_FAILURE_SINCE
                ),
                FIX,
            )
            .at(place),
        );
    }
    let missing: Vec<&str> = SHELL_TOOLS
        .iter()
        .copied()
        .filter(|t| !matcher::covers(Client::Claude, f.matcher.as_deref(), t))
        .collect();
    let shown = f.matcher.as_deref().unwrap_or("");
    if missing.is_empty() {
        checks.push(
            Check::pass(
                "claude.hook.matcher",
                format!("matcher {shown:?} covers {}", SHELL_TOOLS.join(", ")),
            )
            .at(place),
        );
    } else {
        checks.push(
            Check::fail(
                "claude.hook.matcher",
                format!(
                    "matcher {shown:?} misses {} (shell tools that then run unchecked)",
                    missing.join(", ")
                ),
                FIX,
            )
            .at(place),
        );
    }
    if let Some(problem) = super::missing_binary(&f.binary) {
        checks.push(Check::fail("claude.hook.binary", problem.0, problem.1).at(place));
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
    let problems = probe::run(&launch, &cases);
    if problems.is_empty() {
        checks.push(Check::pass("claude.hook.probe", format!("live probe {}: Bash and Monitor heredocs with $(...) denied, a quoted heredoc allowed", launch.describe())).at(place));
    } else {
        checks.push(
            Check::fail(
                "claude.hook.probe",
                format!("live probe {}: {}", launch.describe(), problems.join("; ")),
                FIX,
            )
            .at(place),
        );
    }
}
