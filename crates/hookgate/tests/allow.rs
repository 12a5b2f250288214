//! A way through, on the user's terms (issue 10 A), through the binary: every deny names
//! hookgate, its ids and the exact `hookgate allow` command; allowances are scoped, expire,
//! are used up, are consulted by the one pipeline (`explain` agrees), never cover a locked
//! invariant, and cannot be written by an agent; invariant switches accept `ask`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

struct Env {
    root: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        for dir in ["config", "home"] {
            std::fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        for dir in ["work", "other"] {
            std::fs::create_dir_all(root.path().join(dir).join(".git")).unwrap();
        }
        Self { root }
    }

    fn dir(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hookgate"));
        c.args(args)
            .current_dir(self.dir("work"))
            .env("HOOKGATE_HOME", self.dir("home"))
            .env("HOOKGATE_CONFIG_DIR", self.dir("config"))
            .env("XDG_RUNTIME_DIR", self.dir("run"))
            .env_remove("HOOKGATE_STORE")
            .env_remove("HOOKGATE_FAIL_MODE")
            .env_remove("HOOKGATE_EVENT")
            .env_remove("HOOKGATE_WEBHOOK_URL");
        c
    }

    /// A Claude Code Bash call in `dir`; returns the decision and the reason.
    fn bash_in(&self, dir: &str, command: &str) -> (String, String) {
        let payload = json!({
            "session_id": "allow-session", "transcript_path": "/t",
            "cwd": self.dir(dir), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "toolu_1"
        });
        let mut child = self
            .command(&["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(&serde_json::to_vec(&payload).unwrap())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
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

    fn bash(&self, command: &str) -> (String, String) {
        self.bash_in("work", command)
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "hookgate {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs a command line the way a person pastes it (through `sh`, in the work directory),
    /// with `hookgate` being the binary under test.
    fn paste(&self, line: &str) -> Output {
        let bin = env!("CARGO_BIN_EXE_hookgate");
        let line = line.replacen("hookgate", &format!("'{bin}'"), 1);
        let mut c = self.command(&[]);
        let envs: Vec<(std::ffi::OsString, std::ffi::OsString)> = c
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect();
        c = Command::new("sh");
        c.args(["-c", &line])
            .current_dir(self.dir("work"))
            .envs(envs)
            .env_remove("HOOKGATE_STORE");
        c.output().unwrap()
    }
}

/// The first backquoted `hookgate allow …` command in a reason.
fn allow_command(reason: &str, kind: &str) -> String {
    let start = reason
        .find(&format!("`hookgate allow {kind}"))
        .unwrap_or_else(|| panic!("no `hookgate allow {kind}` in: {reason}"));
    let rest = &reason[start + 1..];
    // The quoted command may contain backquotes only inside its single quotes; these
    // tests' commands have none.
    rest[..rest.find('`').unwrap()].to_owned()
}

const FORCE_PUSH: &str = "git push --force origin main";

#[test]
fn a_deny_names_hookgate_its_ids_and_the_exact_allow_command() {
    let env = Env::new();
    let (decision, reason) = env.bash(FORCE_PUSH);
    assert_eq!(decision, "deny");
    assert!(reason.starts_with("hookgate: "), "{reason}");
    assert!(reason.contains("no-force-push"), "{reason}");
    assert_eq!(
        allow_command(&reason, "--once"),
        "hookgate allow --once 'git push --force origin main'"
    );
    std::fs::create_dir_all(env.dir("work").join(".claude")).unwrap();
    let locked = env.bash("rm -rf .claude").1;
    assert!(
        locked.contains("locked: cannot be allowed"),
        "a locked invariant offers no way through: {locked}"
    );
}

#[test]
fn allow_once_lets_the_next_identical_call_through_and_only_that_one() {
    let env = Env::new();
    let (_, reason) = env.bash(FORCE_PUSH);
    let line = allow_command(&reason, "--once");
    let out = env.paste(&line);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("code "), "a short code is issued: {said}");
    // A different command is not the identical call.
    assert_eq!(
        env.bash("git push --force origin main ").0,
        "none",
        "trimmed text is identical"
    );
    assert_eq!(
        env.bash(FORCE_PUSH).0,
        "deny",
        "used up by the call it let through"
    );
    env.paste(&line);
    assert_eq!(
        env.bash("git push --force origin main && rm -rf /").0,
        "deny"
    );
    assert_eq!(env.bash(FORCE_PUSH).0, "none");
    // The log shows the block and the call that ran, marked with the allowance.
    let log = env.ok(&["log"]);
    assert!(log.contains("(allowed by "), "{log}");
    assert!(log.contains("deny") && log.contains(FORCE_PUSH), "{log}");
    assert!(env.ok(&["allow", "--list"]).contains("no allowances"));
}

#[test]
fn a_rule_allowance_applies_in_its_project_until_it_is_revoked() {
    let env = Env::new();
    let push = "git push --force origin feature";
    assert_eq!(env.bash(push).0, "deny");
    let out = env.ok(&[
        "allow",
        "destructive-shell",
        "no-force-push",
        "--for",
        "1h",
        "--json",
    ]);
    let written: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(written.len(), 2);
    assert_eq!(
        written[0]["target"],
        json!({"kind": "rule", "value": "destructive-shell"})
    );
    assert_eq!(env.bash(push).0, "none");
    assert_eq!(env.bash(push).0, "none", "not used up: it lasts the hour");
    assert_eq!(
        env.bash_in("other", push).0,
        "deny",
        "another project is not covered"
    );
    // explain runs the same pipeline: it agrees.
    assert!(env.run(&["explain", push]).status.success());
    let list: Vec<Value> = serde_json::from_str(&env.ok(&["allow", "--list", "--json"])).unwrap();
    assert_eq!(list.len(), 2);
    for a in &list {
        env.ok(&["allow", "--revoke", a["id"].as_str().unwrap()]);
    }
    assert_eq!(env.bash(push).0, "deny");
    assert_eq!(
        env.run(&["allow", "--revoke", "nope"]).status.code(),
        Some(1)
    );
}

#[test]
fn a_user_allowance_applies_everywhere_and_always_lasts() {
    let env = Env::new();
    let push = "git push --force origin feature";
    env.ok(&["allow", push, "--always", "--user"]);
    assert_eq!(env.bash(push).0, "none");
    assert_eq!(env.bash_in("other", push).0, "none");
    assert_eq!(env.bash(push).0, "none");
}

#[test]
fn locked_invariants_cannot_be_allowed_not_even_by_editing_the_file() {
    let env = Env::new();
    let out = env.run(&["allow", "no-governance-self-modification", "--always"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("locked"));
    let cmd = "rm -rf .claude";
    std::fs::create_dir_all(env.dir("work").join(".claude")).unwrap();
    assert_eq!(env.bash(cmd).0, "deny");
    std::fs::write(
        env.dir("config").join("allowances.json"),
        serde_json::to_vec(&json!({"allowances": [
            {"id": "x1", "target": {"kind": "rule", "value": "no-governance-self-modification"},
             "scope": {"kind": "user"}, "life": {"kind": "always"}, "created_ms": 0},
            {"id": "x2", "target": {"kind": "command", "value": cmd},
             "scope": {"kind": "user"}, "life": {"kind": "always"}, "created_ms": 0}
        ]}))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(env.bash(cmd).0, "deny");
}

#[test]
fn a_damaged_allowances_file_grants_nothing() {
    let env = Env::new();
    std::fs::write(
        env.dir("config").join("allowances.json"),
        br#"{"allowances": [{"id": "x", "target": {"kind": "command", "value": "git push --force origin main"}, "scope": {"kind": "user"}, "life": {"kind": "always"}, "created_ms": 0, "extra": 1}]}"#,
    )
    .unwrap();
    assert_eq!(env.bash(FORCE_PUSH).0, "deny");
    let last: Value = serde_json::from_str(&env.ok(&["inspect", "--last", "--json"])).unwrap();
    assert!(
        last["trace"]["allowances_error"]
            .as_str()
            .unwrap()
            .contains("allowances.json"),
        "{last:#}"
    );
}

#[test]
fn an_agent_running_hookgate_allow_or_prune_is_denied() {
    let env = Env::new();
    for cmd in [
        "hookgate allow --once 'git push --force origin main'",
        "hookgate allow no-force-push --always --user",
        "hookgate prune --older-than 1d",
    ] {
        let (decision, reason) = env.bash(cmd);
        assert_eq!(decision, "deny", "{cmd}");
        assert!(
            reason.contains("no-governance-self-modification"),
            "{reason}"
        );
    }
    // Reading and tightening are not governance changes.
    assert_eq!(env.bash("hookgate allow --list").0, "none");
    assert_eq!(env.bash("hookgate allow --revoke ab12cd34").0, "none");
}

#[test]
fn an_ask_switch_softens_an_invariant_deny_to_an_ask() {
    let env = Env::new();
    assert_eq!(env.bash("git reset --hard").0, "deny");
    std::fs::write(
        env.dir("config").join("policy.yaml"),
        "invariants: {destructive-shell: ask}\n",
    )
    .unwrap();
    let (decision, reason) = env.bash("git reset --hard");
    assert_eq!(decision, "ask", "{reason}");
    assert!(
        reason.contains("hookgate allow"),
        "an ask names the way through too: {reason}"
    );
    // A locked invariant ignores the switch.
    std::fs::write(
        env.dir("config").join("policy.yaml"),
        "invariants: {no-governance-self-modification: ask}\n",
    )
    .unwrap();
    std::fs::create_dir_all(env.dir("work").join(".claude")).unwrap();
    assert_eq!(env.bash("rm -rf .claude").0, "deny");
}
