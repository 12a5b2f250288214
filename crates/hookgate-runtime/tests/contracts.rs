//! The loop honours each event's contract: context lifetimes, rewrites, summaries, bounded
//! results. In-process hooks on a real engine; the model is the scripted one, wrapped to record
//! every request it receives (the model boundary is the only thing observed, not mocked away).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::sync::{Arc, Mutex};

use hookgate_core::{EventId, HookInput, HookResponse};
use hookgate_engine::{Engine, HookEntry, HooksConfig, RuntimeSpec};
use hookgate_llm::{
    BoxFuture, ChatRequest, ChatResponse, LlmError, Message, Model, Role, ScriptModel,
};
use hookgate_runtime::{ApprovalMode, RunConfig, RunEnd, Runtime, Session, Start};
use serde_json::Value;

#[derive(Debug)]
struct Recording {
    inner: ScriptModel,
    requests: Mutex<Vec<ChatRequest>>,
}

impl Model for Recording {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, LlmError>> {
        self.requests.lock().unwrap().push(request.clone());
        self.inner.complete(request)
    }
}

type Handler = fn(HookInput) -> HookResponse;

fn engine(hooks: &[(EventId, Handler)]) -> Engine {
    let mut config = HooksConfig::default();
    for (n, (event, _)) in hooks.iter().enumerate() {
        let id = format!("h{n}");
        config.entries.push(HookEntry::new(
            id.as_str(),
            *event,
            RuntimeSpec::InProcess {
                handler: id.clone(),
            },
        ));
    }
    let engine = Engine::new(config).unwrap();
    for (n, (_, handler)) in hooks.iter().enumerate() {
        let handler = *handler;
        engine.register_in_process(
            &format!("h{n}"),
            Arc::new(move |input| Box::pin(async move { Ok(handler(input)) })),
        );
    }
    engine
}

fn context(text: &str) -> HookResponse {
    HookResponse {
        additional_context: Some(text.to_owned()),
        ..HookResponse::default()
    }
}

struct Ran {
    session: Session,
    requests: Vec<ChatRequest>,
    end: RunEnd,
    dir: tempfile::TempDir,
}

fn run(script: &str, hooks: &[(EventId, Handler)], tune: impl FnOnce(&mut RunConfig)) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let model = Arc::new(Recording {
        inner: ScriptModel::from_json("t.json", script).unwrap(),
        requests: Mutex::new(Vec::new()),
    });
    let mut config = RunConfig::new(dir.path().to_owned());
    config.approval = ApprovalMode::Yolo;
    tune(&mut config);
    let runtime = Runtime::new(engine(hooks), Arc::clone(&model) as Arc<dyn Model>, config);
    let mut session = Session::new("s1");
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = tokio.block_on(runtime.run(&mut session, Some("go".into()), Start::Startup));
    let requests = model.requests.lock().unwrap().clone();
    Ran {
        session,
        requests,
        end: report.end,
        dir,
    }
}

fn system_text(request: &ChatRequest) -> String {
    request
        .messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn session_start_context_persists_and_turn_start_context_is_transient() {
    let ran = run(
        r#"[{"tool": "list_directory", "input": {"path": "."}}, {"text": "done"}]"#,
        &[
            (EventId::SessionStart, |_| context("SESSION-FACT")),
            (EventId::TurnStart, |i| {
                context(&format!("TURN-FACT {}", i.session_id))
            }),
        ],
        |_| {},
    );
    assert_eq!(ran.end, RunEnd::Completed);
    assert_eq!(ran.requests.len(), 2);
    for request in &ran.requests {
        let system = system_text(request);
        assert!(system.contains("SESSION-FACT"), "{system}");
        assert_eq!(
            system.matches("TURN-FACT").count(),
            1,
            "recomputed per turn, never stacked"
        );
    }
    let stored = serde_json::to_string(&ran.session.conversation).unwrap();
    assert!(
        !stored.contains("TURN-FACT"),
        "transient context is never persisted"
    );
    assert_eq!(ran.session.context, ["SESSION-FACT"]);
}

#[test]
fn before_llm_call_may_replace_the_outgoing_messages() {
    let ran = run(
        r#"[{"text": "done"}]"#,
        &[(EventId::BeforeLlmCall, |_| HookResponse {
            updated_messages: Some(
                serde_json::to_value(vec![Message::text(Role::User, "REWRITTEN")]).unwrap(),
            ),
            ..HookResponse::default()
        })],
        |_| {},
    );
    assert_eq!(
        ran.requests[0].messages,
        vec![Message::text(Role::User, "REWRITTEN")]
    );
    assert!(
        ran.session
            .conversation
            .messages
            .iter()
            .any(|m| m.text == "go"),
        "history is untouched"
    );
}

#[test]
fn before_llm_call_block_ends_the_run_before_the_model_is_called() {
    let ran = run(
        r#"[{"text": "done"}]"#,
        &[(EventId::BeforeLlmCall, |_| HookResponse {
            decision: Some(hookgate_core::Decision::Deny),
            reason: Some("budget spent".into()),
            ..HookResponse::default()
        })],
        |_| {},
    );
    assert!(ran.requests.is_empty());
    assert_eq!(
        ran.end,
        RunEnd::HookBlocked {
            event: EventId::BeforeLlmCall,
            reason: "budget spent".into()
        }
    );
}

#[test]
fn a_before_compaction_summary_is_used_verbatim_and_calls_stay_paired() {
    let ran = run(
        r#"[{"tool": "shell", "input": {"cmd": "echo big"}}, {"text": "done"}]"#,
        &[(EventId::BeforeCompaction, |_| HookResponse {
            summary: Some("HOOK-SUMMARY".into()),
            ..HookResponse::default()
        })],
        |c| c.compact_at_tokens = 1,
    );
    assert_eq!(ran.end, RunEnd::Completed);
    assert_eq!(
        ran.session.conversation.summary.as_deref(),
        Some("HOOK-SUMMARY")
    );
    let second = &ran.requests[1];
    assert!(system_text(second).contains("HOOK-SUMMARY"));
    // No summary call was made (the hook supplied it): every request offered tools.
    assert!(ran.requests.iter().all(|r| !r.tools.is_empty()));
    let calls = second
        .messages
        .iter()
        .filter(|m| !m.tool_calls.is_empty())
        .count();
    let results = second
        .messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .count();
    assert_eq!(calls, results);
}

#[test]
fn tool_response_transform_rewrites_what_the_model_sees() {
    let ran = run(
        r#"[{"tool": "shell", "input": {"cmd": "echo token=hunter2"}}, {"text": "done"}]"#,
        &[(EventId::ToolResponseTransform, |_| HookResponse {
            updated_tool_response: Some(Value::String("[REDACTED]".into())),
            ..HookResponse::default()
        })],
        |_| {},
    );
    let result = ran.requests[1]
        .messages
        .iter()
        .find(|m| m.role == Role::Tool)
        .unwrap();
    assert_eq!(result.text, "[REDACTED]");
}

#[test]
fn large_tool_results_are_bounded_before_the_model_sees_them() {
    let ran = run(
        r#"[{"tool": "shell", "input": {"cmd": "seq 1 5000"}}, {"text": "done"}]"#,
        &[],
        |c| c.max_tool_result_bytes = 100,
    );
    let result = ran.requests[1]
        .messages
        .iter()
        .find(|m| m.role == Role::Tool)
        .unwrap();
    assert!(result.text.len() < 200, "{}", result.text.len());
    assert!(result.text.ends_with("5000\n"), "a command keeps its tail");
    drop(ran.dir);
}

#[test]
fn a_tool_input_rewrite_is_what_runs() {
    let ran = run(
        r#"[{"tool": "write_file", "input": {"path": "a.txt", "content": "x"}}, {"text": "done"}]"#,
        &[(EventId::ToolInputTransform, |_| HookResponse {
            updated_input: Some(serde_json::from_str(r#"{"path": "b.txt"}"#).unwrap()),
            ..HookResponse::default()
        })],
        |_| {},
    );
    assert!(!ran.dir.path().join("a.txt").exists());
    assert_eq!(
        std::fs::read_to_string(ran.dir.path().join("b.txt")).unwrap(),
        "x"
    );
}
