//! The command runner: one child in its own process group, one deadline, capped pipes.
//!
//! Invariants this module protects (each has a test with real processes in `tests/command.rs`):
//! - the call returns by `timeout + kill_grace` (+ bookkeeping), whatever the child does;
//! - the stdin write can never block the call (it runs on its own task and is aborted at the end);
//! - at most `max_output_bytes` (+1 to detect the overflow) is kept per stream, and an overflow
//!   kills the group at once instead of reading on;
//! - whenever the runner gives up on the child (timeout, overflow, I/O error, drain bound, or the
//!   caller dropping the future) the whole process group is signalled, so grandchildren die too.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStderr, ChildStdout, Command};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep, sleep_until, timeout};

use crate::error::{Stream, TransportError};
use crate::{Limits, deadline_after};

/// Read size per pipe per wake-up.
const CHUNK: usize = 8 * 1024;
/// How often the kill path re-checks whether the process group is empty.
const GROUP_POLL: Duration = Duration::from_millis(10);
/// After `SIGKILL`, how long to wait for the leader's exit status before leaving the zombie to
/// tokio's background reaper. `SIGKILL` cannot be caught, so this only matters for a leader stuck
/// in uninterruptible sleep.
const REAP_AFTER_KILL: Duration = Duration::from_millis(500);

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// `shell -c script`. The shell is given explicitly (the engine decides between `$SHELL` and
    /// `/bin/sh`); it is not looked up through `PATH` unless it is a bare name.
    Shell {
        /// The script passed after `-c`.
        script: String,
        /// The shell binary, e.g. `/bin/sh`.
        shell: PathBuf,
    },
    /// `program args...` with no shell in between: arguments reach the program byte for byte
    /// (`$(id)` stays literal). A bare name is looked up through `PATH`.
    Exec {
        /// The program to run.
        program: String,
        /// Its arguments (not including `argv[0]`).
        args: Vec<String>,
    },
}

impl Program {
    /// The name used in error messages: the shell for the shell form, the program otherwise.
    fn display_name(&self) -> String {
        match self {
            Self::Shell { shell, .. } => shell.display().to_string(),
            Self::Exec { program, .. } => program.clone(),
        }
    }
}

/// One command invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    /// What to run.
    pub program: Program,
    /// Variables set on top of the inherited environment (later entries win). Nothing is removed
    /// from the inherited environment.
    pub env: Vec<(OsString, OsString)>,
    /// Working directory; `None` inherits the caller's. Must already be expanded (`~`, `$VAR`).
    pub working_dir: Option<PathBuf>,
}

impl CommandSpec {
    /// A shell-form spec with no extra env and the inherited working directory.
    pub fn shell(script: impl Into<String>, shell: impl Into<PathBuf>) -> Self {
        Self {
            program: Program::Shell {
                script: script.into(),
                shell: shell.into(),
            },
            env: Vec::new(),
            working_dir: None,
        }
    }

    /// An exec-form spec with no extra env and the inherited working directory.
    pub fn exec<I, S>(program: impl Into<String>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            program: Program::Exec {
                program: program.into(),
                args: args.into_iter().map(Into::into).collect(),
            },
            env: Vec::new(),
            working_dir: None,
        }
    }
}

/// How the leader process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExitKind {
    /// Normal exit with this status code.
    Code(i32),
    /// Killed by this signal number (e.g. 9 for `SIGKILL`, 15 for `SIGTERM`).
    Signal(i32),
}

impl ExitKind {
    /// `true` for `Code(0)` only.
    pub fn success(self) -> bool {
        self == Self::Code(0)
    }

    /// The exit code, if the process exited normally.
    pub fn code(self) -> Option<i32> {
        match self {
            Self::Code(c) => Some(c),
            Self::Signal(_) => None,
        }
    }

    fn from_status(status: ExitStatus) -> Self {
        match (status.code(), status.signal()) {
            (Some(code), _) => Self::Code(code),
            (None, Some(sig)) => Self::Signal(sig),
            // Not reachable for a reaped process on Unix; keep the raw wait status rather than
            // inventing a code.
            (None, None) => Self::Code(status.into_raw()),
        }
    }
}

impl fmt::Display for ExitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Code(c) => write!(f, "exit code {c}"),
            Self::Signal(s) => write!(f, "signal {s}"),
        }
    }
}

/// What a finished command produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessOutput {
    /// How the leader ended.
    pub exit: ExitKind,
    /// Captured stdout, at most `max_output_bytes`.
    pub stdout: Vec<u8>,
    /// Captured stderr, at most `max_output_bytes`.
    pub stderr: Vec<u8>,
    /// Wall time from just before spawn to return (includes any drain and kill).
    pub duration: Duration,
    /// `true` when descendants still held stdout/stderr open `drain_grace` after the leader
    /// exited (or at the deadline, whichever came first): the group was killed and the output may
    /// be missing what those descendants would have written.
    pub drain_timed_out: bool,
}

/// Run one command under `limits`, writing `stdin` to it.
///
/// Returns `Ok` whenever the leader process exited before the deadline, whatever its status
/// (non-zero codes and signals are data, not errors). Errors: [`TransportError::Spawn`] /
/// [`TransportError::WorkingDir`] (nothing ran), [`TransportError::Timeout`],
/// [`TransportError::OutputTooLarge`], [`TransportError::Io`] (the group is killed before any of
/// those three is returned), [`TransportError::InvalidSpec`].
///
/// Must be called inside a tokio runtime with the I/O and time drivers enabled (`enable_all`).
/// Dropping the returned future kills the process group with `SIGKILL`.
pub async fn run_command(
    spec: &CommandSpec,
    stdin: &[u8],
    limits: &Limits,
) -> Result<ProcessOutput, TransportError> {
    let started = Instant::now();
    let deadline = deadline_after(started, limits.timeout);
    let name = spec.program.display_name();
    let mut command = build_command(spec)?;

    let mut child = command
        .spawn()
        .map_err(|source| spawn_error(spec, &name, source))?;
    // From here on the group must not outlive a failed call: the guard SIGKILLs it on drop
    // unless a path below has already dealt with it.
    let Some(pgid) = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .and_then(Pid::from_raw)
    else {
        return Err(TransportError::Io {
            context: format!("reading the pid of `{name}`"),
            source: io::Error::other("the child has no pid"),
        });
    };
    let mut group = GroupGuard::new(pgid);
    let _stdin_writer = StdinWriter::start(child.stdin.take(), stdin);
    let mut pipes = Pipes {
        stdout: Capture::new(child.stdout.take(), limits.max_output_bytes),
        stderr: Capture::new(child.stderr.take(), limits.max_output_bytes),
    };

    let mut status: Option<ExitStatus> = None;
    let mut drain_until: Option<Instant> = None;
    let stop = loop {
        if status.is_some() && pipes.closed() {
            break Stop::Finished;
        }
        let wake_at = drain_until.unwrap_or(deadline);
        tokio::select! {
            waited = child.wait(), if status.is_none() => match waited {
                Ok(s) => {
                    status = Some(s);
                    drain_until = Some(deadline_after(Instant::now(), limits.drain_grace).min(deadline));
                }
                Err(source) => break Stop::Failed(TransportError::Io {
                    context: format!("waiting for `{name}`"),
                    source,
                }),
            },
            read = pipes.read_step() => match read {
                Ok(()) => {
                    if let Some(stream) = pipes.overflowed() {
                        break Stop::Failed(TransportError::OutputTooLarge {
                            stream,
                            limit: limits.max_output_bytes,
                        });
                    }
                }
                Err((stream, source)) => break Stop::Failed(TransportError::Io {
                    context: format!("reading {stream} of `{name}`"),
                    source,
                }),
            },
            () = sleep_until(wake_at) => break if drain_until.is_some() {
                Stop::DrainTimedOut
            } else {
                Stop::Failed(TransportError::Timeout { after: limits.timeout })
            },
        }
    };

    let drain_timed_out = match stop {
        Stop::Finished => {
            // Leader reaped and both pipes at EOF: anything left in the group let go of our
            // pipes on purpose (e.g. `nohup cmd >log 2>&1 &`); it is not ours to kill.
            group.disarm();
            false
        }
        Stop::DrainTimedOut => {
            terminate(
                &mut child,
                &mut pipes,
                &mut group,
                &mut status,
                limits.kill_grace,
            )
            .await;
            true
        }
        Stop::Failed(err) => {
            terminate(
                &mut child,
                &mut pipes,
                &mut group,
                &mut status,
                limits.kill_grace,
            )
            .await;
            return Err(err);
        }
    };

    if let Some(stream) = pipes.overflowed() {
        // Bytes read while the group was being killed still count against the cap.
        return Err(TransportError::OutputTooLarge {
            stream,
            limit: limits.max_output_bytes,
        });
    }
    let Some(status) = status else {
        // Unreachable: both `Finished` and `DrainTimedOut` require the leader's status.
        return Err(TransportError::Io {
            context: format!("waiting for `{name}`"),
            source: io::Error::other("exit status missing"),
        });
    };
    Ok(ProcessOutput {
        exit: ExitKind::from_status(status),
        stdout: pipes.stdout.buf,
        stderr: pipes.stderr.buf,
        duration: started.elapsed(),
        drain_timed_out,
    })
}

/// Why the supervision loop stopped.
enum Stop {
    /// Leader exited and both pipes reached EOF.
    Finished,
    /// Leader exited but descendants kept the pipes open past the drain bound.
    DrainTimedOut,
    /// The call fails with this error once the group is dead.
    Failed(TransportError),
}

fn build_command(spec: &CommandSpec) -> Result<Command, TransportError> {
    let mut command = match &spec.program {
        Program::Shell { script, shell } => {
            if shell.as_os_str().is_empty() {
                return Err(TransportError::invalid("the shell path is empty"));
            }
            reject_nul("shell path", shell.as_os_str())?;
            reject_nul("script", OsStr::new(script))?;
            let mut c = Command::new(shell);
            c.arg("-c").arg(script);
            c
        }
        Program::Exec { program, args } => {
            if program.is_empty() {
                return Err(TransportError::invalid("the program name is empty"));
            }
            reject_nul("program name", OsStr::new(program))?;
            for arg in args {
                reject_nul("argument", OsStr::new(arg))?;
            }
            let mut c = Command::new(program);
            c.args(args);
            c
        }
    };
    for (key, value) in &spec.env {
        let k = key.as_encoded_bytes();
        if k.is_empty() || k.contains(&b'=') || k.contains(&0) {
            return Err(TransportError::invalid(format!(
                "environment variable name `{}` is empty or contains `=` or a NUL byte",
                key.display()
            )));
        }
        // The value is not echoed: it may be a secret.
        if value.as_encoded_bytes().contains(&0) {
            return Err(TransportError::invalid(format!(
                "environment variable `{}` contains a NUL byte",
                key.display()
            )));
        }
        command.env(key, value);
    }
    if let Some(dir) = &spec.working_dir {
        command.current_dir(dir);
    }
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Own process group (pgid = child pid): the unit we signal, so grandchildren die too.
        .process_group(0)
        // Belt and braces for the leader if the future is dropped; `GroupGuard` does the group.
        .kill_on_drop(true);
    Ok(command)
}

fn reject_nul(what: &str, s: &OsStr) -> Result<(), TransportError> {
    if s.as_encoded_bytes().contains(&0) {
        Err(TransportError::invalid(format!(
            "the {what} contains a NUL byte"
        )))
    } else {
        Ok(())
    }
}

/// A missing working directory makes `spawn` fail with the same ENOENT as a missing program;
/// tell them apart so the message points at the right thing.
fn spawn_error(spec: &CommandSpec, name: &str, source: io::Error) -> TransportError {
    match &spec.working_dir {
        Some(dir) if !dir.is_dir() => TransportError::WorkingDir {
            program: name.to_owned(),
            path: dir.clone(),
            source,
        },
        _ => TransportError::Spawn {
            program: name.to_owned(),
            source,
        },
    }
}

/// Kill the group: `SIGTERM`, then up to `grace` for it to go away, then `SIGKILL`.
///
/// The grace ends early when the group is empty (no `SIGKILL` needed), or when the leader has
/// been reaped and both pipes are at EOF: whoever held our pipes is gone, and only processes that
/// detached from them remain, which get `SIGKILL` at once. The second rule keeps the call prompt
/// where the orphaned descendants become zombies that nobody reaps (containers whose pid 1 does
/// not reap): a zombie still counts as a group member, so "group empty" would never come.
///
/// Pipes keep being read (into the capped buffers) during the grace so that a writer blocked on
/// a full pipe can reach its exit.
async fn terminate(
    child: &mut Child,
    pipes: &mut Pipes,
    group: &mut GroupGuard,
    status: &mut Option<ExitStatus>,
    grace: Duration,
) {
    group.signal(Signal::TERM);
    let until = deadline_after(Instant::now(), grace);
    loop {
        if status.is_some() {
            if group.is_empty() {
                group.disarm();
                return;
            }
            if pipes.closed() {
                break;
            }
        }
        tokio::select! {
            waited = child.wait(), if status.is_none() => match waited {
                Ok(s) => *status = Some(s),
                // Cannot learn the status; fall through to SIGKILL.
                Err(_) => break,
            },
            read = pipes.read_step() => {
                if let Err((stream, _)) = read {
                    pipes.close(stream);
                }
            }
            () = sleep(GROUP_POLL) => {}
            () = sleep_until(until) => break,
        }
    }
    group.signal(Signal::KILL);
    group.disarm();
    if status.is_none()
        && let Ok(Ok(s)) = timeout(REAP_AFTER_KILL, child.wait()).await
    {
        *status = Some(s);
    }
}

/// The process groups of the commands running now, for a process that dies without unwinding.
///
/// Invariant protected: **a command hook does not outlive the call it was started for.**
/// [`GroupGuard`] kills its group when dropped, but a process that ends in a signal handler or
/// `execv`s (the hook binary's fail-safe, answering a crash or its deadline) drops nothing: the
/// fail-safe reads this table instead and kills every group in it. Fixed slots of atomics, so
/// that reading it is async-signal-safe (no lock, no allocation); a group that finds no free
/// slot (more than [`LiveGroups::SLOTS`] commands at once) is still killed by its guard, only
/// not by a dying process.
#[derive(Debug)]
pub struct LiveGroups([AtomicI32; LiveGroups::SLOTS]);

/// The table [`GroupGuard`]s register in. See [`LiveGroups`].
pub static LIVE_GROUPS: LiveGroups = LiveGroups([const { AtomicI32::new(0) }; LiveGroups::SLOTS]);

impl LiveGroups {
    /// How many running groups the table tracks at once.
    pub const SLOTS: usize = 64;

    fn add(&self, pgid: i32) {
        for slot in &self.0 {
            if slot
                .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    fn remove(&self, pgid: i32) {
        for slot in &self.0 {
            if slot
                .compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Calls `f` with each registered process group id. Async-signal-safe when `f` is.
    pub fn for_each(&self, mut f: impl FnMut(i32)) {
        for slot in &self.0 {
            let pgid = slot.load(Ordering::SeqCst);
            if pgid > 0 {
                f(pgid);
            }
        }
    }
}

/// Owns "the group must die if we give up on it".
///
/// Dropped while armed (the caller dropped the `run_command` future, or an early return), it
/// sends `SIGKILL` to the whole group. It is disarmed once the runner has either killed the group
/// itself or decided the group is no longer its business (leader exited, pipes closed).
///
/// Known limit: after the leader is reaped, its pid (= pgid) could in theory be reused. Linux does
/// not reuse a pid while any process is still in the group with that id, so a stray signal needs
/// the group to have emptied *and* a new process to become a group leader with that exact pid in
/// the few milliseconds before we signal. The empty-group check in `terminate` narrows this
/// further.
#[derive(Debug)]
struct GroupGuard {
    pgid: Pid,
    armed: bool,
}

impl GroupGuard {
    fn new(pgid: Pid) -> Self {
        LIVE_GROUPS.add(pgid.as_raw_nonzero().get());
        Self { pgid, armed: true }
    }

    fn signal(&self, sig: Signal) {
        // ESRCH (group already gone) is the expected way for this to fail; nothing to do.
        let _ = kill_process_group(self.pgid, sig);
    }

    /// `true` when no process (not even a zombie) is left in the group.
    fn is_empty(&self) -> bool {
        test_kill_process_group(self.pgid).is_err_and(|e| e == rustix::io::Errno::SRCH)
    }

    fn disarm(&mut self) {
        self.armed = false;
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            self.signal(Signal::KILL);
        }
        LIVE_GROUPS.remove(self.pgid.as_raw_nonzero().get());
    }
}

/// Writes the input on its own task so a child that never reads cannot stall the runner; the
/// deadline still covers it because the runner's loop does not depend on it finishing.
///
/// Aborted on drop: a descendant that keeps stdin open without reading must not keep a task (and
/// the input buffer) alive after the call returned. Aborting drops the pipe, which closes it.
struct StdinWriter(Option<JoinHandle<()>>);

impl StdinWriter {
    fn start(pipe: Option<tokio::process::ChildStdin>, input: &[u8]) -> Self {
        let Some(mut pipe) = pipe else {
            return Self(None);
        };
        if input.is_empty() {
            // Dropping the pipe closes it: the child sees EOF at once.
            return Self(None);
        }
        let input = input.to_vec();
        Self(Some(tokio::spawn(async move {
            // EPIPE (the child exited or closed stdin without reading everything) is normal for
            // hooks that ignore their input; it is not an error of the call.
            let _ = pipe.write_all(&input).await;
            let _ = pipe.shutdown().await;
        })))
    }
}

impl Drop for StdinWriter {
    fn drop(&mut self) {
        if let Some(handle) = &self.0 {
            handle.abort();
        }
    }
}

/// Both output pipes with their capped buffers.
struct Pipes {
    stdout: Capture<ChildStdout>,
    stderr: Capture<ChildStderr>,
}

impl Pipes {
    /// Read one chunk from whichever pipe is ready. Pending forever once both are closed.
    ///
    /// Cancel safe: the only await points are `AsyncRead::read` calls, which lose no data when
    /// dropped, so this can sit in a `select!` next to the deadline.
    async fn read_step(&mut self) -> Result<(), (Stream, io::Error)> {
        let Self { stdout, stderr } = self;
        tokio::select! {
            r = stdout.read_chunk() => r.map_err(|e| (Stream::Stdout, e)),
            r = stderr.read_chunk() => r.map_err(|e| (Stream::Stderr, e)),
        }
    }

    fn closed(&self) -> bool {
        self.stdout.reader.is_none() && self.stderr.reader.is_none()
    }

    fn overflowed(&self) -> Option<Stream> {
        if self.stdout.overflowed {
            Some(Stream::Stdout)
        } else if self.stderr.overflowed {
            Some(Stream::Stderr)
        } else {
            None
        }
    }

    fn close(&mut self, stream: Stream) {
        match stream {
            Stream::Stdout => self.stdout.reader = None,
            Stream::Stderr => self.stderr.reader = None,
            Stream::ResponseBody => {}
        }
    }
}

/// One pipe read into a buffer that never grows past `cap` bytes.
struct Capture<R> {
    /// `None` once EOF was seen (or the pipe was never there).
    reader: Option<R>,
    buf: Vec<u8>,
    cap: usize,
    /// More than `cap` bytes arrived. Later reads are discarded (only done while killing).
    overflowed: bool,
    scratch: Box<[u8]>,
}

impl<R: AsyncRead + Unpin> Capture<R> {
    fn new(reader: Option<R>, cap: usize) -> Self {
        Self {
            reader,
            buf: Vec::new(),
            cap,
            overflowed: false,
            scratch: vec![0; CHUNK].into_boxed_slice(),
        }
    }

    /// Read once. Never asks for more than `cap + 1 - len` bytes, so an overflow is detected on
    /// exactly the first excess byte and the buffer stays at most `cap` long.
    async fn read_chunk(&mut self) -> io::Result<()> {
        let Some(reader) = self.reader.as_mut() else {
            return std::future::pending().await;
        };
        let want = if self.overflowed {
            CHUNK
        } else {
            self.cap
                .saturating_add(1)
                .saturating_sub(self.buf.len())
                .clamp(1, CHUNK)
        };
        let n = reader.read(&mut self.scratch[..want]).await?;
        if n == 0 {
            self.reader = None;
        } else if !self.overflowed {
            self.buf.extend_from_slice(&self.scratch[..n]);
            if self.buf.len() > self.cap {
                self.overflowed = true;
                self.buf.truncate(self.cap);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_kind_display_and_accessors() {
        assert_eq!(ExitKind::Code(2).to_string(), "exit code 2");
        assert_eq!(ExitKind::Signal(9).to_string(), "signal 9");
        assert!(ExitKind::Code(0).success());
        assert!(!ExitKind::Signal(0).success());
        assert_eq!(ExitKind::Code(3).code(), Some(3));
        assert_eq!(ExitKind::Signal(15).code(), None);
    }

    #[test]
    fn exit_kind_from_raw_wait_status() {
        // Raw wait status: exit code in bits 8..16, terminating signal in bits 0..7.
        assert_eq!(
            ExitKind::from_status(ExitStatus::from_raw(3 << 8)),
            ExitKind::Code(3)
        );
        assert_eq!(
            ExitKind::from_status(ExitStatus::from_raw(9)),
            ExitKind::Signal(9)
        );
    }

    #[test]
    fn program_display_name_is_the_binary_that_is_spawned() {
        assert_eq!(
            CommandSpec::shell("exit 0", "/bin/sh")
                .program
                .display_name(),
            "/bin/sh"
        );
        assert_eq!(
            CommandSpec::exec("./hook.sh", ["a"]).program.display_name(),
            "./hook.sh"
        );
    }
}
