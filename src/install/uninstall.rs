//! `heredoc-guard uninstall claude|codex`: removes exactly what install added (every
//! heredoc-guard handler, and a group, `PreToolUse` or `hooks` left empty by that); a file
//! left holding nothing is removed, any other is written back with its other settings as
//! they were. For Codex, the hook's trust entry goes too, through `codex app-server`.

use std::io::Write;

use super::json_file::JsonFile;
use super::{Failure, codex_trust, hooks_doc, say};
use crate::client::{self, claude};

/// `uninstall claude [--project]`.
pub fn claude(project: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let path = claude::settings_path(project)?;
    let file = JsonFile::load(&path)?;
    let removed = remove_from(&file, out)?;
    if removed == 0 {
        say(
            out,
            &format!(
                "{}: no heredoc-guard hook there; nothing changed.",
                client::tilde(&path)
            ),
        );
    }
    Ok(())
}

/// `uninstall codex`.
pub fn codex(out: &mut dyn Write) -> Result<(), Failure> {
    let path = client::codex::hooks_path()?;
    let file = JsonFile::load(&path)?;
    let codex = client::find_on_path("codex");
    let before = match &codex {
        Some(codex) if file.original.is_some() => Some(codex_trust::snapshot(codex, &file.real)?),
        _ => None,
    };
    let removed = remove_from(&file, out)?;
    if removed == 0 {
        say(
            out,
            &format!(
                "{}: no heredoc-guard hook there; nothing changed.",
                client::tilde(&path)
            ),
        );
        return Ok(());
    }
    match (codex, before) {
        (Some(codex), Some(before)) => {
            let edits = codex_trust::forget(&codex, &file.real, &before)?;
            let config = client::codex::home()?.join("config.toml");
            if edits > 0 {
                say(
                    out,
                    &format!(
                        "{}: removed the hook's trust entry through `codex app-server` (config/batchWrite).",
                        client::tilde(&config)
                    ),
                );
            }
            remove_if_blank(&config);
        }
        _ => say(
            out,
            "codex is not on PATH: the hook's trust entry stays in config.toml (harmless: it names a hook that no longer exists).",
        ),
    }
    Ok(())
}

/// Removes heredoc-guard's handlers from `file` and writes it back (or removes it when
/// nothing is left). Returns how many handlers went.
fn remove_from(file: &JsonFile, out: &mut dyn Write) -> Result<usize, Failure> {
    let mut doc = file.doc.clone();
    let what = file.shown.display().to_string();
    let removed = hooks_doc::remove(&mut doc, &what)?;
    if removed.is_empty() {
        return Ok(0);
    }
    let backup = if doc.is_empty() {
        file.remove()?
    } else {
        file.save(&doc)?
    };
    let left = if doc.is_empty() {
        "nothing else was in it, so the file is removed"
    } else {
        "every other setting is as it was"
    };
    let kept = backup
        .map(|b| format!("; the previous file is kept as {}", client::tilde(&b)))
        .unwrap_or_default();
    say(
        out,
        &format!(
            "{}: removed {} heredoc-guard hook{}; {left}{kept}.",
            client::tilde(&file.shown),
            removed.len(),
            if removed.len() == 1 { "" } else { "s" }
        ),
    );
    Ok(removed.len())
}

/// Removes Codex's `config.toml` when the trust removal left it holding only blanks.
fn remove_if_blank(path: &std::path::Path) {
    if std::fs::read(path).is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace)) {
        let _ = std::fs::remove_file(path);
    }
}
