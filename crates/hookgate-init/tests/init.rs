//! The editing rules of `hookgate init`, per agent, in temp dirs.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::format_push_string,
    clippy::format_collect,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use hookgate_init::{
    AgentHomes, AgentKind, InitError, InitOptions, Plan, Scope, Target, apply, codex_trust_hash,
    codex_trust_key, config_path, diff, doctor, plan_install, plan_remove,
};
use serde_json::{Value, json};
use sha2::Digest as _;

/// A temp world: a project dir, a home, and a fake `hookgate` that records its argv (and
/// `HOOKGATE_EVENT`) and denies payloads mentioning `rm -rf /` with exit 2, like the real one.
struct World {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
    home: PathBuf,
    bin: PathBuf,
}

impl World {
    fn new() -> Self {
        Self::with_bin_dir("bin")
    }

    fn with_bin_dir(bin_dir: &str) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let project = root.join("proj");
        let home = root.join("home");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let bin = fake_hookgate(&root.join(bin_dir));
        Self {
            _tmp: tmp,
            root,
            project,
            home,
            bin,
        }
    }

    fn opts(&self) -> InitOptions {
        self.opts_for(&self.bin)
    }

    fn opts_for(&self, bin: &Path) -> InitOptions {
        let mut opts = InitOptions::new(bin);
        opts.homes = AgentHomes {
            home: Some(self.home.clone()),
            ..AgentHomes::default()
        };
        opts
    }

    fn target(&self, agent: AgentKind) -> Target {
        Target {
            agent,
            scope: Scope::Project(self.project.clone()),
        }
    }

    fn path(&self, agent: AgentKind) -> PathBuf {
        config_path(&self.target(agent), &self.opts().homes).unwrap()
    }

    /// Copilot's `config.json` as Copilot 1.0.102 writes it, trusting the project.
    fn trust_copilot_folder(&self) {
        write(
            &self.home.join(".copilot/config.json"),
            &format!(
                "// User settings belong in settings.json.\n// This file is managed automatically.\n\
                 {{\n  \"trustedFolders\": [\n    \"{}\"\n  ],\n  \"firstLaunchAt\": \"2026-11-24T23:57:05.912Z\"\n}}\n",
                self.project.display()
            ),
        );
    }

    fn codex_toml(&self) -> PathBuf {
        self.home.join(".codex/config.toml")
    }

    fn install(&self, agent: AgentKind) {
        apply(&plan_install(&self.target(agent), &self.opts()).unwrap()).unwrap();
    }

    fn remove(&self, agent: AgentKind) {
        apply(&plan_remove(&self.target(agent), &self.opts()).unwrap()).unwrap();
    }

    fn json(&self, agent: AgentKind) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.path(agent)).unwrap()).unwrap()
    }
}

fn fake_hookgate(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::create_dir_all(dir).unwrap();
    let bin = dir.join("hookgate");
    std::fs::write(
        &bin,
        "#!/bin/sh\n\
         printf '%s\\n' \"$@\" > \"${0%/*}/argv.txt\"\n\
         printf '%s' \"${HOOKGATE_EVENT:-}\" > \"${0%/*}/event.txt\"\n\
         payload=$(cat)\n\
         case \"$payload\" in *'rm -rf /'*) echo 'denied by fake hookgate' >&2; exit 2;; esac\n\
         exit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Keys of a JSON object in document order (serde_json map equality ignores order).
fn keys(v: &Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

// ---------------------------------------------------------------------------------------------
// Fresh install: exact files.

fn nested(events: &[(&str, bool)], handler: &Value) -> Value {
    let mut hooks = serde_json::Map::new();
    for (event, tool) in events {
        let group = if *tool {
            json!({"matcher": "*", "hooks": [handler]})
        } else {
            json!({"hooks": [handler]})
        };
        hooks.insert((*event).into(), json!([group]));
    }
    json!({ "hooks": hooks })
}

#[test]
fn fresh_install_claude_writes_exec_form_with_seconds() {
    let w = World::new();
    w.install(AgentKind::Claude);
    let h = json!({"type": "command", "command": w.bin, "args": ["hook", "claude"], "timeout": 10});
    let expected = nested(
        &[
            ("PreToolUse", true),
            ("PermissionRequest", true),
            ("PostToolUse", true),
            ("PostToolUseFailure", true),
            ("UserPromptSubmit", false),
            ("SessionStart", false),
            ("SessionEnd", false),
            ("Stop", false),
            ("SubagentStop", false),
            ("PreCompact", false),
        ],
        &h,
    );
    assert_eq!(
        w.path(AgentKind::Claude),
        w.project.join(".claude/settings.json")
    );
    assert_eq!(w.json(AgentKind::Claude), expected);
    assert_eq!(
        keys(&w.json(AgentKind::Claude)["hooks"]),
        keys(&expected["hooks"])
    );
}

#[test]
fn fresh_install_codex_writes_hooks_json_and_exact_trust_toml() {
    let w = World::new();
    w.install(AgentKind::Codex);
    let path = w.path(AgentKind::Codex);
    assert_eq!(path, w.project.join(".codex/hooks.json"));
    let command = format!("'{}' hook codex", w.bin.display());
    let h = json!({"type": "command", "command": command, "timeout": 10});
    let h_end = json!({"type": "command", "command": command, "timeout": 3});
    let events = [
        ("PreToolUse", true),
        ("PermissionRequest", true),
        ("PostToolUse", true),
        ("UserPromptSubmit", false),
        ("SessionStart", false),
        ("SessionEnd", false),
        ("Stop", false),
        ("PreCompact", false),
    ];
    let mut expected = nested(&events, &h);
    expected["hooks"]["SessionEnd"] = json!([{"hooks": [h_end]}]);
    assert_eq!(w.json(AgentKind::Codex), expected);

    // The trust file, as text: one table per handler, keyed by position, with Codex's hash.
    let mut toml = String::new();
    for (i, (event, tool)) in events.iter().enumerate() {
        let handler = &expected["hooks"][event][0]["hooks"][0];
        let hash = codex_trust_hash(event, tool.then_some("*"), handler).unwrap();
        if i > 0 {
            toml.push('\n');
        }
        toml.push_str(&format!(
            "[hooks.state.\"{}\"]\ntrusted_hash = \"{hash}\"\n",
            codex_trust_key(&path, event, 0, 0)
        ));
    }
    assert_eq!(read(&w.codex_toml()).unwrap(), toml);
}

#[test]
fn fresh_install_gemini_writes_milliseconds() {
    let w = World::new();
    w.install(AgentKind::Gemini);
    let h = json!({
        "name": "hookgate", "type": "command",
        "command": format!("'{}' hook gemini", w.bin.display()), "timeout": 10000
    });
    let expected = nested(
        &[
            ("BeforeTool", true),
            ("AfterTool", true),
            ("BeforeAgent", false),
            ("AfterAgent", false),
            ("SessionStart", false),
            ("SessionEnd", false),
            ("PreCompress", false),
        ],
        &h,
    );
    assert_eq!(
        w.path(AgentKind::Gemini),
        w.project.join(".gemini/settings.json")
    );
    assert_eq!(w.json(AgentKind::Gemini), expected);
}

#[test]
fn fresh_install_copilot_writes_versioned_exec_form_with_timeout_sec() {
    let w = World::new();
    w.install(AgentKind::Copilot);
    let mut hooks = serde_json::Map::new();
    for event in [
        "preToolUse",
        "permissionRequest",
        "postToolUse",
        "userPromptSubmitted",
        "sessionStart",
        "sessionEnd",
        "agentStop",
        "preCompact",
    ] {
        hooks.insert(
            event.into(),
            json!([{
                "type": "command", "exec": w.bin, "args": ["hook", "copilot"],
                "env": {"HOOKGATE_EVENT": event}, "timeoutSec": 10
            }]),
        );
    }
    let expected = json!({"version": 1, "hooks": hooks});
    assert_eq!(
        w.path(AgentKind::Copilot),
        w.project.join(".github/hooks/hookgate.json")
    );
    assert_eq!(w.json(AgentKind::Copilot), expected);
    assert_eq!(keys(&w.json(AgentKind::Copilot)), ["version", "hooks"]);
}

#[test]
fn fresh_install_cursor_fails_closed_on_permission_events() {
    let w = World::new();
    w.install(AgentKind::Cursor);
    let command = format!("'{}' hook cursor", w.bin.display());
    let mut hooks = serde_json::Map::new();
    for (event, fail_closed) in [
        ("preToolUse", true),
        ("beforeShellExecution", true),
        ("beforeMCPExecution", true),
        ("beforeReadFile", true),
        ("postToolUse", false),
        ("beforeSubmitPrompt", false),
        ("sessionStart", false),
        ("sessionEnd", false),
        ("stop", false),
        ("preCompact", false),
    ] {
        let h = if fail_closed {
            json!({"command": command, "timeout": 10, "failClosed": true})
        } else {
            json!({"command": command, "timeout": 10})
        };
        hooks.insert(event.into(), json!([h]));
    }
    assert_eq!(
        w.path(AgentKind::Cursor),
        w.project.join(".cursor/hooks.json")
    );
    assert_eq!(
        w.json(AgentKind::Cursor),
        json!({"version": 1, "hooks": hooks})
    );
}

// ---------------------------------------------------------------------------------------------
// Idempotence, preservation, upgrade, removal.

#[test]
fn second_install_changes_nothing() {
    for agent in AgentKind::ALL {
        let w = World::new();
        w.install(*agent);
        let first = read(&w.path(*agent)).unwrap();
        let first_toml = read(&w.codex_toml());
        let again = plan_install(&w.target(*agent), &w.opts()).unwrap();
        assert!(again.is_empty(), "{agent:?}: {}", diff(&again));
        w.install(*agent);
        assert_eq!(read(&w.path(*agent)).unwrap(), first, "{agent:?}");
        assert_eq!(read(&w.codex_toml()), first_toml, "{agent:?}");
    }
}

/// A file with unrelated settings and a foreign pre-tool hook, formatted the way the agents
/// write JSON (two spaces, trailing newline).
fn foreign_file(agent: AgentKind) -> String {
    let v = match agent {
        AgentKind::Claude | AgentKind::Codex => json!({
            "model": "opus",
            "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 /opt/guard.py"}]}],
                "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]
            },
            "zeta": {"nested": [1, 2, {"b": 1, "a": 2}]}
        }),
        AgentKind::Gemini => json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"name": "mine", "type": "command", "command": "mine", "timeout": 5000}]}]},
            "ui": {"theme": "dark"}
        }),
        AgentKind::Copilot | AgentKind::Cursor => json!({
            "version": 1,
            "hooks": {"preToolUse": [{"type": "command", "bash": "./audit.sh", "command": "./audit.sh"}]},
            "disableAllHooks": false
        }),
    };
    let mut text = serde_json::to_string_pretty(&v).unwrap();
    if agent == AgentKind::Codex {
        // Codex's hooks.json accepts only `description` and `hooks` at the top level.
        let mut v = v;
        let obj = v.as_object_mut().unwrap();
        obj.remove("model");
        obj.remove("zeta");
        obj.insert("description".into(), "team hooks".into());
        text = serde_json::to_string_pretty(&v).unwrap();
    }
    text.push('\n');
    text
}

#[test]
fn install_keeps_foreign_hooks_and_settings_in_order_and_remove_restores_bytes() {
    for agent in AgentKind::ALL {
        let w = World::new();
        let original = foreign_file(*agent);
        write(&w.path(*agent), &original);
        let toml_original =
            "# my Codex config\nmodel = \"gpt-5\" # pinned\n\n[tui]\ntheme = \"dark\"\n";
        write(&w.codex_toml(), toml_original);

        w.install(*agent);
        let before: Value = serde_json::from_str(&original).unwrap();
        let after = w.json(*agent);
        assert_eq!(
            keys(&after),
            keys(&before),
            "{agent:?}: top-level keys and order kept"
        );
        for (k, v) in before.as_object().unwrap() {
            if k != "hooks" {
                assert_eq!(&after[k], v, "{agent:?}: {k} untouched");
            }
        }
        // The foreign pre-tool hook is still first in its event.
        let pre = keys(&before["hooks"])[0].clone();
        assert_eq!(
            after["hooks"][&pre][0], before["hooks"][&pre][0],
            "{agent:?}"
        );
        assert_eq!(
            after["hooks"][&pre].as_array().unwrap().len(),
            2,
            "{agent:?}"
        );
        if *agent == AgentKind::Codex {
            let toml = read(&w.codex_toml()).unwrap();
            assert!(
                toml.starts_with(toml_original),
                "comments and formatting kept:\n{toml}"
            );
            // Our PreToolUse group is the second one: its trust key says so.
            assert!(toml.contains(":pre_tool_use:1:0\"]"), "{toml}");
        }

        w.remove(*agent);
        assert_eq!(
            read(&w.path(*agent)).unwrap(),
            original,
            "{agent:?}: restored byte for byte"
        );
        assert_eq!(read(&w.codex_toml()).unwrap(), toml_original, "{agent:?}");
    }
}

#[test]
fn remove_after_install_into_nothing_deletes_the_files() {
    for agent in AgentKind::ALL {
        let w = World::new();
        w.install(*agent);
        assert!(w.path(*agent).is_file());
        w.remove(*agent);
        assert!(!w.path(*agent).exists(), "{agent:?}: file deleted");
        assert!(!w.codex_toml().exists(), "{agent:?}: no trust file left");
        let again = plan_remove(&w.target(*agent), &w.opts()).unwrap();
        assert!(
            again.is_empty(),
            "{agent:?}: removing twice changes nothing"
        );
    }
}

#[test]
fn upgrade_with_a_new_binary_path_replaces_our_entries() {
    for agent in AgentKind::ALL {
        let w = World::new();
        w.install(*agent);
        let new_bin = fake_hookgate(&w.root.join("new place"));
        apply(&plan_install(&w.target(*agent), &w.opts_for(&new_bin)).unwrap()).unwrap();
        let text = read(&w.path(*agent)).unwrap();
        assert!(
            !text.contains(&format!("{}", w.bin.display())),
            "{agent:?}: old path gone"
        );
        let hooks = w.json(*agent)["hooks"].clone();
        for (event, entries) in hooks.as_object().unwrap() {
            assert_eq!(
                entries.as_array().unwrap().len(),
                1,
                "{agent:?} {event}: no duplicate"
            );
        }
        assert!(text.contains("new place"), "{agent:?}");
        if *agent == AgentKind::Codex {
            let toml = read(&w.codex_toml()).unwrap();
            assert_eq!(toml.matches("trusted_hash").count(), 8, "{toml}");
            let path = w.path(*agent);
            let handler = &hooks["PreToolUse"][0]["hooks"][0];
            let hash = codex_trust_hash("PreToolUse", Some("*"), handler).unwrap();
            assert!(toml.contains(&hash), "trust follows the new command");
            assert!(toml.contains(&codex_trust_key(&path, "PreToolUse", 0, 0)));
        }
        // And removal with the new options still finds everything.
        apply(&plan_remove(&w.target(*agent), &w.opts_for(&new_bin)).unwrap()).unwrap();
        assert!(!w.path(*agent).exists(), "{agent:?}");
    }
}

#[test]
fn duplicates_of_our_entry_collapse_to_one() {
    let w = World::new();
    let ours = json!({"type": "command", "command": "/old/hookgate hook claude"});
    write(
        &w.path(AgentKind::Claude),
        &serde_json::to_string_pretty(&json!({"hooks": {"PreToolUse": [
            {"hooks": [ours]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "mine"}, ours]},
            {"hooks": [ours]}
        ]}}))
        .unwrap(),
    );
    w.install(AgentKind::Claude);
    let pre = w.json(AgentKind::Claude)["hooks"]["PreToolUse"].clone();
    assert_eq!(
        pre,
        json!([
            {"matcher": "*", "hooks": [{"type": "command", "command": w.bin, "args": ["hook", "claude"], "timeout": 10}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "mine"}]}
        ])
    );
}

#[test]
fn user_wrapped_or_foreign_commands_are_not_ours() {
    let w = World::new();
    let foreign = json!({"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": "hookgate hook claude || true"}]},
        {"hooks": [{"type": "command", "command": "python3 x.py hook claude"}]},
        {"hooks": [{"type": "command", "command": "hookgate hook codex"}]}
    ]}});
    let text = format!("{}\n", serde_json::to_string_pretty(&foreign).unwrap());
    write(&w.path(AgentKind::Claude), &text);
    w.install(AgentKind::Claude);
    assert_eq!(
        w.json(AgentKind::Claude)["hooks"]["PreToolUse"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    w.remove(AgentKind::Claude);
    assert_eq!(read(&w.path(AgentKind::Claude)).unwrap(), text);
}

#[test]
fn codex_remove_moves_trust_of_foreign_hooks_that_shift() {
    let w = World::new();
    w.install(AgentKind::Codex);
    // The user adds a hook after ours and trusts it (as /hooks would).
    let path = w.path(AgentKind::Codex);
    let mut v = w.json(AgentKind::Codex);
    let theirs = json!({"type": "command", "command": "their-guard", "timeout": 5});
    v["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": "Bash", "hooks": [theirs]}));
    write(
        &path,
        &format!("{}\n", serde_json::to_string_pretty(&v).unwrap()),
    );
    let their_hash = codex_trust_hash("PreToolUse", Some("Bash"), &theirs).unwrap();
    let mut toml = read(&w.codex_toml()).unwrap();
    toml.push_str(&format!(
        "\n[hooks.state.\"{}\"]\nenabled = true\ntrusted_hash = \"{their_hash}\"\n",
        codex_trust_key(&path, "PreToolUse", 1, 0)
    ));
    write(&w.codex_toml(), &toml);

    w.remove(AgentKind::Codex);
    let toml = read(&w.codex_toml()).unwrap();
    assert_eq!(
        toml,
        format!(
            "\n[hooks.state.\"{}\"]\nenabled = true\ntrusted_hash = \"{their_hash}\"\n",
            codex_trust_key(&path, "PreToolUse", 0, 0)
        ),
        "their trust entry follows their hook from index 1 to 0"
    );
    assert_eq!(
        w.json(AgentKind::Codex),
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [theirs]}]}})
    );
}

#[test]
fn codex_trust_hash_is_sha256_of_codex_identity() {
    // Independently: the canonical identity Codex builds for our PreToolUse handler.
    let w = World::new();
    w.install(AgentKind::Codex);
    let command = format!("'{}' hook codex", w.bin.display());
    let identity = format!(
        r#"{{"event_name":"pre_tool_use","hooks":[{{"async":false,"command":{},"timeout":10,"type":"command"}}],"matcher":"*"}}"#,
        serde_json::to_string(&command).unwrap()
    );
    let hex: String = sha2::Sha256::digest(identity.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let doc: toml_edit::DocumentMut = read(&w.codex_toml()).unwrap().parse().unwrap();
    let key = format!("{}:pre_tool_use:0:0", w.path(AgentKind::Codex).display());
    assert_eq!(
        doc["hooks"]["state"][&key]["trusted_hash"]
            .as_str()
            .unwrap(),
        format!("sha256:{hex}")
    );
}

#[test]
fn codex_global_uses_codex_home_for_hooks_and_trust() {
    let w = World::new();
    let codex_home = w.root.join("ch");
    std::fs::create_dir_all(&codex_home).unwrap();
    let mut opts = w.opts();
    opts.homes.codex_home = Some(codex_home.clone());
    let target = Target {
        agent: AgentKind::Codex,
        scope: Scope::Global(w.home.clone()),
    };
    apply(&plan_install(&target, &opts).unwrap()).unwrap();
    assert!(codex_home.join("hooks.json").is_file());
    let toml = read(&codex_home.join("config.toml")).unwrap();
    assert!(toml.contains(&format!(
        "{}/hooks.json:pre_tool_use:0:0",
        codex_home.display()
    )));
    assert!(!w.home.join(".codex").exists());
}

#[test]
fn global_paths_honour_the_agents_relocation_variables() {
    let home = PathBuf::from("/h");
    let g = |agent| Target {
        agent,
        scope: Scope::Global(home.clone()),
    };
    let plain = AgentHomes::default();
    assert_eq!(
        config_path(&g(AgentKind::Claude), &plain).unwrap(),
        home.join(".claude/settings.json")
    );
    assert_eq!(
        config_path(&g(AgentKind::Codex), &plain).unwrap(),
        home.join(".codex/hooks.json")
    );
    assert_eq!(
        config_path(&g(AgentKind::Gemini), &plain).unwrap(),
        home.join(".gemini/settings.json")
    );
    assert_eq!(
        config_path(&g(AgentKind::Copilot), &plain).unwrap(),
        home.join(".copilot/hooks/hookgate.json")
    );
    assert_eq!(
        config_path(&g(AgentKind::Cursor), &plain).unwrap(),
        home.join(".cursor/hooks.json")
    );
    let moved = AgentHomes {
        claude_config_dir: Some("/cc".into()),
        gemini_cli_home: Some("/gh".into()),
        copilot_home: Some("/cp".into()),
        ..AgentHomes::default()
    };
    assert_eq!(
        config_path(&g(AgentKind::Claude), &moved).unwrap(),
        PathBuf::from("/cc/settings.json")
    );
    assert_eq!(
        config_path(&g(AgentKind::Gemini), &moved).unwrap(),
        PathBuf::from("/gh/.gemini/settings.json")
    );
    assert_eq!(
        config_path(&g(AgentKind::Copilot), &moved).unwrap(),
        PathBuf::from("/cp/hooks/hookgate.json")
    );
}

// ---------------------------------------------------------------------------------------------
// Errors and dry run.

#[test]
fn malformed_config_is_an_error_naming_file_and_line_and_is_not_written() {
    for agent in AgentKind::ALL {
        let w = World::new();
        let bad = "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n";
        write(&w.path(*agent), bad);
        for plan in [
            plan_install(&w.target(*agent), &w.opts()),
            plan_remove(&w.target(*agent), &w.opts()),
        ] {
            match plan {
                Err(InitError::Parse { path, line, .. }) => {
                    assert_eq!(path, w.path(*agent));
                    assert_eq!(line, 3, "{agent:?}");
                }
                other => panic!("{agent:?}: expected a parse error, got {other:?}"),
            }
        }
        let msg = plan_install(&w.target(*agent), &w.opts())
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains(&format!("{}:3:", w.path(*agent).display())),
            "{msg}"
        );
        assert_eq!(read(&w.path(*agent)).unwrap(), bad);
    }
}

#[test]
fn malformed_codex_config_toml_is_an_error_and_nothing_is_written() {
    let w = World::new();
    let bad = "model = \"gpt\"\n[tui\ntheme = 1\n";
    write(&w.codex_toml(), bad);
    match plan_install(&w.target(AgentKind::Codex), &w.opts()) {
        Err(InitError::Parse { path, line, .. }) => {
            assert_eq!(path, w.codex_toml());
            assert_eq!(line, 2);
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(!w.path(AgentKind::Codex).exists());
    assert_eq!(read(&w.codex_toml()).unwrap(), bad);
}

#[test]
fn wrong_shape_is_an_error_naming_the_key() {
    let w = World::new();
    write(
        &w.path(AgentKind::Claude),
        "{\"hooks\": {\"PreToolUse\": {}}}\n",
    );
    let err = plan_install(&w.target(AgentKind::Claude), &w.opts()).unwrap_err();
    assert!(
        matches!(&err, InitError::Shape { key, .. } if key == "hooks.PreToolUse"),
        "{err}"
    );
}

#[test]
fn relative_binary_path_is_rejected() {
    let w = World::new();
    let err = plan_install(
        &w.target(AgentKind::Claude),
        &w.opts_for(Path::new("hookgate")),
    );
    assert!(matches!(err, Err(InitError::RelativeBinary { .. })));
}

#[test]
fn dry_run_diff_shows_the_change_and_writes_nothing() {
    for agent in AgentKind::ALL {
        let w = World::new();
        let plan = plan_install(&w.target(*agent), &w.opts()).unwrap();
        let text = diff(&plan);
        assert!(
            text.contains(&format!("+++ {}", w.path(*agent).display())),
            "{text}"
        );
        assert!(
            text.contains(&format!(" hook {}", agent.as_str()))
                || text.contains(&format!("\"{}\"", agent.as_str())),
            "{text}"
        );
        assert!(!w.path(*agent).exists());
        assert!(!w.codex_toml().exists());
        assert!(
            std::fs::read_dir(&w.project).unwrap().next().is_none(),
            "{agent:?}"
        );
    }
}

#[test]
fn apply_refuses_a_file_changed_since_planning() {
    let w = World::new();
    let plan: Plan = plan_install(&w.target(AgentKind::Claude), &w.opts()).unwrap();
    write(&w.path(AgentKind::Claude), "{\"model\": \"x\"}\n");
    assert!(matches!(apply(&plan), Err(InitError::Conflict { .. })));
    assert_eq!(
        read(&w.path(AgentKind::Claude)).unwrap(),
        "{\"model\": \"x\"}\n"
    );
}

#[test]
fn apply_writes_through_a_symlinked_settings_file() {
    let w = World::new();
    let real = w.root.join("dotfiles/settings.json");
    write(&real, "{\"model\": \"x\"}\n");
    std::fs::create_dir_all(w.project.join(".claude")).unwrap();
    std::os::unix::fs::symlink(&real, w.path(AgentKind::Claude)).unwrap();
    w.install(AgentKind::Claude);
    assert!(
        std::fs::symlink_metadata(w.path(AgentKind::Claude))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(read(&real).unwrap().contains("hook"));
}

// ---------------------------------------------------------------------------------------------
// The written command really runs `hookgate hook <agent>`.

/// Runs our pre-tool handler from the written file the way the agent would: exec form as
/// program + args, shell form through `sh -c`.
fn run_written_command(w: &World, agent: AgentKind) -> Vec<String> {
    let v = w.json(agent);
    let handler = match agent {
        AgentKind::Claude | AgentKind::Codex => v["hooks"]["PreToolUse"][0]["hooks"][0].clone(),
        AgentKind::Gemini => v["hooks"]["BeforeTool"][0]["hooks"][0].clone(),
        AgentKind::Copilot | AgentKind::Cursor => v["hooks"]["preToolUse"][0].clone(),
    };
    let mut cmd = match agent {
        AgentKind::Claude => {
            let mut c = Command::new(handler["command"].as_str().unwrap());
            c.args(
                handler["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap()),
            );
            c
        }
        AgentKind::Copilot => {
            let mut c = Command::new(handler["exec"].as_str().unwrap());
            c.args(
                handler["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap()),
            );
            for (k, val) in handler["env"].as_object().unwrap() {
                c.env(k, val.as_str().unwrap());
            }
            c
        }
        _ => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(handler["command"].as_str().unwrap());
            c
        }
    };
    let status = cmd
        .current_dir(&w.project)
        .stdin(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{agent:?}: {status}");
    read(&w.bin.parent().unwrap().join("argv.txt"))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn written_command_runs_hookgate_hook_agent() {
    for agent in AgentKind::ALL {
        // A directory name with a space, a quote and a `$`: quoting must hold.
        let w = World::with_bin_dir("my bin's $HOME");
        w.install(*agent);
        assert_eq!(
            run_written_command(&w, *agent),
            ["hook", agent.as_str()],
            "{agent:?}"
        );
        if *agent == AgentKind::Copilot {
            let event = read(&w.bin.parent().unwrap().join("event.txt")).unwrap();
            assert_eq!(event, "preToolUse");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Doctor.

fn failing(checks: &[hookgate_init::Check]) -> Vec<String> {
    checks
        .iter()
        .filter(|c| !c.ok)
        .map(|c| format!("{}: {}", c.name, c.detail))
        .collect()
}

#[test]
fn doctor_passes_on_a_fresh_install_with_a_working_hook() {
    for agent in AgentKind::ALL {
        let w = World::new();
        if *agent == AgentKind::Codex {
            write(
                &w.codex_toml(),
                &format!(
                    "[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
                    w.project.display()
                ),
            );
        }
        if *agent == AgentKind::Copilot {
            w.trust_copilot_folder();
        }
        w.install(*agent);
        let checks = doctor(&w.target(*agent), &w.opts());
        assert_eq!(
            failing(&checks),
            Vec::<String>::new(),
            "{agent:?}: {checks:#?}"
        );
        let names: Vec<&str> = checks.iter().map(|c| c.name.as_str()).collect();
        assert!(
            names.contains(&"probe: no opinion") && names.contains(&"probe: deny"),
            "{names:?}"
        );
    }
}

#[test]
fn doctor_reports_missing_config() {
    let w = World::new();
    let checks = doctor(&w.target(AgentKind::Claude), &w.opts());
    assert_eq!(checks.len(), 1);
    assert!(
        !checks[0].ok && checks[0].detail.contains("does not exist"),
        "{checks:?}"
    );
}

#[test]
fn doctor_reports_a_codex_trust_hash_that_does_not_match() {
    let w = World::new();
    w.install(AgentKind::Codex);
    let toml = read(&w.codex_toml())
        .unwrap()
        .replacen("sha256:", "sha256:ff", 1);
    write(&w.codex_toml(), &toml);
    let failures = failing(&doctor(&w.target(AgentKind::Codex), &w.opts()));
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("codex trust:") && f.contains("is not the current")),
        "{failures:?}"
    );
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("codex project trust:")),
        "{failures:?}"
    );
}

#[test]
fn doctor_reports_an_untrusted_copilot_folder_and_says_how_to_trust_it() {
    let w = World::new();
    w.install(AgentKind::Copilot);
    // No config.json at all (Copilot never ran), then one that trusts another folder.
    for config in [
        None,
        Some("// This file is managed automatically.\n{\"trustedFolders\": [\"/elsewhere\"]}\n"),
    ] {
        if let Some(text) = config {
            write(&w.home.join(".copilot/config.json"), text);
        }
        let failures = failing(&doctor(&w.target(AgentKind::Copilot), &w.opts()));
        let trust = failures
            .iter()
            .find(|f| f.starts_with("copilot folder trust:"))
            .unwrap_or_else(|| panic!("{failures:?}"));
        assert!(trust.contains(&w.project.display().to_string()), "{trust}");
        assert!(trust.contains("trustedFolders"), "{trust}");
        assert!(
            trust.contains(&w.home.join(".copilot/config.json").display().to_string()),
            "{trust}"
        );
    }
}

#[test]
fn doctor_reads_copilot_trust_from_copilot_home() {
    let w = World::new();
    w.install(AgentKind::Copilot);
    let copilot_home = w.root.join("copilot-home");
    write(
        &copilot_home.join("config.json"),
        &format!("{{\"trustedFolders\": [\"{}\"]}}", w.project.display()),
    );
    let mut opts = w.opts();
    opts.homes.copilot_home = Some(copilot_home);
    let checks = doctor(&w.target(AgentKind::Copilot), &opts);
    let trust = checks
        .iter()
        .find(|c| c.name == "copilot folder trust")
        .unwrap();
    assert!(trust.ok, "{trust:?}");
    // Trust in ~/.copilot does not count when COPILOT_HOME points elsewhere.
    let mut opts = w.opts();
    opts.homes.copilot_home = Some(w.root.join("empty-copilot-home"));
    w.trust_copilot_folder();
    let failures = failing(&doctor(&w.target(AgentKind::Copilot), &opts));
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("copilot folder trust:")),
        "{failures:?}"
    );
}

#[test]
fn doctor_reports_an_unreadable_copilot_config_as_a_failure() {
    let w = World::new();
    w.install(AgentKind::Copilot);
    write(
        &w.home.join(".copilot/config.json"),
        "{\"trustedFolders\": ",
    );
    let failures = failing(&doctor(&w.target(AgentKind::Copilot), &w.opts()));
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("copilot folder trust:")),
        "{failures:?}"
    );
}

#[test]
fn doctor_reports_a_missing_binary_and_a_hook_that_does_not_answer() {
    let w = World::new();
    w.install(AgentKind::Gemini);
    std::fs::remove_file(&w.bin).unwrap();
    let failures = failing(&doctor(&w.target(AgentKind::Gemini), &w.opts()));
    assert!(
        failures.iter().any(|f| f.starts_with("executable:")),
        "{failures:?}"
    );
    assert!(
        failures.iter().any(|f| f.starts_with("probe: no opinion:")),
        "{failures:?}"
    );
}

#[test]
fn doctor_reports_hooks_switched_off() {
    let w = World::new();
    write(
        &w.path(AgentKind::Gemini),
        "{\n  \"hooksConfig\": {\n    \"enabled\": false\n  }\n}\n",
    );
    w.install(AgentKind::Gemini);
    let failures = failing(&doctor(&w.target(AgentKind::Gemini), &w.opts()));
    assert!(
        failures.iter().any(|f| f.starts_with("hooks enabled:")),
        "{failures:?}"
    );
}

#[test]
fn remove_leaves_no_empty_agent_directory_behind() {
    for agent in [
        AgentKind::Claude,
        AgentKind::Codex,
        AgentKind::Gemini,
        AgentKind::Copilot,
        AgentKind::Cursor,
    ] {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("p");
        std::fs::create_dir_all(&project).unwrap();
        let bin = root.path().join("bin/hookgate");
        std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
        std::fs::write(&bin, "#!/bin/sh\n").unwrap();
        let mut opts = hookgate_init::InitOptions::new(&bin);
        opts.homes = hookgate_init::AgentHomes {
            home: Some(root.path().join("home")),
            ..hookgate_init::AgentHomes::default()
        };
        let target = hookgate_init::Target {
            agent,
            scope: hookgate_init::Scope::Project(project.clone()),
        };
        hookgate_init::apply(&hookgate_init::plan_install(&target, &opts).unwrap()).unwrap();
        hookgate_init::apply(&hookgate_init::plan_remove(&target, &opts).unwrap()).unwrap();
        let left: Vec<_> = std::fs::read_dir(&project)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "{agent:?} left {left:?}");
    }
}

#[test]
fn transient_location_flags_build_and_temp_dirs_and_nothing_else() {
    let w = World::new();
    let lasting = w.home.join(".local/bin/hookgate");
    std::fs::create_dir_all(lasting.parent().unwrap()).unwrap();
    std::fs::write(&lasting, "").unwrap();
    let temp = [w.root.join("tmp")];
    assert_eq!(hookgate_init::transient_location(&lasting, &temp), None);
    // Under a directory marked with CACHEDIR.TAG (cargo's target/).
    let built = w.root.join("repo/target/debug/hookgate");
    std::fs::create_dir_all(built.parent().unwrap()).unwrap();
    std::fs::write(
        w.root.join("repo/target/CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    )
    .unwrap();
    let why = hookgate_init::transient_location(&built, &temp).unwrap();
    assert!(why.contains("build directory"), "{why}");
    // Under a temp dir.
    let tmp_bin = w.root.join("tmp/x/hookgate");
    let why = hookgate_init::transient_location(&tmp_bin, &temp).unwrap();
    assert!(why.contains("temporary directory"), "{why}");
}
