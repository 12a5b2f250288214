//! limit_large_tool_results, always on in the runtime: a tool result larger than the budget is
//! cut before the model sees it — the head for reads (the start of a file is what the model
//! asked for; it can read on with a range), the tail otherwise (a command's last lines hold its
//! outcome and its errors). Cuts fall on UTF-8 character boundaries.
//!
//! The docker-agent built-in of the same name lives with the other built-ins; the runtime
//! applies the same cut (`hookgate_core::excerpt`, one owner) itself so that `hookgate run`
//! never sends an unbounded result to a model, whatever the configuration says.

use hookgate_core::excerpt::{Keep, excerpt};

use crate::tools;

/// The default budget in bytes.
pub const DEFAULT_MAX_BYTES: usize = 30_000;

/// Cuts `text` to `max_bytes` (plus a one-line notice), keeping the head for read tools and
/// the tail for everything else. Returns `None` when nothing had to be cut.
pub fn limit(tool: &str, text: &str, max_bytes: usize) -> Option<String> {
    if text.len() <= max_bytes {
        return None;
    }
    let total = text.len();
    if tools::is_read_only(tool) {
        let head = excerpt(text, Keep::Head, max_bytes, None);
        Some(format!(
            "{head}\n[output truncated: showing the first {} of {total} bytes; read the rest in ranges]",
            head.len()
        ))
    } else {
        let tail = excerpt(text, Keep::Tail, max_bytes, None);
        Some(format!(
            "[output truncated: showing the last {} of {total} bytes]\n{tail}",
            tail.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_results_are_left_alone() {
        assert_eq!(limit("shell", "short", 10), None);
    }

    #[test]
    fn reads_keep_the_head_and_other_tools_the_tail() {
        let text = "0123456789";
        let head = limit("read_file", text, 4).unwrap();
        assert!(head.starts_with("0123\n"), "{head}");
        let tail = limit("shell", text, 4).unwrap();
        assert!(tail.ends_with("\n6789"), "{tail}");
    }

    #[test]
    fn cuts_fall_on_character_boundaries() {
        let text = "ééééé"; // two bytes each
        let head = limit("read_file", text, 3).unwrap();
        assert!(head.starts_with("é\n"), "{head}");
        let tail = limit("shell", text, 3).unwrap();
        assert!(tail.ends_with("\né"), "{tail}");
    }
}
