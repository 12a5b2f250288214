//! Other vocabularies mapped onto the catalog.
//!
//! Meerkat hook points, the Go SDK's hook types and each coding agent's event names all resolve
//! to one [`EventId`]. The mapping is a table (tested as such), so a reviewer can read every
//! translation in one screen. Names with no honest equivalent in the catalog are left out rather
//! than forced onto a near miss; where a mapping is approximate, its note says why.

use serde::Serialize;

use crate::catalog::EventId;

/// The vocabulary an event name comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Vocabulary {
    /// hookgate's own snake_case names (docker-agent's).
    Native,
    /// Meerkat `HookPoint`s.
    Meerkat,
    /// The Go agent SDK's hook types.
    GoSdk,
    /// Claude Code settings.json events.
    Claude,
    /// OpenAI Codex CLI events.
    Codex,
    /// Google Gemini CLI events.
    Gemini,
    /// GitHub Copilot CLI events.
    Copilot,
    /// Cursor events.
    Cursor,
}

impl Vocabulary {
    /// Every vocabulary, native first.
    pub const ALL: &'static [Vocabulary] = &[
        Self::Native,
        Self::Meerkat,
        Self::GoSdk,
        Self::Claude,
        Self::Codex,
        Self::Gemini,
        Self::Copilot,
        Self::Cursor,
    ];

    /// The vocabulary's name as used on the command line and in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Meerkat => "meerkat",
            Self::GoSdk => "go_sdk",
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
            Self::Copilot => "copilot",
            Self::Cursor => "cursor",
        }
    }
}

/// One row of the alias table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Alias {
    /// Where the name comes from.
    pub vocabulary: Vocabulary,
    /// The name exactly as that vocabulary spells it.
    pub name: &'static str,
    /// The catalog event it maps onto.
    pub event: EventId,
    /// Why the mapping is what it is, when it is not a one-to-one rename.
    pub note: &'static str,
}

const fn a(vocabulary: Vocabulary, name: &'static str, event: EventId) -> Alias {
    Alias {
        vocabulary,
        name,
        event,
        note: "",
    }
}

const fn n(
    vocabulary: Vocabulary,
    name: &'static str,
    event: EventId,
    note: &'static str,
) -> Alias {
    Alias {
        vocabulary,
        name,
        event,
        note,
    }
}

use EventId as E;
use Vocabulary as V;

/// The alias table (every non-native name hookgate accepts).
pub static ALIASES: &[Alias] = &[
    // Meerkat hook points.
    n(
        V::Meerkat,
        "run_started",
        E::UserPromptSubmit,
        "a run starts from one prompt and may be denied before any model call",
    ),
    a(V::Meerkat, "pre_llm_request", E::BeforeLlmCall),
    a(V::Meerkat, "pre_tool_execution", E::PreToolUse),
    n(
        V::Meerkat,
        "turn_boundary",
        E::BeforeLlmCall,
        "the blockable point between turns is the next model call",
    ),
    a(V::Meerkat, "post_llm_response", E::AfterLlmCall),
    a(V::Meerkat, "post_tool_execution", E::PostToolUse),
    n(
        V::Meerkat,
        "run_completed",
        E::Stop,
        "the model finished responding",
    ),
    n(V::Meerkat, "run_failed", E::OnError, "the run hit an error"),
    // Go agent SDK hook types.
    a(V::GoSdk, "PreToolUse", E::PreToolUse),
    a(V::GoSdk, "PostToolUse", E::PostToolUse),
    n(
        V::GoSdk,
        "OnStop",
        E::SessionEnd,
        "fires when the agent closes",
    ),
    a(V::GoSdk, "PreCompact", E::PreCompact),
    a(V::GoSdk, "SubagentStop", E::SubagentStop),
    a(V::GoSdk, "UserPromptSubmit", E::UserPromptSubmit),
    // Claude Code.
    a(V::Claude, "PreToolUse", E::PreToolUse),
    a(V::Claude, "PostToolUse", E::PostToolUse),
    n(
        V::Claude,
        "PostToolUseFailure",
        E::PostToolUse,
        "post_tool_use fires for failures too, with tool_error",
    ),
    a(V::Claude, "PermissionRequest", E::PermissionRequest),
    n(
        V::Claude,
        "PermissionDenied",
        E::OnToolApprovalDecision,
        "an approval verdict (deny) was reached",
    ),
    a(V::Claude, "UserPromptSubmit", E::UserPromptSubmit),
    a(V::Claude, "Stop", E::Stop),
    n(
        V::Claude,
        "StopFailure",
        E::OnError,
        "the turn ended on an API error",
    ),
    a(V::Claude, "SubagentStop", E::SubagentStop),
    n(
        V::Claude,
        "SubagentStart",
        E::OnAgentSwitch,
        "control moves to a sub-agent",
    ),
    a(V::Claude, "SessionStart", E::SessionStart),
    a(V::Claude, "SessionEnd", E::SessionEnd),
    a(V::Claude, "PreCompact", E::PreCompact),
    a(V::Claude, "PostCompact", E::AfterCompaction),
    a(V::Claude, "Notification", E::Notification),
    a(V::Claude, "WorktreeCreate", E::WorktreeCreate),
    // Codex CLI.
    a(V::Codex, "PreToolUse", E::PreToolUse),
    a(V::Codex, "PostToolUse", E::PostToolUse),
    a(V::Codex, "PermissionRequest", E::PermissionRequest),
    a(V::Codex, "UserPromptSubmit", E::UserPromptSubmit),
    a(V::Codex, "Stop", E::Stop),
    n(
        V::Codex,
        "StopFailure",
        E::OnError,
        "the turn ended on an API error",
    ),
    a(V::Codex, "SubagentStop", E::SubagentStop),
    n(
        V::Codex,
        "SubagentStart",
        E::OnAgentSwitch,
        "control moves to a sub-agent",
    ),
    a(V::Codex, "SessionStart", E::SessionStart),
    a(V::Codex, "SessionEnd", E::SessionEnd),
    a(V::Codex, "PreCompact", E::PreCompact),
    a(V::Codex, "PostCompact", E::AfterCompaction),
    // Gemini CLI.
    a(V::Gemini, "BeforeTool", E::PreToolUse),
    a(V::Gemini, "AfterTool", E::PostToolUse),
    n(
        V::Gemini,
        "BeforeAgent",
        E::UserPromptSubmit,
        "fires after the prompt is submitted, before planning",
    ),
    n(V::Gemini, "AfterAgent", E::Stop, "end of the agent's turn"),
    a(V::Gemini, "BeforeModel", E::BeforeLlmCall),
    a(V::Gemini, "AfterModel", E::AfterLlmCall),
    n(
        V::Gemini,
        "BeforeToolSelection",
        E::BeforeLlmCall,
        "runs before the model call that selects tools",
    ),
    a(V::Gemini, "SessionStart", E::SessionStart),
    a(V::Gemini, "SessionEnd", E::SessionEnd),
    n(
        V::Gemini,
        "PreCompress",
        E::PreCompact,
        "advisory in Gemini; a block is a warning there",
    ),
    a(V::Gemini, "Notification", E::Notification),
    // Copilot CLI.
    a(V::Copilot, "preToolUse", E::PreToolUse),
    a(V::Copilot, "postToolUse", E::PostToolUse),
    n(
        V::Copilot,
        "postToolUseFailure",
        E::PostToolUse,
        "post_tool_use fires for failures too, with tool_error",
    ),
    a(V::Copilot, "permissionRequest", E::PermissionRequest),
    a(V::Copilot, "userPromptSubmitted", E::UserPromptSubmit),
    n(
        V::Copilot,
        "agentStop",
        E::Stop,
        "the agent finished its response",
    ),
    n(
        V::Copilot,
        "subagentStart",
        E::OnAgentSwitch,
        "control moves to a sub-agent",
    ),
    a(V::Copilot, "subagentStop", E::SubagentStop),
    a(V::Copilot, "sessionStart", E::SessionStart),
    a(V::Copilot, "sessionEnd", E::SessionEnd),
    n(
        V::Copilot,
        "errorOccurred",
        E::OnError,
        "the run hit an error",
    ),
    a(V::Copilot, "preCompact", E::PreCompact),
    a(V::Copilot, "notification", E::Notification),
    // Cursor.
    a(V::Cursor, "preToolUse", E::PreToolUse),
    a(V::Cursor, "postToolUse", E::PostToolUse),
    n(
        V::Cursor,
        "postToolUseFailure",
        E::PostToolUse,
        "post_tool_use fires for failures too, with tool_error",
    ),
    n(
        V::Cursor,
        "beforeShellExecution",
        E::PreToolUse,
        "a pre-tool event for the shell tool",
    ),
    n(
        V::Cursor,
        "afterShellExecution",
        E::PostToolUse,
        "a post-tool event for the shell tool",
    ),
    n(
        V::Cursor,
        "beforeMCPExecution",
        E::PreToolUse,
        "a pre-tool event for MCP tools",
    ),
    n(
        V::Cursor,
        "afterMCPExecution",
        E::PostToolUse,
        "a post-tool event for MCP tools",
    ),
    n(
        V::Cursor,
        "beforeReadFile",
        E::PreToolUse,
        "a pre-tool event for file reads",
    ),
    n(
        V::Cursor,
        "afterFileEdit",
        E::PostToolUse,
        "a post-tool event for file edits",
    ),
    n(
        V::Cursor,
        "beforeSubmitPrompt",
        E::UserPromptSubmit,
        "no context can be added here in Cursor",
    ),
    n(
        V::Cursor,
        "afterAgentResponse",
        E::AfterLlmCall,
        "observes the model's reply",
    ),
    n(
        V::Cursor,
        "afterAgentThought",
        E::AfterLlmCall,
        "observes the model's reasoning",
    ),
    n(
        V::Cursor,
        "subagentStart",
        E::OnAgentSwitch,
        "control moves to a sub-agent",
    ),
    a(V::Cursor, "subagentStop", E::SubagentStop),
    a(V::Cursor, "sessionStart", E::SessionStart),
    a(V::Cursor, "sessionEnd", E::SessionEnd),
    a(V::Cursor, "preCompact", E::PreCompact),
    a(V::Cursor, "stop", E::Stop),
];

/// Resolves `name` in one vocabulary.
pub fn resolve_in(vocabulary: Vocabulary, name: &str) -> Option<EventId> {
    if vocabulary == Vocabulary::Native {
        return EventId::from_native(name);
    }
    ALIASES
        .iter()
        .find(|alias| alias.vocabulary == vocabulary && alias.name == name)
        .map(|alias| alias.event)
}

/// Resolves a name from any vocabulary: native names first, then every alias.
///
/// INVARIANT: a spelling never maps to two different events across vocabularies (tested), so
/// the answer does not depend on which vocabulary the caller had in mind.
pub fn resolve_event(name: &str) -> Option<EventId> {
    EventId::from_native(name).or_else(|| {
        ALIASES
            .iter()
            .find(|alias| alias.name == name)
            .map(|alias| alias.event)
    })
}

/// The aliases of one event, in table order.
pub fn aliases_of(event: EventId) -> impl Iterator<Item = &'static Alias> {
    ALIASES.iter().filter(move |alias| alias.event == event)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn every_alias_resolves_to_its_event() {
        for alias in ALIASES {
            assert_eq!(
                resolve_in(alias.vocabulary, alias.name),
                Some(alias.event),
                "{alias:?}"
            );
            assert_eq!(resolve_event(alias.name), Some(alias.event), "{alias:?}");
        }
    }

    #[test]
    fn a_spelling_never_means_two_events() {
        let mut seen: HashMap<&str, EventId> = HashMap::new();
        for event in EventId::ALL {
            seen.insert(event.name(), *event);
        }
        for alias in ALIASES {
            if let Some(previous) = seen.insert(alias.name, alias.event) {
                assert_eq!(previous, alias.event, "`{}` is ambiguous", alias.name);
            }
        }
    }

    #[test]
    fn no_alias_row_is_repeated_within_a_vocabulary() {
        let mut seen = std::collections::HashSet::new();
        for alias in ALIASES {
            assert!(
                seen.insert((alias.vocabulary, alias.name)),
                "duplicate {alias:?}"
            );
        }
    }

    #[test]
    fn every_meerkat_point_and_go_sdk_type_is_mapped() {
        for point in [
            "run_started",
            "pre_llm_request",
            "pre_tool_execution",
            "turn_boundary",
            "post_llm_response",
            "post_tool_execution",
            "run_completed",
            "run_failed",
        ] {
            assert!(resolve_in(Vocabulary::Meerkat, point).is_some(), "{point}");
        }
        for kind in [
            "PreToolUse",
            "PostToolUse",
            "OnStop",
            "PreCompact",
            "SubagentStop",
            "UserPromptSubmit",
        ] {
            assert!(resolve_in(Vocabulary::GoSdk, kind).is_some(), "{kind}");
        }
    }

    #[test]
    fn every_coding_agent_has_its_pre_tool_event() {
        for (vocabulary, name) in [
            (Vocabulary::Claude, "PreToolUse"),
            (Vocabulary::Codex, "PreToolUse"),
            (Vocabulary::Gemini, "BeforeTool"),
            (Vocabulary::Copilot, "preToolUse"),
            (Vocabulary::Cursor, "preToolUse"),
            (Vocabulary::Cursor, "beforeShellExecution"),
        ] {
            assert_eq!(resolve_in(vocabulary, name), Some(EventId::PreToolUse));
        }
    }

    #[test]
    fn unknown_names_do_not_resolve() {
        assert_eq!(resolve_event("pre_tool_usee"), None);
        assert_eq!(resolve_in(Vocabulary::Gemini, "PreToolUse"), None);
    }
}
