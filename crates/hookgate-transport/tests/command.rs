//! The command runner against real processes: every rule in the crate docs has a test here.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookgate_transport::{
    CommandSpec, ExitKind, Limits, Program, Stream, TransportError, run_command,
};

fn sh(script: &str) -> CommandSpec {
    CommandSpec::shell(script, "/bin/sh")
}

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

/// Read a pid the script wrote with `echo $! > file`, waiting briefly for the write to land.
fn read_pid(path: &Path) -> u32 {
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < until, "no pid in {}", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Gone, or a zombie (dead, only waiting for a reaper that may never come in a container).
fn gone_or_zombie(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next())
            .is_some_and(|state| state == 'Z' || state == 'X'),
    }
}

/// Signals are delivered asynchronously; give the kernel a moment before calling it a leak.
fn assert_dead_soon(pid: u32) {
    let until = Instant::now() + Duration::from_secs(1);
    while !gone_or_zombie(pid) {
        assert!(Instant::now() < until, "process {pid} is still alive");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn pid_file(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("grandchild.pid")
}

#[tokio::test]
async fn timeout_kills_grandchildren_holding_pipes() {
    let dir = tempfile::tempdir().unwrap();
    let pidf = pid_file(&dir);
    let script = format!("sleep 30 & echo $! > '{}'; wait", pidf.display());
    let started = Instant::now();
    let err = run_command(&sh(&script), b"", &limits(1000))
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        matches!(err, TransportError::Timeout { after } if after == Duration::from_secs(1)),
        "{err}"
    );
    assert_eq!(err.to_string(), "timed out after 1s");
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
    assert_dead_soon(read_pid(&pidf));
}

#[tokio::test]
async fn exit_with_backgrounded_grandchild_returns_after_drain_grace() {
    let dir = tempfile::tempdir().unwrap();
    let pidf = pid_file(&dir);
    let script = format!(
        "sleep 30 & echo $! > '{}'; echo done; exit 4",
        pidf.display()
    );
    let started = Instant::now();
    let out = run_command(&sh(&script), b"", &limits(10_000))
        .await
        .unwrap();
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_millis(1500), "{elapsed:?}");
    assert_eq!(out.exit, ExitKind::Code(4));
    assert_eq!(out.stdout, b"done\n");
    assert!(out.drain_timed_out);
    assert_dead_soon(read_pid(&pidf));
}

#[tokio::test]
async fn exit_with_detached_grandchild_is_not_killed() {
    // A descendant that let go of our pipes is not ours to kill, and does not delay the result.
    let dir = tempfile::tempdir().unwrap();
    let pidf = pid_file(&dir);
    let script = format!("sleep 30 >/dev/null 2>&1 & echo $! > '{}'", pidf.display());
    let started = Instant::now();
    let out = run_command(&sh(&script), b"", &limits(10_000))
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "waited for a detached grandchild sleeping 30 s: {:?}",
        started.elapsed()
    );
    assert!(!out.drain_timed_out);
    let pid = read_pid(&pidf);
    assert!(!gone_or_zombie(pid), "detached grandchild was killed");
    // Clean up after ourselves.
    let _ = std::process::Command::new("kill")
        .arg(pid.to_string())
        .status();
}

#[tokio::test]
async fn never_reading_child_with_large_stdin_times_out_on_schedule() {
    let input = vec![b'x'; 1024 * 1024];
    let started = Instant::now();
    let err = run_command(&CommandSpec::exec("sleep", ["30"]), &input, &limits(1000))
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(err, TransportError::Timeout { .. }), "{err}");
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(2500), "{elapsed:?}");
}

#[tokio::test]
async fn child_exiting_without_reading_large_stdin_is_not_an_error() {
    let input = vec![b'x'; 1024 * 1024];
    let out = run_command(&sh("exit 0"), &input, &limits(5000))
        .await
        .unwrap();
    assert_eq!(out.exit, ExitKind::Code(0));
}

#[tokio::test]
async fn stdin_is_written_fully_then_closed() {
    let input: Vec<u8> = (0u8..251).cycle().take(1024 * 1024).collect();
    let limits = Limits {
        max_output_bytes: 2 * 1024 * 1024,
        ..limits(10_000)
    };
    // `cat` only exits once it sees EOF, so this also proves stdin is closed.
    let out = run_command(
        &CommandSpec::exec("cat", Vec::<String>::new()),
        &input,
        &limits,
    )
    .await
    .unwrap();
    assert_eq!(out.exit, ExitKind::Code(0));
    assert_eq!(out.stdout.len(), input.len());
    assert!(out.stdout == input);
}

#[tokio::test]
async fn empty_stdin_is_closed_at_once() {
    let out = run_command(&sh("cat; echo end"), b"", &limits(5000))
        .await
        .unwrap();
    assert_eq!(out.stdout, b"end\n");
}

#[tokio::test]
async fn oversize_stdout_is_cut_at_cap_quickly() {
    let limits = Limits {
        max_output_bytes: 64 * 1024,
        ..limits(20_000)
    };
    let started = Instant::now();
    // 10 MiB that would take a while to read; `cat /dev/zero` would never end at all.
    let err = run_command(&sh("head -c 10485760 /dev/zero; sleep 30"), b"", &limits)
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        matches!(
            err,
            TransportError::OutputTooLarge {
                stream: Stream::Stdout,
                limit: 65536
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "stdout exceeded the output limit of 65536 bytes"
    );
}

#[tokio::test]
async fn endless_stdout_is_killed_at_cap() {
    let limits = Limits {
        max_output_bytes: 1024,
        ..limits(20_000)
    };
    let started = Instant::now();
    let err = run_command(&CommandSpec::exec("cat", ["/dev/zero"]), b"", &limits)
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        matches!(
            err,
            TransportError::OutputTooLarge {
                stream: Stream::Stdout,
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn oversize_stderr_is_reported_as_stderr() {
    let limits = Limits {
        max_output_bytes: 100,
        ..limits(10_000)
    };
    let err = run_command(&sh("head -c 101 /dev/zero >&2"), b"", &limits)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            TransportError::OutputTooLarge {
                stream: Stream::Stderr,
                limit: 100
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn output_of_exactly_the_cap_is_accepted() {
    let limits = Limits {
        max_output_bytes: 100,
        ..limits(10_000)
    };
    let out = run_command(
        &sh("head -c 100 /dev/zero; head -c 100 /dev/zero >&2"),
        b"",
        &limits,
    )
    .await
    .unwrap();
    assert_eq!(out.stdout.len(), 100);
    assert_eq!(out.stderr.len(), 100);
}

#[tokio::test]
async fn missing_binary_is_spawn_error() {
    let err = run_command(
        &CommandSpec::exec("./missing.sh", Vec::<String>::new()),
        b"{}",
        &limits(5000),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, TransportError::Spawn { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "failed to start `./missing.sh`: No such file or directory (os error 2)"
    );
}

#[tokio::test]
async fn missing_shell_is_spawn_error_naming_the_shell() {
    let err = run_command(
        &CommandSpec::shell("true", "/nonexistent/sh"),
        b"",
        &limits(5000),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("failed to start `/nonexistent/sh`: "),
        "{err}"
    );
}

#[tokio::test]
async fn missing_working_dir_is_named_in_the_error() {
    let spec = CommandSpec {
        working_dir: Some(PathBuf::from("/nonexistent/dir")),
        ..sh("true")
    };
    let err = run_command(&spec, b"", &limits(5000)).await.unwrap_err();
    assert!(matches!(err, TransportError::WorkingDir { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("working directory `/nonexistent/dir` is not usable"),
        "{err}"
    );
}

#[tokio::test]
async fn exit_codes_are_reported() {
    for code in [0, 1, 2, 127] {
        let out = run_command(&sh(&format!("exit {code}")), b"", &limits(5000))
            .await
            .unwrap();
        assert_eq!(out.exit, ExitKind::Code(code));
    }
    // A command missing *inside* the script is the shell's 127, not a spawn error.
    let out = run_command(&sh("definitely-not-a-command-xyz"), b"", &limits(5000))
        .await
        .unwrap();
    assert_eq!(out.exit, ExitKind::Code(127));
    assert!(!out.stderr.is_empty());
}

#[tokio::test]
async fn signals_are_reported() {
    let out = run_command(&sh("kill -9 $$"), b"", &limits(5000))
        .await
        .unwrap();
    assert_eq!(out.exit, ExitKind::Signal(9));
    let out = run_command(&sh("kill -TERM $$"), b"", &limits(5000))
        .await
        .unwrap();
    assert_eq!(out.exit, ExitKind::Signal(15));
}

#[tokio::test]
async fn stdout_and_stderr_are_captured_separately() {
    let out = run_command(&sh("echo out; echo err >&2; exit 2"), b"", &limits(5000))
        .await
        .unwrap();
    assert_eq!(out.exit, ExitKind::Code(2));
    assert_eq!(out.stdout, b"out\n");
    assert_eq!(out.stderr, b"err\n");
    assert!(!out.drain_timed_out);
    assert!(out.duration < Duration::from_secs(5));
}

#[tokio::test]
async fn env_is_added_over_the_inherited_env() {
    let spec = CommandSpec {
        env: vec![
            (OsString::from("HOOKGATE_T1"), OsString::from("first")),
            (OsString::from("HOOKGATE_T2"), OsString::from("a $b `c`")),
        ],
        ..sh(r#"printf '%s|%s|%s' "$HOOKGATE_T1" "$HOOKGATE_T2" "${PATH:+inherited}""#)
    };
    let out = run_command(&spec, b"", &limits(5000)).await.unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "first|a $b `c`|inherited"
    );
}

#[tokio::test]
async fn invalid_env_name_is_invalid_spec() {
    let spec = CommandSpec {
        env: vec![(OsString::from("A=B"), OsString::from("secret-value"))],
        ..sh("true")
    };
    let err = run_command(&spec, b"", &limits(5000)).await.unwrap_err();
    assert!(matches!(err, TransportError::InvalidSpec { .. }), "{err}");
    assert!(!err.to_string().contains("secret-value"));
}

#[tokio::test]
async fn working_dir_is_applied() {
    let dir = tempfile::tempdir().unwrap();
    let spec = CommandSpec {
        working_dir: Some(dir.path().to_path_buf()),
        ..CommandSpec::exec("pwd", ["-P"])
    };
    let out = run_command(&spec, b"", &limits(5000)).await.unwrap();
    let expected = dir.path().canonicalize().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim_end(),
        expected.to_str().unwrap()
    );
}

#[tokio::test]
async fn exec_form_passes_args_without_a_shell() {
    let spec = CommandSpec::exec("printf", ["%s|%s|%s", "$(id)", "a b", "*"]);
    let out = run_command(&spec, b"", &limits(5000)).await.unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "$(id)|a b|*");
}

#[tokio::test]
async fn nul_byte_and_empty_program_are_invalid_spec() {
    for spec in [
        CommandSpec::exec("", Vec::<String>::new()),
        CommandSpec::exec("printf", ["a\0b"]),
        sh("echo \0"),
        CommandSpec::shell("true", ""),
    ] {
        let err = run_command(&spec, b"", &limits(5000)).await.unwrap_err();
        assert!(
            matches!(err, TransportError::InvalidSpec { .. }),
            "{spec:?}: {err}"
        );
    }
}

#[tokio::test]
async fn term_ignoring_group_is_killed_after_grace() {
    let dir = tempfile::tempdir().unwrap();
    let pidf = pid_file(&dir);
    // The ignored disposition is inherited by the backgrounded `sleep`.
    let script = format!(
        "trap '' TERM; sleep 30 & echo $! > '{}'; wait",
        pidf.display()
    );
    let limits = Limits {
        timeout: Duration::from_millis(500),
        kill_grace: Duration::from_millis(300),
        ..Limits::default()
    };
    let started = Instant::now();
    let err = run_command(&sh(&script), b"", &limits).await.unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(err, TransportError::Timeout { .. }), "{err}");
    assert!(
        elapsed >= Duration::from_millis(800),
        "grace was skipped: {elapsed:?}"
    );
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    assert_dead_soon(read_pid(&pidf));
}

#[tokio::test]
async fn dropping_the_future_kills_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let pidf = pid_file(&dir);
    let script = format!("sleep 30 & echo $! > '{}'; wait", pidf.display());
    let spec = sh(&script);
    let limits = limits(60_000);
    let cancelled =
        tokio::time::timeout(Duration::from_millis(300), run_command(&spec, b"", &limits)).await;
    assert!(cancelled.is_err(), "the caller's timeout should have fired");
    assert_dead_soon(read_pid(&pidf));
}

#[tokio::test]
async fn zero_timeout_times_out_immediately() {
    let started = Instant::now();
    let err = run_command(&CommandSpec::exec("sleep", ["30"]), b"", &limits(0))
        .await
        .unwrap_err();
    assert!(matches!(err, TransportError::Timeout { .. }), "{err}");
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[tokio::test]
async fn program_enum_is_usable_directly() {
    let spec = CommandSpec {
        program: Program::Exec {
            program: "sh".to_owned(),
            args: vec!["-c".to_owned(), "echo $0".to_owned(), "zero".to_owned()],
        },
        env: Vec::new(),
        working_dir: None,
    };
    let out = run_command(&spec, b"", &limits(5000)).await.unwrap();
    assert_eq!(out.stdout, b"zero\n");
}
