//! docker-agent's network built-ins: `http_post` (send the event somewhere) and `unload` (free
//! a local model runner's memory when the agent switches away from it).
//!
//! Invariant of `http_post`: **a hook config cannot turn hookgate into a proxy into the local
//! network.** Every address the target host resolves to must be public (not loopback, private,
//! link-local — which includes cloud metadata at 169.254.169.254 —, CGNAT, unspecified,
//! multicast or documentation space) unless the entry opts in with `allow_private` as its first
//! argument; redirects are never followed (the transport treats a 3xx as an error). What stays
//! open is DNS rebinding between the check and the connection; the check is on every address
//! the name had at check time.

use std::net::{IpAddr, Ipv4Addr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use hookgate_core::{EventId, HookResponse};
use hookgate_engine::{Builtin, BuiltinCall, BuiltinRegistry};
use hookgate_transport::{HttpSpec, Limits, send_http};
use serde_json::{Value, json};

/// docker-agent's backstop for `http_post`.
const POST_TIMEOUT: Duration = Duration::from_secs(30);
/// docker-agent's bound on each `unload` call.
const UNLOAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Response bodies are not used; read at most this much.
const RESPONSE_CAP: usize = 64 * 1024;
const ALLOW_PRIVATE: &str = "allow_private";

/// Whether `ip` is reachable on the public internet (the only targets `http_post` accepts by
/// default).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (first & 0xffc0) == 0xfe80 // link-local fe80::/10
                || (first == 0x2001 && v6.segments()[1] == 0x0db8)) // documentation
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // CGNAT 100.64/10
        || (a == 198 && (b == 18 || b == 19)) // benchmarking 198.18/15
        || a >= 240)
}

/// `(host, port)` of an `http(s)://` URL, from its authority (userinfo dropped, IPv6 brackets
/// honoured).
fn host_port(url: &str) -> Result<(String, u16), String> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| format!("`{url}` is not an http(s) URL"))?;
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return Err(format!("`{url}` is not an http(s) URL")),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let (host, port) = if let Some(v6) = host_port.strip_prefix('[') {
        let (host, after) = v6
            .split_once(']')
            .ok_or_else(|| format!("`{url}` has an unclosed IPv6 address"))?;
        (host, after.strip_prefix(':'))
    } else {
        match host_port.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        }
    };
    if host.is_empty() {
        return Err(format!("`{url}` has no host"));
    }
    let port = match port {
        Some(p) => p.parse().map_err(|_| format!("`{url}` has a bad port"))?,
        None => default_port,
    };
    Ok((host.to_owned(), port))
}

/// Resolves the URL's host and refuses it unless every address is public.
async fn check_public(url: &str) -> Result<(), String> {
    let (host, port) = host_port(url)?;
    let addresses = tokio::task::spawn_blocking(move || {
        (host.as_str(), port)
            .to_socket_addrs()
            .map(|a| a.map(|s| s.ip()).collect::<Vec<_>>())
            .map_err(|e| format!("cannot resolve `{host}`: {e}"))
    })
    .await
    .map_err(|e| format!("resolver task failed: {e}"))??;
    if addresses.is_empty() {
        return Err(format!("`{url}` resolved to no address"));
    }
    if let Some(private) = addresses.iter().find(|ip| !is_public(**ip)) {
        return Err(format!(
            "refusing to post to {private} (not a public address; add `{ALLOW_PRIVATE}` as the first argument to allow it)"
        ));
    }
    Ok(())
}

async fn http_post(call: BuiltinCall) -> Result<Option<HookResponse>, String> {
    let (allow_private, rest) = match call.args.split_first() {
        Some((flag, rest)) if flag == ALLOW_PRIVATE => (true, rest),
        _ => (false, call.args.as_slice()),
    };
    let (url, body) = match rest {
        [url] => (
            url,
            serde_json::to_vec(&call.input).map_err(|e| format!("cannot encode the input: {e}"))?,
        ),
        [url, body] => (url, body.clone().into_bytes()),
        _ => return Err("http_post: bad args".to_owned()),
    };
    if !allow_private {
        check_public(url)
            .await
            .map_err(|e| format!("http_post: {e}"))?;
    }
    let limits = Limits {
        timeout: POST_TIMEOUT,
        max_output_bytes: RESPONSE_CAP,
        ..Limits::default()
    };
    send_http(&HttpSpec::post(url.clone()), &body, &limits)
        .await
        .map_err(|e| format!("http_post: {e}"))?;
    Ok(None)
}

/// The unload URL of one departing model, or `None` when it is not a Docker Model Runner model.
fn unload_url(model: &Value) -> Option<(String, String)> {
    if model.get("provider").and_then(Value::as_str) != Some("dmr") {
        return None;
    }
    let id = model.get("model").and_then(Value::as_str)?.to_owned();
    if let Some(api) = model
        .get("unload_api")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    {
        return Some((api.to_owned(), id));
    }
    let base = model.get("base_url").and_then(Value::as_str)?;
    let base = base.trim_end_matches('/');
    let base = base.strip_suffix("/v1").unwrap_or(base);
    Some((format!("{base}/_unload"), id))
}

async fn unload(call: BuiltinCall) -> Result<Option<HookResponse>, String> {
    let Some(Value::Array(models)) = call.input.from_agent_models.as_ref() else {
        return Ok(None);
    };
    let limits = Limits {
        timeout: UNLOAD_TIMEOUT,
        max_output_bytes: RESPONSE_CAP,
        ..Limits::default()
    };
    let mut failures = Vec::new();
    for (url, id) in models.iter().filter_map(unload_url) {
        let body = json!({"model": id}).to_string();
        if let Err(e) = send_http(&HttpSpec::post(url.clone()), body.as_bytes(), &limits).await {
            failures.push(format!("{id} at {url}: {e}"));
        }
    }
    // Switching agents never waits on, or fails because of, a slow model runner: failures are
    // reported to the user, not raised.
    Ok((!failures.is_empty()).then(|| HookResponse {
        system_message: Some(format!("unload failed for {}", failures.join("; "))),
        ..HookResponse::default()
    }))
}

pub(crate) fn register(registry: &mut BuiltinRegistry) {
    registry.register(
        "http_post",
        Builtin {
            description: "POSTs the hook input (or args[1]) to args[0]; public addresses only unless the first argument is `allow_private`; no redirects; 30 s.",
            events: EventId::ALL,
            validate: |args| {
                let rest = match args.split_first() {
                    Some((flag, rest)) if flag == ALLOW_PRIVATE => rest,
                    _ => args,
                };
                match rest {
                    [url] | [url, _] => host_port(url).map(|_| ()),
                    _ => Err(format!(
                        "needs `args: [URL]` or `[URL, BODY]`, optionally after `{ALLOW_PRIVATE}`"
                    )),
                }
            },
            run: Arc::new(|call: BuiltinCall| Box::pin(http_post(call))),
        },
    );
    registry.register(
        "unload",
        Builtin {
            description: "On on_agent_switch, POSTs {\"model\": ID} to each departing Docker Model Runner model's unload endpoint (`unload_api`, else BASE/_unload); other providers are skipped; failures become a system message.",
            events: &[EventId::OnAgentSwitch],
            validate: |args| if args.is_empty() { Ok(()) } else { Err("takes no `args`".to_owned()) },
            run: Arc::new(|call: BuiltinCall| Box::pin(unload(call))),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "224.0.0.1",
        ] {
            let ip: IpAddr = private.parse().unwrap_or_else(|e| panic!("{private}: {e}"));
            assert!(!is_public(ip), "{private}");
        }
        for public in ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"] {
            let ip: IpAddr = public.parse().unwrap_or_else(|e| panic!("{public}: {e}"));
            assert!(is_public(ip), "{public}");
        }
    }

    #[test]
    fn the_host_comes_from_the_authority_not_the_text() {
        assert_eq!(
            host_port("https://user:pw@hooks.example.com/x?a=b").ok(),
            Some(("hooks.example.com".to_owned(), 443))
        );
        assert_eq!(
            host_port("http://[::1]:8080/x").ok(),
            Some(("::1".to_owned(), 8080))
        );
        assert_eq!(
            host_port("http://127.0.0.1@evil.example/").ok(),
            Some(("evil.example".to_owned(), 80))
        );
        assert!(host_port("ftp://x/").is_err());
    }

    #[test]
    fn only_docker_model_runner_models_are_unloaded() {
        let dmr = json!({"provider": "dmr", "model": "ai/qwen3", "base_url": "http://127.0.0.1:12434/engines/v1"});
        assert_eq!(
            unload_url(&dmr),
            Some((
                "http://127.0.0.1:12434/engines/_unload".to_owned(),
                "ai/qwen3".to_owned()
            ))
        );
        let custom = json!({"provider": "dmr", "model": "m", "unload_api": "http://h/free"});
        assert_eq!(
            unload_url(&custom).map(|u| u.0),
            Some("http://h/free".to_owned())
        );
        assert_eq!(
            unload_url(&json!({"provider": "openai", "model": "gpt"})),
            None
        );
    }
}
