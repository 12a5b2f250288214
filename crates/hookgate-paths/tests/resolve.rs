//! Symlink resolution on real temporary directories with real symlinks.

#![cfg(unix)]
// Fixture helpers outside #[test] fns: a failed set-up should abort the test loudly.
#![allow(clippy::unwrap_used)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use hookgate_paths::{PathContext, ResolveError, classify_resolved, resolve};

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    ws: PathBuf,
}

/// root/home/.ssh/id_rsa, root/home/.aws/, root/ws (workspace), root/outside/
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    // Canonical root: on macOS the temp dir itself sits behind /var -> /private/var.
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let home = root.join("home");
    let ws = root.join("ws");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::create_dir_all(ws.join("src")).unwrap();
    std::fs::create_dir_all(root.join("outside")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "k").unwrap();
    Fixture {
        _dir: dir,
        root,
        home,
        ws,
    }
}

fn ctx(f: &Fixture) -> PathContext {
    PathContext {
        cwd: f.ws.clone(),
        workspace: Some(f.ws.clone()),
        home: Some(f.home.clone()),
    }
}

fn ids(f: &Fixture, raw: &str) -> Vec<&'static str> {
    classify_resolved(raw, &ctx(f))
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect()
}

#[test]
fn symlink_into_the_ssh_dir_is_classified_by_its_target() {
    let f = fixture();
    symlink(f.home.join(".ssh"), f.ws.join("keys")).unwrap();
    let r = resolve("keys/id_rsa", &f.ws, Some(&f.home)).unwrap();
    assert_eq!(r.physical, f.home.join(".ssh/id_rsa"));
    assert_eq!(r.lexical, f.ws.join("keys/id_rsa"));
    assert_eq!(r.symlinks_followed, 1);
    assert!(ids(&f, "keys/id_rsa").contains(&"ssh-private-keys"));
    // A file that does not exist yet behind the link: the tail is folded onto the target.
    assert!(ids(&f, "keys/new_ed25519").contains(&"ssh-private-keys"));
}

#[test]
fn symlinked_file_pointing_at_a_secret_is_caught() {
    let f = fixture();
    symlink(f.home.join(".aws"), f.ws.join("notes")).unwrap();
    assert!(ids(&f, "./notes/credentials").contains(&"aws-credentials"));
    symlink(f.home.join(".ssh/id_rsa"), f.ws.join("readme.txt")).unwrap();
    assert!(ids(&f, "readme.txt").contains(&"ssh-private-keys"));
}

#[test]
fn dotdot_after_a_symlink_goes_to_the_physical_parent() {
    let f = fixture();
    // ws/link -> home/.ssh ; ws/link/../.aws/credentials is home/.aws/credentials, not ws/.aws/…
    symlink(f.home.join(".ssh"), f.ws.join("link")).unwrap();
    let r = resolve("link/../.aws/credentials", &f.ws, Some(&f.home)).unwrap();
    assert_eq!(r.physical, f.home.join(".aws/credentials"));
    assert_eq!(r.lexical, f.ws.join(".aws/credentials"));
    assert!(ids(&f, "link/../.aws/credentials").contains(&"aws-credentials"));
}

#[test]
fn dangling_symlink_is_followed_to_the_file_a_write_would_create() {
    let f = fixture();
    symlink(f.home.join(".bashrc"), f.ws.join("out.txt")).unwrap(); // target does not exist
    let r = resolve("out.txt", &f.ws, Some(&f.home)).unwrap();
    assert_eq!(r.physical, f.home.join(".bashrc"));
    assert_eq!(r.existing, f.home);
    assert!(ids(&f, "out.txt").contains(&"shell-profiles"));
}

#[test]
fn relative_symlink_targets_resolve_against_the_link_directory() {
    let f = fixture();
    symlink(Path::new("../home/.ssh"), f.ws.join("rel")).unwrap();
    let r = resolve("rel/id_rsa", &f.ws, Some(&f.home)).unwrap();
    assert_eq!(r.physical, f.home.join(".ssh/id_rsa"));
}

#[test]
fn missing_tail_is_folded_lexically_and_can_climb_back() {
    let f = fixture();
    let r = resolve("new/dir/../../src/x.rs", &f.ws, None).unwrap();
    assert_eq!(r.physical, f.ws.join("src/x.rs"));
    assert_eq!(r.existing, f.ws.join("src"));
    let r = resolve("a/b/c", &f.ws, None).unwrap();
    assert_eq!(r.physical, f.ws.join("a/b/c"));
    assert_eq!(r.existing, f.ws);
}

#[test]
fn symlink_loops_are_an_error_not_a_hang() {
    let f = fixture();
    symlink(f.ws.join("b"), f.ws.join("a")).unwrap();
    symlink(f.ws.join("a"), f.ws.join("b")).unwrap();
    assert!(matches!(
        resolve("a/x", &f.ws, None),
        Err(ResolveError::SymlinkLoop { .. })
    ));
}

#[test]
fn sandbox_lookalike_stays_outside_after_resolution() {
    let f = fixture();
    std::fs::create_dir_all(f.root.join("sandboxed")).unwrap();
    let sandbox = f.root.join("sandbox");
    std::fs::create_dir_all(&sandbox).unwrap();
    let r = resolve(
        &format!("{}/x", f.root.join("sandboxed").display()),
        &f.ws,
        None,
    )
    .unwrap();
    assert!(!hookgate_paths::is_within(&r.physical, &sandbox));
    // and a link inside the sandbox that points out of it is outside after resolution
    symlink(f.root.join("outside"), sandbox.join("escape")).unwrap();
    let r = resolve(&format!("{}/escape/x", sandbox.display()), &f.ws, None).unwrap();
    assert!(!hookgate_paths::is_within(&r.physical, &sandbox));
    assert!(hookgate_paths::is_within(&r.lexical, &sandbox));
}

#[test]
fn symlinked_home_is_resolved_like_the_path() {
    let f = fixture();
    // The context names home through a link (as /home -> /usr/home on some BSDs).
    symlink(&f.home, f.root.join("homelink")).unwrap();
    let c = PathContext {
        cwd: f.ws.clone(),
        workspace: None,
        home: Some(f.root.join("homelink")),
    };
    let got: Vec<_> = classify_resolved(&format!("{}/.ssh/id_rsa", f.home.display()), &c)
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert!(got.contains(&"ssh-private-keys"), "{got:?}");
}
