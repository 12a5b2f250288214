//! The agent-level shorthand `snapshot: true` (docker-agent's `settings.snapshot`).
//!
//! It stands for the `snapshot` built-in on the four events docker-agent auto-injects it on —
//! `session_start`, `turn_start`, `turn_end`, `session_end` — written exactly as a hand-written
//! `{type: builtin, command: snapshot}` hook would be, so the same hook also written by hand
//! (in this file or another layer) loads once: entries that are the same hook deduplicate at
//! merge. Per-tool checkpoints (`pre_tool_use` / `post_tool_use`) stay opt-in, as upstream.
//! `snapshot: false` (the default) adds nothing and removes nothing.

use std::collections::BTreeMap;

use hookgate_core::EventId;

use super::model::RuntimeSpec;
use super::raw::{Body, RawHook, RawHooks};

/// The events `snapshot: true` registers the built-in on.
pub const SNAPSHOT_EVENTS: [EventId; 4] = [
    EventId::SessionStart,
    EventId::TurnStart,
    EventId::TurnEnd,
    EventId::SessionEnd,
];

/// Adds the `snapshot` built-in to `hooks` on [`SNAPSHOT_EVENTS`], after the file's own hooks
/// of each event.
pub(crate) fn add_snapshot_hooks(hooks: &mut RawHooks) {
    for event in SNAPSHOT_EVENTS {
        let hook = RawHook {
            id: None,
            name: None,
            enabled: None,
            event: None,
            point_name: None,
            matcher: None,
            mode: None,
            capability: None,
            priority: None,
            timeout_ms: None,
            on_error: None,
            strict_output: None,
            body: Body::Hook(RuntimeSpec::Builtin {
                name: "snapshot".to_owned(),
                args: Vec::new(),
                env: BTreeMap::new(),
                working_dir: None,
            }),
        };
        match hooks.events.iter_mut().find(|(e, _)| *e == event) {
            Some((_, list)) => list.push(hook),
            None => hooks.events.push((event, vec![hook])),
        }
    }
}
