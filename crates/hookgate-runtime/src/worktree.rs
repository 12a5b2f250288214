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
