//! False-positive classes found by mining real CI steps, Makefile recipes and README blocks
//! (bench/benign-real), at the analyzer. One line per case, `(command, expected action,
//! expected rule id or "-")`, each benign class next to the dangerous neighbours that keep
//! their verdict. Workspace `/home/user/project`, home `/home/user`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// Prepending the project's own Cargo build output to PATH before `$PATH` (uv's and ruff's CI
/// do it before integration tests) is judged like `node_modules/.bin`: binaries the project's
/// manifest builds. Replacing the search path with it, a directory outside the workspace of
/// the same name, `..` escapes and other workspace directories stay `rce.env_hijack`.
#[test]
fn cargo_build_output_before_path_is_not_a_hijack() {
    table(&[
        (
            "export PATH=\"${PWD}/target/debug:${PWD}/.venv/bin:${PATH}\"",
            ALLOW,
            "-",
        ),
        ("export PATH=$PWD/target/release:$PATH", ALLOW, "-"),
        ("PATH=./target/debug:$PATH cargo test --test it", ALLOW, "-"),
        (
            "export PATH=\"$(pwd)/target/x86_64-unknown-linux-musl/release:$PATH\"",
            ALLOW,
            "-",
        ),
        (
            "export PATH=/home/user/project/target/debug:$PATH",
            ALLOW,
            "-",
        ),
        // Neighbours: whole search path, outside the workspace, escapes, other directories.
        ("PATH=./target/debug make test", ASK, "rce.env_hijack"),
        ("export PATH=/tmp/target/debug:$PATH", ASK, "rce.env_hijack"),
        (
            "export PATH=$PWD/target/debug/../../bin:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        ("export PATH=$PWD/target:$PATH", ASK, "rce.env_hijack"),
        (
            "export PATH=$PWD/target/../../x/debug:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export LD_PRELOAD=$PWD/target/debug/libx.so",
            ASK,
            "rce.env_hijack",
        ),
    ]);
}
