//! Peer corpora (dcg and shguard, in `shared/corpora`) as a report and a regression test.
//!
//! Prints recall on their dangerous cases and the false-positive rate on their safe cases,
//! asserts floors, and fails on any disagreement that is not listed (with its reason) in
//! `DISAGREEMENTS.md` / [`KNOWN_DISAGREEMENTS`].

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

use std::path::{Path, PathBuf};

use hookgate_shell::{Action, Analyzer, Context};

/// A corpus case: the command and whether the peer considers it dangerous (and how strongly).
struct Case {
    file: String,
    command: String,
    /// Peer expects a block (deny) — or at least an ask (`Ask` from shguard).
    expected: Expected,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expected {
    Allow,
    Ask,
    Deny,
}

/// Commands where hookgate deliberately disagrees with the peer; reasons in DISAGREEMENTS.md.
const KNOWN_DISAGREEMENTS: &[&str] = &[
    // D1: deleting under the temp dir is normal work (dcg itself allows `rm -rf /tmp/build`).
    "python -c \"import shutil; shutil.rmtree('/tmp/demo')\"",
    "python -c 'import shutil; shutil.rmtree(\"/tmp/demo\")'",
    // D2: dcg ships these packs disabled; hookgate's taxonomy covers containers/orchestration.
    "docker system prune",
    "docker system prune -a",
    "kubectl delete namespace prod",
    "kubectl delete all --all",
    // D3: `rm -rf` with no operand deletes nothing.
    "echo yes | rm -rf && echo done",
    // D4: deleting a build dir inside the workspace is normal work.
    "rm -rf ./build",
];

/// Floors that hold today; a regression below them fails the build.
const MIN_RECALL: f64 = 0.95;
const MAX_FALSE_POSITIVE_RATE: f64 = 0.02;

fn corpora_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora")
}

fn load() -> Option<Vec<Case>> {
    let dir = corpora_dir();
    if !dir.is_dir() {
        return None;
    }
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).ok()?.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "toml") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).ok()?;
        let value: toml::Value = toml::from_str(&text).ok()?;
        let rel = f.strip_prefix(&dir).unwrap_or(&f).display().to_string();
        for case in value
            .get("case")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            let command = case
                .get("command")
                .or_else(|| case.get("payload"))
                .and_then(|c| c.as_str());
            let expected = case
                .get("expected")
                .or_else(|| case.get("expected_decision"))
                .and_then(|e| e.as_str());
            let (Some(command), Some(expected)) = (command, expected) else {
                continue;
            };
            if case
                .get("input_kind")
                .and_then(|k| k.as_str())
                .is_some_and(|k| k != "command")
            {
                continue;
            }
            let expected = match expected.to_ascii_lowercase().as_str() {
                "allow" => Expected::Allow,
                "ask" => Expected::Ask,
                _ => Expected::Deny,
            };
            cases.push(Case {
                file: rel.clone(),
                command: command.to_owned(),
                expected,
            });
        }
    }
    Some(cases)
}

#[test]
fn peer_corpora_recall_and_false_positive_rate() {
    let Some(cases) = load() else {
        // A skipped test is not a passed test: under CI the corpora must be there.
        assert!(
            std::env::var_os("CI").is_none_or(|v| v.is_empty()),
            "CI: the peer corpora are missing at {}",
            corpora_dir().display()
        );
        println!(
            "NOTICE: peer corpora not found at {}; skipping",
            corpora_dir().display()
        );
        return;
    };
    let ctx = Context::new("/home/user/project", Some(PathBuf::from("/home/user")));
    let mut analyzer = Analyzer::new().expect("grammar loads");
    let (mut dangerous, mut caught, mut caught_strict) = (0usize, 0usize, 0usize);
    let (mut safe, mut false_positives) = (0usize, 0usize);
    let mut disagreements = Vec::new();
    for case in &cases {
        let a = analyzer.analyze(&case.command, &ctx);
        let action = a.action();
        let agrees = match case.expected {
            Expected::Allow => {
                safe += 1;
                if action != Action::Allow {
                    false_positives += 1;
                }
                action == Action::Allow
            }
            Expected::Ask | Expected::Deny => {
                dangerous += 1;
                if action != Action::Allow {
                    caught += 1;
                }
                let strict = match case.expected {
                    Expected::Deny => action == Action::Deny,
                    _ => action != Action::Allow,
                };
                if strict {
                    caught_strict += 1;
                }
                action != Action::Allow
            }
        };
        if !agrees {
            disagreements.push(format!(
                "{:<45} expected {:?}, got {:?} ({}): {:?}",
                case.file, case.expected, action, a.verdict.reason, case.command
            ));
        }
    }
    #[allow(clippy::cast_precision_loss)]
    let pct = |n: usize, d: usize| {
        if d == 0 {
            0.0
        } else {
            100.0 * n as f64 / d as f64
        }
    };
    println!(
        "peer corpora: {} cases; recall {caught}/{dangerous} = {:.1}% (ask or deny), {caught_strict}/{dangerous} = {:.1}% at the peer's own strength; false positives {false_positives}/{safe} = {:.1}%",
        cases.len(),
        pct(caught, dangerous),
        pct(caught_strict, dangerous),
        pct(false_positives, safe)
    );
    for d in &disagreements {
        println!("  DISAGREE {d}");
    }
    let unexplained: Vec<&String> = disagreements
        .iter()
        .filter(|d| {
            !KNOWN_DISAGREEMENTS
                .iter()
                .any(|k| d.ends_with(&format!("{k:?}")))
        })
        .collect();
    assert!(
        unexplained.is_empty(),
        "unexplained disagreements: {unexplained:#?}"
    );
    #[allow(clippy::cast_precision_loss)]
    let (recall, fp_rate) = (
        caught as f64 / dangerous.max(1) as f64,
        false_positives as f64 / safe.max(1) as f64,
    );
    assert!(
        recall >= MIN_RECALL,
        "recall {recall:.3} below {MIN_RECALL}"
    );
    assert!(
        fp_rate <= MAX_FALSE_POSITIVE_RATE,
        "false-positive rate {fp_rate:.3} above {MAX_FALSE_POSITIVE_RATE}"
    );
}
