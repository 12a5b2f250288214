//! Transport for hookgate: run **one** subprocess, or send **one** HTTP request, under **one**
//! deadline, with capped output.
//!
//! This crate is the only place in hookgate that starts hook processes or talks to hook
//! endpoints. It exists so that the engine can treat "run this hook" as a bounded call: whatever
//! the hook does (never reads its stdin, prints 10 MiB, forks a daemon that keeps the pipes open,
//! ignores `SIGTERM`, never answers the HTTP request), the call returns by
//! `timeout + kill_grace` (plus a few milliseconds of bookkeeping; at most 0.5 s more in the
//! pathological case of a leader stuck in uninterruptible sleep) and holds at most
//! `max_output_bytes` per stream in memory.
//!
//! What it must never do:
//! - know about hooks, events, decisions or JSON payload semantics: it moves bytes and reports
//!   exit statuses; interpreting them is the engine's job;
//! - hang past the deadline, buffer unbounded output, or leave the hook's process group running
//!   after a failure (timeout, oversize output, I/O error, or the caller dropping the future);
//! - panic, or use `unsafe` (signals go through `rustix`);
//! - echo secrets: HTTP header values, URL credentials and query strings are kept out of error
//!   messages.
//!
//! The command runner ([`run_command`]) is Unix-only (process groups); the HTTP sender
//! ([`send_http`]) is portable.

#[cfg(unix)]
mod command;
mod error;
mod http;

use std::time::Duration;

#[cfg(unix)]
pub use command::{
    CommandSpec, ExitKind, LIVE_GROUPS, LiveGroups, ProcessOutput, Program, run_command,
};
pub use error::{Stream, TransportError};
pub use http::{HttpOutput, HttpSpec, send_http, send_http_to};

/// Bounds applied to one call.
///
/// The same `Limits` value drives both runtimes; `kill_grace` and `drain_grace` only matter to
/// [`run_command`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The one deadline, counted from the start of the call. For a command it covers the stdin
    /// write, the wait for the leader, and both pipe reads; for HTTP it covers connect, send and
    /// reading the response body.
    pub timeout: Duration,
    /// Cap for each of stdout and stderr (and for an HTTP response body). Exactly
    /// `max_output_bytes` is accepted; one byte more is [`TransportError::OutputTooLarge`].
    pub max_output_bytes: usize,
    /// Time between `SIGTERM` and `SIGKILL` to the process group when the runner has to kill it.
    pub kill_grace: Duration,
    /// After the leader exits, how long to wait for EOF on stdout/stderr. A backgrounded
    /// descendant (`sleep 30 &`) inherits the pipes; without this bound the call would wait for it.
    pub drain_grace: Duration,
}

impl Limits {
    /// Default hook timeout (docker-agent and Meerkat both use 60 s).
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
    /// Default per-stream output cap: 128 KiB.
    pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 128 * 1024;
    /// Default `SIGTERM` → `SIGKILL` grace.
    pub const DEFAULT_KILL_GRACE: Duration = Duration::from_secs(1);
    /// Default pipe drain bound after the leader exits.
    pub const DEFAULT_DRAIN_GRACE: Duration = Duration::from_millis(250);
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout: Self::DEFAULT_TIMEOUT,
            max_output_bytes: Self::DEFAULT_MAX_OUTPUT_BYTES,
            kill_grace: Self::DEFAULT_KILL_GRACE,
            drain_grace: Self::DEFAULT_DRAIN_GRACE,
        }
    }
}

/// `start + d`, saturating far in the future instead of panicking on overflow, so that a
/// configured `Duration::MAX` timeout means "no practical deadline" rather than a panic.
fn deadline_after<I>(start: I, d: Duration) -> I
where
    I: Copy + CheckedAdd,
{
    start
        .checked_add_duration(d)
        .or_else(|| start.checked_add_duration(FAR_FUTURE))
        .unwrap_or(start)
}

/// About 30 years: far enough to never fire, small enough to be representable.
const FAR_FUTURE: Duration = Duration::from_secs(30 * 365 * 24 * 60 * 60);

/// The two instant types this crate computes deadlines with.
trait CheckedAdd: Sized {
    fn checked_add_duration(self, d: Duration) -> Option<Self>;
}

impl CheckedAdd for std::time::Instant {
    fn checked_add_duration(self, d: Duration) -> Option<Self> {
        self.checked_add(d)
    }
}

impl CheckedAdd for tokio::time::Instant {
    fn checked_add_duration(self, d: Duration) -> Option<Self> {
        self.checked_add(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_limits_match_the_documented_values() {
        let l = Limits::default();
        assert_eq!(l.timeout, Duration::from_secs(60));
        assert_eq!(l.max_output_bytes, 128 * 1024);
        assert_eq!(l.kill_grace, Duration::from_secs(1));
        assert_eq!(l.drain_grace, Duration::from_millis(250));
    }

    #[test]
    fn huge_timeout_does_not_overflow_the_deadline() {
        let now = std::time::Instant::now();
        assert!(deadline_after(now, Duration::MAX) > now);
        let now = tokio::time::Instant::now();
        assert!(deadline_after(now, Duration::MAX) > now);
    }
}
