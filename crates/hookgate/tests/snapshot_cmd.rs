//! `hookgate snapshot` and the `snapshot` built-in end to end: the built binary, a real git
//! work tree, a scripted model driving `hookgate run`, and separate processes for every step
//! (the run that records, the commands that list and undo).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::path::Path;
use std::process::Output;

use common::{Sandbox, bash_payload, text};
use hookgate_snapshot::testkit::{committed_repo, have_git, tree_digest};
use serde_json::{Value, json};

/// A sandbox whose `work/` is a repository with a commit (`a.txt`, `.gitignore` ignoring
/// `*.log`).
fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    committed_repo(
        &sandbox.work(),
        &[("a.txt", "original\n"), (".gitignore", "*.log\n")],
    );
    sandbox
}

fn ok(sandbox: &Sandbox, args: &[&str]) -> String {
    text(&sandbox.ok(args).stdout)
}

fn read(sandbox: &Sandbox, rel: &str) -> Option<String> {
    std::fs::read_to_string(sandbox.work().join(rel)).ok()
}

/// `hookgate run` with `snapshot: true` and a scripted model that makes `turns`.
fn agent_run(sandbox: &Sandbox, turns: &[Value], extra_env: &[(&str, &Path)]) -> Output {
    let mut script: Vec<Value> = turns.to_vec();
    script.push(json!({"text": "done"}));
    let script_path = sandbox.path().join("script.json");
    std::fs::write(&script_path, serde_json::to_string(&script).unwrap()).unwrap();
    let config = sandbox.path().join("run.yaml");
    std::fs::write(&config, "snapshot: true\n").unwrap();
    let model = format!("script:{}", script_path.display());
    let mut command = sandbox.command(&[
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
    command.envs(extra_env.iter().copied());
    common::output_with_stdin(&mut command, b"")
}

fn write_file(path: &str, content: &str) -> Value {
    json!({"tool": "write_file", "input": {"path": path, "content": content}})
}

#[test]
fn snapshot_undo_reverts_what_the_scripted_model_wrote_in_a_hookgate_run() {
    if !have_git() {
        return;
    }
    let env = sandbox();
    let dot_git = tree_digest(&env.work().join(".git"));
    // Inherited from a git hook, this would point `git add` at the user's index: the shadow
    // repository must ignore it.
    let user_index = env.work().join(".git/index");
    let out = agent_run(
        &env,
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
        read(&env, "a.txt").as_deref(),
        Some("rewritten by the model\n")
    );
    assert_eq!(
        tree_digest(&env.work().join(".git")),
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
    let human = ok(&env, &["snapshot", "list"]);
    assert!(human.contains("1 file: a.txt"), "{human}");

    let diff = ok(&env, &["snapshot", "diff", "1"]);
    assert!(diff.contains("+rewritten by the model"), "{diff}");
    assert!(diff.contains("src/new.rs"), "{diff}");

    let undone = env.json(&["snapshot", "undo", "--json"]);
    assert_eq!(undone["deleted"], json!(["src/new.rs"]), "{undone:#}");
    let undone = ok(&env, &["snapshot", "undo"]);
    assert!(undone.contains("restored: a.txt"), "{undone}");
    assert_eq!(read(&env, "a.txt").as_deref(), Some("original\n"));
    assert_eq!(read(&env, "src/new.rs"), None);
    assert_eq!(
        read(&env, "debug.log").as_deref(),
        Some("ignored\n"),
        "ignored files are left alone"
    );
    assert_eq!(ok(&env, &["snapshot", "undo"]), "nothing to undo\n");
    assert_eq!(
        tree_digest(&env.work().join(".git")),
        dot_git,
        "still untouched after undo"
    );
}

#[test]
fn reset_keeps_the_first_n_and_keep_beyond_history_changes_nothing() {
    if !have_git() {
        return;
    }
    let env = sandbox();
    let out = agent_run(
        &env,
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
    let count = |env: &Sandbox| {
        env.json(&["snapshot", "list", "--json"])["checkpoints"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(count(&env), 3);
    let none = ok(&env, &["snapshot", "reset", "--keep", "3"]);
    assert_eq!(none, "nothing to reset: keeping the first 3\n");
    let none = env.json(&["snapshot", "reset", "--keep", "10", "--json"]);
    assert_eq!(none["checkpoints"], json!([]));
    assert_eq!(count(&env), 3);
    let reset = env.json(&["snapshot", "reset", "--keep", "1", "--json"]);
    assert_eq!(reset["checkpoints"], json!([3, 2]), "{reset:#}");
    assert_eq!(reset["deleted"], json!(["three.txt", "two.txt"]));
    assert_eq!(read(&env, "one.txt").as_deref(), Some("1\n"));
    assert_eq!(count(&env), 1);
}

#[test]
fn outside_a_git_work_tree_the_command_says_why() {
    let env = Sandbox::new();
    let mut command = env.command(&["snapshot", "list"]);
    command.env("GIT_CEILING_DIRECTORIES", env.path());
    let out = common::output_with_stdin(&mut command, b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("not inside a git work tree"), "{stderr}");
}

#[test]
fn an_agent_running_snapshot_undo_or_reset_is_denied() {
    let env = Sandbox::new();
    std::fs::create_dir_all(env.work().join(".git")).unwrap();
    let decide = |command: &str| -> String {
        let payload = bash_payload("s", &env.work(), command);
        let out = env.hook("claude", &serde_json::to_vec(&payload).unwrap(), &[]);
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

#[test]
fn claude_code_tool_hooks_record_a_checkpoint_that_undo_reverts() {
    if !have_git() {
        return;
    }
    let env = sandbox();
    std::fs::write(
        env.config().join("hooks.yaml"),
        "hooks:\n  pre_tool_use: [{type: builtin, command: snapshot}]\n  post_tool_use: [{type: builtin, command: snapshot}]\n",
    )
    .unwrap();
    let target = env.work().join("a.txt");
    let mut payload = json!({
        "session_id": "cc-1", "transcript_path": "/t", "cwd": env.work(),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": target, "content": "by claude\n"}, "tool_use_id": "toolu_9"
    });
    let pre = env.hook("claude", &serde_json::to_vec(&payload).unwrap(), &[]);
    assert_eq!(pre.status.code(), Some(0), "{}", text(&pre.stderr));
    std::fs::write(&target, "by claude\n").unwrap();
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"success": true});
    let post = env.hook("claude", &serde_json::to_vec(&payload).unwrap(), &[]);
    assert_eq!(post.status.code(), Some(0), "{}", text(&post.stderr));
    let listed = env.json(&["snapshot", "list", "--json"]);
    assert_eq!(
        listed["checkpoints"][0]["tool_use_id"], "toolu_9",
        "{listed:#}"
    );
    assert_eq!(listed["checkpoints"][0]["tool_name"], "Write");
    ok(&env, &["snapshot", "undo"]);
    assert_eq!(read(&env, "a.txt").as_deref(), Some("original\n"));
}
