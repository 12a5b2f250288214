//! docker-agent's agent-level shorthands: `snapshot: true`, `add_date: true`,
//! `redact_secrets: true` at the top of a config file.
//!
//! Each stands for one built-in on the events docker-agent auto-injects it on
//! (`ApplyAgentDefaults`), written exactly as a hand-written `{type: builtin, command: NAME}`
//! hook would be, so the same hook also written by hand (in this file or another layer) loads
//! once: entries that are the same hook deduplicate at merge. `false` (the default) adds
//! nothing and removes nothing. One table, so a shorthand cannot be wired to some events in
//! one place and documented with others elsewhere.

use std::collections::BTreeMap;

use hookgate_core::EventId;

use super::model::RuntimeSpec;
use super::raw::{Body, RawFile, RawHook, RawHooks};

/// The events `snapshot: true` registers the built-in on. Per-tool checkpoints
/// (`pre_tool_use` / `post_tool_use`) stay opt-in, as upstream.
pub const SNAPSHOT_EVENTS: [EventId; 4] = [
    EventId::SessionStart,
    EventId::TurnStart,
    EventId::TurnEnd,
    EventId::SessionEnd,
];

/// The events `add_date: true` registers `add_date` on: each turn, so a long session sees the
/// date change.
pub const ADD_DATE_EVENTS: [EventId; 1] = [EventId::TurnStart];

/// The events `redact_secrets: true` registers `redact_secrets` on — docker-agent's three
/// legs: tool arguments (on `tool_input_transform`, so auto-approved calls are covered too),
/// outgoing model messages, and tool output.
pub const REDACT_SECRETS_EVENTS: [EventId; 3] = [
    EventId::ToolInputTransform,
    EventId::BeforeLlmCall,
    EventId::ToolResponseTransform,
];

/// Expands the shorthands `file` switched on into its hooks: each key (also the built-in's
/// name) with its events.
pub(crate) fn apply(file: &mut RawFile) {
    let shorthands: [(bool, &str, &[EventId]); 3] = [
        (file.snapshot, "snapshot", &SNAPSHOT_EVENTS),
        (file.add_date, "add_date", &ADD_DATE_EVENTS),
        (
            file.redact_secrets,
            "redact_secrets",
            &REDACT_SECRETS_EVENTS,
        ),
    ];
    for (on, name, events) in shorthands {
        if on {
            add_builtin_hooks(&mut file.hooks, name, events);
        }
    }
}

/// Adds built-in `name` to `hooks` on `events`, after the file's own hooks of each event.
fn add_builtin_hooks(hooks: &mut RawHooks, name: &str, events: &[EventId]) {
    for &event in events {
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
                name: name.to_owned(),
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
