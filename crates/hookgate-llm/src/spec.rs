//! The model spec users write: `script:FILE`, `openai:BASE_URL#MODEL`, `anthropic:BASE_URL#MODEL`,
//! `dmr:BASE_URL#MODEL`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::LlmError;

/// Which wire protocol a model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI Chat Completions (`/chat/completions`).
    OpenAiChat,
    /// OpenAI Responses (`/responses`).
    OpenAiResponses,
    /// Anthropic Messages (`/v1/messages`).
    Anthropic,
    /// Docker Model Runner: OpenAI Chat Completions served by a local runner, which frees a
    /// model's memory on `POST <base without /v1>/_unload` (docker-agent's `unload` built-in
    /// acts on models of this provider only).
    DockerModelRunner,
}

impl Provider {
    /// The provider's name in specs, errors and `from_agent_models` (`openai`, `dmr`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Self::OpenAiChat => "openai",
            Self::OpenAiResponses => "openai-responses",
            Self::Anthropic => "anthropic",
            Self::DockerModelRunner => "dmr",
        }
    }
}

/// A parsed model spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSpec {
    /// A JSON script of turns, in `../shared/e2e/mock_llm.py`'s format; no network.
    Script(PathBuf),
    /// A model behind an HTTP API.
    Remote {
        /// The wire protocol.
        provider: Provider,
        /// The base URL (e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`).
        base_url: String,
        /// The model name sent in each request.
        model: String,
    },
}

impl FromStr for ModelSpec {
    type Err = LlmError;

    /// Parses `script:FILE`, `openai:URL#MODEL`, `openai-responses:URL#MODEL` or
    /// `anthropic:URL#MODEL`. A spec with no scheme is an error rather than a guess, so a typo
    /// never silently selects a network model.
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let bad = |reason: &str| LlmError::Spec {
            spec: spec.to_owned(),
            reason: reason.to_owned(),
        };
        let (scheme, rest) = spec
            .split_once(':')
            .ok_or_else(|| bad("expected script:FILE, openai:URL#MODEL or anthropic:URL#MODEL"))?;
        let provider = match scheme {
            "script" => {
                if rest.is_empty() {
                    return Err(bad("script: needs a file"));
                }
                return Ok(Self::Script(PathBuf::from(rest)));
            }
            "openai" => Provider::OpenAiChat,
            "openai-responses" => Provider::OpenAiResponses,
            "anthropic" => Provider::Anthropic,
            "dmr" => Provider::DockerModelRunner,
            _ => {
                return Err(bad(
                    "unknown scheme (script, openai, openai-responses, anthropic, dmr)",
                ));
            }
        };
        let (base_url, model) = rest
            .rsplit_once('#')
            .ok_or_else(|| bad("expected URL#MODEL after the scheme"))?;
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(bad("the base URL must start with http:// or https://"));
        }
        if model.is_empty() {
            return Err(bad("the model name after # is empty"));
        }
        Ok(Self::Remote {
            provider,
            base_url: base_url.trim_end_matches('/').to_owned(),
            model: model.to_owned(),
        })
    }
}

impl fmt::Display for ModelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Script(path) => write!(f, "script:{}", path.display()),
            Self::Remote {
                provider,
                base_url,
                model,
            } => write!(f, "{}:{base_url}#{model}", provider.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_without_a_scheme_is_rejected_not_guessed() {
        assert!("gpt-4o".parse::<ModelSpec>().is_err());
        assert!("openai:api.openai.com#gpt".parse::<ModelSpec>().is_err());
        assert!("openai:http://x/v1#".parse::<ModelSpec>().is_err());
    }

    #[test]
    fn specs_round_trip_through_display() {
        for s in [
            "script:turns.json",
            "openai:http://127.0.0.1:8080/v1#mock-model",
            "openai-responses:https://api.openai.com/v1#gpt-5",
            "anthropic:http://127.0.0.1:9/v1#claude",
            "dmr:http://127.0.0.1:12434/engines/v1#ai/qwen3",
        ] {
            let spec: ModelSpec = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(spec.to_string(), s);
        }
    }
}
