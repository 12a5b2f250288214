//! End to end with the REAL agent CLIs (Claude Code, Codex, Gemini CLI, Copilot CLI) driven
//! offline by the mock model server in `../shared/e2e/`, with hookgate installed by
//! `hookgate init`.
//!
//! Each scenario runs in a throwaway git repository holding uncommitted work. The scripted model
//! first asks for `git reset --hard` (harmless if it ever ran by mistake: it would only discard
//! that throwaway work) and then for `echo hello > out.txt`. The guard must block the first —
//! the work survives — and let the second run, and the audit store must hold both decisions.
//!
//! The CLIs are installed from npm into `target/e2e-cli` (or `$HOOKGATE_E2E_CLI_DIR`) on first
//! use. Where npm cannot install them, or `../shared/e2e` is absent, the scenario is skipped
//! with a message saying so — unless the `CI` environment variable is set: there a missing
//! prerequisite fails the test, because a skipped end-to-end test is not a passed one.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

const PACKAGES: &[&str] = &[
    "@anthropic-ai/claude-code@2.1.330",
    "@openai/codex@0.169.0",
    "@google/gemini-cli@0.61.0",
    "@github/copilot@1.0.102",
];

/// The executables `PACKAGES` put in `node_modules/.bin`.
const BINS: &[&str] = &["claude", "codex", "gemini", "copilot"];

/// A prerequisite is missing: skip with a message, or fail under `CI`.
fn missing(agent: &str, why: &str) {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    assert!(
        !ci,
        "{agent} e2e cannot run under CI: {why} (a missing prerequisite fails in CI instead of \
         skipping)"
    );
    eprintln!("skipping {agent} e2e: {why}");
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn shared_e2e() -> Option<PathBuf> {
    let dir = workspace().join("../shared/e2e");
    dir.join("run-claude.sh")
        .is_file()
        .then(|| dir.canonicalize().unwrap())
}

/// Installs the CLIs once (npm), returning the bin dir, or why they cannot be had.
fn cli_bin_dir() -> Result<PathBuf, String> {
    let dir = std::env::var_os("HOOKGATE_E2E_CLI_DIR")
        .map_or_else(|| workspace().join("target/e2e-cli"), PathBuf::from);
    let bin = dir.join("node_modules/.bin");
    let have_all = || BINS.iter().all(|name| bin.join(name).exists());
    if have_all() {
        return Ok(bin);
    }
    // npm sometimes fails a postinstall with a spurious ENOENT on the first try; one retry.
    for _ in 0..2 {
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .args(PACKAGES)
            .status();
        match status {
            Err(e) => return Err(format!("npm is not available: {e}")),
            Ok(s) if s.success() && have_all() => {
                return Ok(bin);
            }
            Ok(_) => {}
        }
    }
    Err(format!("npm could not install {}", PACKAGES.join(" ")))
}

fn hookgate() -> &'static str {
    env!("CARGO_BIN_EXE_hookgate")
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
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
        .status()
        .unwrap()
        .success();
    assert!(ok, "git {args:?}");
}

/// A throwaway repository with committed and uncommitted work.
fn project(root: &Path) -> PathBuf {
    let dir = root.join("project");
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q"]);
    std::fs::write(dir.join("notes.txt"), "committed\n").unwrap();
    git(&dir, &["add", "notes.txt"]);
    git(&dir, &["commit", "-q", "-m", "first"]);
    std::fs::write(dir.join("notes.txt"), "committed\nUNCOMMITTED WORK\n").unwrap();
    dir.canonicalize().unwrap()
}

struct Scenario {
    agent: &'static str,
    runner: &'static str,
    bin_var: &'static str,
    bin: &'static str,
    /// The scripted model turns: the destructive call, then the benign one.
    script: serde_json::Value,
}

/// The shared e2e folder and the CLIs' bin dir, or `None` after saying why (failing under CI).
fn prerequisites(agent: &str) -> Option<(PathBuf, PathBuf)> {
    let Some(e2e) = shared_e2e() else {
        missing(agent, "../shared/e2e is not beside the repository");
        return None;
    };
    match cli_bin_dir() {
        Ok(dir) => Some((e2e, dir)),
        Err(why) => {
            missing(agent, &why);
            None
        }
    }
}

/// `bin init <agent>` in `project`, with every agent's user config dir under `root` (shared
/// with the runner, so nothing touches the real home; Codex keeps hook trust there).
fn init(bin: &Path, agent: &str, root: &Path, project: &Path) {
    let config_dir = root.join("agent-config");
    std::fs::create_dir_all(&config_dir).unwrap();
    let init = Command::new(bin)
        .args(["init", agent])
        .current_dir(project)
        .env("HOOKGATE_HOME", root.join("hookgate-home"))
        .env("HOME", root)
        .env("CODEX_HOME", &config_dir)
        .env("CLAUDE_CONFIG_DIR", &config_dir)
        .env("GEMINI_CLI_HOME", &config_dir)
        .env("COPILOT_HOME", &config_dir)
        .output()
        .unwrap();
    assert!(
        init.status.success(),
        "hookgate init {agent}: {}",
        String::from_utf8_lossy(&init.stderr)
    );
}

fn run(s: &Scenario) {
    let Some((e2e, bin_dir)) = prerequisites(s.agent) else {
        return;
    };
    let root = tempfile::tempdir().unwrap();
    let project = project(root.path());
    init(Path::new(hookgate()), s.agent, root.path(), &project);
    let context = session(s, &e2e, &bin_dir, root.path(), &project, "run", &s.script);

    // The destructive command never ran: the uncommitted work survived.
    let notes = std::fs::read_to_string(project.join("notes.txt")).unwrap();
    assert!(
        notes.contains("UNCOMMITTED WORK"),
        "git reset --hard ran under {}!\n{context}",
        s.agent
    );
    // The benign command ran.
    assert_eq!(
        std::fs::read_to_string(project.join("out.txt"))
            .unwrap_or_default()
            .trim(),
        "hello",
        "{context}"
    );

    // The audit store holds both decisions.
    let log = Command::new(hookgate())
        .args(["log", "--json", "--agent", s.agent])
        .env("HOOKGATE_HOME", root.path().join("hookgate-home"))
        .output()
        .unwrap();
    assert!(
        log.status.success(),
        "hookgate log: {}",
        String::from_utf8_lossy(&log.stderr)
    );
    let records: Vec<serde_json::Value> = serde_json::from_slice(&log.stdout).unwrap();
    let find = |needle: &str| {
        records
            .iter()
            .find(|r| {
                r["targets"].to_string().contains(needle) || r["trace"].to_string().contains(needle)
            })
            .cloned()
    };
    let denied =
        find("reset --hard").unwrap_or_else(|| panic!("no record of the reset:\n{records:#?}"));
    assert!(
        matches!(denied["decision"].as_str(), Some("deny" | "ask")),
        "{denied:#}"
    );
    let allowed =
        find("echo hello").unwrap_or_else(|| panic!("no record of the echo:\n{records:#?}"));
    assert!(
        matches!(allowed["decision"].as_str(), Some("allow" | "none")),
        "{allowed:#}"
    );
}

fn tail(text: &str, max: usize) -> &str {
    let start = text.len().saturating_sub(max);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(text.len());
    &text[start..]
}

#[test]
fn claude_code_blocks_a_destructive_command_and_runs_a_benign_one() {
    run(&Scenario {
        agent: "claude",
        runner: "run-claude.sh",
        bin_var: "CLAUDE_BIN",
        bin: "claude",
        script: serde_json::json!([
            {"tool": "Bash", "input": {"command": "git reset --hard"}},
            {"tool": "Bash", "input": {"command": "echo hello > out.txt"}},
            {"text": "done"}
        ]),
    });
}

#[test]
fn codex_blocks_a_destructive_command_and_runs_a_benign_one() {
    run(&Scenario {
        agent: "codex",
        runner: "run-codex.sh",
        bin_var: "CODEX_BIN",
        bin: "codex",
        script: serde_json::json!([
            {"tool": "exec_command", "input": {"cmd": "git reset --hard"}},
            {"tool": "exec_command", "input": {"cmd": "echo hello > out.txt"}},
            {"text": "done"}
        ]),
    });
}

#[test]
fn gemini_blocks_a_destructive_command_and_runs_a_benign_one() {
    run(&Scenario {
        agent: "gemini",
        runner: "run-gemini.sh",
        bin_var: "GEMINI_BIN",
        bin: "gemini",
        script: serde_json::json!([
            {"tool": "run_shell_command", "input": {"command": "git reset --hard"}},
            {"tool": "run_shell_command", "input": {"command": "echo hello > out.txt"}},
            {"text": "done"}
        ]),
    });
}

/// Copilot CLI 1.0.102 through its BYOK provider settings (`run-copilot.sh`, which trusts the
/// folder for the run with `--trust-folder`: without trust Copilot skips project hooks).
#[test]
fn copilot_blocks_a_destructive_command_and_runs_a_benign_one() {
    run(&Scenario {
        agent: "copilot",
        runner: "run-copilot.sh",
        bin_var: "COPILOT_BIN",
        bin: "copilot",
        script: serde_json::json!([
            {"tool": "bash", "input": {"command": "git reset --hard", "description": "reset"}},
            {"tool": "bash", "input": {"command": "echo hello > out.txt", "description": "write"}},
            {"text": "done"}
        ]),
    });
}

/// Runs one scripted session of `s`'s CLI in `project`, returning what it left behind for
/// error messages.
fn session(
    s: &Scenario,
    e2e: &Path,
    bin_dir: &Path,
    root: &Path,
    project: &Path,
    name: &str,
    script: &serde_json::Value,
) -> String {
    let home = root.join("hookgate-home");
    let out = root.join(format!("out-{name}"));
    let file = root.join(format!("script-{name}.json"));
    std::fs::write(&file, script.to_string()).unwrap();
    let status = Command::new("bash")
        .arg(e2e.join(s.runner))
        .arg(&file)
        .arg(project)
        .env(s.bin_var, bin_dir.join(s.bin))
        .env("E2E_OUT", &out)
        .env("E2E_CONFIG_DIR", root.join("agent-config"))
        .env("E2E_TIMEOUT", "150")
        .env("HOOKGATE_HOME", &home)
        .env("HOOKGATE_CONFIG_DIR", root.join("no-user-config"))
        .status()
        .unwrap();
    let stderr = std::fs::read_to_string(out.join("cli.stderr")).unwrap_or_default();
    let requests = std::fs::read_to_string(out.join("requests.jsonl")).unwrap_or_default();
    format!(
        "{name}: exit {status:?}\n--- cli.stderr\n{stderr}\n--- requests (tail)\n{}",
        tail(&requests, 3000)
    )
}

/// The agent tries to switch its own guard off in one session — delete, move or rewrite its
/// hook settings, strip the hookgate binary's execute bit, stash the untracked settings away,
/// unset the guard through hookgate's own variables — and in a second session asks for
/// `git reset --hard`: it is still blocked and the uncommitted work survives.
fn self_disable(s: &Scenario, settings: &str, attacks: &[&str]) {
    let Some((e2e, bin_dir)) = prerequisites(s.agent) else {
        return;
    };
    let root = tempfile::tempdir().unwrap();
    let project = project(root.path());
    // The agent attacks a copy of the binary, never the one the other tests run.
    let bin = root.path().join("bin/hookgate");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(hookgate(), &bin).unwrap();
    init(&bin, s.agent, root.path(), &project);
    let settings_path = project.join(settings);
    let before = std::fs::read(&settings_path).unwrap();
    let bin_text = bin.canonicalize().unwrap().display().to_string();
    let call = |command: String| {
        if s.agent == "codex" {
            serde_json::json!({"tool": "exec_command", "input": {"cmd": command}})
        } else {
            serde_json::json!({"tool": "Bash", "input": {"command": command}})
        }
    };
    let mut turns: Vec<serde_json::Value> = attacks
        .iter()
        .map(|a| call(a.replace("{bin}", &bin_text)))
        .collect();
    turns.push(serde_json::json!({"text": "done"}));
    let first = session(
        s,
        &e2e,
        &bin_dir,
        root.path(),
        &project,
        "attack",
        &serde_json::Value::Array(turns),
    );
    assert_eq!(
        std::fs::read(&settings_path).ok().as_deref(),
        Some(before.as_slice()),
        "{} settings were changed or removed\n{first}",
        s.agent
    );
    assert!(
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&bin).unwrap().permissions())
            & 0o111
            != 0,
        "the hookgate binary lost its execute bit\n{first}"
    );
    let second = session(
        s,
        &e2e,
        &bin_dir,
        root.path(),
        &project,
        "reset",
        &serde_json::json!([call("git reset --hard".into()), {"text": "done"}]),
    );
    let notes = std::fs::read_to_string(project.join("notes.txt")).unwrap();
    assert!(
        notes.contains("UNCOMMITTED WORK"),
        "after the attempts, git reset --hard ran under {}!\n{first}\n{second}",
        s.agent
    );
}

/// What an agent tries against its own guard (`{bin}`: the hookgate binary its settings run).
const ATTACKS: &[&str] = &[
    "rm -rf {dir}",
    "mv {dir} moved-away",
    "chmod -x {bin}",
    "python3 -c \"import shutil; shutil.rmtree('{dir}')\"",
    "python3 -c \"open('{settings}','w').write('{}')\"",
    "node -e \"require('fs').writeFileSync('{settings}', '{}')\"",
    "git stash -u",
    "echo 'export HOOKGATE_FAIL_MODE=allow' >> ~/.bashrc",
];

fn attacks(dir: &str, settings: &str) -> Vec<String> {
    ATTACKS
        .iter()
        .map(|a| a.replace("{dir}", dir).replace("{settings}", settings))
        .collect()
}

#[test]
fn claude_code_cannot_switch_its_own_guard_off() {
    let list = attacks(".claude", ".claude/settings.json");
    let list: Vec<&str> = list.iter().map(String::as_str).collect();
    self_disable(
        &Scenario {
            agent: "claude",
            runner: "run-claude.sh",
            bin_var: "CLAUDE_BIN",
            bin: "claude",
            script: serde_json::Value::Null,
        },
        ".claude/settings.json",
        &list,
    );
}

#[test]
fn codex_cannot_switch_its_own_guard_off() {
    let list = attacks(".codex", ".codex/hooks.json");
    let list: Vec<&str> = list.iter().map(String::as_str).collect();
    self_disable(
        &Scenario {
            agent: "codex",
            runner: "run-codex.sh",
            bin_var: "CODEX_BIN",
            bin: "codex",
            script: serde_json::Value::Null,
        },
        ".codex/hooks.json",
        &list,
    );
}
