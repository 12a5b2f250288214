//! The cost of auditing one hook call.
//!
//! - `record/in_process`: [`Store::record`] on an open store (redaction + one locked append),
//!   with the default 1 MiB ingestion threshold, so the occasional batch ingestion is
//!   amortised into the figure.
//! - `record/in_process_with_secret`: the same record carrying an AWS key, so the redactor's
//!   slow path (regex confirmation and rewrite) is measured too.
//! - `fresh_process/*`: whole processes of the `hookgate-audit-stress` helper: `noop` (the
//!   baseline: the same binary doing nothing), `scanner` (only the first secret scan, which
//!   builds hookgate-secrets' keyword automaton: a hook that scans its payload pays this
//!   anyway), `once` (open + record + drop, the hook's
//!   audit cost) and `once_sync` (the same, then ingest into SQLite at once: what writing to
//!   SQLite directly on the hot path would cost).
//!
//! After criterion, a summary measures the three processes again, interleaved so that load
//! from other work on the machine hits all of them alike, and prints medians and the ratio
//! to the baseline.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use hookgate_audit::{Backend, Record, RecordDecision, Store};

const STRESS: &str = env!("CARGO_BIN_EXE_hookgate-audit-stress");

fn sample() -> Record {
    Record {
        cwd: "/work/project".to_owned(),
        tool: Some("Bash".to_owned()),
        action: Some("shell.exec".to_owned()),
        targets: vec!["cargo test --workspace".to_owned()],
        decision: RecordDecision::Allow,
        rules: vec!["default-allow".to_owned()],
        duration_us: 412,
        trace: serde_json::json!([{ "step": "policy", "us": 120 }, { "step": "invariants", "us": 80 }]),
        ..Record::new("claude", "bench-session", "pre_tool_use")
    }
}

fn in_process(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), Backend::Sqlite).unwrap();
    let plain = sample();
    let mut secret = sample();
    secret.targets = vec!["export AWS_ACCESS_KEY_ID=AKIAZ7XQ3JH2LMN4PQRS".to_owned()];
    let mut group = c.benchmark_group("record");
    group.bench_function("in_process", |b| {
        b.iter(|| store.record(black_box(&plain)).unwrap());
    });
    group.bench_function("in_process_with_secret", |b| {
        b.iter(|| store.record(black_box(&secret)).unwrap());
    });
    group.finish();
}

fn run(args: &[&str]) {
    let status = Command::new(STRESS).args(args).status().unwrap();
    assert!(status.success());
}

fn fresh_process(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_str().unwrap();
    let mut group = c.benchmark_group("fresh_process");
    group
        .sample_size(50)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("noop", |b| b.iter(|| run(&["noop"])));
    group.bench_function("scanner", |b| b.iter(|| run(&["scanner"])));
    group.bench_function("once", |b| b.iter(|| run(&["once", home])));
    let sync_dir = tempfile::tempdir().unwrap();
    let sync_home = sync_dir.path().to_str().unwrap();
    group.bench_function("once_sync", |b| b.iter(|| run(&["once-sync", sync_home])));
    group.finish();
    summary(dir.path(), sync_dir.path());
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn summary(home: &Path, sync_home: &Path) {
    const ROUNDS: usize = 300;
    let (home, sync_home) = (home.to_str().unwrap(), sync_home.to_str().unwrap());
    let kinds: [(&str, Vec<&str>); 4] = [
        ("noop", vec!["noop"]),
        ("scanner", vec!["scanner"]),
        ("once", vec!["once", home]),
        ("once_sync", vec!["once-sync", sync_home]),
    ];
    let mut times: [Vec<Duration>; 4] = Default::default();
    for _ in 0..ROUNDS {
        for (i, (_, args)) in kinds.iter().enumerate() {
            let t = Instant::now();
            run(args);
            times[i].push(t.elapsed());
        }
    }
    let medians: Vec<Duration> = times.into_iter().map(median).collect();
    let base = medians[0].as_secs_f64();
    println!("\nfresh-process medians over {ROUNDS} interleaved rounds:");
    for ((name, _), m) in kinds.iter().zip(&medians) {
        println!(
            "  {name:<10} {:>8.1} µs  ratio to noop {:.2}  (+{:.0} µs)",
            m.as_secs_f64() * 1e6,
            m.as_secs_f64() / base,
            (m.as_secs_f64() - base) * 1e6
        );
    }
}

criterion_group!(benches, in_process, fresh_process);
criterion_main!(benches);
