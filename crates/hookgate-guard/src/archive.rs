//! Archive member lists for the policy (`hookgate_policy::Evaluation::archives_wanted`): an
//! extraction of a whole archive into a directory is judged by where its members land.
//!
//! The archive is listed by the system's own `tar` or `unzip` (the programs that will
//! extract it, so compression and format detection agree), read-only, under a deadline and
//! an output cap. Only plain files and directories are reported: a symlink, hard link,
//! device or fifo member (a link member followed by a member written through it lands
//! anywhere), a name the lister had to quote or escape, a failure, a timeout, an output
//! over the cap or more than `MAX_ARCHIVE_MEMBERS` members answer "no listing" — the
//! extraction is then judged as a write of the whole directory, as before (fail closed).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use hookgate_policy::{ArchiveFormat, ArchiveListing, MAX_ARCHIVE_MEMBERS};

use crate::probe::bounded;

/// Longest one listing may take: the agent waits on it.
const LIST_TIMEOUT: Duration = Duration::from_secs(3);

/// Most listing output read.
const LIST_CAP: usize = 2 * 1024 * 1024;

/// The member list of `query.archive`, or the same question with `members: None`.
pub fn listing(query: &ArchiveListing) -> ArchiveListing {
    let mut found = query.clone();
    found.members = match query.format {
        ArchiveFormat::Tar => tar_members(&query.archive),
        ArchiveFormat::Zip => zip_members(&query.archive),
    };
    found
}

fn run(program: &str, args: &[&str], archive: &Path) -> Option<String> {
    // Only a regular file is listed: a fifo or device would block or never end.
    if !std::fs::metadata(archive).ok()?.is_file() {
        return None;
    }
    let mut cmd = Command::new(program);
    cmd.args(args).arg(archive).env("LC_ALL", "C");
    let out = bounded(cmd, LIST_TIMEOUT, LIST_CAP)?;
    if out.truncated {
        return None;
    }
    String::from_utf8(out.stdout).ok()
}

/// Names from `tar -tf`, types and modes from `tar -tvf` (its first column): two listings
/// of the same file, which must agree line for line.
fn tar_members(archive: &Path) -> Option<Vec<String>> {
    let names = run("tar", &["--quoting-style=escape", "-tf"], archive)
        .or_else(|| run("tar", &["-tf"], archive))?;
    let verbose = run("tar", &["-tvf"], archive)?;
    members(&names, verbose.lines().map(|l| l.get(..10)))
}

/// Names from `unzip -Z1`, types and modes from `unzip -Zs` (zipinfo's `ls -l` column; its
/// header and totals lines are not entries and are left out).
fn zip_members(archive: &Path) -> Option<Vec<String>> {
    let names = run("unzip", &["-Z1"], archive)?;
    let verbose = run("unzip", &["-Zs"], archive)?;
    let modes = verbose
        .lines()
        .filter(|l| l.get(..10).is_some_and(is_mode))
        .map(|l| l.get(..10));
    members(&names, modes)
}

/// An `ls -l` mode column: a type letter and nine permission letters.
fn is_mode(m: &str) -> bool {
    m.len() == 10 && m.chars().skip(1).all(|c| "rwxsStT-".contains(c))
}

/// The names, when every entry is a plain file or a directory and none was quoted.
///
/// A directory entry sets the mode of the directory it lands on, which may be the
/// extraction directory itself (`./`) or one holding the guard's files: one that would take
/// the owner's access away (`d---------`) or open it to writes by others locks out or
/// exposes what is below, so the listing is used only when each directory entry keeps
/// `rwx` for the owner and writes for nobody else.
fn members<'a>(names: &str, modes: impl Iterator<Item = Option<&'a str>>) -> Option<Vec<String>> {
    let names: Vec<String> = names.lines().map(str::to_owned).collect();
    if names.len() > MAX_ARCHIVE_MEMBERS || names.iter().any(|n| n.contains('\\')) {
        return None;
    }
    let mut count = 0usize;
    for mode in modes {
        let mode = mode.filter(|m| is_mode(m))?;
        let b = mode.as_bytes();
        match b[0] {
            b'-' => {}
            b'd' if &mode[1..4] == "rwx" && b[5] != b'w' && b[8] != b'w' => {}
            _ => return None,
        }
        count += 1;
    }
    (count == names.len()).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_files_and_safe_directories_make_a_listing() {
        let m = |modes: &[&'static str]| modes.iter().map(|m| Some(*m)).collect::<Vec<_>>();
        assert_eq!(
            members("a/\na/b\n", m(&["drwxr-xr-x", "-rw-r--r--"]).into_iter()),
            Some(vec!["a/".to_owned(), "a/b".to_owned()])
        );
        for (names, modes, why) in [
            ("a\nl\n", m(&["-rw-r--r--", "lrwxrwxrwx"]), "symlink member"),
            (
                "a\nh\n",
                m(&["-rw-r--r--", "hrw-r--r--"]),
                "hard link member",
            ),
            ("a\n", m(&["-rw-r--r--", "-rw-r--r--"]), "listings disagree"),
            ("a\\nb\n", m(&["-rw-r--r--"]), "escaped name"),
            ("./\n", m(&["d---------"]), "locks the owner out"),
            ("./\n", m(&["drwxrwxrwx"]), "open to writes by others"),
            ("p\n", m(&["prw-r--r--"]), "fifo"),
        ] {
            assert_eq!(members(names, modes.into_iter()), None, "{why}");
        }
    }
}
