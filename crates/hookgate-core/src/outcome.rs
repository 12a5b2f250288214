//! Aggregating the results of one event's hooks into one outcome.
//!
//! The [`Aggregator`] is fed results *in priority-then-registration order* (the engine
//! guarantees that order whatever order hooks completed in), so the outcome is deterministic.
//! It is pure: every rule of the decision lattice, the chain modes, failure handling and
//! merging lives here where it can be tested without processes or clocks.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::catalog::{Contract, EventId, Rewrite};
use crate::decision::Decision;
use crate::hook::{Capability, ChainMode, Mode, OnError, RuntimeKind};
use crate::id::HookId;
use crate::input::HookInput;
use crate::output::{HookResponse, ParsedOutput};

/// What one hook run produced, before interpretation against the contract.
#[derive(Debug, Clone, PartialEq)]
pub enum HookStatus {
    /// The hook ran and printed (or returned) this.
    Output(ParsedOutput),
    /// The hook asked to block without JSON (exit status 2); the text is its stderr.
    Blocked(String),
    /// The hook failed: timeout, crash, bad output, oversize output, unexpected exit status.
    Failed(String),
}

/// One hook's result, with the settings needed to interpret it.
#[derive(Debug, Clone, PartialEq)]
pub struct HookResult {
    /// The configured id.
    pub id: HookId,
    /// Which runtime ran it.
    pub runtime: RuntimeKind,
    /// Whether it may decide.
    pub capability: Capability,
    /// What a failure means off fail-closed events.
    pub on_error: OnError,
    /// How long it ran.
    pub duration: Duration,
    /// What it produced.
    pub status: HookStatus,
}

/// What the engine should do after a result was pushed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Run the next hook.
    Continue,
    /// The chain is decided: skip the remaining foreground hooks (and, after a deny, the
    /// background ones).
    Stop,
}

/// The per-hook entry of the trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookTrace {
    /// The configured id.
    pub id: HookId,
    /// Which runtime ran it.
    pub runtime: RuntimeKind,
    /// Foreground or background.
    pub mode: Mode,
    /// Wall time in milliseconds.
    pub duration_ms: f64,
    /// What it came to.
    #[serde(flatten)]
    pub result: TraceResult,
    /// Outputs that were ignored, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A hook's result as recorded in the trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum TraceResult {
    /// Ran, expressed no verdict.
    NoOpinion,
    /// Allowed.
    Allow {
        /// Why, if given.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Asked for a human.
    Ask {
        /// Why, if given.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Denied / blocked.
    Deny {
        /// Why.
        reason: String,
    },
    /// Failed; `blocked` says whether the failure blocked the event.
    Failed {
        /// What went wrong.
        reason: String,
        /// True when the failure blocked (fail-closed event or `on_error: block`).
        blocked: bool,
    },
    /// Not run.
    Skipped {
        /// Why not.
        why: String,
    },
    /// Started in the background; its result does not affect this outcome.
    Started,
}

/// Background hooks of one dispatch.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BackgroundReport {
    /// Started.
    pub started: Vec<HookId>,
    /// Skipped because the concurrency limit was reached (never waited for).
    pub skipped: Vec<HookId>,
}

/// The aggregated result of dispatching one event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The event dispatched.
    pub event: EventId,
    /// The strongest verdict; `None` is "no opinion".
    pub decision: Option<Decision>,
    /// Why, from the first hook that reached that verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The hook whose verdict decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<HookId>,
    /// A hook asked to stop the agent (`continue: false`), with this reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
    /// The tool input after every accepted patch (only when something changed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// The tool response after every rewrite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_response: Option<Value>,
    /// The model messages after every rewrite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_messages: Option<Value>,
    /// The user's prompt after every rewrite (user_prompt_submit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_prompt: Option<String>,
    /// Context, in hook order.
    pub additional_context: Vec<String>,
    /// Warnings for the user, in hook order.
    pub system_messages: Vec<String>,
    /// The compaction summary (first non-empty wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Metadata (last writer wins).
    pub metadata: BTreeMap<String, String>,
    /// One entry per configured hook that matched, in order.
    pub trace: Vec<HookTrace>,
    /// Background hooks.
    pub background: BackgroundReport,
}

impl Outcome {
    /// True when the operation must not proceed (a deny or a stop).
    pub fn blocked(&self) -> bool {
        self.decision == Some(Decision::Deny)
    }

    /// True when nothing blocked and nobody asked for a human.
    pub fn allowed(&self) -> bool {
        !matches!(self.decision, Some(Decision::Deny | Decision::Ask))
    }

    /// An outcome with no hooks run.
    pub fn empty(event: EventId) -> Self {
        Self {
            event,
            decision: None,
            reason: None,
            decided_by: None,
            stop: None,
            updated_input: None,
            updated_tool_response: None,
            updated_messages: None,
            updated_prompt: None,
            additional_context: Vec::new(),
            system_messages: Vec::new(),
            summary: None,
            metadata: BTreeMap::new(),
            trace: Vec::new(),
            background: BackgroundReport::default(),
        }
    }
}

/// Lifecycle events delivered to embedders (and recorded by the CLI as the trace).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LifecycleEvent {
    /// A hook began running.
    HookStarted {
        /// The hook.
        hook_id: HookId,
        /// The event.
        event: EventId,
    },
    /// A hook finished without failing.
    HookCompleted {
        /// The hook.
        hook_id: HookId,
        /// The event.
        event: EventId,
        /// Wall time.
        duration_ms: f64,
    },
    /// A hook failed.
    HookFailed {
        /// The hook.
        hook_id: HookId,
        /// The event.
        event: EventId,
        /// Wall time.
        duration_ms: f64,
        /// What went wrong.
        reason: String,
    },
    /// A hook's verdict was a deny.
    HookDenied {
        /// The hook.
        hook_id: HookId,
        /// The event.
        event: EventId,
        /// Wall time.
        duration_ms: f64,
        /// Why.
        reason: String,
    },
}

/// Folds hook results, in order, into an [`Outcome`].
#[derive(Debug)]
pub struct Aggregator {
    contract: &'static Contract,
    chain: ChainMode,
    outcome: Outcome,
    /// The tool input as the next hook must see it (sequential events).
    current_input: Option<Map<String, Value>>,
    input_changed: bool,
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

impl Aggregator {
    /// Starts aggregating for `event`, whose tool input (if any) is `input`.
    pub fn new(event: EventId, chain: ChainMode, input: &HookInput) -> Self {
        Self {
            contract: event.contract(),
            chain,
            outcome: Outcome::empty(event),
            current_input: input.tool_input.clone(),
            input_changed: false,
        }
    }

    /// Rewrites `input` so the next hook sees every accepted rewrite so far.
    ///
    /// INVARIANT: patches are shallow merges over the *current* input, never a replacement, so
    /// a hook that returns only the keys it changed cannot drop the others.
    pub fn apply_rewrites(&self, input: &mut HookInput) {
        if self.input_changed {
            input.tool_input.clone_from(&self.current_input);
        }
        if let Some(response) = &self.outcome.updated_tool_response {
            input.tool_response = Some(response.clone());
        }
        if let Some(messages) = &self.outcome.updated_messages {
            input.messages = Some(messages.clone());
        }
        if let Some(prompt) = &self.outcome.updated_prompt {
            input.prompt = Some(prompt.clone());
        }
    }

    /// Records a hook that was not run.
    pub fn skip(&mut self, id: HookId, runtime: RuntimeKind, mode: Mode, why: impl Into<String>) {
        self.outcome.trace.push(HookTrace {
            id,
            runtime,
            mode,
            duration_ms: 0.0,
            result: TraceResult::Skipped { why: why.into() },
            notes: Vec::new(),
        });
    }

    /// Records a background hook that was started (or skipped for want of a slot).
    pub fn background(&mut self, id: HookId, runtime: RuntimeKind, started: bool) {
        if started {
            self.outcome.background.started.push(id.clone());
            self.outcome.trace.push(HookTrace {
                id,
                runtime,
                mode: Mode::Background,
                duration_ms: 0.0,
                result: TraceResult::Started,
                notes: Vec::new(),
            });
        } else {
            self.outcome.background.skipped.push(id.clone());
            self.skip(
                id,
                runtime,
                Mode::Background,
                "background concurrency limit reached",
            );
        }
    }

    /// True when a deny has been recorded (background hooks are then skipped).
    pub fn denied(&self) -> bool {
        self.outcome.blocked()
    }

    /// Folds one foreground result and says whether the chain goes on.
    ///
    /// Also returns the lifecycle event that closes this hook's run.
    pub fn push(&mut self, result: HookResult) -> (Flow, LifecycleEvent) {
        let event = self.contract.event;
        let name = event.name();
        let duration_ms = millis(result.duration);
        let mut notes = Vec::new();
        let (trace_result, lifecycle) = match result.status {
            HookStatus::Failed(reason) => {
                let blocked = self.fail(&result.id, result.on_error, &reason);
                let lifecycle = LifecycleEvent::HookFailed {
                    hook_id: result.id.clone(),
                    event,
                    duration_ms,
                    reason: reason.clone(),
                };
                (TraceResult::Failed { reason, blocked }, lifecycle)
            }
            HookStatus::Blocked(stderr) => {
                let reason = if stderr.trim().is_empty() {
                    format!("blocked by hook `{}`", result.id)
                } else {
                    stderr.trim().to_owned()
                };
                let response = HookResponse {
                    decision: Some(Decision::Deny),
                    reason: Some(reason),
                    ..HookResponse::default()
                };
                self.apply(&result.id, result.capability, response, &mut notes)
            }
            HookStatus::Output(ParsedOutput::Empty) => (
                TraceResult::NoOpinion,
                self.completed(&result.id, duration_ms),
            ),
            HookStatus::Output(ParsedOutput::Plain(text)) => {
                if self.contract.context.consumed() {
                    self.outcome.additional_context.push(text);
                } else {
                    notes.push(format!(
                        "plain stdout ignored: `{name}` does not consume context"
                    ));
                }
                (
                    TraceResult::NoOpinion,
                    self.completed(&result.id, duration_ms),
                )
            }
            HookStatus::Output(ParsedOutput::Json(response)) => {
                self.apply(&result.id, result.capability, *response, &mut notes)
            }
        };
        let lifecycle = match lifecycle {
            LifecycleEvent::HookDenied {
                hook_id,
                event,
                reason,
                ..
            } => LifecycleEvent::HookDenied {
                hook_id,
                event,
                duration_ms,
                reason,
            },
            LifecycleEvent::HookCompleted { hook_id, event, .. } => LifecycleEvent::HookCompleted {
                hook_id,
                event,
                duration_ms,
            },
            other => other,
        };
        let flow = self.flow_after(&trace_result);
        self.outcome.trace.push(HookTrace {
            id: result.id,
            runtime: result.runtime,
            mode: Mode::Foreground,
            duration_ms,
            result: trace_result,
            notes,
        });
        (flow, lifecycle)
    }

    fn completed(&self, id: &HookId, duration_ms: f64) -> LifecycleEvent {
        LifecycleEvent::HookCompleted {
            hook_id: id.clone(),
            event: self.contract.event,
            duration_ms,
        }
    }

    fn flow_after(&self, result: &TraceResult) -> Flow {
        if self.outcome.blocked() {
            return Flow::Stop;
        }
        match (self.chain, result) {
            (ChainMode::FirstDecision, TraceResult::Allow { .. } | TraceResult::Ask { .. }) => {
                Flow::Stop
            }
            _ => Flow::Continue,
        }
    }

    /// Applies a failure; returns whether it blocked.
    fn fail(&mut self, id: &HookId, on_error: OnError, reason: &str) -> bool {
        let name = self.contract.event.name();
        let message = format!("{name} hook `{id}` failed: {reason}");
        if self.contract.fail_closed {
            self.decide(id, Decision::Deny, Some(message));
            return true;
        }
        match on_error {
            OnError::Ignore => false,
            OnError::Warn => {
                self.outcome.system_messages.push(message);
                false
            }
            OnError::Block if self.contract.can_block => {
                self.decide(id, Decision::Deny, Some(message));
                true
            }
            OnError::Block => {
                self.outcome.system_messages.push(format!(
                    "{message} (on_error: block, but `{name}` cannot block)"
                ));
                false
            }
        }
    }

    fn decide(&mut self, id: &HookId, decision: Decision, reason: Option<String>) {
        if Some(decision) > self.outcome.decision {
            self.outcome.decision = Some(decision);
            self.outcome.reason = reason;
            self.outcome.decided_by = Some(id.clone());
        }
    }

    fn apply(
        &mut self,
        id: &HookId,
        capability: Capability,
        response: HookResponse,
        notes: &mut Vec<String>,
    ) -> (TraceResult, LifecycleEvent) {
        let contract = self.contract;
        let name = contract.event.name();
        notes.extend(response.notes);
        if let Some(code) = &response.reason_code {
            notes.push(format!("reason_code: {code}"));
        }
        if let Some(claimed) = response.claimed_hook_id.filter(|c| c != id.as_str()) {
            notes.push(format!(
                "response claimed hook_id `{claimed}`; attributed to `{id}`"
            ));
        }
        if let Some(message) = response.system_message {
            self.outcome.system_messages.push(message);
        }
        // Typed responses (closures, built-ins) bypass the output parser, so the contract is
        // enforced here too: an output the event cannot use is dropped with a note. So is a
        // rewrite from a hook whose capability may not rewrite (observe).
        let mut unusable = |field: &str, present: bool, usable: bool| -> bool {
            let rewrite = field.starts_with("updated_") || field == "summary";
            if present && !usable {
                notes.push(format!("ignored `{field}`: not used by `{name}`"));
            } else if present && rewrite && !capability.may_rewrite() {
                notes.push(format!(
                    "ignored `{field}`: `{}` hooks cannot rewrite",
                    capability.as_str()
                ));
                return false;
            }
            present && usable
        };
        if unusable(
            "additional_context",
            response.additional_context.is_some(),
            contract.context.consumed(),
        ) {
            self.outcome
                .additional_context
                .extend(response.additional_context);
        }
        if unusable(
            "summary",
            response.summary.is_some(),
            contract.rewrite == Rewrite::Summary,
        ) && self.outcome.summary.is_none()
        {
            self.outcome.summary = response.summary;
        }
        if unusable("metadata", !response.metadata.is_empty(), contract.metadata) {
            for (key, value) in response.metadata {
                self.outcome.metadata.insert(key, value);
            }
        }
        if unusable(
            "updated_input",
            response.updated_input.is_some(),
            contract.rewrite == Rewrite::ToolInput,
        ) && let Some(patch) = response.updated_input
        {
            let current = self.current_input.get_or_insert_with(Map::new);
            for (key, value) in patch {
                current.insert(key, value);
            }
            self.input_changed = true;
        }
        if unusable(
            "updated_tool_response",
            response.updated_tool_response.is_some(),
            contract.rewrite == Rewrite::ToolResponse,
        ) {
            self.outcome.updated_tool_response = response.updated_tool_response;
        }
        if unusable(
            "updated_messages",
            response.updated_messages.is_some(),
            contract.rewrite == Rewrite::Messages,
        ) {
            self.outcome.updated_messages = response.updated_messages;
        }
        if unusable(
            "updated_prompt",
            response.updated_prompt.is_some(),
            contract.rewrite == Rewrite::Prompt,
        ) {
            self.outcome.updated_prompt = response.updated_prompt;
        }

        let mut decision = response.decision;
        let mut reason = response.reason;
        if let Some(stop) = response.stop {
            if !capability.may_decide() {
                notes.push(format!(
                    "`continue: false` ignored: `{}` hooks cannot stop the agent",
                    capability.as_str()
                ));
            } else if contract.can_block {
                if self.outcome.stop.is_none() {
                    self.outcome.stop = Some(stop);
                }
            } else {
                notes.push(format!(
                    "`continue: false` ignored: `{name}` cannot stop the agent"
                ));
            }
        }
        if decision.is_some() && !capability.may_decide() {
            notes.push(format!(
                "{cap} hook returned `{}`; {cap} hooks cannot decide",
                decision.map_or("", Decision::as_str),
                cap = capability.as_str()
            ));
            decision = None;
        }
        if decision == Some(Decision::Allow) && capability == Capability::Restrict {
            notes.push(format!(
                "`{id}` may only tighten (restrict): its `allow` was dropped"
            ));
            decision = None;
        }
        match decision {
            Some(Decision::Deny) if !contract.can_block => {
                let why = reason
                    .take()
                    .unwrap_or_else(|| "no reason given".to_owned());
                self.outcome.system_messages.push(format!(
                    "hook `{id}` asked to block `{name}`, which cannot be blocked: {why}"
                ));
                decision = None;
            }
            Some(Decision::Allow | Decision::Ask) if !contract.permission => {
                notes.push(format!(
                    "`{}` ignored: `{name}` takes no permission decision",
                    decision.map_or("", Decision::as_str)
                ));
                decision = None;
            }
            _ => {}
        }
        let completed = self.completed(id, 0.0);
        match decision {
            None => (TraceResult::NoOpinion, completed),
            Some(Decision::Allow) => {
                self.decide(id, Decision::Allow, reason.clone());
                (TraceResult::Allow { reason }, completed)
            }
            Some(Decision::Ask) => {
                self.decide(id, Decision::Ask, reason.clone());
                (TraceResult::Ask { reason }, completed)
            }
            Some(Decision::Deny) => {
                let reason = reason.unwrap_or_else(|| format!("denied by hook `{id}`"));
                self.decide(id, Decision::Deny, Some(reason.clone()));
                let lifecycle = LifecycleEvent::HookDenied {
                    hook_id: id.clone(),
                    event: contract.event,
                    duration_ms: 0.0,
                    reason: reason.clone(),
                };
                (TraceResult::Deny { reason }, lifecycle)
            }
        }
    }

    /// Finishes, producing the outcome.
    pub fn finish(mut self) -> Outcome {
        if self.input_changed {
            self.outcome.updated_input = self.current_input;
        }
        self.outcome
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::output::parse_output;

    #[allow(clippy::needless_pass_by_value, reason = "tests pass json! literals")]
    fn input(tool_input: Value) -> HookInput {
        HookInput::from_value(json!({"tool_name": "shell", "tool_input": tool_input})).unwrap()
    }

    fn result(id: &str, status: HookStatus) -> HookResult {
        HookResult {
            id: HookId::new(id),
            runtime: RuntimeKind::InProcess,
            capability: Capability::Guardrail,
            on_error: OnError::Warn,
            duration: Duration::from_millis(1),
            status,
        }
    }

    fn out(event: EventId, text: &str) -> HookStatus {
        HookStatus::Output(parse_output(event.contract(), text.as_bytes(), false).unwrap())
    }

    fn perm(word: &str, reason: &str) -> String {
        format!(
            r#"{{"hook_specific_output":{{"permission_decision":"{word}","permission_decision_reason":"{reason}"}}}}"#
        )
    }

    #[test]
    fn most_restrictive_verdict_wins_and_keeps_the_first_reason() {
        let mut agg = Aggregator::new(EventId::ToolGuard, ChainMode::All, &input(json!({})));
        for (id, word, reason) in [
            ("a", "allow", "ok"),
            ("b", "ask", "hmm"),
            ("c", "ask", "later"),
        ] {
            let (flow, _) = agg.push(result(id, out(EventId::ToolGuard, &perm(word, reason))));
            assert_eq!(flow, Flow::Continue);
        }
        let outcome = agg.finish();
        assert_eq!(outcome.decision, Some(Decision::Ask));
        assert_eq!(outcome.reason.as_deref(), Some("hmm"));
        assert_eq!(outcome.decided_by, Some(HookId::new("b")));
    }

    #[test]
    fn deny_short_circuits_the_chain() {
        let mut agg = Aggregator::new(EventId::ToolGuard, ChainMode::All, &input(json!({})));
        let (flow, lifecycle) = agg.push(result("a", out(EventId::ToolGuard, &perm("deny", "no"))));
        assert_eq!(flow, Flow::Stop);
        assert!(matches!(lifecycle, LifecycleEvent::HookDenied { .. }));
        assert!(agg.denied());
    }

    #[test]
    fn allow_is_advisory_in_the_default_chain() {
        let mut agg = Aggregator::new(EventId::PreToolUse, ChainMode::All, &input(json!({})));
        assert_eq!(
            agg.push(result("a", out(EventId::PreToolUse, &perm("allow", ""))))
                .0,
            Flow::Continue
        );
        agg.push(result("b", out(EventId::PreToolUse, &perm("deny", "no"))));
        assert_eq!(agg.finish().decision, Some(Decision::Deny));
    }

    #[test]
    fn first_decision_chain_ends_at_the_first_allow() {
        let mut agg = Aggregator::new(
            EventId::PreToolUse,
            ChainMode::FirstDecision,
            &input(json!({})),
        );
        assert_eq!(
            agg.push(result("a", out(EventId::PreToolUse, "{}"))).0,
            Flow::Continue
        );
        assert_eq!(
            agg.push(result(
                "b",
                out(EventId::PreToolUse, &perm("allow", "git is fine"))
            ))
            .0,
            Flow::Stop
        );
        let outcome = agg.finish();
        assert_eq!(outcome.decision, Some(Decision::Allow));
        assert_eq!(outcome.reason.as_deref(), Some("git is fine"));
    }

    #[test]
    fn input_patches_accumulate_as_shallow_merges() {
        let mut input = input(json!({"cmd": "ls", "cwd": "."}));
        let mut agg = Aggregator::new(EventId::PreToolUse, ChainMode::All, &input);
        agg.push(result(
            "a",
            out(
                EventId::PreToolUse,
                r#"{"hook_specific_output":{"updated_input":{"timeout":30}}}"#,
            ),
        ));
        agg.apply_rewrites(&mut input);
        assert_eq!(input.tool_input.as_ref().unwrap()["timeout"], 30);
        agg.push(result(
            "b",
            out(
                EventId::PreToolUse,
                r#"{"hook_specific_output":{"updated_input":{"cmd":"ls -l"}}}"#,
            ),
        ));
        let outcome = agg.finish();
        assert_eq!(
            Value::Object(outcome.updated_input.unwrap()),
            json!({"cmd": "ls -l", "cwd": ".", "timeout": 30})
        );
    }

    #[test]
    fn no_rewrite_means_no_updated_input() {
        let mut agg = Aggregator::new(
            EventId::PreToolUse,
            ChainMode::All,
            &input(json!({"cmd": "ls"})),
        );
        agg.push(result("a", out(EventId::PreToolUse, "{}")));
        assert_eq!(agg.finish().updated_input, None);
    }

    #[test]
    fn failure_blocks_fail_closed_events_whatever_on_error_says() {
        for on_error in [OnError::Ignore, OnError::Warn, OnError::Block] {
            for event in [EventId::PreToolUse, EventId::ToolGuard] {
                let mut agg = Aggregator::new(event, ChainMode::All, &input(json!({})));
                let mut r = result("a", HookStatus::Failed("timed out after 1s".into()));
                r.on_error = on_error;
                assert_eq!(agg.push(r).0, Flow::Stop);
                let outcome = agg.finish();
                assert!(outcome.blocked(), "{event} {on_error:?}");
                assert!(outcome.reason.unwrap().contains("timed out"));
            }
        }
    }

    #[test]
    fn on_error_policy_applies_off_fail_closed_events() {
        let run = |event: EventId, on_error: OnError| {
            let mut agg = Aggregator::new(event, ChainMode::All, &HookInput::for_event(event));
            let mut r = result("a", HookStatus::Failed("exit status 1".into()));
            r.on_error = on_error;
            agg.push(r);
            agg.finish()
        };
        let warn = run(EventId::PostToolUse, OnError::Warn);
        assert!(!warn.blocked());
        assert_eq!(warn.system_messages.len(), 1);
        let ignore = run(EventId::PostToolUse, OnError::Ignore);
        assert!(!ignore.blocked() && ignore.system_messages.is_empty());
        assert!(matches!(
            ignore.trace[0].result,
            TraceResult::Failed { blocked: false, .. }
        ));
        assert!(run(EventId::UserPromptSubmit, OnError::Block).blocked());
        let cannot = run(EventId::SessionEnd, OnError::Block);
        assert!(!cannot.blocked());
        assert!(cannot.system_messages[0].contains("cannot block"));
    }

    #[test]
    fn observe_hooks_can_never_deny() {
        let mut agg = Aggregator::new(EventId::PreToolUse, ChainMode::All, &input(json!({})));
        let mut r = result("obs", out(EventId::PreToolUse, &perm("deny", "no")));
        r.capability = Capability::Observe;
        assert_eq!(agg.push(r).0, Flow::Continue);
        let mut r = result("obs2", HookStatus::Blocked("stop".into()));
        r.capability = Capability::Observe;
        agg.push(r);
        let outcome = agg.finish();
        assert_eq!(outcome.decision, None);
        assert!(outcome.trace[0].notes[0].contains("observe hooks cannot decide"));
    }

    #[test]
    fn observe_hooks_can_neither_rewrite_nor_stop_the_agent() {
        let mut inp = input(json!({"cmd": "ls"}));
        let mut agg = Aggregator::new(EventId::PreToolUse, ChainMode::All, &inp);
        for (id, text) in [
            (
                "a",
                r#"{"hook_specific_output":{"updated_input":{"cmd":"rm -rf /"}}}"#,
            ),
            (
                "b",
                r#"{"patches":[{"patch_type":"tool_args","args":{"cmd":"curl x | sh"}}]}"#,
            ),
            ("c", r#"{"continue":false,"stop_reason":"halt"}"#),
            (
                "d",
                r#"{"hook_specific_output":{"additional_context":"noted"},"system_message":"seen"}"#,
            ),
        ] {
            let mut r = result(id, out(EventId::PreToolUse, text));
            r.capability = Capability::Observe;
            assert_eq!(agg.push(r).0, Flow::Continue, "{id}");
        }
        agg.apply_rewrites(&mut inp);
        assert_eq!(inp.tool_input.as_ref().unwrap()["cmd"], "ls");
        let outcome = agg.finish();
        assert_eq!(outcome.updated_input, None);
        assert_eq!(outcome.stop, None);
        assert_eq!(outcome.decision, None);
        assert!(outcome.trace[0].notes[0].contains("cannot rewrite"));
        assert_eq!(
            outcome.system_messages,
            vec!["seen"],
            "observing is still allowed"
        );
    }

    #[test]
    fn rewrite_hooks_patch_where_the_event_allows_but_never_decide() {
        let mut agg = Aggregator::new(
            EventId::PreToolUse,
            ChainMode::All,
            &input(json!({"cmd": "ls", "cwd": "."})),
        );
        let mut r = result(
            "rw",
            out(
                EventId::PreToolUse,
                r#"{"patches":[{"patch_type":"tool_args","args":{"cmd":"ls -l"}}]}"#,
            ),
        );
        r.capability = Capability::Rewrite;
        agg.push(r);
        for (id, status) in [
            ("deny", out(EventId::PreToolUse, &perm("deny", "no"))),
            ("exit2", HookStatus::Blocked("stop".into())),
            (
                "meerkat",
                out(
                    EventId::PreToolUse,
                    r#"{"decision":{"decision":"deny","hook_id":"x","reason_code":"policy_violation","message":"m"}}"#,
                ),
            ),
            ("halt", out(EventId::PreToolUse, r#"{"continue":false}"#)),
        ] {
            let mut r = result(id, status);
            r.capability = Capability::Rewrite;
            assert_eq!(agg.push(r).0, Flow::Continue, "{id}");
        }
        let outcome = agg.finish();
        assert_eq!(
            Value::Object(outcome.updated_input.unwrap()),
            json!({"cmd": "ls -l", "cwd": "."}),
            "a patch is a shallow merge"
        );
        assert_eq!(outcome.decision, None);
        assert_eq!(outcome.stop, None);
        assert!(outcome.trace[1].notes[0].contains("rewrite hooks cannot decide"));
    }

    #[test]
    fn a_rewrite_hooks_failure_still_blocks_a_fail_closed_event() {
        let mut agg = Aggregator::new(EventId::PreToolUse, ChainMode::All, &input(json!({})));
        let mut r = result("rw", HookStatus::Failed("crashed".into()));
        r.capability = Capability::Rewrite;
        agg.push(r);
        assert!(agg.finish().blocked(), "a failure is not a verdict");
    }

    #[test]
    fn guardrail_hooks_may_both_patch_and_deny() {
        let mut agg = Aggregator::new(
            EventId::PreToolUse,
            ChainMode::All,
            &input(json!({"cmd": "ls"})),
        );
        agg.push(result(
            "g",
            out(
                EventId::PreToolUse,
                r#"{"hook_specific_output":{"updated_input":{"cmd":"ls -a"},"permission_decision":"deny"}}"#,
            ),
        ));
        let outcome = agg.finish();
        assert!(outcome.blocked());
        assert!(outcome.updated_input.is_some());
    }

    #[test]
    fn blocks_on_events_that_cannot_block_become_warnings() {
        let mut agg = Aggregator::new(
            EventId::Stop,
            ChainMode::All,
            &HookInput::for_event(EventId::Stop),
        );
        agg.push(result("a", HookStatus::Blocked("nope".into())));
        agg.push(result(
            "b",
            out(EventId::Stop, r#"{"decision":"block","reason":"r"}"#),
        ));
        let outcome = agg.finish();
        assert!(!outcome.blocked());
        assert_eq!(outcome.system_messages.len(), 2);
        assert!(outcome.system_messages[0].contains("cannot be blocked: nope"));
    }

    #[test]
    fn exit_two_blocks_with_stderr_as_reason() {
        let mut agg = Aggregator::new(EventId::PreToolUse, ChainMode::All, &input(json!({})));
        agg.push(result("a", HookStatus::Blocked("dangerous\n".into())));
        let outcome = agg.finish();
        assert!(outcome.blocked());
        assert_eq!(outcome.reason.as_deref(), Some("dangerous"));
    }

    #[test]
    fn plain_stdout_is_context_only_where_the_contract_consumes_it() {
        for event in crate::catalog::EventId::ALL {
            let mut agg = Aggregator::new(*event, ChainMode::All, &HookInput::for_event(*event));
            agg.push(result(
                "a",
                HookStatus::Output(ParsedOutput::Plain("hello".into())),
            ));
            let outcome = agg.finish();
            assert_eq!(
                outcome.additional_context.is_empty(),
                !event.contract().context.consumed(),
                "{event}"
            );
        }
    }

    #[test]
    fn context_and_system_messages_keep_hook_order() {
        let mut agg = Aggregator::new(
            EventId::TurnStart,
            ChainMode::All,
            &HookInput::for_event(EventId::TurnStart),
        );
        agg.push(result(
            "a",
            out(
                EventId::TurnStart,
                r#"{"system_message":"one","hook_specific_output":{"additional_context":"A"}}"#,
            ),
        ));
        agg.push(result(
            "b",
            HookStatus::Output(ParsedOutput::Plain("B".into())),
        ));
        agg.push(result(
            "c",
            out(EventId::TurnStart, r#"{"system_message":"two"}"#),
        ));
        let outcome = agg.finish();
        assert_eq!(outcome.additional_context, vec!["A", "B"]);
        assert_eq!(outcome.system_messages, vec!["one", "two"]);
    }

    #[test]
    fn first_summary_wins() {
        let ev = EventId::BeforeCompaction;
        let mut agg = Aggregator::new(ev, ChainMode::All, &HookInput::for_event(ev));
        agg.push(result(
            "a",
            out(ev, r#"{"hook_specific_output":{"summary":""}}"#),
        ));
        agg.push(result(
            "b",
            out(ev, r#"{"hook_specific_output":{"summary":"first"}}"#),
        ));
        agg.push(result(
            "c",
            out(ev, r#"{"hook_specific_output":{"summary":"second"}}"#),
        ));
        assert_eq!(agg.finish().summary.as_deref(), Some("first"));
    }

    #[test]
    fn metadata_merges_with_the_last_writer_winning() {
        let ev = EventId::PermissionRequest;
        let mut agg = Aggregator::new(ev, ChainMode::All, &input(json!({})));
        agg.push(result(
            "a",
            out(
                ev,
                r#"{"hook_specific_output":{"metadata":{"risk":"low","a":"1"}}}"#,
            ),
        ));
        agg.push(result(
            "b",
            out(
                ev,
                r#"{"hook_specific_output":{"metadata":{"risk":"high"}}}"#,
            ),
        ));
        let outcome = agg.finish();
        assert_eq!(outcome.metadata["risk"], "high");
        assert_eq!(outcome.metadata["a"], "1");
    }

    #[test]
    fn response_rewrites_chain_and_empty_string_clears() {
        let ev = EventId::ToolResponseTransform;
        let mut inp = HookInput::for_event(ev);
        inp.tool_response = Some(json!("secret output"));
        let mut agg = Aggregator::new(ev, ChainMode::All, &inp);
        agg.push(result(
            "a",
            out(
                ev,
                r#"{"hook_specific_output":{"updated_tool_response":"redacted"}}"#,
            ),
        ));
        agg.apply_rewrites(&mut inp);
        assert_eq!(inp.tool_response, Some(json!("redacted")));
        agg.push(result(
            "b",
            out(
                ev,
                r#"{"hook_specific_output":{"updated_tool_response":""}}"#,
            ),
        ));
        assert_eq!(agg.finish().updated_tool_response, Some(json!("")));
    }

    #[test]
    fn updated_prompt_rewrites_the_prompt_on_user_prompt_submit_only() {
        let ev = EventId::UserPromptSubmit;
        let mut inp = HookInput::for_event(ev);
        inp.prompt = Some("fix teh bug".to_owned());
        let mut agg = Aggregator::new(ev, ChainMode::All, &inp);
        agg.push(result(
            "a",
            out(
                ev,
                r#"{"hook_specific_output":{"updated_prompt":"fix the bug"}}"#,
            ),
        ));
        agg.apply_rewrites(&mut inp);
        assert_eq!(inp.prompt.as_deref(), Some("fix the bug"));
        agg.push(result(
            "b",
            out(
                ev,
                r#"{"hookSpecificOutput":{"updatedPrompt":"fix the bug in main.rs"}}"#,
            ),
        ));
        assert_eq!(
            agg.finish().updated_prompt.as_deref(),
            Some("fix the bug in main.rs")
        );
        // Elsewhere it is not a rewrite the event takes.
        let other = EventId::Stop;
        let mut agg = Aggregator::new(other, ChainMode::All, &HookInput::for_event(other));
        agg.push(result(
            "c",
            out(other, r#"{"hook_specific_output":{"updated_prompt":"x"}}"#),
        ));
        assert_eq!(agg.finish().updated_prompt, None);
    }

    #[test]
    fn meerkat_deny_is_attributed_to_the_configured_id() {
        let mut agg = Aggregator::new(EventId::PreToolUse, ChainMode::All, &input(json!({})));
        agg.push(result(
            "configured",
            out(EventId::PreToolUse, r#"{"decision":{"decision":"deny","hook_id":"spoof","reason_code":"safety_violation","message":"m"}}"#),
        ));
        let outcome = agg.finish();
        assert_eq!(outcome.decided_by, Some(HookId::new("configured")));
        assert!(
            outcome.trace[0]
                .notes
                .iter()
                .any(|n| n.contains("claimed hook_id `spoof`"))
        );
    }

    #[test]
    fn permission_words_are_ignored_on_events_without_permission_decisions() {
        let ev = EventId::UserPromptSubmit;
        let mut agg = Aggregator::new(ev, ChainMode::All, &HookInput::for_event(ev));
        agg.push(result("a", out(ev, r#"{"decision":"ask"}"#)));
        let outcome = agg.finish();
        assert_eq!(outcome.decision, None);
        assert!(!outcome.trace[0].notes.is_empty());
    }
}
