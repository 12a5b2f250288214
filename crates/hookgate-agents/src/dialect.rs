//! Which hook dialect a payload is in, told from the payload itself.
//!
//! The agent named on the command line is only a hint: Copilot CLI and Cursor also run the
//! hooks in `.claude/settings.json` (whose command says `hookgate hook claude`), and Codex and
//! Claude send byte-compatible payloads for some events. AgentGuard trusted the name and parsed
//! shapes the agents never send, so it governed nothing for two of its four agents; sniffing the
//! shape is what keeps every dialect governed.

use hookgate_core::alias::{Vocabulary, resolve_in};
use hookgate_core::canonical::AgentKind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One hook wire format: how an agent spells its payload and what output it obeys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// Claude Code (`hook_event_name: "PreToolUse"`, `tool_name`, `tool_input`).
    Claude,
    /// Codex CLI: Claude's shape plus `turn_id`/`model`; strict output (unknown keys fail open).
    Codex,
    /// Gemini CLI (`BeforeTool`, `run_shell_command`, ISO `timestamp`).
    Gemini,
    /// Copilot CLI's own format (camelCase `sessionId`, `toolName`, `toolArgs`; no event name).
    CopilotCamel,
    /// Copilot CLI running PascalCase (`.claude/settings.json`-style) hooks: Claude field names,
    /// ISO `timestamp`, no `transcript_path`.
    CopilotClaude,
    /// Cursor's own format (`conversation_id`, `workspace_roots`, camelCase events).
    Cursor,
    /// Cursor running Claude-configured hooks (PascalCase events with Cursor's common fields).
    CursorClaude,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: &'static [Dialect] = &[
        Self::Claude,
        Self::Codex,
        Self::Gemini,
        Self::CopilotCamel,
        Self::CopilotClaude,
        Self::Cursor,
        Self::CursorClaude,
    ];

    /// The agent that speaks this dialect.
    pub const fn agent(self) -> AgentKind {
        match self {
            Self::Claude => AgentKind::Claude,
            Self::Codex => AgentKind::Codex,
            Self::Gemini => AgentKind::Gemini,
            Self::CopilotCamel | Self::CopilotClaude => AgentKind::Copilot,
            Self::Cursor | Self::CursorClaude => AgentKind::Cursor,
        }
    }

    /// The vocabulary its event names come from.
    pub const fn vocabulary(self) -> Vocabulary {
        match self {
            Self::Claude | Self::CopilotClaude | Self::CursorClaude => Vocabulary::Claude,
            Self::Codex => Vocabulary::Codex,
            Self::Gemini => Vocabulary::Gemini,
            Self::CopilotCamel => Vocabulary::Copilot,
            Self::Cursor => Vocabulary::Cursor,
        }
    }

    /// The snake_case name (as serialised).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
            Self::CopilotCamel => "copilot_camel",
            Self::CopilotClaude => "copilot_claude",
            Self::Cursor => "cursor",
            Self::CursorClaude => "cursor_claude",
        }
    }

    /// The agent's native dialect, used when the payload carries no evidence of another.
    pub const fn native_of(agent: AgentKind) -> Self {
        match agent {
            AgentKind::Claude => Self::Claude,
            AgentKind::Codex => Self::Codex,
            AgentKind::Gemini => Self::Gemini,
            AgentKind::Copilot => Self::CopilotCamel,
            AgentKind::Cursor => Self::Cursor,
        }
    }
}

/// Keys only Copilot's camelCase payloads carry.
const COPILOT_CAMEL_KEYS: &[&str] = &[
    "sessionId",
    "toolName",
    "toolArgs",
    "toolInput",
    "toolResult",
    "hookEventName",
    "initialPrompt",
    "transcriptPath",
];

/// Keys only Cursor's payloads carry.
const CURSOR_KEYS: &[&str] = &[
    "conversation_id",
    "workspace_roots",
    "generation_id",
    "cursor_version",
];

/// Tells the dialect from the payload's shape, falling back to `named` only where the shape is
/// genuinely ambiguous. Rules, first match wins:
///
/// 1. any Copilot camelCase key ([`COPILOT_CAMEL_KEYS`]) or a numeric `timestamp` → `CopilotCamel`;
/// 2. any Cursor key ([`CURSOR_KEYS`]) → `CursorClaude` if the event is PascalCase, else `Cursor`;
/// 3. a camelCase `hook_event_name` → `CopilotCamel` if named Copilot, else `Cursor`;
/// 4. an event only Gemini has (`BeforeTool`, `AfterAgent`, `PreCompress`, …) → `Gemini`;
/// 5. a string `timestamp` → `Gemini` with `transcript_path` and a Gemini event, else
///    `CopilotClaude` (Copilot's Claude-format payload has an ISO timestamp and no transcript);
/// 6. `turn_id`, or a `tool_use_id` starting `call_` → `Codex`;
///    `prompt_id`, `effort`, or a `tool_use_id` starting `toolu_` → `Claude`;
/// 7. otherwise the named agent's Claude-family dialect (Claude, Codex, CopilotClaude,
///    CursorClaude; Gemini if the event is Gemini's, else Claude).
pub(crate) fn sniff(named: AgentKind, obj: &Map<String, Value>) -> Dialect {
    let has = |k: &str| obj.get(k).is_some_and(|v| !v.is_null());
    if COPILOT_CAMEL_KEYS.iter().any(|k| has(k))
        || obj.get("timestamp").is_some_and(Value::is_number)
    {
        return Dialect::CopilotCamel;
    }
    let event = obj.get("hook_event_name").and_then(Value::as_str);
    let pascal = event.is_some_and(|e| e.starts_with(|c: char| c.is_ascii_uppercase()));
    if CURSOR_KEYS.iter().any(|k| has(k)) {
        return if pascal {
            Dialect::CursorClaude
        } else {
            Dialect::Cursor
        };
    }
    let Some(event) = event else {
        return Dialect::native_of(named);
    };
    if !pascal {
        return if named == AgentKind::Copilot {
            Dialect::CopilotCamel
        } else {
            Dialect::Cursor
        };
    }
    let gemini_event = resolve_in(Vocabulary::Gemini, event).is_some();
    let claude_event = resolve_in(Vocabulary::Claude, event).is_some();
    if gemini_event && !claude_event {
        return Dialect::Gemini;
    }
    if obj.get("timestamp").is_some_and(Value::is_string) {
        if gemini_event && has("transcript_path") {
            return Dialect::Gemini;
        }
        return Dialect::CopilotClaude;
    }
    let tool_use_id = obj.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
    if has("turn_id") || tool_use_id.starts_with("call_") {
        return Dialect::Codex;
    }
    if has("prompt_id") || has("effort") || tool_use_id.starts_with("toolu_") {
        return Dialect::Claude;
    }
    match named {
        AgentKind::Codex => Dialect::Codex,
        AgentKind::Copilot => Dialect::CopilotClaude,
        AgentKind::Cursor => Dialect::CursorClaude,
        AgentKind::Gemini if gemini_event => Dialect::Gemini,
        AgentKind::Claude | AgentKind::Gemini => Dialect::Claude,
    }
}
