#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::format_push_string,
    reason = "benchmark code"
)]
//! In-process dispatch costs, and what start-up pays for a config it mostly does not use.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use hookgate_core::{EventId, HookInput, HookResponse};
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use hookgate_engine::{Engine, HookEntry, HooksConfig, RuntimeSpec};
use serde_json::json;

fn input() -> HookInput {
    HookInput::from_value(json!({
        "session_id": "s", "cwd": "/work", "tool_name": "shell",
        "tool_input": {"cmd": "cargo test --workspace", "cwd": "."}
    }))
    .unwrap_or_default()
}

fn ten(runtime: impl Fn(usize) -> RuntimeSpec) -> Engine {
    let entries = (0..10)
        .map(|i| HookEntry::new(format!("h{i}"), EventId::PreToolUse, runtime(i)))
        .collect();
    Engine::new(HooksConfig {
        entries,
        ..HooksConfig::default()
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn dispatch(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let in_process = ten(|_| RuntimeSpec::InProcess {
        handler: "noop".into(),
    });
    in_process.register_in_process(
        "noop",
        Arc::new(|_| Box::pin(async { Ok(HookResponse::default()) })),
    );
    let builtins = ten(|_| RuntimeSpec::Builtin {
        name: "noop".into(),
        args: vec![],
        env: std::collections::BTreeMap::default(),
        working_dir: None,
    });
    let empty = Engine::new(HooksConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut group = c.benchmark_group("dispatch_pre_tool_use");
    group.bench_function("no_hooks", |b| {
        b.iter(|| rt.block_on(empty.dispatch(EventId::PreToolUse, black_box(input()))));
    });
    group.bench_function("10_in_process_hooks", |b| {
        b.iter(|| rt.block_on(in_process.dispatch(EventId::PreToolUse, black_box(input()))));
    });
    group.bench_function("10_builtin_noop_hooks", |b| {
        b.iter(|| rt.block_on(builtins.dispatch(EventId::PreToolUse, black_box(input()))));
    });
    group.finish();
}

/// A realistic larger config: 49 hooks over the 7 tool events, each with a matcher alternation.
fn big_config() -> String {
    let events = [
        "pre_tool_use",
        "post_tool_use",
        "tool_guard",
        "permission_request",
        "tool_input_transform",
        "tool_response_transform",
        "on_tool_approval_decision",
    ];
    let mut text = String::from("hooks:\n");
    for (i, event) in events.iter().enumerate() {
        text.push_str(&format!("  {event}:\n"));
        for j in 0..7 {
            text.push_str(&format!(
                "    - matcher: \"shell|edit_file|write_file|mcp__server{i}{j}__.*|read_(file|dir)\"\n      hooks:\n        - type: builtin\n          command: noop\n          args: [\"{i}{j}\"]\n"
            ));
        }
    }
    text
}

fn startup(c: &mut Criterion) {
    let text = big_config();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let load = || {
        let layer =
            parse_text(&text, Format::Yaml, None, Layer::Code).unwrap_or_else(|e| panic!("{e}"));
        Engine::new(merge(vec![layer]).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let mut group = c.benchmark_group("startup_49_hooks");
    group.bench_function("parse_yaml_only", |b| {
        b.iter(|| {
            black_box(
                parse_text(&text, Format::Yaml, None, Layer::Code)
                    .unwrap_or_else(|e| panic!("{e}")),
            )
        });
    });
    group.bench_function("parse_and_merge", |b| {
        b.iter(|| {
            let layer = parse_text(&text, Format::Yaml, None, Layer::Code)
                .unwrap_or_else(|e| panic!("{e}"));
            black_box(merge(vec![layer]).unwrap_or_else(|e| panic!("{e}")))
        });
    });
    group.bench_function("load_and_validate", |b| b.iter(|| black_box(load())));
    group.bench_function("load_then_fire_a_tool_less_event", |b| {
        b.iter(|| {
            let engine = load();
            rt.block_on(engine.dispatch(
                EventId::SessionStart,
                HookInput::for_event(EventId::SessionStart),
            ))
        });
    });
    group.bench_function("load_then_fire_pre_tool_use", |b| {
        b.iter(|| {
            let engine = load();
            rt.block_on(engine.dispatch(EventId::PreToolUse, input()))
        });
    });
    group.bench_function("compile_all_49_matchers_eagerly", |b| {
        b.iter(|| {
            for i in 0..7 {
                for j in 0..7 {
                    let pattern = format!(
                        "^(?:shell|edit_file|write_file|mcp__server{i}{j}__.*|read_(file|dir))$"
                    );
                    let regex = regex::bytes::RegexBuilder::new(&pattern)
                        .unicode(false)
                        .build();
                    black_box(regex.unwrap_or_else(|e| panic!("{e}")));
                }
            }
        });
    });
    group.finish();
}

criterion_group!(benches, dispatch, startup);
criterion_main!(benches);
