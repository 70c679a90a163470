//! Doctor's look at the settings that switch an agent's hooks off, heredoc-guard's with
//! them, in every file in reach: Claude Code's `"disableAllHooks": true` in the user's,
//! the project's and the local settings, the enabled plugins' own `settings.json` and the
//! managed files; Codex's `[features] hooks = false` (or the legacy `codex_hooks`) in the
//! user's and the project's `config.toml`, and a `hooks.state` entry with `enabled =
//! false` for a heredoc-guard hook. Each is a failure, unless a managed heredoc-guard hook
//! is installed: a non-managed switch does not reach it (measured in both clients, see
//! docs/threat-model.md), so it is then a warning that says so.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::report::Check;
use crate::cli::client;

const MANAGED_FIX_CLAUDE: &str = "sudo heredoc-guard install claude --managed";
const MANAGED_FIX_CODEX: &str = "sudo heredoc-guard install codex --managed";

/// Claude Code: each of `files` (`true`: a managed file) that sets `disableAllHooks`.
/// `managed_hook`: a managed heredoc-guard hook is installed.
pub fn claude(files: &[(bool, PathBuf)], managed_hook: bool) -> Vec<Check> {
    let mut out = Vec::new();
    for (managed, path) in files {
        let Some(doc) = std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        else {
            continue;
        };
        if doc.get("disableAllHooks") != Some(&Value::Bool(true)) {
            continue;
        }
        let what = client::tilde(path);
        let check = if *managed {
            Check::fail(
                "claude.hooks_off",
                "managed settings set \"disableAllHooks\": true: Claude Code runs no hook at all, the managed ones included",
                format!("remove disableAllHooks from {what} (root owns it)"),
            )
        } else if managed_hook {
            Check::warn(
                "claude.hooks_off",
                "\"disableAllHooks\": true switches off every user, project, local and plugin hook, heredoc-guard's included; the managed heredoc-guard hook still runs (only the managed install survives it)",
                format!("remove disableAllHooks from {what}"),
            )
        } else {
            Check::fail(
                "claude.hooks_off",
                "\"disableAllHooks\": true switches off every user, project, local and plugin hook: heredoc-guard does not run. Only the managed install survives it",
                format!("remove disableAllHooks from {what}, or {MANAGED_FIX_CLAUDE}"),
            )
        };
        out.push(check.at(&what));
    }
    out
}

/// Codex: the user's `config.toml` (`codex_home`) and the project's (`project`, the
/// working directory's `.codex`): `[features] hooks = false`, and a `hooks.state` entry
/// disabling a hook that runs heredoc-guard. `managed_hook`: a managed heredoc-guard hook
/// is installed (requirements pin `hooks = true`).
pub fn codex(codex_home: Option<&Path>, project: Option<&Path>, managed_hook: bool) -> Vec<Check> {
    let mut out = Vec::new();
    let files = codex_home
        .map(|h| (h.join("config.toml"), true))
        .into_iter()
        .chain(project.map(|p| (p.join("config.toml"), false)));
    for (path, user) in files {
        let Some(doc) = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| t.parse::<toml_edit::DocumentMut>().ok())
        else {
            continue;
        };
        let what = client::tilde(&path);
        let features = doc.get("features");
        let off = ["hooks", "codex_hooks"].iter().any(|k| {
            features
                .and_then(|f| f.get(k))
                .and_then(toml_edit::Item::as_bool)
                == Some(false)
        });
        if off {
            let scope = if user {
                "the user's config"
            } else {
                "a project config (read when Codex trusts the project)"
            };
            let text = format!(
                "[features] hooks = false in {scope} switches off every user and project hook, heredoc-guard's included"
            );
            out.push(
                if managed_hook {
                    Check::warn(
                        "codex.hooks_off",
                        format!("{text}; the managed heredoc-guard hook still runs (its requirements pin hooks = true: only the managed install survives it)"),
                        format!("remove hooks = false from [features] in {what}"),
                    )
                } else {
                    Check::fail(
                        "codex.hooks_off",
                        format!("{text}: heredoc-guard does not run. Only the managed install survives it"),
                        format!("remove hooks = false from [features] in {what}, or {MANAGED_FIX_CODEX}"),
                    )
                }
                .at(&what),
            );
        }
        if user {
            for key in disabled_guard_hooks(&doc) {
                out.push(
                    Check::fail(
                        "codex.hooks_off",
                        format!("the hook {key} (heredoc-guard's) is disabled: hooks.state enabled = false"),
                        format!("remove enabled = false from hooks.state.\"{key}\" in {what}"),
                    )
                    .at(&what),
                );
            }
        }
    }
    out
}

/// The keys of `hooks.state` entries with `enabled = false` whose hook file holds a
/// heredoc-guard hook.
fn disabled_guard_hooks(doc: &toml_edit::DocumentMut) -> Vec<String> {
    let Some(state) = doc
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(toml_edit::Item::as_table_like)
    else {
        return Vec::new();
    };
    state
        .iter()
        .filter(|(_, v)| v.get("enabled").and_then(toml_edit::Item::as_bool) == Some(false))
        .map(|(k, _)| k.to_owned())
        .filter(|k| {
            let file = k.rsplitn(4, ':').nth(3).unwrap_or("");
            std::fs::read_to_string(file).is_ok_and(|t| t.contains("heredoc-guard"))
        })
        .collect()
}
