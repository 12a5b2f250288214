//! Prints the full analysis (`{:?}`) of every command line in a JSON array of strings (the file
//! named by the first argument), one line each: a differential check that a performance change
//! keeps behaviour identical. Run it on the same input before and after, then `cmp` the two
//! outputs (README, "Benchmark").
//! `cargo run -p hookgate-shell --example analyses -- lines.json > after.txt`

use std::io::Write as _;
use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: analyses LINES.json");
        std::process::exit(2);
    };
    let lines: Vec<String> = match std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(lines) => lines,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let Ok(mut analyzer) = Analyzer::new() else {
        std::process::exit(1);
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in &lines {
        let analysis = analyzer.analyze(line, &ctx);
        if writeln!(out, "{line:?}\t{analysis:?}").is_err() {
            std::process::exit(1);
        }
    }
}
