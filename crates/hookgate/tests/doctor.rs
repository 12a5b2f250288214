//! `hookgate doctor` checks the guard itself, whatever agent calls it: the store takes
//! records, none went missing, and the project's config is applied or says what is not.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::Path;
use std::process::Output;

mod common;

use serde_json::Value;

fn doctor(home: &Path, config: &Path, cwd: &Path) -> Output {
    common::hookgate_in(home, config)
        .args(["doctor", "--json"])
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn check(out: &Output, name: &str) -> (bool, String) {
    let report: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let guard = report.iter().find(|r| r["agent"] == "hookgate").unwrap();
    let c = guard["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap();
    (
        c["ok"].as_bool().unwrap(),
        c["detail"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn doctor_fails_when_the_audit_store_cannot_be_written() {
    let root = tempfile::tempdir().unwrap();
    let blocker = root.path().join("file");
    std::fs::write(&blocker, "").unwrap();
    // A home under a regular file cannot be created, even by root.
    let out = doctor(&blocker.join("home"), &root.path().join("cfg"), root.path());
    assert_eq!(out.status.code(), Some(1));
    let (ok, detail) = check(&out, "audit store");
    assert!(!ok && detail.contains("Not a directory"), "{detail}");
    let fine = doctor(
        &root.path().join("home"),
        &root.path().join("cfg"),
        root.path(),
    );
    assert!(check(&fine, "audit store").0);
}

#[test]
fn doctor_lists_what_an_untrusted_project_asked_for_until_it_is_trusted() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("p");
    std::fs::create_dir_all(project.join(".hookgate")).unwrap();
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(
        project.join(".hookgate/policy.yaml"),
        "mode: monitor\ninvariants:\n  no-force-push: off\n",
    )
    .unwrap();
    let (home, cfg) = (root.path().join("home"), root.path().join("cfg"));
    let out = doctor(&home, &cfg, &project);
    let (ok, detail) = check(&out, "project config");
    assert!(!ok, "{detail}");
    assert!(
        detail.contains("mode: monitor") && detail.contains("no-force-push"),
        "every ignored item is named: {detail}"
    );
    let trusted = common::hookgate_in(&home, &cfg)
        .args(["trust"])
        .current_dir(&project)
        .status()
        .unwrap();
    assert!(trusted.success());
    let (ok, detail) = check(&doctor(&home, &cfg, &project), "project config");
    assert!(ok && detail.ends_with("trusted"), "{detail}");
}

/// The `timeout` check of `doctor AGENT --json` in a sandbox where `init AGENT --timeout SECS`
/// ran, with `$HOOKGATE_DEADLINE_MS` set to `deadline` (if any).
fn timeout_check(agent: &str, secs: &str, deadline: Option<&str>) -> (bool, String) {
    let env = common::Sandbox::new();
    let run = |args: &[&str]| {
        let mut cmd = env.command(args);
        cmd.env("HOME", env.path());
        if let Some(d) = deadline {
            cmd.env("HOOKGATE_DEADLINE_MS", d);
        }
        cmd.output().unwrap()
    };
    let init = run(&["init", agent, "--timeout", secs]);
    assert!(init.status.success(), "{init:?}");
    let out = run(&["doctor", agent, "--json"]);
    let report: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let section = report.iter().find(|r| r["agent"] == agent).unwrap();
    let c = section["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "timeout")
        .unwrap_or_else(|| panic!("{agent}: no timeout check in {section:#}"));
    (
        c["ok"].as_bool().unwrap(),
        c["detail"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn doctor_fails_an_agent_timeout_not_above_the_guard_deadline() {
    // Each agent's own unit is read (Gemini writes milliseconds, Copilot timeoutSec).
    for agent in ["claude", "codex", "gemini", "copilot"] {
        let (ok, detail) = timeout_check(agent, "3", None);
        assert!(
            !ok && detail.contains("3000 ms is not above"),
            "{agent}: {detail}"
        );
        let (ok, detail) = timeout_check(agent, "10", None);
        assert!(
            ok && detail.contains("10000 ms, above"),
            "{agent}: {detail}"
        );
        // The deadline is the guard's own setting: lowered, a short timeout is fine.
        let (ok, detail) = timeout_check(agent, "3", Some("1000"));
        assert!(ok, "{agent}: {detail}");
    }
    // Cursor's pre-tool hooks are written failClosed: its timeout blocks the call.
    let (ok, detail) = timeout_check("cursor", "3", None);
    assert!(ok && detail.contains("failClosed"), "cursor: {detail}");
}
