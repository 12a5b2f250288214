//! Git facts for the judgement: the current branch, read from `.git/HEAD` without starting
//! `git` (a hook call must not pay for a process it can avoid), and — only when the policy
//! asks, for a discard such as `git reset --hard` or `git restore FILE` — whether a linked
//! worktree, or the named paths, have work to lose.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use hookgate_policy::{PathspecState, WorktreeState};

use crate::probe::bounded;

/// Longest a `git status` asked for by the policy may take: the agent waits on it. Past it
/// the state is unknown, which keeps the discard's verdict (fail closed).
const STATUS_TIMEOUT: Duration = Duration::from_secs(3);

/// Most `git status` output read; more is still an answer (changes exist).
const STATUS_CAP: usize = 64 * 1024;

/// A `git` that reads the repository at `dir` and nothing else: the inherited `GIT_*`
/// variables that would point it elsewhere removed, no optional locks taken.
fn git_at(dir: &Path) -> Command {
    let mut git = Command::new("git");
    for var in [
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_COMMON_DIR",
        "GIT_OBJECT_DIRECTORY",
        "GIT_NAMESPACE",
    ] {
        git.env_remove(var);
    }
    git.arg("--no-optional-locks").arg("-C").arg(dir);
    git.stdin(Stdio::null()).stderr(Stdio::null());
    git
}

/// The branch checked out in `git_dir` (a repository's own git dir, as
/// `hookgate_project::GitInfo::git_dir` found it); `None` on a detached HEAD (policy treats an
/// unknown branch as matching deny rules, not allow rules).
pub fn branch_in(git_dir: &Path) -> Option<String> {
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    head.trim()
        .strip_prefix("ref: refs/heads/")
        .map(str::to_owned)
}

/// Most remotes whose default branch is read (bounds the I/O of one hook call).
const MAX_REMOTES: usize = 16;

/// The branches the remotes of the repository with shared git dir `common_dir` name as their
/// default: the target of each `refs/remotes/<remote>/HEAD` symbolic ref (written by `git
/// clone` and `git remote set-head`; symbolic refs are never packed). A force push to one
/// rewrites the branch everybody starts from (`hookgate_policy::Ctx::remote_default_branches`).
/// A remote without that file contributes nothing: the policy's `protected_branches` still
/// apply.
pub fn remote_default_branches(common_dir: &Path) -> Vec<String> {
    let Ok(remotes) = std::fs::read_dir(common_dir.join("refs").join("remotes")) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for remote in remotes.filter_map(Result::ok).take(MAX_REMOTES) {
        let Ok(head) = std::fs::read_to_string(remote.path().join("HEAD")) else {
            continue;
        };
        let name = remote.file_name();
        let branch = name.to_str().and_then(|name| {
            head.trim()
                .strip_prefix("ref: refs/remotes/")?
                .strip_prefix(name)?
                .strip_prefix('/')
                .map(str::to_owned)
        });
        if let Some(b) = branch.filter(|b| !out.contains(b)) {
            out.push(b);
        }
    }
    out
}

/// The checked-out branch of the repository containing `dir`, found by the one discovery rule.
pub fn current_branch(dir: &Path) -> Option<String> {
    branch_in(&hookgate_project::discover_in(dir, None).git?.git_dir)
}

/// The state of the work tree at `dir`, for a policy deciding whether a discard there loses
/// anything (`hookgate_policy::Evaluation::worktrees_wanted`).
///
/// Linkedness is read from the `.git` file (no process). Only a linked worktree is looked at
/// further: one `git status` (read-only: `--no-optional-locks`, the inherited `GIT_*`
/// variables that would point it elsewhere removed) — uncommitted changes or untracked files
/// make it dirty. Whatever cannot be found out answers "dirty", so the discard is judged as
/// always (fail closed).
pub fn worktree_state(dir: &Path) -> WorktreeState {
    let mut state = WorktreeState {
        dir: dir.to_owned(),
        linked: false,
        dirty: true,
    };
    let Some(repo) = dir.ancestors().find_map(hookgate_project::repository_at) else {
        return state;
    };
    if !repo.is_linked_worktree() {
        return state;
    }
    state.linked = true;
    let mut git = git_at(&repo.work_tree);
    git.args(["status", "--porcelain", "-z", "--untracked-files=normal"]);
    if let Some(out) = bounded(git, STATUS_TIMEOUT, STATUS_CAP) {
        state.dirty = !out.stdout.is_empty();
    }
    state
}

/// Whether the paths a checkout or restore names hold uncommitted work, for a policy deciding
/// whether overwriting them loses anything (`hookgate_policy::Evaluation::pathspecs_wanted`).
///
/// One read-only `git status` over exactly those pathspecs, in the directory the command
/// runs in (so git reads them as the command will): a change between index and `HEAD` or
/// between work tree and index counts; untracked and ignored files count only when the
/// command copies from a commit (`query.untracked`), since copying from the index leaves
/// them alone. A failure, a timeout or a directory outside any repository answers
/// "changed", so the discard is judged as always (fail closed).
pub fn pathspec_state(query: &PathspecState) -> PathspecState {
    let mut state = query.clone();
    state.changed = true;
    let mut git = git_at(&query.dir);
    git.args(["status", "--porcelain", "-z"]);
    if query.untracked {
        git.args(["--untracked-files=all", "--ignored"]);
    } else {
        git.arg("--untracked-files=no");
    }
    git.arg("--").args(&query.pathspecs);
    if let Some(out) = bounded(git, STATUS_TIMEOUT, STATUS_CAP) {
        state.changed = !out.stdout.is_empty();
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_is_read_from_head_in_repos_and_worktrees() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/feature/x\n").unwrap();
        assert_eq!(
            current_branch(&repo.join("src/deep")).as_deref(),
            Some("feature/x")
        );

        let wt = root.path().join("wt");
        std::fs::create_dir_all(repo.join(".git/worktrees/wt")).unwrap();
        std::fs::write(
            repo.join(".git/worktrees/wt/HEAD"),
            "ref: refs/heads/main\n",
        )
        .unwrap();
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(
            wt.join(".git"),
            format!("gitdir: {}\n", repo.join(".git/worktrees/wt").display()),
        )
        .unwrap();
        assert_eq!(current_branch(&wt).as_deref(), Some("main"));

        std::fs::write(
            repo.join(".git/HEAD"),
            "0123456789abcdef0123456789abcdef01234567\n",
        )
        .unwrap();
        assert_eq!(current_branch(&repo), None, "detached HEAD has no branch");
        assert_eq!(current_branch(root.path()), None);
    }

    #[test]
    fn remote_default_branches_are_the_targets_of_remote_heads() {
        let root = tempfile::tempdir().unwrap();
        let common = root.path();
        assert!(remote_default_branches(common).is_empty(), "no remotes");
        for (remote, head) in [
            ("origin", Some("ref: refs/remotes/origin/develop\n")),
            ("upstream", Some("ref: refs/remotes/upstream/trunk\n")),
            ("fork", None),
            ("odd", Some("ref: refs/remotes/other/main\n")),
        ] {
            let dir = common.join("refs/remotes").join(remote);
            std::fs::create_dir_all(&dir).unwrap();
            if let Some(h) = head {
                std::fs::write(dir.join("HEAD"), h).unwrap();
            }
        }
        let mut found = remote_default_branches(common);
        found.sort();
        assert_eq!(found, ["develop", "trunk"]);
    }
}
