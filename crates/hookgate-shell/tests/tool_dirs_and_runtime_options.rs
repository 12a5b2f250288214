//! Issue 8, held-out false positives of the second corpus, at the analyzer: package-manager
//! bin directories on PATH and runtime options variables judged by their options. One line
//! per case, `(command, expected action, expected rule id or "-")`, each benign class next
//! to the dangerous neighbours that must keep `rce.env_hijack`. Workspace
//! `/home/user/project`, home `/home/user`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// Prepending a workspace directory a package manager fills (`node_modules/.bin`, a virtual
/// environment's `bin`, Bundler/Composer binstubs) is what `npm run` and `activate` do, like
/// the user bin directories; any other directory before `$PATH` is still a hijack.
#[test]
fn package_manager_bin_dirs_before_path_are_not_a_hijack() {
    table(&[
        ("export PATH=\"$PWD/node_modules/.bin:$PATH\"", ALLOW, "-"),
        ("export PATH=./node_modules/.bin:$PATH", ALLOW, "-"),
        ("PATH=node_modules/.bin:$PATH npx tsc", ALLOW, "-"),
        ("export PATH=\"${PWD}/.venv/bin:${PATH}\"", ALLOW, "-"),
        ("PATH=.venv/bin:$PATH python -m pytest", ALLOW, "-"),
        ("export PATH=\"$(pwd)/vendor/bin:$PATH\"", ALLOW, "-"),
        ("export PATH=/home/user/project/venv/bin:$PATH", ALLOW, "-"),
        ("export PATH=$PWD/.tox/py312/bin:$PATH", ALLOW, "-"),
        (
            "export PATH=./.bundle/bin:$PWD/node_modules/.bin:$PATH",
            ALLOW,
            "-",
        ),
        (
            "export PATH=packages/web/node_modules/.bin:$PATH",
            ALLOW,
            "-",
        ),
        ("env PATH=$PWD/node_modules/.bin:$PATH jest", ALLOW, "-"),
        // The user bin directories of the first round, before or after `$PATH`.
        ("export PATH=\"$HOME/.local/bin:$PATH\"", ALLOW, "-"),
        ("export PATH=~/.cargo/bin:$PATH", ALLOW, "-"),
        ("export PATH=$PATH:~/.cargo/bin", ALLOW, "-"),
        // Other workspace directories, other places, `..`, the current directory.
        ("export PATH=./bin:$PATH", ASK, "rce.env_hijack"),
        ("export PATH=$PWD/scripts:$PATH", ASK, "rce.env_hijack"),
        ("export PATH=.venv/bin:./bin:$PATH", ASK, "rce.env_hijack"),
        (
            "export PATH=$PWD/../node_modules/.bin:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PATH=/tmp/node_modules/.bin:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PATH=node_modules/.bin/evil:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PATH=.:node_modules/.bin:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PATH=:node_modules/.bin:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export PATH=$X/node_modules/.bin:$PATH",
            ASK,
            "rce.env_hijack",
        ),
        ("export PATH=node_modules/.bin", ASK, "rce.env_hijack"),
        ("export PATH=/tmp/x:/usr/bin", ASK, "rce.env_hijack"),
    ]);
}

/// `NODE_OPTIONS`, `RUBYOPT`, `PERL5OPT` and the JVM's options variables change what runs
/// only through some options: tuning (heap, warnings, source maps, TLS provider) is allowed,
/// code-loading options, debugger ports and anything not parsed as plain options ask.
#[test]
fn runtime_options_variables_are_judged_by_their_options() {
    table(&[
        ("export NODE_OPTIONS=--max-old-space-size=4096", ALLOW, "-"),
        ("export NODE_OPTIONS=--max_old_space_size=8192", ALLOW, "-"),
        (
            "export NODE_OPTIONS=\"--max-old-space-size=4096 --enable-source-maps\"",
            ALLOW,
            "-",
        ),
        (
            "NODE_OPTIONS=--openssl-legacy-provider npm run build",
            ALLOW,
            "-",
        ),
        (
            "NODE_OPTIONS='--no-warnings --trace-deprecation' node app.js",
            ALLOW,
            "-",
        ),
        ("export NODE_OPTIONS=", ALLOW, "-"),
        ("export RUBYOPT=-W0", ALLOW, "-"),
        (
            "RUBYOPT='-W:no-deprecated --yjit' bundle exec rspec",
            ALLOW,
            "-",
        ),
        ("export PERL5OPT=-w", ALLOW, "-"),
        (
            "export JAVA_TOOL_OPTIONS='-Xmx2g -Dfile.encoding=UTF-8'",
            ALLOW,
            "-",
        ),
        (
            "export NODE_OPTIONS=\"--require ./hook.js\"",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export NODE_OPTIONS=--require=./hook.js",
            ASK,
            "rce.env_hijack",
        ),
        ("export NODE_OPTIONS=-r./hook.js", ASK, "rce.env_hijack"),
        (
            "NODE_OPTIONS='--max-old-space-size=4096 --import=./x.mjs' npm test",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export NODE_OPTIONS=--experimental-loader=./l.mjs",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export NODE_OPTIONS=--inspect=0.0.0.0:9229",
            ASK,
            "rce.env_hijack",
        ),
        ("export NODE_OPTIONS=--inspect-brk", ASK, "rce.env_hijack"),
        ("export NODE_OPTIONS=\"$EXTRA\"", ASK, "rce.env_hijack"),
        (
            "export NODE_OPTIONS=\"--title='a b'\"",
            ASK,
            "rce.env_hijack",
        ),
        ("export RUBYOPT=-rev", ASK, "rce.env_hijack"),
        ("export RUBYOPT=-wrev", ASK, "rce.env_hijack"),
        ("export RUBYOPT=-I/tmp", ASK, "rce.env_hijack"),
        ("export PERL5OPT=-Mstrict", ASK, "rce.env_hijack"),
        ("export PERL5OPT=-mEvil", ASK, "rce.env_hijack"),
        ("export PERL5OPT=-d", ASK, "rce.env_hijack"),
        (
            "export JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export _JAVA_OPTIONS=-Xbootclasspath/a:/tmp/x.jar",
            ASK,
            "rce.env_hijack",
        ),
        (
            "export JDK_JAVA_OPTIONS=-agentlib:jdwp=transport=dt_socket,address=*:5005",
            ASK,
            "rce.env_hijack",
        ),
        ("export JDK_JAVA_OPTIONS=@/tmp/opts", ASK, "rce.env_hijack"),
    ]);
}

/// `export NAME=value` on the plain-words fast path (no quotes, no `$`) is judged like the
/// statement form: a preload or a replaced search path asks there too.
#[test]
fn hijack_exports_ask_on_the_fast_path_too() {
    table(&[
        ("export LD_PRELOAD=/tmp/evil.so", ASK, "rce.env_hijack"),
        ("export GIT_SSH_COMMAND=/tmp/x", ASK, "rce.env_hijack"),
        ("declare -x BASH_ENV=/tmp/rc", ASK, "rce.env_hijack"),
        ("export PATH=/tmp/bin:/usr/bin", ASK, "rce.env_hijack"),
        ("export PATH=./node_modules/.bin:$PATH", ALLOW, "-"),
        ("export EDITOR=vim", ALLOW, "-"),
        ("export FOO=bar", ALLOW, "-"),
    ]);
}

/// Files a search tool lists (`rg -l`, `grep -rl`, `git ls-files`, `git grep -l`, `fd`) are
/// files below its root, like `find ROOT`'s: editing them with `xargs sed -i` is judged by
/// that root. A tool that skips hidden entries (rg, fd) at the workspace root cannot select
/// `.claude/` or `.git/`; one that does not (`grep -r`, git's tracked files, `--hidden`)
/// lists files inside the workspace there, protected ones included, as `find .` does (the
/// policy judges those). Options that print other text or run code stay opaque.
#[test]
fn files_listed_by_search_tools_are_files_below_their_roots() {
    table(&[
        (
            "rg -l oldName src | xargs sed -i 's/oldName/newName/g'",
            ALLOW,
            "-",
        ),
        (
            "rg -l oldName | xargs sed -i 's/oldName/newName/g'",
            ALLOW,
            "-",
        ),
        (
            "rg -il 'old_name' . | xargs sed -i 's/old_name/new_name/'",
            ALLOW,
            "-",
        ),
        ("rg --files src | xargs sed -i 's/\\r$//'", ALLOW, "-"),
        (
            "rg -l -e foo -g '*.ts' app | xargs sed -i s/foo/bar/",
            ALLOW,
            "-",
        ),
        (
            "grep -rl oldName src | xargs sed -i 's/oldName/newName/g'",
            ALLOW,
            "-",
        ),
        (
            "grep -l -r --include='*.ts' oldName src/ | xargs sed -i s/a/b/",
            ALLOW,
            "-",
        ),
        ("git ls-files src | xargs sed -i 's/a/b/'", ALLOW, "-"),
        (
            "git grep -l oldName -- lib | xargs sed -i s/a/b/",
            ALLOW,
            "-",
        ),
        ("fd -e js . src | xargs sed -i 's/var /let /'", ALLOW, "-"),
        ("fdfind -e py | xargs sed -i 's/a/b/'", ALLOW, "-"),
        ("grep -rl x src | xargs rm", ALLOW, "-"),
        // Hidden entries of the workspace root reachable: files inside the workspace, as for
        // `find . | xargs sed -i`; which protected files among them are reached is the
        // policy's to judge (asked or denied there: crates/hookgate-policy/tests/
        // self_protection_classes.rs, `listings_feeding_xargs_reach_only_what_they_can_print`).
        ("grep -rl oldName . | xargs sed -i s/a/b/", ALLOW, "-"),
        ("grep -rl oldName | xargs sed -i s/a/b/", ALLOW, "-"),
        ("rg --hidden -l x . | xargs sed -i s/a/b/", ALLOW, "-"),
        ("rg -uu -l x | xargs sed -i s/a/b/", ALLOW, "-"),
        ("fd -H -e json . | xargs sed -i s/a/b/", ALLOW, "-"),
        ("git ls-files '*.json' | xargs sed -i s/a/b/", ALLOW, "-"),
        ("git grep -l x | xargs sed -i s/a/b/", ALLOW, "-"),
        // Outside the workspace, or every visible file of the root deleted.
        (
            "grep -rl x /etc | xargs sed -i s/a/b/",
            DENY,
            "fs.overwrite_system",
        ),
        ("rg -l x | xargs rm -f", ASK, "fs.delete_workspace_glob"),
        // Output that is not a plain listing, or a tool that runs code: unresolved.
        (
            "git ls-files --format=/etc/passwd | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        (
            "rg -l --pre ./x oldName src | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        (
            "rg -l x src lib | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        (
            "rg -l x $DIR | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        (
            "rg -c x src | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        (
            "grep -l x src | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        // A hidden root (where agent configs live) stays opaque.
        (
            "grep -rl x .claude | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        (
            "rg -l x ./.github/hooks | xargs sed -i s/a/b/",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
    ]);
}

/// `$(mktemp …)` is a NEW entry in the directory mktemp creates it in: temp scratch for the
/// default, `-d`, `-t` and `--tmpdir`; the named place for `-p DIR`, `--tmpdir=DIR` and a
/// template with a directory. Writes and deletes under it are judged by that place.
#[test]
fn mktemp_output_is_a_fresh_entry_where_mktemp_creates_it() {
    table(&[
        ("TMP=$(mktemp -d) && cp -r src \"$TMP\"/", ALLOW, "-"),
        ("TMP=$(mktemp -d) && rm -rf \"$TMP\"", ALLOW, "-"),
        ("f=$(mktemp) && echo hi > \"$f\"", ALLOW, "-"),
        (
            "t=$(mktemp -t build.XXXXXX) && mv \"$t\" data.csv",
            ALLOW,
            "-",
        ),
        (
            "d=$(mktemp -dt ci.XXXX); cd \"$d\" && git clone https://github.com/x/y && rm -rf \"$d\"",
            ALLOW,
            "-",
        ),
        ("rm -rf \"$(mktemp -d)\"", ALLOW, "-"),
        ("t=`mktemp -d`; rm -rf $t/*", ALLOW, "-"),
        ("w=$(mktemp build.XXXX) && echo x > \"$w\"", ALLOW, "-"),
        (
            "d=$(mktemp -p ~/.ssh) && echo x > \"$d\"",
            DENY,
            "fs.overwrite_system",
        ),
        (
            "d=$(mktemp -d -p ~/.ssh) && rm -rf \"$d\"",
            DENY,
            "fs.delete_outside_workspace_recursive",
        ),
        (
            "t=$(mktemp /etc/cron.d/x.XXXX) && echo x > \"$t\"",
            DENY,
            "fs.overwrite_system",
        ),
        (
            "t=$(mktemp --tmpdir=/etc) && echo x > \"$t\"",
            DENY,
            "fs.overwrite_system",
        ),
        (
            "t=$(mktemp ~/.bashrc.XXXX) && echo x > \"$t\"",
            ASK,
            "fs.overwrite_outside_workspace",
        ),
        (
            "TMPDIR=~/.ssh; t=$(mktemp) && echo x > \"$t\"",
            ASK,
            "fs.overwrite_unresolved_target",
        ),
        (
            "t=$(mktemp $DIR/x.XXXX) && rm -rf \"$t\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
        (
            "t=$(mktemp --suffix=.sh) && rm -rf \"$t\"",
            ASK,
            "fs.delete_unresolved_target",
        ),
    ]);
}
