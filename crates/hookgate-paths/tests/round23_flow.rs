//! Round 23 (wt-flow): the token files of developer, data and deployment CLIs
//! (`developer-service-tokens`) and age identities outside sops' directory are credentials;
//! the caches, models and settings beside them are not. One line per case.

use std::path::{Path, PathBuf};

use hookgate_paths::{PathContext, classify};

fn ctx() -> PathContext {
    PathContext {
        cwd: PathBuf::from("/work/proj"),
        workspace: Some(PathBuf::from("/work/proj")),
        home: Some(PathBuf::from("/home/u")),
    }
}

fn ids(path: &str) -> Vec<&'static str> {
    classify(Path::new(path), &ctx())
        .into_iter()
        .map(|m| m.id)
        .collect()
}

#[test]
fn developer_service_token_files_are_catalogued() {
    let table: &[(&str, &str)] = &[
        ("~/.cache/huggingface/token", "developer-service-tokens"),
        (
            "~/.cache/huggingface/stored_tokens",
            "developer-service-tokens",
        ),
        ("~/.huggingface/token", "developer-service-tokens"),
        ("~/.kaggle/kaggle.json", "developer-service-tokens"),
        ("~/.config/kaggle/kaggle.json", "developer-service-tokens"),
        ("~/.databrickscfg", "developer-service-tokens"),
        ("~/.snowflake/connections.toml", "developer-service-tokens"),
        ("~/.snowsql/config", "developer-service-tokens"),
        ("~/.dbt/profiles.yml", "developer-service-tokens"),
        ("~/.config/mc/config.json", "developer-service-tokens"),
        ("~/.config/ngrok/ngrok.yml", "developer-service-tokens"),
        (
            "~/.wrangler/config/default.toml",
            "developer-service-tokens",
        ),
        (
            "~/.config/configstore/firebase-tools.json",
            "developer-service-tokens",
        ),
        ("~/.doppler/.doppler.yaml", "developer-service-tokens"),
        (
            "~/.config/Bitwarden CLI/data.json",
            "developer-service-tokens",
        ),
        ("~/.tsh/keys/proxy/u", "developer-service-tokens"),
        (
            "/home/ubuntu/.kaggle/kaggle.json",
            "developer-service-tokens",
        ),
        ("~/.msmtprc", "developer-service-tokens"),
        ("~/.sbt/.credentials", "developer-service-tokens"),
        (
            "~/.config/helm/registry/config.json",
            "developer-service-tokens",
        ),
        (
            "~/.config/io.datasette.llm/keys.json",
            "developer-service-tokens",
        ),
        (
            "~/.config/BraveSoftware/Brave-Browser/Default/Login Data",
            "credential-stores",
        ),
        ("~/.config/age/keys.txt", "age-sops-keys"),
    ];
    let wrong: Vec<String> = table
        .iter()
        .filter(|(p, id)| !ids(p).contains(id))
        .map(|(p, id)| format!("{p}: expected {id}, got {:?}", ids(p)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn caches_and_settings_beside_the_tokens_are_not() {
    for p in [
        "~/.cache/huggingface/hub/models--gpt2/config.json",
        "~/.cache/huggingface/hub/version.txt",
        "~/.config/wandb/settings",
        "~/.kaggle/README",
        "~/.config/configstore/update-notifier-npm.json",
        "/work/proj/dbt/profiles.yml.example",
        "/work/proj/.dbt/models/x.sql",
    ] {
        let got = ids(p);
        assert!(!got.contains(&"developer-service-tokens"), "{p}: {got:?}");
    }
}
