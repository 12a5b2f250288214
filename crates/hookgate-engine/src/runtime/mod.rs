//! The five runtimes: in-process closures, commands, HTTP endpoints, built-ins and model
//! (LLM judge) hooks.
//!
//! Each turns (entry, input) into a [`HookStatus`]; interpreting that status against the
//! event's contract is the aggregator's job, so every runtime is judged by the same rules.

pub mod builtin;
pub mod command;
pub mod http;
pub mod in_process;
pub mod model;
pub mod template;

use std::time::Duration;

use hookgate_core::{Contract, HookStatus, parse_output};

/// Reads a hook's printed output (stdout or HTTP body) for `contract`.
pub(crate) fn interpret_output(contract: &Contract, bytes: &[u8], strict: bool) -> HookStatus {
    match parse_output(contract, bytes, strict) {
        Ok(parsed) => HookStatus::Output(parsed),
        Err(err) => HookStatus::Failed(err.to_string()),
    }
}

/// A short, single-line preview of diagnostic text for failure messages.
pub(crate) fn preview(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

/// Formats a duration the way failure messages show it.
pub(crate) fn human(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}
