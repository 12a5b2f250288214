//! The store under many real hook processes at once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;
use std::process::{Command, Stdio};
use std::time::Instant;

use hookgate_audit::{Backend, Filter, Store};

const PROCESSES: usize = 8;
const CALLS: usize = 500;

/// 8 processes × 500 calls, each call a fresh `Store` (open, record, session-state update,
/// drop), every 50th call also a query. The ingestion threshold is small (16 KiB, about 40
/// records) so spool rotations race the writers hundreds of times.
fn stress_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hookgate-audit-stress"))
}

#[test]
fn eight_processes_lose_no_record_and_no_session_update_and_never_see_database_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_str().unwrap();
    let started = Instant::now();
    let children: Vec<_> = (0..PROCESSES)
        .map(|w| {
            stress_bin()
                .args([
                    "record",
                    home,
                    &CALLS.to_string(),
                    &format!("w{w}"),
                    "16384",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("locked"), "{stderr}");
        assert!(out.status.success(), "worker failed: {stderr}");
    }
    eprintln!("{} calls in {:?}", PROCESSES * CALLS, started.elapsed());
    verify(dir.path());
}

/// The same load as 4000 separate processes, 8 running at any time: every call pays the
/// whole process lifecycle, as with a real agent.
#[test]
fn four_thousand_hook_processes_eight_at_a_time_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_str().unwrap().to_owned();
    let started = Instant::now();
    let lanes: Vec<_> = (0..PROCESSES)
        .map(|w| {
            let home = home.clone();
            std::thread::spawn(move || {
                for seq in 0..CALLS {
                    let out = stress_bin()
                        .args(["call", &home, &format!("w{w}"), &seq.to_string(), "16384"])
                        .output()
                        .unwrap();
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    assert!(!stderr.contains("locked"), "{stderr}");
                    assert!(out.status.success(), "call w{w}:{seq} failed: {stderr}");
                }
            })
        })
        .collect();
    for lane in lanes {
        lane.join().unwrap();
    }
    eprintln!("{} processes in {:?}", PROCESSES * CALLS, started.elapsed());
    verify(dir.path());
}

fn verify(home: &std::path::Path) {
    let store = Store::open(home, Backend::Sqlite).unwrap();
    let records = store.query(&Filter::default()).unwrap();
    assert_eq!(records.len(), PROCESSES * CALLS);
    let ids: HashSet<&str> = records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids.len(), PROCESSES * CALLS, "ids are unique");
    let seen: HashSet<&str> = records.iter().map(|r| r.targets[0].as_str()).collect();
    for w in 0..PROCESSES {
        for seq in 0..CALLS {
            assert!(
                seen.contains(format!("w{w}:{seq}").as_str()),
                "w{w}:{seq} lost"
            );
        }
        let per_session = store
            .query(&Filter {
                session: Some(format!("session-w{w}")),
                ..Filter::default()
            })
            .unwrap();
        assert_eq!(per_session.len(), CALLS);
    }
    assert_eq!(
        store.session_state("shared").unwrap()["count"],
        PROCESSES * CALLS
    );
    let stats = store.stats(&Filter::default()).unwrap();
    assert_eq!(stats.total, (PROCESSES * CALLS) as u64);
    let leftovers: Vec<_> = std::fs::read_dir(home.join("spool"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "ingest.lock")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
