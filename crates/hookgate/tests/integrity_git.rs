//! The protected set held against git (issue 7's integrity, the indirect spellings), through
//! the binary with real git: a tracked `.claude/settings.json` cannot be rewritten by writing
//! its index entry, nor by bringing another commit's version into the work tree with an
//! ordinary command (`checkout`, `switch`, `merge`, `rebase`, `cherry-pick`, `stash`,
//! `bisect`) — while the same commands stay ordinary when the protected files are not among
//! what they change.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Sandbox, bash_payload, git, text};
use serde_json::Value;

const SETTINGS: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"hookgate hook claude"}]}]}}"#;
const LOOSENED: &str = r#"{"hooks":{}}"#;

/// Output of `git ARGS` in `dir` (which must succeed).
fn git_out(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .expect("git is required for this test");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout).trim().to_owned()
}

/// A repository in `work/repo` on `main` tracking `.claude/settings.json` (the hook) and
/// `src/a.txt`; branch `feature` changes only `src/a.txt`; branch `evil` — made with the
/// plumbing an agent would use (`hash-object -w`, `update-index --cacheinfo`, `commit`) —
/// changes the settings.
fn repo(sandbox: &Sandbox) -> PathBuf {
    let repo = sandbox.work().join("repo");
    std::fs::create_dir_all(repo.join(".claude")).unwrap();
    std::fs::create_dir_all(repo.join("src")).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join(".claude/settings.json"), SETTINGS).unwrap();
    std::fs::write(repo.join("src/a.txt"), "one\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    std::fs::write(repo.join("src/a.txt"), "two\n").unwrap();
    git(&repo, &["commit", "-q", "-am", "feature work"]);
    git(&repo, &["checkout", "-q", "-b", "evil", "main"]);
    std::fs::write(repo.join("loosened.json"), LOOSENED).unwrap();
    let blob = git_out(&repo, &["hash-object", "-w", "loosened.json"]);
    std::fs::remove_file(repo.join("loosened.json")).unwrap();
    git(
        &repo,
        &[
            "update-index",
            "--cacheinfo",
            &format!("100644,{blob},.claude/settings.json"),
        ],
    );
    git(&repo, &["commit", "-q", "-m", "innocuous"]);
    // The work tree still holds the hook: the commit changed only the index and HEAD.
    git(&repo, &["checkout", "-q", "-f", "main"]);
    assert_eq!(
        std::fs::read_to_string(repo.join(".claude/settings.json")).unwrap(),
        SETTINGS
    );
    repo
}

/// The hook's answer for a Claude Bash call in `cwd`: `none`, `ask` or `deny`, and the reason.
fn answer(sandbox: &Sandbox, cwd: &Path, command: &str) -> (String, String) {
    let payload = serde_json::to_vec(&bash_payload("git-integrity", cwd, command)).unwrap();
    let out = sandbox.run_in(&["hook", "claude"], &payload, cwd);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    if out.stdout.is_empty() {
        return ("none".into(), String::new());
    }
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = &v["hookSpecificOutput"];
    (
        o["permissionDecision"]
            .as_str()
            .unwrap_or("none")
            .to_owned(),
        o["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_owned(),
    )
}

#[test]
fn commands_that_bring_another_version_of_the_hook_settings_are_denied() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    let evil = git_out(&repo, &["rev-parse", "evil"]);
    for command in [
        "git checkout evil",
        "git switch evil",
        "git checkout --detach evil",
        "git checkout -b mine evil",
        "git switch -c mine evil",
        "git merge evil",
        "git merge --no-ff -m 'sync' evil",
        "git rebase evil",
        "git cherry-pick evil",
        &format!("git cherry-pick {evil}"),
        "git revert --no-edit evil",
        "git checkout evil -- '*.json'",
        "git restore --source=evil '*.json'",
        "git checkout evil .",
        "git -C src checkout evil",
        "cd src && git checkout evil",
        "git pull . evil",
        "git bisect start evil main",
        "git stash && git checkout evil && git stash pop",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "deny", "{command}: {reason}");
        assert!(
            reason.contains("settings.json") || reason.contains("protected set"),
            "{command}: {reason}"
        );
    }
    // Nothing ran: the hook is still in force.
    assert_eq!(
        std::fs::read_to_string(repo.join(".claude/settings.json")).unwrap(),
        SETTINGS
    );
}

#[test]
fn writing_the_index_entry_of_a_protected_file_is_denied() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    let blob = git_out(&repo, &["rev-parse", "evil:.claude/settings.json"]);
    for command in [
        format!("git update-index --cacheinfo 100644,{blob},.claude/settings.json"),
        format!("git update-index --add --cacheinfo 100644 {blob} .claude/settings.json"),
        "git update-index --assume-unchanged .claude/settings.json".to_owned(),
        "cd .claude && git update-index --skip-worktree settings.json".to_owned(),
    ] {
        let (d, reason) = answer(&sandbox, &repo, &command);
        assert_eq!(d, "deny", "{command}: {reason}");
    }
    // Entries from standard input cannot be placed: asked.
    let (d, _) = answer(
        &sandbox,
        &repo,
        "git update-index --index-info < entries.txt",
    );
    assert_eq!(d, "ask");
    // Refreshing the index names no entry.
    assert_eq!(
        answer(&sandbox, &repo, "git update-index --refresh").0,
        "none"
    );
    assert_eq!(
        answer(&sandbox, &repo, "git update-index --chmod=+x src/a.txt").0,
        "none"
    );
}

#[test]
fn stashes_that_would_rewrite_the_hook_settings_are_denied() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    // A stash entry holding another version of the settings (made here as an agent could
    // through a copy of the file: the stash itself is the second step).
    std::fs::write(repo.join(".claude/settings.json"), LOOSENED).unwrap();
    git(&repo, &["stash", "-q"]);
    assert_eq!(
        std::fs::read_to_string(repo.join(".claude/settings.json")).unwrap(),
        SETTINGS
    );
    for command in [
        "git stash pop",
        "git stash apply",
        "git stash apply 0",
        "git stash branch x",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "deny", "{command}: {reason}");
    }
    // The user's own uncommitted change to the settings (say, `hookgate init` adding the
    // hook): `git stash` would put it away, rewriting the file to HEAD's version.
    git(&repo, &["stash", "drop", "-q"]);
    std::fs::write(repo.join(".claude/settings.json"), format!("{SETTINGS}\n")).unwrap();
    let (d, reason) = answer(&sandbox, &repo, "git stash");
    assert_eq!(d, "deny", "{reason}");
    assert_eq!(answer(&sandbox, &repo, "git stash push -m wip").0, "deny");
}

#[test]
fn moves_whose_target_cannot_be_placed_before_they_run_are_asked() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    for command in [
        "git branch -f side feature && git checkout side",
        "git update-ref refs/heads/side evil && git merge side",
        "git --git-dir=/tmp/elsewhere/.git --work-tree=. checkout main",
        "git pull /tmp/clone main",
        "git fetch ../clone main && git checkout FETCH_HEAD",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert!(d == "ask" || d == "deny", "{command}: {d} {reason}");
    }
}

#[test]
fn the_same_commands_stay_ordinary_when_the_protected_files_are_not_among_what_they_change() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    for command in [
        "git checkout feature",
        "git switch feature",
        "git checkout -b topic",
        "git switch -c topic feature",
        "git merge feature",
        "git merge --ff-only feature",
        "git rebase feature",
        "git cherry-pick feature",
        "git checkout feature -- src/a.txt",
        "git checkout feature -- '*.txt'",
        "git checkout no-such-branch",
        "git pull",
        "git pull --rebase origin main",
        "git stash list",
        "git merge --abort",
        "git rebase --continue",
        "git bisect start feature main",
        "git fetch origin && git rebase origin/main",
        // Revisions that name nothing: the command fails before it changes a file.
        "git cherry-pick -x 1a2b3c4",
        "git bisect start HEAD v9.9.9",
        "git bisect start HEAD HEAD~10",
        "git merge no-such-branch",
        // A bisection with no good revision checks nothing out yet.
        "git bisect bad",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "none", "{command}: {reason}");
    }
    // A stash of ordinary work, and popping it.
    std::fs::write(repo.join("src/a.txt"), "wip\n").unwrap();
    assert_eq!(answer(&sandbox, &repo, "git stash").0, "none");
    git(&repo, &["stash", "-q"]);
    assert_eq!(answer(&sandbox, &repo, "git stash pop").0, "none");
    // On the feature branch, rebasing onto main brings nothing of the settings.
    git(&repo, &["checkout", "-q", "feature"]);
    assert_eq!(answer(&sandbox, &repo, "git rebase main").0, "none");
    assert_eq!(answer(&sandbox, &repo, "git checkout -").0, "none");
}

#[test]
fn explain_and_the_record_give_the_hooks_answer() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    let (d, _) = answer(&sandbox, &repo, "git checkout evil");
    assert_eq!(d, "deny");
    let last = sandbox.json(&["inspect", "--last", "--json"]);
    let moves = &last["trace"]["tree_moves"][0];
    assert_eq!(moves["change"]["kind"], "becomes", "{last:#}");
    assert_eq!(moves["answer"]["outcome"], "paths", "{last:#}");
    let paths = moves["answer"]["paths"].to_string();
    assert!(paths.contains(".claude/settings.json"), "{paths}");
    let out = sandbox
        .command(&[
            "explain",
            "--json",
            "--cwd",
            repo.to_str().unwrap(),
            "git checkout evil",
        ])
        .current_dir(&repo)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}\n{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(v["answer"]["decision"], "deny", "{v:#}");
}

#[test]
fn history_built_from_raw_objects_is_asked_and_patches_to_the_settings_are_denied() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    for command in [
        "git mktree < tree.txt",
        "git commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m x",
        "git fast-import < stream",
        "git -C /tmp/clone commit-tree HEAD^{tree} -p HEAD -m x",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "ask", "{command}: {reason}");
    }
    std::fs::write(
        repo.join("p.diff"),
        "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-x\n+y\n",
    )
    .unwrap();
    for command in [
        "git apply p.diff",
        "git apply --cached p.diff",
        "git apply --index p.diff",
        "git mv notes.json .claude/settings.json",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "deny", "{command}: {reason}");
    }
    // Ordinary plumbing-free history work stays open.
    for command in [
        "git add -A && git commit -m wip",
        "git write-tree",
        "git hash-object src/a.txt",
    ] {
        assert_eq!(answer(&sandbox, &repo, command).0, "none", "{command}");
    }
}

/// The reason of a non-silent answer names the protected set only when it decided.
fn names_protected_set(reason: &str) -> bool {
    reason.contains("no-governance-self-modification")
}

#[test]
fn discards_that_leave_the_protected_files_alone_are_not_self_modification() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    std::fs::write(repo.join("src/a.txt"), "wip\n").unwrap();
    std::fs::write(repo.join("scratch.txt"), "untracked\n").unwrap();
    // The tracked `.claude/` is untouched by these: what they throw away is the agent's own
    // work in src/ (judged by the discard rules, not by the protected set).
    for command in [
        "git stash -u",
        "git stash push --include-untracked -m wip",
        "git checkout .",
        "git restore .",
        "git restore src/a.txt",
        "git clean -fd",
        "git reset --hard",
    ] {
        let (_, reason) = answer(&sandbox, &repo, command);
        assert!(!names_protected_set(&reason), "{command}: {reason}");
    }
    // `git stash -u` keeps the work (it is a save): nothing objects.
    assert_eq!(answer(&sandbox, &repo, "git stash -u").0, "none");
    // An untracked agent settings file, or a change to the tracked one, is among what they
    // would remove or rewrite: the protected set decides.
    std::fs::write(repo.join(".claude/settings.local.json"), "{}").unwrap();
    for command in ["git stash -u", "git clean -fd", "git clean -fd .claude"] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "deny", "{command}: {reason}");
        assert!(names_protected_set(&reason), "{command}: {reason}");
    }
    std::fs::remove_file(repo.join(".claude/settings.local.json")).unwrap();
    std::fs::write(repo.join(".claude/settings.json"), format!("{SETTINGS}\n")).unwrap();
    for command in [
        "git checkout .",
        "git restore .claude",
        "git reset --hard",
        "git stash -u",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "deny", "{command}: {reason}");
        assert!(names_protected_set(&reason), "{command}: {reason}");
    }
}

#[test]
fn a_bisection_is_judged_by_the_commits_it_may_check_out() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    git(&repo, &["bisect", "start"]);
    git(&repo, &["bisect", "bad", "evil"]);
    // Naming the good revision makes git check out a commit between them, and the range
    // holds the one that changes the settings.
    let (d, reason) = answer(&sandbox, &repo, "git bisect good main");
    assert_eq!(d, "deny", "{reason}");
    // A range whose commits leave the settings alone is ordinary.
    git(&repo, &["bisect", "reset"]);
    git(&repo, &["bisect", "start"]);
    git(&repo, &["bisect", "bad", "feature"]);
    assert_eq!(answer(&sandbox, &repo, "git bisect good main").0, "none");
}

/// A clone whose `core.worktree` names the project writes into the project: the lookup places
/// what changes where git writes it, so the protected files the project's hooks run (here a
/// hook script outside any agent config directory) are seen there.
#[test]
fn a_git_dir_pointing_its_work_tree_at_the_project_is_judged_in_the_project() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    let clone = sandbox.work().join("clone");
    git(
        &sandbox.work(),
        &[
            "clone",
            "-q",
            repo.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    git(&clone, &["config", "core.worktree", repo.to_str().unwrap()]);
    let (d, reason) = answer(
        &sandbox,
        &repo,
        &format!("git -C {} checkout origin/evil", clone.display()),
    );
    assert_eq!(d, "deny", "{reason}");
    assert!(
        reason.contains(&format!("{}/.claude/settings.json", repo.display())),
        "{reason}"
    );
}

/// Runs `command` with bash in `dir` (a copy of the repository), so a test can show that what
/// it asserts the guard refuses really does remove the settings.
fn run_in_copy(repo: &Path, command: &str) -> PathBuf {
    let copy = repo.with_file_name(format!(
        "copy-{}",
        command.len() + command.bytes().map(usize::from).sum::<usize>()
    ));
    let status = Command::new("cp")
        .args(["-a"])
        .arg(repo)
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    let status = Command::new("bash")
        .args(["-c", command])
        .current_dir(&copy)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{command}: {}",
        text(&status.stderr)
    );
    copy
}

#[test]
fn earlier_commands_that_change_what_git_tracks_do_not_outrun_the_lookup() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    // Untracking the settings: the file stays, the next commit records it gone. Named, it is
    // an index write of a protected path; as part of a whole-tree untrack, a later stash,
    // clean or checkout on the same line cannot be looked up beforehand.
    for command in [
        "git rm --cached .claude/settings.json",
        "git rm -r -q --cached .claude",
        "git -C .claude rm --cached settings.json",
        "cd .claude && git rm -r --cached .",
        // Patterns and pathspec magic reach the same files.
        "git rm -rq --cached '.cla*'",
        "git rm --cached ':(top).claude/settings.json'",
        "git rm -r --cached ':/.claude'",
        "git rm -r --cached ':(icase).CLAUDE'",
        "git rm -r -q --cached .claude && git commit -qm x && git stash -u",
        "git rm -r -q --cached . && git commit -qm x && git stash -u",
        "git rm -r -q --cached . && git commit -qm x && git clean -fdq",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "deny", "{command}: {reason}");
        assert!(names_protected_set(&reason), "{command}: {reason}");
    }
    // A list of paths read from a file cannot be checked: asked.
    let (d, reason) = answer(
        &sandbox,
        &repo,
        "git rm --cached --pathspec-from-file=/tmp/list",
    );
    assert_eq!(d, "ask", "{reason}");
    // What the guard refused does what it feared: the settings are gone.
    let copy = run_in_copy(
        &repo,
        "git rm -r -q --cached .claude && git commit -qm x && git stash -u",
    );
    assert!(!copy.join(".claude/settings.json").exists());
    // A soft reset moves HEAD and keeps the index: a later stash compares with a HEAD the
    // lookup did not see.
    let (d, reason) = answer(&sandbox, &repo, "git reset --soft HEAD~1 && git stash");
    assert_eq!(d, "ask", "{reason}");
    // Revisions read relative to HEAD after the line moved it are asked about.
    for command in [
        "git commit --allow-empty -qm z && git checkout -q HEAD~1",
        "git checkout -q feature && git checkout -q HEAD~1",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "ask", "{command}: {reason}");
    }
    // Ordinary lines stay ordinary: the index changes touch no protected file, `checkout -`
    // goes back to where the line started, and a whole-tree add in a clean tree starts
    // tracking nothing of the protected set.
    for command in [
        "git rm --cached src/a.txt && git stash -u",
        "git rm -r --cached '*.txt' ':!.claude'",
        "git add src/a.txt && git stash",
        "git add -A && git stash",
        "git add -A && git commit -qm wip && git checkout -q feature",
        "git rm -r --cached . && git add . && git commit -m 'apply gitignore'",
        "git add .claude/settings.json && git commit -m hooks",
        "git stash && git checkout feature && git checkout - && git stash pop",
    ] {
        let (_, reason) = answer(&sandbox, &repo, command);
        assert!(!names_protected_set(&reason), "{command}: {reason}");
    }
    // An untracked agent settings file: an add that takes it in, then a stash or a move away
    // from the commit that holds it, removes it.
    std::fs::write(repo.join(".claude/settings.local.json"), "{}").unwrap();
    for command in [
        "git add -A && git stash",
        "git add . && git stash -q",
        "git add -A && git commit -qm wip && git checkout -q feature",
    ] {
        let (d, reason) = answer(&sandbox, &repo, command);
        assert_eq!(d, "deny", "{command}: {reason}");
        assert!(
            reason.contains("settings.local.json"),
            "{command}: {reason}"
        );
    }
    let copy = run_in_copy(
        &repo,
        "git add -A && git commit -qm wip && git checkout -q feature",
    );
    assert!(!copy.join(".claude/settings.local.json").exists());
    // An add that does not reach it is still ordinary.
    let (_, reason) = answer(&sandbox, &repo, "git add src && git stash");
    assert!(!names_protected_set(&reason), "{reason}");
}

#[test]
fn lookups_never_run_programs_the_repository_config_names() {
    let sandbox = Sandbox::new();
    let repo = repo(&sandbox);
    let marker = sandbox.work().join("ran");
    let program = sandbox.work().join("program.sh");
    std::fs::write(
        &program,
        format!("#!/bin/sh\ntouch '{}'\ncat\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(
        &program,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    // What an agent can write into `.git/config` and the work tree: a clean filter on every
    // file (git runs it on a file whose stat changed), a signature check on every log, an
    // fsmonitor.
    let program = program.display().to_string();
    git(&repo, &["config", "filter.ev.clean", &program]);
    git(&repo, &["config", "gpg.program", &program]);
    git(&repo, &["config", "log.showSignature", "true"]);
    git(&repo, &["config", "core.fsmonitor", &program]);
    std::fs::write(repo.join(".gitattributes"), "* filter=ev\n").unwrap();
    // A commit that carries a signature, for the log lookup of a cherry-pick to verify.
    let tree = git_out(&repo, &["rev-parse", "HEAD^{tree}"]);
    let parent = git_out(&repo, &["rev-parse", "HEAD"]);
    let object = sandbox.work().join("commit.txt");
    std::fs::write(
        &object,
        format!(
            "tree {tree}\nparent {parent}\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----\n\nsigned\n"
        ),
    )
    .unwrap();
    let signed = git_out(
        &repo,
        &[
            "hash-object",
            "-t",
            "commit",
            "-w",
            &object.display().to_string(),
        ],
    );
    std::fs::write(repo.join("src/a.txt"), "wip\n").unwrap();
    for command in [
        "git checkout feature",
        &format!("git cherry-pick {signed}"),
        "git checkout .",
        "git stash -u",
        "git restore src/a.txt",
    ] {
        // A protected file whose stat changed: git re-reads it, through the filter.
        let settings = repo.join(".claude/settings.json");
        std::fs::write(&settings, std::fs::read(&settings).unwrap()).unwrap();
        let _ = answer(&sandbox, &repo, command);
        assert!(
            !marker.exists(),
            "the lookup for `{command}` ran the repository's program"
        );
    }
    // The same git, asked plainly, does run it: the test sees the danger it guards against.
    let settings = repo.join(".claude/settings.json");
    std::fs::write(&settings, std::fs::read(&settings).unwrap()).unwrap();
    let _ = Command::new("git")
        .args(["diff", "--name-only", "HEAD"])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert!(marker.exists());
}
