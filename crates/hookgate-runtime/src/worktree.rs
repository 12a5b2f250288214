//! `--worktree`: a fresh git worktree for one run, created before the session exists so the
//! runtime, tools and hooks all start in the new checkout (docker-agent's `run --worktree`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::RuntimeError;

/// A worktree made for a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worktree {
    /// The new checkout.
    pub path: PathBuf,
    /// Its branch.
    pub branch: String,
    /// The repository root it was branched from.
    pub source_dir: PathBuf,
}

fn git(dir: &Path, args: &[&str]) -> Result<String, RuntimeError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| RuntimeError::Worktree(format!("cannot run git: {e}")))?;
    if !output.status.success() {
        return Err(RuntimeError::Worktree(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Creates `<root>/<name>` on a new branch `hookgate/<name>` from the HEAD of the repository
/// containing `source`.
///
/// # Errors
/// [`RuntimeError::Worktree`] when `source` is not in a git repository or git fails.
pub fn create(source: &Path, root: &Path, name: &str) -> Result<Worktree, RuntimeError> {
    let top = PathBuf::from(git(source, &["rev-parse", "--show-toplevel"])?);
    std::fs::create_dir_all(root)
        .map_err(|e| RuntimeError::Worktree(format!("cannot create {}: {e}", root.display())))?;
    let path = root.join(name);
    let branch = format!("hookgate/{name}");
    let shown = path.display().to_string();
    git(
        &top,
        &["worktree", "add", "--quiet", "-b", &branch, &shown, "HEAD"],
    )?;
    Ok(Worktree {
        path,
        branch,
        source_dir: top,
    })
}

/// The worktree of a resumed session: `<root>/<name>` reused when it is already the checkout
/// of branch `hookgate/<name>` (resuming must not try to create the branch again), else created
/// as by [`create`]. The flag says whether it was created now (only then does
/// `worktree_create` fire).
///
/// # Errors
/// [`RuntimeError::Worktree`] when `<root>/<name>` exists but is not that checkout (it is never
/// taken over), or as [`create`].
pub fn reuse_or_create(
    source: &Path,
    root: &Path,
    name: &str,
) -> Result<(Worktree, bool), RuntimeError> {
    let path = root.join(name);
    if !path.exists() {
        return create(source, root, name).map(|w| (w, true));
    }
    let branch = format!("hookgate/{name}");
    let not_ours = || {
        RuntimeError::Worktree(format!(
            "{} exists but is not the checkout of branch {branch}",
            path.display()
        ))
    };
    let top = git(&path, &["rev-parse", "--show-toplevel"]).map_err(|_| not_ours())?;
    let same_dir = Path::new(&top).canonicalize().ok() == path.canonicalize().ok();
    let head = git(&path, &["rev-parse", "--abbrev-ref", "HEAD"]).map_err(|_| not_ours())?;
    if !same_dir || head != branch {
        return Err(not_ours());
    }
    // The repository the worktree belongs to: the parent of the common git dir.
    let common = git(
        &path,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    )?;
    let source_dir = Path::new(&common)
        .parent()
        .map_or_else(|| PathBuf::from(&common), Path::to_path_buf);
    Ok((
        Worktree {
            path,
            branch,
            source_dir,
        },
        false,
    ))
}
