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
    // Padded past the loaded-file bound: cannot be checked, so asked, never passed unseen.
    let mut padded = "# pad\n".repeat(60_000);
    padded.push_str("export HOOKGATE_FAIL_MODE=allow\n");
    std::fs::write(ws.join("scripts/big.sh"), padded).unwrap();
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
        (
            "source scripts/big.sh",
            Some(Decision::Ask),
            "no-governance-self-modification",
        ),
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

/// `emacs --batch` loading only libraries Emacs ships (`-l ert`, `-l org`) and calling named
/// functions runs no code of the line or the agent's: the files it visits are its writes.
/// A Lisp file (`-l x.el`, `--script`), inline `--eval`, or `-L DIR` (a directory the agent
/// can write first on the load path) keeps the unplaced-write question.
#[test]
fn emacs_batch_with_shipped_libraries_only_writes_the_files_it_visits() {
    let ask = Some(Decision::Ask);
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            (
                "emacs --batch -l org docs/notes.org -f org-md-export-to-markdown",
                ALLOW,
                "",
            ),
            (
                "emacs --batch -l ert -f ert-run-tests-batch-and-exit",
                ALLOW,
                "",
            ),
            (
                "emacs --batch -l ert -l test/foo-test.el -f ert-run-tests-batch-and-exit",
                ask,
                "no-governance-self-modification",
            ),
            (
                "emacs --batch -L . -l ert -l foo-test -f ert-run-tests-batch-and-exit",
                ask,
                "no-governance-self-modification",
            ),
            (
                "emacs --batch -l evil -f doit",
                ask,
                "no-governance-self-modification",
            ),
            (
                "emacs --script build.el",
                ask,
                "no-governance-self-modification",
            ),
            (
                "emacs --batch --eval '(message \"%s\" emacs-version)'",
                ask,
                "no-governance-self-modification",
            ),
        ],
    );
}
