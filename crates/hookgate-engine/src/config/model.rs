//! The one configuration model both file shapes load into.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hookgate_core::{Capability, ChainMode, EventId, HookId, Mode, OnError, RuntimeKind};
use serde::Serialize;

pub use crate::runtime::model::JudgeSchema;

/// Engine-wide settings (Meerkat's `[hooks]` scalars plus hookgate's own).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settings {
    /// Timeout of a hook that sets none.
    pub default_timeout_ms: u64,
    /// Cap on what a hook may print or answer (stdout, stderr, HTTP body), per stream.
    pub payload_max_bytes: usize,
    /// Background hooks running at once; past it new ones are skipped, never queued.
    pub background_max_concurrency: usize,
    /// How verdicts combine (per event, with a default).
    pub chain: ChainMode,
    /// Per-event chain modes overriding `chain`.
    pub chain_per_event: BTreeMap<EventId, ChainMode>,
    /// The shell for command hooks given as a string.
    pub shell: PathBuf,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            default_timeout_ms: 60_000,
            payload_max_bytes: 128 * 1024,
            background_max_concurrency: 32,
            chain: ChainMode::All,
            chain_per_event: BTreeMap::new(),
            shell: PathBuf::from("/bin/sh"),
        }
    }
}

impl Settings {
    /// The chain mode of `event`.
    pub fn chain_for(&self, event: EventId) -> ChainMode {
        self.chain_per_event
            .get(&event)
            .copied()
            .unwrap_or(self.chain)
    }
}

/// How a hook runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RuntimeSpec {
    /// A Rust closure registered on the engine under `handler`.
    InProcess {
        /// The registered handler name.
        handler: String,
    },
    /// A subprocess: `args` present means exec form (no shell); absent means `shell -c command`.
    Command {
        /// The shell string, or the program in exec form.
        command: String,
        /// Exec-form arguments.
        #[serde(skip_serializing_if = "Option::is_none")]
        args: Option<Vec<String>>,
        /// Extra environment; values expand `${env.X}`.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        env: BTreeMap<String, String>,
        /// Working directory; expands `~`, `$VAR`, `${VAR}`, `${env.VAR}`.
        #[serde(skip_serializing_if = "Option::is_none")]
        working_dir: Option<String>,
    },
    /// An HTTP endpoint.
    Http {
        /// The URL.
        url: String,
        /// The method (POST by default).
        method: String,
        /// Extra headers; values expand `$X`, `${X}` and `${env.X}`.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        headers: BTreeMap<String, String>,
    },
    /// A named built-in with arguments.
    Builtin {
        /// The built-in's registered name.
        name: String,
        /// Its arguments.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
        /// Extra environment for built-ins that run programs.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        env: BTreeMap<String, String>,
        /// Working directory for built-ins that run programs.
        #[serde(skip_serializing_if = "Option::is_none")]
        working_dir: Option<String>,
    },
    /// An LLM judge (docker-agent's `type: model`).
    Model {
        /// `openai/NAME` or `anthropic/NAME`.
        model: String,
        /// The prompt template over the hook input.
        prompt: String,
        /// How the reply is read; `None`: it becomes additional context.
        #[serde(skip_serializing_if = "Option::is_none")]
        schema: Option<JudgeSchema>,
        /// The endpoint; `None`: `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL` or the public API.
        #[serde(skip_serializing_if = "Option::is_none")]
        base_url: Option<String>,
    },
}

impl RuntimeSpec {
    /// The runtime's kind.
    pub fn kind(&self) -> RuntimeKind {
        match self {
            Self::InProcess { .. } => RuntimeKind::InProcess,
            Self::Command { .. } => RuntimeKind::Command,
            Self::Http { .. } => RuntimeKind::Http,
            Self::Builtin { .. } => RuntimeKind::Builtin,
            Self::Model { .. } => RuntimeKind::Model,
        }
    }
}

/// Where an entry came from, for error messages and `config check`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// The file, or `None` for entries added in code or by overrides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// Which layer it came from.
    pub layer: Layer,
}

/// Config layers, lowest precedence first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// `~/.config/hookgate/`.
    User,
    /// `.hookgate/` of the project.
    Project,
    /// `.hookgate/hooks.d/*.yaml`.
    DropIn,
    /// Files named with `--config`.
    Explicit,
    /// Per-run overrides.
    Override,
    /// Added in code.
    #[default]
    Code,
}

/// One configured hook.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookEntry {
    /// Unique id. Generated (`<event>/<n>`) when the file gives none.
    pub id: HookId,
    /// True when the id was written in the config (generated ids never clash).
    #[serde(skip)]
    pub id_explicit: bool,
    /// A display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Disabled entries are loaded (and validated) but never run.
    pub enabled: bool,
    /// The event it runs on.
    pub event: EventId,
    /// Full-match regex over the tool name; `None` matches every tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// Foreground or background.
    pub mode: Mode,
    /// Observe or guardrail.
    pub capability: Capability,
    /// Lower runs first.
    pub priority: i32,
    /// Overrides the default timeout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// What a failure means off fail-closed events.
    pub on_error: OnError,
    /// Reject unknown output fields and outputs the event cannot use.
    pub strict_output: bool,
    /// How it runs.
    pub runtime: RuntimeSpec,
    /// For an entry written in Meerkat's shape (an `entries` item): the Meerkat point it is
    /// delivered as. Its command and HTTP runtimes then receive Meerkat's `HookInvocation`
    /// (`hookgate_core::meerkat`) instead of docker-agent's input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meerkat_point: Option<String>,
    /// Where it came from.
    pub origin: Origin,
}

impl HookEntry {
    /// A foreground guardrail entry with defaults, for building configs in code.
    pub fn new(id: impl Into<HookId>, event: EventId, runtime: RuntimeSpec) -> Self {
        Self {
            id: id.into(),
            id_explicit: true,
            name: None,
            enabled: true,
            event,
            matcher: None,
            mode: Mode::Foreground,
            capability: Capability::Guardrail,
            priority: 100,
            timeout_ms: None,
            on_error: OnError::Warn,
            strict_output: false,
            runtime,
            meerkat_point: None,
            origin: Origin::default(),
        }
    }

    /// Structural identity for deduplication: every field that changes behaviour, with
    /// generated ids and origins left out (the same hook loaded from two layers is one hook).
    pub(crate) fn same_hook_as(&self, other: &Self) -> bool {
        (self.id == other.id || (!self.id_explicit && !other.id_explicit))
            && self.name == other.name
            && self.enabled == other.enabled
            && self.event == other.event
            && self.matcher == other.matcher
            && self.mode == other.mode
            && self.capability == other.capability
            && self.priority == other.priority
            && self.timeout_ms == other.timeout_ms
            && self.on_error == other.on_error
            && self.strict_output == other.strict_output
            && self.runtime == other.runtime
            && self.meerkat_point == other.meerkat_point
    }
}

/// The effective configuration: settings plus entries in registration order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HooksConfig {
    /// Engine-wide settings.
    pub settings: Settings,
    /// Entries in registration order.
    pub entries: Vec<HookEntry>,
}

/// Per-run changes: ids to disable and entries to append (Meerkat's `HookRunOverrides`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOverrides {
    /// Ids removed for this run.
    pub disable: Vec<HookId>,
    /// Entries appended after the remaining base entries.
    pub entries: Vec<HookEntry>,
}
