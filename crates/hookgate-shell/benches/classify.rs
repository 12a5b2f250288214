//! Commands classified per second on a realistic agent mix (target: > 100,000/s on one core).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hookgate_shell::{Analyzer, Context};

include!("data/mix.rs");

fn classify(c: &mut Criterion) {
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let mut analyzer = Analyzer::new().expect("grammar loads");
    let mut group = c.benchmark_group("classify");
    group.throughput(Throughput::Elements(MIX.len() as u64));
    group.bench_function("agent_mix", |b| {
        b.iter(|| {
            for command in MIX {
                black_box(analyzer.analyze(black_box(command), &ctx));
            }
        });
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("fresh_analyzer_per_call", |b| {
        b.iter(|| black_box(hookgate_shell::analyze(black_box("git status"), &ctx)));
    });
    group.finish();
}

criterion_group!(benches, classify);
criterion_main!(benches);
