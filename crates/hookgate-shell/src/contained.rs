//! Taxonomy rules whose parsed operands show the act cannot reach what the rule protects.
//!
//! A taxonomy rule names a tool's dangerous verb (`kubectl delete`, `mkfs`, `docker push`);
//! the verb is only as dangerous as the place it acts on. When the line itself spells out a
//! place that is this machine's own scratch — a local development cluster context, an image
//! file in the workspace, a registry on the loopback interface, a load bounded in time, a
//! listing that prints names only, a pre-release tag — the rule's harm cannot happen and the
//! command is ordinary work. Every test here is on exact (quote-removed, resolved) operands:
//! anything known only at run time, and any word that points the tool elsewhere
//! (`--server`, `--kubeconfig`, a `/dev` node, `--timeout 0`), keeps the rule.
//!
//! Invariant protected: a refinement only ever lowers a rule when *every* target the tool
//! would act on is shown to be contained; one uncontained or unknown target keeps it.

use crate::deferred::{Opt, scan};
use crate::model::{BlastRadius, Context, Verdict};
use crate::targets::{Cwd, Shape};
use crate::taxonomy::{RuleRef, ids};
use crate::walk::Word;

/// The verdict for `rule` when its operands show it contained; `None` keeps the rule.
pub(crate) fn verdict(
    rule: RuleRef,
    name: &str,
    words: &[Word],
    cwd: &Cwd,
    ctx: &Context,
) -> Option<Verdict> {
    if matches!(rule.def().category, "cloud_destroy" | "package_publish")
        && (local_endpoint(name, words)
            || (name == "npm" && npm_publishes_locally(words, cwd, ctx)))
    {
        return Some(Verdict::normal(
            "acts on an emulator or registry on this machine, named by the tool's endpoint option (LocalStack, DynamoDB Local, verdaccio, devpi)",
        ));
    }
    // `helm uninstall app --kube-context kind-dev`: the release's resources are on the
    // same local cluster `kubectl --context kind-dev delete` is allowed to empty.
    if rule == ids::HELM_UNINSTALL && name == "helm" && local_cluster(name, words) {
        return Some(Verdict::normal(
            "uninstalls a Helm release from a local development cluster (kind, minikube, k3d, Docker Desktop)",
        ));
    }
    if rule == ids::K8S_DELETE {
        if local_cluster(name, words) {
            return Some(Verdict::normal(
                "deletes Kubernetes resources on a local development cluster (kind, minikube, k3d, Docker Desktop)",
            ));
        }
        named_pods(name, words).and_then(|place| match place {
            PodPlace::Development => Some(Verdict::normal(
                "deletes named pods in a development namespace (the restart idiom: their controller starts new ones)",
            )),
            PodPlace::Production => None,
            PodPlace::Unknown => {
                let mut v = rule.verdict();
                v.blast_radius = BlastRadius::Medium;
                "deletes named Kubernetes pods (a controller's pods are started again; a bare pod and its local data are gone)".clone_into(&mut v.reason);
                Some(v)
            }
        })
    } else if rule == ids::CRED_KUBE_SECRET {
        names_only(name, words)
            .then(|| Verdict::normal("lists Kubernetes secret names only (`-o name`)"))
    } else if rule == ids::DISK_MKFS {
        image_file(name, words, cwd, ctx).then(|| {
            Verdict::normal("creates a filesystem inside an image file in the workspace or a temporary directory")
        })
    } else if rule == ids::RES_STRESS {
        bounded_load(name, words)
            .then(|| Verdict::normal("a CPU or I/O load generator bounded by a short --timeout"))
    } else if rule == ids::PKG_IMAGE_PUSH || rule == ids::PKG_IMAGE_PUSH_NESTED {
        loopback_push(name, words)
            .then(|| Verdict::normal("pushes an image to a registry on this machine (localhost)"))
    } else if rule == ids::SEC_QUARANTINE_STRIP || rule == ids::SEC_QUARANTINE_CLEAR_ALL {
        workspace_files(words, cwd, ctx).then(|| {
            Verdict::normal(
                "clears extended attributes of files inside the workspace (a build output is no download to vet)",
            )
        })
    } else if rule == ids::DEVICE_ANDROID_APP_CLEAR {
        // `pm clear com.acme.app.debug`: the debug variant of an app (Gradle's conventional
        // `applicationIdSuffix ".debug"`), the build under development; its data is test data.
        let operands: Vec<&Word> = words
            .iter()
            .filter(|w| !(w.exact && w.text.starts_with('-')))
            .skip(1)
            .collect();
        (!operands.is_empty()
            && operands.iter().all(|w| {
                w.exact
                    && w.text
                        .strip_suffix(".debug")
                        .is_some_and(|app| !app.is_empty())
            }))
        .then(|| Verdict::normal("clears the data of an app's debug build (its test data)"))
    } else if rule == ids::GIT_TAG_DELETE {
        prerelease_tags(words)
            .then(|| Verdict::normal("deletes a local pre-release tag (rc, alpha, beta, …)"))
    } else if rule == ids::DOCKER_SYSTEM_PRUNE {
        system_prune(name, words)
    } else if rule == ids::CRED_SECRET_STORE_READ
        || rule == ids::CRED_SECRET_STORE_READ_VAULT
        || rule == ids::CRED_SECRET_STORE_READ_OP
    {
        secret_store_field(name, words).then(|| {
            Verdict::normal(
                "prints one non-secret field of a secret store entry (a user name, host, port, region)",
            )
        })
    } else {
        None
    }
}

/// Short letters of kubectl/oc that take a value, for [`scan`].
const KUBE_SHORT: &str = "nlfocpLs";

/// kubeconfig context (or cluster) names that the local development cluster tools create:
/// `kind create cluster --name dev` → `kind-dev`, `k3d-*`, `minikube`, Docker Desktop,
/// Rancher Desktop, OrbStack, Colima, MicroK8s.
fn is_local_cluster(name: &str) -> bool {
    name.starts_with("kind-")
        || name.starts_with("k3d-")
        || matches!(
            name,
            "minikube"
                | "docker-desktop"
                | "docker-for-desktop"
                | "rancher-desktop"
                | "orbstack"
                | "colima"
                | "microk8s"
        )
}

/// Helm's options that take a value, for [`local_cluster`] (`--kube-context` is where it
/// names the context; the others are read so that their values are not taken for operands).
const HELM_LONG: &[&str] = &[
    "--kube-context",
    "--kubeconfig",
    "--kube-apiserver",
    "--kube-token",
    "--namespace",
    "--timeout",
    "--cascade",
    "--description",
];

/// `kubectl --context kind-dev delete …`, `helm uninstall x --kube-context kind-dev`: every
/// context (`--context`/`--cluster`, helm's `--kube-context`) given names a local development
/// cluster (at least one given), and nothing points the client at another server or
/// kubeconfig file (`--server`, `-s`, `--kubeconfig`, helm's `--kube-apiserver`), where the
/// same context name could mean any cluster.
fn local_cluster(name: &str, words: &[Word]) -> bool {
    let (opts, _) = if name == "helm" {
        scan(name, words, "n", HELM_LONG)
    } else {
        scan(name, words, KUBE_SHORT, crate::deploy::KUBE_LONG)
    };
    let places: Vec<&Opt> = opts
        .iter()
        .filter(|o| {
            matches!(
                o.name.as_str(),
                "--context" | "--cluster" | "--kube-context"
            )
        })
        .collect();
    !places.is_empty()
        && places.iter().all(|o| {
            o.value
                .as_ref()
                .is_some_and(|v| v.exact && is_local_cluster(&v.text))
        })
        && !opts.iter().any(|o| {
            matches!(
                o.name.as_str(),
                "--server" | "-s" | "--kubeconfig" | "--kube-apiserver"
            )
        })
}

/// Where named pods are deleted, by the namespace the line gives.
enum PodPlace {
    /// A namespace named for development work ([`namespace_place`]).
    Development,
    /// A namespace named for production: the rule keeps its deny.
    Production,
    /// Any other namespace, or none (the context's own, which may be production's).
    Unknown,
}

/// `kubectl delete pod NAME…` / `kubectl delete pod/NAME…`: only pods, each named, no
/// selector, file, `--all` or server redirection, and where (`None` when anything else is
/// deleted or could be).
///
/// Why pods are lowered and nothing else: deleting a pod is how people restart one — its
/// Deployment, StatefulSet or Job starts a new one — whereas a Deployment, a namespace or a
/// volume claim deleted takes the workload or its data with it. A bare pod is lost, which is
/// why outside a development namespace it still asks.
fn named_pods(name: &str, words: &[Word]) -> Option<PodPlace> {
    let (opts, operands) = scan(name, words, KUBE_SHORT, crate::deploy::KUBE_LONG);
    let [verb, rest @ ..] = operands.as_slice() else {
        return None;
    };
    if !(verb.exact && verb.text == "delete") {
        return None;
    }
    let is_pod_kind = |k: &str| matches!(k, "pod" | "pods" | "po");
    let plain_name = |w: &Word| {
        w.exact
            && !w.text.is_empty()
            && w.text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.'))
    };
    let named = match rest {
        [kind, names @ ..] if kind.exact && is_pod_kind(&kind.text) => {
            !names.is_empty() && names.iter().all(plain_name)
        }
        slashed => {
            !slashed.is_empty()
                && slashed.iter().all(|w| {
                    w.exact
                        && w.text
                            .split_once('/')
                            .is_some_and(|(k, n)| is_pod_kind(k) && plain_name(&Word::lit(n)))
                })
        }
    };
    if !named {
        return None;
    }
    let mut namespace = None;
    for o in &opts {
        match o.name.as_str() {
            "-n" | "--namespace" => namespace = Some(o.value.as_ref()?),
            "--context" | "--cluster" | "--grace-period" | "--now" | "--wait" | "--force"
            | "--ignore-not-found" | "--timeout" | "-v" | "--v" => {}
            _ => return None,
        }
    }
    Some(match namespace {
        Some(ns) if ns.exact => namespace_place(&ns.text),
        _ => PodPlace::Unknown,
    })
}

/// A namespace's place by its name's `-`/`_`-separated parts: any production word (`prod`,
/// `payments-prod`, `prod-test`) makes it production's; otherwise a development word (`dev`,
/// `payments-dev`, `test`, `sandbox`, `preview-123`) makes it a development one.
fn namespace_place(ns: &str) -> PodPlace {
    let parts = || ns.split(['-', '_']);
    if parts().any(|p| matches!(p, "prod" | "production" | "prd" | "live")) {
        PodPlace::Production
    } else if parts().any(|p| {
        matches!(
            p,
            "dev"
                | "development"
                | "test"
                | "testing"
                | "sandbox"
                | "local"
                | "ci"
                | "preview"
                | "review"
                | "scratch"
                | "playground"
                | "e2e"
        )
    }) {
        PodPlace::Development
    } else {
        PodPlace::Unknown
    }
}

/// `kubectl get secret -o name`: every output format given is `name`, which prints
/// `secret/NAME` lines and never the data; a template prints data.
fn names_only(name: &str, words: &[Word]) -> bool {
    let (opts, _) = scan(name, words, KUBE_SHORT, crate::deploy::KUBE_LONG);
    let formats: Vec<&Opt> = opts
        .iter()
        .filter(|o| matches!(o.name.as_str(), "-o" | "--output" | "--template"))
        .collect();
    !formats.is_empty()
        && formats.iter().all(|o| {
            o.name != "--template"
                && o.value
                    .as_ref()
                    .is_some_and(|v| v.exact && v.text == "name")
        })
}

/// Short letters of the mkfs family that take a value, by tool: mkfs.vfat's `-C` (create
/// the file) and mkfs.xfs's `-f` (force) are flags, mke2fs's `-C` a cluster size and
/// mkfs.vfat's `-f` a FAT count. A letter read wrongly as a value only hides an operand,
/// which makes the test below fail (the rule stays), never pass.
fn mkfs_short_values(name: &str) -> &'static str {
    match name {
        "mkfs.vfat" | "mkfs.fat" | "mkfs.msdos" | "mkdosfs" => "bDfFghilmMnrRsS",
        "mkfs.xfs" => "bdilLmnprs",
        "mkfs.btrfs" => "dmLnOrsU",
        _ => "bCdEgGiIJlLmMNoOrtTUez",
    }
}

/// `mkfs.ext4 -F tmp/test.img`, `mkfs.vfat -C tmp/fat.img 8192`: every operand is either a
/// block count or an exact path to an ordinary file inside the workspace or a temporary
/// directory (not under `/dev`), so the filesystem is written into an image file, not onto a
/// disk. A device node, a path outside, or a run-time word keeps `disk.mkfs`.
fn image_file(name: &str, words: &[Word], cwd: &Cwd, ctx: &Context) -> bool {
    let (_, operands) = scan(name, words, mkfs_short_values(name), &["--type", "--label"]);
    let mut files = 0;
    for w in &operands {
        if w.exact && !w.text.is_empty() && w.text.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let contained = w.exact
            && crate::flow::place_in(&w.text, cwd, ctx).is_some_and(|p| {
                !p.starts_with("/dev") && !p.starts_with("/proc") && !p.starts_with("/sys")
            })
            && crate::targets::judge_delete(&w.text, true, Shape::Exact, false, cwd, ctx).is_none();
        if !contained {
            return false;
        }
        files += 1;
    }
    files > 0
}

/// Options of `stress`/`stress-ng` whose workers fill memory, disk, the process table or
/// file descriptors: even a few seconds of them can wake the OOM killer or fill the disk.
const FILLING_STRESSORS: &[&str] = &[
    "--vm",
    "-m",
    "--vm-bytes",
    "--malloc",
    "--malloc-bytes",
    "--bigheap",
    "--brk",
    "--stack",
    "--mmap",
    "--mmap-bytes",
    "--hdd",
    "-d",
    "--hdd-bytes",
    "--fallocate",
    "--fork",
    "--vfork",
    "--clone",
    "--pthread",
    "--exec",
    "--memfd",
    "--shm",
    "--tmpfs",
    "--dentry",
    "--dir",
    "--iomix",
    "--seek",
    "--all",
    "-a",
    "--class",
    "--sequential",
    "--seq",
    "--aggressive",
];

/// `stress-ng --cpu 2 --timeout 10s`: a `--timeout`/`-t` of a positive duration up to ten
/// minutes, and no stressor that fills memory, disk or the process table. `--timeout 0`
/// (run until stopped), a run-time value, or a filling stressor keeps `res.stress`;
/// `memtester` has no timeout and always keeps it.
fn bounded_load(name: &str, words: &[Word]) -> bool {
    if !matches!(name, "stress" | "stress-ng") {
        return false;
    }
    let (opts, _) = scan(
        name,
        words,
        "tcimdn",
        &["--timeout", "--cpu", "--io", "--backoff"],
    );
    let seconds = opts
        .iter()
        .filter(|o| matches!(o.name.as_str(), "--timeout" | "-t"))
        .map(|o| {
            o.value
                .as_ref()
                .filter(|v| v.exact)
                .and_then(|v| duration(&v.text))
        })
        .collect::<Vec<_>>();
    !seconds.is_empty()
        && seconds.iter().all(|s| s.is_some_and(|s| s > 0 && s <= 600))
        && !opts
            .iter()
            .any(|o| FILLING_STRESSORS.contains(&o.name.as_str()))
}

/// Seconds of a stress duration: a number with an optional `s`/`m`/`h`/`d`/`y` unit.
fn duration(text: &str) -> Option<u64> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let n: u64 = digits.parse().ok()?;
    let unit = match &text[digits.len()..] {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "y" => 31_536_000,
        _ => return None,
    };
    n.checked_mul(unit)
}

/// `docker push localhost:5000/app:dev` (also `docker image push`): every image operand's
/// registry host is this machine's loopback (`localhost`, `127.x.x.x`, `[::1]`, with an
/// optional port), where a development registry (kind's, a compose service) runs. A name
/// without a registry host is Docker Hub; `--all-tags` pushes the same repository.
fn loopback_push(name: &str, words: &[Word]) -> bool {
    let (_, operands) = scan(name, words, "", &["--platform"]);
    let images: Vec<&Word> = operands
        .iter()
        .skip_while(|w| w.text != "push")
        .skip(1)
        .collect();
    !images.is_empty() && images.iter().all(|w| w.exact && loopback_image(&w.text))
}

/// `aws --endpoint-url http://localhost:4566 s3 rb s3://b --force`, `twine upload
/// --repository-url http://127.0.0.1:3141/root/dev/`, `gem push --host http://localhost:9292`:
/// the tool's own option that says which service it talks to names this machine's loopback,
/// so the cloud it deletes from or the registry it publishes to is a local emulator. Every
/// such option on the line must be an exact loopback URL (one remote or run-time value keeps
/// the rule); a tool without one talks to its default service. Not npm and its kin: their
/// `--registry` loses to a package's `publishConfig.registry` and to a scope's registry in
/// `.npmrc` (npm/cli#2473, npm/npm#10117), so the flag does not say where a publish goes.
/// [`local_endpoint`] for an argv already known literal (the policy's publishing action reads
/// the same options, so both agree on what is local).
pub fn local_endpoint_argv(name: &str, args: &[String]) -> bool {
    let words: Vec<Word> = args.iter().map(|a| Word::lit(a.as_str())).collect();
    local_endpoint(name, &words)
}

/// [`npm_publishes_locally`] for an argv already known literal (the words after `npm`), run
/// in `dir`: the policy's publishing invariant asks the same question of the same files, so
/// the two agree on a local registry.
pub fn npm_publishes_locally_argv(
    args: &[String],
    dir: &std::path::Path,
    home: Option<&std::path::Path>,
) -> bool {
    let words: Vec<Word> = args.iter().map(|a| Word::lit(a.as_str())).collect();
    let ctx = Context::new(dir, home.map(std::path::Path::to_path_buf));
    npm_publishes_locally(&words, &crate::targets::Cwd::Known(dir.to_path_buf()), &ctx)
}

/// The text of the regular file at `path` when it is at most `max` bytes: the project files
/// a reading consults (`package.json`, `.npmrc`, `.env`). Missing, larger, unreadable or not
/// UTF-8 is `None`, and each caller decides what an unread file means.
pub(crate) fn read_small(path: &std::path::Path, max: u64) -> Option<String> {
    let m = std::fs::metadata(path).ok()?;
    (m.is_file() && m.len() <= max)
        .then(|| std::fs::read_to_string(path).ok())
        .flatten()
}

/// Largest `package.json` or `.npmrc` read to see where `npm publish` goes.
const MAX_NPM_CONFIG: u64 = 1 << 20;

/// `npm publish --registry http://localhost:4873` publishing the package in the current
/// directory (no operand, or `.`): the flag decides where it goes unless the package itself
/// says otherwise. npm lets `publishConfig` in `package.json` override the command line, and a
/// scoped package (`@acme/x`) goes to its scope's registry (`@acme:registry=` in the project's
/// or the user's `.npmrc`) whatever `--registry` says — so the flag counts only when the
/// package file is read, has no `publishConfig` naming a registry, and a scoped name has no
/// scope registry configured in either `.npmrc`. Anything unread (no file, too large, not
/// JSON, an operand naming another folder or tarball, an option that could pick another
/// package — `--workspace`, `--prefix` — or takes a value as the next word, a directory only
/// known at run time) keeps the rule.
fn npm_publishes_locally(words: &[Word], cwd: &crate::targets::Cwd, ctx: &Context) -> bool {
    let crate::targets::Cwd::Known(dir) = cwd else {
        return false;
    };
    let mut registry = false;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if !w.exact {
            return false;
        }
        let t = w.text.as_str();
        let value = if let Some(v) = t.strip_prefix("--registry=") {
            v.to_owned()
        } else if t == "--registry" {
            match it.next() {
                Some(v) if v.exact => v.text.clone(),
                _ => return false,
            }
        } else {
            // The subcommand and the current folder; options that do not change which package
            // is published or where (`--workspace`, `--prefix`, `-C` and any option with a
            // value would) — anything else is not the package read here.
            if matches!(t, "publish" | "pub" | "publ" | "publi" | ".")
                || matches!(
                    t,
                    "--dry-run"
                        | "--ignore-scripts"
                        | "--quiet"
                        | "--silent"
                        | "--verbose"
                        | "--json"
                        | "--force"
                        | "-f"
                        | "-q"
                        | "--provenance"
                )
                || t.starts_with("--tag=")
                || t.starts_with("--access=")
            {
                continue;
            }
            return false;
        };
        if !crate::argdanger::is_loopback_url(&value, false) {
            return false;
        }
        registry = true;
    }
    if !registry {
        return false;
    }
    let read = |p: std::path::PathBuf| read_small(&p, MAX_NPM_CONFIG);
    let Some(pkg) = read(dir.join("package.json"))
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    else {
        return false;
    };
    if pkg
        .get("publishConfig")
        .and_then(serde_json::Value::as_object)
        .is_some_and(|c| c.keys().any(|k| k.contains("registry")))
    {
        return false;
    }
    let Some(name) = pkg.get("name").and_then(serde_json::Value::as_str) else {
        return false;
    };
    if let Some((scope, _)) = name.split_once('/').filter(|_| name.starts_with('@')) {
        let key = format!("{scope}:registry");
        // A present `.npmrc` that cannot be read counts as configuring the scope.
        let configured = [
            Some(dir.join(".npmrc")),
            ctx.home.as_ref().map(|h| h.join(".npmrc")),
        ]
        .into_iter()
        .flatten()
        .filter(|p| p.exists())
        .any(|p| {
            read(p).is_none_or(|text| {
                text.lines()
                    .any(|l| l.trim_start().starts_with(key.as_str()))
            })
        });
        if configured {
            return false;
        }
    }
    true
}

fn local_endpoint(name: &str, words: &[Word]) -> bool {
    let options: &[&str] = match name {
        "aws" => &["--endpoint-url"],
        "twine" => &["--repository-url"],
        "gem" => &["--host"],
        "cargo" => &["--index"],
        "dotnet" | "nuget" => &["--source", "-s", "-Source"],
        _ => return false,
    };
    let mut values = Vec::new();
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if let Some((opt, v)) = t.split_once('=').filter(|(o, _)| options.contains(o)) {
            let _ = opt;
            values.push((w.exact, v.to_owned()));
        } else if options.contains(&t) {
            match it.next() {
                Some(v) => values.push((w.exact && v.exact, v.text.clone())),
                None => return false,
            }
        }
    }
    !values.is_empty()
        && values.iter().all(|(exact, v)| {
            let url = v.strip_prefix("sparse+").unwrap_or(v);
            *exact && crate::argdanger::is_loopback_url(url, false)
        })
}

/// `xattr -dr com.apple.quarantine build/Release/App.app`: every file operand (not an option,
/// not the attribute name) is an exact path inside the workspace, where the project's own
/// build puts what it makes. Gatekeeper's check guards what came from elsewhere (a browser
/// download in `~/Downloads`, an app in `/Applications`, a scratch path): those keep the
/// rule, as does any run-time operand or one climbing out with `..`.
fn workspace_files(words: &[Word], cwd: &Cwd, ctx: &Context) -> bool {
    let files: Vec<&Word> = words
        .iter()
        .filter(|w| !(w.exact && (w.text.starts_with('-') || w.text.starts_with("com.apple."))))
        .collect();
    !files.is_empty()
        && files.iter().all(|w| {
            w.exact
                && !w.text.contains(['*', '?', '['])
                && crate::targets::glob_in_workspace(&w.text, cwd, ctx)
        })
}

/// True when an image reference's registry host is this machine's loopback
/// (`localhost:5000/app:dev`): pushing there publishes nothing. Shared with the policy's
/// publishing invariant so both read an image reference alike.
pub fn loopback_image(reference: &str) -> bool {
    reference
        .split_once('/')
        .is_some_and(|(host, _)| is_loopback_host(host))
}

/// `git config core.hooksPath .githooks`: a relative hooks directory, which git resolves
/// against the top of the work tree where hooks run, so it stays inside the repository
/// (`.githooks`, `.husky`, `scripts/hooks`). Absolute paths, `~`, `..`, variables and
/// directories inside `.git` other than its own `hooks` are elsewhere; they keep the ask.
/// Shared with the policy's version-control configuration invariant.
pub fn project_hooks_dir(value: &str) -> bool {
    let path = std::path::Path::new(value);
    !value.is_empty()
        && !value.starts_with('~')
        && !value.contains('$')
        && path.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        })
        && path
            .components()
            .find(|c| !matches!(c, std::path::Component::CurDir))
            .is_some_and(|first| first.as_os_str() != ".git")
}

/// `localhost`, `localhost:5000`, `127.0.0.1:5000`, `[::1]:5000`.
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let bare = if let Some(rest) = host.strip_prefix('[') {
        rest.split_once(']').map_or(rest, |(h, _)| h)
    } else {
        host.split_once(':').map_or(host, |(h, _)| h)
    };
    bare == "localhost"
        || bare == "::1"
        || bare
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// `git tag -d v0.3.2-rc1`: every tag deleted is a pre-release of a version (a version
/// number followed by an `-`/`.`/`_`-separated or glued `rc`, `alpha`, `beta`, `pre`,
/// `dev`, `snapshot`, `nightly` part): the scratch tags of a release being prepared, made
/// and remade locally. A release tag (`v1.2.0`) keeps `git.tag_delete`.
fn prerelease_tags(words: &[Word]) -> bool {
    let (_, operands) = scan("git", words, "", &[]);
    let tags: Vec<&Word> = operands.iter().skip(1).collect();
    !tags.is_empty()
        && tags
            .iter()
            .all(|w| w.exact && (is_prerelease(&w.text) || is_scratch_tag(&w.text)))
}

/// A tag named as a bookmark of the work at hand, not a release: a name with a part such as
/// `tmp`, `wip`, `bisect`, `scratch`, `try`, `debug` and no version number (`tmp-bisect-good`,
/// `wip/parser`). `git bisect` and local experiments make and drop such tags by the dozen.
fn is_scratch_tag(tag: &str) -> bool {
    let lower = tag.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split(['-', '.', '_', '/']).collect();
    !parts.iter().any(|p| {
        p.trim_start_matches('v')
            .starts_with(|c: char| c.is_ascii_digit())
    }) && parts.iter().any(|p| {
        matches!(
            *p,
            "tmp"
                | "temp"
                | "wip"
                | "bisect"
                | "scratch"
                | "try"
                | "debug"
                | "experiment"
                | "test"
                | "good"
                | "bad"
        )
    })
}

fn is_prerelease(tag: &str) -> bool {
    let version = tag
        .rsplit('/')
        .next()
        .unwrap_or(tag)
        .trim_start_matches(['v', 'V']);
    if !version.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let lower = version.to_ascii_lowercase();
    lower.split(['-', '.', '_', '+']).skip(1).any(|part| {
        let word = part.trim_end_matches(|c: char| c.is_ascii_digit());
        let word = if word.is_empty() { part } else { word };
        matches!(
            word,
            "rc" | "alpha"
                | "a"
                | "beta"
                | "b"
                | "pre"
                | "preview"
                | "dev"
                | "snapshot"
                | "nightly"
                | "canary"
        ) || ["rc", "alpha", "beta", "pre"].iter().any(|p| {
            part.strip_prefix(|c: char| c.is_ascii_digit())
                .is_some_and(|rest| {
                    rest.trim_start_matches(|c: char| c.is_ascii_digit())
                        .starts_with(p)
                })
        })
    })
}

/// `docker system prune` without `--volumes` and without `-a`/`--all`: stopped containers,
/// dangling images, unused networks and dangling build cache, all rebuilt by the next build
/// or `up`; a stopped container's own writable layer is what can be lost, so it asks rather
/// than denies. `--volumes` (the data) or `-a` (every image not in use) keep the deny.
fn system_prune(name: &str, words: &[Word]) -> Option<Verdict> {
    let (opts, _) = scan(name, words, "", &["--filter"]);
    let wide = opts
        .iter()
        .any(|o| matches!(o.name.as_str(), "--volumes" | "-a" | "--all"));
    (!wide).then(|| {
        let mut v = ids::DOCKER_SYSTEM_PRUNE.verdict();
        v.blast_radius = BlastRadius::Medium;
        v.reason = format!(
            "{} (without --volumes or --all: what is lost is stopped containers' own changes)",
            v.reason
        );
        v
    })
}

/// Fields of a secret store entry that name where or as whom, not how to get in: what
/// `aws configure get region` is beside `aws configure get aws_secret_access_key`. Compared
/// lower case with `-` read as `_`. URLs are not here (`DATABASE_URL` carries the password).
const NON_SECRET_FIELDS: &[&str] = &[
    "username",
    "user",
    "user_name",
    "login",
    "email",
    "host",
    "hostname",
    "server",
    "port",
    "region",
    "database",
    "dbname",
    "db_name",
    "db",
    "account",
    "account_id",
    "project",
    "project_id",
    "namespace",
    "cluster",
    "endpoint",
];

fn non_secret_field(field: &str) -> bool {
    let f = field.to_ascii_lowercase().replace('-', "_");
    NON_SECRET_FIELDS.contains(&f.as_str())
}

/// One named non-secret field of a secret store entry is all that is printed:
/// `vault kv get -field=username secret/dev/db` (vault's single-dash long options; every
/// `-field` given names such a field), `op read op://dev/db/username` (the reference's last
/// segment, no `?attribute=` query, no `-o`/`--out-file`), `bw get username ITEM` and
/// `bw get uri ITEM`. Any run-time word keeps the rule.
fn secret_store_field(name: &str, words: &[Word]) -> bool {
    if words.iter().any(|w| !w.exact) {
        return false;
    }
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    match name {
        "vault" | "bao" => {
            let mut fields = Vec::new();
            let mut i = 0;
            while let Some(t) = texts.get(i) {
                let bare = t.trim_start_matches('-');
                if t.starts_with('-') {
                    let (opt, value) = match bare.split_once('=') {
                        Some((o, v)) => (o, Some(v)),
                        None => (bare, None),
                    };
                    // Only options that choose what is read: `-output-curl-string`
                    // prints the request with the Vault token in it.
                    if !matches!(
                        opt,
                        "field" | "mount" | "version" | "format" | "namespace" | "ns"
                    ) {
                        return false;
                    }
                    if opt == "field" {
                        match value.or_else(|| texts.get(i + 1).copied()) {
                            Some(v) => fields.push(v),
                            None => return false,
                        }
                        if value.is_none() {
                            i += 1;
                        }
                    }
                }
                i += 1;
            }
            !fields.is_empty() && fields.iter().all(|f| non_secret_field(f))
        }
        "op" => {
            // Only `-n`/`--no-newline` and the account: `-o`/`--out-file` writes the value to
            // a file, and an option this list does not know may print more.
            let mut other_option = false;
            let mut skip = false;
            for t in &texts {
                if skip {
                    skip = false;
                } else if *t == "--account" {
                    skip = true;
                } else if t.starts_with('-')
                    && !matches!(*t, "-n" | "--no-newline")
                    && !t.starts_with("--account=")
                {
                    other_option = true;
                }
            }
            let refs: Vec<&str> = texts
                .iter()
                .copied()
                .filter(|t| t.starts_with("op://"))
                .collect();
            !other_option
                && refs.len() == 1
                && refs
                    .iter()
                    .all(|r| !r.contains('?') && r.rsplit('/').next().is_some_and(non_secret_field))
        }
        "bw" => {
            // `bw get OBJECT ID`: the object word follows `get`.
            let after_get = texts
                .iter()
                .position(|t| *t == "get")
                .and_then(|i| texts.get(i + 1));
            after_get.is_some_and(|o| matches!(*o, "username" | "uri"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{duration, is_loopback_host, is_prerelease};

    #[test]
    fn prerelease_tags_name_a_version_and_a_prerelease_part() {
        for t in [
            "v0.3.2-rc1",
            "1.0.0-beta.2",
            "v2.0.0rc1",
            "v1.2-alpha",
            "release/v1.0.0-rc.3",
            "v3.1.0.dev4",
        ] {
            assert!(is_prerelease(t), "{t}");
        }
        for t in ["v1.2.0", "latest", "rc1", "v1.0.0-final", "beta-v1", "main"] {
            assert!(!is_prerelease(t), "{t}");
        }
    }

    #[test]
    fn loopback_hosts_and_durations() {
        assert!(is_loopback_host("localhost:5000"));
        assert!(is_loopback_host("127.0.0.1:5000"));
        assert!(is_loopback_host("[::1]:5000"));
        assert!(!is_loopback_host("registry.example.com"));
        assert!(!is_loopback_host("localhost.example.com"));
        assert_eq!(duration("10s"), Some(10));
        assert_eq!(duration("2m"), Some(120));
        assert_eq!(duration("0"), Some(0));
        assert_eq!(duration("x"), None);
    }
}
