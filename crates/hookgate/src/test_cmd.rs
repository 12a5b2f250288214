//! `hookgate test SCENARIO.yaml...`: a scripted session plus expectations, for users' CI.
//!
//! A scenario runs in a fresh temporary directory with only its own hooks (no user or project
//! config is discovered, so a scenario means the same on every machine), a scripted model,
//! and no terminal (so `ask` denies). Expectations are checked against what the runtime
//! reported, never against text: the events fired, each tool call's approval verdict and the
//! hook or approval step that decided it, the bytes of files, how the run ended.
//!
//! ```yaml
//! name: a guard stops rm -rf
//! prompt: clean up
//! approval: yolo
//! files: {build/keep.txt: "keep me"}
//! hooks:
//!   tool_guard:
//!     - {id: no-rm, type: command, matcher: shell, command: 'grep -q "rm -rf" && exit 2 || exit 0'}
//! script:
//!   - {tool: shell, input: {cmd: "rm -rf build"}}
//!   - {text: done}
//! expect:
//!   events: [session_start, tool_guard, on_tool_approval_decision, stop, session_end]
//!   denied: [{tool: shell, by: no-rm}]
//!   unchanged: [build/keep.txt]
//!   end: completed
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use clap::Args;
use hookgate_core::EventId;
use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_file, parse_text};
use hookgate_llm::ScriptModel;
use hookgate_runtime::{
    ApprovalDecision, ApprovalMode, RunConfig, RunEvent, Runtime, Session, Start,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Failure, print, print_human, to_json};

/// Arguments of `hookgate test`.
#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// Scenario files (YAML).
    #[arg(required = true)]
    scenarios: Vec<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// One scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    /// Shown in the report (defaults to the file name).
    #[serde(default)]
    name: Option<String>,
    /// The user's prompt.
    prompt: String,
    /// The approval mode (default `ask`, which denies: there is no terminal).
    #[serde(default)]
    approval: ApprovalMode,
    /// Queued follow-up messages.
    #[serde(default)]
    follow_ups: Vec<String>,
    /// The iteration cap (default the runtime's).
    #[serde(default)]
    max_iterations: Option<u64>,
    /// Files created in the work directory before the run (path → content).
    #[serde(default)]
    files: BTreeMap<String, String>,
    /// Inline hooks, in the docker-agent shape (the value of a config file's `hooks:`).
    #[serde(default)]
    hooks: Option<Value>,
    /// Config files, relative to the scenario file.
    #[serde(default)]
    config: Vec<PathBuf>,
    /// The scripted model's turns (mock_llm.py's format).
    script: Vec<Value>,
    /// What must hold.
    #[serde(default)]
    expect: Expect,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// Events that must fire in this order (others may come between).
    #[serde(default)]
    events: Vec<EventId>,
    /// Events that must not fire at all.
    #[serde(default)]
    not_fired: Vec<EventId>,
    /// Tool calls that must be denied (optionally by this hook id or approval step).
    #[serde(default)]
    denied: Vec<CallExpect>,
    /// Tool calls that must be allowed.
    #[serde(default)]
    allowed: Vec<CallExpect>,
    /// Files whose bytes must be the same after the run (absent ones must stay absent).
    #[serde(default)]
    unchanged: Vec<String>,
    /// Files that must exist after the run with exactly this content.
    #[serde(default)]
    files: BTreeMap<String, String>,
    /// How the run must end (`completed`, `hook_blocked`, `interrupted`, `loop_detected`,
    /// `max_iterations`, `model_error`).
    #[serde(default)]
    end: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CallExpect {
    tool: String,
    /// A hook id (`decided_by`) or an approval source (`mode_readonly`, `no_user`, …).
    #[serde(default)]
    by: Option<String>,
}

/// One checked expectation.
#[derive(Debug, Serialize)]
struct Check {
    what: String,
    passed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
}

/// One scenario's result.
#[derive(Debug, Serialize)]
struct ScenarioReport {
    name: String,
    file: String,
    passed: bool,
    checks: Vec<Check>,
}

/// A relative path inside the work directory; `..` and absolute paths are refused so a
/// scenario cannot write or compare outside its sandbox.
fn inside(root: &Path, rel: &str) -> Result<PathBuf, Failure> {
    let path = Path::new(rel);
    if path
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(Failure(format!(
            "`{rel}`: scenario paths must be relative and stay inside the work directory"
        )));
    }
    Ok(root.join(path))
}

fn engine(scenario: &Scenario, base: &Path, work: &Path) -> Result<Engine, Failure> {
    let mut layers = Vec::new();
    for file in &scenario.config {
        let path = base.join(file);
        if Format::of(&path).is_none() {
            return Err(Failure(format!(
                "{}: unknown config format",
                path.display()
            )));
        }
        layers.push(parse_file(&path, Layer::Explicit)?);
    }
    if let Some(hooks) = &scenario.hooks {
        // JSON is YAML: the inline map goes through the same parser as a config file.
        let text = serde_json::json!({ "hooks": hooks }).to_string();
        let file = work.join(".scenario-hooks.yaml");
        layers.push(parse_text(
            &text,
            Format::Yaml,
            Some(&file),
            Layer::Explicit,
        )?);
    }
    Ok(Engine::with_builtins(
        merge(layers)?,
        hookgate_builtins::registry(),
    )?)
}

fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// The fired events with expected ones marked, for a failing order check.
fn order_diff(expected: &[EventId], fired: &[EventId]) -> Option<String> {
    let mut at = 0;
    let mut matched = Vec::new();
    for want in expected {
        let Some(offset) = fired[at..].iter().position(|e| e == want) else {
            let mut diff = format!("expected `{want}` after the events marked `=`, fired:\n");
            for (i, e) in fired.iter().enumerate() {
                let mark = if matched.contains(&i) { '=' } else { ' ' };
                let _ = writeln!(diff, "  {mark} {e}");
            }
            let _ = writeln!(diff, "  - {want}   (never fired after that point)");
            return Some(diff);
        };
        matched.push(at + offset);
        at += offset + 1;
    }
    None
}

struct Approval {
    tool: String,
    decision: ApprovalDecision,
    source: String,
    decided_by: Option<String>,
}

fn call_check(kind: ApprovalDecision, want: &CallExpect, approvals: &[Approval]) -> Check {
    let what = format!(
        "{} {}{}",
        want.tool,
        if kind == ApprovalDecision::Allow {
            "allowed"
        } else {
            "denied"
        },
        want.by
            .as_ref()
            .map(|b| format!(" by {b}"))
            .unwrap_or_default()
    );
    let hit = approvals.iter().any(|a| {
        a.tool == want.tool
            && a.decision == kind
            && want
                .by
                .as_ref()
                .is_none_or(|by| a.decided_by.as_deref() == Some(by) || &a.source == by)
    });
    let diff = (!hit).then(|| {
        let mut d = String::from("tool calls seen:\n");
        for a in approvals {
            let _ = writeln!(
                d,
                "  {} {} ({}{})",
                a.tool,
                a.decision.as_str(),
                a.source,
                a.decided_by
                    .as_ref()
                    .map(|b| format!(", by {b}"))
                    .unwrap_or_default()
            );
        }
        d
    });
    Check {
        what,
        passed: hit,
        diff,
    }
}

fn run_scenario(file: &Path) -> Result<ScenarioReport, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure(format!("{}: cannot read: {e}", file.display())))?;
    let scenario: Scenario = serde_saphyr::from_str(&text)
        .map_err(|e| Failure(format!("{}: not a scenario: {e}", file.display())))?;
    let base = file.parent().unwrap_or_else(|| Path::new("."));
    let dir = tempfile::tempdir().map_err(|e| Failure(format!("cannot create a temp dir: {e}")))?;
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work)
        .map_err(|e| Failure(format!("cannot create {}: {e}", work.display())))?;
    for (rel, content) in &scenario.files {
        let path = inside(&work, rel)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Failure(format!("cannot create {}: {e}", parent.display())))?;
        }
        std::fs::write(&path, content)
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    }
    let before: Vec<(String, Option<Vec<u8>>)> = scenario
        .expect
        .unchanged
        .iter()
        .map(|rel| Ok((rel.clone(), read(&inside(&work, rel)?))))
        .collect::<Result<_, Failure>>()?;
    let script = serde_json::to_string(&scenario.script)?;
    let model = ScriptModel::from_json(&file.display().to_string(), &script)?;
    let engine = engine(&scenario, base, &work)?;
    let mut config = RunConfig::new(work.clone());
    config.approval = scenario.approval;
    config.followups.clone_from(&scenario.follow_ups);
    if let Some(max) = scenario.max_iterations {
        config.max_iterations = max;
    }
    let seen: Arc<Mutex<Vec<RunEvent>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let runtime = Runtime::new(engine, Arc::new(model), config).with_observer(Arc::new(
        move |event: &RunEvent| {
            if let Ok(mut seen) = sink.lock() {
                seen.push(event.clone());
            }
        },
    ));
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure(format!("cannot start the async runtime: {e}")))?;
    let mut session = Session::new(format!(
        "test-{}",
        hookgate_audit::new_id(hookgate_audit::now_ms())
    ));
    let report =
        tokio.block_on(runtime.run(&mut session, Some(scenario.prompt.clone()), Start::Startup));
    let seen = seen
        .lock()
        .map(|s| s.clone())
        .map_err(|_| Failure("the timeline lock was poisoned".to_owned()))?;
    let fired: Vec<EventId> = seen
        .iter()
        .filter_map(|e| match e {
            RunEvent::Event { event, .. } => Some(*event),
            _ => None,
        })
        .collect();
    let approvals: Vec<Approval> = seen
        .iter()
        .filter_map(|e| match e {
            RunEvent::Approval {
                name,
                decision,
                source,
                decided_by,
                ..
            } => Some(Approval {
                tool: name.clone(),
                decision: *decision,
                source: source.clone(),
                decided_by: decided_by.as_ref().map(ToString::to_string),
            }),
            _ => None,
        })
        .collect();

    let expect = &scenario.expect;
    let mut checks = Vec::new();
    if !expect.events.is_empty() {
        let diff = order_diff(&expect.events, &fired);
        checks.push(Check {
            what: "events fired in order".to_owned(),
            passed: diff.is_none(),
            diff,
        });
    }
    for event in &expect.not_fired {
        let fired_it = fired.contains(event);
        checks.push(Check {
            what: format!("{event} not fired"),
            passed: !fired_it,
            diff: fired_it.then(|| format!("{event} fired")),
        });
    }
    for want in &expect.denied {
        checks.push(call_check(ApprovalDecision::Deny, want, &approvals));
    }
    for want in &expect.allowed {
        checks.push(call_check(ApprovalDecision::Allow, want, &approvals));
    }
    for (rel, was) in before {
        let now = read(&inside(&work, &rel)?);
        let same = now == was;
        let show = |b: &Option<Vec<u8>>| {
            b.as_ref().map_or_else(
                || "(absent)".to_owned(),
                |b| format!("{:?}", String::from_utf8_lossy(b)),
            )
        };
        checks.push(Check {
            what: format!("{rel} unchanged"),
            passed: same,
            diff: (!same).then(|| format!("- {}\n+ {}", show(&was), show(&now))),
        });
    }
    for (rel, want) in &expect.files {
        let now = read(&inside(&work, rel)?);
        let same = now.as_deref() == Some(want.as_bytes());
        checks.push(Check {
            what: format!("{rel} has the expected content"),
            passed: same,
            diff: (!same).then(|| {
                format!(
                    "- {want:?}\n+ {}",
                    now.map_or_else(
                        || "(absent)".to_owned(),
                        |b| format!("{:?}", String::from_utf8_lossy(&b))
                    )
                )
            }),
        });
    }
    if let Some(end) = &expect.end {
        let actual = report.end.kind();
        checks.push(Check {
            what: format!("the run ends {end}"),
            passed: actual == end,
            diff: (actual != end).then(|| format!("- {end}\n+ {actual}")),
        });
    }
    Ok(ScenarioReport {
        name: scenario.name.unwrap_or_else(|| file.display().to_string()),
        file: file.display().to_string(),
        passed: checks.iter().all(|c| c.passed),
        checks,
    })
}

fn render(reports: &[ScenarioReport]) -> String {
    let mut out = String::new();
    for r in reports {
        let _ = writeln!(out, "{} {}", if r.passed { "PASS" } else { "FAIL" }, r.name);
        for c in &r.checks {
            let _ = writeln!(
                out,
                "  {} {}",
                if c.passed { "ok  " } else { "FAIL" },
                c.what
            );
            if let Some(diff) = &c.diff {
                for line in diff.lines() {
                    let _ = writeln!(out, "       {line}");
                }
            }
        }
    }
    let failed = reports.iter().filter(|r| !r.passed).count();
    let _ = writeln!(
        out,
        "{} scenario(s), {} passed, {failed} failed",
        reports.len(),
        reports.len() - failed
    );
    out
}

/// Runs every scenario. Exit status: 0 all passed, 1 a scenario failed or could not run.
pub(crate) fn run(args: &TestArgs) -> Result<u8, Failure> {
    let mut reports = Vec::new();
    for file in &args.scenarios {
        reports.push(run_scenario(file)?);
    }
    if args.json {
        print(&to_json(&reports)?)?;
    } else {
        print_human(&render(&reports))?;
    }
    Ok(u8::from(reports.iter().any(|r| !r.passed)))
}
