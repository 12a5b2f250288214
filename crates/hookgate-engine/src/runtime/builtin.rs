//! Built-in hooks: named Rust functions with string arguments, run without a process.
//!
//! The registry is open: later crates (analyzers, the guard) register their built-ins here,
//! and embedders may add their own. Arguments are validated when the config is loaded, so a
//! misconfigured built-in is a config error rather than a hook that quietly does nothing.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

use hookgate_core::{Decision, EventId, HookInput, HookResponse};

/// One call of a built-in.
#[derive(Debug, Clone)]
pub struct BuiltinCall {
    /// The event input (with every rewrite so far applied).
    pub input: HookInput,
    /// The configured `args`.
    pub args: Vec<String>,
    /// The hook's extra environment, expanded.
    pub env: Vec<(OsString, OsString)>,
    /// The hook's working directory, resolved.
    pub working_dir: Option<PathBuf>,
}

/// Why a built-in's `args` do not fit it: what its validator returns at config load, and
/// what its body returns (inside [`BuiltinError::Args`]) if it is handed args that bypassed
/// the load check.
///
/// The text reads as a predicate of the built-in (`takes no `args``), because it is shown
/// after the built-in's name: `hook `h`: built-in `rate_limit` needs N to be a positive
/// integer`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    /// The `args` as a whole have the wrong shape (count, order): says what is needed.
    #[error("{needs}")]
    Shape {
        /// What the built-in needs, as a predicate (`needs `args: [FROM, TO]``).
        needs: Cow<'static, str>,
    },
    /// One argument is refused.
    #[error("refuses argument {} `{value}`: {why}", index + 1)]
    Value {
        /// Its position in `args`, from 0.
        index: usize,
        /// The argument as written.
        value: String,
        /// Why it is refused.
        why: Cow<'static, str>,
    },
}

impl ArgsError {
    /// The `args` as a whole have the wrong shape; `needs` is a predicate.
    pub fn shape(needs: impl Into<Cow<'static, str>>) -> Self {
        Self::Shape {
            needs: needs.into(),
        }
    }

    /// Argument `index` (`value`) is refused for `why`.
    pub fn value(index: usize, value: &str, why: impl Into<Cow<'static, str>>) -> Self {
        Self::Value {
            index,
            value: value.to_owned(),
            why: why.into(),
        }
    }
}

/// Why a built-in could not decide: its body's error.
///
/// INVARIANT: the dispatch turns this into the hook's failure text exactly once
/// (`built-in `NAME` <this>`), and that failure takes the hook's failure policy (`on_error`,
/// blocking on fail-closed events) — never an allow. So every variant's text reads as a
/// predicate of the built-in and names what went wrong and on what, and no built-in prefixes
/// its own name.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuiltinError {
    /// The `args` do not fit (a call that bypassed the load-time check).
    #[error(transparent)]
    Args(#[from] ArgsError),
    /// Reading or writing a file or directory failed.
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        /// What was being done (`create`, `open`, `lock`, `read`, `write`, `remove`, `list`).
        op: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file the built-in keeps is not what it wrote (a failure, not a reset that would
    /// silently lose what it held).
    #[error("finds {} damaged: {source}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The built-in will not act on what it was pointed at (a private address, an event it
    /// does not run on).
    #[error("refuses {target}: {why}")]
    Refused {
        /// What was refused.
        target: String,
        /// Why.
        why: Cow<'static, str>,
    },
    /// Something the built-in needs was not configured.
    #[error("has no {what} ({hint})")]
    Unconfigured {
        /// What is missing.
        what: &'static str,
        /// Where to set it.
        hint: &'static str,
    },
    /// A step of the built-in failed for a reason outside its inputs (a transport error, a
    /// task that died, an encoder).
    #[error("could not {what}: {source}")]
    Failed {
        /// The step, as a verb phrase (`post to https://…`, `finish`).
        what: String,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl BuiltinError {
    /// `op` on `path` failed with `source`.
    pub fn io(op: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            op,
            path: path.into(),
            source,
        }
    }

    /// The step `what` failed with `source`.
    pub fn failed(
        what: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Self::Failed {
            what: what.into(),
            source: source.into(),
        }
    }
}

/// What a built-in returns: `None` is a successful no-op.
pub type BuiltinFuture =
    Pin<Box<dyn Future<Output = Result<Option<HookResponse>, BuiltinError>> + Send>>;

/// A built-in's body.
pub type BuiltinFn = Arc<dyn Fn(BuiltinCall) -> BuiltinFuture + Send + Sync>;

/// Checks a built-in's `args` at config load.
pub type ArgsValidator = fn(&[String]) -> Result<(), ArgsError>;

/// Why [`BuiltinRegistry::check`] refuses a configured built-in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// No built-in has this name.
    #[error("unknown built-in `{name}` (known: {})", known.join(", "))]
    Unknown {
        /// The name as configured.
        name: String,
        /// Every registered name, sorted.
        known: Vec<String>,
    },
    /// The built-in refuses its `args`.
    #[error("built-in `{name}` {source}")]
    Args {
        /// The built-in.
        name: String,
        /// Why.
        source: ArgsError,
    },
}

/// A registered built-in.
#[derive(Clone)]
pub struct Builtin {
    /// What it does, for `hookgate config check` and docs.
    pub description: &'static str,
    /// Events it is meant for (documentation; it runs wherever it is configured).
    pub events: &'static [EventId],
    /// Argument check run at load time.
    pub validate: ArgsValidator,
    /// The body.
    pub run: BuiltinFn,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builtin")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

/// What running a built-in can do besides judging the call it is handed.
///
/// Two decisions are made from this and nowhere else: which built-ins an untrusted project's
/// config may keep (invariant: **a cloned repository may only tighten the guard** — only
/// built-ins whose effects are at most [`Effect::OwnState`]), and which ones `hookgate explain`
/// may run (invariant: **explain is read-only** — nothing that writes, spawns, keeps state or
/// talks to the network).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Keeps its own counters between calls (and writes nothing else).
    OwnState,
    /// Adds text to the agent's context.
    Context,
    /// Reads files or facts outside the call (the home directory, the user account, git).
    ReadsOutside,
    /// Starts a program.
    Spawns,
    /// Writes files.
    Writes,
    /// Sends data over the network.
    Network,
    /// Answers `allow`, or rewrites the call into another one: decides on the user's behalf.
    Approves,
}

impl Effect {
    /// The effect in a few words, for notes.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::OwnState => "keeps its own counters",
            Self::Context => "adds text to the agent's context",
            Self::ReadsOutside => "reads files outside the call",
            Self::Spawns => "runs programs",
            Self::Writes => "writes files",
            Self::Network => "sends data over the network",
            Self::Approves => "answers allow or rewrites the call",
        }
    }

    /// Whether the effect changes anything outside the process (what `explain` must not do).
    pub const fn is_side_effect(self) -> bool {
        matches!(
            self,
            Self::OwnState | Self::Spawns | Self::Writes | Self::Network
        )
    }
}

/// Every effect: what a built-in missing from [`BUILTIN_EFFECTS`] (an embedder's own) is
/// assumed to have, so an unclassified built-in is never kept from untrusted config nor run
/// by `explain`.
const EVERY_EFFECT: &[Effect] = &[
    Effect::OwnState,
    Effect::Context,
    Effect::ReadsOutside,
    Effect::Spawns,
    Effect::Writes,
    Effect::Network,
    Effect::Approves,
];

/// The one table of what each of hookgate's built-ins does beyond judging its call (the
/// built-ins themselves live here and in `hookgate-builtins`; a test in `hookgate-guard`
/// checks that every built-in the guard registers has a row, so a new one cannot slip past
/// the trust rule unclassified — it would be dropped from untrusted config anyway). A row with no effects is a pure tightening check: it decides
/// deny, ask or nothing on the call alone.
pub const BUILTIN_EFFECTS: &[(&str, &[Effect])] = &[
    // Pure tightening checks.
    ("noop", &[]),
    ("deny_commands", &[]),
    ("require_command", &[]),
    ("deny_paths", &[]),
    ("allow_paths", &[]),
    ("safer_shell", &[]),
    ("max_iterations", &[]),
    ("redact_secrets", &[]),
    ("rate_limit", &[Effect::OwnState]),
    // Context: text the file's author puts before the model.
    ("add_date", &[Effect::Context]),
    (
        "add_environment_info",
        &[Effect::Context, Effect::ReadsOutside],
    ),
    ("add_user_info", &[Effect::Context, Effect::ReadsOutside]),
    (
        "add_directory_listing",
        &[Effect::Context, Effect::ReadsOutside],
    ),
    ("add_prompt_files", &[Effect::Context, Effect::ReadsOutside]),
    (
        "add_git_status",
        &[Effect::Context, Effect::ReadsOutside, Effect::Spawns],
    ),
    (
        "add_git_diff",
        &[Effect::Context, Effect::ReadsOutside, Effect::Spawns],
    ),
    (
        "add_recent_commits",
        &[Effect::Context, Effect::ReadsOutside, Effect::Spawns],
    ),
    // Writes.
    ("snapshot", &[Effect::Writes, Effect::Spawns]),
    ("limit_large_tool_results", &[Effect::Writes]),
    // Network.
    ("http_post", &[Effect::Network]),
    ("unload", &[Effect::Network]),
    // Decides for the user.
    ("redirect_path", &[Effect::Approves]),
];

/// What the built-in `name` does beyond judging its call ([`BUILTIN_EFFECTS`]; every effect
/// for a name not in the table).
pub fn builtin_effects(name: &str) -> &'static [Effect] {
    BUILTIN_EFFECTS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(EVERY_EFFECT, |(_, effects)| effects)
}

/// Whether `name` has a row in [`BUILTIN_EFFECTS`] (an embedder's own built-in has none).
pub fn is_classified(name: &str) -> bool {
    BUILTIN_EFFECTS.iter().any(|(n, _)| *n == name)
}

/// The first effect that keeps the built-in `name` out of an untrusted project's config, or
/// `None` when it is a pure tightening check (its only effect, if any, its own counters).
pub fn loosening_effect(name: &str) -> Option<Effect> {
    builtin_effects(name)
        .iter()
        .copied()
        .find(|e| *e != Effect::OwnState)
}

/// The first side effect (see [`Effect::is_side_effect`]) of the built-in `name`: `explain`
/// does not run it.
pub fn side_effect(name: &str) -> Option<Effect> {
    builtin_effects(name)
        .iter()
        .copied()
        .find(|e| e.is_side_effect())
}

/// Built-ins by name.
#[derive(Debug, Clone, Default)]
pub struct BuiltinRegistry {
    map: BTreeMap<String, Builtin>,
}

/// The validator of a built-in without arguments (shared with `hookgate-builtins`).
pub fn no_args(args: &[String]) -> Result<(), ArgsError> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(ArgsError::shape("takes no `args`"))
    }
}

/// A positive integer: argument `index` of `args`, parsed.
fn positive_integer(args: &[String], index: usize) -> Result<u64, ArgsError> {
    let n = args.get(index).map_or("", String::as_str);
    n.parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ArgsError::value(index, n, "must be a positive integer"))
}

fn one_positive_integer(args: &[String]) -> Result<(), ArgsError> {
    match args {
        [_] => positive_integer(args, 0).map(|_| ()),
        _ => Err(ArgsError::shape(
            "needs `args: [\"N\"]` with N a positive integer",
        )),
    }
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "built-ins return Option: None is a no-op"
)]
fn context(text: String) -> Option<HookResponse> {
    Some(HookResponse {
        additional_context: Some(text),
        ..HookResponse::default()
    })
}

impl BuiltinRegistry {
    /// An empty registry.
    pub fn empty() -> Self {
        Self::default()
    }

    /// The registry with hookgate's own built-ins.
    pub fn standard() -> Self {
        let mut registry = Self::empty();
        registry.register(
            "noop",
            Builtin {
                description: "Does nothing (a baseline for measuring dispatch).",
                events: EventId::ALL,
                validate: |_| Ok(()),
                run: Arc::new(|_| Box::pin(async { Ok(None) })),
            },
        );
        registry.register(
            "add_date",
            Builtin {
                description: "Adds `Today's date: YYYY-MM-DD` (UTC) as context.",
                events: &[EventId::TurnStart],
                validate: no_args,
                run: Arc::new(|_| {
                    Box::pin(async { Ok(context(format!("Today's date: {}", today_utc()))) })
                }),
            },
        );
        registry.register(
            "max_iterations",
            Builtin {
                description: "Blocks once the run-loop `iteration` exceeds N (a hard stop).",
                events: &[EventId::BeforeLlmCall],
                validate: one_positive_integer,
                run: Arc::new(|call: BuiltinCall| {
                    Box::pin(async move {
                        let limit = positive_integer(&call.args, 0)?;
                        match call.input.iteration {
                            Some(iteration) if iteration > limit => Ok(Some(HookResponse {
                                decision: Some(Decision::Deny),
                                reason: Some(format!("max_iterations: iteration {iteration} exceeds the limit of {limit}")),
                                ..HookResponse::default()
                            })),
                            _ => Ok(None),
                        }
                    })
                }),
            },
        );
        registry.register(
            "add_environment_info",
            Builtin {
                description: "Adds the working directory, whether it is a git repository, the OS and the CPU architecture.",
                events: &[EventId::SessionStart],
                validate: no_args,
                run: Arc::new(|call: BuiltinCall| {
                    Box::pin(async move {
                        let dir = call.working_dir.clone().or_else(|| std::env::current_dir().ok()).unwrap_or_default();
                        let git = dir.ancestors().any(|d| d.join(".git").exists());
                        Ok(context(format!(
                            "Working directory: {}\nGit repository: {}\nOperating system: {}\nArchitecture: {}",
                            dir.display(),
                            if git { "yes" } else { "no" },
                            std::env::consts::OS,
                            std::env::consts::ARCH
                        )))
                    })
                }),
            },
        );
        registry.register(
            "add_user_info",
            Builtin {
                description: "Adds the OS user name (from USER / LOGNAME, else the passwd entry of the process's uid), the full name from the passwd entry, and the host name.",
                events: &[EventId::SessionStart],
                validate: no_args,
                run: Arc::new(|_| Box::pin(async { Ok(context(user_info())) })),
            },
        );
        registry.register(
            "add_directory_listing",
            Builtin {
                description: "Adds an alphabetical listing of the working directory (no dotfiles, at most 100 entries).",
                events: &[EventId::SessionStart],
                validate: no_args,
                run: Arc::new(|call: BuiltinCall| {
                    Box::pin(async move {
                        let dir = call.working_dir.clone().or_else(|| std::env::current_dir().ok()).unwrap_or_default();
                        listing(&dir).map(context).map_err(|e| BuiltinError::io("list", dir, e))
                    })
                }),
            },
        );
        registry
    }

    /// Registers (or replaces) a built-in.
    pub fn register(&mut self, name: &str, builtin: Builtin) -> Option<Builtin> {
        self.map.insert(name.to_owned(), builtin)
    }

    /// Looks a built-in up.
    pub fn get(&self, name: &str) -> Option<&Builtin> {
        self.map.get(name)
    }

    /// Checks `args` for the built-in `name` as loading a config does: an unknown name or
    /// arguments it refuses are an error saying which.
    pub fn check(&self, name: &str, args: &[String]) -> Result<(), CheckError> {
        let builtin = self.get(name).ok_or_else(|| CheckError::Unknown {
            name: name.to_owned(),
            known: self.map.keys().cloned().collect(),
        })?;
        (builtin.validate)(args).map_err(|source| CheckError::Args {
            name: name.to_owned(),
            source,
        })
    }

    /// Every built-in, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Builtin)> {
        self.map.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// The passwd entry of `uid` in `passwd` (the text of `/etc/passwd`): `(name, full name)`,
/// the full name being the first comma-separated GECOS field (empty when unset).
pub(crate) fn passwd_entry(passwd: &str, uid: u32) -> Option<(String, String)> {
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        let [name, _password, entry_uid, _gid, gecos, ..] = fields.as_slice() else {
            return None;
        };
        (entry_uid.parse::<u32>().ok()? == uid).then(|| {
            let full = gecos.split(',').next().unwrap_or_default().trim();
            ((*name).to_owned(), full.to_owned())
        })
    })
}

/// `User:`, `Full name:` and `Host:` lines. The user name comes from `USER` / `LOGNAME`, and
/// when a sandbox or service manager cleared both, from the passwd entry of the real uid
/// (docker-agent asks the OS the same way), so the model is never told `unknown` needlessly.
fn user_info() -> String {
    let entry = std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|text| passwd_entry(&text, rustix::process::getuid().as_raw()));
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .ok()
        .filter(|u| !u.is_empty())
        .or_else(|| entry.as_ref().map(|(name, _)| name.clone()))
        .unwrap_or_else(|| "unknown".into());
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map_or_else(|_| "unknown".into(), |h| h.trim().to_owned());
    let mut text = format!("User: {user}\n");
    if let Some((_, full)) = entry.filter(|(_, full)| !full.is_empty()) {
        let _ = writeln!(text, "Full name: {full}");
    }
    let _ = write!(text, "Host: {host}");
    text
}

fn listing(dir: &Path) -> std::io::Result<String> {
    let read = std::fs::read_dir(dir)?;
    let mut names: Vec<String> = read
        .filter_map(Result::ok)
        .map(|e| {
            let mut name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                name.push('/');
            }
            name
        })
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    let total = names.len();
    let mut text = format!("Files in {}:\n", dir.display());
    for name in names.iter().take(100) {
        text.push_str(name);
        text.push('\n');
    }
    if total > 100 {
        let _ = writeln!(text, "... and {} more", total - 100);
    }
    Ok(text)
}

/// Today's date (UTC) from the system clock, without a date library.
fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_are_right_around_leap_years() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_414), (2025, 11, 22));
    }

    #[test]
    fn add_user_info_falls_back_to_the_passwd_entry_of_the_uid() {
        let passwd = "root:x:0:0:root:/root:/bin/bash\n# comment\nbroken\ndev:x:1000:1000:Ada Lovelace,,,:/home/dev:/bin/sh\n";
        assert_eq!(
            passwd_entry(passwd, 1000),
            Some(("dev".to_owned(), "Ada Lovelace".to_owned()))
        );
        assert_eq!(
            passwd_entry(passwd, 0).map(|e| e.0),
            Some("root".to_owned())
        );
        assert_eq!(passwd_entry(passwd, 42), None);
    }

    #[test]
    fn argument_checks_reject_what_would_silently_do_nothing() {
        let registry = BuiltinRegistry::standard();
        let max = registry.get("max_iterations").unwrap();
        assert!((max.validate)(&[]).is_err());
        assert!((max.validate)(&["0".into()]).is_err());
        assert!((max.validate)(&["abc".into()]).is_err());
        assert!((max.validate)(&["50".into()]).is_ok());
        assert!((registry.get("add_date").unwrap().validate)(&["x".into()]).is_err());
    }
}
