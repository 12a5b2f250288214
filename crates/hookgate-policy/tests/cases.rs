//! The shipped example cases file passes against the embedded default policy, and a failing
//! case is reported as such.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use hookgate_core::Decision;
use hookgate_policy::{CaseCall, CaseReport, Policy, PolicyError, run_cases_with};

/// A cases file run with the hook's own parsers, as `hookgate policy test` runs it.
fn run_cases(policy: &Policy, text: &str) -> Result<CaseReport, PolicyError> {
    run_cases_with(policy, text, None, &|case, agent, cwd| match case {
        CaseCall::Command(command) => hookgate_agents::call_for_command(agent, cwd, command).ok(),
        CaseCall::Tool { name, input } => {
            hookgate_agents::call_for_tool(agent, cwd, name, input).ok()
        }
        CaseCall::Payload(payload) => hookgate_agents::call_from_value(agent, payload, cwd).ok(),
    })
}

#[test]
fn run_cases_passes_the_shipped_example() {
    let text = include_str!("../examples/policy-cases.yaml");
    let report = run_cases(&Policy::builtin_default(), text).unwrap();
    for c in &report.cases {
        assert!(
            c.passed,
            "{} (line {}): expected {:?}, got {:?}, missing {:?}: {:?}",
            c.name, c.line, c.expected, c.actual, c.missing, c.reason
        );
    }
    assert!(report.all_passed());
    assert!(report.passed >= 18);
}

#[test]
fn run_cases_reports_failures_with_lines() {
    let text = "cases:\n  - name: wrong\n    command: git push -f origin x\n    expect: allow\n";
    let report = run_cases(&Policy::builtin_default(), text).unwrap();
    assert_eq!((report.passed, report.failed), (0, 1));
    let c = &report.cases[0];
    assert_eq!(
        (c.line, c.expected, c.actual),
        (2, Some(Decision::Allow), Some(Decision::Deny))
    );
    let err = run_cases(
        &Policy::builtin_default(),
        "cases:\n  - name: x\n    expct: deny\n",
    )
    .unwrap_err();
    assert_eq!(err.line, Some(3));
}

#[test]
fn command_cases_reach_the_caller_as_a_command_not_an_agent_tool() {
    let seen = std::cell::RefCell::new(Vec::new());
    let text = "cases:\n  - name: c\n    agent: gemini\n    command: ls\n    expect: none\n";
    let _ = run_cases_with(&Policy::builtin_default(), text, None, &|case, agent, _| {
        seen.borrow_mut().push(match case {
            CaseCall::Command(command) => format!("{agent:?} command {command}"),
            CaseCall::Tool { name, .. } => format!("{agent:?} tool {name}"),
            CaseCall::Payload(_) => format!("{agent:?} payload"),
        });
        None
    })
    .unwrap();
    assert_eq!(seen.into_inner(), ["Gemini command ls"]);
}

#[test]
fn command_cases_are_judged_as_each_agents_own_shell_tool() {
    for agent in ["claude", "codex", "gemini", "copilot", "cursor"] {
        let text = format!(
            "cases:\n  - name: force\n    agent: {agent}\n    command: git push --force origin main\n    expect: deny\n  - name: sudo\n    agent: {agent}\n    command: sudo systemctl restart nginx\n    expect: ask\n  - name: status\n    agent: {agent}\n    command: git status\n    expect: none\n"
        );
        let report = run_cases(&Policy::builtin_default(), &text).unwrap();
        for c in &report.cases {
            assert!(
                c.passed,
                "{agent}: {}: expected {:?}, got {:?}: {:?}",
                c.name, c.expected, c.actual, c.reason
            );
        }
    }
}
