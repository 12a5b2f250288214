//! Per-agent facts: file layout, events, handler shape, timeout unit, and how to recognise the
//! handlers hookgate wrote.

use std::path::Path;

use hookgate_core::AgentKind;
use serde_json::{Map, Value, json};

use crate::InitOptions;
use crate::shell;

/// How the agent lays out its hook file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `{"hooks": {"Event": [{"matcher": …, "hooks": [handler]}]}}` (Claude, Codex, Gemini).
    Nested,
    /// `{"version": 1, "hooks": {"event": [handler]}}` (Copilot, Cursor).
    Flat,
}

/// One event hookgate registers for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Event {
    /// The agent's own spelling.
    pub name: &'static str,
    /// A tool event: registered for every tool (`matcher: "*"` where the agent needs one).
    pub tool: bool,
    /// Cursor: block the action if the hook fails (crash, timeout, bad output).
    pub fail_closed: bool,
}

const fn ev(name: &'static str) -> Event {
    Event {
        name,
        tool: false,
        fail_closed: false,
    }
}

const fn tool(name: &'static str) -> Event {
    Event {
        name,
        tool: true,
        fail_closed: false,
    }
}

const fn guard(name: &'static str) -> Event {
    Event {
        name,
        tool: false,
        fail_closed: true,
    }
}

/// Every event hookgate records, in each agent's spelling. The pre-tool event comes first: it is
/// the one that guards.
const CLAUDE: &[Event] = &[
    tool("PreToolUse"),
    tool("PermissionRequest"),
    tool("PostToolUse"),
    tool("PostToolUseFailure"),
    ev("UserPromptSubmit"),
    ev("SessionStart"),
    ev("SessionEnd"),
    ev("Stop"),
    ev("SubagentStop"),
    ev("PreCompact"),
];

/// Codex: `SessionEnd` and `PreCompact` are ignored (not rejected) by releases that lack them,
/// because the event table is a struct of optional fields.
const CODEX: &[Event] = &[
    tool("PreToolUse"),
    tool("PermissionRequest"),
    tool("PostToolUse"),
    ev("UserPromptSubmit"),
    ev("SessionStart"),
    ev("SessionEnd"),
    ev("Stop"),
    ev("PreCompact"),
];

/// Gemini has no permission-request event (its `Notification` is observe-only).
const GEMINI: &[Event] = &[
    tool("BeforeTool"),
    tool("AfterTool"),
    ev("BeforeAgent"),
    ev("AfterAgent"),
    ev("SessionStart"),
    ev("SessionEnd"),
    ev("PreCompress"),
];

/// Copilot matchers are anchored regexes (`*` would not compile), so none is written: a flat
/// handler without a matcher sees every tool.
const COPILOT: &[Event] = &[
    ev("preToolUse"),
    ev("permissionRequest"),
    ev("postToolUse"),
    ev("userPromptSubmitted"),
    ev("sessionStart"),
    ev("sessionEnd"),
    ev("agentStop"),
    ev("preCompact"),
];

/// Cursor: the permission events fail closed, so a crashed or hung guard blocks instead of
/// silently allowing. The shell, MCP and read events are registered besides the generic
/// `preToolUse` because only they support `ask`.
const CURSOR: &[Event] = &[
    guard("preToolUse"),
    guard("beforeShellExecution"),
    guard("beforeMCPExecution"),
    guard("beforeReadFile"),
    ev("postToolUse"),
    ev("beforeSubmitPrompt"),
    ev("sessionStart"),
    ev("sessionEnd"),
    ev("stop"),
    ev("preCompact"),
];

pub(crate) fn events(agent: AgentKind) -> &'static [Event] {
    match agent {
        AgentKind::Claude => CLAUDE,
        AgentKind::Codex => CODEX,
        AgentKind::Gemini => GEMINI,
        AgentKind::Copilot => COPILOT,
        AgentKind::Cursor => CURSOR,
    }
}

pub(crate) fn layout(agent: AgentKind) -> Layout {
    match agent {
        AgentKind::Claude | AgentKind::Codex | AgentKind::Gemini => Layout::Nested,
        AgentKind::Copilot | AgentKind::Cursor => Layout::Flat,
    }
}

/// The matcher of our group (nested layouts): all tools for tool events, none otherwise (Codex
/// ignores matchers on prompt/stop events anyway, and lifecycle matchers filter on `source`).
pub(crate) fn matcher(event: &Event) -> Option<&'static str> {
    event.tool.then_some("*")
}

/// The shell command line `'<bin>' hook <agent>`, for agents without an exec form.
pub(crate) fn shell_command(opts: &InitOptions, agent: AgentKind) -> String {
    format!(
        "{} hook {}",
        shell::quote(&opts.hookgate_bin.to_string_lossy()),
        agent.as_str()
    )
}

/// The handler object hookgate writes for `event`, in the agent's field names and timeout unit.
pub(crate) fn handler(agent: AgentKind, event: &Event, opts: &InitOptions) -> Value {
    let bin = opts.hookgate_bin.to_string_lossy();
    let secs = opts.timeout_secs.max(1);
    match agent {
        // Exec form: no shell between Claude and the binary.
        AgentKind::Claude => json!({
            "type": "command",
            "command": bin,
            "args": ["hook", "claude"],
            "timeout": secs,
        }),
        // Codex clamps SessionEnd hooks to 1..=3 s, and hashes the clamped value for trust; writing
        // the effective value keeps the file, the hash and the behaviour in agreement.
        AgentKind::Codex => {
            let secs = if event.name == "SessionEnd" {
                secs.clamp(1, 3)
            } else {
                secs
            };
            json!({
                "type": "command",
                "command": shell_command(opts, agent),
                "timeout": secs,
            })
        }
        // Gemini's timeout is in milliseconds: `30` means 30 ms and every call times out.
        AgentKind::Gemini => json!({
            "name": "hookgate",
            "type": "command",
            "command": shell_command(opts, agent),
            "timeout": u64::from(secs) * 1000,
        }),
        // Copilot's camelCase payloads carry no event name; HOOKGATE_EVENT tells the hook.
        AgentKind::Copilot => json!({
            "type": "command",
            "exec": bin,
            "args": ["hook", "copilot"],
            "env": {"HOOKGATE_EVENT": event.name},
            "timeoutSec": secs,
        }),
        AgentKind::Cursor => {
            let mut h = Map::new();
            h.insert("command".into(), shell_command(opts, agent).into());
            h.insert("timeout".into(), secs.into());
            if event.fail_closed {
                h.insert("failClosed".into(), true.into());
            }
            Value::Object(h)
        }
    }
}

/// The argv a handler would run, if it is a plain command (exec form, or a shell line with no
/// shell syntax beyond quoting). `None` for anything else.
pub(crate) fn handler_argv(handler: &Value) -> Option<Vec<String>> {
    let obj = handler.as_object()?;
    if let Some(kind) = obj.get("type")
        && kind.as_str() != Some("command")
    {
        return None;
    }
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|a| a.as_str().map(str::to_owned))
            .collect()
    };
    // Exec forms: Claude `command` + `args`, Copilot `exec` + `args`.
    for program in ["exec", "command"] {
        if let (Some(p), Some(args)) = (obj.get(program), obj.get("args"))
            && let (Some(p), Some(args)) = (p.as_str(), strings(args))
        {
            let mut argv = vec![p.to_owned()];
            argv.extend(args);
            return Some(argv);
        }
    }
    // Shell forms: `command` (Claude, Codex, Gemini, Cursor, Copilot fallback), `bash` (Copilot).
    ["command", "bash"]
        .iter()
        .find_map(|k| obj.get(*k)?.as_str())
        .and_then(shell::split)
}

/// Whether `handler` is one hookgate wrote for `agent`: a plain command whose program is a
/// `hookgate` binary (this one, or any other path named `hookgate`, so that an upgrade from
/// another install location is recognised) and whose arguments are exactly `hook <agent>`.
pub(crate) fn is_ours(handler: &Value, agent: AgentKind, bin: &Path) -> bool {
    let Some(argv) = handler_argv(handler) else {
        return false;
    };
    let [program, verb, name] = argv.as_slice() else {
        return false;
    };
    let named_hookgate = Path::new(program)
        .file_name()
        .is_some_and(|f| f == "hookgate" || f == "hookgate.exe");
    (named_hookgate || Path::new(program) == bin) && verb == "hook" && name == agent.as_str()
}
