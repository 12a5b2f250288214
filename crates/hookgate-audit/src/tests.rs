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

/// The data-dir rule as `hookgate-project` owns it, over an injected environment.
fn home_from(
    env: impl Fn(&str) -> Option<OsString>,
    home_dir: impl FnOnce() -> Option<PathBuf>,
) -> PathBuf {
    hookgate_project::dirs::data_dir(&env, home_dir())
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

// ---- Torn tails (issue 7 item 9, F) ----

/// Appends raw bytes the way a writer that died mid-line leaves them: no newline.
fn write_torn(path: &Path, bytes: &[u8]) {
    use std::io::Write as _;
    let mut f = fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    f.write_all(bytes).unwrap();
}

fn data_file(dir: &Path, store: &Store) -> PathBuf {
    if store.path().ends_with("audit.db") {
        dir.join("spool/current.jsonl")
    } else {
        store.path().to_owned()
    }
}

#[test]
fn a_torn_tail_is_moved_to_rejected_with_a_note_and_the_next_record_starts_on_a_fresh_line() {
    for (dir, store) in stores() {
        let first = rec("claude", "s", "allow", 1, 1);
        let next = rec("claude", "s", "deny", 2, 1);
        store.record(&first).unwrap();
        let file = data_file(dir.path(), &store);
        write_torn(
            &file,
            b"{\"id\":\"0000-torn\",\"time_ms\":3,\"agent\":\"cla",
        );
        let before = now_ms();
        store.record(&next).unwrap();
        // Nothing glued: every line of the data file is a whole record.
        for line in fs::read_to_string(&file).unwrap().lines() {
            serde_json::from_str::<Record>(line).unwrap();
        }
        let ids: Vec<String> = all(&store).into_iter().map(|r| r.id).collect();
        assert_eq!(
            ids,
            [next.id.clone(), first.id.clone()],
            "{:?}",
            store.path()
        );
        let notes = rejected_notes(store.rejected_path());
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].why, RejectReason::TornWrite);
        assert_eq!(
            notes[0].fragment,
            "{\"id\":\"0000-torn\",\"time_ms\":3,\"agent\":\"cla"
        );
        assert_eq!(notes[0].file, file);
        assert!(notes[0].rejected_ms >= before, "the note says when");
    }
}

#[test]
fn a_torn_tail_that_only_lost_its_newline_is_kept_as_a_record() {
    for (dir, store) in stores() {
        let lost_newline = rec("codex", "s", "ask", 1, 1);
        let line = record::encode_line(&lost_newline).unwrap();
        write_torn(
            &data_file(dir.path(), &store),
            line.strip_suffix(b"\n").unwrap(),
        );
        let next = rec("codex", "s", "allow", 2, 1);
        store.record(&next).unwrap();
        assert_eq!(all(&store), vec![next, lost_newline]);
        assert!(rejected_notes(store.rejected_path()).is_empty());
    }
}

#[test]
fn a_torn_tail_is_repaired_once_under_concurrent_appends() {
    for backend in [Backend::Sqlite, Backend::Jsonl] {
        let dir = tempfile::tempdir().unwrap();
        let home = Arc::new(dir.path().to_owned());
        {
            let store = Store::open(&home, backend).unwrap();
            store.record(&rec("claude", "s", "allow", 1, 1)).unwrap();
            write_torn(&data_file(&home, &store), b"{\"id\":\"torn");
        }
        let threads: Vec<_> = (0..8u64)
            .map(|t| {
                let home = Arc::clone(&home);
                std::thread::spawn(move || {
                    for i in 0..100 {
                        let store = Store::open(&home, backend).unwrap();
                        store
                            .record(&rec("claude", "s", "allow", 10 + t * 1000 + i, 1))
                            .unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let store = Store::open(&home, backend).unwrap();
        assert_eq!(all(&store).len(), 801, "{backend:?}");
        let notes = rejected_notes(store.rejected_path());
        assert_eq!(notes.len(), 1, "{backend:?}: {notes:?}");
        assert_eq!(notes[0].fragment, "{\"id\":\"torn");
    }
}

#[test]
fn a_batch_ending_in_a_torn_write_is_ingested_and_its_fragment_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    let r = rec("claude", "s", "deny", 1, 1);
    let mut batch = record::encode_line(&r).unwrap();
    batch.extend_from_slice(b"{\"id\":\"cut");
    let path = dir.path().join("spool/batch-000000000000-1.jsonl");
    fs::write(&path, &batch).unwrap();
    assert_eq!(store.ingest().unwrap(), 1);
    assert_eq!(all(&store), vec![r]);
    let notes = rejected_notes(store.rejected_path());
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].why, RejectReason::TornWrite);
    assert_eq!(notes[0].file, path);
}

#[test]
fn a_record_glued_behind_a_torn_fragment_is_recovered_and_the_fragment_rejected() {
    for (dir, store) in stores() {
        let r = rec("gemini", "s", "deny", 5, 1);
        let mut glued = b"{\"id\":\"0001-dead\",\"trace\":{\"a\":".to_vec();
        glued.extend(record::encode_line(&r).unwrap());
        write_torn(&data_file(dir.path(), &store), &glued);
        assert_eq!(all(&store), vec![r]);
    }
    // The spool's ingester also keeps the fragment, noted as a torn write.
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    let r = rec("gemini", "s", "deny", 5, 1);
    let mut glued = b"{\"id\":\"0001-dead\",".to_vec();
    glued.extend(record::encode_line(&r).unwrap());
    write_torn(&dir.path().join("spool/current.jsonl"), &glued);
    assert_eq!(all(&store), vec![r]);
    let notes = rejected_notes(store.rejected_path());
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].why, RejectReason::TornWrite);
    assert_eq!(notes[0].fragment, "{\"id\":\"0001-dead\",");
}

#[test]
fn a_write_to_a_full_disk_is_an_error_not_a_silent_success() {
    // /dev/full fails every write with ENOSPC, for root too.
    if !Path::new("/dev/full").exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "/dev/full is missing under CI"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    std::os::unix::fs::symlink("/dev/full", dir.path().join("spool/current.jsonl")).unwrap();
    let err = store
        .record(&rec("claude", "s", "allow", 1, 1))
        .unwrap_err();
    assert!(err.to_string().contains("current.jsonl"), "{err}");
}

// ---- Typed records, all determining rules (issue 7 item 6, G) ----

const OLD_LINE: &str = r#"{"id":"0000000003e8-00000000000000aa","time_ms":1000,"agent":"claude","session":"s","cwd":"/w","event":"pre_tool_use","tool":"Bash","targets":["git push --force origin main"],"decision":"deny","reason":"protected","rule":"protected-branch","duration_us":7}"#;

#[test]
fn an_old_format_line_with_a_single_rule_still_reads_in_both_backends() {
    let old: Record = serde_json::from_str(OLD_LINE).unwrap();
    assert_eq!(old.rules, ["protected-branch"]);
    assert_eq!(old.decision, RecordDecision::Deny);
    assert_eq!(old.agent, RecordAgent::Known(AgentKind::Claude));
    assert_eq!(
        old.event,
        RecordEvent::Known(hookgate_core::EventId::PreToolUse)
    );
    // Re-encoded: the same words, `rules` instead of `rule`.
    let json = serde_json::to_value(&old).unwrap();
    assert_eq!(json["decision"], "deny");
    assert_eq!(json["agent"], "claude");
    assert_eq!(json["event"], "pre_tool_use");
    assert_eq!(json["rules"], json!(["protected-branch"]));
    assert!(json.get("rule").is_none());
    let nulled: Record =
        serde_json::from_str(&OLD_LINE.replace("\"protected-branch\"", "null")).unwrap();
    assert!(nulled.rules.is_empty());

    for (dir, store) in stores() {
        write_torn(
            &data_file(dir.path(), &store),
            format!("{OLD_LINE}\n").as_bytes(),
        );
        assert_eq!(all(&store), vec![old.clone()], "{:?}", store.path());
        let stats = store.stats(&Filter::default()).unwrap();
        assert_eq!(stats.by_rule.get("protected-branch"), Some(&1));
    }
}

#[test]
fn a_version_one_sqlite_store_is_migrated_and_its_rule_reads_as_rules() {
    let dir = tempfile::tempdir().unwrap();
    {
        let conn = rusqlite::Connection::open(dir.path().join("audit.db")).unwrap();
        conn.execute_batch(sqlite::MIGRATIONS[0]).unwrap();
        conn.execute_batch(
            "INSERT INTO records VALUES ('a', 1, 'claude', 's', '/w', 'pre_tool_use', 'Bash', \
             NULL, '[]', 'deny', 'r', 'protected-branch', 5, NULL, 'null');
             INSERT INTO records VALUES ('b', 2, 'codex', 's', '/w', 'pre_tool_use', 'Bash', \
             NULL, '[]', 'allow', NULL, NULL, 5, NULL, 'null');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    let rs = all(&store);
    assert_eq!(rs.len(), 2);
    assert_eq!(rs[1].rules, ["protected-branch"]);
    assert!(rs[0].rules.is_empty());
    assert_eq!(rs[0].decision, RecordDecision::Allow);
    assert_eq!(
        store
            .stats(&Filter::default())
            .unwrap()
            .by_rule
            .into_iter()
            .collect::<Vec<_>>(),
        [("protected-branch".to_owned(), 1)]
    );
    // New records carry several ids next to the migrated ones.
    let mut r = rec("claude", "s", "deny", 3, 1);
    r.rules = vec!["no-force-push".into(), "protected-branch".into()];
    store.record(&r).unwrap();
    assert_eq!(store.get(&r.id).unwrap().unwrap().rules, r.rules);
    let conn = rusqlite::Connection::open(dir.path().join("audit.db")).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, sqlite::schema_version());
}

#[test]
fn stats_count_each_determining_rule_once_per_record() {
    for (_dir, store) in stores() {
        let mut a = rec("claude", "s", "deny", 1, 1);
        a.rules = vec![
            "protected-branch".into(),
            "no-force-push".into(),
            "protected-branch".into(),
        ];
        let mut b = rec("claude", "s", "deny", 2, 1);
        b.rules = vec!["protected-branch".into()];
        store.record(&a).unwrap();
        store.record(&b).unwrap();
        let stats = store.stats(&Filter::default()).unwrap();
        assert_eq!(stats.by_rule.get("protected-branch"), Some(&2));
        assert_eq!(stats.by_rule.get("no-force-push"), Some(&1));
    }
}

#[test]
fn agents_and_events_this_build_does_not_know_are_kept_verbatim() {
    for (_dir, store) in stores() {
        let r = Record::new("aider", "s", "brand_new_event");
        assert_eq!(r.agent, RecordAgent::Unknown("aider".into()));
        assert_eq!(r.event, RecordEvent::Unknown("brand_new_event".into()));
        store.record(&r).unwrap();
        assert_eq!(all(&store), vec![r.clone()]);
        let only_claude = Filter {
            agent: Some(AgentKind::Claude),
            ..Filter::default()
        };
        assert!(store.query(&only_claude).unwrap().is_empty());
    }
}

#[test]
fn a_decision_word_no_hookgate_wrote_is_an_error_not_a_guess() {
    let bad = OLD_LINE.replace("\"deny\"", "\"maybe\"");
    assert!(serde_json::from_str::<Record>(&bad).is_err());
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Jsonl).unwrap();
    write_torn(store.path(), format!("{bad}\n").as_bytes());
    let err = store.query(&Filter::default()).unwrap_err().to_string();
    assert!(err.contains("audit.jsonl line 1"), "{err}");
}

// ---- A store that cannot be written (issue 7 item 9, F) ----

/// A path that cannot become a directory, for root too: its parent is a regular file, so
/// every create under it fails with ENOTDIR (chmod 0555 would not stop root).
fn unwritable_home(root: &Path) -> PathBuf {
    let file = root.join("a-regular-file");
    fs::write(&file, "not a directory").unwrap();
    file.join("home")
}

#[test]
fn unstored_records_are_kept_counted_and_reported_once_per_session() {
    let dir = tempfile::tempdir().unwrap();
    let unstored = Unstored::with_dirs(vec![dir.path().to_owned()]);
    assert_eq!(unstored.summary().unwrap(), UnstoredSummary::default());
    assert_eq!(unstored.summary().unwrap().notice(), None);
    let mut a1 = rec("claude", "session-a", "deny", 1, 1);
    a1.reason = Some(format!("key {AWS_KEY}"));
    let a2 = rec("claude", "session-a", "allow", 2, 1);
    let b1 = rec("codex", "session-b", "ask", 3, 1);
    let kept: Vec<Kept> = [&a1, &a2, &b1]
        .iter()
        .map(|r| unstored.keep(r, "disk full"))
        .collect();
    assert_eq!(
        kept.iter().map(|k| k.first_in_session).collect::<Vec<_>>(),
        [true, false, true]
    );
    let fallback = dir.path().join("audit-fallback.jsonl");
    for k in &kept {
        assert!(k.counted);
        assert_eq!(k.fallback.as_deref(), Some(fallback.as_path()));
    }
    let summary = unstored.summary().unwrap();
    assert_eq!(summary.count, 3);
    assert_eq!(summary.fallback_files, std::slice::from_ref(&fallback));
    assert_eq!(
        summary.notice().unwrap(),
        format!(
            "3 record(s) could not be stored (see {})",
            fallback.display()
        )
    );
    let back: Vec<Record> = unstored
        .records()
        .unwrap()
        .into_iter()
        .map(|f| f.record)
        .collect();
    assert_eq!(back.len(), 3);
    assert_eq!(back[0].reason.as_deref(), Some("key [REDACTED]"));
    assert_eq!(back[2], b1);
    for file in files_under(dir.path()) {
        let text = fs::read(&file).unwrap();
        assert!(!String::from_utf8_lossy(&text).contains(AWS_KEY));
    }
}

#[test]
fn unstored_goes_to_the_next_location_when_the_home_cannot_be_created() {
    let dir = tempfile::tempdir().unwrap();
    let home = unwritable_home(dir.path());
    let runtime = dir.path().join("run");
    let unstored = Unstored::with_dirs(vec![home, runtime.clone()]);
    let kept = unstored.keep(&rec("claude", "s", "deny", 1, 1), "cannot create");
    assert!(kept.first_in_session && kept.counted);
    assert_eq!(kept.fallback, Some(runtime.join("audit-fallback.jsonl")));
    assert_eq!(unstored.summary().unwrap().count, 1);
    assert_eq!(unstored.records().unwrap().len(), 1);
}

#[test]
fn unstored_locations_are_home_then_runtime_dir_then_a_private_temp_dir_keyed_by_home() {
    let env = |name: &str| (name == "XDG_RUNTIME_DIR").then(|| OsString::from("/run/user/7"));
    let a = Unstored::from_env(Path::new("/h/a"), env, Path::new("/tmp"), 7);
    let b = Unstored::from_env(Path::new("/h/b"), |_| None, Path::new("/tmp"), 7);
    assert_eq!(a.dirs().len(), 3);
    assert_eq!(a.dirs()[0], Path::new("/h/a"));
    assert!(a.dirs()[1].starts_with("/run/user/7/hookgate"));
    assert!(a.dirs()[2].starts_with("/tmp/hookgate-7"));
    assert_eq!(b.dirs().len(), 2, "no runtime dir, no runtime location");
    assert_ne!(a.dirs()[2], b.dirs()[1], "two homes never share a location");
}

#[test]
fn a_shared_temp_location_open_to_others_is_refused_and_the_failure_still_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let uid = rustix::process::getuid().as_raw();
    let planted = dir.path().join(format!("hookgate-{uid}"));
    fs::create_dir(&planted).unwrap();
    fs::set_permissions(&planted, fs::Permissions::from_mode(0o777)).unwrap();
    let home = unwritable_home(dir.path());
    let unstored = Unstored::from_env(&home, |_| None, dir.path(), uid);
    let kept = unstored.keep(&rec("claude", "s", "deny", 1, 1), "x");
    assert_eq!(kept.fallback, None);
    assert!(!kept.counted);
    assert!(
        kept.first_in_session,
        "nothing could be marked: every call reports, none is silent"
    );
    assert!(files_under(&planted).is_empty(), "nothing written there");
}

#[test]
fn exactly_one_concurrent_failure_of_a_session_is_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let home = Arc::new(dir.path().to_owned());
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let home = Arc::clone(&home);
            std::thread::spawn(move || {
                Unstored::with_dirs(vec![(*home).clone()])
                    .keep(&rec("claude", "same", "allow", t, 1), "x")
                    .first_in_session
            })
        })
        .collect();
    let firsts = threads
        .into_iter()
        .map(|t| t.join().unwrap())
        .filter(|first| *first)
        .count();
    assert_eq!(firsts, 1);
    let unstored = Unstored::with_dirs(vec![(*home).clone()]);
    assert_eq!(unstored.summary().unwrap().count, 8);
    assert_eq!(unstored.records().unwrap().len(), 8);
}

#[test]
fn check_writable_passes_on_a_fresh_home_and_leaves_no_probe_behind() {
    for backend in [Backend::Sqlite, Backend::Jsonl] {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("new-home");
        Store::check_writable(&home, backend).unwrap();
        assert!(files_under(&home).is_empty(), "{:?}", files_under(&home));
        // And on a store in use.
        let store = Store::open(&home, backend).unwrap();
        store.record(&rec("claude", "s", "allow", 1, 1)).unwrap();
        Store::check_writable(&home, backend).unwrap();
    }
}

#[test]
fn check_writable_fails_naming_the_path_when_the_home_cannot_be_created() {
    let dir = tempfile::tempdir().unwrap();
    let home = unwritable_home(dir.path());
    for backend in [Backend::Sqlite, Backend::Jsonl] {
        let err = Store::check_writable(&home, backend)
            .unwrap_err()
            .to_string();
        assert!(err.contains(&home.display().to_string()), "{err}");
    }
}

#[test]
fn check_writable_fails_when_a_data_file_cannot_be_opened_for_writing() {
    // A directory where `audit.db` should be: no open for writing succeeds, for root too.
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("audit.db")).unwrap();
    let err = Store::check_writable(dir.path(), Backend::Sqlite)
        .unwrap_err()
        .to_string();
    assert!(err.contains("audit.db"), "{err}");
}

#[test]
fn readers_backend_follows_hookgate_store_and_rejects_typos() {
    assert_eq!(Backend::for_readers(None), Some(Backend::Sqlite));
    assert_eq!(Backend::for_readers(Some("")), Some(Backend::Sqlite));
    assert_eq!(Backend::for_readers(Some("off")), Some(Backend::Sqlite));
    assert_eq!(Backend::for_readers(Some("JSONL")), Some(Backend::Jsonl));
    assert_eq!(Backend::for_readers(Some("sqlite")), Some(Backend::Sqlite));
    assert_eq!(Backend::for_readers(Some("jsnol")), None);
}

#[test]
fn overview_counts_are_the_stats_counts_and_sessions_group_oldest_first() {
    for (dir, writer) in stores() {
        let mut denied = rec("claude", "s1", "deny", 1_000, 30);
        denied.rules = vec!["git.force_push".to_owned()];
        let mut denied_again = rec("codex", "s2", "deny", 4_000, 50);
        denied_again.rules = vec!["git.force_push".to_owned(), "fs.rm_root".to_owned()];
        let records = [
            rec("claude", "s1", "allow", 3_000, 10),
            denied,
            rec("claude", "s1", "ask", 2_000, 20),
            denied_again,
            rec("codex", "s2", "allow", 5_000, 40),
        ];
        for r in &records {
            writer.record(r).unwrap();
        }
        let store = Reader::open(dir.path()).unwrap();
        let filter = Filter::default();
        let overview = store.overview(&filter).unwrap();
        assert_eq!(overview.stats, store.stats(&filter).unwrap());
        assert_eq!(overview.denied.total, 2);
        assert_eq!(overview.denied.by_rule.get("git.force_push"), Some(&2));
        assert_eq!(overview.denied.by_rule.get("fs.rm_root"), Some(&1));
        let sessions: Vec<(&str, &str, usize)> = overview
            .sessions
            .iter()
            .map(|s| (s.agent.as_str(), s.session.as_str(), s.records.len()))
            .collect();
        assert_eq!(sessions, [("claude", "s1", 3), ("codex", "s2", 2)]);
        let s1 = &overview.sessions[0];
        let times: Vec<u64> = s1.records.iter().map(|r| r.time_ms).collect();
        assert_eq!(times, [1_000, 2_000, 3_000], "oldest first");
        assert_eq!((s1.first_ms, s1.last_ms), (1_000, 3_000));
        assert_eq!(
            s1.stats,
            store
                .stats(&Filter {
                    session: Some("s1".to_owned()),
                    ..Filter::default()
                })
                .unwrap(),
            "a session's counts are what `stats --session` says"
        );
        let only_allowed = store
            .overview(&Filter {
                decision: Some(RecordDecision::Allow),
                ..Filter::default()
            })
            .unwrap();
        assert_eq!(only_allowed.stats.total, 2);
        assert_eq!(only_allowed.denied, Stats::default(), "no record is both");
    }
}

#[test]
fn prune_deletes_records_older_than_the_cutoff_in_both_backends() {
    for (_dir, store) in stores() {
        for t in [1000, 2000, 3000, 4000] {
            store.record(&rec("claude", "s", "deny", t, 1)).unwrap();
        }
        assert_eq!(store.prune(Some(2500), None).unwrap(), 2);
        let left: Vec<u64> = all(&store).iter().map(|r| r.time_ms).collect();
        assert_eq!(left, vec![4000, 3000]);
        assert_eq!(store.prune(Some(2500), None).unwrap(), 0, "idempotent");
    }
}

#[test]
fn size_cap_keeps_the_newest_records_that_fit() {
    // JSONL: the file is the records' lines, so the budget is exact.
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Jsonl).unwrap();
    for t in 1..=20 {
        store
            .record(&rec("claude", "s", "allow", t * 1000, 1))
            .unwrap();
    }
    let one = encode_one(&rec("claude", "s", "allow", 1000, 1));
    // Room for five and a half records: the newest five stay.
    let deleted = store.prune(None, Some(one * 5 + one / 2)).unwrap();
    let left: Vec<u64> = all(&store).iter().map(|r| r.time_ms).collect();
    assert_eq!(deleted, 15);
    assert_eq!(left, vec![20_000, 19_000, 18_000, 17_000, 16_000]);
    assert_eq!(store.evicted().unwrap().allow, 15);
}

#[test]
fn the_sqlite_cap_measures_the_database_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    for t in 1..=400 {
        store
            .record(&rec("claude", "s", "allow", t * 1000, 1))
            .unwrap();
    }
    store.ingest().unwrap();
    let full = store.with_db(|db| db.size_bytes()).unwrap();
    let deleted = store.prune(None, Some(full / 2)).unwrap();
    assert!(deleted > 0 && deleted < 400, "{deleted}");
    let pages = store.with_db(|db| db.size_bytes()).unwrap();
    let file = fs::metadata(store.path()).unwrap().len();
    assert!(pages <= full / 2, "{pages} > {}", full / 2);
    assert!(file <= full / 2, "the file on disk shrinks too: {file}");
    let left: Vec<u64> = all(&store).iter().map(|r| r.time_ms).collect();
    let newest: Vec<u64> = (0..left.len() as u64).map(|i| (400 - i) * 1000).collect();
    assert_eq!(left, newest, "the newest records stay");
    assert_eq!(store.evicted().unwrap().allow, deleted as u64);
}

fn encode_one(r: &Record) -> u64 {
    record::encode_line(r).unwrap().len() as u64
}

#[test]
fn find_prefix_reads_ids_literally() {
    for (_dir, store) in stores() {
        let a = rec("claude", "s", "deny", 5000, 1);
        store.record(&a).unwrap();
        assert_eq!(store.find_prefix(&a.id[..14], 5).unwrap()[0].id, a.id);
        assert!(
            store.find_prefix("%", 5).unwrap().is_empty(),
            "LIKE wildcards are text"
        );
    }
}

#[test]
fn one_reader_sees_both_backends_and_resolves_prefixes() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open(dir.path(), Backend::Sqlite).unwrap();
    let jsonl = Store::open(dir.path(), Backend::Jsonl).unwrap();
    let mut a = rec("claude", "s", "deny", 1000, 1);
    a.id = "0000000003e8-aaaa000000000001".to_owned();
    let mut b = rec("codex", "s", "allow", 2000, 1);
    b.id = "0000000007d0-bbbb000000000002".to_owned();
    let mut c = rec("codex", "s", "allow", 2000, 1);
    c.id = "0000000007d0-bbbb000000000003".to_owned();
    sqlite.record(&a).unwrap();
    jsonl.record(&b).unwrap();
    jsonl.record(&c).unwrap();
    let reader = Reader::open(dir.path()).unwrap();
    assert_eq!(reader.query(&Filter::default()).unwrap().len(), 3);
    assert_eq!(reader.stats(&Filter::default()).unwrap().total, 3);
    assert_eq!(reader.find("0000000003e8").unwrap().id, a.id);
    assert!(matches!(
        reader.find("0000000007d0-bbbb"),
        Err(FindError::Ambiguous { .. })
    ));
    assert!(matches!(reader.find("ffff"), Err(FindError::NotFound(_))));
}

#[test]
fn scanned_filters_apply_before_the_limit() {
    for (_dir, store) in stores() {
        let mut inside = rec("claude", "s", "deny", 1000, 1);
        inside.cwd = "/w/a".to_owned();
        store.record(&inside).unwrap();
        for t in 2..10 {
            let mut r = rec("claude", "s", "deny", t * 1000, 1);
            r.cwd = "/w/ab".to_owned();
            store.record(&r).unwrap();
        }
        let mut lifecycle = Record::new("claude", "s", "session_start");
        lifecycle.time_ms = 20_000;
        store.record(&lifecycle).unwrap();
        let f = Filter {
            project: Some(PathBuf::from("/w/a")),
            limit: Some(1),
            ..Filter::default()
        };
        assert_eq!(store.query(&f).unwrap()[0].id, inside.id, "by component");
        let f = Filter {
            hide_lifecycle: true,
            limit: Some(1),
            ..Filter::default()
        };
        assert_eq!(store.query(&f).unwrap()[0].time_ms, 9000);
        let f = Filter {
            text: Some("GIT STATUS".to_owned()),
            ..Filter::default()
        };
        assert_eq!(store.stats(&f).unwrap().total, 9);
    }
}
