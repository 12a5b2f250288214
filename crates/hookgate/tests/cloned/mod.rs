//! What the trust tests share: a sandbox with a cloned (untrusted) repository, and the
//! decision word of an answer.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::panic,
    reason = "shared test fixture: each test file uses a part of it"
)]

use std::path::PathBuf;
use std::process::Command;

use crate::common;

/// A sandbox whose `HOME` is its own too, with a cloned (untrusted) repository in `work/repo`.
pub struct Cloned {
    pub sandbox: common::Sandbox,
}

impl Cloned {
    pub fn new() -> Self {
        let sandbox = common::Sandbox::new();
        std::fs::create_dir_all(sandbox.work().join("repo/.hookgate/hooks.d")).unwrap();
        std::fs::create_dir_all(sandbox.work().join("repo/.claude")).unwrap();
        std::fs::create_dir_all(sandbox.path().join("userhome")).unwrap();
        Self { sandbox }
    }

    pub fn repo(&self) -> PathBuf {
        self.sandbox.work().join("repo")
    }

    /// Writes `.hookgate/NAME` in the repository.
    pub fn write(&self, name: &str, text: impl AsRef<[u8]>) {
        std::fs::write(self.repo().join(".hookgate").join(name), text).unwrap();
    }

    /// Writes NAME in the user config dir.
    pub fn write_user(&self, name: &str, text: &str) {
        std::fs::write(self.sandbox.config().join(name), text).unwrap();
    }

    /// `hookgate ARGS` started in the repository.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = self.sandbox.command(args);
        cmd.env("HOME", self.sandbox.path().join("userhome"))
            .current_dir(self.repo());
        cmd
    }

    /// Runs `hookgate ARGS` in the repository with `stdin`: exit status, stdout, stderr.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
        let out = common::output_with_stdin(&mut self.cmd(args), stdin);
        (
            out.status.code(),
            common::text(&out.stdout),
            common::text(&out.stderr),
        )
    }

    /// `hookgate ARGS --json` in the repository, with its exit status.
    pub fn json(&self, args: &[&str]) -> (Option<i32>, serde_json::Value) {
        let mut args = args.to_vec();
        args.push("--json");
        let (code, out, err) = self.run(&args, b"");
        let value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        (code, value)
    }

    pub fn hook(&self, agent: &str, payload: &serde_json::Value) -> (String, String) {
        let (code, stdout, stderr) =
            self.run(&["hook", agent], &serde_json::to_vec(payload).unwrap());
        assert_eq!(code, Some(0), "{stderr}");
        (answer_word(&stdout), stdout)
    }

    pub fn claude(&self, session: &str, mode: &str, command: &str) -> (String, String) {
        let mut payload = common::bash_payload(session, &self.repo(), command);
        payload["permission_mode"] = serde_json::json!(mode);
        self.hook("claude", &payload)
    }
}

/// The decision word of an answer (Claude's and Codex's shape), `none` for no opinion.
pub fn answer_word(stdout: &str) -> String {
    if stdout.trim().is_empty() {
        return "none".into();
    }
    let v: serde_json::Value = serde_json::from_str(stdout).unwrap();
    v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap_or("none")
        .to_owned()
}
