//! Engine rules checked through in-process hooks (no processes needed).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_pass_by_value,
    clippy::format_push_string,
    reason = "test code: a failed assumption should fail the test"
)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookgate_core::{
    Capability, ChainMode, Decision, EventId, HookId, HookInput, HookResponse, LifecycleEvent,
    Mode, TraceResult,
};
use hookgate_engine::{
    Engine, HookEntry, HooksConfig, InProcessHandler, Registration, RunOverrides, RuntimeSpec,
};
use serde_json::json;

fn entry(id: &str, event: EventId, handler: &str, priority: i32) -> HookEntry {
    let mut e = HookEntry::new(
        id,
        event,
        RuntimeSpec::InProcess {
            handler: handler.to_owned(),
        },
    );
    e.priority = priority;
    e
}

fn engine(entries: Vec<HookEntry>) -> Engine {
    Engine::new(HooksConfig {
        entries,
        ..HooksConfig::default()
    })
    .unwrap()
}

/// A handler that sleeps `delay_ms`, records its name, and answers `response`.
fn handler(
    log: &Arc<Mutex<Vec<String>>>,
    name: &str,
    delay_ms: u64,
    response: HookResponse,
) -> InProcessHandler {
    let log = Arc::clone(log);
    let name = name.to_owned();
    Arc::new(move |_input: HookInput| {
        let log = Arc::clone(&log);
        let name = name.clone();
        let response = response.clone();
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(delay_ms)).await;
            log.lock().unwrap().push(name);
            Ok(response)
        })
    })
}

fn decision(d: Decision, reason: &str) -> HookResponse {
    HookResponse {
        decision: Some(d),
        reason: Some(reason.to_owned()),
        ..HookResponse::default()
    }
}

fn tool_input(tool: &str, input: serde_json::Value) -> HookInput {
    HookInput::from_value(
        json!({"session_id": "s", "cwd": "/", "tool_name": tool, "tool_input": input}),
    )
    .unwrap()
}

#[tokio::test]
async fn priority_order_is_independent_of_completion_order() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let e = engine(vec![
        entry("slow", EventId::ToolGuard, "slow", 10),
        entry("fast", EventId::ToolGuard, "fast", 10),
        entry("last", EventId::ToolGuard, "last", 20),
    ]);
    e.register_in_process(
        "slow",
        handler(&log, "slow", 150, decision(Decision::Ask, "slow says ask")),
    );
    e.register_in_process(
        "fast",
        handler(&log, "fast", 0, decision(Decision::Ask, "fast says ask")),
    );
    e.register_in_process("last", handler(&log, "last", 0, HookResponse::default()));
    let outcome = e
        .dispatch(EventId::ToolGuard, tool_input("shell", json!({})))
        .await;
    // Same-priority hooks ran concurrently: fast finished first...
    assert_eq!(*log.lock().unwrap(), vec!["fast", "slow", "last"]);
    // ...but results fold in registration order, so the first reason is the slow hook's.
    assert_eq!(outcome.reason.as_deref(), Some("slow says ask"));
    let ids: Vec<&str> = outcome.trace.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, vec!["slow", "fast", "last"]);
}

#[tokio::test]
async fn deny_short_circuits_lower_priority_hooks() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let e = engine(vec![
        entry("observer", EventId::PreToolUse, "observer", 100),
        entry("guard", EventId::PreToolUse, "guard", 1),
    ]);
    e.register_in_process(
        "guard",
        handler(&log, "guard", 0, decision(Decision::Deny, "blocked")),
    );
    e.register_in_process(
        "observer",
        handler(&log, "observer", 0, HookResponse::default()),
    );
    let outcome = e
        .dispatch(EventId::PreToolUse, tool_input("shell", json!({})))
        .await;
    assert!(outcome.blocked());
    assert_eq!(outcome.decided_by, Some(HookId::new("guard")));
    assert_eq!(*log.lock().unwrap(), vec!["guard"]);
    assert!(matches!(
        outcome.trace[1].result,
        TraceResult::Skipped { .. }
    ));
}

#[tokio::test]
async fn deny_in_a_concurrent_tier_skips_later_tiers() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let e = engine(vec![
        entry("a", EventId::ToolGuard, "deny", 1),
        entry("b", EventId::ToolGuard, "later", 2),
    ]);
    e.register_in_process(
        "deny",
        handler(&log, "deny", 0, decision(Decision::Deny, "no")),
    );
    e.register_in_process("later", handler(&log, "later", 0, HookResponse::default()));
    let outcome = e
        .dispatch(EventId::ToolGuard, tool_input("shell", json!({})))
        .await;
    assert!(outcome.blocked());
    assert_eq!(*log.lock().unwrap(), vec!["deny"]);
}

#[tokio::test]
async fn background_hooks_are_skipped_after_a_deny() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut bg = entry("bg", EventId::PreToolUse, "bg", 100);
    bg.mode = Mode::Background;
    bg.capability = Capability::Observe;
    let e = engine(vec![entry("guard", EventId::PreToolUse, "guard", 1), bg]);
    e.register_in_process(
        "guard",
        handler(&log, "guard", 0, decision(Decision::Deny, "no")),
    );
    e.register_in_process("bg", handler(&log, "bg", 0, HookResponse::default()));
    let outcome = e
        .dispatch(EventId::PreToolUse, tool_input("shell", json!({})))
        .await;
    e.drain_background(Duration::from_secs(1)).await;
    assert!(outcome.background.started.is_empty());
    assert_eq!(*log.lock().unwrap(), vec!["guard"]);
}

#[tokio::test]
async fn background_hooks_over_the_limit_are_skipped_and_recorded_not_queued() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut entries = Vec::new();
    for i in 0..3 {
        let mut bg = entry(&format!("bg{i}"), EventId::PostToolUse, "sleepy", 100);
        bg.mode = Mode::Background;
        bg.capability = Capability::Observe;
        entries.push(bg);
    }
    let mut config = HooksConfig {
        entries,
        ..HooksConfig::default()
    };
    config.settings.background_max_concurrency = 2;
    let e = Engine::new(config).unwrap();
    e.register_in_process(
        "sleepy",
        handler(&log, "sleepy", 2000, HookResponse::default()),
    );
    let started = std::time::Instant::now();
    let outcome = e
        .dispatch(EventId::PostToolUse, tool_input("shell", json!({})))
        .await;
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "dispatch must not wait for background hooks (each sleeps 2 s)"
    );
    assert_eq!(
        outcome.background.started,
        vec![HookId::new("bg0"), HookId::new("bg1")]
    );
    assert_eq!(outcome.background.skipped, vec![HookId::new("bg2")]);
    assert_eq!(e.drain_background(Duration::from_secs(10)).await, 0);
    assert_eq!(log.lock().unwrap().len(), 2);
    assert!(
        matches!(&e.background_ledger()[..], [hookgate_engine::LedgerEntry::Skipped { hook_id, .. }] if hook_id.as_str() == "bg2")
    );
}

#[tokio::test]
async fn background_guardrails_are_rejected_at_construction() {
    let mut bg = entry("bg", EventId::PostToolUse, "x", 100);
    bg.mode = Mode::Background;
    bg.capability = Capability::Guardrail;
    let err = Engine::new(HooksConfig {
        entries: vec![bg],
        ..HooksConfig::default()
    })
    .unwrap_err();
    assert!(
        err.message.contains("background hooks must be `observe`"),
        "{err}"
    );
}

#[tokio::test]
async fn observe_hooks_cannot_deny_even_in_the_foreground() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut obs = entry("obs", EventId::PreToolUse, "obs", 1);
    obs.capability = Capability::Observe;
    let e = engine(vec![obs]);
    e.register_in_process(
        "obs",
        handler(&log, "obs", 0, decision(Decision::Deny, "I only watch")),
    );
    let outcome = e
        .dispatch(EventId::PreToolUse, tool_input("shell", json!({})))
        .await;
    assert_eq!(outcome.decision, None);
}

#[tokio::test]
async fn first_decision_chain_stops_at_the_first_allow_and_accumulates_input() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut config = HooksConfig {
        entries: vec![
            entry("timeout", EventId::PreToolUse, "timeout", 1),
            entry("allow_git", EventId::PreToolUse, "allow_git", 2),
            entry("never", EventId::PreToolUse, "never", 3),
        ],
        ..HooksConfig::default()
    };
    config.settings.chain = ChainMode::FirstDecision;
    let e = Engine::new(config).unwrap();
    let add_timeout = HookResponse {
        updated_input: Some(json!({"timeout": 30}).as_object().unwrap().clone()),
        ..HookResponse::default()
    };
    e.register_in_process("timeout", handler(&log, "timeout", 0, add_timeout));
    let seen = Arc::new(Mutex::new(None));
    let seen2 = Arc::clone(&seen);
    e.register_in_process(
        "allow_git",
        Arc::new(move |input: HookInput| {
            *seen2.lock().unwrap() = input.tool_input.clone();
            Box::pin(async { Ok(decision(Decision::Allow, "git is fine")) })
        }),
    );
    e.register_in_process(
        "never",
        handler(&log, "never", 0, decision(Decision::Deny, "too late")),
    );
    let outcome = e
        .dispatch(
            EventId::PreToolUse,
            tool_input("Bash", json!({"command": "git status"})),
        )
        .await;
    assert_eq!(outcome.decision, Some(Decision::Allow));
    assert_eq!(
        seen.lock().unwrap().as_ref().unwrap()["timeout"],
        30,
        "the second hook saw the first one's patch"
    );
    assert_eq!(*log.lock().unwrap(), vec!["timeout"]);
    assert_eq!(outcome.updated_input.unwrap()["command"], "git status");
}

#[tokio::test]
async fn default_chain_treats_allow_as_advisory() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let e = engine(vec![
        entry("a", EventId::PreToolUse, "allow", 1),
        entry("b", EventId::PreToolUse, "ask", 2),
    ]);
    e.register_in_process(
        "allow",
        handler(&log, "allow", 0, decision(Decision::Allow, "fine")),
    );
    e.register_in_process(
        "ask",
        handler(&log, "ask", 0, decision(Decision::Ask, "check")),
    );
    let outcome = e
        .dispatch(EventId::PreToolUse, tool_input("shell", json!({})))
        .await;
    assert_eq!(outcome.decision, Some(Decision::Ask));
}

#[tokio::test]
async fn transforms_compose_and_each_hook_sees_the_previous_rewrite() {
    let e = engine(vec![
        entry("l", EventId::ToolInputTransform, "add_l", 1),
        entry("h", EventId::ToolInputTransform, "add_h", 2),
    ]);
    for (name, flag) in [("add_l", " -l"), ("add_h", " -h")] {
        e.register_in_process(
            name,
            Arc::new(move |input: HookInput| {
                let cmd = input
                    .tool_input
                    .as_ref()
                    .and_then(|i| i["cmd"].as_str())
                    .unwrap_or("")
                    .to_owned();
                Box::pin(async move {
                    Ok(HookResponse {
                        updated_input: Some(
                            json!({"cmd": format!("{cmd}{flag}")})
                                .as_object()
                                .unwrap()
                                .clone(),
                        ),
                        ..HookResponse::default()
                    })
                })
            }),
        );
    }
    let outcome = e
        .dispatch(
            EventId::ToolInputTransform,
            tool_input("shell", json!({"cmd": "ls", "cwd": "."})),
        )
        .await;
    assert_eq!(
        serde_json::Value::Object(outcome.updated_input.unwrap()),
        json!({"cmd": "ls -l -h", "cwd": "."})
    );
}

#[tokio::test]
async fn matchers_select_hooks_by_tool_name() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut shell = entry("shell_only", EventId::PreToolUse, "h", 1);
    shell.matcher = Some("shell|edit_file".to_owned());
    let e = engine(vec![shell]);
    e.register_in_process("h", handler(&log, "h", 0, HookResponse::default()));
    e.dispatch(EventId::PreToolUse, tool_input("read_file", json!({})))
        .await;
    assert!(log.lock().unwrap().is_empty());
    e.dispatch(EventId::PreToolUse, tool_input("edit_file", json!({})))
        .await;
    assert_eq!(log.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn in_process_reregistration_is_observable() {
    let e = engine(vec![]);
    let noop: InProcessHandler = Arc::new(|_| Box::pin(async { Ok(HookResponse::default()) }));
    let first = e.register_in_process("h", Arc::clone(&noop));
    let second = e.register_in_process("h", noop);
    let Registration::Registered { revision } = first else {
        panic!("{first:?}")
    };
    assert_eq!(
        second,
        Registration::Revised {
            previous: revision,
            revision: revision + 1
        }
    );
}

#[tokio::test]
async fn missing_or_panicking_handlers_fail_closed_on_guard_events() {
    let e = engine(vec![entry("missing", EventId::PreToolUse, "nobody", 1)]);
    let outcome = e
        .dispatch(EventId::PreToolUse, tool_input("shell", json!({})))
        .await;
    assert!(outcome.blocked());
    assert!(
        outcome
            .reason
            .unwrap()
            .contains("no in-process handler named `nobody`")
    );

    let e = engine(vec![entry("boom", EventId::ToolGuard, "boom", 1)]);
    e.register_in_process(
        "boom",
        Arc::new(|_| Box::pin(async { panic!("handler bug") })),
    );
    let outcome = e
        .dispatch(EventId::ToolGuard, tool_input("shell", json!({})))
        .await;
    assert!(outcome.blocked());
    assert!(outcome.reason.unwrap().contains("panicked"));
}

#[tokio::test]
async fn in_process_timeouts_fail_closed_on_pre_tool_use() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut slow = entry("slow", EventId::PreToolUse, "slow", 1);
    slow.timeout_ms = Some(50);
    let e = engine(vec![slow]);
    e.register_in_process(
        "slow",
        handler(&log, "slow", 5_000, HookResponse::default()),
    );
    let started = std::time::Instant::now();
    let outcome = e
        .dispatch(EventId::PreToolUse, tool_input("shell", json!({})))
        .await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(outcome.blocked());
    assert!(outcome.reason.unwrap().contains("timed out after 50ms"));
}

#[tokio::test]
async fn lifecycle_events_reach_subscribers() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let e = engine(vec![
        entry("ok", EventId::PreToolUse, "ok", 1),
        entry("deny", EventId::PreToolUse, "deny", 2),
    ]);
    e.register_in_process("ok", handler(&log, "ok", 0, HookResponse::default()));
    e.register_in_process(
        "deny",
        handler(&log, "deny", 0, decision(Decision::Deny, "stop")),
    );
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    e.subscribe(Arc::new(move |ev: &LifecycleEvent| {
        sink.lock().unwrap().push(serde_json::to_value(ev).unwrap());
    }));
    e.dispatch(EventId::PreToolUse, tool_input("shell", json!({})))
        .await;
    let types: Vec<String> = events
        .lock()
        .unwrap()
        .iter()
        .map(|v| v["type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        types,
        vec![
            "hook_started",
            "hook_completed",
            "hook_started",
            "hook_denied"
        ]
    );
}

#[tokio::test]
async fn overrides_disable_by_id_and_append_entries() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let e = engine(vec![
        entry("a", EventId::Stop, "a", 1),
        entry("b", EventId::Stop, "b", 2),
    ]);
    for n in ["a", "b", "c"] {
        e.register_in_process(n, handler(&log, n, 0, HookResponse::default()));
    }
    let run = e
        .with_overrides(&RunOverrides {
            disable: vec![HookId::new("a")],
            entries: vec![entry("c", EventId::Stop, "c", 3)],
        })
        .unwrap();
    run.dispatch(EventId::Stop, HookInput::for_event(EventId::Stop))
        .await;
    assert_eq!(*log.lock().unwrap(), vec!["b", "c"]);
    let dup = e.with_overrides(&RunOverrides {
        disable: vec![],
        entries: vec![entry("a", EventId::Stop, "other", 9)],
    });
    assert!(dup.unwrap_err().message.contains("duplicate hook id `a`"));
    let unknown = e.with_overrides(&RunOverrides {
        disable: vec![HookId::new("zzz")],
        entries: vec![],
    });
    assert!(unknown.unwrap_err().message.contains("no hook has that id"));
}

#[tokio::test]
async fn guards_are_rechecked_against_input_rewritten_by_pre_tool_use() {
    let e = engine(vec![
        entry("rewrite", EventId::PreToolUse, "rewrite", 1),
        entry("guard", EventId::ToolGuard, "guard", 1),
    ]);
    e.register_in_process(
        "rewrite",
        Arc::new(|_| {
            Box::pin(async {
                Ok(HookResponse {
                    updated_input: Some(json!({"cmd": "rm -rf /"}).as_object().unwrap().clone()),
                    ..HookResponse::default()
                })
            })
        }),
    );
    e.register_in_process(
        "guard",
        Arc::new(|input: HookInput| {
            let dangerous = input
                .tool_input
                .as_ref()
                .is_some_and(|i| i["cmd"] == "rm -rf /");
            Box::pin(async move {
                Ok(if dangerous {
                    decision(Decision::Deny, "saw the rewrite")
                } else {
                    HookResponse::default()
                })
            })
        }),
    );
    let outcome = e
        .dispatch_tool_call(tool_input("shell", json!({"cmd": "ls"})))
        .await;
    assert!(outcome.blocked());
    assert_eq!(outcome.reason.as_deref(), Some("saw the rewrite"));
    let lanes: Vec<EventId> = outcome.lanes.iter().map(|o| o.event).collect();
    assert_eq!(
        lanes,
        vec![
            EventId::ToolInputTransform,
            EventId::ToolGuard,
            EventId::PreToolUse,
            EventId::ToolGuard
        ]
    );
}

#[tokio::test]
async fn typed_responses_cannot_use_outputs_their_event_lacks() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let e = engine(vec![entry("sneaky", EventId::ToolGuard, "sneaky", 1)]);
    let response = HookResponse {
        updated_input: Some(json!({"cmd": "evil"}).as_object().unwrap().clone()),
        ..HookResponse::default()
    };
    e.register_in_process("sneaky", handler(&log, "sneaky", 0, response));
    let outcome = e
        .dispatch(
            EventId::ToolGuard,
            tool_input("shell", json!({"cmd": "ls"})),
        )
        .await;
    assert_eq!(outcome.updated_input, None);
    assert!(
        outcome.trace[0]
            .notes
            .iter()
            .any(|n| n.contains("updated_input"))
    );
}
