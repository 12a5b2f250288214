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
use crate::glob::PathGlob;
use crate::invariants::{self, INVARIANTS};
use crate::pattern::CommandPattern;

/// The embedded default policy, as a policy file. [`Policy::builtin_default`] builds the same
/// policy in code (no parsing in the hook's hot path); a test keeps the two identical. Users
/// can copy it as a starting point.
pub const DEFAULT_POLICY_YAML: &str = include_str!("default-policy.yaml");

/// A rule's or invariant's effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Let the call run without asking (rules only; invariants never allow).
    Allow,
    /// A human decides.
    Ask,
    /// Block it.
    Deny,
}

impl Effect {
    pub(crate) const fn decision(self) -> hookgate_core::Decision {
        match self {
            Self::Allow => hookgate_core::Decision::Allow,
            Self::Ask => hookgate_core::Decision::Ask,
            Self::Deny => hookgate_core::Decision::Deny,
        }
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
                "off" | "false" => Ok(Self::Off),
                other => Err(de::Error::custom(format_args!(
                    "unknown invariant switch `{other}`: use on, enforce, monitor or off"
                ))),
            },
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

/// Hard limits for YAML that a cloned repository may control: no billion laughs, no absurd
/// depth or size.
fn yaml_options() -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.with_snippet = false;
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::Error;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = 32;
    budget.max_aliases = 64;
    budget.max_anchors = 64;
    budget.max_nodes = 50_000;
    budget.max_total_scalar_bytes = 1024 * 1024;
    options.budget = Some(budget);
    options
}

fn yaml_error(file: Option<&Path>, err: &serde_saphyr::Error) -> PolicyError {
    let rendered = err.to_string();
    let message = rendered
        .lines()
        .next()
        .unwrap_or("invalid YAML")
        .split(" at line ")
        .next()
        .unwrap_or("invalid YAML")
        .trim()
        .to_owned();
    let location = err.location();
    PolicyError {
        file: file.map(Path::to_path_buf),
        line: location.map(|l| l.line()).filter(|l| *l > 0),
        column: location.map(|l| l.column()).filter(|c| *c > 0),
        message,
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

    fn text(&self) -> String {
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
        invariants::find(&id)
            .map(|i| InvariantId(i.id))
            .ok_or_else(|| de::Error::custom(format_args!("unknown invariant `{id}`")))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPolicy {
    #[serde(default)]
    version: Option<u32>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    invariants: BTreeMap<InvariantId, Spanned<Switch>>,
    #[serde(default)]
    protected_branches: Option<OneOrMany<String>>,
    #[serde(default)]
    network_allowlist: Option<OneOrMany<String>>,
    #[serde(default)]
    large_write_bytes: Option<usize>,
    #[serde(default)]
    blast_radius_limit: Option<usize>,
    #[serde(default)]
    session_blast_radius: Option<usize>,
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
    pub(crate) rules: Vec<Rule>,
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
            rules: Vec::new(),
        }
    }

    /// The default policy with one policy text layered on top.
    pub fn from_yaml(text: &str, file: Option<&Path>) -> Result<Self, PolicyError> {
        let mut policy = Self::builtin_default();
        policy.layer(text, file)?;
        Ok(policy)
    }

    /// The default policy with each file layered on in order (user, then project): scalars
    /// and invariant switches of a later layer replace earlier ones, rules add up. A missing
    /// file is skipped; an unreadable or invalid one is an error (a guard must not silently
    /// run without the policy its user wrote).
    pub fn load(paths: &[PathBuf]) -> Result<Self, PolicyError> {
        let mut policy = Self::builtin_default();
        for path in paths {
            let text = match std::fs::read_to_string(path) {
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
            policy.layer(&text, Some(path))?;
        }
        Ok(policy)
    }

    /// Parses one layer and merges it into `self`.
    pub fn layer(&mut self, text: &str, file: Option<&Path>) -> Result<(), PolicyError> {
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
        if let Some(mode) = raw.mode {
            self.mode = mode;
        }
        for (id, switch) in raw.invariants {
            let Some(index) = INVARIANTS.iter().position(|i| i.id == id.0) else {
                continue;
            };
            let info = &INVARIANTS[index];
            if info.locked && matches!(switch.value, Switch::Off | Switch::Monitor) {
                return Err(PolicyError::new(
                    file,
                    Some(switch.referenced.line()),
                    format!(
                        "invariant `{}` protects the guard itself and cannot be switched off or to monitor",
                        info.id
                    ),
                ));
            }
            self.switches[index] = switch.value;
        }
        let s = &mut self.settings;
        if let Some(b) = raw.protected_branches {
            s.protected_branches = b.0;
        }
        if let Some(n) = raw.network_allowlist {
            s.network_allowlist = Some(n.0);
        }
        if let Some(n) = raw.large_write_bytes {
            s.large_write_bytes = n;
        }
        if let Some(n) = raw.blast_radius_limit {
            s.blast_radius_limit = n;
        }
        if let Some(n) = raw.session_blast_radius {
            s.session_blast_radius = n;
        }
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
                overrides: r
                    .overrides
                    .map(|o| o.0.into_iter().map(|i| i.0).collect())
                    .unwrap_or_default(),
            });
        }
        Ok(())
    }

    /// The policy's top-level mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The switch of each invariant, by id.
    pub fn invariant_switches(&self) -> impl Iterator<Item = (&'static str, Switch)> + '_ {
        INVARIANTS
            .iter()
            .zip(&self.switches)
            .map(|(i, s)| (i.id, *s))
    }

    /// A stable, human-readable summary (`hookgate policy check` prints it; tests compare it).
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let s = &self.settings;
        let _ = writeln!(out, "mode: {:?}", self.mode);
        let _ = writeln!(out, "protected_branches: {:?}", s.protected_branches);
        let _ = writeln!(out, "network_allowlist: {:?}", s.network_allowlist);
        let _ = writeln!(out, "large_write_bytes: {}", s.large_write_bytes);
        let _ = writeln!(out, "blast_radius_limit: {}", s.blast_radius_limit);
        let _ = writeln!(out, "session_blast_radius: {}", s.session_blast_radius);
        for (id, sw) in self.invariant_switches() {
            let _ = writeln!(out, "invariant {id}: {sw:?}");
        }
        for r in &self.rules {
            let actions: Vec<String> = r.actions.iter().map(ActionPat::text).collect();
            let commands: Vec<&str> = r.commands.iter().map(CommandPattern::as_str).collect();
            let paths: Vec<&str> = r.paths.iter().map(PathGlob::as_str).collect();
            let _ = writeln!(
                out,
                "rule {}: {:?} action={actions:?} tool={:?} command={commands:?} paths={paths:?} branch={:?} mode={:?}",
                r.id, r.effect, r.tool_text, r.branches, r.mode
            );
        }
        out
    }
}
