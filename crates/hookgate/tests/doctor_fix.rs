//! `hookgate doctor` through the binary: it finds user-level installs, and `--fix` writes the
//! trust Codex and Copilot need (showing the diff), keeping the files' comments.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

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

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_hookgate"))
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("HOOKGATE_HOME", self.home.join("store"))
            .env("HOOKGATE_CONFIG_DIR", self.home.join("cfg"))
            .env_remove("HOOKGATE_STORE")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("GEMINI_CLI_HOME")
            .env_remove("COPILOT_HOME")
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

/// The named check of the section for `agent` in `scope`.
fn check(report: &[Value], agent: &str, scope: &str, name: &str) -> (bool, String) {
    let section = report
        .iter()
        .find(|r| r["agent"] == agent && r["scope"] == scope)
        .unwrap_or_else(|| panic!("no {agent} ({scope}) in {report:?}"));
    let c = section["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {section}"));
    (
        c["ok"].as_bool().unwrap(),
        c["detail"].as_str().unwrap().to_owned(),
    )
}

fn report(out: &Output) -> Vec<Value> {
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn doctor_fix_trusts_the_codex_project_and_shows_the_diff() {
    let w = World::new();
    let toml = w.home.join(".codex/config.toml");
    std::fs::create_dir_all(toml.parent().unwrap()).unwrap();
    std::fs::write(&toml, "# my settings\nmodel = \"o3\" # keep\n").unwrap();
    w.ok(&["init", "codex"]);
    let before = w.run(&["doctor", "codex", "--json"]);
    assert_eq!(before.status.code(), Some(1));
    let (ok, detail) = check(&report(&before), "codex", "project", "codex project trust");
    assert!(!ok && detail.contains("doctor codex --fix"), "{detail}");

    let fixed = w.ok(&["doctor", "codex", "--fix"]);
    assert!(fixed.contains("fixed codex (project) trust:"), "{fixed}");
    let key = format!("+[projects.\"{}\"]", w.project.display());
    assert!(
        fixed.contains(&key),
        "the diff shows the new table:\n{fixed}"
    );
    assert!(fixed.contains("+trust_level = \"trusted\""), "{fixed}");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(
        text.starts_with("# my settings\nmodel = \"o3\" # keep\n"),
        "{text}"
    );

    let after = w.run(&["doctor", "codex", "--json"]);
    let (ok, detail) = check(&report(&after), "codex", "project", "codex project trust");
    assert!(ok, "{detail}");
    assert!(check(&report(&after), "codex", "project", "codex trust").0);
    // Nothing left to fix: a second --fix changes nothing.
    let again = w.ok(&["doctor", "codex", "--fix"]);
    assert!(!again.contains("fixed codex"), "{again}");
}

#[test]
fn doctor_fix_adds_the_folder_to_copilot_trusted_folders_keeping_its_header() {
    let w = World::new();
    let config = w.home.join(".copilot/config.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    let original = "// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    \"/elsewhere\"\n  ],\n  \"firstLaunchAt\": \"2026-11-24T23:57:05.912Z\"\n}\n";
    std::fs::write(&config, original).unwrap();
    w.ok(&["init", "copilot"]);
    let before = w.run(&["doctor", "copilot", "--json"]);
    let (ok, detail) = check(
        &report(&before),
        "copilot",
        "project",
        "copilot folder trust",
    );
    assert!(!ok && detail.contains("--fix"), "{detail}");

    let fixed = w.ok(&["doctor", "copilot", "--fix"]);
    assert!(
        fixed.contains(&format!("+    \"{}\"", w.project.display())),
        "{fixed}"
    );
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.starts_with("// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    \"/elsewhere\",\n"),
        "{text}"
    );
    assert!(text.contains("\"firstLaunchAt\""), "{text}");
    let after = w.run(&["doctor", "copilot", "--json"]);
    assert!(
        check(
            &report(&after),
            "copilot",
            "project",
            "copilot folder trust"
        )
        .0
    );
}

#[test]
fn doctor_finds_a_global_install_from_any_project() {
    let w = World::new();
    w.ok(&["init", "claude", "--global"]);
    let out = w.run(&["doctor", "--json"]);
    let r = report(&out);
    let (ok, detail) = check(&r, "claude", "global", "entries");
    assert!(ok, "{detail}");
    assert!(
        !r.iter().any(|s| s["scope"] == "project"),
        "no project config exists: {r:?}"
    );
    let text = w.run(&["doctor"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("claude (global):"));
    // A user-level settings file without hookgate in it is not reported as an install.
    let w = World::new();
    let settings = w.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\"theme\": \"dark\"}\n").unwrap();
    let r = report(&w.run(&["doctor", "--json"]));
    assert!(!r.iter().any(|s| s["agent"] == "claude"), "{r:?}");
}

#[test]
fn doctor_global_flag_checks_only_user_level_configs() {
    let w = World::new();
    w.ok(&["init", "gemini"]);
    w.ok(&["init", "gemini", "--global"]);
    let r = report(&w.run(&["doctor", "--global", "--json"]));
    assert!(
        r.iter()
            .any(|s| s["agent"] == "gemini" && s["scope"] == "global")
    );
    assert!(!r.iter().any(|s| s["scope"] == "project"), "{r:?}");
}
