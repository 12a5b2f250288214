//! Codex `apply_patch` bodies: which files a patch touches and what it adds.
//!
//! The envelope is line-based (`*** Begin Patch`, `*** Add File: p`, `*** Update File: p`
//! optionally followed by `*** Move to: q`, `*** Delete File: p`, `*** End Patch`). A patch is
//! judged by the files it touches, so the reader is deliberately forgiving: it scans for the
//! markers wherever they are (a heredoc around the envelope, a missing `End Patch`, CRLF line
//! ends) and keeps whatever it could read. It never fails and never panics; a body with no
//! markers simply touches no known path.

use crate::canonical::{PathOp, PathTarget};

/// What a patch does, as far as it could be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatchSummary {
    /// Every path, in patch order: Add/Update → `Write`, Delete → `Delete`, an updated file that
    /// is moved → `Move` plus its destination as `Write`.
    pub paths: Vec<PathTarget>,
    /// The added lines (`+` stripped) of every Add/Update section, joined by `\n`; `None` when
    /// the patch adds nothing.
    pub added: Option<String>,
}

/// True when `text` contains at least one patch file marker.
pub fn looks_like_patch(text: &str) -> bool {
    text.lines().any(|line| marker(line).is_some())
}

enum Marker<'a> {
    Add(&'a str),
    Update(&'a str),
    Delete(&'a str),
    MoveTo(&'a str),
}

fn marker(line: &str) -> Option<Marker<'_>> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let rest = line.strip_prefix("*** ")?;
    if let Some(p) = rest.strip_prefix("Add File:") {
        Some(Marker::Add(p.trim()))
    } else if let Some(p) = rest.strip_prefix("Update File:") {
        Some(Marker::Update(p.trim()))
    } else if let Some(p) = rest.strip_prefix("Delete File:") {
        Some(Marker::Delete(p.trim()))
    } else {
        rest.strip_prefix("Move to:")
            .map(|p| Marker::MoveTo(p.trim()))
    }
}

/// Reads a patch body.
pub fn parse_patch(body: &str) -> PatchSummary {
    let mut paths: Vec<PathTarget> = Vec::new();
    let mut added: Vec<&str> = Vec::new();
    // Whether `+` lines currently belong to an Add/Update section.
    let mut in_content = false;
    // Index in `paths` of the last Update, which a `Move to` applies to.
    let mut last_update: Option<usize> = None;
    let push = |paths: &mut Vec<PathTarget>, path: &str, op: PathOp| -> Option<usize> {
        if path.is_empty() {
            return None;
        }
        paths.push(PathTarget {
            path: path.to_owned(),
            op,
        });
        Some(paths.len() - 1)
    };
    for raw in body.lines() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        match marker(line) {
            Some(Marker::Add(p)) => {
                push(&mut paths, p, PathOp::Write);
                in_content = true;
                last_update = None;
            }
            Some(Marker::Update(p)) => {
                last_update = push(&mut paths, p, PathOp::Write);
                in_content = true;
            }
            Some(Marker::Delete(p)) => {
                push(&mut paths, p, PathOp::Delete);
                in_content = false;
                last_update = None;
            }
            Some(Marker::MoveTo(p)) => {
                if p.is_empty() {
                    continue;
                }
                if let Some(target) = last_update.and_then(|i| paths.get_mut(i)) {
                    target.op = PathOp::Move;
                }
                push(&mut paths, p, PathOp::Write);
                last_update = None;
            }
            None => {
                if line.starts_with("*** ") {
                    // Begin/End Patch, End of File: structure, not content.
                    if line.starts_with("*** End Patch") {
                        in_content = false;
                    }
                } else if in_content && let Some(text) = line.strip_prefix('+') {
                    added.push(text);
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    paths.retain(|p| seen.insert((p.path.clone(), p.op)));
    PatchSummary {
        paths,
        added: if added.is_empty() {
            None
        } else {
            Some(added.join("\n"))
        },
    }
}
