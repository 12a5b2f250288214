//! Round 21's benign classes (wt-fp9): ordinary agent commands written in less ordinary
//! ways — scratch directories cleaned by a `trap` set after `x=$(mktemp -d) &&`, scratch
//! names made unique with the shell's process id or `$RANDOM`, and read-only cloud CLI
//! operations given run-time option values. One line per case: `(command, action, rule id,
//! "-" or "*")`, each benign line beside the dangerous neighbours that keep their rule.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// A trap set on the success path of `x=$(mktemp -d) && …` runs with the scratch path (or
/// the empty value the failed assignment leaves): the failure path's one assignment is not
/// a second change made after the trap.
#[test]
fn exit_trap_after_a_scratch_assignment_joined_by_and() {
    table(&[
        (
            "TMP=$(mktemp -d) && trap 'rm -rf \"$TMP\"' EXIT && git archive HEAD | tar -x -C \"$TMP\" && ls \"$TMP\"",
            ALLOW,
            "-",
        ),
        ("tmp=$(mktemp) && trap 'rm -f \"$tmp\"' EXIT", ALLOW, "-"),
        (
            "d=$(mktemp -d) && trap 'rm -rf \"$d\"' EXIT INT TERM && cp -r tests/fixtures \"$d\" && pytest --basetemp=\"$d/pt\"",
            ALLOW,
            "-",
        ),
        // Same with `;` (was already allowed).
        (
            "TMP=$(mktemp -d); trap 'rm -rf \"$TMP\"' EXIT && ls",
            ALLOW,
            "-",
        ),
        // The variable reassigned after the trap: the handler may delete that.
        (
            "TMP=$(mktemp -d) && trap 'rm -rf \"$TMP\"' EXIT && TMP=$(cat x)",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "TMP=$(mktemp -d) && trap 'rm -rf \"$TMP\"' EXIT && TMP=$HOME",
            ASK,
            "*",
        ),
        ("d=$HOME && trap 'rm -rf \"$d\"' EXIT", DENY, "*"),
        ("trap 'rm -rf \"$d\"' EXIT; d=$HOME", DENY, "*"),
        ("d=$(mktemp -d) && trap 'rm -rf \"$d\"/..' EXIT", ASK, "*"),
    ]);
}

/// `$$` and `$RANDOM` hold digits only: inside a path they are part of one name, never a
/// separator, `..` or a glob, quoted or not, directly or through a variable.
#[test]
fn process_id_and_random_numbers_stay_inside_one_name() {
    table(&[
        ("rm -rf \"/tmp/build-$$\"", ALLOW, "-"),
        ("W=\"/tmp/build-$$\"; rm -rf \"$W\"", ALLOW, "-"),
        (
            "WORK=\"${TMPDIR:-/tmp}/build-$$\"; mkdir -p \"$WORK\" && cmake -S . -B \"$WORK\" && cmake --build \"$WORK\" -j2; rm -rf \"$WORK\"",
            ALLOW,
            "-",
        ),
        ("out=/tmp/res.$RANDOM.json; rm -f \"$out\"", ALLOW, "-"),
        ("rm -rf \"build/run-$$\"", ALLOW, "-"),
        // Still where they are: beside the home directory or above it.
        ("rm -rf \"$HOME/$$\"", DENY, "*"),
        ("rm -rf \"$HOME/$RANDOM/..\"", DENY, "*"),
        ("rm -rf ~/$$*", DENY, "*"),
        // The parent process is the agent's, not this shell: still run-time; the shell
        // itself and a random id are not the line's own job.
        ("kill -9 \"$PPID\"", ASK, "*"),
        ("kill $$", ASK, "*"),
        ("kill \"$$\"", ASK, "*"),
        ("kill -9 $RANDOM", ASK, "*"),
        ("kill -- -$$", ASK, "sys.kill_group"),
        ("kill -0 $$ && echo alive", ALLOW, "-"),
        ("python -m http.server & pid=$!; kill \"$pid\"", ALLOW, "-"),
    ]);
}

/// A run-time value of an option that only selects where a command acts (profile, region,
/// namespace, context, project), or of any parameter of a read-only AWS operation
/// (`describe-*`, `get-*`, `list-*`), is not a flag or subcommand; a run-time word anywhere
/// else, and every operation a rule names, keep their verdicts.
#[test]
fn run_time_values_of_selector_options_and_read_operation_parameters() {
    table(&[
        (
            "aws --profile dev sqs get-queue-attributes --queue-url \"$QUEUE_URL\" --attribute-names ApproximateNumberOfMessages",
            ALLOW,
            "-",
        ),
        ("aws --profile \"$AWS_PROFILE\" s3 ls", ALLOW, "-"),
        (
            "aws ec2 describe-instances --instance-ids \"$ID\" --region \"$REGION\"",
            ALLOW,
            "-",
        ),
        (
            "aws logs describe-log-streams --log-group-name \"$GROUP\" --max-items 5",
            ALLOW,
            "-",
        ),
        ("kubectl get pods -n \"$NS\" -o wide", ALLOW, "-"),
        ("kubectl --context \"$CTX\" get deploy", ALLOW, "-"),
        ("docker --context \"$CTX\" ps", ALLOW, "-"),
        // A run-time word that is not an option's value.
        ("aws ec2 describe-instances $FLAGS", ASK, "*"),
        ("aws \"$SVC\" describe-x --a \"$B\"", ASK, "*"),
        // lead31-3: a run-time word after the literal path `get pods` cannot make a rule match.
        ("kubectl get pods -n \"$NS\" \"$EXTRA\"", ALLOW, "-"),
        ("kubectl get \"$KIND\" -n x -o yaml", ASK, "*"),
        // A parameter of an operation that changes something.
        (
            "aws rds modify-db-instance --db-instance-identifier x --backup-retention-period \"$N\"",
            ASK,
            "*",
        ),
        ("aws ssm get-parameter --name \"$N\" $F", ASK, "*"),
        // The rules of the operation the line names still apply.
        (
            "aws ec2 terminate-instances --instance-ids \"$ID\"",
            DENY,
            "cloud.aws_delete",
        ),
        ("kubectl -n \"$NS\" delete deploy x", DENY, "k8s.delete"),
        // Named pods in a namespace known only at run time ask (round 25, lead25-1).
        ("kubectl -n \"$NS\" delete pod x", ASK, "k8s.delete"),
        (
            "aws secretsmanager get-secret-value --secret-id \"$S\"",
            ASK,
            "*",
        ),
        ("kubectl get secret x -n \"$NS\" -o yaml", ASK, "*"),
        ("aws s3 rm \"$P\" --recursive", DENY, "cloud.aws_s3_delete"),
    ]);
}

/// A module search path pointed into the project while keeping its earlier value through
/// bash's guarded forms (`${PYTHONPATH:-}`, `${PYTHONPATH:+:$PYTHONPATH}`) is the same as
/// `$PWD/src:$PYTHONPATH`; an entry elsewhere keeps `rce.env_hijack`.
#[test]
fn search_path_keeping_its_earlier_value_through_guarded_expansions() {
    table(&[
        (
            "export PYTHONPATH=\"$PWD/src:${PYTHONPATH:-}\"; python -m app",
            ALLOW,
            "-",
        ),
        (
            "export PYTHONPATH=\"$PWD/src${PYTHONPATH:+:$PYTHONPATH}\"",
            ALLOW,
            "-",
        ),
        ("PYTHONPATH=src:${PYTHONPATH-} pytest -q", ALLOW, "-"),
        (
            "export NODE_PATH=\"./lib${NODE_PATH:+:${NODE_PATH}}\"",
            ALLOW,
            "-",
        ),
        (
            "export PYTHONPATH=/tmp/evil:${PYTHONPATH:-}",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PYTHONPATH=\"${PYTHONPATH:-/tmp/evil}\"",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PYTHONPATH=\"$PWD/src${PYTHONPATH:+:/tmp/x}\"",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PYTHONPATH=\"${OTHER:-}:src\"",
            ASK,
            "rce.env_hijack",
        ),
    ]);
}

/// Python project managers' activation printers are shell set-up like `pyenv init -`.
#[test]
fn python_project_manager_activation_printers() {
    table(&[
        ("eval \"$(pdm --pep582)\"", ALLOW, "-"),
        ("eval \"$(pixi shell-hook)\" && python -V", ALLOW, "-"),
        // Another subcommand of the same tools prints anything.
        ("eval \"$(pdm run x)\"", ASK, "*"),
        ("eval \"$(pixi run x)\"", ASK, "*"),
    ]);
}

/// IPython's timing and profiling line magics run the Python statement they are given: it
/// is judged as that statement; shell escapes and other magics keep their verdicts.
#[test]
fn ipython_timing_magics_are_judged_as_their_statement() {
    table(&[
        ("ipython -c \"%timeit sum(range(1000))\"", ALLOW, "-"),
        (
            "ipython -c '%timeit -n 100 -r 3 sorted([3, 1, 2])'",
            ALLOW,
            "-",
        ),
        ("ipython -c '%time import numpy'", ALLOW, "-"),
        (
            "ipython -c '%timeit __import__(\"shutil\").rmtree(\"/home/user/.ssh\")'",
            DENY,
            "*",
        ),
        ("ipython -c '%prun -T /tmp/x main()'", ASK, "*"),
        ("ipython -c '%run evil.py'", ASK, "*"),
        ("ipython -c '!rm -rf ~/.ssh'", DENY, "*"),
    ]);
}
