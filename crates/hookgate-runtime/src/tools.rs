//! The runtime's tools, under docker-agent's names and input shapes (`shell`, `read_file`,
//! `write_file`, `edit_file`, `list_directory`), so a matcher written for docker-agent
//! (`shell|edit_file`) and a guard reading `tool_input.cmd` or `tool_input.path` work unchanged.
//!
//! Inputs are parsed into typed structs that reject unknown fields: a call the tool cannot
//! understand fails visibly (an error result the model sees) instead of running with a field
//! silently dropped. Tools do no policy of their own: every call has already been through the
//! hook lanes and the approval mode before it reaches [`execute`].

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use hookgate_llm::ToolSpec;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// `shell`: runs a command line with `/bin/sh -c`.
pub const SHELL: &str = "shell";
/// `read_file`: a file's text.
pub const READ_FILE: &str = "read_file";
/// `write_file`: creates or replaces a file.
pub const WRITE_FILE: &str = "write_file";
/// `edit_file`: exact text replacements in a file.
pub const EDIT_FILE: &str = "edit_file";
/// `list_directory`: a directory's entries.
pub const LIST_DIRECTORY: &str = "list_directory";
/// `transfer_task`: hands a task to a sub-agent (offered only when sub-agents are configured).
pub const TRANSFER_TASK: &str = "transfer_task";

/// True for tools that cannot change anything: `readonly` mode runs only these, and `ask`
/// mode runs them unasked (docker-agent's read-only hint).
pub fn is_read_only(name: &str) -> bool {
    matches!(name, READ_FILE | LIST_DIRECTORY)
}

/// The tool category reported in `tool_category`.
pub fn category(name: &str) -> &'static str {
    match name {
        SHELL => "shell",
        TRANSFER_TASK => "transfer",
        _ => "filesystem",
    }
}

/// The specs offered to the model. `transfer_task` is added by the loop when sub-agents exist.
pub fn specs() -> Vec<ToolSpec> {
    let spec = |name: &str, description: &str, schema: Value| ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: schema,
    };
    vec![
        spec(
            SHELL,
            "Run a shell command in the working directory; returns stdout and stderr.",
            json!({"type": "object", "required": ["cmd"], "properties": {
                "cmd": {"type": "string"}, "cwd": {"type": "string"},
                "timeout": {"type": "integer", "description": "seconds"}}}),
        ),
        spec(
            READ_FILE,
            "Read a text file, whole or a range of lines.",
            json!({"type": "object", "required": ["path"], "properties": {
                "path": {"type": "string"},
                "line": {"type": "integer", "minimum": 1, "description": "first line to read (1-based; default 1)"},
                "limit": {"type": "integer", "minimum": 1, "description": "at most this many lines (default: to the end)"}}}),
        ),
        spec(
            WRITE_FILE,
            "Create or overwrite a file with the given content.",
            json!({"type": "object", "required": ["path", "content"], "properties": {
                "path": {"type": "string"}, "content": {"type": "string"}}}),
        ),
        spec(
            EDIT_FILE,
            "Replace exact text in a file; each oldText must occur exactly once.",
            json!({"type": "object", "required": ["path", "edits"], "properties": {
                "path": {"type": "string"},
                "edits": {"type": "array", "items": {"type": "object", "required": ["oldText", "newText"],
                    "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}}}}}}),
        ),
        spec(
            LIST_DIRECTORY,
            "List a directory's entries (directories end with /).",
            json!({"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}}}),
        ),
    ]
}

/// The spec of `transfer_task`, naming the sub-agents it can reach.
pub fn transfer_spec(agents: &[(String, String)]) -> ToolSpec {
    let names: Vec<&str> = agents.iter().map(|(n, _)| n.as_str()).collect();
    let described: Vec<String> = agents
        .iter()
        .map(|(name, description)| format!("{name}: {description}"))
        .collect();
    ToolSpec {
        name: TRANSFER_TASK.to_owned(),
        description: format!(
            "Hand a task to a sub-agent and get its final answer. Agents: {}",
            described.join("; ")
        ),
        input_schema: json!({"type": "object", "required": ["agent", "task"], "properties": {
            "agent": {"type": "string", "enum": names}, "task": {"type": "string"}}}),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShellInput {
    #[serde(alias = "command")]
    cmd: String,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    timeout: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PathInput {
    path: String,
}

/// `read_file`: docker-agent's ranged read (`line`, 1-based, and `limit` lines), which is how a
/// model reads on after a result was cut (see [`crate::limit`]).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadInput {
    path: String,
    #[serde(default)]
    line: Option<u64>,
    #[serde(default)]
    limit: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WriteInput {
    path: String,
    content: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    #[serde(rename = "oldText", alias = "old_text")]
    old_text: String,
    #[serde(rename = "newText", alias = "new_text")]
    new_text: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EditInput {
    path: String,
    edits: Vec<Edit>,
}

/// The `transfer_task` input.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransferInput {
    /// The sub-agent's name.
    pub agent: String,
    /// The task handed over.
    pub task: String,
}

/// What a tool produced: text for the model, and whether it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The result text.
    pub text: String,
    /// True when the tool failed (the model is told so).
    pub is_error: bool,
}

impl ToolOutput {
    fn ok(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: false,
        }
    }

    /// A failed call.
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: true,
        }
    }
}

/// Parses a tool's input into its typed shape.
///
/// # Errors
/// A message naming the tool and what was wrong, for the model.
pub fn parse<T: serde::de::DeserializeOwned>(
    name: &str,
    input: &Map<String, Value>,
) -> Result<T, String> {
    serde_json::from_value(Value::Object(input.clone()))
        .map_err(|e| format!("invalid input for `{name}`: {e}"))
}

fn resolve(cwd: &Path, path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        p.to_owned()
    } else {
        cwd.join(p)
    }
}

/// The default time a shell command may run.
pub const SHELL_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs one built-in tool (not `transfer_task`, which the loop runs) in `cwd`.
///
/// Cancellation: dropping the returned future kills a running shell command's whole process
/// group, so Ctrl+C never leaves a command behind.
pub async fn execute(name: &str, input: &Map<String, Value>, cwd: &Path) -> ToolOutput {
    let result = match name {
        SHELL => match parse::<ShellInput>(name, input) {
            Ok(i) => Ok(shell(&i, cwd).await),
            Err(e) => Err(e),
        },
        READ_FILE => match parse::<ReadInput>(name, input) {
            Ok(i) => match tokio::fs::read_to_string(resolve(cwd, &i.path)).await {
                Ok(text) => lines(&text, i.line, i.limit)
                    .map(|part| ToolOutput::ok(part.to_owned()))
                    .map_err(|e| format!("cannot read {}: {e}", i.path)),
                Err(e) => Err(format!("cannot read {}: {e}", i.path)),
            },
            Err(e) => Err(e),
        },
        WRITE_FILE => match parse::<WriteInput>(name, input) {
            Ok(i) => write(&resolve(cwd, &i.path), &i.content)
                .await
                .map(|()| ToolOutput::ok(format!("wrote {} bytes to {}", i.content.len(), i.path)))
                .map_err(|e| format!("cannot write {}: {e}", i.path)),
            Err(e) => Err(e),
        },
        EDIT_FILE => match parse::<EditInput>(name, input) {
            Ok(i) => edit(&resolve(cwd, &i.path), &i).await,
            Err(e) => Err(e),
        },
        LIST_DIRECTORY => match parse::<PathInput>(name, input) {
            Ok(i) => list(&resolve(cwd, &i.path))
                .await
                .map_err(|e| format!("cannot list {}: {e}", i.path)),
            Err(e) => Err(e),
        },
        _ => Err(format!("unknown tool `{name}`")),
    };
    result.unwrap_or_else(ToolOutput::error)
}

/// Lines `line..line + limit` of `text` (1-based; line endings kept), the whole text without
/// either. A start past the end is an error naming the length, so a model reading on learns
/// it is done instead of getting an empty answer it may retry.
fn lines(text: &str, line: Option<u64>, limit: Option<u64>) -> Result<&str, String> {
    if line.is_none() && limit.is_none() {
        return Ok(text);
    }
    let first = line.unwrap_or(1);
    if first == 0 {
        return Err("`line` counts from 1".to_owned());
    }
    if limit == Some(0) {
        return Err("`limit` must be at least 1".to_owned());
    }
    let skip = usize::try_from(first - 1).unwrap_or(usize::MAX);
    let start: usize = text.split_inclusive('\n').take(skip).map(str::len).sum();
    if skip > 0 && start >= text.len() {
        return Err(format!(
            "line {first} is past the end (the file has {} lines)",
            text.lines().count()
        ));
    }
    let rest = &text[start..];
    let end = match limit.and_then(|n| usize::try_from(n).ok()) {
        Some(n) => rest
            .match_indices('\n')
            .nth(n - 1)
            .map_or(rest.len(), |(i, _)| i + 1),
        None => rest.len(),
    };
    Ok(&rest[..end])
}

async fn write(path: &Path, content: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent).await?;
    }
    tokio::fs::write(path, content).await
}

async fn edit(path: &Path, input: &EditInput) -> Result<ToolOutput, String> {
    let mut text = tokio::fs::read_to_string(path)
        .await
        .map_err(|e| format!("cannot read {}: {e}", input.path))?;
    for (n, e) in input.edits.iter().enumerate() {
        let count = text.matches(e.old_text.as_str()).count();
        if count != 1 || e.old_text.is_empty() {
            // All or nothing: a partial edit would leave the file in a state nobody asked for.
            return Err(format!(
                "edit {}: oldText occurs {count} times in {} (must be exactly once); nothing was changed",
                n + 1,
                input.path
            ));
        }
        text = text.replacen(e.old_text.as_str(), &e.new_text, 1);
    }
    tokio::fs::write(path, text)
        .await
        .map_err(|e| format!("cannot write {}: {e}", input.path))?;
    Ok(ToolOutput::ok(format!(
        "applied {} edit(s) to {}",
        input.edits.len(),
        input.path
    )))
}

async fn list(path: &Path) -> std::io::Result<ToolOutput> {
    let mut dir = tokio::fs::read_dir(path).await?;
    let mut names = Vec::new();
    while let Some(entry) = dir.next_entry().await? {
        let mut name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().await.is_ok_and(|t| t.is_dir()) {
            name.push('/');
        }
        names.push(name);
    }
    names.sort();
    Ok(ToolOutput::ok(names.join("\n")))
}

/// Kills a command's process group when dropped (cancellation, timeout, or normal end).
struct GroupKill(Option<u32>);

impl Drop for GroupKill {
    fn drop(&mut self) {
        if let Some(pid) = self
            .0
            .and_then(|p| i32::try_from(p).ok())
            .and_then(rustix::process::Pid::from_raw)
        {
            // The group may already be gone; nothing else to do then.
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

async fn shell(input: &ShellInput, cwd: &Path) -> ToolOutput {
    let dir = input
        .cwd
        .as_deref()
        .map_or_else(|| cwd.to_owned(), |d| resolve(cwd, d));
    let timeout = input.timeout.map_or(SHELL_TIMEOUT, Duration::from_secs);
    let mut command = tokio::process::Command::new("/bin/sh");
    command
        .arg("-c")
        .arg(&input.cmd)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return ToolOutput::error(format!("cannot start /bin/sh: {e}")),
    };
    let _group = GroupKill(child.id());
    match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Err(_) => ToolOutput::error(format!(
            "the command did not finish within {}s and was killed",
            timeout.as_secs()
        )),
        Ok(Err(e)) => ToolOutput::error(format!("the command failed to run: {e}")),
        Ok(Ok(output)) => {
            let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&output.stderr));
            if output.status.success() {
                ToolOutput::ok(text)
            } else {
                let code = output
                    .status
                    .code()
                    .map_or_else(|| "a signal".to_owned(), |c| c.to_string());
                let _ = write!(text, "\n(exit status {code})");
                ToolOutput::error(text)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[tokio::test]
    async fn file_tools_take_docker_agents_input_shapes() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path();
        let w = execute(
            WRITE_FILE,
            &input(json!({"path": "a/b.txt", "content": "one two"})),
            cwd,
        )
        .await;
        assert!(!w.is_error, "{w:?}");
        let e = execute(
            EDIT_FILE,
            &input(json!({"path": "a/b.txt", "edits": [{"oldText": "two", "newText": "2"}]})),
            cwd,
        )
        .await;
        assert!(!e.is_error, "{e:?}");
        let r = execute(READ_FILE, &input(json!({"path": "a/b.txt"})), cwd).await;
        assert_eq!(r.text, "one 2");
        let l = execute(LIST_DIRECTORY, &input(json!({"path": "."})), cwd).await;
        assert_eq!(l.text, "a/");
    }

    #[tokio::test]
    async fn read_file_reads_a_range_of_lines() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), "one\ntwo\nthree\nfour").unwrap();
        let read = |v: Value| {
            let path = dir.path().to_owned();
            async move { execute(READ_FILE, &input(v), &path).await }
        };
        assert_eq!(
            read(json!({"path": "f", "line": 2, "limit": 2})).await.text,
            "two\nthree\n"
        );
        assert_eq!(
            read(json!({"path": "f", "line": 3})).await.text,
            "three\nfour"
        );
        assert_eq!(read(json!({"path": "f", "limit": 1})).await.text, "one\n");
        assert_eq!(
            read(json!({"path": "f", "line": 4, "limit": 10}))
                .await
                .text,
            "four"
        );
        let past = read(json!({"path": "f", "line": 5})).await;
        assert!(
            past.is_error && past.text.contains("has 4 lines"),
            "{past:?}"
        );
        assert!(read(json!({"path": "f", "line": 0})).await.is_error);
        assert!(read(json!({"path": "f", "limit": 0})).await.is_error);
    }

    #[tokio::test]
    async fn an_edit_whose_text_is_not_unique_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), "x x").unwrap();
        let e = execute(
            EDIT_FILE,
            &input(json!({"path": "f", "edits": [{"oldText": "x", "newText": "y"}]})),
            dir.path(),
        )
        .await;
        assert!(e.is_error);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("f")).unwrap(),
            "x x"
        );
    }

    #[tokio::test]
    async fn unknown_input_fields_fail_the_call_instead_of_being_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let r = execute(
            SHELL,
            &input(json!({"cmd": "true", "sudo": true})),
            dir.path(),
        )
        .await;
        assert!(r.is_error);
        assert!(r.text.contains("sudo"), "{}", r.text);
    }

    #[tokio::test]
    async fn a_failing_shell_command_is_an_error_result_with_its_status() {
        let dir = tempfile::tempdir().unwrap();
        let r = execute(
            SHELL,
            &input(json!({"cmd": "echo out; echo err >&2; exit 3"})),
            dir.path(),
        )
        .await;
        assert!(r.is_error);
        assert!(
            r.text.contains("out") && r.text.contains("err") && r.text.contains("exit status 3"),
            "{}",
            r.text
        );
    }
}
