//! A whole archive extracted into a directory, judged by what it holds.
//!
//! `tar xzf pkg.tgz -C /tmp` or `unzip x.zip -d DIR` writes below DIR, but only the paths
//! its members name. Judged as a write of the whole tree, an extraction into a directory
//! that holds a protected entry (`/tmp`, which holds hookgate's fallback audit directory
//! `/tmp/hookgate-<uid>`) is a self-modification, though nothing of the guard is touched.
//! So when the archive is a file named on the line, the judgement asks for its member list
//! ([`crate::Evaluation::archives_wanted`], only when the tree write is objected to); the
//! caller lists it (bounded in time and size, see `hookgate-guard`) and judges again with
//! the answer in [`crate::Ctx::archives`], and the tree is replaced by the exact paths the
//! members land on — each then judged by every invariant (protected set, sensitive
//! catalog, symlinks on the way) like any other write.
//!
//! Invariant protected: `no-governance-self-modification` still holds — a member that lands
//! on or inside a protected path is a write there. What a listing cannot pin down keeps
//! the tree: an archive read from stdin, one that cannot be listed (unreadable, timed out,
//! too many members), link or special-file members (a symlink member followed by a member
//! through it writes anywhere), absolute names or `..` components, excluded members,
//! `--transform`, `-P`, `unzip -j`/`-:`. The archive is listed when the call is judged and
//! extracted when it runs: one that changes in between is judged by the old list — the
//! same window as any file the agent reads after a check.

use std::path::{Component, Path, PathBuf};

use hookgate_core::PathOp;
use serde::{Deserialize, Serialize};

use crate::action::{Reach, Touch};

/// How an archive is listed (and which tool extracts it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArchiveFormat {
    /// `tar` (any compression the tar program detects).
    Tar,
    /// `unzip`.
    Zip,
    /// `cpio -i` (the "newc", "crc" and "odc" formats are read by the caller itself).
    Cpio,
    /// `7z x|e`: never listed (the headers of a 7z archive are usually LZMA-compressed, and
    /// a reader for them is a dependency the guard does not take); the extraction stays an
    /// archive that cannot be listed, asked about where it could reach the protected set.
    SevenZip,
}

impl ArchiveFormat {
    /// Whether the caller can list this format at all (no question is asked otherwise).
    pub(crate) fn listable(self) -> bool {
        !matches!(self, Self::SevenZip)
    }
}

/// What the caller found in one archive a call extracts whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveListing {
    /// The archive, canonical (as named in [`crate::Evaluation::archives_wanted`]).
    pub archive: PathBuf,
    /// How it was listed.
    pub format: ArchiveFormat,
    /// Its members' names in archive order (directories end in `/`); `None` when it could not
    /// be listed as plain files and directories (then the extraction is judged as a write of
    /// the whole tree, as without a listing). `None` in a question.
    pub members: Option<Vec<String>>,
}

/// Most members replaced by exact paths; a larger archive keeps the tree.
pub const MAX_MEMBERS: usize = 10_000;

/// The writes an extraction into `dir` (as written, relative to the command's directory) of
/// an archive holding `members` makes, after dropping `strip` leading components; `None`
/// when a member could land where its name does not say (a `..` component; an absolute name
/// unless `absolute`) or there are too many to judge one by one. With `absolute` (`cpio -i`
/// without `--no-absolute-filenames`) an absolute member is written where it names — so a
/// listed `/home/u/.claude/settings.json` is a write there, judged (denied) like any other,
/// instead of an extraction the guard cannot place (asked). A member whose name is used up
/// by `strip` is not extracted.
pub(crate) fn member_touches(
    members: &[String],
    dir: &str,
    strip: usize,
    absolute: bool,
) -> Option<Vec<Touch>> {
    if members.len() > MAX_MEMBERS {
        return None;
    }
    let mut out: Vec<Touch> = Vec::with_capacity(members.len());
    for m in members {
        let rooted = m.starts_with('/');
        if m.is_empty() || rooted && !absolute {
            return None;
        }
        let mut parts: Vec<&str> = Vec::new();
        for c in Path::new(m).components() {
            match c {
                Component::Normal(p) => parts.push(p.to_str()?),
                Component::CurDir => {}
                Component::RootDir if absolute => {}
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
            }
        }
        if strip > 0 {
            if parts.len() <= strip {
                continue;
            }
            parts.drain(..strip);
        }
        let raw = if rooted {
            format!("/{}", parts.join("/"))
        } else if parts.is_empty() {
            dir.to_owned()
        } else {
            crate::action::join_path(dir, &parts.join("/"))
        };
        let mut t = Touch::new(raw, PathOp::Write, Reach::Exact);
        // A directory member creates the directory or sets the mode of the one there.
        t.metadata = m.ends_with('/') || parts.is_empty();
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn members_land_below_the_directory_or_the_listing_is_not_used() {
        let t =
            member_touches(&members(&["./", "./pkg/", "./pkg/a.txt"]), "/tmp", 0, false).unwrap();
        let raws: Vec<&str> = t.iter().map(|t| t.raw.as_str()).collect();
        assert_eq!(raws, ["/tmp", "/tmp/pkg", "/tmp/pkg/a.txt"]);
        assert!(t[0].metadata && t[1].metadata && !t[2].metadata);
        assert!(t.iter().all(|t| t.reach == Reach::Exact));
        let stripped =
            member_touches(&members(&["pkg-1/", "pkg-1/bin/x"]), "out", 1, false).unwrap();
        let raws: Vec<&str> = stripped.iter().map(|t| t.raw.as_str()).collect();
        assert_eq!(raws, ["out/bin/x"]);
        for bad in [&["/etc/passwd"][..], &["a/../../x"], &[""]] {
            assert_eq!(
                member_touches(&members(bad), "/tmp", 0, false),
                None,
                "{bad:?}"
            );
        }
    }

    /// cpio extracts an absolute member where it names (without `--no-absolute-filenames`):
    /// the listing places it there exactly; `..` still keeps the tree.
    #[test]
    fn absolute_members_land_where_they_name_when_the_tool_keeps_them() {
        let t = member_touches(&members(&["/home/u/.bashrc", "pkg/a"]), "out", 0, true).unwrap();
        let raws: Vec<&str> = t.iter().map(|t| t.raw.as_str()).collect();
        assert_eq!(raws, ["/home/u/.bashrc", "out/pkg/a"]);
        assert_eq!(member_touches(&members(&["/a/../b"]), "out", 0, true), None);
        assert_eq!(member_touches(&members(&["/etc/x"]), "out", 0, false), None);
    }
}
