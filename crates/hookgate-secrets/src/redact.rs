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

/// Replaces the union of the findings' spans (sorted by start) with one marker per merged run.
fn apply(text: &str, findings: &[Finding]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut i = 0;
    while i < findings.len() {
        let start = findings[i].span.start.max(pos);
        let mut end = findings[i].span.end;
        i += 1;
        while let Some(f) = findings.get(i) {
            if f.span.start > end {
                break;
            }
            end = end.max(f.span.end);
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
