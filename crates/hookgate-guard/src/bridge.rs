//! Running the user's own configured hooks (command, HTTP, built-ins) on an agent's call.
//!
//! The same `.hookgate/hooks.yaml` applies to every agent: the canonical call is turned into
//! the engine's input (with the agent's own payload fields passed through, so a Claude-style
//! hook script reading `transcript_path` still works), and the engine runs only if some hook
//! is configured for the event — otherwise no config is parsed beyond discovery and no async
//! runtime is started.

use std::path::Path;
use std::time::Duration;

use hookgate_core::{CanonicalCall, HookInput, Outcome};
use hookgate_engine::config::{
    ConfigLayer, Discovery, Format, Layer, Loaded, merge_with_notes, parse_file, parse_text,
};
use hookgate_engine::matcher::LazyMatcher;
use hookgate_engine::{ConfigError, Engine, HookEntry, HooksConfig, RuntimeSpec};
use hookgate_project::{ConfigSnapshot, SnapshotFile};
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
    /// With [`HookRun::ReadOnly`]: the hooks the real call would run that were not run
    /// because they have effects (`hook \`id\` (command)`).
    pub would_run: Vec<String>,
}

/// Which of the configured hooks may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookRun {
    /// All of them (a real hook call).
    All,
    /// Only those without side effects (`hookgate explain`): no command, HTTP, model or
    /// in-process hook, no built-in that writes, spawns, keeps state or uses the network
    /// ([`hookgate_engine::runtime::builtin::side_effect`]).
    ReadOnly,
}

/// What running `entry` would do outside the process, or `None` when nothing (a built-in
/// without side effects).
fn side_effect_of(entry: &HookEntry) -> Option<String> {
    Some(match &entry.runtime {
        RuntimeSpec::Builtin { name, .. } => format!(
            "builtin {name}: {}",
            hookgate_engine::runtime::builtin::side_effect(name)?.describe()
        ),
        RuntimeSpec::Command { .. } => "command: runs a program".to_owned(),
        RuntimeSpec::Http { .. } => "http: sends the call over the network".to_owned(),
        RuntimeSpec::Model { .. } => "model: sends the call to a model".to_owned(),
        RuntimeSpec::InProcess { .. } => "in_process: runs code".to_owned(),
    })
}

/// Removes every hook with side effects from `config`, returning one line for each that
/// `call` would have run.
fn keep_read_only(config: &mut HooksConfig, call: &CanonicalCall) -> Vec<String> {
    let tool = call
        .tool
        .as_ref()
        .filter(|_| call.event.contract().tool_matched)
        .map(|t| t.name.as_str());
    let mut would_run = Vec::new();
    config.entries.retain(|entry| {
        let Some(effect) = side_effect_of(entry) else {
            return true;
        };
        let fires = entry.enabled
            && entry.event == call.event
            && LazyMatcher::new(entry.matcher.clone())
                .matches(tool)
                .unwrap_or(true);
        if fires {
            would_run.push(format!("hook `{}` ({effect})", entry.id));
        }
        false
    });
    would_run
}

/// The user's and the project's hook config, loaded. The user's files (trusted) are read from
/// `user_dir`; the project's come from `project`, the snapshot its trust was computed on, so
/// the hooks that run are exactly the bytes that were hashed (no second read, no gap between
/// the trust check and the load). The layer order is [`Discovery::sources`]'s: user files,
/// project files, then the drop-ins of both. An untrusted project's hooks that run code or
/// have effects beyond tightening are dropped with a note, and so are its files that do not
/// load (an untrusted config that does not load must not fail every call). `None`: no hook
/// config anywhere (nothing is parsed).
pub fn load_user_hooks(
    user_dir: Option<&Path>,
    project: Option<&ConfigSnapshot>,
    project_trusted: bool,
) -> Result<Option<Loaded>, ConfigError> {
    let user = Discovery {
        user_dir: user_dir.map(Path::to_path_buf),
        project_dir: None,
        project_trusted: false,
    }
    .sources()?;
    let project_files: Vec<(Layer, &SnapshotFile, Format)> = project
        .into_iter()
        .flat_map(|s| s.files.iter())
        .filter_map(|f| {
            let layer = if f.name.starts_with("hooks.d/") {
                Layer::DropIn
            } else if HOOK_FILE_NAMES.contains(&f.name.as_str()) {
                Layer::Project
            } else {
                return None;
            };
            Format::of(&f.path).map(|format| (layer, f, format))
        })
        .collect();
    if user.is_empty() && project_files.is_empty() {
        return Ok(None);
    }
    let from_project = |layer: Layer| {
        project_files
            .iter()
            .filter(move |(l, _, _)| *l == layer)
            .map(|(layer, file, format)| {
                let parsed = std::str::from_utf8(&file.bytes)
                    .map_err(|_| ConfigError {
                        file: Some(file.path.clone()),
                        line: None,
                        column: None,
                        message: "cannot read: not UTF-8".to_owned(),
                    })
                    .and_then(|text| parse_text(text, *format, Some(&file.path), *layer));
                // Untrusted config that does not load is ignored with a note: it could only
                // have tightened the guard, and must not fail every call instead.
                if project_trusted {
                    parsed
                } else {
                    Ok(ConfigLayer::untrusted_or_ignored(parsed))
                }
            })
    };
    let from_user = |layer: Layer| {
        user.iter()
            .filter(move |s| s.layer == layer)
            .map(|s| parse_file(&s.path, s.layer))
    };
    let layers = from_user(Layer::User)
        .chain(from_project(Layer::Project))
        .chain(from_user(Layer::DropIn))
        .chain(from_project(Layer::DropIn))
        .collect::<Result<Vec<_>, ConfigError>>()?;
    let mut loaded = merge_with_notes(layers)?;
    if !loaded.untrusted.is_empty() {
        loaded.drop_unloadable_untrusted(&hookgate_builtins::registry());
    }
    Ok(Some(loaded))
}

/// The hook config file names a `.hookgate/` may hold (the engine's discovery list).
const HOOK_FILE_NAMES: &[&str] = &["hooks.yaml", "hooks.yml", "hooks.toml", "config.toml"];

/// Runs the configured hooks for `call`, if any (`loaded` from [`load_user_hooks`]); with
/// [`HookRun::ReadOnly`] only those without side effects, naming the others.
pub fn run_user_hooks(
    call: &CanonicalCall,
    raw: &Value,
    loaded: Option<Loaded>,
    run: HookRun,
) -> Result<UserHooks, ConfigError> {
    let Some(loaded) = loaded else {
        return Ok(UserHooks::default());
    };
    let notes = loaded.notes.iter().map(ToString::to_string).collect();
    let mut config = loaded.config;
    let would_run = match run {
        HookRun::All => Vec::new(),
        HookRun::ReadOnly => keep_read_only(&mut config, call),
    };
    let engine = Engine::with_builtins(config, hookgate_builtins::registry())?;
    if !engine.has_hooks(call.event) {
        return Ok(UserHooks {
            outcome: None,
            notes,
            would_run,
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
        would_run,
    })
}
