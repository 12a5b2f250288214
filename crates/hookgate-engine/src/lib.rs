//! hookgate's hook engine: configuration, matchers, dispatch and the five runtimes.
//!
//! It loads the docker-agent YAML and Meerkat TOML shapes into one model, decides which hooks
//! run for an event and in what order, runs them (in-process closures, commands, HTTP
//! endpoints, built-ins, model judges) and folds their results with the pure rules of `hookgate-core`.
//! It must never let a failing hook pass silently, never panic on bad input, and never do
//! start-up work an event does not need (matchers compile on first use).

#![warn(missing_docs)]

pub mod config;
mod engine;
pub mod lanes;
pub mod matcher;
pub mod runtime;

pub use config::{ConfigError, HookEntry, HooksConfig, RunOverrides, RuntimeSpec, Settings};
pub use engine::{Engine, LedgerEntry, Listener};
pub use lanes::ToolCallOutcome;
pub use matcher::MatcherError;
pub use runtime::builtin::{
    ArgsError, ArgsValidator, Builtin, BuiltinCall, BuiltinError, BuiltinFuture, BuiltinRegistry,
    CheckError,
};
pub use runtime::in_process::{HandlerError, HandlerFuture, InProcessHandler, Registration};
