//! `safer_shell` and `redact_secrets`: the analyzers as hooks.

use std::collections::BTreeMap;
use std::sync::Arc;

use hookgate_core::{Decision, EventId, HookResponse};
use hookgate_engine::runtime::builtin::no_args;
use hookgate_engine::{ArgsError, Builtin, BuiltinCall, BuiltinRegistry};
use hookgate_shell::{Action, BlastRadius, Class};
use serde_json::{Map, Value};

use crate::Environment;
use crate::commands::{context, shell_command};

fn label(class: Class) -> &'static str {
    match class {
        Class::Safe => "safe",
        Class::Normal => "normal",
        Class::Unknown => "unknown",
        Class::Dangerous => "destructive",
    }
}

fn radius(blast: BlastRadius) -> &'static str {
    match blast {
        BlastRadius::None => "none",
        BlastRadius::Low => "low",
        BlastRadius::Medium => "medium",
        BlastRadius::High => "high",
        BlastRadius::Unknown => "unknown",
    }
}

fn safer_shell(call: &BuiltinCall, env: &Environment) -> Option<HookResponse> {
    let command = shell_command(&call.input)?;
    let analysis = hookgate_shell::analyze(command, &context(&call.input, env));
    let verdict = &analysis.verdict;
    // docker-agent's safer_shell: only known-safe commands pass silently; a command the
    // taxonomy has no rule for (the analyzer's `normal`) asks, labelled unknown, because the
    // built-in exists for users who want every unclassified command confirmed.
    let unclassified = verdict.class == Class::Normal;
    let mut action = if unclassified {
        Action::Ask
    } else {
        analysis.action()
    };
    if call.args.first().map(String::as_str) == Some("ask") && action == Action::Deny {
        action = Action::Ask;
    }
    let decision = match action {
        Action::Allow => return None,
        Action::Ask => Decision::Ask,
        Action::Deny => Decision::Deny,
    };
    let mut metadata = BTreeMap::new();
    let (class, blast) = if unclassified {
        (Class::Unknown, BlastRadius::Unknown)
    } else {
        (verdict.class, verdict.blast_radius)
    };
    metadata.insert("safety_label".to_owned(), label(class).to_owned());
    metadata.insert("blast_radius".to_owned(), radius(blast).to_owned());
    if let Some(category) = &verdict.category {
        metadata.insert("category".to_owned(), category.clone());
    }
    metadata.insert("reason".to_owned(), verdict.reason.clone());
    let reason = match &verdict.suggestion {
        Some(s) => format!("{}; {s}", verdict.reason),
        None => verdict.reason.clone(),
    };
    let permission =
        EventId::from_native(&call.input.hook_event_name).is_some_and(|e| e.contract().permission);
    Some(HookResponse {
        decision: permission.then_some(decision),
        reason: Some(reason),
        metadata,
        ..HookResponse::default()
    })
}

fn count_redactions(before: &Value, after: &Value) -> usize {
    match (before, after) {
        (Value::String(a), Value::String(b)) if a != b => hookgate_secrets::scan(a).len().max(1),
        (Value::Array(a), Value::Array(b)) => {
            a.iter().zip(b).map(|(x, y)| count_redactions(x, y)).sum()
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .filter_map(|(k, x)| b.get(k).map(|y| count_redactions(x, y)))
            .sum(),
        _ => 0,
    }
}

fn redact_secrets(call: &BuiltinCall) -> Option<HookResponse> {
    let event = EventId::from_native(&call.input.hook_event_name)?;
    let mut response = HookResponse::default();
    let found = match event {
        EventId::PreToolUse | EventId::ToolInputTransform => {
            let input = call.input.tool_input.as_ref()?;
            let original = Value::Object(input.clone());
            let Some(Value::Object(redacted)) = hookgate_secrets::redact_json(&original) else {
                return None;
            };
            // Only the keys that changed: the engine merges patches, so untouched keys stay.
            let changed: Map<String, Value> = redacted
                .into_iter()
                .filter(|(k, v)| input.get(k) != Some(v))
                .collect();
            let n = changed
                .iter()
                .map(|(k, v)| count_redactions(&input[k.as_str()], v))
                .sum();
            response.updated_input = Some(changed);
            n
        }
        EventId::BeforeLlmCall => {
            let messages = call.input.messages.as_ref()?;
            let redacted = hookgate_secrets::redact_json(messages)?;
            let n = count_redactions(messages, &redacted);
            response.updated_messages = Some(redacted);
            n
        }
        EventId::ToolResponseTransform => {
            let output = call.input.tool_response.as_ref()?;
            let redacted = hookgate_secrets::redact_json(output)?;
            let n = count_redactions(output, &redacted);
            response.updated_tool_response = Some(redacted);
            n
        }
        _ => return None,
    };
    response.system_message = Some(format!(
        "redact_secrets: removed {found} secret(s) before `{event}`"
    ));
    Some(response)
}

pub(crate) fn register(registry: &mut BuiltinRegistry, env: &Arc<Environment>) {
    let shell_env = Arc::clone(env);
    registry.register(
        "safer_shell",
        Builtin {
            description: "Judges shell commands with the parsed-command analyzer: asks about unknown or risky ones, denies a high blast radius (args: [\"ask\"] to never deny); metadata carries safety_label, blast_radius, category, reason.",
            events: &[EventId::PreToolUse, EventId::ToolGuard, EventId::PermissionRequest],
            // `ask` is the only mode: an argument that changed nothing (an earlier `policy`)
            // is an error, never a setting that silently does not apply.
            validate: |args| match args {
                [] => Ok(()),
                [mode] if mode == "ask" => Ok(()),
                _ => Err(ArgsError::shape("takes no args, or `args: [\"ask\"]`")),
            },
            run: Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&shell_env);
                Box::pin(async move { Ok(safer_shell(&call, &env)) })
            }),
        },
    );
    registry.register(
        "redact_secrets",
        Builtin {
            description: "Replaces secrets with [REDACTED] in tool input (pre_tool_use, tool_input_transform), outgoing messages (before_llm_call) and tool output (tool_response_transform).",
            events: &[EventId::ToolInputTransform, EventId::PreToolUse, EventId::BeforeLlmCall, EventId::ToolResponseTransform],
            validate: no_args,
            run: Arc::new(|call: BuiltinCall| Box::pin(async move { Ok(redact_secrets(&call)) })),
        },
    );
}
