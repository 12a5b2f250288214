//! Regenerable locations (`catalog/regenerable.toml`): caches and build output outside a
//! project whose owner recreates them on demand.
//!
//! Why a catalog of its own: the sensitive catalog answers "what must not be touched"; this
//! one answers the opposite question for deletes — "losing this loses no user data" — so
//! `rm -rf ~/.cache/pip` is not judged as destroying the home directory. Keeping the two apart
//! means no consumer of [`crate::classify`] ever mistakes a cache for a sensitive location.
//!
//! Pure: lexical, component-wise, like [`crate::classify`]. A caller that follows symlinks
//! checks the physical form too (`~/.cache` may be a link to somewhere else).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Serialize;

use crate::catalog::{Anchor, PathContext, REGENERABLE, RegenerableDef, compile_all, fold_dir};
use crate::glob::{self, Glob};
use crate::lexical::{is_within, normalize};

/// The regenerable location a path lies in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegenerableMatch {
    pub id: &'static str,
    pub reason: &'static str,
    /// The normalised path that was judged.
    pub path: PathBuf,
}

struct Compiled {
    def: &'static RegenerableDef,
    patterns: Vec<Glob>,
    exclude: Vec<Glob>,
}

fn compiled() -> &'static [Compiled] {
    static ALL: OnceLock<Vec<Compiled>> = OnceLock::new();
    ALL.get_or_init(|| {
        // Every pattern is compiled-in data checked by the test
        // `every_regenerable_pattern_compiles`, so `ok()` drops none in a shipped build.
        REGENERABLE
            .iter()
            .map(|def| Compiled {
                def,
                patterns: compile_all(def.patterns),
                exclude: compile_all(def.exclude),
            })
            .collect()
    })
}

/// The regenerable location holding `path` *and everything below it*: what deleting the whole
/// tree at `path` may do without losing user data. `None` when `path` is not inside one, or
/// when something below it is excluded (a token a tool keeps in its cache directory).
///
/// `path` is made absolute against `ctx.cwd` and folded like [`crate::classify`]; symlinks are
/// not followed.
pub fn regenerable(path: &Path, ctx: &PathContext) -> Option<RegenerableMatch> {
    let norm = normalize(&path.to_string_lossy(), &ctx.cwd, ctx.home.as_deref()).path;
    let all = glob::components(&norm);
    let home_dir = ctx.home.as_deref().map(fold_dir);
    compiled().iter().find_map(|e| {
        let anchor: &Path = match e.def.anchor {
            Anchor::Home => home_dir.as_deref()?,
            Anchor::Absolute | Anchor::Workspace => Path::new("/"),
        };
        if !is_within(&norm, anchor) {
            return None;
        }
        let rel = &all[glob::components(anchor).len().min(all.len())..];
        let inside = e.patterns.iter().any(|g| g.matches(rel));
        let holds_excluded = e
            .exclude
            .iter()
            .any(|g| g.matches(rel) || g.contains_match_below(rel));
        (inside && !holds_excluded).then(|| RegenerableMatch {
            id: e.def.id,
            reason: e.def.reason,
            path: norm.clone(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_regenerable_pattern_compiles() {
        for def in REGENERABLE {
            for p in def.patterns.iter().chain(def.exclude) {
                assert!(Glob::compile(p).is_ok(), "{}: {p}", def.id);
            }
        }
    }

    #[test]
    fn caches_below_home_are_regenerable_and_home_config_and_keys_are_not() {
        let ctx = PathContext::new("/w/p", Some(PathBuf::from("/home/u")));
        let yes = [
            "~/.cache/pip",
            "~/.cache/go-build/00",
            "~/.npm/_cacache",
            "~/.cargo/registry/cache",
            "~/.cargo/git/checkouts/x",
            "~/go/pkg/mod",
            "~/.gradle/caches/8.5",
            "~/.gradle/wrapper/dists",
            "~/.m2/repository/org",
            "~/Library/Caches/pip",
            "~/.pnpm-store/v3",
            "~/.cache/huggingface/hub",
            "~/src/other/__pycache__",
            "/opt/app/pkg/__pycache__/m.cpython-312.pyc",
            "/srv/x/.pytest_cache",
            "~/.mypy_cache",
        ];
        let no = [
            "~",
            "~/.cache/..",
            "~/.npm",
            "~/.npmrc",
            "~/.cargo",
            "~/.cargo/credentials.toml",
            "~/.cargo/bin",
            "~/.gradle",
            "~/.gradle/gradle.properties",
            "~/.m2/settings.xml",
            "~/.ssh",
            "~/.config",
            "~/go",
            "~/go/src/x",
            "/tmp/.cache/pip",
            "/w/p/.cache",
            // The whole cache directory holds a token some tools keep there.
            "~/.cache",
            "~/.cache/huggingface",
            "~/.cache/huggingface/token",
            // A directory *holding* a cache is not one.
            "~/src/other",
            "/opt/app/pkg",
            "/__pycache__/..",
            "~/src/__pycache__x",
        ];
        for p in yes {
            assert!(regenerable(Path::new(p), &ctx).is_some(), "{p}");
        }
        for p in no {
            assert!(regenerable(Path::new(p), &ctx).is_none(), "{p}");
        }
        let unknown_home = PathContext::new("/w/p", None);
        assert!(regenerable(Path::new("/home/u/.cache/pip"), &unknown_home).is_none());
    }
}
