//! The dispatcher: which hooks run for an event, in what order, and how their results fold.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use hookgate_core::{
    Aggregator, ChainMode, EventId, Flow, HookId, HookInput, HookResult, HookStatus,
    LifecycleEvent, Mode, Outcome,
};
use hookgate_transport::Limits;
use serde::Serialize;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::config::{
    ConfigError, HookEntry, HooksConfig, RunOverrides, RuntimeSpec, apply_overrides,
};
use crate::matcher::{LazyMatcher, MatcherError};
use crate::runtime::builtin::{BuiltinCall, BuiltinRegistry};
use crate::runtime::in_process::{Handlers, InProcessHandler, Registration};
use crate::runtime::model::JudgeCache;
use crate::runtime::{command, http, in_process, model};

/// A lifecycle listener.
pub type Listener = Arc<dyn Fn(&LifecycleEvent) + Send + Sync>;

/// A background hook that did not run to completion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LedgerEntry {
    /// Not started: the concurrency limit was reached (we never wait for a slot).
    Skipped {
        /// The hook.
        hook_id: HookId,
        /// Its event.
        event: EventId,
    },
    /// Started and failed.
    Dropped {
        /// The hook.
        hook_id: HookId,
        /// Its event.
        event: EventId,
        /// What went wrong.
        reason: String,
    },
}

/// State shared between an engine and the engines derived from it by overrides.
struct Shared {
    handlers: Handlers,
    builtins: BuiltinRegistry,
    listeners: RwLock<Vec<Listener>>,
    background_slots: Arc<Semaphore>,
    background_tasks: Mutex<JoinSet<()>>,
    ledger: Mutex<Vec<LedgerEntry>>,
    /// Model hooks' answers, so one session never pays for the same judgement twice.
    judge_cache: JudgeCache,
}

struct Compiled {
    entry: HookEntry,
    matcher: LazyMatcher,
}

struct Inner {
    config: HooksConfig,
    compiled: Vec<Compiled>,
    /// Entry indices per event, sorted by (priority, registration order).
    by_event: HashMap<EventId, Vec<usize>>,
    shared: Arc<Shared>,
}

/// The hook engine. Cheap to clone; clones share handlers, listeners and background slots.
#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("entries", &self.inner.compiled.len())
            .finish_non_exhaustive()
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

impl Engine {
    /// Builds an engine over `config` with hookgate's standard built-ins.
    pub fn new(config: HooksConfig) -> Result<Self, ConfigError> {
        Self::with_builtins(config, BuiltinRegistry::standard())
    }

    /// Builds an engine with a custom built-in registry.
    ///
    /// Every entry is validated here (ids, capabilities, matcher syntax, built-in names and
    /// arguments); matchers are compiled lazily, the first time their event fires.
    pub fn with_builtins(
        config: HooksConfig,
        builtins: BuiltinRegistry,
    ) -> Result<Self, ConfigError> {
        let slots = config.settings.background_max_concurrency.max(1);
        let shared = Arc::new(Shared {
            handlers: Handlers::default(),
            builtins,
            listeners: RwLock::new(Vec::new()),
            background_slots: Arc::new(Semaphore::new(slots)),
            background_tasks: Mutex::new(JoinSet::new()),
            ledger: Mutex::new(Vec::new()),
            judge_cache: JudgeCache::default(),
        });
        Self::build(config, shared)
    }

    fn build(config: HooksConfig, shared: Arc<Shared>) -> Result<Self, ConfigError> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (index, entry) in config.entries.iter().enumerate() {
            crate::config::load::validate_entry(entry)?;
            if let Some(pattern) = &entry.matcher {
                crate::matcher::check_syntax(pattern).map_err(|e| {
                    ConfigError::new(
                        entry.origin.file.as_deref(),
                        format!("hook `{}`: {e}", entry.id),
                    )
                })?;
            }
            if let Some(previous) = seen.insert(entry.id.as_str(), index) {
                let _ = previous;
                return Err(ConfigError::new(
                    entry.origin.file.as_deref(),
                    format!("duplicate hook id `{}`", entry.id),
                ));
            }
            if let RuntimeSpec::Builtin { name, args, .. } = &entry.runtime {
                shared.builtins.check(name, args).map_err(|e| {
                    ConfigError::new(
                        entry.origin.file.as_deref(),
                        format!("hook `{}`: {e}", entry.id),
                    )
                })?;
            }
        }
        let compiled: Vec<Compiled> = config
            .entries
            .iter()
            .map(|entry| Compiled {
                entry: entry.clone(),
                matcher: LazyMatcher::new(entry.matcher.clone()),
            })
            .collect();
        let mut by_event: HashMap<EventId, Vec<usize>> = HashMap::new();
        for (index, c) in compiled.iter().enumerate() {
            by_event.entry(c.entry.event).or_default().push(index);
        }
        for indices in by_event.values_mut() {
            // Stable sort: equal priorities keep registration order.
            indices.sort_by_key(|&i| compiled[i].entry.priority);
        }
        Ok(Self {
            inner: Arc::new(Inner {
                config,
                compiled,
                by_event,
                shared,
            }),
        })
    }

    /// The effective configuration.
    pub fn config(&self) -> &HooksConfig {
        &self.inner.config
    }

    /// An engine for one run with `overrides` applied (disabled ids removed, entries added),
    /// sharing this engine's handlers, listeners and background slots.
    pub fn with_overrides(&self, overrides: &RunOverrides) -> Result<Self, ConfigError> {
        let config = apply_overrides(&self.inner.config, overrides)?;
        Self::build(config, Arc::clone(&self.inner.shared))
    }

    /// Registers an in-process handler under `name`; re-registration is reported.
    pub fn register_in_process(&self, name: &str, handler: InProcessHandler) -> Registration {
        self.inner.shared.handlers.register(name, handler)
    }

    /// Adds a lifecycle listener (called synchronously; keep it cheap).
    pub fn subscribe(&self, listener: Listener) {
        let mut listeners = match self.inner.shared.listeners.write() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        };
        listeners.push(listener);
    }

    /// Background hooks that were skipped or failed so far.
    pub fn background_ledger(&self) -> Vec<LedgerEntry> {
        self.inner
            .shared
            .ledger
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default()
    }

    /// Waits (at most `limit`) for running background hooks; returns how many were still
    /// running when the limit passed (they are then aborted).
    pub async fn drain_background(&self, limit: Duration) -> usize {
        let mut tasks = match self.inner.shared.background_tasks.lock() {
            Ok(mut guard) => std::mem::take(&mut *guard),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        let deadline = tokio::time::Instant::now() + limit;
        while !tasks.is_empty() {
            if tokio::time::timeout_at(deadline, tasks.join_next())
                .await
                .is_err()
            {
                let left = tasks.len();
                tasks.abort_all();
                return left;
            }
        }
        0
    }

    /// True when at least one enabled hook is configured for `event` (cheap; for callers that
    /// want to skip building an input).
    pub fn has_hooks(&self, event: EventId) -> bool {
        self.inner
            .by_event
            .get(&event)
            .is_some_and(|ids| ids.iter().any(|&i| self.inner.compiled[i].entry.enabled))
    }

    /// Dispatches `event`: runs its matching hooks and folds their results.
    pub async fn dispatch(&self, event: EventId, mut input: HookInput) -> Outcome {
        event.name().clone_into(&mut input.hook_event_name);
        let inner = &self.inner;
        let Some(indices) = inner.by_event.get(&event) else {
            return Outcome::empty(event);
        };
        let chain = inner.config.settings.chain_for(event);
        let contract = event.contract();
        let mut agg = Aggregator::new(event, chain, &input);
        let tool = if contract.tool_matched {
            input.tool_name.clone()
        } else {
            None
        };

        let mut foreground = Vec::new();
        let mut background = Vec::new();
        for &index in indices {
            let c = &inner.compiled[index];
            if !c.entry.enabled {
                continue;
            }
            match c.matcher.matches(tool.as_deref()) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    // A matcher that cannot be evaluated must not remove its guard: it fails.
                    foreground.push((index, Some(e)));
                    continue;
                }
            }
            match c.entry.mode {
                Mode::Foreground => foreground.push((index, None)),
                Mode::Background => background.push(index),
            }
        }

        if contract.sequential() || chain == ChainMode::FirstDecision {
            self.run_sequential(&foreground, &mut agg, &mut input).await;
        } else {
            self.run_tiers(&foreground, &mut agg, &input).await;
        }

        if agg.denied() {
            for index in background {
                let entry = &inner.compiled[index].entry;
                agg.skip(
                    entry.id.clone(),
                    entry.runtime.kind(),
                    Mode::Background,
                    "skipped: a foreground hook denied",
                );
            }
        } else if !background.is_empty() {
            agg.apply_rewrites(&mut input);
            let input = Arc::new(input);
            for index in background {
                let started = self.start_background(index, Arc::clone(&input));
                let entry = &inner.compiled[index].entry;
                agg.background(entry.id.clone(), entry.runtime.kind(), started);
            }
        }
        agg.finish()
    }

    async fn run_sequential(
        &self,
        foreground: &[(usize, Option<MatcherError>)],
        agg: &mut Aggregator,
        input: &mut HookInput,
    ) {
        let mut decided: Option<HookId> = None;
        for (index, matcher_error) in foreground {
            let entry = &self.inner.compiled[*index].entry;
            if let Some(by) = &decided {
                self.skip_decided(agg, *index, by);
                continue;
            }
            agg.apply_rewrites(input);
            let result = if let Some(e) = matcher_error {
                self.failed_result(*index, e.to_string())
            } else {
                self.emit(&LifecycleEvent::HookStarted {
                    hook_id: entry.id.clone(),
                    event: entry.event,
                });
                self.inner.run_entry(*index, input).await
            };
            let id = result.id.clone();
            let (flow, lifecycle) = agg.push(result);
            self.emit(&lifecycle);
            if flow == Flow::Stop {
                decided = Some(id);
            }
        }
    }

    /// Runs hooks of equal priority concurrently, tier by tier; results are folded in
    /// registration order whatever order they completed in.
    async fn run_tiers(
        &self,
        foreground: &[(usize, Option<MatcherError>)],
        agg: &mut Aggregator,
        input: &HookInput,
    ) {
        let inner = &self.inner;
        let payload: Arc<HookInput> = Arc::new(input.clone());
        let mut decided: Option<HookId> = None;
        let mut start = 0;
        while start < foreground.len() {
            let priority = inner.compiled[foreground[start].0].entry.priority;
            let end = foreground[start..]
                .iter()
                .position(|(i, _)| inner.compiled[*i].entry.priority != priority)
                .map_or(foreground.len(), |offset| start + offset);
            let tier = &foreground[start..end];
            start = end;
            if let Some(by) = &decided {
                for (index, _) in tier {
                    self.skip_decided(agg, *index, by);
                }
                continue;
            }
            let mut results: Vec<Option<HookResult>> = vec![None; tier.len()];
            let mut set = JoinSet::new();
            for (slot, (index, matcher_error)) in tier.iter().enumerate() {
                if let Some(e) = matcher_error {
                    results[slot] = Some(self.failed_result(*index, e.to_string()));
                    continue;
                }
                let entry = &inner.compiled[*index].entry;
                self.emit(&LifecycleEvent::HookStarted {
                    hook_id: entry.id.clone(),
                    event: entry.event,
                });
                if tier.len() == 1 {
                    results[slot] = Some(inner.run_entry(*index, &payload).await);
                    continue;
                }
                let inner = Arc::clone(&self.inner);
                let payload = Arc::clone(&payload);
                let index = *index;
                set.spawn(async move { (slot, inner.run_entry(index, &payload).await) });
            }
            while let Some(joined) = set.join_next().await {
                // A panic here would be in our own runtime code, not a hook's (hooks run
                // under their own guards); it still must not pass silently.
                if let Ok((slot, result)) = joined {
                    results[slot] = Some(result);
                }
            }
            for (slot, result) in results.into_iter().enumerate() {
                let result = result.unwrap_or_else(|| {
                    self.failed_result(tier[slot].0, "hook task ended unexpectedly".into())
                });
                let id = result.id.clone();
                let (flow, lifecycle) = agg.push(result);
                self.emit(&lifecycle);
                if flow == Flow::Stop && decided.is_none() {
                    decided = Some(id);
                }
            }
        }
    }

    fn skip_decided(&self, agg: &mut Aggregator, index: usize, by: &HookId) {
        let entry = &self.inner.compiled[index].entry;
        agg.skip(
            entry.id.clone(),
            entry.runtime.kind(),
            Mode::Foreground,
            format!("skipped: chain decided by `{by}`"),
        );
    }

    fn failed_result(&self, index: usize, reason: String) -> HookResult {
        let entry = &self.inner.compiled[index].entry;
        HookResult {
            id: entry.id.clone(),
            runtime: entry.runtime.kind(),
            capability: entry.capability,
            on_error: entry.on_error,
            duration: Duration::ZERO,
            status: HookStatus::Failed(reason),
        }
    }

    fn start_background(&self, index: usize, input: Arc<HookInput>) -> bool {
        let shared = &self.inner.shared;
        let entry = &self.inner.compiled[index].entry;
        let Ok(permit) = Arc::clone(&shared.background_slots).try_acquire_owned() else {
            tracing::warn!(hook_id = %entry.id, event = %entry.event, "background hook skipped: concurrency limit reached");
            if let Ok(mut ledger) = shared.ledger.lock() {
                ledger.push(LedgerEntry::Skipped {
                    hook_id: entry.id.clone(),
                    event: entry.event,
                });
            }
            return false;
        };
        self.emit(&LifecycleEvent::HookStarted {
            hook_id: entry.id.clone(),
            event: entry.event,
        });
        let engine = self.clone();
        let task = async move {
            let result = engine.inner.run_entry(index, &input).await;
            drop(permit);
            let entry = &engine.inner.compiled[index].entry;
            let duration_ms = millis(result.duration);
            let lifecycle = match result.status {
                HookStatus::Failed(reason) => {
                    if let Ok(mut ledger) = engine.inner.shared.ledger.lock() {
                        ledger.push(LedgerEntry::Dropped {
                            hook_id: entry.id.clone(),
                            event: entry.event,
                            reason: reason.clone(),
                        });
                    }
                    LifecycleEvent::HookFailed {
                        hook_id: entry.id.clone(),
                        event: entry.event,
                        duration_ms,
                        reason,
                    }
                }
                _ => LifecycleEvent::HookCompleted {
                    hook_id: entry.id.clone(),
                    event: entry.event,
                    duration_ms,
                },
            };
            engine.emit(&lifecycle);
        };
        match shared.background_tasks.lock() {
            Ok(mut tasks) => {
                // Reap finished tasks so the set does not grow without bound.
                while tasks.try_join_next().is_some() {}
                tasks.spawn(task);
            }
            Err(_) => {
                tokio::spawn(task);
            }
        }
        true
    }

    fn emit(&self, event: &LifecycleEvent) {
        let listeners = match self.inner.shared.listeners.read() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        };
        for listener in listeners.iter() {
            listener(event);
        }
    }
}

impl Inner {
    async fn run_entry(&self, index: usize, input: &HookInput) -> HookResult {
        let entry = &self.compiled[index].entry;
        let settings = &self.config.settings;
        let started = Instant::now();
        let timeout =
            Duration::from_millis(entry.timeout_ms.unwrap_or(settings.default_timeout_ms));
        let status = match &entry.runtime {
            RuntimeSpec::InProcess { handler } => {
                in_process::run(&self.shared.handlers, handler, input.clone(), timeout).await
            }
            RuntimeSpec::Builtin {
                name,
                args,
                env,
                working_dir,
            } => {
                self.run_builtin(name, args, env, working_dir.as_deref(), input, timeout)
                    .await
            }
            RuntimeSpec::Model {
                model: model_ref,
                prompt,
                schema,
                base_url,
            } => {
                let call = model::ModelCall {
                    hook_id: entry.id.as_str(),
                    model: model_ref,
                    prompt,
                    schema: *schema,
                    base_url: base_url.as_deref(),
                    timeout,
                };
                model::run(call, input, &self.shared.judge_cache).await
            }
            RuntimeSpec::Command { .. } | RuntimeSpec::Http { .. } => {
                // A Meerkat-shaped entry reads Meerkat's `HookInvocation`, not docker-agent's input.
                let encoded = match &entry.meerkat_point {
                    Some(point) => {
                        serde_json::to_vec(&hookgate_core::meerkat::invocation(point, input))
                    }
                    None => serde_json::to_vec(input),
                };
                match encoded {
                    // Serialization of our own input type cannot fail in practice; if it ever does,
                    // it is a hook failure (fail-closed where the event says so), never a skip.
                    Err(e) => HookStatus::Failed(format!("cannot serialize the input: {e}")),
                    Ok(payload) => self.run_external(entry, input, &payload, timeout).await,
                }
            }
        };
        HookResult {
            id: entry.id.clone(),
            runtime: entry.runtime.kind(),
            capability: entry.capability,
            on_error: entry.on_error,
            duration: started.elapsed(),
            status,
        }
    }

    /// Runs a command or HTTP hook with the serialized input.
    async fn run_external(
        &self,
        entry: &HookEntry,
        input: &HookInput,
        payload: &[u8],
        timeout: Duration,
    ) -> HookStatus {
        let settings = &self.config.settings;
        let contract = entry.event.contract();
        let limits = limits(timeout, settings.payload_max_bytes);
        match &entry.runtime {
            RuntimeSpec::Command {
                command: cmd,
                args,
                env,
                working_dir,
            } => {
                let call = command::CommandCall {
                    id: entry.id.as_str(),
                    contract,
                    command: cmd,
                    args: args.as_deref(),
                    env,
                    working_dir: working_dir.as_deref(),
                    shell: &settings.shell,
                    strict: entry.strict_output,
                    limits,
                };
                command::run(call, input, payload).await
            }
            RuntimeSpec::Http {
                url,
                method,
                headers,
            } => {
                let call = http::HttpCall {
                    contract,
                    url,
                    method,
                    headers,
                    strict: entry.strict_output,
                    limits,
                };
                http::run(call, payload).await
            }
            RuntimeSpec::InProcess { .. }
            | RuntimeSpec::Builtin { .. }
            | RuntimeSpec::Model { .. } => {
                HookStatus::Failed("internal error: not an external runtime".to_owned())
            }
        }
    }

    async fn run_builtin(
        &self,
        name: &str,
        args: &[String],
        env: &std::collections::BTreeMap<String, String>,
        working_dir: Option<&str>,
        input: &HookInput,
        timeout: Duration,
    ) -> HookStatus {
        let Some(builtin) = self.shared.builtins.get(name) else {
            return HookStatus::Failed(format!("unknown built-in `{name}`"));
        };
        let env = match command::expand_env(env) {
            Ok(env) => env,
            Err(e) => return HookStatus::Failed(e),
        };
        let working_dir = match command::resolve_working_dir(working_dir, input) {
            Ok(dir) => dir,
            Err(e) => return HookStatus::Failed(e),
        };
        let call = BuiltinCall {
            input: input.clone(),
            args: args.to_vec(),
            env,
            working_dir,
        };
        in_process::guarded((builtin.run)(call), timeout, |e| {
            format!("built-in `{name}` {e}")
        })
        .await
    }
}

fn limits(timeout: Duration, max_output_bytes: usize) -> Limits {
    Limits {
        timeout,
        max_output_bytes,
        ..Limits::default()
    }
}
