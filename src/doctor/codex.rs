//! Doctor's checks for Codex: a heredoc-guard hook that Codex lists (`hooks/list` of its
//! own `codex app-server`, which also sees inline `[hooks]` tables), trusted and not
//! modified since, inside the launcher (Codex has no `onFailure`), with a matcher covering
//! `Bash`, pointing at an existing binary; then the live probe through `$SHELL -lc`.

use std::path::Path;

use serde_json::json;

use super::matcher::{self, Client};
use super::probe::{self, Case, Launch};
use super::report::{Check, Section};
use crate::client::{self, codex};
use crate::config;
use crate::install::{hooks_doc, json_file::JsonFile};

const FIX: &str = "heredoc-guard install codex";

/// One hook to check: where it is, its matcher and command, and its trust when known.
struct Hook {
    place: String,
    matcher: Option<String>,
    command: String,
    binary: String,
    trust: Option<String>,
}

/// The Codex section, or `None` when neither `codex` nor `$CODEX_HOME/hooks.json` is here.
pub fn check(ledger_dir: &Path) -> Option<Section> {
    let binary = client::find_on_path("codex");
    let hooks_path = codex::hooks_path().ok()?;
    if binary.is_none() && !hooks_path.exists() {
        return None;
    }
    let mut checks = Vec::new();
    let title = match &binary {
        Some(b) => format!("codex ({})", b.display()),
        None => "codex (not on PATH; hooks.json found)".to_owned(),
    };
    let hooks = match &binary {
        Some(b) => match listed(b) {
            Ok(h) => h,
            Err(e) => {
                checks.push(Check::fail(
                    format!("cannot ask Codex which hooks it runs: {e}"),
                    format!(
                        "check that `{} app-server` starts, then heredoc-guard doctor",
                        b.display()
                    ),
                ));
                return Some(Section {
                    name: "codex".to_owned(),
                    title,
                    checks,
                });
            }
        },
        None => {
            checks.push(Check::fail(
                "codex is not on PATH, so whether Codex trusts the hook cannot be checked (Codex silently skips an untrusted hook)",
                "put codex on PATH, then heredoc-guard doctor",
            ));
            from_file(&hooks_path, &mut checks)
        }
    };
    if hooks.is_empty() {
        checks.push(Check::fail(
            format!(
                "no heredoc-guard hook in {} (or config.toml): Codex runs every command unchecked",
                client::tilde(&hooks_path)
            ),
            FIX,
        ));
    }
    for hook in &hooks {
        check_hook(hook, ledger_dir, &mut checks);
    }
    Some(Section {
        name: "codex".to_owned(),
        title,
        checks,
    })
}

/// heredoc-guard's hooks among those Codex lists.
fn listed(binary: &Path) -> Result<Vec<Hook>, String> {
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
fn from_file(path: &Path, checks: &mut Vec<Check>) -> Vec<Hook> {
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
            checks.push(Check::fail(e, format!("fix {what} by hand, then {FIX}")));
            Vec::new()
        }
    }
}

fn check_hook(hook: &Hook, ledger_dir: &Path, checks: &mut Vec<Check>) {
    let place = &hook.place;
    checks.push(Check::pass(format!(
        "{place}: PreToolUse hook running {}",
        hook.binary
    )));
    match hook.trust.as_deref() {
        Some("trusted") | Some("managed") => checks.push(Check::pass(format!("{place}: trusted, and not modified since"))),
        Some("modified") => checks.push(Check::fail(
            format!("{place}: modified since it was trusted: Codex silently skips it until it is trusted again"),
            FIX,
        )),
        Some(other) => checks.push(Check::fail(
            format!("{place}: {other}: Codex runs no untrusted hook, and says nothing about it"),
            FIX,
        )),
        None => {}
    }
    if config::launcher_binary(&hook.command).is_some() {
        checks.push(Check::pass(format!(
            "{place}: inside the fail-closed launcher"
        )));
    } else {
        checks.push(Check::fail(
            format!("{place}: not inside the launcher: Codex runs the command when the guard cannot start or crashes"),
            FIX,
        ));
    }
    if matcher::covers(Client::Codex, hook.matcher.as_deref(), "Bash") {
        checks.push(Check::pass(format!(
            "{place}: matcher {:?} covers Bash (every Codex shell tool)",
            hook.matcher.as_deref().unwrap_or("")
        )));
    } else {
        checks.push(Check::fail(
            format!(
                "{place}: matcher {:?} does not cover Bash",
                hook.matcher.as_deref().unwrap_or("")
            ),
            FIX,
        ));
    }
    if hook.binary.contains('/') && !client::is_executable_file(Path::new(&hook.binary)) {
        checks.push(Check::fail(
            format!("{place}: {} is not an executable file", hook.binary),
            format!("build heredoc-guard, then {FIX} from the new binary"),
        ));
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
    let problems = probe::run(&launch, &cases, ledger_dir);
    if problems.is_empty() {
        checks.push(Check::pass(format!("{place}: live probe {}: a heredoc with $(...) denied; a quoted heredoc and apply_patch allowed", launch.describe())));
    } else {
        checks.push(Check::fail(
            format!(
                "{place}: live probe {}: {}",
                launch.describe(),
                problems.join("; ")
            ),
            FIX,
        ));
    }
}
