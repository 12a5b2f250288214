//! `hookgate allow`: the user's way through a deny or an ask.
//!
//! Writes, lists and revokes allowances in the user config dir (see
//! `hookgate_policy::allowance` for what they waive and the invariants they keep). An agent
//! running this command from its shell tool is denied by the locked
//! `no-governance-self-modification` invariant: an allowance is the user's decision.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use hookgate_core::Decision;
use hookgate_core::term::escape;
use hookgate_policy::allowance::{
    AllowLife, AllowScope, AllowTarget, Allowance, allowances_path, is_locked, load_allowances,
    update_allowances,
};

use crate::explain::command_payload;
use crate::guard::{AgentArg, GuardFlags, config_dir, effective_policy_in, guard_options};
use crate::{Failure, print, to_json};

/// How long a `--once` allowance waits for its call before it goes stale.
const ONCE_WINDOW_MS: u64 = 60 * 60 * 1000;

/// `hookgate allow`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("life").args(["once", "for_", "always"]))]
#[command(group = clap::ArgGroup::new("scope").args(["project", "user"]))]
pub(crate) struct AllowArgs {
    /// What to allow: an invariant, shell analyzer rule or policy rule id (`no-force-push`,
    /// `git.push_force`), or an exact shell command in quotes (`'git push --force origin
    /// main'`). Several are allowed together. An id-like word that names nothing is an error
    /// naming the nearest ids; a command a locked invariant always blocks is refused.
    #[arg(
        value_name = "ID | 'COMMAND'",
        required_unless_present_any = ["list", "revoke"],
        conflicts_with_all = ["list", "revoke"]
    )]
    targets: Vec<String>,
    /// Only the next call it lets through, with every event of that call (within an hour).
    /// The default.
    #[arg(long)]
    once: bool,
    /// For this long: `30m`, `1h`, `7d`, `1w`.
    #[arg(long = "for", value_name = "DURATION")]
    for_: Option<String>,
    /// Until revoked.
    #[arg(long)]
    always: bool,
    /// Only in this project (the one containing DIR; alone: the current directory's). The
    /// default.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = ".")]
    project: Option<PathBuf>,
    /// In every project.
    #[arg(long)]
    user: bool,
    /// List the allowances in force.
    #[arg(long, conflicts_with_all = ["revoke", "life", "scope"])]
    list: bool,
    /// Revoke the allowance with this code.
    #[arg(long, value_name = "CODE", conflicts_with_all = ["life", "scope"])]
    revoke: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn file() -> Result<PathBuf, Failure> {
    config_dir()
        .map(|d| allowances_path(&d))
        .ok_or_else(|| Failure("no user config directory (set HOOKGATE_CONFIG_DIR or HOME)".into()))
}

fn describe(a: &Allowance, tz: &hookgate_audit::TimeZone) -> String {
    let what = match &a.target {
        AllowTarget::Rule(id) if hookgate_policy::is_analyzer_id(id) => {
            format!("analyzer rule {}", escape(id))
        }
        AllowTarget::Rule(id) => format!("rule {}", escape(id)),
        AllowTarget::Command(c) => format!("command `{}`", escape(c)),
    };
    let scope = match &a.scope {
        AllowScope::User => "everywhere".to_owned(),
        AllowScope::Project(root) => format!("in {}", escape(&root.display().to_string())),
    };
    let life = match a.life {
        AllowLife::Once(until) => {
            format!("once (until {})", hookgate_audit::format_time(until, tz))
        }
        AllowLife::Until(until) => format!("until {}", hookgate_audit::format_time(until, tz)),
        AllowLife::Always => "always".to_owned(),
    };
    format!("{what} {scope}, {life}")
}

/// Whether `t` is written like an id rather than a command: one word of lowercase letters,
/// digits, `-`, `_` and `.`, with a `.` or `-` in it (`git.push_force`, `no-force-push`) —
/// and either close to a known id or with a dot between letters (the analyzer's
/// `namespace.rule` shape). Such a word that names nothing is a typo, not a command anyone
/// needs allowed.
fn looks_like_an_id(t: &str) -> bool {
    let shaped = t
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
        && t.bytes().any(|b| b == b'.' || b == b'-');
    let dotted = t.split('.').count() > 1
        && t.split('.')
            .all(|part| part.bytes().next().is_some_and(|b| b.is_ascii_lowercase()));
    shaped && (dotted || !hookgate_policy::near_ids(t).is_empty())
}

/// What a command allowance would meet: the locked invariants that decide the command in
/// `dir` (no allowance waives them), and whether hookgate objects to it there at all.
fn judge_command(command: &str, dir: &Path) -> Result<(Vec<String>, bool), Failure> {
    let mut opts = guard_options(&GuardFlags::none(AgentArg::Claude))?;
    opts.store = hookgate_guard::StoreChoice::Off;
    dir.clone_into(&mut opts.cwd);
    let payload = command_payload(hookgate_core::AgentKind::Claude, command, dir);
    let (judgement, _) = hookgate_guard::explain(&opts, &payload);
    let verdict = &judgement.verdict;
    let locked: Vec<String> = verdict
        .matched
        .iter()
        .filter(|m| is_locked(&m.id) && !m.effect.loosens())
        .map(|m| m.id.clone())
        .collect();
    Ok((locked, verdict.judged.is_some_and(|d| d != Decision::Allow)))
}

pub(crate) fn run(args: &AllowArgs) -> Result<u8, Failure> {
    let path = file()?;
    let now = hookgate_audit::now_ms();
    let tz = hookgate_audit::local_zone();
    if args.list {
        let live: Vec<Allowance> = load_allowances(&path)?
            .into_iter()
            // A spent `--once` stays in the file while its call's events may still come, but
            // it is not in force for anything else.
            .filter(|a| a.spent.is_none() && a.live(now))
            .collect();
        if args.json {
            print(&to_json(&live)?)?;
        } else if live.is_empty() {
            print("no allowances\n")?;
        } else {
            let mut s = String::new();
            for a in &live {
                let _ = writeln!(s, "{}  {}", a.id, describe(a, &tz));
            }
            print(&s)?;
        }
        return Ok(0);
    }
    if let Some(code) = &args.revoke {
        let removed = update_allowances(&path, |all| {
            let before = all.len();
            all.retain(|a| a.id != *code);
            before - all.len()
        })?;
        if removed == 0 {
            return Err(Failure(format!(
                "no allowance `{code}` (see `hookgate allow --list`)"
            )));
        }
        print(&format!("revoked {code}\n"))?;
        return Ok(0);
    }
    let life = if args.always {
        AllowLife::Always
    } else if let Some(period) = &args.for_ {
        AllowLife::Until(
            hookgate_audit::parse_period_end_now(period)
                .map_err(|e| Failure(format!("--for: {e}")))?,
        )
    } else {
        AllowLife::Once(now.saturating_add(ONCE_WINDOW_MS))
    };
    let dir = match &args.project {
        Some(d) => d.clone(),
        None => {
            std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?
        }
    };
    let dir =
        std::fs::canonicalize(&dir).map_err(|e| Failure(format!("{}: {e}", dir.display())))?;
    let root = hookgate_project::discover(&dir).root;
    let scope = if args.user {
        AllowScope::User
    } else {
        AllowScope::Project(root.clone())
    };
    // A target is a rule when it names an invariant, a shell analyzer rule or a rule of the
    // project's effective policy; a word written like an id that names none of these is a
    // typo (an error naming the near ids); anything else is an exact command.
    let policy = effective_policy_in(&dir, None)?.policy;
    let mut new = Vec::new();
    let mut notes = String::new();
    for t in &args.targets {
        let t = t.trim();
        if t.is_empty() {
            return Err(Failure("an empty target allows nothing".into()));
        }
        if is_locked(t) {
            return Err(Failure(format!(
                "`{t}` is locked: cannot be allowed (it protects the guard itself)"
            )));
        }
        let target = if policy.knows_id(t) {
            AllowTarget::Rule(t.to_owned())
        } else if looks_like_an_id(t) {
            let near = hookgate_policy::near_ids(t);
            let hint = if near.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", near.join(", "))
            };
            return Err(Failure(format!(
                "`{}` is not a rule, invariant or analyzer rule id{hint}; to allow a command, give the whole command line in quotes",
                escape(t)
            )));
        } else {
            let (locked, objects) = judge_command(t, &root)?;
            if !locked.is_empty() {
                return Err(Failure(format!(
                    "`{}` is always denied by the locked invariant {} (it protects the guard itself): no allowance can let it through",
                    escape(t),
                    locked.join(", ")
                )));
            }
            if !objects {
                let _ = writeln!(
                    notes,
                    "note: hookgate has no objection to `{}` in {} now; the allowance applies where it does (another directory, later in a session)",
                    escape(t),
                    escape(&root.display().to_string())
                );
            }
            AllowTarget::Command(t.to_owned())
        };
        let id = hookgate_audit::new_id(now);
        let code = id
            .rsplit('-')
            .next()
            .unwrap_or(&id)
            .get(..8)
            .unwrap_or(&id)
            .to_owned();
        new.push(Allowance {
            id: code,
            target,
            scope: scope.clone(),
            life,
            created_ms: now,
            spent: None,
        });
    }
    if !notes.is_empty() {
        eprint!("{notes}");
    }
    let written = new.clone();
    update_allowances(&path, move |all| {
        // Entries nothing can use any more go when the file is next written.
        all.retain(|a| a.live(now));
        all.extend(new);
    })?;
    if args.json {
        print(&to_json(&written)?)?;
    } else {
        let mut s = String::new();
        for a in &written {
            let _ = writeln!(
                s,
                "allowed {} (code {}; undo: hookgate allow --revoke {})",
                describe(a, &tz),
                a.id,
                a.id
            );
        }
        print(&s)?;
    }
    Ok(0)
}
