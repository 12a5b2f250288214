//! The native cpio reader on attacker-made bytes: an agent can hand the guard any archive to
//! extract, and the guard reads it before deciding. The reader must never panic or loop, and
//! a listing it returns must keep what the policy relies on: non-empty names without control
//! characters, directories marked with a trailing `/`, no more than `MAX_ARCHIVE_MEMBERS`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(names) = hookgate_guard::archive::cpio_names(std::io::Cursor::new(data)) {
        assert!(names.len() <= hookgate_policy::MAX_ARCHIVE_MEMBERS);
        for name in &names {
            assert!(!name.is_empty() && name != "/", "empty name listed");
            assert!(!name.chars().any(char::is_control), "control character listed: {name:?}");
            assert!(!name.ends_with("//"), "directory marked twice: {name:?}");
        }
    }
});
