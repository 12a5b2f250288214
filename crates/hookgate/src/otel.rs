//! `hookgate ship-otel` (hidden): exports one audit record (JSON on stdin) over OTLP/HTTP,
//! with any records earlier shippers could not deliver. `hookgate hook` starts it detached
//! when `OTEL_EXPORTER_OTLP_*ENDPOINT` is set, so the agent never waits for a collector; the
//! library (`hookgate-otel`) owns the export and the backlog.

use std::io::Read as _;

use hookgate_audit::Record;

use crate::Failure;

/// Largest record read from stdin (the hook writes one redacted record).
const MAX_RECORD: u64 = 16 * 1024 * 1024 + 1;

/// Whether the environment asks for OTLP export (cheap: environment lookups only).
pub(crate) fn configured() -> bool {
    hookgate_otel::configured(env).is_some()
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Exit 0 when everything was delivered (or export is not configured), 1 otherwise — the
/// records are then in `$HOOKGATE_HOME/otel/undelivered.jsonl` for the next shipper.
pub(crate) fn ship() -> Result<u8, Failure> {
    let mut text = Vec::new();
    std::io::stdin()
        .take(MAX_RECORD)
        .read_to_end(&mut text)
        .map_err(|e| Failure(format!("cannot read stdin: {e}")))?;
    let record: Record = serde_json::from_slice(&text)
        .map_err(|e| Failure(format!("stdin is not a record: {e}")))?;
    hookgate_otel::ship(&record, &hookgate_audit::default_home(), env)?;
    Ok(0)
}
