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

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn missing(why: &str) {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    assert!(
        !ci,
        "the OTLP test cannot run under CI: {why} (run .ci/setup-test-tools)"
    );
    eprintln!("skipping the OTLP test: {why} (run .ci/setup-test-tools)");
}

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
        missing(&format!(
            "{} cannot import opentelemetry-proto",
            python.display()
        ));
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

struct Env {
    root: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        for dir in ["work", "config"] {
            std::fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        Self { root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    fn command(&self, args: &[&str], otel: &[(&str, &str)]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hookgate"));
        c.args(args)
            .current_dir(self.path("work"))
            .env("HOOKGATE_HOME", self.path("home"))
            .env("HOOKGATE_CONFIG_DIR", self.path("config"))
            .env("XDG_RUNTIME_DIR", self.path("run"))
            .env("TMPDIR", self.path("tmp"))
            .env_remove("HOOKGATE_STORE")
            .env_remove("HOOKGATE_FAIL_MODE")
            .env_remove("HOOKGATE_EVENT")
            .env_remove("HOOKGATE_WEBHOOK_URL");
        for (name, _) in std::env::vars() {
            if name.starts_with("OTEL_") {
                c.env_remove(name);
            }
        }
        for (name, value) in otel {
            c.env(name, value);
        }
        c
    }

    fn hook(&self, session: &str, command: &str, otel: &[(&str, &str)]) -> Output {
        let payload = serde_json::json!({
            "session_id": session, "transcript_path": "/t", "cwd": self.path("work"),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "toolu_1"
        });
        self.with_stdin(
            &["hook", "claude"],
            otel,
            &serde_json::to_vec(&payload).unwrap(),
        )
    }

    fn with_stdin(&self, args: &[&str], otel: &[(&str, &str)], stdin: &[u8]) -> Output {
        let mut child = self
            .command(args, otel)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        child.wait_with_output().unwrap()
    }

    /// The stored records, by id.
    fn records(&self) -> Vec<Value> {
        let out = self.command(&["log", "--json"], &[]).output().unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    }
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
    let denied = env.hook("fleet-session", "git push --force origin main", &otel);
    assert_eq!(
        denied.status.code(),
        Some(0),
        "claude's deny is JSON on exit 0"
    );
    env.hook("fleet-session", "git status", &otel);

    let items = receiver.wait_for(4);
    assert_eq!(items.len(), 4, "two spans and two log records: {items:#?}");
    let records = env.records();
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
    let first = env.with_stdin(
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

    let second = env.with_stdin(
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
    let out = env.with_stdin(
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
