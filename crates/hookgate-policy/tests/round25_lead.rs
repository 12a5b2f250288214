//! Round 25's lead work through the whole guard (default policy + shell analyzer): ownership
//! handed back to the caller is no change to hookgate's protected set.
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

/// `chown -R "$(id -u):$(id -g)" .` after a container wrote files as root gives the workspace
/// back to the user running the agent. An unprivileged chown to oneself only succeeds on
/// one's own files and a root caller already owns everything, so the workspace's protected
/// directories are not loosened by it: it passes. Any other owner, a privilege wrapper, or
/// a flag that reads ownership from elsewhere keeps the protected-set deny.
#[test]
fn ownership_handed_back_to_the_caller_is_no_change_to_the_protected_set() {
    check_table(
        &Policy::builtin_default(),
        &protected_ctx(),
        &[
            ("chown -R \"$(id -u):$(id -g)\" .", ALLOW, ""),
            ("chown -R $(whoami) /work/proj", ALLOW, ""),
            ("chown -R \"$USER\":\"$USER\" .", ALLOW, ""),
            ("chgrp -R $(id -g) .", ALLOW, ""),
            (
                "sudo chown -R $(id -u) .",
                DENY,
                "no-governance-self-modification",
            ),
            (
                "sudo bash -c 'chown -R $USER .'",
                DENY,
                "no-governance-self-modification",
            ),
            ("chown -R nobody .", DENY, "no-governance-self-modification"),
            ("chgrp -R staff .", DENY, "no-governance-self-modification"),
            (
                "USER=nobody; chown -R $USER .",
                DENY,
                "no-governance-self-modification",
            ),
            (
                "chown -R --from=root $USER .",
                DENY,
                "no-governance-self-modification",
            ),
            (
                "chown --reference=/etc/passwd $USER .",
                DENY,
                "no-governance-self-modification",
            ),
            ("chmod -R g+w .", DENY, "no-governance-self-modification"),
        ],
    );
}

/// A script the line writes and then runs with zx (`zx s.mjs`, `npx zx s.mjs`) or `nim e`
/// (`.nims`) is judged by its content, as `node s.js` and `python3 s.py` are: zx's
/// `` $`cmd` `` lines and NimScript's `exec "cmd"` are shell lines.
#[test]
fn zx_and_nimscript_files_written_then_run_are_judged_by_content() {
    let ask = Some(Decision::Ask);
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            (
                "printf 'await $`rm -rf ~/.ssh`' > /tmp/s.mjs && zx /tmp/s.mjs",
                ask,
                "script-execution-tracking",
            ),
            (
                "cat > /tmp/a.mjs <<'EOF'\nawait $`rm -rf ~/.ssh`\nEOF\nnpx zx /tmp/a.mjs",
                ask,
                "script-execution-tracking",
            ),
            (
                "printf 'await $`ls`' > /tmp/s.mjs && zx /tmp/s.mjs",
                ALLOW,
                "",
            ),
            (
                "printf 'exec \"rm -rf ~/.ssh\"' > /tmp/x.nims && nim e /tmp/x.nims",
                ask,
                "script-execution-tracking",
            ),
            (
                "printf 'echo 1' > /tmp/x.nims && nim e /tmp/x.nims",
                ALLOW,
                "",
            ),
        ],
    );
}

/// `git stash -u -- .claude` is a push (git takes pathspecs after `--` without the word, and
/// the message's value is no subcommand): the untracked `.claude/` is removed from the work
/// tree into the stash — denied like `git stash push -u -- .claude`. It passed, read as a
/// subcommand named `.claude`.
#[test]
fn a_stash_with_pathspecs_and_no_push_word_is_a_push() {
    check_table(
        &Policy::builtin_default(),
        &protected_ctx(),
        &[
            (
                "git stash -u -- .claude",
                DENY,
                "no-governance-self-modification",
            ),
            (
                "git stash -u -m wip -- .claude",
                DENY,
                "no-governance-self-modification",
            ),
            (
                "git stash --include-untracked -- .claude/settings.json",
                DENY,
                "no-governance-self-modification",
            ),
            (
                "git stash -a -- .claude",
                DENY,
                "no-governance-self-modification",
            ),
            (
                "git stash -m wip -- .claude",
                DENY,
                "no-governance-self-modification",
            ),
            ("git stash -u -- src", ALLOW, ""),
            ("git stash list", ALLOW, ""),
        ],
    );
}

/// A destroy plan copied or moved on the same line (`plan -destroy -out=a && cp a b && apply
/// b`) is still that plan: applying the copy is `apply -destroy` (round 24 followed copies
/// across calls only).
#[test]
fn a_destroy_plan_copied_on_the_line_is_still_a_destroy_plan() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            (
                "terraform plan -destroy -out=a.plan && cp a.plan b.plan && terraform apply b.plan",
                DENY,
                "destructive-shell",
            ),
            (
                "terraform plan -destroy -out=a.plan && mv a.plan b.plan && terraform apply b.plan",
                DENY,
                "destructive-shell",
            ),
            (
                "tofu plan -destroy -out=x && cp x /tmp/y && tofu apply /tmp/y",
                DENY,
                "destructive-shell",
            ),
            (
                "terraform plan -out=a.plan && cp a.plan b.plan && terraform apply b.plan",
                ALLOW,
                "",
            ),
        ],
    );
}

/// `cmake -P FILE` runs a CMake script: one the session wrote is write-then-execute (no
/// reader for CMake, so it asks); the project's own scripts run as the project's.
#[test]
fn a_cmake_script_the_session_wrote_is_write_then_execute() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            (
                "echo 'file(REMOVE_RECURSE /home)' > /tmp/x.cmake && cmake -P /tmp/x.cmake",
                Some(Decision::Ask),
                "script-execution-tracking",
            ),
            ("cmake -S . -B build", ALLOW, ""),
        ],
    );
}

/// find's `-empty` is evaluated against the protected entries on disk: every directory on the
/// way to one holds it (never empty), and the entry itself is read (an empty file below
/// `.claude/` is deleted by `find . -empty -delete`). `find . -type d -empty -delete` no
/// longer reads as deleting the workspace that holds `.claude`.
#[test]
fn find_empty_is_evaluated_against_the_protected_entries_on_disk() {
    let (dir, ctx) = disk_workspace();
    let ws = dir.path().join("proj");
    let policy = Policy::builtin_default();
    let judge = |command: &str| {
        let mut call = bash(command);
        call.cwd = ws.to_string_lossy().into_owned();
        policy
            .evaluate(&call, &ctx, &hookgate_policy::SessionState::default())
            .decision
    };
    for command in [
        "find . -maxdepth 2 -type d -empty -not -path './.git/*' -delete",
        "find . -type d -empty -delete",
        "find . -empty -delete",
        "find .claude -empty -delete",
    ] {
        assert_eq!(judge(command), ALLOW, "{command}");
    }
    assert_eq!(judge("find . -name settings.json -delete"), DENY);
    std::fs::write(ws.join(".claude/empty.json"), "").unwrap();
    assert_eq!(judge("find . -empty -delete"), DENY);
    assert_eq!(judge("find . -type d -empty -delete"), ALLOW);
}
