//! `install claude|codex --managed` and its uninstall: the hook in the agents' system-wide
//! policy, which user and project settings cannot switch off, for a team (or a machine)
//! that enforces the guard. Root only: the files live in system directories.
//!
//! - Claude Code: a drop-in of our own, `managed-settings.d/heredoc-guard.json`, in its
//!   system policy directory (`/etc/claude-code` on Linux, `/Library/Application
//!   Support/ClaudeCode` on macOS); Claude Code merges the drop-ins in name order over
//!   every other settings level. `--managed-only` adds `"allowManagedHooksOnly": true`:
//!   user, project and plugin hooks are then ignored.
//! - Codex: the hook inline in `/etc/codex/requirements.toml` (`[[hooks.PreToolUse]]`, the
//!   schema of hooks.json in TOML), the admin requirements Codex enforces; managed hooks
//!   need no trust. It also pins `[features] hooks = true`: without it, a user's own
//!   `[features] hooks = false` turns every hook off, the managed one too (measured in
//!   Codex 0.169.0). `--managed-only` sets `allow_managed_hooks_only = true` (top level),
//!   marked by a comment so that uninstall removes only what install set. The rest of the
//!   file is kept as it was (comments included).
//!
//! The hook runs the binary by its absolute path: a binary that a user can replace is a
//! hole in the policy, so install warns unless the binary and its directories are owned by
//! root and writable by no one else.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

use super::{Failure, say};
use crate::cli::{client, config};

/// Claude Code's system policy directory.
pub fn claude_dir() -> PathBuf {
    if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/ClaudeCode")
    } else {
        PathBuf::from("/etc/claude-code")
    }
}

/// The drop-in `install claude --managed` writes.
pub fn claude_dropin() -> PathBuf {
    claude_dir().join("managed-settings.d/heredoc-guard.json")
}

/// Every managed settings file Claude Code reads here: `managed-settings.json` and the
/// drop-ins, in the order Claude Code merges them.
pub fn claude_files() -> Vec<PathBuf> {
    let dir = claude_dir();
    let mut files = vec![dir.join("managed-settings.json")];
    let mut dropins: Vec<PathBuf> = std::fs::read_dir(dir.join("managed-settings.d"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    dropins.sort();
    files.extend(dropins);
    files.into_iter().filter(|p| p.is_file()).collect()
}

/// Codex's admin requirements.
pub fn codex_requirements() -> PathBuf {
    PathBuf::from("/etc/codex/requirements.toml")
}

/// The comment that marks `allow_managed_hooks_only` as set by heredoc-guard.
const OURS: &str = "# set by heredoc-guard install codex --managed-only";

/// A failure to write under a system directory, with what to do when it is permissions.
pub(super) fn system_error(what: &str, path: &Path, e: &std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::PermissionDenied {
        format!(
            "cannot {what} {}: permission denied. The managed install writes the agents' system policy and needs root: run it again with sudo (sudo {} ...).",
            path.display(),
            client::own_binary().unwrap_or_else(|_| "heredoc-guard".to_owned())
        )
    } else {
        format!("cannot {what} {}: {e}", path.display())
    }
}

/// Writes `text` to `path` atomically (a temporary file renamed over it), mode 0644 so
/// every user's agent can read it, creating the directories (0755).
fn write_system_file(path: &Path, text: &str) -> Result<(), Failure> {
    let dir = path
        .parent()
        .ok_or_else(|| format!("{} has no directory", path.display()))?;
    std::fs::create_dir_all(dir).map_err(|e| system_error("create", dir, &e))?;
    let tmp = dir.join(format!(
        ".{}.heredoc-guard-{}.tmp",
        path.file_name()
            .map_or_else(|| "file".to_owned(), |n| n.to_string_lossy().into_owned()),
        std::process::id()
    ));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .open(&tmp)
            .map_err(|e| system_error("create", &tmp, &e))?;
        file.set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(|e| system_error("set the mode of", &tmp, &e))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| system_error("write", &tmp, &e))?;
        std::fs::rename(&tmp, path).map_err(|e| system_error("replace", path, &e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn remove_system_file(path: &Path) -> Result<bool, Failure> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(system_error("remove", path, &e)),
    }
}

/// A warning when someone other than root could replace `binary` (the file or one of
/// its directories is not root's, or is writable by group or others): the policy is then
/// only as strong as that file.
pub(super) fn binary_ownership_warning(binary: &str) -> Option<String> {
    let path = Path::new(binary);
    let weak: Vec<String> = std::iter::successors(Some(path), |p| p.parent())
        .filter(|p| !p.as_os_str().is_empty())
        .filter_map(|p| {
            let m = std::fs::metadata(p).ok()?;
            let sticky_dir = m.is_dir() && m.mode() & 0o1000 != 0;
            (m.uid() != 0 || (m.mode() & 0o022 != 0 && !sticky_dir)).then(|| {
                format!(
                    "{} (owner uid {}, mode {:04o})",
                    p.display(),
                    m.uid(),
                    m.mode() & 0o7777
                )
            })
        })
        .collect();
    (!weak.is_empty()).then(|| {
        format!(
            "Warning: the managed hook runs {binary}, which someone other than root can replace: {}. Install heredoc-guard where only root can write (sudo npm install -g heredoc-guard, or a copy in /usr/local/bin) and run this again from there.",
            weak.join(", ")
        )
    })
}

/// `install claude --managed [--managed-only]`.
pub fn install_claude(
    binary: &str,
    managed_only: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let path = claude_dropin();
    let mut doc = json!({
        "hooks": {"PreToolUse": [config::group(config::CLAUDE_MATCHER, config::claude_handler(binary))]}
    });
    if managed_only {
        doc["allowManagedHooksOnly"] = Value::Bool(true);
    }
    let mut text = serde_json::to_string_pretty(&doc)
        .map_err(|e| format!("cannot serialize the drop-in: {e}"))?;
    text.push('\n');
    if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
        say(
            out,
            &format!(
                "{}: already there as asked; nothing changed.",
                path.display()
            ),
        );
    } else {
        write_system_file(&path, &text)?;
        say(
            out,
            &format!(
                "{}: wrote the managed drop-in: a PreToolUse hook for {} running {binary} inside the fail-closed sh launcher, with \"onFailure\": \"block\"{}. Claude Code applies it above every user and project setting; a user cannot remove it.",
                path.display(),
                config::CLAUDE_MATCHER,
                if managed_only {
                    ", and \"allowManagedHooksOnly\": true (user, project and plugin hooks are ignored)"
                } else {
                    ""
                }
            ),
        );
    }
    if let Some(w) = binary_ownership_warning(binary) {
        say(out, &w);
    }
    say(
        out,
        "Next: run `heredoc-guard doctor claude` as a user to check that Claude Code runs it.",
    );
    Ok(())
}

/// `uninstall claude --managed`.
pub fn uninstall_claude(out: &mut dyn Write) -> Result<(), Failure> {
    let path = claude_dropin();
    if remove_system_file(&path)? {
        say(out, &format!("{}: removed.", path.display()));
    } else {
        say(
            out,
            &format!("{}: not there; nothing changed.", path.display()),
        );
    }
    Ok(())
}

/// The requirements document, or a failure naming the file.
fn load_requirements(path: &Path) -> Result<(Option<String>, DocumentMut), Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(system_error("read", path, &e)),
    };
    let doc = text
        .as_deref()
        .unwrap_or("")
        .parse::<DocumentMut>()
        .map_err(|e| {
            format!(
                "{} is not valid TOML ({}); nothing was changed. Fix it, then run this again.",
                path.display(),
                e.to_string().trim()
            )
        })?;
    Ok((text, doc))
}

/// True for a `[[hooks.PreToolUse]]` group holding a heredoc-guard handler.
fn is_guard_group(group: &Table) -> bool {
    group
        .get("hooks")
        .and_then(Item::as_array_of_tables)
        .is_some_and(|handlers| {
            handlers.iter().any(|h| {
                h.get("command")
                    .and_then(Item::as_str)
                    .is_some_and(|c| config::launcher_binary(c).is_some())
            })
        })
}

/// Removes heredoc-guard's groups from `hooks.PreToolUse` (and tables left empty);
/// returns how many.
fn remove_guard_groups(doc: &mut DocumentMut, path: &Path) -> Result<usize, Failure> {
    let Some(hooks) = doc.get_mut("hooks") else {
        return Ok(0);
    };
    let hooks = hooks
        .as_table_like_mut()
        .ok_or_else(|| format!("`hooks` in {} is not a table", path.display()))?;
    let Some(pre) = hooks.get_mut("PreToolUse") else {
        return Ok(0);
    };
    let groups = pre.as_array_of_tables_mut().ok_or_else(|| {
        format!(
            "`hooks.PreToolUse` in {} is not an array of tables ([[hooks.PreToolUse]]); nothing was changed",
            path.display()
        )
    })?;
    let before = groups.len();
    groups.retain(|g| !is_guard_group(g));
    let removed = before - groups.len();
    if groups.is_empty() {
        hooks.remove("PreToolUse");
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
    Ok(removed)
}

/// The `[[hooks.PreToolUse]]` group for `binary`.
fn codex_group(binary: &str) -> Table {
    let mut handler = Table::new();
    handler.insert("type", toml_edit::value("command"));
    handler.insert("command", toml_edit::value(config::launcher(binary)));
    handler.insert(
        "timeout",
        toml_edit::value(i64::try_from(config::HOOK_TIMEOUT_SECS).unwrap_or(30)),
    );
    let mut handlers = ArrayOfTables::new();
    handlers.push(handler);
    let mut group = Table::new();
    group.insert("matcher", toml_edit::value(config::CODEX_MATCHER));
    group.insert("hooks", Item::ArrayOfTables(handlers));
    group
}

/// Sets or removes our `allow_managed_hooks_only`; an admin's own setting is left alone.
fn set_managed_only(doc: &mut DocumentMut, on: bool) {
    let ours = doc
        .key("allow_managed_hooks_only")
        .and_then(|k| k.leaf_decor().prefix())
        .and_then(|p| p.as_str())
        .is_some_and(|p| p.contains(OURS));
    let present = doc.contains_key("allow_managed_hooks_only");
    if on && !present {
        doc.insert("allow_managed_hooks_only", toml_edit::value(true));
        if let Some(mut key) = doc.key_mut("allow_managed_hooks_only") {
            key.leaf_decor_mut().set_prefix(format!("{OURS}\n"));
        }
        // Top-level keys must come before the tables: toml_edit places them so.
    } else if !on && ours {
        doc.remove("allow_managed_hooks_only");
    }
}

/// The comment that marks `[features] hooks = true` as set by heredoc-guard.
const OURS_FEATURE: &str =
    "# set by heredoc-guard install codex --managed: a user's config cannot turn hooks off";

/// `[features] hooks` in the requirements: `Some(value)` when set.
fn hooks_feature(doc: &DocumentMut) -> Option<bool> {
    doc.get("features")?.get("hooks")?.as_bool()
}

/// Pins `[features] hooks = true` (a user's `[features] hooks = false` in their own
/// config.toml otherwise turns every hook off, the managed one too: measured in Codex
/// 0.169.0), or removes our pin. An admin's own setting is left alone.
fn pin_hooks_feature(doc: &mut DocumentMut, path: &Path, on: bool) -> Result<(), Failure> {
    match (on, hooks_feature(doc)) {
        (true, Some(true)) => Ok(()),
        (true, Some(false)) => Err(format!(
            "{} sets [features] hooks = false: Codex runs no hook at all there, so a managed hook would never run; nothing was changed. Remove that setting first.",
            path.display()
        )),
        (true, None) => {
            let features = doc
                .entry("features")
                .or_insert_with(|| Item::Table(Table::new()))
                .as_table_like_mut()
                .ok_or_else(|| format!("`features` in {} is not a table", path.display()))?;
            features.insert("hooks", toml_edit::value(true));
            if let Some(mut key) = features.key_mut("hooks") {
                key.leaf_decor_mut().set_prefix(format!("{OURS_FEATURE}\n"));
            }
            Ok(())
        }
        (false, _) => {
            let Some(features) = doc.get_mut("features").and_then(Item::as_table_like_mut) else {
                return Ok(());
            };
            let ours = features
                .key("hooks")
                .and_then(|k| k.leaf_decor().prefix())
                .and_then(|p| p.as_str())
                .is_some_and(|p| p.contains(OURS_FEATURE));
            if ours {
                features.remove("hooks");
                if features.is_empty() {
                    doc.remove("features");
                }
            }
            Ok(())
        }
    }
}

/// `install codex --managed [--managed-only]`.
pub fn install_codex(binary: &str, managed_only: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let path = codex_requirements();
    let (before, mut doc) = load_requirements(&path)?;
    remove_guard_groups(&mut doc, &path)?;
    set_managed_only(&mut doc, managed_only);
    pin_hooks_feature(&mut doc, &path, true)?;
    let hooks = doc
        .entry("hooks")
        .or_insert_with(|| {
            let mut t = Table::new();
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_like_mut()
        .ok_or_else(|| format!("`hooks` in {} is not a table", path.display()))?;
    let pre = hooks
        .entry("PreToolUse")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    pre.as_array_of_tables_mut()
        .ok_or_else(|| {
            format!(
                "`hooks.PreToolUse` in {} is not an array of tables; nothing was changed",
                path.display()
            )
        })?
        .push(codex_group(binary));
    let text = doc.to_string();
    if before.as_deref() == Some(text.as_str()) {
        say(
            out,
            &format!(
                "{}: already there as asked; nothing changed.",
                path.display()
            ),
        );
    } else {
        if let Some(before) = &before {
            let backup = path.with_file_name(format!(
                "requirements.toml.heredoc-guard-backup-{}",
                crate::utc::stamp(crate::utc::now_millis())
            ));
            write_system_file(&backup, before)?;
            say(
                out,
                &format!(
                    "{}: the previous file is kept as {}.",
                    path.display(),
                    backup.display()
                ),
            );
        }
        write_system_file(&path, &text)?;
        say(
            out,
            &format!(
                "{}: added a managed PreToolUse hook for {} running {binary} inside the fail-closed sh launcher{}. Codex enforces it for every user (managed hooks need no trust), with [features] hooks = true so that a user's config cannot turn hooks off.",
                path.display(),
                config::CODEX_MATCHER,
                if managed_only {
                    ", and allow_managed_hooks_only = true (user, project and session hooks are ignored)"
                } else {
                    ""
                }
            ),
        );
    }
    if let Some(w) = binary_ownership_warning(binary) {
        say(out, &w);
    }
    say(
        out,
        "Next: run `heredoc-guard doctor codex` as a user to check that Codex runs it.",
    );
    Ok(())
}

/// `uninstall codex --managed`.
pub fn uninstall_codex(out: &mut dyn Write) -> Result<(), Failure> {
    let path = codex_requirements();
    let (before, mut doc) = load_requirements(&path)?;
    let Some(before) = before else {
        say(
            out,
            &format!("{}: not there; nothing changed.", path.display()),
        );
        return Ok(());
    };
    let removed = remove_guard_groups(&mut doc, &path)?;
    set_managed_only(&mut doc, false);
    pin_hooks_feature(&mut doc, &path, false)?;
    let text = doc.to_string();
    if text == before {
        say(
            out,
            &format!(
                "{}: no heredoc-guard hook there; nothing changed.",
                path.display()
            ),
        );
    } else if text.trim().is_empty() {
        remove_system_file(&path)?;
        say(
            out,
            &format!(
                "{}: removed the heredoc-guard hook; the file held nothing else and is gone.",
                path.display()
            ),
        );
    } else {
        write_system_file(&path, &text)?;
        say(
            out,
            &format!(
                "{}: removed {removed} heredoc-guard hook group(s); the rest of the file is as it was.",
                path.display()
            ),
        );
    }
    Ok(())
}

/// The heredoc-guard hooks in Codex's requirements: (binary, allow_managed_hooks_only).
pub fn codex_installed() -> Option<(Vec<String>, bool)> {
    let path = codex_requirements();
    let (text, doc) = load_requirements(&path).ok()?;
    text?;
    let binaries = doc
        .get("hooks")
        .and_then(|h| h.get("PreToolUse"))
        .and_then(Item::as_array_of_tables)
        .map(|groups| {
            groups
                .iter()
                .flat_map(|g| g.get("hooks").and_then(Item::as_array_of_tables))
                .flat_map(ArrayOfTables::iter)
                .filter_map(|h| h.get("command").and_then(Item::as_str))
                .filter_map(config::launcher_binary)
                .collect()
        })
        .unwrap_or_default();
    let only = doc
        .get("allow_managed_hooks_only")
        .and_then(Item::as_bool)
        .unwrap_or(false);
    Some((binaries, only))
}

#[cfg(test)]
mod tests {
    use toml_edit::DocumentMut;

    use super::{codex_group, pin_hooks_feature, remove_guard_groups, set_managed_only};
    use std::path::Path;

    const ADMIN: &str = "# the admin's own requirements\nallowed_approval_policies = [\"on-request\"]\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"/opt/audit\"\n";

    fn install(doc: &mut DocumentMut, only: bool) {
        remove_guard_groups(doc, Path::new("r")).unwrap();
        set_managed_only(doc, only);
        pin_hooks_feature(doc, Path::new("r"), true).unwrap();
        doc.entry("hooks")
            .or_insert(toml_edit::table())
            .as_table_like_mut()
            .unwrap()
            .entry("PreToolUse")
            .or_insert(toml_edit::Item::ArrayOfTables(
                toml_edit::ArrayOfTables::new(),
            ))
            .as_array_of_tables_mut()
            .unwrap()
            .push(codex_group("/usr/local/bin/heredoc-guard"));
    }

    #[test]
    fn install_keeps_the_admin_s_file_and_uninstall_gives_it_back_byte_for_byte() {
        let mut doc: DocumentMut = ADMIN.parse().unwrap();
        install(&mut doc, true);
        let text = doc.to_string();
        assert!(text.contains("/opt/audit"), "{text}");
        assert!(text.contains("allow_managed_hooks_only = true"), "{text}");
        let reparsed: DocumentMut = text.parse().unwrap();
        assert_eq!(
            reparsed["hooks"]["PreToolUse"]
                .as_array_of_tables()
                .unwrap()
                .len(),
            2
        );
        // A second install changes nothing.
        let mut again = reparsed.clone();
        install(&mut again, true);
        assert_eq!(again.to_string(), text);
        assert!(text.contains("[features]\n"), "{text}");
        let mut doc = reparsed;
        assert_eq!(remove_guard_groups(&mut doc, Path::new("r")).unwrap(), 1);
        set_managed_only(&mut doc, false);
        pin_hooks_feature(&mut doc, Path::new("r"), false).unwrap();
        assert_eq!(doc.to_string(), ADMIN);
    }

    #[test]
    fn an_admin_s_own_allow_managed_hooks_only_is_left_alone() {
        let admin = "allow_managed_hooks_only = true\n";
        let mut doc: DocumentMut = admin.parse().unwrap();
        install(&mut doc, false);
        remove_guard_groups(&mut doc, Path::new("r")).unwrap();
        set_managed_only(&mut doc, false);
        pin_hooks_feature(&mut doc, Path::new("r"), false).unwrap();
        assert_eq!(doc.to_string(), admin);
    }
}

#[cfg(test)]
mod feature_tests {
    use std::path::Path;
    use toml_edit::DocumentMut;

    #[test]
    fn an_admin_s_hooks_off_is_refused_and_their_hooks_on_is_kept() {
        let mut off: DocumentMut = "[features]\nhooks = false\n".parse().unwrap();
        assert!(super::pin_hooks_feature(&mut off, Path::new("r"), true).is_err());
        let on_text = "[features]\nhooks = true\n";
        let mut on: DocumentMut = on_text.parse().unwrap();
        super::pin_hooks_feature(&mut on, Path::new("r"), true).unwrap();
        super::pin_hooks_feature(&mut on, Path::new("r"), false).unwrap();
        assert_eq!(on.to_string(), on_text);
    }
}
