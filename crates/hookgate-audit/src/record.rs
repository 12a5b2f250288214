//! The audit record, its id, its redaction and its spool encoding.

use std::borrow::Cow;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use hookgate_core::{AgentKind, Decision, EventId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What hookgate answered for one event: the decision lattice of `hookgate_core::Decision`
/// plus the two outcomes only the audit trail has.
///
/// Stored as the same snake_case words the record always used (`deny`, `ask`, `allow`,
/// `none`, `error`), so stores written before the field was typed read back unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordDecision {
    /// The call may proceed.
    Allow,
    /// A human must confirm.
    Ask,
    /// The call is blocked.
    Deny,
    /// hookgate had no opinion (the agent decides).
    None,
    /// Evaluation failed; the configured fail mode was applied.
    Error,
}

impl RecordDecision {
    /// The stored word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
            Self::None => "none",
            Self::Error => "error",
        }
    }

    /// Every decision.
    pub const ALL: [Self; 5] = [Self::Allow, Self::Ask, Self::Deny, Self::None, Self::Error];

    /// The decision for a stored word; `None` for a word no hookgate ever wrote.
    pub fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str() == word)
    }
}

impl From<Option<Decision>> for RecordDecision {
    /// A verdict as recorded: no verdict is `none` (the agent's own flow decided).
    fn from(decision: Option<Decision>) -> Self {
        match decision {
            Some(Decision::Allow) => Self::Allow,
            Some(Decision::Ask) => Self::Ask,
            Some(Decision::Deny) => Self::Deny,
            None => Self::None,
        }
    }
}

impl From<Decision> for RecordDecision {
    fn from(decision: Decision) -> Self {
        Some(decision).into()
    }
}

impl fmt::Display for RecordDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Declares a record field that is one of core's enums when hookgate knows the value, and the
/// text as received when it does not: a record is evidence, so a value this build does not
/// know (an agent's new event, a record written by a newer hookgate) is kept verbatim instead
/// of being rejected or coerced. Stored as the plain string in JSON and SQLite.
macro_rules! known_or_unknown {
    ($(#[$doc:meta])* $name:ident, $known:ty, $as_str:expr, $parse:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            /// A value hookgate knows.
            Known($known),
            /// Any other text, kept as received.
            Unknown(String),
        }

        impl $name {
            /// The stored text.
            pub fn as_str(&self) -> &str {
                match self {
                    Self::Known(k) => $as_str(*k),
                    Self::Unknown(s) => s,
                }
            }

            /// The known value, if any.
            pub fn known(&self) -> Option<$known> {
                match self {
                    Self::Known(k) => Some(*k),
                    Self::Unknown(_) => None,
                }
            }
        }

        impl From<$known> for $name {
            fn from(k: $known) -> Self {
                Self::Known(k)
            }
        }

        impl From<&str> for $name {
            /// Parses the stored text (known names become [`Self::Known`]).
            fn from(s: &str) -> Self {
                match $parse(s) {
                    Some(k) => Self::Known(k),
                    None => Self::Unknown(s.to_owned()),
                }
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                match $parse(&s) {
                    Some(k) => Self::Known(k),
                    None => Self::Unknown(s),
                }
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d).map(Self::from)
            }
        }
    };
}

known_or_unknown!(
    /// The agent a record is about: `claude`, `codex`, … or, verbatim, a name this build does
    /// not know.
    RecordAgent,
    AgentKind,
    AgentKind::as_str,
    AgentKind::parse
);

known_or_unknown!(
    /// The hook event a record is about, by its native snake_case name (`pre_tool_use`, …);
    /// an event hookgate has no contract for, or `unknown` for a payload that could not be
    /// read, is kept as text.
    RecordEvent,
    EventId,
    EventId::name,
    EventId::from_native
);

/// Reads `rules` from the current `"rules": [..]` and from the `"rule": "id"` (or `null`) of
/// records written before a verdict carried every determining id, so old stores read back.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        Many(Vec<String>),
        One(String),
        Null(()),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::Many(v) => v,
        OneOrMany::One(s) => vec![s],
        OneOrMany::Null(()) => Vec::new(),
    })
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
    pub agent: RecordAgent,
    /// The agent's session id.
    pub session: String,
    /// The agent's working directory.
    #[serde(default)]
    pub cwd: String,
    /// The hook event (`pre_tool_use`, `session_start`, …).
    pub event: RecordEvent,
    /// The agent's tool name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The canonical action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Paths, commands or URLs the action touches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// What hookgate answered.
    pub decision: RecordDecision,
    /// Why, in words shown to the agent or user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Every rule and invariant id that determined the decision (Cedar-style: all the
    /// enforcing matches whose effect *is* the decision, not merely the first match), so
    /// `stats` by rule counts what really decided. Old records' single `rule` reads back as
    /// a one-element list.
    #[serde(
        default,
        alias = "rule",
        deserialize_with = "one_or_many",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub rules: Vec<String>,
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
        agent: impl Into<RecordAgent>,
        session: impl Into<String>,
        event: impl Into<RecordEvent>,
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
            decision: RecordDecision::None,
            reason: None,
            rules: Vec::new(),
            duration_us: 0,
            error: None,
            trace: Value::Null,
        }
    }

    /// What the call was about, for people: the shell command judged (from the trace), else
    /// the paths, URLs or commands it touches, else its canonical action; empty for events
    /// without a tool.
    pub fn subject(&self) -> String {
        if let Some(command) = self.trace.get("command").and_then(Value::as_str) {
            return command.to_owned();
        }
        if !self.targets.is_empty() {
            return self.targets.join(", ");
        }
        self.action.clone().unwrap_or_default()
    }

    /// A lifecycle row without a decision: an event other than a tool call about to run
    /// (`session_start`, `post_tool_use`, `stop`, …) on which hookgate had no opinion. `log`
    /// hides these unless asked (`--all`): they say nothing anyone has to act on. A tool call
    /// with no opinion is not one — it is a call that ran.
    pub fn is_lifecycle(&self) -> bool {
        self.decision == RecordDecision::None
            && !matches!(
                self.event.known(),
                Some(EventId::PreToolUse | EventId::PermissionRequest)
            )
    }

    /// Whether `needle` occurs (case-insensitively) in the command, targets, tool, action,
    /// reason or determining ids: `log --grep`'s search.
    pub fn mentions(&self, needle: &str) -> bool {
        let needle = needle.to_lowercase();
        let has = |s: &str| s.to_lowercase().contains(&needle);
        has(&self.subject())
            || self.targets.iter().any(|t| has(t))
            || [&self.tool, &self.action, &self.reason]
                .into_iter()
                .flatten()
                .any(|s| has(s))
            || self.rules.iter().any(|r| has(r))
    }

    /// A copy with every payload-derived field passed through the secret redactor.
    ///
    /// `agent`, `session`, `event`, `decision` and `rules` are identifiers hookgate filters on
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
            decision: self.decision,
            reason: opt(self.reason.as_ref()),
            rules: self.rules.clone(),
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
