//! Records the store could not take: kept in a fallback file, counted durably, and reported
//! once per session.
//!
//! INVARIANT: a record that could not be stored is never dropped silently. Either it lands
//! in a fallback file and the failure counter, or (when nothing at all can be written) the
//! caller is told that every call is a "first" failure, so the guard keeps saying so.
//!
//! Where: the first of these directories that can be written, tried in order per file:
//! 1. the store's home itself (`<home>/audit-fallback.jsonl`, `<home>/audit-unstored.jsonl`):
//!    the usual case is a broken *store file* (a full spool, a read-only or corrupt
//!    `audit.db`) inside a home that still takes a small file, and there `log` and `doctor`
//!    find it beside the store;
//! 2. `$XDG_RUNTIME_DIR/hookgate/<fnv64 of home>`: per user and private by the XDG spec,
//!    usually a tmpfs, so it still works when the home's filesystem is full or read-only
//!    (it does not survive a reboot, which is why it is not first);
//! 3. `<temp dir>/hookgate-<uid>/<fnv64 of home>`: the last resort on machines without a
//!    runtime dir. The per-uid directory is created owner-only and refused when it is a
//!    link, someone else's or open to others, because another local user could otherwise
//!    pre-create it and read or forge the records.
//!
//! The subdirectory is named by a hash of the home so that two stores (two
//! `HOOKGATE_HOME`s) never mix their counts. Readers look in all three, in the same
//! environment as the writers (a reader with another `XDG_RUNTIME_DIR` or `TMPDIR` will not
//! see entries kept there).
//!
//! The counter is a JSONL file with one [`UnstoredEntry`] per failure (appended under the
//! spool's lock protocol, so concurrent hooks never lose a count); the per-session "already
//! reported" mark is a file created with `O_EXCL`, so exactly one process of a session wins
//! it.

use std::ffi::OsString;
use std::fs::{self, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::AuditError;
use crate::record::{self, Record, now_ms};
use crate::session::fnv1a64;
use crate::spool::{self, FILE_MODE, TornTail};

/// The fallback records.
const FALLBACK: &str = "audit-fallback.jsonl";
/// Torn fragments of the fallback file.
const FALLBACK_REJECTED: &str = "audit-fallback.rejected.jsonl";
/// The failure counter.
const COUNTER: &str = "audit-unstored.jsonl";
/// Per-session "already reported" marks.
const MARKS: &str = "unstored-sessions";

/// One failure to store a record, as counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct UnstoredEntry {
    /// When the store refused it.
    pub time_ms: u64,
    /// The session of the record.
    pub session: String,
    /// The record's id.
    pub record: String,
    /// Why the store refused it.
    pub error: String,
    /// Where the record was kept instead; `None` when no fallback file could be written.
    pub fallback: Option<PathBuf>,
}

/// What [`Unstored::keep`] did with a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// No earlier failure was reported for this session (or none could be marked): the
    /// guard tells the user, once, on the agent's user-visible channel. Records without a
    /// session id (unreadable payloads) share the empty session: noted once, not per call.
    pub first_in_session: bool,
    /// The fallback file that now holds the record, if any could be written.
    pub fallback: Option<PathBuf>,
    /// Whether the failure made it into a durable counter.
    pub counted: bool,
}

/// What readers (`log`, `stats`, `doctor`) report about unstored records.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct UnstoredSummary {
    /// Failures counted, in every location.
    pub count: u64,
    /// The counter files that exist.
    pub counters: Vec<PathBuf>,
    /// The fallback files that exist (the records themselves).
    pub fallback_files: Vec<PathBuf>,
}

impl UnstoredSummary {
    /// The line `log` and `stats` print when records went missing from the store, `None`
    /// when none did.
    pub fn notice(&self) -> Option<String> {
        if self.count == 0 {
            return None;
        }
        let see: Vec<String> = if self.fallback_files.is_empty() {
            self.counters
                .iter()
                .map(|p| p.display().to_string())
                .collect()
        } else {
            self.fallback_files
                .iter()
                .map(|p| p.display().to_string())
                .collect()
        };
        Some(format!(
            "{} record(s) could not be stored (see {})",
            self.count,
            see.join(", ")
        ))
    }
}

/// A record read back from a fallback file.
#[derive(Debug, Clone, PartialEq)]
pub struct FallbackRecord {
    /// The record.
    pub record: Record,
    /// The fallback file it was read from.
    pub file: PathBuf,
}

/// The fallback locations of one store home (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unstored {
    /// Candidate directories, in order of preference.
    dirs: Vec<PathBuf>,
}

impl Unstored {
    /// The locations for `home` in this process's environment.
    pub fn for_home(home: &Path) -> Self {
        Self::from_env(
            home,
            |name| std::env::var_os(name),
            &std::env::temp_dir(),
            rustix::process::getuid().as_raw(),
        )
    }

    /// [`Unstored::for_home`] over an injected environment.
    pub(crate) fn from_env(
        home: &Path,
        env: impl Fn(&str) -> Option<OsString>,
        temp: &Path,
        uid: u32,
    ) -> Self {
        let key = format!("{:016x}", fnv1a64(home.as_os_str().as_encoded_bytes()));
        let mut dirs = vec![home.to_owned()];
        if let Some(runtime) = env("XDG_RUNTIME_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
        {
            dirs.push(runtime.join("hookgate").join(&key));
        }
        dirs.push(temp.join(format!("hookgate-{uid}")).join(key));
        Self { dirs }
    }

    /// Explicit locations (tests, or a caller with its own policy).
    pub fn with_dirs(dirs: Vec<PathBuf>) -> Self {
        Self { dirs }
    }

    /// The candidate directories, most preferred first.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Keeps a record the store refused (`error` says why): redacted into the first
    /// fallback file that takes it, counted in the first counter that takes it, and the
    /// session marked as told. Never fails: whatever could not be done shows in [`Kept`].
    pub fn keep(&self, record: &Record, error: &str) -> Kept {
        let session = record.session.as_str();
        let told_before = self
            .dirs
            .iter()
            .any(|d| mark_path(d, session).symlink_metadata().is_ok());

        let fallback = record::encode_line(&record.redacted())
            .ok()
            .and_then(|line| {
                self.dirs.iter().find_map(|dir| {
                    let path = dir.join(FALLBACK);
                    let rejected = dir.join(FALLBACK_REJECTED);
                    (ensure_dir(dir).is_ok()
                        && spool::append(&path, &line, TornTail::MoveTo(&rejected)).is_ok())
                    .then_some(path)
                })
            });

        let entry = UnstoredEntry {
            time_ms: now_ms(),
            session: session.to_owned(),
            record: record.id.clone(),
            error: hookgate_secrets::redact(error).into_owned(),
            fallback: fallback.clone(),
        };
        let counted = serde_json::to_vec(&entry).ok().is_some_and(|mut line| {
            line.push(b'\n');
            self.dirs.iter().any(|dir| {
                ensure_dir(dir).is_ok()
                    && spool::append(&dir.join(COUNTER), &line, TornTail::Terminate).is_ok()
            })
        });

        let first_in_session = !told_before && self.mark(session);
        Kept {
            first_in_session,
            fallback,
            counted,
        }
    }

    /// Marks `session` as told; `false` when another process marked it first. When no mark
    /// can be written anywhere, `true`: repeating the note beats never giving it.
    fn mark(&self, session: &str) -> bool {
        for dir in &self.dirs {
            let marks = dir.join(MARKS);
            if ensure_dir(dir).is_err() || ensure_dir(&marks).is_err() {
                continue;
            }
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(FILE_MODE)
                .open(mark_path(dir, session))
            {
                Ok(_) => return true,
                Err(e) if e.kind() == ErrorKind::AlreadyExists => return false,
                Err(_) => {}
            }
        }
        true
    }

    /// How many records could not be stored, and where to look.
    pub fn summary(&self) -> Result<UnstoredSummary, AuditError> {
        let mut summary = UnstoredSummary::default();
        for dir in &self.dirs {
            let counter = dir.join(COUNTER);
            if let Some(bytes) = read_if_exists(&counter)? {
                // One entry per line; a torn last entry is still one failure.
                summary.count += bytes
                    .split(|b| *b == b'\n')
                    .filter(|l| !l.is_empty())
                    .count() as u64;
                summary.counters.push(counter);
            }
            let fallback = dir.join(FALLBACK);
            if fallback.is_file() {
                summary.fallback_files.push(fallback);
            }
        }
        Ok(summary)
    }

    /// Every record in the fallback files. A complete line that is not a record is an
    /// error naming the file and line (these files are the only copy); a last line
    /// without its newline is a write in progress or a torn one, and is skipped.
    pub fn records(&self) -> Result<Vec<FallbackRecord>, AuditError> {
        let mut out = Vec::new();
        for dir in &self.dirs {
            let file = dir.join(FALLBACK);
            let Some(bytes) = read_if_exists(&file)? else {
                continue;
            };
            let complete = bytes
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(&[][..], |i| bytes.get(..i).unwrap_or_default());
            for (n, line) in complete.split(|b| *b == b'\n').enumerate() {
                if line.is_empty() {
                    continue;
                }
                let record = match serde_json::from_slice(line) {
                    Ok(r) => r,
                    Err(e) => match spool::recover_glued(line) {
                        Some((_, r)) => r,
                        None => return Err(AuditError::json(&file, Some(n + 1))(e)),
                    },
                };
                out.push(FallbackRecord {
                    record,
                    file: file.clone(),
                });
            }
        }
        Ok(out)
    }
}

fn mark_path(dir: &Path, session: &str) -> PathBuf {
    dir.join(MARKS)
        .join(format!("{:016x}", fnv1a64(session.as_bytes())))
}

fn read_if_exists(path: &Path) -> Result<Option<Vec<u8>>, AuditError> {
    match fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == ErrorKind::NotFound || e.kind() == ErrorKind::NotADirectory => {
            Ok(None)
        }
        Err(e) => Err(AuditError::io("read", path)(e)),
    }
}

/// Creates `dir` owner-only and checks that every directory hookgate created for it under
/// a shared temp dir (`hookgate-<uid>`) is a real directory of this user that nobody else can
/// enter: there, a directory someone else made first would see or forge our records.
fn ensure_dir(dir: &Path) -> Result<(), AuditError> {
    crate::private::create_dir(dir)?;
    let uid = rustix::process::getuid().as_raw();
    for ancestor in dir.ancestors() {
        let is_ours = ancestor
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == format!("hookgate-{uid}"));
        if !is_ours {
            continue;
        }
        let meta = fs::symlink_metadata(ancestor).map_err(AuditError::io("stat", ancestor))?;
        if !meta.is_dir() || meta.uid() != uid || meta.mode() & 0o077 != 0 {
            return Err(AuditError::io("trust", ancestor)(std::io::Error::new(
                ErrorKind::PermissionDenied,
                "not a private directory of this user",
            )));
        }
    }
    Ok(())
}
