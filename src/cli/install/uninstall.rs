//! `heredoc-guard uninstall claude|codex`: removes exactly what install added (every
//! heredoc-guard handler, and a group, `PreToolUse` or `hooks` left empty by that); a file
//! left holding nothing is removed, any other is written back with its other settings as
//! they were. For Codex, the hook's trust entry goes too, through `codex app-server`.
//! Then it says where the backups of the file are, and removes them with
//! `--remove-backups`.

use std::io::Write;

use super::json_file::JsonFile;
use super::{Failure, codex_trust, hooks_doc, say};
use crate::cli::client::{self, claude};
use claude::Scope;

/// `uninstall claude [--project [--shared]] [--remove-backups]`.
pub fn claude(scope: Scope, remove_backups: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let path = claude::settings_path(scope)?;
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
        // Say where the hook is, when it is in another of Claude Code's files here.
        for (other, p) in claude::all_settings_paths() {
            if other != scope
                && JsonFile::load(&p)
                    .and_then(|f| hooks_doc::find(&f.doc, &p.display().to_string()))
                    .is_ok_and(|found| !found.is_empty())
            {
                say(
                    out,
                    &format!(
                        "{} has one: heredoc-guard uninstall claude{}",
                        client::tilde(&p),
                        other.flags()
                    ),
                );
            }
        }
    }
    if super::managed::claude_dropin().is_file() {
        say(
            out,
            &format!(
                "The managed hook in {} still runs for every user here; only root removes it: sudo heredoc-guard uninstall claude --managed",
                super::managed::claude_dropin().display()
            ),
        );
    }
    backups(
        &file,
        &format!("claude{}", scope.flags()),
        remove_backups,
        out,
    )
}

/// `uninstall codex [--remove-backups]`.
pub fn codex(remove_backups: bool, out: &mut dyn Write) -> Result<(), Failure> {
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
        managed_codex_note(out);
        return backups(&file, "codex", remove_backups, out);
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
    managed_codex_note(out);
    backups(&file, "codex", remove_backups, out)
}

/// Says that the managed hook still runs, when there is one.
fn managed_codex_note(out: &mut dyn Write) {
    if super::managed::codex_installed().is_some_and(|(binaries, _)| !binaries.is_empty()) {
        say(
            out,
            &format!(
                "The managed hook in {} still runs for every user here; only root removes it: sudo heredoc-guard uninstall codex --managed",
                super::managed::codex_requirements().display()
            ),
        );
    }
}

/// Says where the backups of `file` are and how to remove them, or removes them.
pub(super) fn backups(
    file: &JsonFile,
    agent: &str,
    remove: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let found = file.backups();
    if found.is_empty() {
        return Ok(());
    }
    if remove {
        for b in &found {
            std::fs::remove_file(b).map_err(|e| format!("cannot remove {}: {e}", b.display()))?;
        }
        say(
            out,
            &format!(
                "Removed {} backup{} of {} ({}).",
                found.len(),
                if found.len() == 1 { "" } else { "s" },
                client::tilde(&file.shown),
                found
                    .iter()
                    .map(|b| client::tilde(b))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        return Ok(());
    }
    say(
        out,
        &format!(
            "Backups heredoc-guard made of {} are kept: {}. Remove them with `heredoc-guard uninstall {agent} --remove-backups`.",
            client::tilde(&file.shown),
            found
                .iter()
                .map(|b| client::tilde(b))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
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
    if doc.is_empty() {
        file.remove()?;
    } else {
        file.save(&doc)?;
    }
    let left = if doc.is_empty() {
        "nothing else was in it, so the file is removed"
    } else {
        "every other setting is as it was"
    };
    say(
        out,
        &format!(
            "{}: removed {} heredoc-guard hook{}; {left}.",
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
