//! Payload bytes → [`Parsed`]: bounds, UTF-8, JSON, dialect, event, canonical call.

use hookgate_core::alias::resolve_in;
use hookgate_core::canonical::{AgentKind, CanonicalCall, ToolCall, ToolKind};
use hookgate_core::catalog::EventId;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::approval::approval_from_payload;
use crate::dialect::{Dialect, sniff};
use crate::error::ParseError;
use crate::tools::tool_call;

/// Payloads larger than this are refused unread. Real payloads are kilobytes; a Write of a big
/// file can reach megabytes; 16 MiB leaves room for that while bounding memory and time.
pub const MAX_PAYLOAD_BYTES: usize = 16 * 1024 * 1024;

/// A payload read in its dialect.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parsed {
    /// The dialect the payload was recognised as (may differ from the agent named).
    pub dialect: Dialect,
    /// The canonical view.
    pub call: CanonicalCall,
    /// The payload exactly as received, for hooks that want the native shape and for audit.
    pub raw: Value,
}

/// Reads one hook payload. `named` is the agent on the command line; it is only a hint (see
/// [`crate::dialect`] for the sniffing rules).
pub fn parse(named: AgentKind, payload: &[u8]) -> Result<Parsed, ParseError> {
    parse_with_event(named, None, payload)
}

/// Like [`parse`], with the event name the hook was registered for (e.g. from the command
/// line). Copilot's camelCase payloads carry no event name, so without a hint the event is
/// inferred from the fields present (`toolResult` → `postToolUse`, …) and a pre-tool call
/// cannot be told from a `permissionRequest` that sends `toolArgs`. A name in the payload
/// always wins over the hint.
pub fn parse_with_event(
    named: AgentKind,
    event_hint: Option<&str>,
    payload: &[u8],
) -> Result<Parsed, ParseError> {
    if payload.len() > MAX_PAYLOAD_BYTES {
        return Err(ParseError::TooLarge {
            size: payload.len(),
            limit: MAX_PAYLOAD_BYTES,
        });
    }
    let text = std::str::from_utf8(payload).map_err(|e| ParseError::NotUtf8 {
        valid_up_to: e.valid_up_to(),
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    let raw: Value = serde_json::from_str(text).map_err(ParseError::NotJson)?;
    parse_value(named, event_hint, raw)
}

/// Like [`parse_with_event`], for a payload already decoded as JSON (a `policy test` case, a
/// captured payload in a test): the same dialect sniffing and mapping as a hook call.
pub fn parse_value(
    named: AgentKind,
    event_hint: Option<&str>,
    raw: Value,
) -> Result<Parsed, ParseError> {
    let obj = raw.as_object().ok_or(ParseError::NotObject)?;
    let dialect = sniff(named, obj);
    let native_event = event_name(dialect, obj, event_hint)?;
    let event = resolve_in(dialect.vocabulary(), &native_event)
        .ok_or_else(|| ParseError::UnknownEvent(native_event.clone()))?;
    let call = canonical(dialect, event, native_event, obj)?;
    Ok(Parsed { dialect, call, raw })
}

/// The canonical call of a decoded payload; a payload without a `cwd` takes `default_cwd`.
/// This is how `policy test` reads a case's payload: by the hook's own parser, so a case is
/// judged exactly as the hook would judge that call.
pub fn call_from_value(
    named: AgentKind,
    payload: &Value,
    default_cwd: &str,
) -> Result<CanonicalCall, ParseError> {
    let mut call = parse_value(named, None, payload.clone())?.call;
    if call.cwd.is_empty() {
        default_cwd.clone_into(&mut call.cwd);
    }
    Ok(call)
}

/// The pre-tool call `agent` makes when it runs tool `name` with `input` in `cwd`: the hook
/// payload such a call arrives as (the `tool_name`/`tool_input` shape every dialect's parser
/// reads), parsed by the hook's own parser. `policy test` builds its `command:` and `tool:`
/// cases this way, and tests their calls, so no second mapping of tool names exists.
pub fn call_for_tool(
    agent: AgentKind,
    cwd: &str,
    name: &str,
    input: &Map<String, Value>,
) -> Result<CanonicalCall, ParseError> {
    let payload = serde_json::json!({
        "session_id": "",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": name,
        "tool_input": input,
    });
    let mut call = parse_value(agent, None, payload)?.call;
    call.agent = agent;
    Ok(call)
}

/// The shell tool `agent` runs a command line with, as its hook payloads name it (Codex
/// reports every shell tool as `Bash`).
const fn shell_tool(agent: AgentKind) -> &'static str {
    match agent {
        AgentKind::Claude | AgentKind::Codex => "Bash",
        AgentKind::Gemini => "run_shell_command",
        AgentKind::Copilot => "bash",
        AgentKind::Cursor => "Shell",
    }
}

/// The pre-tool call `agent` makes when its shell tool runs `command` in `cwd` ([`call_for_tool`]
/// with the agent's own shell tool). `policy test`'s `command:` cases are built this way, so
/// the policy crate never spells an agent's tool.
pub fn call_for_command(
    agent: AgentKind,
    cwd: &str,
    command: &str,
) -> Result<CanonicalCall, ParseError> {
    let mut input = Map::new();
    input.insert("command".to_owned(), Value::String(command.to_owned()));
    call_for_tool(agent, cwd, shell_tool(agent), &input)
}

/// An optional string field: absent or `null` → `None`; any other non-string is an error.
fn opt_str<'a>(
    obj: &'a Map<String, Value>,
    field: &'static str,
) -> Result<Option<&'a str>, ParseError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ParseError::WrongType {
            field,
            expected: "a string",
        }),
    }
}

/// Tool arguments: an object, a JSON-encoded object (Copilot `toolArgs`, Cursor MCP
/// `tool_input`), or absent/`null`/`""` (no arguments).
fn args(obj: &Map<String, Value>, field: &'static str) -> Result<Map<String, Value>, ParseError> {
    let wrong = ParseError::WrongType {
        field,
        expected: "an object or a json-encoded object",
    };
    match obj.get(field) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map.clone()),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(Map::new()),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(map)) => Ok(map),
            _ => Err(wrong),
        },
        Some(_) => Err(wrong),
    }
}

/// The native event name: from the payload, else the hint, else (Copilot camelCase only)
/// inferred from the fields.
fn event_name(
    dialect: Dialect,
    obj: &Map<String, Value>,
    hint: Option<&str>,
) -> Result<String, ParseError> {
    let keys: &[&'static str] = if dialect == Dialect::CopilotCamel {
        &["hookEventName", "hook_event_name", "event"]
    } else {
        &["hook_event_name"]
    };
    for key in keys {
        if let Some(name) = opt_str(obj, key)? {
            return Ok(name.to_owned());
        }
    }
    if let Some(hint) = hint.filter(|h| !h.is_empty()) {
        return Ok(hint.to_owned());
    }
    if dialect == Dialect::CopilotCamel
        && let Some(name) = guess_copilot_event(obj)
    {
        return Ok(name.to_owned());
    }
    Err(ParseError::MissingEvent)
}

/// Copilot camelCase payloads name no event: tell it by the fields each event carries
/// (captured payloads in `shared/e2e/payloads/`, protocols doc §5.3). Order matters: a
/// post-tool payload also has `toolName`.
fn guess_copilot_event(obj: &Map<String, Value>) -> Option<&'static str> {
    let has = |k: &str| obj.contains_key(k);
    if has("toolResult") {
        Some("postToolUse")
    } else if has("toolName") && has("error") {
        Some("postToolUseFailure")
    } else if has("toolName") && has("toolArgs") {
        Some("preToolUse")
    } else if has("toolInput") {
        Some("permissionRequest")
    } else if has("prompt") {
        Some("userPromptSubmitted")
    } else if has("stopReason") {
        Some("agentStop")
    } else if has("source") || has("initialPrompt") {
        Some("sessionStart")
    } else if has("reason") {
        Some("sessionEnd")
    } else if has("error") {
        Some("errorOccurred")
    } else {
        None
    }
}

fn canonical(
    dialect: Dialect,
    event: EventId,
    native_event: String,
    obj: &Map<String, Value>,
) -> Result<CanonicalCall, ParseError> {
    let cursor = matches!(dialect, Dialect::Cursor | Dialect::CursorClaude);
    let session_id = if dialect == Dialect::CopilotCamel {
        opt_str(obj, "sessionId")?.or(opt_str(obj, "session_id")?)
    } else if cursor {
        opt_str(obj, "conversation_id")?.or(opt_str(obj, "session_id")?)
    } else {
        opt_str(obj, "session_id")?
    }
    .unwrap_or_default()
    .to_owned();
    let mut cwd = opt_str(obj, "cwd")?.map(str::to_owned);
    if cursor && cwd.is_none() {
        cwd = match obj.get("workspace_roots") {
            None | Some(Value::Null) => None,
            Some(Value::Array(roots)) => match roots.first() {
                None => None,
                Some(Value::String(root)) => Some(root.clone()),
                Some(_) => {
                    return Err(ParseError::WrongType {
                        field: "workspace_roots",
                        expected: "an array of strings",
                    });
                }
            },
            Some(_) => {
                return Err(ParseError::WrongType {
                    field: "workspace_roots",
                    expected: "an array of strings",
                });
            }
        };
    }
    let mut prompt = opt_str(obj, "prompt")?.map(str::to_owned);
    if prompt.is_none() && dialect == Dialect::CopilotCamel {
        prompt = opt_str(obj, "initialPrompt")?.map(str::to_owned);
    }
    let tool = if event.contract().tool_matched {
        Some(tool(dialect, &native_event, obj)?)
    } else {
        None
    };
    let tool_response = if event == EventId::PostToolUse {
        let keys: &[&str] = match dialect {
            Dialect::CopilotCamel => &["toolResult", "error"],
            Dialect::Cursor => &[
                "tool_output",
                "tool_response",
                "output",
                "result_json",
                "error_message",
            ],
            _ => &["tool_response", "error"],
        };
        keys.iter()
            .find_map(|k| obj.get(*k).filter(|v| !v.is_null()))
            .cloned()
    } else {
        None
    };
    let tool_succeeded = tool_response
        .as_ref()
        .and_then(|r| crate::response::tool_succeeded(&native_event, r));
    let tool_output = tool_response
        .as_ref()
        .and_then(crate::response::output_text);
    Ok(CanonicalCall {
        agent: dialect.agent(),
        event,
        native_event,
        session_id,
        cwd: cwd.unwrap_or_default(),
        tool,
        prompt,
        tool_response,
        approval: approval_from_payload(dialect, obj),
        tool_succeeded,
        tool_output,
    })
}

/// The tool of a tool event. A tool event without a tool name is an error, not a tool-less
/// call: a guard must not wave through a call it could not identify.
fn tool(dialect: Dialect, native: &str, obj: &Map<String, Value>) -> Result<ToolCall, ParseError> {
    if dialect == Dialect::Cursor
        && let Some(call) = cursor_tool(native, obj)?
    {
        return Ok(call);
    }
    let (name_field, args_field): (&'static str, &'static str) = if dialect == Dialect::CopilotCamel
    {
        if obj.contains_key("toolArgs") || !obj.contains_key("toolInput") {
            ("toolName", "toolArgs")
        } else {
            ("toolName", "toolInput")
        }
    } else {
        ("tool_name", "tool_input")
    };
    let name = opt_str(obj, name_field)?.ok_or(ParseError::MissingField(name_field))?;
    let input = args(obj, args_field)?;
    let mut call = tool_call(dialect, name, input);
    // Gemini names the MCP server and tool in `mcp_context`; that beats splitting the name.
    if dialect == Dialect::Gemini
        && let Some(Value::Object(ctx)) = obj.get("mcp_context")
    {
        call.kind = ToolKind::Mcp;
        if let Some(server) = ctx.get("server_name").and_then(Value::as_str) {
            call.mcp_server = Some(server.to_owned());
        }
        if let Some(tool) = ctx.get("tool_name").and_then(Value::as_str) {
            call.mcp_tool = Some(tool.to_owned());
        }
    }
    Ok(call)
}

/// Cursor's tool-specific events carry their arguments at the top level and (for shell, read
/// and edit) no tool name: give them the name Cursor's generic `preToolUse` uses.
fn cursor_tool(native: &str, obj: &Map<String, Value>) -> Result<Option<ToolCall>, ParseError> {
    let pick = |keys: &[&str]| -> Map<String, Value> {
        keys.iter()
            .filter_map(|k| {
                obj.get(*k)
                    .filter(|v| !v.is_null())
                    .map(|v| ((*k).to_owned(), v.clone()))
            })
            .collect()
    };
    Ok(Some(match native {
        "beforeShellExecution" | "afterShellExecution" => {
            opt_str(obj, "command")?.ok_or(ParseError::MissingField("command"))?;
            tool_call(Dialect::Cursor, "Shell", pick(&["command", "cwd"]))
        }
        "beforeReadFile" => {
            opt_str(obj, "file_path")?.ok_or(ParseError::MissingField("file_path"))?;
            tool_call(Dialect::Cursor, "Read", pick(&["file_path"]))
        }
        "afterFileEdit" => {
            opt_str(obj, "file_path")?.ok_or(ParseError::MissingField("file_path"))?;
            tool_call(Dialect::Cursor, "Edit", pick(&["file_path", "edits"]))
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let name = opt_str(obj, "tool_name")?.ok_or(ParseError::MissingField("tool_name"))?;
            let input = args(obj, "tool_input")?;
            let mut call = tool_call(Dialect::Cursor, name, input);
            call.kind = ToolKind::Mcp;
            // The server is identified by how Cursor reaches it (`url` or `command`).
            call.mcp_server = opt_str(obj, "server")?
                .or(opt_str(obj, "url")?)
                .or(opt_str(obj, "command")?)
                .map(str::to_owned)
                .or(call.mcp_server);
            if call.mcp_tool.is_none() {
                call.mcp_tool = Some(name.to_owned());
            }
            call
        }
        _ => return Ok(None),
    }))
}
