//! `hookgate explain`: what a command will run and how the default policy judges it, or what a
//! path resolves to and which sensitive locations it touches.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use hookgate_paths::{Access, PathContext};
use hookgate_shell::{Action, Analysis, Context, ParseStatus};
use serde::Serialize;

use crate::{Failure, print, to_json};

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The shell command line to explain (quote it as one argument).
    #[arg(required_unless_present = "path", conflicts_with = "path")]
    command: Option<String>,
    /// Explain a file path instead of a command.
    #[arg(long, value_name = "PATH")]
    path: Option<String>,
    /// The workspace the command runs in (default: the current directory).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// With --path: which access to judge (sensitive entries differ for reads and writes).
    #[arg(long, value_enum, default_value_t = AccessArg::Any)]
    access: AccessArg,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AccessArg {
    Read,
    Write,
    Any,
}

fn workspace(args: &ExplainArgs) -> Result<PathBuf, Failure> {
    match &args.cwd {
        Some(dir) => Ok(dir.clone()),
        None => std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}"))),
    }
}

pub(crate) fn run(args: &ExplainArgs) -> Result<u8, Failure> {
    let cwd = workspace(args)?;
    match (&args.command, &args.path) {
        (Some(command), None) => command_report(command, cwd, args.json),
        (None, Some(path)) => path_report(path, cwd, args.access, args.json),
        _ => Err(Failure("give a command or --path PATH".to_owned())),
    }
}

fn command_report(command: &str, cwd: PathBuf, json: bool) -> Result<u8, Failure> {
    let mut ctx = Context::new(cwd, std::env::home_dir());
    if let Some(tmp) = std::env::var_os("TMPDIR").map(PathBuf::from) {
        ctx.temp_dirs.push(tmp.clone());
        ctx.tmpdir = Some(tmp);
    }
    let analysis = hookgate_shell::analyze(command, &ctx);
    let action = analysis.action();
    if json {
        #[derive(Serialize)]
        struct Report<'a> {
            command: &'a str,
            action: Action,
            #[serde(flatten)]
            analysis: &'a Analysis,
        }
        print(&to_json(&Report {
            command,
            action,
            analysis: &analysis,
        })?)?;
    } else {
        print(&render_command(command, &analysis))?;
    }
    Ok(if action == Action::Allow { 0 } else { 2 })
}

fn render_command(command: &str, analysis: &Analysis) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "command: {command}");
    let parse = match &analysis.parse {
        ParseStatus::Ok => "ok".to_owned(),
        ParseStatus::Empty => "empty".to_owned(),
        ParseStatus::Error(e) => format!("error: {e}"),
        ParseStatus::LimitExceeded(e) => format!("limit exceeded: {e}"),
    };
    let _ = writeln!(s, "parse: {parse}");
    if analysis.commands.is_empty() {
        s.push_str("executes: nothing that could be resolved\n");
    } else {
        s.push_str("executes:\n");
        for c in &analysis.commands {
            let via = if c.via.is_empty() {
                String::new()
            } else {
                format!("  (via {})", c.via.join(" > "))
            };
            let _ = writeln!(s, "  - {}{via}", c.argv.join(" "));
            let v = &c.verdict;
            let category = v
                .category
                .as_deref()
                .map(|c| format!(" [{c}]"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "      {:?}, blast radius {:?}{category}: {}",
                v.class, v.blast_radius, v.reason
            );
        }
    }
    let v = &analysis.verdict;
    let _ = writeln!(
        s,
        "verdict: {:?} (blast radius {:?}): {}",
        v.class, v.blast_radius, v.reason
    );
    if let Some(suggestion) = &v.suggestion {
        let _ = writeln!(s, "suggestion: {suggestion}");
    }
    let _ = writeln!(
        s,
        "default policy: {}",
        match analysis.action() {
            Action::Allow => "allow",
            Action::Ask => "ask",
            Action::Deny => "deny",
        }
    );
    s
}

fn path_report(raw: &str, cwd: PathBuf, access: AccessArg, json: bool) -> Result<u8, Failure> {
    let home = std::env::home_dir();
    let resolved = hookgate_paths::resolve(raw, &cwd, home.as_deref())?;
    let ctx = PathContext::new(cwd, home);
    let matches: Vec<_> = hookgate_paths::classify_resolved(raw, &ctx)?
        .into_iter()
        .filter(|m| match access {
            AccessArg::Any => true,
            AccessArg::Read => m.access.covers(Access::Read),
            AccessArg::Write => m.access.covers(Access::Write),
        })
        .collect();
    if json {
        #[derive(Serialize)]
        struct Report<'a, M: Serialize> {
            path: &'a str,
            lexical: &'a std::path::Path,
            physical: &'a std::path::Path,
            symlinks_followed: usize,
            escaped_root: bool,
            sensitive: &'a [M],
        }
        print(&to_json(&Report {
            path: raw,
            lexical: &resolved.lexical,
            physical: &resolved.physical,
            symlinks_followed: resolved.symlinks_followed,
            escaped_root: resolved.escaped_root,
            sensitive: &matches,
        })?)?;
    } else {
        let mut s = String::new();
        let _ = writeln!(s, "path: {raw}");
        let _ = writeln!(s, "lexical: {}", resolved.lexical.display());
        let _ = writeln!(
            s,
            "physical: {} ({} symlink(s) followed)",
            resolved.physical.display(),
            resolved.symlinks_followed
        );
        if resolved.escaped_root {
            s.push_str("note: a `..` climbs above the root directory\n");
        }
        if matches.is_empty() {
            s.push_str("sensitive: no\n");
        } else {
            s.push_str("sensitive:\n");
            for m in &matches {
                let _ = writeln!(
                    s,
                    "  - {} [{:?}, {:?}]: {} (pattern `{}`)",
                    m.id, m.category, m.access, m.reason, m.pattern
                );
            }
        }
        print(&s)?;
    }
    Ok(if matches.is_empty() && !resolved.escaped_root {
        0
    } else {
        2
    })
}
