//! The catalog protects a file from reading by what it holds: a client configuration beside
//! credentials (`~/.ssh/config`, gcloud's `properties`) holds no secret, so only writes to it
//! are guarded, while the keys and tokens next to it stay guarded both ways. The shell
//! analyzer's credential list (`hookgate-shell`, `targets.rs`) reads the same way.

use std::path::{Path, PathBuf};

use hookgate_paths::{Access, PathContext, classify};

fn ctx() -> PathContext {
    PathContext {
        cwd: PathBuf::from("/work/proj"),
        workspace: Some(PathBuf::from("/work/proj")),
        home: Some(PathBuf::from("/home/u")),
    }
}

/// Whether any entry guards `path` against the access `op`.
fn guarded(path: &str, op: Access) -> bool {
    classify(Path::new(path), &ctx())
        .iter()
        .any(|m| m.access.covers(op))
}

#[test]
fn client_configs_beside_credentials_are_guarded_for_writes_only() {
    for path in [
        "~/.ssh/config",
        "~/.ssh/config.d/work.conf",
        "~/.config/gcloud/properties",
        "~/.config/gcloud/configurations/config_default",
        "~/.config/gcloud/active_config",
    ] {
        assert!(
            !guarded(path, Access::Read),
            "{path} is not a secret to read"
        );
        assert!(
            guarded(path, Access::Write),
            "{path} stays guarded for writes"
        );
    }
}

#[test]
fn credentials_beside_client_configs_stay_guarded_both_ways() {
    for path in [
        "~/.ssh/id_ed25519",
        "~/.config/gcloud/application_default_credentials.json",
        "~/.config/gcloud/credentials.db",
        "~/.config/gcloud/access_tokens.db",
        "~/.config/gcloud/legacy_credentials/me@example.com/adc.json",
    ] {
        assert!(guarded(path, Access::Read), "{path} is read-guarded");
        assert!(guarded(path, Access::Write), "{path} is write-guarded");
    }
}
