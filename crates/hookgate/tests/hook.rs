//! `hookgate hook <agent>` through the real binary: captured payloads, exact answers, bad input,
//! and the audit record of each call.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::io::Write;
use std::path::{Path, PathBuf};

fn payloads() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/e2e/payloads");
    dir.is_dir().then_some(dir)
}

mod common;

use common::{Sandbox as Env, output_with_stdin, text};

#[test]
fn captured_benign_payloads_get_no_opinion_from_every_agent() {
    let Some(dir) = payloads() else {
        // Under CI a missing prerequisite fails: a skipped test is not a passed one.
        assert!(
            std::env::var_os("CI").is_none_or(|v| v.is_empty()),
            "../shared/e2e/payloads is not beside the repository (required under CI)"
        );
        eprintln!("skipping: ../shared/e2e/payloads is not beside the repository");
        return;
    };
    let env = Env::new();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let agent = name.split('-').next().unwrap();
        let out = env.hook(agent, &std::fs::read(&path).unwrap(), &[]);
        // The captured calls are `echo hello > out.txt` / `echo FORBIDDEN > out2.txt` and
        // lifecycle events: ordinary work, so no opinion — empty stdout and stderr, exit 0
        // (Codex's Stop alone requires a JSON object).
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert!(
            out.stderr.is_empty(),
            "{name}: stderr on an allow path: {}",
            text(&out.stderr)
        );
        let stdout = text(&out.stdout);
        // Session start carries the one-line summary of what guards the session, where the
        // agent takes context; no decision.
        let session_line = name.to_ascii_lowercase().contains("sessionstart")
            && stdout.contains("hookgate: guarding this session")
            && !stdout.contains("\"deny\"");
        assert!(
            stdout.is_empty() || stdout.trim() == "{}" || session_line,
            "{name}: {stdout}"
        );
        seen += 1;
    }
    assert!(seen >= 28);
    assert_eq!(env.log().len(), seen, "every call is recorded");
}

fn pre_tool(agent: &str, command: &str) -> Vec<u8> {
    let json = match agent {
        "claude" => {
            serde_json::json!({"session_id":"s","transcript_path":"/t","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":command},"tool_use_id":"toolu_1"})
        }
        "codex" => {
            serde_json::json!({"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/tmp","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":command},"tool_use_id":"call_1"})
        }
        "gemini" => {
            serde_json::json!({"session_id":"s","transcript_path":"/t","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-11-22T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":command}})
        }
        "copilot" => {
            serde_json::json!({"sessionId":"s","timestamp":1_700_000_000_000_u64,"cwd":"/tmp","toolName":"bash","toolArgs":serde_json::json!({"command":command}).to_string()})
        }
        "cursor" => {
            serde_json::json!({"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","workspace_roots":["/tmp"],"command":command,"cwd":"/tmp"})
        }
        _ => unreachable!(),
    };
    serde_json::to_vec(&json).unwrap()
}

#[test]
fn a_force_push_to_main_is_denied_in_each_agents_own_format() {
    let env = Env::new();
    for (agent, needle) in [
        (
            "claude",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":""#,
        ),
        (
            "codex",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":""#,
        ),
        ("gemini", r#"{"decision":"deny","reason":""#),
        (
            "copilot",
            r#"{"permissionDecision":"deny","permissionDecisionReason":""#,
        ),
        ("cursor", r#"{"permission":"deny","user_message":""#),
    ] {
        let out = env.hook(agent, &pre_tool(agent, "git push --force origin main"), &[]);
        let stdout = text(&out.stdout);
        assert!(
            stdout.starts_with(needle),
            "{agent}: {stdout} / {}",
            text(&out.stderr)
        );
        assert!(stdout.contains("force push"), "{agent}: {stdout}");
        assert!(
            !stdout.contains("\"ruleId\"") && !stdout.contains("\"suggestion\""),
            "{agent}: extra keys in {stdout}"
        );
        serde_json::from_str::<serde_json::Value>(stdout.trim()).unwrap();
    }
    let records = env.log();
    assert_eq!(records.len(), 5);
    assert!(records.iter().all(|r| r["decision"] == "deny"));
}

#[test]
fn obfuscation_does_not_change_the_verdict() {
    let env = Env::new();
    for command in [
        "git push --force origin main",
        "g''it push -f origin main",
        "sudo bash -c 'git push origin +main'",
        "env X=1 git push --force origin main",
    ] {
        let out = env.hook("claude", &pre_tool("claude", command), &[]);
        assert!(
            text(&out.stdout).contains("\"deny\""),
            "{command}: {}",
            text(&out.stdout)
        );
    }
    for command in [
        "echo 'git push --force origin main'",
        "git commit -m 'do not git push --force'",
    ] {
        let out = env.hook("claude", &pre_tool("claude", command), &[]);
        assert!(out.stdout.is_empty(), "{command}: {}", text(&out.stdout));
    }
}

#[test]
fn bad_input_takes_the_fail_mode_with_a_clear_reason_and_is_recorded_as_an_error() {
    let env = Env::new();
    let big = {
        let mut v =
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":""#
                .to_vec();
        v.extend(std::iter::repeat_n(b'a', 20 * 1024 * 1024));
        v.extend(br#""}}"#);
        v
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty stdin", Vec::new(), "empty"),
        ("invalid json", b"{nope".to_vec(), "not json"),
        ("not an object", b"[1,2]".to_vec(), "object"),
        (
            "wrong types",
            br#"{"hook_event_name":"PreToolUse","tool_name":7,"tool_input":"x"}"#.to_vec(),
            "tool_name",
        ),
        ("20 MiB", big, "too large"),
        ("non-utf-8", vec![b'{', 0xff, 0xfe, b'}'], "utf-8"),
    ];
    for (name, payload, needle) in &cases {
        let out = env.hook("claude", payload, &[]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(
            stdout.contains(r#""permissionDecision":"ask""#),
            "{name}: Claude can ask, so the default fail mode asks: {stdout}"
        );
        assert!(
            stdout.to_lowercase().contains(needle),
            "{name}: the reason must say what was wrong: {stdout}"
        );
        let gemini = env.hook("gemini", payload, &["--fail-mode", "deny"]);
        assert!(
            text(&gemini.stdout).contains(r#""decision":"deny""#),
            "{name}: {}",
            text(&gemini.stdout)
        );
        let codex = env.hook("codex", payload, &[]);
        assert!(
            text(&codex.stdout).contains(r#""permissionDecision":"deny""#),
            "{name}: Codex cannot ask, so it denies: {}",
            text(&codex.stdout)
        );
    }
    let records = env.log();
    assert_eq!(records.len(), cases.len() * 3);
    assert!(
        records
            .iter()
            .all(|r| r["decision"] == "error" && r["error"].is_string()),
        "{records:#?}"
    );
}

#[test]
fn a_broken_policy_file_fails_closed_instead_of_allowing() {
    // The user's own (trusted) policy; an untrusted project's broken policy is ignored
    // instead (trust.rs: an_untrusted_project_config_that_does_not_load_is_ignored_…).
    let env = Env::new();
    std::fs::write(
        env.config().join("policy.yaml"),
        "rules:\n  - acton: shell.exec\n",
    )
    .unwrap();
    let mut payload: serde_json::Value = serde_json::from_slice(&pre_tool("claude", "ls")).unwrap();
    payload["cwd"] = serde_json::json!(env.root.path().join("work"));
    let out = env.hook(
        "claude",
        &serde_json::to_vec(&payload).unwrap(),
        &["--fail-mode", "deny"],
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(r#""permissionDecision":"deny""#),
        "{stdout}"
    );
    assert!(
        stdout.contains("policy.yaml:2"),
        "the reason names the file and line: {stdout}"
    );
}

#[test]
fn a_users_own_hook_config_applies_to_every_agent() {
    let env = Env::new();
    std::fs::create_dir_all(env.root.path().join("work/.hookgate")).unwrap();
    std::fs::write(
        env.root.path().join("work/.hookgate/hooks.yaml"),
        "hooks:\n  pre_tool_use:\n    - type: builtin\n      command: deny_commands\n      args: [\"make deploy\"]\n",
    )
    .unwrap();
    for agent in ["claude", "gemini", "copilot"] {
        let mut payload: serde_json::Value =
            serde_json::from_slice(&pre_tool(agent, "make deploy")).unwrap();
        payload["cwd"] = serde_json::json!(env.root.path().join("work"));
        let out = env.hook(agent, &serde_json::to_vec(&payload).unwrap(), &[]);
        assert!(
            text(&out.stdout).contains("blocked pattern `make deploy`"),
            "{agent}: {}",
            text(&out.stdout)
        );
    }
}

#[test]
fn a_webhook_receives_records_without_delaying_the_answer() {
    use std::io::{BufRead, BufReader, Read};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/audit", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        // A slow receiver: the hook must not wait for it.
        std::thread::sleep(std::time::Duration::from_secs(6));
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let mut stream = stream;
        let _ = stream.write_all(
            b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
        );
        let _ = tx.send(String::from_utf8(body).unwrap());
    });
    let env = Env::new();
    let mut cmd = env.command(&["hook", "claude"]);
    cmd.env("HOOKGATE_WEBHOOK_URL", &url);
    let started = std::time::Instant::now();
    let out = output_with_stdin(
        &mut cmd,
        &pre_tool("claude", "git push --force origin main"),
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "the answer waited for a webhook that takes 6 s: {:?}",
        started.elapsed()
    );
    assert!(text(&out.stdout).contains("\"deny\""));
    let body = rx
        .recv_timeout(std::time::Duration::from_secs(15))
        .expect("the webhook received nothing");
    assert!(
        body.contains("\"decision\":\"deny\"") && body.contains("pre_tool_use"),
        "{body}"
    );
}

#[test]
fn fail_mode_is_configurable_per_agent() {
    let env = Env::new();
    let run = |agent: &str, vars: &[(&str, &str)]| {
        let mut cmd = env.command(&["hook", agent]);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        text(&output_with_stdin(&mut cmd, b"{broken").stdout)
    };
    assert!(run("claude", &[]).contains(r#""permissionDecision":"ask""#));
    assert!(
        run("claude", &[("HOOKGATE_FAIL_MODE_CLAUDE", "deny")])
            .contains(r#""permissionDecision":"deny""#)
    );
    assert!(
        run(
            "claude",
            &[
                ("HOOKGATE_FAIL_MODE", "deny"),
                ("HOOKGATE_FAIL_MODE_CLAUDE", "ask")
            ]
        )
        .contains(r#""permissionDecision":"ask""#)
    );
    assert!(
        run("gemini", &[("HOOKGATE_FAIL_MODE_CLAUDE", "deny")]).contains(r#""decision":"ask""#)
    );
}
