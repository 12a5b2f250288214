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

/// The plain-list fast path (`src/plain_list.rs`): lists of plain commands joined by `&&`,
/// `||` and `;` get the grammar path's whole analysis — control flow included: what an
/// operand after `exit` or `false &&` does is still judged (`exit 1 || rm -rf /` denies on
/// both paths), and a `cd` moves the operands after it.
#[test]
fn plain_lists_get_the_same_analysis_on_both_paths() {
    both_paths_agree(&[
        "npm install && npm test",
        "git add -A && git commit -m 'fix: handle empty input'",
        "cd frontend && npm run build",
        "mkdir -p out && cp build/app out/",
        "cd x && y",
        "cd /etc && rm -rf *.conf",
        "cd / && rm -rf tmp",
        "cd .. && rm -rf project",
        "cd ~ && ls",
        "cd build || exit 1",
        "cd /tmp || exit 1; rm -rf build",
        // Existence guards go to the grammar (it reads the test off the tree).
        "[ -f .env ] || cp .env.example .env",
        "test -e config.yml || cp config.example.yml config.yml",
        "[ -f .env ] && cp x .env",
        "cd /etc || exit; rm -rf ssh",
        "cd /tmp/x || return 1; rm -rf build",
        "cd /tmp && rm -rf build || exit 1; cd /etc; rm -rf build",
        "exit 1 || rm -rf /",
        "exit 1 && rm -rf /",
        "exit; rm -rf /",
        "return 0 || git push --force origin main",
        "false && rm -rf /",
        "true || rm -rf /",
        "rm -rf / || true",
        "git status; git diff",
        "make; make test; make install",
        "cd src; rm -rf build",
        "cd /; rm -rf etc",
        "git fetch && git reset --hard origin/main || git status",
        "a && b || c && d",
        "a || b || c",
        "git status&&git log",
        "git status ;git log",
        "ls && cat .env",
        "cat ~/.ssh/id_rsa && echo done",
        "cat .env; echo done",
        "echo 'a && b' && echo \"c || d\"",
        "echo 'a;b'; echo ok",
        "bash -c 'rm -rf /' && echo ok",
        "sudo rm -rf /etc || echo failed",
        "alias ll=ls && ll -la",
        "alias rm=echo && rm -rf /",
        "git push origin HEAD~1:main && git push --force origin main",
        "env A=1 npm test && npm run build",
        "xargs rm -rf && echo ok",
        "find . -name x -delete && ls",
        "chmod -R 777 /etc && echo ok",
        "docker system prune -af && docker ps",
        "cd /tmp && rm -rf /tmp/x && cd - && ls",
        "pushd src && rm -rf gen && popd",
        "source env.sh && npm test",
        ". ./env.sh && make",
        "set -e; rm -rf build",
        "shopt -s expand_aliases; alias x=rm; x -rf /",
        "exec bash && rm -rf /",
        "trap 'rm -rf /' EXIT; exit 0",
    ]);
}

/// Lines the plain-list fast path leaves to the grammar (a declaration builtin operand, an
/// empty operand, `&`, `|`, a trailing `;`, a reserved word, quotes the plain rules refuse)
/// are analysed alike on both paths too.
#[test]
fn lines_the_plain_list_path_refuses_get_the_same_analysis_on_both_paths() {
    both_paths_agree(&[
        "export A=1 && npm test",
        "npm test && export A=1",
        "unset HISTFILE; rm -rf ~/.bash_history",
        "declare -x LD_PRELOAD=/tmp/x.so && ls",
        "A=1 && ls",
        "ls && B=2 rm -rf /",
        "a &&",
        "&& a",
        "a && && b",
        "a;; b",
        "a ; ; b",
        "a &",
        "a & b",
        "a &&& b",
        "a ||| b",
        "a | b && c",
        "a;",
        "git status;",
        "if && x",
        "x && then",
        "time ls && ls",
        "echo \"a\\\" && rm -rf / && echo \\\"b\"",
        "echo 'unterminated && rm -rf /",
        "echo \"$HOME\" && ls",
        "ls && 'rm' -rf /",
        "ls && rimraf@5 dist",
        "ls && %1",
        "ls\nrm -rf /",
    ]);
}
