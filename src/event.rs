//! Reading the agent's hook event (JSON on stdin) into what the guard needs: is this a
//! shell command, and which. Unknown fields are accepted; anything unreadable is an error,
//! and the caller denies it.
//!
//! Shell tools, read alike (the command in `tool_input.command`): `Bash` (Claude Code, and
//! every shell tool of Codex), Claude Code's `Monitor` (a background command whose output
//! streams back) and `mcp__workspace__bash`. `PowerShell` is not bash and is not read;
//! Codex `apply_patch` carries a patch, not shell, and is never parsed.

use serde_json::Value;

/// What the event asks about.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// A tool that is not a shell (Codex `apply_patch`, Write, MCP tools, ...).
    NotShell,
    /// A shell command (from one of [`SHELL_TOOLS`]).
    Shell(String),
}

/// Why an event could not be read: a short static cause and a detail for the model.
#[derive(Debug, PartialEq, Eq)]
pub struct EventError {
    pub cause: &'static str,
    pub detail: String,
}

fn err(cause: &'static str, detail: impl Into<String>) -> EventError {
    EventError {
        cause,
        detail: detail.into(),
    }
}

/// The tools whose `tool_input.command` is bash text the guard reads.
pub const SHELL_TOOLS: [&str; 3] = ["Bash", "Monitor", "mcp__workspace__bash"];

/// True for a tool whose `tool_input.command` runs as shell text.
pub fn is_shell_tool(name: &str) -> bool {
    SHELL_TOOLS.contains(&name)
}

/// Reads one hook event.
pub fn read(bytes: &[u8]) -> Result<Event, EventError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(err("empty event", "stdin was empty"));
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| err("not json", format!("stdin is not valid JSON ({e})")))?;
    let Value::Object(mut event) = value else {
        return Err(err("not an object", "the event is JSON but not an object"));
    };
    let tool = match event.remove("tool_name") {
        Some(Value::String(name)) => name,
        Some(_) => return Err(err("bad tool_name", "tool_name is not a string")),
        None => return Err(err("no tool_name", "the event has no tool_name")),
    };
    if !is_shell_tool(&tool) {
        return Ok(Event::NotShell);
    }
    let input = match event.remove("tool_input") {
        Some(Value::Object(map)) => map,
        Some(_) => return Err(err("bad tool_input", "tool_input is not an object")),
        None => {
            return Err(err(
                "no tool_input",
                "the shell tool event has no tool_input",
            ));
        }
    };
    match input.get("command") {
        Some(Value::String(command)) => Ok(Event::Shell(command.clone())),
        Some(Value::Null) | None => Err(err("no command", "tool_input.command is missing")),
        Some(_) => Err(err("bad command", "tool_input.command is not a string")),
    }
}
