//! Appending to a JSONL file that another process may rename away at any moment, and taking
//! the spool's content for ingestion without losing a line.
//!
//! The protocol, for writers:
//! 1. open `current.jsonl` with `O_APPEND | O_CREAT`;
//! 2. take a *shared* lock on it (an exclusive one for lines over `PIPE_BUF`, whose
//!    `O_APPEND` writes POSIX does not promise to keep whole);
//! 3. check that the open file is still the one at the path (same device and inode); if an
//!    ingester renamed it in between, unlock and start again;
//! 4. if the file does not end in a newline, a writer before it died or ran out of space
//!    mid-line (a *torn tail*): with the lock upgraded to exclusive (so no live writer is
//!    mid-line), move the fragment out (see [`TornTail`]) so the new line starts on a line of
//!    its own instead of being glued to the fragment and rejected with it;
//! 5. write the line with one `write_all`, unlock.
//!
//! For the ingester (serialised by `ingest.lock`): rename `current.jsonl` to `batch-<id>.jsonl`,
//! then take an *exclusive* lock on the renamed file. That lock waits for every writer that
//! passed step 3 before the rename; every writer that reaches step 3 after it sees a different
//! inode and retries on the new `current.jsonl`. Once the exclusive lock is held, the batch is
//! final. Batches are deleted only after SQLite committed their records, and insertion ignores
//! ids it already has, so a crash anywhere repeats work instead of losing it.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::AuditError;
use crate::record::{Record, now_ms};

/// Lines up to this size are written under a shared lock: Linux keeps `O_APPEND` writes of
/// this size whole, so concurrent writers need not queue behind each other.
const PIPE_BUF: usize = 4096;
/// A writer retries this often when its file keeps being rotated away under it. Each retry
/// means some ingester made progress, so this bound is never reached in practice.
const MAX_APPEND_ATTEMPTS: usize = 64;

pub(crate) use crate::private::FILE_MODE;

pub(crate) fn open_append(path: &Path) -> Result<File, AuditError> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(FILE_MODE)
        .open(path)
        .map_err(AuditError::io("open", path))
}

/// Appending and reading back the tail: a torn tail is only seen by reading the last bytes.
fn open_read_append(path: &Path) -> Result<File, AuditError> {
    OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .mode(FILE_MODE)
        .open(path)
        .map_err(AuditError::io("open", path))
}

/// What an append does with a torn tail (bytes after the last newline, left by a writer that
/// crashed or hit a full disk mid-line) before it writes its own line.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TornTail<'a> {
    /// Cut the fragment off the file and keep it, with a [`Rejected`] note, in this file:
    /// the file stays one well-formed record per line.
    MoveTo(&'a Path),
    /// End the fragment with a newline where it is (for the rejected file itself and for
    /// logs whose readers tolerate an unparsable line).
    Terminate,
}

/// Why bytes were set aside instead of stored as a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// A line without its newline: its writer stopped mid-write (crash, kill, full disk).
    TornWrite,
    /// A complete line that is not a record.
    Unparsable,
}

/// One entry of a store's `rejected.jsonl`: what was set aside, from where, when and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub struct Rejected {
    /// When it was set aside (ms since the epoch), not when it was written.
    pub rejected_ms: u64,
    /// Why.
    pub why: RejectReason,
    /// The file it was found in.
    pub file: PathBuf,
    /// Its length in bytes.
    pub bytes: u64,
    /// The bytes, as UTF-8 (a character cut in half becomes U+FFFD).
    pub fragment: String,
}

impl Rejected {
    pub(crate) fn new(why: RejectReason, file: &Path, fragment: &[u8]) -> Self {
        Self {
            rejected_ms: now_ms(),
            why,
            file: file.to_owned(),
            bytes: fragment.len() as u64,
            fragment: String::from_utf8_lossy(fragment).into_owned(),
        }
    }

    /// The note as one JSON line, newline included.
    pub(crate) fn line(&self, rejected_file: &Path) -> Result<Vec<u8>, AuditError> {
        let mut line = serde_json::to_vec(self).map_err(AuditError::json(rejected_file, None))?;
        line.push(b'\n');
        Ok(line)
    }
}

/// Appends `line` to `path` under the protocol above and returns the file's size afterwards.
pub(crate) fn append(path: &Path, line: &[u8], torn: TornTail<'_>) -> Result<u64, AuditError> {
    // Lines over PIPE_BUF always need the exclusive lock; any line does once a torn tail has
    // been seen (the repair must not race a live writer's line).
    let mut exclusive = line.len() > PIPE_BUF;
    for _ in 0..MAX_APPEND_ATTEMPTS {
        let file = open_read_append(path)?;
        if exclusive {
            file.lock()
        } else {
            file.lock_shared()
        }
        .map_err(AuditError::io("lock", path))?;
        let opened = file.metadata().map_err(AuditError::io("stat", path))?;
        let same = match fs::metadata(path) {
            Ok(now) => now.dev() == opened.dev() && now.ino() == opened.ino(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(AuditError::io("stat", path)(e)),
        };
        if !same {
            continue;
        }
        let mut len = opened.len();
        if len > 0 && last_byte(&file, path, len)? != b'\n' {
            if !exclusive {
                // Under a shared lock the missing newline may be a live writer's line in
                // progress; only the exclusive lock tells a torn tail from that.
                exclusive = true;
                continue;
            }
            len = repair(&file, path, len, torn)?;
        }
        (&file)
            .write_all(line)
            .map_err(AuditError::io("append to", path))?;
        // The lock is released when `file` is closed at the end of this scope.
        return Ok(len + line.len() as u64);
    }
    Err(AuditError::io("append to", path)(std::io::Error::other(
        format!("the file was rotated away {MAX_APPEND_ATTEMPTS} times in a row"),
    )))
}

fn last_byte(file: &File, path: &Path, len: u64) -> Result<u8, AuditError> {
    let mut byte = [0u8; 1];
    file.read_exact_at(&mut byte, len - 1)
        .map_err(AuditError::io("read", path))?;
    Ok(byte[0])
}

/// Chunk size for reading a torn tail backwards.
const TAIL_CHUNK: u64 = 64 * 1024;

/// Deals with the torn tail of `file` (exclusively locked, `len` bytes, last byte not a
/// newline) and returns the file's new length.
///
/// A fragment that is a whole record (only its newline was lost) is kept: ending it with a
/// newline stores it. Anything else goes where `torn` says.
fn repair(file: &File, path: &Path, len: u64, torn: TornTail<'_>) -> Result<u64, AuditError> {
    // Find the start of the fragment: just after the last newline, or the file's start.
    let mut start = 0;
    let mut end = len;
    'search: while end > 0 {
        let from = end.saturating_sub(TAIL_CHUNK);
        let mut chunk = vec![0u8; usize::try_from(end - from).unwrap_or(0)];
        file.read_exact_at(&mut chunk, from)
            .map_err(AuditError::io("read", path))?;
        if let Some(i) = chunk.iter().rposition(|b| *b == b'\n') {
            start = from + i as u64 + 1;
            break 'search;
        }
        end = from;
    }
    let mut fragment = vec![0u8; usize::try_from(len - start).unwrap_or(0)];
    file.read_exact_at(&mut fragment, start)
        .map_err(AuditError::io("read", path))?;
    let whole_record = serde_json::from_slice::<Record>(&fragment).is_ok();
    match torn {
        TornTail::MoveTo(rejected) if !whole_record => {
            let note = Rejected::new(RejectReason::TornWrite, path, &fragment).line(rejected)?;
            // Kept first, cut second: a crash in between leaves the fragment twice, never
            // nowhere.
            append(rejected, &note, TornTail::Terminate)?;
            file.set_len(start)
                .map_err(AuditError::io("truncate", path))?;
            Ok(start)
        }
        _ => {
            let mut writer = file;
            writer
                .write_all(b"\n")
                .map_err(AuditError::io("append to", path))?;
            Ok(len + 1)
        }
    }
}

/// The record in a line that a torn write glued onto the front of a whole one (two writers
/// raced a crash: the fragment's writer died mid-line under a shared lock while the next
/// writer checked the tail): the leftmost `{` from which the rest parses as one complete
/// record. Returns where that record starts, and the record. Only called on lines that do
/// not parse, so the quadratic worst case is paid on damage only.
pub(crate) fn recover_glued(line: &[u8]) -> Option<(usize, Record)> {
    line.iter()
        .enumerate()
        .skip(1)
        .filter(|(_, b)| **b == b'{')
        .find_map(|(i, _)| {
            serde_json::from_slice::<Record>(line.get(i..)?)
                .ok()
                .map(|r| (i, r))
        })
}

/// The spool directory of the SQLite backend.
#[derive(Debug)]
pub(crate) struct Spool {
    pub(crate) dir: PathBuf,
    pub(crate) current: PathBuf,
    pub(crate) ingest_lock: PathBuf,
    pub(crate) rejected: PathBuf,
}

impl Spool {
    pub(crate) fn new(dir: PathBuf) -> Self {
        Self {
            current: dir.join("current.jsonl"),
            ingest_lock: dir.join("ingest.lock"),
            rejected: dir.join("rejected.jsonl"),
            dir,
        }
    }

    /// Renames `current.jsonl` (when it has content) to a new batch and returns every batch
    /// waiting, oldest first: the one just made plus any a crashed ingester left behind.
    ///
    /// The caller must hold `ingest.lock`.
    pub(crate) fn take_batches(&self) -> Result<Vec<PathBuf>, AuditError> {
        match fs::metadata(&self.current) {
            Ok(meta) if meta.len() > 0 => {
                let batch = self.dir.join(format!(
                    "batch-{}.jsonl",
                    crate::record::new_id(crate::record::now_ms())
                ));
                fs::rename(&self.current, &batch)
                    .map_err(AuditError::io("rename", &self.current))?;
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(AuditError::io("stat", &self.current)(e)),
        }
        let mut batches = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(AuditError::io("list", &self.dir))? {
            let entry = entry.map_err(AuditError::io("list", &self.dir))?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("batch-") && name.ends_with(".jsonl") {
                batches.push(entry.path());
            }
        }
        batches.sort();
        Ok(batches)
    }
}

/// Reads a batch once no writer can still be appending to it (see the module doc).
pub(crate) fn read_batch(path: &Path) -> Result<Vec<u8>, AuditError> {
    let mut file = File::open(path).map_err(AuditError::io("open", path))?;
    file.lock().map_err(AuditError::io("lock", path))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(AuditError::io("read", path))?;
    Ok(bytes)
}
