//! One guard call as fixed stages over one value.
//!
//! discover the project → parse the payload → transforms (the user's hooks, whose rewrites
//! replace the tool input) → facts built once on the *final* input → judge (policy rules,
//! invariants, the user's guard hooks) inside one session-state transaction → answer → record.
//!
//! Every view of a call — the agent's answer, the audit record, `hookgate inspect`, `stats`
//! and `explain` — is built from the one [`Verdict`] this module produces, so they cannot
//! disagree. `explain` runs the same stages in [`RunMode::Explain`], which reads but never
//! writes (no session state, no record).

use std::cell::OnceCell;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use hookgate_agents::{Dialect, Encoded, ParseError, Parsed, Reply, encode, supports_ask};
use hookgate_audit::{Record, Store};
use hookgate_core::{AgentKind, CanonicalCall, Decision, EventId, Outcome};
use hookgate_engine::config::Loaded;
use hookgate_policy::{
    Action, ArchiveListing, BranchState, Ctx, Evaluation, Matched, PathspecState, Policy,
    PolicyLayer, Rejudge, SessionState, TreeMove, WorktreeState,
};
use hookgate_project::{ConfigSnapshot, Project, TrustState};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::{bridge, git};

/// What to do when the guard itself cannot evaluate a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailMode {
    /// Ask a human where the agent supports it, else deny (the default).
    Ask,
    /// Deny.
    Deny,
}

/// Where records go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreChoice {
    /// SQLite (the default; written through a spool on the hot path).
    Sqlite,
    /// Plain JSONL only.
    Jsonl,
    /// No audit (decisions still work).
    Off,
}

/// Everything a guard call needs besides the payload.
#[derive(Debug, Clone)]
pub struct GuardOptions {
    /// The agent named on the command line (the payload's dialect wins when they differ).
    pub agent: AgentKind,
    /// The event the hook was registered for, for dialects whose payloads carry no event name
    /// (Copilot's camelCase hooks; `hookgate init` sets `HOOKGATE_EVENT`).
    pub event_hint: Option<String>,
    /// What an internal failure answers.
    pub fail_mode: FailMode,
    /// What a policy `ask` becomes where nobody will be asked (the agent or event has no ask,
    /// or the agent runs in a mode that asks nobody): `Deny`, or `Allow` for no opinion.
    pub ask_fallback: Decision,
    /// The audit backend.
    pub store: StoreChoice,
    /// hookgate's data directory (`HOOKGATE_HOME`).
    pub home: PathBuf,
    /// hookgate's user config dir (trusted: the user's policy, hooks and trust pins).
    pub config_dir: Option<PathBuf>,
    /// Extra policy files (`--policy`), applied after the user and project ones.
    pub policy_files: Vec<PathBuf>,
    /// The process's working directory (used when the payload names none).
    pub cwd: PathBuf,
    /// Whether the user's configured hooks (`.hookgate/hooks.yaml`, …) run too.
    pub user_hooks: bool,
}

/// Why a call could not be judged. Each one takes the fail mode (never a silent allow) and is
/// recorded as an `error` with this message.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// A policy file could not be read or is invalid.
    #[error(transparent)]
    Policy(#[from] hookgate_policy::PolicyError),
    /// The user's hook configuration could not be loaded.
    #[error("hook config: {0}")]
    HookConfig(#[from] hookgate_engine::ConfigError),
    /// A user hook's rewrite could not be applied to the agent's payload.
    #[error("{0}")]
    Rewrite(&'static str),
    /// The rewritten payload no longer parses.
    #[error("the rewritten payload no longer parses: {0}")]
    Reparse(#[from] ParseError),
    /// The judgement stopped before producing a decision.
    #[error("the judgement did not complete")]
    Incomplete,
}

/// Whether a judgement may change anything outside itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMode {
    /// A real hook call: session state is updated under its lock, notes are shown once per
    /// session, the record is stored.
    Live,
    /// `hookgate explain`: the same stages, reading only.
    Explain,
}

/// The guard's one answer about one call: what the agent is told and everything that
/// determined it.
///
/// Invariant: `decision` is exactly what the encoded answer says (an `ask` only where it reaches
/// a human), and `determining` names every rule, invariant and user hook at the winning level,
/// so the audit record, `stats` by rule and `explain` can never name a rule that lost.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Verdict {
    /// What the agent is told; `None` is no opinion (the agent's own permission flow applies).
    pub decision: Option<Decision>,
    /// What the judges concluded, before an `ask` that nobody would see took the ask-fallback.
    pub judged: Option<Decision>,
    /// Ids of every rule, invariant (`no-force-push`) and user hook (`hook:<id>`) that
    /// determined `judged`, most severe first.
    pub determining: Vec<String>,
    /// Why, naming the determining ids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What to do instead, from a determining match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Why an `ask` became `decision` (a permission mode that asks nobody, an agent or event
    /// without ask).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// For a deny or an ask: the `hookgate allow …` command that would let the call through,
    /// or why none can (a locked invariant decided).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub way_through: Option<String>,
    /// The allowances (`hookgate allow`) that waived a match of this call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allowed_by: Vec<String>,
    /// The canonical actions of the final (possibly rewritten) call.
    pub actions: Vec<Action>,
    /// Every rule and invariant that matched, deciding or not.
    pub matched: Vec<Matched>,
    /// Notes for the user shown with this answer (each once per session).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// `explain` only: the hooks the real call would run that `explain` did not, because
    /// they have side effects (`hook \`id\` (command: runs a program)`). Their answers
    /// could change the decision.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub would_run: Vec<String>,
    /// The internal failure, when this verdict is the fail mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A judged call: the verdict, the reply built from it, and how it was reached.
#[derive(Debug, Clone)]
pub struct Judgement {
    /// The dialect the answer is written in.
    pub dialect: Dialect,
    /// The catalog event.
    pub event: EventId,
    /// The event as the agent spelled it.
    pub native_event: String,
    /// The call as finally judged (after the user's rewrites); `None` when the payload could
    /// not be read.
    pub call: Option<CanonicalCall>,
    /// The shell command before a user hook rewrote it, when one did.
    pub original_command: Option<String>,
    /// The project root the call was judged in.
    pub project: PathBuf,
    /// The verdict.
    pub verdict: Verdict,
    /// The dialect-independent answer built from the verdict.
    pub reply: Reply,
    /// Stage-by-stage trace (for `inspect`).
    pub trace: Map<String, Value>,
    /// The event is not one hookgate judges: the answer is no opinion and nothing is judged.
    pub unhandled: bool,
}

/// The dialect to answer in when the payload could not be read.
fn default_dialect(agent: AgentKind) -> Dialect {
    match agent {
        AgentKind::Claude => Dialect::Claude,
        AgentKind::Codex => Dialect::Codex,
        AgentKind::Gemini => Dialect::Gemini,
        AgentKind::Copilot => Dialect::CopilotCamel,
        AgentKind::Cursor => Dialect::Cursor,
    }
}

fn micros(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// Directories (relative to the project root and to the home directory) where coding agents
/// keep hook settings; the ones that exist join the protected set, so whole-tree operations
/// (`git clean`, `git stash -u`, `rm -rf` of a parent) can be judged without I/O in the policy.
const AGENT_CONFIG_DIRS: &[&str] = &[
    ".claude",
    ".codex",
    ".gemini",
    ".github/hooks",
    ".github/copilot",
    ".copilot",
    ".cursor",
];

/// The protected set for a call: hookgate's own data, config and policy, the project's
/// `.hookgate/`, the binary the agents run; and, into [`Ctx::protected_if_present`], every
/// agent hook config directory of the project and of the home directory — looked up only if
/// the call turns out to write, delete or move something (an allowed read-only call pays no
/// `stat` for them).
fn protected_set(ctx: &mut Ctx, opts: &GuardOptions, project: &Project, home: Option<&Path>) {
    let out = &mut ctx.protected_paths;
    out.push(opts.home.clone());
    // Where records the store refused are kept and counted, and the once-per-session note
    // marked (`$XDG_RUNTIME_DIR/hookgate/…`, `$TMPDIR/hookgate-<uid>/…`): deleting them
    // erases records, pre-creating a mark silences the note.
    out.extend(
        hookgate_audit::Unstored::for_home(&opts.home)
            .dirs()
            .iter()
            .filter(|d| **d != opts.home)
            .cloned(),
    );
    if let Some(dir) = &opts.config_dir {
        out.push(dir.clone());
    }
    out.extend(opts.policy_files.iter().cloned());
    if let Some(exe) = own_executable() {
        out.push(exe);
    }
    // Discovery already found the project's `.hookgate/` directory when there is one; else
    // whatever sits at that name (a file, a dangling link) is protected while it exists.
    match &project.hookgate_dir {
        Some(dir) => out.push(dir.clone()),
        None => ctx
            .protected_if_present
            .push(project.root.join(hookgate_project::HOOKGATE_DIR_NAME)),
    }
    for base in std::iter::once(project.root.as_path()).chain(home) {
        ctx.protected_if_present
            .extend(AGENT_CONFIG_DIRS.iter().map(|dir| base.join(dir)));
    }
    // The guard's location variables, which the agent's shell shares: `$HOOKGATE_HOME` in a
    // command names the store this guard protects.
    ctx.known_env.extend(
        ["HOOKGATE_HOME", "HOOKGATE_CONFIG_DIR", "HOOKGATE_STATE_DIR"]
            .iter()
            .filter_map(|name| {
                let v = std::env::var(name).ok().filter(|v| !v.is_empty())?;
                Some(((*name).to_owned(), v))
            }),
    );
    // `PATH`, so `$(which hookgate)` and a bare `hookgate` in an agent's hook command name
    // the binary they run (the policy looks paths up lazily, on calls that write).
    if let Some(path) = std::env::var_os("PATH") {
        ctx.search_path = std::env::split_paths(&path).collect();
    }
}

/// The command lines of the loaded command hooks, each with the directory it runs in (its
/// `working_dir` when literal, else the call's), for the protected set
/// ([`Ctx::hook_commands`]): the scripts they run enforce the guard too.
fn hook_command_lines(loaded: Option<&Loaded>, cwd: &Path) -> Vec<(String, PathBuf)> {
    let Some(loaded) = loaded else {
        return Vec::new();
    };
    loaded
        .config
        .entries
        .iter()
        .filter_map(|e| match &e.runtime {
            hookgate_engine::config::RuntimeSpec::Command {
                command,
                args,
                working_dir,
                ..
            } => {
                let line = match args {
                    // Exec form: the words as given, quoted for the shell parser.
                    Some(args) => std::iter::once(command)
                        .chain(args)
                        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                        .collect::<Vec<_>>()
                        .join(" "),
                    None => command.clone(),
                };
                // `~`/`$VAR` forms are expanded at run time: the call's directory stands in.
                let dir = working_dir
                    .as_deref()
                    .filter(|d| !d.contains('$') && !d.starts_with('~'))
                    .map_or_else(|| cwd.to_path_buf(), |d| cwd.join(d));
                Some((line, dir))
            }
            _ => None,
        })
        .collect()
}

/// This process's executable, symlinks resolved. On Linux `current_exe` reads
/// `/proc/self/exe`, which the kernel already gives fully resolved, so it is not canonicalised
/// again (that would be one `readlink` per path component on every call).
fn own_executable() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    if cfg!(target_os = "linux") {
        return Some(exe);
    }
    Some(exe.canonicalize().unwrap_or(exe))
}

/// Where the call is judged. The branch comes from the repository discovery already found
/// (one walk up the tree per call, not one per fact).
fn context(opts: &GuardOptions, found: &Project) -> Ctx {
    let project = found.root.as_path();
    let home = std::env::home_dir();
    let mut ctx = Ctx::new(project, home.clone());
    ctx.branch = found.git.as_ref().and_then(|g| git::branch_in(&g.git_dir));
    // Read only when a lease-checked push asks for them (`Evaluation::remote_defaults_wanted`).
    ctx.remote_default_branches = None;
    if let Some(tmp) = std::env::var_os("TMPDIR").map(PathBuf::from) {
        ctx.temp_dirs.push(tmp);
    }
    protected_set(&mut ctx, opts, found, home.as_deref());
    ctx
}

/// A project's config as the guard uses it: read once, its trust computed on those bytes, and
/// the same bytes handed to the policy and hooks loaders (see
/// [`hookgate_project::ConfigSnapshot`]: no second read, no gap between check and use).
struct ProjectConfig {
    snapshot: Option<ConfigSnapshot>,
    trust: TrustState,
    /// Why the project's `.hookgate/` could not be read, when it could not.
    unreadable: Option<String>,
}

impl ProjectConfig {
    fn read(project: &Project, user_dir: Option<&Path>) -> Self {
        let Some(dir) = &project.hookgate_dir else {
            return Self {
                snapshot: None,
                trust: TrustState::NoProjectConfig,
                unreadable: None,
            };
        };
        // An unreadable `.hookgate/` cannot be trusted, so it could only have tightened the
        // guard: it is ignored with a note (a repository shipping, say, a policy.yaml that
        // links to an unreadable file must not fail every call).
        let (snapshot, unreadable) = match ConfigSnapshot::read(dir) {
            Ok(snapshot) => (Some(snapshot), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let trust = hookgate_project::trust_state_of(snapshot.as_ref(), user_dir);
        Self {
            snapshot,
            trust,
            unreadable,
        }
    }
}

/// Which part of a project's config an ignored item comes from, so each view (`policy check`,
/// `config check`) lists the items of its own part, and `doctor` and the hook all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigPart {
    /// The `.hookgate/` directory itself (it could not be read).
    Directory,
    /// `.hookgate/policy.yaml`.
    Policy,
    /// The hook config files (`hooks.yaml`, `config.toml`, `hooks.d/*`).
    Hooks,
}

/// One thing of a project's config that the guard did not apply, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IgnoredItem {
    /// The part of the config it comes from.
    pub part: ConfigPart,
    /// One line naming the file (and line, where known), what was ignored and why.
    pub line: String,
    /// A whole file, layer or entry that does not load (`line` names the error), as opposed
    /// to something that loaded but may not apply from an untrusted project.
    pub unloadable: bool,
}

/// One policy file the guard layered, lowest precedence first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PolicyFile {
    /// The file (a file that does not exist adds nothing).
    pub path: PathBuf,
    /// False for an untrusted project's: only what tightens the guard is applied.
    pub trusted: bool,
    /// Untrusted and does not load: left out entirely (see [`load_policy_layers`]).
    pub ignored: bool,
}

/// Loads policy layers as the guard does, lowest precedence first.
///
/// Failure, decided on purpose: a trusted layer that does not load is an error (the guard
/// fails closed, through the fail mode). An untrusted layer (a project's policy the user has
/// not trusted) that does not load — alone or together with the others — is left out, and
/// the returned line says so naming the file, line and error: it could only have tightened
/// the guard, and a cloned repository must not be able to turn every call into the fail mode.
/// `policy check`, `policy test` and the hook all load through this one function, so they
/// cannot disagree about what is applied.
///
/// # Errors
///
/// A trusted layer that does not load.
pub fn load_policy_layers(
    mut layers: Vec<PolicyLayer>,
) -> Result<(Policy, Option<(PathBuf, String)>), hookgate_policy::PolicyError> {
    let error = match Policy::load_layers(&layers) {
        Ok(policy) => return Ok((policy, None)),
        Err(error) => error,
    };
    let Some(at) = layers.iter().position(|l| !l.trusted) else {
        return Err(error);
    };
    let left_out = layers.remove(at);
    let policy = Policy::load_layers(&layers)?;
    let named = if error.file.as_ref() == Some(&left_out.path) {
        error.to_string()
    } else {
        format!("{}: {error}", left_out.path.display())
    };
    Ok((
        policy,
        Some((
            left_out.path,
            format!(
                "{named}: not loaded (untrusted project config that does not load is ignored; fix it, then `hookgate trust`)"
            ),
        )),
    ))
}

/// The effective policy: the user's own file and `--policy` files are trusted; the project's
/// `.hookgate/policy.yaml` only once `hookgate trust` pinned its current content (until then
/// it may only tighten). The project's file is parsed from the bytes its trust was computed on.
/// Failure: see [`load_policy_layers`]; the returned line names an untrusted file left out.
fn load_policy(
    opts: &GuardOptions,
    project: &Project,
    config: &ProjectConfig,
) -> Result<(Policy, Vec<PolicyFile>, Option<String>), GuardError> {
    let mut layers: Vec<PolicyLayer> = Vec::new();
    if let Some(dir) = &opts.config_dir {
        layers.push(PolicyLayer::trusted(dir.join("policy.yaml")));
    }
    if let Some(file) = project.policy_file() {
        let layer = PolicyLayer::new(file, config.trust.is_trusted());
        // Read once: the snapshot's bytes, or (when the snapshot holds no policy file, or the
        // directory could not be read) an empty text, so the loader never reads a file that
        // appeared after the snapshot nor one the snapshot could not read.
        let bytes = config
            .snapshot
            .as_ref()
            .and_then(|s| s.file("policy.yaml"))
            .map(|f| f.bytes.clone())
            .unwrap_or_default();
        layers.push(layer.with_text(bytes));
    }
    layers.extend(opts.policy_files.iter().map(PolicyLayer::trusted));
    let files = |layers: &[PolicyLayer]| -> Vec<PolicyFile> {
        layers
            .iter()
            .map(|l| PolicyFile {
                path: l.path.clone(),
                trusted: l.trusted,
                ignored: false,
            })
            .collect()
    };
    let mut all = files(&layers);
    let (policy, left_out) = load_policy_layers(layers)?;
    let left_out = left_out.map(|(path, line)| {
        for f in all.iter_mut().filter(|f| f.path == path && !f.trusted) {
            f.ignored = true;
        }
        line
    });
    Ok((policy, all, left_out))
}

/// What of a project's config the guard applies, and what it ignores.
#[derive(Debug)]
pub struct Applied {
    /// The effective policy.
    pub policy: Policy,
    /// The policy files layered, in order.
    pub policy_files: Vec<PolicyFile>,
    /// The hook config (`None`: none anywhere, or not asked for).
    pub hooks: Option<Loaded>,
    /// Everything of the project's config that was not applied, with why.
    pub ignored: Vec<IgnoredItem>,
}

/// The line for a project `.hookgate/` that could not be read (and so is ignored: see
/// [`ProjectConfig::read`]).
fn directory_ignored(project: &Project, config: &ProjectConfig) -> Option<IgnoredItem> {
    let (why, dir) = (config.unreadable.as_ref()?, project.hookgate_dir.as_ref()?);
    Some(IgnoredItem {
        part: ConfigPart::Directory,
        line: format!(
            "{}: cannot be read ({why}): not loaded (untrusted project config that does not load is ignored)",
            dir.display()
        ),
        unloadable: true,
    })
}

/// The hook config as the guard runs it ([`bridge::load_user_hooks`] on the snapshot whose
/// trust was computed), adding to `ignored` what of the project's was not applied.
fn load_hooks(
    opts: &GuardOptions,
    config: &ProjectConfig,
    ignored: &mut Vec<IgnoredItem>,
) -> Result<Option<Loaded>, GuardError> {
    let hooks = bridge::load_user_hooks(
        opts.config_dir.as_deref(),
        config.snapshot.as_ref(),
        config.trust.is_trusted(),
    )?;
    ignored.extend(
        hooks
            .iter()
            .flat_map(|l| l.notes.iter())
            .map(|note| IgnoredItem {
                part: ConfigPart::Hooks,
                line: note.to_string(),
                unloadable: note.unloadable,
            }),
    );
    Ok(hooks)
}

/// The project's config as the guard applies it: the policy, the hook config (when asked
/// for), and what of the project's was ignored. Every hook call, `explain`, `doctor`
/// ([`project_status`]) and `policy check/test` ([`effective_config`]) go through this one
/// function — `config check` and `fire` through its hook half ([`effective_hooks`]) — so no
/// view can show a config the hook does not apply.
fn load_config(
    opts: &GuardOptions,
    project: &Project,
    config: &ProjectConfig,
    with_hooks: bool,
) -> Result<Applied, GuardError> {
    let mut ignored: Vec<IgnoredItem> = directory_ignored(project, config).into_iter().collect();
    let (policy, policy_files, left_out) = load_policy(opts, project, config)?;
    ignored.extend(policy.notes().iter().map(|note| IgnoredItem {
        part: ConfigPart::Policy,
        line: note.to_string(),
        unloadable: false,
    }));
    ignored.extend(left_out.map(|line| IgnoredItem {
        part: ConfigPart::Policy,
        line,
        unloadable: true,
    }));
    let hooks = if with_hooks {
        load_hooks(opts, config, &mut ignored)?
    } else {
        None
    };
    Ok(Applied {
        policy,
        policy_files,
        hooks,
        ignored,
    })
}

/// A project's config exactly as the hook applies it, for the views of it.
#[derive(Debug)]
pub struct EffectiveConfig {
    /// The project, by the one discovery rule.
    pub project: Project,
    /// Its trust, computed on the bytes that were loaded.
    pub trust: TrustState,
    /// What is applied and what is ignored.
    pub applied: Applied,
}

/// The config the hook would apply to a call made in `cwd`: the same discovery, the same
/// snapshot of the project's `.hookgate/` and its trust, the same loaders
/// ([`load_config`]). `policy check`, `policy test` and `doctor` show this, so what they show
/// is what the hook applies.
///
/// # Errors
///
/// A trusted policy or hook config (the user's, `--policy` files, a trusted project's) that
/// does not load: the hook fails closed on it.
pub fn effective_config(
    opts: &GuardOptions,
    cwd: &Path,
    with_hooks: bool,
) -> Result<EffectiveConfig, GuardError> {
    let project = hookgate_project::discover_in(cwd, opts.config_dir.as_deref());
    let config = ProjectConfig::read(&project, opts.config_dir.as_deref());
    let applied = load_config(opts, &project, &config, with_hooks)?;
    Ok(EffectiveConfig {
        project,
        trust: config.trust,
        applied,
    })
}

/// The hook config the hook would run for a call made in `cwd`, and what of the project's
/// was ignored — [`effective_config`] without the policy, for `config check` and `fire`
/// (which run hooks, not the policy: a broken policy of the user's is not theirs to report).
#[derive(Debug)]
pub struct EffectiveHooks {
    /// The project, by the one discovery rule.
    pub project: Project,
    /// Its trust, computed on the bytes that were loaded.
    pub trust: TrustState,
    /// The hook config (`None`: no hook config anywhere).
    pub hooks: Option<Loaded>,
    /// What of the project's hook config (or its `.hookgate/`) was not applied, with why.
    pub ignored: Vec<IgnoredItem>,
}

/// See [`EffectiveHooks`].
///
/// # Errors
///
/// The user's hook config, or a trusted project's, that does not load.
pub fn effective_hooks(opts: &GuardOptions, cwd: &Path) -> Result<EffectiveHooks, GuardError> {
    let project = hookgate_project::discover_in(cwd, opts.config_dir.as_deref());
    let config = ProjectConfig::read(&project, opts.config_dir.as_deref());
    let mut ignored: Vec<IgnoredItem> = directory_ignored(&project, &config).into_iter().collect();
    let hooks = load_hooks(opts, &config, &mut ignored)?;
    Ok(EffectiveHooks {
        project,
        trust: config.trust,
        hooks,
        ignored,
    })
}

/// What a project's config amounts to for the guard: where it is, whether it is trusted, and
/// everything of it that was ignored because it is not. `doctor` shows this; the hook
/// computes the same from the same functions on every call.
#[derive(Debug, Clone, Serialize)]
pub struct ProjectStatus {
    /// The project, by the one discovery rule.
    pub project: Project,
    /// Its trust.
    pub trust: TrustState,
    /// One line per policy setting, rule, hook or file of the project that was not applied.
    pub ignored: Vec<String>,
}

/// The [`ProjectStatus`] of the project containing `cwd`. An error is a trusted policy or
/// hook config that cannot be loaded at all (the hook fails closed on it).
pub fn project_status(opts: &GuardOptions, cwd: &Path) -> Result<ProjectStatus, GuardError> {
    let effective = effective_config(opts, cwd, true)?;
    Ok(ProjectStatus {
        project: effective.project,
        trust: effective.trust,
        ignored: effective
            .applied
            .ignored
            .into_iter()
            .map(|i| i.line)
            .collect(),
    })
}

/// The one note a session sees about untrusted project config (details are in the record):
/// how much was ignored, and each file that does not load with its error.
fn untrusted_note(project: &Project, trust: TrustState, ignored: &[IgnoredItem]) -> Option<String> {
    let TrustState::Untrusted { reason } = trust else {
        return None;
    };
    if ignored.is_empty() {
        return None;
    }
    let dir = project
        .hookgate_dir
        .as_deref()
        .unwrap_or(&project.root)
        .display();
    let mut note = format!("{dir} is not trusted ({reason})");
    let unloadable: Vec<&str> = ignored
        .iter()
        .filter(|i| i.unloadable)
        .map(|i| i.line.as_str())
        .collect();
    if !unloadable.is_empty() {
        let _ = write!(
            note,
            "; it does not load, so it was ignored: {}",
            unloadable.join("; ")
        );
    }
    let others = ignored.len() - unloadable.len();
    if others > 0 {
        let _ = write!(
            note,
            "; {others} setting(s) or hook(s) that could loosen the guard or act beyond it were ignored"
        );
    }
    let _ = write!(
        note,
        "; review it and run `hookgate trust {}` to apply it",
        project.root.display()
    );
    Some(note)
}

fn open_store(opts: &GuardOptions) -> Result<Option<Store>, String> {
    let backend = match opts.store {
        StoreChoice::Off => return Ok(None),
        StoreChoice::Sqlite => hookgate_audit::Backend::Sqlite,
        StoreChoice::Jsonl => hookgate_audit::Backend::Jsonl,
    };
    Store::open(&opts.home, backend)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Appends `record` to the store. A store that cannot take it (or could not be opened) never
/// changes the decision — the audit trail is not the guard — but nothing is lost silently:
/// the record goes to a fallback file, the failure is counted where `log`, `stats` and `doctor`
/// read it, and the caller learns whether this is the session's first failure so the user is
/// told once. `None`: stored (or the store is off).
fn keep(
    store: Option<&Store>,
    store_error: Option<&str>,
    opts: &GuardOptions,
    record: &Record,
) -> Option<(hookgate_audit::Kept, String)> {
    if opts.store == StoreChoice::Off {
        return None;
    }
    let error = match store {
        Some(s) => match s.record(record) {
            Ok(()) => return None,
            Err(e) => e.to_string(),
        },
        None => store_error
            .unwrap_or("the audit store is unavailable")
            .to_owned(),
    };
    let kept = hookgate_audit::Unstored::for_home(&opts.home).keep(record, &error);
    Some((kept, error))
}

/// The note for the user when the audit store refused a record.
fn unstored_note(kept: &hookgate_audit::Kept, error: &str) -> String {
    let kept_in = kept.fallback.as_ref().map_or_else(
        || "and no fallback file could be written".to_owned(),
        |f| format!("kept in {}", f.display()),
    );
    format!(
        "the audit store could not record this call ({error}); {kept_in}. Decisions still apply; run `hookgate doctor`"
    )
}

/// Adds a note to an answer already built (context where the event consumes it, else a
/// message for the user).
fn add_note(j: &mut Judgement, note: String) {
    if hookgate_agents::supports_context(j.dialect, j.event) {
        j.reply.context.push(format!("hookgate: {note}"));
    } else {
        let message = format!("hookgate: {note}");
        j.reply.system_message = Some(match j.reply.system_message.take() {
            Some(m) => format!("{m}\n{message}"),
            None => message,
        });
    }
    j.verdict.notes.push(note);
}

/// The fail-mode decision for an internal failure, where the event can take it.
fn fail_decision(opts: &GuardOptions, dialect: Dialect, event: EventId) -> Decision {
    match opts.fail_mode {
        FailMode::Ask if supports_ask(dialect, event) => Decision::Ask,
        _ => Decision::Deny,
    }
}

/// A judgement that is the fail mode: hookgate could not evaluate the call.
///
/// The fail mode's `ask` goes through the same reach check as every other ask: where nobody
/// would be asked (a permission mode that asks nobody, an agent or event without ask) it
/// falls back, and the reason says both why the call could not be judged and why nobody was
/// asked. It falls back to deny even when the ask-fallback is set to no opinion: that setting
/// lets through calls hookgate *judged* worth asking about, while here nothing was judged —
/// the fail mode is "ask where someone is asked, else deny", never a silent allow.
fn failed(
    opts: &GuardOptions,
    dialect: Dialect,
    event: EventId,
    native: &str,
    call: Option<CanonicalCall>,
    why: String,
) -> Judgement {
    let judged = fail_decision(opts, dialect, event);
    let mut decision = Some(judged);
    let mut reason = format!("hookgate could not evaluate this call ({why}); failing {judged}");
    let mut fallback = None;
    if judged == Decision::Ask {
        let reach = match &call {
            Some(c) => Reach::of(c, dialect, &opts.cwd),
            None => Reach {
                dialect,
                event,
                agent: opts.agent,
                from_payload: None,
                kind: None,
                cwd: opts.cwd.clone(),
                nobody: OnceCell::new(),
            },
        };
        if let Some(nobody) = reach.nobody() {
            let (fallen, sentence) = fall_back(Decision::Deny, nobody);
            decision = fallen;
            let _ = write!(reason, " ({sentence})");
            fallback = Some(sentence);
        }
    }
    let project = call
        .as_ref()
        .map_or_else(|| opts.cwd.clone(), |c| PathBuf::from(&c.cwd));
    Judgement {
        dialect,
        event,
        native_event: native.to_owned(),
        call,
        original_command: None,
        project,
        verdict: Verdict {
            decision,
            judged: Some(judged),
            reason: Some(reason.clone()),
            fallback,
            error: Some(why),
            ..Verdict::default()
        },
        reply: Reply {
            decision,
            reason: Some(reason),
            ..Reply::default()
        },
        trace: Map::new(),
        unhandled: false,
    }
}

/// Whether an `ask` about one call reaches a person, found out only when an ask is at stake:
/// the permission mode can take reading the environment, the agent's command line and
/// Gemini's settings files — work an allowed or denied call never pays for.
struct Reach {
    dialect: Dialect,
    event: EventId,
    agent: AgentKind,
    /// What the payload itself says (`permission_mode`).
    from_payload: Option<hookgate_core::Approval>,
    kind: Option<hookgate_core::ToolKind>,
    /// The agent's working directory (Gemini reads its project settings there).
    cwd: PathBuf,
    nobody: OnceCell<Option<String>>,
}

impl Reach {
    fn of(call: &CanonicalCall, dialect: Dialect, fallback_cwd: &Path) -> Self {
        Self {
            dialect,
            event: call.event,
            agent: call.agent,
            from_payload: call.approval.clone(),
            kind: call.tool.as_ref().map(|t| t.kind),
            cwd: if call.cwd.is_empty() {
                fallback_cwd.to_path_buf()
            } else {
                PathBuf::from(&call.cwd)
            },
            nobody: OnceCell::new(),
        }
    }

    /// Why nobody would be asked, or `None` when someone would.
    fn nobody(&self) -> Option<&str> {
        self.nobody
            .get_or_init(|| {
                let mode = approval(self.dialect, self.from_payload.clone(), &self.cwd);
                match mode {
                    Some(a) if !a.asks_for(self.kind) => Some(format!(
                        "the agent runs in `{}` mode, where nobody is asked",
                        a.native
                    )),
                    _ if !supports_ask(self.dialect, self.event) => {
                        Some(format!("{} cannot ask at this event", self.agent.as_str()))
                    }
                    _ => None,
                }
            })
            .as_deref()
    }
}

/// What an `ask` that would reach nobody becomes: the ask-fallback (`Allow` as a fallback is
/// no opinion, never an approval), and the sentence saying so.
fn fall_back(ask_fallback: Decision, nobody: &str) -> (Option<Decision>, String) {
    let fallen = (ask_fallback != Decision::Allow).then_some(Decision::Deny);
    let word = fallen.map_or("no opinion", Decision::as_str);
    (
        fallen,
        format!("hookgate would ask, but {nobody}: answering {word}"),
    )
}

/// What the judges concluded, folded: the policy's evaluation and the user's hooks on the
/// decision lattice, then the ask-fallback where an `ask` would reach nobody.
#[derive(Debug, Clone, Default)]
struct Combined {
    judged: Option<Decision>,
    decision: Option<Decision>,
    determining: Vec<String>,
    reason: Option<String>,
    suggestion: Option<String>,
    fallback: Option<String>,
    way_through: Option<String>,
}

fn combine(
    eval: &Evaluation,
    hooks: Option<&Outcome>,
    reach: &Reach,
    ask_fallback: Decision,
) -> Combined {
    let from_policy = eval.decision;
    let from_hooks = hooks.and_then(|o| o.decision);
    let judged = from_policy.max(from_hooks);
    let mut out = Combined {
        judged,
        ..Combined::default()
    };
    let mut reasons: Vec<String> = Vec::new();
    if judged.is_some() {
        if from_policy == judged {
            out.determining.extend(eval.determining.iter().cloned());
            reasons.extend(eval.reason.iter().cloned());
            out.suggestion.clone_from(&eval.suggestion);
            out.way_through.clone_from(&eval.way_through);
        }
        if from_hooks == judged
            && let Some(outcome) = hooks
        {
            let id = outcome
                .decided_by
                .as_ref()
                .map_or_else(|| "hook".to_owned(), |h| format!("hook:{h}"));
            reasons.push(match &outcome.reason {
                Some(r) => format!("{id}: {r}"),
                None => id.clone(),
            });
            out.determining.push(id);
        }
    }
    out.reason = (!reasons.is_empty()).then(|| reasons.join("; "));
    out.decision = judged;
    if judged == Some(Decision::Ask)
        && let Some(nobody) = reach.nobody()
    {
        let (fallen, sentence) = fall_back(ask_fallback, nobody);
        out.decision = fallen;
        if let Some(r) = &mut out.reason {
            let _ = write!(r, " ({sentence})");
        }
        out.fallback = Some(sentence);
    }
    out
}

/// Rebuilds the call after a user hook replaced its tool input, by putting the new input where
/// the payload carried the old one and parsing the payload again with the same parser, so the
/// rewritten call is judged exactly as a call the agent sent that way would be.
fn rewritten(
    opts: &GuardOptions,
    parsed: &Parsed,
    input: &Map<String, Value>,
) -> Result<Parsed, GuardError> {
    let tool = parsed.call.tool.as_ref().ok_or(GuardError::Rewrite(
        "a hook rewrote the tool input of a call without a tool",
    ))?;
    let mut raw = parsed.raw.clone();
    let obj = raw
        .as_object_mut()
        .ok_or(GuardError::Rewrite("the payload is not a JSON object"))?;
    let old = Value::Object(tool.input.clone());
    let slot = obj
        .iter_mut()
        .find(|(_, v)| {
            **v == old
                || v.as_str()
                    .and_then(|s| serde_json::from_str::<Value>(s).ok())
                    .is_some_and(|decoded| decoded == old)
        })
        .map(|(_, v)| v)
        .ok_or(GuardError::Rewrite(
            "a hook rewrote the tool input, but this payload carries no tool input object",
        ))?;
    *slot = if slot.is_string() {
        Value::String(Value::Object(input.clone()).to_string())
    } else {
        Value::Object(input.clone())
    };
    let bytes = serde_json::to_vec(&raw)
        .map_err(|_| GuardError::Rewrite("the rewritten payload cannot be written"))?;
    Ok(hookgate_agents::parse_with_event(
        opts.agent,
        opts.event_hint.as_deref(),
        &bytes,
    )?)
}

/// Who will be asked about this call: what the payload says, what the agent put in the hook's
/// environment, and, for agents that tell a hook nothing else (Gemini, Copilot), the
/// permission flags on the agent's own command line and (Gemini) its settings files —
/// combined to the one that asks least, so an `ask` is never sent where nobody will see it.
fn approval(
    dialect: Dialect,
    from_payload: Option<hookgate_core::Approval>,
    cwd: &Path,
) -> Option<hookgate_core::Approval> {
    let from_env = hookgate_agents::approval_from_env(dialect, &|name| std::env::var(name).ok());
    let mut found = hookgate_agents::combine_approvals([from_payload, from_env]);
    if matches!(dialect, Dialect::Gemini | Dialect::CopilotCamel) {
        for argv in ancestor_argvs(4) {
            let from_argv = hookgate_agents::approval_from_argv(dialect, &argv);
            found = hookgate_agents::combine_approvals([found, from_argv]);
        }
    }
    if dialect == Dialect::Gemini {
        for file in gemini_settings_files(cwd) {
            found = hookgate_agents::combine_approvals([found, gemini_settings_approval(&file)]);
        }
    }
    found
}

/// The settings files Gemini CLI layers (0.61: `_doLoadSettings`): system defaults, the
/// user's (`$GEMINI_CLI_HOME` or the home directory, then `.gemini/settings.json`), the
/// workspace's (`.gemini/settings.json` in the directory Gemini runs in), and the system
/// overrides — each path as Gemini computes it, including its environment overrides.
fn gemini_settings_files(cwd: &Path) -> Vec<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let system = var("GEMINI_CLI_SYSTEM_SETTINGS_PATH").unwrap_or_else(|| {
        PathBuf::from(if cfg!(target_os = "macos") {
            "/Library/Application Support/GeminiCli/settings.json"
        } else {
            "/etc/gemini-cli/settings.json"
        })
    });
    let defaults = var("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").unwrap_or_else(|| {
        system
            .parent()
            .unwrap_or(Path::new("/"))
            .join("system-defaults.json")
    });
    let user = var("GEMINI_CLI_HOME")
        .or_else(std::env::home_dir)
        .map(|home| home.join(".gemini/settings.json"));
    [
        Some(defaults),
        user,
        Some(cwd.join(".gemini/settings.json")),
        Some(system),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Largest Gemini settings file read (a repository's `.gemini/settings.json` is not trusted
/// to be small); a larger one states nothing.
const MAX_GEMINI_SETTINGS: u64 = 1024 * 1024;

/// The approval one Gemini settings file states, naming the file. A missing, unreadable,
/// oversized or invalid file states nothing (Gemini ignores such a file too).
fn gemini_settings_approval(file: &Path) -> Option<hookgate_core::Approval> {
    use std::io::Read as _;
    let mut text = String::new();
    std::fs::File::open(file)
        .ok()?
        .take(MAX_GEMINI_SETTINGS + 1)
        .read_to_string(&mut text)
        .ok()?;
    if text.len() as u64 > MAX_GEMINI_SETTINGS {
        return None;
    }
    let mut found = hookgate_agents::approval_from_gemini_settings(&text)?;
    found.native = format!("{} in {}", found.native, file.display());
    Some(found)
}

/// The command lines of this process's parent and its ancestors, nearest first (the agent
/// often runs a hook through `sh -c`, so its own command line is one or two levels up). Read
/// from `/proc`; empty where there is none.
fn ancestor_argvs(levels: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut pid = std::process::id();
    for _ in 0..levels {
        let Some(parent) = parent_pid(pid).filter(|p| *p > 1) else {
            break;
        };
        if let Ok(bytes) = std::fs::read(format!("/proc/{parent}/cmdline")) {
            out.push(
                bytes
                    .split(|b| *b == 0)
                    .filter(|w| !w.is_empty())
                    .map(|w| String::from_utf8_lossy(w).into_owned())
                    .collect(),
            );
        }
        pid = parent;
    }
    out
}

/// The parent of `pid`, from `/proc/<pid>/stat` (the field after the state, which follows the
/// parenthesised command name — itself free to contain spaces and parentheses).
fn parent_pid(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

/// Runs the stages for one payload. Never panics on input; every internal failure becomes the
/// fail-mode verdict (recorded as an error), never a silent allow.
pub fn judge(
    opts: &GuardOptions,
    payload: &[u8],
    store: Option<&Store>,
    mode: RunMode,
) -> Judgement {
    let started = Instant::now();
    // Parse.
    let parsed =
        match hookgate_agents::parse_with_event(opts.agent, opts.event_hint.as_deref(), payload) {
            Ok(parsed) => parsed,
            Err(ParseError::UnknownEvent(name)) => {
                // An event hookgate has no contract for (registered by hand, or new in the
                // agent): nothing to judge, so no opinion — but it is recorded.
                let mut j = failed(
                    opts,
                    default_dialect(opts.agent),
                    EventId::PreToolUse,
                    &name,
                    None,
                    String::new(),
                );
                j.verdict = Verdict {
                    error: Some("event not handled by hookgate".to_owned()),
                    ..Verdict::default()
                };
                j.reply = Reply::default();
                j.unhandled = true;
                return j;
            }
            Err(err) => {
                return failed(
                    opts,
                    default_dialect(opts.agent),
                    EventId::PreToolUse,
                    "",
                    None,
                    format!("unreadable payload: {err}"),
                );
            }
        };
    let dialect = parsed.dialect;
    let mut parsed = parsed;
    let event = parsed.call.event;
    let native = parsed.call.native_event.clone();
    let fail = |call: &CanonicalCall, why: GuardError| {
        failed(
            opts,
            dialect,
            event,
            &native,
            Some(call.clone()),
            why.to_string(),
        )
    };

    // Discover the project, once.
    let cwd = if parsed.call.cwd.is_empty() {
        opts.cwd.clone()
    } else {
        PathBuf::from(&parsed.call.cwd)
    };
    let found = hookgate_project::discover_in(&cwd, opts.config_dir.as_deref());
    let config = ProjectConfig::read(&found, opts.config_dir.as_deref());
    let trust = config.trust;
    let project = found.root.clone();
    let mut ctx = context(opts, &found);
    let mut trace = Map::new();
    // The call as the agent sent it identifies it across its events (before any rewrite).
    let mut key = None;
    match crate::allow::active(
        opts.config_dir.as_deref(),
        &project,
        hookgate_audit::now_ms(),
        &parsed,
    ) {
        Ok((active, call_key)) => {
            ctx.allowances = active;
            key = call_key;
        }
        Err(why) => {
            trace.insert("allowances_error".into(), json!(why));
        }
    }
    trace.insert("dialect".into(), json!(dialect));
    trace.insert("native_event".into(), json!(native));
    trace.insert("project".into(), json!(project));
    trace.insert("trust".into(), json!(trust));

    let Applied {
        policy,
        hooks: loaded,
        ignored,
        ..
    } = match load_config(opts, &found, &config, opts.user_hooks) {
        Ok(applied) => applied,
        Err(why) => return fail(&parsed.call, why),
    };
    ctx.hook_commands = hook_command_lines(loaded.as_ref(), &cwd);

    // Transforms: the user's hooks run on the call as sent; a rewrite replaces the call, and
    // everything after this point judges the final input. `explain` runs only the hooks
    // without side effects, and names the others.
    let mut original_command = None;
    let mut would_run = Vec::new();
    let hooks = if opts.user_hooks {
        let t = Instant::now();
        let run = match mode {
            RunMode::Live => bridge::HookRun::All,
            RunMode::Explain => bridge::HookRun::ReadOnly,
        };
        match bridge::run_user_hooks(&parsed.call, &parsed.raw, loaded, run) {
            Ok(user) => {
                if let Some(o) = &user.outcome {
                    trace.insert(
                        "user_hooks".into(),
                        json!({"micros": micros(t), "outcome": o}),
                    );
                }
                would_run = user.would_run;
                user.outcome
            }
            Err(e) => return fail(&parsed.call, e.into()),
        }
    } else {
        None
    };
    if !ignored.is_empty() {
        let lines: Vec<&str> = ignored.iter().map(|i| i.line.as_str()).collect();
        trace.insert("ignored_untrusted".into(), json!(lines));
    }
    if let Some(input) = hooks.as_ref().and_then(|o| o.updated_input.as_ref())
        && hooks.as_ref().and_then(|o| o.decision) != Some(Decision::Deny)
    {
        original_command = parsed.call.tool.as_ref().and_then(|t| t.command.clone());
        parsed = match rewritten(opts, &parsed, input) {
            Ok(p) => p,
            Err(why) => return fail(&parsed.call, why),
        };
        trace.insert("rewritten".into(), json!(true));
    }
    let call = parsed.call;
    let notes: Vec<String> = untrusted_note(&found, trust, &ignored)
        .into_iter()
        .collect();
    let reach = Reach::of(&call, dialect, &opts.cwd);

    // Judge, inside one session transaction: read the state once, evaluate, fold, count,
    // remember, write.
    let mut combined: Option<Combined> = None;
    let mut shown: Vec<String> = Vec::new();
    // `--once` allowances are spent inside the judgement, atomically (see `crate::allow`).
    let mut spender = (mode == RunMode::Live)
        .then(|| crate::allow::Spender::new(opts.config_dir.as_deref(), key, &ctx.allowances));
    let mut worktrees: Vec<WorktreeState> = Vec::new();
    let mut pathspecs: Vec<PathspecState> = Vec::new();
    let mut tree_moves: Vec<TreeMove> = Vec::new();
    let mut branches: Vec<BranchState> = Vec::new();
    let mut archives: Vec<ArchiveListing> = Vec::new();
    let mut remote_defaults: Option<Vec<String>> = None;
    let mut judge_with = |state: &mut SessionState, live: bool| {
        let (eval, _) = policy.judge_in_session(&call, &ctx, state, |eval| {
            // A git command that replaces work-tree files with a commit's version: which
            // protected files it would change (only now, only for it).
            if !eval.tree_moves_wanted.is_empty() {
                let found: Vec<TreeMove> =
                    eval.tree_moves_wanted.iter().map(git::tree_move).collect();
                tree_moves.extend(found.iter().cloned());
                return Err(Rejudge::WithTreeMoves(found));
            }
            // A forced branch deletion: whether a commit only those branches reach would be
            // dropped (only now, only for it).
            if !eval.branches_wanted.is_empty() {
                let found: Vec<BranchState> =
                    eval.branches_wanted.iter().map(git::branch_state).collect();
                branches.extend(found.iter().cloned());
                return Err(Rejudge::WithBranches(found));
            }
            // A discard in a work tree whose state the policy needs: look it up (only now,
            // only for it) and judge again with it.
            if !eval.worktrees_wanted.is_empty() {
                let found: Vec<WorktreeState> = eval
                    .worktrees_wanted
                    .iter()
                    .map(|dir| git::worktree_state(dir))
                    .collect();
                worktrees.extend(found.iter().cloned());
                return Err(Rejudge::With(found));
            }
            // An archive extracted whole, in a call that is objected to: what it holds.
            if !eval.archives_wanted.is_empty() {
                let found: Vec<ArchiveListing> = eval
                    .archives_wanted
                    .iter()
                    .map(crate::archive::listing)
                    .collect();
                archives.extend(found.iter().cloned());
                return Err(Rejudge::WithArchives(found));
            }
            // A lease-checked push: the branches the repository's remotes start from (no
            // repository: none).
            if eval.remote_defaults_wanted {
                let defaults = found
                    .git
                    .as_ref()
                    .map(|g| git::remote_default_branches(&g.common_dir))
                    .unwrap_or_default();
                remote_defaults = Some(defaults.clone());
                return Err(Rejudge::WithRemoteDefaults(defaults));
            }
            // A checkout or restore of named paths: whether anything uncommitted is there.
            if !eval.pathspecs_wanted.is_empty() {
                let found: Vec<PathspecState> = eval
                    .pathspecs_wanted
                    .iter()
                    .map(git::pathspec_state)
                    .collect();
                pathspecs.extend(found.iter().cloned());
                return Err(Rejudge::WithPathspecs(found));
            }
            let c = combine(eval, hooks.as_ref(), &reach, opts.ask_fallback);
            let passes = !matches!(c.decision, Some(Decision::Deny | Decision::Ask));
            if let Some(spender) = spender.as_mut() {
                spender.settle(eval, passes).map_err(Rejudge::Without)?;
            }
            let d = c.decision;
            combined = Some(c);
            Ok(d)
        });
        shown = notes
            .iter()
            .filter(|n| !live || state.first_showing(n))
            .cloned()
            .collect();
        eval
    };
    let transactional = mode == RunMode::Live && !call.session_id.is_empty();
    let eval = match store {
        Some(store) if transactional => {
            let result = store.update_session_state(&call.session_id, |value| {
                let mut state: SessionState =
                    serde_json::from_value(value.clone()).unwrap_or_default();
                let before = state.clone();
                let eval = judge_with(&mut state, true);
                // Only a changed fact is written back: a new session's first call that
                // remembers nothing must not write the default state (the store writes when
                // the document differs, and an absent file reads as `{}`).
                if state != before
                    && let Ok(new) = serde_json::to_value(&state)
                {
                    *value = new;
                }
                eval
            });
            match result {
                Ok(eval) => eval,
                Err(e) => {
                    // The state could not be read or written: judge without memory (a fresh
                    // state), and say so in the trace; the call is still judged in full.
                    trace.insert("session_state_error".into(), json!(e.to_string()));
                    judge_with(&mut SessionState::default(), false)
                }
            }
        }
        Some(store) if !call.session_id.is_empty() => {
            let mut state: SessionState = store
                .session_state(&call.session_id)
                .ok()
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default();
            judge_with(&mut state, false)
        }
        _ => judge_with(&mut SessionState::default(), false),
    };
    let Some(combined) = combined else {
        return fail(&call, GuardError::Incomplete);
    };

    trace.insert("matched".into(), json!(eval.matched));
    trace.insert("steps".into(), json!(eval.steps));
    if let Some(command) = call.tool.as_ref().and_then(|t| t.command.as_ref()) {
        trace.insert("command".into(), json!(command));
    }
    if let Some(c) = &original_command {
        trace.insert("original_command".into(), json!(c));
    }
    if !eval.allowed_by.is_empty() {
        trace.insert("allowed_by".into(), json!(eval.allowed_by));
    }
    if !worktrees.is_empty() {
        trace.insert("worktrees".into(), json!(worktrees));
    }
    if !tree_moves.is_empty() {
        trace.insert("tree_moves".into(), json!(tree_moves));
    }
    if let Some(branches) = &remote_defaults {
        trace.insert("remote_default_branches".into(), json!(branches));
    }
    if !branches.is_empty() {
        trace.insert("branches".into(), json!(branches));
    }
    if !pathspecs.is_empty() {
        trace.insert("pathspecs".into(), json!(pathspecs));
    }
    if !archives.is_empty() {
        // The record keeps what was looked at, not every member name.
        let summary: Vec<Value> = archives
            .iter()
            .map(|a| {
                json!({
                    "archive": a.archive,
                    "format": a.format,
                    "members": a.members.as_ref().map(Vec::len),
                })
            })
            .collect();
        trace.insert("archives".into(), json!(summary));
    }
    if let Some(spender) = &spender {
        for (name, ids) in [
            ("allowances_used_up", &spender.spent_now),
            ("allowances_used_by_this_call", &spender.spent_before),
            ("allowances_lost", &spender.lost),
        ] {
            if !ids.is_empty() {
                trace.insert(name.into(), json!(ids));
            }
        }
        if let Some(why) = &spender.error {
            trace.insert("allowances_error".into(), json!(why));
        }
    }
    trace.insert("judge_micros".into(), json!(micros(started)));

    let verdict = Verdict {
        decision: combined.decision,
        judged: combined.judged,
        determining: combined.determining,
        reason: combined.reason,
        suggestion: combined.suggestion,
        fallback: combined.fallback,
        way_through: combined.way_through,
        allowed_by: eval.allowed_by,
        actions: eval.actions,
        matched: eval.matched,
        notes: shown,
        would_run,
        error: None,
    };
    let mut reply = reply_for(
        &verdict,
        eval.context.as_ref(),
        hooks.as_ref(),
        dialect,
        event,
    );
    if event == EventId::SessionStart && hookgate_agents::supports_context(dialect, event) {
        let line = crate::session_line::session_line(opts, &found, trust, &policy);
        reply.context.insert(0, line);
    }
    Judgement {
        dialect,
        event,
        native_event: native,
        call: Some(call),
        original_command,
        project,
        verdict,
        reply,
        trace,
        unhandled: false,
    }
}

/// The answer for a verdict: its decision and reason, context and messages where the event
/// consumes them, the rewritten input where the call may run.
fn reply_for(
    verdict: &Verdict,
    monitored: Option<&String>,
    hooks: Option<&Outcome>,
    dialect: Dialect,
    event: EventId,
) -> Reply {
    let reason = match (&verdict.reason, &verdict.suggestion) {
        (Some(r), Some(s)) => Some(format!("{r} (suggestion: {s})")),
        (r, _) => r.clone(),
    };
    // Every deny and ask names hookgate, the determining ids (in `reason`) and the way through.
    let reason = match (reason, &verdict.way_through) {
        (Some(r), Some(w)) if verdict.decision.is_some() => Some(format!("hookgate: {r}. {w}")),
        (r, _) => r,
    };
    let mut reply = Reply {
        decision: verdict.decision,
        reason,
        context: monitored.into_iter().cloned().collect(),
        ..Reply::default()
    };
    let mut messages: Vec<String> = Vec::new();
    if let Some(outcome) = hooks {
        reply
            .context
            .extend(outcome.additional_context.iter().cloned());
        messages.extend(outcome.system_messages.iter().cloned());
        if verdict.decision != Some(Decision::Deny) {
            reply.updated_input.clone_from(&outcome.updated_input);
        }
    }
    for note in &verdict.notes {
        if hookgate_agents::supports_context(dialect, event) {
            reply.context.push(format!("hookgate: {note}"));
        } else {
            messages.push(format!("hookgate: {note}"));
        }
    }
    if !messages.is_empty() {
        reply.system_message = Some(messages.join("\n"));
    }
    reply
}

/// The agent's answer for a judgement, in its dialect.
pub fn answer(j: &Judgement, opts: &GuardOptions) -> Encoded {
    if j.unhandled {
        return Encoded::default();
    }
    encode(
        j.dialect,
        j.event,
        &j.native_event,
        &j.reply,
        opts.ask_fallback,
    )
}

/// The audit record of a judgement: every field from the verdict.
pub fn record_of(j: &Judgement, opts: &GuardOptions, encoded: &Encoded, micros: u64) -> Record {
    let (agent, session, event) = match &j.call {
        Some(call) => (
            call.agent.as_str(),
            call.session_id.as_str(),
            call.event.name(),
        ),
        None if j.unhandled => (opts.agent.as_str(), "", j.native_event.as_str()),
        None => (opts.agent.as_str(), "", "unknown"),
    };
    let mut record = Record::new(agent, session, event);
    let v = &j.verdict;
    if let Some(call) = &j.call {
        record.cwd.clone_from(&call.cwd);
        if record.cwd.is_empty() {
            record.cwd = opts.cwd.display().to_string();
        }
        record.tool = call.tool.as_ref().map(|t| t.name.clone());
    }
    record.decision = if v.error.is_some() && !j.unhandled {
        hookgate_audit::RecordDecision::Error
    } else {
        v.decision.into()
    };
    record.reason.clone_from(&v.reason);
    if let (Some(e), false) = (&v.error, j.unhandled) {
        record.reason = Some(format!(
            "failed {}",
            v.decision.map_or("none", Decision::as_str)
        ));
        record.error = Some(e.clone());
    } else if j.unhandled {
        record.error.clone_from(&v.error);
    }
    record.rules.clone_from(&v.determining);
    record.action = v.actions.first().map(|a| a.kind.as_str().to_owned());
    record.targets = v
        .actions
        .iter()
        .flat_map(|a| a.targets.iter().cloned())
        .collect();
    if record.targets.is_empty()
        && let Some(command) = j
            .call
            .as_ref()
            .and_then(|c| c.tool.as_ref())
            .and_then(|t| t.command.clone())
    {
        record.targets.push(command);
    }
    let mut trace = j.trace.clone();
    trace.insert("determining".into(), json!(v.determining));
    if let Some(f) = &v.fallback {
        trace.insert("fallback".into(), json!(f));
    }
    if !v.notes.is_empty() {
        trace.insert("notes".into(), json!(v.notes));
    }
    trace.insert("exit_code".into(), json!(encoded.exit_code));
    record.trace = Value::Object(trace);
    record.duration_us = micros;
    record
}

/// Records a call the guard could not finish judging: it crashed (`id` `guard-crash`) or ran
/// past its deadline (`guard-deadline`), and the process that was judging it already answered
/// the fail-closed deny (exit 2, `why` on stderr) and was replaced by the one calling this.
///
/// Invariant protected: **every answer the agent got is in the audit trail**, a crash's too —
/// so `log`, `stats` and the sinks show that a call was blocked because the guard failed, and
/// on which call (a payload that crashes the guard is worth finding). The payload is only
/// decoded, never judged again: the judging is what failed. `payload` is `None` when the
/// process died before it had read one. The record is a deny with the error set, whatever the
/// fail mode: the fail-closed answer does not depend on it.
pub fn record_unfinished(
    opts: &GuardOptions,
    payload: Option<&[u8]>,
    id: &str,
    why: &str,
) -> Record {
    let started = Instant::now();
    let parsed = payload.and_then(|p| {
        hookgate_agents::parse_with_event(opts.agent, opts.event_hint.as_deref(), p).ok()
    });
    let (dialect, event, native, call) = match parsed {
        Some(parsed) => (
            parsed.dialect,
            parsed.call.event,
            parsed.call.native_event.clone(),
            Some(parsed.call),
        ),
        None => (
            default_dialect(opts.agent),
            EventId::PreToolUse,
            String::new(),
            None,
        ),
    };
    let reason = format!("hookgate: {id}: {why}");
    let project = call
        .as_ref()
        .map_or_else(|| opts.cwd.clone(), |c| PathBuf::from(&c.cwd));
    let j = Judgement {
        dialect,
        event,
        native_event: native,
        call,
        original_command: None,
        project,
        verdict: Verdict {
            decision: Some(Decision::Deny),
            judged: Some(Decision::Deny),
            determining: vec![id.to_owned()],
            reason: Some(reason.clone()),
            error: Some(format!("{id}: {why}")),
            ..Verdict::default()
        },
        reply: Reply {
            decision: Some(Decision::Deny),
            reason: Some(reason.clone()),
            ..Reply::default()
        },
        trace: Map::new(),
        unhandled: false,
    };
    // What the agent really got: no stdout, the reason on stderr, exit 2.
    let sent = Encoded {
        stdout: Vec::new(),
        stderr: format!("{reason}\n").into_bytes(),
        exit_code: i32::from(hookgate_agents::FAIL_CLOSED_EXIT_STATUS),
    };
    let record = record_of(&j, opts, &sent, micros(started));
    let store = open_store(opts);
    let store_error = store.as_ref().err().cloned();
    let _ = keep(
        store.ok().flatten().as_ref(),
        store_error.as_deref(),
        opts,
        &record,
    );
    record
}

/// Answers with the fail mode without reading a payload (the caller could not get one), and
/// records the failure.
pub fn fail(opts: &GuardOptions, why: &str) -> (Encoded, Record) {
    let started = Instant::now();
    let store = open_store(opts).ok().flatten();
    let j = failed(
        opts,
        default_dialect(opts.agent),
        EventId::PreToolUse,
        "",
        None,
        why.to_owned(),
    );
    let encoded = answer(&j, opts);
    let record = record_of(&j, opts, &encoded, micros(started));
    let _ = keep(store.as_ref(), None, opts, &record);
    (encoded, record)
}

/// Runs one guard call. Never panics on input; every failure takes the fail mode.
pub fn run(opts: &GuardOptions, payload: &[u8]) -> Encoded {
    run_recorded(opts, payload).0
}

/// Like [`run`], also returning the audit record (already stored), for sinks such as a webhook.
pub fn run_recorded(opts: &GuardOptions, payload: &[u8]) -> (Encoded, Option<Record>) {
    let started = Instant::now();
    let store = open_store(opts);
    let store_error = store.as_ref().err().cloned();
    let store = store.ok().flatten();
    let mut j = judge(opts, payload, store.as_ref(), RunMode::Live);
    if let Some(e) = &store_error {
        j.trace.insert("store_error".into(), json!(e));
    }
    let mut encoded = answer(&j, opts);
    let record = record_of(&j, opts, &encoded, micros(started));
    // The record is stored before the answer is written, so a store that refuses it can be
    // reported in this very answer (once per session).
    if let Some((kept, error)) = keep(store.as_ref(), store_error.as_deref(), opts, &record)
        && kept.first_in_session
        && !j.unhandled
    {
        add_note(&mut j, unstored_note(&kept, &error));
        encoded = answer(&j, opts);
    }
    (encoded, Some(record))
}

/// What the hook would answer for `payload`, without changing anything: the same stages as a
/// hook call, reading the session state but never writing it, and recording nothing.
pub fn explain(opts: &GuardOptions, payload: &[u8]) -> (Judgement, Encoded) {
    let store = open_store(opts).ok().flatten();
    let j = judge(opts, payload, store.as_ref(), RunMode::Explain);
    let encoded = answer(&j, opts);
    (j, encoded)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;

    fn options(config_dir: &Path, cwd: &Path) -> GuardOptions {
        GuardOptions {
            agent: AgentKind::Claude,
            event_hint: None,
            fail_mode: FailMode::Deny,
            ask_fallback: Decision::Deny,
            store: StoreChoice::Off,
            home: config_dir.join("data"),
            config_dir: Some(config_dir.to_path_buf()),
            policy_files: Vec::new(),
            cwd: cwd.to_path_buf(),
            user_hooks: true,
        }
    }

    #[test]
    fn the_project_policy_applied_is_the_bytes_whose_trust_was_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let (user, repo) = (tmp.path().join("user"), tmp.path().join("repo"));
        std::fs::create_dir_all(repo.join(".hookgate")).unwrap();
        std::fs::create_dir_all(&user).unwrap();
        let policy_file = repo.join(".hookgate/policy.yaml");
        std::fs::write(&policy_file, "mode: monitor\n").unwrap();
        let project = hookgate_project::discover_in(&repo, Some(&user));
        hookgate_project::TrustStore::load(&user)
            .unwrap()
            .trust(&project, 0)
            .unwrap();

        let config = ProjectConfig::read(&project, Some(&user));
        assert_eq!(config.trust, TrustState::Trusted);
        // The file changes after the trust check: what is applied is still what was hashed.
        std::fs::write(&policy_file, "mode: enforce\n").unwrap();
        let (policy, _, _) = load_policy(&options(&user, &repo), &project, &config).unwrap();
        assert_eq!(policy.mode(), hookgate_policy::Mode::Monitor);
        // Read afresh, the changed file is untrusted (and may not switch to monitor anyway).
        let again = ProjectConfig::read(&project, Some(&user));
        assert!(!again.trust.is_trusted());
    }

    #[test]
    fn every_registered_builtin_has_a_row_in_the_effects_table() {
        let registry = hookgate_builtins::registry();
        let missing: Vec<&str> = registry
            .iter()
            .map(|(name, _)| name)
            .filter(|name| !hookgate_engine::runtime::builtin::is_classified(name))
            .collect();
        assert!(missing.is_empty(), "classify: {missing:?}");
        for (name, _) in hookgate_engine::runtime::builtin::BUILTIN_EFFECTS {
            assert!(
                registry.get(name).is_some(),
                "a row for no built-in: {name}"
            );
        }
    }

    #[test]
    fn an_untrusted_projects_hook_commands_are_loaded_from_the_snapshot_and_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let (user, repo) = (tmp.path().join("user"), tmp.path().join("repo"));
        std::fs::create_dir_all(repo.join(".hookgate/hooks.d")).unwrap();
        std::fs::create_dir_all(&user).unwrap();
        let hooks =
            "hooks:\n  session_start:\n    - type: command\n      command: touch /tmp/pwned\n";
        std::fs::write(repo.join(".hookgate/hooks.d/10-x.yaml"), hooks).unwrap();
        let project = hookgate_project::discover_in(&repo, Some(&user));
        let config = ProjectConfig::read(&project, Some(&user));
        assert!(!config.trust.is_trusted());
        // Removing the file after the snapshot changes nothing: the snapshot is what loads.
        std::fs::remove_file(repo.join(".hookgate/hooks.d/10-x.yaml")).unwrap();
        let loaded = bridge::load_user_hooks(Some(&user), config.snapshot.as_ref(), false)
            .unwrap()
            .unwrap();
        assert!(loaded.config.entries.is_empty());
        assert_eq!(loaded.notes.len(), 1, "{:?}", loaded.notes);
    }
}
