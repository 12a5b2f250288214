//! The one error type of the crate.
//!
//! Messages are lowercase, one line, and name what was wrong (program, working directory, URL,
//! limit) so the engine can put them in a lifecycle event or system message as they are. They
//! never contain HTTP header values, URL credentials or query strings.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// Which byte stream hit [`TransportError::OutputTooLarge`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    /// The child's standard output.
    Stdout,
    /// The child's standard error.
    Stderr,
    /// An HTTP response body.
    ResponseBody,
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Stdout => "stdout",
            Self::Stderr => "stderr",
            Self::ResponseBody => "response body",
        })
    }
}

/// Why a transport call did not produce an output.
///
/// Every variant is a *failure* of the call; a command that ran and exited non-zero is **not** an
/// error here (it is [`crate::ProcessOutput`] with the exit status), while an HTTP status outside
/// 2xx **is** ([`TransportError::HttpStatus`]), as the design asks.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// The program (or the shell, for the shell form) could not be started.
    #[error("failed to start `{program}`: {source}")]
    Spawn {
        /// The program or shell as given.
        program: String,
        /// The OS error from `spawn`.
        #[source]
        source: io::Error,
    },

    /// The configured working directory does not exist or is not a directory.
    #[error("failed to start `{program}`: working directory `{}` is not usable: {source}", path.display())]
    WorkingDir {
        /// The program or shell as given.
        program: String,
        /// The working directory as given.
        path: PathBuf,
        /// The OS error from `spawn`.
        #[source]
        source: io::Error,
    },

    /// The deadline passed before the call completed. For a command, the process group has been
    /// killed by the time this is returned.
    #[error("timed out after {after:?}")]
    Timeout {
        /// The configured timeout (not the measured time).
        after: Duration,
    },

    /// A stream produced more than `limit` bytes. For a command, the process group has been
    /// killed as soon as the excess byte was seen.
    #[error("{stream} exceeded the output limit of {limit} bytes")]
    OutputTooLarge {
        /// Which stream overflowed.
        stream: Stream,
        /// The configured cap (`Limits::max_output_bytes`).
        limit: usize,
    },

    /// An I/O error while talking to the child (reading a pipe, waiting for it).
    #[error("i/o error while {context}: {source}")]
    Io {
        /// What the runner was doing, e.g. "reading stdout of `./hook.sh`".
        context: String,
        /// The underlying error.
        #[source]
        source: io::Error,
    },

    /// The server answered with a status outside 2xx.
    #[error("http status {status}: {body_preview}")]
    HttpStatus {
        /// The HTTP status code.
        status: u16,
        /// The first few hundred characters of the body, on one line (lossy UTF-8).
        body_preview: String,
    },

    /// The HTTP exchange failed below the status level (connection refused, DNS, TLS, protocol).
    #[error("http request to `{url}` failed: {message}")]
    Http {
        /// The URL without credentials or query string.
        url: String,
        /// What went wrong.
        message: String,
    },

    /// The spec cannot be run as given (empty program, NUL byte, bad URL, method or header).
    #[error("invalid spec: {reason}")]
    InvalidSpec {
        /// What is wrong with it.
        reason: String,
    },
}

impl TransportError {
    pub(crate) fn invalid(reason: impl Into<String>) -> Self {
        Self::InvalidSpec {
            reason: reason.into(),
        }
    }
}
