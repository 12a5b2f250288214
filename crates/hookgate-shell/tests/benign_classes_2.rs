//! Issue 8, second round of benign classes, at the analyzer: one line per case,
//! `(command, expected action, expected rule id or "-")`, each benign class next to the
//! dangerous neighbours that must keep their rule. Workspace `/home/user/project`, home
//! `/home/user`. The guard-level view of the same classes (with `chown` to the running user)
//! is in `hookgate-policy/tests/guard_false_positive_classes.rs`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// `rce.env_hijack` for PATH is about entries searched before the old `$PATH`: appended ones
/// only add names (`PATH+=` appends too); prepended ones must be standard bin directories,
/// and a value without `$PATH` (or with a quoted, literal `$PATH`) replaces the search path.
#[test]
fn path_hijack_is_judged_on_the_entries_before_path() {
    table(&[
        ("export PATH=$PATH:./node_modules/.bin", ALLOW, "-"),
        ("PATH=\"$PATH:$PWD/bin\"", ALLOW, "-"),
        ("export PATH=\"${PATH}:$(pwd)/scripts\"", ALLOW, "-"),
        ("PATH=$PATH:/opt/tool/bin:./bin npm test", ALLOW, "-"),
        ("export PATH=~/.local/bin:$PATH:./vendor/bin", ALLOW, "-"),
        ("env PATH=$PATH:./bin make", ALLOW, "-"),
        ("PATH+=:./node_modules/.bin", ALLOW, "-"),
        ("export PATH+=\":$PWD/bin\"", ALLOW, "-"),
        ("PATH=./bin:$PATH", ASK, "rce.env_hijack"),
        ("export PATH=/tmp/x:$PATH", ASK, "rce.env_hijack"),
        ("export PATH=.:$PATH:./bin", ASK, "rce.env_hijack"),
        ("PATH=:$PATH", ASK, "rce.env_hijack"),
        ("PATH=./node_modules/.bin", ASK, "rce.env_hijack"),
        ("PATH='$PATH':./bin", ASK, "rce.env_hijack"),
        ("PATH=$EVIL:$PATH", ASK, "rce.env_hijack"),
        ("env PATH=./bin:$PATH make", ASK, "rce.env_hijack"),
        ("PATH+=/tmp/x", ASK, "rce.env_hijack"),
        ("LD_PRELOAD+=:./evil.so ls", ASK, "rce.env_hijack"),
    ]);
}

/// `truncate` names files like `>` does: judged by where they are; a pattern is `fs.truncate`.
#[test]
fn truncate_is_judged_by_its_targets() {
    table(&[
        ("truncate -s 0 logs/app.log", ALLOW, "-"),
        ("truncate --size=0 notes.txt", ALLOW, "-"),
        ("truncate -s0 out/result.json", ALLOW, "-"),
        ("truncate -s 0 ./debug.log ./error.log", ALLOW, "-"),
        ("truncate -s 1M fixtures/big.bin", ALLOW, "-"),
        (": > logs/app.log", ALLOW, "-"),
        ("> notes.txt", ALLOW, "-"),
        ("truncate -s 0 /tmp/build.log", ALLOW, "-"),
        (
            "truncate -s 0 ~/.bash_history",
            ASK,
            "fs.overwrite_outside_workspace",
        ),
        ("truncate -s 0 /etc/passwd", DENY, "fs.overwrite_system"),
        ("truncate -s 0 ~/.bashrc", DENY, "fs.overwrite_system"),
        ("truncate -s 0 *.log", ASK, "fs.truncate"),
        // A pattern below a workspace directory reaches only files there, as `rm logs/*`
        // does (round 28); one at the workspace root still asks.
        ("truncate -s 0 logs/*", ALLOW, "-"),
        ("truncate -s 0 $LOG", ASK, "fs.overwrite_unresolved_target"),
        (
            "truncate -s 0 ../other/notes.txt",
            ASK,
            "fs.overwrite_outside_workspace",
        ),
    ]);
}

/// Removing a named image tag without `-f` is like `docker rm NAME`; forcing, ids, digests
/// and names known only at run time keep `docker.rmi` (`docker.container_force_rm` for
/// `image rm -f`).
#[test]
fn removing_a_named_image_tag_is_ordinary() {
    table(&[
        ("docker rmi myapp:1.2.3", ALLOW, "-"),
        ("docker image rm myapp:old", ALLOW, "-"),
        (
            "docker rmi registry.example.com/team/api:pr-42 api:pr-41",
            ALLOW,
            "-",
        ),
        ("podman rmi localhost/app:dev", ALLOW, "-"),
        ("docker image remove web:latest", ALLOW, "-"),
        ("docker rmi --no-prune web", ALLOW, "-"),
        ("docker rmi myapp", ALLOW, "-"),
        ("docker rmi cafe", ASK, "docker.rmi"),
        ("podman rmi -a", ASK, "docker.rmi"),
        ("podman rmi --all app:1", ASK, "docker.rmi"),
        ("podman image rm -a web:1", ASK, "docker.rmi"),
        ("docker rmi -f myapp:1.2.3", ASK, "docker.rmi"),
        (
            "docker image rm --force myapp:old",
            ASK,
            "docker.container_force_rm",
        ),
        ("docker rmi $(docker images -q)", ASK, "docker.rmi"),
        (
            "docker rmi $(docker images -qf dangling=true)",
            ASK,
            "docker.rmi",
        ),
        ("docker images -q | xargs docker rmi", ASK, "docker.rmi"),
        ("docker rmi $IMAGE", ASK, "docker.rmi"),
        ("docker rmi sha256:4f2a9c", ASK, "docker.rmi"),
        ("docker rmi 4f2a9c1b7e3d", ASK, "docker.rmi"),
        ("docker rmi app@sha256:4f2a9c", ASK, "docker.rmi"),
        ("docker image rm app*", ASK, "docker.rmi"),
        ("docker image prune -a", ASK, "docker.image_prune_all"),
    ]);
}
