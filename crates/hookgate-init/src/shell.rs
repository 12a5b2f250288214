//! The little shell syntax needed to write a command string and to recognise our own.

/// Single-quotes `s` for a POSIX shell. Always quoted, so that a path with spaces, `$` or glob
/// characters reaches `execve` unchanged.
pub(crate) fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Splits a command line the way `sh` would, for the simple case only: words, single and double
/// quotes, backslashes. Anything that makes the line more than one plain command (`;`, `|`, `&`,
/// redirections, substitutions, unquoted `$`, globs) returns `None`: such a line is a user's
/// wrapper around hookgate, not our entry, and must be left alone.
pub(crate) fn split(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => word.push(c),
                            '\n' => {}
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        '$' | '`' => return None,
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next()? {
                    '\n' => {}
                    c => word.push(c),
                }
            }
            ';' | '|' | '&' | '<' | '>' | '(' | ')' | '$' | '`' | '*' | '?' | '[' | '#' | '~'
            | '\n' => {
                return None;
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;

    #[test]
    fn quote_round_trips_through_split() {
        for s in [
            "/usr/bin/hookgate",
            "/a b/it's $HOME/*",
            "",
            "'",
            r#"x"y\z"#,
        ] {
            assert_eq!(split(&quote(s)).unwrap(), vec![s.to_string()], "{s}");
        }
    }

    #[test]
    fn split_refuses_compound_commands() {
        assert_eq!(split("hookgate hook claude || true"), None);
        assert_eq!(split("hookgate hook claude; rm x"), None);
        assert_eq!(split("$HOOKGATE hook claude"), None);
        assert_eq!(
            split(r#"'/x y/hookgate' "hook" claude"#).unwrap(),
            ["/x y/hookgate", "hook", "claude"]
        );
    }
}
