//! Appending to a JSONL file that another process may rename away at any moment, and taking
//! the spool's content for ingestion without losing a line.
//!
//! The protocol, for writers:
//! 1. open `current.jsonl` with `O_APPEND | O_CREAT`;
//! 2. take a *shared* lock on it (an exclusive one for lines over `PIPE_BUF`, whose
//!    `O_APPEND` writes POSIX does not promise to keep whole);
//! 3. check that the open file is still the one at the path (same device and inode); if an
//!    ingester renamed it in between, unlock and start again;
//! 4. write the line with one `write_all`, unlock.
//!
//! For the ingester (serialised by `ingest.lock`): rename `current.jsonl` to `batch-<id>.jsonl`,
//! then take an *exclusive* lock on the renamed file. That lock waits for every writer that
//! passed step 3 before the rename; every writer that reaches step 3 after it sees a different
//! inode and retries on the new `current.jsonl`. Once the exclusive lock is held, the batch is
//! final. Batches are deleted only after SQLite committed their records, and insertion ignores
//! ids it already has, so a crash anywhere repeats work instead of losing it.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::error::AuditError;

/// Lines up to this size are written under a shared lock: Linux keeps `O_APPEND` writes of
/// this size whole, so concurrent writers need not queue behind each other.
const PIPE_BUF: usize = 4096;
/// A writer retries this often when its file keeps being rotated away under it. Each retry
/// means some ingester made progress, so this bound is never reached in practice.
const MAX_APPEND_ATTEMPTS: usize = 64;

/// Files hookgate creates hold agent activity: owner-only.
pub(crate) const FILE_MODE: u32 = 0o600;

pub(crate) fn open_append(path: &Path) -> Result<File, AuditError> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(FILE_MODE)
        .open(path)
        .map_err(AuditError::io("open", path))
}

/// Appends `line` to `path` under the protocol above and returns the file's size afterwards.
pub(crate) fn append(path: &Path, line: &[u8]) -> Result<u64, AuditError> {
    for _ in 0..MAX_APPEND_ATTEMPTS {
        let file = open_append(path)?;
        if line.len() <= PIPE_BUF {
            file.lock_shared()
        } else {
            file.lock()
        }
        .map_err(AuditError::io("lock", path))?;
        let opened = file.metadata().map_err(AuditError::io("stat", path))?;
        let same = match fs::metadata(path) {
            Ok(now) => now.dev() == opened.dev() && now.ino() == opened.ino(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(AuditError::io("stat", path)(e)),
        };
        if same {
            (&file)
                .write_all(line)
                .map_err(AuditError::io("append to", path))?;
            // The lock is released when `file` is closed at the end of this scope.
            return Ok(opened.len() + line.len() as u64);
        }
    }
    Err(AuditError::io("append to", path)(std::io::Error::other(
        format!("the file was rotated away {MAX_APPEND_ATTEMPTS} times in a row"),
    )))
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
