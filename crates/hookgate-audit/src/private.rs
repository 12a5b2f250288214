//! The one owner of how hookgate's data directory and its files come into being.
//!
//! Invariant (the store's): everything under the data dir holds agent activity — commands,
//! paths, conversations — so the directory is created owner-only (0700) and every file in it
//! owner-only (0600). SQLite would create a database world-readable (and gives its `-wal` and
//! `-shm` files the database file's mode), and `create_dir_all` honours the umask, so every
//! opener — the audit store, the runs table, the hook ledger — goes through here instead.

use std::fs::{DirBuilder, OpenOptions};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

use crate::AuditError;

/// Directories hookgate creates: owner-only.
pub(crate) const DIR_MODE: u32 = 0o700;
/// Files hookgate creates: owner-only.
pub(crate) const FILE_MODE: u32 = 0o600;

/// Creates `dir` and any missing parents owner-only. An existing directory is left as it is
/// (its owner chose its mode).
pub(crate) fn create_dir(dir: &Path) -> Result<(), AuditError> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
        .map_err(AuditError::io("create", dir))
}

/// Creates `path` owner-only if it does not exist (an existing file keeps its contents and
/// mode), so SQLite then opens our file instead of creating its own.
pub(crate) fn create_file(path: &Path) -> Result<(), AuditError> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(FILE_MODE)
        .open(path)
        .map(drop)
        .map_err(AuditError::io("create", path))
}

/// Both: `file`'s directory, then `file`.
pub(crate) fn create_file_in(dir: &Path, file: &Path) -> Result<(), AuditError> {
    create_dir(dir)?;
    create_file(file)
}
