//! Bounded read-only subprocesses that find a fact the policy asked for (`git status` over a
//! discard's paths, an archive's member list): the agent waits on every hook call, so each
//! runs under a deadline and an output cap, and whatever goes wrong is "not found" — the
//! caller then keeps the verdict the policy gives without the fact (fail closed).

use std::io::Read as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a probe printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Probe {
    /// Standard output, at most the cap.
    pub stdout: Vec<u8>,
    /// The output went past the cap and the process was stopped: `stdout` is a prefix.
    pub truncated: bool,
}

/// How often a running probe is looked at while it has not finished.
const POLL: Duration = Duration::from_millis(2);

/// Runs `cmd` (stdin closed, stderr dropped), reading at most `cap` bytes of its standard
/// output. `None` when it cannot start, exits unsuccessfully or is still running at
/// `timeout` (it is killed and reaped). Past the cap it is killed and the prefix returned,
/// marked truncated (the caller decides what a partial answer is worth).
pub(crate) fn bounded(cmd: Command, timeout: Duration, cap: usize) -> Option<Probe> {
    match finished(cmd, timeout, cap)? {
        (probe, _) if probe.truncated => Some(probe),
        (probe, true) => Some(probe),
        (_, false) => None,
    }
}

/// As [`bounded`], but a command that ran to the end in time answers whatever its exit
/// status, with whether it succeeded (`git rev-parse --verify` answers "no such commit" by
/// failing, which is an answer, unlike a timeout). `None`: it could not be started, did not
/// finish in time, or its output could not be read.
pub(crate) fn finished(mut cmd: Command, timeout: Duration, cap: usize) -> Option<(Probe, bool)> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().ok()?;
    let mut pipe = child.stdout.take()?;
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    // The pipe is drained on a thread so that a chatty child never blocks on a full pipe
    // while this thread waits for it.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let read = (&mut pipe).take(limit).read_to_end(&mut buf);
        // The receiver may have given up (timeout): nothing to tell then.
        let _ = tx.send((buf, read.is_ok()));
    });
    let deadline = Instant::now() + timeout;
    let mut output: Option<(Vec<u8>, bool)> = None;
    let mut status = None;
    while Instant::now() < deadline {
        if output.is_none() {
            output = rx.try_recv().ok();
        }
        // Over the cap the reader stopped reading: the answer is in, the rest is not needed.
        if output.as_ref().is_some_and(|(buf, _)| buf.len() > cap) {
            break;
        }
        match child.try_wait() {
            Ok(Some(s)) => {
                status = Some(s);
                break;
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(_) => break,
        }
    }
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    // After the exit (or the kill) the pipe closes, so the reader finishes promptly.
    let (mut stdout, read_ok) = match output {
        Some(o) => o,
        None => rx.recv_timeout(timeout).ok()?,
    };
    if stdout.len() > cap {
        stdout.truncate(cap);
        return Some((
            Probe {
                stdout,
                truncated: true,
            },
            true,
        ));
    }
    let status = status?;
    read_ok.then_some((
        Probe {
            stdout,
            truncated: false,
        },
        status.success(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn a_probe_answers_only_when_it_finishes_in_time_and_succeeds() {
        let long = Duration::from_secs(20);
        let ok = bounded(sh("printf 'a\\nb\\n'"), long, 1024).unwrap();
        assert_eq!(ok.stdout, b"a\nb\n");
        assert!(!ok.truncated);
        assert_eq!(bounded(sh("echo x; exit 3"), long, 1024), None, "failure");
        assert_eq!(
            bounded(Command::new("/nonexistent/probe"), long, 1024),
            None,
            "cannot start"
        );
        assert_eq!(
            bounded(sh("sleep 30"), Duration::from_millis(100), 1024),
            None,
            "timed out"
        );
        let big = bounded(sh("yes | head -c 100000"), long, 1000).unwrap();
        assert!(big.truncated);
        assert_eq!(big.stdout.len(), 1000);
    }
}
