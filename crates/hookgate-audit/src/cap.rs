//! The size cap of the audit store: where users set it, and how each backend keeps to it.
//!
//! One setting, read in one place: `$HOOKGATE_STORE_MAX_SIZE` when set (per run, as every
//! `HOOKGATE_*` variable), else `max_size` in the user's `store.yaml` (`<user config
//! dir>/store.yaml`, the file users edit once). `prune` uses it when `--max-size` is not
//! given; the store applies it by itself — SQLite whenever it takes in spooled records, JSONL
//! when an append leaves `audit.jsonl` past it — deleting the oldest records until nine tenths
//! of it is left (the slack keeps every append from pruning again).
//!
//! Invariant: a value that is not a size is an error for the commands that report it
//! (`prune`, `doctor`) and no cap for the store, never a guessed cap that deletes records.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The environment variable that sets the cap for one run.
pub const MAX_SIZE_VAR: &str = "HOOKGATE_STORE_MAX_SIZE";

/// The user's store settings file in a user config dir.
pub fn settings_path(config_dir: &Path) -> PathBuf {
    config_dir.join("store.yaml")
}

/// `store.yaml`: settings of the audit store.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    /// The size cap (`500M`, `2G`, bytes).
    #[serde(default)]
    max_size: Option<SizeText>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum SizeText {
    Bytes(u64),
    Text(String),
}

/// Why the size cap users set cannot be read. Each says where the value came from, so
/// `prune` and `doctor` can say what to fix.
#[derive(Debug, thiserror::Error)]
pub enum SizeSettingError {
    /// `$HOOKGATE_STORE_MAX_SIZE` is not a size.
    #[error("${MAX_SIZE_VAR}: not a size `{value}` (use 500M, 2G or bytes)")]
    Variable {
        /// The variable's value.
        value: String,
    },
    /// `store.yaml` exists but cannot be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `store.yaml` is not valid YAML or has unknown keys.
    #[error("{}:{line}: {message}", path.display())]
    Yaml {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// `max_size` in `store.yaml` is not a size.
    #[error("{}: max_size: not a size `{value}` (use 500M, 2G or bytes)", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The value as written.
        value: String,
    },
}

/// The size cap users set (`500M`, `2G`, `1048576`): `Ok(None)` when neither the variable nor
/// the file sets one, an error naming the value and where it came from when it is not a size.
pub fn max_size_setting() -> Result<Option<u64>, SizeSettingError> {
    max_size_from(
        std::env::var(MAX_SIZE_VAR).ok().as_deref(),
        hookgate_project::user_config_dir().as_deref(),
    )
}

/// [`max_size_setting`] from an explicit variable value and user config dir.
pub fn max_size_from(
    var: Option<&str>,
    config_dir: Option<&Path>,
) -> Result<Option<u64>, SizeSettingError> {
    if let Some(v) = var.filter(|v| !v.trim().is_empty()) {
        return crate::parse_size(v)
            .map(Some)
            .ok_or_else(|| SizeSettingError::Variable {
                value: v.to_owned(),
            });
    }
    let Some(path) = config_dir.map(settings_path) else {
        return Ok(None);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(SizeSettingError::Read { path, source }),
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    let settings: Settings = match serde_saphyr::from_str_with_options(
        &text,
        hookgate_core::yaml::untrusted_options(),
    ) {
        Ok(settings) => settings,
        Err(e) => {
            let e = hookgate_core::yaml::YamlError::from(&e);
            return Err(SizeSettingError::Yaml {
                path,
                line: e.line.unwrap_or(1),
                message: e.message,
            });
        }
    };
    match settings.max_size {
        None => Ok(None),
        Some(SizeText::Bytes(n)) => Ok(Some(n)),
        Some(SizeText::Text(t)) => crate::parse_size(&t)
            .map(Some)
            .ok_or(SizeSettingError::File { path, value: t }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_wins_over_the_file_and_a_bad_value_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(max_size_from(None, Some(dir.path())).unwrap(), None);
        std::fs::write(settings_path(dir.path()), "max_size: 2M\n").unwrap();
        assert_eq!(
            max_size_from(None, Some(dir.path())).unwrap(),
            Some(2 << 20)
        );
        assert_eq!(
            max_size_from(Some("1K"), Some(dir.path())).unwrap(),
            Some(1024)
        );
        std::fs::write(settings_path(dir.path()), "max_size: 4096\n").unwrap();
        assert_eq!(max_size_from(None, Some(dir.path())).unwrap(), Some(4096));
        std::fs::write(settings_path(dir.path()), "max_size: lots\n").unwrap();
        assert!(matches!(
            max_size_from(None, Some(dir.path())),
            Err(SizeSettingError::File { value, .. }) if value == "lots"
        ));
        std::fs::write(settings_path(dir.path()), "max_sise: 1M\n").unwrap();
        assert!(
            matches!(
                max_size_from(None, Some(dir.path())),
                Err(SizeSettingError::Yaml { line: 1, .. })
            ),
            "unknown keys are errors"
        );
        let bad = max_size_from(Some("x"), None).unwrap_err();
        assert_eq!(
            bad.to_string(),
            "$HOOKGATE_STORE_MAX_SIZE: not a size `x` (use 500M, 2G or bytes)"
        );
    }
}
