//! Where each agent reads its hook configuration.

use std::path::{Path, PathBuf};

use hookgate_core::AgentKind;

use crate::{InitError, Scope, Target};

/// The user's home and the agents' variables that relocate their user-level config.
///
/// Captured in a value rather than read on the fly, so that planning is deterministic and tests
/// can point every agent at a temp dir without mutating the process environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentHomes {
    /// `$HOME`: used for Codex's user `config.toml` (hook trust) when installing at project level.
    pub home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`: replaces `~/.claude`.
    pub claude_config_dir: Option<PathBuf>,
    /// `$CODEX_HOME`: replaces `~/.codex` (user `hooks.json` and `config.toml`).
    pub codex_home: Option<PathBuf>,
    /// `$GEMINI_CLI_HOME`: replaces the home directory that holds `.gemini/`.
    pub gemini_cli_home: Option<PathBuf>,
    /// `$COPILOT_HOME`: replaces `~/.copilot`.
    pub copilot_home: Option<PathBuf>,
}

impl AgentHomes {
    /// Reads the variables from the current process. Empty values count as unset, as the agents
    /// treat them.
    pub fn from_env() -> Self {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Self {
            home: var("HOME"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            codex_home: var("CODEX_HOME"),
            gemini_cli_home: var("GEMINI_CLI_HOME"),
            copilot_home: var("COPILOT_HOME"),
        }
    }

    /// Codex's home: `$CODEX_HOME` (canonicalized, as Codex does, because trust keys embed the
    /// path) or `<home>/.codex`.
    pub(crate) fn codex_dir(&self, home: Option<&Path>) -> Result<PathBuf, InitError> {
        if let Some(dir) = &self.codex_home {
            return Ok(physical(dir));
        }
        home.or(self.home.as_deref())
            .map(|h| h.join(".codex"))
            .ok_or(InitError::NoHome {
                what: "Codex's config.toml",
                variable: "CODEX_HOME",
            })
    }
}

/// The path with symlinks resolved when it exists. Agents key state by the path they compute
/// from `getcwd()` (a physical path), so a trust key built on a symlinked spelling would never
/// match.
pub(crate) fn physical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The hook configuration file hookgate writes for `target`.
pub fn config_path(target: &Target, homes: &AgentHomes) -> Result<PathBuf, InitError> {
    Ok(match (&target.scope, target.agent) {
        (Scope::Project(dir), agent) => {
            let dir = physical(dir);
            match agent {
                AgentKind::Claude => dir.join(".claude/settings.json"),
                AgentKind::Codex => dir.join(".codex/hooks.json"),
                AgentKind::Gemini => dir.join(".gemini/settings.json"),
                AgentKind::Copilot => dir.join(".github/hooks/hookgate.json"),
                AgentKind::Cursor => dir.join(".cursor/hooks.json"),
            }
        }
        (Scope::Global(home), AgentKind::Claude) => homes
            .claude_config_dir
            .clone()
            .unwrap_or_else(|| home.join(".claude"))
            .join("settings.json"),
        (Scope::Global(home), AgentKind::Codex) => homes.codex_dir(Some(home))?.join("hooks.json"),
        (Scope::Global(home), AgentKind::Gemini) => homes
            .gemini_cli_home
            .as_deref()
            .unwrap_or(home)
            .join(".gemini/settings.json"),
        (Scope::Global(home), AgentKind::Copilot) => homes
            .copilot_home
            .clone()
            .unwrap_or_else(|| home.join(".copilot"))
            .join("hooks/hookgate.json"),
        (Scope::Global(home), AgentKind::Cursor) => home.join(".cursor/hooks.json"),
    })
}

/// Copilot CLI's own `config.json` (`$COPILOT_HOME/config.json`, default
/// `~/.copilot/config.json`), where it keeps `trustedFolders` (verified with 1.0.102).
pub(crate) fn copilot_config_json(homes: &AgentHomes) -> Result<PathBuf, InitError> {
    homes
        .copilot_home
        .clone()
        .or_else(|| homes.home.as_ref().map(|h| h.join(".copilot")))
        .map(|dir| dir.join("config.json"))
        .ok_or(InitError::NoHome {
            what: "Copilot's config.json (folder trust)",
            variable: "COPILOT_HOME",
        })
}

/// Codex's user `config.toml`, where hook trust lives whatever the scope of the hooks.
pub(crate) fn codex_config_toml(target: &Target, homes: &AgentHomes) -> Result<PathBuf, InitError> {
    let home = match &target.scope {
        Scope::Global(home) => Some(home.as_path()),
        Scope::Project(_) => None,
    };
    Ok(homes.codex_dir(home)?.join("config.toml"))
}
