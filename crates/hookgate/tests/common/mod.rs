//! The one harness for running the built `hookgate` binary in tests: an isolated sandbox (its
//! own `HOOKGATE_HOME`, user config dir, working directory and temp dirs) and nothing of the
//! outer environment's `HOOKGATE_*` settings, so a developer's or CI's own variables can never
//! change what a test sees. Every test file under `tests/` runs the binary through this module.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "shared test harness: each test file uses a part of it"
)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The built binary with no `HOOKGATE_*` variable inherited (fail modes, store, event hint,
/// webhook, state dir …): each test sets what it means to.
pub fn hookgate() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hookgate"));
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("HOOKGATE_") {
            cmd.env_remove(name);
        }
    }
    cmd
}

/// [`hookgate`] with its data in `home` and its user config in `config`.
pub fn hookgate_in(home: &Path, config: &Path) -> Command {
    let mut cmd = hookgate();
    cmd.env("HOOKGATE_HOME", home)
        .env("HOOKGATE_CONFIG_DIR", config);
    cmd
}

/// Runs `cmd` with `stdin` as its standard input, capturing the output. A child that exits
/// without reading its input is not an error here (the exit status tells).
pub fn output_with_stdin(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Lossy text of an output stream.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Claude Code's PreToolUse payload for a Bash command.
pub fn bash_payload(session: &str, cwd: &Path, command: &str) -> Value {
    serde_json::json!({
        "session_id": session,
        "transcript_path": "/tmp/t.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "test"},
        "tool_use_id": "toolu_1"
    })
}

/// A temporary directory laid out as hookgate expects: `work/` (the working directory),
/// `home/` (`HOOKGATE_HOME`: audit store, session state), `config/` (the user config dir),
/// and private `tmp/` and `run/` so fallback locations stay inside the test.
#[derive(Debug)]
pub struct Sandbox {
    pub root: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        for dir in ["work", "config", "tmp"] {
            std::fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        Self { root }
    }

    pub fn path(&self) -> &Path {
        self.root.path()
    }

    pub fn work(&self) -> PathBuf {
        self.path().join("work")
    }

    pub fn home(&self) -> PathBuf {
        self.path().join("home")
    }

    pub fn config(&self) -> PathBuf {
        self.path().join("config")
    }

    /// `hookgate ARGS` in the sandbox, started in `work/`.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = hookgate_in(&self.home(), &self.config());
        cmd.args(args)
            .current_dir(self.work())
            .env("XDG_RUNTIME_DIR", self.path().join("run"))
            .env("TMPDIR", self.path().join("tmp"));
        cmd
    }

    /// Runs `hookgate ARGS` with `stdin`.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        output_with_stdin(&mut self.command(args), stdin)
    }

    /// Runs `hookgate ARGS` with `stdin` from `cwd`.
    pub fn run_in(&self, args: &[&str], stdin: &[u8], cwd: &Path) -> Output {
        output_with_stdin(self.command(args).current_dir(cwd), stdin)
    }

    /// `hookgate hook AGENT EXTRA…` on `payload`.
    pub fn hook(&self, agent: &str, payload: &[u8], extra: &[&str]) -> Output {
        let mut args = vec!["hook", agent];
        args.extend_from_slice(extra);
        self.run(&args, payload)
    }

    /// Runs `hookgate ARGS`, which must succeed.
    pub fn ok(&self, args: &[&str]) -> Output {
        let out = self.run(args, b"");
        assert!(
            out.status.success(),
            "hookgate {args:?}: {}",
            text(&out.stderr)
        );
        out
    }

    /// `hookgate ARGS` (which must succeed) read as JSON.
    pub fn json(&self, args: &[&str]) -> Value {
        serde_json::from_slice(&self.ok(args).stdout).unwrap()
    }

    /// Every record, newest first (`hookgate log --json`).
    pub fn log(&self) -> Vec<Value> {
        serde_json::from_value(self.json(&["log", "--json", "--all", "--limit", "1000"])).unwrap()
    }

    /// One Claude Code `PreToolUse` call of session `session` through `hookgate hook claude`
    /// (the project is the sandbox's working directory, `HOME` its `userhome`), as an agent
    /// makes it; the decision the audit trail recorded for it (`none` when the record has
    /// none). A test of what a session's earlier calls change (a file written, then run)
    /// makes its calls through this, one after another.
    pub fn session_call(&self, session: &str, tool: &str, input: &Value) -> String {
        let payload = serde_json::json!({
            "session_id": session, "transcript_path": "/tmp/t.jsonl",
            "cwd": self.work(), "hook_event_name": "PreToolUse",
            "permission_mode": "default", "tool_name": tool,
            "tool_input": input, "tool_use_id": "toolu_1",
        });
        let mut cmd = self.command(&["hook", "claude"]);
        cmd.env("HOME", self.path().join("userhome"));
        let out = output_with_stdin(&mut cmd, &serde_json::to_vec(&payload).unwrap());
        assert!(
            matches!(out.status.code(), Some(0 | 2)),
            "hook {tool}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let log = self.log();
        log[0]["decision"].as_str().unwrap_or("none").to_owned()
    }
}

/// An HTTP server on 127.0.0.1 that answers every request `200 OK` and sends the request's
/// head (request line and headers) on the returned channel: for checking whether a hook
/// posted anything (`try_recv` is empty when nothing arrived).
pub fn http_sink() -> (String, std::sync::mpsc::Receiver<String>) {
    use std::io::{BufRead as _, BufReader};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/x", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut head = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0u8; length];
            let _ = std::io::Read::read_exact(&mut reader, &mut body);
            // Sent before answering: once the client has its answer, the head is here.
            if tx.send(head).is_err() {
                return;
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    (url, rx)
}

/// Runs `git ARGS` in `dir` with a fixed identity and default branch (and no inherited
/// `GIT_DIR`/`GIT_INDEX_FILE` pointing it elsewhere), which must succeed. Git is required.
pub fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .status();
    assert!(
        status.expect("git is required for this test").success(),
        "git {args:?}"
    );
}

/// The hook's answer (`none`, `ask`, `deny`) and its reason, for a Claude call `payload` run
/// from `cwd` with `HOME` at `home`.
pub fn hook_answer(
    sandbox: &Sandbox,
    cwd: &Path,
    home: &Path,
    payload: &Value,
) -> (String, String) {
    let mut cmd = sandbox.command(&["hook", "claude"]);
    cmd.current_dir(cwd).env("HOME", home);
    let out = output_with_stdin(&mut cmd, &serde_json::to_vec(payload).unwrap());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    if out.stdout.is_empty() {
        return ("none".into(), String::new());
    }
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let h = &v["hookSpecificOutput"];
    (
        h["permissionDecision"]
            .as_str()
            .unwrap_or("none")
            .to_owned(),
        h["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

/// Checks a table of (command, expected answer, text the reason must contain) with `answer`
/// (given the line's index, for a fresh session each), reporting every wrong line at once.
#[track_caller]
pub fn check_answers(
    table: &[(&str, &str, &str)],
    answer: impl Fn(usize, &str) -> (String, String),
) {
    let mut wrong = Vec::new();
    for (n, (command, want, why)) in table.iter().enumerate() {
        let (got, reason) = answer(n, command);
        if got != *want || !reason.contains(why) {
            wrong.push(format!(
                "{command:?}: want {want} ({why:?}), got {got}: {reason}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
