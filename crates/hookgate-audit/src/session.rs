//! Session state: one small JSON document per agent session, shared by every hook process
//! of that session.
//!
//! Files, not SQLite: a read-modify-write here is on the hook's hot path (rate limits,
//! files written this session), and a file under an exclusive `flock` costs tens of
//! microseconds where opening and closing a WAL database costs milliseconds. The document
//! is replaced by write-to-temporary-then-rename, so a reader without the lock sees the old
//! or the new version, never half of one.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::AuditError;
use crate::spool::FILE_MODE;

/// Longest readable prefix of a session id kept in a file name.
const STEM_PREFIX: usize = 48;

#[derive(Debug)]
pub(crate) struct Sessions {
    dir: PathBuf,
}

impl Sessions {
    pub(crate) fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// `<dir>/<safe prefix>-<fnv64 of the whole id>`: session ids come from payloads and
    /// may hold `/`, `..` or be very long; the hash keeps distinct ids in distinct files.
    fn stem(&self, session: &str) -> PathBuf {
        let prefix: String = session
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .take(STEM_PREFIX)
            .collect();
        self.dir
            .join(format!("{prefix}-{:016x}", fnv1a64(session.as_bytes())))
    }

    pub(crate) fn get(&self, session: &str) -> Result<Value, AuditError> {
        read(&self.stem(session).with_extension("json"))
    }

    pub(crate) fn update<R>(
        &self,
        session: &str,
        f: impl FnOnce(&mut Value) -> R,
    ) -> Result<R, AuditError> {
        fs::create_dir_all(&self.dir).map_err(AuditError::io("create", &self.dir))?;
        let stem = self.stem(session);
        let lock_path = stem.with_extension("lock");
        let json_path = stem.with_extension("json");
        let tmp_path = stem.with_extension("tmp");
        // A separate lock file: the JSON file itself is replaced by rename, and a lock on a
        // replaced inode would not exclude the next writer.
        let lock = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(FILE_MODE)
            .open(&lock_path)
            .map_err(AuditError::io("open", &lock_path))?;
        lock.lock().map_err(AuditError::io("lock", &lock_path))?;
        let before = read(&json_path)?;
        let mut state = before.clone();
        let out = f(&mut state);
        if state != before {
            let bytes = serde_json::to_vec(&state).map_err(AuditError::json(&json_path, None))?;
            let mut tmp = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(FILE_MODE)
                .open(&tmp_path)
                .map_err(AuditError::io("create", &tmp_path))?;
            tmp.write_all(&bytes)
                .map_err(AuditError::io("write", &tmp_path))?;
            drop(tmp);
            fs::rename(&tmp_path, &json_path).map_err(AuditError::io("rename", &tmp_path))?;
        }
        drop(lock);
        Ok(out)
    }

    /// Forgets a session's state (at session end, or to reset it).
    pub(crate) fn remove(&self, session: &str) -> Result<(), AuditError> {
        let stem = self.stem(session);
        for path in [stem.with_extension("json"), stem.with_extension("lock")] {
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(AuditError::io("remove", &path)(e)),
            }
        }
        Ok(())
    }
}

/// The document, or `{}` when the session has none yet.
fn read(path: &Path) -> Result<Value, AuditError> {
    match fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(AuditError::json(path, None)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Ok(Value::Object(serde_json::Map::new()))
        }
        Err(e) => Err(AuditError::io("read", path)(e)),
    }
}

/// FNV-1a, 64 bits: stable across Rust versions (std's hasher is not), which file names
/// that must be found again by the next process need.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
