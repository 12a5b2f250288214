//! Permission modes: which payload, environment and command line mean that nobody will be
//! asked. The payloads under `tests/permission_modes/` were captured from the real CLIs (see
//! `PERMISSION_MODES.md`); the command lines are the ones those runs showed in `/proc`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::Path;

use hookgate_agents::{
    Dialect, approval_from_argv, approval_from_env, approval_from_gemini_settings,
    combine_approvals, parse,
};
use hookgate_core::canonical::{AgentKind, Approval, AskScope, ToolKind};
use serde_json::json;

fn captured(file: &str, named: AgentKind) -> Option<Approval> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/permission_modes")
        .join(file);
    let bytes = std::fs::read(&path).unwrap();
    parse(named, &bytes).unwrap().call.approval
}

fn scope(a: Option<Approval>) -> Option<AskScope> {
    a.map(|a| a.asks)
}

#[test]
fn claude_modes_that_ask_a_human_are_all() {
    for file in ["claude-2.1.330-default.json", "claude-2.1.330-plan.json"] {
        assert_eq!(
            scope(captured(file, AgentKind::Claude)),
            Some(AskScope::All),
            "{file}"
        );
    }
}

#[test]
fn claude_accept_edits_asks_about_everything_but_edits() {
    let a = captured("claude-2.1.330-acceptEdits.json", AgentKind::Claude).unwrap();
    assert_eq!(a.native, "acceptEdits");
    assert_eq!(a.asks, AskScope::AllButEdits);
    assert!(a.asks_for(Some(ToolKind::Shell)));
    assert!(!a.asks_for(Some(ToolKind::Write)));
    assert!(!a.asks_for(Some(ToolKind::Patch)));
}

#[test]
fn claude_bypass_dont_ask_and_auto_ask_nobody() {
    for (file, native) in [
        ("claude-2.1.330-bypass.json", "bypassPermissions"),
        // `--dangerously-skip-permissions` arrives as the same mode.
        ("claude-2.1.330-skip.json", "bypassPermissions"),
        ("claude-2.1.330-dontAsk.json", "dontAsk"),
        ("claude-2.1.330-auto.json", "auto"),
    ] {
        let a = captured(file, AgentKind::Claude).unwrap();
        assert_eq!(
            (a.native.as_str(), a.asks),
            (native, AskScope::Nothing),
            "{file}"
        );
    }
}

#[test]
fn codex_approval_never_is_bypass_permissions_and_asks_nobody() {
    for file in [
        "codex-0.169.0-exec-never.json",
        "codex-0.169.0-exec-dangerously-bypass.json",
    ] {
        assert_eq!(
            scope(captured(file, AgentKind::Codex)),
            Some(AskScope::Nothing),
            "{file}"
        );
    }
}

#[test]
fn codex_other_approval_policies_are_default_and_ask() {
    let a = captured("codex-0.169.0-exec-approve-for-me.json", AgentKind::Codex).unwrap();
    assert_eq!((a.native.as_str(), a.asks), ("default", AskScope::All));
}

#[test]
fn gemini_and_copilot_payloads_state_no_mode() {
    assert_eq!(captured("gemini-0.61.0-yolo.json", AgentKind::Gemini), None);
    assert_eq!(
        captured("copilot-1.0.102-yolo.json", AgentKind::Copilot),
        None
    );
}

#[test]
fn an_unknown_mode_is_none_never_nothing() {
    for mode in [
        "",
        "bypass",
        "BypassPermissions",
        "yolo",
        "never",
        "superAuto",
    ] {
        for named in [AgentKind::Claude, AgentKind::Codex] {
            let payload = json!({
                "session_id": "s", "cwd": "/p", "hook_event_name": "PreToolUse",
                "permission_mode": mode, "tool_name": "Bash", "tool_input": {"command": "ls"},
            });
            let parsed = parse(named, &serde_json::to_vec(&payload).unwrap()).unwrap();
            assert_eq!(parsed.call.approval, None, "{named:?} {mode:?}");
        }
    }
    // A mode that is not a string is no statement at all.
    let payload = json!({"session_id": "s", "cwd": "/p", "hook_event_name": "PreToolUse",
        "permission_mode": 3, "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let parsed = parse(AgentKind::Claude, &serde_json::to_vec(&payload).unwrap()).unwrap();
    assert_eq!(parsed.call.approval, None);
}

#[test]
fn copilot_claude_format_payload_reads_claude_modes() {
    let payload = json!({"session_id": "s", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/p",
        "hook_event_name": "PreToolUse", "permission_mode": "bypassPermissions",
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let parsed = parse(AgentKind::Copilot, &serde_json::to_vec(&payload).unwrap()).unwrap();
    assert_eq!(parsed.dialect, Dialect::CopilotClaude);
    assert_eq!(scope(parsed.call.approval), Some(AskScope::Nothing));
}

fn words(line: &str) -> Vec<String> {
    line.split(' ').map(str::to_owned).collect()
}

#[test]
fn gemini_yolo_on_the_command_line_asks_nobody() {
    let base = "node /x/node_modules/.bin/gemini -p Run --output-format json -m gemini-2.5-flash";
    for (flags, want) in [
        ("--approval-mode yolo", Some(AskScope::Nothing)),
        ("--approval-mode=yolo", Some(AskScope::Nothing)),
        ("-y", Some(AskScope::Nothing)),
        ("--yolo", Some(AskScope::Nothing)),
        ("--approval-mode auto_edit", Some(AskScope::AllButEdits)),
        ("--approval-mode default", Some(AskScope::All)),
        ("--approval-mode plan", Some(AskScope::All)),
        ("--yolo=false", None),
        ("--approval-mode sometimes", None),
    ] {
        let argv = words(&format!("{base} {flags}"));
        assert_eq!(
            scope(approval_from_argv(Dialect::Gemini, &argv)),
            want,
            "{flags}"
        );
    }
}

#[test]
fn a_later_word_never_undoes_a_yolo() {
    let argv = words("gemini --yolo -p --approval-mode default");
    assert_eq!(
        scope(approval_from_argv(Dialect::Gemini, &argv)),
        Some(AskScope::Nothing)
    );
    // After `--` nothing is an option.
    let argv = words("gemini -p x -- --yolo");
    assert_eq!(approval_from_argv(Dialect::Gemini, &argv), None);
}

#[test]
fn copilot_allow_all_flags_ask_nobody() {
    let base = "/x/@github/copilot-linux-x64/copilot -p Run --output-format json --trust-folder";
    for flag in ["--allow-all-tools", "--allow-all", "--yolo"] {
        let argv = words(&format!("{base} {flag}"));
        let a = approval_from_argv(Dialect::CopilotCamel, &argv).unwrap();
        assert_eq!(a.asks, AskScope::Nothing, "{flag}");
    }
    let argv = words(&format!("{base} --allow-tool shell(git:*)"));
    assert_eq!(approval_from_argv(Dialect::CopilotCamel, &argv), None);
    assert_eq!(
        approval_from_argv(Dialect::CopilotCamel, &words(base)),
        None
    );
}

#[test]
fn claude_and_codex_command_lines_are_not_read() {
    let argv = words("claude -p x --dangerously-skip-permissions --yolo");
    assert_eq!(approval_from_argv(Dialect::Claude, &argv), None);
    assert_eq!(approval_from_argv(Dialect::Codex, &argv), None);
}

#[test]
fn copilot_allow_all_in_the_environment_asks_nobody() {
    for value in ["true", "1", " YES ", "on", "y"] {
        let env = |k: &str| (k == "COPILOT_ALLOW_ALL").then(|| value.to_owned());
        assert_eq!(
            scope(approval_from_env(Dialect::CopilotCamel, &env)),
            Some(AskScope::Nothing),
            "{value:?}"
        );
    }
    for value in ["false", "0", "", "off", "maybe"] {
        let env = |k: &str| (k == "COPILOT_ALLOW_ALL").then(|| value.to_owned());
        assert_eq!(
            approval_from_env(Dialect::CopilotCamel, &env),
            None,
            "{value:?}"
        );
    }
}

#[test]
fn an_unattended_claude_session_asks_nobody() {
    let env = |k: &str| (k == "CLAUDE_CODE_SESSION_ATTENDED").then(|| "0".to_owned());
    assert_eq!(
        scope(approval_from_env(Dialect::Claude, &env)),
        Some(AskScope::Nothing)
    );
    let env = |k: &str| (k == "CLAUDE_CODE_SESSION_ATTENDED").then(|| "1".to_owned());
    assert_eq!(approval_from_env(Dialect::Claude, &env), None);
    let none = |_: &str| None;
    for d in Dialect::ALL {
        assert_eq!(approval_from_env(*d, &none), None, "{d:?}");
    }
}

#[test]
fn combining_sources_keeps_the_one_that_asks_least() {
    let a = |n: &str, s| {
        Some(Approval {
            native: n.into(),
            asks: s,
        })
    };
    let got = combine_approvals([
        a("default", AskScope::All),
        None,
        a("yolo", AskScope::Nothing),
    ]);
    assert_eq!(got.map(|a| a.native), Some("yolo".to_owned()));
    let got = combine_approvals([
        a("acceptEdits", AskScope::AllButEdits),
        a("default", AskScope::All),
    ]);
    assert_eq!(scope(got), Some(AskScope::AllButEdits));
    assert_eq!(combine_approvals([None, None]), None);
}

#[test]
fn gemini_settings_default_approval_mode_is_read_as_gemini_reads_the_file() {
    let read = |text: &str| approval_from_gemini_settings(text).map(|a| (a.native, a.asks));
    assert_eq!(
        read(r#"{"general": {"defaultApprovalMode": "auto_edit"}}"#),
        Some((
            "general.defaultApprovalMode: auto_edit".to_owned(),
            AskScope::AllButEdits
        ))
    );
    assert_eq!(
        scope(approval_from_gemini_settings(
            r#"{"general": {"defaultApprovalMode": "yolo"}}"#
        )),
        Some(AskScope::Nothing)
    );
    assert_eq!(
        scope(approval_from_gemini_settings(
            r#"{"general": {"defaultApprovalMode": "default"}}"#
        )),
        Some(AskScope::All)
    );
    // Comments are stripped, but not inside strings; the rest is strict JSON.
    assert_eq!(
        scope(approval_from_gemini_settings(
            "// top\n{\"general\": /* x */ {\"defaultApprovalMode\": \"auto_edit\"}, \"u\": \"http://a/*b*/\\\"//\"}\n"
        )),
        Some(AskScope::AllButEdits)
    );
    // The old key, which Gemini migrates only when the new one is unset.
    assert_eq!(
        scope(approval_from_gemini_settings(
            r#"{"tools": {"approvalMode": "yolo"}}"#
        )),
        Some(AskScope::Nothing)
    );
    assert_eq!(
        scope(approval_from_gemini_settings(
            r#"{"general": {"defaultApprovalMode": "default"}, "tools": {"approvalMode": "yolo"}}"#
        )),
        Some(AskScope::All)
    );
    // What Gemini itself cannot read, or an unknown value, states nothing.
    for text in [
        "{ not json",
        r#"{"general": {"defaultApprovalMode": "auto_edit"},}"#,
        r#"{"general": {"defaultApprovalMode": "sometimes"}}"#,
        r#"{"general": {"defaultApprovalMode": 1}}"#,
        "[]",
        "",
        "/* unterminated",
        &"[".repeat(100_000),
    ] {
        assert_eq!(approval_from_gemini_settings(text), None, "{text:.40}");
    }
}
