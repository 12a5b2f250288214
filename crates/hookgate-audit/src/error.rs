//! The one error type of the crate. Every variant names the file it is about, because the
//! person reading the message is usually looking at a hook that failed inside an agent and
//! needs to know which file under `HOOKGATE_HOME` to inspect.

use std::path::PathBuf;

/// Anything that went wrong while writing or reading the audit store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// A filesystem operation failed.
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        /// What was being done (`"append to"`, `"rename"`, `"lock"`, …).
        op: &'static str,
        /// The file or directory concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// SQLite reported an error.
    #[error("SQLite store {}: {source}", path.display())]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: rusqlite::Error,
    },
    /// A stored JSON document does not parse, or a record does not serialize.
    #[error("{}{}: {source}", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())]
    Json {
        /// The file concerned.
        path: PathBuf,
        /// The 1-based line, for JSONL files.
        line: Option<usize>,
        /// The underlying error.
        #[source]
        source: serde_json::Error,
    },
    /// The database was written by a newer hookgate; touching it could corrupt it.
    #[error(
        "SQLite store {}: schema version {found} is newer than this hookgate supports ({supported}); upgrade hookgate",
        path.display()
    )]
    SchemaTooNew {
        /// The database file.
        path: PathBuf,
        /// `PRAGMA user_version` found in the file.
        found: i64,
        /// The newest version this build knows.
        supported: i64,
    },
    /// A lock inside this process was poisoned by a panicking thread.
    #[error("audit store {}: internal lock poisoned by a panicked thread", path.display())]
    Poisoned {
        /// The store's home directory.
        path: PathBuf,
    },
    /// The webhook sink could not be started (bad URL, no thread).
    #[error("webhook {url}: {message}")]
    Webhook {
        /// The configured URL, with any userinfo removed.
        url: String,
        /// What is wrong.
        message: String,
    },
}

impl AuditError {
    pub(crate) fn io(
        op: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { op, path, source }
    }

    pub(crate) fn sqlite(path: impl Into<PathBuf>) -> impl FnOnce(rusqlite::Error) -> Self {
        let path = path.into();
        move |source| Self::Sqlite { path, source }
    }

    pub(crate) fn json(
        path: impl Into<PathBuf>,
        line: Option<usize>,
    ) -> impl FnOnce(serde_json::Error) -> Self {
        let path = path.into();
        move |source| Self::Json { path, line, source }
    }
}
