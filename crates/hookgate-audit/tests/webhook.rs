//! The webhook sink against a real HTTP server on 127.0.0.1.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hookgate_audit::{AuditError, Record, WebhookConfig, WebhookSink};
use serde_json::Value;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Ok,
    /// Accepts and reads the request, never answers.
    Hang,
}

/// A minimal HTTP/1.1 server: records each request body, answers 200 (keep-alive).
struct Server {
    url: String,
    bodies: Arc<Mutex<Vec<Value>>>,
}

impl Server {
    fn start(mode: Mode) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&bodies);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let sink = Arc::clone(&sink);
                std::thread::spawn(move || serve(stream, &sink, mode));
            }
        });
        Self { url, bodies }
    }

    fn bodies(&self) -> Vec<Value> {
        self.bodies.lock().unwrap().clone()
    }

    fn ids(&self) -> Vec<String> {
        self.bodies()
            .iter()
            .flat_map(|b| b["records"].as_array().unwrap().clone())
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect()
    }
}

fn serve(stream: TcpStream, bodies: &Mutex<Vec<Value>>, mode: Mode) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut length = 0usize;
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        if mode == Mode::Hang {
            std::thread::sleep(Duration::from_secs(30));
            return;
        }
        bodies
            .lock()
            .unwrap()
            .push(serde_json::from_slice(&body).unwrap());
        writer
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
            .unwrap();
    }
}

fn rec(n: usize) -> Record {
    let mut r = Record::new("claude", "s", "pre_tool_use");
    r.targets = vec![format!("call {n}")];
    r
}

/// A port nothing listens on: connections are refused at once.
fn dead_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}/hook", listener.local_addr().unwrap())
}

#[test]
fn records_are_batched_by_size_and_flush_delivers_the_rest() {
    let server = Server::start(Mode::Ok);
    let sink = WebhookSink::start(WebhookConfig {
        batch_size: 10,
        batch_interval: Duration::from_secs(60),
        ..WebhookConfig::new(&server.url)
    })
    .unwrap();
    let sent: Vec<Record> = (0..25).map(rec).collect();
    for r in &sent {
        sink.send(r);
    }
    assert!(sink.flush(Duration::from_secs(5)));
    let sizes: Vec<usize> = server
        .bodies()
        .iter()
        .map(|b| b["records"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [10, 10, 5]);
    assert_eq!(
        server.ids(),
        sent.iter().map(|r| r.id.clone()).collect::<Vec<_>>()
    );
    assert_eq!(server.bodies()[0]["source"], "hookgate");
    assert_eq!(sink.stats().sent, 25);
}

#[test]
fn a_partial_batch_is_sent_once_it_is_old_enough() {
    let server = Server::start(Mode::Ok);
    let sink = WebhookSink::start(WebhookConfig {
        batch_size: 100,
        batch_interval: Duration::from_millis(50),
        ..WebhookConfig::new(&server.url)
    })
    .unwrap();
    (0..3).for_each(|n| sink.send(&rec(n)));
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.ids().len() < 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.bodies().len(), 1, "one batch, sent without a flush");
    assert_eq!(server.ids().len(), 3);
}

#[test]
fn a_hung_endpoint_never_blocks_send_and_drop_is_bounded() {
    let server = Server::start(Mode::Hang);
    let sink = WebhookSink::start(WebhookConfig {
        batch_size: 10,
        queue_capacity: 100,
        request_timeout: Duration::from_secs(20),
        flush_timeout: Duration::from_millis(200),
        ..WebhookConfig::new(&server.url)
    })
    .unwrap();
    let records: Vec<Record> = (0..10_000).map(rec).collect();
    let mut slowest = Duration::ZERO;
    let all = Instant::now();
    for r in &records {
        let t = Instant::now();
        sink.send(r);
        slowest = slowest.max(t.elapsed());
    }
    // The request would hold a blocking sender for 20 s; these bounds only leave room for
    // the scheduler of a loaded 2-core machine.
    assert!(
        slowest < Duration::from_secs(2),
        "one send took {slowest:?}"
    );
    assert!(
        all.elapsed() < Duration::from_secs(10),
        "10k sends took {:?}",
        all.elapsed()
    );
    let stats = sink.stats();
    assert_eq!(stats.queued, 100, "the queue is bounded");
    assert!(
        stats.dropped >= 9_800,
        "oldest records are dropped and counted: {stats:?}"
    );
    let t = Instant::now();
    drop(sink);
    let took = t.elapsed();
    assert!(took < Duration::from_millis(700), "drop took {took:?}");
    assert!(
        took >= Duration::from_millis(190),
        "drop waited its flush budget: {took:?}"
    );
}

#[test]
fn unsent_batches_are_spooled_and_sent_by_a_later_process() {
    let home = tempfile::tempdir().unwrap();
    let first: Vec<Record> = (0..5).map(rec).collect();
    {
        let sink =
            WebhookSink::start(WebhookConfig::new(dead_url()).with_spool(home.path())).unwrap();
        for r in &first {
            sink.send(r);
        }
        assert!(
            sink.flush(Duration::from_secs(5)),
            "a refused POST is handed to the spool"
        );
        let stats = sink.stats();
        assert_eq!(
            (
                stats.sent,
                stats.failed_batches,
                stats.spooled_batches,
                stats.dropped
            ),
            (0, 1, 1, 0)
        );
    }
    let pending = std::fs::read_dir(home.path().join("webhook"))
        .unwrap()
        .count();
    assert_eq!(pending, 1);

    let server = Server::start(Mode::Ok);
    let later = rec(99);
    {
        let sink =
            WebhookSink::start(WebhookConfig::new(&server.url).with_spool(home.path())).unwrap();
        sink.send(&later);
    }
    let mut expected: Vec<String> = first.iter().chain([&later]).map(|r| r.id.clone()).collect();
    let mut got = server.ids();
    expected.sort();
    got.sort();
    assert_eq!(got, expected);
    assert_eq!(
        std::fs::read_dir(home.path().join("webhook"))
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn what_drop_cannot_send_in_time_is_spooled() {
    let home = tempfile::tempdir().unwrap();
    let server = Server::start(Mode::Hang);
    {
        let sink = WebhookSink::start(WebhookConfig {
            batch_size: 2,
            flush_timeout: Duration::from_millis(100),
            request_timeout: Duration::from_secs(20),
            ..WebhookConfig::new(&server.url).with_spool(home.path())
        })
        .unwrap();
        (0..6).for_each(|n| sink.send(&rec(n)));
    }
    // One batch is in flight (written ahead as `sending`), the rest spooled as `pending`.
    let spooled: usize = std::fs::read_dir(home.path().join("webhook"))
        .unwrap()
        .map(|e| {
            let bytes = std::fs::read(e.unwrap().path()).unwrap();
            serde_json::from_slice::<Vec<Value>>(&bytes).unwrap().len()
        })
        .sum();
    assert_eq!(spooled, 6);
}

#[test]
fn records_are_redacted_before_they_are_sent() {
    let server = Server::start(Mode::Ok);
    let sink = WebhookSink::start(WebhookConfig::new(&server.url)).unwrap();
    let mut r = rec(0);
    r.reason = Some("key AKIAZ7XQ3JH2LMN4PQRS".to_owned());
    r.trace = serde_json::json!({ "cmd": "echo AKIAZ7XQ3JH2LMN4PQRS" });
    sink.send(&r);
    assert!(sink.flush(Duration::from_secs(5)));
    let body = server.bodies()[0].to_string();
    assert!(!body.contains("AKIAZ7XQ3JH2LMN4PQRS"), "{body}");
    assert_eq!(server.bodies()[0]["records"][0]["reason"], "key [REDACTED]");
}

#[test]
fn a_bad_url_is_a_typed_error_without_credentials() {
    for url in ["ftp://x/", "not a url", "http://user:secret@/path"] {
        let err = WebhookSink::start(WebhookConfig::new(url)).unwrap_err();
        assert!(matches!(err, AuditError::Webhook { .. }), "{url}: {err}");
        assert!(!err.to_string().contains("secret"), "{err}");
    }
}
