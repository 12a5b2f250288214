//! What a tool's result, in an agent's own format, says: whether it succeeded, and the text it
//! shows.

/// Whether an agent's tool response reports success; `None` when it cannot tell (then the
/// test state is left alone rather than guessed).
///
/// Per agent (see `shared/e2e/payloads`): Copilot sends `resultType` and "exit code N" text,
/// Gemini "Exit Code: N" in `llmContent` when a command fails, Claude Code sends no exit code
/// but reports failed tools as `PostToolUseFailure`.
pub fn tool_succeeded(native_event: &str, r: &serde_json::Value) -> Option<bool> {
    if native_event.ends_with("Failure") {
        return Some(false);
    }
    for key in ["exit_code", "exitCode", "returncode"] {
        if let Some(code) = r.get(key).and_then(serde_json::Value::as_i64) {
            return Some(code == 0);
        }
    }
    if let Some(e) = r.get("is_error").and_then(serde_json::Value::as_bool) {
        return Some(!e);
    }
    if let Some(t) = r.get("resultType").and_then(|v| v.as_str()) {
        return Some(t == "success");
    }
    let text = match r {
        serde_json::Value::String(s) => s.clone(),
        other => ["llmContent", "textResultForLlm", "output"]
            .iter()
            .find_map(|k| other.get(*k).and_then(|v| v.as_str()).map(str::to_owned))
            .unwrap_or_default(),
    };
    let lower = text.to_ascii_lowercase();
    if let Some(at) = lower.find("exit code") {
        let digits: String = lower[at + 9..]
            .trim_start_matches([':', ' '])
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(code) = digits.parse::<i64>() {
            return Some(code == 0);
        }
    }
    if r.get("interrupted").and_then(serde_json::Value::as_bool) == Some(false) {
        return Some(true);
    }
    if r.get("llmContent").is_some() {
        // Gemini adds "Exit Code" only for failures.
        return Some(true);
    }
    None
}

/// The text a tool result shows, in the agent's own format: a bare string (Codex), `stdout`
/// (Claude Code; `stderr` is not output a later step reads), `output` (Cursor), `llmContent`
/// (Gemini), `textResultForLlm` (Copilot), or MCP-style `content` text blocks (joined by
/// newlines). `None` when the result has none of those (or they are all empty), so a judge
/// can tell "printed nothing" from a shape it does not know only by `tool_response` itself.
pub fn output_text(r: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let text = match r {
        Value::String(s) => s.clone(),
        Value::Object(obj) => {
            if let Some(s) = ["stdout", "output", "llmContent", "textResultForLlm"]
                .iter()
                .find_map(|k| obj.get(*k).and_then(Value::as_str))
            {
                s.to_owned()
            } else if let Some(Value::Array(blocks)) = obj.get("content") {
                blocks
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                return None;
            }
        }
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod output_tests {
    use serde_json::json;

    use super::output_text;

    #[test]
    fn output_text_reads_each_agents_result_shape_and_nothing_else() {
        let url = "https://github.com/o/r/pull/7";
        for shape in [
            json!(url),
            json!({"stdout": url, "stderr": "warning", "interrupted": false}),
            json!({"output": url}),
            json!({"llmContent": url, "returnDisplay": "x"}),
            json!({"resultType": "success", "textResultForLlm": url}),
            json!({"content": [{"type": "text", "text": url}, {"type": "image", "data": "..."}]}),
        ] {
            assert_eq!(output_text(&shape).as_deref(), Some(url), "{shape}");
        }
        // stderr is not what the tool printed for the next step; unknown shapes say nothing.
        assert_eq!(output_text(&json!({"stdout": "", "stderr": url})), None);
        assert_eq!(output_text(&json!({"result": url})), None);
        assert_eq!(output_text(&json!(42)), None);
    }
}
