//! Fuzzes the whole analyzer: arbitrary bytes must never panic, abort or hang, and a result
//! that claims to be fine must come with a parse that succeeded.
#![no_main]

use std::path::PathBuf;

use hookgate_shell::{Action, Analyzer, Context, ParseStatus};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(command) = std::str::from_utf8(data) else {
        return;
    };
    let ctx = Context::new("/home/u/proj", Some(PathBuf::from("/home/u")));
    let Ok(mut analyzer) = Analyzer::new() else {
        return;
    };
    let analysis = analyzer.analyze(command, &ctx);
    if analysis.action() == Action::Allow {
        assert!(matches!(
            analysis.parse,
            ParseStatus::Ok | ParseStatus::Empty
        ));
    }
});
