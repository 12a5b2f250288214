//! Tools no table here knows. Every round of held-out commands brings command-line tools of
//! families the taxonomy has never named (an ERP's `bench`, iRODS' `irm`, Mattermost's
//! `mmctl`, a tape library's `dsmc`, a gateway's `deck`), and their destructive forms share a
//! shape: a subcommand that names a deletion (`drop-site`, `team delete`, `gateway reset`,
//! `delete archive`), told not to ask (`--force`, `--yes`, `--confirm`, `-noprompt`), aimed
//! at everything (`--all`, `-r`), or pointed at a remote or production target (`--gateway
//! https://faas.prod…`, `--settings=production`, `-o Production`).
//!
//! Why a shape and not a list: the list is what was missing each time. The shape is read
//! from the parsed argv — the leading positionals as the subcommand path (split into word
//! parts as the taxonomy's `verb_any` rules split them), the option words by name, URLs by
//! their parsed host — never from a substring of the line.
//!
//! Invariant: only for programs nothing else here models. A program the taxonomy names
//! (rules, read-only patterns, option syntax) or that is judged in code has its own, more
//! exact answer — including "this deletion is local" (`kind delete cluster`, `prisma migrate
//! reset` against a dev database) — which this guess must never overrule. Package and
//! environment managers that only touch this machine are listed in [`LOCAL_TOOLS`].
//! A `--dry-run` (or `--help`) and a subcommand path about caches stay ordinary.

use crate::model::Verdict;
use crate::taxonomy::{self, ids};

/// Verbs that name the deletion themselves: a tool's `wipe`, `purge`, `destroy`, `nuke`,
/// `erase` or `truncate` subcommand loses data whatever its flags say.
const STRONG_VERBS: &[&str] = &["wipe", "purge", "destroy", "nuke", "erase", "truncate"];

/// Verbs that delete something, but as often something small and local (`ollama rm model`,
/// `avdmanager delete avd -n test`): judged with a signal that the act is forced, total,
/// remote or on production.
const WEAK_VERBS: &[&str] = &[
    "delete",
    "remove",
    "rm",
    "del",
    "drop",
    "terminate",
    "revoke",
    "reset",
    "expire",
    "unpublish",
];

/// Sorted (binary search; a unit test checks the order). Local package, toolchain and environment managers, dev-cluster and dev-server tools: their
/// deletions remove this machine's installs, environments and scratch clusters.
const LOCAL_TOOLS: &[&str] = &[
    "asdf",
    "avdmanager",
    "awslocal",
    "bazel",
    "bazelisk",
    "brew",
    "bun",
    "bundle",
    "bundler",
    "cabal",
    "cargo",
    "carthage",
    "ccache",
    "cdklocal",
    "clj",
    "cmake",
    "code",
    "colima",
    "composer",
    "conda",
    "corepack",
    "cursor",
    "cypress",
    "dart",
    "ddev",
    "deno",
    "devbox",
    "devcontainer",
    "devenv",
    "direnv",
    "docker-compose",
    "docker-machine",
    "docksal",
    "dotnet",
    "dvc",
    "fin",
    "flatpak",
    "flutter",
    "fnm",
    "gem",
    "ghcup",
    "gio",
    "git-lfs",
    "go",
    "gradle",
    "gradlew",
    "guix",
    "gvm",
    "hatch",
    "herd",
    "hex",
    "ipython",
    "jest",
    "jupyter",
    "just",
    "k3d",
    "kind",
    "lando",
    "lein",
    "lerna",
    "lima",
    "limactl",
    "localstack",
    "make",
    "mamba",
    "meson",
    "micromamba",
    "minikube",
    "mise",
    "mix",
    "multipass",
    "mvn",
    "mvnw",
    "n",
    "nbstripout",
    "ninja",
    "nix",
    "nix-collect-garbage",
    "nix-env",
    "npm",
    "nuget",
    "nvm",
    "nx",
    "ollama",
    "opam",
    "orbctl",
    "pdm",
    "pipenv",
    "pipx",
    "pixi",
    "playwright",
    "pnpm",
    "pod",
    "podman-compose",
    "podman-machine",
    "poetry",
    "port",
    "pre-commit",
    "prlctl",
    "proto",
    "pyenv",
    "rbenv",
    "rebar3",
    "rtx",
    "rush",
    "rustup",
    "rvm",
    "rye",
    "sail",
    "sbt",
    "sccache",
    "screen",
    "sdk",
    "sdkmanager",
    "snap",
    "stack",
    "storybook",
    "swift",
    "tart",
    "task",
    "tflocal",
    "tilt",
    "tmux",
    "trash",
    "trash-put",
    "turbo",
    "utmctl",
    "uv",
    "vagrant",
    "valet",
    "virtualenv",
    "vite",
    "vitest",
    "vmrun",
    "volta",
    "webpack",
    "wp-env",
    "xcodebuild",
    "yarn",
];

/// Option names (without dashes) that tell a tool not to ask, or to act on everything.
const FORCING_OPTIONS: &[&str] = &[
    "force",
    "yes",
    "y",
    "confirm",
    "no-confirm",
    "noconfirm",
    "no-confirmation",
    "noprompt",
    "no-prompt",
    "assume-yes",
    "non-interactive",
    "no-interactive",
    "no-input",
    "skip-confirmation",
    "skip-confirm",
    "auto-approve",
    "all",
    "recursive",
    "r",
    "R",
    "rf",
    "fr",
    "purge",
    "no-backup",
    "permanent",
    "permanently",
    "hard",
    "cascade",
];

/// Options after which nothing is done: a preview or the tool's own help.
const PREVIEW_OPTIONS: &[&str] = &[
    "dry-run", "dryrun", "what-if", "whatif", "plan", "preview", "noop", "no-op", "simulate",
    "help", "h", "check",
];

/// Option names whose value is where the tool connects (`--gateway URL`, `--endpoints
/// HOST:PORT`, `-server zk1:2181`, `--kong-addr`, `--ca-url`): the last word part of the
/// option's name.
const TARGET_OPTION_PARTS: &[&str] = &[
    "server",
    "host",
    "gateway",
    "endpoint",
    "endpoints",
    "url",
    "addr",
    "address",
    "api",
];

/// Words that name a production environment when they stand as a whole word part of an
/// operand or option value (`-s prod`, `--settings=production`, `-o Production`,
/// `billing-prod`).
const PRODUCTION_PARTS: &[&str] = &["prod", "production", "prd", "live"];

/// The danger of `name words…` when nothing else here models `name`: a deleting subcommand
/// (see the module docs). `None` for modelled programs, previews, and deletions without a
/// signal.
pub(crate) fn destructive_subcommand(name: &str, words: &[&str]) -> Option<Verdict> {
    if name.is_empty() || name.contains('/') || !unmodelled(name) {
        return None;
    }
    let options: Vec<(&str, Option<&str>)> = words
        .iter()
        .take_while(|w| **w != "--")
        .filter_map(|w| option_name(w))
        .collect();
    if options.iter().any(|(o, _)| PREVIEW_OPTIONS.contains(o)) {
        return None;
    }
    let strong = subcommand_verb(words)?;
    let forced = options.iter().any(|(o, _)| FORCING_OPTIONS.contains(o));
    let aimed = remote_target(words) || names_production(words);
    (strong || forced || aimed).then(|| ids::CLI_UNKNOWN_DESTRUCTIVE.verdict())
}

/// A command line fed to the console of a tool nothing here models (`echo 'delete
/// volume=Full-0042 yes' | bconsole`, `zkCli.sh -server zk-prod-1:2181 <<< 'deleteall
/// /hbase'`): each line is read as the console's own subcommand line, and judged as
/// [`destructive_subcommand`] judges one, with the console's own argv as a further signal
/// (its server, a production name). ZooKeeper's `deleteall`/`rmr` name a recursive delete.
pub(crate) fn console_line(name: &str, console: &[&str], text: &str) -> Option<Verdict> {
    if !may_be_console(name) {
        return None;
    }
    // A console reads commands only when its own line gives none (`zkCli.sh -server H`,
    // `bconsole`): with a subcommand, stdin is that subcommand's data.
    if !leading_positionals(console).is_empty() {
        return None;
    }
    // A modelled console's lines are its command lines, judged by its own rules
    // (`zkCli.sh deleteall` is `db.store_cli_delete`).
    if taxonomy::command(name).is_some() {
        return text.lines().take(MAX_CONSOLE_LINES).find_map(|line| {
            let strings: Vec<String> = console
                .iter()
                .copied()
                .chain(line.split_whitespace())
                .map(str::to_owned)
                .collect();
            let args = taxonomy::Args::parse(name, &strings);
            taxonomy::match_rules(name, &args).map(taxonomy::RuleRef::verdict)
        });
    }
    if !unmodelled(name) {
        return None;
    }
    let aimed = remote_target(console) || names_production(console);
    text.lines().take(MAX_CONSOLE_LINES).find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let first = words.first()?.to_ascii_lowercase();
        if matches!(first.as_str(), "deleteall" | "rmr") {
            return Some(ids::CLI_UNKNOWN_DESTRUCTIVE.verdict());
        }
        let strong = subcommand_verb(&words)?;
        let forced = words.iter().any(|w| {
            w.eq_ignore_ascii_case("yes")
                || option_name(w).is_some_and(|(o, _)| FORCING_OPTIONS.contains(&o))
        });
        (strong || forced || aimed || names_production(&words))
            .then(|| ids::CLI_UNKNOWN_DESTRUCTIVE.verdict())
    })
}

/// Whether `name` may be a console reading commands on stdin (checked before anything is
/// copied, on every command given known text): not a shell, interpreter or other-language
/// runner (their input is walked as code elsewhere), not a filter or a local tool.
pub(crate) fn may_be_console(name: &str) -> bool {
    !name.is_empty()
        && !name.contains('/')
        && !crate::resolve::is_shell(name)
        && !crate::resolve::is_interpreter(name)
        && !crate::flow::is_filter(name)
        && LOCAL_TOOLS.binary_search(&name).is_err()
        && crate::tongues::Tongue::of(name).is_none()
}

/// The positionals of a line whose grammar is unknown: words that are not options, the
/// word after a one-letter option taken as its value (`-server zk1:2181`, `-c conf`).
fn leading_positionals<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut value_next = false;
    for w in words.iter().take_while(|w| **w != "--") {
        if option_name(w).is_some() {
            // `-server`, `-c`: ZooKeeper's and Bacula's consoles spell options with one dash.
            value_next = !w.starts_with("--") && !w.contains('=');
            continue;
        }
        if std::mem::take(&mut value_next) {
            continue;
        }
        out.push(*w);
    }
    out
}

/// Lines of a console's input read (a longer script's rest is not judged line by line).
const MAX_CONSOLE_LINES: usize = 256;

/// Whether `name words…` exports or dumps a service's data in bulk to its output, for a
/// program nothing else here models (`n8n export:workflow --all`, `tool kv export`, `tool
/// backup dump`): the subcommand path names `export`, `dump` or `backup`, and no option
/// sends the data to a file. Its output piped to a network client is the account's data
/// relayed elsewhere (see `crate::flow`'s `net.relay_private_data`).
pub(crate) fn bulk_export(name: &str, words: &[&str]) -> bool {
    if name.is_empty() || name.contains('/') || !unmodelled(name) {
        return false;
    }
    let to_file = words.iter().any(|w| {
        option_name(w).is_some_and(|(o, v)| {
            matches!(
                o,
                "o" | "output" | "out" | "file" | "f" | "output-file" | "out-file"
            ) && v != Some("-")
        })
    });
    let path: Vec<&str> = words
        .iter()
        .take_while(|w| **w != "--")
        .filter(|w| option_name(w).is_none())
        .take(3)
        .copied()
        .collect();
    !to_file
        && path
            .iter()
            .any(|w| taxonomy::names_verb(w, &["export", "dump", "backup"]))
}

/// Whether nothing else here models `name` (see the module's invariant).
pub(crate) fn unmodelled(name: &str) -> bool {
    taxonomy::command(name).is_none() && unmodelled_in_code(name)
}

/// [`unmodelled`] for a program the taxonomy is already known not to name (the caller
/// parsed its arguments, which looked the entry up).
pub(crate) fn unmodelled_in_code(name: &str) -> bool {
    // Cheapest tests first: this runs for every command no rule matched.
    !crate::resolve::is_shell(name)
        && !crate::resolve::is_interpreter(name)
        && !crate::hazards::judged_here(name)
        && LOCAL_TOOLS.binary_search(&name).is_err()
        && STDIN_DATA_TOOLS.binary_search(&name).is_err()
        && !crate::resolve::judged_by_flow(name)
        && !crate::flow::is_filter(name)
        && !crate::argdanger::judges_retention(name)
        && crate::tongues::Tongue::of(name).is_none()
}

/// Sorted (binary search). Programs whose standard input is data, never commands: pagers, counters, loggers, mail
/// senders, clipboards (the filters of `crate::flow` are excluded as well).
const STDIN_DATA_TOOLS: &[&str] = &[
    "b2sum",
    "cksum",
    "clip",
    "clip.exe",
    "cmp",
    "csplit",
    "diff",
    "envsubst",
    "espeak",
    "expand",
    "file",
    "fmt",
    "gettext",
    "less",
    "logger",
    "mail",
    "mailx",
    "md5sum",
    "more",
    "moreutils",
    "most",
    "msgfmt",
    "pbcopy",
    "pr",
    "pv",
    "say",
    "sendmail",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "ts",
    "unexpand",
    "vipe",
    "wall",
    "wc",
    "wl-copy",
    "write",
    "xclip",
    "xsel",
];

/// A cheap first look for the fallback that runs on every unmatched command: whether one of
/// the first words that are not options begins or ends with a deleting verb (ASCII case
/// ignored), with no allocation. Only a word that passes is read as a subcommand path by
/// [`destructive_subcommand`]; this decides nothing by itself.
pub(crate) fn may_name_deletion<S: AsRef<str>>(words: &[S]) -> bool {
    let ends = |w: &[u8], v: &str| {
        let v = v.as_bytes();
        w.len() >= v.len()
            && (w[..v.len()].eq_ignore_ascii_case(v)
                || w[w.len() - v.len()..].eq_ignore_ascii_case(v))
    };
    words
        .iter()
        .map(AsRef::as_ref)
        .take_while(|w| *w != "--")
        .filter(|w| !w.starts_with('-'))
        .take(4)
        .any(|w| {
            let b = w.as_bytes();
            STRONG_VERBS.iter().chain(WEAK_VERBS).any(|v| ends(b, v))
        })
}

/// `--name=value` → (`name`, value), `--name`/`-n`/`-noprompt` → (`name`, None); other words
/// are not options.
fn option_name(word: &str) -> Option<(&str, Option<&str>)> {
    let body = word.strip_prefix("--").or_else(|| word.strip_prefix('-'))?;
    if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    })
}

/// Whether the subcommand path (the first three positionals, up to a `--`, a subcommand
/// that runs a command of its own, or the first non-destructive verb) names a deletion:
/// `Some(true)` for a [`STRONG_VERBS`] one, `Some(false)` for a [`WEAK_VERBS`] one. A path
/// about caches or temporary files is scratch.
fn subcommand_verb(words: &[&str]) -> Option<bool> {
    // `--site erp.acme.com drop-site`: the word after a long option may be its value; it is
    // still read as a candidate, as the tool's grammar is unknown (a value is rarely
    // verb-shaped). After a one-letter option (`-X DELETE`, `-s prod`, `-n name`) the word is
    // taken as its value: single letters are mostly options that take one.
    let mut path = Vec::new();
    let mut value_next = false;
    for w in words.iter().take_while(|w| **w != "--") {
        if option_name(w).is_some() {
            value_next = w.len() == 2 && !w.starts_with("--");
            continue;
        }
        if std::mem::take(&mut value_next) {
            continue;
        }
        path.push(*w);
        if path.len() == 3 {
            break;
        }
    }
    let mut found = None;
    for word in &path {
        if matches!(*word, "run" | "exec" | "shell" | "x") {
            break;
        }
        if taxonomy::names_verb(word, &["cache", "caches", "tmp", "temp"]) {
            return None;
        }
        if taxonomy::names_verb(word, STRONG_VERBS) {
            found = Some(true);
            break;
        }
        if taxonomy::names_verb(word, WEAK_VERBS) {
            found = Some(false);
            break;
        }
        if taxonomy::names_verb(word, taxonomy::OTHER_VERBS) {
            return None;
        }
    }
    // A cache named after the verb (`tool delete cache`) is scratch too.
    if found.is_some()
        && path
            .iter()
            .any(|w| taxonomy::names_verb(w, &["cache", "caches"]))
    {
        return None;
    }
    found
}

/// Whether the line connects somewhere that is not this machine: a URL operand or option
/// value with a host other than loopback, or the value of a connection option
/// ([`TARGET_OPTION_PARTS`]) naming another host.
fn remote_target(words: &[&str]) -> bool {
    let remote_url = |v: &str| v.contains("://") && !crate::argdanger::is_loopback_url(v, false);
    let remote_host = |v: &str| {
        let host = v.rsplit('@').next().unwrap_or(v);
        let host = host.split(['/', ',']).next().unwrap_or(host);
        let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
        !host.is_empty()
            && !matches!(
                host,
                "localhost" | "127.0.0.1" | "::1" | "[::1]" | "0.0.0.0"
            )
            && !host.ends_with(".localhost")
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']'))
            && (host.contains('.') || v.contains(':'))
    };
    let mut it = words.iter().peekable();
    while let Some(w) = it.next() {
        if let Some(v) = w
            .split_once('=')
            .map(|(_, v)| v)
            .filter(|_| w.starts_with('-'))
        {
            if remote_url(v) {
                return true;
            }
        } else if remote_url(w) {
            return true;
        }
        let Some((opt, inline)) = option_name(w) else {
            continue;
        };
        let last = opt.rsplit(['-', '_']).next().unwrap_or(opt);
        if !TARGET_OPTION_PARTS
            .iter()
            .any(|p| last.eq_ignore_ascii_case(p))
        {
            continue;
        }
        let value = inline.or_else(|| it.peek().copied().copied());
        if let Some(v) = value
            && !v.starts_with('-')
            && v.split(',')
                .any(|one| remote_url(one) || (!one.contains("://") && remote_host(one)))
        {
            return true;
        }
    }
    false
}

/// Whether an operand or option value names production: a whole word part of it, split at
/// non-alphanumerics, is one of [`PRODUCTION_PARTS`] (`prod`, `billing-prod`,
/// `--settings=production`); `product` or `prodigy` are not.
fn names_production(words: &[&str]) -> bool {
    words.iter().take_while(|w| **w != "--").any(|w| {
        let value = match option_name(w) {
            Some((_, Some(v))) => v,
            Some((_, None)) => return false,
            None => w,
        };
        // URLs and paths name hosts and files, judged as targets, not environments.
        !value.contains('/')
            && value
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|part| {
                    PRODUCTION_PARTS
                        .iter()
                        .any(|p| part.eq_ignore_ascii_case(p))
                })
    })
}

#[cfg(test)]
mod tests {
    use super::destructive_subcommand;

    fn judged(line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, rest) = words.split_first().expect("a command");
        destructive_subcommand(name, rest).is_some()
    }

    #[test]
    fn unknown_tool_deleting_subcommand_needs_a_signal() {
        assert!(judged("zzchat team delete engineering --confirm"));
        assert!(judged(
            "bench --site erp.acme.com drop-site erp.acme.com --force"
        ));
        assert!(judged(
            "faas-cli remove -f stack.yml --gateway https://faas.prod.acme.io"
        ));
        assert!(judged(
            "step ca revoke 2d1f --ca-url https://ca.acme.internal"
        ));
        assert!(judged("zzcli projects delete app -o Production"));
        assert!(judged("dsmc delete archive /data/* -subdir=yes -noprompt"));
        assert!(!judged("ollama2 rm llama3"));
        assert!(!judged("avdtool delete avd -n test"));
    }

    #[test]
    fn strong_verbs_stand_alone_but_not_for_caches_or_previews() {
        assert!(judged("zzcli run-history wipe"));
        assert!(judged("mt2 -f /dev/nst0 erase"));
        assert!(!judged("zzcli cache purge"));
        assert!(!judged("zzcli purge --dry-run"));
        assert!(!judged("zzcli show purge-me"));
    }

    #[test]
    fn modelled_and_local_tools_keep_their_own_answer() {
        assert!(!judged("poetry env remove --all"));
        assert!(!judged("kind delete cluster --name dev"));
        assert!(!judged("./scripts/x.sh delete --force"));
    }

    #[test]
    fn name_lists_are_sorted_for_binary_search() {
        assert!(super::LOCAL_TOOLS.windows(2).all(|p| p[0] < p[1]));
        assert!(super::STDIN_DATA_TOOLS.windows(2).all(|p| p[0] < p[1]));
    }

    #[test]
    fn production_is_a_whole_word_part() {
        assert!(judged("zzcli delete app --env billing-prod"));
        assert!(!judged("zzcli delete product-42"));
        assert!(!judged("zzcli delete app --server localhost:8080"));
    }
}
