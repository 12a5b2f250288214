//! The files a unified or context diff names, read from its headers: what `patch` and
//! `git apply`/`git am` will write, delete or rename when the diff is visible in the command
//! line (a heredoc or here-string). The same idea as `hookgate_core::patch` for Codex's
//! envelope: only the headers decide, never the hunks' text.
//!
//! Headers read: `diff --git a/X b/Y`, `--- X` directly followed by `+++ Y` (unified), `*** X`
//! directly followed by `--- Y` (context), `Index: X`, `rename from/to`, `copy to`,
//! `new file mode`, `deleted file mode`. A removed hunk line that happens to start with `--- `
//! is not a header unless a `+++ ` line follows it, as in every real diff.

use hookgate_core::PathOp;

/// One path a diff touches, as written in the header (prefix not yet stripped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DiffPath {
    pub path: String,
    pub op: PathOp,
}

/// A header name: the part before a tab (timestamps follow it), unquoted (git quotes unusual
/// names C-style); `/dev/null` is no file.
fn header_name(raw: &str) -> Option<String> {
    let raw = raw.split('\t').next().unwrap_or(raw).trim_end_matches('\r');
    let name = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(q) => unquote(q),
        None => raw.trim_end().to_owned(),
    };
    (!name.is_empty() && name != "/dev/null").then_some(name)
}

fn unquote(q: &str) -> String {
    let mut out = String::with_capacity(q.len());
    let mut chars = q.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `diff --git a/X b/Y`: the two names (unquoted forms split at ` b/`).
fn git_header(rest: &str) -> Vec<String> {
    if let Some(q) = rest.strip_prefix('"') {
        return q
            .split("\" \"")
            .filter_map(|p| header_name(&format!("\"{}\"", p.trim_matches('"'))))
            .collect();
    }
    match rest.find(" b/") {
        Some(i) => [&rest[..i], &rest[i + 1..]]
            .iter()
            .filter_map(|p| header_name(p))
            .collect(),
        None => rest.split_whitespace().filter_map(header_name).collect(),
    }
}

/// Every path the diff's headers name, with what is done to it.
pub(crate) fn diff_paths(text: &str) -> Vec<DiffPath> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<DiffPath> = Vec::new();
    let push = |out: &mut Vec<DiffPath>, path: Option<String>, op: PathOp| {
        if let Some(path) = path
            && !out.iter().any(|p| p.path == path && p.op == op)
        {
            out.push(DiffPath { path, op });
        }
    };
    let mut deleted = false;
    for (i, line) in lines.iter().enumerate() {
        let next = lines.get(i + 1).copied().unwrap_or("");
        if let Some(rest) = line.strip_prefix("diff --git ") {
            deleted = false;
            for name in git_header(rest) {
                push(&mut out, Some(name), PathOp::Write);
            }
        } else if line.starts_with("deleted file mode") {
            deleted = true;
        } else if let Some(rest) = line.strip_prefix("--- ")
            && let Some(new) = next.strip_prefix("+++ ")
        {
            let old = header_name(rest);
            let new = header_name(new);
            if new.is_none() || deleted {
                push(&mut out, old.clone(), PathOp::Delete);
            }
            push(&mut out, old, PathOp::Write);
            push(&mut out, new, PathOp::Write);
        } else if let Some(rest) = line.strip_prefix("*** ")
            && let Some(new) = next.strip_prefix("--- ")
        {
            push(&mut out, header_name(rest), PathOp::Write);
            push(&mut out, header_name(new), PathOp::Write);
        } else if let Some(rest) = line.strip_prefix("Index: ") {
            push(&mut out, header_name(rest), PathOp::Write);
        } else if let Some(rest) = line.strip_prefix("rename from ") {
            push(&mut out, header_name(rest), PathOp::Move);
        } else if let Some(rest) = line
            .strip_prefix("rename to ")
            .or_else(|| line.strip_prefix("copy to "))
        {
            push(&mut out, header_name(rest), PathOp::Write);
        }
    }
    out
}

/// `path` without its first `n` components (`-p n`); `None` when it has fewer.
pub(crate) fn strip_components(path: &str, n: usize) -> Option<String> {
    if n == 0 {
        return Some(path.to_owned());
    }
    let parts: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
    (parts.len() > n).then(|| parts[n..].join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_headers_name_the_files_a_patch_touches() {
        let git = "diff --git a/.codex/hooks.json b/.codex/hooks.json\n\
                   index 1..2 100644\n--- a/.codex/hooks.json\n+++ b/.codex/hooks.json\n\
                   @@ -1 +1 @@\n-a\n+b\n";
        let paths: Vec<(String, PathOp)> = diff_paths(git)
            .into_iter()
            .map(|p| (p.path, p.op))
            .collect();
        assert!(paths.contains(&("b/.codex/hooks.json".into(), PathOp::Write)));
        let del = "--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n";
        assert!(
            diff_paths(del)
                .iter()
                .any(|p| p.path == "a/x" && p.op == PathOp::Delete)
        );
        let ren = "diff --git a/a b/b\nsimilarity index 100%\nrename from a\nrename to b\n";
        assert!(
            diff_paths(ren)
                .iter()
                .any(|p| p.path == "a" && p.op == PathOp::Move)
        );
        // A removed line `-- x` is `--- x` in the hunk, not a header.
        let hunk = "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1 @@\n--- comment\n select 1;\n";
        assert_eq!(diff_paths(hunk).len(), 2);
        let ctx = "*** old/f.c\t2020-01-01\n--- new/f.c\t2020-01-02\n***************\n";
        assert!(diff_paths(ctx).iter().any(|p| p.path == "new/f.c"));
        assert_eq!(
            strip_components("b/.codex/hooks.json", 1).as_deref(),
            Some(".codex/hooks.json")
        );
        assert_eq!(strip_components("x", 1), None);
    }
}
