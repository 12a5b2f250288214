//! Tool-name matchers: full-match regexes, compiled only when their event fires.
//!
//! Start-up sits on every agent's critical path, so a config with fifty matchers must not pay
//! for fifty regex compilations to answer one `pre_tool_use`. Syntax is still checked for every
//! matcher at load time (cheaply, with `regex-syntax`'s parser), so an invalid pattern is a
//! config error up front, never a guard that silently stops matching.

use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

/// Why a tool-name matcher cannot be used.
///
/// At load ([`check_syntax`]) this is a config error; at dispatch ([`LazyMatcher::matches`])
/// the engine makes it the hook's failure — a matcher that cannot be evaluated must not remove
/// its guard.
#[derive(Debug, Clone, thiserror::Error)]
pub enum MatcherError {
    /// The pattern is not a regex.
    #[error("invalid `matcher` regex `{pattern}`: {kind}")]
    Syntax {
        /// The pattern as configured.
        pattern: String,
        /// What is wrong with it.
        kind: regex_syntax::ast::ErrorKind,
    },
    /// The pattern parses but cannot be compiled (a size limit).
    #[error("matcher `{pattern}`: {source}")]
    Compile {
        /// The pattern as configured.
        pattern: String,
        /// Why.
        source: regex::Error,
    },
}

/// True when `pattern` is an alternation of literal names (`Bash|Write|mcp:fs`), which needs
/// no regex engine at all.
fn is_literal_alternation(pattern: &str) -> bool {
    pattern
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'|' | b':'))
}

/// Checks that `pattern` is a valid regex, without compiling it.
///
/// Most matchers are alternations of literal tool names (`shell|edit_file`); those are valid by
/// construction and skip the parser.
pub fn check_syntax(pattern: &str) -> Result<(), MatcherError> {
    if is_literal_alternation(pattern) {
        return Ok(());
    }
    regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .map(|_| ())
        .map_err(|e| MatcherError::Syntax {
            pattern: pattern.to_owned(),
            kind: e.kind().clone(),
        })
}

/// A matcher compiled on first use.
#[derive(Debug, Default)]
pub struct LazyMatcher {
    pattern: Option<String>,
    compiled: OnceLock<Result<Regex, MatcherError>>,
}

impl LazyMatcher {
    /// A matcher over `pattern`; `None` matches every tool.
    pub fn new(pattern: Option<String>) -> Self {
        Self {
            pattern,
            compiled: OnceLock::new(),
        }
    }

    /// Whether `tool` matches. An event without a tool name matches only match-all entries.
    ///
    /// Errors if the pattern cannot be compiled (syntax was checked at load, so this is only
    /// reachable through limits such as the compiled-size cap); the engine treats that as a
    /// hook failure, which blocks on fail-closed events.
    pub fn matches(&self, tool: Option<&str>) -> Result<bool, MatcherError> {
        let Some(pattern) = &self.pattern else {
            return Ok(true);
        };
        let Some(tool) = tool else {
            return Ok(false);
        };
        // A full match of a literal alternation is set membership: no compile, no engine.
        if is_literal_alternation(pattern) {
            return Ok(pattern.split('|').any(|name| name == tool));
        }
        // Byte-oriented and ASCII-only (`\w`, `.` and classes are ASCII): tool names are
        // identifiers, and Unicode tables make each compile several times slower. Non-ASCII
        // literals in a pattern still match their UTF-8 bytes.
        let compiled = self.compiled.get_or_init(|| {
            RegexBuilder::new(&format!("^(?:{pattern})$"))
                .unicode(false)
                .build()
                .map_err(|source| MatcherError::Compile {
                    pattern: pattern.clone(),
                    source,
                })
        });
        match compiled {
            Ok(regex) => Ok(regex.is_match(tool.as_bytes())),
            Err(e) => Err(e.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, tool: &str) -> bool {
        let pattern = (!pattern.is_empty() && pattern != "*").then(|| pattern.to_owned());
        LazyMatcher::new(pattern).matches(Some(tool)).unwrap()
    }

    #[test]
    fn matcher_table_from_the_seed() {
        assert!(m("*", "anything"));
        assert!(m("", "anything"));
        assert!(m("shell", "shell"));
        assert!(!m("shell", "shell_exec"));
        assert!(!m("shell", "myshell"));
        assert!(m("shell|edit_file", "shell"));
        assert!(m("shell|edit_file", "edit_file"));
        assert!(!m("shell|edit_file", "read_file"));
        assert!(m("mcp:.*", "mcp:github"));
        assert!(!m("mcp:.*", "shell"));
        assert!(m("mcp__.*", "mcp__fs__read"));
        assert!(!m("mcp__.*", "xmcp__fs"));
    }

    #[test]
    fn non_ascii_literals_still_match() {
        assert!(m("outil_é|x", "outil_é"));
        assert!(m("mcp__.*", "mcp__serveur_é"));
    }

    #[test]
    fn literal_alternations_match_whole_names_only() {
        assert!(m("Bash|Write", "Write"));
        assert!(!m("Bash|Write", "Writer"));
        assert!(!m("Bash|Write", "Bas"));
        assert!(!m("Bash||Write", "x"));
        assert!(
            m("a||b", ""),
            "an empty alternative matches the empty name, as the regex would"
        );
    }

    #[test]
    fn matching_is_case_sensitive() {
        assert!(!m("bash", "Bash"));
    }

    #[test]
    fn invalid_regex_is_reported_not_ignored() {
        assert!(matches!(
            check_syntax("shell("),
            Err(MatcherError::Syntax { pattern, .. }) if pattern == "shell("
        ));
        let unusable = LazyMatcher::new(Some("a(".into())).matches(Some("a"));
        assert!(
            matches!(&unusable, Err(e) if e.to_string().starts_with("matcher `a(`")),
            "{unusable:?}"
        );
        assert!(check_syntax("shell|edit").is_ok());
    }

    #[test]
    fn tool_less_events_match_only_match_all_entries() {
        assert!(LazyMatcher::new(None).matches(None).unwrap());
        assert!(!LazyMatcher::new(Some("x".into())).matches(None).unwrap());
    }
}
