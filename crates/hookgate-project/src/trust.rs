//! Trust in a project's own `.hookgate/`, pinned by the user (direnv's `allow`, for hookgate).
//!
//! A repository's `.hookgate/` arrives with `git clone`: whoever wrote the repository wrote it.
//! Until the user runs `hookgate trust`, it may only tighten the guard (the policy and engine
//! loaders enforce that; this module only answers *whether* it is trusted).
//!
//! **The pin.** A SHA-256 over the names and bytes of every file a loader reads from
//! `.hookgate/` (see [`config_files`]). Any change, addition or removal gives another digest,
//! so trust drops until the user looks again.
//!
//! **The trust file** lives in the user config dir ([`TRUST_FILE_NAME`]), never in the project:
//! the agent must not be able to write it (it belongs to hookgate's protected set). One line
//! per trusted `.hookgate/`: `v1 <sha256 hex> <unix seconds> <canonical path>`. A trust file
//! that cannot be read or parsed trusts nothing (fail closed) and is reported.

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest as _, Sha256};

use crate::Project;

/// The trust file's name inside the user config dir.
pub const TRUST_FILE_NAME: &str = "trust";

/// The top-level files of `.hookgate/` that a loader reads (policy, hooks config). Drop-ins
/// in `hooks.d/` are added by [`config_files`].
const TOP_FILES: &[&str] = &[
    "policy.yaml",
    "hooks.yaml",
    "hooks.yml",
    "hooks.toml",
    "config.toml",
];

/// Why trust could not be established or changed.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The trust file is not in the expected format.
    #[error("{}:{line}: {message}", path.display())]
    Format {
        /// The trust file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// The project has no `.hookgate/` config to trust.
    #[error("{}: no .hookgate/ config files here, nothing to trust", root.display())]
    NoProjectConfig {
        /// The project root.
        root: PathBuf,
    },
    /// No user config dir (no home, no `HOOKGATE_CONFIG_DIR`): nowhere to keep trust.
    #[error("no user config dir (set HOOKGATE_CONFIG_DIR or HOME): nowhere to keep trust")]
    NoUserConfigDir,
    /// The path cannot be written on one line of the trust file.
    #[error("{}: a path with a line break or not in UTF-8 cannot be trusted", path.display())]
    UnrepresentablePath {
        /// The path.
        path: PathBuf,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TrustError + '_ {
    move |source| TrustError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One file of a project's config, as hashed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigFile {
    /// Its name relative to `.hookgate/` (`policy.yaml`, `hooks.d/10-lint.yaml`).
    pub name: String,
    /// Its path.
    pub path: PathBuf,
}

/// Every file of `hookgate_dir` that a loader reads, in a stable order: the top-level config
/// files that exist, then every file in `hooks.d/` (all of them, not only the extensions the
/// engine loads today: adding any file there drops trust).
pub fn config_files(hookgate_dir: &Path) -> Result<Vec<ConfigFile>, TrustError> {
    let mut files = Vec::new();
    for name in TOP_FILES {
        let path = hookgate_dir.join(name);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => files.push(ConfigFile {
                name: (*name).to_owned(),
                path,
            }),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&path)(e)),
        }
    }
    let drop_ins = hookgate_dir.join("hooks.d");
    if drop_ins.is_dir() {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&drop_ins).map_err(io(&drop_ins))? {
            let entry = entry.map_err(io(&drop_ins))?;
            let path = entry.path();
            if !path.is_file() {
                continue;
            }
            let Some(file_name) = entry.file_name().to_str().map(str::to_owned) else {
                return Err(TrustError::UnrepresentablePath { path });
            };
            found.push(ConfigFile {
                name: format!("hooks.d/{file_name}"),
                path,
            });
        }
        found.sort_by(|a, b| a.name.cmp(&b.name));
        files.extend(found);
    }
    Ok(files)
}

/// The SHA-256 pin of a project's config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fingerprint {
    /// Lowercase hex SHA-256.
    pub sha256: String,
    /// The files it covers, in hashing order.
    pub files: Vec<String>,
}

/// One config file of a `.hookgate/`, with the bytes that were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotFile {
    /// Its name relative to `.hookgate/` (`policy.yaml`, `hooks.d/10-lint.yaml`).
    pub name: String,
    /// Its path.
    pub path: PathBuf,
    /// Its content, exactly as hashed.
    pub bytes: Vec<u8>,
}

/// Every config file of a `.hookgate/`, read once.
///
/// Invariant protected (no time-of-check/time-of-use gap): the hook hashes *these* bytes for
/// trust and hands the same bytes to the policy and hooks loaders, so a file changed between
/// the trust check and the load can never be applied as trusted — and each file is read once
/// per call, not twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigSnapshot {
    /// The `.hookgate/` directory.
    pub dir: PathBuf,
    /// Its files in [`config_files`] order.
    pub files: Vec<SnapshotFile>,
}

impl ConfigSnapshot {
    /// Reads every file of [`config_files`]`(hookgate_dir)`.
    pub fn read(hookgate_dir: &Path) -> Result<Self, TrustError> {
        let files = config_files(hookgate_dir)?
            .into_iter()
            .map(|f| {
                let bytes = std::fs::read(&f.path).map_err(io(&f.path))?;
                Ok(SnapshotFile {
                    name: f.name,
                    path: f.path,
                    bytes,
                })
            })
            .collect::<Result<Vec<_>, TrustError>>()?;
        Ok(Self {
            dir: hookgate_dir.to_path_buf(),
            files,
        })
    }

    /// The file named `name` (relative to `.hookgate/`), if it was read.
    pub fn file(&self, name: &str) -> Option<&SnapshotFile> {
        self.files.iter().find(|f| f.name == name)
    }

    /// The pin of exactly these bytes: a versioned prefix, then per file its name, a NUL, its
    /// length (u64 little-endian) and its bytes, so no two file sets hash alike by moving bytes
    /// between names.
    pub fn fingerprint(&self) -> Fingerprint {
        let mut hasher = Sha256::new();
        hasher.update(b"hookgate-trust-v1\n");
        for file in &self.files {
            hasher.update(file.name.as_bytes());
            hasher.update([0u8]);
            hasher.update((file.bytes.len() as u64).to_le_bytes());
            hasher.update(&file.bytes);
        }
        Fingerprint {
            sha256: hex(&hasher.finalize()),
            files: self.files.iter().map(|f| f.name.clone()).collect(),
        }
    }
}

/// The pin of a `.hookgate/` as it is on disk now (see [`ConfigSnapshot::fingerprint`]).
pub fn fingerprint(hookgate_dir: &Path) -> Result<Fingerprint, TrustError> {
    Ok(ConfigSnapshot::read(hookgate_dir)?.fingerprint())
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Why a project's config is not trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UntrustedReason {
    /// `hookgate trust` was never run for this `.hookgate/` (or was revoked).
    NeverTrusted,
    /// It was trusted, and a file has changed, appeared or disappeared since.
    Changed,
    /// The config or the trust file could not be read: nothing is trusted.
    Unreadable,
}

impl fmt::Display for UntrustedReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NeverTrusted => "never trusted (run `hookgate trust`)",
            Self::Changed => "changed since it was trusted (review it, then `hookgate trust`)",
            Self::Unreadable => "its files or the trust file cannot be read",
        })
    }
}

/// Whether a project's own config may loosen the guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum TrustState {
    /// The project has no `.hookgate/` config files: nothing to trust.
    NoProjectConfig,
    /// The user pinned exactly these bytes: the project config applies as written.
    Trusted,
    /// The project config may only tighten.
    Untrusted {
        /// Why.
        reason: UntrustedReason,
    },
}

impl TrustState {
    /// True only when the user pinned the project's current config.
    pub fn is_trusted(self) -> bool {
        self == Self::Trusted
    }
}

/// The trust of `project`'s `.hookgate/`, against the trust file in `user_config_dir`. Any
/// failure (unreadable file, corrupt trust file, no user config dir) is untrusted: trust is
/// never the fallback. Reads the config itself; the hook, which also loads it, reads it once
/// with [`ConfigSnapshot::read`] and calls [`trust_state_of`].
pub fn trust_state(project: &Project, user_config_dir: Option<&Path>) -> TrustState {
    let Some(dir) = &project.hookgate_dir else {
        return TrustState::NoProjectConfig;
    };
    trust_state_of(ConfigSnapshot::read(dir).as_ref().ok(), user_config_dir)
}

/// The trust of a snapshot already read (`None`: the project has a `.hookgate/` whose files
/// could not be read — untrusted, [`UntrustedReason::Unreadable`]).
pub fn trust_state_of(
    snapshot: Option<&ConfigSnapshot>,
    user_config_dir: Option<&Path>,
) -> TrustState {
    let unreadable = TrustState::Untrusted {
        reason: UntrustedReason::Unreadable,
    };
    let Some(snapshot) = snapshot else {
        return unreadable;
    };
    if snapshot.files.is_empty() {
        return TrustState::NoProjectConfig;
    }
    let Some(user_dir) = user_config_dir else {
        return TrustState::Untrusted {
            reason: UntrustedReason::NeverTrusted,
        };
    };
    let Ok(store) = TrustStore::load(user_dir) else {
        return unreadable;
    };
    let current = snapshot.fingerprint();
    let key = canonical(&snapshot.dir);
    match store.entries.iter().find(|e| e.dir == key) {
        None => TrustState::Untrusted {
            reason: UntrustedReason::NeverTrusted,
        },
        Some(e) if e.sha256 == current.sha256 => TrustState::Trusted,
        Some(_) => TrustState::Untrusted {
            reason: UntrustedReason::Changed,
        },
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// One trusted `.hookgate/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrustEntry {
    /// The canonical path of the trusted `.hookgate/` directory.
    pub dir: PathBuf,
    /// The pinned digest.
    pub sha256: String,
    /// When it was trusted (seconds since the Unix epoch).
    pub trusted_at: u64,
}

/// The user's trust file, loaded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustStore {
    path: PathBuf,
    entries: Vec<TrustEntry>,
}

impl TrustStore {
    /// Reads `<user_config_dir>/trust`; a missing file is an empty store.
    pub fn load(user_config_dir: &Path) -> Result<Self, TrustError> {
        let path = user_config_dir.join(TRUST_FILE_NAME);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(&path)(e)),
        };
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |message: &str| TrustError::Format {
                path: path.clone(),
                line: i + 1,
                message: message.to_owned(),
            };
            let mut parts = line.splitn(4, ' ');
            if parts.next() != Some("v1") {
                return Err(bad("expected `v1 <sha256> <seconds> <path>`"));
            }
            let sha256 = parts
                .next()
                .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                .ok_or_else(|| bad("not a SHA-256 in hex"))?;
            let trusted_at = parts
                .next()
                .and_then(|s| s.parse::<u64>().ok())
                .ok_or_else(|| bad("not a time in seconds"))?;
            let dir = parts
                .next()
                .filter(|p| p.starts_with('/'))
                .ok_or_else(|| bad("not an absolute path"))?;
            entries.push(TrustEntry {
                dir: PathBuf::from(dir),
                sha256: sha256.to_ascii_lowercase(),
                trusted_at,
            });
        }
        Ok(Self { path, entries })
    }

    /// The trusted directories, in the order they were trusted.
    pub fn entries(&self) -> &[TrustEntry] {
        &self.entries
    }

    /// The trust file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Pins `project`'s current config (replacing an earlier pin of the same directory) and
    /// writes the trust file. `now` is the time to record, in Unix seconds.
    pub fn trust(&mut self, project: &Project, now: u64) -> Result<TrustEntry, TrustError> {
        let dir = project
            .hookgate_dir
            .as_ref()
            .ok_or_else(|| TrustError::NoProjectConfig {
                root: project.root.clone(),
            })?;
        let print = fingerprint(dir)?;
        if print.files.is_empty() {
            return Err(TrustError::NoProjectConfig {
                root: project.root.clone(),
            });
        }
        let key = canonical(dir);
        if key.to_str().is_none_or(|s| s.contains(['\n', '\r'])) {
            return Err(TrustError::UnrepresentablePath { path: key });
        }
        let entry = TrustEntry {
            dir: key,
            sha256: print.sha256,
            trusted_at: now,
        };
        self.entries.retain(|e| e.dir != entry.dir);
        self.entries.push(entry.clone());
        self.save()?;
        Ok(entry)
    }

    /// Forgets the pin of `hookgate_dir`; `Ok(false)` when it had none.
    pub fn revoke(&mut self, hookgate_dir: &Path) -> Result<bool, TrustError> {
        let key = canonical(hookgate_dir);
        let before = self.entries.len();
        self.entries
            .retain(|e| e.dir != key && e.dir != hookgate_dir);
        if self.entries.len() == before {
            return Ok(false);
        }
        self.save()?;
        Ok(true)
    }

    /// Writes the file whole, through a temporary file renamed into place, so a reader never
    /// sees half of it.
    fn save(&self) -> Result<(), TrustError> {
        use std::fmt::Write as _;
        let parent = self.path.parent().unwrap_or_else(|| Path::new("."));
        std::fs::create_dir_all(parent).map_err(io(parent))?;
        let mut text = String::from(
            "# hookgate trust: the .hookgate/ directories whose exact config the user allowed.\n\
             # Written by `hookgate trust`; any change to those files drops their trust.\n",
        );
        for e in &self.entries {
            let _ = writeln!(text, "v1 {} {} {}", e.sha256, e.trusted_at, e.dir.display());
        }
        let tmp = parent.join(format!(".{TRUST_FILE_NAME}.tmp-{}", std::process::id()));
        let write = || -> std::io::Result<()> {
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&tmp, &self.path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            io(&self.path)(e)
        })
    }
}
