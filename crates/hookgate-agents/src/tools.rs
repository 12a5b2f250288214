//! Every agent's tool names and argument keys, mapped onto one [`ToolCall`].
//!
//! Policy is written once against [`ToolKind`], `command`, `paths`, `content` and `url`; this
//! module is the only place that knows `run_shell_command` is a shell, that Copilot's `edit`
//! says `new_str` where Claude's `Edit` says `new_string`, and that a Codex patch touches the
//! files named inside its body.

use hookgate_core::canonical::{PathOp, PathTarget, ToolCall, ToolKind};
use serde_json::{Map, Value};

use crate::dialect::Dialect;
use crate::patch;
use crate::shell_patch::{ShellPatches, argv_patches, may_carry_patch, shell_patches};

/// Copilot's built-in tool names: never read as `<server>-<tool>` MCP names.
const COPILOT_BUILTINS: &[&str] = &[
    "bash",
    "powershell",
    "view",
    "create",
    "edit",
    "glob",
    "grep",
    "task",
    "web_fetch",
    "web_search",
    "ask_user",
    "update_todo",
    "report_intent",
    "read_bash",
    "write_bash",
    "stop_bash",
    "list_bash",
    "apply_patch",
];

/// Splits an MCP tool name into `(server, tool)` by the naming rule of the dialect.
///
/// - `mcp__<server>__<tool>` (Claude, Codex, and Copilot/Cursor in Claude format): split at
///   the first `__` after the prefix (Claude normalises server names, so they hold no `__`;
///   plugin servers come out as `plugin_<plugin>_<server>`).
/// - Gemini `mcp_<server>_<tool>`: ambiguous when the server name holds `_`. The payload's
///   `mcp_context.server_name` is authoritative and is used by the caller when present;
///   otherwise split at the first `_` after the prefix, because tool names
///   (`create_issue`, `list_pull_requests`) hold underscores far more often than server names.
/// - Cursor `MCP:<tool>` (generic `preToolUse`): the tool only; the server is not named.
/// - Copilot camelCase `<server>-<tool>` for names that are not Copilot built-ins: split at
///   the last `-`, because server names (`github-mcp-server`) hold hyphens and tool names
///   (`get_issue`) use underscores.
fn mcp_split(dialect: Dialect, name: &str) -> Option<(Option<String>, String)> {
    if let Some(rest) = name.strip_prefix("mcp__") {
        return Some(match rest.split_once("__") {
            Some((server, tool)) => (Some(server.to_owned()), tool.to_owned()),
            None => (Some(rest.to_owned()), String::new()),
        });
    }
    if dialect == Dialect::Gemini
        && let Some(rest) = name.strip_prefix("mcp_")
    {
        return Some(match rest.split_once('_') {
            Some((server, tool)) => (Some(server.to_owned()), tool.to_owned()),
            None => (Some(rest.to_owned()), String::new()),
        });
    }
    if matches!(dialect, Dialect::Cursor | Dialect::CursorClaude)
        && let Some(rest) = name.strip_prefix("MCP:")
    {
        return Some((None, rest.trim().to_owned()));
    }
    if dialect == Dialect::CopilotCamel
        && !COPILOT_BUILTINS.contains(&name)
        && let Some((server, tool)) = name.rsplit_once('-')
        && !server.is_empty()
        && !tool.is_empty()
    {
        return Some((Some(server.to_owned()), tool.to_owned()));
    }
    None
}

/// A patch applied through the shell tool (Codex sends `apply_patch <<'EOF' … EOF`, `cd dir &&
/// apply_patch …` or `bash -lc "…"` as `Bash`/`exec_command`): its files become the call's
/// paths (relative to a `cd` target where there is one) and its added lines the content, so
/// the file-write policy judges them as it judges the `apply_patch` tool. When the whole line
/// is a patch and nothing else, the kind becomes [`ToolKind::Patch`]; the command line is kept
/// either way so the shell analysis still sees what runs.
fn shell_routed_patch(call: &mut ToolCall, input: &Map<String, Value>) {
    let Some(line) = call.command.as_deref() else {
        return;
    };
    // A patch that names no file touches no file: lines without a file marker are not parsed
    // (this keeps tree-sitter off the path of every ordinary shell call).
    if !may_carry_patch(line) {
        return;
    }
    let argv: Option<Vec<&str>> = match input.get("command").or_else(|| input.get("cmd")) {
        Some(Value::Array(words)) => words.iter().map(Value::as_str).collect(),
        _ => None,
    };
    let found: ShellPatches = match argv {
        Some(argv) => argv_patches(&argv),
        None => shell_patches(line),
    };
    if found.patches.is_empty() {
        return;
    }
    let mut added: Vec<String> = Vec::new();
    for found_patch in &found.patches {
        let summary = patch::parse_patch(&found_patch.body);
        for mut target in summary.paths {
            if let Some(dir) = &found_patch.workdir {
                target.path = under(dir, &target.path);
            }
            call.paths.push(target);
        }
        added.extend(summary.added);
    }
    call.content = (!added.is_empty()).then(|| added.join("\n"));
    // A line holding NUL, carriage return, vertical tab or form feed is read differently by
    // bash and by the grammar that found the patch (`\v` is a word character to bash, a blank
    // to tree-sitter): it stays a shell call, so the shell analysis — which refuses such
    // lines — decides (ask), with the patch's paths still judged. Found by the `judge` fuzz
    // target: `apply_patch <<'EOF'` with a `\v` in its file marker was no opinion.
    let unrepresentable = line.bytes().any(|b| matches!(b, 0 | 0x0b | 0x0c | b'\r'));
    if found.whole_line && !unrepresentable {
        call.kind = ToolKind::Patch;
    }
}

/// `path` as seen from inside `dir` (absolute paths stay as they are).
fn under(dir: &str, path: &str) -> String {
    if path.starts_with('/') || dir.is_empty() {
        path.to_owned()
    } else {
        format!("{}/{path}", dir.trim_end_matches('/'))
    }
}

/// The first string among `keys`.
fn first_str(input: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
}

/// Joins an argv array into one shell line, quoting what a shell would split or expand, so
/// the shell analyser sees the same words the tool will run.
fn shell_join(argv: &[Value]) -> Option<String> {
    let words: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
    if words.is_empty() {
        return None;
    }
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
            if plain {
                (*w).to_owned()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect();
    Some(quoted.join(" "))
}

/// The command line of a shell tool: `command` as a string or argv array, else `cmd`.
fn shell_command(input: &Map<String, Value>) -> Option<String> {
    match input.get("command") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(argv)) => shell_join(argv),
        _ => match input.get("cmd") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Array(argv)) => shell_join(argv),
            _ => None,
        },
    }
}

/// The text of a patch: `command` or `input` or `patch` as a string, or the string elements
/// of an argv array (`["apply_patch", "*** Begin Patch…"]`).
fn patch_body(input: &Map<String, Value>) -> String {
    for key in ["command", "input", "patch"] {
        match input.get(key) {
            Some(Value::String(s)) => return s.clone(),
            Some(Value::Array(parts)) => {
                let text: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
                return text.join("\n");
            }
            _ => {}
        }
    }
    String::new()
}

/// Path fields: `hookgate_core`'s one list.
const PATH_KEYS: &[&str] = hookgate_core::PATH_FIELDS;

fn path_target(input: &Map<String, Value>, keys: &[&str], op: PathOp) -> Vec<PathTarget> {
    first_str(input, keys)
        .filter(|p| !p.is_empty())
        .map(|path| vec![PathTarget { path, op }])
        .unwrap_or_default()
}

/// What an MCP tool does to files, by the words of its name (`write_file`, `edit_file`,
/// `move_file`, `deleteFile`, `create_directory`): `None` for a tool whose name says no
/// change (`read_file`, `search`, `create_issue` — whose arguments name no local path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum McpFileOp {
    Write,
    Delete,
    Move,
    Copy,
}

fn mcp_file_op(tool: &str) -> Option<McpFileOp> {
    // Words of the name: split at `_`, `-`, `.`, spaces and lower→upper case changes.
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in tool.chars() {
        if (!c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && prev_lower)) && !cur.is_empty()
        {
            words.push(std::mem::take(&mut cur));
        }
        if c.is_ascii_alphanumeric() {
            cur.push(c.to_ascii_lowercase());
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    words.push(cur);
    let any = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if any(&[
        "delete", "remove", "rm", "unlink", "rmdir", "trash", "erase",
    ]) {
        Some(McpFileOp::Delete)
    } else if any(&["move", "rename", "mv"]) {
        Some(McpFileOp::Move)
    } else if any(&["copy", "cp", "duplicate"]) {
        Some(McpFileOp::Copy)
    } else if any(&[
        "write",
        "edit",
        "create",
        "save",
        "append",
        "put",
        "patch",
        "overwrite",
        "truncate",
        "chmod",
        "touch",
        "mkdir",
        "modify",
        "replace",
        "insert",
        "upload",
    ]) {
        Some(McpFileOp::Write)
    } else {
        None
    }
}

/// Path-like arguments of MCP file tools: where the thing acted on is named, and where a
/// move or copy puts it.
const MCP_SOURCE_KEYS: &[&str] = &[
    "path",
    "file_path",
    "filepath",
    "filePath",
    "file",
    "filename",
    "fileName",
    "source",
    "src",
    "from",
    "old_path",
    "oldPath",
    "source_path",
    "sourcePath",
    "directory",
    "dir",
];
const MCP_DEST_KEYS: &[&str] = &[
    "destination",
    "dest",
    "target",
    "to",
    "new_path",
    "newPath",
    "destination_path",
    "destinationPath",
    "target_path",
    "targetPath",
];
const MCP_LIST_KEYS: &[&str] = &["paths", "files", "file_paths", "filePaths", "sources"];

/// The files an MCP file tool changes, read from its path-like arguments, so the guard
/// judges `mcp__filesystem__write_file {"path": ".claude/settings.json"}` as it judges the
/// agent's own Write tool.
fn mcp_paths(tool: &str, input: &Map<String, Value>) -> Vec<PathTarget> {
    let Some(op) = mcp_file_op(tool) else {
        return Vec::new();
    };
    let source_op = match op {
        McpFileOp::Write => PathOp::Write,
        McpFileOp::Delete => PathOp::Delete,
        McpFileOp::Move => PathOp::Move,
        McpFileOp::Copy => PathOp::Read,
    };
    let mut out: Vec<PathTarget> = Vec::new();
    let mut add = |path: &str, op: PathOp| {
        if !path.is_empty() && !out.iter().any(|t| t.path == path && t.op == op) {
            out.push(PathTarget {
                path: path.to_owned(),
                op,
            });
        }
    };
    for key in MCP_SOURCE_KEYS {
        if let Some(p) = input.get(*key).and_then(Value::as_str) {
            add(p, source_op);
        }
    }
    for key in MCP_LIST_KEYS {
        for p in input
            .get(*key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            add(p, source_op);
        }
    }
    for key in MCP_DEST_KEYS {
        if let Some(p) = input.get(*key).and_then(Value::as_str) {
            add(p, PathOp::Write);
        }
    }
    out
}

/// The `new_string`s of a MultiEdit / Cursor `afterFileEdit` `edits` array.
fn edits_content(input: &Map<String, Value>) -> Option<String> {
    let edits = input.get("edits")?.as_array()?;
    let parts: Vec<&str> = edits
        .iter()
        .filter_map(|e| {
            e.get("new_string")
                .or_else(|| e.get("new_str"))
                .and_then(Value::as_str)
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// The first `http(s)://` URL in free text (Gemini's `web_fetch` takes URLs inside `prompt`).
fn first_url(text: &str) -> Option<String> {
    text.split_whitespace()
        .find(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(|w| {
            w.trim_end_matches([')', ']', '>', ',', '.', ';', '"', '\''])
                .to_owned()
        })
}

/// Builds the canonical tool call from the agent's tool name and (decoded) arguments.
pub(crate) fn tool_call(dialect: Dialect, name: &str, input: Map<String, Value>) -> ToolCall {
    let mut call = ToolCall {
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
    if let Some((server, tool)) = mcp_split(dialect, name) {
        call.kind = ToolKind::Mcp;
        call.paths = mcp_paths(&tool, &input);
        if call.paths.iter().any(|p| p.op == PathOp::Write) {
            call.content = first_str(&input, &["content", "contents", "text", "new_text"]);
        }
        call.mcp_server = server;
        call.mcp_tool = Some(tool);
        call.input = input;
        return call;
    }
    call.kind = ToolKind::of_tool_name(name);
    match call.kind {
        ToolKind::Shell => {
            call.command = shell_command(&input);
            shell_routed_patch(&mut call, &input);
        }
        ToolKind::Write => {
            let op = if matches!(name, "Delete" | "delete_file") {
                PathOp::Delete
            } else {
                PathOp::Write
            };
            call.paths = path_target(&input, PATH_KEYS, op);
            call.content = first_str(&input, &["content", "file_text", "contents"]);
        }
        ToolKind::Edit => {
            // `str_replace_editor` multiplexes view/create/edit through its `command` field.
            let sub = input.get("command").and_then(Value::as_str).unwrap_or("");
            if name.starts_with("str_replace") && sub == "view" {
                call.kind = ToolKind::Read;
                call.paths = path_target(&input, PATH_KEYS, PathOp::Read);
            } else {
                if name.starts_with("str_replace") && sub == "create" {
                    call.kind = ToolKind::Write;
                }
                call.paths = path_target(&input, PATH_KEYS, PathOp::Write);
                call.content = first_str(
                    &input,
                    &[
                        "new_string",
                        "new_str",
                        "new_source",
                        "file_text",
                        "content",
                    ],
                )
                .or_else(|| edits_content(&input));
            }
        }
        ToolKind::Read => {
            call.paths = path_target(&input, &[PATH_KEYS, &["dir_path"]].concat(), PathOp::Read);
            for key in ["include", "paths", "file_paths"] {
                if let Some(list) = input.get(key).and_then(Value::as_array) {
                    call.paths
                        .extend(list.iter().filter_map(Value::as_str).map(|p| PathTarget {
                            path: p.to_owned(),
                            op: PathOp::Read,
                        }));
                }
            }
        }
        ToolKind::Search => {
            call.paths = path_target(&input, &["path", "dir_path"], PathOp::Read);
        }
        ToolKind::Fetch => {
            call.url = first_str(&input, &["url"]).or_else(|| {
                input
                    .get("prompt")
                    .and_then(Value::as_str)
                    .and_then(first_url)
            });
        }
        ToolKind::Patch => {
            let summary = patch::parse_patch(&patch_body(&input));
            call.paths = summary.paths;
            call.content = summary.added;
        }
        ToolKind::Subagent | ToolKind::Mcp | ToolKind::Other => {}
    }
    call.input = input;
    call
}
