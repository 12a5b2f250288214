//! Codex `apply_patch` sent through the shell tool: every form Codex itself accepts (and the
//! lines a real shell would run it from) surfaces the patch's files and added text.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use hookgate_agents::parse;
use hookgate_core::canonical::{AgentKind, PathOp, PathTarget, ToolCall, ToolKind};
use serde_json::{Value, json};

const BODY: &str = "*** Begin Patch\n*** Add File: .hookgate/policy.yaml\n+mode: monitor\n*** Update File: src/a.rs\n@@\n-old\n+new\n*** Delete File: .env\n*** End Patch\n";

#[allow(
    clippy::needless_pass_by_value,
    reason = "callers build the value with json! inline"
)]
fn codex_shell(command: Value) -> ToolCall {
    let payload = json!({
        "session_id": "s", "turn_id": "t", "cwd": "/home/dev/e2e/proj",
        "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "bypassPermissions",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_1",
    });
    parse(AgentKind::Codex, &serde_json::to_vec(&payload).unwrap())
        .unwrap()
        .call
        .tool
        .unwrap()
}

fn paths(call: &ToolCall) -> Vec<(&str, PathOp)> {
    call.paths.iter().map(|p| (p.path.as_str(), p.op)).collect()
}

fn heredoc(prefix: &str, body: &str) -> String {
    format!("{prefix}apply_patch <<'EOF'\n{body}EOF\n")
}

#[test]
fn a_heredoc_patch_through_the_shell_is_a_patch_with_its_files() {
    let line = heredoc("", BODY);
    let call = codex_shell(json!(line));
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(
        call.command.as_deref(),
        Some(line.as_str()),
        "the shell line is kept"
    );
    assert_eq!(
        paths(&call),
        [
            (".hookgate/policy.yaml", PathOp::Write),
            ("src/a.rs", PathOp::Write),
            (".env", PathOp::Delete)
        ]
    );
    assert_eq!(call.content.as_deref(), Some("mode: monitor\nnew"));
}

/// A line bash and the grammar read differently (a carriage return, vertical tab or form feed
/// anywhere in it) stays a shell call, so the shell analysis that refuses it decides; its
/// patch's paths are still surfaced. (Found by the `judge` fuzz target.)
#[test]
fn a_patch_line_with_bytes_bash_reads_differently_stays_a_shell_call() {
    for odd in ['\u{b}', '\u{c}', '\r'] {
        let line = heredoc(
            "",
            &format!(
                "*** Begin Patch\n*** Update File: src/a.rs{odd}\n@@\n-x\n+y\n*** End Patch\n"
            ),
        );
        let call = codex_shell(json!(line));
        assert_eq!(call.kind, ToolKind::Shell, "{odd:?}");
        assert!(
            !call.paths.is_empty(),
            "{odd:?}: the patch's paths are still judged"
        );
    }
    let call = codex_shell(json!(heredoc("", BODY)));
    assert_eq!(call.kind, ToolKind::Patch);
}

#[test]
fn applypatch_spelling_is_the_same_tool() {
    let call = codex_shell(json!(format!("applypatch <<'EOF'\n{BODY}EOF")));
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(call.paths.len(), 3);
}

#[test]
fn cd_before_a_patch_makes_its_paths_relative_to_that_directory() {
    let call = codex_shell(json!(heredoc("cd sub && ", BODY)));
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(
        paths(&call),
        [
            ("sub/.hookgate/policy.yaml", PathOp::Write),
            ("sub/src/a.rs", PathOp::Write),
            ("sub/.env", PathOp::Delete)
        ]
    );
    let call = codex_shell(json!(heredoc("cd '/home/dev' && ", BODY)));
    assert_eq!(call.paths[0].path, "/home/dev/.hookgate/policy.yaml");
}

#[test]
fn a_patch_inside_bash_lc_is_found() {
    let script = heredoc(
        "",
        "*** Begin Patch\n*** Add File: /root/.bashrc\n+export X=1\n*** End Patch\n",
    );
    let quoted = format!("'{}'", script.replace('\'', r"'\''"));
    let call = codex_shell(json!(format!("bash -lc {quoted}")));
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(paths(&call), [("/root/.bashrc", PathOp::Write)]);
    let dq = format!("bash -lc \"{}\"", script.replace('"', "\\\""));
    let call = codex_shell(json!(dq));
    assert_eq!(paths(&call), [("/root/.bashrc", PathOp::Write)]);
}

#[test]
fn an_argv_array_uses_codexs_own_argv_forms() {
    let call = codex_shell(json!(["apply_patch", BODY]));
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(call.paths.len(), 3);
    let call = codex_shell(json!(["bash", "-lc", heredoc("cd d && ", BODY)]));
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(
        call.paths[2],
        PathTarget {
            path: "d/.env".into(),
            op: PathOp::Delete
        }
    );
}

#[test]
fn a_patch_inside_a_longer_line_surfaces_its_files_but_stays_a_shell_call() {
    let line = format!("echo start; {}echo done", heredoc("", BODY));
    let call = codex_shell(json!(line));
    assert_eq!(call.kind, ToolKind::Shell, "other commands run too");
    assert_eq!(call.paths.len(), 3);
    let line = heredoc("true && ", BODY);
    let call = codex_shell(json!(line));
    assert_eq!(call.kind, ToolKind::Shell);
    assert_eq!(call.paths.len(), 3);
}

#[test]
fn a_patch_as_a_quoted_argument_or_here_string_is_read() {
    let call = codex_shell(json!(format!("apply_patch '{BODY}'")));
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(call.paths.len(), 3);
    let call = codex_shell(json!(format!("apply_patch <<< '{BODY}'")));
    assert_eq!(call.paths.len(), 3);
}

#[test]
fn patch_markers_fed_to_another_command_are_data() {
    for line in [
        format!("cat <<'EOF' > notes.md\n{BODY}EOF\n"),
        format!("grep -n '*** Add File: x' <<'EOF'\n{BODY}EOF\n"),
        format!("echo '{BODY}'"),
    ] {
        let call = codex_shell(json!(line));
        assert_eq!(call.kind, ToolKind::Shell, "{line}");
        assert!(call.paths.is_empty(), "{line}");
    }
}

#[test]
fn a_patch_body_computed_at_run_time_names_no_literal_file() {
    let call = codex_shell(json!("apply_patch \"$PATCH\"\n*** Add File: x\n"));
    assert!(call.paths.iter().all(|p| p.path != "x"));
}

#[test]
fn a_dash_heredoc_strips_leading_tabs_as_bash_does() {
    let body = "\t*** Begin Patch\n\t*** Add File: t.txt\n\t+x\n\t*** End Patch\n";
    let call = codex_shell(json!(format!("apply_patch <<-'EOF'\n{body}\tEOF\n")));
    assert_eq!(paths(&call), [("t.txt", PathOp::Write)]);
}

fn captured(file: &str) -> ToolCall {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shell_patch")
        .join(file);
    parse(AgentKind::Codex, &std::fs::read(path).unwrap())
        .unwrap()
        .call
        .tool
        .unwrap()
}

/// Captured from Codex 0.169.0 (`exec_command` with `cd sub2 && apply_patch <<'EOF' …`):
/// Codex wrote `sub2/sub/new.txt`, so the path is relative to the `cd` target.
#[test]
fn captured_codex_cd_patch_names_the_file_codex_wrote() {
    let call = captured("codex-0.169.0-cd-apply_patch.json");
    assert_eq!(call.name, "Bash");
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(paths(&call), [("sub2/sub/new.txt", PathOp::Write)]);
    assert_eq!(call.content.as_deref(), Some("hello"));
}

#[test]
fn captured_codex_bash_lc_patch_names_its_file() {
    let call = captured("codex-0.169.0-bash-lc-apply_patch.json");
    assert_eq!(call.kind, ToolKind::Patch);
    assert_eq!(paths(&call), [("sub/b.txt", PathOp::Write)]);
}
