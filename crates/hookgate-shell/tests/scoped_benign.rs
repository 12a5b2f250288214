//! Issue 8, held-out false positives (second corpus): deletions and requests whose scope the
//! line spells out and which cannot reach what the rule protects. One line per case,
//! `(command, expected action, expected rule id or "-")`, each benign class beside the
//! dangerous neighbours that keep their rule.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use std::path::PathBuf;

use common::{ALLOW, ASK, DENY};
use hookgate_shell::Context;

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// A CI container: HOME under `/tmp`, the workspace elsewhere.
fn ci_home() -> Context {
    Context::new("/work/proj", Some(PathBuf::from("/tmp/ci-home")))
}

/// A CI container with the home directory and the workspace side by side under `/tmp/ci`.
fn ci_both() -> Context {
    Context::new("/tmp/ci/project", Some(PathBuf::from("/tmp/ci/home")))
}

/// A glob or a one-level `find -name` selection under a temp dir that holds HOME (or the
/// workspace) is scratch when its pattern cannot name HOME, the workspace or a directory
/// above them; one that can stays `fs.delete_system`, and what lies inside HOME keeps its
/// rules (a sensitive location beats the scratch rule).
#[test]
fn temp_globs_that_cannot_name_the_home_directory_are_scratch() {
    common::table(
        &ci_home(),
        &[
            ("rm -rf /tmp/acme-build-*", ALLOW, "-"),
            ("rm -rf \"${TMPDIR:-/tmp}/jest_\"*", ALLOW, "-"),
            ("rm -f /tmp/*.json", ALLOW, "-"),
            ("rm -rf /tmp/tmp.*", ALLOW, "-"),
            ("rm -rf /tmp/pytest-of-*/", ALLOW, "-"),
            ("rm -rf /var/tmp/cache-*", ALLOW, "-"),
            ("rm -rf /tmp/npm-[0-9]*", ALLOW, "-"),
            (
                "find /tmp -maxdepth 1 -name 'tmp*.json' -user \"$USER\" -delete",
                ALLOW,
                "-",
            ),
            (
                "find /tmp -maxdepth 1 -name 'go-build*' -delete",
                ALLOW,
                "-",
            ),
            ("find /tmp -maxdepth 1 -iname '*.log' -delete", ALLOW, "-"),
            ("rm -rf /tmp/acme-build-1", ALLOW, "-"),
            ("rm -rf /tmp/*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/ci-*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/*-home", DENY, "fs.delete_system"),
            ("rm -rf /tmp/c?-home", DENY, "fs.delete_system"),
            ("rm -rf /tmp/[a-z]*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/CI-HOME*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/**/cache", DENY, "fs.delete_system"),
            ("rm -rf /tmp/.*", DENY, "fs.delete_system"),
            ("rm -rf ~/*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/ci-home", DENY, "fs.delete_system"),
            (
                "rm -rf ~/.ssh",
                DENY,
                "fs.delete_outside_workspace_recursive",
            ),
            (
                "find /tmp -maxdepth 1 -name 'ci-*' -delete",
                DENY,
                "fs.delete_system",
            ),
            ("find /tmp -name '*.json' -delete", DENY, "fs.delete_system"),
            (
                "find /tmp -maxdepth 1 -name 'tmp*' -o -name 'ci*' -delete",
                DENY,
                "fs.delete_system",
            ),
        ],
    );
    common::table(
        &ci_both(),
        &[
            ("rm -rf /tmp/ci/build-*", ALLOW, "-"),
            ("rm -rf /tmp/jest_*", ALLOW, "-"),
            ("rm -rf /tmp/ci/*.tar.gz", ALLOW, "-"),
            ("rm -rf /tmp/ci/*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/ci/proj*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/c*", DENY, "fs.delete_system"),
            ("rm -rf /tmp/ci/h*", DENY, "fs.delete_system"),
        ],
    );
}

/// `git clean -f` restricted to pathspecs removes only untracked files below them, a subset
/// of `rm -rf` of the same paths: judged by the same place rules. No pathspec, pathspec
/// magic, the workspace root, `.git`, paths outside, run-time words and a moved repository
/// keep `git.clean_force`.
#[test]
fn git_clean_restricted_to_workspace_paths_is_no_stricter_than_rm() {
    table(&[
        ("git clean -fd -- dist build", ALLOW, "-"),
        ("git clean -fdx -- node_modules/.cache", ALLOW, "-"),
        ("git clean -fd tmp/", ALLOW, "-"),
        ("git clean -f -d -x -- out coverage", ALLOW, "-"),
        ("git clean -fdX -- build/", ALLOW, "-"),
        ("git clean -fd -e keep.txt -- scratch", ALLOW, "-"),
        ("git clean -f -- '*.orig'", ALLOW, "-"),
        ("git clean -ffdx packages/app/dist", ALLOW, "-"),
        ("git -c core.quotepath=off clean -fd -- dist", ALLOW, "-"),
        ("git rm -r --cached dist && rm -rf dist", ALLOW, "-"),
        ("git clean -fd", DENY, "git.clean_force"),
        ("git clean -fdx", DENY, "git.clean_force"),
        ("git clean -fd -- .", DENY, "git.clean_force"),
        ("git clean -fd ..", DENY, "git.clean_force"),
        ("git clean -fd -- dist/..", DENY, "git.clean_force"),
        ("git clean -fd -- ':!keep'", DENY, "git.clean_force"),
        ("git clean -fd -- ':/'", DENY, "git.clean_force"),
        ("git clean -fdx -- '*'", DENY, "git.clean_force"),
        ("git clean -fd -- ../other", DENY, "git.clean_force"),
        ("git clean -fd -- /etc", DENY, "git.clean_force"),
        ("git clean -fd -- .git", DENY, "git.clean_force"),
        ("git clean -fd -- dist ~", DENY, "git.clean_force"),
        ("git clean -fd -- \"$DIR\"", DENY, "git.clean_force"),
        ("git clean -fd -e dist .", DENY, "git.clean_force"),
        ("git clean -fd --exclude dist .", DENY, "git.clean_force"),
        ("git -C ../other clean -fd -- dist", DENY, "git.clean_force"),
        ("git clean -n -- dist", ALLOW, "-"),
        ("git clean -fX -- config/.env", DENY, "git.clean_force"),
        ("git clean -fdx -- .claude", DENY, "git.clean_force"),
    ]);
}

/// Build cache is regenerable, like `docker image prune`'s dangling images: pruning it is
/// ordinary. Pruning everything with volumes keeps its rule; networks (no data) and the
/// buildx builder the line names are removed without a question (wt-fp3,
/// benign_classes_3.rs), every inactive builder is not.
#[test]
fn build_cache_prunes_are_regenerable() {
    table(&[
        ("docker builder prune -f", ALLOW, "-"),
        ("docker builder prune", ALLOW, "-"),
        ("docker builder prune -a -f", ALLOW, "-"),
        (
            "docker builder prune --all --force --filter until=24h",
            ALLOW,
            "-",
        ),
        ("docker buildx prune -f", ALLOW, "-"),
        ("docker buildx prune --all --force", ALLOW, "-"),
        ("podman builder prune -f", ALLOW, "-"),
        ("docker image prune -f", ALLOW, "-"),
        ("docker buildx rm mybuilder", ALLOW, "-"),
        ("docker buildx rm --all-inactive", ASK, "docker.builder_rm"),
        (
            "docker system prune -a --volumes",
            DENY,
            "docker.system_prune",
        ),
        // Without --volumes/-a: asked, not denied (DISAGREEMENTS fp8-3).
        ("docker system prune -f", ASK, "docker.system_prune"),
        ("docker network prune -f", ALLOW, "-"),
        ("docker network rm backend", ALLOW, "-"),
        ("docker volume prune -f", DENY, "docker.volume_rm"),
        ("docker image prune -a -f", ASK, "docker.image_prune_all"),
    ]);
}

/// DELETE/PUT/PATCH to this machine (loopback, `*.localhost`, the unspecified address, the
/// container runtimes' host name, httpie's `:PORT`) is local development; any other host, a
/// URL known only at run time, a user-info trick, a proxy, `--resolve`/`--connect-to` or a
/// Unix socket keep the method's rule.
#[test]
fn http_methods_to_loopback_are_local_development() {
    table(&[
        (
            "curl -s -X DELETE http://localhost:3000/api/todos/1",
            ALLOW,
            "-",
        ),
        (
            "curl -X PUT -d '{\"done\":true}' -H 'Content-Type: application/json' http://127.0.0.1:8080/items/3",
            ALLOW,
            "-",
        ),
        (
            "curl -XPATCH localhost:5000/users/2 --data-raw '{}'",
            ALLOW,
            "-",
        ),
        ("curl --request DELETE 'http://[::1]:4000/x'", ALLOW, "-"),
        ("curl -X DELETE http://api.localhost/v1/cache", ALLOW, "-"),
        ("curl -X DELETE http://0.0.0.0:9200/test-index", ALLOW, "-"),
        ("curl -X DELETE http://127.0.0.2/x", ALLOW, "-"),
        (
            "curl -sf -X DELETE --max-time 5 http://localhost:3000/a",
            ALLOW,
            "-",
        ),
        ("curl -X DELETE --url http://localhost:3000/a", ALLOW, "-"),
        (
            "curl -X DELETE http://host.docker.internal:8000/jobs/1",
            ALLOW,
            "-",
        ),
        ("curl -X DELETE http://LOCALHOST:3000/a", ALLOW, "-"),
        ("http DELETE localhost:3000/todos/1", ALLOW, "-"),
        ("http DELETE :3000/todos/1", ALLOW, "-"),
        ("xh put :8080/items/1 name=x", ALLOW, "-"),
        ("https PATCH https://localhost:8443/a x=1", ALLOW, "-"),
        (
            "wget --method=DELETE -qO- http://localhost:8000/cache",
            ALLOW,
            "-",
        ),
        ("wget --method DELETE http://127.0.0.1/x", ALLOW, "-"),
        (
            "curl -X DELETE https://api.example.com/todos/1",
            ASK,
            "net.http_delete",
        ),
        (
            "curl -X PUT https://api.example.com/x -d 1",
            ASK,
            "net.http_overwrite",
        ),
        (
            "curl -X DELETE http://localhost.evil.example/x",
            ASK,
            "net.http_delete",
        ),
        (
            "curl -X DELETE http://localhost@evil.example/x",
            ASK,
            "net.http_delete",
        ),
        (
            "curl -X DELETE http://127.0.0.1.nip.io/x",
            ASK,
            "net.http_delete",
        ),
        ("curl -X DELETE http://10.0.0.5/x", ASK, "net.http_delete"),
        (
            "curl -X DELETE \"$API_URL/items/1\"",
            ASK,
            "net.http_delete",
        ),
        (
            "curl -X DELETE http://localhost:3000/a https://prod.example.com/a",
            ASK,
            "net.http_delete",
        ),
        (
            "curl -x http://proxy:3128 -X DELETE http://localhost/a",
            ASK,
            "net.http_delete",
        ),
        (
            "curl --connect-to localhost:80:prod.example.com:80 -X DELETE http://localhost/a",
            ASK,
            "net.http_delete",
        ),
        (
            "curl --resolve localhost:80:203.0.113.9 -X DELETE http://localhost/a",
            ASK,
            "net.http_delete",
        ),
        (
            "curl --unix-socket /run/app.sock -X DELETE http://localhost/items/1",
            ASK,
            "net.http_delete",
        ),
        ("curl -X DELETE prod/api/x", ASK, "net.http_delete"),
        (
            "http DELETE api.example.com/todos/1",
            ASK,
            "net.http_delete",
        ),
        (
            "wget --method=DELETE https://api.example.com/x",
            ASK,
            "net.http_delete",
        ),
        (
            "wget --method=DELETE -i urls.txt http://localhost/x",
            ASK,
            "net.http_delete",
        ),
        (
            "gh api -X DELETE repos/o/r/issues/1/labels/bug",
            ASK,
            "net.http_delete",
        ),
    ]);
}

/// In-place edits by perl and ruby (`-i`, with an optional attached backup suffix) with the
/// code from `-e` (also at the end of a cluster: `-pe`, `-pi -e`): the code is code, the file
/// an edited file. Ruby's `-E` is the encoding, not code.
#[test]
fn perl_and_ruby_in_place_edits_edit_files() {
    table(&[
        ("ruby -i -pe 'gsub(/200/, \"201\")' src/main.py", ALLOW, "-"),
        ("ruby -i.bak -pe 'gsub(/a/, \"b\")' src/main.py", ALLOW, "-"),
        ("ruby -pi -e 'sub(/x/, \"y\")' config/app.yml", ALLOW, "-"),
        ("perl -i -pe 's/200/201/' src/main.py", ALLOW, "-"),
        ("perl -pi -e 's/foo/bar/g' lib/a.pm lib/b.pm", ALLOW, "-"),
        ("perl -i.bak -pe 's/a/b/' README.md", ALLOW, "-"),
        ("ruby -E UTF-8 -e 'puts 1'", ALLOW, "-"),
        (
            "perl -i -pe 's/a/b/' ~/.bashrc",
            DENY,
            "fs.overwrite_system",
        ),
        (
            "perl -pi -e 's/a/b/' ~/.ssh/config",
            DENY,
            "fs.overwrite_system",
        ),
        (
            "perl -pi.orig -e 's/a/b/' ../other/x.txt",
            ASK,
            "fs.overwrite_outside_workspace",
        ),
        ("ruby -pi -e 'sub(/a/, \"b\")' /tmp/x.txt", ALLOW, "-"),
        ("perl -ne 'print if /x/' ~/.bashrc", ALLOW, "-"),
        ("ruby -i -pe 'gsub(/a/, \"b\")' /etc/hosts", DENY, "*"),
        ("ruby -e 'FileUtils.rm_rf(\"/\")'", DENY, "*"),
        ("perl -i -pe 'system(\"rm -rf ~\")' x.txt", DENY, "*"),
    ]);
}
