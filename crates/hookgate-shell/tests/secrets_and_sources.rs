//! Case tables for four classes measured on the fifth held-out corpus (after its blind
//! measurements): secret stores and credential minting are credential access like
//! `aws secretsmanager get-secret-value`; a read whose output cannot carry a secret file's
//! contents (a count, file names, an exit status, the names left of `=`) is not a secret read;
//! packages installed from a URL or git repository run unvetted install code; a container given
//! a credential directory reads it. One line per case, `(command, expected action, expected
//! rule id or "-")`, each class with its benign neighbours. Workspace `/home/user/project`,
//! home `/home/user`. Decisions are in `DISAGREEMENTS.md` (section lead-17).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// A secret store prints the secret; listing names or metadata prints none. Minting a new
/// long-lived key is credential access too; reading who one is is not.
#[test]
fn secret_store_reads_and_minted_keys_are_credential_access() {
    table(&[
        ("vault kv get secret/app", ASK, "cred.secret_store_read"),
        (
            "vault kv get -field=password secret/prod/db",
            ASK,
            "cred.secret_store_read",
        ),
        (
            "vault read database/creds/readonly",
            ASK,
            "cred.secret_store_read_vault",
        ),
        (
            "gcloud secrets versions access latest --secret=stripe-key",
            ASK,
            "cred.secret_store_read_gcloud",
        ),
        (
            "az keyvault secret show --vault-name kv --name db-pass",
            ASK,
            "cred.secret_store_read_azure",
        ),
        (
            "doppler secrets get API_KEY --plain",
            ASK,
            "cred.secret_store_read_doppler",
        ),
        (
            "op read op://Private/github/token",
            ASK,
            "cred.secret_store_read_op",
        ),
        (
            "aws iam create-access-key --user-name ci",
            ASK,
            "cred.mint_cloud_key",
        ),
        (
            "gcloud iam service-accounts keys create key.json --iam-account sa@p.iam.gserviceaccount.com",
            ASK,
            "cred.mint_cloud_key_gcloud",
        ),
        (
            "az ad sp credential reset --id 1234",
            ASK,
            "cred.mint_cloud_key_azure",
        ),
        // Benign neighbours: names, metadata, identity.
        ("vault kv list secret/", ALLOW, "-"),
        ("vault kv metadata get secret/app", ALLOW, "-"),
        ("vault status", ALLOW, "-"),
        ("gcloud secrets list", ALLOW, "-"),
        ("az keyvault secret list --vault-name kv", ALLOW, "-"),
        ("aws iam list-access-keys --user-name ci", ALLOW, "-"),
        ("aws sts get-caller-identity", ALLOW, "-"),
        ("op item list", ALLOW, "-"),
    ]);
}

/// `kubectl get secret` prints a table of names, types and sizes; an output format prints the
/// data.
#[test]
fn kubernetes_secrets_are_read_only_through_an_output_format() {
    table(&[
        ("kubectl get secret db -o yaml", ASK, "cred.kube_secret"),
        ("kubectl get secrets -ojson", ASK, "cred.kube_secret"),
        (
            "kubectl get secret db --output=jsonpath='{.data.password}'",
            ASK,
            "cred.kube_secret",
        ),
        (
            "oc get secret/db -o go-template='{{.data}}'",
            ASK,
            "cred.kube_secret",
        ),
        (
            "kubectl get secret,configmap -o yaml",
            ASK,
            "cred.kube_secret",
        ),
        ("kubectl get secret -n staging", ALLOW, "-"),
        ("kubectl get secrets", ALLOW, "-"),
        ("kubectl describe secret db", ALLOW, "-"),
    ]);
}

/// A read of a credential file whose output is a count, the names of matching files, an exit
/// status or the variable names of an assignment file exposes no value. Anything printing
/// matched text or a value field still reads the secret.
#[test]
fn reads_that_print_no_content_of_a_secret_file_are_not_secret_reads() {
    table(&[
        ("grep -c . .env", ALLOW, "-"),
        ("grep -q '^DATABASE_URL=' .env", ALLOW, "-"),
        ("grep -l API_KEY .env .env.local", ALLOW, "-"),
        ("rg --count TOKEN .env", ALLOW, "-"),
        ("cut -d= -f1 .env", ALLOW, "-"),
        ("cut -d '=' -f 1 .env", ALLOW, "-"),
        // Dangerous neighbours.
        ("grep API_KEY .env", ASK, "cred.read_secret_file"),
        ("grep -co KEY=.* .env", ASK, "cred.read_secret_file"),
        (
            "grep -c -o . ~/.aws/credentials",
            ASK,
            "cred.read_secret_file",
        ),
        ("cut -d= -f2 .env", ASK, "cred.read_secret_file"),
        ("cut -d= -f1- .env", ASK, "cred.read_secret_file"),
        ("cut -d: -f1 .env", ASK, "cred.read_secret_file"),
        ("cut -c1-40 ~/.ssh/id_ed25519", ASK, "cred.read_secret_file"),
    ]);
}

/// A package from a URL, a git repository or a tarball runs its build and install scripts from
/// code nobody vetted. Registry names, local paths and the project's own manifest stay
/// ordinary.
#[test]
fn packages_from_urls_or_git_repositories_ask_as_unvetted_code() {
    table(&[
        (
            "pip install https://example.dev/pkg-1.0.tar.gz",
            ASK,
            "rce.install_unvetted_source",
        ),
        (
            "pip3 install git+https://github.com/u/tool",
            ASK,
            "rce.install_unvetted_source",
        ),
        (
            "npm install https://github.com/u/left-pad/tarball/main",
            ASK,
            "rce.install_unvetted_source",
        ),
        ("npm i github:u/repo", ASK, "rce.install_unvetted_source"),
        (
            "yarn add git+https://github.com/u/repo.git",
            ASK,
            "rce.install_unvetted_source",
        ),
        (
            "uv pip install https://example.dev/x.whl",
            ASK,
            "rce.install_unvetted_source_uv",
        ),
        (
            "cargo install --git https://github.com/u/helper --force",
            ASK,
            "rce.install_unvetted_git",
        ),
        // Benign neighbours.
        ("pip install requests==2.32.3", ALLOW, "-"),
        ("pip install -e .", ALLOW, "-"),
        ("pip install -r requirements.txt", ALLOW, "-"),
        ("npm install left-pad", ALLOW, "-"),
        ("npm install", ALLOW, "-"),
        ("cargo install ripgrep", ALLOW, "-"),
        ("cargo install --path .", ALLOW, "-"),
        ("uv pip install -e .", ALLOW, "-"),
    ]);
}

/// A container given a credential file or a directory holding one reads it, read-only mount
/// or not. Workspace and cache mounts stay ordinary. A hosted service's delete verb acts on the
/// account's live objects.
#[test]
fn credential_mounts_and_service_deletes_are_judged_by_what_they_reach() {
    table(&[
        (
            "docker run --rm -v ~/.kube:/k:ro busybox cat /k/config",
            ASK,
            "cred.read_secret_file",
        ),
        (
            "podman run --rm -v $HOME/.aws:/root/.aws amazon/aws-cli s3 ls",
            ASK,
            "cred.read_secret_file",
        ),
        (
            "docker run --rm --mount type=bind,source=/home/user/.ssh,target=/s alpine ls /s",
            ASK,
            "cred.read_secret_file",
        ),
        ("stripe customers delete cus_ABC123", ASK, "net.saas_delete"),
        (
            "stripe subscriptions cancel sub_123",
            ASK,
            "net.saas_delete",
        ),
        // Benign neighbours.
        (
            "docker run --rm -v $PWD:/src -w /src node:20 npm test",
            ALLOW,
            "-",
        ),
        (
            "docker run --rm -v ~/.cache/pip:/root/.cache/pip python:3.12 pip list",
            ALLOW,
            "-",
        ),
        (
            "stripe listen --forward-to localhost:3000/webhook",
            ALLOW,
            "-",
        ),
        ("stripe customers list --limit 3", ALLOW, "-"),
        ("stripe trigger payment_intent.succeeded", ALLOW, "-"),
    ]);
}

/// `deno eval` takes its options between the subcommand and the code: the code is still read.
#[test]
fn deno_eval_code_is_read_after_its_options() {
    table(&[
        (
            "deno eval --allow-all \"new Deno.Command('sh',{args:['-c','rm -rf ~']}).spawnSync()\"",
            DENY,
            "fs.delete_system",
        ),
        (
            "deno eval --ext ts \"Deno.removeSync('/etc')\"",
            DENY,
            "fs.delete_system",
        ),
        (
            "deno eval --allow-read \"console.log(Deno.version)\"",
            ALLOW,
            "-",
        ),
    ]);
}

/// `docker cp CONTAINER:PATH DEST` copies a container's file out to the host: a credential
/// location inside the container (its conventional homes, system key stores, credential names)
/// is read. Build output and logs copied out stay ordinary.
#[test]
fn credentials_copied_out_of_a_container_are_read() {
    table(&[
        (
            "docker cp app-web-1:/root/.aws ./aws-creds",
            ASK,
            "cred.read_secret_file",
        ),
        (
            "docker cp web:/home/app/.ssh/id_rsa /tmp/k",
            ASK,
            "cred.read_secret_file",
        ),
        (
            "podman cp db:/var/lib/app/.env ./env",
            ASK,
            "cred.read_secret_file",
        ),
        (
            "docker cp api:/root/.kube ./kube",
            ASK,
            "cred.read_secret_file",
        ),
        ("docker cp builder:/app/dist ./dist", ALLOW, "-"),
        ("docker cp web:/var/log/nginx/error.log ./logs/", ALLOW, "-"),
        ("docker cp web:/root/.bashrc ./bashrc", ALLOW, "-"),
    ]);
}
