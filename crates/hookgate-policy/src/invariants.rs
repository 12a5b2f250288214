//! Built-in invariants: checks that hold whatever the policy file says, each with a stable id,
//! a severity (1-5), a default effect and a switch.
//!
//! AgentGuard's 26 are the floor, adapted to parsed structure; hookgate adds its own (the
//! shell analyzer's verdict, history rewrites, discards, publishing, system and VCS files,
//! secrets in written content). Unlike AgentGuard's `no-secret-exposure` and
//! `lockfile-integrity`, which read a `modifiedFiles` list that nothing filled in hook mode,
//! every check here reads only what a hook process really has: the call, the [`Ctx`] the
//! caller built, and the [`SessionState`] it loaded (which [`crate::Policy::observe`] fills).

use std::cell::{OnceCell, RefCell};
use std::path::{Path, PathBuf};

use hookgate_core::{PathOp, ToolKind};
use hookgate_paths::{Access, Category, PathContext, SensitiveMatch, is_within};
use hookgate_shell::Action as ShellAction;

use crate::action::{
    ActionKind, Entry, EntryKind, Except, Facts, FindFilter, K, PathUse, Reach, commit_info,
    push_no_verify,
};
use crate::pattern::{args_after_globals, base_name, split_flags};
use crate::policy::{Effect, Settings, Switch};
use crate::{Ctx, SessionState};

/// What one invariant found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Violation {
    pub effect: Effect,
    pub reason: String,
    pub suggestion: Option<String>,
}

impl Violation {
    fn new(effect: Effect, reason: impl Into<String>) -> Self {
        Self {
            effect,
            reason: reason.into(),
            suggestion: None,
        }
    }

    fn suggest(mut self, s: impl Into<String>) -> Self {
        self.suggestion = Some(s.into());
        self
    }
}

type Check = fn(&Judge<'_>) -> Option<Violation>;

/// A built-in invariant.
#[derive(Debug)]
pub struct InvariantInfo {
    /// Stable id (used in policy files, audit records and `matched`).
    pub id: &'static str,
    /// 1 (informational) to 5 (critical).
    pub severity: u8,
    /// The strongest effect it can have (some checks ask for the milder cases).
    pub effect: Effect,
    /// Its switch when no policy file mentions it.
    pub default: Switch,
    /// Cannot be switched off or to monitor (the guard protecting itself).
    pub locked: bool,
    /// What it checks, in one sentence.
    pub description: &'static str,
    check: Check,
}

impl InvariantInfo {
    pub(crate) fn check(&self, judge: &Judge<'_>) -> Option<Violation> {
        (self.check)(judge)
    }
}

macro_rules! invariant {
    ($id:literal, $sev:literal, $effect:ident, $default:ident, $locked:literal, $check:ident, $desc:literal) => {
        InvariantInfo {
            id: $id,
            severity: $sev,
            effect: Effect::$effect,
            default: Switch::$default,
            locked: $locked,
            description: $desc,
            check: $check,
        }
    };
}

/// Every built-in invariant, in evaluation order.
pub static INVARIANTS: &[InvariantInfo] = &[
    // ---- AgentGuard's 26, adapted.
    invariant!(
        "no-secret-exposure",
        5,
        Deny,
        On,
        false,
        secret_exposure,
        "Reading credential files (file tools, shell readers, the analyzer's credential access and exfiltration); .env and histories ask."
    ),
    invariant!(
        "protected-branch",
        4,
        Deny,
        On,
        false,
        protected_branch,
        "Pushing to, force-pushing or deleting a protected branch (`protected_branches`, default main/master)."
    ),
    invariant!(
        "blast-radius-limit",
        3,
        Ask,
        On,
        false,
        blast_radius,
        "One call writing or deleting more than `blast_radius_limit` files."
    ),
    invariant!(
        "test-before-push",
        3,
        Ask,
        On,
        false,
        test_before_push,
        "Pushing to a protected branch when no passing test run was seen since the last write."
    ),
    invariant!(
        "no-force-push",
        4,
        Deny,
        On,
        false,
        force_push,
        "Force pushes (`--force`, `+refspec`, `--mirror`); `--force-with-lease` asks when it goes to a protected branch, a remote's default branch (`refs/remotes/<remote>/HEAD`) or a branch it cannot place (detached HEAD, `git -C`, after `cd`, a variable), and is ordinary otherwise: the lease refuses when the remote moved."
    ),
    invariant!(
        "no-skill-modification",
        4,
        Ask,
        On,
        false,
        skill_modification,
        "Writing agent skills (`.claude/skills/`, `.codex/skills/`, `.agents/skills/`)."
    ),
    invariant!(
        "no-scheduled-task-modification",
        5,
        Deny,
        On,
        false,
        scheduled_tasks,
        "Creating scheduled or boot-time jobs: cron, systemd, launchd, autostart, `.claude/scheduled-tasks/`."
    ),
    invariant!(
        "no-credential-file-creation",
        5,
        Deny,
        On,
        false,
        credential_file_creation,
        "Writing, moving or deleting credential files (keys, cloud and registry credentials); .env asks — except, in the workspace, a shell append (`>>`, `tee -a`; or a write where no file is yet) of text the line spells out, with no secret in it, that is `NAME=value` lines (any text for `.envrc`), and a template (`.env.example`, …) copied where no env file is."
    ),
    invariant!(
        "no-package-script-injection",
        4,
        Ask,
        On,
        false,
        package_script_injection,
        "Adding or changing npm lifecycle scripts (preinstall, postinstall, prepare, …) in package.json."
    ),
    invariant!(
        "recursive-operation-guard",
        2,
        Ask,
        Monitor,
        false,
        recursive_operation,
        "Writes fanned out by `find -exec`/`-delete`, `xargs` or `parallel`."
    ),
    invariant!(
        "large-file-write",
        3,
        Ask,
        On,
        false,
        large_write,
        "Writing more than `large_write_bytes` of content in one call."
    ),
    invariant!(
        "no-cicd-config-modification",
        5,
        Ask,
        On,
        false,
        cicd_config,
        "Writing CI/CD definitions (.github/workflows, .gitlab-ci.yml, Jenkinsfile, …)."
    ),
    invariant!(
        "no-permission-escalation",
        4,
        Deny,
        On,
        false,
        permission_escalation,
        "setuid/setgid and sudoers writes deny; world-writable chmod, chown (not to the running user inside the workspace), sudo/su and group changes ask."
    ),
    invariant!(
        "no-governance-self-modification",
        5,
        Deny,
        On,
        true,
        self_modification,
        "Writing, deleting, moving, chmod-ing, hard-linking or replacing the guard's files, store or binaries or any agent's hook settings (or a directory holding them, git whole-tree commands included), setting or unsetting HOOKGATE_* variables, relaunching an agent with its config moved or hooks off, approving an `.envrc` that would do any of this, NUL bytes, or uninstalling the hooks; writes it cannot place ask."
    ),
    invariant!(
        "lockfile-integrity",
        2,
        Ask,
        Monitor,
        false,
        lockfile_integrity,
        "Hand-editing lockfiles, or committing a package.json changed without a package install since."
    ),
    invariant!(
        "no-container-config-modification",
        3,
        Ask,
        On,
        false,
        container_config,
        "Writing Dockerfiles, Containerfiles, compose files or .dockerignore with text that gives the container the host (privileged, runtime sockets, host namespaces, capabilities, devices, relaxed security profiles, the host root), or with text the guard cannot see (a copy, a download); the same judgement for Write/Edit, shell text and `sed -i`."
    ),
    invariant!(
        "no-env-var-modification",
        3,
        Ask,
        On,
        false,
        env_var_modification,
        "Writing shell profiles or /etc/environment, or exporting secret-named or loader-hijacking variables."
    ),
    invariant!(
        "no-destructive-migration",
        3,
        Ask,
        On,
        false,
        destructive_migration,
        "Writing a database migration that drops or truncates tables, columns or databases."
    ),
    invariant!(
        "transitive-effect-analysis",
        4,
        Ask,
        On,
        false,
        transitive_effect,
        "Writing a script (shell file, package.json scripts, Makefile recipe, git hook, or a file a runner loads by convention: conftest.py, sitecustomize.py, .pth, Makefile.*, *.mk, justfile, Rakefile, tox.ini, tasks.py, *.config.js; file tool or shell write) whose parsed commands the analyzer would deny or ask, or that would modify the guard when run; running make, pytest, just, rake, nox, invoke or tox while the files they load hold such code; starting a nested agent session (`claude -p`, `codex exec`, `npx @google/gemini-cli`), whose calls run as a new session. A `.envrc` is not judged when written (direnv runs nothing until it is approved) but when `direnv allow`/`exec`/`export` approves or loads it: the file as it will be, run in its directory, with `PATH_add DIR`/`path_add VAR DIR` read as the prepend it is; what the analyzer would deny there is denied. An `.envrc` whose code would change the guard still asks when written (and approving it is denied by `no-governance-self-modification`)."
    ),
    invariant!(
        "no-network-egress",
        4,
        Deny,
        On,
        false,
        network_egress,
        "Fetching from a host not on `network_allowlist` (inactive while the list is unset; an undeterminable host asks)."
    ),
    invariant!(
        "no-ide-socket-access",
        4,
        Deny,
        On,
        false,
        ide_socket,
        "Touching IDE IPC sockets (vscode-ipc-*, cursor-ipc-*, jetbrains_*), which can run commands in the editor."
    ),
    invariant!(
        "commit-scope-guard",
        4,
        Ask,
        Monitor,
        false,
        commit_scope,
        "Committing files this session did not write (explicit paths, or the staged files the caller looked up)."
    ),
    invariant!(
        "script-execution-tracking",
        4,
        Ask,
        On,
        false,
        script_execution,
        "Running a file written in this session (or earlier in the same command line): write-then-execute. A script written by an earlier call is judged by its content on disk — shell, and Python, JavaScript, Ruby, Perl or PHP read by their interpreter grammars as the one-liner of their text (benign: no objection; dangerous: asked with its own reason; a target known only at run time or another language: asked)."
    ),
    invariant!(
        "no-self-approve-pr",
        5,
        Deny,
        On,
        false,
        self_approve_pr,
        "Merging or approving a pull request this session opened."
    ),
    invariant!(
        "no-verify-bypass",
        4,
        Deny,
        On,
        false,
        verify_bypass,
        "Skipping git hooks: `--no-verify`, `commit -n`, `-c core.hooksPath=…`."
    ),
    invariant!(
        "cross-repo-blast-radius",
        4,
        Ask,
        On,
        false,
        session_blast_radius,
        "The session having written more than `session_blast_radius` distinct files."
    ),
    // ---- hookgate's own.
    invariant!(
        "destructive-shell",
        5,
        Deny,
        On,
        false,
        destructive_shell,
        "The shell analyzer's verdict: disk destruction, deleting outside the workspace, download-to-shell, dropping databases and infrastructure deny; unresolvable lines ask."
    ),
    invariant!(
        "no-history-rewrite",
        4,
        Deny,
        On,
        false,
        history_rewrite,
        "Irreversible history rewrites: filter-branch/filter-repo, reflog expire/delete, update-ref -d, gc --prune, replace."
    ),
    invariant!(
        "no-git-discard",
        4,
        Ask,
        On,
        false,
        git_discard,
        "Throwing away uncommitted work: reset --hard, clean -f, checkout/restore of paths, stash drop/clear."
    ),
    invariant!(
        "no-remote-branch-delete",
        4,
        Deny,
        On,
        false,
        remote_branch_delete,
        "Deleting a remote branch (`push --delete`, `push origin :branch`)."
    ),
    invariant!(
        "no-package-publish",
        4,
        Ask,
        On,
        false,
        package_publish,
        "Publishing packages, images or releases."
    ),
    invariant!(
        "no-hardcoded-secrets",
        5,
        Deny,
        On,
        false,
        hardcoded_secrets,
        "Secrets (by the secret scanner) in written content or in a shell line that writes a file."
    ),
    invariant!(
        "no-delete-outside-workspace",
        4,
        Deny,
        On,
        false,
        delete_outside_workspace,
        "File tools (patch deletes/moves, git rm) deleting outside the workspace and temp dirs, the workspace root or .git."
    ),
    invariant!(
        "no-system-file-write",
        5,
        Deny,
        On,
        false,
        system_file_write,
        "Writing system binaries, /etc, devices, /proc or /sys; a program put in a user bin dir on PATH (`~/.local/bin`) under the name of a program installed elsewhere, of hookgate or of an agent CLI denies, one whose name the line does not show asks, a new name is no objection."
    ),
    invariant!(
        "no-vcs-config-modification",
        4,
        Ask,
        On,
        false,
        vcs_config,
        "Writing git hooks or config (.git/hooks, core.hooksPath, husky, pre-commit) or build-tool config that swaps the toolchain."
    ),
    invariant!(
        "no-write-outside-workspace",
        3,
        Ask,
        On,
        false,
        write_outside_workspace,
        "File tools writing outside the workspace and temp dirs."
    ),
];

/// The invariant with this id.
pub(crate) fn find(id: &str) -> Option<&'static InvariantInfo> {
    INVARIANTS.iter().find(|i| i.id == id)
}

/// What every check reads. Catalog classification is computed once, on first use, so a call
/// without paths (most shell lines) never loads the sensitive-path catalog.
pub(crate) struct Judge<'a> {
    pub facts: &'a Facts<'a>,
    pub ctx: &'a Ctx,
    pub state: &'a SessionState,
    pub settings: &'a Settings,
    writes: OnceCell<Vec<PathBuf>>,
    reads: OnceCell<Vec<PathBuf>>,
    write_matches: OnceCell<Vec<SensitiveMatch>>,
    read_matches: OnceCell<Vec<SensitiveMatch>>,
    /// Physical forms (symlinks followed) of the paths classified so far that differ from
    /// their lexical form, so containment checks reuse the walk the catalog check made.
    physical: RefCell<Vec<(PathBuf, PathBuf)>>,
    /// The protected set, looked up once when a call is seen to touch something.
    protected: OnceCell<Vec<PathBuf>>,
    /// What the session created and this line creates (see the `provenance` module),
    /// computed on first use.
    provenance: OnceCell<crate::provenance::Provenance>,
    /// The line's git commands that replace work-tree files with a commit's version (see the
    /// `treemove` module), computed on first use.
    tree_moves: OnceCell<Vec<crate::treemove::Query>>,
    /// The line's git discards as questions (see [`crate::treemove::discards`]).
    discards: OnceCell<Vec<(usize, crate::treemove::TreeMove)>>,
}

impl<'a> Judge<'a> {
    pub(crate) fn new(
        facts: &'a Facts<'a>,
        ctx: &'a Ctx,
        state: &'a SessionState,
        settings: &'a Settings,
    ) -> Self {
        Self {
            facts,
            ctx,
            state,
            settings,
            writes: OnceCell::new(),
            reads: OnceCell::new(),
            write_matches: OnceCell::new(),
            read_matches: OnceCell::new(),
            physical: RefCell::new(Vec::new()),
            protected: OnceCell::new(),
            provenance: OnceCell::new(),
            tree_moves: OnceCell::new(),
            discards: OnceCell::new(),
        }
    }

    /// The line's git discards with the answers the context holds (see
    /// [`crate::treemove::discards`]).
    pub(crate) fn discards(&self) -> &[(usize, crate::treemove::TreeMove)] {
        self.discards.get_or_init(|| {
            crate::treemove::discards(self.facts, self.ctx, || self.protected().to_vec())
        })
    }

    /// The commands (indices into the analysis) whose every discard question is answered
    /// without a protected file: their work-tree touches are not touches of the protected
    /// set.
    fn discards_clear_of_protected(&self) -> Vec<usize> {
        let d = self.discards();
        let mut out: Vec<usize> = Vec::new();
        for (c, _) in d {
            if out.contains(c) {
                continue;
            }
            let clear = d.iter().filter(|(o, _)| o == c).all(|(_, mv)| {
                matches!(&mv.answer, Some(crate::treemove::TreeAnswer::Paths { paths })
                    if !paths.iter().any(|p| is_protected_path(self, p)))
            });
            if clear {
                out.push(*c);
            }
        }
        out
    }

    /// The line's tree-moving git commands with the answers the context holds (see the
    /// `treemove` module); the protected set is looked up only when there is one.
    pub(crate) fn tree_moves(&self) -> &[crate::treemove::Query] {
        self.tree_moves.get_or_init(|| {
            crate::treemove::queries(self.facts, self.ctx, || self.protected().to_vec())
        })
    }

    /// The call's session provenance (see the `provenance` module).
    pub(crate) fn provenance(&self) -> &crate::provenance::Provenance {
        self.provenance
            .get_or_init(|| crate::provenance::compute(self))
    }

    /// Whether `p` is a secretless file of the session's own (see the `provenance` module).
    /// Or a committed configuration env file it reads (`dotenv::committed_query`).
    fn session_own(&self, p: &Path) -> bool {
        let prov = self.provenance();
        prov.benign.iter().chain(&prov.committed).any(|b| b == p)
    }

    /// The protected set: [`Ctx::protected_set`] (normalised), and every hookgate binary the
    /// hook configs in the agents' settings directories ([`Ctx::protected_if_present`]) run
    /// (see [`hook_binaries`]). Looked up on first use only: a call that touches nothing
    /// reads no agent config.
    fn protected(&self) -> &[PathBuf] {
        self.protected.get_or_init(|| {
            let mut out: Vec<PathBuf> = Vec::new();
            for p in self.ctx.protected_set() {
                let p = hookgate_paths::normalize(&p.to_string_lossy(), Path::new("/"), None).path;
                if !out.contains(&p) {
                    out.push(p);
                }
            }
            // The agents' settings directories that exist (`Ctx::protected_if_present`).
            let dirs: Vec<PathBuf> = self
                .ctx
                .protected_if_present
                .iter()
                .filter(|p| p.is_dir())
                .cloned()
                .collect();
            for dir in dirs {
                for bin in hook_binaries(&dir, self.ctx) {
                    if !out.contains(&bin) {
                        out.push(bin);
                    }
                }
            }
            for file in hook_command_files(self.ctx) {
                if !out.contains(&file) {
                    out.push(file);
                }
            }
            out
        })
    }

    pub(crate) fn writes(&self) -> &[PathBuf] {
        self.writes.get_or_init(|| self.facts.written_paths())
    }

    fn reads(&self) -> &[PathBuf] {
        self.reads.get_or_init(|| self.facts.read_paths())
    }

    pub(crate) fn path_ctx(&self) -> PathContext {
        PathContext {
            cwd: self.facts.cwd.clone(),
            workspace: Some(self.ctx.workspace.clone()),
            home: self.ctx.home.clone(),
        }
    }

    fn classify(&self, paths: &[PathBuf], access: Access) -> Vec<SensitiveMatch> {
        let pctx = self.path_ctx();
        let mut out: Vec<SensitiveMatch> = Vec::new();
        for p in paths {
            let lexical = hookgate_paths::classify(p, &pctx);
            let found = if self.ctx.follow_symlinks {
                // A resolution error (loop, unreadable dir) keeps the lexical answer.
                hookgate_paths::classify_resolved_with_path(&p.to_string_lossy(), &pctx)
                    .map(|(resolved, mut r)| {
                        if resolved.physical != *p {
                            self.physical
                                .borrow_mut()
                                .push((p.clone(), resolved.physical));
                        }
                        for m in &lexical {
                            if !r.iter().any(|x| x.id == m.id) {
                                r.push(m.clone());
                            }
                        }
                        r
                    })
                    .unwrap_or(lexical)
            } else {
                lexical
            };
            out.extend(found.into_iter().filter(|m| m.access.covers(access)));
            // A pattern the shell expands (`cat .env*`, `head config/*.key`) reads every
            // entry it matches: the user's `.env` among them is read as if named.
            if access == Access::Read && self.ctx.follow_symlinks {
                for entry in glob_entries(p, line_enables_dotglob(self)) {
                    for m in hookgate_paths::classify(&entry, &pctx) {
                        if m.access.covers(access) && !out.iter().any(|x| x.path == m.path) {
                            out.push(m);
                        }
                    }
                }
            }
            // Extracting or copying a tree into a directory outside the workspace (`unzip x.zip
            // -d ~/.ssh`, `tar -xf x.tar -C ~`, `rsync -a x/ ~/.aws/`) writes whatever the
            // tree holds below it: every sensitive entry that can lie there is written. Not for
            // deletes (judged by the analyzer and the protected set) nor inside the workspace
            // or scratch space (ordinary extraction).
            // The home itself or a directory above it is judged by the protected set it
            // holds (agent settings, the guard's store): a whole-tree write there is denied
            // as such already.
            if access == Access::Write
                && self.written_as_tree(p)
                && !is_within(p, &self.ctx.workspace)
                && !self.in_temp(p)
                && !self.ctx.home.as_deref().is_some_and(|h| is_within(h, p))
            {
                for m in hookgate_paths::classify_subtree(p, &pctx) {
                    if m.access.covers(access) && !out.iter().any(|x| x.id == m.id) {
                        out.push(m);
                    }
                }
            }
            // `/home/*/.aws/credentials` (from `/home/$USER/…`): the user's own file it can be.
            if let Some(own) = self
                .ctx
                .home
                .as_deref()
                .and_then(|h| hookgate_paths::home_instance(p, h))
            {
                for m in hookgate_paths::classify(&own, &pctx) {
                    if m.access.covers(access) && !out.iter().any(|x| x.id == m.id) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// Whether some command writes a whole tree into `p` (an extraction, a recursive copy
    /// or sync into it), as opposed to one file there or a delete.
    fn written_as_tree(&self, p: &Path) -> bool {
        self.facts.items.iter().any(|i| {
            i.paths.iter().any(|u| {
                u.op == PathOp::Write && u.reach == crate::action::Reach::Tree && u.path == p
            })
        })
    }

    fn write_matches(&self) -> &[SensitiveMatch] {
        self.write_matches
            .get_or_init(|| self.classify(self.writes(), Access::Write))
    }

    pub(crate) fn read_matches(&self) -> &[SensitiveMatch] {
        self.read_matches
            .get_or_init(|| self.classify(self.reads(), Access::Read))
    }

    /// Executed commands of a shell call, with the index of their action.
    /// The executed commands with their action index. Invariant: every argv yielded has a
    /// program word, so callers may take `argv[1..]` without a bounds check panicking.
    fn commands(&self) -> impl Iterator<Item = (usize, &[String])> {
        (0..self.facts.actions.len())
            .filter_map(|i| self.facts.argv(i).filter(|a| !a.is_empty()).map(|a| (i, a)))
    }

    fn kinds(&self, kind: ActionKind) -> impl Iterator<Item = usize> + '_ {
        self.facts
            .actions
            .iter()
            .enumerate()
            .filter(move |(_, a)| a.kind == kind)
            .map(|(i, _)| i)
    }

    /// Scratch space: under a temp dir, but neither the home directory (CI containers often
    /// put HOME under `/tmp`), nor the workspace root, nor anything the sensitive catalog
    /// covers. Invariant: a sensitive location beats the scratch rule, so `rm -rf $HOME/.ssh`
    /// is never "temp work" because of where HOME happens to live.
    fn in_temp(&self, p: &Path) -> bool {
        self.ctx.temp_dirs.iter().any(|t| is_within(p, t))
            && !self
                .ctx
                .home
                .as_deref()
                .is_some_and(|h| is_within(p, h) || is_within(h, p))
            && !is_within(&self.ctx.workspace, p)
            && hookgate_paths::classify_subtree(p, &self.path_ctx()).is_empty()
    }

    fn is_written_in_session(&self, p: &Path) -> bool {
        let s = p.to_string_lossy();
        self.state.written_files.iter().any(|w| *w == s) || self.writes().iter().any(|w| w == p)
    }

    /// Whether this session (an earlier call, or this very line) wrote the *content* of `p`:
    /// a permission change alone (`chmod u+x`) leaves the content someone else's.
    fn content_written_in_session(&self, p: &Path) -> bool {
        self.state.wrote_content(&p.to_string_lossy()) || self.content_written_on_line(p)
    }

    /// Whether a command of this call writes the content of `p` (not only its permissions).
    fn content_written_on_line(&self, p: &Path) -> bool {
        self.facts.items.iter().enumerate().any(|(i, item)| {
            item.paths
                .iter()
                .filter(|u| u.op != PathOp::Read && !u.metadata)
                .any(|u| self.facts.candidates(i, u).iter().any(|c| c == p))
        })
    }
}

/// The existing paths a shell pattern `p` expands to (`.env*` → `.env`, `.env.test`;
/// `~/.ss*/id*` → `~/.ssh/id_rsa`), by the shell's matching rules
/// ([`hookgate_paths::ShellPattern`]: a leading dot matched only by a pattern that spells
/// it, unless the line turned `dotglob` on). Empty for a literal path; past
/// [`MAX_GLOB_ENTRIES`] directory entries read, or for a `**` pattern, empty too (the
/// lexical reading of the pattern stands).
fn glob_entries(p: &Path, dotglob: bool) -> Vec<PathBuf> {
    if !hookgate_paths::has_wildcard(&p.to_string_lossy()) {
        return Vec::new();
    }
    hookgate_paths::ShellPattern::new(p)
        .and_then(|pattern| pattern.dotglob(dotglob).expansions(MAX_GLOB_ENTRIES))
        .unwrap_or_default()
        .into_iter()
        .filter(|e| std::fs::symlink_metadata(e).is_ok())
        .collect()
}

fn first_match<'m>(
    matches: &'m [SensitiveMatch],
    categories: &[Category],
) -> Option<&'m SensitiveMatch> {
    matches.iter().find(|m| categories.contains(&m.category))
}

fn describe_match(m: &SensitiveMatch) -> String {
    format!("{} ({}: {})", m.path.display(), m.id, m.reason)
}

fn program(argv: &[String]) -> &str {
    argv.first().map_or("", |p| base_name(p))
}

fn git_sub(argv: &[String]) -> Option<(&str, &[String])> {
    if program(argv) != "git" {
        return None;
    }
    let after = args_after_globals(argv);
    after.split_first().map(|(s, r)| (s.as_str(), r))
}

fn file_name(p: &Path) -> &str {
    p.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

fn components(p: &Path) -> Vec<&str> {
    p.components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect()
}

fn has_component_pair(p: &Path, first: &[&str], second: &str) -> bool {
    components(p)
        .windows(2)
        .any(|w| first.contains(&w[0]) && w[1] == second)
}

// ------------------------------------------------------------------------------------------
// AgentGuard's 26.

pub(crate) const CREDENTIALS: &[Category] = &[
    Category::PrivateKey,
    Category::SshConfig,
    Category::CloudCredentials,
    Category::ContainerCredentials,
    Category::PackageRegistryCredentials,
    Category::CredentialStore,
    Category::EnvFile,
    Category::ShellHistory,
];

fn secret_exposure(j: &Judge<'_>) -> Option<Violation> {
    // A secretless file the session made itself (`cp .env.example .env.test`) holds nothing
    // of the user's (see the `provenance` module); every other match keeps the question.
    // A printer whose output goes to `/dev/null` shows no one what it read.
    let shown;
    let read = if j.facts.any_output_discarded() {
        shown = j.classify(&j.facts.shown_read_paths(), Access::Read);
        &shown
    } else {
        j.read_matches()
    };
    let matches: Vec<SensitiveMatch> = read
        .iter()
        .filter(|m| !j.session_own(&m.path))
        .filter(|m| {
            m.category != Category::EnvFile
                || !crate::dotenv::only_sourced(
                    j.facts,
                    &m.path,
                    &j.ctx.workspace,
                    j.ctx.follow_symlinks,
                )
        })
        .cloned()
        .collect();
    if let Some(m) = first_match(&matches, CREDENTIALS) {
        let effect = if matches!(m.category, Category::EnvFile | Category::ShellHistory) {
            Effect::Ask
        } else {
            Effect::Deny
        };
        return Some(
            Violation::new(
                effect,
                format!("reads a credential file: {}", describe_match(m)),
            )
            .suggest("use a secret manager or ask the user for the value you need"),
        );
    }
    let analysis = j.facts.analysis.as_ref()?;
    let own_reads = &j.provenance().reads_set_aside;
    let c = analysis.commands.iter().enumerate().find_map(|(k, c)| {
        (matches!(
            c.verdict.category.as_deref(),
            Some("credential_access" | "exfiltration")
        ) && !own_reads.contains(&k))
        .then_some(c)
    })?;
    let effect = match c.verdict.action() {
        ShellAction::Deny => Effect::Deny,
        _ => Effect::Ask,
    };
    Some(Violation::new(
        effect,
        format!("`{}`: {}", c.argv.join(" "), c.verdict.reason),
    ))
}

pub(crate) fn branch_matches(pattern: &str, branch: &str) -> bool {
    if pattern == branch {
        return true;
    }
    match pattern.split_once('*') {
        Some((pre, post)) => {
            branch.len() >= pre.len() + post.len()
                && branch.starts_with(pre)
                && branch.ends_with(post)
        }
        None => false,
    }
}

pub(crate) fn is_protected(settings: &Settings, branch: &str) -> bool {
    branch == "*"
        || settings
            .protected_branches
            .iter()
            .any(|p| branch_matches(p, branch))
}

fn protected_branch(j: &Judge<'_>) -> Option<Violation> {
    for (i, action) in j.facts.actions.iter().enumerate() {
        if !matches!(
            action.kind,
            ActionKind::GitPush | ActionKind::GitForcePush | ActionKind::GitBranchDelete
        ) {
            continue;
        }
        let item = &j.facts.items[i];
        // Local `git branch -D main` deletes only a local ref; remote deletes come from push.
        if action.kind == ActionKind::GitBranchDelete
            && j.facts
                .argv(i)
                .and_then(git_sub)
                .is_some_and(|(s, _)| s == "branch")
        {
            continue;
        }
        if let Some(b) = item.branches.iter().find(|b| is_protected(j.settings, b)) {
            let what = if b == "*" {
                "every branch".to_owned()
            } else {
                format!("protected branch `{b}`")
            };
            return Some(
                Violation::new(Effect::Deny, format!("{} to {what}", action.kind))
                    .suggest("push a feature branch and open a pull request"),
            );
        }
    }
    None
}

/// More files changed in one call than the limit. What cannot lose anything inside the
/// workspace is not counted: a new file (`touch build/file{a..z}`, `cp t.txt
/// out/{a..z}.txt` where nothing is yet — a file-system fact, so only with
/// [`Ctx::follow_symlinks`]) and a change of timestamps or mode only (`touch`, `chmod`).
/// Deletions, moves and overwrites of existing files count, wherever they are; writes
/// outside the workspace count too (other invariants judge where they land). The check
/// is made only once the plain count is over the limit.
fn blast_radius(j: &Judge<'_>) -> Option<Violation> {
    let limit = j.settings.blast_radius_limit;
    if j.writes().len() <= limit {
        return None;
    }
    let harmless = |p: &PathUse| {
        p.op == PathOp::Write
            && p.reach == Reach::Exact
            && is_within(&p.path, &j.ctx.workspace)
            && (p.metadata
                || (j.ctx.follow_symlinks
                    && std::fs::symlink_metadata(&p.path)
                        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)))
    };
    let mut counted: Vec<PathBuf> = Vec::new();
    for (_, p) in j.facts.touched() {
        if !harmless(&p) && !counted.contains(&p.path) {
            counted.push(p.path);
        }
    }
    let n = counted.len();
    (n > limit).then(|| {
        Violation::new(
            Effect::Ask,
            format!(
                "touches {n} files in one call (limit {})",
                j.settings.blast_radius_limit
            ),
        )
        .suggest("split the change into smaller steps")
    })
}

fn test_before_push(j: &Judge<'_>) -> Option<Violation> {
    if j.state.tests_pass == Some(true) {
        return None;
    }
    j.kinds(ActionKind::GitPush).find_map(|i| {
        let b = j.facts.items[i]
            .branches
            .iter()
            .find(|b| is_protected(j.settings, b))?;
        Some(
            Violation::new(
                Effect::Ask,
                format!("push to protected branch `{b}` without a passing test run since the last change"),
            )
            .suggest("run the test suite first"),
        )
    })
}

fn force_push(j: &Judge<'_>) -> Option<Violation> {
    // A lease-checked push to a branch nobody else starts from loses nothing the pusher has
    // not seen (see the `lease` module); a lease to anything else still asks, and so does
    // one while the remotes' default branches are not known yet (the evaluation asks for them).
    let (ordinary, _) = crate::lease::lease_pushes(j.facts, j.ctx, j.settings);
    j.kinds(ActionKind::GitForcePush)
        .find(|&i| {
            j.facts.items[i]
                .command
                .is_none_or(|c| !ordinary.contains(&c))
        })
        .map(|i| {
            let lease = j
                .facts
                .argv(i)
                .is_some_and(|a| a.iter().any(|w| w.starts_with("--force-with-lease")));
            let effect = if lease { Effect::Ask } else { Effect::Deny };
            Violation::new(
                effect,
                format!(
                    "force push rewrites remote history ({})",
                    j.facts.actions[i].targets.join(", ")
                ),
            )
            .suggest("push a new branch, or use --force-with-lease after the user agrees")
        })
}

fn skill_modification(j: &Judge<'_>) -> Option<Violation> {
    let p = j
        .writes()
        .iter()
        .find(|p| has_component_pair(p, &[".claude", ".codex", ".agents", ".gemini"], "skills"))?;
    Some(Violation::new(
        Effect::Ask,
        format!("modifies an agent skill: {}", p.display()),
    ))
}

fn scheduled_tasks(j: &Judge<'_>) -> Option<Violation> {
    if let Some(p) = j
        .writes()
        .iter()
        .find(|p| has_component_pair(p, &[".claude"], "scheduled-tasks"))
    {
        return Some(Violation::new(
            Effect::Deny,
            format!("modifies a scheduled task: {}", p.display()),
        ));
    }
    if let Some(m) = first_match(j.write_matches(), &[Category::Persistence]) {
        return Some(Violation::new(
            Effect::Deny,
            format!("creates a persistent job: {}", describe_match(m)),
        ));
    }
    for (_, argv) in j.commands() {
        let args = &argv[1..];
        let flags = split_flags(args);
        let first = flags.positionals.first().map(String::as_str);
        let hit = match program(argv) {
            // Reading or removing one's own jobs schedules nothing: `crontab -l`, `at -l`
            // (= `atq`), `at -c N` (prints a job), `at -r`/`-d N` (= `atrm`). `crontab -r`
            // loses every job without a copy and keeps the deny.
            "crontab" => {
                let reads = flags.short.contains(&'l')
                    && !flags.short.contains(&'r')
                    && !flags.short.contains(&'e');
                // `-u USER` leaves its value among the positionals.
                !reads || flags.positionals.len() > usize::from(flags.short.contains(&'u'))
            }
            // at keeps the last mode option it reads: `-b` (batch) anywhere may schedule.
            "at" | "batch" => {
                flags.short.contains(&'b')
                    || !['l', 'c', 'r', 'd'].iter().any(|f| flags.short.contains(f))
            }
            "systemctl" => matches!(first, Some("enable" | "link" | "edit")),
            "launchctl" => matches!(first, Some("load" | "bootstrap" | "submit" | "enable")),
            "schtasks" => args.iter().any(|a| a.eq_ignore_ascii_case("/create")),
            _ => false,
        };
        if hit {
            return Some(Violation::new(
                Effect::Deny,
                format!("schedules a job: `{}`", argv.join(" ")),
            ));
        }
    }
    None
}

/// The parsed shell commands that write `path` in this call. `None` when something else
/// writes it too (a file tool, a command the analysis could not place), so callers that excuse
/// a kind of write never excuse a write they did not see.
fn shell_writers<'j>(j: &'j Judge<'_>, path: &Path) -> Option<Vec<&'j [String]>> {
    let mut out = Vec::new();
    for (i, item) in j.facts.items.iter().enumerate() {
        if item
            .paths
            .iter()
            .any(|p| p.op != PathOp::Read && p.path == path)
        {
            out.push(j.facts.argv(i)?);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Operands of a command: its arguments that are not options.
fn operands(argv: &[String]) -> Vec<&str> {
    argv.iter()
        .skip(1)
        .map(String::as_str)
        .filter(|a| !(a.starts_with('-') && a.len() > 1))
        .collect()
}

/// `chmod MODE …` whose mode only takes access away (`600`, `go-rwx`): tightening a
/// credential's permissions protects it, it does not create or replace it.
fn tightens_permissions(argv: &[String]) -> bool {
    program(argv) == "chmod"
        && operands(argv)
            .first()
            .is_some_and(|mode| hookgate_shell::chmod_tightens(mode))
}

/// `cp -n .env.example .env`: a copy that cannot overwrite (no-clobber) whose sources are the
/// project's documented env templates creates the env file from documentation; nothing
/// secret is read, and an existing `.env` is left alone.
fn env_from_template(argv: &[String]) -> bool {
    let no_clobber = argv.iter().skip(1).any(|a| {
        a == "--no-clobber"
            || a == "--update=none"
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('n'))
    });
    no_clobber && copies_env_template(argv)
}

/// A `cp` whose sources are all documented env templates (`.env.example`, `.env.sample`, …).
fn copies_env_template(argv: &[String]) -> bool {
    let ops = operands(argv);
    let sources = ops.get(..ops.len().saturating_sub(1)).unwrap_or(&[]);
    program(argv) == "cp"
        && !sources.is_empty()
        && sources.iter().all(|s| {
            let name = Path::new(s)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            name.contains("env")
                && ["example", "sample", "template", "dist", "defaults"]
                    .iter()
                    .any(|t| name.contains(t))
        })
}

fn credential_file_creation(j: &Judge<'_>) -> Option<Violation> {
    // A template copied where no env file is yet overwrites nothing: the same as `cp -n`
    // (a file-system fact; an existing file, a dangling link or an error keeps the question).
    let absent = |p: &Path| {
        j.ctx.follow_symlinks
            && std::fs::symlink_metadata(p).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    };
    // Appending (or creating) a setting the line spells out is configuration (`dotenv`).
    let excused = |m: &SensitiveMatch| {
        crate::dotenv::writers(j.facts, &m.path).is_some_and(|writers| {
            writers.iter().all(|c| {
                let argv = c.argv.as_slice();
                tightens_permissions(argv)
                    || (m.category == Category::EnvFile
                        && (env_from_template(argv)
                            || (copies_env_template(argv) && absent(&m.path))
                            || crate::dotenv::adds_configuration(
                                j.facts,
                                c,
                                &m.path,
                                &j.ctx.workspace,
                                absent(&m.path),
                            )))
            })
        })
    };
    // A key file made where no file is yet, inside the workspace (`openssl genrsa -out
    // ca.key` for a test CA), replaces no credential and exposes none: the key is new and the
    // agent could write the same bytes to any project file. An existing file, a link (even
    // dangling), a path outside the workspace and every other credential category keep the
    // deny that protects the user's keys (`no-credential-file-creation`).
    // The same in scratch space (`openssl req -x509 -newkey … -keyout /tmp/dev.key` for a
    // local TLS test): a temp dir that does not hold the workspace (there, a sibling may be
    // another project), but not the home (CI often keeps HOME under `/tmp`) nor a link the
    // line makes there.
    let new_workspace_key = |m: &SensitiveMatch| {
        let scratch_key = j
            .ctx
            .temp_dirs
            .iter()
            .any(|t| is_within(&m.path, t) && !is_within(&j.ctx.workspace, t))
            && !j
                .ctx
                .home
                .as_deref()
                .is_some_and(|h| is_within(&m.path, h) || is_within(h, &m.path))
            && !j.facts.links.iter().any(|(_, link, _)| *link == m.path);
        m.category == Category::PrivateKey
            && (is_within(&m.path, &j.ctx.workspace) || scratch_key)
            && absent(&m.path)
    };
    // A shared temp dir holds login-session credentials only under their own names
    // (`/tmp/krb5cc_*`, `/tmp/ssh-*/agent.*`): an archive extracted into it whose members
    // could not be listed (`curl -sL URL/tool.tgz | tar xz -C /tmp`, the way release binaries
    // are installed) would have to be made to name one, and replacing a ticket cache or a
    // socket with a file yields nothing. Not excused: the guard's own files there
    // (`no-governance-self-modification`), and every other credential category, which a
    // directory holds whatever its members are named (`~/.ssh`, `~/.aws`).
    let scratch = |m: &SensitiveMatch| j.ctx.temp_dirs.iter().any(|t| is_within(&m.path, t));
    // A file the session creates here or made earlier without secret data (see the
    // `provenance` module): `install -m 600 .env.example .env.ci`, `cat .env.sample >
    // .env`, `envsubst < tpl > .env.local`, a Write of placeholders, an edit of such a file.
    let session_made = |m: &SensitiveMatch| {
        let prov = j.provenance();
        prov.creations.contains(&m.path) || prov.benign.contains(&m.path)
    };
    let session_cache_in_temp = |m: &SensitiveMatch| {
        m.category == Category::CredentialStore && scratch(m) && unlisted_archive_subtree(j, m)
    };
    // A file tool making a new `.envrc` in the workspace (`layout python3`, `PATH_add bin`):
    // it is code direnv runs, not a secret store, and replaces nothing. Its text is judged as
    // the code it is — the same reading `direnv allow` gets (a prefix whitelisted in
    // direnv.toml loads it without one) — and must hold no secret. An existing `.envrc`
    // (the user's exports may be in it) and a shell write keep their own judgement.
    let new_envrc = |m: &SensitiveMatch| {
        m.path.file_name().is_some_and(|n| n == ".envrc")
            && is_within(&m.path, &j.ctx.workspace)
            && absent(&m.path)
            && j.facts.tool.is_some_and(|t| {
                matches!(t.kind, ToolKind::Write | ToolKind::Edit)
                    && t.content.as_deref().is_some_and(|text| {
                        hookgate_secrets::scan(text).is_empty()
                            && crate::dotenv::envrc_danger(
                                text,
                                &j.ctx.shell_context(crate::dotenv::envrc_dir(&m.path)),
                            )
                            .is_none()
                    })
            })
    };
    let m = j
        .write_matches()
        .iter()
        .filter(|m| CREDENTIALS.contains(&m.category))
        .find(|m| {
            !excused(m)
                && !new_workspace_key(m)
                && !session_cache_in_temp(m)
                && !session_made(m)
                && !new_envrc(m)
        })?;
    let scratch = scratch(m);
    let effect = if m.category == Category::EnvFile || (scratch && unlisted_archive_subtree(j, m)) {
        Effect::Ask
    } else {
        Effect::Deny
    };
    Some(Violation::new(
        effect,
        format!("writes a credential file: {}", describe_match(m)),
    ))
}

/// `m` was found below a directory, not on it (`/tmp` holds login-session credentials and
/// the guard's fallback audit directory), and every whole-tree write of that directory is
/// an extraction of an archive whose members could not be listed
/// ([`PathUse::archive_unlisted`]: `curl -o /tmp/x.tgz URL && tar -xzf /tmp/x.tgz -C /tmp`).
/// Such an archive writes *some* paths below the directory, perhaps that one: asked, not
/// denied. Invariant: `no-governance-self-modification` and credential creation keep the
/// deny for the directory itself and for any member name the guard can see.
fn unlisted_archive_subtree(j: &Judge<'_>, m: &SensitiveMatch) -> bool {
    let mut writers = j
        .facts
        .items
        .iter()
        .flat_map(|i| &i.paths)
        .filter(|u| u.op == PathOp::Write && u.reach == Reach::Tree && u.path == m.path)
        .peekable();
    writers.peek().is_some()
        && writers.all(|u| u.archive_unlisted)
        && !hookgate_paths::classify(&m.path, &j.path_ctx())
            .iter()
            .any(|x| x.id == m.id)
}

const LIFECYCLE: &[&str] = &[
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "prepublish",
    "prepublishOnly",
    "prepack",
    "postpack",
    "preuninstall",
    "uninstall",
    "postuninstall",
    "dependencies",
];

/// `(name, command)` pairs of lifecycle scripts in package.json text: the JSON `scripts`
/// object when the text parses, else `"name": "value"` pairs (an Edit fragment).
fn lifecycle_scripts(text: &str) -> Vec<(String, String)> {
    if let Ok(serde_json::Value::Object(doc)) = serde_json::from_str::<serde_json::Value>(text) {
        return doc
            .get("scripts")
            .and_then(|s| s.as_object())
            .map(|scripts| {
                scripts
                    .iter()
                    .filter(|(k, _)| LIFECYCLE.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                    .collect()
            })
            .unwrap_or_default();
    }
    let mut out = Vec::new();
    for name in LIFECYCLE {
        let key = format!("\"{name}\"");
        let mut rest = text;
        while let Some(at) = rest.find(&key) {
            let after = rest[at + key.len()..].trim_start();
            if let Some(value) = after.strip_prefix(':') {
                let value = value.trim_start();
                if let Some(v) = value.strip_prefix('"') {
                    let end = v.find('"').unwrap_or(v.len());
                    out.push(((*name).to_owned(), v[..end].to_owned()));
                }
            }
            rest = &rest[at + key.len()..];
        }
    }
    out
}

fn package_script_injection(j: &Judge<'_>) -> Option<Violation> {
    let writes_manifest = j.writes().iter().any(|p| file_name(p) == "package.json");
    if writes_manifest && let Some(content) = j.facts.content() {
        let old = j
            .facts
            .tool
            .and_then(|t| t.input.get("old_string"))
            .and_then(|v| v.as_str())
            .map(lifecycle_scripts)
            .unwrap_or_default();
        if let Some((name, cmd)) = lifecycle_scripts(content)
            .into_iter()
            .find(|s| !old.contains(s))
        {
            return Some(
                Violation::new(
                    Effect::Ask,
                    format!(
                        "package.json lifecycle script `{name}` = `{cmd}` runs on every install"
                    ),
                )
                .suggest("use a named script the user runs explicitly"),
            );
        }
    }
    for (_, argv) in j.commands() {
        if !matches!(program(argv), "npm" | "pnpm" | "yarn" | "bun") {
            continue;
        }
        let words: Vec<&str> = argv.iter().map(String::as_str).collect();
        let hit = match words.get(1..) {
            Some(["pkg", "set", rest @ ..]) => rest.iter().any(|kv| {
                kv.strip_prefix("scripts.")
                    .and_then(|s| s.split('=').next())
                    .is_some_and(|k| LIFECYCLE.contains(&k))
            }),
            Some(["set-script", name, ..]) => LIFECYCLE.contains(name),
            _ => false,
        };
        if hit {
            return Some(Violation::new(
                Effect::Ask,
                format!("sets an npm lifecycle script: `{}`", argv.join(" ")),
            ));
        }
        // Any other script is code the user or the agent runs later by name (`npm test`):
        // judged by what its text does, as the script itself would be when run.
        let set: Vec<(&str, &str)> = match words.get(1..) {
            Some(["pkg", "set", rest @ ..]) => rest
                .iter()
                .filter_map(|kv| kv.strip_prefix("scripts.")?.split_once('='))
                .collect(),
            Some(["set-script", name, value, ..]) => vec![(*name, *value)],
            _ => Vec::new(),
        };
        if let Some(v) = dangerous_scripts(j, set.into_iter()) {
            return Some(v);
        }
    }
    if writes_manifest
        && let Some(content) = j.facts.content()
        && let Ok(manifest) = serde_json::from_str::<serde_json::Value>(content)
        && let Some(scripts) = manifest.get("scripts").and_then(|s| s.as_object())
    {
        let scripts = scripts
            .iter()
            .filter_map(|(k, v)| v.as_str().map(|v| (k.as_str(), v)));
        if let Some(v) = dangerous_scripts(j, scripts) {
            return Some(v);
        }
    }
    None
}

/// The first of package.json's `scripts` (name, command line) whose command line the shell
/// analyzer finds dangerous where it can place it (a home, a system directory, a secret sent
/// out, code downloaded and run): an ask naming the script and why.
fn dangerous_scripts<'s>(
    j: &Judge<'_>,
    scripts: impl Iterator<Item = (&'s str, &'s str)>,
) -> Option<Violation> {
    let sctx = j.ctx.shell_context(j.facts.cwd.clone());
    for (name, line) in scripts {
        let a = hookgate_shell::analyze(line, &sctx);
        if let Some(reason) = crate::loaded::placed_danger(&a, false) {
            return Some(
                Violation::new(
                    Effect::Ask,
                    format!("sets the package script `{name}` = `{line}`, which {reason}"),
                )
                .suggest("show the script to the user before adding it"),
            );
        }
    }
    None
}

/// A fanned-out write the analyzer resolved to ordinary work whose every target is a literal
/// path inside the workspace or the temp dir (`find . -name '*.pyc' -delete`): the analyzer
/// already judged what it can reach, so there is nothing for the user to weigh.
fn fanned_inside_workspace(j: &Judge<'_>, c: &hookgate_shell::ExecutedCommand) -> bool {
    use hookgate_shell::Class;
    if !matches!(c.verdict.class, Class::Safe | Class::Normal) {
        return false;
    }
    let args = c.argv.get(1..).unwrap_or(&[]);
    let targets: Vec<&String> = if program(&c.argv) == "find" {
        args.iter()
            .take_while(|a| !(a.starts_with('-') || *a == "(" || *a == "!"))
            .collect()
    } else {
        args.iter().filter(|a| !a.starts_with('-')).collect()
    };
    let targets = if targets.is_empty() && program(&c.argv) == "find" {
        vec![]
    } else {
        targets
    };
    literal_targets_inside_workspace(j, c, &targets)
}

/// Every target is a literal path (no variable, substitution or pattern) inside the workspace
/// or the temp dir, placed relative to where `c` runs.
fn literal_targets_inside_workspace(
    j: &Judge<'_>,
    c: &hookgate_shell::ExecutedCommand,
    targets: &[&String],
) -> bool {
    // Relative to where the command runs; a directory only known at run time places nothing.
    let Some(dir) = c.cwd.path(&j.facts.cwd) else {
        return false;
    };
    targets.iter().all(|t| {
        !t.contains(['$', '`', '{', '*', '?', '[']) && {
            let p = hookgate_paths::normalize(t, dir, j.ctx.home.as_deref()).path;
            is_within(&p, &j.ctx.workspace) || j.in_temp(&p)
        }
    })
}

fn recursive_operation(j: &Judge<'_>) -> Option<Violation> {
    let analysis = j.facts.analysis.as_ref()?;
    let c = analysis
        .commands
        .iter()
        .filter(|c| !fanned_inside_workspace(j, c))
        .find(|c| {
            let fanned = c.via.iter().any(|v| {
                v.starts_with("find -exec")
                    || v.starts_with("find -ok")
                    || v == "xargs"
                    || v == "parallel"
            });
            let writer = matches!(
                program(&c.argv),
                "rm" | "chmod"
                    | "chown"
                    | "chgrp"
                    | "mv"
                    | "shred"
                    | "unlink"
                    | "truncate"
                    | "cp"
                    | "sed"
            );
            (fanned && writer)
                || (program(&c.argv) == "find" && c.argv.iter().any(|a| a == "-delete"))
        })?;
    Some(Violation::new(
        Effect::Ask,
        format!(
            "recursive write fanned out over many files: `{}`{}",
            c.argv.join(" "),
            c.via
                .first()
                .map(|v| format!(" (via {v})"))
                .unwrap_or_default()
        ),
    ))
}

fn large_write(j: &Judge<'_>) -> Option<Violation> {
    let len = j.facts.content()?.len();
    (len > j.settings.large_write_bytes).then(|| {
        Violation::new(
            Effect::Ask,
            format!(
                "writes {len} bytes in one call (limit {})",
                j.settings.large_write_bytes
            ),
        )
    })
}

fn cicd_config(j: &Judge<'_>) -> Option<Violation> {
    let mut concern = None;
    let m = j
        .write_matches()
        .iter()
        .filter(|m| m.category == Category::CiCdConfig)
        .find(|m| match ordinary_workflow_write(j, &m.path) {
            Ok(()) => false,
            Err(why) => {
                concern = why;
                true
            }
        })?;
    Some(Violation::new(
        Effect::Ask,
        match concern {
            Some(why) => format!(
                "modifies CI/CD configuration: {} — {why}",
                describe_match(m)
            ),
            None => format!("modifies CI/CD configuration: {}", describe_match(m)),
        },
    ))
}

/// `Ok` when `p` is a `.pre-commit-config.yaml` the Write tool writes whole with hooks that are
/// pinned remote repositories or local entries the shell analyzer lets run (see
/// [`crate::workflow::precommit_concern`]); `Err` otherwise, with the concern when there is one.
fn ordinary_precommit_write(j: &Judge<'_>, p: &Path) -> Result<(), Option<String>> {
    let named = p
        .file_name()
        .is_some_and(|n| n == ".pre-commit-config.yaml");
    if !named {
        return Err(None);
    }
    let edited;
    let text = if let Some(text) = whole_write(j) {
        text
    } else {
        edited = tool_edited(j, p).ok_or(None)?;
        edited.as_str()
    };
    // The repositories the config names now (a file that cannot be read names none).
    let known = j
        .ctx
        .follow_symlinks
        .then(|| std::fs::read(p).ok())
        .flatten()
        .filter(|b| b.len() as u64 <= MAX_SCRIPT_FILE)
        .map(|b| crate::workflow::precommit_repos(&String::from_utf8_lossy(&b)))
        .unwrap_or_default();
    match crate::workflow::precommit_concern(text, &known, |line| flagged_in_workspace(j, line)) {
        None => Ok(()),
        Some(why) => Err(Some(why)),
    }
}

/// The hooks git runs by name (`githooks(5)`): a file of another name in a hooks directory
/// (`pre-commit.sample`, a helper script) is not one, and keeps the ask.
const GIT_HOOK_NAMES: &[&str] = &[
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "post-rewrite",
];

/// A git hook the Write tool writes whole — a new `.git/hooks/NAME`, or husky's tracked
/// `.husky/NAME` — as shell (no shebang, or one naming a POSIX shell): `Some(Ok)` when the
/// shell analyzer would let its text run in the workspace (`npx lint-staged`, `cargo fmt
/// --check && cargo clippy`), since that is all the hook will ever run; `Some(Err)` with the
/// analyzer's reason when it would not; `None` for other files. What running it would do to
/// the guard itself is judged apart, by `transitive-effect-analysis` (a written script).
/// An Edit or a shell write is not known whole, and keeps the ask.
fn ordinary_hook_write(j: &Judge<'_>, p: &Path) -> Option<Result<(), Option<String>>> {
    let name = p.file_name()?.to_str()?;
    let dir = p.parent()?;
    let private = dir.ends_with(".git/hooks");
    let hooks_dir = private || dir.file_name().is_some_and(|d| d == ".husky");
    if !hooks_dir || !GIT_HOOK_NAMES.contains(&name) {
        return None;
    }
    // A hook under `.git/hooks` is in no commit: replacing one the user has (a secret scanner
    // swapped for `exit 0`) would go unseen in review, so only a new one is judged by its
    // text; husky's hooks are tracked, and a change to them shows in the diff.
    if private && !(j.ctx.follow_symlinks && std::fs::symlink_metadata(p).is_err()) {
        return Some(Err(None));
    }
    let text = whole_write(j)?;
    if let Some(program) = crate::loaded::shebang_program(text)
        && !matches!(program, "sh" | "bash" | "dash" | "zsh" | "ksh")
    {
        return Some(Err(None));
    }
    Some(match flagged_in_workspace(j, text) {
        None => Ok(()),
        Some(why) => Err(Some(why)),
    })
}

/// A build-tool configuration (`.cargo/config.toml`) the Write tool writes whole, read by
/// `loaded::tool_config_concern`: `None` for files it does not model.
fn ordinary_tool_config_write(j: &Judge<'_>, p: &Path) -> Option<Result<(), Option<String>>> {
    // Only the kinds `tool_config_concern` reads are worth reading an edited file for.
    let _: Result<(), String> = crate::loaded::tool_config_concern(p, "", |_| None)?;
    let edited;
    let text = if let Some(text) = whole_write(j) {
        text
    } else {
        edited = tool_edited(j, p)?;
        edited.as_str()
    };
    crate::loaded::tool_config_concern(p, text, |line| flagged_in_workspace(j, line))
        .map(|r| r.map_err(Some))
}

/// A dev container definition (`.devcontainer/devcontainer.json`, `.devcontainer/NAME/
/// devcontainer.json`, `.devcontainer.json`) written whole or edited, judged by what it makes
/// the tools do ([`crate::devcontainer::concern`]): its lifecycle commands as shell lines in
/// the workspace, its mounts and privileges. `None` for other files (they keep the ask).
fn ordinary_devcontainer_write(j: &Judge<'_>, p: &Path) -> Option<Result<(), Option<String>>> {
    let name = p.file_name()?.to_str()?;
    let in_dir = p
        .ancestors()
        .skip(1)
        .take(2)
        .any(|d| d.file_name().is_some_and(|n| n == ".devcontainer"));
    let defines = match name {
        "devcontainer.json" => in_dir,
        ".devcontainer.json" => true,
        _ => false,
    };
    if !defines {
        return None;
    }
    let edited;
    let text = if let Some(text) = whole_write(j) {
        text
    } else if let Some(t) = tool_edited(j, p) {
        edited = t;
        edited.as_str()
    } else {
        return Some(Err(None));
    };
    Some(
        match crate::devcontainer::concern(text, |line| flagged_in_workspace(j, line)) {
            None => Ok(()),
            Some(why) => Err(Some(why)),
        },
    )
}

/// The text an edit tool call (Edit, MultiEdit, `str_replace`) leaves in `p`, the file read
/// now with each replacement applied (see [`crate::loaded::edit_result`]). Read only for the
/// configuration files judged by their content, on the way to an ask; `None` when the call is
/// not an edit, file-system facts are off, or the edit does not apply (the caller asks).
fn tool_edited(j: &Judge<'_>, p: &Path) -> Option<String> {
    let tool = j.facts.tool.filter(|t| t.kind == ToolKind::Edit)?;
    if !j.ctx.follow_symlinks {
        return None;
    }
    crate::loaded::edit_result(p, &tool.input).map(|(_, after)| after)
}

/// The whole text a Write tool call puts in its file (an Edit or a shell write is not known whole).
fn whole_write<'j>(j: &'j Judge<'_>) -> Option<&'j str> {
    j.facts
        .tool
        .filter(|t| t.kind == ToolKind::Write)
        .and_then(|t| t.content.as_deref())
}

/// A shell tool call running `line`: code a file makes a tool run, judged as if run directly.
fn shell_call(line: &str) -> hookgate_core::ToolCall {
    hookgate_core::ToolCall {
        name: "Bash".to_owned(),
        kind: ToolKind::Shell,
        command: Some(line.to_owned()),
        paths: Vec::new(),
        content: None,
        url: None,
        mcp_server: None,
        mcp_tool: None,
        input: serde_json::Map::new(),
    }
}

/// The shell analyzer's reason when it would flag `line` run in the workspace (a command a
/// configuration file makes a tool run), `None` when it would let it run.
fn flagged_in_workspace(j: &Judge<'_>, line: &str) -> Option<String> {
    let tool = shell_call(line);
    let facts = Facts::of_shell(&tool, j.ctx.workspace.clone(), j.ctx);
    let analysis = facts.analysis?;
    (analysis.action() != hookgate_shell::Action::Allow).then_some(analysis.verdict.reason)
}

/// `Ok` when `p` is a GitHub Actions workflow the Write tool writes whole, with text that
/// shows none of [`crate::workflow::concern`]'s concerns (each `run:` script judged by the
/// shell analyzer, in the workspace); `Err` with the concern when it shows one, `Err(None)`
/// for any other CI file or a text not known whole (an Edit, `sed -i`, a copy).
fn ordinary_workflow_write(j: &Judge<'_>, p: &Path) -> Result<(), Option<String>> {
    let yaml = p
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"));
    let system = if !yaml {
        None
    } else if p.parent().is_some_and(|d| d.ends_with(".github/workflows")) {
        Some(crate::workflow::System::GithubActions)
    } else if p
        .file_name()
        .is_some_and(|n| n == ".gitlab-ci.yml" || n == ".gitlab-ci.yaml")
    {
        Some(crate::workflow::System::Gitlab)
    } else if p.parent().is_some_and(|d| d.ends_with(".buildkite")) {
        Some(crate::workflow::System::Buildkite)
    } else {
        None
    };
    let Some(system) = system else {
        return Err(None);
    };
    // A Write gives the whole text; a line that is one `sed -i` of the file gives it too,
    // applied to the file's text now (`crate::workflow::SedEdit`).
    let edited;
    let text = if let Some(text) = whole_write(j) {
        text
    } else {
        edited = tool_edited(j, p)
            .or_else(|| sed_edited(j, p))
            .or_else(|| copied_text(j, p))
            .ok_or(None)?;
        edited.as_str()
    };
    let judge = |script: &str| flagged_in_workspace(j, script);
    let concern = match system {
        crate::workflow::System::GithubActions => crate::workflow::concern(text, judge),
        crate::workflow::System::Gitlab => crate::workflow::gitlab_concern(text, judge),
        crate::workflow::System::Buildkite => crate::workflow::buildkite_concern(text, judge),
    };
    match concern {
        None => Ok(()),
        Some(why) => Err(Some(why)),
    }
}

/// The text a line made of one `sed -i` command that edits `p` alone (substitutions only,
/// see [`crate::workflow::SedEdit`]) leaves in `p`, applied to the file as it is now. `None`
/// for any other line, an edit not modelled, a file that cannot be read: the caller asks.
fn sed_edited(j: &Judge<'_>, p: &Path) -> Option<String> {
    let (cmd, dir) = sole_command(j, "sed")?;
    let edit = crate::workflow::SedEdit::parse(cmd.argv.get(1..)?)?;
    let [file] = edit.files.as_slice() else {
        return None;
    };
    if hookgate_paths::normalize(file, dir, None).path != p || !j.ctx.follow_symlinks {
        return None;
    }
    let bytes = std::fs::read(p).ok()?;
    if bytes.len() as u64 > MAX_SCRIPT_FILE {
        return None;
    }
    Some(edit.apply(std::str::from_utf8(&bytes).ok()?))
}

/// The line's one command when it is `program` run directly (no wrapper), with the directory
/// it runs in; `None` for any other line or a directory known only at run time.
fn sole_command<'j>(
    j: &'j Judge<'_>,
    program: &str,
) -> Option<(&'j hookgate_shell::ExecutedCommand, &'j Path)> {
    let analysis = j.facts.analysis.as_ref()?;
    let [cmd] = analysis.commands.as_slice() else {
        return None;
    };
    if !cmd.via.is_empty() || cmd.argv.first().map(|a| base_name(a)) != Some(program) {
        return None;
    }
    Some((cmd, cmd.cwd.path(&j.facts.cwd)?))
}

/// The text a line made of one plain `cp SRC DEST` (no recursion, no other operands) puts in
/// `p` = DEST: SRC's text now, when SRC is a regular file of the workspace (`cp
/// .github/workflows/ci.yml .github/workflows/lint.yml` starts a workflow from an existing
/// one). `None` for any other line or a file that cannot be read: the caller asks.
fn copied_text(j: &Judge<'_>, p: &Path) -> Option<String> {
    let (cmd, dir) = sole_command(j, "cp")?;
    let args = cmd.argv.get(1..)?;
    if args
        .iter()
        .any(|a| a.starts_with('-') && !matches!(a.as_str(), "-p" | "-v" | "-n" | "--"))
    {
        return None;
    }
    let ops: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let [src, dest] = ops.as_slice() else {
        return None;
    };
    let home = j.ctx.home.as_deref();
    let source = hookgate_paths::normalize(src, dir, home).path;
    if hookgate_paths::normalize(dest, dir, home).path != p
        || !j.ctx.follow_symlinks
        || !is_within(&source, &j.ctx.workspace)
    {
        return None;
    }
    let meta = std::fs::symlink_metadata(&source).ok()?;
    if !meta.is_file() || meta.len() > MAX_SCRIPT_FILE {
        return None;
    }
    String::from_utf8(std::fs::read(&source).ok()?).ok()
}

/// Whether a chmod mode sets setuid/setgid (`Some(true)`), makes a file world-writable
/// (`Some(false)`), or neither.
fn chmod_risk(mode: &str) -> Option<bool> {
    if !mode.is_empty() && mode.chars().all(|c| c.is_digit(8)) {
        let digits: Vec<u32> = mode.chars().filter_map(|c| c.to_digit(8)).collect();
        if digits.len() >= 4 && digits[digits.len() - 4] & 6 != 0 {
            return Some(true);
        }
        return (digits.last().is_some_and(|d| d & 2 != 0)).then_some(false);
    }
    let mut risk = None;
    for clause in mode.split(',') {
        let who_end = clause.find(['+', '=', '-']).unwrap_or(clause.len());
        let (who, rest) = clause.split_at(who_end);
        if !rest.starts_with(['+', '=']) {
            continue;
        }
        if rest.contains('s') {
            return Some(true);
        }
        if rest.contains('w') && (who.is_empty() || who.contains('o') || who.contains('a')) {
            risk = Some(false);
        }
    }
    risk
}

fn permission_escalation(j: &Judge<'_>) -> Option<Violation> {
    if let Some(m) = first_match(j.write_matches(), &[Category::PrivilegeEscalation]) {
        return Some(Violation::new(
            Effect::Deny,
            format!("modifies privilege configuration: {}", describe_match(m)),
        ));
    }
    let analysis = j.facts.analysis.as_ref()?;
    let mut ask: Option<Violation> = None;
    for c in &analysis.commands {
        let argv = &c.argv;
        let ops: Vec<&String> = argv
            .get(1..)
            .unwrap_or_default()
            .iter()
            .filter(|a| !a.starts_with('-'))
            .collect();
        match program(argv) {
            "chmod" => match ops.first().and_then(|m| chmod_risk(m)) {
                Some(true) => {
                    return Some(Violation::new(
                        Effect::Deny,
                        format!("sets setuid/setgid: `{}`", argv.join(" ")),
                    ));
                }
                Some(false) => {
                    ask.get_or_insert_with(|| {
                        Violation::new(
                            Effect::Ask,
                            format!("makes files world-writable: `{}`", argv.join(" ")),
                        )
                        .suggest("grant only the permission needed (e.g. chmod u+x)")
                    });
                }
                None => {}
            },
            "chown" | "chgrp" if chown_to_self_inside_workspace(j, c) => {}
            // `sudo -l`, `sudo -ln`, `sudo -v`, `sudo -k`: sudo lists, refreshes or drops the
            // user's own grants and runs nothing.
            "sudo" if sudo_self_query(argv) => {}
            "chown" | "chgrp" | "setcap" | "visudo" | "passwd" | "usermod" | "gpasswd"
            | "adduser" | "addgroup" | "su" | "sudo" | "doas" | "pkexec" | "runuser" => {
                ask.get_or_insert_with(|| {
                    Violation::new(
                        Effect::Ask,
                        format!("changes ownership or privileges: `{}`", argv.join(" ")),
                    )
                });
            }
            _ => {}
        }
        if let Some(w) = c.via.iter().find(|v| {
            matches!(
                v.split_whitespace().next(),
                Some("sudo" | "doas" | "su" | "pkexec" | "runuser")
            )
        }) && !read_only_under_sudo(j, c)
            && !package_install_under_sudo(c)
            && !(program(argv) == "chown"
                && c.via
                    .iter()
                    .all(|v| v.split_whitespace().next() == Some("sudo"))
                && chown_to_self_inside_workspace(j, c)
                && chown_spec_is_self(argv))
        {
            ask.get_or_insert_with(|| {
                Violation::new(
                    Effect::Ask,
                    format!("runs as another user via {w}: `{}`", argv.join(" ")),
                )
            });
        }
    }
    ask
}

/// Whether a `chown` owner spec names only the running user (and their group, or none):
/// `$USER`, `$USER:`, `$(id -u):$(id -g)`. Under `sudo` a group of another name could be any
/// group (the kernel's own-groups check does not apply to root), so it is not accepted there.
fn chown_spec_is_self(argv: &[String]) -> bool {
    argv.iter()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .is_some_and(|spec| {
            let parts: Vec<&str> = spec.split(':').collect();
            parts.len() <= 2
                && parts.first().is_some_and(|o| names_self(o))
                && parts.get(1).is_none_or(|g| g.is_empty() || names_self(g))
        })
}

/// `sudo -l`, `sudo -ll`, `sudo -v`, `sudo -k`, `sudo -V`: sudo itself lists the
/// invoking user's grants, refreshes or drops their cached credentials, or prints its version;
/// nothing runs as another user. Any operand (a command) or another option keeps the ask.
fn sudo_self_query(argv: &[String]) -> bool {
    let opts = argv.get(1..).unwrap_or(&[]);
    !opts.is_empty()
        && opts.iter().all(|a| {
            a.strip_prefix('-').is_some_and(|f| {
                !f.starts_with('-') && !f.is_empty() && f.chars().all(|c| "lnvkKVh".contains(c))
            }) || matches!(
                a.as_str(),
                "--list"
                    | "--non-interactive"
                    | "--validate"
                    | "--reset-timestamp"
                    | "--remove-timestamp"
                    | "--version"
            )
        })
        && opts.iter().any(|a| {
            matches!(
                a.as_str(),
                "--list" | "--validate" | "--reset-timestamp" | "--remove-timestamp" | "--version"
            ) || (!a.starts_with("--") && a.chars().any(|c| "lvkKVh".contains(c)))
        })
}

/// `sudo systemctl status nginx`, `sudo journalctl -u app -n 50`, `sudo ss -ltnp`, `sudo
/// docker ps`: a command the analyzer knows read-only with these arguments (a [[safe]] entry
/// of the shell taxonomy), run through `sudo`/`doas` only, with every word after the program
/// that could name a file (an operand, or an option's `=value`) placed inside the workspace.
/// Root's privilege then reads system state the user asked about and changes nothing, so it
/// is outside `no-permission-escalation`. Everything else under sudo keeps the ask: any
/// command that is not known read-only, `su`/`pkexec`/`runuser`, a shell (`sudo -s`, `sudo
/// bash -c`), and a read of a path outside the workspace (`sudo cat /var/log/auth.log`,
/// `sudo ls /root`: root reads what the user may not, and a file's content then reaches the
/// agent).
fn read_only_under_sudo(j: &Judge<'_>, c: &hookgate_shell::ExecutedCommand) -> bool {
    if c.verdict.class != hookgate_shell::Class::Safe
        || !c
            .via
            .iter()
            .all(|v| matches!(v.split_whitespace().next(), Some("sudo" | "doas")))
    {
        return false;
    }
    let Some(dir) = c.cwd.path(&j.facts.cwd) else {
        return false;
    };
    // The tools that only inspect a disk or controller read the device node they are given
    // (`sudo fdisk -l /dev/sda`, `sudo smartctl -H /dev/nvme0n1`): a block device is theirs
    // to read, and what they print is its layout and health, not its contents.
    let inspects_devices = matches!(
        program(&c.argv),
        "fdisk"
            | "sfdisk"
            | "parted"
            | "smartctl"
            | "lsblk"
            | "blkid"
            | "nvme"
            | "hdparm"
            | "mdadm"
    );
    // btrfs's reports (`sudo btrfs filesystem usage /`) name a mount point to say which
    // filesystem they describe: its space and subvolumes, not a file's content.
    let names_filesystems = program(&c.argv) == "btrfs";
    c.argv.iter().skip(1).all(|w| {
        if inspects_devices && w.starts_with("/dev/") && !w.contains("..") {
            return true;
        }
        if names_filesystems && w.starts_with('/') && !w.contains("..") {
            return true;
        }
        if w.contains(['$', '`']) {
            // Known only at run time.
            return false;
        }
        let value = match w.strip_prefix('-') {
            Some(opt) => match opt.split_once('=') {
                Some((_, v)) => v,
                None => return true,
            },
            None => w.as_str(),
        };
        value.is_empty() || {
            let p = hookgate_paths::normalize(value, dir, j.ctx.home.as_deref()).path;
            is_within(&p, &j.ctx.workspace)
        }
    })
}

/// `sudo apt-get install -y libpq-dev`, `sudo dnf install -y gcc`, `sudo apk add build-base`,
/// `sudo apt-get update`: the distribution's package manager installing named packages from the
/// repositories already configured, or refreshing their index — the ordinary setup step of a
/// build (DISAGREEMENTS lead29-4). Only through plain `sudo`/`doas`, only the install and
/// index verbs, every option from a short list that changes nothing about where packages come
/// from or how they are checked, every operand a bare package name (a version or architecture
/// pin allowed; no path, URL or package file: `sudo dpkg -i x.deb`, `sudo apt install
/// ./x.deb` keep the ask), and the analyzer found nothing in it (removals of essential
/// packages, `--allow-unauthenticated`, repository changes are judged by their own rules).
fn package_install_under_sudo(c: &hookgate_shell::ExecutedCommand) -> bool {
    if !matches!(
        c.verdict.class,
        hookgate_shell::Class::Safe | hookgate_shell::Class::Normal
    ) || !c
        .via
        .iter()
        .all(|v| matches!(v.as_str(), "sudo" | "doas" | "sudo -E" | "sudo -n"))
    {
        return false;
    }
    // `sudo APT_CONFIG=/tmp/x apt-get install …`: a variable set for the package manager can
    // point it at another configuration (hooks run as root), sources or keyring; only the
    // frontend choice is inert.
    if c.effects.iter().any(|e| {
        e.op == hookgate_shell::EffectOp::SetEnv && e.path.as_deref() != Some("DEBIAN_FRONTEND")
    }) {
        return false;
    }
    let argv: Vec<&str> = c.argv.iter().map(String::as_str).collect();
    let (verbs, options): (&[&str], &[&str]) = match program(&c.argv) {
        "apt-get" | "apt" => (
            &["install", "update"],
            &[
                "-y",
                "-q",
                "-qq",
                "--yes",
                "--assume-yes",
                "--quiet",
                "--no-install-recommends",
                "--no-install-suggests",
                "-qy",
                "-yq",
            ],
        ),
        "dnf" | "yum" | "microdnf" | "tdnf" => (
            &["install", "makecache"],
            &[
                "-y",
                "-q",
                "--assumeyes",
                "--quiet",
                "--setopt=install_weak_deps=False",
                "--refresh",
            ],
        ),
        "apk" => (
            &["add", "update"],
            &["--no-cache", "-q", "--quiet", "--update", "-U"],
        ),
        "zypper" => (
            &["install", "in", "refresh", "ref"],
            &[
                "-n",
                "--non-interactive",
                "-y",
                "--no-confirm",
                "-q",
                "--quiet",
                "--no-recommends",
            ],
        ),
        "pacman" => (&[], &["-S", "-Sy", "-Syu", "--noconfirm", "--needed", "-q"]),
        _ => return false,
    };
    let mut verb_seen = verbs.is_empty() && argv.iter().any(|a| a.starts_with("-S"));
    let mut packages = 0;
    for a in argv.iter().skip(1) {
        if a.starts_with('-') {
            if !options.contains(a) {
                return false;
            }
        } else if !verb_seen {
            if !verbs.contains(a) {
                return false;
            }
            verb_seen = true;
        } else {
            let bare = !a.is_empty()
                && a.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
                && a.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._+-:=~".contains(&b))
                && !a.contains("://")
                && !std::path::Path::new(a).extension().is_some_and(|e| {
                    matches!(e.to_str(), Some("deb" | "rpm" | "apk" | "zst" | "xz"))
                });
            if !bare {
                return false;
            }
            packages += 1;
        }
    }
    // `pacman -S` needs its packages; `-Syu` alone is a full upgrade (asked).
    verb_seen && (program(&c.argv) != "pacman" || packages > 0)
}

/// Values that name the user running the command, as the shell expands them before any
/// `sudo`: the login variables and the substitutions that print the user's own id or name.
const SELF_VARIABLES: &[&str] = &["USER", "LOGNAME", "UID", "EUID"];

/// `id` options that print one id or name of the running user (never a list: `-G`).
const SELF_ID_FLAGS: &[&str] = &[
    "-u", "-g", "-n", "-un", "-nu", "-gn", "-ng", "--user", "--group", "--name",
];

/// Whether one part of an owner spec (`OWNER` or `GROUP` of `OWNER:GROUP`, as the analyzer
/// kept it: `$USER`, `$(id -u)`, `` `whoami` ``) names the running user or their group.
fn names_self(part: &str) -> bool {
    let var = part
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| part.strip_prefix('$'));
    if var.is_some_and(|v| SELF_VARIABLES.contains(&v)) {
        return true;
    }
    let inner = part
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| part.strip_prefix('`').and_then(|r| r.strip_suffix('`')));
    let Some(inner) = inner else { return false };
    let words: Vec<&str> = inner.split_whitespace().collect();
    match words.as_slice() {
        ["whoami"] => true,
        ["id", flags @ ..] => !flags.is_empty() && flags.iter().all(|f| SELF_ID_FLAGS.contains(f)),
        _ => false,
    }
}

/// `chown`/`chgrp` that gives workspace files back to the user running it (`chown -R
/// "$(id -u):$(id -g)" node_modules` after a container wrote them as root): every part of
/// the owner spec names the running user, only plain flags are given (no `--reference`,
/// `--from`), and every target is a literal path inside the workspace that the analyzer
/// judged ordinary. Such a change cannot grant anyone a privilege, so it is outside
/// `no-permission-escalation`; `sudo`/`su` around it is still judged by the caller.
fn chown_to_self_inside_workspace(j: &Judge<'_>, c: &hookgate_shell::ExecutedCommand) -> bool {
    use hookgate_shell::Class;
    if !matches!(c.verdict.class, Class::Safe | Class::Normal) {
        return false;
    }
    let args = c.argv.get(1..).unwrap_or(&[]);
    let plain_flag = |a: &str| {
        matches!(
            a,
            "--recursive"
                | "--verbose"
                | "--changes"
                | "--silent"
                | "--quiet"
                | "--dereference"
                | "--no-dereference"
                | "--preserve-root"
        ) || a
            .strip_prefix('-')
            .is_some_and(|f| !f.is_empty() && f.chars().all(|ch| "RvcfhHLP".contains(ch)))
    };
    let (flags, operands): (Vec<&String>, Vec<&String>) =
        args.iter().partition(|a| a.starts_with('-'));
    let Some((spec, targets)) = operands.split_first() else {
        return false;
    };
    let chgrp = program(&c.argv) == "chgrp";
    let parts: Vec<&str> = if chgrp {
        vec![spec.as_str()]
    } else {
        spec.split(':').collect()
    };
    // The group part may name any group: an unprivileged chgrp can only pick one of the
    // caller's own groups (the kernel refuses others), and a change of group clears the
    // setgid bit of a regular file (Linux, root included), so it hands workspace files to a
    // group without making anything run with that group's rights.
    let group_part = |k: usize| chgrp || k == 1;
    flags.iter().all(|f| plain_flag(f))
        && parts.len() <= 2
        && parts.iter().any(|p| !p.is_empty())
        && parts.iter().enumerate().all(|(k, p)| {
            p.is_empty() || names_self(p) || (group_part(k) && literal_account_name(p))
        })
        && !targets.is_empty()
        && literal_targets_inside_workspace(j, c, targets)
}

/// `chown`/`chgrp` whose every owner and group part names the running user (`$(id -u)`,
/// `$USER`, `$(whoami)`, …), with plain flags only, reached without a privilege wrapper:
/// a `sudo chown -R "$(id -u)" .` takes root's files and stays judged.
fn ownership_back_to_self(c: &hookgate_shell::ExecutedCommand) -> bool {
    let program = program(&c.argv);
    if !matches!(program, "chown" | "chgrp")
        || c.via.iter().any(|v| {
            let w = v.split_whitespace().next().unwrap_or_default();
            matches!(
                w,
                "sudo" | "doas" | "pkexec" | "su" | "run0" | "runuser" | "sg" | "newgrp"
            )
        })
    {
        return false;
    }
    let args = c.argv.get(1..).unwrap_or_default();
    let (flags, operands): (Vec<&String>, Vec<&String>) =
        args.iter().partition(|a| a.starts_with('-'));
    let plain_flag = |a: &str| {
        matches!(
            a,
            "--recursive" | "--verbose" | "--changes" | "--silent" | "--quiet" | "--preserve-root"
        ) || a
            .strip_prefix('-')
            .is_some_and(|f| !f.is_empty() && f.chars().all(|ch| "Rvcf".contains(ch)))
    };
    let Some((spec, targets)) = operands.split_first() else {
        return false;
    };
    let parts: Vec<&str> = if program == "chgrp" {
        vec![spec.as_str()]
    } else {
        spec.split(':').collect()
    };
    flags.iter().all(|f| plain_flag(f))
        && !targets.is_empty()
        && parts.len() <= 2
        && parts.iter().any(|p| !p.is_empty())
        && parts.iter().all(|p| p.is_empty() || names_self(p))
}

/// A group name (or numeric id) written out literally: letters, digits, `_`, `-`, `.`, not
/// starting with `-`, and not one of the administrative groups (`root`/`0`, `wheel`, `sudo`,
/// `admin`), whose members administer the machine: files handed to them are kept asking.
fn literal_account_name(part: &str) -> bool {
    !part.is_empty()
        && !part.starts_with('-')
        && !matches!(part, "0" | "root" | "wheel" | "sudo" | "admin")
        && part
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.'))
}

/// Agent scratch space under the agents' home dirs that the agents themselves write through
/// their file tools (Claude's plan mode writes `~/.claude/plans/*.md`).
fn agent_scratch(j: &Judge<'_>, p: &Path) -> bool {
    j.ctx.home.as_ref().is_some_and(|h| {
        [".claude/plans", ".claude/todos"]
            .iter()
            .any(|s| is_within(p, &h.join(s)))
    })
}

/// Top-level keys of VS Code's `settings.json` that only change how the editor shows and
/// saves files: nothing in them starts a program, loads code or changes what an agent may do
/// (`chat.*`, `github.copilot.*`, `terminal.*`, `*.path`/`*.executable`, `typescript.tsdk`,
/// task and debug settings are not here). Language blocks (`"[python]": {…}`) are judged by
/// their own keys.
const INERT_EDITOR_KEYS: &[&str] = &[
    "editor.",
    "files.",
    "search.",
    "workbench.",
    "explorer.",
    "cSpell.",
    "diffEditor.",
    "breadcrumbs.",
    "outline.",
    "zenMode.",
    "window.title",
    // Language tooling switches (wt-fp6): which test framework the Python extension uses and
    // its arguments (it runs the project's own tests, as `pytest` does), Pylance's analysis,
    // import-update and formatting preferences, schema associations. A program or module
    // *path* under any of them (`python.testing.pytestPath`) is not inert: see
    // [`names_a_program`].
    "python.testing.",
    "python.analysis.",
    "typescript.preferences.",
    "javascript.preferences.",
    "typescript.updateImportsOnFileMove.",
    "javascript.updateImportsOnFileMove.",
    "typescript.format.",
    "javascript.format.",
    "eslint.validate",
    "eslint.workingDirectories",
    "css.",
    "scss.",
    "less.",
    "html.format.",
    "emmet.",
    "json.schemas",
    "yaml.schemas",
];

/// A settings key whose last segment names a program, a module or a command line to start
/// (`python.testing.pytestPath`, `*.executable`, `*.command`): an editor key prefix does not
/// make such a key inert.
fn names_a_program(key: &str) -> bool {
    let last = key.rsplit('.').next().unwrap_or(key).to_ascii_lowercase();
    [
        "path",
        "executable",
        "command",
        "commandline",
        "interpreter",
    ]
    .iter()
    .any(|s| last.ends_with(s))
}

/// A Write of a project's `.vscode/settings.json` whose whole text is strict JSON with only
/// [`INERT_EDITOR_KEYS`] (formatter on save, rulers, excluded files): the catalog protects the
/// file because agent settings live there too (`chat.tools.autoApprove` lets Copilot run
/// anything), not because of these. Anything else — another key, comments (JSONC), an Edit or
/// a shell write whose result is not known whole, another file of `.vscode/` — is judged as
/// before (invariant `no-governance-self-modification`).
fn inert_editor_settings(j: &Judge<'_>, m: &SensitiveMatch) -> bool {
    fn inert(key: &str) -> bool {
        INERT_EDITOR_KEYS.iter().any(|k| key.starts_with(k)) && !names_a_program(key)
    }
    if m.id != "other-agent-configs"
        || m.path.file_name().is_none_or(|n| n != "settings.json")
        || m.path.parent().is_none_or(|d| !d.ends_with(".vscode"))
    {
        return false;
    }
    let Some(tool) = j.facts.tool.filter(|t| t.kind == ToolKind::Write) else {
        return false;
    };
    // The Write must be of this file alone.
    if j.writes().iter().any(|w| *w != m.path) {
        return false;
    }
    let Some(Ok(serde_json::Value::Object(top))) = tool
        .content
        .as_deref()
        .map(serde_json::from_str::<serde_json::Value>)
    else {
        return false;
    };
    top.iter().all(|(k, v)| {
        if k.starts_with('[') && k.ends_with(']') {
            v.as_object()
                .is_some_and(|block| block.keys().all(|inner| inert(inner)))
        } else {
            inert(k)
        }
    })
}

/// The catalog categories that make up the protected set.
const PROTECTED: &[Category] = &[Category::AgentHookConfig, Category::HookgateConfig];

/// Every `HOOKGATE_*` variable is hookgate's own: fail mode, ask fallback, store, home,
/// config dir, and whatever later versions read.
/// `source FILE` / `. FILE` runs FILE in the agent's own shell, so the variables it sets are
/// set on this line (`. ./env.sh && hookgate …`): a file that sets or exports one of
/// hookgate's own variables is judged as the assignment itself (denied), read from disk as it
/// is now. Only that question is asked of it: a project's env script is the project's (its
/// other code is not judged, as for `bash script.sh`), and the nested judgement reads the
/// file's own assignments only, never the files it sources (no recursion).
/// An absent file sets nothing (the shell fails to source it); one that is there but cannot be
/// read within the loaded-file bound is asked; one written earlier in the line is judged where
/// it is written.
fn sourced_hookgate_env(j: &Judge<'_>) -> Option<Violation> {
    let analysis = j.facts.analysis.as_ref()?;
    for c in &analysis.commands {
        if !matches!(program(&c.argv), "source" | ".") {
            continue;
        }
        let Some(arg) = c.argv.get(1) else { continue };
        let Some(cwd) = c.cwd.path(&j.facts.cwd) else {
            continue;
        };
        let path = cwd.join(arg);
        let Some(text) = crate::loaded::read_bounded(&path) else {
            // A file that is there but cannot be read within the bound (padded past it, not
            // text, not a regular file) may set anything: asked, never passed unseen.
            if std::fs::metadata(&path).is_ok() {
                return Some(Violation::new(
                    Effect::Ask,
                    format!(
                        "sources {}, which cannot be read within the loaded-file bound to check it sets none of hookgate's own variables",
                        path.display()
                    ),
                ));
            }
            continue;
        };
        let tool = shell_call(&text);
        let facts = Facts::of_shell(&tool, cwd.to_path_buf(), j.ctx);
        let nested = Judge::new(&facts, j.ctx, j.state, j.settings);
        if let Some(v) = hookgate_env(&nested).filter(|v| v.effect == Effect::Deny) {
            return Some(
                Violation::new(
                    Effect::Deny,
                    format!("sources {}, which {}", path.display(), v.reason),
                )
                .suggest("hookgate's settings are the user's: ask them to change it"),
            );
        }
    }
    None
}

fn is_hookgate_var(name: &str) -> bool {
    name.to_ascii_uppercase().starts_with("HOOKGATE_")
}

fn verb(p: &PathUse) -> &'static str {
    match (p.op, p.reach) {
        (PathOp::Delete, _) => "delete",
        (PathOp::Move, _) => "move",
        (PathOp::Write, Reach::Tree) => "overwrite, replace or change permissions of",
        _ => "write",
    }
}

/// How to leave `inside` (relative to the operation's path) out of the command that would
/// touch it, for the commands that have a way to.
fn leave_out(j: &Judge<'_>, i: usize, rel: &str) -> String {
    let argv = j.facts.argv(i).unwrap_or_default();
    let line = argv.join(" ");
    match (program(argv), git_sub(argv).map(|(s, _)| s)) {
        ("git", Some("clean")) => format!("leave it out: `{line} -e {rel}`"),
        ("git", Some("checkout" | "restore" | "rm" | "stash")) => {
            // After an existing `--`, only the exclusion is added.
            let tail = if argv.iter().any(|a| a == "--") {
                format!("':!{rel}'")
            } else {
                format!("-- . ':!{rel}'")
            };
            format!(
                "leave it out with a pathspec: `{line} {tail}` (or name only the files you mean)"
            )
        }
        ("git", Some("reset" | "switch")) => {
            "restore only the files you mean (`git restore -- <file>`), or ask the user to run it"
                .to_owned()
        }
        ("tar" | "bsdtar" | "gtar" | "unzip" | "cpio" | "7z" | "7za" | "7zz" | "7zr", _) => {
            "extract into a separate directory (`-C DIR` / `-d DIR`) and copy out what you need"
                .to_owned()
        }
        ("rsync", _) => format!("leave it out: `--exclude {rel}`, or sync into another directory"),
        _ => "ask the user to make this change themselves".to_owned(),
    }
}

/// The files in an agent config directory that hold hook commands: Claude's and Gemini's
/// `settings.json`/`settings.local.json`, Codex's and Cursor's `hooks.json`, Copilot's
/// `hooks/*.json` (and every `*.json` of a directory named `hooks`, such as `.github/hooks`).
fn hook_config_files(dir: &Path) -> Vec<PathBuf> {
    const MAX_FILES: usize = 32;
    let mut out: Vec<PathBuf> = ["settings.json", "settings.local.json", "hooks.json"]
        .iter()
        .map(|n| dir.join(n))
        .filter(|p| p.is_file())
        .collect();
    let listed = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
                    .take(MAX_FILES)
                    .collect()
            })
            .unwrap_or_default()
    };
    if dir.file_name().is_some_and(|n| n == "hooks") {
        out.extend(listed(dir));
    }
    out.extend(listed(&dir.join("hooks")));
    out.sort();
    out.dedup();
    out.truncate(MAX_FILES);
    out
}

/// The hookgate binaries the hook configs of an agent directory run: every string under a
/// config's `hooks` key is parsed as the shell command line it is, and each executed command
/// that is hookgate (its program is named `hookgate*`, or it is called as `X hook <agent>`)
/// names a binary: an absolute or `~/` path as written, a relative one from the project, a
/// bare name the first of that name on `PATH` and that name in each `PATH` directory before
/// it (where a new file would shadow it). Unreadable or oversized files contribute nothing
/// (the running binary is protected by the caller in any case).
///
/// Invariant protected: deleting or replacing *any* binary an agent config points at is
/// self-modification, not only the one that happens to judge this call.
fn hook_binaries(dir: &Path, ctx: &Ctx) -> Vec<PathBuf> {
    const MAX_BYTES: u64 = 1 << 20;
    const MAX_COMMANDS: usize = 256;
    const AGENTS: &[&str] = &["claude", "codex", "gemini", "copilot", "cursor"];
    let project = dir.parent().unwrap_or(dir).to_path_buf();
    let mut out: Vec<PathBuf> = Vec::new();
    let mut commands: Vec<String> = Vec::new();
    for file in hook_config_files(dir) {
        if std::fs::metadata(&file).map_or(true, |m| m.len() > MAX_BYTES) {
            continue;
        }
        let Some(value) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        else {
            continue;
        };
        // The command lines of the hooks: `command` (Claude, Codex, Gemini, Cursor), `bash` /
        // `powershell` (Copilot), wherever they sit below `hooks`.
        let mut stack: Vec<&serde_json::Value> = value.get("hooks").into_iter().collect();
        while let Some(v) = stack.pop() {
            if commands.len() >= MAX_COMMANDS {
                break;
            }
            match v {
                serde_json::Value::Array(a) => stack.extend(a),
                serde_json::Value::Object(o) => {
                    for (k, x) in o {
                        match x {
                            serde_json::Value::String(s)
                                if matches!(
                                    k.as_str(),
                                    "command" | "bash" | "powershell" | "cmd"
                                ) =>
                            {
                                commands.push(s.clone());
                            }
                            _ => stack.push(x),
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let sctx = hookgate_shell::Context::new(project.clone(), ctx.home.clone());
    for line in &commands {
        for c in hookgate_shell::analyze(line, &sctx).commands {
            let Some(program) = c.argv.first() else {
                continue;
            };
            let hookgate = base_name(program).starts_with("hookgate")
                || (c.argv.get(1).is_some_and(|a| a == "hook")
                    && c.argv.get(2).is_some_and(|a| AGENTS.contains(&a.as_str())));
            if !hookgate || program.contains(['$', '`']) {
                continue;
            }
            let found: Vec<PathBuf> = if program.contains('/') {
                vec![hookgate_paths::normalize(program, &project, ctx.home.as_deref()).path]
            } else {
                // The first on `PATH`, as the shell finds it — and that name in every `PATH`
                // directory before it: a file created there would be found first (the
                // hook's `hookgate` shadowed by `/usr/local/bin/hookgate` → `true`). Not found
                // at all: that name in every `PATH` directory.
                let mut upto = Vec::new();
                for d in &ctx.search_path {
                    let p = hookgate_paths::normalize(
                        &d.join(program).to_string_lossy(),
                        &project,
                        ctx.home.as_deref(),
                    )
                    .path;
                    let exists = std::fs::symlink_metadata(&p).is_ok();
                    upto.push(p);
                    if exists {
                        break;
                    }
                }
                upto
            };
            // A link's target is the binary that runs (`/usr/local/bin/hookgate` →
            // `/opt/hookgate/1.2/hookgate`): both are protected.
            let resolved: Vec<PathBuf> = found
                .iter()
                .filter_map(|p| std::fs::canonicalize(p).ok().filter(|r| r != p))
                .collect();
            for p in found.into_iter().chain(resolved) {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Most entries listed below a protected directory to evaluate a `find` expression against;
/// past it the answer is "may match".
const MAX_FIND_ENTRIES: usize = 2000;

/// The entries below `dir` (not `dir` itself), with their depth below it and kind, listed
/// breadth-first without following links. `None` when there are more than the bound.
fn entries_below(dir: &Path) -> Option<Vec<(PathBuf, usize, EntryKind)>> {
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([(dir.to_path_buf(), 0usize)]);
    while let Some((d, depth)) = queue.pop_front() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            let kind = match e.file_type() {
                Ok(t) if t.is_symlink() => EntryKind::Link,
                Ok(t) if t.is_dir() => EntryKind::Dir,
                _ => EntryKind::File,
            };
            if kind == EntryKind::Dir {
                queue.push_back((e.path(), depth + 1));
            }
            out.push((e.path(), depth + 1, kind));
            if out.len() > MAX_FIND_ENTRIES {
                return None;
            }
        }
    }
    Some(out)
}

fn kind_of(p: &Path) -> Option<EntryKind> {
    let m = std::fs::symlink_metadata(p).ok()?;
    Some(if m.file_type().is_symlink() {
        EntryKind::Link
    } else if m.is_dir() {
        EntryKind::Dir
    } else {
        EntryKind::File
    })
}

/// Whether a filtered tree operation rooted at `start` (written `shown_root`) reaches the
/// protected `target` or anything below it — or, when `start` lies inside `target`, anything
/// at or below `start`. `(answer, listing overflowed)`.
fn find_reaches(f: &FindFilter, shown_root: &str, start: &Path, target: &Path) -> (K, bool) {
    let shown = |p: &Path| -> String {
        let rel = p
            .strip_prefix(start)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        if rel.as_os_str().is_empty() {
            shown_root.to_owned()
        } else {
            format!(
                "{}/{}",
                shown_root.trim_end_matches('/'),
                rel.to_string_lossy()
            )
        }
    };
    let depth_of = |p: &Path| p.strip_prefix(start).map_or(0, |r| r.components().count());
    // Every directory on the way to the protected entry holds it (never `-empty`); the
    // entries judged themselves are read from disk.
    let entry = |p: &Path, kind: Option<EntryKind>| Entry {
        shown: shown(p),
        depth: depth_of(p),
        kind,
        empty: Some(false),
    };
    let judged = |p: &Path, kind: Option<EntryKind>| Entry {
        empty: emptiness(p),
        ..entry(p, kind)
    };
    // The chain find walks from its start path down to the first entry judged.
    let first = if is_within(target, start) {
        target
    } else {
        start
    };
    let mut chain: Vec<Entry> = Vec::new();
    let mut cur = start.to_path_buf();
    if first != start {
        chain.push(entry(start, Some(EntryKind::Dir)));
        if let Ok(rel) = first.strip_prefix(start) {
            let parts: Vec<_> = rel.components().collect();
            for c in parts.iter().take(parts.len().saturating_sub(1)) {
                cur.push(c);
                chain.push(entry(&cur, Some(EntryKind::Dir)));
            }
        }
    }
    let mut answer = f.reaches(&chain, &judged(first, kind_of(first)));
    if answer == K::True {
        return (answer, false);
    }
    let Some(below) = entries_below(first) else {
        return (K::Maybe, true);
    };
    // Ancestors of an entry below `first`: the chain, `first`, and the directories between.
    for (p, _, kind) in &below {
        let mut ancestors = chain.clone();
        ancestors.push(entry(first, Some(EntryKind::Dir)));
        if let Ok(rel) = p.strip_prefix(first) {
            let parts: Vec<_> = rel.components().collect();
            let mut a = first.to_path_buf();
            for c in parts.iter().take(parts.len().saturating_sub(1)) {
                a.push(c);
                ancestors.push(entry(&a, Some(EntryKind::Dir)));
            }
        }
        match f.reaches(&ancestors, &judged(p, Some(*kind))) {
            K::True => return (K::True, false),
            K::Maybe => answer = K::Maybe,
            K::False => {}
        }
    }
    (answer, false)
}

/// find's `-empty` for `p` on disk: a directory without entries or a regular file of size
/// zero; `None` when it cannot be read (judged as "may be").
fn emptiness(p: &Path) -> Option<bool> {
    let meta = std::fs::symlink_metadata(p).ok()?;
    if meta.is_dir() {
        Some(std::fs::read_dir(p).ok()?.next().is_none())
    } else if meta.is_file() {
        Some(meta.len() == 0)
    } else {
        Some(false)
    }
}

/// What reaching a protected path through `p` calls for: deny, or ask when the operation
/// touches only some unknown entries below its path (`git apply FILE`) or a `find`
/// expression's answer hangs on something that could not be evaluated; `None` when a
/// filter shows the protected path is not reached.
fn reach_effect(p: &PathUse, start: &Path, target: &Path) -> Option<Effect> {
    if let Some(f) = &p.filter {
        let (answer, overflow) = find_reaches(f, &p.raw, start, target);
        return match answer {
            K::False => None,
            K::Maybe if f.opaque || overflow => Some(Effect::Ask),
            K::True | K::Maybe => Some(Effect::Deny),
        };
    }
    Some(if p.partial { Effect::Ask } else { Effect::Deny })
}

fn touch_violation(effect: Effect, reason: String, suggestion: String) -> Violation {
    let reason = if effect == Effect::Ask {
        format!("{reason}; which files it changes cannot be read off the command")
    } else {
        reason
    };
    Violation::new(effect, reason).suggest(suggestion)
}

/// A write, delete, move, chmod or replacement that reaches a member of the protected set:
/// inside it (a file below a protected directory), or holding it (a directory above a
/// protected file, for operations on a whole tree), by catalog or by the protected set
/// ([`Judge::protected`]). A `find` expression narrows a tree operation to what it selects;
/// an operation on unknown entries below a path (a diff read from a file) is asked about.
fn protected_touch(j: &Judge<'_>) -> Option<Violation> {
    let plain = |p: &PathUse| p.filter.is_none() && !p.partial;
    let mut touched = j.facts.touched();
    if touched.is_empty() {
        return None;
    }
    // Git discards that git says leave every protected file as it is (see
    // `treemove::discards`): the work they throw away is judged elsewhere.
    let clear = if j.ctx.tree_moves.is_empty() {
        Vec::new()
    } else {
        j.discards_clear_of_protected()
    };
    if !clear.is_empty() {
        touched.retain(|(i, _)| {
            !j.facts.items[*i]
                .command
                .is_some_and(|c| clear.contains(&c))
        });
        if touched.is_empty() {
            return None;
        }
    }
    if let Some(m) = j.write_matches().iter().find(|m| {
        PROTECTED.contains(&m.category)
            && !agent_scratch(j, &m.path)
            && !inert_editor_settings(j, m)
            && !unlisted_archive_subtree(j, m)
            // A filtered or partial tree operation's own path is judged below, entry by entry.
            && !touched.iter().any(|(_, p)| p.path == m.path && !plain(p))
    }) {
        return Some(
            Violation::new(
                Effect::Deny,
                format!(
                    "would modify the guard or an agent's hook settings: {}",
                    describe_match(m)
                ),
            )
            .suggest("ask the user to make this change themselves"),
        );
    }
    // Ownership handed back to the caller (`chown -R "$(id -u):$(id -g)" .` after a
    // container wrote files as root) changes nothing the agent could not already do: an
    // unprivileged chown to oneself only succeeds on one's own files, and a root caller
    // already owns everything. So it is not a change to the protected set.
    if let Some(analysis) = j.facts.analysis.as_ref() {
        touched.retain(|(i, p)| {
            !(p.metadata
                && j.facts.items[*i]
                    .command
                    .and_then(|c| analysis.commands.get(c))
                    .is_some_and(ownership_back_to_self))
        });
        if touched.is_empty() {
            return None;
        }
    }
    let protected = j.protected();
    let pctx = j.path_ctx();
    if let Some(v) = glob_touch(j, &touched, protected) {
        return Some(v);
    }
    let mut asked: Option<Violation> = None;
    for (i, p) in touched {
        // write_matches() above classified every written path, resolving symlinks when
        // asked to; its physical forms are reused here.
        let mut candidates = vec![p.path.clone()];
        candidates.extend(
            j.physical
                .borrow()
                .iter()
                .filter(|(l, _)| *l == p.path)
                .map(|(_, ph)| ph.clone()),
        );
        for w in candidates.iter().filter(|w| !agent_scratch(j, w)) {
            if let Some(root) = protected.iter().find(|root| is_within(w, root)) {
                let what = p.verb.unwrap_or_else(|| verb(&p));
                let v = reach_effect(&p, w, root).map(|e| {
                    touch_violation(
                        e,
                        format!(
                            "would {what} {}, which is part of hookgate's protected set ({})",
                            w.display(),
                            root.display()
                        ),
                        "ask the user to make this change themselves".to_owned(),
                    )
                });
                match v {
                    Some(v) if v.effect == Effect::Deny => return Some(v),
                    Some(v) => {
                        asked.get_or_insert(v);
                    }
                    None => {}
                }
            }
            if p.reach == Reach::Exact {
                continue;
            }
            for held in protected.iter().filter(|h| {
                p.reach == Reach::Tree
                    && is_within(h, w)
                    && h != &w
                    && !agent_scratch(j, h)
                    && !p.except.iter().any(|e| e.covers(h, w))
            }) {
                let rel = held
                    .strip_prefix(w)
                    .ok()
                    .and_then(|r| r.components().next())
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .unwrap_or_default();
                let v = reach_effect(&p, w, held).map(|e| {
                    // An archive whose members cannot be seen may or may not name it.
                    let e = if p.archive_unlisted { Effect::Ask } else { e };
                    touch_violation(
                        e,
                        format!(
                            "would {} {}, which holds {} (hookgate's protected set)",
                            p.verb.unwrap_or_else(|| verb(&p)),
                            w.display(),
                            held.display()
                        ),
                        leave_out(j, i, &rel),
                    )
                });
                match v {
                    Some(v) if v.effect == Effect::Deny => return Some(v),
                    Some(v) => {
                        asked.get_or_insert(v);
                    }
                    None => {}
                }
            }
            let excluded = p.except.iter().any(|e| match e {
                Except::Path(x) => is_within(w, x),
                Except::Name(_) => false,
            });
            // A find expression cannot be evaluated against catalog patterns (no concrete
            // entry); the protected set above holds the locations that exist.
            if excluded || p.filter.is_some() {
                continue;
            }
            if let Some(m) = hookgate_paths::classify_subtree(w, &pctx)
                .into_iter()
                .find(|m| PROTECTED.contains(&m.category))
            {
                let effect = if p.partial || p.archive_unlisted {
                    Effect::Ask
                } else {
                    Effect::Deny
                };
                let v = touch_violation(
                    effect,
                    format!(
                        "would {} {}, which holds an agent's hook settings or the guard's files ({}: {})",
                        verb(&p),
                        w.display(),
                        m.id,
                        m.reason
                    ),
                    leave_out(j, i, file_name(w)),
                );
                if effect == Effect::Deny {
                    return Some(v);
                }
                asked.get_or_insert(v);
            }
        }
    }
    asked
}

/// A write, delete, move or chmod whose path is a shell pattern (`rm -rf .c*`,
/// `mv .cl?ude x`, `chmod 000 ~/.config/hookg*`) that expands to a member of the protected
/// set, or (for tree operations) to a directory holding one. The shell expands the pattern
/// against what exists, so comparing it with the protected entries that exist
/// ([`Judge::protected`]) is the whole answer; no match leaves the call to the other rules.
///
/// Invariant protected: `no-governance-self-modification` holds whatever spelling the shell
/// turns into the protected path — a literal name and a pattern that expands to it are one.
fn glob_touch(
    j: &Judge<'_>,
    touched: &[(usize, PathUse)],
    protected: &[PathBuf],
) -> Option<Violation> {
    let dotglob = line_enables_dotglob(j);
    for (i, p) in touched {
        if p.partial || !hookgate_paths::has_wildcard(&p.raw) {
            continue;
        }
        let Some(pattern) = hookgate_paths::ShellPattern::new(&p.path) else {
            continue;
        };
        let pattern = pattern.dotglob(dotglob);
        // Expansions through a symbolic link (`rm -rf h?/*`, `hh` linking to the store) are
        // judged where they land; past the listing bound the lexical answer stands.
        for (shown, landed) in pattern
            .linked_expansions(MAX_GLOB_ENTRIES)
            .unwrap_or_default()
        {
            let reached = protected
                .iter()
                .filter(|r| !agent_scratch(j, r))
                .find(|root| {
                    is_within(&landed, root) || (p.reach == Reach::Tree && is_within(root, &landed))
                });
            if let Some(root) = reached {
                return Some(touch_violation(
                    Effect::Deny,
                    format!(
                        "would {} `{}`, a pattern that expands to {}, which resolves to {} (hookgate's protected set: {})",
                        p.verb.unwrap_or_else(|| verb(p)),
                        p.raw,
                        shown.display(),
                        landed.display(),
                        root.display()
                    ),
                    "ask the user to make this change themselves".to_owned(),
                ));
            }
        }
        for root in protected.iter().filter(|r| !agent_scratch(j, r)) {
            let held = match pattern.reach(root) {
                Some(hookgate_paths::PatternReach::Within) => false,
                Some(hookgate_paths::PatternReach::Holds) if p.reach == Reach::Tree => true,
                _ => continue,
            };
            let what = p.verb.unwrap_or_else(|| verb(p));
            let reason = if held {
                format!(
                    "would {what} `{}`, a pattern that expands to a directory holding {} (hookgate's protected set)",
                    p.raw,
                    root.display()
                )
            } else {
                format!(
                    "would {what} `{}`, a pattern that expands to {} or below it (hookgate's protected set)",
                    p.raw,
                    root.display()
                )
            };
            return Some(touch_violation(
                Effect::Deny,
                reason,
                leave_out(j, *i, file_name(root)),
            ));
        }
    }
    None
}

/// The files the configured command hooks ([`Ctx::hook_commands`]) name: every word of
/// their parsed command lines — the program when written as a path, and each argument —
/// that is an existing regular file, placed from the hook's directory. A trusted project
/// hook `sh scripts/guard.sh` is only as good as `scripts/guard.sh`, which `hookgate trust`
/// does not pin: rewriting it would change what the hook does.
fn hook_command_files(ctx: &Ctx) -> Vec<PathBuf> {
    const MAX_WORDS: usize = 256;
    let mut out = Vec::new();
    let mut seen = 0usize;
    for (line, dir) in &ctx.hook_commands {
        let sctx = hookgate_shell::Context::new(dir.clone(), ctx.home.clone());
        for c in hookgate_shell::analyze(line, &sctx).commands {
            let cwd = c.cwd.path(dir).unwrap_or(dir).to_path_buf();
            for (k, w) in c.argv.iter().enumerate() {
                seen += 1;
                if seen > MAX_WORDS {
                    return out;
                }
                let named = if k == 0 {
                    w.contains('/')
                } else {
                    !w.starts_with('-')
                };
                if !named || w.contains(['$', '`']) {
                    continue;
                }
                let p = hookgate_paths::normalize(w, &cwd, ctx.home.as_deref()).path;
                if std::fs::metadata(&p).is_ok_and(|m| m.is_file()) && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Most directory entries read to expand one shell pattern for its links
/// ([`hookgate_paths::ShellPattern::linked_expansions`]).
const MAX_GLOB_ENTRIES: usize = 4096;

/// Whether the line makes `*` and `?` match names starting with `.`: bash's `shopt -s
/// dotglob` or a non-empty `GLOBIGNORE` (which turns dotglob on), zsh's `setopt globdots`
/// (any case, underscores ignored, as zsh reads option names).
fn line_enables_dotglob(j: &Judge<'_>) -> bool {
    let Some(analysis) = j.facts.analysis.as_ref() else {
        return false;
    };
    analysis.commands.iter().any(|c| {
        let words: Vec<&str> = c.argv.iter().skip(1).map(String::as_str).collect();
        let zsh_name = |w: &str| w.replace('_', "").to_ascii_lowercase();
        let set_here = c
            .effects
            .iter()
            .filter(|e| e.op == hookgate_shell::EffectOp::SetEnv)
            .filter_map(|e| e.path.as_deref())
            .chain(env_names_set(&c.argv))
            .any(|n| n == "GLOBIGNORE");
        set_here
            || match program(&c.argv) {
                "shopt" => words.contains(&"dotglob") && !words.contains(&"-u"),
                "setopt" => words.iter().any(|w| zsh_name(w) == "globdots"),
                "set" => words.iter().any(|w| zsh_name(w) == "globdots"),
                _ => false,
            }
    })
}

/// Shell words that set or export a variable: `export`/`declare`/`typeset`/`readonly`/
/// `local` operands, an unpeeled `env NAME=… cmd`, csh `setenv NAME`, fish `set -x NAME`,
/// `launchctl setenv`, `systemctl set-environment`, `setx`, `tmux set-environment`.
fn name_of(a: &str) -> Option<&str> {
    let n = a.split_once('=').map_or(a, |(n, _)| n);
    (!n.is_empty() && !n.starts_with('-')).then_some(n)
}

fn env_names_set(argv: &[String]) -> Vec<&str> {
    let words: Vec<&str> = argv.iter().skip(1).map(String::as_str).collect();
    match program(argv) {
        "export" | "declare" | "typeset" | "readonly" | "local" => {
            words.iter().filter_map(|w| name_of(w)).collect()
        }
        "env" => words
            .iter()
            .take_while(|w| w.starts_with('-') || w.contains('='))
            .filter(|w| w.contains('='))
            .filter_map(|w| name_of(w))
            .collect(),
        "setenv" | "setx" => words.first().and_then(|w| name_of(w)).into_iter().collect(),
        // Removing a variable changes the environment later commands see.
        "unset" | "unsetenv" => words.iter().filter_map(|w| name_of(w)).collect(),
        "set"
            if words.iter().any(|w| {
                (w.starts_with('-') && !w.starts_with("--") && w.contains('x')) || *w == "--export"
            }) =>
        {
            words
                .iter()
                .find(|w| !w.starts_with('-'))
                .and_then(|w| name_of(w))
                .into_iter()
                .collect()
        }
        "launchctl" if words.first() == Some(&"setenv") => {
            words.get(1).and_then(|w| name_of(w)).into_iter().collect()
        }
        "systemctl" | "tmux" => words
            .iter()
            .position(|w| *w == "set-environment" || *w == "setenv")
            .map(|i| {
                words[i + 1..]
                    .iter()
                    .filter(|w| !w.starts_with('-'))
                    .filter_map(|w| name_of(w))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The first `HOOKGATE_*` variable that `text` assigns or exports, read as shell-profile,
/// dotenv, direnv, fish, csh or PowerShell text: `NAME=…`, `NAME+=…`, `export NAME`,
/// `setenv NAME …`, `set -gx NAME …`, `$env:NAME = …`. A mere reference (`$HOOKGATE_HOME`)
/// is not an assignment.
fn hookgate_assignment(text: &str) -> Option<String> {
    const SETTERS: &[&str] = &[
        "export", "setenv", "set", "declare", "typeset", "readonly", "env", "local", "setx",
    ];
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') || (i > 0 && ident(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && ident(bytes[i]) {
            i += 1;
        }
        let name = &text[start..i];
        if !is_hookgate_var(name) {
            continue;
        }
        let after = text[i..].trim_start_matches([' ', '\t']);
        let assigns =
            (after.starts_with('=') && !after.starts_with("==")) || after.starts_with("+=");
        let before = &text[..start];
        let powershell = before.to_ascii_lowercase().ends_with("$env:");
        let set_by_word = before
            .rsplit(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | '\n'))
            .map(|w| w.trim_matches(['\'', '"']))
            .filter(|w| !w.is_empty())
            .find(|w| !w.starts_with('-'))
            .is_some_and(|w| SETTERS.contains(&w));
        if before.ends_with('$') || before.ends_with("${") {
            continue;
        }
        if assigns || powershell || set_by_word {
            return Some(name.to_owned());
        }
    }
    None
}

/// Setting hookgate's own variables from the agent's command (effects the analyzer found,
/// or the setter words themselves), or writing an assignment of one into a shell profile,
/// env file or direnv file.
fn hookgate_env(j: &Judge<'_>) -> Option<Violation> {
    let deny = |what: String| {
        Some(
            Violation::new(Effect::Deny, what)
                .suggest("hookgate's settings are the user's: ask them to change it"),
        )
    };
    if let Some(analysis) = j.facts.analysis.as_ref() {
        // A variable whose name is computed (`export $V=open`, `os.environ[k] = …`) may be
        // one of hookgate's; what it is cannot be known here.
        let computed = analysis.commands.iter().find_map(|c| {
            c.effects
                .iter()
                .filter(|e| e.op == hookgate_shell::EffectOp::SetEnv)
                .find(|e| !e.path.as_deref().is_some_and(is_identifier))
                .map(|e| (c, e))
        });
        for c in &analysis.commands {
            if let Some(name) = c
                .effects
                .iter()
                .filter(|e| e.op == hookgate_shell::EffectOp::SetEnv)
                .filter_map(|e| e.path.as_deref())
                .find(|n| is_hookgate_var(n))
            {
                return deny(format!(
                    "sets hookgate's own variable `{name}` (via {})",
                    c.effects
                        .iter()
                        .find(|e| e.path.as_deref() == Some(name))
                        .map_or("the shell", |e| e.source.as_str())
                ));
            }
            if let Some(name) = env_names_set(&c.argv)
                .into_iter()
                .find(|n| is_hookgate_var(n))
            {
                return deny(format!(
                    "sets hookgate's own variable `{name}`: `{}`",
                    c.argv.join(" ")
                ));
            }
        }
        if let Some((c, e)) = computed {
            return Some(
                Violation::new(
                    Effect::Ask,
                    format!(
                        "sets an environment variable whose name is computed at run time ({} in `{}`), which may be one of hookgate's own",
                        e.path.as_deref().unwrap_or("a name built by code"),
                        c.argv.join(" ")
                    ),
                )
                .suggest("name the variable literally"),
            );
        }
    }
    let profile = j
        .write_matches()
        .iter()
        .find(|m| matches!(m.category, Category::ShellProfile | Category::EnvFile))?;
    let mut texts: Vec<&str> = j.facts.content().into_iter().collect();
    if let Some(analysis) = j.facts.analysis.as_ref() {
        // The words of every command, the text the line feeds them (`cat >> ~/.bashrc <<EOF
        // … EOF` appends its heredoc) and the text it writes into files when the line makes
        // it known (`printf '%s=1\n' HOOKGATE_OFF >> ~/.bashrc`).
        texts.extend(analysis.commands.iter().flat_map(|c| {
            c.argv
                .iter()
                .skip(1)
                .map(String::as_str)
                .chain(c.stdin.iter().map(|s| s.text.as_str()))
                .chain(c.writes.iter().map(|s| s.text.as_str()))
        }));
    }
    let name = texts.into_iter().find_map(hookgate_assignment)?;
    deny(format!(
        "writes hookgate's own variable `{name}` into {}",
        describe_match(profile)
    ))
}

/// A shell variable name: a letter or `_`, then letters, digits and `_`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Agent CLIs (and hookgate itself) whose hooks a relaunch could switch off.
const AGENT_CLIS: &[&str] = &[
    "claude",
    "codex",
    "gemini",
    "copilot",
    "cursor-agent",
    "opencode",
];

/// The npm packages of those CLIs, run through `npx`/`bunx`/`pnpm dlx`.
const AGENT_PACKAGES: &[&str] = &[
    "@anthropic-ai/claude-code",
    "@openai/codex",
    "@google/gemini-cli",
    "@github/copilot",
];

/// Variables that move where an agent (or hookgate) reads its user config: changed for a
/// nested run, that run reads attacker-written config as the user's own.
const CONFIG_LOCATION_VARS: &[&str] = &[
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
    "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    "COPILOT_HOME",
];

/// Variables that change which programs a nested agent's hooks run — the hookgate a bare
/// `hookgate hook …` finds on `PATH`, the shell that runs hook commands, the modules Node
/// (every agent CLI here is a Node program) loads — beside [`HIJACK_VARS`] (preloads,
/// `NODE_OPTIONS`, `BASH_ENV`). Set for a launch, the nested run's guard is the caller's.
const LAUNCH_VARS: &[&str] = &["PATH", "SHELL", "NODE_PATH"];

/// Whether `argv` runs an agent CLI or hookgate: its name, or `npx @openai/codex …`.
fn launches_agent(argv: &[String]) -> bool {
    let p = program(argv);
    // The shell analyzer peels `npx @google/gemini-cli …` to the package's own name
    // (`gemini-cli`), which is not the CLI's (`gemini`): both name the agent.
    if AGENT_CLIS.contains(&p)
        || p.starts_with("hookgate")
        || AGENT_PACKAGES
            .iter()
            .any(|pkg| pkg.rsplit('/').next() == Some(p))
    {
        return true;
    }
    matches!(p, "npx" | "bunx" | "pnpx" | "pnpm" | "yarn" | "npm")
        && argv.iter().skip(1).any(|w| {
            let pkg = w
                .rsplit_once('@')
                .filter(|(n, _)| !n.is_empty())
                .map_or(w.as_str(), |(n, _)| n);
            AGENT_PACKAGES.contains(&pkg) || AGENT_PACKAGES.contains(&w.as_str())
        })
}

/// What an agent launch's own arguments do to its hooks: `claude --settings` with hooks,
/// `disableAllHooks` or an `env` moving hookgate's config (or from a file, whose content at
/// run time the guard cannot know), `--setting-sources` that leaves out user, project or
/// local settings, `codex -c` on hooks, the `features` table or project trust, `codex
/// --disable codex_hooks`, `copilot --config-dir`, and any option about hooks.
///
/// Every one is a deny: the nested agent would run with hooks the user did not set up, and
/// a locked ask could never be let through anyway. A plain nested agent (its hooks as
/// configured) is not judged here.
fn hooks_switched_off(argv: &[String]) -> Option<(Effect, String)> {
    if let Some(why) = settings_subcommand(argv) {
        return Some((Effect::Deny, why));
    }
    // `-c KEY=VALUE` configures Codex; to Claude `-c` is `--continue` (no value).
    let codex = program(argv) == "codex" || argv.iter().any(|w| w.starts_with("@openai/codex"));
    let copilot =
        program(argv) == "copilot" || argv.iter().any(|w| w.starts_with("@github/copilot"));
    let mut iter = argv.iter().skip(1);
    while let Some(a) = iter.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v.to_owned())),
            _ => (a.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| iter.next().cloned())
                .unwrap_or_default()
        };
        match name {
            "--settings" => {
                let v = value();
                let why = match serde_json::from_str::<serde_json::Value>(&v) {
                    Ok(json) => settings_change_hooks(&json),
                    Err(_) => Some("loads settings (hooks included) from a file the nested agent reads at run time, unseen by the guard".to_owned()),
                };
                if let Some(why) = why {
                    return Some((Effect::Deny, format!("`--settings {v}` {why}")));
                }
            }
            "--setting-sources" => {
                let v = value();
                let given: Vec<&str> = v.split(',').map(str::trim).collect();
                if ["user", "project", "local"]
                    .iter()
                    .any(|s| !given.contains(s))
                {
                    return Some((
                        Effect::Deny,
                        format!(
                            "`--setting-sources {v}` skips settings files that hold the guard's hooks"
                        ),
                    ));
                }
            }
            "-c" | "--config" if codex => {
                let v = value();
                let key = v
                    .split_once('=')
                    .map_or(v.as_str(), |(k, _)| k)
                    .trim()
                    .trim_matches(['"', '\''])
                    .to_ascii_lowercase();
                // Hooks themselves; the `features` table that holds `codex_hooks`; the
                // projects' trust, without which a project's `.codex/` hooks do not load.
                if key.contains("hook")
                    || key == "features"
                    || key == "projects"
                    || key.starts_with("projects.")
                {
                    return Some((
                        Effect::Deny,
                        format!("`{name} {v}` changes the agent's hooks"),
                    ));
                }
            }
            "--enable" | "--disable" if codex => {
                let v = value();
                if v.to_ascii_lowercase().contains("hook") {
                    return Some((
                        Effect::Deny,
                        format!("`{name} {v}` changes the agent's hooks"),
                    ));
                }
            }
            "--config-dir" if copilot => {
                let v = value();
                return Some((
                    Effect::Deny,
                    format!(
                        "`{name} {v}` reads the agent's config (hooks included) from somewhere else"
                    ),
                ));
            }
            n if n.starts_with('-') && n.to_ascii_lowercase().contains("hook") => {
                return Some((Effect::Deny, format!("`{a}` changes the agent's hooks")));
            }
            _ => {}
        }
    }
    None
}

/// The command `codex sandbox <platform> [--] CMD…` (older `codex debug seatbelt|landlock`)
/// runs — judged by this invariant as if run directly, so Codex's sandbox runner is no way
/// around it (the command runs in the same work tree).
fn sandboxed_command(j: &Judge<'_>, argv: &[String]) -> Option<Violation> {
    if program(argv) != "codex" {
        return None;
    }
    let mut words = argv
        .iter()
        .skip(1)
        .map(String::as_str)
        .skip_while(|w| w.starts_with('-'));
    match (words.next()?, words.next()?) {
        ("sandbox", _) | ("debug", "seatbelt" | "landlock") => {}
        _ => return None,
    }
    // Options before the command (`-c KEY=VALUE` takes one); `--` ends them.
    let mut rest: Vec<&str> = Vec::new();
    let mut options = true;
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
        } else if options && w == "--" {
            options = false;
        } else if options && matches!(w, "-c" | "--config") {
            skip = true;
        } else if options && w.starts_with('-') {
        } else {
            options = false;
            rest.push(w);
        }
    }
    if rest.is_empty() {
        return None;
    }
    let code = rest
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ");
    let v = denied_if_run(j, &code, j.facts.cwd.clone())?;
    Some(Violation {
        reason: format!("runs `{}` in Codex's sandbox: {}", rest.join(" "), v.reason),
        ..v
    })
}

/// An agent CLI's own subcommand that rewrites the settings files its hooks live in (or sit
/// beside, in the protected set): `claude config set|add|remove|unset`, `claude mcp
/// add|remove|…` (`~/.claude.json` unless `--scope project`), `codex mcp add|remove`
/// (`~/.codex/config.toml`), `gemini mcp add|remove` (a `settings.json`). The same write as
/// `echo … > ~/.claude.json`, by another hand.
fn settings_subcommand(argv: &[String]) -> Option<String> {
    let p = program(argv);
    let words: Vec<&str> = argv
        .iter()
        .skip(1)
        .map(String::as_str)
        .filter(|w| !w.starts_with('-'))
        .collect();
    let (sub, action) = (words.first().copied()?, words.get(1).copied()?);
    let project_scope = argv
        .windows(2)
        .any(|w| matches!(w[0].as_str(), "-s" | "--scope") && w[1] == "project")
        || argv.iter().any(|a| a == "--scope=project");
    let writes = match (p, sub) {
        ("claude" | "claude-code", "config") => {
            matches!(action, "set" | "add" | "remove" | "unset")
        }
        ("claude" | "claude-code", "mcp") => {
            !project_scope
                && matches!(
                    action,
                    "add"
                        | "add-json"
                        | "remove"
                        | "add-from-claude-desktop"
                        | "reset-project-choices"
                )
        }
        ("codex" | "gemini" | "gemini-cli", "mcp") => matches!(action, "add" | "remove"),
        _ => false,
    };
    writes.then(|| {
        format!(
            "`{p} {sub} {action}` rewrites the agent's settings, where its hooks are configured"
        )
    })
}

/// What inline Claude settings (`--settings '{…}'`, loaded above every settings file) do to
/// the hooks, or `None`: hooks of their own, `disableAllHooks`, or an `env` that sets a
/// `HOOKGATE_*` variable, moves a config location or `PATH` (which hookgate a bare
/// `hookgate` hook command runs) for the session and its hooks.
fn settings_change_hooks(json: &serde_json::Value) -> Option<String> {
    if json
        .get("disableAllHooks")
        .is_some_and(|x| x != &serde_json::Value::Bool(false))
    {
        return Some("switches every hook off".to_owned());
    }
    if json.get("hooks").is_some() {
        return Some("replaces the agent's hooks".to_owned());
    }
    let env = json.get("env").and_then(serde_json::Value::as_object)?;
    let moved = env.keys().find(|k| {
        is_hookgate_var(k) || CONFIG_LOCATION_VARS.contains(&k.as_str()) || k.as_str() == "PATH"
    })?;
    Some(format!(
        "sets `{moved}` for the session's hooks (hookgate's own settings, or which hookgate and config they reach)"
    ))
}

/// A nested agent run (or hookgate itself) that would not be guarded as the user set it up:
/// launched with its config location moved (`HOME=/tmp/x codex exec …`, `XDG_CONFIG_HOME=…
/// claude -p …`, an `export HOME=…` earlier in the line) or with its hooks switched off by
/// its own arguments.
fn agent_relaunch(j: &Judge<'_>) -> Option<Violation> {
    let analysis = j.facts.analysis.as_ref()?;
    let launches: Vec<&hookgate_shell::ExecutedCommand> = analysis
        .commands
        .iter()
        .filter(|c| launches_agent(&c.argv))
        .collect();
    let suggest = "run the agent as configured, or ask the user to start it themselves";
    for c in &launches {
        if let Some(v) = sandboxed_command(j, &c.argv) {
            return Some(v);
        }
    }
    // hookgate's own options are judged by `user_only_action` (the commands that run hooks
    // are the user's); here an option merely naming hooks (`log --hooks`) reads, not changes.
    for c in launches
        .iter()
        .filter(|c| !program(&c.argv).starts_with("hookgate"))
    {
        if let Some((effect, why)) = hooks_switched_off(&c.argv) {
            return Some(
                Violation::new(
                    effect,
                    format!(
                        "starts `{}` with its hooks changed: {why}",
                        program(&c.argv)
                    ),
                )
                .suggest(suggest),
            );
        }
    }
    // A variable set anywhere in the line reaches a later launch when exported, and a
    // launch it prefixes directly: order in the analysis is not source order, so any counts.
    // hookgate's read-only commands (`--version`, `log`, `explain` …: what `user_only_action`
    // leaves to the agent) run no hooks, so a moved config or PATH changes only what they
    // report; its other commands are the user's whatever the environment.
    let first = launches.iter().find(|c| {
        !program(&c.argv).starts_with("hookgate") || user_only_action(&c.argv).is_some()
    })?;
    let moved = analysis.commands.iter().find_map(|c| {
        c.effects
            .iter()
            .filter(|e| e.op == hookgate_shell::EffectOp::SetEnv)
            .filter_map(|e| e.path.as_deref())
            .chain(env_names_set(&c.argv))
            .find(|n| {
                CONFIG_LOCATION_VARS.contains(n)
                    || LAUNCH_VARS.contains(n)
                    || HIJACK_VARS.contains(n)
            })
            .map(str::to_owned)
    })?;
    Some(
        Violation::new(
            Effect::Deny,
            format!(
                "starts `{}` with `{moved}` changed: the nested run would read its hooks and the guard's config, or find the programs its hooks run, somewhere else",
                first.argv.join(" ")
            ),
        )
        .suggest(suggest),
    )
}

fn self_modification(j: &Judge<'_>) -> Option<Violation> {
    if let Some(place) = j.facts.nul {
        return Some(
            Violation::new(
                Effect::Deny,
                format!(
                    "{place} holds a NUL byte: the shell or the kernel would cut it there, so what runs is not what was checked"
                ),
            )
            .suggest("send the command without NUL bytes"),
        );
    }
    let touched = protected_touch(j);
    if let Some(v) = touched.as_ref().filter(|v| v.effect == Effect::Deny) {
        return Some(v.clone());
    }
    let touched = touched.or_else(|| index_write(j));
    if let Some(v) = touched.as_ref().filter(|v| v.effect == Effect::Deny) {
        return Some(v.clone());
    }
    let touched = match tree_move_touch(j) {
        Some(v) if v.effect == Effect::Deny => return Some(v),
        moved => touched.or(moved),
    };
    for check in [
        hookgate_env,
        agent_relaunch,
        direnv_guard_change,
        sourced_hookgate_env,
    ] {
        if let Some(v) = check(j).filter(|v| v.effect == Effect::Deny) {
            return Some(v);
        }
    }
    if let Some(v) = touched
        .or_else(|| hookgate_env(j))
        .or_else(|| agent_relaunch(j))
        .or_else(|| sourced_hookgate_env(j))
    {
        return Some(v);
    }
    for (_, argv) in j.commands() {
        if program(argv) == "hookgate"
            && (argv.iter().any(|a| a == "--remove")
                || matches!(
                    argv.get(1).map(String::as_str),
                    Some("uninstall" | "disable")
                ))
        {
            return Some(Violation::new(
                Effect::Deny,
                format!("would uninstall the guard: `{}`", argv.join(" ")),
            ));
        }
        if let Some((what, suggestion)) = user_only_action(argv) {
            return Some(
                Violation::new(
                    Effect::Deny,
                    format!("would {what} on the user's behalf: `{}`", argv.join(" ")),
                )
                .suggest(suggestion),
            );
        }
    }
    // Nothing placed reaches the protected set; a write whose target is computed at run time
    // might, so it is asked about rather than allowed.
    let unplaced = j.facts.items.iter().flat_map(|i| &i.unplaced).next()?;
    Some(
        Violation::new(
            Effect::Ask,
            format!("writes files it cannot place statically ({unplaced})"),
        )
        .suggest("write to a literal path so the target can be checked"),
    )
}

/// Whether `p` is in hookgate's protected set: under one of its locations, or a catalog
/// location of the agents' hook settings or hookgate's config.
fn is_protected_path(j: &Judge<'_>, p: &Path) -> bool {
    j.protected().iter().any(|root| is_within(p, root))
        || j.classify(&[p.to_path_buf()], Access::Write)
            .iter()
            .any(|m| PROTECTED.contains(&m.category))
}

/// Git commands that would bring another version of a protected file into the work tree:
/// a checkout, merge, rebase, cherry-pick, bisect or stash whose answer (looked up by the
/// caller, see the `treemove` module) names one is denied; one whose answer could not be had,
/// or whose target cannot be placed before it runs, is asked about.
///
/// Invariant protected: `no-governance-self-modification` holds against the indirect write
/// through git (`git update-index --cacheinfo …` + `git commit`, then `git checkout other &&
/// git checkout -`), not only against the direct spellings.
fn tree_move_touch(j: &Judge<'_>) -> Option<Violation> {
    use crate::treemove::TreeAnswer;
    let mut asked: Option<Violation> = None;
    for q in j.tree_moves() {
        let unknown = match &q.mv {
            Err(why) => Some(format!(
                "`{}` replaces work-tree files with versions that cannot be checked before it runs ({why}); hookgate's protected set could change",
                q.shown
            )),
            Ok(mv) => match &mv.answer {
                None => None,
                Some(TreeAnswer::Unknown { why }) => Some(format!(
                    "could not tell which files `{}` would change ({why}); hookgate's protected set could be among them",
                    q.shown
                )),
                Some(TreeAnswer::Paths { paths }) => {
                    if let Some(p) = paths.iter().find(|p| is_protected_path(j, p)) {
                        return Some(
                            Violation::new(
                                Effect::Deny,
                                format!(
                                    "`{}` would change {}, which is part of hookgate's protected set: the version it brings differs from the one in force",
                                    q.shown,
                                    p.display()
                                ),
                            )
                            .suggest("ask the user to run it themselves; to take other files from that commit, name them (`git checkout REV -- PATHS`)"),
                        );
                    }
                    None
                }
            },
        };
        if let Some(reason) = unknown {
            asked.get_or_insert_with(|| {
                Violation::new(Effect::Ask, reason).suggest(
                    "run it as its own command in this repository, so what it changes can be checked",
                )
            });
        }
    }
    asked
}

/// The protected path a git pathspec given in `dir` names or matches, if any: a path (the
/// file or a directory of them), git's default glob (`*` and `?` cross `/`: `'.cla*'` matches
/// `.claude/settings.json`) and the `:/`/`:(top)` magic (from the top of the project; other
/// magic words are read through, `icase` folding case). A whole-tree spec (`.`) names the
/// top, which is not itself protected.
fn pathspec_protected(j: &Judge<'_>, dir: &Path, spec: &str) -> Option<PathBuf> {
    let (base, fold, text) = match spec.strip_prefix(':') {
        Some(rest) if rest.starts_with('(') => {
            let end = rest.find(')')?;
            let magic = &rest[1..end];
            let top = magic.split(',').any(|m| m == "top");
            let base = if top { j.ctx.workspace.as_path() } else { dir };
            (
                base,
                magic.split(',').any(|m| m == "icase"),
                &rest[end + 1..],
            )
        }
        Some(rest) if rest.starts_with('/') => (j.ctx.workspace.as_path(), false, &rest[1..]),
        // `:!x` / `:^x` exclude: they name nothing taken out.
        Some(rest) if rest.starts_with(['!', '^']) => return None,
        Some(rest) => (dir, false, rest),
        None => (dir, false, spec),
    };
    if fold || text.contains(['*', '?', '[']) {
        // A spec matching a leading directory of a path matches the path (`:(icase).CLAUDE`).
        let text = text.trim_end_matches('/');
        return j.protected().iter().find_map(|p| {
            let rel = p.strip_prefix(base).ok()?.to_string_lossy().into_owned();
            let mut prefixes = rel.match_indices('/').map(|(k, _)| &rel[..k]);
            (crate::action::find::fnmatch(text, &rel, fold)
                || prefixes.any(|d| crate::action::find::fnmatch(text, d, fold)))
            .then(|| p.clone())
        });
    }
    let p = hookgate_paths::normalize(text, base, j.ctx.home.as_deref()).path;
    is_protected_path(j, &p).then_some(p)
}

/// `git update-index` writing the index entry of a protected file (`--cacheinfo
/// MODE,SHA,PATH`, `--add PATH`, `--assume-unchanged PATH`, …): the first step of rewriting
/// it through a commit, or of hiding a change to it from `git status`. Denied; entries read
/// from standard input (`--index-info`, `--stdin`) cannot be placed and are asked about, as
/// are trees and commits built from raw objects (`mktree`, `commit-tree`, `fast-import`).
///
/// With these closed, a commit can carry another version of a protected file only through a
/// path write the guard judges (`git add` of the file in force, a patch, a merge it looked
/// up), so what arrives from a remote (`git pull`) is not asked about: it was pushed by
/// people, or made through those checked steps.
///
/// Invariant protected: `no-governance-self-modification`.
fn index_write(j: &Judge<'_>) -> Option<Violation> {
    let analysis = j.facts.analysis.as_ref()?;
    for command in &analysis.commands {
        let argv = &command.argv;
        if program(argv) != "git" {
            continue;
        }
        let rest = match git_sub(argv) {
            Some(("update-index", rest)) => rest,
            // `git rm --cached` of a protected file or a directory of them: the file stays,
            // the next commit records it gone, and every checkout, stash or pull of that
            // commit removes it (from this work tree or a teammate's).
            Some(("rm", rest))
                if rest
                    .iter()
                    .take_while(|a| *a != "--")
                    .any(|a| a == "--cached") =>
            {
                let cwd = command.cwd.path(&j.facts.cwd).unwrap_or(&j.facts.cwd);
                // `git -C .claude rm --cached settings.json` names the file from there.
                let dir = crate::worktree::git_subcommand(argv, cwd, j.ctx.home.as_deref())
                    .map_or_else(|| cwd.to_path_buf(), |(d, _, _)| d);
                let dir = dir.as_path();
                if rest
                    .iter()
                    .take_while(|a| *a != "--")
                    .any(|a| a == "--pathspec-from-file" || a.starts_with("--pathspec-from-file="))
                {
                    return Some(
                        Violation::new(
                            Effect::Ask,
                            format!(
                                "`{}` takes paths out of git's index from a list it reads, which may name hookgate's protected set",
                                argv.join(" ")
                            ),
                        )
                        .suggest("name the paths on the command line"),
                    );
                }
                let mut after_dashes = false;
                let named = rest.iter().find_map(|w| {
                    if w == "--" && !after_dashes {
                        after_dashes = true;
                        return None;
                    }
                    if !after_dashes && w.starts_with('-') {
                        return None;
                    }
                    pathspec_protected(j, dir, w)
                });
                if let Some(p) = named {
                    return Some(
                        Violation::new(
                            Effect::Deny,
                            format!(
                                "`{}` would take {} out of git's index, which is part of hookgate's protected set (the next commit records it deleted, and checkouts, stashes and pulls of that commit remove it)",
                                argv.join(" "),
                                p.display()
                            ),
                        )
                        .suggest("ask the user to make this change themselves"),
                    );
                }
                continue;
            }
            // Trees and commits built from objects of the caller's choosing: what they hold
            // cannot be read off the line, and a later checkout, merge or pull brings it in.
            Some((sub @ ("mktree" | "commit-tree" | "fast-import"), _)) => {
                return Some(
                    Violation::new(
                        Effect::Ask,
                        format!(
                            "`git {sub}` builds history from objects it is given, which cannot be checked against hookgate's protected set (a commit made this way can carry another version of the agent hook settings)"
                        ),
                    )
                    .suggest("commit with `git add` and `git commit`, whose content is checked"),
                );
            }
            _ => continue,
        };
        let cwd = command.cwd.path(&j.facts.cwd).unwrap_or(&j.facts.cwd);
        let dir = crate::worktree::git_subcommand(argv, cwd, j.ctx.home.as_deref())
            .map_or_else(|| cwd.to_path_buf(), |(d, _, _)| d);
        let dir = dir.as_path();
        let mut named: Vec<&str> = Vec::new();
        let mut from_stdin = false;
        let mut words = rest.iter();
        while let Some(w) = words.next() {
            match w.as_str() {
                "--cacheinfo" => {
                    let Some(first) = words.next() else { break };
                    if let Some((_, path)) =
                        first.split_once(',').and_then(|(_, r)| r.split_once(','))
                    {
                        named.push(path);
                    } else {
                        words.next();
                        if let Some(path) = words.next() {
                            named.push(path);
                        }
                    }
                }
                "--index-info" | "--stdin" => from_stdin = true,
                "--chmod" | "--info-only" | "--" => {}
                w if w.starts_with('-') => {}
                w => named.push(w),
            }
        }
        if let Some(p) = named
            .iter()
            .map(|n| hookgate_paths::normalize(n, dir, j.ctx.home.as_deref()).path)
            .find(|p| is_protected_path(j, p))
        {
            return Some(
                Violation::new(
                    Effect::Deny,
                    format!(
                        "`{}` would change the index entry of {}, which is part of hookgate's protected set (the next commit, checkout or stash writes it)",
                        argv.join(" "),
                        p.display()
                    ),
                )
                .suggest("ask the user to make this change themselves"),
            );
        }
        if from_stdin {
            return Some(
                Violation::new(
                    Effect::Ask,
                    format!(
                        "`{}` writes index entries read from standard input, which cannot be checked against hookgate's protected set",
                        argv.join(" ")
                    ),
                )
                .suggest("name the paths with `git add` instead"),
            );
        }
    }
    None
}

/// What a `hookgate` command only the user may run would do (and what to suggest instead),
/// or `None`.
///
/// Fail closed: a subcommand is open to the agent only when it is known to read (or only
/// tighten); every other one, a subcommand a later version adds included, is the user's.
///
/// Writing an allowance or a trust pin loosens the guard; `doctor --fix` writes the agents'
/// own trust of hookgate's hooks (Codex's project trust, Copilot's trusted folders); `init`
/// rewrites the agents' hook settings; pruning erases the audit trail; undoing or resetting
/// snapshots rewrites the work tree from hookgate's own store. `run` and `test` execute tool
/// calls — a scripted model's or a scenario's — under hooks of the command line's choosing
/// (`--config`, `--hook-*`), so a script could write `.claude/settings.json` where no agent
/// hook sees it; `ship-webhook`/`ship-otel` hand a record of the caller's making to the
/// user's sinks as if it were recorded. These are the user's decisions, never the agent's.
/// Listing, checking, diffing, revoking and `--help` only read or tighten and stay open — but
/// only when they are real options: the argv is read as clap reads it ([`hookgate_options`]),
/// so `hookgate allow --always 'cmd' -- --list` (where `--list` is an allowance target) is
/// the user's too.
///
/// `hook` and `fire` are the agents' own plumbing, never a command for an agent's tool call:
/// a payload the agent crafts itself (any agent, any session id) would be recorded as that
/// agent's call, change that session's state that later decisions read (tests passed, a
/// package install done, notes already shown), use up the user's `--once` allowance, and run
/// the configured hooks (their counters, snapshots, webhooks; with `fire --config/--add`, any
/// command, unseen by the analyzer). `explain` shows the same answer and writes nothing, so it
/// stays open.
fn user_only_action(argv: &[String]) -> Option<(&'static str, &'static str)> {
    const ASK_USER: &str = "ask the user to run it themselves if they want this call through";
    // Named as the agents' hook commands are recognised (`hookgate`, `hookgate-x86_64` …).
    if !program(argv).starts_with("hookgate") {
        return None;
    }
    // `hookgate` alone prints its help; `--help`/`--version` before a subcommand print.
    let sub = argv.get(1)?.as_str();
    if matches!(sub, "--help" | "-h" | "--version" | "-V") {
        return None;
    }
    let rest = argv.get(2..).unwrap_or_default();
    // Each command's options that take a value (which is then not an option itself), and
    // those whose value is optional (taken when it does not start with `-`).
    let (takes, optional): (&[&str], &[&str]) = match sub {
        "allow" => (&["--for", "--revoke"], &["--project"]),
        "init" => (&["--project", "--timeout"], &[]),
        "prune" => (&["--older-than", "--max-size"], &[]),
        "snapshot" => (&["--dir", "--session", "--keep"], &[]),
        "hook" => (
            &[
                "--input",
                "--fail-mode",
                "--ask-fallback",
                "--store",
                "--policy",
            ],
            &[],
        ),
        "fire" => (&["--config", "--disable", "--add", "--input"], &[]),
        "run" => (RUN_OPTIONS_WITH_VALUE, &[]),
        _ => (&[], &[]),
    };
    let options = hookgate_options(rest, takes, optional);
    // An exemption needs the exact option; a loosening option counts in any spelling
    // (`--fix=…` is refused by clap, or read as `--fix`: either way not the agent's).
    let has = |name: &str| options.contains(&name);
    let any = |name: &str| {
        options.iter().any(|o| {
            o.strip_prefix(name)
                .is_some_and(|r| r.is_empty() || r.starts_with('='))
        })
    };
    if has("--help") || has("-h") {
        return None;
    }
    match sub {
        "allow" if !has("--list") && !has("--revoke") => {
            Some(("change hookgate's allowances", ASK_USER))
        }
        "prune" => Some(("erase hookgate's audit trail", ASK_USER)),
        "trust" if !has("--list") && !has("--status") && !has("--revoke") => Some((
            "trust a project's hookgate config",
            "ask the user to review the project's .hookgate/ and run `hookgate trust` themselves",
        )),
        "doctor" if any("--fix") => Some((
            "write the agents' trust of hookgate's hooks (`doctor --fix`)",
            "run `hookgate doctor` to see what is missing, and ask the user to run `hookgate doctor --fix`",
        )),
        "init" if !has("--dry-run") => Some((
            "change the agents' hook settings",
            "ask the user to run `hookgate init` themselves (`--dry-run` shows what it would change)",
        )),
        // The action may come after options with values (`--dir D undo`), so any word
        // `undo`/`reset` counts: a value that happens to be one is denied, never the reverse.
        "snapshot" if rest.iter().any(|a| a == "undo" || a == "reset") => Some((
            "undo or reset the work tree from hookgate's snapshots",
            ASK_USER,
        )),
        // What is left of those only lists, checks or tightens; the views and checks only
        // read (`report --html FILE` writes FILE, judged as that write).
        "allow" | "trust" | "doctor" | "init" | "snapshot" | "explain" | "log" | "inspect"
        | "stats" | "report" | "policy" | "config" | "events" | "scan-secrets" | "completions"
        | "man" => None,
        "run" => Some((
            "run an agent session whose tool calls execute under hooks of its own choosing, unseen by this guard",
            "do the work through your own tool calls, or ask the user to run `hookgate run` themselves",
        )),
        "test" => Some((
            "run scenario files whose scripted tool calls execute for real, unseen by this guard",
            "`hookgate policy test` checks expected decisions without running anything; ask the user to run `hookgate test`",
        )),
        // `hook-unfinished` is what a crashed hook process becomes: run by hand it writes an
        // audit record (and ships it) for a crash that never happened.
        "ship-webhook" | "ship-otel" | "hook-unfinished" => Some((
            "send an audit record of its own making to the user's sinks",
            "`hookgate log` shows the recorded decisions",
        )),
        "hook" => Some((
            "feed hookgate a hook call of its own making (recorded, changing session state and using up allowances as a real call would)",
            "`hookgate explain --payload FILE` (or `hookgate explain 'COMMAND'`) shows the same answer and changes nothing",
        )),
        "fire" => Some((
            "fire the configured hooks with an event of its own making (they act, count and are recorded as for a real one)",
            "`hookgate config check` lists the hooks; `hookgate explain --payload FILE` shows what a call would get, changing nothing",
        )),
        _ => Some((
            "run a hookgate command not known to only read",
            "`hookgate --help` lists the commands; read-only ones (explain, log, stats, inspect, policy check, doctor) are open",
        )),
    }
}

/// `hookgate run`'s options that take a value, so a value spelled `--help` is not read as
/// the help option.
const RUN_OPTIONS_WITH_VALUE: &[&str] = &[
    "--model",
    "--config",
    "--approval",
    "--max-iterations",
    "--resume",
    "--follow-up",
    "--steer",
    "--agent",
    "--loop-threshold",
    "--compact-at",
    "--context-limit",
    "--max-tool-result-bytes",
    "--hook-pre-tool-use",
    "--hook-post-tool-use",
    "--hook-session-start",
    "--hook-session-end",
    "--hook-on-user-input",
    "--hook-stop",
];

/// The options of a `hookgate` command line after its subcommand, as clap reads them: words
/// before a `--` that start with `-` (a lone `-` is a value). An option in `takes` or
/// `optional` is named without its `=value`, and the word after it (for `optional`, when it
/// does not start with `-`) is its value, not an option; any other option is the word as
/// written (`--list=x` is not `--list`). Everything after `--` is a positional argument.
fn hookgate_options<'a>(rest: &'a [String], takes: &[&str], optional: &[&str]) -> Vec<&'a str> {
    let mut options = Vec::new();
    let mut words = rest.iter().map(String::as_str).peekable();
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        if !word.starts_with('-') || word == "-" {
            continue;
        }
        let with_value = |name: &str| takes.contains(&name) || optional.contains(&name);
        if let Some((name, _)) = word.split_once('=').filter(|(name, _)| with_value(name)) {
            options.push(name);
            continue;
        }
        options.push(word);
        if takes.contains(&word)
            || (optional.contains(&word) && words.peek().is_some_and(|next| !next.starts_with('-')))
        {
            words.next();
        }
    }
    options
}

const LOCKFILES: &[&str] = &[
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "bun.lock",
    "Cargo.lock",
    "poetry.lock",
    "Pipfile.lock",
    "uv.lock",
    "composer.lock",
    "Gemfile.lock",
    "go.sum",
];

fn lockfile_integrity(j: &Judge<'_>) -> Option<Violation> {
    let from_file_tool = j.facts.tool.is_some_and(|t| t.kind != ToolKind::Shell);
    if from_file_tool
        && let Some(p) = j
            .writes()
            .iter()
            .find(|p| LOCKFILES.contains(&file_name(p)))
    {
        return Some(
            Violation::new(
                Effect::Ask,
                format!("hand-edits a lockfile: {}", p.display()),
            )
            .suggest("change the manifest and let the package manager update the lockfile"),
        );
    }
    if j.kinds(ActionKind::GitCommit).next().is_some()
        && let Some(m) = j.state.manifests_pending_install.first()
    {
        return Some(
            Violation::new(
                Effect::Ask,
                format!(
                    "commits {m} changed without a package install since (lockfile may be stale)"
                ),
            )
            .suggest("run the package manager's install to refresh the lockfile"),
        );
    }
    None
}

fn is_container_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "dockerfile"
        || lower.starts_with("dockerfile.")
        || lower.ends_with(".dockerfile")
        || lower == "containerfile"
        || lower.starts_with("containerfile.")
        || lower == ".dockerignore"
        || lower == "docker-bake.hcl"
        || ((lower.starts_with("docker-compose")
            || lower.starts_with("compose.")
            || lower.starts_with("podman-compose"))
            && Path::new(&lower)
                .extension()
                .is_some_and(|e| e == "yml" || e == "yaml"))
}

/// Text that, written into a container definition, gives the container the host: privileged
/// mode, the runtime socket, host namespaces, added capabilities, devices, relaxed security
/// profiles, the host's root mounted.
const CONTAINER_ESCALATION: &[&str] = &[
    "privileged",
    "docker.sock",
    "podman.sock",
    "containerd.sock",
    "cap_add",
    "cap-add",
    "sys_admin",
    "network_mode",
    "network=host",
    "net=host",
    "pid: host",
    "pid=host",
    "ipc: host",
    "ipc=host",
    "userns",
    "security_opt",
    "security-opt",
    "seccomp",
    "apparmor",
    "devices",
    "--device",
    "/:/",
    "/var/run",
];

/// A write of a container definition whose text brings none of [`CONTAINER_ESCALATION`]
/// into the file, when that text is known: a Write or Edit tool's content, or the text a
/// shell line spells out (`printf … >> .dockerignore`, a here-doc into `compose.yaml`). The
/// lines it writes that the file does not already hold (all of them for a new file) are the
/// inserted text, judged by the same list as `sed -i`'s inserted text — so a Write of
/// `docker-compose.yml`, a here-doc into it and a `sed -i` of it agree (one judgement for one
/// effect, whatever the tool). Text not known (`cp /tmp/x.yml docker-compose.yml`, a
/// download) keeps the ask. The file is read only with file-system facts on and up to
/// [`MAX_SCRIPT_FILE`] bytes; what cannot be read counts as empty (every written line is
/// then inserted text, the stricter reading).
fn plain_file_tool_write(j: &Judge<'_>, p: &Path) -> bool {
    use std::io::Read as _;
    let Some(texts) = written_texts(j, p) else {
        return false;
    };
    let mut old = String::new();
    if j.ctx.follow_symlinks
        && let Ok(f) = std::fs::File::open(p)
    {
        let mut bytes = Vec::new();
        if f.take(MAX_SCRIPT_FILE).read_to_end(&mut bytes).is_ok() {
            old = String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    let held: std::collections::HashSet<&str> = old.lines().map(str::trim).collect();
    let yaml = p
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"));
    texts.iter().all(|text| {
        text.lines()
            .map(str::trim)
            .filter(|l| !held.contains(l))
            .all(|l| {
                let lower = l.to_ascii_lowercase();
                let escalates = CONTAINER_ESCALATION.iter().any(|m| lower.contains(m));
                !(escalates || yaml && yaml_indirection(l))
            })
    })
}

/// A compose line that can spell a key the text check would not see: an escape in a quoted
/// scalar (`"privil\u0065ged": true`), a merge (`<<: *x`), an anchor or alias (`&x`, `*x`)
/// bringing in what another part of the file defines. (Dockerfiles have no such spelling:
/// their `\` continues a line, `&&` chains commands.)
fn yaml_indirection(line: &str) -> bool {
    line.contains('\\')
        || line.contains("<<")
        || line.split_whitespace().any(|w| {
            let w = w.trim_start_matches(['-', '[', '{', ',']);
            (w.starts_with('&') || w.starts_with('*'))
                && w[1..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// The text each writer of `p` puts there, when every one of them is known: the file tool's
/// content, or the text each shell command writing `p` spells out. `None` when any writer's
/// text is unknown (a copy, a download, a computed value) or nothing writes `p`.
pub(crate) fn written_texts<'j>(j: &'j Judge<'_>, p: &Path) -> Option<Vec<&'j str>> {
    if let Some(tool) = j.facts.tool
        && matches!(tool.kind, ToolKind::Write | ToolKind::Edit)
    {
        return tool.content.as_deref().map(|c| vec![c]);
    }
    let analysis = j.facts.analysis.as_ref()?;
    let mut out = Vec::new();
    for item in &j.facts.items {
        if !item
            .paths
            .iter()
            .any(|u| u.op != PathOp::Read && u.path == p)
        {
            continue;
        }
        let text = item
            .command
            .and_then(|k| analysis.commands.get(k))
            .and_then(|c| c.writes.as_ref())
            .filter(|t| t.exact)?;
        out.push(text.text.as_str());
    }
    (!out.is_empty()).then_some(out)
}

/// `sed -i 's/3.8/3.9/' docker-compose.yml`: an in-place substitution whose inserted text
/// (parsed from the sed script) brings none of [`CONTAINER_ESCALATION`] into the file. A
/// script that runs commands, writes other files or cannot be read is not excused.
fn plain_in_place_edit(argv: &[String]) -> bool {
    if !matches!(program(argv), "sed" | "gsed") {
        return false;
    }
    let words = argv.get(1..).unwrap_or(&[]);
    let in_place = words.iter().any(|a| {
        a.starts_with("--in-place")
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
    });
    let mut scripts: Vec<&str> = Vec::new();
    let mut it = words.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-e" | "--expression" => scripts.extend(it.next().map(String::as_str)),
            "-f" | "--file" => return false,
            s if s.starts_with("--expression=") => {
                scripts.push(s.trim_start_matches("--expression="));
            }
            s if s.starts_with("--file=") => return false,
            _ => {}
        }
    }
    if scripts.is_empty() {
        scripts.extend(operands(argv).first().copied());
    }
    in_place
        && !scripts.is_empty()
        && scripts.iter().all(|script| {
            hookgate_shell::sed_inserted_text(script).is_some_and(|texts| {
                texts.iter().all(|t| {
                    let lower = t.to_ascii_lowercase();
                    !CONTAINER_ESCALATION.iter().any(|m| lower.contains(m))
                })
            })
        })
}

/// `yq -i '.services.web.ports = ["3001:3000"]' docker-compose.yml`: an in-place yq edit whose
/// whole expression — every key it names and every value it sets — brings none of
/// [`CONTAINER_ESCALATION`], judged by the same list as `sed -i`'s inserted text and a Write's
/// new lines. Only the plain form: the flags that change neither input nor expression (`-i`,
/// `-P`, `-y`, colour and output switches), an optional `e`/`eval` subcommand, one expression,
/// files. An expression that pulls text from elsewhere (`load(…)`, `env(…)`, `strenv(…)`,
/// `$ENV`, `eval(…)`, `file`-reading operators), one read from a file (`--from-file`), any
/// other option, and an expression with an escape or anchor (`\u0070rivileged`, `<<`) keep the
/// ask.
fn plain_yq_edit(argv: &[String]) -> bool {
    if program(argv) != "yq" {
        return false;
    }
    let mut in_place = false;
    let mut operands: Vec<&str> = Vec::new();
    for a in argv.get(1..).unwrap_or(&[]) {
        match a.as_str() {
            "-i" | "--inplace" | "--in-place" => in_place = true,
            "-P" | "--prettyPrint" | "-y" | "--yaml-output" | "-Y" | "--yaml-roundtrip" | "-M"
            | "--no-colors" | "-C" | "--colors" | "-N" | "--no-doc" | "-r" | "--raw-output" => {}
            o if o.starts_with('-') && o.len() > 1 => return false,
            o => operands.push(o),
        }
    }
    if matches!(operands.first(), Some(&("e" | "eval"))) {
        operands.remove(0);
    }
    let Some(expression) = operands.first() else {
        return false;
    };
    let lower = expression.to_ascii_lowercase();
    in_place
        && operands.len() > 1
        && !CONTAINER_ESCALATION.iter().any(|m| lower.contains(m))
        && !yaml_indirection(expression)
        && !yq_reads_elsewhere(&lower)
}

/// Whether a yq expression calls an operator that brings in text the line does not hold:
/// `load*(…)` (another file), `env`/`strenv`/`envsubst`/`$ENV` (the environment), `eval`
/// (an expression computed at run time), jq's `input`/`include`. Names are read as the
/// expression's identifiers outside its string literals (`.services.web.env_file = ".env"`
/// names `env_file`, and `".env"` is a value).
fn yq_reads_elsewhere(expression: &str) -> bool {
    let mut outside = String::with_capacity(expression.len());
    let mut quoted = false;
    let mut escaped = false;
    for c in expression.chars() {
        if quoted {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
            outside.push(' ');
        } else if c == '"' {
            quoted = true;
            outside.push(' ');
        } else {
            outside.push(c);
        }
    }
    quoted
        || outside
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .any(|t| {
                t.starts_with("load")
                    || matches!(
                        t,
                        "env"
                            | "strenv"
                            | "envsubst"
                            | "$env"
                            | "eval"
                            | "input"
                            | "inputs"
                            | "include"
                            | "import"
                    )
            })
}

fn container_config(j: &Judge<'_>) -> Option<Violation> {
    let p = j.writes().iter().find(|p| {
        is_container_file(file_name(p))
            && !shell_writers(j, p)
                .is_some_and(|w| w.iter().all(|a| plain_in_place_edit(a) || plain_yq_edit(a)))
            && !plain_file_tool_write(j, p)
    })?;
    Some(Violation::new(
        Effect::Ask,
        format!("modifies container configuration: {}", p.display()),
    ))
}

const SECRET_NAME_PARTS: &[&str] = &[
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "API_KEY",
    "APIKEY",
    "ACCESS_KEY",
    "PRIVATE_KEY",
    "CREDENTIAL",
];
const HIJACK_VARS: &[&str] = &[
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
    "DYLD_INSERT_LIBRARIES",
    "DYLD_LIBRARY_PATH",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "NODE_OPTIONS",
    "PYTHONSTARTUP",
    "PERL5OPT",
    "RUBYOPT",
    "GIT_SSH_COMMAND",
];

fn env_var_modification(j: &Judge<'_>) -> Option<Violation> {
    if let Some(m) = first_match(j.write_matches(), &[Category::ShellProfile]) {
        return Some(Violation::new(
            Effect::Ask,
            format!("modifies a shell profile: {}", describe_match(m)),
        ));
    }
    if let Some(p) = j
        .writes()
        .iter()
        .find(|p| *p == Path::new("/etc/environment"))
    {
        return Some(Violation::new(
            Effect::Ask,
            format!("modifies {}", p.display()),
        ));
    }
    for (_, argv) in j.commands() {
        let shell_local = matches!(program(argv), "export" | "declare" | "typeset");
        let names: Vec<&str> = match program(argv) {
            "export" | "declare" | "typeset" => argv[1..]
                .iter()
                .filter(|a| !a.starts_with('-'))
                .filter_map(|a| a.split_once('=').map(|(n, _)| n))
                .collect(),
            "setx" => argv.get(1).map(String::as_str).into_iter().collect(),
            "launchctl" if argv.get(1).is_some_and(|s| s == "setenv") => {
                argv.get(2).map(String::as_str).into_iter().collect()
            }
            "systemctl" if argv.iter().any(|a| a == "set-environment") => argv
                .iter()
                .filter_map(|a| a.split_once('=').map(|(n, _)| n))
                .collect(),
            _ => Vec::new(),
        };
        if let Some(name) = names.into_iter().find(|n| {
            let upper = n.to_ascii_uppercase();
            (HIJACK_VARS.contains(&upper.as_str()) && !only_tunes_runtime(n, argv))
                || (SECRET_NAME_PARTS.iter().any(|s| upper.contains(s))
                    && !(shell_local && literal_value(n, argv)))
        }) {
            return Some(Violation::new(
                Effect::Ask,
                format!("sets environment variable `{name}`: `{}`", argv.join(" ")),
            ));
        }
    }
    None
}

/// Whether every `name=value` in `argv` for `name` assigns a value written out on the line
/// (no `$…` expansion, no command substitution): `export OPENAI_API_KEY=sk-…` in the agent's
/// own shell hands a key the transcript already shows to the commands that follow — nothing
/// is disclosed and nothing runs differently, so it is not asked about. A value computed at
/// run time (`export TOKEN=$(gh auth token)`, `TOKEN=$AWS_SECRET`) moves a credential the
/// agent has not seen and keeps the question; so do the persistent setters (`setx`,
/// `launchctl setenv`, `systemctl set-environment`), which outlive the session.
fn literal_value(name: &str, argv: &[String]) -> bool {
    every_value(name, argv, |v| !v.contains(['$', '`']))
}

/// Whether `argv` assigns `name` at least once (`name=value`) and every value passes `ok`.
fn every_value(name: &str, argv: &[String], ok: impl Fn(&str) -> bool) -> bool {
    let mut values = argv
        .iter()
        .filter_map(|a| a.split_once('='))
        .filter(|(n, _)| *n == name)
        .peekable();
    values.peek().is_some() && values.all(|(_, v)| ok(v))
}

/// Whether every `name=value` in `argv` for a runtime's options variable (`NODE_OPTIONS`,
/// `RUBYOPT`, `PERL5OPT`) sets only tuning options, judged by the shell analyzer's own
/// option tables so this invariant and `rce.env_hijack` agree: `--max-old-space-size=4096`
/// is not an environment hijack, `--require x` (or anything not parsed) still is.
fn only_tunes_runtime(name: &str, argv: &[String]) -> bool {
    every_value(name, argv, |v| {
        hookgate_shell::option_variable_loads_code(name, v) == Some(false)
    })
}

fn in_migration_dir(p: &Path) -> bool {
    let c = components(p);
    c.iter()
        .any(|s| matches!(*s, "migrations" | "migration" | "migrate" | "versions"))
}

/// Destructive DDL or migration-DSL calls, case-insensitive, outside SQL comments.
fn destructive_ddl(content: &str) -> Option<String> {
    let mut text = String::with_capacity(content.len());
    for line in content.lines() {
        let line = line.split("--").next().unwrap_or("");
        text.push_str(line);
        text.push('\n');
    }
    let upper = text.to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .filter(|w| !w.is_empty())
        .collect();
    for w in words.windows(2) {
        match (w[0], w[1]) {
            ("DROP", "TABLE" | "DATABASE" | "SCHEMA" | "COLUMN" | "VIEW" | "INDEX") => {
                return Some(format!("{} {}", w[0], w[1]));
            }
            ("TRUNCATE", _) => return Some("TRUNCATE".into()),
            _ => {}
        }
    }
    for dsl in [
        "DROP_TABLE",
        "REMOVE_COLUMN",
        "DROPTABLE",
        "DROPCOLUMN",
        "MIGRATIONS.DELETEMODEL",
        "MIGRATIONS.REMOVEFIELD",
        "OP.DROP_TABLE",
        "OP.DROP_COLUMN",
    ] {
        if words
            .iter()
            .any(|w| *w == dsl || w.ends_with(&format!(".{dsl}")))
        {
            return Some(dsl.to_ascii_lowercase());
        }
    }
    None
}

fn destructive_migration(j: &Judge<'_>) -> Option<Violation> {
    let content = j.facts.content()?;
    let p = j.writes().iter().find(|p| in_migration_dir(p))?;
    let what = destructive_ddl(content)?;
    Some(
        Violation::new(
            Effect::Ask,
            format!("migration {} contains `{what}`", p.display()),
        )
        .suggest("make the migration reversible or back the data up first"),
    )
}

fn is_shell_script(p: &Path, content: &str) -> bool {
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(ext, "sh" | "bash" | "zsh" | "ksh" | "command")
        || content.lines().next().is_some_and(|l| {
            l.starts_with("#!")
                && (l.contains("sh") && !l.contains("python") && !l.contains("node"))
        })
        // Not `.envrc`: direnv runs it only once approved, and it is judged there
        // (`direnv_approval`).
        || matches!(file_name(p), ".bashrc" | ".zshrc" | ".profile")
        || components(p)
            .windows(2)
            .any(|w| w[0] == "hooks" && (w[1].starts_with("pre-") || w[1].starts_with("post-")))
}

fn transitive_effect(j: &Judge<'_>) -> Option<Violation> {
    if let Some(v) = nested_agent(j) {
        return Some(v);
    }
    if let Some(v) = direnv_approval(j) {
        return Some(v);
    }
    // What is written where: a file tool's content into each path it writes, and the text a
    // shell command writes (`cat > Makefile <<EOF`, `printf … > build.sh`) into its targets.
    let mut written: Vec<(&Path, &str)> = Vec::new();
    if let Some(content) = j.facts.content() {
        written.extend(j.writes().iter().map(|p| (p.as_path(), content)));
    }
    if let Some(analysis) = j.facts.analysis.as_ref() {
        for item in &j.facts.items {
            let Some(text) = item
                .command
                .and_then(|k| analysis.commands.get(k))
                .and_then(|c| c.writes.as_ref())
            else {
                continue;
            };
            written.extend(
                item.paths
                    .iter()
                    .filter(|u| u.op == PathOp::Write)
                    .map(|u| (u.path.as_path(), text.text.as_str())),
            );
        }
    }
    let sctx = j.ctx.shell_context(j.facts.cwd.clone());
    // An edit is judged by the file it leaves where that can be known (the new text alone is
    // a fragment): only the code the edit brings in counts, so an ordinary edit of a file
    // that already held something flagged is not blamed for it.
    let edited = |p: &Path| {
        j.facts
            .tool
            .filter(|t| t.kind == hookgate_core::canonical::ToolKind::Edit)
            .and_then(|t| crate::loaded::edited_text(p, &t.input))
    };
    for (p, content) in written {
        if let Some((before, after)) = edited(p) {
            let old: Vec<String> = crate::loaded::written_code(p, &before)
                .into_iter()
                .map(|l| l.code)
                .collect();
            for l in crate::loaded::written_code(p, &after) {
                if old.contains(&l.code) {
                    continue;
                }
                let denied = deferred_self_modification(j, p, &l.code);
                let Some(v) = loaded_violation(&l, denied, &sctx) else {
                    continue;
                };
                // A whole source file changes as one unit: flagged before the edit too, the
                // edit did not bring it in (its new text is still judged below).
                let was = l.whole_file
                    && crate::loaded::written_code(p, &before).iter().any(|b| {
                        loaded_violation(b, deferred_self_modification(j, p, &b.code), &sctx)
                            .is_some()
                    });
                if !was {
                    return Some(v);
                }
            }
        }
        for l in crate::loaded::written_code(p, content) {
            let denied = deferred_self_modification(j, p, &l.code);
            if let Some(v) = loaded_violation(&l, denied, &sctx) {
                return Some(v);
            }
        }
        if is_shell_script(p, content) {
            let script = crate::loaded::Loaded {
                code: content.to_owned(),
                what: format!("the script {}", p.display()),
                whole_file: false,
                contained: false,
            };
            let denied = deferred_self_modification(j, p, content);
            // The script knows its own path (`$0`): `cd "$(dirname "$0")/.."` is read.
            let mut script_ctx = sctx.clone();
            script_ctx.script = Some(p.display().to_string());
            if let Some(v) = loaded_violation(&script, denied, &script_ctx) {
                return Some(v);
            }
        }
        if file_name(p) == ".envrc"
            && let Some(v) = deferred_self_modification(j, p, content)
        {
            // Its other code is judged when direnv approves it; code that would change the
            // guard is never something to approve later.
            return Some(Violation::new(
                Effect::Ask,
                format!("{}, when approved, {}", p.display(), v.reason),
            ));
        }
    }
    // Runners about to load files by convention (`make -f Makefile.local`, `pytest` and its
    // `conftest.py` files): what those files hold now, read from disk, judged as if run, so
    // code staged by an earlier call (or planted by other means) is seen when it runs.
    if let Some(analysis) = j.facts.analysis.as_ref() {
        for item in &j.facts.items {
            let Some(c) = item.command.and_then(|k| analysis.commands.get(k)) else {
                continue;
            };
            let Some(cwd) = c.cwd.path(&j.facts.cwd) else {
                continue;
            };
            let k = item.command.unwrap_or_default();
            let stdin = analysis
                .stdin_files
                .iter()
                .find(|(at, _)| *at == k)
                .map(|(_, f)| f.as_path());
            let stdin_text = c.stdin.as_ref().map(|t| t.text.as_str());
            // A task runner the analyzer peeled as a wrapper (`pdm run test` is `test` via
            // `pdm run`; `nix-shell --run CMD` is CMD via `nix-shell`) loads its own files
            // first: the runner's argv is given back for them.
            let argv: Vec<String> = match c.via.last().map(String::as_str) {
                Some(v @ ("pdm run" | "hatch run" | "rye run")) => v
                    .split_whitespace()
                    .map(str::to_owned)
                    .chain(c.argv.iter().cloned())
                    .collect(),
                Some("nix-shell") => {
                    vec!["nix-shell".to_owned(), "--run".to_owned(), c.argv.join(" ")]
                }
                _ => c.argv.clone(),
            };
            for l in
                crate::loaded::runner_loads(&argv, cwd, stdin, stdin_text, j.ctx.home.as_deref())
            {
                let denied = denied_if_run(j, &l.code, cwd.to_path_buf());
                if let Some(v) = loaded_violation(&l, denied, &sctx) {
                    return Some(v);
                }
            }
        }
    }
    None
}

/// What shell code kept in a file (`file`) would do when run, judged as if run: the same
/// judgement for a script written now ([`transitive_effect`]) and one run now
/// ([`script_execution`]).
enum Deferred {
    /// It would modify the guard (the reason says how).
    SelfModification(String),
    /// The shell analyzer matched a dangerous taxonomy entry (its reason).
    Dangerous(String),
    /// Something could not be resolved statically (computed command, parse error, limit).
    Unresolved,
    /// Read-only or ordinary work.
    Ordinary,
}

fn judge_deferred_code(j: &Judge<'_>, file: &Path, code: &str) -> Deferred {
    if let Some(v) = deferred_self_modification(j, file, code) {
        return Deferred::SelfModification(v.reason);
    }
    let mut sctx = j.ctx.shell_context(j.facts.cwd.clone());
    // Run as a program, the script's `$0` is its path (`cd "$(dirname "$0")/.."` is read).
    // Sourced (`source F`, `. F`), `$0` stays the calling shell's: not bound when the line
    // sources anything.
    if !j
        .commands()
        .any(|(_, argv)| matches!(program(argv), "source" | "."))
    {
        sctx.script = Some(file.display().to_string());
    }
    let a = hookgate_shell::analyze(code, &sctx);
    match a.verdict.class {
        hookgate_shell::Class::Dangerous => Deferred::Dangerous(a.verdict.reason),
        hookgate_shell::Class::Unknown => Deferred::Unresolved,
        hookgate_shell::Class::Safe | hookgate_shell::Class::Normal => Deferred::Ordinary,
    }
}

/// `direnv allow`/`exec`/`export`: the `.envrc` it approves or loads runs now (see
/// `dotenv::direnv_approvals`), so it is judged as the script it is — in its directory, with
/// direnv's `PATH_add` read as the `PATH` prepend it is — where writing it was not.
fn direnv_approval(j: &Judge<'_>) -> Option<Violation> {
    for (_, envrc, text) in crate::dotenv::direnv_approvals(j.facts, j.ctx.home.as_deref()) {
        let Some(text) = text else {
            return Some(Violation::new(
                Effect::Ask,
                format!(
                    "direnv approves or loads {}, and what it will hold cannot be known",
                    envrc.display()
                ),
            ));
        };
        let dir = crate::dotenv::envrc_dir(&envrc);
        let sctx = j.ctx.shell_context(dir);
        if let Some((action, why)) = crate::dotenv::envrc_danger(&text, &sctx) {
            // Approving runs it now: what the analyzer would refuse on the command line is
            // refused here too.
            let effect = if action == ShellAction::Deny {
                Effect::Deny
            } else {
                Effect::Ask
            };
            return Some(Violation::new(
                effect,
                format!(
                    "direnv would run dangerous code from {}: {why}",
                    envrc.display()
                ),
            ));
        }
    }
    None
}

/// `direnv allow`/`exec`/`export` of an `.envrc` that would change the guard when run: the
/// approval runs it, so it is the change itself (denied, under the locked invariant), as a
/// write of that code into the guard's files would be.
fn direnv_guard_change(j: &Judge<'_>) -> Option<Violation> {
    crate::dotenv::direnv_approvals(j.facts, j.ctx.home.as_deref())
        .into_iter()
        .find_map(|(_, envrc, text)| {
            let dir = crate::dotenv::envrc_dir(&envrc);
            let v = denied_if_run(j, &text?, dir)?;
            Some(Violation {
                reason: format!("direnv would run {}, which {}", envrc.display(), v.reason),
                ..v
            })
        })
}

/// The question about code a runner will load (written now, or on disk as a runner starts):
/// what the locked invariant would deny if it ran (`denied`), else the analyzer's danger
/// ([`crate::loaded::placed_danger`]). Asked, not denied: the code has not run yet, and the
/// user may have meant it.
fn loaded_violation(
    l: &crate::loaded::Loaded,
    denied: Option<Violation>,
    sctx: &hookgate_shell::Context,
) -> Option<Violation> {
    if l.contained {
        let reason = crate::loaded::contained_danger(&hookgate_shell::analyze(&l.code, sctx))?;
        return Some(Violation::new(
            Effect::Ask,
            format!("{} would send data off the machine: {reason}", l.what),
        ));
    }
    if let Some(v) = denied {
        return Some(Violation::new(
            Effect::Ask,
            format!("{}, when run, {}", l.what, v.reason),
        ));
    }
    let reason =
        crate::loaded::placed_danger(&hookgate_shell::analyze(&l.code, sctx), l.whole_file)?;
    Some(Violation::new(
        Effect::Ask,
        format!("{} would run dangerous code: {reason}", l.what),
    ))
}

/// What `no-governance-self-modification` would deny if `code`, written into `file`, ran:
/// a Makefile recipe, a package script, a shell script or git hook that deletes or rewrites
/// the protected set waits for a later `make`/`npm test`/commit that shows none of it. Judged
/// where the code would run: the file's directory (a git hook: the repository root).
fn deferred_self_modification(j: &Judge<'_>, file: &Path, code: &str) -> Option<Violation> {
    let dir = if components(file).windows(2).any(|w| w == [".git", "hooks"]) {
        j.ctx.workspace.clone()
    } else {
        file.parent()
            .map_or_else(|| j.facts.cwd.clone(), Path::to_path_buf)
    };
    denied_if_run(j, code, dir)
}

/// What this invariant denies in the shell command line `code` run in `dir` (code a call
/// writes or hands to another runner, judged as if run directly), or `None`.
fn denied_if_run(j: &Judge<'_>, code: &str, dir: PathBuf) -> Option<Violation> {
    let tool = shell_call(code);
    let facts = Facts::of_shell(&tool, dir, j.ctx);
    let nested = Judge::new(&facts, j.ctx, j.state, j.settings);
    self_modification(&nested).filter(|v| v.effect == Effect::Deny)
}

/// A nested agent session started from the agent's shell (`claude -p …`, `codex exec …`,
/// `npx @google/gemini-cli …`), hooks as configured: its tool calls are guarded, but as a new
/// session under its own permission flags — what this session's state knows (files written,
/// tests run, the session blast radius) starts over, and the hand-off itself is the effect.
/// Asked, not denied, and not under the locked invariant, so `hookgate allow` can let an
/// orchestrating workflow through; a launch that changes the nested agent's hooks or config
/// location is `no-governance-self-modification`'s (denied). `--help`/`--version` only print.
fn nested_agent(j: &Judge<'_>) -> Option<Violation> {
    // Management subcommands start no session (those that write settings are denied by the
    // locked invariant first); `codex sandbox` runs a command and stays asked.
    const MANAGEMENT: &[&str] = &[
        "config",
        "mcp",
        "doctor",
        "update",
        "upgrade",
        "login",
        "logout",
        "auth",
        "completion",
        "completions",
        "help",
        "features",
        "extensions",
        "plugin",
        "plugins",
    ];
    let (_, argv) = j.commands().find(|(_, argv)| {
        let first = argv.iter().skip(1).find(|a| !a.starts_with('-'));
        let only_prints = argv.len() > 1
            && argv
                .iter()
                .skip(1)
                .all(|a| matches!(a.as_str(), "--help" | "-h" | "--version" | "-v" | "-V"));
        let management = first.is_some_and(|w| MANAGEMENT.contains(&w.as_str()));
        launches_agent(argv)
            && !program(argv).starts_with("hookgate")
            && !management
            && !only_prints
    })?;
    Some(
        Violation::new(
            Effect::Ask,
            format!(
                "starts a nested agent session (`{}`): its calls are guarded as a new session, under its own permission flags, with this session's state left behind",
                argv.join(" ")
            ),
        )
        .suggest("do the work in this session, or ask the user to start the agent themselves"),
    )
}

/// The host of a URL or bare `host[:port]/path`.
fn host_of(target: &str) -> Option<String> {
    let rest = target.split_once("://").map_or(target, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| h.trim_start_matches('['))?
    } else {
        host.split(':').next()?
    };
    let valid = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'));
    valid.then(|| host.to_ascii_lowercase())
}

fn host_allowed(host: &str, allow: &[String]) -> bool {
    allow.iter().any(|a| {
        let a = a.trim_start_matches("*.").to_ascii_lowercase();
        host == a || host.ends_with(&format!(".{a}"))
    })
}

fn network_egress(j: &Judge<'_>) -> Option<Violation> {
    let allow = j.settings.network_allowlist.as_ref()?;
    for i in j.kinds(ActionKind::NetFetch) {
        let action = &j.facts.actions[i];
        let from_shell = j.facts.items[i].command.is_some();
        if action.targets.is_empty() {
            if from_shell {
                return Some(Violation::new(
                    Effect::Ask,
                    format!(
                        "network request to an undeterminable host: `{}`",
                        action.argv.join(" ")
                    ),
                ));
            }
            continue; // a web search: no URL of the agent's choosing
        }
        for t in &action.targets {
            match host_of(t) {
                Some(h) if host_allowed(&h, allow) => {}
                Some(h) => {
                    return Some(
                        Violation::new(
                            Effect::Deny,
                            format!("network egress to `{h}` is not on network_allowlist"),
                        )
                        .suggest("add the host to network_allowlist if it is expected"),
                    );
                }
                None => {
                    return Some(Violation::new(
                        Effect::Ask,
                        format!("network request to an undeterminable host: `{t}`"),
                    ));
                }
            }
        }
    }
    None
}

const IDE_SOCKET_PREFIXES: &[&str] = &[
    "vscode-ipc-",
    "vscode-git-",
    "vscode-ssh-auth-",
    "cursor-ipc-",
    "windsurf-ipc-",
    "jetbrains_",
    "pycharm_",
    "intellij_",
];

fn ide_word(w: &str) -> bool {
    w.split('/').any(|c| {
        IDE_SOCKET_PREFIXES.iter().any(|p| c.starts_with(p))
            || c.contains("VSCODE_IPC_HOOK")
            || c.contains("VSCODE_GIT_IPC_HANDLE")
    })
}

fn ide_socket(j: &Judge<'_>) -> Option<Violation> {
    let in_paths = j
        .facts
        .items
        .iter()
        .flat_map(|i| &i.paths)
        .find(|p| ide_word(&p.path.to_string_lossy()))
        .map(|p| p.path.to_string_lossy().into_owned());
    let in_args = || {
        j.commands()
            .filter(|(_, a)| !matches!(program(a), "echo" | "printf"))
            .find_map(|(_, a)| a[1..].iter().find(|w| ide_word(w)).cloned())
    };
    let hit = in_paths.or_else(in_args)?;
    Some(Violation::new(
        Effect::Deny,
        format!("touches an IDE IPC socket ({hit}), which can run commands in the editor"),
    ))
}

fn commit_scope(j: &Judge<'_>) -> Option<Violation> {
    let i = j.kinds(ActionKind::GitCommit).next()?;
    let argv = j.facts.argv(i)?;
    let (_, rest) = git_sub(argv)?;
    let info = commit_info(rest);
    // Pathspecs are relative to where git runs (as from the call's cwd when unknown).
    let dir = j.facts.command_dir(i).unwrap_or(&j.facts.cwd);
    let mut candidates: Vec<PathBuf> = info
        .paths
        .iter()
        .map(|p| hookgate_paths::normalize(p, dir, j.ctx.home.as_deref()).path)
        .collect();
    if let Some(staged) = &j.ctx.staged_files {
        candidates.extend(
            staged
                .iter()
                .map(|p| hookgate_paths::normalize(p, &j.ctx.workspace, None).path),
        );
    }
    let foreign: Vec<String> = candidates
        .iter()
        .filter(|p| !j.is_written_in_session(p))
        .map(|p| p.display().to_string())
        .collect();
    if foreign.is_empty() {
        return None;
    }
    let shown: Vec<&str> = foreign.iter().take(5).map(String::as_str).collect();
    Some(
        Violation::new(
            Effect::Ask,
            format!(
                "commits {} file(s) this session did not write: {}{}",
                foreign.len(),
                shown.join(", "),
                if foreign.len() > 5 { ", …" } else { "" }
            ),
        )
        .suggest("commit only the files you changed"),
    )
}

const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "python2", "node", "deno",
    "bun", "ruby", "perl", "php", "lua", "Rscript", "pwsh", "tsx", "ts-node", "zx", "source", ".",
];

/// Compile-and-run commands and source launchers: the source file they run and the language
/// it is read in (`go run x.go`, `java X.java`, `kotlin x.main.kts`, `dotnet script x.csx`,
/// `zig run x.zig`, `tcc -run x.c`, `crystal run x.cr`, `runghc x.hs`, …). The file is a
/// script like any the line runs, so write-then-execute judges its content.
fn source_run(argv: &[String]) -> Option<(&String, &'static str)> {
    let prog = program(argv);
    let rest = argv.get(1..)?;
    // The language a source file of this extension is read in, when `prog` runs it.
    let lang = |f: &str| -> Option<&'static str> {
        let ext = f.rsplit_once('.').map(|(_, e)| e)?;
        Some(match ext {
            "go" if prog == "go" => "go",
            "java" if prog == "java" => "java",
            "kts" | "kt" if matches!(prog, "kotlin" | "kotlinc") => "kotlin",
            "csx" | "cs" if matches!(prog, "dotnet" | "dotnet-script") => "csharp",
            "ml" if prog == "ocaml" => "ocaml",
            "zig" if prog == "zig" => "zig",
            "v" if matches!(prog, "v" | "vlang") => "v",
            "dart" if prog == "dart" => "dart",
            "cr" if prog == "crystal" => "crystal",
            "nim" | "nims" if prog == "nim" => "nim",
            "d" if prog == "rdmd" => "d",
            "hs" if matches!(prog, "runghc" | "runhaskell") => "haskell",
            "swift" if prog == "swift" => "swift",
            "sc" | "scala" if matches!(prog, "scala" | "scala-cli" | "amm") => "scala",
            "groovy" if prog == "groovy" => "groovy",
            "rs" if prog == "rust-script" => "rust-script",
            "jl" if prog == "julia" => "julia",
            "exs" | "ex" if prog == "elixir" => "elixir",
            "c" if prog == "tcc" => "c",
            // `cmake -P x.cmake` runs a CMake script (`file(REMOVE_RECURSE …)`,
            // `execute_process`); no reader for CMake: written on the line or earlier, it asks.
            "cmake" if prog == "cmake" => "cmake",
            _ => return None,
        })
    };
    rest.iter()
        .filter(|a| !a.starts_with('-'))
        .find_map(|a| lang(a).map(|l| (a, l)))
}

fn script_execution(j: &Judge<'_>) -> Option<Violation> {
    for (i, argv) in j.commands() {
        let prog = program(argv);
        let parsed;
        let source = source_run(argv);
        let script: Option<&String> = if let Some((file, _)) = source {
            Some(file)
        } else if argv.first().is_some_and(|p| p.contains('/')) {
            argv.first()
        } else if matches!(prog, "perl" | "ruby") {
            // Clusters (`-pe CODE`, `-i.bak`) need the real option parser.
            parsed = crate::action::perl_ruby_args(prog, &argv[1..]);
            parsed.script.as_ref()
        } else if INTERPRETERS.contains(&prog) {
            // Flags that take inline code instead of a script file, per interpreter family
            // (`sh -e` is errexit, `perl -e` is code).
            let inline: &[&str] = match prog {
                "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish" | "pwsh" => &["-c", "-Command"],
                "python" | "python3" | "python2" => &["-c", "-m"],
                "node" | "deno" | "bun" | "tsx" | "ts-node" | "zx" => {
                    &["-e", "-p", "--eval", "--print", "eval"]
                }
                "php" => &["-r"],
                _ => &["-e", "-E"],
            };
            if argv[1..].iter().any(|a| inline.contains(&a.as_str())) {
                None
            } else {
                argv[1..]
                    .iter()
                    .find(|a| !a.starts_with('-') && a.as_str() != "run")
            }
        } else {
            None
        };
        // A build tool running a package the session wrote into (`go run ./cmd/tool`,
        // `cargo test`, `pytest tests/`): the written sources are judged by their text.
        if source.is_none()
            && let Some(v) = package_run(j, i, argv)
        {
            return Some(v);
        }
        // pytest imports and runs the test modules it is given (`pytest tests/test_env.py`,
        // `python -m pytest tests/test_x.py::test_y`): each is a Python script it runs.
        let test_modules = pytest_modules(argv);
        let scripts: Vec<&str> = match script {
            Some(s) if test_modules.is_empty() => vec![s.as_str()],
            _ => test_modules,
        };
        // Where the command runs (as from the call's cwd when the line's directory is unknown).
        let dir = j.facts.command_dir(i).unwrap_or(&j.facts.cwd);
        for script in scripts {
            let p = hookgate_paths::normalize(script, dir, j.ctx.home.as_deref()).path;
            if !j.content_written_in_session(&p) {
                continue;
            }
            // A program this session built (`go build -o /tmp/tool ./cmd/tool`, then
            // `/tmp/tool`): the run of its packages, judged as `go run` of them is.
            // Only a package of the workspace (outside `.git`), as on one line.
            if source.is_none()
                && script == argv[0].as_str()
                && let Some(run) = j.state.built_run(&p.to_string_lossy())
                && run.get(2).is_some_and(|pkg| {
                    is_within(Path::new(pkg), &j.ctx.workspace)
                        && !is_within(Path::new(pkg), &j.ctx.workspace.join(".git"))
                })
                && !j.content_written_on_line(&p)
            {
                let run = run.to_vec();
                if let Some(v) = package_run(j, i, &run) {
                    return Some(v);
                }
                continue;
            }
            // `source F` / `. F` run F as shell code in the current shell.
            let by_shell = SHELLS.contains(&prog) || matches!(prog, "source" | ".");
            // Run through an interpreter (`python3 x.py`), that interpreter reads it; run
            // directly (`./x.py`), its shebang or extension says which; pytest imports Python.
            let interpreter = if let Some((_, lang)) = source {
                Some(lang)
            } else if prog == "pytest" || prog == "py.test" || argv.iter().any(|a| a == "pytest") {
                Some("python3")
            } else {
                INTERPRETERS.contains(&prog).then_some(prog)
            };
            match script_content(j, i, &p, by_shell, interpreter) {
                Some(Deferred::Ordinary) => continue,
                Some(Deferred::SelfModification(reason)) => {
                    return Some(
                        Violation::new(
                            Effect::Ask,
                            format!(
                                "runs {}, which this session wrote and which {reason}",
                                p.display()
                            ),
                        )
                        .suggest("show the script to the user before running it"),
                    );
                }
                Some(Deferred::Dangerous(reason)) => {
                    return Some(
                        Violation::new(
                            Effect::Ask,
                            format!(
                                "runs {}, which this session wrote and which would run dangerous \
                             code: {reason}",
                                p.display()
                            ),
                        )
                        .suggest("show the script to the user before running it"),
                    );
                }
                Some(Deferred::Unresolved) | None => {}
            }
            return Some(
                Violation::new(
                    Effect::Ask,
                    format!(
                        "runs {}, which this session wrote (write-then-execute)",
                        p.display()
                    ),
                )
                .suggest("show the script to the user before running it"),
            );
        }
    }
    None
}

/// The test modules a pytest command line names (`pytest tests/test_a.py::test_b -q`,
/// `python3 -m pytest tests/test_c.py`, `uv run pytest …`): operands ending in `.py`, the
/// `::node` part dropped. Empty for anything else.
fn pytest_modules(argv: &[String]) -> Vec<&str> {
    let Some(at) = argv.iter().position(|a| {
        let base = a.rsplit('/').next().unwrap_or(a);
        base == "pytest" || base == "py.test"
    }) else {
        return Vec::new();
    };
    argv[at + 1..]
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(|a| a.split("::").next().unwrap_or(a))
        .filter(|a| {
            Path::new(a)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("py"))
        })
        .collect()
}

/// Most session-written sources of one package run that are read for their text: the
/// session's written-file list is bounded already, this bounds the reading per call.
const MAX_PACKAGE_SOURCES: usize = 24;

/// The source files a package-running command runs whose content this session wrote, and
/// the language they are read in: `go run|test PKG…` (a package is its directory's `.go`
/// files, `DIR/...` every package below it), `cargo run|test|bench` (the workspace's `.rs`
/// files outside `target/`), `pytest DIR…` / `pytest` alone (test modules and `conftest.py`
/// below the directories, the cwd when none is named). Empty for anything else.
///
/// Why: a package directory names no file, so write-then-execute, which judges the script a
/// command names, never saw the code an agent wrote into `cmd/tool/main.go` and then ran
/// with `go run ./cmd/tool` (or `go build` + run): that is the same program as a script
/// run. The normal development loop (edit, then test) must stay quiet, so only what the
/// text shows is dangerous asks (see [`package_run`]).
fn package_sources(j: &Judge<'_>, i: usize, argv: &[String]) -> Vec<(PathBuf, &'static str)> {
    let prog = program(argv);
    let dir = j.facts.command_dir(i).unwrap_or(&j.facts.cwd);
    let home = j.ctx.home.as_deref();
    let verb = argv.iter().skip(1).find(|a| !a.starts_with('-'));
    // (directory, recursive, language, which files of the directory run)
    let mut roots: Vec<(PathBuf, bool)> = Vec::new();
    let lang: &'static str;
    let mut tests_only = false;
    match (prog, verb.map(String::as_str)) {
        ("go", Some(v @ ("run" | "test"))) => {
            lang = "go";
            let at = argv.iter().position(|a| a == v).unwrap_or(0);
            for w in argv[at + 1..].iter().filter(|a| !a.starts_with('-')) {
                if !(w == "." || w.starts_with("./") || w.starts_with("../") || w.starts_with('/'))
                {
                    // `go run` stops at its package: the rest are the program's arguments.
                    if v == "run" && !roots.is_empty() {
                        break;
                    }
                    continue;
                }
                let (w, deep) = w
                    .strip_suffix("/...")
                    .map_or((w.as_str(), false), |r| (r, true));
                roots.push((hookgate_paths::normalize(w, dir, home).path, deep));
                if v == "run" {
                    break;
                }
            }
            if roots.is_empty() {
                roots.push((dir.to_path_buf(), false));
            }
        }
        ("cargo", Some("run" | "test" | "bench" | "t" | "r")) => {
            lang = "rust";
            roots.push((j.ctx.workspace.clone(), true));
        }
        _ if argv.iter().any(|a| {
            let b = base_name(a);
            b == "pytest" || b == "py.test"
        }) && pytest_modules(argv).is_empty() =>
        {
            lang = "python3";
            tests_only = true;
            let at = argv
                .iter()
                .position(|a| matches!(base_name(a), "pytest" | "py.test"))
                .unwrap_or(0);
            for w in argv[at + 1..].iter().filter(|a| !a.starts_with('-')) {
                let p = hookgate_paths::normalize(w, dir, home).path;
                if p.extension().is_none() {
                    roots.push((p, true));
                }
            }
            if roots.is_empty() {
                roots.push((dir.to_path_buf(), true));
            }
        }
        _ => return Vec::new(),
    }
    let ext = match lang {
        "go" => "go",
        "rust" => "rs",
        _ => "py",
    };
    let target = j.ctx.workspace.join("target");
    let mut out = Vec::new();
    for written in &j.state.written_files {
        let p = Path::new(written);
        if p.extension().and_then(|e| e.to_str()) != Some(ext)
            || !j.state.wrote_content(written)
            || (lang == "rust" && is_within(p, &target))
        {
            continue;
        }
        let name = file_name(p);
        if tests_only
            && !(name == "conftest.py" || (name.starts_with("test_") || name.ends_with("_test.py")))
        {
            continue;
        }
        let inside = roots.iter().any(|(root, deep)| {
            if *deep {
                is_within(p, root)
            } else {
                p.parent() == Some(root.as_path())
            }
        });
        if inside && out.len() < MAX_PACKAGE_SOURCES {
            out.push((p.to_path_buf(), lang));
        }
    }
    out
}

/// Write-then-execute for package runs ([`package_sources`]): a session-written source
/// whose text would modify the guard or run placed dangerous code asks, as the same code run
/// as a script does. Code the reader cannot place (the normal shape of a program: paths
/// from arguments, computed values) stays quiet here — editing a package and running its
/// tests is the development loop, and asking for every one would teach users to click
/// through; the danger the text shows is what this rule exists to catch.
fn package_run(j: &Judge<'_>, i: usize, argv: &[String]) -> Option<Violation> {
    for (p, lang) in package_sources(j, i, argv) {
        let why = match script_content(j, i, &p, false, Some(lang)) {
            Some(Deferred::SelfModification(reason)) => reason,
            Some(Deferred::Dangerous(reason)) => format!("would run dangerous code: {reason}"),
            Some(Deferred::Ordinary | Deferred::Unresolved) | None => continue,
        };
        return Some(
            Violation::new(
                Effect::Ask,
                format!(
                    "`{}` runs {}, which this session wrote and which {why}",
                    argv.iter()
                        .take(3)
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join(" "),
                    p.display()
                ),
            )
            .suggest("show the code to the user before running it"),
        );
    }
    None
}

/// The words of `go build …` after `build`: the `-o` value and the operands, options and their
/// values skipped by [`GO_BUILD_VALUE`]; `None` when an option of [`GO_BUILD_ELSEWHERE`] is
/// there (the build is not of the packages its words name). One reading for the same-line
/// ([`go_build_from_line`]) and the later-call ([`go_build_output`]) judgements.
fn go_build_words(argv: &[String]) -> Option<(Option<&str>, Vec<&str>)> {
    let at = argv.iter().position(|a| a == "build")?;
    let mut out = None;
    let mut operands = Vec::new();
    let mut it = argv[at + 1..].iter();
    while let Some(w) = it.next() {
        if !w.starts_with('-') {
            operands.push(w.as_str());
            continue;
        }
        let flag = w.trim_start_matches('-');
        let (name, value) = flag
            .split_once('=')
            .map_or((flag, None), |(n, v)| (n, Some(v)));
        let name = format!("-{name}");
        if GO_BUILD_ELSEWHERE.contains(&name.as_str()) {
            return None;
        }
        let value = match value {
            Some(v) => Some(v),
            None if GO_BUILD_VALUE.contains(&name.as_str()) => Some(it.next()?.as_str()),
            None => None,
        };
        if name == "-o" {
            out = value;
        }
    }
    Some((out, operands))
}

/// `go build -o OUT [FLAGS] [PKG…]` run in `dir`: the output's absolute path and the `go
/// run` it stands for (`["go", "run", ABS_PKG]`; one package: a build of several with `-o`
/// writes a directory, which is not recorded). `None` for anything else: another verb, no
/// `-o`, an option of [`GO_BUILD_ELSEWHERE`], a package named by import path, a run-time
/// word. The option tables are the ones the same-line reading ([`go_build_from_line`]) uses.
pub(crate) fn go_build_output(
    argv: &[String],
    dir: &Path,
    home: Option<&Path>,
) -> Option<(String, Vec<String>)> {
    if program(argv) != "go" || argv.get(1).map(String::as_str) != Some("build") {
        return None;
    }
    if argv.iter().any(|a| a.contains(['$', '`', '*', '?'])) {
        return None;
    }
    let (out, pkgs) = go_build_words(argv)?;
    let out = out?;
    let pkg = match pkgs.as_slice() {
        [] => ".",
        [p] if *p == "." || p.starts_with("./") || p.starts_with("../") || p.starts_with('/') => p,
        _ => return None,
    };
    let out = hookgate_paths::normalize(out, dir, home).path;
    let pkg = hookgate_paths::normalize(pkg, dir, home).path;
    Some((
        out.to_string_lossy().into_owned(),
        vec![
            "go".to_owned(),
            "run".to_owned(),
            pkg.to_string_lossy().into_owned(),
        ],
    ))
}

/// Shells whose script argument is shell code.
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh"];

/// Largest script read to judge what it does when run; a larger one keeps the ask.
const MAX_SCRIPT_FILE: u64 = 256 * 1024;

/// The judgement of a script this session wrote, from its content on disk now, when it can be
/// had: file-system facts on, the file written by an earlier call (one written earlier on
/// this line is not on disk yet), a regular file of at most [`MAX_SCRIPT_FILE`] bytes of
/// UTF-8 text, and shell code (run by a shell, or run directly with a shell shebang or
/// extension). `None` keeps the ask: other languages, binaries, anything unreadable.
///
/// Time of check to time of use: the content is read when the call is judged and the script
/// runs later; whatever changes the file in between (a background job of an earlier call, a
/// process outside the session) is not seen. The guard sees every write the agent makes
/// through its tools, and a rewrite of the script is itself a judged call (its new content
/// judged by `transitive-effect-analysis`), so the window is writes from outside the session
/// — which could as well rewrite any file the agent runs.
fn script_on_disk(
    j: &Judge<'_>,
    p: &Path,
    by_shell: bool,
    interpreter: Option<&str>,
) -> Option<Deferred> {
    use std::io::Read as _;
    if !j.ctx.follow_symlinks || j.content_written_on_line(p) {
        return None;
    }
    let file = std::fs::File::open(p).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_SCRIPT_FILE {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT_FILE + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.contains(&0) || u64::try_from(bytes.len()).ok()? > MAX_SCRIPT_FILE {
        return None;
    }
    let code = String::from_utf8(bytes).ok()?;
    judge_script_text(j, p, &code, by_shell, interpreter)
}

/// The judgement of `code` run as the script `p`. Run by a shell, the file is shell code
/// whatever it is called; run directly, its shebang or extension says so. A source file of a
/// language the analyzer reads is judged as the one-liner of its text (`python3 -c TEXT`),
/// so the interpreter grammars read it — the same reading a `python3 -c` on the command line
/// gets. Other languages keep the ask (`None`).
fn judge_script_text(
    j: &Judge<'_>,
    p: &Path,
    code: &str,
    by_shell: bool,
    interpreter: Option<&str>,
) -> Option<Deferred> {
    // Run directly (no interpreter named), a text file without a `#!` line is run by the
    // calling shell as shell code (execve's ENOEXEC fallback).
    let shell_fallback = interpreter.is_none() && !code.starts_with("#!");
    // A PowerShell script run by its path without a `#!` line is run by PowerShell when the
    // caller is PowerShell (`pwsh -c './x.ps1'`) and by `sh` when it is a POSIX shell: both
    // readings are judged and the worse one stands.
    let powershell_file = p
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("ps1") || e.eq_ignore_ascii_case("psm1"));
    if shell_fallback
        && !by_shell
        && powershell_file
        && let Some(line) = crate::loaded::script_line(Some("pwsh"), p, code)
    {
        let rank = |d: &Deferred| match d {
            Deferred::Ordinary => 0,
            Deferred::Unresolved => 1,
            Deferred::SelfModification(_) => 2,
            Deferred::Dangerous(_) => 3,
        };
        let as_shell = judge_deferred_code(j, p, code);
        let as_powershell = judge_deferred_source(j, p, &line);
        return Some(if rank(&as_powershell) > rank(&as_shell) {
            as_powershell
        } else {
            as_shell
        });
    }
    if by_shell || shell_fallback || is_shell_script(p, code) {
        return Some(judge_deferred_code(j, p, code));
    }
    let line = crate::loaded::script_line(interpreter, p, code)?;
    Some(judge_deferred_source(j, p, &line))
}

/// The judgement of the script `p` that the command of item `run` runs: by what this very
/// line puts there when the line writes it ([`script_from_line`]), else by its content on
/// disk now ([`script_on_disk`]). `None` keeps the write-then-execute ask.
fn script_content(
    j: &Judge<'_>,
    run: usize,
    p: &Path,
    by_shell: bool,
    interpreter: Option<&str>,
) -> Option<Deferred> {
    // What the line shows needs no file-system facts (a lexical judgement reads it too).
    if j.content_written_on_line(p) {
        return script_from_line(j, run, p, by_shell, interpreter);
    }
    if !j.ctx.follow_symlinks {
        return None;
    }
    script_on_disk(j, p, by_shell, interpreter)
}

/// Programs whose output file is made from the files they read: a copy (`cp`, `install`)
/// or a compiler (`cc -o /tmp/t tests/t.c`). Running what they made from workspace files
/// runs the workspace's code, as running those files in place does.
const DERIVERS: &[&str] = &[
    "cp", "install", "cc", "c++", "gcc", "g++", "clang", "clang++", "rustc", "tcc",
];

/// Options of C-family compilers and `rustc` that take their value as the next word.
const COMPILER_VALUE: &[&str] = &[
    "-o",
    "-I",
    "-L",
    "-D",
    "-U",
    "-l",
    "-x",
    "-include",
    "-isystem",
    "-iquote",
    "-MF",
    "-MT",
    "-MQ",
    "--target",
    "--edition",
    "--crate-name",
    "--crate-type",
    "--cfg",
    "--extern",
    "--out-dir",
    "--emit",
    "-C",
];

/// The input files a compiler line names: its operands, option values skipped. `None` when
/// it reads something the words do not name (`-` for standard input, `@file` response files).
fn compiler_inputs(argv: &[String]) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut skip = false;
    for w in argv.iter().skip(1) {
        if skip {
            skip = false;
        } else if w == "-" || w.starts_with('@') {
            return None;
        } else if COMPILER_VALUE.contains(&w.as_str()) {
            skip = true;
        } else if !w.starts_with('-') {
            out.push(w.as_str());
        }
    }
    Some(out)
}

/// The judgement of a script this line writes before it runs it (`echo 'print(1)' >
/// /tmp/t.py && python3 /tmp/t.py`, `cat > /tmp/x.sh <<EOF … EOF; bash /tmp/x.sh`, `cp
/// scripts/build.sh /tmp/b.sh && bash /tmp/b.sh`, `gcc -o /tmp/t tests/t.c && /tmp/t`).
///
/// Invariant (write-then-execute is judged by the content that runs): exactly one command
/// of the line writes `p`, it comes before the runner, no link is made at `p`, and what it
/// writes is known whole —
/// - text the line spells out exactly that replaces the file (`>`, `tee` without options,
///   or an append to a file that is absent): judged as the script;
/// - or the output of a [`DERIVERS`] program whose every input is a workspace file outside
///   `.git` and the sensitive catalog: ordinary when the session did not write those inputs,
///   else a plain copy is judged by its one source's content on disk (a compile of code the
///   session wrote keeps the ask).
///
/// Anything else — a download (`curl -o /tmp/x`), text with a run-time part, an input
/// outside the workspace, two writers — keeps the ask (`None`).
fn script_from_line(
    j: &Judge<'_>,
    run: usize,
    p: &Path,
    by_shell: bool,
    interpreter: Option<&str>,
) -> Option<Deferred> {
    let facts = j.facts;
    let analysis = facts.analysis.as_ref()?;
    let runner = facts.items.get(run)?.command?;
    if facts.links.iter().any(|(_, link, _)| link == p) {
        return None;
    }
    let mut maker = None;
    for (i, item) in facts.items.iter().enumerate() {
        let writes = item
            .paths
            .iter()
            .filter(|u| u.op != PathOp::Read && !u.metadata)
            .any(|u| facts.candidates(i, u).iter().any(|c| c == p));
        if writes {
            let by = item.command?;
            if maker.is_some_and(|m| m != by) || !item.unplaced.is_empty() {
                return None;
            }
            maker = Some(by);
        }
    }
    let made_by = maker.filter(|m| *m < runner)?;
    let cmd = analysis.commands.get(made_by)?;
    if let Some(text) = &cmd.writes {
        let replaces = match cmd.argv.first().map(String::as_str) {
            Some(">") => true,
            Some(">>") => crate::provenance::absent(p),
            Some(tee) if base_name(tee) == "tee" => {
                cmd.argv[1..].iter().all(|a| !a.starts_with('-'))
            }
            _ => false,
        };
        if !text.exact || !replaces {
            return None;
        }
        return judge_script_text(j, p, &text.text, by_shell, interpreter);
    }
    let prog = program(&cmd.argv);
    if prog == "go" {
        return go_build_from_line(j, made_by, runner, &cmd.argv);
    }
    if !DERIVERS.contains(&prog) {
        return None;
    }
    let pctx = j.path_ctx();
    let mut sources = Vec::new();
    for (i, item) in facts.items.iter().enumerate() {
        if item.command != Some(made_by) {
            continue;
        }
        for u in item.paths.iter().filter(|u| u.op == PathOp::Read) {
            if u.raw.contains(['*', '?', '[']) {
                return None;
            }
            sources.extend(facts.candidates(i, u));
        }
    }
    if sources.is_empty() && prog != "cp" && prog != "install" {
        let dir = facts.command_cwd(made_by).unwrap_or(&facts.cwd);
        sources = compiler_inputs(&cmd.argv)?
            .into_iter()
            .map(|w| hookgate_paths::normalize(w, dir, j.ctx.home.as_deref()).path)
            .collect();
    }
    // A compile of one source file the session wrote (`echo '…' > /tmp/a.rs && rustc -o
    // /tmp/a /tmp/a.rs && /tmp/a`): what runs is that source's program, judged by its text
    // in the language it is written in (C, C++ and Rust are read for their calls).
    if !matches!(prog, "cp" | "install")
        && let [one] = sources.as_slice()
        && j.content_written_in_session(one)
    {
        let lang = match one.extension().and_then(|e| e.to_str()) {
            Some("c" | "h" | "cc" | "cpp" | "cxx") => "c",
            Some("rs") => "rust",
            _ => return None,
        };
        return script_content(j, run, one, false, Some(lang));
    }
    let in_workspace = |s: &Path| {
        is_within(s, &j.ctx.workspace)
            && !is_within(s, &j.ctx.workspace.join(".git"))
            && hookgate_paths::classify_subtree(s, &pctx).is_empty()
    };
    if sources.is_empty() || !sources.iter().all(|s| in_workspace(s)) {
        return None;
    }
    match sources.as_slice() {
        _ if !sources.iter().any(|s| j.content_written_in_session(s)) => Some(Deferred::Ordinary),
        [one] if matches!(prog, "cp" | "install") => script_on_disk(j, one, by_shell, interpreter),
        _ => None,
    }
}

/// `go build` options that take their value as the next word (`-o bin/x`, `-tags dev`).
const GO_BUILD_VALUE: &[&str] = &[
    "-o",
    "-p",
    "-asmflags",
    "-buildmode",
    "-buildvcs",
    "-compiler",
    "-gccgoflags",
    "-gcflags",
    "-installsuffix",
    "-ldflags",
    "-mod",
    "-pgo",
    "-pkgdir",
    "-tags",
    "-coverpkg",
    "-covermode",
];

/// `go build` options that change which code or tools make the program (another directory,
/// a replacement file set or module file, a wrapper run around every tool): a build with one
/// is not the build of the packages its words name.
const GO_BUILD_ELSEWHERE: &[&str] = &["-C", "-overlay", "-modfile", "-toolexec", "-exec"];

/// The judgement of a program `go build -o OUT PKG…` made on this line and then run: the
/// same program `go run PKG…` runs, so it is judged as that is. Package directories of the
/// workspace (`./cmd/server`, `.`, none named = `.`) are ordinary — as `go run ./cmd/server`
/// is — unless this line itself writes inside one before the build (the code that runs is
/// then the line's, unread); one source file the session wrote is judged by its Go text, as
/// `go run x.go` is. An import path (module-cache code), a package outside the workspace or
/// in `.git`, and the options of [`GO_BUILD_ELSEWHERE`] keep the ask (`None`).
fn go_build_from_line(
    j: &Judge<'_>,
    made_by: usize,
    runner: usize,
    argv: &[String],
) -> Option<Deferred> {
    let facts = j.facts;
    let (_, mut operands) = go_build_words(argv)?;
    if operands.is_empty() {
        operands.push(".");
    }
    let dir = facts.command_cwd(made_by).unwrap_or(&facts.cwd);
    let git = j.ctx.workspace.join(".git");
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for w in operands {
        // Only local paths: an import path names module-cache or GOPATH code.
        if !(w == "." || w.starts_with("./") || w.starts_with("../") || w.starts_with('/')) {
            return None;
        }
        let (w, deep) = w.strip_suffix("/...").map_or((w, false), |r| (r, true));
        let p = hookgate_paths::normalize(w, dir, j.ctx.home.as_deref()).path;
        if !is_within(&p, &j.ctx.workspace) || is_within(&p, &git) {
            return None;
        }
        if Path::new(&p).extension().is_some_and(|e| e == "go") {
            files.push(p);
        } else {
            dirs.push((p, deep));
        }
    }
    // A write of this line inside a package directory, before the run, by another command
    // than the build (whose own output may sit there): its code is unread.
    let written_here = facts.items.iter().enumerate().any(|(i, item)| {
        item.command.is_some_and(|c| c < runner && c != made_by)
            && item
                .paths
                .iter()
                .filter(|u| u.op != PathOp::Read && !u.metadata)
                .any(|u| {
                    facts
                        .candidates(i, u)
                        .iter()
                        .any(|c| dirs.iter().any(|(d, _)| is_within(c, d)))
                })
    });
    if written_here {
        return None;
    }
    // The packages' sources the session wrote earlier are read as `go run PKG` reads them
    // ([`package_sources`]): what their text shows is dangerous is the program's danger.
    for written in &j.state.written_files {
        let p = Path::new(written);
        let inside = dirs.iter().any(|(d, deep)| {
            if *deep {
                is_within(p, d)
            } else {
                p.parent() == Some(d.as_path())
            }
        });
        if inside
            && p.extension().is_some_and(|e| e == "go")
            && j.state.wrote_content(written)
            && let Some(d @ (Deferred::Dangerous(_) | Deferred::SelfModification(_))) =
                script_content(j, runner, p, false, Some("go"))
        {
            return Some(d);
        }
    }
    match files.as_slice() {
        [] => Some(Deferred::Ordinary),
        [one] if dirs.is_empty() && j.content_written_in_session(one) => {
            script_content(j, runner, one, false, Some("go"))
        }
        _ if !files.iter().any(|f| j.content_written_in_session(f)) => Some(Deferred::Ordinary),
        _ => None,
    }
}

/// The judgement of a whole source file (Python, JavaScript, Ruby, Perl, PHP) a session
/// wrote and now runs, from its one-liner `line`: what would modify the guard, then a danger
/// the analyzer can place (a home, sensitive or system target, a network flow, a spawn of a
/// dangerous command — [`crate::loaded::placed_danger`]), else ordinary only when the
/// analysis is `safe`/`normal`. A target known only at run time or code it cannot read keeps
/// the write-then-execute ask (`Unresolved`): a function's parameters are the normal shape of
/// a source file, so they are not a danger, but neither are they proof of harmlessness.
fn judge_deferred_source(j: &Judge<'_>, file: &Path, line: &str) -> Deferred {
    if let Some(v) = deferred_self_modification(j, file, line) {
        return Deferred::SelfModification(v.reason);
    }
    let sctx = j.ctx.shell_context(j.facts.cwd.clone());
    let a = hookgate_shell::analyze(line, &sctx);
    if let Some(reason) = crate::loaded::placed_danger(&a, true) {
        return Deferred::Dangerous(reason);
    }
    match a.verdict.class {
        hookgate_shell::Class::Safe | hookgate_shell::Class::Normal => Deferred::Ordinary,
        hookgate_shell::Class::Dangerous | hookgate_shell::Class::Unknown => Deferred::Unresolved,
    }
}

fn pr_ref_matches(created: &[String], r: &str) -> bool {
    let last = |s: &str| {
        s.trim_start_matches('#')
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    created.iter().any(|c| last(c) == last(r))
}

fn self_approve_pr(j: &Judge<'_>) -> Option<Violation> {
    if j.state.created_prs.is_empty() {
        return None;
    }
    for (_, argv) in j.commands() {
        if program(argv) != "gh" {
            continue;
        }
        let flags = split_flags(&argv[1..]);
        let pos: Vec<&str> = flags.positionals.iter().map(String::as_str).collect();
        let (verb, target) = match pos.as_slice() {
            ["pr", "merge", rest @ ..] => ("merges", rest.first().copied()),
            ["pr", "review", rest @ ..]
                if flags.short.contains(&'a') || flags.long.contains("approve") =>
            {
                ("approves", rest.first().copied())
            }
            ["api", path, ..]
                if path.contains("/pulls/")
                    && (path.ends_with("/merge") || path.ends_with("/reviews")) =>
            {
                let n = path
                    .split("/pulls/")
                    .nth(1)
                    .and_then(|s| s.split('/').next());
                ("merges or reviews", n)
            }
            _ => continue,
        };
        let own = target.is_none_or(|t| pr_ref_matches(&j.state.created_prs, t));
        if own {
            return Some(
                Violation::new(
                    Effect::Deny,
                    format!(
                        "{verb} a pull request this session opened ({})",
                        target.unwrap_or("the current branch's")
                    ),
                )
                .suggest("leave review and merge to a human"),
            );
        }
    }
    None
}

fn verify_bypass(j: &Judge<'_>) -> Option<Violation> {
    for (_, argv) in j.commands() {
        let Some((sub, rest)) = git_sub(argv) else {
            continue;
        };
        let hooks_path = argv
            .windows(2)
            .any(|w| w[0] == "-c" && w[1].to_ascii_lowercase().starts_with("core.hookspath"));
        let bypass = hooks_path
            || match sub {
                "commit" => commit_info(rest).no_verify,
                "push" | "merge" | "rebase" | "am" | "cherry-pick" | "revert" => {
                    push_no_verify(rest)
                }
                _ => false,
            };
        if bypass {
            return Some(
                Violation::new(
                    Effect::Deny,
                    format!("skips git hooks: `{}`", argv.join(" ")),
                )
                .suggest("fix what the hook reports instead of skipping it"),
            );
        }
    }
    None
}

fn session_blast_radius(j: &Judge<'_>) -> Option<Violation> {
    if j.writes().is_empty() {
        return None;
    }
    let mut n = j.state.written_files.len();
    for w in j.writes() {
        let s = w.to_string_lossy();
        if !j.state.written_files.iter().any(|x| *x == s) {
            n += 1;
        }
    }
    (n > j.settings.session_blast_radius).then(|| {
        Violation::new(
            Effect::Ask,
            format!(
                "this session has now written {n} distinct files (limit {})",
                j.settings.session_blast_radius
            ),
        )
    })
}

// ------------------------------------------------------------------------------------------
// hookgate's own.

fn destructive_shell(j: &Judge<'_>) -> Option<Violation> {
    let analysis = j.facts.analysis.as_ref()?;
    // A plan file saved with a destroy in it, applied now: the destroy decided earlier.
    if let Some(v) = saved_destroy_plan(j)
        && (v.effect == Effect::Deny || analysis.verdict.action() != ShellAction::Deny)
    {
        return Some(v);
    }
    let effect = match analysis.verdict.action() {
        ShellAction::Allow => return through_symlinks(j, analysis),
        ShellAction::Ask => Effect::Ask,
        ShellAction::Deny => Effect::Deny,
    };
    let rule = analysis
        .verdict
        .rule_id
        .as_deref()
        .map(|r| format!(" [{r}]"))
        .unwrap_or_default();
    let mut v = Violation::new(effect, format!("{}{rule}", analysis.verdict.reason));
    v.suggestion.clone_from(&analysis.verdict.suggestion);
    Some(v)
}

/// `terraform apply tf.plan` where `tf.plan` is a destroy plan — saved by `plan -destroy
/// -out=tf.plan` earlier on the line or earlier in the session (see the `plans` module) —
/// carries out that destroy: judged as the tool's `apply -destroy` is by the shell analyzer
/// (its verdict and taxonomy id), since no word of the applying line says so.
fn saved_destroy_plan(j: &Judge<'_>) -> Option<Violation> {
    let (i, argv, plan) =
        crate::plans::saved_destroy(j.facts, j.ctx.home.as_deref(), j.state, |p| {
            j.content_written_on_line(p)
        })?;
    let line = crate::plans::as_destroy(argv)
        .iter()
        .map(|w| crate::loaded::quote(w))
        .collect::<Vec<_>>()
        .join(" ");
    let dir = j.facts.command_dir(i).unwrap_or(&j.facts.cwd).to_path_buf();
    let verdict = hookgate_shell::analyze(&line, &j.ctx.shell_context(dir)).verdict;
    let effect = match verdict.action() {
        ShellAction::Allow => return None,
        ShellAction::Ask => Effect::Ask,
        ShellAction::Deny => Effect::Deny,
    };
    let rule = verdict
        .rule_id
        .as_deref()
        .map(|r| format!(" [{r}]"))
        .unwrap_or_default();
    let mut v = Violation::new(
        effect,
        format!(
            "applies {}, a plan saved with -destroy: {}{rule}",
            plan.display(),
            verdict.reason
        ),
    );
    v.suggestion = verdict.suggestion;
    Some(v)
}

/// Deletes and writes through a symlink that exists now (`ln -s ~/.ssh keys` by an earlier
/// call, then `rm -rf keys/`, `rm -rf keys/*`, `find keys/ -delete`, `shred keys/*`,
/// `echo … > keys/authorized_keys`): the shell analyzer places `keys/` in the workspace, the
/// command acts on the link's target. Each word of a writing or deleting command that goes
/// through an existing symlink — a link that is not the last component, or the last one
/// written with a trailing slash (`rm -rf link` removes the link only) — is replaced by its
/// physical form (the longest existing prefix resolved) and the command judged again by the
/// analyzer, so the target meets the same place rules and catalog as a literal path.
/// Links above the call's working directory, the workspace or the home directory (a workspace
/// reached through `/var` → `/private/var`) are where the call already is, not an alias.
/// Only with file-system facts ([`Ctx::follow_symlinks`]); an unresolvable link keeps the
/// lexical judgement. Protects `destructive-shell`'s place rules against workspace aliases.
///
/// A command that follows links at its operands (`find -L`/`-H`/`-follow`, `cp -L`/`-H`,
/// `tar -h`, `rsync -L`/`-k`, `zip` without `-y`) acts through a link named as the last
/// component too: `find -L keys -delete` deletes what `keys` points to. And a link made
/// earlier on the same line (`ln -s ~/.ssh keys && rm -rf keys/`) is resolved from the
/// line itself ([`Facts::links`](crate::action::Facts)), since it does not exist yet when
/// the call is judged — without file-system facts as well.
fn through_symlinks(j: &Judge<'_>, analysis: &hookgate_shell::Analysis) -> Option<Violation> {
    if !j.ctx.follow_symlinks && j.facts.links.is_empty() {
        return None;
    }
    let home = j.ctx.home.as_deref();
    let mut judged: Vec<usize> = Vec::new();
    for (n_item, item) in j.facts.items.iter().enumerate() {
        let Some(k) = item.command else { continue };
        if judged.contains(&k) || !item.paths.iter().any(|u| u.op != PathOp::Read) {
            continue;
        }
        judged.push(k);
        let Some(c) = analysis.commands.get(k) else {
            continue;
        };
        let Some(dir) = c.cwd.path(&j.facts.cwd) else {
            continue;
        };
        let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
        let redirect = c.argv.first().is_some_and(|a| a.starts_with('>'));
        let follow_last = follows_operand_links(&c.argv);
        let line_links: Vec<(&PathBuf, &PathBuf)> = j
            .facts
            .links
            .iter()
            .filter(|(by, _, _)| *by != n_item)
            .map(|(_, l, t)| (l, t))
            .collect();
        let words: Vec<String> = c
            .argv
            .iter()
            .enumerate()
            .map(|(n, w)| {
                let candidate = n > 0 && !w.starts_with('-');
                let through = || {
                    through_line_link(w, dir, home, follow_last, &line_links).or_else(|| {
                        j.ctx
                            .follow_symlinks
                            .then(|| {
                                physical_through_link(
                                    w,
                                    dir,
                                    home,
                                    [&j.facts.cwd, &j.ctx.workspace],
                                    follow_last,
                                )
                            })
                            .flatten()
                    })
                };
                match candidate.then(through).flatten() {
                    Some((link, target, word)) => {
                        links.push((link, target));
                        word
                    }
                    None if redirect && n == 0 => w.clone(),
                    None => crate::loaded::quote(w),
                }
            })
            .collect();
        if links.is_empty() {
            continue;
        }
        let code = if redirect {
            format!(": {}", words.join(" "))
        } else {
            words.join(" ")
        };
        let sctx = j.ctx.shell_context(dir.to_path_buf());
        let again = hookgate_shell::analyze(&code, &sctx);
        let effect = match again.verdict.action() {
            ShellAction::Allow => continue,
            ShellAction::Ask => Effect::Ask,
            ShellAction::Deny => Effect::Deny,
        };
        let shown: Vec<String> = links
            .iter()
            .map(|(l, t)| format!("{} -> {}", l.display(), t.display()))
            .collect();
        let mut v = Violation::new(
            effect,
            format!(
                "acts through the symlink {}: {}",
                shown.join(", "),
                again.verdict.reason
            ),
        );
        v.suggestion.clone_from(&again.verdict.suggestion);
        return Some(v);
    }
    None
}

/// `word`'s physical form when it goes through an existing symlink (see
/// [`through_symlinks`]): the link, its resolved target, and the word rewritten (the
/// resolved prefix quoted, a glob tail such as `*` left to expand). `None` otherwise.
fn physical_through_link(
    word: &str,
    dir: &Path,
    home: Option<&Path>,
    call_dirs: [&Path; 2],
    follow_last: bool,
) -> Option<(PathBuf, PathBuf, String)> {
    let p = hookgate_paths::normalize(word, dir, home).path;
    let n = p.components().count();
    let mut cur = PathBuf::new();
    for (idx, comp) in p.components().enumerate() {
        cur.push(comp);
        let meta = std::fs::symlink_metadata(&cur).ok()?;
        let last = idx + 1 == n;
        let above_us = call_dirs.iter().any(|d| d.starts_with(&cur))
            || home.is_some_and(|h| h.starts_with(&cur));
        if !meta.file_type().is_symlink()
            || above_us
            || (last && !word.ends_with('/') && !follow_last)
        {
            continue;
        }
        let target = std::fs::canonicalize(&cur).ok()?;
        let rest = p.strip_prefix(&cur).ok()?.to_string_lossy().into_owned();
        let word = link_word(&target, &rest);
        return Some((cur, target, word));
    }
    None
}

/// The word for `rest` below the link target `target`: the target quoted, a plain tail (a
/// glob such as `*` left to expand) after it; the link itself as `target/`.
fn link_word(target: &Path, rest: &str) -> String {
    let plain_tail = rest
        .chars()
        .all(|ch| ch.is_ascii_alphanumeric() || "._-/*?".contains(ch));
    let base = crate::loaded::quote(&target.to_string_lossy());
    match (rest.is_empty(), plain_tail) {
        (true, _) => format!("{base}/"),
        (false, true) => format!("{base}/{rest}"),
        (false, false) => crate::loaded::quote(&target.join(rest).to_string_lossy()),
    }
}

/// `word` through a link an earlier command of the line makes (`line_links`: link, target,
/// both canonical): below it, or the link itself written `link/` or named to a command that
/// follows its operands. Lexical: the link does not exist yet when the call is judged.
fn through_line_link(
    word: &str,
    dir: &Path,
    home: Option<&Path>,
    follow_last: bool,
    line_links: &[(&PathBuf, &PathBuf)],
) -> Option<(PathBuf, PathBuf, String)> {
    if line_links.is_empty() {
        return None;
    }
    let p = hookgate_paths::normalize(word, dir, home).path;
    line_links.iter().find_map(|(link, target)| {
        let rest = p.strip_prefix(link).ok()?.to_string_lossy().into_owned();
        (!rest.is_empty() || word.ends_with('/') || follow_last)
            .then(|| ((*link).clone(), (*target).clone(), link_word(target, &rest)))
    })
}

/// Whether a command dereferences links named as its operands (see [`through_symlinks`]):
/// `find -L`/`-H`/`-follow`, `cp -L`/`-H`/`--dereference`, `tar -h`/`--dereference` (also
/// in an old-style key such as `czhf`), `rsync -L`/`-k`/`--copy-links`/`--copy-dirlinks`/
/// `--copy-unsafe-links`, and `zip`, which follows unless told `-y`/`--symlinks`.
fn follows_operand_links(argv: &[String]) -> bool {
    let prog = program(argv);
    let words = argv.get(1..).unwrap_or_default();
    let short = |letters: &[char]| {
        words.iter().any(|w| {
            w.len() > 1
                && w.starts_with('-')
                && !w.starts_with("--")
                && w.chars().skip(1).any(|c| letters.contains(&c))
        })
    };
    let long = |names: &[&str]| words.iter().any(|w| names.contains(&w.as_str()));
    match prog {
        // find's options come before the start points (`-L`, `-H`) or are expressions.
        "find" => {
            words
                .iter()
                .take_while(|w| w.starts_with('-'))
                .any(|w| w == "-L" || w == "-H")
                || long(&["-follow"])
        }
        "cp" => short(&['L', 'H']) || long(&["--dereference"]),
        "tar" | "bsdtar" | "gtar" => {
            short(&['h'])
                || long(&["--dereference"])
                || words.first().is_some_and(|k| {
                    !k.starts_with('-')
                        && k.chars().all(|c| c.is_ascii_alphabetic())
                        && k.contains('h')
                })
        }
        "rsync" => {
            short(&['L', 'k']) || long(&["--copy-links", "--copy-dirlinks", "--copy-unsafe-links"])
        }
        "zip" => !(short(&['y']) || long(&["--symlinks"])),
        _ => false,
    }
}

fn history_rewrite(j: &Judge<'_>) -> Option<Violation> {
    j.kinds(ActionKind::GitHistoryRewrite).find_map(|i| {
        let argv = j.facts.argv(i)?;
        let (sub, _) = git_sub(argv)?;
        (sub != "rebase").then(|| {
            Violation::new(
                Effect::Deny,
                format!("irreversibly rewrites history: `{}`", argv.join(" ")),
            )
        })
    })
}

fn git_discard(j: &Judge<'_>) -> Option<Violation> {
    let i = j.kinds(ActionKind::GitDiscard).next()?;
    Some(
        Violation::new(
            Effect::Ask,
            format!(
                "discards uncommitted work: `{}`",
                j.facts.actions[i].argv.join(" ")
            ),
        )
        .suggest("commit or stash the work first (git stash)"),
    )
}

fn remote_branch_delete(j: &Judge<'_>) -> Option<Violation> {
    j.kinds(ActionKind::GitBranchDelete).find_map(|i| {
        let argv = j.facts.argv(i)?;
        let (sub, _) = git_sub(argv)?;
        (sub == "push").then(|| {
            Violation::new(
                Effect::Deny,
                format!(
                    "deletes remote branch {}",
                    j.facts.actions[i].targets.join(", ")
                ),
            )
        })
    })
}

fn package_publish(j: &Judge<'_>) -> Option<Violation> {
    let i = j
        .kinds(ActionKind::PackagePublish)
        .find(|&i| !npm_publish_to_this_machine(j, &j.facts.actions[i].argv))?;
    Some(Violation::new(
        Effect::Ask,
        format!("publishes: `{}`", j.facts.actions[i].argv.join(" ")),
    ))
}

/// `npm publish --registry http://localhost:4873` of a package that does not redirect its
/// publish (the shell analyzer's reading, [`hookgate_shell::npm_publishes_locally_argv`], asked
/// in the directory the analysis ran the command in): a registry on this machine publishes
/// to no one. An argv the analysis did not run, or a directory only known at run time, keeps
/// the ask.
fn npm_publish_to_this_machine(j: &Judge<'_>, argv: &[String]) -> bool {
    if argv.first().map(|p| program(std::slice::from_ref(p))) != Some("npm") {
        return false;
    }
    let Some(analysis) = j.facts.analysis.as_ref() else {
        return false;
    };
    analysis.commands.iter().any(|c| {
        c.argv.as_slice() == argv
            && c.cwd.path(&j.facts.cwd).is_some_and(|dir| {
                hookgate_shell::npm_publishes_locally_argv(
                    argv.get(1..).unwrap_or_default(),
                    dir,
                    j.ctx.home.as_deref(),
                )
            })
    })
}

fn hardcoded_secrets(j: &Judge<'_>) -> Option<Violation> {
    let mut texts: Vec<&str> = Vec::new();
    if let Some(c) = j.facts.content() {
        texts.push(c);
    }
    if j.facts.tool.is_some_and(|t| t.kind == ToolKind::Shell) && !j.writes().is_empty() {
        texts.extend(j.facts.tool.and_then(|t| t.command.as_deref()));
    }
    for t in texts {
        if let Some(f) = hookgate_secrets::scan(t).into_iter().next() {
            return Some(
                Violation::new(
                    Effect::Deny,
                    format!("writes a secret ({}: {})", f.rule_id, f.preview),
                )
                .suggest("read it from an environment variable or a secret manager"),
            );
        }
    }
    None
}

fn delete_outside_workspace(j: &Judge<'_>) -> Option<Violation> {
    for (i, item) in j.facts.items.iter().enumerate() {
        let by_file_tool = item.command.is_none()
            || j.facts
                .argv(i)
                .and_then(git_sub)
                .is_some_and(|(s, _)| s == "rm" || s == "mv");
        if !by_file_tool {
            continue;
        }
        for p in item
            .paths
            .iter()
            .filter(|p| matches!(p.op, PathOp::Delete | PathOp::Move))
        {
            let ws = &j.ctx.workspace;
            let bad = if is_within(&p.path, ws) {
                // A wildcard pathspec below the root (`git rm '*.log'`) selects entries
                // *below* it ([`PathUse::filter`]), never the root itself.
                (p.path == *ws && p.filter.is_none()) || is_within(&p.path, &ws.join(".git"))
            } else {
                !j.in_temp(&p.path)
            };
            if bad {
                return Some(Violation::new(
                    Effect::Deny,
                    format!(
                        "deletes or moves {} (outside the workspace, its root or .git)",
                        p.path.display()
                    ),
                ));
            }
        }
    }
    None
}

fn system_file_write(j: &Judge<'_>) -> Option<Violation> {
    if let Some(m) = first_match(
        j.write_matches(),
        &[Category::SystemBinary, Category::SystemConfig],
    ) {
        return Some(Violation::new(
            Effect::Deny,
            format!("writes a system file: {}", describe_match(m)),
        ));
    }
    shadowed_program(j)
}

/// Directories that hold the system's programs whatever `PATH` says.
const SYSTEM_PROGRAM_DIRS: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/// A write into a user bin dir (`~/.local/bin`, `~/bin`: the catalog's `user_program_dir`).
/// Nothing there runs by itself, but whatever lands there runs whenever the user (or a
/// script) types its name, so the danger is *shadowing*: under the name of a program
/// installed elsewhere on `PATH` (or in the system's program dirs) it runs *instead of* that
/// program (`~/.local/bin/sudo` sees the password) — denied; under the name of hookgate or
/// an agent CLI it would replace the guard or the agent the hooks are configured for —
/// denied whether or not that program is installed (`no-governance-self-modification`'s
/// concern, decided here because it is a naming question). A program under a new name that
/// nothing on `PATH` answers to (`install -m 755 x.sh ~/.local/bin/acme-x`) changes the
/// meaning of no existing command: no objection (and the shell analyzer's "writes outside
/// the workspace" for that command is set aside, see [`new_program_installs`]). Creating
/// the bin dir itself (`mkdir -p ~/.local/bin`) places nothing.
///
/// Whether a name is taken is a file-system fact; what cannot be named exactly stays asked:
/// evaluation kept lexical (no file-system facts), a whole tree copied or extracted into the
/// bin dir (which names land there is not on the line), a program removed or moved out, and
/// a permission change on a program named like an installed one.
fn shadowed_program(j: &Judge<'_>) -> Option<Violation> {
    let mut placed: Option<PathBuf> = None;
    for (_, path, placement) in bin_placements(j) {
        match placement {
            Placement::Nothing | Placement::NewName => {}
            Placement::Unknown => {
                placed.get_or_insert(path);
            }
            Placement::GuardName => {
                return Some(
                    Violation::new(
                        Effect::Deny,
                        format!(
                            "puts a program named `{}` in {}, where it would run instead of \
                             hookgate, the coding agent it guards or a program that asks for \
                             credentials",
                            file_name(&path),
                            path.parent().unwrap_or(&path).display()
                        ),
                    )
                    .suggest("give the program a name of its own"),
                );
            }
            Placement::Shadows(other) => {
                return Some(
                    Violation::new(
                        Effect::Deny,
                        format!(
                            "puts a program named `{}` in {}, where it runs instead of {}",
                            file_name(&path),
                            path.parent().unwrap_or(&path).display(),
                            other.display()
                        ),
                    )
                    .suggest("give the program a name of its own"),
                );
            }
        }
    }
    let placed = placed?;
    Some(Violation::new(
        Effect::Ask,
        format!(
            "puts a program on the user's PATH: {}{}",
            placed.display(),
            if j.ctx.follow_symlinks {
                ""
            } else {
                " (whether it shadows an installed program cannot be checked)"
            }
        ),
    ))
}

/// What a change in a user bin dir does to the commands the user types.
enum Placement {
    /// The bin dir's own permissions or times changed, or a file in a subdirectory of it
    /// (not found by name): no program placed.
    Nothing,
    /// A program under a name nothing else on `PATH` answers to.
    NewName,
    /// A program named like hookgate, an agent CLI or a credential prompt.
    GuardName,
    /// A program that runs instead of this installed one.
    Shadows(PathBuf),
    /// Which program, or whether its name is taken, cannot be told.
    Unknown,
}

/// Every path of the call changed in a user bin dir, with the item that changes it and what
/// that does (see [`shadowed_program`]).
fn bin_placements(j: &Judge<'_>) -> Vec<(usize, PathBuf, Placement)> {
    if !j
        .write_matches()
        .iter()
        .any(|m| m.category == Category::UserProgramDir)
    {
        return Vec::new();
    }
    let pctx = j.path_ctx();
    let in_bin_dirs = |p: &Path| {
        hookgate_paths::classify(p, &pctx)
            .iter()
            .any(|m| m.category == Category::UserProgramDir)
    };
    let mut out = Vec::new();
    for (i, p) in j.facts.touched() {
        if p.op == PathOp::Read || !in_bin_dirs(&p.path) {
            continue;
        }
        let placement = bin_placement(j, &p, &in_bin_dirs);
        out.push((i, p.path, placement));
    }
    out
}

fn bin_placement(j: &Judge<'_>, p: &PathUse, in_bin_dirs: &dyn Fn(&Path) -> bool) -> Placement {
    // The bin dir itself (its parent is not one): its permissions or times changed, it holds
    // no new program (`mkdir` touches no path); anything else written there (a tree copied
    // or extracted, a copy that becomes the directory) does, under names the line does not
    // show.
    if p.path.parent().is_none_or(|up| !in_bin_dirs(up)) {
        return if p.metadata && p.reach != Reach::Tree {
            Placement::Nothing
        } else {
            Placement::Unknown
        };
    }
    let (Some(dir), Some(name)) = (p.path.parent(), p.path.file_name()) else {
        return Placement::Unknown;
    };
    // Only a program directly in a bin dir is found by name.
    if dir.parent().is_some_and(in_bin_dirs) {
        return Placement::Nothing;
    }
    // A pattern (`cp build/* ~/.local/bin/`) names what the shell finds at run time.
    let shown = name.to_string_lossy();
    if p.op != PathOp::Write
        || !j.ctx.follow_symlinks
        || p.reach == Reach::Tree
        || shown.contains(['*', '?', '[', '{'])
    {
        return Placement::Unknown;
    }
    if !p.metadata && guard_or_agent_name(&shown) {
        return Placement::GuardName;
    }
    let elsewhere = j
        .ctx
        .search_path
        .iter()
        .map(PathBuf::as_path)
        .chain(SYSTEM_PROGRAM_DIRS.iter().map(Path::new))
        .filter(|d| *d != dir)
        .map(|d| d.join(name))
        .find(|candidate| std::fs::symlink_metadata(candidate).is_ok());
    match elsewhere {
        // A permission change leaves the program what it was: asked, not denied.
        Some(_) if p.metadata => Placement::Unknown,
        Some(other) => Placement::Shadows(other),
        None => Placement::NewName,
    }
}

/// The executed commands (indices into the analysis) whose only change outside the
/// workspace and temp dirs is a program put in a user bin dir under a new name (or the bin
/// dir created): the shell analyzer, which cannot look at `PATH`, asks about any write
/// outside the workspace; [`shadowed_program`] has judged these by what they shadow, which
/// is nothing. Set aside like the discards of a clean worktree.
pub(crate) fn new_program_installs(j: &Judge<'_>) -> (Vec<usize>, Vec<String>) {
    const OUTSIDE: &str = "fs.overwrite_outside_workspace";
    let placements = bin_placements(j);
    let mut commands = Vec::new();
    let mut notes = Vec::new();
    let Some(analysis) = j.facts.analysis.as_ref() else {
        return (commands, notes);
    };
    for (i, item) in j.facts.items.iter().enumerate() {
        let Some(k) = item.command else { continue };
        let ours: Vec<&(usize, PathBuf, Placement)> =
            placements.iter().filter(|(x, _, _)| *x == i).collect();
        let rule = analysis
            .commands
            .get(k)
            .and_then(|c| c.verdict.rule_id.as_deref());
        if ours.is_empty() || rule != Some(OUTSIDE) || commands.contains(&k) {
            continue;
        }
        let harmless = ours
            .iter()
            .all(|(_, _, p)| matches!(p, Placement::Nothing | Placement::NewName));
        let elsewhere_ok = j
            .facts
            .touched()
            .iter()
            .filter(|(x, _)| *x == i)
            .all(|(_, p)| {
                ours.iter().any(|(_, q, _)| *q == p.path)
                    || is_within(&p.path, &j.ctx.workspace)
                    || j.in_temp(&p.path)
            });
        if harmless && elsewhere_ok && item.unplaced.is_empty() {
            commands.push(k);
            notes.push(format!(
                "{OUTSIDE}: {} puts programs on PATH under new names only",
                ours.iter()
                    .map(|(_, p, _)| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    (commands, notes)
}

/// Names that, put first on `PATH`, would run instead of the guard or of an agent it is
/// configured for (`hookgate`, `hookgate-*`, the agent CLIs), or would be handed a password
/// or key by a user who types them out of habit whether or not the real program is
/// installed here (`sudo`, `su`, `ssh`, `gpg`…).
fn guard_or_agent_name(name: &str) -> bool {
    const CREDENTIAL_PROMPTS: &[&str] = &[
        "sudo", "su", "doas", "pkexec", "passwd", "login", "ssh", "scp", "sftp", "ssh-add", "gpg",
        "gpg2", "pass", "op", "aws", "gcloud", "az", "kubectl", "gh",
    ];
    name.starts_with("hookgate") || AGENT_CLIS.contains(&name) || CREDENTIAL_PROMPTS.contains(&name)
}

fn vcs_config(j: &Judge<'_>) -> Option<Violation> {
    let mut concern = None;
    if let Some(m) = j
        .write_matches()
        .iter()
        .filter(|m| matches!(m.category, Category::VcsConfig | Category::BuildConfig))
        .find(|m| {
            match ordinary_precommit_write(j, &m.path)
                .or_else(|e| ordinary_hook_write(j, &m.path).unwrap_or(Err(e)))
                .or_else(|e| ordinary_tool_config_write(j, &m.path).unwrap_or(Err(e)))
                .or_else(|e| ordinary_devcontainer_write(j, &m.path).unwrap_or(Err(e)))
            {
                Ok(()) => false,
                Err(why) => {
                    concern = why;
                    true
                }
            }
        })
    {
        return Some(Violation::new(
            Effect::Ask,
            match concern {
                Some(why) => format!(
                    "modifies version-control or build-tool configuration: {} — {why}",
                    describe_match(m)
                ),
                None => format!(
                    "modifies version-control or build-tool configuration: {}",
                    describe_match(m)
                ),
            },
        ));
    }
    for (_, argv) in j.commands() {
        let Some(("config", rest)) = git_sub(argv) else {
            continue;
        };
        let flags = split_flags(rest);
        let key = flags.positionals.first().map(|k| k.to_ascii_lowercase());
        // Read-only forms, from the options before the key (a value after it is data:
        // `alias.y '-c x=/dev/null commit'` holds an `l` but lists nothing).
        let before_key = key
            .as_deref()
            .and_then(|k| rest.iter().position(|a| a.eq_ignore_ascii_case(k)))
            .map_or(rest, |i| &rest[..i]);
        let reading = before_key.iter().any(|a| {
            a.starts_with("--get")
                || a == "--list"
                || (a.starts_with('-') && !a.starts_with("--") && a.contains('l'))
        });
        // `core.fsmonitor true|false` switches git's built-in daemon; only a path runs a program.
        let builtin_fsmonitor = key.as_deref() == Some("core.fsmonitor")
            && flags.positionals.get(1).is_some_and(|v| {
                matches!(
                    v.to_ascii_lowercase().as_str(),
                    "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0"
                )
            });
        // The alias's value is the word after its key, whatever it looks like: a value
        // starting with `-` (`'-c core.hooksPath=/dev/null commit'`) is not an option of
        // `git config`.
        let alias_value = key
            .as_deref()
            .filter(|k| k.starts_with("alias."))
            .and_then(|k| rest.iter().position(|a| a.eq_ignore_ascii_case(k)))
            .and_then(|i| rest.get(i + 1));
        if !reading
            && let Some(v) = alias_value
            && !plain_git_alias(j, v)
        {
            return Some(Violation::new(
                Effect::Ask,
                format!(
                    "defines a git alias that runs a program or a command it would object to: `{}`",
                    argv.join(" ")
                ),
            ));
        }
        let plain_alias = alias_value.is_some();
        // `credential.helper cache` / `store` / `osxkeychain` / `manager`: git's own helpers
        // (`git credential-NAME`), not a program the value names.
        let builtin_helper = key.as_deref() == Some("credential.helper")
            && flags.positionals.get(1).is_some_and(|v| {
                let mut words = v.split_whitespace();
                words.next().is_some_and(|h| {
                    matches!(
                        h,
                        "cache"
                            | "store"
                            | "osxkeychain"
                            | "manager"
                            | "manager-core"
                            | "libsecret"
                            | "wincred"
                    )
                }) && words.all(|w| w.starts_with("--") && !w.contains(['$', '`', ';', '|']))
            });
        // `core.hooksPath .githooks` in the repository's own configuration: a directory of
        // the work tree, whose hooks are judged when a git command loads them (`loaded.rs`).
        let project_hooks = key.as_deref() == Some("core.hookspath")
            && !before_key.iter().any(|a| {
                matches!(a.as_str(), "--global" | "--system" | "--file" | "-f")
                    || a.starts_with("--file=")
            })
            && flags
                .positionals
                .get(1)
                .is_some_and(|v| hookgate_shell::project_hooks_dir(v));
        // `core.pager 'less -FRX'`, `core.sshCommand 'ssh -i ~/.ssh/id_deploy -o
        // IdentitiesOnly=yes'`: a value the analyzer accepts as the variable git reads in its
        // place (`GIT_PAGER`, `GIT_SSH_COMMAND`: a known pager or ssh whose line is ordinary
        // work) is what the setting is for — one reading of program-naming values for the
        // variable and the configuration key.
        let variable = match key.as_deref() {
            Some("core.pager") => Some("GIT_PAGER"),
            Some("core.sshcommand") => Some("GIT_SSH_COMMAND"),
            _ => None,
        };
        let known_pager = variable.is_some_and(|var| {
            flags.positionals.get(1).is_some_and(|v| {
                let sctx = j.ctx.shell_context(j.facts.cwd.clone());
                let line = format!("{var}={} true", crate::loaded::quote(v));
                matches!(
                    hookgate_shell::analyze(&line, &sctx).verdict.class,
                    hookgate_shell::Class::Safe | hookgate_shell::Class::Normal
                )
            })
        });
        if !reading
            && !builtin_fsmonitor
            && !plain_alias
            && !builtin_helper
            && !project_hooks
            && !known_pager
            && flags.positionals.len() >= 2
            && key.as_deref().is_some_and(|k| {
                matches!(
                    k,
                    "core.hookspath"
                        | "core.fsmonitor"
                        | "core.sshcommand"
                        | "core.pager"
                        | "credential.helper"
                ) || k.starts_with("alias.")
            })
        {
            return Some(Violation::new(
                Effect::Ask,
                format!(
                    "changes git configuration that runs programs: `{}`",
                    argv.join(" ")
                ),
            ));
        }
    }
    None
}

/// A git alias that only names git verbs and options (`alias.co checkout`, `alias.lg 'log
/// --oneline --graph'`) whose expansion, judged as the `git …` command line it becomes, is
/// ordinary work: defining it runs nothing and calling it later does what that line does. An
/// alias with `!` runs a shell command, one whose expansion the analyzer would object to
/// (`alias.sync 'push --force origin main'`) defers a danger to a call that names neither —
/// both keep the ask, as does text git would split differently from the shell (quotes,
/// operators, expansions).
fn plain_git_alias(j: &Judge<'_>, value: &str) -> bool {
    // Verbs whose risk the policy judges beyond the analyzer (a push to a protected branch,
    // hook bypasses, commit scope, configuration): an alias of them keeps the ask.
    const POLICY_VERBS: &[&str] = &[
        "push",
        "commit",
        "merge",
        "rebase",
        "config",
        "update-ref",
        "symbolic-ref",
        "filter-branch",
        "filter-repo",
        "replace",
        "worktree",
        "submodule",
        "remote",
        "credential",
        "am",
        "cherry-pick",
        "revert",
        "pull",
        "gc",
        "prune",
        "reflog",
        "stash",
        "tag",
    ];
    let trimmed = value.trim_start();
    if trimmed.is_empty()
        || trimmed.starts_with(['!', '-'])
        || trimmed.contains([
            '\'', '"', '\\', ';', '|', '&', '$', '`', '<', '>', '(', ')', '\n',
        ])
    {
        return false;
    }
    if trimmed
        .split_whitespace()
        .find(|w| !w.starts_with('-'))
        .is_none_or(|verb| POLICY_VERBS.contains(&verb))
    {
        return false;
    }
    let sctx = j.ctx.shell_context(j.facts.cwd.clone());
    let a = hookgate_shell::analyze(&format!("git {trimmed}"), &sctx);
    matches!(
        a.verdict.class,
        hookgate_shell::Class::Safe | hookgate_shell::Class::Normal
    )
}

fn write_outside_workspace(j: &Judge<'_>) -> Option<Violation> {
    for item in j.facts.items.iter().filter(|i| i.command.is_none()) {
        for p in item.paths.iter().filter(|p| p.op != PathOp::Read) {
            if !is_within(&p.path, &j.ctx.workspace)
                && !j.in_temp(&p.path)
                && !agent_scratch(j, &p.path)
            {
                return Some(Violation::new(
                    Effect::Ask,
                    format!("writes outside the workspace: {}", p.path.display()),
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariant_ids_are_unique_and_severities_in_range() {
        let mut ids: Vec<&str> = INVARIANTS.iter().map(|i| i.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), INVARIANTS.len());
        assert!(INVARIANTS.iter().all(|i| (1..=5).contains(&i.severity)));
        assert!(INVARIANTS.len() >= 26);
    }

    use hookgate_core::AgentKind;
    use hookgate_shell::{Effect as ShellEffect, EffectOp};
    use serde_json::json;

    use crate::action::Described;

    /// Facts for `python3 -c …` whose command carries `effects`, as the analyzer reports them
    /// once interpreter code is parsed: the same conversion `Facts::build` applies.
    #[allow(clippy::expect_used, reason = "test code")]
    fn judge_effects(effects: &[ShellEffect]) -> Option<Violation> {
        let mut ctx = Ctx::new("/work/proj", Some(PathBuf::from("/home/u")));
        ctx.follow_symlinks = false;
        let call = hookgate_agents::call_for_tool(
            AgentKind::Claude,
            "/work/proj",
            "Bash",
            &json!({"command": "python3 -c pass"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        )
        .expect("a Bash call parses");
        let mut facts = Facts::build(&call, &ctx);
        if let Some(a) = facts.analysis.as_mut()
            && let Some(c) = a.commands.first_mut()
        {
            c.effects = effects.to_vec();
        }
        let mut d = Described::new(ActionKind::ShellExec, &[]);
        d.add_effects(effects);
        facts.items[0].paths.extend(d.paths.into_iter().map(|t| {
            crate::action::PathUse {
                path: hookgate_paths::normalize(
                    &t.raw,
                    Path::new("/work/proj"),
                    Some(Path::new("/home/u")),
                )
                .path,
                raw: t.raw,
                op: t.op,
                reach: t.reach,
                except: Vec::new(),
                filter: None,
                partial: false,
                verb: None,
                metadata: t.metadata,
                archive_unlisted: false,
            }
        }));
        facts.items[0].unplaced.extend(d.unplaced);
        let state = SessionState::default();
        let settings = Settings::default();
        let judge = Judge::new(&facts, &ctx, &state, &settings);
        self_modification(&judge)
    }

    fn effect(op: EffectOp, path: Option<&str>) -> ShellEffect {
        ShellEffect {
            op,
            path: path.map(str::to_owned),
            source: "python -c".to_owned(),
        }
    }

    #[test]
    fn interpreter_effects_on_the_protected_set_are_denied() {
        for (op, path) in [
            (EffectOp::Write, ".claude/settings.json"),
            (EffectOp::Delete, ".claude"),
            (EffectOp::Move, "/home/u/.codex"),
            (EffectOp::Chmod, ".hookgate"),
            (EffectOp::Write, "/home/u/.gemini/settings.json"),
        ] {
            let v = judge_effects(&[effect(op, Some(path))]);
            assert_eq!(v.map(|v| v.effect), Some(Effect::Deny), "{op:?} {path}");
        }
    }

    #[test]
    fn interpreter_writes_that_cannot_be_placed_are_asked_about() {
        let v = judge_effects(&[effect(EffectOp::Write, None)]);
        let v = v.unwrap_or_else(|| Violation::new(Effect::Allow, ""));
        assert_eq!(v.effect, Effect::Ask);
        assert!(v.reason.contains("cannot place statically"), "{}", v.reason);
        // A placed deny wins over an unplaced ask in the same call.
        let v = judge_effects(&[
            effect(EffectOp::Delete, None),
            effect(EffectOp::Delete, Some(".claude")),
        ]);
        assert_eq!(v.map(|v| v.effect), Some(Effect::Deny));
        // Reads, spawns and network effects without a target are not writes.
        assert!(
            judge_effects(&[effect(EffectOp::Read, None), effect(EffectOp::Spawn, None)]).is_none()
        );
        assert!(judge_effects(&[effect(EffectOp::Write, Some("out/report.txt"))]).is_none());
    }

    #[test]
    fn interpreter_setting_hookgate_variables_is_denied() {
        let v = judge_effects(&[effect(EffectOp::SetEnv, Some("HOOKGATE_FAIL_MODE"))]);
        assert_eq!(v.map(|v| v.effect), Some(Effect::Deny));
        assert!(judge_effects(&[effect(EffectOp::SetEnv, Some("RUST_LOG"))]).is_none());
    }

    #[test]
    fn hookgate_assignments_are_read_as_assignments_not_mentions() {
        assert_eq!(
            hookgate_assignment("export HOOKGATE_X=1").as_deref(),
            Some("HOOKGATE_X")
        );
        assert_eq!(
            hookgate_assignment("HOOKGATE_X=1").as_deref(),
            Some("HOOKGATE_X")
        );
        assert_eq!(
            hookgate_assignment("hookgate_home = 1").as_deref(),
            Some("hookgate_home")
        );
        assert_eq!(
            hookgate_assignment("setenv HOOKGATE_X 1").as_deref(),
            Some("HOOKGATE_X")
        );
        assert_eq!(
            hookgate_assignment("set -gx HOOKGATE_X 1").as_deref(),
            Some("HOOKGATE_X")
        );
        assert_eq!(
            hookgate_assignment("$env:HOOKGATE_X = 1").as_deref(),
            Some("HOOKGATE_X")
        );
        assert_eq!(hookgate_assignment("echo $HOOKGATE_X").as_deref(), None);
        assert_eq!(hookgate_assignment("echo ${HOOKGATE_X}").as_deref(), None);
        assert_eq!(
            hookgate_assignment("if [ $HOOKGATE_X == 1 ]").as_deref(),
            None
        );
        assert_eq!(hookgate_assignment("MY_HOOKGATE_X=1").as_deref(), None);
    }

    #[test]
    fn chmod_modes() {
        assert_eq!(chmod_risk("777"), Some(false));
        assert_eq!(chmod_risk("4755"), Some(true));
        assert_eq!(chmod_risk("u+s"), Some(true));
        assert_eq!(chmod_risk("o+w"), Some(false));
        assert_eq!(chmod_risk("+x"), None);
        assert_eq!(chmod_risk("755"), None);
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("https://user@api.github.com:443/x").as_deref(),
            Some("api.github.com")
        );
        assert_eq!(host_of("example.com/x").as_deref(), Some("example.com"));
        assert!(host_of("$URL").is_none());
        assert!(host_allowed("api.github.com", &["github.com".into()]));
        assert!(!host_allowed("evilgithub.com", &["github.com".into()]));
    }

    #[test]
    fn ddl() {
        assert!(destructive_ddl("ALTER TABLE x; drop table users;").is_some());
        assert!(destructive_ddl("-- DROP TABLE x\nSELECT 1").is_none());
        assert!(destructive_ddl("op.drop_table('users')").is_some());
        assert!(destructive_ddl("CREATE TABLE dropped_items (id int)").is_none());
    }
}
