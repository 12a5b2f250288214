//! A linked git worktree judged by its own state.
//!
//! `git reset --hard`, `git clean -fd`, `git checkout -- .`, `git restore .` and
//! `git worktree remove --force` are dangerous for what they throw away: uncommitted changes
//! and untracked files. Agents often work in disposable linked worktrees (`git worktree add`),
//! where these commands are how the work tree is reset between tasks; denying them there
//! outright refuses work that loses nothing. So a discard of this kind whose work tree is a
//! linked worktree with **no** uncommitted or untracked work is set aside (neither
//! `destructive-shell` nor `no-git-discard` objects to it); one that would destroy a
//! worktree's own uncommitted work is judged exactly as before.
//!
//! This crate does no I/O: the judgement names the directories whose state it needs
//! ([`crate::Evaluation::worktrees_wanted`]), the caller looks them up (the guard runs
//! `git status` only then, only for these commands) and judges again with the answers in
//! [`crate::Ctx::worktrees`], which the audit record keeps.
//!
//! Conservative on purpose: a command is set aside only when its work tree is known exactly
//! (no `cd` earlier in the line, not reached through a wrapper such as `sudo` or `xargs`, no
//! `--git-dir`/`--work-tree`), a reset names no commit other than `HEAD` (moving the branch
//! loses commits, not just changes), a clean leaves ignored files alone (no `-x`/`-X`: the
//! state looked up does not cover them), and the state says linked and clean. Anything
//! unknown keeps the verdict.

use std::path::{Path, PathBuf};

use hookgate_paths::normalize;
use serde::{Deserialize, Serialize};

use crate::Ctx;
use crate::action::{ActionKind, Facts};
use crate::pattern::{base_name, split_flags};

/// What the caller found about one directory a discard would act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorktreeState {
    /// The directory the judgement asked about (as named in
    /// [`crate::Evaluation::worktrees_wanted`]).
    pub dir: PathBuf,
    /// It is (inside) a linked worktree (`git worktree add`); `false` when unknown.
    pub linked: bool,
    /// Its work tree has uncommitted changes or untracked (not ignored) files; `true` when
    /// unknown.
    pub dirty: bool,
}

/// What the caller found about the paths a checkout or restore would overwrite: whether any
/// of them holds uncommitted work (see [`pathspec_query`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathspecState {
    /// The directory git runs in (the command's, after `-C`).
    pub dir: PathBuf,
    /// The pathspecs as the command names them (git reads them the same way for the lookup).
    pub pathspecs: Vec<String>,
    /// Untracked and ignored files count too: the command copies from a commit (`--source`,
    /// `checkout TREE -- paths`), which can overwrite a file the index does not have.
    pub untracked: bool,
    /// Some named path differs from the index or the index from `HEAD` (or, with
    /// `untracked`, an untracked or ignored file matches); `true` when unknown.
    pub changed: bool,
}

/// The taxonomy rules whose loss is the uncommitted changes of the paths they name, and
/// nothing else: with nothing uncommitted there, they overwrite files with what they hold.
const PATH_DISCARDS: &[&str] = &[
    "git.checkout_paths",
    "git.restore_paths",
    "git.checkout_discard_all",
    "git.restore_all",
];

/// The taxonomy rules whose loss is a work tree's uncommitted work, and nothing else.
const DISCARDS: &[&str] = &[
    "git.reset_hard",
    "git.clean_force",
    "git.checkout_discard_all",
    "git.checkout_paths",
    "git.checkout_force",
    "git.restore_all",
    "git.restore_paths",
    "git.switch_discard",
    "git.worktree_remove_force",
];

/// The invariant that asks about every discard: set aside with the discards themselves.
pub(crate) const DISCARD_INVARIANT: &str = "no-git-discard";

/// What the worktree states make of a call's discards.
#[derive(Debug, Default)]
pub(crate) struct Disposable {
    /// Executed commands (indices into the analysis) that discard only what a clean linked
    /// worktree does not have.
    pub commands: Vec<usize>,
    /// Directories whose state is needed and not known yet.
    pub wanted: Vec<PathBuf>,
    /// Pathspecs whose state is needed and not known yet ([`PathspecState::changed`] unset).
    pub paths_wanted: Vec<PathspecState>,
    /// One line per command set aside, for the evaluation's steps.
    pub notes: Vec<String>,
}

/// Whether every `git.discard` action of the call is one of the commands `set_aside` (clean
/// linked worktrees here, ignored-only cleans in [`crate::regenerable`]): then
/// [`DISCARD_INVARIANT`] has nothing to ask about.
pub(crate) fn covers_every_discard(facts: &Facts<'_>, set_aside: &[usize]) -> bool {
    !set_aside.is_empty()
        && facts
            .actions
            .iter()
            .zip(&facts.items)
            .filter(|(a, _)| a.kind == ActionKind::GitDiscard)
            .all(|(_, item)| item.command.is_some_and(|c| set_aside.contains(&c)))
}

/// The one place the policy uses worktree state: which of the line's discards act on a clean
/// linked worktree (set aside), and which directories' state it still needs.
pub(crate) fn disposable(facts: &Facts<'_>, ctx: &Ctx) -> Disposable {
    let mut out = Disposable::default();
    let Some(analysis) = &facts.analysis else {
        return out;
    };
    for (i, command) in analysis.commands.iter().enumerate() {
        let Some(rule) = command.verdict.rule_id.as_deref() else {
            continue;
        };
        if !DISCARDS.contains(&rule) || !command.via.is_empty() {
            continue;
        }
        // Where the command runs (the line may have moved); only known at run time: kept.
        let Some(cwd) = command.cwd.path(&facts.cwd) else {
            continue;
        };
        let Some(dir) = target(&command.argv, cwd, ctx.home.as_deref()) else {
            continue;
        };
        // A checkout or restore of named paths: judged by those paths' own state, in any
        // work tree (nothing uncommitted there: nothing is thrown away).
        if PATH_DISCARDS.contains(&rule)
            && let Some(q) = pathspec_query(&command.argv, cwd, ctx.home.as_deref())
        {
            match ctx.pathspecs.iter().find(|s| s.same_query(&q)) {
                Some(s) if !s.changed => {
                    out.notes.push(format!(
                        "{rule} of {}: nothing uncommitted there to discard",
                        q.pathspecs.join(" ")
                    ));
                    out.commands.push(i);
                    continue;
                }
                Some(_) => {}
                None => {
                    if !out.paths_wanted.iter().any(|s| s.same_query(&q)) {
                        out.paths_wanted.push(q);
                    }
                }
            }
        }
        match ctx.worktrees.iter().find(|w| w.dir == dir) {
            Some(w) if w.linked && !w.dirty => {
                out.notes.push(format!(
                    "{rule} in {}: a linked worktree without uncommitted or untracked work",
                    dir.display()
                ));
                out.commands.push(i);
            }
            Some(_) => {}
            None => {
                if !out.wanted.contains(&dir) {
                    out.wanted.push(dir);
                }
            }
        }
    }
    out
}

impl PathspecState {
    /// Whether `other` asks about the same paths the same way.
    fn same_query(&self, other: &Self) -> bool {
        self.dir == other.dir
            && self.pathspecs == other.pathspecs
            && self.untracked == other.untracked
    }
}

/// What a checkout or restore of paths overwrites, as a question for the caller (`changed`
/// set to `true` until answered). `None` when it cannot be told exactly: a directory or
/// repository moved by `--git-dir`/`--work-tree`, pathspecs read from a file, a checkout that
/// also creates or switches a branch, or no pathspec on the line. The pathspecs are passed
/// to git as written, so the lookup matches them exactly as the command will; a shell
/// pattern left unexpanded is a git pattern that matches at least as much.
pub(crate) fn pathspec_query(
    argv: &[String],
    cwd: &Path,
    home: Option<&Path>,
) -> Option<PathspecState> {
    let (dir, sub, sub_args) = git_subcommand(argv, cwd, home)?;
    let mut positionals: Vec<&String> = Vec::new();
    let mut after_dashes: Option<Vec<&String>> = None;
    let mut source = false;
    let mut words = sub_args.iter();
    while let Some(a) = words.next() {
        if let Some(specs) = after_dashes.as_mut() {
            specs.push(a);
            continue;
        }
        match a.as_str() {
            "--" => after_dashes = Some(Vec::new()),
            w if w.starts_with("--pathspec-from-file")
                || matches!(w, "-b" | "-B" | "--orphan" | "--detach")
                || w.starts_with("--orphan=") =>
            {
                return None;
            }
            "-s" | "--source" if sub == "restore" => {
                words.next()?;
                source = true;
            }
            w if sub == "restore"
                && (w.starts_with("--source=")
                    || (w.starts_with("-s") && !w.starts_with("--"))) =>
            {
                source = true;
            }
            "--conflict" => {
                words.next()?;
            }
            w if w.starts_with('-') => {}
            _ => positionals.push(a),
        }
    }
    let pathspecs: Vec<String> = match (sub.as_str(), after_dashes) {
        ("restore", dashed) => {
            let mut specs: Vec<String> = positionals.iter().map(|s| (*s).clone()).collect();
            specs.extend(dashed.unwrap_or_default().into_iter().cloned());
            specs
        }
        ("checkout", Some(specs)) => {
            // `git checkout TREE -- paths` copies from TREE.
            source = !positionals.is_empty();
            specs.into_iter().cloned().collect()
        }
        // Without `--`, only the whole-tree spellings are surely pathspecs.
        ("checkout", None)
            if !positionals.is_empty()
                && positionals
                    .iter()
                    .all(|p| matches!(p.as_str(), "." | "./" | ":/" | "*")) =>
        {
            positionals.iter().map(|s| (*s).clone()).collect()
        }
        _ => return None,
    };
    if pathspecs.is_empty() {
        return None;
    }
    Some(PathspecState {
        dir,
        pathspecs,
        untracked: source,
        changed: true,
    })
}

/// A git command's directory (`-C`, relative to `cwd`), subcommand and its arguments; `None`
/// when it is not git or the repository is moved elsewhere (`--git-dir`, `--work-tree`,
/// `--namespace`, `--super-prefix`), so what it acts on is not known exactly.
pub(crate) fn git_subcommand<'a>(
    argv: &'a [String],
    cwd: &Path,
    home: Option<&Path>,
) -> Option<(PathBuf, &'a String, &'a [String])> {
    let (program, rest) = argv.split_first()?;
    if base_name(program) != "git" {
        return None;
    }
    let mut dir = cwd.to_path_buf();
    let mut i = 0;
    while let Some(word) = rest.get(i) {
        match word.as_str() {
            "-C" => {
                dir = normalize(rest.get(i + 1)?, &dir, home).path;
                i += 2;
            }
            "-c" | "--exec-path" | "--config-env" => i += 2,
            w if w.starts_with("--git-dir")
                || w.starts_with("--work-tree")
                || w.starts_with("--namespace")
                || w.starts_with("--super-prefix") =>
            {
                return None;
            }
            w if w.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let (sub, sub_args) = rest.get(i..)?.split_first()?;
    Some((dir, sub, sub_args))
}

/// The work tree directory a discard acts on: `git worktree remove`'s worktree, else the
/// command's directory (`-C`, relative to the cwd). `None` when it cannot be known exactly
/// or the command loses more than uncommitted work.
fn target(argv: &[String], cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let (dir, sub, sub_args) = git_subcommand(argv, cwd, home)?;
    let flags = split_flags(sub_args);
    match sub.as_str() {
        "reset" => flags
            .positionals
            .iter()
            .all(|p| p == "HEAD" || p == "@")
            .then_some(dir),
        "clean" => (!flags.short.contains(&'x') && !flags.short.contains(&'X')).then_some(dir),
        "checkout" | "restore" | "switch" => Some(dir),
        "worktree" => {
            let mut positionals = flags.positionals.iter();
            (positionals.next()? == "remove").then_some(())?;
            let path = positionals.next()?;
            Some(normalize(path, &dir, home).path)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_target_of_a_discard_is_its_work_tree_known_exactly_or_nothing() {
        let cwd = Path::new("/w/wt");
        let t = |l: &str| target(&argv(l), cwd, None);
        assert_eq!(t("git reset --hard"), Some(cwd.into()));
        assert_eq!(t("git reset --hard HEAD"), Some(cwd.into()));
        assert_eq!(t("git reset --hard HEAD~3"), None, "moves the branch");
        assert_eq!(t("git -C ../other clean -fd"), Some("/w/other".into()));
        assert_eq!(
            t("git clean -fdx"),
            None,
            "ignored files are not in the state"
        );
        assert_eq!(t("git --git-dir=/x/.git checkout -- ."), None);
        assert_eq!(
            t("git worktree remove --force ../wt2"),
            Some("/w/wt2".into())
        );
        assert_eq!(t("git worktree list"), None);
    }
}
