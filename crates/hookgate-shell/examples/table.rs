//! Reads NUL-separated command lines from stdin and prints one JSON object per command:
//! `{"action", "rule_id", "reason"}` (developer aid for recall tables such as
//! `bench/gtfobins.py`, whose multi-line cases cannot go through `probe`'s one-line input).

use std::io::Read;
use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context};

fn main() {
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let Ok(mut analyzer) = Analyzer::new() else {
        return;
    };
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        return;
    }
    for command in input.split('\0').filter(|c| !c.trim().is_empty()) {
        let a = analyzer.analyze(command, &ctx);
        let line = serde_json::json!({
            "action": format!("{:?}", a.action()).to_lowercase(),
            "rule_id": a.verdict.rule_id,
            "reason": a.verdict.reason,
        });
        println!("{line}");
    }
}
