//! Cutting a large text to a budget — the one rule behind `limit_large_tool_results` (the
//! built-in) and the runtime's always-on bound on what a model is sent, so the two can never
//! disagree about which end is kept or split a UTF-8 character.

/// Which end of a text is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The start (reads: the start of a file is what was asked for).
    Head,
    /// The end (commands: the last lines hold the outcome and the errors).
    Tail,
}

/// At most `max_bytes` bytes and, with `max_lines`, at most that many lines of `text` from the
/// kept end. Cuts fall on character boundaries, so the result is always valid UTF-8 text.
#[must_use]
pub fn excerpt(text: &str, keep: Keep, max_bytes: usize, max_lines: Option<usize>) -> &str {
    match keep {
        Keep::Head => {
            let mut end = text.len().min(max_bytes);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let head = &text[..end];
            match max_lines.and_then(|n| head.match_indices('\n').nth(n.checked_sub(1)?)) {
                Some((i, _)) => &head[..=i],
                None => head,
            }
        }
        Keep::Tail => {
            let mut start = text.len().saturating_sub(max_bytes);
            while !text.is_char_boundary(start) {
                start += 1;
            }
            let tail = &text[start..];
            // The last `max_lines` lines: skip past that many newlines from the end, ignoring a
            // trailing newline.
            let body = tail.strip_suffix('\n').unwrap_or(tail);
            match max_lines.and_then(|n| body.rmatch_indices('\n').nth(n.checked_sub(1)?)) {
                Some((i, _)) => &tail[i + 1..],
                None => tail,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_on_character_boundaries_at_either_end() {
        assert_eq!(excerpt("ééééé", Keep::Head, 3, None), "é");
        assert_eq!(excerpt("ééééé", Keep::Tail, 3, None), "é");
    }

    #[test]
    fn a_line_budget_keeps_whole_lines_from_the_kept_end() {
        assert_eq!(excerpt("a\nb\nc\n", Keep::Head, 100, Some(2)), "a\nb\n");
        assert_eq!(excerpt("a\nb\nc\n", Keep::Tail, 100, Some(2)), "b\nc\n");
        assert_eq!(excerpt("abc", Keep::Tail, 100, Some(2)), "abc");
    }
}
