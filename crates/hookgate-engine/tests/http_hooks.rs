//! HTTP hooks against a real server on 127.0.0.1.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_pass_by_value,
    clippy::format_push_string,
    reason = "test code: a failed assumption should fail the test"
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use hookgate_core::{EventId, HookInput};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use serde_json::json;

struct Request {
    method: String,
    headers: Vec<(String, String)>,
    body: String,
}

/// Serves `responses` in order, one connection each, and reports what it received.
fn serve(responses: Vec<(u16, String, Duration)>) -> (String, mpsc::Receiver<Request>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for (status, body, delay) in responses {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let method = line
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned();
            let mut headers = Vec::new();
            let mut length = 0;
            loop {
                let mut h = String::new();
                reader.read_line(&mut h).unwrap();
                let h = h.trim_end().to_owned();
                if h.is_empty() {
                    break;
                }
                let (k, v) = h.split_once(':').unwrap();
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse().unwrap();
                }
                headers.push((k.to_ascii_lowercase(), v.trim().to_owned()));
            }
            let mut buf = vec![0; length];
            reader.read_exact(&mut buf).unwrap();
            let _ = tx.send(Request {
                method,
                headers,
                body: String::from_utf8(buf).unwrap(),
            });
            thread::sleep(delay);
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, rx)
}

fn engine(yaml: &str) -> Engine {
    let layer = parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap();
    Engine::new(merge(vec![layer]).unwrap()).unwrap()
}

fn input() -> HookInput {
    HookInput::from_value(
        json!({"session_id": "s", "cwd": "/", "tool_name": "shell", "tool_input": {"cmd": "ls"}}),
    )
    .unwrap()
}

#[tokio::test]
async fn http_hook_posts_the_input_and_reads_the_reply() {
    let reply = r#"{"hook_specific_output":{"permission_decision":"deny","permission_decision_reason":"remote says no"}}"#;
    let (url, rx) = serve(vec![(200, reply.to_owned(), Duration::ZERO)]);
    let e = engine(&format!(
        "hooks:\n  pre_tool_use:\n    - type: http\n      url: {url}\n      headers:\n        X-Token: \"t-${{env.HOME}}\"\n"
    ));
    let outcome = e.dispatch(EventId::PreToolUse, input()).await;
    assert!(outcome.blocked());
    assert_eq!(outcome.reason.as_deref(), Some("remote says no"));
    let req = rx.recv().unwrap();
    assert_eq!(req.method, "POST");
    let body: serde_json::Value = serde_json::from_str(&req.body).unwrap();
    assert_eq!(body["hook_event_name"], "pre_tool_use");
    assert_eq!(body["tool_input"]["cmd"], "ls");
    let token = req
        .headers
        .iter()
        .find(|(k, _)| k == "x-token")
        .map(|(_, v)| v.clone());
    assert_eq!(token, Some(format!("t-{}", std::env::var("HOME").unwrap())));
}

#[tokio::test]
async fn non_2xx_replies_are_failures_that_fail_closed() {
    let (url, _rx) = serve(vec![(500, "database down".to_owned(), Duration::ZERO)]);
    let e = engine(&format!(
        "hooks:\n  pre_tool_use:\n    - type: http\n      url: {url}\n"
    ));
    let outcome = e.dispatch(EventId::PreToolUse, input()).await;
    assert!(outcome.blocked());
    assert!(outcome.reason.unwrap().contains("500"));
}

#[tokio::test]
async fn a_slow_server_times_out_on_schedule() {
    let (url, _rx) = serve(vec![(200, "{}".to_owned(), Duration::from_secs(5))]);
    let e = engine(&format!(
        "hooks:\n  pre_tool_use:\n    - type: http\n      url: {url}\n      timeout: 0.5\n"
    ));
    let started = Instant::now();
    let outcome = e.dispatch(EventId::PreToolUse, input()).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    assert!(outcome.blocked());
    assert!(outcome.reason.unwrap().contains("timed out"));
}

#[tokio::test]
async fn oversize_replies_are_failures() {
    let (url, _rx) = serve(vec![(200, "x".repeat(10_000), Duration::ZERO)]);
    let e = engine(&format!(
        "hooks:\n  payload_max_bytes: 1024\n  pre_tool_use:\n    - type: http\n      url: {url}\n"
    ));
    let outcome = e.dispatch(EventId::PreToolUse, input()).await;
    assert!(outcome.blocked());
    assert!(outcome.reason.unwrap().contains("1024"));
}

#[tokio::test]
async fn configured_method_is_used_and_an_empty_reply_is_no_opinion() {
    let (url, rx) = serve(vec![(204, String::new(), Duration::ZERO)]);
    let e = engine(&format!(
        "hooks:\n  post_tool_use:\n    - type: http\n      url: {url}\n      method: put\n"
    ));
    let outcome = e.dispatch(EventId::PostToolUse, input()).await;
    assert_eq!(outcome.decision, None);
    assert!(
        outcome.system_messages.is_empty(),
        "{:?}",
        outcome.system_messages
    );
    assert_eq!(rx.recv().unwrap().method, "PUT");
}
