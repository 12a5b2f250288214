//! A forced branch deletion judged by what it would lose, through the binary with real git:
//! `git branch -D` of a branch that does not exist, or whose tip another local branch or a tag
//! reaches, drops no commit and is not refused; one that would drop commits no other local
//! branch or tag reaches (a remote-tracking ref does not vouch) is judged as always (denied).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::path::{Path, PathBuf};

use common::{Sandbox, bash_payload, git, text};
use serde_json::Value;

/// A repository in `work/repo` on `main` with: `merged` (at main's tip), `pushed` (a commit
/// of its own, also under `refs/remotes/origin/pushed`), `tagged` (a commit reached by a
/// tag), `lonely` (a commit only it reaches) and `lonely-base` + `lonely-top` (a commit
/// reached only by the two of them).
fn repo(sandbox: &Sandbox) -> PathBuf {
    let repo = sandbox.work().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["commit", "-q", "--allow-empty", "-m", "first"]);
    git(&repo, &["branch", "merged"]);
    for (branch, keep) in [
        ("pushed", Some("refs/remotes/origin/pushed")),
        ("tagged", Some("refs/tags/v1")),
        ("lonely", None),
        ("lonely-base", Some("refs/heads/lonely-top")),
    ] {
        git(&repo, &["checkout", "-q", "-b", branch, "main"]);
        git(&repo, &["commit", "-q", "--allow-empty", "-m", branch]);
        if let Some(r) = keep {
            git(&repo, &["update-ref", r, "HEAD"]);
        }
    }
    git(&repo, &["checkout", "-q", "main"]);
    repo
}

/// What the hook answers for a Claude Bash call in `cwd`.
fn decision(sandbox: &Sandbox, cwd: &Path, command: &str) -> String {
    let payload = serde_json::to_vec(&bash_payload("br-session", cwd, command)).unwrap();
    let out = sandbox.run_in(&["hook", "claude"], &payload, cwd);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    if out.stdout.is_empty() {
        return "none".into();
    }
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap_or("none")
        .to_owned()
}

#[test]
fn a_forced_branch_deletion_that_drops_no_commit_is_not_refused() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    for command in [
        "git branch -D merged",
        "git branch --delete --force tagged",
        "git branch -D no-such-branch",
        "git branch -D merged tagged",
        "git branch -D lonely-base",
    ] {
        assert_eq!(decision(&sandbox, &repo, command), "none", "{command}");
    }
    // The record says what was found.
    let last = sandbox.json(&["inspect", "--last", "--json"]);
    let found = &last["trace"]["branches"][0];
    assert_eq!(found["loses"], false, "{last:#}");
    assert_eq!(found["branches"][0], "lonely-base", "{last:#}");
}

#[test]
fn a_forced_branch_deletion_that_drops_commits_is_still_refused() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    for command in [
        "git branch -D lonely",
        "git branch -D merged lonely",
        // A remote-tracking ref does not vouch: the agent can make one and drop it unjudged
        // (`git update-ref refs/remotes/origin/x x`, then `git branch -dr origin/x`).
        "git branch -D pushed",
        // Deleted together, the two that reach a commit do not vouch for each other.
        "git branch -D lonely-base lonely-top",
        // A shared branch is never set aside, even when another branch (`merged`) reaches
        // its tip: deleting `main` breaks what tracks it.
        "git branch -D main",
        "git branch --delete --force main",
        // Not a plain name the lookup can ask about: judged as always.
        "git branch -D lonely*",
        "git branch -D \"$BRANCH\"",
    ] {
        assert_eq!(decision(&sandbox, &repo, command), "deny", "{command}");
    }
}

/// A forced move of a shared branch (`git branch -f`, `git checkout -B`, `git switch -C`,
/// `git update-ref refs/heads/…`) whose new commit reaches the branch's old tip — a
/// fast-forward, `git checkout -B main origin/main` after a fetch — loses nothing and is not
/// asked about; one that leaves commits only the branch reached is asked about as before.
#[test]
fn a_forced_move_of_a_shared_branch_that_only_fast_forwards_is_not_asked_about() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    // `release/1` has a commit only it reaches; `origin/release/1` (a remote-tracking ref,
    // which never vouches) is one commit ahead of it, as after a fetch.
    git(&repo, &["checkout", "-q", "-b", "release/1", "main"]);
    git(
        &repo,
        &["commit", "-q", "--allow-empty", "-m", "only on release"],
    );
    git(&repo, &["checkout", "-q", "--detach", "release/1"]);
    git(&repo, &["commit", "-q", "--allow-empty", "-m", "fetched"]);
    git(
        &repo,
        &["update-ref", "refs/remotes/origin/release/1", "HEAD"],
    );
    git(&repo, &["checkout", "-q", "main"]);
    for command in [
        "git branch -f release/1 origin/release/1",
        "git checkout -B release/1 origin/release/1",
        "git switch -C release/1 origin/release/1",
        "git update-ref refs/heads/release/1 origin/release/1",
    ] {
        assert_eq!(decision(&sandbox, &repo, command), "none", "{command}");
    }
    // Moved back, sideways or onto nothing, it drops the commit only it reached.
    for command in [
        "git branch -f release/1 main",
        "git checkout -B release/1 lonely",
        "git switch -C release/1 HEAD",
        "git branch -f release/1 no-such-rev",
    ] {
        assert_eq!(decision(&sandbox, &repo, command), "ask", "{command}");
    }
}
