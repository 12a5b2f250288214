//! `hookgate policy test FILE`: a YAML file of cases (a command, a tool call or a raw agent
//! payload → the expected decision), so users can pin their policy's behaviour in CI.
//!
//! ```yaml
//! workspace: /work/project        # defaults: /work/project, /home/user, no branch
//! home: /home/user
//! cases:
//!   - name: force push is denied
//!     command: git push --force origin main
//!     expect: deny
//!     matched: [no-force-push]      # optional: ids that must be among the matches
//!   - name: writing hook settings
//!     tool: Write
//!     input: { file_path: .claude/settings.json, content: "{}" }
//!     expect: deny
//!   - name: a captured payload
//!     payload: { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: ls } }
//!     expect: none                  # no opinion
//! ```
//!
//! `expect` is the hook's answer: `deny`, `ask`, `approve` (or `allow`: the hook answers allow,
//! which only an `effect: approve` rule gives) or `none` (no opinion, which is what an
//! `effect: allow` rule gives: the agent's own permission flow applies).
//!
//! Raw payloads are mapped by [`call_from_payload`], a small mapper of the Claude-style shape
//! (`tool_name`/`tool_input`, also Copilot's `toolName`/`toolArgs`). The CLI passes the real
//! dialect parsers through [`run_cases_with`].

use std::path::{Path, PathBuf};

use hookgate_core::{
    AgentKind, CanonicalCall, Decision, EventId, PathOp, PathTarget, ToolCall, ToolKind,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use crate::policy::PolicyError;
use crate::{Ctx, Policy, SessionState};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCases {
    #[serde(default)]
    workspace: Option<String>,
    #[serde(default)]
    home: Option<String>,
    #[serde(default)]
    branch: Option<String>,
    cases: Vec<Spanned<RawCase>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    #[serde(default)]
    agent: Option<AgentKind>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    input: Option<Map<String, Value>>,
    #[serde(default)]
    payload: Option<Value>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    branch: Option<String>,
    #[serde(default)]
    staged_files: Option<Vec<String>>,
    #[serde(default)]
    state: Option<SessionState>,
    expect: Expect,
    #[serde(default)]
    matched: Vec<String>,
}

/// The expected answer. `allow` and `approve` both mean the hook answers allow (only an
/// `approve` rule gives that); a policy `allow` rule gives `none` (no opinion).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Expect {
    Allow,
    Approve,
    Ask,
    Deny,
    None,
}

impl Expect {
    fn decision(self) -> Option<Decision> {
        match self {
            Self::Allow | Self::Approve => Some(Decision::Allow),
            Self::Ask => Some(Decision::Ask),
            Self::Deny => Some(Decision::Deny),
            Self::None => None,
        }
    }
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseOutcome {
    /// The case's name.
    pub name: String,
    /// Line of the case in the file.
    pub line: u64,
    /// Expected decision (`None`: no opinion).
    pub expected: Option<Decision>,
    /// Actual decision.
    pub actual: Option<Decision>,
    /// Expected ids that did not match.
    pub missing: Vec<String>,
    /// The evaluation's reason, or why the case could not run.
    pub reason: Option<String>,
    /// Whether it passed.
    pub passed: bool,
}

/// The result of a cases file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseReport {
    /// Per case, in file order.
    pub cases: Vec<CaseOutcome>,
    /// How many passed.
    pub passed: usize,
    /// How many failed.
    pub failed: usize,
}

impl CaseReport {
    /// True when every case passed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0
    }
}

/// Runs a cases file against `policy`, mapping raw payloads with [`call_from_payload`].
pub fn run_cases(policy: &Policy, text: &str) -> Result<CaseReport, PolicyError> {
    run_cases_with(policy, text, None, &|payload, agent, cwd| {
        call_from_payload(payload, agent, cwd)
    })
}

/// Payload parser: `(payload, agent named by the case, default cwd)` to a canonical call.
pub type PayloadParser<'a> = dyn Fn(&Value, AgentKind, &str) -> Option<CanonicalCall> + 'a;

/// Runs a cases file with a caller-supplied payload parser (the CLI passes the real dialect
/// parsers of `hookgate-agents`). `file` names the file in errors.
pub fn run_cases_with(
    policy: &Policy,
    text: &str,
    file: Option<&Path>,
    parse: &PayloadParser<'_>,
) -> Result<CaseReport, PolicyError> {
    let raw: RawCases =
        serde_saphyr::from_str_with_options(text, hookgate_core::yaml::untrusted_options())
            .map_err(|e| {
                let e = hookgate_core::yaml::YamlError::from(&e);
                PolicyError {
                    file: file.map(Path::to_path_buf),
                    line: e.line,
                    column: e.column,
                    message: e.message,
                }
            })?;
    let workspace = raw.workspace.unwrap_or_else(|| "/work/project".into());
    let home = raw.home.unwrap_or_else(|| "/home/user".into());
    let mut report = CaseReport {
        cases: Vec::new(),
        passed: 0,
        failed: 0,
    };
    for spanned in raw.cases {
        let line = spanned.referenced.line();
        let case = spanned.value;
        let agent = case.agent.unwrap_or(AgentKind::Claude);
        let cwd = case.cwd.clone().unwrap_or_else(|| workspace.clone());
        // Commands and tool calls become the pre-tool payload an agent would send and go
        // through the same parser as raw payloads (the CLI's is `hookgate-agents`), so a case
        // is judged exactly as the hook would judge that call.
        let tool_call = |name: &str, input: Map<String, Value>| {
            let payload = serde_json::json!({
                "session_id": "", "cwd": cwd, "hook_event_name": "PreToolUse",
                "tool_name": name, "tool_input": input,
            });
            parse(&payload, agent, &cwd).map(|mut call| {
                call.agent = agent;
                call
            })
        };
        let call = if let Some(command) = &case.command {
            let mut input = Map::new();
            input.insert("command".into(), Value::String(command.clone()));
            tool_call("Bash", input)
        } else if let Some(tool) = &case.tool {
            tool_call(tool, case.input.clone().unwrap_or_default())
        } else {
            case.payload.as_ref().and_then(|p| parse(p, agent, &cwd))
        };
        let expected = case.expect.decision();
        let Some(call) = call else {
            report.failed += 1;
            report.cases.push(CaseOutcome {
                name: case.name,
                line,
                expected,
                actual: None,
                missing: Vec::new(),
                reason: Some("the case needs `command`, `tool` or a payload that parses".into()),
                passed: false,
            });
            continue;
        };
        let mut ctx = Ctx::new(PathBuf::from(&workspace), Some(PathBuf::from(&home)));
        ctx.follow_symlinks = false;
        ctx.branch = case.branch.or_else(|| raw.branch.clone());
        ctx.staged_files = case.staged_files;
        let state = case.state.unwrap_or_default();
        let eval = policy.evaluate(&call, &ctx, &state);
        let missing: Vec<String> = case
            .matched
            .iter()
            .filter(|id| !eval.matched.iter().any(|m| &m.id == *id))
            .cloned()
            .collect();
        let passed = eval.decision == expected && missing.is_empty();
        if passed {
            report.passed += 1;
        } else {
            report.failed += 1;
        }
        report.cases.push(CaseOutcome {
            name: case.name,
            line,
            expected,
            actual: eval.decision,
            missing,
            reason: eval.reason.or(eval.context),
            passed,
        });
    }
    Ok(report)
}

fn str_field<'a>(input: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
}

/// A canonical tool call from an agent's tool name and input, for the common spellings of
/// the five agents (a convenience for cases files and tests; `hookgate-agents` is the real
/// dialect parser).
pub fn call_for_tool(
    agent: AgentKind,
    cwd: &str,
    name: &str,
    input: Map<String, Value>,
) -> CanonicalCall {
    let mut tool = ToolCall {
        name: name.to_owned(),
        kind: ToolKind::Other,
        command: None,
        paths: Vec::new(),
        content: None,
        url: None,
        mcp_server: None,
        mcp_tool: None,
        input: Map::new(),
    };
    let path = |op| {
        str_field(&input, hookgate_core::PATH_FIELDS).map(|p| PathTarget {
            path: p.to_owned(),
            op,
        })
    };
    let kind = if name.starts_with("mcp__") {
        ToolKind::Mcp
    } else {
        ToolKind::of_tool_name(name)
    };
    match kind {
        ToolKind::Shell => {
            tool.kind = ToolKind::Shell;
            tool.command = match input.get("command").or_else(|| input.get("cmd")) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Array(a)) => Some(
                    a.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => None,
            };
        }
        ToolKind::Write => {
            tool.kind = ToolKind::Write;
            tool.paths.extend(path(PathOp::Write));
            tool.content = str_field(&input, &["content", "file_text"]).map(str::to_owned);
        }
        ToolKind::Edit => {
            tool.kind = ToolKind::Edit;
            tool.paths.extend(path(PathOp::Write));
            tool.content = str_field(&input, &["new_string", "new_str", "new_source"])
                .map(str::to_owned)
                .or_else(|| {
                    input.get("edits").and_then(Value::as_array).map(|edits| {
                        edits
                            .iter()
                            .filter_map(|e| e.get("new_string").and_then(Value::as_str))
                            .collect::<Vec<_>>()
                            .join("\n")
                    })
                });
        }
        ToolKind::Read => {
            tool.kind = ToolKind::Read;
            tool.paths.extend(path(PathOp::Read));
        }
        ToolKind::Search => {
            tool.kind = ToolKind::Search;
            tool.paths.extend(path(PathOp::Read));
        }
        ToolKind::Fetch => {
            tool.kind = ToolKind::Fetch;
            tool.url = str_field(&input, &["url"]).map(str::to_owned);
        }
        ToolKind::Subagent => tool.kind = ToolKind::Subagent,
        ToolKind::Patch => {
            tool.kind = ToolKind::Patch;
            if let Some(body) = str_field(&input, &["command", "input", "patch"]) {
                let summary = hookgate_core::patch::parse_patch(body);
                tool.paths = summary.paths;
                tool.content = summary.added;
            }
        }
        ToolKind::Mcp => {
            tool.kind = ToolKind::Mcp;
            let mut parts = name.splitn(3, "__").skip(1);
            tool.mcp_server = parts.next().map(str::to_owned);
            tool.mcp_tool = parts.next().map(str::to_owned);
        }
        ToolKind::Other => {}
    }
    tool.input = input;
    CanonicalCall {
        agent,
        event: EventId::PreToolUse,
        native_event: "PreToolUse".into(),
        session_id: String::new(),
        cwd: cwd.to_owned(),
        tool: Some(tool),
        prompt: None,
        tool_response: None,
        approval: None,
        tool_succeeded: None,
    }
}

/// Maps a raw Claude-style payload (`hook_event_name`, `tool_name`, `tool_input`, `cwd`;
/// Copilot's `toolName`/`toolArgs` JSON string too) to a canonical call.
pub fn call_from_payload(payload: &Value, agent: AgentKind, cwd: &str) -> Option<CanonicalCall> {
    let name = payload
        .get("tool_name")
        .or_else(|| payload.get("toolName"))
        .and_then(Value::as_str)?;
    let input = match payload
        .get("tool_input")
        .or_else(|| payload.get("toolArgs"))
        .or_else(|| payload.get("input"))
    {
        Some(Value::Object(m)) => m.clone(),
        Some(Value::String(s)) => serde_json::from_str::<Map<String, Value>>(s).ok()?,
        _ => Map::new(),
    };
    let cwd = payload.get("cwd").and_then(Value::as_str).unwrap_or(cwd);
    let mut call = call_for_tool(agent, cwd, name, input);
    let native = payload
        .get("hook_event_name")
        .or_else(|| payload.get("hookEventName"))
        .and_then(Value::as_str)
        .unwrap_or("PreToolUse");
    native.clone_into(&mut call.native_event);
    call.event = match native {
        "PostToolUse" | "AfterTool" | "postToolUse" | "afterShellExecution" => EventId::PostToolUse,
        _ => EventId::PreToolUse,
    };
    payload
        .get("session_id")
        .or_else(|| payload.get("sessionId"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .clone_into(&mut call.session_id);
    call.tool_response = payload
        .get("tool_response")
        .or_else(|| payload.get("toolResult"))
        .cloned();
    Some(call)
}
