//! Shadow-git checkpoints of a work tree: docker-agent's `snapshot`, for hookgate.
//!
//! A *shadow* repository per git work tree lives under hookgate's data directory at
//! `<data dir>/snapshot/<sha256 of the canonical work-tree root>`. Every call runs the real
//! `git` binary with `--git-dir <shadow> --work-tree <root>`, so the user's `.git` is only
//! ever read (its root, its ignore rules), never written: no commit, no ref, no index entry.
//!
//! *Track* stages the state of the current directory's subtree into the shadow index —
//! modified and untracked files, minus everything the source repository ignores (its
//! `.gitignore` files, `info/exclude` and the user's global excludes) and minus new files
//! over [`LARGE_FILE_LIMIT`] (skipped and reported) — and writes it as a tree object. A
//! *checkpoint* is a change between two such trees (at `turn_start`→`turn_end`, or around one
//! tool call): the tree before, the tree after and the files that differ. Checkpoints are
//! kept in `checkpoints.json` inside the shadow repository, and each tree is pinned by a ref
//! there so `git gc` keeps it; they outlive the session that made them.
//!
//! *Undo* restores the files of the newest checkpoint to its *before* tree (deleting those
//! that did not exist then); *reset --keep N* does the same for every checkpoint after the
//! first N. Only files a checkpoint recorded are touched: edits elsewhere survive.
//!
//! Invariants:
//! - the user's repository is read-only to this crate (see [`git`]'s redirect-proof runner);
//! - concurrent processes (parallel tool calls, a hook and `hookgate snapshot undo`) are
//!   serialised by an exclusive lock on `<shadow>/hookgate.lock`; a lock held longer than
//!   [`LOCK_WAIT`] is an error ([`SnapshotError::Locked`]), never a silent skip;
//! - a path read back from the index is restored or deleted only if it is a plain relative
//!   path below the work-tree root whose parent resolves inside it, so a damaged or crafted
//!   index cannot delete files elsewhere;
//! - outside a git work tree nothing is tracked: [`SnapshotError::NotAGitRepository`], for the
//!   caller to report (docker-agent needs a work tree too: the ignore rules come from it).

mod git;
#[cfg(feature = "testkit")]
pub mod testkit;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write as _;
use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// New files larger than this are not snapshotted (docker-agent's 2 MiB): large artifacts
/// would bloat the shadow repository, and the skip is reported.
pub const LARGE_FILE_LIMIT: u64 = 2 * 1024 * 1024;
/// How long an operation waits for another process's lock before failing.
pub const LOCK_WAIT: Duration = Duration::from_secs(30);
/// Checkpoints kept per work tree; past it the oldest are forgotten.
pub const MAX_CHECKPOINTS: usize = 500;
/// Open baselines (a turn or tool call that started and has not ended) kept per work tree;
/// past it the oldest are dropped (their sessions crashed).
const MAX_BASELINES: usize = 256;
/// Unreferenced shadow objects older than this are pruned at `session_end` (docker-agent's).
const PRUNE_AFTER: &str = "gc.pruneExpire=7.days.ago";
/// The index file inside the shadow repository.
const INDEX_FILE: &str = "checkpoints.json";
/// The lock file inside the shadow repository.
const LOCK_FILE: &str = "hookgate.lock";
/// Where checkpoint trees are pinned.
const REF_PREFIX: &str = "refs/hookgate/checkpoints";

/// Why a snapshot operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// The directory is not inside a git work tree.
    #[error("{} is not inside a git work tree (snapshots mirror a git work tree's ignore rules)", dir.display())]
    NotAGitRepository {
        /// The directory asked about.
        dir: PathBuf,
    },
    /// `git` could not be started.
    #[error("cannot run git (is it installed?): {0}")]
    GitMissing(#[source] std::io::Error),
    /// A git command failed.
    #[error("git {command} failed ({status}): {stderr}")]
    Git {
        /// The subcommand and its first arguments.
        command: String,
        /// How it ended.
        status: String,
        /// The first line of what it printed on stderr.
        stderr: String,
    },
    /// A file operation failed.
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        /// What was being done.
        op: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Another process held the lock for longer than [`LOCK_WAIT`].
    #[error("another hookgate process has held {} for over {}s; try again", path.display(), waited.as_secs())]
    Locked {
        /// The lock file.
        path: PathBuf,
        /// How long this process waited.
        waited: Duration,
    },
    /// The checkpoint index is not what this crate writes.
    #[error("{} is damaged: {reason}", path.display())]
    Damaged {
        /// The index file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// No checkpoint has this id.
    #[error("no checkpoint {0} (see `hookgate snapshot list`)")]
    NoSuchCheckpoint(CheckpointId),
    /// A recorded path is not a plain path inside the work tree.
    #[error("refusing to touch `{0}`: not a plain relative path inside the work tree")]
    UnsafePath(String),
    /// git printed a tree hash that is not one.
    #[error("git printed `{0}` where a tree hash was expected")]
    BadHash(String),
}

/// A git tree object id (hex SHA-1 or SHA-256), as printed by `git write-tree`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TreeHash(String);

impl TreeHash {
    /// The hex id.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first 12 hex digits, for people.
    pub fn short(&self) -> &str {
        self.0.get(..12).unwrap_or(&self.0)
    }
}

impl TryFrom<String> for TreeHash {
    type Error = SnapshotError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        let valid = matches!(value.len(), 40 | 64)
            && value
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
        if valid {
            Ok(Self(value))
        } else {
            Err(SnapshotError::BadHash(value))
        }
    }
}

impl From<TreeHash> for String {
    fn from(value: TreeHash) -> Self {
        value.0
    }
}

impl std::fmt::Display for TreeHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A checkpoint's number in its work tree (1, 2, …; never reused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CheckpointId(pub u64);

impl std::fmt::Display for CheckpointId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a checkpoint brackets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "span", rename_all = "snake_case")]
pub enum Span {
    /// A turn: `turn_start` → `turn_end`.
    Turn,
    /// One tool call: `pre_tool_use` → `post_tool_use`.
    Tool {
        /// The call's id.
        tool_use_id: String,
    },
}

/// A new file left out of the snapshot because it is larger than [`LARGE_FILE_LIMIT`]: undo
/// can neither restore nor remove it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    /// Work-tree-relative path.
    pub path: String,
    /// Its size.
    pub bytes: u64,
}

/// One recorded change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Its number.
    pub id: CheckpointId,
    /// The state before the change: what undo restores the files to.
    pub before: TreeHash,
    /// The state after the change.
    pub after: TreeHash,
    /// The files that differ, relative to the work-tree root.
    pub files: Vec<String>,
    /// New large files present when it was taken (not in either tree).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SkippedFile>,
    /// When it was recorded (Unix milliseconds).
    pub created_ms: u64,
    /// The session that made it.
    pub session_id: String,
    /// What it brackets.
    #[serde(flatten)]
    pub span: Span,
    /// The tool, for a tool span.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// The directory it was scoped to, relative to the work-tree root (`.` for all of it).
    pub scope: String,
}

/// An open turn or tool call: the tree its checkpoint will start from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Baseline {
    session_id: String,
    #[serde(flatten)]
    span: Span,
    tree: TreeHash,
    created_ms: u64,
}

/// The index file's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Index {
    version: u32,
    worktree: PathBuf,
    next_id: u64,
    checkpoints: Vec<Checkpoint>,
    baselines: Vec<Baseline>,
}

/// The state of the tracked subtree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tracked {
    /// Its tree.
    pub tree: TreeHash,
    /// New files left out for their size.
    pub skipped: Vec<SkippedFile>,
}

/// What closing a turn or tool call recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settled {
    /// The checkpoint, when files changed.
    pub checkpoint: Option<Checkpoint>,
    /// False when no baseline was open for the span (snapshots were switched on mid-turn,
    /// or the opening event was not hooked): nothing could be compared.
    pub had_baseline: bool,
    /// New files left out for their size.
    pub skipped: Vec<SkippedFile>,
}

/// What an undo or reset did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reverted {
    /// The checkpoints reverted (and forgotten), newest first.
    pub checkpoints: Vec<CheckpointId>,
    /// Files written back.
    pub restored: Vec<String>,
    /// Files removed (they did not exist before the change).
    pub deleted: Vec<String>,
}

/// How a file differs between two states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeStatus {
    /// Only in the later state.
    Added,
    /// Only in the earlier state.
    Deleted,
    /// Content or mode changed.
    Modified,
    /// File became a symlink or the reverse.
    TypeChanged,
}

/// One file of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileChange {
    /// Work-tree-relative path.
    pub path: String,
    /// How it changed.
    pub status: ChangeStatus,
    /// Lines added (`None` for binary files).
    pub additions: Option<u64>,
    /// Lines deleted (`None` for binary files).
    pub deletions: Option<u64>,
}

/// A diff between two states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diff {
    /// The earlier tree.
    pub from: TreeHash,
    /// The later tree.
    pub to: TreeHash,
    /// The files that differ.
    pub files: Vec<FileChange>,
    /// The unified diff.
    pub patch: String,
}

/// One end of a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffEnd {
    /// The work tree as it is now.
    WorkTree,
    /// The state after a checkpoint's change.
    After(CheckpointId),
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn io(op: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> SnapshotError {
    let path = path.to_path_buf();
    move |source| SnapshotError::Io { op, path, source }
}

/// A path from git or the index is usable only if relative and made of plain names, none
/// of them `.git`.
fn plain_relative(path: &str) -> bool {
    !path.is_empty()
        && Path::new(path).components().all(|c| match c {
            Component::Normal(name) => !name.eq_ignore_ascii_case(".git"),
            _ => false,
        })
}

/// The shadow repository directory of a work-tree root.
pub fn shadow_dir(data_dir: &Path, worktree: &Path) -> PathBuf {
    let digest = Sha256::digest(worktree.as_os_str().as_encoded_bytes());
    let hex = digest.iter().fold(String::new(), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    });
    data_dir.join("snapshot").join(hex)
}

/// An exclusive lock on a shadow repository, released on drop.
#[derive(Debug)]
struct Lock {
    _file: File,
}

impl Lock {
    fn acquire(path: &Path) -> Result<Self, SnapshotError> {
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(io("open", path))?;
        let start = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Self { _file: file }),
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(SnapshotError::Locked {
                        path: path.to_path_buf(),
                        waited: start.elapsed(),
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io("lock", path)(e)),
            }
        }
    }
}

/// The shadow repository of one git work tree, scoped to a directory inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The canonical directory tracking is scoped to.
    directory: PathBuf,
    /// The canonical work-tree root.
    worktree: PathBuf,
    /// The shadow git directory.
    git_dir: PathBuf,
    /// The source repository's `info/exclude` (mirrored into the shadow's).
    source_exclude: PathBuf,
}

impl Repo {
    /// The shadow repository for the git work tree containing `dir` (symlinks resolved), under
    /// `data_dir`. Reads the user's repository only; creates nothing yet.
    pub fn open(data_dir: &Path, dir: &Path) -> Result<Self, SnapshotError> {
        let directory = dir.canonicalize().map_err(io("resolve", dir))?;
        // One call for all three answers (each git process costs milliseconds on every hook).
        let out = git::run(
            &directory,
            &[
                "rev-parse",
                "--is-inside-work-tree",
                "--show-toplevel",
                "--path-format=absolute",
                "--git-path",
                "info/exclude",
            ],
            None,
        )?;
        let text = out.stdout_text();
        let mut lines = text.lines();
        let (true, Some("true"), Some(root), Some(exclude)) =
            (out.ok(), lines.next(), lines.next(), lines.next())
        else {
            return Err(SnapshotError::NotAGitRepository { dir: directory });
        };
        let worktree = Path::new(root)
            .canonicalize()
            .map_err(io("resolve", Path::new(root)))?;
        let git_dir = shadow_dir(data_dir, &worktree);
        Ok(Self {
            directory,
            worktree,
            git_dir,
            source_exclude: PathBuf::from(exclude),
        })
    }

    /// The canonical work-tree root.
    pub fn worktree(&self) -> &Path {
        &self.worktree
    }

    /// The canonical directory tracking is scoped to.
    pub fn directory(&self) -> &Path {
        &self.directory
    }

    /// The shadow git directory.
    pub fn git_dir(&self) -> &Path {
        &self.git_dir
    }

    /// The pathspec of the scope: the directory relative to the root, `.` for the root.
    fn scope(&self) -> String {
        match self.directory.strip_prefix(&self.worktree) {
            Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
            _ => ".".to_owned(),
        }
    }

    fn index_path(&self) -> PathBuf {
        self.git_dir.join(INDEX_FILE)
    }

    /// `git --git-dir <shadow> --work-tree <root> ARGS`, run in the root.
    fn shadow_args<'a>(&'a self, args: &[&'a str]) -> Vec<&'a std::ffi::OsStr> {
        let mut out: Vec<&std::ffi::OsStr> = vec![
            "--literal-pathspecs".as_ref(),
            "--git-dir".as_ref(),
            self.git_dir.as_os_str(),
            "--work-tree".as_ref(),
            self.worktree.as_os_str(),
        ];
        out.extend(args.iter().map(|a| std::ffi::OsStr::new(*a)));
        out
    }

    fn shadow(&self, args: &[&str], stdin: Option<&[u8]>) -> Result<git::Output, SnapshotError> {
        git::checked(&self.worktree, &self.shadow_args(args), stdin)
    }

    /// Creates the shadow repository if needed and takes its lock.
    fn lock(&self) -> Result<Lock, SnapshotError> {
        std::fs::create_dir_all(&self.git_dir).map_err(io("create", &self.git_dir))?;
        let lock = Lock::acquire(&self.git_dir.join(LOCK_FILE))?;
        if !self.git_dir.join("HEAD").is_file() {
            git::checked(
                &self.worktree,
                &[
                    "init".as_ref(),
                    "--quiet".as_ref(),
                    "--bare".as_ref(),
                    "--template=".as_ref(),
                    self.git_dir.as_os_str(),
                ],
                None,
            )?;
            let note = self.git_dir.join("hookgate-worktree");
            std::fs::write(&note, format!("{}\n", self.worktree.display()))
                .map_err(io("write", &note))?;
        }
        Ok(lock)
    }

    fn load(&self) -> Result<Index, SnapshotError> {
        let path = self.index_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Index {
                    version: 1,
                    worktree: self.worktree.clone(),
                    next_id: 1,
                    checkpoints: Vec::new(),
                    baselines: Vec::new(),
                });
            }
            Err(e) => return Err(io("read", &path)(e)),
        };
        let index: Index = serde_json::from_str(&text).map_err(|e| SnapshotError::Damaged {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        if index.version != 1 || index.worktree != self.worktree {
            return Err(SnapshotError::Damaged {
                path,
                reason: format!(
                    "version {} for {}, expected version 1 for {}",
                    index.version,
                    index.worktree.display(),
                    self.worktree.display()
                ),
            });
        }
        Ok(index)
    }

    fn save(&self, index: &Index) -> Result<(), SnapshotError> {
        let path = self.index_path();
        let tmp = self.git_dir.join(format!("{INDEX_FILE}.tmp"));
        let text = serde_json::to_string_pretty(index).map_err(|e| SnapshotError::Damaged {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        std::fs::write(&tmp, text).map_err(io("write", &tmp))?;
        std::fs::rename(&tmp, &path).map_err(io("replace", &path))
    }

    /// Mirrors the source repository's `info/exclude` into the shadow's, so `ls-files
    /// --exclude-standard` in the shadow skips what the user's repository skips.
    fn sync_excludes(&self) -> Result<(), SnapshotError> {
        let source = &self.source_exclude;
        let text = match std::fs::read_to_string(source) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io("read", source)(e)),
        };
        let info = self.git_dir.join("info");
        std::fs::create_dir_all(&info).map_err(io("create", &info))?;
        let target = info.join("exclude");
        std::fs::write(&target, text).map_err(io("write", &target))
    }

    /// The paths among `files` the source repository ignores (asked of the user's own
    /// repository, read-only, so its config's `core.excludesFile` counts too).
    fn ignored(&self, files: &[String]) -> Result<HashSet<String>, SnapshotError> {
        if files.is_empty() {
            return Ok(HashSet::new());
        }
        let args = ["check-ignore", "--no-index", "--stdin", "-z"];
        let out = git::run(&self.worktree, &args, Some(&git::nul_list(files)))?;
        // 0: some are ignored, 1: none is; anything else is a failure, which must not be read
        // as "none ignored" (ignored files can hold secrets the snapshot must not copy).
        match out.code {
            Some(0 | 1) => Ok(git::split_nul(&out.stdout).into_iter().collect()),
            _ => Err(git::failure(&args, &out)),
        }
    }

    /// Stages the scope's current state into the shadow index and writes its tree. Caller
    /// holds the lock.
    fn track_locked(&self) -> Result<Tracked, SnapshotError> {
        self.sync_excludes()?;
        let scope = self.scope();
        let modified = git::split_nul(
            &self
                .shadow(&["diff-files", "--name-only", "-z", "--", &scope], None)?
                .stdout,
        );
        let untracked: Vec<String> = git::split_nul(
            &self
                .shadow(
                    &[
                        "ls-files",
                        "--others",
                        "--exclude-standard",
                        "--full-name",
                        "-z",
                        "--",
                        &scope,
                    ],
                    None,
                )?
                .stdout,
        )
        .into_iter()
        // A nested repository shows as `dir/`: it is not ours to snapshot.
        .filter(|p| !p.ends_with('/'))
        .collect();
        let mut all: Vec<String> = modified.clone();
        all.extend(untracked.iter().cloned());
        all.sort();
        all.dedup();
        let ignored = self.ignored(&all)?;
        if !ignored.is_empty() {
            let mut drop: Vec<&String> = ignored.iter().collect();
            drop.sort();
            self.shadow(
                &[
                    "rm",
                    "--cached",
                    "-f",
                    "-q",
                    "--ignore-unmatch",
                    "--pathspec-from-file=-",
                    "--pathspec-file-nul",
                ],
                Some(&git::nul_list(&drop)),
            )?;
        }
        let mut skipped = Vec::new();
        let untracked: HashSet<&String> = untracked.iter().collect();
        let mut stage = Vec::new();
        for path in all.iter().filter(|p| !ignored.contains(*p)) {
            if untracked.contains(path)
                && let Ok(meta) = std::fs::symlink_metadata(self.worktree.join(path))
                && meta.is_file()
                && meta.len() > LARGE_FILE_LIMIT
            {
                skipped.push(SkippedFile {
                    path: path.clone(),
                    bytes: meta.len(),
                });
                continue;
            }
            stage.push(path);
        }
        if !stage.is_empty() {
            self.shadow(
                &[
                    "add",
                    "--all",
                    "--pathspec-from-file=-",
                    "--pathspec-file-nul",
                ],
                Some(&git::nul_list(&stage)),
            )?;
        }
        let out = self.shadow(&["write-tree"], None)?;
        let tree = TreeHash::try_from(out.stdout_text().trim().to_owned())?;
        Ok(Tracked { tree, skipped })
    }

    /// Snapshots the scope now, without recording anything.
    pub fn track(&self) -> Result<Tracked, SnapshotError> {
        let _lock = self.lock()?;
        self.track_locked()
    }

    /// Opens `span` for `session`: snapshots now and remembers the tree as the baseline its
    /// checkpoint will start from.
    pub fn mark(&self, session: &str, span: Span) -> Result<Tracked, SnapshotError> {
        let _lock = self.lock()?;
        let tracked = self.track_locked()?;
        let mut index = self.load()?;
        index
            .baselines
            .retain(|b| !(b.session_id == session && b.span == span));
        index.baselines.push(Baseline {
            session_id: session.to_owned(),
            span,
            tree: tracked.tree.clone(),
            created_ms: now_ms(),
        });
        let excess = index.baselines.len().saturating_sub(MAX_BASELINES);
        index.baselines.drain(..excess);
        self.save(&index)?;
        Ok(tracked)
    }

    /// Closes `span` for `session`: snapshots now and, when files changed since its
    /// baseline, records a checkpoint.
    pub fn settle(
        &self,
        session: &str,
        span: &Span,
        tool_name: Option<&str>,
    ) -> Result<Settled, SnapshotError> {
        let _lock = self.lock()?;
        let mut index = self.load()?;
        let Some(at) = index
            .baselines
            .iter()
            .position(|b| b.session_id == session && &b.span == span)
        else {
            return Ok(Settled {
                checkpoint: None,
                had_baseline: false,
                skipped: Vec::new(),
            });
        };
        let baseline = index.baselines.remove(at);
        let tracked = self.track_locked()?;
        let scope = self.scope();
        let files = self.changed(&baseline.tree, &tracked.tree, &scope)?;
        let checkpoint = if files.is_empty() {
            None
        } else {
            let checkpoint = Checkpoint {
                id: CheckpointId(index.next_id),
                before: baseline.tree,
                after: tracked.tree.clone(),
                files,
                skipped: tracked.skipped.clone(),
                created_ms: now_ms(),
                session_id: session.to_owned(),
                span: span.clone(),
                tool_name: tool_name.map(str::to_owned),
                scope,
            };
            self.pin(&checkpoint)?;
            index.next_id += 1;
            index.checkpoints.push(checkpoint.clone());
            let excess = index.checkpoints.len().saturating_sub(MAX_CHECKPOINTS);
            let forgotten: Vec<Checkpoint> = index.checkpoints.drain(..excess).collect();
            self.unpin(&forgotten)?;
            Some(checkpoint)
        };
        self.save(&index)?;
        Ok(Settled {
            checkpoint,
            had_baseline: true,
            skipped: tracked.skipped,
        })
    }

    /// Ends `session`: forgets its open baselines (its checkpoints stay) and lets git pack
    /// and prune the shadow repository when it has grown (`gc --auto`, unreferenced objects
    /// older than 7 days).
    pub fn end_session(&self, session: &str) -> Result<(), SnapshotError> {
        let _lock = self.lock()?;
        let mut index = self.load()?;
        let before = index.baselines.len();
        index.baselines.retain(|b| b.session_id != session);
        if index.baselines.len() != before {
            self.save(&index)?;
        }
        self.shadow(
            &[
                "-c",
                PRUNE_AFTER,
                "-c",
                "gc.autoDetach=false",
                "gc",
                "--auto",
                "--quiet",
            ],
            None,
        )?;
        Ok(())
    }

    /// Every checkpoint of this work tree, oldest first (empty when none was ever taken).
    pub fn list(&self) -> Result<Vec<Checkpoint>, SnapshotError> {
        if !self.git_dir.join("HEAD").is_file() {
            return Ok(Vec::new());
        }
        let _lock = self.lock()?;
        Ok(self.load()?.checkpoints)
    }

    /// The changes from checkpoint `from`'s *before* state to `to` (the work tree now, or
    /// another checkpoint's *after* state), within this scope.
    pub fn diff(&self, from: CheckpointId, to: DiffEnd) -> Result<Diff, SnapshotError> {
        let _lock = self.lock()?;
        let index = self.load()?;
        let find = |id: CheckpointId| {
            index
                .checkpoints
                .iter()
                .find(|c| c.id == id)
                .ok_or(SnapshotError::NoSuchCheckpoint(id))
        };
        let from_tree = find(from)?.before.clone();
        let to_tree = match to {
            DiffEnd::After(id) => find(id)?.after.clone(),
            DiffEnd::WorkTree => self.track_locked()?.tree,
        };
        let scope = self.scope();
        let statuses = git::split_nul(
            &self
                .diff_tree(&["-z", "--name-status"], &from_tree, &to_tree, &scope)?
                .stdout,
        );
        let numstat = git::split_nul(
            &self
                .diff_tree(&["-z", "--numstat"], &from_tree, &to_tree, &scope)?
                .stdout,
        );
        let mut counts: BTreeMap<String, (Option<u64>, Option<u64>)> = BTreeMap::new();
        // `-z --numstat`: "ADDED\tDELETED\tPATH" per item.
        for item in &numstat {
            let mut parts = item.splitn(3, '\t');
            if let (Some(add), Some(del), Some(path)) = (parts.next(), parts.next(), parts.next()) {
                counts.insert(path.to_owned(), (add.parse().ok(), del.parse().ok()));
            }
        }
        // `-z --name-status`: "STATUS", "PATH" as two items.
        let mut files = Vec::new();
        for pair in statuses.chunks(2) {
            let [status, path] = pair else { continue };
            let status = match status.chars().next() {
                Some('A') => ChangeStatus::Added,
                Some('D') => ChangeStatus::Deleted,
                Some('T') => ChangeStatus::TypeChanged,
                _ => ChangeStatus::Modified,
            };
            let (additions, deletions) = counts.get(path).copied().unwrap_or((None, None));
            files.push(FileChange {
                path: path.clone(),
                status,
                additions,
                deletions,
            });
        }
        let patch = self
            .diff_tree(&["-p", "--no-color"], &from_tree, &to_tree, &scope)?
            .stdout_text();
        Ok(Diff {
            from: from_tree,
            to: to_tree,
            files,
            patch,
        })
    }

    /// Reverts the newest checkpoint (of `session`, when given): its files go back to its
    /// *before* state. Nothing to undo is an empty [`Reverted`].
    pub fn undo_last(&self, session: Option<&str>) -> Result<Reverted, SnapshotError> {
        let _lock = self.lock()?;
        let mut index = self.load()?;
        let Some(last) = index
            .checkpoints
            .iter()
            .rposition(|c| session.is_none_or(|s| c.session_id == s))
        else {
            return Ok(Reverted::default());
        };
        let tail = vec![index.checkpoints[last].clone()];
        self.revert_and_forget(&mut index, &tail)
    }

    /// Reverts every checkpoint after the first `keep` (of `session`, when given), newest
    /// first, so the files they touched are as they were before the first reverted one.
    /// `keep` at or beyond the number of checkpoints changes nothing.
    pub fn reset(&self, keep: usize, session: Option<&str>) -> Result<Reverted, SnapshotError> {
        let _lock = self.lock()?;
        let mut index = self.load()?;
        let tail: Vec<Checkpoint> = index
            .checkpoints
            .iter()
            .filter(|c| session.is_none_or(|s| c.session_id == s))
            .skip(keep)
            .cloned()
            .collect();
        if tail.is_empty() {
            return Ok(Reverted::default());
        }
        self.revert_and_forget(&mut index, &tail)
    }

    /// Reverts `tail` (oldest first): each file goes back to the *before* tree of the oldest
    /// checkpoint in `tail` that touched it. Then forgets them.
    fn revert_and_forget(
        &self,
        index: &mut Index,
        tail: &[Checkpoint],
    ) -> Result<Reverted, SnapshotError> {
        let mut plan: BTreeMap<String, &TreeHash> = BTreeMap::new();
        for checkpoint in tail {
            for file in &checkpoint.files {
                if !plain_relative(file) {
                    return Err(SnapshotError::UnsafePath(file.clone()));
                }
                plan.entry(file.clone()).or_insert(&checkpoint.before);
            }
        }
        let mut by_tree: BTreeMap<&TreeHash, Vec<String>> = BTreeMap::new();
        for (file, tree) in plan {
            by_tree.entry(tree).or_default().push(file);
        }
        let mut reverted = Reverted::default();
        for (tree, files) in by_tree {
            let present: HashSet<String> = git::split_nul(
                &self
                    .shadow(&["ls-tree", "-r", "-z", "--name-only", tree.as_str()], None)?
                    .stdout,
            )
            .into_iter()
            .collect();
            let (restore, delete): (Vec<String>, Vec<String>) =
                files.into_iter().partition(|f| present.contains(f));
            if !restore.is_empty() {
                self.shadow(
                    &[
                        "checkout",
                        tree.as_str(),
                        "--pathspec-from-file=-",
                        "--pathspec-file-nul",
                    ],
                    Some(&git::nul_list(&restore)),
                )?;
            }
            for file in delete {
                if self.remove(&file)? {
                    reverted.deleted.push(file);
                }
            }
            reverted.restored.extend(restore);
        }
        reverted.restored.sort();
        reverted.deleted.sort();
        let gone: BTreeSet<CheckpointId> = tail.iter().map(|c| c.id).collect();
        index.checkpoints.retain(|c| !gone.contains(&c.id));
        self.save(index)?;
        self.unpin(tail)?;
        reverted.checkpoints = gone.into_iter().rev().collect();
        Ok(reverted)
    }

    /// Removes a file the *before* state did not have. False when it is already gone.
    fn remove(&self, file: &str) -> Result<bool, SnapshotError> {
        let path = self.worktree.join(file);
        let Some(parent) = path.parent() else {
            return Err(SnapshotError::UnsafePath(file.to_owned()));
        };
        let parent = match parent.canonicalize() {
            Ok(parent) => parent,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(io("resolve", parent)(e)),
        };
        // A directory replaced by a symlink since the checkpoint must not lead the delete
        // outside the work tree.
        if !parent.starts_with(&self.worktree) {
            return Err(SnapshotError::UnsafePath(file.to_owned()));
        }
        let Some(name) = path.file_name() else {
            return Err(SnapshotError::UnsafePath(file.to_owned()));
        };
        let target = parent.join(name);
        match std::fs::remove_file(&target) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io("remove", &target)(e)),
        }
    }

    /// `git diff-tree -r --no-renames HOW FROM TO -- SCOPE` in the shadow repository.
    fn diff_tree(
        &self,
        how: &[&str],
        from: &TreeHash,
        to: &TreeHash,
        scope: &str,
    ) -> Result<git::Output, SnapshotError> {
        let mut args = vec!["diff-tree", "-r", "--no-renames"];
        args.extend_from_slice(how);
        args.extend([from.as_str(), to.as_str(), "--", scope]);
        self.shadow(&args, None)
    }

    /// The files that differ between two trees within `scope`.
    fn changed(
        &self,
        from: &TreeHash,
        to: &TreeHash,
        scope: &str,
    ) -> Result<Vec<String>, SnapshotError> {
        if from == to {
            return Ok(Vec::new());
        }
        let out = self.diff_tree(&["-z", "--name-only"], from, to, scope)?;
        Ok(git::split_nul(&out.stdout))
    }

    /// Pins a checkpoint's trees with refs, so `gc` never prunes what undo needs.
    fn pin(&self, checkpoint: &Checkpoint) -> Result<(), SnapshotError> {
        let id = checkpoint.id;
        let script = format!(
            "update {REF_PREFIX}/{id}/before {}\nupdate {REF_PREFIX}/{id}/after {}\n",
            checkpoint.before, checkpoint.after
        );
        self.shadow(&["update-ref", "--stdin"], Some(script.as_bytes()))
            .map(drop)
    }

    fn unpin(&self, checkpoints: &[Checkpoint]) -> Result<(), SnapshotError> {
        if checkpoints.is_empty() {
            return Ok(());
        }
        let script = checkpoints.iter().fold(String::new(), |mut script, c| {
            let id = c.id;
            let _ = write!(
                script,
                "delete {REF_PREFIX}/{id}/before\ndelete {REF_PREFIX}/{id}/after\n"
            );
            script
        });
        self.shadow(&["update-ref", "--stdin"], Some(script.as_bytes()))
            .map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_may_be_touched() {
        for good in ["a.txt", "src/lib.rs", "dir/.gitignore", "a..b"] {
            assert!(plain_relative(good), "{good}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../b",
            "./a",
            ".git/config",
            "x/.GIT/hooks",
        ] {
            assert!(!plain_relative(bad), "{bad}");
        }
    }

    #[test]
    fn tree_hashes_are_lowercase_hex_of_git_lengths() {
        assert!(TreeHash::try_from("a".repeat(40)).is_ok());
        assert!(TreeHash::try_from("0".repeat(64)).is_ok());
        for bad in ["", "abc", &"A".repeat(40), &"g".repeat(40), &"a".repeat(41)] {
            assert!(TreeHash::try_from(bad.to_owned()).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_shadow_directory_is_a_sha256_of_the_root_under_the_data_dir() {
        let dir = shadow_dir(Path::new("/data"), Path::new("/home/u/project"));
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(dir.parent(), Some(Path::new("/data/snapshot")));
        assert_eq!(name.len(), 64);
        assert_ne!(
            dir,
            shadow_dir(Path::new("/data"), Path::new("/home/u/other"))
        );
    }
}
