//! The plain-words fast path (`lib.rs`) and the grammar path must judge every line the fast
//! path takes the same way: a decision that depends on which path a line took depends on an
//! optimisation. First words holding `@` or `%` go to the grammar on both paths (the same
//! analysis); unquoted declaration builtins still take the fast path, where they get the same
//! verdict and set the same variables but are recorded as an `export` argv (the policy reads
//! that form; README "Not done yet").

#![allow(clippy::expect_used)] // test code: a failure should stop loudly

mod common;

use common::ctx;
use hookgate_shell::Analyzer;

/// Analyses every line on both paths and reports each difference.
/// What decides (the verdict's class, blast radius, category and rule; its wording may
/// differ) and the variables set (`set_env` effects, by name), per path.
type Judged = (
    hookgate_shell::Action,
    hookgate_shell::Class,
    hookgate_shell::BlastRadius,
    Option<String>,
    Vec<String>,
);

fn judged(a: &hookgate_shell::Analysis) -> Judged {
    let mut set: Vec<String> = a
        .commands
        .iter()
        .flat_map(|c| c.effects.iter())
        .filter(|e| e.op == hookgate_shell::EffectOp::SetEnv)
        .filter_map(|e| e.path.clone())
        .collect();
    set.sort();
    set.dedup();
    (
        a.action(),
        a.verdict.class,
        a.verdict.blast_radius,
        a.verdict.rule_id.clone(),
        set,
    )
}

/// Analyses every line on both paths and reports each line where `view` of the two
/// analyses differs.
#[track_caller]
fn both_paths_show_the_same<T: PartialEq + std::fmt::Debug>(
    lines: &[&str],
    view: impl Fn(&hookgate_shell::Analysis) -> T,
) {
    let mut fast = Analyzer::new().expect("grammar loads");
    let mut full = Analyzer::new().expect("grammar loads");
    full.set_fast_path(false);
    let mut wrong = Vec::new();
    for line in lines {
        let a = view(&fast.analyze(line, &ctx()));
        let b = view(&full.analyze(line, &ctx()));
        if a != b {
            wrong.push(format!("{line:?}:\n  fast {a:?}\n  full {b:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Both paths give the same verdict and set the same variables.
#[track_caller]
fn both_paths_judge_alike(lines: &[&str]) {
    both_paths_show_the_same(lines, judged);
}

/// Both paths give the same analysis.
#[track_caller]
fn both_paths_agree(lines: &[&str]) {
    both_paths_show_the_same(lines, Clone::clone);
}

#[test]
fn declaration_builtins_are_judged_the_same_on_both_paths() {
    both_paths_judge_alike(&[
        "export A=1",
        "export NODE_ENV=production",
        "export PATH=/tmp/x:$PATH",
        "export LD_PRELOAD=/tmp/x.so",
        "export HISTSIZE=0",
        "export HISTFILE=/dev/null",
        "export GIT_EDITOR=true",
        "export -n A",
        "export -p",
        "export",
        "declare -x A=1",
        "declare -p",
        "declare -r A=1",
        "typeset -x LD_PRELOAD=/tmp/x.so",
        "local a=1",
        "readonly A=1",
        "unset A",
        "unset -f cd",
        "unset HISTFILE",
        "export A=1 B=2 rm",
        "export a.b=1",
        "export NODE_OPTIONS=",
        "export GITHUB_TOKEN=abc",
    ]);
}

#[test]
fn first_words_with_at_or_percent_are_judged_the_same_on_both_paths() {
    both_paths_agree(&[
        "rimraf@5.0.1 dist",
        "rimraf@5 /",
        "%1",
        "% 1",
        "%vim",
        "@",
        "@ rm -rf /",
        "a@b rm",
        "user@host",
        "x% -rf /",
        "50% done",
        "npm@10 install",
        "node@20 --version",
    ]);
}
