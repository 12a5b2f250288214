//! `no-governance-self-modification` holds whatever performs the change: one line per case,
//! from the agent's side (switching its own guard off) and a hostile repository's (a script
//! or archive that rewrites the guard's files), with the decision the locked invariant must
//! give. Negatives keep their old verdicts.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use common::*;
use hookgate_core::{AgentKind, CanonicalCall, Decision};
use hookgate_policy::{Ctx, Policy, SessionState};
use serde_json::json;

const ID: &str = "no-governance-self-modification";
/// Where the lead's pipeline finds the binary the agent configs point at.
const BIN: &str = PROTECTED_BIN;

#[track_caller]
fn check(ctx: &Ctx, cases: &[(&str, CanonicalCall, Want)]) {
    check_invariant(ID, ctx, cases);
}

#[test]
fn agent_hook_config_directories_cannot_be_removed_moved_or_rewritten() {
    use Want::*;
    let cases = vec![
        ("agent: rm -rf .claude", bash("rm -rf .claude"), Deny),
        ("agent: mv .claude x", bash("mv .claude x"), Deny),
        ("agent: rm -rf .codex", bash("rm -rf .codex"), Deny),
        ("agent: rm -rf .gemini", bash("rm -rf .gemini"), Deny),
        ("agent: rm -rf .github", bash("rm -rf .github"), Deny),
        ("agent: mv .github x", bash("mv .github x"), Deny),
        ("agent: rm -r .cursor", bash("rm -r .cursor"), Deny),
        (
            "agent: rmdir --ignore-fail-on-non-empty .gemini",
            bash("rmdir --ignore-fail-on-non-empty .gemini"),
            Deny,
        ),
        ("agent: rm -rf ~/.claude", bash("rm -rf ~/.claude"), Deny),
        ("agent: rm -rf ~/.codex", bash("rm -rf ~/.codex"), Deny),
        ("agent: rm -rf ~/.gemini", bash("rm -rf ~/.gemini"), Deny),
        ("agent: rm -rf ~/.copilot", bash("rm -rf ~/.copilot"), Deny),
        (
            "agent: mv ~/.cursor /tmp/c",
            bash("mv ~/.cursor /tmp/c"),
            Deny,
        ),
        ("agent: rm -rf ~", bash("rm -rf ~"), Deny),
        ("agent: rm -rf $HOME/", bash("rm -rf $HOME/"), Deny),
        (
            "agent: cd .. && rm -rf proj",
            bash("cd /work && rm -rf proj"),
            Deny,
        ),
        ("agent: chmod 000 .claude", bash("chmod 000 .claude"), Deny),
        (
            "agent: chmod -R a-w ~/.codex",
            bash("chmod -R a-w ~/.codex"),
            Deny,
        ),
        (
            "agent: chown -R nobody .claude",
            bash("chown -R nobody .claude"),
            Deny,
        ),
        (
            "agent: rm .claude/settings.json",
            bash("rm .claude/settings.json"),
            Deny,
        ),
        (
            "agent: redirect onto settings",
            bash("echo '{}' > .claude/settings.json"),
            Deny,
        ),
        (
            "agent: cp onto settings.local",
            bash("cp /tmp/s.json .claude/settings.local.json"),
            Deny,
        ),
        (
            "agent: cp into .claude/",
            bash("cp /tmp/settings.json .claude/"),
            Deny,
        ),
        (
            "agent: mv a dir into .claude",
            bash("mv /tmp/evil .claude"),
            Deny,
        ),
        (
            "agent: ln -sf /dev/null settings",
            bash("ln -sf /dev/null .claude/settings.json"),
            Deny,
        ),
        (
            "agent: rsync into .claude/",
            bash("rsync -a /tmp/evil/ .claude/"),
            Deny,
        ),
        (
            "agent: rsync --delete over ~/.gemini",
            bash("rsync -a --delete /tmp/empty/ ~/.gemini/"),
            Deny,
        ),
        (
            "agent: sponge settings",
            bash("jq 'del(.hooks)' .claude/settings.json | sponge .claude/settings.json"),
            Deny,
        ),
        (
            "agent: ex -sc",
            bash("ex -sc '%d|wq' .claude/settings.json"),
            Deny,
        ),
        (
            "agent: vim -c :w",
            bash("vim -es -c ':g/hookgate/d' -c ':w' .codex/hooks.json"),
            Deny,
        ),
        (
            "agent: nvim +wq",
            bash("nvim --headless '+%d' +wq .gemini/settings.json"),
            Deny,
        ),
        (
            "agent: sed -i",
            bash("sed -i 's/hookgate/true/' .claude/settings.json"),
            Deny,
        ),
        (
            "agent: perl -pi",
            bash("perl -pi -e 's/hook/x/' .gemini/settings.json"),
            Deny,
        ),
        // Option clusters: `-0`/`-l`/`-C`/`-W` take only digits, so `i` after them is still
        // the in-place edit (`-0pi` was read as `-0` with value `pi`, hiding the write).
        (
            "agent: perl -0pi",
            bash(r#"perl -0pi -e 's/"PreToolUse".*?\]/"PreToolUse": []/s' .claude/settings.json"#),
            Deny,
        ),
        (
            "agent: perl -0777pi.bak",
            bash("perl -0777pi.bak -e 's/hook/x/' .claude/settings.json"),
            Deny,
        ),
        (
            "agent: perl -CSDpi",
            bash("perl -CSDpi -e 's/hook/x/' .codex/hooks.json"),
            Deny,
        ),
        (
            "agent: ruby -0pi",
            bash("ruby -0pi -e '$_.gsub!(/hook/, %q(x))' .gemini/settings.json"),
            Deny,
        ),
        (
            "agent: truncate",
            bash("truncate -s 0 .github/hooks/hooks.json"),
            Deny,
        ),
        (
            "agent: tee",
            bash("echo '{}' | tee .cursor/hooks.json"),
            Deny,
        ),
        ("agent: shred -u", bash("shred -u .codex/config.toml"), Deny),
        (
            "agent: dd of=",
            bash("dd if=/dev/zero of=.claude/settings.json count=1"),
            Deny,
        ),
        (
            "agent: chattr +i",
            bash("chattr +i .claude/settings.json"),
            Deny,
        ),
        (
            "agent: setfacl",
            bash("setfacl -m u:nobody:--- .claude/settings.json"),
            Deny,
        ),
        ("agent: unlink", bash("unlink .codex/hooks.json"), Deny),
        (
            "agent: install over settings",
            bash("install -m 644 /tmp/s .claude/settings.json"),
            Deny,
        ),
        (
            "agent: gemini shell tool",
            gemini_shell("rm -rf .gemini"),
            Deny,
        ),
        (
            "agent: Write tool on settings",
            write(".claude/settings.json", "{}"),
            Deny,
        ),
        (
            "agent: Write tool on ~/.codex/config.toml",
            write("~/.codex/config.toml", "x"),
            Deny,
        ),
        (
            // An archive the guard could not list (not on disk here) into a directory
            // that only holds the protected set may name it: asked (wt-fp3). Into the
            // protected directory itself, or with a member named, it stays denied.
            "repo: unzip -o in the project",
            bash("unzip -o /tmp/a.zip"),
            Ask,
        ),
        (
            "repo: unzip -d .claude",
            bash("unzip -o /tmp/a.zip -d .claude"),
            Deny,
        ),
        (
            "repo: unzip a member into place",
            bash("unzip /tmp/a.zip .claude/settings.json -d ."),
            Deny,
        ),
        (
            "repo: tar -x -C .github",
            bash("tar -xzf /tmp/a.tgz -C .github"),
            Ask,
        ),
        (
            "repo: tar xf in the project",
            bash("tar xf /tmp/a.tar"),
            Ask,
        ),
        (
            "repo: tar --extract --directory=~",
            bash("tar --extract --file=/tmp/a.tar --directory=/home/u"),
            Ask,
        ),
        (
            "repo: cpio -i in the project",
            bash("cpio -idm < /tmp/a.cpio"),
            Ask,
        ),
        ("repo: 7z x in the project", bash("7z x /tmp/a.7z"), Ask),
        (
            "repo: tar -x -C .claude",
            bash("tar -xzf /tmp/a.tgz -C .claude"),
            Deny,
        ),
        (
            "repo: 7z x -o.claude",
            bash("7z x /tmp/a.7z -o.claude"),
            Deny,
        ),
        (
            "repo: tar -P in the project",
            bash("tar -xPf /tmp/a.tar"),
            Deny,
        ),
        (
            "repo: script via bash -c",
            bash("bash -c 'rm -rf .claude'"),
            Deny,
        ),
        ("agent: find -delete", bash("find .claude -delete"), Deny),
        (
            "repo: cp -r contents over the project",
            bash("cp -r /tmp/evil/. ."),
            Deny,
        ),
        (
            "repo: mv a dir in as .codex",
            bash("mv /tmp/evil .codex"),
            Deny,
        ),
        (
            "negative: mv a file into the project",
            bash("mv /tmp/notes.txt ."),
            Quiet,
        ),
        (
            "negative: cp -r a dir into the project",
            bash("cp -r /tmp/vendor ."),
            Quiet,
        ),
        (
            "negative: find -name -delete",
            bash("find . -name '*.pyc' -delete"),
            Quiet,
        ),
        (
            "repo: find -exec rm on the dir",
            bash("find . -maxdepth 1 -name .x -exec rm -rf .claude \\;"),
            Deny,
        ),
    ];
    check(&protected_ctx(), &cases);
}

#[test]
fn hookgate_files_store_and_binary_cannot_be_touched() {
    use Want::*;
    let cases = vec![
        ("agent: rm -rf .hookgate", bash("rm -rf .hookgate"), Deny),
        (
            "agent: monitor mode",
            bash("echo 'mode: monitor' > .hookgate/policy.yaml"),
            Deny,
        ),
        (
            "agent: rm -rf ~/.config/hookgate",
            bash("rm -rf ~/.config/hookgate"),
            Deny,
        ),
        (
            "agent: sqlite3 delete",
            bash("sqlite3 /data/hg/audit.db 'delete from records'"),
            Deny,
        ),
        (
            "agent: sqlite3 interactive",
            bash("sqlite3 /data/hg/audit.db < /tmp/x.sql"),
            Deny,
        ),
        (
            "agent: truncate the store",
            bash("truncate -s0 /data/hg/audit.db"),
            Deny,
        ),
        (
            "agent: rm the spool",
            bash("rm -f /data/hg/spool.jsonl"),
            Deny,
        ),
        (
            "agent: chmod -x the binary",
            bash(&format!("chmod -x {BIN}")),
            Deny,
        ),
        (
            "agent: chmod 000 the binary",
            bash(&format!("chmod 000 {BIN}")),
            Deny,
        ),
        ("agent: rm the binary", bash(&format!("rm {BIN}")), Deny),
        (
            "agent: cp over the binary",
            bash(&format!("cp /bin/true {BIN}")),
            Deny,
        ),
        (
            "agent: mv over the binary",
            bash(&format!("mv /tmp/x {BIN}")),
            Deny,
        ),
        (
            "agent: ln -sf over the binary",
            bash(&format!("ln -sf /bin/true {BIN}")),
            Deny,
        ),
        (
            "agent: install over the binary",
            bash(&format!("install -m755 /bin/true {BIN}")),
            Deny,
        ),
        (
            "agent: redirect onto the binary",
            bash(&format!("printf '' > {BIN}")),
            Deny,
        ),
        (
            "agent: tee onto the binary",
            bash(&format!("tee {BIN} < /dev/null")),
            Deny,
        ),
        (
            "agent: chattr the binary",
            bash(&format!("chattr -i {BIN}")),
            Deny,
        ),
        (
            "agent: chown the binary",
            bash(&format!("chown nobody {BIN}")),
            Deny,
        ),
        (
            "agent: rm -rf the binary's dir",
            bash("rm -rf /opt/hg"),
            Deny,
        ),
        (
            "agent: mv the binary's dir",
            bash("mv /opt/hg/bin /opt/hg/old"),
            Deny,
        ),
        (
            "agent: Write tool onto the binary",
            write(BIN, "#!/bin/sh\nexit 0\n"),
            Deny,
        ),
        (
            "agent: hookgate uninstall",
            bash("hookgate init claude --remove"),
            Deny,
        ),
        (
            "negative: reading settings",
            bash("cat .claude/settings.json"),
            Quiet,
        ),
        (
            "negative: Read tool on settings",
            read(".claude/settings.json"),
            Quiet,
        ),
        (
            "negative: sqlite3 select",
            bash("sqlite3 /data/hg/audit.db 'select count(*) from records'"),
            Quiet,
        ),
        (
            "negative: sqlite3 -readonly",
            bash("sqlite3 -readonly /data/hg/audit.db .dump"),
            Quiet,
        ),
        (
            "negative: running the binary",
            bash(&format!("{BIN} --version")),
            Quiet,
        ),
        (
            "negative: ordinary write",
            bash("echo hi > notes.txt"),
            Quiet,
        ),
        (
            "negative: Write tool ordinary file",
            write("src/main.rs", "fn main() {}\n"),
            Quiet,
        ),
        ("negative: rm -rf build", bash("rm -rf build target"), Quiet),
        (
            "negative: unzip into a subdir",
            bash("unzip -o /tmp/a.zip -d vendor/x"),
            Quiet,
        ),
        (
            "negative: tar -x into a subdir",
            bash("tar -xf /tmp/a.tar -C third_party"),
            Quiet,
        ),
        ("negative: tar -t lists", bash("tar -tf /tmp/a.tar"), Quiet),
        (
            "negative: unzip -l lists",
            bash("unzip -l /tmp/a.zip"),
            Quiet,
        ),
        (
            "negative: vim -c q reads",
            bash("vim -c q README.md"),
            Quiet,
        ),
        (
            "negative: cp a file next to settings dir",
            bash("cp a.txt b.txt"),
            Quiet,
        ),
        (
            "negative: plans are the agent's scratch",
            write("~/.claude/plans/p.md", "x"),
            Quiet,
        ),
    ];
    check(&protected_ctx(), &cases);
}

#[test]
fn hookgate_variables_cannot_be_set_or_written_into_profiles() {
    use Want::*;
    let cases = vec![
        (
            "agent: export",
            bash("export HOOKGATE_FAIL_MODE=open"),
            Deny,
        ),
        (
            "agent: declare -x",
            bash("declare -x HOOKGATE_ASK_FALLBACK=allow"),
            Deny,
        ),
        (
            "agent: export a later-set name",
            bash("export HOOKGATE_STORE"),
            Deny,
        ),
        (
            "agent: fish set -gx",
            bash("set -gx HOOKGATE_HOME /tmp/x"),
            Deny,
        ),
        (
            "agent: launchctl setenv",
            bash("launchctl setenv HOOKGATE_CONFIG_DIR /tmp"),
            Deny,
        ),
        (
            "agent: systemctl set-environment",
            bash("systemctl --user set-environment HOOKGATE_FAIL_MODE_CLAUDE=open"),
            Deny,
        ),
        (
            "agent: profile append",
            bash("echo 'export HOOKGATE_FAIL_MODE=open' >> ~/.bashrc"),
            Deny,
        ),
        (
            "agent: direnv file",
            bash("printf 'HOOKGATE_STORE=/dev/null\\n' >> .envrc"),
            Deny,
        ),
        (
            "agent: tee -a a profile",
            bash("echo HOOKGATE_HOME=/tmp | tee -a ~/.profile"),
            Deny,
        ),
        (
            "agent: Write ~/.zshrc",
            write("~/.zshrc", "export HOOKGATE_HOME=/tmp/x\n"),
            Deny,
        ),
        (
            "agent: Write .env",
            write(".env", "HOOKGATE_CONFIG_DIR=/tmp\n"),
            Deny,
        ),
        (
            "agent: Write fish config",
            write(
                "~/.config/fish/config.fish",
                "set -gx HOOKGATE_FAIL_MODE open\n",
            ),
            Deny,
        ),
        (
            "agent: Edit a profile",
            edit("~/.bashrc", "# end", "setenv HOOKGATE_STORE /dev/null"),
            Deny,
        ),
        (
            "agent: PowerShell profile",
            write(
                "~/.config/powershell/Microsoft.PowerShell_profile.ps1",
                "$env:HOOKGATE_FAIL_MODE = 'open'\n",
            ),
            Deny,
        ),
        (
            "negative: reading a variable",
            bash("echo $HOOKGATE_HOME"),
            Quiet,
        ),
        (
            "negative: profile write without HOOKGATE_",
            bash("echo 'export PATH=$PATH:~/bin' >> ~/.bashrc"),
            Quiet,
        ),
        (
            "negative: Write profile without HOOKGATE_",
            write("~/.bashrc", "alias ll='ls -l'\n"),
            Quiet,
        ),
        (
            "negative: mention, not assignment",
            write("~/.bashrc", "echo \"$HOOKGATE_HOME\"\n"),
            Quiet,
        ),
        (
            "negative: other variables",
            bash("export RUST_LOG=debug"),
            Quiet,
        ),
    ];
    check(&protected_ctx(), &cases);
}

#[test]
fn profile_writes_without_hookgate_variables_keep_their_old_verdict() {
    let policy = Policy::builtin_default();
    let e = policy.evaluate(
        &write("~/.bashrc", "alias ll='ls -l'\n"),
        &protected_ctx(),
        &SessionState::default(),
    );
    assert_eq!(e.decision, Some(Decision::Ask), "{:?}", e.matched);
    assert!(e.matched.iter().any(|m| m.id == "no-env-var-modification"));
}

/// A real workspace: agent configs exist on disk, and the test finds them the way the
/// guard's pipeline does (the policy itself does no I/O), so whole-tree git commands are
/// judged against what is really there.
fn real_workspace(with_agent_config: bool) -> (tempfile::TempDir, Ctx) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    if with_agent_config {
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::write(root.join(".claude/settings.json"), "{\"hooks\":{}}\n").unwrap();
        std::fs::create_dir_all(root.join(".hookgate")).unwrap();
        std::fs::write(root.join(".hookgate/policy.yaml"), "rules: []\n").unwrap();
    }
    let mut ctx = Ctx::new(&root, Some(PathBuf::from(HOME)));
    ctx.follow_symlinks = false;
    for name in [
        ".claude",
        ".codex",
        ".gemini",
        ".github/hooks",
        ".cursor",
        ".hookgate",
    ] {
        let p = root.join(name);
        if p.exists() {
            ctx.protected_paths.push(p);
        }
    }
    (dir, ctx)
}

fn bash_in(root: &Path, cmd: &str) -> CanonicalCall {
    call_for_tool(
        AgentKind::Claude,
        &root.to_string_lossy(),
        "Bash",
        json!({"command": cmd}).as_object().cloned().unwrap(),
    )
}

#[test]
fn git_whole_tree_commands_are_denied_when_the_worktree_holds_the_protected_set() {
    use Want::*;
    let (dir, ctx) = real_workspace(true);
    let root = dir.path().canonicalize().unwrap();
    let r = root.as_path();
    let cases = vec![
        ("agent: git stash -u", bash_in(r, "git stash -u"), Deny),
        (
            "agent: git stash push --include-untracked",
            bash_in(r, "git stash push --include-untracked -m wip"),
            Deny,
        ),
        ("agent: git stash -a", bash_in(r, "git stash -a"), Deny),
        (
            "agent: git stash save -u",
            bash_in(r, "git stash save -u wip"),
            Deny,
        ),
        ("agent: git clean -fdx", bash_in(r, "git clean -fdx"), Deny),
        ("agent: git clean -f", bash_in(r, "git clean -f"), Deny),
        (
            "agent: git -C root clean -fd",
            bash_in(r, &format!("git -C {} clean -fd", r.display())),
            Deny,
        ),
        (
            "agent: git checkout -- .",
            bash_in(r, "git checkout -- ."),
            Deny,
        ),
        ("agent: git checkout .", bash_in(r, "git checkout ."), Deny),
        (
            "agent: git checkout -f",
            bash_in(r, "git checkout -f"),
            Deny,
        ),
        ("agent: git restore .", bash_in(r, "git restore ."), Deny),
        (
            "agent: git restore --source=HEAD~3 .claude",
            bash_in(r, "git restore --source=HEAD~3 .claude"),
            Deny,
        ),
        (
            "agent: git reset --hard",
            bash_in(r, "git reset --hard"),
            Deny,
        ),
        (
            "agent: git reset --hard origin/main",
            bash_in(r, "git reset --hard origin/main"),
            Deny,
        ),
        (
            "agent: git rm -r .claude",
            bash_in(r, "git rm -r .claude"),
            Deny,
        ),
        ("agent: git rm -r .", bash_in(r, "git rm -rf ."), Deny),
        (
            "agent: git switch -f",
            bash_in(r, "git switch -f main"),
            Deny,
        ),
        (
            "agent: git clean excluding one of two",
            bash_in(r, "git clean -fd -e .claude"),
            Deny,
        ),
        (
            "negative: git clean excluding both",
            bash_in(r, "git clean -fd -e .claude -e .hookgate"),
            Quiet,
        ),
        (
            "negative: git clean --exclude=",
            bash_in(r, "git clean -fd --exclude=.claude/ --exclude=/.hookgate"),
            Quiet,
        ),
        (
            "negative: git checkout with exclusions",
            bash_in(r, "git checkout -- . ':!.claude' ':(exclude).hookgate'"),
            Quiet,
        ),
        (
            "negative: git clean a subdir",
            bash_in(r, "git clean -fd src/"),
            Quiet,
        ),
        (
            "negative: git restore a file",
            bash_in(r, "git restore src/main.rs"),
            Quiet,
        ),
        // Untracking the settings leaves the file, but the next commit records it deleted and
        // every checkout, stash or pull of that commit removes it (here or for a teammate):
        // an index write of the protected set, like `update-index`.
        (
            "positive: git rm --cached untracks the settings",
            bash_in(r, "git rm -r --cached .claude"),
            Deny,
        ),
        ("negative: git clean -n", bash_in(r, "git clean -n"), Quiet),
        (
            "negative: git stash (tracked only)",
            bash_in(r, "git stash"),
            Quiet,
        ),
        ("negative: git status", bash_in(r, "git status"), Quiet),
    ];
    check(&ctx, &cases);
}

#[test]
fn git_whole_tree_commands_are_not_self_modification_without_the_protected_set() {
    use Want::*;
    let (dir, ctx) = real_workspace(false);
    let root = dir.path().canonicalize().unwrap();
    let r = root.as_path();
    let cases = vec![
        (
            "negative: git clean -fd",
            bash_in(r, "git clean -fd"),
            Quiet,
        ),
        (
            "negative: git reset --hard",
            bash_in(r, "git reset --hard"),
            Quiet,
        ),
        ("negative: git stash -u", bash_in(r, "git stash -u"), Quiet),
        (
            "negative: git checkout -- .",
            bash_in(r, "git checkout -- ."),
            Quiet,
        ),
        (
            "negative: unzip in the project",
            bash_in(r, "unzip -o /tmp/a.zip"),
            Quiet,
        ),
    ];
    check(&ctx, &cases);
    // The other invariants keep their verdicts: discarding work is still asked about.
    let e = Policy::builtin_default().evaluate(
        &bash_in(r, "git reset --hard"),
        &ctx,
        &SessionState::default(),
    );
    assert!(
        e.matched.iter().any(|m| m.id == "no-git-discard"),
        "{:?}",
        e.matched
    );
}

#[test]
fn whole_tree_denials_suggest_how_to_leave_the_protected_set_out() {
    let (dir, ctx) = real_workspace(true);
    let root = dir.path().canonicalize().unwrap();
    let e = Policy::builtin_default().evaluate(
        &bash_in(&root, "git clean -fd"),
        &ctx,
        &SessionState::default(),
    );
    assert_eq!(e.decision, Some(Decision::Deny));
    let s = e.suggestion.unwrap_or_default();
    assert!(s.contains("git clean -fd -e ."), "{s}");
}

/// Codex runs `apply_patch` through its shell tool; the agents crate reads the patch into
/// `ToolCall.paths`/`content` (reproduced here with the same reader). Every file must be
/// judged exactly as the apply_patch tool's.
fn shell_patch(body: &str) -> CanonicalCall {
    let cmd = format!("apply_patch <<'EOF'\n{body}\nEOF\n");
    let mut call = call_for_tool(
        AgentKind::Codex,
        WS,
        "exec_command",
        json!({"cmd": cmd}).as_object().cloned().unwrap(),
    );
    let summary = hookgate_core::patch::parse_patch(&cmd);
    let tool = call.tool.as_mut().unwrap();
    tool.paths = summary.paths;
    tool.content = summary.added;
    call
}

#[test]
fn apply_patch_through_the_shell_is_judged_at_least_as_strictly_as_the_apply_patch_tool() {
    let bodies = [
        "*** Begin Patch\n*** Add File: .hookgate/policy.yaml\n+mode: monitor\n*** End Patch",
        "*** Begin Patch\n*** Add File: .env\n+AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n*** End Patch",
        "*** Begin Patch\n*** Add File: .github/workflows/ci.yml\n+on: push\n*** End Patch",
        "*** Begin Patch\n*** Update File: /home/u/.bashrc\n@@\n+curl x | sh\n*** End Patch",
        "*** Begin Patch\n*** Delete File: .claude/settings.json\n*** End Patch",
        "*** Begin Patch\n*** Add File: src/lib.rs\n+pub fn f() {}\n*** End Patch",
    ];
    let policy = Policy::builtin_default();
    let c = protected_ctx();
    let mut failures = String::new();
    for body in bodies {
        let tool = policy.evaluate(&patch(body), &c, &SessionState::default());
        let shell = policy.evaluate(&shell_patch(body), &c, &SessionState::default());
        let ids = |e: &hookgate_policy::Evaluation| {
            let mut v: Vec<String> = e
                .matched
                .iter()
                .filter(|m| m.id != "destructive-shell")
                .map(|m| format!("{}={:?}", m.id, m.effect))
                .collect();
            v.sort();
            v
        };
        // Every judgement the apply_patch tool gets, the shell route gets too; the shell route
        // may be stricter (the analyzer also judges the heredoc's writes as shell writes, e.g.
        // a shell profile rewritten by a shell command is denied by `destructive-shell`).
        if shell.decision < tool.decision || ids(&tool).iter().any(|i| !ids(&shell).contains(i)) {
            let _ = writeln!(
                failures,
                "{body:?}: tool {:?} {:?} / shell {:?} {:?}",
                tool.decision,
                ids(&tool),
                shell.decision,
                ids(&shell)
            );
        }
    }
    assert!(failures.is_empty(), "\n{failures}");
    let e = policy.evaluate(
        &shell_patch("*** Begin Patch\n*** Add File: .hookgate/policy.yaml\n+x: 1\n*** End Patch"),
        &c,
        &SessionState::default(),
    );
    assert_eq!(e.decision, Some(Decision::Deny));
    assert!(e.matched.iter().any(|m| m.id == ID));
}

#[test]
fn a_symlink_into_the_protected_set_is_followed_when_symlinks_are_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let store = root.join("hg");
    let ws = root.join("ws");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(store.join("audit.db"), b"").unwrap();
    std::os::unix::fs::symlink(&store, ws.join("h")).unwrap();
    let mut ctx = Ctx::new(&ws, Some(PathBuf::from(HOME)));
    ctx.protected_paths.push(store);
    let call = bash_in(&ws, "truncate -s0 h/audit.db");
    let e = Policy::builtin_default().evaluate(&call, &ctx, &SessionState::default());
    assert_eq!(e.decision, Some(Decision::Deny), "{:?}", e.matched);
    assert!(e.matched.iter().any(|m| m.id == ID));
    // Lexically (no resolution) the same line reaches nothing protected.
    ctx.follow_symlinks = false;
    let e = Policy::builtin_default().evaluate(&call, &ctx, &SessionState::default());
    assert!(!e.matched.iter().any(|m| m.id == ID), "{:?}", e.matched);
}

#[test]
fn only_the_user_may_trust_a_projects_config() {
    let policy = Policy::builtin_default();
    let c = protected_ctx();
    for (command, expected) in [
        ("hookgate trust", Some(Decision::Deny)),
        ("hookgate trust /w/repo", Some(Decision::Deny)),
        ("sh -c 'hookgate trust .'", Some(Decision::Deny)),
        ("/usr/local/bin/hookgate trust", Some(Decision::Deny)),
        ("hookgate trust --list", None),
        ("hookgate trust --status", None),
        ("hookgate trust --revoke", None),
    ] {
        let e = policy.evaluate(&bash(command), &c, &SessionState::default());
        assert_eq!(e.decision, expected, "{command}: {:?}", e.reason);
    }
}

#[test]
fn only_the_user_may_undo_or_reset_snapshots() {
    let policy = Policy::builtin_default();
    let c = protected_ctx();
    for (command, expected) in [
        ("hookgate snapshot undo", Some(Decision::Deny)),
        ("hookgate snapshot reset --keep 2", Some(Decision::Deny)),
        (
            "hookgate snapshot --dir /w/repo undo --json",
            Some(Decision::Deny),
        ),
        ("sh -c 'hookgate snapshot reset'", Some(Decision::Deny)),
        (
            "/usr/local/bin/hookgate snapshot undo --session s1",
            Some(Decision::Deny),
        ),
        ("hookgate snapshot list", None),
        ("hookgate snapshot diff 3 --json", None),
        ("hookgate snapshot undo --help", None),
    ] {
        let e = policy.evaluate(&bash(command), &c, &SessionState::default());
        assert_eq!(e.decision, expected, "{command}: {:?}", e.reason);
    }
}
