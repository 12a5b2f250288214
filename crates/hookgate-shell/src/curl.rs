//! curl's command line, read with curl's own option grammar: one reader for every question the
//! guard asks about a curl call (where it sends data, what it uploads, which file it writes,
//! which method it uses).
//!
//! Why one reader: the guard used to read curl in three places, each with its own list of
//! "options that take a value", and the lists disagreed — a value one list did not know was
//! read as a URL by one rule and skipped by another, and none knew curl's abbreviations
//! (curl accepts any unique prefix of a long option: `--output-d .claude -O URL/settings.json`
//! wrote into `.claude` unseen) or the `--expand-` forms (curl 8.3+: `--expand-output
//! '{{f}}'` takes its value from a variable).
//!
//! Invariant protected: **a curl word is an option, its value or a URL exactly as curl reads
//! it.** An option curl would reject (unknown, ambiguous) is [`Word::Rejected`], not guessed:
//! curl then fails before any transfer, and the callers decide what that means for them.
//!
//! The table is curl 7.88's `curl --help all` (the curl of current Debian and Ubuntu LTS
//! images), plus the options added up to curl 8.17 (so a newer curl's value-taking options do
//! not read as switches here).

/// One curl option: its long name (without `--`), its one-letter form, whether it takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurlOption {
    /// The long name, without `--`.
    pub long: &'static str,
    /// The short form (`o` for `-o`).
    pub short: Option<char>,
    /// Whether the option takes a value (the rest of a short cluster, or the next word).
    pub takes_value: bool,
}

const fn opt(long: &'static str, short: Option<char>, takes_value: bool) -> CurlOption {
    CurlOption {
        long,
        short,
        takes_value,
    }
}

/// Every curl option, sorted by long name.
pub const OPTIONS: &[CurlOption] = &[
    opt("abstract-unix-socket", None, true),
    opt("alt-svc", None, true),
    opt("anyauth", None, false),
    opt("append", Some('a'), false),
    opt("aws-sigv4", None, true),
    opt("basic", None, false),
    opt("ca-native", None, false),
    opt("cacert", None, true),
    opt("capath", None, true),
    opt("cert", Some('E'), true),
    opt("cert-status", None, false),
    opt("cert-type", None, true),
    opt("ciphers", None, true),
    opt("compressed", None, false),
    opt("compressed-ssh", None, false),
    opt("config", Some('K'), true),
    opt("connect-timeout", None, true),
    opt("connect-to", None, true),
    opt("continue-at", Some('C'), true),
    opt("cookie", Some('b'), true),
    opt("cookie-jar", Some('c'), true),
    opt("create-dirs", None, false),
    opt("create-file-mode", None, true),
    opt("crlf", None, false),
    opt("crlfile", None, true),
    opt("curves", None, true),
    opt("data", Some('d'), true),
    opt("data-ascii", None, true),
    opt("data-binary", None, true),
    opt("data-raw", None, true),
    opt("data-urlencode", None, true),
    opt("delegation", None, true),
    opt("digest", None, false),
    opt("disable", Some('q'), false),
    opt("disable-eprt", None, false),
    opt("disable-epsv", None, false),
    opt("disallow-username-in-url", None, false),
    opt("dns-interface", None, true),
    opt("dns-ipv4-addr", None, true),
    opt("dns-ipv6-addr", None, true),
    opt("dns-servers", None, true),
    opt("doh-cert-status", None, false),
    opt("doh-insecure", None, false),
    opt("doh-url", None, true),
    opt("dump-ca-embed", None, false),
    opt("dump-header", Some('D'), true),
    opt("ech", None, true),
    opt("egd-file", None, true),
    opt("engine", None, true),
    opt("etag-compare", None, true),
    opt("etag-save", None, true),
    opt("expect100-timeout", None, true),
    opt("fail", Some('f'), false),
    opt("fail-early", None, false),
    opt("fail-with-body", None, false),
    opt("false-start", None, false),
    opt("follow", None, false),
    opt("form", Some('F'), true),
    opt("form-escape", None, false),
    opt("form-string", None, true),
    opt("ftp-account", None, true),
    opt("ftp-alternative-to-user", None, true),
    opt("ftp-create-dirs", None, false),
    opt("ftp-method", None, true),
    opt("ftp-pasv", None, false),
    opt("ftp-port", Some('P'), true),
    opt("ftp-pret", None, false),
    opt("ftp-skip-pasv-ip", None, false),
    opt("ftp-ssl-ccc", None, false),
    opt("ftp-ssl-ccc-mode", None, true),
    opt("ftp-ssl-control", None, false),
    opt("get", Some('G'), false),
    opt("globoff", Some('g'), false),
    opt("happy-eyeballs-timeout-ms", None, true),
    opt("haproxy-clientip", None, true),
    opt("haproxy-protocol", None, false),
    opt("head", Some('I'), false),
    opt("header", Some('H'), true),
    opt("help", Some('h'), true),
    opt("hostpubmd5", None, true),
    opt("hostpubsha256", None, true),
    opt("hsts", None, true),
    opt("http0", None, false),
    opt("http1", None, false),
    opt("http2", None, false),
    opt("http2-prior-knowledge", None, false),
    opt("http3", None, false),
    opt("http3-only", None, false),
    opt("ignore-content-length", None, false),
    opt("include", Some('i'), false),
    opt("insecure", Some('k'), false),
    opt("interface", None, true),
    opt("ip-tos", None, true),
    opt("ipfs-gateway", None, true),
    opt("ipv4", Some('4'), false),
    opt("ipv6", Some('6'), false),
    opt("json", None, true),
    opt("junk-session-cookies", Some('j'), false),
    opt("keepalive-cnt", None, true),
    opt("keepalive-time", None, true),
    opt("key", None, true),
    opt("key-type", None, true),
    opt("knownhosts", None, true),
    opt("krb", None, true),
    opt("libcurl", None, true),
    opt("limit-rate", None, true),
    opt("list-only", Some('l'), false),
    opt("local-port", None, true),
    opt("location", Some('L'), false),
    opt("location-trusted", None, false),
    opt("login-options", None, true),
    opt("mail-auth", None, true),
    opt("mail-from", None, true),
    opt("mail-rcpt", None, true),
    opt("mail-rcpt-allowfails", None, false),
    opt("manual", Some('M'), false),
    opt("max-filesize", None, true),
    opt("max-redirs", None, true),
    opt("max-time", Some('m'), true),
    opt("metalink", None, false),
    opt("mptcp", None, false),
    opt("negotiate", None, false),
    opt("netrc", Some('n'), false),
    opt("netrc-file", None, true),
    opt("netrc-optional", None, false),
    opt("next", Some(':'), false),
    opt("no-alpn", None, false),
    opt("no-buffer", Some('N'), false),
    opt("no-clobber", None, false),
    opt("no-keepalive", None, false),
    opt("no-npn", None, false),
    opt("no-progress-meter", None, false),
    opt("no-sessionid", None, false),
    opt("noproxy", None, true),
    opt("ntlm", None, false),
    opt("ntlm-wb", None, false),
    opt("oauth2-bearer", None, true),
    opt("out-null", None, false),
    opt("output", Some('o'), true),
    opt("output-dir", None, true),
    opt("parallel", Some('Z'), false),
    opt("parallel-immediate", None, false),
    opt("parallel-max", None, true),
    opt("pass", None, true),
    opt("path-as-is", None, false),
    opt("pinnedpubkey", None, true),
    opt("post301", None, false),
    opt("post302", None, false),
    opt("post303", None, false),
    opt("preproxy", None, false),
    opt("progress-bar", Some('#'), false),
    opt("proto", None, true),
    opt("proto-default", None, true),
    opt("proto-redir", None, true),
    opt("proxy", Some('x'), false),
    opt("proxy-anyauth", None, false),
    opt("proxy-basic", None, false),
    opt("proxy-ca-native", None, false),
    opt("proxy-cacert", None, true),
    opt("proxy-capath", None, true),
    opt("proxy-cert", None, true),
    opt("proxy-cert-type", None, true),
    opt("proxy-ciphers", None, true),
    opt("proxy-crlfile", None, true),
    opt("proxy-digest", None, false),
    opt("proxy-dump-ca-embed", None, false),
    opt("proxy-header", None, true),
    opt("proxy-http2", None, false),
    opt("proxy-insecure", None, false),
    opt("proxy-key", None, true),
    opt("proxy-key-type", None, true),
    opt("proxy-negotiate", None, false),
    opt("proxy-ntlm", None, false),
    opt("proxy-pass", None, true),
    opt("proxy-pinnedpubkey", None, true),
    opt("proxy-service-name", None, true),
    opt("proxy-ssl-allow-beast", None, false),
    opt("proxy-ssl-auto-client-cert", None, false),
    opt("proxy-tls13-ciphers", None, true),
    opt("proxy-tlsauthtype", None, true),
    opt("proxy-tlspassword", None, true),
    opt("proxy-tlsuser", None, true),
    opt("proxy-tlsv1", None, false),
    opt("proxy-user", Some('U'), true),
    opt("proxy1", None, false),
    opt("proxytunnel", Some('p'), false),
    opt("pubkey", None, true),
    opt("quote", Some('Q'), true),
    opt("random-file", None, true),
    opt("range", Some('r'), true),
    opt("rate", None, true),
    opt("raw", None, false),
    opt("referer", Some('e'), true),
    opt("remote-header-name", Some('J'), false),
    opt("remote-name", Some('O'), false),
    opt("remote-name-all", None, false),
    opt("remote-time", Some('R'), false),
    opt("remove-on-error", None, false),
    opt("request", Some('X'), true),
    opt("request-target", None, true),
    opt("resolve", None, true),
    opt("retry", None, true),
    opt("retry-all-errors", None, false),
    opt("retry-connrefused", None, false),
    opt("retry-delay", None, true),
    opt("retry-max-time", None, true),
    opt("sasl-authzid", None, true),
    opt("sasl-ir", None, false),
    opt("service-name", None, true),
    opt("show-error", Some('S'), false),
    opt("sigalgs", None, true),
    opt("silent", Some('s'), false),
    opt("skip-existing", None, false),
    opt("socks4", None, true),
    opt("socks4a", None, true),
    opt("socks5", None, true),
    opt("socks5-basic", None, false),
    opt("socks5-gssapi", None, false),
    opt("socks5-gssapi-nec", None, false),
    opt("socks5-gssapi-service", None, true),
    opt("socks5-hostname", None, true),
    opt("speed-limit", Some('Y'), true),
    opt("speed-time", Some('y'), true),
    opt("ssl", None, false),
    opt("ssl-allow-beast", None, false),
    opt("ssl-auto-client-cert", None, false),
    opt("ssl-no-revoke", None, false),
    opt("ssl-reqd", None, false),
    opt("ssl-revoke-best-effort", None, false),
    opt("ssl-sessions", None, true),
    opt("sslv2", Some('2'), false),
    opt("sslv3", Some('3'), false),
    opt("stderr", None, true),
    opt("styled-output", None, false),
    opt("suppress-connect-headers", None, false),
    opt("tcp-fastopen", None, false),
    opt("tcp-nodelay", None, false),
    opt("telnet-option", Some('t'), true),
    opt("tftp-blksize", None, true),
    opt("tftp-no-options", None, false),
    opt("time-cond", Some('z'), true),
    opt("tls-earlydata", None, false),
    opt("tls-max", None, true),
    opt("tls13-ciphers", None, true),
    opt("tlsauthtype", None, true),
    opt("tlspassword", None, true),
    opt("tlsuser", None, true),
    opt("tlsv1", None, false),
    opt("tr-encoding", None, false),
    opt("trace", None, true),
    opt("trace-ascii", None, true),
    opt("trace-config", None, true),
    opt("trace-time", None, false),
    opt("unix-socket", None, true),
    opt("upload-file", Some('T'), true),
    opt("upload-flags", None, true),
    opt("url", None, true),
    opt("url-query", None, true),
    opt("use-ascii", Some('B'), false),
    opt("user", Some('u'), true),
    opt("user-agent", Some('A'), true),
    opt("variable", None, true),
    opt("verbose", Some('v'), false),
    opt("version", Some('V'), false),
    opt("vlan-priority", None, true),
    opt("write-out", Some('w'), true),
    opt("xattr", None, false),
];

/// One word of a curl command line as curl reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word<'a> {
    /// An option, by its canonical long name, with its value when it takes one.
    Option {
        /// The option's long name (`output` for `-o`, `--output`, `--outp` when unique, …).
        long: &'static str,
        /// The value (`None` for a switch, or a value-taking option at the end of the line).
        value: Option<&'a str>,
        /// `--no-NAME` (a switch turned off).
        negated: bool,
        /// `--expand-NAME`: the value is expanded from `--variable`s when curl runs, so its
        /// text is not what curl uses.
        expanded: bool,
    },
    /// A URL operand (every non-option word, and every word after `--`).
    Url(&'a str),
    /// An option curl rejects (unknown or an ambiguous abbreviation): curl stops with an
    /// error before any transfer.
    Rejected(&'a str),
}

/// The option named `name` (without `--`): exact, else the only option it abbreviates.
#[must_use]
pub fn long_option(name: &str) -> Option<&'static CurlOption> {
    if let Ok(i) = OPTIONS.binary_search_by(|o| o.long.cmp(name)) {
        return OPTIONS.get(i);
    }
    if name.is_empty() {
        return None;
    }
    let unique = |newer_too: bool| {
        let mut found = OPTIONS
            .iter()
            .filter(|o| o.long.starts_with(name) && (newer_too || !NEWER.contains(&o.long)));
        match (found.next(), found.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    };
    // A prefix that newer options made ambiguous still abbreviates the one option an older
    // curl knows (`--upload-f`: `upload-file` to curl 7.88, rejected by 8.13+, which also
    // has `upload-flags`): reading it as that option is the reading that can do something.
    unique(true).or_else(|| unique(false))
}

/// The options added after curl 7.88 (see [`long_option`]).
const NEWER: &[&str] = &[
    "ca-native",
    "dump-ca-embed",
    "ech",
    "follow",
    "haproxy-clientip",
    "ip-tos",
    "ipfs-gateway",
    "keepalive-cnt",
    "knownhosts",
    "mptcp",
    "out-null",
    "proxy-ca-native",
    "proxy-dump-ca-embed",
    "proxy-http2",
    "sigalgs",
    "skip-existing",
    "ssl-sessions",
    "tls-earlydata",
    "trace-config",
    "upload-flags",
    "variable",
    "vlan-priority",
];

/// The option whose short form is `c`.
#[must_use]
pub fn short_option(c: char) -> Option<&'static CurlOption> {
    OPTIONS.iter().find(|o| o.short == Some(c))
}

/// Reads `args` (the words after `curl`) as curl does.
#[must_use]
pub fn parse<S: AsRef<str>>(args: &[S]) -> Vec<Word<'_>> {
    let mut out = Vec::with_capacity(args.len());
    let mut words = args.iter().map(AsRef::as_ref);
    while let Some(word) = words.next() {
        if word == "--" {
            out.extend(words.by_ref().map(Word::Url));
            break;
        }
        if let Some(name) = word.strip_prefix("--") {
            out.push(long_word(word, name, &mut words));
        } else if let Some(cluster) = word.strip_prefix('-').filter(|c| !c.is_empty()) {
            short_cluster(word, cluster, &mut words, &mut out);
        } else {
            out.push(Word::Url(word));
        }
    }
    out
}

/// `--NAME`, `--no-NAME`, `--expand-NAME`, taking the next word as the value when due.
fn long_word<'a>(
    word: &'a str,
    name: &'a str,
    rest: &mut impl Iterator<Item = &'a str>,
) -> Word<'a> {
    let (option, negated, expanded) = match long_option(name) {
        Some(o) => (o, false, false),
        None => match (name.strip_prefix("no-"), name.strip_prefix("expand-")) {
            (Some(base), _) => match long_option(base) {
                Some(o) if !o.takes_value => (o, true, false),
                _ => return Word::Rejected(word),
            },
            (_, Some(base)) => match long_option(base) {
                Some(o) if o.takes_value => (o, false, true),
                _ => return Word::Rejected(word),
            },
            _ => return Word::Rejected(word),
        },
    };
    let value = if option.takes_value {
        rest.next()
    } else {
        None
    };
    Word::Option {
        long: option.long,
        value,
        negated,
        expanded,
    }
}

/// `-abc`, `-oFILE`, `-so FILE`: switches until one takes a value, which is the rest of the
/// word or else the next word.
fn short_cluster<'a>(
    word: &'a str,
    cluster: &'a str,
    rest: &mut impl Iterator<Item = &'a str>,
    out: &mut Vec<Word<'a>>,
) {
    for (at, c) in cluster.char_indices() {
        let Some(option) = short_option(c) else {
            out.push(Word::Rejected(word));
            return;
        };
        if option.takes_value {
            let attached = cluster.get(at + c.len_utf8()..).unwrap_or_default();
            let value = if attached.is_empty() {
                rest.next()
            } else {
                Some(attached)
            };
            out.push(Word::Option {
                long: option.long,
                value,
                negated: false,
                expanded: false,
            });
            return;
        }
        out.push(Word::Option {
            long: option.long,
            value: None,
            negated: false,
            expanded: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt_value<'a>(words: &[Word<'a>], long: &str) -> Option<&'a str> {
        words.iter().find_map(|w| match w {
            Word::Option { long: l, value, .. } if *l == long => *value,
            _ => None,
        })
    }

    #[test]
    fn the_table_is_sorted_and_every_short_form_is_unique() {
        assert!(OPTIONS.windows(2).all(|w| w[0].long < w[1].long));
        let mut shorts: Vec<char> = OPTIONS.iter().filter_map(|o| o.short).collect();
        let n = shorts.len();
        shorts.sort_unstable();
        shorts.dedup();
        assert_eq!(shorts.len(), n);
    }

    #[test]
    fn unique_abbreviations_name_their_option_and_ambiguous_ones_are_rejected() {
        let w = parse(&["--output-d", ".claude", "-O", "https://x/settings.json"]);
        assert_eq!(opt_value(&w, "output-dir"), Some(".claude"));
        assert!(w.contains(&Word::Url("https://x/settings.json")));
        assert_eq!(parse(&["--outp", "f"])[0], Word::Rejected("--outp"));
        assert_eq!(
            opt_value(&parse(&["--upload-f", "k", "u"]), "upload-file"),
            Some("k")
        );
    }

    #[test]
    fn short_clusters_take_the_rest_of_the_word_or_the_next_word() {
        let w = parse(&["-sSLo", "out", "https://a"]);
        assert_eq!(opt_value(&w, "output"), Some("out"));
        assert_eq!(w.last(), Some(&Word::Url("https://a")));
        assert_eq!(opt_value(&parse(&["-oFILE"]), "output"), Some("FILE"));
        assert_eq!(
            opt_value(&parse(&["-XDELETE", "u"]), "request"),
            Some("DELETE")
        );
        assert!(matches!(parse(&["-%"])[0], Word::Rejected(_)));
    }

    #[test]
    fn values_are_never_urls_and_words_after_the_double_dash_always_are() {
        let w = parse(&["-H", "x: y", "--data-binary", "@-", "--", "-o"]);
        assert_eq!(opt_value(&w, "header"), Some("x: y"));
        assert_eq!(opt_value(&w, "data-binary"), Some("@-"));
        assert_eq!(w.last(), Some(&Word::Url("-o")));
        assert_eq!(w.iter().filter(|w| matches!(w, Word::Url(_))).count(), 1);
    }

    #[test]
    fn negated_switches_and_expanded_values_are_marked() {
        let w = parse(&["--no-location", "--expand-output", "{{f}}", "u"]);
        assert!(matches!(
            w[0],
            Word::Option {
                long: "location",
                negated: true,
                ..
            }
        ));
        assert!(matches!(
            w[1],
            Word::Option {
                long: "output",
                value: Some("{{f}}"),
                expanded: true,
                ..
            }
        ));
        assert_eq!(
            parse(&["--no-output", "x"])[0],
            Word::Rejected("--no-output")
        );
    }
}
