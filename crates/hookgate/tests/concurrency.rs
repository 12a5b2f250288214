//! Many hook processes at once against one audit store: nothing lost, nothing "locked".
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use common::Sandbox;

const WORKERS: usize = 8;
const CALLS: usize = 500;

fn payload(worker: usize, call: usize) -> Vec<u8> {
    // Alternate an allowed and a denied command so both paths write concurrently.
    let command = if call.is_multiple_of(2) {
        format!("echo w{worker}c{call}")
    } else {
        format!("git push --force origin main # w{worker}c{call}")
    };
    serde_json::to_vec(&serde_json::json!({
        "session_id": "shared-session", "transcript_path": "/t", "cwd": "/tmp",
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": format!("toolu_{worker}_{call}")
    }))
    .unwrap()
}

#[test]
fn eight_hook_processes_times_five_hundred_calls_lose_no_record() {
    let sandbox = Sandbox::new();
    std::thread::scope(|scope| {
        for worker in 0..WORKERS {
            let sandbox = &sandbox;
            scope.spawn(move || {
                for call in 0..CALLS {
                    let out = sandbox.hook("claude", &payload(worker, call), &[]);
                    assert_eq!(out.status.code(), Some(0));
                    assert!(
                        out.stderr.is_empty(),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    assert_eq!(
                        stdout.contains("\"deny\""),
                        call % 2 == 1,
                        "w{worker}c{call}: {stdout}"
                    );
                }
            });
        }
    });
    let stats = sandbox.json(&["stats", "--json"]);
    assert_eq!(stats["total"], WORKERS * CALLS, "{stats:#}");
    assert_eq!(
        stats["by_decision"]["deny"],
        WORKERS * CALLS / 2,
        "{stats:#}"
    );
    assert_eq!(
        stats["by_decision"]["none"],
        WORKERS * CALLS / 2,
        "{stats:#}"
    );
    assert!(
        stats["by_decision"].get("error").is_none(),
        "no call failed: {stats:#}"
    );
    let log = sandbox.json(&[
        "log",
        "--json",
        "--all",
        "--limit",
        "10000",
        "--session",
        "shared-session",
    ]);
    let records: Vec<serde_json::Value> = serde_json::from_value(log).unwrap();
    let mut ids: Vec<&str> = records.iter().map(|r| r["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), WORKERS * CALLS, "every record is there, once");
}
