//! Debugger endpoints opened beyond loopback (`rce.debugger_exposed`): `node
//! --inspect=0.0.0.0:9229`, Chromium's `--remote-debugging-address=0.0.0.0`, a JVM's
//! `-agentlib:jdwp=…,server=y,address=*:5005`, `dlv --headless --listen=:2345`, `gdbserver
//! :1234`, `python -m debugpy --listen 0.0.0.0:5678`, `rdbg --open --host 0.0.0.0`.
//!
//! Why a class of its own: a debugger protocol evaluates code in the debuggee by design (the
//! inspector's `Runtime.evaluate`, JDWP's `InvokeMethod`, delve's `call`, gdb's `call`), and
//! none of these authenticates. Bound to every interface, whoever reaches the port runs code
//! as the user — a listening shell in a developer's clothes. Each tool's default is loopback,
//! so only an address the line names opens it. It asks rather than denies: inside a
//! development container the debugger must listen on the container's interface for the host
//! to attach, and only the user knows where the line runs.
//!
//! Invariant: judged on the parsed argv (the option's value, split into host and port), never
//! on raw text; a port alone keeps the tool's loopback default.

use crate::model::Verdict;
use crate::taxonomy::ids;

/// Whether a listen address (`0.0.0.0:9229`, `:2345`, `*:5005`, `[::]:1234`, `10.0.0.5`,
/// `9229`) reaches beyond this machine. A bare port keeps the tool's loopback default; an empty
/// host (`:2345`) is every interface, as Go's and gdbserver's listeners read it.
fn beyond_loopback(address: &str) -> bool {
    let address = address.trim_matches(['"', '\'']);
    let address = address
        .strip_prefix("tcp://")
        .or_else(|| address.strip_prefix("ws://"))
        .unwrap_or(address);
    let host = if let Some(rest) = address.strip_prefix('[') {
        rest.split_once(']').map_or(rest, |(h, _)| h)
    } else if let Some((host, _port)) = address.rsplit_once(':') {
        host
    } else if !address.is_empty() && address.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    } else {
        address
    };
    !(host.starts_with("127.")
        || host.eq_ignore_ascii_case("localhost")
        || host == "::1"
        || host.eq_ignore_ascii_case("ip6-localhost"))
}

/// The value of an option spelled `--opt=v` or `--opt v` (shared with the browser IDEs'
/// bind options in `hazards`).
pub(crate) fn value<'t>(texts: &[&'t str], names: &[&str]) -> Option<&'t str> {
    texts
        .iter()
        .enumerate()
        .find_map(|(i, t)| match t.split_once('=') {
            Some((k, v)) if names.contains(&k) => Some(v),
            None if names.contains(t) => texts.get(i + 1).copied(),
            _ => None,
        })
}

/// The options a runtime reads before its script: what follows the first operand is the
/// script's own argv (`node server.js --inspect=0.0.0.0` hands the flag to the script).
fn own_options<'a, 't>(texts: &'a [&'t str]) -> &'a [&'t str] {
    let end = texts
        .iter()
        .position(|t| !t.starts_with('-'))
        .unwrap_or(texts.len());
    texts.get(..end).unwrap_or(texts)
}

/// The tools this module judges (see [`exposed`]); `hazards::argument` calls in only for them.
pub(crate) fn judges(name: &str) -> bool {
    matches!(
        name,
        "node"
            | "nodejs"
            | "deno"
            | "bun"
            | "chromium"
            | "chromium-browser"
            | "chrome"
            | "google-chrome"
            | "google-chrome-stable"
            | "msedge"
            | "microsoft-edge"
            | "java"
            | "dlv"
            | "gdbserver"
            | "debugpy"
            | "ptvsd"
            | "rdbg"
    )
}

/// `rce.debugger_exposed` when `name`'s arguments open its debugger beyond loopback.
pub(crate) fn exposed(name: &str, texts: &[&str]) -> Option<Verdict> {
    let open = match name {
        // `--inspect`, `--inspect-brk`, `--inspect-wait` take `[host:]port` after `=`.
        "node" | "nodejs" | "deno" | "bun" => {
            // `deno run --inspect=… main.ts`, `bun test --inspect=…`: after the subcommand.
            let texts = match texts.first() {
                Some(&("run" | "test" | "serve" | "repl"))
                    if name != "node" && name != "nodejs" =>
                {
                    texts.get(1..).unwrap_or(&[])
                }
                _ => texts,
            };
            own_options(texts).iter().any(|t| {
                t.split_once('=').is_some_and(|(k, v)| {
                    matches!(k, "--inspect" | "--inspect-brk" | "--inspect-wait")
                        && beyond_loopback(v)
                })
            })
        }
        "chromium"
        | "chromium-browser"
        | "chrome"
        | "google-chrome"
        | "google-chrome-stable"
        | "msedge"
        | "microsoft-edge" => {
            value(texts, &["--remote-debugging-address"]).is_some_and(beyond_loopback)
        }
        // `-agentlib:jdwp=transport=dt_socket,server=y,address=*:5005` (`-Xrunjdwp:` the old
        // spelling): the JVM listens for a debugger when `server=y`.
        "java" => own_options(texts).iter().any(|t| {
            let Some(spec) = t
                .strip_prefix("-agentlib:jdwp=")
                .or_else(|| t.strip_prefix("-Xrunjdwp:"))
            else {
                return false;
            };
            let mut server = false;
            let mut address = None;
            for part in spec.split(',') {
                match part.split_once('=') {
                    Some(("server", v)) => server = v == "y",
                    Some(("address", v)) => address = Some(v),
                    _ => {}
                }
            }
            server && address.is_some_and(beyond_loopback)
        }),
        // delve listens only in headless mode; its default is 127.0.0.1.
        "dlv" => {
            texts.contains(&"--headless")
                && value(texts, &["--listen", "-l"]).is_some_and(beyond_loopback)
        }
        // `gdbserver [--multi] COMM [PROG]`: COMM is `host:port`, a tty or `-` (stdio).
        "gdbserver" => texts
            .iter()
            .find(|t| !t.starts_with('-'))
            .is_some_and(|comm| comm.contains(':') && beyond_loopback(comm)),
        "debugpy" => value(texts, &["--listen"]).is_some_and(beyond_loopback),
        "ptvsd" => value(texts, &["--host"]).is_some_and(beyond_loopback),
        "rdbg" => {
            (texts.contains(&"--open") || texts.contains(&"-O"))
                && value(texts, &["--host"]).is_some_and(beyond_loopback)
        }
        _ => false,
    };
    open.then(|| ids::RCE_DEBUGGER_EXPOSED.verdict())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, rest) = words.split_first().expect("a command");
        exposed(name, rest).is_some()
    }

    #[test]
    fn debugger_on_every_interface_is_exposed() {
        for line in [
            "node --inspect=0.0.0.0:9229 server.js",
            "node --inspect-brk=:9229 app.js",
            "deno run --inspect=0.0.0.0 main.ts",
            "chromium --headless --remote-debugging-address=0.0.0.0 --remote-debugging-port=9222",
            "google-chrome --remote-debugging-address 10.0.0.5",
            "java -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=*:5005 -jar a.jar",
            "java -Xrunjdwp:transport=dt_socket,server=y,address=0.0.0.0:8000 Main",
            "dlv debug --headless --listen=:2345 --accept-multiclient",
            "gdbserver 0.0.0.0:1234 ./app",
            "gdbserver --multi :2159",
            "debugpy --listen 0.0.0.0:5678 app.py",
            "rdbg --open --host 0.0.0.0 --port 12345 app.rb",
            "node --inspect=[::]:9229 server.js",
        ] {
            assert!(judged(line), "{line}");
        }
    }

    #[test]
    fn debugger_on_loopback_or_a_port_alone_is_not_exposed() {
        for line in [
            "node --inspect server.js",
            "node --inspect=9229 server.js",
            "node --inspect=127.0.0.1:9229 server.js",
            "node server.js --inspect=0.0.0.0:9229",
            "chromium --headless --remote-debugging-port=9222",
            "java -agentlib:jdwp=transport=dt_socket,server=y,address=5005 -jar a.jar",
            "java -agentlib:jdwp=transport=dt_socket,server=n,address=10.0.0.5:5005 Main",
            "dlv debug --headless --listen=127.0.0.1:2345",
            "dlv debug --listen=:2345",
            "gdbserver /dev/ttyS0 ./app",
            "gdbserver localhost:1234 ./app",
            "debugpy --listen 5678 app.py",
            "rdbg --open --port 12345 app.rb",
        ] {
            assert!(!judged(line), "{line}");
        }
    }
}
