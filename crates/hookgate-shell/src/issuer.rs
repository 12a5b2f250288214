//! Credentials sent to the service that issued them: `curl -H "Authorization: Bearer $(gh auth
//! token)" https://api.github.com/…`, `gcloud auth print-access-token` to `googleapis.com`,
//! `aws ecr get-login-password | docker login --password-stdin <acct>.dkr.ecr.<region>.amazonaws.com`,
//! `az account get-access-token` to `management.azure.com`. One data table of issuing commands
//! and the hosts their tokens are for.
//!
//! Why: printing a token is `credential_access` (the `cred.*` rules) because the token could go
//! anywhere; handing it straight to its issuer in an authentication slot is what the token is
//! for, the way `gh api` itself uses it. The same token to any other host is the exfiltration
//! the rule exists for.
//!
//! Invariant: a credential command's own verdict is lowered to ordinary only when every
//! destination of the request it feeds is known (a literal URL or registry) and is one of its
//! issuer's hosts, and it reaches the request in an authentication slot (a header, `-u`,
//! `--oauth2-bearer`, a login's password or `--password-stdin`). A request to a known other
//! host asks at least (`cred.print_token`) even when the issuing command has no rule of its
//! own; an unknown destination leaves every verdict as it was.

use crate::model::{Class, FlowSource, Verdict};
use crate::taxonomy::ids;
use crate::walk::{Producer, Scope, Walker, Word};

/// One issuing command: `tool` then `sub` words, the hosts (domain suffixes; `*` inside a
/// label pattern such as `*.dkr.ecr.*.amazonaws.com`) its token is for, and the option that
/// names another host or resource (`gh auth token --hostname H`, `az … --resource URL`).
struct Issuer {
    tool: &'static str,
    sub: &'static [&'static str],
    hosts: &'static [&'static str],
    host_option: &'static [&'static str],
}

const GITHUB: &[&str] = &["github.com", "githubusercontent.com", "ghcr.io"];
const GOOGLE: &[&str] = &["googleapis.com", "gcr.io", "pkg.dev"];

const ISSUERS: &[Issuer] = &[
    Issuer {
        tool: "gh",
        sub: &["auth", "token"],
        hosts: GITHUB,
        host_option: &["--hostname", "-h"],
    },
    Issuer {
        tool: "glab",
        sub: &["auth", "token"],
        hosts: &["gitlab.com"],
        host_option: &["--hostname", "-h"],
    },
    Issuer {
        tool: "gcloud",
        sub: &["auth", "print-access-token"],
        hosts: GOOGLE,
        host_option: &[],
    },
    Issuer {
        tool: "gcloud",
        sub: &["auth", "application-default", "print-access-token"],
        hosts: GOOGLE,
        host_option: &[],
    },
    Issuer {
        tool: "gcloud",
        sub: &["auth", "print-identity-token"],
        hosts: &["run.app", "cloudfunctions.net", "googleapis.com"],
        host_option: &["--audiences"],
    },
    Issuer {
        tool: "az",
        sub: &["account", "get-access-token"],
        hosts: &["management.azure.com"],
        host_option: &["--resource", "--scope"],
    },
    Issuer {
        tool: "aws",
        sub: &["ecr", "get-login-password"],
        hosts: &["*.dkr.ecr.*.amazonaws.com", "*.dkr.ecr.*.amazonaws.com.cn"],
        host_option: &[],
    },
    Issuer {
        tool: "aws",
        sub: &["ecr-public", "get-login-password"],
        hosts: &["public.ecr.aws"],
        host_option: &[],
    },
    Issuer {
        tool: "aws",
        sub: &["codeartifact", "get-authorization-token"],
        hosts: &["*.codeartifact.*.amazonaws.com"],
        host_option: &[],
    },
    Issuer {
        tool: "npm",
        sub: &["token", "create"],
        hosts: &["registry.npmjs.org", "npmjs.com"],
        host_option: &["--registry"],
    },
    Issuer {
        tool: "heroku",
        sub: &["auth:token"],
        hosts: &["heroku.com"],
        host_option: &[],
    },
];

/// Options of the HTTP clients whose value is an authentication slot.
fn auth_option(client: &str, opt: &str) -> bool {
    match client {
        "curl" => matches!(
            opt,
            "-H" | "--header" | "-u" | "--user" | "--oauth2-bearer" | "-b" | "--cookie"
        ),
        "wget" => matches!(
            opt,
            "--header" | "--password" | "--http-password" | "--user" | "--http-user"
        ),
        "http" | "https" | "xh" | "xhs" | "httpie" => matches!(opt, "-a" | "--auth"),
        _ => false,
    }
}

/// curl options that send the request somewhere other than its URL's host, or forward the
/// credentials on redirects to other hosts: the destination is then not the URL's.
const REROUTES: &[&str] = &[
    "--resolve",
    "--connect-to",
    "-x",
    "--proxy",
    "--preproxy",
    "--location-trusted",
    "--unix-socket",
    "--abstract-unix-socket",
    "--doh-url",
];

/// Registry clients whose `login` takes a password for the registry it names.
fn registry_login(tool: &str) -> bool {
    matches!(
        tool,
        "docker" | "podman" | "nerdctl" | "buildah" | "skopeo" | "helm" | "oras" | "crane"
    )
}

/// The issuer of the command `argv` (a program's words), with the hosts its token is for.
fn issuer_of(argv: &[String]) -> Option<Vec<String>> {
    let (program, rest) = argv.split_first()?;
    let tool = program.rsplit('/').next().unwrap_or(program);
    let issuer = ISSUERS.iter().find(|i| {
        i.tool == tool && {
            let words: Vec<&str> = rest
                .iter()
                .map(String::as_str)
                .filter(|w| !w.starts_with('-'))
                .take(i.sub.len())
                .collect();
            words == i.sub
        }
    })?;
    // `gh auth token --hostname ghe.corp`: that host's token.
    for (k, w) in rest.iter().enumerate() {
        for opt in issuer.host_option {
            let value = if w == opt {
                rest.get(k + 1).map(String::as_str)
            } else {
                w.strip_prefix(opt).and_then(|r| r.strip_prefix('='))
            };
            if let Some(v) = value {
                let host = host_of(v).unwrap_or(v);
                return Some(vec![host.to_ascii_lowercase()]);
            }
        }
    }
    Some(issuer.hosts.iter().map(|h| (*h).to_owned()).collect())
}

/// The host of a URL (`https://user@host:443/x`) or of a registry reference
/// (`host[:port][/path]`).
fn host_of(text: &str) -> Option<&str> {
    let rest = text.split_once("://").map_or(text, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?.split(':').next()?;
    (!host.is_empty() && host.contains('.')).then_some(host)
}

/// `host` is `pattern` or a subdomain of it; `*` in a pattern matches one label.
fn host_matches(pattern: &str, host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if !pattern.contains('*') {
        return host == pattern
            || host
                .strip_suffix(pattern)
                .is_some_and(|head| head.ends_with('.'));
    }
    let p: Vec<&str> = pattern.split('.').collect();
    let h: Vec<&str> = host.split('.').collect();
    p.len() == h.len()
        && p.iter()
            .zip(&h)
            .all(|(a, b)| !b.is_empty() && (*a == "*" || a == b))
}

/// Where a request or login goes and which of its words are authentication slots.
struct Request<'w> {
    hosts: Vec<String>,
    /// Words whose substitutions reach the service as credentials.
    slots: Vec<&'w Word>,
    /// The password comes from standard input (`--password-stdin`).
    stdin_password: bool,
}

fn request<'w>(tool: &str, args: &'w [Word]) -> Option<Request<'w>> {
    let mut hosts = Vec::new();
    let mut slots = Vec::new();
    let mut stdin_password = false;
    if registry_login(tool) {
        let login = args.iter().position(|w| w.exact && w.text == "login")?;
        // `helm registry login`, `docker login`: the operand after `login` is the registry.
        let mut pending_slot = false;
        let mut pending_value = false;
        for w in args.get(login + 1..)? {
            if pending_slot {
                slots.push(w);
                pending_slot = false;
                continue;
            }
            if pending_value {
                pending_value = false;
                continue;
            }
            match w.text.as_str() {
                "-p" | "--password" => pending_slot = true,
                "--password-stdin" => stdin_password = true,
                "-u" | "--username" => pending_value = true,
                t if t.starts_with("--password=") => slots.push(w),
                t if t.starts_with('-') => {}
                t if w.exact => hosts.extend(host_of(t).map(str::to_ascii_lowercase)),
                // A registry known only at run time: not a known destination.
                _ => return None,
            }
        }
        // No registry: docker's default, Docker Hub.
        if hosts.is_empty() {
            hosts.push("docker.io".to_owned());
        }
        return Some(Request {
            hosts,
            slots,
            stdin_password,
        });
    }
    if matches!(tool, "curl" | "wget") {
        return grammar_request(tool, args);
    }
    let mut pending = false;
    for w in args {
        if pending {
            slots.push(w);
            pending = false;
            continue;
        }
        let t = w.text.as_str();
        if w.exact && t.starts_with('-') {
            let opt = t.split('=').next().unwrap_or(t);
            if REROUTES.contains(&opt) {
                return None;
            }
            if auth_option(tool, opt) {
                if t.contains('=') {
                    slots.push(w);
                } else {
                    pending = true;
                }
            }
            continue;
        }
        if t.contains("://") {
            hosts.push(issuer_url_host(w, t)?);
        } else if matches!(tool, "http" | "https" | "xh" | "xhs" | "httpie")
            && t.split_once(':')
                .is_some_and(|(k, _)| k.eq_ignore_ascii_case("authorization"))
        {
            slots.push(w);
        }
    }
    Some(Request {
        hosts,
        slots,
        stdin_password,
    })
}

/// The host of a request URL operand `t` (the text of `w`), lower-cased. `None` for a URL
/// known only at run time, or one in clear text (the token crosses the network readable):
/// not a known issuer destination, so the whole request is not one.
fn issuer_url_host(w: &Word, t: &str) -> Option<String> {
    if !w.exact
        || !t
            .get(..8)
            .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
    {
        return None;
    }
    host_of(t).map(str::to_ascii_lowercase)
}

/// [`request`] for curl and wget, read with the tool's own grammar (`crate::cli`): short
/// clusters (`-sH 'Authorization: …'`, `-fsSLu user:$T`), attached values (`-HX: y`), unique
/// abbreviations (`--head` is not `--header`; `--heade` is). An option the tool rejects ends
/// the reading (`None`: the tool fails, or reads it otherwise than the table says: not a
/// known destination), as does any rerouting option.
fn grammar_request<'w>(tool: &str, args: &'w [Word]) -> Option<Request<'w>> {
    let grammar = crate::cli::http_grammar(tool)?;
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let mut hosts = Vec::new();
    let mut slots = Vec::new();
    for (at, word) in grammar.parse_indexed(&texts) {
        match word {
            crate::cli::Word::Rejected(_) => return None,
            crate::cli::Word::Option { long, value, .. } => {
                let spelled = format!("--{long}");
                if REROUTES.contains(&spelled.as_str()) {
                    return None;
                }
                if value.is_some() && auth_option(tool, &spelled) {
                    slots.extend(args.get(at));
                }
            }
            crate::cli::Word::Operand(t) => {
                let w = args.get(at)?;
                if t.contains("://") {
                    hosts.push(issuer_url_host(w, t)?);
                }
            }
        }
    }
    Some(Request {
        hosts,
        slots,
        stdin_password: false,
    })
}

/// Whether `command` (an issuing command's words, joined) matches `argv`.
fn same_command(c: &crate::model::ExecutedCommand, command: &str) -> bool {
    c.argv.join(" ") == command
}

impl Walker<'_> {
    /// Judges a request or registry login fed a credential by its issuer (see the module
    /// doc): called for the plain commands that may be one.
    pub(crate) fn issuer_bound(
        &mut self,
        tool: &str,
        args: &[Word],
        scope: &Scope,
        stdin: &Producer,
    ) {
        if !(registry_login(tool) || auth_option(tool, "--header") || auth_option(tool, "-a")) {
            return;
        }
        let Some(req) = request(tool, args) else {
            return;
        };
        if req.hosts.is_empty() {
            return;
        }
        // The credential commands that fed an authentication slot: a substitution in the
        // slot, or the pipeline's previous command for `--password-stdin`.
        let mut fed: Vec<usize> = Vec::new();
        for w in &req.slots {
            for p in &w.substs {
                if let Producer::Secret(FlowSource::CredentialCommand { command }) = p
                    && let Some(i) = self.commands.iter().rposition(|c| same_command(c, command))
                {
                    fed.push(i);
                }
            }
        }
        // The pipeline's previous command: the last one recorded where this one runs, before
        // this login's own record.
        if req.stdin_password && !matches!(stdin, Producer::Nothing) {
            let mut same_level = self
                .commands
                .iter()
                .enumerate()
                .rev()
                .filter(|(_, c)| c.via == scope.via);
            let this_login = |c: &crate::model::ExecutedCommand| {
                c.argv
                    .first()
                    .is_some_and(|p| p.rsplit('/').next() == Some(tool))
                    && c.argv.iter().any(|w| w == "login")
            };
            let previous = match same_level.next() {
                Some((_, c)) if this_login(c) => same_level.next(),
                other => other,
            };
            fed.extend(previous.map(|(i, _)| i));
        }
        // Issuing commands without a rule of their own (`az account get-access-token`) feed
        // no secret producer: this command's direct substitutions, recorded just before it,
        // are looked at for them (they can only raise).
        let depth = scope.via.len();
        let mut k = self.commands.len();
        while k > 0 {
            k -= 1;
            let Some(c) = self.commands.get(k) else { break };
            if c.via.len() <= depth {
                // This command's own record ends the block only once it is behind us.
                if k + 1 == self.commands.len() {
                    continue;
                }
                break;
            }
            if c.via.len() == depth + 1
                && c.via.last().is_some_and(|v| v == "$(…)")
                && c.via.get(..depth) == scope.via.get(..)
                && !fed.contains(&k)
            {
                fed.push(k);
            }
        }
        for i in fed {
            let Some(c) = self.commands.get(i) else {
                continue;
            };
            let Some(issued_for) = issuer_of(&c.argv) else {
                continue;
            };
            let to_issuer = req
                .hosts
                .iter()
                .all(|h| issued_for.iter().any(|p| host_matches(p, h)));
            let command = c.argv.join(" ");
            if to_issuer {
                if let Some(c) = self.commands.get_mut(i)
                    && c.verdict.category.as_deref() == Some("credential_access")
                {
                    c.verdict = Verdict::normal(format!(
                        "the token `{command}` prints goes to the service that issued it"
                    ));
                }
            } else if matches!(c.verdict.class, Class::Safe | Class::Normal) {
                let mut verdict = ids::CRED_PRINT_TOKEN.verdict();
                verdict.reason = format!(
                    "sends the token `{command}` prints to `{}`, not to the service that issued it",
                    req.hosts.join(", ")
                );
                if let Some(c) = self.commands.get_mut(i) {
                    c.verdict = verdict;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuer_hosts_match_subdomains_and_label_patterns() {
        assert!(host_matches("github.com", "api.github.com"));
        assert!(!host_matches("github.com", "api.github.com.evil.example"));
        assert!(!host_matches("github.com", "evilgithub.com"));
        assert!(host_matches(
            "*.dkr.ecr.*.amazonaws.com",
            "123456789012.dkr.ecr.us-east-1.amazonaws.com"
        ));
        assert!(!host_matches("*.dkr.ecr.*.amazonaws.com", "evil.example"));
    }

    #[test]
    fn a_host_option_names_the_issuer() {
        let argv = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            issuer_of(&argv("gh auth token --hostname ghe.corp.example")),
            Some(vec!["ghe.corp.example".to_owned()])
        );
        assert!(issuer_of(&argv("gh auth status")).is_none());
    }
}
