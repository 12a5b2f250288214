//! Each coding agent's hook dialect: payload bytes in, canonical call out; verdict in, exact
//! output bytes and exit code out.
//!
//! Claude Code, Codex CLI, Gemini CLI, Copilot CLI and Cursor all call `hookgate hook <agent>`
//! at their hook points, each with its own payload shape, event names, tool names and output
//! format. This crate is the only place that knows those differences:
//!
//! - [`parse`] recognises the [`Dialect`] from the payload itself (the named agent is only a
//!   hint: Copilot and Cursor also run `.claude/settings.json` hooks) and produces a
//!   [`hookgate_core::CanonicalCall`] with the catalog event and a canonical tool view
//!   (kind, command, paths, written content, URL, MCP server/tool), including the files inside
//!   Codex `apply_patch` bodies.
//! - [`encode`] turns a dialect-independent [`Reply`] into exactly the fields that agent
//!   documents, with its exit-code convention.
//!
//! What it must never do: I/O of any kind, policy decisions, or guessing an `allow`. It must
//! never emit a key the agent does not document (Codex lets a call through when it sees one),
//! never write stderr on an allow path, never emit an empty deny reason, and never panic on
//! any input: bad payloads are a [`ParseError`] so the caller can apply its fail mode.

mod approval;
mod dialect;
mod encode;
mod error;
mod parse;
mod response;
pub use hookgate_core::patch;
mod shell_patch;
mod tools;

pub use approval::{
    approval_from_argv, approval_from_env, approval_from_gemini_settings,
    combine as combine_approvals,
};
pub use dialect::Dialect;
pub use encode::{
    DEFAULT_ASK_REASON, DEFAULT_DENY_REASON, Encoded, FAIL_CLOSED_EXIT_STATUS, Reply, encode,
    supports_ask, supports_context,
};
pub use error::ParseError;
pub use parse::{
    MAX_PAYLOAD_BYTES, Parsed, call_for_command, call_for_tool, call_from_value, parse,
    parse_value, parse_with_event,
};
pub use response::{output_text, tool_succeeded};
