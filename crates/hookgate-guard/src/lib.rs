//! The guard: one coding-agent hook call, from the payload on stdin to the answer on stdout.
//!
//! `hookgate hook <agent>` is on the agent's critical path for every tool call, so this crate
//! does only what the event at hand needs: it parses the payload in the agent's dialect,
//! evaluates the policy and invariants, runs the user's own configured hooks (only when there
//! are any for the event), answers in exactly that agent's format, and appends an audit record.
//! It must never let an internal failure pass as an allow: a failure takes the configured fail
//! mode (ask where the agent supports it, else deny) and is recorded as an error.

mod allow;
pub mod archive;

pub mod bridge;
pub mod git;
mod probe;
mod run;
mod session_line;

pub use run::{
    Applied, ConfigPart, EffectiveConfig, EffectiveHooks, FailMode, GuardError, GuardOptions,
    IgnoredItem, Judgement, PolicyFile, ProjectStatus, RunMode, StoreChoice, Verdict, answer,
    effective_config, effective_hooks, explain, fail, judge, load_policy_layers, project_status,
    record_of, record_unfinished, run, run_recorded,
};
