//! `type: model` hooks (LLM judge) against `../shared/e2e/mock_llm.py` on 127.0.0.1.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed assumption should fail the test"
)]

use hookgate_core::{Decision, EventId, HookInput};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use hookgate_llm::mock_server::MockLlm;
use serde_json::json;

const DENY: &str = r#"{"decision":"deny","reason":"no"}"#;

fn mock(dir: &tempfile::TempDir, args: &[&str]) -> Option<MockLlm> {
    MockLlm::start(args, &dir.path().join("requests.jsonl")).unwrap()
}

fn engine(yaml: &str) -> Engine {
    Engine::new(
        merge(vec![
            parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap(),
        ])
        .unwrap(),
    )
    .unwrap()
}

fn judge_config(base_url: &str, model: &str, extra: &str) -> String {
    format!(
        r#"
hooks:
  pre_tool_use:
    - matcher: "shell"
      hooks:
        - type: model
          model: {model}
          base_url: {base_url}
          schema: pre_tool_use_decision
          timeout: 10
          prompt: |
            Tool: {{{{ .ToolName }}}}
            Args: {{{{ .ToolInput | toJSON }}}}
{extra}"#
    )
}

fn shell_call(session: &str, command: &str) -> HookInput {
    HookInput::from_value(json!({
        "session_id": session,
        "cwd": "/",
        "tool_name": "shell",
        "tool_input": {"cmd": command}
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_hook_denies_a_tool_call_through_the_mock() {
    let dir = tempfile::tempdir().unwrap();
    let Some(server) = mock(&dir, &["--side-text", DENY]) else {
        return;
    };
    for model in [
        "openai/mock-model",
        "anthropic/mock-model",
        "openai-responses/mock-model",
    ] {
        let engine = engine(&judge_config(&server.base_url(), model, ""));
        let outcome = engine
            .dispatch(EventId::PreToolUse, shell_call(model, "rm -rf ~/.ssh"))
            .await;
        assert_eq!(
            outcome.decision,
            Some(Decision::Deny),
            "{model}: {outcome:?}"
        );
        assert_eq!(outcome.reason.as_deref(), Some("no"), "{model}");
        assert!(
            outcome
                .system_messages
                .iter()
                .any(|m| m.contains("model judge: deny")),
            "{model}: {outcome:?}"
        );
    }
    // The judge saw the rendered prompt, with the schema in the request.
    let requests = server.requests();
    let first = requests.first().expect("the judge called the model");
    let body = first["body"].to_string();
    assert!(body.contains("Tool: shell"), "{body}");
    assert!(body.contains("rm -rf ~/.ssh"), "{body}");
    assert!(
        body.contains("pre_tool_use") || body.contains("json_schema"),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowing_judge_lets_the_call_through() {
    let dir = tempfile::tempdir().unwrap();
    let Some(server) = mock(
        &dir,
        &[
            "--side-text",
            r#"{"decision":"allow","reason":"read-only"}"#,
        ],
    ) else {
        return;
    };
    let engine = engine(&judge_config(&server.base_url(), "openai/m", ""));
    let outcome = engine
        .dispatch(EventId::PreToolUse, shell_call("s", "ls"))
        .await;
    assert_eq!(outcome.decision, Some(Decision::Allow), "{outcome:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_call_is_judged_once_per_session() {
    let dir = tempfile::tempdir().unwrap();
    let Some(server) = mock(&dir, &["--side-text", DENY]) else {
        return;
    };
    let engine = engine(&judge_config(&server.base_url(), "openai/m", ""));
    for _ in 0..3 {
        let outcome = engine
            .dispatch(EventId::PreToolUse, shell_call("s1", "make"))
            .await;
        assert_eq!(outcome.decision, Some(Decision::Deny));
    }
    assert_eq!(
        server.requests().len(),
        1,
        "one judgement for three identical calls"
    );
    // Another session, or another call, is judged afresh.
    engine
        .dispatch(EventId::PreToolUse, shell_call("s2", "make"))
        .await;
    engine
        .dispatch(EventId::PreToolUse, shell_call("s1", "make test"))
        .await;
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_redacted_before_the_judge_sees_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let Some(server) = mock(&dir, &["--side-text", DENY]) else {
        return;
    };
    // The slack-bot-token rule's own example (hookgate-secrets/rules/secrets.toml).
    let secret = "xoxb-681259216806-9881641519714-EB0dwXZN0QP4Ws7mmidJxjsy";
    let engine = engine(&judge_config(&server.base_url(), "anthropic/m", ""));
    engine
        .dispatch(
            EventId::PreToolUse,
            shell_call("s", &format!("curl -H 'Authorization: token {secret}' x")),
        )
        .await;
    let log = std::fs::read_to_string(dir.path().join("requests.jsonl")).unwrap();
    assert!(log.contains("curl -H"), "the call reached the judge: {log}");
    assert!(!log.contains(secret), "the secret left the machine: {log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_judge_that_does_not_answer_in_time_fails_closed() {
    // A socket that accepts connections (the kernel's backlog) and never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base_url = format!("http://{}/v1", silent.local_addr().unwrap());
    let yaml = judge_config(&base_url, "openai/m", "").replace("timeout: 10", "timeout: 0.3");
    let engine = engine(&yaml);
    let outcome = engine
        .dispatch(EventId::PreToolUse, shell_call("s", "ls"))
        .await;
    assert_eq!(outcome.decision, Some(Decision::Deny), "{outcome:?}");
    drop(silent);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unparseable_verdict_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    let Some(server) = mock(&dir, &["--side-text", "looks fine to me"]) else {
        return;
    };
    let engine = engine(&judge_config(&server.base_url(), "openai/m", ""));
    let outcome = engine
        .dispatch(EventId::PreToolUse, shell_call("s", "ls"))
        .await;
    assert_eq!(outcome.decision, Some(Decision::Deny), "{outcome:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_schema_the_reply_becomes_context() {
    let dir = tempfile::tempdir().unwrap();
    let Some(server) = mock(&dir, &["--side-text", "Remember: tests live in tests/."]) else {
        return;
    };
    let yaml = format!(
        r#"
hooks:
  turn_start:
    - type: model
      model: openai/m
      base_url: {}
      prompt: "Give one hint for: {{{{ .Prompt }}}}"
"#,
        server.base_url()
    );
    let engine = engine(&yaml);
    let input = HookInput::from_value(json!({"session_id": "s", "cwd": "/"})).unwrap();
    let outcome = engine.dispatch(EventId::TurnStart, input).await;
    assert_eq!(
        outcome.additional_context,
        vec!["Remember: tests live in tests/.".to_owned()],
        "{outcome:?}"
    );
}

#[test]
fn model_hook_mistakes_are_config_errors() {
    let cases = [
        ("model: gpt-4o\n          prompt: x", "openai/NAME"),
        ("model: openai/m", "needs `prompt`"),
        (
            "model: openai/m\n          prompt: \"{{ upper .ToolName }}\"",
            "unknown function",
        ),
        (
            "model: openai/m\n          prompt: x\n          command: ls",
            "`command` does not apply",
        ),
        (
            "model: openai/m\n          prompt: x\n          schema: free_text",
            "pre_tool_use_decision",
        ),
    ];
    for (fields, expected) in cases {
        let yaml = format!(
            "hooks:\n  pre_tool_use:\n    - matcher: shell\n      hooks:\n        - type: model\n          {fields}\n"
        );
        let err = match parse_text(&yaml, Format::Yaml, None, Layer::Code) {
            Err(e) => e.to_string(),
            Ok(layer) => merge(vec![layer]).map_or_else(|e| e.to_string(), |_| "no error".into()),
        };
        assert!(err.contains(expected), "{fields}: {err}");
    }
    // A decision schema where no decision is taken.
    let yaml = "hooks:\n  session_start:\n    - type: model\n      model: openai/m\n      prompt: x\n      schema: pre_tool_use_decision\n";
    let err = merge(vec![
        parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap(),
    ])
    .map_or_else(|e| e.to_string(), |_| "no error".into());
    assert!(err.contains("does not take"), "{err}");
}

/// A judge on an event that does not fail closed: its failure follows `on_error`.
fn permission_judge(base_url: &str, on_error: &str) -> String {
    format!(
        r#"
hooks:
  permission_request:
    - type: model
      model: openai/m
      base_url: {base_url}
      schema: pre_tool_use_decision
      timeout: 0.3
      on_error: {on_error}
      prompt: "Tool: {{{{ .ToolName }}}}"
"#
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_judge_on_permission_request_never_approves_and_follows_on_error() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base_url = format!("http://{}/v1", silent.local_addr().unwrap());
    // warn (the default): no opinion, so the person is asked as if no hook had answered, and
    // a warning says why.
    let outcome = engine(&permission_judge(&base_url, "warn"))
        .dispatch(EventId::PermissionRequest, shell_call("s", "ls"))
        .await;
    assert_eq!(outcome.decision, None, "{outcome:?}");
    assert!(
        outcome.system_messages.iter().any(|m| m.contains("failed")),
        "{outcome:?}"
    );
    // block: the event can block, so it denies.
    let outcome = engine(&permission_judge(&base_url, "block"))
        .dispatch(EventId::PermissionRequest, shell_call("s", "ls"))
        .await;
    assert_eq!(outcome.decision, Some(Decision::Deny), "{outcome:?}");
    // The guard events fail closed whatever on_error says.
    let guard = permission_judge(&base_url, "ignore").replace("permission_request", "tool_guard");
    let outcome = engine(&guard)
        .dispatch(EventId::ToolGuard, shell_call("s", "ls"))
        .await;
    assert_eq!(outcome.decision, Some(Decision::Deny), "{outcome:?}");
    drop(silent);
}
