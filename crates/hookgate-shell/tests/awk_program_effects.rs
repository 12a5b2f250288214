//! An awk program's own side effects (`src/interp.rs`): `getline < "file"` reads and
//! `print > "file"` / `>> "file"` writes are judged by path like the shell's `<`, `>` and
//! `>>`; commands it runs (`system(…)`, `print | "cmd"`, `"cmd" | getline`) as the shell they
//! are. A `>` in a condition is a comparison. Workspace `/home/user/project`, home
//! `/home/user`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

#[test]
fn awk_reads_and_writes_are_judged_by_path() {
    table(&[
        ("awk '{print $1}' f", ALLOW, "-"),
        ("awk -F: '{print $1}' /etc/passwd", ALLOW, "-"),
        ("awk '{print > \"out.txt\"}' data.csv", ALLOW, "-"),
        ("awk '{print >> \"build/log.txt\"}' data.csv", ALLOW, "-"),
        ("awk '$1 > \"m\" {print}' f", ALLOW, "-"),
        (
            "awk '{printf \"%s\\n\", $2 > \"/dev/stderr\"}' f",
            ALLOW,
            "-",
        ),
        (
            "awk 'BEGIN{while((getline l < \"README.md\")>0) n++; print n}'",
            ALLOW,
            "-",
        ),
        ("awk 'NR>1{print | \"sort -u\"}' f", ALLOW, "-"),
        // Dangerous neighbours.
        (
            "awk 'BEGIN{while((getline l < \"/home/user/.ssh/id_rsa\")>0) print l}'",
            ASK,
            "cred.read_secret_file",
        ),
        (
            "awk 'BEGIN{getline l < \"/home/user/.aws/credentials\"; print l}'",
            ASK,
            "cred.read_secret_file",
        ),
        ("awk '{print > \"/home/user/.bashrc\"}' f", DENY, "*"),
        ("awk '{print >> \"/home/user/.profile\"}' f", DENY, "*"),
        ("gawk '{print > \"/etc/cron.d/x\"}' f", DENY, "*"),
        ("awk '{system(\"rm -rf ~\")}' f", DENY, "*"),
        ("awk '{print | \"sh\"}' f", ASK, "*"),
    ]);
}
