//! The size cap of the audit store: where users set it, and how each backend keeps to it.
//!
//! One setting, read in one place: `$HOOKGATE_STORE_MAX_SIZE` when set (per run, as every
//! `HOOKGATE_*` variable), else `max_size` in the user's `store.yaml` (`<user config
//! dir>/store.yaml`, the file users edit once). `prune` uses it when `--max-size` is not
//! given; the store applies it by itself — SQLite whenever it takes in spooled records, JSONL
//! when an append leaves `audit.jsonl` past it — evicting records until nine tenths of it is
//! left (the slack keeps every append from pruning again).
//!
//! What the cap measures is the file it names: `audit.jsonl`'s size, and `audit.db`'s size
//! as SQLite holds it (pages × page size, indexes and free pages included; the WAL is
//! checkpointed after an eviction so the file on disk shrinks too).
//!
//! Invariant (evidence outlives noise): records that allowed or had no opinion (lifecycle
//! rows included) are evicted first, oldest first; deny, ask and error records only when
//! nothing else is left. An agent that fills the store with large allowed calls cannot push
//! its own denials out of the trail. Every eviction is counted by decision, durably, in the
//! store ([`Evicted`]), so `stats` and `doctor` can say what the cap took.
//!
//! Invariant: a value that is not a size is an error for the commands that report it
//! (`prune`, `doctor`) and no cap for the store, never a guessed cap that deletes records.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::record::RecordDecision;

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

/// How many records the size cap evicted, by decision, since the store began. Kept in the
/// store itself (an `evicted` table in `audit.db`, `evicted.jsonl` beside `audit.jsonl`), so
/// an eviction is never silent: `stats` reports it and `doctor` warns when evidence went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Evicted {
    /// Allowed calls.
    pub allow: u64,
    /// Records without an opinion (lifecycle rows included).
    pub none: u64,
    /// Calls that asked a human.
    pub ask: u64,
    /// Denied calls.
    pub deny: u64,
    /// Calls whose evaluation failed.
    pub error: u64,
}

impl Evicted {
    /// Counts `n` more evicted records with `decision`.
    pub(crate) fn add(&mut self, decision: RecordDecision, n: u64) {
        let slot = self.slot(decision);
        *slot = slot.saturating_add(n);
    }

    /// How many records with `decision` were evicted.
    pub fn of(self, decision: RecordDecision) -> u64 {
        match decision {
            RecordDecision::Allow => self.allow,
            RecordDecision::None => self.none,
            RecordDecision::Ask => self.ask,
            RecordDecision::Deny => self.deny,
            RecordDecision::Error => self.error,
        }
    }

    fn slot(&mut self, decision: RecordDecision) -> &mut u64 {
        match decision {
            RecordDecision::Allow => &mut self.allow,
            RecordDecision::None => &mut self.none,
            RecordDecision::Ask => &mut self.ask,
            RecordDecision::Deny => &mut self.deny,
            RecordDecision::Error => &mut self.error,
        }
    }

    /// The sum of two counts (the backends of one data directory).
    #[must_use]
    pub fn plus(self, other: Self) -> Self {
        let mut sum = self;
        for d in RecordDecision::ALL {
            sum.add(d, other.of(d));
        }
        sum
    }

    /// Every evicted record.
    pub fn total(&self) -> u64 {
        RecordDecision::ALL
            .into_iter()
            .map(|d| self.of(d))
            .fold(0, u64::saturating_add)
    }

    /// Evicted records that were evidence: deny, ask and error.
    pub fn evidence(&self) -> u64 {
        RecordDecision::ALL
            .into_iter()
            .filter(|d| is_evidence(*d))
            .map(|d| self.of(d))
            .fold(0, u64::saturating_add)
    }

    /// The counts as `N deny, N allow, …` (non-zero ones only), `none` when nothing went.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [
            RecordDecision::Deny,
            RecordDecision::Ask,
            RecordDecision::Error,
            RecordDecision::Allow,
            RecordDecision::None,
        ]
        .into_iter()
        .filter(|d| self.of(*d) > 0)
        .map(|d| format!("{} {}", self.of(d), d.as_str()))
        .collect();
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    }

    /// What `doctor` warns about: `Some` when the cap ever evicted a deny, ask or error
    /// record (the cap is too small for the trail to keep its evidence).
    pub fn notice(&self) -> Option<String> {
        (self.evidence() > 0).then(|| {
            format!(
                "the size cap evicted {} deny/ask/error record(s) ({} in all: {}); raise max_size in store.yaml",
                self.evidence(),
                self.total(),
                self.describe()
            )
        })
    }
}

/// Whether a record is evidence the cap keeps longest: a denial, an ask or an error.
fn is_evidence(decision: RecordDecision) -> bool {
    matches!(
        decision,
        RecordDecision::Deny | RecordDecision::Ask | RecordDecision::Error
    )
}

/// One record as the cap sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Weighed {
    /// When it was made.
    pub time_ms: u64,
    /// What was decided.
    pub decision: RecordDecision,
    /// Its bytes in the cap's measure.
    pub bytes: u64,
}

/// The indexes of `records` (in any order) to evict so the rest take at most `budget`:
/// allow / no-opinion records oldest first, then deny / ask / error records oldest first,
/// until the rest fit. Empty when they already fit.
pub(crate) fn evict_order(records: &[Weighed], budget: u64) -> Vec<usize> {
    let mut total: u64 = records.iter().map(|r| r.bytes).fold(0, u64::saturating_add);
    if total <= budget {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_by_key(|&i| {
        records
            .get(i)
            .map(|r| (is_evidence(r.decision), r.time_ms, i))
    });
    let mut evict = Vec::new();
    for i in order {
        if total <= budget {
            break;
        }
        if let Some(r) = records.get(i) {
            total = total.saturating_sub(r.bytes);
            evict.push(i);
        }
    }
    evict
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_is_evicted_only_when_nothing_else_is_left() {
        let r = |time_ms, decision| Weighed {
            time_ms,
            decision,
            bytes: 10,
        };
        let records = [
            r(1, RecordDecision::Deny),
            r(2, RecordDecision::Allow),
            r(3, RecordDecision::Ask),
            r(4, RecordDecision::None),
            r(5, RecordDecision::Allow),
            r(6, RecordDecision::Error),
        ];
        assert!(evict_order(&records, 60).is_empty());
        assert_eq!(evict_order(&records, 40), vec![1, 3]);
        assert_eq!(evict_order(&records, 30), vec![1, 3, 4]);
        assert_eq!(evict_order(&records, 20), vec![1, 3, 4, 0]);
        assert_eq!(evict_order(&records, 0), vec![1, 3, 4, 0, 2, 5]);
        let mut e = Evicted::default();
        e.add(RecordDecision::Allow, 3);
        assert_eq!(e.notice(), None);
        e.add(RecordDecision::Deny, 2);
        assert_eq!(e.plus(e).total(), 10);
        assert_eq!(e.describe(), "2 deny, 3 allow");
        assert!(e.notice().unwrap().contains("evicted 2 deny/ask/error"));
    }

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
