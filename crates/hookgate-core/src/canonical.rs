//! The canonical view of a coding agent's call, shared by the dialect parsers (which produce
//! it), the policy and invariants (which judge it) and the audit store (which records it).
//!
//! Every agent names the same things differently (`Bash`, `run_shell_command`, `bash`,
//! `Shell`; `file_path`, `path`, a patch body). Policy must be written once, so it sees only
//! this normalised form; the agent-specific spelling stays available in `name` and `input`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::catalog::EventId;

/// The coding agents hookgate guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// Anthropic Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
    /// Google Gemini CLI.
    Gemini,
    /// GitHub Copilot CLI.
    Copilot,
    /// Cursor.
    Cursor,
}

impl AgentKind {
    /// Every agent.
    pub const ALL: &'static [AgentKind] = &[
        Self::Claude,
        Self::Codex,
        Self::Gemini,
        Self::Copilot,
        Self::Cursor,
    ];

    /// The agent's command-line name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
            Self::Copilot => "copilot",
            Self::Cursor => "cursor",
        }
    }

    /// Parses a command-line name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.as_str() == name)
    }
}

/// What kind of tool a call is, whatever the agent calls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Runs a shell command line (`command`).
    Shell,
    /// Creates or overwrites a file.
    Write,
    /// Edits part of a file.
    Edit,
    /// Reads a file or lists a directory.
    Read,
    /// Searches (glob, grep).
    Search,
    /// Fetches a URL or searches the web.
    Fetch,
    /// Starts a sub-agent.
    Subagent,
    /// Calls an MCP tool.
    Mcp,
    /// Applies a patch (Codex `apply_patch`): several file operations at once.
    Patch,
    /// Anything else (todo lists, questions, plan mode, …).
    Other,
}

impl ToolKind {
    /// The kind of a tool by its (non-MCP) name, across every agent and docker-agent's own
    /// tools. This table is the one owner of that fact: the dialect parsers, the built-ins and
    /// policy test cases all ask it, so a shell tool can never be a shell to one and an unknown
    /// tool to another.
    pub fn of_tool_name(name: &str) -> Self {
        match name {
            // Claude, Codex's canonical name for every shell tool, Gemini, Copilot, Cursor,
            // docker-agent, and Codex's raw shell tool names in case a build reports them
            // uncanonicalised.
            "Bash" | "PowerShell" | "run_shell_command" | "bash" | "powershell" | "Shell"
            | "shell" | "shell_command" | "exec_command" | "local_shell" | "unified_exec"
            | "terminal" => Self::Shell,
            "Write" | "write_file" | "create" | "Delete" | "delete_file" => Self::Write,
            "Edit"
            | "MultiEdit"
            | "NotebookEdit"
            | "replace"
            | "edit"
            | "edit_file"
            | "str_replace"
            | "str_replace_editor"
            | "str_replace_based_edit_tool" => Self::Edit,
            "Read" | "read_file" | "read_many_files" | "view" | "list_directory" | "LS"
            | "NotebookRead" => Self::Read,
            "Glob" | "Grep" | "glob" | "grep" | "grep_search" | "search_file_content" | "rg" => {
                Self::Search
            }
            "WebFetch" | "web_fetch" | "WebSearch" | "google_web_search" | "web_search" => {
                Self::Fetch
            }
            "Agent" | "Task" | "task" | "spawn_agent" => Self::Subagent,
            "apply_patch" => Self::Patch,
            _ => Self::Other,
        }
    }
}

/// Input fields that name the path a file tool acts on, across agents (the first present
/// wins): one list for the dialect parsers and the path built-ins.
pub const PATH_FIELDS: &[&str] = &[
    "file_path",
    "path",
    "filePath",
    "filepath",
    "filename",
    "notebook_path",
    "absolute_path",
    "target_file",
    "dir_path",
];

/// How a call touches a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathOp {
    /// Reads it.
    Read,
    /// Creates or modifies it.
    Write,
    /// Deletes it.
    Delete,
    /// Moves it away (the destination is a separate `Write`).
    Move,
}

/// One path a call touches, as the agent wrote it (resolution is the judge's job).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathTarget {
    /// The path as given (absolute or relative to the call's `cwd`).
    pub path: String,
    /// What the call does to it.
    pub op: PathOp,
}

/// A tool call in canonical form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The agent's own tool name (`Bash`, `run_shell_command`, `mcp__github__create_issue`).
    pub name: String,
    /// What kind of tool it is.
    pub kind: ToolKind,
    /// The shell command line, for shell tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Paths touched (file tools, every file of a patch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<PathTarget>,
    /// Text written (Write content, Edit new text, patch additions), for content checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The URL, for fetch tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The MCP server, for MCP tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_server: Option<String>,
    /// The MCP tool within its server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_tool: Option<String>,
    /// The arguments exactly as the agent sent them (decoded if they came as a JSON string).
    pub input: Map<String, Value>,
}

/// One agent call in canonical form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CanonicalCall {
    /// The agent whose dialect the payload is in (which may differ from the one named on the
    /// command line: Copilot and Cursor also run `.claude/settings.json` hooks).
    pub agent: AgentKind,
    /// The catalog event.
    pub event: EventId,
    /// The event name the agent used (`PreToolUse`, `BeforeTool`, `preToolUse`, …).
    pub native_event: String,
    /// The agent's session id (or conversation id), empty if it sent none.
    pub session_id: String,
    /// The working directory of the call (Cursor: the first workspace root).
    pub cwd: String,
    /// The tool call, for tool events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolCall>,
    /// The user's prompt, for prompt events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The tool's result, for post-tool events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_response: Option<Value>,
    /// Who will be asked when the answer is `ask`, as far as the payload (or the agent's
    /// environment) tells; `None` when it does not say, which is treated as "someone asks".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<Approval>,
    /// Whether the tool reported success, for post-tool events, as the agent's own result
    /// format tells it (`None`: it does not say). Read by the dialect parser, so the judges
    /// never parse an agent's wire format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_succeeded: Option<bool>,
    /// The text a post-tool result shows (a shell's stdout, Gemini's `llmContent`, Copilot's
    /// `textResultForLlm`, a bare string), extracted by the dialect parser for the same
    /// reason as `tool_succeeded`: the judges read facts (the URL `gh pr create` printed),
    /// never an agent's wire format or its JSON re-serialised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_output: Option<String>,
}

/// The agent's permission mode for a call, reduced to what the guard needs: whether an `ask`
/// reaches a human.
///
/// Invariant protected: an `ask` is only ever sent where [`Approval::asks_for`] is true;
/// elsewhere the guard answers with its ask-fallback (deny by default) and says why, because
/// an agent in bypass/yolo mode runs an asked call unasked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    /// The mode as the agent spells it (`bypassPermissions`, `acceptEdits`, `never`, `yolo`,
    /// `allow-all`), for reasons and the audit record.
    pub native: String,
    /// Which calls a human is still asked about in this mode.
    pub asks: AskScope,
}

/// Which calls still reach a human in a permission mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AskScope {
    /// Every asked call is shown to the user (the default modes).
    All,
    /// File edits are auto-accepted; other calls are still asked (Claude's `acceptEdits`).
    AllButEdits,
    /// Nothing is asked (bypass, yolo, approval `never`, allow-all).
    Nothing,
}

impl Approval {
    /// Whether an `ask` about a call of `kind` will reach a human in this mode.
    pub fn asks_for(&self, kind: Option<ToolKind>) -> bool {
        match self.asks {
            AskScope::All => true,
            AskScope::Nothing => false,
            AskScope::AllButEdits => !matches!(
                kind,
                Some(ToolKind::Write | ToolKind::Edit | ToolKind::Patch)
            ),
        }
    }
}
