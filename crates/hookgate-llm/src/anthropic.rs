//! Anthropic's Messages API (`POST {base}/v1/messages`), without streaming.
//!
//! The base URL may be given with or without the trailing `/v1` (`ANTHROPIC_BASE_URL` is
//! conventionally `https://api.anthropic.com`, while hookgate's specs elsewhere end in `/v1`);
//! both reach the same endpoint.
//!
//! Tool calls are `tool_use` blocks in the assistant turn; results go back as `tool_result`
//! blocks in the next user turn (consecutive results merged into one turn, as the API requires).
//! Structured output uses `output_config.format` with a JSON schema.
//!
//! Invariant: a reply that does not decode into the typed shapes below is an
//! [`LlmError::Protocol`]; nothing is guessed.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::remote::{Endpoint, assistant_reply};
use crate::{
    BoxFuture, ChatRequest, ChatResponse, LlmError, Model, Role, StopReason, ToolCall, Usage,
};

const PROVIDER: &str = "anthropic";
/// The API version header every request carries.
const API_VERSION: &str = "2023-06-01";
/// `max_tokens` is mandatory on this API; used when the caller sets none.
const DEFAULT_MAX_TOKENS: u32 = 4096;

/// An Anthropic model.
#[derive(Debug)]
pub(crate) struct AnthropicModel {
    endpoint: Endpoint,
    model: String,
}

impl AnthropicModel {
    pub(crate) fn new(endpoint: Endpoint, model: String) -> Self {
        Self { endpoint, model }
    }

    fn url(&self) -> String {
        let base = &self.endpoint.base_url;
        if base.ends_with("/v1") {
            format!("{base}/messages")
        } else {
            format!("{base}/v1/messages")
        }
    }

    fn headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![("anthropic-version".to_owned(), API_VERSION.to_owned())];
        if let Some(key) = &self.endpoint.api_key {
            headers.push(("x-api-key".to_owned(), key.clone()));
        }
        headers
    }
}

impl Model for AnthropicModel {
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
            let body = body(&self.model, request)?;
            let reply: Reply = self
                .endpoint
                .post_json(PROVIDER, self.url(), self.headers(), &body)
                .await?;
            response(reply, &self.model)
        })
    }
}

fn protocol(reason: impl Into<String>) -> LlmError {
    LlmError::Protocol {
        provider: PROVIDER,
        reason: reason.into(),
    }
}

#[derive(Debug, Serialize)]
struct Body<'a> {
    model: &'a str,
    max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<String>,
    messages: Vec<WireMessage>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_config: Option<OutputConfig<'a>>,
    stream: bool,
}

#[derive(Debug, Serialize)]
struct WireMessage {
    role: &'static str,
    content: Vec<Block>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    ToolResult {
        tool_use_id: String,
        content: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
    /// Thinking and other blocks the loop does not act on.
    #[serde(other)]
    Other,
}

#[derive(Debug, Serialize)]
struct WireTool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
}

#[derive(Debug, Serialize)]
struct OutputConfig<'a> {
    format: OutputFormat<'a>,
}

#[derive(Debug, Serialize)]
struct OutputFormat<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    schema: &'a Value,
}

fn body<'a>(model: &'a str, request: &'a ChatRequest) -> Result<Body<'a>, LlmError> {
    let mut system = Vec::new();
    let mut messages: Vec<WireMessage> = Vec::new();
    for message in &request.messages {
        let (role, blocks) = match message.role {
            Role::System => {
                system.push(message.text.as_str());
                continue;
            }
            Role::User => (
                "user",
                vec![Block::Text {
                    text: message.text.clone(),
                }],
            ),
            Role::Assistant => {
                let mut blocks = Vec::new();
                if !message.text.is_empty() {
                    blocks.push(Block::Text {
                        text: message.text.clone(),
                    });
                }
                blocks.extend(message.tool_calls.iter().map(|call| Block::ToolUse {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    input: call.input.clone(),
                }));
                ("assistant", blocks)
            }
            Role::Tool => {
                let tool_use_id = message
                    .tool_call_id
                    .clone()
                    .ok_or_else(|| protocol("a tool result has no call id"))?;
                (
                    "user",
                    vec![Block::ToolResult {
                        tool_use_id,
                        content: message.text.clone(),
                        is_error: message.is_error,
                    }],
                )
            }
        };
        // The API wants alternating roles: consecutive same-role turns (several tool results
        // in a row) become one turn.
        match messages.last_mut() {
            Some(last) if last.role == role => last.content.extend(blocks),
            _ => messages.push(WireMessage {
                role,
                content: blocks,
            }),
        }
    }
    Ok(Body {
        model,
        max_tokens: request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        system: (!system.is_empty()).then(|| system.join("\n\n")),
        messages,
        tools: request
            .tools
            .iter()
            .map(|tool| WireTool {
                name: &tool.name,
                description: &tool.description,
                input_schema: &tool.input_schema,
            })
            .collect(),
        output_config: request.response_schema.as_ref().map(|schema| OutputConfig {
            format: OutputFormat {
                kind: "json_schema",
                schema,
            },
        }),
        stream: false,
    })
}

#[derive(Debug, Deserialize)]
struct Reply {
    #[serde(default)]
    model: Option<String>,
    content: Vec<Block>,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Debug, Deserialize)]
struct WireUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
}

fn response(reply: Reply, configured: &str) -> Result<ChatResponse, LlmError> {
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in reply.content {
        match block {
            Block::Text { text: t } => text.push_str(&t),
            Block::ToolUse { id, name, input } => {
                if !input.is_object() {
                    return Err(protocol(format!(
                        "input of tool call `{name}` is not a JSON object"
                    )));
                }
                tool_calls.push(ToolCall { id, name, input });
            }
            Block::ToolResult { .. } => {
                return Err(protocol("the assistant turn carries a tool_result block"));
            }
            Block::Other => {}
        }
    }
    let stop_reason = match reply.stop_reason.as_deref() {
        _ if !tool_calls.is_empty() => StopReason::ToolUse,
        Some("end_turn" | "stop_sequence") => StopReason::EndTurn,
        Some("max_tokens") => StopReason::MaxTokens,
        Some("tool_use") => StopReason::ToolUse,
        _ => StopReason::Other,
    };
    let usage = reply.usage.map_or_else(Usage::default, |u| Usage {
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
    });
    Ok(assistant_reply(
        text,
        tool_calls,
        stop_reason,
        usage,
        // Messages reports no price.
        None,
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
    fn consecutive_tool_results_become_one_user_turn() {
        let request = ChatRequest {
            messages: vec![
                Message::text(Role::System, "be brief"),
                Message::text(Role::User, "go"),
                Message::tool_result("a", "one", false),
                Message::tool_result("b", "two", true),
            ],
            ..ChatRequest::default()
        };
        let body = serde_json::to_value(body("m", &request).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(body["system"], "be brief");
        assert_eq!(body["messages"].as_array().map(Vec::len), Some(1));
        let content = &body["messages"][0]["content"];
        assert_eq!(content[1]["type"], "tool_result");
        assert_eq!(content[2]["is_error"], true);
        assert_eq!(body["max_tokens"], DEFAULT_MAX_TOKENS);
    }

    #[test]
    fn a_tool_use_whose_input_is_not_an_object_fails_the_call() {
        let reply: Reply = serde_json::from_value(json!({
            "content": [{"type": "tool_use", "id": "t", "name": "shell", "input": "ls"}],
            "stop_reason": "tool_use"
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(response(reply, "m").is_err());
    }
}
