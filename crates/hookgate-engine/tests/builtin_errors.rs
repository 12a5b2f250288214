//! The built-in contract's typed errors: a built-in says what went wrong as a value, and the
//! dispatch turns it into the hook's failure text once, naming the built-in; the failure then
//! takes the hook's failure policy (blocking on a guard event), never an allow.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed assumption should fail the test"
)]

use std::sync::Arc;

use hookgate_core::{EventId, HookInput, TraceResult};
use hookgate_engine::{
    ArgsError, Builtin, BuiltinCall, BuiltinError, BuiltinRegistry, CheckError, Engine, HookEntry,
    HooksConfig, RuntimeSpec,
};
use serde_json::json;

fn failing(error: fn() -> BuiltinError) -> Builtin {
    Builtin {
        description: "fails",
        events: EventId::ALL,
        validate: |args| match args {
            [] => Ok(()),
            [n] if n == "ok" => Ok(()),
            [n] => Err(ArgsError::value(0, n, "must be `ok`")),
            _ => Err(ArgsError::shape("takes at most one argument")),
        },
        run: Arc::new(move |_: BuiltinCall| Box::pin(async move { Err(error()) })),
    }
}

fn registry() -> BuiltinRegistry {
    let mut registry = BuiltinRegistry::standard();
    registry.register(
        "state_reader",
        failing(|| {
            BuiltinError::io(
                "read",
                "/var/lib/x/state.json",
                std::io::Error::from(std::io::ErrorKind::PermissionDenied),
            )
        }),
    );
    registry.register(
        "poster",
        failing(|| BuiltinError::Refused {
            target: "to post to 10.0.0.1".to_owned(),
            why: "not a public address".into(),
        }),
    );
    registry
}

fn entry(name: &str, args: &[&str]) -> HookEntry {
    HookEntry::new(
        "guard",
        EventId::PreToolUse,
        RuntimeSpec::Builtin {
            name: name.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: std::collections::BTreeMap::new(),
            working_dir: None,
        },
    )
}

fn engine(entry: HookEntry) -> Result<Engine, String> {
    let config = HooksConfig {
        entries: vec![entry],
        ..HooksConfig::default()
    };
    Engine::with_builtins(config, registry()).map_err(|e| e.to_string())
}

async fn failure(name: &str) -> (bool, String) {
    let engine = engine(entry(name, &[])).unwrap();
    let input = HookInput::from_value(json!({
        "session_id": "s", "cwd": "/", "tool_name": "Bash", "tool_input": {"command": "ls"}
    }))
    .unwrap();
    let outcome = engine.dispatch(EventId::PreToolUse, input).await;
    let reason = outcome
        .trace
        .iter()
        .find_map(|t| match &t.result {
            TraceResult::Failed { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .expect("the hook failed");
    (outcome.blocked(), reason)
}

#[tokio::test]
async fn a_builtin_error_becomes_the_failure_text_once_naming_the_builtin_and_blocks() {
    let (blocked, reason) = failure("state_reader").await;
    assert!(blocked, "a failing guard blocks on pre_tool_use");
    assert!(
        reason.starts_with("built-in `state_reader` cannot read /var/lib/x/state.json: "),
        "{reason}"
    );
    assert_eq!(reason.matches("state_reader").count(), 1, "{reason}");

    let (blocked, reason) = failure("poster").await;
    assert!(blocked);
    assert_eq!(
        reason,
        "built-in `poster` refuses to post to 10.0.0.1: not a public address"
    );
}

#[test]
fn refused_args_name_the_argument_and_why_at_load() {
    let err = engine(entry("state_reader", &["nope"])).unwrap_err();
    assert!(
        err.contains(
            "hook `guard`: built-in `state_reader` refuses argument 1 `nope`: must be `ok`"
        ),
        "{err}"
    );
    let err = engine(entry("state_reader", &["a", "b"])).unwrap_err();
    assert!(
        err.contains("built-in `state_reader` takes at most one argument"),
        "{err}"
    );
    let err = engine(entry("max_iterations", &["0"])).unwrap_err();
    assert!(
        err.contains("refuses argument 1 `0`: must be a positive integer"),
        "{err}"
    );
}

#[test]
fn the_registry_check_is_a_typed_error() {
    let registry = registry();
    assert!(matches!(
        registry.check("state_readr", &[]),
        Err(CheckError::Unknown { name, known }) if name == "state_readr" && known.contains(&"state_reader".to_owned())
    ));
    assert!(matches!(
        registry.check("add_date", &["x".to_owned()]),
        Err(CheckError::Args { name, source: ArgsError::Shape { .. } }) if name == "add_date"
    ));
    assert_eq!(registry.check("state_reader", &["ok".to_owned()]), Ok(()));
}
