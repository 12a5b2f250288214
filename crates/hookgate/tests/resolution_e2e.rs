//! The shell analyzer's resolution layer through the real binary (issues 7 and 8): a target
//! spelled through brace expansion, a variable assigned on the line, a loop, a function, a
//! `printf` substitution, a runner wrapper or a clustered SQL flag is the target the hook
//! judges, so self-protection denies what it would deny spelled out — and benign lines with
//! the same shapes stay allowed.
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
    let payload = bash_payload("resolution", &sandbox.work(), command);
    let mut cmd = sandbox.command(&["hook", "claude"]);
    cmd.env("HOME", sandbox.path().join("userhome"));
    decision(&output_with_stdin(
        &mut cmd,
        &serde_json::to_vec(&payload).unwrap(),
    ))
}

#[test]
fn self_protection_denies_targets_the_line_spells_indirectly() {
    let sandbox = Sandbox::new();
    let mut wrong = Vec::new();
    for command in [
        "mv .claude{,.bak}",
        "rm -rf .c{l,}aude",
        "f=.claude/settings.json; echo '{}' > $f",
        "d=.claude; rm -rf \"$d\"",
        "X=.claude; bash -c \"rm -rf $X\"",
        "bash -c 'd=.claude; rm -rf $d'",
        "for d in .claude .codex; do mv \"$d\" \"$d.bak\"; done",
        "f(){ rm -rf \"$1\"; }; f .claude",
        "sh -c 'rm -rf \"$0\"' .claude",
        "shopt -s expand_aliases\nalias r=\"rm -rf\"\nr .claude",
        "echo {} > `printf .claude`/settings.json",
        "npx rimraf .claude",
        "uv run -- rm -rf .claude",
    ] {
        let got = hook(&sandbox, command);
        if got != "deny" {
            wrong.push(format!("{command:?}: {got}"));
        }
    }
    assert!(wrong.is_empty(), "not denied:\n{}", wrong.join("\n"));
}

#[test]
fn resolved_danger_is_denied_and_benign_look_alikes_are_not() {
    let sandbox = Sandbox::new();
    for command in [
        "psql -tAc 'DROP DATABASE prod'",
        "mysql -h db.internal -e'drop database x'",
    ] {
        assert_eq!(hook(&sandbox, command), "deny", "{command:?}");
    }
    for command in [
        "d=build; rm -rf \"$d\"",
        "echo \"{a,b}\"",
        "uv run pytest",
        "npx prettier --write .",
        "for d in build dist; do rm -rf \"$d\"; done",
        "psql -tAc 'select 1'",
    ] {
        let got = hook(&sandbox, command);
        assert!(
            got != "deny" && got != "ask",
            "{command:?} should stay allowed: {got}"
        );
    }
}

/// Database locality (`hookgate-shell/src/dbtarget.rs`): dropping or emptying a local test
/// database is ordinary work the hook lets through, the same command against a remote host or
/// a production-shaped database is denied, and a local database whose name says neither is
/// asked about.
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
