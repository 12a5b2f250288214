//! Git commands that replace work-tree files with a commit's version, judged by what they
//! would change in the protected set.
//!
//! The agent may not write `.claude/settings.json` (or any file of hookgate's protected set),
//! and every direct spelling of that write is denied. Git offers indirect ones: put another
//! version of the file in a commit (`git hash-object -w` + `git update-index --cacheinfo` +
//! `git commit`, or a commit made in a clone elsewhere and fetched), then let an ordinary
//! command bring it into the work tree — `git checkout other && git checkout -`, `git merge`,
//! `git rebase`, `git cherry-pick`, `git stash pop`, `git bisect`. Each of those steps alone
//! is routine work, so none can be refused by its words; what decides is what the command
//! would change. The policy cannot see the repository (this crate does no I/O), so it names
//! the question ([`TreeMove`], in [`crate::Evaluation::tree_moves_wanted`]) and the caller
//! (the guard) asks git — read-only, restricted to the protected locations — and judges again
//! with the answers in [`crate::Ctx::tree_moves`].
//!
//! Invariant protected: `no-governance-self-modification`. A command whose answer names a
//! file of the protected set is denied; a question git could not answer (a timeout, an unborn
//! `HEAD`) asks; a command whose target cannot be placed before it runs — another repository
//! or work tree (`--git-dir`, `--work-tree`), a ref the same line moves first (`git branch -f
//! x evil && git checkout x`), a fetch from a local path earlier on the line — asks.
//!
//! Deliberately not asked: `git pull` and `gh pr checkout` from a remote. What a remote holds
//! was pushed by people, or by an agent through a push (judged there) or an API call (judged
//! as a network write); asking on every pull in a repository that tracks its agent settings
//! would train users to approve blindly. A pull from a local path is a merge of a commit the
//! agent could have made, so it asks.
//!
//! A caller that does not answer (`hookgate policy test`, a library user) gets today's
//! judgement: these commands are ordinary until shown otherwise, and the guard always answers.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::Ctx;
use crate::action::Facts;
use crate::pattern::base_name;

/// Where agent hook configs and hookgate's own config can live inside a repository, as git
/// pathspecs anchored at the top of the work tree. A superset of the catalog's
/// `agent_hook_config` and `hookgate_config` entries that are anchored anywhere (checked by
/// `every_protected_catalog_location_is_in_the_lookup`): git narrows the comparison to these,
/// and the policy classifies each answered path through the catalog itself, so the catalog
/// stays the one source of truth for what is protected.
pub const PROTECTED_PATHSPECS: &[&str] = &[
    ":(top,glob)**/.claude/**",
    ":(top,glob)**/.mcp.json",
    ":(top,glob)**/.codex/**",
    ":(top,glob)**/.codex-plugin/**",
    ":(top,glob)**/.gemini/**",
    ":(top,glob)**/.github/hooks/**",
    ":(top,glob)**/.github/copilot/**",
    ":(top,glob)**/.copilot/**",
    ":(top,glob)**/.cursor/**",
    ":(top,glob)**/.windsurf/**",
    ":(top,glob)**/.clinerules/**",
    ":(top,glob)**/.opencode/**",
    ":(top,glob)**/opencode.json",
    ":(top,glob)**/.factory/**",
    ":(top,glob)**/.kiro/**",
    ":(top,glob)**/.continue/**",
    ":(top,glob)**/.vscode/**",
    ":(top,glob)**/.hookgate/**",
    ":(top,glob)**/hookgate.*",
];

/// git's empty tree: what `git switch --orphan` leaves tracked.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// A question about one command: which files would it change, among `pathspecs` (and the
/// protected files in `protected`)?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeMove {
    /// The directory git runs in (the command's, after `cd` and `-C`).
    pub dir: PathBuf,
    /// What is compared with what.
    pub change: TreeChange,
    /// Git pathspecs the comparison is limited to: [`PROTECTED_PATHSPECS`] for a whole-tree
    /// move, the command's own pathspecs for `git checkout TREE -- PATHS` (git matches them
    /// exactly as the command will).
    pub pathspecs: Vec<String>,
    /// Files of the protected set that are not in an agent or hookgate config directory
    /// (hook scripts, the hookgate binary): the caller adds those inside the work tree as
    /// literal pathspecs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub protected: Vec<PathBuf>,
    /// The caller's answer; `None` until looked up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<TreeAnswer>,
}

/// What a command makes of the work tree, as a comparison git can run without changing it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TreeChange {
    /// The files become `target`'s (`git checkout BRANCH`, `git switch`, `git checkout TREE
    /// -- PATHS`): every path where the work tree differs from it (`git diff TARGET`).
    Becomes { target: String },
    /// What `target` changed since it forked from `HEAD` arrives (`git merge`, `git rebase`):
    /// `git diff HEAD...TARGET`.
    Merges { target: String },
    /// What these commits change arrives (`git cherry-pick`, `git revert`): `git log
    /// --no-walk` of them.
    Applies { revs: Vec<String> },
    /// Any commit of a range may be checked out (`git bisect`): `git log` of the range.
    Walks { range: Vec<String> },
    /// A stash entry's tracked and untracked files are written back (`git stash pop/apply`).
    Unstashes { stash: String },
    /// What the work tree holds that `HEAD` does not is put away, the files rewritten to
    /// `HEAD` (`git stash` without paths, `git reset --hard`).
    Reverts,
    /// Tracked files go back to the index's version (`git checkout .`, `git restore
    /// PATHS`): `git diff` of the work tree against the index.
    Unindexes,
    /// Untracked files are removed (`git clean -f`, `git stash -u`); with `ignored`, ignored
    /// ones too (`clean -x`, `stash -a`), with `only_ignored` only those (`clean -X`).
    Removes { ignored: bool, only_ignored: bool },
}

/// The caller's answer to a [`TreeMove`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum TreeAnswer {
    /// The files (absolute) the command would change, among the pathspecs asked about.
    Paths { paths: Vec<PathBuf> },
    /// Git could not say (why): the command is asked about.
    Unknown { why: String },
}

/// One tree-moving command of the line: its words, and the question — or why no question
/// can place it.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    pub shown: String,
    pub mv: Result<TreeMove, String>,
    /// The command's index in the line's analysis.
    pub command: usize,
}

impl TreeMove {
    /// Whether `other` asks the same question (answers are matched to questions by this).
    fn same_question(&self, other: &Self) -> bool {
        self.dir == other.dir
            && self.change == other.change
            && self.pathspecs == other.pathspecs
            && self.protected == other.protected
    }

    fn new(dir: &Path, change: TreeChange) -> Self {
        Self {
            dir: dir.to_path_buf(),
            change,
            pathspecs: PROTECTED_PATHSPECS
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            protected: Vec::new(),
            answer: None,
        }
    }
}

/// The questions of the line, with the answers the context already holds filled in.
/// `protected` gives the protected set (see [`TreeMove::protected`]); it is called only when
/// the line has a tree-moving git command (it may read the file system). Empty when there is
/// none.
pub(crate) fn queries(
    facts: &Facts<'_>,
    ctx: &Ctx,
    protected: impl FnOnce() -> Vec<PathBuf>,
) -> Vec<Query> {
    let mut out = unanswered(facts, ctx);
    if out.is_empty() {
        return out;
    }
    let protected = protected();
    let stale = index_staleness(facts, ctx, &protected);
    let mut extra: Vec<Query> = Vec::new();
    for q in &mut out {
        match stale.get(q.command) {
            Some(Stale::Unknown(why)) if q.mv.is_ok() => q.mv = Err(why.clone()),
            Some(Stale::Untracked(added)) => {
                for (shown, mv) in added {
                    if !extra.iter().any(|e| e.mv.as_ref().is_ok_and(|m| m == mv)) {
                        extra.push(Query {
                            shown: format!("{shown} … {}", q.shown),
                            mv: Ok(mv.clone()),
                            command: q.command,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out.extend(extra);
    for q in &mut out {
        if let Ok(mv) = &mut q.mv {
            mv.protected.clone_from(&protected);
            if let Some(answered) = ctx.tree_moves.iter().find(|a| a.same_question(mv)) {
                mv.answer.clone_from(&answered.answer);
            }
        }
    }
    out
}

fn unanswered(facts: &Facts<'_>, ctx: &Ctx) -> Vec<Query> {
    let Some(analysis) = &facts.analysis else {
        return Vec::new();
    };
    let mut out: Vec<Query> = Vec::new();
    // Refs the line moves before a later command reads them, and whether a stash was made.
    let mut moved_refs = false;
    let mut stashed = false;
    // Earlier commands of the line that move `HEAD` (a commit, merge, reset, switch, …) and
    // how many of them switch branches: a later revision read relative to `HEAD` names
    // another commit when the line runs than when it is looked up.
    let mut head_moves = 0usize;
    let mut switches = 0usize;
    for (index, command) in analysis.commands.iter().enumerate() {
        let argv = &command.argv;
        let Some(program) = argv.first() else {
            continue;
        };
        if base_name(program) != "git" {
            continue;
        }
        let dir = command
            .cwd
            .path(&facts.cwd)
            .unwrap_or(&facts.cwd)
            .to_path_buf();
        let shown = argv.join(" ");
        let Some((dir, sub, rest)) = git_command(argv, &dir, ctx.home.as_deref()) else {
            // Another repository or work tree, named on the command line.
            if moves_tree(argv) {
                out.push(Query {
                    shown,
                    mv: Err("it names its own git directory or work tree".to_owned()),
                    command: index,
                });
            }
            continue;
        };
        let changes = changes_of(sub, rest, stashed);
        if matches!(sub, "stash") && stash_pushes(rest) {
            stashed = true;
        }
        let switching = switches_branch(sub, &changes);
        for change in changes {
            if head_moves > 0 && reads_head(&change.what) {
                // `git checkout -` after the line's one switch goes back to where the line
                // started: the files that differ are the ones the switch was asked about.
                if switching && switches == 1 && returns_to_start(&change.what) {
                    continue;
                }
                out.push(Query {
                    shown: shown.clone(),
                    mv: Err("an earlier command on the line moves HEAD, which it reads".to_owned()),
                    command: index,
                });
                continue;
            }
            let mut mv = TreeMove::new(&dir, change.what);
            if let Some(specs) = change.pathspecs {
                mv.pathspecs = specs;
            }
            let mv = if change.unplaced || moved_refs {
                Err(if moved_refs {
                    "an earlier command on the line moves the refs it reads".to_owned()
                } else {
                    "what it reads comes from outside the repository".to_owned()
                })
            } else {
                Ok(mv)
            };
            out.push(Query {
                shown: shown.clone(),
                mv,
                command: index,
            });
        }
        if moves_refs(sub, rest) {
            moved_refs = true;
        }
        if switching {
            switches += 1;
        }
        if switching || moves_head(sub, rest) {
            head_moves += 1;
        }
    }
    out
}

/// Whether the command switches branches or detaches `HEAD` (`checkout BRANCH`, `switch`,
/// `checkout -b NEW`), as opposed to taking files from a commit (`checkout REV -- PATHS`).
fn switches_branch(sub: &str, changes: &[Change]) -> bool {
    matches!(sub, "checkout" | "switch")
        && changes
            .iter()
            .any(|c| c.pathspecs.is_none() && matches!(c.what, TreeChange::Becomes { .. }))
}

/// Whether a git command moves `HEAD` (besides switching branches, see
/// [`switches_branch`]): a later `HEAD~1`, `@{1}` or `ORIG_HEAD` then names another commit.
fn moves_head(sub: &str, rest: &[String]) -> bool {
    match sub {
        "commit" | "merge" | "rebase" | "cherry-pick" | "revert" | "am" | "pull" | "bisect" => true,
        // `reset PATHS` leaves HEAD; any other reset may move it.
        "reset" => {
            let (words, dashed) = operands(rest, &["--pathspec-from-file"]);
            dashed.is_none() || !words.is_empty()
        }
        "checkout" => has(rest, &["-b", "-B", "--orphan", "--detach"]),
        _ => false,
    }
}

/// Whether a change reads a revision relative to where `HEAD` is (`HEAD~2`, `@`, `@{-1}`,
/// `ORIG_HEAD`, a reflog entry).
fn reads_head(what: &TreeChange) -> bool {
    let relative = |r: &str| {
        let r = r.trim_start_matches('^');
        r.starts_with("HEAD")
            || r.starts_with('@')
            || r.contains("@{")
            || [
                "ORIG_HEAD",
                "FETCH_HEAD",
                "MERGE_HEAD",
                "CHERRY_PICK_HEAD",
                "REVERT_HEAD",
            ]
            .iter()
            .any(|h| r.starts_with(h))
    };
    match what {
        TreeChange::Becomes { target } | TreeChange::Merges { target } => relative(target),
        TreeChange::Applies { revs } => revs.iter().any(|r| relative(r)),
        TreeChange::Walks { range } => range.iter().any(|r| relative(r)),
        TreeChange::Unstashes { .. }
        | TreeChange::Reverts
        | TreeChange::Unindexes
        | TreeChange::Removes { .. } => false,
    }
}

/// `checkout -` / `switch -`: back to the branch checked out before.
fn returns_to_start(what: &TreeChange) -> bool {
    matches!(what, TreeChange::Becomes { target } if target == "@{-1}")
}

/// How far git's answers about a command, looked up before the line runs, hold once the
/// earlier commands of the line have changed what git tracks (see [`index_staleness`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stale {
    /// Nothing earlier on the line changes what git tracks of the protected files.
    Holds,
    /// Earlier `git add`s may start tracking untracked protected files (a later stash,
    /// commit-and-checkout or clean then removes them): the answers hold if these questions
    /// — which untracked files would each add take in — name no protected file.
    Untracked(Vec<(String, TreeMove)>),
    /// An earlier command changes what git tracks in a way no lookup made before the line
    /// can follow (why).
    Unknown(String),
}

/// For each command of the line (by index): whether git's answers about it, looked up before
/// the line runs, describe the state it will meet — an earlier command of the line may
/// change what git tracks of the protected files (`git rm --cached -r .`, `git reset --soft
/// REV`, `git read-tree`, `git add -A` of untracked ones), so a later stash, clean or
/// checkout may keep, drop or replace them differently from what the lookup says.
///
/// Invariant protected: `no-governance-self-modification` — `git rm --cached .claude && git
/// commit -m x && git stash -u` removes the settings although a lookup made before the line
/// finds them tracked and clean; `git add -A && git commit -m wip && git checkout main`
/// removes untracked ones.
fn index_staleness(facts: &Facts<'_>, ctx: &Ctx, protected: &[PathBuf]) -> Vec<Stale> {
    let Some(analysis) = &facts.analysis else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(analysis.commands.len());
    let mut state = Stale::Holds;
    for command in &analysis.commands {
        out.push(state.clone());
        if matches!(state, Stale::Unknown(_)) {
            continue;
        }
        let argv = &command.argv;
        if argv.first().is_none_or(|p| base_name(p) != "git") {
            continue;
        }
        let dir = command.cwd.path(&facts.cwd).unwrap_or(&facts.cwd);
        let Some((dir, sub, rest)) = git_command(argv, dir, ctx.home.as_deref()) else {
            continue;
        };
        let Some(reach) = index_change(sub, rest) else {
            continue;
        };
        if let IndexReach::Paths(named) = &reach
            && !named
                .iter()
                .any(|s| pathspec_covers_protected(s, &dir, ctx, protected))
        {
            continue;
        }
        let shown = argv.join(" ");
        if matches!(sub, "add" | "stage") {
            // An add changes what git tracks only for files it was not tracking: the
            // untracked ones (ignored ones too with `-f`) among its pathspecs.
            let mv = TreeMove::new(
                &dir,
                TreeChange::Removes {
                    ignored: has(rest, &["-f", "--force"]),
                    only_ignored: false,
                },
            );
            // Asked over every protected location: a superset of what the add's own
            // pathspecs reach among them.
            let mut added = match std::mem::replace(&mut state, Stale::Holds) {
                Stale::Untracked(added) => added,
                _ => Vec::new(),
            };
            if !added.iter().any(|(_, m)| m == &mv) {
                added.push((shown, mv));
            }
            state = Stale::Untracked(added);
        } else {
            state = Stale::Unknown(format!(
                "`{shown}` earlier on the line changes what git tracks of hookgate's protected set"
            ));
        }
    }
    out
}

/// Which index entries a git subcommand changes (see [`index_change`]).
enum IndexReach {
    /// Any of them (`add -A`, `reset REV`, `read-tree`).
    Whole,
    /// Those its pathspecs match.
    Paths(Vec<String>),
}

/// Which index entries a git subcommand changes; `None` when it changes none. Commits are
/// not here: they record the index as it is; steps that write the index of a protected path
/// one by one (`update-index`) are judged on their own.
fn index_change(sub: &str, rest: &[String]) -> Option<IndexReach> {
    let specs = |takes: &[&str]| -> Vec<String> {
        let (words, dashed) = operands(rest, takes);
        words
            .into_iter()
            .chain(dashed.into_iter().flatten())
            .map(str::to_owned)
            .collect()
    };
    match sub {
        "add" | "stage" => {
            let named = specs(&["--chmod", "--pathspec-from-file"]);
            if has(rest, &["--pathspec-from-file"]) {
                Some(IndexReach::Whole)
            } else if !named.is_empty() {
                Some(IndexReach::Paths(named))
            } else if has(
                rest,
                &["-A", "--all", "-u", "--update", "--no-ignore-removal"],
            ) {
                Some(IndexReach::Whole)
            } else {
                None
            }
        }
        "rm" | "mv" => {
            if has(rest, &["--pathspec-from-file"]) {
                return Some(IndexReach::Whole);
            }
            Some(IndexReach::Paths(specs(&["--pathspec-from-file"])))
        }
        "restore" if has(rest, &["-S", "--staged"]) => {
            let named = specs(&["-s", "--source", "--pathspec-from-file", "--conflict"]);
            Some(if named.is_empty() {
                IndexReach::Whole
            } else {
                IndexReach::Paths(named)
            })
        }
        "reset" => {
            let (words, dashed) = operands(rest, &["--pathspec-from-file"]);
            match dashed {
                // `reset [REV] -- PATHS`
                Some(paths) if !paths.is_empty() => Some(IndexReach::Paths(
                    paths.iter().map(|p| (*p).to_owned()).collect(),
                )),
                // `reset --hard` to HEAD puts back what git tracks (a discard, looked up on
                // its own); with a revision, or `--soft`/`--mixed`, HEAD or the index moves.
                _ if words.is_empty() && has(rest, &["--hard", "--keep", "--merge"]) => None,
                _ => Some(IndexReach::Whole),
            }
        }
        "read-tree" | "am" => Some(IndexReach::Whole),
        "apply" if has(rest, &["--cached", "--index"]) => Some(IndexReach::Whole),
        _ => None,
    }
}

/// Whether a pathspec given in `dir` may reach a protected file: a pattern or pathspec magic
/// (conservatively), a path above or inside a member of the protected set, or a path through
/// one of the catalog's agent or hookgate config locations.
fn pathspec_covers_protected(spec: &str, dir: &Path, ctx: &Ctx, protected: &[PathBuf]) -> bool {
    if spec.starts_with(':') || spec.contains(['*', '?', '[']) {
        return true;
    }
    let path = hookgate_paths::normalize(spec, dir, ctx.home.as_deref()).path;
    if protected
        .iter()
        .any(|q| q.starts_with(&path) || path.starts_with(q))
    {
        return true;
    }
    let names: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let matches = |name: &str, part: &str| {
        part.strip_suffix('*')
            .map_or(name == part, |prefix| name.starts_with(prefix))
    };
    PROTECTED_PATHSPECS.iter().any(|p| {
        let location: Vec<&str> = p
            .trim_start_matches(":(top,glob)**/")
            .trim_end_matches("/**")
            .split('/')
            .collect();
        // The location inside the path (`.claude/settings.json`), or the path ending in a
        // directory above it (`.github` above `.github/hooks`).
        names
            .windows(location.len())
            .any(|w| w.iter().zip(&location).all(|(n, part)| matches(n, part)))
            || (1..location.len()).any(|k| {
                names.len() >= k
                    && names[names.len() - k..]
                        .iter()
                        .zip(&location)
                        .all(|(n, part)| matches(n, part))
            })
    })
}

/// The line's discards (`git stash -u`, `git clean -f`, `git checkout .`, `git restore
/// PATHS`, `git reset --hard`) as questions: which protected files would they rewrite or
/// remove? Indexed by the command (into the analysis); the answers filled in from the
/// context. A discard whose every answer names no protected file is not a touch of the
/// protected set (it is still judged for the work it throws away): the guard asks only when
/// the call is objected to, so a discard in a repository that tracks `.claude/` pays for the
/// lookup only when it would otherwise be refused.
pub(crate) fn discards(
    facts: &Facts<'_>,
    ctx: &Ctx,
    protected: impl FnOnce() -> Vec<PathBuf>,
) -> Vec<(usize, TreeMove)> {
    let Some(analysis) = &facts.analysis else {
        return Vec::new();
    };
    let mut out: Vec<(usize, TreeMove)> = Vec::new();
    for (i, command) in analysis.commands.iter().enumerate() {
        let argv = &command.argv;
        if argv.first().is_none_or(|p| base_name(p) != "git") {
            continue;
        }
        let Some(dir) = command.cwd.path(&facts.cwd) else {
            continue;
        };
        let Some((dir, sub, rest)) = git_command(argv, dir, ctx.home.as_deref()) else {
            continue;
        };
        for (change, specs) in discard_changes(sub, rest) {
            let mut mv = TreeMove::new(&dir, change);
            if let Some(specs) = specs {
                mv.pathspecs = specs;
            }
            out.push((i, mv));
        }
    }
    if out.is_empty() {
        return out;
    }
    let protected = protected();
    // A discard after a command that changes what git tracks of the protected files cannot
    // be looked up beforehand: left without a question, it is judged as touching them.
    let stale = index_staleness(facts, ctx, &protected);
    out.retain(|(i, _)| !matches!(stale.get(*i), Some(Stale::Unknown(_))));
    let mut extra: Vec<(usize, TreeMove)> = Vec::new();
    for (i, _) in &out {
        if let Some(Stale::Untracked(added)) = stale.get(*i) {
            for (_, mv) in added {
                if !extra.iter().any(|(e, m)| e == i && m == mv) {
                    extra.push((*i, mv.clone()));
                }
            }
        }
    }
    out.extend(extra);
    for (_, mv) in &mut out {
        mv.protected.clone_from(&protected);
        if let Some(answered) = ctx.tree_moves.iter().find(|a| a.same_question(mv)) {
            mv.answer.clone_from(&answered.answer);
        }
    }
    out
}

/// What a discarding git subcommand rewrites or removes (see [`discards`]), with its own
/// pathspecs when it names them; empty when it is not one or cannot be read exactly (a
/// pathspec file, a source commit: judged as before).
fn discard_changes(sub: &str, rest: &[String]) -> Vec<(TreeChange, Option<Vec<String>>)> {
    if has(rest, &["--pathspec-from-file"]) {
        return Vec::new();
    }
    let short = |c: char| {
        rest.iter()
            .take_while(|a| *a != "--")
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(c))
    };
    match sub {
        "stash" => {
            let (words, dashed) = operands(rest, &["-m", "--message"]);
            let pushes = matches!(words.first().copied(), None | Some("push" | "save"));
            let all = short('a') || has(rest, &["--all"]);
            let untracked = all || short('u') || has(rest, &["--include-untracked"]);
            if !pushes || !untracked || dashed.is_some() || words.len() > 1 {
                return Vec::new();
            }
            vec![
                (TreeChange::Reverts, None),
                (
                    TreeChange::Removes {
                        ignored: all,
                        only_ignored: false,
                    },
                    None,
                ),
            ]
        }
        "clean"
            if (short('f') || has(rest, &["--force"]))
                && !short('n')
                && !has(rest, &["--dry-run"]) =>
        {
            let (words, dashed) = operands(rest, &["-e", "--exclude"]);
            let specs: Vec<String> = words
                .iter()
                .chain(dashed.iter().flatten())
                .map(|s| (*s).to_owned())
                .collect();
            vec![(
                TreeChange::Removes {
                    ignored: short('x') || short('X'),
                    only_ignored: short('X'),
                },
                (!specs.is_empty()).then_some(specs),
            )]
        }
        "checkout" | "restore" => {
            let (words, dashed) = operands(rest, &["--conflict", "-s", "--source"]);
            if short('s')
                || short('S')
                || short('b')
                || short('B')
                || has(rest, &["--source", "--orphan", "--staged"])
            {
                return Vec::new();
            }
            let specs: Vec<String> = match (sub, dashed) {
                ("checkout", Some(specs)) if words.is_empty() => {
                    specs.iter().map(|s| (*s).to_owned()).collect()
                }
                ("checkout", None)
                    if !words.is_empty()
                        && words.iter().all(|w| matches!(*w, "." | "./" | ":/")) =>
                {
                    words.iter().map(|s| (*s).to_owned()).collect()
                }
                ("restore", dashed) => words
                    .iter()
                    .chain(dashed.iter().flatten())
                    .map(|s| (*s).to_owned())
                    .collect(),
                _ => Vec::new(),
            };
            if specs.is_empty() {
                return Vec::new();
            }
            vec![(TreeChange::Unindexes, Some(specs))]
        }
        "reset" if has(rest, &["--hard"]) => {
            let (words, dashed) = operands(rest, &[]);
            if dashed.is_some() || words.iter().any(|w| *w != "HEAD" && *w != "@") {
                return Vec::new();
            }
            vec![(TreeChange::Reverts, None)]
        }
        _ => Vec::new(),
    }
}

/// The questions still without an answer (for [`crate::Evaluation::tree_moves_wanted`]).
pub(crate) fn wanted(queries: &[Query]) -> Vec<TreeMove> {
    let mut out: Vec<TreeMove> = Vec::new();
    for q in queries {
        if let Ok(mv) = &q.mv
            && mv.answer.is_none()
            && !out.iter().any(|o| o.same_question(mv))
        {
            out.push(mv.clone());
        }
    }
    out
}

/// One change a command makes, before it is placed.
struct Change {
    what: TreeChange,
    /// The command's own pathspecs, when it names them (`checkout TREE -- PATHS`).
    pathspecs: Option<Vec<String>>,
    /// What it reads is outside the repository (a fetch from a local path).
    unplaced: bool,
}

fn change(what: TreeChange) -> Change {
    Change {
        what,
        pathspecs: None,
        unplaced: false,
    }
}

/// Whether a git argv moves the tree by its subcommand alone (for commands whose repository
/// cannot be placed).
fn moves_tree(argv: &[String]) -> bool {
    let rest = crate::pattern::args_after_globals(argv);
    rest.split_first()
        .is_some_and(|(sub, rest)| !changes_of(sub, rest, false).is_empty())
}

/// The words of a git command's subcommand that are not options, with the options that take
/// a separate value skipped (`takes`); `--` ends the options, its tail returned apart.
fn operands<'a>(rest: &'a [String], takes: &[&str]) -> (Vec<&'a str>, Option<Vec<&'a str>>) {
    let mut words = Vec::new();
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        let a = a.as_str();
        if a == "--" {
            return (words, Some(iter.map(String::as_str).collect()));
        }
        if takes.contains(&a) {
            iter.next();
        } else if !a.starts_with('-') || a == "-" {
            words.push(a);
        }
    }
    (words, None)
}

fn has(rest: &[String], names: &[&str]) -> bool {
    rest.iter().take_while(|a| *a != "--").any(|a| {
        names
            .iter()
            .any(|n| a == n || a.starts_with(&format!("{n}=")))
    })
}

/// A ref name the command may read: not an option, not empty.
fn rev(word: &str) -> Option<String> {
    if word == "-" {
        return Some("@{-1}".to_owned());
    }
    (!word.is_empty() && !word.starts_with('-')).then(|| word.to_owned())
}

/// What a git subcommand would change in the work tree (see [`TreeChange`]); empty for
/// commands that change no file or whose writes are judged as paths elsewhere.
fn changes_of(sub: &str, rest: &[String], stashed: bool) -> Vec<Change> {
    const SEQUENCER: &[&str] = &[
        "--continue",
        "--abort",
        "--skip",
        "--quit",
        "--edit-todo",
        "--show-current-patch",
    ];
    if has(rest, SEQUENCER) {
        return Vec::new();
    }
    match sub {
        "checkout" => {
            let (words, dashed) = operands(
                rest,
                &["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"],
            );
            let creating = has(rest, &["-b", "-B", "--orphan"]);
            match (dashed, words.as_slice()) {
                // `checkout TREE -- PATHS`: those paths become TREE's. Without a tree they
                // come from the index (judged as path writes).
                (Some(specs), [tree, ..]) if !creating && !specs.is_empty() => rev(tree)
                    .map(|t| Change {
                        what: TreeChange::Becomes { target: t },
                        pathspecs: Some(specs.iter().map(|s| (*s).to_owned()).collect()),
                        unplaced: false,
                    })
                    .into_iter()
                    .collect(),
                // `checkout -b NEW [START]` (NEW is the option's value): START's files;
                // none: stays at HEAD.
                (None, [start, ..]) if creating => rev(start)
                    .map(|t| change(TreeChange::Becomes { target: t }))
                    .into_iter()
                    .collect(),
                (None, []) if creating => Vec::new(),
                (None, [target]) => rev(target)
                    .map(|t| change(TreeChange::Becomes { target: t }))
                    .into_iter()
                    .collect(),
                // `checkout TREE PATHS…`: the paths become TREE's.
                (None, [tree, specs @ ..]) if !specs.is_empty() => rev(tree)
                    .map(|t| Change {
                        what: TreeChange::Becomes { target: t },
                        pathspecs: Some(specs.iter().map(|s| (*s).to_owned()).collect()),
                        unplaced: false,
                    })
                    .into_iter()
                    .collect(),
                _ => Vec::new(),
            }
        }
        // `restore --source=TREE PATHS`: the paths become TREE's (patterns included: a
        // pattern can name a protected file the work tree does not have yet).
        "restore" => {
            let source = crate::action::flags_value(rest, "--source")
                .or_else(|| crate::action::flags_value(rest, "-s"))
                .or_else(|| {
                    rest.iter()
                        .take_while(|a| *a != "--")
                        .find_map(|a| {
                            a.strip_prefix("-s")
                                .filter(|v| !v.is_empty() && !a.starts_with("--"))
                        })
                        .map(str::to_owned)
                });
            let Some(source) = source.and_then(|s| rev(&s)) else {
                return Vec::new();
            };
            let (words, dashed) = operands(
                rest,
                &["-s", "--source", "--pathspec-from-file", "--conflict"],
            );
            let specs: Vec<String> = words
                .iter()
                .chain(dashed.iter().flatten())
                .map(|s| (*s).to_owned())
                .collect();
            if specs.is_empty() {
                return Vec::new();
            }
            vec![Change {
                what: TreeChange::Becomes { target: source },
                pathspecs: Some(specs),
                unplaced: false,
            }]
        }
        "switch" => {
            let (words, _) = operands(rest, &["-c", "-C", "--orphan", "--conflict"]);
            if has(rest, &["--orphan"]) {
                return vec![change(TreeChange::Becomes {
                    target: EMPTY_TREE.to_owned(),
                })];
            }
            // With `-c NEW`, NEW is the option's value: the word left is the start point.
            words
                .first()
                .and_then(|t| rev(t))
                .map(|t| change(TreeChange::Becomes { target: t }))
                .into_iter()
                .collect()
        }
        "merge" => {
            let (words, _) = operands(
                rest,
                &[
                    "-m",
                    "-F",
                    "--file",
                    "-s",
                    "--strategy",
                    "-X",
                    "--strategy-option",
                    "--into-name",
                ],
            );
            let targets: Vec<String> = if words.is_empty() {
                vec!["@{upstream}".to_owned()]
            } else {
                words.iter().filter_map(|w| rev(w)).collect()
            };
            targets
                .into_iter()
                .map(|t| change(TreeChange::Merges { target: t }))
                .collect()
        }
        "rebase" => {
            let onto_value = crate::action::flags_value(rest, "--onto");
            let (words, _) = operands(
                rest,
                &[
                    "--onto",
                    "-s",
                    "--strategy",
                    "-X",
                    "--strategy-option",
                    "-x",
                    "--exec",
                ],
            );
            if has(rest, &["--root"]) && onto_value.is_none() {
                return Vec::new();
            }
            let mut out = Vec::new();
            // `rebase UPSTREAM BRANCH` checks BRANCH out first.
            if let Some(branch) = words.get(1).and_then(|b| rev(b)) {
                out.push(change(TreeChange::Becomes { target: branch }));
            }
            let base = onto_value
                .or_else(|| words.first().map(|w| (*w).to_owned()))
                .unwrap_or_else(|| "@{upstream}".to_owned());
            if let Some(base) = rev(&base) {
                out.push(change(TreeChange::Merges { target: base }));
            }
            out
        }
        "pull" => {
            let (words, _) = operands(
                rest,
                &[
                    "-s",
                    "--strategy",
                    "-X",
                    "--strategy-option",
                    "--depth",
                    "--deepen",
                    "--shallow-since",
                    "--shallow-exclude",
                    "-o",
                    "--server-option",
                    "-j",
                    "--jobs",
                    "--upload-pack",
                ],
            );
            match words.split_first() {
                // `git pull . BRANCH`: a merge of a local branch.
                Some((&".", refs)) => refs
                    .iter()
                    .filter_map(|r| rev(r))
                    .map(|t| change(TreeChange::Merges { target: t }))
                    .collect(),
                Some((repo, _)) if local_repository(repo) => vec![Change {
                    what: TreeChange::Merges {
                        target: "FETCH_HEAD".to_owned(),
                    },
                    pathspecs: None,
                    unplaced: true,
                }],
                _ => Vec::new(),
            }
        }
        "cherry-pick" | "revert" => {
            let (words, _) = operands(
                rest,
                &[
                    "-m",
                    "--mainline",
                    "-s",
                    "--strategy",
                    "-X",
                    "--strategy-option",
                ],
            );
            let revs: Vec<String> = words.iter().filter_map(|w| rev(w)).collect();
            if revs.is_empty() {
                Vec::new()
            } else {
                vec![change(TreeChange::Applies { revs })]
            }
        }
        "bisect" => {
            let (words, _) = operands(
                rest,
                &["--term-old", "--term-new", "--term-good", "--term-bad"],
            );
            match words.split_first() {
                Some((&"start", revs)) if revs.len() >= 2 => {
                    let bad = revs[0];
                    let range: Vec<String> = std::iter::once(bad.to_owned())
                        .chain(revs[1..].iter().map(|g| format!("^{g}")))
                        .filter(|r| !r.starts_with('-'))
                        .collect();
                    vec![change(TreeChange::Walks { range })]
                }
                // The bisection so far (`--bisect`); the good revisions this command adds
                // (`good v1.2`) narrow nothing yet, so they are passed to be excluded when
                // no good one is recorded (`--bisect-good REV…`, the policy's own words).
                Some((&("good" | "old"), revs)) if !revs.is_empty() => {
                    let mut range = vec!["--bisect".to_owned(), "--bisect-good".to_owned()];
                    range.extend(revs.iter().filter_map(|r| rev(r)));
                    vec![change(TreeChange::Walks { range })]
                }
                Some((
                    &("good" | "bad" | "old" | "new" | "skip" | "next" | "run" | "replay"),
                    _,
                )) => {
                    vec![change(TreeChange::Walks {
                        range: vec!["--bisect".to_owned()],
                    })]
                }
                _ => Vec::new(),
            }
        }
        "stash" => {
            let (words, dashed) = operands(rest, &["-m", "--message", "--pathspec-from-file"]);
            match words.first().copied() {
                Some("pop" | "apply") => {
                    if stashed {
                        // The entry the line itself just made: what it holds is what the
                        // stash before it took away, judged there.
                        return Vec::new();
                    }
                    let stash = words
                        .get(1)
                        .and_then(|s| rev(s))
                        .map_or_else(|| "stash@{0}".to_owned(), |s| stash_name(&s));
                    vec![change(TreeChange::Unstashes { stash })]
                }
                Some("branch") => {
                    let stash = words
                        .get(2)
                        .and_then(|s| rev(s))
                        .map_or_else(|| "stash@{0}".to_owned(), |s| stash_name(&s));
                    vec![change(TreeChange::Unstashes { stash })]
                }
                // Stashing named paths is judged as a write of those paths; untracked ones
                // (`-u`, `-a`) as their deletion.
                None | Some("push" | "save")
                    if dashed.is_none()
                        && words.len() <= 1
                        && !has(
                            rest,
                            &["-u", "--include-untracked", "-a", "--all", "-p", "--patch"],
                        ) =>
                {
                    vec![change(TreeChange::Reverts)]
                }
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// `stash apply 1` means `stash@{1}`.
fn stash_name(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_digit()) {
        format!("stash@{{{s}}}")
    } else {
        s.to_owned()
    }
}

/// Whether `git stash …` makes a new entry.
fn stash_pushes(rest: &[String]) -> bool {
    // Read before `--`: `git stash -u -- .claude` pushes (pathspecs need no `push` word).
    let before = rest.split(|a| a == "--").next().unwrap_or_default();
    let (words, _) = operands(before, &["-m", "--message", "--pathspec-from-file"]);
    matches!(words.first().copied(), None | Some("push" | "save"))
}

/// A repository named by a path or `file://` URL rather than a remote: its commits could be
/// the agent's own.
fn local_repository(word: &str) -> bool {
    word.starts_with('/')
        || word.starts_with("./")
        || word.starts_with("../")
        || word.starts_with('~')
        || word.starts_with("file:")
        || word == ".."
}

/// Whether a git command moves refs a later command of the same line may read, so a
/// question asked before the line runs would be answered about the wrong commit.
fn moves_refs(sub: &str, rest: &[String]) -> bool {
    match sub {
        "update-ref" | "symbolic-ref" | "replace" | "commit-tree" => true,
        "branch" => has(
            rest,
            &["-f", "--force", "-m", "-M", "-c", "-C", "--move", "--copy"],
        ),
        "tag" => has(rest, &["-f", "--force"]),
        "checkout" => has(rest, &["-B"]),
        "switch" => has(rest, &["-C", "--force-create"]),
        "fetch" | "pull" => {
            let (words, _) = operands(rest, &["--depth", "-j", "--jobs", "-o", "--upload-pack"]);
            words
                .first()
                .is_some_and(|w| local_repository(w) || *w == ".")
        }
        _ => false,
    }
}

/// A git command's directory (`-C`, relative to `dir`), subcommand and arguments; `None` when
/// the repository or work tree is named elsewhere (`--git-dir`, `--work-tree`, …), so what it
/// changes cannot be asked about here (the one reading the discard lookups use too).
fn git_command<'a>(
    argv: &'a [String],
    dir: &Path,
    home: Option<&Path>,
) -> Option<(PathBuf, &'a str, &'a [String])> {
    crate::worktree::git_subcommand(argv, dir, home).map(|(d, sub, args)| (d, sub.as_str(), args))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    fn kinds(line: &str) -> Vec<TreeChange> {
        let argv = words(line);
        let (_, sub, rest) = git_command(&argv, Path::new("/w"), None).expect("git");
        changes_of(sub, rest, false)
            .into_iter()
            .map(|c| c.what)
            .collect()
    }

    fn becomes(t: &str) -> TreeChange {
        TreeChange::Becomes { target: t.into() }
    }

    #[test]
    fn switching_commands_become_their_target() {
        assert_eq!(kinds("git checkout other"), vec![becomes("other")]);
        assert_eq!(kinds("git checkout -"), vec![becomes("@{-1}")]);
        assert_eq!(kinds("git switch main"), vec![becomes("main")]);
        assert_eq!(
            kinds("git switch -c x origin/evil"),
            vec![becomes("origin/evil")]
        );
        assert_eq!(kinds("git checkout -b x evil"), vec![becomes("evil")]);
        assert_eq!(kinds("git checkout --detach v1.2"), vec![becomes("v1.2")]);
        assert_eq!(kinds("git switch --orphan x"), vec![becomes(EMPTY_TREE)]);
        assert!(kinds("git checkout -b feature").is_empty(), "stays at HEAD");
        assert!(kinds("git switch -c feature").is_empty(), "stays at HEAD");
        assert!(
            kinds("git checkout -- src/a.rs").is_empty(),
            "from the index: a path write"
        );
        let restore = |line: &str| {
            let argv = words(line);
            let (_, sub, rest) = git_command(&argv, Path::new("/w"), None).expect("git");
            changes_of(sub, rest, false)
                .into_iter()
                .map(|c| (c.what, c.pathspecs))
                .collect::<Vec<_>>()
        };
        for line in [
            "git restore --source=evil '*.json'",
            "git restore --source evil '*.json'",
            "git restore -s evil '*.json'",
            "git restore -sevil -- '*.json'",
        ] {
            assert_eq!(
                restore(line),
                vec![(becomes("evil"), Some(vec!["'*.json'".to_owned()]))],
                "{line}"
            );
        }
        assert!(
            restore("git restore src/a.rs").is_empty(),
            "from the index: a path write"
        );
    }

    #[test]
    fn merges_rebases_and_picks_are_asked_by_what_they_bring() {
        assert_eq!(
            kinds("git merge --no-ff -m msg evil"),
            vec![TreeChange::Merges {
                target: "evil".into()
            }]
        );
        assert_eq!(
            kinds("git merge"),
            vec![TreeChange::Merges {
                target: "@{upstream}".into()
            }]
        );
        assert_eq!(
            kinds("git rebase -i origin/main"),
            vec![TreeChange::Merges {
                target: "origin/main".into()
            }]
        );
        assert_eq!(
            kinds("git rebase --onto=evil main"),
            vec![TreeChange::Merges {
                target: "evil".into()
            }]
        );
        assert_eq!(
            kinds("git cherry-pick -x abc123 def456"),
            vec![TreeChange::Applies {
                revs: vec!["abc123".into(), "def456".into()]
            }]
        );
        assert!(kinds("git rebase --continue").is_empty());
        assert!(kinds("git merge --abort").is_empty());
    }

    #[test]
    fn stashes_revert_and_unstash() {
        assert_eq!(kinds("git stash"), vec![TreeChange::Reverts]);
        assert_eq!(kinds("git stash push -m wip"), vec![TreeChange::Reverts]);
        assert_eq!(
            kinds("git stash pop"),
            vec![TreeChange::Unstashes {
                stash: "stash@{0}".into()
            }]
        );
        assert_eq!(
            kinds("git stash apply 2"),
            vec![TreeChange::Unstashes {
                stash: "stash@{2}".into()
            }]
        );
        assert!(kinds("git stash list").is_empty());
        assert!(
            kinds("git stash -u").is_empty(),
            "judged as a delete of untracked files"
        );
        assert!(
            kinds("git stash push -- src").is_empty(),
            "judged as a path write"
        );
    }

    #[test]
    fn discards_are_asked_by_what_they_rewrite_or_remove() {
        let d = |line: &str| {
            let argv = words(line);
            let (_, sub, rest) = git_command(&argv, Path::new("/w"), None).expect("git");
            discard_changes(sub, rest)
        };
        let removes = |ignored, only_ignored| TreeChange::Removes {
            ignored,
            only_ignored,
        };
        assert_eq!(
            d("git stash -u"),
            vec![(TreeChange::Reverts, None), (removes(false, false), None)]
        );
        assert_eq!(
            d("git stash push --all -m x"),
            vec![(TreeChange::Reverts, None), (removes(true, false), None)]
        );
        assert_eq!(d("git clean -fdx"), vec![(removes(true, false), None)]);
        assert_eq!(d("git clean -fX"), vec![(removes(true, true), None)]);
        assert_eq!(
            d("git clean -fd build"),
            vec![(removes(false, false), Some(vec!["build".to_owned()]))]
        );
        assert_eq!(
            d("git checkout ."),
            vec![(TreeChange::Unindexes, Some(vec![".".to_owned()]))]
        );
        assert_eq!(
            d("git restore src"),
            vec![(TreeChange::Unindexes, Some(vec!["src".to_owned()]))]
        );
        assert_eq!(d("git reset --hard"), vec![(TreeChange::Reverts, None)]);
        assert!(d("git reset --hard HEAD~2").is_empty(), "moves the branch");
        assert!(d("git clean -nd").is_empty());
        assert!(
            d("git restore --source=x .").is_empty(),
            "a tree move, judged as one"
        );
        assert!(
            d("git stash").is_empty(),
            "a tree move: Reverts, asked always"
        );
    }

    #[test]
    fn pulls_from_remotes_are_not_asked_but_local_ones_are() {
        assert!(kinds("git pull").is_empty());
        assert!(kinds("git pull --rebase origin main").is_empty());
        let argv = words("git pull /tmp/clone main");
        let (_, sub, rest) = git_command(&argv, Path::new("/w"), None).expect("git");
        let c = changes_of(sub, rest, false);
        assert!(c.len() == 1 && c[0].unplaced);
        assert_eq!(
            kinds("git pull . evil"),
            vec![TreeChange::Merges {
                target: "evil".into()
            }]
        );
    }

    #[test]
    fn a_named_git_dir_or_work_tree_cannot_be_placed() {
        let argv = words("git --work-tree=. --git-dir=/tmp/x/.git checkout main");
        assert!(git_command(&argv, Path::new("/w"), None).is_none());
        assert!(moves_tree(&argv));
        assert!(!moves_tree(&words("git --git-dir=/tmp/x/.git log")));
    }

    #[test]
    fn every_protected_catalog_location_is_in_the_lookup() {
        use hookgate_paths::{Category, PathContext, glob::Glob};
        let ctx = PathContext::new("/w", Some(PathBuf::from("/home/u")));
        // One sample path per anywhere-anchored agent or hookgate config pattern.
        let samples = [
            ".claude/settings.json",
            "sub/.claude/settings.local.json",
            ".claude/hooks/x.sh",
            ".claude/skills/a/SKILL.md",
            ".mcp.json",
            ".codex/hooks.json",
            ".codex/config.toml",
            ".codex-plugin/p.json",
            ".gemini/settings.json",
            ".gemini/extensions/e/x.json",
            ".github/hooks/h.json",
            ".github/copilot/settings.json",
            ".cursor/hooks.json",
            ".cursor/rules/r.mdc",
            ".windsurf/rules.md",
            ".clinerules/a.md",
            ".opencode/x.json",
            "opencode.json",
            ".factory/x",
            ".kiro/x",
            ".continue/config.json",
            ".vscode/tasks.json",
            ".hookgate/policy.yaml",
            "hookgate.yaml",
        ];
        let globs: Vec<Glob> = PROTECTED_PATHSPECS
            .iter()
            .map(|p| Glob::compile(p.trim_start_matches(":(top,glob)")).expect("compiles"))
            .collect();
        for s in samples {
            let abs = Path::new("/w").join(s);
            let protected = hookgate_paths::classify(&abs, &ctx).iter().any(|m| {
                matches!(
                    m.category,
                    Category::AgentHookConfig | Category::HookgateConfig
                )
            });
            assert!(protected, "{s} is in the catalog's protected set");
            let parts: Vec<&str> = s.split('/').collect();
            assert!(
                globs.iter().any(|g| g.matches(&parts)),
                "{s} is covered by PROTECTED_PATHSPECS"
            );
        }
    }
}
