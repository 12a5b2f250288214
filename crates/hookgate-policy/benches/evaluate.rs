//! Load + evaluate costs of the embedded default policy, as a hook process pays them
//! (excluding process start). Target: well under 100 µs for a typical Bash call.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    missing_docs,
    reason = "bench code"
)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use hookgate_agents::call_for_tool;
use hookgate_core::{AgentKind, CanonicalCall};
use hookgate_policy::{Ctx, Policy, SessionState};
use serde_json::json;

fn call(tool: &str, input: &serde_json::Value) -> CanonicalCall {
    call_for_tool(
        AgentKind::Claude,
        "/work/proj",
        tool,
        input.as_object().unwrap(),
    )
    .unwrap()
}

fn bench(c: &mut Criterion) {
    let ctx = Ctx::new("/work/proj", Some(PathBuf::from("/home/u"))).with_branch("feature");
    let state = SessionState::default();
    let typical = call(
        "Bash",
        &json!({"command": "cargo test -p core && git status"}),
    );
    let git_status = call("Bash", &json!({"command": "git status"}));
    let denied = call("Bash", &json!({"command": "sudo bash -c 'rm -rf ~'"}));
    let heredoc = call(
        "Bash",
        &json!({"command": "git add -A && git commit -m \"$(cat <<'EOF'\nfix: handle rm -rf in docs\nEOF\n)\""}),
    );
    let write = call(
        "Write",
        &json!({"file_path": "src/lib.rs", "content": "pub fn f() {}\n".repeat(40)}),
    );

    c.bench_function("load_default_and_evaluate/bash_git_status", |b| {
        b.iter(|| {
            let p = Policy::builtin_default();
            black_box(p.evaluate(black_box(&git_status), &ctx, &state))
        });
    });
    c.bench_function("load_default_and_evaluate/bash_typical", |b| {
        b.iter(|| {
            let p = Policy::builtin_default();
            black_box(p.evaluate(black_box(&typical), &ctx, &state))
        });
    });
    let p = Policy::builtin_default();
    c.bench_function("evaluate/bash_denied", |b| {
        b.iter(|| black_box(p.evaluate(black_box(&denied), &ctx, &state)));
    });
    c.bench_function("evaluate/bash_heredoc_commit", |b| {
        b.iter(|| black_box(p.evaluate(black_box(&heredoc), &ctx, &state)));
    });
    c.bench_function("evaluate/write_source_file", |b| {
        b.iter(|| black_box(p.evaluate(black_box(&write), &ctx, &state)));
    });
    let project = "version: 1\nprotected_branches: [main, release/*]\ninvariants: {commit-scope-guard: on}\nrules:\n  - {id: no-curl, command: curl, effect: ask}\n  - {id: secrets, action: 'file.*', paths: ['secrets/**'], effect: deny}\n  - {id: tests, command: cargo test, effect: allow}\n";
    c.bench_function("from_yaml/small_project_policy", |b| {
        b.iter(|| black_box(Policy::from_yaml(black_box(project), None).unwrap()));
    });
    c.bench_function(
        "paths_catalog_load (once per process, file calls only)",
        |b| {
            b.iter(|| black_box(hookgate_paths::Catalog::load()));
        },
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
