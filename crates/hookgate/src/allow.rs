//! `hookgate allow`: the user's way through a deny or an ask.
//!
//! Writes, lists and revokes allowances in the user config dir (see
//! `hookgate_policy::allowance` for what they waive and the invariants they keep). An agent
//! running this command from its shell tool is denied by the locked
//! `no-governance-self-modification` invariant: an allowance is the user's decision.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use hookgate_core::term::escape;
use hookgate_policy::INVARIANTS;
use hookgate_policy::allowance::{
    AllowLife, AllowScope, AllowTarget, Allowance, allowances_path, is_locked, load_allowances,
    update_allowances,
};

use crate::guard::{config_dir, effective_policy};
use crate::{Failure, print, to_json};

/// How long a `--once` allowance waits for its call before it goes stale.
const ONCE_WINDOW_MS: u64 = 60 * 60 * 1000;

/// `hookgate allow`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("life").args(["once", "for_", "always"]))]
#[command(group = clap::ArgGroup::new("scope").args(["project", "user"]))]
pub(crate) struct AllowArgs {
    /// What to allow: a rule, invariant or analyzer id (`no-force-push`), or an exact shell
    /// command in quotes (`'git push --force origin main'`). Several are allowed together.
    #[arg(
        value_name = "RULE-ID | 'COMMAND'",
        required_unless_present_any = ["list", "revoke"],
        conflicts_with_all = ["list", "revoke"]
    )]
    targets: Vec<String>,
    /// Only the next call it lets through (within an hour). The default.
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

pub(crate) fn run(args: &AllowArgs) -> Result<u8, Failure> {
    let path = file()?;
    let now = hookgate_audit::now_ms();
    let tz = hookgate_audit::local_zone();
    if args.list {
        let live: Vec<Allowance> = load_allowances(&path)?
            .into_iter()
            .filter(|a| match a.life {
                AllowLife::Once(until) | AllowLife::Until(until) => now < until,
                AllowLife::Always => true,
            })
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
    let scope = if args.user {
        AllowScope::User
    } else {
        let dir = match &args.project {
            Some(d) => d.clone(),
            None => std::env::current_dir()
                .map_err(|e| Failure(format!("no current directory: {e}")))?,
        };
        let dir =
            std::fs::canonicalize(&dir).map_err(|e| Failure(format!("{}: {e}", dir.display())))?;
        AllowScope::Project(hookgate_project::discover(&dir).root)
    };
    // A target is a rule when it names an invariant or a rule of the effective policy;
    // anything else is an exact command.
    let policy = effective_policy(None)?.policy;
    let is_rule =
        |t: &str| INVARIANTS.iter().any(|i| i.id == t) || policy.rule_ids().any(|id| id == t);
    let mut new = Vec::new();
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
        let target = if is_rule(t) {
            AllowTarget::Rule(t.to_owned())
        } else {
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
        });
    }
    let written = new.clone();
    update_allowances(&path, move |all| {
        // Spent entries go when the file is next written.
        all.retain(|a| match a.life {
            AllowLife::Once(until) | AllowLife::Until(until) => now < until,
            AllowLife::Always => true,
        });
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
