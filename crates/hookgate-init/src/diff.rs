//! A unified diff of a plan, for `--dry-run`.

use std::fmt::Write as _;

use crate::plan::Plan;

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The plan as a unified diff (`--- a` / `+++ b` / `@@` hunks), one section per file, followed by
/// the plan's notes. An empty plan says so, so `--dry-run` never prints nothing.
pub fn diff(plan: &Plan) -> String {
    let mut out = String::new();
    if plan.files.is_empty() {
        out.push_str("no changes\n");
    }
    for change in &plan.files {
        let path = change.path.display();
        let (old_name, new_name) = match (&change.before, &change.after) {
            (None, _) => ("/dev/null".to_owned(), format!("{path}")),
            (_, None) => (format!("{path}"), "/dev/null".to_owned()),
            _ => (format!("{path}"), format!("{path}")),
        };
        let _ = writeln!(out, "--- {old_name}\n+++ {new_name}");
        let old: Vec<&str> = change.before.as_deref().map_or(Vec::new(), split_lines);
        let new: Vec<&str> = change.after.as_deref().map_or(Vec::new(), split_lines);
        write_hunks(&mut out, &old, &new);
    }
    for note in &plan.notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}

fn split_lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Keep,
    Del,
    Add,
}

/// Line operations from a longest-common-subsequence table. Config files are small (hundreds of
/// lines), so the quadratic table is fine and keeps the diff minimal.
fn ops(old: &[&str], new: &[&str]) -> Vec<(Op, usize, usize)> {
    let (n, m) = (old.len(), new.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            out.push((Op::Keep, i, j));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push((Op::Del, i, j));
            i += 1;
        } else {
            out.push((Op::Add, i, j));
            j += 1;
        }
    }
    out
}

fn write_hunks(out: &mut String, old: &[&str], new: &[&str]) {
    let ops = ops(old, new);
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != Op::Keep).collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let hunk = &ops[start..end];
        let old_len = hunk.iter().filter(|o| o.0 != Op::Add).count();
        let new_len = hunk.iter().filter(|o| o.0 != Op::Del).count();
        let (_, i0, j0) = hunk[0];
        let old_start = if old_len == 0 { i0 } else { i0 + 1 };
        let new_start = if new_len == 0 { j0 } else { j0 + 1 };
        let _ = writeln!(out, "@@ -{old_start},{old_len} +{new_start},{new_len} @@");
        for &(op, i, j) in hunk {
            let (sign, line) = match op {
                Op::Keep => (' ', old[i]),
                Op::Del => ('-', old[i]),
                Op::Add => ('+', new[j]),
            };
            out.push(sign);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::FileChange;

    #[test]
    fn diff_shows_added_and_removed_lines_with_context() {
        let plan = Plan {
            files: vec![FileChange {
                path: "/x/settings.json".into(),
                before: Some("a\nb\nc\nd\ne\nf\ng\nh\n".into()),
                after: Some("a\nb\nc\nd\nE\nf\ng\nh\n".into()),
            }],
            notes: vec![],
            warnings: vec![],
        };
        assert_eq!(
            diff(&plan),
            "--- /x/settings.json\n+++ /x/settings.json\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
    }

    #[test]
    fn diff_of_a_new_file_is_all_additions() {
        let plan = Plan {
            files: vec![FileChange {
                path: "/x/new.json".into(),
                before: None,
                after: Some("{}\n".into()),
            }],
            notes: vec!["hello".into()],
            warnings: vec![],
        };
        assert_eq!(
            diff(&plan),
            "--- /dev/null\n+++ /x/new.json\n@@ -0,0 +1,1 @@\n+{}\nnote: hello\n"
        );
    }
}
