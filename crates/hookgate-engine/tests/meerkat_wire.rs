//! Meerkat-shaped entries get Meerkat's wire shape and defaults; docker-agent-shaped ones do not.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed assumption should fail the test"
)]

use hookgate_core::{EventId, HookInput};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use serde_json::{Value, json};

fn config(dir: &std::path::Path) -> hookgate_engine::HooksConfig {
    let toml = format!(
        r#"
[hooks]
[[hooks.entries]]
id = "meerkat-guard"
point = "pre_tool_execution"
capability = "guardrail"
runtime = {{ type = "command", command = "cat > {meerkat}; echo '{{}}'" }}

[hooks.pre_tool_use]
type = "command"
command = "cat > {docker}"
"#,
        meerkat = dir.join("meerkat.json").display(),
        docker = dir.join("docker.json").display(),
    );
    merge(vec![
        parse_text(&toml, Format::Toml, None, Layer::Code).unwrap(),
    ])
    .unwrap()
}

#[test]
fn meerkat_entries_default_to_meerkat_s_5000_ms_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let meerkat = config
        .entries
        .iter()
        .find(|e| e.id.as_str() == "meerkat-guard")
        .unwrap();
    assert_eq!(meerkat.timeout_ms, Some(5000));
    assert_eq!(meerkat.meerkat_point.as_deref(), Some("pre_tool_execution"));
    let docker = config
        .entries
        .iter()
        .find(|e| e.id.as_str() != "meerkat-guard")
        .unwrap();
    assert_eq!(
        docker.timeout_ms, None,
        "docker-agent entries keep the 60 s default"
    );
    assert_eq!(docker.meerkat_point, None);
}

#[tokio::test]
async fn meerkat_entries_receive_a_hook_invocation_and_docker_agent_entries_the_flat_input() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::new(config(dir.path())).unwrap();
    let input = HookInput::from_value(json!({
        "session_id": "s1", "cwd": "/", "tool_name": "shell", "tool_use_id": "t1",
        "tool_input": {"command": "ls"}, "iteration": 2
    }))
    .unwrap();
    let outcome = engine.dispatch(EventId::PreToolUse, input).await;
    assert!(outcome.allowed(), "{outcome:?}");
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(name)).unwrap()).unwrap()
    };
    assert_eq!(
        read("meerkat.json"),
        json!({"point": "pre_tool_execution", "session_id": "s1", "turn_number": 2,
               "tool_call": {"tool_use_id": "t1", "name": "shell", "args": {"command": "ls"}}})
    );
    let docker = read("docker.json");
    assert_eq!(docker["hook_event_name"], "pre_tool_use");
    assert_eq!(docker["tool_input"], json!({"command": "ls"}));
}
