//! Editing JSON-with-comments files in place: what `init` writes changes only the values it
//! touches, and every comment, blank line, indent and key order of the user's file stays.
//!
//! Gemini CLI (and Copilot's `config.json`) read JSON with `//` and `/* */` comments; a
//! round-trip through a plain JSON value would drop every comment and re-indent the file. So
//! the decision of *what* to change is still made on a `serde_json` value (where the merge rules
//! are easy to state and test), and this module replays the difference between the value
//! before and after onto a concrete syntax tree of the original text (`jsonc-parser`'s CST,
//! as `toml_edit` does for Codex's TOML). Because an install only appends and a removal only
//! takes out what the install appended, `init` followed by `init --remove` gives back the
//! original bytes (the invariant `init_then_remove_restores_identical_bytes` checks).

use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::{Map, Value};

use crate::InitError;

/// JSON plus comments and trailing commas — what Gemini and VS Code-style settings accept — and
/// nothing looser (single quotes, bare keys, hex numbers), which the agents would reject: a file
/// the agent cannot read must be reported, not rewritten into something it can.
fn options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

fn parse_cst(path: &Path, text: &str) -> Result<CstRootNode, InitError> {
    CstRootNode::parse(text, &options()).map_err(|e| InitError::Parse {
        path: path.to_path_buf(),
        line: e.line_display(),
        column: e.column_display(),
        message: e.kind().to_string(),
    })
}

/// The value of a JSON-with-comments document. `None` for a document with no value (blank or
/// only comments), which the agents read as an empty object.
pub(crate) fn parse(path: &Path, text: &str) -> Result<Option<Value>, InitError> {
    let root = parse_cst(path, text)?;
    Ok(root.value().and_then(|v| v.to_serde_value()))
}

/// Whether the document holds a comment anywhere (a file whose only content is a comment is
/// not "empty": deleting it would lose what the user wrote).
pub(crate) fn has_comments(path: &Path, text: &str) -> Result<bool, InitError> {
    let root = parse_cst(path, text)?;
    Ok(any_comment(&CstNode::from(root_container(&root))))
}

fn root_container(root: &CstRootNode) -> jsonc_parser::cst::CstContainerNode {
    jsonc_parser::cst::CstContainerNode::Root(root.clone())
}

fn any_comment(node: &CstNode) -> bool {
    node.is_comment() || node.children().iter().any(any_comment)
}

/// `text` with the changes from `before` to `after` (its value, and the value wanted) made in
/// place. Object keys that appear are appended (the order `serde_json`'s `preserve_order` map
/// gives them), keys that go are removed with their own comma and line, arrays are aligned
/// element by element (see [`sync_array`]), and a scalar that differs is replaced.
pub(crate) fn edit(
    path: &Path,
    text: &str,
    before: &Map<String, Value>,
    after: &Map<String, Value>,
) -> Result<String, InitError> {
    let root = parse_cst(path, text)?;
    let object = match root.value() {
        None => root.object_value_or_set(),
        Some(value) => value.as_object().ok_or_else(|| InitError::Shape {
            path: path.to_path_buf(),
            key: "(top level)".into(),
            expected: "a JSON object",
        })?,
    };
    sync_object(&object, before, after);
    Ok(root.to_string())
}

fn sync_object(object: &CstObject, before: &Map<String, Value>, after: &Map<String, Value>) {
    for key in before.keys().filter(|k| !after.contains_key(*k)) {
        if let Some(prop) = object.get(key) {
            prop.remove();
        }
    }
    for (key, want) in after {
        match before.get(key) {
            None => {
                object.append(key, input(want));
            }
            Some(have) if have == want => {}
            Some(have) => {
                if let Some(prop) = object.get(key)
                    && let Some(node) = prop.value()
                {
                    sync_value(&node, have, want, |v| prop.set_value(v));
                }
            }
        }
    }
}

/// Brings one value from `have` to `want`: containers of the same kind are edited inside (so
/// their comments stay), anything else is replaced through `replace`.
fn sync_value(node: &CstNode, have: &Value, want: &Value, replace: impl FnOnce(CstInputValue)) {
    match (have, want, node.as_object(), node.as_array()) {
        (Value::Object(h), Value::Object(w), Some(object), _) => sync_object(&object, h, w),
        (Value::Array(h), Value::Array(w), _, Some(array)) => sync_array(&array, h, w),
        _ => replace(input(want)),
    }
}

/// One step of turning the old elements into the new ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The element is unchanged.
    Keep,
    /// Old element edited into the new one at the same place.
    Edit(usize, usize),
    /// The old element goes.
    Remove,
    /// The new element is inserted here.
    Insert(usize),
}

/// Aligns two arrays by their longest common subsequence of equal elements. Between two
/// unchanged elements, old and new elements are paired in order and edited in place; the
/// surplus is removed or inserted. An install that appends one element and the removal that
/// takes it out again therefore touch only that element.
fn steps(before: &[Value], after: &[Value]) -> Vec<Step> {
    let (n, m) = (before.len(), after.len());
    // lcs[i][j]: length of the LCS of before[i..] and after[j..].
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if before[i] == after[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut gap_before = Vec::new();
    let mut gap_after = Vec::new();
    let flush = |out: &mut Vec<Step>, gb: &mut Vec<usize>, ga: &mut Vec<usize>| {
        let paired = gb.len().min(ga.len());
        for k in 0..paired {
            out.push(Step::Edit(gb[k], ga[k]));
        }
        out.extend(gb.iter().skip(paired).map(|_| Step::Remove));
        out.extend(ga.iter().skip(paired).map(|&a| Step::Insert(a)));
        gb.clear();
        ga.clear();
    };
    while i < n || j < m {
        if i < n && j < m && before[i] == after[j] {
            flush(&mut out, &mut gap_before, &mut gap_after);
            out.push(Step::Keep);
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            gap_after.push(j);
            j += 1;
        } else {
            gap_before.push(i);
            i += 1;
        }
    }
    flush(&mut out, &mut gap_before, &mut gap_after);
    out
}

fn sync_array(array: &CstArray, before: &[Value], after: &[Value]) {
    let mut at = 0;
    for step in steps(before, after) {
        match step {
            Step::Keep => at += 1,
            Step::Edit(b, a) => {
                if let Some(node) = &array.elements().get(at).cloned() {
                    let (old, index) = (node.clone(), at);
                    sync_value(node, &before[b], &after[a], |v| {
                        old.remove();
                        array.insert(index, v);
                    });
                }
                at += 1;
            }
            Step::Remove => {
                if let Some(node) = array.elements().get(at) {
                    node.clone().remove();
                }
            }
            Step::Insert(a) => {
                array.insert(at, input(&after[a]));
                at += 1;
            }
        }
    }
}

/// A `serde_json` value as the CST's input (numbers keep their JSON spelling).
fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    fn round_trip(text: &str, add: impl Fn(&mut Map<String, Value>)) {
        let path = Path::new("settings.json");
        let before = obj(parse(path, text).unwrap().unwrap_or(json!({})));
        let mut after = before.clone();
        add(&mut after);
        let installed = edit(path, text, &before, &after).unwrap();
        assert_eq!(
            obj(parse(path, &installed).unwrap().unwrap()),
            after,
            "{installed}"
        );
        let back = edit(path, &installed, &after, &before).unwrap();
        assert_eq!(back, text);
    }

    #[test]
    fn appended_key_and_its_removal_leave_comments_and_bytes_as_they_were() {
        let text = "// settings\n{\n    // the theme\n    \"theme\": \"dark\", // trailing\n    /* block */\n    \"list\": [1, 2]\n}\n";
        round_trip(text, |m| {
            m.insert("hooks".into(), json!({"BeforeTool": [{"matcher": "*"}]}));
        });
    }

    #[test]
    fn element_appended_to_a_commented_array_and_removed_again_restores_the_bytes() {
        let text = "{\n\t\"hooks\": {\n\t\t\"BeforeTool\": [\n\t\t\t{ \"matcher\": \"x\" } // mine\n\t\t]\n\t}\n}";
        round_trip(text, |m| {
            if let Some(Value::Array(a)) = m
                .get_mut("hooks")
                .and_then(|h| h.get_mut("BeforeTool"))
            {
                a.push(json!({"matcher": "*", "hooks": [{"type": "command"}]}));
            }
        });
    }

    #[test]
    fn an_edited_element_keeps_its_neighbours_comments() {
        let path = Path::new("s.json");
        let text = "{\n  \"a\": [\n    // first\n    {\"x\": 1},\n    {\"y\": 2} // second\n  ]\n}\n";
        let before = obj(parse(path, text).unwrap().unwrap());
        let after = obj(json!({"a": [{"x": 1}, {"y": 3}]}));
        let out = edit(path, text, &before, &after).unwrap();
        assert!(out.contains("// first") && out.contains("// second"), "{out}");
        assert_eq!(obj(parse(path, &out).unwrap().unwrap()), after);
    }

    #[test]
    fn looser_than_jsonc_is_a_parse_error_naming_the_line() {
        let err = parse(Path::new("s.json"), "{\n  'a': 1\n}").unwrap_err();
        assert!(matches!(err, InitError::Parse { line: 2, .. }), "{err}");
    }

    #[test]
    fn comment_only_document_has_comments_and_no_value() {
        let path = Path::new("s.json");
        assert_eq!(parse(path, "// nothing yet\n").unwrap(), None);
        assert!(has_comments(path, "// nothing yet\n").unwrap());
        assert!(!has_comments(path, "{\"a\": \"// not a comment\"}").unwrap());
    }
}
