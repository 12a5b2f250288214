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

/// The size cap users set (`500M`, `2G`, `1048576`): `Ok(None)` when neither the variable nor
/// the file sets one, an error naming the value and where it came from when it is not a size.
pub fn max_size_setting() -> Result<Option<u64>, String> {
    max_size_from(
        std::env::var(MAX_SIZE_VAR).ok().as_deref(),
        hookgate_project::user_config_dir().as_deref(),
    )
}

/// [`max_size_setting`] from an explicit variable value and user config dir.
pub fn max_size_from(var: Option<&str>, config_dir: Option<&Path>) -> Result<Option<u64>, String> {
    if let Some(v) = var.filter(|v| !v.trim().is_empty()) {
        return crate::parse_size(v)
            .map(Some)
            .ok_or_else(|| format!("${MAX_SIZE_VAR}: not a size `{v}` (use 500M, 2G or bytes)"));
    }
    let Some(path) = config_dir.map(settings_path) else {
        return Ok(None);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    let settings: Settings =
        serde_saphyr::from_str_with_options(&text, hookgate_core::yaml::untrusted_options())
            .map_err(|e| {
                let e = hookgate_core::yaml::YamlError::from(&e);
                format!("{}:{}: {}", path.display(), e.line.unwrap_or(1), e.message)
            })?;
    match settings.max_size {
        None => Ok(None),
        Some(SizeText::Bytes(n)) => Ok(Some(n)),
        Some(SizeText::Text(t)) => crate::parse_size(&t).map(Some).ok_or_else(|| {
            format!(
                "{}: max_size: not a size `{t}` (use 500M, 2G or bytes)",
                path.display()
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_wins_over_the_file_and_a_bad_value_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(max_size_from(None, Some(dir.path())), Ok(None));
        std::fs::write(settings_path(dir.path()), "max_size: 2M\n").unwrap();
        assert_eq!(max_size_from(None, Some(dir.path())), Ok(Some(2 << 20)));
        assert_eq!(max_size_from(Some("1K"), Some(dir.path())), Ok(Some(1024)));
        std::fs::write(settings_path(dir.path()), "max_size: 4096\n").unwrap();
        assert_eq!(max_size_from(None, Some(dir.path())), Ok(Some(4096)));
        std::fs::write(settings_path(dir.path()), "max_size: lots\n").unwrap();
        assert!(max_size_from(None, Some(dir.path())).is_err());
        std::fs::write(settings_path(dir.path()), "max_sise: 1M\n").unwrap();
        assert!(
            max_size_from(None, Some(dir.path())).is_err(),
            "unknown keys are errors"
        );
        assert!(max_size_from(Some("x"), None).is_err());
    }
}
