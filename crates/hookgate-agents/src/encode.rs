//! [`Reply`] → the exact bytes and exit code an agent obeys.
//!
//! Each encoder writes only the fields its agent documents: Codex validates output against
//! `additionalProperties: false` schemas and lets the call through when a key is unknown, and
//! Claude treats schema-invalid JSON as a non-blocking error. Conventions shared by all:
//!
//! - **No opinion** is empty stdout, empty stderr, exit 0. Answering `allow` instead would
//!   bypass the user's own permission prompts. Exceptions, both documented: Codex `Stop` /
//!   `SubagentStop` require JSON on exit 0 (→ `{}`), and Cursor's permission hooks (`before*`,
//!   `preToolUse`) refuse empty output under `failClosed` (→ `{}`, which Cursor documents as
//!   "allow" without granting anything `permission: "allow"` would).
//! - **JSON on exit 0** wherever the agent honours it, because only JSON carries ask, context
//!   and a reason the model sees. **Exit 2 + the reason on stderr** only for the Claude-format
//!   hooks run by Copilot and Cursor, whose JSON handling is undocumented, while exit 2 blocks in
//!   both.
//! - **stderr is written only on a deny** (Claude shows any stderr as a hook error).
//! - **A deny reason is never empty** (Codex fails open on an empty reason): a blank reason
//!   becomes [`DEFAULT_DENY_REASON`].
//! - **Ask where there is no ask** (Codex, Cursor `preToolUse`, non-permission events) becomes
//!   the caller's `ask_fallback`: `Deny` (or `Ask`) denies, `Allow` is no opinion.

use hookgate_core::alias::{ALIASES, resolve_in};
use hookgate_core::catalog::EventId;
use hookgate_core::decision::Decision;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::dialect::Dialect;

/// The reason given when a deny comes without one.
pub const DEFAULT_DENY_REASON: &str = "blocked by hookgate policy";
/// The exit status of the fail-closed answer a hook process gives when it cannot finish
/// judging (it crashed, or its deadline passed), with a non-empty reason on stderr and nothing
/// on stdout. It is the one reply that blocks in all five agents on every blocking event
/// without knowing the event or even the dialect — which a crash before the payload is parsed
/// cannot know (protocols doc §1: Claude and Codex need exit 2 with stderr, Gemini denies on
/// any status but 0 and 1, Copilot and Cursor deny on 2). The one place it does not block,
/// Claude's PermissionRequest (exit 2 ignored), shows the user's own prompt: nothing is
/// approved. JSON deny replies differ per agent and event, so none could be written in advance.
pub const FAIL_CLOSED_EXIT_STATUS: u8 = 2;

/// The reason given when an ask comes without one.
pub const DEFAULT_ASK_REASON: &str = "hookgate asks for confirmation";

/// What hookgate wants to tell the agent, independent of dialect.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct Reply {
    /// The verdict; `None` is no opinion.
    pub decision: Option<Decision>,
    /// Why (shown to the model on deny, to the user on ask).
    pub reason: Option<String>,
    /// Context to inject, where the agent and event support it (joined by blank lines).
    pub context: Vec<String>,
    /// A message for the user, where the agent has such a field.
    pub system_message: Option<String>,
    /// A replacement tool input (with `Allow` or `Ask`), where the agent supports it.
    pub updated_input: Option<Map<String, Value>>,
}

/// The hook process's answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Encoded {
    /// Bytes for stdout (a JSON object and a newline, or nothing).
    pub stdout: Vec<u8>,
    /// Bytes for stderr (only ever a deny reason).
    pub stderr: Vec<u8>,
    /// The exit code.
    pub exit_code: i32,
}

impl Encoded {
    fn json(map: Map<String, Value>) -> Self {
        let mut stdout = Value::Object(map).to_string().into_bytes();
        stdout.push(b'\n');
        Self {
            stdout,
            stderr: Vec::new(),
            exit_code: 0,
        }
    }

    /// JSON if there is anything to say, else no opinion.
    fn json_or_silent(map: Map<String, Value>) -> Self {
        if map.is_empty() {
            Self::default()
        } else {
            Self::json(map)
        }
    }

    fn exit2(reason: &str) -> Self {
        let mut stderr = reason.as_bytes().to_vec();
        stderr.push(b'\n');
        Self {
            stdout: Vec::new(),
            stderr,
            exit_code: 2,
        }
    }
}

/// What one native event of a dialect supports.
#[derive(Debug, Clone, Copy, Default)]
struct Caps {
    ask: bool,
    context: bool,
}

/// Capabilities per native event spelling (protocols doc §2.5, §3.6, §4.5, §5.5, §6.4).
fn caps(dialect: Dialect, event: EventId, native: &str) -> Caps {
    use EventId as E;
    let (ask, context) = match dialect {
        // PermissionRequest: "ask" is simply no opinion, the prompt shows anyway.
        Dialect::Claude => (
            matches!(event, E::PreToolUse | E::PermissionRequest),
            matches!(
                event,
                E::PreToolUse
                    | E::PostToolUse
                    | E::UserPromptSubmit
                    | E::SessionStart
                    | E::OnAgentSwitch
            ),
        ),
        // Codex: `ask` marks the hook failed and the call proceeds. Context only where the
        // generated output schemas and docs agree.
        Dialect::Codex => (
            event == E::PermissionRequest,
            matches!(
                event,
                E::PostToolUse | E::UserPromptSubmit | E::SessionStart | E::OnAgentSwitch
            ),
        ),
        Dialect::Gemini => (
            event == E::PreToolUse,
            matches!(native, "AfterTool" | "BeforeAgent" | "SessionStart"),
        ),
        Dialect::CopilotCamel => (
            matches!(event, E::PreToolUse | E::PermissionRequest),
            matches!(
                native,
                "postToolUse" | "sessionStart" | "subagentStart" | "notification"
            ),
        ),
        // Cursor: ask only on the shell and MCP gates (not generic preToolUse, and it is
        // reportedly ignored in Auto-review mode, so callers may prefer deny);
        // no context on prompt submit.
        Dialect::Cursor => (
            matches!(native, "beforeShellExecution" | "beforeMCPExecution"),
            matches!(native, "sessionStart" | "postToolUse"),
        ),
        // Claude-format hooks run by Copilot/Cursor: only exit 2 is known to work.
        Dialect::CopilotClaude | Dialect::CursorClaude => (false, false),
    };
    Caps { ask, context }
}

/// The dialect's native spellings of `event`.
fn natives(dialect: Dialect, event: EventId) -> impl Iterator<Item = &'static str> {
    let vocabulary = dialect.vocabulary();
    ALIASES
        .iter()
        .filter(move |a| a.vocabulary == vocabulary && a.event == event)
        .map(|a| a.name)
}

/// True when every native spelling of `event` in `dialect` has a native `ask` (so the caller
/// need not apply its fallback). Cursor's `PreToolUse` is false: its generic `preToolUse`
/// has no ask even though `beforeShellExecution` does.
pub fn supports_ask(dialect: Dialect, event: EventId) -> bool {
    let mut any = false;
    for native in natives(dialect, event) {
        if !caps(dialect, event, native).ask {
            return false;
        }
        any = true;
    }
    any
}

/// True when every native spelling of `event` in `dialect` accepts injected context.
pub fn supports_context(dialect: Dialect, event: EventId) -> bool {
    let mut any = false;
    for native in natives(dialect, event) {
        if !caps(dialect, event, native).context {
            return false;
        }
        any = true;
    }
    any
}

/// The event name to echo back (`hookEventName`): the native name if it really is this
/// event's spelling in this dialect, else the dialect's first spelling of the event.
fn wire_name(dialect: Dialect, event: EventId, native: &str) -> &'static str {
    let vocabulary = dialect.vocabulary();
    ALIASES
        .iter()
        .find(|a| a.vocabulary == vocabulary && a.event == event && a.name == native)
        .or_else(|| {
            ALIASES
                .iter()
                .find(|a| a.vocabulary == vocabulary && a.event == event)
        })
        .map_or(event.name(), |a| a.name)
}

fn non_empty(text: Option<&str>, default: &str) -> String {
    match text.map(str::trim) {
        Some(t) if !t.is_empty() => t.to_owned(),
        _ => default.to_owned(),
    }
}

/// Encodes `reply` for `dialect`. `native_event` is the event name the payload used (so
/// `PostToolUseFailure` is echoed as such); an unknown spelling falls back to the dialect's
/// canonical one. `ask_fallback` applies where the agent/event has no ask.
pub fn encode(
    dialect: Dialect,
    event: EventId,
    native_event: &str,
    reply: &Reply,
    ask_fallback: Decision,
) -> Encoded {
    // A native that is not this event's spelling is treated as the canonical spelling.
    let native = if resolve_in(dialect.vocabulary(), native_event) == Some(event) {
        native_event
    } else {
        wire_name(dialect, event, native_event)
    };
    let caps = caps(dialect, event, native);
    let decision = match reply.decision {
        Some(Decision::Ask) if !caps.ask => match ask_fallback {
            Decision::Allow => None,
            Decision::Ask | Decision::Deny => Some(Decision::Deny),
        },
        other => other,
    };
    let context = if caps.context {
        let parts: Vec<&str> = reply
            .context
            .iter()
            .map(String::as_str)
            .filter(|c| !c.trim().is_empty())
            .collect();
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    } else {
        None
    };
    let out = Out {
        event,
        native,
        decision,
        deny_reason: non_empty(reply.reason.as_deref(), DEFAULT_DENY_REASON),
        ask_reason: non_empty(reply.reason.as_deref(), DEFAULT_ASK_REASON),
        reason: reply
            .reason
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty()),
        context,
        system_message: reply
            .system_message
            .as_deref()
            .filter(|m| !m.trim().is_empty()),
        updated_input: reply.updated_input.as_ref(),
    };
    match dialect {
        Dialect::Claude => claude_like(&out, false),
        Dialect::Codex => claude_like(&out, true),
        Dialect::Gemini => gemini(&out),
        Dialect::CopilotCamel => copilot(&out),
        Dialect::Cursor => cursor(&out),
        Dialect::CopilotClaude | Dialect::CursorClaude => claude_compat(&out),
    }
}

/// Everything an encoder needs, already normalised.
struct Out<'a> {
    event: EventId,
    native: &'a str,
    decision: Option<Decision>,
    deny_reason: String,
    ask_reason: String,
    reason: Option<&'a str>,
    context: Option<String>,
    system_message: Option<&'a str>,
    updated_input: Option<&'a Map<String, Value>>,
}

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

/// `hookSpecificOutput` with `hookEventName` first, or nothing if there is nothing to say.
fn hook_specific(native: &str, fields: Map<String, Value>) -> Option<Value> {
    if fields.is_empty() {
        return None;
    }
    let mut map = Map::new();
    map.insert("hookEventName".into(), s(native));
    map.extend(fields);
    Some(Value::Object(map))
}

/// Claude Code and Codex (same shapes; `codex` drops what Codex rejects or fails open on).
///
/// - PreToolUse: `hookSpecificOutput.permissionDecision` (`deny`/`ask`/`allow`) +
///   `permissionDecisionReason` (+ `updatedInput`, + `additionalContext` on Claude). Codex: no
///   ask (fallback applied before), `allow` only with `updatedInput` (a bare allow marks the
///   hook failed).
/// - PermissionRequest: `hookSpecificOutput.decision.behavior` + `message` on deny.
/// - PostToolUse, UserPromptSubmit, Stop, SubagentStop: top-level `decision: "block"` +
///   `reason`.
/// - Events that cannot block: a deny becomes a `systemMessage` warning, never silence.
fn claude_like(out: &Out<'_>, codex: bool) -> Encoded {
    use EventId as E;
    let mut top = Map::new();
    let mut specific = Map::new();
    let mut warning: Option<&str> = None;
    match out.event {
        E::PreToolUse => match out.decision {
            Some(Decision::Deny) => {
                specific.insert("permissionDecision".into(), s("deny"));
                specific.insert("permissionDecisionReason".into(), s(&out.deny_reason));
            }
            Some(Decision::Ask) => {
                specific.insert("permissionDecision".into(), s("ask"));
                specific.insert("permissionDecisionReason".into(), s(&out.ask_reason));
                if let Some(input) = out.updated_input {
                    specific.insert("updatedInput".into(), Value::Object(input.clone()));
                }
            }
            Some(Decision::Allow) if !codex || out.updated_input.is_some() => {
                specific.insert("permissionDecision".into(), s("allow"));
                if let (Some(reason), false) = (out.reason, codex) {
                    specific.insert("permissionDecisionReason".into(), s(reason));
                }
                if let Some(input) = out.updated_input {
                    specific.insert("updatedInput".into(), Value::Object(input.clone()));
                }
            }
            Some(Decision::Allow) | None => {}
        },
        E::PermissionRequest => match out.decision {
            Some(Decision::Deny) => {
                let mut decision = Map::new();
                decision.insert("behavior".into(), s("deny"));
                decision.insert("message".into(), s(&out.deny_reason));
                specific.insert("decision".into(), Value::Object(decision));
            }
            Some(Decision::Allow) => {
                let mut decision = Map::new();
                decision.insert("behavior".into(), s("allow"));
                // Codex fails closed on `updatedInput` here; Claude accepts it.
                if let (Some(input), false) = (out.updated_input, codex) {
                    decision.insert("updatedInput".into(), Value::Object(input.clone()));
                }
                specific.insert("decision".into(), Value::Object(decision));
            }
            Some(Decision::Ask) | None => {}
        },
        E::PostToolUse | E::UserPromptSubmit | E::Stop | E::SubagentStop => {
            if out.decision == Some(Decision::Deny) {
                top.insert("decision".into(), s("block"));
                top.insert("reason".into(), s(&out.deny_reason));
            }
        }
        _ => {
            if out.decision == Some(Decision::Deny) {
                warning = Some(&out.deny_reason);
            }
        }
    }
    if let Some(context) = &out.context {
        specific.insert("additionalContext".into(), s(context));
    }
    if let Some(value) = hook_specific(out.native, specific) {
        top.insert("hookSpecificOutput".into(), value);
    }
    if let Some(message) = out.system_message.or(warning) {
        top.insert("systemMessage".into(), s(message));
    }
    if codex && top.is_empty() && matches!(out.event, E::Stop | E::SubagentStop) {
        // Codex requires JSON from Stop/SubagentStop hooks on exit 0.
        return Encoded::json(top);
    }
    Encoded::json_or_silent(top)
}

/// Gemini CLI: top-level `decision` (`deny`/`ask`/`allow`) + `reason`; `continue:false` is never
/// used because it kills the whole agent loop. Rewrites go in `hookSpecificOutput.tool_input`,
/// context in `hookSpecificOutput.additionalContext`.
fn gemini(out: &Out<'_>) -> Encoded {
    let mut top = Map::new();
    let mut specific = Map::new();
    let mut warning: Option<&str> = None;
    let blockable = matches!(
        out.native,
        "BeforeTool" | "AfterTool" | "BeforeAgent" | "AfterAgent" | "BeforeModel"
    );
    match out.decision {
        Some(Decision::Deny) if blockable => {
            top.insert("decision".into(), s("deny"));
            top.insert("reason".into(), s(&out.deny_reason));
        }
        Some(Decision::Deny) => warning = Some(&out.deny_reason),
        Some(Decision::Ask) => {
            top.insert("decision".into(), s("ask"));
            top.insert("reason".into(), s(&out.ask_reason));
        }
        Some(Decision::Allow) if out.native == "BeforeTool" => {
            top.insert("decision".into(), s("allow"));
            if let Some(reason) = out.reason {
                top.insert("reason".into(), s(reason));
            }
        }
        Some(Decision::Allow) | None => {}
    }
    if out.native == "BeforeTool"
        && matches!(out.decision, Some(Decision::Allow | Decision::Ask))
        && let Some(input) = out.updated_input
    {
        specific.insert("tool_input".into(), Value::Object(input.clone()));
    }
    if let Some(context) = &out.context {
        specific.insert("additionalContext".into(), s(context));
    }
    if let Some(value) = hook_specific(out.native, specific) {
        top.insert("hookSpecificOutput".into(), value);
    }
    if let Some(message) = out.system_message.or(warning) {
        top.insert("systemMessage".into(), s(message));
    }
    Encoded::json_or_silent(top)
}

/// Copilot CLI camelCase hooks: top-level fields, no `hookSpecificOutput`.
///
/// - preToolUse: `permissionDecision` + `permissionDecisionReason` (+ `modifiedArgs`).
/// - permissionRequest: `behavior` (+ `message` on deny).
/// - agentStop/subagentStop: `decision: "block"` + `reason`.
/// - postToolUse/sessionStart/subagentStart/notification: `additionalContext`; a deny on
///   postToolUse (which cannot block) is delivered as context so the model still sees it.
fn copilot(out: &Out<'_>) -> Encoded {
    use EventId as E;
    let mut top = Map::new();
    let mut context = out.context.clone();
    match (out.event, out.decision) {
        (E::PreToolUse, Some(Decision::Deny)) => {
            top.insert("permissionDecision".into(), s("deny"));
            top.insert("permissionDecisionReason".into(), s(&out.deny_reason));
        }
        (E::PreToolUse, Some(Decision::Ask)) => {
            top.insert("permissionDecision".into(), s("ask"));
            top.insert("permissionDecisionReason".into(), s(&out.ask_reason));
        }
        (E::PreToolUse, Some(Decision::Allow)) => {
            top.insert("permissionDecision".into(), s("allow"));
            if let Some(reason) = out.reason {
                top.insert("permissionDecisionReason".into(), s(reason));
            }
            if let Some(input) = out.updated_input {
                top.insert("modifiedArgs".into(), Value::Object(input.clone()));
            }
        }
        (E::PermissionRequest, Some(Decision::Deny)) => {
            top.insert("behavior".into(), s("deny"));
            top.insert("message".into(), s(&out.deny_reason));
        }
        (E::PermissionRequest, Some(Decision::Allow)) => {
            top.insert("behavior".into(), s("allow"));
        }
        (E::Stop | E::SubagentStop, Some(Decision::Deny)) => {
            top.insert("decision".into(), s("block"));
            top.insert("reason".into(), s(&out.deny_reason));
        }
        (E::PostToolUse, Some(Decision::Deny)) if out.native == "postToolUse" => {
            context = Some(match context {
                Some(c) => format!("{}\n\n{c}", out.deny_reason),
                None => out.deny_reason.clone(),
            });
        }
        _ => {}
    }
    if let Some(context) = context {
        top.insert("additionalContext".into(), s(&context));
    }
    Encoded::json_or_silent(top)
}

/// Cursor: snake_case fields per event.
///
/// - beforeShellExecution/beforeMCPExecution: `permission` + `user_message` + `agent_message`.
/// - beforeReadFile: `permission` only.
/// - preToolUse: `permission` + `agent_message` (+ `updated_input` with allow).
/// - beforeSubmitPrompt: `continue: false` + `user_message`.
/// - stop: `followup_message` (a deny of stopping keeps the agent working).
/// - sessionStart/postToolUse: `additional_context` (a postToolUse deny is delivered there).
fn cursor(out: &Out<'_>) -> Encoded {
    let mut top = Map::new();
    let mut context = out.context.clone();
    let permission_hook = matches!(
        out.native,
        "beforeShellExecution" | "beforeMCPExecution" | "beforeReadFile" | "preToolUse"
    );
    let deny = out.decision == Some(Decision::Deny);
    match out.native {
        "beforeShellExecution" | "beforeMCPExecution" => match out.decision {
            Some(Decision::Deny) => {
                top.insert("permission".into(), s("deny"));
                top.insert("user_message".into(), s(&out.deny_reason));
                top.insert("agent_message".into(), s(&out.deny_reason));
            }
            Some(Decision::Ask) => {
                top.insert("permission".into(), s("ask"));
                top.insert("user_message".into(), s(&out.ask_reason));
                top.insert("agent_message".into(), s(&out.ask_reason));
            }
            Some(Decision::Allow) => {
                top.insert("permission".into(), s("allow"));
            }
            None => {}
        },
        "beforeReadFile" => match out.decision {
            Some(Decision::Deny) => {
                top.insert("permission".into(), s("deny"));
            }
            Some(Decision::Allow) => {
                top.insert("permission".into(), s("allow"));
            }
            Some(Decision::Ask) | None => {}
        },
        "preToolUse" => match out.decision {
            Some(Decision::Deny) => {
                top.insert("permission".into(), s("deny"));
                top.insert("agent_message".into(), s(&out.deny_reason));
            }
            Some(Decision::Allow) => {
                top.insert("permission".into(), s("allow"));
                if let Some(input) = out.updated_input {
                    top.insert("updated_input".into(), Value::Object(input.clone()));
                }
            }
            Some(Decision::Ask) | None => {}
        },
        "beforeSubmitPrompt" if deny => {
            top.insert("continue".into(), Value::Bool(false));
            top.insert("user_message".into(), s(&out.deny_reason));
        }
        "stop" if deny => {
            top.insert("followup_message".into(), s(&out.deny_reason));
        }
        "postToolUse" if deny => {
            context = Some(match context {
                Some(c) => format!("{}\n\n{c}", out.deny_reason),
                None => out.deny_reason.clone(),
            });
        }
        _ => {}
    }
    if let Some(context) = context {
        top.insert("additional_context".into(), s(&context));
    }
    if permission_hook && top.is_empty() {
        // `{}` is Cursor's documented "allow" and survives `failClosed`; empty output may not.
        return Encoded::json(top);
    }
    Encoded::json_or_silent(top)
}

/// Claude-format hooks run by Copilot CLI or Cursor. How they read JSON answers is not
/// documented, but exit 2 with the reason on stderr blocks in both (and in Claude Code). So a
/// deny of a gate (pre-tool, permission request, prompt) is exit 2; everything else is silent.
fn claude_compat(out: &Out<'_>) -> Encoded {
    use EventId as E;
    match (out.event, out.decision) {
        (E::PreToolUse | E::PermissionRequest | E::UserPromptSubmit, Some(Decision::Deny)) => {
            Encoded::exit2(&out.deny_reason)
        }
        _ => Encoded::default(),
    }
}
