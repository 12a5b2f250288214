//! `hookgate policy check` and `policy test` as a person reads them, through the binary: the
//! files loaded, rules in words (no Rust `Debug` spelling), and failures that say why.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::Path;
use std::process::{Command, Output};

fn hookgate(args: &[&str], cwd: &Path, config: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .args(args)
        .current_dir(cwd)
        .env("HOOKGATE_CONFIG_DIR", config)
        .env("HOOKGATE_HOME", config.join("store"))
        .output()
        .unwrap()
}

/// A temporary project (`p/`, a repository) and user config dir (`cfg/`) holding `policy` as
/// the user's policy file.
fn project_with_user_policy(
    policy: &str,
) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (project, config) = (dir.path().join("p"), dir.path().join("cfg"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("policy.yaml"), policy).unwrap();
    (dir, project, config)
}

/// `policy test` of a cases file (`cases`, after its `workspace:` line) against `policy` as
/// the user's policy.
fn policy_test(policy: &str, cases: &str) -> Output {
    let (dir, project, config) = project_with_user_policy(policy);
    let file = dir.path().join("cases.yaml");
    std::fs::write(&file, format!("workspace: {}\n{cases}", project.display())).unwrap();
    hookgate(
        &["policy", "test", file.to_str().unwrap()],
        &project,
        &config,
    )
}

const POLICY: &str = "rules:
  - id: no-curl
    command: 'curl *'
    effect: deny
    reason: no network from agents
  - {id: deploys, tool: Bash, command: [make deploy, make release], effect: ask, mode: monitor}
";

#[test]
fn policy_check_lists_the_files_it_loaded_and_rules_in_words() {
    let (_dir, project, config) = project_with_user_policy(POLICY);
    let out = hookgate(&["policy", "check"], &project, &config);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let user_policy = config.join("policy.yaml");
    assert!(
        text.contains(&format!("  {} (applied)", user_policy.display())),
        "{text}"
    );
    assert!(text.contains("mode: enforce\n"), "{text}");
    assert!(
        text.contains("protected_branches: [main, master]\n"),
        "{text}"
    );
    assert!(text.contains("\n  destructive-shell: on\n"), "{text}");
    assert!(
        text.contains(
            "  rule no-curl: deny when command matches `curl *`; reason: no network from agents ("
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  rule deploys: ask when tool is `Bash` and command matches `make deploy` or `make release`; mode monitor ("
        ),
        "{text}"
    );
    // No Rust Debug spelling anywhere: no `Some(`, no quoted list items, no CamelCase variants.
    for debug in ["Some(", "None", "[\"", "Enforce", "Deny", ": On"] {
        assert!(!text.contains(debug), "`{debug}` in\n{text}");
    }
    // Without any policy file the default is named as such.
    std::fs::remove_file(&user_policy).unwrap();
    let out = hookgate(&["policy", "check"], &project, &config);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("policy files: none (the built-in default policy)\n"),
        "{text}"
    );
}

#[test]
fn policy_test_failure_lines_say_why() {
    let out = policy_test(
        POLICY,
        "home: /home/user\ncases:\n  - {name: wiping the disk is fine, command: 'rm -rf /', expect: none}\n  - {name: ls, command: ls, expect: none}\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    let fail = text
        .lines()
        .find(|l| l.starts_with("FAIL"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        fail.contains("wiping the disk is fine (expected no opinion, got deny)"),
        "{fail}"
    );
    assert!(
        fail.contains("; reason: ") && fail.contains("destructive-shell"),
        "{fail}"
    );
    let ok = text.lines().find(|l| l.contains(" ls ")).unwrap();
    assert!(!ok.contains("reason:"), "{ok}");
}

/// A project policy whose rule id, reason and patterns carry escape sequences.
const HOSTILE: &str = "rules:
  - id: \"x\\e]0;pwned\\a\"
    command: \"curl\\e[2J\"
    effect: deny
    reason: \"fine\\e[2K\\rok\\nfake line\"
";

fn assert_no_raw_escapes(out: &Output) {
    for stream in [&out.stdout, &out.stderr] {
        assert!(
            !stream.contains(&0x1b) && !stream.contains(&0x07) && !stream.contains(&b'\r'),
            "raw control characters in {:?}",
            String::from_utf8_lossy(stream)
        );
    }
}

#[test]
fn policy_check_escapes_what_a_policy_file_supplies() {
    let (_dir, project, config) = project_with_user_policy(HOSTILE);
    let out = hookgate(&["policy", "check"], &project, &config);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_no_raw_escapes(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rule x\\e]0;pwned\\x07: deny"), "{text}");
    assert!(
        text.contains("reason: fine\\e[2K\\rok\\nfake line"),
        "a line break in a reason is shown, not obeyed: {text}"
    );
    assert!(!text.lines().any(|l| l.starts_with("fake line")), "{text}");
}

#[test]
fn policy_test_escapes_case_names_and_reasons() {
    let out = policy_test(
        HOSTILE,
        "cases:\n  - {name: \"curl\\e[31m is fine\", command: 'rm -rf /', expect: none}\n",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_no_raw_escapes(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("curl\\e[31m is fine"), "{text}");
}
