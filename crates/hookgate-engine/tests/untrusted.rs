//! A project's hook config runs no code until the user trusts it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::Path;

use hookgate_core::{EventId, RuntimeKind};
use hookgate_engine::config::{Discovery, Layer, load_with_notes};

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
";

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
fn untrusted_project_hooks_that_run_code_are_dropped_with_a_note_and_builtins_stay() {
    let root = tempfile::tempdir().unwrap();
    let loaded = load_with_notes(&[], &discovery(root.path(), false)).unwrap();
    let ids: Vec<&str> = loaded
        .config
        .entries
        .iter()
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(ids, ["mine", "dated"]);
    assert_eq!(
        loaded.config.entries[1].runtime.kind(),
        RuntimeKind::Builtin
    );
    assert_eq!(loaded.config.entries[1].origin.layer, Layer::Project);
    let notes: Vec<String> = loaded.notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 4, "{notes:#?}");
    assert!(
        notes[0].contains("settings default_timeout_ms, shell ignored"),
        "{notes:#?}"
    );
    assert!(notes[1].contains("hook `marker` (command) on session_start not run"));
    assert!(notes[2].contains("hook `web` (http)"));
    assert!(notes[3].contains("10-x.yaml: hook `drop` (command) on stop not run"));
    // Settings from the untrusted layer did not apply.
    assert_eq!(loaded.config.settings.default_timeout_ms, 60_000);
    assert_eq!(loaded.config.settings.shell, Path::new("/bin/sh"));
}

#[test]
fn trusted_project_hooks_load_as_written() {
    let root = tempfile::tempdir().unwrap();
    let loaded = load_with_notes(&[], &discovery(root.path(), true)).unwrap();
    let ids: Vec<&str> = loaded
        .config
        .entries
        .iter()
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(ids, ["mine", "marker", "web", "dated", "drop"]);
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
