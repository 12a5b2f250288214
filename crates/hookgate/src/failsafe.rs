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
//! What cannot be answered: SIGKILL (the OOM killer, `kill -9`, an agent's own timeout kill)
//! and SIGSTOP end the process without running any code of it — see the README's "When the
//! guard itself fails".

use std::sync::atomic::{AtomicU8, Ordering};

/// The deadline when `HOOKGATE_DEADLINE_MS` is unset or not a positive number: far above a
/// guard call (milliseconds) and still well below the 10 s hook timeout `init` writes.
pub(crate) const DEFAULT_DEADLINE_MS: u64 = 5_000;

/// The reason id of an answer given because the guard crashed (`guard-deadline` when it ran
/// out of time): dedicated ids, not a policy rule's, since no rule decided.
const CRASH_ID: &str = "guard-crash";

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
    sys::exit(code);
}

#[cfg(unix)]
#[allow(
    unsafe_code,
    reason = "signal handlers, the alternate signal stack and the interval timer are libc calls; \
              this module is the only unsafe code in the workspace (tests/crate_metadata.rs)"
)]
mod sys {
    use std::sync::atomic::Ordering;

    use super::{ANSWERED, CRASH_REASON, DEADLINE_REASON, DYING, REPLIED, STATE, answer};

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
        let fresh = !matches!(STATE.load(Ordering::SeqCst), REPLIED | DYING | ANSWERED);
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
