//! The guard's commands: `hook`, `init`, `doctor`, `log`, `inspect`, `stats`, `policy`.

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use hookgate_audit::{Backend, Filter, Reader, Record, RecordDecision, Store, Unstored};
use hookgate_core::term::escape;
use hookgate_core::{AgentKind, Decision};
use hookgate_guard::{FailMode, GuardOptions, StoreChoice};
use hookgate_init::{InitOptions, Scope, Target};

use crate::{Failure, print, print_human, to_json};

/// The agents, as command-line values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AgentArg {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Cursor,
}

impl AgentArg {
    pub(crate) fn kind(self) -> AgentKind {
        match self {
            Self::Claude => AgentKind::Claude,
            Self::Codex => AgentKind::Codex,
            Self::Gemini => AgentKind::Gemini,
            Self::Copilot => AgentKind::Copilot,
            Self::Cursor => AgentKind::Cursor,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailModeArg {
    Ask,
    Deny,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FallbackArg {
    Deny,
    Allow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum StoreArg {
    Sqlite,
    Jsonl,
    Off,
}

/// `hookgate hook <agent>`.
#[derive(Debug, Args, PartialEq, Eq)]
pub(crate) struct HookArgs {
    /// The agent whose hook this is (the payload's own dialect wins when it differs).
    agent: AgentArg,
    /// Read the payload from FILE instead of stdin.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// What an internal failure answers: ask (where the agent can ask, else deny) or deny.
    /// Default: `$HOOKGATE_FAIL_MODE_<AGENT>` (e.g. `HOOKGATE_FAIL_MODE_CODEX`), else
    /// `$HOOKGATE_FAIL_MODE`, else ask.
    #[arg(long, value_enum)]
    fail_mode: Option<FailModeArg>,
    /// What an ask becomes where the agent or event has no ask. Default:
    /// `$HOOKGATE_ASK_FALLBACK`, else deny.
    #[arg(long, value_enum)]
    ask_fallback: Option<FallbackArg>,
    /// The audit backend. Default: `$HOOKGATE_STORE`, else sqlite.
    #[arg(long, value_enum)]
    store: Option<StoreArg>,
    /// An extra policy file, applied after the user's and the project's (repeatable).
    #[arg(long = "policy", value_name = "FILE")]
    policies: Vec<PathBuf>,
    /// Do not run the hooks configured in hookgate's hook config for this call.
    #[arg(long)]
    no_user_hooks: bool,
}

impl HookArgs {
    /// Reads the arguments after `hook` without building clap's command: this runs before
    /// every tool call of every agent, and setting up even the one-subcommand parser costs
    /// more instructions than the rest of start-up.
    ///
    /// Invariant: it accepts only argument lists that clap would parse to the same value
    /// (`hook_fast_path_parses_exactly_what_clap_parses` checks it), and returns `None` for
    /// everything else — help, `--`, an unknown or repeated flag, an empty value, a value
    /// that looks like a flag, a second positional — so clap parses those and words their
    /// errors and help exactly as before.
    pub(crate) fn parse_fast(args: &[std::ffi::OsString]) -> Option<Self> {
        fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
            slot.is_none().then(|| *slot = Some(value))
        }
        let mut agent = None;
        let mut input = None;
        let mut fail_mode = None;
        let mut ask_fallback = None;
        let mut store = None;
        let mut policies = Vec::new();
        let mut no_user_hooks = false;
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let text = arg.to_str()?;
            let Some(flag) = text.strip_prefix("--") else {
                if text.starts_with('-') {
                    return None;
                }
                once(&mut agent, AgentArg::from_str(text, false).ok()?)?;
                continue;
            };
            if flag == "no-user-hooks" {
                if no_user_hooks {
                    return None;
                }
                no_user_hooks = true;
                continue;
            }
            // `--flag=value` or `--flag value`; a separate value must not look like a flag
            // (clap would read it as one).
            let (name, value) = if let Some((name, value)) = flag.split_once('=') {
                (name, std::ffi::OsString::from(value))
            } else {
                let value = iter.next()?;
                if value.to_str().is_none_or(|v| v.starts_with('-')) && value != "-" {
                    // Non-UTF-8 paths and odd values: clap decides.
                    return None;
                }
                (flag, value.clone())
            };
            if value.is_empty() {
                return None;
            }
            let word = || value.to_str();
            match name {
                "input" => once(&mut input, PathBuf::from(&value))?,
                "policy" => policies.push(PathBuf::from(&value)),
                "fail-mode" => once(&mut fail_mode, FailModeArg::from_str(word()?, false).ok()?)?,
                "ask-fallback" => {
                    once(
                        &mut ask_fallback,
                        FallbackArg::from_str(word()?, false).ok()?,
                    )?;
                }
                "store" => once(&mut store, StoreArg::from_str(word()?, false).ok()?)?,
                _ => return None,
            }
        }
        Some(Self {
            agent: agent?,
            input,
            fail_mode,
            ask_fallback,
            store,
            policies,
            no_user_hooks,
        })
    }
}

fn env_value<T: ValueEnum>(name: &str) -> Result<Option<T>, Failure> {
    match std::env::var(name) {
        Ok(v) if !v.is_empty() => T::from_str(&v, true)
            .map(Some)
            .map_err(|_| Failure(format!("${name}: unknown value `{v}`"))),
        _ => Ok(None),
    }
}

/// hookgate's config dir (the user policy lives there too).
pub(crate) fn config_dir() -> Option<PathBuf> {
    hookgate_engine::config::user_config_dir()
}

/// Largest payload read; beyond it the parser reports `too large` (and the fail mode applies).
const MAX_READ: u64 = 16 * 1024 * 1024 + 1;

pub(crate) fn hook(args: &HookArgs) -> u8 {
    // A handled failure answers in the agent's format with the fail mode; a panic or a fatal
    // signal never returns here: `failsafe` (armed by `main` before the arguments were read)
    // answers fail-closed and ends the process.
    let (encoded, record) = match hook_inner(args) {
        Ok(answer) => answer,
        Err(Failure(why)) => failure_answer(args, &why),
    };
    let code = u8::try_from(encoded.exit_code).unwrap_or(hookgate_agents::FAIL_CLOSED_EXIT_STATUS);
    // The reply is written once: stdout in one `write_all` (the JSON ends with its only
    // newline), then the stderr reason. From here a crash no longer writes the fail-closed
    // answer over it (see `failsafe`).
    crate::failsafe::replying(code);
    let _ = std::io::stdout().write_all(&encoded.stdout);
    let _ = std::io::stdout().flush();
    if !encoded.stderr.is_empty() {
        let _ = std::io::stderr().write_all(&encoded.stderr);
    }
    crate::failsafe::replied();
    if let Some(record) = record {
        ship_detached(&record);
    }
    code
}

/// With `HOOKGATE_WEBHOOK_URL` set, hands the record to a detached `hookgate ship-webhook`
/// process, and with an OTLP endpoint configured (`OTEL_EXPORTER_OTLP_*ENDPOINT`) to a
/// detached `hookgate ship-otel`, and returns at once: the agent waits for this process, and a
/// sink must never delay (or change) a decision. The shippers' own stdio is closed, so the
/// agent is not kept waiting on an inherited pipe either. With neither set this is a few
/// environment lookups: nothing is initialised on the hook path.
fn ship_detached(record: &Record) {
    let webhook = std::env::var_os("HOOKGATE_WEBHOOK_URL").is_some_and(|u| !u.is_empty());
    let otel = crate::otel::configured();
    if !webhook && !otel {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let Ok(line) = serde_json::to_vec(&record.redacted()) else {
        return;
    };
    for (wanted, shipper) in [(webhook, "ship-webhook"), (otel, "ship-otel")] {
        if !wanted {
            continue;
        }
        let child = std::process::Command::new(&exe)
            .arg(shipper)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if let Ok(mut child) = child
            && let Some(mut stdin) = child.stdin.take()
        {
            let _ = stdin.write_all(&line);
        }
    }
}

/// `hookgate ship-webhook`: reads one record on stdin and POSTs it (with any batches earlier
/// processes could not deliver) to `$HOOKGATE_WEBHOOK_URL`; undelivered batches are spooled
/// under `$HOOKGATE_HOME/webhook` for the next shipper. Headers: `$HOOKGATE_WEBHOOK_AUTHORIZATION`
/// becomes `authorization`.
pub(crate) fn ship_webhook() -> Result<u8, Failure> {
    let url = std::env::var("HOOKGATE_WEBHOOK_URL")
        .map_err(|_| Failure("HOOKGATE_WEBHOOK_URL is not set".into()))?;
    let mut text = Vec::new();
    std::io::stdin()
        .take(MAX_READ)
        .read_to_end(&mut text)
        .map_err(|e| Failure(format!("cannot read stdin: {e}")))?;
    let record: Record = serde_json::from_slice(&text)
        .map_err(|e| Failure(format!("stdin is not a record: {e}")))?;
    let mut config =
        hookgate_audit::WebhookConfig::new(url).with_spool(&hookgate_audit::default_home());
    config.flush_timeout = std::time::Duration::from_secs(5);
    config.request_timeout = std::time::Duration::from_secs(2);
    if let Ok(auth) = std::env::var("HOOKGATE_WEBHOOK_AUTHORIZATION") {
        config.headers.push(("authorization".to_owned(), auth));
    }
    let sink = hookgate_audit::WebhookSink::start(config)?;
    sink.send(&record);
    let delivered = sink.flush(std::time::Duration::from_secs(5));
    Ok(u8::from(!delivered))
}

fn failure_answer(args: &HookArgs, why: &str) -> (hookgate_agents::Encoded, Option<Record>) {
    let (encoded, record) = hookgate_guard::fail(&options_or_safe(args), why);
    (encoded, Some(record))
}

/// `hookgate hook-unfinished KIND FD ARGS…`: what a hook process that crashed or ran out of
/// time becomes after it answered fail-closed (see `failsafe`): records the call (its payload
/// read back from the memory file `FD`, `-` for none) as `guard-crash`/`guard-deadline`, hands
/// the record to the configured sinks, and exits 2 — the answer the agent already has.
pub(crate) fn hook_unfinished(kind: &str, fd: &str, args: &HookArgs) -> u8 {
    let fail_closed = hookgate_agents::FAIL_CLOSED_EXIT_STATUS;
    let Some((id, why)) = crate::failsafe::unfinished_kind(kind) else {
        return fail_closed;
    };
    let payload = fd.parse::<u32>().ok().and_then(|n| {
        let mut payload = Vec::new();
        std::fs::File::open(format!("/proc/self/fd/{n}"))
            .and_then(|f| f.take(MAX_READ).read_to_end(&mut payload))
            .ok()
            .map(|_| payload)
    });
    let record =
        hookgate_guard::record_unfinished(&options_or_safe(args), payload.as_deref(), id, why);
    ship_detached(&record);
    fail_closed
}

/// The options of a hook call, or — when its flags or environment cannot be read — the
/// safest ones: fail mode ask (falling back to deny where nobody is asked), no store.
fn options_or_safe(args: &HookArgs) -> GuardOptions {
    options(args).unwrap_or_else(|_| GuardOptions {
        agent: args.agent.kind(),
        event_hint: None,
        fail_mode: FailMode::Ask,
        ask_fallback: Decision::Deny,
        store: StoreChoice::Off,
        home: hookgate_audit::default_home(),
        config_dir: None,
        policy_files: Vec::new(),
        cwd: PathBuf::from("/"),
        user_hooks: false,
    })
}

fn options(args: &HookArgs) -> Result<GuardOptions, Failure> {
    guard_options(&GuardFlags {
        agent: args.agent,
        fail_mode: args.fail_mode,
        ask_fallback: args.ask_fallback,
        store: args.store,
        policies: args.policies.clone(),
        no_user_hooks: args.no_user_hooks,
    })
}

/// The flags that shape a guard call, shared by `hook` and `explain` so that `explain`
/// answers exactly as the hook would with the same flags and environment.
#[derive(Debug, Clone)]
pub(crate) struct GuardFlags {
    pub agent: AgentArg,
    pub fail_mode: Option<FailModeArg>,
    pub ask_fallback: Option<FallbackArg>,
    pub store: Option<StoreArg>,
    pub policies: Vec<PathBuf>,
    pub no_user_hooks: bool,
}

impl GuardFlags {
    /// No flag given: what `hookgate hook <agent>` does with the environment alone.
    pub(crate) fn none(agent: AgentArg) -> Self {
        Self {
            agent,
            fail_mode: None,
            ask_fallback: None,
            store: None,
            policies: Vec::new(),
            no_user_hooks: false,
        }
    }
}

pub(crate) fn guard_options(flags: &GuardFlags) -> Result<GuardOptions, Failure> {
    // Per agent: the flag on that agent's hook command line, else `HOOKGATE_FAIL_MODE_<AGENT>`,
    // else `HOOKGATE_FAIL_MODE`, else ask.
    let agent_var = format!(
        "HOOKGATE_FAIL_MODE_{}",
        flags.agent.kind().as_str().to_ascii_uppercase()
    );
    let fail_mode = match flags
        .fail_mode
        .or(env_value(&agent_var)?)
        .or(env_value("HOOKGATE_FAIL_MODE")?)
    {
        Some(FailModeArg::Deny) => FailMode::Deny,
        Some(FailModeArg::Ask) | None => FailMode::Ask,
    };
    let ask_fallback = match flags.ask_fallback.or(env_value("HOOKGATE_ASK_FALLBACK")?) {
        Some(FallbackArg::Allow) => Decision::Allow,
        Some(FallbackArg::Deny) | None => Decision::Deny,
    };
    let store = match flags.store.or(env_value("HOOKGATE_STORE")?) {
        Some(StoreArg::Jsonl) => StoreChoice::Jsonl,
        Some(StoreArg::Off) => StoreChoice::Off,
        Some(StoreArg::Sqlite) | None => StoreChoice::Sqlite,
    };
    Ok(GuardOptions {
        agent: flags.agent.kind(),
        event_hint: std::env::var("HOOKGATE_EVENT")
            .ok()
            .filter(|e| !e.is_empty()),
        fail_mode,
        ask_fallback,
        store,
        home: hookgate_audit::default_home(),
        config_dir: config_dir(),
        policy_files: flags.policies.clone(),
        cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        user_hooks: !flags.no_user_hooks,
    })
}

fn hook_inner(args: &HookArgs) -> Result<(hookgate_agents::Encoded, Option<Record>), Failure> {
    let opts = options(args)?;
    let mut payload = Vec::new();
    match &args.input {
        Some(path) => {
            std::fs::File::open(path)
                .and_then(|f| f.take(MAX_READ).read_to_end(&mut payload))
                .map_err(|e| Failure(format!("{}: cannot read: {e}", path.display())))?;
        }
        None => {
            std::io::stdin()
                .take(MAX_READ)
                .read_to_end(&mut payload)
                .map_err(|e| Failure(format!("cannot read stdin: {e}")))?;
        }
    }
    // Should judging this payload crash or hang, the fail-closed answer's record names it.
    crate::failsafe::keep_payload(&payload);
    if payload.len() as u64 >= MAX_READ {
        let (encoded, record) = hookgate_guard::fail(
            &opts,
            "unreadable payload: too large (over the 16 MiB limit)",
        );
        return Ok((encoded, Some(record)));
    }
    Ok(hookgate_guard::run_recorded(&opts, &payload))
}

/// `hookgate init <agent>`.
#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// The agent to wire hookgate into.
    agent: AgentArg,
    /// Install into the user's global config instead of the project's.
    #[arg(long)]
    global: bool,
    /// Remove hookgate's entries instead (the file returns to what it was without hookgate).
    #[arg(long)]
    remove: bool,
    /// Print what would change, write nothing.
    #[arg(long)]
    dry_run: bool,
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Hook timeout in seconds (written in each agent's own unit).
    #[arg(long, default_value_t = 10)]
    timeout: u32,
}

fn target(agent: AgentArg, global: bool, project: Option<&PathBuf>) -> Result<Target, Failure> {
    let scope = if global {
        Scope::Global(std::env::home_dir().ok_or_else(|| Failure("no home directory".into()))?)
    } else {
        // The project by the one discovery rule, so `init` and `doctor` from a subdirectory
        // or a linked worktree act on the same project the hook will judge.
        let dir = if let Some(p) = project {
            p.clone()
        } else {
            let cwd = std::env::current_dir()
                .map_err(|e| Failure(format!("no current directory: {e}")))?;
            hookgate_project::discover(&cwd).root
        };
        Scope::Project(dir)
    };
    Ok(Target {
        agent: agent.kind(),
        scope,
    })
}

fn init_options(timeout: u32) -> Result<InitOptions, Failure> {
    let bin = std::env::current_exe()
        .map_err(|e| Failure(format!("cannot find the hookgate binary: {e}")))?;
    let bin = bin.canonicalize().unwrap_or(bin);
    let mut opts = InitOptions::new(bin);
    opts.timeout_secs = timeout;
    opts.guard_deadline_ms = crate::failsafe::deadline_ms();
    Ok(opts)
}

pub(crate) fn init(args: &InitArgs) -> Result<u8, Failure> {
    let target = target(args.agent, args.global, args.project.as_ref())?;
    let opts = init_options(args.timeout)?;
    let plan = if args.remove {
        hookgate_init::plan_remove(&target, &opts)?
    } else {
        hookgate_init::plan_install(&target, &opts)?
    };
    // On stderr, so that it is seen even when the output is piped or parsed.
    for warning in &plan.warnings {
        let _ = writeln!(std::io::stderr(), "hookgate: warning: {warning}");
    }
    // The hook's own deadline must pass before the agent's timeout: an agent that times a
    // hook out lets the call run, where the deadline answers deny (see `failsafe`).
    let deadline = crate::failsafe::deadline_ms();
    if !args.remove && u64::from(args.timeout) * 1000 <= deadline {
        let _ = writeln!(
            std::io::stderr(),
            "hookgate: warning: the agent's hook timeout ({} s) is not above hookgate's deadline ({deadline} ms, $HOOKGATE_DEADLINE_MS): a call still being judged when the agent gives up is let through by it; raise --timeout or lower the deadline",
            args.timeout
        );
    }
    if args.dry_run {
        print(&hookgate_init::diff(&plan))?;
        return Ok(0);
    }
    hookgate_init::apply(&plan)?;
    let mut s = String::new();
    if plan.is_empty() {
        s.push_str("already up to date\n");
    }
    for file in &plan.files {
        let verb = match (&file.before, &file.after) {
            (None, Some(_)) => "created",
            (Some(_), None) => "removed",
            _ => "updated",
        };
        let _ = writeln!(s, "{verb} {}", file.path.display());
    }
    for note in &plan.notes {
        let _ = writeln!(s, "note: {note}");
    }
    print(&s)?;
    Ok(0)
}

/// `hookgate doctor`.
#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Check only this agent (default: every agent with hookgate configured).
    agent: Option<AgentArg>,
    /// Check only the global (user-level) configs. Without it the project's configs are
    /// checked, and so is every user-level config that holds hookgate's hooks.
    #[arg(long)]
    global: bool,
    /// Write the trust Codex and Copilot need before they run the hooks (Codex: the project's
    /// `trust_level` and the hooks' hashes in its `config.toml`; Copilot: the folder in
    /// `trustedFolders` of its `config.json`), printing the diff of what changes, then check
    /// again.
    #[arg(long)]
    fix: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn doctor(args: &DoctorArgs) -> Result<u8, Failure> {
    let opts = init_options(10)?;
    let agents: Vec<AgentArg> = match args.agent {
        Some(a) => vec![a],
        None => vec![
            AgentArg::Claude,
            AgentArg::Codex,
            AgentArg::Gemini,
            AgentArg::Copilot,
            AgentArg::Cursor,
        ],
    };
    // Project configs (what `init` writes by default), then user-level installs, which
    // govern every project and are easy to forget: a stale global entry pointing at a deleted
    // binary fails open in most agents.
    let mut targets = Vec::new();
    for agent in agents {
        if !args.global {
            let project = target(agent, false, None)?;
            let exists =
                hookgate_init::config_path(&project, &opts.homes).is_ok_and(|p| p.exists());
            if args.agent.is_some() || exists {
                targets.push((agent, "project", project));
            }
        }
        if let Some(home) = std::env::home_dir() {
            let global = Target {
                agent: agent.kind(),
                scope: Scope::Global(home),
            };
            let wanted = if args.global {
                args.agent.is_some()
                    || hookgate_init::config_path(&global, &opts.homes).is_ok_and(|p| p.exists())
            } else {
                hookgate_init::is_installed(&global, &opts)
            };
            if wanted {
                targets.push((agent, "global", global));
            }
        }
    }
    let mut s = String::new();
    if args.fix {
        for (agent, scope, target) in &targets {
            let plan = hookgate_init::plan_trust_fix(target, &opts)?;
            if plan.is_empty() {
                continue;
            }
            hookgate_init::apply(&plan)?;
            let _ = writeln!(s, "fixed {} ({scope}) trust:", agent.kind().as_str());
            s.push_str(&hookgate_init::diff(&plan));
        }
    }
    let mut all_ok = true;
    let mut report = Vec::new();
    for (agent, scope, target) in &targets {
        let checks = hookgate_init::doctor(target, &opts);
        let name = agent.kind().as_str();
        all_ok &= section(&mut s, &mut report, name, Some(scope), &checks);
    }
    let configured = !report.is_empty();
    all_ok &= section(&mut s, &mut report, "hookgate", None, &guard_checks()?);
    if args.json {
        print(&to_json(&report)?)?;
    } else {
        if !configured {
            s.insert_str(
                0,
                "no agent has hookgate configured here (try `hookgate init <agent>`)\n",
            );
        }
        print(&s)?;
    }
    Ok(u8::from(!all_ok))
}

/// Adds one section of doctor checks to the text and the JSON report; true when all passed.
fn section(
    text: &mut String,
    report: &mut Vec<serde_json::Value>,
    name: &str,
    scope: Option<&str>,
    checks: &[hookgate_init::Check],
) -> bool {
    match scope {
        Some(scope) => {
            let _ = writeln!(text, "{name} ({scope}):");
        }
        None => {
            let _ = writeln!(text, "{name}:");
        }
    }
    for c in checks {
        let _ = writeln!(
            text,
            "  [{}] {}: {}",
            if c.ok { "ok" } else { "FAIL" },
            c.name,
            c.detail
        );
    }
    let json: Vec<serde_json::Value> = checks
        .iter()
        .map(|c| serde_json::json!({"name": c.name, "ok": c.ok, "detail": c.detail}))
        .collect();
    let mut entry = serde_json::json!({"agent": name, "checks": json});
    if let Some(scope) = scope {
        entry["scope"] = scope.into();
    }
    report.push(entry);
    checks.iter().all(|c| c.ok)
}

/// The guard's own health, whatever agent calls it: the audit store takes records, none went
/// missing, and the project's config is applied (or what of it is not, and why).
fn guard_checks() -> Result<Vec<hookgate_init::Check>, Failure> {
    let check = |name: &str, ok: bool, detail: String| hookgate_init::Check {
        name: name.to_owned(),
        ok,
        detail,
    };
    let mut out = Vec::new();
    let home = hookgate_audit::default_home();
    let setting = std::env::var("HOOKGATE_STORE").ok();
    match Backend::for_readers(setting.as_deref()) {
        None => out.push(check(
            "audit store",
            false,
            format!(
                "$HOOKGATE_STORE: unknown value `{}` (use sqlite, jsonl or off)",
                setting.as_deref().unwrap_or_default()
            ),
        )),
        Some(backend) => out.push(match Store::check_writable(&home, backend) {
            Ok(()) => check(
                "audit store",
                true,
                format!("{} is writable", home.display()),
            ),
            Err(e) => check("audit store", false, format!("cannot write records: {e}")),
        }),
    }
    match hookgate_audit::Unstored::for_home(&home).summary() {
        Ok(summary) => out.push(match summary.notice() {
            None => check("unstored records", true, "none".to_owned()),
            Some(notice) => check("unstored records", false, notice),
        }),
        Err(e) => out.push(check("unstored records", false, e.to_string())),
    }
    // Records the size cap evicted: a warning once evidence (deny/ask/error) went, because the
    // cap is then too small for the trail to keep what it is for.
    match Reader::open(&home).and_then(|r| r.evicted()) {
        Ok(evicted) => out.push(match evicted.notice() {
            Some(notice) => check("evicted records", false, notice),
            None if evicted.total() == 0 => check("evicted records", true, "none".to_owned()),
            None => check(
                "evicted records",
                true,
                format!("by the size cap: {} (no evidence)", evicted.describe()),
            ),
        }),
        Err(e) => out.push(check("evicted records", false, e.to_string())),
    }
    let cwd = std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?;
    let opts = guard_options(&GuardFlags::none(AgentArg::Claude))?;
    out.push(match hookgate_guard::project_status(&opts, &cwd) {
        Err(e) => check(
            "project config",
            false,
            format!("cannot be loaded, every hook call fails closed: {e}"),
        ),
        Ok(status) => {
            let root = status.project.root.display().to_string();
            match status.trust {
                hookgate_project::TrustState::NoProjectConfig => {
                    check("project config", true, format!("{root}: none"))
                }
                hookgate_project::TrustState::Trusted => {
                    check("project config", true, format!("{root}: trusted"))
                }
                hookgate_project::TrustState::Untrusted { reason } if status.ignored.is_empty() => {
                    check(
                        "project config",
                        true,
                        format!("{root}: not trusted ({reason}), nothing in it is ignored"),
                    )
                }
                hookgate_project::TrustState::Untrusted { reason } => check(
                    "project config",
                    false,
                    format!(
                        "{root}: not trusted ({reason}); ignored: {}; review it and run `hookgate trust {root}`",
                        status.ignored.join("; ")
                    ),
                ),
            }
        }
    });
    Ok(out)
}

/// The store readers open: every backend in `$HOOKGATE_HOME` (see
/// [`hookgate_audit::default_home`]) as one ([`Reader`]), whatever backend hooks write — so a
/// record written with `--store jsonl` is never invisible to `log`. A `$HOOKGATE_STORE` that
/// names no backend is still an error here: it is a typo that also breaks the hooks.
pub(crate) fn store() -> Result<Reader, Failure> {
    let setting = std::env::var("HOOKGATE_STORE").ok();
    if Backend::for_readers(setting.as_deref()).is_none() {
        return Err(Failure(format!(
            "$HOOKGATE_STORE: unknown value `{}` (use sqlite, jsonl or off)",
            setting.as_deref().unwrap_or_default()
        )));
    }
    Ok(Reader::open(&hookgate_audit::default_home())?)
}

/// Where records the store refused went (and how many), for `store`'s home.
pub(crate) fn unstored(store: &Reader) -> Unstored {
    Unstored::for_home(store.home())
}

/// Parses a point in time (see [`hookgate_audit::parse_point`]) for the flag `flag`.
pub(crate) fn point_ms(flag: &str, text: &str) -> Result<u64, Failure> {
    hookgate_audit::parse_point_now(text).map_err(|e| Failure(format!("{flag}: {e}")))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DecisionArg {
    Deny,
    Ask,
    Allow,
    None,
    Error,
}

/// Filters shared by `log` and `stats`.
#[derive(Debug, Args)]
pub(crate) struct FilterArgs {
    /// Only records from this point on: a duration back from now (`30m`, `2h`, `7d`, `1w`),
    /// `today`, `yesterday`, an ISO 8601 date or date-time (`2024-03-01`, `2024-03-01T09:30`,
    /// local time unless it carries an offset), or epoch milliseconds.
    #[arg(long, value_name = "WHEN")]
    since: Option<String>,
    /// Only records before this point (same forms as --since).
    #[arg(long, value_name = "WHEN")]
    until: Option<String>,
    /// Only this agent.
    #[arg(long, value_enum)]
    agent: Option<AgentArg>,
    /// Only this decision.
    #[arg(long, value_enum)]
    decision: Option<DecisionArg>,
    /// Only denied calls (the same as `--decision deny`).
    #[arg(long, conflicts_with = "decision")]
    denied: bool,
    /// Only this session.
    #[arg(long)]
    session: Option<String>,
    /// Only this tool (the agent's tool name, e.g. `Bash`, `shell`, `run_shell_command`).
    #[arg(long)]
    tool: Option<String>,
    /// Only records this rule, invariant or hook id determined (e.g. `no-force-push`).
    #[arg(long, value_name = "ID")]
    rule: Option<String>,
    /// Only calls made in this project (the project containing DIR, by the one discovery
    /// rule; `--project` alone: the current directory's).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = ".")]
    project: Option<PathBuf>,
    /// Only records whose command, paths, tool, reason or rule ids contain TEXT
    /// (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    grep: Option<String>,
}

impl FilterArgs {
    pub(crate) fn filter(&self, limit: Option<usize>) -> Result<Filter, Failure> {
        let decision = if self.denied {
            Some(RecordDecision::Deny)
        } else {
            self.decision.map(|d| match d {
                DecisionArg::Deny => RecordDecision::Deny,
                DecisionArg::Ask => RecordDecision::Ask,
                DecisionArg::Allow => RecordDecision::Allow,
                DecisionArg::None => RecordDecision::None,
                DecisionArg::Error => RecordDecision::Error,
            })
        };
        let project = match &self.project {
            Some(dir) => {
                let dir = std::fs::canonicalize(dir)
                    .map_err(|e| Failure(format!("--project {}: {e}", dir.display())))?;
                Some(hookgate_project::discover(&dir).root)
            }
            None => None,
        };
        Ok(Filter {
            since_ms: self
                .since
                .as_deref()
                .map(|t| point_ms("--since", t))
                .transpose()?,
            until_ms: self
                .until
                .as_deref()
                .map(|t| point_ms("--until", t))
                .transpose()?,
            agent: self.agent.map(AgentArg::kind),
            decision,
            session: self.session.clone(),
            tool: self.tool.clone(),
            rule: self.rule.clone(),
            project,
            text: self.grep.clone(),
            hide_lifecycle: false,
            limit,
        })
    }
}

/// `hookgate log`.
#[derive(Debug, Args)]
pub(crate) struct LogArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Show lifecycle rows without a decision too (session start, post-tool, stop, …).
    #[arg(long)]
    all: bool,
    /// At most this many records (the newest).
    #[arg(long, default_value_t = 50)]
    limit: usize,
    /// Keep printing new records as they arrive (oldest first), until interrupted.
    #[arg(long)]
    follow: bool,
    /// Show the hook ledger (every hook run recorded by `fire` and `run`) instead of the
    /// guard's decisions.
    #[arg(long)]
    hooks: bool,
    /// Print JSON (with --follow: one record per line).
    #[arg(long)]
    json: bool,
}

/// A record id shortened for the log: the millisecond and the start of the random half, which
/// `inspect` takes as a prefix.
fn short_id(id: &str) -> &str {
    id.get(..20).unwrap_or(id)
}

/// One line of `log`: local time, id, agent, decision, tool, what the call was about and the
/// determining ids. Every payload-derived field is escaped for the terminal.
fn line(r: &Record, fallback: bool, tz: &hookgate_audit::TimeZone) -> String {
    let tool = r.tool.as_deref().unwrap_or_else(|| r.event.as_str());
    let rules = if r.rules.is_empty() {
        String::new()
    } else {
        format!("  [{}]", escape(&r.rules.join(", ")))
    };
    let mark = if fallback { "  [not in store]" } else { "" };
    let allowed = match r
        .trace
        .get("allowed_by")
        .and_then(serde_json::Value::as_array)
    {
        Some(ids) if !ids.is_empty() => {
            let ids: Vec<&str> = ids.iter().filter_map(serde_json::Value::as_str).collect();
            format!("  (allowed by {})", escape(&ids.join(", ")))
        }
        _ => String::new(),
    };
    format!(
        "{}  {}  {:<7} {:<6} {:<12} {}{rules}{allowed}{mark}",
        hookgate_audit::format_time(r.time_ms, tz),
        short_id(&r.id),
        escape(r.agent.as_str()),
        r.decision.as_str(),
        escape(tool),
        escape(&r.subject()),
    )
}

/// One entry of `log --json`: the record, plus, for a record the store refused, where it
/// was kept instead (`unstored: true`, `fallback_file`). A stored record serialises exactly
/// as before.
#[derive(serde::Serialize)]
struct LogEntry<'a> {
    #[serde(flatten)]
    record: &'a Record,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    unstored: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback_file: Option<&'a std::path::Path>,
}

/// The records `filter` selects from the store and the fallback files, newest first, each
/// marked with the fallback file it sits in (`None`: stored).
fn entries(store: &Reader, filter: &Filter) -> Result<Vec<(Record, Option<PathBuf>)>, Failure> {
    let stored = store.query(filter)?;
    let fallback = unstored(store).records()?;
    // Records the store refused sit in the fallback files: shown too, marked, newest first
    // with the rest (a record that reached both is shown once, as stored).
    let mut out: Vec<(Record, Option<PathBuf>)> = Vec::new();
    for f in fallback {
        if filter.matches(&f.record) && !stored.iter().any(|r| r.id == f.record.id) {
            out.push((f.record, Some(f.file)));
        }
    }
    out.extend(stored.into_iter().map(|r| (r, None)));
    out.sort_by(|(a, _), (b, _)| (b.time_ms, &b.id).cmp(&(a.time_ms, &a.id)));
    if let Some(limit) = filter.limit {
        out.truncate(limit);
    }
    Ok(out)
}

fn render_entry(
    (record, file): &(Record, Option<PathBuf>),
    json: bool,
    tz: &hookgate_audit::TimeZone,
) -> Result<String, Failure> {
    if json {
        let entry = LogEntry {
            record,
            unstored: file.is_some(),
            fallback_file: file.as_deref(),
        };
        Ok(format!("{}\n", serde_json::to_string(&entry)?))
    } else {
        Ok(format!("{}\n", line(record, file.is_some(), tz)))
    }
}

pub(crate) fn log(args: &LogArgs) -> Result<u8, Failure> {
    if args.hooks {
        return crate::hook_log::show(args.limit, args.json);
    }
    let store = store()?;
    let mut filter = args.filter.filter(Some(args.limit))?;
    filter.hide_lifecycle = !args.all;
    let tz = hookgate_audit::local_zone();
    let summary = unstored(&store).summary()?;
    let entries = entries(&store, &filter)?;
    if args.follow {
        return follow(&store, filter, &entries, args.json, &tz);
    }
    if args.json {
        let out: Vec<LogEntry<'_>> = entries
            .iter()
            .map(|(record, file)| LogEntry {
                record,
                unstored: file.is_some(),
                fallback_file: file.as_deref(),
            })
            .collect();
        print(&to_json(&out)?)?;
        // The array stays an array (scripts read it); the count goes to stderr.
        if let Some(notice) = summary.notice() {
            eprintln!("{notice}");
        }
    } else {
        let mut s = String::new();
        for entry in &entries {
            s.push_str(&render_entry(entry, false, &tz)?);
        }
        let _ = writeln!(s, "{} record(s)", entries.len());
        if let Some(notice) = summary.notice() {
            let _ = writeln!(s, "{notice}");
        }
        print(&s)?;
    }
    Ok(0)
}

/// `log --follow`: prints what matched so far oldest first, then polls the store and prints
/// each new record once, until stdout closes (a closed pipe ends it quietly) or the process is
/// interrupted.
fn follow(
    store: &Reader,
    mut filter: Filter,
    initial: &[(Record, Option<PathBuf>)],
    json: bool,
    tz: &hookgate_audit::TimeZone,
) -> Result<u8, Failure> {
    /// How often the store is read for new records.
    const POLL: std::time::Duration = std::time::Duration::from_millis(300);
    let mut out = std::io::stdout().lock();
    let mut emit = |text: &str| match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Failure(format!("cannot write output: {e}"))),
    };
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut newest = 0;
    for entry in initial.iter().rev() {
        if !emit(&render_entry(entry, json, tz)?)? {
            return Ok(0);
        }
        seen.insert(entry.0.id.clone());
        newest = newest.max(entry.0.time_ms);
    }
    filter.limit = None;
    loop {
        std::thread::sleep(POLL);
        // Records carry the writer's clock: a little overlap catches one stamped just before
        // the newest already shown.
        filter.since_ms = Some(newest.saturating_sub(5_000));
        let mut fresh = entries(store, &filter)?;
        fresh.retain(|(r, _)| !seen.contains(&r.id));
        for entry in fresh.iter().rev() {
            if !emit(&render_entry(entry, json, tz)?)? {
                return Ok(0);
            }
            seen.insert(entry.0.id.clone());
            newest = newest.max(entry.0.time_ms);
        }
    }
}

/// `hookgate inspect`.
#[derive(Debug, Args)]
pub(crate) struct InspectArgs {
    /// The record id, or any unique start of it (as `hookgate log` shows it).
    #[arg(required_unless_present = "last", conflicts_with = "last")]
    record: Option<String>,
    /// The newest record.
    #[arg(long)]
    last: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn inspect(args: &InspectArgs) -> Result<u8, Failure> {
    let store = store()?;
    let record = match &args.record {
        Some(id) => store.find(id)?,
        None => store
            .last()?
            .ok_or_else(|| Failure("the audit store is empty".into()))?,
    };
    if args.json {
        print(&to_json(&record)?)?;
        return Ok(0);
    }
    let tz = hookgate_audit::local_zone();
    let opt = |v: Option<&String>| v.map_or_else(|| "-".to_owned(), |t| escape(t).into_owned());
    let mut s = String::new();
    let _ = writeln!(s, "record: {}", record.id);
    let _ = writeln!(
        s,
        "time: {} ({} ms since epoch)",
        hookgate_audit::format_time_with_offset(record.time_ms, &tz),
        record.time_ms
    );
    let _ = writeln!(
        s,
        "agent: {}  session: {}",
        escape(record.agent.as_str()),
        escape(&record.session)
    );
    let _ = writeln!(s, "cwd: {}", escape(&record.cwd));
    let _ = writeln!(
        s,
        "event: {}  tool: {}",
        escape(record.event.as_str()),
        opt(record.tool.as_ref())
    );
    let subject = record.subject();
    if !subject.is_empty() {
        let _ = writeln!(s, "call: {}", escape(&subject));
    }
    let _ = writeln!(
        s,
        "action: {}  targets: {}",
        opt(record.action.as_ref()),
        escape(&record.targets.join(", "))
    );
    let rules = if record.rules.is_empty() {
        "-".to_owned()
    } else {
        escape(&record.rules.join(", ")).into_owned()
    };
    let _ = writeln!(s, "decision: {}  rules: {rules}", record.decision.as_str());
    if let Some(r) = &record.reason {
        let _ = writeln!(s, "reason: {}", escape(r));
    }
    if let Some(e) = &record.error {
        let _ = writeln!(s, "error: {}", escape(e));
    }
    let _ = writeln!(s, "duration: {} µs", record.duration_us);
    // Pretty JSON is several lines; each is escaped (serde leaves DEL, C1 and bidi controls).
    let trace = serde_json::to_string_pretty(&record.trace).unwrap_or_default();
    let _ = writeln!(s, "trace:");
    for l in trace.lines() {
        let _ = writeln!(s, "  {}", escape(l));
    }
    print(&s)?;
    Ok(0)
}

/// `hookgate stats`.
#[derive(Debug, Args)]
pub(crate) struct StatsArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `stats --json`: the store's counts, unchanged, plus `unstored` and `evicted` (what the size
/// cap evicted since the store began, by decision; not limited to the filter's window).
#[derive(serde::Serialize)]
struct StatsOut<'a> {
    #[serde(flatten)]
    stats: &'a hookgate_audit::Stats,
    unstored: &'a hookgate_audit::UnstoredSummary,
    evicted: hookgate_audit::Evicted,
}

pub(crate) fn stats(args: &StatsArgs) -> Result<u8, Failure> {
    let store = store()?;
    let stats = store.stats(&args.filter.filter(None)?)?;
    let summary = unstored(&store).summary()?;
    let evicted = store.evicted()?;
    if args.json {
        print(&to_json(&StatsOut {
            stats: &stats,
            unstored: &summary,
            evicted,
        })?)?;
        return Ok(0);
    }
    let mut s = String::new();
    let _ = writeln!(s, "records: {}", stats.total);
    if let Some(notice) = summary.notice() {
        let _ = writeln!(s, "{notice}");
    }
    if evicted.total() > 0 {
        let _ = writeln!(
            s,
            "evicted by the size cap (ever): {} ({})",
            evicted.total(),
            evicted.describe()
        );
    }
    for (title, map) in [
        ("by decision", &stats.by_decision),
        ("by rule", &stats.by_rule),
        ("by tool", &stats.by_tool),
        ("by agent", &stats.by_agent),
    ] {
        if map.is_empty() {
            continue;
        }
        let _ = writeln!(s, "{title}:");
        for (k, v) in map {
            let k = hookgate_core::term::escape(k);
            let _ = writeln!(s, "  {k:<40} {v}");
        }
    }
    let l = stats.latency_us;
    let _ = writeln!(
        s,
        "latency: p50 {} µs, p90 {} µs, p99 {} µs, max {} µs",
        l.p50, l.p90, l.p99, l.max
    );
    print(&s)?;
    Ok(0)
}

/// `hookgate policy`.
#[derive(Debug, Subcommand)]
pub(crate) enum PolicyCommand {
    /// Validate a policy file (default: the user's and the project's, as the hook layers them)
    /// and describe the effective policy.
    ///
    /// Shows what `hookgate hook` applies: an untrusted project policy that does not load is
    /// listed as ignored, with its file:line error, and the policy described is the one
    /// without it (the hook ignores it too). Exit status: 0 ok; 4 ok, but an untrusted
    /// project policy does not load and is ignored; 1 error (a policy file of yours, given
    /// as PATH, or of a trusted project that does not load).
    Check {
        /// The policy file.
        path: Option<PathBuf>,
        /// Print JSON: the files, the project's trust, notes and what is ignored.
        #[arg(long)]
        json: bool,
    },
    /// Run a file of cases (payload or command → expected decision) against the effective
    /// policy.
    ///
    /// The effective policy is the hook's: an untrusted project policy that does not load is
    /// ignored (and listed). Exit status: 0 every case passes; 2 a case fails; 4 every case
    /// passes, but an untrusted project policy does not load and is ignored; 1 error.
    Test {
        /// The cases file.
        file: PathBuf,
        /// The policy file to test (default: the user's and the project's).
        #[arg(long)]
        policy: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Exit status of `policy check`, `policy test` and `config check` when all is well except
/// that an untrusted project file does not load and is ignored, as the hook ignores it: not
/// 0, so a CI job checking a repository's own `.hookgate/` fails on it; not 1, because
/// nothing the hook applies is broken.
pub(crate) const EXIT_IGNORED: u8 = 4;

/// Options for the views of the effective config (`policy`, `config check`, `fire`): the
/// hook's own user config dir and discovery, nothing that a hook call's flags would add.
pub(crate) fn view_options(cwd: &std::path::Path) -> GuardOptions {
    GuardOptions {
        agent: AgentKind::Claude,
        event_hint: None,
        fail_mode: FailMode::Ask,
        ask_fallback: Decision::Deny,
        store: StoreChoice::Off,
        home: hookgate_audit::default_home(),
        config_dir: config_dir(),
        policy_files: Vec::new(),
        cwd: cwd.to_path_buf(),
        user_hooks: true,
    }
}

/// The policy `policy check/test` judge with, and what they say about it.
pub(crate) struct Effective {
    pub(crate) policy: hookgate_policy::Policy,
    /// The policy files that exist and were layered (or left out), in order.
    files: Vec<hookgate_guard::PolicyFile>,
    /// The project's trust, when a project policy was layered.
    trust: Option<hookgate_project::TrustState>,
    /// What of the project's policy (or `.hookgate/`) was not applied, with why.
    ignored: Vec<hookgate_guard::IgnoredItem>,
}

impl Effective {
    /// Whether a file was left out because it does not load (exit [`EXIT_IGNORED`]).
    fn has_unloadable(&self) -> bool {
        self.ignored.iter().any(|i| i.unloadable)
    }
}

/// The user's policy then the project's, loaded by the hook's own loader
/// ([`hookgate_guard::effective_config`]: the same discovery, snapshot, trust and handling of
/// an untrusted file that does not load), or the explicit file alone through the same rule
/// ([`hookgate_guard::load_policy_layers`]). An explicit file that is the project's own policy
/// keeps the project's trust: naming it does not make it trusted.
pub(crate) fn effective_policy(explicit: Option<&PathBuf>) -> Result<Effective, Failure> {
    let cwd = std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?;
    effective_policy_in(&cwd, explicit)
}

/// [`effective_policy`] for the project containing `dir`.
pub(crate) fn effective_policy_in(
    dir: &std::path::Path,
    explicit: Option<&PathBuf>,
) -> Result<Effective, Failure> {
    use hookgate_guard::{ConfigPart, IgnoredItem, PolicyFile};
    let Some(p) = explicit else {
        let effective = hookgate_guard::effective_config(&view_options(dir), dir, false)?;
        let ignored: Vec<IgnoredItem> = effective.applied.ignored;
        let files: Vec<PolicyFile> = effective
            .applied
            .policy_files
            .into_iter()
            .filter(|f| f.ignored || f.path.is_file())
            .collect();
        let shows_project = files.iter().any(|f| !f.trusted) || !ignored.is_empty();
        return Ok(Effective {
            policy: effective.applied.policy,
            files,
            trust: shows_project.then_some(effective.trust),
            ignored,
        });
    };
    if !p.is_file() {
        return Err(Failure(format!("{}: no such file", p.display())));
    }
    let user = config_dir();
    let project = hookgate_project::discover_in(dir, user.as_deref());
    let trust = hookgate_project::trust_state(&project, user.as_deref());
    let canonical = |x: &std::path::Path| std::fs::canonicalize(x).ok();
    let project_canonical = project.policy_file().as_deref().and_then(canonical);
    let is_project = project_canonical.is_some() && canonical(p) == project_canonical;
    let trusted = !is_project || trust.is_trusted();
    let (policy, left_out) =
        hookgate_guard::load_policy_layers(vec![hookgate_policy::PolicyLayer::new(p, trusted)])?;
    let mut ignored: Vec<IgnoredItem> = policy
        .notes()
        .iter()
        .map(|n| IgnoredItem {
            part: ConfigPart::Policy,
            line: n.to_string(),
            unloadable: false,
        })
        .collect();
    ignored.extend(left_out.iter().map(|(_, line)| IgnoredItem {
        part: ConfigPart::Policy,
        line: line.clone(),
        unloadable: true,
    }));
    Ok(Effective {
        policy,
        files: vec![PolicyFile {
            path: p.clone(),
            trusted,
            ignored: left_out.is_some(),
        }],
        trust: is_project.then_some(trust),
        ignored,
    })
}

/// The trust line, the notes (what the layers asked for and did not get) and the files left
/// out because they do not load, one per line.
fn policy_notes(effective: &Effective) -> String {
    let mut s = String::new();
    if let Some(trust) = effective.trust {
        let _ = writeln!(s, "project config: {}", crate::trust::describe(trust));
    }
    for item in &effective.ignored {
        let word = if item.unloadable { "ignored" } else { "note" };
        let _ = writeln!(s, "{word}: {}", escape(&item.line));
    }
    s
}

/// `policy check --json`.
#[derive(serde::Serialize)]
struct PolicyCheckOut<'a> {
    files: &'a [hookgate_guard::PolicyFile],
    #[serde(skip_serializing_if = "Option::is_none")]
    trust: Option<hookgate_project::TrustState>,
    ignored: &'a [hookgate_guard::IgnoredItem],
    exit: u8,
}

/// `policy test --json`: the cases' report, and what of the project's policy was ignored.
#[derive(serde::Serialize)]
struct PolicyTestOut<'a> {
    #[serde(flatten)]
    report: &'a hookgate_policy::CaseReport,
    ignored: &'a [hookgate_guard::IgnoredItem],
}

/// The closing line of `policy check` and `config check` when something of an untrusted
/// project does not load (empty when nothing): the exit status says it too.
pub(crate) fn ignored_line(unloadable: usize) -> String {
    if unloadable == 0 {
        return String::new();
    }
    format!(
        "but: {unloadable} untrusted project config item(s) do not load and are ignored, as the hook ignores them (exit {EXIT_IGNORED})\n"
    )
}

pub(crate) fn policy(command: &PolicyCommand) -> Result<u8, Failure> {
    match command {
        PolicyCommand::Check { path, json } => {
            let effective = effective_policy(path.as_ref())?;
            let unloadable = effective.ignored.iter().filter(|i| i.unloadable).count();
            let code = if unloadable == 0 { 0 } else { EXIT_IGNORED };
            if *json {
                print(&to_json(&PolicyCheckOut {
                    files: &effective.files,
                    trust: effective.trust,
                    ignored: &effective.ignored,
                    exit: code,
                })?)?;
                return Ok(code);
            }
            let mut s = String::new();
            if effective.files.is_empty() {
                s.push_str("policy files: none (the built-in default policy)\n");
            } else {
                s.push_str("policy files (later ones layered on earlier ones):\n");
            }
            for file in &effective.files {
                let how = match (file.trusted, file.ignored) {
                    (_, true) => "ignored: untrusted and does not load",
                    (true, false) => "applied",
                    (false, false) => "untrusted: only what tightens the guard is applied",
                };
                let _ = writeln!(s, "  {} ({how})", escape(&file.path.display().to_string()));
            }
            let _ = write!(
                s,
                "{}{}\nok\n{}",
                effective.policy.describe(),
                policy_notes(&effective),
                ignored_line(unloadable)
            );
            print_human(&s)?;
            Ok(code)
        }
        PolicyCommand::Test { file, policy, json } => {
            let effective = effective_policy(policy.as_ref())?;
            let text = std::fs::read_to_string(file)
                .map_err(|e| Failure(format!("{}: cannot read: {e}", file.display())))?;
            let parse =
                |case: hookgate_policy::CaseCall<'_>, agent: AgentKind, cwd: &str| match case {
                    hookgate_policy::CaseCall::Command(command) => {
                        hookgate_agents::call_for_command(agent, cwd, command).ok()
                    }
                    hookgate_policy::CaseCall::Tool { name, input } => {
                        hookgate_agents::call_for_tool(agent, cwd, name, input).ok()
                    }
                    hookgate_policy::CaseCall::Payload(payload) => {
                        hookgate_agents::call_from_value(agent, payload, cwd).ok()
                    }
                };
            let report =
                hookgate_policy::run_cases_with(&effective.policy, &text, Some(file), &parse)?;
            if *json {
                print(&to_json(&PolicyTestOut {
                    report: &report,
                    ignored: &effective.ignored,
                })?)?;
                // The notes still reach the user, beside the machine-readable report.
                let notes = policy_notes(&effective);
                if !notes.is_empty() {
                    let _ = std::io::stderr().write_all(notes.as_bytes());
                }
            } else {
                let mut s = policy_notes(&effective);
                for c in &report.cases {
                    let word = |d: Option<Decision>| d.map_or("no opinion", Decision::as_str);
                    let status = if c.expected == c.actual {
                        "ok  "
                    } else {
                        "FAIL"
                    };
                    let _ = write!(
                        s,
                        "{status} {}:{} {} (expected {}, got {})",
                        escape(&file.display().to_string()),
                        c.line,
                        escape(&c.name),
                        word(c.expected),
                        word(c.actual)
                    );
                    // A failure says why the policy decided as it did, and which expected
                    // ids did not match, so the fix can start from the line itself.
                    if !c.passed {
                        if !c.missing.is_empty() {
                            let _ = write!(
                                s,
                                "; expected ids not matched: {}",
                                escape(&c.missing.join(", "))
                            );
                        }
                        if let Some(reason) = &c.reason {
                            let _ = write!(s, "; reason: {}", escape(reason));
                        }
                    }
                    s.push('\n');
                }
                let _ = writeln!(s, "{} passed, {} failed", report.passed, report.failed);
                if effective.has_unloadable() {
                    let _ = writeln!(
                        s,
                        "(against the policy the hook applies, without the ignored file; exit {EXIT_IGNORED})"
                    );
                }
                print_human(&s)?;
            }
            Ok(if report.failed > 0 {
                2
            } else if effective.has_unloadable() {
                EXIT_IGNORED
            } else {
                0
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap's parse of `hookgate hook …`, the reference the fast path must agree with.
    fn clap_hook(args: &[&str]) -> Option<HookArgs> {
        #[derive(Debug, clap::Parser)]
        struct Hook {
            #[command(flatten)]
            args: HookArgs,
        }
        <Hook as clap::Parser>::try_parse_from(
            std::iter::once("hookgate hook").chain(args.iter().copied()),
        )
        .ok()
        .map(|h| h.args)
    }

    fn fast_hook(args: &[&str]) -> Option<HookArgs> {
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        HookArgs::parse_fast(&args)
    }

    #[test]
    fn hook_fast_path_parses_exactly_what_clap_parses() {
        // What `hookgate init` writes and what users type: the fast path must take these.
        let taken: &[&[&str]] = &[
            &["claude"],
            &["codex"],
            &["gemini"],
            &["copilot"],
            &["cursor"],
            &["claude", "--input", "p.json"],
            &["--input=p.json", "claude"],
            &["claude", "--input", "-"],
            &[
                "claude",
                "--fail-mode",
                "deny",
                "--ask-fallback=allow",
                "--store",
                "off",
            ],
            &[
                "codex",
                "--store=jsonl",
                "--fail-mode=ask",
                "--ask-fallback",
                "deny",
            ],
            &[
                "gemini",
                "--policy",
                "a.yaml",
                "--policy=b.yaml",
                "--no-user-hooks",
            ],
            &["--no-user-hooks", "cursor", "--store", "sqlite"],
            &["claude", "--input=--odd-name"],
        ];
        for args in taken {
            let fast = fast_hook(args);
            assert!(fast.is_some(), "fast path declined {args:?}");
            assert_eq!(
                fast,
                clap_hook(args),
                "fast path and clap differ on {args:?}"
            );
        }
        // Anything else goes to clap, which words the error or the help.
        let declined: &[&[&str]] = &[
            &[],
            &["--help"],
            &["-h"],
            &["claude", "--help"],
            &["Claude"],
            &["opencode"],
            &["claude", "codex"],
            &["claude", "--", "x"],
            &["claude", "--input"],
            &["claude", "--input="],
            &["claude", "--input", "--store"],
            &["claude", "--input", "a", "--input", "b"],
            &["claude", "--store", "sqlite", "--store=off"],
            &["claude", "--store", "SQLITE"],
            &["claude", "--fail-mode", "allow"],
            &["claude", "--ask-fallback", "ask"],
            &["claude", "--no-user-hooks", "--no-user-hooks"],
            &["claude", "--no-user-hooks=true"],
            &["claude", "--polic", "a.yaml"],
            &["claude", "--version"],
        ];
        for args in declined {
            assert_eq!(fast_hook(args), None, "fast path took {args:?}");
        }
    }

    #[test]
    fn since_accepts_dates_and_durations() {
        assert!(point_ms("--since", "7d").is_ok());
        assert!(point_ms("--since", "yesterday").is_ok());
        assert!(point_ms("--since", "7 parsecs").is_err());
    }
}
