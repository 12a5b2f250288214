//! Meerkat's wire shape: what a hook configured in Meerkat's shape (a `[[hooks.entries]]` item
//! naming its `point`) receives on stdin or as the HTTP body.
//!
//! Meerkat hooks are written against Meerkat's `HookInvocation`, not docker-agent's flat input:
//! `{"point", "session_id", "turn_number", "tool_call": {"tool_use_id", "name", "args"},
//! "tool_result": {...}, "llm_request": {...}, "llm_response": {...}, "prompt", "error"}`, absent
//! optionals omitted. Sending them docker-agent's shape would leave every field they read
//! missing, so a Meerkat guard would see no tool call and let it through.
//!
//! Invariant: the projection is a pure function of the canonical input; nothing is invented
//! (a field the input lacks is omitted, never defaulted to a plausible value).

use serde_json::{Map, Value, json};

use crate::catalog::EventId;
use crate::input::HookInput;

/// The Meerkat point an event is delivered as when the entry named none of Meerkat's own.
pub fn point_of(event: EventId) -> &'static str {
    match event {
        EventId::UserPromptSubmit => "run_started",
        EventId::BeforeLlmCall => "pre_llm_request",
        EventId::PreToolUse => "pre_tool_execution",
        EventId::AfterLlmCall => "post_llm_response",
        EventId::PostToolUse => "post_tool_execution",
        EventId::Stop => "run_completed",
        EventId::OnError => "run_failed",
        other => other.name(),
    }
}

/// The text projection of a tool result (Meerkat's `tool_result.content`).
fn content_text(response: &Value) -> String {
    match response {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Builds the `HookInvocation` JSON for `point` from the canonical input.
pub fn invocation(point: &str, input: &HookInput) -> Value {
    let mut out = Map::new();
    out.insert("point".into(), Value::String(point.to_owned()));
    out.insert("session_id".into(), Value::String(input.session_id.clone()));
    let turn = input
        .extra
        .get("turn_number")
        .and_then(Value::as_u64)
        .or(input.iteration);
    if let Some(turn) = turn {
        out.insert("turn_number".into(), Value::from(turn));
    }
    let tool_use_id = input.tool_use_id.clone();
    if let Some(name) = &input.tool_name {
        if let Some(response) = &input.tool_response {
            let content = content_text(response);
            out.insert(
                "tool_result".into(),
                json!({
                    "tool_use_id": tool_use_id,
                    "name": name,
                    "content": content,
                    "content_blocks": [{"type": "text", "text": content}],
                    "is_error": input.tool_error.unwrap_or(false),
                }),
            );
        } else {
            out.insert(
                "tool_call".into(),
                json!({
                    "tool_use_id": tool_use_id,
                    "name": name,
                    "args": input.tool_input.clone().unwrap_or_default(),
                }),
            );
        }
    }
    if point == "pre_llm_request" || point == "turn_boundary" {
        let count = input
            .messages
            .as_ref()
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        out.insert("llm_request".into(), json!({"message_count": count}));
    }
    if point == "post_llm_response"
        && let Some(text) = &input.stop_response
    {
        // Meerkat's HookLlmResponse: `tool_call_names` is always present there (empty when
        // the model called nothing); `stop_reason` and `usage` only when known.
        let mut response = Map::new();
        response.insert("assistant_text".into(), Value::String(text.clone()));
        let names = input
            .extra
            .get("tool_call_names")
            .filter(|v| v.is_array())
            .cloned()
            .unwrap_or_else(|| Value::Array(Vec::new()));
        response.insert("tool_call_names".into(), names);
        if let Some(reason) = input.extra.get("stop_reason").filter(|v| v.is_string()) {
            response.insert("stop_reason".into(), reason.clone());
        }
        if let Some(usage) = input.usage.as_ref().filter(|v| v.is_object()) {
            response.insert("usage".into(), usage.clone());
        }
        out.insert("llm_response".into(), Value::Object(response));
    }
    if let Some(prompt) = &input.prompt {
        out.insert(
            "prompt_input".into(),
            json!({"kind": "content", "content": prompt}),
        );
        out.insert("prompt".into(), Value::String(prompt.clone()));
    }
    if point == "run_failed"
        && let Some(message) = input
            .notification_message
            .as_ref()
            .or(input.reason.as_ref())
    {
        out.insert("error".into(), Value::String(message.clone()));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(value: Value) -> HookInput {
        HookInput::from_value(value).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_pre_tool_call_is_a_tool_call_with_args() {
        let v = invocation(
            "pre_tool_execution",
            &input(json!({"session_id": "s", "cwd": "/", "tool_name": "shell",
                          "tool_use_id": "t1", "tool_input": {"command": "ls"}, "iteration": 3})),
        );
        assert_eq!(
            v,
            json!({"point": "pre_tool_execution", "session_id": "s", "turn_number": 3,
                   "tool_call": {"tool_use_id": "t1", "name": "shell", "args": {"command": "ls"}}})
        );
    }

    #[test]
    fn a_post_tool_call_is_a_tool_result_with_its_text() {
        let v = invocation(
            "post_tool_execution",
            &input(
                json!({"session_id": "s", "tool_name": "shell", "tool_use_id": "t1",
                          "tool_input": {"command": "ls"}, "tool_response": "a\nb", "tool_error": false}),
            ),
        );
        assert_eq!(v["tool_result"]["content"], "a\nb");
        assert_eq!(v["tool_result"]["is_error"], false);
        assert!(v.get("tool_call").is_none());
        assert!(v.get("turn_number").is_none(), "nothing invented: {v}");
    }

    #[test]
    fn run_started_carries_the_prompt_and_llm_requests_their_size() {
        let v = invocation(
            "run_started",
            &input(json!({"session_id": "s", "prompt": "hi"})),
        );
        assert_eq!(v["prompt"], "hi");
        assert_eq!(
            v["prompt_input"],
            json!({"kind": "content", "content": "hi"})
        );
        let v = invocation(
            "pre_llm_request",
            &input(
                json!({"session_id": "s", "messages": [{"role": "user"}, {"role": "assistant"}]}),
            ),
        );
        assert_eq!(v["llm_request"], json!({"message_count": 2}));
    }

    #[test]
    fn a_post_llm_response_carries_the_calls_usage_and_stop_reason() {
        let v = invocation(
            "post_llm_response",
            &input(
                json!({"session_id": "s", "stop_response": "", "turn_number": 2,
                          "tool_call_names": ["shell", "read_file"], "stop_reason": "tool_use",
                          "usage": {"input_tokens": 5, "output_tokens": 1}}),
            ),
        );
        assert_eq!(v["turn_number"], 2);
        assert_eq!(
            v["llm_response"],
            json!({"assistant_text": "", "tool_call_names": ["shell", "read_file"],
                   "stop_reason": "tool_use", "usage": {"input_tokens": 5, "output_tokens": 1}})
        );
        let bare = invocation(
            "post_llm_response",
            &input(json!({"session_id": "s", "stop_response": "hi"})),
        );
        assert_eq!(
            bare["llm_response"],
            json!({"assistant_text": "hi", "tool_call_names": []}),
            "nothing invented"
        );
    }
}
