//! Sessions of `hookgate run`, kept in the same SQLite file as the audit trail so one store
//! holds what a run decided and what it said.
//!
//! The table is this module's own (`runs`), created with `CREATE TABLE IF NOT EXISTS` when a
//! run opens the store: it is independent of the record schema's migrations, so neither can
//! break the other. The conversation is stored redacted (the crate's invariant: no secret is
//! written anywhere); a resumed session sees the redaction placeholders, never the secret.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::AuditError;

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS runs (
    id          TEXT PRIMARY KEY NOT NULL,
    created_ms  INTEGER NOT NULL,
    updated_ms  INTEGER NOT NULL,
    model       TEXT NOT NULL,
    cwd         TEXT NOT NULL,
    status      TEXT NOT NULL,
    state       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_updated ON runs (updated_ms);";

/// One stored session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredRun {
    /// The session id.
    pub id: String,
    /// When it was first saved (ms since the epoch).
    pub created_ms: u64,
    /// When it was last saved.
    pub updated_ms: u64,
    /// The model spec it ran with.
    pub model: String,
    /// Its working directory.
    pub cwd: String,
    /// How its last run ended (`completed`, `interrupted`, …).
    pub status: String,
    /// The runtime's session state (conversation, context, counters), redacted.
    pub state: Value,
}

/// The `runs` table of `<home>/audit.db`.
#[derive(Debug)]
pub struct Runs {
    conn: Connection,
    path: PathBuf,
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Runs {
    /// Opens (creating if needed) the runs table in `<home>/audit.db`; the directory and the
    /// file are created owner-only, like the rest of the store.
    pub fn open(home: &Path) -> Result<Self, AuditError> {
        let path = home.join("audit.db");
        crate::private::create_file_in(home, &path)?;
        let err = || AuditError::sqlite(&path);
        let conn = Connection::open(&path).map_err(err())?;
        conn.busy_timeout(Duration::from_secs(10)).map_err(err())?;
        conn.execute_batch(SCHEMA).map_err(err())?;
        Ok(Self { conn, path })
    }

    /// Saves `run` (insert or replace), redacting its state first; `created_ms` of an
    /// existing row is kept.
    pub fn save(&self, run: &StoredRun) -> Result<(), AuditError> {
        let state = hookgate_secrets::redact_json(&run.state).unwrap_or_else(|| run.state.clone());
        let text = serde_json::to_string(&state).map_err(AuditError::json(&self.path, None))?;
        self.conn
            .execute(
                "INSERT INTO runs (id, created_ms, updated_ms, model, cwd, status, state)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT(id) DO UPDATE SET updated_ms = ?3, model = ?4, cwd = ?5,
                     status = ?6, state = ?7",
                params![
                    run.id,
                    to_i64(run.created_ms),
                    to_i64(run.updated_ms),
                    run.model,
                    run.cwd,
                    run.status,
                    text
                ],
            )
            .map_err(AuditError::sqlite(&self.path))?;
        Ok(())
    }

    /// The session `id`, if stored.
    pub fn load(&self, id: &str) -> Result<Option<StoredRun>, AuditError> {
        let row = self
            .conn
            .query_row(
                "SELECT id, created_ms, updated_ms, model, cwd, status, state FROM runs WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                    ))
                },
            )
            .optional()
            .map_err(AuditError::sqlite(&self.path))?;
        let Some((id, created, updated, model, cwd, status, state)) = row else {
            return Ok(None);
        };
        let state = serde_json::from_str(&state).map_err(AuditError::json(&self.path, None))?;
        Ok(Some(StoredRun {
            id,
            created_ms: u64::try_from(created).unwrap_or(0),
            updated_ms: u64::try_from(updated).unwrap_or(0),
            model,
            cwd,
            status,
            state,
        }))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn run(id: &str, state: Value) -> StoredRun {
        StoredRun {
            id: id.into(),
            created_ms: 1,
            updated_ms: 2,
            model: "script:s.json".into(),
            cwd: "/w".into(),
            status: "completed".into(),
            state,
        }
    }

    #[test]
    fn a_saved_run_loads_back_and_an_update_keeps_its_creation_time() {
        let home = tempfile::tempdir().unwrap();
        let runs = Runs::open(home.path()).unwrap();
        runs.save(&run("r1", json!({"turns": 1}))).unwrap();
        let mut again = run("r1", json!({"turns": 2}));
        again.created_ms = 99;
        again.updated_ms = 5;
        again.status = "interrupted".into();
        runs.save(&again).unwrap();
        let loaded = Runs::open(home.path())
            .unwrap()
            .load("r1")
            .unwrap()
            .unwrap();
        assert_eq!(loaded.created_ms, 1);
        assert_eq!(loaded.updated_ms, 5);
        assert_eq!(loaded.status, "interrupted");
        assert_eq!(loaded.state, json!({"turns": 2}));
        assert!(runs.load("nope").unwrap().is_none());
    }

    #[test]
    fn secrets_in_a_conversation_are_redacted_before_they_are_stored() {
        let home = tempfile::tempdir().unwrap();
        let runs = Runs::open(home.path()).unwrap();
        let key = "AKIAIOSFODNN7EXAMPLQ";
        runs.save(&run(
            "r1",
            json!({"messages": [{"text": format!("key {key}")}]}),
        ))
        .unwrap();
        let stored = runs.load("r1").unwrap().unwrap();
        assert!(!stored.state.to_string().contains(key), "{}", stored.state);
    }

    #[test]
    fn a_new_store_opened_by_runs_is_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("data/hookgate");
        Runs::open(&home)
            .unwrap()
            .save(&run("r1", json!({})))
            .unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&home), 0o700, "the data dir");
        assert_eq!(
            mode(&root.path().join("data")),
            0o700,
            "a parent it created"
        );
        for entry in std::fs::read_dir(&home).unwrap() {
            let path = entry.unwrap().path();
            assert_eq!(mode(&path) & 0o077, 0, "{}", path.display());
        }
        assert!(home.join("audit.db").exists());
    }

    #[test]
    fn the_hook_ledger_creates_its_home_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("fresh");
        crate::HookLedger::open(&home).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&home), 0o700);
        assert_eq!(mode(&home.join("hooks.db")) & 0o077, 0);
    }

    #[test]
    fn the_runs_table_lives_beside_the_audit_records() {
        let home = tempfile::tempdir().unwrap();
        Runs::open(home.path())
            .unwrap()
            .save(&run("r1", json!({})))
            .unwrap();
        let store = crate::Store::open(home.path(), crate::Backend::Sqlite).unwrap();
        assert_eq!(store.path(), home.path().join("audit.db"));
        assert!(store.query(&crate::Filter::default()).unwrap().is_empty());
    }
}
