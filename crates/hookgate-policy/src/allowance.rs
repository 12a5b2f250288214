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

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use hookgate_core::CanonicalCall;
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
    /// For a `--once` allowance that let a call through: that call. It keeps honouring the
    /// other events of the same call (see [`SpentBy::honours`]) and nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spent: Option<SpentBy>,
}

/// How long a spent `--once` allowance keeps honouring the call it let through when the
/// events carry the agent's call id (`tool_use_id`): long enough for a PermissionRequest
/// that waits behind a slow PreToolUse hook chain, and harmless, since no other call has that
/// id.
pub const SAME_CALL_BY_ID_MS: u64 = 10 * 60 * 1000;

/// How long a spent `--once` allowance honours an event that carries no call id (Claude's and
/// Codex's PermissionRequest; every event of agents that do not number their calls) when it
/// is the same session and the identical tool input. Short, because within it an identical
/// repeat of the call cannot be told from the call itself: one minute covers the events of one
/// call (they follow each other within milliseconds) and little more.
pub const SAME_CALL_WINDOW_MS: u64 = 60 * 1000;

/// One tool call, as far as its events identify it: what a spent `--once` allowance is tied to.
///
/// An agent sends several events for one call (Claude and Codex: PreToolUse, then
/// PermissionRequest where a prompt would appear; Cursor: beforeShellExecution and
/// preToolUse). A `--once` allowance must let every event of that one call through — else the
/// second event denies the call the user approved — and no other call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallKey {
    /// The agent's session id (empty when it sends none).
    pub session: String,
    /// SHA-256 over the tool and its input (the command line for shell tools; the input minus
    /// the free-text `description` otherwise), hex.
    pub input: String,
    /// The agent's id for the call (`tool_use_id`), on the events that carry one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
}

/// The call a `--once` allowance let through, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpentBy {
    /// The call.
    #[serde(flatten)]
    pub call: CallKey,
    /// When it was spent (epoch ms).
    pub at_ms: u64,
}

impl SpentBy {
    /// Whether an event identified by `key` at `now_ms` belongs to the call that spent the
    /// allowance. Two call ids decide alone (equal: the same call; different: another call,
    /// even with identical input). Where an event carries no id, the same session and the
    /// identical input within [`SAME_CALL_WINDOW_MS`] is taken as the same call.
    pub fn honours(&self, key: &CallKey, now_ms: u64) -> bool {
        let age = now_ms.saturating_sub(self.at_ms);
        match (&self.call.tool_use_id, &key.tool_use_id) {
            (Some(spent), Some(this)) => spent == this && age < SAME_CALL_BY_ID_MS,
            _ => {
                self.call.session == key.session
                    && self.call.input == key.input
                    && age < SAME_CALL_WINDOW_MS
            }
        }
    }

    /// When it stops honouring anything.
    fn end_ms(&self) -> u64 {
        self.at_ms
            .saturating_add(SAME_CALL_BY_ID_MS.max(SAME_CALL_WINDOW_MS))
    }
}

impl Allowance {
    /// Whether it is still worth keeping at `now_ms`: not expired, or spent by a call whose
    /// events may still arrive.
    pub fn live(&self, now_ms: u64) -> bool {
        match (&self.life, &self.spent) {
            (_, Some(spent)) => now_ms < spent.end_ms(),
            (AllowLife::Once(until) | AllowLife::Until(until), None) => now_ms < *until,
            (AllowLife::Always, None) => true,
        }
    }

    /// Whether it applies at `now_ms` to the call `key` in `project`: live, in scope, and —
    /// for a spent `--once` — an event of the very call that spent it.
    pub fn active(&self, now_ms: u64, project: &Path, key: &CallKey) -> bool {
        let usable = match &self.spent {
            Some(spent) => spent.honours(key, now_ms),
            None => self.live(now_ms),
        };
        usable
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

impl CallKey {
    /// The key of `call`; `tool_use_id` is the agent's id for it where the event carries one.
    pub fn of(call: &CanonicalCall, tool_use_id: Option<&str>) -> Self {
        use sha2::Digest as _;
        let mut hash = sha2::Sha256::new();
        if let Some(tool) = &call.tool {
            hash.update(tool.name.as_bytes());
            hash.update([0]);
            if let Some(command) = &tool.command {
                hash.update(command.trim().as_bytes());
            } else {
                // The description is the agent's prose about the call (Codex puts the
                // approval reason there on PermissionRequest): not part of what runs.
                let mut input = tool.input.clone();
                input.remove("description");
                hash.update(serde_json::Value::Object(input).to_string().as_bytes());
            }
        }
        let input = hash.finalize().iter().fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        });
        Self {
            session: call.session_id.clone(),
            input,
            tool_use_id: tool_use_id.filter(|id| !id.is_empty()).map(str::to_owned),
        }
    }
}

/// What [`spend`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spent {
    /// The allowances this call spent now (to give back with [`unspend`] if the call does not
    /// go through after all).
    pub now: Vec<String>,
    /// Those an earlier event of the same call had spent already.
    pub before: Vec<String>,
    /// Those gone, expired, or spent by another call: this call may not use them.
    pub lost: Vec<String>,
}

/// Spends the `--once` allowances among `ids` for the call `key`, in `entries` (the caller
/// holds the file's lock, so exactly one of two racing calls wins an allowance). Other
/// allowances are left alone and reported in none of the lists.
pub fn spend(entries: &mut [Allowance], ids: &[String], key: &CallKey, now_ms: u64) -> Spent {
    let mut out = Spent::default();
    for id in ids {
        let Some(a) = entries.iter_mut().find(|a| a.id == *id) else {
            out.lost.push(id.clone());
            continue;
        };
        if !a.is_once() {
            continue;
        }
        match &a.spent {
            Some(spent) if spent.honours(key, now_ms) => out.before.push(id.clone()),
            None if a.live(now_ms) => {
                a.spent = Some(SpentBy {
                    call: key.clone(),
                    at_ms: now_ms,
                });
                out.now.push(id.clone());
            }
            // Spent by another call, or expired.
            _ => out.lost.push(id.clone()),
        }
    }
    out
}

/// Gives back allowances [`spend`] spent for `key` (the call was denied after all).
pub fn unspend(entries: &mut [Allowance], ids: &[String], key: &CallKey) {
    for a in entries.iter_mut().filter(|a| ids.contains(&a.id)) {
        if a.spent.as_ref().is_some_and(|s| s.call == *key) {
            a.spent = None;
        }
    }
}

/// Whether `id` names a locked invariant: never allowed.
pub fn is_locked(id: &str) -> bool {
    invariants::find(id).is_some_and(|i| i.locked)
}

/// The way through a deny or an ask determined by `ids`, in words for the agent and the user:
/// the exact `hookgate allow` command, or "locked: cannot be allowed" when a locked invariant
/// decided. A shell call gets the `--once` form for its exact command (the smallest grant);
/// any call gets the rule-id form. Both name the call's `project` (`--project DIR`): the
/// user pastes the command into some other terminal, whose directory may be another project
/// or none, and the allowance must still be scoped where the call was judged.
pub fn way_through(ids: &[String], command: Option<&str>, project: &Path) -> String {
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
    let scope = format!("--project {}", quote(&project.display().to_string()));
    let by_rule =
        (!rules.is_empty()).then(|| format!("hookgate allow {} --for 1h {scope}", rules.join(" ")));
    match (command, by_rule) {
        (Some(c), Some(r)) => format!(
            "to let this exact command through once, the user can run `hookgate allow --once {} {scope}`; or `{r}`",
            quote(c)
        ),
        (Some(c), None) => format!(
            "to let this exact command through once, the user can run `hookgate allow --once {} {scope}`",
            quote(c)
        ),
        (None, Some(r)) => {
            format!("to let it through, the user can run `{r}` (or --once, --always)")
        }
        (None, None) => "a user hook decided: change that hook to let it through".to_owned(),
    }
}

/// Single-quotes `s` for a POSIX shell, so the command in the way through can be pasted.
/// An absolute path made only of characters no shell treats specially is left bare (a
/// project path usually is one).
fn quote(s: &str) -> String {
    let bare = s.starts_with('/')
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+,:@%".contains(&b));
    if bare {
        return s.to_owned();
    }
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
            spent: None,
        }
    }

    fn key(session: &str, input: &str, id: Option<&str>) -> CallKey {
        CallKey {
            session: session.into(),
            input: input.into(),
            tool_use_id: id.map(str::to_owned),
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
        let k = key("s", "x", None);
        assert!(a.active(99, Path::new("/p"), &k));
        assert!(!a.active(100, Path::new("/p"), &k));
        assert!(
            !a.active(0, Path::new("/p/sub"), &k),
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

    #[test]
    fn a_spent_once_allowance_honours_every_event_of_its_call_and_no_other_call() {
        let mut entries = vec![allowance(
            AllowTarget::Rule("no-force-push".into()),
            AllowScope::User,
            AllowLife::Once(10_000),
        )];
        let pre = key("s", "push", Some("toolu_1"));
        let ids = vec!["a1".to_owned()];
        let first = spend(&mut entries, &ids, &pre, 100);
        assert_eq!(first.now, ids, "the first call spends it");
        // Its PermissionRequest carries no id: same session, same input, moments later.
        let permission = key("s", "push", None);
        assert!(entries[0].active(200, Path::new("/p"), &permission));
        assert_eq!(spend(&mut entries, &ids, &permission, 200).before, ids);
        // The next call has its own id: not the same call, even with identical input.
        let next = key("s", "push", Some("toolu_2"));
        assert!(!entries[0].active(300, Path::new("/p"), &next));
        assert_eq!(spend(&mut entries, &ids, &next, 300).lost, ids);
        // Without ids, only within the short window and the same session.
        assert!(!entries[0].active(100 + SAME_CALL_WINDOW_MS, Path::new("/p"), &permission));
        assert!(!entries[0].active(200, Path::new("/p"), &key("other", "push", None)));
        assert!(!entries[0].active(200, Path::new("/p"), &key("s", "other", None)));
        // Given back, it is available again.
        unspend(&mut entries, &ids, &pre);
        assert!(entries[0].spent.is_none());
    }

    #[test]
    fn only_one_of_two_calls_spends_a_once_allowance() {
        let mut entries = vec![allowance(
            AllowTarget::Command("x".into()),
            AllowScope::User,
            AllowLife::Once(10_000),
        )];
        let ids = vec!["a1".to_owned()];
        let a = spend(&mut entries, &ids, &key("s", "x", Some("toolu_a")), 1);
        let b = spend(&mut entries, &ids, &key("s", "x", Some("toolu_b")), 1);
        assert_eq!((a.now.len(), b.lost.len()), (1, 1));
        assert!(
            spend(&mut entries, &["gone".to_owned()], &key("s", "x", None), 1)
                .lost
                .contains(&"gone".to_owned())
        );
    }

    #[test]
    fn the_way_through_names_the_project_it_was_judged_in() {
        let w = way_through(
            &["no-force-push".to_owned()],
            Some("git push -f"),
            Path::new("/work/my repo"),
        );
        assert!(
            w.contains("`hookgate allow --once 'git push -f' --project '/work/my repo'`"),
            "{w}"
        );
        assert!(
            w.contains("`hookgate allow no-force-push --for 1h --project '/work/my repo'`"),
            "{w}"
        );
        let bare = way_through(&["x".to_owned()], None, Path::new("/srv/app"));
        assert!(bare.contains("--project /srv/app`"), "{bare}");
    }
}
