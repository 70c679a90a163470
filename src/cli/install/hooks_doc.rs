//! The `hooks.<event>` part of a settings object (Claude Code's `settings.json`, Codex's
//! `hooks.json` and Copilot CLI's Claude-style files under `PreToolUse`; Gemini CLI's
//! `settings.json` under `BeforeTool`, all of one shape): finding heredoc-guard's own
//! handlers, adding one, removing them. Nothing else in the object is touched; a shape that
//! is not the expected one is refused, and the caller then writes nothing.

use std::path::Path;

use serde_json::{Map, Value};

use crate::cli::config;

/// The binary a handler runs, when the handler is heredoc-guard's: the launcher line (any
/// path, or a bare name), the exec form, or a bare path, of a file named `heredoc-guard`.
pub fn guard_binary(handler: &Value) -> Option<String> {
    let command = handler.get("command")?.as_str()?;
    if let Some(binary) = config::launcher_binary(command) {
        return Some(binary);
    }
    let named_guard = Path::new(command)
        .file_name()
        .is_some_and(|n| n == "heredoc-guard");
    (named_guard && !command.contains(char::is_whitespace)).then(|| command.to_owned())
}

/// One heredoc-guard handler found in the document.
#[derive(Clone, Debug)]
pub struct Found {
    pub group: usize,
    pub handler: usize,
    pub matcher: Option<String>,
    pub entry: Value,
    pub binary: String,
}

/// Claude Code's (and Codex's) event.
pub const PRE_TOOL_USE: &str = "PreToolUse";
/// Gemini CLI's event.
pub const BEFORE_TOOL: &str = "BeforeTool";

fn groups<'a>(
    doc: &'a Map<String, Value>,
    event: &str,
    what: &str,
) -> Result<Option<&'a Vec<Value>>, String> {
    let Some(hooks) = doc.get("hooks") else {
        return Ok(None);
    };
    let hooks = hooks
        .as_object()
        .ok_or_else(|| format!("`hooks` in {what} is not an object"))?;
    match hooks.get(event) {
        None => Ok(None),
        Some(Value::Array(groups)) => Ok(Some(groups)),
        Some(_) => Err(format!("`hooks.{event}` in {what} is not an array")),
    }
}

/// Every heredoc-guard handler in `doc` under `PreToolUse`, in order. `what` names the
/// file for errors.
pub fn find(doc: &Map<String, Value>, what: &str) -> Result<Vec<Found>, String> {
    find_in(doc, PRE_TOOL_USE, what)
}

/// Every heredoc-guard handler in `doc` under `hooks.<event>`, in order.
pub fn find_in(doc: &Map<String, Value>, event: &str, what: &str) -> Result<Vec<Found>, String> {
    let mut found = Vec::new();
    for (g, group) in groups(doc, event, what)?.into_iter().flatten().enumerate() {
        let handlers = match group.get("hooks") {
            Some(Value::Array(h)) => h,
            _ => continue,
        };
        for (h, entry) in handlers.iter().enumerate() {
            if let Some(binary) = guard_binary(entry) {
                found.push(Found {
                    group: g,
                    handler: h,
                    matcher: group
                        .get("matcher")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    entry: entry.clone(),
                    binary,
                });
            }
        }
    }
    Ok(found)
}

/// Removes every heredoc-guard handler under `PreToolUse`; a group left with no handler
/// goes too, and so do `PreToolUse` and `hooks` when nothing is left in them. Returns the
/// (group, handler) positions removed, as they were before.
pub fn remove(doc: &mut Map<String, Value>, what: &str) -> Result<Vec<(usize, usize)>, String> {
    remove_in(doc, PRE_TOOL_USE, what)
}

/// [`remove`] under `hooks.<event>`.
pub fn remove_in(
    doc: &mut Map<String, Value>,
    event: &str,
    what: &str,
) -> Result<Vec<(usize, usize)>, String> {
    let found = find_in(doc, event, what)?;
    if found.is_empty() {
        return Ok(Vec::new());
    }
    let Some(Value::Object(hooks)) = doc.get_mut("hooks") else {
        return Err(format!("`hooks` in {what} is not an object"));
    };
    let Some(Value::Array(groups)) = hooks.get_mut(event) else {
        return Err(format!("`hooks.{event}` in {what} is not an array"));
    };
    for f in found.iter().rev() {
        let emptied = match groups.get_mut(f.group).and_then(|g| g.get_mut("hooks")) {
            Some(Value::Array(handlers)) => {
                handlers.remove(f.handler);
                handlers.is_empty()
            }
            _ => false,
        };
        if emptied {
            groups.remove(f.group);
        }
    }
    if groups.is_empty() {
        hooks.remove(event);
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
    Ok(found.iter().map(|f| (f.group, f.handler)).collect())
}

/// Puts `handler` in `doc` under `matcher`: unchanged (`false`) when exactly that is the
/// only heredoc-guard handler already, in a group of its own with that matcher; otherwise
/// every other heredoc-guard handler is removed and a new group is appended.
pub fn install(
    doc: &mut Map<String, Value>,
    matcher: &str,
    handler: &Value,
    what: &str,
) -> Result<bool, String> {
    install_in(doc, PRE_TOOL_USE, matcher, handler, what)
}

/// [`install`] under `hooks.<event>`.
pub fn install_in(
    doc: &mut Map<String, Value>,
    event: &str,
    matcher: &str,
    handler: &Value,
    what: &str,
) -> Result<bool, String> {
    let found = find_in(doc, event, what)?;
    if let [only] = found.as_slice()
        && only.matcher.as_deref() == Some(matcher)
        && &only.entry == handler
        && group_len(doc, event, only.group) == 1
    {
        return Ok(false);
    }
    remove_in(doc, event, what)?;
    let hooks = doc
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let hooks = hooks
        .as_object_mut()
        .ok_or_else(|| format!("`hooks` in {what} is not an object"))?;
    let groups = hooks
        .entry(event)
        .or_insert_with(|| Value::Array(Vec::new()));
    let groups = groups
        .as_array_mut()
        .ok_or_else(|| format!("`hooks.{event}` in {what} is not an array"))?;
    groups.push(config::group(matcher, handler.clone()));
    Ok(true)
}

fn group_len(doc: &Map<String, Value>, event: &str, group: usize) -> usize {
    doc.get("hooks")
        .and_then(|h| h.get(event))
        .and_then(|g| g.get(group))
        .and_then(|g| g.get("hooks"))
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{find, install, remove};
    use crate::cli::config;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn install_twice_changes_once_and_uninstall_gives_the_other_hooks_back() {
        let before = obj(json!({
            "model": "x",
            "hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "other"}]}],
                      "Stop": [{"hooks": [{"type": "command", "command": "bye"}]}]}
        }));
        let handler = config::claude_handler("/opt/heredoc-guard");
        let mut doc = before.clone();
        assert!(install(&mut doc, config::CLAUDE_MATCHER, &handler, "f").unwrap());
        assert!(!install(&mut doc, config::CLAUDE_MATCHER, &handler, "f").unwrap());
        assert_eq!(find(&doc, "f").unwrap().len(), 1);
        assert_eq!(remove(&mut doc, "f").unwrap().len(), 1);
        assert_eq!(doc, before);
    }

    #[test]
    fn a_new_binary_path_replaces_the_old_entry_instead_of_adding_a_second() {
        let mut doc = Map::new();
        let old = config::claude_handler("/old/heredoc-guard");
        let new = config::claude_handler("/new/heredoc-guard");
        install(&mut doc, config::CLAUDE_MATCHER, &old, "f").unwrap();
        assert!(install(&mut doc, config::CLAUDE_MATCHER, &new, "f").unwrap());
        let found = find(&doc, "f").unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].binary, "/new/heredoc-guard");
        assert!(remove(&mut doc, "f").is_ok());
        assert!(doc.is_empty(), "{doc:?}");
    }

    #[test]
    fn a_hooks_value_of_the_wrong_shape_is_refused() {
        let handler = config::codex_handler("/g/heredoc-guard");
        for bad in [json!({"hooks": []}), json!({"hooks": {"PreToolUse": {}}})] {
            let mut doc = obj(bad);
            let before = doc.clone();
            assert!(install(&mut doc, config::CODEX_MATCHER, &handler, "f").is_err());
            assert_eq!(doc, before);
        }
    }
}
