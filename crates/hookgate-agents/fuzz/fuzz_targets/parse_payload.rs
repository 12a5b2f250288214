//! Fuzzes every dialect's payload parser and encoder: arbitrary bytes, read as each agent's
//! payload (with and without the event hint Copilot needs), must never panic; a payload that
//! parses must encode a deny that really denies, with a non-empty reason, in that dialect.
#![no_main]

use hookgate_agents::{Reply, encode, parse_with_event};
use hookgate_core::{AgentKind, Decision};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for agent in AgentKind::ALL {
        for hint in [None, Some("preToolUse"), Some("PreToolUse")] {
            let Ok(parsed) = parse_with_event(*agent, hint, data) else {
                continue;
            };
            let call = &parsed.call;
            let deny = Reply {
                decision: Some(Decision::Deny),
                reason: Some(String::new()),
                ..Reply::default()
            };
            let out = encode(
                parsed.dialect,
                call.event,
                &call.native_event,
                &deny,
                Decision::Deny,
            );
            if call.event.contract().can_block {
                // A deny is never silent: an exit code of 2, or JSON that says so.
                assert!(
                    out.exit_code == 2 || !out.stdout.is_empty(),
                    "a deny encoded as no opinion for {:?} {}",
                    parsed.dialect,
                    call.native_event
                );
            }
            if out.exit_code == 0 && !out.stdout.is_empty() {
                assert!(serde_json_ok(&out.stdout), "invalid JSON answer");
            }
        }
    }
});

fn serde_json_ok(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|t| t.trim_start().starts_with('{'))
}
