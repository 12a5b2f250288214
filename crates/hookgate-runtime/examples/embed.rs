//! Embedding hookgate in your own agent: an engine with an in-process Rust guard, a scripted
//! model, and the reference loop. `cargo run -p hookgate-runtime --example embed`
#![allow(
    clippy::expect_used,
    reason = "an example: failing loudly is the point"
)]

use std::path::{Component, Path};
use std::sync::Arc;

use hookgate_core::{Decision, EventId, HookInput, HookResponse};
use hookgate_engine::{Engine, HookEntry, HooksConfig, RuntimeSpec};
use hookgate_llm::ScriptModel;
use hookgate_runtime::{ApprovalMode, RunConfig, RunEvent, Runtime, Session, Start};

fn main() {
    // One guard, written in Rust: no writes outside `notes/`.
    let mut config = HooksConfig::default();
    let runtime = RuntimeSpec::InProcess {
        handler: "notes-only".into(),
    };
    let mut guard = HookEntry::new("notes-only", EventId::ToolGuard, runtime);
    guard.matcher = Some("write_file|edit_file".into());
    config.entries.push(guard);
    let engine = Engine::new(config).expect("a valid config");
    engine.register_in_process(
        "notes-only",
        Arc::new(|input: HookInput| {
            Box::pin(async move {
                let path = input
                    .tool_input
                    .as_ref()
                    .and_then(|i| i.get("path")?.as_str().map(str::to_owned));
                // Judge the parsed path: relative, only plain components, first one `notes`.
                let inside = path.as_deref().map(Path::new).is_some_and(|p| {
                    p.components().all(|c| matches!(c, Component::Normal(_)))
                        && p.starts_with("notes")
                });
                Ok(HookResponse {
                    decision: (!inside).then_some(Decision::Deny),
                    reason: (!inside).then(|| format!("writes go under notes/, not {path:?}")),
                    ..HookResponse::default()
                })
            })
        }),
    );
    // The model: two writes, then an answer (the JSON script format of mock_llm.py).
    let script = r#"[{"tools": [{"tool": "write_file", "input": {"path": "notes/a.md", "content": "ok"}},
                                {"tool": "write_file", "input": {"path": "/etc/motd", "content": "no"}}]},
                     {"text": "one note written, one write refused"}]"#;
    let model = ScriptModel::from_json("inline", script).expect("a valid script");
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut run_config = RunConfig::new(dir.path().to_owned());
    run_config.approval = ApprovalMode::Yolo;
    let agent = Runtime::new(engine, Arc::new(model), run_config).with_observer(Arc::new(
        |e: &RunEvent| {
            if let RunEvent::Approval {
                name,
                decision,
                source,
                reason,
                ..
            } = e
            {
                println!(
                    "{name}: {} ({source}) {}",
                    decision.as_str(),
                    reason.as_deref().unwrap_or("")
                );
            }
        },
    ));
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    let report = tokio.block_on(agent.run(
        &mut Session::new("embed-1"),
        Some("take notes".into()),
        Start::Startup,
    ));
    println!(
        "{} — {}",
        report.end.kind(),
        report.final_text.unwrap_or_default()
    );
    assert!(dir.path().join("notes/a.md").exists());
}
