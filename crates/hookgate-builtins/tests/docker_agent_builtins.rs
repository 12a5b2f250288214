//! docker-agent's built-ins, one test per documented rule, through the engine with real git
//! repositories, real files and real HTTP servers on 127.0.0.1.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::format_collect,
    reason = "test code"
)]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;

use hookgate_builtins::Environment;
use hookgate_core::{Decision, EventId, HookInput, Outcome};
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use serde_json::{Value, json};

fn engine_in(yaml: &str, env: Environment) -> Engine {
    let layer = parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap();
    Engine::with_builtins(
        merge(vec![layer]).unwrap(),
        hookgate_builtins::registry_with(env),
    )
    .unwrap()
}

fn engine(yaml: &str) -> Engine {
    engine_in(yaml, Environment::default())
}

fn builtin(event: &str, name: &str, args: &[&str]) -> String {
    format!(
        "hooks:\n  {event}:\n    - type: builtin\n      command: {name}\n      args: {}\n",
        serde_json::to_string(args).unwrap()
    )
}

fn load_error(yaml: &str) -> String {
    let layer = parse_text(yaml, Format::Yaml, None, Layer::Code).unwrap();
    Engine::with_builtins(merge(vec![layer]).unwrap(), hookgate_builtins::registry())
        .map_or_else(|e| e.to_string(), |_| "no error".to_owned())
}

async fn fire(engine: &Engine, event: EventId, fields: Value) -> Outcome {
    let mut value = json!({"session_id": "sess-1", "cwd": "/"});
    if let (Value::Object(base), Value::Object(extra)) = (&mut value, fields) {
        base.extend(extra);
    }
    engine
        .dispatch(event, HookInput::from_value(value).unwrap())
        .await
}

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
    let status = Command::new("git")
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
    assert!(status.status.success(), "git {args:?}: {status:?}");
}

/// A repository with `commits` commits of `a.txt`.
fn repo(commits: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    for i in 0..commits {
        std::fs::write(dir.path().join("a.txt"), format!("version {i}\n")).unwrap();
        git(dir.path(), &["add", "a.txt"]);
        git(
            dir.path(),
            &["commit", "-q", "-m", &format!("commit number {i}")],
        );
    }
    dir
}

fn cwd(dir: &Path) -> Value {
    json!({"cwd": dir.display().to_string()})
}

fn context_of(outcome: &Outcome) -> String {
    outcome.additional_context.join("\n")
}

#[tokio::test]
async fn add_git_status_adds_short_status_with_the_branch() {
    if !have_git() {
        return;
    }
    let dir = repo(1);
    std::fs::write(dir.path().join("a.txt"), "changed\n").unwrap();
    std::fs::write(dir.path().join("new.txt"), "new\n").unwrap();
    let e = engine(&builtin("turn_start", "add_git_status", &[]));
    let text = context_of(&fire(&e, EventId::TurnStart, cwd(dir.path())).await);
    assert!(text.contains("## main"), "{text}");
    assert!(text.contains(" M a.txt"), "{text}");
    assert!(text.contains("?? new.txt"), "{text}");
}

#[tokio::test]
async fn git_built_ins_are_silent_outside_a_repository() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for name in ["add_git_status", "add_git_diff", "add_recent_commits"] {
        let e = engine(&builtin("turn_start", name, &[]));
        let outcome = fire(&e, EventId::TurnStart, cwd(dir.path())).await;
        assert!(outcome.additional_context.is_empty(), "{name}: {outcome:?}");
        assert!(outcome.system_messages.is_empty(), "{name}: {outcome:?}");
    }
}

#[tokio::test]
async fn add_git_diff_is_a_stat_by_default_and_the_full_diff_with_full() {
    if !have_git() {
        return;
    }
    let dir = repo(1);
    std::fs::write(dir.path().join("a.txt"), "changed line\n").unwrap();
    let stat = engine(&builtin("turn_start", "add_git_diff", &[]));
    let text = context_of(&fire(&stat, EventId::TurnStart, cwd(dir.path())).await);
    assert!(text.contains("a.txt | 2 +-"), "{text}");
    assert!(!text.contains("+changed line"), "{text}");
    let full = engine(&builtin("turn_start", "add_git_diff", &["full"]));
    let text = context_of(&fire(&full, EventId::TurnStart, cwd(dir.path())).await);
    assert!(text.contains("+changed line"), "{text}");
}

#[tokio::test]
async fn git_output_is_capped_at_4_kib_and_marked_truncated() {
    if !have_git() {
        return;
    }
    let dir = repo(1);
    let big: String = (0..2000).map(|i| format!("ligne numéro {i}\n")).collect();
    std::fs::write(dir.path().join("a.txt"), big).unwrap();
    let e = engine(&builtin("turn_start", "add_git_diff", &["full"]));
    let text = context_of(&fire(&e, EventId::TurnStart, cwd(dir.path())).await);
    assert!(
        text.ends_with("... (truncated)"),
        "{}",
        &text[text.len() - 50..]
    );
    assert!(text.len() <= 4096 + "Git diff:\n".len() + "\n... (truncated)".len());
}

#[tokio::test]
async fn add_recent_commits_lists_ten_by_default_and_n_when_given() {
    if !have_git() {
        return;
    }
    let dir = repo(12);
    let e = engine(&builtin("session_start", "add_recent_commits", &[]));
    let text = context_of(&fire(&e, EventId::SessionStart, cwd(dir.path())).await);
    assert_eq!(text.matches("commit number").count(), 10, "{text}");
    assert!(text.contains("commit number 11"), "newest first: {text}");
    let e = engine(&builtin("session_start", "add_recent_commits", &["3"]));
    let text = context_of(&fire(&e, EventId::SessionStart, cwd(dir.path())).await);
    assert_eq!(text.matches("commit number").count(), 3, "{text}");
    assert!(
        load_error(&builtin("session_start", "add_recent_commits", &["0"])).contains("positive")
    );
}

#[tokio::test]
async fn add_prompt_files_walks_up_from_the_workdir_and_reads_the_home_directory() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let nested = project.join("src/deep");
    let home = root.path().join("home");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(project.join("AGENTS.md"), "project rules").unwrap();
    std::fs::write(home.join("AGENTS.md"), "personal rules").unwrap();
    std::fs::write(nested.join("NOTES.md"), "deep notes").unwrap();
    let env = Environment {
        home: Some(home.clone()),
        ..Environment::default()
    };
    let e = engine_in(
        &builtin(
            "turn_start",
            "add_prompt_files",
            &["AGENTS.md", "NOTES.md", "MISSING.md"],
        ),
        env,
    );
    let text = context_of(&fire(&e, EventId::TurnStart, cwd(&nested)).await);
    assert!(text.contains("project rules"), "{text}");
    assert!(text.contains("personal rules"), "{text}");
    assert!(text.contains("deep notes"), "{text}");
    assert!(
        text.find("project rules") < text.find("personal rules"),
        "the workdir hierarchy first, then home: {text}"
    );
}

#[tokio::test]
async fn add_prompt_files_refuses_a_file_that_resolves_outside_its_directory_or_is_sensitive() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let home = root.path().join("home");
    std::fs::create_dir_all(project.join("docs")).unwrap();
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "-----BEGIN PRIVATE KEY-----").unwrap();
    std::fs::write(root.path().join("elsewhere.md"), "outside text").unwrap();
    std::fs::write(project.join("docs/rules.md"), "linked rules").unwrap();
    // A cloned repository's prompt files: links to a key, out of the tree, and within it.
    std::os::unix::fs::symlink(home.join(".ssh/id_rsa"), project.join("AGENTS.md")).unwrap();
    std::os::unix::fs::symlink(root.path().join("elsewhere.md"), project.join("CLAUDE.md"))
        .unwrap();
    std::os::unix::fs::symlink(project.join("docs/rules.md"), project.join("RULES.md")).unwrap();
    // In the home directory, a link that stays inside it is refused when the place is sensitive.
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::write(home.join(".aws/credentials"), "aws_secret_access_key = x").unwrap();
    std::os::unix::fs::symlink(home.join(".aws/credentials"), home.join("KEY.md")).unwrap();
    let env = Environment {
        home: Some(home.clone()),
        ..Environment::default()
    };
    let e = engine_in(
        &builtin(
            "turn_start",
            "add_prompt_files",
            &["AGENTS.md", "CLAUDE.md", "RULES.md", "KEY.md"],
        ),
        env,
    );
    let out = fire(&e, EventId::TurnStart, cwd(&project)).await;
    let text = out.additional_context.join("\n");
    assert!(
        text.contains("linked rules"),
        "a link inside the tree is fine: {text}"
    );
    assert!(!text.contains("PRIVATE KEY"), "{text}");
    assert!(!text.contains("outside text"), "{text}");
    assert!(!text.contains("aws_secret_access_key"), "{text}");
    let warning = out.system_messages.join("\n");
    for name in ["AGENTS.md", "CLAUDE.md", "KEY.md"] {
        assert!(warning.contains(name), "{name} is reported: {warning}");
    }
}

#[test]
fn safer_shell_takes_only_the_ask_mode() {
    assert_eq!(
        load_error(&builtin("pre_tool_use", "safer_shell", &[])),
        "no error"
    );
    assert_eq!(
        load_error(&builtin("pre_tool_use", "safer_shell", &["ask"])),
        "no error"
    );
    for bad in [&["policy"][..], &["deny"], &["ask", "ask"]] {
        let err = load_error(&builtin("pre_tool_use", "safer_shell", bad));
        assert!(err.contains("args: [\"ask\"]"), "{bad:?}: {err}");
    }
}

#[test]
fn add_prompt_files_refuses_names_that_leave_the_directory() {
    for bad in ["/etc/passwd", "../../.ssh/id_rsa"] {
        let err = load_error(&builtin("turn_start", "add_prompt_files", &[bad]));
        assert!(err.contains("without `..`"), "{bad}: {err}");
    }
    assert!(load_error(&builtin("turn_start", "add_prompt_files", &[])).contains("needs"));
}

fn results_engine(data: &Path) -> Engine {
    let env = Environment {
        data_dir: Some(data.to_path_buf()),
        ..Environment::default()
    };
    engine_in(
        "hooks:\n  tool_response_transform:\n    - type: builtin\n      command: limit_large_tool_results\n  session_end:\n    - type: builtin\n      command: limit_large_tool_results\n",
        env,
    )
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[tokio::test]
async fn limit_large_tool_results_keeps_the_head_of_a_read_and_the_tail_of_anything_else() {
    let tmp = tempfile::tempdir().unwrap();
    let e = results_engine(tmp.path());
    let read = fire(
        &e,
        EventId::ToolResponseTransform,
        json!({"tool_name": "read_file", "tool_use_id": "r1", "tool_response": numbered(5000)}),
    )
    .await;
    let text = read.updated_tool_response.unwrap();
    let text = text.as_str().unwrap();
    assert!(
        text.starts_with("[tool result truncated: 5000 lines"),
        "{}",
        &text[..100]
    );
    assert!(text.contains("\nline 1\n") && text.contains("\nline 2000\n"));
    assert!(!text.contains("line 2001\n"));

    let shell = fire(
        &e,
        EventId::ToolResponseTransform,
        json!({"tool_name": "shell", "tool_use_id": "s1", "tool_response": numbered(5000)}),
    )
    .await;
    let text = shell.updated_tool_response.unwrap();
    let text = text.as_str().unwrap();
    assert!(text.ends_with("line 5000\n"));
    assert!(text.contains("\nline 3001\n") && !text.contains("\nline 3000\n"));
    // The whole result is kept for the agent to read, named in the notice.
    let saved = tmp.path().join("tool-results/sess-1/s1.txt");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), numbered(5000));
    assert!(
        text.contains(&saved.display().to_string()),
        "{}",
        &text[..300]
    );
}

#[tokio::test]
async fn limit_large_tool_results_keeps_its_copies_private_and_redacted() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let e = results_engine(tmp.path());
    let key = "AKIAIOSFODNN7EXAMPLQ";
    let output = format!("{}aws_key = {key}\n", numbered(3000));
    for id in ["t1", "t1"] {
        fire(
            &e,
            EventId::ToolResponseTransform,
            json!({"tool_name": "shell", "tool_use_id": id, "tool_response": output}),
        )
        .await;
    }
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tmp.path().join("tool-results/sess-1");
    assert_eq!(mode(&tmp.path().join("tool-results")), 0o700);
    assert_eq!(mode(&dir), 0o700);
    for name in ["t1.txt", "t1-2.txt"] {
        let file = dir.join(name);
        assert_eq!(mode(&file), 0o600, "{name}");
        let saved = std::fs::read_to_string(&file).unwrap();
        assert!(!saved.contains(key), "the saved copy is redacted");
        assert!(saved.contains("[REDACTED]") && saved.contains("line 3000\n"));
    }
}

#[tokio::test]
async fn limit_large_tool_results_never_writes_through_a_planted_link() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(data.join("tool-results")).unwrap();
    std::fs::set_permissions(
        data.join("tool-results"),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let e = results_engine(&data);
    let large = numbered(3000);
    // A link in the session directory's place: refused, not followed.
    std::os::unix::fs::symlink(&elsewhere, data.join("tool-results/sess-1")).unwrap();
    let out = fire(
        &e,
        EventId::ToolResponseTransform,
        json!({"tool_name": "shell", "tool_use_id": "t1", "tool_response": large}),
    )
    .await;
    let text = out.updated_tool_response.unwrap();
    assert!(
        text.as_str().unwrap().contains("could not be saved"),
        "still truncated: {}",
        &text.as_str().unwrap()[..200]
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    // A link in a file's place: a new name is used, the link's target is untouched.
    std::fs::remove_file(data.join("tool-results/sess-1")).unwrap();
    std::fs::create_dir(data.join("tool-results/sess-1")).unwrap();
    std::fs::set_permissions(
        data.join("tool-results/sess-1"),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let target = elsewhere.join("victim");
    std::fs::write(&target, "keep me").unwrap();
    std::os::unix::fs::symlink(&target, data.join("tool-results/sess-1/t2.txt")).unwrap();
    fire(
        &e,
        EventId::ToolResponseTransform,
        json!({"tool_name": "shell", "tool_use_id": "t2", "tool_response": numbered(3000)}),
    )
    .await;
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    assert!(data.join("tool-results/sess-1/t2-2.txt").is_file());
}

#[tokio::test]
async fn limit_large_tool_results_leaves_small_results_and_cleans_up_at_session_end() {
    let tmp = tempfile::tempdir().unwrap();
    let e = results_engine(tmp.path());
    let small = fire(
        &e,
        EventId::ToolResponseTransform,
        json!({"tool_name": "shell", "tool_response": numbered(10)}),
    )
    .await;
    assert_eq!(small.updated_tool_response, None);
    let bytes = fire(
        &e,
        EventId::ToolResponseTransform,
        json!({"tool_name": "shell", "tool_use_id": "b", "tool_response": "x".repeat(60 * 1024)}),
    )
    .await;
    assert!(
        bytes.updated_tool_response.is_some(),
        "over 50 KiB on one line is large too"
    );
    let dir: PathBuf = tmp.path().join("tool-results/sess-1");
    assert!(dir.is_dir());
    fire(&e, EventId::SessionEnd, json!({"reason": "other"})).await;
    assert!(!dir.exists(), "session_end removes the session's files");
}

/// A one-shot HTTP server on 127.0.0.1: answers 200 to each request and sends its body back
/// through the channel.
fn http_server(requests: usize) -> (String, mpsc::Receiver<(String, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let Ok(mut stream) = stream else { return };
            let mut data = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                let Ok(n) = stream.read(&mut buf) else { return };
                if n == 0 {
                    break;
                }
                data.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&data);
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let length = head
                        .lines()
                        .find_map(|l| {
                            let (k, v) = l.split_once(':')?;
                            k.eq_ignore_ascii_case("content-length")
                                .then(|| v.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    if body.len() >= length {
                        let path = head
                            .split_whitespace()
                            .nth(1)
                            .unwrap_or_default()
                            .to_owned();
                        let _ = tx.send((path, body.to_owned()));
                        break;
                    }
                }
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        }
    });
    (format!("http://{address}"), rx)
}

#[tokio::test]
async fn http_post_refuses_a_loopback_target_unless_allowed() {
    let (base, rx) = http_server(1);
    let url = format!("{base}/hook");
    let refused = engine(&builtin("notification", "http_post", &[&url]));
    let outcome = fire(
        &refused,
        EventId::Notification,
        json!({"notification_message": "hi"}),
    )
    .await;
    assert!(
        outcome.system_messages.iter().any(|m| m
            .contains("built-in `http_post` refuses to post to 127.0.0.1: not a public address")),
        "{outcome:?}"
    );
    assert!(rx.try_recv().is_err(), "nothing was sent");

    let allowed = engine(&builtin(
        "notification",
        "http_post",
        &["allow_private", &url],
    ));
    fire(
        &allowed,
        EventId::Notification,
        json!({"notification_message": "hi"}),
    )
    .await;
    let (path, body) = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
    assert_eq!(path, "/hook");
    let sent: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(sent["notification_message"], "hi");
    assert_eq!(sent["hook_event_name"], "notification");
}

#[tokio::test]
async fn unload_posts_each_departing_dmr_model_and_skips_other_providers() {
    let (base, rx) = http_server(1);
    let e = engine(&builtin("on_agent_switch", "unload", &[]));
    let outcome = fire(
        &e,
        EventId::OnAgentSwitch,
        json!({"from_agent": "a", "to_agent": "b", "from_agent_models": [
            {"provider": "openai", "model": "gpt-4o", "base_url": "https://api.openai.com/v1"},
            {"provider": "dmr", "model": "ai/qwen3", "base_url": format!("{base}/engines/v1")}
        ]}),
    )
    .await;
    assert!(outcome.system_messages.is_empty(), "{outcome:?}");
    let (path, body) = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
    assert_eq!(path, "/engines/_unload");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"model": "ai/qwen3"})
    );
}

#[tokio::test]
async fn safer_shell_asks_about_an_unknown_command_with_blast_radius_unknown() {
    let e = engine(&builtin("pre_tool_use", "safer_shell", &[]));
    let outcome = fire(
        &e,
        EventId::PreToolUse,
        json!({"tool_name": "shell", "tool_input": {"cmd": "frobnicate --all"}, "cwd": "/tmp"}),
    )
    .await;
    assert_eq!(outcome.decision, Some(Decision::Ask), "{outcome:?}");
    assert_eq!(
        outcome.metadata.get("blast_radius").map(String::as_str),
        Some("unknown")
    );
}

#[tokio::test]
async fn max_iterations_trips_only_after_n_iterations() {
    let e = engine(&builtin("before_llm_call", "max_iterations", &["3"]));
    for iteration in 1..=3 {
        let out = fire(&e, EventId::BeforeLlmCall, json!({"iteration": iteration})).await;
        assert_eq!(
            out.decision, None,
            "iteration {iteration} is within the limit"
        );
    }
    for iteration in [4, 40] {
        let out = fire(&e, EventId::BeforeLlmCall, json!({"iteration": iteration})).await;
        assert_eq!(out.decision, Some(Decision::Deny), "iteration {iteration}");
        assert!(out.reason.unwrap().contains("exceeds the limit of 3"));
    }
    let unknown = fire(&e, EventId::BeforeLlmCall, json!({})).await;
    assert_eq!(
        unknown.decision, None,
        "no iteration in the input: nothing to count"
    );
}

#[tokio::test]
async fn add_directory_listing_caps_at_100_entries_and_skips_dotfiles() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..105 {
        std::fs::write(dir.path().join(format!("f{i:03}")), "").unwrap();
    }
    std::fs::write(dir.path().join(".env"), "SECRET=1").unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::create_dir(dir.path().join("a-dir")).unwrap();
    let e = engine(&builtin("session_start", "add_directory_listing", &[]));
    let out = fire(
        &e,
        EventId::SessionStart,
        json!({"cwd": dir.path().display().to_string(), "source": "startup"}),
    )
    .await;
    let text = out.additional_context.join("\n");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("Files in {}:", dir.path().display()));
    assert_eq!(lines[1], "a-dir/", "alphabetical, directories marked");
    assert_eq!(lines.len(), 1 + 100 + 1, "{text}");
    assert_eq!(*lines.last().unwrap(), "... and 6 more");
    assert!(!text.contains(".env") && !text.contains(".git"), "{text}");
}

#[tokio::test]
async fn add_environment_info_reports_directory_repository_os_and_architecture() {
    let e = engine(&builtin("session_start", "add_environment_info", &[]));
    let plain = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join(".git")).unwrap();
    std::fs::create_dir_all(repo.path().join("src/deep")).unwrap();
    for (dir, git) in [
        (plain.path().to_path_buf(), "no"),
        (repo.path().join("src/deep"), "yes"),
    ] {
        let out = fire(
            &e,
            EventId::SessionStart,
            json!({"cwd": dir.display().to_string(), "source": "startup"}),
        )
        .await;
        assert_eq!(
            out.additional_context,
            [format!(
                "Working directory: {}\nGit repository: {git}\nOperating system: {}\nArchitecture: {}",
                dir.display(),
                std::env::consts::OS,
                std::env::consts::ARCH
            )]
        );
    }
}

#[tokio::test]
async fn redact_secrets_redacts_the_outgoing_messages_on_before_llm_call() {
    let e = engine(&builtin("before_llm_call", "redact_secrets", &[]));
    let key = "AKIAIOSFODNN7EXAMPLQ";
    let out = fire(
        &e,
        EventId::BeforeLlmCall,
        json!({"messages": [{"role": "user", "text": format!("use {key}")},
                            {"role": "tool", "text": "clean"}]}),
    )
    .await;
    let messages = out.updated_messages.expect("rewritten").to_string();
    assert!(!messages.contains(key), "{messages}");
    assert!(messages.contains("use [REDACTED]") && messages.contains("clean"));
    let clean = fire(
        &e,
        EventId::BeforeLlmCall,
        json!({"messages": [{"role": "user", "text": "nothing secret"}]}),
    )
    .await;
    assert_eq!(
        clean.updated_messages, None,
        "no rewrite when nothing changed"
    );
}
