//! One guard call: payload in, the agent's answer out, a record in the audit store.

use std::path::{Path, PathBuf};
use std::time::Instant;

use hookgate_agents::{Dialect, Encoded, ParseError, Reply, encode, supports_ask};
use hookgate_audit::{Backend, Kept, Record, RecordDecision, Store, Unstored};
use hookgate_core::{AgentKind, CanonicalCall, Decision, EventId};
use hookgate_policy::{Ctx, Effect, Evaluation, Mode, Policy, SessionState};
use serde_json::{Value, json};

use crate::{bridge, git};

/// What to do when the guard itself cannot evaluate a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailMode {
    /// Ask a human where the agent supports it, else deny (the default).
    Ask,
    /// Deny.
    Deny,
}

/// Where records go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreChoice {
    /// SQLite (the default; written through a spool on the hot path).
    Sqlite,
    /// Plain JSONL only.
    Jsonl,
    /// No audit (decisions still work).
    Off,
}

/// Everything a guard call needs besides the payload.
#[derive(Debug, Clone)]
pub struct GuardOptions {
    /// The agent named on the command line (the payload's dialect wins when they differ).
    pub agent: AgentKind,
    /// The event the hook was registered for, for dialects whose payloads carry no event name
    /// (Copilot's camelCase hooks; `hookgate init` sets `HOOKGATE_EVENT`).
    pub event_hint: Option<String>,
    /// What an internal failure answers.
    pub fail_mode: FailMode,
    /// What a policy `ask` becomes where the agent or event has no ask.
    pub ask_fallback: Decision,
    /// The audit backend.
    pub store: StoreChoice,
    /// hookgate's data directory (`HOOKGATE_HOME`).
    pub home: PathBuf,
    /// The user-level policy file.
    pub user_policy: Option<PathBuf>,
    /// Extra policy files (`--policy`), applied after the user and project ones.
    pub policy_files: Vec<PathBuf>,
    /// The process's working directory (used when the payload names none).
    pub cwd: PathBuf,
    /// Whether the user's configured hooks (`.hookgate/hooks.yaml`, …) run too.
    pub user_hooks: bool,
}

/// The dialect to answer in when the payload could not be read.
fn default_dialect(agent: AgentKind) -> Dialect {
    match agent {
        AgentKind::Claude => Dialect::Claude,
        AgentKind::Codex => Dialect::Codex,
        AgentKind::Gemini => Dialect::Gemini,
        AgentKind::Copilot => Dialect::CopilotCamel,
        AgentKind::Cursor => Dialect::Cursor,
    }
}

fn micros(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// The answer for an internal failure: the configured fail mode, where the event can block.
fn failure(
    opts: &GuardOptions,
    dialect: Dialect,
    event: EventId,
    native: &str,
    why: &str,
) -> (Encoded, Decision) {
    let decision = match opts.fail_mode {
        FailMode::Ask if supports_ask(dialect, event) => Decision::Ask,
        _ => Decision::Deny,
    };
    let reply = Reply {
        decision: Some(decision),
        reason: Some(format!(
            "hookgate could not evaluate this call ({why}); failing {decision}"
        )),
        ..Reply::default()
    };
    (
        encode(dialect, event, native, &reply, Decision::Deny),
        decision,
    )
}

/// The repository root containing `cwd` (deleting inside it is ordinary work), else `cwd`.
fn workspace(cwd: &Path) -> PathBuf {
    match git::git_dir(cwd) {
        Some(dir) if dir.file_name().is_some_and(|n| n == ".git") => dir
            .parent()
            .map_or_else(|| cwd.to_path_buf(), Path::to_path_buf),
        _ => cwd.to_path_buf(),
    }
}

fn context(opts: &GuardOptions, cwd: &Path) -> Ctx {
    let mut ctx = Ctx::new(workspace(cwd), std::env::home_dir());
    ctx.branch = git::current_branch(cwd);
    if let Some(tmp) = std::env::var_os("TMPDIR").map(PathBuf::from) {
        ctx.temp_dirs.push(tmp);
    }
    ctx.protected_paths.push(opts.home.clone());
    ctx.protected_paths
        .extend(opts.policy_files.iter().cloned());
    ctx
}

fn policy(opts: &GuardOptions, ctx: &Ctx) -> Result<Policy, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    files.extend(opts.user_policy.iter().cloned());
    files.push(ctx.workspace.join(".hookgate/policy.yaml"));
    files.extend(opts.policy_files.iter().cloned());
    Policy::load(&files).map_err(|e| e.to_string())
}

fn open_store(opts: &GuardOptions) -> Result<Option<Store>, String> {
    let backend = match opts.store {
        StoreChoice::Off => return Ok(None),
        StoreChoice::Sqlite => Backend::Sqlite,
        StoreChoice::Jsonl => Backend::Jsonl,
    };
    Store::open(&opts.home, backend)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Appends `record` to the store; a record the store cannot take goes to
/// [`hookgate_audit::Unstored::keep`] (a fallback file, a durable counter that `log`,
/// `stats` and `doctor` show) rather than being lost. The decision is never changed by an
/// audit failure: the audit trail is not the guard.
// TODO(lead): `Kept::first_in_session` is where the one-per-session note to the agent's
// user-visible channel belongs; the pipeline rewrite emits it.
fn keep(store: Option<&Store>, opts: &GuardOptions, record: &Record) -> Option<Kept> {
    if opts.store == StoreChoice::Off {
        return None;
    }
    let error = match store.map(|s| s.record(record)) {
        Some(Ok(())) => return None,
        Some(Err(e)) => e.to_string(),
        None => "the audit store could not be opened".to_owned(),
    };
    Some(Unstored::for_home(&opts.home).keep(record, &error))
}

/// The ids that determined `decision` (Cedar-style: every enforcing match whose effect is
/// the decision), not merely the first match.
fn determining(eval: &Evaluation, decision: Option<Decision>) -> Vec<String> {
    let Some(decision) = decision else {
        return Vec::new();
    };
    let mut ids: Vec<String> = Vec::new();
    for m in &eval.matched {
        let effect = match m.effect {
            Effect::Allow => Decision::Allow,
            Effect::Ask => Decision::Ask,
            Effect::Deny => Decision::Deny,
        };
        if m.mode == Mode::Enforce && effect == decision && !ids.contains(&m.id) {
            ids.push(m.id.clone());
        }
    }
    ids
}

/// Answers a call whose payload could not be read (or that failed before it was parsed) with
/// the fail mode, in the named agent's default dialect, as a pre-tool call (the case where
/// guessing wrong costs most), and records the failure.
fn fail_unreadable(
    opts: &GuardOptions,
    store: Option<&Store>,
    why: &str,
    started: Instant,
) -> (Encoded, Record) {
    let (encoded, decision) = failure(
        opts,
        default_dialect(opts.agent),
        EventId::PreToolUse,
        "",
        why,
    );
    let mut record = Record::new(opts.agent.as_str(), "", "unknown");
    record.decision = RecordDecision::Error;
    record.reason = Some(format!("failed {decision}"));
    record.error = Some(why.to_owned());
    record.duration_us = micros(started);
    keep(store, opts, &record);
    (encoded, record)
}

/// Answers with the fail mode without reading a payload (the caller could not get one).
pub fn fail(opts: &GuardOptions, why: &str) -> (Encoded, Record) {
    let started = Instant::now();
    let store = open_store(opts).ok().flatten();
    fail_unreadable(opts, store.as_ref(), why, started)
}

/// Runs one guard call. Never panics on input; every failure takes the fail mode.
pub fn run(opts: &GuardOptions, payload: &[u8]) -> Encoded {
    run_recorded(opts, payload).0
}

/// Like [`run`], also returning the audit record (already stored), for sinks such as a webhook.
pub fn run_recorded(opts: &GuardOptions, payload: &[u8]) -> (Encoded, Option<Record>) {
    let started = Instant::now();
    let store = open_store(opts);
    let store_error = store.as_ref().err().cloned();
    let store = store.ok().flatten();

    let parsed =
        match hookgate_agents::parse_with_event(opts.agent, opts.event_hint.as_deref(), payload) {
            Ok(parsed) => parsed,
            Err(ParseError::UnknownEvent(name)) => {
                // An event hookgate has no contract for (registered by hand, or new in the agent):
                // nothing to judge, so no opinion — but it is recorded.
                let mut record = Record::new(opts.agent.as_str(), "", name);
                record.error = Some("event not handled by hookgate".to_owned());
                record.duration_us = micros(started);
                keep(store.as_ref(), opts, &record);
                let silent = Encoded {
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                    exit_code: 0,
                };
                return (silent, Some(record));
            }
            Err(err) => {
                let (encoded, record) = fail_unreadable(
                    opts,
                    store.as_ref(),
                    &format!("unreadable payload: {err}"),
                    started,
                );
                return (encoded, Some(record));
            }
        };
    let call = &parsed.call;
    let cwd = if call.cwd.is_empty() {
        opts.cwd.clone()
    } else {
        PathBuf::from(&call.cwd)
    };
    let ctx = context(opts, &cwd);
    let mut record = Record::new(call.agent.as_str(), &call.session_id, call.event.name());
    record.cwd = cwd.display().to_string();
    record.tool = call.tool.as_ref().map(|t| t.name.clone());
    let mut trace = serde_json::Map::new();
    trace.insert("dialect".into(), json!(parsed.dialect));
    trace.insert("native_event".into(), json!(call.native_event));
    if let Some(e) = &store_error {
        trace.insert("store_error".into(), json!(e));
    }

    let evaluated = evaluate(
        opts,
        call,
        &parsed.raw,
        &cwd,
        &ctx,
        store.as_ref(),
        &mut trace,
    );
    let (encoded, decision) = match evaluated {
        Err(why) => {
            let (encoded, decision) =
                failure(opts, parsed.dialect, call.event, &call.native_event, &why);
            record.decision = RecordDecision::Error;
            record.error = Some(why);
            record.reason = Some(format!("failed {decision}"));
            (encoded, Some(decision))
        }
        Ok((reply, eval)) => {
            record.decision = reply.decision.into();
            record.reason.clone_from(&reply.reason);
            record.rules = determining(&eval, reply.decision);
            record.action = eval.actions.first().map(|a| {
                serde_json::to_value(a.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            });
            record.targets = eval
                .actions
                .iter()
                .flat_map(|a| a.targets.iter().cloned())
                .collect();
            if record.targets.is_empty()
                && let Some(command) = call.tool.as_ref().and_then(|t| t.command.clone())
            {
                record.targets.push(command);
            }
            trace.insert("matched".into(), json!(eval.matched));
            trace.insert("steps".into(), json!(eval.steps));
            let decision = reply.decision;
            (
                encode(
                    parsed.dialect,
                    call.event,
                    &call.native_event,
                    &reply,
                    opts.ask_fallback,
                ),
                decision,
            )
        }
    };
    if let Some(tool) = &call.tool
        && let Some(command) = &tool.command
    {
        trace.insert("command".into(), json!(command));
    }
    trace.insert("exit_code".into(), json!(encoded.exit_code));
    record.trace = Value::Object(trace);
    record.duration_us = micros(started);
    keep(store.as_ref(), opts, &record);
    let _ = decision;
    (encoded, Some(record))
}

/// Policy, invariants and user hooks for a parsed call; `Err` is an internal failure.
fn evaluate(
    opts: &GuardOptions,
    call: &CanonicalCall,
    raw: &Value,
    cwd: &Path,
    ctx: &Ctx,
    store: Option<&Store>,
    trace: &mut serde_json::Map<String, Value>,
) -> Result<(Reply, Evaluation), String> {
    let policy = policy(opts, ctx)?;
    let state: SessionState = match store {
        Some(store) if !call.session_id.is_empty() => store
            .session_state(&call.session_id)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default(),
        _ => SessionState::default(),
    };
    let eval = policy.evaluate(call, ctx, &state);
    let mut reply = Reply {
        decision: eval.decision,
        reason: match (&eval.reason, &eval.suggestion) {
            (Some(r), Some(s)) => Some(format!("{r} (suggestion: {s})")),
            (r, _) => r.clone(),
        },
        context: eval.context.iter().cloned().collect(),
        ..Reply::default()
    };

    if opts.user_hooks {
        let started = Instant::now();
        let outcome =
            bridge::run_user_hooks(call, raw, cwd).map_err(|e| format!("hook config: {e}"))?;
        if let Some(outcome) = outcome {
            if outcome.decision > reply.decision {
                reply.decision = outcome.decision;
                reply.reason.clone_from(&outcome.reason);
            }
            reply
                .context
                .extend(outcome.additional_context.iter().cloned());
            if !outcome.system_messages.is_empty() {
                reply.system_message = Some(outcome.system_messages.join("\n"));
            }
            if reply.decision != Some(Decision::Deny) {
                reply.updated_input.clone_from(&outcome.updated_input);
            }
            trace.insert(
                "user_hooks".into(),
                json!({"micros": micros(started), "outcome": outcome}),
            );
        }
    }

    // Session memory: count the decision; remember what an allowed call does.
    if let Some(store) = store
        && !call.session_id.is_empty()
    {
        let decision = reply.decision;
        let updated = store.update_session_state(&call.session_id, |value| {
            let mut state: SessionState = serde_json::from_value(value.clone()).unwrap_or_default();
            state.record(decision);
            if !matches!(decision, Some(Decision::Deny | Decision::Ask)) {
                policy.observe(call, ctx, &mut state);
            }
            if let Ok(new) = serde_json::to_value(&state) {
                *value = new;
            }
        });
        if let Err(e) = updated {
            trace.insert("session_state_error".into(), json!(e.to_string()));
        }
    }
    Ok((reply, eval))
}
