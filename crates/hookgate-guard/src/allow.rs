//! The guard's side of allowances: which apply to a call, and spending a `--once` entry.
//!
//! Invariants protected here:
//! - A `--once` allowance lets exactly one call through, with every event of it: it is tied
//!   to the call that spent it ([`CallKey`]), so Claude's PermissionRequest after the
//!   PreToolUse that spent it is let through too, and the next call is not.
//! - Spending is atomic: it happens under the allowances file's lock, inside the judgement,
//!   and only the call that wins an allowance may use it; a call that loses the race is
//!   judged again without it (see `Policy::judge_in_session`).
//! - A `--once` allowance is spent only by a call it really let through: one spent for a call
//!   that is then denied or asked is given back.

use std::path::{Path, PathBuf};

use hookgate_agents::Parsed;
use hookgate_policy::Evaluation;
use hookgate_policy::allowance::{
    Allowance, CallKey, allowances_path, load_allowances, spend, unspend, update_allowances,
};
use serde_json::Value;

/// The key of the call `parsed` (the payload as the agent sent it): its session, its tool
/// input, and the agent's call id where the event carries one (`tool_use_id`: Claude's and
/// Codex's PreToolUse and PostToolUse, Cursor's preToolUse).
fn call_key(parsed: &Parsed) -> CallKey {
    CallKey::of(
        &parsed.call,
        parsed.raw.get("tool_use_id").and_then(Value::as_str),
    )
}

/// The allowances in force at `now_ms` for the call `parsed` in `project`, from the user
/// config dir, and the call's key when there is an allowances file at all (the key hashes the
/// tool input: a call pays for it only where allowances are used). `Err` carries the reason
/// the file could not be read: then *none* apply (an unreadable file must not grant anything)
/// and the caller records why.
pub(crate) fn active(
    config_dir: Option<&Path>,
    project: &Path,
    now_ms: u64,
    parsed: &Parsed,
) -> Result<(Vec<Allowance>, Option<CallKey>), String> {
    let Some(dir) = config_dir else {
        return Ok((Vec::new(), None));
    };
    let path = allowances_path(dir);
    // No file is the common case: one `stat`, no parse.
    if !path.exists() {
        return Ok((Vec::new(), None));
    }
    let all = load_allowances(&path).map_err(|e| format!("allowances ignored: {e}"))?;
    let key = call_key(parsed);
    let active = all
        .into_iter()
        .filter(|a| a.active(now_ms, project, &key))
        .collect();
    Ok((active, Some(key)))
}

/// Spends, for one call, the `--once` allowances its judgement used — under the file's lock,
/// from inside the judgement, so the decision and the spending cannot disagree.
#[derive(Debug)]
pub(crate) struct Spender {
    file: Option<PathBuf>,
    key: Option<CallKey>,
    once: Vec<String>,
    /// Spent by this judgement (given back if the call ends up not passing).
    pub spent_now: Vec<String>,
    /// Spent by an earlier event of this same call.
    pub spent_before: Vec<String>,
    /// Spent by another call first (or gone): this call did not get them.
    pub lost: Vec<String>,
    /// Why the file could not be updated, when it could not.
    pub error: Option<String>,
}

impl Spender {
    /// A spender for the call `key`, over the allowances the call was judged with (no key:
    /// there were none).
    pub(crate) fn new(
        config_dir: Option<&Path>,
        key: Option<CallKey>,
        allowances: &[Allowance],
    ) -> Self {
        Self {
            file: config_dir.map(allowances_path),
            key,
            once: allowances
                .iter()
                .filter(|a| a.is_once())
                .map(|a| a.id.clone())
                .collect(),
            spent_now: Vec::new(),
            spent_before: Vec::new(),
            lost: Vec::new(),
            error: None,
        }
    }

    /// Settles `eval` once the call's final decision is known (`passes`: it is let through).
    /// `Err(ids)`: this call may not use those allowances after all; judge it again without
    /// them. A call that does not pass spends nothing (what it spent in an earlier round is
    /// given back).
    pub(crate) fn settle(&mut self, eval: &Evaluation, passes: bool) -> Result<(), Vec<String>> {
        if !passes {
            self.give_back();
            return Ok(());
        }
        let wanted: Vec<String> = eval
            .allowed_by
            .iter()
            .filter(|id| self.once.contains(id))
            .filter(|id| !self.spent_now.contains(id) && !self.spent_before.contains(id))
            .cloned()
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let (Some(file), Some(key)) = (&self.file, &self.key) else {
            return Err(wanted);
        };
        let now = hookgate_audit::now_ms();
        match update_allowances(file, |all| {
            let result = spend(all, &wanted, key, now);
            // Entries nothing can use any more go while the file is being written anyway.
            all.retain(|a| a.live(now));
            result
        }) {
            Ok(result) => {
                self.spent_now.extend(result.now);
                self.spent_before.extend(result.before);
                if result.lost.is_empty() {
                    return Ok(());
                }
                self.lost.extend(result.lost.iter().cloned());
                Err(result.lost)
            }
            Err(e) => {
                // An allowance that cannot be spent is not used: a `--once` that stays
                // unspent would let every later call through.
                self.error = Some(e.to_string());
                self.lost.extend(wanted.iter().cloned());
                Err(wanted)
            }
        }
    }

    /// Gives back what this judgement spent.
    fn give_back(&mut self) {
        if self.spent_now.is_empty() {
            return;
        }
        let (Some(file), Some(key)) = (&self.file, &self.key) else {
            return;
        };
        let ids = std::mem::take(&mut self.spent_now);
        if let Err(e) = update_allowances(file, |all| unspend(all, &ids, key)) {
            self.error = Some(e.to_string());
        }
    }
}
