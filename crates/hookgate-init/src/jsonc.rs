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
use jsonc_parser::ast;
use jsonc_parser::common::{Range, Ranged};
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
    if let Some(cut) = delete_only(text, before, after) {
        return Ok(cut);
    }
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

/// The text with the removals from `before` to `after` cut out, when the change is removals
/// only (what `--remove` makes) and no comment sits in a separator that would go; `None`
/// otherwise (the CST path then makes the change).
///
/// The CST's own removal leaves the line break it had put before an appended element, so an
/// install followed by a removal would not give the original bytes back. The cut here is the
/// exact inverse of an append: a removed run of elements (or properties) takes the separator
/// before it (from the end of the element before), so `[a]` → `[a,\n  b]` → `[a]`.
fn delete_only(
    text: &str,
    before: &Map<String, Value>,
    after: &Map<String, Value>,
) -> Option<String> {
    let collect = jsonc_parser::CollectOptions::default();
    let parsed = jsonc_parser::parse_to_ast(text, &collect, &options()).ok()?;
    let Some(ast::Value::Object(root)) = parsed.value else {
        return None;
    };
    let mut cuts = Vec::new();
    object_cuts(text, &root, before, after, &mut cuts)?;
    cuts.sort_by_key(|c: &Range| std::cmp::Reverse(c.start));
    let mut out = text.to_owned();
    for cut in cuts {
        out.replace_range(cut.start..cut.end, "");
    }
    Some(out)
}

fn object_cuts(
    text: &str,
    object: &ast::Object<'_>,
    before: &Map<String, Value>,
    after: &Map<String, Value>,
    cuts: &mut Vec<Range>,
) -> Option<()> {
    if after.keys().any(|k| !before.contains_key(k)) {
        return None;
    }
    let mut removed = Vec::with_capacity(object.properties.len());
    for prop in &object.properties {
        let name = prop.name.as_str();
        match (before.get(name), after.get(name)) {
            (_, None) => removed.push(true),
            (Some(have), Some(want)) => {
                removed.push(false);
                if have != want {
                    value_cuts(text, &prop.value, have, want, cuts)?;
                }
            }
            (None, Some(_)) => return None,
        }
    }
    let ranges: Vec<Range> = object.properties.iter().map(|p| p.range).collect();
    run_cuts(text, object.range, &ranges, &removed, cuts)
}

fn value_cuts(
    text: &str,
    node: &ast::Value<'_>,
    have: &Value,
    want: &Value,
    cuts: &mut Vec<Range>,
) -> Option<()> {
    match (node, have, want) {
        (ast::Value::Object(o), Value::Object(h), Value::Object(w)) => {
            object_cuts(text, o, h, w, cuts)
        }
        (ast::Value::Array(array), Value::Array(have), Value::Array(want)) => {
            let mut removed = Vec::with_capacity(array.elements.len());
            for (at, step) in steps(have, want).into_iter().enumerate() {
                let element = array.elements.get(at)?;
                match step {
                    Step::Keep => removed.push(false),
                    Step::Edit(old, new) => {
                        removed.push(false);
                        value_cuts(text, element, &have[old], &want[new], cuts)?;
                    }
                    Step::Remove => removed.push(true),
                    Step::Insert(_) => return None,
                }
            }
            let ranges: Vec<Range> = array.elements.iter().map(Ranged::range).collect();
            run_cuts(text, array.range, &ranges, &removed, cuts)
        }
        _ => None,
    }
}

/// The cuts for the removed runs among one container's children (`ranges`, in order, inside
/// `container`, whose first and last bytes are its brackets). `None` when a separator that
/// would go holds a comment: the user's words are never cut.
fn run_cuts(
    text: &str,
    container: Range,
    ranges: &[Range],
    removed: &[bool],
    cuts: &mut Vec<Range>,
) -> Option<()> {
    let n = ranges.len();
    let mut i = 0;
    while i < n {
        if !removed[i] {
            i += 1;
            continue;
        }
        let mut j = i;
        while j + 1 < n && removed[j + 1] {
            j += 1;
        }
        // Between two siblings there is nothing but whitespace, commas and comments; the gaps
        // inside the run must hold no comment (the user's words are never cut).
        let inner_comment = ranges[i..=j].windows(2).any(|w| {
            Gap::lex(text, w[0].end, w[1].start).is_none_or(|g| g.last_comment_end.is_some())
        });
        if inner_comment {
            return None;
        }
        if i > 0 {
            let gap = Gap::lex(text, ranges[i - 1].end, ranges[i].start)?;
            match gap.last_comment_end {
                // `a,\n  b` → `a`.
                None => cuts.push(Range::new(ranges[i - 1].end, ranges[j].end)),
                // `a, // note\n  b` → `a // note`: the comma and what follows the comment go,
                // the comment (the user's note on `a`) stays. Only for the last run: before a
                // later sibling, the comma after the run would end up inside the comment.
                Some(_) if j + 1 < n => return None,
                Some(end) => {
                    let comma = gap.comma?;
                    if comma > end {
                        return None;
                    }
                    cuts.push(Range::new(comma, comma + 1));
                    cuts.push(Range::new(end, ranges[j].end));
                }
            }
        } else if j + 1 < n {
            let gap = Gap::lex(text, ranges[j].end, ranges[j + 1].start)?;
            if gap.last_comment_end.is_some() {
                return None;
            }
            cuts.push(Range::new(ranges[0].start, ranges[j + 1].start));
        } else {
            let before = Gap::lex(text, container.start + 1, ranges[0].start)?;
            let after = Gap::lex(text, ranges[j].end, container.end - 1)?;
            if before.last_comment_end.is_some() || after.last_comment_end.is_some() {
                return None;
            }
            cuts.push(Range::new(container.start + 1, container.end - 1));
        }
        i = j + 1;
    }
    Some(())
}

/// The separator between two siblings, lexed: where its first comma is and where its last
/// comment ends (the end of a `//` comment is before its line break).
#[derive(Debug, Clone, Copy)]
struct Gap {
    comma: Option<usize>,
    last_comment_end: Option<usize>,
}

impl Gap {
    /// `None` if the text between `start` and `end` is not whitespace, commas and comments.
    fn lex(text: &str, start: usize, end: usize) -> Option<Self> {
        let bytes = text.as_bytes().get(start..end)?;
        let mut gap = Self {
            comma: None,
            last_comment_end: None,
        };
        let mut k = 0;
        while k < bytes.len() {
            match bytes[k] {
                b' ' | b'\t' | b'\n' | b'\r' => k += 1,
                b',' => {
                    gap.comma.get_or_insert(start + k);
                    k += 1;
                }
                b'/' if bytes.get(k + 1) == Some(&b'/') => {
                    k = bytes[k..]
                        .iter()
                        .position(|&b| b == b'\n' || b == b'\r')
                        .map_or(bytes.len(), |p| k + p);
                    gap.last_comment_end = Some(start + k);
                }
                b'/' if bytes.get(k + 1) == Some(&b'*') => {
                    let close = bytes[k + 2..].windows(2).position(|w| w == b"*/")?;
                    k = k + 2 + close + 2;
                    gap.last_comment_end = Some(start + k);
                }
                _ => return None,
            }
        }
        Some(gap)
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
            if let Some(Value::Array(a)) = m.get_mut("hooks").and_then(|h| h.get_mut("BeforeTool"))
            {
                a.push(json!({"matcher": "*", "hooks": [{"type": "command"}]}));
            }
        });
    }

    #[test]
    fn an_edited_element_keeps_its_neighbours_comments() {
        let path = Path::new("s.json");
        let text =
            "{\n  \"a\": [\n    // first\n    {\"x\": 1},\n    {\"y\": 2} // second\n  ]\n}\n";
        let before = obj(parse(path, text).unwrap().unwrap());
        let after = obj(json!({"a": [{"x": 1}, {"y": 3}]}));
        let out = edit(path, text, &before, &after).unwrap();
        assert!(
            out.contains("// first") && out.contains("// second"),
            "{out}"
        );
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
