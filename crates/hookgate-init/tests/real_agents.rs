//! The configs `hookgate init` writes, run by the real agent CLIs (offline, against
//! `shared/e2e/mock_llm.py`), with a fake `hookgate` that logs each call.
//!
//! Skipped, with a message, when a CLI or the e2e kit is not there — failed instead when the `CI`
//! environment variable is set, since a skipped test is not a passed one (install: see
//! `shared/e2e/README.md`; point `CLAUDE_BIN`/`CODEX_BIN`/`GEMINI_BIN` at the binaries, default
//! `/tmp/e2e-cli/node_modules/.bin/<name>`). The Codex test is the one that matters most: it runs
//! Codex *without* `--dangerously-bypass-hook-trust`, so the hook fires only if the trust hash
//! hookgate computed is the one Codex computes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hookgate_init::{AgentHomes, AgentKind, InitOptions, Scope, Target, apply, plan_install};

/// `shared/e2e` beside the repository (as CI checks it out).
fn e2e_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/e2e")
}

/// The CLIs: `$<NAME>_BIN`, else where the `hookgate` crate's e2e tests install them
/// (`$HOOKGATE_E2E_CLI_DIR`, else `target/e2e-cli`), else `/tmp/e2e-cli`.
fn cli(var: &str, name: &str) -> Option<PathBuf> {
    let installed = std::env::var_os("HOOKGATE_E2E_CLI_DIR")
        .map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-cli"),
            PathBuf::from,
        )
        .join("node_modules/.bin")
        .join(name);
    let path = std::env::var_os(var).map_or_else(
        || {
            if installed.is_file() {
                installed.clone()
            } else {
                PathBuf::from(format!("/tmp/e2e-cli/node_modules/.bin/{name}"))
            }
        },
        PathBuf::from,
    );
    let kit = e2e_dir().join("mock_llm.py").is_file();
    if path.is_file() && kit {
        return Some(path);
    }
    let why = format!(
        "{name} CLI ({}) or {} not found",
        path.display(),
        e2e_dir().display()
    );
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    assert!(!ci, "cannot run under CI: {why}");
    eprintln!("skipped: {why}");
    None
}

/// A fake hookgate that appends `argv | payload event` to `calls.log` beside itself.
fn fake_hookgate(dir: &Path) -> PathBuf {
    let bin = dir.join("bin/hookgate");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::write(
        &bin,
        "#!/bin/sh\npayload=$(cat)\nev=$(printf '%s' \"$payload\" | sed -n 's/.*\"hook_event_name\" *: *\"\\([A-Za-z]*\\)\".*/\\1/p')\nprintf '%s|%s\\n' \"$*\" \"$ev\" >> \"${0%/*}/calls.log\"\nexit 0\n",
    )
    .unwrap();
    chmod_x(&bin);
    bin
}

fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn calls(bin: &Path) -> String {
    std::fs::read_to_string(bin.parent().unwrap().join("calls.log")).unwrap_or_default()
}

fn install(agent: AgentKind, project: &Path, bin: &Path, homes: AgentHomes) {
    let mut opts = InitOptions::new(bin);
    opts.homes = homes;
    let target = Target {
        agent,
        scope: Scope::Project(project.to_path_buf()),
    };
    apply(&plan_install(&target, &opts).unwrap()).unwrap();
}

fn write_script(dir: &Path, tool: &str, input: &str) -> PathBuf {
    let script = dir.join("script.json");
    std::fs::write(
        &script,
        format!(r#"[{{"tool": "{tool}", "input": {input}}}, {{"text": "done"}}]"#),
    )
    .unwrap();
    script
}

fn run_runner(
    runner: &str,
    var: &str,
    bin: &Path,
    script: &Path,
    project: &Path,
    out: &Path,
    config: &Path,
) {
    let status = Command::new("bash")
        .arg(e2e_dir().join(runner))
        .arg(script)
        .arg(project)
        .env(var, bin)
        .env("E2E_OUT", out)
        .env("E2E_CONFIG_DIR", config)
        .env("E2E_TIMEOUT", "90")
        .stdin(Stdio::null())
        .status()
        .unwrap();
    eprintln!("{runner}: {status}");
}

#[test]
fn real_claude_runs_the_exec_form_hook() {
    let Some(claude) = cli("CLAUDE_BIN", "claude") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let project = root.join("proj");
    std::fs::create_dir_all(&project).unwrap();
    let bin = fake_hookgate(&root);
    install(AgentKind::Claude, &project, &bin, AgentHomes::default());
    let script = write_script(
        &root,
        "Bash",
        r#"{"command": "echo hello > out.txt", "description": "scripted"}"#,
    );
    run_runner(
        "run-claude.sh",
        "CLAUDE_BIN",
        &claude,
        &script,
        &project,
        &root.join("out"),
        &root.join("claude-config"),
    );
    let log = calls(&bin);
    assert!(log.contains("hook claude|PreToolUse"), "calls: {log}");
    assert!(log.contains("hook claude|SessionStart"), "calls: {log}");
    assert!(project.join("out.txt").is_file(), "the benign command ran");
}

#[test]
fn real_gemini_runs_the_hook_with_millisecond_timeouts() {
    let Some(gemini) = cli("GEMINI_BIN", "gemini") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let project = root.join("proj");
    std::fs::create_dir_all(&project).unwrap();
    let bin = fake_hookgate(&root);
    install(AgentKind::Gemini, &project, &bin, AgentHomes::default());
    let script = write_script(
        &root,
        "run_shell_command",
        r#"{"command": "echo hello > out.txt", "description": "scripted"}"#,
    );
    run_runner(
        "run-gemini.sh",
        "GEMINI_BIN",
        &gemini,
        &script,
        &project,
        &root.join("out"),
        &root.join("gemini-home"),
    );
    let log = calls(&bin);
    assert!(log.contains("hook gemini|BeforeTool"), "calls: {log}");
    assert!(log.contains("hook gemini|AfterTool"), "calls: {log}");
}

/// Codex, run directly (its runner bypasses hook trust): the hook fires only if the trust entry
/// hookgate wrote carries the hash Codex computes.
#[test]
fn real_codex_runs_the_hook_trusted_by_hash() {
    let Some(codex) = cli("CODEX_BIN", "codex") else {
        return;
    };
    let (log, stderr) = run_codex(&codex, false);
    assert!(
        log.contains("hook codex|PreToolUse"),
        "Codex did not run the trusted PreToolUse hook.\ncalls: {log}\ncodex stderr:\n{stderr}"
    );
    assert!(log.contains("hook codex|SessionStart"), "calls: {log}");
    assert!(log.contains("hook codex|UserPromptSubmit"), "calls: {log}");
}

/// The control: with every trusted hash altered by one digit, the same Codex runs no hook at all,
/// so the test above proves the hash, not a Codex that ignores trust.
#[test]
fn real_codex_skips_hooks_whose_trust_hash_differs() {
    let Some(codex) = cli("CODEX_BIN", "codex") else {
        return;
    };
    let (log, _) = run_codex(&codex, true);
    assert_eq!(log, "", "Codex ran hooks whose trust hash was wrong");
}

fn run_codex(codex: &Path, corrupt_trust: bool) -> (String, String) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let project = root.join("proj");
    let codex_home = root.join("codex-home");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&codex_home).unwrap();
    // Project trust is the user's decision, not init's: the test takes it.
    std::fs::write(
        codex_home.join("config.toml"),
        format!(
            "[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            project.display()
        ),
    )
    .unwrap();
    let bin = fake_hookgate(&root);
    install(
        AgentKind::Codex,
        &project,
        &bin,
        AgentHomes {
            codex_home: Some(codex_home.clone()),
            ..AgentHomes::default()
        },
    );
    if corrupt_trust {
        let config = codex_home.join("config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        // Flip the first hex digit of every hash: same shape, different value.
        let flipped: String = text
            .lines()
            .map(|line| match line.strip_prefix("trusted_hash = \"sha256:") {
                Some(rest) => {
                    let first = if rest.starts_with('0') { '1' } else { '0' };
                    format!("trusted_hash = \"sha256:{first}{}\n", &rest[1..])
                }
                None => format!("{line}\n"),
            })
            .collect();
        assert_eq!(flipped.matches("trusted_hash").count(), 8, "{flipped}");
        std::fs::write(&config, flipped).unwrap();
    }
    let script = write_script(&root, "exec_command", r#"{"cmd": "echo hello > out.txt"}"#);
    let port_file = root.join("mock.port");
    let mut mock = Command::new(&python)
        .arg(e2e_dir().join("mock_llm.py"))
        .args(["--script"])
        .arg(&script)
        .arg("--log")
        .arg(root.join("requests.jsonl"))
        .args(["--port", "0", "--max-seconds", "120", "--port-file"])
        .arg(&port_file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut port = String::new();
    for _ in 0..200 {
        port = std::fs::read_to_string(&port_file).unwrap_or_default();
        if !port.trim().is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    let port = port.trim().to_owned();
    let output = Command::new("timeout")
        .args(["-k", "5", "90"])
        .arg(codex)
        .args(["exec", "--skip-git-repo-check"])
        .args([
            "-c",
            "model=\"mock-model\"",
            "-c",
            "model_provider=\"e2e_mock\"",
        ])
        .args(["-c", "model_providers.e2e_mock.name=\"e2e-mock\""])
        .arg("-c")
        .arg(format!(
            "model_providers.e2e_mock.base_url=\"http://127.0.0.1:{port}/v1\""
        ))
        .args([
            "-c",
            "model_providers.e2e_mock.env_key=\"E2E_MOCK_API_KEY\"",
        ])
        .args(["-c", "model_providers.e2e_mock.wire_api=\"responses\""])
        .args([
            "-c",
            "check_for_update_on_startup=false",
            "-c",
            "analytics.enabled=false",
        ])
        .args([
            "-c",
            "features.plugins=false",
            "-c",
            "features.remote_plugin=false",
        ])
        .args(["-c", "features.apps=false"])
        .arg("Run the scripted task.")
        .current_dir(&project)
        .env("CODEX_HOME", &codex_home)
        .env("E2E_MOCK_API_KEY", "sk-e2e-mock")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let _ = mock.kill();
    let _ = mock.wait();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (calls(&bin), stderr)
}
