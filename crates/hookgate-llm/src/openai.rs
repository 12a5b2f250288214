//! OpenAI's two wire protocols: Chat Completions (`POST {base}/chat/completions`, also what
//! Ollama, llama.cpp's server and most OpenAI-compatible servers speak) and Responses
//! (`POST {base}/responses`).
//!
//! Both are spoken without streaming: the runtime and the judge need the whole reply before
//! they act on it. Tool calls go both ways (the model's calls are decoded from their JSON
//! `arguments` string; tool results go back by call id), structured output uses the native
//! `json_schema` format, and usage is reported as the provider counted it.
//!
//! Invariant: a reply that does not decode into the typed shapes below is an
//! [`LlmError::Protocol`], never a guessed answer — in particular, tool-call arguments that are
//! not a JSON object fail the call instead of running a tool with empty input.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::remote::{Endpoint, assistant_reply};
use crate::{
    BoxFuture, ChatRequest, ChatResponse, LlmError, Model, Role, StopReason, ToolCall, Usage,
};

const PROVIDER: &str = "openai";
/// The name given to the response schema; providers require one, the value is not meaningful.
const SCHEMA_NAME: &str = "hookgate_reply";

/// Which of OpenAI's two APIs a model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpenAiApi {
    Chat,
    Responses,
}

/// An OpenAI (or OpenAI-compatible) model.
#[derive(Debug)]
pub(crate) struct OpenAiModel {
    endpoint: Endpoint,
    model: String,
    api: OpenAiApi,
}

impl OpenAiModel {
    pub(crate) fn new(endpoint: Endpoint, model: String, api: OpenAiApi) -> Self {
        Self {
            endpoint,
            model,
            api,
        }
    }

    fn headers(&self) -> Vec<(String, String)> {
        self.endpoint
            .api_key
            .iter()
            .map(|key| ("authorization".to_owned(), format!("Bearer {key}")))
            .collect()
    }

    async fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let body = chat_body(&self.model, request)?;
        let url = format!("{}/chat/completions", self.endpoint.base_url);
        let reply: ChatReply = self
            .endpoint
            .post_json(PROVIDER, url, self.headers(), &body)
            .await?;
        chat_response(reply, &self.model)
    }

    async fn responses(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let body = responses_body(&self.model, request)?;
        let url = format!("{}/responses", self.endpoint.base_url);
        let reply: ResponsesReply = self
            .endpoint
            .post_json(PROVIDER, url, self.headers(), &body)
            .await?;
        responses_response(reply, &self.model)
    }
}

impl Model for OpenAiModel {
    fn name(&self) -> &str {
        &self.model
    }

    fn endpoint(&self) -> Option<crate::ModelEndpoint> {
        Some(crate::ModelEndpoint {
            provider: self.endpoint.provider,
            base_url: self.endpoint.base_url.clone(),
        })
    }

    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            match self.api {
                OpenAiApi::Chat => self.chat(request).await,
                OpenAiApi::Responses => self.responses(request).await,
            }
        })
    }
}

fn protocol(reason: impl Into<String>) -> LlmError {
    LlmError::Protocol {
        provider: PROVIDER,
        reason: reason.into(),
    }
}

/// Tool input travels as a JSON *string* on both OpenAI APIs.
fn encode_arguments(input: &Value) -> Result<String, LlmError> {
    serde_json::to_string(input).map_err(|e| protocol(format!("tool input not encodable: {e}")))
}

/// Decodes a call's `arguments` string; anything but a JSON object is a protocol error.
/// An empty string (some servers send it for a tool without parameters) is `{}`.
fn decode_arguments(name: &str, arguments: &str) -> Result<Value, LlmError> {
    if arguments.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str::<Value>(arguments) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) => Err(protocol(format!(
            "arguments of tool call `{name}` are not a JSON object"
        ))),
        Err(e) => Err(protocol(format!(
            "arguments of tool call `{name}` are not JSON: {e}"
        ))),
    }
}

// ---------------------------------------------------------------------------------------------
// Chat Completions
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Serialize)]
struct ChatBody<'a> {
    model: &'a str,
    messages: Vec<ChatWireMessage>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<ChatWireTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_format: Option<ChatResponseFormat<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    stream: bool,
}

#[derive(Debug, Serialize)]
struct ChatWireMessage {
    role: &'static str,
    /// `null` for an assistant message that only calls tools (the API's documented shape).
    content: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<ChatWireCall>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct ChatWireCall {
    id: String,
    #[serde(rename = "type", default = "function_type")]
    kind: String,
    function: ChatWireFunction,
}

fn function_type() -> String {
    "function".to_owned()
}

#[derive(Debug, Serialize, Deserialize)]
struct ChatWireFunction {
    name: String,
    #[serde(default)]
    arguments: String,
}

#[derive(Debug, Serialize)]
struct ChatWireTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: FunctionDef<'a>,
}

#[derive(Debug, Serialize)]
struct FunctionDef<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a Value,
}

#[derive(Debug, Serialize)]
struct ChatResponseFormat<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    json_schema: JsonSchemaFormat<'a>,
}

#[derive(Debug, Serialize)]
struct JsonSchemaFormat<'a> {
    name: &'static str,
    schema: &'a Value,
    strict: bool,
}

fn chat_role(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
}

fn chat_body<'a>(model: &'a str, request: &'a ChatRequest) -> Result<ChatBody<'a>, LlmError> {
    let mut messages = Vec::with_capacity(request.messages.len());
    for message in &request.messages {
        let tool_calls = message
            .tool_calls
            .iter()
            .map(|call| {
                Ok(ChatWireCall {
                    id: call.id.clone(),
                    kind: function_type(),
                    function: ChatWireFunction {
                        name: call.name.clone(),
                        arguments: encode_arguments(&call.input)?,
                    },
                })
            })
            .collect::<Result<Vec<_>, LlmError>>()?;
        let content = if message.text.is_empty() && !tool_calls.is_empty() {
            None
        } else {
            Some(message.text.clone())
        };
        messages.push(ChatWireMessage {
            role: chat_role(message.role),
            content,
            tool_calls,
            tool_call_id: message.tool_call_id.clone(),
        });
    }
    Ok(ChatBody {
        model,
        messages,
        tools: request
            .tools
            .iter()
            .map(|tool| ChatWireTool {
                kind: "function",
                function: FunctionDef {
                    name: &tool.name,
                    description: &tool.description,
                    parameters: &tool.input_schema,
                },
            })
            .collect(),
        response_format: request
            .response_schema
            .as_ref()
            .map(|schema| ChatResponseFormat {
                kind: "json_schema",
                json_schema: JsonSchemaFormat {
                    name: SCHEMA_NAME,
                    schema,
                    strict: true,
                },
            }),
        max_tokens: request.max_tokens,
        stream: false,
    })
}

#[derive(Debug, Deserialize)]
struct ChatReply {
    #[serde(default)]
    model: Option<String>,
    choices: Vec<ChatChoice>,
    #[serde(default)]
    usage: Option<ChatUsage>,
}

#[derive(Debug, Deserialize)]
struct ChatChoice {
    message: ChatReplyMessage,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ChatReplyMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<ChatWireCall>,
    /// Set instead of `content` when the model declined a structured-output request.
    #[serde(default)]
    refusal: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ChatUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    /// USD, where an OpenAI-compatible server reports it (OpenRouter, LiteLLM).
    #[serde(default)]
    cost: Option<f64>,
}

fn chat_response(reply: ChatReply, configured: &str) -> Result<ChatResponse, LlmError> {
    let choice = reply
        .choices
        .into_iter()
        .next()
        .ok_or_else(|| protocol("the reply has no choices"))?;
    if let Some(refusal) = choice.message.refusal.filter(|r| !r.is_empty()) {
        return Err(protocol(format!("the model refused: {refusal}")));
    }
    let tool_calls = choice
        .message
        .tool_calls
        .into_iter()
        .map(|call| {
            Ok(ToolCall {
                input: decode_arguments(&call.function.name, &call.function.arguments)?,
                id: call.id,
                name: call.function.name,
            })
        })
        .collect::<Result<Vec<_>, LlmError>>()?;
    let stop_reason = match choice.finish_reason.as_deref() {
        _ if !tool_calls.is_empty() => StopReason::ToolUse,
        Some("stop") => StopReason::EndTurn,
        Some("length") => StopReason::MaxTokens,
        Some("tool_calls" | "function_call") => StopReason::ToolUse,
        _ => StopReason::Other,
    };
    let cost = reply.usage.as_ref().and_then(|u| u.cost);
    let usage = reply.usage.map_or_else(Usage::default, |u| Usage {
        input_tokens: u.prompt_tokens,
        output_tokens: u.completion_tokens,
    });
    Ok(assistant_reply(
        choice.message.content.unwrap_or_default(),
        tool_calls,
        stop_reason,
        usage,
        cost,
        reply.model,
        configured,
    ))
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Serialize)]
struct ResponsesBody<'a> {
    model: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<String>,
    input: Vec<ResponsesItem>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<ResponsesTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<ResponsesText<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_output_tokens: Option<u32>,
    /// Nothing is kept on the provider's side: the conversation is resent each turn.
    store: bool,
    stream: bool,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ResponsesItem {
    Message {
        role: &'static str,
        content: String,
    },
    FunctionCall {
        call_id: String,
        name: String,
        arguments: String,
    },
    FunctionCallOutput {
        call_id: String,
        output: String,
    },
}

#[derive(Debug, Serialize)]
struct ResponsesTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'a str,
    description: &'a str,
    parameters: &'a Value,
}

#[derive(Debug, Serialize)]
struct ResponsesText<'a> {
    format: ResponsesFormat<'a>,
}

#[derive(Debug, Serialize)]
struct ResponsesFormat<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'static str,
    schema: &'a Value,
    strict: bool,
}

fn responses_body<'a>(
    model: &'a str,
    request: &'a ChatRequest,
) -> Result<ResponsesBody<'a>, LlmError> {
    let mut instructions = Vec::new();
    let mut input = Vec::new();
    for message in &request.messages {
        match message.role {
            Role::System => instructions.push(message.text.as_str()),
            Role::User => input.push(ResponsesItem::Message {
                role: "user",
                content: message.text.clone(),
            }),
            Role::Assistant => {
                if !message.text.is_empty() {
                    input.push(ResponsesItem::Message {
                        role: "assistant",
                        content: message.text.clone(),
                    });
                }
                for call in &message.tool_calls {
                    input.push(ResponsesItem::FunctionCall {
                        call_id: call.id.clone(),
                        name: call.name.clone(),
                        arguments: encode_arguments(&call.input)?,
                    });
                }
            }
            Role::Tool => {
                let call_id = message
                    .tool_call_id
                    .clone()
                    .ok_or_else(|| protocol("a tool result has no call id"))?;
                input.push(ResponsesItem::FunctionCallOutput {
                    call_id,
                    output: message.text.clone(),
                });
            }
        }
    }
    Ok(ResponsesBody {
        model,
        instructions: (!instructions.is_empty()).then(|| instructions.join("\n\n")),
        input,
        tools: request
            .tools
            .iter()
            .map(|tool| ResponsesTool {
                kind: "function",
                name: &tool.name,
                description: &tool.description,
                parameters: &tool.input_schema,
            })
            .collect(),
        text: request
            .response_schema
            .as_ref()
            .map(|schema| ResponsesText {
                format: ResponsesFormat {
                    kind: "json_schema",
                    name: SCHEMA_NAME,
                    schema,
                    strict: true,
                },
            }),
        max_output_tokens: request.max_tokens,
        store: false,
        stream: false,
    })
}

#[derive(Debug, Deserialize)]
struct ResponsesReply {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    output: Vec<ResponsesOutput>,
    #[serde(default)]
    usage: Option<ResponsesUsage>,
    #[serde(default)]
    incomplete_details: Option<IncompleteDetails>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ResponsesOutput {
    Message {
        #[serde(default)]
        content: Vec<ResponsesContent>,
    },
    FunctionCall {
        call_id: String,
        name: String,
        #[serde(default)]
        arguments: String,
    },
    /// Reasoning summaries, web search calls and other items the loop does not act on.
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ResponsesContent {
    OutputText {
        text: String,
    },
    Refusal {
        refusal: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
struct ResponsesUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    /// USD, where a compatible server reports it.
    #[serde(default)]
    cost: Option<f64>,
}

#[derive(Debug, Deserialize)]
struct IncompleteDetails {
    #[serde(default)]
    reason: Option<String>,
}

fn responses_response(reply: ResponsesReply, configured: &str) -> Result<ChatResponse, LlmError> {
    if let Some(error) = reply.error.filter(|e| !e.is_null()) {
        return Err(protocol(format!("the response failed: {error}")));
    }
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for item in reply.output {
        match item {
            ResponsesOutput::Message { content } => {
                for part in content {
                    match part {
                        ResponsesContent::OutputText { text: t } => text.push_str(&t),
                        ResponsesContent::Refusal { refusal } => {
                            return Err(protocol(format!("the model refused: {refusal}")));
                        }
                        ResponsesContent::Other => {}
                    }
                }
            }
            ResponsesOutput::FunctionCall {
                call_id,
                name,
                arguments,
            } => tool_calls.push(ToolCall {
                input: decode_arguments(&name, &arguments)?,
                id: call_id,
                name,
            }),
            ResponsesOutput::Other => {}
        }
    }
    let truncated = reply
        .incomplete_details
        .and_then(|d| d.reason)
        .is_some_and(|r| r == "max_output_tokens");
    let stop_reason = if !tool_calls.is_empty() {
        StopReason::ToolUse
    } else if truncated {
        StopReason::MaxTokens
    } else if reply.status.as_deref().is_none_or(|s| s == "completed") {
        StopReason::EndTurn
    } else {
        StopReason::Other
    };
    let cost = reply.usage.as_ref().and_then(|u| u.cost);
    let usage = reply.usage.map_or_else(Usage::default, |u| Usage {
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
    });
    Ok(assistant_reply(
        text,
        tool_calls,
        stop_reason,
        usage,
        cost,
        reply.model,
        configured,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Message;
    use serde_json::json;

    #[test]
    fn tool_arguments_that_are_not_an_object_fail_the_call() {
        assert!(decode_arguments("shell", "[1]").is_err());
        assert!(decode_arguments("shell", "{oops").is_err());
        assert_eq!(
            decode_arguments("shell", "").unwrap_or_else(|e| panic!("{e}")),
            json!({})
        );
    }

    #[test]
    fn an_assistant_turn_with_only_calls_sends_null_content() {
        let request = ChatRequest {
            messages: vec![Message {
                role: Role::Assistant,
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: "c1".into(),
                    name: "shell".into(),
                    input: json!({"cmd": "ls"}),
                }],
                tool_call_id: None,
                is_error: false,
            }],
            ..ChatRequest::default()
        };
        let body = serde_json::to_value(chat_body("m", &request).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(body["messages"][0]["content"], Value::Null);
        assert_eq!(
            body["messages"][0]["tool_calls"][0]["function"]["arguments"],
            r#"{"cmd":"ls"}"#
        );
    }

    #[test]
    fn a_refusal_is_an_error_not_an_answer() {
        let reply: ChatReply = serde_json::from_value(json!({
            "choices": [{"message": {"content": null, "refusal": "no"}, "finish_reason": "stop"}]
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(chat_response(reply, "m").is_err());
    }

    #[test]
    fn a_truncated_response_reports_max_tokens() {
        let reply: ResponsesReply = serde_json::from_value(json!({
            "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
            "output": [{"type": "reasoning", "summary": []}]
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        let response = responses_response(reply, "m").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(response.stop_reason, StopReason::MaxTokens);
    }

    #[test]
    fn a_reported_cost_is_passed_on_and_a_missing_one_is_unpriced() {
        let priced: ChatReply = serde_json::from_value(json!({
            "choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1, "cost": 0.0042}
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        let priced = chat_response(priced, "m").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(priced.cost, Some(0.0042));
        let unpriced: ChatReply = serde_json::from_value(json!({
            "choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1}
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            chat_response(unpriced, "m")
                .unwrap_or_else(|e| panic!("{e}"))
                .cost,
            None
        );
        let negative: ResponsesReply = serde_json::from_value(json!({
            "status": "completed", "output": [], "usage": {"input_tokens": 1, "cost": -1.0}
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            responses_response(negative, "m")
                .unwrap_or_else(|e| panic!("{e}"))
                .cost,
            None,
            "a nonsensical figure is not a price"
        );
    }
}
