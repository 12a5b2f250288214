//! Lease-checked force pushes to branches nobody else builds on.
//!
//! `git push --force-with-lease` (and `--force-with-lease=<ref>:<expect>`, with or without
//! `--force-if-includes`) refuses to update a remote ref that moved since the pusher last saw
//! it, so it can only replace commits the pusher has already fetched: rewriting one's own
//! feature branch after a rebase loses nothing. The shell analyzer cannot see branches, so
//! it flags every lease push (`git.push_force_with_lease`, low blast — any other danger on
//! the same command outranks it and is never hidden by this module); here, knowing the
//! protected branches and the remote's default branch, a lease push whose every destination
//! is known and is neither is set aside for `destructive-shell` and is not `no-force-push`.
//!
//! What stays judged as before (invariants protected: `no-force-push`, `protected-branch`):
//! - a plain force (`-f`, `--force`, `+refspec`), `--mirror`, `--delete`, `--prune`: the
//!   analyzer gives those a higher-blast rule, so the command's verdict is not the lease's;
//! - any destination that is protected (`protected_branches`, default main/master and what a
//!   project adds such as `release/*`), the branch a remote names as its default
//!   ([`Ctx::remote_default_branches`]), every branch (`--all`), a pattern refspec, or a
//!   destination that cannot be placed (the current branch when it is unknown, detached, or
//!   the push runs in another repository: `git -C ../x push`, after a `cd`).

use hookgate_shell::WorkDir;

use crate::Ctx;
use crate::action::{ActionKind, Facts, describe_with};
use crate::invariants::is_protected;
use crate::policy::Settings;

/// The analyzer rule a lease-checked push carries.
const LEASE_RULE: &str = "git.push_force_with_lease";

/// The line's commands (indices into the analysis) that are lease-checked force pushes to
/// known, unprotected branches that are no remote's default, and whether the answer needs the
/// remotes' default branches the context does not hold yet ([`Ctx::remote_default_branches`]
/// is `None`): then no push is set aside until the caller looks them up and judges again.
pub(crate) fn lease_pushes(
    facts: &Facts<'_>,
    ctx: &Ctx,
    settings: &Settings,
) -> (Vec<usize>, bool) {
    let Some(analysis) = &facts.analysis else {
        return (Vec::new(), false);
    };
    let mut out = Vec::new();
    let mut wanted = false;
    for (c, command) in analysis.commands.iter().enumerate() {
        if command.verdict.rule_id.as_deref() != Some(LEASE_RULE) {
            continue;
        }
        let described = describe_with(&command.argv, None, None);
        if !matches!(
            described.kind,
            ActionKind::GitPush | ActionKind::GitForcePush
        ) {
            continue;
        }
        // `--tags`/`--follow-tags` push tags beside the branches: shared names, not placed.
        if command
            .argv
            .iter()
            .any(|a| a == "--tags" || a == "--follow-tags")
        {
            continue;
        }
        let mut branches = described.branches;
        // No destination named, or `HEAD`: the branch checked out where the push runs, known
        // only for a push in the call's own repository.
        let here =
            command.cwd == WorkDir::Call && command.argv.get(1).is_some_and(|sub| sub == "push");
        if branches.is_empty() && here {
            branches.extend(ctx.branch.clone());
        }
        for b in &mut branches {
            if b == "HEAD"
                && here
                && let Some(current) = &ctx.branch
            {
                b.clone_from(current);
            }
        }
        let ordinary = |b: &String| {
            // `$`/`` ` ``: a word only known at run time keeps its source text.
            b != "HEAD"
                && !b.contains(['*', '?', '[', '$', '`'])
                && !b.is_empty()
                && !is_protected(settings, b)
        };
        if branches.is_empty() || !branches.iter().all(ordinary) {
            continue;
        }
        match &ctx.remote_default_branches {
            Some(defaults) if branches.iter().all(|b| !defaults.contains(b)) => out.push(c),
            Some(_) => {}
            None => wanted = true,
        }
    }
    (out, wanted)
}
