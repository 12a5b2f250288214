//! Round 22's near-miss benign pass (wt-fp11) through the whole guard (default policy + shell
//! analyzer) on a real workspace: a deletion through a recursive name pattern in interpreter
//! code (`Path('.').rglob('*.pyc')` unlinked) is the `find -delete` it amounts to, judged
//! entry by entry against the protected set; a path with a name-safe token substitution in a
//! file name (`/tmp/app-$(git rev-parse --short HEAD).tar.gz`) is the glob it amounts to.
//! One line per case: `(command, expected decision, expected rule or "")`.
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
const GOV: &str = "no-governance-self-modification";

#[track_caller]
fn check(table: &[(&str, Option<Decision>, &str)]) {
    let (_root, ctx) = disk_workspace();
    check_table(&Policy::builtin_default(), &ctx, table);
}

#[test]
fn governance_places_recursive_name_deletions_like_find_delete() {
    check(&[
        (
            "python3 -c \"import pathlib; [p.unlink() for p in pathlib.Path('.').rglob('*.pyc')]\"",
            ALLOW,
            "",
        ),
        (
            "python3 -c \"import shutil, pathlib; [shutil.rmtree(p) for p in pathlib.Path('.').rglob('__pycache__')]\"",
            ALLOW,
            "",
        ),
        (
            "python3 -c \"import pathlib; [p.unlink() for p in pathlib.Path('src').rglob('*.orig')]\"",
            ALLOW,
            "",
        ),
        // Names that select the protected set, or a directory holding it, stay denied.
        (
            "python3 -c \"import pathlib; [p.unlink() for p in pathlib.Path('.').rglob('*.json')]\"",
            DENY,
            GOV,
        ),
        (
            "python3 -c \"import pathlib; [p.unlink() for p in pathlib.Path('.').rglob('*')]\"",
            DENY,
            GOV,
        ),
        (
            "python3 -c \"import shutil, pathlib; [shutil.rmtree(p) for p in pathlib.Path('.').rglob('.c*')]\"",
            DENY,
            GOV,
        ),
        (
            "python3 -c \"import pathlib; [p.unlink() for p in pathlib.Path('.').rglob('settings.json')]\"",
            DENY,
            GOV,
        ),
        // Writes through a recursive pattern stay unplaced (the catalog reads paths).
        (
            "python3 -c \"import pathlib; [p.write_text('x') for p in pathlib.Path('.').rglob('*.json')]\"",
            ASK,
            GOV,
        ),
    ]);
}

#[test]
fn governance_places_token_substitutions_in_file_names() {
    check(&[
        (
            "tar -czf /tmp/app-$(git rev-parse --short HEAD).tar.gz src",
            ALLOW,
            "",
        ),
        ("tar -czf /tmp/src-$(date +%Y%m%d).tgz src", ALLOW, ""),
        ("tar -czf /tmp/src-$(whoami)-$(uname -m).tgz src", ALLOW, ""),
        // Into the protected set: the pattern reaches it.
        ("cp src/main.rs .claude/x-$(date +%s).json", DENY, GOV),
        ("tar -czf .claude/settings-$(date +%s).json src", DENY, GOV),
        // A whole component, an unknown producer, a `/`-bearing format: not a token.
        ("rm -rf /tmp/$(git rev-parse --short HEAD)", ASK, ""),
        ("cp src/main.rs /tmp/x-$(cat name.txt)", ASK, GOV),
        ("cp src/main.rs /tmp/x-$(date +%D)", ASK, GOV),
        (
            "cp src/main.rs /tmp/x-$(git rev-parse --abbrev-ref HEAD)",
            ASK,
            GOV,
        ),
    ]);
}
