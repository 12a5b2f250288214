//! At the start of a session the agent is told, in one line of context, what guards it:
//! the policy, the project config's trust and where decisions are recorded. Through the binary.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn hook(agent: &str, payload: &Value, root: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .args(["hook", agent])
        .current_dir(root)
        .env("HOOKGATE_HOME", root.join("store"))
        .env("HOOKGATE_CONFIG_DIR", root.join("cfg"))
        .env_remove("HOOKGATE_STORE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn session_start(event: &str, cwd: &Path) -> Value {
    json!({"session_id": "s-1", "transcript_path": "", "cwd": cwd, "hook_event_name": event, "source": "startup"})
}

/// The first line of the context `agent`'s SessionStart answer carries.
fn session_line(agent: &str, proj: &Path, root: &Path) -> String {
    let (code, out) = hook(agent, &session_start("SessionStart", proj), root);
    assert_eq!(code, Some(0));
    let reply: Value = serde_json::from_str(&out).unwrap();
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_else(|| panic!("no context: {out}"));
    context.lines().next().unwrap().to_owned()
}

fn project() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("proj/.git")).unwrap();
    std::fs::create_dir_all(root.join("cfg")).unwrap();
    (dir, root)
}

#[test]
fn session_start_context_names_policy_trust_and_store_in_one_line() {
    let (_dir, root) = project();
    let proj = root.join("proj");
    std::fs::write(root.join("cfg/policy.yaml"), "mode: monitor\n").unwrap();
    let line = session_line("claude", &proj, &root);
    assert!(
        line.starts_with("hookgate: guarding this session — "),
        "{line}"
    );
    let policy = root.join("cfg/policy.yaml");
    assert!(
        line.contains(&format!(
            "policy: monitor (reports, never blocks), from {}",
            policy.display()
        )),
        "{line}"
    );
    assert!(line.contains("project config: none"), "{line}");
    let store = root.join("store/audit.db");
    assert!(
        line.contains(&format!("audit: {}", store.display())),
        "{line}"
    );
}

#[test]
fn session_start_line_reports_an_untrusted_project_config() {
    let (_dir, root) = project();
    let proj = root.join("proj");
    std::fs::create_dir_all(proj.join(".hookgate")).unwrap();
    std::fs::write(
        proj.join(".hookgate/policy.yaml"),
        "protected_branches: [dev]\n",
    )
    .unwrap();
    let line = session_line("gemini", &proj, &root);
    assert!(line.contains("policy: enforce, from "), "{line}");
    assert!(
        line.contains(&format!("project config: {} not trusted", proj.display())),
        "{line}"
    );
}

#[test]
fn tool_calls_carry_no_session_line() {
    let (_dir, root) = project();
    let proj = root.join("proj");
    let payload = json!({
        "session_id": "s-1", "transcript_path": "", "cwd": proj, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "permission_mode": "default"
    });
    let (code, out) = hook("claude", &payload, &root);
    assert_eq!(code, Some(0));
    assert!(out.is_empty(), "an allowed call stays silent: {out}");
}
