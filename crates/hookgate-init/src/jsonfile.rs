//! Merging our handlers into (and out of) an agent's JSON hook file.
//!
//! What to change is decided on a `serde_json::Value` with `preserve_order` (where the merge
//! rules are easy to state); [`render`] then replays the change onto the original text, so every
//! key, comment and blank line the user had stays where it was and only what we touch changes.

use std::path::Path;

use hookgate_core::AgentKind;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::InitError;
use crate::InitOptions;
use crate::jsonc;
use crate::spec::{self, Layout};

/// Parses a hook file (JSON, with comments where the agent allows them). A missing, blank or
/// comment-only file is an empty object (what the agent would read).
pub(crate) fn parse(path: &Path, text: Option<&str>) -> Result<Map<String, Value>, InitError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Map::new());
    };
    match jsonc::parse(path, text)? {
        None => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map),
        Some(_) => Err(InitError::Shape {
            path: path.to_path_buf(),
            key: "(top level)".into(),
            expected: "a JSON object",
        }),
    }
}

/// The new text of a hook file whose value goes from `before` to `after`. An existing file is
/// edited in place (comments, blank lines, indentation and key order stay; see [`jsonc`]); a new
/// one is written like the agents write theirs (`JSON.stringify(v, null, 2)` plus a newline).
pub(crate) fn render(
    path: &Path,
    original: Option<&str>,
    before: &Map<String, Value>,
    after: &Map<String, Value>,
) -> Result<String, InitError> {
    if let Some(text) = original.filter(|t| !t.trim().is_empty()) {
        return jsonc::edit(path, text, before, after);
    }
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"  ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    // Serializing a map of JSON values into a Vec cannot fail.
    let _ = after.serialize(&mut ser);
    let mut text = String::from_utf8_lossy(&out).into_owned();
    text.push('\n');
    Ok(text)
}

fn shape(path: &Path, key: String, expected: &'static str) -> InitError {
    InitError::Shape {
        path: path.to_path_buf(),
        key,
        expected,
    }
}

/// The `hooks` object, created if absent.
fn hooks_mut<'a>(
    root: &'a mut Map<String, Value>,
    path: &Path,
) -> Result<&'a mut Map<String, Value>, InitError> {
    root.entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| shape(path, "hooks".into(), "an object"))
}

/// The handlers array of a nested group, if the group has the expected shape.
fn group_handlers_mut(group: &mut Value) -> Option<&mut Vec<Value>> {
    group.get_mut("hooks")?.as_array_mut()
}

fn group_handlers(group: &Value) -> Option<&Vec<Value>> {
    group.get("hooks")?.as_array()
}

/// Adds or updates our handler for every event of the agent.
///
/// An existing handler of ours is replaced where it stands (keeping its position, which Codex
/// trust keys depend on); duplicates are removed; a handler of ours that a user moved into a
/// group of their own is taken out of it and gets its own group.
pub(crate) fn install(
    root: &mut Map<String, Value>,
    agent: AgentKind,
    opts: &InitOptions,
    path: &Path,
) -> Result<(), InitError> {
    let layout = spec::layout(agent);
    if layout == Layout::Flat && root.is_empty() {
        root.insert("version".into(), 1.into());
    }
    let hooks = hooks_mut(root, path)?;
    for event in spec::events(agent) {
        let handler = spec::handler(agent, event, opts);
        let entries = hooks
            .entry(event.name)
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or_else(|| shape(path, format!("hooks.{}", event.name), "an array"))?;
        let is_ours = |h: &Value| spec::is_ours(h, agent, &opts.hookgate_bin);
        match layout {
            Layout::Flat => {
                let mut found = false;
                entries.retain_mut(|h| {
                    if !is_ours(h) {
                        return true;
                    }
                    if found {
                        return false;
                    }
                    found = true;
                    *h = handler.clone();
                    true
                });
                if !found {
                    entries.push(handler);
                }
            }
            Layout::Nested => {
                let mut group = Map::new();
                if let Some(m) = spec::matcher(event) {
                    group.insert("matcher".into(), m.into());
                }
                group.insert("hooks".into(), Value::Array(vec![handler]));
                let group = Value::Object(group);

                let mut kept = false;
                let mut needs_own_group = true;
                for g in entries.iter_mut() {
                    let only_ours =
                        group_handlers(g).is_some_and(|hs| hs.len() == 1 && hs.iter().all(is_ours));
                    if only_ours && !kept {
                        *g = group.clone();
                        kept = true;
                        needs_own_group = false;
                    } else if let Some(hs) = group_handlers_mut(g) {
                        hs.retain(|h| !is_ours(h));
                    }
                }
                // Drop the groups that held only our (now removed) duplicates.
                entries.retain(|g| group_handlers(g).is_none_or(|hs| !hs.is_empty()));
                if needs_own_group {
                    entries.push(group);
                }
            }
        }
    }
    Ok(())
}

/// Takes out every handler of ours (in any event, so entries of an older hookgate that registered
/// other events go too), then the groups, event arrays and `hooks` object that only held them.
/// Returns whether the document is now just the skeleton an install would create from nothing,
/// i.e. the file should be deleted.
pub(crate) fn remove(root: &mut Map<String, Value>, agent: AgentKind, bin: &Path) -> bool {
    let layout = spec::layout(agent);
    let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) else {
        return false;
    };
    let is_ours = |h: &Value| spec::is_ours(h, agent, bin);
    let mut removed_any = false;
    hooks.retain(|_, entries| {
        let Some(entries) = entries.as_array_mut() else {
            return true;
        };
        let before = entries.len();
        let mut removed_here = false;
        match layout {
            Layout::Flat => entries.retain(|h| !is_ours(h)),
            Layout::Nested => {
                entries.retain_mut(|g| {
                    let Some(hs) = group_handlers_mut(g) else {
                        return true;
                    };
                    let n = hs.len();
                    hs.retain(|h| !is_ours(h));
                    if hs.len() == n {
                        return true;
                    }
                    removed_here = true;
                    !hs.is_empty()
                });
            }
        }
        removed_here |= entries.len() != before;
        removed_any |= removed_here;
        !(removed_here && entries.is_empty())
    });
    if !removed_any {
        return false;
    }
    if hooks.is_empty() {
        root.shift_remove("hooks");
    }
    match layout {
        Layout::Nested => root.is_empty(),
        Layout::Flat => {
            root.is_empty()
                || (root.len() == 1 && root.get("version").and_then(Value::as_u64) == Some(1))
        }
    }
}

/// One handler of a nested hook file, located the way Codex keys trust.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    pub event: String,
    pub group: usize,
    pub index: usize,
    pub matcher: Option<String>,
    pub handler: Value,
    pub ours: bool,
}

/// Every handler of a nested hook file, in file order.
pub(crate) fn locate(root: &Map<String, Value>, agent: AgentKind, bin: &Path) -> Vec<Located> {
    let mut out = Vec::new();
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, groups) in hooks {
        let Some(groups) = groups.as_array() else {
            continue;
        };
        for (gi, g) in groups.iter().enumerate() {
            let Some(hs) = group_handlers(g) else {
                continue;
            };
            let matcher = g.get("matcher").and_then(Value::as_str).map(str::to_owned);
            for (hi, h) in hs.iter().enumerate() {
                out.push(Located {
                    event: event.clone(),
                    group: gi,
                    index: hi,
                    matcher: matcher.clone(),
                    handler: h.clone(),
                    ours: spec::is_ours(h, agent, bin),
                });
            }
        }
    }
    out
}
