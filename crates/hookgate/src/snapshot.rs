//! `hookgate snapshot list|diff|undo|reset`: the checkpoints the `snapshot` built-in recorded
//! for the git work tree containing the current directory (see `hookgate-snapshot`).
//!
//! `undo` and `reset` rewrite files from hookgate's own store: that is the user's decision,
//! so an agent running either from its shell tool is denied by the locked
//! `no-governance-self-modification` invariant, as `hookgate allow` is (`list` and `diff`
//! only read and stay open).

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use hookgate_core::term::{escape, escape_lines};
use hookgate_snapshot::{Checkpoint, CheckpointId, DiffEnd, Repo, Reverted, Span};
use serde::Serialize;

use crate::{Failure, print, to_json};

/// `hookgate snapshot`.
#[derive(Debug, Args)]
pub(crate) struct SnapshotArgs {
    #[command(subcommand)]
    command: SnapshotCommand,
    /// A directory in the work tree (default: the current directory).
    #[arg(long, value_name = "DIR", global = true)]
    dir: Option<PathBuf>,
    /// Only this session's checkpoints (list, undo, reset).
    #[arg(long, value_name = "SESSION", global = true)]
    session: Option<String>,
    /// Print JSON.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Debug, Subcommand)]
enum SnapshotCommand {
    /// List the checkpoints, oldest first.
    List,
    /// Show the changes since checkpoint FROM (default: the newest) — to the work tree now,
    /// or through checkpoint TO (`diff 3 3` is what checkpoint 3 changed).
    Diff {
        /// The checkpoint whose *before* state the diff starts from.
        from: Option<u64>,
        /// The checkpoint whose *after* state the diff ends at (default: the work tree).
        to: Option<u64>,
    },
    /// Revert the newest checkpoint: its files go back to how they were before it (files it
    /// created are deleted); then forget it.
    Undo,
    /// Revert every checkpoint after the first N, newest first, and forget them
    /// (`--keep 0`, the default, reverts them all; N at or beyond the count changes nothing).
    Reset {
        /// How many of the oldest checkpoints to keep.
        #[arg(long, value_name = "N", default_value_t = 0)]
        keep: usize,
    },
}

fn open(args: &SnapshotArgs) -> Result<Repo, Failure> {
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => {
            std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?
        }
    };
    Ok(Repo::open(&hookgate_project::data_dir(), &dir)?)
}

fn span(checkpoint: &Checkpoint) -> String {
    match &checkpoint.span {
        Span::Turn => "turn".to_owned(),
        Span::Tool { tool_use_id } => format!(
            "{} {}",
            checkpoint.tool_name.as_deref().unwrap_or("tool"),
            tool_use_id
        ),
    }
}

fn file_list(files: &[String]) -> String {
    const SHOWN: usize = 4;
    let mut text = files
        .iter()
        .take(SHOWN)
        .map(|f| escape(f).into_owned())
        .collect::<Vec<_>>()
        .join(", ");
    if files.len() > SHOWN {
        let _ = write!(text, ", … {} more", files.len() - SHOWN);
    }
    text
}

#[derive(Serialize)]
struct Listing<'a> {
    worktree: &'a std::path::Path,
    checkpoints: Vec<Checkpoint>,
}

#[derive(Serialize)]
struct Done<'a> {
    worktree: &'a std::path::Path,
    #[serde(flatten)]
    reverted: Reverted,
}

fn list(args: &SnapshotArgs, repo: &Repo) -> Result<u8, Failure> {
    let checkpoints: Vec<Checkpoint> = repo
        .list()?
        .into_iter()
        .filter(|c| args.session.as_ref().is_none_or(|s| &c.session_id == s))
        .collect();
    if args.json {
        return print(&to_json(&Listing {
            worktree: repo.worktree(),
            checkpoints,
        })?)
        .map(|()| 0);
    }
    if checkpoints.is_empty() {
        return print(&format!(
            "no checkpoints for {}\n",
            escape(&repo.worktree().display().to_string())
        ))
        .map(|()| 0);
    }
    let tz = hookgate_audit::local_zone();
    let mut out = String::new();
    for c in &checkpoints {
        let _ = writeln!(
            out,
            "{:>4}  {}  {}  {}  {} file{}: {}",
            c.id,
            hookgate_audit::format_time(c.created_ms, &tz),
            escape(&c.session_id),
            escape(&span(c)),
            c.files.len(),
            if c.files.len() == 1 { "" } else { "s" },
            file_list(&c.files)
        );
        if !c.skipped.is_empty() {
            let names: Vec<String> = c.skipped.iter().map(|s| s.path.clone()).collect();
            let _ = writeln!(
                out,
                "      not kept (new, over 2 MiB): {}",
                file_list(&names)
            );
        }
    }
    print(&out).map(|()| 0)
}

fn diff(
    args: &SnapshotArgs,
    repo: &Repo,
    from: Option<u64>,
    to: Option<u64>,
) -> Result<u8, Failure> {
    let from = match from {
        Some(id) => CheckpointId(id),
        None => repo
            .list()?
            .last()
            .map(|c| c.id)
            .ok_or_else(|| Failure("no checkpoints to diff against".to_owned()))?,
    };
    let end = to.map_or(DiffEnd::WorkTree, |id| DiffEnd::After(CheckpointId(id)));
    let diff = repo.diff(from, end)?;
    if args.json {
        return print(&to_json(&diff)?).map(|()| 0);
    }
    let target = to.map_or_else(
        || "the work tree".to_owned(),
        |id| format!("after checkpoint {id}"),
    );
    let mut out = format!(
        "before checkpoint {from} → {target}: {} file{} changed\n",
        diff.files.len(),
        if diff.files.len() == 1 { "" } else { "s" }
    );
    out.push_str(&escape_lines(&diff.patch));
    print(&out).map(|()| 0)
}

fn report(
    args: &SnapshotArgs,
    repo: &Repo,
    reverted: Reverted,
    nothing: &str,
) -> Result<u8, Failure> {
    if args.json {
        return print(&to_json(&Done {
            worktree: repo.worktree(),
            reverted,
        })?)
        .map(|()| 0);
    }
    if reverted.checkpoints.is_empty() {
        return print(&format!("{nothing}\n")).map(|()| 0);
    }
    let ids: Vec<String> = reverted
        .checkpoints
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut out = format!(
        "reverted checkpoint{} {}\n",
        if ids.len() == 1 { "" } else { "s" },
        ids.join(", ")
    );
    if !reverted.restored.is_empty() {
        let _ = writeln!(out, "  restored: {}", file_list(&reverted.restored));
    }
    if !reverted.deleted.is_empty() {
        let _ = writeln!(out, "  deleted:  {}", file_list(&reverted.deleted));
    }
    print(&out).map(|()| 0)
}

pub(crate) fn run(args: &SnapshotArgs) -> Result<u8, Failure> {
    let repo = open(args)?;
    let session = args.session.as_deref();
    match &args.command {
        SnapshotCommand::List => list(args, &repo),
        SnapshotCommand::Diff { from, to } => diff(args, &repo, *from, *to),
        SnapshotCommand::Undo => {
            let reverted = repo.undo_last(session)?;
            report(args, &repo, reverted, "nothing to undo")
        }
        SnapshotCommand::Reset { keep } => {
            let reverted = repo.reset(*keep, session)?;
            report(
                args,
                &repo,
                reverted,
                &format!("nothing to reset: keeping the first {keep}"),
            )
        }
    }
}
