//! The wire clients against `../shared/e2e/mock_llm.py`, a real HTTP server on 127.0.0.1.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failure should stop loudly

use hookgate_llm::mock_server::MockLlm;
use hookgate_llm::{
    ChatRequest, LlmError, Message, ModelSpec, RemoteOptions, Role, StopReason, ToolSpec,
    remote_with,
};
use serde_json::{Value, json};

const SCHEMES: [&str; 3] = ["openai", "openai-responses", "anthropic"];

/// Starts the mock or returns `None` (skip) when python3 is missing outside CI.
fn mock(dir: &tempfile::TempDir, args: &[&str]) -> Option<MockLlm> {
    MockLlm::start(args, &dir.path().join("requests.jsonl")).unwrap_or_else(|e| panic!("{e}"))
}

fn model(scheme: &str, server: &MockLlm) -> Box<dyn hookgate_llm::Model> {
    let spec: ModelSpec = format!("{scheme}:{}#mock-model", server.base_url())
        .parse()
        .unwrap_or_else(|e: LlmError| panic!("{e}"));
    remote_with(&spec, RemoteOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn shell_tool() -> ToolSpec {
    ToolSpec {
        name: "shell".into(),
        description: "run a command".into(),
        input_schema: json!({"type": "object", "properties": {"cmd": {"type": "string"}}}),
    }
}

fn script(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("script.json");
    std::fs::write(
        &path,
        json!([{"tool": "shell", "input": {"cmd": "echo hi"}}, {"text": "all done"}]).to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    path.display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_protocol_decodes_a_tool_call_and_sends_its_result_back() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let script = script(&dir);
    let Some(server) = mock(&dir, &["--script", &script]) else {
        return;
    };
    for scheme in SCHEMES {
        let model = model(scheme, &server);
        let mut request = ChatRequest {
            messages: vec![
                Message::text(Role::System, "you are a test"),
                Message::text(Role::User, "say hi"),
            ],
            tools: vec![shell_tool()],
            ..ChatRequest::default()
        };
        let first = model
            .complete(&request)
            .await
            .unwrap_or_else(|e| panic!("{scheme}: {e}"));
        assert_eq!(first.stop_reason, StopReason::ToolUse, "{scheme}");
        assert_eq!(first.message.tool_calls.len(), 1, "{scheme}");
        let call = &first.message.tool_calls[0];
        assert_eq!(call.name, "shell", "{scheme}");
        assert_eq!(call.input, json!({"cmd": "echo hi"}), "{scheme}");
        assert_eq!(first.usage.input_tokens, 10, "{scheme}");
        assert_eq!(first.usage.output_tokens, 10, "{scheme}");

        let call_id = call.id.clone();
        request.messages.push(first.message);
        request
            .messages
            .push(Message::tool_result(call_id.clone(), "hi\n", false));
        let second = model
            .complete(&request)
            .await
            .unwrap_or_else(|e| panic!("{scheme}: {e}"));
        assert_eq!(second.stop_reason, StopReason::EndTurn, "{scheme}");
        assert_eq!(second.message.text, "all done", "{scheme}");

        // The mock served turn 2, so it counted our assistant turn; and it got the result.
        let last = server.requests().pop().unwrap_or(Value::Null);
        assert_eq!(last["turn"], 2, "{scheme}: {last}");
        assert!(
            last["body"].to_string().contains(&call_id),
            "{scheme}: the tool result must answer the call by id: {last}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn structured_output_requests_carry_the_schema_natively() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // No --side-text: the mock answers a schema'd side call with the smallest fitting object,
    // which it can only do if it found the schema where the protocol puts it.
    let Some(server) = mock(&dir, &[]) else {
        return;
    };
    let schema = json!({
        "type": "object",
        "properties": {"decision": {"type": "string", "enum": ["deny", "allow"]}},
        "required": ["decision"]
    });
    for scheme in SCHEMES {
        let model = model(scheme, &server);
        let request = ChatRequest {
            messages: vec![Message::text(Role::User, "judge this")],
            response_schema: Some(schema.clone()),
            ..ChatRequest::default()
        };
        let reply = model
            .complete(&request)
            .await
            .unwrap_or_else(|e| panic!("{scheme}: {e}"));
        let decoded: Value =
            serde_json::from_str(&reply.message.text).unwrap_or_else(|e| panic!("{scheme}: {e}"));
        assert_eq!(decoded, json!({"decision": "deny"}), "{scheme}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_endpoint_is_a_transport_error_not_an_answer() {
    // A port that was just free: nothing listens on it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    for scheme in SCHEMES {
        let spec: ModelSpec = format!("{scheme}:http://127.0.0.1:{port}/v1#m")
            .parse()
            .unwrap_or_else(|e: LlmError| panic!("{e}"));
        let model = remote_with(&spec, RemoteOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let err = model
            .complete(&ChatRequest {
                messages: vec![Message::text(Role::User, "x")],
                ..ChatRequest::default()
            })
            .await;
        assert!(
            matches!(err, Err(LlmError::Transport { .. })),
            "{scheme}: {err:?}"
        );
    }
}
