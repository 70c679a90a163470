//! `heredoc-guard install|uninstall gemini [--managed]`: the hook under `hooks.BeforeTool`
//! in Gemini CLI's user settings (`$GEMINI_CLI_HOME/.gemini/settings.json`), or with
//! `--managed` in its system settings (`/etc/gemini-cli/settings.json`, moved by
//! `GEMINI_CLI_SYSTEM_SETTINGS_PATH`), which Gemini applies over every user and project
//! setting. The hook is the JSON launcher for Gemini's form (Gemini runs the command when a
//! hook prints nothing, whatever its exit status), matcher `^run_shell_command$`, timeout
//! 30000 ms. The managed install also pins `hooksConfig.enabled: true` there (the system
//! file wins the merge, so a user's `false` no longer turns hooks off); uninstall leaves
//! that pin (it is Gemini's default) and says so. Idempotent, with the backups and the
//! refusals of [`super::json_file`].

use std::io::Write;
use std::path::Path;

use serde_json::{Map, Value};

use super::json_file::JsonFile;
use super::{Failure, backup_note, hooks_doc, say};
use crate::cli::client::{self, gemini};
use crate::cli::config;

/// What Gemini does in a folder it does not trust, said after each install.
pub const TRUST_NOTE: &str = "Gemini CLI runs no hook from any settings file (this one included) in a folder it does not trust: trust your projects when it asks (in headless mode it refuses to start in an untrusted folder). heredoc-guard doctor gemini says when the current folder is not trusted.";

/// `install gemini`.
pub fn install(out: &mut dyn Write) -> Result<(), Failure> {
    let binary = super::own_binary(out)?;
    let path = gemini::settings_path()?;
    let file = JsonFile::load(&path)?;
    let mut doc = file.doc.clone();
    if merge(&mut doc, &binary, &path)? {
        let backup = file.save(&doc)?;
        say(
            out,
            &format!(
                "{}: added a BeforeTool hook for {} running {binary} --agent gemini inside the fail-closed sh launcher for Gemini CLI (every failure of the guard prints Gemini's deny JSON){}.",
                client::tilde(&path),
                config::GEMINI_MATCHER,
                backup_note(backup.as_deref())
            ),
        );
    } else {
        say(
            out,
            &format!(
                "{}: heredoc-guard is already installed there; nothing changed.",
                client::tilde(&path)
            ),
        );
    }
    if hooks_enabled(&doc) == Some(false) {
        say(
            out,
            &format!(
                "Warning: {} sets hooksConfig.enabled to false: Gemini CLI runs no hook at all, this one included. Remove that setting (or install --managed, which pins it on).",
                client::tilde(&path)
            ),
        );
    }
    say(out, TRUST_NOTE);
    say(
        out,
        "Next: run `heredoc-guard doctor gemini` to check that Gemini CLI runs it.",
    );
    Ok(())
}

/// `install gemini --managed`.
pub fn install_managed(out: &mut dyn Write) -> Result<(), Failure> {
    let binary = super::own_binary(out)?;
    let path = gemini::system_settings_path();
    let file = JsonFile::load(&path).map_err(|e| permission_hint(e, &path))?;
    let mut doc = file.doc.clone();
    let mut changed = merge(&mut doc, &binary, &path)?;
    match hooks_enabled(&doc) {
        Some(true) => {}
        Some(false) => {
            return Err(format!(
                "{} sets hooksConfig.enabled to false: Gemini CLI runs no hook at all there, so a managed hook would never run; nothing was changed. Remove that setting first.",
                path.display()
            ));
        }
        None => {
            let config = doc
                .entry("hooksConfig")
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
                .ok_or_else(|| format!("`hooksConfig` in {} is not an object", path.display()))?;
            config.insert("enabled".to_owned(), Value::Bool(true));
            changed = true;
        }
    }
    if changed {
        let backup = file
            .save_with_mode(&doc, 0o644)
            .map_err(|e| permission_hint(e, &path))?;
        say(
            out,
            &format!(
                "{}: added a managed BeforeTool hook for {} running {binary} --agent gemini inside the fail-closed sh launcher for Gemini CLI, with hooksConfig.enabled: true. Gemini CLI applies this file over every user and project setting{}.",
                path.display(),
                config::GEMINI_MATCHER,
                backup_note(backup.as_deref())
            ),
        );
    } else {
        say(
            out,
            &format!(
                "{}: already there as asked; nothing changed.",
                path.display()
            ),
        );
    }
    if let Some(w) = super::managed::binary_ownership_warning(&binary) {
        say(out, &w);
    }
    say(out, TRUST_NOTE);
    say(
        out,
        "Next: run `heredoc-guard doctor gemini` as a user to check that Gemini CLI runs it.",
    );
    Ok(())
}

/// `uninstall gemini [--remove-backups]`.
pub fn uninstall(remove_backups: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let path = gemini::settings_path()?;
    let file = JsonFile::load(&path)?;
    let removed = remove_from(&file, 0o600, out)?;
    if removed == 0 {
        say(
            out,
            &format!(
                "{}: no heredoc-guard hook there; nothing changed.",
                client::tilde(&path)
            ),
        );
    }
    let system = gemini::system_settings_path();
    if JsonFile::load(&system)
        .and_then(|f| hooks_doc::find_in(&f.doc, hooks_doc::BEFORE_TOOL, "system settings"))
        .is_ok_and(|found| !found.is_empty())
    {
        say(
            out,
            &format!(
                "The managed hook in {} still runs for every user here; only root removes it: sudo heredoc-guard uninstall gemini --managed",
                system.display()
            ),
        );
    }
    super::uninstall::backups(&file, "gemini", remove_backups, out)
}

/// `uninstall gemini --managed`.
pub fn uninstall_managed(out: &mut dyn Write) -> Result<(), Failure> {
    let path = gemini::system_settings_path();
    let file = JsonFile::load(&path).map_err(|e| permission_hint(e, &path))?;
    if file.original.is_none() {
        say(
            out,
            &format!("{}: not there; nothing changed.", path.display()),
        );
        return Ok(());
    }
    let removed = remove_from(&file, 0o644, out).map_err(|e| permission_hint(e, &path))?;
    if removed == 0 {
        say(
            out,
            &format!(
                "{}: no heredoc-guard hook there; nothing changed.",
                path.display()
            ),
        );
    } else if hooks_enabled(&file.doc) == Some(true) && Path::new(&path).exists() {
        say(
            out,
            "hooksConfig.enabled: true is left in it (Gemini's default; install --managed set it if it was not there).",
        );
    }
    Ok(())
}

/// Puts the hook for `binary` in `doc`; `true` when that changed it.
fn merge(doc: &mut Map<String, Value>, binary: &str, path: &Path) -> Result<bool, Failure> {
    hooks_doc::install_in(
        doc,
        hooks_doc::BEFORE_TOOL,
        config::GEMINI_MATCHER,
        &config::gemini_handler(binary),
        &path.display().to_string(),
    )
}

/// `hooksConfig.enabled` in `doc`, when set to a boolean.
pub fn hooks_enabled(doc: &Map<String, Value>) -> Option<bool> {
    doc.get("hooksConfig")?.get("enabled")?.as_bool()
}

/// Removes heredoc-guard's handlers from `file` (and the file when nothing else is left);
/// returns how many.
fn remove_from(file: &JsonFile, new_mode: u32, out: &mut dyn Write) -> Result<usize, Failure> {
    let mut doc = file.doc.clone();
    let what = file.shown.display().to_string();
    let removed = hooks_doc::remove_in(&mut doc, hooks_doc::BEFORE_TOOL, &what)?;
    if removed.is_empty() {
        return Ok(0);
    }
    if doc.is_empty() {
        file.remove()?;
    } else {
        file.save_with_mode(&doc, new_mode)?;
    }
    say(
        out,
        &format!(
            "{}: removed {} heredoc-guard hook{}; {}.",
            client::tilde(&file.shown),
            removed.len(),
            if removed.len() == 1 { "" } else { "s" },
            if doc.is_empty() {
                "nothing else was in it, so the file is removed"
            } else {
                "every other setting is as it was"
            }
        ),
    );
    Ok(removed.len())
}

/// A failure on a system file that says to use sudo when it is a matter of permissions.
fn permission_hint(e: String, path: &Path) -> Failure {
    if e.contains("ermission denied") {
        format!(
            "{e}. The managed install writes Gemini CLI's system settings ({}) and needs root: run it again with sudo.",
            path.display()
        )
    } else {
        e
    }
}
