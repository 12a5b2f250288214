//! Where a database command connects and what the database is for, derived once from the
//! parsed command and used by every database rule (`db.drop`, `db.delete_all`, `db.dropdb`,
//! `db.mysqladmin_drop`, `db.redis_flush`, `db.mongo_drop`, `db.restore_clean`).
//!
//! Two typed facts decide how a destructive database command is judged:
//! * [`Place`]: the host the client reaches — from its options (`-h`, `--host=`, `-S`
//!   sockets), connection URIs and conninfo strings (`postgresql://u@h/db`, `host=h
//!   dbname=d`), variables the line assigns (`PGHOST`, `MYSQL_HOST`, `CQLSH_HOST`), or the
//!   client's default (the local socket). Loopback and sockets are local; any other name is
//!   remote; a host the line does not spell out (`-h "$DB_HOST"`, `psql "$DATABASE_URL"`) is
//!   unresolved, judged as remote. Inside `ssh` or a cluster's pod every host is elsewhere;
//!   inside a container of this machine's Docker daemon loopback is the compose project's own.
//! * [`Role`]: what the database is for, read from the word parts of its name (`app_prod`,
//!   `app_test`, `db/dev.sqlite3`): production-shaped names stay dangerous anywhere,
//!   test/development-shaped ones are disposable.
//!
//! The invariant: only a *local* database whose every named target is *disposable* is routine
//! (allowed, and said so); a local database of any other name asks; remote, unresolved or
//! production targets keep the rule's own verdict (deny or ask, as without locality).

use crate::model::{BlastRadius, Context, Verdict};
use crate::state::Val;
use crate::taxonomy::{RuleRef, ids};
use crate::walk::{Scope, Word};

/// Where a database command connects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// Loopback, a unix socket, the client's default, a database file.
    Local,
    /// A host that is not loopback, or another machine (`ssh`, a cluster's pod); the text says
    /// which ("the remote host `db.internal`").
    Remote(String),
    /// A host only known at run time: it cannot be placed statically.
    Unresolved,
}

/// What a database is for, by its name. Ordered from least to most dangerous, so the role of
/// several targets is the greatest.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Role {
    /// Test, development, CI or scratch data (`app_test`, `dev.db`).
    Disposable(String),
    /// No database is named (the client's default, a Redis server).
    Unnamed,
    /// A name that says neither (`shop`, `postgres`), or one known only at run time.
    Other(String),
    /// Production or shared data (`app_prod`, `live`, `staging`).
    Production(String),
}

/// A database command's target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    pub place: Place,
    pub role: Role,
}

/// Name parts of production or shared databases and environments.
const PRODUCTION_PARTS: &[&str] = &[
    "prod",
    "prd",
    "production",
    "live",
    "main",
    "master",
    "primary",
    "staging",
    "stage",
    "stg",
    "uat",
    "preprod",
];

/// Name parts of throwaway databases and environments.
const DISPOSABLE_PARTS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "dev",
    "develop",
    "development",
    "local",
    "ci",
    "tmp",
    "temp",
    "scratch",
    "e2e",
    "spec",
    "specs",
];

/// The role a name gives: its word parts (split at punctuation, digits and camel case) are
/// looked up, a production part winning over a disposable one (`app_test_prod`).
pub(crate) fn role_of(name: &str) -> Role {
    let mut disposable = false;
    let mut start = 0;
    let bytes = name.as_bytes();
    // A part is looked up as written and without trailing digits (`test2`, `prod01`).
    let mut check = |part: &str| {
        let part = part.to_ascii_lowercase();
        let forms = [
            part.as_str(),
            part.trim_end_matches(|c: char| c.is_ascii_digit()),
        ];
        if forms.iter().any(|f| PRODUCTION_PARTS.contains(f)) {
            return true;
        }
        disposable |= forms.iter().any(|f| DISPOSABLE_PARTS.contains(f));
        false
    };
    for i in 0..=bytes.len() {
        let boundary = match (bytes.get(i), i.checked_sub(1).and_then(|p| bytes.get(p))) {
            (None, _) => true,
            (Some(b), _) if !b.is_ascii_alphanumeric() => true,
            (Some(b), Some(prev)) => b.is_ascii_uppercase() && prev.is_ascii_lowercase(),
            (Some(_), None) => false,
        };
        if boundary {
            if let Some(part) = name.get(start..i)
                && !part.is_empty()
                && check(part)
            {
                return Role::Production(name.to_owned());
            }
            start = if bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) {
                i
            } else {
                i + 1
            };
        }
    }
    if disposable {
        Role::Disposable(name.to_owned())
    } else {
        Role::Other(name.to_owned())
    }
}

/// The role of a word naming a database: a name only known at run time says nothing.
fn role_of_word(w: &Word) -> Role {
    if w.exact {
        role_of(&w.text)
    } else {
        Role::Other(w.text.clone())
    }
}

/// Where a host name points. A list (`h1,h2`) is as far as its farthest member.
pub(crate) fn place_of_host(host: &str) -> Place {
    let mut place = Place::Local;
    for h in host.split(',') {
        let h = h.trim();
        // A socket path (`/var/run/postgresql`, `@abstract`) or the default (empty).
        if h.is_empty() || h.starts_with('/') || h.starts_with('@') {
            continue;
        }
        let bare = match h.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(v6),
            None if h.matches(':').count() == 1 => h.split(':').next().unwrap_or(h),
            None => h,
        };
        let lower = bare.to_ascii_lowercase();
        let loopback = lower == "localhost"
            || lower.ends_with(".localhost")
            || lower == "localhost.localdomain"
            || lower == "host.docker.internal"
            || lower == "::1"
            || lower == "0.0.0.0"
            || lower
                .parse::<std::net::Ipv4Addr>()
                .is_ok_and(|ip| ip.is_loopback())
            || lower
                .parse::<std::net::Ipv6Addr>()
                .is_ok_and(|ip| ip.is_loopback());
        if !loopback {
            place = Place::Remote(format!("the remote host `{bare}`"));
        }
    }
    place
}

/// A database file's role, by its file name (`db/test.sqlite3`, `prod.db`); the directories
/// say nothing (`~/.local/share/app/data.db` is not "local" data) — except a scratch place:
/// a file in a temp directory that is neither the home, the workspace nor a catalogued
/// location (the scratch rule of deletions, [`crate::targets::is_scratch`]) is as disposable
/// as `rm /tmp/t.db` would be (`sqlite3 /tmp/t.db 'DROP TABLE t'`). A production-shaped name
/// keeps its role even there.
fn file_role(path: &str, cwd: &crate::Cwd, ctx: &Context) -> Role {
    let file = crate::resolve::basename(path);
    let stem = file.split('.').next().unwrap_or(file);
    if !matches!(role_of(stem), Role::Production(_)) && crate::targets::is_scratch(path, cwd, ctx) {
        return Role::Disposable(path.to_owned());
    }
    let stem = file.split('.').next().unwrap_or(file);
    match role_of(stem) {
        Role::Other(_) => Role::Other(path.to_owned()),
        Role::Disposable(_) => Role::Disposable(path.to_owned()),
        role => role,
    }
}

/// The place a word holding a host gives.
fn place_of_word(w: &Word) -> Place {
    if w.exact {
        place_of_host(&w.text)
    } else {
        Place::Unresolved
    }
}

/// The farther of two places (unresolved counts as remote).
fn farther(a: Place, b: Place) -> Place {
    match (&a, &b) {
        (Place::Local, _) => b,
        (_, Place::Local) | (Place::Unresolved, _) => a,
        _ => b,
    }
}

/// A connection URI's host and database: `postgresql://u:p@h:5432/db?host=/sock`,
/// `mongodb://h1,h2/db`, `redis://h:6379/0`, `mysql://u@h/db`. `mongodb+srv://` names a DNS
/// record of a cluster: remote. `None` when the word is not a URI.
fn parse_uri(text: &str) -> Option<(Place, Option<String>)> {
    let (scheme, rest) = text.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let scheme = scheme.strip_prefix("jdbc:").unwrap_or(&scheme);
    if !matches!(
        scheme,
        "postgres"
            | "postgresql"
            | "mysql"
            | "mariadb"
            | "mongodb"
            | "mongodb+srv"
            | "redis"
            | "rediss"
            | "cockroachdb"
            | "clickhouse"
            | "sqlserver"
            | "cassandra"
    ) {
        return None;
    }
    let (path_part, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (authority, path) = path_part.split_once('/').unwrap_or((path_part, ""));
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let mut place = place_of_host(host);
    if scheme == "mongodb+srv" {
        place = Place::Remote(format!("the cluster `{host}`"));
    }
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("host" | "hostaddr", h)) => place = farther(place, place_of_host(h)),
            Some(("service", _)) => place = farther(place, Place::Unresolved),
            _ => {}
        }
    }
    let db = path.split('/').next().filter(|d| !d.is_empty());
    Some((place, db.map(str::to_owned)))
}

/// A libpq conninfo string's host and database: `host=h port=5432 dbname=d`. `None` when the
/// word is not one.
fn parse_conninfo(text: &str) -> Option<(Place, Option<String>)> {
    let mut seen = false;
    let mut place = Place::Local;
    let mut db = None;
    for pair in text.split_whitespace() {
        let (key, value) = pair.split_once('=')?;
        let value = value.trim_matches('\'');
        seen = true;
        match key {
            "host" | "hostaddr" => place = farther(place, place_of_host(value)),
            // A pg_service.conf section chooses the host.
            "service" => place = farther(place, Place::Unresolved),
            "dbname" => db = Some(value.to_owned()),
            _ => {}
        }
    }
    seen.then_some((place, db))
}

/// What a client's words say about its connection, filled option by option.
#[derive(Default)]
struct Seen {
    place: Option<Place>,
    dbs: Vec<Role>,
}

impl Seen {
    /// A service name or option file chooses the host (`--defaults-file`, `--login-path`,
    /// `--cqlshrc`, `--config-file`): not statically known.
    fn configured(&mut self) {
        self.host(Place::Unresolved);
    }

    fn host(&mut self, p: Place) {
        self.place = Some(farther(self.place.take().unwrap_or(Place::Local), p));
    }

    /// A word that may be a URI or conninfo (`psql -d URI`, `psql URI`), else a name.
    fn db_or_uri(&mut self, w: &Word) {
        if w.exact
            && let Some((place, db)) = parse_uri(&w.text).or_else(|| parse_conninfo(&w.text))
        {
            self.host(place);
            self.dbs.extend(db.as_deref().map(role_of));
            return;
        }
        if !w.exact && (w.text.starts_with('$') || w.text.contains("://")) {
            // `psql "$DATABASE_URL"`: host and name are both unknown.
            self.host(Place::Unresolved);
        }
        self.dbs.push(role_of_word(w));
    }
}

/// How one client reads its words: short option letters that take a value, which options
/// give the host, a socket, the database or a URI, and what its operands mean.
struct Client {
    values: &'static str,
    /// Letters whose value can only be attached (`mysql -pSECRET`): the rest of the word.
    attached: &'static str,
    host: &'static [&'static str],
    socket: &'static [&'static str],
    db: &'static [&'static str],
    uri: &'static [&'static str],
    operands: Operands,
    host_env: &'static [&'static str],
    db_env: &'static [&'static str],
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Operands {
    /// The first operand is the database (or a URI / conninfo).
    Database,
    /// Every operand names a database (`dropdb a`, `mysqladmin drop a`).
    Databases,
    /// The first operand is the host (`cqlsh HOST [PORT]`).
    Host,
    /// The first operand is a database file (`sqlite3 FILE`).
    File,
    /// Operands are commands (`redis-cli FLUSHALL`) or files (`pg_restore DUMP`).
    Ignored,
}

/// Options that name a file or section of connection settings: the host is in there.
const CONFIG_OPTIONS: &[&str] = &[
    "--defaults-file",
    "--defaults-extra-file",
    "--login-path",
    "--cqlshrc",
    "--config-file",
    "--config",
];

/// Long options that take a value as the next word, across the clients (so the value is not
/// read as an operand).
const VALUE_LONG: &[&str] = &[
    "--defaults-file",
    "--defaults-extra-file",
    "--login-path",
    "--cqlshrc",
    "--config-file",
    "--config",
    "--username",
    "--user",
    "--port",
    "--set",
    "--variable",
    "--file",
    "--command",
    "--output",
    "--log-file",
    "--pset",
    "--execute",
    "--eval",
    "--database",
    "--dbname",
    "--host",
    "--socket",
    "--protocol",
    "--format",
    "--jobs",
    "--schema",
    "--table",
    "--role",
    "--keyspace",
    "--url",
    "--uri",
    "--query",
    "--authenticationDatabase",
    "--password",
    "--encoding",
    "--template",
    "--owner",
    "--tablespace",
    "--locale",
    "--maintenance-db",
    "--pass",
    "--tls-cert",
    "--tls-key",
    "--cacert",
];

fn client(name: &str) -> Option<Client> {
    const PG_HOST: &[&str] = &["-h", "--host"];
    const PG_ENV: &[&str] = &["PGHOST", "PGHOSTADDR"];
    const PG_DB_ENV: &[&str] = &["PGDATABASE"];
    let pg = |values, db: &'static [&'static str], operands| Client {
        values,
        attached: "",
        host: PG_HOST,
        socket: &[],
        db,
        uri: &[],
        operands,
        host_env: PG_ENV,
        db_env: PG_DB_ENV,
    };
    let mysql = |values, operands| Client {
        values,
        attached: "p",
        host: &["-h", "--host"],
        socket: &["-S", "--socket"],
        db: &["-D", "--database"],
        uri: &[],
        operands,
        host_env: &["MYSQL_HOST"],
        db_env: &[],
    };
    Some(match name {
        "psql" => pg("cdfFhLopPRTUv", &["-d", "--dbname"], Operands::Database),
        "pg_dump" => pg("dfnNtTEhpUSZj", &["-d", "--dbname"], Operands::Database),
        "pg_restore" => pg("dfFhpUnNtTIPLSj", &["-d", "--dbname"], Operands::Ignored),
        // The maintenance database is only where the command connects: its host counts
        // (it may be a conninfo), its name does not.
        "dropdb" | "createdb" | "dropuser" => Client {
            uri: &["--maintenance-db"],
            ..pg("hpUTlEOD", &[], Operands::Databases)
        },
        "mysql" | "mariadb" => mysql("eDhPSu", Operands::Database),
        "mysqladmin" | "mariadb-admin" => mysql("hPSuOcw", Operands::Databases),
        "mysqldump" | "mariadb-dump" => mysql("hPSu", Operands::Database),
        "redis-cli" | "valkey-cli" | "keydb-cli" => Client {
            values: "hpanus",
            attached: "",
            host: &["-h"],
            socket: &["-s"],
            db: &[],
            uri: &["-u"],
            operands: Operands::Ignored,
            host_env: &[],
            db_env: &[],
        },
        "mongosh" | "mongo" => Client {
            values: "upf",
            attached: "",
            host: &["--host"],
            socket: &[],
            db: &[],
            uri: &[],
            operands: Operands::Database,
            host_env: &[],
            db_env: &[],
        },
        "cqlsh" => Client {
            values: "eupkf",
            attached: "",
            host: &[],
            socket: &[],
            db: &["-k", "--keyspace"],
            uri: &[],
            operands: Operands::Host,
            host_env: &["CQLSH_HOST"],
            db_env: &[],
        },
        "clickhouse-client" => Client {
            values: "qhudp",
            attached: "",
            host: &["-h", "--host"],
            socket: &[],
            db: &["-d", "--database"],
            uri: &[],
            operands: Operands::Ignored,
            host_env: &[],
            db_env: &[],
        },
        "sqlite3" | "sqlite" | "duckdb" => Client {
            values: "",
            attached: "",
            host: &[],
            socket: &[],
            db: &[],
            uri: &[],
            operands: Operands::File,
            host_env: &[],
            db_env: &[],
        },
        _ => return None,
    })
}

/// A cluster of short options (`-tAc SQL`, `-c'SQL'`, `-hlocalhost`, `-U app`) as getopt
/// reads it: the first letter in `values` and its value, the rest of the word or the next word
/// (`*next`, the index of the word after `w`, moves past it). A letter in `attached` first ends
/// the cluster with no value (`mysql -pSECRET`: the password is the rest of the word).
pub(crate) fn short_option_value(
    args: &[Word],
    next: &mut usize,
    w: &Word,
    values: &str,
    attached: &str,
) -> Option<(char, Option<Word>)> {
    let letters = w.text.get(1..).unwrap_or("");
    for (k, ch) in letters.char_indices() {
        if attached.contains(ch) {
            return None;
        }
        if !values.contains(ch) {
            continue;
        }
        let rest = letters.get(k + ch.len_utf8()..).unwrap_or("");
        let value = if rest.is_empty() {
            *next += 1;
            args.get(*next - 1).cloned()
        } else {
            Some(Word {
                text: rest.to_owned(),
                ..w.clone()
            })
        };
        return Some((ch, value));
    }
    None
}

/// What a variable the client reads gives: `None` when the line does not assign it (the
/// client's default applies), unresolved when it assigns something only known at run time.
fn variable(scope: &Scope, names: &[&str]) -> Option<Result<String, ()>> {
    names.iter().find_map(|n| match scope.sh.get(n)? {
        Val::Known(v) => Some(Ok(v.clone())),
        Val::Unknown | Val::Found(..) | Val::OrEmpty(_) | Val::Array(_) => Some(Err(())),
    })
}

/// A client's connection, read from its words (`args`, after the program name). `skip` is how
/// many leading operands are not databases (`mysqladmin drop NAME`: the verb).
fn connection(
    name: &str,
    args: &[Word],
    scope: &Scope,
    ctx: &Context,
    skip: usize,
) -> Option<(Place, Vec<Role>)> {
    let c = client(name)?;
    let mut seen = Seen::default();
    let mut operands: Vec<&Word> = Vec::new();
    let mut i = 0;
    let take = |flag: &str, c: &Client, seen: &mut Seen, value: &Word| {
        if c.host.contains(&flag) {
            if value.exact && value.text.contains("://") {
                let before = seen.dbs.len();
                seen.db_or_uri(value);
                seen.dbs.truncate(before);
            } else {
                // `--host rs0/h1:27017,h2` (a MongoDB replica set): the hosts after the `/`.
                let hosts = match value.text.split_once('/') {
                    Some((set, hosts)) if !set.is_empty() => hosts,
                    _ => value.text.as_str(),
                };
                seen.host(place_of_word(&Word {
                    text: hosts.to_owned(),
                    ..value.clone()
                }));
            }
        } else if c.socket.contains(&flag) {
            seen.host(Place::Local);
        } else if c.uri.contains(&flag) || c.db.contains(&flag) {
            let before = seen.dbs.len();
            seen.db_or_uri(value);
            // A Redis URI's path is a database number, not a name.
            if c.uri.contains(&flag) {
                seen.dbs.truncate(before);
            }
        }
    };
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        if !w.exact || !t.starts_with('-') || t == "-" {
            operands.push(w);
            continue;
        }
        if t == "--" {
            operands.extend(args.get(i..).unwrap_or(&[]));
            break;
        }
        if t.starts_with("--") {
            let (flag, inline) = t.split_once('=').map_or((t, None), |(f, v)| (f, Some(v)));
            let value = match inline {
                Some(v) => Some(Word {
                    text: v.to_owned(),
                    ..w.clone()
                }),
                None if VALUE_LONG.contains(&flag) && flag != "--password" => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                None => None,
            };
            if CONFIG_OPTIONS.contains(&flag) {
                seen.configured();
            }
            if let Some(v) = value {
                take(flag, &c, &mut seen, &v);
            }
            continue;
        }
        if let Some((ch, Some(v))) = short_option_value(args, &mut i, w, c.values, c.attached) {
            take(&format!("-{ch}"), &c, &mut seen, &v);
        }
    }
    let operands = operands.get(skip..).unwrap_or(&[]);
    match c.operands {
        Operands::Database => match operands.first() {
            // `mongosh localhost:27017/app_dev`: a host, then the database.
            Some(w)
                if name.starts_with("mongo")
                    && w.exact
                    && !w.text.contains("://")
                    && w.text.contains('/') =>
            {
                let (host, db) = w.text.split_once('/').unwrap_or((&w.text, ""));
                seen.host(place_of_host(host));
                seen.dbs.push(role_of(db));
            }
            Some(w) => seen.db_or_uri(w),
            None => {}
        },
        Operands::Databases => operands.iter().for_each(|w| seen.dbs.push(role_of_word(w))),
        Operands::Host => {
            if let Some(w) = operands.first() {
                seen.host(place_of_word(w));
            }
        }
        Operands::File => {
            // A database file is on this machine; what it is for is in its file name.
            seen.host(Place::Local);
            match operands.first() {
                Some(w) if w.exact && matches!(w.text.as_str(), ":memory:" | "") => {
                    seen.dbs.push(Role::Disposable(":memory:".to_owned()));
                }
                Some(w) if w.exact => seen.dbs.push(file_role(&w.text, &scope.cwd, ctx)),
                Some(w) => seen.dbs.push(Role::Other(w.text.clone())),
                // No file is a transient in-memory database, but a caller that rebuilds the
                // client without its operands (a staged input file, `hookgate-policy`'s
                // `loaded.rs`) reads the same: unnamed, so it asks.
                None => {}
            }
        }
        Operands::Ignored => {}
    }
    let mut place = match seen.place {
        Some(p) => p,
        None => match variable(scope, c.host_env) {
            Some(Ok(h)) => place_of_host(&h),
            Some(Err(())) => Place::Unresolved,
            None => Place::Local,
        },
    };
    // `PGSERVICE=prod`: a pg_service.conf section chooses the host.
    if c.host_env.contains(&"PGHOST") && variable(scope, &["PGSERVICE"]).is_some() {
        place = farther(place, Place::Unresolved);
    }
    if seen.dbs.is_empty() {
        match variable(scope, c.db_env) {
            Some(Ok(db)) => seen.dbs.push(role_of(&db)),
            Some(Err(())) => seen.dbs.push(Role::Other("$PGDATABASE".to_owned())),
            None => {}
        }
    }
    Some((elsewhere(place, scope), seen.dbs))
}

/// A local place seen from inside `ssh` or a cluster's pod is another machine; inside a
/// container of this machine's daemon it stays local.
fn elsewhere(place: Place, scope: &Scope) -> Place {
    if scope.remote && !scope.local_container && place == Place::Local {
        Place::Remote(format!(
            "the machine `{}` reaches",
            scope.via.last().map_or("", String::as_str)
        ))
    } else {
        place
    }
}

/// The greatest of several roles; no name at all is [`Role::Unnamed`].
fn worst_role(roles: impl IntoIterator<Item = Role>) -> Role {
    roles.into_iter().max().unwrap_or(Role::Unnamed)
}

/// A SQL client's target: its connection, and the databases its SQL acts on. `sql` holds the
/// texts the client runs (`None` for a text only known at run time). A statement that drops
/// a database by name acts on that database (the connection's is only where the command is
/// sent from: `psql -d postgres -c 'DROP DATABASE app_test'`); any other destructive
/// statement acts on the current one (the connection's, or the last `\c`/`USE`).
pub(crate) fn sql_target(
    name: &str,
    args: &[Word],
    scope: &Scope,
    ctx: &Context,
    sql: &[Option<&str>],
) -> Option<Target> {
    if name == "wrangler" {
        return Some(d1_target(args));
    }
    let (place, connected) = connection(name, args, scope, ctx, 0)?;
    let mut roles = Vec::new();
    if sql.iter().any(Option::is_none) {
        roles.push(Role::Other("SQL known only at run time".to_owned()));
    }
    // The texts run in order in one session (`-c '\c x' -c 'TRUNCATE t'`): read as one, each
    // ended where it ends.
    let joined = sql
        .iter()
        .flatten()
        .copied()
        .collect::<Vec<&str>>()
        .join("\n;\n");
    let dbs = crate::interp::sql_databases(&joined);
    roles.extend(dbs.dropped.iter().map(|d| role_of(d)));
    if dbs.unknowable {
        roles.push(Role::Other(
            "a connection or script the SQL opens".to_owned(),
        ));
    }
    // SQLite's attached files are other databases (judged by file name, as the operand).
    roles.extend(dbs.attached.iter().map(|f| file_role(f, &scope.cwd, ctx)));
    // A qualified name reaches another database in MySQL and ClickHouse, another keyspace
    // in CQL; in PostgreSQL and SQLite it is a schema of the same database.
    let qualifier_is_database = matches!(name, "mysql" | "mariadb" | "clickhouse-client" | "cqlsh");
    if qualifier_is_database {
        roles.extend(dbs.qualifiers.iter().map(|q| role_of(q)));
    }
    // There, a statement whose object is qualified acts on the qualifier's database only
    // (`mysql -e 'TRUNCATE TABLE app_test.sessions'`, no database connected).
    let on_current = if qualifier_is_database {
        dbs.unqualified
    } else {
        dbs.on_current
    };
    if on_current {
        match dbs.switched {
            Some(db) => roles.push(role_of(&db)),
            None => roles.push(worst_role(connected)),
        }
    }
    Some(Target {
        place,
        role: worst_role(roles),
    })
}

/// `wrangler d1 execute DB [--remote|--local] --command SQL`: Cloudflare D1 runs the SQL on
/// the local development copy of DB unless `--remote` sends it to the deployed database (the
/// default since wrangler 3). The role is DB's name.
fn d1_target(args: &[Word]) -> Target {
    let remote = args.iter().any(|w| w.exact && w.text == "--remote");
    let db = args.get(2).filter(|w| !w.text.starts_with('-'));
    Target {
        place: if remote {
            Place::Remote("the deployed Cloudflare D1 database".to_owned())
        } else {
            Place::Local
        },
        role: db.map_or(Role::Unnamed, role_of_word),
    }
}

/// A MongoDB shell's target: its connection (`mongodb://h/db`, `--host`, `DB` operand) and
/// the databases its script switches to (`db.getSiblingDB('x')`, `use x`).
pub(crate) fn mongo_target(args: &[Word], scope: &Scope, ctx: &Context, script: &str) -> Target {
    let (place, connected) =
        connection("mongosh", args, scope, ctx, 0).unwrap_or((Place::Unresolved, Vec::new()));
    let (literal, connects) = crate::interp::mongo_databases(script);
    let named: Vec<Role> = literal
        .into_iter()
        .map(|n| {
            n.map_or_else(
                || Role::Other("a name known at run time".to_owned()),
                |n| role_of(&n),
            )
        })
        .collect();
    let place = if connects {
        farther(place, Place::Unresolved)
    } else {
        place
    };
    let role = if named.is_empty() {
        worst_role(connected)
    } else {
        worst_role(named)
    };
    Target { place, role }
}

/// The target of the operands-and-options rules (`dropdb`, `mysqladmin drop`, `redis-cli
/// FLUSHALL`, `pg_restore --clean`).
fn command_target(name: &str, args: &[Word], scope: &Scope, ctx: &Context) -> Option<Target> {
    let skip = usize::from(matches!(name, "mysqladmin" | "mariadb-admin"));
    let (place, roles) = connection(name, args, scope, ctx, skip)?;
    Some(Target {
        place,
        role: worst_role(roles),
    })
}

/// A rule matched from the taxonomy, judged with its target when it is a database rule that
/// depends on one.
pub(crate) fn rule_verdict(
    rule: RuleRef,
    name: &str,
    args: &[Word],
    scope: &Scope,
    ctx: &Context,
) -> Verdict {
    let v = rule.verdict();
    if rule == ids::K8S_SCALE_ZERO {
        return crate::deploy::scale_verdict(v, name, args);
    }
    if rule == ids::CLOUD_AWS_S3_DELETE || rule == ids::CLOUD_GSUTIL_RM {
        return object_verdict(v, args, scope);
    }
    if rule == ids::DB_BROKER_DELETE {
        return broker_verdict(v, args, scope);
    }
    // `kafka-topics.sh --bootstrap-server localhost:9092 --delete --topic test-scratch`,
    // `influx delete --bucket dev-scratch --host http://localhost:8086 …`.
    if rule == ids::DB_ETCD_DELETE_PREFIX {
        return endpoint_store_verdict(v, args, &["--endpoints"], &[], "etcd key range");
    }
    if rule == ids::DB_KAFKA_DELETE {
        return endpoint_store_verdict(
            v,
            args,
            &["--bootstrap-server", "--bootstrap-servers", "--zookeeper"],
            &["--topic", "--group"],
            "Kafka topic or group",
        );
    }
    if rule == ids::DB_INFLUX_DELETE_ALL || rule == ids::DB_INFLUX_DELETE {
        return endpoint_store_verdict(
            v,
            args,
            &["--host"],
            &["--bucket", "-b", "--bucket-id"],
            "InfluxDB bucket",
        );
    }
    if rule == ids::DOCKER_VOLUME_RM
        || rule == ids::DOCKER_COMPOSE_DOWN_VOLUMES
        || rule == ids::DOCKER_COMPOSE_V1_DOWN_VOLUMES
    {
        return volume_verdict(v, name, args, scope);
    }
    if rule != ids::DB_DROPDB && rule != ids::DB_MYSQLADMIN_DROP && rule != ids::DB_REDIS_FLUSH {
        return v;
    }
    match command_target(name, args, scope, ctx) {
        Some(t) => judge(v, &t),
        None => v,
    }
}

/// A broker queue, stream or topic deleted or purged from inside a container of this
/// machine's daemon (`docker compose exec rabbitmq rabbitmqctl purge_queue test_jobs`) is the
/// compose project's own broker, judged as a local database is: names that say test or
/// development are routine, other names ask, production-shaped ones keep the rule's deny.
/// Anywhere else the broker's place is not read (a CLI's default node may be a shared one), so
/// the rule's verdict stands. The names are the words after the verb — option values
/// included (`-p prod_vhost`), so a production-shaped vhost or server still wins.
fn broker_verdict(v: Verdict, args: &[Word], scope: &Scope) -> Verdict {
    // Options that point the CLI at another node, server or cluster (`rabbitmqctl -n
    // rabbit@prod`, `nats --server nats://…`, `kcat -b host`): the broker is not the
    // container's own, whatever the line runs in.
    const ELSEWHERE: &[&str] = &[
        "-n",
        "--node",
        "-s",
        "--server",
        "-H",
        "--host",
        "--hostname",
        "--url",
        "--context",
        "-b",
        "--brokers",
        "--bootstrap-server",
        "--cluster",
    ];
    if !scope.local_container
        || args.iter().any(|w| {
            let t = w.text.as_str();
            ELSEWHERE.contains(&t.split_once('=').map_or(t, |(o, _)| o))
        })
    {
        return v;
    }
    // The rule's own verbs (`verb_any` of `db.broker_delete`), as parts of a CLI's verb word
    // (`purge_queue`, `delete-topic`, `stream.rm`).
    let verbs = ids::DB_BROKER_DELETE
        .def()
        .matcher
        .as_ref()
        .map_or(&[][..], |m| m.verb_any);
    let Some(verb) = args.iter().position(|w| {
        w.text
            .split(['_', '-', '.', ':'])
            .any(|part| verbs.iter().any(|v| v.eq_ignore_ascii_case(part)))
    }) else {
        return v;
    };
    let names = args
        .iter()
        .skip(verb + 1)
        .filter(|w| !(w.exact && w.text.starts_with('-')))
        .map(role_of_word);
    judge_local(
        v,
        &worst_role(names),
        "broker queue",
        "purging or deleting a development queue in the project's own container is routine work",
    )
}

/// A broker's topics or a time-series bucket deleted through a CLI whose endpoint option the
/// line gives (`--bootstrap-server localhost:9092`, `--host http://localhost:8086`): every
/// endpoint on this machine makes it a local store, judged by its names as a local database
/// is (test or development names are routine, other names ask, production-shaped ones keep
/// the rule). No endpoint on the line (the CLI's configured default may be a shared cluster),
/// one elsewhere or one known only at run time keeps the rule's verdict.
fn endpoint_store_verdict(
    v: Verdict,
    args: &[Word],
    endpoint_options: &[&str],
    name_options: &[&str],
    noun: &str,
) -> Verdict {
    let values = |names: &[&str]| -> Vec<&Word> {
        args.iter()
            .enumerate()
            .filter_map(|(i, w)| match w.text.split_once('=') {
                Some((k, _)) if names.contains(&k) => Some(w),
                None if names.contains(&w.text.as_str()) => args.get(i + 1),
                _ => None,
            })
            .collect()
    };
    let value_text = |w: &Word| -> String {
        w.text
            .split_once('=')
            .filter(|(k, _)| k.starts_with('-'))
            .map_or(w.text.clone(), |(_, v)| v.to_owned())
    };
    let endpoints = values(endpoint_options);
    let local = !endpoints.is_empty()
        && endpoints.iter().all(|w| {
            let text = value_text(w);
            let host = text.split_once("://").map_or(text.as_str(), |(_, r)| r);
            let host = host.split('/').next().unwrap_or(host);
            w.exact && place_of_host(host) == Place::Local
        });
    if !local {
        return v;
    }
    let names = values(name_options).into_iter().map(|w| {
        let text = value_text(w);
        if w.exact {
            role_of(&text)
        } else {
            Role::Other(text)
        }
    });
    // No name option: the store's keys are the operands after the deleting verb (`etcdctl
    // --endpoints=http://127.0.0.1:2379 del /test/ --prefix`).
    let keys: Vec<Role> = if name_options.is_empty() {
        args.iter()
            .skip_while(|w| !matches!(w.text.as_str(), "del" | "delete"))
            .skip(1)
            .filter(|w| !(w.exact && w.text.starts_with('-')))
            .map(role_of_word)
            .collect()
    } else {
        Vec::new()
    };
    let role = worst_role(names.chain(keys));
    judge_local(
        v,
        &role,
        noun,
        "deleting development data in a store on this machine is routine work",
    )
}

/// Volumes removed on this machine's daemon (`docker volume rm NAME…`, `docker compose down
/// -v`) are judged by their names as local databases are: the volumes hold the project's
/// development data or someone's real data, and only the name can say which. `volume rm`
/// names its volumes; `compose down -v` removes the volumes compose created for the project
/// (never `external` ones), named by its `-p` project and `-f` files. Production-shaped names,
/// another daemon and `volume prune` (every unused volume of every project) keep the rule.
fn volume_verdict(v: Verdict, name: &str, args: &[Word], scope: &Scope) -> Verdict {
    if !local_daemon(name, args, scope) {
        return v;
    }
    let mut roles = Vec::new();
    if let Some(pos) = args
        .iter()
        .position(|w| w.exact && matches!(w.text.as_str(), "rm" | "remove" | "prune"))
        && args.iter().take(pos).any(|w| w.exact && w.text == "volume")
    {
        if args.get(pos).is_some_and(|w| w.text == "prune") {
            return v;
        }
        roles.extend(
            args.iter()
                .skip(pos + 1)
                .filter(|w| !(w.exact && w.text.starts_with('-')))
                .map(role_of_word),
        );
        if roles.is_empty() {
            return v;
        }
    } else {
        let mut prev = "";
        for w in args {
            let t = w.text.as_str();
            if matches!(prev, "-p" | "--project-name" | "-f" | "--file") {
                roles.push(role_of_word(w));
            } else if let Some((opt, value)) = t.split_once('=')
                && matches!(opt, "--project-name" | "--file")
            {
                roles.push(if w.exact {
                    role_of(value)
                } else {
                    Role::Other(value.to_owned())
                });
            }
            prev = t;
        }
        for var in ["COMPOSE_PROJECT_NAME", "COMPOSE_FILE"] {
            match variable(scope, &[var]) {
                Some(Ok(value)) => roles.push(role_of(&value)),
                Some(Err(())) => roles.push(Role::Other(format!("${var}"))),
                None => {}
            }
        }
    }
    // Compose names an unnamed project from `.env`'s `COMPOSE_PROJECT_NAME` or the compose
    // file's top-level `name:` in the working directory: a production-shaped one there keeps
    // the rule (`.env` holding `COMPOSE_PROJECT_NAME=shop_prod` on a server). Not when the
    // line points compose at another directory or env file (`--project-directory /srv/prod`,
    // `--env-file .env.prod`): the working directory's files are not the ones it reads.
    let elsewhere = args.iter().any(|w| {
        let t = w.text.as_str();
        matches!(
            t.split_once('=').map_or(t, |(o, _)| o),
            "--project-directory" | "--env-file"
        )
    });
    if roles.is_empty() && !elsewhere {
        // `name: ${PROJECT:-shop_dev}` is interpolated from an environment the line does not
        // show: a name that says nothing.
        roles.extend(compose_project_names(&scope.cwd).into_iter().map(|n| {
            if n.contains('$') {
                Role::Other(n)
            } else {
                role_of(&n)
            }
        }));
    }
    judge_local(
        v,
        &worst_role(roles),
        "volume",
        "removing a development volume on this machine's daemon is routine work",
    )
}

/// Largest `.env` or compose file read for the project's name.
const MAX_COMPOSE_FILE: u64 = 256 * 1024;

/// The project names compose would take in `cwd` when none is given on the line: `.env`'s
/// `COMPOSE_PROJECT_NAME` and the top-level `name:` of the default compose files. A line of
/// either file that cannot be read as such is skipped (the worst case is the directory's own
/// name, which compose falls back to and which is never production-shaped by itself here).
fn compose_project_names(cwd: &crate::targets::Cwd) -> Vec<String> {
    let crate::targets::Cwd::Known(dir) = cwd else {
        return Vec::new();
    };
    let read = |name: &str| crate::contained::read_small(&dir.join(name), MAX_COMPOSE_FILE);
    let unquote = |v: &str| v.trim().trim_matches(['"', '\'']).to_owned();
    let mut names = Vec::new();
    if let Some(env) = read(".env") {
        names.extend(env.lines().filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("export ").unwrap_or(l);
            l.strip_prefix("COMPOSE_PROJECT_NAME=").map(unquote)
        }));
    }
    for file in [
        "compose.yaml",
        "compose.yml",
        "docker-compose.yaml",
        "docker-compose.yml",
    ] {
        if let Some(text) = read(file) {
            // Top level only: `name:` at column 0 (a service's `name:` is indented).
            names.extend(
                text.lines()
                    .filter_map(|l| l.strip_prefix("name:"))
                    .map(|v| unquote(v.split(" #").next().unwrap_or(v))),
            );
            break;
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// One named object deleted from a bucket (`aws s3 rm s3://dev-scratch/tmp/x.json`,
/// `gsutil rm gs://b/k`) loses that object only: in a bucket whose name says test, development
/// or scratch it is routine; in another bucket it asks rather than denies. Recursive or
/// filtered deletions, bucket removal (`rb`), several or run-time operands, keys ending in `/`
/// or holding a wildcard, and production-shaped buckets keep the rule.
fn object_verdict(mut v: Verdict, args: &[Word], scope: &Scope) -> Verdict {
    let mut objects = args.iter().filter(|w| w.text.contains("://"));
    let (Some(object), None) = (objects.next(), objects.next()) else {
        return v;
    };
    let bulk = args.iter().any(|w| {
        !w.exact
            || matches!(
                w.text.as_str(),
                "rb" | "-r" | "-R" | "-a" | "--recursive" | "--include" | "--exclude" | "-I"
            )
            || (w.text.starts_with('-')
                && !w.text.starts_with("--")
                && w.text.contains(['r', 'R', 'a', 'I']))
    });
    let Some((bucket, key)) = object
        .text
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('/'))
    else {
        return v;
    };
    if bulk || key.is_empty() || key.ends_with('/') || key.contains(['*', '?', '[']) {
        return v;
    }
    // A production-shaped profile, account or endpoint anywhere on the line keeps the rule
    // (`aws --profile prod s3 rm s3://dev-bucket/a.txt`).
    if args
        .iter()
        .any(|w| !w.text.contains("://") && matches!(role_of(&w.text), Role::Production(_)))
        || [
            "AWS_PROFILE",
            "AWS_DEFAULT_PROFILE",
            "CLOUDSDK_ACTIVE_CONFIG_NAME",
        ]
        .iter()
        .any(|n| match variable(scope, &[n]) {
            Some(Ok(value)) => matches!(role_of(&value), Role::Production(_)),
            Some(Err(())) => true,
            None => false,
        })
    {
        return v;
    }
    match role_of(bucket) {
        Role::Production(_) => v,
        Role::Disposable(name) => Verdict::normal(format!(
            "deletes one object from the bucket `{name}`, whose name says test, development or scratch"
        )),
        Role::Other(_) | Role::Unnamed => {
            v.blast_radius = v.blast_radius.min(BlastRadius::Medium);
            v.reason = format!("{} (one named object)", v.reason);
            v
        }
    }
}

/// [`judge`] for a target known to be on this machine, with the kind of thing named
/// (`noun`) and why a disposable one is routine (`routine`).
fn judge_local(mut v: Verdict, role: &Role, noun: &str, routine: &str) -> Verdict {
    match role {
        Role::Production(n) => {
            v.reason = format!("{} (production-shaped {noun} `{n}`)", v.reason);
        }
        Role::Disposable(n) => {
            return Verdict::normal(format!(
                "local {noun} `{n}` says test or development: {routine}"
            ));
        }
        Role::Other(n) => {
            v.blast_radius = v.blast_radius.min(BlastRadius::Medium);
            v.reason = format!(
                "{} (a {noun} on this machine, `{n}`, whose name does not say test or development)",
                v.reason
            );
        }
        Role::Unnamed => {
            v.blast_radius = v.blast_radius.min(BlastRadius::Medium);
            v.reason = format!(
                "{} (on this machine; no name says which {noun} or that it is test data)",
                v.reason
            );
        }
    }
    v
}

/// The letters of a short-option cluster up to the first that takes a value (`-cd` → `c`,
/// `d`; `-dapp` → `d`).
fn short_letters<'w>(w: &'w Word, values: &'w str) -> impl Iterator<Item = char> + 'w {
    let letters = if w.exact && w.text.starts_with('-') && !w.text.starts_with("--") {
        w.text.get(1..).unwrap_or("")
    } else {
        ""
    };
    let mut done = false;
    letters.chars().take_while(move |c| {
        let take = !done;
        done |= values.contains(*c);
        take
    })
}

/// `pg_restore --clean` (`-c`) drops every object of the dump in the target database before
/// recreating it (with `--create`, the database the dump names, whatever `-d` says):
/// `db.restore_clean`, judged with its target. Without `-d` it only prints a script.
pub(crate) fn restore_clean(args: &[Word], scope: &Scope, ctx: &Context) -> Option<Verdict> {
    let values = client("pg_restore")?.values;
    let has = |long: &str, letter: char| {
        args.iter().any(|w| {
            (w.exact
                && (w.text == long
                    || w.text
                        .strip_prefix(long)
                        .is_some_and(|rest| rest.starts_with('='))))
                || short_letters(w, values).any(|c| c == letter)
        })
    };
    if !(has("--clean", 'c') && has("--dbname", 'd')) {
        return None;
    }
    let mut t = command_target("pg_restore", args, scope, ctx)?;
    if has("--create", 'C') {
        t.role = t
            .role
            .max(Role::Other("the database the dump names".to_owned()));
    }
    Some(judge(ids::DB_RESTORE_CLEAN.verdict(), &t))
}

/// The target of a database client made in interpreter code (see [`crate::sdk`]): each
/// endpoint its constructor was given — a connection URI (`redis://h/0`,
/// `mongodb://h/db`), an `http(s)://` node (search servers) or a bare host; `None` for one
/// known only at run time — and the database names the destroying call gives. No endpoint is
/// the client's default, this machine, as for the CLI without `-h`.
pub(crate) fn code_client_target(endpoints: &[Option<String>], names: &[String]) -> Target {
    let mut place = Place::Local;
    let mut roles: Vec<Role> = names.iter().map(|n| role_of(n)).collect();
    for e in endpoints {
        let p = match e {
            None => Place::Unresolved,
            Some(text) => {
                if let Some((p, db)) = parse_uri(text) {
                    roles.extend(db.map(|d| role_of(&d)));
                    p
                } else {
                    {
                        let authority = text.split_once("://").map_or(text.as_str(), |(_, r)| r);
                        let host = authority.split(['/', '?']).next().unwrap_or(authority);
                        let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
                        place_of_host(host)
                    }
                }
            }
        };
        place = farther(place, p);
    }
    let role = if roles.is_empty() {
        Role::Unnamed
    } else {
        worst_role(roles)
    };
    Target { place, role }
}

/// The verdict of a destructive database command on `t`: a local disposable database is
/// routine (allowed, named); a local database of another or no name asks; remote, unresolved
/// and production targets keep `v`, with the reason saying where.
pub(crate) fn judge(mut v: Verdict, t: &Target) -> Verdict {
    // Logins and grants belong to the server, not to one database: on this machine's server
    // (a container or local install) they are development set-up, whatever database is named.
    if t.place == Place::Local
        && v.rule_id.as_deref() == Some(ids::DB_PRIVILEGE_CHANGE.def().id)
        && !matches!(t.role, Role::Production(_))
    {
        return Verdict::normal(
            "changes a login or grant on a database server on this machine (development set-up)",
        );
    }
    match (&t.place, &t.role) {
        (_, Role::Production(name)) => {
            v.reason = format!("{} (production-shaped database `{name}`)", v.reason);
        }
        (Place::Remote(place), _) => {
            v.reason = format!("{} (on {place})", v.reason);
        }
        (Place::Unresolved, _) => {
            v.reason = format!(
                "{} (on a host known only at run time: it cannot be placed)",
                v.reason
            );
        }
        (Place::Local, Role::Disposable(name)) => {
            return Verdict::normal(format!(
                "local test database `{name}`: dropping or emptying a test or development database over a loopback or socket connection is routine work"
            ));
        }
        (Place::Local, Role::Other(name)) => {
            v.blast_radius = v.blast_radius.min(BlastRadius::Medium);
            v.reason = format!(
                "{} (a local database, `{name}`, whose name does not say test or development)",
                v.reason
            );
        }
        (Place::Local, Role::Unnamed) => {
            v.blast_radius = v.blast_radius.min(BlastRadius::Medium);
            v.reason = format!("{} (a local database; which one is not named)", v.reason);
        }
    }
    v
}

/// The verdict of a framework task that resets its database, by the environment it runs in:
/// production denies (`db.framework_reset_production`), a test or development environment is
/// routine, and an environment the line does not give asks (`db.framework_reset`).
pub(crate) fn framework_reset(env: &TaskEnv, production: bool) -> Verdict {
    match env {
        _ if production => ids::DB_FRAMEWORK_RESET_PRODUCTION.verdict(),
        TaskEnv::Production(e) => {
            let mut v = ids::DB_FRAMEWORK_RESET_PRODUCTION.verdict();
            v.reason = format!("{} (environment `{e}`)", v.reason);
            v
        }
        TaskEnv::Local(e) => Verdict::normal(format!(
            "local test database: the framework task resets the database of the `{e}` environment"
        )),
        TaskEnv::Unknown => ids::DB_FRAMEWORK_RESET.verdict(),
    }
}

/// Whether a container command runs on this machine's Docker/Podman daemon (no `-H`/`--host`
/// or `--context` pointing elsewhere, no `DOCKER_HOST` set on the line), in a project, file or
/// service whose names are not production-shaped: loopback inside it is the project's own.
pub(crate) fn local_daemon(name: &str, args: &[Word], scope: &Scope) -> bool {
    if !matches!(
        name,
        "docker" | "podman" | "nerdctl" | "docker-compose" | "podman-compose"
    ) {
        return false;
    }
    if scope.remote && !scope.local_container {
        return false;
    }
    if scope.sh.get("DOCKER_HOST").is_some() {
        return false;
    }
    let mut prev = "";
    for w in args {
        let t = w.text.as_str();
        if !w.exact {
            return false;
        }
        if matches!(prev, "-H" | "--host" | "-c" | "--context")
            || t.starts_with("--host=")
            || t.starts_with("--context=")
        {
            let value = t.split_once('=').map_or(t, |(_, v)| v);
            if !(matches!(
                value,
                "default" | "desktop-linux" | "colima" | "orbstack" | "rootless"
            ) || value.starts_with("unix://"))
            {
                return false;
            }
        }
        if matches!(role_of(t), Role::Production(_)) {
            return false;
        }
        if matches!(t, "exec" | "run") {
            // The service or container is the next word that is not an option.
            if let Some(target) = args
                .iter()
                .skip_while(|x| x.text != t)
                .skip(1)
                .find(|x| !x.text.starts_with('-'))
            {
                return target.exact && !matches!(role_of(&target.text), Role::Production(_));
            }
            return true;
        }
        prev = t;
    }
    true
}

/// The environment a framework task runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TaskEnv {
    /// Production or a shared environment (`RAILS_ENV=production`, `--env=staging`,
    /// `--settings=config.settings.prod`).
    Production(String),
    /// Every environment the line names is test or development (`RAILS_ENV=test`).
    Local(String),
    /// None named (the session's exported variables decide, which the guard cannot see), or
    /// one it cannot read (`RAILS_ENV=$TARGET`, `--settings=app.settings`).
    Unknown,
}

/// Frameworks whose tasks pick their database by environment: the tool (basename), the
/// variables it reads and the options that set it.
const TASK_ENVIRONMENTS: &[(&str, &[&str], &[&str])] = &[
    (
        "rails",
        &["RAILS_ENV", "RACK_ENV"],
        &["-e", "--environment"],
    ),
    ("rake", &["RAILS_ENV", "RACK_ENV"], &[]),
    ("manage.py", &["DJANGO_SETTINGS_MODULE"], &["--settings"]),
    ("django-admin", &["DJANGO_SETTINGS_MODULE"], &["--settings"]),
    ("artisan", &["APP_ENV"], &["--env"]),
    ("console", &["APP_ENV"], &["--env", "-e"]),
    ("knex", &["NODE_ENV"], &["--env"]),
    ("sequelize", &["NODE_ENV"], &["--env"]),
    ("sequelize-cli", &["NODE_ENV"], &["--env"]),
    ("mix", &["MIX_ENV"], &[]),
    ("dbt", &["DBT_TARGET"], &["--target", "-t"]),
];

/// The environment of a framework task on this command (`name` and its `words`): every
/// environment the line gives — assignments among the words (`rake db:reset RAILS_ENV=test`),
/// the tool's options (`-e test`, `--env=testing`, `--settings=app.settings.test`) and
/// variables the line assigned (`RAILS_ENV=test bin/rails …`, `export NODE_ENV=test; …`).
/// A tool not in the table, or one given no environment, is [`TaskEnv::Unknown`].
pub(crate) fn task_env(name: &str, words: &[Word], scope: &Scope) -> TaskEnv {
    let all: Vec<&Word> = words.iter().collect();
    let tool_at = std::iter::once(name)
        .chain(all.iter().map(|w| w.text.as_str()))
        .position(|w| {
            let base = crate::resolve::basename(w);
            TASK_ENVIRONMENTS.iter().any(|(t, ..)| *t == base)
        });
    let Some(at) = tool_at else {
        return TaskEnv::Unknown;
    };
    let tool_word = if at == 0 {
        name
    } else {
        all.get(at - 1).map_or("", |w| w.text.as_str())
    };
    let base = crate::resolve::basename(tool_word);
    let Some((_, vars, options)) = TASK_ENVIRONMENTS.iter().find(|(t, ..)| *t == base) else {
        return TaskEnv::Unknown;
    };
    let mut given: Vec<(String, bool)> = Vec::new();
    let after = all.get(at..).unwrap_or(&[]);
    let mut k = 0;
    while let Some(w) = after.get(k) {
        k += 1;
        if let Some((var, value)) = w.text.split_once('=') {
            if vars.contains(&var) || options.contains(&var) {
                given.push((value.to_owned(), w.exact));
            }
            continue;
        }
        if options.contains(&w.text.as_str())
            && let Some(v) = after.get(k)
        {
            given.push((v.text.clone(), v.exact));
            k += 1;
        } else if let Some(v) = w
            .text
            .strip_prefix("-e")
            .filter(|v| !v.is_empty() && !v.starts_with('-') && options.contains(&"-e"))
        {
            given.push((v.to_owned(), w.exact));
        }
    }
    for var in *vars {
        match scope.sh.get(var) {
            Some(Val::Known(v)) => given.push((v.clone(), true)),
            Some(_) => given.push((format!("${var}"), false)),
            None => {}
        }
    }
    let roles: Vec<Role> = given
        .iter()
        .map(|(value, exact)| {
            if *exact {
                role_of(value)
            } else {
                Role::Other(value.clone())
            }
        })
        .collect();
    // A connection URL on the line overrides the environment's database configuration
    // (Rails, Django-environ, Laravel, knex and sequelize read `DATABASE_URL`): it must be a
    // local test database itself, or the environment's name says nothing.
    let url = after
        .iter()
        .find_map(|w| {
            w.text
                .strip_prefix("DATABASE_URL=")
                .map(|v| (v.to_owned(), w.exact))
        })
        .or_else(|| match scope.sh.get("DATABASE_URL") {
            Some(Val::Known(v)) => Some((v.clone(), true)),
            Some(_) => Some((String::new(), false)),
            None => None,
        });
    let url_target = url.map(
        |(text, exact)| match exact.then(|| parse_uri(&text)).flatten() {
            Some((place, db)) => (place, db.as_deref().map_or(Role::Unnamed, role_of)),
            None => (Place::Unresolved, Role::Other(text)),
        },
    );
    match (worst_role(roles), url_target) {
        (Role::Production(v), _) | (_, Some((_, Role::Production(v)))) => TaskEnv::Production(v),
        (Role::Disposable(v), None | Some((Place::Local, Role::Disposable(_)))) => {
            TaskEnv::Local(v)
        }
        _ => TaskEnv::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_parts_give_the_role() {
        assert!(matches!(role_of("app_test"), Role::Disposable(_)));
        assert!(matches!(role_of("myAppDev"), Role::Disposable(_)));
        assert!(matches!(role_of("app-e2e-3"), Role::Disposable(_)));
        assert!(matches!(role_of("app_test_prod"), Role::Production(_)));
        assert!(matches!(role_of("live"), Role::Production(_)));
        assert!(matches!(role_of("contest"), Role::Other(_)));
        assert!(matches!(role_of("shop"), Role::Other(_)));
        assert!(matches!(role_of("products"), Role::Other(_)));
    }

    #[test]
    fn loopback_and_sockets_are_local() {
        for h in [
            "localhost",
            "127.0.0.1",
            "127.1.2.3",
            "::1",
            "[::1]:5432",
            "localhost:5432",
            "/var/run/postgresql",
            "",
        ] {
            assert_eq!(place_of_host(h), Place::Local, "{h}");
        }
        for h in [
            "db.internal",
            "10.0.0.5",
            "app.abc.us-east-1.rds.amazonaws.com",
            "localhost,db.internal",
            "db",
        ] {
            assert!(matches!(place_of_host(h), Place::Remote(_)), "{h}");
        }
    }

    #[test]
    fn uris_and_conninfo_give_host_and_database() {
        assert_eq!(
            parse_uri("postgresql://u:p@localhost:5432/app_test"),
            Some((Place::Local, Some("app_test".to_owned())))
        );
        assert_eq!(
            parse_uri("postgresql:///app_dev?host=/var/run/postgresql"),
            Some((Place::Local, Some("app_dev".to_owned())))
        );
        assert!(matches!(
            parse_uri("mongodb+srv://u@cluster0.example.net/app_test"),
            Some((Place::Remote(_), _))
        ));
        assert_eq!(
            parse_conninfo("host=127.0.0.1 dbname=app_test"),
            Some((Place::Local, Some("app_test".to_owned())))
        );
        assert_eq!(parse_conninfo("app_test"), None);
        assert_eq!(parse_uri("https://example.com/x"), None);
    }
}
