//! The audit trail through the binary: records the store could not take are shown and
//! counted, a torn spool tail swallows nothing, records name every determining rule, and old
//! records still read (issue 7 items 6 and 9, sections F and G).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::io::Write as _;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;

use common::{Sandbox as Env, output_with_stdin};

trait Audit {
    fn hook_bash(&self, command: &str, extra: &[&str]) -> Output;
    fn text(&self, args: &[&str]) -> String;
}

impl Audit for Env {
    fn hook_bash(&self, command: &str, extra: &[&str]) -> Output {
        let payload = common::bash_payload("audit-session", &self.work(), command);
        let mut args = vec!["hook", "claude"];
        args.extend_from_slice(extra);
        output_with_stdin(
            &mut self.command(&args),
            &serde_json::to_vec(&payload).unwrap(),
        )
    }

    fn text(&self, args: &[&str]) -> String {
        String::from_utf8(self.ok(args).stdout).unwrap()
    }
}

/// Whether the answer is Claude's deny (an empty answer is no opinion).
fn denies(out: &Output) -> bool {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    !out.stdout.is_empty()
        && serde_json::from_slice::<Value>(&out.stdout).unwrap()["hookSpecificOutput"]["permissionDecision"]
            == "deny"
}

/// `/dev/full` fails every write with ENOSPC, for root too (tests run as root, where a
/// chmod-0555 directory would not stop a write).
fn dev_full() -> Option<&'static Path> {
    let full = Path::new("/dev/full");
    if full.exists() {
        return Some(full);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "/dev/full is missing, and CI is set: this test must run"
    );
    None
}

#[test]
fn a_record_the_store_cannot_take_is_counted_and_shown_by_log_and_stats() {
    let Some(full) = dev_full() else {
        return;
    };
    let env = Env::new();
    std::fs::create_dir_all(env.home().join("spool")).unwrap();
    std::os::unix::fs::symlink(full, env.home().join("spool/current.jsonl")).unwrap();

    let out = env.hook_bash("git push --force origin main", &[]);
    assert!(denies(&out), "an audit failure never changes the decision");
    let answer = String::from_utf8_lossy(&out.stdout);
    assert!(
        answer.contains("the audit store could not record this call"),
        "the user is told in the answer: {answer}"
    );
    let again = env.hook_bash("git push --force origin main", &[]);
    assert!(denies(&again));
    assert!(
        !String::from_utf8_lossy(&again.stdout).contains("audit store"),
        "once per session"
    );
    let fallback = env.home().join("audit-fallback.jsonl");
    let notice = format!(
        "2 record(s) could not be stored (see {})",
        fallback.display()
    );

    let log = env.text(&["log"]);
    assert!(log.contains("[not in store]"), "{log}");
    assert!(log.contains(&notice), "{log}");

    let out = env.ok(&["log", "--json"]);
    let records: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(records[0]["unstored"], true);
    assert_eq!(records[0]["decision"], "deny");
    assert_eq!(records[0]["fallback_file"], fallback.display().to_string());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&notice),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let stats = env.text(&["stats"]);
    assert!(stats.contains(&notice), "{stats}");
    let stats = env.json(&["stats", "--json"]);
    assert_eq!(stats["unstored"]["count"], 2, "{stats:#}");
    assert_eq!(stats["total"], 0, "the store itself holds nothing");
}

#[test]
fn log_and_stats_say_nothing_about_unstored_records_when_there_are_none() {
    let env = Env::new();
    assert!(denies(&env.hook_bash("git push --force origin main", &[])));
    assert!(!env.text(&["log"]).contains("could not be stored"));
    assert!(!env.text(&["stats"]).contains("could not be stored"));
    assert_eq!(env.json(&["stats", "--json"])["unstored"]["count"], 0);
    let records = env.json(&["log", "--json"]);
    assert!(records[0].get("unstored").is_none(), "{records:#}");
}

#[test]
fn a_torn_spool_tail_does_not_swallow_the_next_hook_record() {
    let env = Env::new();
    assert!(!denies(&env.hook_bash("echo one", &[])));
    let current = env.home().join("spool/current.jsonl");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&current)
        .unwrap()
        .write_all(b"{\"id\":\"019a-torn\",\"time_ms\":17")
        .unwrap();
    assert!(denies(&env.hook_bash("git push --force origin main", &[])));

    let records = env.json(&["log", "--json"]);
    let decisions: Vec<&str> = records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["decision"].as_str().unwrap())
        .collect();
    assert_eq!(decisions, ["deny", "none"], "{records:#}");
    let rejected = std::fs::read_to_string(env.home().join("spool/rejected.jsonl")).unwrap();
    let notes: Vec<Value> = rejected
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(notes.len(), 1, "{rejected}");
    assert_eq!(notes[0]["why"], "torn_write");
    assert_eq!(notes[0]["fragment"], "{\"id\":\"019a-torn\",\"time_ms\":17");
    assert!(notes[0]["rejected_ms"].as_u64().unwrap() > 0);
}

#[test]
fn records_and_stats_name_every_determining_rule_not_the_first_match() {
    let env = Env::new();
    let policy = env.root.path().join("allow-git.yaml");
    // An allow rule that matches first but does not decide: the invariants deny.
    std::fs::write(
        &policy,
        "version: 1\nrules:\n  - {id: allow-touch, action: 'git.*', effect: allow}\n",
    )
    .unwrap();
    let policy = policy.display().to_string();
    let out = env.hook_bash("git push --force origin main", &["--policy", &policy]);
    assert!(denies(&out));

    let records = env.json(&["log", "--json"]);
    let record = &records[0];
    let matched: Vec<&str> = record["trace"]["matched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(matched.first(), Some(&"allow-touch"), "{record:#}");
    let rules: Vec<&str> = record["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(rules.contains(&"protected-branch"), "{record:#}");
    assert!(!rules.contains(&"allow-touch"), "{record:#}");
    assert!(record.get("rule").is_none());

    let stats = env.json(&["stats", "--json"]);
    assert_eq!(stats["by_rule"]["protected-branch"], 1, "{stats:#}");
    assert!(stats["by_rule"].get("allow-touch").is_none(), "{stats:#}");
    let inspect = env.text(&["inspect", "--last"]);
    assert!(
        inspect.contains("rules: ") && inspect.contains("protected-branch"),
        "{inspect}"
    );
}

#[test]
fn an_old_format_record_reads_back_through_log_stats_and_inspect() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("audit.jsonl"),
        concat!(
            r#"{"id":"0000000003e8-00000000000000aa","time_ms":1000,"agent":"claude","session":"s","cwd":"/w","event":"pre_tool_use","tool":"Bash","targets":["git push --force origin main"],"decision":"deny","reason":"protected","rule":"protected-branch","duration_us":7}"#,
            "\n"
        ),
    )
    .unwrap();
    let jsonl = |args: &[&str]| {
        let out = env
            .command(args)
            .env("HOOKGATE_STORE", "jsonl")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let records: Value = serde_json::from_str(&jsonl(&["log", "--json"])).unwrap();
    assert_eq!(records[0]["rules"], serde_json::json!(["protected-branch"]));
    assert_eq!(records[0]["decision"], "deny");
    let stats: Value = serde_json::from_str(&jsonl(&["stats", "--json"])).unwrap();
    assert_eq!(stats["by_rule"]["protected-branch"], 1);
    let inspect = jsonl(&["inspect", "0000000003e8-00000000000000aa"]);
    assert!(
        inspect.contains("decision: deny  rules: protected-branch"),
        "{inspect}"
    );
}

#[test]
fn an_unknown_store_setting_is_an_error_for_readers_not_a_guess() {
    let env = Env::new();
    let out = env
        .command(&["log"])
        .env("HOOKGATE_STORE", "jsnol")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("HOOKGATE_STORE"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
