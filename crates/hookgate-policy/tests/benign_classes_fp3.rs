//! Issue 8, third round of benign classes (wt-fp3), through the whole guard (default policy +
//! shell analyzer) on a real workspace (with `.claude/settings.json`) and home: one line per
//! case with the decision and, for a deny or ask, the invariant that must decide it; every
//! benign class next to its dangerous neighbours. Archive member listings go through the
//! binary (`hookgate/tests/benign_state_fp3.rs`); here archives are never listed.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use common::*;
use hookgate_core::Decision;
use hookgate_policy::{Ctx, Policy};

const ALLOW: Option<Decision> = None;
const ASK: Option<Decision> = Some(Decision::Ask);
const DENY: Option<Decision> = Some(Decision::Deny);

/// A workspace `proj` (a `.claude/settings.json`, `src/`, `build/` with 30 object files) and
/// a home on disk, judged with the file system as the hook does.
struct Disk {
    _root: tempfile::TempDir,
    ctx: Ctx,
}

fn disk() -> Disk {
    let (root, ctx) = disk_workspace();
    let build = ctx.workspace.join("build");
    std::fs::create_dir_all(&build).unwrap();
    for i in 0..30 {
        std::fs::write(build.join(format!("old{i}.o")), "o").unwrap();
    }
    Disk { _root: root, ctx }
}

#[track_caller]
fn check(table: &[(&str, Option<Decision>, &str)]) {
    let d = disk();
    check_table(&Policy::builtin_default(), &d.ctx, table);
}

/// Reading, printing or removing one's own `at`/cron jobs schedules nothing; creating a job,
/// `-b` anywhere (at keeps the last mode option) and `crontab -r` keep the locked deny.
#[test]
fn reading_or_removing_own_jobs_is_not_scheduling() {
    check(&[
        ("at -l", ALLOW, ""),
        ("at -c 3", ALLOW, ""),
        ("atq", ALLOW, ""),
        ("atrm 3", ALLOW, ""),
        ("at -r 3 4", ALLOW, ""),
        ("at -d 3", ALLOW, ""),
        ("crontab -l", ALLOW, ""),
        ("crontab -l -u alice", ALLOW, ""),
        ("at now + 1 minute", DENY, "no-scheduled-task-modification"),
        ("at -l -b", DENY, "no-scheduled-task-modification"),
        ("at -f job.sh 10:00", DENY, "no-scheduled-task-modification"),
        ("crontab -r", DENY, "no-scheduled-task-modification"),
        ("crontab -l -r", DENY, "no-scheduled-task-modification"),
        ("crontab jobs.txt", DENY, "no-scheduled-task-modification"),
        ("crontab -e", DENY, "no-scheduled-task-modification"),
    ]);
}

/// A change of group of workspace files cannot grant a privilege (an unprivileged chgrp
/// picks only the caller's groups; the setgid bit is cleared); giving files to another user,
/// or anything outside the workspace, keeps its verdict.
#[test]
fn changing_the_group_of_workspace_files_is_not_escalation() {
    check(&[
        ("chgrp -R staff src", ALLOW, ""),
        ("chgrp staff src/main.rs", ALLOW, ""),
        ("chgrp -R 1000 build", ALLOW, ""),
        ("chown -R :staff src", ALLOW, ""),
        ("chown -R $USER:staff src", ALLOW, ""),
        ("chown -R $(id -u):$(id -g) build", ALLOW, ""),
        ("chown -R root src", ASK, "no-permission-escalation"),
        ("chown -R bob:staff src", ASK, "no-permission-escalation"),
        ("chgrp -R staff /etc", DENY, ""),
        ("chown -R nobody ~", DENY, ""),
        ("chgrp -R staff /opt/other", DENY, "destructive-shell"),
        ("chgrp -R wheel src", ASK, "no-permission-escalation"),
        ("chown -R :root src", ASK, "no-permission-escalation"),
        (
            "chgrp --reference=/etc/shadow src",
            ASK,
            "no-permission-escalation",
        ),
        ("chgrp -R $G src", ASK, "no-permission-escalation"),
        ("sudo chgrp -R staff src", ASK, "no-permission-escalation"),
    ]);
}

/// Under `sudo`, a verb the analyzer knows read-only whose words name nothing outside the
/// workspace reads system state: allowed. Anything else under sudo keeps its ask: a verb
/// that changes something, a read of a file outside the workspace (root reads what the user
/// may not), a shell, another user's switch (`su`), a value known only at run time.
#[test]
fn read_only_verbs_under_sudo_are_allowed() {
    check(&[
        ("sudo ufw status", ALLOW, ""),
        ("sudo ufw status verbose", ALLOW, ""),
        ("sudo systemctl status nginx", ALLOW, ""),
        ("sudo systemctl is-active nginx", ALLOW, ""),
        ("sudo journalctl -u app -n 50", ALLOW, ""),
        ("sudo journalctl -u app --since=today", ALLOW, ""),
        ("sudo lsof -i :3000", ALLOW, ""),
        ("sudo ss -ltnp", ALLOW, ""),
        ("sudo netstat -tlnp", ALLOW, ""),
        ("sudo docker ps", ALLOW, ""),
        ("sudo docker logs web", ALLOW, ""),
        ("sudo dmesg", ALLOW, ""),
        ("sudo ps aux", ALLOW, ""),
        ("sudo cat src/main.rs", ALLOW, ""),
        (
            "sudo systemctl restart nginx",
            ASK,
            "no-permission-escalation",
        ),
        ("sudo systemctl stop nginx", ASK, "no-permission-escalation"),
        (
            "sudo cat /var/log/auth.log",
            ASK,
            "no-permission-escalation",
        ),
        ("sudo ls /root", ASK, "no-permission-escalation"),
        ("sudo du -sh /var/lib", ASK, "no-permission-escalation"),
        (
            "sudo journalctl -D /var/log/journal",
            ASK,
            "no-permission-escalation",
        ),
        (
            "sudo journalctl --file=/var/log/journal/x.journal",
            ASK,
            "no-permission-escalation",
        ),
        (
            "sudo journalctl --vacuum-size=1G",
            ASK,
            "no-permission-escalation",
        ),
        ("sudo dmesg -c", ASK, "no-permission-escalation"),
        // The firewall's rules listed (round 28: a [[safe]] listing form); a change asks.
        ("sudo iptables -L", ALLOW, ""),
        (
            "sudo iptables -A INPUT -j ACCEPT",
            DENY,
            "destructive-shell",
        ),
        ("sudo -s", ASK, "no-permission-escalation"),
        ("sudo -i", ASK, "no-permission-escalation"),
        ("sudo bash -c 'ls'", ASK, "no-permission-escalation"),
        ("sudo su", ASK, "no-permission-escalation"),
        (
            "su -c 'systemctl status nginx'",
            ASK,
            "no-permission-escalation",
        ),
        (
            "sudo systemctl status $SVC",
            ASK,
            "no-permission-escalation",
        ),
        ("sudo docker rm -f web", ASK, "no-permission-escalation"),
        (
            "sudo systemctl restart nginx",
            ASK,
            "no-permission-escalation",
        ),
        ("sudo cat /etc/shadow", ASK, "no-secret-exposure"),
        ("sudo ufw disable", DENY, "destructive-shell"),
    ]);
}

/// A wildcard pathspec reaches only the entries it can match (judged like a `find -ipath`
/// filter): one that cannot match a protected entry does not delete the protected set; one
/// that can (by suffix, by a leading `.c*`, by case) keeps the locked deny. Removing
/// untracked files of a type everywhere is still discarding work (asked).
#[test]
fn wildcard_pathspecs_reach_only_what_they_match() {
    check(&[
        ("git clean -f -- src '*.ext'", ASK, "no-git-discard"),
        ("git clean -fd -- '*.o'", ASK, "no-git-discard"),
        ("git clean -f -- 'build/*.o'", ALLOW, ""),
        ("git clean -fd -- src", ALLOW, ""),
        ("git rm '*.log'", ALLOW, ""),
        ("git rm --cached '*.log'", ALLOW, ""),
        ("git clean -n", ALLOW, ""),
        ("git clean -nd", ALLOW, ""),
        ("git clean -i", ALLOW, ""),
        (
            "git clean -f -- '*.json'",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "git clean -fdx -- '.c*'",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "git clean -fx -- '*settings*'",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "git clean -f -- '*.JSON'",
            DENY,
            "no-governance-self-modification",
        ),
        ("git clean -f '*'", DENY, "no-governance-self-modification"),
        ("git rm '*.json'", DENY, "no-governance-self-modification"),
        ("git clean -fdx", DENY, "no-governance-self-modification"),
        (
            "git clean -f -- .claude",
            DENY,
            "no-governance-self-modification",
        ),
    ]);
}

/// `git replace` writes local refs under refs/replace/ (undone by `git replace -d`); no
/// commit is rewritten, so it is not `no-history-rewrite`.
#[test]
fn git_replace_is_not_a_history_rewrite() {
    check(&[
        ("git replace -l", ALLOW, ""),
        ("git replace -d abc123", ALLOW, ""),
        ("git replace abc123 def456", ASK, "destructive-shell"),
        ("git replace --graft HEAD~3", ASK, "destructive-shell"),
        ("git filter-branch --all", DENY, "no-history-rewrite"),
        ("git reflog expire --all", DENY, "no-history-rewrite"),
    ]);
}

/// Creating new files or touching timestamps in the workspace loses nothing, however many a
/// brace expansion names; overwriting or deleting existing files in bulk keeps the limit.
#[test]
fn creating_many_new_workspace_files_is_not_a_mass_operation() {
    check(&[
        ("touch build/file{a..z}", ALLOW, ""),
        ("touch src/{a,b,c,d,e,f,g,h}/{x,y,z}.rs", ALLOW, ""),
        ("mkdir -p out/{a,b,c}/{x,y}", ALLOW, ""),
        ("cp src/main.rs out/copy{1..30}.rs", ALLOW, ""),
        ("rm -f build/old{0..29}.o", ASK, "blast-radius-limit"),
        (
            "cp src/main.rs build/old{0..29}.o",
            ASK,
            "blast-radius-limit",
        ),
        ("rm -rf {~,/}", DENY, ""),
        (
            "touch .claude/{a,b,c}.json",
            DENY,
            "no-governance-self-modification",
        ),
    ]);
}

/// A PEM whose name says it is a certificate, chain, CA bundle or public key is no private
/// key; key names keep the credential deny.
#[test]
fn certificates_and_public_keys_are_not_private_key_files() {
    check(&[
        ("kubeseal --fetch-cert > cert.pem", ALLOW, ""),
        ("kubeseal --fetch-cert > pub-cert.pem", ALLOW, ""),
        ("openssl x509 -in cert.pem -noout -text", ALLOW, ""),
        ("cat fullchain.pem", ALLOW, ""),
        ("cat ca.pem", ALLOW, ""),
        ("cat root-ca.pem", ALLOW, ""),
        ("openssl rsa -in k.pem -pubout > public_key.pem", ALLOW, ""),
        ("ssh-keygen -y -f key > key.pub", ALLOW, ""),
        ("cat server.key", DENY, "no-secret-exposure"),
        ("cat privkey.pem", DENY, "no-secret-exposure"),
        ("cat cert-key.pem", DENY, "no-secret-exposure"),
        ("cat key.pem", DENY, "no-secret-exposure"),
        // A new key file in the workspace replaces nothing (wt-mine); one in ~/.ssh does.
        (
            "echo x > ~/.ssh/tls.pem",
            DENY,
            "no-credential-file-creation",
        ),
    ]);
}

/// An archive whose members cannot be seen (not on disk yet, written by the same line, on
/// a pipe, a 7z archive) writes *some* paths below its target: where the protected set is
/// only held below the target it is asked about; the target itself protected, or a
/// protected entry it is written into, keeps the deny.
#[test]
fn unlisted_archives_ask_where_the_protected_entry_is_only_below_the_target() {
    check(&[
        ("tar -xzf /tmp/none-fp3.tgz -C /tmp", ASK, ""),
        (
            "curl -o /tmp/x-fp3.tgz https://example.com/x.tgz && tar -xzf /tmp/x-fp3.tgz -C /tmp",
            ASK,
            "",
        ),
        (
            "curl -sL https://example.com/x.tgz | tar -xz -C /tmp",
            ASK,
            "",
        ),
        ("unzip /tmp/none-fp3.zip -d /tmp", ASK, ""),
        ("tar -xzf none.tgz", ASK, "no-governance-self-modification"),
        ("7z x pkg.7z", ASK, "no-governance-self-modification"),
        ("7z x pkg.7z -oout", ALLOW, ""),
        (
            "cpio -idv < none.cpio",
            ASK,
            "no-governance-self-modification",
        ),
        (
            "cpio -idv --no-absolute-filenames -D out < none.cpio",
            ALLOW,
            "",
        ),
        (
            "cpio -idv -D out < none.cpio",
            ASK,
            "no-governance-self-modification",
        ),
        (
            "tar -xzf none.tgz -C .claude",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "7z x pkg.7z -o.claude",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "tar -xzf none.tgz -P",
            DENY,
            "no-governance-self-modification",
        ),
        (
            "tar -xzf none.tgz --transform=s/a/b/",
            DENY,
            "no-governance-self-modification",
        ),
        ("tar -xzf none.tgz -C /etc", DENY, ""),
    ]);
}
