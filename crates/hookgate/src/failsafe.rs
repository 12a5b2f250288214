//! A guard that dies still says no: the fail-closed answer of `hookgate hook` when the process
//! cannot finish judging.
//!
//! Invariant protected: **a hook process never ends without a blocking answer unless it wrote
//! its own.** An agent blocks only on its deny reply or exit status 2; any other ending — a
//! panic, an abort, a stack overflow, SIGSEGV/SIGBUS/SIGILL/SIGFPE, an allocation failure (Rust
//! aborts), a hang the agent's own timeout cuts — is a "non-blocking error" to Claude Code,
//! Codex, Gemini (exit 1) and Cursor, and the tool call runs. So [`arm`], called as the very
//! first thing of `hookgate hook`, installs:
//!
//! - a **panic hook**: any panic, on any thread (even inside an in-process hook the engine would
//!   otherwise isolate), is a crash: the fail-closed answer, the panic message logged on stderr
//!   after it, exit 2. A panic is a bug, and the payload it was judging is not known to be safe;
//! - **signal handlers** for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT (double panics and
//!   allocation failures end in `abort`), on an **alternate signal stack** so a stack overflow
//!   is answered too. They replace std's SIGSEGV/SIGBUS handler (installed before `main`, it only
//!   prints "has overflowed its stack" and aborts): ours are installed later, so they win.
//!   The main thread, where the judging runs, gets a 64 KiB alternate stack of ours; the
//!   threads the hook path spawns (probe pipe readers, tokio's blocking pool for command
//!   hooks) get std's 8 KiB one (no judging runs there; an overflow of that one would end in
//!   the kernel's SIGSEGV, unanswered);
//! - a **deadline** (`HOOKGATE_DEADLINE_MS`, default [`DEFAULT_DEADLINE_MS`]): a `setitimer`
//!   timer, so the normal path pays two system calls and no thread. When it fires before the
//!   answer, the answer is the fail-closed deny (not the fail mode: the fail mode may be ask,
//!   and an ask written before the payload is read cannot know whether anyone will be asked).
//!   It stays below the hook timeout `init` writes (10 s), because an agent that times a hook
//!   out lets the call run.
//!
//! The answer is the one form that blocks in every agent on every event without knowing
//! either: the reason on stderr and exit status 2 ([`hookgate_agents::FAIL_CLOSED_EXIT_STATUS`]).
//! It is a constant, so the handlers only `write(2)` it and `_exit`: both async-signal-safe,
//! nothing allocated, no lock taken.
//!
//! **Nothing is answered twice.** One atomic tracks the reply: while judging, a fatal event
//! writes the fail-closed answer; once [`replying`] was called (the normal path is about to
//! write its reply, stdout in one `write_all`), a fatal event writes only the reason on stderr
//! and exits 2 — a half-written JSON reply is not a reply, and exit 2 with a reason blocks
//! whatever stdout holds; once [`replied`] was called, the reply is whole and a fatal event
//! only exits with the status that reply goes with (the decision stands). The first fatal event
//! claims the process; a second one (a signal during the panic hook's logging) exits 2 at once,
//! writing the reason again only if the first was cut off before it was out.
//!
//! **The answer is recorded.** Once the answer is out, the dying process replaces itself
//! (`execv` of `/proc/self/exe`, async-signal-safe) with `hookgate hook-unfinished KIND FD
//! <the hook's own arguments>`, prepared before the payload was judged: that fresh process
//! writes the audit record of the call (`guard-crash` / `guard-deadline`, decision error →
//! deny, with the tool and command decoded from the payload) and hands it to the configured
//! sinks, then exits 2 — the same process id, so the agent waits for it and sees the same
//! status. The payload reaches it through an inheritable memory file (`memfd`, Linux) written
//! right after the payload was read: one small write, and no file on disk. The recorder never
//! judges (judging is what failed) and never records twice: its own fail-safe only exits 2,
//! under a short deadline of its own ([`RECORDER_DEADLINE_MS`]). When the exec fails (the
//! mapping was damaged, an address-space limit) the process exits 2 as before: the record is
//! lost, never the answer.
//!
//! **No command hook outlives the call.** The hook's own command hooks run in process groups
//! of their own, registered in [`hookgate_transport::LIVE_GROUPS`]; every fatal event kills
//! them (SIGKILL to each group) before anything else, since the unwinding that would have
//! killed them does not happen.
//!
//! What cannot be answered: SIGKILL (the OOM killer, `kill -9`, an agent's own timeout kill)
//! and SIGSTOP end the process without running any code of it — see the README's "When the
//! guard itself fails".

use std::sync::atomic::{AtomicU8, Ordering};

/// The deadline when `HOOKGATE_DEADLINE_MS` is unset or not a positive number: far above a
/// guard call (milliseconds) and still well below the 10 s hook timeout `init` writes.
pub(crate) const DEFAULT_DEADLINE_MS: u64 = hookgate_init::DEFAULT_GUARD_DEADLINE_MS;

/// The reason id of an answer given because the guard crashed (`guard-deadline` when it ran
/// out of time): dedicated ids, not a policy rule's, since no rule decided.
const CRASH_ID: &str = "guard-crash";
/// The reason id of an answer given because the deadline passed.
const DEADLINE_ID: &str = "guard-deadline";

/// The fail-closed answer to a crash (stderr; `hookgate: <id>: …` like every other reason).
const CRASH_REASON: &str = "hookgate: guard-crash: the guard crashed before it finished judging this call; failing closed (deny)\n";
/// The fail-closed answer when the deadline passes before the answer.
const DEADLINE_REASON: &str = "hookgate: guard-deadline: the guard did not finish judging this call within its time budget ($HOOKGATE_DEADLINE_MS); failing closed (deny)\n";

/// Judging: no byte of the reply written yet.
const JUDGING: u8 = 0;
/// The normal reply is being written.
const REPLYING: u8 = 1;
/// The normal reply is whole.
const REPLIED: u8 = 2;
/// A fatal event claimed the process and is writing its reason.
const DYING: u8 = 3;
/// A fatal event's reason is out: only the exit is left.
const ANSWERED: u8 = 4;

/// The exit status of the fail-closed answer (2: it blocks in every agent).
const FAIL_CLOSED: u8 = hookgate_agents::FAIL_CLOSED_EXIT_STATUS;

static STATE: AtomicU8 = AtomicU8::new(JUDGING);
/// The exit status of the normal reply, once [`replying`] was called.
static EXIT_CODE: AtomicU8 = AtomicU8::new(2);

/// The time budget from `HOOKGATE_DEADLINE_MS` (milliseconds); unset, empty, zero or not a
/// number is the default — the deadline cannot be switched off, since without it a hang would
/// end at the agent's timeout, which lets the call run.
pub(crate) fn deadline_ms() -> u64 {
    std::env::var("HOOKGATE_DEADLINE_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&ms| ms > 0)
        .unwrap_or(DEFAULT_DEADLINE_MS)
}

/// Installs the panic hook, the fatal-signal handlers and the deadline. Call it once, first
/// thing in `hookgate hook`, before the payload is read.
pub(crate) fn arm() {
    std::panic::set_hook(Box::new(on_panic));
    sys::install(deadline_ms());
    sys::prepare_recorder(None);
}

/// The time budget of `hookgate hook-unfinished` (the recorder a dying hook process becomes):
/// the agent's hook timeout (10 s by `init`) runs from the start of the call, and the hook
/// already spent up to [`deadline_ms`] of it.
pub(crate) const RECORDER_DEADLINE_MS: u64 = 2_000;

/// Arms the recorder's own fail-safe: any panic, fatal signal or its deadline ends it with
/// exit 2 at once, writing nothing (the answer and its reason are already out) and recording
/// nothing (a record of the recorder's failure could fail the same way).
pub(crate) fn arm_recorder() {
    std::panic::set_hook(Box::new(|_| sys::exit(FAIL_CLOSED)));
    STATE.store(ANSWERED, Ordering::SeqCst);
    sys::install_recorder(RECORDER_DEADLINE_MS);
}

/// Keeps the payload where the recorder can read it if this process dies judging it (see the
/// module doc): call right after the payload was read, before it is judged.
pub(crate) fn keep_payload(payload: &[u8]) {
    sys::keep_payload(payload);
}

/// What ended a hook process early, as `hook-unfinished` is told (its `KIND` argument): the
/// id of the record, and the sentence it gives.
pub(crate) fn unfinished_kind(kind: &str) -> Option<(&'static str, &'static str)> {
    Some(match kind {
        "deadline" => (
            DEADLINE_ID,
            "the guard did not finish judging this call within its time budget ($HOOKGATE_DEADLINE_MS); failed closed (deny)",
        ),
        "panic" => (
            CRASH_ID,
            "the guard panicked while judging this call; failed closed (deny)",
        ),
        "sigsegv" => (
            CRASH_ID,
            "SIGSEGV (memory fault or stack overflow) while judging this call; failed closed (deny)",
        ),
        "sigbus" => (
            CRASH_ID,
            "SIGBUS (bus error) while judging this call; failed closed (deny)",
        ),
        "sigill" => (
            CRASH_ID,
            "SIGILL (illegal instruction) while judging this call; failed closed (deny)",
        ),
        "sigfpe" => (
            CRASH_ID,
            "SIGFPE (arithmetic fault) while judging this call; failed closed (deny)",
        ),
        "sigabrt" => (
            CRASH_ID,
            "SIGABRT (failed allocation, double panic or assertion) while judging this call; failed closed (deny)",
        ),
        _ => return None,
    })
}

/// The normal path is about to write its reply, which goes with exit status `code`.
pub(crate) fn replying(code: u8) {
    EXIT_CODE.store(code, Ordering::SeqCst);
    // Only from judging: a fatal event that already claimed the process keeps it.
    let _ = STATE.compare_exchange(JUDGING, REPLYING, Ordering::SeqCst, Ordering::SeqCst);
}

/// The normal reply is whole (stdout and stderr written).
pub(crate) fn replied() {
    let _ = STATE.compare_exchange(REPLYING, REPLIED, Ordering::SeqCst, Ordering::SeqCst);
}

/// Answers a fatal event: writes `reason` on stderr unless the reply is whole or a reason is
/// already out, and returns the exit status to end with. Async-signal-safe: atomics and
/// `write(2)`. An earlier fatal event interrupted before its reason was out (a stack overflow
/// inside the panic hook) leaves `DYING`: the reason is written again then, since a blocking
/// status without a reason does not block Codex, and a doubled line on stderr harms nothing.
fn answer(reason: &'static str) -> u8 {
    loop {
        let state = STATE.load(Ordering::SeqCst);
        match state {
            // The reply is whole: its decision stands, only its exit status is owed.
            REPLIED => return EXIT_CODE.load(Ordering::SeqCst),
            ANSWERED => return FAIL_CLOSED,
            DYING => break,
            // Judging, or a reply half-written: the reason on stderr and exit 2 block either way.
            _ => {
                if STATE
                    .compare_exchange(state, DYING, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
                {
                    break;
                }
            }
        }
    }
    sys::write_stderr(reason.as_bytes());
    STATE.store(ANSWERED, Ordering::SeqCst);
    FAIL_CLOSED
}

/// The panic hook: answers first (the agent must get its deny even if logging fails), then
/// logs where and why on stderr (one line, bounded), then ends the process without unwinding.
fn on_panic(info: &std::panic::PanicHookInfo<'_>) {
    let fresh = first_fatal();
    let code = answer(CRASH_REASON);
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    let place = info
        .location()
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    let line: String = format!("hookgate: {CRASH_ID}: panic{place}: {message}")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(500)
        .collect();
    sys::write_stderr(line.as_bytes());
    sys::write_stderr(b"\n");
    sys::kill_live_groups();
    if fresh {
        sys::become_recorder(c"panic");
    }
    sys::exit(code);
}

/// Whether a fatal event arriving now is the first, before the normal reply was whole: only
/// then is its answer new (a whole reply's decision stands, and was recorded by the normal path).
fn first_fatal() -> bool {
    !matches!(STATE.load(Ordering::SeqCst), REPLIED | DYING | ANSWERED)
}

#[cfg(unix)]
#[allow(
    unsafe_code,
    reason = "signal handlers, the alternate signal stack and the interval timer are libc calls; \
              this module is the only unsafe code in the workspace (tests/crate_metadata.rs)"
)]
mod sys {
    use std::sync::atomic::Ordering;

    use std::ffi::{CStr, CString, c_char};
    use std::sync::atomic::AtomicPtr;

    use super::{CRASH_REASON, DEADLINE_REASON, answer, first_fatal};

    /// The exec a dying hook process becomes (see the module doc), built before it is needed:
    /// a signal handler may not allocate. Leaked on purpose — it must outlive everything, and a
    /// process builds at most two.
    struct Recorder {
        /// `/proc/self/exe`: this very binary, even if its file was replaced or deleted since.
        program: CString,
        /// `[argv0, "hook-unfinished", KIND, FD, hook args…, NULL]`; slot [`KIND_SLOT`] is
        /// filled in by the dying process (a pointer to a static C string).
        argv: Box<[*const c_char]>,
        /// Owns the strings `argv` points at.
        _strings: Vec<CString>,
    }

    /// Where in the recorder's argv the kind of ending goes.
    const KIND_SLOT: usize = 2;

    static RECORDER: AtomicPtr<Recorder> = AtomicPtr::new(std::ptr::null_mut());

    /// The payload's memory file (see [`keep_payload`]), -1 while there is none.
    static PAYLOAD_FD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

    /// Builds the recorder's argv from this process's own (`hookgate hook ARGS…` → `hookgate
    /// hook-unfinished KIND FD ARGS…`), `FD` being the payload's memory file or `-`.
    pub(super) fn prepare_recorder(payload_fd: Option<libc::c_int>) {
        let mut own = std::env::args_os();
        let program_name = own.next().unwrap_or_else(|| "hookgate".into());
        // Everything after `hook` (the hook's flags, which shape the audit options).
        let rest: Vec<std::ffi::OsString> = own.skip_while(|a| a != "hook").skip(1).collect();
        let fd = payload_fd.map_or_else(|| "-".to_owned(), |fd| fd.to_string());
        let words = [
            program_name,
            "hook-unfinished".into(),
            "panic".into(),
            fd.into(),
        ]
        .into_iter()
        .chain(rest);
        let mut strings = Vec::new();
        for word in words {
            use std::os::unix::ffi::OsStringExt as _;
            match CString::new(word.into_vec()) {
                Ok(c) => strings.push(c),
                // An argument with a NUL cannot reach a process: no recorder, the exit stays.
                Err(_) => return,
            }
        }
        let argv: Box<[*const c_char]> = strings
            .iter()
            .map(|c| c.as_ptr())
            .chain([std::ptr::null()])
            .collect();
        let recorder = Box::new(Recorder {
            program: CString::from(c"/proc/self/exe"),
            argv,
            _strings: strings,
        });
        // The earlier recorder (without the payload) is leaked, not freed: a signal handler may
        // be reading it at this very moment.
        RECORDER.store(Box::into_raw(recorder), Ordering::SeqCst);
    }

    /// Writes the payload into an inheritable memory file and points the recorder at it. Any
    /// failure keeps the recorder without a payload (the record then names no call).
    pub(super) fn keep_payload(payload: &[u8]) {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a valid C string name; the result is checked. Close-on-exec, so the
            // programs the hook starts (user command hooks, sinks) do not inherit it; the dying
            // process clears the flag just before it becomes the recorder.
            let fd = unsafe { libc::memfd_create(c"hookgate-payload".as_ptr(), libc::MFD_CLOEXEC) };
            if fd < 0 {
                return;
            }
            let mut rest = payload;
            while !rest.is_empty() {
                // SAFETY: `rest` is a valid slice for its whole length; `fd` is ours.
                let written = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
                match usize::try_from(written) {
                    Ok(n) if n > 0 => rest = rest.get(n..).unwrap_or_default(),
                    _ => {
                        // SAFETY: closing the fd this function opened.
                        unsafe { libc::close(fd) };
                        return;
                    }
                }
            }
            PAYLOAD_FD.store(fd, Ordering::SeqCst);
            prepare_recorder(Some(fd));
        }
        #[cfg(not(target_os = "linux"))]
        let _ = payload;
    }

    /// Replaces this dying process with the recorder (see the module doc). Async-signal-safe:
    /// atomic loads, `setitimer` (the old deadline must not kill the recorder: it arms its
    /// own), `fcntl` (the payload file is handed over) and `execv`. Returns only when there is no recorder or the exec failed.
    pub(super) fn become_recorder(kind: &'static CStr) {
        let recorder = RECORDER.load(Ordering::SeqCst);
        if recorder.is_null() {
            return;
        }
        let off = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
        };
        // SAFETY: `recorder` came from `Box::into_raw` and is never freed; the process is
        // dying and this is its only user (the state machine lets one fatal event through).
        // `argv` is NUL-terminated and its strings live in the same leaked box.
        unsafe {
            libc::setitimer(libc::ITIMER_REAL, &raw const off, std::ptr::null_mut());
            let fd = PAYLOAD_FD.load(Ordering::SeqCst);
            if fd >= 0 {
                libc::fcntl(fd, libc::F_SETFD, 0);
            }
            let recorder = &mut *recorder;
            if let Some(slot) = recorder.argv.get_mut(KIND_SLOT) {
                *slot = kind.as_ptr();
            }
            libc::execv(recorder.program.as_ptr(), recorder.argv.as_ptr());
        }
    }

    /// Kills the process group of every command hook still running (see
    /// [`hookgate_transport::LiveGroups`]): the call they were started for is over, and a
    /// process ending here drops none of their guards. Async-signal-safe: atomic loads and
    /// `kill(2)`.
    pub(super) fn kill_live_groups() {
        hookgate_transport::LIVE_GROUPS.for_each(|pgid| {
            // SAFETY: `kill` with a negative id signals that process group; no memory is touched.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        });
    }

    /// The recorder's fail-safe: the signal mask it inherited from a handler (every signal
    /// blocked) is cleared, and every fatal signal and its deadline end it with exit 2 at once.
    pub(super) fn install_recorder(deadline_ms: u64) {
        // SAFETY: an empty, initialised set; the old mask is not wanted.
        unsafe {
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&raw mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &raw const none, std::ptr::null_mut());
        }
        install(deadline_ms);
    }

    /// The signals that mean the process is dying of a fault of its own (or an abort).
    const FATAL: [libc::c_int; 5] = [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGILL,
        libc::SIGFPE,
        libc::SIGABRT,
    ];

    /// The alternate stack given to the main thread when it has none: the handler needs a
    /// few hundred bytes; this leaves room for the kernel's signal frame (AVX-512 state).
    const ALT_STACK_BYTES: usize = 64 * 1024;

    pub(super) fn install(deadline_ms: u64) {
        ensure_alt_stack();
        // SAFETY: `sigaction` is given a zeroed, fully initialised struct whose handler is an
        // `extern "C"` function that only calls async-signal-safe functions (see `on_signal`).
        // Every signal is blocked while it runs, so the deadline cannot interrupt a crash
        // answer half-way (and the reverse).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_ONSTACK;
            libc::sigfillset(&raw mut action.sa_mask);
            for signal in FATAL.into_iter().chain([libc::SIGALRM]) {
                libc::sigaction(signal, &raw const action, std::ptr::null_mut());
            }
        }
        let secs = deadline_ms / 1000;
        let micros = (deadline_ms % 1000) * 1000;
        let timer = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: libc::time_t::try_from(secs).unwrap_or(libc::time_t::MAX),
                tv_usec: libc::suseconds_t::try_from(micros).unwrap_or(0),
            },
        };
        // SAFETY: a valid `itimerval`; the old value is not wanted (null). One shot: the
        // interval is zero. Timers are not inherited by the children the hook starts.
        unsafe {
            libc::setitimer(libc::ITIMER_REAL, &raw const timer, std::ptr::null_mut());
        }
    }

    /// Gives the calling (main) thread an alternate signal stack of [`ALT_STACK_BYTES`]. std's
    /// own is `SIGSTKSZ` (8 KiB), sized for its two-line handler: the kernel's signal frame
    /// alone can take 3.5 KiB with AVX-512 state, and a debug build's frames are large, so a
    /// stack overflow answered on it could overflow it in turn (seen: exit 2 with no reason,
    /// which Codex does not take as a block). std also gives none when SIGSEGV was inherited
    /// as ignored. Mapped, not allocated: no page is touched until a signal needs it.
    fn ensure_alt_stack() {
        // SAFETY: an anonymous private mapping with no address hint; the result is checked.
        let memory = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                ALT_STACK_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if memory == libc::MAP_FAILED {
            // std's alternate stack (if any) stays: smaller, but better than none.
            return;
        }
        let stack = libc::stack_t {
            ss_sp: memory,
            ss_flags: 0,
            ss_size: ALT_STACK_BYTES,
        };
        // SAFETY: `stack` describes the mapping above, which is never unmapped.
        unsafe {
            libc::sigaltstack(&raw const stack, std::ptr::null_mut());
        }
    }

    /// The handler of every fatal signal and of the deadline. Async-signal-safe: an atomic
    /// swap, `write(2)` of constant bytes, `_exit`.
    extern "C" fn on_signal(signal: libc::c_int) {
        let fresh = first_fatal();
        kill_live_groups();
        let code = answer(if signal == libc::SIGALRM {
            DEADLINE_REASON
        } else {
            CRASH_REASON
        });
        if fresh {
            write_stderr(match signal {
                libc::SIGSEGV => b"hookgate: guard-crash: SIGSEGV (memory fault or stack overflow)\n",
                libc::SIGBUS => b"hookgate: guard-crash: SIGBUS (bus error)\n",
                libc::SIGILL => b"hookgate: guard-crash: SIGILL (illegal instruction)\n",
                libc::SIGFPE => b"hookgate: guard-crash: SIGFPE (arithmetic fault)\n",
                libc::SIGABRT => b"hookgate: guard-crash: SIGABRT (aborted: failed allocation, double panic or assertion)\n",
                _ => b"",
            });
            become_recorder(match signal {
                libc::SIGALRM => c"deadline",
                libc::SIGSEGV => c"sigsegv",
                libc::SIGBUS => c"sigbus",
                libc::SIGILL => c"sigill",
                libc::SIGFPE => c"sigfpe",
                _ => c"sigabrt",
            });
        }
        exit(code);
    }

    /// Writes all of `bytes` to fd 2 with `write(2)` (async-signal-safe), retrying partial
    /// writes and interruptions; gives up on any other error (nothing else could be done).
    pub(super) fn write_stderr(mut bytes: &[u8]) {
        while !bytes.is_empty() {
            // SAFETY: `bytes` is a valid slice for its whole length.
            let written = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
            match usize::try_from(written) {
                Ok(n) if n > 0 => bytes = bytes.get(n..).unwrap_or_default(),
                // errno read without allocating (a raw OS error is stored inline).
                _ if written < 0
                    && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) => {}
                _ => return,
            }
        }
    }

    /// Ends the process at once with `code`: no unwinding, no destructors, no `atexit`
    /// handlers (any of which could crash or block again).
    pub(super) fn exit(code: u8) -> ! {
        // SAFETY: `_exit` is async-signal-safe and never returns.
        unsafe { libc::_exit(libc::c_int::from(code)) }
    }
}

#[cfg(not(unix))]
mod sys {
    //! Elsewhere only the panic hook and no deadline: the handlers above are POSIX.
    use std::io::Write as _;

    pub(super) fn install(_deadline_ms: u64) {}

    pub(super) fn install_recorder(_deadline_ms: u64) {}

    pub(super) fn prepare_recorder(_payload_fd: Option<i32>) {}

    pub(super) fn keep_payload(_payload: &[u8]) {}

    pub(super) fn become_recorder(_kind: &'static std::ffi::CStr) {}

    pub(super) fn kill_live_groups() {}

    pub(super) fn write_stderr(bytes: &[u8]) {
        let _ = std::io::stderr().write_all(bytes);
    }

    pub(super) fn exit(code: u8) -> ! {
        std::process::exit(i32::from(code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> u8 {
        STATE.load(Ordering::SeqCst)
    }

    fn restart() {
        STATE.store(JUDGING, Ordering::SeqCst);
    }

    // One test: the state is the process's, and tests run in parallel threads.
    #[test]
    fn nothing_is_answered_twice_and_a_whole_reply_keeps_its_status() {
        // While judging, a fatal event answers (exit 2) and a second one adds nothing.
        restart();
        assert_eq!(answer(""), FAIL_CLOSED);
        assert_eq!(state(), ANSWERED);
        assert_eq!(answer(""), FAIL_CLOSED);
        // Once answered, the normal path cannot take the process back.
        replying(0);
        replied();
        assert_eq!(state(), ANSWERED);
        // A half-written reply is no reply: exit 2 with the reason.
        restart();
        replying(0);
        assert_eq!(answer(""), FAIL_CLOSED);
        assert_eq!(state(), ANSWERED);
        // A whole reply stands: only its own status is owed, nothing is written.
        for code in [0, 2, 3] {
            restart();
            replying(code);
            replied();
            assert_eq!(answer(""), code);
            assert_eq!(state(), REPLIED);
        }
        // A fatal event cut off while writing its reason (DYING) is answered again.
        STATE.store(DYING, Ordering::SeqCst);
        assert_eq!(answer(""), FAIL_CLOSED);
        assert_eq!(state(), ANSWERED);
        restart();
    }
}
