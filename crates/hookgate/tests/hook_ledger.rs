//! `hookgate fire` records every hook run in the ledger; `hookgate log --hooks` shows them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::process::Command;

use serde_json::Value;

#[test]
fn fire_records_each_hook_run_and_log_hooks_shows_it() {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    let config = root.path().join("hooks.yaml");
    std::fs::write(
        &config,
        "hooks:\n  pre_tool_use:\n    - id: no-rm\n      type: command\n      command: \"echo nope >&2; exit 2\"\n    - id: after\n      type: builtin\n      command: noop\n      priority: 200\n",
    )
    .unwrap();
    let input = root.path().join("input.json");
    std::fs::write(
        &input,
        r#"{"session_id":"ledger-1","cwd":"/","tool_name":"shell","tool_input":{"cmd":"rm x"}}"#,
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hookgate"))
            .args(args)
            .current_dir(root.path())
            .env("HOOKGATE_HOME", &home)
            .env("HOOKGATE_CONFIG_DIR", root.path().join("config"))
            .env_remove("HOOKGATE_STORE")
            .output()
            .unwrap()
    };
    let fired = run(&[
        "fire",
        "pre_tool_use",
        "--config",
        config.to_str().unwrap(),
        "--input",
        input.to_str().unwrap(),
    ]);
    assert_eq!(fired.status.code(), Some(2), "{fired:?}");
    let log = run(&["log", "--hooks", "--json"]);
    assert!(log.status.success(), "{log:?}");
    let runs: Vec<Value> = serde_json::from_slice(&log.stdout).unwrap();
    let by_id = |id: &str| runs.iter().find(|r| r["hook_id"] == id).cloned();
    let denied = by_id("no-rm").expect("the denying hook is in the ledger");
    assert_eq!(denied["result"], "deny");
    assert_eq!(denied["session"], "ledger-1");
    assert_eq!(denied["event"], "pre_tool_use");
    assert_eq!(denied["reason"], "nope");
    let skipped = by_id("after").expect("the skipped hook is in the ledger too");
    assert_eq!(skipped["result"], "skipped");
}

#[test]
fn run_records_every_hook_run_in_the_same_ledger() {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    let work = root.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let config = root.path().join("hooks.yaml");
    std::fs::write(
        &config,
        "hooks:\n  session_start:\n    - id: hello\n      type: command\n      command: 'echo hi'\n  pre_tool_use:\n    - id: no-writes\n      type: command\n      matcher: write_file\n      command: 'echo no writes >&2; exit 2'\n",
    )
    .unwrap();
    let script = root.path().join("s.json");
    std::fs::write(
        &script,
        r#"[{"tool": "write_file", "input": {"path": "x", "content": "y"}}, {"text": "ok"}]"#,
    )
    .unwrap();
    let hookgate = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hookgate"))
            .args(args)
            .current_dir(&work)
            .env("HOOKGATE_HOME", &home)
            .env("HOOKGATE_CONFIG_DIR", root.path().join("config"))
            .env_remove("HOOKGATE_STORE")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let ran = hookgate(&[
        "run",
        "write x",
        "--model",
        &format!("script:{}", script.display()),
        "--config",
        config.to_str().unwrap(),
        "--approval",
        "yolo",
        "--json",
    ]);
    assert_eq!(ran.status.code(), Some(0), "{ran:?}");
    let session = String::from_utf8_lossy(&ran.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|e| e["type"] == "finished")
        .and_then(|e| e["session_id"].as_str().map(str::to_owned))
        .unwrap();
    let log = hookgate(&["log", "--hooks", "--json"]);
    assert!(log.status.success(), "{log:?}");
    let runs: Vec<Value> = serde_json::from_slice(&log.stdout).unwrap();
    let by_id = |id: &str| runs.iter().find(|r| r["hook_id"] == id).cloned();
    let hello = by_id("hello").expect("the session_start hook is in the ledger");
    assert_eq!(hello["session"], session.as_str());
    assert_eq!(hello["event"], "session_start");
    let denied = by_id("no-writes").expect("the denying pre_tool_use hook too");
    assert_eq!(denied["result"], "deny");
    assert_eq!(denied["reason"], "no writes");
    assert_eq!(denied["event"], "pre_tool_use");
}
