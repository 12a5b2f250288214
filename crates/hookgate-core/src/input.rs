//! The hook input: the JSON every hook receives on stdin (or as an HTTP body).
//!
//! Field names are exactly docker-agent's, all snake_case. Absent optionals are omitted so the
//! wire stays byte-stable. Fields an agent adds that we do not model are kept in `extra` and
//! passed through untouched: agents grow fields faster than we do, and dropping one would hide
//! data a hook may rely on.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::catalog::EventId;

macro_rules! input_struct {
    ($( $(#[$meta:meta])* $field:ident : $ty:ty ),* $(,)?) => {
        /// One event's input.
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        pub struct HookInput {
            /// The current session's id.
            #[serde(default)]
            pub session_id: String,
            /// The runtime's working directory.
            #[serde(default)]
            pub cwd: String,
            /// The event name; the engine always sets the native name before dispatch.
            #[serde(default)]
            pub hook_event_name: String,
            $(
                $(#[$meta])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
            /// Fields hookgate does not model, passed through unchanged.
            #[serde(flatten)]
            pub extra: Map<String, Value>,
        }

        impl HookInput {
            /// Names of every modelled field, for documentation and `hookgate events`.
            pub const FIELDS: &'static [&'static str] =
                &["session_id", "cwd", "hook_event_name", $(stringify!($field)),*];
        }
    };
}

input_struct! {
    /// The agent that issued the call (follows the active sub-agent).
    agent_name: String,
    /// `<provider>/<model>` of the model call.
    model_id: String,
    /// 1-based run-loop iteration (before_llm_call).
    iteration: u64,
    /// The latest user message at dispatch time.
    last_user_message: String,
    /// The tool's category (`filesystem`, `shell`, `mcp`, …).
    tool_category: String,
    /// The tool's name; matchers apply to it.
    tool_name: String,
    /// The tool call's id.
    tool_use_id: String,
    /// The tool's arguments; always a JSON object when present.
    tool_input: Map<String, Value>,
    /// The session's safety policy label.
    safety_policy: String,
    /// The tool's result.
    tool_response: Value,
    /// True when the tool failed.
    tool_error: bool,
    /// The outgoing model messages (before_llm_call).
    messages: Value,
    /// Why the session started or compaction triggered.
    source: String,
    /// Why the session or turn ended.
    reason: String,
    /// The model's final text.
    stop_response: String,
    /// The user's prompt.
    prompt: String,
    /// Drained steering messages, in submission order.
    steering_messages: Vec<String>,
    /// The parent's session id (subagent_stop).
    parent_session_id: String,
    /// `error` or `warning`.
    notification_level: String,
    /// The notification's text.
    notification_message: String,
    /// The agent control moves away from.
    from_agent: String,
    /// The agent control moves to.
    to_agent: String,
    /// `transfer_task`, `transfer_task_return`, `handoff` or `force_handoff`.
    agent_switch_kind: String,
    /// The departing agent's model endpoints.
    from_agent_models: Value,
    /// The iteration cap that was reached.
    previous_max_iterations: u64,
    /// The new cap after approval.
    new_max_iterations: u64,
    /// `allow`, `deny` or `canceled`.
    approval_decision: String,
    /// Which approval step decided.
    approval_source: String,
    /// `safe`, `destructive` or `unknown`.
    safety_label: String,
    /// Wall time of the tool call in milliseconds (post_tool_use; the Go SDK's duration).
    duration_ms: f64,
    /// Turns the session ran (session_end; the Go SDK's session summary).
    turns: u64,
    /// Token usage of one model call.
    usage: Value,
    /// USD price of one model call, or of the whole session on session_end; absent or `null`
    /// means unpriced (`hookgate run` sends an explicit `null` when it cannot know).
    cost: f64,
    /// Input tokens at compaction.
    input_tokens: u64,
    /// Output tokens at compaction.
    output_tokens: u64,
    /// The model's context limit; 0 means unknown.
    context_limit: u64,
    /// `threshold`, `overflow` or `manual`.
    compaction_reason: String,
    /// The applied compaction summary.
    summary: String,
    /// The new worktree's path.
    worktree_path: String,
    /// The new worktree's branch.
    worktree_branch: String,
    /// The repository the worktree was branched from.
    worktree_source_dir: String,
}

/// Why a JSON text is not a usable hook input.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Not JSON at all.
    #[error("input is not valid JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// JSON, but not an object.
    #[error("input must be a JSON object, got {0}")]
    NotAnObject(&'static str),
    /// `tool_input` is present but not an object.
    #[error("input field `tool_input` must be a JSON object")]
    ToolInputNotObject,
    /// A field has the wrong type.
    #[error("input field has the wrong type: {0}")]
    Field(#[source] serde_json::Error),
}

impl HookInput {
    /// A minimal input for `event`.
    pub fn for_event(event: EventId) -> Self {
        Self {
            hook_event_name: event.name().to_owned(),
            ..Self::default()
        }
    }

    /// Parses one input object, naming what was wrong when it is not one.
    ///
    /// `tool_input` must be an object: a string of JSON is rejected rather than guessed at,
    /// because a guard that cannot see the arguments cannot judge them.
    pub fn from_json(text: &[u8]) -> Result<Self, InputError> {
        let value: Value = serde_json::from_slice(text).map_err(InputError::Json)?;
        Self::from_value(value)
    }

    /// Like [`HookInput::from_json`], from an already parsed value.
    pub fn from_value(value: Value) -> Result<Self, InputError> {
        match &value {
            Value::Object(map) => {
                // serde's messages lose the field name under `flatten`, so the one field a
                // guard depends on most is checked by hand to give a clear message.
                if let Some(tool_input) = map.get("tool_input")
                    && !tool_input.is_object()
                    && !tool_input.is_null()
                {
                    return Err(InputError::ToolInputNotObject);
                }
                serde_json::from_value(value).map_err(InputError::Field)
            }
            Value::Null => Err(InputError::NotAnObject("null")),
            Value::Bool(_) => Err(InputError::NotAnObject("a boolean")),
            Value::Number(_) => Err(InputError::NotAnObject("a number")),
            Value::String(_) => Err(InputError::NotAnObject("a string")),
            Value::Array(_) => Err(InputError::NotAnObject("an array")),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn input_round_trips_with_unknown_fields_kept() {
        let raw = json!({
            "session_id": "s1", "cwd": "/w", "hook_event_name": "pre_tool_use",
            "tool_name": "shell", "tool_use_id": "c1", "tool_input": {"cmd": "ls"},
            "transcript_path": "/tmp/t.jsonl", "permission_mode": "default"
        });
        let input = HookInput::from_value(raw.clone()).unwrap();
        assert_eq!(input.tool_name.as_deref(), Some("shell"));
        assert_eq!(input.extra["transcript_path"], "/tmp/t.jsonl");
        assert_eq!(serde_json::to_value(&input).unwrap(), raw);
    }

    #[test]
    fn absent_optionals_are_omitted_from_the_wire() {
        let input = HookInput::for_event(EventId::TurnStart);
        assert_eq!(
            serde_json::to_value(&input).unwrap(),
            json!({"session_id": "", "cwd": "", "hook_event_name": "turn_start"})
        );
    }

    #[test]
    fn tool_input_given_as_a_string_is_rejected() {
        let err = HookInput::from_value(json!({"tool_input": "{\"cmd\":\"ls\"}"})).unwrap_err();
        assert!(err.to_string().contains("tool_input"), "{err}");
    }

    #[test]
    fn non_object_inputs_name_what_they_were() {
        assert_eq!(
            HookInput::from_json(b"[1]").unwrap_err().to_string(),
            "input must be a JSON object, got an array"
        );
    }

    #[test]
    fn seed_per_event_fields_are_all_modelled() {
        for contract in crate::CATALOG {
            for field in contract.fields {
                assert!(
                    HookInput::FIELDS.contains(field),
                    "{field} of {}",
                    contract.event
                );
            }
        }
    }
}
