//! The HTTP client behind the OTLP exporters: `ureq` (blocking, rustls), already the webhook's
//! client, so OTLP adds no second HTTP stack, no async runtime and no gRPC.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use opentelemetry_http::{HttpClient, HttpError, Request, Response};

/// Largest collector answer read (OTLP answers are tiny; a huge one is not a collector).
const MAX_RESPONSE_BYTES: u64 = 4 * 1024 * 1024;

/// Sends each OTLP request with `ureq` and remembers every request that did not end in a
/// 2xx, so the caller can tell a delivered export from a lost one (the SDK's processors log
/// export errors instead of returning them).
#[derive(Debug, Clone)]
pub struct UreqClient {
    agent: ureq::Agent,
    failures: Arc<Mutex<Vec<String>>>,
}

impl UreqClient {
    /// A client whose every request ends within `timeout`. Redirects are not followed:
    /// records hold commands and paths, and go to the configured endpoint only.
    pub fn new(timeout: Duration) -> Self {
        Self {
            agent: ureq::Agent::config_builder()
                .timeout_global(Some(timeout))
                .http_status_as_error(false)
                .max_redirects(0)
                .build()
                .new_agent(),
            failures: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// What went wrong so far, each distinct failure once (retries repeat them).
    pub fn failures(&self) -> Vec<String> {
        let mut out = self
            .failures
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        out.dedup();
        out
    }

    fn fail(&self, what: String) {
        self.failures
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(what);
    }
}

#[async_trait::async_trait]
impl HttpClient for UreqClient {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let uri = request.uri().clone();
        let request = request.map(|body| body.to_vec());
        let mut response = match self.agent.run(request) {
            Ok(response) => response,
            Err(e) => {
                self.fail(format!("{uri}: {e}"));
                return Err(Box::new(e));
            }
        };
        let status = response.status();
        let body = match response
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE_BYTES)
            .read_to_vec()
        {
            Ok(body) => body,
            Err(e) => {
                self.fail(format!("{uri}: reading the answer: {e}"));
                return Err(Box::new(e));
            }
        };
        if !status.is_success() {
            self.fail(format!("{uri}: HTTP {status}"));
        }
        let mut out = Response::new(Bytes::from(body));
        *out.status_mut() = status;
        *out.headers_mut() = response.headers().clone();
        Ok(out)
    }
}
