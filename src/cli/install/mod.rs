//! `heredoc-guard install claude|codex|gemini|copilot`: merges the hook into the agent's
//! settings, and (Codex) trusts it through `codex app-server`. Idempotent: a second run changes nothing.
//! Every step says what it did; the hook is always the fail-closed launcher, so a missing
//! binary blocks with a message that says what to do.
//!
//! Where: Claude Code's user settings; with `--project`, this user's
//! `.claude/settings.local.json` in the project; with `--shared`, the project's committed
//! `.claude/settings.json`, where the hook runs `heredoc-guard` from PATH (a teammate's
//! copy, wherever it is). Codex: `$CODEX_HOME/hooks.json`. Gemini CLI and Copilot CLI:
//! [`gemini`], [`copilot`].

pub mod codex_trust;
pub mod copilot;
pub mod gemini;
pub mod hooks_doc;
pub mod json_file;
pub mod managed;
pub mod uninstall;

use std::io::Write;
use std::path::Path;

use crate::cli::client::{self, claude};
use crate::cli::config;
use claude::Scope;
use json_file::JsonFile;

/// What went wrong, for the message; the command exits 1.
pub type Failure = String;

/// The name the shared project hook runs from PATH.
pub const PATH_NAME: &str = "heredoc-guard";

/// `install claude [--project [--shared]]`.
pub fn claude(scope: Scope, out: &mut dyn Write) -> Result<(), Failure> {
    let binary = match scope {
        Scope::ProjectShared => PATH_NAME.to_owned(),
        Scope::User | Scope::ProjectLocal => own_binary(out)?,
    };
    let path = claude::settings_path(scope)?;
    report_claude_version(out);
    let handler = config::claude_handler(&binary);
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
                "{}: added a PreToolUse hook for {} running {} inside the fail-closed sh launcher, with \"onFailure\": \"block\"{}.",
                client::tilde(&path),
                config::CLAUDE_MATCHER,
                binary,
                backup_note(backup.as_deref())
            ),
        );
    }
    match scope {
        Scope::ProjectShared => say(
            out,
            "This file is shared: everyone who opens the project in Claude Code runs the hook, with heredoc-guard from their PATH. Without it there, their shell commands are blocked with a message that says how to install it or remove the hook.",
        ),
        Scope::ProjectLocal => say(
            out,
            "Only you, in this project: .claude/settings.local.json holds your personal settings for it; do not commit it. For the whole team, use --shared instead (the committed .claude/settings.json).",
        ),
        Scope::User => {}
    }
    if let Ok(shared) = claude::settings_path(Scope::ProjectShared)
        && scope == Scope::ProjectLocal
        && JsonFile::load(&shared)
            .and_then(|f| hooks_doc::find(&f.doc, &shared.display().to_string()))
            .is_ok_and(|found| !found.is_empty())
    {
        say(
            out,
            "Note: the project's shared .claude/settings.json runs heredoc-guard too, so it now runs twice here.",
        );
    }
    say(
        out,
        "Next: run `heredoc-guard doctor claude` to check that Claude Code runs it.",
    );
    Ok(())
}

/// `install claude --managed [--managed-only]`.
pub fn managed_claude(managed_only: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let binary = own_binary(out)?;
    report_claude_version(out);
    managed::install_claude(&binary, managed_only, out)
}

/// `install codex --managed [--managed-only]`.
pub fn managed_codex(managed_only: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let binary = own_binary(out)?;
    managed::install_codex(&binary, managed_only, out)
}

/// This binary's path, with a warning when it lives in a cargo `target/` directory (where
/// `cargo clean` or a rebuild removes it, and every command is then blocked).
pub(super) fn own_binary(out: &mut dyn Write) -> Result<String, Failure> {
    let binary = client::own_binary()?;
    if in_cargo_target(Path::new(&binary)) {
        say(
            out,
            &format!(
                "Warning: {binary} is inside a cargo target/ directory: `cargo clean` or a rebuild removes it, and the agent's every shell command is then blocked. Install it for good with `cargo install --locked --path .` and run this again from there (`~/.cargo/bin/heredoc-guard install ...`)."
            ),
        );
    }
    Ok(binary)
}

/// True for a path like `…/target/release/heredoc-guard` or
/// `…/target/x86_64-unknown-linux-gnu/debug/heredoc-guard`.
pub fn in_cargo_target(binary: &Path) -> bool {
    let dirs: Vec<&std::ffi::OsStr> = binary.parent().into_iter().flat_map(Path::iter).collect();
    dirs.iter().enumerate().any(|(i, d)| {
        *d == "target"
            && dirs[i + 1..]
                .iter()
                .take(2)
                .any(|p| *p == "debug" || *p == "release")
    })
}

/// Says which Claude Code is installed and whether it honours `"onFailure"`.
fn report_claude_version(out: &mut dyn Write) {
    let line = match claude::find() {
        Some(found) => match found.version {
            Ok(v) if v >= claude::ON_FAILURE_SINCE => format!(
                "Claude Code {v} ({}): it honours \"onFailure\": \"block\", so a guard that cannot start, crashes or times out blocks the command.",
                found.binary.display()
            ),
            Ok(v) => format!(
                "Claude Code {v} ({}) predates {} and ignores \"onFailure\": the launcher turns a crash into a deny, but a timeout lets the command run until you update Claude Code.",
                found.binary.display(),
                claude::ON_FAILURE_SINCE
            ),
            Err(why) => format!(
                "Could not read Claude Code's version ({why}); the launcher with \"onFailure\": \"block\" fails closed on every version from {}.",
                claude::ON_FAILURE_SINCE
            ),
        },
        None => "claude is not on PATH; the hook is written all the same (the launcher with \"onFailure\": \"block\").".to_owned(),
    };
    say(out, &line);
}

/// `install codex [--no-trust]`.
pub fn codex(trust: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let binary = own_binary(out)?;
    let home = client::codex::home()?;
    if !home.exists() {
        std::fs::create_dir_all(&home)
            .map_err(|e| format!("cannot create {}: {e}", home.display()))?;
        say(
            out,
            &format!(
                "{}: created (Codex's home; it did not exist yet).",
                client::tilde(&home)
            ),
        );
    }
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
    if let Some((_, true)) = managed::codex_installed() {
        say(
            out,
            &format!(
                "Not trusted: {} sets allow_managed_hooks_only, so Codex ignores every user hook here, this one too; the managed hook there is what guards Codex (heredoc-guard doctor codex).",
                managed::codex_requirements().display()
            ),
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
            client::tilde(&home.join("config.toml"))
        ),
    );
    let key = codex_trust::trust_ours(&codex, &file.real, &handler, before.as_ref())?;
    say(out, &format!("Trusted: {key}."));
    say(
        out,
        "Next: run `heredoc-guard doctor codex` to check that Codex runs it.",
    );
    Ok(())
}

pub(super) fn backup_note(backup: Option<&Path>) -> String {
    match backup {
        Some(b) => format!(
            "; the previous file is kept as {} (the newest {} backups are kept)",
            client::tilde(b),
            json_file::KEEP_BACKUPS
        ),
        None => String::new(),
    }
}

/// One line to the user.
pub fn say(out: &mut dyn Write, line: &str) {
    let _ = writeln!(out, "{line}");
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::in_cargo_target;

    #[test]
    fn a_binary_in_a_cargo_target_directory_is_recognised_and_an_installed_one_is_not() {
        for p in [
            "/src/heredoc-guard/target/release/heredoc-guard",
            "/src/hg/target/debug/heredoc-guard",
            "/src/hg/target/x86_64-unknown-linux-gnu/release/heredoc-guard",
        ] {
            assert!(in_cargo_target(Path::new(p)), "{p}");
        }
        for p in [
            "/home/u/.cargo/bin/heredoc-guard",
            "/usr/local/bin/heredoc-guard",
            "/srv/target/bin/heredoc-guard",
        ] {
            assert!(!in_cargo_target(Path::new(p)), "{p}");
        }
    }
}
