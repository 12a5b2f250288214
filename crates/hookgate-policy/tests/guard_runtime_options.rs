//! Issue 8: a runtime's options variable (`NODE_OPTIONS`, `RUBYOPT`, `PERL5OPT`) set to
//! tuning options is not an environment hijack for the invariant
//! `no-env-var-modification` either — the guard agrees with the analyzer's
//! `rce.env_hijack`. One line per case through the whole guard (default policy + analyzer).
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
fn runtime_tuning_options_and_listed_files_are_judged_by_what_they_are() {
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
            ("grep -rl oldName . | xargs sed -i s/a/b/", ASK, ""),
            ("git ls-files | xargs sed -i s/a/b/", ASK, ""),
        ],
    );
}
