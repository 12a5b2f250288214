//! Table tests for the sensitive-location catalog: hits, lookalikes, traversal, home forms.

use std::path::{Path, PathBuf};

use hookgate_paths::{Access, Catalog, Category, PathContext, classify};

fn ctx() -> PathContext {
    PathContext {
        cwd: PathBuf::from("/work/proj/src"),
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

fn hits(path: &str, id: &str) -> bool {
    ids(path).contains(&id)
}

#[test]
fn sensitive_locations_are_classified_by_their_catalog_entry() {
    let table: &[(&str, &str)] = &[
        ("~/.ssh/id_rsa", "ssh-private-keys"),
        ("~/.ssh/id_ed25519", "ssh-private-keys"),
        ("$HOME/.ssh/deploy_ed25519", "ssh-private-keys"),
        ("${HOME}/.ssh/authorized_keys", "ssh-authorized-keys"),
        ("/home/u/.ssh/config", "ssh-client-config"),
        ("/etc/ssh/ssh_host_ed25519_key", "ssh-host-keys"),
        ("/srv/certs/server.key", "private-key-files"),
        ("~/.gnupg/private-keys-v1.d/x.key", "gnupg-home"),
        ("~/.aws/credentials", "aws-credentials"),
        ("~/.aws/config", "aws-config"),
        (
            "~/.config/gcloud/application_default_credentials.json",
            "gcp-credentials",
        ),
        (
            "/work/proj/deploy/my-service-account.json",
            "gcp-service-account-files",
        ),
        ("~/.azure/msal_token_cache.json", "azure-credentials"),
        ("~/.docker/config.json", "docker-credentials"),
        ("~/.kube/config", "kube-config"),
        ("/etc/kubernetes/admin.conf", "kube-config-files"),
        ("/var/run/docker.sock", "container-runtime-sockets"),
        ("~/.npmrc", "package-registry-credentials"),
        ("~/.pypirc", "package-registry-credentials"),
        ("~/.netrc", "package-registry-credentials"),
        ("~/.cargo/credentials.toml", "package-registry-credentials"),
        ("/work/proj/.npmrc", "project-registry-credentials"),
        ("~/.git-credentials", "credential-stores"),
        ("~/.config/gh/hosts.yml", "credential-stores"),
        ("~/.codex/auth.json", "credential-stores"),
        (".env", "env-files"),
        ("../.env.local", "env-files"),
        ("/work/proj/config/.env.production", "env-files"),
        ("/work/proj/.envrc", "env-files"),
        ("/work/proj/prod.env", "env-files"),
        ("~/.bashrc", "shell-profiles"),
        ("~/.zshrc", "shell-profiles"),
        ("~/.config/fish/config.fish", "shell-profiles"),
        ("/etc/profile.d/evil.sh", "system-shell-profiles"),
        ("~/.bash_history", "shell-history"),
        ("/etc/sudoers", "sudoers"),
        ("/etc/sudoers.d/90-agent", "sudoers"),
        ("/etc/shadow", "account-databases"),
        ("/etc/passwd", "account-files"),
        ("/usr/bin/ls", "system-binaries"),
        ("/bin/sh", "system-binaries"),
        ("/usr/local/bin/tool", "system-binaries"),
        ("/etc/hosts", "system-config"),
        ("/etc/crontab", "system-persistence"),
        ("/etc/systemd/system/x.service", "system-persistence"),
        ("~/.config/systemd/user/x.service", "user-persistence"),
        ("/dev/sda", "kernel-and-devices"),
        ("/work/proj/.git/hooks/pre-commit", "git-hooks-and-config"),
        ("/work/proj/.git/config", "git-hooks-and-config"),
        ("~/.gitconfig", "git-user-config"),
        ("/work/proj/.github/workflows/ci.yml", "ci-cd-configs"),
        ("/work/proj/.gitlab-ci.yml", "ci-cd-configs"),
        ("/work/proj/.circleci/config.yml", "ci-cd-configs"),
        ("/work/proj/Jenkinsfile", "ci-cd-configs"),
        ("/work/proj/.claude/settings.json", "claude-code-settings"),
        (
            "/work/proj/.claude/settings.local.json",
            "claude-code-settings",
        ),
        ("~/.claude/settings.json", "claude-code-settings"),
        (
            "/etc/claude-code/managed-settings.json",
            "claude-code-settings",
        ),
        ("/work/proj/.mcp.json", "claude-code-settings"),
        ("~/.claude.json", "claude-code-user-config"),
        ("/work/proj/.codex/hooks.json", "codex-config"),
        ("/work/proj/.codex/config.toml", "codex-config"),
        ("~/.codex/config.toml", "codex-config"),
        ("~/.codex/hooks.json", "codex-user-home"),
        ("/work/proj/.gemini/settings.json", "gemini-cli-settings"),
        ("~/.gemini/settings.json", "gemini-cli-settings"),
        ("/etc/gemini-cli/settings.json", "gemini-cli-settings"),
        ("/work/proj/.github/hooks/guard.json", "copilot-cli-hooks"),
        (
            "/work/proj/.github/copilot/settings.json",
            "copilot-cli-hooks",
        ),
        ("~/.copilot/hooks/x.json", "copilot-cli-user-home"),
        ("/etc/github-copilot/policy.d/x.json", "copilot-cli-hooks"),
        ("/work/proj/.cursor/hooks.json", "cursor-hooks"),
        ("~/.cursor/hooks.json", "cursor-hooks"),
        ("/work/proj/.hookgate/policy.yaml", "hookgate-config"),
        ("~/.config/hookgate/config.toml", "hookgate-user-config"),
        ("/etc/hookgate/policy.yaml", "hookgate-config"),
    ];
    let mut failures = Vec::new();
    for (path, id) in table {
        if !hits(path, id) {
            failures.push(format!("{path} -> {:?}, expected {id}", ids(path)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn lookalikes_are_not_sensitive() {
    let table: &[&str] = &[
        "/work/proj/.env.example",
        "/work/proj/.env.sample",
        "/work/proj/.env.template",
        "/work/proj/config/.env.production.example",
        "/work/proj/.environment",
        "/work/proj/src/env.rs",
        "/work/proj/docs/ssh.md",
        "~/.ssh/id_rsa.pub",
        "/etcetera/passwd",
        "/usr2/bin/ls",
        "/work/proj/.github/workflows.md",
        "/work/proj/.github/ISSUE_TEMPLATE/bug.md",
        "/work/proj/.claude/commands/review.md",
        "/work/proj/claude/settings.json",
        "/work/proj/.codex/notes.md",
        "/work/proj/src/hookgate.rs",
        "/work/proj/README.md",
        "/tmp/build/output.txt",
        "~/projects/app/main.rs",
    ];
    let failures: Vec<String> = table
        .iter()
        .filter_map(|p| {
            let got = ids(p);
            (!got.is_empty()).then(|| format!("{p} -> {got:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn traversal_is_folded_before_classification() {
    assert!(hits("/sandbox/../etc/passwd", "account-files"));
    assert!(hits("../../../etc/sudoers", "sudoers"));
    assert!(hits(
        "/work/proj/src/../../../home/u/.ssh/id_rsa",
        "ssh-private-keys"
    ));
    assert!(hits(
        "./.././.claude/./settings.json",
        "claude-code-settings"
    ));
    assert!(hits("/../../etc/shadow", "account-databases"));
}

#[test]
fn containment_uses_components_not_string_prefixes() {
    // `/work/u2` is not inside `/work/u`: home-anchored entries must not fire. (A home in its
    // conventional place, `/home/u2`, is a home of its own: see `conventional_home_rest`.)
    let c = PathContext::new("/", Some(PathBuf::from("/work/u")));
    assert!(classify(Path::new("/work/u2/.bashrc"), &c).is_empty());
    assert!(!classify(Path::new("/work/u/.bashrc"), &c).is_empty());
    assert!(classify(Path::new("/etcx/sudoers"), &c).is_empty());
}

#[test]
fn home_forms_all_reach_the_same_entry() {
    for p in [
        "~/.aws/credentials",
        "$HOME/.aws/credentials",
        "${HOME}/.aws/credentials",
        "/home/u/.aws/credentials",
        "/home/u/./.aws/../.aws/credentials",
    ] {
        assert!(hits(p, "aws-credentials"), "{p}");
    }
    // Without a home, `~` is a literal directory name under cwd, and home entries are skipped.
    let c = PathContext::new("/work", None);
    assert!(classify(Path::new("~/.aws/credentials"), &c).is_empty());
}

#[test]
fn matching_is_case_insensitive_for_case_insensitive_file_systems() {
    assert!(hits(
        "/work/proj/.Claude/Settings.json",
        "claude-code-settings"
    ));
    assert!(hits("/work/proj/.ENV", "env-files"));
}

#[test]
fn access_says_which_operation_matters() {
    let m = classify(Path::new("/usr/bin/ls"), &ctx());
    assert!(m.iter().all(|m| m.access == Access::Write));
    assert!(!m[0].access.covers(Access::Read));
    let k = classify(Path::new("~/.ssh/id_rsa"), &ctx());
    assert!(
        k.iter()
            .any(|m| m.access.covers(Access::Read) && m.category == Category::PrivateKey)
    );
}

#[test]
fn sensitive_match_serializes_in_snake_case() {
    let m = classify(Path::new("/work/proj/.claude/settings.json"), &ctx());
    let v = serde_json::to_value(&m[0]).unwrap();
    assert_eq!(v["category"], "agent_hook_config");
    assert_eq!(v["access"], "write");
    assert_eq!(v["id"], "claude-code-settings");
    assert_eq!(v["path"], "/work/proj/.claude/settings.json");
}

#[test]
fn workspace_anchor_is_relative_to_the_workspace_not_cwd() {
    // cwd is /work/proj/src, the workspace /work/proj: entries anchored at the workspace match
    // anywhere inside it, and nowhere outside it.
    assert!(hits(
        "/work/proj/.cargo/config.toml",
        "workspace-build-config"
    ));
    assert!(hits("../sub/.cargo/config.toml", "workspace-build-config"));
    assert!(!hits(
        "/opt/other/.cargo/config.toml",
        "workspace-build-config"
    ));
    assert!(!hits(
        "/work/projx/.cargo/config.toml",
        "workspace-build-config"
    ));
    let no_ws = PathContext {
        workspace: None,
        ..ctx()
    };
    let m = Catalog::global().classify(Path::new("/work/proj/.cargo/config.toml"), &no_ws);
    assert!(m.is_empty(), "cwd (src/) is the workspace now: {m:?}");
}

#[test]
fn catalog_loads_fast_enough_for_a_per_call_process() {
    let t = std::time::Instant::now();
    let n = 20;
    for _ in 0..n {
        std::hint::black_box(Catalog::load());
    }
    let per_load = t.elapsed() / n;
    eprintln!(
        "catalog load: {per_load:?} per load ({} entries)",
        Catalog::global().len()
    );
    // Generous bound for a debug build on a shared 2-core VM; the release figure is in README.
    assert!(
        per_load < std::time::Duration::from_millis(20),
        "{per_load:?}"
    );
}

/// `root-home` protects another account's home: for a user who is not root every file below
/// `/root` is root's, but running as root (`HOME=/root`, a container's usual user) the home
/// is the user's own, judged by the home entries like any home — its keys stay keys, its
/// workspace files are workspace files.
#[test]
fn root_home_protects_only_another_accounts_home() {
    let as_root = |cwd: &str, ws: &str| PathContext {
        cwd: PathBuf::from(cwd),
        workspace: Some(PathBuf::from(ws)),
        home: Some(PathBuf::from("/root")),
    };
    let of = |path: &str, c: &PathContext| -> Vec<&'static str> {
        classify(Path::new(path), c)
            .into_iter()
            .map(|m| m.id)
            .collect()
    };
    let root = as_root("/root/app", "/root/app");
    // Not root: all of /root is protected.
    assert!(hits("/root/notes.txt", "root-home"));
    assert!(hits("/root/app/build/x.o", "root-home"));
    // Root: its own files are ordinary, its credentials are the home entries'.
    assert!(of("/root/app/build/x.o", &root).is_empty());
    assert!(of("/root/notes.txt", &root).is_empty());
    assert!(of("/root/.ssh/id_rsa.pub", &root).is_empty());
    assert!(of("/root/.ssh/id_ed25519", &root).contains(&"ssh-private-keys"));
    assert!(of("/root/.aws/credentials", &root).contains(&"aws-credentials"));
    // Another place than the home stays judged as before.
    assert!(!of("/etc/shadow", &root).is_empty());
    // A subtree above the home still contains root's home.
    let subtree: Vec<&str> = Catalog::global()
        .classify_subtree(Path::new("/"), &root)
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert!(subtree.contains(&"root-home"));
}
