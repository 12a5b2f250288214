//! The on-disk shapes, deserialized with validation that happens *inside* deserialization, so
//! the YAML or TOML parser attaches the line and column of the offending field to the error.
//!
//! One schema serves both syntaxes: the `hooks` table takes Meerkat's scalars
//! (`default_timeout_ms`, `payload_max_bytes`, `background_max_concurrency`), Meerkat's
//! `entries` list, and docker-agent's event keys (`pre_tool_use: [...]`) side by side.

use std::collections::BTreeMap;
use std::fmt;

use hookgate_core::{Capability, ChainMode, EventId, Mode, OnError, resolve_event};
use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use super::model::{JudgeSchema, RuntimeSpec};

/// A whole config file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFile {
    /// Schema version; only 1 exists.
    #[serde(default)]
    pub version: Option<u32>,
    #[serde(default)]
    pub hooks: RawHooks,
    /// docker-agent's agent-level `snapshot: true` (see `shorthand`).
    #[serde(default)]
    pub snapshot: bool,
    /// docker-agent's agent-level `add_date: true` (see `shorthand`).
    #[serde(default)]
    pub add_date: bool,
    /// docker-agent's agent-level `redact_secrets: true` (see `shorthand`).
    #[serde(default)]
    pub redact_secrets: bool,
}

/// The `hooks` table.
#[derive(Debug, Default)]
pub(crate) struct RawHooks {
    pub default_timeout_ms: Option<u64>,
    pub payload_max_bytes: Option<usize>,
    pub background_max_concurrency: Option<usize>,
    pub chain: Option<ChainMode>,
    pub chain_per_event: BTreeMap<EventId, ChainMode>,
    pub shell: Option<String>,
    /// Meerkat-shaped entries, each naming its event.
    pub entries: Vec<RawHook>,
    /// docker-agent-shaped lists, keyed by event, in file order.
    pub events: Vec<(EventId, Vec<RawHook>)>,
}

const SETTINGS: &[&str] = &[
    "default_timeout_ms",
    "payload_max_bytes",
    "background_max_concurrency",
    "chain",
    "chain_per_event",
    "shell",
    "entries",
];

impl<'de> Deserialize<'de> for RawHooks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct HooksVisitor;
        impl<'de> Visitor<'de> for HooksVisitor {
            type Value = RawHooks;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of settings, `entries` and event names")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawHooks, A::Error> {
                let mut out = RawHooks::default();
                let mut seen: Vec<String> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if seen.contains(&key) {
                        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
                    }
                    seen.push(key.clone());
                    match key.as_str() {
                        "default_timeout_ms" => out.default_timeout_ms = Some(map.next_value()?),
                        "payload_max_bytes" => out.payload_max_bytes = Some(map.next_value()?),
                        "background_max_concurrency" => {
                            out.background_max_concurrency = Some(map.next_value()?);
                        }
                        "chain" => out.chain = Some(map.next_value()?),
                        "chain_per_event" => {
                            let raw: BTreeMap<EventName, ChainMode> = map.next_value()?;
                            out.chain_per_event = raw.into_iter().map(|(k, v)| (k.0, v)).collect();
                        }
                        "shell" => out.shell = Some(map.next_value()?),
                        "entries" => out.entries = map.next_value::<OneOrMany<RawHook>>()?.0,
                        other => {
                            let Some(event) = resolve_event(other) else {
                                return Err(de::Error::custom(format_args!(
                                    "unknown field `{other}`: expected an event name (see `hookgate events`) or one of {}",
                                    SETTINGS.join(", ")
                                )));
                            };
                            if out.events.iter().any(|(e, _)| *e == event) {
                                return Err(de::Error::custom(format_args!(
                                    "event `{}` is listed twice (as `{other}`)",
                                    event.name()
                                )));
                            }
                            let hooks = map.next_value::<OneOrMany<RawHook>>()?.0;
                            out.events.push((event, hooks));
                        }
                    }
                }
                Ok(out)
            }
        }
        deserializer.deserialize_map(HooksVisitor)
    }
}

/// A list, or a single mapping where a list is expected (docker-agent #3536).
#[derive(Debug)]
pub(crate) struct OneOrMany<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = OneOrMany<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of hooks or a single hook")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                Vec::<T>::deserialize(SeqAccessDeserializer::new(seq)).map(OneOrMany)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(|one| OneOrMany(vec![one]))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(OneOrMany(Vec::new()))
            }
        }
        deserializer.deserialize_any(V(std::marker::PhantomData))
    }
}

/// An event name in any vocabulary, resolved while parsing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct EventName(pub EventId, pub String);

impl<'de> Deserialize<'de> for EventName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        resolve_event(&name)
            .map(|e| EventName(e, name.clone()))
            .ok_or_else(|| {
                de::Error::custom(format_args!(
                    "unknown event `{name}` (see `hookgate events`)"
                ))
            })
    }
}

/// A tool-name matcher, checked for regex syntax while parsing.
///
/// INVARIANT: an invalid matcher is a config error, never a silently dropped guard (the bug
/// that let a typo remove a docker-agent guard).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Matcher(pub Option<String>);

impl<'de> Deserialize<'de> for Matcher {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let pattern = String::deserialize(deserializer)?;
        if pattern.is_empty() || pattern == "*" {
            return Ok(Self(None));
        }
        crate::matcher::check_syntax(&pattern).map_err(de::Error::custom)?;
        Ok(Self(Some(pattern)))
    }
}

/// A timeout in seconds (docker-agent's `timeout`), integer or fractional.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Seconds(pub u64);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = f64;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of seconds, or a string such as \"${env.HOOK_TIMEOUT}\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
                Ok(v)
            }
            #[allow(clippy::cast_precision_loss, reason = "timeouts are far below 2^52 s")]
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
                Ok(v as f64)
            }
            #[allow(clippy::cast_precision_loss, reason = "timeouts are far below 2^52 s")]
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
                Ok(v as f64)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
                // `timeout: "${env.HOOK_TIMEOUT}"` is expanded once, at load time.
                let text =
                    super::expand::expand_path(v, &super::expand::ProcessEnv).map_err(E::custom)?;
                text.trim().parse::<f64>().map_err(|_| {
                    E::custom(format_args!(
                        "`timeout` must be a number of seconds, got `{text}`"
                    ))
                })
            }
        }
        let value = deserializer.deserialize_any(V)?;
        if !value.is_finite() || value <= 0.0 || value > 86_400.0 {
            return Err(de::Error::custom(format_args!(
                "`timeout` must be between 0 and 86400 seconds, got {value}"
            )));
        }
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "range checked above"
        )]
        let ms = (value * 1000.0).round() as u64;
        Ok(Self(ms))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RuntimeType {
    Command,
    Builtin,
    Http,
    InProcess,
    Model,
}

/// Meerkat's compatibility field, mapped onto `on_error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum FailurePolicy {
    FailOpen,
    FailClosed,
}

/// Meerkat's nested `runtime` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuntime {
    #[serde(rename = "type")]
    kind: Option<RuntimeType>,
    command: Option<String>,
    args: Option<Vec<String>>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    working_dir: Option<String>,
    url: Option<String>,
    method: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(alias = "name")]
    handler: Option<String>,
    model: Option<String>,
    prompt: Option<String>,
    schema: Option<JudgeSchema>,
    base_url: Option<String>,
}

/// Every field a hook, a matcher group or a Meerkat entry may carry.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHookFields {
    id: Option<String>,
    name: Option<String>,
    enabled: Option<bool>,
    #[serde(alias = "point")]
    event: Option<EventName>,
    matcher: Option<Matcher>,
    hooks: Option<OneOrMany<RawHook>>,
    preempt_yolo: Option<bool>,
    mode: Option<Mode>,
    capability: Option<Capability>,
    priority: Option<i32>,
    timeout: Option<Seconds>,
    timeout_ms: Option<u64>,
    on_error: Option<OnError>,
    failure_policy: Option<FailurePolicy>,
    strict_output: Option<bool>,
    #[serde(rename = "type")]
    kind: Option<RuntimeType>,
    runtime: Option<RawRuntime>,
    command: Option<String>,
    args: Option<Vec<String>>,
    env: Option<BTreeMap<String, String>>,
    working_dir: Option<String>,
    url: Option<String>,
    method: Option<String>,
    headers: Option<BTreeMap<String, String>>,
    handler: Option<String>,
    model: Option<String>,
    prompt: Option<String>,
    schema: Option<JudgeSchema>,
    base_url: Option<String>,
}

/// One hook as written, validated for everything that does not depend on where it sits.
#[derive(Debug)]
pub(crate) struct RawHook {
    pub id: Option<String>,
    pub name: Option<String>,
    pub enabled: Option<bool>,
    pub event: Option<EventId>,
    /// The event name as written (a Meerkat entry is delivered under its own point's name).
    pub point_name: Option<String>,
    pub matcher: Option<Matcher>,
    pub mode: Option<Mode>,
    pub capability: Option<Capability>,
    pub priority: Option<i32>,
    pub timeout_ms: Option<u64>,
    pub on_error: Option<OnError>,
    pub strict_output: Option<bool>,
    pub body: Body,
}

/// A hook proper, or a matcher group of hooks.
#[derive(Debug)]
pub(crate) enum Body {
    Hook(RuntimeSpec),
    Group(Vec<RawHook>),
}

impl<'de> Deserialize<'de> for RawHook {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = RawHookFields::deserialize(deserializer)?;
        RawHook::try_from(fields).map_err(de::Error::custom)
    }
}

fn need(value: Option<String>, field: &str, kind: &str) -> Result<String, String> {
    match value {
        Some(v) if !v.trim().is_empty() => Ok(v),
        _ => Err(format!("a `{kind}` hook needs `{field}`")),
    }
}

impl TryFrom<RawHookFields> for RawHook {
    type Error = String;

    fn try_from(f: RawHookFields) -> Result<Self, String> {
        if f.timeout.is_some() && f.timeout_ms.is_some() {
            return Err("set `timeout` (seconds) or `timeout_ms`, not both".to_owned());
        }
        if f.on_error.is_some() && f.failure_policy.is_some() {
            return Err("set `on_error` or `failure_policy`, not both".to_owned());
        }
        if f.mode == Some(Mode::Background)
            && f.capability.is_some_and(|c| c != Capability::Observe)
        {
            return Err(
                "background hooks must be `observe`: they can neither block nor rewrite after the agent moved on"
                    .to_owned(),
            );
        }
        if matches!(f.id.as_deref(), Some(id) if id.trim().is_empty()) {
            return Err("`id` must not be empty".to_owned());
        }
        let on_error = f.on_error.or(match f.failure_policy {
            Some(FailurePolicy::FailClosed) => Some(OnError::Block),
            Some(FailurePolicy::FailOpen) => Some(OnError::Warn),
            None => None,
        });
        // `preempt_yolo` is accepted for docker-agent files: hookgate's pre_tool_use always runs
        // before any approval, so every entry already has the behaviour it asks for.
        let _ = f.preempt_yolo;

        let body = if let Some(group) = f.hooks {
            let runtime_fields = f.kind.is_some()
                || f.runtime.is_some()
                || f.command.is_some()
                || f.url.is_some()
                || f.handler.is_some();
            if runtime_fields {
                return Err("a matcher group (`hooks:`) cannot also define a runtime; put it in one of its hooks".to_owned());
            }
            Body::Group(group.0)
        } else {
            Body::Hook(runtime_spec(&f)?)
        };
        Ok(RawHook {
            id: f.id,
            name: f.name,
            enabled: f.enabled,
            point_name: f.event.as_ref().map(|e| e.1.clone()),
            event: f.event.map(|e| e.0),
            matcher: f.matcher,
            mode: f.mode,
            capability: f.capability,
            priority: f.priority,
            timeout_ms: f.timeout.map(|s| s.0).or(f.timeout_ms),
            on_error,
            strict_output: f.strict_output,
            body,
        })
    }
}

fn runtime_spec(f: &RawHookFields) -> Result<RuntimeSpec, String> {
    let nested = f.runtime.as_ref();
    if nested.is_some()
        && (f.kind.is_some()
            || f.command.is_some()
            || f.url.is_some()
            || f.handler.is_some()
            || f.model.is_some()
            || f.prompt.is_some())
    {
        return Err(
            "define the runtime either in `runtime` or at the top of the hook, not both".to_owned(),
        );
    }
    let r = match nested {
        Some(r) => RawRuntime {
            kind: r.kind,
            command: r.command.clone(),
            args: r.args.clone(),
            env: r.env.clone(),
            working_dir: r.working_dir.clone(),
            url: r.url.clone(),
            method: r.method.clone(),
            headers: r.headers.clone(),
            handler: r.handler.clone(),
            model: r.model.clone(),
            prompt: r.prompt.clone(),
            schema: r.schema,
            base_url: r.base_url.clone(),
        },
        None => RawRuntime {
            kind: f.kind,
            command: f.command.clone(),
            args: f.args.clone(),
            env: f.env.clone().unwrap_or_default(),
            working_dir: f.working_dir.clone(),
            url: f.url.clone(),
            method: f.method.clone(),
            headers: f.headers.clone().unwrap_or_default(),
            handler: f.handler.clone(),
            model: f.model.clone(),
            prompt: f.prompt.clone(),
            schema: f.schema,
            base_url: f.base_url.clone(),
        },
    };
    let kind = r.kind.ok_or_else(|| {
        "a hook needs `type` (command, builtin, http, in_process, model), or `hooks:` for a matcher group".to_owned()
    })?;
    let stray = |field: &str, present: bool| -> Result<(), String> {
        if present {
            Err(format!(
                "`{field}` does not apply to a `{}` hook",
                kind_name(kind)
            ))
        } else {
            Ok(())
        }
    };
    if kind != RuntimeType::Model {
        stray("model", r.model.is_some())?;
        stray("prompt", r.prompt.is_some())?;
        stray("schema", r.schema.is_some())?;
        stray("base_url", r.base_url.is_some())?;
    }
    match kind {
        RuntimeType::Command => {
            stray("url", r.url.is_some())?;
            stray("method", r.method.is_some())?;
            stray("headers", !r.headers.is_empty())?;
            stray("handler", r.handler.is_some())?;
            Ok(RuntimeSpec::Command {
                command: need(r.command, "command", "command")?,
                args: r.args,
                env: r.env,
                working_dir: r.working_dir,
            })
        }
        RuntimeType::Builtin => {
            stray("url", r.url.is_some())?;
            stray("method", r.method.is_some())?;
            stray("headers", !r.headers.is_empty())?;
            stray("handler", r.handler.is_some())?;
            Ok(RuntimeSpec::Builtin {
                name: need(r.command, "command` (the built-in's name", "builtin")?,
                args: r.args.unwrap_or_default(),
                env: r.env,
                working_dir: r.working_dir,
            })
        }
        RuntimeType::Http => {
            stray("command", r.command.is_some())?;
            stray("args", r.args.is_some())?;
            stray("env", !r.env.is_empty())?;
            stray("working_dir", r.working_dir.is_some())?;
            stray("handler", r.handler.is_some())?;
            let url = need(r.url, "url", "http")?;
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!(
                    "`url` must start with http:// or https://, got `{url}`"
                ));
            }
            let method = r
                .method
                .unwrap_or_else(|| "POST".to_owned())
                .to_ascii_uppercase();
            if !matches!(method.as_str(), "GET" | "POST" | "PUT" | "PATCH" | "DELETE") {
                return Err(format!("unsupported HTTP `method` `{method}`"));
            }
            Ok(RuntimeSpec::Http {
                url,
                method,
                headers: r.headers,
            })
        }
        RuntimeType::InProcess => {
            stray("command", r.command.is_some())?;
            stray("url", r.url.is_some())?;
            Ok(RuntimeSpec::InProcess {
                handler: need(r.handler, "handler", "in_process")?,
            })
        }
        RuntimeType::Model => {
            stray("command", r.command.is_some())?;
            stray("args", r.args.is_some())?;
            stray("env", !r.env.is_empty())?;
            stray("working_dir", r.working_dir.is_some())?;
            stray("url", r.url.is_some())?;
            stray("method", r.method.is_some())?;
            stray("headers", !r.headers.is_empty())?;
            stray("handler", r.handler.is_some())?;
            let model = need(r.model, "model", "model")?;
            let prompt = need(r.prompt, "prompt", "model")?;
            crate::runtime::model::validate(&model, &prompt, r.base_url.as_deref())?;
            Ok(RuntimeSpec::Model {
                model,
                prompt,
                schema: r.schema,
                base_url: r.base_url,
            })
        }
    }
}

fn kind_name(kind: RuntimeType) -> &'static str {
    match kind {
        RuntimeType::Command => "command",
        RuntimeType::Builtin => "builtin",
        RuntimeType::Http => "http",
        RuntimeType::InProcess => "in_process",
        RuntimeType::Model => "model",
    }
}
