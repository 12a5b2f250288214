//! The scripted model: `script:FILE`, the offline default for tests, demos and `hookgate test`.
//!
//! The file is the JSON script format of `../shared/e2e/mock_llm.py`, so one script drives both
//! the real CLIs (through the mock server) and `hookgate run`:
//!
//! ```json
//! [
//!   {"tool": "shell", "input": {"cmd": "echo hi"}},
//!   {"tools": [{"tool": "read_file", "input": {"path": "a"}}, {"tool": "list_directory", "input": {"path": "."}}]},
//!   {"text": "all done"}
//! ]
//! ```
//!
//! or `{"turns": [...], "final_text": "...", "side_text": "..."}`. Turn selection is the mock's:
//! turn N answers the request whose conversation already holds N-1 assistant turns (runs of
//! consecutive assistant messages), so a retried request gets the same turn again and the
//! script never drifts from the conversation. A request that offers no tools is a side call
//! (a compaction summary, a judge) and never consumes a turn. One extension the mock does not
//! need: `{"error": "..."}` makes that call fail, so error paths can be scripted too.
//!
//! Invariant: the reply is a pure function of the script and the request's history. No clock,
//! no counter, no randomness: the same session replays the same way.

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::{
    BoxFuture, ChatRequest, ChatResponse, LlmError, Message, Model, Role, StopReason, ToolCall,
    Usage,
};

/// One scripted tool call.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptCall {
    tool: String,
    #[serde(default)]
    input: Option<Value>,
}

/// One scripted assistant turn, as written in the file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
enum RawTurn {
    Text(String),
    Turn(TurnObject),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnObject {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    input: Option<Value>,
    #[serde(default)]
    tools: Vec<ScriptCall>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
enum RawScript {
    Turns(Vec<RawTurn>),
    Object(ScriptObject),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptObject {
    turns: Vec<RawTurn>,
    #[serde(default)]
    final_text: Option<String>,
    #[serde(default)]
    side_text: Option<String>,
}

/// A parsed turn: text, calls, or a scripted failure.
#[derive(Debug, Clone, PartialEq)]
enum Turn {
    Reply {
        text: String,
        calls: Vec<(String, Value)>,
    },
    Error(String),
}

/// The scripted model. Build it with [`crate::script`] or [`ScriptModel::from_json`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptModel {
    name: String,
    path: String,
    turns: Vec<Turn>,
    final_text: String,
    side_text: Option<String>,
}

/// The mock's default answer once the script is used up.
const FINAL_TEXT: &str = "done";

fn object_input(path: &str, tool: &str, input: Option<Value>) -> Result<Value, LlmError> {
    match input {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(v @ Value::Object(_)) => Ok(v),
        Some(_) => Err(LlmError::Script {
            path: path.to_owned(),
            reason: format!("the input of tool `{tool}` must be a JSON object"),
        }),
    }
}

impl ScriptModel {
    /// Parses a script from its JSON text; `path` names it in errors and in the model name.
    ///
    /// # Errors
    /// [`LlmError::Script`] when the text is not a script (unknown fields are rejected, so a
    /// typo in a turn fails the run instead of silently ending it).
    pub fn from_json(path: &str, text: &str) -> Result<Self, LlmError> {
        let bad = |reason: String| LlmError::Script {
            path: path.to_owned(),
            reason,
        };
        let raw: RawScript = serde_json::from_str(text).map_err(|e| {
            bad(format!(
                "not a script (a list of turns or {{\"turns\": [...]}}): {e}"
            ))
        })?;
        let (raw_turns, final_text, side_text) = match raw {
            RawScript::Turns(turns) => (turns, None, None),
            RawScript::Object(o) => (o.turns, o.final_text, o.side_text),
        };
        let mut turns = Vec::with_capacity(raw_turns.len());
        for (index, raw) in raw_turns.into_iter().enumerate() {
            let turn = match raw {
                RawTurn::Text(text) => Turn::Reply {
                    text,
                    calls: Vec::new(),
                },
                RawTurn::Turn(t) => {
                    if let Some(message) = t.error {
                        Turn::Error(message)
                    } else {
                        let mut calls = Vec::new();
                        if let Some(tool) = t.tool {
                            let input = object_input(path, &tool, t.input)?;
                            calls.push((tool, input));
                        } else if t.input.is_some() {
                            return Err(bad(format!("turn {}: `input` without `tool`", index + 1)));
                        }
                        for call in t.tools {
                            let input = object_input(path, &call.tool, call.input)?;
                            calls.push((call.tool, input));
                        }
                        let text = match t.text {
                            Some(text) => text,
                            None if calls.is_empty() => {
                                final_text.clone().unwrap_or_else(|| FINAL_TEXT.to_owned())
                            }
                            None => String::new(),
                        };
                        Turn::Reply { text, calls }
                    }
                }
            };
            turns.push(turn);
        }
        let file_name = Path::new(path)
            .file_name()
            .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned());
        Ok(Self {
            name: format!("script/{file_name}"),
            path: path.to_owned(),
            turns,
            final_text: final_text.unwrap_or_else(|| FINAL_TEXT.to_owned()),
            side_text,
        })
    }

    /// Reads and parses a script file.
    ///
    /// # Errors
    /// [`LlmError::Script`] when the file cannot be read or is not a script.
    pub fn from_file(path: &Path) -> Result<Self, LlmError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| LlmError::Script {
            path: shown.clone(),
            reason: format!("cannot read: {e}"),
        })?;
        Self::from_json(&shown, &text)
    }

    /// How many turns the script holds.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// True for an empty script (every request gets the final text).
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// The reply to `request`, computed without I/O.
    ///
    /// # Errors
    /// [`LlmError::Script`] for a scripted `{"error": ...}` turn.
    pub fn reply(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let input_tokens = estimate_tokens(&request.messages);
        if request.tools.is_empty() {
            let text = self.side_text.clone().unwrap_or_else(|| {
                request.response_schema.as_ref().map_or_else(
                    || self.final_text.clone(),
                    |schema| fake_from_schema(schema, 0).to_string(),
                )
            });
            return Ok(self.response(Message::text(Role::Assistant, text), input_tokens));
        }
        let index = assistant_turns(&request.messages);
        let Some(turn) = self.turns.get(index) else {
            let message = Message::text(Role::Assistant, self.final_text.clone());
            return Ok(self.response(message, input_tokens));
        };
        match turn {
            Turn::Error(message) => Err(LlmError::Script {
                path: self.path.clone(),
                reason: format!("turn {}: scripted error: {message}", index + 1),
            }),
            Turn::Reply { text, calls } => {
                let tool_calls = calls
                    .iter()
                    .enumerate()
                    .map(|(n, (name, input))| ToolCall {
                        id: format!("call_{}_{}", index + 1, n + 1),
                        name: name.clone(),
                        input: input.clone(),
                    })
                    .collect();
                let message = Message {
                    role: Role::Assistant,
                    text: text.clone(),
                    tool_calls,
                    tool_call_id: None,
                    is_error: false,
                };
                Ok(self.response(message, input_tokens))
            }
        }
    }

    fn response(&self, message: Message, input_tokens: u64) -> ChatResponse {
        let output_tokens = estimate_tokens(std::slice::from_ref(&message));
        let stop_reason = if message.tool_calls.is_empty() {
            StopReason::EndTurn
        } else {
            StopReason::ToolUse
        };
        ChatResponse {
            message,
            stop_reason,
            usage: Usage {
                input_tokens,
                output_tokens,
            },
            model: self.name.clone(),
            // A scripted reply costs nothing, and that is known.
            cost: Some(0.0),
        }
    }
}

impl Model for ScriptModel {
    fn name(&self) -> &str {
        &self.name
    }

    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move { self.reply(request) })
    }
}

/// Runs of consecutive assistant messages: the mock's turn counter.
fn assistant_turns(messages: &[Message]) -> usize {
    let mut runs = 0;
    let mut in_run = false;
    for m in messages {
        let assistant = m.role == Role::Assistant;
        if assistant && !in_run {
            runs += 1;
        }
        in_run = assistant;
    }
    runs
}

/// A deterministic token estimate (four bytes a token, rounded up) so usage, cost and
/// compaction thresholds behave the same in every scripted run.
fn estimate_tokens(messages: &[Message]) -> u64 {
    let bytes: usize = messages
        .iter()
        .map(|m| {
            m.text.len()
                + m.tool_calls
                    .iter()
                    .map(|c| c.name.len() + c.input.to_string().len())
                    .sum::<usize>()
        })
        .sum();
    u64::try_from(bytes.div_ceil(4)).unwrap_or(u64::MAX)
}

/// The smallest value that fits a JSON schema (the mock's side-call answer).
fn fake_from_schema(schema: &Value, depth: usize) -> Value {
    let Some(schema) = schema.as_object() else {
        return Value::Object(Map::new());
    };
    if depth > 8 {
        return Value::Object(Map::new());
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            return fake_from_schema(first, depth + 1);
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => Value::String(String::new()),
        Some("integer" | "number") => Value::from(0),
        Some("boolean") => Value::Bool(false),
        Some("array") => Value::Array(Vec::new()),
        Some("null") => Value::Null,
        _ => {
            let mut object = Map::new();
            if let (Some(props), Some(required)) = (
                schema.get("properties").and_then(Value::as_object),
                schema.get("required").and_then(Value::as_array),
            ) {
                for name in required.iter().filter_map(Value::as_str) {
                    let value = props
                        .get(name)
                        .map_or(Value::Null, |s| fake_from_schema(s, depth + 1));
                    object.insert(name.to_owned(), value);
                }
            }
            Value::Object(object)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::ToolSpec;

    fn request(messages: Vec<Message>) -> ChatRequest {
        ChatRequest {
            messages,
            tools: vec![ToolSpec {
                name: "shell".into(),
                description: "run".into(),
                input_schema: json!({"type": "object"}),
            }],
            ..ChatRequest::default()
        }
    }

    fn script(text: &str) -> ScriptModel {
        ScriptModel::from_json("s.json", text).unwrap()
    }

    #[test]
    fn turn_n_answers_the_request_with_n_minus_one_assistant_turns() {
        let model = script(r#"[{"tool": "shell", "input": {"cmd": "ls"}}, {"text": "all done"}]"#);
        let mut messages = vec![Message::text(Role::User, "go")];
        let first = model.reply(&request(messages.clone())).unwrap();
        assert_eq!(first.stop_reason, StopReason::ToolUse);
        assert_eq!(first.message.tool_calls[0].name, "shell");
        assert_eq!(first.message.tool_calls[0].input, json!({"cmd": "ls"}));
        // A retried request gets the same turn again.
        assert_eq!(model.reply(&request(messages.clone())).unwrap(), first);
        messages.push(first.message.clone());
        messages.push(Message::tool_result("call_1_1", "a b", false));
        let second = model.reply(&request(messages.clone())).unwrap();
        assert_eq!(second.message.text, "all done");
        assert_eq!(second.stop_reason, StopReason::EndTurn);
        messages.push(second.message);
        let third = model.reply(&request(messages)).unwrap();
        assert_eq!(
            third.message.text, "done",
            "a used-up script answers the final text"
        );
    }

    #[test]
    fn a_tools_turn_makes_parallel_calls_with_distinct_ids() {
        let model = script(
            r#"{"turns": [{"text": "two", "tools": [{"tool": "read_file", "input": {"path": "a"}}, {"tool": "list_directory"}]}]}"#,
        );
        let reply = model
            .reply(&request(vec![Message::text(Role::User, "go")]))
            .unwrap();
        let calls = &reply.message.tool_calls;
        assert_eq!(reply.message.text, "two");
        assert_eq!(calls.len(), 2);
        assert_ne!(calls[0].id, calls[1].id);
        assert_eq!(calls[1].input, json!({}));
    }

    #[test]
    fn side_calls_without_tools_never_consume_a_turn() {
        let model = script(r#"{"turns": [{"text": "turn one"}], "side_text": "summary"}"#);
        let side = ChatRequest {
            messages: vec![Message::text(Role::User, "summarize")],
            ..ChatRequest::default()
        };
        assert_eq!(model.reply(&side).unwrap().message.text, "summary");
        let reply = model
            .reply(&request(vec![Message::text(Role::User, "go")]))
            .unwrap();
        assert_eq!(reply.message.text, "turn one");
    }

    #[test]
    fn a_side_call_with_a_schema_gets_the_smallest_fitting_json() {
        let model = script("[]");
        let side = ChatRequest {
            messages: vec![Message::text(Role::User, "judge")],
            response_schema: Some(json!({
                "type": "object", "required": ["decision", "reason"],
                "properties": {"decision": {"enum": ["allow", "deny"]}, "reason": {"type": "string"}}
            })),
            ..ChatRequest::default()
        };
        let text = model.reply(&side).unwrap().message.text;
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            json!({"decision": "allow", "reason": ""})
        );
    }

    #[test]
    fn a_scripted_error_turn_fails_that_call() {
        let model = script(r#"[{"error": "rate limited"}]"#);
        let err = model
            .reply(&request(vec![Message::text(Role::User, "go")]))
            .unwrap_err();
        assert!(err.to_string().contains("rate limited"), "{err}");
    }

    #[test]
    fn a_typo_in_a_turn_is_rejected_not_read_as_the_end() {
        assert!(ScriptModel::from_json("s.json", r#"[{"tol": "shell"}]"#).is_err());
        assert!(ScriptModel::from_json("s.json", r#"[{"tool": "shell", "input": "ls"}]"#).is_err());
        assert!(ScriptModel::from_json("s.json", r#"{"turn": []}"#).is_err());
    }

    #[test]
    fn usage_is_a_deterministic_estimate() {
        let model = script(r#"[{"text": "abcd"}]"#);
        let reply = model
            .reply(&request(vec![Message::text(Role::User, "12345678")]))
            .unwrap();
        assert_eq!(
            reply.usage,
            Usage {
                input_tokens: 2,
                output_tokens: 1
            }
        );
        assert_eq!(model.name(), "script/s.json");
    }
}
