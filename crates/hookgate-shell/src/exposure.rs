//! Cloud and cluster access opened to everyone (`cloud.public_access`): a grant whose
//! grantee is "anyone" — the internet (`0.0.0.0/0`, `::/0`, `*`, `Internet`), every account
//! (`allUsers`, `allAuthenticatedUsers`, S3's `AllUsers`/`AuthenticatedUsers` groups,
//! `system:anonymous`, `system:unauthenticated`, `system:authenticated`, every service
//! account), or a cluster's superuser role (`cluster-admin`) — or that turns off the guard
//! rail that stops such grants (S3 public access blocks, Azure blob public access).
//!
//! Why a class of its own: such a command deletes nothing and reads no secret, yet after it
//! the bucket, the port or the cluster belongs to whoever finds it (scanners find an open
//! port 22 or a public bucket within minutes). It asks rather than denies: a public website
//! bucket or a firewall rule the user asked for is legitimate, and only the user knows.
//!
//! Invariant: judged on the parsed argv (tool, subcommand words, option values), never on raw
//! text. Defaults count: a grant that names no source where the tool's default source is the
//! internet (`gcloud compute firewall-rules create`, `az network nsg rule create`) is open to
//! the internet. Web ports (80, 443) opened to the internet are what a web server needs and
//! stay allowed; read-only and removing forms (`get-bucket-acl`, `iam ch -d allUsers`,
//! `--access Deny`, egress rules) are not grants.

use crate::model::Verdict;
use crate::taxonomy::ids;

/// Sources that mean the whole internet.
fn world_source(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    matches!(v, "0.0.0.0/0" | "::/0" | "0/0" | "*" | "0.0.0.0")
        || v.eq_ignore_ascii_case("internet")
        || v.eq_ignore_ascii_case("any")
}

/// Grantees that mean every account, on any of the clouds or clusters.
fn world_member(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']).to_ascii_lowercase();
    // `allUsers:objectViewer` (gsutil), `AllUsers:R` (gsutil acl): the grantee is the key.
    let v = match v.split_once(':') {
        Some((k, _)) if k == "allusers" || k == "allauthenticatedusers" => k,
        _ => v.as_str(),
    };
    matches!(
        v,
        "allusers"
            | "allauthenticatedusers"
            | "system:anonymous"
            | "system:unauthenticated"
            | "system:authenticated"
            | "system:serviceaccounts"
    ) || v.ends_with("/global/allusers")
        || v.ends_with("/global/authenticatedusers")
        || v.contains("uri=http://acs.amazonaws.com/groups/global/allusers")
        || v.contains("uri=http://acs.amazonaws.com/groups/global/authenticatedusers")
}

/// The values of option `name` (`--opt v`, `--opt=v`); with `many`, every word after
/// `--opt` up to the next option (Azure's space-separated lists).
fn values<'t>(texts: &[&'t str], names: &[&str], many: bool) -> Vec<&'t str> {
    let mut out = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        if let Some((k, v)) = t.split_once('=').filter(|(k, _)| k.starts_with('-')) {
            if names.contains(&k) {
                out.push(v);
            }
        } else if names.contains(t) {
            for next in texts.iter().skip(i + 1) {
                if next.starts_with('-') && !next.starts_with("-1") {
                    break;
                }
                out.push(*next);
                if !many {
                    break;
                }
            }
        }
    }
    out
}

/// True when option `name` has one of `wanted` (lower case) as its value, in any case.
fn value_is(texts: &[&str], name: &str, wanted: &[&str]) -> bool {
    values(texts, &[name], false)
        .iter()
        .any(|v| wanted.contains(&v.trim_matches(['"', '\'']).to_ascii_lowercase().as_str()))
}

/// True when every port of a port list (`80`, `443`, `tcp:443`, `443/tcp`, `80,443`) is a
/// web port; an empty list, `all`, a bare protocol or a range is not.
fn web_ports_only<'a>(specs: impl IntoIterator<Item = &'a str>) -> bool {
    let mut any = false;
    for spec in specs.into_iter().flat_map(|s| s.split(',')) {
        let s = spec.trim_matches(['"', '\'']).to_ascii_lowercase();
        let port = s
            .strip_prefix("tcp:")
            .or_else(|| s.strip_suffix("/tcp"))
            .unwrap_or(&s);
        if !matches!(port, "80" | "443") {
            return false;
        }
        any = true;
    }
    any
}

/// The port numbers an EC2 `--ip-permissions` value names (`FromPort=22`, `"ToPort": 22`).
fn ip_permission_ports(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for key in ["FromPort", "ToPort"] {
        for (at, _) in value.match_indices(key) {
            let rest = value.get(at + key.len()..).unwrap_or("");
            let rest = rest.trim_start_matches(['"', '=', ':', ' ']);
            let end = rest
                .find(|c: char| !c.is_ascii_digit() && c != '-')
                .unwrap_or(rest.len());
            out.push(rest.get(..end).unwrap_or(""));
        }
    }
    out
}

/// `cloud.public_access` when `name texts…` opens access to everyone (see the module doc).
pub(crate) fn public_access(name: &str, texts: &[&str]) -> Option<Verdict> {
    let operands: Vec<&str> = texts
        .iter()
        .copied()
        .filter(|t| !t.starts_with('-'))
        .collect();
    let has = |w: &str| operands.contains(&w);
    let open = match name {
        "kubectl" | "oc" => {
            let binding = has("create") && (has("clusterrolebinding") || has("rolebinding"))
                || has("add-cluster-role-to-user")
                || has("add-cluster-role-to-group")
                || has("add-role-to-group")
                || has("add-role-to-user");
            binding
                && (values(texts, &["--clusterrole", "--role"], false)
                    .iter()
                    .chain(operands.iter())
                    .any(|r| r.trim_matches(['"', '\'']) == "cluster-admin")
                    || values(
                        texts,
                        &["--group", "--user", "--serviceaccount", "-z"],
                        false,
                    )
                    .iter()
                    .chain(operands.iter())
                    .any(|m| world_member(m)))
        }
        "aws" => aws(texts, &operands),
        "gcloud" => {
            let members = values(texts, &["--member", "--members"], false);
            let binding = operands
                .iter()
                .any(|o| o.starts_with("add-iam-policy-binding"))
                && members.iter().any(|m| world_member(m));
            binding || gcloud_firewall(texts, &operands) || {
                values(texts, &["--authorized-networks"], false)
                    .iter()
                    .flat_map(|v| v.split(','))
                    .any(world_source)
            }
        }
        "gsutil" => {
            let grant =
                ["iam", "acl", "defacl"].iter().any(|s| has(s)) && (has("ch") || has("set"));
            let mut removed = false;
            let world = texts.iter().any(|t| {
                // `-d MEMBER` removes a grant.
                let hit = !removed && world_member(t);
                removed = *t == "-d";
                hit
            });
            let canned = has("set")
                && operands.iter().any(|o| {
                    matches!(
                        *o,
                        "public-read" | "public-read-write" | "authenticated-read"
                    )
                });
            grant && (world || canned)
        }
        "az" => az(texts, &operands),
        // `doctl compute firewall create|add-rules --inbound-rules
        // "protocol:tcp,ports:22,address:0.0.0.0/0 …"`.
        "doctl" => values(texts, &["--inbound-rules"], false)
            .iter()
            .any(|rules| {
                rules.split_whitespace().any(|rule| {
                    let field = |k: &str| {
                        rule.split(',')
                            .filter_map(|kv| kv.split_once(':'))
                            .filter(|(key, _)| *key == k)
                            .map(|(_, v)| v)
                            .collect::<Vec<&str>>()
                    };
                    field("address").into_iter().any(world_source)
                        && !web_ports_only(field("ports"))
                })
            }),
        // `hcloud firewall add-rule FW --direction in --source-ips 0.0.0.0/0 --port 22`.
        "hcloud" => {
            has("add-rule")
                && !value_is(texts, "--direction", &["out"])
                && values(texts, &["--source-ips"], false)
                    .iter()
                    .flat_map(|v| v.split(','))
                    .any(world_source)
                && !web_ports_only(values(texts, &["--port"], false))
        }
        // `openstack security group rule create --remote-ip 0.0.0.0/0 --dst-port 1:65535
        // SG`: an ingress rule (the default direction) whose source is everyone — also when
        // neither `--remote-ip` nor `--remote-group` is given (OpenStack's default source is
        // 0.0.0.0/0). A port range or no port is every port, not a web port.
        "openstack" => {
            let create = operands
                .windows(4)
                .any(|w| w == ["security", "group", "rule", "create"]);
            let ips = values(texts, &["--remote-ip"], false);
            let world = if ips.is_empty() {
                values(texts, &["--remote-group", "--remote-address-group"], false).is_empty()
            } else {
                ips.iter().any(|v| world_source(v))
            };
            create
                && !texts.contains(&"--egress")
                && world
                && !web_ports_only(values(texts, &["--dst-port"], false))
        }
        // `kafka-acls --add --allow-principal User:* …`: every client of the cluster, named
        // or anonymous, gets what the ACL allows.
        "kafka-acls" | "kafka-acls.sh" => {
            texts.contains(&"--add")
                && values(texts, &["--allow-principal"], false)
                    .iter()
                    .any(|p| matches!(p.trim_matches(['"', '\'']), "User:*" | "*"))
        }
        _ => false,
    };
    open.then(|| ids::CLOUD_PUBLIC_ACCESS.verdict())
}

fn aws(texts: &[&str], operands: &[&str]) -> bool {
    let has = |w: &str| operands.contains(&w);
    if has("put-bucket-acl") || has("put-object-acl") {
        return values(texts, &["--acl"], false).iter().any(|a| {
            matches!(
                a.trim_matches(['"', '\'']),
                "public-read" | "public-read-write" | "authenticated-read"
            )
        }) || values(
            texts,
            &[
                "--grant-read",
                "--grant-write",
                "--grant-full-control",
                "--grant-read-acp",
                "--grant-write-acp",
            ],
            false,
        )
        .iter()
        .flat_map(|v| v.split(','))
        .any(world_member);
    }
    // `put-public-access-block` (s3api, s3control) with any block turned off.
    if has("put-public-access-block") {
        return values(texts, &["--public-access-block-configuration"], false)
            .iter()
            .any(|v| {
                let v: String = v
                    .chars()
                    .filter(|c| !matches!(c, ' ' | '"' | '\''))
                    .collect::<String>()
                    .to_ascii_lowercase();
                v.contains("=false") || v.contains(":false")
            });
    }
    // A snapshot or machine image shared with every account.
    if has("modify-snapshot-attribute") || has("modify-image-attribute") {
        return values(texts, &["--group-names"], true).contains(&"all")
            || values(
                texts,
                &["--create-volume-permission", "--launch-permission"],
                false,
            )
            .iter()
            .any(|v| {
                let v: String = v.chars().filter(|c| !matches!(c, ' ' | '"')).collect();
                v.contains("Group=all") || v.contains("Group:all")
            });
    }
    // A bucket policy written on the line that allows any principal (`"Principal": "*"`,
    // `{"AWS": "*"}`); a policy in a file (`file://policy.json`) is not read here.
    if has("put-bucket-policy") {
        return values(texts, &["--policy"], false)
            .iter()
            .any(|p| policy_allows_anyone(p));
    }
    // A function or topic anyone may invoke.
    if has("add-permission") {
        return values(texts, &["--principal"], false)
            .iter()
            .any(|p| p.trim_matches(['"', '\'']) == "*");
    }
    if has("authorize-security-group-ingress") {
        let cidrs = values(texts, &["--cidr", "--cidr-ipv6"], false);
        if cidrs.iter().any(|c| world_source(c)) {
            let protocol = values(texts, &["--protocol"], false);
            let ports = values(texts, &["--port"], false);
            let all = protocol.iter().any(|p| matches!(*p, "all" | "-1"));
            return all || !web_ports_only(ports);
        }
        return values(texts, &["--ip-permissions"], false).iter().any(|v| {
            (v.contains("0.0.0.0/0") || v.contains("::/0"))
                && !web_ports_only(ip_permission_ports(v))
        });
    }
    false
}

/// True when a JSON policy allows any principal (`"Principal": "*"`, `{"AWS": "*"}`,
/// `{"AWS": ["*"]}`) and has no `Condition` that could narrow it. Read on the policy with
/// blanks and quotes removed (the analyzer carries no JSON parser); a policy that denies
/// (`"Effect": "Deny"` only) is not a grant.
fn policy_allows_anyone(text: &str) -> bool {
    let p: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '"' | '\''))
        .collect::<String>()
        .to_ascii_lowercase();
    let anyone = [
        "principal:*",
        "principal:{aws:*}",
        "principal:{aws:[*]}",
        "principal:[*]",
    ]
    .iter()
    .any(|form| p.contains(form));
    anyone && p.contains("effect:allow") && !p.contains("condition:")
}

/// `gcloud compute firewall-rules create|update`: an ingress allow rule from the internet
/// (a `create` with no source at all defaults to `0.0.0.0/0`) to anything but web ports.
fn gcloud_firewall(texts: &[&str], operands: &[&str]) -> bool {
    if !operands.contains(&"firewall-rules") {
        return false;
    }
    let create = operands.contains(&"create");
    if !create && !operands.contains(&"update") {
        return false;
    }
    if value_is(texts, "--direction", &["egress", "out"]) || value_is(texts, "--action", &["deny"])
    {
        return false;
    }
    let ranges = values(texts, &["--source-ranges"], false);
    let world = if ranges.is_empty() {
        create
            && values(
                texts,
                &["--source-tags", "--source-service-accounts"],
                false,
            )
            .is_empty()
    } else {
        ranges.iter().flat_map(|r| r.split(',')).any(world_source)
    };
    world && !web_ports_only(values(texts, &["--allow", "--rules"], false))
}

fn az(texts: &[&str], operands: &[&str]) -> bool {
    let has = |w: &str| operands.contains(&w);
    if has("storage") {
        return value_is(texts, "--public-access", &["blob", "container"])
            || value_is(texts, "--allow-blob-public-access", &["true"]);
    }
    if !(has("nsg") && has("rule") && (has("create") || has("update"))) {
        return false;
    }
    if value_is(texts, "--access", &["deny"]) || value_is(texts, "--direction", &["outbound"]) {
        return false;
    }
    let sources = values(
        texts,
        &["--source-address-prefixes", "--source-address-prefix"],
        true,
    );
    // `create` defaults the source to `*` and the port to 80.
    let world = if sources.is_empty() {
        has("create")
    } else {
        sources.iter().any(|s| world_source(s))
    };
    let ports = values(
        texts,
        &["--destination-port-ranges", "--destination-port-range"],
        true,
    );
    let web = if ports.is_empty() {
        has("create")
    } else {
        web_ports_only(ports)
    };
    world && !web
}
