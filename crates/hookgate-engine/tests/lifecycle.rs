//! Lifecycle events reach subscribers: `hook_failed` in particular, from real failing
//! processes, for foreground and background hooks alike (Meerkat's `HookFailed` agent event).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed assumption should fail the test"
)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookgate_core::{EventId, HookInput, LifecycleEvent};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use serde_json::json;

#[tokio::test]
async fn hook_failed_reaches_subscribers_for_foreground_and_background_hooks() {
    let yaml = r#"
hooks:
  post_tool_use:
    - id: fails-in-front
      type: command
      command: "echo broken >&2; exit 1"
    - id: fails-behind
      type: command
      command: "exit 3"
      mode: background
    - id: fine
      type: command
      command: "true"
"#;
    let config = merge(vec![
        parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap(),
    ])
    .unwrap();
    let engine = Engine::new(config).unwrap();
    let seen: Arc<Mutex<Vec<LifecycleEvent>>> = Arc::default();
    let sink = Arc::clone(&seen);
    engine.subscribe(Arc::new(move |event: &LifecycleEvent| {
        sink.lock().unwrap().push(event.clone());
    }));
    let input = HookInput::from_value(json!({
        "session_id": "s", "cwd": "/", "tool_name": "shell", "tool_input": {"cmd": "ls"},
        "tool_response": "ok"
    }))
    .unwrap();
    engine.dispatch(EventId::PostToolUse, input).await;
    assert_eq!(engine.drain_background(Duration::from_secs(10)).await, 0);

    let seen = seen.lock().unwrap();
    let failed: Vec<(&str, &str)> = seen
        .iter()
        .filter_map(|e| match e {
            LifecycleEvent::HookFailed {
                hook_id,
                event: EventId::PostToolUse,
                reason,
                ..
            } => Some((hook_id.as_str(), reason.as_str())),
            _ => None,
        })
        .collect();
    assert!(
        failed.iter().any(|(id, reason)| *id == "fails-in-front"
            && reason.contains("status 1")
            && reason.contains("broken")),
        "{seen:?}"
    );
    assert!(
        failed
            .iter()
            .any(|(id, reason)| *id == "fails-behind" && reason.contains("status 3")),
        "{seen:?}"
    );
    assert!(!failed.iter().any(|(id, _)| *id == "fine"), "{seen:?}");
    assert!(
        seen.iter().any(|e| matches!(e, LifecycleEvent::HookCompleted { hook_id, .. } if hook_id.as_str() == "fine")),
        "{seen:?}"
    );
}
