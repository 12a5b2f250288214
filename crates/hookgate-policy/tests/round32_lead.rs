//! Round 32 (lead): the whole verdict (rules and invariants) on the round's decisions — a
//! git subcommand's manual page, credentials fed to interpreters.
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
const ASK: Option<Decision> = Some(Decision::Ask);
const DENY: Option<Decision> = Some(Decision::Deny);

/// `git SUB --help` is `git help SUB`: a manual page, whatever SUB would do (corpus #21's
/// c0369 was denied as a history rewrite). Later in the line `--help` is left to the
/// subcommand's own reading, so the rewrite keeps its deny.
#[test]
fn a_git_subcommands_help_is_a_manual_page() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("git filter-repo --help | head -40", ALLOW, ""),
            ("git filter-branch --help", ALLOW, ""),
            ("git reflog --help", ALLOW, ""),
            ("git filter-repo --path x", DENY, "no-history-rewrite"),
            (
                "git filter-repo --path x --help",
                DENY,
                "no-history-rewrite",
            ),
        ],
    );
}

/// A credential redirected into an interpreter's input is read by its code (lead32-2): the
/// whole verdict asks, as for `cat < key`.
#[test]
fn a_credential_on_an_interpreters_stdin_asks() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            (
                "python3 -c 'import sys; print(sys.stdin.read())' < ~/.ssh/id_ed25519",
                ASK,
                "",
            ),
            ("awk 1 < ~/.aws/credentials", ASK, ""),
            ("python3 -m json.tool < package.json", ALLOW, ""),
        ],
    );
}
