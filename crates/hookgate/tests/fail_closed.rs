//! A guard that dies still says no: `hookgate hook <agent>` killed by a fatal signal, run out of
//! stack or memory, or past its deadline answers the fail-closed deny (exit 2, the reason on
//! stderr) — through the real binary, with real signals (`kill`) and real resource limits
//! (`ulimit` in a `sh` that then `exec`s the binary), no test-only switch in the binary.
#![cfg(target_os = "linux")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{Sandbox, bash_payload, output_with_stdin, text};

const AGENTS: [&str; 5] = ["claude", "codex", "gemini", "copilot", "cursor"];

/// `read(2)`'s system call number, as `/proc/PID/syscall` shows it.
#[cfg(target_arch = "x86_64")]
const SYS_READ: &str = "0";
#[cfg(target_arch = "aarch64")]
const SYS_READ: &str = "63";

/// Starts `hookgate hook AGENT` with its stdin a pipe held open, and returns once it blocks
/// reading the payload from fd 0 — after it armed its fail-safe, which comes first.
#[allow(
    clippy::zombie_processes,
    reason = "the child is returned, and every caller waits for it"
)]
fn blocked_hook(env: &Sandbox, agent: &str, vars: &[(&str, &str)]) -> Child {
    let mut cmd = env.command(&["hook", agent]);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let path = format!("/proc/{}/syscall", child.id());
    let started = Instant::now();
    loop {
        let now = std::fs::read_to_string(&path).unwrap_or_default();
        let mut words = now.split_whitespace();
        if words.next() == Some(SYS_READ) && words.next() == Some("0x0") {
            return child;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hookgate hook {agent} never blocked reading stdin ({path}: {now:?})");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The fail-closed answer: nothing on stdout, exit 2, the reason with its id on stderr.
fn assert_fail_closed(out: &Output, id: &str, what: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {out:?}");
    assert!(
        out.stdout.is_empty(),
        "{what}: stdout {:?}",
        text(&out.stdout)
    );
    assert!(
        stderr.starts_with(&format!("hookgate: {id}: "))
            && stderr.contains("failing closed (deny)"),
        "{what}: stderr {stderr:?}"
    );
}

#[test]
fn a_crashed_guard_answers_deny_for_every_agent() {
    let env = Sandbox::new();
    for agent in AGENTS {
        for (signal, named) in [
            ("SEGV", "SIGSEGV"),
            ("BUS", "SIGBUS"),
            ("ILL", "SIGILL"),
            ("FPE", "SIGFPE"),
            ("ABRT", "SIGABRT"),
        ] {
            let child = blocked_hook(&env, agent, &[]);
            let killed = Command::new("kill")
                .args([format!("-{signal}"), child.id().to_string()])
                .status()
                .unwrap();
            assert!(killed.success(), "kill -{signal}");
            let out = child.wait_with_output().unwrap();
            let what = format!("hook {agent}, {named}");
            assert_fail_closed(&out, "guard-crash", &what);
            assert!(text(&out.stderr).contains(named), "{what}: {out:?}");
        }
    }
}

#[test]
fn a_guard_past_its_deadline_answers_deny_for_every_agent() {
    let env = Sandbox::new();
    for agent in AGENTS {
        // The payload never comes: only the deadline can end the call.
        let mut child = blocked_hook(&env, agent, &[("HOOKGATE_DEADLINE_MS", "300")]);
        let held_open = child.stdin.take();
        let out = child.wait_with_output().unwrap();
        drop(held_open);
        assert_fail_closed(&out, "guard-deadline", &format!("hook {agent}"));
    }
}

#[test]
fn an_unreadable_deadline_setting_keeps_a_deadline_and_the_normal_answer() {
    let env = Sandbox::new();
    for value in ["", "0", "soon", "-5"] {
        let mut cmd = env.command(&["hook", "claude"]);
        cmd.env("HOOKGATE_DEADLINE_MS", value);
        let payload = bash_payload("s", &env.work(), "git push --force origin main");
        let out = output_with_stdin(&mut cmd, &serde_json::to_vec(&payload).unwrap());
        assert_eq!(out.status.code(), Some(0), "{value:?}: {out:?}");
        assert!(text(&out.stdout).contains("\"deny\""), "{value:?}: {out:?}");
    }
}

/// Runs `hookgate ARGS` under `sh -c 'ulimit LIMIT; exec hookgate ARGS'` with `stdin`.
fn limited(env: &Sandbox, limit: &str, args: &[&str], stdin: &[u8]) -> Output {
    let cmd = env.command(&[]);
    let program = cmd.get_program().to_owned();
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(format!("ulimit {limit} || exit 99; exec \"$0\" \"$@\""))
        .arg(program)
        .args(args)
        .current_dir(env.work());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    let out = output_with_stdin(&mut sh, stdin);
    assert_ne!(out.status.code(), Some(99), "ulimit {limit} refused");
    out
}

#[test]
fn a_guard_that_overflows_its_stack_answers_deny() {
    // A command nested 20 command substitutions deep needs more than 64 KiB of stack to judge
    // in a debug build (the one `cargo test` runs): the main thread overflows, and the answer
    // comes from the SIGSEGV handler on its alternate stack. Before the fail-safe this was
    // std's "has overflowed its stack" abort: exit 134, which lets the call run.
    let env = Sandbox::new();
    let command = format!("echo {}x{}", "$(echo ".repeat(20), ")".repeat(20));
    let payload = serde_json::to_vec(&bash_payload("s", &env.work(), &command)).unwrap();
    let unlimited = env.hook("claude", &payload, &[]);
    assert_eq!(
        unlimited.status.code(),
        Some(0),
        "judged normally with the usual stack: {unlimited:?}"
    );
    let out = limited(&env, "-s 64", &["hook", "claude"], &payload);
    assert_fail_closed(&out, "guard-crash", "64 KiB stack");
    assert!(text(&out.stderr).contains("SIGSEGV"), "{out:?}");
}

#[test]
fn a_guard_out_of_memory_answers_deny() {
    // Under an address-space limit a little above what the process maps before reading, a
    // 12 MB payload cannot be read and judged. Where std reports the failed allocation as an
    // error (`read_to_end` reserves fallibly) the fail mode answers — deny here; where the
    // allocator gives up, Rust aborts and the SIGABRT handler answers. Both must block, and
    // across the limits below the abort path must be taken at least once.
    let env = Sandbox::new();
    let mut child = blocked_hook(&env, "claude", &[]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let mapped_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmPeak:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    drop(child.stdin.take());
    let _ = child.wait_with_output();
    let command = format!("echo {}", "a".repeat(12_000_000));
    let payload = serde_json::to_vec(&bash_payload("s", &env.work(), &command)).unwrap();
    let mut aborted = 0;
    for extra_mib in [8, 16, 24, 32, 48] {
        let limit = format!("-v {}", mapped_kib + extra_mib * 1024);
        let out = limited(
            &env,
            &limit,
            &["hook", "claude", "--fail-mode", "deny"],
            &payload,
        );
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        if out.status.code() == Some(2) {
            assert!(
                stderr.contains("hookgate: guard-crash: ") && stderr.contains("SIGABRT"),
                "{limit}: {stderr}"
            );
            aborted += 1;
        } else {
            assert_eq!(out.status.code(), Some(0), "{limit}: {out:?}");
            assert!(
                stdout.contains("\"permissionDecision\":\"deny\""),
                "{limit}: neither blocked nor denied: {stdout} {stderr}"
            );
        }
    }
    assert!(aborted > 0, "no limit made the allocator give up");
}

#[test]
fn only_the_fail_safe_module_may_use_unsafe() {
    // The workspace lint on unsafe code is `deny`, not `forbid`, so that one module, the
    // hook's signal handlers, can allow it; nothing else may.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let needle = concat!("unsafe", "_code");
    let mut found = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("target") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|t| t.contains(needle))
            {
                found.push(path.strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
    assert_eq!(
        found,
        [std::path::PathBuf::from("hookgate/src/failsafe.rs")],
        "files that mention {needle}"
    );
}

#[test]
fn the_crash_answer_survives_a_closed_stdout() {
    // The agent may have stopped reading stdout; the answer is on stderr and the status, so
    // it still arrives (and a broken pipe does not turn it into another ending).
    let env = Sandbox::new();
    let mut child = blocked_hook(&env, "codex", &[]);
    drop(child.stdout.take());
    Command::new("kill")
        .args(["-SEGV", &child.id().to_string()])
        .status()
        .unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
    assert!(stderr.starts_with("hookgate: guard-crash: "), "{stderr}");
}

#[test]
fn init_warns_when_the_agent_would_time_out_before_the_deadline() {
    let env = Sandbox::new();
    let warning = "is not above hookgate's deadline";
    let short = env.ok(&["init", "claude", "--dry-run", "--timeout", "5"]);
    assert!(text(&short.stderr).contains(warning), "{short:?}");
    let default = env.ok(&["init", "claude", "--dry-run"]);
    assert!(!text(&default.stderr).contains(warning), "{default:?}");
    let mut lowered = env.command(&["init", "claude", "--dry-run", "--timeout", "5"]);
    lowered.env("HOOKGATE_DEADLINE_MS", "4000");
    let lowered = output_with_stdin(&mut lowered, b"");
    assert!(!text(&lowered.stderr).contains(warning), "{lowered:?}");
}

/// The records `hookgate log --json` holds whose rules name `id`.
fn recorded(env: &Sandbox, id: &str) -> Vec<serde_json::Value> {
    env.log()
        .into_iter()
        .filter(|r| {
            r["rules"]
                .as_array()
                .is_some_and(|rules| rules.iter().any(|x| x == id))
        })
        .collect()
}

#[test]
fn a_crash_is_recorded_with_the_call_it_was_judging() {
    // The stack-overflow crash of the test above: the answer is the same, and the audit trail
    // now shows which call crashed the guard, with the signal.
    let env = Sandbox::new();
    let command = format!("echo {}x{}", "$(echo ".repeat(20), ")".repeat(20));
    let payload = serde_json::to_vec(&bash_payload("crash-s", &env.work(), &command)).unwrap();
    let out = limited(&env, "-s 64", &["hook", "claude"], &payload);
    assert_fail_closed(&out, "guard-crash", "64 KiB stack");
    let records = recorded(&env, "guard-crash");
    assert_eq!(records.len(), 1, "{records:#?}");
    let r = &records[0];
    assert_eq!(r["session"], "crash-s", "{r:#}");
    assert_eq!(r["tool"], "Bash", "{r:#}");
    assert_eq!(r["decision"], "error", "{r:#}");
    assert!(
        r["targets"][0].as_str().unwrap().starts_with("echo $(echo"),
        "{r:#}"
    );
    assert!(r["error"].as_str().unwrap().contains("SIGSEGV"), "{r:#}");
    assert_eq!(r["trace"]["exit_code"], 2, "{r:#}");
}

#[test]
fn a_deadline_or_a_signal_is_recorded_for_every_agent() {
    let env = Sandbox::new();
    for agent in AGENTS {
        let mut child = blocked_hook(&env, agent, &[("HOOKGATE_DEADLINE_MS", "300")]);
        let held_open = child.stdin.take();
        let out = child.wait_with_output().unwrap();
        drop(held_open);
        assert_fail_closed(&out, "guard-deadline", &format!("hook {agent}"));
        let child = blocked_hook(&env, agent, &[]);
        let killed = Command::new("kill")
            .args(["-BUS", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        assert_fail_closed(&child.wait_with_output().unwrap(), "guard-crash", agent);
    }
    // No payload was read: the records name the agent and why, and no call.
    let deadlines = recorded(&env, "guard-deadline");
    let crashes = recorded(&env, "guard-crash");
    for (records, why) in [(&deadlines, "time budget"), (&crashes, "SIGBUS")] {
        let mut agents: Vec<&str> = records
            .iter()
            .map(|r| r["agent"].as_str().unwrap())
            .collect();
        agents.sort_unstable();
        assert_eq!(
            agents,
            ["claude", "codex", "copilot", "cursor", "gemini"],
            "{records:#?}"
        );
        assert!(
            records
                .iter()
                .all(|r| r["error"].as_str().unwrap().contains(why) && r["tool"].is_null()),
            "{records:#?}"
        );
    }
}

#[test]
fn a_crash_reaches_the_webhook_sink() {
    // A real crash (SIGSEGV) of a hook configured with a webhook: the recorder ships the
    // record like the normal path does. (Not under `ulimit -s`: the limit would follow the
    // shipper too.)
    let env = Sandbox::new();
    let (url, posted) = common::http_sink();
    let child = blocked_hook(&env, "claude", &[("HOOKGATE_WEBHOOK_URL", url.as_str())]);
    let killed = Command::new("kill")
        .args(["-SEGV", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_fail_closed(&child.wait_with_output().unwrap(), "guard-crash", "webhook");
    let head = posted
        .recv_timeout(Duration::from_secs(30))
        .expect("the crash record was not posted");
    assert!(head.starts_with("POST /x"), "{head}");
}

#[test]
fn an_unwritable_audit_store_keeps_the_crash_answer() {
    // The recorder fails to store (HOOKGATE_HOME is a file): the agent's answer is unchanged.
    let env = Sandbox::new();
    let file = env.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let mut child = blocked_hook(
        &env,
        "claude",
        &[
            ("HOOKGATE_DEADLINE_MS", "300"),
            ("HOOKGATE_HOME", file.to_str().unwrap()),
        ],
    );
    let held_open = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    drop(held_open);
    assert_fail_closed(&out, "guard-deadline", "unwritable store");
}

#[test]
fn a_command_hook_still_running_at_the_deadline_is_killed() {
    // The user's pre-tool hook writes its pid, forks a grandchild that writes its own, and
    // hangs. The deadline answers deny; neither process may outlive the call (unwinding, which
    // would have killed their group, does not happen in a signal handler).
    let env = Sandbox::new();
    let pids = env.path().join("pids");
    std::fs::write(
        env.config().join("hooks.yaml"),
        format!(
            "hooks:\n  pre_tool_use:\n    - type: command\n      command: 'echo $$ >> {p}; (sleep 60 & echo $! >> {p}; wait) & wait'\n      timeout: 60\n",
            p = pids.display()
        ),
    )
    .unwrap();
    let payload = serde_json::to_vec(&bash_payload("s", &env.work(), "ls")).unwrap();
    let mut cmd = env.command(&["hook", "claude"]);
    cmd.env("HOOKGATE_DEADLINE_MS", "1500");
    let out = output_with_stdin(&mut cmd, &payload);
    assert_fail_closed(&out, "guard-deadline", "hanging command hook");
    let written = std::fs::read_to_string(&pids).expect("the command hook never started");
    let alive = |pid: &str| {
        Command::new("kill")
            .args(["-0", pid])
            .status()
            .unwrap()
            .success()
    };
    let listed: Vec<&str> = written.split_whitespace().collect();
    assert_eq!(listed.len(), 2, "{written:?}");
    let started = Instant::now();
    while listed.iter().any(|p| alive(p)) && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in listed {
        assert!(
            !alive(pid),
            "process {pid} of the command hook outlived the call"
        );
    }
}
