//! Tools whose danger lives in their arguments, judged from the parsed arguments: HTTP
//! methods (`curl -X DELETE`, `wget --method`, `gh api --method`, httpie's `http DELETE`),
//! framework database tasks (`rails db:drop`, with production markers), process killers
//! whose selection is broad (`pkill -u`, a match-everything pattern, `kill $(pgrep -u …)`);
//! and the judgement of variables that name programs (`GIT_EDITOR=true`, `PATH=~/.local/bin:…`),
//! so harmless values stay harmless and hijacks do not.

// `argv` (the whole command) and `args` (its arguments) are this module's vocabulary, as in
// `resolve.rs`.
#![allow(clippy::similar_names)]

use crate::deferred::scan;
use crate::interp::{Lang, SqlRisk};
use crate::model::{BlastRadius, Channel, Class, ExecutedCommand, Flow, FlowSink, Verdict};
use crate::targets::Cwd;
use crate::taxonomy::{self, Args, ids};
use crate::walk::{Producer, Scope, Walker, Word, WordShape};

/// Rails/rake tasks that drop, reset, purge or reload the database.
const DB_RESET_TASKS: &[&str] = &[
    "db:drop",
    "db:drop:all",
    "db:reset",
    "db:purge",
    "db:purge:all",
    "db:schema:load",
    "db:structure:load",
    "db:truncate_all",
    "db:seed:replant",
    "db:setup",
    "db:migrate:reset",
    "db:test:purge",
];

/// Other frameworks' schema-destroying tasks: `(tool, subcommand words, required flag)`. The
/// tool is matched by basename anywhere on the line (`python manage.py`, `npx prisma`,
/// `php artisan`), the words right after it.
const FRAMEWORK_TASKS: &[(&str, &[&str], Option<&str>)] = &[
    ("manage.py", &["flush"], None),
    ("manage.py", &["reset_db"], None),
    ("django-admin", &["flush"], None),
    ("artisan", &["migrate:fresh"], None),
    ("artisan", &["migrate:reset"], None),
    ("artisan", &["migrate:refresh"], None),
    ("artisan", &["db:wipe"], None),
    ("prisma", &["migrate", "reset"], None),
    ("prisma", &["db", "push"], Some("--force-reset")),
    ("prisma", &["db", "push"], Some("--accept-data-loss")),
    ("sequelize", &["db:drop"], None),
    ("sequelize-cli", &["db:drop"], None),
    ("sequelize", &["db:migrate:undo:all"], None),
    ("typeorm", &["schema:drop"], None),
    ("typeorm-ts-node-commonjs", &["schema:drop"], None),
    ("knex", &["migrate:rollback"], Some("--all")),
    ("alembic", &["downgrade", "base"], None),
    ("flyway", &["clean"], None),
    ("liquibase", &["dropAll"], None),
    ("liquibase", &["drop-all"], None),
    ("mix", &["ecto.drop"], None),
    ("mix", &["ecto.reset"], None),
    ("mix", &["ecto.rollback"], Some("--all")),
    // Django: unapplying every migration of an app drops its tables.
    ("manage.py", &["migrate", "*", "zero"], None),
    ("manage.py", &["migrate", "zero"], None),
    ("django-admin", &["migrate", "*", "zero"], None),
    ("manage.py", &["sqlflush"], None),
    ("supabase", &["db", "reset"], None),
    ("drizzle-kit", &["drop"], None),
    ("drizzle-kit", &["push"], Some("--force")),
    ("dbmate", &["drop"], None),
    ("dbmate", &["rollback"], None),
    ("dbmate", &["down"], None),
    ("goose", &["reset"], None),
    ("goose", &["down-to", "0"], None),
    ("migrate", &["drop"], None),
    ("migrate", &["down"], Some("-all")),
    ("sqlx", &["database", "drop"], None),
    ("sqlx", &["database", "reset"], None),
    ("sqlx", &["db", "drop"], None),
    ("sqlx", &["db", "reset"], None),
    ("diesel", &["database", "reset"], None),
    ("diesel", &["database", "drop"], None),
    ("diesel", &["migration", "redo"], Some("--all")),
    ("diesel", &["migration", "revert"], Some("--all")),
    ("wp", &["db", "reset"], None),
    ("wp", &["db", "drop"], None),
    ("wp", &["db", "clean"], None),
    ("wp", &["site", "empty"], None),
    // Drupal's drush: the site's database dropped, the site reinstalled over it (a fresh
    // install empties the database), every entity of a type deleted.
    ("drush", &["sql:drop"], None),
    ("drush", &["sql-drop"], None),
    ("drush", &["site:install"], None),
    ("drush", &["site-install"], None),
    ("drush", &["si"], None),
    ("drush", &["entity:delete"], None),
    ("drush", &["edel"], None),
    // Magento's `bin/magento setup:uninstall` drops the store's database; `setup:rollback`
    // overwrites code, media or database with a backup.
    ("magento", &["setup:uninstall"], None),
    ("magento", &["setup:rollback"], None),
    ("flask", &["db", "downgrade", "base"], None),
    ("hasura", &["migrate", "apply"], Some("--down")),
    ("atlas", &["schema", "clean"], None),
    ("prisma", &["migrate", "reset"], None),
    ("typeorm", &["migration:revert"], None),
    ("mikro-orm", &["schema:drop"], None),
    ("mikro-orm", &["schema:fresh"], None),
    ("mikro-orm", &["migration:fresh"], None),
    ("knex", &["migrate:down"], Some("--all")),
    ("sequelize", &["db:migrate:undo:all"], None),
    ("sequelize-cli", &["db:migrate:undo:all"], None),
    ("yii", &["migrate/fresh"], None),
    ("yii", &["migrate/down"], Some("all")),
    ("console", &["doctrine:database:drop"], None),
    ("console", &["doctrine:schema:drop"], None),
    ("influx", &["bucket", "delete"], None),
    ("fauna", &["delete-database"], None),
    // Entity Framework Core: `dotnet ef database drop` (also the `dotnet-ef` tool).
    ("dotnet", &["ef", "database", "drop"], None),
    ("dotnet-ef", &["database", "drop"], None),
    // dbt: `--full-refresh` drops and rebuilds incremental models and seeds (their history
    // is gone); which warehouse is the target's (`--target prod`).
    ("dbt", &["run"], Some("--full-refresh")),
    ("dbt", &["build"], Some("--full-refresh")),
    ("dbt", &["seed"], Some("--full-refresh")),
];

/// Framework verbs that run a user-defined macro by name (`dbt run-operation MACRO`): the
/// macro's code is the project's, but its name says what it is for, and a destructive verb
/// there (`drop_old_relations`, `purge_dev_schemas`) is a task that drops data, judged where
/// it runs like the framework's own resets. `(tool, verb, value options of the verb)`.
const MACRO_TASKS: &[(&str, &str, &[&str])] = &[(
    "dbt",
    "run-operation",
    &[
        "--args",
        "--target",
        "-t",
        "--profile",
        "--profiles-dir",
        "--project-dir",
        "--vars",
        "--target-path",
        "--log-path",
    ],
)];

/// The leading word of a macro name that makes it a destructive task.
const DESTRUCTIVE_MACRO_VERBS: &[&str] = &[
    "drop", "truncate", "purge", "delete", "wipe", "destroy", "nuke", "clean", "cleanup", "remove",
    "reset",
];

/// `dbt run-operation drop_old_relations`: see [`MACRO_TASKS`]. `rest` is what follows the
/// tool.
fn destructive_macro(tool: &str, rest: &[&str]) -> bool {
    MACRO_TASKS.iter().any(|(t, verb, values)| {
        if *t != tool {
            return false;
        }
        let Some(at) = rest.iter().position(|w| w == verb) else {
            return false;
        };
        let mut words = rest[at + 1..].iter();
        let macro_name = loop {
            let Some(w) = words.next() else { return false };
            if values.contains(w) {
                words.next();
            } else if !w.starts_with('-') {
                break *w;
            }
        };
        let first = macro_name
            .split(['_', '-', '.'])
            .find(|p| !p.is_empty())
            .unwrap_or("")
            .to_ascii_lowercase();
        DESTRUCTIVE_MACRO_VERBS.contains(&first.as_str())
    })
}

/// Words that put a framework task on the production database.
fn is_production_marker(word: &str) -> bool {
    matches!(
        word.split_once('='),
        Some(
            ("RAILS_ENV" | "RACK_ENV" | "APP_ENV", "production" | "prod")
                | ("DISABLE_DATABASE_ENVIRONMENT_CHECK", "1" | "true")
        )
    ) || matches!(word, "--environment=production" | "-eproduction")
}

/// Largest requirements or constraints file read for its sources (see `pip_sources`).
const MAX_REQUIREMENTS: u64 = 256 << 10;

/// A site alias naming production (drush's and wp-cli's `@prod`, `@live`, `@site.prod`,
/// wp-cli's `--ssh=prod` or `--ssh=deploy@prod-web.acme.com/var/www`): the task runs against
/// that site's database.
fn production_site_alias(word: &str) -> bool {
    if let Some(alias) = word.strip_prefix('@') {
        let last = alias.rsplit('.').next().unwrap_or(alias);
        return matches!(last, "prod" | "production" | "live");
    }
    // `--ssh=[user@]host[:port][/path]`: the host's name parts.
    word.strip_prefix("--ssh=").is_some_and(|target| {
        let host = target.rsplit('@').next().unwrap_or(target);
        let host = host.split(['/', ':']).next().unwrap_or(host);
        crate::deploy::names_production(host)
    })
}

/// `wp user create NAME MAIL --role=administrator`, `wp user set-role|add-role U
/// administrator`, `wp super-admin add U`, `drush user:role:add administrator U`, against a
/// production site alias (see [`production_site_alias`]): a new administrator of the live
/// site — a backdoor account as often as a colleague's (`web.admin_grant_production`). On a
/// local development site it is ordinary setup.
fn admin_grant_on_production(name: &str, words: &[Word]) -> bool {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    if !texts.iter().any(|t| production_site_alias(t)) {
        return false;
    }
    let operands: Vec<&str> = texts
        .iter()
        .copied()
        .filter(|t| !t.starts_with('-') && !t.starts_with('@'))
        .collect();
    let admin = |t: &&str| matches!(*t, "administrator" | "admin" | "super-admin");
    match (name, operands.as_slice()) {
        ("wp", ["user", "create", ..]) => texts
            .iter()
            .any(|t| t.strip_prefix("--role=").is_some_and(|r| admin(&r))),
        ("wp", ["user", "set-role" | "add-role", rest @ ..]) => rest.iter().any(admin),
        ("wp", ["super-admin", "add", ..]) => true,
        ("drush", [verb, rest @ ..]) => {
            matches!(*verb, "user:role:add" | "user-add-role" | "urol") && rest.iter().any(admin)
        }
        _ => false,
    }
}

/// Processes a session depends on: killing every one of them by name takes down the machine's
/// services, the user's session or the agent itself (Claude Code, Gemini CLI run on node).
const CRITICAL_PROCESSES: &[&str] = &[
    "init",
    "systemd",
    "launchd",
    "sshd",
    "ssh",
    "dockerd",
    "containerd",
    "kubelet",
    "Xorg",
    "Xwayland",
    "gnome-shell",
    "plasmashell",
    "WindowServer",
    "loginwindow",
    "Finder",
    "Dock",
    "login",
    "sudo",
    "su",
    "bash",
    "sh",
    "zsh",
    "fish",
    "dash",
    "tmux",
    "screen",
    "node",
    "python",
    "python3",
    "ruby",
    "java",
    "code",
    "cursor",
    "claude",
    "codex",
    "gemini",
    "copilot",
    "postgres",
    "mysqld",
    "redis-server",
    "nginx",
    "dbus-daemon",
    "NetworkManager",
    "polkitd",
    "cron",
    "agetty",
    "getty",
    "kthreadd",
    // Data and system services: killing one by name loses in-flight writes or locks the
    // user out (databases, queues, caches, search, coordination, container and cluster
    // daemons, web servers in front of production, schedulers, logging, VPN and DNS).
    "postmaster",
    "pgbouncer",
    "mariadbd",
    "mysqld_safe",
    "mongod",
    "mongos",
    "redis",
    "redis-sentinel",
    "valkey-server",
    "memcached",
    "elasticsearch",
    "opensearch",
    "kafka",
    "zookeeper",
    "rabbitmq-server",
    "beam.smp",
    "etcd",
    "consul",
    "vault",
    "nomad",
    "clickhouse-server",
    "cassandra",
    "influxd",
    "minio",
    "sqlservr",
    "oracle",
    "tnslsnr",
    "k3s",
    "kube-apiserver",
    "kube-proxy",
    "kube-scheduler",
    "kube-controller-manager",
    "crio",
    "containerd-shim",
    "containerd-shim-runc-v2",
    "docker-proxy",
    "podman",
    "httpd",
    "apache2",
    "caddy",
    "traefik",
    "haproxy",
    "envoy",
    "php-fpm",
    "supervisord",
    "systemd-journald",
    "systemd-logind",
    "systemd-resolved",
    "rsyslogd",
    "syslog-ng",
    "crond",
    "atd",
    "chronyd",
    "ntpd",
    "dnsmasq",
    "named",
    "tailscaled",
    "openvpn",
    "wg-quick",
    "gpg-agent",
    "ssh-agent",
    "hookgate",
    "aider",
];

/// TCP ports of the services in [`CRITICAL_PROCESSES`]: selecting the process that listens
/// on one (`lsof -t -i:5432`, `fuser -k 6379/tcp`) selects the service.
const SERVICE_PORTS: &[u16] = &[
    22, 1433, 1521, 2181, 2375, 2376, 2379, 2380, 3306, 5432, 5672, 6379, 6443, 8086, 8200, 8500,
    9042, 9092, 9200, 9300, 10250, 11211, 15672, 26379, 27017, 27018,
];

/// The process name a pgrep/pkill/grep pattern selects, when it is one name: `^postgres$`,
/// `[m]ysqld` (the grep trick that hides grep itself), `/usr/sbin/sshd`, `postgres:`,
/// `redis-server.*`. `None` for a pattern with several words (`node server.js`, `postgres
/// -D ./data`: one specific instance) or regex alternatives.
fn pattern_name(pattern: &str) -> Option<String> {
    let p = pattern.trim().trim_start_matches('^').trim_end_matches('$');
    let p = p.strip_suffix(".*").unwrap_or(p).trim_end_matches(':');
    // `java.*elasticsearch`: the program after the interpreter names what runs.
    let p = p.rsplit(".*").next().unwrap_or(p);
    if p.is_empty() || p.contains(char::is_whitespace) || p.contains(['|', '(', ')', '*', '?']) {
        return None;
    }
    // `[m]ysqld` → `mysqld` (a one-character class stands for that character).
    let mut name = String::with_capacity(p.len());
    let mut rest = p;
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']')? + open;
        let class = &rest[open + 1..close];
        if class.chars().count() != 1 {
            return None;
        }
        name.push_str(&rest[..open]);
        name.push_str(class);
        rest = &rest[close + 1..];
    }
    name.push_str(rest);
    let base = name.rsplit('/').next().unwrap_or(&name);
    Some(base.trim_start_matches('\\').to_owned())
}

/// True when `pattern` selects a process in [`CRITICAL_PROCESSES`] by its name: the name
/// itself, a prefix of one of at least four characters (pgrep and pkill match anywhere in
/// the name, so `pgrep mongo` selects `mongod`), or any of hookgate's own binaries.
fn names_critical(pattern: &str) -> bool {
    // An alternation (`containerd|dockerd`, `^(sshd|cron)$`) selects each alternative.
    let bare = pattern.trim().trim_start_matches('^').trim_end_matches('$');
    let bare = bare
        .strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .unwrap_or(bare);
    if bare.contains('|') && !bare.contains(['(', ')']) {
        return bare.split('|').any(names_critical);
    }
    pattern_name(pattern).is_some_and(|n| {
        CRITICAL_PROCESSES.contains(&n.as_str())
            || n.starts_with("hookgate")
            || (n.chars().count() >= 4 && CRITICAL_PROCESSES.iter().any(|c| c.starts_with(&n)))
    })
}

/// A PID file a system service writes (`/run/sshd.pid`, `/var/run/nginx.pid`,
/// `/run/postgresql/14-main.pid`, postgres's `postmaster.pid`); a workspace one
/// (`tmp/pids/server.pid`) is the project's own dev server.
fn system_pidfile(path: &str) -> bool {
    let pid_extension = std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pid"));
    ((path.starts_with("/run/") || path.starts_with("/var/run/")) && pid_extension)
        || path.ends_with("/postmaster.pid")
}

/// True when `port` (`5432`, `:5432`, `tcp:5432`, `5432/tcp`) is a service's.
fn service_port(spec: &str) -> bool {
    let spec = spec.rsplit(':').next().unwrap_or(spec);
    let spec = spec.split('/').next().unwrap_or(spec);
    spec.parse::<u16>()
        .is_ok_and(|p| SERVICE_PORTS.contains(&p))
}

/// pgrep/pkill/killall options that select processes by owner, group, session, terminal or
/// parent rather than by name.
const OWNER_SELECTORS: &[&str] = &[
    "-u",
    "-U",
    "-G",
    "-g",
    "-s",
    "-t",
    "-P",
    "--user",
    "--euid",
    "--uid",
    "--group",
    "--pgroup",
    "--session",
    "--terminal",
    "--parent",
];

/// Variables that make the dynamic loader inject libraries into every program started.
const PRELOAD_VARIABLES: &[&str] = &["LD_PRELOAD", "DYLD_INSERT_LIBRARIES"];

/// Directories the system's package manager owns: only root writes there, so a library
/// in them is an installed one (`libjemalloc.so.2`, `libasan.so`), not code the agent wrote.
const SYSTEM_LIBRARY_DIRS: &[&str] = &[
    "/lib",
    "/lib64",
    "/lib32",
    "/usr/lib",
    "/usr/lib64",
    "/usr/lib32",
    "/usr/libexec",
    "/opt/homebrew/lib",
    "/opt/homebrew/opt",
];

/// `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2`: every entry (separated by `:`
/// or blanks, as the loader reads them) is an absolute, normalised path below a system
/// library directory. A bare name (searched for), a relative path, `..`, or any other
/// directory (`/tmp/x.so`, the workspace, `/usr/local/lib`) is not.
fn system_libraries(value: &str) -> bool {
    let mut entries = value
        .split([':', ' ', '\t'])
        .filter(|e| !e.is_empty())
        .peekable();
    entries.peek().is_some()
        && entries.all(|entry| {
            let path = std::path::Path::new(entry);
            path.is_absolute()
                && path.components().all(|c| {
                    matches!(
                        c,
                        std::path::Component::RootDir | std::path::Component::Normal(_)
                    )
                })
                && SYSTEM_LIBRARY_DIRS
                    .iter()
                    .any(|dir| path.starts_with(dir) && path != std::path::Path::new(dir))
        })
}

/// Verbs of programs that take a command line as a variable's value (editors, pagers, ssh).
const PROGRAM_VARIABLES: &[&str] = &[
    "BROWSER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
];

/// A program meant for an editor, pager, browser, askpass or ssh setting (by basename):
/// [`ROLE_PROGRAMS`] and git's own helpers.
pub(crate) fn is_role_program(base: &str) -> bool {
    ROLE_PROGRAMS.contains(&base) || base.starts_with("git-")
}

/// Programs that are what such a variable is meant to name: editors, pagers, ssh, no-ops.
/// The value is still parsed and judged as code; this list only decides that a value whose
/// every part is ordinary work is not a hijack.
const ROLE_PROGRAMS: &[&str] = &[
    "firefox",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "xdg-open",
    "open",
    "w3m",
    "lynx",
    "true",
    ":",
    "false",
    "cat",
    "less",
    "more",
    "most",
    "bat",
    "batcat",
    "delta",
    "diff-so-fancy",
    "vim",
    "vi",
    "nvim",
    "nano",
    "pico",
    "emacs",
    "emacsclient",
    "code",
    "code-insiders",
    "codium",
    "cursor",
    "windsurf",
    "subl",
    "mate",
    "micro",
    "hx",
    "helix",
    "kak",
    "ed",
    "ex",
    "gedit",
    "kate",
    "zed",
    "idea",
    "ssh",
    "sed",
    "head",
    "tail",
    "tee",
    "echo",
    "git",
    "gpg",
    "gpg2",
    "ssh-askpass",
    "ksshaskpass",
    "tig",
    "meld",
    "vimdiff",
    "nvimdiff",
    "kdiff3",
    "opendiff",
    "bcompare",
    "xdg-open",
    "open",
    "env",
    "mg",
    "jed",
    "joe",
    "ne",
    "nvr",
    "gvim",
    "gh",
    "glab",
    "git-credential-manager",
    "git-credential-oauth",
    "gcloud",
    "aws",
    "mvim",
];

/// The shell words of a line are read by the tools' grammars ([`crate::cli`]) as the text
/// the tool receives; the index each grammar item keeps leads back to the word's exactness.
impl AsRef<str> for Word {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

/// Whether a URL's path names a deleting action: a segment whose words include one of the
/// verbs RPC-style APIs use for it (see [`names_deleting_verb`]).
fn deleting_action_path(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let path = rest.split(['?', '#']).next().unwrap_or("");
    path.split('/')
        .skip(1)
        .filter(|s| literal_segment(s))
        .any(names_deleting_verb)
}

/// Whether a URL path segment is literal text: a part known only at run time keeps its
/// source text in an inexact word (`$ID`, xargs' `{stdin}`, a command substitution), and
/// such a segment says nothing — but the literal segments beside it still do
/// (`…/users/{stdin}/ban` fed by `xargs -I{}` is a ban of each listed user).
fn literal_segment(segment: &str) -> bool {
    !segment.contains(['$', '{', '}', '`', '*', '('])
}

/// The admin-action vocabulary: `net.http_admin_action`'s `verb_any` in taxonomy.toml.
fn admin_verbs() -> &'static [&'static str] {
    ids::NET_HTTP_ADMIN_ACTION
        .def()
        .matcher
        .as_ref()
        .map_or(&[], |m| m.verb_any)
}

/// Whether an RPC or path name (`admin.users.remove`, `mute_all`, `Manager.ResetToDefaults`,
/// `PurgeTenant`) has an admin verb as the first or last word of one of its dotted parts.
fn names_admin_verb(name: &str) -> bool {
    name.split('.')
        .any(|part| crate::taxonomy::names_verb(part.trim_matches('_'), admin_verbs()))
}

/// Whether a URL's path (after the host, before `?`/`#`) has a segment naming an admin verb.
fn admin_action_path(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let path = rest.split(['?', '#']).next().unwrap_or("");
    path.split('/')
        .skip(1)
        .filter(|s| literal_segment(s))
        .any(names_admin_verb)
}

/// Whether a URL's query names an admin action as its operation parameter, the RPC style of
/// Solr's admin API (`/solr/admin/collections?action=DELETE&name=catalog`, CoreAdmin's
/// `action=UNLOAD`), and of APIs with `op=`/`cmd=`/`command=`: such a request acts whatever
/// its method (these APIs take GET).
fn query_action(url: &str) -> bool {
    url_query(url).is_some_and(|q| {
        q.split('&').any(|pair| {
            pair.split_once('=').is_some_and(|(k, v)| {
                matches!(
                    k.to_ascii_lowercase().as_str(),
                    "action" | "op" | "cmd" | "command" | "operation"
                ) && (names_admin_verb(v) || v.eq_ignore_ascii_case("unload"))
            })
        })
    })
}

/// Payment providers' live API hosts — the ones whose sandbox has a host of its own, so the
/// host alone says real money (`api-m.paypal.com` vs `api-m.sandbox.paypal.com`,
/// `connect.squareup.com` vs `connect.squareupsandbox.com`).
const LIVE_PAYMENT_HOSTS: &[&str] = &[
    "api-m.paypal.com",
    "api.paypal.com",
    "connect.squareup.com",
    "api.braintreegateway.com",
    "payments.braintree-api.com",
    "api.authorize.net",
    "api.checkout.com",
    "checkout-live.adyen.com",
    "pal-live.adyen.com",
    "management-live.adyen.com",
    "api.gocardless.com",
    "api.razorpay.com",
    "api.mollie.com",
    "api.wise.com",
    "api.transferwise.com",
    "api.plaid.com",
];

/// Whether a request writes to a payment provider's live API (`pay.live_api_write`): a
/// write (a method other than GET/HEAD, or a body without one) to a [`LIVE_PAYMENT_HOSTS`]
/// host, or to Stripe with a live secret key spelled on the line (`-u sk_live_…:`; Stripe's
/// test mode shares the host, so only the key says).
fn live_payment_write(url: &str, method: Option<&str>, has_body: bool, words: &[Word]) -> bool {
    let writes = method.map_or(has_body, |m| {
        !m.eq_ignore_ascii_case("GET") && !m.eq_ignore_ascii_case("HEAD")
    });
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit('@').next().unwrap_or(host).to_ascii_lowercase();
    let host = host.split(':').next().unwrap_or(&host).to_owned();
    let live_host =
        LIVE_PAYMENT_HOSTS.contains(&host.as_str()) || host.ends_with("-live.adyenpayments.com");
    let stripe_live = host == "api.stripe.com"
        && words.iter().any(|w| {
            w.text
                .split([':', ' ', '='])
                .any(|t| t.starts_with("sk_live_") || t.starts_with("rk_live_"))
        });
    writes && (live_host || stripe_live)
}

/// The query string of a URL, if it has one.
fn url_query(url: &str) -> Option<&str> {
    url.split('#').next()?.split_once('?').map(|(_, q)| q)
}

/// Whether form or query text is a PAN-OS XML API call that writes: `type=commit`,
/// `type=config` with a writing `action`, or `type=op` whose command's element names an admin
/// verb (`<request><restart><system/>…`). `show`/`get` configs and other ops are reads.
fn panos_config_write(query: &str) -> bool {
    let mut kind = None;
    let mut action = None;
    let mut cmd = None;
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match k {
            "type" => kind = Some(v),
            "action" => action = Some(v),
            "cmd" => cmd = Some(percent_decode(v)),
            _ => {}
        }
    }
    match kind {
        Some("commit") => true,
        Some("config") => action.is_some_and(|a| {
            matches!(
                a,
                "delete" | "set" | "edit" | "move" | "rename" | "override" | "clone" | "multi-move"
            )
        }),
        Some("op") => cmd.is_some_and(|c| {
            c.split('<')
                .filter_map(|e| e.split(['>', ' ', '/']).next())
                .any(|e| !e.is_empty() && names_admin_verb(e))
        }),
        _ => false,
    }
}

/// A gRPC call (`grpcurl [options] ADDRESS SERVICE/METHOD`) whose method names an admin verb
/// (`admin.v1.Admin/PurgeTenant`, `DeleteTenant`), to a host that is not this machine.
/// `list`/`describe` and calls of other methods pass. Options are Go `flag` options: the ones
/// taking a value are skipped with it.
fn grpc_admin_call(words: &[Word]) -> Option<Verdict> {
    const VALUE_OPTIONS: &[&str] = &[
        "d",
        "H",
        "rpc-header",
        "reflect-header",
        "proto",
        "import-path",
        "protoset",
        "authority",
        "servername",
        "cert",
        "key",
        "cacert",
        "connect-timeout",
        "keepalive-time",
        "max-time",
        "max-msg-sz",
        "format",
        "user-agent",
        "protoset-out",
        "expand-headers",
    ];
    let mut operands: Vec<&Word> = Vec::new();
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
            continue;
        }
        if let Some(opt) = w
            .text
            .strip_prefix("--")
            .or_else(|| w.text.strip_prefix('-'))
        {
            skip = !opt.contains('=') && VALUE_OPTIONS.contains(&opt);
            continue;
        }
        operands.push(w);
    }
    let [address, method, ..] = operands.as_slice() else {
        return None;
    };
    if matches!(method.text.as_str(), "list" | "describe") {
        return None;
    }
    let name = method.text.rsplit(['/', '.']).next().unwrap_or("");
    if !method.exact || !names_admin_verb(name) {
        return None;
    }
    let host = format!("http://{}", address.text);
    let local = address.exact && is_loopback_url(&host, false);
    (!local).then(|| ids::NET_HTTP_ADMIN_ACTION.verdict())
}

/// FoundationDB's shell runs the `;`-separated commands of `--exec TEXT` (after `writemode
/// on`): `clear KEY`, `clearrange BEGIN END` (`clearrange "" \xff` empties the database),
/// `configure new …` (a new, empty database), `tenant delete`, and `kill`, `exclude`,
/// `suspend` (processes taken out of the cluster) are `db.store_cli_delete`; `status`, `get`,
/// `getrange` and the rest only read. A command text known only at run time is not read here.
fn fdbcli_exec(words: &[Word]) -> Option<Verdict> {
    let mut texts = Vec::new();
    let mut iter = words.iter();
    while let Some(w) = iter.next() {
        if w.text == "--exec" || w.text == "-e" {
            texts.extend(iter.next().filter(|w| w.exact));
        } else if w.exact && w.text.starts_with("--exec=") {
            texts.push(w);
        }
    }
    let destroys = |statement: &str| {
        let mut tokens = statement.split_whitespace().map(str::to_ascii_lowercase);
        match tokens.next().as_deref() {
            Some("clear" | "clearrange" | "kill" | "exclude" | "suspend") => true,
            Some("configure") => tokens.any(|t| t == "new"),
            Some("tenant") => tokens.next().as_deref() == Some("delete"),
            _ => false,
        }
    };
    texts
        .iter()
        .map(|w| w.text.strip_prefix("--exec=").unwrap_or(&w.text))
        .any(|text| text.split(';').any(destroys))
        .then(|| ids::DB_STORE_CLI_DELETE.verdict())
}

/// Whether an action's name (`doDelete`, `purge_cache`, `projectDelete`, `delete-stack`)
/// has, among its words (split at `_`, `-`, `.`, `:` and lower-to-upper case changes), a verb
/// APIs use for a deletion. Shared by URL paths and GraphQL mutations so both read the same
/// vocabulary.
fn names_deleting_verb(name: &str) -> bool {
    // The nouns of the same acts name them as surely (`/api/2/deletions/users`,
    // `POST /removals`, an erasure request).
    const VERBS: &[&str] = &[
        "delete",
        "destroy",
        "purge",
        "remove",
        "drop",
        "wipe",
        "terminate",
        "truncate",
        "erase",
        "deletion",
        "deletions",
        "removal",
        "removals",
        "erasure",
        "erasures",
    ];
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ':') {
            words.push(std::mem::take(&mut cur));
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase();
        cur.extend(c.to_lowercase());
    }
    words.push(cur);
    words.iter().any(|w| VERBS.contains(&w.as_str()))
}

/// The GraphQL documents a request body may carry: a JSON object's `query` (or each of a
/// batch's), a form field `query=…` (percent-decoded), or the body itself.
fn graphql_documents(body: &str) -> Vec<String> {
    let t = body.trim_start();
    if t.starts_with(['{', '[']) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(t) {
            let query = |o: &serde_json::Value| {
                o.get("query")
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_owned)
            };
            return match &v {
                serde_json::Value::Array(batch) => batch.iter().filter_map(query).collect(),
                other => query(other).into_iter().collect(),
            };
        }
    } else if let Some(q) = t.strip_prefix("query=") {
        return vec![percent_decode(q.split('&').next().unwrap_or(q))];
    }
    vec![t.to_owned()]
}

/// `application/x-www-form-urlencoded` decoding (`+` is a space; a bad escape stays as is).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a GraphQL document runs a mutation whose top-level field names a deletion
/// (`mutation { deleteRepository(input: {…}) { clientMutationId } }`, `mutation M($id: ID!)
/// { projectDelete(id: $id) { id } }`, an alias `gone: purgeCache`): one endpoint carries
/// every action, so the operation's fields are what a DELETE's method would say. Read with a
/// small lexer (strings, block strings and comments skipped), not a search of the text: a
/// query that only mentions `delete` in an argument or a nested field is not a deletion.
fn graphql_deletes(doc: &str) -> bool {
    #[derive(PartialEq)]
    enum Tok<'a> {
        Name(&'a str),
        Punct(char),
    }
    let mut toks = Vec::new();
    let bytes = doc.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'#' => {
                while bytes.get(i).is_some_and(|c| *c != b'\n') {
                    i += 1;
                }
            }
            b'"' => {
                if bytes.get(i..i + 3) == Some(b"\"\"\"") {
                    i += 3;
                    while i < bytes.len() && bytes.get(i..i + 3) != Some(b"\"\"\"") {
                        i += if bytes.get(i) == Some(&b'\\') { 2 } else { 1 };
                    }
                    i += 3;
                } else {
                    i += 1;
                    while let Some(&c) = bytes.get(i) {
                        i += 1;
                        match c {
                            b'\\' => i += 1,
                            b'"' | b'\n' => break,
                            _ => {}
                        }
                    }
                }
            }
            _ if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while bytes
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    i += 1;
                }
                toks.push(Tok::Name(doc.get(start..i).unwrap_or("")));
            }
            b'{' | b'}' | b'(' | b')' | b':' => {
                toks.push(Tok::Punct(char::from(b)));
                i += 1;
            }
            _ => i += 1,
        }
    }
    let (mut braces, mut parens) = (0usize, 0usize);
    let mut in_mutation = false;
    let mut k = 0;
    while let Some(t) = toks.get(k) {
        k += 1;
        match t {
            Tok::Punct('{') => braces += 1,
            Tok::Punct('}') => {
                braces = braces.saturating_sub(1);
                if braces == 0 {
                    in_mutation = false;
                }
            }
            Tok::Punct('(') => parens += 1,
            Tok::Punct(')') => parens = parens.saturating_sub(1),
            Tok::Name("mutation") if braces == 0 && parens == 0 => in_mutation = true,
            Tok::Name(name) if in_mutation && braces == 1 && parens == 0 => {
                // `alias: field` — the field is the name after the colon.
                let field = if toks.get(k) == Some(&Tok::Punct(':')) {
                    k += 1;
                    match toks.get(k) {
                        Some(Tok::Name(f)) => {
                            k += 1;
                            *f
                        }
                        _ => name,
                    }
                } else {
                    name
                };
                if names_deleting_verb(field) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The rule for an HTTP request with `method` sent from interpreter code (`requests.delete`,
/// `fetch(u, {method: 'DELETE'})`): the shell clients' rule, with the same exception for a
/// request whose constant URL is this machine (a dev server). A URL known only at run time
/// keeps the rule.
pub(crate) fn code_http_verdict(method: &str, url: Option<&str>) -> Option<Verdict> {
    let verdict = method_verdict(method)?;
    let local = url.is_some_and(|u| is_loopback_url(u, false));
    (!local).then_some(verdict)
}

/// Where a raw socket client connects: the host and port its operands give (`nc h 6379`,
/// `telnet h 11211`, `socat - TCP:h:6379`, `openssl s_client -connect h:443`). `None` when
/// the tool is not a socket client or listens instead (`nc -l`).
struct SocketDest {
    host: Option<String>,
    port: Option<u16>,
}

fn socket_destination(name: &str, argv: &[Word]) -> Option<SocketDest> {
    let args = argv.get(1..).unwrap_or(&[]);
    let host_port = |hp: &str| {
        let (h, p) = hp.rsplit_once(':')?;
        Some(SocketDest {
            host: Some(h.trim_matches(['[', ']']).to_owned()),
            port: p.parse().ok(),
        })
    };
    match name {
        "nc" | "ncat" | "netcat" | "nc.traditional" | "nc.openbsd" | "cryptcat" | "telnet" => {
            // Options of the netcats and telnet that take a value (the source port `-p` is
            // not the destination).
            const VALUED: &str = "psiwqXxTOIMmPVWbel";
            let mut operands: Vec<&Word> = Vec::new();
            let mut it = args.iter();
            while let Some(w) = it.next() {
                let t = w.text.as_str();
                if t == "--" {
                    operands.extend(it.by_ref());
                    break;
                }
                if let Some(opts) = t.strip_prefix('-').filter(|o| !o.is_empty()) {
                    if opts.starts_with('-') {
                        if matches!(opts, "-listen") {
                            return None;
                        }
                        continue;
                    }
                    if opts.contains('l') && !opts.starts_with(|c| VALUED.contains(c) && c != 'l') {
                        return None;
                    }
                    if opts
                        .chars()
                        .last()
                        .is_some_and(|c| VALUED.contains(c) && c != 'l')
                    {
                        it.next();
                    }
                    continue;
                }
                operands.push(w);
            }
            let host = operands.first().map(|w| w.text.clone());
            let port = operands.get(1).and_then(|w| w.text.parse().ok());
            Some(SocketDest { host, port })
        }
        "socat" => args.iter().find_map(|w| {
            let (kind, rest) = w.text.split_once(':')?;
            let kind = kind.to_ascii_uppercase();
            if !(kind.starts_with("TCP") || kind.starts_with("OPENSSL") || kind == "SSL") {
                return None;
            }
            host_port(rest.split(',').next().unwrap_or(rest))
        }),
        "openssl" if args.first().is_some_and(|a| a.text == "s_client") => {
            let mut it = args.iter();
            let mut dest = SocketDest {
                host: None,
                port: Some(443),
            };
            while let Some(w) = it.next() {
                if w.text == "-connect" {
                    dest = it.next().and_then(|v| host_port(&v.text))?;
                }
            }
            Some(dest)
        }
        _ => None,
    }
}

/// Redis commands in text sent to its port: inline commands (`FLUSHALL`) one a line, and
/// RESP arrays (`*1`, `$8`, `FLUSHALL`) folded back into one command per array.
fn resp_commands(lines: &[&str]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut pending = 0usize;
    for l in lines {
        if let Some(n) = l.strip_prefix('*').and_then(|n| n.parse::<usize>().ok()) {
            out.push(Vec::new());
            pending = n;
        } else if l.starts_with('$') && pending > 0 {
        } else if pending > 0 {
            if let Some(c) = out.last_mut() {
                c.push((*l).to_owned());
            }
            pending -= 1;
        } else {
            let words: Vec<String> = l.split_whitespace().map(str::to_owned).collect();
            if !words.is_empty() {
                out.push(words);
            }
        }
    }
    out
}

/// A GitHub REST endpoint of one issue or pull request, or of one comment on them:
/// `repos/O/R/issues/N`, `repos/O/R/pulls/N`, `repos/O/R/issues/comments/ID`,
/// `repos/O/R/pulls/comments/ID` (a leading `/` allowed). A PATCH there edits what `gh
/// issue edit`/`gh pr edit` edit; the repository itself (`repos/O/R`: visibility, default
/// branch) and everything else are not here.
fn issue_endpoint(endpoint: &str) -> bool {
    let parts: Vec<&str> = endpoint.trim_start_matches('/').split('/').collect();
    let id = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let name = |s: &str| !s.is_empty() && !s.starts_with('.') && !s.contains(['?', '#']);
    match parts.as_slice() {
        ["repos", o, r, "issues" | "pulls", n]
        | ["repos", o, r, "issues" | "pulls", "comments", n] => name(o) && name(r) && id(n),
        _ => false,
    }
}

fn method_verdict(method: &str) -> Option<Verdict> {
    if method.eq_ignore_ascii_case("DELETE") {
        Some(ids::NET_HTTP_DELETE.verdict())
    } else if method.eq_ignore_ascii_case("PUT") || method.eq_ignore_ascii_case("PATCH") {
        Some(ids::NET_HTTP_OVERWRITE.verdict())
    } else {
        None
    }
}

/// [`method_verdict`] unless every destination is this machine: a DELETE/PUT/PATCH to a
/// loopback or dev host is local development (the agent's own dev server), not a remote
/// resource. Invariant: no destination (a URL known only at run time, none found), one that is
/// not loopback, or a way to reach another machine under a loopback name (`rerouted`: a proxy,
/// `--resolve`, `--connect-to`, a Unix socket such as the Docker daemon's, options read from a
/// file) keeps the method's rule.
fn remote_method_verdict(
    method: &str,
    rerouted: bool,
    urls: &[&Word],
    bare_port_is_local: bool,
) -> Option<Verdict> {
    let verdict = method_verdict(method)?;
    let local = !rerouted
        && !urls.is_empty()
        && urls.iter().all(|w| {
            w.exact && (is_loopback_url(&w.text, bare_port_is_local) || echo_service_url(&w.text))
        });
    (!local).then_some(verdict)
}

/// Public request-echo and fake-REST services, whose endpoints answer every method and keep
/// nothing (`curl -X DELETE https://httpbin.org/delete` shows what the client sends): a
/// method there deletes or replaces no one's data. Exact hosts only (a subdomain or a
/// look-alike is another service).
fn echo_service_url(url: &str) -> bool {
    const ECHO_HOSTS: &[&str] = &[
        "httpbin.org",
        "www.httpbin.org",
        "httpbingo.org",
        "postman-echo.com",
        "reqres.in",
        "jsonplaceholder.typicode.com",
        "dummyjson.com",
        "httpstat.us",
    ];
    (url.starts_with("https://") || url.starts_with("http://"))
        && crate::flow::url_host(url)
            .is_some_and(|h| ECHO_HOSTS.iter().any(|e| h.eq_ignore_ascii_case(e)))
}

/// The method, destinations and rerouting of an HTTP client's line, read with the tool's own
/// grammar ([`crate::cli`]): the method the tool uses (the last one given), every method an
/// ambiguous abbreviation may stand for (`curl --req DELETE`: an older curl, without
/// `--request-target`, reads `--request`), the URLs, and whether an option sends the request
/// somewhere its URL does not say.
struct HttpLine<'w> {
    method: Option<&'w str>,
    maybe_methods: Vec<&'w str>,
    urls: Vec<&'w Word>,
    rerouted: bool,
    /// Request bodies given on the line (`-d`, `--json`, gh's `-f query=…`): a GraphQL
    /// mutation among them names its action (see [`graphql_deletes`]).
    bodies: Vec<&'w str>,
    /// curl's `-T FILE`: the request is a file upload, which curl sends as a PUT by itself.
    uploads: bool,
    /// A body option of any spelling (`-d @f`, `-F`, `--json $X`): without `-X`, curl sends
    /// the request as a POST.
    has_body: bool,
    /// The request goes through a container engine's API socket (`--unix-socket
    /// /var/run/docker.sock`; a socket path known only at run time counts): there every
    /// write is the engine acting as root on the host.
    engine_socket: bool,
    /// The method a method-override header names (`-H 'X-HTTP-Method-Override: DELETE'`):
    /// frameworks that honour it (Rails, Laravel, Express's method-override, Google APIs,
    /// Azure) treat a POST carrying it as that method, so it is the request's method.
    method_override: Option<&'w str>,
}

/// The method a request header overrides the sent one with: `X-HTTP-Method-Override`,
/// `X-HTTP-Method`, `X-Method-Override` (names case-insensitive, as HTTP's are), for a
/// header given as `Name: value` (curl, wget, gh api) or httpie's `Name:value` item.
fn method_override(header: &str) -> Option<&str> {
    let (name, value) = header.split_once(':')?;
    // httpie's `name:=json` is a body field, not a header.
    if value.starts_with('=') {
        return None;
    }
    let value = value.trim();
    ([
        "x-http-method-override",
        "x-http-method",
        "x-method-override",
    ]
    .iter()
    .any(|n| name.trim().eq_ignore_ascii_case(n))
        && !value.is_empty())
    .then_some(value)
}

impl<'w> HttpLine<'w> {
    /// Reads `words` with `grammar`; `method`, `url` and `reroute` are the long names of the
    /// options that give the method, a URL and another way to the server.
    fn read(
        grammar: &crate::cli::Grammar,
        words: &'w [Word],
        method: &str,
        url: &str,
        reroute: &[&str],
    ) -> Self {
        use crate::cli::Word as W;
        let mut line = HttpLine {
            method: None,
            maybe_methods: Vec::new(),
            urls: Vec::new(),
            rerouted: false,
            bodies: Vec::new(),
            uploads: false,
            has_body: false,
            engine_socket: false,
            method_override: None,
        };
        for (at, item) in grammar.parse_indexed(words) {
            let Some(word) = words.get(at) else { continue };
            match item {
                W::Option {
                    long,
                    value,
                    expanded,
                    ..
                } => {
                    if BODY_OPTIONS.contains(&long) || matches!(long, "form" | "form-string") {
                        line.has_body = true;
                    }
                    if matches!(long, "unix-socket" | "abstract-unix-socket") {
                        line.engine_socket |= value
                            .filter(|_| word.exact && !expanded)
                            .is_none_or(is_engine_socket);
                    }
                    if long == "header"
                        && let Some(m) = value
                            .filter(|_| word.exact && !expanded)
                            .and_then(method_override)
                    {
                        line.method_override = Some(m);
                    }
                    if long == method {
                        line.method = value.filter(|_| word.exact && !expanded);
                    } else if long == "upload-file" {
                        line.uploads = true;
                    } else if let Some(body) = value.filter(|_| word.exact && !expanded)
                        && BODY_OPTIONS.contains(&long)
                    {
                        line.bodies.push(body);
                    } else if long == url {
                        line.urls.push(word);
                    } else if reroute.contains(&long) {
                        line.rerouted = true;
                    }
                }
                W::Operand(_) => line.urls.push(word),
                W::Rejected(text) => {
                    let name = text.strip_prefix("--").unwrap_or_default();
                    let candidates = grammar.ambiguous(name);
                    if candidates.iter().any(|o| o.long == method)
                        && candidates.iter().all(|o| o.takes_value)
                        && let Some(next) = words.get(at + 1).filter(|w| w.exact)
                    {
                        line.maybe_methods.push(&next.text);
                    }
                    line.rerouted |= candidates.iter().any(|o| reroute.contains(&o.long));
                }
            }
        }
        line
    }

    /// The worst verdict of the method and the ambiguous candidates towards these URLs. A
    /// POST to an action endpoint that deletes (`…/job/x/doDelete`, `…/zones/Z/purge_cache`,
    /// `…/projects/P/destroy`) is the deletion a DELETE would be: RPC-style APIs name the
    /// action in the path instead of the method.
    fn verdict(&self, bare_port_is_local: bool) -> Option<Verdict> {
        let post = match self.method {
            Some(m) => m.eq_ignore_ascii_case("POST"),
            None => self.has_body,
        };
        let action_delete = (self.method.is_some_and(|m| m.eq_ignore_ascii_case("POST"))
            && self.urls.iter().any(|w| deleting_action_path(&w.text)))
            || (post && self.bodies.iter().any(|b| batch_delete_body(b)))
            || self.graphql_delete();
        // `-X PUT` spelled out beside `-T` is the upload's own method: the request is the one
        // `curl -T FILE URL` sends (an artefact put on a file server), judged as that. The
        // file itself is judged by the data flow; PATCH or DELETE keep their rules.
        let upload_put = |m: &&str| self.uploads && m.eq_ignore_ascii_case("PUT");
        self.method
            .iter()
            .chain(&self.maybe_methods)
            .chain(&self.method_override)
            .copied()
            .filter(|m| !upload_put(m))
            .chain(action_delete.then_some("DELETE"))
            .filter_map(|m| remote_method_verdict(m, self.rerouted, &self.urls, bare_port_is_local))
            .max_by_key(Verdict::severity)
    }
}

impl HttpLine<'_> {
    /// An admin or lifecycle action of a remote API (`net.http_admin_action`): a write (POST
    /// given, or implied by a body) whose URL path has a segment naming one of the rule's
    /// verbs (`…/lifecycle/deactivate`, `admin.users.remove`, `_close`,
    /// `ComputerSystem.Reset`), or a PAN-OS XML API call that changes or commits the
    /// configuration or restarts the device (`?type=config&action=delete`, `type=commit`,
    /// `type=op` with a `<restart>` element), whatever the method. Invariant: the same
    /// locality as the method rules — only when every URL is known and on this machine is the
    /// request local development.
    /// A write to a payment provider's live API (see [`live_payment_write`]).
    fn live_payment(&self, words: &[Word]) -> Option<Verdict> {
        let method = self.method_override.or(self.method);
        self.urls
            .iter()
            .any(|w| live_payment_write(&w.text, method, self.has_body || self.uploads, words))
            .then(|| ids::PAY_LIVE_API_WRITE.verdict())
    }

    /// Whether the request stays on this machine: not rerouted, and every URL it names known
    /// and on loopback (callers that need a URL at all check for one themselves).
    fn only_this_machine(&self, bare_port_is_local: bool) -> bool {
        !self.rerouted
            && self
                .urls
                .iter()
                .all(|w| w.exact && is_loopback_url(&w.text, bare_port_is_local))
    }

    /// An admin role granted through an API (`net.http_admin_grant`): a write to a URL whose
    /// path has a membership segment (`…/users/ID/roles`, `role_assignments`, `members`,
    /// `collaborators`, `permissions`) with a JSON body naming an admin-level role in any
    /// string value (`{"type":"SUPER_ADMIN"}`, `{"role":"owner"}`, `{"permission":"admin"}`;
    /// see [`is_admin_grant`]). A limited role and a local server stay ordinary.
    fn admin_grant(&self, bare_port_is_local: bool) -> Option<Verdict> {
        const MEMBERSHIP: &[&str] = &[
            "roles",
            "role",
            "role_assignments",
            "roleassignments",
            "role-assignments",
            "members",
            "memberships",
            "collaborators",
            "permissions",
            "grants",
            "admins",
            "administrators",
            "owners",
            "acl",
        ];
        let writes = self.method.map_or(self.has_body, |m| {
            !m.eq_ignore_ascii_case("GET")
                && !m.eq_ignore_ascii_case("HEAD")
                && !m.eq_ignore_ascii_case("DELETE")
        });
        if !writes {
            return None;
        }
        let membership = |url: &str| {
            url.split_once("://").is_some_and(|(_, rest)| {
                let path = rest.split(['?', '#']).next().unwrap_or("");
                path.split('/')
                    .skip(1)
                    .any(|seg| MEMBERSHIP.iter().any(|m| seg.eq_ignore_ascii_case(m)))
            })
        };
        let grants = self.bodies.iter().any(|b| {
            serde_json::from_str::<serde_json::Value>(b).is_ok_and(|doc| names_admin_role(&doc))
        });
        if !grants || !self.urls.iter().any(|w| membership(&w.text)) {
            return None;
        }
        let local = self.only_this_machine(bare_port_is_local);
        (!local).then(|| ids::NET_HTTP_ADMIN_GRANT.verdict())
    }

    fn admin_action(&self, bare_port_is_local: bool) -> Option<Verdict> {
        let post = match self.method {
            Some(m) => m.eq_ignore_ascii_case("POST"),
            None => self.has_body,
        };
        let writes = self.method.map_or(self.has_body, |m| {
            !m.eq_ignore_ascii_case("GET") && !m.eq_ignore_ascii_case("HEAD")
        });
        let hit = self.urls.iter().any(|w| {
            (post && admin_action_path(&w.text))
                || (writes && self.bodies.iter().any(|b| terminal_status_body(b)))
                // A run-time key (`&key=$KEY`) does not change what the query asks for.
                || url_query(&w.text).is_some_and(panos_config_write)
                || query_action(&w.text)
        }) || self.bodies.iter().any(|b| panos_config_write(b));
        if !hit {
            return None;
        }
        let local = !self.rerouted
            && !self.urls.is_empty()
            && self
                .urls
                .iter()
                .all(|w| w.exact && is_loopback_url(&w.text, bare_port_is_local));
        (!local).then(|| ids::NET_HTTP_ADMIN_ACTION.verdict())
    }

    /// A POST (given, or implied by a body) to a script console, to a host that is not this
    /// machine: a URL path whose last segment is Jenkins' `script` or `scriptText` (the
    /// controller's or an agent's, `/computer/NAME/scriptText`). The console runs the posted
    /// Groovy with the controller's authority, so what it does cannot be read from the line.
    fn script_console(&self, bare_port_is_local: bool) -> Option<Verdict> {
        let post = match self.method {
            Some(m) => m.eq_ignore_ascii_case("POST"),
            None => self.has_body,
        };
        let console = |url: &str| {
            url.split_once("://").is_some_and(|(_, rest)| {
                let path = rest.split(['?', '#']).next().unwrap_or("");
                path.contains('/')
                    && match path.trim_end_matches('/').rsplit('/').next() {
                        Some("scriptText") => true,
                        // `/script` is the console's form page: its post carries `script=`.
                        Some("script") => self.bodies.iter().any(|b| b.starts_with("script=")),
                        _ => false,
                    }
            })
        };
        if !post || !self.urls.iter().any(|w| console(&w.text)) {
            return None;
        }
        let local = self.only_this_machine(bare_port_is_local);
        (!local).then(|| ids::RCE_REMOTE_SCRIPT_CONSOLE.verdict())
    }

    /// A request that changes something through a container engine's API socket: any
    /// method but GET/HEAD/OPTIONS, or a body or upload without one (curl's implied POST or
    /// PUT). `POST /containers/create` with `"Binds": ["/:/host"]` then `/start` is `docker
    /// run -v /:/host`, root on the host, and the body is not read: it asks
    /// (`container.engine_api_write`). Reads (`GET /containers/json`) are `docker ps`.
    fn engine_write(&self) -> bool {
        if !self.engine_socket {
            return false;
        }
        let reads = |m: &str| {
            ["GET", "HEAD", "OPTIONS"]
                .iter()
                .any(|r| m.eq_ignore_ascii_case(r))
        };
        match self.method {
            Some(m) => !reads(m) || self.maybe_methods.iter().any(|m| !reads(m)),
            None => self.has_body || self.uploads || !self.maybe_methods.is_empty(),
        }
    }

    /// A body that is a GraphQL mutation deleting something (see [`graphql_deletes`]).
    fn graphql_delete(&self) -> bool {
        self.bodies
            .iter()
            .flat_map(|b| graphql_documents(b))
            .any(|doc| graphql_deletes(&doc))
    }
}

/// Whether a JSON document names an admin-level role in any string value, however nested.
fn names_admin_role(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => is_admin_grant(s),
        serde_json::Value::Array(a) => a.iter().any(names_admin_role),
        serde_json::Value::Object(o) => o.values().any(names_admin_role),
        _ => false,
    }
}

/// A request body that is a batch deletion: a JSON object with a top-level key naming a
/// deletion whose value lists what goes (`{"delete":[101,102]}` of WooCommerce's batch
/// endpoints, `{"ids_to_delete":[…]}`, `{"remove":{"ids":[…]}}`), a non-empty array or object.
fn batch_delete_body(body: &str) -> bool {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(body) else {
        return false;
    };
    map.iter().any(|(k, v)| {
        names_deleting_verb(k)
            && match v {
                serde_json::Value::Array(a) => !a.is_empty(),
                serde_json::Value::Object(o) => !o.is_empty(),
                _ => false,
            }
    })
}

/// A request body that moves a record to a terminal state: a JSON object whose `status` or
/// `state` is voided, deleted, cancelled, terminated, suspended, deactivated or disabled
/// (`{"Status":"VOIDED"}` voids an invoice in Xero; `{"state":"suspended"}`). The write is
/// the lifecycle action a `…/void` endpoint would be (`net.http_admin_action`).
fn terminal_status_body(body: &str) -> bool {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(body) else {
        return false;
    };
    map.iter().any(|(k, v)| {
        matches!(k.to_ascii_lowercase().as_str(), "status" | "state")
            && v.as_str().is_some_and(|s| {
                matches!(
                    s.to_ascii_lowercase().as_str(),
                    "voided"
                        | "void"
                        | "deleted"
                        | "cancelled"
                        | "canceled"
                        | "terminated"
                        | "suspended"
                        | "deactivated"
                        | "disabled"
                        | "revoked"
                        | "purged"
                )
            })
    })
}

/// A container engine's API socket (the path catalog's `container-runtime-sockets`: Docker,
/// containerd, Podman, CRI-O), by where it is or by its file name (`~/.docker/run/docker.sock`
/// of Docker Desktop, `$XDG_RUNTIME_DIR/podman/podman.sock` of rootless Podman).
fn is_engine_socket(path: &str) -> bool {
    matches!(
        crate::resolve::basename(path),
        "docker.sock" | "containerd.sock" | "podman.sock" | "crio.sock" | "dockershim.sock"
    ) || hookgate_paths::classify(
        std::path::Path::new(path),
        &hookgate_paths::PathContext::new("/", None),
    )
    .iter()
    .any(|m| m.id == "container-runtime-sockets")
}

/// The options of curl and `gh api` whose value is (part of) the request body.
const BODY_OPTIONS: &[&str] = &[
    "data",
    "data-raw",
    "data-binary",
    "data-ascii",
    "data-urlencode",
    "json",
    "raw-field",
    "field",
];

/// curl's options that send a request somewhere other than its URL's host (or read further
/// options, URLs and proxies included, from a file).
const CURL_REROUTES: &[&str] = &[
    "proxy",
    "preproxy",
    "socks4",
    "socks4a",
    "socks5",
    "socks5-hostname",
    "resolve",
    "connect-to",
    "unix-socket",
    "abstract-unix-socket",
    "config",
];

/// wget's: `-e use_proxy=on`/`http_proxy=…`, URLs and options read from files.
const WGET_REROUTES: &[&str] = &["execute", "input-file", "config"];

/// HTTPie's and xh's.
const HTTPIE_REROUTES: &[&str] = &["proxy", "resolve", "unix-socket"];

/// Whether HTTPie reads `word` as its METHOD operand: letters only (its `^[a-zA-Z]+$`),
/// spelled out on the line.
fn httpie_method(word: &Word) -> bool {
    word.exact && !word.text.is_empty() && word.text.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Whether `url` (`http://localhost:3000/x`, `127.0.0.1:8080/x`, `[::1]`, httpie's `:3000/x`
/// when `bare_port_is_local`) names this machine: `localhost` and `*.localhost` (RFC 6761),
/// 127.0.0.0/8, `::1`, the unspecified addresses (which connect to this machine), and the
/// container runtimes' name for the host (`host.docker.internal`, `host.containers.internal`).
/// The host is what follows the scheme and a user-info part up to the *last* `@` (so
/// `http://localhost@evil.example/` is `evil.example`); anything unusual in it (`%`, `\`,
/// a non-numeric port) is not loopback.
pub(crate) fn is_loopback_url(url: &str, bare_port_is_local: bool) -> bool {
    let rest = match url.split_once("://") {
        Some((scheme, rest)) => {
            if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
                return false;
            }
            rest
        }
        None => url,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    if authority.contains(['\\', '%', ' ']) {
        return false;
    }
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let Some((h, p)) = v6.split_once(']') else {
            return false;
        };
        match p.strip_prefix(':') {
            Some(port) => (h, port),
            None if p.is_empty() => (h, ""),
            None => return false,
        }
    } else {
        hostport.split_once(':').unwrap_or((hostport, ""))
    };
    if !port.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    if host.is_empty() {
        return bare_port_is_local && url.starts_with(':');
    }
    let host = host.to_ascii_lowercase();
    if let Ok(v4) = host.parse::<std::net::Ipv4Addr>() {
        return v4.is_loopback() || v4.is_unspecified();
    }
    if let Ok(v6) = host.parse::<std::net::Ipv6Addr>() {
        return v6.is_loopback()
            || v6.is_unspecified()
            || v6
                .to_ipv4_mapped()
                .is_some_and(|v4| v4.is_loopback() || v4.is_unspecified());
    }
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "host.docker.internal"
        || host == "host.containers.internal"
}

impl Walker<'_> {
    /// The danger carried by `name`'s arguments, if any (called by `classify_plain`).
    pub(crate) fn argument_danger(
        &self,
        name: &str,
        words: &[Word],
        args: &Args<'_>,
        scope: &Scope,
    ) -> Option<Verdict> {
        // `--help` among the tool's own options (not after `--`) prints its usage and exits
        // before acting (`docker image rm --help`, `crane push --help`).
        if args.asks_for_help() {
            return None;
        }
        if matches!(name, "fastboot" | "dfu-util" | "esptool" | "esptool.py")
            && let Some(v) = self.flashes_foreign_image(name, words, args, scope)
        {
            return Some(v);
        }
        match name {
            "fdbcli" => fdbcli_exec(words),
            "curl" => {
                let line =
                    HttpLine::read(&crate::cli::CURL, words, "request", "url", CURL_REROUTES);
                if line.engine_write() {
                    return Some(ids::CONTAINER_ENGINE_API_WRITE.verdict());
                }
                // On a tie the method's own rule is the reason (`max_by_key` keeps the last).
                [
                    line.script_console(false),
                    line.admin_action(false),
                    line.admin_grant(false),
                    line.live_payment(words),
                    line.verdict(false),
                ]
                .into_iter()
                .flatten()
                .max_by_key(Verdict::severity)
            }
            "grpcurl" => grpc_admin_call(words),
            "wget" => {
                HttpLine::read(&crate::cli::WGET, words, "method", "", WGET_REROUTES).verdict(false)
            }
            // The forges' CLIs share gh's `api` grammar (`-X`/`--method`): GitLab's glab,
            // Gitea's tea and the older hub.
            "gh" | "glab" | "tea" | "hub" if args.positionals.first() == Some(&"api") => {
                // gh api's requests go to GitHub (or `--hostname`), never to this machine.
                let line = HttpLine::read(&crate::cli::GH_API, words, "method", "", &[]);
                if line.graphql_delete() {
                    return Some(ids::NET_HTTP_DELETE.verdict());
                }
                // `gh api -X POST repos/O/R/transfer`: the repository handed to another owner
                // (a PATCH of its visibility is an overwrite, judged by the method below).
                if name == "gh"
                    && let Some(endpoint) = line.urls.last().filter(|w| w.exact)
                {
                    let path = endpoint.text.trim_start_matches('/');
                    let segments: Vec<&str> = path.split('/').collect();
                    if matches!(segments.as_slice(), ["repos", _, _, "transfer"]) {
                        return Some(ids::FORGE_REPO_TRANSFER.verdict());
                    }
                }
                let method = line.method_override.or(line.method)?;
                // `gh api -X PATCH repos/O/R/pulls/17 -f title=…` is `gh pr edit`: editing an
                // issue's or pull request's fields (or a comment on one) through the API.
                if name == "gh"
                    && method.eq_ignore_ascii_case("PATCH")
                    && line
                        .urls
                        .last()
                        .is_some_and(|w| w.exact && issue_endpoint(&w.text))
                {
                    return None;
                }
                method_verdict(method)
            }
            "http" | "https" | "xh" | "xhs" => {
                let parsed = crate::cli::HTTPIE.parse(words);
                // `--offline` prints the request it builds and sends nothing.
                if parsed.iter().any(|w| {
                    matches!(
                        w,
                        crate::cli::Word::Option {
                            long: "offline",
                            negated: false,
                            ..
                        }
                    )
                }) {
                    return None;
                }
                let unknown_option = parsed
                    .iter()
                    .any(|w| matches!(w, crate::cli::Word::Rejected(_)));
                let line = HttpLine::read(&crate::cli::HTTPIE, words, "", "", HTTPIE_REROUTES);
                // Through a container engine's socket only a read passes: a read method
                // named, or a bare URL without request items (httpie's default GET).
                if line.engine_socket {
                    let reads = match line.urls.as_slice() {
                        [_url] => true,
                        [method, _url] if httpie_method(method) => ["GET", "HEAD", "OPTIONS"]
                            .iter()
                            .any(|r| method.text.eq_ignore_ascii_case(r)),
                        _ => false,
                    };
                    if !reads || unknown_option {
                        return Some(ids::CONTAINER_ENGINE_API_WRITE.verdict());
                    }
                }
                // `[METHOD] URL [ITEM…]`: a first operand of letters only is the method when a
                // URL follows it (`xh delete URL`; httpie's `:3000/x` is localhost). After an
                // option the table does not know (a newer tool's, which may take a value),
                // the next operand may be the method too.
                let operands = &line.urls;
                let readings = if unknown_option { 2 } else { 1 };
                // A method-override header item (`X-HTTP-Method-Override:DELETE`) after the
                // URL is the request's method (see `HttpLine::method_override`).
                let overridden = (0..readings).find_map(|k| {
                    let at = k + usize::from(operands.get(k).is_some_and(|m| httpie_method(m)));
                    let url = operands.get(at)?;
                    let method = operands
                        .get(at + 1..)?
                        .iter()
                        .filter(|w| w.exact)
                        .find_map(|w| method_override(&w.text))?;
                    remote_method_verdict(method, line.rerouted, &[*url], true)
                });
                // A live payment API: the method named, or a POST implied by data items.
                let payment = (0..readings).find_map(|k| {
                    let named = operands.get(k).filter(|m| httpie_method(m));
                    let url = operands.get(k + usize::from(named.is_some()))?;
                    let items = operands.get(k + usize::from(named.is_some()) + 1..)?;
                    let data = items.iter().any(|w| w.text.contains('='));
                    live_payment_write(&url.text, named.map(|m| m.text.as_str()), data, words)
                        .then(|| ids::PAY_LIVE_API_WRITE.verdict())
                });
                (0..readings)
                    .filter_map(|k| {
                        let method = operands.get(k).filter(|m| httpie_method(m))?;
                        let url = operands.get(k + 1)?;
                        remote_method_verdict(&method.text, line.rerouted, &[*url], true)
                    })
                    .chain(overridden)
                    .chain(payment)
                    .max_by_key(Verdict::severity)
            }
            "rails" | "rake" | "bundle" => {
                framework_task(name, words, scope, self.files.production)
            }
            "wp" | "drush" if admin_grant_on_production(name, words) => {
                Some(ids::WEB_ADMIN_GRANT_PRODUCTION.verdict())
            }
            _ if is_framework_tool(name)
                || words.iter().take(2).any(|w| is_framework_tool(&w.text)) =>
            {
                other_framework_task(name, words, scope, self.files.production)
            }
            "docker" | "podman" | "nerdctl" => image_removal(words, args)
                .filter(|_| !self.fed_dangling_images(name, words, scope))
                .or_else(|| container_selection(words, args))
                .or_else(|| network_selection(words, args)),
            n if uninstalls(n, args) => self.uninstalls_listing(words, scope),
            "pip" | "pip3" | "uv" => self.pip_sources(name, words, scope),
            "kill" => self.kill_user_processes(words, scope),
            "scancel" | "qdel" | "bkill" | "condor_rm" => self.cancels_job_listing(words, scope),
            "pkill" | "killall" => broad_killer(name, words),
            _ if RETENTION.iter().any(|r| r.tool == name) => backup_retention(name, words),
            // `fuser -k 5432/tcp`: kills whatever uses a service's port.
            "fuser" => (words.iter().any(|w| {
                w.exact
                    && w.text.starts_with('-')
                    && !w.text.starts_with("--")
                    && w.text.contains('k')
            }) && words
                .iter()
                .any(|w| w.exact && w.text.contains('/') && service_port(&w.text)))
            .then(|| ids::SYS_KILLALL.verdict()),
            "git" => moves_shared_branch(args)
                .or_else(|| rewrites_ref_plumbing(args))
                .or_else(|| resets_shared_branch(words, args)),
            "redis-cli" | "valkey-cli" | "keydb-cli" | "etcdctl" | "consul" => {
                mass_key_delete(name, words, args)
            }
            "pg_restore" => crate::dbtarget::restore_clean(words, scope, self.ctx),
            "kubectl" | "oc" if args.positionals.first() == Some(&"patch") => {
                patch_scales_to_zero(words)
            }
            "openssl" => self.prints_key_material(words, args, scope),
            _ if crate::names::listed!(OPERAND_PRINTERS, name) => {
                self.prints_credential_operand(words, scope)
            }
            "gpg" | "gpg2" => exports_secret_keys(words),
            "avrdude" | "openocd" | "dfu-util" => programmer_option_action(name, words),
            _ if crate::chain::judges(name) => crate::chain::mainnet_transaction(name, words),
            "telnetd" | "utelnetd" | "in.telnetd" => serves_a_shell(words),
            "reg" => windows_autorun_key(words),
            "schtasks" => creates_scheduled_task(words),
            _ => crate::deploy::production_deploy(name, words)
                .or_else(|| crate::deploy::runner_deploy(name, words))
                .or_else(|| {
                    let display = scope.sh.get("DISPLAY").and_then(crate::state::Val::known);
                    crate::terminals::remote_terminal(name, words, display)
                }),
        }
    }

    /// `paste ~/.aws/credentials`, `fold ~/.ssh/id_rsa`, `ex -sc '%p|q' .env`: a program of
    /// [`OPERAND_PRINTERS`] prints the files it is given, so a credential among them (the
    /// shell's list or the catalog's, not the home directory as a whole) is read as by
    /// `cat`.
    fn prints_credential_operand(&self, words: &[Word], scope: &Scope) -> Option<Verdict> {
        words
            .iter()
            .any(|w| {
                w.exact
                    && !(w.text.starts_with('-') && w.text.len() > 1)
                    && self.names_credential(&w.text, scope)
            })
            .then(|| ids::CRED_READ_SECRET_FILE.verdict())
    }

    /// `fastboot flash PARTITION IMAGE` (`flash:raw`, `update ZIP`), `dfu-util -D FILE`,
    /// `esptool write_flash ADDR FILE` with an image from outside the workspace
    /// (`~/Downloads/patched_boot.img`, `~/Downloads/fw_patched.bin`): a downloaded or patched
    /// firmware, not the project's build (`device.flash_foreign_image`). Invariant: an image in
    /// the workspace, or a flash without an image operand (fastboot takes the build's
    /// `$ANDROID_PRODUCT_OUT`), stays the ordinary platform work round 28 left allowed; an
    /// image known only at run time asks.
    fn flashes_foreign_image(
        &self,
        name: &str,
        words: &[Word],
        args: &Args<'_>,
        scope: &Scope,
    ) -> Option<Verdict> {
        let images: Vec<&Word> = match name {
            "fastboot" => {
                let image = match args.positionals.as_slice() {
                    ["flash" | "flash:raw", _, image, ..] | ["update", image, ..] => *image,
                    _ => return None,
                };
                vec![words.iter().find(|w| w.text == image)?]
            }
            // `dfu-util -D FILE` / `--download FILE`: the file written to the device.
            "dfu-util" => words
                .iter()
                .enumerate()
                .filter_map(|(i, w)| match w.text.as_str() {
                    "-D" | "--download" => words.get(i + 1),
                    _ => None,
                })
                .collect(),
            // `esptool write_flash ADDR FILE [ADDR FILE…]`: every operand after the
            // subcommand that is not an address.
            _ => {
                let at = words
                    .iter()
                    .position(|w| matches!(w.text.as_str(), "write_flash" | "write-flash"))?;
                words
                    .get(at + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .filter(|w| {
                        !w.text.starts_with('-')
                            && !(w.exact
                                && (w.text.starts_with("0x")
                                    || w.text.bytes().all(|b| b.is_ascii_digit())))
                    })
                    .collect()
            }
        };
        let foreign = images
            .iter()
            .any(|w| !w.exact || !self.in_workspace(&w.text, scope));
        foreign.then(|| ids::DEVICE_FLASH_FOREIGN_IMAGE.verdict())
    }

    /// Whether `raw` names a credential file (or a directory of them) whose read exposes it:
    /// the shell's list, the catalog outside the workspace, a file the line wrote secrets
    /// to. The home directory and its ancestors hold credentials but are not one: listing or
    /// walking them is judged elsewhere.
    pub(crate) fn names_credential(&self, raw: &str, scope: &Scope) -> bool {
        let Some(source) = crate::flow::file_source(raw, &scope.cwd, self.ctx, &self.files) else {
            return false;
        };
        let home_or_above = crate::flow::place_in(raw, &scope.cwd, self.ctx)
            .is_some_and(|p| self.ctx.home.as_deref().is_some_and(|h| h.starts_with(&p)));
        !home_or_above && matches!(source, crate::model::FlowSource::SensitiveFile { .. })
    }

    /// `openssl pkey -in ~/.ssh/id_ed25519 -text`, `openssl rsa -in server.key`, `openssl
    /// base64 -in ~/.aws/credentials`: a key-handling subcommand reading a credential file
    /// (`-in`/`-inkey`/`-key`/`-infile`, the catalog's private keys included) prints it to
    /// the agent — the PEM again, or every private component with `-text`. Reading a
    /// credential through openssl is the same read as `cat` of it (`cred.read_secret_file`).
    /// Not when only public parts or a check come out (`-pubout`, `-noout` without
    /// `-text`: `openssl rsa -in k -check -noout`), nor when the output goes to a file
    /// (`-out k.der`, a conversion). `x509`/`req`/`dgst -sign` print certificates, requests
    /// and signatures, not the key: not listed.
    fn prints_key_material(
        &self,
        words: &[Word],
        args: &Args<'_>,
        scope: &Scope,
    ) -> Option<Verdict> {
        const KEY_PRINTERS: &[&str] = &[
            "pkey",
            "rsa",
            "ec",
            "dsa",
            "pkcs8",
            "pkcs12",
            "asn1parse",
            "base64",
            "enc",
            "storeutl",
        ];
        let sub = args.positionals.first()?;
        if !KEY_PRINTERS.contains(sub) {
            return None;
        }
        let has = |flag: &str| words.iter().any(|w| w.exact && w.text == flag);
        let value_of = |flag: &str| {
            words
                .windows(2)
                .find(|p| p[0].exact && p[0].text == flag)
                .map(|p| &p[1])
        };
        if has("-pubout") || (has("-noout") && !has("-text")) {
            return None;
        }
        if value_of("-out").is_some_and(|o| !matches!(o.text.as_str(), "-" | "/dev/stdout")) {
            return None;
        }
        ["-in", "-inkey", "-key", "-infile"]
            .iter()
            .filter_map(|f| value_of(f))
            .any(|w| {
                w.exact
                    && crate::flow::file_source(&w.text, &scope.cwd, self.ctx, &self.files)
                        .is_some()
            })
            .then(|| ids::CRED_READ_SECRET_FILE.verdict())
    }

    /// `eval "$(pyenv init -)"`, `source <(kubectl completion bash)`: every substitution of
    /// this command ran a well-known tool's shell set-up subcommand (`[[shell_init]]` data),
    /// and nothing else; its output is that tool's own set-up code, not opaque code.
    pub(crate) fn evaluates_shell_init(&self, args: &[Word], scope: &Scope) -> bool {
        if args.is_empty() || args.iter().any(|w| !w.exact && w.substs.is_empty()) {
            return false;
        }
        let depth = scope.via.len();
        let mut found = false;
        for c in self.commands.iter().rev() {
            let inside = c.via.len() > depth
                && c.via.get(..depth) == Some(scope.via.as_slice())
                && c.via.get(depth).is_some_and(|v| v == "$(…)" || v == "<(…)");
            if !inside {
                break;
            }
            if c.via.len() != depth + 1 || !is_shell_init(c) {
                return false;
            }
            found = true;
        }
        found
    }

    /// `kill $(pgrep -u USER)`: the PIDs come from a substitution on this command line that
    /// selects processes only by user, group, session or parent (every process of a user).
    fn kill_user_processes(&self, words: &[Word], scope: &Scope) -> Option<Verdict> {
        if words.iter().all(|w| w.exact) {
            return None;
        }
        // `pgrep -u USER | xargs kill`: the PIDs are the items of `xargs`, printed by the
        // pipeline stage recorded just before it, one level up.
        if scope.via.last().is_some_and(|v| v == "xargs")
            && words.iter().any(|w| w.text == "{stdin}")
        {
            // The stages before it at the same level, nearest first: column pickers
            // (`awk '{print $2}'`, `cut`, `tail -n +2`) pass the selection on unchanged.
            for c in self
                .commands
                .iter()
                .rev()
                .take_while(|c| c.via.len() + 1 == scope.via.len())
            {
                if selects_by_user_only(c) {
                    return Some(ids::SYS_KILL_USER_PROCESSES.verdict());
                }
                if selects_critical(c) {
                    return Some(ids::SYS_KILLALL.verdict());
                }
                let program = c
                    .argv
                    .first()
                    .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
                // `ps aux | grep node | …`: every process of a program the session runs on.
                if matches!(program, "grep" | "egrep" | "fgrep")
                    && c.argv
                        .iter()
                        .skip(1)
                        .filter(|a| !a.starts_with('-'))
                        .any(|a| names_critical(a))
                {
                    return Some(ids::SYS_KILLALL.verdict());
                }
                if !matches!(
                    program,
                    "awk" | "gawk" | "mawk" | "cut" | "tail" | "tr" | "sort" | "uniq"
                ) {
                    break;
                }
            }
        }
        for c in self.own_substitutions(scope) {
            if selects_by_user_only(c) {
                return Some(ids::SYS_KILL_USER_PROCESSES.verdict());
            }
            if selects_critical(c) {
                return Some(ids::SYS_KILLALL.verdict());
            }
        }
        None
    }

    /// The commands of this command's own `$(…)` substitutions, latest first. They were
    /// recorded just before it, one level deeper than the command — or than the wrappers
    /// around it (`sudo kill $(pgrep x)`: the words were expanded before `sudo` was peeled).
    fn own_substitutions<'a>(
        &'a self,
        scope: &'a Scope,
    ) -> impl Iterator<Item = &'a crate::model::ExecutedCommand> + 'a {
        let depth = scope.via.len();
        self.commands
            .iter()
            .rev()
            .map_while(move |c| {
                (0..=depth)
                    .rev()
                    .find(|d| {
                        c.via.len() > *d
                            && c.via.get(..*d) == scope.via.get(..*d)
                            && c.via.get(*d).is_some_and(|v| v == "$(…)")
                    })
                    .map(|level| (c, level))
            })
            .filter(|(c, level)| c.via.len() == level + 1)
            .map(|(c, _)| c)
    }

    /// `pip freeze | xargs pip uninstall -y`, `brew uninstall --force $(brew list)`, `rpm -e
    /// $(rpm -qa)`: an uninstall whose packages are the package manager's own listing of what
    /// is installed removes everything (`pkg.mass_uninstall`). The listing feeds it through
    /// `xargs` (the stages just before, through column pickers and filters) or a `$(…)` of
    /// the command. Packages named on the line, or read from a file, are a reviewed list.
    fn uninstalls_listing(&self, words: &[Word], scope: &Scope) -> Option<Verdict> {
        if words.iter().all(|w| w.exact) {
            return None;
        }
        let found = Some(ids::PKG_MASS_UNINSTALL.verdict());
        if self.xargs_fed_by(words, scope, lists_installed_packages, passes_items_on) {
            return found;
        }
        if self.own_substitutions(scope).any(lists_installed_packages) {
            return found;
        }
        None
    }

    /// `pip install 'requests @ git+https://…'` (a PEP 508 direct reference on the line) and
    /// `pip install -r requirements.txt` whose file names such a reference, a URL or VCS
    /// requirement, or an index other than PyPI (`--extra-index-url https://…`): the install
    /// takes code from where the line — or a file it reads — points, not from the registry
    /// (`rce.install_unvetted_source`, `rce.registry_redirect`). The requirement and
    /// constraint files are read as pip reads them, one level (a nested `-r` is not
    /// followed), bounded in size; an unreadable file says nothing.
    fn pip_sources(&self, name: &str, words: &[Word], scope: &Scope) -> Option<Verdict> {
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let install = match (name, texts.iter().find(|t| !t.starts_with('-'))) {
            ("uv", Some(&"pip")) => texts.contains(&"install") || texts.contains(&"sync"),
            ("uv", _) => false,
            (_, Some(&"install" | &"download" | &"wheel")) => true,
            _ => false,
        };
        if !install {
            return None;
        }
        // Only the `name @ URL` form here: a bare URL operand is the taxonomy's own rule, and
        // an option's value (`--index-url https://…`) is an index, judged as one.
        if words.iter().any(|w| {
            w.exact
                && !w.text.starts_with('-')
                && w.text
                    .split_once('@')
                    .is_some_and(|(n, _)| !n.contains("://"))
                && crate::hazards::direct_reference(&w.text)
        }) {
            return Some(ids::RCE_INSTALL_UNVETTED_SOURCE.verdict());
        }
        let files = texts
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t.split_once('=') {
                Some(("--requirement" | "--constraint", v)) => Some(v),
                _ if matches!(*t, "-r" | "--requirement" | "-c" | "--constraint") => {
                    texts.get(i + 1).copied()
                }
                _ => t
                    .strip_prefix("-r")
                    .or_else(|| t.strip_prefix("-c"))
                    .filter(|v| !v.is_empty() && !t.starts_with("--")),
            });
        files
            .filter_map(|f| crate::flow::place_in(f, &scope.cwd, self.ctx))
            .filter_map(|path| crate::contained::read_small(&path, MAX_REQUIREMENTS))
            .find_map(|text| crate::hazards::requirements_sources(&text))
    }

    /// `squeue -u dev -h -o %i | xargs scancel`, `qdel $(qselect -u dev)`: a batch-job
    /// cancel whose ids are a scheduler's own listing of jobs cancels every job the listing
    /// selected — what `scancel -u dev` does (`hpc.mass_cancel_listed`), spelled so that the
    /// cancel names no selection. The listing reaches it through `xargs` (past column pickers
    /// only: a `grep` narrows the jobs to a pattern, as `--name` does) or a `$(…)`. A listing
    /// of named jobs (`squeue -j 41,42`, `--name=train`) is a reviewed list.
    fn cancels_job_listing(&self, words: &[Word], scope: &Scope) -> Option<Verdict> {
        if words.iter().all(|w| w.exact) {
            return None;
        }
        let found = Some(ids::HPC_MASS_CANCEL_LISTED.verdict());
        if self.xargs_fed_by(words, scope, lists_batch_jobs, picks_columns) {
            return found;
        }
        if self.own_substitutions(scope).any(lists_batch_jobs) {
            return found;
        }
        None
    }

    /// Whether `xargs` feeds this command (`words` hold its `{stdin}` items) from a listing
    /// `lists` accepts: the pipeline stages just before `xargs`, read backwards through the
    /// stages `passes` lets items through (column pickers, filters). Shared by the mass
    /// uninstall and mass delete rules, so both read a pipeline the same way.
    fn xargs_fed_by(
        &self,
        words: &[Word],
        scope: &Scope,
        lists: impl Fn(&ExecutedCommand) -> bool,
        passes: impl Fn(&ExecutedCommand) -> bool,
    ) -> bool {
        if !(scope.via.last().is_some_and(|v| v == "xargs")
            && words.iter().any(|w| w.text == "{stdin}"))
        {
            return false;
        }
        for c in self
            .commands
            .iter()
            .rev()
            .take_while(|c| c.via.len() + 1 == scope.via.len())
        {
            if lists(c) {
                return true;
            }
            if !passes(c) {
                return false;
            }
        }
        false
    }

    /// `docker images -f dangling=true -q | xargs docker rmi`, `docker rmi $(docker images
    /// --filter dangling=true -q)`: the images removed are the untagged ones the same tool
    /// listed, what `docker image prune` removes (ordinary, see the issue's false positives).
    /// Any other listing keeps `docker.rmi`.
    fn fed_dangling_images(&self, name: &str, words: &[Word], scope: &Scope) -> bool {
        let dangling = |c: &ExecutedCommand| {
            let Some((program, rest)) = c.argv.split_first() else {
                return false;
            };
            let lists = match rest
                .iter()
                .filter(|w| !w.starts_with('-'))
                .take(2)
                .collect::<Vec<_>>()[..]
            {
                [first, ..] if first == "images" => true,
                [first, second] => first == "image" && matches!(second.as_str(), "ls" | "list"),
                _ => false,
            };
            crate::resolve::basename(program) == name
                && lists
                && rest.iter().enumerate().any(|(i, w)| {
                    let value = match w.as_str() {
                        "-f" | "--filter" => rest.get(i + 1).map(String::as_str),
                        _ => w.strip_prefix("--filter=").or_else(|| w.strip_prefix("-f")),
                    };
                    value == Some("dangling=true")
                })
        };
        // A stage between them may only select lines or fields of what it reads (a subset of
        // dangling images is still dangling images); one that can write other text (`sed`,
        // `awk`, `tr`) could put any image id there.
        let narrows = |c: &ExecutedCommand| {
            c.argv.first().is_some_and(|p| {
                matches!(
                    crate::resolve::basename(p),
                    "grep" | "egrep" | "fgrep" | "rg" | "head" | "tail" | "sort" | "uniq" | "cut"
                )
            })
        };
        if self.xargs_fed_by(words, scope, dangling, narrows) {
            return true;
        }
        let mut subs = self.own_substitutions(scope);
        subs.next().is_some_and(dangling) && subs.next().is_none()
    }

    /// `ctr images rm $(ctr images ls -q)`, `lxc list -c n --format csv | xargs lxc delete`,
    /// `virsh undefine $(virsh list --all --name)`: a delete verb fed the same tool's own
    /// listing of what it manages removes all of it (`infra.mass_delete_listed`), whatever the
    /// tool — the shape is the danger, so no catalogue of tools is needed. The listing must be
    /// unfiltered: a filter option (`--filter`, `-l app=test`), a pattern (`grep`) between
    /// the listing and the delete, or an operand naming what to list is a reviewed selection.
    pub(crate) fn deletes_own_listing(
        &self,
        name: &str,
        words: &[Word],
        scope: &Scope,
    ) -> Option<Verdict> {
        if words.iter().all(|w| w.exact) {
            return None;
        }
        // The deleting side's own options are not a filter of what it is fed.
        let exact = words
            .iter()
            .take_while(|w| w.exact)
            .map(|w| w.text.as_str());
        let positionals = listing_operands(exact.filter(|t| {
            !t.starts_with('-') || t.split_once('=').is_some() || !matches!(*t, "-f" | "-l")
        }))?;
        let verb_at = positionals
            .iter()
            .take(3)
            .position(|t| DELETE_VERBS.contains(t))?;
        let path = positionals.get(..verb_at).unwrap_or(&[]);
        let lists_all = |c: &ExecutedCommand| lists_everything(c, name, path);
        let found = Some(ids::INFRA_MASS_DELETE_LISTED.verdict());
        if self.xargs_fed_by(words, scope, lists_all, picks_columns) {
            return found;
        }
        let mut subs = self.own_substitutions(scope).peekable();
        // A substitution of one command (a pipeline inside narrows or reshapes the listing).
        let only = subs.next()?;
        if subs.peek().is_none() && lists_all(only) {
            found
        } else {
            None
        }
    }

    /// Judges a variable that changes what runs. `None` when its value is harmless: a `PATH`
    /// made of `$PATH` and standard user/system bin directories, or a program-naming variable
    /// (`GIT_EDITOR`, `PAGER`, …) whose value is a known editor/pager/no-op and whose code,
    /// parsed as shell, is ordinary work. Dangerous code in the value is recorded by the
    /// analysis itself.
    pub(crate) fn hijack_verdict(
        &mut self,
        name: &str,
        value: Option<&Word>,
        scope: &Scope,
    ) -> Option<Verdict> {
        let hijack = Some(ids::RCE_ENV_HIJACK.verdict());
        let Some(value) = value else { return hijack };
        if name == "PATH" {
            return (!self.standard_path(value)).then(|| ids::RCE_ENV_HIJACK.verdict());
        }
        if SEARCH_PATH_VARIABLES.contains(&name) {
            let workspace = self.ctx.cwd.to_string_lossy();
            return (!workspace_search_path(name, &value.text, &workspace))
                .then(|| ids::RCE_ENV_HIJACK.verdict());
        }
        if PRELOAD_VARIABLES.contains(&name) && value.exact && system_libraries(&value.text) {
            return None;
        }
        if let Some(loads_code) = option_variable_loads_code(name, &value.text) {
            return (loads_code || !value.exact).then(|| ids::RCE_ENV_HIJACK.verdict());
        }
        if let Some(named) = crate::named::variable(name) {
            return self.named_verdict(named, name, value, scope);
        }
        // An empty value names no program, file or library (`PYTHONSTARTUP= python`).
        if value.exact && value.text.trim().is_empty() {
            return None;
        }
        if !PROGRAM_VARIABLES.contains(&name) || !value.exact {
            return hijack;
        }
        let mut inner = scope.clone();
        (!self.runs_role_program(value, &mut inner, name)).then(|| ids::RCE_ENV_HIJACK.verdict())
    }

    /// Analyses `code` (a setting that names a program: an editor variable, a git pager, an
    /// `--upload-pack`) as shell, and tells whether every part is ordinary work done by a
    /// program meant for such a setting (editors, pagers, ssh, no-ops, git's own helpers).
    /// Anything else — an arbitrary program, code built at run time — is not, even when the
    /// program itself looks harmless (`touch /tmp/pwned` is the classic proof of execution).
    pub(crate) fn runs_role_program(&mut self, code: &Word, scope: &mut Scope, via: &str) -> bool {
        self.runs_only(code, scope, via, &is_role_program)
    }

    /// Analyses `code` as shell (see [`Self::runs_role_program`]) and tells whether every part
    /// is ordinary work done by a program `meant` accepts (by basename) that is installed, not
    /// one of that name the agent could have placed (`/tmp/vim`, `./ssh`).
    pub(crate) fn runs_only(
        &mut self,
        code: &Word,
        scope: &mut Scope,
        via: &str,
        meant: &dyn Fn(&str) -> bool,
    ) -> bool {
        let before = self.commands.len();
        let extra_before = self.extra.len();
        self.run_code_string(&[], code, scope, via);
        let added = self.commands.get(before..).unwrap_or(&[]);
        code.exact
            && self.extra.len() == extra_before
            && !added.is_empty()
            && added.iter().all(|c| {
                matches!(c.verdict.class, Class::Safe | Class::Normal)
                    && c.argv.first().is_some_and(|p| {
                        meant(p.rsplit('/').next().unwrap_or(p.as_str()))
                            && self.installed_program(p)
                    })
            })
    }

    /// True when every `:`-separated entry before the first `$PATH` is a standard bin
    /// directory. Entries after `$PATH` are searched only for names no earlier entry has, so
    /// they add commands (`$PATH:./node_modules/.bin`) but cannot change which program an
    /// existing name runs — the hijack `rce.env_hijack` is about. A value without `$PATH`
    /// replaces the search path, so all of it must be standard; so must a value that is
    /// exact, where `$PATH` can only be a literal (quoted) directory name. An empty entry
    /// before `$PATH` is the current directory. A workspace directory a package manager fills
    /// (`$PWD/node_modules/.bin`, `.venv/bin`: [`workspace_bin_entry`]) counts as standard
    /// before `$PATH`, not as the whole search path (then every name would resolve there).
    fn standard_path(&self, value: &Word) -> bool {
        let home = self.ctx.home.as_deref();
        let workspace = self.ctx.cwd.to_string_lossy();
        let keeps_path = !value.exact
            && value
                .text
                .split(':')
                .any(|e| matches!(e, "$PATH" | "${PATH}"));
        let mut prepended = value
            .text
            .split(':')
            .take_while(|e| value.exact || !matches!(*e, "$PATH" | "${PATH}"));
        prepended.all(|entry| {
            let entry = entry.trim_end_matches('/');
            if keeps_path && workspace_bin_entry(entry, &workspace) {
                return true;
            }
            taxonomy::user_bin_dirs()
                .iter()
                .any(|dir| match dir.strip_prefix("~/") {
                    Some(rest) => home.is_some_and(|h| {
                        let full = h.to_string_lossy();
                        let under_home = entry
                            .strip_prefix(full.as_ref())
                            .and_then(|r| r.strip_prefix('/'))
                            .or_else(|| entry.strip_prefix("~/"))
                            .or_else(|| {
                                ["$HOME/", "${HOME}/"]
                                    .iter()
                                    .find_map(|p| entry.strip_prefix(p))
                            });
                        under_home.is_some_and(|r| components_match(rest, r))
                    }),
                    None => components_match(dir, entry),
                })
        })
    }
}

/// `docker rmi IMAGE…` / `docker image rm IMAGE…` (forcing is a table rule): removing a
/// tag the line names (`app:1.2`, `registry/team/api`) drops a name docker refuses to drop
/// while a container uses it, so it is ordinary like `docker rm NAME`. An image id or digest
/// deletes the image under every name, and a name known only at run time (`$(docker images
/// -q)`, `$IMAGE`, a pattern) may be all of them, as may an option other than
/// `--no-prune` (`podman rmi --all`): `docker.rmi`.
fn image_removal(words: &[Word], args: &Args<'_>) -> Option<Verdict> {
    let verb: &[&str] = match args.positionals.as_slice() {
        ["rmi", ..] => &["rmi"],
        ["image", "rm" | "remove", ..] => &args.positionals[..2],
        _ => return None,
    };
    // The images are the words after the verb's words that are not options.
    let mut rest = words.iter();
    for v in verb {
        rest.find(|w| w.exact && w.text == *v)?;
    }
    let named_tag = |w: &Word| {
        let last = w.text.rsplit('/').next().unwrap_or(&w.text);
        w.exact
            && w.shape == WordShape::Exact
            && !w.text.is_empty()
            && !w.text.contains('@')
            && !w.text.starts_with("sha256:")
            && !last.chars().all(|c| c.is_ascii_hexdigit())
    };
    // Only options that keep the removal to the names given pass (`--no-prune` keeps the
    // untagged parents); `podman rmi -a`/`--all` removes every image whatever is named.
    let (flags, images): (Vec<&Word>, Vec<&Word>) = rest.partition(|w| w.text.starts_with('-'));
    let removes_more = flags.iter().any(|w| w.text != "--no-prune");
    (removes_more || images.is_empty() || !images.iter().all(|w| named_tag(w)))
        .then(|| ids::DOCKER_RMI.verdict())
}

/// `docker rm [-f] NAME…`, `docker kill NAME…` (`container rm`/`kill`, podman, nerdctl):
/// stopping or removing the containers the line names is ordinary work, like `pkill -f` with
/// a specific pattern — a named container is one the agent addresses, and docker refuses
/// names it does not know. What the line does not spell out may be every container: a name
/// known only at run time (`$(docker ps -aq)`, `$C`), none at all (`docker ps -q | xargs
/// docker kill`), a pattern, or an option that selects by itself or does more (`-a`/`--all`,
/// `--latest`, `--filter`, `--cidfile`, `--depend`). Those raise
/// `docker.rm_force`/`docker.container_force_rm` (forced removal),
/// `docker.container_kill_prune` (removal of stopped containers) or `docker.kill`. No name
/// is treated as special: which containers are shared infrastructure is not knowable here.
/// `-v`/`--volumes` removes the *anonymous* volumes of the containers removed (named volumes
/// stay; docker's `--help`: "Remove anonymous volumes associated with the container"): with
/// named containers it loses only what those containers alone held, like removing them;
/// with a selection the line does not spell out it keeps the forced-removal rule.
/// `-l`/`--link` removes a link, not a container.
fn container_selection(words: &[Word], args: &Args<'_>) -> Option<Verdict> {
    let volumes = args.has_any(&["-v", "--volumes"]);
    let forced = volumes || args.has_any(&["-f", "--force"]);
    let (verb, rule) = match args.positionals.as_slice() {
        ["rm", ..] if forced => (&args.positionals[..1], ids::DOCKER_RM_FORCE),
        ["container", "rm" | "remove", ..] if forced => {
            (&args.positionals[..2], ids::DOCKER_CONTAINER_FORCE_RM)
        }
        ["rm", ..] => (&args.positionals[..1], ids::DOCKER_CONTAINER_KILL_PRUNE),
        ["container", "rm" | "remove" | "kill", ..] => {
            (&args.positionals[..2], ids::DOCKER_CONTAINER_KILL_PRUNE)
        }
        ["kill", ..] => (&args.positionals[..1], ids::DOCKER_KILL),
        _ => return None,
    };
    let mut rest = words.iter();
    for v in verb {
        rest.find(|w| w.exact && w.text == *v)?;
    }
    let mut named = 0usize;
    let mut options = true;
    while let Some(w) = rest.next() {
        let text = w.text.as_str();
        let literal_name = w.exact
            && w.shape == WordShape::Exact
            && !text.is_empty()
            && !text.contains(['*', '?', '[']);
        if options && w.exact && text.starts_with('-') && text.len() > 1 {
            match text {
                "--" => options = false,
                // Options with a value that leave the selection alone: the signal, the
                // grace period.
                "-s" | "--signal" | "-t" | "--time" => {
                    rest.next();
                }
                "--force" | "--ignore" | "--volumes" | "--link" => {}
                t if t.starts_with("--signal=") || t.starts_with("--time=") => {}
                t if t.starts_with("--") => return Some(rule.verdict()),
                // Short clusters of `-f` (force), `-i` (podman: ignore unknown names), `-v`
                // (anonymous volumes) and `-l` (a link).
                t if t[1..].chars().all(|c| matches!(c, 'f' | 'i' | 'v' | 'l')) => {}
                _ => return Some(rule.verdict()),
            }
        } else if literal_name {
            named += 1;
        } else {
            return Some(rule.verdict());
        }
    }
    (named == 0).then(|| rule.verdict())
}

/// `docker network rm NAME…` / `network prune`: a network holds no data (docker refuses to
/// remove one a container is attached to, and compose recreates its own), so removing the
/// networks the line names, or the unused ones, is ordinary. Names known only at run time
/// (`$(docker network ls -q)`), patterns or options beyond `-f`/`--force` keep
/// `docker.container_rm`: what is selected cannot be read off the line.
fn network_selection(words: &[Word], args: &Args<'_>) -> Option<Verdict> {
    if !matches!(
        args.positionals.as_slice(),
        ["network", "rm" | "remove", ..]
    ) {
        return None;
    }
    let mut rest = words.iter();
    for v in &args.positionals[..2] {
        rest.find(|w| w.exact && w.text == *v)?;
    }
    let mut named = 0usize;
    for w in rest {
        let text = w.text.as_str();
        if w.exact && matches!(text, "-f" | "--force" | "--") {
            continue;
        }
        let literal_name = w.exact
            && w.shape == WordShape::Exact
            && !text.is_empty()
            && !text.starts_with('-')
            && !text.contains(['*', '?', '[']);
        if !literal_name {
            return Some(ids::DOCKER_CONTAINER_RM.verdict());
        }
        named += 1;
    }
    (named == 0).then(|| ids::DOCKER_CONTAINER_RM.verdict())
}

/// Tools that run a command inside a container or pod (see [`container_command`]).
const CONTAINER_TOOLS: &[&str] = &[
    "docker",
    "podman",
    "nerdctl",
    "docker-compose",
    "podman-compose",
    "kubectl",
    "oc",
    "heroku",
    "fly",
    "flyctl",
    "dokku",
    "cf",
    "platform",
    "upsun",
];

/// Environment variables whose value selects where a framework's tasks run.
fn is_environment_marker(name: &str, value: &str) -> bool {
    is_production_marker(&format!("{name}={value}"))
        || matches!(
            (name, value),
            (
                "NODE_ENV" | "MIX_ENV" | "FLASK_ENV" | "APP_ENV",
                "production" | "prod"
            )
        )
}

/// A framework's database shell: reads SQL on stdin (`manage.py dbshell`, `rails dbconsole`,
/// `php artisan db`, `heroku pg:psql`).
fn is_db_shell(line: &[&str]) -> bool {
    line.windows(2).any(|w| {
        let base = w[0].rsplit('/').next().unwrap_or(w[0]);
        matches!(
            (base, w[1]),
            ("manage.py" | "django-admin", "dbshell")
                | ("rails", "dbconsole" | "db")
                | ("artisan", "db")
                | ("heroku", "pg:psql")
        )
    })
}

/// A framework's code runner and the language of the code it runs: `rails runner CODE`,
/// `rails console` (stdin), `manage.py shell -c CODE` (or stdin), `artisan tinker` (stdin).
/// Returns the language and the code, if given as an argument.
fn framework_code<'w>(line: &[&'w str]) -> Option<(Lang, Option<&'w str>)> {
    let i = line.iter().position(|w| {
        let base = w.rsplit('/').next().unwrap_or(w);
        matches!(base, "rails" | "manage.py" | "django-admin" | "artisan")
    })?;
    let tool = line.get(i)?.rsplit('/').next().unwrap_or("");
    let rest = line.get(i + 1..)?;
    let (sub, args) = rest.split_first()?;
    match (tool, *sub) {
        ("rails", "runner" | "r") => {
            let code = args
                .iter()
                .enumerate()
                .find(|(k, a)| {
                    let env_value =
                        *k > 0 && matches!(args.get(k - 1).copied(), Some("-e" | "--environment"));
                    !(a.starts_with('-') || env_value)
                })
                .map(|(_, a)| *a);
            Some((Lang::Ruby, code))
        }
        ("rails", "console" | "c") => Some((Lang::Ruby, None)),
        ("manage.py" | "django-admin", "shell" | "shell_plus") => {
            let code = args
                .windows(2)
                .find(|w| matches!(w[0], "-c" | "--command"))
                .map(|w| w[1])
                .or_else(|| args.iter().find_map(|a| a.strip_prefix("--command=")));
            Some((Lang::Python, code))
        }
        ("artisan", "tinker") => Some((Lang::Php, None)),
        _ => None,
    }
}

/// The container and the command it is asked to run: `docker|podman|nerdctl exec [opts] CTR
/// CMD…`, `… run [opts] IMAGE [CMD…]` (with `--entrypoint`), `docker compose|docker-compose
/// exec|run [opts] SERVICE CMD…`, `kubectl|oc exec [opts] POD [--] CMD…`, `kubectl run NAME
/// … -- CMD…`. Returns (what runs it, the container, its command line).
/// Commands run on a hosting platform's machines (usually production): `heroku run [-a APP]
/// CMD…`, `fly ssh console -C 'CMD'`, `fly machine exec ID 'CMD'`. Judged like a container's
/// command.
fn platform_command(name: &str, words: &[Word]) -> Option<(String, String, Vec<Word>)> {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    match name {
        "heroku" => {
            let verb = texts.first().copied()?;
            if !matches!(verb, "run" | "run:detached" | "run:inside") {
                return None;
            }
            let mut i = 1;
            let mut app = String::from("app");
            while let Some(t) = texts.get(i) {
                if !t.starts_with('-') {
                    break;
                }
                if matches!(
                    *t,
                    "-a" | "--app"
                        | "-s"
                        | "--size"
                        | "-e"
                        | "--env"
                        | "-r"
                        | "--remote"
                        | "--type"
                ) {
                    if matches!(*t, "-a" | "--app") {
                        app = texts.get(i + 1).map_or(app, |a| (*a).to_owned());
                    }
                    i += 1;
                }
                i += 1;
            }
            // The dyno runs the words as one shell command line (`heroku run "rm -rf x"`).
            let rest = words.get(i..)?;
            let inner = vec![Word::lit("sh"), Word::lit("-c"), Word::joined(rest)];
            (!rest.is_empty()).then(|| (format!("heroku {verb}"), app, inner))
        }
        "fly" | "flyctl" => {
            let at = texts
                .iter()
                .position(|t| matches!(*t, "-C" | "--command"))?;
            let code = words.get(at + 1)?.clone();
            let inner = vec![Word::lit("sh"), Word::lit("-c"), code];
            Some(("fly ssh console".to_owned(), "app".to_owned(), inner))
        }
        // `dokku run APP CMD…` (a one-off container of the app), `cf ssh APP -c 'CMD'` (Cloud
        // Foundry), `platform|upsun ssh [-e ENV] 'CMD'` (Platform.sh): the app's own machine.
        "dokku" => {
            let verb = texts.first().copied()?;
            if !matches!(verb, "run" | "run:detached" | "enter") {
                return None;
            }
            let mut i = 1;
            while texts.get(i).is_some_and(|t| t.starts_with('-')) {
                i += if matches!(texts.get(i).copied(), Some("-e" | "--env")) {
                    2
                } else {
                    1
                };
            }
            let app = (*texts.get(i)?).to_owned();
            let rest = words.get(i + 1..)?;
            let inner = vec![Word::lit("sh"), Word::lit("-c"), Word::joined(rest)];
            (!rest.is_empty()).then(|| (format!("dokku {verb}"), app, inner))
        }
        "cf" => {
            if texts.first().copied()? != "ssh" {
                return None;
            }
            let at = texts
                .iter()
                .position(|t| matches!(*t, "-c" | "--command"))?;
            let code = words.get(at + 1)?.clone();
            let app = texts.get(1).map_or("app", |a| *a).to_owned();
            let inner = vec![Word::lit("sh"), Word::lit("-c"), code];
            Some(("cf ssh".to_owned(), app, inner))
        }
        "platform" | "upsun" => {
            if !matches!(texts.first().copied()?, "ssh" | "environment:ssh") {
                return None;
            }
            let mut i = 1;
            while let Some(t) = texts.get(i) {
                if *t == "--" {
                    i += 1;
                    break;
                }
                if !t.starts_with('-') {
                    break;
                }
                if !t.contains('=')
                    && matches!(
                        *t,
                        "-e" | "--environment"
                            | "-p"
                            | "--project"
                            | "-A"
                            | "--app"
                            | "--worker"
                            | "-I"
                            | "--instance"
                    )
                {
                    i += 1;
                }
                i += 1;
            }
            let rest = words.get(i..)?;
            let inner = vec![Word::lit("sh"), Word::lit("-c"), Word::joined(rest)];
            (!rest.is_empty()).then(|| (format!("{name} ssh"), "app".to_owned(), inner))
        }
        _ => None,
    }
}

pub(crate) fn container_command(name: &str, words: &[Word]) -> Option<(String, String, Vec<Word>)> {
    if let Some(found) = platform_command(name, words) {
        return Some(found);
    }
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let (verb_at, kube) = match name {
        "docker" | "podman" | "nerdctl" | "docker-compose" | "podman-compose" => {
            let mut i = 0;
            let mut compose = name.ends_with("compose");
            // Global options (`docker --context x`, `docker compose -f f -p p`).
            while let Some(t) = texts.get(i) {
                if *t == "compose" && !compose {
                    compose = true;
                } else if t.starts_with('-') {
                    if !t.contains('=')
                        && matches!(
                            *t,
                            "-f" | "--file"
                                | "-p"
                                | "--project-name"
                                | "--context"
                                | "-c"
                                | "-H"
                                | "--host"
                                | "--env-file"
                                | "--profile"
                                | "--project-directory"
                                | "--log-level"
                                | "--config"
                        )
                    {
                        i += 1;
                    }
                } else {
                    break;
                }
                i += 1;
            }
            if !matches!(texts.get(i).copied(), Some("exec" | "run")) {
                return None;
            }
            (i, false)
        }
        "kubectl" | "oc" => {
            // The verb is the first word that is neither an option nor a global option's
            // value (`kubectl --context prod -n db exec …`: `prod` is not the verb).
            let mut i = 0;
            while let Some(t) = texts.get(i) {
                if !t.starts_with('-') {
                    break;
                }
                let takes_value = !t.contains('=')
                    && (matches!(*t, "-n" | "-s" | "-v")
                        || crate::deploy::KUBE_LONG.contains(t)
                        || matches!(
                            *t,
                            "--token"
                                | "--as"
                                | "--as-group"
                                | "--as-uid"
                                | "--request-timeout"
                                | "--certificate-authority"
                                | "--client-certificate"
                                | "--client-key"
                                | "--tls-server-name"
                                | "--cache-dir"
                        ));
                i += if takes_value { 2 } else { 1 };
            }
            // `oc rsh POD CMD` is OpenShift's `exec` with a shell by default.
            if !matches!(
                texts.get(i).copied(),
                Some("exec" | "run" | "debug" | "rsh")
            ) {
                return None;
            }
            (i, true)
        }
        _ => return None,
    };
    let verb = texts.get(verb_at).copied().unwrap_or("");
    let args = words.get(verb_at + 1..).unwrap_or(&[]);
    if kube {
        // Everything after `--` is the command; without it, `exec POD CMD…` (old form).
        let dash = args.iter().position(|w| w.exact && w.text == "--");
        let target = args
            .iter()
            .find(|w| !w.text.starts_with('-'))
            .map(|w| w.text.clone())
            .unwrap_or_default();
        let inner = match dash {
            Some(d) => args.get(d + 1..).unwrap_or(&[]).to_vec(),
            None if matches!(verb, "exec" | "rsh") => {
                let mut seen_target = false;
                let mut skip = false;
                let mut out = Vec::new();
                for w in args {
                    if skip {
                        skip = false;
                        continue;
                    }
                    if !seen_target {
                        if w.text.starts_with('-') {
                            skip = !w.text.contains('=')
                                && matches!(
                                    w.text.as_str(),
                                    "-n" | "--namespace" | "-c" | "--container" | "--context"
                                );
                            continue;
                        }
                        seen_target = true;
                        continue;
                    }
                    out.push(w.clone());
                }
                out
            }
            None => Vec::new(),
        };
        return (!inner.is_empty()).then(|| (format!("{name} {verb}"), target, inner));
    }
    let value_options: &[&str] = &[
        "-e",
        "--env",
        "-u",
        "--user",
        "-w",
        "--workdir",
        "--env-file",
        "--detach-keys",
        "-v",
        "--volume",
        "-p",
        "--publish",
        "--name",
        "--network",
        "--net",
        "--mount",
        "-l",
        "--label",
        "--platform",
        "--pull",
        "--restart",
        "-m",
        "--memory",
        "--cpus",
        "-h",
        "--hostname",
        "--add-host",
        "--device",
        "--cap-add",
        "--cap-drop",
        "--security-opt",
        "--log-driver",
        "--log-opt",
        "--tmpfs",
        "--ulimit",
        "--volumes-from",
        "--link",
        "--dns",
        "--ipc",
        "--pid",
        "--uts",
        "--shm-size",
        "--gpus",
        "--runtime",
        "--cidfile",
        "--expose",
        "--health-cmd",
        "--index",
        "--entrypoint",
        "-a",
        "--attach",
        "--group-add",
        "--stop-signal",
        "--stop-timeout",
        "--userns",
        "--cgroupns",
        "--memory-swap",
    ];
    let mut entrypoint: Option<Word> = None;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        if !w.exact || !t.starts_with('-') {
            break;
        }
        if let Some(v) = t.strip_prefix("--entrypoint=") {
            entrypoint = Some(Word::lit(v));
        } else if t == "--entrypoint" {
            entrypoint = args.get(i + 1).cloned();
        }
        i += if !t.contains('=') && value_options.contains(&t) {
            2
        } else {
            1
        };
    }
    let target = args.get(i)?.text.clone();
    let mut inner: Vec<Word> = entrypoint.into_iter().collect();
    inner.extend(args.get(i + 1..).unwrap_or(&[]).iter().cloned());
    (!inner.is_empty()).then(|| (format!("{name} {verb}"), target, inner))
}

/// A word naming a network destination: a URL with a non-file scheme, `s3://…`, `gs://…`.
fn is_network_url(word: &str) -> bool {
    word.split_once("://").is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && !rest.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+')
            && !scheme.eq_ignore_ascii_case("file")
    })
}

/// Rules written for the host's workspace boundary: inside a container the workspace is not
/// there, so such a finding asks instead of denying.
fn host_boundary_rule(rule: Option<&str>) -> bool {
    rule.is_some_and(|r| {
        r.starts_with("fs.delete_outside_workspace")
            || r == "fs.overwrite_outside_workspace"
            || r == "fs.permissions_outside_workspace"
    })
}

impl Walker<'_> {
    /// Remembers an assignment that puts frameworks on production (`RAILS_ENV=production`),
    /// for the framework tasks later in the line (a prefix assignment's value never reaches
    /// the command's argv).
    pub(crate) fn note_assignment(&mut self, name: &str, value: Option<&Word>) {
        if let Some(v) = value
            && v.exact
            && is_environment_marker(name, &v.text)
        {
            self.files.production = true;
        }
    }

    /// Commands a command carries to somewhere else: SQL or Redis commands on its stdin
    /// (`manage.py dbshell <<< 'DROP …'`, `echo FLUSHALL | redis-cli`), a Redis `EVAL`
    /// script, framework code runners (`rails runner CODE`), and the command a container or
    /// pod is asked to run (`docker exec app rm -rf /data`, `kubectl exec pg -- psql -c …`).
    pub(crate) fn judge_stdin_commands(
        &mut self,
        name: &str,
        argv: &[Word],
        stdin: &Producer,
        scope: &Scope,
    ) {
        // Cheap test first: this runs for every command.
        let runner = |w: &Word| {
            let base = crate::resolve::basename(&w.text);
            matches!(
                base,
                "manage.py" | "django-admin" | "rails" | "artisan" | "heroku"
            )
        };
        let redis = matches!(name, "redis-cli" | "valkey-cli" | "keydb-cli");
        if let Some(dest) = socket_destination(name, argv)
            && let Producer::Text { text, exact: true } = stdin
        {
            self.socket_protocol(argv, &dest, text, scope);
            return;
        }
        // Known text, expansions or not: a console's verbs are literal words of its lines.
        if let Producer::Text { text, .. } = stdin
            && crate::unknown_cli::may_be_console(name)
        {
            let console: Vec<&str> = argv.iter().skip(1).map(|w| w.text.as_str()).collect();
            if let Some(v) = crate::unknown_cli::console_line(name, &console, text) {
                self.record(argv, scope, v);
                return;
            }
        }
        if !(crate::names::listed!(CONTAINER_TOOLS, name)
            || redis
            || argv.iter().take(4).any(runner))
        {
            return;
        }
        let line: Vec<&str> = argv.iter().map(|w| w.text.as_str()).collect();
        let args = argv.get(1..).unwrap_or(&[]);
        if CONTAINER_TOOLS.contains(&name) {
            self.container(name, argv, args, stdin, scope);
            return;
        }
        if redis {
            self.redis(name, argv, args, stdin, scope);
            return;
        }
        if is_db_shell(&line) {
            let verdict = match stdin {
                Producer::Text { text, exact } => match crate::interp::scan_sql(text) {
                    SqlRisk::Drop => Some(ids::DB_DROP.verdict()),
                    SqlRisk::DeleteAll => Some(ids::DB_DELETE_ALL.verdict()),
                    SqlRisk::Privilege => Some(ids::DB_PRIVILEGE_CHANGE.verdict()),
                    SqlRisk::None if !exact => Some(ids::DB_OPAQUE_SQL.verdict()),
                    SqlRisk::None => None,
                },
                Producer::Nothing => None,
                _ => Some(ids::DB_OPAQUE_SQL.verdict()),
            };
            if let Some(v) = verdict {
                self.record(argv, scope, self.on_production(v, &line));
            }
            return;
        }
        if let Some((lang, code)) = framework_code(&line) {
            let code = match (code, stdin) {
                (Some(c), _) => Some(Word::lit(c)),
                (None, Producer::Text { text, exact }) => Some(Word {
                    text: text.clone(),
                    exact: *exact,
                    ..Word::lit("")
                }),
                _ => None,
            };
            if let Some(code) = code {
                if code.exact
                    && let Some(call) = self.code.bulk_delete(lang, &code.text)
                {
                    let mut v = self.on_production(ids::DB_ORM_BULK_DELETE.verdict(), &line);
                    v.reason = format!("{}: `{call}`", v.reason);
                    self.record(argv, scope, v);
                }
                let mut inner = scope.clone();
                self.foreign(lang, argv, &code, &mut inner, "framework runner");
            }
        }
    }

    /// The production form of a database verdict when the line targets production (an
    /// assignment earlier in the line, or a marker among the command's words:
    /// `RAILS_ENV=production`, `-e production`).
    fn on_production(&self, mut v: Verdict, line: &[&str]) -> Verdict {
        let marked = line.iter().any(|t| is_production_marker(t))
            || line
                .windows(2)
                .any(|w| matches!(w, ["-e" | "--environment" | "--env", "production" | "prod"]));
        if (self.files.production || marked) && v.blast_radius < BlastRadius::High {
            v.blast_radius = BlastRadius::High;
            v.reason = format!("{} (on the production environment)", v.reason);
        }
        v
    }

    /// Bytes a raw socket client sends (`printf 'FLUSHALL\r\n' | nc cache 6379`,
    /// `nc h 11211 <<< flush_all`, a heredoc'd HTTP request): read as the protocol of the
    /// destination port — Redis commands (inline or RESP) as `redis-cli` would be judged,
    /// memcached's `flush_all`, and an HTTP request line (self-identifying, any port) as `curl
    /// -X METHOD` would be. The destination's place decides as for the clients.
    fn socket_protocol(&mut self, argv: &[Word], dest: &SocketDest, text: &str, scope: &Scope) {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        // HTTP: `METHOD /path HTTP/1.x` on the first non-empty line.
        if let Some(first) = lines.iter().find(|l| !l.trim().is_empty()) {
            let mut parts = first.split_whitespace();
            if let (Some(method), Some(target), Some(version)) =
                (parts.next(), parts.next(), parts.next())
                && version.starts_with("HTTP/")
            {
                let host_header = lines.iter().find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.trim()
                        .eq_ignore_ascii_case("host")
                        .then(|| v.trim().to_owned())
                });
                let url = match (&dest.host, host_header) {
                    (_, Some(h)) => Some(format!("http://{h}{target}")),
                    (Some(h), None) => Some(format!("http://{h}{target}")),
                    (None, None) => None,
                };
                if let Some(mut v) = code_http_verdict(method, url.as_deref()) {
                    v.reason = format!("{} (`{method} {target}` written to the socket)", v.reason);
                    self.record(argv, scope, v);
                }
                return;
            }
        }
        let place_target =
            || crate::dbtarget::code_client_target(std::slice::from_ref(&dest.host), &[]);
        match dest.port {
            Some(6379 | 6380 | 6381 | 26379) => {
                for c in resp_commands(&lines) {
                    let parsed = Args::parse("redis-cli", &c);
                    if let Some(rule) = taxonomy::match_rules("redis-cli", &parsed) {
                        let mut v = rule.verdict();
                        v.reason = format!("{} (`{}` sent to Redis)", v.reason, c.join(" "));
                        let v = crate::dbtarget::judge(v, &place_target());
                        self.record(argv, scope, v);
                    }
                }
            }
            Some(11211) => {
                for l in &lines {
                    let verb = l.split_whitespace().next().unwrap_or("");
                    if matches!(verb, "flush_all" | "shutdown") {
                        let mut v = ids::DB_MEMCACHED_FLUSH.verdict();
                        v.reason = format!("{} (`{verb}` sent to memcached)", v.reason);
                        let v = crate::dbtarget::judge(v, &place_target());
                        self.record(argv, scope, v);
                    }
                }
            }
            _ => {}
        }
    }

    /// `redis-cli` commands: on stdin (one per line), and in `EVAL` scripts
    /// (`redis.call('flushall')`): each is judged like the same command given as arguments.
    fn redis(&mut self, name: &str, argv: &[Word], args: &[Word], stdin: &Producer, scope: &Scope) {
        let parsed = Args::parse_by(name, args, |w| w.text.as_str());
        let mut commands: Vec<Vec<String>> = Vec::new();
        if parsed.positionals.is_empty() {
            match stdin {
                Producer::Text { text, exact: true } => commands.extend(
                    text.lines()
                        .map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
                        .filter(|c| !c.is_empty()),
                ),
                Producer::Nothing => {}
                _ => self.record(
                    argv,
                    scope,
                    Verdict::unknown(
                        "the commands fed to redis-cli are built at run time or read from a file",
                    ),
                ),
            }
        }
        let first = parsed.positionals.first().copied().unwrap_or("");
        if (first.eq_ignore_ascii_case("eval") || first.eq_ignore_ascii_case("eval_ro"))
            && let Some(script) = parsed.positionals.get(1)
        {
            commands.extend(crate::code::redis_script_commands(script));
        }
        for c in commands {
            let parsed = Args::parse(name, &c);
            if let Some(rule) = taxonomy::match_rules(name, &parsed) {
                let mut v = rule.verdict();
                v.reason = format!("{} (`{}` sent to Redis)", v.reason, c.join(" "));
                self.record(argv, scope, v);
            }
        }
    }

    /// The command a container or pod runs is analysed as that command, on another machine
    /// (paths are the container's, so the host workspace's allowances do not apply and rules
    /// about the host's workspace boundary ask). A container that mounts a credential location
    /// and whose command reaches the network is exfiltration.
    fn container(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        stdin: &Producer,
        scope: &Scope,
    ) {
        let Some((label, target, inner)) = container_command(name, args) else {
            return;
        };
        if scope
            .via
            .iter()
            .filter(|v| v.contains(" exec") || v.contains(" run"))
            .count()
            >= 4
        {
            self.unknown("containers nested too deeply");
            return;
        }
        let mut remote = scope.clone();
        remote.cwd = Cwd::Unknown;
        remote.remote = true;
        remote.local_container = crate::dbtarget::local_daemon(name, args, scope);
        let before = self.commands.len();
        let via = format!("{label} {target}");
        self.peel(argv, &inner, &via, &mut remote, stdin.clone());
        let mut network: Option<String> = None;
        for c in self.commands.get_mut(before..).unwrap_or(&mut []) {
            if c.verdict.class == Class::Dangerous {
                if host_boundary_rule(c.verdict.rule_id.as_deref())
                    && c.verdict.blast_radius == BlastRadius::High
                {
                    c.verdict.blast_radius = BlastRadius::Medium;
                }
                c.verdict.reason =
                    format!("{} (inside the container `{target}`)", c.verdict.reason);
            }
            let program = c.argv.first().map(|p| crate::resolve::command_name(p));
            if network.is_none()
                && let Some(p) = program
                && (crate::flow::maybe_network_client(&p)
                    || c.argv.iter().skip(1).any(|a| is_network_url(a)))
            {
                network = Some(p);
            }
        }
        if network.is_none() && inner.iter().any(|w| is_network_url(&w.text)) {
            network = inner.first().map(|w| w.text.clone());
        }
        let source = crate::flow::command_source(
            name,
            args,
            &Producer::Nothing,
            false,
            &scope.cwd,
            self.ctx,
            &self.files,
        );
        if let (Some(tool), Some(source @ crate::model::FlowSource::ContainerMount { .. })) =
            (network, source)
        {
            let flow = Flow {
                source,
                sink: FlowSink::Network {
                    tool,
                    channel: Channel::Argument,
                },
            };
            let v = crate::flow::verdict(ids::CRED_EXFILTRATE, flow);
            self.record(argv, scope, v);
        }
    }
}

/// `pattern` and `path` have the same `/`-separated components, a `*` component standing for
/// any one real name (a version directory such as `v20.0.0`; never `.`, `..` or empty).
/// Whether a PATH entry names a workspace directory a package manager fills
/// (`taxonomy::workspace_bin_dirs`): the directory written relative (`node_modules/.bin`,
/// `./.venv/bin`), under the current directory (`$PWD/…`, `$(pwd)/…`) or under the
/// workspace root spelled out. Anything else in the workspace (`./bin`, `.`, `scripts`) is
/// content the agent writes itself, so `rce.env_hijack` still asks for it.
/// Variables naming where a language looks for the modules a program imports: pointing them
/// into the project (`PYTHONPATH=$PWD/src`, `NODE_PATH=./lib`) is how projects without an
/// installed package run their own code; pointing them elsewhere (`/tmp`, the home) makes
/// every import of a common name load whatever is there.
const SEARCH_PATH_VARIABLES: &[&str] = &[
    "PYTHONPATH",
    "NODE_PATH",
    "PERL5LIB",
    "PERLLIB",
    "RUBYLIB",
    "CLASSPATH",
];

/// Whether every `:`-separated entry of a module search path is inside the workspace — `$PWD`
/// or a workspace path with no `..`, a relative path with none, an empty entry (the current
/// directory) — or the variable's own earlier value (`$PYTHONPATH`).
///
/// The earlier value may be written as bash's guarded forms when it is not known on the line:
/// `${PYTHONPATH:-}` (the value or nothing) and `${PYTHONPATH:+:$PYTHONPATH}` (a `:` and the
/// value, only when it is set) name nothing but that value.
fn workspace_search_path(name: &str, value: &str, workspace: &str) -> bool {
    // Rewritten to `$NAME` before splitting at `:`, which these forms contain.
    let mut value = value.to_owned();
    for op in [":+", "+"] {
        for own in [format!("${name}"), format!("${{{name}}}")] {
            value = value.replace(&format!("${{{name}{op}:{own}}}"), &format!(":${name}"));
        }
    }
    for op in [":-", "-"] {
        value = value.replace(&format!("${{{name}{op}}}"), &format!("${name}"));
    }
    value.split(':').all(|entry| {
        let entry = entry.trim_end_matches('/');
        let own = entry
            .strip_prefix("${")
            .and_then(|e| e.strip_suffix('}'))
            .or_else(|| entry.strip_prefix('$'))
            .is_some_and(|v| v == name);
        let inside = ["$PWD", "${PWD}", "$(pwd)", "`pwd`", "."]
            .iter()
            .find_map(|p| entry.strip_prefix(p))
            .filter(|r| r.is_empty() || r.starts_with('/'))
            .or_else(|| {
                entry
                    .strip_prefix(workspace)
                    .filter(|r| r.is_empty() || r.starts_with('/'))
            })
            .or_else(|| (!entry.starts_with(['/', '~', '$', '`'])).then_some(entry));
        own || inside.is_some_and(|rest| {
            !rest
                .split('/')
                .any(|c| c == ".." || c.contains(['$', '`', '*']))
        })
    })
}

fn workspace_bin_entry(entry: &str, workspace: &str) -> bool {
    let relative = ["$PWD/", "${PWD}/", "$(pwd)/", "`pwd`/", "./"]
        .iter()
        .find_map(|p| entry.strip_prefix(p))
        .or_else(|| {
            entry
                .strip_prefix(workspace)
                .and_then(|r| r.strip_prefix('/'))
        })
        .unwrap_or(entry);
    taxonomy::workspace_bin_dirs()
        .iter()
        .any(|dir| components_match(dir, relative))
}

fn components_match(pattern: &str, path: &str) -> bool {
    let mut p = pattern.split('/');
    let mut q = path.split('/');
    loop {
        match (p.next(), q.next()) {
            (None, None) => return true,
            (Some("*"), Some(c)) if !matches!(c, "" | "." | "..") && !c.contains('$') => {}
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

/// A well-known tool printing its shell set-up code (`pyenv init -`, `brew shellenv`,
/// `ssh-agent -s`, `kubectl completion bash`), judged no worse than ordinary work.
fn is_shell_init(c: &ExecutedCommand) -> bool {
    let Some(program) = c.argv.first() else {
        return false;
    };
    let name = program.rsplit('/').next().unwrap_or(program);
    let sub = c.argv.get(1).map_or("", String::as_str);
    matches!(c.verdict.class, Class::Safe | Class::Normal)
        && taxonomy::shell_init_subcommands(name)
            .is_some_and(|subs| subs.contains(&sub) || (subs.contains(&"*") && !sub.is_empty()))
}

/// `pgrep -u USER` (or `ps -u USER -o pid=`) with no name pattern: lists every process of a
/// user, group, session or parent.
/// `pgrep sshd`, `pidof dockerd`: PIDs of a process the session depends on, by bare name
/// ([`CRITICAL_PROCESSES`]).
fn selects_critical(c: &ExecutedCommand) -> bool {
    let Some(program) = c.argv.first() else {
        return false;
    };
    match program.rsplit('/').next().unwrap_or(program) {
        // By name (`pidof mongod`), by pattern (`pgrep -x redis-server`), or by the whole
        // command line when the pattern is one name (`pgrep -f postgres` selects every
        // postgres process; `pgrep -f "postgres -D ./data"` one instance).
        "pgrep" | "pidof" => c
            .argv
            .iter()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .any(|a| names_critical(a)),
        // `kill $(cat /run/sshd.pid)`: a service's own PID file.
        "cat" | "head" | "tail" => c.argv.iter().skip(1).any(|a| system_pidfile(a)),
        // `lsof -t -i:5432`, `lsof -ti tcp:6379`: whatever listens on a service's port.
        "lsof" => c.argv.iter().skip(1).any(|a| {
            let spec = a
                .strip_prefix("-i")
                .or_else(|| a.strip_prefix("-ti"))
                .unwrap_or(a);
            spec.contains(':') && service_port(spec)
        }),
        _ => false,
    }
}

fn selects_by_user_only(c: &ExecutedCommand) -> bool {
    let Some(program) = c.argv.first() else {
        return false;
    };
    let words: Vec<Word> = c
        .argv
        .iter()
        .skip(1)
        .map(|t| Word::lit(t.clone()))
        .collect();
    match program.rsplit('/').next().unwrap_or(program) {
        "pgrep" => {
            let (opts, operands) = scan("pgrep", &words, "uUGgsPtFd", &[]);
            let by_owner = opts
                .iter()
                .any(|o| OWNER_SELECTORS.contains(&o.name.as_str()));
            // By owner with no pattern, or a pattern that matches every process (`-f .`).
            (by_owner && operands.iter().all(|p| broad_pattern(&p.text)))
                || (!operands.is_empty() && operands.iter().all(|p| broad_pattern(&p.text)))
        }
        "ps" => {
            let (opts, operands) = scan("ps", &words, "uUgGpost", &[]);
            // BSD style `ps aux` / `ps ax`: every process.
            let bsd_all = operands.iter().any(|w| {
                w.text.contains('a')
                    && w.text.contains('x')
                    && w.text.bytes().all(|b| b.is_ascii_alphabetic())
            });
            bsd_all
                || opts
                    .iter()
                    .any(|o| matches!(o.name.as_str(), "-u" | "-U" | "-g" | "-G" | "-e" | "-A"))
        }
        "lsof" => lsof_pids_broad(c.argv.get(1..).unwrap_or(&[])),
        _ => false,
    }
}

/// `lsof -t` printing the PIDs of every process with a network socket (`-i` with no address,
/// `-ti`), of every process of a user (`-u USER` alone), or of every process with an open
/// file (no selection at all): the enumeration `kill -9 $(lsof -t -i)` kills. An address
/// (`-i:3000`, `-i :5432`, `-itcp@host`), a PID, command or group selection, or a file
/// operand narrows it to what the session started or named (`kill $(lsof -t -i:3000)` stops
/// the dev server: left to the port rules).
fn lsof_pids_broad(args: &[String]) -> bool {
    let short = |a: &str| a.starts_with('-') && !a.starts_with("--") && a.len() > 1;
    if !args
        .iter()
        .any(|a| short(a) && !a.starts_with("-i") && a.contains('t'))
    {
        return false;
    }
    let address = |s: &str| {
        s.starts_with(':')
            || s.contains('@')
            || s.starts_with("tcp")
            || s.starts_with("udp")
            || s.starts_with("TCP")
            || s.starts_with("UDP")
            || s.starts_with('4')
            || s.starts_with('6')
    };
    let mut bare_socket = false;
    let mut narrowed = false;
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        if short(a) {
            let flags = &a[1..];
            if let Some(at) = flags.find('i') {
                let spec = &flags[at + 1..];
                if !spec.is_empty() {
                    narrowed |= address(spec);
                } else if it.peek().is_some_and(|n| address(n)) {
                    it.next();
                    narrowed = true;
                } else {
                    bare_socket = true;
                }
            }
            if flags.contains(['p', 'c', 'g', 'd']) && !flags.contains('i') {
                narrowed = true;
                it.next();
            }
        } else if !a.starts_with("--") {
            // A file or directory operand: the processes holding it open.
            narrowed = true;
        }
    }
    bare_socket || !narrowed
}

/// A name pattern that selects (almost) everything.
fn broad_pattern(p: &str) -> bool {
    p.chars()
        .all(|c| matches!(c, '.' | '*' | '^' | '$' | '+' | '?' | '|' | '(' | ')'))
        || p.chars().count() == 1
}

/// A backup tool's verb that removes backups, read as data: what it keeps decides whether it
/// is retention (`restic forget --keep-daily 7 --prune`: routine) or the deletion of backups
/// (`data.backup_delete`, as `borg delete`): snapshots named for removal, an option that
/// removes everything, or a retention policy every count of which is zero.
struct Retention {
    tool: &'static str,
    /// The verb words after the tool (`["snapshot", "delete"]`).
    verb: &'static [&'static str],
    /// Options that name what is kept (`--keep-last N`); given, and each zero, nothing is.
    keeps: &'static [&'static str],
    /// Options that take a value in the next word (the keeps too) and are not operands.
    values: &'static [&'static str],
    /// Options that remove every backup of the selection.
    remove_all: &'static [&'static str],
    /// Without this option nothing is removed (a listing of what would be); `None`: always.
    commit: Option<&'static str>,
    /// Options under which nothing is removed (`--dry-run`).
    dry: &'static [&'static str],
    /// Whether operands name backups to remove (`restic forget ID…`); otherwise the first
    /// operand is a count of full backups kept (`duplicity remove-all-but-n-full N URL`).
    operands_removed: bool,
}

/// Global options of restic that take a value (repository, credentials, cache).
const RESTIC_VALUES: &[&str] = &[
    "-r",
    "--repo",
    "--repository-file",
    "-p",
    "--password-file",
    "--password-command",
    "--cache-dir",
    "-o",
    "--option",
    "--compression",
    "--pack-size",
    "--limit-upload",
    "--limit-download",
    "--key-hint",
    "--tls-client-cert",
    "--cacert",
    "--host",
    "--tag",
    "--path",
    "-g",
    "--group-by",
    "--max-unused",
    "--max-repack-size",
    "--retry-lock",
];

/// Whether a backup tool's retention verbs are judged here ([`RETENTION`]): a pruning that
/// keeps something is ordinary, which a guess about its verb must not overrule.
pub(crate) fn judges_retention(name: &str) -> bool {
    RETENTION.iter().any(|r| r.tool == name)
}

const RETENTION: &[Retention] = &[
    Retention {
        tool: "restic",
        verb: &["forget"],
        keeps: &[
            "-l",
            "--keep-last",
            "-H",
            "--keep-hourly",
            "-d",
            "--keep-daily",
            "-w",
            "--keep-weekly",
            "-m",
            "--keep-monthly",
            "-y",
            "--keep-yearly",
            "--keep-within",
            "--keep-within-hourly",
            "--keep-within-daily",
            "--keep-within-weekly",
            "--keep-within-monthly",
            "--keep-within-yearly",
            "--keep-tag",
        ],
        values: RESTIC_VALUES,
        remove_all: &["--unsafe-allow-remove-all"],
        commit: None,
        dry: &["-n", "--dry-run"],
        operands_removed: true,
    },
    // `kopia snapshot delete ID… --delete` (without `--delete` it only lists what it would).
    Retention {
        tool: "kopia",
        verb: &["snapshot", "delete"],
        keeps: &[],
        values: &[
            "--config-file",
            "--password",
            "--log-dir",
            "--cache-directory",
        ],
        remove_all: &["--all-snapshots-for-source"],
        commit: Some("--delete"),
        dry: &[],
        operands_removed: true,
    },
    // `duplicity remove-all-but-n-full 0 --force URL`: no full chain kept (duplicity keeps
    // the newest chain for `remove-older-than`, so that verb is retention).
    duplicity_remove(&["remove-all-but-n-full"]),
    duplicity_remove(&["remove-all-inc-of-but-n-full"]),
];

/// duplicity's two whole-chain removals share their options: without `--force` they only
/// list what they would remove.
const fn duplicity_remove(verb: &'static [&'static str]) -> Retention {
    Retention {
        tool: "duplicity",
        verb,
        keeps: &[],
        values: &[
            "--archive-dir",
            "--name",
            "--encrypt-key",
            "--sign-key",
            "--gpg-options",
            "-t",
            "--time",
        ],
        remove_all: &[],
        commit: Some("--force"),
        dry: &["--dry-run"],
        operands_removed: false,
    }
}

/// A keep count or duration that keeps nothing (`0`, `0d`, `0y0m0d0h`); `unlimited`, a
/// tag and an unknown word keep something.
fn keeps_nothing(option: &str, value: &str) -> bool {
    if option == "--keep-tag" {
        return false;
    }
    !value.is_empty()
        && value.bytes().all(|b| b == b'0' || b.is_ascii_alphabetic())
        && value.bytes().any(|b| b == b'0')
        && value != "unlimited"
}

/// `restic forget --keep-last 0 --prune`, `restic forget 4bba301e`, `kopia snapshot delete
/// k1234 --delete`, `duplicity remove-all-but-n-full 0 --force URL`: see [`Retention`].
fn backup_retention(name: &str, words: &[Word]) -> Option<Verdict> {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    for r in RETENTION.iter().filter(|r| r.tool == name) {
        // The verb: the first words that are not options or their values.
        let mut k = 0;
        let mut verb = Vec::new();
        while let Some(w) = texts.get(k) {
            if verb.len() == r.verb.len() {
                break;
            }
            if w.starts_with('-') {
                k += usize::from(r.values.contains(w) && !w.contains('=')) + 1;
                continue;
            }
            verb.push(*w);
            k += 1;
        }
        if verb != r.verb {
            continue;
        }
        let mut operands: Vec<&Word> = Vec::new();
        let mut keeps: Vec<(&str, &str)> = Vec::new();
        let (mut all, mut commit, mut dry) = (false, r.commit.is_none(), false);
        let mut rest = words[k..].iter();
        while let Some(w) = rest.next() {
            let t = w.text.as_str();
            if !t.starts_with('-') || t == "-" {
                operands.push(w);
                continue;
            }
            let (opt, inline) = t.split_once('=').map_or((t, None), |(o, v)| (o, Some(v)));
            if r.keeps.contains(&opt) {
                let value = match inline {
                    Some(v) => Some(v),
                    None => rest.next().map(|v| v.text.as_str()),
                };
                keeps.push((opt, value.unwrap_or("")));
            } else if r.values.contains(&opt) && inline.is_none() {
                rest.next();
            }
            all |= r.remove_all.contains(&opt);
            commit |= r.commit == Some(opt);
            dry |= r.dry.contains(&opt);
        }
        if dry || !commit {
            continue;
        }
        let removes = all
            || (!keeps.is_empty() && keeps.iter().all(|(o, v)| keeps_nothing(o, v)))
            || if r.operands_removed {
                !operands.is_empty()
            } else {
                operands
                    .first()
                    .is_some_and(|n| n.exact && n.text.bytes().all(|b| b == b'0'))
            };
        if removes {
            return Some(ids::DATA_BACKUP_DELETE.verdict());
        }
    }
    None
}

/// `pkill`/`killall` selecting broadly: by user/group/session/terminal with no pattern, a
/// pattern that matches almost anything, or a bare name of a process the session relies on.
fn broad_killer(name: &str, words: &[Word]) -> Option<Verdict> {
    // `-9`, `-KILL`, `-HUP`: signals, not options.
    let words: Vec<Word> = words
        .iter()
        .filter(|w| {
            let t = w.text.as_str();
            let sig = t.strip_prefix('-').is_some_and(|s| {
                !s.is_empty()
                    && (s.bytes().all(|b| b.is_ascii_digit())
                        || (s.len() > 1
                            && s.bytes()
                                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())))
            });
            !(w.exact && sig)
        })
        .cloned()
        .collect();
    let (short, long): (&str, &[&str]) = if name == "killall" {
        (
            "usnoyOZ",
            &[
                "--user",
                "--signal",
                "--older-than",
                "--younger-than",
                "--context",
            ],
        )
    } else {
        (
            "uUGgsPtF",
            &[
                "--signal",
                "--euid",
                "--uid",
                "--group",
                "--pgroup",
                "--session",
                "--parent",
                "--terminal",
                "--pidfile",
                "--ns",
                "--nslist",
            ],
        )
    };
    let (opts, operands) = scan(name, &words, short, long);
    // killall's `-s` is the signal, not a session.
    let by_owner = opts
        .iter()
        .any(|o| OWNER_SELECTORS.contains(&o.name.as_str()))
        && !(name == "killall" && opts.iter().any(|o| o.name == "-s"));
    let regex = name == "pkill" || opts.iter().any(|o| o.name == "-r" || o.name == "--regexp");
    let full = opts.iter().any(|o| o.name == "-f" || o.name == "--full");
    // `pkill -F /run/sshd.pid`: the PID a service wrote.
    if opts.iter().any(|o| {
        matches!(o.name.as_str(), "-F" | "--pidfile")
            && o.value.as_ref().is_some_and(|v| system_pidfile(&v.text))
    }) {
        return Some(ids::SYS_KILLALL.verdict());
    }
    let broad = if operands.is_empty() {
        by_owner
    } else {
        operands.iter().any(|p| {
            !p.exact
                || (regex && broad_pattern(&p.text))
                || (!full || !p.text.contains(char::is_whitespace)) && names_critical(&p.text)
        })
    };
    broad.then(|| ids::SYS_KILLALL.verdict())
}

/// True when `word` (by basename) is one of [`FRAMEWORK_TASKS`]' tools.
/// The tools of [`FRAMEWORK_TASKS`], sorted for a binary search (every command's first words
/// are looked up; a unit test checks the two tables agree).
const FRAMEWORK_TOOLS: &[&str] = &[
    "alembic",
    "artisan",
    "atlas",
    "console",
    "dbmate",
    "dbt",
    "diesel",
    "django-admin",
    "dotnet",
    "dotnet-ef",
    "drizzle-kit",
    "drush",
    "fauna",
    "flask",
    "flyway",
    "goose",
    "hasura",
    "influx",
    "knex",
    "liquibase",
    "magento",
    "manage.py",
    "migrate",
    "mikro-orm",
    "mix",
    "prisma",
    "sequelize",
    "sequelize-cli",
    "sqlx",
    "supabase",
    "typeorm",
    "typeorm-ts-node-commonjs",
    "wp",
    "yii",
];

/// The (first byte, length) shapes of `FRAMEWORK_TOOLS` names, one bit per length (63: any
/// longer): most words (`git`, `status`, `-p`) are rejected without a search.
const FRAMEWORK_SHAPES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < FRAMEWORK_TOOLS.len() {
        let b = FRAMEWORK_TOOLS[i].as_bytes();
        let len = if b.len() > 63 { 63 } else { b.len() };
        t[b[0] as usize] |= 1u64 << len;
        i += 1;
    }
    t
};

fn is_framework_tool(word: &str) -> bool {
    let base = crate::resolve::basename(word);
    base.bytes()
        .next()
        .is_some_and(|b| FRAMEWORK_SHAPES[usize::from(b)] & (1u64 << base.len().min(63)) != 0)
        && FRAMEWORK_TOOLS.binary_search(&base).is_ok()
}

/// The task words right after the tool (`manage.py flush`), or, when the tool takes its
/// options first (`migrate -path db -database URL down -all`, `dbmate --url U drop`), as a
/// contiguous run of the words that are not options. `*` stands for any one word (`migrate
/// APP zero`).
fn task_matches(after: &[&str], task: &[&str]) -> bool {
    let same = |window: &[&str]| {
        window.len() == task.len() && window.iter().zip(task).all(|(w, t)| *t == "*" || w == t)
    };
    if after.get(..task.len()).is_some_and(same) {
        return true;
    }
    let words: Vec<&str> = after
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    !task.is_empty() && words.windows(task.len()).any(same)
}

/// `python manage.py flush`, `npx prisma migrate reset`, `php artisan migrate:fresh`, …
fn other_framework_task(
    name: &str,
    words: &[Word],
    scope: &Scope,
    production_env: bool,
) -> Option<Verdict> {
    let line: Vec<&str> = std::iter::once(name)
        .chain(words.iter().map(|w| w.text.as_str()))
        .collect();
    let hit = line.iter().enumerate().any(|(i, word)| {
        let base = crate::resolve::basename(word);
        let rest = line.get(i + 1..).unwrap_or(&[]);
        FRAMEWORK_TASKS.iter().any(|(tool, task, flag)| {
            *tool == base && task_matches(rest, task) && flag.is_none_or(|f| rest.contains(&f))
        }) || destructive_macro(base, rest)
    });
    if !hit {
        return None;
    }
    let production = production_env
        || line.iter().any(|t| {
            is_production_marker(t)
                || matches!(
                    *t,
                    "--env=production" | "--env=prod" | "NODE_ENV=production" | "MIX_ENV=prod"
                )
        })
        || line
            .windows(2)
            .any(|w| matches!(w, ["--env" | "-e", "production" | "prod"]))
        || line.iter().any(|t| production_site_alias(t));
    let local_stack = line.iter().enumerate().find_map(|(i, word)| {
        let base = crate::resolve::basename(word);
        let rest = line.get(i + 1..).unwrap_or(&[]);
        LOCAL_STACK_TASKS
            .iter()
            .find(|(tool, task, _)| *tool == base && task_matches(rest, task))
            .map(|(tool, _, elsewhere)| {
                (
                    tool,
                    words.iter().all(|w| w.exact)
                        && !rest
                            .iter()
                            .any(|w| elsewhere.contains(&w.split_once('=').map_or(*w, |(o, _)| o))),
                )
            })
    });
    let env = match local_stack {
        Some((tool, true)) => {
            crate::dbtarget::TaskEnv::Local(format!("{tool}'s local development stack"))
        }
        _ => crate::dbtarget::task_env(name, words, scope),
    };
    Some(crate::dbtarget::framework_reset(&env, production))
}

/// Framework tasks whose database, unless an option points elsewhere, is the tool's own
/// local development stack (containers it started on this machine): `(tool, task, the
/// options that aim it at another database)`. `supabase db reset` resets the local stack;
/// `--linked` or `--db-url` resets the linked (hosted) project's database and stays asked.
const LOCAL_STACK_TASKS: &[(&str, &[&str], &[&str])] = &[(
    "supabase",
    &["db", "reset"],
    &["--linked", "--db-url", "--project-ref"],
)];

/// `rails db:drop`, `rake db:reset RAILS_ENV=production`, `bundle exec rails db:purge`.
fn framework_task(
    name: &str,
    words: &[Word],
    scope: &Scope,
    production_env: bool,
) -> Option<Verdict> {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    // `db:migrate VERSION=0` unapplies every migration (drops every table they created).
    let destructive = texts.iter().any(|t| DB_RESET_TASKS.contains(t))
        || (texts.iter().any(|t| t.starts_with("db:migrate")) && texts.contains(&"VERSION=0"));
    if !destructive {
        return None;
    }
    let production = production_env
        || texts.iter().any(|t| is_production_marker(t))
        || texts
            .windows(2)
            .any(|w| matches!(w, ["-e" | "--environment", "production" | "prod"]));
    let env = crate::dbtarget::task_env(name, words, scope);
    Some(crate::dbtarget::framework_reset(&env, production))
}

/// A network server that hands a shell to whoever connects: `telnetd -l PROG` (busybox's,
/// utelnetd, inetutils') runs PROG instead of `login` for every connection, no password asked:
/// a bind shell by another route (`rce.reverse_shell`, as `ncat -l -e /bin/sh`). `-l
/// /bin/login` is the server's ordinary set-up. (`ttyd`/`gotty`/`websocketd` are the
/// catalogue's `rce.web_shell`.)
fn serves_a_shell(words: &[Word]) -> Option<Verdict> {
    words
        .iter()
        .enumerate()
        .any(|(i, w)| {
            let program = match w.text.strip_prefix("-l") {
                Some("") => words.get(i + 1).map(|v| v.text.as_str()),
                Some(v) if w.exact => Some(v),
                _ => None,
            };
            program.is_some_and(|p| p.rsplit('/').next().is_some_and(|b| b != "login"))
        })
        .then(|| ids::RCE_REVERSE_SHELL.verdict())
}

/// Registry keys whose values Windows runs at logon (the path after the hive, without its
/// backslashes: bash removes unquoted ones, so both spellings reduce to this).
const AUTORUN_KEYS: &[&str] = &[
    "currentversionrun",
    "currentversionrunonce",
    "currentversionrunonceex",
    "currentversionrunservices",
    "currentversionrunservicesonce",
    "currentversionpoliciesexplorerrun",
    "currentversionwinlogon",
];

/// `reg add HKCU\…\CurrentVersion\Run /v NAME /d PROG` (`reg.exe` from WSL): a program
/// registered to run at every logon, or a debugger that replaces a program (Image File
/// Execution Options). `reg query`, `reg add` of an application's own settings stay
/// ordinary (`sys.windows_autorun`).
fn windows_autorun_key(words: &[Word]) -> Option<Verdict> {
    let (verb, rest) = words.split_first()?;
    if !(verb.text.eq_ignore_ascii_case("add")
        || verb.text.eq_ignore_ascii_case("import")
        || verb.text.eq_ignore_ascii_case("copy"))
    {
        return None;
    }
    if verb.text.eq_ignore_ascii_case("import") {
        // A .reg file's keys are not visible here: it may write any of them.
        return Some(Verdict::unknown("imports registry keys from a file"));
    }
    let key: String = rest
        .iter()
        .find(|w| !w.text.starts_with('/'))?
        .text
        .chars()
        .filter(|c| !matches!(c, '\\' | '/'))
        .flat_map(char::to_lowercase)
        .collect();
    let key = key.replace(' ', "");
    (AUTORUN_KEYS.iter().any(|k| key.ends_with(k))
        || key.contains("imagefileexecutionoptions")
        || key.ends_with("environment")
            && rest
                .iter()
                .any(|w| w.text.eq_ignore_ascii_case("UserInitMprLogonScript")))
    .then(|| ids::SYS_WINDOWS_AUTORUN.verdict())
}

/// `schtasks /create …` (or `/change` of what a task runs, `-create` spellings too): a
/// program Windows runs later on a schedule or at logon (`sys.windows_scheduled_task`).
/// `/query`, `/run`, `/end`, `/delete` stay ordinary.
fn creates_scheduled_task(words: &[Word]) -> Option<Verdict> {
    let switch = |w: &Word, s: &str| {
        w.text
            .strip_prefix(['/', '-'])
            .is_some_and(|t| t.eq_ignore_ascii_case(s))
    };
    (words.iter().any(|w| switch(w, "create"))
        || (words.iter().any(|w| switch(w, "change")) && words.iter().any(|w| switch(w, "tr"))))
    .then(|| ids::SYS_WINDOWS_SCHEDULED_TASK.verdict())
}

/// Long-lived branches others build on (a `release/…` or `hotfix/…` prefix counts too).
const SHARED_BRANCHES: &[&str] = &[
    "main",
    "master",
    "trunk",
    "develop",
    "development",
    "dev",
    "production",
    "prod",
    "release",
    "stable",
    "staging",
];

/// A data store's delete verb given keys only known at run time: `xargs`' items (`redis-cli
/// --scan … | xargs redis-cli del`) or a substitution (`etcdctl del $(etcdctl get / --prefix
/// --keys-only)`), `db.mass_delete_keys`. Literal keys (`redis-cli del session:42`) are one
/// reviewed deletion and stay allowed. Verbs are matched case-insensitively as the servers do.
fn mass_key_delete(name: &str, words: &[Word], args: &Args<'_>) -> Option<Verdict> {
    let verb = match (name, args.positionals.as_slice()) {
        ("etcdctl", [v, ..]) if ["del", "rm"].iter().any(|d| v.eq_ignore_ascii_case(d)) => *v,
        ("consul", ["kv", v @ "delete", ..]) => *v,
        ("redis-cli" | "valkey-cli" | "keydb-cli", [v, ..])
            if ["del", "unlink", "hdel", "getdel"]
                .iter()
                .any(|d| v.eq_ignore_ascii_case(d)) =>
        {
            *v
        }
        _ => return None,
    };
    // The keys are the words after the verb (a host given as `-h $REDIS_HOST` is not one).
    let at = words.iter().position(|w| w.exact && w.text == verb)?;
    words
        .get(at + 1..)?
        .iter()
        .any(|w| !w.exact)
        .then(|| ids::DB_MASS_DELETE_KEYS.verdict())
}

/// Package managers' uninstall verbs: `(program, subcommands)`, or for the flag-verb managers
/// (`rpm -e`, `pacman -R`, `dpkg -r|-P`, `nix-env -e`) the flags.
const UNINSTALLERS: &[(&str, &[&str])] = &[
    ("pip", &["uninstall"]),
    ("pip3", &["uninstall"]),
    ("pipx", &["uninstall"]),
    ("uv", &["pip"]),
    ("conda", &["remove", "uninstall"]),
    ("mamba", &["remove", "uninstall"]),
    ("npm", &["uninstall", "remove", "rm", "un", "r", "unlink"]),
    ("pnpm", &["remove", "rm", "uninstall", "un"]),
    ("yarn", &["remove"]),
    ("bun", &["remove", "rm"]),
    ("gem", &["uninstall"]),
    ("brew", &["uninstall", "remove", "rm"]),
    ("port", &["uninstall"]),
    ("cargo", &["uninstall"]),
    ("apt", &["remove", "purge"]),
    ("apt-get", &["remove", "purge"]),
    ("dnf", &["remove", "erase"]),
    ("yum", &["remove", "erase"]),
    ("zypper", &["remove", "rm"]),
    ("apk", &["del"]),
    ("snap", &["remove"]),
    ("flatpak", &["uninstall", "remove"]),
    ("choco", &["uninstall"]),
    ("scoop", &["uninstall"]),
    ("winget", &["uninstall"]),
];

/// Flag verbs that uninstall: `rpm -e`, `pacman -R…`, `dpkg -r|-P`, `nix-env -e`.
const UNINSTALL_FLAGS: &[(&str, &[&str])] = &[
    ("rpm", &["-e", "--erase"]),
    ("pacman", &["-R", "--remove"]),
    ("yay", &["-R", "--remove"]),
    ("paru", &["-R", "--remove"]),
    ("dpkg", &["-r", "--remove", "-P", "--purge"]),
    ("nix-env", &["-e", "--uninstall"]),
];

/// Whether `name` with these arguments is a package manager's uninstall.
fn uninstalls(name: &str, args: &Args<'_>) -> bool {
    let by_sub = UNINSTALLERS.iter().any(|(tool, subs)| {
        *tool == name && args.positionals.first().is_some_and(|s| subs.contains(s))
    });
    by_sub
        || UNINSTALL_FLAGS
            .iter()
            .any(|(tool, flags)| *tool == name && args.has_any(flags))
}

/// Whether a recorded command prints a batch scheduler's jobs by a selection rather than by
/// name: `squeue`, `sacct`, `qselect`, `qstat`, `bjobs`, `condor_q` without a job list or a
/// job-name filter (`squeue -j 41,42`, `squeue --name=train`, `qstat 41` name their jobs).
fn lists_batch_jobs(c: &ExecutedCommand) -> bool {
    let Some((program, rest)) = c.argv.split_first() else {
        return false;
    };
    let names_jobs = |flags: &[&str]| {
        rest.iter().any(|a| {
            flags
                .iter()
                .any(|f| a == f || a.strip_prefix(f).is_some_and(|v| v.starts_with('=')))
        })
    };
    match crate::resolve::basename(program) {
        "squeue" | "sacct" => !names_jobs(&["-j", "--jobs", "-n", "--name", "--jobname"]),
        "qselect" => !names_jobs(&["-N"]),
        // `qstat 41 42`, `bjobs 41`, `qstat 41.pbs01`, `condor_q 1234.0`: job ids as
        // operands (a value of `-u dev` is a name, not digits).
        "qstat" | "bjobs" | "condor_q" => {
            !names_jobs(&["-J", "-N"])
                && !rest
                    .iter()
                    .any(|a| a.chars().next().is_some_and(|c| c.is_ascii_digit()))
        }
        _ => false,
    }
}

/// Whether a recorded command prints the packages a package manager has installed: `pip
/// freeze|list`, `brew list|leaves`, `npm ls -g`, `gem list`, `rpm -qa`, `dpkg -l` and
/// `--get-selections`, `dpkg-query -W`, `apt list --installed`, `apt-mark showmanual`,
/// `pacman -Q…`, `dnf|yum list installed`, `snap|flatpak list`, `port installed`,
/// `conda list`, `cargo install --list`, `pipx list`.
fn lists_installed_packages(c: &ExecutedCommand) -> bool {
    let Some(program) = c.argv.first() else {
        return false;
    };
    let program = program.rsplit('/').next().unwrap_or(program);
    let rest: Vec<&str> = c.argv.iter().skip(1).map(String::as_str).collect();
    let first = rest.iter().find(|a| !a.starts_with('-')).copied();
    let has = |f: &str| rest.contains(&f);
    let short = |letter: char| {
        rest.iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(letter))
    };
    match program {
        "pip" | "pip3" | "pipx" | "uv" => rest.iter().any(|a| matches!(*a, "freeze" | "list")),
        "brew" => matches!(first, Some("list" | "ls" | "leaves")),
        "npm" | "pnpm" | "yarn" => matches!(first, Some("ls" | "list" | "ll" | "la")),
        "gem" | "conda" | "mamba" | "snap" | "flatpak" | "choco" | "scoop" | "winget" => {
            matches!(first, Some("list"))
        }
        "port" => matches!(first, Some("installed" | "echo")),
        "cargo" => first == Some("install") && has("--list"),
        "rpm" => short('q') && (short('a') || has("--all")),
        "dpkg" => has("-l") || has("--list") || has("--get-selections"),
        "dpkg-query" => has("-W") || has("--show") || has("-l") || has("--list"),
        "apt" | "apt-get" => first == Some("list"),
        "apt-mark" => matches!(first, Some("showmanual" | "showauto")),
        "pacman" | "yay" | "paru" => short('Q') || has("--query"),
        "dnf" | "yum" => first == Some("list") || first == Some("repoquery"),
        "nix-env" => short('q') || has("--query"),
        _ => false,
    }
}

/// Whether a pipeline stage passes the items before it on (a column picker or filter):
/// `pip freeze | cut -d= -f1 | xargs …`, `brew list | grep -v git | xargs …`.
/// Roles and policies that give (nearly) everything: admin, owner, editor, full access to
/// IAM itself, or a policy document allowing every action.
fn is_admin_grant(value: &str) -> bool {
    let v = value.to_ascii_lowercase();
    let name = v.rsplit(['/', ':']).next().unwrap_or(&v);
    matches!(
        name,
        "owner"
            | "editor"
            | "contributor"
            | "administratoraccess"
            | "poweruseraccess"
            | "iamfullaccess"
            | "user access administrator"
            | "cluster-admin"
    ) || name.ends_with("admin")
        || name.ends_with("administrator")
        || v.starts_with("roles/iam.")
        || (v.contains("\"action\"") && (v.contains("\"*\"") || v.contains("\":\"*")))
}

/// SQL sent through a cloud provider's data API (`aws redshift-data execute-statement --sql
/// 'DROP SCHEMA finance CASCADE'`, `batch-execute-statement --sqls …`, `aws rds-data
/// execute-statement --sql`, `aws athena start-query-execution --query-string`, `gcloud
/// spanner databases execute-sql --sql`): judged as the same SQL given to a database client
/// (`crate::interp::scan_sql`), on a server elsewhere (a cloud cluster is never local).
pub(crate) fn cloud_sql(name: &str, words: &[Word]) -> Option<Verdict> {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let has = |w: &str| texts.contains(&w);
    let options: &[&str] = match name {
        "aws" if has("redshift-data") || has("rds-data") => &["--sql", "--sqls"],
        "aws" if has("athena") && has("start-query-execution") => &["--query-string"],
        "gcloud" if has("spanner") && (has("execute-sql") || has("update")) => &["--sql", "--ddl"],
        _ => return None,
    };
    let mut risk = crate::interp::SqlRisk::None;
    for (i, w) in words.iter().enumerate() {
        let (opt, inline) = match w.text.split_once('=') {
            Some((o, v)) if o.starts_with("--") => (o, Some(v)),
            _ => (w.text.as_str(), None),
        };
        if !options.contains(&opt) {
            continue;
        }
        let values: Vec<&str> = match inline {
            Some(v) => vec![v],
            // `--sqls A B …`: every word up to the next option.
            None => words
                .get(i + 1..)
                .unwrap_or(&[])
                .iter()
                .take_while(|v| !v.text.starts_with("--"))
                .map(|v| v.text.as_str())
                .collect(),
        };
        for v in values {
            risk = risk.max(crate::interp::scan_sql(v));
        }
    }
    let mut v = match risk {
        crate::interp::SqlRisk::Drop => ids::DB_DROP.verdict(),
        crate::interp::SqlRisk::DeleteAll => ids::DB_DELETE_ALL.verdict(),
        crate::interp::SqlRisk::Privilege => ids::DB_PRIVILEGE_CHANGE.verdict(),
        crate::interp::SqlRisk::None => return None,
    };
    v.reason = format!("{} (through the cloud provider's data API)", v.reason);
    Some(v)
}

/// `aws route53 change-resource-record-sets --change-batch '{"Changes":[{"Action":"DELETE",…}]}'`:
/// a change batch given inline is read as JSON, and a `DELETE` among its changes removes
/// records (the names stop resolving; `net.dns_record_delete`). `CREATE`/`UPSERT` batches
/// and a batch in a file (`file://b.json`, not on the line) are not judged here.
pub(crate) fn dns_change_batch(words: &[Word]) -> Option<Verdict> {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    if !(texts.contains(&"route53") && texts.contains(&"change-resource-record-sets")) {
        return None;
    }
    let batch = texts.iter().enumerate().find_map(|(i, t)| {
        if *t == "--change-batch" {
            texts.get(i + 1).copied()
        } else {
            t.strip_prefix("--change-batch=")
        }
    })?;
    let doc: serde_json::Value = serde_json::from_str(batch).ok()?;
    let deletes = doc
        .get("Changes")
        .and_then(serde_json::Value::as_array)?
        .iter()
        .any(|c| {
            c.get("Action")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|a| a.eq_ignore_ascii_case("delete"))
        });
    deletes.then(|| ids::NET_DNS_RECORD_DELETE.verdict())
}

/// `aws iam attach-user-policy … AdministratorAccess`, `gcloud projects add-iam-policy-binding
/// P --member user:x --role roles/owner`, `az role assignment create --role Owner`, `aws iam
/// create-user`, `aws iam update-assume-role-policy`, `gcloud … set-iam-policy F`: grants that
/// give an identity admin-level power or change who holds power (`cloud.iam_grant`). A limited
/// role for a named principal (`roles/viewer` for `user:alice@…`) stays ordinary; what a policy
/// file holds is not on the line, so replacing a whole policy from one asks.
pub(crate) fn cloud_grant(name: &str, words: &[Word]) -> Option<Verdict> {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let value_of = |options: &[&str]| -> Vec<&str> {
        let mut out = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            for o in options {
                if t == o {
                    if let Some(v) = texts.get(i + 1) {
                        out.push(*v);
                    }
                } else if let Some(v) = t.strip_prefix(o).and_then(|r| r.strip_prefix('=')) {
                    out.push(v);
                }
            }
        }
        out
    };
    let found = Some(ids::CLOUD_IAM_GRANT.verdict());
    let has = |verb: &str| texts.contains(&verb);
    match name {
        "aws" if has("iam") => {
            if texts.iter().any(|t| {
                matches!(
                    *t,
                    "create-user"
                        | "add-user-to-group"
                        | "update-assume-role-policy"
                        | "create-policy-version"
                        | "set-default-policy-version"
                        | "delete-user-permissions-boundary"
                        | "delete-role-permissions-boundary"
                )
            }) {
                return found;
            }
            let attaches = texts.iter().any(|t| {
                matches!(
                    *t,
                    "attach-user-policy"
                        | "attach-role-policy"
                        | "attach-group-policy"
                        | "put-user-policy"
                        | "put-role-policy"
                        | "put-group-policy"
                )
            });
            (attaches
                && value_of(&["--policy-arn", "--policy-document"])
                    .iter()
                    .any(|v| is_admin_grant(v)))
            .then_some(())
            .and(found)
        }
        "gcloud" => {
            if has("set-iam-policy") {
                return found;
            }
            (has("add-iam-policy-binding")
                && value_of(&["--role"]).iter().any(|v| is_admin_grant(v)))
            .then_some(())
            .and(found)
        }
        "az" => (has("role")
            && has("assignment")
            && (has("create") || has("update"))
            && value_of(&["--role"]).iter().any(|v| is_admin_grant(v)))
        .then_some(())
        .and(found),
        _ => None,
    }
}

/// `kubectl patch deploy api -p '{"spec":{"replicas":0}}'` (`--patch`, `--patch=`, JSON merge
/// and strategic patches, JSON-patch `replace` ops): the workload scaled to zero, as `kubectl
/// scale --replicas=0` (`k8s.scale_zero`). The patch is parsed, not searched: a `replicas`
/// key set to 0 anywhere in it, or a JSON-patch op replacing a `/replicas` path with 0.
fn patch_scales_to_zero(words: &[Word]) -> Option<Verdict> {
    let mut it = words.iter();
    let mut body = None;
    while let Some(w) = it.next() {
        match w.text.as_str() {
            "-p" | "--patch" => body = it.next().map(|v| v.text.as_str()),
            t => {
                if let Some(v) = t.strip_prefix("--patch=").or_else(|| t.strip_prefix("-p=")) {
                    body = Some(v);
                }
            }
        }
    }
    let body = body?;
    // JSON patches only: a YAML patch (`-p 'spec: {replicas: 0}'`) is left (no YAML reader
    // in this crate).
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    patch_sets_zero_replicas(&value).then(|| ids::K8S_SCALE_ZERO.verdict())
}

/// Whether a parsed patch sets some `replicas` key to 0 (see [`patch_scales_to_zero`]).
fn patch_sets_zero_replicas(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => m.iter().any(|(k, v)| {
            (k == "replicas" && v.as_u64() == Some(0)) || patch_sets_zero_replicas(v)
        }),
        serde_json::Value::Array(a) => a.iter().any(|op| {
            op.get("path")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|p| p.ends_with("/replicas"))
                && op.get("value").and_then(serde_json::Value::as_u64) == Some(0)
                || patch_sets_zero_replicas(op)
        }),
        _ => false,
    }
}

/// Verbs that delete what a tool manages (the deleting side of [`Walker::deletes_own_listing`]).
const DELETE_VERBS: &[&str] = &[
    "rm",
    "rmi",
    "remove",
    "delete",
    "del",
    "destroy",
    "purge",
    "undefine",
    "drop",
    "terminate",
    "erase",
];

/// Whether `c` is `tool`'s own listing of everything under the subcommand `path`: the same
/// program, the same words before a listing verb (`ls`, `list`, `ps`, `images`, `get`), no
/// operand after it and no filtering option (`ctr images ls -q`, `virsh list --all --name`,
/// `gcloud compute instances list --format=value(name)`).
fn lists_everything(c: &ExecutedCommand, tool: &str, path: &[&str]) -> bool {
    let Some((program, rest)) = c.argv.split_first() else {
        return false;
    };
    if crate::resolve::basename(program) != tool {
        return false;
    }
    let Some(operands) = listing_operands(rest.iter().map(String::as_str)) else {
        return false;
    };
    let verb = operands.get(path.len()).copied();
    if operands.get(..path.len()) != Some(path)
        || !matches!(verb, Some("ls" | "list" | "ps" | "images" | "get"))
    {
        return false;
    }
    // `kubectl get pods`: for `get`, the kind is the listing's one operand.
    let allowed = path.len() + if verb == Some("get") { 2 } else { 1 };
    operands.len() <= allowed
}

/// The operands of a tool's line, skipping the values of options that only shape output or
/// pick the account (`--format csv`, `-n k8s.io`); `None` when an option narrows a listing to
/// a selection (`--filter`, `-l app=x`).
fn listing_operands<'a>(words: impl Iterator<Item = &'a str>) -> Option<Vec<&'a str>> {
    /// Options that take a value and only shape the output or pick the account.
    const SHAPING: &[&str] = &[
        "--format",
        "--output",
        "-o",
        "--columns",
        "-c",
        "--namespace",
        "-n",
        "--region",
        "--project",
        "--zone",
        "--profile",
        "--context",
        "--sort-by",
        "--limit",
    ];
    /// Options that narrow a listing to a selection.
    const NARROWING: &[&str] = &[
        "--filter",
        "-f",
        "--selector",
        "-l",
        "--field-selector",
        "--label",
        "--match",
        "--prefix",
        "--where",
        "--name-filter",
        "--tag",
    ];
    let mut operands = Vec::new();
    let mut skip = false;
    for w in words {
        if std::mem::take(&mut skip) {
            continue;
        }
        if w.starts_with('-') {
            let option = w.split_once('=').map_or(w, |(o, _)| o);
            if NARROWING.contains(&option) {
                return None;
            }
            skip = !w.contains('=') && SHAPING.contains(&option);
            continue;
        }
        operands.push(w);
    }
    Some(operands)
}

/// Stages that only pick columns or drop a header between a listing and `xargs`: they pass
/// every item on (`tail -n +2`, `awk '{print $1}'`, `cut -d' ' -f1`). A pattern filter
/// (`grep`, `sed -n /x/p`) makes a selection and is not one of them.
fn picks_columns(c: &ExecutedCommand) -> bool {
    let program = c
        .argv
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    match program {
        "cut" | "tr" | "sort" | "uniq" | "column" | "tail" => true,
        "awk" | "gawk" | "mawk" => c.argv.get(1).is_some_and(|p| {
            let p = p.trim();
            p.starts_with('{') && !p.contains("if") && !p.contains('~')
        }),
        _ => false,
    }
}

fn passes_items_on(c: &ExecutedCommand) -> bool {
    let program = c
        .argv
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    matches!(
        program,
        "awk"
            | "gawk"
            | "mawk"
            | "cut"
            | "tail"
            | "head"
            | "tr"
            | "sort"
            | "uniq"
            | "grep"
            | "egrep"
            | "fgrep"
            | "sed"
            | "rg"
    )
}

/// `git branch -f|--force SHARED [REV]` (abbreviations normalised by `Args::parse`): the
/// shared branch moves to another commit, so what it had after that commit drops off it
/// (`git.branch_force_move`). With `-m`/`-c` (rename, copy) a shared branch named anywhere
/// is renamed away or overwritten. `git branch -f feature main` (a branch of one's own
/// created at main) is ordinary.
fn moves_shared_branch(args: &Args<'_>) -> Option<Verdict> {
    let [sub, names @ ..] = args.positionals.as_slice() else {
        return None;
    };
    if *sub != "branch" {
        return None;
    }
    let shared = |b: &&str| is_shared_branch(b);
    // `-M`/`-C` are `--move --force`/`--copy --force`: renaming or copying ONTO a shared
    // branch overwrites it. `git branch -M main` alone (rename the current branch to main,
    // GitHub's set-up line for a new repository) is left alone on purpose (DISAGREEMENTS.md).
    let forced_rename = args.has_any(&["-M", "-C"]);
    if forced_rename && !args.has_any(&["-f", "--force"]) {
        return (names.len() >= 2 && names.iter().any(shared))
            .then(|| ids::GIT_BRANCH_FORCE_MOVE.verdict());
    }
    if !args.has_any(&["-f", "--force"]) {
        return None;
    }
    let moved = if args.has_any(&["-m", "-M", "-c", "-C", "--move", "--copy"]) {
        names.iter().any(shared)
    } else {
        names.first().is_some_and(shared)
    };
    moved.then(|| ids::GIT_BRANCH_FORCE_MOVE.verdict())
}

/// `git checkout -B SHARED [START]` and `git switch -C|--force-create SHARED [START]`
/// create the branch or, when it exists, reset it to START (or HEAD): the porcelain spelling
/// of `git branch -f SHARED START` (`git.branch_force_move`). Read from the words, since `-B`
/// and `-C` take the branch name as their value. A branch of one's own (`-B feature`) is
/// ordinary.
fn resets_shared_branch(words: &[Word], args: &Args<'_>) -> Option<Verdict> {
    let sub = args.positionals.first()?;
    let forcing: &[&str] = match *sub {
        "checkout" => &["-B"],
        "switch" => &["-C", "--force-create"],
        _ => return None,
    };
    let at = words.iter().position(|w| w.exact && w.text == *sub)?;
    let mut rest = words.get(at + 1..)?.iter();
    while let Some(w) = rest.next() {
        if !w.exact {
            continue;
        }
        let t = w.text.as_str();
        let name = if forcing.contains(&t) {
            rest.next().map(|v| v.text.as_str())
        } else {
            t.strip_prefix("--force-create=")
                .filter(|_| *sub == "switch")
                .or_else(|| {
                    t.strip_prefix("-B")
                        .filter(|n| !n.is_empty() && *sub == "checkout")
                })
        };
        if let Some(name) = name {
            return is_shared_branch(name).then(|| ids::GIT_BRANCH_FORCE_MOVE.verdict());
        }
    }
    None
}

/// Whether `name` is a long-lived shared branch (see [`SHARED_BRANCHES`]).
pub fn is_shared_branch(name: &str) -> bool {
    SHARED_BRANCHES.contains(&name) || name.starts_with("release/") || name.starts_with("hotfix/")
}

/// Branch and history rewrites through plumbing: `git update-ref refs/heads/SHARED REV` and
/// `git symbolic-ref refs/heads/SHARED REF` move a shared branch (`git.update_ref_shared`;
/// `update-ref -d` is its own data rule); `git replace OBJ REPL`, `--graft`, `--edit`
/// substitute history (`git.replace_object`), and so does pushing them. A ref of one's own (`refs/heads/feature`),
/// `HEAD` (the current branch moves, as `git reset --soft` does) and listing or deleting
/// replacements stay allowed.
fn rewrites_ref_plumbing(args: &Args<'_>) -> Option<Verdict> {
    match args.positionals.as_slice() {
        ["update-ref" | "symbolic-ref", target, _, ..] if !args.has_any(&["-d", "--delete"]) => {
            target
                .strip_prefix("refs/heads/")
                .is_some_and(is_shared_branch)
                .then(|| ids::GIT_UPDATE_REF_SHARED.verdict())
        }
        ["replace", rest @ ..]
            if !args.has_any(&["-l", "--list", "-d", "--delete", "--format"])
                && (!rest.is_empty() || args.has_any(&["--edit", "-e", "--graft"])) =>
        {
            Some(ids::GIT_REPLACE_OBJECT.verdict())
        }
        // Publishing replacements (`git push origin 'refs/replace/*'`, `HEAD:refs/replace/X`)
        // substitutes history for every clone that fetches them: the same question as
        // creating one here. Deleting a remote one (`:refs/replace/X`) is a ref deletion.
        ["push", _remote, refspecs @ ..]
            if refspecs.iter().any(|r| {
                let r = r.strip_prefix('+').unwrap_or(r);
                let dst = r.split_once(':').map_or(r, |(_, d)| d);
                dst.strip_prefix("refs/replace/")
                    .is_some_and(|rest| !rest.is_empty())
            }) =>
        {
            Some(ids::GIT_REPLACE_OBJECT.verdict())
        }
        _ => None,
    }
}

/// Options a runtime reads from its options variable that only tune it (heap size, warnings,
/// source maps, the TLS provider): `*` at the end matches any rest, otherwise the option
/// alone or with `=value`. Everything else a runtime accepts there may load or run code
/// (`NODE_OPTIONS=--require x`, `--import`, `--loader`, `--inspect` opening a debugger port;
/// `RUBYOPT=-rx`, `-I`; `PERL5OPT=-Mx`, `-I`, `-d`), so it is not listed.
const NODE_TUNING: &[&str] = &[
    "--max-old-space-size",
    "--max-semi-space-size",
    "--max-old-space-size-percentage",
    "--huge-max-old-generation-size",
    "--stack-size",
    "--v8-pool-size",
    "--expose-gc",
    "--trace-gc",
    "--enable-source-maps",
    "--openssl-legacy-provider",
    "--openssl-shared-config",
    "--use-openssl-ca",
    "--use-bundled-ca",
    "--use-system-ca",
    "--tls-min-v1.0",
    "--tls-min-v1.1",
    "--tls-min-v1.2",
    "--tls-min-v1.3",
    "--tls-max-v1.2",
    "--tls-max-v1.3",
    "--no-warnings",
    "--no-deprecation",
    "--disable-warning",
    "--pending-deprecation",
    "--throw-deprecation",
    "--trace-deprecation",
    "--trace-warnings",
    "--trace-uncaught",
    "--trace-exit",
    "--trace-sigint",
    "--unhandled-rejections",
    "--abort-on-uncaught-exception",
    "--dns-result-order",
    "--max-http-header-size",
    "--no-network-family-autoselection",
    "--network-family-autoselection-attempt-timeout",
    "--preserve-symlinks",
    "--preserve-symlinks-main",
    "--experimental-vm-modules",
    "--experimental-require-module",
    "--no-experimental-require-module",
    "--experimental-detect-module",
    "--no-experimental-detect-module",
    "--no-experimental-fetch",
    "--no-experimental-global-navigator",
    "--heapsnapshot-near-heap-limit",
    "--zero-fill-buffers",
    "--frozen-intrinsics",
    "--disable-proto",
    "--no-addons",
    "--title",
];
const RUBY_TUNING: &[&str] = &[
    "-w",
    "-W",
    "-W0",
    "-W1",
    "-W2",
    "-W:*",
    "-v",
    "--verbose",
    "-U",
    "-E*",
    "-K*",
    "--encoding",
    "--external-encoding",
    "--internal-encoding",
    "--enable*",
    "--disable*",
    "--yjit*",
    "--jit*",
];
const PERL_TUNING: &[&str] = &["-w", "-W", "-X", "-t", "-T", "-C*"];
/// The options that make a JVM load or run code: agents, boot classpath, native libraries,
/// error hooks, a custom class loader, and `@argfiles` (more options, read from a file).
const JAVA_LOADS_CODE: &[&str] = &[
    "-javaagent",
    "-agentpath",
    "-agentlib",
    "-Xrun",
    "-Xbootclasspath",
    "-XX:OnError",
    "-XX:OnOutOfMemoryError",
    "-Djava.system.class.loader",
    "-Djava.library.path",
    "@",
];

/// Judges the value of a variable a runtime reads as extra command-line options
/// (`NODE_OPTIONS`, `RUBYOPT`, `PERL5OPT`, `JAVA_TOOL_OPTIONS`/`_JAVA_OPTIONS`/
/// `JDK_JAVA_OPTIONS`, Go's `GOFLAGS`) by those options, for `rce.env_hijack` and the policy invariant
/// `no-env-var-modification` alike, so both layers agree. `None`: not such a variable.
/// `Some(true)`: the value may load or run code — an option outside the runtime's tuning
/// list, or text that is not a plain blank-separated option list (quotes, `$`, a bare word):
/// what cannot be parsed is judged as it always was. `Some(false)`: tuning only
/// (`--max-old-space-size=4096`, `-W0`, `-Xmx2g`).
pub fn option_variable_loads_code(name: &str, value: &str) -> Option<bool> {
    let tuning: &[&str] = match name {
        "NODE_OPTIONS" => NODE_TUNING,
        "RUBYOPT" => RUBY_TUNING,
        "PERL5OPT" => PERL_TUNING,
        // The go command's default flags (`GOFLAGS=-mod=mod -trimpath` is tuning). Those that
        // run or swap in code: `-toolexec` / `-exec` (a program run for every compile step or
        // test binary), `-overlay` (replaces source files), `-modfile` (another module
        // graph), and an external linker or its flags (`-ldflags=-extld=…`).
        "GOFLAGS" => {
            return Some(value.split_whitespace().any(|o| {
                let flag = o
                    .split_once('=')
                    .map_or(o, |(f, _)| f)
                    .trim_start_matches('-');
                matches!(flag, "toolexec" | "exec" | "overlay" | "modfile")
                    || o.contains("extld")
                    || !o.starts_with('-')
                    || o.contains(['$', '`', '\'', '"'])
            }));
        }
        "JAVA_TOOL_OPTIONS" | "_JAVA_OPTIONS" | "JDK_JAVA_OPTIONS" => {
            // Heap sizes and system properties are tuning; the JVM takes many more, so it is
            // judged by the options that load code.
            return Some(
                value
                    .split_whitespace()
                    .any(|o| JAVA_LOADS_CODE.iter().any(|p| o.starts_with(p))),
            );
        }
        _ => return None,
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_=.:,/+%".contains(c);
    Some(
        value
            .split([' ', '\t'])
            .filter(|o| !o.is_empty())
            .any(|option| {
                let known = option.starts_with('-') && option.chars().all(plain);
                // Node spells V8 options with `_` or `-` alike (`--max_old_space_size`).
                let flag = option.split_once('=').map_or(option, |(flag, _)| flag);
                let flag = if name == "NODE_OPTIONS" {
                    flag.replace('_', "-")
                } else {
                    flag.to_owned()
                };
                !(known
                    && tuning.iter().any(|t| match t.strip_suffix('*') {
                        Some(prefix) => option.starts_with(prefix),
                        None => *t == flag,
                    }))
            }),
    )
}

/// True when a chmod mode can only take permissions away from the group and others (or set
/// the owner's own bits): `600`, `700`, `go-rwx`, `u=rw,go=`. Tightening a file outside the
/// workspace (`chmod 600 ~/.ssh/id_rsa`) protects it; the owner keeps read access, and no
/// set-id or sticky bit is set, so `000` and `4700` are not tightening.
pub fn chmod_tightens(mode: &str) -> bool {
    if !mode.is_empty() && mode.len() <= 4 && mode.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return u32::from_str_radix(mode, 8).is_ok_and(|m| m & 0o7027 == 0 && m & 0o400 != 0);
    }
    !mode.is_empty()
        && mode.split(',').all(|clause| {
            let who_end = clause
                .find(|c: char| !matches!(c, 'u' | 'g' | 'o' | 'a'))
                .unwrap_or(clause.len());
            let (who, mut rest) = clause.split_at(who_end);
            if rest.is_empty() {
                return false;
            }
            while let Some(op) = rest.chars().next() {
                let perms_end = rest
                    .char_indices()
                    .skip(1)
                    .find(|(_, c)| matches!(c, '-' | '+' | '='))
                    .map_or(rest.len(), |(i, _)| i);
                let perms = rest.get(1..perms_end).unwrap_or("");
                rest = rest.get(perms_end..).unwrap_or("");
                let owner_only = who == "u" && !perms.contains(['s', 't']);
                let ok = match op {
                    '-' => true,
                    '+' => owner_only,
                    '=' => {
                        owner_only
                            || (!who.is_empty()
                                && who.chars().all(|c| matches!(c, 'g' | 'o'))
                                && perms.is_empty())
                    }
                    _ => false,
                };
                if !ok {
                    return false;
                }
            }
            true
        })
}

/// Programs that print the files named as their operands (text filters, pagers, viewers,
/// decompressors, encoders) and are not among the readers `classify_plain` knows (`cat`,
/// `head`, `grep`, …): the same read of a credential by a less common reader.
const OPERAND_PRINTERS: &[&str] = &[
    "paste",
    "fold",
    "fmt",
    "pr",
    "column",
    "rev",
    "expand",
    "unexpand",
    "iconv",
    "look",
    "comm",
    "join",
    "most",
    "batcat",
    "hd",
    "hexyl",
    "uuencode",
    "basenc",
    "zcat",
    "zless",
    "zmore",
    "bzcat",
    "xzcat",
    "zstdcat",
    "lzcat",
    "lz4cat",
    "pygmentize",
    "highlight",
    "view",
    "vimdiff",
    "gview",
    "nvim",
    "ed",
    "ex",
    "micro",
    "mlr",
    "ccat",
    // Python modules run as tools (`python3 -m json.tool FILE` is judged as `json.tool FILE`):
    // they print the file they are given, reformatted or tokenized.
    "json.tool",
    "tokenize",
];

/// Programs that print what they read on standard input (the operand printers above, the
/// usual readers and filters): fed a credential file (`cat < ~/.ssh/id_rsa`, `tr -d '\r' <
/// .env`, `base64 < key`), they print it to whoever reads their output, the agent included.
/// Counting and matching-only forms (`grep -c`, `grep -q`, `wc`) are not here or excluded.
pub(crate) fn prints_stdin(name: &str, words: &[Word]) -> bool {
    const STDIN_PRINTERS: &[&str] = &[
        "cat", "tac", "nl", "head", "tail", "more", "less", "bat", "cut", "sort", "uniq", "tr",
        "sed", "base64", "base32", "xxd", "od", "hexdump", "strings", "jq", "yq", "grep", "egrep",
        "fgrep", "rg", "dos2unix", "unix2dos", "tee",
    ];
    if !(crate::names::listed!(STDIN_PRINTERS, name)
        || crate::names::listed!(OPERAND_PRINTERS, name))
    {
        return false;
    }
    // Only a count, names or an exit status come out of these.
    !(matches!(name, "grep" | "egrep" | "fgrep" | "rg")
        && words.iter().any(|w| {
            w.exact
                && (matches!(
                    w.text.as_str(),
                    "--count" | "--quiet" | "--silent" | "--files-with-matches"
                ) || (w.text.starts_with('-')
                    && !w.text.starts_with("--")
                    && w.text.contains(['c', 'q', 'l', 'L'])))
        }))
}

/// `gpg --export-secret-keys`, `gpg --armor --export-secret-subkeys ID`: prints the private
/// keys of the user's keyring (the `--export-secret-*` commands, by any unambiguous prefix
/// gpg accepts), a read of `~/.gnupg` as surely as `cat` of its files. Public exports
/// (`--export`) are ordinary.
fn exports_secret_keys(words: &[Word]) -> Option<Verdict> {
    words
        .iter()
        .take_while(|w| w.text != "--")
        .any(|w| {
            w.exact
                && w.text.len() > "--export-secret-".len()
                && ["--export-secret-keys", "--export-secret-subkeys"]
                    .iter()
                    .any(|full| full.starts_with(w.text.as_str()))
        })
        .then(|| ids::CRED_READ_SECRET_FILE.verdict())
}

/// The values of `short`/`long` options (`-U v`, `-Uv`, `--command v`, `--command=v`).
fn option_values<'w>(words: &'w [Word], short: &str, long: Option<&str>) -> Vec<&'w str> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            break;
        }
        if t == short || Some(t) == long {
            if let Some(v) = words.get(i + 1) {
                out.push(v.text.as_str());
            }
            i += 2;
            continue;
        }
        if let Some(v) = long
            .and_then(|l| t.strip_prefix(l))
            .and_then(|r| r.strip_prefix('='))
            .or_else(|| t.strip_prefix(short).filter(|r| !r.is_empty()))
        {
            out.push(v);
        }
        i += 1;
    }
    out
}

/// Programmers whose erase, fuse or lock action is an option's value, `device.fuse_write`:
/// avrdude's `-U MEMORY:w:…` on a fuse or lock memory (or `-e`, a chip erase, with no flash
/// image written after it); openocd's `-c` Tcl commands that mass-erase, erase sectors, lock
/// or (on STM32, by mass erase) unlock the flash; dfu-util's DfuSe `mass-erase`/`unprotect`
/// address modifiers. Writing a flash image and reading fuses stay ordinary.
fn programmer_option_action(name: &str, words: &[Word]) -> Option<Verdict> {
    let hit = match name {
        "avrdude" => {
            let ops = option_values(words, "-U", None);
            let fuse_write = ops.iter().any(|op| {
                let mut parts = op.split(':');
                let memory = parts.next().unwrap_or("").to_ascii_lowercase();
                let write = parts.next() == Some("w");
                let fuse = memory.starts_with("lock")
                    || memory.contains("fuse")
                    || matches!(memory.as_str(), "fuses" | "lockbits");
                write && fuse
            });
            let flash_write = ops.iter().any(|op| {
                let mut parts = op.split(':');
                match (parts.next(), parts.next()) {
                    (Some(_file), None) => true,
                    (Some(memory), Some("w")) => memory.eq_ignore_ascii_case("flash"),
                    _ => false,
                }
            });
            let erase = words
                .iter()
                .any(|w| w.exact && matches!(w.text.as_str(), "-e" | "--erase" | "--chip-erase"));
            fuse_write || (erase && !flash_write)
        }
        "openocd" => option_values(words, "-c", Some("--command"))
            .iter()
            .flat_map(|code| code.split([';', '\n']))
            .any(|cmd| {
                let t: Vec<&str> = cmd.split_whitespace().collect();
                match t.as_slice() {
                    ["flash", "erase_sector" | "erase_address", ..]
                    | ["flash", "protect", .., "on"]
                    | [_, "mdm", "mass_erase", ..]
                    | [_, "mass_erase" | "chip_erase" | "chip-erase" | "lock", ..] => true,
                    [driver, "unlock", ..] => driver.starts_with("stm32"),
                    _ => false,
                }
            }),
        "dfu-util" => option_values(words, "-s", Some("--dfuse-address"))
            .iter()
            .any(|v| {
                v.split(':')
                    .skip(1)
                    .any(|m| matches!(m, "mass-erase" | "unprotect"))
            }),
        _ => false,
    };
    hit.then(|| ids::DEVICE_FUSE_WRITE.verdict())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chmod_modes_that_only_remove_access_are_tightening() {
        for m in [
            "600",
            "700",
            "0600",
            "640",
            "go-rwx",
            "o-r",
            "u=rw,go=",
            "g-w,o-rwx",
            "400",
        ] {
            assert!(chmod_tightens(m), "{m}");
        }
        for m in [
            "644", "755", "777", "000", "4700", "+x", "o+r", "a=rw", "go=r", "u+s", "",
        ] {
            assert!(!chmod_tightens(m), "{m}");
        }
    }

    #[test]
    fn framework_tools_list_every_task_tool_sorted() {
        assert!(FRAMEWORK_TOOLS.windows(2).all(|w| w[0] < w[1]));
        for (tool, _, _) in FRAMEWORK_TASKS {
            assert!(is_framework_tool(tool), "{tool}");
        }
    }

    #[test]
    fn match_everything_patterns_are_broad() {
        for p in [".", ".*", "^", "x"] {
            assert!(broad_pattern(p), "{p}");
        }
        assert!(!broad_pattern("node server.js"));
    }
}
