//! Golden tests on the exact bytes and exit code `encode` produces, per agent and event.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use hookgate_agents::{Dialect, Reply, encode, supports_ask, supports_context};
use hookgate_core::catalog::EventId;
use hookgate_core::decision::Decision;
use serde_json::json;

fn deny(reason: &str) -> Reply {
    Reply {
        decision: Some(Decision::Deny),
        reason: Some(reason.into()),
        ..Reply::default()
    }
}

fn ask(reason: &str) -> Reply {
    Reply {
        decision: Some(Decision::Ask),
        reason: Some(reason.into()),
        ..Reply::default()
    }
}

fn context(text: &str) -> Reply {
    Reply {
        context: vec![text.into()],
        ..Reply::default()
    }
}

/// (stdout, stderr, exit code) as strings, for readable assertions.
fn run(
    dialect: Dialect,
    event: EventId,
    native: &str,
    reply: &Reply,
    fallback: Decision,
) -> (String, String, i32) {
    let out = encode(dialect, event, native, reply, fallback);
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.exit_code,
    )
}

fn json_out(text: &str) -> (String, String, i32) {
    (format!("{text}\n"), String::new(), 0)
}

fn silent() -> (String, String, i32) {
    (String::new(), String::new(), 0)
}

#[test]
fn no_opinion_is_empty_stdout_empty_stderr_exit_zero_for_every_agent() {
    use Dialect as D;
    use EventId as E;
    for (dialect, event, native) in [
        (D::Claude, E::PreToolUse, "PreToolUse"),
        (D::Claude, E::Stop, "Stop"),
        (D::Codex, E::PreToolUse, "PreToolUse"),
        (D::Codex, E::SessionStart, "SessionStart"),
        (D::Gemini, E::PreToolUse, "BeforeTool"),
        (D::Gemini, E::Stop, "AfterAgent"),
        (D::CopilotCamel, E::PreToolUse, "preToolUse"),
        (D::CopilotCamel, E::Stop, "agentStop"),
        (D::CopilotClaude, E::PreToolUse, "PreToolUse"),
        (D::CursorClaude, E::PreToolUse, "PreToolUse"),
        (D::Cursor, E::PostToolUse, "afterShellExecution"),
        (D::Cursor, E::UserPromptSubmit, "beforeSubmitPrompt"),
    ] {
        for fallback in [Decision::Deny, Decision::Allow] {
            assert_eq!(
                run(dialect, event, native, &Reply::default(), fallback),
                silent(),
                "{dialect:?} {native}"
            );
        }
    }
}

#[test]
fn documented_no_opinion_exceptions_codex_stop_and_cursor_permission_hooks_print_an_empty_object() {
    let none = Reply::default();
    assert_eq!(
        run(Dialect::Codex, EventId::Stop, "Stop", &none, Decision::Deny),
        json_out("{}")
    );
    assert_eq!(
        run(
            Dialect::Codex,
            EventId::SubagentStop,
            "SubagentStop",
            &none,
            Decision::Deny
        ),
        json_out("{}")
    );
    for native in [
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "preToolUse",
    ] {
        assert_eq!(
            run(
                Dialect::Cursor,
                EventId::PreToolUse,
                native,
                &none,
                Decision::Deny
            ),
            json_out("{}"),
            "{native}"
        );
    }
}

#[test]
fn claude_deny_ask_allow_and_context_bytes() {
    let d = Dialect::Claude;
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "PreToolUse",
            &deny("rm -rf outside workspace"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf outside workspace"}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "PreToolUse",
            &ask("force push"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"force push"}}"#
        )
    );
    let mut allow = Reply {
        decision: Some(Decision::Allow),
        ..Reply::default()
    };
    allow.updated_input = Some(
        json!({"command":"npm test -- --ci"})
            .as_object()
            .unwrap()
            .clone(),
    );
    assert_eq!(
        run(d, EventId::PreToolUse, "PreToolUse", &allow, Decision::Deny),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"npm test -- --ci"}}}"#
        )
    );
    let mut deny_ctx = deny("no");
    deny_ctx.context = vec!["see policy".into()];
    deny_ctx.system_message = Some("hookgate blocked a command".into());
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "PreToolUse",
            &deny_ctx,
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"see policy"},"systemMessage":"hookgate blocked a command"}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::PermissionRequest,
            "PermissionRequest",
            &deny("not here"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here"}}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::PermissionRequest,
            "PermissionRequest",
            &ask("x"),
            Decision::Deny
        ),
        silent(),
        "ask = let the prompt show"
    );
    assert_eq!(
        run(
            d,
            EventId::PostToolUse,
            "PostToolUseFailure",
            &deny("stop retrying"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"block","reason":"stop retrying"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PostToolUse,
            "PostToolUseFailure",
            &context("hint"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"hint"}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "UserPromptSubmit",
            &deny("secret in prompt"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"block","reason":"secret in prompt"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::SessionStart,
            "SessionStart",
            &Reply {
                context: vec!["a".into(), "b".into()],
                ..Reply::default()
            },
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a\n\nb"}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::Stop,
            "Stop",
            &deny("tests fail"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"block","reason":"tests fail"}"#)
    );
    // Ask on an event without ask takes the fallback; context where unsupported is dropped.
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "UserPromptSubmit",
            &ask("hm"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"block","reason":"hm"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "UserPromptSubmit",
            &ask("hm"),
            Decision::Allow
        ),
        silent()
    );
    assert_eq!(
        run(d, EventId::Stop, "Stop", &context("x"), Decision::Deny),
        silent()
    );
    // A deny where nothing can block is a warning, never silence.
    assert_eq!(
        run(
            d,
            EventId::SessionEnd,
            "SessionEnd",
            &deny("late"),
            Decision::Deny
        ),
        json_out(r#"{"systemMessage":"late"}"#)
    );
}

#[test]
fn codex_deny_ask_fallback_and_context_bytes() {
    let d = Dialect::Codex;
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "PreToolUse",
            &deny("destructive"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"destructive"}}"#
        )
    );
    // No ask in Codex: the fallback decides.
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "PreToolUse",
            &ask("sure?"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"sure?"}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "PreToolUse",
            &ask("sure?"),
            Decision::Allow
        ),
        silent()
    );
    // A bare allow marks the hook failed in Codex: say nothing instead. Context is not sent on
    // PreToolUse either.
    let mut allow = Reply {
        decision: Some(Decision::Allow),
        reason: Some("fine".into()),
        context: vec!["c".into()],
        ..Reply::default()
    };
    assert_eq!(
        run(d, EventId::PreToolUse, "PreToolUse", &allow, Decision::Deny),
        silent()
    );
    allow.updated_input = Some(json!({"command":"ls -la"}).as_object().unwrap().clone());
    assert_eq!(
        run(d, EventId::PreToolUse, "PreToolUse", &allow, Decision::Deny),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::PermissionRequest,
            "PermissionRequest",
            &deny("no"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::PostToolUse,
            "PostToolUse",
            &context("ctx"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::Stop,
            "Stop",
            &deny("keep going"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"block","reason":"keep going"}"#)
    );
    // An empty or blank reason is never sent (Codex fails open on it).
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "PreToolUse",
            &deny("  "),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by hookgate policy"}}"#
        )
    );
}

#[test]
fn gemini_deny_ask_and_context_bytes() {
    let d = Dialect::Gemini;
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "BeforeTool",
            &deny("no --no-verify"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"deny","reason":"no --no-verify"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "BeforeTool",
            &ask("confirm"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"ask","reason":"confirm"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PostToolUse,
            "AfterTool",
            &context("note"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"note"}}"#
        )
    );
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "BeforeAgent",
            &deny("nope"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"deny","reason":"nope"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "BeforeAgent",
            &ask("nope"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"deny","reason":"nope"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PreCompact,
            "PreCompress",
            &deny("advisory"),
            Decision::Deny
        ),
        json_out(r#"{"systemMessage":"advisory"}"#)
    );
}

#[test]
fn copilot_camel_deny_ask_and_context_bytes() {
    let d = Dialect::CopilotCamel;
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "preToolUse",
            &deny("rm outside"),
            Decision::Deny
        ),
        json_out(r#"{"permissionDecision":"deny","permissionDecisionReason":"rm outside"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "preToolUse",
            &ask("check"),
            Decision::Deny
        ),
        json_out(r#"{"permissionDecision":"ask","permissionDecisionReason":"check"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PermissionRequest,
            "permissionRequest",
            &deny("no"),
            Decision::Deny
        ),
        json_out(r#"{"behavior":"deny","message":"no"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::Stop,
            "agentStop",
            &deny("unfinished"),
            Decision::Deny
        ),
        json_out(r#"{"decision":"block","reason":"unfinished"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::SessionStart,
            "sessionStart",
            &context("rules"),
            Decision::Deny
        ),
        json_out(r#"{"additionalContext":"rules"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PostToolUse,
            "postToolUse",
            &deny("leaked a secret"),
            Decision::Deny
        ),
        json_out(r#"{"additionalContext":"leaked a secret"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "userPromptSubmitted",
            &context("x"),
            Decision::Deny
        ),
        silent()
    );
}

#[test]
fn claude_format_hooks_in_copilot_and_cursor_deny_by_exit_2_with_the_reason_on_stderr() {
    for d in [Dialect::CopilotClaude, Dialect::CursorClaude] {
        assert_eq!(
            run(
                d,
                EventId::PreToolUse,
                "PreToolUse",
                &deny("blocked: force push"),
                Decision::Deny
            ),
            (String::new(), "blocked: force push\n".into(), 2)
        );
        assert_eq!(
            run(
                d,
                EventId::PreToolUse,
                "PreToolUse",
                &ask("x"),
                Decision::Deny
            ),
            (String::new(), "x\n".into(), 2)
        );
        assert_eq!(
            run(
                d,
                EventId::PreToolUse,
                "PreToolUse",
                &ask("x"),
                Decision::Allow
            ),
            silent()
        );
        assert_eq!(
            run(
                d,
                EventId::SessionStart,
                "SessionStart",
                &context("x"),
                Decision::Deny
            ),
            silent()
        );
        assert_eq!(
            run(
                d,
                EventId::PreToolUse,
                "PreToolUse",
                &Reply {
                    decision: Some(Decision::Allow),
                    ..Reply::default()
                },
                Decision::Deny
            ),
            silent()
        );
    }
}

#[test]
fn cursor_deny_ask_and_context_bytes_are_snake_case() {
    let d = Dialect::Cursor;
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "beforeShellExecution",
            &deny("no rm"),
            Decision::Deny
        ),
        json_out(r#"{"permission":"deny","user_message":"no rm","agent_message":"no rm"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "beforeMCPExecution",
            &ask("confirm"),
            Decision::Deny
        ),
        json_out(r#"{"permission":"ask","user_message":"confirm","agent_message":"confirm"}"#)
    );
    // Generic preToolUse has no ask: fallback.
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "preToolUse",
            &ask("confirm"),
            Decision::Deny
        ),
        json_out(r#"{"permission":"deny","agent_message":"confirm"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "preToolUse",
            &ask("confirm"),
            Decision::Allow
        ),
        json_out("{}")
    );
    assert_eq!(
        run(
            d,
            EventId::PreToolUse,
            "beforeReadFile",
            &deny("secrets"),
            Decision::Deny
        ),
        json_out(r#"{"permission":"deny"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "beforeSubmitPrompt",
            &deny("no"),
            Decision::Deny
        ),
        json_out(r#"{"continue":false,"user_message":"no"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::Stop,
            "stop",
            &deny("run the tests"),
            Decision::Deny
        ),
        json_out(r#"{"followup_message":"run the tests"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::SessionStart,
            "sessionStart",
            &context("policy"),
            Decision::Deny
        ),
        json_out(r#"{"additional_context":"policy"}"#)
    );
    assert_eq!(
        run(
            d,
            EventId::UserPromptSubmit,
            "beforeSubmitPrompt",
            &context("x"),
            Decision::Deny
        ),
        silent()
    );
}

#[test]
fn an_unknown_native_spelling_is_echoed_as_the_dialects_canonical_one() {
    assert_eq!(
        run(
            Dialect::Claude,
            EventId::PreToolUse,
            "BeforeTool",
            &deny("r"),
            Decision::Deny
        ),
        json_out(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}"#
        )
    );
}

#[test]
fn supports_ask_and_context_answer_per_agent_and_event() {
    use Dialect as D;
    use EventId as E;
    for (dialect, event, ask, context) in [
        (D::Claude, E::PreToolUse, true, true),
        (D::Claude, E::PermissionRequest, true, false),
        (D::Claude, E::Stop, false, false),
        (D::Claude, E::SessionStart, false, true),
        (D::Codex, E::PreToolUse, false, false),
        (D::Codex, E::PostToolUse, false, true),
        (D::Gemini, E::PreToolUse, true, false),
        (D::Gemini, E::PostToolUse, false, true),
        (D::CopilotCamel, E::PreToolUse, true, false),
        (D::CopilotCamel, E::PostToolUse, false, false),
        (D::CopilotCamel, E::SessionStart, false, true),
        (D::CopilotClaude, E::PreToolUse, false, false),
        (D::Cursor, E::PreToolUse, false, false),
        (D::Cursor, E::SessionStart, false, true),
        (D::Cursor, E::UserPromptSubmit, false, false),
        (D::Cursor, E::TurnStart, false, false),
    ] {
        assert_eq!(supports_ask(dialect, event), ask, "{dialect:?} {event} ask");
        assert_eq!(
            supports_context(dialect, event),
            context,
            "{dialect:?} {event} context"
        );
    }
}
