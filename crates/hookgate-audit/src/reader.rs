//! The one store selection for people: `log`, `inspect`, `stats` and `prune` read *every*
//! backend in a data directory — the SQLite store and the plain JSONL log — merged, so records
//! a hook wrote with `--store jsonl` (or `HOOKGATE_STORE=jsonl`) are never invisible to a reader
//! started without the same setting.

use std::fs;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use crate::cap::{self, Evicted};
use crate::error::AuditError;
use crate::overview::{self, Overview};
use crate::query::{Filter, Stats, StatsBuilder};
use crate::record::Record;
use crate::{Backend, Store, spool};

/// What `prune` removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Pruned {
    /// Records deleted from the SQLite store.
    pub sqlite: usize,
    /// Records deleted from the JSONL log.
    pub jsonl: usize,
}

/// Why an id prefix did not name one record.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// Reading the store failed.
    #[error(transparent)]
    Store(#[from] AuditError),
    /// No record has an id starting with the prefix.
    #[error("no record `{0}`")]
    NotFound(String),
    /// Several records do; the ids are listed (newest first, at most a few).
    #[error("`{prefix}` is ambiguous: {} and more may match; give more of the id", ids.join(", "))]
    Ambiguous {
        /// The prefix as given.
        prefix: String,
        /// Some of the ids it matches.
        ids: Vec<String>,
    },
}

/// Every backend of one data directory, read as one.
#[derive(Debug)]
pub struct Reader {
    sqlite: Store,
    jsonl: Store,
}

impl Reader {
    /// Opens both backends in `home` (nothing is read yet).
    pub fn open(home: &Path) -> Result<Self, AuditError> {
        Ok(Self {
            sqlite: Store::open(home, Backend::Sqlite)?,
            jsonl: Store::open(home, Backend::Jsonl)?,
        })
    }

    /// The data directory.
    pub fn home(&self) -> &Path {
        self.sqlite.home()
    }

    fn has_jsonl(&self) -> bool {
        self.jsonl.path().exists()
    }

    /// The records `filter` matches in either backend, newest first, each id once.
    pub fn query(&self, filter: &Filter) -> Result<Vec<Record>, AuditError> {
        let mut all = self.sqlite.query(filter)?;
        if self.has_jsonl() {
            let more = self.jsonl.query(filter)?;
            for r in more {
                if !all.iter().any(|x| x.id == r.id) {
                    all.push(r);
                }
            }
            all.sort_by(|a, b| (b.time_ms, &b.id).cmp(&(a.time_ms, &a.id)));
            if let Some(limit) = filter.limit {
                all.truncate(limit);
            }
        }
        Ok(all)
    }

    /// The one record whose id is `prefix` or starts with it.
    pub fn find(&self, prefix: &str) -> Result<Record, FindError> {
        const SHOWN: usize = 5;
        let mut found = self.sqlite.find_prefix(prefix, SHOWN)?;
        if self.has_jsonl() {
            for r in self.jsonl.find_prefix(prefix, SHOWN)? {
                if !found.iter().any(|x| x.id == r.id) {
                    found.push(r);
                }
            }
        }
        // An exact id wins even when it is also a prefix of another.
        if let Some(at) = found.iter().position(|r| r.id == prefix) {
            return Ok(found.swap_remove(at));
        }
        match found.len() {
            0 => Err(FindError::NotFound(prefix.to_owned())),
            1 => Ok(found.swap_remove(0)),
            _ => Err(FindError::Ambiguous {
                prefix: prefix.to_owned(),
                ids: found.into_iter().map(|r| r.id).collect(),
            }),
        }
    }

    /// The newest record of either backend.
    pub fn last(&self) -> Result<Option<Record>, AuditError> {
        Ok(self.query(&Filter::newest())?.into_iter().next())
    }

    /// Counts and percentiles over both backends.
    pub fn stats(&self, filter: &Filter) -> Result<Stats, AuditError> {
        if !self.has_jsonl() && !filter.needs_scan() {
            return self.sqlite.stats(filter);
        }
        Ok(StatsBuilder::of(&self.query(&filter.without_limit())?))
    }

    /// What `hookgate report` shows for `filter` (its `limit` is ignored): [`Reader::stats`]
    /// unchanged, the denied records' stats (top denied rules), and every matched record
    /// grouped by agent session, oldest first. One source of truth with `stats`: the counts
    /// are the store's own, not recomputed by the renderer.
    pub fn overview(&self, filter: &Filter) -> Result<Overview, AuditError> {
        let stats = self.stats(filter)?;
        let denied = match overview::denied_filter(filter) {
            Some(denied) => self.stats(&denied)?,
            None => Stats::default(),
        };
        let records = self.query(&filter.without_limit())?;
        Ok(Overview::assemble(filter.since_ms, stats, denied, records))
    }

    /// What the size cap evicted from either backend since the store began, by decision.
    pub fn evicted(&self) -> Result<Evicted, AuditError> {
        Ok(self.sqlite.evicted()?.plus(self.jsonl.evicted()?))
    }

    /// Deletes records older than `before_ms`, then evicts (in the cap's order: allow and
    /// no-opinion records first, evidence last) until each backend's file takes at most
    /// `max_bytes`.
    pub fn prune(
        &self,
        before_ms: Option<u64>,
        max_bytes: Option<u64>,
    ) -> Result<Pruned, AuditError> {
        Ok(Pruned {
            sqlite: self.sqlite.prune(before_ms, max_bytes)?,
            jsonl: self.jsonl.prune(before_ms, max_bytes)?,
        })
    }
}

/// The bytes of a record's stored JSON line: its size in `audit.jsonl`, and the unit the
/// SQLite cap scales by the database's measured bytes per JSON byte.
pub(crate) fn size_of(record: &Record) -> u64 {
    crate::record::encode_line(record).map_or(0, |l| l.len() as u64)
}

/// Rewrites the JSONL log keeping the records that are not older than `before_ms` and fit in
/// `max_bytes` together with everything else in the file (the cap measures the file); past
/// it, records are evicted in the cap's order ([`cap::evict_order`]: allow and no-opinion
/// first, evidence last) and counted in `evicted_log` before the rewrite, so none goes
/// uncounted. Lines that are not records are kept (they are evidence, and `rejected.jsonl`
/// is where damage is set aside, not here). Returns how many records went, and how many of
/// them the cap evicted.
///
/// Hooks append without a lock, so the rewrite is a new file renamed over the old one, after
/// which whatever was appended to the old file meanwhile is copied over too.
pub(crate) fn prune_jsonl(
    path: &Path,
    evicted_log: &Path,
    before_ms: Option<u64>,
    max_bytes: Option<u64>,
) -> Result<(usize, Evicted), AuditError> {
    let mut file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, Evicted::default())),
        Err(e) => return Err(AuditError::io("open", path)(e)),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(AuditError::io("read", path))?;
    let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let lines: Vec<&[u8]> = bytes
        .get(..whole)
        .unwrap_or_default()
        .split_inclusive(|b| *b == b'\n')
        .collect();
    let mut keep = vec![true; lines.len()];
    // What stays whatever the cap says: lines that are not records, and the unfinished tail.
    let mut fixed = (bytes.len() - whole) as u64;
    let mut candidates = Vec::new();
    let mut at = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Ok(r) = serde_json::from_slice::<Record>(line) else {
            fixed += line.len() as u64;
            continue;
        };
        if before_ms.is_some_and(|b| r.time_ms < b) {
            if let Some(k) = keep.get_mut(i) {
                *k = false;
            }
            continue;
        }
        candidates.push(cap::Weighed {
            time_ms: r.time_ms,
            decision: r.decision,
            bytes: line.len() as u64,
        });
        at.push(i);
    }
    let mut evicted = Evicted::default();
    if let Some(max) = max_bytes {
        for c in cap::evict_order(&candidates, max.saturating_sub(fixed)) {
            if let (Some(w), Some(k)) =
                (candidates.get(c), at.get(c).and_then(|&i| keep.get_mut(i)))
            {
                *k = false;
                evicted.add(w.decision, 1);
            }
        }
    }
    let deleted = keep.iter().filter(|k| !**k).count();
    if deleted == 0 {
        return Ok((0, evicted));
    }
    if evicted.total() > 0 {
        count_evicted(evicted_log, evicted)?;
    }
    let tmp = path.with_extension("jsonl.prune");
    let mut out = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(spool::FILE_MODE)
        .open(&tmp)
        .map_err(AuditError::io("create", &tmp))?;
    for (line, k) in lines.iter().zip(&keep) {
        if *k {
            out.write_all(line)
                .map_err(AuditError::io("write to", &tmp))?;
        }
    }
    if let Some(tail) = bytes.get(whole..) {
        out.write_all(tail)
            .map_err(AuditError::io("write to", &tmp))?;
    }
    out.sync_data().map_err(AuditError::io("write to", &tmp))?;
    fs::rename(&tmp, path).map_err(AuditError::io("rename", &tmp))?;
    // Appended to the old file between our read and the rename: carry it over.
    let mut late = Vec::new();
    file.seek(SeekFrom::Start(bytes.len() as u64))
        .and_then(|_| file.read_to_end(&mut late))
        .map_err(AuditError::io("read", path))?;
    if !late.is_empty() {
        let mut now = spool::open_append(path)?;
        now.write_all(&late)
            .map_err(AuditError::io("append to", path))?;
    }
    Ok((deleted, evicted))
}

/// Appends one eviction to the JSONL log's counter (one JSON line per eviction: appends need
/// no read-modify-write, so two pruners cannot lose each other's counts).
fn count_evicted(evicted_log: &Path, evicted: Evicted) -> Result<(), AuditError> {
    let mut line = serde_json::to_vec(&evicted).map_err(AuditError::json(evicted_log, None))?;
    line.push(b'\n');
    spool::append(evicted_log, &line, spool::TornTail::Terminate)?;
    Ok(())
}

/// What the size cap evicted from the JSONL log: the sum of its counter's lines (none when it
/// does not exist). A line that does not parse is an error naming the file and line: a
/// damaged counter must not read as "nothing was evicted".
pub(crate) fn read_evicted(evicted_log: &Path) -> Result<Evicted, AuditError> {
    let bytes = match fs::read(evicted_log) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Evicted::default()),
        Err(e) => return Err(AuditError::io("read", evicted_log)(e)),
    };
    let mut sum = Evicted::default();
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let e: Evicted =
            serde_json::from_slice(line).map_err(AuditError::json(evicted_log, Some(n + 1)))?;
        sum = sum.plus(e);
    }
    Ok(sum)
}
