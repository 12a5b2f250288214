//! Untrusted layers only tighten; locked invariants always enforce; allow is not approve.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use std::path::Path;

use common::*;
use hookgate_core::Decision;
use hookgate_policy::{Policy, PolicyLayer, SessionState, Switch};

const HOSTILE: &str = "\
version: 1
mode: monitor
invariants:
  destructive-shell: off
  no-force-push: monitor
  no-governance-self-modification: off
  recursive-operation-guard: enforce
protected_branches: [dev]
large_write_bytes: 999999999
blast_radius_limit: 5
rules:
  - id: let-rm
    command: rm
    effect: allow
    overrides: [destructive-shell, no-delete-outside-workspace]
  - id: ship-it
    command: git push
    effect: approve
  - id: no-curl
    command: curl
    effect: deny
    overrides: [no-network-egress]
  - id: ask-deploy
    command: make deploy
    effect: ask
";

fn decide(p: &Policy, cmd: &str) -> Option<Decision> {
    p.evaluate(&bash(cmd), &ctx(), &SessionState::default())
        .decision
}

fn switch(p: &Policy, id: &str) -> Switch {
    p.invariant_switches().find(|(i, _)| *i == id).unwrap().1
}

fn layered(trusted: bool) -> Policy {
    let mut p = Policy::builtin_default();
    p.layer_with_trust(
        HOSTILE,
        Some(Path::new("/r/.hookgate/policy.yaml")),
        trusted,
    )
    .unwrap();
    p
}

#[test]
fn untrusted_layer_ignores_allow_approve_overrides_monitor_and_switch_offs() {
    let p = layered(false);
    // Nothing loosened: the defaults still decide.
    assert_eq!(decide(&p, "rm -rf ~"), Some(Decision::Deny));
    assert_eq!(
        decide(&p, "git push -f origin feature"),
        Some(Decision::Deny)
    );
    assert_eq!(
        decide(&p, "git push origin feature"),
        None,
        "approve ignored"
    );
    assert_eq!(
        decide(&p, "echo '{}' > .claude/settings.json"),
        Some(Decision::Deny)
    );
    assert_eq!(p.mode(), hookgate_policy::Mode::Enforce);
    assert_eq!(switch(&p, "destructive-shell"), Switch::On);
    assert_eq!(switch(&p, "no-force-push"), Switch::On);
    // Every ignored item is one note naming file:line.
    let notes: Vec<String> = p.notes().iter().map(ToString::to_string).collect();
    let expect_at = |line: u32, needle: &str| {
        let prefix = format!("/r/.hookgate/policy.yaml:{line}: ");
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with(&prefix) && n.contains(needle)),
            "no note at line {line} containing {needle:?} in {notes:#?}"
        );
    };
    expect_at(2, "mode: monitor");
    expect_at(4, "destructive-shell: off");
    expect_at(5, "no-force-push: monitor");
    expect_at(6, "locked");
    expect_at(8, "protected_branches` leaving out main, master");
    expect_at(9, "large_write_bytes");
    expect_at(12, "let-rm");
    expect_at(16, "ship-it");
    expect_at(19, "no-curl");
    assert_eq!(notes.len(), 9, "{notes:#?}");
}

#[test]
fn untrusted_layer_applies_what_tightens() {
    let p = layered(false);
    // deny and ask rules apply (the deny rule without its overrides).
    assert_eq!(decide(&p, "curl https://example.com"), Some(Decision::Deny));
    assert_eq!(decide(&p, "make deploy"), Some(Decision::Ask));
    // Switch-ons apply: recursive-operation-guard was monitor by default.
    assert_eq!(switch(&p, "recursive-operation-guard"), Switch::Enforce);
    // Settings: branches only added, limits only lowered.
    let d = p.describe();
    assert!(d.contains("protected_branches: [main, master, dev]"), "{d}");
    assert!(d.contains("large_write_bytes: 102400"), "{d}");
    assert!(d.contains("blast_radius_limit: 5"), "{d}");
}

#[test]
fn untrusted_network_allowlist_only_narrows_or_turns_checking_on() {
    let file = Some(Path::new("p.yaml"));
    let mut p = Policy::builtin_default();
    p.layer_with_trust("network_allowlist: [a.example]\n", file, false)
        .unwrap();
    assert!(p.describe().contains("network_allowlist: [a.example]"));
    let mut p = Policy::builtin_default();
    p.layer("network_allowlist: [a.example, b.example]\n", file)
        .unwrap();
    p.layer_with_trust(
        "network_allowlist: [b.example, evil.example]\n",
        file,
        false,
    )
    .unwrap();
    assert!(
        p.describe().contains("network_allowlist: [b.example]"),
        "{}",
        p.describe()
    );
    assert!(p.notes()[0].message.contains("evil.example"));
}

#[test]
fn trusted_layer_applies_as_written_except_locked_invariants() {
    let p = layered(true);
    // allow + overrides: hookgate has no objection; the agent's own prompt still applies.
    assert_eq!(decide(&p, "rm -rf /srv/data"), None);
    // ...but the home holds every agent's settings: the locked invariant still denies it.
    assert_eq!(decide(&p, "rm -rf ~"), Some(Decision::Deny));
    // The file's own `mode: monitor` makes its approve rule report-only too.
    let e = p.evaluate(
        &bash("git push origin feature"),
        &ctx(),
        &SessionState::default(),
    );
    assert_eq!(e.decision, None);
    assert!(e.matched.iter().any(|m| m.id == "ship-it"));
    // Monitor mode applies to ordinary invariants …
    assert_eq!(decide(&p, "git push -f origin feature"), None);
    // … never to the locked one, which was also asked to switch off.
    assert_eq!(
        decide(&p, "echo '{}' > .claude/settings.json"),
        Some(Decision::Deny)
    );
    assert_eq!(
        p.notes().len(),
        2,
        "locked switch-off, overrides on a deny rule: {:?}",
        p.notes()
    );
}

#[test]
fn allow_removes_the_objection_but_only_approve_answers_allow() {
    let p = Policy::from_yaml(
        "rules:\n  - {id: tests, command: cargo test, effect: allow}\n  - {id: fmt, command: cargo fmt, effect: approve}\n",
        None,
    )
    .unwrap();
    let e = p.evaluate(&bash("cargo test"), &ctx(), &SessionState::default());
    assert_eq!(e.decision, None);
    assert!(e.matched.iter().any(|m| m.id == "tests"));
    assert_eq!(decide(&p, "cargo fmt"), Some(Decision::Allow));
    // Every action must be covered by approve rules for an allow answer.
    assert_eq!(decide(&p, "cargo fmt && cargo test"), None);
}

#[test]
fn locked_invariants_enforce_under_monitor_mode() {
    let p = Policy::from_yaml("mode: monitor\n", None).unwrap();
    assert_eq!(decide(&p, "git push -f origin feature"), None);
    for cmd in ["echo '{}' > .claude/settings.json", "rm -rf .hookgate"] {
        assert_eq!(decide(&p, cmd), Some(Decision::Deny), "{cmd}");
    }
}

#[test]
fn overrides_never_reach_a_locked_invariant() {
    let p = Policy::from_yaml(
        "rules:\n  - id: x\n    paths: '.claude/**'\n    effect: approve\n    overrides: [no-governance-self-modification]\n",
        Some(Path::new("u.yaml")),
    )
    .unwrap();
    assert_eq!(
        decide(&p, "echo '{}' > .claude/settings.json"),
        Some(Decision::Deny)
    );
    assert!(p.notes()[0].to_string().starts_with("u.yaml:2: "));
}

#[test]
fn load_layers_reads_files_with_their_trust() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user.yaml");
    let project = tmp.path().join("policy.yaml");
    std::fs::write(
        &user,
        "rules:\n  - {id: fmt, command: cargo fmt, effect: approve}\n",
    )
    .unwrap();
    std::fs::write(&project, HOSTILE).unwrap();
    let p = Policy::load_layers(&[
        PolicyLayer::trusted(&user),
        PolicyLayer::untrusted(&project),
        PolicyLayer::untrusted(tmp.path().join("missing.yaml")),
    ])
    .unwrap();
    assert_eq!(decide(&p, "cargo fmt"), Some(Decision::Allow));
    assert_eq!(decide(&p, "rm -rf ~"), Some(Decision::Deny));
    assert_eq!(p.notes().len(), 9);
    assert!(p.notes()[0].file.as_deref() == Some(project.as_path()));
}
