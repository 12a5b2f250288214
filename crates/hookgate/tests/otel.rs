//! OpenTelemetry export through the binary (issue 10 D): `hookgate hook` with the standard
//! `OTEL_EXPORTER_OTLP_*` variables hands each record to a detached `hookgate ship-otel`, which
//! sends a span and a log record over OTLP/HTTP (protobuf) to a real receiver on 127.0.0.1
//! that decodes them with the official protobuf definitions (`otlp_receiver.py`, using the
//! `opentelemetry-proto` package from PyPI installed by `.ci/setup-test-tools` into
//! `target/test-tools/venv`). Where that Python is missing the tests skip with a message —
//! unless `CI` is set: there they fail.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod support;

use support::{Env, missing};

/// `$HOOKGATE_TEST_PYTHON`, or the venv `.ci/setup-test-tools` makes, if it can import the
/// OTLP protobuf definitions.
fn python() -> Option<PathBuf> {
    let python = std::env::var_os("HOOKGATE_TEST_PYTHON").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/test-tools/venv/bin/python3")
        },
        PathBuf::from,
    );
    let ok = Command::new(&python)
        .args([
            "-c",
            "import opentelemetry.proto.collector.logs.v1.logs_service_pb2",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Some(python)
    } else {
        missing(
            "OTLP",
            &format!("{} cannot import opentelemetry-proto", python.display()),
        );
        None
    }
}

/// A running `otlp_receiver.py`, killed on drop.
struct Receiver {
    child: Child,
    port: u16,
    out: PathBuf,
}

impl Receiver {
    fn start(python: &Path, dir: &Path, name: &str, status: u16) -> Self {
        let out = dir.join(format!("{name}.jsonl"));
        let port_file = dir.join(format!("{name}.port"));
        let child = Command::new(python)
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otlp_receiver.py"))
            .arg("--out")
            .arg(&out)
            .arg("--port-file")
            .arg(&port_file)
            .args(["--status", &status.to_string()])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut receiver = Self {
            child,
            port: 0,
            out,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while receiver.port == 0 {
            if let Ok(text) = std::fs::read_to_string(&port_file) {
                receiver.port = text.trim().parse().unwrap();
            } else {
                assert!(Instant::now() < deadline, "the receiver did not start");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        receiver
    }

    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The decoded items so far.
    fn items(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.out)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Waits (bounded) until `n` items arrived: the shipper is detached, so the hook returns
    /// before the export happens.
    fn wait_for(&self, n: usize) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let items = self.items();
            if items.len() >= n || Instant::now() > deadline {
                return items;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `hookgate <args>` with the OTEL variables `otel` and `stdin`.
fn run_with(env: &Env, args: &[&str], otel: &[(&str, &str)], stdin: &[u8]) -> Output {
    let mut command = env.command(args);
    command.envs(otel.iter().copied());
    Env::with_stdin(command, stdin)
}

/// The stored records, newest first.
fn records(env: &Env) -> Vec<Value> {
    serde_json::from_value(env.json(&["log", "--json"])).unwrap()
}

fn by_record<'a>(items: &'a [Value], signal: &str, id: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["signal"] == signal && i["attributes"]["hookgate.record_id"] == id)
        .unwrap_or_else(|| panic!("no {signal} for record {id} in {items:#?}"))
}

#[test]
fn every_hook_call_is_exported_as_a_span_and_a_log_record_with_its_decision() {
    let Some(python) = python() else { return };
    let env = Env::new();
    let receiver = Receiver::start(&python, env.root.path(), "collector", 200);
    let endpoint = receiver.endpoint();
    let otel = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        (
            "OTEL_EXPORTER_OTLP_HEADERS",
            "authorization=Bearer fleet-token",
        ),
    ];
    let hook = |command: &str| {
        let payload = env.pre_tool_use("fleet-session", command);
        run_with(&env, &["hook", "claude"], &otel, &payload)
    };
    let denied = hook("git push --force origin main");
    assert_eq!(
        denied.status.code(),
        Some(0),
        "claude's deny is JSON on exit 0"
    );
    hook("git status");

    let items = receiver.wait_for(4);
    assert_eq!(items.len(), 4, "two spans and two log records: {items:#?}");
    let records = records(&env);
    assert_eq!(records.len(), 2);
    for record in &records {
        let id = record["id"].as_str().unwrap();
        let span = by_record(&items, "span", id);
        let log = by_record(&items, "log", id);
        for item in [span, log] {
            let a = &item["attributes"];
            assert_eq!(a["hookgate.decision"], record["decision"]);
            assert_eq!(a["hookgate.agent"], "claude");
            assert_eq!(a["session.id"], "fleet-session");
            assert_eq!(a["hookgate.duration_us"], record["duration_us"]);
            let rules = record.get("rules").cloned().unwrap_or(Value::Array(vec![]));
            assert_eq!(a["hookgate.rule_ids"], rules, "every determining id");
            assert_eq!(item["resource"]["service.name"], "hookgate");
            assert_eq!(
                item["authorization"], "Bearer fleet-token",
                "OTEL_EXPORTER_OTLP_HEADERS"
            );
        }
        let duration_ns = record["duration_us"].as_u64().unwrap() * 1000;
        assert_eq!(
            span["end_ns"].as_u64().unwrap() - span["start_ns"].as_u64().unwrap(),
            duration_ns,
            "the span lasts the evaluation"
        );
        assert_eq!(
            span["start_ns"].as_u64().unwrap(),
            record["time_ms"].as_u64().unwrap() * 1_000_000
        );
        assert_eq!(
            log["trace_id"], span["trace_id"],
            "the log record is in the span"
        );
        assert_eq!(log["span_id"], span["span_id"]);
        let expected_severity = if record["decision"] == "deny" {
            "WARN"
        } else {
            "INFO"
        };
        assert_eq!(log["severity_text"], expected_severity);
    }
    let deny = records.iter().find(|r| r["decision"] == "deny").unwrap();
    assert!(!deny["rules"].as_array().unwrap().is_empty());
    assert!(!env.path("home/otel/undelivered.jsonl").exists());
}

#[test]
fn undelivered_records_are_kept_and_sent_with_the_next_export() {
    let Some(python) = python() else { return };
    let env = Env::new();
    let down = Receiver::start(&python, env.root.path(), "down", 503);
    let up = Receiver::start(&python, env.root.path(), "up", 200);
    let record = |n: u64| {
        serde_json::json!({
            "id": format!("0000000000{n:02}-00000000000000{n:02}"), "time_ms": 1_700_000_000_000_u64 + n,
            "agent": "codex", "session": "s", "event": "pre_tool_use",
            "decision": "deny", "rules": ["git.force_push"], "duration_us": 10
        })
    };
    let first = run_with(
        &env,
        &["ship-otel"],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &down.endpoint()),
            ("OTEL_EXPORTER_OTLP_TIMEOUT", "3000"),
        ],
        &serde_json::to_vec(&record(1)).unwrap(),
    );
    assert_eq!(first.status.code(), Some(1), "a 503 is a failed export");
    assert!(String::from_utf8_lossy(&first.stderr).contains("503"));
    let backlog = std::fs::read_to_string(env.path("home/otel/undelivered.jsonl")).unwrap();
    assert_eq!(
        backlog.lines().count(),
        1,
        "the record waits for the next shipper"
    );

    let second = run_with(
        &env,
        &["ship-otel"],
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", &up.endpoint())],
        &serde_json::to_vec(&record(2)).unwrap(),
    );
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let items = up.items();
    let spans: Vec<&Value> = items.iter().filter(|i| i["signal"] == "span").collect();
    let mut ids: Vec<&str> = spans
        .iter()
        .map(|s| s["attributes"]["hookgate.record_id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(
        ids,
        [
            "000000000001-0000000000000001",
            "000000000002-0000000000000002"
        ]
    );
    assert!(
        !env.path("home/otel/undelivered.jsonl").exists(),
        "the backlog is gone"
    );
}

#[test]
fn a_protocol_other_than_http_protobuf_is_refused_and_the_record_kept() {
    let env = Env::new();
    let record = serde_json::json!({
        "id": "000000000001-0000000000000001", "time_ms": 1, "agent": "codex", "session": "s",
        "event": "pre_tool_use", "decision": "allow"
    });
    let out = run_with(
        &env,
        &["ship-otel"],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
        ],
        &serde_json::to_vec(&record).unwrap(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("http/protobuf only"));
    assert!(env.path("home/otel/undelivered.jsonl").exists());
}
