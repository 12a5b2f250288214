//! Fuzzes the readers of deferred code (sed scripts, vim ex commands, git settings, tar and
//! trap arguments) through the public analyzer: the first byte picks the carrier, the rest is
//! the carried text, single-quoted for the shell. Nothing may panic, abort or hang, and an
//! allow must come with a successful parse.
#![no_main]

use std::path::PathBuf;

use hookgate_shell::{Action, Analyzer, Context, ParseStatus};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let quoted = format!("'{}'", text.replace('\'', r"'\''"));
    let command = match selector % 8 {
        0 => format!("sed -n {quoted} f"),
        1 => format!("sed -e 's/x/y/' -e {quoted} f"),
        2 => format!("vim -c {quoted} f"),
        3 => format!("echo {quoted} | ex"),
        4 => format!("git -c alias.x={quoted} x"),
        5 => format!("git config core.pager {quoted}"),
        6 => format!("tar --to-command={quoted} -xf a.tar"),
        _ => format!("trap {quoted} EXIT"),
    };
    let ctx = Context::new("/home/u/proj", Some(PathBuf::from("/home/u")));
    let Ok(mut analyzer) = Analyzer::new() else {
        return;
    };
    let analysis = analyzer.analyze(&command, &ctx);
    if analysis.action() == Action::Allow {
        assert!(matches!(
            analysis.parse,
            ParseStatus::Ok | ParseStatus::Empty
        ));
    }
});
