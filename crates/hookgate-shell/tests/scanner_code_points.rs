//! The grammars' C scanners see every Unicode code point as their lookahead. Narrow `<ctype.h>`
//! calls on it (`isdigit`) are undefined beyond `unsigned char`, and tree-sitter-bash's read
//! outside glibc's table and crashed the process on `{` + U+E0116 (vendor/tree-sitter-bash). A
//! crashed guard answers nothing, which agents treat as allow: every code point, in every
//! position where a scanner classifies the lookahead, must analyze without crashing.

use std::path::PathBuf;

use hookgate_shell::{Action, Analyzer, Context};

fn ctx() -> Context {
    Context::new("/home/user/project", Some(PathBuf::from("/home/user")))
}

/// Code points spread over the whole range (ASCII, the BMP, the astral planes), and the one
/// that crashed.
fn code_points() -> Vec<char> {
    let mut out: Vec<char> = (0x80u32..=0x10_FFFF)
        .step_by(997)
        .filter_map(char::from_u32)
        .collect();
    out.extend([
        '\u{E0116}',
        '\u{10FFFF}',
        '\u{FFFF}',
        '\u{0660}',
        '\u{FF10}',
    ]);
    out
}

#[test]
fn any_code_point_where_a_scanner_expects_a_digit_does_not_crash_the_analyzer() {
    let mut analyzer = Analyzer::new().expect("grammars load");
    // Bash: brace ranges, special parameters, heredoc words, expansions; Perl: `$0`..`$9`.
    let contexts: &[fn(char) -> String] = &[
        |c| format!("\\'{c}j{{{c}Z0"),
        |c| format!("echo {{{c}..9}}"),
        |c| format!("echo {{1..{c}}}"),
        |c| format!("echo ${c} ${{{c}}}"),
        |c| format!("cat <<{c}\nx\n{c}\n"),
        |c| format!("perl -e 'print ${c}; ${c}x'"),
    ];
    for c in code_points() {
        for make in contexts {
            let line = make(c);
            let a = analyzer.analyze(&line, &ctx());
            // Reaching here is the test; the verdict is still a decision, never a crash.
            let _ = a.action();
        }
    }
    // A line after all of them still analyzes normally: the analyzer was not corrupted.
    let a = analyzer.analyze("rm -rf /", &ctx());
    assert_eq!(a.action(), Action::Deny);
}
