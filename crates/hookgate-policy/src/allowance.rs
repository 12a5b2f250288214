//! Allowances: the user's way through a deny or an ask, written by `hookgate allow`.
//!
//! An allowance waives the rules and invariants it names (or every non-locked one, for one
//! exact command) for calls in its scope until it expires or, for `--once`, until it has let
//! one call through. The evaluation consults them in the one pipeline (a waived match is kept
//! in `matched` with `allowed_by` set, and no longer decides), so `explain`, `hook`,
//! `inspect` and `stats` agree.
//!
//! Invariants this module protects:
//! - A locked invariant (the guard's self-protection) is never waived: [`is_locked`] is
//!   checked when an allowance is written *and* when one is applied, so a hand-edited file
//!   cannot do what the command refuses.
//! - Allowances live only in the user config dir (`allowances.json`, part of the protected
//!   set), never in a project: an allowance is user config by construction, and an agent
//!   running `hookgate allow` is denied by `no-governance-self-modification`.
//! - A file that cannot be read waives nothing (the caller reports it): failing open here
//!   would turn damage into permission.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::invariants;

/// What an allowance waives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "snake_case",
    tag = "kind",
    content = "value",
    deny_unknown_fields
)]
pub enum AllowTarget {
    /// Matches with this rule, invariant or analyzer id.
    Rule(String),
    /// Every non-locked match of a shell call whose command is exactly this text.
    Command(String),
}

/// Where an allowance applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "snake_case",
    tag = "kind",
    content = "root",
    deny_unknown_fields
)]
pub enum AllowScope {
    /// Calls in this project (its root, by the one discovery rule).
    Project(PathBuf),
    /// Calls anywhere.
    User,
}

/// How long an allowance lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "snake_case",
    tag = "kind",
    content = "until_ms",
    deny_unknown_fields
)]
pub enum AllowLife {
    /// The next call it lets through, within the hour (a code nobody used goes stale).
    Once(u64),
    /// Until this time (epoch ms).
    Until(u64),
    /// Until revoked.
    Always,
}

/// One allowance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub struct Allowance {
    /// A short code (`a1b2c3d4`): what `--revoke` takes and what the record names.
    pub id: String,
    /// What it waives.
    pub target: AllowTarget,
    /// Where.
    pub scope: AllowScope,
    /// For how long.
    pub life: AllowLife,
    /// When it was written (epoch ms).
    pub created_ms: u64,
}

impl Allowance {
    /// Whether it applies at `now_ms` to a call in `project`.
    pub fn active(&self, now_ms: u64, project: &Path) -> bool {
        let alive = match self.life {
            AllowLife::Once(until) | AllowLife::Until(until) => now_ms < until,
            AllowLife::Always => true,
        };
        alive
            && match &self.scope {
                AllowScope::User => true,
                AllowScope::Project(root) => root == project,
            }
    }

    /// Whether it waives a match with `id` on a call running `command` (never a locked one).
    pub fn covers(&self, id: &str, command: Option<&str>) -> bool {
        if is_locked(id) {
            return false;
        }
        match &self.target {
            AllowTarget::Rule(rule) => rule == id,
            AllowTarget::Command(text) => command.is_some_and(|c| c.trim() == text.trim()),
        }
    }

    /// Whether it is used up by letting one call through.
    pub fn is_once(&self) -> bool {
        matches!(self.life, AllowLife::Once(_))
    }
}

/// Whether `id` names a locked invariant: never allowed.
pub fn is_locked(id: &str) -> bool {
    invariants::find(id).is_some_and(|i| i.locked)
}

/// The way through a deny or an ask determined by `ids`, in words for the agent and the user:
/// the exact `hookgate allow` command, or "locked: cannot be allowed" when a locked invariant
/// decided. A shell call gets the `--once` form for its exact command (the smallest grant);
/// any call gets the rule-id form.
pub fn way_through(ids: &[String], command: Option<&str>) -> String {
    let locked: Vec<&str> = ids
        .iter()
        .map(String::as_str)
        .filter(|id| is_locked(id))
        .collect();
    if !locked.is_empty() {
        return format!(
            "locked: cannot be allowed ({} protects the guard itself)",
            locked.join(", ")
        );
    }
    let rules: Vec<&str> = ids
        .iter()
        .map(String::as_str)
        .filter(|id| !id.starts_with("hook:"))
        .collect();
    let by_rule =
        (!rules.is_empty()).then(|| format!("hookgate allow {} --for 1h", rules.join(" ")));
    match (command, by_rule) {
        (Some(c), Some(r)) => format!(
            "to let this exact command through once, the user can run `hookgate allow --once {}`; or `{r}`",
            quote(c)
        ),
        (Some(c), None) => format!(
            "to let this exact command through once, the user can run `hookgate allow --once {}`",
            quote(c)
        ),
        (None, Some(r)) => {
            format!("to let it through, the user can run `{r}` (or --once, --always)")
        }
        (None, None) => "a user hook decided: change that hook to let it through".to_owned(),
    }
}

/// Single-quotes `s` for a POSIX shell, so the command in the way through can be pasted.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Why the allowances file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum AllowanceError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is not an allowances file.
    #[error("{}: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
}

/// The allowances file in a user config dir.
pub fn allowances_path(config_dir: &Path) -> PathBuf {
    config_dir.join("allowances.json")
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    allowances: Vec<Allowance>,
}

/// Every allowance in `path` (none when the file does not exist).
pub fn load_allowances(path: &Path) -> Result<Vec<Allowance>, AllowanceError> {
    match fs::read(path) {
        Ok(bytes) => serde_json::from_slice::<File>(&bytes)
            .map(|f| f.allowances)
            .map_err(|source| AllowanceError::Parse {
                path: path.to_owned(),
                source,
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(source) => Err(AllowanceError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

/// Read-modify-write of the allowances file under an exclusive lock (concurrent hooks
/// consuming `--once` entries and a user adding one lose nothing); the new content replaces the
/// file atomically. Returns what `f` returned.
pub fn update_allowances<R>(
    path: &Path,
    f: impl FnOnce(&mut Vec<Allowance>) -> R,
) -> Result<R, AllowanceError> {
    let io = |source| AllowanceError::Io {
        path: path.to_owned(),
        source,
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let lock_path = path.with_extension("lock");
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io)?;
    lock.lock().map_err(io)?;
    let mut entries = load_allowances(path)?;
    let before = entries.clone();
    let out = f(&mut entries);
    if entries != before {
        let text = serde_json::to_vec_pretty(&File {
            allowances: entries,
        })
        .map_err(|source| AllowanceError::Parse {
            path: path.to_owned(),
            source,
        })?;
        let tmp = path.with_extension("json.tmp");
        let mut file = fs::File::create(&tmp).map_err(io)?;
        file.write_all(&text)
            .and_then(|()| file.sync_data())
            .map_err(io)?;
        fs::rename(&tmp, path).map_err(io)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowance(target: AllowTarget, scope: AllowScope, life: AllowLife) -> Allowance {
        Allowance {
            id: "a1".into(),
            target,
            scope,
            life,
            created_ms: 0,
        }
    }

    #[test]
    fn locked_invariants_are_never_covered_even_by_a_hand_written_allowance() {
        let a = allowance(
            AllowTarget::Rule("no-governance-self-modification".into()),
            AllowScope::User,
            AllowLife::Always,
        );
        assert!(!a.covers("no-governance-self-modification", None));
        let c = allowance(
            AllowTarget::Command("rm -rf .claude".into()),
            AllowScope::User,
            AllowLife::Always,
        );
        assert!(!c.covers("no-governance-self-modification", Some("rm -rf .claude")));
        assert!(c.covers("no-force-push", Some("rm -rf .claude")));
    }

    #[test]
    fn allowances_expire_and_keep_to_their_project() {
        let a = allowance(
            AllowTarget::Rule("no-force-push".into()),
            AllowScope::Project("/p".into()),
            AllowLife::Until(100),
        );
        assert!(a.active(99, Path::new("/p")));
        assert!(!a.active(100, Path::new("/p")));
        assert!(
            !a.active(0, Path::new("/p/sub")),
            "a project is its root, exactly"
        );
    }

    #[test]
    fn a_command_allowance_covers_only_the_identical_command() {
        let a = allowance(
            AllowTarget::Command("git push --force origin main".into()),
            AllowScope::User,
            AllowLife::Always,
        );
        assert!(a.covers("no-force-push", Some("git push --force origin main")));
        assert!(!a.covers(
            "no-force-push",
            Some("git push --force origin main; rm -rf ~")
        ));
        assert!(!a.covers("no-force-push", None));
    }

    #[test]
    fn the_file_round_trips_and_a_damaged_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = allowances_path(dir.path());
        assert!(load_allowances(&path).unwrap().is_empty());
        update_allowances(&path, |v| {
            v.push(allowance(
                AllowTarget::Rule("x".into()),
                AllowScope::User,
                AllowLife::Once(5),
            ));
        })
        .unwrap();
        assert_eq!(load_allowances(&path).unwrap().len(), 1);
        fs::write(&path, b"{\"allowances\": [{\"id\": 1}]}").unwrap();
        assert!(load_allowances(&path).is_err());
    }
}
