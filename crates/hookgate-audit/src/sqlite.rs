//! The SQLite side: schema migrations, batch insertion, queries.
//!
//! Only readers and the occasional batch ingestion open the database; the hook's hot path
//! never does (closing the last WAL connection checkpoints, which alone costs more than the
//! whole append).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, TransactionBehavior, params};

use crate::cap::Evicted;
use crate::error::AuditError;
use crate::query::{Filter, Stats, StatsBuilder};
use crate::record::{Record, RecordDecision};

/// Schema steps; `PRAGMA user_version` is the number applied. Append, never edit: a store
/// in the field has run the old steps already.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: records and the indexes `log`/`stats` filter on. Every filter also orders by time.
    "CREATE TABLE records (
        id          TEXT PRIMARY KEY NOT NULL,
        time_ms     INTEGER NOT NULL,
        agent       TEXT NOT NULL,
        session     TEXT NOT NULL,
        cwd         TEXT NOT NULL,
        event       TEXT NOT NULL,
        tool        TEXT,
        action      TEXT,
        targets     TEXT NOT NULL,
        decision    TEXT NOT NULL,
        reason      TEXT,
        rule        TEXT,
        duration_us INTEGER NOT NULL,
        error       TEXT,
        trace       TEXT NOT NULL
    );
    CREATE INDEX records_time ON records (time_ms);
    CREATE INDEX records_agent_time ON records (agent, time_ms);
    CREATE INDEX records_decision_time ON records (decision, time_ms);
    CREATE INDEX records_session_time ON records (session, time_ms);",
    // 2: every determining rule/invariant id, as a JSON array (a verdict can have several;
    // `rule` held only the first match, which was often not the one that decided). Old rows
    // carry their single `rule` over; `rule` stays for older readers and is no longer written.
    "ALTER TABLE records ADD COLUMN rules TEXT NOT NULL DEFAULT '[]';
    UPDATE records SET rules = json_array(rule) WHERE rule IS NOT NULL;",
    // 3: how many records the size cap evicted, by decision (issue 7: an eviction is never
    // silent; `stats` and `doctor` read this).
    "CREATE TABLE evicted (
        decision TEXT PRIMARY KEY NOT NULL,
        count    INTEGER NOT NULL
    );",
];

const COLUMNS: &str = "id, time_ms, agent, session, cwd, event, tool, action, targets, decision, \
                       reason, rules, duration_us, error, trace";

/// The schema version this build writes.
pub(crate) fn schema_version() -> i64 {
    i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX)
}

#[derive(Debug)]
pub(crate) struct Db {
    conn: Connection,
    path: PathBuf,
}

impl Db {
    /// Opens (creating if needed) and migrates. WAL lets readers run while an ingester
    /// writes; `synchronous=NORMAL` is durable across process crashes, which is what a hook
    /// store meets, and skips an fsync per commit; the busy timeout turns lock contention
    /// into waiting instead of "database is locked".
    pub(crate) fn open(path: &Path, busy_timeout: Duration) -> Result<Self, AuditError> {
        let err = || AuditError::sqlite(path);
        // Created here, owner-only, because SQLite would create it world-readable (and
        // gives the `-wal`/`-shm` files the database file's mode).
        crate::private::create_file(path)?;
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(err())?;
        conn.busy_timeout(busy_timeout).map_err(err())?;
        let mut db = Self {
            conn,
            path: path.to_owned(),
        };
        let version = db.user_version()?;
        if version > schema_version() {
            return Err(AuditError::SchemaTooNew {
                path: path.to_owned(),
                found: version,
                supported: schema_version(),
            });
        }
        if version < schema_version() {
            db.migrate()?;
        }
        db.conn
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(err())?;
        Ok(db)
    }

    fn user_version(&self) -> Result<i64, AuditError> {
        self.conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(AuditError::sqlite(&self.path))
    }

    /// Runs the missing steps in one immediate transaction, re-reading the version inside
    /// it, so two processes that both saw an old version apply each step once.
    fn migrate(&mut self) -> Result<(), AuditError> {
        let path = self.path.clone();
        let err = || AuditError::sqlite(&path);
        // Persistent in the file; cannot change inside a transaction, so it comes first.
        let _mode: String = self
            .conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(err())?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err())?;
        let current: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(err())?;
        let done = usize::try_from(current).unwrap_or(0);
        for step in MIGRATIONS.iter().skip(done) {
            tx.execute_batch(step).map_err(err())?;
        }
        if current < schema_version() {
            tx.pragma_update(None, "user_version", schema_version())
                .map_err(err())?;
        }
        tx.commit().map_err(err())
    }

    /// Inserts in one transaction, skipping ids already stored (a batch re-ingested after a
    /// crash). Returns how many were new.
    pub(crate) fn insert(&mut self, records: &[Record]) -> Result<usize, AuditError> {
        let path = self.path.clone();
        let err = || AuditError::sqlite(&path);
        let tx = self.write_transaction()?;
        let mut inserted = 0;
        {
            let mut stmt = tx
                .prepare(&format!(
                    "INSERT OR IGNORE INTO records ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
                ))
                .map_err(err())?;
            for r in records {
                let targets =
                    serde_json::to_string(&r.targets).map_err(AuditError::json(&path, None))?;
                let trace =
                    serde_json::to_string(&r.trace).map_err(AuditError::json(&path, None))?;
                let rules =
                    serde_json::to_string(&r.rules).map_err(AuditError::json(&path, None))?;
                inserted += stmt
                    .execute(params![
                        r.id,
                        to_i64(r.time_ms),
                        r.agent.as_str(),
                        r.session,
                        r.cwd,
                        r.event.as_str(),
                        r.tool,
                        r.action,
                        targets,
                        r.decision.as_str(),
                        r.reason,
                        rules,
                        to_i64(r.duration_us),
                        r.error,
                        trace,
                    ])
                    .map_err(err())?;
            }
        }
        tx.commit().map_err(err())?;
        Ok(inserted)
    }

    /// A write transaction that takes the write lock at once (waiting up to the busy
    /// timeout), so it never fails half-way on another writer.
    fn write_transaction(&mut self) -> Result<rusqlite::Transaction<'_>, AuditError> {
        self.conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(AuditError::sqlite(&self.path))
    }

    /// The matching records, newest first.
    pub(crate) fn query(&self, filter: &Filter) -> Result<Vec<Record>, AuditError> {
        let (clause, mut args) = where_clause(filter);
        let mut sql =
            format!("SELECT {COLUMNS} FROM records{clause} ORDER BY time_ms DESC, id DESC");
        let scan = filter.needs_scan();
        if let (Some(limit), false) = (filter.limit, scan) {
            sql.push_str(" LIMIT ?");
            args.push(SqlValue::Integer(i64::try_from(limit).unwrap_or(i64::MAX)));
        }
        let mut rows = self.select(&sql, args)?;
        if scan {
            rows.retain(|r| filter.matches_scanned(r));
            if let Some(limit) = filter.limit {
                rows.truncate(limit);
            }
        }
        Ok(rows)
    }

    /// The records whose id starts with `prefix` (at most `max`), newest first.
    pub(crate) fn find_prefix(&self, prefix: &str, max: usize) -> Result<Vec<Record>, AuditError> {
        // `substr` rather than LIKE: an id prefix is literal text, `_` and `%` included.
        let sql = format!(
            "SELECT {COLUMNS} FROM records WHERE substr(id, 1, ?1) = ?2 ORDER BY time_ms DESC, id DESC LIMIT ?3"
        );
        self.select(
            &sql,
            vec![
                SqlValue::Integer(i64::try_from(prefix.chars().count()).unwrap_or(i64::MAX)),
                SqlValue::Text(prefix.to_owned()),
                SqlValue::Integer(i64::try_from(max).unwrap_or(i64::MAX)),
            ],
        )
    }

    /// Deletes records older than `before_ms` (retention the user asked for, not an eviction:
    /// `prune` reports it itself); returns how many went. Space is returned to the file
    /// system by `VACUUM` when anything was deleted.
    pub(crate) fn prune(&mut self, before_ms: u64) -> Result<usize, AuditError> {
        let path = self.path.clone();
        let err = || AuditError::sqlite(&path);
        let deleted = self
            .conn
            .execute(
                "DELETE FROM records WHERE time_ms < ?1",
                [to_i64(before_ms)],
            )
            .map_err(err())?;
        if deleted > 0 {
            self.conn.execute_batch("VACUUM").map_err(err())?;
            self.checkpoint()?;
        }
        Ok(deleted)
    }

    /// Evicts the records with the given ids (chosen by the size cap), counting each under
    /// its decision in `evicted`, in one transaction: a record is never gone uncounted.
    /// Returns how many went; then returns the space to the file system (`VACUUM`, and a
    /// checkpoint so the file on disk shrinks, not only the WAL's view of it).
    pub(crate) fn evict(
        &mut self,
        victims: &[(String, RecordDecision)],
    ) -> Result<u64, AuditError> {
        let path = self.path.clone();
        let err = || AuditError::sqlite(&path);
        let tx = self.write_transaction()?;
        let mut counts = Evicted::default();
        {
            let mut delete = tx
                .prepare("DELETE FROM records WHERE id = ?1")
                .map_err(err())?;
            for (id, decision) in victims {
                let gone = delete.execute([id]).map_err(err())?;
                counts.add(*decision, u64::try_from(gone).unwrap_or(0));
            }
            let mut count = tx
                .prepare(
                    "INSERT INTO evicted (decision, count) VALUES (?1, ?2)
                     ON CONFLICT (decision) DO UPDATE SET count = count + excluded.count",
                )
                .map_err(err())?;
            for decision in RecordDecision::ALL {
                let n = counts.of(decision);
                if n > 0 {
                    count
                        .execute(params![decision.as_str(), to_i64(n)])
                        .map_err(err())?;
                }
            }
        }
        tx.commit().map_err(err())?;
        let total = counts.total();
        if total > 0 {
            self.conn.execute_batch("VACUUM").map_err(err())?;
            self.checkpoint()?;
        }
        Ok(total)
    }

    /// Copies the WAL into the database file and truncates it, so the file's size is the
    /// database's. Readers holding an old snapshot can keep part of it back; the next
    /// checkpoint finishes it, so that is not an error.
    fn checkpoint(&self) -> Result<(), AuditError> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(AuditError::sqlite(&self.path))
    }

    /// The database's size as the cap measures it: pages × page size (what `audit.db` is
    /// once the WAL is checkpointed; indexes and free pages included).
    pub(crate) fn size_bytes(&self) -> Result<u64, AuditError> {
        let err = || AuditError::sqlite(&self.path);
        let pages: i64 = self
            .conn
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .map_err(err())?;
        let page_size: i64 = self
            .conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .map_err(err())?;
        Ok(u64::try_from(pages.saturating_mul(page_size)).unwrap_or(0))
    }

    /// What the size cap evicted so far, by decision.
    pub(crate) fn evicted(&self) -> Result<Evicted, AuditError> {
        let err = || AuditError::sqlite(&self.path);
        let mut stmt = self
            .conn
            .prepare("SELECT decision, count FROM evicted")
            .map_err(err())?;
        let mut rows = stmt.query([]).map_err(err())?;
        let mut out = Evicted::default();
        while let Some(row) = rows.next().map_err(err())? {
            let decision: String = row.get(0).map_err(err())?;
            let decision = decision_from(&decision).map_err(AuditError::json(&self.path, None))?;
            let count: i64 = row.get(1).map_err(err())?;
            out.add(decision, u64::try_from(count).unwrap_or(0));
        }
        Ok(out)
    }

    pub(crate) fn get(&self, id: &str) -> Result<Option<Record>, AuditError> {
        let sql = format!("SELECT {COLUMNS} FROM records WHERE id = ?1");
        self.conn
            .query_row(&sql, [id], from_row)
            .optional()
            .map_err(AuditError::sqlite(&self.path))?
            .transpose()
            .map_err(AuditError::json(&self.path, None))
    }

    pub(crate) fn stats(&self, filter: &Filter) -> Result<Stats, AuditError> {
        let err = || AuditError::sqlite(&self.path);
        let (clause, args) = where_clause(filter);
        let sql = format!("SELECT decision, rules, tool, agent, duration_us FROM records{clause}");
        let mut stmt = self.conn.prepare(&sql).map_err(err())?;
        let mut rows = stmt
            .query(rusqlite::params_from_iter(args))
            .map_err(err())?;
        let mut stats = StatsBuilder::default();
        while let Some(row) = rows.next().map_err(err())? {
            let decision: String = row.get(0).map_err(err())?;
            let decision = decision_from(&decision).map_err(AuditError::json(&self.path, None))?;
            let rules: String = row.get(1).map_err(err())?;
            let rules: Vec<String> =
                serde_json::from_str(&rules).map_err(AuditError::json(&self.path, None))?;
            let tool: Option<String> = row.get(2).map_err(err())?;
            let agent: String = row.get(3).map_err(err())?;
            let duration: i64 = row.get(4).map_err(err())?;
            stats.add(
                decision,
                &rules,
                tool.as_deref(),
                &agent,
                u64::try_from(duration).unwrap_or(0),
            );
        }
        Ok(stats.finish())
    }

    fn select(&self, sql: &str, args: Vec<SqlValue>) -> Result<Vec<Record>, AuditError> {
        let err = || AuditError::sqlite(&self.path);
        let mut stmt = self.conn.prepare(sql).map_err(err())?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(args), from_row)
            .map_err(err())?;
        let mut out = Vec::new();
        for row in rows {
            out.push(
                row.map_err(err())?
                    .map_err(AuditError::json(&self.path, None))?,
            );
        }
        Ok(out)
    }
}

/// A stored decision word back into the enum; a word no hookgate wrote is a damaged row, an
/// error naming the database rather than a guess.
fn decision_from(word: &str) -> Result<RecordDecision, serde_json::Error> {
    serde_json::from_value(serde_json::Value::String(word.to_owned()))
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn where_clause(filter: &Filter) -> (String, Vec<SqlValue>) {
    let mut parts = Vec::new();
    let mut args = Vec::new();
    if let Some(since) = filter.since_ms {
        parts.push("time_ms >= ?");
        args.push(SqlValue::Integer(to_i64(since)));
    }
    if let Some(until) = filter.until_ms {
        parts.push("time_ms < ?");
        args.push(SqlValue::Integer(to_i64(until)));
    }
    for (column, value) in [
        ("agent = ?", filter.agent.map(|a| a.as_str().to_owned())),
        (
            "decision = ?",
            filter.decision.map(|d| d.as_str().to_owned()),
        ),
        ("session = ?", filter.session.clone()),
        ("tool = ?", filter.tool.clone()),
        (
            "EXISTS (SELECT 1 FROM json_each(rules) WHERE value = ?)",
            filter.rule.clone(),
        ),
    ] {
        if let Some(value) = value {
            parts.push(column);
            args.push(SqlValue::Text(value));
        }
    }
    if parts.is_empty() {
        (String::new(), args)
    } else {
        (format!(" WHERE {}", parts.join(" AND ")), args)
    }
}

/// A row back into a record; the outer error is SQLite's, the inner one a JSON column that
/// does not parse.
fn from_row(row: &Row<'_>) -> rusqlite::Result<Result<Record, serde_json::Error>> {
    let targets: String = row.get(8)?;
    let trace: String = row.get(14)?;
    let rules: String = row.get(11)?;
    let decision: String = row.get(9)?;
    let agent: String = row.get(2)?;
    let event: String = row.get(5)?;
    let time_ms: i64 = row.get(1)?;
    let duration_us: i64 = row.get(12)?;
    let targets = match serde_json::from_str(&targets) {
        Ok(t) => t,
        Err(e) => return Ok(Err(e)),
    };
    let trace = match serde_json::from_str(&trace) {
        Ok(t) => t,
        Err(e) => return Ok(Err(e)),
    };
    let rules = match serde_json::from_str(&rules) {
        Ok(r) => r,
        Err(e) => return Ok(Err(e)),
    };
    let decision = match decision_from(&decision) {
        Ok(d) => d,
        Err(e) => return Ok(Err(e)),
    };
    Ok(Ok(Record {
        id: row.get(0)?,
        time_ms: u64::try_from(time_ms).unwrap_or(0),
        agent: agent.into(),
        session: row.get(3)?,
        cwd: row.get(4)?,
        event: event.into(),
        tool: row.get(6)?,
        action: row.get(7)?,
        targets,
        decision,
        reason: row.get(10)?,
        rules,
        duration_us: u64::try_from(duration_us).unwrap_or(0),
        error: row.get(13)?,
        trace,
    }))
}
