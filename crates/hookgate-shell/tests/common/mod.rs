//! Shared by the class-table tests: the fixture context and the table runner. One line per
//! case, `(command, expected action, expected rule id, "-" for none or "*" for any)`; every
//! wrong line is reported, not just the first.

#![allow(dead_code, clippy::expect_used)] // each test crate uses part of it

use std::path::PathBuf;

use hookgate_shell::{Action, Analyzer, Context};

pub const ALLOW: Action = Action::Allow;
pub const ASK: Action = Action::Ask;
pub const DENY: Action = Action::Deny;

/// Workspace `/home/user/project`, home `/home/user`.
pub fn ctx() -> Context {
    Context::new("/home/user/project", Some(PathBuf::from("/home/user")))
}

/// Runs every case through one reused analyzer and fails with every wrong line.
#[track_caller]
pub fn table(ctx: &Context, cases: &[(&str, Action, &str)]) {
    let mut analyzer = Analyzer::new().expect("grammar loads");
    let mut wrong = Vec::new();
    for (command, action, rule) in cases {
        let a = analyzer.analyze(command, ctx);
        let got_rule = a.verdict.rule_id.as_deref().unwrap_or("-");
        if a.action() != *action || (*rule != "*" && got_rule != *rule) {
            wrong.push(format!(
                "{command:?}: expected {action:?} {rule}, got {:?} {got_rule} ({})",
                a.action(),
                a.verdict.reason
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
