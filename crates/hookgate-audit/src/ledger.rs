//! The hook ledger: one row per hook run (`hookgate fire`, `hookgate run`), kept next to the
//! audit store in `<home>/hooks.db`, read by `hookgate log --hooks`.
//!
//! The audit records answer "what did the guard decide"; the ledger answers "which hooks ran,
//! for how long, and what each came to" — Meerkat's persisted `HookExecutionReport`s. It has
//! its own database file so its schema can evolve without touching the audit store's
//! migrations.
//!
//! Invariants: reasons are redacted with `hookgate-secrets` before they are written (a hook's
//! failure message may quote its input); a write is one transaction, so a run's rows appear
//! together or not at all; the file is created owner-only.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_core::{EventId, Outcome, TraceResult};
use rusqlite::{Connection, OpenFlags, params};
use serde::{Deserialize, Serialize};

use crate::AuditError;

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS hook_runs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    time_ms INTEGER NOT NULL,
    session TEXT NOT NULL,
    event TEXT NOT NULL,
    hook_id TEXT NOT NULL,
    runtime TEXT NOT NULL,
    mode TEXT NOT NULL,
    result TEXT NOT NULL,
    duration_ms REAL NOT NULL,
    reason TEXT
);
CREATE INDEX IF NOT EXISTS hook_runs_session ON hook_runs (session, seq);";

/// What one hook run came to (the trace result, without its payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookRunResult {
    /// Ran, no verdict.
    NoOpinion,
    /// Allowed.
    Allow,
    /// Asked for a human.
    Ask,
    /// Denied.
    Deny,
    /// Failed (timeout, crash, bad output, …).
    Failed,
    /// Not run (a deny before it, the concurrency limit, …).
    Skipped,
    /// Started in the background.
    Started,
}

impl HookRunResult {
    fn as_str(self) -> &'static str {
        match self {
            Self::NoOpinion => "no_opinion",
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
            Self::Failed => "failed",
            Self::Skipped => "skipped",
            Self::Started => "started",
        }
    }

    fn parse(word: &str) -> Option<Self> {
        serde_json::from_value(serde_json::Value::String(word.to_owned())).ok()
    }
}

/// One row of the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookRun {
    /// When the dispatch finished, ms since the epoch.
    pub time_ms: u64,
    /// The session the event belonged to.
    pub session: String,
    /// The event (native name).
    pub event: String,
    /// The configured hook id.
    pub hook_id: String,
    /// `command`, `http`, `builtin`, `in_process` or `model`.
    pub runtime: String,
    /// `foreground` or `background`.
    pub mode: String,
    /// What it came to.
    pub result: HookRunResult,
    /// Wall time.
    pub duration_ms: f64,
    /// The reason given, redacted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl HookRun {
    /// The ledger rows of one dispatch: one per trace entry, in trace order.
    pub fn from_outcome(session: &str, time_ms: u64, outcome: &Outcome) -> Vec<Self> {
        outcome
            .trace
            .iter()
            .map(|trace| {
                let (result, reason) = match &trace.result {
                    TraceResult::NoOpinion => (HookRunResult::NoOpinion, None),
                    TraceResult::Allow { reason } => (HookRunResult::Allow, reason.clone()),
                    TraceResult::Ask { reason } => (HookRunResult::Ask, reason.clone()),
                    TraceResult::Deny { reason } => (HookRunResult::Deny, Some(reason.clone())),
                    TraceResult::Failed { reason, .. } => {
                        (HookRunResult::Failed, Some(reason.clone()))
                    }
                    TraceResult::Skipped { why } => (HookRunResult::Skipped, Some(why.clone())),
                    TraceResult::Started => (HookRunResult::Started, None),
                };
                Self {
                    time_ms,
                    session: session.to_owned(),
                    event: outcome.event.name().to_owned(),
                    hook_id: trace.id.as_str().to_owned(),
                    runtime: trace.runtime.as_str().to_owned(),
                    mode: serde_json::to_value(trace.mode)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    result,
                    duration_ms: trace.duration_ms,
                    reason: reason.map(|r| hookgate_secrets::redact(&r).into_owned()),
                }
            })
            .collect()
    }
}

/// The ledger database.
#[derive(Debug)]
pub struct HookLedger {
    conn: Connection,
    path: PathBuf,
}

impl HookLedger {
    /// Opens (creating if needed) `<home>/hooks.db`.
    ///
    /// # Errors
    /// [`AuditError::Io`] when the file cannot be created, [`AuditError::Sqlite`] otherwise.
    pub fn open(home: &Path) -> Result<Self, AuditError> {
        let path = home.join("hooks.db");
        crate::private::create_file_in(home, &path)?;
        let conn = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(AuditError::sqlite(&path))?;
        conn.busy_timeout(Duration::from_secs(5))
            .map_err(AuditError::sqlite(&path))?;
        conn.execute_batch(SCHEMA)
            .map_err(AuditError::sqlite(&path))?;
        Ok(Self { conn, path })
    }

    /// Appends `runs` in one transaction.
    ///
    /// # Errors
    /// [`AuditError::Sqlite`].
    pub fn record(&mut self, runs: &[HookRun]) -> Result<(), AuditError> {
        let path = self.path.clone();
        let err = |e| AuditError::sqlite(&path)(e);
        let tx = self.conn.transaction().map_err(err)?;
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO hook_runs (time_ms, session, event, hook_id, runtime, mode, result, duration_ms, reason)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )
                .map_err(err)?;
            for run in runs {
                insert
                    .execute(params![
                        i64::try_from(run.time_ms).unwrap_or(i64::MAX),
                        run.session,
                        run.event,
                        run.hook_id,
                        run.runtime,
                        run.mode,
                        run.result.as_str(),
                        run.duration_ms,
                        run.reason,
                    ])
                    .map_err(err)?;
            }
        }
        tx.commit().map_err(err)
    }

    /// The newest `limit` runs (optionally of one session and/or one event), newest first.
    ///
    /// # Errors
    /// [`AuditError::Sqlite`].
    pub fn recent(
        &self,
        limit: usize,
        session: Option<&str>,
        event: Option<EventId>,
    ) -> Result<Vec<HookRun>, AuditError> {
        let err = |e| AuditError::sqlite(&self.path)(e);
        let mut statement = self
            .conn
            .prepare(
                "SELECT time_ms, session, event, hook_id, runtime, mode, result, duration_ms, reason
                 FROM hook_runs
                 WHERE (?1 IS NULL OR session = ?1) AND (?2 IS NULL OR event = ?2)
                 ORDER BY seq DESC LIMIT ?3",
            )
            .map_err(err)?;
        let rows = statement
            .query_map(
                params![
                    session,
                    event.map(EventId::name),
                    i64::try_from(limit).unwrap_or(i64::MAX)
                ],
                |row| {
                    let result: String = row.get(6)?;
                    Ok(HookRun {
                        time_ms: u64::try_from(row.get::<_, i64>(0)?).unwrap_or(0),
                        session: row.get(1)?,
                        event: row.get(2)?,
                        hook_id: row.get(3)?,
                        runtime: row.get(4)?,
                        mode: row.get(5)?,
                        // A word this version does not know reads as `failed`, never as a pass.
                        result: HookRunResult::parse(&result).unwrap_or(HookRunResult::Failed),
                        duration_ms: row.get(7)?,
                        reason: row.get(8)?,
                    })
                },
            )
            .map_err(err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookgate_core::{HookId, HookTrace, Mode, RuntimeKind};

    fn outcome() -> Outcome {
        let mut outcome = Outcome::empty(EventId::PreToolUse);
        outcome.trace = vec![
            HookTrace {
                id: HookId::new("judge"),
                runtime: RuntimeKind::Model,
                mode: Mode::Foreground,
                duration_ms: 12.5,
                result: TraceResult::Deny {
                    reason: "token xoxb-681259216806-9881641519714-EB0dwXZN0QP4Ws7mmidJxjsy".into(),
                },
                notes: Vec::new(),
            },
            HookTrace {
                id: HookId::new("audit"),
                runtime: RuntimeKind::Command,
                mode: Mode::Background,
                duration_ms: 0.0,
                result: TraceResult::Skipped {
                    why: "skipped: a foreground hook denied".into(),
                },
                notes: Vec::new(),
            },
        ];
        outcome
    }

    #[test]
    fn every_hook_run_of_a_dispatch_is_recorded_and_read_back_newest_first() {
        let home = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut ledger = HookLedger::open(home.path()).unwrap_or_else(|e| panic!("{e}"));
        ledger
            .record(&HookRun::from_outcome("s1", 1000, &outcome()))
            .unwrap_or_else(|e| panic!("{e}"));
        ledger
            .record(&HookRun::from_outcome(
                "s2",
                2000,
                &Outcome::empty(EventId::Stop),
            ))
            .unwrap_or_else(|e| panic!("{e}"));
        // Reopened: the rows are persisted.
        drop(ledger);
        let ledger = HookLedger::open(home.path()).unwrap_or_else(|e| panic!("{e}"));
        let runs = ledger
            .recent(10, Some("s1"), None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].hook_id, "audit");
        assert_eq!(runs[0].result, HookRunResult::Skipped);
        assert_eq!(runs[0].mode, "background");
        assert_eq!(runs[1].hook_id, "judge");
        assert_eq!(runs[1].runtime, "model");
        assert_eq!(runs[1].result, HookRunResult::Deny);
        assert!(
            !runs[1]
                .reason
                .as_deref()
                .unwrap_or_default()
                .contains("EB0dwXZN0QP4Ws7mmidJxjsy"),
            "reasons are redacted: {:?}",
            runs[1].reason
        );
        assert!(
            ledger
                .recent(10, None, Some(EventId::Stop))
                .unwrap_or_else(|e| panic!("{e}"))
                .is_empty()
        );
    }
}
