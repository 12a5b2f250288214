//! Deleting caches and build output outside the project.
//!
//! The shell analyzer judges any delete outside the workspace and temp dirs as destroying user
//! data (`fs.delete_outside_workspace(_recursive)`): right for `rm -rf ~/Documents`, wrong for
//! `rm -rf ~/.cache/pip` or `rm -rf ~/.cargo/registry/cache`, which is what `pip cache purge`
//! or `cargo cache` do — the content is downloaded or rebuilt on demand. Which locations are
//! such caches is data (`hookgate-paths`' `catalog/regenerable.toml`: the XDG cache dir and the
//! package managers' caches), so this module only checks confinement: a command is set aside
//! for `destructive-shell` when everything it deletes lies inside a regenerable location,
//! holds nothing the sensitive catalog names, and — when symlinks are followed — is a cache
//! physically too (`~/.cache` may be a link to somewhere else). The home directory itself,
//! dotfiles, configuration and credential directories are never regenerable and stay judged
//! as before; so does anything the command does besides deleting.
//!
//! The same holds inside a project for `git clean -X` limited to a subdirectory
//! (`git clean -fX -- dist/`): `-X` removes only files the project's ignore rules name —
//! build output by the project's own declaration — so it loses nothing git or a rebuild
//! cannot restore, as long as the place holds nothing the sensitive catalog names (an ignored
//! `.env`). `git clean -fdx` (untracked files too), a clean of the whole work tree, and one
//! with extra `-e` patterns keep their verdict.

use std::path::{Path, PathBuf};

use hookgate_core::PathOp;
use hookgate_shell::ExecutedCommand;

use crate::Ctx;
use crate::action::Facts;
use crate::pattern::{GIT_GLOBAL_WITH_VALUE, base_name, split_flags};

/// The analyzer rules that judge a delete by where it lies, which a delete confined to
/// regenerable locations sets aside (`/opt/app/__pycache__` lies below a system dir, but a
/// bytecode cache is one wherever it is). The home, `/` and system dirs themselves are never
/// inside a regenerable location, so their deletes keep the verdict.
pub(crate) const OUTSIDE: &[&str] = &[
    "fs.delete_system",
    "fs.delete_outside_workspace",
    "fs.delete_outside_workspace_recursive",
];

/// Programs whose whole effect may be deleting their operands (`find … -delete` below its
/// start; a `find` that also writes or runs something is not set aside: every path it
/// touches must be a delete).
const DELETERS: &[&str] = &["rm", "rmdir", "unlink", "find"];

/// The line's commands (indices into the analysis) that only delete regenerable content, and
/// one note per command for the evaluation's steps.
pub(crate) fn cache_deletes(facts: &Facts<'_>, ctx: &Ctx) -> (Vec<usize>, Vec<String>) {
    set_aside(facts, ctx, |command, deleted, pctx| {
        let rule = command.verdict.rule_id.as_deref()?;
        let deleter = command
            .argv
            .first()
            .is_some_and(|p| DELETERS.contains(&base_name(p)));
        if !OUTSIDE.contains(&rule) || !command.effects.is_empty() || !deleter {
            return None;
        }
        let mut ids: Vec<&str> = Vec::new();
        let confined = deleted.iter().all(|p| {
            let Some(m) = regenerable(p, pctx, ctx) else {
                return inside_workspace(p, ctx);
            };
            if !ids.contains(&m) {
                ids.push(m);
            }
            true
        });
        (confined && !ids.is_empty()).then(|| {
            format!(
                "`{}` deletes only regenerable content ({})",
                command.argv.join(" "),
                ids.join(", ")
            )
        })
    })
}

/// The commands of the line `judge` sets aside (with its note): it sees each command that
/// only deletes — every path it touches besides reading is a placed delete — with the
/// canonical paths it deletes.
fn set_aside(
    facts: &Facts<'_>,
    ctx: &Ctx,
    judge: impl Fn(&ExecutedCommand, &[PathBuf], &hookgate_paths::PathContext) -> Option<String>,
) -> (Vec<usize>, Vec<String>) {
    let mut commands = Vec::new();
    let mut notes = Vec::new();
    let Some(analysis) = &facts.analysis else {
        return (commands, notes);
    };
    let pctx = hookgate_paths::PathContext {
        cwd: facts.cwd.clone(),
        workspace: Some(ctx.workspace.clone()),
        home: ctx.home.clone(),
    };
    for (c, command) in analysis.commands.iter().enumerate() {
        let mut deleted = Vec::new();
        let mut only_deletes = true;
        for (i, item) in facts.items.iter().enumerate() {
            if item.command != Some(c) {
                continue;
            }
            only_deletes &= item.unplaced.is_empty();
            for p in item.paths.iter().filter(|p| p.op != PathOp::Read) {
                only_deletes &= p.op == PathOp::Delete;
                deleted.extend(facts.candidates(i, p));
            }
        }
        if !only_deletes || deleted.is_empty() {
            continue;
        }
        if let Some(note) = judge(command, &deleted, &pctx) {
            commands.push(c);
            notes.push(note);
        }
    }
    (commands, notes)
}

/// The regenerable entry holding `p` and everything below it, when nothing sensitive lies
/// there and (following symlinks) its physical place is regenerable too.
fn regenerable(p: &Path, pctx: &hookgate_paths::PathContext, ctx: &Ctx) -> Option<&'static str> {
    let m = hookgate_paths::regenerable(p, pctx)?;
    if !hookgate_paths::classify_subtree(p, pctx).is_empty() {
        return None;
    }
    if ctx.follow_symlinks {
        // A resolution error is "unknown", never "safe".
        let resolved = hookgate_paths::resolve(&p.to_string_lossy(), &pctx.cwd, None).ok()?;
        if resolved.physical != p
            && (hookgate_paths::regenerable(&resolved.physical, pctx).is_none()
                || !hookgate_paths::classify_subtree(&resolved.physical, pctx).is_empty())
        {
            return None;
        }
    }
    Some(m.id)
}

/// Inside the project, but not its root nor `.git`: a delete the analyzer takes as ordinary
/// work on its own (`rm -rf build ~/.cache/pip` is judged by the cache part).
fn inside_workspace(p: &Path, ctx: &Ctx) -> bool {
    hookgate_paths::is_within(p, &ctx.workspace)
        && p != ctx.workspace
        && !hookgate_paths::is_within(p, &ctx.workspace.join(".git"))
}

/// The line's `git clean -X` commands confined to ignored files below subdirectories of the
/// project (see the module doc), and one note per command.
pub(crate) fn ignored_cleans(facts: &Facts<'_>, ctx: &Ctx) -> (Vec<usize>, Vec<String>) {
    set_aside(facts, ctx, |command, cleaned, pctx| {
        // With pathspecs the analyzer already judged each path as a delete (no rule when all
        // are ordinary); the policy's `no-git-discard` follows it here.
        let rule = command.verdict.rule_id.as_deref();
        let confined = (rule == Some("git.clean_force")
            || (rule.is_none() && with_pathspecs(&command.argv)))
            && command.via.is_empty()
            && (ignored_only(&command.argv) || with_pathspecs(&command.argv))
            && cleaned.iter().all(|p| {
                inside_workspace(p, ctx) && hookgate_paths::classify_subtree(p, pctx).is_empty()
            });
        confined.then(|| {
            format!(
                "`{}` removes only ignored files below {}",
                command.argv.join(" "),
                cleaned
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    })
}

/// `git clean … [--] PATHSPEC…` (not `-C`, another work tree or git dir): restricted to
/// pathspecs, git clean removes only untracked (or ignored) files below them, a subset of
/// `rm -rf PATHSPEC…`, so it is judged as that delete (the caller checks where the cleaned
/// paths lie). Invariant: subset deletions are never judged stricter than the superset.
fn with_pathspecs(argv: &[String]) -> bool {
    let Some(rest) = argv.get(1..) else {
        return false;
    };
    let Some((sub, options)) = rest.split_first() else {
        return false;
    };
    if sub != "clean" {
        return false;
    }
    let mut only_paths = false;
    let mut skip = false;
    options.iter().any(|a| {
        if skip {
            skip = false;
            return false;
        }
        if only_paths || !a.starts_with('-') {
            return true;
        }
        if a == "--" {
            only_paths = true;
        } else if a.len() >= 3 && "--exclude".starts_with(a.as_str()) {
            skip = true;
        } else if let Some(letters) = a.strip_prefix('-').filter(|l| !l.starts_with('-')) {
            skip = letters.find('e').is_some_and(|k| k + 1 == letters.len());
        }
        false
    })
}

/// `git [-C DIR] clean` with `-X` (ignored files only), without `-x`, extra exclude patterns
/// (which `-X` would remove too), a second `-f` (nested repositories) or another work tree.
fn ignored_only(argv: &[String]) -> bool {
    let mut at = 1;
    while let Some(word) = argv.get(at) {
        if word.starts_with("--git-dir") || word.starts_with("--work-tree") {
            return false;
        }
        if !word.starts_with('-') {
            break;
        }
        at += if GIT_GLOBAL_WITH_VALUE.contains(&word.as_str()) {
            2
        } else {
            1
        };
    }
    let rest = argv.get(at..).unwrap_or_default();
    if rest.first().map(String::as_str) != Some("clean") {
        return false;
    }
    let options: Vec<&String> = rest
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-'))
        .collect();
    let forces: usize = options
        .iter()
        .map(|o| match o.strip_prefix("--") {
            Some(long) => usize::from("force".starts_with(long) && long.len() >= 2),
            None => o.chars().skip(1).filter(|c| *c == 'f').count(),
        })
        .sum();
    let flags = split_flags(rest.get(1..).unwrap_or_default());
    flags.short.contains(&'X')
        && !flags.short.contains(&'x')
        && !flags.short.contains(&'e')
        && !flags.long.iter().any(|l| l.starts_with("exclude"))
        && forces == 1
}
