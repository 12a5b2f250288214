//! Command hooks with real subprocesses: exit codes, outputs, failures, timeouts, caps.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_pass_by_value,
    clippy::format_push_string,
    reason = "test code: a failed assumption should fail the test"
)]

use std::time::{Duration, Instant};

use hookgate_core::{Decision, EventId, HookInput, TraceResult};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use serde_json::json;

fn engine(yaml: &str) -> Engine {
    let layer = parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap();
    Engine::new(merge(vec![layer]).unwrap()).unwrap()
}

fn one_hook(event: &str, extra: &str, script: &str) -> Engine {
    engine(&format!(
        "hooks:\n  {event}:\n    - type: command\n{extra}      command: {}\n",
        serde_json::to_string(script).unwrap()
    ))
}

fn input(event: EventId) -> HookInput {
    let mut input = HookInput::from_value(json!({
        "session_id": "s1", "cwd": "/tmp", "tool_name": "shell", "tool_input": {"cmd": "ls"}
    }))
    .unwrap();
    event.name().clone_into(&mut input.hook_event_name);
    input
}

async fn fire(engine: &Engine, event: EventId) -> hookgate_core::Outcome {
    engine.dispatch(event, input(event)).await
}

#[tokio::test]
async fn exit_two_blocks_with_stderr_as_the_reason() {
    let e = one_hook("pre_tool_use", "", "echo 'rm is not allowed' >&2; exit 2");
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(outcome.blocked());
    assert_eq!(outcome.reason.as_deref(), Some("rm is not allowed"));
}

#[tokio::test]
async fn exit_zero_with_block_json_blocks_with_its_reason() {
    let e = one_hook(
        "pre_tool_use",
        "",
        r#"echo '{"decision":"block","reason":"policy says no"}'"#,
    );
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(outcome.blocked());
    assert_eq!(outcome.reason.as_deref(), Some("policy says no"));
}

#[tokio::test]
async fn the_hook_receives_the_input_on_stdin() {
    let e = one_hook(
        "stop",
        "",
        r#"input=$(cat); case "$input" in *'"hook_event_name":"stop"'*) case "$input" in *'"session_id":"s1"'*) echo "got it";; esac;; *) echo "missing: $input";; esac"#,
    );
    let outcome = fire(&e, EventId::Stop).await;
    assert_eq!(outcome.additional_context, vec!["got it"]);
}

#[tokio::test]
async fn plain_stdout_is_context_exactly_on_consuming_events() {
    let consuming = [
        EventId::SessionStart,
        EventId::TurnStart,
        EventId::PostToolUse,
        EventId::Stop,
        EventId::UserPromptSubmit,
        EventId::PreCompact,
        EventId::WorktreeCreate,
    ];
    let not_consuming = [
        EventId::BeforeLlmCall,
        EventId::AfterLlmCall,
        EventId::OnError,
        EventId::OnMaxIterations,
        EventId::Notification,
        EventId::OnUserInput,
        EventId::SessionEnd,
        EventId::BeforeCompaction,
        EventId::AfterCompaction,
        EventId::TurnEnd,
    ];
    for (events, expected) in [(&consuming[..], true), (&not_consuming[..], false)] {
        for event in events {
            let e = one_hook(event.name(), "", "echo plain words");
            let mut inp = input(*event);
            inp.tool_name = None;
            let outcome = e.dispatch(*event, inp).await;
            assert_eq!(!outcome.additional_context.is_empty(), expected, "{event}");
            if !expected {
                assert!(
                    !outcome.trace[0].notes.is_empty(),
                    "{event}: ignored stdout must be noted"
                );
            }
        }
    }
}

#[tokio::test]
async fn failure_matrix_fail_closed_events_block_on_every_failure_whatever_on_error() {
    let failures = [
        ("exit 1", "exit 1"),
        ("exit 127", "exit 127"),
        ("malformed json", "echo '{\"decision\":'"),
        ("two objects", "echo '{} {}'"),
        ("bad decision", "echo '{\"decision\":\"blok\"}'"),
        (
            "bad permission",
            "echo '{\"hook_specific_output\":{\"permission_decision\":\"alow\"}}'",
        ),
        ("missing binary", "/nonexistent/hook-binary"),
        ("killed", "kill -9 $$"),
    ];
    for event in [EventId::PreToolUse, EventId::ToolGuard] {
        for on_error in [
            "",
            "      on_error: warn\n",
            "      on_error: ignore\n",
            "      on_error: block\n",
        ] {
            for (name, script) in failures {
                let e = one_hook(event.name(), on_error, script);
                let outcome = fire(&e, event).await;
                assert!(outcome.blocked(), "{event} {on_error:?} {name} must block");
                assert!(
                    matches!(
                        outcome.trace[0].result,
                        TraceResult::Failed { blocked: true, .. }
                    ),
                    "{name}"
                );
            }
        }
    }
}

#[tokio::test]
async fn failures_off_fail_closed_events_follow_on_error() {
    let warn = fire(
        &one_hook("user_prompt_submit", "", "exit 1"),
        EventId::UserPromptSubmit,
    )
    .await;
    assert!(!warn.blocked());
    assert!(
        warn.system_messages[0].contains(
            "user_prompt_submit hook `user_prompt_submit/1` failed: exited with status 1"
        )
    );
    let ignore = fire(
        &one_hook("user_prompt_submit", "      on_error: ignore\n", "exit 1"),
        EventId::UserPromptSubmit,
    )
    .await;
    assert!(!ignore.blocked() && ignore.system_messages.is_empty());
    let block = fire(
        &one_hook("user_prompt_submit", "      on_error: block\n", "exit 1"),
        EventId::UserPromptSubmit,
    )
    .await;
    assert!(block.blocked());
    let post = fire(
        &one_hook("post_tool_use", "      timeout: 0.2\n", "sleep 5"),
        EventId::PostToolUse,
    )
    .await;
    assert!(
        !post.blocked(),
        "a post_tool_use timeout does not fail closed"
    );
    assert!(post.system_messages[0].contains("timed out"));
}

#[tokio::test]
async fn a_hook_leaving_a_sleeping_grandchild_times_out_on_schedule_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let script = format!("sleep 30 & echo $! > {}; wait", pid_file.display());
    let e = one_hook("pre_tool_use", "      timeout: 1\n", &script);
    let started = Instant::now();
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    assert!(outcome.blocked());
    assert!(outcome.reason.unwrap().contains("timed out after 1s"));
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_owned();
    // Signals are delivered asynchronously: give the kernel a moment before calling it a leak.
    let until = Instant::now() + Duration::from_secs(1);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next());
        // Gone, or a zombie waiting for a reaper: either way, not running.
        if stat.is_empty() || matches!(state, Some('Z' | 'X')) {
            break;
        }
        assert!(
            Instant::now() < until,
            "grandchild {pid} still alive: {stat}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[tokio::test]
async fn a_hook_that_never_reads_a_large_input_still_times_out_on_schedule() {
    let e = one_hook("pre_tool_use", "      timeout: 1\n", "sleep 30");
    let mut inp = input(EventId::PreToolUse);
    inp.tool_input = Some(
        json!({"content": "x".repeat(1024 * 1024)})
            .as_object()
            .unwrap()
            .clone(),
    );
    let started = Instant::now();
    let outcome = e.dispatch(EventId::PreToolUse, inp).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    assert!(outcome.blocked());
}

#[tokio::test]
async fn output_beyond_the_cap_is_a_failure() {
    let e = engine(
        "hooks:\n  payload_max_bytes: 65536\n  pre_tool_use:\n    - type: command\n      command: head -c 10485760 /dev/zero\n",
    );
    let started = Instant::now();
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(outcome.blocked());
    assert!(
        outcome
            .reason
            .unwrap()
            .contains("exceeded the output limit of 65536 bytes")
    );
}

#[tokio::test]
async fn a_missing_binary_is_a_failure_with_a_clear_message() {
    let e = engine(
        "hooks:\n  pre_tool_use:\n    - type: command\n      command: ./no-such-hook.sh\n      args: []\n",
    );
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(outcome.blocked());
    let reason = outcome.reason.unwrap();
    assert!(
        reason.contains("failed to start `./no-such-hook.sh`") && reason.contains("No such file"),
        "{reason}"
    );
}

#[tokio::test]
async fn env_and_working_dir_are_applied_with_expansion() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("hooks")).unwrap();
    let yaml = format!(
        "hooks:\n  stop:\n    - type: command\n      working_dir: {}/hooks\n      env:\n        GREETING: \"home=${{env.HOME}}\"\n        LITERAL: \"$NOT_EXPANDED\"\n      command: 'echo \"$(pwd) $GREETING $LITERAL $HOOKGATE_EVENT\"'\n",
        dir.path().display()
    );
    let e = engine(&yaml);
    let outcome = fire(&e, EventId::Stop).await;
    let home = std::env::var("HOME").unwrap();
    let expected = format!(
        "{}/hooks home={home} $NOT_EXPANDED stop",
        dir.path().canonicalize().unwrap().display()
    );
    assert_eq!(outcome.additional_context, vec![expected]);
}

#[tokio::test]
async fn working_dir_expands_home_and_variables() {
    let e = one_hook("stop", "      working_dir: \"~\"\n", "pwd");
    let outcome = fire(&e, EventId::Stop).await;
    let home = std::path::PathBuf::from(std::env::var("HOME").unwrap())
        .canonicalize()
        .unwrap();
    assert_eq!(outcome.additional_context, vec![home.display().to_string()]);
    let e = one_hook("stop", "      working_dir: \"$HOME\"\n", "pwd");
    assert_eq!(
        fire(&e, EventId::Stop).await.additional_context,
        vec![home.display().to_string()]
    );
}

#[tokio::test]
async fn an_unset_env_reference_fails_the_hook_instead_of_sending_an_empty_value() {
    let e = one_hook(
        "pre_tool_use",
        "      env:\n        TOKEN: \"${env.HOOKGATE_SURELY_UNSET_VAR}\"\n",
        "echo {}",
    );
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(outcome.blocked());
    assert!(
        outcome
            .reason
            .unwrap()
            .contains("HOOKGATE_SURELY_UNSET_VAR")
    );
}

#[tokio::test]
async fn exec_form_passes_arguments_without_a_shell() {
    let e = engine(
        "hooks:\n  stop:\n    - type: command\n      command: echo\n      args: [\"$(id)\", \"a b\"]\n",
    );
    let outcome = fire(&e, EventId::Stop).await;
    assert_eq!(outcome.additional_context, vec!["$(id) a b"]);
}

#[tokio::test]
async fn claude_code_hook_scripts_run_unchanged() {
    let script = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"claude-style deny"}}'"#;
    let e = one_hook("PreToolUse", "      strict_output: true\n", script);
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(outcome.blocked());
    assert_eq!(outcome.reason.as_deref(), Some("claude-style deny"));
}

#[tokio::test]
async fn meerkat_command_responses_are_accepted_with_the_configured_id() {
    let toml = r#"
[[hooks.entries]]
id = "safety-check"
point = "pre_tool_execution"
capability = "guardrail"
priority = 10
[hooks.entries.runtime]
type = "command"
command = "sh"
args = ["-c", "cat >/dev/null; printf '%s' '{\"decision\":{\"decision\":\"deny\",\"hook_id\":\"impostor\",\"reason_code\":\"policy_violation\",\"message\":\"blocked\"}}'"]
"#;
    let layer = parse_text(toml, Format::Toml, None, Layer::Code).unwrap();
    let e = Engine::new(merge(vec![layer]).unwrap()).unwrap();
    let outcome = fire(&e, EventId::PreToolUse).await;
    assert!(outcome.blocked());
    assert_eq!(outcome.decided_by.unwrap().as_str(), "safety-check");
    assert_eq!(outcome.reason.as_deref(), Some("blocked"));
}

#[tokio::test]
async fn strict_output_rejects_unknown_fields_and_plain_text() {
    for script in [
        r#"echo '{"unknown":1}'"#,
        "echo plain",
        r#"echo '{"hook_specific_output":{"additional_context":"x"}}'"#,
    ] {
        let e = one_hook("pre_tool_use", "      strict_output: true\n", script);
        let outcome = fire(&e, EventId::PreToolUse).await;
        assert!(outcome.blocked(), "{script}");
    }
}

#[tokio::test]
async fn sequential_command_transforms_compose_across_matchers() {
    let e = engine(
        r#"
hooks:
  tool_input_transform:
    - matcher: shell
      hooks:
        - type: command
          command: 'cat >/dev/null; echo "{\"hook_specific_output\":{\"updated_input\":{\"cmd\":\"ls -l\"}}}"'
    - matcher: "*"
      hooks:
        - type: command
          command: 'python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps({\"hook_specific_output\":{\"updated_input\":{\"cmd\": d[\"tool_input\"][\"cmd\"] + \" -h\"}}}))"'
"#,
    );
    let outcome = fire(&e, EventId::ToolInputTransform).await;
    assert_eq!(outcome.updated_input.unwrap()["cmd"], "ls -l -h");
}

#[tokio::test]
async fn a_failing_transform_keeps_the_prior_rewrite_and_later_hooks_still_run() {
    let e = engine(
        r#"
hooks:
  tool_input_transform:
    - type: command
      command: 'echo "{\"hook_specific_output\":{\"updated_input\":{\"a\":1}}}"'
    - type: command
      command: 'exit 1'
    - type: command
      command: 'echo "{\"hook_specific_output\":{\"updated_input\":{\"b\":2}}}"'
"#,
    );
    let outcome = fire(&e, EventId::ToolInputTransform).await;
    assert!(!outcome.blocked());
    let input = outcome.updated_input.unwrap();
    assert_eq!(
        (input["a"].clone(), input["b"].clone(), input["cmd"].clone()),
        (json!(1), json!(2), json!("ls"))
    );
    assert_eq!(outcome.system_messages.len(), 1);
}

#[tokio::test]
async fn decisions_fold_across_command_hooks() {
    let e = engine(
        r#"
hooks:
  tool_guard:
    - type: command
      command: 'echo "{\"hook_specific_output\":{\"permission_decision\":\"allow\",\"metadata\":{\"risk\":\"low\"}}}"'
    - type: command
      command: 'echo "{\"hook_specific_output\":{\"permission_decision\":\"ask\",\"permission_decision_reason\":\"confirm\",\"metadata\":{\"risk\":\"high\"}}}"'
"#,
    );
    let outcome = fire(&e, EventId::ToolGuard).await;
    assert_eq!(outcome.decision, Some(Decision::Ask));
    assert_eq!(outcome.reason.as_deref(), Some("confirm"));
    assert_eq!(outcome.metadata["risk"], "high");
}
