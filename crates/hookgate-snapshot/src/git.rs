//! Running the real `git` binary, for the shadow repository and (read-only) for the user's.
//!
//! Invariants:
//! - every shadow call names `--git-dir` and `--work-tree` explicitly and runs with the
//!   variables that could redirect git to another repository or index removed
//!   ([`REDIRECTING_VARS`]): a hook started from inside a git hook inherits `GIT_INDEX_FILE`,
//!   and with it `git add` would stage into the *user's* index;
//! - no repository-configured code runs (`core.fsmonitor`, hooks), and the shadow calls take
//!   pathspecs literally (`--literal-pathspecs`), so a file named `*` or `:(top)` is that file
//!   and nothing else;
//! - calls on the user's repository only read (`rev-parse`, `check-ignore`) and take no
//!   optional locks.

use std::ffi::OsStr;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::SnapshotError;

/// Variables that point git at a repository, index or object store other than the one named
/// on the command line.
const REDIRECTING_VARS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    "GIT_QUARANTINE_PATH",
    "GIT_IMPLICIT_WORK_TREE",
];

/// Options that switch off code a repository's or the user's config could run, and make
/// output machine-readable.
const SAFE_CONFIG: &[&str] = &[
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.quotepath=false",
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.symlinks=true",
    "-c",
    "core.untrackedCache=false",
    "--no-pager",
];

/// What a git call printed.
#[derive(Debug)]
pub(crate) struct Output {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Output {
    pub(crate) fn ok(&self) -> bool {
        self.code == Some(0)
    }

    pub(crate) fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs `git SAFE_CONFIG ARGS` in `cwd`, feeding `stdin`.
pub(crate) fn run<S: AsRef<OsStr>>(
    cwd: &Path,
    args: &[S],
    stdin: Option<&[u8]>,
) -> Result<Output, SnapshotError> {
    let mut command = Command::new("git");
    command
        .args(SAFE_CONFIG)
        .args(args)
        .current_dir(cwd)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for var in REDIRECTING_VARS {
        command.env_remove(var);
    }
    let mut child = command.spawn().map_err(SnapshotError::GitMissing)?;
    // Fed from a thread: `check-ignore --stdin` answers while it reads, so writing a long
    // list before reading could fill both pipes and deadlock. A write error (git exited
    // early) surfaces as git's own failure below.
    let feeder = match (stdin, child.stdin.take()) {
        (Some(bytes), Some(mut pipe)) => {
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let out = child.wait_with_output().map_err(|e| SnapshotError::Io {
        op: "wait for",
        path: "git".into(),
        source: e,
    })?;
    if let Some(feeder) = feeder {
        let _ = feeder.join();
    }
    Ok(Output {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
    })
}

/// Runs git and fails unless it exits 0.
pub(crate) fn checked<S: AsRef<OsStr>>(
    cwd: &Path,
    args: &[S],
    stdin: Option<&[u8]>,
) -> Result<Output, SnapshotError> {
    let out = run(cwd, args, stdin)?;
    if out.ok() {
        Ok(out)
    } else {
        Err(failure(args, &out))
    }
}

/// The error for a git call that exited badly.
pub(crate) fn failure<S: AsRef<OsStr>>(args: &[S], out: &Output) -> SnapshotError {
    // The shadow calls start with `--git-dir G --work-tree W`: name the subcommand instead.
    let words: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let start = words
        .iter()
        .position(|w| w == "--work-tree")
        .map_or(0, |i| i + 2);
    SnapshotError::Git {
        command: words
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take(4)
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        status: out
            .code
            .map_or_else(|| "killed by a signal".to_owned(), |c| format!("exit {c}")),
        stderr: out.stderr.lines().next().unwrap_or_default().to_owned(),
    }
}

/// NUL-separated output as strings (git's `-z`), empty items dropped.
pub(crate) fn split_nul(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|b| *b == 0)
        .filter(|part| !part.is_empty())
        .map(|part| String::from_utf8_lossy(part).into_owned())
        .collect()
}

/// Paths as git's `--pathspec-from-file=- --pathspec-file-nul` input.
pub(crate) fn nul_list<S: AsRef<str>>(items: &[S]) -> Vec<u8> {
    let mut out = Vec::new();
    for item in items {
        out.extend_from_slice(item.as_ref().as_bytes());
        out.push(0);
    }
    out
}
