//! Perl heredocs through the vendored tree-sitter-perl scanner (vendor/tree-sitter-perl): the
//! fixes hookgate carries over upstream 1.1.2 — a long heredoc word no longer overruns the
//! scanner's stack buffers (upstream crashed the process: a crashed hook is an allow to some
//! agents), each heredoc keeps its own `<<~` flag, and parsing the same one-liners again and
//! again gives the same answers. That the scanner frees what it allocates cannot be asserted
//! here; README.md ("Memory") has the valgrind command that measures it.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "test code")]

use std::path::PathBuf;

use hookgate_shell::{Action, Analyzer, Context, analyze};

fn ctx() -> Context {
    Context::new("/work/project", Some(PathBuf::from("/home/user")))
}

fn perl(code: &str) -> String {
    format!("perl -e '{code}'")
}

/// Heredocs of every shape the scanner queues, with the answer each must get.
const CASES: &[(&str, Action)] = &[
    ("print <<EOF;\nhello\nEOF\n", Action::Allow),
    ("print <<~EOT;\n    indented\n    EOT\n", Action::Allow),
    ("print <<\"A\", <<\"B\";\na\nA\nb\nB\n", Action::Allow),
    ("print <<\\RAW;\n$x\nRAW\n", Action::Allow),
    (
        "print <<EOF;\nx\nEOF\nunlink \"/etc/passwd\";\n",
        Action::Deny,
    ),
    (
        "print <<A, <<~B;\na\nA\n  b\n  B\nunlink \"/etc/passwd\";\n",
        Action::Deny,
    ),
    // Unterminated: the rest is heredoc text to the grammar, which then fails to parse.
    ("print <<EOF;\nnever terminated\n", Action::Ask),
];

#[test]
fn perl_heredocs_parse_the_same_every_time_in_fresh_and_reused_analyzers() {
    let ctx = ctx();
    let mut reused = Analyzer::new().unwrap();
    for round in 0..300 {
        for (code, expected) in CASES {
            let command = perl(code);
            for (how, analysis) in [
                ("fresh", analyze(&command, &ctx)),
                ("reused", reused.analyze(&command, &ctx)),
            ] {
                assert_eq!(
                    analysis.action(),
                    *expected,
                    "round {round}, {how}: {code:?}: {}",
                    analysis.verdict.reason
                );
            }
        }
    }
}

#[test]
fn each_perl_heredoc_keeps_its_own_indent_flag() {
    // Upstream read the first heredoc's `<<~` flag for every later one, so the indented
    // terminator of `B` was not seen and the snippet did not parse (ask).
    for code in [
        "print <<A, <<~B;\na\nA\n  b\n  B\n",
        "print <<~A, <<B, <<~C;\n  a\n  A\nb\nB\n    c\n    C\n",
    ] {
        let analysis = analyze(&perl(code), &ctx());
        assert_eq!(
            analysis.action(),
            Action::Allow,
            "{code:?}: {}",
            analysis.verdict.reason
        );
    }
}

#[test]
fn a_heredoc_word_longer_than_the_scanner_buffer_is_read_not_a_crash() {
    let line = "b".repeat(60_000);
    let word = "A".repeat(1500);
    for code in [
        // Upstream copied every non-blank body line into a 1000-byte stack buffer, unbounded:
        // this line crashed the process (SIGSEGV).
        format!("print <<EOF;\n{line}\nEOF\nunlink \"/etc/passwd\";\n"),
        // A 1500-byte identifier overran the other buffer; it still ends where it is repeated.
        format!("print <<{word};\nx\n{word}\nunlink \"/etc/passwd\";\n"),
    ] {
        let analysis = analyze(&perl(&code), &ctx());
        assert_eq!(
            analysis.action(),
            Action::Deny,
            "{}",
            analysis.verdict.reason
        );
    }
}
