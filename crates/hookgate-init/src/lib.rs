//! `hookgate init` and `hookgate doctor`: writing each coding agent's hook configuration, and
//! checking that it is really there and really answers.
//!
//! A guard that is installed wrong governs nothing, silently: AgentGuard wrote timeouts in
//! milliseconds where Claude Code reads seconds, and documented `.codex/settings.json` where Codex
//! reads `.codex/hooks.json`; Codex skips every untrusted hook without a word. So this crate is
//! deliberately literal about each agent's file, shape, units and trust gate (see
//! `shared/reference/agent-hook-protocols.md`), and every change goes through a [`Plan`] that can
//! be shown as a diff before it is applied.
//!
//! The editing rules, which the tests check one by one:
//! - merge, never overwrite: foreign hooks and unrelated settings stay, and every file keeps its
//!   formatting, key order and comments (JSON with comments through `jsonc-parser`'s CST,
//!   Codex's TOML through `toml_edit`);
//! - byte-exact undo: `init` then `init --remove` gives back the bytes the file had;
//! - idempotent: a second install plans no change at all;
//! - our entries are recognised by their command (`… hook <agent>`), so an upgrade that moves the
//!   binary replaces them instead of adding a second copy;
//! - `--remove` takes out exactly our entries (and our Codex trust entries) and the containers that
//!   only held them, deleting a file that ends up holding nothing;
//! - a file we cannot parse is an error naming it and the line, and is never written.

mod codex;
mod diff;
mod doctor;
mod fix;
mod jsonc;
mod jsonfile;
mod paths;
mod plan;
mod shell;
mod spec;

use std::path::PathBuf;

pub use codex::{codex_trust_hash, codex_trust_key};
pub use diff::diff;
pub use doctor::{Check, doctor, is_installed};
pub use fix::plan_trust_fix;
pub use hookgate_core::AgentKind;
pub use paths::{AgentHomes, config_path};
pub use plan::{FileChange, Plan, apply, plan_install, plan_remove};

/// Which agent to configure, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The coding agent whose hook configuration is written.
    pub agent: AgentKind,
    /// Project-level or user-level configuration.
    pub scope: Scope,
}

/// Where the configuration lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The project rooted at this directory (`<dir>/.claude/settings.json`, …).
    Project(PathBuf),
    /// The user whose home directory this is (`~/.claude/settings.json`, …). The agents' own
    /// relocation variables (`$CLAUDE_CONFIG_DIR`, `$CODEX_HOME`, …) come from
    /// [`InitOptions::homes`], not from this path.
    Global(PathBuf),
}

/// What to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitOptions {
    /// Absolute path of the `hookgate` binary the agents will run. Absolute because the agents
    /// run hooks with their own `PATH` and working directory, and a missing binary is a silent
    /// allow in most of them.
    pub hookgate_bin: PathBuf,
    /// Hook timeout in seconds (written in each agent's own unit). Default 10: hookgate answers
    /// in milliseconds, and a hung hook should not stall the agent for the agents' default ten
    /// minutes.
    pub timeout_secs: u32,
    /// The agents' relocation variables and the user's home, captured once so that planning is a
    /// pure function of its inputs (tests never touch the process environment).
    pub homes: AgentHomes,
    /// Whether [`doctor`] runs the installed hook with sample payloads.
    pub probe_hook: bool,
    /// Directories whose content does not last (the system temp dirs): a hook binary written
    /// from inside one stops existing on the next reboot or clean-up, and most agents then
    /// allow everything without a word. See [`transient_location`].
    pub transient_dirs: Vec<PathBuf>,
    /// The guard's own deadline in milliseconds (`$HOOKGATE_DEADLINE_MS`, read by the binary):
    /// [`doctor`] checks that each agent's hook timeout is above it, because an agent that
    /// times a hook out lets the call run, where the deadline answers deny.
    pub guard_deadline_ms: u64,
}

/// The guard's deadline when `$HOOKGATE_DEADLINE_MS` is not set (the binary's `failsafe`).
pub const DEFAULT_GUARD_DEADLINE_MS: u64 = 5_000;

impl InitOptions {
    /// Options with the default timeout, the relocation variables of the current process, and
    /// hook probing on.
    pub fn new(hookgate_bin: impl Into<PathBuf>) -> Self {
        Self {
            hookgate_bin: hookgate_bin.into(),
            timeout_secs: 10,
            homes: AgentHomes::from_env(),
            probe_hook: true,
            transient_dirs: default_transient_dirs(),
            guard_deadline_ms: DEFAULT_GUARD_DEADLINE_MS,
        }
    }
}

/// `$TMPDIR` (what [`std::env::temp_dir`] reports) and the conventional `/tmp` and `/var/tmp`.
fn default_transient_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![std::env::temp_dir()];
    for d in ["/tmp", "/var/tmp"] {
        let d = PathBuf::from(d);
        if !dirs.contains(&d) {
            dirs.push(d);
        }
    }
    dirs
}

/// Why `bin` is a poor path to write into the agents' configs, if it is: inside a build
/// directory (an ancestor holds a `CACHEDIR.TAG`, the cache-directory marker cargo writes in
/// `target/` and other build tools in theirs: `cargo clean` deletes the binary) or inside one
/// of `transient_dirs`. A hook binary that disappears turns the guard off silently in most
/// agents, so `init` warns (it still installs: testing from a build directory is legitimate).
pub fn transient_location(bin: &std::path::Path, transient_dirs: &[PathBuf]) -> Option<String> {
    let physical =
        |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let bin = physical(bin);
    if let Some(dir) = bin
        .ancestors()
        .skip(1)
        .find(|d| d.join("CACHEDIR.TAG").is_file())
    {
        return Some(format!(
            "{} is inside the build directory {} (it holds a CACHEDIR.TAG): the agents will run \
             a binary that the next clean deletes, and a missing hook binary lets every call \
             through in most agents; install it first (`cargo install --path crates/hookgate \
             --locked`) and run `init` from the installed binary",
            bin.display(),
            dir.display()
        ));
    }
    transient_dirs
        .iter()
        .map(|d| physical(d))
        .find(|d| bin.starts_with(d))
        .map(|dir| {
            format!(
                "{} is inside the temporary directory {}: the agents will run a binary that may \
                 be gone after the next reboot or clean-up, and a missing hook binary lets every \
                 call through in most agents; install hookgate somewhere lasting and run `init` \
                 from there",
                bin.display(),
                dir.display()
            )
        })
}

/// Why a plan could not be made or applied. Every variant names the file concerned, because "could
/// not parse settings" is useless to someone with five agents' configs.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// A config file is not valid JSON/TOML. It is left untouched.
    #[error("{path}:{line}:{column}: cannot parse ({message}); the file was not changed")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A config file parses but a key we must edit has an unexpected type.
    #[error("{path}: `{key}` is not {expected}; the file was not changed")]
    Shape {
        /// The file.
        path: PathBuf,
        /// Where in the file (`hooks.PreToolUse`, `hooks.state`, …).
        key: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file changed between planning and applying; applying would lose that change.
    #[error("{path}: changed since the plan was made; run the command again")]
    Conflict {
        /// The file.
        path: PathBuf,
    },
    /// The hookgate binary path is relative; agents run hooks from other directories.
    #[error("{path}: the hookgate binary path must be absolute")]
    RelativeBinary {
        /// The path given.
        path: PathBuf,
    },
    /// A user-level file is needed but no home directory is known.
    #[error("cannot locate {what}: no home directory (set HOME or {variable})")]
    NoHome {
        /// What was being located.
        what: &'static str,
        /// The variable that would locate it.
        variable: &'static str,
    },
}

impl InitError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
