//! Throughput of `scan` on source code without secrets and with some, and the cold start of a
//! per-call process (prefilter build + first scan, including the lazy regex compiles).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hookgate_secrets::{Scanner, redact, scan};

/// Real Rust source (this crate and its sibling), repeated to `size` bytes.
fn clean_source(size: usize) -> String {
    let parts = [
        include_str!("../src/engine.rs"),
        include_str!("../src/redact.rs"),
        include_str!("../src/validate.rs"),
        include_str!("../src/lib.rs"),
        include_str!("../../hookgate-paths/src/lexical.rs"),
        include_str!("../../hookgate-paths/src/resolve.rs"),
        include_str!("../../hookgate-paths/src/catalog.rs"),
        include_str!("../../hookgate-paths/src/glob.rs"),
        include_str!("../build.rs"),
    ];
    let mut s = String::with_capacity(size + 64 * 1024);
    while s.len() < size {
        for p in parts {
            s.push_str(p);
        }
    }
    s
}

fn fake_secrets() -> Vec<String> {
    // Deterministic pseudo-random bodies; none of these are real credentials.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rand = |alphabet: &[u8], n: usize| -> String {
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[usize::try_from(x % alphabet.len() as u64).unwrap_or(0)] as char
            })
            .collect()
    };
    let a62 = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let b32 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let hex = b"0123456789abcdef";
    vec![
        format!("let key = \"AKIA{}\";\n", rand(b32, 16)),
        format!("DATABASE_URL=postgres://app:{}@db:5432/x\n", rand(a62, 14)),
        format!(
            "SLACK=xoxb-{}-{}-{}\n",
            rand(b"0123456789", 12),
            rand(b"0123456789", 13),
            rand(a62, 24)
        ),
        format!("stripe = \"sk_live_{}\"\n", rand(a62, 32)),
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}\n{}\n-----END RSA PRIVATE KEY-----\n",
            rand(a62, 64),
            rand(a62, 64)
        ),
        format!("ANTHROPIC_API_KEY=sk-ant-api03-{}AA\n", rand(a62, 93)),
        format!("dop_v1_{}\n", rand(hex, 64)),
    ]
}

fn with_secrets(size: usize) -> String {
    let clean = clean_source(size);
    let secrets = fake_secrets();
    let mut out = String::with_capacity(clean.len() + 64 * 1024);
    let mut i = 0;
    for line in clean.split_inclusive('\n') {
        out.push_str(line);
        if out.len() / 4096 > i {
            i += 1;
            out.push_str(&secrets[i % secrets.len()]);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let size = 4 << 20;
    let clean = clean_source(size);
    assert!(
        scan(&clean).is_empty(),
        "the clean corpus must have no findings"
    );
    let dirty = with_secrets(size);
    let found = scan(&dirty).len();
    assert!(found > 500, "{found}");

    let mut g = c.benchmark_group("scan");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(clean.len() as u64));
    g.bench_function("source_code_clean_4MiB", |b| {
        b.iter(|| scan(black_box(&clean)));
    });
    g.throughput(Throughput::Bytes(dirty.len() as u64));
    g.bench_function("source_code_secret_every_4KiB", |b| {
        b.iter(|| scan(black_box(&dirty)));
    });
    g.bench_function("redact_secret_every_4KiB", |b| {
        b.iter(|| redact(black_box(&dirty)).len());
    });
    g.finish();

    // What a hook process pays once: build the prefilter on the first scan of a typical
    // 3 KiB tool input, with two secrets (two regexes compile) or none.
    let small = format!(
        "{}{}{}",
        &clean[..3000],
        fake_secrets()[0],
        fake_secrets()[1]
    );
    let mut g = c.benchmark_group("cold_start");
    g.bench_function("first_scan_3KiB_clean", |b| {
        b.iter(|| Scanner::new().scan(black_box(&clean[..3072])).len());
    });
    g.bench_function("first_scan_3KiB_2_secrets", |b| {
        b.iter(|| Scanner::new().scan(black_box(&small)).len());
    });
    g.bench_function("first_scan_4MiB_clean_dfa", |b| {
        b.iter(|| Scanner::new().scan(black_box(&clean)).len());
    });
    g.bench_function("warm_scan_3KiB_2_secrets", |b| {
        b.iter(|| scan(black_box(&small)).len());
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
