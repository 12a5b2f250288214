//! Evaluation: rules, then invariants, combined on the decision lattice, explained.

use std::path::Path;
use std::time::Instant;

use hookgate_core::{CanonicalCall, Decision, EventId, PathOp};
use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionKind, Facts};
use crate::invariants::{INVARIANTS, Judge, Violation, branch_matches};
use crate::policy::{Effect, Mode, Policy, Rule, Switch};
use crate::{Ctx, SessionState};
use crate::{analyzers, lease, regenerable, worktree};

/// Whether a match came from a policy rule or a built-in invariant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchedKind {
    /// A rule of a policy file.
    Rule,
    /// A built-in invariant.
    Invariant,
}

/// One rule or invariant that matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matched {
    /// Rule or invariant.
    pub kind: MatchedKind,
    /// Its id.
    pub id: String,
    /// 1-5.
    pub severity: u8,
    /// What it asked for.
    pub effect: Effect,
    /// Whether it decided or was only reported.
    pub mode: Mode,
    /// Why it matched.
    pub reason: String,
    /// Where a rule was defined (`file:line`); `None` for invariants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The allowance (`hookgate allow`) that waived this match: it matched, but no longer
    /// decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_by: Option<String>,
}

/// One timed stage of the evaluation (for `hookgate inspect`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// `actions`, `rules` or `invariants`.
    pub name: String,
    /// Wall time in microseconds.
    pub micros: u64,
    /// What it found, in a few words.
    pub outcome: String,
}

/// The policy's answer for one call, with everything needed to explain it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    /// `None`: no opinion (the agent's own permission flow applies).
    pub decision: Option<Decision>,
    /// Why, naming the deciding rule/invariant ids (`id: reason; …`).
    pub reason: Option<String>,
    /// What to do instead, from the deciding match.
    pub suggestion: Option<String>,
    /// Monitor-mode findings ("would deny: …"), for the agent's context or the log.
    pub context: Option<String>,
    /// The ids of every rule and invariant that determined `decision` (all enforced matches
    /// at the winning level, most severe first; Cedar's "determining policies"). Empty when
    /// there is no decision. The audit record, `stats` by rule and `explain` read these, never
    /// `matched.first()`, which may be a rule that lost.
    #[serde(default)]
    pub determining: Vec<String>,
    /// Every rule and invariant that matched, deciding or not.
    pub matched: Vec<Matched>,
    /// The canonical actions of the call.
    pub actions: Vec<Action>,
    /// Timed stages.
    pub steps: Vec<Step>,
    /// The ids of the allowances that waived a match of this call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_by: Vec<String>,
    /// For a deny or an ask: the exact `hookgate allow …` command that would let the call
    /// through, or why none can (a locked invariant decided).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub way_through: Option<String>,
    /// Directories whose work tree state ([`crate::Ctx::worktrees`]) this judgement would use
    /// and did not have: a caller that can look them up judges again with the answers (see
    /// the `worktree` module). Until then those discards are judged as always.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub worktrees_wanted: Vec<std::path::PathBuf>,
    /// Checkouts and restores of named paths whose state ([`crate::Ctx::pathspecs`]: anything
    /// uncommitted there?) this judgement would use and did not have; answered the same way
    /// as [`Evaluation::worktrees_wanted`]. Until then those discards are judged as always.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pathspecs_wanted: Vec<crate::PathspecState>,
    /// Archives extracted whole whose member lists ([`crate::Ctx::archives`]) this judgement
    /// would use and did not have — asked for only when the call is denied or asked, since
    /// a listing can only narrow the write. Until then the extraction is a write of the
    /// whole directory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub archives_wanted: Vec<crate::ArchiveListing>,
    /// A lease-checked push that would be set aside but for the remotes' default branches,
    /// which the context does not hold ([`crate::Ctx::remote_default_branches`] is `None`):
    /// a caller that can read them judges again with them. Until then the push keeps the
    /// analyzer's verdict.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remote_defaults_wanted: bool,
    /// Git commands that replace work-tree files with a commit's version, whose effect on
    /// the protected set ([`crate::Ctx::tree_moves`]) this judgement would use and did not
    /// have: a caller that can ask git judges again with the answers (see the `treemove`
    /// module). Until then those commands are judged by their words alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tree_moves_wanted: Vec<crate::TreeMove>,
    /// Forced branch deletions (`git branch -D`) whose loss ([`crate::Ctx::branches`]: would
    /// a commit only they reach be dropped?) this judgement would use and did not have;
    /// answered the same way as [`Evaluation::worktrees_wanted`]. Until then the deletion is
    /// judged as always.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches_wanted: Vec<crate::BranchState>,
}

/// What a caller settling a judgement (see [`Policy::judge_in_session`]) needs before it can
/// decide: the judgement is run again with the changed facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejudge {
    /// These allowances cannot be used by this call after all (a `--once` another call spent
    /// first, or one that could not be spent).
    Without(Vec<String>),
    /// The work tree states the judgement asked for ([`Evaluation::worktrees_wanted`]).
    With(Vec<crate::WorktreeState>),
    /// The pathspec states the judgement asked for ([`Evaluation::pathspecs_wanted`]).
    WithPathspecs(Vec<crate::PathspecState>),
    /// The archive listings the judgement asked for ([`Evaluation::archives_wanted`]).
    WithArchives(Vec<crate::ArchiveListing>),
    /// The remotes' default branches the judgement asked for
    /// ([`Evaluation::remote_defaults_wanted`]).
    WithRemoteDefaults(Vec<String>),
    /// The answers to the tree-move questions the judgement asked
    /// ([`Evaluation::tree_moves_wanted`]).
    WithTreeMoves(Vec<crate::TreeMove>),
    /// The branch states the judgement asked for ([`Evaluation::branches_wanted`]).
    WithBranches(Vec<crate::BranchState>),
}

fn micros(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// Events on which a decision can stop the call before it runs.
fn judged(event: EventId) -> bool {
    let c = event.contract();
    c.tool_matched && c.permission
}

impl Policy {
    fn effective_mode(&self, own: Option<Mode>) -> Mode {
        own.unwrap_or(self.mode)
    }

    /// Judges one call. Pure apart from the clock read for `steps` (and symlink `lstat`s
    /// when [`Ctx::follow_symlinks`] is set).
    pub fn evaluate(&self, call: &CanonicalCall, ctx: &Ctx, state: &SessionState) -> Evaluation {
        let started = Instant::now();
        let facts = Facts::build_in_session(call, ctx, state.secret_paths());
        self.evaluate_facts(&facts, call, ctx, state, started)
    }

    /// One session transaction over one call, for a caller holding the session's lock: judges
    /// the call, lets `finish` fold in the other judges (user hooks, permission modes) and
    /// return the final decision, counts that decision and, unless it is a deny or an ask,
    /// remembers what the call does.
    ///
    /// `finish` may instead answer `Err(Rejudge)`: allowances this call cannot use after all
    /// (a `--once` allowance another call spent first), or facts the judgement asked for
    /// (work tree states); the call is judged again with the change — so the evaluation
    /// returned is always the one the decision was made on.
    ///
    /// The call's facts (its shell analysis, canonical paths) are built once and serve both
    /// the judgement and the memory, so the two can never see different parses.
    pub fn judge_in_session(
        &self,
        call: &CanonicalCall,
        ctx: &Ctx,
        state: &mut SessionState,
        mut finish: impl FnMut(&Evaluation) -> Result<Option<Decision>, Rejudge>,
    ) -> (Evaluation, Option<Decision>) {
        let started = Instant::now();
        let mut facts = Facts::build_in_session(call, ctx, state.secret_paths());
        let mut changed: Option<Ctx> = None;
        let (evaluation, decision) = loop {
            let ctx_now = changed.as_ref().unwrap_or(ctx);
            let evaluation = self.evaluate_facts(&facts, call, ctx_now, state, started);
            let mut next = ctx_now.clone();
            match finish(&evaluation) {
                Ok(decision) => break (evaluation, decision),
                Err(Rejudge::Without(ids)) => {
                    next.allowances.retain(|a| !ids.contains(&a.id));
                }
                Err(Rejudge::WithArchives(listings)) => {
                    for l in listings {
                        if !next
                            .archives
                            .iter()
                            .any(|a| a.archive == l.archive && a.format == l.format)
                        {
                            next.archives.push(l);
                        }
                    }
                }
                Err(Rejudge::WithRemoteDefaults(branches)) => {
                    next.remote_default_branches = Some(branches);
                }
                Err(Rejudge::WithTreeMoves(answers)) => {
                    for a in answers {
                        if !next.tree_moves.contains(&a) {
                            next.tree_moves.push(a);
                        }
                    }
                }
                Err(Rejudge::WithBranches(states)) => {
                    for s in states {
                        if !next.branches.contains(&s) {
                            next.branches.push(s);
                        }
                    }
                }
                Err(Rejudge::WithPathspecs(states)) => {
                    for s in states {
                        if !next.pathspecs.contains(&s) {
                            next.pathspecs.push(s);
                        }
                    }
                }
                Err(Rejudge::With(states)) => {
                    for s in states {
                        if !next.worktrees.iter().any(|w| w.dir == s.dir) {
                            next.worktrees.push(s);
                        }
                    }
                }
            }
            if next == *ctx_now {
                // Nothing changed, yet the caller still cannot settle: the call does not pass
                // (never a silent allow).
                break (evaluation, Some(Decision::Deny));
            }
            // Member lists change what the call writes: its facts are built again.
            if next.archives != ctx_now.archives {
                facts = Facts::build_in_session(call, &next, state.secret_paths());
            }
            changed = Some(next);
        };
        let home = changed.as_ref().unwrap_or(ctx).home.clone();
        if !matches!(decision, Some(Decision::Deny | Decision::Ask)) {
            self.observe_facts(&facts, call, home.as_deref(), state);
        } else if judged(call.event) {
            // A destroy plan is remembered whatever the answer (monitor mode, the user's own
            // hand may run it): the record only makes a later apply stricter.
            let copies = crate::plans::plan_copies(&facts, state);
            if decision == Some(Decision::Ask) {
                // An asked write the user approves runs without another pre-tool call, and no
                // post-tool call says it did: its files count as written by the session now, so
                // a script appended to and approved is judged by its content when a later call
                // runs it (`transitive-effect-analysis`, write-then-execute) instead of passing
                // as a repository file. A declined write leaves the file as it was; judging it by
                // that content costs nothing more than the ask a written file already gets.
                note_written_paths(&facts, state);
            }
            crate::plans::note_plans(&facts, home.as_deref(), copies, state);
        }
        // Secret-holding files are remembered whatever the answer: an asked call may be let
        // run, a denied one may run anyway (monitor mode, the user by hand), and an agent that
        // tried to put a secret in a file and then sends that file is the same flow either way.
        let ran = !matches!(decision, Some(Decision::Deny | Decision::Ask));
        if judged(call.event) {
            // Provenance needs the file system as it is before the call runs: only here,
            // never from a post-tool report (see the `provenance` module).
            let ctx_now = changed.as_ref().unwrap_or(ctx);
            let update = {
                let judge = Judge::new(&facts, ctx_now, state, &self.settings);
                crate::provenance::record(&judge, ran)
            };
            update.apply(state);
        }
        note_secret_files(&facts, state, ran);
        (evaluation, decision)
    }

    fn evaluate_facts(
        &self,
        facts: &Facts<'_>,
        call: &CanonicalCall,
        ctx: &Ctx,
        state: &SessionState,
        started: Instant,
    ) -> Evaluation {
        let mut steps = vec![Step {
            name: "actions".into(),
            micros: micros(started),
            outcome: format!("{} action(s)", facts.actions.len()),
        }];
        let mut matched: Vec<Matched> = Vec::new();
        if !judged(call.event) || facts.actions.is_empty() {
            return Evaluation {
                decision: None,
                reason: None,
                suggestion: None,
                context: None,
                determining: Vec::new(),
                matched,
                actions: facts.actions.clone(),
                steps,
                allowed_by: Vec::new(),
                way_through: None,
                worktrees_wanted: Vec::new(),
                pathspecs_wanted: Vec::new(),
                archives_wanted: Vec::new(),
                remote_defaults_wanted: false,
                tree_moves_wanted: Vec::new(),
                branches_wanted: Vec::new(),
            };
        }

        // Rules. `allow_covered`: actions some enforcing allow or approve rule covers (their
        // overrides apply only when every action is covered); `approve_covered`: the same for
        // approve rules alone (only they can answer allow).
        let t = Instant::now();
        let mut allow_covered = vec![false; facts.actions.len()];
        let mut approve_covered = vec![false; facts.actions.len()];
        let mut overrides: Vec<&'static str> = Vec::new();
        let mut suggestions: Vec<(Effect, u8, String)> = Vec::new();
        for rule in &self.rules {
            let hits: Vec<usize> = (0..facts.actions.len())
                .filter(|&i| rule_matches(rule, facts, i, ctx))
                .collect();
            if hits.is_empty() {
                continue;
            }
            let mode = self.effective_mode(rule.mode);
            if rule.effect.loosens() && mode == Mode::Enforce {
                for &i in &hits {
                    allow_covered[i] = true;
                    if rule.effect == Effect::Approve {
                        approve_covered[i] = true;
                    }
                }
                overrides.extend(rule.overrides.iter().copied());
            }
            let targets: Vec<&str> = hits
                .iter()
                .flat_map(|&i| facts.actions[i].targets.iter().map(String::as_str))
                .take(3)
                .collect();
            let reason = rule.reason.clone().unwrap_or_else(|| {
                format!("{} {}", facts.actions[hits[0]].kind, targets.join(", "))
            });
            if let Some(s) = &rule.suggestion {
                suggestions.push((rule.effect, rule.severity, s.clone()));
            }
            matched.push(Matched {
                kind: MatchedKind::Rule,
                id: rule.id.clone(),
                severity: rule.severity,
                effect: rule.effect,
                mode,
                reason,
                origin: Some(rule.origin.clone()),
                allowed_by: None,
            });
        }
        let all_allowed = allow_covered.iter().all(|c| *c);
        let all_approved = approve_covered.iter().all(|c| *c);
        steps.push(Step {
            name: "rules".into(),
            micros: micros(t),
            outcome: format!("{} of {} matched", matched.len(), self.rules.len()),
        });

        // Invariants.
        let t = Instant::now();
        let judge = Judge::new(facts, ctx, state, &self.settings);
        let mut violated = 0usize;
        let mut analyzer_allowed: Vec<String> = Vec::new();
        let mut analyzer_deciding: Vec<String> = Vec::new();
        let disposable = worktree::disposable(facts, ctx);
        let lossless = crate::branches::lossless_deletes(facts, ctx);
        let mut tree_moves_wanted = crate::treemove::wanted(judge.tree_moves());
        let (cache_deletes, mut cache_notes) = regenerable::cache_deletes(facts, ctx);
        let (ignored_cleans, ignored_notes) = regenerable::ignored_cleans(facts, ctx);
        cache_notes.extend(ignored_notes);
        let (installs, install_notes) = crate::invariants::new_program_installs(&judge);
        let (lease_pushes, remote_defaults_wanted) =
            lease::lease_pushes(facts, ctx, &self.settings);
        let (created_deletes, created_notes) = crate::provenance::created_only(&judge);
        cache_notes.extend(created_notes);
        let set_aside: Vec<usize> = disposable
            .commands
            .iter()
            .chain(&lossless.commands)
            .chain(&cache_deletes)
            .chain(&created_deletes)
            .chain(&judge.provenance().reads_set_aside)
            .chain(&ignored_cleans)
            .chain(&installs)
            .chain(&lease_pushes)
            .copied()
            .collect();
        for (info, switch) in INVARIANTS.iter().zip(&self.switches) {
            // A locked invariant (the guard protecting itself) always enforces: no switch
            // and no `mode: monitor` turns it into advice.
            let mode = match switch {
                _ if info.locked => Mode::Enforce,
                Switch::Off => continue,
                Switch::On | Switch::Ask => self.mode,
                Switch::Enforce => Mode::Enforce,
                Switch::Monitor => Mode::Monitor,
            };
            if all_allowed && !info.locked && overrides.contains(&info.id) {
                continue;
            }
            let found = info.check(&judge);
            let found = if info.id == analyzers::INVARIANT {
                let refined = analyzers::refine(
                    found,
                    facts.analysis.as_ref(),
                    &self.analyzers,
                    &ctx.allowances,
                    &set_aside,
                );
                analyzer_deciding = refined.deciding;
                if let Some(waived) = refined.waived {
                    // Every part the invariant objected to was allowed by analyzer id: the
                    // match is listed, waived, and decides nothing.
                    matched.push(Matched {
                        kind: MatchedKind::Invariant,
                        id: info.id.to_owned(),
                        severity: info.severity,
                        effect: waived.effect,
                        mode,
                        reason: waived.reason,
                        origin: None,
                        allowed_by: refined.allowed_by.first().cloned(),
                    });
                }
                analyzer_allowed = refined.allowed_by;
                refined.violation
            } else if info.id == worktree::DISCARD_INVARIANT
                && worktree::covers_every_discard(facts, &set_aside)
            {
                None
            } else {
                found
            };
            let Some(Violation {
                effect,
                reason,
                suggestion,
            }) = found
            else {
                continue;
            };
            violated += 1;
            // `ask`: the invariant still speaks, but a person has the last word.
            let effect = if *switch == Switch::Ask && !info.locked && effect == Effect::Deny {
                Effect::Ask
            } else {
                effect
            };
            if let Some(s) = suggestion {
                suggestions.push((effect, info.severity, s));
            }
            matched.push(Matched {
                kind: MatchedKind::Invariant,
                id: info.id.to_owned(),
                severity: info.severity,
                effect,
                mode,
                reason,
                origin: None,
                allowed_by: None,
            });
        }
        steps.push(Step {
            name: "invariants".into(),
            micros: micros(t),
            outcome: format!("{violated} violated"),
        });
        if !lossless.notes.is_empty() {
            steps.push(Step {
                name: "branches".into(),
                micros: 0,
                outcome: format!("set aside: {}", lossless.notes.join("; ")),
            });
        }
        if !disposable.notes.is_empty() {
            steps.push(Step {
                name: "worktrees".into(),
                micros: 0,
                outcome: format!("set aside: {}", disposable.notes.join("; ")),
            });
        }
        if !install_notes.is_empty() {
            steps.push(Step {
                name: "user_bin".into(),
                micros: 0,
                outcome: format!("set aside: {}", install_notes.join("; ")),
            });
        }
        if !cache_notes.is_empty() {
            steps.push(Step {
                name: "regenerable".into(),
                micros: 0,
                outcome: format!("set aside: {}", cache_notes.join("; ")),
            });
        }
        if let Some(analysis) = facts.analysis.as_ref().filter(|_| !lease_pushes.is_empty()) {
            let pushes: Vec<String> = lease_pushes
                .iter()
                .filter_map(|&c| analysis.commands.get(c))
                .map(|c| format!("`{}`", c.argv.join(" ")))
                .collect();
            steps.push(Step {
                name: "lease".into(),
                micros: 0,
                outcome: format!(
                    "set aside: {} (lease-checked, to no protected or remote-default branch)",
                    pushes.join(", ")
                ),
            });
        }

        // Combine: deny > ask > approve. An approve needs every action covered by approve
        // rules; an allow never decides (no opinion: the agent's own permission flow applies).
        // Allowances the user wrote waive the matches they cover (never a locked invariant's).
        let command = call.tool.as_ref().and_then(|t| t.command.as_deref());
        let mut allowed_by: Vec<String> = analyzer_allowed;
        for m in &mut matched {
            if m.mode != Mode::Enforce || m.effect.loosens() || m.allowed_by.is_some() {
                continue;
            }
            if let Some(a) = ctx.allowances.iter().find(|a| a.covers(&m.id, command)) {
                m.allowed_by = Some(a.id.clone());
                if !allowed_by.contains(&a.id) {
                    allowed_by.push(a.id.clone());
                }
            }
        }
        let enforced = || {
            matched
                .iter()
                .filter(|m| m.mode == Mode::Enforce && m.allowed_by.is_none())
        };
        let top = enforced()
            .map(|m| m.effect)
            .filter(|e| !e.loosens())
            .max()
            .or_else(|| all_approved.then_some(Effect::Approve));
        let (reason, suggestion, determining): (_, _, Vec<String>) = match top {
            Some(effect) => {
                let mut deciding: Vec<&Matched> =
                    enforced().filter(|m| m.effect == effect).collect();
                deciding.sort_by_key(|m| std::cmp::Reverse(m.severity));
                let reason = deciding
                    .iter()
                    .map(|m| format!("{}: {}", m.id, m.reason))
                    .collect::<Vec<_>>()
                    .join("; ");
                let determining = deciding.iter().map(|m| m.id.clone()).collect();
                suggestions.sort_by_key(|s| std::cmp::Reverse(s.1));
                let suggestion = suggestions
                    .iter()
                    .find(|(e, _, _)| *e == effect)
                    .map(|(_, _, s)| s.clone());
                (Some(reason), suggestion, determining)
            }
            None => (None, None, Vec::new()),
        };
        let monitored: Vec<String> = matched
            .iter()
            .filter(|m| m.mode == Mode::Monitor && !m.effect.loosens() && m.allowed_by.is_none())
            .filter_map(|m| {
                let decision = m.effect.decision()?;
                Some(format!("would {decision}: {}: {}", m.id, m.reason))
            })
            .collect();
        let decision = top.and_then(Effect::decision);
        // The way through names the analyzer rules that decided rather than the whole
        // `destructive-shell` invariant: allowing one rule for an hour is the smaller grant.
        let way_through = matches!(decision, Some(Decision::Deny | Decision::Ask)).then(|| {
            let ids: Vec<String> = determining
                .iter()
                .flat_map(|id| {
                    if id == analyzers::INVARIANT && !analyzer_deciding.is_empty() {
                        analyzer_deciding.clone()
                    } else {
                        vec![id.clone()]
                    }
                })
                .collect();
            crate::allowance::way_through(&ids, command, &ctx.workspace)
        });
        // What a discard rewrites only narrows it (see `treemove::discards`): wanted only
        // when the call is objected to.
        if matches!(decision, Some(Decision::Deny | Decision::Ask)) {
            for (_, mv) in judge.discards() {
                if mv.answer.is_none() && !tree_moves_wanted.contains(mv) {
                    tree_moves_wanted.push(mv.clone());
                }
            }
        }
        // A listing only narrows what an extraction writes: wanted only when it may matter.
        let archives_wanted = if matches!(decision, Some(Decision::Deny | Decision::Ask)) {
            facts.archives_unlisted.clone()
        } else {
            Vec::new()
        };
        // Whether an env file the line reads is committed configuration: asked of git only
        // when the answer may matter.
        let mut pathspecs_wanted = disposable.paths_wanted;
        if matches!(decision, Some(Decision::Deny | Decision::Ask)) {
            pathspecs_wanted.extend(judge.provenance().committed_wanted.iter().cloned());
        }
        Evaluation {
            allowed_by,
            way_through,
            worktrees_wanted: disposable.wanted,
            pathspecs_wanted,
            archives_wanted,
            remote_defaults_wanted,
            tree_moves_wanted,
            branches_wanted: lossless.wanted,
            decision,
            reason,
            suggestion,
            context: (!monitored.is_empty()).then(|| monitored.join("; ")),
            determining,
            matched,
            actions: facts.actions.clone(),
            steps,
        }
    }

    /// Updates the session state after a call the agent was allowed to make (pre-tool) or
    /// has made (post-tool): files written, manifests awaiting an install, test results,
    /// pull requests opened. Call it for every event; it ignores what it has no use for.
    pub fn observe(&self, call: &CanonicalCall, ctx: &Ctx, state: &mut SessionState) {
        let facts = Facts::build_in_session(call, ctx, state.secret_paths());
        self.observe_facts(&facts, call, ctx.home.as_deref(), state);
        note_secret_files(&facts, state, true);
    }

    #[allow(clippy::unused_self)] // a policy method: what is remembered may come to depend on it
    fn observe_facts(
        &self,
        facts: &Facts<'_>,
        call: &CanonicalCall,
        home: Option<&Path>,
        state: &mut SessionState,
    ) {
        if judged(call.event) {
            let copies = crate::plans::plan_copies(facts, state);
            let wrote = note_written_paths(facts, state);
            note_builds(facts, state);
            crate::plans::note_plans(facts, home, copies, state);
            for (i, item) in facts.items.iter().enumerate() {
                for p in item.paths.iter().filter(|p| p.op != PathOp::Read) {
                    let path = p.path.to_string_lossy().into_owned();
                    let name = p.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    if name == "package.json"
                        && !state.manifests_pending_install.contains(&path)
                        && state.manifests_pending_install.len() < 64
                    {
                        state.manifests_pending_install.push(path);
                    }
                }
                if facts.actions[i].kind == ActionKind::PackageInstall
                    && facts.argv(i).is_some_and(|a| {
                        matches!(
                            a.first().map(String::as_str),
                            Some("npm" | "pnpm" | "yarn" | "bun")
                        )
                    })
                {
                    state.manifests_pending_install.clear();
                }
            }
            if wrote {
                state.tests_pass = None;
            }
            return;
        }
        if call.event != EventId::PostToolUse {
            return;
        }
        if call
            .tool
            .as_ref()
            .and_then(|t| t.command.as_deref())
            .is_none()
        {
            return;
        }
        let ok = call.tool_succeeded;
        for (i, _) in facts.actions.iter().enumerate() {
            let Some(argv) = facts.argv(i) else { continue };
            if is_test_command(argv)
                && let Some(ok) = ok
            {
                state.tests_pass = Some(ok);
            }
            let words: Vec<&str> = argv.iter().map(String::as_str).collect();
            if matches!(words.as_slice(), ["gh", "pr", "create", ..])
                && let Some(url) = call.tool_output.as_deref().and_then(created_pr_url)
                && !state.created_prs.contains(&url)
            {
                state.created_prs.push(url);
            }
        }
    }
}

/// Remembers what a shell line leaves holding secret data for the session's later lines
/// ([`SessionState::secret_files`]): the files the analyzer saw it write from a secret source;
/// one it moves is remembered at its new place too (the move's destinations in the same
/// command). Only a line that `ran` (was allowed, or is reported done) makes the session
/// forget: a remembered file it deletes, or the old place of one it moves. Invariant: a
/// refused or asked line never clears a taint, so `rm /tmp/e` denied as part of a larger
/// line cannot launder `/tmp/e` for a later upload.
/// Remembers the files the call writes (content, or only permissions), whatever tool writes
/// them; true when it writes any.
fn note_written_paths(facts: &Facts<'_>, state: &mut SessionState) -> bool {
    let mut wrote = false;
    for p in facts
        .items
        .iter()
        .flat_map(|item| item.paths.iter())
        .filter(|p| p.op != PathOp::Read)
    {
        let path = p.path.to_string_lossy();
        if p.metadata {
            state.note_mode_changed(&path);
        } else {
            state.note_written(&path);
        }
        wrote = true;
    }
    // A write whose target is computed at run time may have been to any file: the records
    // that vouch for a file's content go (an approved `python3 -c` writing a computed path
    // must not leave `/tmp/tool` vouched for as the build of a package).
    if facts.items.iter().any(|item| !item.unplaced.is_empty()) {
        state.note_unplaced_write();
        wrote = true;
    }
    wrote
}

/// Remembers the programs this call builds with an explicit output (see
/// [`SessionState::built`]): `go build -o OUT [PKG]` stands for `go run PKG`. Called after
/// [`note_written_paths`], whose `note_written` drops the record of any path written again
/// (by anything: an asked write too), so a build records itself last. Invariant: an entry
/// only ever says "this file is the build of this package"; a build that cannot be read
/// (see [`crate::invariants::go_build_output`]) records nothing, and running its output
/// stays write-then-execute.
fn note_builds(facts: &Facts<'_>, state: &mut SessionState) {
    for (i, _) in facts.actions.iter().enumerate() {
        let (Some(argv), Some(dir)) = (facts.argv(i), facts.command_dir(i)) else {
            continue;
        };
        if let Some((path, run)) = crate::invariants::go_build_output(argv, dir, None) {
            state.built.retain(|b| b.path != path);
            if state.built.len() < crate::MAX_BUILT {
                state.built.push(crate::Built { path, run });
            }
        }
    }
}

fn note_secret_files(facts: &Facts<'_>, state: &mut SessionState, ran: bool) {
    if state.secret_files.is_empty()
        && facts
            .analysis
            .as_ref()
            .is_none_or(|a| a.secret_files.is_empty())
    {
        return;
    }
    for item in &facts.items {
        for p in &item.paths {
            match p.op {
                PathOp::Delete if ran => state
                    .secret_files
                    .retain(|f| !hookgate_paths::is_within(Path::new(&f.path), &p.path)),
                PathOp::Move => {
                    let path = p.path.to_string_lossy();
                    let Some(source) = state
                        .secret_files
                        .iter()
                        .find(|f| *f.path == *path)
                        .map(|f| f.source.clone())
                    else {
                        continue;
                    };
                    if ran {
                        state.secret_files.retain(|f| *f.path != *path);
                    }
                    for to in item.paths.iter().filter(|q| q.op == PathOp::Write) {
                        state.note_secret(&to.path.to_string_lossy(), source.clone());
                    }
                }
                PathOp::Delete | PathOp::Read | PathOp::Write => {}
            }
        }
    }
    if let Some(analysis) = &facts.analysis {
        for (path, source) in &analysis.secret_files {
            state.note_secret(&path.to_string_lossy(), source.clone());
        }
    }
}

/// The pull request `gh pr create` reports: the last whitespace-separated word of its output
/// that parses as `http(s)://HOST/OWNER/REPO/pull/NUMBER` (gh prints the new PR's URL last;
/// GitHub Enterprise hosts count). A URL merely mentioned inside other text (a quoted body,
/// `.../pull/7/files`, `?x=/pull/7`) is not that shape and is not taken.
fn created_pr_url(output: &str) -> Option<String> {
    output.split_whitespace().rev().find_map(pr_url)
}

fn pr_url(word: &str) -> Option<String> {
    let (scheme, rest) = word
        .strip_prefix("https://")
        .map(|r| ("https", r))
        .or_else(|| word.strip_prefix("http://").map(|r| ("http", r)))?;
    let mut parts = rest.split('/');
    let host = parts.next()?;
    let [owner, repo, pull, number] = [parts.next()?, parts.next()?, parts.next()?, parts.next()?];
    let name_ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b':'));
    (parts.next().is_none()
        && host_ok
        && name_ok(owner)
        && name_ok(repo)
        && pull == "pull"
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit()))
    .then(|| format!("{scheme}://{host}/{owner}/{repo}/pull/{number}"))
}

fn is_test_command(argv: &[String]) -> bool {
    let words: Vec<&str> = argv.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["pytest" | "vitest" | "jest" | "tox" | "nox", ..]
        | ["npm" | "pnpm" | "yarn" | "bun", "run", "test", ..]
        | ["python" | "python3", "-m", "pytest" | "unittest", ..] => true,
        [program, sub, ..] => matches!(
            (*program, *sub),
            ("cargo", "test" | "nextest")
                | ("npm" | "pnpm" | "yarn" | "bun" | "go", "test")
                | ("make", "test" | "check")
        ),
        _ => false,
    }
}

fn rule_matches(rule: &Rule, facts: &Facts<'_>, i: usize, ctx: &Ctx) -> bool {
    let action = &facts.actions[i];
    let item = &facts.items[i];
    if !rule.actions.is_empty() && !rule.actions.iter().any(|a| a.matches(action.kind)) {
        return false;
    }
    if let Some(re) = &rule.tool {
        let kind = facts.tool.map(|t| t.kind);
        let kind_word = kind
            .and_then(|k| serde_json::to_value(k).ok())
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        if !re.is_match(&action.tool) && !re.is_match(&kind_word) {
            return false;
        }
    }
    if !rule.commands.is_empty() {
        let Some(command) = item
            .command
            .and_then(|c| facts.analysis.as_ref()?.commands.get(c))
        else {
            return false;
        };
        if !rule.commands.iter().any(|p| p.matches(command)) {
            return false;
        }
    }
    if !rule.paths.is_empty() {
        let hit = item.paths.iter().any(|p| {
            rule.paths
                .iter()
                .any(|g| g.matches(&p.path, &ctx.workspace, ctx.home.as_deref()))
        });
        if !hit {
            return false;
        }
    }
    if !rule.branches.is_empty() {
        let candidates: Vec<&str> = if item.branches.is_empty() {
            ctx.branch.as_deref().into_iter().collect()
        } else {
            item.branches.iter().map(String::as_str).collect()
        };
        if candidates.is_empty() {
            // An unknown branch may be any branch: deny/ask rules match, allow/approve rules don't.
            return !rule.effect.loosens();
        }
        let hit = candidates.iter().any(|b| {
            // `*` (push --all/--mirror) may include any branch: never enough for an allow/approve.
            (*b == "*" && !rule.effect.loosens())
                || rule.branches.iter().any(|p| branch_matches(p, b))
        });
        if !hit {
            return false;
        }
    }
    true
}
