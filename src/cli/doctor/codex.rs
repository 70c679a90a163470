//! Doctor's checks for Codex: a heredoc-guard hook that Codex lists (`hooks/list` of its
//! own `codex app-server`, which also sees inline `[hooks]` tables and project hooks),
//! trusted and not modified since, inside the launcher (Codex has no `onFailure`), with a
//! matcher covering `Bash`, pointing at a binary that is there; then the live probe
//! through `$SHELL -lc`; and a hook that runs more than once. When Codex's home does not
//! exist, Codex is not used here: `codex app-server` is not started (it would create it).

use serde_json::json;

use super::matcher::{self, Client};
use super::probe::{self, Case, Launch};
use super::report::{Check, Section};
use crate::cli::client::{self, codex};
use crate::cli::config;
use crate::cli::install::{hooks_doc, json_file::JsonFile};

const FIX: &str = "heredoc-guard install codex";

/// One hook to check: where it is, its matcher and command, and its trust when known.
struct Hook {
    place: String,
    matcher: Option<String>,
    command: String,
    binary: String,
    trust: Option<String>,
}

/// The Codex section. `asked`: the user named Codex (`doctor codex`), so an agent that is
/// not set up here is a failure, not a note.
pub fn check(asked: bool) -> Section {
    let binary = client::find_on_path("codex");
    let home = codex::home().ok();
    let project = std::env::current_dir()
        .map(|d| d.join(".codex"))
        .is_ok_and(|d| d.is_dir());
    let used = home.as_deref().is_some_and(std::path::Path::is_dir) || project;
    let title = match &binary {
        Some(b) => format!("codex ({})", b.display()),
        None if used => "codex (not on PATH; settings found)".to_owned(),
        None => "codex (not found)".to_owned(),
    };
    let shown_home = home
        .as_deref()
        .map_or_else(|| "~/.codex".to_owned(), client::tilde);
    if !used {
        let text = match &binary {
            Some(_) => format!(
                "codex is on PATH, but Codex is not set up here (no {shown_home}): not checked, and not created"
            ),
            None => format!("Codex is not here (not on PATH, no {shown_home}): not checked"),
        };
        let check = if asked {
            Check::fail("codex.present", text, FIX)
        } else {
            Check::note("codex.present", text)
        };
        return Section {
            name: "codex".to_owned(),
            title,
            checks: vec![check],
            used: false,
        };
    }
    let mut checks = Vec::new();
    let hooks_path = codex::hooks_path().ok();
    let hooks = match &binary {
        Some(b) => match listed(b) {
            Ok(h) => h,
            Err(e) => {
                checks.push(Check::fail(
                    "codex.list",
                    format!("cannot ask Codex which hooks it runs: {e}"),
                    format!(
                        "check that `{} app-server` starts, then heredoc-guard doctor codex",
                        b.display()
                    ),
                ));
                return Section {
                    name: "codex".to_owned(),
                    title,
                    checks,
                    used: true,
                };
            }
        },
        None => {
            checks.push(Check::fail(
                "codex.list",
                "codex is not on PATH, so whether Codex trusts the hook cannot be checked (Codex silently skips an untrusted hook)",
                "put codex on PATH, then heredoc-guard doctor codex",
            ));
            hooks_path
                .as_deref()
                .map(|p| from_file(p, &mut checks))
                .unwrap_or_default()
        }
    };
    if hooks.is_empty() {
        checks.push(Check::fail(
            "codex.hook",
            format!(
                "no heredoc-guard hook in {} (or config.toml): Codex runs every command unchecked",
                hooks_path
                    .as_deref()
                    .map_or_else(|| "hooks.json".to_owned(), client::tilde)
            ),
            FIX,
        ));
    } else if hooks.len() > 1 {
        let places: Vec<&str> = hooks.iter().map(|h| h.place.as_str()).collect();
        checks.push(Check::warn(
            "codex.duplicate",
            format!(
                "heredoc-guard runs {} times for each command ({})",
                hooks.len(),
                places.join("; ")
            ),
            "keep one: remove the others from hooks.json or config.toml, then heredoc-guard install codex",
        ));
    }
    for hook in &hooks {
        check_hook(hook, &mut checks);
    }
    let managed_hook = crate::cli::install::managed::codex_installed()
        .is_some_and(|(binaries, _)| !binaries.is_empty());
    let project_dir = std::env::current_dir()
        .map(|d| d.join(".codex"))
        .ok()
        .filter(|d| d.is_dir());
    checks.extend(super::switches::codex(
        home.as_deref(),
        project_dir.as_deref(),
        managed_hook,
    ));
    Section {
        name: "codex".to_owned(),
        title,
        checks,
        used: true,
    }
}

/// heredoc-guard's hooks among those Codex lists.
fn listed(binary: &std::path::Path) -> Result<Vec<Hook>, String> {
    let mut server = codex::AppServer::start(binary)?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| "/".into());
    Ok(server
        .list_hooks(&cwd)?
        .into_iter()
        .filter(|h| h.event == "preToolUse")
        .filter_map(|h| {
            let command = h.command.clone()?;
            let binary = hooks_doc::guard_binary(&json!({"command": command}))?;
            Some(Hook {
                place: h.key.clone(),
                matcher: h.matcher,
                command,
                binary,
                trust: Some(h.trust),
            })
        })
        .collect())
}

/// heredoc-guard's hooks in hooks.json, when Codex cannot be asked.
fn from_file(path: &std::path::Path, checks: &mut Vec<Check>) -> Vec<Hook> {
    let what = client::tilde(path);
    let found = JsonFile::load(path).and_then(|f| hooks_doc::find(&f.doc, &what));
    match found {
        Ok(found) => found
            .into_iter()
            .map(|f| Hook {
                place: format!("{what}:pre_tool_use:{}:{}", f.group, f.handler),
                matcher: f.matcher,
                command: f
                    .entry
                    .get("command")
                    .and_then(|c| c.as_str())
                    .unwrap_or("")
                    .to_owned(),
                binary: f.binary,
                trust: None,
            })
            .collect(),
        Err(e) => {
            checks.push(Check::fail(
                "codex.settings",
                e,
                format!("fix {what} by hand, then {FIX}"),
            ));
            Vec::new()
        }
    }
}

fn check_hook(hook: &Hook, checks: &mut Vec<Check>) {
    let place = hook.place.as_str();
    checks.push(
        Check::pass(
            "codex.hook",
            format!("PreToolUse hook running {}", hook.binary),
        )
        .at(place),
    );
    match hook.trust.as_deref() {
        Some("trusted") | Some("managed") => checks
            .push(Check::pass("codex.hook.trust", "trusted, and not modified since").at(place)),
        Some("modified") => checks.push(
            Check::fail(
                "codex.hook.trust",
                "modified since it was trusted: Codex silently skips it until it is trusted again",
                FIX,
            )
            .at(place),
        ),
        Some(other) => checks.push(
            Check::fail(
                "codex.hook.trust",
                format!("{other}: Codex runs no untrusted hook, and says nothing about it"),
                FIX,
            )
            .at(place),
        ),
        None => {}
    }
    if config::launcher_binary(&hook.command).is_some() {
        checks
            .push(Check::pass("codex.hook.launcher", "inside the fail-closed launcher").at(place));
        if !config::is_current_launcher(&hook.command) {
            checks.push(
                Check::warn(
                    "codex.hook.form",
                    "written by an earlier release: when the binary goes missing, Codex's commands are blocked with no word of what is missing or what to do",
                    FIX,
                )
                .at(place),
            );
        }
    } else {
        checks.push(Check::fail(
            "codex.hook.launcher",
            "not inside the launcher: Codex runs the command when the guard cannot start or crashes",
            FIX,
        ).at(place));
    }
    let shown = hook.matcher.as_deref().unwrap_or("");
    if matcher::covers(Client::Codex, hook.matcher.as_deref(), "Bash") {
        checks.push(
            Check::pass(
                "codex.hook.matcher",
                format!("matcher {shown:?} covers Bash (every Codex shell tool)"),
            )
            .at(place),
        );
    } else {
        checks.push(
            Check::fail(
                "codex.hook.matcher",
                format!("matcher {shown:?} does not cover Bash"),
                FIX,
            )
            .at(place),
        );
    }
    if let Some(problem) = super::missing_binary(&hook.binary) {
        checks.push(Check::fail("codex.hook.binary", problem.0, problem.1).at(place));
        return;
    }
    let launch = Launch::LoginShell(hook.command.clone());
    let cases = [
        Case {
            name: "Bash heredoc with $(...)",
            event: probe::event(true, "Bash", probe::DENY_COMMAND),
            deny: true,
        },
        Case {
            name: "Bash quoted heredoc",
            event: probe::event(true, "Bash", probe::ALLOW_COMMAND),
            deny: false,
        },
        Case {
            name: "apply_patch",
            event: probe::event(
                true,
                "apply_patch",
                "*** Begin Patch\n*** Add File: x\n+$(id)\n*** End Patch",
            ),
            deny: false,
        },
    ];
    let problems = probe::run(&launch, &cases);
    if problems.is_empty() {
        checks.push(Check::pass("codex.hook.probe", format!("live probe {}: a heredoc with $(...) denied; a quoted heredoc and apply_patch allowed", launch.describe())).at(place));
    } else {
        checks.push(
            Check::fail(
                "codex.hook.probe",
                format!("live probe {}: {}", launch.describe(), problems.join("; ")),
                FIX,
            )
            .at(place),
        );
    }
}
