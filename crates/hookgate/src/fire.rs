//! `hookgate fire`.

use std::io::Read as _;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use hookgate_core::{Decision, HookId, HookInput, resolve_event};
use hookgate_engine::config::{Discovery, Format, HooksConfig, Layer, load};
use hookgate_engine::{Engine, RunOverrides};

use crate::{Failure, print, render, to_json};

#[derive(Debug, Args)]
pub(crate) struct FireArgs {
    /// The event: a native name (`pre_tool_use`) or any alias (`PreToolUse`, `BeforeTool`, …).
    event: String,
    /// Config files or directories to load instead of the discovered layers (repeatable).
    #[arg(long = "config", value_name = "PATH")]
    configs: Vec<PathBuf>,
    /// Disable the hook with this id for this run (repeatable).
    #[arg(long, value_name = "ID")]
    disable: Vec<String>,
    /// A config file whose hooks are appended for this run only (per-run overrides).
    #[arg(long = "add", value_name = "FILE")]
    add: Vec<PathBuf>,
    /// For `pre_tool_use`: run the full tool lanes (tool_input_transform → tool_guard →
    /// pre_tool_use, guards re-checked after a rewrite).
    #[arg(long)]
    lanes: bool,
    /// Read the input JSON from FILE instead of stdin.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn read_input(file: Option<&std::path::Path>) -> Result<HookInput, Failure> {
    let bytes = if let Some(path) = file {
        std::fs::read(path).map_err(|e| Failure(format!("{}: cannot read: {e}", path.display())))?
    } else {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure(format!("cannot read stdin: {e}")))?;
        bytes
    };
    let mut input = if bytes.iter().all(u8::is_ascii_whitespace) {
        HookInput::default()
    } else {
        HookInput::from_json(&bytes).map_err(|e| Failure(format!("stdin: {e}")))?
    };
    if input.cwd.is_empty()
        && let Ok(cwd) = std::env::current_dir()
    {
        input.cwd = cwd.display().to_string();
    }
    Ok(input)
}

fn overrides(args: &FireArgs) -> Result<RunOverrides, Failure> {
    let mut entries = Vec::new();
    for path in &args.add {
        if Format::of(path).is_none() {
            return Err(Failure(format!(
                "{}: unknown config format",
                path.display()
            )));
        }
        let layer = hookgate_engine::config::parse_file(path, Layer::Override)?;
        entries.extend(hookgate_engine::config::merge(vec![layer])?.entries);
    }
    Ok(RunOverrides {
        disable: args
            .disable
            .iter()
            .map(|id| HookId::new(id.clone()))
            .collect(),
        entries,
    })
}

/// The hooks `fire` runs: the files named with `--config` (the user's: trusted, any error is
/// an error), else exactly what the hook runs ([`hookgate_guard::effective_hooks`]) — an
/// untrusted project's hooks with effects and its config that does not load are left out,
/// each named on stderr.
fn hooks_config(explicit: &[PathBuf], cwd: &std::path::Path) -> Result<HooksConfig, Failure> {
    if !explicit.is_empty() {
        return Ok(load(explicit, &Discovery::default())?);
    }
    let effective = hookgate_guard::effective_hooks(&crate::guard::view_options(cwd), cwd)?;
    for item in &effective.ignored {
        eprintln!("hookgate: ignored: {}", item.line);
    }
    Ok(effective.hooks.map(|l| l.config).unwrap_or_default())
}

pub(crate) fn run(args: &FireArgs) -> Result<u8, Failure> {
    let event = resolve_event(&args.event).ok_or_else(|| {
        Failure(format!(
            "unknown event `{}` (see `hookgate events`)",
            args.event
        ))
    })?;
    let input = read_input(args.input.as_deref())?;
    let session = input.session_id.clone();
    let cwd = std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?;
    let config = hooks_config(&args.configs, &cwd)?;
    let longest = config
        .entries
        .iter()
        .map(|e| e.timeout_ms.unwrap_or(config.settings.default_timeout_ms))
        .max()
        .unwrap_or(0);
    let mut engine = Engine::with_builtins(config, hookgate_builtins::registry())?;
    let overrides = overrides(args)?;
    if !overrides.disable.is_empty() || !overrides.entries.is_empty() {
        engine = engine.with_overrides(&overrides)?;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let decision = if args.lanes && event == hookgate_core::EventId::PreToolUse {
            let outcome = engine.dispatch_tool_call(input).await;
            crate::hook_log::record(&session, &outcome.lanes.iter().collect::<Vec<_>>());
            print(&if args.json {
                to_json(&outcome)?
            } else {
                render::tool_call(&outcome)
            })?;
            outcome.decision
        } else {
            let outcome = engine.dispatch(event, input).await;
            crate::hook_log::record(&session, &[&outcome]);
            print(&if args.json {
                to_json(&outcome)?
            } else {
                render::outcome(&outcome)
            })?;
            outcome.decision
        };
        // Background hooks were started detached; give them their own timeout to finish
        // before the process exits (and kills them).
        engine
            .drain_background(Duration::from_millis(longest))
            .await;
        Ok(match decision {
            Some(Decision::Deny) => 2,
            Some(Decision::Ask) => 3,
            Some(Decision::Allow) | None => 0,
        })
    })
}
