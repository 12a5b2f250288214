//! `hookgate snapshot` and the `snapshot` built-in end to end: the built binary, a real git
//! work tree, a scripted model driving `hookgate run`, and separate processes for every step
//! (the run that records, the commands that list and undo).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

/// git is a prerequisite: under CI its absence fails the test; elsewhere the test is skipped.
fn have_git() -> bool {
    let ok = Command::new("git").arg("--version").output().is_ok();
    assert!(
        ok || std::env::var_os("CI").is_none_or(|v| v.is_empty()),
        "git is required under CI"
    );
    ok
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    /// A work tree with a commit (`a.txt`, `.gitignore` ignoring `*.log`).
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let env = Self { dir };
        std::fs::create_dir_all(env.work()).unwrap();
        std::fs::write(env.work().join("a.txt"), "original\n").unwrap();
        std::fs::write(env.work().join(".gitignore"), "*.log\n").unwrap();
        git(&env.work(), &["init", "-q", "-b", "main"]);
        git(&env.work(), &["add", "."]);
        git(&env.work(), &["commit", "-q", "-m", "init"]);
        env
    }

    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hookgate"));
        command
            .args(args)
            .current_dir(self.work())
            .env("HOOKGATE_HOME", self.path("home"))
            .env("HOOKGATE_CONFIG_DIR", self.path("config"))
            .env_remove("HOOKGATE_STORE")
            .env_remove("HOOKGATE_FAIL_MODE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
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

    fn json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.ok(args)).unwrap()
    }

    /// `hookgate run` with `snapshot: true` and a scripted model that makes `turns`.
    fn agent_run(&self, turns: &[Value], extra_env: &[(&str, &Path)]) -> Output {
        let mut script: Vec<Value> = turns.to_vec();
        script.push(json!({"text": "done"}));
        let script_path = self.path("script.json");
        std::fs::write(&script_path, serde_json::to_string(&script).unwrap()).unwrap();
        let config = self.path("run.yaml");
        std::fs::write(&config, "snapshot: true\n").unwrap();
        let model = format!("script:{}", script_path.display());
        let mut command = self.command(&[
            "run",
            "edit the files",
            "--model",
            &model,
            "--config",
            config.to_str().unwrap(),
            "--approval",
            "yolo",
            "--json",
        ]);
        for (key, value) in extra_env {
            command.env(key, value);
        }
        command.output().unwrap()
    }

    fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.work().join(rel)).ok()
    }
}

fn write_file(path: &str, content: &str) -> Value {
    json!({"tool": "write_file", "input": {"path": path, "content": content}})
}

fn digest(bytes: &[u8]) -> u64 {
    use std::hash::{Hash as _, Hasher as _};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// Every file under `dir` with a hash of its bytes (a failure then names the files, not
/// their bytes).
fn tree_bytes(dir: &Path) -> BTreeMap<PathBuf, u64> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            } else {
                out.insert(entry.path(), digest(&std::fs::read(entry.path()).unwrap()));
            }
        }
    }
    out
}

#[test]
fn snapshot_undo_reverts_what_the_scripted_model_wrote_in_a_hookgate_run() {
    if !have_git() {
        return;
    }
    let env = Env::new();
    let dot_git = tree_bytes(&env.work().join(".git"));
    // Inherited from a git hook, this would point `git add` at the user's index: the shadow
    // repository must ignore it.
    let user_index = env.work().join(".git/index");
    let out = env.agent_run(
        &[
            write_file("a.txt", "rewritten by the model\n"),
            write_file("src/new.rs", "fn main() {}\n"),
            write_file("debug.log", "ignored\n"),
        ],
        &[("GIT_INDEX_FILE", &user_index)],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        env.read("a.txt").as_deref(),
        Some("rewritten by the model\n")
    );
    assert_eq!(
        tree_bytes(&env.work().join(".git")),
        dot_git,
        "the user's .git is untouched"
    );

    // The run is over (session_end fired); another process lists what it recorded.
    let listed = env.json(&["snapshot", "list", "--json"]);
    let checkpoints = listed["checkpoints"].as_array().unwrap();
    let files: Vec<&str> = checkpoints
        .iter()
        .flat_map(|c| c["files"].as_array().unwrap())
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(files, vec!["a.txt", "src/new.rs"], "{listed:#}");
    assert!(checkpoints.iter().all(|c| c["span"] == "turn"));
    let human = env.ok(&["snapshot", "list"]);
    assert!(human.contains("1 file: a.txt"), "{human}");

    let diff = env.ok(&["snapshot", "diff", "1"]);
    assert!(diff.contains("+rewritten by the model"), "{diff}");
    assert!(diff.contains("src/new.rs"), "{diff}");

    let undone = env.json(&["snapshot", "undo", "--json"]);
    assert_eq!(undone["deleted"], json!(["src/new.rs"]), "{undone:#}");
    let undone = env.ok(&["snapshot", "undo"]);
    assert!(undone.contains("restored: a.txt"), "{undone}");
    assert_eq!(env.read("a.txt").as_deref(), Some("original\n"));
    assert_eq!(env.read("src/new.rs"), None);
    assert_eq!(
        env.read("debug.log").as_deref(),
        Some("ignored\n"),
        "ignored files are left alone"
    );
    assert_eq!(env.ok(&["snapshot", "undo"]), "nothing to undo\n");
    assert_eq!(
        tree_bytes(&env.work().join(".git")),
        dot_git,
        "still untouched after undo"
    );
}

#[test]
fn reset_keeps_the_first_n_and_keep_beyond_history_changes_nothing() {
    if !have_git() {
        return;
    }
    let env = Env::new();
    let out = env.agent_run(
        &[
            write_file("one.txt", "1\n"),
            write_file("two.txt", "2\n"),
            write_file("three.txt", "3\n"),
        ],
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let count = |env: &Env| {
        env.json(&["snapshot", "list", "--json"])["checkpoints"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(count(&env), 3);
    let none = env.ok(&["snapshot", "reset", "--keep", "3"]);
    assert_eq!(none, "nothing to reset: keeping the first 3\n");
    let none = env.json(&["snapshot", "reset", "--keep", "10", "--json"]);
    assert_eq!(none["checkpoints"], json!([]));
    assert_eq!(count(&env), 3);
    let reset = env.json(&["snapshot", "reset", "--keep", "1", "--json"]);
    assert_eq!(reset["checkpoints"], json!([3, 2]), "{reset:#}");
    assert_eq!(reset["deleted"], json!(["three.txt", "two.txt"]));
    assert_eq!(env.read("one.txt").as_deref(), Some("1\n"));
    assert_eq!(count(&env), 1);
}

#[test]
fn outside_a_git_work_tree_the_command_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .args(["snapshot", "list"])
        .current_dir(dir.path())
        .env("HOOKGATE_HOME", dir.path().join("home"))
        .env("GIT_CEILING_DIRECTORIES", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not inside a git work tree"), "{stderr}");
}

#[test]
fn an_agent_running_snapshot_undo_or_reset_is_denied() {
    let env = tempfile::tempdir().unwrap();
    let work = env.path().join("work");
    std::fs::create_dir_all(work.join(".git")).unwrap();
    let decide = |command: &str| -> String {
        let payload = json!({
            "session_id": "s", "transcript_path": "/t", "cwd": work,
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_1"
        });
        let mut child = Command::new(env!("CARGO_BIN_EXE_hookgate"))
            .args(["hook", "claude"])
            .current_dir(&work)
            .env("HOOKGATE_HOME", env.path().join("home"))
            .env("HOOKGATE_CONFIG_DIR", env.path().join("config"))
            .env("XDG_RUNTIME_DIR", env.path().join("run"))
            .env_remove("HOOKGATE_STORE")
            .env_remove("HOOKGATE_FAIL_MODE")
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
        if out.stdout.is_empty() {
            return "none".into();
        }
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .unwrap_or("none")
            .to_owned()
    };
    assert_eq!(decide("hookgate snapshot undo"), "deny");
    assert_eq!(decide("hookgate snapshot reset --keep 0"), "deny");
    assert_eq!(decide("hookgate snapshot list"), "none");
    assert_eq!(decide("hookgate snapshot diff 1"), "none");
}
