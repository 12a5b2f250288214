//! Human-readable renderings (the `--json` forms serialize the same values).
//!
//! Everything here shows what hooks returned — text from the user's or a repository's hook
//! commands and servers — so single-line fields go through `hookgate_core::term::escape` and
//! the whole rendering through `escape_lines`: no escape sequence reaches the terminal.

use std::fmt::Write as _;

use hookgate_core::term::{escape, escape_lines};

use hookgate_core::{Outcome, TraceResult};
use hookgate_engine::ToolCallOutcome;

fn verdict(outcome_decision: Option<hookgate_core::Decision>) -> &'static str {
    outcome_decision.map_or("no opinion", hookgate_core::Decision::as_str)
}

/// Renders one event's outcome.
pub(crate) fn outcome(o: &Outcome) -> String {
    escape_lines(&outcome_text(o)).into_owned()
}

fn outcome_text(o: &Outcome) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "event: {}", o.event);
    let _ = write!(s, "decision: {}", verdict(o.decision));
    if let Some(by) = &o.decided_by {
        let _ = write!(s, " (by `{}`)", escape(&by.to_string()));
    }
    s.push('\n');
    if let Some(reason) = &o.reason {
        let _ = writeln!(s, "reason: {}", escape(reason));
    }
    if let Some(stop) = &o.stop {
        let _ = writeln!(
            s,
            "stop: {}",
            if stop.is_empty() {
                "(no reason given)".into()
            } else {
                escape(stop)
            }
        );
    }
    if let Some(input) = &o.updated_input {
        let _ = writeln!(
            s,
            "updated input: {}",
            serde_json::Value::Object(input.clone())
        );
    }
    if let Some(response) = &o.updated_tool_response {
        let _ = writeln!(s, "updated tool response: {response}");
    }
    if let Some(messages) = &o.updated_messages {
        let _ = writeln!(s, "updated messages: {messages}");
    }
    list(&mut s, "context", &o.additional_context);
    list(&mut s, "system messages", &o.system_messages);
    if let Some(summary) = &o.summary {
        let _ = writeln!(s, "summary: {}", escape(summary));
    }
    if !o.metadata.is_empty() {
        let pairs: Vec<String> = o.metadata.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(s, "metadata: {}", pairs.join(", "));
    }
    if o.trace.is_empty() {
        s.push_str("trace: no hooks matched\n");
    } else {
        s.push_str("trace:\n");
        for t in &o.trace {
            let result = match &t.result {
                TraceResult::NoOpinion => "no opinion".to_owned(),
                TraceResult::Allow { reason } => with_reason("allow", reason.as_deref()),
                TraceResult::Ask { reason } => with_reason("ask", reason.as_deref()),
                TraceResult::Deny { reason } => with_reason("deny", Some(reason)),
                TraceResult::Failed { reason, blocked } => with_reason(
                    if *blocked {
                        "failed (blocked)"
                    } else {
                        "failed"
                    },
                    Some(reason),
                ),
                TraceResult::Skipped { why } => why.clone(),
                TraceResult::Started => "started in background".to_owned(),
            };
            let _ = writeln!(
                s,
                "  {}  [{}]  {:.1} ms  {}",
                escape(&t.id.to_string()),
                t.runtime,
                t.duration_ms,
                escape(&result)
            );
            for note in &t.notes {
                let _ = writeln!(s, "      note: {}", escape(note));
            }
        }
    }
    s
}

fn with_reason(word: &str, reason: Option<&str>) -> String {
    match reason {
        Some(r) if !r.is_empty() => format!("{word}: {r}"),
        _ => word.to_owned(),
    }
}

fn list(s: &mut String, title: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(s, "{title}:");
    for item in items {
        for (i, line) in item.lines().enumerate() {
            let _ = writeln!(s, "{} {line}", if i == 0 { "  -" } else { "   " });
        }
    }
}

/// Renders the combined pre-tool lanes.
pub(crate) fn tool_call(o: &ToolCallOutcome) -> String {
    let mut s = String::new();
    let _ = write!(s, "tool call: {}", verdict(o.decision));
    if let Some(by) = &o.decided_by {
        let _ = write!(s, " (by `{}`)", escape(&by.to_string()));
    }
    s.push('\n');
    if let Some(reason) = &o.reason {
        let _ = writeln!(s, "reason: {}", escape(reason));
    }
    if let Some(input) = &o.tool_input {
        let _ = writeln!(
            s,
            "tool input: {}",
            serde_json::Value::Object(input.clone())
        );
    }
    for lane in &o.lanes {
        s.push_str("---\n");
        s.push_str(&outcome_text(lane));
    }
    escape_lines(&s).into_owned()
}
