//! Whether a tool's result, in an agent's own format, reports success.

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
