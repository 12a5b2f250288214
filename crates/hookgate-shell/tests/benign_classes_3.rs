//! Issue 8, third round of benign classes (wt-fp3), at the analyzer: tool arguments read as
//! dangerous that are not. One line per case, `(command, expected action, expected rule id or
//! "-")`, each benign class next to the dangerous neighbours that keep their rule. Workspace
//! `/home/user/project`, home `/home/user`. The guard-level view (scheduling, ownership,
//! sudo, pathspecs, archives, blast radius, key files) is in
//! `hookgate-policy/tests/benign_classes_fp3.rs`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// `docker rm -v` removes the *anonymous* volumes of the containers removed (docker's own
/// help), so with named containers it is removing them; a selection the line does not spell
/// out keeps the forced-removal rule. `-l` removes a link only.
#[test]
fn removing_named_containers_with_their_anonymous_volumes_is_ordinary() {
    table(&[
        ("docker rm -v web", ALLOW, "-"),
        ("docker rm -fv web db", ALLOW, "-"),
        ("docker rm --volumes web", ALLOW, "-"),
        ("docker container rm -v web", ALLOW, "-"),
        ("podman rm -v web", ALLOW, "-"),
        ("nerdctl rm -fv web", ALLOW, "-"),
        ("docker rm -l web/db", ALLOW, "-"),
        ("docker rm -v $(docker ps -aq)", ASK, "docker.rm_force"),
        ("docker rm -fv $(docker ps -aq)", ASK, "docker.rm_force"),
        ("docker rm -av", ASK, "docker.rm_force"),
        ("docker rm -v", ASK, "docker.rm_force"),
        (
            "docker container rm -v $C",
            ASK,
            "docker.container_force_rm",
        ),
        ("podman rm -v --all", ASK, "docker.rm_force"),
        ("docker rm -v 'web*'", ASK, "docker.rm_force"),
    ]);
}

/// A network holds no data: removing the networks the line names, or pruning unused ones,
/// is ordinary; networks known only at run time keep `docker.container_rm`. A buildx
/// builder the line names is removed like a container; every inactive one is not.
#[test]
fn networks_and_named_builders_are_removed_without_a_question() {
    table(&[
        ("docker network rm mynet", ALLOW, "-"),
        ("docker network rm -f backend frontend", ALLOW, "-"),
        ("docker network remove backend", ALLOW, "-"),
        ("docker network prune", ALLOW, "-"),
        ("docker network prune -f", ALLOW, "-"),
        ("podman network rm mynet", ALLOW, "-"),
        ("docker network ls", ALLOW, "-"),
        ("docker buildx rm mybuilder", ALLOW, "-"),
        ("docker volume ls", ALLOW, "-"),
        ("docker system df", ALLOW, "-"),
        ("docker compose down", ALLOW, "-"),
        ("docker compose down --remove-orphans", ALLOW, "-"),
        ("docker compose down --rmi all", ALLOW, "-"),
        (
            "docker network rm $(docker network ls -q)",
            ASK,
            "docker.container_rm",
        ),
        ("docker network rm $NET", ASK, "docker.container_rm"),
        ("docker network rm 'dev*'", ASK, "docker.container_rm"),
        ("docker buildx rm --all-inactive", ASK, "docker.builder_rm"),
        ("docker volume rm data", ASK, "docker.volume_rm"),
        ("docker volume prune -f", DENY, "docker.volume_rm"),
        (
            "docker system prune -af --volumes",
            DENY,
            "docker.system_prune",
        ),
        ("docker compose down -v", ASK, "docker.compose_down_volumes"),
        (
            "docker compose down -v --rmi all",
            ASK,
            "docker.compose_down_volumes",
        ),
    ]);
}

/// `git replace` writes refs under refs/replace/ and rewrites no commit: listing and
/// deleting replacements are allowed, creating one keeps the analyzer's ask.
#[test]
fn git_replace_is_judged_as_local_refs() {
    table(&[
        ("git replace -l", ALLOW, "-"),
        ("git replace --list 'abc*'", ALLOW, "-"),
        ("git replace -d abc123", ALLOW, "-"),
        ("git replace", ALLOW, "-"),
        ("git replace abc123 def456", ASK, "git.replace_object"),
        ("git replace -f abc123 def456", ASK, "git.replace_object"),
        ("git replace --graft HEAD~3", ASK, "git.replace_object"),
        ("git replace --edit HEAD", ASK, "git.replace_object"),
    ]);
}

/// Reading system state is what sudo is mostly used for: the journal, the kernel ring
/// buffer and ufw's status are read-only verbs ([[safe]] entries), while the options that
/// change them are not (under sudo the policy then keeps its ask).
#[test]
fn system_state_reads_are_known_read_only() {
    table(&[
        ("journalctl -u app -n 50", ALLOW, "-"),
        ("journalctl -f --since today", ALLOW, "-"),
        ("dmesg", ALLOW, "-"),
        ("dmesg -T", ALLOW, "-"),
        ("ufw status", ALLOW, "-"),
        ("ufw status verbose", ALLOW, "-"),
        ("ufw app list", ALLOW, "-"),
        ("sudo ufw status numbered", ALLOW, "-"),
        ("ufw disable", DENY, "sys.firewall_ufw"),
        ("sudo ufw allow 22", DENY, "sys.firewall_ufw"),
        ("ufw logging off", DENY, "sys.firewall_ufw"),
        ("journalctl --vacuum-size=1G", ASK, "sys.journal_vacuum"),
        // Listing only reads (round 22, corpus #10); changing rules keeps the catch-all.
        ("iptables -L", ALLOW, "-"),
        (
            "iptables -A INPUT -s 10.0.0.1 -j ACCEPT",
            ASK,
            "sys.firewall_status",
        ),
        ("iptables -F", DENY, "sys.firewall"),
    ]);
}
