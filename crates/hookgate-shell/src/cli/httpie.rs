//! HTTPie's options (`http`, `https`: HTTPie 3.2's `httpie/cli/definition.py`) together with
//! xh's (`xh`, `xhs`: xh 0.22's `--help`), which mirrors HTTPie's command line and adds a few
//! of its own. One table serves both: an option only one of them knows makes the other stop
//! with an error before sending anything, so reading it as the one that knows it is the
//! reading under which the request can go out.

use super::CliOption;
use super::CliOption as O;

const fn opt(long: &'static str, short: Option<char>, takes_value: bool) -> CliOption {
    O {
        long,
        short,
        takes_value,
    }
}

/// Every HTTPie and xh option, sorted by long name.
pub(super) const OPTIONS: &[CliOption] = &[
    opt("all", None, false),
    opt("auth", Some('a'), true),
    opt("auth-type", Some('A'), true),
    opt("bearer", None, true),
    opt("body", Some('b'), false),
    opt("boundary", None, true),
    opt("cert", None, true),
    opt("cert-key", None, true),
    opt("check-status", None, false),
    opt("chunked", None, false),
    opt("ciphers", None, true),
    opt("compress", Some('x'), false),
    opt("continue", Some('c'), false),
    opt("curl", None, false),
    opt("curl-long", None, false),
    opt("debug", None, false),
    opt("default-scheme", None, true),
    opt("download", Some('d'), false),
    opt("follow", Some('F'), false),
    opt("form", Some('f'), false),
    opt("format-options", None, true),
    opt("generate", None, true),
    opt("headers", Some('h'), false),
    opt("help", None, false),
    opt("history-print", Some('P'), true),
    opt("http-version", None, true),
    opt("https", None, false),
    opt("ignore-netrc", None, false),
    opt("ignore-stdin", Some('I'), false),
    opt("interface", None, true),
    opt("ipv4", Some('4'), false),
    opt("ipv6", Some('6'), false),
    opt("json", Some('j'), false),
    opt("max-headers", None, true),
    opt("max-redirects", None, true),
    opt("meta", Some('m'), false),
    opt("multipart", None, false),
    opt("native-tls", None, false),
    opt("offline", None, false),
    opt("output", Some('o'), true),
    opt("path-as-is", None, false),
    opt("pretty", None, true),
    opt("print", Some('p'), true),
    opt("proxy", None, true),
    opt("quiet", Some('q'), false),
    opt("raw", None, true),
    opt("resolve", None, true),
    opt("response-charset", None, true),
    opt("response-mime", None, true),
    opt("session", None, true),
    opt("session-read-only", None, true),
    opt("sorted", None, false),
    opt("ssl", None, true),
    opt("stream", Some('S'), false),
    opt("style", Some('s'), true),
    opt("timeout", None, true),
    opt("traceback", None, false),
    opt("unix-socket", None, true),
    opt("unsorted", None, false),
    opt("verbose", Some('v'), false),
    opt("verify", None, true),
    opt("version", None, false),
];
