//! Codex's hook trust, kept right across an edit of `hooks.json`. Codex keys a hook's trust
//! by its position (`<hooks.json>:pre_tool_use:<group>:<handler>`) and stores the hash of
//! its content; removing a group moves every later group, which would silently untrust
//! them. So: list the hooks before the edit, and after it trust again, at their new keys,
//! the hooks that were trusted with the same hash; drop the trust entries of keys that no
//! longer exist. Ours is trusted only when install asks for it.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

use crate::cli::client::codex::{AppServer, ListedHook};

/// The hooks Codex lists from `hooks_file`.
pub fn snapshot(codex: &Path, hooks_file: &Path) -> Result<Vec<ListedHook>, String> {
    let mut server = AppServer::start(codex)?;
    from_file(&mut server, hooks_file)
}

fn from_file(server: &mut AppServer, hooks_file: &Path) -> Result<Vec<ListedHook>, String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"));
    let wanted = [
        hooks_file.to_path_buf(),
        std::fs::canonicalize(hooks_file).unwrap_or_else(|_| hooks_file.to_path_buf()),
    ];
    Ok(server
        .list_hooks(&cwd)?
        .into_iter()
        .filter(|h| wanted.iter().any(|w| Path::new(&h.source_path) == w))
        .collect())
}

/// The edits that carry trust over: for each hook now listed but not trusted whose hash was
/// trusted before (and that is not `skip`), trust it at its key; for each key trusted
/// before that is gone now, remove its entry.
fn carry_over(
    before: &[ListedHook],
    after: &[ListedHook],
    skip: Option<&str>,
) -> Vec<(String, Option<String>)> {
    let trusted_hashes: HashSet<&str> = before
        .iter()
        .filter(|h| h.trust == "trusted")
        .map(|h| h.current_hash.as_str())
        .collect();
    let now: HashMap<&str, &ListedHook> = after.iter().map(|h| (h.key.as_str(), h)).collect();
    let mut edits = Vec::new();
    for h in after {
        if Some(h.key.as_str()) != skip
            && h.trust != "trusted"
            && trusted_hashes.contains(h.current_hash.as_str())
        {
            edits.push((h.key.clone(), Some(h.current_hash.clone())));
        }
    }
    for h in before {
        if h.trust != "untrusted" && !now.contains_key(h.key.as_str()) {
            edits.push((h.key.clone(), None));
        }
    }
    edits
}

/// Trusts heredoc-guard's hook (the one in `hooks_file` running `handler`'s command), and
/// carries the other hooks' trust over. Returns its key.
pub fn trust_ours(
    codex: &Path,
    hooks_file: &Path,
    handler: &Value,
    before: Option<&Vec<ListedHook>>,
) -> Result<String, String> {
    let command = handler.get("command").and_then(Value::as_str);
    let mut server = AppServer::start(codex)?;
    let after = from_file(&mut server, hooks_file)?;
    let ours = after
        .iter()
        .find(|h| h.event == "preToolUse" && h.command.as_deref() == command)
        .ok_or_else(|| {
            format!(
                "Codex does not list the hook just written to {}; check the file with `heredoc-guard doctor`",
                hooks_file.display()
            )
        })?
        .clone();
    let mut edits = carry_over(
        before.map_or(&[][..], Vec::as_slice),
        &after,
        Some(&ours.key),
    );
    edits.retain(|(key, _)| key != &ours.key);
    if ours.trust != "trusted" {
        edits.push((ours.key.clone(), Some(ours.current_hash.clone())));
    }
    server.write_trust(&edits)?;
    let check = from_file(&mut server, hooks_file)?;
    match check.iter().find(|h| h.key == ours.key) {
        Some(h) if h.trust == "trusted" => Ok(ours.key),
        Some(h) => Err(format!(
            "Codex still reports the hook {} as {} after the trust was written",
            ours.key, h.trust
        )),
        None => Err(format!("Codex no longer lists the hook {}", ours.key)),
    }
}

/// After an uninstall: removes the trust entries of the keys that are gone (ours among
/// them), and carries the other hooks' trust over to their new keys.
pub fn forget(codex: &Path, hooks_file: &Path, before: &[ListedHook]) -> Result<usize, String> {
    let mut server = AppServer::start(codex)?;
    let after = from_file(&mut server, hooks_file)?;
    let edits = carry_over(before, &after, None);
    server.write_trust(&edits)?;
    Ok(edits.len())
}

#[cfg(test)]
mod tests {
    use super::carry_over;
    use crate::cli::client::codex::ListedHook;

    fn hook(key: &str, hash: &str, trust: &str) -> ListedHook {
        ListedHook {
            key: key.to_owned(),
            event: "preToolUse".to_owned(),
            command: None,
            matcher: None,
            source_path: "/h/hooks.json".to_owned(),
            current_hash: hash.to_owned(),
            trust: trust.to_owned(),
        }
    }

    #[test]
    fn a_hook_moved_by_the_edit_keeps_its_trust_and_the_vacated_key_is_dropped() {
        let before = [
            hook("f:0:0", "ours", "trusted"),
            hook("f:1:0", "theirs", "trusted"),
        ];
        let after = [hook("f:0:0", "theirs", "modified")];
        let edits = carry_over(&before, &after, None);
        assert_eq!(
            edits,
            vec![
                ("f:0:0".to_owned(), Some("theirs".to_owned())),
                ("f:1:0".to_owned(), None)
            ]
        );
    }

    #[test]
    fn an_untrusted_hook_is_never_trusted_by_the_carry_over() {
        let before = [hook("f:0:0", "theirs", "untrusted")];
        let after = [hook("f:1:0", "theirs", "untrusted")];
        assert!(carry_over(&before, &after, None).is_empty());
    }
}
