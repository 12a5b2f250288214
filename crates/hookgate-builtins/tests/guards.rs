//! The SDK guards through the engine: parsed commands and canonical paths, never raw text.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_pass_by_value,
    reason = "test code"
)]

use hookgate_core::{Decision, EventId, HookInput, Outcome};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use serde_json::{Value, json};

fn engine(yaml: &str) -> Engine {
    let layer = parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap();
    Engine::with_builtins(merge(vec![layer]).unwrap(), hookgate_builtins::registry()).unwrap()
}

fn guard(name: &str, args: &[&str]) -> Engine {
    engine(&format!(
        "hooks:\n  pre_tool_use:\n    - type: builtin\n      command: {name}\n      args: {}\n",
        serde_json::to_string(args).unwrap()
    ))
}

async fn call(engine: &Engine, tool: &str, input: Value, cwd: &str) -> Outcome {
    let input = HookInput::from_value(
        json!({"session_id": "s", "cwd": cwd, "tool_name": tool, "tool_input": input}),
    )
    .unwrap();
    engine.dispatch(EventId::PreToolUse, input).await
}

async fn bash(engine: &Engine, command: &str) -> Outcome {
    call(engine, "Bash", json!({"command": command}), "/work/project").await
}

#[tokio::test]
async fn deny_commands_blocks_every_spelling_of_the_pattern() {
    let e = guard("deny_commands", &["rm -rf", "sudo", "curl"]);
    for command in [
        "rm -rf /tmp/x",
        "rm -fr /",
        "rm -r -f build",
        "rm -f -r build",
        "/bin/rm -Rf x",
        "r''m -rf x",
        "\\rm -rf x",
        "\"rm\" -rf x",
        "bash -c 'rm -rf x'",
        "sh -c \"cd / && rm -rf x\"",
        "echo $(rm -rf x)",
        "sudo ls",
        "timeout 5 curl https://example.com",
        "find . -exec rm -rf {} +",
    ] {
        let outcome = bash(&e, command).await;
        assert!(
            outcome.blocked(),
            "`{command}` must be blocked: {:?}",
            outcome.reason
        );
    }
}

#[tokio::test]
async fn deny_commands_leaves_data_alone() {
    let e = guard("deny_commands", &["rm -rf", "sudo", "curl"]);
    for command in [
        "echo \"rm -rf /\"",
        "git commit -m 'stop using sudo and rm -rf'",
        "grep -r 'curl' src/",
        "rm file.txt",
        "printf '%s\\n' curl",
        "cat <<'EOF'\nrm -rf /\nEOF",
    ] {
        let outcome = bash(&e, command).await;
        assert_eq!(
            outcome.decision, None,
            "`{command}` must pass: {:?}",
            outcome.reason
        );
    }
}

#[tokio::test]
async fn deny_commands_asks_when_the_command_cannot_be_resolved() {
    let e = guard("deny_commands", &["rm -rf"]);
    // (`x=rm; $x -rf /` is resolved now: the analyzer knows literal assignments.)
    let outcome = bash(&e, "x=$(cat f); $x -rf /").await;
    assert_eq!(
        outcome.decision,
        Some(Decision::Ask),
        "{:?}",
        outcome.reason
    );
}

#[tokio::test]
async fn deny_commands_ignores_non_shell_tools() {
    let e = guard("deny_commands", &["rm -rf"]);
    let outcome = call(
        &e,
        "Write",
        json!({"file_path": "x", "content": "rm -rf /"}),
        "/w",
    )
    .await;
    assert_eq!(outcome.decision, None);
}

#[tokio::test]
async fn require_command_suggests_the_preferred_tool() {
    let e = guard("require_command", &["make", "go build", "go test"]);
    let outcome = bash(&e, "cd src && go build ./...").await;
    assert!(outcome.blocked());
    assert_eq!(
        outcome.reason.as_deref(),
        Some("use make instead of go build")
    );
    assert_eq!(bash(&e, "go vet ./...").await.decision, None);
    assert_eq!(bash(&e, "make build").await.decision, None);
}

#[tokio::test]
async fn allow_paths_compares_canonical_paths_by_component() {
    let root = tempfile::tempdir().unwrap();
    let sandbox = root.path().join("sandbox");
    std::fs::create_dir_all(sandbox.join("sub")).unwrap();
    std::fs::create_dir_all(root.path().join("sandboxed")).unwrap();
    std::os::unix::fs::symlink("/etc", sandbox.join("escape")).unwrap();
    let e = guard("allow_paths", &[sandbox.to_str().unwrap(), "./src"]);
    let cwd = root.path().to_str().unwrap();
    let read = |p: String| call(&e, "Read", json!({"file_path": p}), cwd);
    assert_eq!(
        read(format!("{}/sub/a.txt", sandbox.display()))
            .await
            .decision,
        None
    );
    assert_eq!(
        read("src/main.rs".into()).await.decision,
        None,
        "relative roots resolve against the event's cwd"
    );
    for bad in [
        format!("{}/../etc/passwd", sandbox.display()),
        format!("{}/x", root.path().join("sandboxed").display()),
        format!("{}/escape/passwd", sandbox.display()),
        "/etc/passwd".to_owned(),
        "../outside".to_owned(),
    ] {
        let outcome = read(bad.clone()).await;
        assert!(outcome.blocked(), "`{bad}` must be denied");
        assert!(
            outcome
                .reason
                .unwrap()
                .starts_with("path not in allowed list")
        );
    }
}

#[tokio::test]
async fn deny_paths_catches_traversal_home_forms_and_symlinks() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("secrets")).unwrap();
    std::os::unix::fs::symlink(root.path().join("secrets"), root.path().join("innocent")).unwrap();
    let e = guard(
        "deny_paths",
        &["/etc", root.path().join("secrets").to_str().unwrap()],
    );
    let cwd = root.path().to_str().unwrap();
    for bad in [
        "/etc/passwd",
        "/tmp/../etc/shadow",
        "secrets/key",
        "innocent/key",
    ] {
        let outcome = call(&e, "Write", json!({"file_path": bad, "content": ""}), cwd).await;
        assert!(outcome.blocked(), "`{bad}` must be denied");
    }
    for fine in ["/etc2/x", "/tmp/etc", "secrets2/x"] {
        let outcome = call(&e, "Write", json!({"file_path": fine, "content": ""}), cwd).await;
        assert_eq!(outcome.decision, None, "`{fine}` must pass");
    }
}

#[tokio::test]
async fn redirect_path_rewrites_only_the_path_and_keeps_other_keys() {
    let e = guard("redirect_path", &["/tmp", "/sandbox/tmp"]);
    let outcome = call(
        &e,
        "Write",
        json!({"file_path": "/tmp/out.txt", "content": "hello", "mode": 420}),
        "/w",
    )
    .await;
    assert_eq!(outcome.decision, Some(Decision::Allow));
    assert_eq!(
        Value::Object(outcome.updated_input.unwrap()),
        json!({"file_path": "/sandbox/tmp/out.txt", "content": "hello", "mode": 420})
    );
    let untouched = call(
        &e,
        "Write",
        json!({"file_path": "/tmpfile", "content": ""}),
        "/w",
    )
    .await;
    assert_eq!(untouched.updated_input, None, "/tmpfile is not under /tmp");
    let traversal = call(
        &e,
        "Write",
        json!({"file_path": "/tmp/../etc/x", "content": ""}),
        "/w",
    )
    .await;
    assert_eq!(traversal.updated_input, None);
}

#[tokio::test]
async fn rate_limit_counts_per_tool_across_engines() {
    let state = tempfile::tempdir().unwrap();
    let session = "rate-test".to_owned();
    let yaml = format!(
        "hooks:\n  pre_tool_use:\n    - type: builtin\n      command: rate_limit\n      args: [\"2\", \"60s\"]\n      env:\n        HOOKGATE_STATE_DIR: {}\n",
        state.path().display()
    );
    let yaml = yaml.as_str();
    let run = |tool: &'static str| {
        let session = session.clone();
        async move {
            // A fresh engine per call, as a fresh hook process would be.
            let e = engine(yaml);
            let input = HookInput::from_value(
                json!({"session_id": session, "cwd": "/", "tool_name": tool, "tool_input": {}}),
            )
            .unwrap();
            e.dispatch(EventId::PreToolUse, input).await
        }
    };
    assert_eq!(run("Bash").await.decision, None);
    assert_eq!(run("Bash").await.decision, None);
    let third = run("Bash").await;
    assert!(third.blocked(), "{:?}", third.reason);
    assert!(third.reason.unwrap().contains("limit 2"));
    assert_eq!(run("Read").await.decision, None, "limits are per tool");
    assert!(state.path().join("rate_limit").read_dir().unwrap().count() == 1);
}

#[tokio::test]
async fn guard_arguments_are_checked_at_load() {
    let layer = parse_text(
        "hooks:\n  pre_tool_use:\n    - type: builtin\n      command: rate_limit\n      args: [\"lots\", \"60s\"]\n",
        Format::Yaml,
        None,
        Layer::Code,
    )
    .unwrap();
    let err = Engine::with_builtins(merge(vec![layer]).unwrap(), hookgate_builtins::registry())
        .unwrap_err();
    assert!(err.message.contains("positive integer"), "{err}");
    let layer = parse_text(
        "hooks:\n  pre_tool_use:\n    - type: builtin\n      command: deny_commands\n",
        Format::Yaml,
        None,
        Layer::Code,
    )
    .unwrap();
    assert!(
        Engine::with_builtins(merge(vec![layer]).unwrap(), hookgate_builtins::registry()).is_err()
    );
}

#[tokio::test]
async fn safer_shell_asks_or_denies_with_metadata_and_stays_silent_on_safe_commands() {
    let e = engine("hooks:\n  pre_tool_use:\n    - type: builtin\n      command: safer_shell\n");
    assert_eq!(bash(&e, "ls -la && git status").await.decision, None);
    let deny = bash(&e, "rm -rf /").await;
    assert_eq!(deny.decision, Some(Decision::Deny));
    assert_eq!(deny.metadata["blast_radius"], "high");
    assert_eq!(deny.metadata["safety_label"], "destructive");
    let unknown = bash(&e, "$CMD --now").await;
    assert_eq!(unknown.decision, Some(Decision::Ask));
    let lenient = engine(
        "hooks:\n  pre_tool_use:\n    - type: builtin\n      command: safer_shell\n      args: [ask]\n",
    );
    assert_eq!(
        bash(&lenient, "rm -rf /").await.decision,
        Some(Decision::Ask)
    );
}

#[tokio::test]
async fn redact_secrets_scrubs_tool_input_and_keeps_other_keys() {
    let e = engine(
        "hooks:\n  tool_input_transform:\n    - type: builtin\n      command: redact_secrets\n",
    );
    let input = HookInput::from_value(json!({
        "session_id": "s", "cwd": "/", "tool_name": "Write",
        "tool_input": {"file_path": "x.env", "content": "AWS=AKIAZ7XQ3JH2LMN4PQRS\n", "mode": 420}
    }))
    .unwrap();
    let outcome = e.dispatch(EventId::ToolInputTransform, input).await;
    assert_eq!(
        Value::Object(outcome.updated_input.unwrap()),
        json!({"file_path": "x.env", "content": "AWS=[REDACTED]\n", "mode": 420})
    );
    assert!(outcome.system_messages[0].contains("removed 1 secret"));
}

#[tokio::test]
async fn redact_secrets_scrubs_tool_output() {
    let e = engine(
        "hooks:\n  tool_response_transform:\n    - type: builtin\n      command: redact_secrets\n",
    );
    let mut input = HookInput::for_event(EventId::ToolResponseTransform);
    input.tool_name = Some("Bash".into());
    input.tool_response = Some(json!(
        "token: xoxb-2847362819-2938476512-aB3dE5fG7hJ9kL1mN3pQ5rS7"
    ));
    let outcome = e.dispatch(EventId::ToolResponseTransform, input).await;
    assert_eq!(
        outcome.updated_tool_response,
        Some(json!("token: [REDACTED]"))
    );
    let mut clean = HookInput::for_event(EventId::ToolResponseTransform);
    clean.tool_response = Some(json!("nothing here"));
    assert_eq!(
        e.dispatch(EventId::ToolResponseTransform, clean)
            .await
            .updated_tool_response,
        None
    );
}

#[tokio::test]
async fn builtins_decide_in_the_environment_they_were_given_not_the_process_one() {
    // Two registries, two homes: `~/vault` is a different place for each, whatever `$HOME` the
    // test process has. A built-in that read the process environment while deciding would
    // give both the same answer.
    let yaml = "hooks:\n  pre_tool_use:\n    - type: builtin\n      command: deny_paths\n      args: [\"~/vault\"]\n";
    let with_home = |home: &str| {
        let layer = parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap();
        let env = hookgate_builtins::Environment {
            home: Some(home.into()),
            ..hookgate_builtins::Environment::default()
        };
        Engine::with_builtins(
            merge(vec![layer]).unwrap(),
            hookgate_builtins::registry_with(env),
        )
        .unwrap()
    };
    let read = |e: Engine| async move {
        call(
            &e,
            "Read",
            json!({"file_path": "/home/alice/vault/key"}),
            "/",
        )
        .await
    };
    assert!(read(with_home("/home/alice")).await.blocked());
    assert!(!read(with_home("/home/bob")).await.blocked());
}
