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
mod paths;
mod rate;
mod safety;

use hookgate_core::{Decision, HookResponse};
use hookgate_engine::BuiltinRegistry;

/// Command patterns are the policy crate's, so a rule and a `deny_commands` hook match alike.
pub use hookgate_policy::CommandPattern;

/// Tool names treated as shells (their `command`/`cmd` input is a shell command line).
pub const SHELL_TOOLS: &[&str] = &[
    "Bash",
    "bash",
    "shell",
    "Shell",
    "run_shell_command",
    "exec_command",
    "local_shell",
    "terminal",
];

/// Input fields that carry the path a file tool acts on.
pub const PATH_FIELDS: &[&str] = &[
    "file_path",
    "path",
    "filepath",
    "filename",
    "notebook_path",
    "absolute_path",
    "target_file",
    "dir_path",
];

/// The standard registry plus the guards of this crate.
pub fn registry() -> BuiltinRegistry {
    let mut registry = BuiltinRegistry::standard();
    register(&mut registry);
    registry
}

/// Adds this crate's guards to `registry`.
pub fn register(registry: &mut BuiltinRegistry) {
    commands::register(registry);
    paths::register(registry);
    rate::register(registry);
    safety::register(registry);
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
