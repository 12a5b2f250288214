//! Fuzzes `scan`, `redact` and `redact_json` with their invariants: no panic, spans on char
//! boundaries, redaction idempotent, and nothing left for `scan` to find after redaction.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for f in hookgate_secrets::scan(&text) {
        assert!(f.span.start < f.span.end && f.span.end <= text.len());
        assert!(text.is_char_boundary(f.span.start) && text.is_char_boundary(f.span.end));
    }
    let once = hookgate_secrets::redact(&text).into_owned();
    assert!(
        hookgate_secrets::scan(&once).is_empty(),
        "finding left after redact"
    );
    assert_eq!(
        hookgate_secrets::redact(&once),
        once,
        "redact not idempotent"
    );
    let v = serde_json::json!({ "k": text.as_ref(), "a": [once] });
    if let Some(r) = hookgate_secrets::redact_json(&v) {
        assert!(hookgate_secrets::redact_json(&r).is_none());
    }
});
