//! What the runtime reports while it runs: the timeline (`hookgate run` prints it live on a
//! TTY, as JSON lines otherwise) and the final report.

use std::sync::Arc;

use hookgate_core::{Decision, EventId, HookId, Outcome};
use hookgate_llm::Usage;
use serde::Serialize;
use serde_json::{Map, Value};

/// A timeline listener (called synchronously, in order; keep it cheap).
pub type Observer = Arc<dyn Fn(&RunEvent) + Send + Sync>;

/// Receives every dispatch that ran hooks — the session id it belongs to and the outcome with
/// its per-hook trace — in order, synchronously (`hookgate run` writes the hook ledger).
pub type HookSink = Arc<dyn Fn(&str, &Outcome) + Send + Sync>;

/// The approval chain's verdict on one tool call (`approval_decision`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// The call runs.
    Allow,
    /// The call is rejected.
    Deny,
    /// The run was interrupted before the call was decided.
    Canceled,
}

impl ApprovalDecision {
    /// The wire word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Deny => "deny",
            Self::Canceled => "canceled",
        }
    }
}

/// Why a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunEnd {
    /// Every prompt was answered.
    Completed,
    /// Ctrl+C (SIGINT) or the embedder cancelled.
    Interrupted,
    /// A hook stopped the run.
    HookBlocked {
        /// The event whose hook blocked.
        event: EventId,
        /// Why.
        reason: String,
    },
    /// The loop detector ended the run.
    LoopDetected {
        /// What repeated.
        message: String,
    },
    /// The iteration cap was reached and nobody continued past it.
    MaxIterations {
        /// The cap.
        max_iterations: u64,
    },
    /// The model call failed.
    ModelError {
        /// The error.
        message: String,
    },
}

impl RunEnd {
    /// The short name used in `session_end` (`run_end`) and the timeline.
    pub const fn kind(&self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Interrupted => "interrupted",
            Self::HookBlocked { .. } => "hook_blocked",
            Self::LoopDetected { .. } => "loop_detected",
            Self::MaxIterations { .. } => "max_iterations",
            Self::ModelError { .. } => "model_error",
        }
    }
}

/// One timeline entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RunEvent {
    /// An event fired (with or without hooks).
    Event {
        /// The event.
        event: EventId,
        /// The agent it fired for.
        agent: String,
        /// The aggregated verdict.
        #[serde(skip_serializing_if = "Option::is_none")]
        decision: Option<Decision>,
        /// Why.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// Which hook decided.
        #[serde(skip_serializing_if = "Option::is_none")]
        decided_by: Option<HookId>,
        /// How many hooks matched.
        hooks: usize,
        /// Messages hooks addressed to the user.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        system_messages: Vec<String>,
        /// Context hooks added.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        additional_context: Vec<String>,
    },
    /// A model call is starting.
    ModelCall {
        /// The agent.
        agent: String,
        /// 1-based iteration.
        iteration: u64,
        /// The model's name.
        model: String,
    },
    /// A model call answered.
    ModelReply {
        /// The agent.
        agent: String,
        /// The reply text.
        text: String,
        /// Tool calls asked for.
        tool_calls: usize,
        /// Tokens used.
        usage: Usage,
    },
    /// The model asked for a tool.
    ToolCall {
        /// The agent.
        agent: String,
        /// The call id.
        id: String,
        /// The tool.
        name: String,
        /// Its input.
        input: Map<String, Value>,
    },
    /// The approval chain decided a tool call.
    Approval {
        /// The call id.
        id: String,
        /// The tool.
        name: String,
        /// The verdict.
        decision: ApprovalDecision,
        /// Which step decided (`approval_source`).
        source: String,
        /// Why.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// The hook whose verdict decided, when a hook did.
        #[serde(skip_serializing_if = "Option::is_none")]
        decided_by: Option<HookId>,
    },
    /// A tool call's result, as recorded.
    ToolResult {
        /// The call id.
        id: String,
        /// The tool.
        name: String,
        /// True when it failed or was rejected.
        is_error: bool,
        /// Size of the recorded result.
        bytes: usize,
        /// True when limit_large_tool_results cut it.
        truncated: bool,
    },
    /// A warning or error for the user (also fired as `notification`).
    Notice {
        /// `warning` or `error`.
        level: String,
        /// The text.
        message: String,
    },
    /// The run is over.
    Finished {
        /// Why.
        end: RunEnd,
        /// The last answer, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        final_text: Option<String>,
        /// The session.
        session_id: String,
        /// Tokens used over the session.
        usage: Usage,
    },
}

/// The result of [`crate::Runtime::run`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunReport {
    /// Why the run ended.
    pub end: RunEnd,
    /// The last answer, if any.
    pub final_text: Option<String>,
}
