//! Symlink resolution for the part of a path that exists (read-only file-system access).
//!
//! The path is walked component by component the way the kernel would: each existing
//! component is `lstat`ed, symlinks are replaced by their target (relative targets against the
//! link's directory, at most [`MAX_SYMLINKS`] hops), and `..` goes to the *physical* parent.
//! Once a component does not exist, the rest is folded lexically: nothing below a missing
//! directory can be a symlink yet. A dangling symlink is followed to its (missing) target,
//! because writing through it creates that target.
//!
//! TOCTOU: the answer describes the file system at the moment of the call. Anything that can
//! write to a directory on the path can swap a component for a symlink between this check and
//! the agent's actual access; a classifier cannot prevent that. An enforcer that must be exact
//! opens with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` (or cap-std) instead of
//! checking first. Use this module to *judge* a requested path, and treat errors as "unknown".

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::catalog::{Catalog, PathContext, SensitiveMatch};
use crate::lexical::normalize;

/// Linux's own limit (`MAXSYMLINKS`); a longer chain is treated as a loop.
pub const MAX_SYMLINKS: usize = 40;

/// Why a path could not be resolved. Callers should treat the path as unknown (ask or deny),
/// never as safe.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error("more than {MAX_SYMLINKS} symlinks while resolving {path}")]
    SymlinkLoop { path: PathBuf },
    #[error("cannot inspect {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// The result of resolving a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Lexical form: `~` expanded, absolute, `.`/`..` folded, symlinks untouched.
    pub lexical: PathBuf,
    /// Physical form: symlinks in the existing part followed, missing tail folded.
    pub physical: PathBuf,
    /// Longest leading part of `physical` that exists.
    pub existing: PathBuf,
    /// Number of symlinks followed.
    pub symlinks_followed: usize,
    /// A `..` tried to climb above `/` (in either form).
    pub escaped_root: bool,
}

/// Resolves `raw` (as an agent wrote it) against `cwd` and `home`.
pub fn resolve(raw: &str, cwd: &Path, home: Option<&Path>) -> Result<Resolved, ResolveError> {
    let lexical = normalize(raw, cwd, home);
    // Walk the *unfolded* absolute path: `link/..` must go to the link target's parent, as
    // the kernel does, not cancel out lexically.
    let expanded = expand(raw, cwd, home);
    let (physical, existing, symlinks_followed, escaped) = walk(&expanded)?;
    Ok(Resolved {
        lexical: lexical.path,
        physical,
        existing,
        symlinks_followed,
        escaped_root: lexical.escaped_root || escaped,
    })
}

/// `~`/`$HOME` expansion and joining with `cwd`, without folding.
fn expand(raw: &str, cwd: &Path, home: Option<&Path>) -> PathBuf {
    let mut p = PathBuf::from(raw);
    if let Some(home) = home {
        for prefix in ["~", "$HOME", "${HOME}"] {
            if let Some(rest) = raw.strip_prefix(prefix) {
                if rest.is_empty() {
                    p = home.to_path_buf();
                    break;
                }
                if let Some(rest) = rest.strip_prefix('/') {
                    p = home.join(rest);
                    break;
                }
            }
        }
    }
    if p.is_absolute() {
        p
    } else {
        let base = if cwd.is_absolute() {
            cwd.to_path_buf()
        } else {
            Path::new("/").join(cwd)
        };
        base.join(p)
    }
}

fn walk(path: &Path) -> Result<(PathBuf, PathBuf, usize, bool), ResolveError> {
    let mut pending: VecDeque<OsString> = VecDeque::new();
    push_front_components(&mut pending, path);
    let mut current = PathBuf::from("/");
    let mut exists = true;
    let mut existing = current.clone();
    let mut hops = 0usize;
    let mut escaped = false;
    while let Some(part) = pending.pop_front() {
        if part == ".." {
            if current.parent().is_none() {
                escaped = true;
            }
            current.pop();
            if exists || current.starts_with(&existing) {
                // Back inside the part that exists (a missing dir followed by `..`).
                exists = true;
                existing.clone_from(&current);
            }
            continue;
        }
        let candidate = current.join(&part);
        if !exists {
            current = candidate;
            continue;
        }
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_SYMLINKS {
                    return Err(ResolveError::SymlinkLoop {
                        path: path.to_path_buf(),
                    });
                }
                let target = std::fs::read_link(&candidate).map_err(|source| ResolveError::Io {
                    path: candidate.clone(),
                    source,
                })?;
                if target.is_absolute() {
                    current = PathBuf::from("/");
                    existing.clone_from(&current);
                }
                push_front_components(&mut pending, &target);
            }
            Ok(_) => {
                current = candidate;
                existing.clone_from(&current);
            }
            Err(e)
                if e.kind() == io::ErrorKind::NotFound
                    || e.kind() == io::ErrorKind::NotADirectory =>
            {
                exists = false;
                current = candidate;
            }
            Err(source) => {
                return Err(ResolveError::Io {
                    path: candidate,
                    source,
                });
            }
        }
    }
    Ok((current, existing, hops, escaped))
}

/// Puts the components of `p` (skipping root and `.`) in front of the queue, in order.
fn push_front_components(queue: &mut VecDeque<OsString>, p: &Path) {
    let parts: Vec<OsString> = p
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
        })
        .collect();
    for part in parts.into_iter().rev() {
        queue.push_front(part);
    }
}

/// Classifies both the lexical and the physical form of `raw`, with the context's home and
/// workspace resolved the same way (so `/var` → `/private/var` style links agree).
///
/// A path that reaches a sensitive place only through a symlink is still caught, and so is
/// one that *names* a sensitive place even if that name is currently a symlink elsewhere.
pub fn classify_resolved(
    raw: &str,
    ctx: &PathContext,
) -> Result<Vec<SensitiveMatch>, ResolveError> {
    classify_resolved_with_path(raw, ctx).map(|(_, m)| m)
}

/// As [`classify_resolved`], also returning the resolution, so a caller that needs the
/// physical path too (containment checks against other protected paths) walks it once.
pub fn classify_resolved_with_path(
    raw: &str,
    ctx: &PathContext,
) -> Result<(Resolved, Vec<SensitiveMatch>), ResolveError> {
    let catalog = Catalog::global();
    let r = resolve(raw, &ctx.cwd, ctx.home.as_deref())?;
    let mut out = catalog.classify_normalized(&r.lexical, ctx);
    let physical_ctx = PathContext {
        cwd: ctx.cwd.clone(),
        workspace: Some(resolve_dir(ctx.workspace.as_deref().unwrap_or(&ctx.cwd))),
        home: ctx.home.as_deref().map(resolve_dir),
    };
    for m in catalog
        .classify_normalized(&r.physical, &physical_ctx)
        .into_iter()
        .chain(catalog.classify_normalized(&r.physical, ctx))
    {
        if !out.iter().any(|o| o.id == m.id) {
            out.push(m);
        }
    }
    Ok((r, out))
}

/// A context directory resolved physically when possible, lexically otherwise.
fn resolve_dir(dir: &Path) -> PathBuf {
    walk(&expand(&dir.to_string_lossy(), Path::new("/"), None)).map_or_else(
        |_| normalize(&dir.to_string_lossy(), Path::new("/"), None).path,
        |(p, ..)| p,
    )
}
