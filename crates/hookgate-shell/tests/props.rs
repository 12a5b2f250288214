//! Property tests: obfuscating a word never changes the verdict; nothing panics.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

use std::fmt::Write as _;
use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context};
use proptest::prelude::*;

fn ctx() -> Context {
    Context::new("/home/user/project", Some(PathBuf::from("/home/user")))
}

/// Commands as argv, spanning every action.
const COMMANDS: &[&[&str]] = &[
    &["rm", "-rf", "/"],
    &["rm", "-rf", "build"],
    &["git", "reset", "--hard"],
    &["git", "push", "--force", "origin", "main"],
    &["git", "status"],
    &["git", "push", "origin", "+main"],
    &["ls", "-la"],
    &["echo", "rm -rf /"],
    &["sudo", "rm", "-rf", "/etc"],
    &["docker", "system", "prune", "-af"],
    &["kubectl", "get", "pods"],
    &["terraform", "destroy"],
    &["cat", "README.md"],
    &["bash", "-c", "rm -rf /"],
    &["find", ".", "-name", "x", "-delete"],
    &["chmod", "-R", "777", "/etc"],
];

/// Ways to spell one word that bash reads identically.
fn spell(word: &str, how: u8) -> String {
    match how % 6 {
        0 => format!("'{}'", word.replace('\'', "'\\''")),
        1 => {
            let escaped: String = word
                .chars()
                .map(|c| match c {
                    '"' | '\\' | '$' | '`' => format!("\\{c}"),
                    _ => c.to_string(),
                })
                .collect();
            format!("\"{escaped}\"")
        }
        2 => word
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    format!("\\{c}")
                } else {
                    format!("'{c}'")
                }
            })
            .collect(),
        3 => {
            let hex: String = word.bytes().fold(String::new(), |mut acc, b| {
                let _ = write!(acc, "\\x{b:02x}");
                acc
            });
            format!("$'{hex}'")
        }
        4 => {
            // Split with an empty quote pair after the first character: r''m.
            let mut chars = word.chars();
            let first: String = chars.next().map(|c| c.to_string()).unwrap_or_default();
            let rest: String = chars.collect();
            format!("{}''{}", spell(&first, 0), spell(&rest, 0))
        }
        _ => word.chars().fold(String::new(), |mut acc, c| {
            let _ = if matches!(c, '"' | '\\' | '$' | '`') {
                write!(acc, "\"\\{c}\"")
            } else {
                write!(acc, "\"{c}\"")
            };
            acc
        }),
    }
}

fn plain(argv: &[&str]) -> String {
    argv.iter()
        .map(|w| spell(w, 0))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The fast paths (plain words, plain lists) and the grammar path give `line` the same
/// analysis: verdict first, then the commands, then the whole (the first difference is named).
fn fast_and_full_paths_agree(line: &str) -> Result<(), TestCaseError> {
    let mut fast = Analyzer::new().expect("grammar loads");
    let mut full = Analyzer::new().expect("grammar loads");
    full.set_fast_path(false);
    let a = fast.analyze(line, &ctx());
    let b = full.analyze(line, &ctx());
    prop_assert_eq!(&a.verdict, &b.verdict, "{}", line);
    prop_assert_eq!(&a.commands, &b.commands, "{}", line);
    prop_assert_eq!(a, b, "{}", line);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn quoting_a_command_word_never_changes_its_verdict(
        index in 0..COMMANDS.len(),
        word in 0usize..8,
        how in any::<u8>(),
    ) {
        let argv = COMMANDS[index];
        let word = word % argv.len();
        let mut analyzer = Analyzer::new().expect("grammar loads");
        let base = analyzer.analyze(&plain(argv), &ctx());
        let obfuscated: Vec<String> = argv
            .iter()
            .enumerate()
            .map(|(i, w)| if i == word { spell(w, how) } else { spell(w, 0) })
            .collect();
        let line = obfuscated.join(" ");
        let other = analyzer.analyze(&line, &ctx());
        prop_assert_eq!(base.action(), other.action(), "{} vs {}", plain(argv), line);
        prop_assert_eq!(base.verdict.rule_id, other.verdict.rule_id, "{}", line);
    }

    #[test]
    fn extra_whitespace_never_changes_its_verdict(index in 0..COMMANDS.len(), pad in 1usize..4) {
        let argv = COMMANDS[index];
        let mut analyzer = Analyzer::new().expect("grammar loads");
        let sep = " ".repeat(pad);
        let a = analyzer.analyze(&plain(argv), &ctx());
        let b = analyzer.analyze(&format!("{sep}{}{sep}", argv.iter().map(|w| spell(w, 0)).collect::<Vec<_>>().join(&sep)), &ctx());
        prop_assert_eq!(a.action(), b.action());
    }

    #[test]
    fn the_plain_words_fast_path_agrees_with_the_full_parser(
        words in proptest::collection::vec(
            prop_oneof![
                Just("rm"), Just("-rf"), Just("/"), Just("git"), Just("push"), Just("--force"),
                Just("reset"), Just("--hard"), Just("sudo"), Just("env"), Just("A=1"), Just("ls"),
                Just("build"), Just("/etc"), Just("~"), Just(".."), Just("-f"), Just("cat"),
                Just(".env"), Just("bash"), Just("xargs"), Just("find"), Just("-delete"),
                Just("docker"), Just("system"), Just("prune"), Just("kubectl"), Just("delete"),
                Just("if"), Just("time"), Just("x=1"), Just("@"), Just("%1"), Just("a.b:c,d+e"),
                Just("HEAD~1"), Just("a=~"), Just("x:~/y"), Just("'-rf'"), Just("'/'"),
                Just("\"/etc\""), Just("'a b'"), Just("\"x y\"c"), Just("'*.rs'"), Just("''"),
                Just("\"$HOME\""), Just("'$(id)'"), Just("'{a,b}'"), Just("\"it's\""),
                Just("-c"), Just("'rm -rf /'"), Just("LD_PRELOAD=/tmp/x.so"), Just("x@y"),
                Just("50%"),
            ],
            1..8,
        ),
    ) {
        let line = words.join(" ");
        fast_and_full_paths_agree(&line)?;
    }

    #[test]
    fn the_plain_list_fast_path_agrees_with_the_full_parser(
        operands in proptest::collection::vec(
            (
                proptest::collection::vec(
                    prop_oneof![
                        Just("rm"), Just("-rf"), Just("/"), Just("git"), Just("push"),
                        Just("--force"), Just("reset"), Just("--hard"), Just("cd"), Just(".."),
                        Just("/etc"), Just("~"), Just("build"), Just("cat"), Just(".env"),
                        Just("echo"), Just("exit"), Just("return"), Just("true"), Just("false"),
                        Just("1"), Just("sudo"), Just("bash"), Just("-c"), Just("'rm -rf /'"),
                        Just("alias"), Just("rm=echo"), Just("export"), Just("A=1"), Just("if"),
                        Just("'a && b'"), Just("\"x; y\""), Just("HEAD~1"), Just("ls"),
                        Just("curl"), Just("https://x.example"), Just("trap"), Just("EXIT"),
                    ],
                    0..5,
                ),
                prop_oneof![
                    Just(" && "), Just(" || "), Just("; "), Just("&&"), Just("||"), Just(";"),
                    Just(" & "), Just(" | "),
                ],
            ),
            2..5,
        ),
    ) {
        let mut line = String::new();
        for (index, (words, op)) in operands.iter().enumerate() {
            if index > 0 {
                line.push_str(op);
            }
            line.push_str(&words.join(" "));
        }
        fast_and_full_paths_agree(&line)?;
    }

    #[test]
    fn analysis_never_panics_on_arbitrary_input(input in any::<String>()) {
        let mut analyzer = Analyzer::new().expect("grammar loads");
        let _ = analyzer.analyze(&input, &ctx());
    }

    #[test]
    fn analysis_never_panics_on_shell_shaped_input(
        input in proptest::collection::vec(
            prop_oneof![
                Just("rm"), Just("-rf"), Just("/"), Just("$("), Just(")"), Just("`"), Just("'"),
                Just("\""), Just("|"), Just("&&"), Just(";"), Just("<<EOF\n"), Just("\nEOF\n"),
                Just("bash -c"), Just("$'\\x72'"), Just("{"), Just("}"), Just("<("), Just("${"),
                Just("\\"), Just(" "), Just("\n"), Just("eval"), Just("xargs"), Just("find"),
                Just("-exec"), Just("\\;"), Just("python -c"), Just("$IFS"), Just("*"), Just("~"),
            ],
            0..40,
        )
    ) {
        let mut analyzer = Analyzer::new().expect("grammar loads");
        let line = input.concat();
        let a = analyzer.analyze(&line, &ctx());
        // Whatever it is, a parse failure is never allowed.
        if matches!(a.parse, hookgate_shell::ParseStatus::Error(_)) {
            prop_assert_ne!(a.action(), hookgate_shell::Action::Allow);
        }
    }
}
