//! Trust pins the exact bytes of a project's config, in the user's config dir.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::Path;

use hookgate_project::{
    TRUST_FILE_NAME, TrustState, TrustStore, UntrustedReason, discover_in, fingerprint, trust_state,
};

fn project_with(root: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = root.join(".hookgate").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

const NEVER: TrustState = TrustState::Untrusted {
    reason: UntrustedReason::NeverTrusted,
};
const CHANGED: TrustState = TrustState::Untrusted {
    reason: UntrustedReason::Changed,
};

#[test]
fn project_config_is_untrusted_until_pinned_and_any_change_drops_trust() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let root = tmp.path().join("proj");
    project_with(
        &root,
        &[("policy.yaml", "mode: monitor\n"), ("hooks.yaml", "{}\n")],
    );
    let project = discover_in(&root, Some(&user));
    assert_eq!(trust_state(&project, Some(&user)), NEVER);

    let mut store = TrustStore::load(&user).unwrap();
    store.trust(&project, 1_700_000_000).unwrap();
    assert!(user.join(TRUST_FILE_NAME).is_file());
    assert_eq!(trust_state(&project, Some(&user)), TrustState::Trusted);

    // One byte changed.
    std::fs::write(root.join(".hookgate/policy.yaml"), "mode: monitoR\n").unwrap();
    assert_eq!(trust_state(&project, Some(&user)), CHANGED);
    std::fs::write(root.join(".hookgate/policy.yaml"), "mode: monitor\n").unwrap();
    assert_eq!(trust_state(&project, Some(&user)), TrustState::Trusted);

    // A file added (a drop-in, even one the engine would not load today).
    project_with(&root, &[("hooks.d/zz.txt", "x")]);
    assert_eq!(trust_state(&project, Some(&user)), CHANGED);
    std::fs::remove_file(root.join(".hookgate/hooks.d/zz.txt")).unwrap();
    assert_eq!(trust_state(&project, Some(&user)), TrustState::Trusted);

    // A file removed.
    std::fs::remove_file(root.join(".hookgate/hooks.yaml")).unwrap();
    assert_eq!(trust_state(&project, Some(&user)), CHANGED);
}

#[test]
fn revoking_trust_makes_the_project_never_trusted_again() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let root = tmp.path().join("proj");
    project_with(&root, &[("policy.yaml", "rules: []\n")]);
    let project = discover_in(&root, Some(&user));
    let mut store = TrustStore::load(&user).unwrap();
    store.trust(&project, 1).unwrap();
    assert_eq!(trust_state(&project, Some(&user)), TrustState::Trusted);
    let mut store = TrustStore::load(&user).unwrap();
    assert_eq!(store.entries().len(), 1);
    assert!(
        store
            .revoke(project.hookgate_dir.as_ref().unwrap())
            .unwrap()
    );
    assert!(
        !store
            .revoke(project.hookgate_dir.as_ref().unwrap())
            .unwrap()
    );
    assert_eq!(trust_state(&project, Some(&user)), NEVER);
    assert!(TrustStore::load(&user).unwrap().entries().is_empty());
}

#[test]
fn trust_of_one_project_does_not_extend_to_a_copy_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    project_with(&a, &[("policy.yaml", "rules: []\n")]);
    project_with(&b, &[("policy.yaml", "rules: []\n")]);
    let pa = discover_in(&a, Some(&user));
    TrustStore::load(&user).unwrap().trust(&pa, 1).unwrap();
    assert_eq!(trust_state(&pa, Some(&user)), TrustState::Trusted);
    assert_eq!(
        trust_state(&discover_in(&b, Some(&user)), Some(&user)),
        NEVER
    );
}

#[test]
fn a_project_without_config_files_has_nothing_to_trust() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let root = tmp.path().join("proj");
    std::fs::create_dir_all(root.join(".hookgate")).unwrap();
    let project = discover_in(&root, Some(&user));
    assert_eq!(
        trust_state(&project, Some(&user)),
        TrustState::NoProjectConfig
    );
    assert!(TrustStore::load(&user).unwrap().trust(&project, 1).is_err());
    let bare = discover_in(tmp.path(), Some(&user));
    assert_eq!(bare.hookgate_dir, None);
    assert_eq!(trust_state(&bare, Some(&user)), TrustState::NoProjectConfig);
}

#[test]
fn a_corrupt_trust_file_trusts_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let root = tmp.path().join("proj");
    project_with(&root, &[("policy.yaml", "rules: []\n")]);
    let project = discover_in(&root, Some(&user));
    TrustStore::load(&user).unwrap().trust(&project, 1).unwrap();
    let path = user.join(TRUST_FILE_NAME);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("v1 nothex 1 /x\n");
    std::fs::write(&path, text).unwrap();
    assert!(TrustStore::load(&user).is_err());
    assert_eq!(
        trust_state(&project, Some(&user)),
        TrustState::Untrusted {
            reason: UntrustedReason::Unreadable
        }
    );
    // No user config dir at all: nowhere trust could have been recorded.
    assert_eq!(trust_state(&project, None), NEVER);
}

#[test]
fn the_fingerprint_covers_names_as_well_as_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a/.hookgate");
    let b = tmp.path().join("b/.hookgate");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(a.join("hooks.yaml"), "{}\n").unwrap();
    std::fs::write(b.join("hooks.yml"), "{}\n").unwrap();
    let fa = fingerprint(&a).unwrap();
    let fb = fingerprint(&b).unwrap();
    assert_ne!(fa.sha256, fb.sha256);
    assert_eq!(fa.files, ["hooks.yaml"]);
    assert_eq!(fa.sha256.len(), 64);
}
