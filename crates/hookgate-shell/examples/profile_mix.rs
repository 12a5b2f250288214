//! Runs the bench mix (`benches/data/mix.rs`) N times (first argument, default 200) with one
//! analyzer: a steady workload for `valgrind --tool=callgrind` or `perf`, whose instruction
//! counts do not depend on how loaded the machine is.
//! `cargo build --profile bench -p hookgate-shell --example profile_mix`

use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context};

include!("../benches/data/mix.rs");

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let Ok(mut analyzer) = Analyzer::new() else {
        return;
    };
    for _ in 0..rounds {
        for command in MIX {
            std::hint::black_box(analyzer.analyze(std::hint::black_box(command), &ctx));
        }
    }
}
