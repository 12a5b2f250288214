//! A shell script the session wrote knows its own path (round 29): `cd "$(dirname "$0")/.."`
//! lands in the workspace, so a cleanup script deleting build outputs there passes when it
//! is written and when it runs, while one that climbs above the workspace asks — and a script
//! that is *sourced* keeps the calling shell's `$0` (unknown), so its relative deletions stay
//! asked. Through the binary, one session making the write and then the run, as an agent does.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::fmt::Write as _;

use serde_json::{Value, json};

mod common;

use common::{Sandbox, output_with_stdin, text};

/// `hookgate hook claude` on one call of session `s`; the decision from the audit record.
fn call(sandbox: &Sandbox, session: &str, tool: &str, input: &Value) -> String {
    let payload = json!({
        "session_id": session, "transcript_path": "/tmp/t.jsonl",
        "cwd": sandbox.work(), "hook_event_name": "PreToolUse",
        "permission_mode": "default", "tool_name": tool,
        "tool_input": input, "tool_use_id": "toolu_1",
    });
    let mut cmd = sandbox.command(&["hook", "claude"]);
    cmd.env("HOME", sandbox.path().join("userhome"));
    let out = output_with_stdin(&mut cmd, &serde_json::to_vec(&payload).unwrap());
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "hook {tool}: {}",
        text(&out.stderr)
    );
    let log = sandbox.log();
    log[0]["decision"].as_str().unwrap_or("none").to_owned()
}

#[test]
fn a_written_script_is_judged_from_its_own_directory() {
    const CLEAN: &str = "#!/usr/bin/env bash\nset -euo pipefail\ncd \"$(dirname \"$0\")/..\"\nrm -rf build dist .pytest_cache\n";
    const CLIMB: &str = "#!/usr/bin/env bash\ncd \"$(dirname \"$0\")/../..\"\nrm -rf ./*\n";
    let cases: &[(&str, &str, &str, bool)] = &[
        ("scripts/clean.sh", CLEAN, "./scripts/clean.sh", false),
        ("scripts/clean.sh", CLEAN, "bash scripts/clean.sh", false),
        ("scripts/climb.sh", CLIMB, "./scripts/climb.sh", true),
        ("scripts/clean.sh", CLEAN, "source scripts/clean.sh", true),
    ];
    let mut wrong = String::new();
    for (i, (file, body, run, flagged)) in cases.iter().enumerate() {
        let sandbox = Sandbox::new();
        std::fs::create_dir_all(sandbox.path().join("userhome")).unwrap();
        let session = format!("r29-{i}");
        let path = sandbox.work().join(file);
        let w = call(
            &sandbox,
            &session,
            "Write",
            &json!({"file_path": path, "content": body}),
        );
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, body).unwrap();
        let r = call(&sandbox, &session, "Bash", &json!({ "command": run }));
        let got = (w != "allow" && w != "none") || (r != "allow" && r != "none");
        if got != *flagged {
            let _ = writeln!(
                wrong,
                "{file} then {run}: write {w}, run {r} (want flagged={flagged})"
            );
        }
    }
    assert!(wrong.is_empty(), "{wrong}");
}
