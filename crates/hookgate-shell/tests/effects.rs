//! What carried code does: one line per case, the command and the effects it must report
//! (every effect of every executed command, as a sorted set of `op path`; `?` = path computed
//! at run time). Covers each API family per language, aliasing, constant concatenation,
//! unresolved targets, heredoc/pipe code, `apply_patch` heredocs, `SetEnv` forms, and
//! negatives (reading code, strings that only mention an API).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

use std::path::PathBuf;

use hookgate_shell::{Action, Analyzer, Context, EffectOp};

fn ctx() -> Context {
    Context::new("/work/proj", Some(PathBuf::from("/home/me")))
}

fn op_name(op: EffectOp) -> &'static str {
    match op {
        EffectOp::Read => "read",
        EffectOp::Write => "write",
        EffectOp::Delete => "delete",
        EffectOp::Move => "move",
        EffectOp::Chmod => "chmod",
        EffectOp::Spawn => "spawn",
        EffectOp::Network => "network",
        EffectOp::SetEnv => "setenv",
    }
}

fn effects(cmd: &str) -> Vec<String> {
    let mut a = Analyzer::new().expect("grammar");
    let analysis = a.analyze(cmd, &ctx());
    let mut out: Vec<String> = analysis
        .commands
        .iter()
        .flat_map(|c| c.effects.iter())
        .map(|e| format!("{} {}", op_name(e.op), e.path.as_deref().unwrap_or("?")))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn check(table: &[(&str, &[&str])]) {
    let mut failures = Vec::new();
    for (cmd, expected) in table {
        let mut want: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
        want.sort();
        let got = effects(cmd);
        if got != want {
            failures.push(format!("{cmd}\n   want {want:?}\n    got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn python_file_writes_deletes_moves_and_chmods_are_effects() {
    check(&[
        (
            r#"python3 -c "open('.claude/settings.json','w').write('{}')""#,
            &["write .claude/settings.json"],
        ),
        (r#"python3 -c "open('a.txt', mode='a')""#, &["write a.txt"]),
        (
            r#"python3 -c "import io; io.open('x', 'wb')""#,
            &["write x"],
        ),
        (
            r#"python -c "from pathlib import Path; Path('.codex/config.toml').write_text('')""#,
            &["write .codex/config.toml"],
        ),
        (
            r#"python -c "import pathlib; p = pathlib.Path('~/.bashrc'); p.unlink()""#,
            &["delete ~/.bashrc"],
        ),
        (
            r#"python3 -c "import os; os.remove('.hookgate/policy.yaml')""#,
            &["delete .hookgate/policy.yaml"],
        ),
        (
            r#"python3 -c "import os; os.unlink('a'); os.rmdir('b'); os.removedirs('c')""#,
            &["delete a", "delete b", "delete c"],
        ),
        (
            r#"python3 -c "import shutil; shutil.rmtree('.claude')""#,
            &["delete .claude"],
        ),
        (
            r#"python3 -c "import os; os.rename('.claude', 'x')""#,
            &["move .claude", "write x"],
        ),
        (
            r#"python3 -c "import os; os.replace('a', 'b')""#,
            &["move a", "write b"],
        ),
        (
            r#"python3 -c "import shutil; shutil.move('a', '/tmp/b')""#,
            &["move a", "write /tmp/b"],
        ),
        (
            r#"python3 -c "import shutil; shutil.copy('evil.json', '.claude/settings.json')""#,
            &["read evil.json", "write .claude/settings.json"],
        ),
        (
            r#"python3 -c "import os; os.chmod('/usr/local/bin/hookgate', 0)""#,
            &["chmod /usr/local/bin/hookgate"],
        ),
        (
            r#"python3 -c "import os; os.chown('x', 0, 0)""#,
            &["chmod x"],
        ),
    ]);
}

#[test]
fn python_aliases_and_constant_paths_are_followed() {
    check(&[
        (
            r#"python3 -c "import shutil as s; s.rmtree('.claude')""#,
            &["delete .claude"],
        ),
        (
            r#"python3 -c "from os import remove; remove('x')""#,
            &["delete x"],
        ),
        (
            r#"python3 -c "from os import remove as r; r('x')""#,
            &["delete x"],
        ),
        (
            r#"python3 -c "from shutil import rmtree as nuke; nuke('/home/me')""#,
            &["delete /home/me"],
        ),
        (
            r#"python3 -c "import shutil; shutil.rmtree('/ho' + 'me/me')""#,
            &["delete /home/me"],
        ),
        (
            r#"python3 -c "import os, shutil; shutil.rmtree(os.path.join('.cl' 'aude', 'x'))""#,
            &["delete .claude/x"],
        ),
        (
            r#"python3 -c "import os; os.remove(os.path.join(os.path.expanduser('~'), '.bashrc'))""#,
            &["delete ~/.bashrc"],
        ),
        (
            r#"python3 -c "import os; d = '.claude'; os.remove(d + '/settings.json')""#,
            &["delete .claude/settings.json"],
        ),
        (
            r#"python3 -c "from pathlib import Path; (Path.home() / '.bashrc').write_text('x')""#,
            &["write ~/.bashrc"],
        ),
        (
            r#"python3 -c "open('\x2eclaude/s','w')""#,
            &["write .claude/s"],
        ),
        (
            r#"python3 -c "open('.' + 'c' + 'l' + 'a' + 'u' + 'd' + 'e' + '/' + 's' + 'x' + 'y', 'w')""#,
            &["write .claude/sxy"],
        ),
    ]);
}

#[test]
fn python_unresolved_targets_have_no_path() {
    check(&[
        (
            r#"python3 -c "import sys; open(sys.argv[1], 'w')""#,
            &["write ?"],
        ),
        (
            r#"python3 -c "import shutil, os; shutil.rmtree(os.getcwd())""#,
            &["delete ?"],
        ),
        (r#"python3 -c "open(f'{x}/a', 'w')""#, &["write ?"]),
        (
            r#"python3 -c "import os; os.rename(a, 'b')""#,
            &["move ?", "write b"],
        ),
        (r#"python3 -c "open('x', m)""#, &["write x"]),
    ]);
}

#[test]
fn python_spawns_network_and_environment_are_effects() {
    check(&[
        (r#"python3 -c "import os; os.system('ls')""#, &["spawn ls"]),
        (
            r#"python3 -c "import subprocess as sp; sp.run(['git', 'status'])""#,
            &["spawn 'git' 'status'"],
        ),
        (
            r#"python3 -c "import subprocess; subprocess.Popen(cmd, shell=True)""#,
            &["spawn ?"],
        ),
        (
            r#"python3 -c "import urllib.request; urllib.request.urlopen('https://example.com')""#,
            &["network https://example.com"],
        ),
        (
            r#"python3 -c "import requests; requests.get(u)""#,
            &["network ?"],
        ),
        (
            r#"python3 -c "import os; os.environ['HOOKGATE_FAIL_MODE'] = 'allow'""#,
            &["setenv HOOKGATE_FAIL_MODE"],
        ),
        (
            r#"python3 -c "import os; os.putenv('HOOKGATE_HOME', '/tmp')""#,
            &["setenv HOOKGATE_HOME"],
        ),
        (
            r#"python3 -c "import os; os.environ.update(HOOKGATE_STORE='x')""#,
            &["setenv HOOKGATE_STORE"],
        ),
    ]);
}

#[test]
fn node_deno_and_bun_effects_are_found() {
    check(&[
        (
            r#"node -e "require('fs').writeFileSync('.claude/settings.json', '{}')""#,
            &["write .claude/settings.json"],
        ),
        (
            r#"node -e "const fs = require('node:fs'); fs.appendFileSync('a', 'b')""#,
            &["write a"],
        ),
        (
            r#"node -e "const {rmSync} = require('fs'); rmSync('.claude', {recursive: true})""#,
            &["delete .claude"],
        ),
        (
            r#"node -e "const {rmSync: r} = require('fs'); r('/home/me')""#,
            &["delete /home/me"],
        ),
        (
            r#"node -e "require('fs').promises.writeFile('x', '')""#,
            &["write x"],
        ),
        (r#"node -e "require('fs/promises').rm('x')""#, &["delete x"]),
        (
            r#"node -e "require('fs').createWriteStream('log')""#,
            &["write log"],
        ),
        (
            r#"node -e "require('fs').unlinkSync('a'); require('fs').rmdirSync('b')""#,
            &["delete a", "delete b"],
        ),
        (
            r#"node -e "require('fs').renameSync('.codex', 'y')""#,
            &["move .codex", "write y"],
        ),
        (
            r#"node -e "require('fs').copyFileSync('a', 'b')""#,
            &["read a", "write b"],
        ),
        (
            r#"node -e "require('fs').chmodSync('/usr/local/bin/hookgate', 0)""#,
            &["chmod /usr/local/bin/hookgate"],
        ),
        (
            r#"node -e "const path = require('path'); require('fs').rmSync(path.join('.cl', 'aude'))""#,
            &["delete .cl/aude"],
        ),
        (
            r#"node -e "require('fs').writeFileSync(process.argv[1], '')""#,
            &["write ?"],
        ),
        (
            r#"node -e "require('fs').writeFileSync(`${d}/x`, '')""#,
            &["write ?"],
        ),
        (
            r#"node -e "require('child_process').execSync('ls')""#,
            &["spawn ls"],
        ),
        (
            r#"node -e "const cp = require('child_process'); cp.spawn('git', ['status'])""#,
            &["spawn 'git' 'status'"],
        ),
        (
            r#"node -e "fetch('https://example.com')""#,
            &["network https://example.com"],
        ),
        (
            r#"node -e "process.env.HOOKGATE_FAIL_MODE = 'allow'""#,
            &["setenv HOOKGATE_FAIL_MODE"],
        ),
        (
            r#"node -e "process.env['HOOKGATE_HOME'] = '/x'""#,
            &["setenv HOOKGATE_HOME"],
        ),
        (
            r#"node --eval "require('fs').writeFileSync('a', '')""#,
            &["write a"],
        ),
        (
            r#"deno eval "Deno.writeTextFileSync('.claude/settings.json', '')""#,
            &["write .claude/settings.json"],
        ),
        (
            r#"deno eval "Deno.removeSync('.gemini')""#,
            &["delete .gemini"],
        ),
        (
            r#"bun -e "Bun.write('.github/workflows/ci.yml', '')""#,
            &["write .github/workflows/ci.yml"],
        ),
        (
            r#"bun -e "require('fs').rmSync('.claude')""#,
            &["delete .claude"],
        ),
    ]);
}

#[test]
fn ruby_effects_are_found() {
    check(&[
        (
            r#"ruby -e "File.write('.claude/settings.json', '{}')""#,
            &["write .claude/settings.json"],
        ),
        (r#"ruby -e "IO.write('a', 'b')""#, &["write a"]),
        (
            r#"ruby -e "File.open('a', 'w') { |f| f.puts 1 }""#,
            &["write a"],
        ),
        (r#"ruby -e "File.open('a') { |f| f.read }""#, &["read a"]),
        (
            r#"ruby -e "require 'fileutils'; FileUtils.rm_rf('.claude')""#,
            &["delete .claude"],
        ),
        (
            r#"ruby -e "FileUtils.rm_r('a'); FileUtils.rm('b'); FileUtils.remove_dir('c')""#,
            &["delete a", "delete b", "delete c"],
        ),
        (
            r#"ruby -e "File.delete('a'); File.unlink('b')""#,
            &["delete a", "delete b"],
        ),
        (r#"ruby -e "File.rename('a', 'b')""#, &["move a", "write b"]),
        (
            r#"ruby -e "FileUtils.mv('.codex', '/tmp/x')""#,
            &["move .codex", "write /tmp/x"],
        ),
        (
            r#"ruby -e "FileUtils.cp('a', 'b')""#,
            &["read a", "write b"],
        ),
        (
            r#"ruby -e "File.chmod(0, '/usr/local/bin/hookgate')""#,
            &["chmod /usr/local/bin/hookgate"],
        ),
        (r#"ruby -e "FileUtils.chmod(0755, 'x')""#, &["chmod x"]),
        (
            r#"ruby -e "File.write(File.join('.claude', 'settings.json'), '')""#,
            &["write .claude/settings.json"],
        ),
        (
            r#"ruby -e "File.write('.cl' + 'aude/x', '')""#,
            &["write .claude/x"],
        ),
        (r##"ruby -e "File.write(\"#{d}/x\", '')""##, &["write ?"]),
        (r#"ruby -e "system('ls')""#, &["spawn ls"]),
        (r#"ruby -e "IO.popen('ls')""#, &["spawn ls"]),
        (r"ruby -e '`ls`'", &["spawn ls"]),
        (r"ruby -e '%x(ls)'", &["spawn ls"]),
        (
            r#"ruby -e "require 'net/http'; Net::HTTP.get(URI('https://example.com'))""#,
            &["network ?"],
        ),
        (
            r#"ruby -e "ENV['HOOKGATE_FAIL_MODE'] = 'allow'""#,
            &["setenv HOOKGATE_FAIL_MODE"],
        ),
    ]);
}

#[test]
fn perl_effects_are_found() {
    check(&[
        (
            r#"perl -e "open(my \$f, '>', '.claude/settings.json')""#,
            &["write .claude/settings.json"],
        ),
        (r#"perl -e 'open(F, ">>log.txt")'"#, &["write log.txt"]),
        (r#"perl -e 'open(F, "<in.txt")'"#, &["read in.txt"]),
        (r#"perl -e 'open(F, ">", $x)'"#, &["write ?"]),
        (
            r#"perl -e 'unlink ".claude/settings.json"'"#,
            &["delete .claude/settings.json"],
        ),
        (r#"perl -e 'unlink("a", "b")'"#, &["delete a", "delete b"]),
        (
            r#"perl -MFile::Path -e 'rmtree(".claude")'"#,
            &["delete .claude"],
        ),
        (
            r#"perl -e 'use File::Path qw(remove_tree); remove_tree("/home/me")'"#,
            &["delete /home/me"],
        ),
        (
            r#"perl -e 'rename ".codex", "x"'"#,
            &["move .codex", "write x"],
        ),
        (
            r#"perl -e 'chmod 0755, "/usr/local/bin/hookgate"'"#,
            &["chmod /usr/local/bin/hookgate"],
        ),
        (r#"perl -e 'system("ls")'"#, &["spawn ls"]),
        (r"perl -e 'print `ls`'", &["spawn ls"]),
        (
            r#"perl -e '$ENV{HOOKGATE_FAIL_MODE} = "allow"'"#,
            &["setenv HOOKGATE_FAIL_MODE"],
        ),
        (
            r#"perl -e 'use LWP::Simple; getstore("https://example.com", "f")'"#,
            &["network https://example.com"],
        ),
    ]);
}

#[test]
fn php_effects_are_found() {
    check(&[
        (
            r#"php -r "file_put_contents('.claude/settings.json', '{}');""#,
            &["write .claude/settings.json"],
        ),
        (r#"php -r "fopen('a', 'w');""#, &["write a"]),
        (r#"php -r "fopen('a', 'r');""#, &["read a"]),
        (
            r#"php -r "unlink('.hookgate/policy.yaml');""#,
            &["delete .hookgate/policy.yaml"],
        ),
        (r#"php -r "rmdir('d');""#, &["delete d"]),
        (r#"php -r "rename('a', 'b');""#, &["move a", "write b"]),
        (r#"php -r "copy('a', 'b');""#, &["read a", "write b"]),
        (
            r#"php -r "chmod('/usr/local/bin/hookgate', 0);""#,
            &["chmod /usr/local/bin/hookgate"],
        ),
        (
            r#"php -r "file_put_contents('.cl' . 'aude/x', '');""#,
            &["write .claude/x"],
        ),
        (r#"php -r 'file_put_contents("$d/x", "");'"#, &["write ?"]),
        (r#"php -r "shell_exec('ls');""#, &["spawn ls"]),
        (r#"php -r "system('ls');""#, &["spawn ls"]),
        (
            r#"php -r "putenv('HOOKGATE_FAIL_MODE=allow');""#,
            &["setenv HOOKGATE_FAIL_MODE"],
        ),
        (
            r#"php -r "\$_ENV['HOOKGATE_HOME'] = 'x';""#,
            &["setenv HOOKGATE_HOME"],
        ),
    ]);
}

#[test]
fn code_arriving_by_heredoc_herestring_or_pipe_is_parsed() {
    check(&[
        (
            "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('.claude')\nEOF",
            &["delete .claude"],
        ),
        (
            "python3 <<EOF\nopen('.claude/settings.json', 'w')\nEOF",
            &["write .claude/settings.json"],
        ),
        (
            "node <<'EOF'\nrequire('fs').rmSync('.codex')\nEOF",
            &["delete .codex"],
        ),
        (
            "ruby <<< \"File.write('.gemini/settings.json', '')\"",
            &["write .gemini/settings.json"],
        ),
        (
            "echo \"import os; os.remove('x')\" | python3",
            &["delete x"],
        ),
        (
            "printf '%s' \"require('fs').unlinkSync('y')\" | node",
            &["delete y"],
        ),
    ]);
}

#[test]
fn apply_patch_heredocs_are_file_effects() {
    check(&[
        (
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .hookgate/policy.yaml\n+rules: []\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** Delete File: .env\n*** End Patch\nEOF",
            &[
                "write .hookgate/policy.yaml",
                "write src/a.rs",
                "delete .env",
            ],
        ),
        (
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n*** Move to: ~/.bashrc\n@@\n-a\n+b\n*** End Patch\nEOF",
            &["move a.txt", "write ~/.bashrc"],
        ),
        (
            "applypatch <<< '*** Begin Patch\n*** Add File: .github/workflows/ci.yml\n+x\n*** End Patch'",
            &["write .github/workflows/ci.yml"],
        ),
        ("apply_patch < \"$PATCH\"", &["write ?"]),
        ("cat p.diff | apply_patch", &["write ?"]),
    ]);
}

#[test]
fn shell_environment_assignments_are_set_env_effects() {
    check(&[
        (
            "HOOKGATE_FAIL_MODE=allow git status",
            &["setenv HOOKGATE_FAIL_MODE"],
        ),
        (
            "export HOOKGATE_ASK_FALLBACK=allow",
            &["setenv HOOKGATE_ASK_FALLBACK"],
        ),
        (
            "declare -x HOOKGATE_STORE=/tmp/x",
            &["setenv HOOKGATE_STORE"],
        ),
        ("typeset -x HOOKGATE_HOME=/tmp/x", &["setenv HOOKGATE_HOME"]),
        (
            "env HOOKGATE_CONFIG_DIR=/tmp/x claude",
            &["setenv HOOKGATE_CONFIG_DIR"],
        ),
        ("sudo HOOKGATE_HOME=/tmp/x ls", &["setenv HOOKGATE_HOME"]),
        ("A=1 B=2 make", &["setenv A", "setenv B"]),
        ("X=1; export X", &["setenv X"]),
        ("unset HOOKGATE_HOME", &[]),
        // Quote removal and expansion come before bash reads the declared name.
        (
            "export \"HOOKGATE_FAIL_MODE\"=open",
            &["setenv HOOKGATE_FAIL_MODE"],
        ),
        ("export 'HOOKGATE_HOME'", &["setenv HOOKGATE_HOME"]),
        // A name computed from a variable assigned on the line is that variable's value;
        // one only known at run time is kept as written (the caller cannot place it).
        ("V=X; export $V=open", &["setenv V", "setenv X"]),
        (
            "V=HOOKGATE_FAIL_MODE; export \"$V\"=open",
            &["setenv V", "setenv HOOKGATE_FAIL_MODE"],
        ),
        ("export $V=open", &["setenv $V"]),
        ("V=$(cat f); export $V=open", &["setenv V", "setenv $V"]),
        (
            "if x; then V=A; else V=B; fi; export $V=1",
            &["setenv V", "setenv $V"],
        ),
        // `env -u NAME` changes NAME for the command as much as setting it.
        (
            "env -u HOOKGATE_HOME hookgate hook claude",
            &["setenv HOOKGATE_HOME"],
        ),
        ("env --unset=HOOKGATE_STORE ls", &["setenv HOOKGATE_STORE"]),
        // An emptied environment (`-i`, POSIX `-`) changes HOME and PATH for the command.
        ("env -i claude -p hi", &["setenv HOME", "setenv PATH"]),
        ("env - codex exec hi", &["setenv HOME", "setenv PATH"]),
        (
            "env --ignore-environment X=1 make",
            &["setenv HOME", "setenv PATH", "setenv X"],
        ),
    ]);
}

#[test]
fn unset_through_the_grammar_is_recorded_like_the_plain_words_form() {
    let mut a = Analyzer::new().expect("grammar");
    for line in [
        "unset HOOKGATE_HOME",
        "unset -v \"HOOKGATE_HOME\"",
        "true; unset HOOKGATE_HOME",
    ] {
        let found = a.analyze(line, &ctx());
        assert!(
            found
                .commands
                .iter()
                .any(|c| c.argv.first().is_some_and(|p| p == "unset")
                    && c.argv.iter().any(|w| w == "HOOKGATE_HOME")),
            "{line}: {:?}",
            found.commands
        );
    }
}

#[test]
fn stdin_text_reaches_the_command_it_is_fed_to() {
    let mut a = Analyzer::new().expect("grammar");
    let fed = |a: &mut Analyzer, line: &str, program: &str| -> Option<(String, bool)> {
        a.analyze(line, &ctx())
            .commands
            .into_iter()
            .find(|c| c.argv.first().is_some_and(|p| p == program))
            .and_then(|c| c.stdin)
            .map(|s| (s.text, s.exact))
    };
    let body = fed(&mut a, "cat >> .envrc <<'EOF'\nexport A=1\nEOF", "cat");
    assert_eq!(body, Some(("export A=1\n".to_owned(), true)));
    let body = fed(&mut a, "patch -p1 <<EOF\n--- a/$X\nEOF", "patch");
    assert!(body.is_some_and(|(t, exact)| t.contains("--- a/") && !exact));
    assert_eq!(
        fed(&mut a, "git apply <<< 'x'", "git"),
        Some(("x".to_owned(), true))
    );
    assert_eq!(
        fed(&mut a, "echo hi | sudo tee -a f", "tee"),
        Some(("hi".to_owned(), true))
    );
    // The grammar hangs a heredoc after a list's last command on the list; bash gives it
    // to that command.
    let body = fed(&mut a, "cd d && patch -p1 <<'EOF'\n--- a/x\nEOF", "patch");
    assert_eq!(body, Some(("--- a/x\n".to_owned(), true)));
    assert_eq!(
        fed(&mut a, "cd d && patch -p1 <<'EOF'\n--- a/x\nEOF", "cd"),
        None
    );
    // `xargs` does not hand its input to the command it runs.
    assert_eq!(fed(&mut a, "xargs rm <<< f", "rm"), None);
    assert_eq!(fed(&mut a, "cat f | sort", "sort"), None);
}

#[test]
fn code_that_only_reads_or_mentions_an_api_has_no_file_effect() {
    check(&[
        (r#"python3 -c "print('hello')""#, &[]),
        (r#"python3 -c "print(\"open('x','w')\")""#, &[]),
        (
            r#"python3 -c "import json; print(json.load(open('package.json')))""#,
            &["read package.json"],
        ),
        (r#"python3 -c "x = [1]; x.remove(1)""#, &[]),
        (r#"node -e "console.log('fs.rmSync(\"/\")')""#, &[]),
        (r#"node -p "require('./package.json').version""#, &[]),
        (r#"ruby -e "puts 'File.delete(\"x\")'""#, &[]),
        (r"perl -ne 'print if /unlink/' file", &[]),
        (r#"php -r "echo 'unlink(\"x\")';""#, &[]),
        ("echo 'rm -rf /' > notes.txt", &[]),
    ]);
}

#[test]
fn unresolved_one_liner_writes_ask_and_protected_targets_stay_dangerous() {
    let mut a = Analyzer::new().expect("grammar");
    let write_unknown = a.analyze(r#"python3 -c "import sys; open(sys.argv[1], 'w')""#, &ctx());
    assert_eq!(write_unknown.action(), Action::Ask);
    let home = a.analyze(
        r#"python3 -c "import shutil as s; s.rmtree('/home/me')""#,
        &ctx(),
    );
    assert_eq!(home.action(), Action::Deny);
    let profile = a.analyze(
        r#"node -e "require('fs').appendFileSync('/home/me/.bashrc', 'x')""#,
        &ctx(),
    );
    assert_eq!(profile.action(), Action::Deny);
    let local = a.analyze(r#"python3 -c "open('out.txt','w').write('x')""#, &ctx());
    assert_eq!(local.action(), Action::Allow);
    let dynamic = a.analyze(
        r#"python3 -c "exec(__import__('base64').b64decode(x))""#,
        &ctx(),
    );
    assert_eq!(dynamic.verdict.rule_id.as_deref(), Some("rce.dynamic_code"));
    assert_eq!(dynamic.action(), Action::Ask);
    let shell_out = a.analyze(r#"ruby -e "system('rm -rf /home/me')""#, &ctx());
    assert_eq!(shell_out.action(), Action::Deny);
}

#[test]
fn xargs_items_from_literal_input_are_substituted() {
    let mut a = Analyzer::new().expect("grammar");
    let rm_argv = |a: &mut Analyzer, line: &str| -> Vec<String> {
        a.analyze(line, &ctx())
            .commands
            .into_iter()
            .find(|c| c.argv.first().is_some_and(|p| p == "rm"))
            .map(|c| c.argv)
            .unwrap_or_default()
    };
    // One item per line with `%s\n`; literal items are the command's words (blank- and
    // newline-separated), quoted ones or items read with `-0`/`-d`/`-a` stay unresolved.
    assert_eq!(
        rm_argv(&mut a, "printf '%s\\n' .claude | xargs rm -rf"),
        ["rm", "-rf", ".claude"]
    );
    assert_eq!(
        rm_argv(&mut a, "printf '%s\\n' a .claude | xargs rm -rf"),
        ["rm", "-rf", "a", ".claude"]
    );
    assert_eq!(
        rm_argv(&mut a, "printf '%s\\n' \"'a b'\" | xargs rm -rf"),
        ["rm", "-rf", "{stdin}"]
    );
    for options in ["-0", "-r0", "-d '\\n'", "--null", "-a list"] {
        assert_eq!(
            rm_argv(
                &mut a,
                &format!("printf '%s\\n' .claude | xargs {options} rm -rf")
            ),
            ["rm", "-rf", "{stdin}"],
            "{options}"
        );
    }
    // `-I{}` with the replacement string attached.
    assert_eq!(
        rm_argv(&mut a, "xargs -I{} rm -rf {} <<< .claude"),
        ["rm", "-rf", ".claude"]
    );
}

#[test]
fn code_that_changes_directory_moves_its_relative_targets() {
    check(&[
        (
            r#"python3 -c "import os; os.chdir('.claude'); os.remove('settings.json')""#,
            &["delete .claude/settings.json"],
        ),
        (
            r#"python3 -c "import os; os.chdir('a'); os.chdir('b'); open('f','w')""#,
            &["write a/b/f"],
        ),
        (
            r#"python3 -c "import os; os.chdir('/etc'); os.remove('x')""#,
            &["delete /etc/x"],
        ),
        (
            r#"python3 -c "import os,sys; os.chdir(sys.argv[1]); os.remove('settings.json')""#,
            &["delete ?"],
        ),
        (
            r#"node --eval "process.chdir('.claude'); require('fs').unlinkSync('settings.json')""#,
            &["delete .claude/settings.json"],
        ),
        (
            r#"ruby -e "Dir.chdir('.codex'); File.delete('hooks.json')""#,
            &["delete .codex/hooks.json"],
        ),
        (
            r#"php -r "chdir('.claude'); unlink('settings.json');""#,
            &["delete .claude/settings.json"],
        ),
        // Absolute targets do not move.
        (
            r#"python3 -c "import os; os.chdir('x'); os.remove('/tmp/y')""#,
            &["delete /tmp/y"],
        ),
    ]);
}

#[test]
fn dynamic_imports_and_values_of_unknown_type_still_name_their_file_api() {
    check(&[
        (
            r#"node -e "import('fs').then(m=>m.unlinkSync('.claude/settings.json'))""#,
            &["delete .claude/settings.json"],
        ),
        (
            r#"node -e "import('node:fs').then(function (f) { f.writeFileSync('x', '') })""#,
            &["write x"],
        ),
        (
            r#"node -e "(async()=>{const fs=await import('fs'); fs.rmSync('d',{recursive:true})})()""#,
            &["delete d"],
        ),
        // The receiver of a glob loop is the pattern it iterates: the delete is kept, with the
        // pattern as its target (the policy asks about it: its files are known at run time).
        (
            r#"python3 -c "import pathlib; [p.unlink() for p in pathlib.Path('.').rglob('*.json')]""#,
            &["delete ./**/*.json"],
        ),
        (
            r#"python3 -c "import glob,pathlib; [pathlib.Path(f).write_text('') for f in glob.glob('*')]""#,
            &["write *"],
        ),
        // Names shared with non-file APIs stay data.
        (
            r#"python3 -c "x=[1]; x.remove(1); 'a'.replace('a','b')""#,
            &[],
        ),
        (r#"node -e "fetch(u).then(r => r.text())""#, &["network ?"]),
    ]);
}

#[test]
fn databases_opened_from_code_are_written_unless_read_only() {
    check(&[
        (
            r#"python3 -c "import sqlite3; sqlite3.connect('/d/audit.db').execute('delete from r')""#,
            &["write /d/audit.db"],
        ),
        (
            r#"python3 -c "import sqlite3; sqlite3.connect('file:/d/audit.db?mode=ro', uri=True)""#,
            &["read /d/audit.db"],
        ),
        (
            r#"node -e "const D=require('better-sqlite3'); new D('/d/a.db').exec('delete from r')""#,
            &["write /d/a.db"],
        ),
        (
            r#"ruby -e "SQLite3::Database.new('/d/a.db').execute('delete from r')""#,
            &["write /d/a.db"],
        ),
        (
            r#"php -r '$d = new SQLite3("/d/a.db"); $d->exec("delete from r");'"#,
            &["write /d/a.db"],
        ),
    ]);
}
