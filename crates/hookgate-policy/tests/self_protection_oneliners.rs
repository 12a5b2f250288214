//! Interpreter one-liners against the protected set, through real command lines: the shell
//! analyzer parses the carried code (python, node, ruby, perl, php, deno, bun) into
//! `ExecutedCommand::effects`, and `no-governance-self-modification` judges them. Prefix
//! assignments and `env` wrappers arrive as `SetEnv` effects the same way.
//!
//! These depend on the analyzer filling `effects` (the interpreter-parsing branch); the
//! policy side is also covered with constructed effects in `invariants.rs` unit tests.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use common::*;
use hookgate_core::CanonicalCall;

const ID: &str = "no-governance-self-modification";

#[track_caller]
fn check(cases: &[(&str, CanonicalCall, Want)]) {
    check_invariant(ID, &protected_ctx(), cases);
}

#[test]
fn one_liners_that_rewrite_or_delete_the_protected_set_are_denied() {
    use Want::*;
    check(&[
        (
            "python open(w)",
            bash(r#"python3 -c "open('.claude/settings.json','w').write('{}')""#),
            Deny,
        ),
        (
            "python shutil.rmtree",
            bash(r#"python3 -c "import shutil; shutil.rmtree('.claude')""#),
            Deny,
        ),
        (
            "python os.remove",
            bash(r#"python3 -c "import os; os.remove('/home/u/.codex/hooks.json')""#),
            Deny,
        ),
        (
            "python os.chmod binary",
            bash(r#"python3 -c "import os; os.chmod('/opt/hg/bin/hookgate', 0)""#),
            Deny,
        ),
        (
            "python os.rename",
            bash(r#"python3 -c "import os; os.rename('.claude', 'x')""#),
            Deny,
        ),
        (
            "node writeFileSync",
            bash(r#"node -e "require('fs').writeFileSync('.claude/settings.json','{}')""#),
            Deny,
        ),
        (
            "node rmSync",
            bash(r#"node -e "require('fs').rmSync('.gemini',{recursive:true})""#),
            Deny,
        ),
        (
            "ruby File.write",
            bash(r#"ruby -e "File.write('.gemini/settings.json','{}')""#),
            Deny,
        ),
        (
            "perl unlink",
            bash(r#"perl -e 'unlink ".claude/settings.json"'"#),
            Deny,
        ),
        (
            "php unlink",
            bash(r#"php -r "unlink('.hookgate/policy.yaml');""#),
            Deny,
        ),
        (
            "deno removeSync",
            bash(r#"deno eval "Deno.removeSync('.claude', {recursive: true})""#),
            Deny,
        ),
        (
            "bun unlinkSync",
            bash(r#"bun -e "require('fs').unlinkSync('.claude/settings.json')""#),
            Deny,
        ),
        (
            "python truncates the audit db",
            bash(r#"python3 -c "open('/data/hg/audit.db','w')""#),
            Deny,
        ),
    ]);
}

#[test]
fn setting_hookgate_variables_from_a_command_is_denied() {
    use Want::*;
    check(&[
        (
            "prefix assignment",
            bash("HOOKGATE_FAIL_MODE=open claude -p hi"),
            Deny,
        ),
        (
            "env wrapper",
            bash("env HOOKGATE_STORE=/dev/null codex exec x"),
            Deny,
        ),
        (
            "python os.environ",
            bash(
                r#"python3 -c "import os; os.environ['HOOKGATE_ASK_FALLBACK']='allow'; os.system('claude')""#,
            ),
            Deny,
        ),
        (
            "node process.env",
            bash(
                r#"node -e "process.env.HOOKGATE_HOME='/tmp'; require('child_process').execSync('claude')""#,
            ),
            Deny,
        ),
        (
            "other prefix assignment",
            bash("RUST_LOG=debug cargo test"),
            Quiet,
        ),
    ]);
}

#[test]
fn one_liners_whose_targets_cannot_be_placed_are_asked_about() {
    use Want::*;
    check(&[
        (
            "python computed path",
            bash(r#"python3 -c "import os; open(os.environ['F'],'w').write('x')""#),
            Ask,
        ),
        (
            "node computed path",
            bash(r#"node -e "require('fs').writeFileSync(process.env.F,'x')""#),
            Ask,
        ),
        (
            "python reads settings",
            bash(r#"python3 -c "print(open('.claude/settings.json').read())""#),
            Quiet,
        ),
        (
            "node writes an ordinary file",
            bash(r#"node -e "require('fs').writeFileSync('out.txt','x')""#),
            Quiet,
        ),
    ]);
}

#[test]
fn one_liners_that_change_directory_load_modules_dynamically_or_open_the_store_are_followed() {
    use Want::*;
    check(&[
        (
            "python chdir then remove",
            bash(r#"python3 -c "import os; os.chdir('.claude'); os.remove('settings.json')""#),
            Deny,
        ),
        (
            "python chdir twice",
            bash(
                r#"python3 -c "import os; os.chdir('.hookgate'); os.chdir('..'); os.chdir('.claude'); open('settings.json','w')""#,
            ),
            Deny,
        ),
        (
            "python chdir then shell",
            bash(r#"python3 -c "import os; os.chdir('.claude'); os.system('rm settings.json')""#),
            Deny,
        ),
        (
            "python chdir to a computed place",
            bash(
                r#"python3 -c "import os,sys; os.chdir(sys.argv[1]); os.remove('settings.json')" .claude"#,
            ),
            Ask,
        ),
        (
            "node --eval chdir",
            bash(
                r#"node --eval "process.chdir('.claude'); require('fs').unlinkSync('settings.json')""#,
            ),
            Deny,
        ),
        (
            "ruby Dir.chdir",
            bash(r#"ruby -e "Dir.chdir('/work/proj/.claude'); File.delete('settings.json')""#),
            Deny,
        ),
        (
            "node dynamic import then",
            bash(r#"node -e "import('fs').then(m=>m.unlinkSync('.claude/settings.json'))""#),
            Deny,
        ),
        (
            "node dynamic import await",
            bash(
                r#"node -e "(async () => { const fs = await import('node:fs'); fs.rmSync('.claude', {recursive: true}) })()""#,
            ),
            Deny,
        ),
        (
            "node dynamic import function callback",
            bash(
                r#"node -e "import('fs').then(function (f) { f.writeFileSync('/home/u/.codex/hooks.json', '{}') })""#,
            ),
            Deny,
        ),
        (
            "python sqlite against the store",
            bash(
                r#"python3 -c "import sqlite3; sqlite3.connect('/data/hg/audit.db').execute('delete from records')""#,
            ),
            Deny,
        ),
        (
            "python sqlite aliased",
            bash(
                r#"python3 -c "import sqlite3 as s; c = s.connect('/data/hg/audit.db'); c.execute('drop table records')""#,
            ),
            Deny,
        ),
        (
            "node better-sqlite3 against the store",
            bash(
                r#"node -e "const D = require('better-sqlite3'); new D('/data/hg/audit.db').exec('delete from records')""#,
            ),
            Deny,
        ),
        // Placed as `find . -name '*.json' -delete` since round 22 (fp11): it selects
        // `.claude/settings.json`, so it is denied rather than asked about as unplaced.
        (
            "python rglob-driven unlink",
            bash(
                r#"python3 -c "import pathlib; [p.unlink() for p in pathlib.Path('.').rglob('*.json')]""#,
            ),
            Deny,
        ),
        (
            // A one-level pattern is placed like the shell glob it amounts to: `.c*/*.json`
            // reaches `.claude/settings.json`, so it is denied as `echo > .c*/*.json` is.
            "python glob-driven write_text",
            bash(
                r#"python3 -c "import glob, pathlib; [pathlib.Path(f).write_text('') for f in glob.glob('.c*/*.json')]""#,
            ),
            Deny,
        ),
        // Benign look-alikes.
        (
            "python sqlite read-only URI",
            bash(
                r#"python3 -c "import sqlite3; sqlite3.connect('file:/data/hg/audit.db?mode=ro', uri=True)""#,
            ),
            Quiet,
        ),
        (
            "python sqlite on a project db",
            bash(
                r#"python3 -c "import sqlite3; sqlite3.connect('app.db').execute('delete from t')""#,
            ),
            Quiet,
        ),
        (
            "python chdir then ordinary write",
            bash(r#"python3 -c "import os; os.chdir('build'); open('out.txt','w')""#),
            Quiet,
        ),
        (
            "python list.remove",
            bash(r#"python3 -c "x = [1, 2]; x.remove(1); print(x)""#),
            Quiet,
        ),
        (
            "node dynamic import that only reads",
            bash(
                r#"node -e "import('fs').then(m => console.log(m.readFileSync('.claude/settings.json', 'utf8')))""#,
            ),
            Quiet,
        ),
    ]);
}
