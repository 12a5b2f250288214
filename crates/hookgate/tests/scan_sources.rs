//! `hookgate scan-secrets` over directories and the git index, through the binary, with real
//! files and a real git repository.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::git;

const SECRET: &str = "aws_access_key_id = AKIAZ7XQ3JH2LMN4PQRS\n";

fn scan(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .arg("scan-secrets")
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn json(out: &Output) -> Vec<serde_json::Value> {
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_directory_is_scanned_recursively_and_each_finding_names_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join("src/deep/config.py"), format!("x = 1\n{SECRET}")).unwrap();
    std::fs::write(root.join("README.md"), "nothing here\n").unwrap();
    // git's own store is not the project's content.
    std::fs::write(root.join(".git/config"), SECRET).unwrap();
    let out = scan(&["--json", "."], root);
    assert_eq!(out.status.code(), Some(2));
    let found = json(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["path"], "./src/deep/config.py");
    assert_eq!(found[0]["line"], 2);
    assert_eq!(found[0]["family"], "cloud");
    let text = String::from_utf8_lossy(&scan(&["src", "README.md"], root).stdout).into_owned();
    assert!(
        text.starts_with("src/deep/config.py:2:21: aws-access-key-id (cloud): "),
        "{text}"
    );
    assert!(
        text.contains("1 secret(s) found in 2 file(s) scanned"),
        "{text}"
    );
}

#[test]
fn staged_scans_the_index_not_the_working_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    std::fs::write(root.join("clean.txt"), "hello\n").unwrap();
    git(root, &["add", "clean.txt"]);
    git(root, &["commit", "-q", "-m", "first"]);
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/keys.env"), SECRET).unwrap();
    git(root, &["add", "sub/keys.env"]);
    // Gone from the working tree, still in what would be committed.
    std::fs::remove_file(root.join("sub/keys.env")).unwrap();
    // In the working tree, not staged: not part of the commit.
    std::fs::write(root.join("clean.txt"), SECRET).unwrap();
    let out = scan(&["--staged", "--json"], &root.join("sub"));
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found = json(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["path"], "sub/keys.env");
    // Nothing staged that holds a secret: clean.
    git(root, &["reset", "-q"]);
    let clean = scan(&["--staged"], root);
    assert_eq!(clean.status.code(), Some(0));
}

#[test]
fn staged_outside_a_repository_is_an_error_not_a_clean_scan() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hookgate"))
        .args(["scan-secrets", "--staged"])
        .current_dir(dir.path())
        .env("GIT_CEILING_DIRECTORIES", dir.path().parent().unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a git repository"), "{err}");
    assert!(!err.contains("unknown option"), "{err}");
}

#[test]
fn file_names_are_escaped_for_the_terminal_in_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "x\u{1b}]0;pwned\u{7}\u{1b}[2J.env";
    std::fs::write(dir.path().join(hostile), SECRET).unwrap();
    let out = scan(&["."], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !out.stdout.contains(&0x1b) && !out.stdout.contains(&0x07),
        "raw escape sequence in {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("./x\\e]0;pwned\\x07\\e[2J.env:1:"), "{text}");
    // JSON keeps the exact name (JSON escapes it itself).
    let found = json(&scan(&["--json", "."], dir.path()));
    assert_eq!(found[0]["path"], format!("./{hostile}"));
}

#[test]
fn redact_refuses_several_inputs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), SECRET).unwrap();
    std::fs::write(dir.path().join("b"), SECRET).unwrap();
    let out = scan(&["--redact", "a", "b"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let one = scan(&["--redact", "a"], dir.path());
    assert_eq!(
        String::from_utf8_lossy(&one.stdout),
        "aws_access_key_id = [REDACTED]\n"
    );
}
