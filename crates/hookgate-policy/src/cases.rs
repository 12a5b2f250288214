//! `hookgate policy test FILE`: a YAML file of cases (a command, a tool call or a raw agent
//! payload → the expected decision), so users can pin their policy's behaviour in CI.
//!
//! ```yaml
//! workspace: /work/project        # defaults: /work/project, /home/user, no branch
//! home: /home/user
//! cases:
//!   - name: force push is denied
//!     command: git push --force origin main
//!     expect: deny
//!     matched: [no-force-push]      # optional: ids that must be among the matches
//!   - name: writing hook settings
//!     tool: Write
//!     input: { file_path: .claude/settings.json, content: "{}" }
//!     expect: deny
//!   - name: a captured payload
//!     payload: { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: ls } }
//!     expect: none                  # no opinion
//! ```
//!
//! `expect` is the hook's answer: `deny`, `ask`, `approve` (or `allow`: the hook answers allow,
//! which only an `effect: approve` rule gives) or `none` (no opinion, which is what an
//! `effect: allow` rule gives: the agent's own permission flow applies).
//!
//! This crate reads no agent wire format: the caller of [`run_cases_with`] turns each case's
//! [`CaseCall`] into a canonical call with the hook's own parsers (`hookgate-agents`, the owner
//! of payloads), so a case is judged exactly as the hook would judge that call.

use std::path::{Path, PathBuf};

use hookgate_core::{AgentKind, CanonicalCall, Decision};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use crate::policy::PolicyError;
use crate::{Ctx, Policy, SessionState};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCases {
    #[serde(default)]
    workspace: Option<String>,
    #[serde(default)]
    home: Option<String>,
    #[serde(default)]
    branch: Option<String>,
    cases: Vec<Spanned<RawCase>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    #[serde(default)]
    agent: Option<AgentKind>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    input: Option<Map<String, Value>>,
    #[serde(default)]
    payload: Option<Value>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    branch: Option<String>,
    #[serde(default)]
    staged_files: Option<Vec<String>>,
    #[serde(default)]
    state: Option<SessionState>,
    expect: Expect,
    #[serde(default)]
    matched: Vec<String>,
}

/// The expected answer. `allow` and `approve` both mean the hook answers allow (only an
/// `approve` rule gives that); a policy `allow` rule gives `none` (no opinion).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Expect {
    Allow,
    Approve,
    Ask,
    Deny,
    None,
}

impl Expect {
    fn decision(self) -> Option<Decision> {
        match self {
            Self::Allow | Self::Approve => Some(Decision::Allow),
            Self::Ask => Some(Decision::Ask),
            Self::Deny => Some(Decision::Deny),
            Self::None => None,
        }
    }
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseOutcome {
    /// The case's name.
    pub name: String,
    /// Line of the case in the file.
    pub line: u64,
    /// Expected decision (`None`: no opinion).
    pub expected: Option<Decision>,
    /// Actual decision.
    pub actual: Option<Decision>,
    /// Expected ids that did not match.
    pub missing: Vec<String>,
    /// The evaluation's reason, or why the case could not run.
    pub reason: Option<String>,
    /// Whether it passed.
    pub passed: bool,
}

/// The result of a cases file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseReport {
    /// Per case, in file order.
    pub cases: Vec<CaseOutcome>,
    /// How many passed.
    pub passed: usize,
    /// How many failed.
    pub failed: usize,
}

impl CaseReport {
    /// True when every case passed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0
    }
}

/// What a case asks to judge, before it is a canonical call. The caller owns every agent's
/// spelling of it (tool names, input keys, payload shapes); this crate builds no agent JSON.
#[derive(Debug, Clone, Copy)]
pub enum CaseCall<'a> {
    /// A shell command line, run by the agent's own shell tool.
    Command(&'a str),
    /// A tool with its input, as the agent spells them.
    Tool {
        /// The tool name as the agent spells it.
        name: &'a str,
        /// Its input.
        input: &'a Map<String, Value>,
    },
    /// A raw agent payload.
    Payload(&'a Value),
}

/// Turns a case into a canonical call: `(case, agent named by the case, default cwd)`; `None`
/// when it does not parse. The CLI passes `hookgate-agents`' parsers.
pub type PayloadParser<'a> = dyn Fn(CaseCall<'_>, AgentKind, &str) -> Option<CanonicalCall> + 'a;

/// Runs a cases file with a caller-supplied payload parser (the CLI passes the real dialect
/// parsers of `hookgate-agents`). `file` names the file in errors.
pub fn run_cases_with(
    policy: &Policy,
    text: &str,
    file: Option<&Path>,
    parse: &PayloadParser<'_>,
) -> Result<CaseReport, PolicyError> {
    let raw: RawCases =
        serde_saphyr::from_str_with_options(text, hookgate_core::yaml::untrusted_options())
            .map_err(|e| {
                let e = hookgate_core::yaml::YamlError::from(&e);
                PolicyError {
                    file: file.map(Path::to_path_buf),
                    line: e.line,
                    column: e.column,
                    message: e.message,
                }
            })?;
    let workspace = raw.workspace.unwrap_or_else(|| "/work/project".into());
    let home = raw.home.unwrap_or_else(|| "/home/user".into());
    let mut report = CaseReport {
        cases: Vec::new(),
        passed: 0,
        failed: 0,
    };
    for spanned in raw.cases {
        let line = spanned.referenced.line();
        let case = spanned.value;
        let agent = case.agent.unwrap_or(AgentKind::Claude);
        let cwd = case.cwd.clone().unwrap_or_else(|| workspace.clone());
        let call = if let Some(command) = &case.command {
            parse(CaseCall::Command(command), agent, &cwd)
        } else if let Some(tool) = &case.tool {
            let input = case.input.clone().unwrap_or_default();
            parse(
                CaseCall::Tool {
                    name: tool,
                    input: &input,
                },
                agent,
                &cwd,
            )
        } else {
            case.payload
                .as_ref()
                .and_then(|p| parse(CaseCall::Payload(p), agent, &cwd))
        };
        let expected = case.expect.decision();
        let Some(call) = call else {
            report.failed += 1;
            report.cases.push(CaseOutcome {
                name: case.name,
                line,
                expected,
                actual: None,
                missing: Vec::new(),
                reason: Some("the case needs `command`, `tool` or a payload that parses".into()),
                passed: false,
            });
            continue;
        };
        let mut ctx = Ctx::new(PathBuf::from(&workspace), Some(PathBuf::from(&home)));
        ctx.follow_symlinks = false;
        ctx.branch = case.branch.or_else(|| raw.branch.clone());
        ctx.staged_files = case.staged_files;
        let state = case.state.unwrap_or_default();
        let eval = policy.evaluate(&call, &ctx, &state);
        let missing: Vec<String> = case
            .matched
            .iter()
            .filter(|id| !eval.matched.iter().any(|m| &m.id == *id))
            .cloned()
            .collect();
        let passed = eval.decision == expected && missing.is_empty();
        if passed {
            report.passed += 1;
        } else {
            report.failed += 1;
        }
        report.cases.push(CaseOutcome {
            name: case.name,
            line,
            expected,
            actual: eval.decision,
            missing,
            reason: eval.reason.or(eval.context),
            passed,
        });
    }
    Ok(report)
}
