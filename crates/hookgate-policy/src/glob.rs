//! Path globs over canonical (absolute, `..`-folded) paths, component by component.
//!
//! Written here rather than pulled in (globset) because the semantics are small and must be
//! exactly these: a glob is anchored at the workspace unless it starts with `/` (absolute) or
//! `~/` (home); a glob without any `/` matches a file name at any depth (`*.pem`, like
//! `.gitignore`); a trailing `/` means "this directory and everything below". `*` and `?` stay
//! inside one component, `**` spans any number of components, `{a,b}` alternates and `[abc]`
//! / `[!a-z]` are character classes. Paths are normalised *before* matching, so `src/../.env`
//! is judged as `.env` and `..` can never walk a path out of a glob's reach.

use std::path::{Component, Path};

/// Where a glob is rooted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    Workspace,
    Home,
    Absolute,
}

/// One compiled glob (after brace expansion: one alternative).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Alternative {
    root: Root,
    segments: Vec<String>,
}

/// A compiled path glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathGlob {
    text: String,
    alternatives: Vec<Alternative>,
}

/// Most alternatives one brace expansion may produce (`{a,b}{c,d}…` grows multiplicatively).
const MAX_ALTERNATIVES: usize = 256;

impl PathGlob {
    pub(crate) fn compile(text: &str) -> Result<Self, String> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err("an empty path glob".into());
        }
        let expanded = expand_braces(trimmed)?;
        let mut alternatives = Vec::with_capacity(expanded.len());
        for alt in expanded {
            let (root, rest) = if let Some(rest) = alt.strip_prefix("~/") {
                (Root::Home, rest.to_owned())
            } else if let Some(rest) = alt.strip_prefix('/') {
                (Root::Absolute, rest.to_owned())
            } else if !alt.trim_end_matches('/').contains('/') {
                (Root::Workspace, format!("**/{alt}"))
            } else {
                (Root::Workspace, alt.trim_start_matches("./").to_owned())
            };
            let rest = if rest.ends_with('/') {
                format!("{rest}**")
            } else {
                rest
            };
            let mut segments: Vec<String> = Vec::new();
            for seg in rest.split('/').filter(|s| !s.is_empty() && *s != ".") {
                if seg == ".." {
                    return Err(format!("`{text}`: `..` is not allowed in a path glob"));
                }
                if seg.contains("**") && seg != "**" {
                    return Err(format!(
                        "`{text}`: `**` must be a whole path component (`a/**/b`)"
                    ));
                }
                check_classes(seg).map_err(|e| format!("`{text}`: {e}"))?;
                segments.push(seg.to_owned());
            }
            alternatives.push(Alternative { root, segments });
        }
        Ok(Self {
            text: trimmed.to_owned(),
            alternatives,
        })
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether a canonical absolute path matches.
    pub(crate) fn matches(&self, path: &Path, workspace: &Path, home: Option<&Path>) -> bool {
        self.alternatives.iter().any(|alt| {
            let base = match alt.root {
                Root::Absolute => Some(Path::new("/")),
                Root::Workspace => Some(workspace),
                Root::Home => home,
            };
            let Some(rel) = base.and_then(|b| path.strip_prefix(b).ok()) else {
                return false;
            };
            let parts: Vec<&str> = rel
                .components()
                .filter_map(|c| match c {
                    Component::Normal(s) => s.to_str(),
                    _ => None,
                })
                .collect();
            let segs: Vec<&str> = alt.segments.iter().map(String::as_str).collect();
            match_segments(&segs, &parts)
        })
    }
}

fn match_segments(pattern: &[&str], parts: &[&str]) -> bool {
    // Iterative with one backtrack point per `**` (the classic two-pointer wildcard match,
    // lifted to components), so hostile globs cost O(n·m), never exponential.
    let (mut p, mut s) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while s < parts.len() {
        match pattern.get(p) {
            Some(&"**") => {
                star = Some((p, s));
                p += 1;
            }
            Some(seg) if component_matches(seg, parts[s]) => {
                p += 1;
                s += 1;
            }
            _ => match star {
                Some((sp, ss)) => {
                    p = sp + 1;
                    s = ss + 1;
                    star = Some((sp, ss + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p.min(pattern.len())..].iter().all(|x| *x == "**")
}

/// `*`, `?` and `[…]` within one component (iterative, backtracking on the last `*`).
fn component_matches(pattern: &str, text: &str) -> bool {
    let pat: Vec<char> = pattern.chars().collect();
    let chars: Vec<char> = text.chars().collect();
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while t < chars.len() {
        let step = match pat.get(p) {
            Some('*') => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => class_match(&pat, p, chars[t]),
            Some(c) if *c == chars[t] => Some(p + 1),
            _ => None,
        };
        match step {
            Some(next) => {
                p = next;
                t += 1;
            }
            None => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pat[p.min(pat.len())..].iter().all(|c| *c == '*')
}

/// Matches `c` against the class starting at `pat[start] == '['`; the index after `]` on a
/// match. An unterminated `[` is a literal.
fn class_match(pat: &[char], start: usize, c: char) -> Option<usize> {
    let mut i = start + 1;
    let negate = matches!(pat.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while let Some(&ch) = pat.get(i) {
        if ch == ']' && !first {
            return (matched != negate).then_some(i + 1);
        }
        first = false;
        if pat.get(i + 1) == Some(&'-') && pat.get(i + 2).is_some_and(|e| *e != ']') {
            let end = pat[i + 2];
            if ch <= c && c <= end {
                matched = true;
            }
            i += 3;
        } else {
            if ch == c {
                matched = true;
            }
            i += 1;
        }
    }
    // No closing bracket: treat `[` literally.
    (c == '[').then_some(start + 1)
}

fn check_classes(seg: &str) -> Result<(), String> {
    let mut depth = 0u32;
    for c in seg.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if depth > 0 {
        return Err("unclosed `[` character class".into());
    }
    Ok(())
}

/// `{a,b}` alternation, nested, bounded.
fn expand_braces(text: &str) -> Result<Vec<String>, String> {
    let Some(open) = text.find('{') else {
        return Ok(vec![text.to_owned()]);
    };
    let mut depth = 0u32;
    let mut close = None;
    let mut commas = Vec::new();
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(open + i),
            _ => {}
        }
    }
    let close = close.ok_or_else(|| format!("`{text}`: unclosed `{{`"))?;
    let (prefix, suffix) = (&text[..open], &text[close + 1..]);
    let mut bounds = vec![open];
    bounds.extend(&commas);
    bounds.push(close);
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let inner = &text[w[0] + 1..w[1]];
        for rest in expand_braces(&format!("{prefix}{inner}{suffix}"))? {
            out.push(rest);
            if out.len() > MAX_ALTERNATIVES {
                return Err(format!(
                    "`{text}`: more than {MAX_ALTERNATIVES} brace alternatives"
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(glob: &str, path: &str) -> bool {
        PathGlob::compile(glob).unwrap().matches(
            Path::new(path),
            Path::new("/w"),
            Some(Path::new("/h")),
        )
    }

    #[test]
    fn path_globs_are_anchored_at_workspace_home_or_root() {
        assert!(m("src/**", "/w/src/a/b.rs"));
        assert!(!m("src/**", "/other/src/a.rs"));
        assert!(m("/etc/**", "/etc/passwd"));
        assert!(m("~/.ssh/*", "/h/.ssh/id_rsa"));
        assert!(!m("~/.ssh/*", "/w/.ssh/id_rsa"));
    }

    #[test]
    fn a_glob_without_slash_matches_a_name_at_any_depth() {
        assert!(m("*.pem", "/w/a/b/key.pem"));
        assert!(m(".env", "/w/.env"));
        assert!(!m("*.pem", "/elsewhere/key.pem"));
    }

    #[test]
    fn star_stays_in_one_component_and_double_star_spans() {
        assert!(m("src/*.rs", "/w/src/a.rs"));
        assert!(!m("src/*.rs", "/w/src/x/a.rs"));
        assert!(m("src/**/*.rs", "/w/src/a.rs"));
        assert!(m("src/**/*.rs", "/w/src/x/y/a.rs"));
        assert!(m("docs/", "/w/docs/a/b.md"));
    }

    #[test]
    fn braces_and_classes() {
        assert!(m("{src,lib}/*.rs", "/w/lib/a.rs"));
        assert!(m("file[0-9].txt", "/w/file7.txt"));
        assert!(!m("file[!0-9].txt", "/w/file7.txt"));
    }

    #[test]
    fn bad_globs_are_errors() {
        assert!(PathGlob::compile("../x").is_err());
        assert!(PathGlob::compile("a/**b").is_err());
        assert!(PathGlob::compile("{a,b").is_err());
        assert!(PathGlob::compile("").is_err());
    }
}
