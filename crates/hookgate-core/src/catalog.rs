//! The event catalog: every event hookgate knows, each with exactly one contract row.
//!
//! The catalog is the union of the docker-agent events (26), the two tool-phase events added in
//! its later refactor (`tool_input_transform`, `tool_guard`), and every other vocabulary mapped
//! onto them through [`crate::alias`]. Validation (what a hook may output), dispatch strategy
//! (sequential or concurrent) and aggregation (what is merged) are all read from [`Contract`],
//! so adding an event means adding one row here, nothing else.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What an event lets hooks rewrite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rewrite {
    /// Nothing: outputs that try to rewrite are ignored (or rejected under `strict_output`).
    Nothing,
    /// `updated_input`: shallow-merged patches over the tool input.
    ToolInput,
    /// `updated_tool_response`: replaces the tool's result (`""` clears it).
    ToolResponse,
    /// `updated_messages`: replaces the outgoing model messages.
    Messages,
    /// `summary`: replaces the compaction summary (first non-empty wins).
    Summary,
    /// `updated_prompt`: replaces the user's prompt (the Go SDK's user_prompt_submit rewrite).
    Prompt,
}

/// Whether and how an event consumes `additional_context` and plain stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextUse {
    /// Context is not consumed; plain stdout is recorded in the trace only.
    None,
    /// Spliced into the conversation for this turn only, never persisted.
    Transient,
    /// Kept for the life of the session.
    Persisted,
    /// Appended to the compaction prompt.
    CompactionPrompt,
    /// Shown to the person running the CLI (there is no conversation yet).
    User,
}

impl ContextUse {
    /// True when the event consumes context at all.
    pub const fn consumed(self) -> bool {
        !matches!(self, Self::None)
    }
}

/// The contract of one event: the single source of truth for its semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Contract {
    /// The event this row describes.
    pub event: EventId,
    /// When the event fires.
    pub fires: &'static str,
    /// Matchers apply to the tool name.
    pub tool_matched: bool,
    /// A block/deny outcome is honoured. Elsewhere a block becomes a warning, never silence.
    pub can_block: bool,
    /// `permission_decision` (`allow` / `ask` / `deny`) is meaningful.
    pub permission: bool,
    /// A failing hook blocks, whatever `on_error` says.
    pub fail_closed: bool,
    /// What hooks may rewrite. Events that rewrite run their hooks sequentially.
    pub rewrite: Rewrite,
    /// Whether context is consumed, and for how long.
    pub context: ContextUse,
    /// `metadata` (a string map) is merged, last writer wins.
    pub metadata: bool,
    /// Event-specific input fields, beyond the common `session_id`, `cwd`, `hook_event_name`.
    pub fields: &'static [&'static str],
}

impl Contract {
    /// True when hooks of this event must run one after another, each seeing the previous
    /// rewrite, so that patches compose instead of racing.
    pub const fn sequential(&self) -> bool {
        !matches!(self.rewrite, Rewrite::Nothing)
    }
}

macro_rules! catalog {
    ($( $variant:ident => $name:literal {
        fires: $fires:literal,
        tool: $tool:literal, block: $block:literal, permission: $perm:literal,
        fail_closed: $fc:literal, rewrite: $rw:ident, context: $ctx:ident, metadata: $meta:literal,
        fields: [$($field:literal),* $(,)?] $(,)?
    } )*) => {
        /// Every event in the canonical catalog, by its native snake_case name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum EventId {
            $(
                #[doc = $fires]
                $variant,
            )*
        }

        impl EventId {
            /// Every event, in catalog order.
            pub const ALL: &'static [EventId] = &[$(EventId::$variant),*];

            /// The native snake_case name.
            pub const fn name(self) -> &'static str {
                match self {
                    $(EventId::$variant => $name,)*
                }
            }

            /// The event with this exact native name (aliases are resolved by
            /// [`crate::alias::resolve_event`]).
            pub fn from_native(name: &str) -> Option<Self> {
                match name {
                    $($name => Some(EventId::$variant),)*
                    _ => None,
                }
            }

            /// The contract row of this event.
            pub const fn contract(self) -> &'static Contract {
                &CATALOG[self as usize]
            }
        }

        /// The contract table, indexed by `EventId as usize`.
        pub static CATALOG: &[Contract] = &[$(
            Contract {
                event: EventId::$variant,
                fires: $fires,
                tool_matched: $tool,
                can_block: $block,
                permission: $perm,
                fail_closed: $fc,
                rewrite: Rewrite::$rw,
                context: ContextUse::$ctx,
                metadata: $meta,
                fields: &[$($field),*],
            },
        )*];
    };
}

catalog! {
    ToolInputTransform => "tool_input_transform" {
        fires: "Before a tool call's guards: sequential rewrites of the tool input (patches compose).",
        tool: true, block: true, permission: false, fail_closed: false,
        rewrite: ToolInput, context: None, metadata: false,
        fields: ["agent_name", "tool_name", "tool_use_id", "tool_input"],
    }
    ToolGuard => "tool_guard" {
        fires: "Before approval, on every tool call whatever any auto-approval mode says; cannot be bypassed.",
        tool: true, block: true, permission: true, fail_closed: true,
        rewrite: Nothing, context: None, metadata: true,
        fields: ["agent_name", "tool_name", "tool_use_id", "tool_input"],
    }
    PreToolUse => "pre_tool_use" {
        fires: "Before a tool call executes.",
        tool: true, block: true, permission: true, fail_closed: true,
        rewrite: ToolInput, context: None, metadata: true,
        fields: ["agent_name", "tool_name", "tool_use_id", "tool_input"],
    }
    PermissionRequest => "permission_request" {
        fires: "Just before the runtime would prompt the user to approve a tool call.",
        tool: true, block: true, permission: true, fail_closed: false,
        rewrite: Nothing, context: None, metadata: true,
        fields: ["agent_name", "tool_name", "tool_use_id", "tool_input"],
    }
    ToolResponseTransform => "tool_response_transform" {
        fires: "Between a tool's execution and the recording of its response: sequential rewrites.",
        tool: true, block: false, permission: false, fail_closed: false,
        rewrite: ToolResponse, context: None, metadata: false,
        fields: ["tool_name", "tool_use_id", "tool_input", "tool_response"],
    }
    PostToolUse => "post_tool_use" {
        fires: "After a tool completes, on success and on failure; a block stops the run loop after the batch.",
        tool: true, block: true, permission: false, fail_closed: false,
        rewrite: Nothing, context: Transient, metadata: false,
        fields: ["agent_name", "tool_name", "tool_use_id", "tool_input", "tool_response", "tool_error", "duration_ms"],
    }
    SessionStart => "session_start" {
        fires: "When a session begins or resumes.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: Persisted, metadata: false,
        fields: ["source"],
    }
    UserPromptSubmit => "user_prompt_submit" {
        fires: "Once per user message, after submission and before the model runs.",
        tool: false, block: true, permission: false, fail_closed: false,
        rewrite: Prompt, context: Transient, metadata: false,
        fields: ["prompt"],
    }
    UserSteeringMessagesSubmit => "user_steering_messages_submit" {
        fires: "Each time queued steering messages are drained.",
        tool: false, block: true, permission: false, fail_closed: false,
        rewrite: Nothing, context: Transient, metadata: false,
        fields: ["steering_messages"],
    }
    UserFollowupSubmit => "user_followup_submit" {
        fires: "Each time a queued follow-up message starts a fresh turn.",
        tool: false, block: true, permission: false, fail_closed: false,
        rewrite: Nothing, context: Transient, metadata: false,
        fields: ["prompt"],
    }
    TurnStart => "turn_start" {
        fires: "At the start of every agent turn (each model call).",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: Transient, metadata: false,
        fields: [],
    }
    TurnEnd => "turn_end" {
        fires: "At the end of every agent turn, whatever ended it.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["agent_name", "reason"],
    }
    BeforeLlmCall => "before_llm_call" {
        fires: "Just before every model call; may stop the run or rewrite the outgoing messages.",
        tool: false, block: true, permission: false, fail_closed: false,
        rewrite: Messages, context: None, metadata: false,
        fields: ["iteration", "model_id", "messages"],
    }
    AfterLlmCall => "after_llm_call" {
        fires: "After every successful model call, before the response is recorded.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["agent_name", "stop_response", "last_user_message", "model_id", "usage", "cost"],
    }
    SessionEnd => "session_end" {
        fires: "When a session terminates (also on interruption).",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["reason", "turns", "cost"],
    }
    PreCompact => "pre_compact" {
        fires: "Just before the transcript is compacted; context steers the summary, a block cancels.",
        tool: false, block: true, permission: false, fail_closed: false,
        rewrite: Nothing, context: CompactionPrompt, metadata: false,
        fields: ["source"],
    }
    BeforeCompaction => "before_compaction" {
        fires: "Just before a compaction runs; may veto it or supply the summary verbatim.",
        tool: false, block: true, permission: false, fail_closed: false,
        rewrite: Summary, context: None, metadata: false,
        fields: ["input_tokens", "output_tokens", "context_limit", "compaction_reason"],
    }
    AfterCompaction => "after_compaction" {
        fires: "After a successful compaction.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["input_tokens", "output_tokens", "context_limit", "compaction_reason", "summary"],
    }
    SubagentStop => "subagent_stop" {
        fires: "When a sub-agent finishes (delivered to the parent's hooks).",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["agent_name", "parent_session_id", "stop_response"],
    }
    OnUserInput => "on_user_input" {
        fires: "When the agent is waiting for user input.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: [],
    }
    Stop => "stop" {
        fires: "When the model finishes responding.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: Transient, metadata: false,
        fields: ["agent_name", "stop_response", "last_user_message"],
    }
    Notification => "notification" {
        fires: "When the agent emits a notification (error or warning).",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["notification_level", "notification_message"],
    }
    OnError => "on_error" {
        fires: "When the runtime hits an error during a turn.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["notification_level", "notification_message"],
    }
    OnMaxIterations => "on_max_iterations" {
        fires: "When the runtime reaches its max_iterations limit.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["notification_level", "notification_message"],
    }
    OnAgentSwitch => "on_agent_switch" {
        fires: "When the active agent changes (transfer, handoff, return).",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["from_agent", "to_agent", "agent_switch_kind", "from_agent_models"],
    }
    OnSessionResume => "on_session_resume" {
        fires: "When the user approves continuing past max_iterations.",
        tool: false, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["previous_max_iterations", "new_max_iterations"],
    }
    OnToolApprovalDecision => "on_tool_approval_decision" {
        fires: "After the tool-approval chain resolved a verdict.",
        tool: true, block: false, permission: false, fail_closed: false,
        rewrite: Nothing, context: None, metadata: false,
        fields: ["tool_name", "tool_use_id", "tool_input", "approval_decision", "approval_source"],
    }
    WorktreeCreate => "worktree_create" {
        fires: "After a git worktree is created for a run, before the session starts.",
        tool: false, block: true, permission: false, fail_closed: false,
        rewrite: Nothing, context: User, metadata: false,
        fields: ["worktree_path", "worktree_branch", "worktree_source_dir"],
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_exactly_its_own_contract_row() {
        assert_eq!(EventId::ALL.len(), CATALOG.len());
        for (index, event) in EventId::ALL.iter().enumerate() {
            assert_eq!(*event as usize, index);
            assert_eq!(event.contract().event, *event);
            assert_eq!(EventId::from_native(event.name()), Some(*event));
        }
    }

    #[test]
    fn catalog_holds_the_26_seed_events_plus_the_two_tool_phases() {
        assert_eq!(CATALOG.len(), 28);
        for name in [
            "pre_tool_use",
            "tool_response_transform",
            "post_tool_use",
            "permission_request",
            "session_start",
            "user_prompt_submit",
            "user_steering_messages_submit",
            "user_followup_submit",
            "turn_start",
            "turn_end",
            "before_llm_call",
            "after_llm_call",
            "session_end",
            "pre_compact",
            "before_compaction",
            "after_compaction",
            "subagent_stop",
            "on_user_input",
            "stop",
            "notification",
            "on_error",
            "on_max_iterations",
            "on_agent_switch",
            "on_session_resume",
            "on_tool_approval_decision",
            "worktree_create",
            "tool_input_transform",
            "tool_guard",
        ] {
            assert!(
                EventId::from_native(name).is_some(),
                "{name} missing from the catalog"
            );
        }
    }

    #[test]
    fn fail_closed_implies_can_block() {
        for c in CATALOG {
            assert!(
                !c.fail_closed || c.can_block,
                "{} is fail-closed but cannot block",
                c.event
            );
        }
    }

    #[test]
    fn permission_decisions_only_on_tool_matched_blocking_events() {
        for c in CATALOG {
            if c.permission {
                assert!(c.tool_matched && c.can_block, "{}", c.event);
            }
        }
    }

    #[test]
    fn only_tool_guard_and_pre_tool_use_fail_closed() {
        let closed: Vec<_> = CATALOG
            .iter()
            .filter(|c| c.fail_closed)
            .map(|c| c.event)
            .collect();
        assert_eq!(closed, vec![EventId::ToolGuard, EventId::PreToolUse]);
    }

    #[test]
    fn plain_stdout_context_events_match_the_seed() {
        let consuming: Vec<_> = CATALOG
            .iter()
            .filter(|c| c.context.consumed())
            .map(|c| c.event.name())
            .collect();
        assert_eq!(
            consuming,
            vec![
                "post_tool_use",
                "session_start",
                "user_prompt_submit",
                "user_steering_messages_submit",
                "user_followup_submit",
                "turn_start",
                "pre_compact",
                "stop",
                "worktree_create",
            ]
        );
    }

    #[test]
    fn rewriting_events_are_sequential_and_others_are_not() {
        for c in CATALOG {
            assert_eq!(c.sequential(), c.rewrite != Rewrite::Nothing);
        }
        assert!(EventId::PreToolUse.contract().sequential());
        assert!(!EventId::ToolGuard.contract().sequential());
    }
}
