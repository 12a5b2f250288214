//! What the report and OpenTelemetry tests share: an isolated hookgate environment (its own
//! home, config and temp dirs, no inherited HOOKGATE_* or OTEL_* settings) and the rule for a
//! missing test tool.
#![allow(dead_code, reason = "each test file uses a part")]

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A prerequisite is missing: skip with a message, or fail under `CI` (a skipped test is not a
/// passed one).
pub fn missing(test: &str, why: &str) {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    assert!(
        !ci,
        "the {test} test cannot run under CI: {why} (run .ci/setup-test-tools)"
    );
    eprintln!("skipping the {test} test: {why} (run .ci/setup-test-tools)");
}

pub struct Env {
    pub root: tempfile::TempDir,
}

impl Env {
    pub fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        for dir in ["work", "config"] {
            std::fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        Self { root }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// The binary with `args`, in this environment only.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hookgate"));
        c.args(args)
            .current_dir(self.path("work"))
            .env("HOOKGATE_HOME", self.path("home"))
            .env("HOOKGATE_CONFIG_DIR", self.path("config"))
            .env("XDG_RUNTIME_DIR", self.path("run"))
            .env("TMPDIR", self.path("tmp"));
        for (name, _) in std::env::vars() {
            if name.starts_with("OTEL_") || name.starts_with("HOOKGATE_") {
                c.env_remove(name);
            }
        }
        c
    }

    /// Runs `command` with `stdin` written to it.
    pub fn with_stdin(mut command: Command, stdin: &[u8]) -> Output {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        child.wait_with_output().unwrap()
    }

    /// A Claude-shaped PreToolUse payload for `command` (Codex sends the same shape).
    pub fn pre_tool_use(&self, session: &str, command: &str) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "session_id": session, "transcript_path": "/t", "cwd": self.path("work"),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "toolu_1"
        }))
        .unwrap()
    }

    /// `hookgate <args>`, which must succeed.
    pub fn run(&self, args: &[&str]) -> Output {
        let out = self.command(args).output().unwrap();
        assert!(
            out.status.success(),
            "hookgate {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// `hookgate <args>`'s JSON output.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        serde_json::from_slice(&self.run(args).stdout).unwrap()
    }
}
