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

fn meerkat_engine(entries: &str) -> Engine {
    let toml = format!("[hooks]\n{entries}");
    Engine::new(
        merge(vec![
            parse_text(&toml, Format::Toml, None, Layer::Code).unwrap(),
        ])
        .unwrap(),
    )
    .unwrap()
}

/// A Meerkat entry whose command prints `answer` (kept in a file, so no quoting is involved).
fn answering(dir: &std::path::Path, id: &str, capability: Option<&str>, answer: &str) -> String {
    let file = dir.join(format!("{id}.json"));
    std::fs::write(&file, answer).unwrap();
    let capability = capability.map_or_else(String::new, |c| format!("capability = \"{c}\"\n"));
    format!(
        "[[hooks.entries]]\nid = \"{id}\"\npoint = \"pre_tool_execution\"\n{capability}runtime = {{ type = \"command\", command = \"cat {}\" }}\n",
        file.display()
    )
}

fn shell_call(command: &str) -> HookInput {
    HookInput::from_value(json!({
        "session_id": "s1", "cwd": "/", "tool_name": "shell", "tool_use_id": "t1",
        "tool_input": {"command": command, "timeout": 5}
    }))
    .unwrap()
}

const PATCH: &str = r#"{"patches":[{"patch_type":"tool_args","args":{"command":"ls -l"}}]}"#;

#[tokio::test]
async fn a_meerkat_rewrite_hook_patches_tool_args_through_the_lanes() {
    let dir = tempfile::tempdir().unwrap();
    let engine = meerkat_engine(&answering(dir.path(), "rw", Some("rewrite"), PATCH));
    let lanes = engine.dispatch_tool_call(shell_call("ls")).await;
    assert!(!lanes.blocked(), "{lanes:?}");
    assert_eq!(
        Value::Object(lanes.tool_input.unwrap()),
        json!({"command": "ls -l", "timeout": 5}),
        "the patch merged over the input, keeping the keys it did not name"
    );
}

#[tokio::test]
async fn a_meerkat_observe_hook_can_neither_rewrite_nor_block() {
    let dir = tempfile::tempdir().unwrap();
    // Observe is Meerkat's default capability: no `capability` line.
    let mut entries = answering(dir.path(), "obs-patch", None, PATCH);
    entries.push_str(&answering(
        dir.path(),
        "obs-docker",
        None,
        r#"{"hook_specific_output":{"updated_input":{"command":"rm -rf /"}}}"#,
    ));
    entries.push_str(&answering(
        dir.path(),
        "obs-deny",
        None,
        r#"{"decision":{"decision":"deny","hook_id":"x","reason_code":"policy_violation","message":"m"}}"#,
    ));
    let engine = meerkat_engine(&entries);
    let lanes = engine.dispatch_tool_call(shell_call("ls")).await;
    assert!(!lanes.blocked(), "{lanes:?}");
    assert_eq!(lanes.tool_input.unwrap()["command"], "ls");
}

#[tokio::test]
async fn a_meerkat_rewrite_hook_cannot_deny_but_a_guardrail_can() {
    let deny = r#"{"decision":{"decision":"deny","hook_id":"x","reason_code":"policy_violation","message":"blocked"}}"#;
    for (capability, blocked) in [("rewrite", false), ("guardrail", true)] {
        let dir = tempfile::tempdir().unwrap();
        let engine = meerkat_engine(&answering(dir.path(), "h", Some(capability), deny));
        let outcome = engine.dispatch(EventId::PreToolUse, shell_call("ls")).await;
        assert_eq!(outcome.blocked(), blocked, "{capability}: {outcome:?}");
    }
}

#[test]
fn a_background_rewrite_hook_is_a_config_error() {
    let toml = "[hooks]\n[[hooks.entries]]\nid = \"bg\"\npoint = \"post_tool_execution\"\nmode = \"background\"\ncapability = \"rewrite\"\nruntime = { type = \"command\", command = \"true\" }\n";
    let err = parse_text(toml, Format::Toml, None, Layer::Code)
        .map(|layer| merge(vec![layer]))
        .map_or_else(
            |e| e.to_string(),
            |m| m.map_or_else(|e| e.to_string(), |_| String::new()),
        );
    assert!(err.contains("must be `observe`"), "{err}");
}
