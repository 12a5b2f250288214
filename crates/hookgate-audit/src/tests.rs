#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;

use super::*;
use hookgate_core::AgentKind;

const AWS_KEY: &str = "AKIAZ7XQ3JH2LMN4PQRS";

fn rec(agent: &str, session: &str, decision: &str, time_ms: u64, duration_us: u64) -> Record {
    let decision = RecordDecision::parse(decision).unwrap();
    let mut r = Record::new(agent, session, "pre_tool_use");
    r.time_ms = time_ms;
    r.id = new_id(time_ms);
    r.decision = decision;
    r.duration_us = duration_us;
    r.tool = Some("Bash".to_owned());
    r.targets = vec!["git status".to_owned()];
    r.trace = json!([{ "step": "policy", "us": 12 }]);
    r
}

fn stores() -> Vec<(tempfile::TempDir, Store)> {
    [Backend::Sqlite, Backend::Jsonl]
        .into_iter()
        .map(|b| {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(dir.path(), b).unwrap();
            (dir, store)
        })
        .collect()
}

fn all(store: &Store) -> Vec<Record> {
    store.query(&Filter::default()).unwrap()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn record_round_trips_every_field_in_both_backends() {
    for (_dir, store) in stores() {
        let mut r = rec("codex", "s1", "deny", 1_700_000_000_000, 812);
        r.cwd = "/work/p".to_owned();
        r.action = Some("git.reset".to_owned());
        r.reason = Some("destroys uncommitted work".to_owned());
        r.rules = vec!["no-reset-hard".to_owned(), "protected-branch".to_owned()];
        r.error = Some("none really".to_owned());
        r.targets = vec!["a".to_owned(), "b c".to_owned()];
        r.trace = json!({ "steps": [{ "name": "policy", "us": 3 }], "unicode": "é✓" });
        store.record(&r).unwrap();
        assert_eq!(all(&store), vec![r.clone()], "{:?}", store.path());
        assert_eq!(store.get(&r.id).unwrap(), Some(r.clone()));
        assert_eq!(store.get("nope").unwrap(), None);
        assert_eq!(store.last().unwrap(), Some(r));
    }
}

#[test]
fn empty_store_answers_empty_not_error() {
    for (_dir, store) in stores() {
        assert!(all(&store).is_empty());
        assert_eq!(store.last().unwrap(), None);
        assert_eq!(store.stats(&Filter::default()).unwrap(), Stats::default());
    }
}

#[test]
fn filters_select_by_time_agent_decision_session_and_limit_keeps_newest() {
    for (_dir, store) in stores() {
        let rs = [
            rec("claude", "a", "allow", 1000, 1),
            rec("claude", "a", "deny", 2000, 1),
            rec("codex", "b", "ask", 3000, 1),
            rec("gemini", "b", "deny", 4000, 1),
            rec("claude", "c", "allow", 5000, 1),
        ];
        for r in &rs {
            store.record(r).unwrap();
        }
        let ids = |f: Filter| -> Vec<u64> {
            store.query(&f).unwrap().iter().map(|r| r.time_ms).collect()
        };
        assert_eq!(ids(Filter::default()), [5000, 4000, 3000, 2000, 1000]);
        assert_eq!(
            ids(Filter {
                since_ms: Some(3000),
                ..Filter::default()
            }),
            [5000, 4000, 3000]
        );
        assert_eq!(
            ids(Filter {
                until_ms: Some(3000),
                ..Filter::default()
            }),
            [2000, 1000]
        );
        assert_eq!(
            ids(Filter {
                agent: Some(AgentKind::Claude),
                ..Filter::default()
            }),
            [5000, 2000, 1000]
        );
        assert_eq!(
            ids(Filter {
                decision: Some(RecordDecision::Deny),
                ..Filter::default()
            }),
            [4000, 2000]
        );
        assert_eq!(
            ids(Filter {
                session: Some("b".into()),
                ..Filter::default()
            }),
            [4000, 3000]
        );
        assert_eq!(
            ids(Filter {
                limit: Some(2),
                ..Filter::default()
            }),
            [5000, 4000]
        );
        assert_eq!(
            ids(Filter {
                agent: Some(AgentKind::Claude),
                decision: Some(RecordDecision::Allow),
                since_ms: Some(2000),
                ..Filter::default()
            }),
            [5000]
        );
    }
}

#[test]
fn stats_count_by_decision_rule_tool_agent_and_give_nearest_rank_percentiles() {
    for (_dir, store) in stores() {
        for i in 1..=100u64 {
            let mut r = rec(
                if i % 4 == 0 { "codex" } else { "claude" },
                "s",
                "allow",
                i,
                i * 10,
            );
            if i > 90 {
                r.decision = RecordDecision::Deny;
                r.rules = vec!["no-force-push".to_owned()];
            }
            if i == 100 {
                r.tool = None;
            }
            store.record(&r).unwrap();
        }
        let stats = store.stats(&Filter::default()).unwrap();
        assert_eq!(stats.total, 100);
        assert_eq!(stats.by_decision.get("allow"), Some(&90));
        assert_eq!(stats.by_decision.get("deny"), Some(&10));
        assert_eq!(stats.by_rule.get("no-force-push"), Some(&10));
        assert_eq!(
            stats.by_rule.len(),
            1,
            "records without a rule are not counted as one"
        );
        assert_eq!(stats.by_tool.get("Bash"), Some(&99));
        assert_eq!(stats.by_agent.get("codex"), Some(&25));
        assert_eq!(stats.by_agent.get("claude"), Some(&75));
        assert_eq!(
            stats.latency_us,
            Percentiles {
                p50: 500,
                p90: 900,
                p99: 990,
                max: 1000
            }
        );
        let denied = store
            .stats(&Filter {
                decision: Some(RecordDecision::Deny),
                ..Filter::default()
            })
            .unwrap();
        assert_eq!(denied.total, 10);
        assert_eq!(denied.latency_us.p50, 950);
        let json = serde_json::to_value(&stats).unwrap();
        assert_eq!(json["latency_us"]["p99"], 990);
    }
}

#[test]
fn migrations_run_once_and_reopen_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let r = rec("claude", "s", "allow", 1, 1);
    {
        let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
        store.record(&r).unwrap();
        assert_eq!(all(&store).len(), 1);
    }
    let schema = || -> (i64, String, Vec<String>) {
        let conn = rusqlite::Connection::open(dir.path().join("audit.db")).unwrap();
        let version = conn
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .unwrap();
        let mode = conn
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .unwrap();
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master ORDER BY name")
            .unwrap();
        let names = stmt
            .query_map([], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        (version, mode, names)
    };
    let first = schema();
    assert_eq!(first.0, sqlite::schema_version());
    assert_eq!(first.1, "wal");
    for _ in 0..3 {
        let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
        assert_eq!(all(&store), vec![r.clone()]);
    }
    assert_eq!(schema(), first);
}

#[test]
fn newer_schema_is_refused_with_the_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    rusqlite::Connection::open(&db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    let err = store.query(&Filter::default()).unwrap_err();
    assert!(
        matches!(err, AuditError::SchemaTooNew { found: 99, .. }),
        "{err}"
    );
    assert!(err.to_string().contains(&db.display().to_string()), "{err}");
}

#[test]
fn secrets_are_redacted_before_they_are_stored() {
    for (dir, store) in stores() {
        let mut r = rec("claude", "s", "deny", 1, 1);
        r.reason = Some(format!("found aws key {AWS_KEY} in the command"));
        r.targets = vec![format!("echo {AWS_KEY}")];
        r.error = Some(format!("key={AWS_KEY}"));
        r.trace = json!({ "steps": [{ "input": { "command": format!("export AWS_ACCESS_KEY_ID={AWS_KEY}") } }] });
        store.record(&r).unwrap();
        // Before any ingestion: the spool (or the JSONL log) is storage too.
        for file in files_under(dir.path()) {
            let bytes = fs::read(&file).unwrap();
            assert!(
                !String::from_utf8_lossy(&bytes).contains(AWS_KEY),
                "{} holds the key",
                file.display()
            );
        }
        let stored = store.get(&r.id).unwrap().unwrap();
        assert_eq!(
            stored.reason.as_deref(),
            Some("found aws key [REDACTED] in the command")
        );
        assert_eq!(stored.targets, ["echo [REDACTED]"]);
        assert_eq!(stored.error.as_deref(), Some("key=[REDACTED]"));
        assert_eq!(
            stored.trace["steps"][0]["input"]["command"],
            "export AWS_ACCESS_KEY_ID=[REDACTED]"
        );
        for file in files_under(dir.path()) {
            let bytes = fs::read(&file).unwrap();
            assert!(
                !String::from_utf8_lossy(&bytes).contains(AWS_KEY),
                "{} holds the key",
                file.display()
            );
        }
    }
}

#[test]
fn readers_ingest_the_spool_and_leave_no_batch_behind() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    for i in 0..10 {
        store.record(&rec("claude", "s", "allow", i, 1)).unwrap();
    }
    assert!(
        fs::metadata(dir.path().join("spool/current.jsonl"))
            .unwrap()
            .len()
            > 0
    );
    assert_eq!(store.ingest().unwrap(), 10);
    assert_eq!(store.ingest().unwrap(), 0);
    let spool: Vec<String> = fs::read_dir(dir.path().join("spool"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(spool, ["ingest.lock"]);
    assert_eq!(all(&store).len(), 10);
}

#[test]
fn a_batch_left_by_a_crashed_ingester_is_ingested_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    let r = rec("claude", "s", "allow", 1, 1);
    store.record(&r).unwrap();
    assert_eq!(store.ingest().unwrap(), 1);
    // The crash happened after the commit and before the batch was deleted.
    let line = record::encode_line(&r).unwrap();
    fs::write(dir.path().join("spool/batch-000000000000-0.jsonl"), &line).unwrap();
    store.record(&rec("claude", "s", "allow", 2, 1)).unwrap();
    assert_eq!(
        store.ingest().unwrap(),
        1,
        "the replayed record is not inserted twice"
    );
    assert_eq!(all(&store).len(), 2);
}

#[test]
fn a_corrupt_spool_line_is_set_aside_with_a_note_and_does_not_block_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    store.record(&rec("claude", "s", "allow", 1, 1)).unwrap();
    spool::append(
        &dir.path().join("spool/current.jsonl"),
        b"{\"id\":\"cut sho\n",
        TornTail::Terminate,
    )
    .unwrap();
    store.record(&rec("claude", "s", "allow", 2, 1)).unwrap();
    assert_eq!(all(&store).len(), 2);
    let rejected = rejected_notes(store.rejected_path());
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    assert_eq!(rejected[0].why, RejectReason::Unparsable);
    assert_eq!(rejected[0].fragment, "{\"id\":\"cut sho");
}

fn rejected_notes(path: &Path) -> Vec<Rejected> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_corrupt_jsonl_log_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Jsonl).unwrap();
    store.record(&rec("claude", "s", "allow", 1, 1)).unwrap();
    spool::append(
        &dir.path().join("audit.jsonl"),
        b"not json\n",
        TornTail::Terminate,
    )
    .unwrap();
    let err = store.query(&Filter::default()).unwrap_err().to_string();
    assert!(err.contains("audit.jsonl line 2"), "{err}");
}

#[test]
fn a_jsonl_line_still_being_written_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Jsonl).unwrap();
    store.record(&rec("claude", "s", "allow", 1, 1)).unwrap();
    spool::append(
        &dir.path().join("audit.jsonl"),
        b"{\"id\":\"half-writ",
        TornTail::Terminate,
    )
    .unwrap();
    assert_eq!(all(&store).len(), 1);
}

#[test]
fn the_spool_is_ingested_when_it_passes_the_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options {
        ingest_threshold_bytes: 2048,
        ..Options::default()
    };
    let store = Store::open_with(dir.path(), options).unwrap();
    for i in 0..200 {
        store.record(&rec("claude", "s", "allow", i, 1)).unwrap();
        let spooled = fs::metadata(dir.path().join("spool/current.jsonl")).map_or(0, |m| m.len());
        assert!(spooled < 2048 + 1024, "spool grew to {spooled}");
    }
    assert!(
        dir.path().join("audit.db").exists(),
        "writers ingested without a reader"
    );
    assert_eq!(all(&store).len(), 200);
}

#[test]
fn oversized_records_are_cut_but_stored() {
    for (_dir, store) in stores() {
        let mut r = rec("claude", "s", "error", 1, 1);
        r.trace = json!({ "output": "x".repeat(3 * record::MAX_LINE_BYTES) });
        r.reason = Some("é".repeat(10_000));
        store.record(&r).unwrap();
        let stored = store.get(&r.id).unwrap().unwrap();
        assert_eq!(stored.trace["truncated"], true);
        assert!(stored.reason.unwrap().len() < 5000);
    }
}

#[test]
fn ids_are_unique_and_sort_by_time() {
    let ids: Vec<String> = (0..10_000).map(|i| new_id(1_000 + i / 100)).collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
    assert!(new_id(1) < new_id(2));
    assert_eq!(new_id(now_ms()).len(), 29);
}

#[test]
fn session_state_persists_across_store_instances() {
    let dir = tempfile::tempdir().unwrap();
    for backend in [Backend::Sqlite, Backend::Jsonl] {
        let store = Store::open(dir.path(), backend).unwrap();
        assert_eq!(store.session_state("new").unwrap(), json!({}));
    }
    Store::open(dir.path(), Backend::Sqlite)
        .unwrap()
        .update_session_state("s-1", |v| v["files"] = json!(["a.rs"]))
        .unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    assert_eq!(
        store.session_state("s-1").unwrap(),
        json!({ "files": ["a.rs"] })
    );
    let n = store
        .update_session_state("s-1", |v| v["files"].as_array().map_or(0, Vec::len))
        .unwrap();
    assert_eq!(n, 1, "the closure's result is returned");
    store.remove_session_state("s-1").unwrap();
    assert_eq!(store.session_state("s-1").unwrap(), json!({}));
}

#[test]
fn session_ids_cannot_escape_the_sessions_directory_or_collide() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    for (i, id) in [
        "../../etc/passwd",
        "a/b",
        "a_b",
        "ab",
        "",
        &"x".repeat(5000),
    ]
    .iter()
    .enumerate()
    {
        store
            .update_session_state(id, |v| v["i"] = i.into())
            .unwrap();
    }
    for (i, id) in [
        "../../etc/passwd",
        "a/b",
        "a_b",
        "ab",
        "",
        &"x".repeat(5000),
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(store.session_state(id).unwrap()["i"], i);
    }
    for file in files_under(dir.path()) {
        assert!(
            file.starts_with(dir.path().join("sessions")),
            "{}",
            file.display()
        );
    }
}

#[test]
fn session_state_updates_are_not_lost_under_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    let home = Arc::new(dir.path().to_owned());
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let home = Arc::clone(&home);
            std::thread::spawn(move || {
                for _ in 0..100 {
                    // A store per call, as a hook process would have.
                    let store = Store::open(&home, Backend::Sqlite).unwrap();
                    store
                        .update_session_state("shared", |v| {
                            v["n"] = (v["n"].as_u64().unwrap_or(0) + 1).into();
                        })
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let store = Store::open(&home, Backend::Sqlite).unwrap();
    assert_eq!(store.session_state("shared").unwrap()["n"], 800);
}

#[test]
fn a_corrupt_session_document_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    store
        .update_session_state("s", |v| v["a"] = 1.into())
        .unwrap();
    let doc = files_under(&dir.path().join("sessions"))
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .unwrap();
    fs::write(&doc, "{").unwrap();
    let err = store
        .update_session_state("s", |_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains(&doc.display().to_string()), "{err}");
}

#[test]
fn errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("home");
    fs::write(&blocker, "a file where the data dir should be").unwrap();
    let err = Store::open(&blocker, Backend::Sqlite)
        .unwrap_err()
        .to_string();
    assert!(err.contains(&blocker.display().to_string()), "{err}");
}

#[test]
fn default_home_prefers_hookgate_home_then_xdg_then_home() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    };
    let none = || None;
    assert_eq!(
        home_from(
            env(&[
                ("HOOKGATE_HOME", "/h"),
                ("XDG_DATA_HOME", "/x"),
                ("HOME", "/u")
            ]),
            none
        ),
        PathBuf::from("/h")
    );
    assert_eq!(
        home_from(
            env(&[
                ("HOOKGATE_HOME", ""),
                ("XDG_DATA_HOME", "/x"),
                ("HOME", "/u")
            ]),
            none
        ),
        PathBuf::from("/x/hookgate")
    );
    assert_eq!(
        home_from(env(&[("XDG_DATA_HOME", "relative"), ("HOME", "/u")]), none),
        PathBuf::from("/u/.local/share/hookgate")
    );
    assert_eq!(
        home_from(env(&[]), || Some(PathBuf::from("/pw"))),
        PathBuf::from("/pw/.local/share/hookgate")
    );
    assert_eq!(home_from(env(&[]), none), PathBuf::from(".hookgate"));
}

#[test]
fn store_files_are_private_to_the_owner() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("hg");
    let store = Store::open(&home, Backend::Sqlite).unwrap();
    store.record(&rec("claude", "s", "allow", 1, 1)).unwrap();
    store
        .update_session_state("s", |v| v["a"] = 1.into())
        .unwrap();
    assert_eq!(all(&store).len(), 1);
    assert!(home.join("audit.db-wal").exists());
    assert_eq!(
        fs::metadata(&home).unwrap().permissions().mode() & 0o777,
        0o700
    );
    for file in files_under(&home) {
        assert_eq!(
            fs::metadata(&file).unwrap().permissions().mode() & 0o077,
            0,
            "{}",
            file.display()
        );
    }
}
