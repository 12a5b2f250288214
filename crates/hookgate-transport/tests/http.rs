//! The HTTP sender against a real HTTP/1.1 server on 127.0.0.1 (hand-written responses).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use hookgate_transport::{HttpSpec, Limits, Stream, TransportError, send_http};

/// What the server saw.
#[derive(Debug)]
struct Seen {
    method: String,
    path: String,
    /// Lowercased names.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

#[allow(
    clippy::unwrap_used,
    reason = "test fixture: a broken fixture must fail the test loudly"
)]
fn read_request(stream: &TcpStream) -> Seen {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap();
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
    }
    let len = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; len];
    reader.read_exact(&mut body).unwrap();
    Seen {
        method,
        path,
        headers,
        body,
    }
}

/// Serve one connection: record the request, then write `response` verbatim and close.
#[allow(
    clippy::unwrap_used,
    reason = "test fixture: a broken fixture must fail the test loudly"
)]
fn serve_once(response: Vec<u8>) -> (String, mpsc::Receiver<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let seen = read_request(&stream);
        let _ = tx.send(seen);
        // The client may hang up early (oversize body): that is the point of some tests.
        let _ = stream.write_all(&response);
        let _ = stream.flush();
    });
    (url, rx)
}

/// Accept, read the request, then send `prefix` and go silent for `hold`.
#[allow(
    clippy::unwrap_used,
    reason = "test fixture: a broken fixture must fail the test loudly"
)]
fn serve_stalled(prefix: &'static [u8], hold: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let _ = read_request(&stream);
        let _ = stream.write_all(prefix);
        thread::sleep(hold);
    });
    url
}

fn ok_response(body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

#[tokio::test]
async fn body_and_headers_arrive() {
    let (url, seen) = serve_once(ok_response(r#"{"decision":"allow"}"#));
    let spec = HttpSpec {
        url: format!("{url}/hook?x=1"),
        method: String::new(),
        headers: vec![
            ("Authorization".to_owned(), "Bearer t0ken".to_owned()),
            ("X-Hook-Id".to_owned(), "guard-1".to_owned()),
        ],
    };
    let out = send_http(&spec, br#"{"event":"pre_tool_use"}"#, &limits(5000))
        .await
        .unwrap();
    assert_eq!(out.status, 200);
    assert_eq!(out.body, br#"{"decision":"allow"}"#);
    assert!(out.duration < Duration::from_secs(5));

    let seen = seen.recv_timeout(Duration::from_secs(1)).unwrap();
    assert_eq!(seen.method, "POST");
    assert_eq!(seen.path, "/hook?x=1");
    assert_eq!(seen.body, br#"{"event":"pre_tool_use"}"#);
    assert_eq!(seen.header("content-type"), Some("application/json"));
    assert_eq!(seen.header("authorization"), Some("Bearer t0ken"));
    assert_eq!(seen.header("x-hook-id"), Some("guard-1"));
}

#[tokio::test]
async fn method_is_honoured() {
    for method in ["GET", "put", "PATCH", "DELETE", "POST"] {
        let (url, seen) = serve_once(ok_response("{}"));
        let spec = HttpSpec {
            url,
            method: method.to_owned(),
            headers: Vec::new(),
        };
        let out = send_http(&spec, b"{}", &limits(5000)).await.unwrap();
        assert_eq!(out.status, 200);
        let seen = seen.recv_timeout(Duration::from_secs(1)).unwrap();
        assert_eq!(seen.method, method.to_ascii_uppercase());
        assert_eq!(seen.body, b"{}", "{method} must still carry the payload");
    }
}

#[tokio::test]
async fn status_500_is_http_status_with_body_preview() {
    let body = "internal error:\n  database is down";
    let response = format!(
        "HTTP/1.1 500 Internal Server Error\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let (url, _seen) = serve_once(response.into_bytes());
    let err = send_http(&HttpSpec::post(url), b"{}", &limits(5000))
        .await
        .unwrap_err();
    match &err {
        TransportError::HttpStatus {
            status,
            body_preview,
        } => {
            assert_eq!(*status, 500);
            assert_eq!(body_preview, "internal error: database is down");
        }
        other => panic!("expected HttpStatus, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "http status 500: internal error: database is down"
    );
}

#[tokio::test]
async fn status_404_and_redirects_are_not_success() {
    let (url, _seen) = serve_once(
        b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_vec(),
    );
    let err = send_http(&HttpSpec::post(url), b"{}", &limits(5000))
        .await
        .unwrap_err();
    assert!(
        matches!(err, TransportError::HttpStatus { status: 404, .. }),
        "{err}"
    );

    // A redirect is not followed: the payload goes only where it was configured to go.
    let (url, _seen) = serve_once(
        b"HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            .to_vec(),
    );
    let err = send_http(&HttpSpec::post(url), b"{}", &limits(5000))
        .await
        .unwrap_err();
    assert!(
        matches!(err, TransportError::HttpStatus { status: 302, .. }),
        "{err}"
    );
}

#[tokio::test]
async fn server_that_never_answers_times_out_on_schedule() {
    let url = serve_stalled(b"", Duration::from_secs(5));
    let started = Instant::now();
    let err = send_http(&HttpSpec::post(url), b"{}", &limits(500))
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(err, TransportError::Timeout { .. }), "{err:?}");
    assert!(elapsed >= Duration::from_millis(450), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(1500), "{elapsed:?}");
}

#[tokio::test]
async fn stalled_body_times_out_on_schedule() {
    let url = serve_stalled(
        b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{\"partial\":",
        Duration::from_secs(5),
    );
    let started = Instant::now();
    let err = send_http(&HttpSpec::post(url), b"{}", &limits(500))
        .await
        .unwrap_err();
    assert!(matches!(err, TransportError::Timeout { .. }), "{err:?}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn oversize_body_is_output_too_large() {
    let limits = Limits {
        max_output_bytes: 1024,
        ..limits(5000)
    };
    // Declared too large: rejected from the header.
    let big = "x".repeat(2 * 1024 * 1024);
    let (url, _seen) = serve_once(ok_response(&big));
    let err = send_http(&HttpSpec::post(url), b"{}", &limits)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            TransportError::OutputTooLarge {
                stream: Stream::ResponseBody,
                limit: 1024
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "response body exceeded the output limit of 1024 bytes"
    );

    // No length declared (read to close): cut after cap + 1 bytes.
    let mut response = b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n".to_vec();
    response.extend(std::iter::repeat_n(b'y', 2 * 1024 * 1024));
    let (url, _seen) = serve_once(response);
    let started = Instant::now();
    let err = send_http(&HttpSpec::post(url), b"{}", &limits)
        .await
        .unwrap_err();
    assert!(
        matches!(err, TransportError::OutputTooLarge { .. }),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn body_of_exactly_the_cap_is_accepted() {
    let limits = Limits {
        max_output_bytes: 10,
        ..limits(5000)
    };
    let (url, _seen) = serve_once(ok_response("0123456789"));
    let out = send_http(&HttpSpec::post(url), b"{}", &limits)
        .await
        .unwrap();
    assert_eq!(out.body, b"0123456789");
}

#[tokio::test]
async fn connection_refused_is_a_clear_error() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://user:pw@127.0.0.1:{port}/hook?token=secret");
    let err = send_http(&HttpSpec::post(url), b"{}", &limits(5000))
        .await
        .unwrap_err();
    assert!(matches!(err, TransportError::Http { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.starts_with(&format!(
            "http request to `http://127.0.0.1:{port}/hook` failed: "
        )),
        "{msg}"
    );
    assert!(msg.to_ascii_lowercase().contains("refused"), "{msg}");
    assert!(!msg.contains("secret") && !msg.contains("pw"), "{msg}");
}

#[tokio::test]
async fn invalid_spec_is_rejected_before_any_io() {
    let spec = HttpSpec {
        url: "ftp://127.0.0.1/x".to_owned(),
        method: "POST".to_owned(),
        headers: Vec::new(),
    };
    let err = send_http(&spec, b"{}", &limits(5000)).await.unwrap_err();
    assert!(matches!(err, TransportError::InvalidSpec { .. }), "{err}");
}

#[tokio::test]
async fn pinned_addresses_are_the_only_ones_connected_to() {
    let (url, seen) = serve_once(ok_response("{}"));
    let address: std::net::SocketAddr = url.trim_start_matches("http://").parse().unwrap();
    // A name that resolves nowhere: the request can only arrive through the pinned address.
    let spec = HttpSpec::post(format!("http://hook.invalid:{}/x", address.port()));
    let out = hookgate_transport::send_http_to(&spec, b"{}", &limits(5000), &[address])
        .await
        .unwrap();
    assert_eq!(out.status, 200);
    let seen = seen.recv_timeout(Duration::from_secs(1)).unwrap();
    assert_eq!(
        seen.header("host"),
        Some(format!("hook.invalid:{}", address.port()).as_str()),
        "the URL still names the host"
    );
    let err = send_http(&spec, b"{}", &limits(5000)).await.unwrap_err();
    assert!(matches!(err, TransportError::Http { .. }), "{err}");
    let none = hookgate_transport::send_http_to(&spec, b"{}", &limits(5000), &[])
        .await
        .unwrap_err();
    assert!(matches!(none, TransportError::InvalidSpec { .. }), "{none}");
}
