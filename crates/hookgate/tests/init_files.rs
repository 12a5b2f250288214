//! `hookgate init` through the binary: the files it edits keep the user's comments and
//! formatting, `--remove` gives back their exact bytes, and a binary path that will not last is
//! warned about.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A project and a home in a temp dir; no agent relocation variable leaks in.
struct World {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl World {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (project, home) = (root.join("proj"), root.join("home"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Self {
            _tmp: tmp,
            project,
            home,
        }
    }

    fn run_with(&self, bin: &Path, args: &[&str]) -> Output {
        Command::new(bin)
            .args(args)
            .arg("--project")
            .arg(&self.project)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("HOOKGATE_HOME", self.home.join(".hookgate-store"))
            .env("HOOKGATE_CONFIG_DIR", self.home.join(".config/hookgate"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("GEMINI_CLI_HOME")
            .env_remove("COPILOT_HOME")
            .output()
            .unwrap()
    }

    fn init(&self, args: &[&str]) -> Output {
        let out = self.run_with(Path::new(env!("CARGO_BIN_EXE_hookgate")), args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Each agent's files as a user may have them: comments, odd indentation, a foreign hook.
fn user_files(w: &World, agent: &str) -> Vec<(PathBuf, String)> {
    let p = &w.project;
    match agent {
        "claude" => vec![(
            p.join(".claude/settings.json"),
            "{\n    // the team's permissions\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n    \"hooks\": {\n        \"PreToolUse\": [\n            /* lint on edit */\n            {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}\n        ]\n    }\n}\n"
                .to_owned(),
        )],
        "codex" => vec![
            (
                p.join(".codex/hooks.json"),
                "{\n  // ours\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify\"}]}]\n  }\n}"
                    .to_owned(),
            ),
            (
                w.home.join(".codex/config.toml"),
                "# my codex\nmodel = \"o3\"   # the good one\n\n[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n"
                    .to_owned(),
            ),
        ],
        "gemini" => vec![(
            p.join(".gemini/settings.json"),
            "// Gemini settings\n{\n\t\"theme\": \"GitHub\", // dark is too dark\n\t/* hooks we like */\n\t\"hooks\": {\n\t\t\"BeforeTool\": [\n\t\t\t{ \"matcher\": \"write_file\", \"hooks\": [ { \"name\": \"fmt\", \"type\": \"command\", \"command\": \"fmt\" } ] },\n\t\t],\n\t},\n}\n"
                .to_owned(),
        )],
        "copilot" => vec![(
            p.join(".github/hooks/hookgate.json"),
            "{\n  \"version\": 1, // schema\n  \"hooks\": {\n    \"sessionStart\": [\n      {\"type\": \"command\", \"bash\": \"echo hi\"}\n    ]\n  }\n}\n"
                .to_owned(),
        )],
        "cursor" => vec![(
            p.join(".cursor/hooks.json"),
            "// cursor hooks\n{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [{\"command\": \"./audit.sh\"}] // audit\n  }\n}"
                .to_owned(),
        )],
        _ => unreachable!(),
    }
}

#[test]
fn init_then_remove_restores_identical_bytes_for_every_agent_with_comments_present() {
    for agent in ["claude", "codex", "gemini", "copilot", "cursor"] {
        let w = World::new();
        let files = user_files(&w, agent);
        for (path, text) in &files {
            write(path, text);
        }
        w.init(&["init", agent]);
        for (path, text) in &files {
            let installed = std::fs::read_to_string(path).unwrap();
            assert_ne!(&installed, text, "{agent}: {} unchanged", path.display());
            // Every comment the user wrote is still there, verbatim.
            for line in text.lines() {
                let start = ["//", "/*", "#"].iter().filter_map(|m| line.find(m)).min();
                if let Some(at) = start {
                    let comment = &line[at..];
                    assert!(
                        installed.contains(comment),
                        "{agent}: lost `{comment}` in\n{installed}"
                    );
                }
            }
        }
        // A second install changes nothing.
        let again = w.init(&["init", agent]);
        assert!(
            String::from_utf8_lossy(&again.stdout).contains("already up to date"),
            "{agent}"
        );
        w.init(&["init", agent, "--remove"]);
        for (path, text) in &files {
            assert_eq!(
                &std::fs::read_to_string(path).unwrap(),
                text,
                "{agent}: {} not restored byte for byte",
                path.display()
            );
        }
    }
}

#[test]
fn gemini_settings_keep_comments_and_gain_working_hooks() {
    let w = World::new();
    let (path, text) = user_files(&w, "gemini").remove(0);
    write(&path, &text);
    w.init(&["init", "gemini"]);
    let installed = std::fs::read_to_string(&path).unwrap();
    assert!(installed.starts_with(
        "// Gemini settings\n{\n\t\"theme\": \"GitHub\", // dark is too dark\n\t/* hooks we like */"
    ));
    // The doctor reads the commented file back and finds every event registered.
    let out = Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .args(["doctor", "gemini", "--json"])
        .current_dir(&w.project)
        .env("HOME", &w.home)
        .env("HOOKGATE_HOME", w.home.join(".hookgate-store"))
        .env("HOOKGATE_CONFIG_DIR", w.home.join(".config/hookgate"))
        .env_remove("GEMINI_CLI_HOME")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let checks = report[0]["checks"].as_array().unwrap();
    let entries = checks.iter().find(|c| c["name"] == "entries").unwrap();
    assert_eq!(entries["ok"], true, "{entries}");
    assert!(
        entries["detail"].as_str().unwrap().starts_with("7 events"),
        "{entries}"
    );
}

#[test]
fn init_warns_when_the_binary_is_inside_a_build_directory() {
    let w = World::new();
    // A build directory of our own: whether cargo's target/ holds a CACHEDIR.TAG depends on who
    // created it (a CI cache or a CARGO_TARGET_DIR may not), so the test must not rely on it.
    let build = tempfile::tempdir().unwrap();
    std::fs::write(
        build.path().join("CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    )
    .unwrap();
    std::fs::create_dir(build.path().join("release")).unwrap();
    let bin = build.path().join("release/hookgate");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_hookgate"), &bin).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_hookgate"), &bin).unwrap();
    }
    let out = w.run_with(&bin, &["init", "claude"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning:") && stderr.contains("build directory"),
        "{stderr}"
    );
}

#[test]
fn init_warns_when_the_binary_is_inside_a_temporary_directory() {
    let w = World::new();
    let bin_dir = tempfile::tempdir().unwrap();
    let bin = bin_dir.path().join("hookgate");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_hookgate"), &bin).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_hookgate"), &bin).unwrap();
    }
    let out = w.run_with(&bin, &["init", "claude"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("temporary directory"), "{stderr}");
}
