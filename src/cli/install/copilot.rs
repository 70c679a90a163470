//! `heredoc-guard install|uninstall copilot`: a hook file of its own,
//! `$COPILOT_HOME/hooks/heredoc-guard.json` (default `~/.copilot`), in Copilot CLI's own
//! form: one `preToolUse` handler (Copilot calls it for every tool; the guard reads only
//! `bash` and allows the rest unread) running the JSON launcher for Copilot's form, with a
//! 30 s `timeoutSec`. A hook that times out lets the command run in Copilot (1.0.67 and
//! later): no launcher closes that. Copilot has no system file on disk, so there is no
//! managed install. Idempotent, with the backups and refusals of [`super::json_file`];
//! uninstall removes heredoc-guard's handlers, and the file when nothing else is in it.

use std::io::Write;

use serde_json::{Map, Value};

use super::json_file::JsonFile;
use super::{Failure, backup_note, say};
use crate::cli::client::{self, copilot};
use crate::cli::config;

/// `install copilot`.
pub fn install(out: &mut dyn Write) -> Result<(), Failure> {
    let binary = super::own_binary(out)?;
    let path = copilot::hooks_path()?;
    let file = JsonFile::load(&path)?;
    let wanted = match config::copilot_hooks_file(&binary) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let mut doc = file.doc.clone();
    remove_handlers(&mut doc);
    let others = !doc.is_empty() && doc.keys().any(|k| k != "version");
    if file.doc == wanted {
        say(
            out,
            &format!(
                "{}: heredoc-guard is already installed there; nothing changed.",
                client::tilde(&path)
            ),
        );
    } else if others {
        return Err(format!(
            "{} holds hooks other than heredoc-guard's; nothing was changed. Move them to a file of their own in {}, then run this again.",
            path.display(),
            path.parent()
                .map_or_else(String::new, |d| d.display().to_string())
        ));
    } else {
        let backup = file.save(&wanted)?;
        say(
            out,
            &format!(
                "{}: added a preToolUse hook running {binary} --agent copilot inside the fail-closed sh launcher for Copilot CLI (every failure of the guard prints Copilot's deny JSON, so the model reads why){}.",
                client::tilde(&path),
                backup_note(backup.as_deref())
            ),
        );
    }
    if settings_disable_all_hooks() {
        say(
            out,
            &format!(
                "Warning: {} sets disableAllHooks, which Copilot CLI describes as switching off every user and repository hook. Remove that setting.",
                copilot::settings_path()
                    .map_or_else(|_| "settings.json".to_owned(), |p| client::tilde(&p))
            ),
        );
    }
    say(
        out,
        "Copilot CLI lets the command run when a hook times out (30 s here): only the guard's speed protects there.",
    );
    say(
        out,
        "Next: run `heredoc-guard doctor copilot` to check that Copilot CLI runs it.",
    );
    Ok(())
}

/// `uninstall copilot [--remove-backups]`.
pub fn uninstall(remove_backups: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let path = copilot::hooks_path()?;
    let file = JsonFile::load(&path)?;
    let mut doc = file.doc.clone();
    let removed = remove_handlers(&mut doc);
    if removed == 0 {
        say(
            out,
            &format!(
                "{}: no heredoc-guard hook there; nothing changed.",
                client::tilde(&path)
            ),
        );
    } else {
        let empty = doc.keys().all(|k| k == "version");
        if empty {
            file.remove()?;
        } else {
            file.save(&doc)?;
        }
        say(
            out,
            &format!(
                "{}: removed {removed} heredoc-guard hook{}; {}.",
                client::tilde(&path),
                if removed == 1 { "" } else { "s" },
                if empty {
                    "nothing else was in it, so the file is removed"
                } else {
                    "every other hook is as it was"
                }
            ),
        );
    }
    super::uninstall::backups(&file, "copilot", remove_backups, out)
}

/// The binary a Copilot handler runs, when it is heredoc-guard's (its `bash` or `command`
/// a launcher line or a bare path of a file named `heredoc-guard`).
pub fn guard_binary(handler: &Value) -> Option<String> {
    let line = handler
        .get("bash")
        .or_else(|| handler.get("command"))?
        .as_str()?;
    super::hooks_doc::guard_binary(&serde_json::json!({"command": line}))
}

/// Removes heredoc-guard's handlers from `hooks.preToolUse` (and what that leaves empty);
/// returns how many went.
fn remove_handlers(doc: &mut Map<String, Value>) -> usize {
    let Some(Value::Object(hooks)) = doc.get_mut("hooks") else {
        return 0;
    };
    let Some(Value::Array(handlers)) = hooks.get_mut("preToolUse") else {
        return 0;
    };
    let before = handlers.len();
    handlers.retain(|h| guard_binary(h).is_none());
    let removed = before - handlers.len();
    if handlers.is_empty() {
        hooks.remove("preToolUse");
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
    removed
}

/// True when the user's settings.json sets `disableAllHooks`.
pub fn settings_disable_all_hooks() -> bool {
    copilot::settings_path()
        .ok()
        .and_then(|p| JsonFile::load(&p).ok())
        .is_some_and(|f| f.doc.get("disableAllHooks") == Some(&Value::Bool(true)))
}
