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
        ArchiveFormat::Cpio => cpio_members(&query.archive),
        ArchiveFormat::SevenZip => None,
    };
    found
}

/// Member names of a cpio archive in the "newc"/"crc" (`070701`/`070702`) or portable ASCII
/// "odc" (`070707`) format, read natively: each header gives the mode, the link count, the
/// name size and the data size, so the reader walks header to header without unpacking.
/// Only plain files (one link: a hard-linked name shares data with another member) and
/// directories that keep `rwx` for the owner and writes for nobody else make a listing;
/// anything else — a symlink, device or fifo, the old binary format, a compressed stream, a
/// name that is not UTF-8 or holds a control character, a short read, more than
/// `MAX_ARCHIVE_MEMBERS` members — answers "no listing". Directories get a trailing `/`
/// (cpio names have none) so the policy knows what they are.
fn cpio_members(archive: &Path) -> Option<Vec<String>> {
    let file = std::fs::File::open(archive).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    cpio_names(file)
}

/// The member list of a cpio stream (see [`cpio_members`] for what makes a listing).
///
/// Public so the `cpio` fuzz target (crates/hookgate-guard/fuzz) can feed it attacker-made
/// bytes: the archive is the agent's, so the reader must answer `None`, never panic or
/// loop, on any input — and any list it does return keeps the invariants the policy relies on
/// (non-empty names without control characters, directories ending in `/`, at most
/// `MAX_ARCHIVE_MEMBERS` of them).
pub fn cpio_names<R: std::io::Read + std::io::Seek>(inner: R) -> Option<Vec<String>> {
    use std::io::Read;
    // File data is skipped by seeking: only headers and names are read.
    let mut r = std::io::BufReader::new(inner);
    let mut names = Vec::new();
    loop {
        let mut magic = [0u8; 6];
        r.read_exact(&mut magic).ok()?;
        let (mode, nlink, namesize, filesize, header, align) = match &magic {
            b"070701" | b"070702" => {
                let mut h = [0u8; 104];
                r.read_exact(&mut h).ok()?;
                let field = |i: usize| parse_radix(h.get(i * 8..i * 8 + 8)?, 16);
                (field(1)?, field(4)?, field(11)?, field(6)?, 110u64, 4u64)
            }
            b"070707" => {
                let mut h = [0u8; 70];
                r.read_exact(&mut h).ok()?;
                let at = |a: usize, n: usize| parse_radix(h.get(a..a + n)?, 8);
                // dev ino mode uid gid nlink rdev (6 each), mtime (11), namesize (6), filesize (11)
                (at(12, 6)?, at(30, 6)?, at(53, 6)?, at(59, 11)?, 76, 1)
            }
            _ => return None,
        };
        if namesize == 0 || namesize > 4096 {
            return None;
        }
        let mut name = vec![0u8; usize::try_from(namesize).ok()?];
        r.read_exact(&mut name).ok()?;
        if name.pop() != Some(0) {
            return None;
        }
        skip(&mut r, pad(header + namesize, align))?;
        let name = String::from_utf8(name).ok()?;
        if name == "TRAILER!!!" {
            return Some(names);
        }
        if name.is_empty() || name.chars().any(char::is_control) {
            return None;
        }
        match mode & 0o170_000 {
            // A plain file whose name ends in `/` would read as a directory entry to the
            // policy (found by the `cpio` fuzz target): no listing.
            0o100_000 if nlink <= 1 && !name.ends_with('/') => names.push(name),
            0o040_000 if mode & 0o700 == 0o700 && mode & 0o020 == 0 && mode & 0o002 == 0 => {
                names.push(format!("{}/", name.trim_end_matches('/')));
            }
            _ => return None,
        }
        if names.len() > MAX_ARCHIVE_MEMBERS {
            return None;
        }
        skip(&mut r, filesize + pad(filesize, align))?;
    }
}

/// An ASCII number field of a cpio header.
fn parse_radix(field: &[u8], radix: u32) -> Option<u64> {
    u64::from_str_radix(std::str::from_utf8(field).ok()?, radix).ok()
}

/// Bytes of padding after `len` bytes to reach a multiple of `align`.
fn pad(len: u64, align: u64) -> u64 {
    (align - len % align) % align
}

/// Skips `n` bytes (past the end, the next header read fails).
fn skip<R: std::io::Seek>(r: &mut std::io::BufReader<R>, n: u64) -> Option<()> {
    r.seek_relative(i64::try_from(n).ok()?).ok()
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

    /// One "newc" member: header, NUL-terminated name padded to 4, data padded to 4.
    fn newc(name: &str, mode: u32, nlink: u32, data: &[u8]) -> Vec<u8> {
        let namesize = name.len() + 1;
        let mut out = format!(
            "070701{:08x}{mode:08x}{:08x}{:08x}{nlink:08x}{:08x}{:08x}{:08x}{:08x}{:08x}{:08x}{namesize:08x}{:08x}",
            1, 0, 0, 0, data.len(), 0, 0, 0, 0, 0
        )
        .into_bytes();
        out.extend_from_slice(name.as_bytes());
        out.push(0);
        while out.len() % 4 != 0 {
            out.push(0);
        }
        out.extend_from_slice(data);
        while out.len() % 4 != 0 {
            out.push(0);
        }
        out
    }

    fn stream(members: &[Vec<u8>]) -> std::io::Cursor<Vec<u8>> {
        let mut all: Vec<u8> = members.concat();
        all.extend(newc("TRAILER!!!", 0, 1, b""));
        std::io::Cursor::new(all)
    }

    #[test]
    fn cpio_listing_names_plain_files_and_marks_directories() {
        let listed = cpio_names(stream(&[
            newc("src", 0o040_755, 2, b""),
            newc("src/a.txt", 0o100_644, 1, b"hello"),
        ]));
        assert_eq!(
            listed,
            Some(vec!["src/".to_owned(), "src/a.txt".to_owned()])
        );
    }

    #[test]
    fn cpio_members_that_land_elsewhere_or_hide_answer_no_listing() {
        for (member, why) in [
            (newc("l", 0o120_777, 1, b"/etc"), "symlink"),
            (newc("h", 0o100_644, 2, b"x"), "hard link"),
            (newc("f", 0o010_644, 1, b""), "fifo"),
            (newc("d", 0o040_777, 2, b""), "directory open to writes"),
            (
                newc("d", 0o040_000, 2, b""),
                "directory locking the owner out",
            ),
            (newc("a\nb", 0o100_644, 1, b""), "newline in the name"),
            (
                newc("a\u{1b}b", 0o100_644, 1, b""),
                "control character in the name",
            ),
            (
                newc("x/", 0o100_644, 1, b""),
                "plain file named like a directory",
            ),
        ] {
            assert_eq!(cpio_names(stream(&[member])), None, "{why}");
        }
    }

    #[test]
    fn cpio_truncated_or_foreign_streams_answer_no_listing() {
        let whole = stream(&[newc("a", 0o100_644, 1, b"data")]).into_inner();
        // Only the trailer's own padding may be missing: its name already ended the stream.
        let complete = whole
            .windows(11)
            .position(|w| w == b"TRAILER!!!\0")
            .map(|at| at + 11)
            .unwrap();
        for cut in 0..complete {
            assert_eq!(
                cpio_names(std::io::Cursor::new(&whole[..cut])),
                None,
                "cut at {cut}"
            );
        }
        assert_eq!(
            cpio_names(std::io::Cursor::new(b"\x1f\x8b\x08rest".to_vec())),
            None
        );
        assert_eq!(
            cpio_names(std::io::Cursor::new(b"070701zzzzzzzz".to_vec())),
            None
        );
    }
}
