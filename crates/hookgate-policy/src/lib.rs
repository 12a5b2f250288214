//! hookgate-policy: what a coding agent's tool call *does* (canonical actions), and whether the
//! guard lets it happen (policy rules from files, built-in invariants, the embedded default).
//!
//! Every agent names the same operation differently; the agents crate turns each payload into a
//! [`CanonicalCall`]. This crate turns that call into [`Action`]s — one per executed command of
//! a shell line, parsed by `hookgate-shell`, never grepped — and judges them:
//!
//! 1. **Rules** from the layered policy files (`.hookgate/policy.yaml`, a user-level one, on
//!    top of the embedded default): match on action, tool, parsed command pattern, canonical
//!    path globs and git branch; deny beats ask beats allow.
//! 2. **Invariants**: built-in checks with stable ids, a severity and a switch (AgentGuard's 26
//!    adapted to parsed structure, plus hookgate's own). They read only what the call, the
//!    [`Ctx`] and the [`SessionState`] actually carry, so each of them fires in hook mode.
//!
//! The result, an [`Evaluation`], always names the rule and invariant ids that decided and why.
//!
//! What this crate must never do:
//! * I/O beyond reading policy files in [`Policy::load`] (and, when [`Ctx::follow_symlinks`] is
//!   set, the read-only `lstat` walk of `hookgate-paths`): the caller finds the git branch, the
//!   staged files and the session state and passes them in, so a decision is a function of its
//!   inputs and can be replayed from the audit record.
//! * Keep global mutable state: session memory lives in [`SessionState`], which the caller
//!   persists between hook processes.
//! * Panic: a guard that crashes fails open in most agents.
//! * Decide on raw text: `echo "rm -rf /"`, commit messages and issue bodies are data.
//! * Allow what it cannot resolve: an unparseable shell line is `ask`, never silence.

mod action;
pub mod allowance;
mod analyzers;
mod archive;
mod branches;
mod cases;
mod describe;
mod devcontainer;
mod dotenv;
mod eval;
mod invariants;
mod lease;
mod loaded;
mod pattern;
mod plans;
mod policy;
mod provenance;
mod regenerable;
mod taskfiles;
mod treemove;
mod workflow;
mod worktree;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use action::{Action, ActionKind, actions};
pub use analyzers::{is_analyzer_id, near_ids};
pub use archive::{ArchiveFormat, ArchiveListing, MAX_MEMBERS as MAX_ARCHIVE_MEMBERS};
pub use branches::BranchState;
pub use cases::{CaseCall, CaseOutcome, CaseReport, PayloadParser, run_cases_with};
pub use eval::{Evaluation, Matched, MatchedKind, Rejudge, Step};
pub use invariants::{INVARIANTS, InvariantInfo};
pub use pattern::CommandPattern;
pub use policy::{
    DEFAULT_POLICY_YAML, Effect, Mode, Policy, PolicyError, PolicyLayer, PolicyNote, Switch,
};
pub use treemove::{EMPTY_TREE, PROTECTED_PATHSPECS, TreeAnswer, TreeChange, TreeMove};
pub use worktree::{PathspecState, WorktreeState};

/// Where a call is judged: facts about the machine and the repository that the caller (the hook
/// process) finds, so that this crate stays free of I/O.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ctx {
    /// The user's home directory (`~`, home-anchored catalog entries).
    pub home: Option<PathBuf>,
    /// Directories where deleting is ordinary work (`/tmp`, `/var/tmp`, `$TMPDIR`).
    pub temp_dirs: Vec<PathBuf>,
    /// The current git branch, found by the caller (`None`: unknown or detached).
    pub branch: Option<String>,
    /// The branches the repository's remotes name as their default (`refs/remotes/<remote>/HEAD`,
    /// recorded by `git clone` or `git remote set-head`), found by the caller: the branch
    /// everybody starts from, so a force push to it is not made ordinary by a lease.
    /// `None`: not looked up yet — only a lease-checked push needs them, so the hook leaves
    /// them out and answers [`Evaluation::remote_defaults_wanted`] (no reads on an ordinary
    /// call); until answered, no lease push is set aside (invariant `no-force-push`).
    #[serde(default = "no_remote_defaults")]
    pub remote_default_branches: Option<Vec<String>>,
    /// The project root; relative policy globs are anchored here.
    pub workspace: PathBuf,
    /// Files staged for commit (`git diff --cached --name-only`), when the caller looked them
    /// up; `commit-scope-guard` compares them with the files written this session.
    #[serde(default)]
    pub staged_files: Option<Vec<String>>,
    /// Extra paths the guard itself lives in (the audit store under `HOOKGATE_HOME`, a policy
    /// file given on the command line): writing them is self-modification too.
    #[serde(default)]
    pub protected_paths: Vec<PathBuf>,
    /// Paths that belong to the protected set only while they exist (the agents' settings
    /// directories: a whole-tree operation in a project without them touches nothing of the
    /// guard). Looked up by [`Ctx::protected_set`] only when a call writes, deletes or moves
    /// something, so a call that touches nothing pays no I/O for them.
    #[serde(default)]
    pub protected_if_present: Vec<PathBuf>,
    /// Resolve symlinks of existing path components before classifying (read-only `lstat`s),
    /// so `ln -s ~/.ssh/id_rsa k; cat k`-style indirections are seen. Off keeps evaluation
    /// purely lexical (tests, replay).
    #[serde(default)]
    pub follow_symlinks: bool,
    /// The user's allowances in force for this call (`hookgate allow`; the caller loads them
    /// and keeps only the active ones for this project): the matches they cover are waived.
    #[serde(default)]
    pub allowances: Vec<allowance::Allowance>,
    /// What the caller found about the work trees a discard of this call acts on (linked
    /// worktree? uncommitted or untracked work?), for the directories a first judgement
    /// named in [`Evaluation::worktrees_wanted`]; see the `worktree` module.
    #[serde(default)]
    pub worktrees: Vec<WorktreeState>,
    /// What the caller found about the paths a checkout or restore of this call would
    /// overwrite (uncommitted changes there?), for the queries a first judgement named in
    /// [`Evaluation::pathspecs_wanted`]; see the `worktree` module.
    #[serde(default)]
    pub pathspecs: Vec<PathspecState>,
    /// The member lists of archives this call extracts whole, for the archives a first
    /// judgement named in [`Evaluation::archives_wanted`]; see the `archive` module.
    #[serde(default)]
    pub archives: Vec<ArchiveListing>,
    /// What the caller found about git commands that replace work-tree files with a
    /// commit's version (`checkout`, `merge`, `stash pop`, …): which protected files each
    /// would change, for the questions a first judgement named in
    /// [`Evaluation::tree_moves_wanted`]; see the `treemove` module.
    #[serde(default)]
    pub tree_moves: Vec<TreeMove>,
    /// What the caller found about the branches a `git branch -D` of this call would delete
    /// (does any commit only they reach get lost?), for the questions a first judgement named
    /// in [`Evaluation::branches_wanted`]; see the `branches` module.
    #[serde(default)]
    pub branches: Vec<BranchState>,
    /// The directories of `PATH`, in order: a program named without a `/` (`$(which
    /// hookgate)`, a bare `hookgate` in an agent's hook command) is one of these joined with
    /// its name. Empty when unknown (then only protected paths of that name are candidates).
    #[serde(default)]
    pub search_path: Vec<PathBuf>,
    /// The guard's own location variables as set in its environment (`HOOKGATE_HOME`,
    /// `HOOKGATE_CONFIG_DIR`, `HOOKGATE_STATE_DIR`), which the agent's shell shares: the
    /// analyzer resolves `$HOOKGATE_HOME` to them (`hookgate_shell::Context::known_vars`), so
    /// a deletion or write through the variable meets the protected set as the literal path
    /// does (denied, not asked as an unknown target).
    #[serde(default)]
    pub known_env: Vec<(String, String)>,
    /// The command lines of the configured command hooks (the user's, a trusted project's),
    /// each with the directory it runs in: the files they name (`sh scripts/guard.sh`,
    /// `./hooks/check.py`) enforce the guard as much as the binary does, so they join the
    /// protected set — parsed only when a call is seen to touch something.
    #[serde(default)]
    pub hook_commands: Vec<(String, PathBuf)>,
}

/// Known: the repository's remotes name no default branch (the default of a context built by
/// hand, and of a serialised one that predates the field).
#[allow(
    clippy::unnecessary_wraps,
    reason = "serde's `default = …` needs the field's type"
)]
fn no_remote_defaults() -> Option<Vec<String>> {
    Some(Vec::new())
}

impl Ctx {
    /// The shell analyzer's context for a line run in `cwd`: the home, the temp dirs and the
    /// known variables of this call — one constructor, so every analysis the policy runs
    /// (the call's own line, code it writes or hands to a runner) resolves the same words the
    /// same way.
    pub(crate) fn shell_context(&self, cwd: PathBuf) -> hookgate_shell::Context {
        let mut sctx = hookgate_shell::Context::new(cwd, self.home.clone());
        sctx.temp_dirs.clone_from(&self.temp_dirs);
        sctx.known_vars.clone_from(&self.known_env);
        sctx
    }

    /// A context for a workspace, with the usual temp dirs and symlink resolution on.
    pub fn new(workspace: impl Into<PathBuf>, home: Option<PathBuf>) -> Self {
        Self {
            home,
            temp_dirs: hookgate_shell::default_temp_dirs(),
            branch: None,
            remote_default_branches: no_remote_defaults(),
            workspace: workspace.into(),
            staged_files: None,
            protected_paths: Vec::new(),
            protected_if_present: Vec::new(),
            follow_symlinks: true,
            allowances: Vec::new(),
            worktrees: Vec::new(),
            pathspecs: Vec::new(),
            archives: Vec::new(),
            tree_moves: Vec::new(),
            branches: Vec::new(),
            search_path: Vec::new(),
            known_env: Vec::new(),
            hook_commands: Vec::new(),
        }
    }

    /// The protected set: [`Ctx::protected_paths`], and those of
    /// [`Ctx::protected_if_present`] that exist now (one `lstat` each; the only I/O here, done
    /// at the moment a call is seen to touch a path).
    pub fn protected_set(&self) -> Vec<PathBuf> {
        let mut out = self.protected_paths.clone();
        out.extend(
            self.protected_if_present
                .iter()
                .filter(|p| std::fs::symlink_metadata(p).is_ok() && !out.contains(p))
                .cloned()
                .collect::<Vec<_>>(),
        );
        out
    }

    /// The same context on a branch.
    #[must_use]
    pub fn with_branch(mut self, branch: impl Into<String>) -> Self {
        self.branch = Some(branch.into());
        self
    }
}

/// Memory of one agent session that must outlive a hook process (each call is a new process).
/// The caller loads it from the audit store, passes it to [`Policy::evaluate`], updates it with
/// [`Policy::observe`], and stores it back.
///
/// Only facts a later judgement reads are kept (no decision counters: the audit trail holds
/// one record per call), so a call that changes no fact — allowed, asked or denied — leaves
/// the stored document untouched and costs no write-then-rename.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionState {
    /// Canonical absolute paths written, created, moved or deleted by allowed calls.
    pub written_files: Vec<String>,
    /// Result of the last test run seen in a post-tool event (`None`: no test run seen, or
    /// files changed since).
    pub tests_pass: Option<bool>,
    /// Pull requests this session opened (numbers or URLs from `gh pr create` output), for
    /// `no-self-approve-pr`.
    pub created_prs: Vec<String>,
    /// package.json files written since the last package install (their lockfile may be
    /// stale), for `lockfile-integrity`.
    pub manifests_pending_install: Vec<String>,
    /// Notes already shown to this session's user (untrusted project config that was ignored,
    /// an audit store that could not be written): each reaches the user once per session,
    /// not on every call.
    pub notes_shown: Vec<String>,
    /// Paths in [`SessionState::written_files`] whose only change this session was to their
    /// permissions, ownership or attributes (`chmod u+x`): their content is not this
    /// session's, so running them is not write-then-execute. A later content write takes a
    /// path off this list.
    pub mode_changed_files: Vec<String>,
    /// Files a call of this session wrote secret data to (the environment, a credential file
    /// redirected, copied, archived or linked there), as the shell analyzer found them, with
    /// where the data came from. Every later shell line is analysed knowing them, so sending
    /// one is the same exfiltration flow as within one line (`env > /tmp/e` now, `curl -d
    /// @/tmp/e URL` later). At most [`MAX_SECRET_FILES`]; a file deleted later is dropped, a
    /// moved one follows its move.
    pub secret_files: Vec<SecretFile>,
    /// Paths this session created — absent when the creating call was judged, and made by a
    /// call that was let run — where that fact changes a later judgement (see the
    /// `provenance` module): a credential-named file inside the workspace or a temp dir (a
    /// `.env.test` copied from `.env.example`), and anything outside both (a `git clone`
    /// or `mkdir` beside the project, deleted when the work is done). At most
    /// [`MAX_CREATED`]; a path deleted later is dropped. Only a live judgement records
    /// here, and an unreadable state starts empty: no provenance, no relaxation.
    pub created: Vec<Created>,
    /// Programs this session built from packages with an explicit output (`go build -o
    /// /tmp/tool ./cmd/tool`), with the package run they stand for (`go run /abs/cmd/tool`):
    /// running the output later is judged as running those packages (the session-written
    /// sources read for what they show), not as a file of unknown content the session wrote.
    /// Any later write to the output by anything else drops the entry. At most
    /// [`MAX_BUILT`].
    pub built: Vec<Built>,
    /// Infrastructure plan files this session saved with a destroy in them (`terraform plan
    /// -destroy -out=tf.plan`, canonical absolute paths), and their copies: applying one later
    /// (`terraform apply tf.plan`) is judged as the `apply -destroy` it carries out (see the
    /// `plans` module). A record only makes a later apply stricter; any later write to the
    /// file by anything else drops it, and a write the policy cannot place does not (an
    /// unknown write leaves the file at best a plan of unknown provenance, and that is no
    /// reason to forget the destroy it may still hold). At most [`MAX_BUILT`].
    pub destroy_plans: Vec<String>,
}

/// A program the session built (see [`SessionState::built`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Built {
    /// Canonical absolute path of the output.
    pub path: String,
    /// The package run it stands for, with absolute package paths (`["go", "run", DIR]`).
    pub run: Vec<String>,
}

/// Most built programs remembered per session (beyond it, running one is write-then-execute).
pub const MAX_BUILT: usize = 64;

/// A path this session created (see [`SessionState::created`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// Canonical absolute path.
    pub path: String,
    /// Every write this session made to it carried no secret: the content came from the
    /// call's own text (without a secret in it), from files that are not credentials, or
    /// from other such files — so reading or editing it exposes nothing of the user's.
    /// A later write that brings secret data (or a link) in clears it.
    #[serde(default)]
    pub secretless: bool,
}

/// Most created paths remembered per session: it bounds the stored state; once full, new
/// creations are not remembered and get no relaxation (the closed side).
pub const MAX_CREATED: usize = 512;

/// A file holding secret data (see [`SessionState::secret_files`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretFile {
    /// Canonical absolute path.
    pub path: String,
    /// Where its content came from.
    pub source: hookgate_shell::FlowSource,
}

/// Most secret-holding files remembered per session, oldest forgotten first: it bounds the
/// stored state and what every later line of the session is analysed with (a session writes
/// secrets to a handful of files, not hundreds).
pub const MAX_SECRET_FILES: usize = 64;

/// Most paths remembered, so a runaway session cannot grow the stored state without bound.
pub const MAX_WRITTEN_FILES: usize = 10_000;

impl SessionState {
    /// Whether `note` is new to this session; remembers it (at most 64 notes are kept, after
    /// which notes are shown again rather than lost).
    pub fn first_showing(&mut self, note: &str) -> bool {
        if self.notes_shown.iter().any(|n| n == note) {
            return false;
        }
        if self.notes_shown.len() < 64 {
            self.notes_shown.push(note.to_owned());
        }
        true
    }

    pub(crate) fn note_written(&mut self, path: &str) {
        if self.written_files.len() < MAX_WRITTEN_FILES
            && !self.written_files.iter().any(|p| p == path)
        {
            self.written_files.push(path.to_owned());
        }
        self.mode_changed_files.retain(|p| p != path);
        // Whatever writes it now (a build or a plan records itself again after this).
        self.built.retain(|b| b.path != path);
        self.destroy_plans.retain(|p| p != path);
    }

    /// A write the policy could not place (interpreter code writing a computed path): any
    /// file may now hold anything, so no record that vouches for a file's content survives
    /// it — running a program the session built is write-then-execute again. Destroy plan
    /// records stay: they condemn a file's content rather than vouch for it.
    pub(crate) fn note_unplaced_write(&mut self) {
        self.built.clear();
    }

    /// Records that `path` now holds a plan, a destroy plan when `destroy` (see
    /// [`SessionState::destroy_plans`]); full, a new destroy plan replaces the oldest record
    /// (forgetting one loosens a later apply, so the newest plans are kept).
    pub(crate) fn note_plan(&mut self, path: &str, destroy: bool) {
        self.destroy_plans.retain(|p| p != path);
        if destroy {
            if self.destroy_plans.len() >= MAX_BUILT {
                self.destroy_plans.remove(0);
            }
            self.destroy_plans.push(path.to_owned());
        }
    }

    /// Whether `path` holds a destroy plan this session saved (see
    /// [`SessionState::destroy_plans`]).
    pub(crate) fn destroy_plan(&self, path: &str) -> bool {
        self.destroy_plans.iter().any(|p| p == path)
    }

    /// A permission or ownership change: recorded as a change of the session (commit scope,
    /// blast radius), but not as content unless the session wrote the content too.
    pub(crate) fn note_mode_changed(&mut self, path: &str) {
        if self.written_files.iter().any(|p| p == path) {
            return;
        }
        self.note_written(path);
        if self.written_files.iter().any(|p| p == path)
            && self.mode_changed_files.len() < MAX_WRITTEN_FILES
        {
            self.mode_changed_files.push(path.to_owned());
        }
    }

    /// The package run a program this session built stands for (see [`SessionState::built`]).
    pub(crate) fn built_run(&self, path: &str) -> Option<&[String]> {
        self.built
            .iter()
            .find(|b| b.path == path)
            .map(|b| b.run.as_slice())
    }

    /// Whether this session wrote the content of `path` (not only its permissions).
    pub(crate) fn wrote_content(&self, path: &str) -> bool {
        self.written_files.iter().any(|p| p == path)
            && !self.mode_changed_files.iter().any(|p| p == path)
    }

    /// The remembered secret files, as the shell analyzer takes them.
    pub(crate) fn secret_paths(&self) -> std::sync::Arc<[(PathBuf, hookgate_shell::FlowSource)]> {
        self.secret_files
            .iter()
            .map(|f| (PathBuf::from(&f.path), f.source.clone()))
            .collect()
    }

    /// Remembers that the session created `path` (see [`SessionState::created`]); `secretless`
    /// says its content carries no secret. Full: not remembered (no relaxation follows).
    pub(crate) fn note_created(&mut self, path: &str, secretless: bool) {
        if let Some(c) = self.created.iter_mut().find(|c| c.path == path) {
            c.secretless = secretless;
        } else if self.created.len() < MAX_CREATED {
            self.created.push(Created {
                path: path.to_owned(),
                secretless,
            });
        }
    }

    /// Remembers that `path` now holds secret data from `source` (the latest origin wins).
    pub(crate) fn note_secret(&mut self, path: &str, source: hookgate_shell::FlowSource) {
        self.secret_files.retain(|f| f.path != path);
        if self.secret_files.len() >= MAX_SECRET_FILES {
            self.secret_files.remove(0);
        }
        self.secret_files.push(SecretFile {
            path: path.to_owned(),
            source,
        });
    }
}
