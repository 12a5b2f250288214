//! Round 31 (lead): the whole verdict (rules and invariants) on the round's decisions — a
//! read-only Salt function under sudo, npm's option prefixes for publishing, volumes and
//! container brokers judged by name.
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

/// sudo of a Salt function that only reports is a read under sudo, as `sudo fdisk -l` is; a
/// state run under sudo keeps the escalation ask.
#[test]
fn sudo_of_a_read_only_salt_function_is_a_read() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("sudo salt 'web*' test.ping", ALLOW, ""),
            ("sudo salt '*' grains.items", ALLOW, ""),
            ("sudo salt '*' state.apply", ASK, "no-permission-escalation"),
            (
                "sudo salt '*' pillar.items",
                ASK,
                "no-permission-escalation",
            ),
        ],
    );
}

/// The publish invariant reads npm's options as the shell analyzer does: one reading of
/// `--dry`, and the last of `--dry-run`/`--no-dry-run`.
#[test]
fn publish_dry_runs_are_read_through_the_option_tables() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("npm publish --dry", ALLOW, ""),
            ("npm publish --dry-run=true", ALLOW, ""),
            ("cargo publish -n", ALLOW, ""),
            ("npm publish --d", DENY, "destructive-shell"),
            (
                "npm publish --dry-run --no-dry-run",
                DENY,
                "destructive-shell",
            ),
            ("npm publish --dry-run=false", DENY, "destructive-shell"),
        ],
    );
}

/// Volumes and container brokers: the shell analyzer's name reading reaches the verdict.
#[test]
fn local_volumes_and_brokers_reach_the_verdict_by_name() {
    check_table(
        &Policy::builtin_default(),
        &ctx(),
        &[
            ("docker volume rm app_pgdata_dev", ALLOW, ""),
            (
                "docker compose exec rabbitmq rabbitmqctl purge_queue test_jobs",
                ALLOW,
                "",
            ),
            ("docker compose down -v", ASK, "destructive-shell"),
            ("docker volume rm pgdata_prod", DENY, "destructive-shell"),
        ],
    );
}

/// [`judge_after_write`] with the reason as text.
fn after_write(file: &str, content: &str, command: &str) -> (Option<Decision>, String) {
    let (decision, reason) = judge_after_write(file, content, command);
    (decision, reason.unwrap_or_default())
}

/// A Python script run from a file knows its own path (`__file__`): paths it builds from it
/// (`Path(__file__).resolve().parent.parent / 'tmp'`, `os.path.dirname(__file__)`) are
/// judged where they lead — the workspace's scratch passes, its `.git` is dangerous code (asked,
/// as every dangerous written script is), a path from the command line stays unresolved.
#[test]
fn a_written_python_script_knows_its_own_path() {
    const PRUNE: &str = "import pathlib, shutil\n\nroot = pathlib.Path(__file__).resolve().parent.parent / 'tmp'\nfor p in root.glob('run-*'):\n    shutil.rmtree(p, ignore_errors=True)\nprint('pruned')\n";
    const HERE: &str = "import os, shutil\n\nhere = os.path.dirname(os.path.abspath(__file__))\nshutil.rmtree(os.path.join(here, 'build'))\n";
    const CLIMB: &str = "import pathlib, shutil\n\nroot = pathlib.Path(__file__).parent.parent\nshutil.rmtree(root / '.git')\n";
    const UNKNOWN: &str = "import shutil, sys\n\nshutil.rmtree(sys.argv[1])\n";
    let cases = [
        (
            "scripts/prune_tmp.py",
            PRUNE,
            "python3 scripts/prune_tmp.py",
            ALLOW,
            "",
        ),
        (
            "scripts/clean.py",
            HERE,
            "python3 scripts/clean.py",
            ALLOW,
            "",
        ),
        (
            "scripts/x.py",
            CLIMB,
            "python3 scripts/x.py",
            ASK,
            "would run dangerous code",
        ),
        (
            "scripts/y.py",
            UNKNOWN,
            "python3 scripts/y.py",
            ASK,
            "write-then-execute",
        ),
    ];
    let mut wrong = Vec::new();
    for (file, content, command, want, says) in cases {
        let (got, reason) = after_write(file, content, command);
        if got != want || !reason.contains(says) {
            wrong.push(format!(
                "{file}: want {want:?} ({says}), got {got:?} ({reason})"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Node scripts know `__dirname` and `__filename` the same way.
#[test]
fn a_written_node_script_knows_its_own_directory() {
    const CLEAN: &str = "const fs = require('fs');\nconst path = require('path');\nfs.rmSync(path.join(__dirname, '..', 'dist'), { recursive: true, force: true });\n";
    const GIT: &str = "const fs = require('fs');\nconst path = require('path');\nfs.rmSync(path.join(__dirname, '..', '.git'), { recursive: true, force: true });\n";
    let (got, reason) = after_write("scripts/clean.js", CLEAN, "node scripts/clean.js");
    assert_eq!(got, ALLOW, "{reason}");
    let (got, reason) = after_write("scripts/wipe.js", GIT, "node scripts/wipe.js");
    assert_eq!(got, ASK, "{reason}");
    assert!(reason.contains("would run dangerous code"), "{reason}");
}

/// `rclone sync` from an existing empty workspace directory mirrors nothing onto the remote
/// (everything there is deleted): asked; one holding the build output is a deploy.
#[test]
fn rclone_mirror_of_an_empty_workspace_directory_asks() {
    let (_root, ctx) = disk_workspace();
    std::fs::create_dir_all(ctx.workspace.join("empty")).unwrap();
    put(&ctx, "site/index.html", "<h1>hi</h1>\n");
    check_table(
        &Policy::builtin_default(),
        &ctx,
        &[
            (
                "rclone sync empty b2:acme-archive",
                ASK,
                "destructive-shell",
            ),
            ("rclone sync site b2:acme-site", ALLOW, ""),
        ],
    );
}

/// A credential file below an uploaded directory (`api/.env`) leaves with the tree as one at
/// its top does; the tools' own exclusions are read the tool's way (rsync matches a bare name
/// at any level, aws matches the path below the source).
#[test]
fn a_credential_file_in_a_subdirectory_leaves_with_the_tree() {
    let (_root, ctx) = disk_workspace();
    put(&ctx, "api/.env", "SECRET_KEY=abc123\n");
    put(&ctx, "api/main.py", "print('hi')\n");
    check_table(
        &Policy::builtin_default(),
        &ctx,
        &[
            (
                "rsync -a ./ deploy@web1:/srv/app/",
                ASK,
                "destructive-shell",
            ),
            ("rclone copy . remote:bucket", ASK, "destructive-shell"),
            (
                "aws s3 sync . s3://bucket --exclude '.env'",
                ASK,
                "destructive-shell",
            ),
            (
                "rsync -a --exclude .env ./ deploy@web1:/srv/app/",
                ALLOW,
                "",
            ),
            ("aws s3 sync . s3://bucket --exclude '*.env'", ALLOW, ""),
            ("rsync -a --exclude api ./ deploy@web1:/srv/app/", ALLOW, ""),
        ],
    );
}

/// `npm publish --registry http://localhost:4873` publishes to a registry on this machine only
/// when the package does not redirect its publish: `publishConfig` naming a registry, or a
/// scoped name whose scope has a registry in `.npmrc`, overrides the flag.
#[test]
fn npm_publish_to_a_local_registry_reads_where_the_package_goes() {
    let policy = Policy::builtin_default();
    let local = "npm publish --registry http://localhost:4873";
    for (files, line, want) in [
        (
            &[("package.json", r#"{"name":"acme-ui","version":"1.0.0"}"#)][..],
            local,
            ALLOW,
        ),
        (
            &[("package.json", r#"{"name":"@acme/ui","version":"1.0.0"}"#)][..],
            "npm publish --registry=http://127.0.0.1:4873/",
            ALLOW,
        ),
        (
            &[(
                "package.json",
                r#"{"name":"acme-ui","publishConfig":{"registry":"https://registry.npmjs.org/"}}"#,
            )][..],
            local,
            DENY,
        ),
        (
            &[
                ("package.json", r#"{"name":"@acme/ui","version":"1.0.0"}"#),
                (".npmrc", "@acme:registry=https://npm.pkg.github.com\n"),
            ][..],
            local,
            DENY,
        ),
        (
            &[("package.json", r#"{"name":"acme-ui"}"#)][..],
            "npm publish --registry https://registry.npmjs.org",
            DENY,
        ),
        (
            &[("package.json", r#"{"name":"acme-ui"}"#)][..],
            "npm publish ./other --registry http://localhost:4873",
            DENY,
        ),
        (&[("package.json", "not json")][..], local, DENY),
        // Options that pick another package, or take a value, are not read past.
        (
            &[("package.json", r#"{"name":"acme-ui"}"#)][..],
            "npm publish -w packages/core --registry http://localhost:4873",
            DENY,
        ),
        (
            &[("package.json", r#"{"name":"acme-ui"}"#)][..],
            "npm publish --workspace=packages/core --registry http://localhost:4873",
            DENY,
        ),
    ] {
        let (_root, ctx) = disk_workspace();
        for (rel, text) in files {
            put(&ctx, rel, text);
        }
        check_table(&policy, &ctx, &[(line, want, "")]);
    }
}

/// A symlink inside an uploaded directory is judged by where it leads when the tool follows
/// links (aws by default, rsync with `-L`): a link to the user's cloud credentials sends them.
#[test]
fn a_link_to_a_credential_file_in_an_uploaded_tree_sends_it() {
    let (_root, ctx) = disk_workspace();
    let home = ctx.home.clone().unwrap();
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::write(
        home.join(".aws/credentials"),
        "[default]\naws_secret_access_key=x\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(
        home.join(".aws/credentials"),
        ctx.workspace.join("creds.txt"),
    )
    .unwrap();
    check_table(
        &Policy::builtin_default(),
        &ctx,
        &[
            ("aws s3 sync . s3://bucket", ASK, "destructive-shell"),
            (
                "rsync -aL ./ deploy@web1:/srv/app/",
                ASK,
                "destructive-shell",
            ),
            ("aws s3 sync . s3://bucket --no-follow-symlinks", ALLOW, ""),
            ("rsync -a ./ deploy@web1:/srv/app/", ALLOW, ""),
        ],
    );
}

/// Several search roots reach the verdict root by root: a refactor over `src` and `tests`
/// passes, one that reaches the workspace root (where the protected set lives) asks.
#[test]
fn a_refactor_over_several_roots_is_judged_root_by_root() {
    let (_root, ctx) = disk_workspace();
    put(&ctx, "tests/test_a.py", "oldName = 1\n");
    check_table(
        &Policy::builtin_default(),
        &ctx,
        &[
            (
                "grep -rl 'oldName' src tests | xargs sed -i 's/oldName/newName/g'",
                ALLOW,
                "",
            ),
            (
                "grep -rl 'oldName' src . | xargs sed -i 's/oldName/newName/g'",
                ASK,
                "",
            ),
        ],
    );
}

/// A PowerShell script the session wrote, run from `pwsh -c` (`./scripts/x.ps1`, after a
/// process-scoped execution policy), is judged by its content like `pwsh -File` runs.
#[test]
fn a_written_powershell_script_run_from_pwsh_c_is_judged() {
    const EVIL: &str = "Remove-Item -Recurse -Force $HOME/.ssh\n";
    const OK: &str = "Write-Output 'building'\ndotnet build\n";
    for (content, line, want) in [
        (EVIL, "pwsh -File scripts/x.ps1", ASK),
        (EVIL, "pwsh -c './scripts/x.ps1'", ASK),
        (
            EVIL,
            "pwsh -c 'Set-ExecutionPolicy -Scope Process Bypass -Force; ./scripts/x.ps1'",
            ASK,
        ),
        (
            OK,
            "pwsh -c 'Set-ExecutionPolicy -Scope Process Bypass -Force; ./scripts/x.ps1'",
            ALLOW,
        ),
    ] {
        let (got, reason) = after_write("scripts/x.ps1", content, line);
        assert_eq!(got, want, "{line}: {reason}");
    }
}
