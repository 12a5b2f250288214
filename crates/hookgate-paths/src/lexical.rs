//! Pure, I/O-free path normalisation.
//!
//! INVARIANT: nothing here touches the file system, so results are deterministic and the
//! functions can be fuzzed. Symlink resolution lives elsewhere and builds on these.

use std::path::{Component, Path, PathBuf};

/// A path made absolute and folded lexically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    /// The absolute, `.`/`..`-free path.
    pub path: PathBuf,
    /// True when a `..` tried to climb above `/`; such a path is suspicious by construction
    /// (a policy should not treat it as an ordinary path under `/`).
    pub escaped_root: bool,
}

/// Expands `~` and `$HOME`/`${HOME}` at the start of `raw`, makes it absolute against `cwd`,
/// and folds `.` and `..` components lexically.
///
/// `home` is passed in (not read from the environment) so the function stays pure.
/// A relative `cwd` is itself taken relative to `/`.
pub fn normalize(raw: &str, cwd: &Path, home: Option<&Path>) -> Normalized {
    let expanded = expand_home(raw, home);
    let joined = if expanded.is_absolute() {
        expanded
    } else {
        let base = if cwd.is_absolute() {
            cwd.to_path_buf()
        } else {
            Path::new("/").join(cwd)
        };
        base.join(expanded)
    };
    fold(&joined)
}

fn expand_home(raw: &str, home: Option<&Path>) -> PathBuf {
    let Some(home) = home else {
        return PathBuf::from(raw);
    };
    for prefix in ["~", "$HOME", "${HOME}"] {
        if let Some(rest) = raw.strip_prefix(prefix) {
            if rest.is_empty() {
                return home.to_path_buf();
            }
            if let Some(rest) = rest.strip_prefix('/') {
                return home.join(rest);
            }
        }
    }
    PathBuf::from(raw)
}

fn fold(path: &Path) -> Normalized {
    let mut out = PathBuf::from("/");
    let mut depth = 0usize;
    let mut escaped_root = false;
    for component in path.components() {
        match component {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir => {
                if depth == 0 {
                    escaped_root = true;
                } else {
                    out.pop();
                    depth -= 1;
                }
            }
            Component::Normal(part) => {
                out.push(part);
                depth += 1;
            }
        }
    }
    Normalized {
        path: out,
        escaped_root,
    }
}

/// True when `path` is `root` or lies below it, compared component by component.
///
/// Both arguments must already be normalised; `/a/bc` is not within `/a/b`.
pub fn is_within(path: &Path, root: &Path) -> bool {
    path.starts_with(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(raw: &str) -> PathBuf {
        normalize(raw, Path::new("/work/proj"), Some(Path::new("/home/u"))).path
    }

    #[test]
    fn dot_dot_is_folded_before_any_comparison() {
        assert_eq!(n("/sandbox/../etc/passwd"), PathBuf::from("/etc/passwd"));
        assert_eq!(n("src/./a/../b.rs"), PathBuf::from("/work/proj/src/b.rs"));
    }

    #[test]
    fn home_forms_expand_to_the_given_home() {
        assert_eq!(n("~/.ssh/id_rsa"), PathBuf::from("/home/u/.ssh/id_rsa"));
        assert_eq!(n("$HOME/.aws"), PathBuf::from("/home/u/.aws"));
        assert_eq!(n("${HOME}"), PathBuf::from("/home/u"));
        assert_eq!(n("~user/x"), PathBuf::from("/work/proj/~user/x"));
    }

    #[test]
    fn containment_is_by_component_not_by_string_prefix() {
        assert!(is_within(&n("/sandbox/x"), Path::new("/sandbox")));
        assert!(is_within(&n("/sandbox"), Path::new("/sandbox")));
        assert!(!is_within(&n("/sandboxed/x"), Path::new("/sandbox")));
    }

    #[test]
    fn climbing_above_root_is_flagged() {
        let r = normalize("/../../etc", Path::new("/"), None);
        assert!(r.escaped_root);
        assert_eq!(r.path, PathBuf::from("/etc"));
    }
}
