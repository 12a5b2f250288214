//! The HTTP sender: one request, one deadline, capped response body.
//!
//! ureq is blocking, so the exchange runs on tokio's blocking pool. Two clocks bound it, on
//! purpose: ureq's own global timeout (set to what is left of the deadline) makes the blocking
//! thread give up and free its socket; the outer `tokio::time::timeout` guarantees the *caller*
//! gets its answer on schedule even if the blocking pool was saturated and the job started late.

use std::io::Read;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ureq::Agent;
use ureq::config::Config;
use ureq::http::{HeaderName, HeaderValue, Method, Request, Uri, header};
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::error::{Stream, TransportError};
use crate::{Limits, deadline_after};

/// How many bytes of a non-2xx body are read for the preview.
const ERROR_BODY_READ: u64 = 4 * 1024;
/// How many characters of a non-2xx body go into the error message.
const PREVIEW_CHARS: usize = 200;
/// Methods accepted by [`send_http`]; anything else is [`TransportError::InvalidSpec`].
const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// One HTTP request. `HttpSpec::default()` has an empty URL (invalid) and an empty method
/// (`POST`); use it with struct-update syntax.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpSpec {
    /// `http://` or `https://` URL.
    pub url: String,
    /// Case-insensitive; empty means `POST`.
    pub method: String,
    /// Sent as given, after validation. `content-type: application/json` is added unless one of
    /// these sets `content-type` itself. Values never appear in error messages.
    pub headers: Vec<(String, String)>,
}

impl HttpSpec {
    /// A `POST` to `url` with no extra headers.
    pub fn post(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            method: "POST".to_owned(),
            headers: Vec::new(),
        }
    }
}

/// A 2xx response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOutput {
    /// The status code (always 2xx: anything else is [`TransportError::HttpStatus`]).
    pub status: u16,
    /// The body, at most `max_output_bytes`.
    pub body: Vec<u8>,
    /// Wall time of the call.
    pub duration: Duration,
}

/// Send `body` as described by `spec`, under `limits.timeout`, reading at most
/// `limits.max_output_bytes` of the response.
///
/// Redirects are **not** followed (a 3xx is [`TransportError::HttpStatus`]): the payload may carry
/// secrets and must only go where it was configured to go. Proxy settings come from the usual
/// environment variables (ureq's default).
///
/// Must be called inside a tokio runtime (it uses `spawn_blocking` and the time driver).
pub async fn send_http(
    spec: &HttpSpec,
    body: &[u8],
    limits: &Limits,
) -> Result<HttpOutput, TransportError> {
    send(spec, body, limits, None).await
}

/// [`send_http`], connecting only to `addresses` — the addresses the caller resolved and
/// checked — instead of resolving the URL's host again. The URL still names the host (the
/// `Host` header, TLS server name and certificate check), and no proxy is used, since a proxy
/// would resolve the name itself.
///
/// This is how a caller that vets where a request goes (`http_post`'s "public addresses
/// only") closes the DNS-rebinding window between its check and the connection: the name is
/// looked up once, and the connection can only go where that lookup, once checked, said.
/// `addresses` empty is [`TransportError::InvalidSpec`].
pub async fn send_http_to(
    spec: &HttpSpec,
    body: &[u8],
    limits: &Limits,
    addresses: &[SocketAddr],
) -> Result<HttpOutput, TransportError> {
    if addresses.is_empty() {
        return Err(TransportError::invalid(
            "no address to connect to".to_owned(),
        ));
    }
    send(spec, body, limits, Some(addresses.to_vec())).await
}

async fn send(
    spec: &HttpSpec,
    body: &[u8],
    limits: &Limits,
    pinned: Option<Vec<SocketAddr>>,
) -> Result<HttpOutput, TransportError> {
    let started = Instant::now();
    let deadline = deadline_after(started, limits.timeout);
    let request = build_request(spec, body)?;
    let url = redacted_url(request.uri());
    let cap = limits.max_output_bytes;
    let after = limits.timeout;

    let worker_url = url.clone();
    let worker = tokio::task::spawn_blocking(move || {
        exchange(request, &worker_url, cap, deadline, after, pinned)
    });
    let (status, body) = match tokio::time::timeout(limits.timeout, worker).await {
        Err(_elapsed) => return Err(TransportError::Timeout { after }),
        Ok(Err(join)) => {
            return Err(TransportError::Http {
                url,
                message: format!("the request worker failed: {join}"),
            });
        }
        Ok(Ok(result)) => result?,
    };
    Ok(HttpOutput {
        status,
        body,
        duration: started.elapsed(),
    })
}

/// Validate the spec and build the request, so that every mistake in it is an `InvalidSpec`
/// naming the field (and never the header value).
fn build_request(spec: &HttpSpec, body: &[u8]) -> Result<Request<Vec<u8>>, TransportError> {
    let method = spec.method.trim();
    let method = if method.is_empty() {
        "POST".to_owned()
    } else {
        method.to_ascii_uppercase()
    };
    if !METHODS.contains(&method.as_str()) {
        return Err(TransportError::invalid(format!(
            "unsupported http method `{method}` (expected one of {})",
            METHODS.join(", ")
        )));
    }
    let method = Method::from_bytes(method.as_bytes())
        .map_err(|e| TransportError::invalid(format!("invalid http method `{method}`: {e}")))?;

    let uri: Uri = spec.url.trim().parse().map_err(|e| {
        TransportError::invalid(format!("invalid url `{}`: {e}", redact_str(&spec.url)))
    })?;
    match uri.scheme_str() {
        Some("http" | "https") if uri.host().is_some_and(|h| !h.is_empty()) => {}
        _ => {
            return Err(TransportError::invalid(format!(
                "url `{}` must be absolute with an http or https scheme and a host",
                redacted_url(&uri)
            )));
        }
    }

    let mut builder = Request::builder().method(method).uri(uri);
    let mut has_content_type = false;
    for (name, value) in &spec.headers {
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| TransportError::invalid(format!("invalid http header name `{name}`")))?;
        let value = HeaderValue::from_str(value).map_err(|_| {
            TransportError::invalid(format!("invalid value for http header `{name}`"))
        })?;
        has_content_type |= name == header::CONTENT_TYPE;
        builder = builder.header(name, value);
    }
    if !has_content_type {
        builder = builder.header(header::CONTENT_TYPE, "application/json");
    }
    builder
        .body(body.to_vec())
        .map_err(|e| TransportError::invalid(format!("invalid http request: {e}")))
}

/// The blocking half: one request on a fresh agent, body read with a cap.
///
/// A fresh agent per call means no pooled connection that the server may have closed in the
/// meantime (which would turn into a spurious failure for a non-idempotent POST).
fn exchange(
    request: Request<Vec<u8>>,
    url: &str,
    cap: usize,
    deadline: Instant,
    after: Duration,
    pinned: Option<Vec<SocketAddr>>,
) -> Result<(u16, Vec<u8>), TransportError> {
    let remaining = deadline.saturating_duration_since(Instant::now());
    if remaining.is_zero() {
        return Err(TransportError::Timeout { after });
    }
    let builder = Agent::config_builder()
        // 4xx/5xx come back as responses so the body can explain them.
        .http_status_as_error(false)
        .timeout_global(Some(remaining))
        .max_redirects(0)
        .max_redirects_will_error(false)
        .user_agent(concat!("hookgate/", env!("CARGO_PKG_VERSION")));
    let agent = match pinned {
        None => Agent::new_with_config(builder.build()),
        Some(addresses) => Agent::with_parts(
            builder.proxy(None).build(),
            DefaultConnector::new(),
            Pinned(addresses),
        ),
    };
    let response = agent.run(request).map_err(|e| ureq_error(e, url, after))?;

    let status = response.status();
    if !status.is_success() {
        let mut preview = Vec::new();
        // The status is the error; a failure while reading its body only shortens the preview.
        let _ = response
            .into_body()
            .into_reader()
            .take(ERROR_BODY_READ)
            .read_to_end(&mut preview);
        return Err(TransportError::HttpStatus {
            status: status.as_u16(),
            body_preview: preview_of(&preview),
        });
    }

    let declared = response
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let limit = u64::try_from(cap).unwrap_or(u64::MAX);
    if declared.is_some_and(|len| len > limit) {
        // No need to read a body we already know is too big.
        return Err(TransportError::OutputTooLarge {
            stream: Stream::ResponseBody,
            limit: cap,
        });
    }
    let mut body = Vec::new();
    response
        .into_body()
        .into_reader()
        .take(limit.saturating_add(1))
        .read_to_end(&mut body)
        .map_err(|e| io_error(&e, url, after))?;
    if body.len() > cap {
        return Err(TransportError::OutputTooLarge {
            stream: Stream::ResponseBody,
            limit: cap,
        });
    }
    Ok((status.as_u16(), body))
}

/// A resolver that answers every lookup with the addresses it was given (see [`send_http_to`]).
/// ureq's resolver API is outside its semver promise; ureq is pinned by the lock file, and the
/// `pinned_addresses_are_the_only_ones_connected_to` test breaks if it changes shape.
#[derive(Debug)]
struct Pinned(Vec<SocketAddr>);

impl Resolver for Pinned {
    fn resolve(
        &self,
        _uri: &Uri,
        _config: &Config,
        _timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let mut out = self.empty();
        // ureq keeps at most 16 addresses per lookup.
        for address in self.0.iter().take(16) {
            out.push(*address);
        }
        if out.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        Ok(out)
    }
}

fn ureq_error(err: ureq::Error, url: &str, after: Duration) -> TransportError {
    match err {
        ureq::Error::Timeout(_) => TransportError::Timeout { after },
        ureq::Error::Io(e) => io_error(&e, url, after),
        ureq::Error::BadUri(reason) => {
            TransportError::invalid(format!("invalid url `{url}`: {reason}"))
        }
        ureq::Error::HostNotFound => TransportError::Http {
            url: url.to_owned(),
            message: "host not found".to_owned(),
        },
        other => TransportError::Http {
            url: url.to_owned(),
            message: other.to_string(),
        },
    }
}

/// Body reads surface ureq errors wrapped in `io::Error`; unwrap the timeout case so a slow
/// body is a `Timeout`, like a slow header.
fn io_error(err: &std::io::Error, url: &str, after: Duration) -> TransportError {
    let wrapped_timeout = err
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<ureq::Error>())
        .is_some_and(|e| matches!(e, ureq::Error::Timeout(_)));
    if wrapped_timeout || err.kind() == std::io::ErrorKind::TimedOut {
        return TransportError::Timeout { after };
    }
    TransportError::Http {
        url: url.to_owned(),
        message: err.to_string(),
    }
}

/// `scheme://host[:port]/path`: no userinfo (credentials) and no query (often carries tokens).
fn redacted_url(uri: &Uri) -> String {
    match (uri.scheme_str(), uri.authority()) {
        (Some(scheme), Some(authority)) => {
            let host_port = authority
                .as_str()
                .rsplit_once('@')
                .map_or(authority.as_str(), |(_, hp)| hp);
            format!("{scheme}://{host_port}{}", uri.path())
        }
        _ => uri.path().to_owned(),
    }
}

/// For strings that did not even parse as a URI: keep only what precedes `?` and drop anything up
/// to an `@`, so a mistyped URL with a token in it is not echoed whole.
fn redact_str(raw: &str) -> String {
    let no_query = raw.split(['?', '#']).next().unwrap_or_default();
    match no_query.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            let sep = if rest.contains('/') { "/" } else { "" };
            format!("{scheme}://{host}{sep}{path}")
        }
        None => no_query.to_owned(),
    }
}

/// One line, at most [`PREVIEW_CHARS`] characters, lossy UTF-8, whitespace and control
/// characters collapsed, so it can sit inside a one-line error message.
fn preview_of(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out = String::new();
    let mut chars = 0;
    let mut last_space = true;
    for c in text.chars() {
        let c = if c.is_whitespace() || c.is_control() {
            ' '
        } else {
            c
        };
        if c == ' ' && last_space {
            continue;
        }
        last_space = c == ' ';
        if chars == PREVIEW_CHARS {
            out.push('…');
            break;
        }
        out.push(c);
        chars += 1;
    }
    let trimmed = out.trim_end().to_owned();
    if trimmed.is_empty() {
        "(empty body)".to_owned()
    } else {
        trimmed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(url: &str, method: &str, headers: &[(&str, &str)]) -> HttpSpec {
        HttpSpec {
            url: url.to_owned(),
            method: method.to_owned(),
            headers: headers
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    #[test]
    fn empty_method_defaults_to_post_and_json_content_type() {
        let req = build_request(&spec("http://127.0.0.1:1/x", "", &[]), b"{}").unwrap();
        assert_eq!(req.method(), Method::POST);
        assert_eq!(req.headers()[header::CONTENT_TYPE], "application/json");
    }

    #[test]
    fn method_is_case_insensitive_and_unknown_methods_are_invalid() {
        let req = build_request(&spec("http://h/x", "patch", &[]), b"").unwrap();
        assert_eq!(req.method(), Method::PATCH);
        let err = build_request(&spec("http://h/x", "BREW", &[]), b"").unwrap_err();
        assert!(
            err.to_string().contains("unsupported http method `BREW`"),
            "{err}"
        );
    }

    #[test]
    fn caller_content_type_replaces_the_default() {
        let req = build_request(
            &spec("http://h/x", "POST", &[("Content-Type", "text/plain")]),
            b"",
        )
        .unwrap();
        let values: Vec<_> = req.headers().get_all(header::CONTENT_TYPE).iter().collect();
        assert_eq!(values, ["text/plain"]);
    }

    #[test]
    fn invalid_header_value_is_reported_without_echoing_it() {
        let err = build_request(
            &spec(
                "http://h/x",
                "POST",
                &[("Authorization", "Bearer sk-secret\n")],
            ),
            b"",
        )
        .unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("`authorization`"), "{msg}");
        assert!(!msg.contains("sk-secret"), "{msg}");
    }

    #[test]
    fn non_http_urls_are_invalid() {
        for url in ["file:///etc/passwd", "/relative", "ftp://h/x", "not a url"] {
            let err = build_request(&spec(url, "POST", &[]), b"").unwrap_err();
            assert!(
                matches!(err, TransportError::InvalidSpec { .. }),
                "{url}: {err}"
            );
        }
    }

    #[test]
    fn urls_in_messages_lose_credentials_and_query() {
        let uri: Uri = "https://user:pw@example.com:8443/hook?token=abc"
            .parse()
            .unwrap();
        assert_eq!(redacted_url(&uri), "https://example.com:8443/hook");
        assert_eq!(
            redact_str("https://user:pw@ex ample/a b?token=x"),
            "https://ex ample/a b"
        );
    }

    #[test]
    fn preview_is_one_short_line() {
        assert_eq!(preview_of(b"  boom\n\r\n  at line 2\t"), "boom at line 2");
        assert_eq!(preview_of(b""), "(empty body)");
        let long = "x".repeat(1000);
        let p = preview_of(long.as_bytes());
        assert_eq!(p.chars().count(), PREVIEW_CHARS + 1);
        assert!(p.ends_with('…'));
    }
}
