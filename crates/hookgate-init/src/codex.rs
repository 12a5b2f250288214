//! Codex hook trust.
//!
//! Codex runs a non-managed command hook only if the user config holds
//! `[hooks.state."<source>:<event_snake>:<group>:<handler>"] trusted_hash = "sha256:…"` and the
//! hash equals the hook's *current* hash; otherwise the hook is skipped with no message at all. The
//! hash, from `codex-rs/hooks/src/engine/discovery.rs` (`command_hook_hash`) and
//! `codex-rs/config/src/fingerprint.rs` (`version_for_toml`), is the SHA-256 of the compact JSON,
//! keys sorted recursively, of the normalized identity
//! `{event_name, matcher?, hooks: [{type, command, timeout, async, statusMessage?}]}`, where the
//! identity went through a TOML value first (so absent options are absent, not `null`), the
//! timeout is defaulted (600 s; `SessionEnd`: 1 s, clamped to 1..=3) and the matcher is dropped
//! for events that ignore it (`UserPromptSubmit`, `Stop`).
//!
//! The key is positional, which is why every edit of `hooks.json` re-keys the trust of foreign
//! handlers whose position moved (see [`TrustEdit`]).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use toml_edit::{DocumentMut, Item, Table, TableLike};

use crate::InitError;

/// Events whose groups Codex matches with `matcher`; on the others it is ignored and left out of
/// the trust identity (`matcher_pattern_for_event`).
const MATCHER_EVENTS: &[&str] = &[
    "pre_tool_use",
    "permission_request",
    "post_tool_use",
    "pre_compact",
    "post_compact",
    "session_start",
    "session_end",
    "subagent_start",
    "subagent_stop",
];

/// Events whose handlers may carry `additionalContextLimit` into the identity.
const CONTEXT_EVENTS: &[&str] = &[
    "pre_tool_use",
    "post_tool_use",
    "session_start",
    "user_prompt_submit",
    "subagent_start",
];

/// Codex's snake_case label of a `hooks.json` event name (`PreToolUse` → `pre_tool_use`).
pub(crate) fn event_label(event: &str) -> String {
    let mut out = String::with_capacity(event.len() + 4);
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The `[hooks.state]` key Codex uses for the handler at `group`/`index` of `event` in the hook
/// file at `source` (its absolute path, as Codex displays it).
pub fn codex_trust_key(source: &Path, event: &str, group: usize, index: usize) -> String {
    format!(
        "{}:{}:{group}:{index}",
        source.display(),
        event_label(event)
    )
}

/// The `trusted_hash` Codex computes for `handler` (a `hooks.json` handler object) in a group with
/// `matcher` under `event` (`PreToolUse`, …). `None` for handlers Codex does not run (non-command
/// types, blank commands), which have no trust entry.
pub fn codex_trust_hash(event: &str, matcher: Option<&str>, handler: &Value) -> Option<String> {
    let label = event_label(event);
    let h = handler.as_object()?;
    if h.get("type").and_then(Value::as_str) != Some("command") {
        return None;
    }
    let command = h.get("command")?.as_str()?;
    if command.trim().is_empty() {
        return None;
    }
    let timeout = h.get("timeout").and_then(Value::as_u64);
    let timeout = if label == "session_end" {
        timeout.unwrap_or(1).clamp(1, 3)
    } else {
        timeout.unwrap_or(600).max(1)
    };
    let mut normalized = Map::new();
    normalized.insert("type".into(), "command".into());
    normalized.insert("command".into(), command.into());
    normalized.insert("timeout".into(), timeout.into());
    normalized.insert(
        "async".into(),
        h.get("async")
            .and_then(Value::as_bool)
            .unwrap_or(false)
            .into(),
    );
    if let Some(status) = h.get("statusMessage").and_then(Value::as_str) {
        normalized.insert("statusMessage".into(), status.into());
    }
    if CONTEXT_EVENTS.contains(&label.as_str())
        && let Some(limit) = h.get("additionalContextLimit").and_then(Value::as_u64)
        && limit != 2500
    {
        normalized.insert("additionalContextLimit".into(), limit.into());
    }
    let mut identity = Map::new();
    if MATCHER_EVENTS.contains(&label.as_str())
        && let Some(m) = matcher
    {
        identity.insert("matcher".into(), m.into());
    }
    identity.insert(
        "hooks".into(),
        Value::Array(vec![Value::Object(normalized)]),
    );
    identity.insert("event_name".into(), label.into());
    let canonical = serde_json::to_string(&canonical(&Value::Object(identity))).ok()?;
    Some(format!(
        "sha256:{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    ))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The value with every object's keys sorted, as Codex's `canonical_json` does.
fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, Value> =
                map.iter().map(|(k, v)| (k, canonical(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// Parses Codex's `config.toml`, naming the line of a syntax error.
pub(crate) fn parse_toml(path: &Path, text: Option<&str>) -> Result<DocumentMut, InitError> {
    let text = text.unwrap_or("");
    text.parse::<DocumentMut>().map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |span| line_col(text, span.start));
        InitError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().to_owned(),
        }
    })
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The changes to `[hooks.state]` that keep Codex's trust in step with an edit of `hooks.json`.
#[derive(Debug, Default)]
pub(crate) struct TrustEdit {
    /// Keys of our handlers before the edit (their entries go).
    pub drop: Vec<String>,
    /// Foreign handlers whose position changed: their entry moves with them.
    pub moves: Vec<(String, String)>,
    /// Our handlers after the edit, with the hash to trust.
    pub trust: Vec<(String, String)>,
}

impl TrustEdit {
    /// Applies the edit. Leaves the document untouched (byte for byte) when the state is already
    /// what it should be; removes the `hooks.state`/`hooks` tables it leaves empty if they were
    /// only implicit (created by a dotted header, as ours are).
    pub(crate) fn apply(&self, doc: &mut DocumentMut, path: &Path) -> Result<(), InitError> {
        let needs_state = !self.trust.is_empty() || !self.moves.is_empty();
        let doc_was_empty = doc.as_table().is_empty();
        let Some(state) = state_table(doc, path, needs_state)? else {
            return Ok(());
        };
        let mut saved: BTreeMap<String, Option<Item>> = BTreeMap::new();
        for key in self
            .drop
            .iter()
            .chain(self.moves.iter().map(|(old, _)| old))
        {
            saved.insert(key.clone(), state.get(key).cloned());
        }
        let mut desired: BTreeMap<String, Option<Item>> = BTreeMap::new();
        for key in &self.drop {
            desired.insert(key.clone(), None);
        }
        for (old, _) in &self.moves {
            desired.insert(old.clone(), None);
        }
        for (old, new) in &self.moves {
            desired.insert(new.clone(), saved.get(old).cloned().flatten());
        }
        for (key, _) in &self.trust {
            desired.remove(key);
        }
        for (key, item) in desired {
            match item {
                Some(item) => {
                    state.insert(&key, item);
                }
                None => {
                    state.remove(&key);
                }
            }
        }
        for (key, hash) in &self.trust {
            let current = state
                .get(key)
                .and_then(|i| i.get("trusted_hash"))
                .and_then(Item::as_str);
            if current == Some(hash.as_str()) {
                continue;
            }
            if let Some(existing) = state.get_mut(key).and_then(Item::as_table_like_mut) {
                existing.insert("trusted_hash", toml_edit::value(hash.as_str()));
            } else {
                let mut table = Table::new();
                table.insert("trusted_hash", toml_edit::value(hash.as_str()));
                if !doc_was_empty || !state.is_empty() {
                    table.decor_mut().set_prefix("\n");
                }
                state.insert(key, Item::Table(table));
            }
        }
        prune_empty_implicit(doc);
        Ok(())
    }
}

/// `hooks.state`, created as implicit tables when `create` is set.
fn state_table<'a>(
    doc: &'a mut DocumentMut,
    path: &Path,
    create: bool,
) -> Result<Option<&'a mut dyn TableLike>, InitError> {
    let shape = |key: &str| InitError::Shape {
        path: path.to_path_buf(),
        key: key.into(),
        expected: "a table",
    };
    let implicit = || {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    };
    let root = doc.as_table_mut();
    if !root.contains_key("hooks") {
        if !create {
            return Ok(None);
        }
        root.insert("hooks", implicit());
    }
    let hooks = root
        .get_mut("hooks")
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| shape("hooks"))?;
    if !hooks.contains_key("state") {
        if !create {
            return Ok(None);
        }
        hooks.insert("state", implicit());
    }
    hooks
        .get_mut("state")
        .and_then(Item::as_table_like_mut)
        .map(Some)
        .ok_or_else(|| shape("hooks.state"))
}

fn prune_empty_implicit(doc: &mut DocumentMut) {
    let root = doc.as_table_mut();
    let Some(hooks) = root.get_mut("hooks").and_then(Item::as_table_mut) else {
        return;
    };
    if hooks
        .get("state")
        .and_then(Item::as_table)
        .is_some_and(|s| s.is_implicit() && s.is_empty())
    {
        hooks.remove("state");
    }
    if hooks.is_implicit() && hooks.is_empty() {
        root.remove("hooks");
    }
}

/// The `trusted_hash` and `enabled` of one state entry, for the doctor.
pub(crate) fn state_entry(doc: &DocumentMut, key: &str) -> Option<(Option<String>, Option<bool>)> {
    let entry = doc.get("hooks")?.get("state")?.get(key)?;
    Some((
        entry
            .get("trusted_hash")
            .and_then(Item::as_str)
            .map(str::to_owned),
        entry.get("enabled").and_then(Item::as_bool),
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;
    use serde_json::json;

    #[test]
    fn event_labels_are_codex_snake_case() {
        assert_eq!(event_label("PreToolUse"), "pre_tool_use");
        assert_eq!(event_label("UserPromptSubmit"), "user_prompt_submit");
        assert_eq!(event_label("SessionEnd"), "session_end");
    }

    #[test]
    fn hash_is_sha256_of_the_sorted_compact_identity() {
        // The identity Codex hashes for this handler, written out by hand.
        let expected = r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"echo hi","timeout":600,"type":"command"}],"matcher":"*"}"#;
        let hex = hex(&Sha256::digest(expected.as_bytes()));
        let handler = json!({"type": "command", "command": "echo hi"});
        assert_eq!(
            codex_trust_hash("PreToolUse", Some("*"), &handler).unwrap(),
            format!("sha256:{hex}")
        );
    }

    #[test]
    fn hash_normalizes_like_codex() {
        let h = |event, matcher, handler: Value| codex_trust_hash(event, matcher, &handler);
        // Matcher ignored on Stop; default timeout materialized; commandWindows dropped.
        assert_eq!(
            h(
                "Stop",
                Some("x"),
                json!({"type": "command", "command": "c"})
            ),
            h(
                "Stop",
                None,
                json!({"type": "command", "command": "c", "timeout": 600, "commandWindows": "w"})
            )
        );
        // SessionEnd clamps to 3 s.
        assert_eq!(
            h(
                "SessionEnd",
                None,
                json!({"type": "command", "command": "c", "timeout": 10})
            ),
            h(
                "SessionEnd",
                None,
                json!({"type": "command", "command": "c", "timeout": 3})
            )
        );
        // The matcher is part of a tool event's identity.
        assert_ne!(
            h(
                "PreToolUse",
                Some("*"),
                json!({"type": "command", "command": "c"})
            ),
            h(
                "PreToolUse",
                None,
                json!({"type": "command", "command": "c"})
            )
        );
        assert_eq!(h("PreToolUse", None, json!({"type": "prompt"})), None);
        assert_eq!(
            h(
                "PreToolUse",
                None,
                json!({"type": "command", "command": "  "})
            ),
            None
        );
    }
}
