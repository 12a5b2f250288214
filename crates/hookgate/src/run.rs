//! `hookgate run`: the reference agent runtime on the command line.
//!
//! Everything here is wiring: argument parsing, config loading, the model, the session store,
//! Ctrl+C, and printing the timeline. The loop itself is `hookgate-runtime`.

use std::fmt::Write as _;
use std::io::{IsTerminal as _, Read as _, Write as IoWrite};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use hookgate_core::{EventId, HookId};
use hookgate_engine::config::{Discovery, load};
use hookgate_engine::{Engine, HookEntry, RunOverrides, RuntimeSpec};
use hookgate_llm::{Model, ModelSpec};
use hookgate_runtime::{
    ApprovalMode, Asker, Observer, RunConfig, RunEnd, RunEvent, Runtime, Session, Start, SubAgent,
};

use crate::Failure;

/// Arguments of `hookgate run`.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The prompt. Without it: read from stdin when stdin is not a terminal, else asked for.
    pub(crate) prompt: Option<String>,
    /// The model: `script:FILE` (offline, mock_llm.py's script format), `openai:URL#MODEL`,
    /// `openai-responses:URL#MODEL`, `anthropic:URL#MODEL` or `dmr:URL#MODEL` (Docker Model
    /// Runner).
    #[arg(long, value_name = "MODEL")]
    pub(crate) model: String,
    /// Config files or `.hookgate`-style directories instead of the discovered layers
    /// (repeatable).
    #[arg(long = "config", value_name = "FILE")]
    pub(crate) configs: Vec<PathBuf>,
    /// How tool calls no hook decided are approved: `yolo` runs them, `ask` asks on a
    /// terminal (and denies without one), `readonly` runs only read_file and list_directory.
    #[arg(long, value_name = "MODE", default_value = "ask", value_parser = parse_approval)]
    pub(crate) approval: ApprovalMode,
    /// Model calls per agent before on_max_iterations (0: unlimited).
    #[arg(long, value_name = "N", default_value_t = hookgate_runtime::DEFAULT_MAX_ITERATIONS)]
    pub(crate) max_iterations: u64,
    /// Continue a stored session (fires session_start with source `resume`, then
    /// on_session_resume).
    #[arg(long, value_name = "SESSION")]
    pub(crate) resume: Option<String>,
    /// Run in a new git worktree under the data dir (fires worktree_create first).
    #[arg(long)]
    pub(crate) worktree: bool,
    /// Print the timeline as JSON lines (the default without a terminal).
    #[arg(long)]
    pub(crate) json: bool,
    /// A follow-up message, queued to start a fresh turn after the previous one ends
    /// (user_followup_submit; repeatable).
    #[arg(long = "follow-up", value_name = "TEXT")]
    pub(crate) followups: Vec<String>,
    /// A steering message, drained before the first model call
    /// (user_steering_messages_submit; repeatable).
    #[arg(long = "steer", value_name = "TEXT")]
    pub(crate) steering: Vec<String>,
    /// A sub-agent reachable through the transfer_task tool, as NAME=MODEL (repeatable).
    #[arg(long = "agent", value_name = "NAME=MODEL")]
    pub(crate) agents: Vec<String>,
    /// The same tool call(s) this many times in a row ends the run (0: never).
    #[arg(long, value_name = "N", default_value_t = hookgate_runtime::DEFAULT_LOOP_THRESHOLD)]
    pub(crate) loop_threshold: u32,
    /// Compact the conversation when a model call's input reached N tokens (0: never).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) compact_at: u64,
    /// The context limit reported to compaction hooks (0: unknown).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) context_limit: u64,
    /// The byte budget of one tool result (limit_large_tool_results).
    #[arg(long, value_name = "BYTES", default_value_t = hookgate_runtime::limit::DEFAULT_MAX_BYTES)]
    pub(crate) max_tool_result_bytes: usize,
    /// A command hook on pre_tool_use for this run (repeatable).
    #[arg(long = "hook-pre-tool-use", value_name = "CMD")]
    pub(crate) hook_pre_tool_use: Vec<String>,
    /// A command hook on post_tool_use for this run (repeatable).
    #[arg(long = "hook-post-tool-use", value_name = "CMD")]
    pub(crate) hook_post_tool_use: Vec<String>,
    /// A command hook on session_start for this run (repeatable).
    #[arg(long = "hook-session-start", value_name = "CMD")]
    pub(crate) hook_session_start: Vec<String>,
    /// A command hook on session_end for this run (repeatable).
    #[arg(long = "hook-session-end", value_name = "CMD")]
    pub(crate) hook_session_end: Vec<String>,
    /// A command hook on on_user_input for this run (repeatable).
    #[arg(long = "hook-on-user-input", value_name = "CMD")]
    pub(crate) hook_on_user_input: Vec<String>,
    /// A command hook on stop for this run (repeatable).
    #[arg(long = "hook-stop", value_name = "CMD")]
    pub(crate) hook_stop: Vec<String>,
}

fn parse_approval(s: &str) -> Result<ApprovalMode, String> {
    s.parse()
}

/// The model a spec names. Remote specs need the HTTP clients of `hookgate-llm`.
pub(crate) fn model(spec: &str, base: &Path) -> Result<Arc<dyn Model>, Failure> {
    match spec.parse::<ModelSpec>()? {
        ModelSpec::Script(path) => {
            let path = if path.is_absolute() {
                path
            } else {
                base.join(path)
            };
            Ok(Arc::new(hookgate_llm::script(&path)?))
        }
        remote @ ModelSpec::Remote { .. } => Ok(Arc::from(hookgate_llm::remote(&remote)?)),
    }
}

/// The per-run command hooks of the `--hook-*` flags, as overrides.
fn flag_hooks(args: &RunArgs) -> RunOverrides {
    let groups = [
        (EventId::PreToolUse, &args.hook_pre_tool_use),
        (EventId::PostToolUse, &args.hook_post_tool_use),
        (EventId::SessionStart, &args.hook_session_start),
        (EventId::SessionEnd, &args.hook_session_end),
        (EventId::OnUserInput, &args.hook_on_user_input),
        (EventId::Stop, &args.hook_stop),
    ];
    let mut entries = Vec::new();
    for (event, commands) in groups {
        for (n, command) in commands.iter().enumerate() {
            let runtime = RuntimeSpec::Command {
                command: command.clone(),
                args: None,
                env: std::collections::BTreeMap::new(),
                working_dir: None,
            };
            entries.push(HookEntry::new(
                HookId::new(format!("cli/{}/{}", event.name(), n + 1)),
                event,
                runtime,
            ));
        }
    }
    RunOverrides {
        disable: Vec::new(),
        entries,
    }
}

/// The engine for a run: the loaded config plus per-run entries.
pub(crate) fn engine(
    configs: &[PathBuf],
    cwd: &Path,
    overrides: &RunOverrides,
) -> Result<Engine, Failure> {
    let config = load(configs, &Discovery::from_env(cwd))?;
    let engine = Engine::with_builtins(config, hookgate_builtins::registry())?;
    if overrides.entries.is_empty() && overrides.disable.is_empty() {
        Ok(engine)
    } else {
        Ok(engine.with_overrides(overrides)?)
    }
}

fn subagents(specs: &[String], cwd: &Path) -> Result<Vec<SubAgent>, Failure> {
    specs
        .iter()
        .map(|spec| {
            let (name, model_spec) = spec
                .split_once('=')
                .filter(|(n, m)| !n.is_empty() && !m.is_empty())
                .ok_or_else(|| Failure(format!("--agent `{spec}`: expected NAME=MODEL")))?;
            Ok(SubAgent {
                name: name.to_owned(),
                description: format!("the {name} agent"),
                model: model(model_spec, cwd)?,
            })
        })
        .collect()
}

/// The person at the terminal.
#[derive(Debug)]
struct TtyAsker {
    spinner: Arc<Spinner>,
}

impl TtyAsker {
    fn line(&self, question: &str) -> Option<String> {
        self.spinner.pause();
        {
            // Released before the read: a lock held across it would block every other
            // writer to stderr (the Ctrl+C handler's message, and with it the runtime).
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "{question}");
            let _ = err.flush();
        }
        let mut line = String::new();
        match std::io::stdin().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_owned()),
        }
    }

    fn yes(&self, question: &str) -> bool {
        self.line(question)
            .is_some_and(|a| matches!(a.to_ascii_lowercase().as_str(), "y" | "yes"))
    }
}

impl Asker for TtyAsker {
    fn approve(&self, tool: &str, input: &serde_json::Map<String, serde_json::Value>) -> bool {
        let shown = serde_json::Value::Object(input.clone());
        self.yes(&format!("? run {tool} {shown} [y/N] "))
    }

    fn continue_past(&self, max_iterations: u64) -> bool {
        self.yes(&format!(
            "? the agent reached {max_iterations} iterations; continue? [y/N] "
        ))
    }

    fn read_prompt(&self) -> Option<String> {
        self.line("> ").filter(|p| !p.is_empty())
    }
}

/// A spinner on stderr while the model answers (terminal only). The flag and every write
/// share one lock, so a frame can never land after `pause` cleared the line.
#[derive(Debug, Default)]
struct Spinner {
    on: Mutex<bool>,
}

impl Spinner {
    fn start(self: &Arc<Self>) {
        match self.on.lock() {
            Ok(mut on) if !*on => *on = true,
            _ => return,
        }
        let me = Arc::clone(self);
        std::thread::spawn(move || {
            let frames = ['|', '/', '-', '\\'];
            for n in 0.. {
                {
                    let Ok(on) = me.on.lock() else { return };
                    if !*on {
                        return;
                    }
                    let mut err = std::io::stderr().lock();
                    let _ = write!(err, "\r{} waiting for the model", frames[n % 4]);
                    let _ = err.flush();
                }
                std::thread::sleep(Duration::from_millis(120));
            }
        });
    }

    fn pause(&self) {
        if let Ok(mut on) = self.on.lock()
            && *on
        {
            *on = false;
            let _ = write!(std::io::stderr(), "\r{:30}\r", "");
        }
    }
}

/// One timeline line for a person.
fn human(event: &RunEvent) -> Option<String> {
    Some(match event {
        RunEvent::Event {
            event,
            agent,
            decision,
            reason,
            decided_by,
            hooks,
            system_messages,
            ..
        } => {
            let mut line = format!("· {event}");
            if agent != "root" {
                let _ = write!(line, " [{agent}]");
            }
            if *hooks > 0 {
                let _ = write!(
                    line,
                    " ({hooks} hook{})",
                    if *hooks == 1 { "" } else { "s" }
                );
            }
            if let Some(d) = decision {
                let _ = write!(line, " → {d}");
                if let Some(by) = decided_by {
                    let _ = write!(line, " by {by}");
                }
                if let Some(r) = reason {
                    let _ = write!(line, ": {r}");
                }
            }
            for m in system_messages {
                let _ = write!(line, "\n  ! {m}");
            }
            line
        }
        RunEvent::ModelCall { .. } => return None,
        RunEvent::ModelReply {
            text, tool_calls, ..
        } => {
            if text.is_empty() {
                format!("◆ model asks for {tool_calls} tool call(s)")
            } else {
                format!("◆ {text}")
            }
        }
        RunEvent::ToolCall { name, input, .. } => {
            format!("▶ {name} {}", serde_json::Value::Object(input.clone()))
        }
        RunEvent::Approval {
            decision,
            source,
            reason,
            ..
        } => format!(
            "  {} ({source}){}",
            decision.as_str(),
            reason
                .as_ref()
                .map(|r| format!(": {r}"))
                .unwrap_or_default()
        ),
        RunEvent::ToolResult {
            bytes,
            is_error,
            truncated,
            ..
        } => format!(
            "  {} {bytes} bytes{}",
            if *is_error { "✘ error," } else { "✔" },
            if *truncated { " (truncated)" } else { "" }
        ),
        RunEvent::Notice { level, message } => format!("! {level}: {message}"),
        RunEvent::Finished {
            end,
            session_id,
            usage,
            ..
        } => format!(
            "■ {} · session {session_id} · {} tokens in, {} out",
            end.kind(),
            usage.input_tokens,
            usage.output_tokens
        ),
    })
}

fn observer(json: bool, spinner: Option<Arc<Spinner>>) -> Observer {
    let out = Arc::new(Mutex::new(()));
    Arc::new(move |event: &RunEvent| {
        let line = if json {
            serde_json::to_string(event).ok()
        } else {
            if let Some(spinner) = &spinner {
                spinner.pause();
                if matches!(event, RunEvent::ModelCall { .. }) {
                    spinner.start();
                }
            }
            human(event)
        };
        if let Some(line) = line {
            let _lock = out.lock();
            // A closed stdout (`| head`) must not stop the run: its hooks still fire.
            let _ = crate::print(&format!("{line}\n"));
        }
    })
}

fn read_prompt(args: &RunArgs) -> Result<Option<String>, Failure> {
    if args.prompt.is_some() {
        return Ok(args.prompt.clone());
    }
    if std::io::stdin().is_terminal() {
        return Ok(None);
    }
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Failure(format!("cannot read the prompt from stdin: {e}")))?;
    let text = text.trim();
    Ok((!text.is_empty()).then(|| text.to_owned()))
}

/// Exit status for how the run ended: 0 completed, 2 a hook stopped it, 130 interrupted,
/// 1 otherwise (loop, iteration cap, model error).
pub(crate) fn exit_code(end: &RunEnd) -> u8 {
    match end {
        RunEnd::Completed => 0,
        RunEnd::HookBlocked { .. } => 2,
        RunEnd::Interrupted => 130,
        RunEnd::LoopDetected { .. } | RunEnd::MaxIterations { .. } | RunEnd::ModelError { .. } => 1,
    }
}

pub(crate) fn run(args: &RunArgs) -> Result<u8, Failure> {
    let mut cwd =
        std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?;
    let home = hookgate_audit::default_home();
    let runs = hookgate_audit::Runs::open(&home)?;
    let model_ref = model(&args.model, &cwd)?;
    let (mut session, start, created_ms) = if let Some(id) = &args.resume {
        let stored = runs
            .load(id)?
            .ok_or_else(|| Failure(format!("no stored session `{id}`")))?;
        let mut session: Session = serde_json::from_value(stored.state)
            .map_err(|e| Failure(format!("session `{id}` cannot be resumed: {e}")))?;
        let previous = session.max_iterations;
        // Resuming continues past the cap the session had: the new cap counts from here.
        session.max_iterations = session.conversation.iterations + args.max_iterations;
        cwd = PathBuf::from(stored.cwd);
        (
            session,
            Start::Resume {
                previous_max_iterations: previous,
            },
            stored.created_ms,
        )
    } else {
        let now = hookgate_audit::now_ms();
        let mut session = Session::new(format!("run-{}", hookgate_audit::new_id(now)));
        session.max_iterations = args.max_iterations;
        (session, Start::Startup, now)
    };
    // A resumed session reuses the worktree it ran in (worktree_create fires only when one is
    // created).
    let worktree = if args.worktree {
        let root = home.join("worktrees");
        let (wt, created) = if args.resume.is_some() {
            hookgate_runtime::worktree::reuse_or_create(&cwd, &root, &session.id)?
        } else {
            (
                hookgate_runtime::worktree::create(&cwd, &root, &session.id)?,
                true,
            )
        };
        cwd.clone_from(&wt.path);
        created.then_some(wt)
    } else {
        None
    };
    let engine = engine(&args.configs, &cwd, &flag_hooks(args))?;
    let mut config = RunConfig::new(cwd.clone());
    config.approval = args.approval;
    config.max_iterations = args.max_iterations;
    config.loop_threshold = args.loop_threshold;
    config.compact_at_tokens = args.compact_at;
    config.context_limit = args.context_limit;
    config.max_tool_result_bytes = args.max_tool_result_bytes;
    config.followups.clone_from(&args.followups);
    config.steering.clone_from(&args.steering);
    config.subagents = subagents(&args.agents, &cwd)?;
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let json = args.json || !std::io::stdout().is_terminal();
    let spinner = (!json).then(|| Arc::new(Spinner::default()));
    let prompt = read_prompt(args)?;
    let (cancel_tx, cancel_rx) = tokio::sync::watch::channel(false);
    let (abort_tx, abort_rx) = tokio::sync::watch::channel(false);
    let mut runtime = Runtime::new(engine, Arc::clone(&model_ref), config)
        .with_observer(observer(json, spinner.clone()))
        .with_hook_sink(crate::hook_log::sink(&home))
        .with_cancel(cancel_rx)
        .with_abort(abort_rx);
    if terminal {
        runtime = runtime.with_asker(Arc::new(TtyAsker {
            spinner: spinner.unwrap_or_default(),
        }));
    }
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure(format!("cannot start the async runtime: {e}")))?;
    let report = tokio.block_on(async {
        // The handler is installed here, before the first await: `ctrl_c()` would only install
        // it when its task is first polled, and a Ctrl+C before that would kill the process
        // without `turn_end`/`session_end`.
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()) {
            Ok(mut interrupt) => {
                tokio::spawn(async move {
                    // The first Ctrl+C cancels: the closing hooks (turn_end, session_end)
                    // still run. The second aborts those too (their processes are killed) and
                    // the session is saved. A third exits at once, whatever is still running.
                    if interrupt.recv().await.is_none() {
                        return;
                    }
                    let _ = cancel_tx.send(true);
                    if interrupt.recv().await.is_none() {
                        return;
                    }
                    eprintln!("hookgate: interrupted again: stopping the remaining hooks");
                    let _ = abort_tx.send(true);
                    if interrupt.recv().await.is_some() {
                        eprintln!("hookgate: interrupted a third time: exiting now (the session is not saved)");
                        std::process::exit(130);
                    }
                });
            }
            Err(e) => eprintln!("hookgate: warning: cannot listen for Ctrl+C ({e}): an interrupt ends the run without its hooks"),
        }
        if let Some(wt) = &worktree {
            let created = runtime.worktree_create(&session.id, wt).await;
            if created.blocked() || created.stop.is_some() {
                let reason = created
                    .reason
                    .or(created.stop)
                    .unwrap_or_else(|| "blocked by a worktree_create hook".to_owned());
                return RunEnd::HookBlocked {
                    event: EventId::WorktreeCreate,
                    reason,
                };
            }
        }
        runtime.run(&mut session, prompt, start).await.end
    });
    // A question on the terminal may still be blocked reading stdin after Ctrl+C: never wait
    // for it (dropping the runtime would).
    tokio.shutdown_background();
    let state = serde_json::to_value(&session)?;
    runs.save(&hookgate_audit::StoredRun {
        id: session.id.clone(),
        created_ms,
        updated_ms: hookgate_audit::now_ms(),
        model: args.model.clone(),
        cwd: cwd.display().to_string(),
        status: report.kind().to_owned(),
        state,
    })?;
    if let RunEnd::HookBlocked { event, reason } = &report {
        let _ = writeln!(
            std::io::stderr(),
            "hookgate: run stopped by a {event} hook: {reason}"
        );
    }
    Ok(exit_code(&report))
}
