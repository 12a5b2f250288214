//! Fuzzes the policy loader on attacker-controlled YAML (a cloned repository's
//! `.hookgate/policy.yaml`): arbitrary text must never panic, hang or exhaust memory (the YAML
//! budget bounds it); a policy that loads must still deny writing an agent's hook settings,
//! which a locked invariant guards against every file, trusted or not.
#![no_main]

use hookgate_core::{AgentKind, CanonicalCall, EventId, ToolCall, ToolKind};
use hookgate_policy::{Ctx, Policy, SessionState};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(policy) = Policy::from_yaml(text, None) else {
        return;
    };
    let _ = policy.describe();
    // Writing an agent's hook settings is denied by a locked invariant: no policy text can
    // make it anything but a deny.
    let mut input = serde_json::Map::new();
    input.insert("file_path".into(), "/w/.claude/settings.json".into());
    input.insert("content".into(), "{}".into());
    let call = CanonicalCall {
        agent: AgentKind::Claude,
        event: EventId::PreToolUse,
        native_event: "PreToolUse".into(),
        session_id: String::new(),
        cwd: "/w".into(),
        tool: Some(ToolCall {
            name: "Write".into(),
            kind: ToolKind::Write,
            command: None,
            paths: vec![hookgate_core::PathTarget {
                path: "/w/.claude/settings.json".into(),
                op: hookgate_core::PathOp::Write,
            }],
            content: Some("{}".into()),
            url: None,
            mcp_server: None,
            mcp_tool: None,
            input,
        }),
        prompt: None,
        tool_response: None,
        approval: None,
        tool_succeeded: None,
        tool_output: None,
    };
    let mut ctx = Ctx::new("/w", Some("/home/u".into()));
    ctx.follow_symlinks = false;
    let eval = policy.evaluate(&call, &ctx, &SessionState::default());
    assert_eq!(
        eval.decision,
        Some(hookgate_core::Decision::Deny),
        "a policy file softened the locked self-protection invariant"
    );
});
