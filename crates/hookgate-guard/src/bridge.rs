//! Running the user's own configured hooks (command, HTTP, built-ins) on an agent's call.
//!
//! The same `.hookgate/hooks.yaml` applies to every agent: the canonical call is turned into
//! the engine's input (with the agent's own payload fields passed through, so a Claude-style
//! hook script reading `transcript_path` still works), and the engine runs only if some hook
//! is configured for the event — otherwise no config is parsed beyond discovery and no async
//! runtime is started.

use std::time::Duration;

use hookgate_core::{CanonicalCall, HookInput, Outcome};
use hookgate_engine::config::{Discovery, load_with_notes};
use hookgate_engine::{ConfigError, Engine};
use serde_json::Value;

/// Builds the engine input for `call`, keeping the raw payload's other fields.
pub fn hook_input(call: &CanonicalCall, raw: &Value) -> HookInput {
    let mut input = HookInput::for_event(call.event);
    if let Value::Object(map) = raw {
        for (key, value) in map {
            input.extra.insert(key.clone(), value.clone());
        }
    }
    for key in HookInput::FIELDS {
        input.extra.remove(*key);
    }
    input.session_id.clone_from(&call.session_id);
    input.cwd.clone_from(&call.cwd);
    input.agent_name = Some(call.agent.as_str().to_owned());
    if let Some(tool) = &call.tool {
        input.tool_name = Some(tool.name.clone());
        input.tool_input = Some(tool.input.clone());
    }
    input.prompt.clone_from(&call.prompt);
    input.tool_response.clone_from(&call.tool_response);
    if let Some(id) = raw.get("tool_use_id").and_then(Value::as_str) {
        input.tool_use_id = Some(id.to_owned());
    }
    input
}

/// The user's hooks for one call: their outcome (`None`: nothing configured for the event) and
/// one line per hook or setting of an untrusted project that was not applied.
#[derive(Debug, Default)]
pub struct UserHooks {
    /// What the hooks decided and rewrote.
    pub outcome: Option<Outcome>,
    /// What untrusted project config asked for and did not get.
    pub notes: Vec<String>,
}

/// Runs the configured hooks for `call`, if any, from the layers `discovery` found (an
/// untrusted project's code-running hooks are dropped with a note).
pub fn run_user_hooks(
    call: &CanonicalCall,
    raw: &Value,
    discovery: &Discovery,
) -> Result<UserHooks, ConfigError> {
    let files = discovery.files()?;
    if files.is_empty() {
        return Ok(UserHooks::default());
    }
    let loaded = load_with_notes(&[], discovery)?;
    let notes = loaded.notes.iter().map(ToString::to_string).collect();
    let config = loaded.config;
    let engine = Engine::with_builtins(config, hookgate_builtins::registry())?;
    if !engine.has_hooks(call.event) {
        return Ok(UserHooks {
            outcome: None,
            notes,
        });
    }
    let longest = engine
        .config()
        .entries
        .iter()
        .map(|e| {
            e.timeout_ms
                .unwrap_or(engine.config().settings.default_timeout_ms)
        })
        .max()
        .unwrap_or(0);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ConfigError {
            file: None,
            line: None,
            column: None,
            message: format!("cannot start the async runtime: {e}"),
        })?;
    let input = hook_input(call, raw);
    let outcome = runtime.block_on(async {
        let outcome = engine.dispatch(call.event, input).await;
        engine
            .drain_background(Duration::from_millis(longest))
            .await;
        outcome
    });
    Ok(UserHooks {
        outcome: Some(outcome),
        notes,
    })
}
