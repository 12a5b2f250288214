//! The one line an agent shows at the start of a session (Claude's `additionalContext` for
//! `SessionStart`, and the same field wherever the agent's session-start hook takes context):
//! which policy guards the session, whether the project's own config is trusted, and where the
//! decisions are recorded — so neither the user nor the model has to guess what is in force.
//!
//! Computed only for `SessionStart`, never on the per-tool-call path.

use hookgate_policy::{Mode, Policy};
use hookgate_project::{Project, TrustState};

use crate::run::{GuardOptions, StoreChoice};

/// `hookgate: guarding this session — policy: …; project config: …; audit: …`.
pub(crate) fn session_line(
    opts: &GuardOptions,
    project: &Project,
    trust: TrustState,
    policy: &Policy,
) -> String {
    let mode = match policy.mode() {
        Mode::Enforce => "enforce",
        Mode::Monitor => "monitor (reports, never blocks)",
    };
    // The policy files in the order they are layered (as the guard loads them); those that do
    // not exist add nothing and are not named.
    let mut files: Vec<String> = Vec::new();
    let user = opts.config_dir.as_ref().map(|d| d.join("policy.yaml"));
    let candidates = user
        .into_iter()
        .chain(project.policy_file())
        .chain(opts.policy_files.iter().cloned());
    for file in candidates.filter(|f| f.is_file()) {
        files.push(file.display().to_string());
    }
    let source = if files.is_empty() {
        "the built-in default".to_owned()
    } else {
        files.join(" + ")
    };
    let project_config = match trust {
        TrustState::NoProjectConfig => "none".to_owned(),
        TrustState::Trusted => format!("{} trusted", project.root.display()),
        TrustState::Untrusted { reason } => format!(
            "{} not trusted, so it may only tighten the guard: {reason}",
            project.root.display()
        ),
    };
    let audit = match opts.store {
        StoreChoice::Sqlite => format!("{}", opts.home.join("audit.db").display()),
        StoreChoice::Jsonl => format!("{} (JSONL)", opts.home.display()),
        StoreChoice::Off => "off (decisions are not recorded)".to_owned(),
    };
    format!(
        "hookgate: guarding this session — policy: {mode}, from {source}; project config: \
         {project_config}; audit: {audit}"
    )
}
