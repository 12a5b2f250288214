//! `hookgate trust`: pin, list and revoke the user's trust in a project's `.hookgate/`.
//!
//! Until it is trusted, a project's config may only tighten the guard (see
//! `hookgate_project::trust_state`). The pins live in the user config dir, which the agent
//! cannot write (it is in the protected set), never in the project.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use hookgate_project::{Project, TrustState, TrustStore};
use serde::Serialize;

use crate::{Failure, print, print_human, to_json};

/// `hookgate trust [DIR]`.
#[derive(Debug, Args)]
pub(crate) struct TrustArgs {
    /// A directory of the project (default: the current directory); its project is found by
    /// the same rule the hook uses.
    dir: Option<PathBuf>,
    /// List the trusted projects instead.
    #[arg(long, conflicts_with_all = ["revoke", "status"])]
    list: bool,
    /// Forget the trust of DIR's project.
    #[arg(long, conflicts_with = "status")]
    revoke: bool,
    /// Show whether DIR's project config is trusted, and change nothing.
    #[arg(long)]
    status: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn user_dir() -> Result<PathBuf, Failure> {
    hookgate_project::user_config_dir()
        .ok_or_else(|| Failure(hookgate_project::TrustError::NoUserConfigDir.to_string()))
}

fn project_of(dir: Option<&PathBuf>, user: &std::path::Path) -> Result<Project, Failure> {
    let start = match dir {
        Some(d) => {
            std::fs::canonicalize(d).map_err(|e| Failure(format!("{}: {e}", d.display())))?
        }
        None => {
            std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?
        }
    };
    Ok(hookgate_project::discover_in(&start, Some(user)))
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[derive(Serialize)]
struct Status<'a> {
    project: &'a Project,
    trust: TrustState,
    files: Vec<String>,
}

pub(crate) fn run(args: &TrustArgs) -> Result<u8, Failure> {
    let user = user_dir()?;
    if args.list {
        let store = TrustStore::load(&user)?;
        if args.json {
            print(&to_json(&store.entries())?)?;
            return Ok(0);
        }
        let mut s = String::new();
        if store.entries().is_empty() {
            s.push_str("no trusted projects\n");
        }
        for e in store.entries() {
            let state = if hookgate_project::fingerprint(&e.dir).is_ok_and(|f| f.sha256 == e.sha256)
            {
                "trusted"
            } else {
                "changed since (untrusted)"
            };
            let _ = writeln!(s, "{}  {}  {state}", e.dir.display(), short(&e.sha256));
        }
        print_human(&s)?;
        return Ok(0);
    }
    let project = project_of(args.dir.as_ref(), &user)?;
    if args.status {
        let trust = hookgate_project::trust_state(&project, Some(&user));
        let files = match &project.hookgate_dir {
            Some(d) => hookgate_project::fingerprint(d)?.files,
            None => Vec::new(),
        };
        if args.json {
            print(&to_json(&Status {
                project: &project,
                trust,
                files,
            })?)?;
        } else {
            print_human(&format!(
                "project: {}\ntrust: {}\n",
                project.root.display(),
                describe(trust)
            ))?;
        }
        return Ok(u8::from(!matches!(
            trust,
            TrustState::Trusted | TrustState::NoProjectConfig
        )));
    }
    let mut store = TrustStore::load(&user)?;
    if args.revoke {
        // A project whose .hookgate/ is gone can still be forgotten.
        let dir = project
            .hookgate_dir
            .clone()
            .unwrap_or_else(|| project.root.join(hookgate_project::HOOKGATE_DIR_NAME));
        let removed = store.revoke(&dir)?;
        print_human(&if removed {
            format!("revoked: {}\n", dir.display())
        } else {
            format!("{} was not trusted\n", dir.display())
        })?;
        return Ok(0);
    }
    let entry = store.trust(&project, now())?;
    let files = hookgate_project::fingerprint(&entry.dir)?.files;
    if args.json {
        print(&to_json(&entry)?)?;
    } else {
        print_human(&format!(
            "trusted: {} (sha256 {}): {}\nany change to these files drops the trust again\n",
            entry.dir.display(),
            short(&entry.sha256),
            files.join(", ")
        ))?;
    }
    Ok(0)
}

/// The first 12 hex digits of a digest, for display.
fn short(sha256: &str) -> &str {
    sha256.get(..12).unwrap_or(sha256)
}

/// One line for a trust state.
pub(crate) fn describe(state: TrustState) -> String {
    match state {
        TrustState::NoProjectConfig => "no project config".to_owned(),
        TrustState::Trusted => "trusted".to_owned(),
        TrustState::Untrusted { reason } => {
            format!("untrusted, {reason}: it may only tighten the guard")
        }
    }
}
