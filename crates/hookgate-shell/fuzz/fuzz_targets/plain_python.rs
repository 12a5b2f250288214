//! Fuzzes the plain-Python fast path against the grammar: a snippet the fast path answers
//! without parsing must be one tree-sitter-python parses cleanly and the interpreter scanner
//! finds nothing in (`plain_python`'s invariant).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(code) = std::str::from_utf8(data) else {
        return;
    };
    assert!(
        hookgate_shell::plain_python_agrees(code),
        "the fast path answered a snippet the grammar reads differently: {code:?}"
    );
});
