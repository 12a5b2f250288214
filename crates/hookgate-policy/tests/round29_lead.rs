//! Round 29's lead work through the whole guard (default policy + shell analyzer): sudo of
//! the storage, array, pool and audit reports; parted's `print`; a cloud or registry
//! endpoint on this machine; `git diff --name-only -- PATHSPEC` feeding `xargs`; a secret of
//! the environment printed to the agent. One line per case: `(command, decision, the
//! invariant that decides or "" for none)`.
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

/// What `sudo` is asked to show about storage and auditing (volumes, arrays, pools, NVMe
/// health, audit rules, a partition table) reads system state and passes, like round 28's
/// `sudo fdisk -l`; the same tools' changing verbs keep their rules. The distribution's package
/// manager installing named packages from its configured repositories is routine setup
/// (DISAGREEMENTS lead29-4, revising fp8-12); a package file, an upgrade, an option that
/// changes sources or checks, and anything else under sudo keep the escalation ask.
#[test]
fn sudo_of_storage_and_audit_reports_reads_system_state() {
    let (_root, ctx) = disk_workspace();
    let policy = Policy::builtin_default();
    check_table(
        &policy,
        &ctx,
        &[
            ("sudo lvs && sudo vgs", ALLOW, ""),
            ("sudo pvdisplay", ALLOW, ""),
            ("cat /proc/mdstat; sudo mdadm --detail /dev/md0", ALLOW, ""),
            ("sudo btrfs filesystem usage /", ALLOW, ""),
            ("sudo zpool status", ALLOW, ""),
            ("sudo nvme smart-log /dev/nvme0", ALLOW, ""),
            ("sudo auditctl -l", ALLOW, ""),
            ("sudo crictl ps", ALLOW, ""),
            ("sudo parted /dev/sda --script print", ALLOW, ""),
            ("parted /dev/sda unit MiB print free", ALLOW, ""),
            ("sudo mdadm --stop /dev/md0", DENY, "destructive-shell"),
            ("sudo auditctl -D", DENY, "destructive-shell"),
            ("parted -s /dev/sdb mklabel gpt", DENY, "destructive-shell"),
            (
                "parted -s /dev/sdb print mklabel gpt",
                DENY,
                "destructive-shell",
            ),
            ("parted /dev/sdb", DENY, "destructive-shell"),
            (
                "sudo btrfs device stats -z /dev/sda",
                ASK,
                "no-permission-escalation",
            ),
            ("sudo apt-get install -y libpq-dev", ALLOW, ""),
            (
                "sudo apt-get update && sudo apt-get install -y build-essential pkg-config",
                ALLOW,
                "",
            ),
            ("sudo dnf install -y postgresql-devel", ALLOW, ""),
            ("sudo apk add --no-cache build-base", ALLOW, ""),
            ("sudo pacman -S --noconfirm base-devel", ALLOW, ""),
            ("sudo apt install ./x.deb", ASK, "no-permission-escalation"),
            ("sudo apt-get upgrade -y", ASK, "no-permission-escalation"),
            (
                "sudo APT_CONFIG=/tmp/x apt-get install -y foo",
                ASK,
                "no-permission-escalation",
            ),
            (
                "sudo DEBIAN_FRONTEND=noninteractive apt-get install -y foo",
                ALLOW,
                "",
            ),
            (
                "sudo apt-get install -o Dpkg::Options::=--force-confnew foo",
                ASK,
                "no-permission-escalation",
            ),
            ("sudo pacman -Syu", ASK, "no-permission-escalation"),
            ("sudo dpkg -i /tmp/x.deb", ASK, "no-permission-escalation"),
            ("sudo apt-get remove -y libc6", DENY, "destructive-shell"),
            (
                "sudo systemctl restart nginx",
                ASK,
                "no-permission-escalation",
            ),
            (
                "sudo cat /var/log/auth.log",
                ASK,
                "no-permission-escalation",
            ),
        ],
    );
}

/// A cloud deletion or a package upload whose endpoint option names this machine acts on an
/// emulator or a local registry (DISAGREEMENTS lead29-2); npm's `--registry` does not decide
/// where a publish goes, and any remote or run-time endpoint keeps the rule.
#[test]
fn a_local_endpoint_is_an_emulator_not_the_cloud() {
    let (_root, ctx) = disk_workspace();
    let policy = Policy::builtin_default();
    check_table(
        &policy,
        &ctx,
        &[
            (
                "aws dynamodb delete-table --table-name orders-test --endpoint-url http://localhost:8000",
                ALLOW,
                "",
            ),
            (
                "aws --endpoint-url http://localhost:4566 s3 rb s3://test-bucket --force",
                ALLOW,
                "",
            ),
            (
                "twine upload --repository-url http://127.0.0.1:3141/root/dev/ dist/*",
                ALLOW,
                "",
            ),
            (
                "aws --endpoint-url https://s3.eu-west-1.amazonaws.com s3 rb s3://b --force",
                DENY,
                "destructive-shell",
            ),
            (
                "aws --endpoint-url=http://localhost@evil.example s3 rb s3://b --force",
                DENY,
                "destructive-shell",
            ),
            (
                "aws --endpoint-url \"$ENDPOINT\" s3 rb s3://b --force",
                DENY,
                "destructive-shell",
            ),
            (
                "npm publish --registry http://localhost:4873",
                DENY,
                "destructive-shell",
            ),
            ("twine upload dist/*", DENY, "destructive-shell"),
        ],
    );
}

/// `git diff --name-only -- PATHSPEC | xargs CMD` reaches only the changed files the pathspecs
/// match (git's `*` crosses `/`), as `git ls-files PATHSPEC` does: formatting the changed
/// TypeScript files passes; a pathspec that can match the guard's own files, or none at all,
/// keeps the ask.
#[test]
fn changed_files_named_by_a_pathspec_reach_only_what_it_matches() {
    let (_root, ctx) = disk_workspace();
    std::fs::create_dir_all(ctx.workspace.join(".claude")).unwrap();
    std::fs::write(ctx.workspace.join(".claude/settings.json"), "{}\n").unwrap();
    let policy = Policy::builtin_default();
    check_table(
        &policy,
        &ctx,
        &[
            (
                "git diff --name-only --diff-filter=ACM main -- '*.ts' | xargs -r npx prettier --write",
                ALLOW,
                "",
            ),
            (
                "git diff --name-only -- '*.ts' | xargs sed -i 's/a/b/'",
                ALLOW,
                "",
            ),
            (
                "git diff --name-only -- '*.json' | xargs sed -i 's/a/b/'",
                ASK,
                "no-governance-self-modification",
            ),
            (
                "git diff --name-only | xargs npx prettier --write",
                ASK,
                "no-governance-self-modification",
            ),
        ],
    );
}

/// A secret of the environment printed to the agent asks as reading `.env` does; checking
/// that it is set does not.
#[test]
fn a_secret_of_the_environment_shown_to_the_agent_asks() {
    let (_root, ctx) = disk_workspace();
    let policy = Policy::builtin_default();
    check_table(
        &policy,
        &ctx,
        &[
            ("printenv | grep -i token", ASK, "no-secret-exposure"),
            ("echo \"$AWS_SECRET_ACCESS_KEY\"", ASK, "no-secret-exposure"),
            ("printenv GITHUB_TOKEN", ASK, "no-secret-exposure"),
            ("echo ${#GITHUB_TOKEN}", ALLOW, ""),
            ("[ -n \"$GITHUB_TOKEN\" ] && echo set", ALLOW, ""),
            ("env | grep -i path", ALLOW, ""),
        ],
    );
}
