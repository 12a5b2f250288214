//! The hookgate audit store: one record per evaluated hook event, session state that
//! outlives a hook process, and a webhook sink.
//!
//! A coding agent starts a fresh hookgate process for every tool call, often several at
//! once, so this crate is built around two costs: the *hot path* (one [`Store::record`] in a
//! process that then exits) and *concurrency* (many such processes on one store).
//!
//! - [`Backend::Sqlite`] (the default) appends one JSON line to `<home>/spool/current.jsonl`
//!   on the hot path and moves spooled lines into `<home>/audit.db` in one transaction when
//!   someone reads ([`Store::query`], [`Store::get`], [`Store::last`], [`Store::stats`],
//!   [`Store::ingest`]) or when the spool passes [`Options::ingest_threshold_bytes`]. Users
//!   see one SQLite store; the spool is an implementation detail that is never visible in
//!   query results (readers ingest first). See `spool.rs` for the rotation protocol.
//! - [`Backend::Jsonl`] appends to `<home>/audit.jsonl` and queries scan it.
//! - Session state is a JSON document per session under `<home>/sessions/`, updated under an
//!   exclusive file lock ([`Store::update_session_state`]).
//! - [`WebhookSink`] ships records over HTTP from a background thread.
//! - A record the store refuses goes to [`Unstored::keep`]: a fallback file, a durable
//!   failure counter that `log`, `stats` and `doctor` read ([`Unstored::summary`]), and a
//!   once-per-session flag for the guard's note to the user. [`Store::check_writable`] is
//!   the probe `doctor` runs.
//! - Appends repair a torn tail first (a line a crashed writer left without its newline):
//!   the fragment goes to [`Store::rejected_path`] with a [`Rejected`] note, and the new
//!   record starts on a line of its own.
//!
//! What it must never do: store or send a secret (every payload-derived field is redacted
//! with `hookgate-secrets` before it is written anywhere); lose a record that `record`
//! acknowledged; surface SQLite's "database is locked" to a caller; run DDL on every call;
//! panic; or let the webhook delay, block or change a decision.

mod cap;
mod error;
mod ledger;
mod overview;
mod private;
mod query;
mod reader;
mod record;
mod runs;
mod session;
mod spool;
mod sqlite;
mod unstored;
mod webhook;
mod when;

use std::fs;
use std::io::BufRead;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;

pub use cap::{
    Evicted, MAX_SIZE_VAR, SizeSettingError, max_size_from, max_size_setting, settings_path,
};
pub use error::AuditError;
pub use jiff::tz::TimeZone;
pub use ledger::{HookLedger, HookRun, HookRunResult};
pub use overview::{Overview, SessionCalls};
pub use query::{Filter, Percentiles, Stats};
pub use reader::{FindError, Pruned, Reader};
pub use record::{Record, RecordAgent, RecordDecision, RecordEvent, new_id, now_ms};
pub use runs::{Runs, StoredRun};
pub use spool::{RejectReason, Rejected};
pub use unstored::{FallbackRecord, Kept, Unstored, UnstoredEntry, UnstoredSummary};
pub use webhook::{WebhookConfig, WebhookSink, WebhookStats};
pub use when::{
    SinceError, format_time, format_time_with_offset, local_zone, parse_period_end,
    parse_period_end_now, parse_point, parse_point_now, since_ms,
};

use query::StatsBuilder;
use session::Sessions;
use spool::{Spool, TornTail};
use sqlite::Db;

/// Where records live.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Backend {
    /// `<home>/audit.db`, fed from a JSONL spool.
    #[default]
    Sqlite,
    /// `<home>/audit.jsonl` only.
    Jsonl,
}

impl Backend {
    /// The backend named by a `HOOKGATE_STORE`-style value: `sqlite` or `jsonl`
    /// (case-insensitive). `None` for anything else, so a typo is reported, not guessed.
    pub fn parse(name: &str) -> Option<Self> {
        if name.eq_ignore_ascii_case("sqlite") {
            Some(Self::Sqlite)
        } else if name.eq_ignore_ascii_case("jsonl") {
            Some(Self::Jsonl)
        } else {
            None
        }
    }

    /// The backend readers (`log`, `stats`, `inspect`, `doctor`) open for a
    /// `HOOKGATE_STORE` value: unset, empty or `off` read the default store (`off` only stops
    /// hooks from writing; what was written before is still there to read).
    pub fn for_readers(setting: Option<&str>) -> Option<Self> {
        match setting.map(str::trim) {
            None | Some("") => Some(Self::Sqlite),
            Some(s) if s.eq_ignore_ascii_case("off") => Some(Self::Sqlite),
            Some(s) => Self::parse(s),
        }
    }
}

/// Knobs for [`Store::open_with`]. `Options::default()` is what [`Store::open`] uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The backend.
    pub backend: Backend,
    /// When an append leaves the spool at least this big, the writer moves it into SQLite
    /// (unless another process is already doing so). Bounds the spool and the first query's
    /// wait; the writer that crosses it pays one batch ingestion (a few ms per MiB).
    pub ingest_threshold_bytes: u64,
    /// How long SQLite waits for another process's write transaction before giving up.
    pub busy_timeout: Duration,
    /// The size cap: when an ingestion leaves `audit.db` bigger than this (pages × page
    /// size), or an append leaves `audit.jsonl` bigger, records are evicted until the file
    /// takes about nine tenths of it (the slack keeps every ingestion from pruning again):
    /// allow and no-opinion records first, oldest first; deny, ask and error records only
    /// when nothing else is left. Each eviction is counted ([`Store::evicted`]). Default: the user's setting ([`max_size_setting`]: `$HOOKGATE_STORE_MAX_SIZE`,
    /// else `max_size` in `store.yaml`).
    pub max_bytes: Option<u64>,
}

/// A size in bytes: digits with an optional `K`, `M`, `G` or `T` (powers of 1024, with or
/// without a trailing `B`/`iB`).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits.parse().ok()?;
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return None,
    };
    n.checked_mul(1u64 << shift)
}

impl Default for Options {
    fn default() -> Self {
        Self {
            backend: Backend::Sqlite,
            ingest_threshold_bytes: 1024 * 1024,
            busy_timeout: Duration::from_secs(10),
            max_bytes: max_size_setting().ok().flatten(),
        }
    }
}

/// The data directory (`hookgate_project::data_dir`, the one owner of that lookup).
pub fn default_home() -> PathBuf {
    hookgate_project::data_dir()
}

/// An open audit store. Cheap to open: no file is read and SQLite is not touched until a
/// reader needs it.
#[derive(Debug)]
pub struct Store {
    home: PathBuf,
    options: Options,
    spool: Spool,
    jsonl: PathBuf,
    jsonl_rejected: PathBuf,
    /// The JSONL log's eviction counter ([`Evicted`], one line per eviction).
    jsonl_evicted: PathBuf,
    db_path: PathBuf,
    sessions: Sessions,
    /// Opened on first read; `Connection` is not `Sync`, the mutex makes `Store` so.
    db: Mutex<Option<Db>>,
}

impl Store {
    /// Opens the store in `home` with default [`Options`] for `backend`.
    pub fn open(home: &Path, backend: Backend) -> Result<Self, AuditError> {
        Self::open_with(
            home,
            Options {
                backend,
                ..Options::default()
            },
        )
    }

    /// Opens the store in `home`, creating the directories (owner-only) if needed.
    pub fn open_with(home: &Path, options: Options) -> Result<Self, AuditError> {
        let spool = Spool::new(home.join("spool"));
        let dir = match options.backend {
            Backend::Sqlite => &spool.dir,
            Backend::Jsonl => home,
        };
        private::create_dir(dir)?;
        Ok(Self {
            jsonl: home.join("audit.jsonl"),
            jsonl_rejected: home.join("rejected.jsonl"),
            jsonl_evicted: home.join("evicted.jsonl"),
            db_path: home.join("audit.db"),
            sessions: Sessions::new(home.join("sessions")),
            home: home.to_owned(),
            options,
            spool,
            db: Mutex::new(None),
        })
    }

    /// The data directory.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The file users query: `audit.db` or `audit.jsonl`.
    pub fn path(&self) -> &Path {
        match self.options.backend {
            Backend::Sqlite => &self.db_path,
            Backend::Jsonl => &self.jsonl,
        }
    }

    /// Where set-aside bytes go, each with a [`Rejected`] note: torn tails and lines that
    /// are not records. `spool/rejected.jsonl` for SQLite, `rejected.jsonl` beside
    /// `audit.jsonl` for JSONL.
    pub fn rejected_path(&self) -> &Path {
        match self.options.backend {
            Backend::Sqlite => &self.spool.rejected,
            Backend::Jsonl => &self.jsonl_rejected,
        }
    }

    /// Stores one record, redacted. The hot path: one append to a JSONL file.
    ///
    /// When `Ok`, the record is on disk (in the page cache: it survives the process, not a
    /// power cut) and every later query sees it. A torn last line left by an earlier writer
    /// is moved to [`Store::rejected_path`] first, so it cannot swallow this record.
    /// When `Err`, hand the record to [`Unstored::keep`]: a failure must be counted and
    /// reported, never dropped.
    pub fn record(&self, record: &Record) -> Result<(), AuditError> {
        let redacted = record.redacted();
        let line = record::encode_line(&redacted).map_err(AuditError::json(self.path(), None))?;
        match self.options.backend {
            Backend::Jsonl => {
                let size =
                    spool::append(&self.jsonl, &line, TornTail::MoveTo(&self.jsonl_rejected))?;
                if self.options.max_bytes.is_some_and(|max| size > max) {
                    // The record is already stored; a failed prune leaves the file over the
                    // cap until the next append or `prune`, never loses a record.
                    let _ = self.enforce_cap_jsonl();
                }
            }
            Backend::Sqlite => {
                let size = spool::append(
                    &self.spool.current,
                    &line,
                    TornTail::MoveTo(&self.spool.rejected),
                )?;
                if size >= self.options.ingest_threshold_bytes {
                    // The record is already safe in the spool; a failed ingestion only
                    // leaves the spool for the next reader, which reports the error.
                    let _ = self.ingest_if_idle();
                }
            }
        }
        Ok(())
    }

    /// Moves spooled records into SQLite now and returns how many were new. Readers call
    /// this themselves; call it explicitly at a quiet moment (session end) to keep the next
    /// reader fast. Waits for an ingestion running in another process.
    pub fn ingest(&self) -> Result<usize, AuditError> {
        if self.options.backend == Backend::Jsonl {
            return Ok(0);
        }
        let lock = spool::open_append(&self.spool.ingest_lock)?;
        lock.lock()
            .map_err(AuditError::io("lock", &self.spool.ingest_lock))?;
        self.ingest_locked()
    }

    /// Like [`Store::ingest`], but returns `Ok(0)` at once when another process is ingesting.
    fn ingest_if_idle(&self) -> Result<usize, AuditError> {
        let lock = spool::open_append(&self.spool.ingest_lock)?;
        match lock.try_lock() {
            Ok(()) => self.ingest_locked(),
            Err(std::fs::TryLockError::WouldBlock) => Ok(0),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(AuditError::io("lock", &self.spool.ingest_lock)(e))
            }
        }
    }

    /// The caller holds `ingest.lock`.
    fn ingest_locked(&self) -> Result<usize, AuditError> {
        let batches = self.spool.take_batches()?;
        if batches.is_empty() {
            return Ok(0);
        }
        let mut records = Vec::new();
        let mut rejected = Vec::new();
        for batch in &batches {
            let bytes = spool::read_batch(batch)?;
            let torn_from = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
            let (whole, tail) = bytes.split_at(torn_from);
            for line in whole.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                if let Ok(r) = serde_json::from_slice::<Record>(line) {
                    records.push(r);
                } else if let Some((at, r)) = spool::recover_glued(line) {
                    // A torn fragment with a whole record glued on: keep the record, set the
                    // fragment aside.
                    records.push(r);
                    let fragment = line.get(..at).unwrap_or_default();
                    rejected.extend(
                        Rejected::new(RejectReason::TornWrite, batch, fragment)
                            .line(&self.spool.rejected)?,
                    );
                } else {
                    // Not a record: keep it for inspection rather than drop it silently or
                    // block every future ingestion on it.
                    rejected.extend(
                        Rejected::new(RejectReason::Unparsable, batch, line)
                            .line(&self.spool.rejected)?,
                    );
                }
            }
            // A batch is final (no writer can extend it), so bytes after its last newline
            // are a writer that stopped mid-line: a torn write, unless only its newline was
            // lost.
            if !tail.is_empty() {
                if let Ok(r) = serde_json::from_slice::<Record>(tail) {
                    records.push(r);
                } else {
                    rejected.extend(
                        Rejected::new(RejectReason::TornWrite, batch, tail)
                            .line(&self.spool.rejected)?,
                    );
                }
            }
        }
        let inserted = self.with_db(|db| db.insert(&records))?;
        self.enforce_cap()?;
        if !rejected.is_empty() {
            spool::append(&self.spool.rejected, &rejected, TornTail::Terminate)?;
        }
        for batch in &batches {
            fs::remove_file(batch).map_err(AuditError::io("remove", batch))?;
        }
        Ok(inserted)
    }

    fn with_db<R>(
        &self,
        f: impl FnOnce(&mut Db) -> Result<R, AuditError>,
    ) -> Result<R, AuditError> {
        let mut guard: MutexGuard<'_, Option<Db>> =
            self.db.lock().map_err(|_| AuditError::Poisoned {
                path: self.home.clone(),
            })?;
        if guard.is_none() {
            *guard = Some(Db::open(&self.db_path, self.options.busy_timeout)?);
        }
        match guard.as_mut() {
            Some(db) => f(db),
            None => Err(AuditError::Poisoned {
                path: self.home.clone(),
            }),
        }
    }

    /// The records `filter` matches, newest first.
    pub fn query(&self, filter: &Filter) -> Result<Vec<Record>, AuditError> {
        match self.options.backend {
            Backend::Sqlite => {
                self.ingest()?;
                self.with_db(|db| db.query(filter))
            }
            Backend::Jsonl => {
                let mut all = Vec::new();
                self.scan_jsonl(|r| {
                    if filter.matches(&r) {
                        all.push(r);
                    }
                })?;
                all.sort_by(|a, b| (b.time_ms, &b.id).cmp(&(a.time_ms, &a.id)));
                if let Some(limit) = filter.limit {
                    all.truncate(limit);
                }
                Ok(all)
            }
        }
    }

    /// One record by id.
    pub fn get(&self, id: &str) -> Result<Option<Record>, AuditError> {
        match self.options.backend {
            Backend::Sqlite => {
                self.ingest()?;
                self.with_db(|db| db.get(id))
            }
            Backend::Jsonl => {
                let mut found = None;
                self.scan_jsonl(|r| {
                    if r.id == id {
                        found = Some(r);
                    }
                })?;
                Ok(found)
            }
        }
    }

    /// The records whose id starts with `prefix`, newest first, at most `max`.
    pub fn find_prefix(&self, prefix: &str, max: usize) -> Result<Vec<Record>, AuditError> {
        match self.options.backend {
            Backend::Sqlite => {
                self.ingest()?;
                self.with_db(|db| db.find_prefix(prefix, max))
            }
            Backend::Jsonl => {
                let mut found = Vec::new();
                self.scan_jsonl(|r| {
                    if r.id.starts_with(prefix) {
                        found.push(r);
                    }
                })?;
                found.sort_by(|a, b| (b.time_ms, &b.id).cmp(&(a.time_ms, &a.id)));
                found.truncate(max);
                Ok(found)
            }
        }
    }

    /// Deletes records older than `before_ms`, then evicts records (in the cap's order:
    /// allow and no-opinion first, oldest first; deny, ask and error only when nothing else is
    /// left) until the store's file takes at most `max_bytes` — `audit.jsonl`'s size, or
    /// `audit.db`'s pages; evictions are counted ([`Store::evicted`]). Returns how many records
    /// were deleted in all. Spooled records are ingested first, so none escapes.
    pub fn prune(
        &self,
        before_ms: Option<u64>,
        max_bytes: Option<u64>,
    ) -> Result<usize, AuditError> {
        match self.options.backend {
            Backend::Sqlite => {
                self.ingest()?;
                let mut deleted = match before_ms {
                    Some(before) => self.with_db(|db| db.prune(before))?,
                    None => 0,
                };
                if let Some(max) = max_bytes {
                    let evicted = self.shrink_db(max, max)?;
                    deleted =
                        deleted.saturating_add(usize::try_from(evicted).unwrap_or(usize::MAX));
                }
                Ok(deleted)
            }
            Backend::Jsonl => {
                Ok(reader::prune_jsonl(&self.jsonl, &self.jsonl_evicted, before_ms, max_bytes)?.0)
            }
        }
    }

    /// What the size cap evicted from this store since it began, by decision.
    pub fn evicted(&self) -> Result<Evicted, AuditError> {
        match self.options.backend {
            Backend::Sqlite if !self.db_path.exists() => Ok(Evicted::default()),
            Backend::Sqlite => self.with_db(|db| db.evicted()),
            Backend::Jsonl => reader::read_evicted(&self.jsonl_evicted),
        }
    }

    /// Applies [`Options::max_bytes`] to `audit.db` (the caller holds `ingest.lock`).
    fn enforce_cap(&self) -> Result<(), AuditError> {
        if let Some(max) = self.options.max_bytes {
            self.shrink_db(max, max / 10 * 9)?;
        }
        Ok(())
    }

    /// When `audit.db` takes more than `max` bytes (pages × page size, what the cap says it
    /// measures), evicts records in the cap's order until it takes about `target`; returns how
    /// many went. Which records must go is chosen in their JSON bytes, scaled by this
    /// database's own bytes per JSON byte, measured now (pages, indexes and free space
    /// included); the estimate is checked by measuring again after the `VACUUM`, and another
    /// round runs while the file is still over `max` (a few at most: each round evicts).
    fn shrink_db(&self, max: u64, target: u64) -> Result<u64, AuditError> {
        const ROUNDS: usize = 4;
        let mut evicted = 0;
        for _ in 0..ROUNDS {
            let size = self.with_db(|db| db.size_bytes())?;
            if size <= max {
                break;
            }
            let all = self.with_db(|db| db.query(&Filter::default()))?;
            let weighed: Vec<cap::Weighed> = all
                .iter()
                .map(|r| cap::Weighed {
                    time_ms: r.time_ms,
                    decision: r.decision,
                    bytes: reader::size_of(r),
                })
                .collect();
            let json: u64 = weighed.iter().map(|w| w.bytes).fold(0, u64::saturating_add);
            let budget = u128::from(target) * u128::from(json) / u128::from(size.max(1));
            let victims: Vec<(String, RecordDecision)> =
                cap::evict_order(&weighed, u64::try_from(budget).unwrap_or(u64::MAX))
                    .into_iter()
                    .filter_map(|i| all.get(i))
                    .map(|r| (r.id.clone(), r.decision))
                    .collect();
            if victims.is_empty() {
                // Nothing left to evict: the empty database alone is past the cap.
                break;
            }
            evicted += self.with_db(|db| db.evict(&victims))?;
        }
        Ok(evicted)
    }

    /// Applies [`Options::max_bytes`] to `audit.jsonl`, unless another process is doing so
    /// (`jsonl-prune.lock`: two rewrites at once would each drop what the other carried
    /// over).
    fn enforce_cap_jsonl(&self) -> Result<(), AuditError> {
        let Some(max) = self.options.max_bytes else {
            return Ok(());
        };
        let lock_path = self.home.join("jsonl-prune.lock");
        let lock = spool::open_append(&lock_path)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Ok(()),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(AuditError::io("lock", &lock_path)(e));
            }
        }
        reader::prune_jsonl(&self.jsonl, &self.jsonl_evicted, None, Some(max / 10 * 9))?;
        Ok(())
    }

    /// The newest record.
    pub fn last(&self) -> Result<Option<Record>, AuditError> {
        Ok(self.query(&Filter::newest())?.into_iter().next())
    }

    /// Counts by decision, rule, tool and agent, and `duration_us` percentiles, over the
    /// records `filter` matches (its `limit` is ignored).
    pub fn stats(&self, filter: &Filter) -> Result<Stats, AuditError> {
        match self.options.backend {
            Backend::Sqlite if !filter.needs_scan() => {
                self.ingest()?;
                self.with_db(|db| db.stats(filter))
            }
            Backend::Sqlite => Ok(StatsBuilder::of(&self.query(&filter.without_limit())?)),
            Backend::Jsonl => {
                let mut stats = StatsBuilder::default();
                self.scan_jsonl(|r| {
                    if filter.matches(&r) {
                        stats.add_record(&r);
                    }
                })?;
                Ok(stats.finish())
            }
        }
    }

    /// Every record of the JSONL log, in file order. A line that does not parse is an error
    /// naming the file and line: the log is the only copy, so hiding damage would be worse.
    /// Exceptions: a last line without its newline (a writer appends line and newline in one
    /// `write`, so that is a record still being written, or a torn tail the next append moves
    /// to `rejected.jsonl`), and a whole record behind a torn fragment (the fragment's writer
    /// kept its record in the fallback; the glued record is read).
    fn scan_jsonl(&self, mut each: impl FnMut(Record)) -> Result<(), AuditError> {
        let file = match fs::File::open(&self.jsonl) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(AuditError::io("open", &self.jsonl)(e)),
        };
        let mut reader = std::io::BufReader::new(file);
        let mut line = Vec::new();
        for n in 1.. {
            line.clear();
            let read = reader
                .read_until(b'\n', &mut line)
                .map_err(AuditError::io("read", &self.jsonl))?;
            if read == 0 || line.last() != Some(&b'\n') {
                break;
            }
            if line.len() > 1 {
                match serde_json::from_slice(&line) {
                    Ok(r) => each(r),
                    Err(e) => match spool::recover_glued(&line) {
                        Some((_, r)) => each(r),
                        None => return Err(AuditError::json(&self.jsonl, Some(n))(e)),
                    },
                }
            }
        }
        Ok(())
    }

    /// Probes that a store in `home` with `backend` can be written *now*, the way hooks
    /// write it, and names the path that fails: creates the directories (owner-only), creates,
    /// writes and removes a probe file in every directory the backend writes into, and opens
    /// every existing data file for appending (without writing to it). `doctor` calls this:
    /// a store that cannot be written otherwise shows up only as records that went missing.
    ///
    /// A full filesystem is caught by the probe's write (unless a few bytes still fit);
    /// permission bits are not checked as such, because root ignores them: the probe does
    /// what a hook does and reports what the kernel said.
    pub fn check_writable(home: &Path, backend: Backend) -> Result<(), AuditError> {
        let spool_dir = home.join("spool");
        let (dirs, files): (Vec<&Path>, Vec<PathBuf>) = match backend {
            Backend::Sqlite => (
                vec![home, &spool_dir],
                vec![
                    spool_dir.join("current.jsonl"),
                    spool_dir.join("rejected.jsonl"),
                    home.join("audit.db"),
                ],
            ),
            Backend::Jsonl => (
                vec![home],
                vec![home.join("audit.jsonl"), home.join("rejected.jsonl")],
            ),
        };
        for dir in dirs {
            private::create_dir(dir)?;
            let probe = dir.join(format!(".write-probe-{}", new_id(now_ms())));
            let written = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(spool::FILE_MODE)
                .open(&probe)
                .map_err(AuditError::io("create", &probe))
                .and_then(|mut f| {
                    std::io::Write::write_all(&mut f, b"hookgate write probe\n")
                        .and_then(|()| f.sync_data())
                        .map_err(AuditError::io("write to", &probe))
                });
            let removed = fs::remove_file(&probe);
            written?;
            removed.map_err(AuditError::io("remove", &probe))?;
        }
        for file in files {
            match fs::OpenOptions::new().append(true).open(&file) {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(AuditError::io("open for writing", &file)(e)),
            }
        }
        Ok(())
    }

    /// The session's state document (`{}` when it has none yet).
    pub fn session_state(&self, session: &str) -> Result<Value, AuditError> {
        self.sessions.get(session)
    }

    /// Read-modify-write of the session's state, atomic across processes: `f` runs under an
    /// exclusive lock, and its result is returned. The document is rewritten only when `f`
    /// changed it.
    pub fn update_session_state<R>(
        &self,
        session: &str,
        f: impl FnOnce(&mut Value) -> R,
    ) -> Result<R, AuditError> {
        self.sessions.update(session, f)
    }

    /// Deletes the session's state.
    pub fn remove_session_state(&self, session: &str) -> Result<(), AuditError> {
        self.sessions.remove(session)
    }
}

#[cfg(test)]
mod tests;
