//! The README's "A first session", run exactly as written (issue 10, done-when): the block is
//! read from README.md and run by `sh`, step by step, with `hookgate` being the binary under
//! test, on a fresh machine as far as hookgate can tell (a `HOME` of its own, no
//! `HOOKGATE_*` or `XDG_*` variable, nothing else in the environment), and each step's output
//! is checked: init → a blocked call → `hookgate allow --once` → the call runs → `log` shows
//! both → `report --html`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The shell block of the README section `## A first session`, split into its steps (the
/// paragraphs between blank lines).
fn walk_steps() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let section = readme
        .split("\n## A first session\n")
        .nth(1)
        .expect("README has a section `## A first session`");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("the section holds a ```sh block");
    block
        .split("\n\n")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

const MARK: &str = "@@hookgate-walk-step@@";

#[test]
fn the_readme_first_session_works_on_a_fresh_machine() {
    let steps = walk_steps();
    assert_eq!(
        steps.len(),
        6,
        "init, blocked call, allow, runs, log, report: {steps:#?}"
    );
    let sandbox = tempfile::tempdir().unwrap();
    let (home, bin, tmp) = (
        sandbox.path().join("home"),
        sandbox.path().join("bin"),
        sandbox.path().join("tmp"),
    );
    for dir in [&home, &bin, &tmp] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hookgate"), bin.join("hookgate")).unwrap();
    // One shell, so `cd` carries over; a marker line between steps splits the output.
    let script = steps.iter().fold(String::new(), |mut script, step| {
        script.push_str(step);
        script.push_str("\necho ");
        script.push_str(MARK);
        script.push('\n');
        script
    });
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display());
    let out = Command::new("sh")
        .args(["-ec", &script])
        .current_dir(&home)
        .env_clear()
        .env("PATH", path)
        .env("HOME", &home)
        .env("TMPDIR", &tmp)
        .env("TZ", "UTC")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the walk stopped:\n{stdout}\n{stderr}"
    );
    let printed: Vec<&str> = stdout.split(&format!("{MARK}\n")).collect();
    assert_eq!(printed.len(), 7, "{stdout}");
    let project = home.join("first-session");

    // 1. init wrote the project's Claude settings, naming this binary.
    assert!(printed[0].contains("created"), "{}", printed[0]);
    let settings = std::fs::read_to_string(project.join(".claude/settings.json")).unwrap();
    assert!(settings.contains("hookgate"), "{settings}");

    // 2. A deny in Claude's dialect, with the way through that step 3 runs.
    let answer: Value = serde_json::from_str(printed[1].trim()).unwrap();
    let hso = &answer["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny", "{answer:#}");
    let reason = hso["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.starts_with("hookgate: "), "{reason}");
    let printed_way = format!(
        "`hookgate allow --once 'git push --force origin main' --project {}`",
        project.display()
    );
    assert!(reason.contains(&printed_way), "{reason}");
    let allow_line = steps[2].lines().last().unwrap();
    assert_eq!(
        allow_line.replace("\"$PWD\"", &project.display().to_string()),
        printed_way.trim_matches('`'),
        "step 3 is the way through the deny printed"
    );

    // 3. The allowance, with its code.
    assert!(
        printed[2].contains("allowed command `git push --force origin main`")
            && printed[2].contains("code "),
        "{}",
        printed[2]
    );

    // 4. No objection: nothing on stdout, so Claude's own flow runs the call.
    assert_eq!(printed[3], "", "the retry got an answer: {}", printed[3]);

    // 5. Both calls in the trail, newest first: the one let through, then the deny.
    let lines: Vec<&str> = printed[4].lines().collect();
    assert!(lines.len() >= 2, "{}", printed[4]);
    assert!(
        lines[0].contains("  none ") && lines[0].contains("(allowed by "),
        "{}",
        printed[4]
    );
    assert!(
        lines[1].contains("  deny ") && lines[1].contains("[destructive-shell"),
        "{}",
        printed[4]
    );
    for line in &lines[..2] {
        assert!(line.contains("git push --force origin main"), "{line}");
    }

    // 6. The page, written whole.
    assert!(printed[5].contains("wrote report.html"), "{}", printed[5]);
    let page = std::fs::read_to_string(project.join("report.html")).unwrap();
    assert!(
        page.starts_with("<!DOCTYPE html>"),
        "{}",
        &page[..page.len().min(80)]
    );

    // Everything hookgate kept is under the sandbox's HOME.
    assert!(home.join(".local/share/hookgate").is_dir());
    assert!(home.join(".config/hookgate/allowances.json").is_file());
}
