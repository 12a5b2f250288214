//! Round 31 (lead): the whole verdict (rules and invariants) on the round's decisions — a
//! read-only Salt function under sudo, npm's option prefixes for publishing, volumes and
//! container brokers judged by name.
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

/// sudo of a Salt function that only reports is a read under sudo, as `sudo fdisk -l` is; a
/// state run under sudo keeps the escalation ask.
#[test]
fn sudo_of_a_read_only_salt_function_is_a_read() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("sudo salt 'web*' test.ping", ALLOW, ""),
            ("sudo salt '*' grains.items", ALLOW, ""),
            ("sudo salt '*' state.apply", ASK, "no-permission-escalation"),
            (
                "sudo salt '*' pillar.items",
                ASK,
                "no-permission-escalation",
            ),
        ],
    );
}

/// The publish invariant reads npm's options as the shell analyzer does: one reading of
/// `--dry`, and the last of `--dry-run`/`--no-dry-run`.
#[test]
fn publish_dry_runs_are_read_through_the_option_tables() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("npm publish --dry", ALLOW, ""),
            ("npm publish --dry-run=true", ALLOW, ""),
            ("cargo publish -n", ALLOW, ""),
            ("npm publish --d", DENY, "destructive-shell"),
            (
                "npm publish --dry-run --no-dry-run",
                DENY,
                "destructive-shell",
            ),
            ("npm publish --dry-run=false", DENY, "destructive-shell"),
        ],
    );
}

/// Volumes and container brokers: the shell analyzer's name reading reaches the verdict.
#[test]
fn local_volumes_and_brokers_reach_the_verdict_by_name() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("docker volume rm app_pgdata_dev", ALLOW, ""),
            (
                "docker compose exec rabbitmq rabbitmqctl purge_queue test_jobs",
                ALLOW,
                "",
            ),
            ("docker compose down -v", ASK, "destructive-shell"),
            ("docker volume rm pgdata_prod", DENY, "destructive-shell"),
        ],
    );
}
