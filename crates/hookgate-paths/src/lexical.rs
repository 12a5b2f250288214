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
    normalize_text(raw, cwd, home).unwrap_or_else(|| normalize_components(raw, cwd, home))
}

/// [`normalize`] by `Path` joins and components, for any platform and any path.
fn normalize_components(raw: &str, cwd: &Path, home: Option<&Path>) -> Normalized {
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

/// [`normalize`] on bytes, for Unix paths (every argument of a command line): the same
/// folding, without the `PathBuf` joins and `Path::components` walk, which cost more than the
/// rest of a path check (this runs for nearly every operand of every command). `None` where
/// the component walk is kept (a relative home; other platforms).
#[cfg(unix)]
fn normalize_text(raw: &str, cwd: &Path, home: Option<&Path>) -> Option<Normalized> {
    use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
    // `expand_home`: `~`, `$HOME`, `${HOME}` alone or before a `/`; `home.join(rest)`, where a
    // `rest` that is itself absolute (`~//etc`) replaces the home.
    let mut expanded: (Option<&[u8]>, &[u8]) = (None, raw.as_bytes());
    if let Some(home) = home {
        for prefix in ["~", "$HOME", "${HOME}"] {
            if let Some(rest) = raw.strip_prefix(prefix) {
                if rest.is_empty() {
                    expanded = (None, home.as_os_str().as_bytes());
                    break;
                }
                if let Some(rest) = rest.strip_prefix('/') {
                    expanded = if rest.starts_with('/') {
                        (None, rest.as_bytes())
                    } else {
                        (Some(home.as_os_str().as_bytes()), rest.as_bytes())
                    };
                    break;
                }
            }
        }
    }
    // The base a relative path is joined to: the expanded home, else the working directory
    // (itself taken relative to `/`).
    let (base, tail): (&[u8], &[u8]) = match expanded {
        // A relative home is joined to the working directory: the slow path.
        (Some(home), _) if home.first() != Some(&b'/') => return None,
        (Some(home), rest) => (home, rest),
        (None, path) if path.first() == Some(&b'/') => (&[], path),
        (None, path) => (cwd.as_os_str().as_bytes(), path),
    };
    let mut out: Vec<u8> = Vec::with_capacity(base.len() + tail.len() + 1);
    out.push(b'/');
    let mut depth = 0usize;
    let mut escaped_root = false;
    for part in base.split(|&b| b == b'/').chain(tail.split(|&b| b == b'/')) {
        match part {
            b"" | b"." => {}
            b".." => {
                if depth == 0 {
                    escaped_root = true;
                } else {
                    let cut = out.iter().rposition(|&b| b == b'/').unwrap_or(0).max(1);
                    out.truncate(cut);
                    depth -= 1;
                }
            }
            _ => {
                if out.len() > 1 {
                    out.push(b'/');
                }
                out.extend_from_slice(part);
                depth += 1;
            }
        }
    }
    Some(Normalized {
        path: PathBuf::from(std::ffi::OsString::from_vec(out)),
        escaped_root,
    })
}

/// Other platforms keep the component walk.
#[cfg(not(unix))]
fn normalize_text(_raw: &str, _cwd: &Path, _home: Option<&Path>) -> Option<Normalized> {
    None
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
    // Absolute Unix paths: their components are the `/`-separated segments other than empty
    // ones and `.`, compared here without `Path::components` (this runs several times for
    // every operand of every command).
    if cfg!(unix) {
        let (p, r) = (
            path.as_os_str().as_encoded_bytes(),
            root.as_os_str().as_encoded_bytes(),
        );
        if p.first() == Some(&b'/') && r.first() == Some(&b'/') {
            // `root`'s text followed by a `/` (or nothing, or `root` ending in one) in `path`:
            // split at `/`, `path`'s segments are then `root`'s followed by the rest's, so the
            // walk below would answer true. The common case (an operand inside the workspace)
            // is answered without splitting either path.
            if p.starts_with(r)
                && (p.len() == r.len() || p.get(r.len()) == Some(&b'/') || r.last() == Some(&b'/'))
            {
                return true;
            }
            let mut below = p
                .split(|&b| b == b'/')
                .filter(|c| !c.is_empty() && *c != b".");
            return r
                .split(|&b| b == b'/')
                .filter(|c| !c.is_empty() && *c != b".")
                .all(|c| below.next() == Some(c));
        }
    }
    path.starts_with(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(raw: &str) -> PathBuf {
        normalize(raw, Path::new("/work/proj"), Some(Path::new("/home/u"))).path
    }

    /// The text fast path folds exactly as the component walk, on the shapes a command line
    /// gives (home forms, `.`/`..`, repeated and trailing slashes, relative bases and homes).
    #[test]
    fn the_text_fast_path_folds_as_the_component_walk() {
        let raws = [
            "",
            ".",
            "..",
            "/",
            "//",
            "a",
            "a/",
            "./a",
            "a/./b",
            "a//b/",
            "../a",
            "a/../..",
            "/..",
            "/../x",
            "/a/b/../../..",
            "~",
            "~/",
            "~//etc",
            "~/.ssh/id_rsa",
            "~x",
            "~/../../..",
            "$HOME",
            "$HOME/",
            "$HOME/.aws",
            "${HOME}",
            "${HOME}/x/..",
            "$HOMEX",
            "/tmp/./status.txt",
            "src/*.rs",
            "x/.../y",
            ".env",
            "a/b/c/../../d",
        ];
        let cwds = [
            "/work/proj",
            "/",
            "work/proj",
            "./w",
            "../w",
            "/a/./b//",
            "",
        ];
        let homes = [
            None,
            Some("/home/u"),
            Some("/home/u/"),
            Some("/"),
            Some("home/u"),
            Some("/h/../x"),
        ];
        for raw in raws {
            for cwd in cwds {
                for home in homes {
                    let (cwd, home) = (Path::new(cwd), home.map(Path::new));
                    let slow = normalize_components(raw, cwd, home);
                    let fast = normalize_text(raw, cwd, home).unwrap_or_else(|| slow.clone());
                    assert_eq!(fast, slow, "{raw:?} {cwd:?} {home:?}");
                    assert_eq!(
                        fast.path.as_os_str(),
                        slow.path.as_os_str(),
                        "{raw:?} {cwd:?} {home:?}"
                    );
                }
            }
        }
    }

    /// The text comparison of absolute paths agrees with `Path::starts_with`.
    #[test]
    fn within_by_text_agrees_with_path_starts_with() {
        let paths = [
            "/", "//", "/a", "/a/", "/a/b", "/a//b", "/a/./b", "/ab", "/a/b/c", "/a/..", "/./a",
            "a", "a/b", "", ".",
        ];
        for p in paths {
            for r in paths {
                assert_eq!(
                    is_within(Path::new(p), Path::new(r)),
                    Path::new(p).starts_with(r),
                    "{p:?} within {r:?}"
                );
            }
        }
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
