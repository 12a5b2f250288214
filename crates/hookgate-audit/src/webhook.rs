//! Shipping records to an HTTP endpoint without ever being in the decision's way.
//!
//! [`WebhookSink::send`] only pushes onto a bounded in-memory queue (dropping the oldest
//! record, and counting it, when full), so it never blocks and never fails. A background
//! thread POSTs batches by size or age. On drop, the sink waits at most
//! [`WebhookConfig::flush_timeout`] for the queue to drain; whatever is left is written to
//! the spool directory and sent by a later process, after its first successful POST.
//!
//! Each batch is written to the spool *before* it is POSTed and deleted after a 2xx, so a
//! process that exits mid-request loses nothing: its batch is picked up again once it is
//! older than [`STALE_SENDING`]. Delivery is therefore at-least-once; receivers should
//! deduplicate on the records' `id`.

use std::collections::VecDeque;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;

use crate::error::AuditError;
use crate::record::{Record, new_id, now_ms};

/// A batch file still named `sending` after this long belongs to a process that died
/// mid-request.
const STALE_SENDING: Duration = Duration::from_secs(60);
/// Spooled batches re-sent after one successful POST, so a backlog drains over a few
/// processes instead of holding one of them up.
const RETRIES_PER_SUCCESS: usize = 4;

/// Where and how to send. `Debug` shows header names only: values are often credentials.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookConfig {
    /// `http://` or `https://` endpoint receiving `POST`s of JSON batches.
    pub url: String,
    /// Extra request headers (e.g. `authorization`).
    pub headers: Vec<(String, String)>,
    /// A batch is sent as soon as this many records are queued.
    pub batch_size: usize,
    /// …or when the oldest queued record has waited this long.
    pub batch_interval: Duration,
    /// Queue bound; beyond it the oldest record is dropped (and counted).
    pub queue_capacity: usize,
    /// Whole-request timeout.
    pub request_timeout: Duration,
    /// Longest wait for the queue to drain when the sink is dropped.
    pub flush_timeout: Duration,
    /// Where unsent batches wait for a later process; `None` drops them (counted).
    pub spool_dir: Option<PathBuf>,
    /// Most spooled batches kept; the oldest go first.
    pub max_spool_batches: usize,
}

impl WebhookConfig {
    /// Defaults: batches of 50 or every second, 1000 queued records, 1 s request timeout,
    /// 200 ms flush on drop, no spool.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            headers: Vec::new(),
            batch_size: 50,
            batch_interval: Duration::from_secs(1),
            queue_capacity: 1000,
            request_timeout: Duration::from_secs(1),
            flush_timeout: Duration::from_millis(200),
            spool_dir: None,
            max_spool_batches: 1000,
        }
    }

    /// The same, spooling unsent batches under `<home>/webhook`.
    #[must_use]
    pub fn with_spool(mut self, home: &Path) -> Self {
        self.spool_dir = Some(home.join("webhook"));
        self
    }
}

impl std::fmt::Debug for WebhookConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("WebhookConfig")
            .field("url", &display_url(&self.url))
            .field("header_names", &names)
            .field("batch_size", &self.batch_size)
            .field("batch_interval", &self.batch_interval)
            .field("queue_capacity", &self.queue_capacity)
            .field("request_timeout", &self.request_timeout)
            .field("flush_timeout", &self.flush_timeout)
            .field("spool_dir", &self.spool_dir)
            .field("max_spool_batches", &self.max_spool_batches)
            .finish()
    }
}

/// Counters since the sink started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct WebhookStats {
    /// Records waiting in memory.
    pub queued: usize,
    /// Records dropped because the queue was full, or lost because a batch could be
    /// neither sent nor spooled.
    pub dropped: u64,
    /// Records delivered (2xx), including re-sent spooled ones.
    pub sent: u64,
    /// POSTs that failed.
    pub failed_batches: u64,
    /// Batches written to the spool for a later process.
    pub spooled_batches: u64,
}

#[derive(Debug, Default)]
struct State {
    queue: VecDeque<Record>,
    oldest: Option<Instant>,
    shutdown: bool,
    flush: bool,
    busy: bool,
    stats: WebhookStats,
}

#[derive(Debug, Default)]
struct Shared {
    state: Mutex<State>,
    /// Wakes the worker: records arrived, flush or shutdown requested.
    wake: Condvar,
    /// Wakes flushers: the worker finished a batch or went idle.
    idle: Condvar,
}

impl Shared {
    /// The state even if a thread panicked while holding it: counters and a queue cannot
    /// be left inconsistent by any code here, and a sink must keep not-blocking regardless.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Sends records to an HTTP endpoint from a background thread. See the module doc.
#[derive(Debug)]
pub struct WebhookSink {
    shared: Arc<Shared>,
    config: WebhookConfig,
}

impl WebhookSink {
    /// Validates the URL and starts the worker thread.
    pub fn start(config: WebhookConfig) -> Result<Self, AuditError> {
        let shown = display_url(&config.url);
        let fail = |message: String| AuditError::Webhook {
            url: shown.clone(),
            message,
        };
        let uri: ureq::http::Uri = config
            .url
            .parse()
            .map_err(|e| fail(format!("invalid url: {e}")))?;
        if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.host().is_none() {
            return Err(fail(
                "the url must be http:// or https:// with a host".to_owned(),
            ));
        }
        if config.batch_size == 0 || config.queue_capacity == 0 {
            return Err(fail(
                "batch_size and queue_capacity must be at least 1".to_owned(),
            ));
        }
        let shared = Arc::new(Shared::default());
        let worker = Worker {
            shared: Arc::clone(&shared),
            agent: ureq::Agent::config_builder()
                .timeout_global(Some(config.request_timeout))
                .http_status_as_error(true)
                // Records may hold paths and commands: they go where configured, nowhere else.
                .max_redirects(0)
                .build()
                .new_agent(),
            config: config.clone(),
        };
        std::thread::Builder::new()
            .name("hookgate-webhook".to_owned())
            .spawn(move || worker.run())
            .map_err(|e| fail(format!("cannot start the sender thread: {e}")))?;
        Ok(Self { shared, config })
    }

    /// Queues a record (redacted later, on the worker thread). Never blocks, never fails:
    /// when the queue is full the oldest record is dropped and counted.
    pub fn send(&self, record: &Record) {
        let mut state = self.shared.lock();
        if state.shutdown {
            return;
        }
        if state.queue.len() >= self.config.queue_capacity {
            state.queue.pop_front();
            state.stats.dropped += 1;
        }
        state.queue.push_back(record.clone());
        state.oldest.get_or_insert_with(Instant::now);
        if state.queue.len() >= self.config.batch_size {
            self.shared.wake.notify_one();
        }
    }

    /// Sends what is queued now and waits up to `timeout` for it; `true` when everything
    /// queued was handed off (sent, or spooled after a failure).
    pub fn flush(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        state.flush = true;
        self.shared.wake.notify_one();
        while !state.queue.is_empty() || state.busy {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self
                .shared
                .idle
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }

    /// The counters.
    pub fn stats(&self) -> WebhookStats {
        let state = self.shared.lock();
        WebhookStats {
            queued: state.queue.len(),
            ..state.stats
        }
    }
}

impl Drop for WebhookSink {
    /// Bounded: waits at most `flush_timeout`, spools what is left, and leaves the worker
    /// to die with the process rather than join it.
    fn drop(&mut self) {
        self.flush(self.config.flush_timeout);
        let left: Vec<Record> = {
            let mut state = self.shared.lock();
            state.shutdown = true;
            self.shared.wake.notify_one();
            state.queue.drain(..).collect()
        };
        if left.is_empty() {
            return;
        }
        let redacted: Vec<Record> = left.iter().map(Record::redacted).collect();
        let spooled = self.config.spool_dir.as_deref().is_some_and(|dir| {
            spool_batch(dir, &redacted, "pending", self.config.max_spool_batches).is_ok()
        });
        let mut state = self.shared.lock();
        if spooled {
            state.stats.spooled_batches += 1;
        } else {
            state.stats.dropped += redacted.len() as u64;
        }
    }
}

struct Worker {
    shared: Arc<Shared>,
    agent: ureq::Agent,
    config: WebhookConfig,
}

impl Worker {
    fn run(self) {
        if let Some(dir) = &self.config.spool_dir {
            reclaim_stale(dir);
        }
        while let Some(batch) = self.next_batch() {
            let batch: Vec<Record> = batch.iter().map(Record::redacted).collect();
            let sent = self.deliver(&batch);
            if sent {
                self.retry_spooled();
            }
            let mut state = self.shared.lock();
            state.busy = false;
            self.shared.idle.notify_all();
        }
        self.shared.idle.notify_all();
    }

    /// Blocks until a batch is due; `None` at shutdown with nothing queued.
    fn next_batch(&self) -> Option<Vec<Record>> {
        let mut state = self.shared.lock();
        loop {
            let due = state.queue.len() >= self.config.batch_size
                || (!state.queue.is_empty()
                    && (state.flush
                        || state.shutdown
                        || state
                            .oldest
                            .is_some_and(|t| t.elapsed() >= self.config.batch_interval)));
            if due {
                let n = state.queue.len().min(self.config.batch_size);
                let batch: Vec<Record> = state.queue.drain(..n).collect();
                state.oldest = if state.queue.is_empty() {
                    None
                } else {
                    Some(Instant::now())
                };
                state.busy = true;
                return Some(batch);
            }
            if state.queue.is_empty() {
                state.flush = false;
                self.shared.idle.notify_all();
                if state.shutdown {
                    return None;
                }
            }
            let wait = state.oldest.map_or(self.config.batch_interval, |t| {
                self.config.batch_interval.saturating_sub(t.elapsed())
            });
            state = self
                .shared
                .wake
                .wait_timeout(state, wait.max(Duration::from_millis(1)))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Writes ahead, POSTs, then deletes the spooled copy or marks it pending.
    fn deliver(&self, batch: &[Record]) -> bool {
        let ahead = self.config.spool_dir.as_deref().and_then(|dir| {
            spool_batch(dir, batch, &sending_tag(), self.config.max_spool_batches).ok()
        });
        let ok = self.post(batch);
        let mut state = self.shared.lock();
        if ok {
            state.stats.sent += batch.len() as u64;
            drop(state);
            if let Some(path) = ahead {
                let _ = fs::remove_file(path);
            }
            return true;
        }
        state.stats.failed_batches += 1;
        match ahead.map(|path| fs::rename(&path, path.with_file_name(pending_name(&path)))) {
            Some(Ok(())) => state.stats.spooled_batches += 1,
            _ => state.stats.dropped += batch.len() as u64,
        }
        false
    }

    fn post(&self, records: &[Record]) -> bool {
        #[derive(Serialize)]
        struct Body<'a> {
            source: &'static str,
            sent_ms: u64,
            records: &'a [Record],
        }
        let Ok(body) = serde_json::to_vec(&Body {
            source: "hookgate",
            sent_ms: now_ms(),
            records,
        }) else {
            return false;
        };
        let mut request = self
            .agent
            .post(&self.config.url)
            .header("content-type", "application/json");
        for (name, value) in &self.config.headers {
            request = request.header(name, value);
        }
        request.send(&body[..]).is_ok()
    }

    /// Re-sends a few spooled batches (the endpoint just answered, so it is worth trying).
    fn retry_spooled(&self) {
        let Some(dir) = &self.config.spool_dir else {
            return;
        };
        for pending in list(dir, ".pending.json")
            .into_iter()
            .take(RETRIES_PER_SUCCESS)
        {
            // Claim it by rename: of several processes retrying, one wins each file.
            let claimed = pending.with_file_name(
                pending
                    .file_name()
                    .map(|n| {
                        n.to_string_lossy()
                            .replace(".pending.json", &format!(".{}.json", sending_tag()))
                    })
                    .unwrap_or_default(),
            );
            if fs::rename(&pending, &claimed).is_err() {
                continue;
            }
            let records: Option<Vec<Record>> = fs::read(&claimed)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok());
            let Some(records) = records else {
                // Unreadable: put it back for a human rather than delete data.
                let _ = fs::rename(&claimed, &pending);
                continue;
            };
            if self.post(&records) {
                let _ = fs::remove_file(&claimed);
                self.shared.lock().stats.sent += records.len() as u64;
            } else {
                let _ = fs::rename(&claimed, &pending);
                self.shared.lock().stats.failed_batches += 1;
                return;
            }
        }
    }
}

fn sending_tag() -> String {
    format!("sending-{}", std::process::id())
}

/// `<id>.sending-<pid>.json` → `<id>.pending.json`.
fn pending_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = name.split('.').next().unwrap_or_default();
    format!("{id}.pending.json")
}

/// Writes `records` as `<dir>/<new id>.<tag>.json` and trims the oldest pending batches
/// beyond `max`. Returns the file written.
fn spool_batch(
    dir: &Path,
    records: &[Record],
    tag: &str,
    max: usize,
) -> Result<PathBuf, AuditError> {
    fs::create_dir_all(dir).map_err(AuditError::io("create", dir))?;
    let path = dir.join(format!("{}.{tag}.json", new_id(now_ms())));
    let bytes = serde_json::to_vec(records).map_err(AuditError::json(&path, None))?;
    fs::write(&path, bytes).map_err(AuditError::io("write", &path))?;
    let pending = list(dir, ".pending.json");
    for old in pending.iter().take(pending.len().saturating_sub(max)) {
        let _ = fs::remove_file(old);
    }
    Ok(path)
}

/// Files in `dir` ending in `suffix`, oldest first (names start with a time-ordered id).
fn list(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(suffix))
        })
        .collect();
    out.sort();
    out
}

/// Turns batches whose sender died mid-request back into pending ones.
fn reclaim_stale(dir: &Path) {
    for path in fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
    {
        let is_sending = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().contains(".sending-"));
        let stale = fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age >= STALE_SENDING);
        if is_sending && stale {
            let _ = fs::rename(&path, path.with_file_name(pending_name(&path)));
        }
    }
}

/// The URL without userinfo (`user:password@`), for messages.
fn display_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((_, host)) => format!("{scheme}://{host}{tail}"),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::display_url;

    #[test]
    fn debug_output_hides_header_values_and_url_credentials() {
        let mut config = super::WebhookConfig::new("https://u:pw@h.example/x");
        config
            .headers
            .push(("authorization".to_owned(), "Bearer s3cret".to_owned()));
        let shown = format!("{config:?}");
        assert!(shown.contains("authorization"), "{shown}");
        assert!(
            !shown.contains("s3cret") && !shown.contains("pw@"),
            "{shown}"
        );
    }

    #[test]
    fn urls_in_messages_lose_their_credentials_only() {
        assert_eq!(
            display_url("https://u:p@h.example/x@y"),
            "https://h.example/x@y"
        );
        assert_eq!(display_url("http://h/a@b"), "http://h/a@b");
        assert_eq!(display_url("no scheme@x"), "no scheme@x");
    }
}
