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

use serde_json::json;

mod common;

use common::Sandbox;

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
        let w = sandbox.session_call(
            &session,
            "Write",
            &json!({"file_path": path, "content": body}),
        );
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, body).unwrap();
        let r = sandbox.session_call(&session, "Bash", &json!({ "command": run }));
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
