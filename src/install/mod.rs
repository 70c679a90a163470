//! `heredoc-guard install claude|codex`: merges the hook into the agent's settings, and
//! (Codex) trusts it through `codex app-server`. Idempotent: a second run changes nothing.
//! Every step says what it did; the hook is always written in a fail-closed form.

pub mod codex_trust;
pub mod hooks_doc;
pub mod json_file;
pub mod uninstall;

use std::io::Write;
use std::path::Path;

use crate::client::{self, claude};
use crate::config::{self, ClaudeForm};
use json_file::JsonFile;

/// What went wrong, for the message; the command exits 1.
pub type Failure = String;

/// `install claude [--project]`.
pub fn claude(project: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let binary = client::own_binary()?;
    let path = claude::settings_path(project)?;
    let form = choose_claude_form(out);
    let handler = config::claude_handler(&binary, form);
    let file = JsonFile::load(&path)?;
    let mut doc = file.doc.clone();
    let what = path.display().to_string();
    if !hooks_doc::install(&mut doc, config::CLAUDE_MATCHER, &handler, &what)? {
        say(
            out,
            &format!(
                "{}: heredoc-guard is already installed there; nothing changed.",
                client::tilde(&path)
            ),
        );
    } else {
        let backup = file.save(&doc)?;
        say(
            out,
            &format!(
                "{}: added a PreToolUse hook for {} running {}{}.",
                client::tilde(&path),
                config::CLAUDE_MATCHER,
                binary,
                backup_note(backup.as_deref())
            ),
        );
    }
    say(
        out,
        "Next: run `heredoc-guard doctor` to check that Claude Code runs it.",
    );
    Ok(())
}

/// The exec form where `claude --version` says the installed Claude Code has it, else the
/// launcher; says which and why.
fn choose_claude_form(out: &mut dyn Write) -> ClaudeForm {
    match claude::find() {
        Some(found) => match found.version {
            Ok(v) if v >= claude::ON_FAILURE_SINCE => {
                say(
                    out,
                    &format!(
                        "Claude Code {v} ({}): using the exec form (the binary's path, no shell) with \"onFailure\": \"block\", so a guard that cannot start, crashes or times out blocks the command.",
                        found.binary.display()
                    ),
                );
                ClaudeForm::Exec
            }
            Ok(v) => {
                say(
                    out,
                    &format!(
                        "Claude Code {v} ({}) predates {} (the exec form and \"onFailure\"): using the sh launcher, which turns a crash into a deny; a timeout still lets the command run until you update Claude Code.",
                        found.binary.display(),
                        claude::ON_FAILURE_SINCE
                    ),
                );
                ClaudeForm::Launcher
            }
            Err(why) => {
                say(
                    out,
                    &format!(
                        "Could not read Claude Code's version ({why}): using the sh launcher with \"onFailure\": \"block\", which fails closed on every version."
                    ),
                );
                ClaudeForm::Launcher
            }
        },
        None => {
            say(
                out,
                "claude is not on PATH: using the sh launcher with \"onFailure\": \"block\", which fails closed on every version.",
            );
            ClaudeForm::Launcher
        }
    }
}

/// `install codex [--no-trust]`.
pub fn codex(trust: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let binary = client::own_binary()?;
    let path = client::codex::hooks_path()?;
    let handler = config::codex_handler(&binary);
    let file = JsonFile::load(&path)?;
    let mut doc = file.doc.clone();
    let what = path.display().to_string();
    let codex = client::find_on_path("codex");
    // What Codex trusts now, to keep that trust where an edit moves other hooks.
    let before = match (&codex, trust) {
        (Some(codex), true) => Some(codex_trust::snapshot(codex, &file.real)?),
        _ => None,
    };
    if !hooks_doc::install(&mut doc, config::CODEX_MATCHER, &handler, &what)? {
        say(
            out,
            &format!(
                "{}: heredoc-guard is already installed there; nothing changed.",
                client::tilde(&path)
            ),
        );
    } else {
        let backup = file.save(&doc)?;
        say(
            out,
            &format!(
                "{}: added a PreToolUse hook for {} running {} inside the fail-closed sh launcher (Codex has no onFailure){}.",
                client::tilde(&path),
                config::CODEX_MATCHER,
                binary,
                backup_note(backup.as_deref())
            ),
        );
    }
    if !trust {
        say(
            out,
            "Not trusted (--no-trust): Codex runs no hook until it is trusted, and says nothing about it. Review it in Codex (start `codex`, open /hooks), or run `heredoc-guard install codex` without --no-trust.",
        );
        return Ok(());
    }
    let Some(codex) = codex else {
        return Err(
            "the hook is written, but codex is not on PATH, so it could not be trusted, and Codex runs no untrusted hook. Put codex on PATH and run `heredoc-guard install codex` again, or review the hook in Codex (/hooks)."
            .to_owned());
    };
    say(
        out,
        &format!(
            "Trusting it through Codex's own `{} app-server`: hooks/list, then config/batchWrite of the hook's currentHash into hooks.state in {}, as Codex's /hooks review does (--no-trust skips this).",
            codex.display(),
            client::tilde(&client::codex::home()?.join("config.toml"))
        ),
    );
    let key = codex_trust::trust_ours(&codex, &file.real, &handler, before.as_ref())?;
    say(out, &format!("Trusted: {key}."));
    say(
        out,
        "Next: run `heredoc-guard doctor` to check that Codex runs it.",
    );
    Ok(())
}

fn backup_note(backup: Option<&Path>) -> String {
    match backup {
        Some(b) => format!("; the previous file is kept as {}", client::tilde(b)),
        None => String::new(),
    }
}

/// One line to the user.
pub fn say(out: &mut dyn Write, line: &str) {
    let _ = writeln!(out, "{line}");
}
