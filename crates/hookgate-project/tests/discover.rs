//! The one discovery rule, on real directories and real git repositories.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use hookgate_project::{Project, discover_in};

/// Runs git for real; without git the test cannot check anything, so it fails under `CI` and
/// is skipped (with a line on stderr) elsewhere.
fn git(dir: &Path, args: &[&str]) -> bool {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output();
    match out {
        Ok(o) if o.status.success() => true,
        Ok(o) => panic!("git {args:?}: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "git is required under CI: {e}"
            );
            eprintln!("skipped: no git ({e})");
            false
        }
    }
}

fn real(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap()
}

fn repo_with_commit(dir: &Path) -> bool {
    std::fs::create_dir_all(dir).unwrap();
    if !git(dir, &["init", "-q"]) {
        return false;
    }
    std::fs::write(dir.join("README"), "x").unwrap();
    git(dir, &["add", "README"]) && git(dir, &["commit", "-q", "-m", "init"])
}

#[test]
fn a_subdirectory_of_a_repository_belongs_to_the_repository_root() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = real(tmp.path()).join("repo");
    if !repo_with_commit(&repo) {
        return;
    }
    std::fs::create_dir_all(repo.join(".hookgate")).unwrap();
    let deep = repo.join("src/a/b");
    std::fs::create_dir_all(&deep).unwrap();
    let p = discover_in(&deep, None);
    assert_eq!(p.root, repo);
    assert_eq!(p.hookgate_dir, Some(repo.join(".hookgate")));
    let git = p.git.unwrap();
    assert_eq!(git.git_dir, repo.join(".git"));
    assert_eq!(git.common_dir, repo.join(".git"));
    assert!(!git.is_linked_worktree());
}

#[test]
fn a_linked_worktree_is_a_project_root_with_the_main_common_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let base = real(tmp.path());
    let repo = base.join("repo");
    if !repo_with_commit(&repo) {
        return;
    }
    let wt = base.join("wt");
    if !git(
        &repo,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            wt.to_str().unwrap(),
        ],
    ) {
        return;
    }
    assert!(
        wt.join(".git").is_file(),
        "a linked worktree has a .git file"
    );
    std::fs::create_dir_all(wt.join(".hookgate")).unwrap();
    std::fs::create_dir_all(wt.join("src")).unwrap();
    let p = discover_in(&wt.join("src"), None);
    assert_eq!(p.root, wt);
    assert_eq!(p.hookgate_dir, Some(wt.join(".hookgate")));
    let git = p.git.unwrap();
    assert!(git.is_linked_worktree());
    assert_eq!(git.work_tree, wt);
    assert_eq!(git.git_dir, repo.join(".git/worktrees/wt"));
    assert_eq!(git.common_dir, repo.join(".git"));
    // Without its own .hookgate/, the worktree is still its own project (not the main one).
    std::fs::remove_dir(wt.join(".hookgate")).unwrap();
    let p = discover_in(&wt.join("src"), None);
    assert_eq!(p.root, wt);
    assert_eq!(p.hookgate_dir, None);
}

#[test]
fn a_directory_outside_any_repository_is_its_own_project() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = real(tmp.path()).join("plain/sub");
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(
        discover_in(&dir, None),
        Project {
            root: dir.clone(),
            hookgate_dir: None,
            git: None
        }
    );
    // A .hookgate/ above, with no repository anywhere, makes its directory the root.
    let plain = real(tmp.path()).join("plain");
    std::fs::create_dir_all(plain.join(".hookgate")).unwrap();
    let p = discover_in(&dir, None);
    assert_eq!(p.root, plain);
    assert_eq!(p.hookgate_dir, Some(plain.join(".hookgate")));
    assert_eq!(p.git, None);
}

#[test]
fn the_nearest_hookgate_dir_inside_a_repository_is_the_root_and_keeps_the_repository() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = real(tmp.path()).join("mono");
    if !repo_with_commit(&repo) {
        return;
    }
    std::fs::create_dir_all(repo.join(".hookgate")).unwrap();
    let pkg = repo.join("packages/web");
    std::fs::create_dir_all(pkg.join(".hookgate")).unwrap();
    std::fs::create_dir_all(pkg.join("src")).unwrap();
    let p = discover_in(&pkg.join("src"), None);
    assert_eq!(p.root, pkg);
    assert_eq!(p.hookgate_dir, Some(pkg.join(".hookgate")));
    assert_eq!(p.git.unwrap().work_tree, repo);
}

#[test]
fn the_user_config_dir_is_never_a_project_hookgate_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let home = real(tmp.path());
    let user = home.join(".hookgate");
    std::fs::create_dir_all(&user).unwrap();
    let scratch = home.join("scratch");
    std::fs::create_dir_all(&scratch).unwrap();
    let p = discover_in(&scratch, Some(&user));
    assert_eq!(p.root, scratch);
    assert_eq!(p.hookgate_dir, None);
    // Without the exclusion the home directory would have become the project.
    assert_eq!(discover_in(&scratch, None).root, home);
}

#[test]
fn a_submodule_git_file_names_its_own_git_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let base = real(tmp.path());
    let modules = base.join("super/.git/modules/sub");
    std::fs::create_dir_all(&modules).unwrap();
    let sub = base.join("super/sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join(".git"), "gitdir: ../.git/modules/sub\n").unwrap();
    let p = discover_in(&sub, None);
    assert_eq!(p.root, sub);
    let git = p.git.unwrap();
    assert_eq!(git.git_dir, modules);
    assert_eq!(git.common_dir, modules);
}
