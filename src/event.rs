//! Reading the agent's hook event (JSON on stdin) into what the guard needs: is this a
//! shell command, and which; and, for the ledger, where it came from (agent, session,
//! working directory, tool, hook event). Nothing else is kept: every other field is
//! skipped without being unescaped, and the strings kept borrow from the input where
//! JSON allows (a string with escapes, such as a command with newlines, is unescaped once,
//! and that copy is moved out, never cloned). Anything unreadable is an error, and the
//! caller denies it.
//!
//! Shell tools, read alike (the command in `tool_input.command`): `Bash` (Claude Code, and
//! every shell tool of Codex), Claude Code's `Monitor` (a background command whose output
//! streams back) and `mcp__workspace__bash`. `PowerShell` is not bash and is not read;
//! Codex `apply_patch` carries a patch, not shell, and is never parsed.
//!
//! A key the guard reads (`tool_name`, `tool_input`, `tool_input.command`) given twice is
//! an error: JSON readers disagree on which copy wins.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

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

/// The agent that sent the event, as far as the event says: Codex sends a `turn_id`,
/// Claude Code does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
}

impl Agent {
    /// The name written to the ledger and taken by `log --agent`.
    pub fn id(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
        }
    }
}

/// Where an event came from: for the ledger, never for the verdict.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Context<'a> {
    pub agent: Option<Agent>,
    pub session_id: Option<Cow<'a, str>>,
    pub cwd: Option<Cow<'a, str>>,
    pub tool: Option<Cow<'a, str>>,
    pub hook_event: Option<Cow<'a, str>>,
}

/// One event as read: its context, and the shell command (`Ok(None)` for a tool that is
/// not a shell tool) or why it cannot be read.
pub struct Read<'a> {
    pub context: Context<'a>,
    pub command: Result<Option<Cow<'a, str>>, EventError>,
}

/// Reads one hook event.
pub fn read(bytes: &[u8]) -> Read<'_> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return failed(err("empty event", "stdin was empty"));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let wire = match de
        .deserialize_any(TopVisitor)
        .and_then(|w| de.end().map(|()| w))
    {
        Ok(Some(wire)) => wire,
        Ok(None) => return failed(err("not an object", "the event is JSON but not an object")),
        Err(e) => {
            return failed(match wire_error(&e) {
                Some(known) => known,
                None => err("not json", format!("stdin is not valid JSON ({e})")),
            });
        }
    };
    let Wire {
        tool_name,
        tool_input,
        command,
        mut context,
    } = wire;
    let tool = match tool_name {
        Some(Loose::Str(name)) => name,
        Some(Loose::Other) => {
            return Read {
                context,
                command: Err(err("bad tool_name", "tool_name is not a string")),
            };
        }
        Some(Loose::Null) | None => {
            return Read {
                context,
                command: Err(err("no tool_name", "the event has no tool_name")),
            };
        }
    };
    let shell = is_shell_tool(&tool);
    context.tool = Some(tool);
    if !shell {
        return Read {
            context,
            command: Ok(None),
        };
    }
    // tool_input before tool_name in the text: read now, from the slice kept.
    let command =
        match (command, tool_input) {
            (Some(read), _) => read,
            (None, Some(raw)) => {
                let mut de = serde_json::Deserializer::from_str(raw.get());
                match de.deserialize_any(InputVisitor) {
                    Ok(read) => read,
                    Err(e) => Err(wire_error(&e)
                        .unwrap_or_else(|| err("not json", format!("tool_input: {e}")))),
                }
            }
            (None, None) => Err(err(
                "no tool_input",
                "the shell tool event has no tool_input",
            )),
        };
    Read {
        context,
        command: command.map(Some),
    }
}

fn failed(e: EventError) -> Read<'static> {
    Read {
        context: Context::default(),
        command: Err(e),
    }
}

/// Causes raised inside the visitors travel as serde errors whose message starts with
/// this marker; they are turned back into [`EventError`]s here.
const MARK: &str = "heredoc-guard-event:";

fn marked(cause: &'static str, detail: &str) -> String {
    format!("{MARK}{cause}:{detail}")
}

fn wire_error(e: &serde_json::Error) -> Option<EventError> {
    let text = e.to_string();
    let rest = text.strip_prefix(MARK)?;
    let (cause, detail) = rest.split_once(':')?;
    let cause = KNOWN_CAUSES.iter().find(|c| **c == cause)?;
    // serde_json appends " at line L column C"; the detail is what came before.
    let key = detail.rsplit_once(" at line ").map_or(detail, |(d, _)| d);
    Some(err(cause, format!("the key {key} is given twice")))
}

const KNOWN_CAUSES: [&str; 1] = ["duplicate key"];

/// A string (borrowed when it has no escapes), `null`, or any other JSON value (skipped).
enum Loose<'a> {
    Str(Cow<'a, str>),
    Null,
    Other,
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Loose::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Loose::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Loose::Str(Cow::Owned(v)))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Loose::Other)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Loose::Other)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Loose::Other)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Loose::Other)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Loose::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Loose::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Loose::Other)
    }
}

impl<'de> de::Deserialize<'de> for Loose<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

/// What the top-level object gives: `None` when the JSON value is not an object.
struct Wire<'a> {
    tool_name: Option<Loose<'a>>,
    /// `tool_input` met before `tool_name`: kept as its slice of the input.
    tool_input: Option<&'a RawValue>,
    /// `tool_input` read (its command) once `tool_name` said it is a shell tool.
    command: Option<Result<Cow<'a, str>, EventError>>,
    context: Context<'a>,
}

struct TopVisitor;

impl TopVisitor {
    fn not_object<'a, E>() -> Result<Option<Wire<'a>>, E> {
        Ok(None)
    }
}

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Option<Wire<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a hook event (a JSON object)")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Self::not_object()
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut wire = Wire {
            tool_name: None,
            tool_input: None,
            command: None,
            context: Context::default(),
        };
        let mut turn_id = false;
        let mut hook_event_seen = false;
        while let Some(key) = map.next_key::<Loose<'de>>()? {
            let key = match &key {
                Loose::Str(k) => k.as_ref(),
                _ => "",
            };
            match key {
                "tool_name" => {
                    if wire.tool_name.is_some() {
                        return Err(de::Error::custom(marked("duplicate key", "tool_name")));
                    }
                    wire.tool_name = Some(map.next_value()?);
                }
                "tool_input" => {
                    if wire.tool_input.is_some() || wire.command.is_some() {
                        return Err(de::Error::custom(marked("duplicate key", "tool_input")));
                    }
                    match &wire.tool_name {
                        Some(Loose::Str(name)) if is_shell_tool(name) => {
                            wire.command = Some(map.next_value_seed(InputSeed)?);
                        }
                        // Not a shell tool (or not a string): never read.
                        Some(_) => {
                            map.next_value::<IgnoredAny>()?;
                            wire.command = Some(Err(err("not read", "tool_input of another tool")));
                        }
                        None => wire.tool_input = Some(map.next_value()?),
                    }
                }
                "session_id" => wire.context.session_id = string(map.next_value()?),
                "cwd" => wire.context.cwd = string(map.next_value()?),
                "hook_event_name" => {
                    hook_event_seen = true;
                    wire.context.hook_event = string(map.next_value()?);
                }
                "turn_id" => {
                    turn_id = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        wire.context.agent = if turn_id {
            Some(Agent::Codex)
        } else if hook_event_seen {
            Some(Agent::Claude)
        } else {
            None
        };
        Ok(Some(wire))
    }
}

fn string(v: Loose<'_>) -> Option<Cow<'_, str>> {
    match v {
        Loose::Str(s) => Some(s),
        Loose::Null | Loose::Other => None,
    }
}

/// `tool_input` of a shell tool: its `command`, or why there is none.
struct InputSeed;

impl<'de> DeserializeSeed<'de> for InputSeed {
    type Value = Result<Cow<'de, str>, EventError>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(InputVisitor)
    }
}

struct InputVisitor;

impl InputVisitor {
    fn not_object<'a, E>() -> Result<Result<Cow<'a, str>, EventError>, E> {
        Ok(Err(err("bad tool_input", "tool_input is not an object")))
    }
}

impl<'de> Visitor<'de> for InputVisitor {
    type Value = Result<Cow<'de, str>, EventError>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("tool_input (a JSON object)")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Self::not_object()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Self::not_object()
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut command: Option<Loose<'de>> = None;
        while let Some(key) = map.next_key::<Loose<'de>>()? {
            if matches!(&key, Loose::Str(k) if k == "command") {
                if command.is_some() {
                    return Err(de::Error::custom(marked(
                        "duplicate key",
                        "tool_input.command",
                    )));
                }
                command = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(match command {
            Some(Loose::Str(c)) => Ok(c),
            Some(Loose::Other) => Err(err("bad command", "tool_input.command is not a string")),
            Some(Loose::Null) | None => Err(err("no command", "tool_input.command is missing")),
        })
    }
}
