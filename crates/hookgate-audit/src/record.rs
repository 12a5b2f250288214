//! The audit record, its id, its redaction and its spool encoding.

use std::borrow::Cow;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The values of [`Record::decision`].
pub mod decision {
    /// The call may proceed.
    pub const ALLOW: &str = "allow";
    /// A human must confirm.
    pub const ASK: &str = "ask";
    /// The call is blocked.
    pub const DENY: &str = "deny";
    /// hookgate had no opinion (the agent decides).
    pub const NONE: &str = "none";
    /// Evaluation failed; the configured fail mode was applied.
    pub const ERROR: &str = "error";
}

/// One evaluated event.
///
/// Fields that come from a payload (`cwd`, `tool`, `action`, `targets`, `reason`, `error`,
/// `trace`) are redacted by [`crate::Store::record`] and [`crate::WebhookSink::send`] before
/// they reach a disk or a socket, so callers may pass them as received.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct Record {
    /// Unique and sortable by time: 12 hex digits of milliseconds, `-`, 16 random hex digits.
    pub id: String,
    /// Milliseconds since the Unix epoch.
    pub time_ms: u64,
    /// `claude`, `codex`, `gemini`, `copilot`, `cursor`, …
    pub agent: String,
    /// The agent's session id.
    pub session: String,
    /// The agent's working directory.
    #[serde(default)]
    pub cwd: String,
    /// The hook event (`pre_tool_use`, `session_start`, …).
    pub event: String,
    /// The agent's tool name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The canonical action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Paths, commands or URLs the action touches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// One of [`decision`]'s values.
    pub decision: String,
    /// Why, in words shown to the agent or user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The rule or invariant id that decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Wall time of the whole evaluation.
    #[serde(default)]
    pub duration_us: u64,
    /// The internal error, for `decision == "error"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The per-step evaluation trace with durations (free-form JSON).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub trace: Value,
}

impl Record {
    /// A record stamped now with a fresh id, decision `none` and every optional field empty;
    /// fill in the rest with struct-update syntax or field assignment.
    pub fn new(
        agent: impl Into<String>,
        session: impl Into<String>,
        event: impl Into<String>,
    ) -> Self {
        let time_ms = now_ms();
        Self {
            id: new_id(time_ms),
            time_ms,
            agent: agent.into(),
            session: session.into(),
            cwd: String::new(),
            event: event.into(),
            tool: None,
            action: None,
            targets: Vec::new(),
            decision: decision::NONE.to_owned(),
            reason: None,
            rule: None,
            duration_us: 0,
            error: None,
            trace: Value::Null,
        }
    }

    /// A copy with every payload-derived field passed through the secret redactor.
    ///
    /// `agent`, `session`, `event`, `decision` and `rule` are identifiers hookgate filters on
    /// and are left alone; everything that can carry text from a tool call is redacted.
    #[must_use]
    pub fn redacted(&self) -> Self {
        fn text(s: &str) -> String {
            match hookgate_secrets::redact(s) {
                Cow::Borrowed(b) => b.to_owned(),
                Cow::Owned(o) => o,
            }
        }
        fn opt(s: Option<&String>) -> Option<String> {
            s.map(|s| text(s))
        }
        Self {
            id: self.id.clone(),
            time_ms: self.time_ms,
            agent: self.agent.clone(),
            session: self.session.clone(),
            cwd: text(&self.cwd),
            event: self.event.clone(),
            tool: opt(self.tool.as_ref()),
            action: opt(self.action.as_ref()),
            targets: self.targets.iter().map(|t| text(t)).collect(),
            decision: self.decision.clone(),
            reason: opt(self.reason.as_ref()),
            rule: self.rule.clone(),
            duration_us: self.duration_us,
            error: opt(self.error.as_ref()),
            trace: hookgate_secrets::redact_json(&self.trace).unwrap_or_else(|| self.trace.clone()),
        }
    }
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A new record id for `time_ms`: `{ms:012x}-{random:016x}`.
///
/// Lexicographic order is time order (12 hex digits last until the year 10889). The random
/// half comes from std's per-process random hash keys mixed with the pid, a process-wide
/// counter and the clock's nanoseconds, so two hook processes started in the same
/// millisecond do not collide, without a dependency on a random-number crate.
pub fn new_id(time_ms: u64) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{time_ms:012x}-{:016x}", hasher.finish())
}

/// Longest spool line. Bigger records lose their trace and have long texts cut, so one
/// runaway trace (a 20 MiB tool output pasted into it) cannot make every later query slow.
pub(crate) const MAX_LINE_BYTES: usize = 256 * 1024;
/// What a long text field is cut to when a record is over [`MAX_LINE_BYTES`].
const CUT_TEXT_BYTES: usize = 4 * 1024;
/// How many targets survive when a record is over [`MAX_LINE_BYTES`].
const CUT_TARGETS: usize = 64;

/// One JSON line, newline included, at most about [`MAX_LINE_BYTES`].
///
/// Call on an already redacted record: cutting first could split a secret so that the
/// redactor no longer recognises the half that is kept.
pub(crate) fn encode_line(record: &Record) -> Result<Vec<u8>, serde_json::Error> {
    let mut line = serde_json::to_vec(record)?;
    if line.len() > MAX_LINE_BYTES {
        let original = line.len();
        let mut small = record.clone();
        small.trace = serde_json::json!({ "truncated": true, "original_line_bytes": original });
        cut(&mut small.cwd);
        [
            &mut small.reason,
            &mut small.error,
            &mut small.tool,
            &mut small.action,
        ]
        .into_iter()
        .flatten()
        .for_each(cut);
        small.targets.truncate(CUT_TARGETS);
        small.targets.iter_mut().for_each(cut);
        line = serde_json::to_vec(&small)?;
    }
    line.push(b'\n');
    Ok(line)
}

fn cut(text: &mut String) {
    if text.len() > CUT_TEXT_BYTES {
        let mut end = CUT_TEXT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
}
