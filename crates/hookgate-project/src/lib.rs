//! hookgate-project: the one rule for "the project", and the user's trust in its config.
//!
//! Every command that needs the project (the hook, `explain`, `policy check/test`,
//! `config check`, `init`, `doctor`) finds it with [`discover`], so they can never disagree
//! about which `.hookgate/` applies (issue 7, item 8: three rules used to coexist, and from a
//! subdirectory or a linked worktree the project policy was silently ignored).
//!
//! **The rule.** Walk up from the working directory; the project root is the first directory
//! that contains a `.hookgate/` directory or is a repository root (a `.git` directory, or a
//! `.git` file naming a gitdir, as linked worktrees and submodules have). No such directory:
//! the working directory itself. The user's own config directory is never a project's
//! `.hookgate/` (with `HOOKGATE_HOME=~/.hookgate` it would otherwise make `~` a project).
//!
//! **Trust** ([`trust`]): a project's `.hookgate/` arrives with a cloned repository, so it is
//! untrusted until the user pins its exact content with `hookgate trust`; see
//! [`trust_state`].
//!
//! Discovery reads the file system (`stat`, and the small `.git` / `commondir` files) and
//! never spawns git: the hook runs before every tool call.

mod trust;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use trust::{
    ConfigFile, ConfigSnapshot, Fingerprint, SnapshotFile, TRUST_FILE_NAME, TrustEntry, TrustError,
    TrustState, TrustStore, UntrustedReason, config_files, fingerprint, trust_state,
    trust_state_of,
};

/// The name of a project's config directory.
pub const HOOKGATE_DIR_NAME: &str = ".hookgate";

/// A project, as found from a working directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Project {
    /// The project root: relative policy globs are anchored here and it is the workspace
    /// the invariants protect everything outside of.
    pub root: PathBuf,
    /// `root/.hookgate` when that directory exists.
    pub hookgate_dir: Option<PathBuf>,
    /// The repository the root is in, when there is one.
    pub git: Option<GitInfo>,
}

/// Where a repository keeps its data, read from the `.git` entry without running git.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GitInfo {
    /// The directory holding the repository's `.git` entry (the work tree's top).
    pub work_tree: PathBuf,
    /// This work tree's own git dir (`HEAD`, index): `.git`, or for a linked worktree or a
    /// submodule the directory its `.git` file names.
    pub git_dir: PathBuf,
    /// The shared git dir (refs, objects, config, hooks): for a linked worktree the one its
    /// `commondir` file names, else the git dir itself.
    pub common_dir: PathBuf,
}

impl GitInfo {
    /// True for a linked worktree (`git worktree add`): its git dir is not the common dir.
    pub fn is_linked_worktree(&self) -> bool {
        self.git_dir != self.common_dir
    }
}

impl Project {
    /// The project's policy file, `.hookgate/policy.yaml`, when the project has a `.hookgate/`.
    pub fn policy_file(&self) -> Option<PathBuf> {
        self.hookgate_dir.as_ref().map(|d| d.join("policy.yaml"))
    }
}

/// hookgate's user config dir: `$HOOKGATE_CONFIG_DIR`, else `$HOOKGATE_HOME` (one variable
/// isolates both data and config, as tests and sandboxes need), else
/// `$XDG_CONFIG_HOME/hookgate`, else `~/.config/hookgate`. This is the trusted side: the
/// user's policy, hooks and the trust file live here, never in a project.
pub fn user_config_dir() -> Option<PathBuf> {
    dirs::config_dir(&|name| std::env::var_os(name), std::env::home_dir())
}

/// hookgate's data directory (the audit store): `$HOOKGATE_HOME`, else
/// `$XDG_DATA_HOME/hookgate`, else `~/.local/share/hookgate`, else `./.hookgate` when there is
/// no home directory at all.
pub fn data_dir() -> PathBuf {
    dirs::data_dir(&|name| std::env::var_os(name), std::env::home_dir())
}

/// hookgate's state directory (counters shared by hook processes, e.g. `rate_limit`):
/// `$HOOKGATE_STATE_DIR`, else `$HOOKGATE_HOME/state` (beside the audit store it belongs to),
/// else `$XDG_STATE_HOME/hookgate`, else `~/.local/state/hookgate`.
pub fn state_dir() -> Option<PathBuf> {
    dirs::state_dir(&|name| std::env::var_os(name), std::env::home_dir())
}

/// Where hookgate keeps things, as pure functions of an environment: the one owner of every
/// `HOOKGATE_*`/XDG/home lookup, so config, data and state can never disagree on a variable.
pub mod dirs {
    use std::ffi::OsString;
    use std::path::PathBuf;

    /// Looks one environment variable up.
    pub type Env<'a> = &'a dyn Fn(&str) -> Option<OsString>;

    fn var(env: Env<'_>, name: &str) -> Option<PathBuf> {
        env(name).filter(|v| !v.is_empty()).map(PathBuf::from)
    }

    /// XDG base directories must be absolute; relative values are ignored (the spec).
    fn xdg(env: Env<'_>, name: &str) -> Option<PathBuf> {
        var(env, name).filter(|p| p.is_absolute())
    }

    fn home(env: Env<'_>, home_dir: Option<PathBuf>) -> Option<PathBuf> {
        var(env, "HOME").or(home_dir)
    }

    /// See [`crate::user_config_dir`].
    pub fn config_dir(env: Env<'_>, home_dir: Option<PathBuf>) -> Option<PathBuf> {
        var(env, "HOOKGATE_CONFIG_DIR")
            .or_else(|| var(env, "HOOKGATE_HOME"))
            .or_else(|| xdg(env, "XDG_CONFIG_HOME").map(|x| x.join("hookgate")))
            .or_else(|| home(env, home_dir).map(|h| h.join(".config").join("hookgate")))
    }

    /// See [`crate::data_dir`].
    pub fn data_dir(env: Env<'_>, home_dir: Option<PathBuf>) -> PathBuf {
        var(env, "HOOKGATE_HOME")
            .or_else(|| xdg(env, "XDG_DATA_HOME").map(|d| d.join("hookgate")))
            .or_else(|| {
                home(env, home_dir).map(|h| h.join(".local").join("share").join("hookgate"))
            })
            .unwrap_or_else(|| PathBuf::from(".hookgate"))
    }

    /// See [`crate::state_dir`].
    pub fn state_dir(env: Env<'_>, home_dir: Option<PathBuf>) -> Option<PathBuf> {
        var(env, "HOOKGATE_STATE_DIR")
            .or_else(|| var(env, "HOOKGATE_HOME").map(|h| h.join("state")))
            .or_else(|| xdg(env, "XDG_STATE_HOME").map(|d| d.join("hookgate")))
            .or_else(|| {
                home(env, home_dir).map(|h| h.join(".local").join("state").join("hookgate"))
            })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> + use<> {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
            move |name| {
                pairs
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| OsString::from(v))
            }
        }

        #[test]
        fn hookgate_home_isolates_config_data_and_state_together() {
            let e = env(&[("HOOKGATE_HOME", "/h"), ("XDG_CONFIG_HOME", "/x")]);
            assert_eq!(config_dir(&e, None), Some(PathBuf::from("/h")));
            assert_eq!(data_dir(&e, None), PathBuf::from("/h"));
            assert_eq!(state_dir(&e, None), Some(PathBuf::from("/h/state")));
        }

        #[test]
        fn xdg_dirs_apply_only_when_absolute_then_home() {
            let e = env(&[
                ("XDG_DATA_HOME", "rel"),
                ("XDG_STATE_HOME", "/s"),
                ("HOME", "/u"),
            ]);
            assert_eq!(
                data_dir(&e, None),
                PathBuf::from("/u/.local/share/hookgate")
            );
            assert_eq!(state_dir(&e, None), Some(PathBuf::from("/s/hookgate")));
            assert_eq!(
                config_dir(&e, None),
                Some(PathBuf::from("/u/.config/hookgate"))
            );
            let none = env(&[]);
            assert_eq!(data_dir(&none, None), PathBuf::from(".hookgate"));
            assert_eq!(state_dir(&none, None), None);
        }
    }
}

/// The project of a process started in `cwd`, skipping the user's config dir as found by
/// [`user_config_dir`] (see [`discover_in`]).
pub fn discover(cwd: &Path) -> Project {
    discover_in(cwd, user_config_dir().as_deref())
}

/// The project of `cwd`, by the one rule (see the crate docs). `user_dir` is the user's
/// config dir: a `.hookgate/` that *is* that directory belongs to the user, not to a
/// project, and is passed over.
pub fn discover_in(cwd: &Path, user_dir: Option<&Path>) -> Project {
    for dir in cwd.ancestors() {
        let candidate = dir.join(HOOKGATE_DIR_NAME);
        let hookgate_dir =
            (candidate.is_dir() && !same_dir(&candidate, user_dir)).then_some(candidate);
        let git = repository_at(dir);
        if hookgate_dir.is_some() || git.is_some() {
            // A `.hookgate/` nested inside a repository: the root is its directory, and the
            // repository is still the one above (its branch is what the invariants read).
            let git = git.or_else(|| dir.ancestors().skip(1).find_map(repository_at));
            return Project {
                root: dir.to_path_buf(),
                hookgate_dir,
                git,
            };
        }
    }
    Project {
        root: cwd.to_path_buf(),
        hookgate_dir: None,
        git: None,
    }
}

fn same_dir(a: &Path, b: Option<&Path>) -> bool {
    let Some(b) = b else { return false };
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Most bytes read from a `.git` file or a `commondir` file: both hold one path.
const MAX_POINTER_BYTES: u64 = 8 * 1024;

fn read_small(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).ok()?;
    let mut text = String::new();
    file.take(MAX_POINTER_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// The repository whose work tree's top is `dir`, if `dir` holds a `.git` directory or a
/// `.git` file (`gitdir: <path>`) naming an existing directory. A `.git` file that names
/// nothing usable does not make `dir` a repository root (git itself refuses it too).
pub fn repository_at(dir: &Path) -> Option<GitInfo> {
    let dot_git = dir.join(".git");
    let meta = std::fs::metadata(&dot_git).ok()?;
    let git_dir = if meta.is_dir() {
        dot_git
    } else if meta.is_file() {
        let text = read_small(&dot_git)?;
        let target = text.lines().next()?.strip_prefix("gitdir:")?.trim();
        if target.is_empty() {
            return None;
        }
        let target = dir.join(target);
        if !target.is_dir() {
            return None;
        }
        target
    } else {
        return None;
    };
    let git_dir = normalize(&git_dir);
    let common_dir = read_small(&git_dir.join("commondir"))
        .and_then(|t| t.lines().next().map(|l| l.trim().to_owned()))
        .filter(|l| !l.is_empty())
        .map(|l| normalize(&git_dir.join(l)))
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| git_dir.clone());
    Some(GitInfo {
        work_tree: dir.to_path_buf(),
        git_dir,
        common_dir,
    })
}

/// Removes `.` and `..` components lexically (git writes `commondir` as `../..`).
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;

    #[test]
    fn normalize_resolves_dot_dot_lexically() {
        assert_eq!(
            normalize(Path::new("/r/.git/worktrees/w/../..")),
            PathBuf::from("/r/.git")
        );
        assert_eq!(normalize(Path::new("/a/./b")), PathBuf::from("/a/b"));
    }

    #[test]
    fn a_git_file_naming_nothing_is_not_a_repository_root() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(".git"), "gitdir: /does/not/exist\n").unwrap();
        assert_eq!(repository_at(tmp.path()), None);
        std::fs::write(tmp.path().join(".git"), "garbage\n").unwrap();
        assert_eq!(repository_at(tmp.path()), None);
    }
}
