//! `hookgate run` end to end: the built binary, a scripted model, real command hooks writing
//! what they receive to a file, real git worktrees, real SQLite sessions and a real SIGINT.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        Self { dir }
    }

    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hookgate"));
        command
            .arg("run")
            .args(args)
            .current_dir(self.work())
            .env("HOOKGATE_HOME", self.path("home"))
            .env("HOOKGATE_CONFIG_DIR", self.path("no-user-config"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// A config with one logging command hook on every event of `hookgate events`, plus
    /// `extra` YAML appended under `hooks:`.
    fn logging_config(&self, events: &[String], extra: &str) -> PathBuf {
        let log = self.path("hooks.log");
        let mut yaml = String::from("hooks:\n");
        for event in events {
            let _ = writeln!(
                yaml,
                "  {event}:\n    - id: log-{event}\n      type: command\n      command: 'cat >> {}; echo >> {}'",
                log.display(),
                log.display()
            );
            if let Some(more) = extra_for(extra, event) {
                yaml.push_str(&more);
            }
        }
        self.write("hooks.yaml", &yaml)
    }

    /// Runs, checks the exit status, and takes the hook log (emptying it for the next run).
    fn run_logged(&self, code: i32, args: &[&str]) -> (Output, Vec<Value>, Vec<String>) {
        let out = self.run(args);
        exited(&out, code);
        let log = self.hook_log();
        let _ = std::fs::remove_file(self.path("hooks.log"));
        let fired = names(&log);
        (out, log, fired)
    }

    /// Every hook input logged so far, in order.
    fn hook_log(&self) -> Vec<Value> {
        std::fs::read_to_string(self.path("hooks.log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// Extra hook entries for one event, from `event=>yaml;;event=>yaml`.
fn extra_for(extra: &str, event: &str) -> Option<String> {
    extra
        .split(";;")
        .filter_map(|part| part.split_once("=>"))
        .find(|(e, _)| *e == event)
        .map(|(_, yaml)| format!("{yaml}\n"))
}

fn catalog() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .args(["events", "--json"])
        .output()
        .unwrap();
    let events: Value = serde_json::from_slice(&out.stdout).unwrap();
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect()
}

fn names(log: &[Value]) -> Vec<String> {
    log.iter()
        .map(|v| v["hook_event_name"].as_str().unwrap().to_owned())
        .collect()
}

/// Asserts `expected` occurs in `actual` in this order (other events may come between).
fn assert_in_order(actual: &[String], expected: &[&str]) {
    let mut at = 0;
    for want in expected {
        match actual[at..].iter().position(|a| a == want) {
            Some(offset) => at += offset + 1,
            None => panic!(
                "`{want}` missing after position {at} in the fired events:\n{}",
                actual.join("\n")
            ),
        }
    }
}

fn timeline(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn session_id(out: &Output) -> String {
    timeline(out)
        .iter()
        .find(|e| e["type"] == "finished")
        .and_then(|e| e["session_id"].as_str())
        .unwrap()
        .to_owned()
}

/// Asserts the exit status, showing stderr when it differs.
fn exited(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn git(dir: &Path, args: &[&str]) {
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
        .output()
        .unwrap();
    assert!(status.status.success(), "git {args:?}: {status:?}");
}

fn field<'a>(log: &'a [Value], event: &str, key: &str) -> Vec<&'a Value> {
    log.iter()
        .filter(|v| v["hook_event_name"] == event)
        .map(|v| &v[key])
        .collect()
}

#[test]
fn every_catalog_event_fires_inside_run_in_its_documented_order() {
    let env = Env::new();
    let events = catalog();
    assert_eq!(events.len(), 28, "the catalog changed: extend this test");
    // permission_request allows transfer_task, so the sub-agent runs under --approval ask.
    let allow_transfer = r#"permission_request=>    - id: allow-transfer
      type: command
      matcher: transfer_task
      command: 'echo "{\"hook_specific_output\": {\"permission_decision\": \"allow\"}}"'"#;
    let config = env.logging_config(&events, allow_transfer);
    let work = env.work();
    std::fs::write(work.join("README"), "hello\n").unwrap();
    git(&work, &["init", "-q"]);
    git(&work, &["add", "README"]);
    git(&work, &["commit", "-qm", "init"]);
    let main = env.write(
        "main.json",
        r#"[
          {"tools": [{"tool": "read_file", "input": {"path": "README"}},
                     {"tool": "shell", "input": {"cmd": "touch denied.txt"}}]},
          {"tool": "transfer_task", "input": {"agent": "helper", "task": "check"}},
          {"text": "first answer"},
          {"text": "follow-up answer"},
          {"tool": "list_directory", "input": {"path": "."}},
          {"tool": "list_directory", "input": {"path": "."}}
        ]"#,
    );
    let helper = env.write(
        "helper.json",
        r#"[{"error": "the helper's model is down"}]"#,
    );
    let model = format!("script:{}", main.display());
    let agent = format!("helper=script:{}", helper.display());
    let config = config.display().to_string();

    // Run A: a worktree, steering, a denied and an allowed call, compaction, a sub-agent
    // whose model fails, a follow-up.
    let (a, log_a, fired_a) = env.run_logged(
        0,
        &[
            "do the task",
            "--model",
            &model,
            "--config",
            &config,
            "--worktree",
            "--steer",
            "also check the readme",
            "--follow-up",
            "and then this",
            "--agent",
            &agent,
            "--compact-at",
            "1",
            "--json",
        ],
    );
    assert_in_order(
        &fired_a,
        &[
            "worktree_create",
            "session_start",
            "user_prompt_submit",
            "user_steering_messages_submit",
            "turn_start",
            "before_llm_call",
            "after_llm_call",
            // read_file: read-only, runs unasked in ask mode
            "tool_input_transform",
            "tool_guard",
            "pre_tool_use",
            "on_tool_approval_decision",
            "tool_response_transform",
            "post_tool_use",
            // shell: nobody to ask, denied; the rejection is still transformed
            "tool_input_transform",
            "tool_guard",
            "pre_tool_use",
            "permission_request",
            "on_user_input",
            "on_tool_approval_decision",
            "tool_response_transform",
            "turn_end",
            "pre_compact",
            "before_compaction",
            "after_compaction",
            "turn_start",
            "before_llm_call",
            "after_llm_call",
            "tool_input_transform",
            "tool_guard",
            "pre_tool_use",
            "permission_request",
            "on_tool_approval_decision",
            "on_agent_switch",
            "turn_start",
            "before_llm_call",
            "on_error",
            "notification",
            "turn_end",
            "subagent_stop",
            "on_agent_switch",
            "tool_response_transform",
            "post_tool_use",
            "turn_end",
            "turn_start",
            "before_llm_call",
            "after_llm_call",
            "stop",
            "turn_end",
            "user_followup_submit",
            "turn_start",
            "before_llm_call",
            "after_llm_call",
            "stop",
            "turn_end",
            "session_end",
        ],
    );
    assert!(!work.join("denied.txt").exists());
    let worktree = log_a[0]["worktree_path"].as_str().unwrap();
    assert_eq!(log_a[0]["cwd"].as_str().unwrap(), worktree);
    assert!(
        !Path::new(worktree).join("denied.txt").exists(),
        "a denied call never runs"
    );
    assert_eq!(
        field(&log_a, "session_start", "source"),
        [&Value::from("startup")]
    );
    assert_eq!(
        field(&log_a, "on_tool_approval_decision", "approval_source"),
        ["readonly_hint", "no_user", "permission_request_hook_allow"]
            .map(Value::from)
            .iter()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        field(&log_a, "turn_end", "reason"),
        ["continue", "error", "continue", "normal", "normal"]
            .map(Value::from)
            .iter()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        field(&log_a, "on_agent_switch", "agent_switch_kind"),
        ["transfer_task", "transfer_task_return"]
            .map(Value::from)
            .iter()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        field(&log_a, "before_llm_call", "iteration")[0],
        &Value::from(1)
    );
    assert!(
        field(&log_a, "after_llm_call", "usage")[0]["input_tokens"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert_eq!(
        field(&log_a, "stop", "stop_response")[0],
        &Value::from("first answer")
    );
    let sub = log_a
        .iter()
        .find(|v| v["hook_event_name"] == "subagent_stop")
        .unwrap();
    assert_eq!(sub["agent_name"], "helper");
    assert_eq!(sub["parent_session_id"], log_a[0]["session_id"]);

    // Run B: resume the session; the script goes on where the conversation stopped, and the
    // same call twice in a row is a loop.
    let id = session_id(&a);
    let (_, log_b, fired_b) = env.run_logged(
        1,
        &[
            "again",
            "--model",
            &model,
            "--config",
            &config,
            "--resume",
            &id,
            "--loop-threshold",
            "2",
            "--approval",
            "yolo",
            "--json",
        ],
    );
    assert_in_order(
        &fired_b,
        &[
            "session_start",
            "on_session_resume",
            "user_prompt_submit",
            "turn_start",
            "before_llm_call",
            "after_llm_call",
            "post_tool_use",
            "turn_end",
            "turn_start",
            "before_llm_call",
            "after_llm_call",
            "on_error",
            "notification",
            "turn_end",
            "session_end",
        ],
    );
    assert_eq!(
        field(&log_b, "session_start", "source"),
        [&Value::from("resume")]
    );
    assert_eq!(log_b[0]["session_id"].as_str().unwrap(), id);
    assert_eq!(
        field(&log_b, "turn_end", "reason").last().unwrap(),
        &&Value::from("loop_detected")
    );

    // Run C: the iteration cap.
    let one = env.write(
        "one.json",
        r#"[{"tool": "list_directory", "input": {"path": "."}}]"#,
    );
    let (_, log_c, fired_c) = env.run_logged(
        1,
        &[
            "go",
            "--model",
            &format!("script:{}", one.display()),
            "--config",
            &config,
            "--max-iterations",
            "1",
            "--approval",
            "yolo",
            "--json",
        ],
    );
    assert_in_order(
        &fired_c,
        &[
            "session_start",
            "turn_start",
            "turn_end",
            "on_max_iterations",
            "notification",
            "session_end",
        ],
    );
    assert_eq!(
        field(&log_c, "on_max_iterations", "notification_level"),
        [&Value::from("warning")]
    );

    let all: BTreeSet<&String> = fired_a.iter().chain(&fired_b).chain(&fired_c).collect();
    let missing: Vec<&String> = events.iter().filter(|e| !all.contains(e)).collect();
    assert!(missing.is_empty(), "never fired inside run: {missing:?}");
}

fn write_file_script(env: &Env) -> String {
    let script = env.write(
        "write.json",
        r#"[{"tool": "write_file", "input": {"path": "made.txt", "content": "x"}}, {"text": "ok"}]"#,
    );
    format!("script:{}", script.display())
}

fn approval_source(out: &Output) -> String {
    timeline(out)
        .iter()
        .find(|e| e["type"] == "approval")
        .map(|e| e["source"].as_str().unwrap().to_owned())
        .unwrap()
}

#[test]
fn approval_modes_decide_calls_no_hook_decided() {
    for (mode, runs, source) in [
        ("yolo", true, "yolo"),
        ("ask", false, "no_user"),
        ("readonly", false, "mode_readonly"),
    ] {
        let env = Env::new();
        let model = write_file_script(&env);
        let out = env.run(&["write it", "--model", &model, "--approval", mode]);
        assert_eq!(out.status.code(), Some(0), "{mode}");
        assert_eq!(env.work().join("made.txt").exists(), runs, "{mode}");
        assert_eq!(approval_source(&out), source, "{mode}");
    }
}

#[test]
fn yolo_never_bypasses_a_tool_guard() {
    let env = Env::new();
    let config = env.write(
        "hooks.yaml",
        "hooks:\n  tool_guard:\n    - id: no-writes\n      type: command\n      matcher: write_file\n      command: 'echo no writes here >&2; exit 2'\n",
    );
    let model = write_file_script(&env);
    let out = env.run(&[
        "write it",
        "--model",
        &model,
        "--approval",
        "yolo",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!env.work().join("made.txt").exists());
    assert_eq!(approval_source(&out), "tool_guard_hook_deny");
}

#[test]
fn the_hook_flags_add_command_hooks_for_one_run() {
    let env = Env::new();
    let model = write_file_script(&env);
    let out = env.run(&[
        "write it",
        "--model",
        &model,
        "--approval",
        "yolo",
        "--hook-pre-tool-use",
        "echo blocked by flag >&2; exit 2",
        "--hook-stop",
        "cat > stop.json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !env.work().join("made.txt").exists(),
        "the pre_tool_use flag hook denied it"
    );
    let stop: Value =
        serde_json::from_str(&std::fs::read_to_string(env.work().join("stop.json")).unwrap())
            .unwrap();
    assert_eq!(stop["stop_response"], "ok");
}

#[test]
fn a_blocking_user_prompt_submit_hook_ends_the_run_before_any_model_call() {
    let env = Env::new();
    let model = write_file_script(&env);
    let config = env.write(
        "hooks.yaml",
        "hooks:\n  user_prompt_submit:\n    - type: command\n      command: 'echo not today >&2; exit 2'\n",
    );
    let out = env.run(&[
        "write it",
        "--model",
        &model,
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!timeline(&out).iter().any(|e| e["type"] == "model_call"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not today"));
}

#[test]
fn ctrl_c_ends_the_turn_and_the_session_with_their_hooks() {
    let env = Env::new();
    let events: Vec<String> = ["turn_end", "session_end", "tool_response_transform"]
        .map(String::from)
        .to_vec();
    let config = env.logging_config(&events, "");
    let script = env.write(
        "sleep.json",
        r#"[{"tool": "shell", "input": {"cmd": "sleep 30"}}, {"text": "never"}]"#,
    );
    let mut child = env
        .command(&[
            "wait",
            "--model",
            &format!("script:{}", script.display()),
            "--approval",
            "yolo",
            "--config",
            config.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let started = line.contains("\"type\":\"approval\"");
        seen.push(line);
        if started {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    seen.extend(lines.map(Result::unwrap));
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{seen:#?}");
    let log = env.hook_log();
    assert_eq!(
        names(&log),
        ["tool_response_transform", "turn_end", "session_end"]
    );
    assert_eq!(log[1]["reason"], "canceled");
    assert_eq!(log[2]["run_end"], "interrupted");
    let finished = seen.last().unwrap();
    assert!(finished.contains("\"interrupted\""), "{finished}");
    // The interrupted session was stored and can be resumed.
    let id = serde_json::from_str::<Value>(finished).unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let resumed = env.run(&[
        "go on",
        "--model",
        &format!("script:{}", script.display()),
        "--resume",
        &id,
        "--approval",
        "readonly",
    ]);
    exited(&resumed, 0);
}

#[test]
fn a_resumed_session_keeps_its_conversation() {
    let env = Env::new();
    let script = env.write("two.json", r#"[{"text": "first"}, {"text": "second"}]"#);
    let model = format!("script:{}", script.display());
    let first = env.run(&["one", "--model", &model]);
    let id = session_id(&first);
    let second = env.run(&["two", "--model", &model, "--resume", &id]);
    let finished = timeline(&second);
    let last = finished.iter().find(|e| e["type"] == "finished").unwrap();
    assert_eq!(
        last["final_text"], "second",
        "turn 2 answers the conversation with one assistant turn"
    );
    assert_eq!(last["session_id"], id.as_str());
    let unknown = env.run(&["x", "--model", &model, "--resume", "no-such-session"]);
    assert_eq!(unknown.status.code(), Some(1));
}

#[test]
fn an_unreachable_remote_model_fails_the_run_naming_the_provider() {
    let env = Env::new();
    let out = env.run(&["hi", "--model", "openai:http://127.0.0.1:9/v1#mock-model"]);
    assert_eq!(out.status.code(), Some(1));
    let finished = timeline(&out);
    let end = &finished.iter().find(|e| e["type"] == "finished").unwrap()["end"];
    assert_eq!(end["kind"], "model_error", "{end}");
    assert!(
        end["message"]
            .as_str()
            .unwrap()
            .contains("openai request failed"),
        "{end}"
    );
    assert!(
        finished.iter().any(|e| e["event"] == "on_error"),
        "a failed model call fires on_error"
    );
}

/// Starts `../shared/e2e/mock_llm.py` on 127.0.0.1 with `script`; returns the child and port.
/// Under `CI` a missing prerequisite fails the test instead of skipping it.
fn mock_llm(env: &Env, script: &Path) -> Option<(std::process::Child, u16)> {
    mock_llm_with(env, script, &[])
}

/// [`mock_llm`] with more of mock_llm.py's arguments (`--side-text` answers calls without tools).
fn mock_llm_with(env: &Env, script: &Path, args: &[&str]) -> Option<(std::process::Child, u16)> {
    let mock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/e2e/mock_llm.py");
    let python = Command::new("python3").arg("--version").output();
    if !mock.is_file() || python.is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "mock_llm.py or python3 missing under CI"
        );
        eprintln!("skipping: mock_llm.py or python3 missing");
        return None;
    }
    let mut child = Command::new("python3")
        .arg(&mock)
        .args([
            "--script",
            script.to_str().unwrap(),
            "--port",
            "0",
            "--max-seconds",
            "60",
        ])
        .args(args)
        .arg("--log")
        .arg(env.path("requests.jsonl"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let port = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| {
            l.strip_prefix("MOCK_LLM_PORT=")
                .map(|p| p.trim().parse().unwrap())
        })
        .unwrap();
    Some((child, port))
}

/// Stops the mock and returns what it logged, in order: each request (`method`, `path`,
/// `body`, …) with the mock's reply.
fn stop_mock(env: &Env, mut server: std::process::Child) -> Vec<Value> {
    let _ = server.kill();
    let _ = server.wait();
    std::fs::read_to_string(env.path("requests.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_http_model_drives_the_same_loop_through_mock_llm() {
    let env = Env::new();
    let script = env.write(
        "http.json",
        r#"[{"tool": "write_file", "input": {"path": "made.txt", "content": "over http"}}, {"text": "done over http"}]"#,
    );
    let Some((mut server, port)) = mock_llm(&env, &script) else {
        return;
    };
    for spec in [
        format!("openai:http://127.0.0.1:{port}/v1#mock-model"),
        format!("anthropic:http://127.0.0.1:{port}#mock-model"),
    ] {
        let _ = std::fs::remove_file(env.work().join("made.txt"));
        let out = env
            .command(&["write it", "--model", &spec, "--approval", "yolo"])
            .env("OPENAI_API_KEY", "test")
            .env("ANTHROPIC_API_KEY", "test")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{spec}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(env.work().join("made.txt")).unwrap(),
            "over http"
        );
        let last = timeline(&out)
            .into_iter()
            .find(|e| e["type"] == "finished")
            .unwrap();
        assert_eq!(last["final_text"], "done over http", "{spec}");
    }
    let _ = server.kill();
    let _ = server.wait();
}

/// Polls (bounded) until `path` exists; the bound only keeps a broken build from hanging.
fn wait_for_file(path: &Path) {
    for _ in 0..600 {
        if path.exists() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{} never appeared", path.display());
}

/// True while a process of group `pgid` is alive (zombies are reaped by init once hookgate
/// has exited, so this is polled, bounded).
fn group_alive(pgid: &str) -> bool {
    for _ in 0..100 {
        let probe = Command::new("kill")
            .args(["-0", "--", &format!("-{pgid}")])
            .stderr(Stdio::null())
            .status()
            .unwrap();
        if !probe.success() {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    true
}

#[test]
fn ctrl_c_during_a_slow_hook_kills_it_and_cancels_the_turn() {
    let env = Env::new();
    let log = env.path("hooks.log");
    let pid = env.path("hook.pid");
    let logging = |event: &str| {
        format!(
            "  {event}:\n    - id: log-{event}\n      type: command\n      command: 'cat >> {log}; echo >> {log}'\n",
            log = log.display()
        )
    };
    let mut yaml = format!(
        "hooks:\n  turn_start:\n    - id: slow\n      type: command\n      command: 'cat >> {log}; echo >> {log}; echo $$ > {pid}.tmp; mv {pid}.tmp {pid}; sleep 60'\n",
        log = log.display(),
        pid = pid.display()
    );
    for event in ["before_llm_call", "stop", "turn_end", "session_end"] {
        yaml.push_str(&logging(event));
    }
    let config = env.write("hooks.yaml", &yaml);
    let script = env.write("hi.json", r#"[{"text": "hi"}]"#);
    let child = env
        .command(&[
            "hello",
            "--model",
            &format!("script:{}", script.display()),
            "--config",
            config.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();
    wait_for_file(&pid);
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    exited(&out, 130);
    let log = env.hook_log();
    assert_eq!(
        names(&log),
        ["turn_start", "turn_end", "session_end"],
        "nothing after the interrupted hook but the closing events"
    );
    assert_eq!(log[1]["reason"], "canceled");
    assert_eq!(log[2]["run_end"], "interrupted");
    let finished = timeline(&out);
    assert_eq!(
        finished.last().unwrap()["end"]["kind"],
        "interrupted",
        "{finished:#?}"
    );
    let group = std::fs::read_to_string(&pid).unwrap();
    assert!(
        !group_alive(group.trim()),
        "the interrupted hook's process group was killed"
    );
}

/// Drives `hookgate run` on a pseudo-terminal (Python's `pty`): waits for an output marker or a
/// file, sends bytes (Ctrl+C is `\x03`, which the terminal turns into SIGINT), and reports the
/// exit status. Each wait is bounded, so a run that cannot be stopped fails instead of hanging.
const PTY_DRIVER: &str = r#"
import json, os, pty, select, sys, time
steps = json.loads(sys.argv[1])
argv = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
out = b""
def pump(limit):
    global out
    r, _, _ = select.select([fd], [], [], limit)
    if r:
        try:
            out += os.read(fd, 4096)
        except OSError:
            pass
def until(done, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if done():
            return True
        pump(0.1)
    return done()
status = None
for step in steps:
    if "wait_output" in step:
        if not until(lambda: step["wait_output"].encode() in out, 60):
            break
    elif "wait_file" in step:
        if not until(lambda: os.path.exists(step["wait_file"]), 60):
            break
    elif "send" in step:
        os.write(fd, step["send"].encode())
def exited():
    global status
    if status is None:
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(code)
    return status is not None
until(exited, float(os.environ.get("PTY_EXIT_WITHIN", "30")))
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
print(json.dumps({"status": status, "output": out.decode("utf-8", "replace")}))
"#;

/// Runs `hookgate run` under the pty driver with `steps` — the write_file script, `config`,
/// the default approval mode (ask: on a terminal, a question); returns (exit status, output).
fn on_a_terminal(env: &Env, steps: &Value, config: &Path) -> Option<(Option<i64>, String)> {
    let model = write_file_script(env);
    let args = [
        "write it",
        "--model",
        &model,
        "--config",
        config.to_str().unwrap(),
    ];
    if Command::new("python3").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "python3 missing under CI");
        eprintln!("skipping: python3 missing");
        return None;
    }
    let out = Command::new("python3")
        .arg("-c")
        .arg(PTY_DRIVER)
        .arg(steps.to_string())
        .arg(env!("CARGO_BIN_EXE_hookgate"))
        .arg("run")
        .args(args)
        .current_dir(env.work())
        .env("HOOKGATE_HOME", env.path("home"))
        .env("HOOKGATE_CONFIG_DIR", env.path("no-user-config"))
        .env("PTY_EXIT_WITHIN", "20")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    Some((
        report["status"].as_i64(),
        report["output"].as_str().unwrap().to_owned(),
    ))
}

#[test]
fn ctrl_c_at_an_approval_question_on_a_terminal_ends_the_run() {
    let env = Env::new();
    let events: Vec<String> = ["turn_end", "session_end"].map(String::from).to_vec();
    let config = env.logging_config(&events, "");
    let steps = serde_json::json!([{"wait_output": "[y/N]"}, {"send": "\u{3}"}]);
    let Some((status, output)) = on_a_terminal(&env, &steps, &config) else {
        return;
    };
    assert_eq!(status, Some(130), "{output}");
    assert!(!env.work().join("made.txt").exists(), "{output}");
    let log = env.hook_log();
    assert_eq!(names(&log), ["turn_end", "session_end"], "{output}");
    assert_eq!(log[0]["reason"], "canceled");
}

#[test]
fn a_second_ctrl_c_on_a_terminal_kills_a_slow_closing_hook_and_still_saves_the_session() {
    let env = Env::new();
    let pid = env.path("turn-end.pid");
    let config = env.write(
        "hooks.yaml",
        &format!(
            "hooks:\n  turn_end:\n    - type: command\n      command: 'echo $$ > {pid}.tmp; mv {pid}.tmp {pid}; sleep 120'\n",
            pid = pid.display()
        ),
    );
    let model = write_file_script(&env);
    let steps = serde_json::json!([
        {"wait_output": "[y/N]"},
        {"send": "\u{3}"},
        {"wait_file": pid.display().to_string()},
        {"send": "\u{3}"}
    ]);
    let Some((status, output)) = on_a_terminal(&env, &steps, &config) else {
        return;
    };
    assert_eq!(status, Some(130), "{output}");
    assert!(output.contains("interrupted again"), "{output}");
    let group = std::fs::read_to_string(&pid).unwrap();
    assert!(
        !group_alive(group.trim()),
        "the closing hook's process group was killed"
    );
    // The run returned normally: the last timeline line names the session, which was stored.
    let id = output
        .split("■ interrupted · session ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no finished line: {output}"));
    let resumed = env.run(&["go on", "--model", &model, "--resume", id]);
    exited(&resumed, 0);
}

#[test]
fn go_sdk_fields_updated_prompt_duration_turns_and_cost_reach_hooks() {
    let env = Env::new();
    let events: Vec<String> = [
        "before_llm_call",
        "after_llm_call",
        "post_tool_use",
        "session_end",
    ]
    .map(String::from)
    .to_vec();
    let rewrite = r#"user_prompt_submit=>  user_prompt_submit:
    - id: rewrite-prompt
      type: command
      command: 'echo "{\"hook_specific_output\": {\"updated_prompt\": \"the rewritten prompt\"}}"'"#;
    let mut config = std::fs::read_to_string(env.logging_config(&events, "")).unwrap();
    config.push_str(&extra_for(rewrite, "user_prompt_submit").unwrap());
    let config = env.write("hooks.yaml", &config);
    let script = env.write(
        "two.json",
        r#"[{"tool": "list_directory", "input": {"path": "."}}, {"text": "done"}]"#,
    );
    let (_, log, _) = env.run_logged(
        0,
        &[
            "the original prompt",
            "--model",
            &format!("script:{}", script.display()),
            "--config",
            config.to_str().unwrap(),
            "--approval",
            "yolo",
        ],
    );
    let sent = field(&log, "before_llm_call", "messages")[0].to_string();
    assert!(sent.contains("the rewritten prompt"), "{sent}");
    assert!(
        !sent.contains("the original prompt"),
        "the model never saw the original: {sent}"
    );
    let duration = field(&log, "post_tool_use", "duration_ms")[0];
    assert!(duration.as_f64().is_some_and(|d| d >= 0.0), "{duration}");
    assert_eq!(field(&log, "session_end", "turns"), [&Value::from(2)]);
    // The scripted model costs nothing, and that is known.
    assert_eq!(field(&log, "session_end", "cost"), [&Value::from(0.0)]);
    assert_eq!(
        field(&log, "after_llm_call", "cost"),
        [&Value::from(0.0), &Value::from(0.0)]
    );
}

#[test]
fn an_unpriced_http_model_reports_cost_null() {
    let env = Env::new();
    let events: Vec<String> = ["after_llm_call", "session_end"].map(String::from).to_vec();
    let config = env.logging_config(&events, "");
    let script = env.write("hi.json", r#"[{"text": "hi"}]"#);
    let Some((server, port)) = mock_llm(&env, &script) else {
        return;
    };
    let out = env
        .command(&[
            "hello",
            "--model",
            &format!("openai:http://127.0.0.1:{port}/v1#mock-model"),
            "--config",
            config.to_str().unwrap(),
        ])
        .env("OPENAI_API_KEY", "test")
        .output()
        .unwrap();
    stop_mock(&env, server);
    exited(&out, 0);
    let log = env.hook_log();
    for event in ["after_llm_call", "session_end"] {
        let entry = log.iter().find(|v| v["hook_event_name"] == event).unwrap();
        assert_eq!(
            entry.get("cost"),
            Some(&Value::Null),
            "{event}: present and null, not 0"
        );
    }
}

#[test]
fn meerkat_entries_inside_run_get_turn_numbers_and_the_llm_response() {
    let env = Env::new();
    let log = env.path("meerkat.log");
    let entry = |id: &str, point: &str| {
        format!(
            "[[hooks.entries]]\nid = \"{id}\"\npoint = \"{point}\"\nruntime = {{ type = \"command\", command = \"cat >> {log}; echo >> {log}\" }}\n",
            log = log.display()
        )
    };
    let mut toml = String::from("[hooks]\n");
    for (id, point) in [
        ("pre", "pre_tool_execution"),
        ("post", "post_tool_execution"),
        ("llm", "post_llm_response"),
    ] {
        toml.push_str(&entry(id, point));
    }
    let config = env.write("config.toml", &toml);
    let script = env.write(
        "two.json",
        r#"[{"tool": "list_directory", "input": {"path": "."}}, {"text": "done"}]"#,
    );
    let out = env.run(&[
        "go",
        "--model",
        &format!("script:{}", script.display()),
        "--config",
        config.to_str().unwrap(),
        "--approval",
        "yolo",
    ]);
    exited(&out, 0);
    let seen: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let points: Vec<&str> = seen.iter().map(|v| v["point"].as_str().unwrap()).collect();
    assert_eq!(
        points,
        [
            "post_llm_response",
            "pre_tool_execution",
            "post_tool_execution",
            "post_llm_response"
        ]
    );
    let turns: Vec<&Value> = seen.iter().map(|v| &v["turn_number"]).collect();
    assert_eq!(
        turns,
        [1, 1, 1, 2].map(Value::from).iter().collect::<Vec<_>>()
    );
    let first = &seen[0]["llm_response"];
    assert_eq!(
        first["tool_call_names"],
        serde_json::json!(["list_directory"])
    );
    assert_eq!(first["stop_reason"], "tool_use");
    assert!(
        first["usage"]["input_tokens"].as_u64().unwrap() > 0,
        "{first}"
    );
    assert_eq!(seen[3]["llm_response"]["assistant_text"], "done");
    assert_eq!(seen[3]["llm_response"]["stop_reason"], "end_turn");
    assert_eq!(seen[1]["tool_call"]["name"], "list_directory");
    assert_eq!(seen[2]["tool_result"]["name"], "list_directory");
}

#[test]
fn the_add_date_and_redact_secrets_shorthands_keep_secrets_from_the_model() {
    let env = Env::new();
    let key = "AKIAIOSFODNN7EXAMPLQ";
    std::fs::write(env.work().join("creds.txt"), format!("aws_key = {key}\n")).unwrap();
    let config = env.write(
        "hooks.yaml",
        "add_date: true\nredact_secrets: true\nhooks:\n  turn_start:\n    - type: builtin\n      command: add_date\n",
    );
    let script = env.write(
        "s.json",
        &format!(
            r#"[{{"tool": "shell", "input": {{"cmd": "cat creds.txt; echo {key} > echoed.txt"}}}}, {{"text": "done"}}]"#
        ),
    );
    let Some((server, port)) = mock_llm(&env, &script) else {
        return;
    };
    let out = env
        .command(&[
            &format!("deploy with {key}"),
            "--model",
            &format!("openai:http://127.0.0.1:{port}/v1#mock-model"),
            "--config",
            config.to_str().unwrap(),
            "--approval",
            "yolo",
        ])
        .env("OPENAI_API_KEY", "test")
        .output()
        .unwrap();
    // What the model was sent (the log also holds the mock's own replies).
    let requests: Vec<String> = stop_mock(&env, server)
        .iter()
        .map(|r| r["body"].to_string())
        .collect();
    exited(&out, 0);
    assert_eq!(requests.len(), 2, "{requests:?}");
    let requests = requests.join("\n");
    assert!(
        !requests.contains(key),
        "neither the prompt (before_llm_call) nor the tool output (tool_response_transform) reached the model with the key: {requests}"
    );
    assert!(requests.contains("[REDACTED]"), "{requests}");
    assert_eq!(
        requests.matches("Today's date:").count(),
        2,
        "add_date once per model call, though also written by hand: {requests}"
    );
    // tool_input_transform redacted the argument before the tool ran.
    assert_eq!(
        std::fs::read_to_string(env.work().join("echoed.txt")).unwrap(),
        "[REDACTED]\n"
    );
}

#[test]
fn a_model_judge_finds_its_endpoint_in_the_providers_base_url_variable() {
    let env = Env::new();
    let script = env.write("unused.json", r#"[{"text": "unused"}]"#);
    let allow = r#"{"decision":"allow","reason":"a harmless write"}"#;
    let Some((server, port)) = mock_llm_with(&env, &script, &["--side-text", allow]) else {
        return;
    };
    for (model, variable, url) in [
        (
            "openai/mock-model",
            "OPENAI_BASE_URL",
            format!("http://127.0.0.1:{port}/v1"),
        ),
        (
            "anthropic/mock-model",
            "ANTHROPIC_BASE_URL",
            format!("http://127.0.0.1:{port}"),
        ),
    ] {
        let _ = std::fs::remove_file(env.work().join("made.txt"));
        let config = env.write(
            "judge.yaml",
            &format!(
                "hooks:\n  pre_tool_use:\n    - type: model\n      model: {model}\n      schema: pre_tool_use_decision\n      prompt: 'Tool: {{{{ .ToolName }}}}'\n"
            ),
        );
        let out = env
            .command(&[
                "write it",
                "--model",
                &write_file_script(&env),
                "--config",
                config.to_str().unwrap(),
            ])
            .env(variable, &url)
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove(if variable == "OPENAI_BASE_URL" {
                "ANTHROPIC_BASE_URL"
            } else {
                "OPENAI_BASE_URL"
            })
            .output()
            .unwrap();
        exited(&out, 0);
        // Without the variable the judge would call the public API, fail (no network, no key)
        // and deny; an allow can only have come from the mock.
        assert_eq!(approval_source(&out), "pre_tool_use_hook_allow", "{model}");
        assert!(env.work().join("made.txt").exists(), "{model}");
    }
    let paths: Vec<String> = stop_mock(&env, server)
        .iter()
        .map(|r| r["path"].to_string())
        .collect();
    assert!(
        paths.iter().any(|p| p.contains("/v1/chat/completions")),
        "{paths:?}"
    );
    assert!(
        paths.iter().any(|p| p.contains("/v1/messages")),
        "{paths:?}"
    );
}

#[test]
fn resume_with_worktree_reuses_the_sessions_worktree() {
    let env = Env::new();
    let work = env.work();
    std::fs::write(work.join("README"), "hello\n").unwrap();
    git(&work, &["init", "-q"]);
    git(&work, &["add", "README"]);
    git(&work, &["commit", "-qm", "init"]);
    let events: Vec<String> = ["worktree_create", "session_start"]
        .map(String::from)
        .to_vec();
    let config = env.logging_config(&events, "");
    let script = env.write("two.json", r#"[{"text": "one"}, {"text": "two"}]"#);
    let model = format!("script:{}", script.display());
    let config = config.to_str().unwrap();
    let (first, log, _) = env.run_logged(
        0,
        &[
            "one",
            "--model",
            &model,
            "--config",
            config,
            "--worktree",
            "--json",
        ],
    );
    let worktree = log[0]["worktree_path"].as_str().unwrap().to_owned();
    let id = session_id(&first);
    let (_, log, fired) = env.run_logged(
        0,
        &[
            "two",
            "--model",
            &model,
            "--config",
            config,
            "--worktree",
            "--resume",
            &id,
            "--json",
        ],
    );
    assert_eq!(fired, ["session_start"], "no second worktree_create");
    assert_eq!(
        log[0]["cwd"].as_str().unwrap(),
        worktree,
        "the same checkout"
    );
}

#[test]
fn unload_frees_a_departing_docker_model_runner_sub_agent() {
    let env = Env::new();
    let helper = env.write("helper.json", r#"[{"text": "the helper's answer"}]"#);
    let Some((server, port)) = mock_llm(&env, &helper) else {
        return;
    };
    let main = env.write(
        "main.json",
        r#"[{"tool": "transfer_task", "input": {"agent": "helper", "task": "check"}}, {"text": "done"}]"#,
    );
    let config = env.write(
        "hooks.yaml",
        "hooks:\n  on_agent_switch:\n    - type: builtin\n      command: unload\n",
    );
    let out = env
        .command(&[
            "go",
            "--model",
            &format!("script:{}", main.display()),
            "--agent",
            &format!("helper=dmr:http://127.0.0.1:{port}/engines/v1#ai/qwen3"),
            "--config",
            config.to_str().unwrap(),
            "--approval",
            "yolo",
        ])
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    let requests = stop_mock(&env, server);
    exited(&out, 0);
    let paths: Vec<&str> = requests
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        ["/engines/v1/chat/completions", "/engines/_unload"],
        "the helper ran on the runner, then was unloaded when control returned"
    );
    assert_eq!(
        requests[1]["body"],
        serde_json::json!({"model": "ai/qwen3"})
    );
}
