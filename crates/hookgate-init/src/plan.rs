//! Plans (what would change, file by file) and applying them.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use hookgate_core::AgentKind;
use serde_json::Value;

use crate::codex::{self, TrustEdit};
use crate::jsonc;
use crate::jsonfile::{self, Located};
use crate::paths::{self, physical};
use crate::{InitError, InitOptions, Scope, Target};

/// One file's change. `before` is what the file held when the plan was made (`None`: absent), so
/// that [`apply`] can refuse to clobber an edit made in between.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The file.
    pub path: PathBuf,
    /// Its content when planned; `None` if it did not exist.
    pub before: Option<String>,
    /// Its new content; `None` deletes it.
    pub after: Option<String>,
}

/// Every file change of one `init` (only files that actually change), plus what the user should
/// know that a file cannot say (trust prompts, caveats).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The changes, in the order they are applied.
    pub files: Vec<FileChange>,
    /// Human-readable notes.
    pub notes: Vec<String>,
    /// What the user should act on before relying on the install (a binary path that will not
    /// last, see [`crate::transient_location`]).
    pub warnings: Vec<String>,
}

impl Plan {
    /// Whether applying the plan would change nothing.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    fn push(&mut self, path: PathBuf, before: Option<String>, after: Option<String>) {
        if before != after {
            self.files.push(FileChange {
                path,
                before,
                after,
            });
        }
    }
}

pub(crate) fn read(path: &Path) -> Result<Option<String>, InitError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(InitError::io(path, e)),
    }
}

fn check_bin(opts: &InitOptions) -> Result<(), InitError> {
    if opts.hookgate_bin.is_absolute() {
        Ok(())
    } else {
        Err(InitError::RelativeBinary {
            path: opts.hookgate_bin.clone(),
        })
    }
}

/// The plan that installs (or updates) hookgate's hooks for `target`.
pub fn plan_install(target: &Target, opts: &InitOptions) -> Result<Plan, InitError> {
    check_bin(opts)?;
    let mut plan = edit(target, opts, Mode::Install)?;
    plan.warnings.extend(crate::transient_location(
        &opts.hookgate_bin,
        &opts.transient_dirs,
    ));
    Ok(plan)
}

/// The plan that removes hookgate's hooks (and Codex trust entries) for `target`.
pub fn plan_remove(target: &Target, opts: &InitOptions) -> Result<Plan, InitError> {
    edit(target, opts, Mode::Remove)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Install,
    Remove,
}

fn edit(target: &Target, opts: &InitOptions, mode: Mode) -> Result<Plan, InitError> {
    let agent = target.agent;
    let path = paths::config_path(target, &opts.homes)?;
    let before = read(&path)?;
    let original = jsonfile::parse(&path, before.as_deref())?;
    let mut root = original.clone();
    let delete = match mode {
        Mode::Install => {
            jsonfile::install(&mut root, agent, opts, &path)?;
            false
        }
        Mode::Remove => jsonfile::remove(&mut root, agent, &opts.hookgate_bin),
    };
    // A file left holding only what an install from nothing would create is deleted — unless
    // the user wrote a comment in it, which is theirs to keep.
    let keep_comments = match before.as_deref() {
        Some(text) if delete => jsonc::has_comments(&path, text)?,
        _ => false,
    };
    let after = if delete && !keep_comments {
        None
    } else if root == original {
        // Nothing changed semantically: keep the bytes (formatting, trailing newline) as they are.
        before.clone()
    } else {
        Some(jsonfile::render(
            &path,
            before.as_deref(),
            &original,
            &root,
        )?)
    };

    let mut plan = Plan::default();
    if agent == AgentKind::Codex {
        let trust_path = paths::codex_config_toml(target, &opts.homes)?;
        let toml_before = read(&trust_path)?;
        let mut doc = codex::parse_toml(&trust_path, toml_before.as_deref())?;
        let edit = trust_edit(
            &path,
            &jsonfile::locate(&original, agent, &opts.hookgate_bin),
            &jsonfile::locate(&root, agent, &opts.hookgate_bin),
        );
        edit.apply(&mut doc, &trust_path)?;
        let text = doc.to_string();
        let toml_after = if text == toml_before.as_deref().unwrap_or("") {
            toml_before.clone()
        } else if mode == Mode::Remove && text.trim().is_empty() {
            None
        } else {
            Some(text)
        };
        // Trust first on install (a trusted entry without a hook is inert; a hook without trust is
        // silently skipped), hooks first on removal.
        if mode == Mode::Install {
            plan.push(trust_path.clone(), toml_before, toml_after);
            plan.push(path.clone(), before, after);
        } else {
            plan.push(path.clone(), before, after);
            plan.push(trust_path.clone(), toml_before, toml_after);
        }
        if mode == Mode::Install {
            codex_notes(&mut plan, target, &doc, &trust_path);
        }
    } else {
        plan.push(path.clone(), before, after);
        if mode == Mode::Install {
            other_notes(&mut plan, target, &root);
        }
    }
    Ok(plan)
}

/// Pairs the handlers of `hooks.json` before and after an edit: ours are dropped and re-trusted,
/// foreign ones keep their order within an event, so the k-th foreign handler before is the k-th
/// after; those whose position changed take their trust entry with them.
fn trust_edit(source: &Path, before: &[Located], after: &[Located]) -> TrustEdit {
    let key = |l: &Located| codex::codex_trust_key(source, &l.event, l.group, l.index);
    let mut edit = TrustEdit::default();
    let mut foreign_before: BTreeMap<&str, Vec<&Located>> = BTreeMap::new();
    for l in before {
        if l.ours {
            edit.drop.push(key(l));
        } else {
            foreign_before.entry(&l.event).or_default().push(l);
        }
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for l in after {
        if l.ours {
            if let Some(hash) = codex::codex_trust_hash(&l.event, l.matcher.as_deref(), &l.handler)
            {
                edit.trust.push((key(l), hash));
            }
            continue;
        }
        let k = seen.entry(&l.event).or_default();
        if let Some(old) = foreign_before.get(l.event.as_str()).and_then(|v| v.get(*k))
            && (old.group, old.index) != (l.group, l.index)
        {
            edit.moves.push((key(old), key(l)));
        }
        *k += 1;
    }
    edit
}

fn codex_notes(plan: &mut Plan, target: &Target, doc: &toml_edit::DocumentMut, trust: &Path) {
    plan.notes.push(format!(
        "Codex runs a hook only once it is trusted: hookgate records the hash of each of its hooks in \
         {} ([hooks.state]). If Codex ever lists them as untrusted or modified (a Codex release \
         that hashes hooks differently), review them with /hooks in Codex, or run \
         `codex --dangerously-bypass-hook-trust` for one session.",
        trust.display()
    ));
    if let Scope::Project(dir) = &target.scope
        && !codex_project_trusted(doc, &physical(dir))
    {
        plan.notes.push(format!(
            "Codex loads {}/.codex/ only in a trusted project: trust it when Codex asks, or add \
             [projects.\"{}\"] trust_level = \"trusted\" to {}.",
            physical(dir).display(),
            physical(dir).display(),
            trust.display()
        ));
    }
}

/// Whether `dir` or one of its ancestors is marked trusted in Codex's user config.
pub(crate) fn codex_project_trusted(doc: &toml_edit::DocumentMut, dir: &Path) -> bool {
    let Some(projects) = doc.get("projects") else {
        return false;
    };
    dir.ancestors().any(|d| {
        projects
            .get(d.to_string_lossy().as_ref())
            .and_then(|p| p.get("trust_level"))
            .and_then(toml_edit::Item::as_str)
            == Some("trusted")
    })
}

fn other_notes(plan: &mut Plan, target: &Target, root: &serde_json::Map<String, Value>) {
    let project = matches!(target.scope, Scope::Project(_));
    match target.agent {
        AgentKind::Claude if project => plan.notes.push(
            "The project settings hold this machine's absolute hookgate path; if you commit \
             .claude/settings.json, teammates need hookgate at the same path (or use --global)."
                .into(),
        ),
        AgentKind::Gemini => {
            if project {
                plan.notes.push(
                    "Gemini runs project hooks only in a trusted folder, and warns once when it \
                     first sees them."
                        .into(),
                );
            }
            let hc = root.get("hooksConfig");
            if hc.and_then(|h| h.get("enabled")) == Some(&Value::Bool(false)) {
                plan.notes.push(
                    "hooksConfig.enabled is false in this file: Gemini will not run any hook \
                     until it is true."
                        .into(),
                );
            }
        }
        AgentKind::Copilot if project => plan.notes.push(
            "Copilot CLI loads .github/hooks only in a trusted folder; the Copilot cloud agent \
             ignores exec-form hooks."
                .into(),
        ),
        AgentKind::Cursor => plan.notes.push(
            "Cursor's tool and shell hooks are written with failClosed: if hookgate is missing or \
             crashes, Cursor blocks those actions instead of allowing them."
                .into(),
        ),
        _ => {}
    }
}

/// Applies a plan: each file is written to a temp file beside it and renamed over it (parent
/// directories created; an existing file's permissions kept; a symlinked file written through
/// the link), and a file whose `after` is `None` is deleted. A file that no longer holds its
/// `before` content is a [`InitError::Conflict`], checked for every file before any is written.
pub fn apply(plan: &Plan) -> Result<(), InitError> {
    for change in &plan.files {
        if read(&change.path)? != change.before {
            return Err(InitError::Conflict {
                path: change.path.clone(),
            });
        }
    }
    for change in &plan.files {
        match &change.after {
            None => {
                match std::fs::remove_file(&change.path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(InitError::io(&change.path, e)),
                }
                remove_empty_agent_dir(&change.path);
            }
            Some(text) => write_atomic(&change.path, text)?,
        }
    }
    Ok(())
}

/// After deleting a config file, removes the agent's config directory too if that left it
/// empty (`.claude/`, `.codex/`, `.gemini/`, `.cursor/`, `.github/hooks/`), so `--remove`
/// leaves the project as it was. `remove_dir` only removes empty directories, so nothing of
/// the user's can go.
fn remove_empty_agent_dir(file: &Path) {
    let Some(dir) = file.parent() else { return };
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let ours = matches!(name, ".claude" | ".codex" | ".gemini" | ".cursor")
        || (name == "hooks"
            && dir
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == ".github"));
    if ours {
        let _ = std::fs::remove_dir(dir);
        if name == "hooks"
            && let Some(github) = dir.parent()
        {
            let _ = std::fs::remove_dir(github);
        }
    }
}

fn write_atomic(path: &Path, text: &str) -> Result<(), InitError> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link {
        std::fs::canonicalize(path).map_err(|e| InitError::io(path, e))?
    } else {
        path.to_path_buf()
    };
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| InitError::io(dir, e))?;
    let name = target
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.hookgate-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        if let Ok(meta) = std::fs::metadata(&target) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        InitError::io(&target, e)
    })
}
