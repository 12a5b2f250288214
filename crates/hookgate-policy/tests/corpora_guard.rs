//! The peer corpora (`shared/corpora`: dcg, shguard) through the whole guard — the default
//! policy with the shell analyzer inside it, as a hook call is judged — rather than the
//! analyzer alone (`crates/hookgate-shell/tests/corpora.rs`). Prints recall and the
//! false-positive rate, asserts floors, and fails on a disagreement not listed (with its
//! reason) in `crates/hookgate-shell/DISAGREEMENTS.md` (G1–G3).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::path::{Path, PathBuf};

use common::call_for_tool;
use hookgate_core::AgentKind;
use hookgate_policy::{Ctx, Policy, SessionState};
use serde_json::json;

/// Cases where the whole guard deliberately disagrees with a peer (DISAGREEMENTS.md).
const KNOWN: &[&str] = &[
    // D1–D4 of the analyzer (same reasons).
    "python -c \"import shutil; shutil.rmtree('/tmp/demo')\"",
    "python -c 'import shutil; shutil.rmtree(\"/tmp/demo\")'",
    "docker system prune",
    "docker system prune -a",
    "kubectl delete namespace prod",
    "kubectl delete all --all",
    "echo yes | rm -rf && echo done",
    "rm -rf ./build",
    // G1: pushing to a protected branch is the policy's protected-branch rule.
    "git push origin main",
    // G2: sudo asks under no-permission-escalation.
    "sudo git status",
];

const MIN_RECALL: f64 = 0.95;
const MAX_FALSE_POSITIVE_RATE: f64 = 0.03;

fn cases() -> Option<Vec<(String, bool)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora");
    let mut files = Vec::new();
    let mut stack = vec![dir];
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
    let mut out = Vec::new();
    for f in files {
        let value: toml::Value = toml::from_str(&std::fs::read_to_string(&f).ok()?).ok()?;
        for case in value
            .get("case")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            let command = case.get("command").or_else(|| case.get("payload"));
            let expected = case
                .get("expected")
                .or_else(|| case.get("expected_decision"));
            let kind = case.get("input_kind").and_then(|k| k.as_str());
            if let (Some(c), Some(e)) = (
                command.and_then(|c| c.as_str()),
                expected.and_then(|e| e.as_str()),
            ) && kind.is_none_or(|k| k == "command")
            {
                out.push((c.to_owned(), !e.eq_ignore_ascii_case("allow")));
            }
        }
    }
    Some(out)
}

#[test]
fn peer_corpora_through_the_whole_guard() {
    let Some(cases) = cases() else {
        assert!(
            std::env::var_os("CI").is_none_or(|v| v.is_empty()),
            "CI: the peer corpora are missing"
        );
        println!("NOTICE: peer corpora not found; skipping");
        return;
    };
    let ws = "/home/user/project";
    let mut ctx = Ctx::new(ws, Some(PathBuf::from("/home/user")));
    ctx.follow_symlinks = false;
    let policy = Policy::builtin_default();
    let (mut dangerous, mut caught, mut safe, mut flagged) = (0usize, 0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    for (command, is_dangerous) in &cases {
        let input = json!({"command": command}).as_object().cloned().unwrap();
        let call = call_for_tool(AgentKind::Claude, ws, "Bash", input);
        let e = policy.evaluate(&call, &ctx, &SessionState::default());
        let stopped = e.decision.is_some();
        if *is_dangerous {
            dangerous += 1;
            caught += usize::from(stopped);
        } else {
            safe += 1;
            flagged += usize::from(stopped);
        }
        if stopped != *is_dangerous {
            disagreements.push((command.clone(), e.decision, e.determining.clone()));
        }
    }
    #[allow(clippy::cast_precision_loss)]
    let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
    println!(
        "whole guard on the peer corpora: {} cases; recall {caught}/{dangerous} = {:.1}%; false positives {flagged}/{safe} = {:.1}%",
        cases.len(),
        pct(caught, dangerous),
        pct(flagged, safe)
    );
    for (c, d, by) in &disagreements {
        println!("  DISAGREE {d:?} by {by:?}: {c:?}");
    }
    let unexplained: Vec<&String> = disagreements
        .iter()
        .map(|(c, _, _)| c)
        .filter(|c| !KNOWN.contains(&c.as_str()))
        .collect();
    assert!(unexplained.is_empty(), "unexplained: {unexplained:#?}");
    assert!(pct(caught, dangerous) / 100.0 >= MIN_RECALL);
    assert!(pct(flagged, safe) / 100.0 <= MAX_FALSE_POSITIVE_RATE);
}
