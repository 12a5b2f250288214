//! Public input and output types of the analyzer.
//!
//! Everything here is plain data so the guard can print it (`hookgate explain --json`) and the
//! engine can match on it; all enums serialise in snake_case.

use std::path::PathBuf;

use serde::Serialize;

/// Where a command runs, passed in by the caller so the analysis stays pure (no `env::var`, no
/// `current_dir`): the same input always gives the same verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// Workspace root; relative paths are resolved against it. Deleting inside it (but not the
    /// root itself nor `.git`) is normal work.
    pub cwd: PathBuf,
    /// The user's home directory, for `~` and `$HOME`; `None` makes home-relative targets
    /// unresolvable (and thus never `allow`-ed for destructive commands).
    pub home: Option<PathBuf>,
    /// Temporary directories in which deleting is normal work (`/tmp`, `/var/tmp`, `$TMPDIR`).
    pub temp_dirs: Vec<PathBuf>,
    /// Value of `$TMPDIR` if known; `$TMPDIR`/`${TMPDIR:-…}` words resolve to it.
    pub tmpdir: Option<PathBuf>,
    /// Files earlier command lines wrote secret data to ([`Analysis::secret_files`] of those
    /// lines, absolute), with where the data came from: a later read or upload of one is the
    /// same flow as within one line (`env > /tmp/e` now, `curl -d @/tmp/e URL` later).
    /// Shared, not copied, by every line analysed with this context.
    pub secret_files: std::sync::Arc<[(PathBuf, FlowSource)]>,
    /// Environment variables whose value in the agent's shell the caller knows, because the
    /// agent runs the guard with the same environment: the guard's own locations
    /// (`HOOKGATE_HOME`, `HOOKGATE_CONFIG_DIR`, `HOOKGATE_STATE_DIR`). `$HOOKGATE_HOME` then
    /// resolves to the store it names, so `rm -rf "$HOOKGATE_HOME"` is judged as the deletion
    /// of the guard's store it is rather than as an unknown target. An assignment on the line
    /// takes precedence, as in the shell. Only variables whose value cannot differ between the
    /// guard and the shell belong here: an arbitrary variable could be changed by an earlier
    /// command line the guard never saw.
    pub known_vars: Vec<(String, String)>,
    /// When the text analysed is a script file's (judged as it is written or before a runner
    /// loads it), the path it runs as: its `$0`, so the idiom `cd "$(dirname "$0")/.."` lands
    /// in a known directory instead of making every later relative path unknown. `None` for
    /// a command line (whose `$0` is the agent's shell, not known).
    pub script: Option<String>,
}

/// The usual scratch directories: `/tmp`, `/var/tmp`, and Android's `/data/local/tmp` (the
/// scratch directory of a device an `adb shell` line works on; no Linux host has it for
/// anything else). One list for the analyzer's and the policy's contexts, so both call the
/// same places scratch.
#[must_use]
pub fn default_temp_dirs() -> Vec<PathBuf> {
    vec![
        PathBuf::from("/tmp"),
        PathBuf::from("/var/tmp"),
        PathBuf::from("/data/local/tmp"),
    ]
}

impl Context {
    /// A context with the usual temp dirs ([`default_temp_dirs`]) and no `$TMPDIR`.
    pub fn new(cwd: impl Into<PathBuf>, home: Option<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            home,
            temp_dirs: default_temp_dirs(),
            tmpdir: None,
            secret_files: std::sync::Arc::default(),
            known_vars: Vec::new(),
            script: None,
        }
    }
}

/// Resource bounds checked *before* and during parsing, so hostile input costs bounded time and
/// stack. Exceeding any of them gives an `unknown` verdict (ask), never a panic and never allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest command line analysed, in bytes.
    pub max_input_bytes: usize,
    /// Deepest bracket/quote nesting accepted by the pre-scan.
    pub max_nesting: usize,
    /// How many times `bash -c`, `eval`, heredocs-to-shell and one-liners may nest.
    pub max_recursion: usize,
    /// Deepest syntax tree the walker descends into.
    pub max_tree_depth: usize,
    /// Most executed commands reported before giving up.
    pub max_commands: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_input_bytes: 64 * 1024,
            max_nesting: 64,
            max_recursion: 8,
            max_tree_depth: 200,
            max_commands: 1024,
        }
    }
}

/// How the input parsed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "detail")]
pub enum ParseStatus {
    /// Parsed without errors.
    Ok,
    /// Nothing but whitespace or comments.
    Empty,
    /// The bash grammar rejected the input (an `ERROR` or `MISSING` node).
    Error(String),
    /// A limit was exceeded before or during parsing.
    LimitExceeded(String),
}

/// The verdict class. `Safe` and `Normal` are both fine to run; the split exists so a stricter
/// mode can auto-approve only read-only commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Every part is known to be read-only.
    Safe,
    /// Fully resolved, not read-only, but nothing in the taxonomy: ordinary work (build, test,
    /// edit, delete inside the workspace or temp dir).
    Normal,
    /// Something could not be resolved statically (computed command name, parse error, limit,
    /// opaque code fed to a shell). The default policy asks.
    Unknown,
    /// Matched a taxonomy entry.
    Dangerous,
}

/// How much can be lost, from the taxonomy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlastRadius {
    /// Nothing (safe or normal work).
    None,
    /// Easily undone.
    Low,
    /// Hard to undo, or limited scope.
    Medium,
    /// Irreversible or wide (root, home, remote history, infrastructure).
    High,
    /// Cannot tell (the class is `unknown`).
    Unknown,
}

/// The default policy's action for a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Fine to run.
    Allow,
    /// Ask the user.
    Ask,
    /// Refuse.
    Deny,
}

/// The judgement of one executed command, or of the whole line (its worst part).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Safe, normal, unknown or dangerous.
    pub class: Class,
    /// How much could be lost.
    pub blast_radius: BlastRadius,
    /// Taxonomy category (`fs_delete`, `git_history`, `remote_code_execution`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Why, in one sentence.
    pub reason: String,
    /// What to do instead, when there is a better way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Taxonomy rule id (stable; policies can reference it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_id: Option<String>,
    /// For data-flow verdicts (exfiltration, reverse shells, download-then-run): where the data
    /// came from and where it went, so `hookgate explain` names the flow, not just the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow: Option<Flow>,
}

impl Verdict {
    /// The default policy's action: allow safe/normal work, deny a high blast radius, ask about
    /// everything else (medium/low danger and anything unresolved).
    pub fn action(&self) -> Action {
        match (self.class, self.blast_radius) {
            (Class::Safe | Class::Normal, _) => Action::Allow,
            (Class::Dangerous, BlastRadius::High) => Action::Deny,
            _ => Action::Ask,
        }
    }

    /// Total order of severity used for "a command is as dangerous as its worst part":
    /// safe < normal < low < medium < unknown < high.
    pub fn severity(&self) -> u8 {
        match (self.class, self.blast_radius) {
            (Class::Safe, _) => 0,
            (Class::Normal, _) => 1,
            (Class::Dangerous, BlastRadius::Low | BlastRadius::None) => 2,
            (Class::Dangerous, BlastRadius::Medium) => 3,
            (Class::Unknown, _) | (Class::Dangerous, BlastRadius::Unknown) => 4,
            (Class::Dangerous, BlastRadius::High) => 5,
        }
    }

    pub(crate) fn safe(reason: impl Into<String>) -> Self {
        Self::plain(Class::Safe, BlastRadius::None, reason)
    }

    pub(crate) fn normal(reason: impl Into<String>) -> Self {
        Self::plain(Class::Normal, BlastRadius::None, reason)
    }

    pub(crate) fn unknown(reason: impl Into<String>) -> Self {
        Self::plain(Class::Unknown, BlastRadius::Unknown, reason)
    }

    fn plain(class: Class, blast_radius: BlastRadius, reason: impl Into<String>) -> Self {
        Self {
            class,
            blast_radius,
            category: None,
            reason: reason.into(),
            suggestion: None,
            rule_id: None,
            flow: None,
        }
    }
}

/// One command the line will run, after quote removal, wrapper peeling and recursion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExecutedCommand {
    /// The argv as it will be executed; words that cannot be resolved statically keep their
    /// source text (`$X`, `$(…)`).
    pub argv: Vec<String>,
    /// How it was reached, outermost first: `sudo`, `bash -c`, `eval`, `$(…)`, `find -exec`, …
    pub via: Vec<String>,
    /// Its own verdict.
    pub verdict: Verdict,
    /// What it does to files, processes and the network beyond what its argv says, found by
    /// parsing code it carries (interpreter one-liners, `apply_patch` heredocs). Empty for
    /// commands whose effects are read off their argv by the caller.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The directory the command runs in, after the `cd`/`pushd`/`popd`/`env -C`/runner
    /// `--directory` before it on the line (a bare `cd` is the home directory). Relative paths
    /// in `argv` and `effects` are relative to it, so a caller placing them against the call's
    /// cwd instead would misplace `cd src && rm -rf ../.claude` (see [`WorkDir::path`]).
    #[serde(default, skip_serializing_if = "WorkDir::is_call")]
    pub cwd: WorkDir,
    /// What the line itself feeds the command's standard input — a heredoc or here-string
    /// on fd 0 (its body after the shell's expansions, `<<-` tabs removed), or the known
    /// output of what pipes into it (`echo`, `printf`, `cat <<EOF |`) — when the line holds
    /// it. `None`: a file, a terminal, another program's output, or a wrapper such as `xargs`
    /// that does not pass it on (its items become the command's arguments instead). The one
    /// place a caller reads that text: a diff fed to `patch`/`git apply`, the lines `cat >>
    /// ~/.bashrc <<EOF` appends, code fed to a shell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<Text>,
    /// The text this command writes into its file targets, when the line makes it known: on
    /// a redirect record (`argv == [">", path]`, `[">>", path]` for an append) the output of the statement it belongs to
    /// (`echo …`, `printf …`, `cat <<EOF`), on `tee` what it reads. `None` when nothing
    /// known is written (or the command writes no file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes: Option<Text>,
    /// True when printing is all the command does and its standard output goes to
    /// `/dev/null` (`cat ~/.aws/credentials >/dev/null`, `op read … >/dev/null`): what it
    /// reads reaches no one, so a caller judging exposure of what it read may set it aside.
    /// See the `discard` module for the closed list of such commands.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub output_discarded: bool,
}

/// Where an [`ExecutedCommand`] runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkDir {
    /// The call's working directory ([`Context::cwd`]): nothing on the line moved.
    #[default]
    Call,
    /// The directory the line moved to (absolute; may equal the call's after `cd .`).
    Moved(PathBuf),
    /// Only known at run time (`cd "$X"`, a `cd` in one branch of an `if`): a relative path
    /// in the command cannot be placed.
    Unknown,
    /// One of these directories (absolute), depending on which path of the line ran
    /// (`mkdir -p D && cd D` then a newline: D, or the start when `mkdir` failed): a relative
    /// path is judged at each. [`WorkDir::path`] is `None`, as for [`WorkDir::Unknown`].
    Either(Vec<PathBuf>),
}

impl WorkDir {
    /// The directory as a path, given the call's cwd; `None` when it is unknown.
    pub fn path<'a>(&'a self, call_cwd: &'a std::path::Path) -> Option<&'a std::path::Path> {
        match self {
            Self::Call => Some(call_cwd),
            Self::Moved(p) => Some(p),
            Self::Unknown | Self::Either(_) => None,
        }
    }

    /// True for [`WorkDir::Call`] (not serialised).
    pub fn is_call(&self) -> bool {
        matches!(self, Self::Call)
    }
}

/// Text whose value the analysis knows (or knows only partly).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Text {
    /// The text; parts only known at run time keep their source text (`$X`, `$(…)`).
    pub text: String,
    /// False when part of it is only known at run time.
    pub exact: bool,
}

/// One effect of code a command carries (`python -c "open('x','w')"` writes `x`).
///
/// Invariant: an effect whose target could not be resolved statically has `path: None` and is
/// never dropped, so a caller can ask instead of allowing a write it cannot place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effect {
    /// What it does.
    pub op: EffectOp,
    /// The target as written in the code (a string literal after escape processing), relative
    /// paths against the command's cwd; `None` when it is computed at run time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Where the effect was found (`python -c`, `node -e`, `apply_patch`), for explanations.
    pub source: String,
}

/// The kinds of [`Effect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectOp {
    /// Reads a file.
    Read,
    /// Creates, truncates or rewrites a file.
    Write,
    /// Deletes a file or directory (recursively or not).
    Delete,
    /// Renames or moves a file away (`path` is the source; the destination is a `Write`).
    Move,
    /// Changes permissions or ownership.
    Chmod,
    /// Starts a process (the command line, when literal, is analysed as shell separately).
    Spawn,
    /// Opens a network connection or fetches a URL (`path` holds the URL or host).
    Network,
    /// Sets an environment variable for what it runs or exports it (`X=1 cmd`, `export X=1`,
    /// `env X=1 cmd`, `os.environ['X']=…`); `path` holds the variable's name.
    SetEnv,
}

/// The result of [`crate::analyze`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// How the input parsed.
    pub parse: ParseStatus,
    /// Every command that will execute, in source order.
    pub commands: Vec<ExecutedCommand>,
    /// The worst verdict of all parts (or the parse failure).
    pub verdict: Verdict,
    /// Verdicts of parts not tied to one executed command (a shell nested deeper than the
    /// limit, a word that cannot be resolved): kept so a caller that sets aside some
    /// commands' verdicts (a policy switching a taxonomy rule off) still sees these.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unattached: Vec<Verdict>,
    /// Files this line writes secret data to (the environment or a credential redirected,
    /// copied, archived or linked there; a secret scanner's report), absolute, with where the
    /// data came from — for a caller that remembers them across lines and passes them back in
    /// [`Context::secret_files`]. Those given in the context are not repeated unless the line
    /// wrote them again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub secret_files: Vec<(PathBuf, FlowSource)>,
    /// Commands (indices into `commands`) whose standard input is a file the line redirects
    /// (`patch -p1 < fix.diff`), with that file, absolute: a caller judging what the command
    /// does with its input (the files a diff names) can read it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stdin_files: Vec<(usize, PathBuf)>,
}

impl Analysis {
    /// Shorthand for `self.verdict.action()`.
    pub fn action(&self) -> Action {
        self.verdict.action()
    }
}

/// A flow of data between two parts of a command line (or of carried code) that makes it
/// dangerous although neither part is on its own: a secret read and a network call, a socket
/// and a shell, a download and its execution.
///
/// Invariant: a verdict raised because of a flow carries it, so every explanation of such a
/// verdict can say what went where.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Flow {
    /// Where the data comes from.
    pub source: FlowSource,
    /// Where it goes.
    pub sink: FlowSink,
}

/// Where secret or untrusted data comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FlowSource {
    /// The whole environment (`env`, `printenv`, `set`, `export -p`, `/proc/*/environ`,
    /// `os.environ`, `process.env`); `by` names what dumped it.
    Environment { by: String },
    /// The environment's credential-shaped entries: a dump filtered by a search for
    /// credential markers (`printenv | grep -i token`, `env | rg 'SECRET|PASSWORD'`); `by`
    /// is the pipeline that selected them.
    EnvironmentMatches { by: String },
    /// A credential file or directory (the sensitive-path catalog, `.env` files).
    SensitiveFile { path: String },
    /// A variable whose name says it holds a credential (`$AWS_SECRET_ACCESS_KEY`).
    CredentialVariable { name: String },
    /// A command that prints a credential (`gh auth token`, `kubectl get secret`).
    CredentialCommand { command: String },
    /// A secret scanner's report (it lists the secrets it found).
    SecretScanner { tool: String },
    /// A container that mounts a directory holding credentials.
    ContainerMount { path: String },
    /// Data read from the network (a socket, a download).
    Network { endpoint: String },
    /// A file downloaded earlier in the same command line.
    DownloadedFile { path: String },
    /// Every file a search selects below `root` (`find ROOT … -exec curl -T {}`, a child
    /// shell's `$1` bound to `find`'s `{}`, `find ROOT | xargs …`): the tree's contents.
    FoundFiles { root: String },
    /// A database's contents as its dump tool prints or writes them (`pg_dump`, `mysqldump`,
    /// `mongoexport`): user data in bulk, not a credential.
    DatabaseDump { command: String },
    /// Live network traffic a packet capture records (`tcpdump -w -`, `tshark -T fields -e
    /// http.authorization`, `ngrep Authorization`): other programs' passwords, tokens and
    /// cookies as they cross the wire.
    CapturedTraffic { command: String },
    /// What a service returned to a request that carried credentials (`curl -H
    /// "Authorization: Bearer $T" https://api.hubapi.com/crm/…`, `curl -u key: …`, `ssh host
    /// 'show running-config'`): the account's private data — contacts, reports, states,
    /// configuration — read with the user's access; `endpoint` is the host it came from.
    AuthenticatedRead { command: String, endpoint: String },
}

/// Where the data goes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FlowSink {
    /// A network client sending it; `channel` says how it got into the request.
    Network { tool: String, channel: Channel },
    /// A shell or interpreter that executes it.
    Execution { program: String },
}

/// How data reaches a network client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// Piped or redirected into its standard input.
    Stdin,
    /// Inside an argument: request body, form field, URL or query string.
    Argument,
    /// A file it uploads (`-T f`, `-d @f`, `-F x=@f`, `scp f host:`, `gh gist create f`).
    Upload,
    /// A `/dev/tcp` or `/dev/udp` redirection, or a socket opened by carried code.
    Socket,
    /// A network call in interpreter code.
    Code,
}

impl std::fmt::Display for FlowSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Environment { by } => write!(f, "the environment (dumped by `{by}`)"),
            Self::EnvironmentMatches { by } => {
                write!(f, "the environment's credentials (selected by `{by}`)")
            }
            Self::SensitiveFile { path } => write!(f, "the credential file `{path}`"),
            Self::CredentialVariable { name } => write!(f, "the credential variable `${name}`"),
            Self::CredentialCommand { command } => {
                write!(f, "the credential printed by `{command}`")
            }
            Self::SecretScanner { tool } => write!(f, "the secrets reported by `{tool}`"),
            Self::ContainerMount { path } => {
                write!(f, "a container mounting the credential location `{path}`")
            }
            Self::Network { endpoint } => write!(f, "data from the network (`{endpoint}`)"),
            Self::DownloadedFile { path } => write!(f, "the downloaded file `{path}`"),
            Self::FoundFiles { root } => write!(f, "every file a search selects under `{root}`"),
            Self::DatabaseDump { command } => {
                write!(f, "the database contents dumped by `{command}`")
            }
            Self::CapturedTraffic { command } => {
                write!(f, "the network traffic captured by `{command}`")
            }
            Self::AuthenticatedRead { command, endpoint } => {
                write!(
                    f,
                    "what `{endpoint}` returned to the authenticated request `{command}`"
                )
            }
        }
    }
}

impl std::fmt::Display for FlowSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Network { tool, channel } => {
                let how = match channel {
                    Channel::Stdin => "on its standard input",
                    Channel::Argument => "in a request argument",
                    Channel::Upload => "as an uploaded file",
                    Channel::Socket => "through a network socket",
                    Channel::Code => "from interpreter code",
                };
                write!(f, "`{tool}` sending it to the network {how}")
            }
            Self::Execution { program } => write!(f, "`{program}` executing it"),
        }
    }
}

impl std::fmt::Display for Flow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} \u{2192} {}", self.source, self.sink)
    }
}
