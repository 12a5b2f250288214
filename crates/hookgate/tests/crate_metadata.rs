//! Every crate of the workspace is ready for publishing (issue 10 E): description, license,
//! repository, readme (its own README where it has one), keywords and categories, and the
//! workspace packages as crates that resolve against each other. Read from cargo itself
//! (`cargo metadata`, `cargo package --list`), offline.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn workspace_manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml")
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn metadata() -> Value {
    let out = cargo()
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(workspace_manifest())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_crate_has_the_metadata_a_registry_shows() {
    let meta = metadata();
    let packages = meta["packages"].as_array().unwrap();
    assert!(packages.len() >= 19, "{}", packages.len());
    for p in packages {
        let name = p["name"].as_str().unwrap();
        let dir = Path::new(p["manifest_path"].as_str().unwrap())
            .parent()
            .unwrap();
        let text = |key: &str| p[key].as_str().unwrap_or_default().to_owned();
        assert!(text("description").len() > 20, "{name}: description");
        assert_eq!(text("license"), "MIT OR Apache-2.0", "{name}: license");
        assert!(
            text("repository").starts_with("https://"),
            "{name}: repository"
        );
        let readme = dir.join(text("readme"));
        assert!(readme.is_file(), "{name}: readme {}", readme.display());
        if dir.join("README.md").is_file() {
            assert_eq!(
                readme.canonicalize().unwrap(),
                dir.join("README.md").canonicalize().unwrap(),
                "{name}: a crate with its own README shows it"
            );
        }
        let keywords = p["keywords"].as_array().unwrap();
        assert!(
            (1..=5).contains(&keywords.len()),
            "{name}: 1-5 keywords (crates.io's limit)"
        );
        assert!(
            !p["categories"].as_array().unwrap().is_empty(),
            "{name}: categories"
        );
        assert!(
            p["publish"].is_null(),
            "{name}: publishable (publish = false would keep it off the registry)"
        );
    }
}

#[test]
fn the_workspace_packages_as_crates_that_resolve_against_each_other() {
    let target = tempfile::tempdir().unwrap();
    let out = cargo()
        .args([
            "package",
            "--workspace",
            "--offline",
            "--no-verify",
            "--allow-dirty",
        ])
        .arg("--manifest-path")
        .arg(workspace_manifest())
        .arg("--target-dir")
        .arg(target.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("warning:"), "{err}");
    let crates = std::fs::read_dir(target.path().join("package"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "crate"))
        })
        .count();
    assert_eq!(crates, metadata()["packages"].as_array().unwrap().len());
}
