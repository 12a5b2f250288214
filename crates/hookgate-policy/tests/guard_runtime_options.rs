//! Issue 8, held-out false positives of the second corpus, through the whole guard (default
//! policy + analyzer): a runtime's options variable (`NODE_OPTIONS`, `RUBYOPT`, `PERL5OPT`)
//! set to tuning options is not an environment hijack for `no-env-var-modification` either
//! (the guard agrees with the analyzer's `rce.env_hijack`); files listed by search tools and
//! `$(mktemp)` paths are judged by where they are, and the protected set stays protected.
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

#[test]
fn option_variables_listed_files_and_mktemp_paths_are_judged_by_what_they_are() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("export NODE_OPTIONS=--max-old-space-size=4096", ALLOW, ""),
            (
                "export NODE_OPTIONS=\"--max-old-space-size=4096 --enable-source-maps\"",
                ALLOW,
                "",
            ),
            (
                "export NODE_OPTIONS=--openssl-legacy-provider && npm run build",
                ALLOW,
                "",
            ),
            ("export RUBYOPT=-W0", ALLOW, ""),
            ("export PERL5OPT=-w", ALLOW, ""),
            ("export PATH=\"$PWD/node_modules/.bin:$PATH\"", ALLOW, ""),
            ("export PATH=.venv/bin:$PATH", ALLOW, ""),
            ("export NODE_OPTIONS=\"--require ./hook.js\"", ASK, ""),
            ("export NODE_OPTIONS=--import=./x.mjs", ASK, ""),
            ("export NODE_OPTIONS=--inspect=0.0.0.0:9229", ASK, ""),
            ("export NODE_OPTIONS=\"$EXTRA\"", ASK, ""),
            ("export RUBYOPT=-rev", ASK, ""),
            ("export PERL5OPT=-MEvil", ASK, ""),
            ("export LD_PRELOAD=/tmp/evil.so", ASK, ""),
            ("export PATH=./bin:$PATH", ASK, ""),
            // Listed files edited in bulk: the governance files stay protected.
            (
                "rg -l oldName src | xargs sed -i 's/oldName/newName/g'",
                ALLOW,
                "",
            ),
            (
                "grep -rl oldName src | xargs sed -i 's/oldName/newName/g'",
                ALLOW,
                "",
            ),
            (
                "rg -l oldName | xargs sed -i 's/oldName/newName/g'",
                ALLOW,
                "",
            ),
            ("grep -rl hooks .claude | xargs sed -i s/a/b/", ASK, ""),
            ("rg -l x .codex | xargs sed -i s/a/b/", ASK, ""),
            ("sed -i s/a/b/ .claude/settings.json", DENY, ""),
            // Files below the workspace root are workspace files; nothing protected lies
            // there in this context (with `.claude/` tracked they are judged by what the
            // listing can print: self_protection_classes.rs).
            ("grep -rl oldName . | xargs sed -i s/a/b/", ALLOW, ""),
            ("git ls-files | xargs sed -i s/a/b/", ALLOW, ""),
            // mktemp's output is a new entry where mktemp creates it.
            ("TMP=$(mktemp -d) && cp -r src \"$TMP\"/", ALLOW, ""),
            ("TMP=$(mktemp -d) && rm -rf \"$TMP\"", ALLOW, ""),
            ("d=$(mktemp -p ~/.ssh) && echo x > \"$d\"", DENY, ""),
        ],
    );
}
