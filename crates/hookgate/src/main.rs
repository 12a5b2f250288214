//! The `hookgate` command: a thin shell over the engine crates.
//!
//! It parses arguments, reads input, calls the libraries and prints. Exit statuses are part of
//! the interface: 0 allowed, 2 blocked, 3 a human must decide (ask), 1 an error. An error is
//! one line on stderr, never a panic or a backtrace.

mod events;
mod explain;
mod fire;
mod guard;
mod hook_log;
mod render;
mod scan_secrets;
mod show_config;
mod trust;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Deterministic control over AI agents: run hooks, check config, list events.
#[derive(Debug, Parser)]
#[command(name = "hookgate", version, about, long_about = None, disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the hooks configured for EVENT on one input JSON read from stdin.
    ///
    /// Prints the aggregated outcome and a per-hook trace. Exit status: 0 allowed (or no
    /// opinion), 2 blocked, 3 ask (a human must decide), 1 error. Empty stdin means `{}`;
    /// an empty `cwd` is filled with the current directory.
    Fire(fire::FireArgs),
    /// Validate configuration and show the effective hooks per event.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Show what `hookgate hook` would answer for a shell command (or, with --payload, for any
    /// agent's payload) in the current directory's project — the same pipeline and verdict,
    /// with every determining id, reading but never writing — beside the shell analyzer's own
    /// view; or, with --path, what a path resolves to and which sensitive locations it touches.
    ///
    /// Exit status: 0 the hook would not object, 2 it would deny or ask, 1 error.
    Explain(explain::ExplainArgs),
    /// Report secrets in FILE (or stdin). Exit status: 0 clean, 2 secrets found, 1 error.
    ScanSecrets(scan_secrets::ScanArgs),
    /// Answer one coding-agent hook call: reads the payload on stdin, evaluates policy,
    /// invariants and configured hooks, answers in the agent's own format and exit-code
    /// convention, and records the decision. No opinion is empty stdout and exit 0.
    Hook(guard::HookArgs),
    /// Wire hookgate into an agent's hook config (idempotent; --remove undoes it exactly).
    Init(guard::InitArgs),
    /// Check each agent's hook config and that the hook really answers.
    Doctor(guard::DoctorArgs),
    /// List recorded decisions, newest first.
    Log(guard::LogArgs),
    /// Show the full evaluation trace of one decision.
    Inspect(guard::InspectArgs),
    /// Counts by decision, rule, tool and agent, and latency percentiles.
    Stats(guard::StatsArgs),
    /// Validate a policy file, or run a file of test cases against the policy.
    Policy {
        #[command(subcommand)]
        command: guard::PolicyCommand,
    },
    /// Trust the current project's `.hookgate/` config as it is now (pins a SHA-256 of its
    /// files in the user config dir; any change drops the trust), or list/revoke trust.
    /// Untrusted project config may only tighten the guard.
    Trust(trust::TrustArgs),
    /// Ship one audit record (JSON on stdin) to `$HOOKGATE_WEBHOOK_URL`; started detached by
    /// `hookgate hook` when a webhook is configured.
    #[command(hide = true)]
    ShipWebhook,
    /// List the event catalog with each event's contract and aliases.
    Events {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum ConfigCommand {
    /// Validate config files (or the discovered layers) and print the effective hooks.
    ///
    /// With no PATH, loads the user layer (~/.config/hookgate or $HOOKGATE_CONFIG_DIR), the
    /// nearest project `.hookgate/` and both `hooks.d/` drop-in directories.
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
        Command::Explain(args) => explain::run(&args),
        Command::Hook(args) => return ExitCode::from(guard::hook(&args)),
        Command::ShipWebhook => guard::ship_webhook(),
        Command::Init(args) => guard::init(&args),
        Command::Doctor(args) => guard::doctor(&args),
        Command::Log(args) => guard::log(&args),
        Command::Inspect(args) => guard::inspect(&args),
        Command::Stats(args) => guard::stats(&args),
        Command::Policy { command } => guard::policy(&command),
        Command::ScanSecrets(args) => scan_secrets::run(&args),
        Command::Trust(args) => trust::run(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(Failure(message)) => {
            let first = message.lines().next().unwrap_or("unknown error");
            let _ = writeln!(std::io::stderr(), "hookgate: error: {first}");
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

/// Serializes `value` as pretty JSON with a trailing newline.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}
