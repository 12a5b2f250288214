//! The fixed lanes of a tool call: transforms, then guards, then the tool's own hooks.
//!
//! `tool_input_transform` (sequential rewrites) → `tool_guard` → `pre_tool_use`; if
//! `pre_tool_use` rewrote the input, `tool_guard` runs again on the rewritten input, because a
//! guard that only saw the original arguments has not judged what will actually run.

use hookgate_core::{Decision, EventId, HookId, HookInput, Outcome};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::Engine;

/// The combined result of the pre-tool lanes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCallOutcome {
    /// The strongest verdict across the lanes (`None`: no opinion).
    pub decision: Option<Decision>,
    /// Why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Which hook decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<HookId>,
    /// The tool input to execute (after every rewrite).
    pub tool_input: Option<Map<String, Value>>,
    /// Each lane's outcome, in the order run.
    pub lanes: Vec<Outcome>,
}

impl ToolCallOutcome {
    /// True when the call must not run.
    pub fn blocked(&self) -> bool {
        self.decision == Some(Decision::Deny)
    }
}

impl Engine {
    /// Runs the pre-tool lanes for one tool call.
    pub async fn dispatch_tool_call(&self, mut input: HookInput) -> ToolCallOutcome {
        let mut result = ToolCallOutcome {
            decision: None,
            reason: None,
            decided_by: None,
            tool_input: input.tool_input.clone(),
            lanes: Vec::new(),
        };
        let mut lanes = vec![
            EventId::ToolInputTransform,
            EventId::ToolGuard,
            EventId::PreToolUse,
        ];
        let mut next = 0;
        while next < lanes.len() {
            let event = lanes[next];
            next += 1;
            let outcome = if self.has_hooks(event) {
                self.dispatch(event, input.clone()).await
            } else {
                Outcome::empty(event)
            };
            if outcome.decision > result.decision {
                result.decision = outcome.decision;
                result.reason.clone_from(&outcome.reason);
                result.decided_by.clone_from(&outcome.decided_by);
            }
            if let Some(rewritten) = &outcome.updated_input {
                input.tool_input = Some(rewritten.clone());
                result.tool_input = Some(rewritten.clone());
                if event == EventId::PreToolUse && self.has_hooks(EventId::ToolGuard) {
                    lanes.push(EventId::ToolGuard);
                }
            }
            let blocked = outcome.blocked();
            result.lanes.push(outcome);
            if blocked {
                break;
            }
        }
        result
    }
}
