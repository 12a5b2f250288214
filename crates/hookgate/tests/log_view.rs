//! An audit trail people can read, through the binary (issue 10 B): local time, agent,
//! decision, tool and command; lifecycle rows hidden unless `--all`; filters; `--follow`;
//! `inspect` by id prefix; dates people type; terminal escaping; one store selection; doctor's
//! probes kept out; retention.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

struct Env {
    root: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        for dir in ["work", "other", "config", "home"] {
            std::fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        // Each directory is its own project (the discovery rule stops at `.git`).
        for dir in ["work", "other"] {
            std::fs::create_dir_all(root.path().join(dir).join(".git")).unwrap();
        }
        Self { root }
    }

    fn dir(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hookgate"));
        c.args(args)
            .current_dir(self.dir("work"))
            .env("HOOKGATE_HOME", self.dir("home"))
            .env("HOOKGATE_CONFIG_DIR", self.dir("config"))
            .env("XDG_RUNTIME_DIR", self.dir("run"))
            .env("TZ", "UTC")
            .env_remove("HOOKGATE_STORE")
            .env_remove("HOOKGATE_STORE_MAX_SIZE")
            .env_remove("HOOKGATE_FAIL_MODE")
            .env_remove("HOOKGATE_EVENT")
            .env_remove("HOOKGATE_WEBHOOK_URL");
        c
    }

    fn feed(&self, args: &[&str], payload: &Value) -> Output {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(&serde_json::to_vec(payload).unwrap())
            .unwrap();
        child.wait_with_output().unwrap()
    }

    /// A Claude Code Bash call in `dir` (a directory name under the root).
    fn bash_in(&self, dir: &str, command: &str, extra: &[&str]) -> Output {
        let payload = json!({
            "session_id": "log-session", "transcript_path": "/t",
            "cwd": self.dir(dir), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "toolu_1"
        });
        let mut args = vec!["hook", "claude"];
        args.extend_from_slice(extra);
        self.feed(&args, &payload)
    }

    fn bash(&self, command: &str) -> Output {
        self.bash_in("work", command, &[])
    }

    fn session_start(&self) -> Output {
        let payload = json!({
            "session_id": "log-session", "transcript_path": "/t",
            "cwd": self.dir("work"), "hook_event_name": "SessionStart", "source": "startup"
        });
        self.feed(&["hook", "claude"], &payload)
    }

    fn run(&self, args: &[&str]) -> Output {
        let out = self.command(args).output().unwrap();
        assert!(
            out.status.success(),
            "hookgate {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn text(&self, args: &[&str]) -> String {
        String::from_utf8(self.run(args).stdout).unwrap()
    }

    fn json(&self, args: &[&str]) -> Vec<Value> {
        serde_json::from_slice(&self.run(args).stdout).unwrap()
    }

    /// Writes records straight into the JSONL store, at known times.
    fn seed(&self, records: &[Value]) {
        let mut text = String::new();
        for r in records {
            text.push_str(&r.to_string());
            text.push('\n');
        }
        std::fs::write(self.dir("home").join("audit.jsonl"), text).unwrap();
    }
}

fn now_ms() -> u64 {
    u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

fn denies(out: &Output) -> bool {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    !out.stdout.is_empty()
        && serde_json::from_slice::<Value>(&out.stdout).unwrap()["hookSpecificOutput"]["permissionDecision"]
            == "deny"
}

fn record(id: &str, time_ms: u64, decision: &str, command: &str) -> Value {
    json!({"id": id, "time_ms": time_ms, "agent": "codex", "session": "s", "cwd": "/w",
           "event": "pre_tool_use", "tool": "shell", "targets": [command],
           "decision": decision, "rules": ["no-force-push"], "duration_us": 7})
}

#[test]
fn log_shows_local_time_agent_decision_tool_and_the_command() {
    let env = Env::new();
    // 2024-03-01 09:30:00 UTC.
    env.seed(&[record(
        "018df4f1c0a0-00000000000000aa",
        1_709_285_400_000,
        "deny",
        "git push --force origin main",
    )]);
    let utc = env.text(&["log"]);
    assert!(
        utc.contains("2024-03-01 09:30:00  018df4f1c0a0-0000000  codex   deny   shell        git push --force origin main  [no-force-push]"),
        "{utc}"
    );
    let tokyo = String::from_utf8(
        env.command(&["log"])
            .env("TZ", "JST-9")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(tokyo.contains("2024-03-01 18:30:00"), "local time: {tokyo}");
}

#[test]
fn lifecycle_rows_without_a_decision_are_hidden_unless_all() {
    let env = Env::new();
    assert!(env.session_start().status.success());
    assert!(denies(&env.bash("git push --force origin main")));
    assert!(env.bash("ls -la").status.success());
    let shown = env.json(&["log", "--json"]);
    let events: Vec<&str> = shown.iter().map(|r| r["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["pre_tool_use", "pre_tool_use"], "{shown:#?}");
    assert_eq!(env.json(&["log", "--json", "--all"]).len(), 3);
    let text = env.text(&["log"]);
    assert!(
        text.contains("ls -la") && text.contains("2 record(s)"),
        "{text}"
    );
}

#[test]
fn denied_tool_rule_project_and_grep_filters_select_records() {
    let env = Env::new();
    assert!(denies(&env.bash("git push --force origin main")));
    assert!(env.bash("echo hello").status.success());
    assert!(denies(&env.bash_in(
        "other",
        "git push --force origin dev",
        &[]
    )));
    let ids = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["log", "--json"];
        all.extend_from_slice(args);
        env.json(&all)
            .iter()
            .map(|r| {
                r["trace"]["command"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(ids(&["--denied"]).len(), 2);
    assert_eq!(ids(&["--tool", "Bash"]).len(), 3);
    assert!(ids(&["--tool", "Edit"]).is_empty());
    assert_eq!(ids(&["--rule", "no-force-push"]).len(), 2);
    assert_eq!(
        ids(&["--project"]),
        ["echo hello", "git push --force origin main"]
    );
    let other = env.dir("other");
    assert_eq!(
        ids(&["--project", other.to_str().unwrap()]),
        ["git push --force origin dev"]
    );
    assert_eq!(
        ids(&["--grep", "ORIGIN DEV"]),
        ["git push --force origin dev"]
    );
    let stats = env.run(&["stats", "--json", "--denied"]);
    let stats: Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(stats["total"], 2);
}

#[test]
fn an_escape_sequence_in_a_command_cannot_reach_the_terminal() {
    let env = Env::new();
    let evil = "echo ok\u{1b}[2J\u{1b}]0;owned\u{7} \u{202e}txt.sh";
    env.bash(evil);
    for args in [&["log"][..], &["inspect", "--last"], &["stats"]] {
        let out = env.run(args).stdout;
        assert!(
            !out.iter().any(|b| *b == 0x1b || *b == 0x07),
            "{args:?} printed a raw control byte: {}",
            String::from_utf8_lossy(&out)
        );
        assert!(
            !String::from_utf8_lossy(&out).contains('\u{202e}'),
            "{args:?}"
        );
    }
    let explained = env.command(&["explain", evil]).output().unwrap().stdout;
    assert!(
        !explained.iter().any(|b| *b == 0x1b || *b == 0x07),
        "explain printed a raw control byte: {}",
        String::from_utf8_lossy(&explained)
    );
    let log = env.text(&["log"]);
    assert!(
        log.contains("echo ok\\e[2J\\e]0;owned\\x07 \\u{202e}txt.sh"),
        "{log}"
    );
    // JSON keeps the text exactly (its own escaping is safe).
    let json = env.json(&["log", "--json"]);
    assert_eq!(json[0]["trace"]["command"], evil);
}

#[test]
fn inspect_takes_an_id_prefix_and_prints_local_time() {
    let env = Env::new();
    env.seed(&[
        record(
            "018df4f1c0a0-aaaa000000000001",
            1_709_285_400_000,
            "deny",
            "a",
        ),
        record(
            "018df4f1c0a0-aaab000000000002",
            1_709_285_400_000,
            "allow",
            "b",
        ),
    ]);
    let one = env.text(&["inspect", "018df4f1c0a0-aaaa"]);
    assert!(
        one.contains("record: 018df4f1c0a0-aaaa000000000001"),
        "{one}"
    );
    assert!(one.contains("time: 2024-03-01 09:30:00+00:00"), "{one}");
    let out = env
        .command(&["inspect", "018df4f1c0a0-aaa"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ambiguous"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = env.command(&["inspect", "ffff"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn dates_take_durations_weeks_yesterday_and_iso_8601() {
    let env = Env::new();
    let now = now_ms();
    let day = 86_400_000;
    env.seed(&[
        record(
            "000000000001-0000000000000001",
            now - 10 * day,
            "deny",
            "ten days ago",
        ),
        record(
            "000000000002-0000000000000002",
            now - 3 * day,
            "deny",
            "three days ago",
        ),
        record(
            "000000000003-0000000000000003",
            now - 1000,
            "deny",
            "just now",
        ),
        record(
            "000000000004-0000000000000004",
            1_709_285_400_000,
            "deny",
            "march 2024",
        ),
    ]);
    let count = |since: &str| env.json(&["log", "--json", "--since", since]).len();
    assert_eq!(count("1w"), 2);
    assert_eq!(count("2w"), 3);
    assert_eq!(count("4d"), 2);
    assert!(
        (1..=2).contains(&count("yesterday")),
        "yesterday's midnight is 24–48 h back"
    );
    assert_eq!(count("2024-03-01"), 4);
    assert_eq!(count("2024-03-01T09:30:01Z"), 3);
    assert_eq!(
        env.json(&["log", "--json", "--until", "2024-03-02"]).len(),
        1
    );
    let bad = env
        .command(&["log", "--since", "soonish"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--since"));
}

#[test]
fn records_in_the_jsonl_store_are_visible_without_environment_variables() {
    let env = Env::new();
    assert!(denies(&env.bash_in(
        "work",
        "git push --force origin main",
        &["--store", "jsonl"]
    )));
    assert!(env.dir("home").join("audit.jsonl").is_file());
    assert!(denies(&env.bash("git push --force origin dev")));
    // No HOOKGATE_STORE: both records, from both backends.
    assert_eq!(env.json(&["log", "--json"]).len(), 2);
    let stats: Value = serde_json::from_slice(&env.run(&["stats", "--json"]).stdout).unwrap();
    assert_eq!(stats["total"], 2);
}

#[test]
fn prune_deletes_records_by_age_and_to_the_size_cap() {
    let env = Env::new();
    let now = now_ms();
    let day = 86_400_000;
    env.seed(&[
        record(
            "000000000001-0000000000000001",
            now - 100 * day,
            "deny",
            "old",
        ),
        record(
            "000000000002-0000000000000002",
            now - 10 * day,
            "deny",
            "recent",
        ),
    ]);
    assert!(denies(&env.bash("git push --force origin main")));
    let report: Value =
        serde_json::from_slice(&env.run(&["prune", "--older-than", "90d", "--json"]).stdout)
            .unwrap();
    assert_eq!(report["deleted"], 1, "{report}");
    assert_eq!(env.json(&["log", "--json"]).len(), 2);
    // A cap of one byte keeps nothing, in either backend.
    assert!(
        env.text(&["prune", "--max-size", "1"])
            .contains("deleted 2 record(s)")
    );
    assert!(env.json(&["log", "--json", "--all"]).is_empty());
    let none = env.command(&["prune"]).output().unwrap();
    assert_eq!(
        none.status.code(),
        Some(1),
        "nothing to prune by is an error"
    );
}

/// `audit.db` as it stands on disk: the file and its WAL (nothing has checkpointed it yet).
fn db_on_disk(env: &Env) -> u64 {
    let db = env.dir("home").join("audit.db");
    let wal = env.dir("home").join("audit.db-wal");
    std::fs::metadata(&db).unwrap().len() + std::fs::metadata(&wal).map_or(0, |m| m.len())
}

/// The line of `doctor claude`'s report about `check`.
fn doctor_line(env: &Env, check: &str) -> String {
    let out = env.command(&["doctor", "claude"]).output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    report
        .lines()
        .find(|l| l.contains(check))
        .unwrap_or_else(|| panic!("{report}"))
        .to_owned()
}

fn command_of(r: &Value) -> &str {
    r["trace"]["command"].as_str().unwrap_or_default()
}

/// The size cap is applied when the store takes in records, and it keeps the evidence: an
/// agent that makes many large allowed calls cannot push its earlier denials out of the
/// trail; what the cap evicted is counted and shown by `stats` and `doctor`.
#[test]
fn denials_outlive_allowed_records_under_the_size_cap() {
    let env = Env::new();
    for i in 0..5 {
        assert!(denies(&env.bash(&format!("git push --force origin d{i}"))));
    }
    let pad = "x".repeat(2000);
    for i in 0..40 {
        assert!(!denies(&env.bash(&format!("echo {i} {pad}"))));
    }
    let before = env.json(&["log", "--json", "--all", "--limit", "100"]);
    assert_eq!(before.len(), 45);
    let size = db_on_disk(&env);
    // A cap below the current store: the next ingestion evicts allowed calls, oldest first.
    env.bash("echo last");
    let capped = |max: u64, args: &[&str]| {
        let out = env
            .command(args)
            .env("HOOKGATE_STORE_MAX_SIZE", max.to_string())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        out.stdout
    };
    let after: Vec<Value> = serde_json::from_slice(&capped(
        size / 2,
        &["log", "--json", "--all", "--limit", "100"],
    ))
    .unwrap();
    let denied: Vec<&Value> = after.iter().filter(|r| r["decision"] == "deny").collect();
    assert_eq!(denied.len(), 5, "every denial survives the cap");
    let echoes = after
        .iter()
        .filter(|r| command_of(r).starts_with("echo"))
        .count();
    assert!(echoes < 41, "{echoes}");
    assert_eq!(command_of(&after[0]), "echo last");
    assert!(
        after.iter().all(|r| !command_of(r).starts_with("echo 0 ")),
        "the oldest allowed call went first"
    );
    assert!(
        std::fs::metadata(env.dir("home").join("audit.db"))
            .unwrap()
            .len()
            <= size / 2,
        "the cap measures the database file"
    );
    let stats: Value = serde_json::from_slice(&env.run(&["stats", "--json"]).stdout).unwrap();
    let evicted = &stats["evicted"];
    let gone = u64::try_from(41 - echoes).unwrap();
    assert_eq!(
        evicted["allow"].as_u64().unwrap() + evicted["none"].as_u64().unwrap(),
        gone,
        "{stats}"
    );
    assert_eq!(evicted["deny"], 0, "{stats}");
    assert!(
        env.text(&["stats"])
            .contains(&format!("evicted by the size cap (ever): {gone}")),
    );
    let line = doctor_line(&env, "evicted records");
    assert!(
        line.contains("ok") && line.contains("no evidence"),
        "{line}"
    );
    // With nothing else left, denials go too, and doctor warns.
    env.bash("echo after");
    let left: Vec<Value> = serde_json::from_slice(&capped(1, &["log", "--json", "--all"])).unwrap();
    assert!(left.is_empty(), "{left:?}");
    let stats: Value = serde_json::from_slice(&env.run(&["stats", "--json"]).stdout).unwrap();
    assert_eq!(stats["evicted"]["deny"], 5, "{stats}");
    let line = doctor_line(&env, "evicted records");
    assert!(
        line.contains("FAIL") && line.contains("evicted 5 deny/ask/error"),
        "{line}"
    );
}

#[test]
fn the_size_cap_in_the_user_config_file_applies_to_both_backends_and_to_prune() {
    let env = Env::new();
    for i in 0..20 {
        env.bash(&format!("git push --force origin b{i}"));
    }
    // Read once, so the spooled records are in `audit.db`.
    assert_eq!(env.json(&["log", "--json", "--limit", "100"]).len(), 20);
    let db = env.dir("home").join("audit.db");
    let size = std::fs::metadata(&db).unwrap().len();
    // JSONL: the hook's own append past the cap prunes the oldest lines.
    let jsonl = env.dir("home").join("audit.jsonl");
    for i in 0..20 {
        env.bash_in(
            "work",
            &format!("git push --force origin j{i}"),
            &["--store", "jsonl"],
        );
    }
    let full = std::fs::metadata(&jsonl).unwrap().len();
    std::fs::write(
        env.dir("config").join("store.yaml"),
        format!("max_size: {}\n", full / 2),
    )
    .unwrap();
    env.bash_in(
        "work",
        "git push --force origin j-last",
        &["--store", "jsonl"],
    );
    let capped = std::fs::metadata(&jsonl).unwrap().len();
    assert!(capped <= full / 2, "{capped} > {}", full / 2);
    let text = std::fs::read_to_string(&jsonl).unwrap();
    assert!(
        text.contains("origin j-last") && !text.contains("origin j0\""),
        "{text}"
    );
    // SQLite: the next ingestion applies the same setting.
    std::fs::write(
        env.dir("config").join("store.yaml"),
        format!("max_size: {}\n", size / 8),
    )
    .unwrap();
    env.bash("git push --force origin last");
    let sqlite: Vec<Value> = env
        .json(&["log", "--json", "--limit", "100"])
        .into_iter()
        .filter(|r| {
            r["trace"]["command"]
                .as_str()
                .is_some_and(|c| c.contains("origin b"))
        })
        .collect();
    assert!(sqlite.len() < 20, "{}", sqlite.len());
    // prune takes the setting when no --max-size is given; a bad value is an error.
    std::fs::write(env.dir("config").join("store.yaml"), "max_size: 1\n").unwrap();
    assert!(env.text(&["prune"]).contains("deleted"));
    assert!(env.json(&["log", "--json", "--all"]).is_empty());
    std::fs::write(env.dir("config").join("store.yaml"), "max_size: lots\n").unwrap();
    let bad = env.command(&["prune"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("store.yaml"));
}

#[test]
fn log_follow_prints_new_records_as_they_arrive() {
    let env = Env::new();
    assert!(denies(&env.bash("git push --force origin first")));
    let mut child = env
        .command(&["log", "--follow"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("origin first"), "{first}");
    assert!(denies(&env.bash("git push --force origin second")));
    // The next line is the new record (the read blocks until follow prints it).
    let second = lines.next().unwrap().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(second.contains("origin second"), "{second}");
}

#[test]
fn doctors_probes_are_not_recorded_as_the_agents_calls() {
    let env = Env::new();
    let work = env.dir("work");
    env.run(&["init", "claude", "--project", work.to_str().unwrap()]);
    let out = env.command(&["doctor", "claude"]).output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("claude (project):"), "{report}");
    assert!(
        env.json(&["log", "--json", "--all"]).is_empty(),
        "doctor's sample calls reached the audit trail"
    );
}
