//! The policy file: schema, validation (inside deserialization, so errors carry file:line),
//! layering, and the compiled [`Policy`].

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use regex::Regex;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use crate::action::ActionKind;
use crate::analyzers;
use crate::invariants::{self, INVARIANTS};
use crate::pattern::CommandPattern;
use hookgate_paths::PathGlob;

/// The embedded default policy, as a policy file. [`Policy::builtin_default`] builds the same
/// policy in code (no parsing in the hook's hot path); a test keeps the two identical. Users
/// can copy it as a starting point.
pub const DEFAULT_POLICY_YAML: &str = include_str!("default-policy.yaml");

/// A rule's or invariant's effect.
///
/// `allow` and `approve` differ on purpose (issue 7, E): an `allow` only removes hookgate's
/// objection, so the agent's own permission flow still applies (a prompt the user set up
/// still appears); only `approve` answers "allow" to the agent and skips that prompt. A
/// policy file written for older hookgate, where `allow` auto-approved, keeps its coverage
/// and overrides but no longer skips the agent's prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// No objection from hookgate (rules only): the decision is no opinion. With `overrides`,
    /// it also switches off the named non-locked invariants for the calls it fully covers.
    Allow,
    /// Auto-approve (rules only, trusted files only): the agent is told to run the call
    /// without its own prompt, when approve rules cover every action of the call.
    Approve,
    /// A human decides.
    Ask,
    /// Block it.
    Deny,
}

impl Effect {
    /// The agent-facing decision this effect gives when it decides (`None` for `allow`: no
    /// opinion).
    pub const fn decision(self) -> Option<hookgate_core::Decision> {
        match self {
            Self::Allow => None,
            Self::Approve => Some(hookgate_core::Decision::Allow),
            Self::Ask => Some(hookgate_core::Decision::Ask),
            Self::Deny => Some(hookgate_core::Decision::Deny),
        }
    }

    /// `allow` or `approve`: effects that loosen the guard.
    pub const fn loosens(self) -> bool {
        matches!(self, Self::Allow | Self::Approve)
    }
}

/// Whether a match decides (`enforce`) or is only reported (`monitor`: no opinion, plus a
/// "would deny: …" context line), so a policy can be trialled before it bites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Decide.
    #[default]
    Enforce,
    /// Report only.
    Monitor,
}

/// An invariant's switch in a policy file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Switch {
    /// Active, in the policy's `mode`.
    On,
    /// Active and enforcing even when the policy's `mode` is monitor.
    Enforce,
    /// Active, reported only.
    Monitor,
    /// Active, but a deny it would give is softened to an ask (a person decides); an ask
    /// stays an ask.
    Ask,
    /// Inactive.
    Off,
}

impl<'de> Deserialize<'de> for Switch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // YAML 1.1 readers turn `on`/`off` into booleans; accept both spellings.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Bool(bool),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Bool(true) => Ok(Self::On),
            Raw::Bool(false) => Ok(Self::Off),
            Raw::Text(t) => match t.as_str() {
                "on" | "true" => Ok(Self::On),
                "enforce" => Ok(Self::Enforce),
                "monitor" => Ok(Self::Monitor),
                "ask" => Ok(Self::Ask),
                "off" | "false" => Ok(Self::Off),
                other => Err(de::Error::custom(format_args!(
                    "unknown invariant switch `{other}`: use on, enforce, ask, monitor or off"
                ))),
            },
        }
    }
}

impl Switch {
    /// How strongly the switch holds an invariant: off < monitor < ask < on < enforce. An
    /// untrusted layer may only raise it.
    const fn strength(self) -> u8 {
        match self {
            Self::Off => 0,
            Self::Monitor => 1,
            Self::Ask => 2,
            Self::On => 3,
            Self::Enforce => 4,
        }
    }

    /// The switch as a policy file spells it.
    pub const fn word(self) -> &'static str {
        match self {
            Self::On => "on",
            Self::Enforce => "enforce",
            Self::Monitor => "monitor",
            Self::Ask => "ask",
            Self::Off => "off",
        }
    }
}

/// The tail of every note about an untrusted layer.
const UNTRUSTED: &str =
    "ignored (untrusted project config may only tighten; `hookgate trust` to apply it)";

/// One policy file to layer, and whether its author may loosen the guard.
///
/// The user's own files (user config dir, `--policy` on the hook command line) are trusted;
/// a project's `.hookgate/policy.yaml` only once the user ran `hookgate trust` on its exact
/// content (see `hookgate_project::trust_state`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyLayer {
    /// The file (missing files are skipped).
    pub path: PathBuf,
    /// False: only the parts that tighten apply; the rest becomes [`Policy::notes`].
    pub trusted: bool,
    /// The file's bytes when the caller already read them (the hook reads a project's config
    /// once, hashes those bytes for trust and parses exactly them); `None`: read `path`.
    pub text: Option<Vec<u8>>,
}

impl PolicyLayer {
    /// A layer of `path`, trusted or not.
    pub fn new(path: impl Into<PathBuf>, trusted: bool) -> Self {
        Self {
            path: path.into(),
            trusted,
            text: None,
        }
    }

    /// A layer the user wrote.
    pub fn trusted(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            trusted: true,
            text: None,
        }
    }

    /// A layer from a project the user has not trusted.
    pub fn untrusted(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            trusted: false,
            text: None,
        }
    }

    /// The same layer, parsed from `bytes` already read rather than from the file.
    #[must_use]
    pub fn with_text(mut self, bytes: Vec<u8>) -> Self {
        self.text = Some(bytes);
        self
    }
}

/// Something a policy file asked for that was ignored, with where it was asked: an untrusted
/// layer trying to loosen the guard, or any layer trying to soften a locked invariant. The
/// guard shows these once per session; `doctor` and `policy check` list them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyNote {
    /// The file.
    pub file: Option<PathBuf>,
    /// 1-based line, when known.
    pub line: Option<u64>,
    /// What was ignored and why, in one line.
    pub message: String,
}

impl fmt::Display for PolicyNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self
            .file
            .as_ref()
            .map_or_else(|| "<policy>".to_owned(), |p| p.display().to_string());
        match self.line {
            Some(l) => write!(f, "{file}:{l}: {}", self.message),
            None => write!(f, "{file}: {}", self.message),
        }
    }
}

/// A policy error: which file, where in it, what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct PolicyError {
    /// The file, when the error comes from one.
    pub file: Option<PathBuf>,
    /// 1-based line, when known.
    pub line: Option<u64>,
    /// 1-based column, when known.
    pub column: Option<u64>,
    /// What was wrong, naming the field.
    pub message: String,
}

impl PolicyError {
    pub(crate) fn new(file: Option<&Path>, line: Option<u64>, message: impl Into<String>) -> Self {
        Self {
            file: file.map(Path::to_path_buf),
            line,
            column: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self
            .file
            .as_ref()
            .map_or_else(|| "<policy>".to_owned(), |p| p.display().to_string());
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{file}:{l}:{c}: {}", self.message),
            (Some(l), None) => write!(f, "{file}:{l}: {}", self.message),
            _ => write!(f, "{file}: {}", self.message),
        }
    }
}

/// The one budget for YAML a cloned repository may control (`hookgate_core::yaml`).
fn yaml_options() -> serde_saphyr::Options {
    hookgate_core::yaml::untrusted_options()
}

fn yaml_error(file: Option<&Path>, err: &serde_saphyr::Error) -> PolicyError {
    let e = hookgate_core::yaml::YamlError::from(err);
    PolicyError {
        file: file.map(Path::to_path_buf),
        line: e.line,
        column: e.column,
        message: e.message,
    }
}

/// One or a list of values.
#[derive(Debug, Clone, Default)]
struct OneOrMany<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw<T> {
            Many(Vec<T>),
            One(T),
        }
        Ok(match Raw::deserialize(d)? {
            Raw::Many(v) => Self(v),
            Raw::One(v) => Self(vec![v]),
        })
    }
}

/// An action pattern: `*`, `ns.*` or an exact action name; validated against the vocabulary
/// so a typo (`git.forcepush`) is an error, not a rule that never matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ActionPat {
    Any,
    Prefix(String),
    Exact(ActionKind),
}

impl ActionPat {
    pub(crate) fn matches(&self, kind: ActionKind) -> bool {
        match self {
            Self::Any => true,
            Self::Prefix(p) => kind
                .as_str()
                .strip_prefix(p.as_str())
                .is_some_and(|r| r.starts_with('.')),
            Self::Exact(k) => *k == kind,
        }
    }

    fn parse(text: &str) -> Result<Self, String> {
        let t = text.trim();
        if t == "*" {
            return Ok(Self::Any);
        }
        if let Some(ns) = t.strip_suffix(".*") {
            if ActionKind::ALL
                .iter()
                .any(|k| k.as_str().split('.').next() == Some(ns))
            {
                return Ok(Self::Prefix(ns.to_owned()));
            }
            return Err(format!("unknown action namespace `{t}`"));
        }
        ActionKind::parse(t).map(Self::Exact).ok_or_else(|| {
            let known: Vec<&str> = ActionKind::ALL.iter().map(|k| k.as_str()).collect();
            format!("unknown action `{t}` (known: {})", known.join(", "))
        })
    }

    pub(crate) fn text(&self) -> String {
        match self {
            Self::Any => "*".into(),
            Self::Prefix(p) => format!("{p}.*"),
            Self::Exact(k) => k.as_str().into(),
        }
    }
}

struct ActionPats(Vec<ActionPat>);

impl<'de> Deserialize<'de> for ActionPats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = OneOrMany::<String>::deserialize(d)?;
        raw.0
            .iter()
            .map(|t| ActionPat::parse(t))
            .collect::<Result<Vec<_>, _>>()
            .map(ActionPats)
            .map_err(de::Error::custom)
    }
}

/// Tool-name regexes, anchored, compiled at load.
struct ToolPat(Regex, Vec<String>);

impl<'de> Deserialize<'de> for ToolPat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = OneOrMany::<String>::deserialize(d)?;
        let joined = raw
            .0
            .iter()
            .map(|r| format!("(?:{r})"))
            .collect::<Vec<_>>()
            .join("|");
        regex::RegexBuilder::new(&format!("^(?:{joined})$"))
            .size_limit(1 << 20)
            .build()
            .map(|re| ToolPat(re, raw.0))
            .map_err(|e| de::Error::custom(format_args!("invalid `tool` regex: {e}")))
    }
}

struct CmdPats(Vec<CommandPattern>);

impl<'de> Deserialize<'de> for CmdPats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = OneOrMany::<String>::deserialize(d)?;
        raw.0
            .iter()
            .map(|t| {
                CommandPattern::parse(t)
                    .ok_or_else(|| de::Error::custom("an empty `command` pattern"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(CmdPats)
    }
}

struct Globs(Vec<PathGlob>);

impl<'de> Deserialize<'de> for Globs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = OneOrMany::<String>::deserialize(d)?;
        raw.0
            .iter()
            .map(|t| PathGlob::compile(t))
            .collect::<Result<Vec<_>, _>>()
            .map(Globs)
            .map_err(de::Error::custom)
    }
}

/// An invariant id, checked against the built-in table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct InvariantId(&'static str);

impl<'de> Deserialize<'de> for InvariantId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        if let Some(i) = invariants::find(&id) {
            return Ok(InvariantId(i.id));
        }
        if analyzers::is_analyzer_id(&id) {
            return Err(de::Error::custom(format_args!(
                "`{id}` is a shell analyzer rule, not an invariant: switch it under `analyzers:`"
            )));
        }
        Err(de::Error::custom(analyzers::unknown_id_message(
            "invariant",
            &id,
        )))
    }
}

/// A shell analyzer rule id (`git.push_force`), checked against the taxonomy.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct AnalyzerId(&'static str);

impl<'de> Deserialize<'de> for AnalyzerId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        if let Some(known) = hookgate_shell::rule_ids().find(|r| *r == id) {
            return Ok(AnalyzerId(known));
        }
        if invariants::find(&id).is_some() {
            return Err(de::Error::custom(format_args!(
                "`{id}` is an invariant, not a shell analyzer rule: switch it under `invariants:`"
            )));
        }
        Err(de::Error::custom(analyzers::unknown_id_message(
            "shell analyzer rule",
            &id,
        )))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPolicy {
    #[serde(default)]
    version: Option<u32>,
    #[serde(default)]
    mode: Option<Spanned<Mode>>,
    #[serde(default)]
    invariants: BTreeMap<InvariantId, Spanned<Switch>>,
    #[serde(default)]
    analyzers: BTreeMap<AnalyzerId, Spanned<Switch>>,
    #[serde(default)]
    protected_branches: Option<Spanned<OneOrMany<String>>>,
    #[serde(default)]
    network_allowlist: Option<Spanned<OneOrMany<String>>>,
    #[serde(default)]
    large_write_bytes: Option<Spanned<usize>>,
    #[serde(default)]
    blast_radius_limit: Option<Spanned<usize>>,
    #[serde(default)]
    session_blast_radius: Option<Spanned<usize>>,
    #[serde(default)]
    rules: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    id: String,
    #[serde(default)]
    action: Option<ActionPats>,
    #[serde(default)]
    tool: Option<ToolPat>,
    #[serde(default)]
    command: Option<CmdPats>,
    #[serde(default)]
    paths: Option<Globs>,
    #[serde(default)]
    branch: Option<OneOrMany<String>>,
    effect: Effect,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    suggestion: Option<String>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    severity: Option<u8>,
    #[serde(default)]
    overrides: Option<OneOrMany<InvariantId>>,
}

/// Tunables read by the invariants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings {
    pub protected_branches: Vec<String>,
    /// `None`: egress checking is off; `Some([])`: every host is denied.
    pub network_allowlist: Option<Vec<String>>,
    pub large_write_bytes: usize,
    pub blast_radius_limit: usize,
    pub session_blast_radius: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            protected_branches: vec!["main".into(), "master".into()],
            network_allowlist: None,
            large_write_bytes: 100 * 1024,
            blast_radius_limit: 20,
            session_blast_radius: 50,
        }
    }
}

/// A compiled rule.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    pub id: String,
    pub actions: Vec<ActionPat>,
    pub tool: Option<Regex>,
    pub tool_text: Vec<String>,
    pub commands: Vec<CommandPattern>,
    pub paths: Vec<PathGlob>,
    pub branches: Vec<String>,
    pub effect: Effect,
    pub reason: Option<String>,
    pub suggestion: Option<String>,
    pub mode: Option<Mode>,
    pub severity: u8,
    pub overrides: Vec<&'static str>,
    /// Where it was defined (`file:line`), for explanations.
    pub origin: String,
}

/// A compiled policy: the merged layers.
#[derive(Debug, Clone)]
pub struct Policy {
    pub(crate) mode: Mode,
    pub(crate) settings: Settings,
    /// Switch per invariant, in [`INVARIANTS`] order.
    pub(crate) switches: Vec<Switch>,
    /// Switches of single shell analyzer rules (`on`, `ask`, `off`; absent: `on`), which refine
    /// the `destructive-shell` invariant (see [`crate::analyzers`]).
    pub(crate) analyzers: BTreeMap<&'static str, Switch>,
    pub(crate) rules: Vec<Rule>,
    /// What the layers asked for and did not get (see [`PolicyNote`]).
    pub(crate) notes: Vec<PolicyNote>,
}

impl Default for Policy {
    fn default() -> Self {
        Self::builtin_default()
    }
}

impl Policy {
    /// The embedded default: every invariant at its default switch, the default settings, no
    /// rules. Built in code, so a hook process pays nothing to load it.
    pub fn builtin_default() -> Self {
        Self {
            mode: Mode::Enforce,
            settings: Settings::default(),
            switches: INVARIANTS.iter().map(|i| i.default).collect(),
            analyzers: BTreeMap::new(),
            rules: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The default policy with one policy text layered on top.
    pub fn from_yaml(text: &str, file: Option<&Path>) -> Result<Self, PolicyError> {
        let mut policy = Self::builtin_default();
        policy.layer(text, file)?;
        Ok(policy)
    }

    /// The default policy with each file layered on in order (user, then project), every
    /// file trusted. Prefer [`Policy::load_layers`] wherever a file may come from a project.
    pub fn load(paths: &[PathBuf]) -> Result<Self, PolicyError> {
        let layers: Vec<PolicyLayer> = paths.iter().map(PolicyLayer::trusted).collect();
        Self::load_layers(&layers)
    }

    /// The default policy with each layer applied in order (user, project, extra files):
    /// scalars and invariant switches of a later layer replace earlier ones, rules add up —
    /// except that an untrusted layer may only tighten (see [`Policy::layer_with_trust`]).
    /// A missing file is skipped; an unreadable or invalid one is an error (a guard must not
    /// silently run without the policy its user wrote).
    pub fn load_layers(layers: &[PolicyLayer]) -> Result<Self, PolicyError> {
        let mut policy = Self::builtin_default();
        for layer in layers {
            let path = &layer.path;
            let read = match &layer.text {
                Some(bytes) => String::from_utf8(bytes.clone())
                    .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidData)),
                None => std::fs::read_to_string(path),
            };
            let text = match read {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    return Err(PolicyError::new(
                        Some(path),
                        None,
                        format!("cannot read: {e}"),
                    ));
                }
            };
            policy.layer_with_trust(&text, Some(path), layer.trusted)?;
        }
        Ok(policy)
    }

    /// Parses one trusted layer and merges it into `self`.
    pub fn layer(&mut self, text: &str, file: Option<&Path>) -> Result<(), PolicyError> {
        self.layer_with_trust(text, file, true)
    }

    /// Parses one layer and merges it into `self`.
    ///
    /// Invariant protected here: **untrusted config only tightens.** From an untrusted layer,
    /// deny/ask rules and switch-ups (off → monitor → on → enforce) apply, `mode: enforce`
    /// applies, protected branches are added, size limits only lowered and the network
    /// allowlist only narrowed (or turned on). Allow/approve rules, `overrides`,
    /// `mode: monitor`, switch-downs and loosening settings are ignored, each with a note.
    /// Whatever the trust, a locked invariant is never switched off or to monitor (a note,
    /// not an error, so the rest of the file still applies).
    pub fn layer_with_trust(
        &mut self,
        text: &str,
        file: Option<&Path>,
        trusted: bool,
    ) -> Result<(), PolicyError> {
        if text.trim().is_empty() {
            return Ok(());
        }
        let raw: RawPolicy = serde_saphyr::from_str_with_options(text, yaml_options())
            .map_err(|e| yaml_error(file, &e))?;
        if let Some(v) = raw.version.filter(|v| *v != 1) {
            return Err(PolicyError::new(
                file,
                Some(1),
                format!("unsupported `version` {v}; this hookgate reads version 1"),
            ));
        }
        let mut notes: Vec<PolicyNote> = Vec::new();
        let mut note = |line: u64, message: String| {
            notes.push(PolicyNote {
                file: file.map(Path::to_path_buf),
                line: (line > 0).then_some(line),
                message,
            });
        };
        if let Some(mode) = &raw.mode {
            if !trusted && mode.value == Mode::Monitor {
                note(
                    mode.referenced.line(),
                    format!("`mode: monitor` {UNTRUSTED}"),
                );
            } else {
                self.mode = mode.value;
            }
        }
        for (id, switch) in &raw.invariants {
            let Some(index) = INVARIANTS.iter().position(|i| i.id == id.0) else {
                continue;
            };
            let info = &INVARIANTS[index];
            let line = switch.referenced.line();
            let new = switch.value;
            if info.locked && matches!(new, Switch::Off | Switch::Monitor | Switch::Ask) {
                note(
                    line,
                    format!(
                        "`{}: {}` ignored: the invariant is locked (it protects the guard itself) and always enforces",
                        info.id,
                        new.word()
                    ),
                );
                continue;
            }
            let old = self.switches[index];
            if !trusted && new.strength() < old.strength() {
                note(
                    line,
                    format!(
                        "`{}: {}` (from {}) {UNTRUSTED}",
                        info.id,
                        new.word(),
                        old.word()
                    ),
                );
                continue;
            }
            self.switches[index] = new;
        }
        for (id, switch) in &raw.analyzers {
            let line = switch.referenced.line();
            let new = switch.value;
            if matches!(new, Switch::Enforce | Switch::Monitor) {
                return Err(PolicyError::new(
                    file,
                    Some(line),
                    format!(
                        "analyzer rule `{}`: `{}` is not an analyzer switch: use on, ask or off",
                        id.0,
                        new.word()
                    ),
                ));
            }
            let old = self.analyzers.get(id.0).copied().unwrap_or(Switch::On);
            if !trusted && new.strength() < old.strength() {
                note(
                    line,
                    format!(
                        "`analyzers: {{{}: {}}}` (from {}) {UNTRUSTED}",
                        id.0,
                        new.word(),
                        old.word()
                    ),
                );
                continue;
            }
            if new == Switch::On {
                self.analyzers.remove(id.0);
            } else {
                self.analyzers.insert(id.0, new);
            }
        }
        self.layer_settings(&raw, trusted, &mut note, UNTRUSTED);
        for spanned in raw.rules {
            let line = spanned.referenced.line();
            let r = spanned.value;
            let err = |m: String| PolicyError::new(file, Some(line), m);
            if r.id.trim().is_empty() {
                return Err(err("a rule needs a non-empty `id`".into()));
            }
            if self.rules.iter().any(|x| x.id == r.id) {
                return Err(err(format!("duplicate rule id `{}`", r.id)));
            }
            if let Some(sev) = r.severity.filter(|s| !(1..=5).contains(s)) {
                return Err(err(format!(
                    "rule `{}`: severity {sev} is not within 1-5",
                    r.id
                )));
            }
            if r.action.is_none() && r.tool.is_none() && r.command.is_none() && r.paths.is_none() {
                return Err(err(format!(
                    "rule `{}` matches nothing: give at least one of action, tool, command, paths",
                    r.id
                )));
            }
            let effect_word = match r.effect {
                Effect::Allow => "allow",
                Effect::Approve => "approve",
                Effect::Ask => "ask",
                Effect::Deny => "deny",
            };
            if !trusted && r.effect.loosens() {
                note(
                    line,
                    format!("rule `{}` (effect: {effect_word}) {UNTRUSTED}", r.id),
                );
                continue;
            }
            let mut overrides: Vec<&'static str> = r
                .overrides
                .map(|o| o.0.into_iter().map(|i| i.0).collect())
                .unwrap_or_default();
            if !overrides.is_empty() && !r.effect.loosens() {
                note(
                    line,
                    format!(
                        "rule `{}`: `overrides` ignored: only allow and approve rules override invariants",
                        r.id
                    ),
                );
                overrides.clear();
            }
            overrides.retain(|id| {
                let locked = invariants::find(id).is_some_and(|i| i.locked);
                if locked {
                    note(
                        line,
                        format!(
                            "rule `{}`: override of `{id}` ignored: the invariant is locked",
                            r.id
                        ),
                    );
                }
                !locked
            });
            let (tool, tool_text) = match r.tool {
                Some(ToolPat(re, text)) => (Some(re), text),
                None => (None, Vec::new()),
            };
            self.rules.push(Rule {
                origin: format!(
                    "{}:{line}",
                    file.map_or_else(|| "<policy>".to_owned(), |f| f.display().to_string())
                ),
                id: r.id,
                actions: r.action.map(|a| a.0).unwrap_or_default(),
                tool,
                tool_text,
                commands: r.command.map(|c| c.0).unwrap_or_default(),
                paths: r.paths.map(|p| p.0).unwrap_or_default(),
                branches: r.branch.map(|b| b.0).unwrap_or_default(),
                effect: r.effect,
                reason: r.reason,
                suggestion: r.suggestion,
                mode: r.mode,
                severity: r.severity.unwrap_or(3),
                overrides,
            });
        }
        self.notes.extend(notes);
        Ok(())
    }

    /// The settings of one layer; from an untrusted one only what tightens.
    fn layer_settings(
        &mut self,
        raw: &RawPolicy,
        trusted: bool,
        note: &mut impl FnMut(u64, String),
        untrusted: &str,
    ) {
        let s = &mut self.settings;
        if let Some(b) = &raw.protected_branches {
            if trusted {
                s.protected_branches.clone_from(&b.value.0);
            } else {
                let dropped: Vec<&str> = s
                    .protected_branches
                    .iter()
                    .filter(|old| !b.value.0.contains(old))
                    .map(String::as_str)
                    .collect();
                if !dropped.is_empty() {
                    note(
                        b.referenced.line(),
                        format!(
                            "`protected_branches` leaving out {} {untrusted}",
                            dropped.join(", ")
                        ),
                    );
                }
                for branch in &b.value.0 {
                    if !s.protected_branches.contains(branch) {
                        s.protected_branches.push(branch.clone());
                    }
                }
            }
        }
        if let Some(n) = &raw.network_allowlist {
            match (&s.network_allowlist, trusted) {
                (Some(current), false) => {
                    let added: Vec<&str> = n
                        .value
                        .0
                        .iter()
                        .filter(|h| !current.contains(h))
                        .map(String::as_str)
                        .collect();
                    if !added.is_empty() {
                        note(
                            n.referenced.line(),
                            format!(
                                "`network_allowlist` adding {} {untrusted}",
                                added.join(", ")
                            ),
                        );
                    }
                    let narrowed: Vec<String> = current
                        .iter()
                        .filter(|h| n.value.0.contains(h))
                        .cloned()
                        .collect();
                    s.network_allowlist = Some(narrowed);
                }
                // Turning egress checking on tightens; a trusted layer sets it as written.
                _ => s.network_allowlist = Some(n.value.0.clone()),
            }
        }
        for (name, value, slot) in [
            (
                "large_write_bytes",
                &raw.large_write_bytes,
                &mut s.large_write_bytes,
            ),
            (
                "blast_radius_limit",
                &raw.blast_radius_limit,
                &mut s.blast_radius_limit,
            ),
            (
                "session_blast_radius",
                &raw.session_blast_radius,
                &mut s.session_blast_radius,
            ),
        ] {
            let Some(v) = value else { continue };
            if !trusted && v.value > *slot {
                note(
                    v.referenced.line(),
                    format!("`{name}: {}` (from {}) {untrusted}", v.value, slot),
                );
            } else {
                *slot = v.value;
            }
        }
    }

    /// What the layers asked for and did not get, one line each, in file order: untrusted
    /// loosening, softened locked invariants, overrides that cannot apply.
    pub fn notes(&self) -> &[PolicyNote] {
        &self.notes
    }

    /// The policy's top-level mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The ids of the policy's own rules, in order.
    pub fn rule_ids(&self) -> impl Iterator<Item = &str> + '_ {
        self.rules.iter().map(|r| r.id.as_str())
    }

    /// The analyzer rules a policy file switched (`ask` or `off`), by id; every other
    /// analyzer rule is `on`.
    pub fn analyzer_switches(&self) -> impl Iterator<Item = (&'static str, Switch)> + '_ {
        self.analyzers.iter().map(|(id, s)| (*id, *s))
    }

    /// Whether `id` names something a policy or an allowance can address: an invariant, a
    /// shell analyzer rule or one of this policy's rules.
    pub fn knows_id(&self, id: &str) -> bool {
        invariants::find(id).is_some()
            || analyzers::is_analyzer_id(id)
            || self.rules.iter().any(|r| r.id == id)
    }

    /// The switch of each invariant, by id.
    pub fn invariant_switches(&self) -> impl Iterator<Item = (&'static str, Switch)> + '_ {
        INVARIANTS
            .iter()
            .zip(&self.switches)
            .map(|(i, s)| (i.id, *s))
    }
}
