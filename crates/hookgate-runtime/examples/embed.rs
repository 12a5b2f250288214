//! Embedding hookgate in your own agent: an engine with an in-process Rust guard, a scripted
//! model and the reference loop. `cargo run -p hookgate-runtime --example embed`
#![allow(
    clippy::expect_used,
    reason = "an example: failing loudly is the point"
)]

use std::path::{Component, Path};
use std::sync::Arc;

use hookgate_core::{Decision, EventId, HookInput, HookResponse};
use hookgate_engine::{Engine, HookEntry, HooksConfig, RuntimeSpec};
use hookgate_runtime::{ApprovalMode, RunConfig, RunEvent, Runtime, Session, Start};

/// The guard, in Rust: writes only under `notes/`, judged on the parsed path (plain components).
fn notes_only(input: &HookInput) -> HookResponse {
    let path = input
        .tool_input
        .as_ref()
        .and_then(|i| i.get("path")?.as_str());
    let inside = path.map(Path::new).is_some_and(|p| {
        p.starts_with("notes") && p.components().all(|c| matches!(c, Component::Normal(_)))
    });
    let reason = (!inside).then(|| format!("writes go under notes/, not {path:?}"));
    HookResponse {
        decision: reason.as_ref().map(|_| Decision::Deny),
        reason,
        ..Default::default()
    }
}

#[tokio::main(flavor = "current_thread")]
pub async fn main() {
    let handler = RuntimeSpec::InProcess {
        handler: "notes-only".into(),
    };
    let mut guard = HookEntry::new("notes-only", EventId::ToolGuard, handler);
    guard.matcher = Some("write_file|edit_file".into());
    let mut config = HooksConfig::default();
    config.entries.push(guard);
    let engine = Engine::new(config).expect("a valid config");
    let guard = |input: HookInput| Box::pin(async move { Ok(notes_only(&input)) }) as _;
    engine.register_in_process("notes-only", Arc::new(guard));
    // The model: two writes at once, then an answer (mock_llm.py's JSON script format).
    let script = r#"[{"tools": [{"tool": "write_file", "input": {"path": "notes/a.md", "content": "ok"}},
                                {"tool": "write_file", "input": {"path": "../outside.md", "content": "no"}}]},
                     {"text": "one note written, one write refused"}]"#;
    let model = hookgate_llm::ScriptModel::from_json("inline", script).expect("a valid script");
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut run = RunConfig::new(dir.path().join("work"));
    run.approval = ApprovalMode::Yolo;
    // The timeline as JSON lines, as `hookgate run --json` prints it.
    let print = |e: &RunEvent| println!("{}", serde_json::to_string(e).unwrap_or_default());
    let agent = Runtime::new(engine, Arc::new(model), run).with_observer(Arc::new(print));
    let (mut session, prompt) = (Session::new("embed-1"), Some("take notes".to_owned()));
    let report = agent.run(&mut session, prompt, Start::Startup).await;
    println!("{} — {:?}", report.end.kind(), report.final_text);
    assert!(dir.path().join("work/notes/a.md").exists() && !dir.path().join("outside.md").exists());
}
