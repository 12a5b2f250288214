//! hookgate's reference agent runtime: the loop behind `hookgate run`.
//!
//! Two of hookgate's seed systems are agent runtimes whose hooks fire from inside a loop
//! (docker-agent's, Meerkat's). This crate is that loop over [`hookgate_engine::Engine`], so
//! every event of the catalog fires at its documented point with its documented fields, and
//! anyone can run, test and demonstrate hooks end to end with a scripted model and no network.
//!
//! Invariants this crate protects:
//! - every tool call goes through the fixed lanes (`tool_input_transform` → `tool_guard` →
//!   `pre_tool_use`) *before* the approval mode is consulted, so `--approval yolo` can never
//!   bypass a guard; a denied call never runs;
//! - `turn_end` fires once for every `turn_start`, with a reason, on every exit path
//!   (Ctrl+C included), and `session_end` fires for every `session_start`;
//! - no error path is a silent allow: a tool the approval chain could not approve is denied,
//!   and `ask` with nobody to ask denies;
//! - a tool result is bounded before any model sees it ([`limit`]).

mod agent;
mod events;
pub mod limit;
pub mod tools;
pub mod worktree;

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use hookgate_llm::{Message, Model, Usage};
use serde::{Deserialize, Serialize};

pub use agent::Runtime;
pub use events::{ApprovalDecision, HookSink, Observer, RunEnd, RunEvent, RunReport};

/// How tool calls that no hook decided are approved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalMode {
    /// Run every call no hook denied, unasked (a hook's `ask` still asks).
    Yolo,
    /// Read-only tools run; everything else asks the user (denied when nobody can answer).
    #[default]
    Ask,
    /// Only read-only tools run; everything else is denied.
    Readonly,
}

impl ApprovalMode {
    /// The mode's name (`yolo`, `ask`, `readonly`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Yolo => "yolo",
            Self::Ask => "ask",
            Self::Readonly => "readonly",
        }
    }
}

impl FromStr for ApprovalMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "yolo" => Ok(Self::Yolo),
            "ask" => Ok(Self::Ask),
            "readonly" => Ok(Self::Readonly),
            other => Err(format!(
                "unknown approval mode `{other}` (yolo, ask, readonly)"
            )),
        }
    }
}

/// A sub-agent reachable through the `transfer_task` tool.
#[derive(Debug, Clone)]
pub struct SubAgent {
    /// Its name (`agent_name` in its events, `to_agent` in `on_agent_switch`).
    pub name: String,
    /// What it is for (shown to the model).
    pub description: String,
    /// Its model.
    pub model: Arc<dyn Model>,
}

/// Everything that shapes one run. [`RunConfig::new`] gives the documented defaults.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The working directory of the tools and of every hook input's `cwd`.
    pub cwd: PathBuf,
    /// The root agent's name (`agent_name`).
    pub agent_name: String,
    /// How undecided tool calls are approved.
    pub approval: ApprovalMode,
    /// Model calls per agent before `on_max_iterations` (0: unlimited).
    pub max_iterations: u64,
    /// The same tool call(s) this many times in a row is a degenerate loop (0: never).
    pub loop_threshold: u32,
    /// Compact when the last model call's input reached this many tokens (0: never).
    pub compact_at_tokens: u64,
    /// The model's context limit reported to compaction hooks (0: unknown).
    pub context_limit: u64,
    /// The budget of one tool result in bytes ([`limit`]).
    pub max_tool_result_bytes: usize,
    /// The system prompt.
    pub system_prompt: String,
    /// Steering messages queued before the run: drained before the first model call.
    pub steering: Vec<String>,
    /// Follow-up messages queued: each starts a fresh turn after the previous one ends.
    pub followups: Vec<String>,
    /// Sub-agents for `transfer_task`.
    pub subagents: Vec<SubAgent>,
}

/// The default iteration cap.
pub const DEFAULT_MAX_ITERATIONS: u64 = 30;
/// The default loop threshold.
pub const DEFAULT_LOOP_THRESHOLD: u32 = 5;

impl RunConfig {
    /// The defaults for a run in `cwd`.
    pub fn new(cwd: PathBuf) -> Self {
        Self {
            cwd,
            agent_name: "root".to_owned(),
            approval: ApprovalMode::Ask,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            loop_threshold: DEFAULT_LOOP_THRESHOLD,
            compact_at_tokens: 0,
            context_limit: 0,
            max_tool_result_bytes: limit::DEFAULT_MAX_BYTES,
            system_prompt:
                "You are a coding agent. Use the tools to do the task, then answer briefly."
                    .to_owned(),
            steering: Vec::new(),
            followups: Vec::new(),
            subagents: Vec::new(),
        }
    }
}

/// One agent's conversation and counters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    /// The messages (no system messages: those are assembled per request).
    pub messages: Vec<Message>,
    /// Model calls made.
    pub iterations: u64,
    /// The last model call's input tokens (drives compaction).
    pub last_input_tokens: u64,
    /// The last model call's output tokens.
    pub last_output_tokens: u64,
    /// The summary of everything compacted so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// A session: what `--resume` restores.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Its id (`session_id` of every event).
    pub id: String,
    /// The root agent's conversation.
    pub conversation: Conversation,
    /// `session_start` context: persisted for the life of the session.
    pub context: Vec<String>,
    /// Tokens used over the session.
    pub usage: Usage,
    /// USD spent over the session; `None` once any model call was unpriced (and for sessions
    /// stored before costs were kept), since a partial sum would understate it.
    #[serde(default)]
    pub cost: Option<f64>,
    /// Turns run over the session.
    pub turns: u64,
    /// The iteration cap in force (raised when the user continues past it).
    pub max_iterations: u64,
}

impl Session {
    /// A new, empty session.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            cost: Some(0.0),
            ..Self::default()
        }
    }
}

/// How the run started (`session_start.source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A new session.
    Startup,
    /// `--resume`: fires `on_session_resume` with the cap the session had.
    Resume {
        /// The cap stored with the session.
        previous_max_iterations: u64,
    },
}

/// The person at the terminal. Absent when there is no TTY: then `ask` denies and the run
/// stops at the iteration cap.
pub trait Asker: Send + Sync + std::fmt::Debug {
    /// May this tool call run?
    fn approve(&self, tool: &str, input: &serde_json::Map<String, serde_json::Value>) -> bool;
    /// Continue past the iteration cap?
    fn continue_past(&self, max_iterations: u64) -> bool;
    /// The next prompt (`None`: the user has nothing more to say).
    fn read_prompt(&self) -> Option<String>;
}

/// What can go wrong outside the loop (the loop itself reports through [`RunEnd`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeError {
    /// A git command for `--worktree` failed.
    #[error("worktree: {0}")]
    Worktree(String),
}
