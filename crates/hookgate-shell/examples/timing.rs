//! Per-command timing of the bench mix (developer aid): `cargo run --profile bench --example timing`.

use std::path::PathBuf;
use std::time::Instant;

use hookgate_shell::{Analyzer, Context};

fn main() {
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let Ok(mut analyzer) = Analyzer::new() else {
        return;
    };
    let mix: Vec<String> = std::env::args().skip(1).collect();
    for command in &mix {
        let start = Instant::now();
        for _ in 0..2000 {
            std::hint::black_box(analyzer.analyze(command, &ctx));
        }
        let total = start.elapsed().as_secs_f64() * 1e6 / 2000.0;
        let mut parser = tree_sitter::Parser::new();
        if parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .is_err()
        {
            return;
        }
        let start = Instant::now();
        for _ in 0..2000 {
            std::hint::black_box(parser.parse(command, None));
        }
        let parse = start.elapsed().as_secs_f64() * 1e6 / 2000.0;
        println!("{total:>8.2} µs total {parse:>8.2} µs parse  {command:?}");
    }
}
