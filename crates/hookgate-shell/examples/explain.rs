//! Prints the analysis of each argument as JSON (developer aid until `hookgate explain` lands).
//! Usage: cargo run -p hookgate-shell --example explain -- 'rm -rf ~' ...

use std::path::PathBuf;

use hookgate_shell::{Context, analyze};

fn main() {
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    for command in std::env::args().skip(1) {
        let analysis = analyze(&command, &ctx);
        let json = serde_json::to_string(&analysis).unwrap_or_default();
        println!("{:?} => {:?} {json}", command, analysis.action());
    }
}
