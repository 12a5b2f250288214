//! The `hookgate` command: a thin shell over the engine crates.
//!
//! It parses arguments, reads input, calls the libraries and prints. Exit statuses are part of
//! the interface: 0 allowed, 2 blocked, 3 a human must decide (ask), 1 an error. An error is
//! one line on stderr, never a panic or a backtrace.

mod allow;
mod completions;
mod events;
mod explain;
mod failsafe;
mod fire;
mod guard;
mod hook_log;
mod otel;
mod prune;
mod render;
mod report;
mod run;
mod scan_secrets;
mod show_config;
mod snapshot;
mod test_cmd;
mod trust;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `--version`: the crate version, the commit and the build date, stamped by `build.rs` as
/// constants (nothing is computed at start-up).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("HOOKGATE_COMMIT"),
    " ",
    env!("HOOKGATE_BUILD_DATE"),
    ")"
);

/// Help colours. clap prints them only where colour is wanted: not when `NO_COLOR` is set, nor
/// when the output is not a terminal (`CLICOLOR_FORCE` forces them).
const STYLES: clap::builder::Styles = clap::builder::Styles::styled()
    .header(clap::builder::styling::AnsiColor::Green.on_default().bold())
    .usage(clap::builder::styling::AnsiColor::Green.on_default().bold())
    .literal(clap::builder::styling::AnsiColor::Cyan.on_default().bold())
    .placeholder(clap::builder::styling::AnsiColor::Cyan.on_default())
    .error(clap::builder::styling::AnsiColor::Red.on_default().bold())
    .valid(clap::builder::styling::AnsiColor::Green.on_default())
    .invalid(clap::builder::styling::AnsiColor::Yellow.on_default());

/// Deterministic control over AI agents: guard coding agents' tool calls, record and explain
/// every decision, run hooks.
///
/// Start with `hookgate init <agent>` in a project, then `hookgate doctor`.
#[derive(Debug, Parser)]
#[command(
    name = "hookgate",
    version = VERSION,
    about,
    long_about,
    disable_help_subcommand = true,
    styles = STYLES
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

// The order of `--help` is the order of these variants: what a user does first comes first.
// Set-up (init, doctor), then seeing what happened (log, explain, inspect, stats), then control
// (allow, trust, policy), then tools (scan-secrets, config, fire, events, run, test, report …),
// then the plumbing agents call (hook) and the shell helpers (completions, man). A new command
// goes at its place in that sequence, not at the end.
#[derive(Debug, Subcommand)]
enum Command {
    /// Wire hookgate into an agent's hook config (idempotent; --remove undoes it exactly).
    Init(guard::InitArgs),
    /// Check each agent's hook config and that the hook really answers.
    Doctor(guard::DoctorArgs),
    /// List recorded decisions, newest first.
    Log(guard::LogArgs),
    /// Show what the guard would answer for a command, a payload or a path, and why.
    ///
    /// Shows what `hookgate hook` would answer for a shell command (or, with --payload, for any
    /// agent's payload) in the current directory's project — the same pipeline and verdict,
    /// with every determining id, reading but never writing — beside the shell analyzer's own
    /// view; or, with --path, what a path resolves to and which sensitive locations it touches.
    ///
    /// Read-only means no hook with side effects runs: configured command, HTTP and model
    /// hooks, and built-ins that write, run programs, keep counters or use the network, are
    /// listed as "would run hook …" instead (their answers could change the decision).
    ///
    /// Exit status: 0 the hook would not object, 2 it would deny or ask, 1 error.
    Explain(explain::ExplainArgs),
    /// Show the full evaluation trace of one decision.
    Inspect(guard::InspectArgs),
    /// Counts by decision, rule, tool and agent, latency percentiles, and how many records
    /// the size cap ever evicted (by decision).
    Stats(guard::StatsArgs),
    /// Let a denied or asked call through, on your terms: one exact command once
    /// (`hookgate allow --once 'git push --force'`), or a rule for a while or always, in this
    /// project or everywhere; `--list`, `--revoke CODE`. Locked invariants cannot be allowed.
    Allow(allow::AllowArgs),
    /// Delete old audit records: by age (`--older-than 90d`) and/or to a size cap.
    Prune(prune::PruneArgs),
    /// Trust the current project's `.hookgate/` config, or list/revoke trust.
    ///
    /// Trusts the config as it is now (pins a SHA-256 of its files in the user config dir; any change drops the trust), or list/revoke trust.
    /// Untrusted project config may only tighten the guard.
    Trust(trust::TrustArgs),
    /// Validate a policy file, or run a file of test cases against the policy.
    Policy {
        #[command(subcommand)]
        command: guard::PolicyCommand,
    },
    /// Report secrets in files, directories, the git index (--staged) or stdin.
    ///
    /// Exit status: 0 clean, 2 secrets found, 1 error.
    ScanSecrets(scan_secrets::ScanArgs),
    /// Validate configuration and show the effective hooks per event.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Run the hooks configured for EVENT on one input JSON read from stdin.
    ///
    /// Prints the aggregated outcome and a per-hook trace. Exit status: 0 allowed (or no
    /// opinion), 2 blocked, 3 ask (a human must decide), 1 error. Empty stdin means `{}`;
    /// an empty `cwd` is filled with the current directory. Without --config it runs the
    /// hooks `hookgate hook` runs (an untrusted project's ignored ones named on stderr).
    /// An agent running it from its shell tool is denied (it would act as a real event).
    Fire(fire::FireArgs),
    /// Run an agent session (the reference runtime): every catalog event fires at its
    /// documented point; `--model script:FILE` needs no network. Exit status: 0 completed,
    /// 2 a hook stopped the run, 130 interrupted, 1 error.
    Run(Box<run::RunArgs>),
    /// Checkpoints of the work tree recorded by the `snapshot` built-in: list, diff, undo,
    /// reset (`--keep N`). Undo and reset are the user's: an agent running them is denied.
    Snapshot(snapshot::SnapshotArgs),
    /// Run scenario files (a scripted session plus expectations: events in order, calls
    /// denied by a hook, files unchanged) and report pass/fail with a diff. Exit status: 0 all
    /// passed, 1 a scenario failed or could not run.
    Test(test_cmd::TestArgs),
    /// List the event catalog with each event's contract and aliases.
    Events {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The last week (or --since) at a glance; --html FILE writes one self-contained page
    /// with a timeline per agent and session, top denied rules, latency and every call.
    Report(report::ReportArgs),
    /// Answer one coding-agent hook call (what `init` wires the agents to run).
    ///
    /// Reads the payload on stdin, evaluates policy,
    /// invariants and configured hooks, answers in the agent's own format and exit-code
    /// convention, and records the decision. No opinion is empty stdout and exit 0.
    /// It is the agents' plumbing: an agent running it from its own shell tool is denied
    /// (`hookgate explain --payload` shows the same answer and changes nothing).
    Hook(guard::HookArgs),
    /// Ship one audit record (JSON on stdin) to `$HOOKGATE_WEBHOOK_URL`; started detached by
    /// `hookgate hook` when a webhook is configured.
    #[command(hide = true)]
    ShipWebhook,
    /// Export one audit record (JSON on stdin) over OTLP/HTTP per the `OTEL_EXPORTER_OTLP_*`
    /// variables; started detached by `hookgate hook` when an OTLP endpoint is configured.
    #[command(hide = true)]
    ShipOtel,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff) for hookgate(1).
    Man,
}

#[derive(Debug, Subcommand)]
enum ConfigCommand {
    /// Validate config files (or the discovered layers) and print the effective hooks.
    ///
    /// With no PATH, loads what `hookgate hook` runs: the user layer (~/.config/hookgate or
    /// $HOOKGATE_CONFIG_DIR), the nearest project `.hookgate/` and both `hooks.d/` drop-in
    /// directories, through the hook's own loader — so what an untrusted project may not do
    /// (hooks that run code or have effects, its settings) and its files or entries that do
    /// not load are listed as ignored, with why, and left out as the hook leaves them out.
    /// PATHs are yours (trusted): any error in them is an error.
    ///
    /// Exit status: 0 ok; 4 ok, but an untrusted project file or entry does not load and is
    /// ignored; 1 error (your config, or a trusted project's, does not load).
    Check {
        /// Config files or `.hookgate`-style directories, in precedence order.
        paths: Vec<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// An error already worded for the user.
pub(crate) struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(value: E) -> Self {
        Self(value.to_string())
    }
}

// `hookgate hook` alone, parsed without building the whole command tree when the hand-written
// fast path (`HookArgs::parse_fast`) declines: it runs before every tool call of every agent,
// and clap's set-up of the full CLI is measurable there.
/// Answer one coding-agent hook call (payload on stdin, answer in the agent's own format).
#[derive(Debug, Parser)]
#[command(
    name = "hookgate hook",
    bin_name = "hookgate hook",
    disable_help_subcommand = true
)]
struct HookOnly {
    #[command(flatten)]
    args: guard::HookArgs,
}

fn main() -> ExitCode {
    let mut raw = std::env::args_os();
    let program = raw.next();
    let mut rest = raw.peekable();
    if rest.peek().is_some_and(|a| a == "hook") {
        // First, before even the arguments are read: from here no ending of this process
        // (panic, fatal signal, deadline) goes without a blocking answer. The answer does not
        // depend on the agent (see `failsafe`), so nothing needs parsing first.
        failsafe::arm();
        rest.next();
        let rest: Vec<std::ffi::OsString> = rest.collect();
        if let Some(args) = guard::HookArgs::parse_fast(&rest) {
            return ExitCode::from(guard::hook(&args));
        }
        let hook_argv = std::iter::once(program.unwrap_or_else(|| "hookgate".into())).chain(rest);
        return match HookOnly::try_parse_from(hook_argv) {
            Ok(cli) => ExitCode::from(guard::hook(&cli.args)),
            Err(err) => {
                let code = u8::from(err.use_stderr());
                let _ = err.print();
                ExitCode::from(code)
            }
        };
    }
    if rest.peek().is_some_and(|a| a == "hook-unfinished") {
        // A hook process that crashed or ran out of time, after it answered (see `failsafe`):
        // record the call, exit 2 whatever happens.
        failsafe::arm_recorder();
        rest.next();
        let kind = rest.next().unwrap_or_default();
        let fd = rest.next().unwrap_or_default();
        let rest: Vec<std::ffi::OsString> = rest.collect();
        let args = guard::HookArgs::parse_fast(&rest).or_else(|| {
            let argv = std::iter::once(program.unwrap_or_else(|| "hookgate".into())).chain(rest);
            HookOnly::try_parse_from(argv).ok().map(|cli| cli.args)
        });
        let code = match (kind.to_str(), fd.to_str(), args) {
            (Some(kind), Some(fd), Some(args)) => guard::hook_unfinished(kind, fd, &args),
            _ => hookgate_agents::FAIL_CLOSED_EXIT_STATUS,
        };
        return ExitCode::from(code);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = u8::from(err.use_stderr());
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Fire(args) => fire::run(&args),
        Command::Config {
            command: ConfigCommand::Check { paths, json },
        } => show_config::check(&paths, json),
        Command::Events { json } => events::run(json),
        Command::Run(args) => run::run(&args),
        Command::Test(args) => test_cmd::run(&args),
        Command::Snapshot(args) => snapshot::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Hook(args) => {
            failsafe::arm();
            return ExitCode::from(guard::hook(&args));
        }
        Command::ShipWebhook => guard::ship_webhook(),
        Command::ShipOtel => otel::ship(),
        Command::Init(args) => guard::init(&args),
        Command::Doctor(args) => guard::doctor(&args),
        Command::Log(args) => guard::log(&args),
        Command::Inspect(args) => guard::inspect(&args),
        Command::Stats(args) => guard::stats(&args),
        Command::Report(args) => report::run(&args),
        Command::Prune(args) => prune::run(&args),
        Command::Allow(args) => allow::run(&args),
        Command::Policy { command } => guard::policy(&command),
        Command::ScanSecrets(args) => scan_secrets::run(&args),
        Command::Trust(args) => trust::run(&args),
        Command::Completions(args) => completions::completions(&args),
        Command::Man => completions::man(),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(Failure(message)) => {
            // Errors quote paths, policy text and payload fields: escaped like every human
            // view (one line; no escape sequence reaches the terminal).
            let first = message.lines().next().unwrap_or("unknown error");
            let _ = writeln!(
                std::io::stderr(),
                "hookgate: error: {}",
                hookgate_core::term::escape(first)
            );
            ExitCode::from(1)
        }
    }
}

/// Writes `text` to stdout; a closed pipe (`| head`) is not an error.
pub(crate) fn print(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Writes a human view (never JSON, never data such as redacted text) to stdout through the
/// one escaping function: text from agents, repositories and files may carry escape
/// sequences or bidi controls, which must not reach the terminal (see
/// `hookgate_core::term`). Fields that could hold a line break are escaped one by one where
/// the view is built; this is the backstop for everything else.
pub(crate) fn print_human(text: &str) -> Result<(), Failure> {
    print(&hookgate_core::term::escape_lines(text))
}

/// Serializes `value` as pretty JSON with a trailing newline.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}
