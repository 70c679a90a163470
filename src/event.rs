//! Reading the agent's hook event (JSON on stdin) into what the guard needs: is this a
//! shell command, and which; and, for the ledger, where it came from (agent, session,
//! working directory, tool, hook event). Nothing else is kept: every other field is
//! skipped without being unescaped. The command is never copied: its JSON string is
//! unescaped in place, in the event's own buffer (an escape is never shorter than what it
//! stands for), and the command borrows from there; the context's few short strings are
//! owned. Anything unreadable is an error, and the caller denies it.
//!
//! Shell tools, read alike (the command in `tool_input.command`): `Bash` (Claude Code, and
//! every shell tool of Codex), Claude Code's `Monitor` (a background command whose output
//! streams back) and `mcp__workspace__bash`; Gemini CLI's `run_shell_command`; Copilot
//! CLI's `bash`. `PowerShell` is not bash and is not read; Codex `apply_patch` carries a
//! patch, not shell, and is never parsed.
//!
//! Two shapes: Claude Code's `tool_name`/`tool_input` (also Codex, Gemini CLI and Copilot
//! CLI's Claude-style hooks), and Copilot CLI's own `toolName`/`toolArgs`, whose
//! `toolArgs` is an object or a JSON string holding one (unescaped in place too, then read).
//! The shape names the agent as far as it can ([`Agent`]): a `turn_id` is Codex, a
//! `hook_event_name` of `BeforeTool` is Gemini CLI, `toolName` is Copilot CLI, any other
//! `hook_event_name` is Claude Code (or a client that speaks its form).
//!
//! A key the guard reads (`tool_name`, `tool_input`, `tool_input.command`, and their
//! Copilot names) given twice, or in both spellings, is an error: JSON readers disagree on
//! which copy wins.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

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

/// Claude Code's (and Codex's) tools whose `tool_input.command` is bash text the guard
/// reads.
pub const SHELL_TOOLS: [&str; 3] = ["Bash", "Monitor", "mcp__workspace__bash"];

/// Gemini CLI's shell tool.
pub const GEMINI_SHELL_TOOL: &str = "run_shell_command";

/// Copilot CLI's shell tool, as its own events (`toolName`) name it; its Claude-style
/// events name it `Bash`. Read only in Copilot's own shape: no other client has a tool of
/// that name.
pub const COPILOT_SHELL_TOOL: &str = "bash";

/// True for a tool whose `tool_input.command` runs as shell text (Claude Code, Codex,
/// Gemini CLI); Copilot's own `bash` is read by the shape that names it.
pub fn is_shell_tool(name: &str) -> bool {
    SHELL_TOOLS.contains(&name) || name == GEMINI_SHELL_TOOL
}

/// The agent that sent the event: as far as the event's shape says (see the module), or
/// as the hook's command line names it (`heredoc-guard --agent NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Copilot,
}

impl Agent {
    /// Every agent, in the order the command line lists them.
    pub const ALL: [Agent; 4] = [Agent::Claude, Agent::Codex, Agent::Gemini, Agent::Copilot];

    /// The name written to the ledger, taken by `log --agent` and by the hook's `--agent`.
    pub fn id(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
        }
    }

    /// The agent named `id`.
    pub fn from_id(id: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.id() == id)
    }

    /// True when an event of this shape can come from a hook set up for `named`: Claude
    /// Code's shape is also Codex's (without a `turn_id`) and Copilot CLI's Claude-style
    /// form; Codex's shape is Claude's with a `turn_id`; Gemini CLI's and Copilot CLI's own
    /// shapes are theirs alone.
    pub fn shape_fits(self, named: Agent) -> bool {
        match (self, named) {
            (a, b) if a == b => true,
            (Agent::Claude, Agent::Codex | Agent::Copilot) => true,
            (Agent::Codex, Agent::Claude) => true,
            _ => false,
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

/// One event as read: its context, and where its shell command lies in the event's
/// bytes, unescaped and UTF-8 (`Ok(None)` for a tool that is not a shell tool), or why it
/// cannot be read.
pub struct Read {
    pub context: Context<'static>,
    pub command: Result<Option<Range<usize>>, EventError>,
}

/// Reads one hook event, unescaping its command in place (the bytes of the command's JSON
/// string are overwritten by the command they stand for).
pub fn read(bytes: &mut [u8]) -> Read {
    let (context, command) = {
        let parsed = parse(bytes);
        (parsed.context.into_owned(), parsed.command)
    };
    let command = match command {
        Ok(Some(Found::Command(raw))) => {
            unescape_in_place(bytes, raw, "tool_input.command").map(Some)
        }
        Ok(Some(Found::Nested(raw))) => nested_command(bytes, raw).map(Some),
        Ok(None) => Ok(None),
        Err(e) => Err(e),
    };
    Read { context, command }
}

/// Copilot CLI's `toolArgs` given as a JSON string (quotes included at `raw`): unescaped
/// in place, read as the object it holds, and its `command` unescaped in place in turn.
fn nested_command(bytes: &mut [u8], raw: Range<usize>) -> Result<Range<usize>, EventError> {
    let inner = unescape_in_place(bytes, raw, "toolArgs")?;
    let command = {
        let text = bytes
            .get(inner)
            .ok_or_else(|| err("not json", "toolArgs is not in the event's text"))?;
        let mut de = serde_json::Deserializer::from_slice(text);
        let read = de
            .deserialize_any(InputVisitor)
            .and_then(|read| de.end().map(|()| read));
        match read {
            Ok(Ok(raw)) => span_in(bytes, raw)?,
            Ok(Err(e)) => return Err(e),
            Err(e) => {
                return Err(wire_error(&e).unwrap_or_else(|| {
                    err(
                        "not json",
                        format!("toolArgs is a string, but not JSON ({e})"),
                    )
                }));
            }
        }
    };
    unescape_in_place(bytes, command, "toolArgs.command")
}

impl Context<'_> {
    /// The same context, its strings owned.
    fn into_owned(self) -> Context<'static> {
        let owned = |s: Option<Cow<'_, str>>| s.map(|s| Cow::Owned(s.into_owned()));
        Context {
            agent: self.agent,
            session_id: owned(self.session_id),
            cwd: owned(self.cwd),
            tool: owned(self.tool),
            hook_event: owned(self.hook_event),
        }
    }
}

/// Where a shell tool's command lies in the event's bytes, as a JSON string (quotes
/// included): the command's own, or Copilot CLI's `toolArgs` string that holds it.
enum Found {
    Command(Range<usize>),
    Nested(Range<usize>),
}

/// An event as parsed: its context, and where its command is.
struct Parsed<'a> {
    context: Context<'a>,
    command: Result<Option<Found>, EventError>,
}

/// Parses one hook event.
fn parse(bytes: &[u8]) -> Parsed<'_> {
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
        tool_args,
        command,
        camel,
        mut context,
    } = wire;
    let tool = match tool_name {
        Some(Loose::Str(name)) => name,
        Some(Loose::Other) => {
            return Parsed {
                context,
                command: Err(err("bad tool_name", "tool_name is not a string")),
            };
        }
        Some(Loose::Null) | None => {
            return Parsed {
                context,
                command: Err(err("no tool_name", "the event has no tool_name")),
            };
        }
    };
    let shell = is_shell_tool(&tool) || (camel && tool == COPILOT_SHELL_TOOL);
    context.tool = Some(tool);
    if !shell {
        return Parsed {
            context,
            command: Ok(None),
        };
    }
    // tool_input before tool_name in the text (or Copilot's toolArgs, always kept): read
    // now, from the slice kept.
    let command = match (command, tool_input, tool_args) {
        (Some(read), _, _) => read.and_then(|raw| span_in(bytes, raw)).map(Found::Command),
        (None, Some(raw), _) => object(raw)
            .and_then(|raw| span_in(bytes, raw))
            .map(Found::Command),
        (None, None, Some(raw)) => match raw.get().as_bytes().first() {
            Some(b'{') => object(raw)
                .and_then(|raw| span_in(bytes, raw))
                .map(Found::Command),
            Some(b'"') => span_in(bytes, raw).map(Found::Nested),
            _ => Err(err(
                "bad tool_input",
                "toolArgs is neither an object nor a JSON string",
            )),
        },
        (None, None, None) => Err(err(
            "no tool_input",
            "the shell tool event has no tool_input",
        )),
    };
    Parsed {
        context,
        command: command.map(Some),
    }
}

/// The command of a tool input kept as its slice of the event (an object).
fn object(raw: &RawValue) -> Result<&RawValue, EventError> {
    let mut de = serde_json::Deserializer::from_str(raw.get());
    match de.deserialize_any(InputVisitor) {
        Ok(read) => read,
        Err(e) => {
            Err(wire_error(&e).unwrap_or_else(|| err("not json", format!("tool_input: {e}"))))
        }
    }
}

/// Where `raw` (a slice of `bytes`, as serde_json hands out borrowed raw values) lies in
/// `bytes`.
fn span_in(bytes: &[u8], raw: &RawValue) -> Result<Range<usize>, EventError> {
    let text = raw.get().as_bytes();
    let start = (text.as_ptr() as usize).wrapping_sub(bytes.as_ptr() as usize);
    let span = start..start.saturating_add(text.len());
    match bytes.get(span.clone()) {
        Some(found) if std::ptr::eq(found, text) => Ok(span),
        _ => Err(err(
            "not json",
            "tool_input.command is not in the event's text",
        )),
    }
}

/// Unescapes the JSON string at `raw` (quotes included; serde_json has checked its
/// syntax) in place: the text is written over the start of its own escaped text, which
/// is never shorter. A lone surrogate (`\ud800`) is an error, as serde_json makes it for
/// any other string. `name` names the string in errors.
fn unescape_in_place(
    bytes: &mut [u8],
    raw: Range<usize>,
    name: &str,
) -> Result<Range<usize>, EventError> {
    let bad = |what: &str| {
        err(
            "not json",
            format!("stdin is not valid JSON ({name} holds {what})"),
        )
    };
    let inner = raw.start.saturating_add(1)..raw.end.saturating_sub(1);
    let text = bytes.get_mut(inner).ok_or_else(|| bad("no string"))?;
    let len = unescape(text).map_err(bad)?;
    let command = text.get(..len).ok_or_else(|| bad("no string"))?;
    std::str::from_utf8(command).map_err(|_| bad("text that is not UTF-8"))?;
    Ok(raw.start + 1..raw.start + 1 + len)
}

/// Unescapes JSON string contents in place and gives their new length. Runs without a
/// backslash are moved a run at a time.
fn unescape(s: &mut [u8]) -> Result<usize, &'static str> {
    let (mut r, mut w) = (0, 0);
    loop {
        // The run up to the next backslash (none when escapes follow one another), moved
        // back only once an escape has shortened the text.
        if s.get(r) != Some(&b'\\') {
            let rest = s.get(r..).ok_or("an escape past its end")?;
            let run = memchr::memchr(b'\\', rest).unwrap_or(rest.len());
            if w != r {
                s.copy_within(r..r + run, w);
            }
            r += run;
            w += run;
        }
        let Some(&escape) = s.get(r + 1) else {
            return if r >= s.len() {
                Ok(w)
            } else {
                Err("a backslash at its end")
            };
        };
        r += 2;
        // A one-byte escape is one byte (written where the backslash was, `w < r`).
        let byte = match escape {
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            b'/' => Some(b'/'),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            _ => None,
        };
        if let Some(byte) = byte {
            *s.get_mut(w).ok_or("an escape longer than its text")? = byte;
            w += 1;
            continue;
        }
        if escape != b'u' {
            return Err("a bad escape");
        }
        let high = hex4(s, r)?;
        r += 4;
        let code = match high {
            0xD800..=0xDBFF => {
                if s.get(r..r + 2) != Some(b"\\u") {
                    return Err("a lone surrogate");
                }
                let low = hex4(s, r + 2)?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err("a lone surrogate");
                }
                r += 6;
                0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err("a lone surrogate"),
            _ => high,
        };
        let c = char::from_u32(code).ok_or("a bad escape")?;
        let mut buf = [0u8; 4];
        let encoded = c.encode_utf8(&mut buf).as_bytes();
        // What an escape stands for is never longer than the escape: `w + len <= r`.
        let out = s
            .get_mut(w..w + encoded.len())
            .ok_or("an escape longer than its text")?;
        out.copy_from_slice(encoded);
        w += encoded.len();
    }
}

/// The four hex digits at `at`.
fn hex4(s: &[u8], at: usize) -> Result<u32, &'static str> {
    let digits = s.get(at..at + 4).ok_or("a short \\u escape")?;
    digits.iter().try_fold(0u32, |n, &d| {
        let v = (d as char).to_digit(16).ok_or("a bad \\u escape")?;
        Ok(n * 16 + v)
    })
}

fn failed(e: EventError) -> Parsed<'static> {
    Parsed {
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
    if *cause == "mixed shapes" {
        return Some(err(
            cause,
            "the event names its tool in one client's spelling (tool_name, tool_input) and its input in another's (toolName, toolArgs)",
        ));
    }
    // serde_json appends " at line L column C"; the detail is what came before.
    let key = detail.rsplit_once(" at line ").map_or(detail, |(d, _)| d);
    Some(err(cause, format!("the key {key} is given twice")))
}

const KNOWN_CAUSES: [&str; 2] = ["duplicate key", "mixed shapes"];

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
    /// Copilot CLI's `toolArgs` (an object, or a JSON string holding one): always kept as
    /// its slice of the input.
    tool_args: Option<&'a RawValue>,
    /// The event spells a key the guard reads as Copilot CLI's own events do.
    camel: bool,
    /// `tool_input` read (its command's JSON string) once `tool_name` said it is a shell
    /// tool.
    command: Option<Result<&'a RawValue, EventError>>,
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
            tool_args: None,
            command: None,
            camel: false,
            context: Context::default(),
        };
        let mut turn_id = false;
        let mut hook_event_seen = false;
        // Copilot CLI's own spelling (toolName, toolArgs) of the keys the guard reads.
        let mut camel_name = None;
        let mut camel_input = None;
        while let Some(key) = map.next_key::<Loose<'de>>()? {
            let key = match &key {
                Loose::Str(k) => k.as_ref(),
                _ => "",
            };
            match key {
                "tool_name" | "toolName" => {
                    if wire.tool_name.is_some() {
                        return Err(de::Error::custom(marked("duplicate key", "tool_name")));
                    }
                    camel_name = Some(key == "toolName");
                    wire.tool_name = Some(map.next_value()?);
                }
                "toolArgs" => {
                    if wire.tool_input.is_some()
                        || wire.command.is_some()
                        || wire.tool_args.is_some()
                    {
                        return Err(de::Error::custom(marked("duplicate key", "tool_input")));
                    }
                    camel_input = Some(true);
                    wire.tool_args = Some(map.next_value()?);
                }
                "tool_input" => {
                    if wire.tool_input.is_some()
                        || wire.command.is_some()
                        || wire.tool_args.is_some()
                    {
                        return Err(de::Error::custom(marked("duplicate key", "tool_input")));
                    }
                    camel_input = Some(false);
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
                "session_id" | "sessionId" => {
                    wire.context.session_id = string(map.next_value()?);
                }
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
        if let (Some(name), Some(input)) = (camel_name, camel_input)
            && name != input
        {
            return Err(de::Error::custom(marked("mixed shapes", "")));
        }
        let camel = camel_name == Some(true) || camel_input == Some(true);
        wire.camel = camel;
        wire.context.agent = if turn_id {
            Some(Agent::Codex)
        } else if wire.context.hook_event.as_deref() == Some("BeforeTool") {
            Some(Agent::Gemini)
        } else if camel {
            Some(Agent::Copilot)
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
    type Value = Result<&'de RawValue, EventError>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(InputVisitor)
    }
}

struct InputVisitor;

impl InputVisitor {
    fn not_object<'a, E>() -> Result<Result<&'a RawValue, EventError>, E> {
        Ok(Err(err("bad tool_input", "tool_input is not an object")))
    }
}

impl<'de> Visitor<'de> for InputVisitor {
    type Value = Result<&'de RawValue, EventError>;

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
        // Kept raw (its JSON text): unescaped later, in place.
        let mut command: Option<&'de RawValue> = None;
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
            Some(raw) if raw.get().starts_with('"') => Ok(raw),
            Some(raw) if raw.get() != "null" => {
                Err(err("bad command", "tool_input.command is not a string"))
            }
            Some(_) | None => Err(err("no command", "tool_input.command is missing")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The command of a Bash event whose command is the JSON string `json` (its quotes
    /// included), as the guard decodes it.
    fn decoded(json: &str) -> Result<String, EventError> {
        let mut event =
            format!(r#"{{"tool_name":"Bash","tool_input":{{"command":{json}}}}}"#).into_bytes();
        let not_read = || err("test", "no command was read from a Bash event");
        let range = read(&mut event).command?.ok_or_else(not_read)?;
        let command = event.get(range).ok_or_else(not_read)?;
        Ok(String::from_utf8_lossy(command).into_owned())
    }

    #[test]
    fn every_json_escape_decodes_in_place_as_serde_json_decodes_it() {
        for json in [
            r#""a\"b\\c\/d\be\ff\ng\rh\ti""#,
            r#""\u0041\u00e9\u20AC\ud83d\ude00 end""#,
            r#""\u0000 and \u001f""#,
            r#""no escape at all""#,
            r#""""#,
            r#""cat <<EOF\n$(id)\nEOF""#,
        ] {
            let expected: String = serde_json::from_str(json).unwrap_or_default();
            assert_eq!(decoded(json).ok(), Some(expected), "{json}");
        }
    }

    #[test]
    fn a_lone_surrogate_or_a_broken_escape_is_not_json() {
        for json in [
            r#""\ud800""#,
            r#""\ud800x""#,
            r#""\ud800\u0041""#,
            r#""\udc00""#,
            r#""\ud800\ud800""#,
        ] {
            assert!(serde_json::from_str::<String>(json).is_err(), "{json}");
            let e = decoded(json).err();
            assert_eq!(e.map(|e| e.cause), Some("not json"), "{json}");
        }
        // Broken before the decoder sees them: serde_json's parse rejects them.
        for json in [r#""\x""#, r#""\u12""#, r#""\u12g4""#, "\"a\u{1}\""] {
            assert_eq!(
                decoded(json).err().map(|e| e.cause),
                Some("not json"),
                "{json}"
            );
        }
    }

    #[test]
    fn a_command_given_as_null_or_not_a_string_keeps_its_cause() {
        assert_eq!(decoded("null").err().map(|e| e.cause), Some("no command"));
        assert_eq!(decoded("[1]").err().map(|e| e.cause), Some("bad command"));
        assert_eq!(decoded("\"null\"").ok().as_deref(), Some("null"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        #[test]
        fn any_string_comes_back_as_it_went_in(s in any::<String>(), ascii in "[ -~\n\t]{0,64}") {
            for text in [&s, &ascii] {
                let json = serde_json::to_string(text).unwrap_or_default();
                let back = decoded(&json).ok();
                prop_assert_eq!(back.as_ref(), Some(text));
                // And every character written as a \u escape (pairs for astral ones).
                let escaped: String = text
                    .encode_utf16()
                    .map(|u| format!("\\u{u:04x}"))
                    .collect();
                let back = decoded(&format!("\"{escaped}\"")).ok();
                prop_assert_eq!(back.as_ref(), Some(text));
            }
        }
    }
}
