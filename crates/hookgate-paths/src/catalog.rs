//! The catalog of sensitive locations (`catalog/sensitive.toml`) and [`classify`].
//!
//! Pure: classification looks at the path's components only. Pass a path that went through
//! [`crate::resolve`] when symlinks matter, or use [`crate::classify_resolved`].

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Serialize;

use crate::glob::{self, Glob};
use crate::lexical::{is_within, normalize};

/// What kind of sensitive location an entry describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    PrivateKey,
    SshConfig,
    CloudCredentials,
    ContainerCredentials,
    PackageRegistryCredentials,
    CredentialStore,
    EnvFile,
    ShellProfile,
    ShellHistory,
    PrivilegeEscalation,
    SystemBinary,
    SystemConfig,
    Persistence,
    /// A directory of the user's own programs on `PATH` (`~/.local/bin`): not persistence
    /// (nothing there runs by itself), but a name there can shadow an installed program.
    UserProgramDir,
    VcsConfig,
    CiCdConfig,
    BuildConfig,
    AgentHookConfig,
    HookgateConfig,
}

/// Which access to the location is the risk: reading a key leaks it, but reading `/usr/bin/ls`
/// is harmless while writing it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Read,
    Write,
    ReadWrite,
}

impl Access {
    /// True when an access of kind `op` (`Read` or `Write`) is one this entry cares about.
    pub fn covers(self, op: Access) -> bool {
        self == Access::ReadWrite || op == Access::ReadWrite || self == op
    }
}

/// Where an entry's patterns are rooted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Anchor {
    /// The user's home directory ([`PathContext::home`]); skipped when home is unknown.
    Home,
    /// The project root ([`PathContext::workspace`]).
    Workspace,
    /// The file-system root.
    Absolute,
}

#[derive(Debug)]
pub(crate) struct EntryDef {
    pub id: &'static str,
    pub category: Category,
    pub access: Access,
    pub anchor: Anchor,
    pub reason: &'static str,
    pub patterns: &'static [&'static str],
    pub exclude: &'static [&'static str],
    /// The entry protects another account's home (`/root/**` for a user who is not root):
    /// a path inside the user's own home or the workspace is judged by the home and
    /// workspace entries instead. Without this, an agent running as root (a container with
    /// `HOME=/root` and the project below it) had every write of its own workspace judged a
    /// privilege escalation.
    pub foreign_home: bool,
}

/// An entry of `catalog/regenerable.toml` (see [`crate::regenerable`]).
#[derive(Debug)]
pub(crate) struct RegenerableDef {
    pub id: &'static str,
    pub anchor: Anchor,
    pub reason: &'static str,
    pub patterns: &'static [&'static str],
    pub exclude: &'static [&'static str],
}

include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// The directories a path is judged against. Passed in, never read from the environment, so
/// classification stays a pure function of its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathContext {
    /// Directory relative paths are taken from (the agent payload's `cwd`).
    pub cwd: PathBuf,
    /// Project root for [`Anchor::Workspace`] entries; `cwd` when `None`.
    pub workspace: Option<PathBuf>,
    /// Home directory for `~`, `$HOME` and [`Anchor::Home`] entries.
    pub home: Option<PathBuf>,
}

impl PathContext {
    pub fn new(cwd: impl Into<PathBuf>, home: Option<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            workspace: None,
            home,
        }
    }

    fn workspace_root(&self) -> &Path {
        self.workspace.as_deref().unwrap_or(&self.cwd)
    }
}

/// One catalog entry that a path falls under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct SensitiveMatch {
    pub id: &'static str,
    pub category: Category,
    pub access: Access,
    pub reason: &'static str,
    /// The pattern (as written in the catalog) that matched.
    pub pattern: &'static str,
    /// The normalised path that was judged.
    pub path: PathBuf,
}

#[derive(Debug)]
struct CompiledEntry {
    def: &'static EntryDef,
    /// The entry's patterns (each with its text) and excludes, compiled on first use: a hook
    /// process asks one or two questions, each of a few entries (`keep` and the anchor select
    /// them before any pattern is read), and compiling the whole catalog cost ~2.7 M
    /// instructions — seven times a whole `git status` hook call. Invariant: the compiled
    /// form is what [`Catalog::load`] compiled eagerly before (same patterns, same order).
    globs: OnceLock<EntryGlobs>,
}

/// One entry's compiled patterns (each with its text, in the catalog's order) and excludes.
#[derive(Debug)]
struct EntryGlobs {
    patterns: Vec<(Glob, &'static str)>,
    exclude: Vec<Glob>,
}

impl CompiledEntry {
    fn globs(&self) -> &EntryGlobs {
        self.globs.get_or_init(|| EntryGlobs {
            patterns: self
                .def
                .patterns
                .iter()
                .filter_map(|p| Glob::compile(p).ok().map(|g| (g, *p)))
                .collect(),
            exclude: compile_all(self.def.exclude),
        })
    }

    fn patterns(&self) -> &[(Glob, &'static str)] {
        &self.globs().patterns
    }

    fn exclude(&self) -> &[Glob] {
        &self.globs().exclude
    }
}

/// The compiled catalog: brace-expanded, segment-split patterns, each entry's compiled the first
/// time a question reaches it. Built once per process.
#[derive(Debug)]
pub struct Catalog {
    entries: Vec<CompiledEntry>,
}

impl Catalog {
    /// The built-in catalog; an entry's patterns are compiled when a question first reaches
    /// that entry (see `CompiledEntry::globs` and the crate README for the measured cost).
    ///
    /// Every pattern is compiled-in data checked by the test
    /// `every_catalog_pattern_compiles_by_the_one_glob_rule`, so the `ok()` in
    /// `CompiledEntry::globs` never drops one in a shipped build (the catalog has no error
    /// path at run time).
    pub fn load() -> Self {
        Self {
            entries: ENTRIES
                .iter()
                .map(|def| CompiledEntry {
                    def,
                    globs: OnceLock::new(),
                })
                .collect(),
        }
    }

    /// The process-wide catalog, compiled on first use.
    pub fn global() -> &'static Catalog {
        static GLOBAL: OnceLock<Catalog> = OnceLock::new();
        GLOBAL.get_or_init(Catalog::load)
    }

    /// Number of entries (for reports).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry whose patterns match `path`. `path` is made absolute against `ctx.cwd`,
    /// `~`/`$HOME` are expanded and `.`/`..` folded before matching; symlinks are *not*
    /// followed here (see [`crate::classify_resolved`]).
    pub fn classify(&self, path: &Path, ctx: &PathContext) -> Vec<SensitiveMatch> {
        let norm = normalize(&path.to_string_lossy(), &ctx.cwd, ctx.home.as_deref()).path;
        self.classify_normalized(&norm, ctx)
    }

    /// As [`Catalog::classify`] for a path that is already absolute and normalised.
    pub fn classify_normalized(&self, path: &Path, ctx: &PathContext) -> Vec<SensitiveMatch> {
        self.classify_normalized_where(path, ctx, |_, _| true)
    }

    /// [`Catalog::classify`] restricted to the entries `keep` selects by category and access:
    /// the matches of `classify` that `keep` accepts, with the other entries' globs never
    /// matched. A caller that asks one question of the catalog (is this a private key? does
    /// reading it expose a credential?) pays for the entries that can answer it only, which
    /// matters on the hot path: every file a reader names in the workspace is asked whether
    /// it is a private key.
    pub fn classify_where(
        &self,
        path: &Path,
        ctx: &PathContext,
        keep: impl Fn(Category, Access) -> bool,
    ) -> Vec<SensitiveMatch> {
        let norm = normalize(&path.to_string_lossy(), &ctx.cwd, ctx.home.as_deref()).path;
        self.classify_normalized_where(&norm, ctx, keep)
    }

    /// [`Catalog::classify_normalized`] restricted as [`Catalog::classify_where`].
    pub fn classify_normalized_where(
        &self,
        path: &Path,
        ctx: &PathContext,
        keep: impl Fn(Category, Access) -> bool,
    ) -> Vec<SensitiveMatch> {
        let all = glob::components(path);
        // The anchors are folded too, so `/home/u/`, `/home/u/.` and `/home/u` agree.
        let home_dir = ctx.home.as_deref().map(folded_dir);
        let ws_dir = folded_dir(ctx.workspace_root());
        // Where the path lies relative to each anchor, decided once for every entry.
        let under_home: Option<&[&[u8]]> = home_dir
            .as_deref()
            .filter(|h| is_within(path, h))
            .map(|h| &all[glob::component_count(h).min(all.len())..])
            .or_else(|| conventional_home_rest(&all));
        let under_workspace: Option<&[&[u8]]> =
            is_within(path, &ws_dir).then(|| &all[glob::component_count(&ws_dir).min(all.len())..]);
        let own =
            under_workspace.is_some() || home_dir.as_deref().is_some_and(|h| is_within(path, h));
        // Every `rel` below is a run of `all`'s components: their first bytes are among these.
        let firsts = glob::component_firsts(&all);
        let mut out = Vec::new();
        for e in &self.entries {
            if (e.def.foreign_home && own) || !keep(e.def.category, e.def.access) {
                continue;
            }
            let rel: &[&[u8]] = match e.def.anchor {
                Anchor::Absolute => &all,
                Anchor::Home => match under_home {
                    Some(rel) => rel,
                    None => continue,
                },
                Anchor::Workspace => match under_workspace {
                    Some(rel) => rel,
                    None => continue,
                },
            };
            let Some((_, pattern)) = e
                .patterns()
                .iter()
                .find(|(g, _)| g.may_match_firsts(&firsts) && g.matches(rel))
            else {
                continue;
            };
            if e.exclude().iter().any(|g| g.matches(rel)) {
                continue;
            }
            out.push(SensitiveMatch {
                id: e.def.id,
                category: e.def.category,
                access: e.def.access,
                reason: e.def.reason,
                pattern,
                path: path.to_path_buf(),
            });
        }
        out
    }
}

impl Catalog {
    /// Every entry that matches `path` *or something below it*: what an operation on the
    /// whole tree at `path` (`rm -rf`, `mv`, `chmod -R`, extracting an archive into it)
    /// reaches. A directory above an anchor (`~` or `/home` for home entries) contains every
    /// entry of that anchor that names a definite place; below the anchor, the path must
    /// name part of a pattern (see the glob's `contains_match_below`), so `/work/proj/.claude`
    /// contains `**/.claude/settings*.json` but `/work/proj/build` does not.
    ///
    /// Invariant protected: deleting, moving or replacing a *directory* that holds protected
    /// files is judged like touching the files themselves (containment both ways).
    /// Exclude patterns only remove exact matches (an excluded file can sit in a directory
    /// that also holds protected ones).
    pub fn classify_subtree(&self, path: &Path, ctx: &PathContext) -> Vec<SensitiveMatch> {
        self.classify_subtree_where(path, ctx, |_, _| true)
    }

    /// [`Catalog::classify_subtree`] restricted to the entries `keep` selects (see
    /// [`Catalog::classify_where`]).
    pub fn classify_subtree_where(
        &self,
        path: &Path,
        ctx: &PathContext,
        keep: impl Fn(Category, Access) -> bool,
    ) -> Vec<SensitiveMatch> {
        let norm = normalize(&path.to_string_lossy(), &ctx.cwd, ctx.home.as_deref()).path;
        let all = glob::components(&norm);
        let home_dir = ctx.home.as_deref().map(folded_dir);
        let ws_dir = folded_dir(ctx.workspace_root());
        let own =
            is_within(&norm, &ws_dir) || home_dir.as_deref().is_some_and(|h| is_within(&norm, h));
        let mut out = Vec::new();
        for e in &self.entries {
            if (e.def.foreign_home && own) || !keep(e.def.category, e.def.access) {
                continue;
            }
            let anchor: Option<&Path> = match e.def.anchor {
                Anchor::Absolute => Some(Path::new("/")),
                Anchor::Home => home_dir.as_deref(),
                Anchor::Workspace => Some(&*ws_dir),
            };
            let Some(anchor) = anchor else { continue };
            let rel: &[&[u8]] = if is_within(&norm, anchor) {
                let n = glob::component_count(anchor);
                &all[n.min(all.len())..]
            } else if is_within(anchor, &norm) {
                &[]
            } else {
                continue;
            };
            let exact_excluded = e.exclude().iter().any(|g| g.matches(rel));
            let Some((_, pattern)) = e
                .patterns()
                .iter()
                .find(|(g, _)| g.contains_match_below(rel) && !(exact_excluded && g.matches(rel)))
            else {
                continue;
            };
            out.push(SensitiveMatch {
                id: e.def.id,
                category: e.def.category,
                access: e.def.access,
                reason: e.def.reason,
                pattern,
                path: norm.clone(),
            });
        }
        out
    }
}

/// Below a home directory spelled by its conventional place rather than `~` (`/root`,
/// `/var/root`, `/home/NAME`, `/Users/NAME`): the components after it. An agent whose own
/// home is elsewhere (a CI container, a sandbox user) still names a user's credentials there
/// (`cat /home/ubuntu/.aws/credentials`, `/root/.kube/config`); what a file under a home
/// holds does not depend on whose home it is.
fn conventional_home_rest<'a>(all: &'a [&'a [u8]]) -> Option<&'a [&'a [u8]]> {
    // `all` holds the normal components of an absolute, folded path.
    match all {
        [top, rest @ ..] if *top == b"root" => Some(rest),
        [var, top, rest @ ..] if *var == b"var" && *top == b"root" => Some(rest),
        [top, _user, rest @ ..] if *top == b"home" || *top == b"Users" => Some(rest),
        _ => None,
    }
}

/// Entries matching `path` or anything below it (see [`Catalog::classify_subtree`]).
pub fn classify_subtree(path: &Path, ctx: &PathContext) -> Vec<SensitiveMatch> {
    Catalog::global().classify_subtree(path, ctx)
}

/// Compiled-in catalog patterns, compiled (each is checked by a test, so none is dropped in a
/// shipped build).
pub(crate) fn compile_all(patterns: &[&str]) -> Vec<Glob> {
    patterns
        .iter()
        .filter_map(|p| Glob::compile(p).ok())
        .collect()
}

pub(crate) fn fold_dir(dir: &Path) -> PathBuf {
    normalize(&dir.to_string_lossy(), Path::new("/"), None).path
}

/// [`fold_dir`], borrowed when `dir` is folded already (an absolute UTF-8 Unix path whose
/// segments are all non-empty and neither `.` nor `..`, as a context's home and workspace
/// usually are): folding it would give the same bytes, so they are not copied for every
/// path the catalog judges.
fn folded_dir(dir: &Path) -> Cow<'_, Path> {
    // ASCII, so `to_string_lossy` in `fold_dir` would not change it either.
    let bytes = dir.as_os_str().as_encoded_bytes();
    let folded = cfg!(unix)
        && bytes.is_ascii()
        && (bytes == b"/"
            || bytes.strip_prefix(b"/").is_some_and(|rest| {
                rest.split(|&b| b == b'/')
                    .all(|seg| !seg.is_empty() && seg != b"." && seg != b"..")
            }));
    if folded {
        Cow::Borrowed(dir)
    } else {
        Cow::Owned(fold_dir(dir))
    }
}

/// Classifies `path` against the built-in catalog (lexically; see [`Catalog::classify`]).
pub fn classify(path: &Path, ctx: &PathContext) -> Vec<SensitiveMatch> {
    Catalog::global().classify(path, ctx)
}

/// [`classify`] restricted to the entries `keep` selects (see [`Catalog::classify_where`]).
pub fn classify_where(
    path: &Path,
    ctx: &PathContext,
    keep: impl Fn(Category, Access) -> bool,
) -> Vec<SensitiveMatch> {
    Catalog::global().classify_where(path, ctx, keep)
}

/// [`classify_subtree`] restricted to the entries `keep` selects (see
/// [`Catalog::classify_where`]).
pub fn classify_subtree_where(
    path: &Path,
    ctx: &PathContext,
    keep: impl Fn(Category, Access) -> bool,
) -> Vec<SensitiveMatch> {
    Catalog::global().classify_subtree_where(path, ctx, keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalog_pattern_compiles_by_the_one_glob_rule() {
        let bad: Vec<(&str, String)> = ENTRIES
            .iter()
            .flat_map(|e| e.patterns.iter().chain(e.exclude.iter()))
            .filter_map(|p| Glob::compile(p).err().map(|e| (*p, e.to_string())))
            .collect();
        assert!(
            bad.is_empty(),
            "catalog patterns that do not compile: {bad:?}"
        );
        let compiled = Catalog::load();
        let written: usize = ENTRIES.iter().map(|e| e.patterns.len()).sum();
        let kept: usize = compiled.entries.iter().map(|e| e.patterns().len()).sum();
        assert_eq!(kept, written);
    }
}
