//! Golden parsing tests: every payload captured from the real CLIs, the documented examples of
//! the protocols doc, and the sniffing rules.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};

use hookgate_agents::{Dialect, ParseError, Parsed, parse, parse_with_event};
use hookgate_core::alias::{ALIASES, Vocabulary};
use hookgate_core::canonical::{AgentKind, PathOp, PathTarget, ToolKind};
use hookgate_core::catalog::EventId;
use serde_json::json;

fn dirs() -> Vec<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![
        manifest.join("tests/fixtures"),
        manifest.join("../../../shared/e2e/payloads"),
    ]
}

fn ok(named: AgentKind, payload: &serde_json::Value) -> Parsed {
    let bytes = serde_json::to_vec(payload).unwrap();
    parse(named, &bytes).unwrap_or_else(|e| panic!("{payload}: {e}"))
}

/// What a captured file must parse to, by file name.
struct Expect {
    dialect: Dialect,
    event: EventId,
    native: &'static str,
    tool: Option<(&'static str, ToolKind, &'static str)>,
}

fn expected(file: &str) -> Option<Expect> {
    use Dialect as D;
    use EventId as E;
    let bash = |name: &'static str, cmd: &'static str| Some((name, ToolKind::Shell, cmd));
    let e = |dialect, event, native, tool| {
        Some(Expect {
            dialect,
            event,
            native,
            tool,
        })
    };
    match file {
        "claude-PreToolUse-Bash.json" => e(
            D::Claude,
            E::PreToolUse,
            "PreToolUse",
            bash("Bash", "echo hello > out.txt"),
        ),
        "claude-PreToolUse-Bash-denied.json" => e(
            D::Claude,
            E::PreToolUse,
            "PreToolUse",
            bash("Bash", "echo FORBIDDEN > out2.txt"),
        ),
        "claude-PostToolUse-Bash.json" => e(
            D::Claude,
            E::PostToolUse,
            "PostToolUse",
            bash("Bash", "echo hello > out.txt"),
        ),
        "claude-SessionStart.json" => e(D::Claude, E::SessionStart, "SessionStart", None),
        "claude-SessionEnd.json" => e(D::Claude, E::SessionEnd, "SessionEnd", None),
        "claude-Stop.json" => e(D::Claude, E::Stop, "Stop", None),
        "claude-UserPromptSubmit.json" => {
            e(D::Claude, E::UserPromptSubmit, "UserPromptSubmit", None)
        }
        "codex-PreToolUse-Bash.json" => e(
            D::Codex,
            E::PreToolUse,
            "PreToolUse",
            bash("Bash", "echo hello > out.txt"),
        ),
        "codex-PreToolUse-Bash-denied.json" => e(
            D::Codex,
            E::PreToolUse,
            "PreToolUse",
            bash("Bash", "echo FORBIDDEN > out2.txt"),
        ),
        "codex-PostToolUse-Bash.json" => e(
            D::Codex,
            E::PostToolUse,
            "PostToolUse",
            bash("Bash", "echo hello > out.txt"),
        ),
        "codex-SessionStart.json" => e(D::Codex, E::SessionStart, "SessionStart", None),
        "codex-SessionEnd.json" => e(D::Codex, E::SessionEnd, "SessionEnd", None),
        "codex-Stop.json" => e(D::Codex, E::Stop, "Stop", None),
        "codex-UserPromptSubmit.json" => e(D::Codex, E::UserPromptSubmit, "UserPromptSubmit", None),
        "gemini-BeforeTool-run_shell_command.json" => e(
            D::Gemini,
            E::PreToolUse,
            "BeforeTool",
            bash("run_shell_command", "echo hello > out.txt"),
        ),
        "gemini-BeforeTool-run_shell_command-denied.json" => e(
            D::Gemini,
            E::PreToolUse,
            "BeforeTool",
            bash("run_shell_command", "echo FORBIDDEN > out2.txt"),
        ),
        "gemini-AfterTool-run_shell_command.json" => e(
            D::Gemini,
            E::PostToolUse,
            "AfterTool",
            bash("run_shell_command", "echo hello > out.txt"),
        ),
        "gemini-BeforeAgent.json" => e(D::Gemini, E::UserPromptSubmit, "BeforeAgent", None),
        "gemini-AfterAgent.json" => e(D::Gemini, E::Stop, "AfterAgent", None),
        "gemini-SessionStart.json" => e(D::Gemini, E::SessionStart, "SessionStart", None),
        "gemini-SessionEnd.json" => e(D::Gemini, E::SessionEnd, "SessionEnd", None),
        "copilot-preToolUse-bash.json" => e(
            D::CopilotCamel,
            E::PreToolUse,
            "preToolUse",
            bash("bash", "echo hello > out.txt"),
        ),
        "copilot-preToolUse-bash-denied.json" => e(
            D::CopilotCamel,
            E::PreToolUse,
            "preToolUse",
            bash("bash", "echo FORBIDDEN > out2.txt"),
        ),
        "copilot-postToolUse-bash.json" => e(
            D::CopilotCamel,
            E::PostToolUse,
            "postToolUse",
            bash("bash", "echo hello > out.txt"),
        ),
        "copilot-sessionStart.json" => e(D::CopilotCamel, E::SessionStart, "sessionStart", None),
        "copilot-sessionEnd.json" => e(D::CopilotCamel, E::SessionEnd, "sessionEnd", None),
        "copilot-agentStop.json" => e(D::CopilotCamel, E::Stop, "agentStop", None),
        "copilot-userPromptSubmitted.json" => e(
            D::CopilotCamel,
            E::UserPromptSubmit,
            "userPromptSubmitted",
            None,
        ),
        _ => None,
    }
}

#[test]
fn every_captured_payload_parses_to_its_agent_dialect_event_and_tool() {
    let mut checked = 0;
    for dir in dirs() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            // Under CI a missing prerequisite fails: a skipped test is not a passed one.
            assert!(
                std::env::var_os("CI").is_none_or(|v| v.is_empty()),
                "{} is not present (required under CI)",
                dir.display()
            );
            eprintln!("skipping {} (not present)", dir.display());
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_str().unwrap().to_owned();
            if !path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json"))
            {
                continue;
            }
            let agent = AgentKind::parse(file.split('-').next().unwrap()).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let parsed = parse(agent, &bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
            let call = &parsed.call;
            assert_eq!(call.agent, agent, "{file}");
            assert!(!call.session_id.is_empty(), "{file}: session id");
            assert!(call.cwd.starts_with("/home/dev/e2e/"), "{file}: cwd");
            // The file name carries the native event; a new capture is checked at least that far.
            let native_in_name = file.split('-').nth(1).unwrap().trim_end_matches(".json");
            assert_eq!(call.native_event, native_in_name, "{file}");
            let Some(want) = expected(&file) else {
                eprintln!("{file}: no golden row, checked agent/event only");
                checked += 1;
                continue;
            };
            assert_eq!(parsed.dialect, want.dialect, "{file}");
            assert_eq!(call.event, want.event, "{file}");
            assert_eq!(call.native_event, want.native, "{file}");
            match (want.tool, &call.tool) {
                (None, None) => {}
                (Some((name, kind, command)), Some(tool)) => {
                    assert_eq!(tool.name, name, "{file}");
                    assert_eq!(tool.kind, kind, "{file}");
                    assert_eq!(tool.command.as_deref(), Some(command), "{file}");
                }
                (want, got) => panic!("{file}: tool {want:?} vs {got:?}"),
            }
            if call.event == EventId::PostToolUse {
                assert!(call.tool_response.is_some(), "{file}: tool response");
            }
            if call.event == EventId::UserPromptSubmit {
                assert_eq!(
                    call.prompt.as_deref(),
                    Some("Run the scripted task."),
                    "{file}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} payloads checked");
}

#[test]
fn a_payload_from_another_agent_is_read_in_its_own_dialect_whatever_agent_is_named() {
    let claude = json!({"session_id":"s","transcript_path":"/t","cwd":"/w","prompt_id":"p",
        "permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",
        "tool_input":{"command":"ls"},"tool_use_id":"toolu_01"});
    let codex = json!({"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/w",
        "hook_event_name":"PreToolUse","model":"gpt","permission_mode":"default",
        "tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"call_1"});
    let gemini = json!({"session_id":"s","transcript_path":"/t","cwd":"/w",
        "hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z",
        "tool_name":"run_shell_command","tool_input":{"command":"ls"}});
    let copilot = json!({"sessionId":"s","timestamp":1_704_614_600_000_u64,"cwd":"/w",
        "toolName":"bash","toolArgs":"{\"command\":\"ls\"}"});
    let cursor = json!({"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution",
        "workspace_roots":["/w"],"command":"ls","cwd":"/w/sub"});
    for named in AgentKind::ALL {
        for (payload, dialect) in [
            (&claude, Dialect::Claude),
            (&codex, Dialect::Codex),
            (&gemini, Dialect::Gemini),
            (&copilot, Dialect::CopilotCamel),
            (&cursor, Dialect::Cursor),
        ] {
            let parsed = ok(*named, payload);
            assert_eq!(parsed.dialect, dialect, "named {named:?}: {payload}");
            assert_eq!(parsed.call.event, EventId::PreToolUse);
            assert_eq!(
                parsed.call.tool.as_ref().unwrap().command.as_deref(),
                Some("ls")
            );
        }
    }
}

#[test]
fn claude_format_hooks_run_by_copilot_are_recognised_even_when_named_claude() {
    // Protocols doc §5.3: Copilot's VS Code/Claude-compatible payload.
    let payload = json!({"hook_event_name":"PreToolUse","session_id":"s1",
        "timestamp":"2026-01-01T00:00:00.000Z","cwd":"/repo","tool_name":"Bash",
        "tool_input":{"command":"rm -rf dist"}});
    for named in [AgentKind::Claude, AgentKind::Copilot] {
        let parsed = ok(named, &payload);
        assert_eq!(parsed.dialect, Dialect::CopilotClaude);
        assert_eq!(parsed.call.agent, AgentKind::Copilot);
        assert_eq!(parsed.call.event, EventId::PreToolUse);
        assert_eq!(parsed.call.session_id, "s1");
        let tool = parsed.call.tool.unwrap();
        assert_eq!(tool.kind, ToolKind::Shell);
        assert_eq!(tool.command.as_deref(), Some("rm -rf dist"));
    }
    // Without a timestamp the shape is Claude's own; the named agent decides.
    let bare =
        json!({"hook_event_name":"SessionStart","session_id":"s","cwd":"/r","source":"startup"});
    assert_eq!(
        ok(AgentKind::Copilot, &bare).dialect,
        Dialect::CopilotClaude
    );
    assert_eq!(ok(AgentKind::Claude, &bare).dialect, Dialect::Claude);
    assert_eq!(ok(AgentKind::Codex, &bare).dialect, Dialect::Codex);
}

#[test]
fn claude_format_hooks_run_by_cursor_are_cursor_claude() {
    let payload = json!({"conversation_id":"conv","generation_id":"g","hook_event_name":"PreToolUse",
        "workspace_roots":["/ws"],"tool_name":"Bash","tool_input":{"command":"git push -f"}});
    let parsed = ok(AgentKind::Claude, &payload);
    assert_eq!(parsed.dialect, Dialect::CursorClaude);
    assert_eq!(parsed.call.agent, AgentKind::Cursor);
    assert_eq!(parsed.call.session_id, "conv");
    assert_eq!(parsed.call.cwd, "/ws");
    assert_eq!(
        parsed.call.tool.unwrap().command.as_deref(),
        Some("git push -f")
    );
}

#[test]
fn copilot_tool_args_may_be_a_json_string_or_an_object() {
    // Protocols doc §5.3 (older reference): `toolArgs` as a JSON-encoded string.
    let string = json!({"sessionId":"s","timestamp":1_704_614_600_000_u64,"cwd":"/path/to/project",
        "toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\",\"description\":\"Clean build directory\"}"});
    let object = json!({"sessionId":"s","timestamp":1_704_614_600_000_u64,"cwd":"/path/to/project",
        "toolName":"bash","toolArgs":{"command":"rm -rf dist","description":"Clean build directory"}});
    let a = ok(AgentKind::Copilot, &string).call.tool.unwrap();
    let b = ok(AgentKind::Copilot, &object).call.tool.unwrap();
    assert_eq!(a, b);
    assert_eq!(a.command.as_deref(), Some("rm -rf dist"));
    assert_eq!(a.input["description"], "Clean build directory");
    // A string that is not a JSON object is a type error, not an empty call.
    let junk = json!({"sessionId":"s","toolName":"bash","toolArgs":"rm -rf /"});
    let err = parse(AgentKind::Copilot, junk.to_string().as_bytes()).unwrap_err();
    assert!(
        matches!(
            err,
            ParseError::WrongType {
                field: "toolArgs",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn copilot_events_without_a_name_are_inferred_from_their_fields_and_a_hint_wins() {
    let base = |extra: serde_json::Value| {
        let mut p = json!({"sessionId":"s","timestamp":1,"cwd":"/w"});
        p.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        p
    };
    for (extra, native, event) in [
        (
            json!({"toolName":"bash","toolArgs":{"command":"ls"}}),
            "preToolUse",
            EventId::PreToolUse,
        ),
        (
            json!({"toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success"}}),
            "postToolUse",
            EventId::PostToolUse,
        ),
        (
            json!({"toolName":"bash","toolArgs":{"command":"ls"},"error":"boom"}),
            "postToolUseFailure",
            EventId::PostToolUse,
        ),
        (
            json!({"toolName":"bash","toolInput":{"command":"ls"}}),
            "permissionRequest",
            EventId::PermissionRequest,
        ),
        (
            json!({"prompt":"hi"}),
            "userPromptSubmitted",
            EventId::UserPromptSubmit,
        ),
        (
            json!({"transcriptPath":"/t","stopReason":"end_turn"}),
            "agentStop",
            EventId::Stop,
        ),
        (
            json!({"source":"new","initialPrompt":"hi"}),
            "sessionStart",
            EventId::SessionStart,
        ),
        (
            json!({"reason":"complete"}),
            "sessionEnd",
            EventId::SessionEnd,
        ),
        (
            json!({"error":{"message":"x"}}),
            "errorOccurred",
            EventId::OnError,
        ),
        (
            json!({"hookEventName":"subagentStop"}),
            "subagentStop",
            EventId::SubagentStop,
        ),
    ] {
        let parsed = ok(AgentKind::Copilot, &base(extra));
        assert_eq!(parsed.call.native_event, native);
        assert_eq!(parsed.call.event, event);
    }
    let pre = base(json!({"toolName":"bash","toolArgs":{"command":"ls"}}));
    let hinted = parse_with_event(
        AgentKind::Copilot,
        Some("permissionRequest"),
        pre.to_string().as_bytes(),
    )
    .unwrap();
    assert_eq!(hinted.call.event, EventId::PermissionRequest);
    assert_eq!(hinted.call.tool.unwrap().command.as_deref(), Some("ls"));
    // A payload with nothing to go by names no event.
    let err = parse(AgentKind::Copilot, br#"{"sessionId":"s"}"#).unwrap_err();
    assert!(matches!(err, ParseError::MissingEvent), "{err}");
}

#[test]
fn cursor_documented_events_parse_with_conversation_id_and_workspace_root() {
    let common = |extra: serde_json::Value| {
        let mut p = json!({"conversation_id":"conv-1","generation_id":"gen-1",
            "workspace_roots":["/repo","/other"],"cursor_version":"1.7"});
        p.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        p
    };
    // beforeShellExecution: command + cwd at the top level, no tool name.
    let shell = ok(
        AgentKind::Cursor,
        &common(json!({"hook_event_name":"beforeShellExecution",
        "command":"git reset --hard","cwd":"/repo/sub"})),
    );
    assert_eq!(shell.dialect, Dialect::Cursor);
    assert_eq!(shell.call.event, EventId::PreToolUse);
    assert_eq!(shell.call.session_id, "conv-1");
    assert_eq!(shell.call.cwd, "/repo/sub");
    let tool = shell.call.tool.unwrap();
    assert_eq!((tool.name.as_str(), tool.kind), ("Shell", ToolKind::Shell));
    assert_eq!(tool.command.as_deref(), Some("git reset --hard"));

    // beforeMCPExecution: tool_input as a JSON string (cupcake's reference).
    let mcp = ok(
        AgentKind::Cursor,
        &common(json!({"hook_event_name":"beforeMCPExecution",
        "tool_name":"create_issue","tool_input":"{\"title\":\"x\"}","url":"https://mcp.example/sse"})),
    );
    assert_eq!(mcp.call.cwd, "/repo");
    let tool = mcp.call.tool.unwrap();
    assert_eq!(tool.kind, ToolKind::Mcp);
    assert_eq!(tool.mcp_tool.as_deref(), Some("create_issue"));
    assert_eq!(tool.mcp_server.as_deref(), Some("https://mcp.example/sse"));
    assert_eq!(tool.input["title"], "x");

    let read = ok(
        AgentKind::Cursor,
        &common(json!({"hook_event_name":"beforeReadFile",
        "file_path":"/repo/.env","content":"SECRET=1","attachments":[]})),
    );
    let tool = read.call.tool.unwrap();
    assert_eq!(tool.kind, ToolKind::Read);
    assert_eq!(
        tool.paths,
        vec![PathTarget {
            path: "/repo/.env".into(),
            op: PathOp::Read
        }]
    );
    assert!(
        !tool.input.contains_key("content"),
        "file content is not a tool argument"
    );

    let edit = ok(
        AgentKind::Cursor,
        &common(json!({"hook_event_name":"afterFileEdit",
        "file_path":"/repo/a.rs","edits":[{"old_string":"a","new_string":"b"}]})),
    );
    assert_eq!(edit.call.event, EventId::PostToolUse);
    let tool = edit.call.tool.unwrap();
    assert_eq!(tool.kind, ToolKind::Edit);
    assert_eq!(tool.content.as_deref(), Some("b"));

    // Generic preToolUse (observed in third-party tests).
    let pre = ok(
        AgentKind::Cursor,
        &json!({"hook_event_name":"preToolUse","workspace_roots":["/repo"],
        "tool_name":"Shell","tool_input":{"command":"ls -la"}}),
    );
    let tool = pre.call.tool.unwrap();
    assert_eq!(
        (tool.kind, tool.command.as_deref()),
        (ToolKind::Shell, Some("ls -la"))
    );
    let mcp = ok(
        AgentKind::Cursor,
        &common(json!({"hook_event_name":"preToolUse",
        "tool_name":"MCP:create_issue","tool_input":{}})),
    );
    let tool = mcp.call.tool.unwrap();
    assert_eq!(
        (tool.kind, tool.mcp_tool.as_deref()),
        (ToolKind::Mcp, Some("create_issue"))
    );

    for (native, event) in [
        ("beforeSubmitPrompt", EventId::UserPromptSubmit),
        ("stop", EventId::Stop),
        ("sessionStart", EventId::SessionStart),
        ("sessionEnd", EventId::SessionEnd),
        ("preCompact", EventId::PreCompact),
        ("subagentStart", EventId::OnAgentSwitch),
        ("subagentStop", EventId::SubagentStop),
        ("afterAgentResponse", EventId::AfterLlmCall),
    ] {
        let parsed = ok(
            AgentKind::Cursor,
            &common(json!({"hook_event_name":native,"prompt":"p"})),
        );
        assert_eq!(parsed.call.event, event, "{native}");
        assert_eq!(parsed.call.cwd, "/repo");
    }
}

/// A minimal payload of `native` in `dialect`, with a shell tool for tool events.
fn minimal(dialect: Dialect, native: &str) -> (AgentKind, serde_json::Value) {
    let mut p = match dialect {
        Dialect::Claude => {
            json!({"session_id":"s","cwd":"/w","prompt_id":"p","hook_event_name":native,
            "tool_name":"Bash","tool_input":{"command":"ls"}})
        }
        Dialect::Codex => {
            json!({"session_id":"s","cwd":"/w","turn_id":"t","hook_event_name":native,
            "tool_name":"Bash","tool_input":{"command":"ls"}})
        }
        Dialect::Gemini => {
            json!({"session_id":"s","cwd":"/w","transcript_path":"/t","timestamp":"2026-01-01T00:00:00Z",
            "hook_event_name":native,"tool_name":"run_shell_command","tool_input":{"command":"ls"}})
        }
        Dialect::CopilotCamel => {
            json!({"sessionId":"s","cwd":"/w","timestamp":1,"hookEventName":native,
            "toolName":"bash","toolArgs":{"command":"ls"}})
        }
        Dialect::Cursor => {
            json!({"conversation_id":"s","workspace_roots":["/w"],"hook_event_name":native,
            "tool_name":"Shell","tool_input":{"command":"ls"},"command":"ls","file_path":"/w/f"})
        }
        Dialect::CopilotClaude | Dialect::CursorClaude => unreachable!(),
    };
    if dialect == Dialect::CopilotCamel {
        p.as_object_mut().unwrap().remove("hook_event_name");
    }
    (dialect.agent(), p)
}

#[test]
fn every_event_each_agent_sends_parses_to_its_catalog_event() {
    for (dialect, vocabulary) in [
        (Dialect::Claude, Vocabulary::Claude),
        (Dialect::Codex, Vocabulary::Codex),
        (Dialect::Gemini, Vocabulary::Gemini),
        (Dialect::CopilotCamel, Vocabulary::Copilot),
        (Dialect::Cursor, Vocabulary::Cursor),
    ] {
        for alias in ALIASES.iter().filter(|a| a.vocabulary == vocabulary) {
            let (agent, payload) = minimal(dialect, alias.name);
            let parsed = ok(agent, &payload);
            assert_eq!(parsed.dialect, dialect, "{}", alias.name);
            assert_eq!(parsed.call.event, alias.event, "{}", alias.name);
            assert_eq!(parsed.call.native_event, alias.name);
            assert_eq!(parsed.call.session_id, "s");
            assert_eq!(parsed.call.cwd, "/w");
            assert_eq!(
                parsed.call.tool.is_some(),
                alias.event.contract().tool_matched,
                "{}",
                alias.name
            );
        }
    }
}

#[test]
fn unknown_event_names_are_an_error_naming_the_event() {
    for (agent, payload) in [
        (
            AgentKind::Claude,
            json!({"hook_event_name":"PreToolUze","session_id":"s","prompt_id":"p"}),
        ),
        (
            AgentKind::Gemini,
            json!({"hook_event_name":"BeforeToolz","timestamp":"x","transcript_path":"/t"}),
        ),
        (
            AgentKind::Cursor,
            json!({"hook_event_name":"beforeTeleport","conversation_id":"c"}),
        ),
        (
            AgentKind::Copilot,
            json!({"hookEventName":"preToolUze","sessionId":"s"}),
        ),
    ] {
        let err = parse(agent, payload.to_string().as_bytes()).unwrap_err();
        assert!(matches!(&err, ParseError::UnknownEvent(_)), "{err}");
        assert!(err.to_string().starts_with("unknown event `"), "{err}");
    }
}

/// (dialect, tool name, input, kind, command, paths, content, url)
type Row = (
    Dialect,
    &'static str,
    serde_json::Value,
    ToolKind,
    Option<&'static str>,
    Vec<PathTarget>,
    Option<&'static str>,
    Option<&'static str>,
);

#[test]
fn tool_names_of_every_agent_map_to_one_canonical_view() {
    use ToolKind as K;
    let w = |p: &str| PathTarget {
        path: p.into(),
        op: PathOp::Write,
    };
    let r = |p: &str| PathTarget {
        path: p.into(),
        op: PathOp::Read,
    };
    let rows: Vec<Row> = vec![
        (
            Dialect::Claude,
            "Bash",
            json!({"command":"npm test","timeout":120_000}),
            K::Shell,
            Some("npm test"),
            vec![],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "PowerShell",
            json!({"command":"Remove-Item x"}),
            K::Shell,
            Some("Remove-Item x"),
            vec![],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "Write",
            json!({"file_path":"/w/a.txt","content":"hi"}),
            K::Write,
            None,
            vec![w("/w/a.txt")],
            Some("hi"),
            None,
        ),
        (
            Dialect::Claude,
            "Edit",
            json!({"file_path":"/w/a","old_string":"x","new_string":"y"}),
            K::Edit,
            None,
            vec![w("/w/a")],
            Some("y"),
            None,
        ),
        (
            Dialect::Claude,
            "MultiEdit",
            json!({"file_path":"/w/a","edits":[{"old_string":"1","new_string":"A"},{"old_string":"2","new_string":"B"}]}),
            K::Edit,
            None,
            vec![w("/w/a")],
            Some("A\nB"),
            None,
        ),
        (
            Dialect::Claude,
            "NotebookEdit",
            json!({"notebook_path":"/w/n.ipynb","new_source":"print(1)"}),
            K::Edit,
            None,
            vec![w("/w/n.ipynb")],
            Some("print(1)"),
            None,
        ),
        (
            Dialect::Claude,
            "Read",
            json!({"file_path":"/w/.env"}),
            K::Read,
            None,
            vec![r("/w/.env")],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "Glob",
            json!({"pattern":"**/*.rs","path":"/w"}),
            K::Search,
            None,
            vec![r("/w")],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "Grep",
            json!({"pattern":"x"}),
            K::Search,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "WebFetch",
            json!({"url":"https://e.com","prompt":"p"}),
            K::Fetch,
            None,
            vec![],
            None,
            Some("https://e.com"),
        ),
        (
            Dialect::Claude,
            "WebSearch",
            json!({"query":"q"}),
            K::Fetch,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "Agent",
            json!({"prompt":"p","subagent_type":"x"}),
            K::Subagent,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "Task",
            json!({"prompt":"p"}),
            K::Subagent,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Claude,
            "TodoWrite",
            json!({"todos":[]}),
            K::Other,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Codex,
            "Bash",
            json!({"command":"rg -n x ."}),
            K::Shell,
            Some("rg -n x ."),
            vec![],
            None,
            None,
        ),
        (
            Dialect::Codex,
            "Bash",
            json!({"command":["bash","-lc","echo 'a b'"]}),
            K::Shell,
            Some("bash -lc 'echo '\\''a b'\\'''"),
            vec![],
            None,
            None,
        ),
        (
            Dialect::Codex,
            "spawn_agent",
            json!({"message":"m"}),
            K::Subagent,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Gemini,
            "run_shell_command",
            json!({"command":"git commit --allow-empty --no-verify -m probe .","dir_path":"/w"}),
            K::Shell,
            Some("git commit --allow-empty --no-verify -m probe ."),
            vec![],
            None,
            None,
        ),
        (
            Dialect::Gemini,
            "write_file",
            json!({"file_path":"/w/a","content":"c"}),
            K::Write,
            None,
            vec![w("/w/a")],
            Some("c"),
            None,
        ),
        (
            Dialect::Gemini,
            "replace",
            json!({"file_path":"/w/a","old_string":"o","new_string":"n"}),
            K::Edit,
            None,
            vec![w("/w/a")],
            Some("n"),
            None,
        ),
        (
            Dialect::Gemini,
            "read_file",
            json!({"file_path":"/w/a"}),
            K::Read,
            None,
            vec![r("/w/a")],
            None,
            None,
        ),
        (
            Dialect::Gemini,
            "read_many_files",
            json!({"include":["/w/a","/w/b"]}),
            K::Read,
            None,
            vec![r("/w/a"), r("/w/b")],
            None,
            None,
        ),
        (
            Dialect::Gemini,
            "list_directory",
            json!({"dir_path":"/w"}),
            K::Read,
            None,
            vec![r("/w")],
            None,
            None,
        ),
        (
            Dialect::Gemini,
            "glob",
            json!({"pattern":"*","dir_path":"/w"}),
            K::Search,
            None,
            vec![r("/w")],
            None,
            None,
        ),
        (
            Dialect::Gemini,
            "grep_search",
            json!({"pattern":"x"}),
            K::Search,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Gemini,
            "web_fetch",
            json!({"prompt":"summarise https://example.com/a, please"}),
            K::Fetch,
            None,
            vec![],
            None,
            Some("https://example.com/a"),
        ),
        (
            Dialect::Gemini,
            "google_web_search",
            json!({"query":"q"}),
            K::Fetch,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::CopilotCamel,
            "bash",
            json!({"command":"ls"}),
            K::Shell,
            Some("ls"),
            vec![],
            None,
            None,
        ),
        (
            Dialect::CopilotCamel,
            "powershell",
            json!({"command":"dir"}),
            K::Shell,
            Some("dir"),
            vec![],
            None,
            None,
        ),
        (
            Dialect::CopilotCamel,
            "create",
            json!({"path":"/w/n","file_text":"t"}),
            K::Write,
            None,
            vec![w("/w/n")],
            Some("t"),
            None,
        ),
        (
            Dialect::CopilotCamel,
            "edit",
            json!({"path":"/w/n","old_str":"a","new_str":"b"}),
            K::Edit,
            None,
            vec![w("/w/n")],
            Some("b"),
            None,
        ),
        (
            Dialect::CopilotCamel,
            "view",
            json!({"path":"/w/n"}),
            K::Read,
            None,
            vec![r("/w/n")],
            None,
            None,
        ),
        (
            Dialect::CopilotCamel,
            "str_replace_editor",
            json!({"command":"view","path":"/w/n"}),
            K::Read,
            None,
            vec![r("/w/n")],
            None,
            None,
        ),
        (
            Dialect::CopilotCamel,
            "str_replace_editor",
            json!({"command":"create","path":"/w/n","file_text":"t"}),
            K::Write,
            None,
            vec![w("/w/n")],
            Some("t"),
            None,
        ),
        (
            Dialect::CopilotCamel,
            "web_fetch",
            json!({"url":"https://e.com"}),
            K::Fetch,
            None,
            vec![],
            None,
            Some("https://e.com"),
        ),
        (
            Dialect::CopilotCamel,
            "task",
            json!({"prompt":"p"}),
            K::Subagent,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::CopilotCamel,
            "grep",
            json!({"pattern":"p"}),
            K::Search,
            None,
            vec![],
            None,
            None,
        ),
        (
            Dialect::Cursor,
            "Shell",
            json!({"command":"ls"}),
            K::Shell,
            Some("ls"),
            vec![],
            None,
            None,
        ),
        (
            Dialect::Cursor,
            "Delete",
            json!({"path":"/w/x"}),
            K::Write,
            None,
            vec![PathTarget {
                path: "/w/x".into(),
                op: PathOp::Delete,
            }],
            None,
            None,
        ),
    ];
    for (dialect, name, input, kind, command, paths, content, url) in rows {
        let payload = match dialect {
            Dialect::Claude => {
                json!({"hook_event_name":"PreToolUse","session_id":"s","prompt_id":"p","tool_name":name,"tool_input":input})
            }
            Dialect::Codex => {
                json!({"hook_event_name":"PreToolUse","session_id":"s","turn_id":"t","tool_name":name,"tool_input":input})
            }
            Dialect::Gemini => {
                json!({"hook_event_name":"BeforeTool","session_id":"s","tool_name":name,"tool_input":input})
            }
            Dialect::CopilotCamel => json!({"sessionId":"s","toolName":name,"toolArgs":input}),
            _ => {
                json!({"hook_event_name":"preToolUse","conversation_id":"c","tool_name":name,"tool_input":input})
            }
        };
        let parsed = ok(dialect.agent(), &payload);
        assert_eq!(parsed.dialect, dialect, "{name}");
        let tool = parsed.call.tool.unwrap();
        let ctx = format!("{dialect:?} {name} {input}");
        assert_eq!(tool.name, name, "{ctx}");
        assert_eq!(tool.kind, kind, "{ctx}");
        assert_eq!(tool.command.as_deref(), command, "{ctx}");
        assert_eq!(tool.paths, paths, "{ctx}");
        assert_eq!(tool.content.as_deref(), content, "{ctx}");
        assert_eq!(tool.url.as_deref(), url, "{ctx}");
        assert_eq!(
            serde_json::Value::Object(tool.input),
            input,
            "{ctx}: input kept as sent"
        );
    }
}

#[test]
fn mcp_tool_names_split_into_server_and_tool_per_agent_naming_rule() {
    let cases = [
        // Claude / Codex: mcp__<server>__<tool>.
        (
            json!({"hook_event_name":"PreToolUse","session_id":"s","prompt_id":"p","tool_name":"mcp__github__create_issue","tool_input":{"title":"t"}}),
            "github",
            "create_issue",
        ),
        (
            json!({"hook_event_name":"PreToolUse","session_id":"s","prompt_id":"p","tool_name":"mcp__plugin_acme_db__run_query","tool_input":{}}),
            "plugin_acme_db",
            "run_query",
        ),
        (
            json!({"hook_event_name":"PreToolUse","session_id":"s","turn_id":"t","tool_name":"mcp__personastub__navigate","tool_input":{"url":"https://x"}}),
            "personastub",
            "navigate",
        ),
        // Gemini: mcp_<server>_<tool>, first underscore without mcp_context …
        (
            json!({"hook_event_name":"BeforeTool","session_id":"s","tool_name":"mcp_github_create_issue","tool_input":{}}),
            "github",
            "create_issue",
        ),
        // … and mcp_context when present (a server name with underscores).
        (
            json!({"hook_event_name":"BeforeTool","session_id":"s","tool_name":"mcp_my_db_run_query","tool_input":{},
            "mcp_context":{"server_name":"my_db","tool_name":"run_query","command":"db-server"}}),
            "my_db",
            "run_query",
        ),
        // Copilot camelCase: <server>-<tool>, split at the last hyphen.
        (
            json!({"sessionId":"s","toolName":"github-mcp-server-get_issue","toolArgs":{}}),
            "github-mcp-server",
            "get_issue",
        ),
    ];
    for (payload, server, tool_name) in cases {
        let parsed = ok(AgentKind::Claude, &payload);
        let tool = parsed.call.tool.unwrap();
        assert_eq!(tool.kind, ToolKind::Mcp, "{payload}");
        assert_eq!(tool.mcp_server.as_deref(), Some(server), "{payload}");
        assert_eq!(tool.mcp_tool.as_deref(), Some(tool_name), "{payload}");
    }
    // Copilot built-ins with no hyphen, and Claude names that merely start with "mcp", are not MCP.
    let builtin = ok(
        AgentKind::Copilot,
        &json!({"sessionId":"s","toolName":"web_fetch","toolArgs":{}}),
    );
    assert_eq!(builtin.call.tool.unwrap().kind, ToolKind::Fetch);
    let gemini_style_in_claude = ok(
        AgentKind::Claude,
        &json!({"hook_event_name":"PreToolUse","session_id":"s","prompt_id":"p","tool_name":"mcp_x_y","tool_input":{}}),
    );
    assert_eq!(
        gemini_style_in_claude.call.tool.unwrap().kind,
        ToolKind::Other
    );
}

#[test]
fn mcp_file_tools_name_the_files_they_change() {
    use hookgate_core::canonical::PathOp::{Delete, Move, Read, Write};
    let paths = |tool: &str, input: serde_json::Value| {
        let parsed = ok(
            AgentKind::Claude,
            &json!({"hook_event_name":"PreToolUse","session_id":"s","prompt_id":"p",
                "tool_name":tool,"tool_input":input}),
        );
        let call = parsed.call.tool.unwrap();
        assert_eq!(call.kind, ToolKind::Mcp, "{tool}");
        call.paths
            .into_iter()
            .map(|p| (p.path, p.op))
            .collect::<Vec<_>>()
    };
    let p = |s: &str, op| (s.to_owned(), op);
    assert_eq!(
        paths(
            "mcp__filesystem__write_file",
            json!({"path":".claude/settings.json","content":"{}"})
        ),
        [p(".claude/settings.json", Write)]
    );
    assert_eq!(
        paths("mcp__fs__edit_file", json!({"file_path":"a.rs","edits":[]})),
        [p("a.rs", Write)]
    );
    assert_eq!(
        paths(
            "mcp__fs__move_file",
            json!({"source":".claude","destination":"/tmp/x"})
        ),
        [p(".claude", Move), p("/tmp/x", Write)]
    );
    assert_eq!(
        paths("mcp__fs__delete", json!({"path":"x"})),
        [p("x", Delete)]
    );
    assert_eq!(
        paths("mcp__fs__removeFiles", json!({"paths":["a","b"]})),
        [p("a", Delete), p("b", Delete)]
    );
    assert_eq!(
        paths(
            "mcp__fs__copy_file",
            json!({"source":"a","destination":"b"})
        ),
        [p("a", Read), p("b", Write)]
    );
    assert_eq!(
        paths("mcp__fs__create_directory", json!({"path":"d"})),
        [p("d", Write)]
    );
    // Names that change no file, and arguments that name no path.
    assert!(
        paths(
            "mcp__fs__read_file",
            json!({"path":".claude/settings.json"})
        )
        .is_empty()
    );
    assert!(paths("mcp__fs__list_directory", json!({"path":"."})).is_empty());
    assert!(paths("mcp__github__create_issue", json!({"title":"t","body":"b"})).is_empty());
    // Gemini's `mcp_<server>_<tool>` spelling reads the same.
    let gemini = ok(
        AgentKind::Gemini,
        &json!({"hook_event_name":"BeforeTool","session_id":"s","tool_name":"mcp_fs_write_file",
            "tool_input":{"path":".gemini/settings.json","content":"{}"}}),
    );
    assert_eq!(gemini.call.tool.unwrap().paths.len(), 1);
}

fn codex_patch(field: &str, body: &serde_json::Value) -> hookgate_core::canonical::ToolCall {
    let payload = json!({"session_id":"s","turn_id":"t","cwd":"/w","hook_event_name":"PreToolUse",
        "tool_name":"apply_patch","tool_input":{field: body},"tool_use_id":"call_1"});
    let parsed = ok(AgentKind::Codex, &payload);
    assert_eq!(parsed.dialect, Dialect::Codex);
    parsed.call.tool.unwrap()
}

#[test]
fn codex_apply_patch_bodies_yield_every_path_with_its_operation_and_the_added_lines() {
    let p = |path: &str, op| PathTarget {
        path: path.into(),
        op,
    };
    // The captured form (protocols doc §3.4).
    let tool = codex_patch(
        "command",
        &json!("*** Begin Patch\n*** Add File: src/probe.py\n+print('hello')\n*** End Patch\n"),
    );
    assert_eq!(tool.kind, ToolKind::Patch);
    assert_eq!(tool.paths, vec![p("src/probe.py", PathOp::Write)]);
    assert_eq!(tool.content.as_deref(), Some("print('hello')"));

    let body = "*** Begin Patch\n\
*** Add File: a.txt\n+alpha\n+beta\n\
*** Update File: src/lib.rs\n*** Move to: src/core.rs\n@@ fn main\n-old\n+new\n context\n\
*** Delete File: .github/workflows/ci.yml\n\
*** Update File: README.md\n@@\n-x\n+y\n*** End of File\n\
*** End Patch";
    let tool = codex_patch("input", &json!(body));
    assert_eq!(
        tool.paths,
        vec![
            p("a.txt", PathOp::Write),
            p("src/lib.rs", PathOp::Move),
            p("src/core.rs", PathOp::Write),
            p(".github/workflows/ci.yml", PathOp::Delete),
            p("README.md", PathOp::Write),
        ]
    );
    assert_eq!(tool.content.as_deref(), Some("alpha\nbeta\nnew\ny"));

    // CRLF and a heredoc wrapper, in an argv array.
    let tool = codex_patch(
        "command",
        &json!([
            "apply_patch",
            "<<'EOF'\r\n*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\nEOF"
        ]),
    );
    assert_eq!(tool.paths, vec![p("x", PathOp::Delete)]);
    assert_eq!(tool.content, None);
}

#[test]
fn a_malformed_patch_is_still_a_patch_call_with_whatever_paths_could_be_read() {
    for (body, paths) in [
        (json!(""), vec![]),
        (json!("not a patch at all"), vec![]),
        (json!("*** Begin Patch\n*** Add File: \n+x\n"), vec![]),
        (
            json!("*** Update File: only.rs\n+line"),
            vec![PathTarget {
                path: "only.rs".into(),
                op: PathOp::Write,
            }],
        ),
        (
            json!("*** Move to: dest.rs"),
            vec![PathTarget {
                path: "dest.rs".into(),
                op: PathOp::Write,
            }],
        ),
        (
            json!("\u{0}\u{ffff}*** Add File: x\n*** Add File: ok\n"),
            vec![PathTarget {
                path: "ok".into(),
                op: PathOp::Write,
            }],
        ),
        (json!(42), vec![]),
        (json!(null), vec![]),
    ] {
        let tool = codex_patch("command", &body);
        assert_eq!(tool.kind, ToolKind::Patch, "{body}");
        assert_eq!(tool.paths, paths, "{body}");
    }
}

#[test]
fn a_patch_applied_through_the_shell_still_names_its_files() {
    let payload = json!({"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","tool_name":"Bash",
        "tool_input":{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .env\n+TOKEN=x\n*** End Patch\nEOF"}});
    let tool = ok(AgentKind::Codex, &payload).call.tool.unwrap();
    // The whole line is the patch: judged as one, the shell line kept for the analyser.
    assert_eq!(tool.kind, ToolKind::Patch);
    assert!(tool.command.is_some());
    assert_eq!(
        tool.paths,
        vec![PathTarget {
            path: ".env".into(),
            op: PathOp::Write
        }]
    );
    assert_eq!(tool.content.as_deref(), Some("TOKEN=x"));
}

#[test]
fn bad_input_is_a_clear_error_and_never_a_panic() {
    let big = {
        let mut v = b"{\"hook_event_name\":\"PreToolUse\",\"x\":\"".to_vec();
        v.resize(20 * 1024 * 1024, b'a');
        v.extend_from_slice(b"\"}");
        v
    };
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", b"".to_vec(), "payload is empty"),
        ("whitespace", b" \n\t ".to_vec(), "payload is empty"),
        ("no event", b"{}".to_vec(), "payload names no hook event"),
        (
            "invalid json",
            b"{\"hook_event_name\":".to_vec(),
            "payload is not json: ",
        ),
        (
            "not an object",
            b"[1,2]".to_vec(),
            "payload is not a json object",
        ),
        ("deeply nested", deep.into_bytes(), "payload is not json: "),
        (
            "event not a string",
            br#"{"hook_event_name":7}"#.to_vec(),
            "field `hook_event_name` must be a string",
        ),
        (
            "tool_input wrong",
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":[1]}"#.to_vec(),
            "field `tool_input` must be an object or a json-encoded object",
        ),
        (
            "tool_name wrong",
            br#"{"hook_event_name":"PreToolUse","tool_name":1}"#.to_vec(),
            "field `tool_name` must be a string",
        ),
        (
            "tool_name missing",
            br#"{"hook_event_name":"PreToolUse","tool_input":{}}"#.to_vec(),
            "field `tool_name` is missing",
        ),
        (
            "session_id wrong",
            br#"{"hook_event_name":"Stop","session_id":{}}"#.to_vec(),
            "field `session_id` must be a string",
        ),
        (
            "cwd wrong",
            br#"{"hook_event_name":"Stop","cwd":false}"#.to_vec(),
            "field `cwd` must be a string",
        ),
        (
            "workspace_roots wrong",
            br#"{"hook_event_name":"stop","conversation_id":"c","workspace_roots":"/w"}"#.to_vec(),
            "field `workspace_roots` must be an array of strings",
        ),
        (
            "non-utf-8",
            b"{\"hook_event_name\":\"Stop\xff\"}".to_vec(),
            "payload is not utf-8 (invalid byte at offset 24)",
        ),
        (
            "20 MiB",
            big,
            "payload is 20971522 bytes, over the 16777216-byte limit",
        ),
        (
            "unknown event",
            br#"{"hook_event_name":"Nope"}"#.to_vec(),
            "unknown event `Nope`",
        ),
    ];
    for (what, bytes, message) in cases {
        for agent in AgentKind::ALL {
            if what == "no event" && *agent == AgentKind::Copilot {
                continue;
            }
            let err = parse(*agent, &bytes).expect_err(what);
            let text = err.to_string();
            assert!(text.starts_with(message), "{what} ({agent:?}): {text}");
            assert!(
                text.starts_with(|c: char| c.is_ascii_lowercase()),
                "{what}: lowercase"
            );
        }
    }
    // A UTF-8 BOM is tolerated.
    let bom =
        b"\xef\xbb\xbf{\"hook_event_name\":\"Stop\",\"session_id\":\"s\",\"prompt_id\":\"p\"}";
    assert_eq!(
        parse(AgentKind::Claude, bom).unwrap().call.event,
        EventId::Stop
    );
}

#[test]
fn a_tool_call_and_a_decoded_payload_go_through_the_hooks_own_parser() {
    use hookgate_core::{AgentKind, ToolKind};
    let input = serde_json::json!({"command": "*** Begin Patch\n*** Add File: .env\n+K=v\n*** End Patch\n"});
    let call = hookgate_agents::call_for_tool(
        AgentKind::Codex,
        "/w",
        "apply_patch",
        input.as_object().unwrap(),
    )
    .unwrap();
    let tool = call.tool.unwrap();
    assert_eq!((call.agent, tool.kind), (AgentKind::Codex, ToolKind::Patch));
    assert!(
        tool.paths.iter().any(|p| p.path == ".env"),
        "{:?}",
        tool.paths
    );

    let payload = serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let call = hookgate_agents::call_from_value(AgentKind::Claude, &payload, "/default").unwrap();
    assert_eq!(
        call.cwd, "/default",
        "a payload without cwd takes the default"
    );
    assert!(
        hookgate_agents::call_from_value(AgentKind::Claude, &serde_json::json!([1]), "/").is_err()
    );
}

#[test]
fn a_command_is_each_agents_own_shell_tool_call() {
    for agent in AgentKind::ALL {
        let call = hookgate_agents::call_for_command(*agent, "/w", "rm -rf build").unwrap();
        let tool = call.tool.expect("a tool call");
        assert_eq!(tool.kind, ToolKind::Shell, "{agent:?}");
        assert_eq!(tool.command.as_deref(), Some("rm -rf build"), "{agent:?}");
        assert_eq!((call.agent, call.cwd.as_str()), (*agent, "/w"));
    }
}
