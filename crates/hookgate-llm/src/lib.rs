//! The model boundary of hookgate: the one place that knows how to talk to a language model.
//!
//! Two consumers share it — the reference runtime (`hookgate run`), which drives a whole agent
//! loop through [`Model::complete`], and `type: model` hooks (an LLM judge), which make one
//! schema'd call per hook. Keeping both on one contract means one set of wire clients, one
//! redaction point and one place where a provider's quirks are handled.
//!
//! Invariant: nothing above this crate parses a provider's wire format. A provider's reply is
//! turned into a [`ChatResponse`] here or it is an [`LlmError`]; callers never see raw JSON.

mod anthropic;
#[cfg(feature = "mock-server")]
pub mod mock_server;
mod openai;
mod remote;
mod script;
mod spec;

pub use remote::{
    DEFAULT_TIMEOUT, RemoteOptions, is_loopback_url, key_variable, remote, remote_with,
};
pub use script::ScriptModel;
pub use spec::{ModelSpec, Provider};

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who said a message in the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Instructions from the runtime or the hook author.
    System,
    /// The human (or the scripted prompt).
    User,
    /// The model.
    Assistant,
    /// The result of a tool call, answering one [`ToolCall`] by id.
    Tool,
}

/// One tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for this call; a tool result answers it by this id.
    pub id: String,
    /// The tool's name as offered in [`ToolSpec::name`].
    pub name: String,
    /// The arguments, already decoded from the provider's encoding (OpenAI sends a JSON string).
    pub input: Value,
}

/// One message of the conversation, in provider-neutral form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who said it.
    pub role: Role,
    /// Plain text (may be empty for an assistant turn that only calls tools).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Tool calls made in this (assistant) message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For [`Role::Tool`]: the id of the call this message answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For [`Role::Tool`]: whether the tool failed (Anthropic's `is_error`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

impl Message {
    /// A plain-text message.
    #[must_use]
    pub fn text(role: Role, text: impl Into<String>) -> Self {
        Self {
            role,
            text: text.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            is_error: false,
        }
    }

    /// A tool result answering `call_id`.
    #[must_use]
    pub fn tool_result(
        call_id: impl Into<String>,
        output: impl Into<String>,
        is_error: bool,
    ) -> Self {
        Self {
            role: Role::Tool,
            text: output.into(),
            tool_calls: Vec::new(),
            tool_call_id: Some(call_id.into()),
            is_error,
        }
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// The name the model calls it by (docker-agent's names in `hookgate run`).
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// JSON Schema of the tool's input object.
    pub input_schema: Value,
}

/// One request to a model.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The conversation so far (system messages first).
    pub messages: Vec<Message>,
    /// Tools offered for this turn; empty for a plain completion.
    #[serde(default)]
    pub tools: Vec<ToolSpec>,
    /// When set, the reply text must be one JSON value matching this schema (used by the LLM
    /// judge). Providers that support structured output get it natively; others get it in the
    /// system prompt and the reply is validated by the caller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Value>,
    /// Upper bound on generated tokens, when the caller wants one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
}

/// Token accounting as the provider reported it (zero when it reported nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Generated tokens.
    pub output_tokens: u64,
}

/// Why the model stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// A final answer: the agent loop ends its turn.
    EndTurn,
    /// The model asked for tools: run them and call again.
    ToolUse,
    /// The output budget ran out.
    MaxTokens,
    /// Anything else the provider said (kept so nothing is silently mapped to `EndTurn`).
    Other,
}

/// One reply from a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    /// The assistant message (text and/or tool calls).
    pub message: Message,
    /// Why it stopped.
    pub stop_reason: StopReason,
    /// Tokens used by this call.
    pub usage: Usage,
    /// The model name the provider reported (or the configured one).
    pub model: String,
    /// What the call cost in USD, when it is known: the provider's own figure (OpenRouter and
    /// LiteLLM-style OpenAI-compatible servers report `usage.cost`), `0` for the scripted
    /// model. `None` means unpriced: hookgate keeps no price table, since a stale one would
    /// report a wrong cost as if it were right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

/// Everything that can go wrong at the model boundary. Callers choose the outcome: the agent
/// loop fires `on_error`; a judge on a guard event fails closed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// The model spec (`script:FILE`, `openai:URL#MODEL`, `anthropic:URL#MODEL`) is malformed.
    #[error("invalid model spec `{spec}`: {reason}")]
    Spec {
        /// The spec as given.
        spec: String,
        /// What was wrong with it.
        reason: String,
    },
    /// A script file could not be read or parsed.
    #[error("model script {path}: {reason}")]
    Script {
        /// The script path.
        path: String,
        /// What was wrong.
        reason: String,
    },
    /// A required API key variable is not set.
    #[error("{variable} is not set (the {provider} model needs an API key)")]
    MissingKey {
        /// The provider name.
        provider: &'static str,
        /// The environment variable that was looked up.
        variable: &'static str,
    },
    /// The request could not be sent or the reply not received (network, timeout, size).
    #[error("{provider} request failed: {source}")]
    Transport {
        /// The provider name.
        provider: &'static str,
        /// The transport's error.
        #[source]
        source: hookgate_transport::TransportError,
    },
    /// The provider answered with a non-success status.
    #[error("{provider} answered HTTP {status}: {body}")]
    Status {
        /// The provider name.
        provider: &'static str,
        /// The HTTP status.
        status: u16,
        /// A short preview of the body.
        body: String,
    },
    /// The provider's reply did not have the documented shape.
    #[error("{provider} reply not understood: {reason}")]
    Protocol {
        /// The provider name.
        provider: &'static str,
        /// What was missing or wrong.
        reason: String,
    },
}

/// A boxed future, so [`Model`] stays object-safe without an extra dependency.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A language model: one request in, one reply out.
///
/// Implementations: the scripted model (`script:FILE`, offline, the default for tests and
/// demos), OpenAI (Chat Completions and Responses) and Anthropic (Messages).
pub trait Model: Send + Sync + std::fmt::Debug {
    /// The name this model reports in events (`before_llm_call.model`).
    fn name(&self) -> &str;

    /// Sends one request.
    ///
    /// # Errors
    /// An [`LlmError`] for every failure; no implementation returns a made-up reply.
    fn complete<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, LlmError>>;

    /// Where the model is served, for hooks that act on the endpoint (docker-agent's `unload`
    /// reads it from `from_agent_models`). `None` for a model served by nothing (the scripted
    /// one): nothing is invented.
    fn endpoint(&self) -> Option<ModelEndpoint> {
        None
    }
}

/// A model's endpoint, as hooks see it in `from_agent_models`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelEndpoint {
    /// [`Provider::name`]: `openai`, `openai-responses`, `anthropic` or `dmr`.
    pub provider: &'static str,
    /// The base URL requests go to.
    pub base_url: String,
}

/// The scripted model for `script:FILE` (offline; see [`ScriptModel`]).
///
/// # Errors
/// [`LlmError::Script`] when the file cannot be read or is not a script.
pub fn script(path: &std::path::Path) -> Result<ScriptModel, LlmError> {
    ScriptModel::from_file(path)
}
