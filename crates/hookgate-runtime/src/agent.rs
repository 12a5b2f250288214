//! The agent loop. Each event fires at the point docker-agent documents for it:
//!
//! ```text
//! session_start → [on_session_resume] → for each prompt (user_prompt_submit, then one
//! user_followup_submit per queued follow-up) → [user_steering_messages_submit] → loop:
//!   [on_max_iterations + notification] → [pre_compact → before_compaction → after_compaction]
//!   → turn_start → before_llm_call → model → after_llm_call →
//!     no tool calls: stop → turn_end(normal)
//!     tool calls, each: tool_input_transform → tool_guard → pre_tool_use → approval mode →
//!       [permission_request → on_user_input] → on_tool_approval_decision → the tool
//!       (transfer_task: on_agent_switch → the sub-agent's loop → subagent_stop →
//!       on_agent_switch) → tool_response_transform → post_tool_use
//!     → turn_end(continue | hook_blocked | loop_detected | canceled | error)
//! → session_end (every exit path)
//! ```
//!
//! Cancellation (Ctrl+C, or the embedder's channel) is checked deterministically: every
//! dispatch races it with cancellation first (`biased`), so a hook still running when it
//! arrives is dropped — and a command hook's process group killed — and every step checks it
//! again before going on. What runs after it are the closing events only: the interrupted
//! tool's `tool_response_transform` (it may redact what is stored), `turn_end` with reason
//! `canceled` for the open turn, and `session_end`.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hookgate_core::{Decision, EventId, HookId, HookInput, Outcome};
use hookgate_engine::{Engine, ToolCallOutcome};
use hookgate_llm::{ChatRequest, Message, Model, Role, ToolCall, ToolSpec};
use serde_json::{Map, Value, json};
use tokio::sync::watch;

use crate::events::{ApprovalDecision, HookSink, Observer, RunEnd, RunEvent, RunReport};
use crate::tools::{self, ToolOutput, TransferInput};
use crate::{ApprovalMode, Asker, Conversation, RunConfig, Session, Start, limit};

/// The runtime: an engine, a model and a configuration. Cheap to share; one [`Runtime::run`]
/// per session at a time.
pub struct Runtime {
    engine: Engine,
    model: Arc<dyn Model>,
    config: RunConfig,
    observer: Option<Observer>,
    hook_sink: Option<HookSink>,
    asker: Option<Arc<dyn Asker>>,
    cancel: Option<watch::Receiver<bool>>,
    abort: Option<watch::Receiver<bool>>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("model", &self.model.name())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The agent a step runs for: the root, or a sub-agent inside `transfer_task`.
struct Agent<'a> {
    name: &'a str,
    model: &'a dyn Model,
    session_id: String,
    parent_session_id: Option<String>,
    /// The open turn's number (Meerkat's `turn_number`, carried by every input fired inside
    /// it); 0 outside a turn.
    turn: AtomicU64,
}

impl<'a> Agent<'a> {
    fn new(
        name: &'a str,
        model: &'a dyn Model,
        session_id: String,
        parent_session_id: Option<String>,
    ) -> Self {
        Self {
            name,
            model,
            session_id,
            parent_session_id,
            turn: AtomicU64::new(0),
        }
    }
}

/// What one tool call left behind.
struct ToolStep {
    result: Message,
    context: Vec<String>,
    stop: Option<String>,
    cancelled: bool,
}

/// The approval chain's answer for one call.
struct Verdict {
    decision: ApprovalDecision,
    /// `approval_source`: which step decided.
    source: String,
    reason: Option<String>,
    /// The hook whose verdict decided, when a hook did.
    decided_by: Option<HookId>,
}

impl Verdict {
    fn new(decision: ApprovalDecision, source: impl Into<String>) -> Self {
        Self {
            decision,
            source: source.into(),
            reason: None,
            decided_by: None,
        }
    }

    fn because(mut self, reason: Option<String>, decided_by: Option<HookId>) -> Self {
        self.reason = reason;
        self.decided_by = decided_by;
        self
    }
}

/// Why a turn ended, as `turn_end.reason`.
#[derive(Debug, Clone, Copy)]
enum TurnReason {
    Normal,
    Continue,
    Error,
    Canceled,
    HookBlocked,
    LoopDetected,
}

impl TurnReason {
    const fn as_str(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Continue => "continue",
            Self::Error => "error",
            Self::Canceled => "canceled",
            Self::HookBlocked => "hook_blocked",
            Self::LoopDetected => "loop_detected",
        }
    }
}

/// The outcome of a dispatch the run's cancellation cut short. It denies: a caller that
/// forgot to check for cancellation still cannot read it as "no hook objected".
fn interrupted(event: EventId) -> Outcome {
    let mut outcome = Outcome::empty(event);
    outcome.decision = Some(Decision::Deny);
    outcome.reason = Some("the run was interrupted".to_owned());
    outcome
}

fn reason_of(outcome: &Outcome) -> String {
    outcome
        .reason
        .clone()
        .or_else(|| outcome.stop.clone())
        .unwrap_or_else(|| format!("blocked by a {} hook", outcome.event))
}

fn last_user_message(messages: &[Message]) -> Option<String> {
    messages
        .iter()
        .rev()
        .find(|m| m.role == Role::User)
        .map(|m| m.text.clone())
}

/// The identity of a batch of tool calls, for the loop detector (ids differ per call).
fn signature(calls: &[ToolCall]) -> Vec<(String, Value)> {
    calls
        .iter()
        .map(|c| (c.name.clone(), c.input.clone()))
        .collect()
}

impl Runtime {
    /// A runtime over `engine` and `model`.
    pub fn new(engine: Engine, model: Arc<dyn Model>, config: RunConfig) -> Self {
        Self {
            engine,
            model,
            config,
            observer: None,
            hook_sink: None,
            asker: None,
            cancel: None,
            abort: None,
        }
    }

    /// Hands every dispatch's outcome (with its per-hook trace) to `sink`, with the session
    /// id it belongs to: how `hookgate run` fills the hook ledger.
    #[must_use]
    pub fn with_hook_sink(mut self, sink: HookSink) -> Self {
        self.hook_sink = Some(sink);
        self
    }

    /// Reports the timeline to `observer`.
    #[must_use]
    pub fn with_observer(mut self, observer: Observer) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Asks `asker` where the agent needs a person (none: nobody to ask).
    #[must_use]
    pub fn with_asker(mut self, asker: Arc<dyn Asker>) -> Self {
        self.asker = Some(asker);
        self
    }

    /// Interrupts the run when `cancel` becomes true (Ctrl+C).
    #[must_use]
    pub fn with_cancel(mut self, cancel: watch::Receiver<bool>) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// A harder stop than [`Runtime::with_cancel`] (a second Ctrl+C): when `abort` becomes
    /// true, the closing hooks still running after a cancellation are cut short too (their
    /// processes killed), the rest are skipped, and background hooks are not waited for.
    #[must_use]
    pub fn with_abort(mut self, abort: watch::Receiver<bool>) -> Self {
        self.abort = Some(abort);
        self
    }

    /// The configuration.
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    fn observe(&self, event: &RunEvent) {
        if let Some(observer) = &self.observer {
            observer(event);
        }
    }

    fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| *c.borrow())
    }

    /// Resolves when the run is cancelled; never without a cancel channel (or once its
    /// sender is gone, since then nobody can cancel any more).
    async fn cancelled(&self) {
        until_set(self.cancel.as_ref()).await;
    }

    fn is_aborted(&self) -> bool {
        self.abort.as_ref().is_some_and(|a| *a.borrow())
    }

    fn input(&self, agent: &Agent<'_>) -> HookInput {
        let mut input = HookInput {
            session_id: agent.session_id.clone(),
            cwd: self.config.cwd.display().to_string(),
            agent_name: Some(agent.name.to_owned()),
            ..HookInput::default()
        };
        let turn = agent.turn.load(Ordering::Relaxed);
        if turn > 0 {
            input
                .extra
                .insert("turn_number".to_owned(), Value::from(turn));
        }
        input
    }

    /// Races `work` against cancellation, cancellation first: `None` when the run was (or
    /// became) cancelled; `work` is then dropped, which kills whatever process it ran.
    async fn unless_cancelled<T>(&self, work: impl std::future::Future<Output = T>) -> Option<T> {
        if self.is_cancelled() {
            return None;
        }
        tokio::select! {
            biased;
            () = self.cancelled() => None,
            out = work => Some(out),
        }
    }

    /// Asks the person at the terminal, unless the run is cancelled first (the blocking read
    /// is then abandoned, never waited for). `None`: cancelled.
    async fn ask_user<T: Send + 'static>(
        &self,
        question: impl FnOnce(&dyn Asker) -> T + Send + 'static,
        asker: &Arc<dyn Asker>,
        nobody: T,
    ) -> Option<T> {
        let asker = Arc::clone(asker);
        let blocking = tokio::task::spawn_blocking(move || question(&*asker));
        self.unless_cancelled(blocking)
            .await
            .map(|answer| answer.unwrap_or(nobody))
    }

    /// Fires one event and reports it on the timeline.
    async fn fire(
        &self,
        agent: &Agent<'_>,
        event: EventId,
        fill: impl FnOnce(&mut HookInput),
    ) -> Outcome {
        let mut input = self.input(agent);
        fill(&mut input);
        self.dispatch(agent, event, input).await
    }

    /// Dispatches one event, cut short by cancellation (see [`interrupted`]).
    async fn dispatch(&self, agent: &Agent<'_>, event: EventId, input: HookInput) -> Outcome {
        let outcome = if self.engine.has_hooks(event) {
            match self
                .unless_cancelled(self.engine.dispatch(event, input))
                .await
            {
                Some(outcome) => outcome,
                None => return interrupted(event),
            }
        } else if self.is_cancelled() {
            return interrupted(event);
        } else {
            Outcome::empty(event)
        };
        self.report(agent, &outcome);
        outcome
    }

    /// Dispatches a closing event (`turn_end`, `session_end`, the transform of a result that
    /// is stored): it runs to completion even after cancellation, since it is what the
    /// cancellation promised would still happen. A second Ctrl+C is the way out of a slow one.
    async fn dispatch_closing(
        &self,
        agent: &Agent<'_>,
        event: EventId,
        input: HookInput,
    ) -> Outcome {
        if self.is_aborted() {
            return interrupted(event);
        }
        let outcome = if self.engine.has_hooks(event) {
            tokio::select! {
                biased;
                () = until_set(self.abort.as_ref()) => return interrupted(event),
                outcome = self.engine.dispatch(event, input) => outcome,
            }
        } else {
            Outcome::empty(event)
        };
        self.report(agent, &outcome);
        outcome
    }

    fn report(&self, agent: &Agent<'_>, outcome: &Outcome) {
        if let Some(sink) = &self.hook_sink
            && !outcome.trace.is_empty()
        {
            sink(&agent.session_id, outcome);
        }
        self.observe(&RunEvent::Event {
            event: outcome.event,
            agent: agent.name.to_owned(),
            decision: outcome.decision,
            reason: outcome.reason.clone(),
            decided_by: outcome.decided_by.clone(),
            hooks: outcome.trace.len(),
            system_messages: outcome.system_messages.clone(),
            additional_context: outcome.additional_context.clone(),
        });
    }

    /// `notification` (and `on_error` for errors), with a timeline notice.
    async fn notify(
        &self,
        agent: &Agent<'_>,
        level: &str,
        message: &str,
        structured: Option<EventId>,
    ) {
        self.observe(&RunEvent::Notice {
            level: level.to_owned(),
            message: message.to_owned(),
        });
        let fill = |i: &mut HookInput| {
            i.notification_level = Some(level.to_owned());
            i.notification_message = Some(message.to_owned());
        };
        if let Some(event) = structured {
            self.fire(agent, event, fill).await;
        }
        self.fire(agent, EventId::Notification, fill).await;
    }

    async fn turn_end(&self, agent: &Agent<'_>, reason: TurnReason) {
        let mut input = self.input(agent);
        input.reason = Some(reason.as_str().to_owned());
        self.dispatch_closing(agent, EventId::TurnEnd, input).await;
        agent.turn.store(0, Ordering::Relaxed);
    }

    /// Ends the open turn as `canceled`: where every interruption inside a turn comes to.
    async fn cancel_turn<T>(&self, agent: &Agent<'_>) -> Result<T, RunEnd> {
        self.turn_end(agent, TurnReason::Canceled).await;
        Err(RunEnd::Interrupted)
    }

    /// Fires `worktree_create` for a worktree made for this run (before the session starts;
    /// `cwd` is the new checkout). A block aborts the run.
    pub async fn worktree_create(
        &self,
        session_id: &str,
        worktree: &crate::worktree::Worktree,
    ) -> Outcome {
        let agent = self.root(session_id);
        let mut input = self.input(&agent);
        input.cwd = worktree.path.display().to_string();
        input.worktree_path = Some(worktree.path.display().to_string());
        input.worktree_branch = Some(worktree.branch.clone());
        input.worktree_source_dir = Some(worktree.source_dir.display().to_string());
        self.dispatch(&agent, EventId::WorktreeCreate, input).await
    }

    fn root(&self, session_id: &str) -> Agent<'_> {
        Agent::new(
            &self.config.agent_name,
            &*self.model,
            session_id.to_owned(),
            None,
        )
    }

    /// Runs one session: `prompt` (or, without one, whatever the [`Asker`] reads after
    /// `on_user_input`) and then every queued follow-up. `session_end` fires on every path.
    pub async fn run(
        &self,
        session: &mut Session,
        prompt: Option<String>,
        start: Start,
    ) -> RunReport {
        if session.max_iterations == 0 {
            session.max_iterations = self.config.max_iterations;
        }
        let root = self.root(&session.id);
        let source = match start {
            Start::Startup => "startup",
            Start::Resume { .. } => "resume",
        };
        let started = self
            .fire(&root, EventId::SessionStart, |i| {
                i.source = Some(source.to_owned());
            })
            .await;
        // session_start context is persisted for the life of the session.
        session.context.extend(started.additional_context);
        if let Start::Resume {
            previous_max_iterations,
        } = start
        {
            let new = session.max_iterations;
            self.fire(&root, EventId::OnSessionResume, |i| {
                i.previous_max_iterations = Some(previous_max_iterations);
                i.new_max_iterations = Some(new);
            })
            .await;
        }
        let prompt = if prompt.is_some() {
            prompt
        } else {
            self.fire(&root, EventId::OnUserInput, |_| {}).await;
            match &self.asker {
                Some(asker) => self
                    .ask_user(|a| a.read_prompt(), asker, None)
                    .await
                    .flatten(),
                None => None,
            }
        };
        let (mut end, final_text) = match prompt {
            Some(prompt) if !self.is_cancelled() => {
                Box::pin(self.conversation(&root, session, prompt)).await
            }
            _ => (RunEnd::Completed, None),
        };
        // A cancellation that arrived during the last closing hook still ends the run as
        // interrupted: Ctrl+C is never reported as a completed run.
        if self.is_cancelled() {
            end = RunEnd::Interrupted;
        }
        let reason = if end == RunEnd::Completed {
            "prompt_input_exit"
        } else {
            "other"
        };
        let mut input = self.input(&root);
        input.reason = Some(reason.to_owned());
        input.turns = Some(session.turns);
        input
            .extra
            .insert("run_end".to_owned(), Value::from(end.kind()));
        set_cost(&mut input, session.cost);
        self.dispatch_closing(&root, EventId::SessionEnd, input)
            .await;
        let longest = self.engine.config().settings.default_timeout_ms;
        tokio::select! {
            biased;
            () = until_set(self.abort.as_ref()) => {}
            _ = self.engine.drain_background(Duration::from_millis(longest)) => {}
        }
        self.observe(&RunEvent::Finished {
            end: end.clone(),
            final_text: final_text.clone(),
            session_id: session.id.clone(),
            usage: session.usage,
        });
        RunReport { end, final_text }
    }

    async fn conversation(
        &self,
        root: &Agent<'_>,
        session: &mut Session,
        prompt: String,
    ) -> (RunEnd, Option<String>) {
        let mut queue: VecDeque<(EventId, String)> = VecDeque::new();
        queue.push_back((EventId::UserPromptSubmit, prompt));
        for followup in &self.config.followups {
            queue.push_back((EventId::UserFollowupSubmit, followup.clone()));
        }
        let mut steering = self.config.steering.clone();
        let mut final_text = None;
        while let Some((event, text)) = queue.pop_front() {
            if self.is_cancelled() {
                return (RunEnd::Interrupted, final_text);
            }
            let submitted = self
                .fire(root, event, |i| i.prompt = Some(text.clone()))
                .await;
            if self.is_cancelled() {
                return (RunEnd::Interrupted, final_text);
            }
            if submitted.blocked() || submitted.stop.is_some() {
                return (
                    RunEnd::HookBlocked {
                        event,
                        reason: reason_of(&submitted),
                    },
                    final_text,
                );
            }
            // The Go SDK's `updated_prompt`: the model sees the rewritten prompt (only
            // user_prompt_submit's contract takes it; the aggregator drops it elsewhere).
            let text = submitted.updated_prompt.unwrap_or(text);
            // Transient: spliced into this user turn's model calls, never persisted.
            let mut transient = submitted.additional_context;
            session
                .conversation
                .messages
                .push(Message::text(Role::User, text));
            if !steering.is_empty() {
                let drained = std::mem::take(&mut steering);
                let steered = self
                    .fire(root, EventId::UserSteeringMessagesSubmit, |i| {
                        i.steering_messages = Some(drained.clone());
                    })
                    .await;
                if self.is_cancelled() {
                    return (RunEnd::Interrupted, final_text);
                }
                if steered.blocked() || steered.stop.is_some() {
                    return (
                        RunEnd::HookBlocked {
                            event: EventId::UserSteeringMessagesSubmit,
                            reason: reason_of(&steered),
                        },
                        final_text,
                    );
                }
                transient.extend(steered.additional_context);
                for message in drained {
                    session
                        .conversation
                        .messages
                        .push(Message::text(Role::User, message));
                }
            }
            let mut conversation = std::mem::take(&mut session.conversation);
            let result =
                Box::pin(self.agent_loop(root, session, &mut conversation, transient)).await;
            session.conversation = conversation;
            match result {
                Ok(text) => final_text = Some(text),
                Err(end) => return (end, final_text),
            }
            if self.is_cancelled() {
                return (RunEnd::Interrupted, final_text);
            }
        }
        (RunEnd::Completed, final_text)
    }

    fn offered_tools(&self, agent: &Agent<'_>) -> Vec<ToolSpec> {
        let mut specs = tools::specs();
        // Only the root delegates: a sub-agent handing work on would hide who ran what.
        if agent.parent_session_id.is_none() && !self.config.subagents.is_empty() {
            let agents: Vec<(String, String)> = self
                .config
                .subagents
                .iter()
                .map(|s| (s.name.clone(), s.description.clone()))
                .collect();
            specs.push(tools::transfer_spec(&agents));
        }
        specs
    }

    fn outgoing(
        &self,
        session: &Session,
        conversation: &Conversation,
        transient: &[String],
    ) -> Vec<Message> {
        let mut system = self.config.system_prompt.clone();
        for context in &session.context {
            system.push_str("\n\n");
            system.push_str(context);
        }
        if let Some(summary) = &conversation.summary {
            system.push_str("\n\nSummary of the earlier conversation:\n");
            system.push_str(summary);
        }
        let mut messages = vec![Message::text(Role::System, system)];
        messages.extend(conversation.messages.iter().cloned());
        if !transient.is_empty() {
            messages.push(Message::text(Role::System, transient.join("\n\n")));
        }
        messages
    }

    /// One agent's model/tool loop until it answers without tools. `Err` ends the run.
    #[allow(clippy::too_many_lines)] // one documented sequence; splitting it hides the order
    async fn agent_loop(
        &self,
        agent: &Agent<'_>,
        session: &mut Session,
        conversation: &mut Conversation,
        transient: Vec<String>,
    ) -> Result<String, RunEnd> {
        let mut post_context: Vec<String> = Vec::new();
        let mut last_batch: Option<Vec<(String, Value)>> = None;
        let mut repeats: u32 = 0;
        loop {
            if self.is_cancelled() {
                return Err(RunEnd::Interrupted);
            }
            let max = session.max_iterations;
            if max > 0 && conversation.iterations >= max {
                let message = format!("{} reached the maximum of {max} iterations", agent.name);
                self.notify(agent, "warning", &message, Some(EventId::OnMaxIterations))
                    .await;
                let go_on = match &self.asker {
                    Some(asker) => {
                        self.fire(agent, EventId::OnUserInput, |_| {}).await;
                        self.ask_user(move |a| a.continue_past(max), asker, false)
                            .await
                            .unwrap_or(false)
                    }
                    None => false,
                };
                if self.is_cancelled() {
                    return Err(RunEnd::Interrupted);
                }
                if !go_on {
                    return Err(RunEnd::MaxIterations {
                        max_iterations: max,
                    });
                }
                let new = max + self.config.max_iterations.max(1);
                session.max_iterations = new;
                self.fire(agent, EventId::OnSessionResume, |i| {
                    i.previous_max_iterations = Some(max);
                    i.new_max_iterations = Some(new);
                })
                .await;
            }
            self.maybe_compact(agent, conversation).await;
            if self.is_cancelled() {
                return Err(RunEnd::Interrupted);
            }
            conversation.iterations += 1;
            session.turns += 1;
            let iteration = conversation.iterations;
            // From here on the turn is open: every way out goes through turn_end.
            agent.turn.store(iteration, Ordering::Relaxed);
            let started = self.fire(agent, EventId::TurnStart, |_| {}).await;
            if self.is_cancelled() {
                return self.cancel_turn(agent).await;
            }
            let mut turn_context = transient.clone();
            turn_context.append(&mut post_context);
            turn_context.extend(started.additional_context);
            let mut outgoing = self.outgoing(session, conversation, &turn_context);
            let model_id = agent.model.name().to_owned();
            // Our own message type always serializes; `null` would only tell hooks nothing.
            let messages_value = serde_json::to_value(&outgoing).unwrap_or(Value::Null);
            let before = self
                .fire(agent, EventId::BeforeLlmCall, |i| {
                    i.iteration = Some(iteration);
                    i.model_id = Some(model_id.clone());
                    i.messages = Some(messages_value);
                })
                .await;
            if self.is_cancelled() {
                return self.cancel_turn(agent).await;
            }
            if before.blocked() || before.stop.is_some() {
                self.turn_end(agent, TurnReason::HookBlocked).await;
                return Err(RunEnd::HookBlocked {
                    event: EventId::BeforeLlmCall,
                    reason: reason_of(&before),
                });
            }
            if let Some(updated) = before.updated_messages {
                match serde_json::from_value::<Vec<Message>>(updated) {
                    Ok(messages) => outgoing = messages,
                    Err(e) => {
                        let message = format!(
                            "before_llm_call: updated_messages is not a message list ({e}); the original messages were sent"
                        );
                        self.notify(agent, "warning", &message, None).await;
                    }
                }
            }
            let request = ChatRequest {
                messages: outgoing,
                tools: self.offered_tools(agent),
                response_schema: None,
                max_tokens: None,
            };
            self.observe(&RunEvent::ModelCall {
                agent: agent.name.to_owned(),
                iteration,
                model: model_id.clone(),
            });
            let Some(reply) = self.unless_cancelled(agent.model.complete(&request)).await else {
                return self.cancel_turn(agent).await;
            };
            let reply = match reply {
                Ok(reply) => reply,
                Err(e) => {
                    let message = format!("model call failed: {e}");
                    self.notify(agent, "error", &message, Some(EventId::OnError))
                        .await;
                    if self.is_cancelled() {
                        return self.cancel_turn(agent).await;
                    }
                    self.turn_end(agent, TurnReason::Error).await;
                    return Err(RunEnd::ModelError { message });
                }
            };
            session.usage.input_tokens += reply.usage.input_tokens;
            session.usage.output_tokens += reply.usage.output_tokens;
            session.cost = session.cost.zip(reply.cost).map(|(a, b)| a + b);
            conversation.last_input_tokens = reply.usage.input_tokens;
            conversation.last_output_tokens = reply.usage.output_tokens;
            self.observe(&RunEvent::ModelReply {
                agent: agent.name.to_owned(),
                text: reply.message.text.clone(),
                tool_calls: reply.message.tool_calls.len(),
                usage: reply.usage,
            });
            let last_user = last_user_message(&conversation.messages);
            let usage = json!({
                "input_tokens": reply.usage.input_tokens,
                "output_tokens": reply.usage.output_tokens,
            });
            let text = reply.message.text.clone();
            let call_names: Vec<Value> = reply
                .message
                .tool_calls
                .iter()
                .map(|c| Value::String(c.name.clone()))
                .collect();
            let stop_reason = serde_json::to_value(reply.stop_reason).unwrap_or(Value::Null);
            self.fire(agent, EventId::AfterLlmCall, |i| {
                i.stop_response = Some(text.clone());
                i.last_user_message.clone_from(&last_user);
                i.model_id = Some(model_id.clone());
                i.usage = Some(usage);
                set_cost(i, reply.cost);
                // Meerkat's `llm_response` reads these (`tool_call_names`, `stop_reason`).
                i.extra
                    .insert("tool_call_names".to_owned(), Value::Array(call_names));
                i.extra.insert("stop_reason".to_owned(), stop_reason);
            })
            .await;
            let calls = reply.message.tool_calls.clone();
            conversation.messages.push(reply.message);
            if self.is_cancelled() {
                for call in &calls {
                    conversation.messages.push(Message::tool_result(
                        &call.id,
                        "skipped: the run was interrupted",
                        true,
                    ));
                }
                return self.cancel_turn(agent).await;
            }
            if calls.is_empty() {
                // stop's context is recorded on the timeline; the turn is over, so there is
                // no model call left for it to reach.
                self.fire(agent, EventId::Stop, |i| {
                    i.stop_response = Some(text.clone());
                    i.last_user_message.clone_from(&last_user);
                })
                .await;
                if self.is_cancelled() {
                    return self.cancel_turn(agent).await;
                }
                self.turn_end(agent, TurnReason::Normal).await;
                return Ok(text);
            }
            let batch = signature(&calls);
            if last_batch.as_ref() == Some(&batch) {
                repeats += 1;
            } else {
                last_batch = Some(batch);
                repeats = 1;
            }
            let threshold = self.config.loop_threshold;
            if threshold > 0 && repeats >= threshold {
                let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                let message = format!(
                    "loop detected: the model made the same call ({}) {repeats} times in a row",
                    names.join(", ")
                );
                for call in &calls {
                    conversation.messages.push(Message::tool_result(
                        &call.id,
                        "skipped: the loop detector stopped the run",
                        true,
                    ));
                }
                self.notify(agent, "error", &message, Some(EventId::OnError))
                    .await;
                if self.is_cancelled() {
                    return self.cancel_turn(agent).await;
                }
                self.turn_end(agent, TurnReason::LoopDetected).await;
                return Err(RunEnd::LoopDetected { message });
            }
            let mut stop: Option<String> = None;
            let mut cancelled = false;
            for call in &calls {
                if stop.is_some() || cancelled || self.is_cancelled() {
                    let why = if stop.is_some() {
                        "skipped because a post_tool_use hook signalled run termination"
                    } else {
                        cancelled = true;
                        "skipped: the run was interrupted"
                    };
                    conversation
                        .messages
                        .push(Message::tool_result(&call.id, why, true));
                    continue;
                }
                let done = Box::pin(self.tool_call(agent, session, call)).await;
                conversation.messages.push(done.result);
                post_context.extend(done.context);
                cancelled |= done.cancelled;
                if stop.is_none() {
                    stop = done.stop;
                }
            }
            if cancelled || self.is_cancelled() {
                return self.cancel_turn(agent).await;
            }
            if let Some(reason) = stop {
                self.turn_end(agent, TurnReason::HookBlocked).await;
                return Err(RunEnd::HookBlocked {
                    event: EventId::PostToolUse,
                    reason,
                });
            }
            self.turn_end(agent, TurnReason::Continue).await;
        }
    }

    fn tool_input(
        &self,
        agent: &Agent<'_>,
        call: &ToolCall,
        input: &Map<String, Value>,
    ) -> HookInput {
        let mut hook = self.input(agent);
        hook.tool_name = Some(call.name.clone());
        hook.tool_use_id = Some(call.id.clone());
        hook.tool_category = Some(tools::category(&call.name).to_owned());
        hook.tool_input = Some(input.clone());
        hook
    }

    /// One tool call through the lanes, the approval mode, the tool and the after-hooks.
    async fn tool_call(
        &self,
        agent: &Agent<'_>,
        session: &mut Session,
        call: &ToolCall,
    ) -> ToolStep {
        let original = match &call.input {
            Value::Object(map) => map.clone(),
            // Not an object: nothing can judge it, so nothing runs it.
            _ => Map::new(),
        };
        self.observe(&RunEvent::ToolCall {
            agent: agent.name.to_owned(),
            id: call.id.clone(),
            name: call.name.clone(),
            input: original.clone(),
        });
        let Some(lanes) = self
            .unless_cancelled(Box::pin(
                self.engine
                    .dispatch_tool_call(self.tool_input(agent, call, &original)),
            ))
            .await
        else {
            return ToolStep {
                result: Message::tool_result(&call.id, "skipped: the run was interrupted", true),
                context: Vec::new(),
                stop: None,
                cancelled: true,
            };
        };
        for lane in &lanes.lanes {
            self.report(agent, lane);
        }
        let input = lanes.tool_input.clone().unwrap_or(original);
        let verdict = if call.input.is_object() {
            self.approve(agent, call, &lanes, &input).await
        } else {
            Verdict::new(ApprovalDecision::Deny, "invalid_input")
                .because(Some("the tool input is not a JSON object".to_owned()), None)
        };
        let Verdict {
            decision,
            source,
            reason,
            decided_by,
        } = verdict;
        let hook = self.tool_input(agent, call, &input);
        let mut decided = hook.clone();
        decided.approval_decision = Some(decision.as_str().to_owned());
        decided.approval_source = Some(source.clone());
        if decision == ApprovalDecision::Canceled {
            // The hooks are told the call was canceled, even though the run is ending.
            self.dispatch_closing(agent, EventId::OnToolApprovalDecision, decided)
                .await;
        } else {
            self.dispatch(agent, EventId::OnToolApprovalDecision, decided)
                .await;
        }
        self.observe(&RunEvent::Approval {
            id: call.id.clone(),
            name: call.name.clone(),
            decision,
            source: source.clone(),
            reason: reason.clone(),
            decided_by,
        });
        let mut cancelled = self.is_cancelled();
        let started = Instant::now();
        let output = if decision == ApprovalDecision::Allow && !cancelled {
            if call.name == tools::TRANSFER_TASK {
                // Not raced: the sub-agent's own loop sees the cancellation and closes its
                // turn; dropping it here would leave that turn without its turn_end.
                let output = self.execute(agent, session, &call.name, &input).await;
                cancelled = self.is_cancelled();
                output
            } else if let Some(output) = self
                .unless_cancelled(self.execute(agent, session, &call.name, &input))
                .await
            {
                output
            } else {
                cancelled = true;
                ToolOutput::error("the run was interrupted while the tool ran")
            }
        } else if cancelled {
            ToolOutput::error("skipped: the run was interrupted")
        } else {
            ToolOutput::error(format!(
                "The tool call was rejected ({source}): {}",
                reason.as_deref().unwrap_or("not approved")
            ))
        };
        let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        let ran = decision == ApprovalDecision::Allow && !cancelled;
        // Transforms see synthesized rejections too, so a redaction covers every result —
        // an interrupted one included, since it is stored with the session.
        let mut transform_input = hook.clone();
        transform_input.tool_response = Some(Value::String(output.text.clone()));
        let transformed = self
            .dispatch_closing(agent, EventId::ToolResponseTransform, transform_input)
            .await;
        let mut text = match transformed.updated_tool_response {
            Some(Value::String(s)) => s,
            Some(other) => other.to_string(),
            None => output.text,
        };
        let mut truncated = false;
        let start_line = input.get("line").and_then(Value::as_u64).unwrap_or(1);
        if let Some(cut) = limit::limit(
            &call.name,
            &text,
            self.config.max_tool_result_bytes,
            start_line,
        ) {
            text = cut;
            truncated = true;
        }
        let mut context = Vec::new();
        let mut stop = None;
        if ran {
            let mut post = hook;
            post.tool_response = Some(Value::String(text.clone()));
            post.tool_error = Some(output.is_error);
            // The Go SDK's PostToolUse duration: the tool's own wall time.
            post.duration_ms = Some(duration_ms);
            let after = self.dispatch(agent, EventId::PostToolUse, post).await;
            cancelled = self.is_cancelled();
            if !cancelled && (after.blocked() || after.stop.is_some()) {
                stop = Some(reason_of(&after));
            }
            context = after.additional_context;
        }
        self.observe(&RunEvent::ToolResult {
            id: call.id.clone(),
            name: call.name.clone(),
            is_error: output.is_error,
            bytes: text.len(),
            truncated,
        });
        ToolStep {
            result: Message::tool_result(&call.id, text, output.is_error),
            context,
            stop,
            cancelled,
        }
    }

    /// The approval chain after the lanes: a lane's deny is final in every mode; a lane's
    /// `ask` reaches a person in every mode (yolo included); otherwise the mode decides.
    async fn approve(
        &self,
        agent: &Agent<'_>,
        call: &ToolCall,
        lanes: &ToolCallOutcome,
        input: &Map<String, Value>,
    ) -> Verdict {
        if self.is_cancelled() {
            return Verdict::new(ApprovalDecision::Canceled, "context_canceled");
        }
        let lane = lanes
            .lanes
            .iter()
            .find(|o| o.decided_by.is_some() && o.decided_by == lanes.decided_by)
            .map_or("pre_tool_use", |o| o.event.name());
        if lanes.blocked() {
            return Verdict::new(ApprovalDecision::Deny, format!("{lane}_hook_deny"))
                .because(lanes.reason.clone(), lanes.decided_by.clone());
        }
        let read_only = tools::is_read_only(&call.name);
        let hook_asks = lanes.decision == Some(Decision::Ask);
        match self.config.approval {
            ApprovalMode::Readonly if !read_only => {
                return Verdict::new(ApprovalDecision::Deny, "mode_readonly").because(
                    Some(format!(
                        "readonly mode runs only read-only tools, not `{}`",
                        call.name
                    )),
                    None,
                );
            }
            ApprovalMode::Readonly if !hook_asks => {
                return Verdict::new(ApprovalDecision::Allow, "readonly_hint");
            }
            ApprovalMode::Yolo if !hook_asks => {
                return Verdict::new(ApprovalDecision::Allow, "yolo");
            }
            ApprovalMode::Ask if lanes.decision == Some(Decision::Allow) => {
                return Verdict::new(ApprovalDecision::Allow, format!("{lane}_hook_allow"))
                    .because(lanes.reason.clone(), lanes.decided_by.clone());
            }
            ApprovalMode::Ask if read_only && !hook_asks => {
                return Verdict::new(ApprovalDecision::Allow, "readonly_hint");
            }
            _ => {}
        }
        // Someone would be asked: permission_request hooks answer first.
        let permission = self
            .dispatch(
                agent,
                EventId::PermissionRequest,
                self.tool_input(agent, call, input),
            )
            .await;
        if self.is_cancelled() {
            return Verdict::new(ApprovalDecision::Canceled, "context_canceled");
        }
        if permission.blocked() {
            return Verdict::new(ApprovalDecision::Deny, "permission_request_hook_deny")
                .because(permission.reason.clone(), permission.decided_by.clone());
        }
        if permission.decision == Some(Decision::Allow) {
            return Verdict::new(ApprovalDecision::Allow, "permission_request_hook_allow")
                .because(permission.reason.clone(), permission.decided_by.clone());
        }
        self.fire(agent, EventId::OnUserInput, |_| {}).await;
        if self.is_cancelled() {
            return Verdict::new(ApprovalDecision::Canceled, "context_canceled");
        }
        let Some(asker) = &self.asker else {
            return Verdict::new(ApprovalDecision::Deny, "no_user").because(
                Some("approval needed and there is nobody to ask (no terminal)".to_owned()),
                None,
            );
        };
        let (name, shown) = (call.name.clone(), input.clone());
        match self
            .ask_user(move |a| a.approve(&name, &shown), asker, false)
            .await
        {
            None => Verdict::new(ApprovalDecision::Canceled, "context_canceled"),
            Some(true) => Verdict::new(ApprovalDecision::Allow, "user_approved"),
            Some(false) => Verdict::new(ApprovalDecision::Deny, "user_rejected")
                .because(Some("the user rejected the call".to_owned()), None),
        }
    }

    async fn execute(
        &self,
        agent: &Agent<'_>,
        session: &mut Session,
        name: &str,
        input: &Map<String, Value>,
    ) -> ToolOutput {
        if name == tools::TRANSFER_TASK && agent.parent_session_id.is_none() {
            return Box::pin(self.transfer(agent, session, input)).await;
        }
        tools::execute(name, input, &self.config.cwd).await
    }

    /// `transfer_task`: the sub-agent runs its own loop on the same engine, bracketed by
    /// `on_agent_switch` both ways; `subagent_stop` goes to the parent's hooks.
    async fn transfer(
        &self,
        parent: &Agent<'_>,
        session: &mut Session,
        input: &Map<String, Value>,
    ) -> ToolOutput {
        let transfer: TransferInput = match tools::parse(tools::TRANSFER_TASK, input) {
            Ok(t) => t,
            Err(e) => return ToolOutput::error(e),
        };
        let Some(sub) = self
            .config
            .subagents
            .iter()
            .find(|s| s.name == transfer.agent)
        else {
            return ToolOutput::error(format!("no sub-agent named `{}`", transfer.agent));
        };
        self.switch(
            parent,
            (parent.name, parent.model),
            &sub.name,
            "transfer_task",
        )
        .await;
        let child = Agent::new(
            &sub.name,
            &*sub.model,
            format!("{}/{}", parent.session_id, sub.name),
            Some(parent.session_id.clone()),
        );
        let mut conversation = Conversation {
            messages: vec![Message::text(Role::User, transfer.task)],
            ..Conversation::default()
        };
        let result =
            Box::pin(self.agent_loop(&child, session, &mut conversation, Vec::new())).await;
        let answer = match &result {
            Ok(text) => text.clone(),
            Err(end) => format!("the sub-agent ended without an answer: {}", end.kind()),
        };
        let parent_id = parent.session_id.clone();
        let stop_response = answer.clone();
        self.fire(parent, EventId::SubagentStop, |i| {
            i.agent_name = Some(sub.name.clone());
            i.parent_session_id = Some(parent_id);
            i.stop_response = Some(stop_response);
        })
        .await;
        self.switch(
            parent,
            (&sub.name, &*sub.model),
            parent.name,
            "transfer_task_return",
        )
        .await;
        match result {
            Ok(text) => ToolOutput {
                text,
                is_error: false,
            },
            Err(_) => ToolOutput::error(answer),
        }
    }

    /// `on_agent_switch` from `from` (its name and model, whose endpoint is reported in
    /// `from_agent_models`: `model`, and `provider` and `base_url` when it has an endpoint, so
    /// `unload` can free a departing Docker Model Runner model) to `to`, fired on the parent's
    /// hooks.
    async fn switch(&self, parent: &Agent<'_>, from: (&str, &dyn Model), to: &str, kind: &str) {
        let mut model = json!({"model": from.1.name()});
        if let Some(endpoint) = from.1.endpoint() {
            model["provider"] = Value::from(endpoint.provider);
            model["base_url"] = Value::from(endpoint.base_url);
        }
        let models = json!([model]);
        self.fire(parent, EventId::OnAgentSwitch, |i| {
            i.from_agent = Some(from.0.to_owned());
            i.to_agent = Some(to.to_owned());
            i.agent_switch_kind = Some(kind.to_owned());
            i.from_agent_models = Some(models);
        })
        .await;
    }

    /// Compaction when the last model call's input reached the threshold: `pre_compact`
    /// (context steers the summary, a block cancels) → `before_compaction` (a block vetoes, a
    /// `summary` is used verbatim) → the summary → `after_compaction`.
    ///
    /// Old tool results and assistant texts are cleared but every message is kept, so tool
    /// calls stay paired with their results (providers reject orphans) and a scripted model
    /// still counts its turns.
    async fn maybe_compact(&self, agent: &Agent<'_>, conversation: &mut Conversation) {
        let threshold = self.config.compact_at_tokens;
        if threshold == 0 || conversation.last_input_tokens < threshold {
            return;
        }
        let input_tokens = conversation.last_input_tokens;
        let output_tokens = conversation.last_output_tokens;
        // Measured again by the next model call; a vetoed compaction is retried then.
        conversation.last_input_tokens = 0;
        let pre = self
            .fire(agent, EventId::PreCompact, |i| {
                i.source = Some("auto".to_owned());
            })
            .await;
        if pre.blocked() {
            return;
        }
        let context_limit = self.config.context_limit;
        let fill = |i: &mut HookInput| {
            i.input_tokens = Some(input_tokens);
            i.output_tokens = Some(output_tokens);
            i.context_limit = Some(context_limit);
            i.compaction_reason = Some("threshold".to_owned());
        };
        let before = self.fire(agent, EventId::BeforeCompaction, fill).await;
        if before.blocked() {
            return;
        }
        let summary = match before.summary.filter(|s| !s.is_empty()) {
            Some(summary) => summary,
            None => match self
                .summarize(agent, conversation, &pre.additional_context)
                .await
            {
                Ok(summary) => summary,
                Err(message) => {
                    self.notify(agent, "warning", &message, None).await;
                    return;
                }
            },
        };
        let keep_from = conversation
            .messages
            .iter()
            .rposition(|m| m.role == Role::User)
            .unwrap_or(0);
        for message in &mut conversation.messages[..keep_from] {
            match message.role {
                Role::Tool => "[compacted]".clone_into(&mut message.text),
                Role::Assistant => message.text.clear(),
                Role::User | Role::System => {}
            }
        }
        conversation.summary = Some(match conversation.summary.take() {
            Some(previous) => format!("{previous}\n{summary}"),
            None => summary.clone(),
        });
        self.fire(agent, EventId::AfterCompaction, |i| {
            fill(i);
            i.summary = Some(summary);
        })
        .await;
    }

    async fn summarize(
        &self,
        agent: &Agent<'_>,
        conversation: &Conversation,
        guidance: &[String],
    ) -> Result<String, String> {
        let mut transcript = String::new();
        for m in &conversation.messages {
            let role = match m.role {
                Role::System => "system",
                Role::User => "user",
                Role::Assistant => "assistant",
                Role::Tool => "tool",
            };
            let _ = writeln!(transcript, "{role}: {}", m.text);
            for c in &m.tool_calls {
                let _ = writeln!(transcript, "assistant called {} {}", c.name, c.input);
            }
        }
        let mut ask = "Summarize this conversation so that the work can continue from the summary alone: keep the task, decisions, file names and open questions.".to_owned();
        for g in guidance {
            ask.push_str("\n\n");
            ask.push_str(g);
        }
        let request = ChatRequest {
            messages: vec![
                Message::text(Role::System, ask),
                Message::text(Role::User, transcript),
            ],
            ..ChatRequest::default()
        };
        agent
            .model
            .complete(&request)
            .await
            .map(|r| r.message.text)
            .map_err(|e| format!("compaction skipped: the summary call failed: {e}"))
    }
}

/// Sets `cost`: a number when known, an explicit `null` when unpriced (so a hook can tell
/// "unknown" from "this event has no cost field").
fn set_cost(input: &mut HookInput, cost: Option<f64>) {
    match cost {
        Some(cost) => input.cost = Some(cost),
        None => {
            input.extra.insert("cost".to_owned(), Value::Null);
        }
    }
}

/// Resolves once `flag` is true; never without a channel (or once its sender is gone, since
/// then nobody can set it any more).
async fn until_set(flag: Option<&watch::Receiver<bool>>) {
    if let Some(flag) = flag {
        let mut flag = flag.clone();
        if flag.wait_for(|f| *f).await.is_ok() {
            return;
        }
    }
    std::future::pending::<()>().await;
}
