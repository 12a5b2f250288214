//! Reads command lines from stdin (one per line) and prints action, rule and reason for each
//! (developer aid for writing class tables).

use std::io::BufRead;
use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context};

fn main() {
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let Ok(mut analyzer) = Analyzer::new() else {
        return;
    };
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let a = analyzer.analyze(&line, &ctx);
        println!(
            "{:<5} {:<28} {line}   -- {}",
            format!("{:?}", a.action()),
            a.verdict.rule_id.as_deref().unwrap_or("-"),
            a.verdict.reason
        );
    }
}
