//! `hookgate test`: the example scenarios pass (so CI runs them), and a failing expectation is
//! reported with a diff and a failing exit status.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hookgate_test(files: &[PathBuf], json: bool) -> Output {
    let home = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_hookgate"));
    command.arg("test").args(files);
    if json {
        command.arg("--json");
    }
    command
        .env("HOOKGATE_HOME", home.path())
        .env("HOOKGATE_CONFIG_DIR", home.path().join("no-config"))
        .output()
        .unwrap()
}

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_scenario_passes() {
    let files = examples();
    assert!(files.len() >= 4, "{files:?}");
    let out = hookgate_test(&files, true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reports: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(reports.as_array().unwrap().len(), files.len());
    assert!(
        reports
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["passed"] == true)
    );
}

#[test]
fn a_failed_expectation_fails_with_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("wrong.yaml");
    std::fs::write(
        &scenario,
        r#"
prompt: write it
approval: yolo
files: {keep.txt: "old"}
script:
  - {tool: write_file, input: {path: keep.txt, content: "new"}}
  - {text: done}
expect:
  events: [session_start, stop, user_prompt_submit]
  denied: [{tool: write_file}]
  unchanged: [keep.txt]
"#,
    )
    .unwrap();
    let out = hookgate_test(&[scenario], false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL events fired in order"), "{stdout}");
    assert!(
        stdout.contains("- user_prompt_submit   (never fired after that point)"),
        "{stdout}"
    );
    assert!(stdout.contains("FAIL write_file denied"), "{stdout}");
    assert!(stdout.contains("write_file allow (yolo)"), "{stdout}");
    assert!(
        stdout.contains("- \"old\"") && stdout.contains("+ \"new\""),
        "{stdout}"
    );
}

#[test]
fn a_scenario_cannot_reach_outside_its_work_directory() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("escape.yaml");
    std::fs::write(
        &scenario,
        "prompt: x\nfiles: {\"../outside.txt\": \"x\"}\nscript: [{text: done}]\n",
    )
    .unwrap();
    let out = hookgate_test(&[scenario], false);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("inside the work directory"));
    assert!(!dir.path().parent().unwrap().join("outside.txt").exists());
}

#[test]
fn a_typo_in_a_scenario_is_an_error_not_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("typo.yaml");
    std::fs::write(
        &scenario,
        "prompt: x\nscript: [{text: done}]\nexpect: {denyed: [{tool: shell}]}\n",
    )
    .unwrap();
    let out = hookgate_test(&[scenario], false);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("denyed"));
}

/// `hookgate ARGS` with an isolated home, `stdin` as input.
fn hookgate(args: &[&str], stdin: &str) -> Output {
    use std::io::Write as _;
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .env("HOOKGATE_HOME", home.path())
        .env("HOOKGATE_CONFIG_DIR", home.path().join("no-config"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_example_configs_load_and_do_what_their_comments_say() {
    let checked = hookgate(
        &[
            "config",
            "check",
            "examples/hooks.yaml",
            "examples/meerkat.toml",
        ],
        "",
    );
    assert_eq!(checked.status.code(), Some(0), "{checked:?}");
    // examples/hooks.yaml's header: the recursive delete is denied (exit 2).
    let denied = hookgate(
        &["fire", "pre_tool_use", "--config", "examples/hooks.yaml"],
        r#"{"tool_name":"shell","tool_input":{"cmd":"sudo rm -fr /"}}"#,
    );
    assert_eq!(denied.status.code(), Some(2), "{denied:?}");
    let echoed = hookgate(
        &["fire", "pre_tool_use", "--config", "examples/hooks.yaml"],
        r#"{"tool_name":"shell","tool_input":{"cmd":"echo 'rm -rf /'"}}"#,
    );
    assert_eq!(
        echoed.status.code(),
        Some(0),
        "data, not a command: {echoed:?}"
    );
    // examples/meerkat.toml: the guardrail allows, the rewrite hook adds a timeout.
    let lanes = hookgate(
        &[
            "fire",
            "pre_tool_use",
            "--lanes",
            "--json",
            "--config",
            "examples/meerkat.toml",
        ],
        r#"{"session_id":"s","tool_name":"shell","tool_input":{"cmd":"ls"}}"#,
    );
    assert_eq!(lanes.status.code(), Some(0), "{lanes:?}");
    let outcome: serde_json::Value = serde_json::from_slice(&lanes.stdout).unwrap();
    assert_eq!(
        outcome["tool_input"],
        serde_json::json!({"cmd": "ls", "timeout": 30}),
        "{outcome}"
    );
    assert_eq!(outcome["decision"], "allow", "{outcome}");
}
