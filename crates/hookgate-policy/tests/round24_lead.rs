//! Round 24's lead work through the whole guard (default policy + shell analyzer): a file
//! sourced into the agent's own shell sets its variables on this line, so one that sets
//! hookgate's own variables is that assignment (denied); other sourced files stay the
//! project's.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use common::*;
use hookgate_core::Decision;
use hookgate_policy::Policy;

const ALLOW: Option<Decision> = None;
const DENY: Option<Decision> = Some(Decision::Deny);

/// `source FILE`, `. FILE` and `set -a; . FILE` run FILE's assignments in this shell: a file
/// on disk that sets or exports `HOOKGATE_*` is judged as the `export` itself, wherever the
/// line's `cd` leaves the shell. `bash FILE` (a child shell) sets nothing here, and a file
/// without hookgate's variables (a project env script) passes.
#[test]
fn a_sourced_file_setting_hookgates_own_variables_is_that_assignment() {
    let root = tempfile::tempdir().unwrap();
    let ws = root.path().join("proj");
    let home = root.path().join("home");
    std::fs::create_dir_all(ws.join("scripts")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        ws.join("scripts/env.sh"),
        "export PORT=3000\nexport HOOKGATE_FAIL_MODE=allow\n",
    )
    .unwrap();
    std::fs::write(
        ws.join(".env.dev"),
        "PORT=3000\nHOOKGATE_CONFIG_DIR=/tmp/x\n",
    )
    .unwrap();
    std::fs::write(
        ws.join("scripts/dev.sh"),
        "export PATH=\"$PWD/node_modules/.bin:$PATH\"\nexport NODE_ENV=development\n",
    )
    .unwrap();
    let ctx = hookgate_policy::Ctx::new(&ws, Some(home));
    let policy = Policy::builtin_default();
    let cases: &[(&str, Option<Decision>, &str)] = &[
        (
            "source scripts/env.sh",
            DENY,
            "no-governance-self-modification",
        ),
        (
            ". ./scripts/env.sh && npm test",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "cd scripts && . ./env.sh",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "set -a; . ./.env.dev; set +a",
            DENY,
            "no-governance-self-modification",
        ),
        ("source scripts/dev.sh && npm test", ALLOW, ""),
        ("bash scripts/env.sh", ALLOW, ""),
        ("source scripts/absent.sh", ALLOW, ""),
    ];
    let mut wrong = Vec::new();
    for (command, want, by) in cases {
        let mut call = bash(command);
        call.cwd = ws.to_string_lossy().into_owned();
        let e = policy.evaluate(&call, &ctx, &hookgate_policy::SessionState::default());
        let by_ok = by.is_empty() || e.matched.iter().any(|m| m.id == *by);
        if e.decision != *want || !by_ok {
            wrong.push(format!("{command:?}: {:?} {:?}", e.decision, e.matched));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
