//! Rule matching tables, layering, monitor mode and policy-file errors with file:line.
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
use hookgate_policy::{ActionKind, MatchedKind, Policy, SessionState, actions};

fn policy(yaml: &str) -> Policy {
    Policy::from_yaml(yaml, Some(Path::new(".hookgate/policy.yaml"))).unwrap()
}

fn decide(p: &Policy, call: &hookgate_core::CanonicalCall) -> Option<Decision> {
    p.evaluate(call, &ctx(), &SessionState::default()).decision
}

#[test]
fn action_wildcards_match_namespaces() {
    let p = policy(
        "rules:\n  - {id: no-git, action: 'git.*', effect: deny}\n  - {id: all-mcp, action: [mcp.call], effect: ask}\n",
    );
    assert_eq!(decide(&p, &bash("git commit -m x")), Some(Decision::Deny));
    assert_eq!(decide(&p, &bash("git status")), Some(Decision::Deny)); // git.other
    assert_eq!(decide(&p, &bash("ls")), None);
    let star = policy("rules:\n  - {id: everything, action: '*', effect: ask}\n");
    assert_eq!(decide(&star, &read("src/a.rs")), Some(Decision::Ask));
}

#[test]
fn deny_wins_over_allow_and_ask_beats_allow() {
    let p = policy(
        "rules:\n  - {id: allow-git, action: 'git.*', effect: allow}\n  - {id: deny-commit, action: git.commit, effect: deny, reason: no commits today}\n",
    );
    let e = p.evaluate(&bash("git commit -m x"), &ctx(), &SessionState::default());
    assert_eq!(e.decision, Some(Decision::Deny));
    assert!(e.reason.unwrap().contains("deny-commit: no commits today"));
    let p = policy(
        "rules:\n  - {id: a, action: git.other, effect: allow}\n  - {id: b, action: git.other, effect: ask}\n",
    );
    assert_eq!(decide(&p, &bash("git status")), Some(Decision::Ask));
}

#[test]
fn approve_needs_every_action_of_the_line_covered() {
    let p = policy("rules:\n  - {id: tests, command: cargo test, effect: approve}\n");
    assert_eq!(decide(&p, &bash("cargo test -p x")), Some(Decision::Allow));
    // The other command of the line matches no allow rule: no opinion, not allow.
    assert_eq!(
        decide(&p, &bash("cargo test && curl https://x.example")),
        None
    );
    // An approve rule never silences an invariant.
    let p = policy("rules:\n  - {id: push, action: git.force_push, effect: approve}\n");
    assert_eq!(
        decide(&p, &bash("git push -f origin feature")),
        Some(Decision::Deny)
    );
}

#[test]
fn allow_rules_can_override_named_invariants() {
    let p = policy(
        "rules:\n  - id: lease-ok\n    command: git push --force-with-lease\n    branch: 'feature/*'\n    effect: approve\n    overrides: [no-force-push, destructive-shell]\n",
    );
    assert_eq!(
        decide(&p, &bash("git push --force-with-lease origin feature/x")),
        Some(Decision::Allow)
    );
    assert_eq!(
        decide(&p, &bash("git push --force-with-lease origin main")),
        Some(Decision::Deny)
    );
}

#[test]
fn command_patterns_match_parsed_commands_not_text() {
    let p = policy(
        "rules:\n  - {id: no-rf, command: rm -rf, effect: deny}\n  - {id: no-sudo, command: sudo, effect: ask}\n",
    );
    assert_eq!(decide(&p, &bash("rm -fr build")), Some(Decision::Deny));
    assert_eq!(
        decide(&p, &bash("rm --recursive --force build")),
        Some(Decision::Deny)
    );
    assert_eq!(
        decide(&p, &bash("bash -c 'rm -r -f build'")),
        Some(Decision::Deny)
    );
    assert_eq!(decide(&p, &bash("echo 'rm -rf build'")), None);
    assert_eq!(decide(&p, &bash("git commit -m 'rm -rf build'")), None);
    assert_eq!(decide(&p, &bash("sudo ls /root")), Some(Decision::Ask));
}

#[test]
fn tool_regex_matches_name_or_kind() {
    let p = policy(
        "rules:\n  - {id: shells, tool: shell, effect: ask}\n  - {id: mcp, tool: 'mcp__github__.*', effect: deny}\n",
    );
    assert_eq!(decide(&p, &bash("ls")), Some(Decision::Ask));
    assert_eq!(decide(&p, &gemini_shell("ls")), Some(Decision::Ask));
    let mcp = call_for_tool(
        hookgate_core::AgentKind::Claude,
        WS,
        "mcp__github__create_issue",
        serde_json::Map::new(),
    );
    assert_eq!(decide(&p, &mcp), Some(Decision::Deny));
    assert_eq!(actions(&mcp, &ctx())[0].kind, ActionKind::McpCall);
    assert_eq!(decide(&p, &read("a")), None);
}

#[test]
fn path_globs_match_canonical_paths_including_traversal() {
    let p = policy(
        "rules:\n  - {id: secrets-dir, action: 'file.*', paths: ['secrets/**', '*.pem', '/opt/**'], effect: deny}\n",
    );
    assert_eq!(
        decide(&p, &write("secrets/a.txt", "x")),
        Some(Decision::Deny)
    );
    assert_eq!(
        decide(&p, &write("src/../secrets/a.txt", "x")),
        Some(Decision::Deny)
    );
    assert_eq!(
        decide(&p, &write("/work/proj/secrets/a.txt", "x")),
        Some(Decision::Deny)
    );
    assert_eq!(decide(&p, &read("deep/dir/key.pem")), Some(Decision::Deny));
    assert_eq!(decide(&p, &bash("cat secrets/a.txt")), Some(Decision::Deny));
    assert_eq!(
        decide(&p, &bash("echo x > secrets/b")),
        Some(Decision::Deny)
    );
    assert_eq!(decide(&p, &write("src/secrets.rs", "x")), None);
    assert_eq!(decide(&p, &write("secretsx/a", "x")), None);
    assert_eq!(decide(&p, &bash("echo secrets/a.txt")), None);
}

#[test]
fn branch_conditions_use_the_push_target_or_the_current_branch() {
    let p = policy(
        "rules:\n  - {id: rel, action: git.commit, branch: ['release/*'], effect: ask}\n  - {id: ok, action: git.push, branch: dev, effect: approve}\n",
    );
    let s = SessionState::default();
    let on = |b: &str| ctx().with_branch(b);
    assert_eq!(
        p.evaluate(&bash("git commit -m x"), &on("release/1"), &s)
            .decision,
        Some(Decision::Ask)
    );
    assert_eq!(
        p.evaluate(&bash("git commit -m x"), &on("feature"), &s)
            .decision,
        None
    );
    // Unknown branch: deny/ask rules match, allow rules do not.
    assert_eq!(
        p.evaluate(&bash("git commit -m x"), &ctx(), &s).decision,
        Some(Decision::Ask)
    );
    assert_eq!(
        p.evaluate(&bash("git push origin dev"), &on("feature"), &s)
            .decision,
        Some(Decision::Allow)
    );
    assert_eq!(p.evaluate(&bash("git push"), &ctx(), &s).decision, None);
}

#[test]
fn monitor_mode_reports_would_deny_without_deciding() {
    let p = policy("mode: monitor\nrules:\n  - {id: no-npm, command: npm, effect: deny}\n");
    let e = p.evaluate(&bash("npm install"), &ctx(), &SessionState::default());
    assert_eq!(e.decision, None);
    assert!(e.context.unwrap().contains("would deny: no-npm"));
    // Invariants follow the policy mode too …
    let e = p.evaluate(
        &bash("git push -f origin x"),
        &ctx(),
        &SessionState::default(),
    );
    assert_eq!(e.decision, None);
    // … unless switched to enforce.
    let p = policy("mode: monitor\ninvariants: {no-force-push: enforce}\n");
    let e = p.evaluate(
        &bash("git push -f origin x"),
        &ctx(),
        &SessionState::default(),
    );
    assert_eq!(e.decision, Some(Decision::Deny));
    // A rule's own mode.
    let p = policy("rules:\n  - {id: trial, command: npm, effect: deny, mode: monitor}\n");
    let e = p.evaluate(&bash("npm ci"), &ctx(), &SessionState::default());
    assert_eq!(e.decision, None);
    assert!(
        e.matched
            .iter()
            .any(|m| m.id == "trial" && m.kind == MatchedKind::Rule)
    );
}

#[test]
fn invariants_can_be_switched_off_except_the_guard_itself() {
    let p = policy(
        "invariants:\n  no-force-push: off\n  destructive-shell: off\n  protected-branch: off\n",
    );
    assert_eq!(decide(&p, &bash("git push -f origin x")), None);
    // The locked one stays on; the request becomes a note naming file:line.
    let p = Policy::from_yaml(
        "invariants:\n  no-governance-self-modification: off\n",
        Some(Path::new("p.yaml")),
    )
    .unwrap();
    let note = p.notes()[0].to_string();
    assert!(note.starts_with("p.yaml:2: "), "{note}");
    assert!(note.contains("locked"), "{note}");
    assert_eq!(
        decide(&p, &bash("echo '{}' > .claude/settings.json")),
        Some(Decision::Deny)
    );
}

#[test]
fn evaluations_name_the_deciding_ids_and_where_rules_live() {
    let p = policy(
        "rules:\n  - id: no-curl\n    command: curl\n    effect: deny\n    suggestion: use the HTTP client in the repo\n",
    );
    let e = p.evaluate(
        &bash("curl https://x.example"),
        &ctx(),
        &SessionState::default(),
    );
    assert_eq!(e.decision, Some(Decision::Deny));
    let m = e.matched.iter().find(|m| m.id == "no-curl").unwrap();
    assert_eq!(m.origin.as_deref(), Some(".hookgate/policy.yaml:2"));
    assert!(e.reason.unwrap().starts_with("no-curl:"));
    assert_eq!(
        e.suggestion.as_deref(),
        Some("use the HTTP client in the repo")
    );
    assert_eq!(
        e.steps.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["actions", "rules", "invariants"]
    );
}

#[test]
fn policy_file_errors_name_file_and_line() {
    let cases: &[(&str, u64, &str)] = &[
        (
            "version: 1\nrules:\n  - id: x\n    effect: deny\n    acton: git.push\n",
            5,
            "acton",
        ),
        (
            "rules:\n  - id: x\n    action: git.forcepush\n    effect: deny\n",
            3,
            "unknown action",
        ),
        (
            "rules:\n  - id: x\n    tool: '('\n    effect: deny\n",
            3,
            "regex",
        ),
        (
            "rules:\n  - id: x\n    paths: ['../etc']\n    effect: deny\n",
            3,
            "..",
        ),
        (
            "rules:\n  - id: x\n    command: ls\n    effect: maybe\n",
            4,
            "maybe",
        ),
        ("invariants:\n  no-such-thing: on\n", 2, "unknown invariant"),
        ("rules:\n  - {id: x, effect: deny}\n", 2, "matches nothing"),
        (
            "rules:\n  - {id: x, command: ls, effect: deny}\n  - {id: x, command: ls, effect: deny}\n",
            3,
            "duplicate",
        ),
        ("bogus: 1\n", 1, "bogus"),
    ];
    for (yaml, line, needle) in cases {
        let err = Policy::from_yaml(yaml, Some(Path::new("/p/.hookgate/policy.yaml"))).unwrap_err();
        assert_eq!(err.line, Some(*line), "{yaml:?}: {err}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("/p/.hookgate/policy.yaml:{line}")),
            "{text}"
        );
        assert!(text.contains(needle), "{yaml:?}: {text}");
    }
}

#[test]
fn layers_add_rules_and_later_settings_win() {
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join("user.yaml");
    let project = dir.path().join("project.yaml");
    std::fs::write(
        &user,
        "protected_branches: [trunk]\nrules:\n  - {id: u, command: make, effect: ask}\n",
    )
    .unwrap();
    std::fs::write(
        &project,
        "rules:\n  - {id: p, command: make deploy, effect: deny}\n",
    )
    .unwrap();
    let missing = dir.path().join("absent.yaml");
    let p = Policy::load(&[user, project, missing]).unwrap();
    assert_eq!(decide(&p, &bash("make")), Some(Decision::Ask));
    assert_eq!(decide(&p, &bash("make deploy")), Some(Decision::Deny));
    assert_eq!(
        decide(&p, &bash("git push origin trunk")),
        Some(Decision::Deny)
    );
    assert_eq!(decide(&p, &bash("git push origin main")), None);
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "rules:\n  - {id: x, command: ls, effect: deny, extra: 1}\n",
    )
    .unwrap();
    let err = Policy::load(std::slice::from_ref(&bad)).unwrap_err();
    assert_eq!(err.file.as_deref(), Some(bad.as_path()));
    assert_eq!(err.line, Some(2));
}

#[test]
fn default_policy_yaml_is_the_builtin_default() {
    let parsed = Policy::from_yaml(hookgate_policy::DEFAULT_POLICY_YAML, None).unwrap();
    assert_eq!(parsed.describe(), Policy::builtin_default().describe());
}

#[test]
fn actions_are_one_per_executed_command() {
    let a = actions(
        &bash("cd repo && git push origin main && npm publish"),
        &ctx(),
    );
    let kinds: Vec<ActionKind> = a.iter().map(|a| a.kind).collect();
    assert!(kinds.contains(&ActionKind::GitPush));
    assert!(kinds.contains(&ActionKind::PackagePublish));
    let push = a.iter().find(|a| a.kind == ActionKind::GitPush).unwrap();
    assert_eq!(push.targets, vec!["main".to_owned()]);
    let a = actions(&bash("git push --force"), &ctx().with_branch("dev"));
    assert_eq!(
        (a[0].kind, a[0].targets.clone()),
        (ActionKind::GitForcePush, vec!["dev".to_owned()])
    );
    let a = actions(
        &patch(
            "*** Begin Patch\n*** Update File: a.rs\n*** Move to: b.rs\n+x\n*** Delete File: c.rs\n*** End Patch\n",
        ),
        &ctx(),
    );
    let kinds: Vec<ActionKind> = a.iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        [
            ActionKind::FileMove,
            ActionKind::FileWrite,
            ActionKind::FileDelete
        ]
    );
    assert_eq!(a[1].targets, vec!["/work/proj/b.rs".to_owned()]);
    assert_eq!(
        serde_json::to_value(ActionKind::GitForcePush).unwrap(),
        "git.force_push"
    );
}
