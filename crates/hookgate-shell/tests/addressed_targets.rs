//! Issue 8, benign classes where the line addresses what it acts on, at the analyzer: one line
//! per case, `(command, expected action, expected rule id or "-")`, each benign class next to
//! the dangerous neighbours that keep their rule. The guard-level view (where branches are
//! known) is in `hookgate-policy/tests/guard_configuration_classes.rs`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// Force-removing or killing containers the line names is ordinary (like `pkill -f` with a
/// specific pattern); a selection the line does not spell out — run-time names, xargs, `-a`,
/// `--latest`, `--filter`, patterns — and removing volumes keep their rule. No container name
/// is special.
#[test]
fn stopping_named_containers_is_ordinary_and_unnamed_selections_ask() {
    table(&[
        ("docker rm -f app-web-1", ALLOW, "-"),
        ("docker rm -f app-web-1 app-db-1", ALLOW, "-"),
        ("docker rm --force redis", ALLOW, "-"),
        ("docker kill app-db-1", ALLOW, "-"),
        ("docker kill -s HUP nginx", ALLOW, "-"),
        ("docker kill --signal=SIGTERM api worker", ALLOW, "-"),
        ("docker container rm -f web", ALLOW, "-"),
        ("docker container kill web", ALLOW, "-"),
        ("podman rm -f dev-postgres", ALLOW, "-"),
        ("podman kill 3f2a9c1b7e3d", ALLOW, "-"),
        ("nerdctl rm -f buildkitd", ALLOW, "-"),
        ("docker -H tcp://127.0.0.1:2375 rm -f web", ALLOW, "-"),
        ("docker rm -f postgres", ALLOW, "-"),
        ("docker stop app-db-1", ALLOW, "-"),
        ("docker compose down", ALLOW, "-"),
        ("docker compose stop web", ALLOW, "-"),
        ("docker image rm acme/app:dev", ALLOW, "-"),
        ("docker rm web", ALLOW, "-"),
        // Selections the line does not spell out.
        ("docker rm -f $(docker ps -aq)", ASK, "docker.rm_force"),
        ("docker kill $(docker ps -q)", ASK, "docker.kill"),
        ("docker ps -q | xargs docker kill", ASK, "docker.kill"),
        ("docker ps -aq | xargs docker rm -f", ASK, "docker.rm_force"),
        (
            "docker ps -aq | xargs -r docker rm -f",
            ASK,
            "docker.rm_force",
        ),
        ("docker rm -f $CONTAINER", ASK, "docker.rm_force"),
        ("docker kill \"$(docker ps -lq)\"", ASK, "docker.kill"),
        ("docker rm -f app-*", ASK, "docker.rm_force"),
        ("podman rm -af", ASK, "docker.rm_force"),
        ("podman rm --all --force", ASK, "docker.rm_force"),
        ("podman kill --all", ASK, "docker.kill"),
        ("podman kill -a", ASK, "docker.kill"),
        ("podman rm -f --latest", ASK, "docker.rm_force"),
        (
            "podman rm -f --filter status=exited",
            ASK,
            "docker.rm_force",
        ),
        ("podman kill --cidfile ids.txt", ASK, "docker.kill"),
        ("docker rm -f", ASK, "docker.rm_force"),
        ("docker kill", ASK, "docker.kill"),
        (
            "docker container rm -f $(docker container ls -aq)",
            ASK,
            "docker.container_force_rm",
        ),
        (
            "docker container kill $(docker ps -q)",
            ASK,
            "docker.container_kill_prune",
        ),
        (
            "docker rm $(docker ps -aq)",
            ASK,
            "docker.container_kill_prune",
        ),
        // `-v` takes only the named containers' *anonymous* volumes (wt-fp3): what those
        // containers alone held, like removing them (see benign_classes_3.rs).
        ("docker rm -fv app-db-1", ALLOW, "-"),
        ("docker rm -f -v app-db-1", ALLOW, "-"),
        ("docker rm --volumes web", ALLOW, "-"),
        ("docker container rm -v web", ALLOW, "-"),
        ("docker compose down -v", ASK, "docker.compose_down_volumes"),
        ("docker volume rm app_pgdata", ASK, "docker.volume_rm"),
        (
            "docker system prune -a --volumes",
            DENY,
            "docker.system_prune",
        ),
        (
            "docker container prune -f",
            ASK,
            "docker.container_kill_prune",
        ),
        ("docker image rm -f acme/app:dev", ASK, "*"),
    ]);
}

/// The analyzer cannot see branches: every lease-checked push keeps
/// `git.push_force_with_lease` (low blast, so any other danger on the command outranks it);
/// the policy decides by branch. Plain forces keep their high-blast rules.
#[test]
fn lease_pushes_keep_a_low_blast_rule_that_plain_forces_outrank() {
    table(&[
        (
            "git push --force-with-lease origin feature/x",
            ASK,
            "git.push_force_with_lease",
        ),
        (
            "git push --force-with-l origin feature/x",
            ASK,
            "git.push_force_with_lease",
        ),
        (
            "git push --force-with-lease --force-if-includes",
            ASK,
            "git.push_force_with_lease",
        ),
        (
            "git push --force-with-lease -f origin x",
            DENY,
            "git.push_force",
        ),
        (
            "git push --force-with-lease origin +x",
            DENY,
            "git.push_force_refspec",
        ),
        (
            "git push --force-with-lease --mirror",
            DENY,
            "git.push_mirror_prune",
        ),
        (
            "git push --force-with-lease --delete origin x",
            DENY,
            "git.push_delete",
        ),
    ]);
}

/// `tee` reads its standard input and writes the files it names: naming a credential file
/// writes it (judged as a write), it does not read it.
#[test]
fn tee_writes_the_files_it_names() {
    table(&[
        ("echo 'LOG_LEVEL=debug' | tee -a .env.local", ALLOW, "-"),
        ("echo PORT=1 | tee .env", ALLOW, "-"),
        (
            "cat ~/.ssh/id_rsa | tee /tmp/k",
            ASK,
            "cred.read_secret_file",
        ),
        ("echo x | tee ~/.bashrc", DENY, "fs.overwrite_system"),
    ]);
}
