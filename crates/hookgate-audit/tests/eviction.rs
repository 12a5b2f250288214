//! The size cap keeps the evidence (issue 7): past the cap, allowed and no-opinion records are
//! evicted before any denial, ask or error, and every eviction is counted in the store. Real
//! SQLite and JSONL files; the store applies the cap by itself, as it does under hooks.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use hookgate_audit::{
    Backend, Evicted, Filter, Options, Reader, Record, RecordDecision, Store, new_id,
};

/// A Bash call made at `time_ms` with `decision`; `pad` bytes of command make it large.
fn call(time_ms: u64, decision: RecordDecision, pad: usize) -> Record {
    let mut r = Record::new("claude", "s", "pre_tool_use");
    r.time_ms = time_ms;
    r.id = new_id(time_ms);
    r.decision = decision;
    r.tool = Some("Bash".to_owned());
    r.targets = vec![format!("echo {}", "x".repeat(pad))];
    r
}

fn capped(home: &Path, backend: Backend, max: u64) -> Store {
    Store::open_with(
        home,
        Options {
            backend,
            max_bytes: Some(max),
            // One ingestion, when the test reads: the cap then runs once over everything.
            ingest_threshold_bytes: u64::MAX,
            ..Options::default()
        },
    )
    .unwrap()
}

fn uncapped(home: &Path, backend: Backend) -> Store {
    Store::open_with(
        home,
        Options {
            backend,
            max_bytes: None,
            ..Options::default()
        },
    )
    .unwrap()
}

/// The oldest records are the evidence: 3 denials, an ask and an error, then 200 large
/// allowed calls and a few lifecycle rows.
fn fill(store: &Store) {
    let evidence = [
        RecordDecision::Deny,
        RecordDecision::Ask,
        RecordDecision::Deny,
        RecordDecision::Error,
        RecordDecision::Deny,
    ];
    for (t, d) in (1..).zip(evidence) {
        store.record(&call(t * 1000, d, 10)).unwrap();
    }
    for t in 10..210 {
        store
            .record(&call(t * 1000, RecordDecision::Allow, 2000))
            .unwrap();
        if t % 50 == 0 {
            let mut start = Record::new("claude", "s", "session_start");
            start.time_ms = t * 1000 + 1;
            start.id = new_id(start.time_ms);
            store.record(&start).unwrap();
        }
    }
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

/// A store file and its WAL, if any (nothing checkpoints an uncapped database).
fn on_disk(path: &Path) -> u64 {
    let wal = path.with_extension("db-wal");
    file_size(path) + if wal.exists() { file_size(&wal) } else { 0 }
}

fn count(records: &[Record], decision: RecordDecision) -> u64 {
    records.iter().filter(|r| r.decision == decision).count() as u64
}

#[test]
fn denials_outlive_allowed_records_under_the_size_cap() {
    for backend in [Backend::Sqlite, Backend::Jsonl] {
        // The size the full store takes, to set the cap at a third of it.
        let probe = tempfile::tempdir().unwrap();
        let full = uncapped(probe.path(), backend);
        fill(&full);
        full.ingest().unwrap();
        let max = on_disk(full.path()) / 3;

        let dir = tempfile::tempdir().unwrap();
        let store = capped(dir.path(), backend, max);
        fill(&store);
        let left = store.query(&Filter::default()).unwrap();
        assert!(
            file_size(store.path()) <= max,
            "{backend:?}: the file is within the cap: {} > {max}",
            file_size(store.path())
        );
        assert_eq!(count(&left, RecordDecision::Deny), 3, "{backend:?}");
        assert_eq!(count(&left, RecordDecision::Ask), 1, "{backend:?}");
        assert_eq!(count(&left, RecordDecision::Error), 1, "{backend:?}");
        let allowed = count(&left, RecordDecision::Allow);
        assert!(allowed > 0 && allowed < 200, "{backend:?}: {allowed}");
        // The allowed calls that stayed are the newest ones.
        let oldest_allowed = left
            .iter()
            .filter(|r| r.decision == RecordDecision::Allow)
            .map(|r| r.time_ms)
            .min()
            .unwrap();
        assert_eq!(oldest_allowed, (210 - allowed) * 1000, "{backend:?}");
        let lifecycle = count(&left, RecordDecision::None);
        let evicted = store.evicted().unwrap();
        assert_eq!(
            evicted,
            Evicted {
                allow: 200 - allowed,
                none: 4 - lifecycle,
                ..Evicted::default()
            },
            "{backend:?}"
        );
        assert_eq!(evicted.notice(), None, "no evidence went: {backend:?}");
        assert_eq!(
            Reader::open(dir.path()).unwrap().evicted().unwrap(),
            evicted
        );
    }
}

#[test]
fn denials_are_evicted_oldest_first_only_when_nothing_else_is_left_and_are_counted() {
    for backend in [Backend::Sqlite, Backend::Jsonl] {
        let dir = tempfile::tempdir().unwrap();
        let store = uncapped(dir.path(), backend);
        for t in 1..=40 {
            let decision = if t % 2 == 0 {
                RecordDecision::Deny
            } else {
                RecordDecision::Allow
            };
            store.record(&call(t * 1000, decision, 500)).unwrap();
        }
        let before = store.query(&Filter::default()).unwrap();
        assert_eq!(before.len(), 40);
        // A tiny cap: the allowed calls go, then the oldest denials.
        let deleted = store.prune(None, Some(12 * 1024)).unwrap();
        let left = store.query(&Filter::default()).unwrap();
        assert_eq!(count(&left, RecordDecision::Allow), 0, "{backend:?}");
        let denials = count(&left, RecordDecision::Deny);
        assert!(denials < 20, "{backend:?}: {denials}");
        let newest_denials: Vec<u64> = (0..denials).map(|i| (40 - 2 * i) * 1000).collect();
        let times: Vec<u64> = left.iter().map(|r| r.time_ms).collect();
        assert_eq!(
            times, newest_denials,
            "{backend:?}: the newest denials stay"
        );
        let evicted = store.evicted().unwrap();
        assert_eq!(evicted.total(), deleted as u64, "{backend:?}");
        assert_eq!(evicted.allow, 20, "{backend:?}");
        assert_eq!(evicted.deny, 20 - denials, "{backend:?}");
        let notice = evicted.notice().unwrap();
        assert!(notice.contains("deny"), "{notice}");
        // Counts add up across evictions.
        store.prune(None, Some(0)).unwrap();
        assert!(store.query(&Filter::default()).unwrap().is_empty());
        assert_eq!(store.evicted().unwrap().deny, 20, "{backend:?}");
    }
}
