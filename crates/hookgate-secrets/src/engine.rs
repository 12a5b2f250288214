//! The scanner: keyword prefilter, lazily compiled per-rule regexes, and match filtering.

use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex::bytes::{Regex, RegexBuilder};
use serde::Serialize;

use crate::redact::REDACTED;
use crate::rules::{
    Family, KEYWORD_RULES, KEYWORDS, RULES, RuleDef, TINY_BY_PREFIX, TINY_PRESENT, Validator,
};
use crate::validate;

/// How far before a keyword hit the regex window may start (it also stops at the line start).
const BACK: usize = 256;
/// How far after a keyword hit a single-line window may reach (it also stops at the line end).
const FORWARD: usize = 1024;
/// How far after a keyword hit a multi-line window reaches (PEM blocks, netrc entries).
const FORWARD_MULTILINE: usize = 16 * 1024;
/// Inputs shorter than this use the two-byte-prefix index instead of an automaton.
const TINY_INPUT: usize = 16 * 1024;
/// Inputs at least this long use the DFA prefilter.
const LARGE_INPUT: usize = 128 * 1024;
/// Compiled-program budget per rule; a rule that needs more is disabled rather than slow.
const REGEX_SIZE_LIMIT: usize = 1 << 22;

/// One secret found in a text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Finding {
    /// The rule that matched (stable id from `rules/secrets.toml`).
    pub rule_id: &'static str,
    /// What kind of credential it is.
    pub family: Family,
    /// Byte range of the secret itself in the scanned text (always on `char` boundaries).
    pub span: Range<usize>,
    /// The secret with everything after a short, non-sensitive prefix replaced by the marker,
    /// so a report can say *which* token without repeating it.
    pub preview: String,
}

/// The detector. The keyword automaton is built on the first scan (a cheap NFA for small
/// inputs, a fast DFA for large ones) and each rule's regex the first time one of its
/// keywords occurs, so a per-call process only pays for what its input needs.
#[derive(Debug)]
pub struct Scanner {
    /// Contiguous NFA: ~0.8 ms to build, ~100 MB/s. Used for inputs below [`LARGE_INPUT`],
    /// which is what a per-call hook process sees.
    small: OnceLock<Option<AhoCorasick>>,
    /// DFA: ~2.3 ms to build, ~380 MB/s. Used for large inputs, where it pays for itself.
    large: OnceLock<Option<AhoCorasick>>,
    regexes: Vec<OnceLock<Option<Regex>>>,
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new()
    }
}

impl Scanner {
    /// A scanner over the built-in rule table. Cheap: the keyword index is a static generated
    /// by `build.rs`, and automata and regexes are built on first use.
    pub fn new() -> Self {
        Self {
            small: OnceLock::new(),
            large: OnceLock::new(),
            regexes: RULES.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// The keyword automaton for an input of `len` bytes, built on first use.
    ///
    /// Standard match semantics so overlapping keywords (`sk-` inside `sk-ant-`) all report.
    /// Below [`LARGE_INPUT`] the cheaper-to-build NFA wins overall; above it the DFA does
    /// (measured break-even ~200 KB on the dev VM).
    fn prefilter(&self, len: usize) -> Option<&AhoCorasick> {
        let (cell, kind) = if len < LARGE_INPUT {
            (&self.small, AhoCorasickKind::ContiguousNFA)
        } else {
            (&self.large, AhoCorasickKind::DFA)
        };
        cell.get_or_init(|| {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                .kind(Some(kind))
                .build(KEYWORDS)
                .ok()
        })
        .as_ref()
    }

    /// Every keyword occurrence in `hay`: `(keyword index, start, end)`.
    fn keyword_hits(&self, hay: &[u8]) -> Vec<(usize, usize, usize)> {
        if hay.len() < TINY_INPUT {
            return tiny_hits(hay);
        }
        match self.prefilter(hay.len()) {
            Some(ac) => ac
                .find_overlapping_iter(hay)
                .map(|m| (m.pattern().as_usize(), m.start(), m.end()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The process-wide scanner, built on first use.
    pub fn global() -> &'static Scanner {
        static GLOBAL: OnceLock<Scanner> = OnceLock::new();
        GLOBAL.get_or_init(Scanner::new)
    }

    fn regex(&self, idx: usize) -> Option<&Regex> {
        self.regexes
            .get(idx)?
            .get_or_init(|| {
                let rule = RULES.get(idx)?;
                // ASCII mode: secrets are ASCII, and Unicode classes/`\b` make these patterns
                // ~100x slower to compile and push the lazy DFA onto the slow path.
                RegexBuilder::new(rule.regex)
                    .unicode(false)
                    .size_limit(REGEX_SIZE_LIMIT)
                    .build()
                    .ok()
            })
            .as_ref()
    }

    /// Finds every secret in `text`, sorted by position. Overlapping findings from different
    /// rules are all reported; the same span is reported once (by the first rule in the table).
    pub fn scan(&self, text: &str) -> Vec<Finding> {
        let hay = text.as_bytes();
        // (rule, window start, window end) for every keyword hit.
        let mut windows: Vec<(u16, usize, usize)> = Vec::new();
        for (pattern, start, end) in self.keyword_hits(hay) {
            let Some(rules) = KEYWORD_RULES.get(pattern) else {
                continue;
            };
            for &r in *rules {
                let Some(rule) = RULES.get(usize::from(r)) else {
                    continue;
                };
                let (ws, we) = window(hay, start, end, rule.multiline);
                windows.push((r, ws, we));
            }
        }
        if windows.is_empty() {
            return Vec::new();
        }
        windows.sort_unstable();
        let mut findings = Vec::new();
        let mut i = 0;
        while i < windows.len() {
            let (rule_idx, start, mut end) = windows[i];
            i += 1;
            // Merge overlapping windows of the same rule, so each byte is searched once per rule.
            while let Some(&(r, s, e)) = windows.get(i) {
                if r != rule_idx || s > end {
                    break;
                }
                end = end.max(e);
                i += 1;
            }
            self.scan_window(text, usize::from(rule_idx), start..end, &mut findings);
        }
        // Longest span first at each start, then table order: a span inside an earlier,
        // wider one (a PEM body inside its full block, a password inside a URL another rule
        // already took) adds nothing to a report or a redaction, so only the outer one stays.
        findings.sort_by(|a, b| {
            (
                a.span.start,
                std::cmp::Reverse(a.span.end),
                rule_index(a.rule_id),
            )
                .cmp(&(
                    b.span.start,
                    std::cmp::Reverse(b.span.end),
                    rule_index(b.rule_id),
                ))
        });
        let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
        let mut covered_to = 0;
        for f in findings {
            if !kept.is_empty() && f.span.end <= covered_to {
                continue;
            }
            covered_to = covered_to.max(f.span.end);
            kept.push(f);
        }
        kept
    }

    fn scan_window(&self, text: &str, idx: usize, win: Range<usize>, out: &mut Vec<Finding>) {
        let (Some(rule), Some(re)) = (RULES.get(idx), self.regex(idx)) else {
            return;
        };
        let Some(hay) = text.as_bytes().get(win.clone()) else {
            return;
        };
        for caps in re.captures_iter(hay) {
            let Some(m) = caps.get(rule.group) else {
                continue;
            };
            let (s, e) = snap_to_chars(text, win.start + m.start(), win.start + m.end());
            if s >= e || !accept(rule, text, s, e) {
                continue;
            }
            if out.iter().any(|f| f.rule_id == rule.id && f.span == (s..e)) {
                continue;
            }
            out.push(Finding {
                rule_id: rule.id,
                family: rule.family,
                span: s..e,
                preview: preview(text.get(s..e).unwrap_or_default()),
            });
        }
    }
}

/// Table position of a rule id, used to make "first rule wins" deterministic.
fn rule_index(id: &str) -> usize {
    RULES.iter().position(|r| r.id == id).unwrap_or(usize::MAX)
}

/// The bytes a rule's regex is run over for a keyword hit at `s..e`: the hit's line (bounded
/// by [`BACK`]/[`FORWARD`]), or a longer stretch for multi-line rules.
fn window(hay: &[u8], s: usize, e: usize, multiline: bool) -> (usize, usize) {
    let lo = s.saturating_sub(BACK);
    let ws = hay
        .get(lo..s)
        .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
        .map_or(lo, |p| lo + p + 1);
    let we = if multiline {
        e.saturating_add(FORWARD_MULTILINE).min(hay.len())
    } else {
        let hi = e.saturating_add(FORWARD).min(hay.len());
        hay.get(e..hi)
            .and_then(|b| b.iter().position(|&c| c == b'\n'))
            .map_or(hi, |p| e + p)
    };
    (ws, we.max(e).min(hay.len()))
}

/// Widens a byte range to `char` boundaries, so a finding can always be sliced and replaced
/// even when an ASCII-mode class matched part of a multi-byte character.
pub(crate) fn snap_to_chars(text: &str, mut s: usize, mut e: usize) -> (usize, usize) {
    e = e.min(text.len());
    s = s.min(e);
    while s > 0 && !text.is_char_boundary(s) {
        s -= 1;
    }
    while e < text.len() && !text.is_char_boundary(e) {
        e += 1;
    }
    (s, e)
}

fn accept(rule: &RuleDef, text: &str, s: usize, e: usize) -> bool {
    let bytes = text.as_bytes();
    let Some(secret) = bytes.get(s..e) else {
        return false;
    };
    if overlaps_marker(bytes, s, e) || validate::is_placeholder(secret) {
        return false;
    }
    if rule.family == crate::rules::Family::ConnectionString && loopback_host_after(bytes, e) {
        return false;
    }
    if let Some(min) = rule.min_entropy
        && validate::shannon_entropy(secret) < min
    {
        return false;
    }
    match rule.validator {
        None => true,
        Some(Validator::GithubCrc32) => {
            std::str::from_utf8(secret).is_ok_and(validate::github_checksum_ok)
        }
        Some(Validator::Jwt) => std::str::from_utf8(secret).is_ok_and(validate::jwt_structure_ok),
    }
}

/// Whether the connection string whose password ends at `e` (`…://user:PASSWORD@HOST…`)
/// names a loopback host: such a password opens a database on the same machine only — the
/// dev and test databases agents set up (`postgres://postgres:dev@localhost:5432/app_test`) —
/// and is no credential to anything another machine serves. Any other host, a name or an
/// address, keeps the finding.
fn loopback_host_after(bytes: &[u8], e: usize) -> bool {
    let Some(rest) = bytes.get(e..).and_then(|r| r.strip_prefix(b"@")) else {
        return false;
    };
    let end = rest
        .iter()
        .position(|c| {
            matches!(
                c,
                b'/' | b'?' | b'#' | b'\'' | b'"' | b' ' | b'\n' | b'\t' | b',' | b';'
            )
        })
        .unwrap_or(rest.len());
    let authority = &rest[..end];
    // `[::1]:5432`, `localhost:5432`, `127.0.0.1`.
    let host: &[u8] = if authority.starts_with(b"[") {
        authority
            .iter()
            .position(|c| *c == b']')
            .map_or(authority, |i| &authority[..=i])
    } else {
        authority
            .iter()
            .position(|c| *c == b':')
            .map_or(authority, |i| &authority[..i])
    };
    let host = host.to_ascii_lowercase();
    host == b"localhost"
        || host.ends_with(b".localhost")
        || host == b"[::1]"
        || (host.starts_with(b"127.") && host.iter().all(|c| c.is_ascii_digit() || *c == b'.'))
}

/// True when `s..e` touches an existing `[REDACTED]` marker: already-redacted text must never
/// be reported again, which is what makes redaction idempotent.
fn overlaps_marker(bytes: &[u8], s: usize, e: usize) -> bool {
    let m = REDACTED.len();
    let lo = s.saturating_sub(m - 1);
    let hi = (e + m - 1).min(bytes.len());
    bytes
        .get(lo..hi)
        .is_some_and(|w| validate::contains(w, REDACTED.as_bytes()))
}

/// Keeps a short prefix (usually the non-secret type marker such as `ghp_`) for long secrets
/// only; short secrets (passwords) show nothing.
fn preview(secret: &str) -> String {
    let keep = if secret.len() >= 20 { 4 } else { 0 };
    let mut cut = keep.min(secret.len());
    while cut > 0 && !secret.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}{REDACTED}", secret.get(..cut).unwrap_or_default())
}

/// Scans `text` with the process-wide [`Scanner`].
pub fn scan(text: &str) -> Vec<Finding> {
    Scanner::global().scan(text)
}

#[cfg(test)]
impl Scanner {
    pub(crate) fn regex_for_test(&self, idx: usize) -> Option<&Regex> {
        self.regex(idx)
    }
}

fn prefix_of(a: u8, b: u8) -> u16 {
    (u16::from(a.to_ascii_lowercase()) << 8) | u16::from(b.to_ascii_lowercase())
}

/// Every keyword occurrence in a small input, found through the static two-byte-prefix index
/// (`TINY_PRESENT`, `TINY_BY_PREFIX`, generated by `build.rs`).
///
/// Building even the cheapest Aho-Corasick automaton over every keyword costs ~0.8 ms, which
/// is most of a hook call's budget when the text to scan is a one-line command or an audit
/// record; probing a 64 Ki-bit table at each position of a few kilobytes is just as fast as the
/// automaton there and costs nothing to build. Same semantics: every (overlapping) occurrence
/// of every keyword. Every keyword is at least two bytes (a build-time check), so every one
/// has a prefix.
fn tiny_hits(hay: &[u8]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for at in 0..hay.len() {
        let Some(&next) = hay.get(at + 1) else { break };
        let p = prefix_of(hay[at], next);
        if TINY_PRESENT[usize::from(p >> 6)] & (1 << (p & 63)) == 0 {
            continue;
        }
        let first = TINY_BY_PREFIX.partition_point(|(q, _)| *q < p);
        for &(q, i) in &TINY_BY_PREFIX[first..] {
            if q != p {
                break;
            }
            let i = usize::from(i);
            let k = KEYWORDS[i].as_bytes();
            if hay
                .get(at..at + k.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(k))
            {
                out.push((i, at, at + k.len()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tiny_tests {
    use proptest::prelude::*;

    use super::*;

    fn automaton_hits(scanner: &Scanner, hay: &[u8]) -> Vec<(usize, usize, usize)> {
        let mut hits: Vec<_> = scanner
            .prefilter(hay.len())
            .map(|ac| {
                ac.find_overlapping_iter(hay)
                    .map(|m| (m.pattern().as_usize(), m.start(), m.end()))
                    .collect()
            })
            .unwrap_or_default();
        hits.sort_unstable();
        hits
    }

    fn tiny_sorted(hay: &[u8]) -> Vec<(usize, usize, usize)> {
        let mut hits = tiny_hits(hay);
        hits.sort_unstable();
        hits
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn tiny_index_finds_exactly_what_the_automaton_finds(
            parts in proptest::collection::vec(prop_oneof![
                (0..KEYWORDS.len()).prop_map(|k| KEYWORDS[k].to_ascii_uppercase()),
                (0..KEYWORDS.len()).prop_map(|k| KEYWORDS[k].to_owned()),
                "[ -~]{0,16}",
            ], 0..12)
        ) {
            let text = parts.concat();
            let scanner = Scanner::global();
            prop_assert_eq!(tiny_sorted(text.as_bytes()), automaton_hits(scanner, text.as_bytes()));
        }
    }

    #[test]
    fn every_keyword_is_found_by_the_tiny_index() {
        let scanner = Scanner::global();
        for kw in KEYWORDS {
            let text = format!("xx {kw} yy");
            assert_eq!(
                tiny_sorted(text.as_bytes()),
                automaton_hits(scanner, text.as_bytes()),
                "{kw}"
            );
        }
    }
}
