//! hookgate's contracts: the event catalog, the wire protocol, decisions and outcomes.
//!
//! Everything that says *what an event means* lives here, in one place, so that validation,
//! dispatch and aggregation in the engine are driven by the same table instead of scattered
//! `match`es. This crate must never do I/O: no files, no processes, no network, no clock reads
//! beyond what callers hand in. That keeps it cheap to link, deterministic to test, and safe to
//! fuzz.

#![warn(missing_docs)]

pub mod alias;
pub mod canonical;
pub mod catalog;
pub mod decision;
pub mod excerpt;
pub mod hook;
pub mod id;
pub mod input;
pub mod meerkat;
pub mod outcome;
pub mod output;
pub mod patch;
pub mod term;
pub mod yaml;

pub use alias::{ALIASES, Vocabulary, resolve_event};
pub use canonical::{
    AgentKind, Approval, AskScope, CanonicalCall, PATH_FIELDS, PathOp, PathTarget, ToolCall,
    ToolKind,
};
pub use catalog::{CATALOG, ContextUse, Contract, EventId, Rewrite};
pub use decision::Decision;
pub use hook::{Capability, ChainMode, Mode, OnError, RuntimeKind};
pub use id::HookId;
pub use input::HookInput;
pub use outcome::{
    Aggregator, Flow, HookResult, HookStatus, HookTrace, LifecycleEvent, Outcome, TraceResult,
};
pub use output::{HookResponse, OutputError, ParsedOutput, parse_output};
