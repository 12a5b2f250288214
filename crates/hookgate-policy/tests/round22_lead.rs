//! Round 22's lead work through the whole guard (default policy + shell analyzer): a link's
//! source is read as a copy's is — `ln -s ~/.ssh/id_ed25519 public/key.txt` exposes the key to
//! whatever reads the link (a web server's static directory, an upload of the folder), as
//! `cp` would. One line per case: `(command, expected decision, expected rule or "")`.
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

#[test]
fn no_secret_exposure_reads_a_links_source_as_a_copy_does() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            (
                "ln -sf ~/.ssh/id_ed25519 public/key.txt",
                DENY,
                "no-secret-exposure",
            ),
            ("ln -s ~/.aws/credentials creds", DENY, "no-secret-exposure"),
            (
                "ln /home/u/.netrc static/netrc.txt",
                DENY,
                "no-secret-exposure",
            ),
            (
                "cp ~/.ssh/id_ed25519 public/key.txt",
                DENY,
                "no-secret-exposure",
            ),
            // Ordinary sources: project files, public keys, system programs.
            ("ln -s ../shared/config.yaml config.yaml", ALLOW, ""),
            ("ln -sf ~/.ssh/id_ed25519.pub public/key.pub", ALLOW, ""),
            ("ln -s /usr/bin/python3 .venv/bin/python", ALLOW, ""),
            ("ln -sfn build/current dist", ALLOW, ""),
        ],
    );
}
