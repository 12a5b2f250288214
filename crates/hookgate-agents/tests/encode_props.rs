//! Property: whatever the reply, `encode` emits only the keys each agent documents for the event,
//! never an empty deny reason, and never stderr on an allow path.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use hookgate_agents::{Dialect, Reply, encode};
use hookgate_core::alias::{ALIASES, Alias};
use hookgate_core::decision::Decision;
use proptest::prelude::*;
use serde_json::{Map, Value};

/// The documented keys: (top level, inside `hookSpecificOutput`, inside its `decision`).
struct Keys {
    top: &'static [&'static str],
    specific: &'static [&'static str],
    decision: &'static [&'static str],
}

const NONE: &[&str] = &[];
const CLAUDE_UNIVERSAL: &[&str] = &["continue", "stopReason", "suppressOutput", "systemMessage"];

/// The documented output keys per dialect and native event (protocols doc §2.5, §3.6 and
/// Codex's generated output schemas, §4.5, §5.5, §6.4). Written independently of the encoder.
fn documented(dialect: Dialect, native: &str) -> Keys {
    let k = |top, specific, decision| Keys {
        top,
        specific,
        decision,
    };
    match dialect {
        Dialect::Claude => match native {
            "PreToolUse" => k(
                &[
                    "hookSpecificOutput",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                &[
                    "hookEventName",
                    "permissionDecision",
                    "permissionDecisionReason",
                    "updatedInput",
                    "additionalContext",
                ],
                NONE,
            ),
            "PermissionRequest" => k(
                &[
                    "hookSpecificOutput",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                &["hookEventName", "decision"],
                &[
                    "behavior",
                    "updatedInput",
                    "updatedPermissions",
                    "message",
                    "interrupt",
                ],
            ),
            _ => k(
                &[
                    "decision",
                    "reason",
                    "hookSpecificOutput",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                &["hookEventName", "additionalContext"],
                NONE,
            ),
        },
        Dialect::Codex => match native {
            "PreToolUse" => k(
                &[
                    "hookSpecificOutput",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                &[
                    "hookEventName",
                    "permissionDecision",
                    "permissionDecisionReason",
                    "updatedInput",
                    "additionalContext",
                ],
                NONE,
            ),
            "PermissionRequest" => k(
                &[
                    "hookSpecificOutput",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                &["hookEventName", "decision"],
                &[
                    "behavior",
                    "message",
                    "interrupt",
                    "updatedPermissions",
                    "addDirectories",
                ],
            ),
            "PostToolUse" | "UserPromptSubmit" => k(
                &[
                    "decision",
                    "reason",
                    "hookSpecificOutput",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                &["hookEventName", "additionalContext"],
                NONE,
            ),
            "SessionStart" | "SubagentStart" => k(
                &[
                    "hookSpecificOutput",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                &["hookEventName", "additionalContext"],
                NONE,
            ),
            "Stop" | "SubagentStop" => k(
                &[
                    "decision",
                    "reason",
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                ],
                NONE,
                NONE,
            ),
            _ => k(CLAUDE_UNIVERSAL, NONE, NONE),
        },
        Dialect::Gemini => k(
            &[
                "decision",
                "reason",
                "continue",
                "stopReason",
                "systemMessage",
                "suppressOutput",
                "hookSpecificOutput",
            ],
            &["hookEventName", "additionalContext", "tool_input"],
            NONE,
        ),
        Dialect::CopilotCamel => match native {
            "preToolUse" => k(
                &[
                    "permissionDecision",
                    "permissionDecisionReason",
                    "modifiedArgs",
                ],
                NONE,
                NONE,
            ),
            "permissionRequest" => k(&["behavior", "message", "interrupt"], NONE, NONE),
            "postToolUse" => k(&["modifiedResult", "additionalContext"], NONE, NONE),
            "agentStop" | "subagentStop" => {
                k(&["decision", "reason", "modifiedResponse"], NONE, NONE)
            }
            "sessionStart" | "subagentStart" | "notification" => {
                k(&["additionalContext"], NONE, NONE)
            }
            _ => k(NONE, NONE, NONE),
        },
        Dialect::Cursor => match native {
            "beforeShellExecution" | "beforeMCPExecution" => k(
                &["permission", "user_message", "agent_message", "question"],
                NONE,
                NONE,
            ),
            "beforeReadFile" => k(&["permission"], NONE, NONE),
            "preToolUse" => k(
                &["permission", "agent_message", "updated_input"],
                NONE,
                NONE,
            ),
            "beforeSubmitPrompt" => k(&["continue", "user_message"], NONE, NONE),
            "sessionStart" | "postToolUse" => k(&["additional_context"], NONE, NONE),
            "stop" => k(&["followup_message"], NONE, NONE),
            _ => k(NONE, NONE, NONE),
        },
        Dialect::CopilotClaude | Dialect::CursorClaude => k(NONE, NONE, NONE),
    }
}

fn aliases_of(dialect: Dialect) -> Vec<&'static Alias> {
    ALIASES
        .iter()
        .filter(|a| a.vocabulary == dialect.vocabulary())
        .collect()
}

fn subset(map: &Map<String, Value>, allowed: &[&str], what: &str) {
    for key in map.keys() {
        assert!(
            allowed.contains(&key.as_str()),
            "undocumented key `{key}` in {what}"
        );
    }
}

fn non_empty(map: &Map<String, Value>, key: &str, what: &str) {
    let text = map.get(key).and_then(Value::as_str).unwrap_or("");
    assert!(!text.trim().is_empty(), "empty `{key}` on a deny in {what}");
}

fn check(dialect: Dialect, alias: &Alias, reply: &Reply, fallback: Decision) {
    let out = encode(dialect, alias.event, alias.name, reply, fallback);
    let what = format!("{dialect:?} {} {reply:?} fallback {fallback:?}", alias.name);
    assert!(out.exit_code == 0 || out.exit_code == 2, "{what}");
    assert_eq!(
        out.exit_code == 2,
        !out.stderr.is_empty(),
        "stderr only with exit 2: {what}"
    );
    if out.exit_code == 2 {
        assert!(
            !String::from_utf8(out.stderr.clone())
                .unwrap()
                .trim()
                .is_empty(),
            "{what}"
        );
        assert!(out.stdout.is_empty(), "{what}");
    }
    if matches!(reply.decision, None | Some(Decision::Allow)) {
        assert!(
            out.stderr.is_empty() && out.exit_code == 0,
            "stderr on an allow path: {what}"
        );
    }
    if out.stdout.is_empty() {
        return;
    }
    assert_eq!(out.stdout.last(), Some(&b'\n'), "{what}");
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    let top = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {what}"));
    let keys = documented(dialect, alias.name);
    subset(top, keys.top, &what);
    let specific = top
        .get("hookSpecificOutput")
        .map(|v| v.as_object().unwrap());
    if let Some(specific) = specific {
        subset(specific, keys.specific, &what);
        assert!(specific.contains_key("hookEventName"), "{what}");
        if let Some(decision) = specific.get("decision") {
            let decision = decision.as_object().unwrap();
            subset(decision, keys.decision, &what);
            if decision.get("behavior") == Some(&Value::from("deny")) {
                non_empty(decision, "message", &what);
            }
        }
        if specific.get("permissionDecision") == Some(&Value::from("deny")) {
            non_empty(specific, "permissionDecisionReason", &what);
        }
        if dialect == Dialect::Codex {
            assert_ne!(
                specific.get("permissionDecision"),
                Some(&Value::from("ask")),
                "codex has no ask: {what}"
            );
            if specific.get("permissionDecision") == Some(&Value::from("allow")) {
                assert!(
                    specific.contains_key("updatedInput"),
                    "codex bare allow fails: {what}"
                );
            }
        }
    }
    for (decision_key, reason_key) in [
        ("decision", "reason"),
        ("permissionDecision", "permissionDecisionReason"),
        ("behavior", "message"),
    ] {
        if matches!(
            top.get(decision_key).and_then(Value::as_str),
            Some("deny" | "block")
        ) {
            non_empty(top, reason_key, &what);
        }
    }
    if top.get("permission") == Some(&Value::from("deny")) && alias.name != "beforeReadFile" {
        non_empty(top, "agent_message", &what);
    }
}

fn decision() -> impl Strategy<Value = Option<Decision>> {
    prop_oneof![
        Just(None),
        Just(Some(Decision::Allow)),
        Just(Some(Decision::Ask)),
        Just(Some(Decision::Deny)),
    ]
}

fn text() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some(String::new())),
        Just(Some("  \n".into())),
        "[a-z \"\\\\]{0,12}".prop_map(Some)
    ]
}

fn reply() -> impl Strategy<Value = Reply> {
    (
        decision(),
        text(),
        proptest::collection::vec("[a-z ]{0,6}", 0..3),
        text(),
        proptest::option::of(Just(
            serde_json::json!({"command": "ls"})
                .as_object()
                .unwrap()
                .clone(),
        )),
    )
        .prop_map(
            |(decision, reason, context, system_message, updated_input)| Reply {
                decision,
                reason,
                context,
                system_message,
                updated_input,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn encode_emits_only_documented_keys_and_never_an_empty_deny_reason(
        dialect_index in 0..Dialect::ALL.len(),
        alias_index in 0usize..64,
        reply in reply(),
        fallback in prop_oneof![Just(Decision::Deny), Just(Decision::Allow), Just(Decision::Ask)],
    ) {
        let dialect = Dialect::ALL[dialect_index];
        let aliases = aliases_of(dialect);
        let alias = aliases[alias_index % aliases.len()];
        check(dialect, alias, &reply, fallback);
    }
}

#[test]
fn every_dialect_event_and_decision_combination_respects_the_key_tables() {
    for dialect in Dialect::ALL {
        for alias in aliases_of(*dialect) {
            for decision in [
                None,
                Some(Decision::Allow),
                Some(Decision::Ask),
                Some(Decision::Deny),
            ] {
                for reason in [None, Some(String::new()), Some("why".to_owned())] {
                    for fallback in [Decision::Deny, Decision::Allow] {
                        let reply = Reply {
                            decision,
                            reason: reason.clone(),
                            context: vec!["ctx".into()],
                            system_message: None,
                            updated_input: None,
                        };
                        check(*dialect, alias, &reply, fallback);
                    }
                }
            }
        }
    }
}
