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
