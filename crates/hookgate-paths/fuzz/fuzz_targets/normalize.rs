//! Fuzzes the lexical normaliser and the catalog: no panic, and the invariants every policy
//! decision relies on.
#![no_main]

use std::path::{Component, Path};

use hookgate_paths::{PathContext, classify, is_within, normalize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (raw, cwd) = text.split_once('\u{0}').unwrap_or((text, "/work/project"));
    let home = Path::new("/home/user");
    let n = normalize(raw, Path::new(cwd), Some(home));
    // Absolute, and free of `.` and `..`: what component comparison needs.
    assert!(n.path.is_absolute());
    assert!(
        n.path
            .components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
    );
    // Idempotent.
    let again = normalize(
        &n.path.to_string_lossy(),
        Path::new("/elsewhere"),
        Some(home),
    );
    assert_eq!(again.path, n.path);
    // Containment is by component: a path is within itself and within `/`.
    assert!(is_within(&n.path, &n.path) && is_within(&n.path, Path::new("/")));
    let _ = classify(&n.path, &PathContext::new(cwd, Some(home.to_path_buf())));
});
