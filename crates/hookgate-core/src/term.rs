//! Text from agents, made safe to print on a person's terminal.
//!
//! Commands, paths, reasons and tool names in hookgate's human output come from payloads an
//! agent (or whatever the agent read) controls. Printed raw, an ESC sequence in a command can
//! repaint the screen, hide a line, retitle the window or fake a decision; a bidi override can
//! make text read differently from what runs. [`escape`] is the one function every human view
//! passes such text through: control characters (C0, DEL, C1) and Unicode bidi controls
//! become visible escapes, everything else is unchanged. JSON output needs none of this
//! (serde escapes control characters itself).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal as itself.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every control character and bidi control shown as an escape (`\e`, `\n`,
/// `\t`, `\r`, `\x07`, `\u{202e}`) and a backslash before an escape-like backslash left as is:
/// the output is one line that cannot change the terminal's state. Borrowed when nothing
/// needed escaping.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_unsafe(c) {
            out.push(c);
            continue;
        }
        let _ = match c {
            '\u{1b}' => out.write_str("\\e"),
            '\n' => out.write_str("\\n"),
            '\t' => out.write_str("\\t"),
            '\r' => out.write_str("\\r"),
            c if u32::from(c) < 0x100 => write!(out, "\\x{:02x}", u32::from(c)),
            c => write!(out, "\\u{{{:x}}}", u32::from(c)),
        };
    }
    Cow::Owned(out)
}

/// [`escape`] for a multi-line human view: each line escaped, the line breaks kept. For
/// output assembled from many fields, so no field can slip through unescaped.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for piece in text.split_inclusive('\n') {
        let (line, end) = piece.strip_suffix('\n').map_or((piece, ""), |l| (l, "\n"));
        out.push_str(&escape(line));
        out.push_str(end);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::{escape, escape_lines};

    #[test]
    fn escape_lines_keeps_line_breaks_and_escapes_the_rest() {
        assert_eq!(escape_lines("a\nb\n"), "a\nb\n");
        assert_eq!(escape_lines("a\u{1b}[1m\nb"), "a\\e[1m\nb");
    }

    #[test]
    fn escape_sequences_cannot_reach_the_terminal() {
        assert_eq!(escape("git status"), "git status");
        assert_eq!(
            escape("ok\u{1b}[2J\u{1b}]0;pwned\u{7}"),
            "ok\\e[2J\\e]0;pwned\\x07"
        );
        assert_eq!(escape("a\nb\tc\rd"), "a\\nb\\tc\\rd");
        assert_eq!(escape("\u{9b}31m"), "\\x9b31m", "C1 CSI");
        assert_eq!(escape("\u{7f}"), "\\x7f");
        assert_eq!(escape("rm \u{202e}fdp.exe"), "rm \\u{202e}fdp.exe");
        assert_eq!(
            escape("naïve ✓ 日本"),
            "naïve ✓ 日本",
            "printable text is untouched"
        );
    }
}
