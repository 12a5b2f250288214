//! Building an HTTP model from a [`ModelSpec`]: key lookup, the loopback exemption and the one
//! POST every wire client makes.
//!
//! Invariant: an API key is only ever sent to the endpoint it was configured for, in a header,
//! and never appears in an error; a remote (non-loopback) endpoint without a key is refused
//! before any byte leaves the machine ([`LlmError::MissingKey`]).

use std::net::IpAddr;
use std::time::Duration;

use hookgate_transport::{HttpSpec, Limits, TransportError, send_http};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::anthropic::AnthropicModel;
use crate::openai::{OpenAiApi, OpenAiModel};
use crate::{LlmError, Model, ModelSpec, Provider};

/// Default deadline of one model call (connect, send, whole reply). Generous: a real model may
/// take tens of seconds for a long turn; a judge hook passes its own, shorter, timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// Largest reply body accepted from a provider (a bound on memory, not a product limit).
const MAX_REPLY_BYTES: usize = 8 * 1024 * 1024;

/// How to reach one remote model, beyond what the spec says.
#[derive(Clone, Default)]
pub struct RemoteOptions {
    /// The API key. `None` is allowed only for a loopback base URL (a local Ollama or llama.cpp
    /// server needs none).
    pub api_key: Option<String>,
    /// Deadline of one call; `None` means [`DEFAULT_TIMEOUT`].
    pub timeout: Option<Duration>,
}

impl std::fmt::Debug for RemoteOptions {
    /// The key is never printed, not even in debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteOptions")
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// The environment variable holding the key for `provider`.
#[must_use]
pub fn key_variable(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAiChat | Provider::OpenAiResponses | Provider::DockerModelRunner => {
            "OPENAI_API_KEY"
        }
        Provider::Anthropic => "ANTHROPIC_API_KEY",
    }
}

/// An HTTP model for `spec`, its key read from `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` (an empty
/// variable counts as unset).
///
/// # Errors
/// [`LlmError::Spec`] for a `script:` spec (the runtime builds scripted models itself);
/// [`LlmError::MissingKey`] when the key is unset and the base URL is not loopback.
pub fn remote(spec: &ModelSpec) -> Result<Box<dyn Model>, LlmError> {
    let api_key = match spec {
        ModelSpec::Remote { provider, .. } => std::env::var(key_variable(*provider))
            .ok()
            .filter(|k| !k.trim().is_empty()),
        ModelSpec::Script(_) => None,
    };
    remote_with(
        spec,
        RemoteOptions {
            api_key,
            timeout: None,
        },
    )
}

/// Like [`remote`], with the key and timeout given instead of read from the environment.
///
/// # Errors
/// As [`remote`].
pub fn remote_with(spec: &ModelSpec, options: RemoteOptions) -> Result<Box<dyn Model>, LlmError> {
    let ModelSpec::Remote {
        provider,
        base_url,
        model,
    } = spec
    else {
        return Err(LlmError::Spec {
            spec: spec.to_string(),
            reason: "a script model is not an HTTP model".to_owned(),
        });
    };
    let provider = *provider;
    let api_key = match options.api_key {
        Some(key) => Some(key),
        None if is_loopback_url(base_url) => None,
        None => {
            return Err(LlmError::MissingKey {
                provider: provider_name(provider),
                variable: key_variable(provider),
            });
        }
    };
    let endpoint = Endpoint {
        provider: provider.name(),
        base_url: base_url.clone(),
        api_key,
        timeout: options.timeout.unwrap_or(DEFAULT_TIMEOUT),
    };
    Ok(match provider {
        Provider::OpenAiChat | Provider::DockerModelRunner => {
            Box::new(OpenAiModel::new(endpoint, model.clone(), OpenAiApi::Chat))
        }
        Provider::OpenAiResponses => Box::new(OpenAiModel::new(
            endpoint,
            model.clone(),
            OpenAiApi::Responses,
        )),
        Provider::Anthropic => Box::new(AnthropicModel::new(endpoint, model.clone())),
    })
}

/// An assistant reply as every wire client builds it: the text and calls it decoded, why the
/// model stopped, its usage and cost (as the provider reported them), and the model the provider named (else the configured one).
pub(crate) fn assistant_reply(
    text: String,
    tool_calls: Vec<crate::ToolCall>,
    stop_reason: crate::StopReason,
    usage: crate::Usage,
    cost: Option<f64>,
    model: Option<String>,
    configured: &str,
) -> crate::ChatResponse {
    crate::ChatResponse {
        message: crate::Message {
            role: crate::Role::Assistant,
            text,
            tool_calls,
            tool_call_id: None,
            is_error: false,
        },
        stop_reason,
        usage,
        model: model.unwrap_or_else(|| configured.to_owned()),
        cost: cost.filter(|c| c.is_finite() && *c >= 0.0),
    }
}

/// The provider's name in errors.
pub(crate) fn provider_name(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAiChat | Provider::OpenAiResponses => "openai",
        Provider::Anthropic => "anthropic",
        Provider::DockerModelRunner => "dmr",
    }
}

/// Whether `url`'s host is a loopback address or `localhost`: the one case where no key is
/// required, because the request cannot leave the machine.
///
/// Parsed from the authority (userinfo and port stripped, IPv6 brackets honoured), so
/// `http://127.0.0.1.evil.com` or `http://user@evil.com#127.0.0.1` is not loopback.
#[must_use]
pub fn is_loopback_url(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, _)) => h,
            None => return false,
        }
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Where and how one remote model is reached.
#[derive(Clone)]
pub(crate) struct Endpoint {
    /// [`Provider::name`], reported by [`crate::Model::endpoint`].
    pub(crate) provider: &'static str,
    pub(crate) base_url: String,
    pub(crate) api_key: Option<String>,
    pub(crate) timeout: Duration,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl Endpoint {
    /// POSTs `body` as JSON to `url` with `headers`, and decodes the 2xx reply as `R`.
    pub(crate) async fn post_json<B: Serialize + Sync, R: DeserializeOwned>(
        &self,
        provider: &'static str,
        url: String,
        headers: Vec<(String, String)>,
        body: &B,
    ) -> Result<R, LlmError> {
        let bytes = serde_json::to_vec(body).map_err(|e| LlmError::Protocol {
            provider,
            reason: format!("request not encodable: {e}"),
        })?;
        let spec = HttpSpec {
            url,
            method: "POST".to_owned(),
            headers,
        };
        let limits = Limits {
            timeout: self.timeout,
            max_output_bytes: MAX_REPLY_BYTES,
            ..Limits::default()
        };
        let output = send_http(&spec, &bytes, &limits)
            .await
            .map_err(|source| match source {
                TransportError::HttpStatus {
                    status,
                    body_preview,
                } => LlmError::Status {
                    provider,
                    status,
                    body: body_preview,
                },
                source => LlmError::Transport { provider, source },
            })?;
        serde_json::from_slice(&output.body).map_err(|e| LlmError::Protocol {
            provider,
            reason: format!("reply is not the documented JSON: {e}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_loopback_host_is_exempt_from_the_key() {
        for url in [
            "http://127.0.0.1:11434/v1",
            "http://localhost:8080/v1",
            "http://[::1]:9/v1",
            "http://127.9.9.9/v1",
            "http://user:pw@127.0.0.1/v1",
        ] {
            assert!(is_loopback_url(url), "{url}");
        }
        for url in [
            "https://api.openai.com/v1",
            "http://127.0.0.1.evil.com/v1",
            "http://127.0.0.1@evil.com/v1",
            "http://10.0.0.1/v1",
            "http://[::1/v1",
            "127.0.0.1",
        ] {
            assert!(!is_loopback_url(url), "{url}");
        }
    }

    #[test]
    fn a_remote_endpoint_without_a_key_is_refused_before_sending() {
        let spec: ModelSpec = "openai:https://api.openai.com/v1#gpt"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = remote_with(&spec, RemoteOptions::default()).unwrap_err();
        assert!(
            matches!(
                err,
                LlmError::MissingKey {
                    variable: "OPENAI_API_KEY",
                    ..
                }
            ),
            "{err}"
        );
        let spec: ModelSpec = "anthropic:https://api.anthropic.com#claude"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        let err = remote_with(&spec, RemoteOptions::default()).unwrap_err();
        assert!(
            matches!(
                err,
                LlmError::MissingKey {
                    variable: "ANTHROPIC_API_KEY",
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn a_loopback_endpoint_needs_no_key() {
        let spec: ModelSpec = "openai:http://127.0.0.1:11434/v1#llama3"
            .parse()
            .unwrap_or_else(|e| panic!("{e}"));
        let model = remote_with(&spec, RemoteOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(model.name(), "llama3");
    }

    #[test]
    fn the_key_never_appears_in_debug_output() {
        let options = RemoteOptions {
            api_key: Some("sk-very-secret".to_owned()),
            timeout: None,
        };
        assert!(!format!("{options:?}").contains("sk-very-secret"));
    }
}
