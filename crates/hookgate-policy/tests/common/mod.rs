//! Calls built the way the agents send them, and a context under /work/proj for user u.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::PathBuf;

use hookgate_core::{AgentKind, CanonicalCall, Decision, EventId};
use hookgate_policy::{Ctx, Evaluation, Policy, SessionState};

/// The pre-tool call an agent makes for a tool, by the hook's own parser (`hookgate-agents`).
#[allow(
    clippy::needless_pass_by_value,
    reason = "callers build the input inline"
)]
pub fn call_for_tool(
    agent: AgentKind,
    cwd: &str,
    name: &str,
    input: Map<String, Value>,
) -> CanonicalCall {
    hookgate_agents::call_for_tool(agent, cwd, name, &input).unwrap()
}
use serde_json::{Map, Value, json};

pub const WS: &str = "/work/proj";
pub const HOME: &str = "/home/u";

pub fn ctx() -> Ctx {
    let mut c = Ctx::new(WS, Some(PathBuf::from(HOME)));
    c.follow_symlinks = false;
    c
}

#[allow(clippy::needless_pass_by_value, reason = "json! temporaries")]
fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

/// Claude Code `Bash` with `command`.
pub fn bash(cmd: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Claude,
        WS,
        "Bash",
        obj(json!({"command": cmd, "description": "x"})),
    )
}

/// Gemini CLI `run_shell_command`.
pub fn gemini_shell(cmd: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Gemini,
        WS,
        "run_shell_command",
        obj(json!({"command": cmd})),
    )
}

/// Claude Code `Write` with `file_path` + `content`.
pub fn write(path: &str, content: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Claude,
        WS,
        "Write",
        obj(json!({"file_path": path, "content": content})),
    )
}

/// Gemini `write_file`.
pub fn gemini_write(path: &str, content: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Gemini,
        WS,
        "write_file",
        obj(json!({"file_path": path, "content": content})),
    )
}

/// Claude Code `Edit` with `old_string` / `new_string`.
pub fn edit(path: &str, old: &str, new: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Claude,
        WS,
        "Edit",
        obj(json!({"file_path": path, "old_string": old, "new_string": new})),
    )
}

/// Claude Code `Read`.
pub fn read(path: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Claude,
        WS,
        "Read",
        obj(json!({"file_path": path})),
    )
}

/// Codex `apply_patch` with the patch in `command`, as captured from the real CLI.
pub fn patch(body: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Codex,
        WS,
        "apply_patch",
        obj(json!({"command": body})),
    )
}

/// Claude Code `WebFetch`.
pub fn fetch(url: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Claude,
        WS,
        "WebFetch",
        obj(json!({"url": url, "prompt": "x"})),
    )
}

pub fn post_bash(cmd: &str, response: Value) -> CanonicalCall {
    let mut c = bash(cmd);
    c.event = EventId::PostToolUse;
    c.native_event = "PostToolUse".into();
    c.tool_succeeded = hookgate_agents::tool_succeeded("PostToolUse", &response);
    c.tool_output = hookgate_agents::output_text(&response);
    c.tool_response = Some(response);
    c
}

pub fn eval(call: &CanonicalCall) -> Evaluation {
    Policy::builtin_default().evaluate(call, &ctx(), &SessionState::default())
}

pub fn eval_with(p: &Policy, call: &CanonicalCall, ctx: &Ctx, state: &SessionState) -> Evaluation {
    p.evaluate(call, ctx, state)
}

pub fn fired(e: &Evaluation, id: &str) -> bool {
    e.matched.iter().any(|m| m.id == id)
}

pub fn decision(e: &Evaluation) -> Option<Decision> {
    e.decision
}

/// Runs a table of Bash command lines in `ctx`'s workspace with `policy`, each in a fresh
/// session: `(command, decision, id that must be among the matches or "")`, reporting every
/// wrong line at once.
#[track_caller]
pub fn check_table(policy: &Policy, ctx: &Ctx, table: &[(&str, Option<Decision>, &str)]) {
    let mut wrong = Vec::new();
    for (cmd, want, by) in table {
        let mut call = bash(cmd);
        call.cwd = ctx.workspace.to_string_lossy().into_owned();
        let e = policy.evaluate(&call, ctx, &SessionState::default());
        let by_ok = by.is_empty() || e.matched.iter().any(|m| m.id == *by);
        if e.decision != *want || !by_ok {
            wrong.push(format!(
                "{cmd:?}: want {want:?} by {by:?}, got {:?} ({:?})",
                e.decision, e.reason
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// What one invariant must say about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// It fires with deny, and the call is denied.
    Deny,
    /// It fires with ask, and the call is not allowed.
    Ask,
    /// It does not fire.
    Quiet,
}

/// Checks one invariant over a table of cases (label, call, wanted answer) with the
/// built-in policy, reporting every failing line at once.
#[track_caller]
pub fn check_invariant(id: &str, ctx: &Ctx, cases: &[(&str, CanonicalCall, Want)]) {
    use std::fmt::Write as _;
    let policy = Policy::builtin_default();
    let mut failures = String::new();
    for (label, call, want) in cases {
        let e = policy.evaluate(call, ctx, &SessionState::default());
        let got = match e.matched.iter().find(|m| m.id == id).map(|m| m.effect) {
            Some(hookgate_policy::Effect::Deny) => Want::Deny,
            Some(hookgate_policy::Effect::Ask) => Want::Ask,
            Some(_) | None => Want::Quiet,
        };
        let decided = match want {
            Want::Deny => e.decision == Some(Decision::Deny),
            Want::Ask => e.decision.is_some(),
            Want::Quiet => true,
        };
        if got != *want || !decided {
            let _ = writeln!(
                failures,
                "{label}: want {want:?}, got {got:?} (decision {:?}; {:?}; {:?})",
                e.decision,
                e.matched
                    .iter()
                    .map(|m| format!("{}={:?}", m.id, m.effect))
                    .collect::<Vec<_>>(),
                e.reason
            );
        }
    }
    assert!(failures.is_empty(), "\n{failures}");
}

/// Where the guard finds the binary the agent configs point at, in the self-protection tables.
pub const PROTECTED_BIN: &str = "/opt/hg/bin/hookgate";

/// The context the guard builds for `/work/proj` with `.claude/`, `.codex/` and a
/// `.hookgate/`: the protected set it discovers (hookgate's data and config dirs, the
/// project's `.hookgate/`, the binary, the agent configs that exist) and `PATH`.
pub fn protected_ctx() -> Ctx {
    let mut c = ctx();
    c.protected_paths = [
        PROTECTED_BIN,
        "/data/hg",
        "/home/u/.config/hookgate",
        "/work/proj/.hookgate",
        "/work/proj/.claude",
        "/work/proj/.claude/settings.json",
        "/work/proj/.codex",
        "/work/proj/.codex/hooks.json",
        "/home/u/.claude",
        "/home/u/.codex",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    c.search_path = ["/usr/local/bin", "/opt/hg/bin", "/usr/bin", "/bin"]
        .iter()
        .map(PathBuf::from)
        .collect();
    c
}

/// Writes `text` to `rel` under the workspace (directories created): a file the case needs
/// on disk before the command is judged.
pub fn put(ctx: &Ctx, rel: &str, text: &str) {
    let p = ctx.workspace.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A workspace `proj` (`.claude/settings.json`, `src/main.rs`) and a home (`~/.ssh`) on disk,
/// with the context the hook builds for it: the project's agent settings directory protected
/// when present, symlinks followed, a plain search path. Keep the directory alive as long as
/// the context is used.
pub fn disk_workspace() -> (tempfile::TempDir, Ctx) {
    let root = tempfile::tempdir().unwrap();
    let ws = root.path().join("proj");
    let home = root.path().join("home");
    for d in [ws.join(".claude"), ws.join("src"), home.join(".ssh")] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(ws.join(".claude/settings.json"), "{}").unwrap();
    std::fs::write(ws.join("src/main.rs"), "fn main() {}").unwrap();
    let mut ctx = Ctx::new(&ws, Some(home));
    ctx.protected_if_present.push(ws.join(".claude"));
    ctx.follow_symlinks = true;
    ctx.search_path = vec!["/usr/bin".into(), "/bin".into()];
    (root, ctx)
}

/// One step of a session: `("W", path, content)` a file tool's write, `("B", command, "")` a
/// shell call.
pub type Step<'a> = (&'a str, &'a str, &'a str);

/// Runs `steps` as one session in a disk workspace — a Write applied and observed, a shell
/// call judged and observed when not objected to — and returns the decision (and reason) on
/// the last step. (`round24_later.rs` keeps its own: it judges through `judge_in_session`,
/// where an asked call is remembered as approved.)
pub fn session(steps: &[Step<'_>]) -> (Option<Decision>, Option<String>) {
    let (_root, ctx) = disk_workspace();
    let policy = Policy::builtin_default();
    let mut state = SessionState::default();
    let mut last = (None, None);
    for (kind, a, b) in steps {
        let mut call = if *kind == "W" {
            let path = ctx.workspace.join(a);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, b).unwrap();
            write(&path.to_string_lossy(), b)
        } else {
            bash(a)
        };
        call.cwd = ctx.workspace.to_string_lossy().into_owned();
        let e = policy.evaluate(&call, &ctx, &state);
        last = (e.decision, e.reason.clone());
        if e.decision.is_none() {
            policy.observe(&call, &ctx, &mut state);
        }
    }
    last
}

/// Writes `file` (relative to a fresh disk workspace) on disk and through the policy's
/// observation of a `Write` call, then judges `command` in the workspace: a script the
/// session wrote, then ran. Returns the decision and reason.
pub fn judge_after_write(
    file: &str,
    content: &str,
    command: &str,
) -> (Option<Decision>, Option<String>) {
    let (_root, ctx) = disk_workspace();
    let policy = Policy::builtin_default();
    let path = ctx.workspace.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, content).unwrap();
    let mut state = SessionState::default();
    let mut w = write(&path.to_string_lossy(), content);
    w.cwd = ctx.workspace.to_string_lossy().into_owned();
    policy.observe(&w, &ctx, &mut state);
    let mut call = bash(command);
    call.cwd = ctx.workspace.to_string_lossy().into_owned();
    let e = policy.evaluate(&call, &ctx, &state);
    (e.decision, e.reason)
}
