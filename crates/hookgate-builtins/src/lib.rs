//! Built-in guards that decide on parsed commands and canonical paths.
//!
//! The Go agent SDK ships `DenyCommands`, `RequireCommand`, `AllowPaths`, `DenyPaths`,
//! `RedirectPath` and a rate limiter, all deciding on raw text: `DenyCommands("rm -rf")` is a
//! substring test (so `echo "rm -rf"` is blocked and `rm -fr /` is not) and `AllowPaths("/sandbox")`
//! a string-prefix test (so `/sandbox/../etc/passwd` and `/sandboxed/x` pass). These do the
//! same jobs on what will actually run: commands resolved by `hookgate-shell` (quotes removed,
//! wrappers peeled, nested shells followed) and paths resolved by `hookgate-paths` (made
//! absolute against the event's `cwd`, `..` folded, symlinks followed, compared by component).
//!
//! They return the Go SDK's three results: continue (no opinion), allow, deny. What cannot be
//! resolved is never allowed: an unresolvable command under `deny_commands` asks, an
//! unresolvable path under `allow_paths` denies. This crate must never panic on input.

mod commands;
mod context;
mod net;
mod paths;
mod rate;
mod results;
mod safety;
mod snapshot;

use std::path::PathBuf;
use std::sync::Arc;

use hookgate_core::{Decision, HookResponse, ToolKind};
use hookgate_engine::BuiltinRegistry;
pub use hookgate_engine::{ArgsError, BuiltinError};

/// Command patterns are the policy crate's, so a rule and a `deny_commands` hook match alike.
pub use hookgate_policy::CommandPattern;

/// Whether a tool name is a shell (its `command`/`cmd` input is a shell command line); the
/// table is `hookgate_core`'s, shared with the dialect parsers.
pub fn is_shell_tool(name: &str) -> bool {
    ToolKind::of_tool_name(name) == ToolKind::Shell
}

/// Input fields that carry the path a file tool acts on (`hookgate_core`'s one list).
pub use hookgate_core::PATH_FIELDS;

/// What the built-ins know about the machine: read once by whoever builds the registry (the
/// binary, an embedding agent, a test), never while a built-in decides, so a decision is a
/// function of the call and this value and can be reproduced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// The user's home directory (`~`, home-relative targets).
    pub home: Option<PathBuf>,
    /// `$TMPDIR`, another directory where deleting is ordinary work.
    pub tmpdir: Option<PathBuf>,
    /// Where `rate_limit` keeps its counters across hook processes (a hook's own
    /// `HOOKGATE_STATE_DIR` in its `env` still wins).
    pub state_dir: Option<PathBuf>,
    /// hookgate's data directory, where `snapshot` keeps its shadow repositories (the audit
    /// store's `HOOKGATE_HOME`, so `hookgate snapshot` finds them).
    pub data_dir: Option<PathBuf>,
}

impl Environment {
    /// Reads the process environment: `HOME`, `TMPDIR`, and for the state directory
    /// `HOOKGATE_STATE_DIR`, else `$HOOKGATE_HOME/state`, else `$XDG_STATE_HOME/hookgate`,
    /// else `~/.local/state/hookgate`; for the data directory `hookgate_project::data_dir`.
    pub fn from_process() -> Self {
        Self {
            home: std::env::home_dir(),
            tmpdir: std::env::var_os("TMPDIR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            state_dir: hookgate_project::state_dir(),
            data_dir: Some(hookgate_project::data_dir()),
        }
    }
}

/// The standard registry plus the guards of this crate, with the process's [`Environment`].
pub fn registry() -> BuiltinRegistry {
    registry_with(Environment::from_process())
}

/// The standard registry plus the guards of this crate, deciding in `env`.
pub fn registry_with(env: Environment) -> BuiltinRegistry {
    let mut registry = BuiltinRegistry::standard();
    register_with(&mut registry, env);
    registry
}

/// Adds this crate's guards to `registry`, with the process's [`Environment`].
pub fn register(registry: &mut BuiltinRegistry) {
    register_with(registry, Environment::from_process());
}

/// Adds this crate's guards to `registry`, deciding in `env`.
pub fn register_with(registry: &mut BuiltinRegistry, env: Environment) {
    let env = Arc::new(env);
    commands::register(registry, &env);
    paths::register(registry, &env);
    rate::register(registry, &env);
    safety::register(registry, &env);
    context::register(registry, &env);
    results::register(registry, &env);
    snapshot::register(registry, &env);
    net::register(registry);
}

/// A verdict with its reason, as these guards return it (`None` from a guard is "continue").
#[allow(
    clippy::unnecessary_wraps,
    reason = "guards return Option: None means continue"
)]
pub(crate) fn respond(decision: Decision, reason: String) -> Option<HookResponse> {
    Some(HookResponse {
        decision: Some(decision),
        reason: Some(reason),
        ..HookResponse::default()
    })
}
