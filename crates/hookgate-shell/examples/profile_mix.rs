//! Runs the bench mix (`benches/data/mix.rs`) N times (first argument, default 200) with one
//! analyzer: a steady workload for `valgrind --tool=callgrind` or `perf`, whose instruction
//! counts do not depend on how loaded the machine is. A second argument `i` runs only the
//! mix's command `i` (per-command instruction counts).
//! `cargo build --profile bench -p hookgate-shell --example profile_mix`

use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context};

include!("../benches/data/mix.rs");

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let only: Option<usize> = std::env::args().nth(2).and_then(|a| a.parse().ok());
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let Ok(mut analyzer) = Analyzer::new() else {
        return;
    };
    for _ in 0..rounds {
        for (i, command) in MIX.iter().enumerate() {
            if only.is_some_and(|o| o != i) {
                continue;
            }
            std::hint::black_box(analyzer.analyze(std::hint::black_box(command), &ctx));
        }
    }
}
