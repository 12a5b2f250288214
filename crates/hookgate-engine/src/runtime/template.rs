//! The prompt template of `type: model` hooks: the subset of Go's `text/template` that
//! docker-agent's judge prompts use, over the hook input as JSON.
//!
//! Supported: text, `{{ .Field }}` and nested `{{ .ToolInput.command }}` (Go's CamelCase names
//! map to the input's snake_case ones: `.ToolName` is `tool_name`, `.SessionID` is
//! `session_id`; snake_case works too), pipelines `{{ .ToolInput | toJSON }}` and
//! `{{ .ToolResponse | truncate 200 }}`, function calls `{{ toJSON .ToolInput }}` and
//! `{{ truncate 200 .Prompt }}`, and Go's whitespace trim markers `{{-` / `-}}`.
//!
//! Invariant: a template is parsed when the config is loaded, so an unknown function or a
//! malformed action is a config error, never a judge that silently sees a broken prompt.

use std::fmt::Write as _;

use serde_json::Value;

/// Why a prompt template does not parse (a config error naming the action).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// `{{` without its `}}`.
    #[error("unclosed `{{{{` in prompt near `{near}`")]
    Unclosed {
        /// The text after the `{{`, cut short.
        near: String,
    },
    /// `{{ }}` with nothing inside.
    #[error("empty `{{{{ }}}}` action in prompt")]
    EmptyAction,
    /// A `"` without its closing quote.
    #[error("unterminated string in prompt action `{action}`")]
    UnterminatedString {
        /// The action (one pipeline segment).
        action: String,
    },
    /// An action that is not a field, a literal or a known function call.
    #[error("prompt action `{{{{ {action} }}}}`: {why}")]
    BadAction {
        /// The action.
        action: String,
        /// What is wrong with it.
        why: String,
    },
}

/// A parsed prompt template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    /// Commands of one pipeline; each after the first receives the previous value as its last
    /// argument.
    Pipeline(Vec<Command>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Arg {
    /// `.A.B`: a path into the input (empty for `.`, the whole input).
    Field(Vec<String>),
    Int(usize),
    Str(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Command {
    /// A bare value (`.Field`, a literal).
    Value(Arg),
    /// `toJSON X`: X as compact JSON.
    ToJson(Option<Arg>),
    /// `truncate N X`: X cut to at most N characters.
    Truncate(usize, Option<Arg>),
}

impl Template {
    /// Parses `source`.
    ///
    /// # Errors
    /// A message naming the malformed action.
    pub fn parse(source: &str) -> Result<Self, TemplateError> {
        let mut parts = Vec::new();
        let mut rest = source;
        let mut trim_next_text = false;
        while let Some(open) = rest.find("{{") {
            let mut text = &rest[..open];
            if trim_next_text {
                text = text.trim_start();
            }
            let after = &rest[open + 2..];
            let close = after.find("}}").ok_or_else(|| TemplateError::Unclosed {
                near: preview(after),
            })?;
            let mut action = &after[..close];
            if let Some(stripped) = action.strip_prefix('-') {
                text = text.trim_end();
                action = stripped;
            }
            trim_next_text = false;
            if let Some(stripped) = action.strip_suffix('-') {
                trim_next_text = true;
                action = stripped;
            }
            if !text.is_empty() {
                parts.push(Part::Text(text.to_owned()));
            }
            parts.push(Part::Pipeline(parse_pipeline(action.trim())?));
            rest = &after[close + 2..];
        }
        let tail = if trim_next_text {
            rest.trim_start()
        } else {
            rest
        };
        if !tail.is_empty() {
            parts.push(Part::Text(tail.to_owned()));
        }
        Ok(Self { parts })
    }

    /// Renders the template over `data` (the hook input as JSON). A missing field renders as
    /// nothing, as an unset optional field of docker-agent's input does.
    pub fn render(&self, data: &Value) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Pipeline(commands) => {
                    let mut value: Option<Value> = None;
                    for command in commands {
                        value = Some(eval(command, data, value.take()));
                    }
                    if let Some(value) = value {
                        out.push_str(&display(&value));
                    }
                }
            }
        }
        out
    }
}

fn preview(text: &str) -> String {
    text.chars().take(30).collect()
}

fn parse_pipeline(action: &str) -> Result<Vec<Command>, TemplateError> {
    if action.is_empty() {
        return Err(TemplateError::EmptyAction);
    }
    let mut commands = Vec::new();
    for (index, segment) in split_outside_quotes(action, '|').into_iter().enumerate() {
        let words = words(segment.trim())?;
        let piped = index > 0;
        commands.push(parse_command(&words, piped, action)?);
    }
    Ok(commands)
}

fn parse_command(words: &[String], piped: bool, action: &str) -> Result<Command, TemplateError> {
    let bad = |why: &str| TemplateError::BadAction {
        action: action.to_owned(),
        why: why.to_owned(),
    };
    let Some((head, args)) = words.split_first() else {
        return Err(bad("empty command in a pipeline"));
    };
    match head.as_str() {
        "toJSON" => {
            let arg = match (args, piped) {
                ([], true) => None,
                ([one], false) => Some(parse_arg(one).map_err(|e| bad(&e))?),
                _ => return Err(bad("`toJSON` takes one value")),
            };
            Ok(Command::ToJson(arg))
        }
        "truncate" => {
            let (n, arg) = match (args, piped) {
                ([n], true) => (n, None),
                ([n, value], false) => (n, Some(parse_arg(value).map_err(|e| bad(&e))?)),
                _ => return Err(bad("`truncate` takes a length and a value")),
            };
            let n = n
                .parse::<usize>()
                .map_err(|_| bad("`truncate` needs a non-negative integer length"))?;
            Ok(Command::Truncate(n, arg))
        }
        _ if piped => Err(bad(&format!(
            "`{head}` cannot take a piped value (functions: toJSON, truncate)"
        ))),
        _ if !args.is_empty() => Err(bad(&format!(
            "unknown function `{head}` (functions: toJSON, truncate)"
        ))),
        _ => Ok(Command::Value(parse_arg(head).map_err(|e| bad(&e))?)),
    }
}

fn parse_arg(word: &str) -> Result<Arg, String> {
    if let Some(path) = word.strip_prefix('.') {
        if path.is_empty() {
            return Ok(Arg::Field(Vec::new()));
        }
        let segments: Vec<String> = path.split('.').map(str::to_owned).collect();
        if segments.iter().any(String::is_empty) {
            return Err(format!("malformed field `{word}`"));
        }
        return Ok(Arg::Field(segments));
    }
    if let Some(quoted) = word.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
        return Ok(Arg::Str(quoted.to_owned()));
    }
    if let Ok(n) = word.parse::<usize>() {
        return Ok(Arg::Int(n));
    }
    Err(format!(
        "unknown function or value `{word}` (fields start with `.`; functions: toJSON, truncate)"
    ))
}

/// Splits on `sep` outside double quotes.
fn split_outside_quotes(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            c if c == sep && !quoted => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// Whitespace-separated words, a double-quoted string being one word.
fn words(text: &str) -> Result<Vec<String>, TemplateError> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                current.push(c);
                quoted = !quoted;
            }
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if quoted {
        return Err(TemplateError::UnterminatedString {
            action: text.to_owned(),
        });
    }
    if !current.is_empty() {
        out.push(current);
    }
    Ok(out)
}

fn eval(command: &Command, data: &Value, piped: Option<Value>) -> Value {
    let value_of = |arg: &Option<Arg>| match arg {
        Some(arg) => resolve(arg, data),
        None => piped.unwrap_or(Value::Null),
    };
    match command {
        Command::Value(arg) => resolve(arg, data),
        Command::ToJson(arg) => Value::String(value_of(arg).to_string()),
        Command::Truncate(n, arg) => {
            let text = display(&value_of(arg));
            Value::String(match text.char_indices().nth(*n) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text,
            })
        }
    }
}

fn resolve(arg: &Arg, data: &Value) -> Value {
    match arg {
        Arg::Int(n) => Value::from(*n),
        Arg::Str(s) => Value::String(s.clone()),
        Arg::Field(path) => {
            let mut current = data;
            for segment in path {
                let Value::Object(map) = current else {
                    return Value::Null;
                };
                let found = map
                    .get(segment.as_str())
                    .or_else(|| map.get(&snake_case(segment)));
                match found {
                    Some(next) => current = next,
                    None => return Value::Null,
                }
            }
            current.clone()
        }
    }
}

/// How a value prints: strings raw, null as nothing, everything else as compact JSON.
fn display(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Go's exported field names to the input's JSON names: `ToolName` → `tool_name`,
/// `SessionID` → `session_id`, `ToolUseID` → `tool_use_id`.
fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        let _ = write!(out, "{}", c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(source: &str, data: &Value) -> String {
        Template::parse(source)
            .unwrap_or_else(|e| panic!("{e}"))
            .render(data)
    }

    #[test]
    fn go_field_names_resolve_to_the_snake_case_input() {
        let data = json!({"tool_name": "shell", "session_id": "s1", "tool_use_id": "t"});
        assert_eq!(
            render(
                "{{ .ToolName }} {{.SessionID}} {{ .ToolUseID }} {{ .tool_name }}",
                &data
            ),
            "shell s1 t shell"
        );
    }

    #[test]
    fn to_json_and_truncate_work_piped_and_called() {
        let data = json!({"tool_input": {"cmd": "rm -rf /"}, "prompt": "héllo world"});
        assert_eq!(
            render("{{ .ToolInput | toJSON }}", &data),
            r#"{"cmd":"rm -rf /"}"#
        );
        assert_eq!(
            render("{{ toJSON .ToolInput.cmd }}", &data),
            r#""rm -rf /""#
        );
        assert_eq!(render("{{ .Prompt | truncate 5 }}", &data), "héllo…");
        assert_eq!(render("{{ truncate 50 .Prompt }}", &data), "héllo world");
    }

    #[test]
    fn trim_markers_remove_the_adjacent_whitespace() {
        let data = json!({"tool_name": "x"});
        assert_eq!(render("a  {{- .ToolName -}}  b", &data), "axb");
    }

    #[test]
    fn a_missing_field_renders_as_nothing() {
        assert_eq!(render("[{{ .ToolResponse }}]", &json!({})), "[]");
    }

    #[test]
    fn malformed_templates_are_rejected_at_parse_time() {
        for bad in [
            "{{ .ToolName",
            "{{ }}",
            "{{ upper .ToolName }}",
            "{{ .ToolName | upper }}",
            "{{ truncate x .Prompt }}",
            "{{ toJSON }}",
            "{{ ToolName }}",
            "{{ .a..b }}",
            "{{ \"open }}",
        ] {
            assert!(Template::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Template::parse("a {{ .x").unwrap_err().to_string(),
            "unclosed `{{` in prompt near ` .x`"
        );
        assert_eq!(Template::parse("{{ }}"), Err(TemplateError::EmptyAction));
        assert!(matches!(
            Template::parse("{{ frob .x }}"),
            Err(TemplateError::BadAction { action, why }) if action == "frob .x" && why.contains("unknown function `frob`")
        ));
    }
}
