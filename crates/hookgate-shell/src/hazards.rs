//! Dangers that live in the *value* of an argument or a setting, judged by effect rather than
//! by who runs the command (an agent in a container often is root, so `sudo` is no signal):
//!
//! * settings that hide tracks (history off or erased) or weaken transport security (TLS
//!   verification off, any host trusted) — as variables (`GIT_SSL_NO_VERIFY=1`,
//!   `HISTFILE=/dev/null`), as tool configuration (`git config http.sslVerify false`, `npm
//!   config set strict-ssl false`, `pip config set global.trusted-host …`) or as builtins
//!   (`history -c`, `set +o history`, `unset HISTFILE`);
//! * process targets that mean "everything" (`kill 1`, `kill 0`, `kill -1`), a Docker daemon
//!   listening on TCP, the audit system switched off, kernel parameters written;
//! * unbounded or huge writes to disk (`fallocate -l 500G`, `dd if=/dev/zero of=f` with no
//!   count or a huge one).
//!
//! Invariant: every judgement is a data table over the parsed argv (tool, key, value
//! predicate); nothing here looks at raw command text.

use std::path::Path;

use crate::model::{Context, Verdict};
use crate::targets::Cwd;
use crate::taxonomy::{RuleRef, ids};
use crate::walk::Word;

/// How a setting's value weakens something.
#[derive(Clone, Copy)]
enum Bad {
    /// Any value (the setting only exists to weaken: `GIT_SSL_NO_VERIFY`, `trusted-host`).
    Any,
    /// A false-like value (`false`, `0`, `no`, `off`).
    Falsy,
    /// The empty string or `/dev/null` (a history file or CA bundle that is no file).
    Nothing,
    /// `0` (a history size).
    Zero,
    /// A value that contains this (`GOFLAGS=-insecure`).
    Contains(&'static str),
    /// A plain-HTTP URL to another host (a registry or index without transport security).
    PlainHttp,
    /// A package source that is not the ecosystem's own registry nor this machine: each of
    /// the value's `,`/`|`/blank-separated entries must start with one of these or name a
    /// loopback host (a local verdaccio or devpi is development work).
    Foreign(&'static [&'static str]),
}

impl Bad {
    fn matches(self, value: &str) -> bool {
        let v = value.trim().trim_matches(['"', '\'']);
        match self {
            Bad::Any => !v.is_empty(),
            Bad::Falsy => matches!(
                v.to_ascii_lowercase().as_str(),
                "false" | "0" | "no" | "off" | "n"
            ),
            Bad::Nothing => v.is_empty() || v == "/dev/null",
            Bad::Zero => v == "0",
            Bad::Contains(s) => v.contains(s),
            Bad::PlainHttp => {
                v.starts_with("http://")
                    && !v.starts_with("http://localhost")
                    && !v.starts_with("http://127.")
            }
            // Only URLs: a local directory of wheels (`PIP_FIND_LINKS=./wheels`) or a
            // `file://` proxy is this machine's.
            Bad::Foreign(official) => v
                .split([',', '|', ' '])
                .filter(|e| e.contains("://") && !e.starts_with("file://"))
                .any(|e| {
                    let loopback = [
                        "http://localhost",
                        "http://127.",
                        "https://localhost",
                        "https://127.",
                    ]
                    .iter()
                    .any(|l| e.starts_with(l));
                    !loopback && !official.iter().any(|o| e.starts_with(o))
                }),
        }
    }
}

/// Environment variables that turn TLS verification off or hide the session's history.
/// Names are matched case-insensitively for npm's `npm_config_*` (npm reads both spellings).
const VARIABLES: &[(&str, Bad, Kind)] = &[
    ("GIT_SSL_NO_VERIFY", Bad::Any, Kind::Tls),
    ("NODE_TLS_REJECT_UNAUTHORIZED", Bad::Zero, Kind::Tls),
    ("PYTHONHTTPSVERIFY", Bad::Zero, Kind::Tls),
    ("NPM_CONFIG_STRICT_SSL", Bad::Falsy, Kind::Tls),
    ("YARN_ENABLE_STRICT_SSL", Bad::Falsy, Kind::Tls),
    ("YARN_STRICT_SSL", Bad::Falsy, Kind::Tls),
    ("PIP_TRUSTED_HOST", Bad::Any, Kind::Tls),
    ("UV_INSECURE_HOST", Bad::Any, Kind::Tls),
    ("CURL_CA_BUNDLE", Bad::Nothing, Kind::Tls),
    ("REQUESTS_CA_BUNDLE", Bad::Nothing, Kind::Tls),
    ("CONDA_SSL_VERIFY", Bad::Falsy, Kind::Tls),
    ("GOINSECURE", Bad::Any, Kind::Tls),
    ("GONOSUMDB", Bad::Any, Kind::Tls),
    ("GONOSUMCHECK", Bad::Any, Kind::Tls),
    ("GOSUMDB", Bad::Falsy, Kind::Tls),
    ("GOFLAGS", Bad::Contains("-insecure"), Kind::Tls),
    ("HELM_INSECURE_SKIP_TLS_VERIFY", Bad::Any, Kind::Tls),
    ("ANSIBLE_HOST_KEY_CHECKING", Bad::Falsy, Kind::Tls),
    // Package sources named by the environment for one run (`npm_config_registry=… npm i`,
    // `PIP_INDEX_URL=… pip install`): the same redirect as `npm config set registry`.
    (
        "NPM_CONFIG_REGISTRY",
        Bad::Foreign(NPM_REGISTRIES),
        Kind::Registry,
    ),
    (
        "YARN_NPM_REGISTRY_SERVER",
        Bad::Foreign(NPM_REGISTRIES),
        Kind::Registry,
    ),
    (
        "YARN_REGISTRY",
        Bad::Foreign(NPM_REGISTRIES),
        Kind::Registry,
    ),
    (
        "BUN_CONFIG_REGISTRY",
        Bad::Foreign(NPM_REGISTRIES),
        Kind::Registry,
    ),
    (
        "PIP_INDEX_URL",
        Bad::Foreign(PYTHON_INDEXES),
        Kind::Registry,
    ),
    (
        "PIP_EXTRA_INDEX_URL",
        Bad::Foreign(PYTHON_INDEXES),
        Kind::Registry,
    ),
    (
        "PIP_FIND_LINKS",
        Bad::Foreign(PYTHON_INDEXES),
        Kind::Registry,
    ),
    ("UV_INDEX_URL", Bad::Foreign(PYTHON_INDEXES), Kind::Registry),
    (
        "UV_EXTRA_INDEX_URL",
        Bad::Foreign(PYTHON_INDEXES),
        Kind::Registry,
    ),
    (
        "UV_DEFAULT_INDEX",
        Bad::Foreign(PYTHON_INDEXES),
        Kind::Registry,
    ),
    ("UV_INDEX", Bad::Foreign(PYTHON_INDEXES), Kind::Registry),
    (
        "UV_FIND_LINKS",
        Bad::Foreign(PYTHON_INDEXES),
        Kind::Registry,
    ),
    ("PDM_PYPI_URL", Bad::Foreign(PYTHON_INDEXES), Kind::Registry),
    ("GOPROXY", Bad::Foreign(GO_PROXIES), Kind::Registry),
    ("HISTFILE", Bad::Nothing, Kind::History),
    ("HISTSIZE", Bad::Zero, Kind::History),
    ("HISTFILESIZE", Bad::Zero, Kind::History),
    ("SAVEHIST", Bad::Zero, Kind::History),
    ("HISTIGNORE", Bad::Contains("*"), Kind::History),
];

/// The npm registry (and yarn's mirror of it).
const NPM_REGISTRIES: &[&str] = &["https://registry.npmjs.org", "https://registry.yarnpkg.com"];
/// PyPI, and the framework vendors' wheel indexes that installs are documented with
/// (`PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu`).
const PYTHON_INDEXES: &[&str] = &[
    "https://pypi.org/",
    "https://files.pythonhosted.org/",
    "https://download.pytorch.org/",
    "https://pypi.nvidia.com",
];
/// Go's module proxy, and fetching from the origin (`direct`) or nowhere (`off`).
const GO_PROXIES: &[&str] = &["https://proxy.golang.org", "direct", "off"];

/// Tool configuration keys (lower case) that turn TLS verification off, trust any host or
/// repository, or switch off a tool's defences:
/// `(tools, key, bad value)`. A git key also matches its per-URL form (`http.<url>.sslVerify`).
const CONFIG_KEYS: &[(&[&str], &str, Bad)] = &[
    (&["git"], "http.sslverify", Bad::Falsy),
    // git's own defences against hostile repositories: the ownership check
    // (CVE-2022-24765) and local-path transports in submodules (CVE-2022-39253).
    (&["git"], "safe.directory", Bad::Contains("*")),
    (&["git"], "protocol.file.allow", Bad::Contains("always")),
    (&["git"], "protocol.allow", Bad::Contains("always")),
    (&["git"], "core.protectntfs", Bad::Falsy),
    (&["git"], "core.protecthfs", Bad::Falsy),
    (&["npm", "pnpm", "yarn"], "strict-ssl", Bad::Falsy),
    (&["npm", "pnpm", "yarn"], "registry", Bad::PlainHttp),
    (&["pip", "pip3"], "global.index-url", Bad::PlainHttp),
    (&["pip", "pip3"], "global.extra-index-url", Bad::PlainHttp),
    (&["npm", "pnpm", "yarn"], "strict_ssl", Bad::Falsy),
    (&["yarn"], "enablestrictssl", Bad::Falsy),
    (&["pip", "pip3"], "global.trusted-host", Bad::Any),
    (&["pip", "pip3"], "install.trusted-host", Bad::Any),
    (&["pip", "pip3"], "trusted-host", Bad::Any),
    (&["conda", "mamba", "micromamba"], "ssl_verify", Bad::Falsy),
    (&["go"], "goinsecure", Bad::Any),
    (&["go"], "gonosumdb", Bad::Any),
    (&["go"], "gosumdb", Bad::Falsy),
    (&["go"], "goflags", Bad::Contains("-insecure")),
];

/// Command-line flags that turn verification off for one run of an installer (packages from a
/// host whose certificate is not checked can be replaced in transit).
const INSECURE_FLAGS: &[(&str, &str)] = &[
    ("pip", "--trusted-host"),
    ("pip3", "--trusted-host"),
    ("uv", "--allow-insecure-host"),
    ("npm", "--strict-ssl"),
    ("helm", "--insecure-skip-tls-verify"),
    ("kubectl", "--insecure-skip-tls-verify"),
    ("oc", "--insecure-skip-tls-verify"),
    ("aws", "--no-verify-ssl"),
    // Package signatures not checked: the package may be anyone's.
    ("apt", "--allow-unauthenticated"),
    ("apt-get", "--allow-unauthenticated"),
    ("apt", "--allow-insecure-repositories"),
    ("apt-get", "--allow-insecure-repositories"),
    ("dnf", "--nogpgcheck"),
    ("yum", "--nogpgcheck"),
    ("microdnf", "--nogpgcheck"),
    ("zypper", "--no-gpg-checks"),
    ("rpm", "--nosignature"),
    ("rpm", "--nodigest"),
];

/// apt's `-o KEY=VALUE` settings that turn verification off.
const APT_INSECURE_OPTIONS: &[&str] = &[
    "acquire::https::verify-peer=false",
    "acquire::https::verify-host=false",
    "apt::get::allowunauthenticated=true",
    "acquire::allowinsecurerepositories=true",
    "acquire::allowdowngradetoinsecurerepositories=true",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tls,
    History,
    Registry,
}

fn rule(kind: Kind) -> RuleRef {
    match kind {
        Kind::Tls => ids::NET_TLS_VERIFY_OFF,
        Kind::History => ids::TRACE_HISTORY_OFF,
        Kind::Registry => ids::RCE_REGISTRY_REDIRECT,
    }
}

/// The verdict for assigning `value` to the variable `name` (`None` = no value: `unset`).
pub(crate) fn variable(name: &str, value: Option<&str>) -> Option<Verdict> {
    let upper = name.to_ascii_uppercase();
    let (_, bad, kind) = VARIABLES.iter().find(|(n, _, _)| *n == upper)?;
    let hit = match value {
        Some(v) => bad.matches(v),
        // Unsetting the history file stops the history being saved.
        None => *kind == Kind::History && upper == "HISTFILE",
    };
    hit.then(|| rule(*kind).verdict())
}

/// A configuration key set to a value that weakens transport security.
fn config_key(tool: &str, key: &str, value: &str) -> Option<Verdict> {
    let key = key.to_ascii_lowercase();
    let key = match (tool, key.strip_prefix("http.")) {
        // `http.https://host/.sslverify` → `http.sslverify`. Scoped to a URL on this machine
        // (`http.https://localhost:8443/.sslVerify false`, a self-signed test server) it
        // turns nothing off that travels a network: no one can sit between git and it.
        ("git", Some(rest)) if rest.ends_with(".sslverify") => {
            let url = rest.strip_suffix(".sslverify").unwrap_or(rest);
            if crate::argdanger::is_loopback_url(url, false) {
                return None;
            }
            "http.sslverify".to_owned()
        }
        _ => key,
    };
    CONFIG_KEYS
        .iter()
        .find(|(tools, k, _)| tools.contains(&tool) && *k == key)
        .filter(|(_, _, bad)| bad.matches(value))
        .map(|_| ids::NET_TLS_VERIFY_OFF.verdict())
}

/// Danger in `name`'s arguments judged by value (called by `classify_plain`).
pub(crate) fn argument(name: &str, words: &[Word]) -> Option<Verdict> {
    if name == "mbpoll" {
        return mbpoll_write(words);
    }
    if name == "mosquitto_pub" {
        return mqtt_command(words);
    }
    if crate::debugport::judges(name) {
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        return crate::debugport::exposed(name, &texts);
    }
    if !matches!(
        name,
        "history"
            | "set"
            | "shopt"
            | "unset"
            | "export"
            | "declare"
            | "typeset"
            | "local"
            | "readonly"
            | "date"
            | "git"
            | "npm"
            | "pnpm"
            | "yarn"
            | "pip"
            | "pip3"
            | "conda"
            | "mamba"
            | "micromamba"
            | "go"
            | "uv"
            | "helm"
            | "kill"
            | "dockerd"
            | "auditctl"
            | "sysctl"
            | "fallocate"
            | "dd"
            | "openssl"
            | "apt"
            | "apt-get"
            | "dnf"
            | "yum"
            | "microdnf"
            | "zypper"
            | "rpm"
            | "kubectl"
            | "oc"
            | "aws"
            | "gcloud"
            | "gsutil"
            | "az"
            | "doctl"
            | "hcloud"
            | "socat"
            | "jupyter"
            | "jupyter-notebook"
            | "jupyter-lab"
            | "code-server"
            | "openvscode-server"
            | "code"
            | "code-insiders"
            | "marimo"
            | "firewall-cmd"
            | "nft"
            | "passwd"
            | "ip"
            | "nix"
            | "openstack"
            | "kafka-acls"
            | "kafka-acls.sh"
            | "kafka-configs"
            | "kafka-configs.sh"
            | "asterisk"
            | "fs_cli"
    ) {
        return None;
    }
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    if let Some(v) = crate::exposure::public_access(name, &texts) {
        return Some(v);
    }
    let operands: Vec<&str> = texts
        .iter()
        .copied()
        .filter(|t| !t.starts_with('-') || t.len() == 1)
        .collect();
    match name {
        "history" => texts
            .iter()
            .any(|t| t.starts_with('-') && t.contains(['c', 'd']))
            .then(|| ids::TRACE_HISTORY_OFF.verdict()),
        // `set +o history`, `shopt -u -o history`: the rest of the session is not recorded.
        "set" | "shopt" => {
            let off = texts.windows(2).any(|p| {
                matches!(p, ["+o" | "-uo", "history"])
                    || (p[0] == "-o" && p[1] == "history" && texts.contains(&"-u"))
            });
            off.then(|| ids::TRACE_HISTORY_OFF.verdict())
        }
        "unset" => operands.iter().find_map(|v| variable(v, None)),
        "export" | "declare" | "typeset" | "local" | "readonly" => operands
            .iter()
            .filter_map(|a| a.split_once('='))
            .find_map(|(k, v)| variable(k, Some(v))),
        "date" => texts
            .iter()
            .any(|t| *t == "-s" || t.starts_with("--set"))
            .then(|| ids::SYS_CLOCK.verdict()),
        "git" => git(&texts),
        "nix" => nix_remote_flake(&texts),
        "npm" | "pnpm" | "yarn" => {
            // `npm config set K V`, `npm config set K=V`, `npm set K V`, `yarn config set K V`.
            let start = match operands.as_slice() {
                ["config" | "c", "set", ..] => 2,
                ["set", ..] => 1,
                // `npm install --registry URL`, `yarn add --registry=URL`: where this install
                // takes its code from, the same redirect as `npm_config_registry=URL`.
                _ => {
                    return insecure_flag(name, &texts).or_else(|| {
                        texts
                            .iter()
                            .enumerate()
                            .find_map(|(i, t)| match t.split_once('=') {
                                Some(("--registry", v)) => Some(v),
                                _ if *t == "--registry" => texts.get(i + 1).copied(),
                                _ => None,
                            })
                            .filter(|v| Bad::Foreign(NPM_REGISTRIES).matches(v))
                            .map(|_| ids::RCE_REGISTRY_REDIRECT.verdict())
                    });
                }
            };
            let rest = operands.get(start..).unwrap_or(&[]);
            // The shell every package script runs in: any program named there runs them all.
            if rest
                .first()
                .is_some_and(|k| k.split('=').next() == Some("script-shell"))
            {
                return Some(ids::RCE_ENV_HIJACK.verdict());
            }
            key_values(name, rest).or_else(|| insecure_flag(name, &texts))
        }
        "pip" | "pip3" => match operands.as_slice() {
            ["config", "set", rest @ ..] => key_values(name, rest),
            _ => insecure_flag(name, &texts).or_else(|| plain_http_index(&texts)),
        },
        // `socat TCP-LISTEN:2375,fork UNIX-CONNECT:/var/run/docker.sock`: a privileged local
        // socket (Docker, containerd, Podman) offered on the network.
        "socat" => {
            let listens = texts
                .iter()
                .any(|t| t.to_ascii_uppercase().contains("-LISTEN:"));
            let daemon_socket = texts.iter().any(|t| {
                t.to_ascii_uppercase().starts_with("UNIX")
                    && ["docker.sock", "containerd.sock", "podman.sock", "crio.sock"]
                        .iter()
                        .any(|s| t.contains(s))
            });
            if listens && daemon_socket {
                return Some(ids::SYS_DOCKER_TCP.verdict());
            }
            socat_relays_loopback(&texts).then(|| ids::NET_TUNNEL_EXPOSE.verdict())
        }
        // A notebook server on every interface with an empty token or password runs anyone's
        // code.
        "jupyter" | "jupyter-notebook" | "jupyter-lab" => {
            let open = texts
                .iter()
                .any(|t| matches!(*t, "--ip=0.0.0.0" | "--ip=*" | "--ip=::"))
                || texts
                    .windows(2)
                    .any(|p| p[0] == "--ip" && matches!(p[1], "0.0.0.0" | "*" | "::"));
            let no_auth = texts.iter().any(|t| {
                t.split_once('=').is_some_and(|(k, v)| {
                    k.rsplit_once('.')
                        .is_some_and(|(_, setting)| matches!(setting, "token" | "password"))
                        && v.trim_matches(['"', '\'']).is_empty()
                })
            });
            (open && no_auth).then(|| ids::RCE_WEB_SHELL.verdict())
        }
        // Browser IDEs the same way: code-server bound beyond loopback (its default) with
        // `--auth none`, openvscode-server on every interface without its connection token.
        "code-server" | "openvscode-server" | "code" | "code-insiders" | "marimo" => {
            // `code serve-web` is VS Code's own browser server; marimo's editor runs code.
            if matches!(name, "code" | "code-insiders") && texts.first() != Some(&"serve-web")
                || name == "marimo" && texts.first() != Some(&"edit")
            {
                return None;
            }
            let value = |names: &[&str]| crate::debugport::value(&texts, names);
            let open = value(&["--bind-addr", "--host"]).is_some_and(|v| {
                let host = v.rsplit_once(':').map_or(v, |(h, _)| h);
                matches!(host, "0.0.0.0" | "*" | "::" | "[::]" | "")
            });
            let no_auth = value(&["--auth"]) == Some("none")
                || texts.contains(&"--without-connection-token")
                || texts.contains(&"--no-token");
            (open && no_auth).then(|| ids::RCE_WEB_SHELL.verdict())
        }
        "openssl" => {
            // `openssl rand -out FILE N` with N of 10 GiB or more.
            let huge = texts.first() == Some(&"rand")
                && texts.contains(&"-out")
                && operands
                    .last()
                    .and_then(|n| parse_size(n))
                    .is_some_and(|n| n >= HUGE);
            huge.then(|| ids::RES_DISK_FILL.verdict())
        }
        "conda" | "mamba" | "micromamba" => {
            // `conda install -c https://mirror.example/custom numpy`: a channel given as a URL
            // on a host that is not Anaconda's or prefix.dev's is where this install takes its
            // packages from (named channels — `conda-forge`, `pytorch` — resolve through
            // anaconda.org); a local path or this machine is the user's own.
            let foreign_channel = texts.iter().enumerate().any(|(i, t)| {
                let value = match t.split_once('=') {
                    Some(("-c" | "--channel", v)) => Some(v),
                    _ if matches!(*t, "-c" | "--channel") => texts.get(i + 1).copied(),
                    _ => None,
                };
                value.is_some_and(|v| {
                    let Some((scheme, rest)) = v.split_once("://") else {
                        return false;
                    };
                    let host = rest
                        .split(['/', ':'])
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    scheme != "file"
                        && !is_loopback_address(&host)
                        && ![
                            "anaconda.org",
                            "anaconda.com",
                            "prefix.dev",
                            "anaconda.cloud",
                        ]
                        .iter()
                        .any(|d| host == *d || host.ends_with(&format!(".{d}")))
                })
            });
            if foreign_channel {
                return Some(ids::RCE_REGISTRY_REDIRECT.verdict());
            }
            // `conda config --set ssl_verify false`
            let at = texts.iter().position(|t| *t == "--set")?;
            let key = texts.get(at + 1)?;
            config_key(name, key, texts.get(at + 2)?)
        }
        "go" => match operands.as_slice() {
            ["env", ..] if texts.contains(&"-w") => operands
                .iter()
                .skip(1)
                .filter_map(|kv| kv.split_once('='))
                .find_map(|(k, v)| config_key("go", k, v)),
            _ => None,
        },
        "uv" => insecure_flag(name, &texts).or_else(|| plain_http_index(&texts)),
        "apt" | "apt-get" => insecure_flag(name, &texts).or_else(|| {
            texts
                .windows(2)
                .any(|p| {
                    p[0] == "-o"
                        && APT_INSECURE_OPTIONS.contains(&p[1].to_ascii_lowercase().as_str())
                })
                .then(|| ids::NET_TLS_VERIFY_OFF.verdict())
        }),
        "dnf" | "yum" | "microdnf" | "zypper" | "rpm" | "kubectl" | "oc" | "aws" => {
            insecure_flag(name, &texts)
        }
        "gcloud" => match operands.as_slice() {
            ["config", "set", key, value, ..]
                if key.eq_ignore_ascii_case("auth/disable_ssl_validation")
                    && matches!(value.to_ascii_lowercase().as_str(), "true" | "1" | "yes") =>
            {
                Some(ids::NET_TLS_VERIFY_OFF.verdict())
            }
            _ => None,
        },
        "helm" => insecure_flag(name, &texts),
        "kill" => kill(&texts),
        "firewall-cmd" => firewall_cmd(&texts),
        "nft" => nft(&texts),
        "passwd" => passwd(&texts),
        "ip" => ip_link_set(&texts),
        "dockerd" => texts
            .iter()
            .enumerate()
            .any(|(i, t)| {
                let value = match t.split_once('=') {
                    Some(("-H" | "--host", v)) => Some(v),
                    _ if matches!(*t, "-H" | "--host") => texts.get(i + 1).copied(),
                    _ => t.strip_prefix("-H").filter(|v| !v.is_empty()),
                };
                // Anything but a unix socket or systemd's fd is a network listener
                // (`tcp://0.0.0.0:2375`, `0.0.0.0:2375`).
                value.is_some_and(|v| {
                    !v.starts_with("unix://") && !v.starts_with("fd://") && !is_loopback_address(v)
                })
            })
            .then(|| ids::SYS_DOCKER_TCP.verdict()),
        "auditctl" => {
            // `-a|-A never,task` (or `exit,never`): a rule whose action is `never` stops
            // auditing what it matches (with `task`, every new process).
            let never = |rule: &str| rule.split(',').any(|part| part == "never");
            let off = texts.contains(&"-D")
                || texts.windows(2).any(|p| p == ["-e", "0"])
                || texts.contains(&"-e0")
                || texts.windows(2).any(
                    |p| matches!(p, [flag, rule] if matches!(*flag, "-a" | "-A") && never(rule)),
                );
            off.then(|| ids::SYS_AUDIT_OFF.verdict())
        }
        // `sysctl -w k=v`, `sysctl k=v`, `sysctl -p [file]`, `--system`: kernel parameters
        // change for the whole machine (or container), with or without sudo.
        "sysctl" => {
            let writes = texts.iter().any(|t| {
                matches!(*t, "-w" | "--write" | "-p" | "--load" | "--system")
                    || t.starts_with("--load=")
            }) || operands.iter().any(|t| t.contains('='));
            writes.then(|| ids::SYS_SYSCTL_WRITE.verdict())
        }
        "fallocate" => size_option(&texts, &["-l", "--length"])
            .filter(|n| *n >= HUGE)
            .map(|_| ids::RES_DISK_FILL.verdict()),
        "dd" => dd(&texts),
        "kafka-configs" | "kafka-configs.sh" => kafka_retention_purge(&texts),
        "asterisk" | "fs_cli" => pbx_stop(name, &texts),
        _ => None,
    }
}

/// `kafka-configs --alter --add-config retention.ms=1000 --entity-name TOPIC`: a retention
/// shorter than a minute has the broker delete almost every record of the topic at its next
/// cleanup — the purge idiom, a deletion spelled as a setting (`db.kafka_delete_records`).
fn kafka_retention_purge(texts: &[&str]) -> Option<Verdict> {
    let configs = texts
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t.split_once('=') {
            Some(("--add-config", v)) => Some(v),
            _ if *t == "--add-config" => texts.get(i + 1).copied(),
            _ => None,
        });
    let purge = configs.flat_map(|c| c.split(',')).any(|kv| {
        kv.split_once('=').is_some_and(|(k, v)| {
            matches!(
                k.trim(),
                "retention.ms" | "log.retention.ms" | "local.retention.ms"
            ) && v
                .trim()
                .parse::<i64>()
                .is_ok_and(|ms| (0..60_000).contains(&ms))
        })
    });
    (texts.contains(&"--alter") && purge).then(|| ids::DB_KAFKA_DELETE_RECORDS.verdict())
}

/// A telephony server's console command run from the shell (`asterisk -rx 'core stop now'`,
/// `fs_cli -x 'fsctl shutdown'`): stopping or restarting the PBX, or hanging up every call,
/// drops every call in progress (`svc.pbx_stop`). Status and `show` commands are reads.
fn pbx_stop(name: &str, texts: &[&str]) -> Option<Verdict> {
    let flags: &[&str] = if name == "asterisk" {
        &["-rx", "-x"]
    } else {
        &["-x", "--execute"]
    };
    let commands = texts.iter().enumerate().filter_map(|(i, t)| {
        if flags.contains(t) {
            texts.get(i + 1).copied()
        } else {
            t.split_once('=')
                .filter(|(k, _)| flags.contains(k))
                .map(|(_, v)| v)
        }
    });
    let stops = commands.into_iter().any(|c| {
        let words: Vec<String> = c.split_whitespace().map(str::to_ascii_lowercase).collect();
        let w: Vec<&str> = words.iter().map(String::as_str).collect();
        matches!(
            w.as_slice(),
            ["core", "stop" | "restart", ..]
                | ["stop" | "restart", "now" | "gracefully" | "when", ..]
                | ["channel", "request", "hangup", "all", ..]
                | ["hangup", "request", "all", ..]
                | ["fsctl", "shutdown" | "crash", ..]
                | ["shutdown" | "hupall", ..]
        )
    });
    stops.then(|| ids::SVC_PBX_STOP.verdict())
}

/// 10 GiB: more than a test fixture or an image needs on an agent's machine.
pub(crate) const HUGE: u128 = 10 << 30;

/// Whether `name` stores its whole standard input in a file: `dd of=FILE` without `if=` or
/// `count=`, `sponge FILE`, `split` (into files).
pub(crate) fn stores_stdin(name: &str, words: &[Word]) -> bool {
    let has = |k: &str| words.iter().any(|w| w.text.starts_with(k));
    match name {
        "dd" => {
            has("of=")
                && !has("if=")
                && !has("count=")
                && !words.iter().any(|w| w.text.starts_with("of=/dev/"))
        }
        "sponge" | "split" => true,
        _ => false,
    }
}

/// Whether `name` reads an endless input (`yes |`, `/dev/zero` as its file) to its end,
/// which never comes: summarisers (`wc`, checksums) burn CPU for ever, programs that hold
/// their whole input (`sort`, `tail`, `tac`, `shuf`) exhaust memory. Filters that pass the
/// stream on (`gzip`, `tr`) are judged where their output goes; `head` ends the stream.
pub(crate) fn consumes_endless(name: &str, words: &[Word], endless_stdin: bool) -> bool {
    const READERS: &[&str] = &[
        "wc",
        "md5sum",
        "sha1sum",
        "sha224sum",
        "sha256sum",
        "sha384sum",
        "sha512sum",
        "b2sum",
        "cksum",
        "sum",
        "sort",
        "tail",
        "tac",
        "shuf",
        "uniq",
        "xxhsum",
        "md5",
        "shasum",
    ];
    if !READERS.contains(&name) {
        return false;
    }
    // `tail -f`/`-F` on a file follows it (ordinary); on /dev/zero it still reads for ever.
    let files: Vec<&Word> = words
        .iter()
        .filter(|w| !(w.exact && w.text.starts_with('-') && w.text.len() > 1))
        .collect();
    if files.is_empty() || files.iter().all(|w| w.text == "-") {
        endless_stdin
    } else {
        files
            .iter()
            .any(|w| w.exact && crate::resolve::is_endless_device(&w.text))
    }
}

/// `K V` or `K=V` pairs after a `config set`.
fn key_values(tool: &str, rest: &[&str]) -> Option<Verdict> {
    match rest {
        [kv] => kv.split_once('=').and_then(|(k, v)| config_key(tool, k, v)),
        [k, v, ..] => k
            .split_once('=')
            .map_or_else(|| config_key(tool, k, v), |(k, v)| config_key(tool, k, v)),
        [] => None,
    }
}

fn insecure_flag(tool: &str, texts: &[&str]) -> Option<Verdict> {
    if !INSECURE_FLAGS.iter().any(|(n, _)| *n == tool) {
        return None;
    }
    texts
        .iter()
        .enumerate()
        .filter(|(_, t)| t.starts_with("--"))
        .any(|(i, t)| {
            let (flag, inline) = t.split_once('=').map_or((*t, None), |(f, v)| (f, Some(v)));
            INSECURE_FLAGS.iter().any(|(n, f)| *n == tool && *f == flag)
                && match (flag, inline) {
                    // `--strict-ssl` alone turns it on; `=false` / `false` turn it off.
                    ("--strict-ssl", Some(v)) => Bad::Falsy.matches(v),
                    ("--strict-ssl", None) => {
                        texts.get(i + 1).is_some_and(|v| Bad::Falsy.matches(v))
                    }
                    _ => true,
                }
        })
        .then(|| ids::NET_TLS_VERIFY_OFF.verdict())
}

/// A package index over plain HTTP (`pip install -i http://…`): packages can be replaced in
/// transit, like with verification off. Any other index that is not PyPI, a vendor's wheel
/// index or this machine (`--extra-index-url https://pkgs.mirror.example/simple`) is where
/// this install takes code from, the same redirect as `PIP_INDEX_URL` names
/// (`rce.registry_redirect`; with an extra index, a name on both may resolve to the other
/// index's copy — dependency confusion).
fn plain_http_index(texts: &[&str]) -> Option<Verdict> {
    const INDEX: &[&str] = &[
        "-i",
        "--index-url",
        "--extra-index-url",
        "--index",
        "--default-index",
        "-f",
        "--find-links",
    ];
    texts
        .iter()
        .enumerate()
        .any(|(i, t)| {
            let value = match t.split_once('=') {
                Some((f, v)) if INDEX.contains(&f) => Some(v),
                _ if INDEX.contains(t) => texts.get(i + 1).copied(),
                _ => None,
            };
            value.is_some_and(|v| Bad::PlainHttp.matches(v))
        })
        .then(|| ids::NET_TLS_VERIFY_OFF.verdict())
        .or_else(|| {
            texts
                .iter()
                .enumerate()
                .any(|(i, t)| {
                    let value = match t.split_once('=') {
                        Some((f, v)) if INDEX.contains(&f) => Some(v),
                        _ if INDEX.contains(t) => texts.get(i + 1).copied(),
                        _ => None,
                    };
                    value.is_some_and(|v| Bad::Foreign(PYTHON_INDEXES).matches(v))
                })
                .then(|| ids::RCE_REGISTRY_REDIRECT.verdict())
        })
}

/// Whether a requirement is a PEP 508 direct reference or a bare URL/VCS requirement (`name @
/// https://…`, `name@ git+ssh://…`, `git+https://…#egg=x`, `https://…/pkg.tar.gz`): pip takes
/// it from that address, not from the index. A local file URL is the user's own.
pub(crate) fn direct_reference(requirement: &str) -> bool {
    let r = requirement.trim();
    let remote = |u: &str| {
        let u = u.trim();
        [
            "http://", "https://", "git+", "hg+", "svn+", "bzr+", "ftp://",
        ]
        .iter()
        .any(|p| u.starts_with(p))
    };
    remote(r)
        || r.split_once('@').is_some_and(|(name, url)| {
            let name = name.trim();
            !name.is_empty()
                && name.bytes().all(|b| {
                    b.is_ascii_alphanumeric()
                        || matches!(b, b'-' | b'_' | b'.' | b'[' | b']' | b',')
                })
                && remote(url)
        })
}

/// What a requirements file's lines make pip install from (see `Walker::pip_sources`): a
/// direct reference or URL requirement (`rce.install_unvetted_source`), an index option to a
/// host that is not PyPI's or a vendor's wheel index, or over plain HTTP (the redirect and
/// verification rules of the same options on the command line). Comments and blank lines
/// say nothing; environment markers after `;` do not change the source.
pub(crate) fn requirements_sources(text: &str) -> Option<Verdict> {
    let mut options: Vec<&str> = Vec::new();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or(line).trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('-') {
            // `--extra-index-url URL`, `-i URL`, `--index-url=URL`, `-f URL`.
            options.extend(line.split_whitespace());
            continue;
        }
        let requirement = line.split(';').next().unwrap_or(line);
        if direct_reference(requirement) {
            return Some(ids::RCE_INSTALL_UNVETTED_SOURCE.verdict());
        }
    }
    plain_http_index(&options)
}

/// git: `-c http.sslVerify=false`, `config [scope] http.sslVerify false`, `config set …`.
fn git(texts: &[&str]) -> Option<Verdict> {
    if let Some(v) = release_tag_push(texts) {
        return Some(v);
    }
    let from_c = texts.windows(2).find_map(|p| match p {
        ["-c", kv] => kv
            .split_once('=')
            .and_then(|(k, v)| config_key("git", k, v)),
        _ => None,
    });
    if from_c.is_some() {
        return from_c;
    }
    let at = texts.iter().position(|t| *t == "config")?;
    let rest: Vec<&str> = texts
        .get(at + 1..)?
        .iter()
        .copied()
        .filter(|t| !t.starts_with('-') && *t != "set")
        .collect();
    match rest.as_slice() {
        [k, v, ..] => config_key("git", k, v),
        _ => None,
    }
}

/// `git push origin v1.4.0`, `git push --tags`, `git push origin refs/tags/v2`, `git push
/// origin tag v3.0.0`, `git push --follow-tags`: tags pushed to a remote, where release
/// workflows (goreleaser, package publishing, Go's module proxy) pick up a version and
/// publish it — a release, as `npm publish` is (`git.push_release_tag`). A branch named like a
/// path (`release/1.2`) stays a branch; a dry run (`-n`, `--dry-run`) pushes nothing.
fn release_tag_push(texts: &[&str]) -> Option<Verdict> {
    // git's global options that take the next word as their value.
    const GLOBAL_VALUES: &[&str] = &[
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--exec-path",
    ];
    // `git push` options that take the next word as their value.
    const PUSH_VALUES: &[&str] = &["-o", "--push-option", "--repo", "--receive-pack", "--exec"];
    let mut i = 0;
    while let Some(t) = texts.get(i) {
        if GLOBAL_VALUES.contains(t) {
            i += 2;
        } else if t.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    if texts.get(i) != Some(&"push") {
        return None;
    }
    let rest = texts.get(i + 1..).unwrap_or(&[]);
    let mut operands = Vec::new();
    let mut tags_flag = false;
    let mut k = 0;
    while let Some(t) = rest.get(k) {
        k += 1;
        if matches!(*t, "-n" | "--dry-run" | "--help") {
            return None;
        }
        if matches!(*t, "--tags" | "--follow-tags") {
            tags_flag = true;
        } else if PUSH_VALUES.contains(t) {
            k += 1;
        } else if !t.starts_with('-') {
            operands.push(*t);
        }
    }
    // The first operand is the remote; the rest are refspecs (`tag NAME` names a tag).
    let refspecs = operands.get(1..).unwrap_or(&[]);
    let tagged = refspecs.contains(&"tag")
        || refspecs.iter().any(|r| {
            let r = r.trim_start_matches('+');
            let (src, dst) = r.split_once(':').unwrap_or((r, r));
            [src, dst]
                .iter()
                .any(|side| side.starts_with("refs/tags/") || version_shaped(side))
        });
    (tags_flag || tagged).then(|| ids::GIT_PUSH_RELEASE_TAG.verdict())
}

/// `nix run github:someone/tool`, `nix shell gitlab:x/y#z`, `nix develop git+https://…`,
/// `nix profile install github:x/y`: a flake fetched from a repository or URL is built and
/// its program (or a development shell's hook) runs here — code from wherever the reference
/// points, as `npx github:user/repo` is (`rce.install_unvetted_source`). The Nix project's
/// own repositories (`github:NixOS/nixpkgs#hello`) are the package set itself; registry names
/// (`nixpkgs#hello`) and `nix build` (sandboxed, runs nothing here) pass.
fn nix_remote_flake(texts: &[&str]) -> Option<Verdict> {
    const REMOTE: &[&str] = &[
        "github:",
        "gitlab:",
        "sourcehut:",
        "git+",
        "http://",
        "https://",
        "tarball+",
        "file+http",
    ];
    let operands: Vec<&str> = texts
        .iter()
        .copied()
        .filter(|t| !t.starts_with('-'))
        .collect();
    let (["run" | "shell" | "develop", refs @ ..] | ["profile", "install" | "add", refs @ ..]) =
        operands.as_slice()
    else {
        return None;
    };
    refs.iter()
        .any(|r| {
            REMOTE.iter().any(|p| r.starts_with(p))
                && !r
                    .strip_prefix("github:")
                    .and_then(|o| o.split('/').next())
                    .is_some_and(|owner| owner.eq_ignore_ascii_case("nixos"))
        })
        .then(|| ids::RCE_INSTALL_UNVETTED_SOURCE.verdict())
}

/// A release version as a ref name: `v1.4.0`, `2.0.0-rc.1`, `app-v1.2.3`, `pkg@1.0.0`,
/// `@scope/pkg@1.0.0` — digits and dots (two parts at least) after an optional `v`, then an
/// optional `-`/`+` suffix. A name with a `/` and no `@` is a branch (`release/1.2`).
fn version_shaped(name: &str) -> bool {
    if name.contains('/') && !name.contains('@') {
        return false;
    }
    let tail = name.rsplit('@').next().unwrap_or(name);
    let tail = tail.rsplit_once("-v").map_or(tail, |(_, v)| v);
    let tail = tail.strip_prefix(['v', 'V']).unwrap_or(tail);
    let core = tail.split(['-', '+']).next().unwrap_or("");
    core.starts_with(|c: char| c.is_ascii_digit())
        && core.contains('.')
        && core
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// `kill` of PID 1 (init: the container itself, or the host as root) or PID 0 (every process
/// in the caller's group: the agent and its tools). `-1` is the taxonomy's `sys.kill_all`.
/// `firewall-cmd`: the firewall changes unless every option only reads the configuration
/// (`--list-all`, `--get-active-zones`, `--query-service=ssh`, `--state`, with `--zone`,
/// `--permanent` or `--policy` choosing what is read). Any other option, or an operand, is a
/// change (`--add-service`, `--reload`, `--panic-on`, `--direct …`): fail closed, so an
/// option this list does not know is judged a change.
fn firewall_cmd(texts: &[&str]) -> Option<Verdict> {
    let reads = |t: &str| {
        let opt = t.split_once('=').map_or(t, |(o, _)| o);
        ["--list-", "--get-", "--query-", "--info-"]
            .iter()
            .any(|p| opt.starts_with(p))
            || matches!(
                opt,
                "--state"
                    | "--check-config"
                    | "--help"
                    | "-h"
                    | "--version"
                    | "-V"
                    | "-q"
                    | "--quiet"
                    | "--permanent"
                    | "--zone"
                    | "--policy"
            )
    };
    let mut i = 0;
    let mut read_only = !texts.is_empty();
    while let Some(t) = texts.get(i) {
        i += 1;
        if !reads(t) {
            read_only = false;
            break;
        }
        // `--zone public`, `--query-service ssh`: the value is the next word.
        let takes_value = matches!(*t, "--zone" | "--policy")
            || t.starts_with("--query-")
            || t.starts_with("--info-");
        if takes_value && !t.contains('=') && texts.get(i).is_some_and(|v| !v.starts_with('-')) {
            i += 1;
        }
    }
    (!read_only).then(|| ids::SYS_FIREWALL.verdict())
}

/// `nft`: `list`, `describe` and `monitor` only read the ruleset; anything else (`flush`,
/// `add`, `delete`, `-f FILE`, an interactive `-i`) changes it.
fn nft(texts: &[&str]) -> Option<Verdict> {
    let mut i = 0;
    while let Some(t) = texts.get(i) {
        i += 1;
        match *t {
            // Output and lookup flags only.
            "-a" | "--handle" | "-n" | "--numeric" | "-s" | "--stateless" | "-j" | "--json"
            | "-t" | "--terse" | "-N" | "-S" | "--service" | "-y" | "--numeric-priority" | "-p"
            | "--numeric-protocol" | "-T" | "--numeric-time" | "-c" | "--check" => {}
            "list" | "describe" | "monitor" => return None,
            _ => return Some(ids::SYS_FIREWALL.verdict()),
        }
    }
    Some(ids::SYS_FIREWALL.verdict())
}

/// `ip link s …`: iproute2 matches `s` against `link`'s verbs in its own order, where `set`
/// comes before `show` (for `addr`, `route`, `rule`, `neigh` it is `show`; the taxonomy rule
/// `sys.network_change` covers the spelled-out verbs of every object).
fn ip_link_set(texts: &[&str]) -> Option<Verdict> {
    let mut operands = Vec::new();
    let mut i = 0;
    while let Some(t) = texts.get(i) {
        i += 1;
        if matches!(
            *t,
            "-n" | "-netns" | "--netns" | "-b" | "-batch" | "-rc" | "-rcvbuf"
        ) {
            i += 1;
        } else if !t.starts_with('-') {
            operands.push(*t);
        }
    }
    matches!(operands.as_slice(), ["link" | "l" | "li" | "lin", "s", ..])
        .then(|| ids::SYS_NETWORK_CHANGE.verdict())
}

/// `passwd`: changes a password or an account's state, except `-S`/`--status` (with `-a`/
/// `--all`), which only prints it. Any other option makes it a change again.
fn passwd(texts: &[&str]) -> Option<Verdict> {
    let status = texts
        .iter()
        .any(|t| matches!(*t, "-S" | "--status" | "-Sa" | "-aS"));
    let other = texts.iter().any(|t| {
        t.starts_with('-') && !matches!(*t, "-S" | "--status" | "-a" | "--all" | "-Sa" | "-aS")
    });
    (!status || other).then(|| ids::SYS_USERS.verdict())
}

/// Commands whose dangerous forms are judged only here (no taxonomy rule names them), so an
/// argument only known at run time (`kill -9 $pid`, `nft $verb`) is unknown, as it is for
/// a command with data rules.
pub(crate) fn judged_here(name: &str) -> bool {
    matches!(
        name,
        "kill" | "firewall-cmd" | "nft" | "passwd" | "mbpoll" | "mosquitto_pub"
    )
}

/// `mosquitto_pub -h BROKER -t TOPIC -m MSG` publishing to a device's command topic (a
/// segment `set`, `cmd`, `cmnd`, `command`, `control`: zigbee2mqtt's `…/set`, Tasmota's
/// `cmnd/…`, a plant's `…/cmd`) on a broker that is not this machine: a lock, alarm, relay or
/// plant line acts on it (`ics.controller_write`). A broker on loopback (the default without
/// `-h`/`-L`) and telemetry topics stay ordinary.
fn mqtt_command(words: &[Word]) -> Option<Verdict> {
    let value = |names: &[&str]| {
        words.iter().enumerate().find_map(|(i, w)| {
            names
                .contains(&w.text.as_str())
                .then(|| words.get(i + 1))
                .flatten()
        })
    };
    let (broker, topic) = match value(&["-L", "--url"]) {
        Some(url) => {
            let rest = url
                .text
                .split_once("://")
                .map_or(url.text.as_str(), |(_, r)| r);
            let (authority, topic) = rest.split_once('/').unwrap_or((rest, ""));
            let host = authority.rsplit('@').next().unwrap_or(authority);
            (
                Some((host.split(':').next().unwrap_or(host).to_owned(), url.exact)),
                topic.to_owned(),
            )
        }
        None => (
            value(&["-h", "--host"]).map(|w| (w.text.clone(), w.exact)),
            value(&["-t", "--topic"]).map(|w| w.text.clone())?,
        ),
    };
    let local = broker
        .as_ref()
        .is_none_or(|(h, exact)| *exact && crate::contained::is_loopback_host(h));
    let command = topic.split('/').any(|seg| {
        matches!(
            seg.to_ascii_lowercase().as_str(),
            "set" | "cmd" | "cmnd" | "command" | "commands" | "control"
        )
    });
    (command && !local).then(|| ids::ICS_CONTROLLER_WRITE.verdict())
}

/// `mbpoll [OPTIONS] HOST [VALUE…]`: values after the device write them to its registers or
/// coils (`mbpoll -m tcp -a 1 -r 40001 -t 4 10.50.1.20 0` sets a live setpoint); without
/// values it only polls. A device on loopback is a simulator. Options that take a value are
/// skipped with it, so an option's value is not read as the device.
fn mbpoll_write(words: &[Word]) -> Option<Verdict> {
    const VALUED: &[&str] = &[
        "-m", "-a", "-r", "-c", "-t", "-l", "-o", "-p", "-b", "-d", "-s", "-P", "-B", "-R", "-F",
    ];
    let mut operands = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        if VALUED.contains(&w.text.as_str()) {
            i += 1;
        } else if !(w.exact && w.text.starts_with('-') && w.text.len() > 1)
            // A negative value (`-5`), but not `-1` (poll once) or `-0` (addresses from 0).
            || (w.text.parse::<f64>().is_ok() && !matches!(w.text.as_str(), "-1" | "-0"))
        {
            operands.push(w);
        }
    }
    let (device, values) = operands.split_first()?;
    if values.is_empty() || (device.exact && crate::contained::is_loopback_host(&device.text)) {
        return None;
    }
    Some(ids::ICS_CONTROLLER_WRITE.verdict())
}

/// Whether a `kill` sends signal 0 (`kill -0 PID`, `kill -s 0 PID`, `kill --signal=0 PID`):
/// it delivers nothing, only tests that the process exists, so its targets — even ones known
/// only at run time (`kill -0 $$`, `kill -0 "$(cat app.pid)"`) — come to no harm.
pub(crate) fn kill_probes_only(texts: &[&str]) -> bool {
    matches!(
        texts,
        ["-0" | "--signal=0", ..] | ["-s" | "-n" | "--signal", "0", ..]
    )
}

fn kill(texts: &[&str]) -> Option<Verdict> {
    if kill_probes_only(texts) {
        return None;
    }
    let mut i = 0;
    let mut targets = Vec::new();
    let mut only_targets = false;
    while let Some(t) = texts.get(i) {
        i += 1;
        if only_targets {
            targets.push(*t);
        } else if *t == "--" {
            only_targets = true;
        } else if matches!(*t, "-s" | "-n" | "--signal") {
            i += 1;
        } else if *t == "-l" || *t == "-L" || *t == "--list" {
            return None;
        } else if t.starts_with("-$") {
            // `-$$`, `-$PGID`: a process group whose id is only known at run time.
            targets.push(*t);
        } else if t.starts_with('-') && t.len() > 1 && !t[1..].bytes().all(|b| b.is_ascii_digit()) {
            // a signal name (`-KILL`, `-SIGTERM`) or `--signal=…`
        } else if t.starts_with('-') && targets.is_empty() && i == 1 && texts.len() > 1 {
            // `kill -9 PID`: a leading number is the signal.
        } else {
            targets.push(*t);
        }
    }
    if targets
        .iter()
        .any(|t| t.starts_with("-$$") || *t == "-$BASHPID")
    {
        // `kill -- -$$`: the shell's own process group, i.e. the agent's tools with it.
        return Some(ids::SYS_KILL_GROUP.verdict());
    }
    if targets
        .iter()
        .any(|t| matches!(*t, "$$" | "$BASHPID" | "$RANDOM" | "$SRANDOM"))
    {
        // `kill $$`: the shell itself, the agent's tool process (`$!`, the line's own
        // background job, is ordinary); `kill $RANDOM`: a process nobody chose.
        return Some(Verdict::unknown(
            "signals this shell itself or a process only known at run time",
        ));
    }
    // `-1` as a target (after the signal: `kill -9 -1`, `kill -- -1`, `kill -s HUP -1`) is
    // every process the user can signal; as the first of several words it is the signal
    // (`kill -1 PID` sends SIGHUP to PID).
    if targets.contains(&"-1") {
        Some(ids::SYS_KILL_ALL.verdict())
    } else if targets.contains(&"1") {
        Some(ids::SYS_KILL_INIT.verdict())
    } else if targets.contains(&"0") {
        Some(ids::SYS_KILL_GROUP.verdict())
    } else {
        None
    }
}

/// `dd if=/dev/zero|urandom of=FILE` with no `count` (runs until the disk is full) or with
/// `bs × count` of 10 GiB or more.
fn dd(texts: &[&str]) -> Option<Verdict> {
    let get = |k: &str| {
        texts
            .iter()
            .find_map(|t| t.strip_prefix(k).and_then(|r| r.strip_prefix('=')))
    };
    let endless = get("if").is_some_and(|i| {
        matches!(
            i,
            "/dev/zero" | "/dev/urandom" | "/dev/random" | "/dev/full"
        )
    });
    let of = get("of")?;
    if of == "/dev/null" {
        // An endless input with no count copied to nowhere spins for ever (block devices
        // are the block-device rules' business).
        return (endless && get("count").is_none()).then(|| ids::RES_CPU_EXHAUST.verdict());
    }
    let bytes = match (get("bs").and_then(parse_size), get("count")) {
        (_, None) if endless => return Some(ids::RES_DISK_FILL.verdict()),
        (Some(bs), Some(c)) => c.parse::<u128>().ok().map(|c| c.saturating_mul(bs)),
        (None, Some(c)) => c.parse::<u128>().ok().map(|c| c.saturating_mul(512)),
        _ => None,
    }?;
    (bytes >= HUGE).then(|| ids::RES_DISK_FILL.verdict())
}

fn size_option(texts: &[&str], names: &[&str]) -> Option<u128> {
    texts.iter().enumerate().find_map(|(i, t)| {
        if names.contains(t) {
            return texts.get(i + 1).and_then(|v| parse_size(v));
        }
        if let Some((f, v)) = t.split_once('=')
            && names.contains(&f)
        {
            return parse_size(v);
        }
        names
            .iter()
            .filter(|n| n.len() == 2)
            .find_map(|n| t.strip_prefix(n))
            .filter(|v| !v.is_empty())
            .and_then(parse_size)
    })
}

/// `500G`, `1T`, `10GiB`, `4096`, `1M` → bytes (binary units, as coreutils read them).
pub(crate) fn parse_size(v: &str) -> Option<u128> {
    let digits = v.bytes().take_while(u8::is_ascii_digit).count();
    let n: u128 = v.get(..digits)?.parse().ok()?;
    let unit = v.get(digits..)?.to_ascii_uppercase();
    let shift = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        "P" => 50,
        "E" => 60,
        _ => return None,
    };
    Some(n.saturating_mul(1u128 << shift))
}

/// `socat TCP-LISTEN:2222,fork TCP:localhost:22`: a listener on every interface (no
/// `bind=` to a loopback address) relaying to a loopback port of a service that trusts
/// loopback to be private (ssh, telnet, databases and caches, the Docker and kubelet APIs,
/// etcd, Consul, VNC, RDP), which exposes it to the network. A relay to a dev server's port
/// (`TCP:localhost:3000`) is how a container or VM reaches it and stays ordinary.
fn socat_relays_loopback(texts: &[&str]) -> bool {
    let mut listens_everywhere = false;
    let mut to_loopback = false;
    for t in texts.iter().filter(|t| !t.starts_with('-')) {
        let mut parts = t.split(',');
        let address = parts.next().unwrap_or("");
        let Some((kind, rest)) = address.split_once(':') else {
            continue;
        };
        let kind = kind.to_ascii_uppercase();
        if matches!(
            kind.as_str(),
            "TCP-LISTEN" | "TCP4-LISTEN" | "TCP6-LISTEN" | "TCP-L" | "UDP-LISTEN" | "UDP4-LISTEN"
        ) {
            let bound = parts.any(|o| {
                o.split_once('=')
                    .is_some_and(|(k, v)| matches!(k, "bind" | "range") && is_loopback_address(v))
            });
            listens_everywhere |= !bound;
        } else if matches!(
            kind.as_str(),
            "TCP" | "TCP4" | "TCP6" | "TCP-CONNECT" | "TCP4-CONNECT" | "UDP" | "UDP4"
        ) {
            let port = rest.rsplit(':').next().and_then(|p| p.parse::<u16>().ok());
            to_loopback |= (is_loopback_address(rest) || rest.starts_with("[::1]"))
                && port.is_some_and(|p| {
                    matches!(
                        p,
                        22 | 23
                            | 2375
                            | 2376
                            | 2379
                            | 3306
                            | 3389
                            | 5432
                            | 5984
                            | 6379
                            | 8500
                            | 9200
                            | 10250
                            | 11211
                            | 27017
                            | 5900..=5999
                    )
                });
        }
    }
    listens_everywhere && to_loopback
}

fn is_loopback_address(v: &str) -> bool {
    let host = v.trim_start_matches("tcp://").trim_start_matches("http://");
    host.starts_with("127.") || host.starts_with("localhost") || host.starts_with("[::1]")
}

/// Static file servers: `(program, directory options, whether the first operand is the
/// directory)`. Without a directory they serve the directory they run in.
const SERVERS: &[(&str, &[&str], bool)] = &[
    ("http.server", &["-d", "--directory"], false),
    ("SimpleHTTPServer", &[], false),
    ("pyftpdlib", &["-d", "--directory"], false),
    ("php", &["-t"], false),
    ("serve", &[], true),
    ("http-server", &[], true),
    ("live-server", &[], true),
    ("static-server", &[], true),
    ("httpd", &["-h"], false),
    ("webfsd", &["-r"], false),
    ("miniserve", &[], true),
    ("darkhttpd", &[], true),
    ("updog", &["-d", "--directory"], false),
    ("caddy", &["--root", "-r"], false),
    ("un.httpd", &["--document-root"], true),
    ("twistd", &["--path"], false),
    ("filebrowser", &["-r", "--root"], false),
    ("dufs", &[], true),
    ("simple-http-server", &[], true),
    ("goshs", &["-d", "--dir"], false),
    ("uploadserver", &["-d", "--directory"], false),
    ("rclone", &[], true),
];

/// Value options of the servers above that are not the directory (so their value is not
/// taken for it).
const SERVER_VALUES: &[&str] = &[
    "-b",
    "--bind",
    "-p",
    "--port",
    "-S",
    "-l",
    "--listen",
    "-c",
    "--cgi",
    "-a",
    "--address",
    "-i",
    "--interface",
    "-u",
    "--username",
    "-P",
    "--password",
    "--protocol",
    "--interfaces",
    "-t",
    "--title",
    "--auth",
];

/// `python -m http.server` (and other static servers) serving the home directory, the root
/// or an ancestor of home, or a credential directory: every file under it can be fetched.
pub(crate) fn serves_sensitive(
    name: &str,
    words: &[Word],
    cwd: &Cwd,
    ctx: &Context,
) -> Option<Verdict> {
    let (_, dir_options, positional) = SERVERS.iter().find(|(n, _, _)| *n == name)?;
    if name == "php"
        && !words
            .iter()
            .any(|w| w.text == "-S" || w.text.starts_with("-S"))
    {
        return None;
    }
    if name == "caddy" && words.first().is_none_or(|w| w.text != "file-server") {
        return None;
    }
    // `rclone serve http|webdav|ftp|sftp|… DIR`: the operand after the protocol.
    let words = if name == "rclone" {
        match words {
            [serve, _protocol, rest @ ..] if serve.text == "serve" => rest,
            _ => return None,
        }
    } else {
        words
    };
    let mut dir: Option<&Word> = None;
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        if dir_options.contains(&t) {
            dir = words.get(i);
            i += 1;
        } else if let Some((opt, _)) = t.split_once('=')
            && dir_options.contains(&opt)
        {
            return judge_served(&t[opt.len() + 1..], w.exact, cwd, ctx);
        } else if SERVER_VALUES.contains(&t) {
            i += 1;
        } else if *positional && !t.starts_with('-') && dir.is_none() {
            dir = Some(w);
        }
    }
    match dir {
        Some(d) => judge_served(&d.text, d.exact, cwd, ctx),
        None => judge_served(".", true, cwd, ctx),
    }
}

fn judge_served(raw: &str, exact: bool, cwd: &Cwd, ctx: &Context) -> Option<Verdict> {
    if !exact {
        return None;
    }
    let path = crate::flow::place_in(raw, cwd, ctx)?;
    let home = ctx.home.as_deref();
    let exposes = path == Path::new("/")
        || ["/etc", "/root", "/var", "/proc", "/sys", "/run"]
            .iter()
            .any(|d| path.starts_with(d))
        || home.is_some_and(|h| h.starts_with(&path))
        || crate::targets::is_secret_normalized(&path, ctx);
    exposes.then(|| ids::NET_SERVE_SENSITIVE.verdict())
}

/// PowerShell's web clients and their aliases (and .NET's, reached by `New-Object`).
const PS_FETCHERS: &[&str] = &[
    "invoke-webrequest",
    "iwr",
    "invoke-restmethod",
    "irm",
    "curl",
    "wget",
    "net.webclient",
    "system.net.webclient",
    "downloadstring",
    "downloadfile",
    "downloaddata",
    "uploadfile",
    "uploadstring",
    "start-bitstransfer",
    "new-object",
];

/// PowerShell's file deleters and their aliases.
const PS_REMOVERS: &[&str] = &["remove-item", "rm", "del", "rmdir", "rd", "ri", "erase"];

/// A Windows path that starts at the user's profile — PowerShell's `$env:USERPROFILE`,
/// `${env:USERPROFILE}`, `$HOME`, `$env:HOME`, `~`; cmd.exe's `%USERPROFILE%`, `%HOME%`,
/// `%HOMEDRIVE%%HOMEPATH%` — as the same place under the home (`$env:USERPROFILE\.aws\credentials`
/// is `~/.aws/credentials`). Why the home: from WSL the Windows profile (`/mnt/c/Users/NAME`)
/// is another directory, but it holds the same kinds of secrets at the same relative places
/// (`.ssh`, `.aws`, `.kube`), and the path catalog knows them under the home — the same
/// reading the interpreter tongues give `USERPROFILE` lookups.
pub(crate) fn windows_home_path(token: &str, ctx: &Context) -> Option<String> {
    const PREFIXES: &[&str] = &[
        "${env:userprofile}",
        "$env:userprofile",
        "$env:home",
        "${env:home}",
        "$home",
        "%userprofile%",
        "%homedrive%%homepath%",
        "%home%",
        "~",
    ];
    let home = ctx.home.as_ref()?;
    let lower = token.to_ascii_lowercase();
    let rest = PREFIXES.iter().find_map(|p| {
        lower
            .starts_with(p)
            .then(|| token.get(p.len()..))
            .flatten()
            .filter(|r| r.is_empty() || r.starts_with(['\\', '/']))
    })?;
    let rest = rest.replace('\\', "/");
    Some(format!("{}{rest}", home.display()))
}

/// PowerShell's file readers (`Get-Content` and its aliases): what they print is the file.
const PS_READERS: &[&str] = &["get-content", "gc", "cat", "type"];

/// The secret a PowerShell snippet prints: the file a reader cmdlet (`Get-Content`,
/// `gc`, `cat`, `type`) is given, when it is a credential (its `-Path`/first operand, with
/// the profile prefixes of [`windows_home_path`]); the environment (`Get-ChildItem env:`,
/// `gci env:`, `dir env:`, `ls env:`).
pub(crate) fn powershell_source(
    code: &str,
    cwd: &Cwd,
    ctx: &Context,
    files: &crate::flow::LineState,
) -> Option<crate::model::FlowSource> {
    let words: Vec<&str> = code
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '(' | ')' | ';' | '|' | '{' | '}' | '"' | '\'')
        })
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let lower = w.to_ascii_lowercase();
        let operand = || {
            let mut k = i + 1;
            while let Some(t) = words.get(k) {
                if t.eq_ignore_ascii_case("-path") || t.eq_ignore_ascii_case("-literalpath") {
                    return words.get(k + 1).copied();
                }
                if t.starts_with('-') {
                    // `-Raw`, `-Encoding Byte`: a switch, or an option and its value.
                    k += if t.eq_ignore_ascii_case("-encoding")
                        || t.eq_ignore_ascii_case("-totalcount")
                        || t.eq_ignore_ascii_case("-tail")
                    {
                        2
                    } else {
                        1
                    };
                    continue;
                }
                return Some(*t);
            }
            None
        };
        if PS_READERS.contains(&lower.as_str()) {
            let Some(t) = operand() else { continue };
            let path = windows_home_path(t, ctx).unwrap_or_else(|| crate::runners::wsl_path(t));
            if path.contains('$') {
                continue;
            }
            if let Some(s) = crate::flow::file_source(&path, cwd, ctx, files) {
                return Some(s);
            }
        }
        if matches!(lower.as_str(), "get-childitem" | "gci" | "dir" | "ls")
            && operand().is_some_and(|t| t.eq_ignore_ascii_case("env:"))
        {
            return Some(crate::model::FlowSource::Environment {
                by: "Get-ChildItem env:".to_owned(),
            });
        }
    }
    None
}

/// PowerShell code the grammar reading ([`crate::pwsh`]) could not translate (`pwsh -c`,
/// `powershell -Command`): read as words, case-insensitively — the conservative fallback.
/// A download evaluated (`iex (iwr …)`, `IEX(New-Object Net.WebClient).DownloadString(…)`)
/// is download-to-shell; an upload of a credential file (`-InFile ~/.ssh/id_rsa`) is
/// exfiltration; a recursive `Remove-Item` is a recursive delete of its target; an encoded
/// command cannot be read. Anything else that is not a read-only cmdlet asks: code the grammar
/// could not translate is not allowed silently.
pub(crate) fn powershell(code: &str, encoded: bool, cwd: &Cwd, ctx: &Context) -> Verdict {
    if encoded {
        return ids::RCE_OPAQUE_CODE.verdict();
    }
    let lower = code.to_ascii_lowercase();
    // `=` separates too: `$f=Set-WmiInstance …` assigns what the cmdlet returns, and the
    // cmdlet still runs (a word `$f=set-wmiinstance` would read as a variable).
    let words: Vec<&str> = lower
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '(' | ')' | ';' | '|' | '{' | '}' | '"' | '\'' | '=')
        })
        .filter(|w| !w.is_empty())
        .collect();
    let has = |names: &[&str]| {
        words.iter().any(|w| {
            names
                .iter()
                .any(|n| w == n || w.ends_with(&format!(".{n}")))
        })
    };
    let network = has(PS_FETCHERS) && lower.contains("http");
    if has(&["iex", "invoke-expression", "invoke-command", "icm"]) {
        return if network {
            ids::RCE_DOWNLOAD_TO_SHELL.verdict()
        } else {
            ids::RCE_DYNAMIC_CODE.verdict()
        };
    }
    if network && has(&["-infile", "-body", "uploadfile", "uploadstring"]) {
        return ids::CRED_EXFILTRATE.verdict();
    }
    // .NET's deletions (`[IO.File]::Delete(P)`, `[System.IO.Directory]::Delete(P, $true)`)
    // delete their first argument as `Remove-Item` does (recursively with `$true`).
    let dotnet_delete =
        |w: &&str| w.ends_with("file]::delete") || w.ends_with("directory]::delete");
    if has(PS_REMOVERS) || words.iter().any(dotnet_delete) {
        let recursive = has(&["-recurse", "-r", "$true"]);
        let original: Vec<&str> = code
            .split(|c: char| {
                c.is_whitespace()
                    || matches!(c, '(' | ')' | ';' | '|' | '{' | '}' | '"' | '\'' | '=')
            })
            .filter(|w| !w.is_empty())
            .collect();
        let mut worst: Option<Verdict> = None;
        for (i, w) in words.iter().enumerate() {
            if !PS_REMOVERS.contains(w) && !dotnet_delete(w) {
                continue;
            }
            // The first operand that is not an option (`-Path X` names it too).
            let target = original
                .iter()
                .skip(i + 1)
                .find(|t| !t.starts_with('-'))
                .map(|t| windows_home_path(t, ctx).unwrap_or_else(|| crate::runners::wsl_path(t)));
            let verdict = match target {
                Some(t) if !t.contains('$') => crate::targets::judge_delete(
                    &t,
                    true,
                    crate::targets::Shape::Exact,
                    recursive,
                    cwd,
                    ctx,
                )
                .map_or_else(
                    || Verdict::normal("PowerShell deletes inside the workspace"),
                    RuleRef::verdict,
                ),
                _ => Verdict::unknown("PowerShell deletes a target only known at run time"),
            };
            if worst
                .as_ref()
                .is_none_or(|w| verdict.severity() > w.severity())
            {
                worst = Some(verdict);
            }
        }
        if let Some(v) = worst {
            return v;
        }
    }
    // A plain GET whose response is only printed or piped on (`irm URL | Select-Object
    // tag_name`): like `curl URL`, it sends nothing of this machine's. Any body, upload,
    // output file, header, credential, other method or variable (`$env:TOKEN` in the URL)
    // keeps the ask.
    let fetch_only = network
        && !lower.contains('$')
        && words.iter().all(|w| {
            !PS_FETCHERS.contains(w)
                || matches!(
                    *w,
                    "invoke-restmethod" | "irm" | "invoke-webrequest" | "iwr"
                )
        })
        && !has(&[
            "-method",
            "-custommethod",
            "-body",
            "-infile",
            "-outfile",
            "-form",
            "-headers",
            "-credential",
            "-token",
            "-authentication",
            "-websession",
            "-sessionvariable",
            "-proxy",
        ]);
    let read_only = words.iter().all(|w| {
        w.starts_with("get-")
            || w.starts_with("test-")
            || w.starts_with("select-")
            // `Format-Table`/`-List`/`-Wide`/`-Custom`/`-Hex` format objects; `Format-Volume`
            // formats a drive.
            || matches!(*w, "format-table" | "format-list" | "format-wide" | "format-custom" | "format-hex")
            || w.starts_with("write-")
            || w.starts_with("out-")
            || w.starts_with("measure-")
            // Pure conversions and pipeline filters: objects in, objects out.
            || w.starts_with("convertfrom-")
            || w.starts_with("convertto-")
            || matches!(
                *w,
                "where-object" | "sort-object" | "group-object" | "compare-object" | "join-path" | "split-path" | "resolve-path" | "join-string"
            )
            || (fetch_only && matches!(*w, "invoke-restmethod" | "irm" | "invoke-webrequest" | "iwr"))
            // A URL is a value, whatever hyphens its host has.
            || w.contains("://")
            // A .NET static call (`[System.IO.Directory]::Delete(…)`) is code with effects,
            // unless the method only reads (`GetEnvironmentVariable`, `ReadAllText`,
            // `Exists`, `Combine`): judged by its method, not as a native program's name.
            || w.split_once("]::").is_some_and(|(_, method)| {
                ["get", "read", "exists", "combine", "join", "tostring", "parse", "format", "now", "utcnow", "today"]
                    .iter()
                    .any(|m| method.starts_with(m))
            })
            || w.starts_with('-')
            || w.starts_with('$')
            // A word without a hyphen is an argument or a native program; a program the
            // taxonomy has rules for (`bcdedit`, `vssadmin`, `shutdown`) is not read-only by
            // name: it would be judged by its arguments, which this reading does not follow.
            || (!w.contains('-')
                && !w.contains("]::")
                && crate::taxonomy::command(w).is_none_or(|c| c.rules.is_empty()))
    }) && (!network || fetch_only)
        && !has(&[
            "start-process",
            "saps",
            "set-content",
            "add-content",
            "out-file",
            "new-item",
            "copy-item",
            "move-item",
            "set-executionpolicy",
            "invoke-item",
            "ii",
            "start",
            "&",
        ]);
    // What it reads is printed: a credential file among its operands is read out
    // (`Get-Content ~/.aws/credentials`), as by `cat`.
    let reads_secret = code
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '(' | ')' | ';' | '|' | '{' | '}' | '"' | '\'' | ',')
        })
        .filter(|w| !w.is_empty() && !w.starts_with('-') && !w.contains('$'))
        .any(|w| crate::targets::is_secret_path(&crate::runners::wsl_path(w), cwd, ctx));
    if read_only && reads_secret {
        ids::CRED_READ_SECRET_FILE.verdict()
    } else if read_only {
        Verdict::normal("PowerShell code that only reads")
    } else {
        Verdict::unknown("PowerShell code is not analysed, so what it does is unknown")
    }
}

/// The body of an endless loop (`while :`, `until false`, `for ((;;))`, with nothing in it
/// that leaves the loop or paces it) that grows something on every turn: a directory created
/// and entered (`mkdir d && cd d`: a path nested without end, until the inode table or the
/// path-length limit gives out), a file appended to (`>>`, `tee -a`), or an entry created
/// under a name that changes each turn (`touch f$RANDOM`, `mkdir "d$i"`, `cp x "x.$(date
/// +%s%N)"`). Each turn adds what the last one did not remove, so the loop only ends when the
/// disk does (`res.disk_fill`). A `sleep`/`wait`/`read` paces the loop (a log written every
/// few seconds is a monitor), and `break`/`exit`/`return` ends it: neither is flagged.
///
/// Invariant protected: an unbounded loop is judged by what one turn leaves behind, not only
/// by whether it forks (`rce.fork_bomb`) or spins (`res.cpu_exhaust`).
pub(crate) fn endless_growth(body: tree_sitter::Node<'_>, src: &str) -> bool {
    use crate::walk::{any_node, text};
    const CREATORS: &[&str] = &[
        "mkdir",
        "touch",
        "mktemp",
        "cp",
        "ln",
        "dd",
        "fallocate",
        "truncate",
        "git",
    ];
    let name_of = |n: tree_sitter::Node<'_>| {
        n.child_by_field_name("name")
            .map(|c| text(c, src).trim_start_matches('\\'))
    };
    let commands = |pred: &dyn Fn(tree_sitter::Node<'_>, &str) -> bool| {
        any_node(body, false, |n| {
            n.kind() == "command" && name_of(n).is_some_and(|name| pred(n, name))
        })
    };
    let leaves_or_waits = commands(&|_, name| {
        matches!(
            name,
            "break" | "exit" | "return" | "sleep" | "wait" | "read"
        )
    });
    if leaves_or_waits {
        return false;
    }
    let descends =
        commands(&|_, name| name == "mkdir") && commands(&|_, name| matches!(name, "cd" | "pushd"));
    let appends = any_node(body, false, |n| matches!(n.kind(), ">>" | "&>>"))
        || commands(&|n, name| {
            name == "tee"
                && any_node(n, false, |a| {
                    a.kind() == "word" && matches!(text(a, src), "-a" | "--append")
                })
        });
    let new_names = commands(&|n, name| {
        CREATORS.contains(&name)
            && n.child_by_field_name("argument").is_some()
            && any_node(n, false, |a| {
                matches!(
                    a.kind(),
                    "simple_expansion"
                        | "expansion"
                        | "command_substitution"
                        | "arithmetic_expansion"
                )
            })
    });
    descends || appends || new_names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_as_coreutils_reads_them() {
        assert_eq!(parse_size("500G"), Some(500 << 30));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("10GiB"), Some(10 << 30));
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("x"), None);
    }
}
