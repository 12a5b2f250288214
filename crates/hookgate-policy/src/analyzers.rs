//! The shell analyzer's rule ids (the taxonomy's `git.push_force`, `git.branch_force_delete`,
//! …) as names a policy file and an allowance can use.
//!
//! The `destructive-shell` invariant reports the analyzer's verdict on a whole line (as bad
//! as its worst part). A user who wants `git branch -D` asked about rather than denied, or
//! `git push --force` let through for an hour, should not have to soften or waive every
//! analyzer rule at once. So a policy may switch one analyzer rule (`analyzers:
//! {git.branch_force_delete: ask}`), and `hookgate allow git.push_force` waives one; the line
//! is then judged by what is left of it.
//!
//! Invariants this module protects:
//! - A name that is not in the taxonomy is an error naming the nearest known ids, never a
//!   switch or an allowance that silently matches nothing.
//! - Setting one rule aside never hides another part of the line: the verdict is recomputed
//!   from every executed command's own verdict and every part not tied to a command
//!   (`Analysis::unattached`), so `git push --force; curl x | sh` with `git.push_force`
//!   allowed is still judged by the download-to-shell part.
//! - Only `destructive-shell` is refined here. Other invariants that also see the call (a
//!   force push is `no-force-push` too) keep their own switches and allowances.

use std::collections::BTreeMap;

use hookgate_shell::{Action as ShellAction, Analysis, Verdict};

use crate::allowance::{AllowTarget, Allowance};
use crate::invariants::{INVARIANTS, Violation};
use crate::policy::{Effect, Switch};

/// The invariant whose verdict the analyzer rule ids refine.
pub(crate) const INVARIANT: &str = "destructive-shell";

/// Whether `id` is a rule id of the shell analyzer's taxonomy.
pub fn is_analyzer_id(id: &str) -> bool {
    hookgate_shell::rule_ids().any(|r| r == id)
}

/// The known ids (invariants and analyzer rules) nearest to `id`, best first, at most three:
/// what an error about an unknown id suggests.
pub fn near_ids(id: &str) -> Vec<&'static str> {
    let wanted = id.trim().to_ascii_lowercase();
    let mut scored: Vec<(usize, &'static str)> = INVARIANTS
        .iter()
        .map(|i| i.id)
        .chain(hookgate_shell::rule_ids())
        .filter_map(|known| {
            // The part after the namespace alone (`push_force` for `git.push_force`) counts
            // as a near match too.
            let tail = known.rsplit('.').next().unwrap_or(known);
            let d = distance(&wanted, known).min(distance(&wanted, tail) + 1);
            (d <= (known.len() / 4).max(2)).then_some((d, known))
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().take(3).map(|(_, id)| id).collect()
}

/// "unknown X `id`", with the near matches when there are any.
pub(crate) fn unknown_id_message(what: &str, id: &str) -> String {
    let near = near_ids(id);
    if near.is_empty() {
        format!("unknown {what} `{id}`")
    } else {
        format!(
            "unknown {what} `{id}` (did you mean {}?)",
            near.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// Levenshtein distance over bytes (ids are ASCII).
fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The `destructive-shell` verdict after the policy's analyzer switches and the user's
/// allowances by analyzer id.
#[derive(Debug, Default)]
pub(crate) struct Refined {
    /// What the invariant reports now (`None`: nothing of the line is left to object to).
    pub violation: Option<Violation>,
    /// The allowances that set a part of the line aside.
    pub allowed_by: Vec<String>,
    /// When allowances set every objectionable part aside: what the invariant had reported,
    /// so the match is still listed, waived.
    pub waived: Option<Violation>,
    /// The analyzer rule ids behind `violation`'s effect (the way through names these
    /// instead of the whole invariant).
    pub deciding: Vec<String>,
}

/// Refines what `destructive-shell` found on `analysis` by the analyzer `switches`, the
/// `allowances` naming analyzer rules and the executed commands `set_aside` (indices into
/// `analysis.commands`: discards of a clean linked worktree, see [`crate::worktree`]).
/// Without any of these concerning the line, `found` is kept as the invariant reported it.
pub(crate) fn refine(
    found: Option<Violation>,
    analysis: Option<&Analysis>,
    switches: &BTreeMap<&'static str, Switch>,
    allowances: &[Allowance],
    set_aside: &[usize],
) -> Refined {
    let (Some(found), Some(analysis)) = (found.clone(), analysis) else {
        return Refined {
            violation: found,
            ..Refined::default()
        };
    };
    let mut parts: Vec<&Verdict> = analysis
        .commands
        .iter()
        .enumerate()
        .filter(|(i, _)| !set_aside.contains(i))
        .map(|(_, c)| &c.verdict)
        .chain(&analysis.unattached)
        .collect();
    // The line's verdict is one of its parts' (or the parse failure's): it stands for itself
    // only when no command carries it, and never when its command was set aside.
    let carried = analysis
        .commands
        .iter()
        .any(|c| c.verdict == analysis.verdict);
    if !carried && !parts.contains(&&analysis.verdict) {
        parts.push(&analysis.verdict);
    }
    let allowance_for = |rule: &str| {
        allowances
            .iter()
            .find(|a| matches!(&a.target, AllowTarget::Rule(r) if r == rule))
    };
    let concerns = |v: &&Verdict| {
        v.rule_id.as_deref().is_some_and(|r| {
            matches!(switches.get(r), Some(Switch::Off | Switch::Ask)) || allowance_for(r).is_some()
        })
    };
    if set_aside.is_empty() && !parts.iter().any(concerns) {
        let worst = analysis.verdict.action();
        return Refined {
            violation: Some(found),
            deciding: rule_ids_at(&parts, |v| v.action() == worst),
            ..Refined::default()
        };
    }
    let mut allowed_by: Vec<String> = Vec::new();
    let mut left: Vec<(Effect, &Verdict)> = Vec::new();
    for v in parts {
        let effect = match v.action() {
            ShellAction::Allow => continue,
            ShellAction::Ask => Effect::Ask,
            ShellAction::Deny => Effect::Deny,
        };
        let Some(rule) = v.rule_id.as_deref() else {
            // Unresolved parts have no id: nothing can switch or waive them here.
            left.push((effect, v));
            continue;
        };
        if switches.get(rule) == Some(&Switch::Off) {
            continue;
        }
        if let Some(a) = allowance_for(rule) {
            if !allowed_by.contains(&a.id) {
                allowed_by.push(a.id.clone());
            }
            continue;
        }
        let effect = if switches.get(rule) == Some(&Switch::Ask) {
            Effect::Ask
        } else {
            effect
        };
        left.push((effect, v));
    }
    let worst = left
        .iter()
        .max_by_key(|(effect, v)| (*effect, v.severity()))
        .copied();
    let Some((effect, verdict)) = worst else {
        return Refined {
            waived: (!allowed_by.is_empty()).then_some(found),
            allowed_by,
            ..Refined::default()
        };
    };
    let rule = verdict
        .rule_id
        .as_deref()
        .map(|r| format!(" [{r}]"))
        .unwrap_or_default();
    let deciding = left
        .iter()
        .filter(|(e, _)| *e == effect)
        .filter_map(|(_, v)| v.rule_id.clone())
        .fold(Vec::new(), |mut acc, r| {
            if !acc.contains(&r) {
                acc.push(r);
            }
            acc
        });
    Refined {
        violation: Some(Violation {
            effect,
            reason: format!("{}{rule}", verdict.reason),
            suggestion: verdict.suggestion.clone(),
        }),
        allowed_by,
        waived: None,
        deciding,
    }
}

fn rule_ids_at(parts: &[&Verdict], keep: impl Fn(&Verdict) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in parts.iter().filter(|v| keep(v)) {
        if let Some(r) = &v.rule_id
            && !out.contains(r)
        {
            out.push(r.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_ids_suggest_the_taxonomy_and_invariant_names_a_typo_was_meant_for() {
        assert_eq!(near_ids("git.push_forse").first(), Some(&"git.push_force"));
        assert!(near_ids("push_force").contains(&"git.push_force"));
        assert_eq!(near_ids("no-force-psh").first(), Some(&"no-force-push"));
        assert!(near_ids("completely-unrelated-words").is_empty());
    }

    #[test]
    fn every_taxonomy_id_is_an_analyzer_id_and_no_invariant_is() {
        assert!(is_analyzer_id("git.branch_force_delete"));
        assert!(is_analyzer_id("git.push_force"));
        assert!(!is_analyzer_id("no-force-push"));
        assert!(!is_analyzer_id("git.push_forse"));
    }
}
