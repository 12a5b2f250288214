//! Parsing what a hook printed (or an HTTP hook answered) into one normalised response.
//!
//! Three spellings are accepted so that existing hooks run unchanged:
//! * docker-agent's snake_case (`hook_specific_output.permission_decision`, …);
//! * Claude Code's camelCase (`hookSpecificOutput.permissionDecision`, `updatedInput`,
//!   `additionalContext`, `systemMessage`, `stopReason`, …) — neither seed system accepts this;
//! * Meerkat's `{"decision":{"decision":"deny","hook_id":…,"reason_code":…,"message":…}}`.
//!
//! Failure is decided on purpose: stdout that starts like JSON but is not exactly one JSON
//! object, a decision word we do not know, or a field of the wrong type is a *failure* of the
//! hook (which blocks on fail-closed events), never quietly read as plain text or as "allow".
//! Under `strict_output` unknown fields, plain text and outputs the event cannot use are
//! failures too; without it they are ignored but recorded as notes, so nothing is lost.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::alias::resolve_event;
use crate::catalog::{Contract, Rewrite};
use crate::decision::Decision;

/// One hook's output, normalised across spellings.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HookResponse {
    /// The hook's verdict; `None` is "no opinion".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// Why, for the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `continue: false` was given: stop the agent, with this reason (possibly empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
    /// A warning for the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// Text for the conversation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// A patch over the tool input (shallow merge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// A replacement tool response (`""` clears it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_response: Option<Value>,
    /// Replacement model messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_messages: Option<Value>,
    /// A replacement user prompt (user_prompt_submit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_prompt: Option<String>,
    /// A replacement compaction summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// String annotations (blast_radius, category, reason, …).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
    /// Meerkat's reason code, when the hook answered in Meerkat's shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<String>,
    /// Meerkat's structured deny payload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// The hook id a Meerkat response claimed; recorded, never trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed_hook_id: Option<String>,
    /// Outputs that were present but ignored (unknown or unusable here), for the trace.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What a hook's stdout turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum ParsedOutput {
    /// Nothing (or only whitespace): do nothing, continue normally.
    Empty,
    /// Text that is not a JSON object: context where the event consumes it.
    Plain(String),
    /// A JSON object.
    Json(Box<HookResponse>),
}

/// Why an output is not acceptable. Every variant is a hook *failure*.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    /// Starts like JSON but does not parse.
    #[error("output is not valid JSON: {0}")]
    Malformed(String),
    /// More than one JSON value, or JSON followed by text.
    #[error("output must be exactly one JSON object: {0}")]
    NotSingleObject(String),
    /// Not UTF-8.
    #[error("output is not UTF-8 text")]
    NotUtf8,
    /// Plain text or a non-object where `strict_output` requires an object.
    #[error("strict_output: output must be a JSON object, got {0}")]
    StrictNotObject(&'static str),
    /// A field hookgate does not know (strict only).
    #[error("strict_output: unknown field `{0}`")]
    UnknownField(String),
    /// A known field with a value of the wrong type.
    #[error("field `{field}` must be {expected}")]
    WrongType {
        /// The field's path.
        field: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A decision word outside the vocabulary.
    #[error("field `{field}` has unknown value `{word}`")]
    UnknownDecision {
        /// The field's path.
        field: String,
        /// What the hook wrote.
        word: String,
    },
    /// Both spellings of one field.
    #[error("both `{0}` and `{1}` are set; use one spelling")]
    BothSpellings(&'static str, &'static str),
    /// An output this event cannot use (strict only).
    #[error("strict_output: `{field}` is not supported by `{event}`")]
    Unsupported {
        /// The output field.
        field: &'static str,
        /// The event.
        event: &'static str,
    },
    /// `hook_event_name` names another event (strict only).
    #[error("strict_output: hook_event_name `{found}` does not match `{expected}`")]
    EventMismatch {
        /// What the hook wrote.
        found: String,
        /// The event being dispatched.
        expected: &'static str,
    },
    /// `suppress_output` under strict mode: write diagnostics to stderr instead.
    #[error("strict_output: `suppress_output` is not supported; write diagnostics to stderr")]
    SuppressOutput,
    /// A Meerkat patch whose `patch_type` is not one of Meerkat's.
    #[error(
        "unknown Meerkat patch `{0}` (tool_args, tool_result, llm_request, assistant_text, run_result)"
    )]
    UnknownPatch(String),
}

/// Parses one hook's stdout for the event with `contract`.
pub fn parse_output(
    contract: &Contract,
    stdout: &[u8],
    strict: bool,
) -> Result<ParsedOutput, OutputError> {
    let text = std::str::from_utf8(stdout).map_err(|_| OutputError::NotUtf8)?;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(ParsedOutput::Empty);
    }
    if !trimmed.starts_with('{') {
        if strict {
            let kind = match trimmed.as_bytes()[0] {
                b'[' => "an array",
                b'n' if trimmed == "null" => "null",
                _ => "plain text",
            };
            return Err(OutputError::StrictNotObject(kind));
        }
        return Ok(ParsedOutput::Plain(trimmed.to_owned()));
    }
    let value = parse_single_object(trimmed)?;
    let Value::Object(map) = value else {
        return Err(OutputError::NotSingleObject("not an object".to_owned()));
    };
    response_from_object(contract, &map, strict).map(|r| ParsedOutput::Json(Box::new(r)))
}

/// Parses a value that must be one JSON object (an HTTP body, a closure's reply).
pub fn response_from_value(
    contract: &Contract,
    value: &Value,
    strict: bool,
) -> Result<HookResponse, OutputError> {
    match value {
        Value::Object(map) => response_from_object(contract, map, strict),
        Value::Null if !strict => Ok(HookResponse::default()),
        _ => Err(OutputError::StrictNotObject("a non-object")),
    }
}

fn parse_single_object(text: &str) -> Result<Value, OutputError> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let first = match stream.next() {
        Some(Ok(value)) => value,
        Some(Err(err)) => return Err(OutputError::Malformed(err.to_string())),
        None => return Err(OutputError::Malformed("empty".to_owned())),
    };
    let rest = &text[stream.byte_offset()..];
    if !rest.trim().is_empty() {
        return Err(OutputError::NotSingleObject(format!(
            "unexpected `{}` after the object",
            preview(rest.trim(), 20)
        )));
    }
    Ok(first)
}

fn preview(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Reads fields of one JSON object under either spelling, remembering which were used.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: &'static str,
    used: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    fn new(map: &'a Map<String, Value>, prefix: &'static str) -> Self {
        Self {
            map,
            prefix,
            used: Vec::new(),
        }
    }

    fn path(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    fn get(
        &mut self,
        snake: &'static str,
        camel: &'static str,
    ) -> Result<Option<(&'static str, &'a Value)>, OutputError> {
        let a = self.map.get_key_value(snake);
        let b = if camel == snake {
            None
        } else {
            self.map.get_key_value(camel)
        };
        match (a, b) {
            (Some(_), Some(_)) => Err(OutputError::BothSpellings(snake, camel)),
            (Some((key, value)), None) => {
                self.used.push(key.as_str());
                Ok(Some((snake, value)))
            }
            (None, Some((key, value))) => {
                self.used.push(key.as_str());
                Ok(Some((camel, value)))
            }
            (None, None) => Ok(None),
        }
    }

    fn string(
        &mut self,
        snake: &'static str,
        camel: &'static str,
    ) -> Result<Option<String>, OutputError> {
        match self.get(snake, camel)? {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s.clone())),
            Some((name, _)) => Err(OutputError::WrongType {
                field: self.path(name),
                expected: "a string",
            }),
        }
    }

    fn boolean(
        &mut self,
        snake: &'static str,
        camel: &'static str,
    ) -> Result<Option<bool>, OutputError> {
        match self.get(snake, camel)? {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::Bool(b))) => Ok(Some(*b)),
            Some((name, _)) => Err(OutputError::WrongType {
                field: self.path(name),
                expected: "a boolean",
            }),
        }
    }

    fn object(
        &mut self,
        snake: &'static str,
        camel: &'static str,
    ) -> Result<Option<&'a Map<String, Value>>, OutputError> {
        match self.get(snake, camel)? {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::Object(m))) => Ok(Some(m)),
            Some((name, _)) => Err(OutputError::WrongType {
                field: self.path(name),
                expected: "an object",
            }),
        }
    }

    /// Keys that no getter asked for.
    fn unknown(&self) -> impl Iterator<Item = String> + '_ {
        self.map
            .keys()
            .filter(|key| !self.used.contains(&key.as_str()))
            .map(|key| format!("{}{key}", self.prefix))
    }
}

fn response_from_object(
    contract: &Contract,
    map: &Map<String, Value>,
    strict: bool,
) -> Result<HookResponse, OutputError> {
    if map.get("decision").is_some_and(Value::is_object) || map.contains_key("patches") {
        return meerkat_response(contract, map, strict);
    }
    let mut out = HookResponse::default();
    let mut top = Fields::new(map, "");

    if let Some(false) = top.boolean("continue", "continue")? {
        let reason = top.string("stop_reason", "stopReason")?.unwrap_or_default();
        out.stop = Some(reason);
    } else {
        // Read (and validate) stop_reason even when it is unused, so it is not "unknown".
        top.string("stop_reason", "stopReason")?;
    }
    if top.boolean("suppress_output", "suppressOutput")?.is_some() && strict {
        return Err(OutputError::SuppressOutput);
    }
    out.system_message = top.string("system_message", "systemMessage")?;
    let reason = top.string("reason", "reason")?;
    if let Some(word) = top.string("decision", "decision")? {
        out.decision = Some(top_level_decision(&word)?);
        out.reason.clone_from(&reason);
    }
    if out.reason.is_none() {
        out.reason = reason;
    }

    if let Some(hso) = top.object("hook_specific_output", "hookSpecificOutput")? {
        read_specific(contract, hso, strict, &mut out)?;
    }

    let unknown: Vec<String> = top.unknown().collect();
    if strict {
        if let Some(first) = unknown.into_iter().next() {
            return Err(OutputError::UnknownField(first));
        }
    } else {
        out.notes.extend(
            unknown
                .into_iter()
                .map(|k| format!("ignored unknown field `{k}`")),
        );
    }
    if out.stop.is_some() && out.decision.is_none() {
        out.decision = Some(Decision::Deny);
        if out.reason.is_none() {
            out.reason.clone_from(&out.stop);
        }
    }
    Ok(out)
}

fn read_specific(
    contract: &Contract,
    hso: &Map<String, Value>,
    strict: bool,
    out: &mut HookResponse,
) -> Result<(), OutputError> {
    let event = contract.event.name();
    let mut f = Fields::new(hso, "hook_specific_output.");
    if let Some(name) = f.string("hook_event_name", "hookEventName")?
        && strict
        && resolve_event(&name) != Some(contract.event)
    {
        return Err(OutputError::EventMismatch {
            found: name,
            expected: event,
        });
    }

    // Each output is read (so its type is checked) and then kept only where the contract uses it.
    let mut unsupported: Vec<&'static str> = Vec::new();
    let mut keep = |field: &'static str, supported: bool| -> Result<bool, OutputError> {
        if supported {
            return Ok(true);
        }
        if strict {
            return Err(OutputError::Unsupported { field, event });
        }
        unsupported.push(field);
        Ok(false)
    };

    if let Some(word) = f.string("permission_decision", "permissionDecision")? {
        let decision = permission_word(&word)?;
        if keep("permission_decision", contract.permission)? {
            out.decision = max_decision(out.decision, decision);
        }
    }
    if let Some(reason) = f.string("permission_decision_reason", "permissionDecisionReason")?
        && keep("permission_decision_reason", contract.permission)?
    {
        out.reason = Some(reason);
    }
    // Claude Code's PermissionRequest reply: {"decision":{"behavior":"allow|deny",…}}.
    if let Some(claude) = f.object("decision", "decision")?
        && keep("decision", contract.permission)?
    {
        read_claude_permission(claude, out)?;
    }
    if let Some(patch) = f.object("updated_input", "updatedInput")?
        && keep("updated_input", contract.rewrite == Rewrite::ToolInput)?
    {
        out.updated_input = Some(patch.clone());
    }
    if let Some(text) = f.string("additional_context", "additionalContext")?
        && keep("additional_context", contract.context.consumed())?
    {
        out.additional_context = Some(text);
    }
    let response = match f.get("updated_tool_response", "updatedToolResponse")? {
        Some(found) => Some(found),
        None => f.get("updated_tool_output", "updatedToolOutput")?,
    };
    if let Some((_, value)) = response
        && !value.is_null()
        && keep(
            "updated_tool_response",
            contract.rewrite == Rewrite::ToolResponse,
        )?
    {
        out.updated_tool_response = Some(value.clone());
    }
    if let Some(prompt) = f.string("updated_prompt", "updatedPrompt")?
        && keep("updated_prompt", contract.rewrite == Rewrite::Prompt)?
    {
        out.updated_prompt = Some(prompt);
    }
    if let Some(summary) = f.string("summary", "summary")?
        && keep("summary", contract.rewrite == Rewrite::Summary)?
        && !summary.is_empty()
    {
        out.summary = Some(summary);
    }
    if let Some((name, value)) = f.get("updated_messages", "updatedMessages")? {
        if !value.is_array() {
            return Err(OutputError::WrongType {
                field: format!("hook_specific_output.{name}"),
                expected: "an array",
            });
        }
        if keep("updated_messages", contract.rewrite == Rewrite::Messages)? {
            out.updated_messages = Some(value.clone());
        }
    }
    if let Some(meta) = f.object("metadata", "metadata")? {
        let mut parsed = BTreeMap::new();
        for (key, value) in meta {
            let Value::String(text) = value else {
                return Err(OutputError::WrongType {
                    field: format!("hook_specific_output.metadata.{key}"),
                    expected: "a string",
                });
            };
            parsed.insert(key.clone(), text.clone());
        }
        if keep("metadata", contract.metadata)? {
            out.metadata = parsed;
        }
    }

    let unknown: Vec<String> = f.unknown().collect();
    if strict {
        if let Some(first) = unknown.into_iter().next() {
            return Err(OutputError::UnknownField(first));
        }
    } else {
        out.notes.extend(
            unknown
                .into_iter()
                .map(|k| format!("ignored unknown field `{k}`")),
        );
    }
    out.notes.extend(
        unsupported
            .into_iter()
            .map(|field| format!("ignored `{field}`: not used by `{event}`")),
    );
    Ok(())
}

fn read_claude_permission(
    map: &Map<String, Value>,
    out: &mut HookResponse,
) -> Result<(), OutputError> {
    let mut f = Fields::new(map, "hook_specific_output.decision.");
    if let Some(word) = f.string("behavior", "behavior")? {
        let decision = match word.as_str() {
            "allow" => Decision::Allow,
            "deny" => Decision::Deny,
            "ask" => Decision::Ask,
            _ => {
                return Err(OutputError::UnknownDecision {
                    field: "hook_specific_output.decision.behavior".to_owned(),
                    word,
                });
            }
        };
        out.decision = max_decision(out.decision, Some(decision));
    }
    if let Some(message) = f.string("message", "message")? {
        out.reason = Some(message);
    }
    if let Some(patch) = f.object("updated_input", "updatedInput")? {
        out.updated_input = Some(patch.clone());
    }
    // `updatedPermissions` and `interrupt` only mean something to Claude Code itself.
    f.get("updated_permissions", "updatedPermissions")?;
    f.boolean("interrupt", "interrupt")?;
    Ok(())
}

fn max_decision(a: Option<Decision>, b: Option<Decision>) -> Option<Decision> {
    a.max(b)
}

/// The top-level `decision` word: docker-agent's `block`, Claude's legacy `approve`/`block`,
/// Gemini's `allow`/`deny`/`ask`.
fn top_level_decision(word: &str) -> Result<Decision, OutputError> {
    match word {
        "block" | "deny" => Ok(Decision::Deny),
        "ask" => Ok(Decision::Ask),
        "approve" | "allow" => Ok(Decision::Allow),
        _ => Err(OutputError::UnknownDecision {
            field: "decision".to_owned(),
            word: word.to_owned(),
        }),
    }
}

/// `permission_decision`: `allow`, `ask`, `deny`; Claude's `defer` is "no opinion".
fn permission_word(word: &str) -> Result<Option<Decision>, OutputError> {
    match word {
        "allow" => Ok(Some(Decision::Allow)),
        "ask" => Ok(Some(Decision::Ask)),
        "deny" => Ok(Some(Decision::Deny)),
        "defer" | "" => Ok(None),
        _ => Err(OutputError::UnknownDecision {
            field: "hook_specific_output.permission_decision".to_owned(),
            word: word.to_owned(),
        }),
    }
}

/// Meerkat's `RuntimeHookResponse`: `{"decision": HookDecision?, "patches": [HookPatch]?}`,
/// closed to unknown fields as Meerkat's own type is.
fn meerkat_response(
    contract: &Contract,
    map: &Map<String, Value>,
    strict: bool,
) -> Result<HookResponse, OutputError> {
    let mut out = HookResponse::default();
    let mut top = Fields::new(map, "");
    match top.get("patches", "patches")? {
        None | Some((_, Value::Null)) => {}
        Some((_, Value::Array(patches))) => {
            for (n, patch) in patches.iter().enumerate() {
                meerkat_patch(contract, n, patch, strict, &mut out)?;
            }
        }
        Some(_) => {
            return Err(OutputError::WrongType {
                field: "patches".to_owned(),
                expected: "an array of patches",
            });
        }
    }
    if let Some(decision) = top.object("decision", "decision")? {
        let mut d = Fields::new(decision, "decision.");
        let word = d
            .string("decision", "decision")?
            .ok_or_else(|| OutputError::WrongType {
                field: "decision.decision".to_owned(),
                expected: "`allow` or `deny`",
            })?;
        match word.as_str() {
            "allow" => out.decision = Some(Decision::Allow),
            "deny" => {
                out.decision = Some(Decision::Deny);
                out.claimed_hook_id = d.string("hook_id", "hook_id")?;
                let code = d.string("reason_code", "reason_code")?;
                if let Some(code) = &code
                    && !matches!(
                        code.as_str(),
                        "policy_violation"
                            | "safety_violation"
                            | "schema_violation"
                            | "timeout"
                            | "runtime_error"
                    )
                {
                    return Err(OutputError::UnknownDecision {
                        field: "decision.reason_code".to_owned(),
                        word: code.clone(),
                    });
                }
                out.reason_code = code;
                out.reason = d.string("message", "message")?;
                if let Some((_, payload)) = d.get("payload", "payload")?
                    && !payload.is_null()
                {
                    out.payload = Some(payload.clone());
                }
            }
            _ => {
                return Err(OutputError::UnknownDecision {
                    field: "decision.decision".to_owned(),
                    word,
                });
            }
        }
        if let Some(first) = d.unknown().next() {
            return Err(OutputError::UnknownField(first));
        }
    }
    if let Some(first) = top.unknown().next() {
        return Err(OutputError::UnknownField(first));
    }
    Ok(out)
}

/// One of Meerkat's typed patches (`{"patch_type": …}`), applied where the event's contract
/// takes that rewrite: `tool_args` → `updated_input` (a shallow merge, like every input patch,
/// so a patch cannot drop keys it did not name), `tool_result` → `updated_tool_response`.
/// `llm_request`, `assistant_text` and `run_result` rewrite what no hookgate event lets a hook
/// rewrite (sampling parameters, the model's reply, the final answer); they are read, checked
/// and dropped with a note (a failure under `strict_output`). Whether the hook may rewrite at
/// all is its capability's business, decided by the aggregator.
fn meerkat_patch(
    contract: &Contract,
    n: usize,
    patch: &Value,
    strict: bool,
    out: &mut HookResponse,
) -> Result<(), OutputError> {
    let Value::Object(map) = patch else {
        return Err(OutputError::WrongType {
            field: format!("patches[{n}]"),
            expected: "an object with `patch_type`",
        });
    };
    let mut f = Fields::new(map, "patches[].");
    // A field of the patch that is missing where required, or of the wrong type.
    let wrong = |field: &str, expected: &'static str| OutputError::WrongType {
        field: format!("patches[{n}].{field}"),
        expected,
    };
    let kind = f
        .string("patch_type", "patch_type")?
        .ok_or_else(|| wrong("patch_type", "a string"))?;
    let event = contract.event.name();
    let mut unsupported = |field: &'static str| -> Result<(), OutputError> {
        if strict {
            return Err(OutputError::Unsupported { field, event });
        }
        out.notes.push(format!(
            "ignored Meerkat patch `{field}`: `{event}` does not take it"
        ));
        Ok(())
    };
    match kind.as_str() {
        "tool_args" => {
            let args = f
                .object("args", "args")?
                .ok_or_else(|| wrong("args", "an object"))?;
            if contract.rewrite == Rewrite::ToolInput {
                let merged = out.updated_input.get_or_insert_with(Map::new);
                merged.extend(args.iter().map(|(k, v)| (k.clone(), v.clone())));
            } else {
                unsupported("tool_args")?;
            }
        }
        "tool_result" => {
            let content = f
                .string("content", "content")?
                .ok_or_else(|| wrong("content", "a string"))?;
            let is_error = f.boolean("is_error", "is_error")?;
            if contract.rewrite == Rewrite::ToolResponse {
                out.updated_tool_response = Some(Value::String(content));
                if is_error.is_some() {
                    out.notes.push(
                        "ignored `is_error` of a tool_result patch: a hook rewrites the text, not whether the tool failed".to_owned(),
                    );
                }
            } else {
                unsupported("tool_result")?;
            }
        }
        "llm_request" => {
            if let Some((_, v)) = f.get("max_tokens", "max_tokens")?
                && !(v.is_u64() || v.is_null())
            {
                return Err(wrong("max_tokens", "a non-negative integer"));
            }
            if let Some((_, v)) = f.get("temperature", "temperature")?
                && !(v.is_number() || v.is_null())
            {
                return Err(wrong("temperature", "a number"));
            }
            f.get("provider_params", "provider_params")?;
            unsupported("llm_request")?;
        }
        "assistant_text" | "run_result" => {
            f.string("text", "text")?
                .ok_or_else(|| wrong("text", "a string"))?;
            unsupported(if kind == "assistant_text" {
                "assistant_text"
            } else {
                "run_result"
            })?;
        }
        _ => return Err(OutputError::UnknownPatch(kind)),
    }
    if let Some(first) = f.unknown().next() {
        return Err(OutputError::UnknownField(first));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::catalog::EventId;

    fn parse(event: EventId, text: &str, strict: bool) -> Result<ParsedOutput, OutputError> {
        parse_output(event.contract(), text.as_bytes(), strict)
    }

    fn json(event: EventId, text: &str) -> HookResponse {
        match parse(event, text, false) {
            Ok(ParsedOutput::Json(r)) => *r,
            other => panic!("expected JSON, got {other:?}"),
        }
    }

    #[test]
    fn empty_and_empty_object_mean_do_nothing() {
        assert_eq!(
            parse(EventId::PreToolUse, "  \n", true).unwrap(),
            ParsedOutput::Empty
        );
        assert_eq!(json(EventId::PreToolUse, "{}"), HookResponse::default());
    }

    #[test]
    fn plain_text_is_plain_unless_strict() {
        assert_eq!(
            parse(EventId::Stop, "hello\n", false).unwrap(),
            ParsedOutput::Plain("hello".into())
        );
        assert_eq!(
            parse(EventId::Stop, "hello", true),
            Err(OutputError::StrictNotObject("plain text"))
        );
        assert_eq!(
            parse(EventId::Stop, "[]", true),
            Err(OutputError::StrictNotObject("an array"))
        );
        assert_eq!(
            parse(EventId::Stop, "null", true),
            Err(OutputError::StrictNotObject("null"))
        );
    }

    #[test]
    fn malformed_json_is_a_failure_not_plain_text() {
        assert!(matches!(
            parse(EventId::PreToolUse, "{\"decision\":", false),
            Err(OutputError::Malformed(_))
        ));
    }

    #[test]
    fn more_than_one_json_value_is_a_failure() {
        assert!(matches!(
            parse(EventId::PreToolUse, "{} {}", false),
            Err(OutputError::NotSingleObject(_))
        ));
        assert!(matches!(
            parse(EventId::PreToolUse, "{} done", false),
            Err(OutputError::NotSingleObject(_))
        ));
    }

    #[test]
    fn snake_case_permission_output_is_read() {
        let r = json(
            EventId::PreToolUse,
            r#"{"hook_specific_output":{"hook_event_name":"pre_tool_use","permission_decision":"deny","permission_decision_reason":"no","updated_input":{"cmd":"ls"}}}"#,
        );
        assert_eq!(r.decision, Some(Decision::Deny));
        assert_eq!(r.reason.as_deref(), Some("no"));
        assert_eq!(r.updated_input.unwrap()["cmd"], "ls");
    }

    #[test]
    fn claude_camel_case_outputs_are_accepted_unchanged() {
        let r = json(
            EventId::PreToolUse,
            r#"{"systemMessage":"careful","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"why","updatedInput":{"command":"ls -l"}}}"#,
        );
        assert_eq!(r.decision, Some(Decision::Ask));
        assert_eq!(r.reason.as_deref(), Some("why"));
        assert_eq!(r.system_message.as_deref(), Some("careful"));
        assert_eq!(r.updated_input.unwrap()["command"], "ls -l");

        let r = json(
            EventId::SessionStart,
            r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#,
        );
        assert_eq!(r.additional_context.as_deref(), Some("ctx"));

        let r = json(
            EventId::UserPromptSubmit,
            r#"{"continue":false,"stopReason":"halt"}"#,
        );
        assert_eq!(r.stop.as_deref(), Some("halt"));
        assert_eq!(r.decision, Some(Decision::Deny));
    }

    #[test]
    fn claude_camel_case_passes_strict_mode() {
        let out = parse(
            EventId::PreToolUse,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
            true,
        );
        assert!(out.is_ok(), "{out:?}");
    }

    #[test]
    fn both_spellings_of_one_field_are_rejected() {
        assert_eq!(
            parse(
                EventId::Stop,
                r#"{"system_message":"a","systemMessage":"b"}"#,
                false
            ),
            Err(OutputError::BothSpellings(
                "system_message",
                "systemMessage"
            ))
        );
    }

    #[test]
    fn unknown_decision_words_are_failures() {
        assert!(matches!(
            parse(EventId::PreToolUse, r#"{"decision":"blok"}"#, false),
            Err(OutputError::UnknownDecision { .. })
        ));
        assert!(matches!(
            parse(
                EventId::PreToolUse,
                r#"{"hook_specific_output":{"permission_decision":"alow"}}"#,
                false
            ),
            Err(OutputError::UnknownDecision { .. })
        ));
    }

    #[test]
    fn wrong_types_are_failures() {
        assert!(matches!(
            parse(EventId::Stop, r#"{"continue":"no"}"#, false),
            Err(OutputError::WrongType { .. })
        ));
        assert!(matches!(
            parse(
                EventId::PreToolUse,
                r#"{"hook_specific_output":{"updated_input":"ls"}}"#,
                false
            ),
            Err(OutputError::WrongType { .. })
        ));
    }

    #[test]
    fn strict_output_rejects_unknown_fields_at_any_depth() {
        assert_eq!(
            parse(EventId::Stop, r#"{"sneaky":1}"#, true),
            Err(OutputError::UnknownField("sneaky".into()))
        );
        assert_eq!(
            parse(
                EventId::Stop,
                r#"{"hook_specific_output":{"sneaky":1}}"#,
                true
            ),
            Err(OutputError::UnknownField(
                "hook_specific_output.sneaky".into()
            ))
        );
    }

    #[test]
    fn lenient_mode_records_unknown_fields_as_notes() {
        let r = json(EventId::Stop, r#"{"sneaky":1}"#);
        assert_eq!(r.notes, vec!["ignored unknown field `sneaky`".to_owned()]);
    }

    #[test]
    fn strict_output_rejects_outputs_the_event_cannot_use() {
        assert_eq!(
            parse(
                EventId::ToolGuard,
                r#"{"hook_specific_output":{"updated_input":{"a":1}}}"#,
                true
            ),
            Err(OutputError::Unsupported {
                field: "updated_input",
                event: "tool_guard"
            })
        );
        assert_eq!(
            parse(
                EventId::Stop,
                r#"{"hook_specific_output":{"permission_decision":"allow"}}"#,
                true
            ),
            Err(OutputError::Unsupported {
                field: "permission_decision",
                event: "stop"
            })
        );
        let r = json(
            EventId::ToolGuard,
            r#"{"hook_specific_output":{"updated_input":{"a":1}}}"#,
        );
        assert!(r.updated_input.is_none());
        assert_eq!(
            r.notes,
            vec!["ignored `updated_input`: not used by `tool_guard`".to_owned()]
        );
    }

    #[test]
    fn strict_output_checks_the_event_name() {
        assert!(matches!(
            parse(
                EventId::PreToolUse,
                r#"{"hook_specific_output":{"hook_event_name":"post_tool_use"}}"#,
                true
            ),
            Err(OutputError::EventMismatch { .. })
        ));
    }

    #[test]
    fn strict_output_rejects_suppress_output() {
        assert_eq!(
            parse(EventId::Stop, r#"{"suppress_output":true}"#, true),
            Err(OutputError::SuppressOutput)
        );
    }

    #[test]
    fn meerkat_deny_is_read_with_its_claimed_id_kept_aside() {
        let r = json(
            EventId::PreToolUse,
            r#"{"decision":{"decision":"deny","hook_id":"someone-else","reason_code":"policy_violation","message":"blocked","payload":{"k":1}}}"#,
        );
        assert_eq!(r.decision, Some(Decision::Deny));
        assert_eq!(r.reason.as_deref(), Some("blocked"));
        assert_eq!(r.reason_code.as_deref(), Some("policy_violation"));
        assert_eq!(r.claimed_hook_id.as_deref(), Some("someone-else"));
        assert_eq!(r.payload, Some(json!({"k": 1})));
        assert_eq!(
            json(EventId::PreToolUse, r#"{"decision":{"decision":"allow"}}"#).decision,
            Some(Decision::Allow)
        );
    }

    #[test]
    fn meerkat_tool_args_patches_merge_into_the_input_where_the_event_takes_it() {
        let r = json(
            EventId::PreToolUse,
            r#"{"patches":[{"patch_type":"tool_args","args":{"cmd":"ls -l"}},
                           {"patch_type":"tool_args","args":{"timeout":5}}]}"#,
        );
        assert_eq!(
            Value::Object(r.updated_input.unwrap()),
            json!({"cmd": "ls -l", "timeout": 5})
        );
        let r = json(
            EventId::ToolResponseTransform,
            r#"{"patches":[{"patch_type":"tool_result","content":"[redacted]","is_error":false}]}"#,
        );
        assert_eq!(r.updated_tool_response, Some(json!("[redacted]")));
        assert!(parse(EventId::PreToolUse, r#"{"patches":[]}"#, false).is_ok());
    }

    #[test]
    fn meerkat_patches_an_event_cannot_take_are_dropped_or_fail_under_strict() {
        for (event, patch) in [
            (
                EventId::PostToolUse,
                r#"{"patch_type":"tool_result","content":"x"}"#,
            ),
            (
                EventId::PostToolUse,
                r#"{"patch_type":"tool_args","args":{}}"#,
            ),
            (
                EventId::AfterLlmCall,
                r#"{"patch_type":"assistant_text","text":"x"}"#,
            ),
            (
                EventId::BeforeLlmCall,
                r#"{"patch_type":"llm_request","max_tokens":5}"#,
            ),
            (EventId::Stop, r#"{"patch_type":"run_result","text":"x"}"#),
        ] {
            let text = format!(r#"{{"patches":[{patch}]}}"#);
            let r = json(event, &text);
            assert!(
                r.updated_input.is_none() && r.updated_tool_response.is_none(),
                "{event} {patch}"
            );
            assert!(r.notes[0].contains("does not take it"), "{:?}", r.notes);
            assert!(
                matches!(
                    parse(event, &text, true),
                    Err(OutputError::Unsupported { .. })
                ),
                "{event} {patch}"
            );
        }
    }

    #[test]
    fn malformed_meerkat_patches_are_failures() {
        for bad in [
            r#"{"patches":[{"tool_args":{}}]}"#,
            r#"{"patches":[{"patch_type":"shell_command","cmd":"x"}]}"#,
            r#"{"patches":[{"patch_type":"tool_args","args":"rm -rf /"}]}"#,
            r#"{"patches":[{"patch_type":"tool_args","args":{},"extra":1}]}"#,
            r#"{"patches":{"patch_type":"tool_args","args":{}}}"#,
            r#"{"patches":["tool_args"]}"#,
        ] {
            assert!(parse(EventId::PreToolUse, bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn meerkat_unknown_fields_are_rejected_even_without_strict() {
        assert!(matches!(
            parse(
                EventId::PreToolUse,
                r#"{"decision":{"decision":"deny","hook_id":"x","reason_code":"policy_violation","message":"m","extra":1}}"#,
                false
            ),
            Err(OutputError::UnknownField(_))
        ));
    }

    #[test]
    fn claude_permission_request_behavior_is_read() {
        let r = json(
            EventId::PermissionRequest,
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"nope"}}}"#,
        );
        assert_eq!(r.decision, Some(Decision::Deny));
        assert_eq!(r.reason.as_deref(), Some("nope"));
    }

    #[test]
    fn block_and_allow_in_one_output_resolve_to_the_stricter() {
        let r = json(
            EventId::PreToolUse,
            r#"{"decision":"block","reason":"r","hook_specific_output":{"permission_decision":"allow"}}"#,
        );
        assert_eq!(r.decision, Some(Decision::Deny));
    }

    #[test]
    fn metadata_values_must_be_strings() {
        assert!(matches!(
            parse(
                EventId::PermissionRequest,
                r#"{"hook_specific_output":{"metadata":{"risk":1}}}"#,
                false
            ),
            Err(OutputError::WrongType { .. })
        ));
    }
}
