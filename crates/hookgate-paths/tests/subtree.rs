//! Containment both ways: a directory that *holds* protected files is classified like them
//! for operations on the whole tree (`rm -rf .claude`, `mv .github x`, `rm -rf ~`).

use std::path::{Path, PathBuf};

use hookgate_paths::{Category, PathContext, classify, classify_subtree};

fn ctx() -> PathContext {
    PathContext {
        cwd: PathBuf::from("/work/proj"),
        workspace: Some(PathBuf::from("/work/proj")),
        home: Some(PathBuf::from("/home/u")),
    }
}

fn hook_ids(path: &str) -> Vec<&'static str> {
    classify_subtree(Path::new(path), &ctx())
        .into_iter()
        .filter(|m| {
            matches!(
                m.category,
                Category::AgentHookConfig | Category::HookgateConfig
            )
        })
        .map(|m| m.id)
        .collect()
}

#[test]
fn directories_holding_agent_hook_config_contain_the_protected_set() {
    let table: &[(&str, &str)] = &[
        (".claude", "claude-code-settings"),
        ("/work/proj/.claude", "claude-code-settings"),
        ("sub/.claude", "claude-code-settings"),
        (".codex", "codex-config"),
        (".gemini", "gemini-cli-settings"),
        (".github", "copilot-cli-hooks"),
        (".cursor", "cursor-hooks"),
        (".hookgate", "hookgate-config"),
        ("~/.claude", "claude-code-user-config"),
        ("~/.codex", "codex-user-home"),
        ("~/.config", "hookgate-user-config"),
        ("~", "claude-code-user-config"),
        ("/home", "codex-user-home"),
        ("/", "hookgate-user-config"),
        ("/etc", "hookgate-config"),
    ];
    for (path, id) in table {
        assert!(
            hook_ids(path).contains(id),
            "{path} should contain {id}: {:?}",
            hook_ids(path)
        );
    }
}

#[test]
fn ordinary_directories_do_not_contain_the_protected_set() {
    for path in [
        "build",
        "src",
        "node_modules",
        "/tmp/x",
        "/work/proj",
        "~/.cache",
        ".claude/commands",
        "~/projects",
    ] {
        assert!(
            hook_ids(path).is_empty(),
            "{path} matched {:?}",
            hook_ids(path)
        );
    }
}

#[test]
fn a_path_that_matches_exactly_also_matches_as_a_subtree() {
    for path in [
        ".claude/settings.json",
        ".hookgate/policy.yaml",
        "~/.codex/config.toml",
    ] {
        let exact: Vec<_> = classify(Path::new(path), &ctx())
            .into_iter()
            .map(|m| m.id)
            .collect();
        assert!(!exact.is_empty(), "{path}");
        for id in exact {
            assert!(hook_ids(path).contains(&id), "{path}: {id}");
        }
    }
}
