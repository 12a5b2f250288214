//! limit_large_tool_results, always on in the runtime: a tool result larger than the budget is
//! cut before the model sees it — the head for reads (the start of a file is what the model
//! asked for), the tail otherwise (a command's last lines hold its outcome and its errors).
//! Cuts fall on UTF-8 character boundaries.
//!
//! A cut `read_file` result keeps whole lines and says exactly how to read on: `read_file`
//! again with `"line"` (the first line not shown, counted from the line the read started at)
//! and `"limit"` — docker-agent's ranged read. When the first line alone is over the budget,
//! reading by lines cannot advance, and the notice says to read a byte range with `shell`.
//!
//! The docker-agent built-in of the same name lives with the other built-ins; the runtime
//! applies the same cut (`hookgate_core::excerpt`, one owner) itself so that `hookgate run`
//! never sends an unbounded result to a model, whatever the configuration says.

use hookgate_core::excerpt::{Keep, excerpt};

use crate::tools;

/// The default budget in bytes.
pub const DEFAULT_MAX_BYTES: usize = 30_000;

/// Cuts `text` to `max_bytes` (plus a one-line notice), keeping the head for read tools and
/// the tail for everything else. `start_line` is the line a `read_file` started at (1 for a
/// whole read), so the notice can name the next one. Returns `None` when nothing had to be cut.
pub fn limit(tool: &str, text: &str, max_bytes: usize, start_line: u64) -> Option<String> {
    if text.len() <= max_bytes {
        return None;
    }
    let total = text.len();
    if !tools::is_read_only(tool) {
        let tail = excerpt(text, Keep::Tail, max_bytes, None);
        return Some(format!(
            "[output truncated: showing the last {} of {total} bytes]\n{tail}",
            tail.len()
        ));
    }
    let head = excerpt(text, Keep::Head, max_bytes, None);
    if tool != tools::READ_FILE {
        return Some(format!(
            "{head}\n[output truncated: showing the first {} of {total} bytes]",
            head.len()
        ));
    }
    // Whole lines only, so "read on from line N" names the first line not shown.
    let whole = head.rfind('\n').map_or("", |i| &head[..=i]);
    let shown = u64::try_from(whole.lines().count()).unwrap_or(u64::MAX);
    if shown == 0 {
        return Some(format!(
            "{head}\n[output truncated: showing the first {} of {total} bytes; line {start_line} alone is longer than the {max_bytes}-byte budget, so reading by lines cannot go further: read a byte range with shell (e.g. `tail -c +{} FILE | head -c {max_bytes}`)]",
            head.len(),
            head.len() + 1
        ));
    }
    let next = start_line.saturating_add(shown);
    Some(format!(
        "{whole}[output truncated: showing lines {start_line}-{} ({} of {total} bytes); read on with read_file and \"line\": {next}, \"limit\": {shown}]",
        next - 1,
        whole.len()
    ))
}

#[cfg(test)]
#[allow(clippy::format_collect, reason = "test fixtures")]
mod tests {
    use super::*;

    #[test]
    fn small_results_are_left_alone() {
        assert_eq!(limit("shell", "short", 10, 1), None);
    }

    #[test]
    fn reads_keep_the_head_and_other_tools_the_tail() {
        let text = "0123456789";
        let head = limit("list_directory", text, 4, 1).unwrap();
        assert!(head.starts_with("0123\n"), "{head}");
        let tail = limit("shell", text, 4, 1).unwrap();
        assert!(tail.ends_with("\n6789"), "{tail}");
    }

    #[test]
    fn a_cut_read_names_the_range_to_read_on_with() {
        let text: String = (1..=100).map(|i| format!("line {i:03}\n")).collect();
        // 9 bytes a line: a 50-byte budget shows 5 whole lines.
        let cut = limit("read_file", &text, 50, 1).unwrap();
        assert!(cut.starts_with("line 001\n"), "{cut}");
        assert!(
            cut.contains("line 005\n") && !cut.contains("line 006"),
            "{cut}"
        );
        assert!(cut.contains(r#""line": 6, "limit": 5"#), "{cut}");
        // Reading on from line 41 counts from there.
        let rest: String = text.lines().skip(40).map(|l| format!("{l}\n")).collect();
        let cut = limit("read_file", &rest, 50, 41).unwrap();
        assert!(
            cut.contains("lines 41-45") && cut.contains(r#""line": 46"#),
            "{cut}"
        );
    }

    #[test]
    fn a_line_longer_than_the_budget_is_read_by_bytes() {
        let cut = limit("read_file", &"x".repeat(100), 10, 1).unwrap();
        assert!(cut.contains("read a byte range with shell"), "{cut}");
        assert!(!cut.contains("\"line\""), "{cut}");
    }

    #[test]
    fn cuts_fall_on_character_boundaries() {
        let text = "ééééé"; // two bytes each
        let head = limit("read_file", text, 3, 1).unwrap();
        assert!(head.starts_with("é\n"), "{head}");
        let tail = limit("shell", text, 3, 1).unwrap();
        assert!(tail.ends_with("\né"), "{tail}");
    }
}
