//! Per-hook settings that change how results are read.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What a hook is allowed to do (Meerkat's capability model, enforced by the aggregator).
///
/// | capability | verdicts (`allow`/`ask`/`deny`, `continue: false`) | rewrites (`updated_*`, patches) |
/// |---|---|---|
/// | `observe` | dropped | dropped |
/// | `guardrail` | yes | yes (docker-agent's hooks do both) |
/// | `restrict` | `ask`/`deny` only | yes |
/// | `rewrite` | dropped | yes |
///
/// Context, system messages and metadata are never restricted; a rewrite still has to be one
/// the event's contract takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Capability {
    /// Read-only: any verdict or rewrite it returns is dropped (and noted in the trace).
    Observe,
    /// May allow, ask or deny, and rewrite.
    #[default]
    Guardrail,
    /// May ask or deny, never allow: an `allow` it returns is dropped (and noted). What an
    /// untrusted project's built-in hooks get, so a cloned repository can add checks but never
    /// approve a call on the user's behalf.
    Restrict,
    /// May rewrite (tool input, tool response, messages, prompt, summary — where the event
    /// allows it), never decide: a verdict it returns is dropped (and noted). Meerkat's
    /// `rewrite` capability.
    Rewrite,
}

impl Capability {
    /// True when its verdicts count.
    pub const fn may_decide(self) -> bool {
        matches!(self, Self::Guardrail | Self::Restrict)
    }

    /// True when its rewrites count.
    pub const fn may_rewrite(self) -> bool {
        !matches!(self, Self::Observe)
    }

    /// The config word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Observe => "observe",
            Self::Guardrail => "guardrail",
            Self::Restrict => "restrict",
            Self::Rewrite => "rewrite",
        }
    }
}

/// Whether the dispatch waits for the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Runs before the outcome is known; its result counts.
    #[default]
    Foreground,
    /// Runs detached, bounded by a concurrency limit; must be `observe`.
    Background,
}

/// What a failing hook does on an event that is not fail-closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnError {
    /// Continue, and surface the failure as a system message.
    #[default]
    Warn,
    /// Continue; the failure is still in the trace and the lifecycle stream.
    Ignore,
    /// Block where the event can block (elsewhere: a warning).
    Block,
}

/// How the verdicts of one event's hooks combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChainMode {
    /// Every hook runs (a deny short-circuits); `allow` is advisory, the strictest verdict wins.
    #[default]
    All,
    /// The Go SDK's chain: the first `allow` or `deny` (or `ask`) ends it; `continue` passes on.
    FirstDecision,
}

/// Which runtime executed a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuntimeKind {
    /// A Rust closure registered by name.
    InProcess,
    /// A subprocess.
    Command,
    /// An HTTP endpoint.
    Http,
    /// A named built-in.
    Builtin,
    /// An LLM judge (`type: model`).
    Model,
}

impl RuntimeKind {
    /// The runtime's config name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InProcess => "in_process",
            Self::Command => "command",
            Self::Http => "http",
            Self::Builtin => "builtin",
            Self::Model => "model",
        }
    }
}

impl fmt::Display for RuntimeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
