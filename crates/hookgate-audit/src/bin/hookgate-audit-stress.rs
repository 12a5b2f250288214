//! A helper for the concurrency tests and the benchmark, run as real OS processes.
//!
//! ```text
//! hookgate-audit-stress record HOME COUNT WORKER [INGEST_THRESHOLD_BYTES]
//!     COUNT calls in a row, each like one hook process: open the store, record, bump the
//!     shared session counter, drop the store; every 50th call also queries, so ingestions
//!     race the writers.
//! hookgate-audit-stress call HOME WORKER SEQ [INGEST_THRESHOLD_BYTES]
//!     one such call (call number SEQ), as its own process
//! hookgate-audit-stress once HOME        open + record + drop: one hook call's audit cost
//! hookgate-audit-stress once-sync HOME   the same, then ingest into SQLite at once
//! hookgate-audit-stress scanner          only build the secret scanner (one scan), which a
//!                                        hook that scans its payload pays anyway
//! hookgate-audit-stress noop             the baseline: a process that does nothing
//! ```
//!
//! Exits 1 with the error on stderr on any failure, 2 on bad arguments.

use std::path::Path;
use std::process::ExitCode;

use hookgate_audit::{AuditError, Backend, Filter, Options, Record, RecordDecision, Store};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["noop"] => Ok(()),
        ["scanner"] => {
            std::hint::black_box(hookgate_secrets::scan("/work/project"));
            Ok(())
        }
        ["once", home] => once(Path::new(home), false),
        ["once-sync", home] => once(Path::new(home), true),
        ["call", home, worker, seq, rest @ ..] => match seq.parse() {
            Ok(seq) => call(Path::new(home), &options(rest), worker, seq),
            Err(_) => return usage(),
        },
        ["record", home, count, worker, rest @ ..] => match count.parse::<usize>() {
            Ok(count) => {
                let options = options(rest);
                (0..count).try_for_each(|seq| call(Path::new(home), &options, worker, seq))
            }
            Err(_) => return usage(),
        },
        _ => return usage(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hookgate-audit-stress: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: hookgate-audit-stress record HOME COUNT WORKER [THRESHOLD] | call HOME WORKER SEQ [THRESHOLD] | once HOME | once-sync HOME | scanner | noop"
    );
    ExitCode::from(2)
}

fn options(rest: &[&str]) -> Options {
    let mut options = Options::default();
    if let Some(threshold) = rest.first().and_then(|t| t.parse().ok()) {
        options.ingest_threshold_bytes = threshold;
    }
    options
}

fn sample(worker: &str, seq: usize) -> Record {
    Record {
        cwd: "/work/project".to_owned(),
        tool: Some("Bash".to_owned()),
        action: Some("shell.exec".to_owned()),
        targets: vec![format!("{worker}:{seq}")],
        decision: RecordDecision::Allow,
        rules: vec!["default-allow".to_owned()],
        duration_us: 400 + (seq % 100) as u64,
        trace: serde_json::json!([{ "step": "policy", "us": 120 }, { "step": "invariants", "us": 80 }]),
        ..Record::new("claude", format!("session-{worker}"), "pre_tool_use")
    }
}

fn once(home: &Path, sync: bool) -> Result<(), AuditError> {
    let store = Store::open(home, Backend::Sqlite)?;
    store.record(&sample("bench", 0))?;
    if sync {
        store.ingest()?;
    }
    Ok(())
}

/// One hook call's worth of store traffic, with a store of its own.
fn call(home: &Path, options: &Options, worker: &str, seq: usize) -> Result<(), AuditError> {
    let store = Store::open_with(home, options.clone())?;
    store.record(&sample(worker, seq))?;
    store.update_session_state("shared", |state| {
        let n = state["count"].as_u64().unwrap_or(0);
        state["count"] = (n + 1).into();
    })?;
    if seq % 50 == 49 {
        store.query(&Filter {
            limit: Some(5),
            ..Filter::default()
        })?;
    }
    Ok(())
}
