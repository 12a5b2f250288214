//! `snapshot`: docker-agent's shadow-git checkpoints, so what an agent wrote can be undone
//! with `hookgate snapshot undo` (the repository work is `hookgate-snapshot`'s).
//!
//! Per event: `session_start` tracks the work tree (so the first turn compares against a
//! warm shadow index); `turn_start` and `pre_tool_use` open a baseline; `turn_end` and
//! `post_tool_use` close it and record a checkpoint when files changed; `session_end` drops
//! the session's open baselines and lets git prune (its checkpoints stay, so undo works after
//! the session). `snapshot: true` in a config file registers it on the four events docker-agent
//! auto-injects (session_start, turn_start, turn_end, session_end); the tool events are opt-in.
//!
//! Outcomes, chosen so that a checkpoint failure never stops the agent and never goes
//! unnoticed: outside a git work tree it records nothing and says so once, at `session_start`;
//! any failure (git missing, a lock held too long, a damaged index) is a `system_message`
//! saying the change cannot be undone — never a block (a snapshot is a convenience, not a
//! guard), never silence. Configured on any other event it fails as a misconfiguration.

use std::sync::Arc;

use hookgate_core::{EventId, HookResponse};
use hookgate_engine::runtime::builtin::no_args;
use hookgate_engine::{Builtin, BuiltinCall, BuiltinError, BuiltinRegistry};
use hookgate_snapshot::{Repo, SnapshotError, Span};

use crate::Environment;
use crate::context::work_dir;

/// The events the built-in acts on.
const EVENTS: &[EventId] = &[
    EventId::SessionStart,
    EventId::TurnStart,
    EventId::PreToolUse,
    EventId::PostToolUse,
    EventId::TurnEnd,
    EventId::SessionEnd,
];

/// At most this many skipped files are named in a message.
const NAMED_SKIPS: usize = 5;

#[allow(
    clippy::unnecessary_wraps,
    reason = "built-ins return Option: None is a no-op"
)]
fn say(message: String) -> Option<HookResponse> {
    Some(HookResponse {
        system_message: Some(message),
        ..HookResponse::default()
    })
}

/// The body, blocking (git runs as a subprocess under a file lock).
fn snapshot(call: &BuiltinCall, env: &Environment) -> Result<Option<HookResponse>, BuiltinError> {
    let event = EventId::from_native(&call.input.hook_event_name)
        .filter(|e| EVENTS.contains(e))
        .ok_or_else(|| BuiltinError::Refused {
            target: format!("the `{}` event", call.input.hook_event_name),
            why: "it runs on session_start, turn_start, pre_tool_use, post_tool_use, turn_end and session_end".into(),
        })?;
    let session = call.input.session_id.as_str();
    let (Some(dir), Some(data_dir), false) =
        (work_dir(call), env.data_dir.as_deref(), session.is_empty())
    else {
        return Ok(say(format!(
            "snapshot: nothing recorded on {event}: the event has no cwd or session_id, or hookgate has no data directory"
        )));
    };
    let repo = match Repo::open(data_dir, &dir) {
        Ok(repo) => repo,
        Err(SnapshotError::NotAGitRepository { dir }) => {
            return Ok((event == EventId::SessionStart).then(|| {
                format!(
                    "snapshot: {} is not inside a git work tree; no checkpoints are taken in this session",
                    dir.display()
                )
            }).and_then(say));
        }
        Err(e) => return Ok(failed(event, &e)),
    };
    let result = match event {
        EventId::SessionStart => repo.track().map(|_| None),
        EventId::TurnStart => repo.mark(session, Span::Turn).map(|_| None),
        EventId::TurnEnd => repo
            .settle(session, &Span::Turn, None)
            .map(|s| skipped_note(&s.skipped, s.checkpoint.is_some())),
        EventId::PreToolUse | EventId::PostToolUse => {
            let Some(id) = call.input.tool_use_id.clone().filter(|id| !id.is_empty()) else {
                return Ok(say(format!(
                    "snapshot: the {event} event has no tool_use_id; this call is covered by its turn's checkpoint only"
                )));
            };
            let span = Span::Tool { tool_use_id: id };
            if event == EventId::PreToolUse {
                repo.mark(session, span).map(|_| None)
            } else {
                repo.settle(session, &span, call.input.tool_name.as_deref())
                    .map(|s| skipped_note(&s.skipped, s.checkpoint.is_some()))
            }
        }
        _ => repo.end_session(session).map(|()| None),
    };
    Ok(result.unwrap_or_else(|e| failed(event, &e)))
}

/// A checkpoint that left large new files out says which (undo can neither restore nor
/// remove them).
fn skipped_note(
    skipped: &[hookgate_snapshot::SkippedFile],
    recorded: bool,
) -> Option<HookResponse> {
    if skipped.is_empty() || !recorded {
        return None;
    }
    let mut names: Vec<String> = skipped
        .iter()
        .take(NAMED_SKIPS)
        .map(|s| format!("{} ({} bytes)", s.path, s.bytes))
        .collect();
    if skipped.len() > NAMED_SKIPS {
        names.push(format!("and {} more", skipped.len() - NAMED_SKIPS));
    }
    say(format!(
        "snapshot: new files over 2 MiB are not kept, so undo leaves them as they are: {}",
        names.join(", ")
    ))
}

fn failed(event: EventId, err: &SnapshotError) -> Option<HookResponse> {
    say(format!(
        "snapshot: no checkpoint on {event} ({err}); changes from here may not be undoable"
    ))
}

pub(crate) fn register(registry: &mut BuiltinRegistry, env: &Arc<Environment>) {
    let env = Arc::clone(env);
    registry.register(
        "snapshot",
        Builtin {
            description: "Records shadow-git checkpoints of the git work tree (turn_start→turn_end, pre_tool_use→post_tool_use) under the data dir, never touching .git; `hookgate snapshot list|diff|undo|reset` uses them. Outside a git work tree it records nothing and says so.",
            events: EVENTS,
            validate: no_args,
            run: Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&env);
                Box::pin(async move {
                    tokio::task::spawn_blocking(move || snapshot(&call, &env))
                        .await
                        .map_err(|e| BuiltinError::failed("finish", e))?
                })
            }),
        },
    );
}
