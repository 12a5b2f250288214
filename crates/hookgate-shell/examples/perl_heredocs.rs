//! Parses Perl one-liners with heredocs in a loop, for measuring the Perl grammar's memory
//! under valgrind (README, "Memory"): a long-lived embedder (`hookgate run`, an agent that
//! embeds the analyzer) parses without end, so what one parse leaks adds up.
//!
//! `cargo build -p hookgate-shell --example perl_heredocs`, then
//! `valgrind --leak-check=full target/debug/examples/perl_heredocs 100`.
//! Each round parses every snippet twice: with a fresh [`analyze`] (a parser created and
//! destroyed, as the one-call hook process does) and with one reused [`Analyzer`].

use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context, analyze};

/// Heredocs of every shape the grammar's scanner queues: plain, quoted, interpolating or not,
/// indented (`<<~`), two on one line, unterminated, and one inside a write.
const SNIPPETS: &[&str] = &[
    "print <<EOF;\nhello\nEOF\n",
    "print <<~EOT;\n    indented\n    EOT\n",
    "print <<\"A\", <<\"B\";\na\nA\nb\nB\n",
    "print <<\\RAW;\n$not_interpolated\nRAW\n",
    "open(my $f, \">\", \"out.txt\"); print $f <<EOF;\ndata\nEOF\nclose $f;\n",
    "print <<EOF;\nnever terminated\n",
    "my $x = <<~X . <<Y;\n  one\n  X\ntwo\nY\nunlink $x;\n",
];

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let ctx = Context::new("/work/project", Some(PathBuf::from("/home/user")));
    let Ok(mut reused) = Analyzer::new() else {
        eprintln!("the analyzer could not start");
        std::process::exit(1);
    };
    let commands: Vec<String> = SNIPPETS.iter().map(|s| format!("perl -e '{s}'")).collect();
    let mut commands_seen = 0;
    for _ in 0..rounds {
        for command in &commands {
            commands_seen += analyze(command, &ctx).commands.len();
            commands_seen += reused.analyze(command, &ctx).commands.len();
        }
    }
    println!(
        "{} parses of {} Perl heredoc one-liners ({commands_seen} commands seen)",
        rounds * commands.len() * 2,
        commands.len()
    );
}
