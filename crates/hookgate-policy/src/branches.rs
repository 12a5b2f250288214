//! A forced branch deletion or move judged by what it would lose.
//!
//! `git branch -D NAME` deletes a branch whether or not its commits are merged: dangerous for
//! the commits only that branch reaches. Agents delete branches they are done with — a
//! feature branch merged by a squash (so `-d` refuses), a branch pushed to its remote, a name
//! that no longer exists — and none of those loses a commit. So a `git branch -D` whose every
//! branch either does not exist or has its tip reached by another local branch or a tag (refs
//! whose own deletion is judged; a remote-tracking ref is not: the agent can make one and drop
//! it unjudged) is set aside (`destructive-shell` does not object to
//! it); one that would drop commits nothing else reaches is judged exactly as before.
//!
//! A forced move of a shared branch (`git branch -f main X`, `git checkout -B main X`, `git
//! switch -C main X`, `git update-ref refs/heads/main X`) is the same question with one more
//! way to keep the commits: the branch's new commit reaching its old tip (a fast-forward,
//! `git checkout -B main origin/main` after a fetch) loses nothing either.
//!
//! This crate does no I/O: the judgement names the branches whose state it needs
//! ([`crate::Evaluation::branches_wanted`]), the caller asks git (read-only `rev-parse` and
//! `for-each-ref --contains`, only for these commands) and judges again with the answers in
//! [`crate::Ctx::branches`], which the audit record keeps.
//!
//! Conservative on purpose: only a command whose repository is known exactly (its
//! directory after `cd`/`-C`, no `--git-dir`, not reached through a wrapper), whose branch
//! names are plain literal names (no pattern, no variable, no `-r` remote-tracking mode), and
//! whose answer says "loses nothing". Anything unknown keeps the verdict.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::Ctx;
use crate::action::Facts;
use crate::pattern::split_flags;
use crate::worktree::git_subcommand;

/// The analyzer rules this module can set aside: `-D` (and clusters such as `-Df`), and
/// `--delete --force`.
const FORCE_DELETES: &[&str] = &[
    "git.branch_force_delete",
    "git.branch_delete_force_long",
    "git.branch_force_move",
    "git.update_ref_shared",
];

/// What the caller found about the branches one `git branch -D` would delete.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchState {
    /// The directory git runs in (the command's, after `cd` and `-C`).
    pub dir: PathBuf,
    /// The branch names as the command gives them (local branches, `refs/heads/NAME`).
    pub branches: Vec<String>,
    /// Deleting them drops a commit that no other ref reaches; `true` until answered, and
    /// whenever the lookup fails (fail closed).
    pub loses: bool,
    /// For a forced move, the revision the (one) branch is pointed at (`HEAD` when the
    /// command names none); `None` for a deletion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl BranchState {
    /// Whether `other` asks about the same branches in the same repository.
    fn same_query(&self, other: &Self) -> bool {
        self.dir == other.dir && self.branches == other.branches && self.target == other.target
    }
}

/// What the branch states make of a call's forced deletions.
#[derive(Debug, Default)]
pub(crate) struct Lossless {
    /// Executed commands (indices into the analysis) whose deletions lose no commit.
    pub commands: Vec<usize>,
    /// Questions still without an answer.
    pub wanted: Vec<BranchState>,
    /// One line per command set aside, for the evaluation's steps.
    pub notes: Vec<String>,
}

/// The one place the policy uses branch state: which of the line's forced branch deletions
/// lose nothing (set aside), and which it still needs to ask about.
pub(crate) fn lossless_deletes(facts: &Facts<'_>, ctx: &Ctx) -> Lossless {
    let mut out = Lossless::default();
    let Some(analysis) = &facts.analysis else {
        return out;
    };
    for (i, command) in analysis.commands.iter().enumerate() {
        let Some(rule) = command
            .verdict
            .rule_id
            .as_deref()
            .filter(|r| FORCE_DELETES.contains(r))
        else {
            continue;
        };
        if !command.via.is_empty() {
            continue;
        }
        let Some(cwd) = command.cwd.path(&facts.cwd) else {
            continue;
        };
        let Some(q) = query(&command.argv, cwd, ctx.home.as_deref()) else {
            continue;
        };
        match ctx.branches.iter().find(|s| s.same_query(&q)) {
            Some(s) if !s.loses => {
                out.notes.push(format!(
                    "{rule} of {}: no commit only it reaches",
                    q.branches.join(" ")
                ));
                out.commands.push(i);
            }
            Some(_) => {}
            None => {
                if !out.wanted.iter().any(|s| s.same_query(&q)) {
                    out.wanted.push(q);
                }
            }
        }
    }
    out
}

/// A branch name the command gives literally: no pattern, no variable, no revision syntax.
fn plain(b: &str) -> bool {
    !b.is_empty()
        && !b.starts_with('-')
        && b.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"/._-+@".contains(&c))
        && !b.contains("..")
        && !b.contains("@{")
}

/// A revision a branch is moved to, when it is literal (`origin/main`, `HEAD~2`, a commit id).
fn plain_revision(r: &str) -> bool {
    !r.is_empty()
        && !r.starts_with('-')
        && r.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"/._-+@~^".contains(&c))
}

/// The question a forced deletion or move asks, or `None` when it cannot be told exactly: a
/// remote-tracking deletion (`-r`), a name that is a pattern, a variable's value or an
/// option's, no name at all, or a command that is neither.
fn query(argv: &[String], cwd: &Path, home: Option<&Path>) -> Option<BranchState> {
    let (dir, subcommand, words) = git_subcommand(argv, cwd, home)?;
    let state = |branches: Vec<String>, target: Option<String>| BranchState {
        dir: dir.clone(),
        branches,
        loses: true,
        target,
    };
    let moved = |name: &str, start: Option<&String>| {
        let target = start.map_or("HEAD", String::as_str);
        (plain(name) && plain_revision(target))
            .then(|| state(vec![name.to_owned()], Some(target.to_owned())))
    };
    match subcommand.as_str() {
        "branch" => {
            let flags = split_flags(words);
            if flags.short.contains(&'r')
                || flags.long.contains("remotes")
                || flags.long.contains("all")
            {
                return None;
            }
            let deletes = flags.short.contains(&'D')
                || flags.short.contains(&'d')
                || flags.long.contains("delete");
            let renames = ['m', 'M', 'c', 'C'].iter().any(|c| flags.short.contains(c))
                || flags.long.contains("move")
                || flags.long.contains("copy");
            let branches = flags.positionals;
            if deletes {
                // A shared branch (`main`, `develop`, `release/*`) is never set aside: losing
                // it breaks more than its commits (what tracks it, what is protected by its
                // name), whatever else reaches its tip.
                return (!branches.is_empty()
                    && branches
                        .iter()
                        .all(|b| plain(b) && !hookgate_shell::is_shared_branch(b)))
                .then(|| state(branches, None));
            }
            // `git branch -f NAME [START]`.
            match branches.as_slice() {
                [name, rest @ ..] if !renames && rest.len() <= 1 => moved(name, rest.first()),
                _ => None,
            }
        }
        // `git checkout -B NAME [START]`, `git switch -C|--force-create NAME [START]`.
        "checkout" | "switch" => {
            let forcing: &[&str] = if subcommand == "checkout" {
                &["-B"]
            } else {
                &["-C", "--force-create"]
            };
            let at = words.iter().position(|w| forcing.contains(&w.as_str()))?;
            let name = words.get(at + 1)?;
            let rest: Vec<&String> = words
                .get(at + 2..)
                .unwrap_or(&[])
                .iter()
                .filter(|w| !w.starts_with('-'))
                .collect();
            let others_are_flags = words
                .get(..at)
                .unwrap_or(&[])
                .iter()
                .all(|w| w.starts_with('-'));
            match rest.as_slice() {
                [start] if others_are_flags => moved(name, Some(start)),
                [] if others_are_flags => moved(name, None),
                _ => None,
            }
        }
        // `git update-ref refs/heads/NAME NEWVALUE [OLDVALUE]`.
        "update-ref" => match words {
            [r, new] | [r, new, _] => moved(r.strip_prefix("refs/heads/")?, Some(new)),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn only_plain_local_branch_names_make_a_question() {
        let cwd = Path::new("/w");
        let q = query(&argv("git branch -D feature/x old"), cwd, None).unwrap();
        assert_eq!(q.branches, ["feature/x", "old"]);
        assert!(q.loses);
        assert_eq!(q.dir, Path::new("/w"));
        let q = query(&argv("git -C sub branch --delete --force spike"), cwd, None).unwrap();
        assert_eq!(q.dir, Path::new("/w/sub"));
        assert!(query(&argv("git branch -rD origin/x"), cwd, None).is_none());
        assert!(query(&argv("git branch -D $B"), cwd, None).is_none());
        assert!(query(&argv("git branch -D feat*"), cwd, None).is_none());
        assert!(query(&argv("git branch -D"), cwd, None).is_none());
        assert!(query(&argv("git --git-dir=/x branch -D a"), cwd, None).is_none());
        assert!(query(&argv("git tag -d v1"), cwd, None).is_none());
        assert!(query(&argv("git branch -D main"), cwd, None).is_none());
        assert!(
            query(
                &argv("git branch --delete --force feature/x release/2"),
                cwd,
                None
            )
            .is_none()
        );
    }

    #[test]
    fn forced_moves_ask_about_the_branch_and_its_new_commit() {
        let cwd = Path::new("/w");
        for (line, branch, target) in [
            ("git branch -f main origin/main", "main", "origin/main"),
            ("git branch --force main", "main", "HEAD"),
            ("git checkout -B main origin/main", "main", "origin/main"),
            ("git switch -C release/1.2 HEAD~1", "release/1.2", "HEAD~1"),
            ("git switch --force-create main", "main", "HEAD"),
            ("git update-ref refs/heads/main 1a2b3c", "main", "1a2b3c"),
        ] {
            let q = query(&argv(line), cwd, None).unwrap();
            assert_eq!(q.branches, [branch], "{line}");
            assert_eq!(q.target.as_deref(), Some(target), "{line}");
            assert!(q.loses, "{line}");
        }
        for line in [
            "git branch -f main $REV",
            "git checkout -B main origin/main -- src",
            "git update-ref refs/tags/v1 HEAD",
            "git update-ref -d refs/heads/main",
            "git branch -M main",
        ] {
            assert!(query(&argv(line), cwd, None).is_none(), "{line}");
        }
    }
}
