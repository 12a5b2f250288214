//! docker-agent's network built-ins: `http_post` (send the event somewhere) and `unload` (free
//! a local model runner's memory when the agent switches away from it).
//!
//! Invariant of `http_post`: **a hook config cannot turn hookgate into a proxy into the local
//! network.** Every address the target host resolves to must be public ([`is_public`]: not
//! loopback, private, link-local — which includes cloud metadata at 169.254.169.254 —, CGNAT,
//! unspecified, multicast, reserved or documentation space, nor an IPv6 form that embeds such
//! an IPv4 address) unless the entry opts in with `allow_private` as its first argument.
//! The name is resolved once, the addresses checked, and the connection made only to those
//! addresses (`send_http_to`), so DNS rebinding between the check and the connection cannot
//! redirect it; no proxy is used then (a proxy would resolve the name itself). Redirects are
//! never followed (the transport treats a 3xx as an error).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use hookgate_core::{EventId, HookResponse};
use hookgate_engine::runtime::builtin::no_args;
use hookgate_engine::{ArgsError, Builtin, BuiltinCall, BuiltinError, BuiltinRegistry};
use hookgate_transport::{HttpSpec, Limits, send_http, send_http_to};
use serde_json::{Value, json};

/// docker-agent's backstop for `http_post`.
const POST_TIMEOUT: Duration = Duration::from_secs(30);
/// docker-agent's bound on each `unload` call.
const UNLOAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Response bodies are not used; read at most this much.
const RESPONSE_CAP: usize = 64 * 1024;
const ALLOW_PRIVATE: &str = "allow_private";

/// Whether `ip` is reachable on the public internet (the only targets `http_post` accepts by
/// default). The special-purpose registries (RFC 6890 and successors) are the model: every
/// range that is not globally reachable is refused, and an IPv6 address that carries an IPv4
/// one (mapped, compatible, NAT64, 6to4) is judged by the IPv4 address it reaches.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0 // "this network" 0.0.0.0/8
        || a == 10 // private
        || (a == 100 && (64..128).contains(&b)) // CGNAT 100.64/10
        || a == 127 // loopback
        || (a == 169 && b == 254) // link-local, cloud metadata
        || (a == 172 && (16..32).contains(&b)) // private
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments 192.0.0/24
        || (a == 192 && b == 0 && c == 2) // TEST-NET-1
        || (a == 192 && b == 88 && c == 99) // 6to4 relay anycast
        || (a == 192 && b == 168) // private
        || (a == 198 && (b == 18 || b == 19)) // benchmarking 198.18/15
        || (a == 198 && b == 51 && c == 100) // TEST-NET-2
        || (a == 203 && b == 0 && c == 113) // TEST-NET-3
        || a >= 224) // multicast 224/4, reserved 240/4, broadcast
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    match carried_v4(ip) {
        Some(v4) => is_public_v4(v4),
        None => !reserved_v6(ip),
    }
}

/// The IPv4 address an IPv6 address reaches: IPv4-mapped (`::ffff:0:0/96`), the well-known
/// NAT64 prefix (`64:ff9b::/96`, the address the translator connects to) and 6to4
/// (`2002::/16`, the address in bits 16..48).
fn carried_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let o = ip.octets();
    match ip.segments() {
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0x64, 0xff9b, 0, 0, 0, 0, _, _] => {
            Some(Ipv4Addr::new(o[12], o[13], o[14], o[15]))
        }
        [0x2002, ..] => Some(Ipv4Addr::new(o[2], o[3], o[4], o[5])),
        _ => None,
    }
}

/// IPv6 space that is not globally reachable.
fn reserved_v6(ip: Ipv6Addr) -> bool {
    let seg = ip.segments();
    let first = seg[0];
    // ::/96: unspecified, loopback and the deprecated IPv4-compatible form (`::127.0.0.1`),
    // which no public host uses, whatever IPv4 address it carries.
    seg[..6] == [0; 6]
        // 64:ff9b:1::/48, local-use NAT64.
        || seg[..3] == [0x64, 0xff9b, 1]
        // 100::/64, discard-only.
        || seg[..4] == [0x100, 0, 0, 0]
        // 2001::/23 IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID) and
        // 2001:db8::/32 documentation.
        || (first == 0x2001 && (seg[1] < 0x200 || seg[1] == 0x0db8))
        // 3fff::/20, documentation (RFC 9637).
        || first & 0xfff0 == 0x3ff0
        // fc00::/7 unique local.
        || first & 0xfe00 == 0xfc00
        // fe80::/10 link-local, fec0::/10 site-local (deprecated).
        || first & 0xffc0 == 0xfe80
        || first & 0xffc0 == 0xfec0
        // ff00::/8 multicast.
        || first & 0xff00 == 0xff00
}

const NOT_HTTP: &str = "is not an http(s) URL";

/// `(host, port)` of an `http(s)://` URL, from its authority (userinfo dropped, IPv6 brackets
/// honoured); the error says what is wrong with the URL.
fn host_port(url: &str) -> Result<(String, u16), &'static str> {
    let (scheme, rest) = url.split_once("://").ok_or(NOT_HTTP)?;
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return Err(NOT_HTTP),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let (host, port) = if let Some(v6) = host_port.strip_prefix('[') {
        let (host, after) = v6.split_once(']').ok_or("has an unclosed IPv6 address")?;
        (host, after.strip_prefix(':'))
    } else {
        match host_port.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        }
    };
    if host.is_empty() {
        return Err("has no host");
    }
    let port = match port {
        Some(p) => p.parse().map_err(|_| "has a bad port")?,
        None => default_port,
    };
    Ok((host.to_owned(), port))
}

/// The URL and optional body of `http_post`'s `args` (after an `allow_private` flag), and
/// the URL's position in `args`.
fn post_args(args: &[String]) -> Result<(bool, usize, &String, Option<&String>), ArgsError> {
    let (allow_private, rest) = match args.split_first() {
        Some((flag, rest)) if flag == ALLOW_PRIVATE => (true, rest),
        _ => (false, args),
    };
    let at = usize::from(allow_private);
    let (url, body) = match rest {
        [url] => (url, None),
        [url, body] => (url, Some(body)),
        _ => {
            return Err(ArgsError::shape(format!(
                "needs `args: [URL]` or `[URL, BODY]`, optionally after `{ALLOW_PRIVATE}`"
            )));
        }
    };
    host_port(url).map_err(|why| ArgsError::value(at, url, why))?;
    Ok((allow_private, at, url, body))
}

/// Resolves the URL's host once and refuses it unless every address is public; returns the
/// addresses, which are then the only ones connected to.
async fn public_addresses(url: &str, at: usize) -> Result<Vec<SocketAddr>, BuiltinError> {
    let (host, port) = host_port(url).map_err(|why| ArgsError::value(at, url, why))?;
    let addresses = tokio::task::spawn_blocking(move || {
        (host.as_str(), port)
            .to_socket_addrs()
            .map(Iterator::collect::<Vec<_>>)
            .map_err(|e| BuiltinError::failed(format!("resolve `{host}`"), e))
    })
    .await
    .map_err(|e| BuiltinError::failed("resolve the host", e))??;
    check_public(url, &addresses)?;
    Ok(addresses)
}

/// Refuses `addresses` unless there is at least one and every one is public.
fn check_public(url: &str, addresses: &[SocketAddr]) -> Result<(), BuiltinError> {
    if addresses.is_empty() {
        return Err(BuiltinError::Refused {
            target: format!("`{url}`"),
            why: "it resolved to no address".into(),
        });
    }
    if let Some(private) = addresses.iter().find(|a| !is_public(a.ip())) {
        return Err(BuiltinError::Refused {
            target: format!("to post to {}", private.ip()),
            why: format!(
                "not a public address (add `{ALLOW_PRIVATE}` as the first argument to allow it)"
            )
            .into(),
        });
    }
    Ok(())
}

async fn http_post(call: BuiltinCall) -> Result<Option<HookResponse>, BuiltinError> {
    let (allow_private, at, url, body) = post_args(&call.args)?;
    let body = match body {
        Some(body) => body.clone().into_bytes(),
        None => serde_json::to_vec(&call.input)
            .map_err(|e| BuiltinError::failed("encode the input", e))?,
    };
    let limits = Limits {
        timeout: POST_TIMEOUT,
        max_output_bytes: RESPONSE_CAP,
        ..Limits::default()
    };
    let spec = HttpSpec::post(url.clone());
    let sent = if allow_private {
        send_http(&spec, &body, &limits).await
    } else {
        let addresses = public_addresses(url, at).await?;
        send_http_to(&spec, &body, &limits, &addresses).await
    };
    sent.map_err(|e| BuiltinError::failed(format!("post to {url}"), e))?;
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

async fn unload(call: BuiltinCall) -> Result<Option<HookResponse>, BuiltinError> {
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
            validate: |args| post_args(args).map(|_| ()),
            run: Arc::new(|call: BuiltinCall| Box::pin(http_post(call))),
        },
    );
    registry.register(
        "unload",
        Builtin {
            description: "On on_agent_switch, POSTs {\"model\": ID} to each departing Docker Model Runner model's unload endpoint (`unload_api`, else BASE/_unload); other providers are skipped; failures become a system message.",
            events: &[EventId::OnAgentSwitch],
            validate: no_args,
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
            // IPv4 special-purpose ranges, at their edges.
            "0.0.0.0",
            "0.255.255.255",
            "10.0.0.0",
            "10.255.255.255",
            "100.64.0.1",
            "100.127.255.254",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.254",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.19.255.254",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            // IPv6 ranges.
            "::",
            "::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "feff::1",
            "ff02::1",
            "ff0e::1",
            "2001:db8::1",
            "2001::1",
            "2001:2::1",
            "2001:10::1",
            "100::1",
            "3fff::1",
            "64:ff9b:1::1",
            // IPv6 forms that carry a private or loopback IPv4 address.
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "::8.8.8.8",
            "::a00:1",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::192.168.0.1",
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:a9fe:a9fe::",
            "2002:c0a8:101::1",
        ] {
            let ip: IpAddr = private.parse().unwrap_or_else(|e| panic!("{private}: {e}"));
            assert!(!is_public(ip), "{private}");
        }
        for public in [
            "93.184.216.34",
            "1.1.1.1",
            "8.8.8.8",
            "100.63.255.255",
            "100.128.0.1",
            "172.15.255.255",
            "172.32.0.1",
            "192.0.1.1",
            "192.169.0.1",
            "198.20.0.1",
            "223.255.255.254",
            "2606:4700:4700::1111",
            "2a00:1450:4001::200e",
            "2001:4860:4860::8888",
            "::ffff:8.8.8.8",
            "64:ff9b::8.8.8.8",
            "2002:808:808::1",
        ] {
            let ip: IpAddr = public.parse().unwrap_or_else(|e| panic!("{public}: {e}"));
            assert!(is_public(ip), "{public}");
        }
    }

    #[test]
    fn every_resolved_address_must_be_public() {
        let addr = |s: &str| -> SocketAddr { s.parse().unwrap_or_else(|e| panic!("{s}: {e}")) };
        assert!(check_public("u", &[addr("8.8.8.8:443")]).is_ok());
        assert!(check_public("u", &[addr("8.8.8.8:443"), addr("10.0.0.1:443")]).is_err());
        assert!(check_public("u", &[]).is_err());
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
