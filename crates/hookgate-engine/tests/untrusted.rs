//! A project's hook config runs no code until the user trusts it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::fmt::Write as _;
use std::path::Path;

use hookgate_core::{EventId, HookId, RuntimeKind};
use hookgate_engine::BuiltinRegistry;
use hookgate_engine::config::{
    ConfigLayer, Discovery, Format, Layer, Loaded, load_with_notes, merge_with_notes, parse_text,
};
use hookgate_engine::runtime::builtin::{BUILTIN_EFFECTS, Effect, loosening_effect, side_effect};

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const PROJECT_HOOKS: &str = "\
hooks:
  shell: /tmp/evil-shell
  default_timeout_ms: 1
  session_start:
    - id: marker
      type: command
      command: touch /tmp/marker
    - id: web
      type: http
      url: http://127.0.0.1:9/x
    - id: dated
      type: builtin
      command: add_date
    - id: checked
      type: builtin
      command: deny_commands
      args: [\"make deploy\"]
";

/// The ids of the loaded entries, in order.
fn ids(loaded: &Loaded) -> Vec<&str> {
    loaded
        .config
        .entries
        .iter()
        .map(|e| e.id.as_str())
        .collect()
}

fn discovery(root: &Path, trusted: bool) -> Discovery {
    let user = root.join("user");
    write(
        &user,
        "hooks.yaml",
        "hooks:\n  stop:\n    - id: mine\n      type: command\n      command: 'true'\n",
    );
    let project = root.join("proj/.hookgate");
    write(&project, "hooks.yaml", PROJECT_HOOKS);
    write(
        &project,
        "hooks.d/10-x.yaml",
        "hooks:\n  stop:\n    - id: drop\n      type: command\n      command: x\n",
    );
    Discovery {
        user_dir: Some(user),
        project_dir: Some(project),
        project_trusted: trusted,
    }
}

#[test]
fn untrusted_project_hooks_that_run_code_are_dropped_with_a_note_and_pure_checks_stay() {
    let root = tempfile::tempdir().unwrap();
    let loaded = load_with_notes(&[], &discovery(root.path(), false)).unwrap();
    let ids = ids(&loaded);
    assert_eq!(ids, ["mine", "checked"]);
    assert_eq!(
        loaded.config.entries[1].runtime.kind(),
        RuntimeKind::Builtin
    );
    assert_eq!(loaded.config.entries[1].origin.layer, Layer::Project);
    assert_eq!(loaded.untrusted, [HookId::new("checked")]);
    let notes: Vec<String> = loaded.notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 5, "{notes:#?}");
    assert!(
        notes[0].contains("settings default_timeout_ms, shell ignored"),
        "{notes:#?}"
    );
    assert!(notes[1].contains("hook `marker` (command) on session_start not run"));
    assert!(notes[2].contains("hook `web` (http)"));
    assert!(
        notes[3].contains("hook `dated` (builtin add_date: adds text to the agent's context)"),
        "{notes:#?}"
    );
    assert!(notes[4].contains("10-x.yaml: hook `drop` (command) on stop not run"));
    // Settings from the untrusted layer did not apply.
    assert_eq!(loaded.config.settings.default_timeout_ms, 60_000);
    assert_eq!(loaded.config.settings.shell, Path::new("/bin/sh"));
}

#[test]
fn trusted_project_hooks_load_as_written() {
    let root = tempfile::tempdir().unwrap();
    let loaded = load_with_notes(&[], &discovery(root.path(), true)).unwrap();
    let ids = ids(&loaded);
    assert_eq!(ids, ["mine", "marker", "web", "dated", "checked", "drop"]);
    assert!(loaded.notes.is_empty());
    assert_eq!(loaded.config.settings.default_timeout_ms, 1);
    assert!(
        loaded
            .config
            .entries
            .iter()
            .any(|e| e.event == EventId::SessionStart && e.runtime.kind() == RuntimeKind::Command)
    );
}

#[test]
fn discovery_reads_the_trust_pinned_in_the_user_config_dir() {
    let root = tempfile::tempdir().unwrap();
    let user = root.path().join("user");
    let proj = root.path().join("proj");
    write(&proj.join(".hookgate"), "hooks.yaml", PROJECT_HOOKS);
    std::fs::create_dir_all(proj.join("src")).unwrap();
    let project = hookgate_project::discover_in(&proj.join("src"), Some(&user));
    let d = Discovery::for_project(&project, Some(user.clone()));
    assert_eq!(d.project_dir, Some(proj.join(".hookgate")));
    assert!(!d.project_trusted);
    hookgate_project::TrustStore::load(&user)
        .unwrap()
        .trust(&project, 1)
        .unwrap();
    assert!(Discovery::for_project(&project, Some(user)).project_trusted);
}

/// Parses `text` as an untrusted project file at `name` (its load error, if any, kept).
fn untrusted_layer(name: &str, text: &str) -> ConfigLayer {
    ConfigLayer::untrusted_or_ignored(parse_text(
        text,
        Format::Yaml,
        Some(Path::new(name)),
        Layer::Project,
    ))
}

fn user_layer(text: &str) -> ConfigLayer {
    parse_text(
        text,
        Format::Yaml,
        Some(Path::new("/u/hooks.yaml")),
        Layer::User,
    )
    .unwrap()
}

#[test]
fn only_pure_tightening_builtins_survive_untrusted_config_each_effect_named() {
    let mut text = String::from("hooks:\n  pre_tool_use:\n");
    for (name, _) in BUILTIN_EFFECTS {
        let _ = write!(
            text,
            "    - id: {name}\n      type: builtin\n      command: {name}\n"
        );
    }
    let loaded = merge_with_notes(vec![untrusted_layer("/p/.hookgate/hooks.yaml", &text)]).unwrap();
    let kept = ids(&loaded);
    let pure: Vec<&str> = BUILTIN_EFFECTS
        .iter()
        .filter(|(_, effects)| effects.iter().all(|e| *e == Effect::OwnState))
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(kept, pure);
    for name in [
        "deny_commands",
        "deny_paths",
        "allow_paths",
        "require_command",
        "safer_shell",
        "rate_limit",
        "max_iterations",
        "redact_secrets",
    ] {
        assert!(kept.contains(&name), "{name} is a tightening check");
    }
    let notes: Vec<String> = loaded.notes.iter().map(ToString::to_string).collect();
    for (name, effect) in [
        ("http_post", "sends data over the network"),
        ("unload", "sends data over the network"),
        ("add_prompt_files", "adds text to the agent's context"),
        ("add_git_status", "adds text"),
        ("add_environment_info", "adds text"),
        ("add_user_info", "adds text"),
        ("add_directory_listing", "adds text"),
        ("snapshot", "writes files"),
        ("limit_large_tool_results", "writes files"),
        ("redirect_path", "answers allow or rewrites the call"),
    ] {
        assert!(
            notes
                .iter()
                .any(|n| n.contains(&format!("hook `{name}` (builtin {name}: {effect}"))),
            "{name}: {notes:#?}"
        );
    }
    // An unclassified built-in (an embedder's) is never kept from untrusted config.
    assert_eq!(loosening_effect("my_own"), Some(Effect::Context));
    assert!(side_effect("my_own").is_some());
    // Side effects are what explain must not cause; reads and context are not.
    assert_eq!(side_effect("add_prompt_files"), None);
    assert_eq!(side_effect("rate_limit"), Some(Effect::OwnState));
    assert_eq!(side_effect("http_post"), Some(Effect::Network));
    assert_eq!(side_effect("deny_commands"), None);
}

#[test]
fn an_untrusted_file_that_does_not_load_is_ignored_with_a_note_naming_file_and_line() {
    let broken = [
        (
            "hooks:\n  pre_tool_use:\n    - type: nonsense\n      command: x\n",
            "/p/a.yaml:3",
        ),
        ("hooks:\n  pre_tool_use: [\n", "/p/a.yaml"),
        ("version: 7\n", "unsupported `version` 7"),
        (
            "hooks:\n  stop:\n    - matcher: Bash\n      type: command\n      command: x\n",
            "`matcher`",
        ),
    ];
    for (text, needle) in broken {
        let loaded = merge_with_notes(vec![
            user_layer(
                "hooks:\n  stop:\n    - id: mine\n      type: command\n      command: 'true'\n",
            ),
            untrusted_layer("/p/a.yaml", text),
        ])
        .unwrap();
        assert_eq!(loaded.config.entries.len(), 1, "{text}");
        let note = loaded.notes.last().unwrap();
        assert!(note.unloadable, "{note:?}");
        let line = note.to_string();
        assert!(
            line.contains(needle) && line.contains("not loaded"),
            "{text}: {line}"
        );
    }
    // A trusted file that does not load is still an error.
    assert!(
        parse_text(
            broken[0].0,
            Format::Yaml,
            Some(Path::new("/u/a.yaml")),
            Layer::User
        )
        .is_err()
    );
}

#[test]
fn an_untrusted_hook_never_takes_an_id_the_users_config_uses() {
    // The user's drop-in comes after the project's file in layer order: without the check,
    // the project's entry would take the id and the user's own hook would be the error.
    let project = untrusted_layer(
        "/p/hooks.yaml",
        "hooks:\n  pre_tool_use:\n    - id: lint\n      type: builtin\n      command: safer_shell\n",
    );
    let users = parse_text(
        "hooks:\n  pre_tool_use:\n    - id: lint\n      type: command\n      command: ./lint\n",
        Format::Yaml,
        Some(Path::new("/u/hooks.d/lint.yaml")),
        Layer::DropIn,
    )
    .unwrap();
    let loaded = merge_with_notes(vec![project, users]).unwrap();
    assert_eq!(loaded.config.entries.len(), 1);
    assert_eq!(
        loaded.config.entries[0].runtime.kind(),
        RuntimeKind::Command
    );
    assert!(loaded.untrusted.is_empty());
    assert!(
        loaded.notes[0]
            .to_string()
            .contains("already used by the user's config")
    );
}

#[test]
fn untrusted_builtins_the_registry_refuses_are_dropped_not_fatal() {
    let mut loaded = merge_with_notes(vec![untrusted_layer(
        "/p/hooks.yaml",
        "hooks:\n  pre_tool_use:\n    - id: bad\n      type: builtin\n      command: max_iterations\n      args: [\"0\"]\n    - id: good\n      type: builtin\n      command: max_iterations\n      args: [\"5\"]\n",
    )])
    .unwrap();
    assert_eq!(loaded.untrusted.len(), 2);
    loaded.drop_unloadable_untrusted(&BuiltinRegistry::standard());
    let ids = ids(&loaded);
    assert_eq!(ids, ["good"]);
    assert_eq!(loaded.untrusted, [HookId::new("good")]);
    let line = loaded.notes[0].to_string();
    assert!(
        line.contains("hook `bad`") && line.contains("not loaded"),
        "{line}"
    );
}
