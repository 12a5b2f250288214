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

use std::path::{Path, PathBuf};
use std::time::Instant;

use hookgate_agents::{Dialect, Encoded, ParseError, Parsed, Reply, encode, supports_ask};
use hookgate_audit::{Record, Store};
use hookgate_core::{AgentKind, CanonicalCall, Decision, EventId, Outcome};
use hookgate_policy::{Action, Ctx, Evaluation, Matched, Policy, PolicyLayer, SessionState};
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
    // `PATH`, so `$(which hookgate)` and a bare `hookgate` in an agent's hook command name
    // the binary they run (the policy looks paths up lazily, on calls that write).
    if let Some(path) = std::env::var_os("PATH") {
        ctx.search_path = std::env::split_paths(&path).collect();
    }
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
}

impl ProjectConfig {
    fn read(project: &Project, user_dir: Option<&Path>) -> Self {
        let Some(dir) = &project.hookgate_dir else {
            return Self {
                snapshot: None,
                trust: TrustState::NoProjectConfig,
            };
        };
        // An unreadable `.hookgate/` is untrusted, and its policy is then read by the loader
        // below from the file (which fails closed if it cannot be read either).
        let snapshot = ConfigSnapshot::read(dir).ok();
        let trust = hookgate_project::trust_state_of(snapshot.as_ref(), user_dir);
        Self { snapshot, trust }
    }
}

/// The effective policy: the user's own file and `--policy` files are trusted; the project's
/// `.hookgate/policy.yaml` only once `hookgate trust` pinned its current content (until then
/// it may only tighten). The project's file is parsed from the bytes its trust was computed on.
fn load_policy(
    opts: &GuardOptions,
    project: &Project,
    config: &ProjectConfig,
) -> Result<Policy, GuardError> {
    let mut layers: Vec<PolicyLayer> = Vec::new();
    if let Some(dir) = &opts.config_dir {
        layers.push(PolicyLayer::trusted(dir.join("policy.yaml")));
    }
    if let Some(file) = project.policy_file() {
        let layer = if config.trust.is_trusted() {
            PolicyLayer::trusted(file)
        } else {
            PolicyLayer::untrusted(file)
        };
        // Read once: the snapshot's bytes, or (when the snapshot holds no policy file) an
        // empty text, so the loader does not read a file that appeared after the snapshot.
        layers.push(match &config.snapshot {
            Some(snapshot) => layer.with_text(
                snapshot
                    .file("policy.yaml")
                    .map(|f| f.bytes.clone())
                    .unwrap_or_default(),
            ),
            None => layer,
        });
    }
    layers.extend(opts.policy_files.iter().map(PolicyLayer::trusted));
    Ok(Policy::load_layers(&layers)?)
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
    /// One line per policy setting, rule or hook of the project that was not applied.
    pub ignored: Vec<String>,
}

/// The [`ProjectStatus`] of the project containing `cwd`. An error is a policy or hook config
/// that cannot be loaded at all (the hook fails closed on it).
pub fn project_status(opts: &GuardOptions, cwd: &Path) -> Result<ProjectStatus, GuardError> {
    let project = hookgate_project::discover_in(cwd, opts.config_dir.as_deref());
    let config = ProjectConfig::read(&project, opts.config_dir.as_deref());
    let policy = load_policy(opts, &project, &config)?;
    let mut ignored: Vec<String> = policy.notes().iter().map(ToString::to_string).collect();
    let loaded = bridge::load_user_hooks(
        opts.config_dir.as_deref(),
        config.snapshot.as_ref(),
        config.trust.is_trusted(),
    )?;
    ignored.extend(
        loaded
            .iter()
            .flat_map(|l| l.notes.iter())
            .map(ToString::to_string),
    );
    Ok(ProjectStatus {
        project,
        trust: config.trust,
        ignored,
    })
}

/// The one note a session sees about untrusted project config (details are in the record).
fn untrusted_note(project: &Project, trust: TrustState, ignored: usize) -> Option<String> {
    let TrustState::Untrusted { reason } = trust else {
        return None;
    };
    (ignored > 0).then(|| {
        format!(
            "{} is not trusted ({reason}): {ignored} setting(s) or hook(s) that could loosen the guard were ignored; review it and run `hookgate trust {}` to apply it",
            project
                .hookgate_dir
                .as_deref()
                .unwrap_or(&project.root)
                .display(),
            project.root.display()
        )
    })
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
fn failed(
    opts: &GuardOptions,
    dialect: Dialect,
    event: EventId,
    native: &str,
    call: Option<CanonicalCall>,
    why: String,
) -> Judgement {
    let decision = fail_decision(opts, dialect, event);
    let reason = format!("hookgate could not evaluate this call ({why}); failing {decision}");
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
            decision: Some(decision),
            judged: Some(decision),
            reason: Some(reason.clone()),
            error: Some(why),
            ..Verdict::default()
        },
        reply: Reply {
            decision: Some(decision),
            reason: Some(reason),
            ..Reply::default()
        },
        trace: Map::new(),
        unhandled: false,
    }
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
    call: &CanonicalCall,
    dialect: Dialect,
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
    if judged == Some(Decision::Ask) {
        let kind = call.tool.as_ref().map(|t| t.kind);
        let nobody = match &call.approval {
            Some(a) if !a.asks_for(kind) => Some(format!(
                "the agent runs in `{}` mode, where nobody is asked",
                a.native
            )),
            _ if !supports_ask(dialect, call.event) => {
                Some(format!("{} cannot ask at this event", call.agent.as_str()))
            }
            _ => None,
        };
        if let Some(why) = nobody {
            // `Allow` as a fallback is no opinion, never an approval.
            let fallen = (ask_fallback != Decision::Allow).then_some(Decision::Deny);
            let word = fallen.map_or("no opinion", Decision::as_str);
            out.fallback = Some(format!("hookgate would ask, but {why}: answering {word}"));
            out.decision = fallen;
            if let Some(r) = &mut out.reason {
                r.push_str(" (");
                r.push_str(out.fallback.as_deref().unwrap_or_default());
                r.push(')');
            }
        }
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
/// permission flags on the agent's own command line — combined to the one that asks least,
/// so an `ask` is never sent where nobody will see it.
fn approval(
    dialect: Dialect,
    from_payload: Option<hookgate_core::Approval>,
) -> Option<hookgate_core::Approval> {
    let from_env = hookgate_agents::approval_from_env(dialect, &|name| std::env::var(name).ok());
    let mut found = hookgate_agents::combine_approvals([from_payload, from_env]);
    if matches!(dialect, Dialect::Gemini | Dialect::CopilotCamel) {
        for argv in ancestor_argvs(4) {
            let from_argv = hookgate_agents::approval_from_argv(dialect, &argv);
            found = hookgate_agents::combine_approvals([found, from_argv]);
        }
    }
    found
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
    parsed.call.approval = approval(dialect, parsed.call.approval.take());
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
    match crate::allow::active(
        opts.config_dir.as_deref(),
        &project,
        hookgate_audit::now_ms(),
    ) {
        Ok(active) => ctx.allowances = active,
        Err(why) => {
            trace.insert("allowances_error".into(), json!(why));
        }
    }
    trace.insert("dialect".into(), json!(dialect));
    trace.insert("native_event".into(), json!(native));
    trace.insert("project".into(), json!(project));
    trace.insert("trust".into(), json!(trust));

    let policy = match load_policy(opts, &found, &config) {
        Ok(p) => p,
        Err(why) => return fail(&parsed.call, why),
    };
    let mut ignored: Vec<String> = policy.notes().iter().map(ToString::to_string).collect();

    // Transforms: the user's hooks run on the call as sent; a rewrite replaces the call, and
    // everything after this point judges the final input.
    let mut original_command = None;
    let hooks = if opts.user_hooks {
        let t = Instant::now();
        let loaded = bridge::load_user_hooks(
            opts.config_dir.as_deref(),
            config.snapshot.as_ref(),
            trust.is_trusted(),
        );
        match loaded.and_then(|l| bridge::run_user_hooks(&parsed.call, &parsed.raw, l)) {
            Ok(user) => {
                if let Some(o) = &user.outcome {
                    trace.insert(
                        "user_hooks".into(),
                        json!({"micros": micros(t), "outcome": o}),
                    );
                }
                ignored.extend(user.notes);
                user.outcome
            }
            Err(e) => return fail(&parsed.call, e.into()),
        }
    } else {
        None
    };
    if !ignored.is_empty() {
        trace.insert("ignored_untrusted".into(), json!(ignored));
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
    let notes: Vec<String> = untrusted_note(&found, trust, ignored.len())
        .into_iter()
        .collect();

    // Judge, inside one session transaction: read the state once, evaluate, fold, count,
    // remember, write.
    let mut combined: Option<Combined> = None;
    let mut shown: Vec<String> = Vec::new();
    let mut judge_with = |state: &mut SessionState, live: bool| {
        let (eval, _) = policy.judge_in_session(&call, &ctx, state, |eval| {
            let c = combine(eval, hooks.as_ref(), &call, dialect, opts.ask_fallback);
            let d = c.decision;
            combined = Some(c);
            d
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
                let eval = judge_with(&mut state, true);
                if let Ok(new) = serde_json::to_value(&state) {
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
        // A `--once` allowance is used up only by a call it really let through.
        if mode == RunMode::Live
            && !matches!(combined.decision, Some(Decision::Deny | Decision::Ask))
        {
            let used: Vec<_> = ctx
                .allowances
                .iter()
                .filter(|a| eval.allowed_by.contains(&a.id))
                .cloned()
                .collect();
            match crate::allow::use_up(opts.config_dir.as_deref(), &used) {
                Ok(ids) if !ids.is_empty() => {
                    trace.insert("allowances_used_up".into(), json!(ids));
                }
                Ok(_) => {}
                Err(why) => {
                    trace.insert("allowances_error".into(), json!(why));
                }
            }
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
        let policy = load_policy(&options(&user, &repo), &project, &config).unwrap();
        assert_eq!(policy.mode(), hookgate_policy::Mode::Monitor);
        // Read afresh, the changed file is untrusted (and may not switch to monitor anyway).
        let again = ProjectConfig::read(&project, Some(&user));
        assert!(!again.trust.is_trusted());
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
