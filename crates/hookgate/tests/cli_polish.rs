//! The command line as a user meets it, through the binary: help order, suggestions, colour
//! only where wanted, completions, the man page and a version that names its build.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::process::{Command, Output};

fn hookgate(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hookgate"));
    cmd.args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn help_lists_commands_in_the_order_users_need_them() {
    let text = stdout(&hookgate(&["--help"], &[]));
    let position = |name: &str| {
        text.find(&format!("\n  {name} "))
            .unwrap_or_else(|| panic!("{name} missing from\n{text}"))
    };
    let order = [
        "init", "doctor", "log", "explain", "inspect", "policy", "hook", "man",
    ];
    for pair in order.windows(2) {
        assert!(position(pair[0]) < position(pair[1]), "{pair:?} in\n{text}");
    }
    assert!(!text.contains("ship-webhook"), "internal command shown");
}

#[test]
fn a_mistyped_command_gets_a_suggestion() {
    let out = hookgate(&["doctr"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("similar") && err.contains("doctor"), "{err}");
}

#[test]
fn help_is_coloured_only_when_colour_is_wanted() {
    let esc = |out: &Output| out.stdout.contains(&0x1b);
    // Not a terminal (a pipe): plain.
    assert!(!esc(&hookgate(&["--help"], &[])));
    // Forced: coloured — the styles are real.
    assert!(esc(&hookgate(&["--help"], &[("CLICOLOR_FORCE", "1")])));
    // NO_COLOR wins over everything.
    assert!(!esc(&hookgate(
        &["--help"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
}

#[test]
fn completions_are_generated_for_each_shell_from_the_real_commands() {
    for (shell, marker) in [
        ("bash", "_hookgate()"),
        ("zsh", "#compdef hookgate"),
        ("fish", "complete -c hookgate"),
    ] {
        let out = hookgate(&["completions", shell], &[]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let text = stdout(&out);
        assert!(text.contains(marker), "{shell}: {marker} missing");
        assert!(
            text.contains("scan-secrets") && text.contains("doctor"),
            "{shell}"
        );
    }
    assert_eq!(
        hookgate(&["completions", "tcsh"], &[]).status.code(),
        Some(1)
    );
}

#[test]
fn man_page_is_roff_naming_every_command() {
    let out = hookgate(&["man"], &[]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains(".TH hookgate 1"),
        "{}",
        &text[..200.min(text.len())]
    );
    for command in ["init", "doctor", "log", "scan\\-secrets", "completions"] {
        assert!(
            text.contains(command),
            "{command} missing from the man page"
        );
    }
}

#[test]
fn version_names_the_commit_and_the_build_date() {
    let text = stdout(&hookgate(&["--version"], &[]));
    // `hookgate 0.1.0 (<commit or unknown> YYYY-MM-DD)`
    let inner = text
        .trim()
        .strip_prefix(concat!("hookgate ", env!("CARGO_PKG_VERSION"), " ("))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{text}"));
    let (commit, date) = inner.split_once(' ').unwrap();
    assert!(
        commit == "unknown"
            || commit
                .trim_end_matches("-dirty")
                .chars()
                .all(|c| c.is_ascii_hexdigit()),
        "{commit}"
    );
    let parts: Vec<&str> = date.split('-').collect();
    assert_eq!(parts.len(), 3, "{date}");
    assert!(
        parts[0].len() == 4 && parts.iter().all(|p| p.parse::<u32>().is_ok()),
        "{date}"
    );
}
