//! The `snapshot` built-in through the engine, with real git repositories and real files:
//! docker-agent's rules (undo survives the stream end; list and reset; keep beyond history is
//! a no-op) plus hookgate's outcomes (never a block, never silent) and the `snapshot: true`
//! shorthand.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};

use hookgate_builtins::Environment;
use hookgate_core::{EventId, HookInput, Outcome, TraceResult};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, RuntimeSpec, merge, parse_text};
use hookgate_snapshot::testkit::{committed_repo, have_git};
use hookgate_snapshot::{CheckpointId, Repo};
use serde_json::{Value, json};

struct Fixture {
    _tmp: tempfile::TempDir,
    work: PathBuf,
    data: PathBuf,
}

fn fixture(repo: bool) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let data = tmp.path().join("data");
    if repo {
        committed_repo(&work, &[("a.txt", "original\n")]);
    } else {
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(work.join("a.txt"), "original\n").unwrap();
    }
    Fixture {
        _tmp: tmp,
        work,
        data,
    }
}

fn engine(yaml: &str, data: &Path) -> Engine {
    let layer = parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap();
    let env = Environment {
        data_dir: Some(data.to_path_buf()),
        ..Environment::default()
    };
    Engine::with_builtins(
        merge(vec![layer]).unwrap(),
        hookgate_builtins::registry_with(env),
    )
    .unwrap()
}

/// `snapshot` on every event it acts on.
const ALL_EVENTS: &str = "hooks:
  session_start: [{type: builtin, command: snapshot}]
  turn_start: [{type: builtin, command: snapshot}]
  pre_tool_use: [{type: builtin, command: snapshot}]
  post_tool_use: [{type: builtin, command: snapshot}]
  turn_end: [{type: builtin, command: snapshot}]
  session_end: [{type: builtin, command: snapshot}]
  stop: [{type: builtin, command: snapshot}]
";

async fn fire(engine: &Engine, event: EventId, dir: &Path, fields: Value) -> Outcome {
    let mut value = json!({"session_id": "sess-1", "cwd": dir.display().to_string()});
    if let (Value::Object(base), Value::Object(extra)) = (&mut value, fields) {
        base.extend(extra);
    }
    engine
        .dispatch(event, HookInput::from_value(value).unwrap())
        .await
}

fn failed(outcome: &Outcome) -> bool {
    outcome
        .trace
        .iter()
        .any(|t| matches!(t.result, TraceResult::Failed { .. }))
}

#[tokio::test]
async fn undo_survives_the_end_of_the_session_that_recorded_the_turn() {
    if !have_git() {
        return;
    }
    let f = fixture(true);
    let e = engine(ALL_EVENTS, &f.data);
    fire(
        &e,
        EventId::SessionStart,
        &f.work,
        json!({"source": "startup"}),
    )
    .await;
    fire(&e, EventId::TurnStart, &f.work, json!({})).await;
    std::fs::write(f.work.join("a.txt"), "agent\n").unwrap();
    std::fs::write(f.work.join("created.txt"), "new\n").unwrap();
    let end = fire(
        &e,
        EventId::TurnEnd,
        &f.work,
        json!({"reason": "completed"}),
    )
    .await;
    assert!(end.system_messages.is_empty() && !failed(&end), "{end:?}");
    fire(&e, EventId::SessionEnd, &f.work, json!({"reason": "exit"})).await;
    drop(e);
    let repo = Repo::open(&f.data, &f.work).unwrap();
    let listed = repo.list().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].session_id, "sess-1");
    assert_eq!(listed[0].files, vec!["a.txt", "created.txt"]);
    repo.undo_last(None).unwrap();
    assert_eq!(
        std::fs::read_to_string(f.work.join("a.txt")).unwrap(),
        "original\n"
    );
    assert!(!f.work.join("created.txt").exists());
}

#[tokio::test]
async fn a_tool_call_between_pre_and_post_tool_use_is_its_own_checkpoint() {
    if !have_git() {
        return;
    }
    let f = fixture(true);
    let e = engine(ALL_EVENTS, &f.data);
    let call = json!({"tool_name": "write_file", "tool_use_id": "call-7", "tool_input": {"path": "a.txt"}});
    let pre = fire(&e, EventId::PreToolUse, &f.work, call.clone()).await;
    assert!(pre.allowed() && pre.system_messages.is_empty(), "{pre:?}");
    std::fs::write(f.work.join("a.txt"), "tool\n").unwrap();
    fire(&e, EventId::PostToolUse, &f.work, call).await;
    let listed = Repo::open(&f.data, &f.work).unwrap().list().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].tool_name.as_deref(), Some("write_file"));
    assert_eq!(
        listed[0].span,
        hookgate_snapshot::Span::Tool {
            tool_use_id: "call-7".into()
        }
    );
}

#[tokio::test]
async fn list_and_reset_and_keep_beyond_history_through_the_builtin() {
    if !have_git() {
        return;
    }
    let f = fixture(true);
    let e = engine(ALL_EVENTS, &f.data);
    for n in 1..=3 {
        fire(&e, EventId::TurnStart, &f.work, json!({})).await;
        std::fs::write(f.work.join(format!("turn{n}.txt")), "x\n").unwrap();
        fire(
            &e,
            EventId::TurnEnd,
            &f.work,
            json!({"reason": "completed"}),
        )
        .await;
    }
    let repo = Repo::open(&f.data, &f.work).unwrap();
    assert_eq!(repo.list().unwrap().len(), 3);
    assert!(
        repo.reset(3, None).unwrap().checkpoints.is_empty(),
        "keep 3 of 3: no-op"
    );
    assert!(
        repo.reset(10, None).unwrap().checkpoints.is_empty(),
        "keep beyond history: no-op"
    );
    assert!(f.work.join("turn3.txt").exists());
    let reverted = repo.reset(1, None).unwrap();
    assert_eq!(reverted.checkpoints, vec![CheckpointId(3), CheckpointId(2)]);
    assert!(f.work.join("turn1.txt").exists());
    assert!(!f.work.join("turn2.txt").exists() && !f.work.join("turn3.txt").exists());
}

#[tokio::test]
async fn outside_a_git_work_tree_it_says_so_once_and_records_nothing() {
    if !have_git() {
        return;
    }
    let f = fixture(false);
    let e = engine(ALL_EVENTS, &f.data);
    let start = fire(
        &e,
        EventId::SessionStart,
        &f.work,
        json!({"source": "startup"}),
    )
    .await;
    assert_eq!(start.system_messages.len(), 1, "{start:?}");
    assert!(start.system_messages[0].contains("not inside a git work tree"));
    let turn = fire(&e, EventId::TurnStart, &f.work, json!({})).await;
    assert!(turn.system_messages.is_empty() && !failed(&turn));
    assert!(!f.data.exists(), "nothing was written");
}

#[tokio::test]
async fn a_snapshot_failure_warns_and_never_blocks_the_tool_call() {
    if !have_git() {
        return;
    }
    let f = fixture(true);
    let e = engine(ALL_EVENTS, &f.data);
    fire(&e, EventId::TurnStart, &f.work, json!({})).await;
    let index = Repo::open(&f.data, &f.work)
        .unwrap()
        .git_dir()
        .join("checkpoints.json");
    std::fs::write(&index, "{damaged").unwrap();
    let pre = fire(
        &e,
        EventId::PreToolUse,
        &f.work,
        json!({"tool_name": "shell", "tool_use_id": "c1", "tool_input": {"cmd": "ls"}}),
    )
    .await;
    assert!(pre.allowed(), "a snapshot failure must not block: {pre:?}");
    assert_eq!(pre.system_messages.len(), 1, "{pre:?}");
    assert!(pre.system_messages[0].contains("may not be undoable"));
}

#[tokio::test]
async fn on_an_event_it_does_not_act_on_it_fails_as_a_misconfiguration() {
    let f = fixture(false);
    let e = engine(ALL_EVENTS, &f.data);
    let stop = fire(&e, EventId::Stop, &f.work, json!({"stop_response": "done"})).await;
    assert!(failed(&stop), "{stop:?}");
}

#[test]
fn the_snapshot_shorthand_registers_the_four_events_once() {
    let f = fixture(false);
    // Hand-written on turn_start too: the same hook is loaded once.
    let e = engine(
        "snapshot: true\nhooks:\n  turn_start:\n    - type: builtin\n      command: snapshot\n",
        &f.data,
    );
    let mut events: Vec<EventId> = e
        .config()
        .entries
        .iter()
        .filter(|entry| matches!(&entry.runtime, RuntimeSpec::Builtin { name, .. } if name == "snapshot"))
        .map(|entry| entry.event)
        .collect();
    events.sort();
    let mut expected = hookgate_engine::config::SNAPSHOT_EVENTS.to_vec();
    expected.sort();
    assert_eq!(events, expected);
    let none = engine("snapshot: false\n", &f.data);
    assert!(none.config().entries.is_empty());
}
