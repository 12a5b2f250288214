//! Git facts for the judgement: the current branch, read from `.git/HEAD` without starting
//! `git` (a hook call must not pay for a process it can avoid), and — only when the policy
//! asks, for a discard such as `git reset --hard` or `git restore FILE` — whether a linked
//! worktree, or the named paths, have work to lose.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use std::path::PathBuf;

use hookgate_policy::{
    BranchState, PathspecState, TreeAnswer, TreeChange, TreeMove, WorktreeState,
};

use crate::probe::{bounded, finished};

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
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_NAMESPACE",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_EXTERNAL_DIFF",
    ] {
        git.env_remove(var);
    }
    // The lookup must never run a program the repository names: its config is writable by
    // the agent (`.git/config` is an ordinary file to it), and the guard runs outside any
    // sandbox the agent is in. So: no `core.fsmonitor` (started on a work-tree comparison),
    // no hooks, no signature check (`log.showSignature` runs `gpg.program` on `git log`), and
    // attributes read from the empty tree, so no `filter=` driver's `clean` program runs on
    // a file whose stat changed (git 2.40 or newer honours `GIT_ATTR_SOURCE`; the
    // in-tree `.gitattributes` are the only source it replaces, and a text/eol attribute
    // ignored only makes a file look changed — the fail-closed direction).
    git.env("GIT_ATTR_SOURCE", hookgate_policy::EMPTY_TREE)
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "log.showSignature=false",
            "-c",
            "core.attributesFile=/dev/null",
        ])
        .arg("--no-optional-locks")
        .arg("-C")
        .arg(dir);
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

/// A name-only comparison: renames as a deletion and an addition (both names count), no
/// external diff program.
const DIFF: &[&str] = &["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff"];

/// The files a set of commits changes, names only: renames as a deletion and an addition.
const LOG: &[&str] = &["log", "--format=", "--name-only", "-z", "--no-renames"];

/// Most names read from one tree-move comparison (restricted to the protected locations, so
/// far more than a real repository holds); past it the answer is "unknown".
const NAMES_CAP: usize = 1024 * 1024;

/// Which files a git command that replaces work-tree files with a commit's version would
/// change, among the protected locations the question names
/// (`hookgate_policy::Evaluation::tree_moves_wanted`; see the policy's `treemove` module).
///
/// Read-only git only (`rev-parse`, `diff --name-only`, `log --name-only`; no optional locks,
/// `core.fsmonitor` off, the inherited `GIT_*` variables removed), names answered as absolute
/// paths under the work tree's top. A ref that does not name a commit answers "no files" (the
/// command fails, or — for `git checkout WORD` — reads WORD as a path, judged as that write),
/// except a name git would take from a single remote-tracking branch (`git checkout feature`
/// creating it from `origin/feature`). Anything else that goes wrong — no repository, an
/// unborn `HEAD`, a timeout, output past the cap — answers "unknown", which asks.
pub fn tree_move(query: &TreeMove) -> TreeMove {
    let mut answered = query.clone();
    answered.answer = Some(match tree_move_paths(query) {
        Ok(paths) => TreeAnswer::Paths { paths },
        Err(why) => TreeAnswer::Unknown { why },
    });
    answered
}

fn tree_move_paths(query: &TreeMove) -> Result<Vec<PathBuf>, String> {
    // The work tree as git itself will use it: a repository's `core.worktree` can point a
    // git dir elsewhere (`git -C /tmp/clone checkout x` writing into the project), which the
    // `.git` on disk does not show, so the names are placed where git writes them.
    let mut git = git_at(&query.dir);
    git.args(["rev-parse", "--show-toplevel"]);
    let top = match finished(git, STATUS_TIMEOUT, 64 * 1024) {
        Some((out, true)) => {
            PathBuf::from(String::from_utf8_lossy(&out.stdout).trim_end_matches('\n'))
        }
        Some((_, false)) => {
            return Err(format!("{} is not in a git work tree", query.dir.display()));
        }
        None => return Err("`git rev-parse --show-toplevel` did not answer in time".to_owned()),
    };
    let mut specs: Vec<String> = query.pathspecs.clone();
    for p in &query.protected {
        if let Ok(rel) = p.strip_prefix(&top)
            && let Some(rel) = rel.to_str()
            && !rel.is_empty()
        {
            specs.push(format!(":(top,literal){rel}"));
        }
    }
    let names = |args: &[&str]| -> Result<Vec<PathBuf>, String> {
        let mut git = git_at(&query.dir);
        git.args(args).arg("--").args(&specs);
        match finished(git, STATUS_TIMEOUT, NAMES_CAP) {
            Some((out, _)) if out.truncated => Err("too many files to check".to_owned()),
            Some((out, true)) => Ok(out
                .stdout
                .split(|b| *b == 0)
                .filter(|n| !n.is_empty())
                .map(|n| top.join(String::from_utf8_lossy(n).as_ref()))
                .collect()),
            Some((_, false)) => Err(format!("`git {}` failed", args.join(" "))),
            None => Err(format!("`git {}` did not answer in time", args.join(" "))),
        }
    };
    match &query.change {
        TreeChange::Becomes { target } => {
            let mut out = Vec::new();
            for commit in commits_named(&query.dir, target)? {
                out.extend(names(&[DIFF, &[commit.as_str()]].concat())?);
            }
            Ok(out)
        }
        TreeChange::Merges { target } => match resolve(&query.dir, target)? {
            Some(commit) => names(&[DIFF, &[format!("HEAD...{commit}").as_str()]].concat()),
            None => Ok(Vec::new()),
        },
        TreeChange::Applies { revs } => {
            // A revision that names nothing makes the command fail before it changes a file.
            for r in revs {
                for side in r
                    .split("...")
                    .flat_map(|x| x.split(".."))
                    .filter(|s| !s.is_empty())
                {
                    if resolve(&query.dir, side.trim_start_matches('^'))?.is_none() {
                        return Ok(Vec::new());
                    }
                }
            }
            let mut args: Vec<&str> = LOG.to_vec();
            args.extend(["--no-walk=unsorted", "--end-of-options"]);
            args.extend(revs.iter().map(String::as_str));
            names(&args)
        }
        TreeChange::Walks { range } if range.first().is_some_and(|r| r == "--bisect") => {
            bisection(query, range, &names)
        }
        TreeChange::Walks { range } => {
            for r in range {
                if resolve(&query.dir, r.trim_start_matches('^'))?.is_none() {
                    return Ok(Vec::new());
                }
            }
            let mut args: Vec<&str> = LOG.to_vec();
            args.push("--end-of-options");
            args.extend(range.iter().map(String::as_str));
            names(&args)
        }
        TreeChange::Unstashes { stash } => {
            let Some(entry) = resolve(&query.dir, stash)? else {
                return Ok(Vec::new());
            };
            let tracked = format!("{entry}^1");
            let mut out = names(&[DIFF, &[tracked.as_str(), entry.as_str()]].concat())?;
            // The untracked files a `stash -u` kept, in a third parent when there is one.
            if let Some(untracked) = resolve(&query.dir, &format!("{entry}^3"))? {
                out.extend(names(
                    &[DIFF, &[hookgate_policy::EMPTY_TREE, untracked.as_str()]].concat(),
                )?);
            }
            Ok(out)
        }
        TreeChange::Reverts => names(&[DIFF, &["HEAD"]].concat()),
        TreeChange::Unindexes => names(DIFF),
        TreeChange::Removes {
            ignored,
            only_ignored,
        } => {
            let mut args = vec!["ls-files", "-z", "--full-name", "--others"];
            if *only_ignored {
                args.extend(["--ignored", "--exclude-standard"]);
            } else if !ignored {
                args.push("--exclude-standard");
            }
            names(&args)
        }
    }
}

/// A name-only git comparison run with the question's pathspecs: the changed files, absolute.
type NameLookup<'a> = dyn Fn(&[&str]) -> Result<Vec<PathBuf>, String> + 'a;

/// The files the commits of a bisection in progress change (any of them may be checked out
/// next): from the recorded bad revision (else `HEAD`) down to the good ones recorded or
/// named by this command (`--bisect-good REV…` in `range`). No good revision at all: git
/// checks nothing out yet (and `git log --bisect` would list all of history).
fn bisection(
    query: &TreeMove,
    range: &[String],
    names: &NameLookup<'_>,
) -> Result<Vec<PathBuf>, String> {
    let mut goods: Vec<String> = Vec::new();
    let mut git = git_at(&query.dir);
    git.args([
        "for-each-ref",
        "--format=%(objectname)",
        "refs/bisect/good-*",
    ]);
    match finished(git, STATUS_TIMEOUT, 64 * 1024) {
        Some((out, true)) => goods.extend(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_owned),
        ),
        _ => return Err("`git for-each-ref refs/bisect` did not answer".to_owned()),
    }
    for named in range.iter().skip_while(|r| *r != "--bisect-good").skip(1) {
        if let Some(id) = resolve(&query.dir, named)? {
            goods.push(id);
        }
    }
    if goods.is_empty() {
        return Ok(Vec::new());
    }
    let bad = resolve(&query.dir, "refs/bisect/bad")?.unwrap_or_else(|| "HEAD".to_owned());
    let excluded: Vec<String> = goods.iter().map(|g| format!("^{g}")).collect();
    let mut args: Vec<&str> = LOG.to_vec();
    args.extend(["--end-of-options", bad.as_str()]);
    args.extend(excluded.iter().map(String::as_str));
    names(&args)
}

/// Whether a forced deletion of the question's branches (`git branch -D`) drops a commit no
/// other ref reaches (`hookgate_policy::Evaluation::branches_wanted`; see the policy's
/// `branches` module).
///
/// Per branch, read-only git only: `rev-parse` of `refs/heads/NAME` (no such branch: the
/// deletion fails and loses nothing), then `for-each-ref --contains` of its tip — another
/// local branch or a tag reaching it means nothing is lost. The branches deleted together do
/// not count for each other; remote-tracking refs and `refs/stash` do not count. A failure or a
/// timeout answers "loses", so the deletion is judged as always (fail closed).
pub fn branch_state(query: &BranchState) -> BranchState {
    let mut state = query.clone();
    state.loses = branches_lose(query).unwrap_or(true);
    state
}

fn branches_lose(query: &BranchState) -> Result<bool, String> {
    let deleted: Vec<String> = query
        .branches
        .iter()
        .map(|b| format!("refs/heads/{b}"))
        .collect();
    // A forced move's new commit: `None` when it names nothing (the command then fails).
    let target = match &query.target {
        Some(t) => match resolve(&query.dir, &format!("{t}^{{commit}}"))? {
            Some(id) => Some(id),
            None => return Ok(true),
        },
        None => None,
    };
    for own in &deleted {
        let Some(tip) = resolve(&query.dir, &format!("{own}^{{commit}}"))? else {
            continue;
        };
        // The branch's new commit reaching its old tip (a fast-forward) keeps every commit.
        if let Some(new) = &target {
            let mut git = git_at(&query.dir);
            git.args(["merge-base", "--is-ancestor", &tip, new]);
            match finished(git, STATUS_TIMEOUT, 4096) {
                Some((_, true)) => continue,
                Some((_, false)) => {}
                None => return Err(format!("`git merge-base` for {own} did not answer")),
            }
        }
        let mut git = git_at(&query.dir);
        git.args(["for-each-ref", "--format=%(refname)", "--contains", &tip]);
        let Some((out, true)) = finished(git, STATUS_TIMEOUT, NAMES_CAP) else {
            return Err(format!(
                "`git for-each-ref --contains` for {own} did not answer"
            ));
        };
        let text = String::from_utf8_lossy(&out.stdout);
        // Only refs whose own deletion is judged count: another local branch (its `-D` is
        // this same question) or a tag (`git tag -d` asks). A remote-tracking ref does not:
        // the agent can make one (`git update-ref refs/remotes/origin/x x`) and drop it
        // (`git branch -dr origin/x`) unjudged, which would launder the deletion.
        let kept = text.lines().any(|r| {
            (r.starts_with("refs/heads/") || r.starts_with("refs/tags/"))
                && !deleted.iter().any(|d| d == r)
        });
        if !kept {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The object id `name` resolves to, `None` when it names nothing (an answer, not an error:
/// the command will fail or read the word otherwise).
fn resolve(dir: &std::path::Path, name: &str) -> Result<Option<String>, String> {
    if name.starts_with('-') {
        return Ok(None);
    }
    let mut git = git_at(dir);
    git.args(["rev-parse", "--verify", "-q", "--end-of-options", name]);
    match finished(git, STATUS_TIMEOUT, 4096) {
        Some((out, true)) => Ok(Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
            .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_hexdigit()))),
        Some((_, false)) => Ok(None),
        None => Err(format!("`git rev-parse {name}` did not answer in time")),
    }
}

/// The commits (or trees) `name` stands for: itself when git resolves it, else the one
/// remote-tracking branch of that name (`git checkout feature` creates `feature` from
/// `origin/feature` when exactly one remote has it), else none.
fn commits_named(dir: &std::path::Path, name: &str) -> Result<Vec<String>, String> {
    if let Some(id) = resolve(dir, name)? {
        return Ok(vec![id]);
    }
    if name.contains(['^', '~', '@', ':', '*', '?', '[']) {
        return Ok(Vec::new());
    }
    let mut git = git_at(dir);
    git.args(["for-each-ref", "--format=%(refname)"])
        .arg(format!("refs/remotes/*/{name}"));
    match finished(git, STATUS_TIMEOUT, 64 * 1024) {
        Some((out, true)) => Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()),
        _ => Err(format!("`git for-each-ref` for {name} did not answer")),
    }
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
