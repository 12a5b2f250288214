//! Database locality through the real binary (`hookgate hook claude`): dropping or emptying a
//! local test database is ordinary work the hook lets through, the same command against a
//! remote host or a production-shaped database is denied, and a local database whose name
//! says neither is asked about (see `hookgate-shell/src/dbtarget.rs`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::process::Output;

use serde_json::Value;

mod common;

use common::{Sandbox, bash_payload, output_with_stdin};

/// Claude Code's answer: `deny`/`ask`/`allow`, or `none` (no opinion).
fn decision(out: &Output) -> String {
    if out.stdout.is_empty() {
        return if out.status.code() == Some(2) {
            "deny".into()
        } else {
            "none".into()
        };
    }
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap_or("none")
        .to_owned()
}

fn hook(sandbox: &Sandbox, command: &str) -> String {
    let payload = bash_payload("db-locality", &sandbox.work(), command);
    let mut cmd = sandbox.command(&["hook", "claude"]);
    cmd.env("HOME", sandbox.path().join("userhome"));
    decision(&output_with_stdin(
        &mut cmd,
        &serde_json::to_vec(&payload).unwrap(),
    ))
}

#[test]
fn local_test_databases_pass_and_remote_or_production_ones_do_not() {
    let sandbox = Sandbox::new();
    let cases: &[(&str, &[&str])] = &[
        ("dropdb -h localhost app_test", &["none", "allow"]),
        (
            "psql -h 127.0.0.1 -U postgres -c 'DROP DATABASE IF EXISTS app_test'",
            &["none", "allow"],
        ),
        ("RAILS_ENV=test bin/rails db:reset", &["none", "allow"]),
        ("dropdb -h db.internal app_test", &["deny"]),
        (
            "psql -h localhost -d app_prod -c 'TRUNCATE users'",
            &["deny"],
        ),
        ("redis-cli -h cache.internal FLUSHALL", &["deny"]),
        ("RAILS_ENV=production bin/rails db:drop", &["deny"]),
        ("redis-cli -h localhost FLUSHALL", &["ask"]),
        ("dropdb -h localhost app", &["ask"]),
    ];
    let mut wrong = Vec::new();
    for (command, expected) in cases {
        let got = hook(&sandbox, command);
        if !expected.contains(&got.as_str()) {
            wrong.push(format!("{command:?}: expected {expected:?}, got {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
