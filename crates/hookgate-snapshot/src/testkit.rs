//! Helpers for tests that need a real git repository (feature `testkit`): used by this crate's
//! tests, the `snapshot` built-in's and the binary's, so the CI rule and the fixtures are
//! written once.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers: a failure here is the calling test's failure"
)]

use std::collections::BTreeMap;
use std::hash::{Hash as _, Hasher as _};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `git` can be run. It is a prerequisite: under `CI` its absence fails the test
/// (this panics); elsewhere the caller skips.
pub fn have_git() -> bool {
    let ok = Command::new("git").arg("--version").output().is_ok();
    assert!(
        ok || std::env::var_os("CI").is_none_or(|v| v.is_empty()),
        "git is required under CI"
    );
    ok
}

/// Runs `git ARGS` in `dir` with a fixed identity and no signing; panics unless it succeeds.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
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
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// Makes `dir` a repository whose one commit holds `files` (path, content).
pub fn committed_repo(dir: &Path, files: &[(&str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    for (path, content) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "init"]);
}

/// Every file under `dir` with a hash of its bytes, to compare a tree before and after (a
/// failure names the files, not their bytes).
pub fn tree_digest(dir: &Path) -> BTreeMap<PathBuf, u64> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            } else {
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                std::fs::read(entry.path()).unwrap().hash(&mut hasher);
                out.insert(entry.path(), hasher.finish());
            }
        }
    }
    out
}
