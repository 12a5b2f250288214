//! Component globs: `*`/`?` inside one component, `**` across components, `{a,b}` alternation.
//!
//! Hand-written rather than `globset` because the catalog needs exactly this much, must match
//! on path *components* (never on a string, so `/etcx` is not `/etc`), and must be cheap to
//! build in a per-call process.

use std::path::{Component, Path};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// `**`: zero or more whole components.
    Any,
    /// One component; lowercase ASCII bytes with `*` and `?` wildcards.
    Glob(Vec<u8>),
}

/// One brace-free pattern split into segments.
#[derive(Debug, Clone)]
pub(crate) struct Glob {
    segments: Vec<Segment>,
}

/// Bound on brace-expansion output, so a hostile pattern cannot blow up memory.
const MAX_EXPANSIONS: usize = 4096;

impl Glob {
    /// Expands braces and compiles every alternative.
    pub(crate) fn compile_all(pattern: &str) -> Vec<Glob> {
        expand_braces(pattern)
            .into_iter()
            .map(|p| Glob {
                segments: p
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        if s == "**" {
                            Segment::Any
                        } else {
                            Segment::Glob(s.as_bytes().to_ascii_lowercase())
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// True when the components (already relative to the anchor) match the whole pattern.
    pub(crate) fn matches(&self, components: &[&[u8]]) -> bool {
        match_segments(&self.segments, components)
    }

    /// True when the components name a location *at or above* something this pattern
    /// matches, judged by the pattern's own words: some extension of `components` matches,
    /// and the components got there by matching at least one named segment (not only `**`).
    /// Empty components (the anchor itself, or a directory above it) count when the pattern
    /// starts with a named segment, i.e. names a definite place under the anchor.
    ///
    /// Why the named-segment condition: `**/.claude/settings.json` can in principle lie
    /// below any directory, so "could contain" without it would make every directory
    /// protected; `work/proj/.claude` *names* the protected directory and is caught.
    pub(crate) fn contains_match_below(&self, components: &[&[u8]]) -> bool {
        if components.is_empty() {
            return matches!(self.segments.first(), Some(Segment::Glob(_)));
        }
        below_segments(&self.segments, components, false)
    }
}

fn below_segments(segs: &[Segment], comps: &[&[u8]], named: bool) -> bool {
    let Some((first, crest)) = comps.split_first() else {
        // Every component is consumed; the rest of the pattern lies below (or is empty: the
        // path itself matches).
        return named;
    };
    match segs.split_first() {
        None => false,
        Some((Segment::Any, rest)) => {
            below_segments(rest, comps, named) || below_segments(segs, crest, named)
        }
        Some((Segment::Glob(g), rest)) => {
            match_component(g, first) && below_segments(rest, crest, true)
        }
    }
}

/// The `Normal` components of an absolute, normalised path as bytes.
pub(crate) fn components(path: &Path) -> Vec<&[u8]> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.as_encoded_bytes()),
            _ => None,
        })
        .collect()
}

fn match_segments(segs: &[Segment], comps: &[&[u8]]) -> bool {
    match segs.split_first() {
        None => comps.is_empty(),
        Some((Segment::Any, rest)) => (0..=comps.len()).any(|i| match_segments(rest, &comps[i..])),
        Some((Segment::Glob(g), rest)) => match comps.split_first() {
            Some((c, crest)) => match_component(g, c) && match_segments(rest, crest),
            None => false,
        },
    }
}

/// Wildcard match of one component, ASCII case-insensitive (iterative, linear backtracking).
fn match_component(pat: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pat.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t].to_ascii_lowercase() => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pat[p.min(pat.len())..].iter().all(|&c| c == b'*')
}

fn expand_braces(pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut work = vec![pattern.to_owned()];
    while let Some(p) = work.pop() {
        if out.len() + work.len() > MAX_EXPANSIONS {
            break;
        }
        let Some(open) = p.find('{') else {
            out.push(p);
            continue;
        };
        // Find the matching close brace and the top-level commas between.
        let mut depth = 0usize;
        let mut close = None;
        let mut commas = Vec::new();
        for (i, ch) in p.char_indices().skip_while(|&(i, _)| i < open) {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                ',' if depth == 1 => commas.push(i),
                _ => {}
            }
        }
        let Some(close) = close else {
            out.push(p); // unbalanced: treat literally
            continue;
        };
        let (head, tail) = (&p[..open], &p[close + 1..]);
        let mut start = open + 1;
        for end in commas.into_iter().chain(std::iter::once(close)) {
            work.push(format!("{head}{}{tail}", &p[start..end]));
            start = end + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, path: &str) -> bool {
        let comps: Vec<&[u8]> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::as_bytes)
            .collect();
        Glob::compile_all(pattern).iter().any(|g| g.matches(&comps))
    }

    #[test]
    fn star_stays_inside_one_component() {
        assert!(m(".ssh/id_*", ".ssh/id_rsa"));
        assert!(!m(".ssh/id_*", ".ssh/sub/id_rsa"));
        assert!(m("**/.env.*", "a/b/.env.local"));
        assert!(m("**/.env", ".env"));
        assert!(!m("**/.env", ".envx"));
    }

    #[test]
    fn braces_expand_and_nest() {
        assert!(m("etc/{sudoers,sudoers.d/**}", "etc/sudoers.d/90-x"));
        assert!(m("{var/run,run}/docker.sock", "run/docker.sock"));
        assert!(m("a/{b,{c,d}}", "a/d"));
        assert!(!m("a/{b,c}", "a/bc"));
    }

    #[test]
    fn matching_is_ascii_case_insensitive() {
        assert!(m(".claude/settings*.json", ".Claude/Settings.Local.JSON"));
    }

    fn below(pattern: &str, path: &str) -> bool {
        let comps: Vec<&[u8]> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::as_bytes)
            .collect();
        Glob::compile_all(pattern)
            .iter()
            .any(|g| g.contains_match_below(&comps))
    }

    #[test]
    fn a_directory_contains_a_match_only_when_it_names_part_of_the_pattern() {
        assert!(below("**/.claude/settings*.json", "work/proj/.claude"));
        assert!(below(
            "**/.claude/settings*.json",
            "work/proj/.claude/settings.json"
        ));
        assert!(below("**/.github/hooks/**", "p/.github"));
        assert!(!below("**/.claude/settings*.json", "work/proj"));
        assert!(!below("**/.claude/settings*.json", "work/proj/build"));
        assert!(!below(
            "**/.claude/settings*.json",
            "work/proj/.claude/commands"
        ));
        assert!(below(".claude/**", ""));
        assert!(!below("**/.hookgate/**", ""));
        assert!(below("etc/hookgate/**", "etc"));
        assert!(!below(".claude.json", ".claude.json/x"));
    }

    #[test]
    fn stars_backtrack() {
        assert!(match_component(b"*.env.*.example", b"x.env.prod.example"));
        assert!(match_component(b"*a*b", b"xaxxab"));
        assert!(!match_component(b"*a*b", b"xaxxa"));
        assert!(match_component(b"", b""));
    }
}
