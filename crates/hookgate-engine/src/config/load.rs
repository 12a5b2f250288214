//! Reading config files, layering them, and applying per-run overrides.

use std::fmt;
use std::path::{Path, PathBuf};

use hookgate_core::{Capability, EventId, HookId, Mode, OnError, RuntimeKind};

use super::model::{HookEntry, HooksConfig, Layer, Origin, RunOverrides, RuntimeSpec, Settings};
use super::raw::{Body, RawFile, RawHook, RawHooks};
use crate::runtime::builtin::BuiltinRegistry;

/// A configuration error: which file, where in it, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    /// The file, when the error comes from one.
    pub file: Option<PathBuf>,
    /// 1-based line, when known.
    pub line: Option<u64>,
    /// 1-based column, when known.
    pub column: Option<u64>,
    /// What was wrong, naming the field.
    pub message: String,
}

impl ConfigError {
    pub(crate) fn new(file: Option<&Path>, message: impl Into<String>) -> Self {
        Self {
            file: file.map(Path::to_path_buf),
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line, self.column) {
            (Some(file), Some(line), Some(col)) => {
                write!(f, "{}:{line}:{col}: {}", file.display(), self.message)
            }
            (Some(file), Some(line), None) => {
                write!(f, "{}:{line}: {}", file.display(), self.message)
            }
            (Some(file), None, _) => write!(f, "{}: {}", file.display(), self.message),
            (None, Some(line), Some(col)) => {
                write!(f, "line {line}, column {col}: {}", self.message)
            }
            _ => f.write_str(&self.message),
        }
    }
}

/// The syntax of a config text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// YAML (also JSON, a subset of it).
    Yaml,
    /// TOML.
    Toml,
}

impl Format {
    /// The format implied by a file name.
    pub fn of(path: &Path) -> Option<Self> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml" | "json") => Some(Self::Yaml),
            Some("toml") => Some(Self::Toml),
            _ => None,
        }
    }
}

/// Hard limits for YAML from files an attacker may control (a cloned repository's
/// `.hookgate/`): no billion laughs, no absurd depth.
fn yaml_options() -> serde_saphyr::Options {
    hookgate_core::yaml::untrusted_options()
}

fn yaml_error(file: Option<&Path>, err: &serde_saphyr::Error) -> ConfigError {
    let e = hookgate_core::yaml::YamlError::from(err);
    ConfigError {
        file: file.map(Path::to_path_buf),
        line: e.line,
        column: e.column,
        message: e.message,
    }
}

fn toml_error(file: Option<&Path>, text: &str, err: &toml::de::Error) -> ConfigError {
    let (line, column) = match err.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            (Some(line as u64), Some(column as u64))
        }
        None => (None, None),
    };
    ConfigError {
        file: file.map(Path::to_path_buf),
        line,
        column,
        message: err.message().to_owned(),
    }
}

/// One parsed file: settings it sets, entries it adds.
#[derive(Debug)]
pub struct ConfigLayer {
    raw: RawHooks,
    origin: Origin,
    trusted: bool,
    /// Why the file could not be loaded (only ever set on an untrusted layer).
    unloadable: Option<ConfigError>,
}

impl ConfigLayer {
    /// Marks the layer as coming from a project the user has not trusted: when merged, its
    /// settings are ignored, and so is every hook that runs code (command, http, model,
    /// in-process) and every built-in with an effect beyond tightening
    /// ([`crate::runtime::builtin::loosening_effect`]); pure tightening built-ins stay. See
    /// [`merge_with_notes`].
    #[must_use]
    pub fn untrusted(mut self) -> Self {
        self.trusted = false;
        self
    }

    /// Stands in for an untrusted project file that could not be read or parsed: merged, it
    /// adds nothing but a note naming the error.
    ///
    /// Invariant protected: **a cloned repository cannot switch the guard off by breaking
    /// its own config.** Untrusted config could only have tightened the guard, so when it
    /// does not load it is ignored (visibly), rather than failing every call of the session
    /// into the fail mode. A trusted file that does not load stays an error.
    pub fn unloadable_untrusted(error: ConfigError) -> Self {
        Self {
            raw: RawHooks::default(),
            origin: Origin {
                file: error.file.clone(),
                layer: Layer::Project,
            },
            trusted: false,
            unloadable: Some(error),
        }
    }

    /// `parsed` as an untrusted layer: the layer when it loaded, else
    /// [`ConfigLayer::unloadable_untrusted`].
    pub fn untrusted_or_ignored(parsed: Result<Self, ConfigError>) -> Self {
        parsed.map_or_else(Self::unloadable_untrusted, Self::untrusted)
    }
}

/// The note for untrusted project config that does not load.
fn unloadable_note(error: &ConfigError) -> ConfigNote {
    ConfigNote {
        file: None,
        message: format!(
            "{error}: not loaded (untrusted project config that does not load is ignored; fix it, then `hookgate trust`)"
        ),
        unloadable: true,
    }
}

/// Something a config file asked for that was not applied because its project is untrusted.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ConfigNote {
    /// The file.
    pub file: Option<PathBuf>,
    /// What was ignored, in one line.
    pub message: String,
    /// The whole file (or layer) was ignored because it does not load; `message` names the
    /// error.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unloadable: bool,
}

impl fmt::Display for ConfigNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{}: {}", file.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The effective config and what was left out of it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded {
    /// The effective config.
    pub config: HooksConfig,
    /// One line per hook or setting ignored from untrusted project config.
    pub notes: Vec<ConfigNote>,
    /// The ids of the entries that came from untrusted project config (each a pure tightening
    /// built-in).
    pub untrusted: Vec<HookId>,
}

impl Loaded {
    /// Drops the untrusted entries whose built-in `registry` does not know or whose `args` it
    /// refuses, each with a note — what would otherwise fail building the engine, and with it
    /// every call (see [`ConfigLayer::unloadable_untrusted`]).
    pub fn drop_unloadable_untrusted(&mut self, registry: &BuiltinRegistry) {
        let untrusted = &self.untrusted;
        let notes = &mut self.notes;
        self.config.entries.retain(|entry| {
            if !untrusted.contains(&entry.id) {
                return true;
            }
            let RuntimeSpec::Builtin { name, args, .. } = &entry.runtime else {
                return true;
            };
            match registry.check(name, args) {
                Ok(()) => true,
                Err(why) => {
                    notes.push(unloadable_note(&ConfigError::new(
                        entry.origin.file.as_deref(),
                        format!("hook `{}`: {why}", entry.id),
                    )));
                    false
                }
            }
        });
        self.untrusted
            .retain(|id| self.config.entries.iter().any(|e| &e.id == id));
    }
}

/// Parses one config text.
pub fn parse_text(
    text: &str,
    format: Format,
    file: Option<&Path>,
    layer: Layer,
) -> Result<ConfigLayer, ConfigError> {
    let mut raw: RawFile = match format {
        Format::Yaml => {
            if text.trim().is_empty() {
                RawFile::default()
            } else {
                serde_saphyr::from_str_with_options(text, yaml_options())
                    .map_err(|e| yaml_error(file, &e))?
            }
        }
        Format::Toml => toml::from_str(text).map_err(|e| toml_error(file, text, &e))?,
    };
    if let Some(version) = raw.version.filter(|v| *v != 1) {
        return Err(ConfigError::new(
            file,
            format!("unsupported `version` {version}; this hookgate reads version 1"),
        ));
    }
    super::shorthand::apply(&mut raw);
    Ok(ConfigLayer {
        raw: raw.hooks,
        origin: Origin {
            file: file.map(Path::to_path_buf),
            layer,
        },
        trusted: true,
        unloadable: None,
    })
}

/// Reads and parses one file.
pub fn parse_file(path: &Path, layer: Layer) -> Result<ConfigLayer, ConfigError> {
    let format = Format::of(path).ok_or_else(|| {
        ConfigError::new(
            Some(path),
            "unknown config format: use a .yaml, .yml, .json or .toml file",
        )
    })?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError::new(Some(path), format!("cannot read: {e}")))?;
    parse_text(&text, format, Some(path), layer)
}

/// Builds the effective config from layers, lowest precedence first.
///
/// Scalars: the last layer that sets one wins. Entries: appended in layer order. Explicit ids
/// must be unique, except that a byte-for-byte identical hook seen twice (the same drop-in
/// installed at two levels, say) is kept once.
pub fn merge(layers: Vec<ConfigLayer>) -> Result<HooksConfig, ConfigError> {
    merge_with_notes(layers).map(|l| l.config)
}

/// [`merge`], keeping the notes about what untrusted layers asked for and did not get.
///
/// Invariant protected here: **a cloned repository runs no code and causes no effect until
/// the user trusts it, and cannot break the guard either.** From an untrusted layer every
/// hook that runs code (command, http, model, in-process) is dropped, and so is every
/// built-in with an effect beyond tightening (network, reads outside the call, writes,
/// approving: [`crate::runtime::builtin::BUILTIN_EFFECTS`]); its settings (shell, timeouts,
/// chain modes, limits: each could weaken the user's own hooks) are ignored; each with a
/// note. What stays are pure tightening built-ins, which may not answer `allow`. An untrusted
/// layer that does not load, or whose entries clash with the user's, is ignored with a note
/// naming the error; a trusted one is an error.
pub fn merge_with_notes(layers: Vec<ConfigLayer>) -> Result<Loaded, ConfigError> {
    let mut config = HooksConfig::default();
    let mut notes: Vec<ConfigNote> = Vec::new();
    // Every entry in layer order, with whether it came from an untrusted layer.
    let mut pending: Vec<(HookEntry, bool)> = Vec::new();
    for layer in layers {
        if let Some(error) = &layer.unloadable {
            notes.push(unloadable_note(error));
            continue;
        }
        if layer.trusted {
            apply_settings(
                &mut config.settings,
                &layer.raw,
                layer.origin.file.as_deref(),
            )?;
            pending.extend(
                layer_entries(layer.raw, &layer.origin)?
                    .into_iter()
                    .map(|e| (e, false)),
            );
            continue;
        }
        let note = |message: String| ConfigNote {
            file: layer.origin.file.clone(),
            message,
            unloadable: false,
        };
        let set = settings_set(&layer.raw);
        if !set.is_empty() {
            notes.push(note(format!(
                "settings {} ignored (untrusted project config; `hookgate trust` to apply it)",
                set.join(", ")
            )));
        }
        let entries = match layer_entries(layer.raw, &layer.origin) {
            Ok(entries) => entries,
            Err(error) => {
                notes.push(unloadable_note(&error));
                continue;
            }
        };
        for mut entry in entries {
            let kind = entry.runtime.kind();
            let loosening = match &entry.runtime {
                RuntimeSpec::Builtin { name, .. } => {
                    crate::runtime::builtin::loosening_effect(name).map(|e| (name, e))
                }
                _ => None,
            };
            let name = if entry.id_explicit {
                format!("hook `{}`", entry.id)
            } else {
                "a hook".to_owned()
            };
            if kind == RuntimeKind::Builtin && loosening.is_none() {
                // Kept, but it may only tighten: even a check must not approve a call on the
                // user's behalf.
                if entry.capability == Capability::Guardrail {
                    entry.capability = Capability::Restrict;
                }
                pending.push((entry, true));
                continue;
            }
            let what = match loosening {
                Some((builtin, _)) if !crate::runtime::builtin::is_classified(builtin) => {
                    format!("builtin {builtin}: not a built-in whose effects hookgate knows")
                }
                Some((builtin, effect)) => format!("builtin {builtin}: {}", effect.describe()),
                None => kind.to_string(),
            };
            notes.push(note(format!(
                "{name} ({what}) on {} not run (untrusted project config; `hookgate trust` to run it)",
                entry.event
            )));
        }
    }
    // An untrusted entry never takes an id the user's own config uses: it would reject the
    // user's hook (a trusted duplicate is an error) or stand in for it.
    let trusted_ids: std::collections::HashSet<String> = pending
        .iter()
        .filter(|(e, untrusted)| !untrusted && e.id_explicit)
        .map(|(e, _)| e.id.as_str().to_owned())
        .collect();
    let mut untrusted_flags: Vec<bool> = Vec::new();
    for (entry, untrusted) in pending {
        if untrusted && entry.id_explicit && trusted_ids.contains(entry.id.as_str()) {
            notes.push(unloadable_note(&ConfigError::new(
                entry.origin.file.as_deref(),
                format!(
                    "hook id `{}` is already used by the user's config",
                    entry.id
                ),
            )));
            continue;
        }
        let before = config.entries.len();
        match push_entry(&mut config.entries, entry) {
            Ok(()) => {}
            Err(error) if untrusted => {
                notes.push(unloadable_note(&error));
                continue;
            }
            Err(error) => return Err(error),
        }
        if config.entries.len() > before {
            untrusted_flags.push(untrusted);
        }
    }
    assign_generated_ids(&mut config.entries);
    let untrusted = config
        .entries
        .iter()
        .zip(untrusted_flags)
        .filter(|(_, untrusted)| *untrusted)
        .map(|(e, _)| e.id.clone())
        .collect();
    Ok(Loaded {
        config,
        notes,
        untrusted,
    })
}

/// Every entry of one layer, flattened (groups expanded, Meerkat defaults applied).
fn layer_entries(raw: RawHooks, origin: &Origin) -> Result<Vec<HookEntry>, ConfigError> {
    let mut out: Vec<HookEntry> = Vec::new();
    for raw_hook in raw.entries {
        let event = raw_hook.event.ok_or_else(|| {
            ConfigError::new(
                origin.file.as_deref(),
                "every `entries` item needs `point` (or `event`)",
            )
        })?;
        let point = meerkat_point(event, raw_hook.point_name.as_deref());
        let before = out.len();
        flatten(raw_hook, event, Capability::Observe, None, origin, &mut out)?;
        // Meerkat's defaults for Meerkat-shaped entries: its wire shape, and its 5000 ms
        // timeout (or the file's own `default_timeout_ms`) rather than docker-agent's 60 s.
        let timeout = raw.default_timeout_ms.unwrap_or(MEERKAT_DEFAULT_TIMEOUT_MS);
        for entry in &mut out[before..] {
            entry.meerkat_point = Some(point.clone());
            entry.timeout_ms = entry.timeout_ms.or(Some(timeout));
        }
    }
    for (event, hooks) in raw.events {
        for raw_hook in hooks {
            if let Some(own) = raw_hook.event.filter(|e| *e != event) {
                return Err(ConfigError::new(
                    origin.file.as_deref(),
                    format!("a hook under `{event}` says `event: {own}`"),
                ));
            }
            flatten(
                raw_hook,
                event,
                Capability::Guardrail,
                None,
                origin,
                &mut out,
            )?;
        }
    }
    Ok(out)
}

/// Meerkat's `HooksConfig::default_timeout_ms`.
pub const MEERKAT_DEFAULT_TIMEOUT_MS: u64 = 5000;

/// The point a Meerkat entry is delivered as: the Meerkat point it named, else the Meerkat
/// point of its event (`hookgate_core::meerkat::point_of`).
fn meerkat_point(event: EventId, written: Option<&str>) -> String {
    match written {
        Some(name)
            if hookgate_core::alias::resolve_in(hookgate_core::Vocabulary::Meerkat, name)
                .is_some() =>
        {
            name.to_owned()
        }
        _ => hookgate_core::meerkat::point_of(event).to_owned(),
    }
}

/// The names of the settings a layer sets.
fn settings_set(raw: &RawHooks) -> Vec<&'static str> {
    [
        ("default_timeout_ms", raw.default_timeout_ms.is_some()),
        ("payload_max_bytes", raw.payload_max_bytes.is_some()),
        (
            "background_max_concurrency",
            raw.background_max_concurrency.is_some(),
        ),
        ("chain", raw.chain.is_some()),
        ("chain_per_event", !raw.chain_per_event.is_empty()),
        ("shell", raw.shell.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, set)| set.then_some(name))
    .collect()
}

fn apply_settings(
    settings: &mut Settings,
    raw: &RawHooks,
    file: Option<&Path>,
) -> Result<(), ConfigError> {
    if let Some(ms) = raw.default_timeout_ms {
        if ms == 0 {
            return Err(ConfigError::new(
                file,
                "`default_timeout_ms` must be positive",
            ));
        }
        settings.default_timeout_ms = ms;
    }
    if let Some(bytes) = raw.payload_max_bytes {
        if bytes == 0 {
            return Err(ConfigError::new(
                file,
                "`payload_max_bytes` must be positive",
            ));
        }
        settings.payload_max_bytes = bytes;
    }
    if let Some(n) = raw.background_max_concurrency {
        settings.background_max_concurrency = n.max(1);
    }
    if let Some(chain) = raw.chain {
        settings.chain = chain;
    }
    for (event, mode) in &raw.chain_per_event {
        settings.chain_per_event.insert(*event, *mode);
    }
    if let Some(shell) = &raw.shell {
        settings.shell = PathBuf::from(
            super::expand::expand_path(shell, &super::expand::ProcessEnv)
                .map_err(|e| ConfigError::new(file, format!("`shell`: {e}")))?,
        );
    }
    Ok(())
}

fn flatten(
    raw: RawHook,
    event: EventId,
    default_capability: Capability,
    group_matcher: Option<&Option<String>>,
    origin: &Origin,
    out: &mut Vec<HookEntry>,
) -> Result<(), ConfigError> {
    let file = origin.file.as_deref();
    let matcher = match (&raw.matcher, group_matcher) {
        (Some(own), _) => Some(own.0.clone()),
        (None, Some(group)) => Some(group.clone()),
        (None, None) => None,
    };
    match raw.body {
        Body::Group(hooks) => {
            let inherited = matcher.clone().unwrap_or(None);
            for child in hooks {
                if child.event.is_some_and(|e| e != event) {
                    return Err(ConfigError::new(
                        file,
                        format!("a hook in a `{event}` group names another event"),
                    ));
                }
                flatten(
                    child,
                    event,
                    default_capability,
                    Some(&inherited),
                    origin,
                    out,
                )?;
            }
            Ok(())
        }
        Body::Hook(runtime) => {
            let matcher = matcher.unwrap_or(None);
            if matcher.is_some() && !event.contract().tool_matched {
                return Err(ConfigError::new(
                    file,
                    format!("`matcher` matches tool names, and `{event}` has no tool; remove it"),
                ));
            }
            let mode = raw.mode.unwrap_or(Mode::Foreground);
            let capability = raw.capability.unwrap_or(if mode == Mode::Background {
                Capability::Observe
            } else {
                default_capability
            });
            let id_explicit = raw.id.is_some();
            out.push(HookEntry {
                id: HookId::new(raw.id.unwrap_or_default()),
                id_explicit,
                name: raw.name,
                enabled: raw.enabled.unwrap_or(true),
                event,
                matcher,
                mode,
                capability,
                priority: raw.priority.unwrap_or(100),
                timeout_ms: raw.timeout_ms,
                on_error: raw.on_error.unwrap_or(OnError::Warn),
                strict_output: raw.strict_output.unwrap_or(false),
                runtime,
                meerkat_point: None,
                origin: origin.clone(),
            });
            Ok(())
        }
    }
}

/// Validates what a single entry can get wrong whoever built it (matcher syntax is checked
/// where the entry is made: while parsing files, and in `Engine::new` for entries built in code).
pub(crate) fn validate_entry(entry: &HookEntry) -> Result<(), ConfigError> {
    let file = entry.origin.file.as_deref();
    if entry.id_explicit && entry.id.as_str().trim().is_empty() {
        return Err(ConfigError::new(file, "hook `id` must not be empty"));
    }
    if let super::model::RuntimeSpec::Model {
        model,
        prompt,
        schema,
        base_url,
    } = &entry.runtime
    {
        crate::runtime::model::validate(model, prompt, base_url.as_deref())
            .map_err(|e| ConfigError::new(file, format!("hook `{}`: {e}", entry.id)))?;
        if schema.is_some() && !entry.event.contract().permission {
            return Err(ConfigError::new(
                file,
                format!(
                    "hook `{}`: `schema: pre_tool_use_decision` gives a permission decision, which `{}` does not take; omit `schema` to add the reply as context",
                    entry.id, entry.event
                ),
            ));
        }
    }
    if entry.mode == Mode::Background && entry.capability != Capability::Observe {
        return Err(ConfigError::new(
            file,
            format!("hook `{}`: background hooks must be `observe`", entry.id),
        ));
    }
    Ok(())
}

fn describe(origin: &Origin) -> String {
    match &origin.file {
        Some(file) => file.display().to_string(),
        None => format!("{:?} layer", origin.layer).to_lowercase(),
    }
}

fn push_entry(entries: &mut Vec<HookEntry>, entry: HookEntry) -> Result<(), ConfigError> {
    validate_entry(&entry)?;
    if let Some(existing) = entries.iter().find(|e| e.same_hook_as(&entry)) {
        // The same hook from two places runs once (docker-agent dedups for the same reason:
        // shorthands and hand-written entries overlap).
        let _ = existing;
        return Ok(());
    }
    if entry.id_explicit
        && let Some(existing) = entries.iter().find(|e| e.id_explicit && e.id == entry.id)
    {
        return Err(ConfigError::new(
            entry.origin.file.as_deref(),
            format!(
                "duplicate hook id `{}` (first defined in {})",
                entry.id,
                describe(&existing.origin)
            ),
        ));
    }
    entries.push(entry);
    Ok(())
}

fn assign_generated_ids(entries: &mut [HookEntry]) {
    let taken: std::collections::HashSet<String> = entries
        .iter()
        .filter(|e| e.id_explicit)
        .map(|e| e.id.as_str().to_owned())
        .collect();
    let mut counters: std::collections::HashMap<EventId, usize> = std::collections::HashMap::new();
    for entry in entries
        .iter_mut()
        .filter(|e| !e.id_explicit && e.id.as_str().is_empty())
    {
        loop {
            let n = counters.entry(entry.event).or_insert(0);
            *n += 1;
            let candidate = format!("{}/{}", entry.event.name(), n);
            if !taken.contains(&candidate) {
                entry.id = HookId::new(candidate);
                break;
            }
        }
    }
}

/// Applies per-run overrides: disabled ids are removed, extra entries appended, and the
/// result re-validated (duplicate ids across base and overrides are errors).
pub fn apply_overrides(
    base: &HooksConfig,
    overrides: &RunOverrides,
) -> Result<HooksConfig, ConfigError> {
    for id in &overrides.disable {
        if !base.entries.iter().any(|e| &e.id == id) {
            return Err(ConfigError::new(
                None,
                format!("cannot disable `{id}`: no hook has that id"),
            ));
        }
    }
    let mut config = HooksConfig {
        settings: base.settings.clone(),
        entries: Vec::new(),
    };
    for entry in base
        .entries
        .iter()
        .filter(|e| !overrides.disable.contains(&e.id))
    {
        config.entries.push(entry.clone());
    }
    for entry in &overrides.entries {
        let mut entry = entry.clone();
        entry.origin.layer = Layer::Override;
        push_entry(&mut config.entries, entry)?;
    }
    assign_generated_ids(&mut config.entries);
    Ok(config)
}

/// hookgate's user config dir: `$HOOKGATE_CONFIG_DIR`, else `$HOOKGATE_HOME` (one variable
/// isolates both data and config, as tests and sandboxes need), else
/// `$XDG_CONFIG_HOME/hookgate`, else `~/.config/hookgate`. One owner:
/// [`hookgate_project::user_config_dir`].
pub fn user_config_dir() -> Option<PathBuf> {
    hookgate_project::user_config_dir()
}

/// Where the layers live, and whether the project's may run code.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    /// The user config dir (see [`user_config_dir`]): always trusted.
    pub user_dir: Option<PathBuf>,
    /// The project's `.hookgate/`, found by the one discovery rule
    /// ([`hookgate_project::discover`]).
    pub project_dir: Option<PathBuf>,
    /// Whether the user pinned the project's config with `hookgate trust`. False (the
    /// default) loads it untrusted: see [`merge_with_notes`].
    pub project_trusted: bool,
}

const FILE_NAMES: &[&str] = &["hooks.yaml", "hooks.yml", "hooks.toml", "config.toml"];

/// One config file to load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Its layer.
    pub layer: Layer,
    /// The file.
    pub path: PathBuf,
    /// False for an untrusted project's files.
    pub trusted: bool,
}

impl Discovery {
    /// Finds the layers for a process started in `cwd`: the user config dir, and the project
    /// by the one discovery rule with its trust state.
    pub fn from_env(cwd: &Path) -> Self {
        let user_dir = user_config_dir();
        let project = hookgate_project::discover_in(cwd, user_dir.as_deref());
        Self::for_project(&project, user_dir)
    }

    /// The layers of an already discovered project (the hook discovers once and passes the
    /// project on).
    pub fn for_project(project: &hookgate_project::Project, user_dir: Option<PathBuf>) -> Self {
        let project_trusted =
            hookgate_project::trust_state(project, user_dir.as_deref()).is_trusted();
        Self {
            project_dir: project.hookgate_dir.clone(),
            user_dir,
            project_trusted,
        }
    }

    /// The files to load, lowest precedence first: user files, project files, then the
    /// drop-ins of both (`hooks.d/*.yaml`, `*.yml`, `*.toml`, lexicographic).
    pub fn files(&self) -> Result<Vec<(Layer, PathBuf)>, ConfigError> {
        Ok(self
            .sources()?
            .into_iter()
            .map(|s| (s.layer, s.path))
            .collect())
    }

    /// [`Discovery::files`] with each file's trust.
    pub fn sources(&self) -> Result<Vec<Source>, ConfigError> {
        let mut files = Vec::new();
        let dirs = [
            (Layer::User, &self.user_dir, true),
            (Layer::Project, &self.project_dir, self.project_trusted),
        ];
        for (layer, dir, trusted) in dirs {
            if let Some(dir) = dir {
                for name in FILE_NAMES {
                    let path = dir.join(name);
                    if path.is_file() {
                        files.push(Source {
                            layer,
                            path,
                            trusted,
                        });
                    }
                }
            }
        }
        for (_, dir, trusted) in dirs {
            let Some(dir) = dir else { continue };
            let drop_ins = dir.join("hooks.d");
            if !drop_ins.is_dir() {
                continue;
            }
            let read = std::fs::read_dir(&drop_ins).map_err(|e| {
                ConfigError::new(Some(&drop_ins), format!("cannot list drop-ins: {e}"))
            })?;
            let mut found: Vec<PathBuf> = read
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.is_file() && Format::of(path).is_some())
                .collect();
            found.sort();
            files.extend(found.into_iter().map(|path| Source {
                layer: Layer::DropIn,
                path,
                trusted,
            }));
        }
        Ok(files)
    }
}

/// Loads the effective config: the explicit files if any were given (the user named them:
/// trusted), else the discovered layers.
pub fn load(explicit: &[PathBuf], discovery: &Discovery) -> Result<HooksConfig, ConfigError> {
    load_with_notes(explicit, discovery).map(|l| l.config)
}

/// [`load`], keeping the notes about untrusted project config that was not applied.
pub fn load_with_notes(explicit: &[PathBuf], discovery: &Discovery) -> Result<Loaded, ConfigError> {
    let sources: Vec<Source> = if explicit.is_empty() {
        discovery.sources()?
    } else {
        let mut files = Vec::new();
        for path in explicit {
            if path.is_dir() {
                let nested = Discovery {
                    user_dir: None,
                    project_dir: Some(path.clone()),
                    project_trusted: true,
                };
                files.extend(nested.sources()?.into_iter().map(|s| Source {
                    layer: Layer::Explicit,
                    ..s
                }));
            } else {
                files.push(Source {
                    layer: Layer::Explicit,
                    path: path.clone(),
                    trusted: true,
                });
            }
        }
        files
    };
    let layers = sources
        .iter()
        .map(|s| {
            let parsed = parse_file(&s.path, s.layer);
            if s.trusted {
                parsed
            } else {
                Ok(ConfigLayer::untrusted_or_ignored(parsed))
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    merge_with_notes(layers)
}
