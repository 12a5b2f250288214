//! Redaction of text and JSON values.

use std::borrow::Cow;

use serde_json::Value;

use crate::engine::{Finding, Scanner};

/// The replacement for every secret. It contains `[`/`]`, which no rule's secret alphabet
/// accepts, and findings that touch it are dropped, so redacting twice equals redacting once.
pub const REDACTED: &str = "[REDACTED]";

/// Upper bound on redaction passes. One pass is the norm; a second is needed only when a
/// replacement changes a neighbour's word boundary and uncovers another secret.
const MAX_PASSES: usize = 8;

/// Replaces every secret in `text` with [`REDACTED`]. Borrows when nothing was found.
///
/// Runs until a scan of the output is clean (bounded by [`MAX_PASSES`]), so the result never
/// contains a finding.
pub fn redact(text: &str) -> Cow<'_, str> {
    let scanner = Scanner::global();
    let mut current: Cow<'_, str> = Cow::Borrowed(text);
    for _ in 0..MAX_PASSES {
        let findings = scanner.scan(&current);
        if findings.is_empty() {
            break;
        }
        current = Cow::Owned(apply(&current, &findings));
    }
    current
}

/// Shortest secret whose *other* verbatim occurrences are redacted too. Shorter strings (a
/// password like `hunter2`) could collide with ordinary words.
const MIN_ECHO_LEN: usize = 8;

/// Replaces the findings' spans, and every other verbatim copy of a found secret, with one
/// marker per merged run.
///
/// A copy that is not itself a finding (glued to a neighbouring word, say) still leaks the
/// secret once any copy of it has been recognised, so all copies go.
fn apply(text: &str, findings: &[Finding]) -> String {
    let mut spans: Vec<std::ops::Range<usize>> = findings.iter().map(|f| f.span.clone()).collect();
    let mut secrets: Vec<&str> = findings
        .iter()
        .filter_map(|f| text.get(f.span.clone()))
        .filter(|secret| secret.len() >= MIN_ECHO_LEN)
        .collect();
    secrets.sort_unstable();
    secrets.dedup();
    // One pass over the text for all distinct secrets (not one pass per finding, which made
    // redaction quadratic on texts with many findings).
    if let Ok(copies) = aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .build(&secrets)
    {
        spans.extend(copies.find_iter(text).map(|m| m.range()));
    }
    spans.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut i = 0;
    while i < spans.len() {
        let start = spans[i].start.max(pos);
        let mut end = spans[i].end;
        i += 1;
        while let Some(next) = spans.get(i) {
            if next.start > end {
                break;
            }
            end = end.max(next.end);
            i += 1;
        }
        if end <= start {
            continue;
        }
        out.push_str(text.get(pos..start).unwrap_or_default());
        out.push_str(REDACTED);
        pos = end;
    }
    out.push_str(text.get(pos..).unwrap_or_default());
    out
}

/// Redacts every string inside `value` (recursively through arrays and objects; object keys
/// are left alone). Returns `None` when nothing changed, so callers can skip rewriting a tool
/// input that had no secret.
///
/// Recursion depth follows the value's nesting; `serde_json` parsing caps that at 128.
pub fn redact_json(value: &Value) -> Option<Value> {
    match value {
        Value::String(s) => match redact(s) {
            Cow::Borrowed(_) => None,
            Cow::Owned(r) => Some(Value::String(r)),
        },
        Value::Array(items) => {
            let changed: Vec<Option<Value>> = items.iter().map(redact_json).collect();
            if changed.iter().all(Option::is_none) {
                return None;
            }
            Some(Value::Array(
                changed
                    .into_iter()
                    .zip(items)
                    .map(|(c, orig)| c.unwrap_or_else(|| orig.clone()))
                    .collect(),
            ))
        }
        Value::Object(map) => {
            let changed: Vec<Option<Value>> = map.values().map(redact_json).collect();
            if changed.iter().all(Option::is_none) {
                return None;
            }
            Some(Value::Object(
                map.iter()
                    .zip(changed)
                    .map(|((k, orig), c)| (k.clone(), c.unwrap_or_else(|| orig.clone())))
                    .collect(),
            ))
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => None,
    }
}
