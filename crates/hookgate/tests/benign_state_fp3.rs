//! Issue 8, third round (wt-fp3), through the binary: archive extractions whose members the
//! hook lists itself (cpio, read natively from the archive's headers) or cannot list (then
//! asked, not denied, where the protected set is only below the target), and read-only verbs
//! under `sudo`. Archives are built by the test itself (cpio bytes are generated here, so
//! no `cpio` program is needed).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::path::{Path, PathBuf};

use common::{Sandbox, bash_payload, check_answers, hook_answer};

/// A project `work/proj` holding `.claude/settings.json` (the protected set) and a home.
struct Fixture {
    sandbox: Sandbox,
    proj: PathBuf,
    home: PathBuf,
}

impl Fixture {
    fn new() -> Self {
        let sandbox = Sandbox::new();
        let proj = sandbox.work().join("proj");
        let home = sandbox.work().join("home");
        std::fs::create_dir_all(proj.join(".claude")).unwrap();
        std::fs::write(proj.join(".claude/settings.json"), "{}").unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Self {
            sandbox,
            proj,
            home,
        }
    }

    /// The hook's answer (`none`, `ask`, `deny`) and reason for a Bash command.
    fn bash(&self, session: &str, command: &str) -> (String, String) {
        let payload = bash_payload(session, &self.proj, command);
        hook_answer(&self.sandbox, &self.proj, &self.home, &payload)
    }

    /// Checks (command, expected answer, text the reason must contain), each in a fresh
    /// session, reporting every wrong line at once.
    fn check(&self, table: &[(&str, &str, &str)]) {
        check_answers(table, |n, command| self.bash(&format!("fp3-{n}"), command));
    }
}

/// A cpio archive in the "newc" format (`070701`): (name, mode, data) per member, then the
/// trailer; header and name padded to 4 bytes, and so is the data.
fn newc(members: &[(&str, u32, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let trailer: (&str, u32, &[u8]) = ("TRAILER!!!", 0, b"");
    for (ino, (name, mode, data)) in members.iter().chain([&trailer]).enumerate() {
        let fields = [
            u32::try_from(ino).unwrap() + 1,
            *mode,
            0,
            0,
            1,
            0,
            u32::try_from(data.len()).unwrap(),
            0,
            0,
            0,
            0,
            u32::try_from(name.len()).unwrap() + 1,
            0,
        ];
        out.extend_from_slice(b"070701");
        for f in fields {
            out.extend_from_slice(format!("{f:08X}").as_bytes());
        }
        out.extend_from_slice(name.as_bytes());
        out.push(0);
        out.resize(out.len().next_multiple_of(4), 0);
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

/// The same members in the portable ASCII "odc" format (`070707`, octal fields, no padding).
fn odc(members: &[(&str, u32, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let trailer: (&str, u32, &[u8]) = ("TRAILER!!!", 0, b"");
    for (ino, (name, mode, data)) in members.iter().chain([&trailer]).enumerate() {
        out.extend_from_slice(
            format!(
                "070707{:06o}{:06o}{:06o}{:06o}{:06o}{:06o}{:06o}{:011o}{:06o}{:011o}",
                0,
                ino + 1,
                mode,
                0,
                0,
                1,
                0,
                0,
                name.len() + 1,
                data.len()
            )
            .as_bytes(),
        );
        out.extend_from_slice(name.as_bytes());
        out.push(0);
        out.extend_from_slice(data);
    }
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

/// `cpio -i` into a workspace that holds `.claude/`: the hook reads the member names from
/// the archive itself; plain files and safe directories that miss the protected set are
/// extracted without a question, a member that lands in it is denied, and what the reader
/// cannot pin down (a symlink member, a `..` component, a file not there yet) is asked. An
/// absolute member is judged where it lands.
#[test]
fn cpio_archives_are_judged_by_the_members_they_hold() {
    let f = Fixture::new();
    let dir = f.sandbox.work().join("archives");
    std::fs::create_dir_all(&dir).unwrap();
    let pkg: &[(&str, u32, &[u8])] = &[
        ("pkg", 0o040_755, b""),
        ("pkg/a.txt", 0o100_644, b"hello\n"),
        ("pkg/sub", 0o040_755, b""),
        ("pkg/sub/b.bin", 0o100_644, b"\x00\x01\x02"),
    ];
    let ok = write(&dir, "ok.cpio", &newc(pkg));
    let ok_odc = write(&dir, "ok-odc.cpio", &odc(pkg));
    let evil = write(
        &dir,
        "evil.cpio",
        &newc(&[
            (".claude", 0o040_755, b""),
            (".claude/settings.json", 0o100_644, b"{}"),
        ]),
    );
    let link = write(
        &dir,
        "link.cpio",
        &newc(&[("l", 0o120_777, b"/etc"), ("l/x", 0o100_644, b"x")]),
    );
    let abs = write(
        &dir,
        "abs.cpio",
        &newc(&[("/tmp/fp3-abs.txt", 0o100_644, b"x")]),
    );
    // Absolute members land where they name (no `--no-absolute-filenames`): listed, each is
    // judged there — into the protected set is denied, like a relative member (wt-fp4).
    let settings = f.proj.join(".claude/settings.json").display().to_string();
    let abs_protected = write(
        &dir,
        "abs-protected.cpio",
        &newc(&[(settings.as_str(), 0o100_644, b"{}")]),
    );
    let abs_up = write(
        &dir,
        "abs-up.cpio",
        &newc(&[("/tmp/../etc/fp4.txt", 0o100_644, b"x")]),
    );
    let open_dir = write(&dir, "open.cpio", &newc(&[(".", 0o040_777, b"")]));
    let missing = dir.join("missing.cpio").display().to_string();
    f.check(&[
        (&format!("cpio -idv < {ok}"), "none", ""),
        (&format!("cpio -id < {ok_odc}"), "none", ""),
        (&format!("cpio -i -d -I {ok}"), "none", ""),
        (&format!("cpio --extract --file={ok}"), "none", ""),
        (
            &format!("cpio -idv < {evil}"),
            "deny",
            "no-governance-self-modification",
        ),
        (&format!("cpio -idv < {link}"), "ask", ""),
        (&format!("cpio -idv < {abs}"), "none", ""),
        (
            &format!("cpio -idv < {abs_protected}"),
            "deny",
            "no-governance-self-modification",
        ),
        (&format!("cpio -idv < {abs_up}"), "ask", ""),
        (&format!("cpio -idv < {open_dir}"), "ask", ""),
        (&format!("cpio -idv < {missing}"), "ask", ""),
        // `cat FILE |` names FILE as the next command's stdin (wt-flow), like `< FILE`.
        (&format!("cat {ok} | cpio -idv"), "none", ""),
        (&format!("cat {ok} {ok} | cpio -idv"), "ask", ""),
        (
            &format!("cpio -idv -D .claude < {ok}"),
            "deny",
            "no-governance-self-modification",
        ),
    ]);
}

/// A tar archive the hook cannot list (written by the same line, on a pipe, not there)
/// into a directory that only *holds* the protected set is asked about, not denied; a
/// listed one that misses it passes; one into the protected directory itself is denied.
#[test]
fn unlisted_archives_into_a_directory_holding_the_protected_set_ask() {
    let f = Fixture::new();
    let src = f.sandbox.work().join("src-pkg");
    std::fs::create_dir_all(src.join("pkg")).unwrap();
    std::fs::write(src.join("pkg/a.txt"), "a").unwrap();
    let tgz = f.sandbox.work().join("pkg.tgz").display().to_string();
    let status = std::process::Command::new("tar")
        .args(["czf", &tgz, "-C", src.to_str().unwrap(), "pkg"])
        .status()
        .unwrap();
    assert!(status.success());
    f.check(&[
        (&format!("tar -xzf {tgz}"), "none", ""),
        (&format!("tar -xz < {tgz}"), "none", ""),
        (
            &format!("curl -so {tgz} https://x.example/p.tgz && tar -xzf {tgz}"),
            "ask",
            "no-governance-self-modification",
        ),
        (
            "curl -sL https://x.example/p.tgz | tar -xz",
            "ask",
            "no-governance-self-modification",
        ),
        (
            &format!("tar -xzf {tgz} -C .claude"),
            "deny",
            "no-governance-self-modification",
        ),
        (
            "tar -xzf missing.tgz -C .claude",
            "deny",
            "no-governance-self-modification",
        ),
    ]);
}

/// Read-only verbs of system tools under `sudo` pass; everything else under sudo keeps the
/// ask of `no-permission-escalation`.
#[test]
fn read_only_system_verbs_under_sudo_pass_the_hook() {
    let f = Fixture::new();
    f.check(&[
        ("sudo systemctl status nginx", "none", ""),
        ("sudo journalctl -u app -n 50", "none", ""),
        ("sudo ss -ltnp", "none", ""),
        ("sudo ufw status", "none", ""),
        (
            "sudo systemctl restart nginx",
            "ask",
            "no-permission-escalation",
        ),
        (
            "sudo cat /var/log/auth.log",
            "ask",
            "no-permission-escalation",
        ),
        ("sudo bash", "ask", "no-permission-escalation"),
    ]);
}
