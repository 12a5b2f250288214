//! Remote effects of interpreter code: the destroying verbs of networked client libraries
//! (`boto3 … delete_bucket`, `new DeleteBucketCommand(…)`, `redis.Redis().flushall()`,
//! `Aws::EC2::Client.new.terminate_instances`) and HTTP clients' DELETE/PUT/PATCH
//! (`requests.delete(u)`, `fetch(u, {method: 'DELETE'})`).
//!
//! Why: the same act through the tool's CLI (`aws s3 rb`, `redis-cli flushall`, `curl -X
//! DELETE`) is judged by the taxonomy; written as a one-liner against the SDK it was
//! invisible, because the code readers only knew local file, process and network effects.
//! The code reader ([`crate::code`]) lowers and qualifies each call; this module is the data:
//! which canonical names belong to a networked client (by module or class root, one table
//! per family), which method names destroy (a verb family read from the name's words, not a
//! list of spellings), and which calls are HTTP requests with which method.

/// What kind of service a client library talks to: the family picks the rule the CLI twin
/// of the call gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// Cloud providers and cluster managers (AWS, Google Cloud, Azure, Kubernetes, …).
    Cloud,
    /// SQL, search, queue and wide-column servers.
    Database,
    /// Redis and its forks: a flush deletes every key.
    Redis,
    /// MongoDB: drops and mass deletes.
    Mongo,
    /// Hosted services and forges (GitHub, Stripe, Slack, …) and the Docker daemon.
    Service,
    /// Industrial controllers (Modbus, Siemens S7, EtherNet/IP, OPC UA, BACnet, ADS): a
    /// write moves a real setpoint, coil or register, a stop halts a plant line — judged by
    /// [`actuating`], not [`destroying`].
    Industrial,
}

/// A call on a remote service that destroys or replaces something there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Remote {
    /// A destroying verb of a client library; `call` names it as written (canonical).
    /// `endpoints`: the hosts or URIs its client was made with (`None`: known only at run
    /// time); `names`: the constant names the call is given (`drop_database('app_prod')`).
    Sdk {
        family: Family,
        /// The destroying method or command word (`flushall`, `delete_bucket`).
        verb: String,
        call: String,
        endpoints: Vec<Option<String>>,
        names: Vec<String>,
    },
    /// An HTTP request with a changing method; `url` when it is a constant.
    Http {
        method: String,
        url: Option<String>,
        call: String,
    },
}

/// Client libraries by the root of their canonical name (module, package or class), as the
/// code reader spells it (`@aws-sdk/client-s3` → `@aws-sdk.client-s3`; Ruby `Aws::S3` →
/// `Aws.S3`). Roots with two segments name a namespace package (`google.cloud`).
const CLIENTS: &[(&str, Family)] = &[
    // Cloud providers, their resource managers and cluster APIs.
    ("boto3", Family::Cloud),
    ("botocore", Family::Cloud),
    ("aioboto3", Family::Cloud),
    ("aiobotocore", Family::Cloud),
    ("google.cloud", Family::Cloud),
    ("googleapiclient", Family::Cloud),
    ("azure", Family::Cloud),
    ("kubernetes", Family::Cloud),
    ("kubernetes_asyncio", Family::Cloud),
    ("openstack", Family::Cloud),
    ("digitalocean", Family::Cloud),
    ("pydo", Family::Cloud),
    ("hcloud", Family::Cloud),
    ("linode_api4", Family::Cloud),
    ("oci", Family::Cloud),
    ("ibm_boto3", Family::Cloud),
    ("firebase_admin", Family::Cloud),
    ("@aws-sdk", Family::Cloud),
    ("aws-sdk", Family::Cloud),
    ("@google-cloud", Family::Cloud),
    ("googleapis", Family::Cloud),
    ("@azure", Family::Cloud),
    ("@kubernetes", Family::Cloud),
    ("firebase-admin", Family::Cloud),
    ("@pulumi", Family::Cloud),
    ("Aws", Family::Cloud),
    ("Google.Cloud", Family::Cloud),
    ("Azure", Family::Cloud),
    ("Kubeclient", Family::Cloud),
    ("Fog", Family::Cloud),
    ("DropletKit", Family::Cloud),
    // ML platforms' hubs, registries and trackers: a deleted model repository, registered
    // model, run or fine-tune is another team's production artifact gone.
    ("huggingface_hub", Family::Cloud),
    ("mlflow", Family::Cloud),
    ("wandb", Family::Cloud),
    ("comet_ml", Family::Cloud),
    ("clearml", Family::Cloud),
    ("neptune", Family::Cloud),
    ("replicate", Family::Cloud),
    ("openai", Family::Cloud),
    ("@huggingface", Family::Cloud),
    // Redis and compatible servers.
    ("redis", Family::Redis),
    ("aioredis", Family::Redis),
    ("valkey", Family::Redis),
    ("ioredis", Family::Redis),
    ("@redis", Family::Redis),
    ("@upstash", Family::Redis),
    ("Redis", Family::Redis),
    ("Predis", Family::Redis),
    // MongoDB.
    ("pymongo", Family::Mongo),
    ("motor", Family::Mongo),
    ("mongoengine", Family::Mongo),
    ("mongodb", Family::Mongo),
    ("mongoose", Family::Mongo),
    ("Mongo", Family::Mongo),
    ("Mongoid", Family::Mongo),
    ("MongoDB", Family::Mongo),
    // SQL, search, queues, wide-column and vector stores.
    ("psycopg2", Family::Database),
    ("psycopg", Family::Database),
    ("asyncpg", Family::Database),
    ("mysql", Family::Database),
    ("pymysql", Family::Database),
    ("MySQLdb", Family::Database),
    ("sqlalchemy", Family::Database),
    ("elasticsearch", Family::Database),
    ("opensearchpy", Family::Database),
    ("kafka", Family::Database),
    ("confluent_kafka", Family::Database),
    ("cassandra", Family::Database),
    ("neo4j", Family::Database),
    ("clickhouse_driver", Family::Database),
    ("clickhouse_connect", Family::Database),
    ("pinecone", Family::Database),
    ("qdrant_client", Family::Database),
    ("weaviate", Family::Database),
    ("chromadb", Family::Database),
    ("pika", Family::Database),
    ("influxdb_client", Family::Database),
    ("pg", Family::Database),
    ("mysql2", Family::Database),
    ("@elastic", Family::Database),
    ("@opensearch-project", Family::Database),
    ("kafkajs", Family::Database),
    ("cassandra-driver", Family::Database),
    ("neo4j-driver", Family::Database),
    ("@pinecone-database", Family::Database),
    ("@qdrant", Family::Database),
    ("@clickhouse", Family::Database),
    ("amqplib", Family::Database),
    ("PG", Family::Database),
    ("Mysql2", Family::Database),
    ("Sequel", Family::Database),
    ("Elasticsearch", Family::Database),
    ("OpenSearch", Family::Database),
    ("Kafka", Family::Database),
    ("Rdkafka", Family::Database),
    ("Cassandra", Family::Database),
    ("Bunny", Family::Database),
    // Forges, hosted services and the Docker daemon.
    ("github", Family::Service),
    ("gitlab", Family::Service),
    ("stripe", Family::Service),
    ("slack_sdk", Family::Service),
    ("twilio", Family::Service),
    ("docker", Family::Service),
    ("hvac", Family::Service),
    ("cloudflare", Family::Service),
    ("supabase", Family::Service),
    ("sentry_sdk", Family::Service),
    ("jira", Family::Service),
    ("atlassian", Family::Service),
    ("@octokit", Family::Service),
    ("octokit", Family::Service),
    ("@gitbeaker", Family::Service),
    ("@slack", Family::Service),
    ("@supabase", Family::Service),
    ("@vercel", Family::Service),
    ("@cloudflare", Family::Service),
    ("dockerode", Family::Service),
    ("node-vault", Family::Service),
    // Hosted services' Python SDKs beyond the forges: lab and media platforms (Galaxy's
    // bioblend, ShotGrid, Omniverse), object stores, CRM/helpdesk, commerce, messaging,
    // monitoring and ERP clients. A destroying verb on any of them deletes the account's
    // live records, as the twin CLI or REST call would.
    ("bioblend", Family::Service),
    ("shotgun_api3", Family::Service),
    ("omni", Family::Service),
    ("minio", Family::Service),
    ("b2sdk", Family::Service),
    ("dropbox", Family::Service),
    ("boxsdk", Family::Service),
    ("pydrive", Family::Service),
    ("pydrive2", Family::Service),
    ("O365", Family::Service),
    ("office365", Family::Service),
    ("shareplum", Family::Service),
    ("simple_salesforce", Family::Service),
    ("hubspot", Family::Service),
    ("zenpy", Family::Service),
    ("intercom", Family::Service),
    ("mailchimp3", Family::Service),
    ("mailchimp_marketing", Family::Service),
    ("sendgrid", Family::Service),
    ("asana", Family::Service),
    ("trello", Family::Service),
    ("notion_client", Family::Service),
    ("pyairtable", Family::Service),
    ("airtable", Family::Service),
    ("okta", Family::Service),
    ("auth0", Family::Service),
    ("jenkins", Family::Service),
    ("datadog_api_client", Family::Service),
    ("datadog", Family::Service),
    ("pdpyras", Family::Service),
    ("algoliasearch", Family::Service),
    ("meilisearch", Family::Service),
    ("typesense", Family::Service),
    ("shopify", Family::Service),
    ("woocommerce", Family::Service),
    ("braintree", Family::Service),
    ("squareup", Family::Service),
    ("square", Family::Service),
    ("paypalrestsdk", Family::Service),
    ("razorpay", Family::Service),
    ("mollie", Family::Service),
    ("plaid", Family::Service),
    ("xero_python", Family::Service),
    ("quickbooks", Family::Service),
    ("frappeclient", Family::Service),
    ("odoorpc", Family::Service),
    ("vonage", Family::Service),
    ("plivo", Family::Service),
    ("telnyx", Family::Service),
    ("tweepy", Family::Service),
    ("praw", Family::Service),
    ("discord", Family::Service),
    ("telegram", Family::Service),
    ("pyVmomi", Family::Cloud),
    ("proxmoxer", Family::Cloud),
    ("Octokit", Family::Service),
    // Industrial control protocols' client libraries.
    ("pymodbus", Family::Industrial),
    ("pyModbusTCP", Family::Industrial),
    ("umodbus", Family::Industrial),
    ("minimalmodbus", Family::Industrial),
    ("snap7", Family::Industrial),
    ("pycomm3", Family::Industrial),
    ("pylogix", Family::Industrial),
    ("cpppo", Family::Industrial),
    ("opcua", Family::Industrial),
    ("asyncua", Family::Industrial),
    ("BAC0", Family::Industrial),
    ("bacpypes", Family::Industrial),
    ("pyads", Family::Industrial),
    ("node-opcua", Family::Industrial),
    ("modbus-serial", Family::Industrial),
    ("jsmodbus", Family::Industrial),
    ("Gitlab", Family::Service),
    ("Stripe", Family::Service),
    ("Slack", Family::Service),
    ("Twilio", Family::Service),
    ("Docker", Family::Service),
    ("Vault", Family::Service),
];

/// The client family of a canonical call name, by its leading segments (a constructor's
/// `()` and Ruby's `.new()` do not count).
pub(crate) fn client_family(name: &str) -> Option<Family> {
    // Every call and attribute of a snippet asks: a name whose first segment starts with a
    // byte no root starts with is rejected before its segments are collected (`extends`
    // rejects each root on that byte alike).
    if !may_extend(name.trim_start_matches('\\'), &CLIENT_FIRST) {
        return None;
    }
    let segments: Vec<&str> = name
        .trim_start_matches('\\')
        .split(['.', '\\'])
        .map(|s| s.strip_suffix("()").unwrap_or(s))
        .collect();
    // `extends`' own first test (a root whose first byte differs from the name's is not it),
    // made before the call: most of the ~120 roots are rejected by one compare, not a call.
    let first = first_byte(&segments);
    CLIENTS
        .iter()
        .filter(|(root, _)| first.is_none_or(|b| root.as_bytes().first() == Some(&b)))
        .find_map(|(root, family)| extends(&segments, root).then_some(*family))
}

/// The first bytes of `roots`' names, by byte (see [`may_extend`]).
const fn first_bytes<const N: usize>(roots: [&str; N]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < N {
        if let Some(&b) = roots[i].as_bytes().first() {
            table[b as usize] = true;
        }
        i += 1;
    }
    table
}

/// The roots of [`CLIENTS`], for [`first_bytes`].
const CLIENT_ROOTS: [&str; CLIENTS.len()] = {
    let mut roots = [""; CLIENTS.len()];
    let mut i = 0;
    while i < CLIENTS.len() {
        roots[i] = CLIENTS[i].0;
        i += 1;
    }
    roots
};

/// First bytes of [`CLIENTS`]' roots.
const CLIENT_FIRST: [bool; 256] = first_bytes(CLIENT_ROOTS);

/// First bytes of [`HTTP_CLIENTS`]' roots.
const HTTP_FIRST: [bool; 256] = {
    let mut roots = [""; HTTP_CLIENTS.len()];
    let mut i = 0;
    while i < HTTP_CLIENTS.len() {
        roots[i] = HTTP_CLIENTS[i];
        i += 1;
    }
    first_bytes(roots)
};

/// False only when no root of a table with these `first` bytes can begin `name`: its first
/// byte starts its first segment, which [`extends`] compares with each root's first byte
/// first. A name that is empty or whose first segment may be empty (`.x`, `\x`, `()`) is
/// left to `extends`.
fn may_extend(name: &str, first: &[bool; 256]) -> bool {
    name.as_bytes()
        .first()
        .is_none_or(|&b| matches!(b, b'.' | b'\\' | b'(') || first[usize::from(b)])
}

/// Whether `segments` start with the dotted `root`'s segments and go on past them. Called for
/// every call and attribute of a snippet against every catalogued root: a root whose first
/// segment is not the name's is rejected by one prefix test, without splitting it.
fn extends(segments: &[&str], root: &str) -> bool {
    let first = segments.first().copied().unwrap_or_default();
    // Most roots differ from the name at their first byte: rejected before the prefix test.
    if let Some(b) = first.as_bytes().first()
        && root.as_bytes().first() != Some(b)
    {
        return false;
    }
    let Some(head) = root.strip_prefix(first) else {
        return false;
    };
    if !(head.is_empty() || head.starts_with('.')) {
        return false;
    }
    let mut matched = 0;
    for want in root.split('.') {
        if segments.get(matched) != Some(&want) {
            return false;
        }
        matched += 1;
    }
    segments.len() > matched
}

/// The words of a method or class name: split at `_`, `-`, `!`, `?` and lower-to-upper case
/// changes, lowercased (`DeleteBucketCommand` → delete, bucket, command).
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '!' | '?' | '$') {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether an industrial client's method acts on the controller: it writes (`write_coil`,
/// `write_registers`, `db_write`, `write_by_name`, pycomm3's `write`, pylogix's `Write`, OPC
/// UA's `set_value`/`write_value`), stops, starts or resets the PLC (`plc_stop`,
/// `plc_cold_start`), or downloads or deletes its program blocks. Reads, browsing and
/// connection handling are not actions.
pub(crate) fn actuating(method: &str) -> bool {
    words(method).iter().any(|w| {
        matches!(
            w.as_str(),
            "write" | "set" | "stop" | "start" | "reset" | "download" | "delete"
        )
    })
}

/// Whether a client method (or a command class, `DeleteBucketCommand`) destroys: its verb —
/// the first word, after a batching or asynchronous prefix (`begin_delete`,
/// `batch_delete_item`, `bulk_delete`) — is one of the destroying family. `flush` and `reset`
/// only with an object (`flush_all`, `flushAll`, `reset_index`; a bare `flush()` is a stream's),
/// and `shutdown` only where the receiver is known to be a client (`strict`). Event-listener
/// removal (`removeAllListeners`) is the client object's own bookkeeping, not the service's.
pub(crate) fn destroying(method: &str, strict: bool) -> bool {
    let w = words(method);
    let mut it = w.iter().map(String::as_str).peekable();
    while it
        .peek()
        .is_some_and(|v| matches!(*v, "begin" | "batch" | "bulk" | "async" | "force"))
    {
        it.next();
    }
    let Some(verb) = it.next() else {
        return false;
    };
    let rest: Vec<&str> = it.collect();
    // Web APIs named `noun_verb` (Slack's `files_delete`, `chat_delete`): the verb is the
    // last word, unless the first asks or reacts (`can_delete`, `on_delete`).
    if let Some(last) = rest.last()
        && !matches!(
            verb,
            "get"
                | "list"
                | "describe"
                | "can"
                | "is"
                | "has"
                | "should"
                | "on"
                | "before"
                | "after"
                | "validate"
                | "check"
                | "head"
                | "find"
                | "count"
                | "undo"
        )
        && matches!(*last, "delete" | "remove" | "destroy" | "purge" | "drop")
        && destroying(last, strict)
    {
        return true;
    }
    if rest.iter().any(|r| {
        matches!(
            *r,
            "listener" | "listeners" | "handler" | "handlers" | "callback" | "callbacks"
        )
    }) {
        return false;
    }
    match verb {
        "delete" | "remove" | "drop" | "destroy" | "terminate" | "purge" | "truncate" | "wipe"
        | "erase" | "prune" | "flushall" | "flushdb" | "deprovision" | "decommission" => true,
        "flush" | "reset" | "empty" => !rest.is_empty(),
        // Stripe's and superagent-style `del`, Stripe's `cancel`: only on a known client.
        "shutdown" | "del" | "cancel" => strict,
        _ => false,
    }
}

/// Keyword or option keys that give a client its server.
pub(crate) const ENDPOINT_KEYS: &[&str] = &[
    "host",
    "hosts",
    "hostname",
    "url",
    "uri",
    "node",
    "nodes",
    "endpoint",
    "endpoint_url",
    "endpointUrl",
    "connection_string",
    "connectionString",
    "dsn",
    "server",
    "servers",
    "bootstrap_servers",
    "brokers",
    "bootstrap.servers",
    "metadata.broker.list",
];

/// Methods of Redis clients that send a command given as data.
pub(crate) fn raw_command_method(m: &str) -> bool {
    matches!(
        m,
        "execute_command" | "sendCommand" | "send_command" | "call" | "command" | "callBuffer"
    )
}

/// HTTP client libraries by root, whose methods named after an HTTP method send it
/// (`requests.delete`, `httpx.AsyncClient().put`, `axios.patch`, `HTTParty.delete`,
/// `Net::HTTP.new(h).delete`).
const HTTP_CLIENTS: &[&str] = &[
    "requests",
    "httpx",
    "aiohttp",
    "urllib3",
    "niquests",
    "axios",
    "got",
    "ky",
    "superagent",
    "node-fetch",
    "undici",
    "needle",
    "HTTParty",
    "Faraday",
    "RestClient",
    "Net.HTTP",
    "Excon",
    "Typhoeus",
    "HTTPX",
    "HTTP",
    "GuzzleHttp",
];

/// Whether a canonical name belongs to an HTTP client library.
pub(crate) fn http_client(name: &str) -> bool {
    if !may_extend(name, &HTTP_FIRST) {
        return false;
    }
    let segments: Vec<&str> = name
        .split('.')
        .map(|s| s.strip_suffix("()").unwrap_or(s))
        .collect();
    let first = first_byte(&segments);
    HTTP_CLIENTS
        .iter()
        .filter(|root| first.is_none_or(|b| root.as_bytes().first() == Some(&b)))
        .any(|root| extends(&segments, root))
}

/// The first byte of the first segment: [`extends`] rejects every root not starting with it
/// (`None`: the first segment is empty or missing, and `extends` decides alone).
fn first_byte(segments: &[&str]) -> Option<u8> {
    segments.first().and_then(|s| s.as_bytes().first()).copied()
}

/// The HTTP method a client method name sends, when it changes or deletes a resource
/// (`delete`, `del` — superagent's —, `put`, `patch`, and the `_async`/`Async` variants).
pub(crate) fn method_of(method: &str) -> Option<&'static str> {
    let w = words(method);
    match w.first().map(String::as_str) {
        Some("delete" | "del") if w.len() <= 2 => Some("DELETE"),
        Some("put") if w.len() <= 2 => Some("PUT"),
        Some("patch") if w.len() <= 2 => Some("PATCH"),
        _ => None,
    }
}

/// A method given as data (`method="DELETE"`, `{method: 'delete'}`, `request('PUT', u)`),
/// when it changes or deletes a resource.
pub(crate) fn changing_method(m: &str) -> Option<&'static str> {
    let m = m.trim();
    if m.eq_ignore_ascii_case("DELETE") {
        Some("DELETE")
    } else if m.eq_ignore_ascii_case("PUT") {
        Some("PUT")
    } else if m.eq_ignore_ascii_case("PATCH") {
        Some("PATCH")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_read_from_words() {
        for (name, want) in [
            ("delete_bucket", true),
            ("DeleteBucketCommand", true),
            ("begin_delete", true),
            ("batch_delete_item", true),
            ("flushall", true),
            ("flushAll", true),
            ("flush", false),
            ("flush_all", true),
            ("removeAllListeners", false),
            ("list_buckets", false),
            ("ListObjectsV2Command", false),
            ("describe_instances", false),
            ("delete!", true),
        ] {
            assert_eq!(destroying(name, false), want, "{name}");
        }
    }

    #[test]
    fn families_by_root() {
        assert_eq!(
            client_family("boto3.client().delete_bucket"),
            Some(Family::Cloud)
        );
        assert_eq!(
            client_family("google.cloud.storage.Client().bucket().delete"),
            Some(Family::Cloud)
        );
        assert_eq!(client_family("google.auth.x"), None);
        assert_eq!(client_family("Redis().flushAll"), Some(Family::Redis));
        assert_eq!(client_family("redis"), None);
    }
}
