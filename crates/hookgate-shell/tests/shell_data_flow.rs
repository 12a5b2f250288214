//! Shell constructs and data flow, fourth round (issue 8, wt-flow3): what a variable holds on
//! the failure path of `x=$(P)` in a list, the workspace that `git rev-parse --show-toplevel`
//! prints, and loop variables bound to the files a listing prints. Each table holds the
//! benign rows the relaxation lets through next to the dangerous neighbours that still flag.
#![allow(clippy::expect_used, clippy::unwrap_used)] // test code

mod common;

use common::{ALLOW, ASK, DENY};

fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// On the failure path of `x=$(P)` the variable holds what `P` printed before failing:
/// nothing, for a producer that prints only on success (`mktemp`, `pwd`, `git rev-parse
/// --show-toplevel`). Joined with the success path the value is "the scratch path or empty":
/// a word that is that expansion alone names the path (an empty argument names nothing), so
/// the cleanup after `&&`/`||` lists is judged on the path; a word that adds to it (`"$tmp"/*`
/// is `/*` when empty) or names a directory (`cd ""` stays, `git -C ""` is a no-op) does not.
#[test]
fn failure_path_of_a_silent_producer_assignment_keeps_its_value_or_empty() {
    table(&[
        // Benign: cleanup after a list whose first step made the temp file or directory.
        (
            "tmp=$(mktemp) && jq . package.json > \"$tmp\" && diff -q package.json \"$tmp\"; rm -f \"$tmp\"",
            ALLOW,
            "-",
        ),
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; rm -rf \"$tmp\"",
            ALLOW,
            "-",
        ),
        (
            "tmp=\"$(mktemp -d)\" && cp -r src \"$tmp\" || echo failed; rm -rf \"$tmp\"",
            ALLOW,
            "-",
        ),
        (
            "out=$(mktemp) && cargo metadata > \"$out\" && jq .packages \"$out\"; rm -f $out",
            ALLOW,
            "-",
        ),
        (
            "d=$(mktemp -d /tmp/build.XXXX) && tar -xzf dist.tgz -C \"$d\" && ls \"$d\"; rm -rf \"$d\"",
            ALLOW,
            "-",
        ),
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; trap 'rm -rf \"$tmp\"' EXIT",
            ALLOW,
            "-",
        ),
        (
            "tmp=$(mktemp) && echo a > \"$tmp\" && echo b; rm -f \"$tmp\"",
            ALLOW,
            "-",
        ),
        ("here=$(pwd) && make; rm -rf \"$here/build\"", ASK, "*"),
        // Dangerous neighbours: a word that adds to the value is `/…` when it is empty.
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; rm -rf \"$tmp\"/*",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; rm -rf $tmp/*",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; rm -rf \"$tmp/\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
        // A directory that may be empty is not known (`cd ""` stays in the workspace).
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; cd \"$tmp\"; rm -rf ./*",
            ASK,
            "*",
        ),
        // Another producer's output on failure is unknown, as before.
        (
            "tmp=$(cat f) && cp -r src \"$tmp\"; rm -rf \"$tmp\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
        // A later assignment on one path is not the scratch path.
        (
            "tmp=$(mktemp -d) && tmp=$HOME; rm -rf \"$tmp\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "tmp=$(mktemp -d) || tmp=~; rm -rf \"$tmp\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
        // What the line says besides still counts.
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; rm -rf \"$tmp\" ~",
            DENY,
            "fs.delete_system",
        ),
        (
            "tmp=$(mktemp -d) && cp -r src \"$tmp\"; git -C \"$tmp\" clean -fdx",
            DENY,
            "*",
        ),
    ]);
}

/// `git rev-parse --show-toplevel` run inside the workspace prints the workspace root (the
/// project is its repository's top), so `cd "$(git rev-parse --show-toplevel)" && …` and
/// `"$(git rev-parse --show-toplevel)/build"` are judged there. Run from elsewhere, with
/// `-C`, or with `GIT_DIR`/`GIT_WORK_TREE` assigned, it is some other repository: unknown.
#[test]
fn git_toplevel_run_inside_the_workspace_is_the_workspace_root() {
    table(&[
        (
            "cd \"$(git rev-parse --show-toplevel)\" && rm -rf build",
            ALLOW,
            "-",
        ),
        (
            "rm -rf \"$(git rev-parse --show-toplevel)/build\"",
            ALLOW,
            "-",
        ),
        (
            "root=$(git rev-parse --show-toplevel) && rm -rf \"$root/dist\" \"$root/target\"",
            ALLOW,
            "-",
        ),
        (
            "cd src && rm -rf \"$(git rev-parse --show-toplevel)/node_modules\"",
            ALLOW,
            "-",
        ),
        (
            "cd \"$(git rev-parse --show-toplevel)\" && find . -name '*.pyc' -delete",
            ALLOW,
            "-",
        ),
        // Dangerous neighbours: the root itself, its parent, another repository.
        ("rm -rf \"$(git rev-parse --show-toplevel)\"", DENY, "*"),
        (
            "cd \"$(git rev-parse --show-toplevel)/..\" && rm -rf *",
            DENY,
            "fs.delete_system",
        ),
        (
            "cd /opt/other && rm -rf \"$(git rev-parse --show-toplevel)/build\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "rm -rf \"$(git -C ~ rev-parse --show-toplevel)/build\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "GIT_WORK_TREE=/ ; rm -rf \"$(git rev-parse --show-toplevel)/etc\"",
            ASK,
            "*",
        ),
        (
            "rm -rf \"$(git rev-parse --show-toplevel --git-dir)/x\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
    ]);
}

/// A loop over what a file listing prints (`for f in $(git ls-files …)`, `git ls-files -z |
/// while IFS= read -r -d '' f`, `while read -r f; … done < <(rg -l …)`) binds its variable to
/// one listed file each turn, as `xargs` items are bound: edits of `"$f"` are edits below the
/// listing's root. A `read` into several variables, a listing of something else (`cat
/// list.txt`), a listing of the home or a hidden directory, or a reassignment in the body
/// keep the variable unresolved or judged where it points.
#[test]
fn loop_variables_over_workspace_listings_are_listed_files() {
    table(&[
        (
            "for f in $(git ls-files '*.py'); do sed -i 's/a/b/' \"$f\"; done",
            ALLOW,
            "-",
        ),
        (
            "for f in `git ls-files`; do sed -i 's/\\s*$//' \"$f\"; done",
            ALLOW,
            "-",
        ),
        (
            "for f in $(rg -l TODO src); do sed -i 's/TODO/DONE/' $f; done",
            ALLOW,
            "-",
        ),
        (
            "for f in $(find . -name '*.bak'); do rm -f \"$f\"; done",
            ALLOW,
            "-",
        ),
        (
            "git ls-files -z | while IFS= read -r -d '' f; do sed -i 's/a/b/' \"$f\"; done",
            ALLOW,
            "-",
        ),
        (
            "while read -r f; do sed -i 's/a/b/' \"$f\"; done < <(rg -l foo)",
            ALLOW,
            "-",
        ),
        (
            "rg -l foo | while read -r f; do perl -pi -e 's/foo/bar/' \"$f\"; done",
            ALLOW,
            "-",
        ),
        (
            "find . -name '*.orig' | while read -r f; do rm -f \"$f\"; done",
            ALLOW,
            "-",
        ),
        (
            "git diff --name-only | while read f; do npx prettier --write \"$f\"; done",
            ALLOW,
            "-",
        ),
        // Dangerous neighbours.
        (
            "for f in $(git ls-files); do rm -rf \"$f\"/..; done",
            DENY,
            "fs.delete_system",
        ),
        (
            "find ~ -name x | while read -r f; do rm -f \"$f\"; done",
            DENY,
            "fs.delete_system",
        ),
        (
            "git ls-files | while read -r f; do f=$HOME; rm -rf \"$f\"; done",
            DENY,
            "fs.delete_system",
        ),
        (
            "git ls-files | while read -r a b; do rm -f \"$b\"; done",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "git ls-files | while read -r -n 3 f; do rm -f \"$f\"; done",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "cat list.txt | while read -r f; do rm -f \"$f\"; done",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "for f in $(cat list.txt); do rm -f \"$f\"; done",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            // Round 25: a mixed list is unrolled, so the known `/etc/hosts` is judged too.
            "for f in $(git ls-files) /etc/hosts; do rm -f \"$f\"; done",
            DENY,
            "fs.delete_system",
        ),
        (
            "while read -r f; do rm -f \"$f\"; done < <(find / -type f)",
            DENY,
            "fs.delete_system",
        ),
    ]);
}

/// A copy that runs only where a file test just showed its target absent (`[ -f X ] || cp A
/// X`, `[ ! -e X ] && cp A X`, `if [ ! -f X ]; then cp A X; fi`, the `else` of `if [ -f X ]`)
/// creates X and overwrites nothing there: it is recorded as `cp -n`, the no-clobber copy the
/// policy already reads as creating. The inverted guard (`[ -f X ] && cp A X` overwrites), a
/// different path tested than written, a guard that is not the only way in (`a && [ -f X ]
/// || cp …`, `[ -f X ] || b && cp …`), a `cd` in between, `-f`, or a path known only at
/// run time keep the plain copy.
#[test]
fn existence_guarded_copies_are_read_as_no_clobber() {
    let mut analyzer = hookgate_shell::Analyzer::new().expect("grammar loads");
    let ctx = common::ctx();
    let cases: &[(&str, bool)] = &[
        ("[ -f .env ] || cp .env.example .env", true),
        ("test -e .env || cp .env.example .env", true),
        ("[ ! -f .env ] && cp .env.example .env", true),
        ("[[ -f .env ]] || cp .env.example .env", true),
        ("! [ -f .env ] && cp .env.example .env", true),
        ("test ! -f .env && cp .env.example .env", true),
        (
            "[ -e '.env' ] || cp .env.sample \".env\" && echo created",
            true,
        ),
        ("if [ ! -e .env ]; then cp .env.example .env; fi", true),
        (
            "if [ ! -f config/local.yml ]; then cp config/local.example.yml config/local.yml; echo made; fi",
            true,
        ),
        (
            "if [ -f .env ]; then echo present; else cp .env.example .env; fi",
            true,
        ),
        // Dangerous neighbours: the copy may replace an existing file.
        ("[ -f .env ] && cp x .env", false),
        ("if [ -f .env ]; then cp x .env; fi", false),
        (
            "if [ ! -f .env ]; then echo none; else cp x .env; fi",
            false,
        ),
        ("[ -f .env.bak ] || cp x .env", false),
        ("[ -d .env ] || cp x .env", false),
        ("[ -f .env ] || cp -f x .env", false),
        ("a && [ -f .env ] || cp x .env", false),
        ("[ -f .env ] || echo missing && cp x .env", false),
        ("[ -f \"$F\" ] || cp x \"$F\"", false),
        ("[ -f .env ] || { cd sub; cp x .env; }", false),
        ("if [ ! -f .env ] && true; then cp x .env; fi", false),
    ];
    let mut wrong = Vec::new();
    for (command, no_clobber) in cases {
        let a = analyzer.analyze(command, &ctx);
        let copies: Vec<&Vec<String>> = a
            .commands
            .iter()
            .map(|c| &c.argv)
            .filter(|argv| argv.first().is_some_and(|p| p == "cp"))
            .collect();
        let got = !copies.is_empty() && copies.iter().all(|argv| argv.iter().any(|w| w == "-n"));
        if got != *no_clobber || copies.is_empty() {
            wrong.push(format!(
                "{command:?}: want no-clobber {no_clobber}, got {copies:?}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
