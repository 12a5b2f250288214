//! OpenTelemetry export of audit records: each record becomes one OTLP log record and one span
//! (OTLP over HTTP, protobuf bodies), carrying the decision, the determining rule ids, the
//! agent, the session and the duration as attributes, so a fleet's collector sees every guard
//! decision beside the rest of its telemetry.
//!
//! Where it runs, and why: never in the hook's answer path. `hookgate hook` only checks
//! [`configured`] (a few environment lookups, nothing initialised) and hands the record to a
//! detached `hookgate ship-otel`, which calls [`ship`]: the agent never waits for a collector.
//!
//! Configuration is the standard one, read by `opentelemetry-otlp` itself:
//! `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT` / `…_LOGS_ENDPOINT` per signal),
//! `OTEL_EXPORTER_OTLP_HEADERS` (and per signal), `OTEL_EXPORTER_OTLP_TIMEOUT`,
//! `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`; `OTEL_SDK_DISABLED=true` or
//! `OTEL_TRACES_EXPORTER` / `OTEL_LOGS_EXPORTER` = `none` switch export (or one signal) off.
//! Only `http/protobuf` is spoken: a different `OTEL_EXPORTER_OTLP_PROTOCOL` is an error, not
//! a silent fallback.
//!
//! Delivery: records that could not be delivered are kept in `<home>/otel/undelivered.jsonl`
//! (at most [`MAX_BACKLOG`]; beyond it the oldest are dropped and counted in
//! `<home>/otel/dropped`) and sent
//! with the next record. Delivery is at-least-once; `hookgate.record_id` identifies a record.

mod client;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hookgate_audit::{Record, RecordDecision};
use opentelemetry::logs::{AnyValue, LogRecord as _, Logger as _, LoggerProvider as _, Severity};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry::trace::{Span as _, SpanKind, Status, Tracer as _};
use opentelemetry::{Array, KeyValue, StringValue, Value};
use opentelemetry_otlp::{LogExporter, SpanExporter, WithHttpConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::logs::SdkLoggerProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;

pub use client::UreqClient;

/// Most undelivered records kept for a later shipper; beyond it the oldest are dropped (and
/// counted): a collector that is down for days must not fill the disk.
pub const MAX_BACKLOG: usize = 10_000;

/// The instrumentation scope every record is emitted under.
const SCOPE: &str = "hookgate";

/// Why an export did not happen or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum OtelError {
    /// A setting this exporter cannot honour.
    #[error("{0}")]
    Config(String),
    /// The exporter could not be built (a malformed endpoint or header, for instance).
    #[error("cannot set up the OTLP exporter: {0}")]
    Build(String),
    /// The collector did not take every record (connection refused, non-2xx, timeout).
    #[error("OTLP export failed: {0}")]
    Export(String),
    /// The backlog file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Which signals to send, from the environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signals {
    /// A span per record.
    pub traces: bool,
    /// A log record per record.
    pub logs: bool,
}

/// The signals the environment asks for, or `None` when OTLP export is not configured (no
/// endpoint, or switched off). `var` is the environment lookup (`std::env::var` in the
/// binary); an empty value counts as unset, as the OpenTelemetry specification says.
///
/// Cheap by design: the hook calls this on every decision, and it must cost nothing
/// measurable when OTEL is unset.
pub fn configured(var: impl Fn(&str) -> Option<String>) -> Option<Signals> {
    let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    if set("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
        return None;
    }
    let off = |name: &str| set(name).is_some_and(|v| v.trim().eq_ignore_ascii_case("none"));
    let common = set("OTEL_EXPORTER_OTLP_ENDPOINT").is_some();
    let signals = Signals {
        traces: (common || set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_some())
            && !off("OTEL_TRACES_EXPORTER"),
        logs: (common || set("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT").is_some())
            && !off("OTEL_LOGS_EXPORTER"),
    };
    (signals.traces || signals.logs).then_some(signals)
}

/// Refuses a protocol other than `http/protobuf` (the only one built in), per signal.
fn check_protocol(var: &impl Fn(&str) -> Option<String>) -> Result<(), OtelError> {
    for name in [
        "OTEL_EXPORTER_OTLP_PROTOCOL",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL",
    ] {
        if let Some(value) = var(name).filter(|v| !v.trim().is_empty())
            && value.trim() != "http/protobuf"
        {
            return Err(OtelError::Config(format!(
                "${name}={value}: hookgate exports OTLP over http/protobuf only"
            )));
        }
    }
    Ok(())
}

/// The request timeout: `OTEL_EXPORTER_OTLP_TIMEOUT` milliseconds, 10 s by default (the
/// specification's default).
fn timeout(var: &impl Fn(&str) -> Option<String>) -> Result<Duration, OtelError> {
    match var("OTEL_EXPORTER_OTLP_TIMEOUT").filter(|v| !v.trim().is_empty()) {
        None => Ok(Duration::from_secs(10)),
        Some(text) => text.trim().parse().map(Duration::from_millis).map_err(|_| {
            OtelError::Config(format!(
                "$OTEL_EXPORTER_OTLP_TIMEOUT={text}: not a number of milliseconds"
            ))
        }),
    }
}

/// What one [`ship`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shipped {
    /// Records delivered (the new one and any backlog).
    pub delivered: usize,
}

/// Exports `record` together with any backlog under `home`, per the environment `var`. On
/// failure every record is put back into the backlog (bounded) and the error returned.
pub fn ship(
    record: &Record,
    home: &Path,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Shipped, OtelError> {
    let Some(signals) = configured(&var) else {
        return Ok(Shipped::default());
    };
    let backlog = Backlog::new(home);
    let claimed = backlog.claim()?;
    let mut records = claimed.records.clone();
    records.push(record.redacted());
    let result = check_protocol(&var)
        .and_then(|()| timeout(&var))
        .and_then(|timeout| export(&records, signals, timeout, &var));
    match result {
        Ok(()) => {
            claimed.done()?;
            Ok(Shipped {
                delivered: records.len(),
            })
        }
        Err(e) => {
            backlog.keep(&records)?;
            claimed.done()?;
            Err(e)
        }
    }
}

/// Sends `records` (already redacted) as spans and/or log records, and waits for the
/// collector's answers. `Ok` only when every request was answered 2xx.
pub fn export(
    records: &[Record],
    signals: Signals,
    timeout: Duration,
    var: &impl Fn(&str) -> Option<String>,
) -> Result<(), OtelError> {
    let client = UreqClient::new(timeout);
    let resource = resource(var);
    let build = |e: opentelemetry_otlp::ExporterBuildError| OtelError::Build(e.to_string());
    let tracer_provider = if signals.traces {
        let exporter = SpanExporter::builder()
            .with_http()
            .with_http_client(client.clone())
            .build()
            .map_err(build)?;
        Some(
            SdkTracerProvider::builder()
                .with_resource(resource.clone())
                .with_batch_exporter(exporter)
                .build(),
        )
    } else {
        None
    };
    let logger_provider = if signals.logs {
        let exporter = LogExporter::builder()
            .with_http()
            .with_http_client(client.clone())
            .build()
            .map_err(build)?;
        Some(
            SdkLoggerProvider::builder()
                .with_resource(resource)
                .with_batch_exporter(exporter)
                .build(),
        )
    } else {
        None
    };
    let tracer = tracer_provider.as_ref().map(|p| p.tracer(SCOPE));
    let logger = logger_provider.as_ref().map(|p| p.logger(SCOPE));
    for record in records {
        let attributes = attributes(record);
        let start = at_ms(record.time_ms);
        let end = start + Duration::from_micros(record.duration_us);
        let mut trace_context = None;
        if let Some(tracer) = &tracer {
            let mut span = tracer
                .span_builder(span_name(record))
                .with_kind(SpanKind::Internal)
                .with_start_time(start)
                .with_attributes(attributes.clone())
                .start(tracer);
            if matches!(record.decision, RecordDecision::Error) {
                span.set_status(Status::error(
                    record
                        .error
                        .clone()
                        .unwrap_or_else(|| "evaluation failed".to_owned()),
                ));
            }
            let context = span.span_context().clone();
            span.end_with_timestamp(end);
            trace_context = Some(context);
        }
        if let Some(logger) = &logger {
            let mut log = logger.create_log_record();
            log.set_event_name("hookgate.decision");
            log.set_timestamp(start);
            log.set_observed_timestamp(SystemTime::now());
            let (number, text) = severity(record.decision);
            log.set_severity_number(number);
            log.set_severity_text(text);
            log.set_body(AnyValue::String(body(record).into()));
            for kv in &attributes {
                log.add_attribute(kv.key.clone(), any_value(&kv.value));
            }
            if let Some(context) = &trace_context {
                log.set_trace_context(
                    context.trace_id(),
                    context.span_id(),
                    Some(context.trace_flags()),
                );
            }
            logger.emit(log);
        }
    }
    // Flush (waits for the exporters' answers), then shut down; either failing, or any request
    // answered with an error, is a failed export.
    let mut failures = Vec::new();
    if let Some(p) = &tracer_provider {
        if let Err(e) = p.force_flush() {
            failures.push(format!("traces: {e}"));
        }
        let _ = p.shutdown();
    }
    if let Some(p) = &logger_provider {
        if let Err(e) = p.force_flush() {
            failures.push(format!("logs: {e}"));
        }
        let _ = p.shutdown();
    }
    failures.extend(client.failures());
    if failures.is_empty() {
        Ok(())
    } else {
        Err(OtelError::Export(failures.join("; ")))
    }
}

/// `service.name` is `hookgate` unless `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`,
/// which the SDK reads) names another.
fn resource(var: &impl Fn(&str) -> Option<String>) -> Resource {
    let builder = Resource::builder()
        .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")));
    let named = var("OTEL_SERVICE_NAME").is_some_and(|v| !v.trim().is_empty())
        || var("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|v| v.contains("service.name="));
    if named {
        builder.build()
    } else {
        builder.with_service_name("hookgate").build()
    }
}

fn span_name(record: &Record) -> String {
    format!("hookgate {}", record.event.as_str())
}

/// The attributes a span and a log record share. Names follow the semantic conventions where
/// one exists (`session.id`), and sit under `hookgate.` otherwise.
pub fn attributes(record: &Record) -> Vec<KeyValue> {
    let mut out = vec![
        KeyValue::new("hookgate.record_id", record.id.clone()),
        KeyValue::new("hookgate.decision", record.decision.as_str()),
        KeyValue::new("hookgate.agent", record.agent.as_str().to_owned()),
        KeyValue::new("session.id", record.session.clone()),
        KeyValue::new("hookgate.event", record.event.as_str().to_owned()),
        KeyValue::new(
            "hookgate.duration_us",
            i64::try_from(record.duration_us).unwrap_or(i64::MAX),
        ),
        KeyValue::new(
            "hookgate.rule_ids",
            Value::Array(Array::String(
                record
                    .rules
                    .iter()
                    .cloned()
                    .map(StringValue::from)
                    .collect(),
            )),
        ),
    ];
    if let Some(tool) = &record.tool {
        out.push(KeyValue::new("hookgate.tool", tool.clone()));
    }
    if let Some(action) = &record.action {
        out.push(KeyValue::new("hookgate.action", action.clone()));
    }
    if !record.targets.is_empty() {
        out.push(KeyValue::new(
            "hookgate.targets",
            Value::Array(Array::String(
                record
                    .targets
                    .iter()
                    .cloned()
                    .map(StringValue::from)
                    .collect(),
            )),
        ));
    }
    if !record.cwd.is_empty() {
        out.push(KeyValue::new("hookgate.cwd", record.cwd.clone()));
    }
    out
}

/// A span attribute value as a log attribute value.
fn any_value(value: &Value) -> AnyValue {
    match value {
        Value::Bool(b) => AnyValue::Boolean(*b),
        Value::I64(n) => AnyValue::Int(*n),
        Value::F64(f) => AnyValue::Double(*f),
        Value::String(s) => AnyValue::String(s.clone()),
        Value::Array(Array::String(items)) => AnyValue::ListAny(Box::new(
            items.iter().cloned().map(AnyValue::String).collect(),
        )),
        other => AnyValue::String(other.as_str().into_owned().into()),
    }
}

/// A deny or an error is a warning-or-worse event for whoever watches the logs.
fn severity(decision: RecordDecision) -> (Severity, &'static str) {
    match decision {
        RecordDecision::Deny => (Severity::Warn, "WARN"),
        RecordDecision::Error => (Severity::Error, "ERROR"),
        RecordDecision::Ask | RecordDecision::Allow | RecordDecision::None => {
            (Severity::Info, "INFO")
        }
    }
}

/// The log body: what happened, in one line.
fn body(record: &Record) -> String {
    let what = record
        .targets
        .first()
        .or(record.tool.as_ref())
        .map_or_else(|| record.event.as_str().to_owned(), Clone::clone);
    match &record.reason {
        Some(reason) => format!("{} {}: {what} — {reason}", record.agent, record.decision),
        None => format!("{} {}: {what}", record.agent, record.decision),
    }
}

fn at_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

/// Undelivered records under `<home>/otel`.
#[derive(Debug)]
struct Backlog {
    dir: PathBuf,
    file: PathBuf,
}

/// A backlog taken by one shipper (renamed away, so no other shipper sends it too).
#[derive(Debug)]
struct Claimed {
    path: Option<PathBuf>,
    records: Vec<Record>,
}

impl Backlog {
    fn new(home: &Path) -> Self {
        let dir = home.join("otel");
        Self {
            file: dir.join("undelivered.jsonl"),
            dir,
        }
    }

    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OtelError + '_ {
        move |source| OtelError::Io {
            path: path.to_owned(),
            source,
        }
    }

    /// Takes the backlog by an atomic rename; lines that are not records are left aside in
    /// `unreadable.jsonl` rather than dropped.
    fn claim(&self) -> Result<Claimed, OtelError> {
        let path = self
            .dir
            .join(format!("sending-{}.jsonl", std::process::id()));
        match fs::rename(&self.file, &path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Claimed {
                    path: None,
                    records: Vec::new(),
                });
            }
            Err(e) => return Err(Self::io(&self.file)(e)),
        }
        let text = fs::read_to_string(&path).map_err(Self::io(&path))?;
        let mut records = Vec::new();
        let mut unreadable = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if let Ok(r) = serde_json::from_str(line) {
                records.push(r);
            } else {
                unreadable.push_str(line);
                unreadable.push('\n');
            }
        }
        if !unreadable.is_empty() {
            append(&self.dir.join("unreadable.jsonl"), unreadable.as_bytes())?;
        }
        Ok(Claimed {
            path: Some(path),
            records,
        })
    }

    /// Appends `records` (oldest first) to the backlog, up to [`MAX_BACKLOG`] lines in all;
    /// the oldest of `records` that do not fit are dropped and counted in `dropped`.
    fn keep(&self, records: &[Record]) -> Result<(), OtelError> {
        let existing = fs::read_to_string(&self.file)
            .map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count());
        let room = MAX_BACKLOG.saturating_sub(existing);
        let skip = records.len().saturating_sub(room);
        let mut text = String::new();
        for r in records.iter().skip(skip) {
            text.push_str(&serde_json::to_string(r).map_err(|e| OtelError::Io {
                path: self.file.clone(),
                source: std::io::Error::other(e),
            })?);
            text.push('\n');
        }
        append(&self.file, text.as_bytes())?;
        if skip > 0 {
            let counter = self.dir.join("dropped");
            let before: u64 = fs::read_to_string(&counter)
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(0);
            fs::write(&counter, format!("{}\n", before + skip as u64))
                .map_err(Self::io(&counter))?;
        }
        Ok(())
    }
}

impl Claimed {
    fn done(&self) -> Result<(), OtelError> {
        match &self.path {
            Some(path) => fs::remove_file(path).map_err(Backlog::io(path)),
            None => Ok(()),
        }
    }
}

/// Appends `bytes` to `path` (owner-only, creating its directory).
fn append(path: &Path, bytes: &[u8]) -> Result<(), OtelError> {
    use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
    if let Some(dir) = path.parent() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(Backlog::io(dir))?;
    }
    fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(Backlog::io(path))
}

#[cfg(test)]
mod tests;
