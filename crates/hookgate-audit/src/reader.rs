//! The one store selection for people: `log`, `inspect`, `stats` and `prune` read *every*
//! backend in a data directory — the SQLite store and the plain JSONL log — merged, so records
//! a hook wrote with `--store jsonl` (or `HOOKGATE_STORE=jsonl`) are never invisible to a reader
//! started without the same setting.

use std::fs;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

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

    /// Deletes records older than `before_ms`, then the oldest until each backend's records
    /// take at most `max_bytes`.
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

/// The bytes a record takes in the size cap: its stored JSON line, the same measure for both
/// backends (SQLite's own overhead — indexes, pages — comes on top).
fn size_of(record: &Record) -> u64 {
    crate::record::encode_line(record).map_or(0, |l| l.len() as u64)
}

/// The ids of `newest_first` records past the first ones that fit in `max_bytes` together.
pub(crate) fn over_budget(newest_first: &[Record], max_bytes: u64) -> Vec<String> {
    let mut left = max_bytes;
    let mut over = Vec::new();
    for r in newest_first {
        let size = size_of(r);
        if over.is_empty() && size <= left {
            left -= size;
        } else {
            over.push(r.id.clone());
        }
    }
    over
}

/// Rewrites the JSONL log keeping the records that are not older than `before_ms` and, newest
/// first, fit in `max_bytes`. Lines that are not records are kept (they are evidence, and
/// `rejected.jsonl` is where damage is set aside, not here).
///
/// Hooks append without a lock, so the rewrite is a new file renamed over the old one, after
/// which whatever was appended to the old file meanwhile is copied over too.
pub(crate) fn prune_jsonl(
    path: &Path,
    before_ms: Option<u64>,
    max_bytes: Option<u64>,
) -> Result<usize, AuditError> {
    let mut file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
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
    let time_of = |line: &[u8]| {
        serde_json::from_slice::<Record>(line)
            .ok()
            .map(|r| r.time_ms)
    };
    // Newest last in the file; the size budget is spent from the end.
    let mut keep = vec![true; lines.len()];
    let mut budget = max_bytes;
    for (i, line) in lines.iter().enumerate().rev() {
        let Some(time) = time_of(line) else { continue };
        let too_old = before_ms.is_some_and(|b| time < b);
        let over = budget.is_some_and(|left| (line.len() as u64) > left);
        if too_old || over {
            if let Some(k) = keep.get_mut(i) {
                *k = false;
            }
            if over {
                // Older records never take the place of a newer one that did not fit.
                budget = Some(0);
            }
        } else if let Some(left) = &mut budget {
            *left -= line.len() as u64;
        }
    }
    let deleted = keep.iter().filter(|k| !**k).count();
    if deleted == 0 {
        return Ok(0);
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
    Ok(deleted)
}
