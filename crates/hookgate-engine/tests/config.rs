//! Config shapes, layering, validation and error locations.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_pass_by_value,
    clippy::format_push_string,
    reason = "test code: a failed assumption should fail the test"
)]

use std::path::Path;

use hookgate_core::{Capability, ChainMode, EventId, Mode, OnError};
use hookgate_engine::config::{Discovery, Format, Layer, load, merge, parse_text};
use hookgate_engine::{Engine, HooksConfig, RuntimeSpec};

fn yaml(text: &str) -> HooksConfig {
    merge(vec![
        parse_text(text, Format::Yaml, None, Layer::Code).unwrap(),
    ])
    .unwrap()
}

fn yaml_err(text: &str) -> String {
    match parse_text(
        text,
        Format::Yaml,
        Some(Path::new("hooks.yaml")),
        Layer::Code,
    ) {
        Err(e) => e.to_string(),
        Ok(layer) => merge(vec![layer]).map_or_else(|e| e.to_string(), |_| "no error".to_owned()),
    }
}

fn toml_err(text: &str) -> String {
    match parse_text(
        text,
        Format::Toml,
        Some(Path::new("config.toml")),
        Layer::Code,
    ) {
        Err(e) => e.to_string(),
        Ok(layer) => merge(vec![layer]).map_or_else(|e| e.to_string(), |_| "no error".to_owned()),
    }
}

#[test]
fn docker_agent_yaml_shape_loads_with_groups_and_flat_hooks() {
    let config = yaml(
        r#"
hooks:
  pre_tool_use:
    - matcher: "shell|edit_file"
      hooks:
        - type: command
          command: "./scripts/validate-command.sh"
          timeout: 30
  session_start:
    - type: builtin
      command: add_environment_info
  before_llm_call:
    - type: builtin
      command: max_iterations
      args: ["50"]
"#,
    );
    assert_eq!(config.entries.len(), 3);
    let pre = &config.entries[0];
    assert_eq!(pre.event, EventId::PreToolUse);
    assert_eq!(pre.matcher.as_deref(), Some("shell|edit_file"));
    assert_eq!(pre.timeout_ms, Some(30_000));
    assert_eq!(pre.capability, Capability::Guardrail);
    assert!(matches!(
        &pre.runtime,
        RuntimeSpec::Command { args: None, .. }
    ));
    assert!(
        matches!(&config.entries[2].runtime, RuntimeSpec::Builtin { name, args, .. } if name == "max_iterations" && args == &["50"])
    );
}

#[test]
fn a_single_mapping_is_accepted_where_a_list_is_expected() {
    let config = yaml("hooks:\n  session_start:\n    type: builtin\n    command: add_date\n");
    assert_eq!(config.entries.len(), 1);
}

#[test]
fn event_keys_accept_aliases_from_other_vocabularies() {
    let config = yaml(
        "hooks:\n  PreToolUse:\n    - type: command\n      command: 'true'\n  BeforeModel:\n    - type: command\n      command: 'true'\n",
    );
    let events: Vec<EventId> = config.entries.iter().map(|e| e.event).collect();
    assert_eq!(events, vec![EventId::PreToolUse, EventId::BeforeLlmCall]);
}

#[test]
fn meerkat_toml_shape_loads_into_the_same_model() {
    let layer = parse_text(
        r#"
[hooks]
default_timeout_ms = 5000
payload_max_bytes = 131072
background_max_concurrency = 4

[[hooks.entries]]
id = "safety-check"
enabled = true
point = "pre_tool_execution"
mode = "foreground"
capability = "guardrail"
priority = 10
timeout_ms = 10000

[hooks.entries.runtime]
type = "command"
command = "python3"
args = ["hooks/safety_check.py"]
env = { LOG_LEVEL = "debug" }

[[hooks.entries]]
id = "audit"
point = "post_tool_execution"
mode = "background"
runtime = { type = "http", url = "https://hooks.example.com/audit", headers = { Authorization = "Bearer ${env.TOKEN}" } }

[[hooks.entries]]
id = "observer"
point = "run_started"
runtime = { type = "in_process", name = "my-handler" }
"#,
        Format::Toml,
        None,
        Layer::Code,
    )
    .unwrap();
    let config = merge(vec![layer]).unwrap();
    assert_eq!(config.settings.default_timeout_ms, 5000);
    assert_eq!(config.settings.background_max_concurrency, 4);
    let [safety, audit, observer] = &config.entries[..] else {
        panic!("{:?}", config.entries)
    };
    assert_eq!(
        (safety.event, safety.priority, safety.timeout_ms),
        (EventId::PreToolUse, 10, Some(10_000))
    );
    assert!(
        matches!(&safety.runtime, RuntimeSpec::Command { args: Some(a), env, .. } if a == &["hooks/safety_check.py"] && env["LOG_LEVEL"] == "debug")
    );
    assert_eq!(
        (audit.mode, audit.capability),
        (Mode::Background, Capability::Observe)
    );
    assert_eq!(
        (observer.event, observer.capability),
        (EventId::UserPromptSubmit, Capability::Observe)
    );
    assert!(
        matches!(&observer.runtime, RuntimeSpec::InProcess { handler } if handler == "my-handler")
    );
}

#[test]
fn both_shapes_mix_in_one_file_and_settings_are_read() {
    let config = yaml(
        "hooks:\n  chain: first_decision\n  chain_per_event:\n    tool_guard: all\n  entries:\n    - id: x\n      event: stop\n      type: builtin\n      command: noop\n  stop:\n    - type: builtin\n      command: add_date\n",
    );
    assert_eq!(
        config.settings.chain_for(EventId::PreToolUse),
        ChainMode::FirstDecision
    );
    assert_eq!(
        config.settings.chain_for(EventId::ToolGuard),
        ChainMode::All
    );
    assert_eq!(config.entries.len(), 2);
}

#[test]
fn unknown_fields_name_file_line_and_field() {
    let err = yaml_err(
        "hooks:\n  pre_tool_use:\n    - type: command\n      command: x\n      timout: 3\n",
    );
    assert!(err.starts_with("hooks.yaml:5:"), "{err}");
    assert!(err.contains("unknown field `timout`"), "{err}");
    let err = yaml_err("hooks:\n  pre_tool_usee:\n    - type: command\n");
    assert!(err.starts_with("hooks.yaml:2:"), "{err}");
    assert!(err.contains("unknown field `pre_tool_usee`"), "{err}");
    let err = yaml_err("hook:\n  x: 1\n");
    assert!(err.contains("unknown field `hook`"), "{err}");
    let err = toml_err(
        "[hooks]\n[[hooks.entries]]\nid = \"a\"\npoint = \"pre_tool_execution\"\nruntme = { type = \"command\", command = \"x\" }\n",
    );
    assert!(err.starts_with("config.toml:5:"), "{err}");
    assert!(err.contains("runtme"), "{err}");
}

#[test]
fn invalid_matcher_regex_is_an_error_naming_file_line_and_field() {
    let err = yaml_err(
        "hooks:\n  pre_tool_use:\n    - matcher: \"shell(\"\n      hooks:\n        - type: command\n          command: x\n",
    );
    assert!(err.starts_with("hooks.yaml:3:"), "{err}");
    assert!(err.contains("invalid `matcher` regex `shell(`"), "{err}");
    let err = toml_err(
        "[[hooks.entries]]\nid = \"a\"\npoint = \"pre_tool_use\"\nmatcher = \"[a\"\nruntime = { type = \"command\", command = \"x\" }\n",
    );
    assert!(err.starts_with("config.toml:4:"), "{err}");
    assert!(err.contains("matcher"), "{err}");
}

#[test]
fn semantic_errors_are_caught_at_load() {
    for (text, needle) in [
        (
            "hooks:\n  pre_tool_use:\n    - command: x\n",
            "needs `type`",
        ),
        (
            "hooks:\n  pre_tool_use:\n    - type: command\n",
            "needs `command`",
        ),
        (
            "hooks:\n  pre_tool_use:\n    - type: http\n      url: ftp://x\n",
            "http:// or https://",
        ),
        (
            "hooks:\n  pre_tool_use:\n    - type: command\n      command: x\n      url: http://x\n",
            "`url` does not apply",
        ),
        (
            "hooks:\n  pre_tool_use:\n    - type: command\n      command: x\n      timeout: 1\n      timeout_ms: 5\n",
            "not both",
        ),
        (
            "hooks:\n  post_tool_use:\n    - type: command\n      command: x\n      mode: background\n      capability: guardrail\n",
            "background hooks must be `observe`",
        ),
        (
            "hooks:\n  session_start:\n    - matcher: shell\n      hooks:\n        - type: command\n          command: x\n",
            "has no tool",
        ),
        (
            "hooks:\n  pre_tool_use:\n    - type: model\n",
            "a `model` hook needs `model`",
        ),
        (
            "hooks:\n  pre_tool_use:\n    - type: command\n      command: x\n      on_error: explode\n",
            "hooks.yaml:5:17: unknown variant `explode`, expected one of warn, ignore, block",
        ),
        (
            "hooks:\n  entries:\n    - type: command\n      command: x\n",
            "needs `point`",
        ),
        (
            "hooks:\n  pre_tool_use:\n    - type: command\n      command: x\n      timeout: -1\n",
            "between 0 and 86400",
        ),
        ("version: 2\n", "unsupported `version`"),
    ] {
        let err = yaml_err(text);
        assert!(err.contains(needle), "{text:?} gave {err}");
    }
}

#[test]
fn unknown_builtins_and_bad_builtin_args_are_config_errors() {
    let err = Engine::new(yaml(
        "hooks:\n  turn_start:\n    - type: builtin\n      command: add_dat\n",
    ))
    .unwrap_err();
    assert!(err.message.contains("unknown built-in `add_dat`"), "{err}");
    let err = Engine::new(yaml(
        "hooks:\n  before_llm_call:\n    - type: builtin\n      command: max_iterations\n",
    ))
    .unwrap_err();
    assert!(err.message.contains("positive integer"), "{err}");
}

#[test]
fn background_mode_defaults_to_observe() {
    let config = yaml(
        "hooks:\n  post_tool_use:\n    - type: command\n      command: x\n      mode: background\n",
    );
    assert_eq!(config.entries[0].capability, Capability::Observe);
}

#[test]
fn yaml_alias_bombs_are_refused() {
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let prev = i - 1;
        bomb.push_str(&format!("a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"));
    }
    bomb.push_str("hooks: {}\n");
    let err = yaml_err(&bomb);
    assert_ne!(err, "no error");
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::create_dir_all(dir.join(name).parent().unwrap()).unwrap();
    std::fs::write(dir.join(name), text).unwrap();
}

fn hook(id: &str, event: &str) -> String {
    format!("hooks:\n  {event}:\n    - id: {id}\n      type: builtin\n      command: noop\n")
}

#[test]
fn layers_apply_user_then_project_then_drop_ins() {
    let root = tempfile::tempdir().unwrap();
    let user = root.path().join("user");
    let project = root.path().join("proj/.hookgate");
    write(
        &user,
        "hooks.yaml",
        &format!(
            "{}  default_timeout_ms: 1000\n  payload_max_bytes: 1000\n",
            hook("u", "stop")
        ),
    );
    write(
        &project,
        "hooks.yaml",
        &format!("{}  default_timeout_ms: 2000\n", hook("p", "stop")),
    );
    write(&project, "hooks.d/20-b.yaml", &hook("d2", "stop"));
    write(
        &project,
        "hooks.d/10-a.yaml",
        &format!("{}  default_timeout_ms: 3000\n", hook("d1", "stop")),
    );
    write(&project, "hooks.d/notes.txt", "not config");
    let discovery = Discovery {
        user_dir: Some(user),
        project_dir: Some(project),
        project_trusted: true,
    };
    let config = load(&[], &discovery).unwrap();
    let ids: Vec<&str> = config.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, vec!["u", "p", "d1", "d2"]);
    assert_eq!(
        config.settings.default_timeout_ms, 3000,
        "the last layer that sets a scalar wins"
    );
    assert_eq!(
        config.settings.payload_max_bytes, 1000,
        "unset scalars keep the lower layer's value"
    );
    let layers: Vec<Layer> = config.entries.iter().map(|e| e.origin.layer).collect();
    assert_eq!(
        layers,
        vec![Layer::User, Layer::Project, Layer::DropIn, Layer::DropIn]
    );
}

#[test]
fn project_discovery_walks_up_to_the_nearest_dot_hookgate() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("repo/.hookgate")).unwrap();
    std::fs::create_dir_all(root.path().join("repo/src/deep")).unwrap();
    let discovery = Discovery::from_env(&root.path().join("repo/src/deep"));
    assert_eq!(
        discovery.project_dir,
        Some(root.path().join("repo/.hookgate"))
    );
}

#[test]
fn duplicate_ids_across_layers_are_rejected_naming_both_files() {
    let root = tempfile::tempdir().unwrap();
    write(root.path(), "a.yaml", &hook("guard", "stop"));
    write(root.path(), "b.yaml", &hook("guard", "session_end"));
    let err = load(
        &[root.path().join("a.yaml"), root.path().join("b.yaml")],
        &Discovery::default(),
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("duplicate hook id `guard`")
            && text.contains("a.yaml")
            && text.contains("b.yaml"),
        "{text}"
    );
}

#[test]
fn identical_hooks_from_two_layers_are_deduplicated() {
    let root = tempfile::tempdir().unwrap();
    let same = "hooks:\n  stop:\n    - type: command\n      command: ./log.sh\n";
    write(root.path(), "a.yaml", same);
    write(root.path(), "b.yaml", same);
    write(root.path(), "c.yaml", &hook("named", "stop"));
    write(root.path(), "d.yaml", &hook("named", "stop"));
    let files: Vec<_> = ["a.yaml", "b.yaml", "c.yaml", "d.yaml"]
        .iter()
        .map(|f| root.path().join(f))
        .collect();
    let config = load(&files, &Discovery::default()).unwrap();
    assert_eq!(config.entries.len(), 2);
    // Different arguments are different hooks.
    let config = yaml(
        "hooks:\n  stop:\n    - type: command\n      command: x\n      args: [a, b]\n    - type: command\n      command: x\n      args: [b, a]\n",
    );
    assert_eq!(config.entries.len(), 2);
}

#[test]
fn malformed_drop_ins_are_errors_not_silently_skipped() {
    // Trusted config; an untrusted project's is ignored with a note instead (untrusted.rs).
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join(".hookgate");
    write(
        &project,
        "hooks.d/broken.yaml",
        "hooks:\n  pre_tool_use: [\n",
    );
    let err = load(
        &[],
        &Discovery {
            user_dir: None,
            project_dir: Some(project),
            project_trusted: true,
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("broken.yaml"), "{err}");
}

#[test]
fn failure_policy_compat_field_maps_onto_on_error() {
    let layer = parse_text(
        "[[hooks.entries]]\nid = \"a\"\npoint = \"run_failed\"\nfailure_policy = \"fail_closed\"\nruntime = { type = \"command\", command = \"x\" }\n",
        Format::Toml,
        None,
        Layer::Code,
    )
    .unwrap();
    assert_eq!(
        merge(vec![layer]).unwrap().entries[0].on_error,
        OnError::Block
    );
}

#[test]
fn agent_level_shorthands_register_their_builtins_and_deduplicate() {
    let config = yaml(
        "add_date: true\nredact_secrets: true\nhooks:\n  turn_start:\n    - type: builtin\n      command: add_date\n  before_llm_call:\n    - type: builtin\n      command: redact_secrets\n",
    );
    let events_of = |name: &str| -> Vec<EventId> {
        let mut events: Vec<EventId> = config
            .entries
            .iter()
            .filter(|e| matches!(&e.runtime, RuntimeSpec::Builtin { name: n, .. } if n == name))
            .map(|e| e.event)
            .collect();
        events.sort();
        events
    };
    assert_eq!(
        events_of("add_date"),
        [EventId::TurnStart],
        "once, not twice"
    );
    let mut expected = hookgate_engine::config::REDACT_SECRETS_EVENTS.to_vec();
    expected.sort();
    assert_eq!(events_of("redact_secrets"), expected);
    let off = yaml("add_date: false\nredact_secrets: false\n");
    assert!(off.entries.is_empty());
    assert!(yaml_err("add_dates: true\n").contains("add_dates"));
}
