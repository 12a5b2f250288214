//! The current git branch, read from `.git/HEAD` without starting `git` (a hook call must not
//! pay for a process it can avoid).

use std::path::Path;

/// The branch checked out in `git_dir` (a repository's own git dir, as
/// `hookgate_project::GitInfo::git_dir` found it); `None` on a detached HEAD (policy treats an
/// unknown branch as matching deny rules, not allow rules).
pub fn branch_in(git_dir: &Path) -> Option<String> {
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    head.trim()
        .strip_prefix("ref: refs/heads/")
        .map(str::to_owned)
}

/// The checked-out branch of the repository containing `dir`, found by the one discovery rule.
pub fn current_branch(dir: &Path) -> Option<String> {
    branch_in(&hookgate_project::discover_in(dir, None).git?.git_dir)
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
}
