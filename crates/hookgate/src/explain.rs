//! `hookgate explain`: what the hook would answer for a command or an agent's payload — the
//! same pipeline and verdict as `hookgate hook`, with the project's effective policy, reading
//! but never writing — or what a path resolves to and which sensitive locations it touches.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use hookgate_core::{AgentKind, Decision};
use hookgate_paths::{Access, PathContext};
use hookgate_shell::{Analysis, Context, ParseStatus};
use serde::Serialize;

use crate::guard::{AgentArg, GuardFlags, guard_options};
use crate::{Failure, print, to_json};

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The shell command line to explain (quote it as one argument).
    #[arg(required_unless_present_any = ["path", "payload"], conflicts_with_all = ["path", "payload"])]
    command: Option<String>,
    /// Explain a file path instead of a command.
    #[arg(long, value_name = "PATH", conflicts_with = "payload")]
    path: Option<String>,
    /// Explain an agent's hook payload (a file, or `-` for stdin): what `hookgate hook`
    /// would answer for it.
    #[arg(long, value_name = "FILE|-")]
    payload: Option<PathBuf>,
    /// The directory the command runs in (default: the current directory); its project's
    /// policy applies.
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// The agent whose hook is asked (the payload's own dialect wins when it differs).
    #[arg(long, value_enum, default_value_t = AgentArg::Claude)]
    agent: AgentArg,
    /// An extra policy file, as `hook --policy` (repeatable).
    #[arg(long = "policy", value_name = "FILE")]
    policies: Vec<PathBuf>,
    /// Do not consider the hooks configured in hookgate's hook config (as
    /// `hook --no-user-hooks`). Without it, explain runs only the configured hooks without
    /// side effects (pure built-in checks) and names the others — command, HTTP and model
    /// hooks, built-ins that write, run programs, keep counters or use the network — as
    /// "would run" (`verdict.would_run` in --json).
    #[arg(long)]
    no_user_hooks: bool,
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
    let dir = match &args.cwd {
        Some(dir) => dir.clone(),
        None => {
            std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?
        }
    };
    // Payload cwds are absolute; so is the one explain puts into the payload it builds.
    Ok(std::path::absolute(&dir).unwrap_or(dir))
}

pub(crate) fn run(args: &ExplainArgs) -> Result<u8, Failure> {
    let cwd = workspace(args)?;
    match (&args.command, &args.path, &args.payload) {
        (Some(command), None, None) => {
            let payload = command_payload(args.agent.kind(), command, &cwd);
            call_report(args, &payload, Some(command), &cwd)
        }
        (None, None, Some(file)) => {
            let payload = read_payload(file)?;
            call_report(args, &payload, None, &cwd)
        }
        (None, Some(path), None) => path_report(path, cwd, args.access, args.json),
        _ => Err(Failure(
            "give a command, --payload FILE or --path PATH".to_owned(),
        )),
    }
}

fn read_payload(file: &std::path::Path) -> Result<Vec<u8>, Failure> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    let limit = u64::try_from(hookgate_agents::MAX_PAYLOAD_BYTES).unwrap_or(u64::MAX) + 1;
    if file.as_os_str() == "-" {
        std::io::stdin()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| Failure(format!("cannot read stdin: {e}")))?;
    } else {
        std::fs::File::open(file)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .map_err(|e| Failure(format!("{}: cannot read: {e}", file.display())))?;
    }
    Ok(bytes)
}

/// The pre-tool payload `agent` sends for a shell command, in its own shape.
pub(crate) fn command_payload(agent: AgentKind, command: &str, cwd: &std::path::Path) -> Vec<u8> {
    let cwd = cwd.display().to_string();
    let payload = match agent {
        AgentKind::Claude | AgentKind::Codex => serde_json::json!({
            "session_id": "", "cwd": cwd, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command},
        }),
        AgentKind::Gemini => serde_json::json!({
            "session_id": "", "cwd": cwd, "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command", "tool_input": {"command": command},
        }),
        AgentKind::Copilot => serde_json::json!({
            "sessionId": "", "cwd": cwd, "toolName": "bash", "toolArgs": {"command": command},
        }),
        AgentKind::Cursor => serde_json::json!({
            "conversation_id": "", "hook_event_name": "beforeShellExecution",
            "command": command, "cwd": cwd, "workspace_roots": [cwd],
        }),
    };
    serde_json::to_vec(&payload).unwrap_or_default()
}

fn call_report(
    args: &ExplainArgs,
    payload: &[u8],
    command: Option<&str>,
    cwd: &std::path::Path,
) -> Result<u8, Failure> {
    let mut opts = guard_options(&GuardFlags {
        agent: args.agent,
        fail_mode: None,
        ask_fallback: None,
        store: None,
        policies: args.policies.clone(),
        no_user_hooks: args.no_user_hooks,
    })?;
    cwd.clone_into(&mut opts.cwd);
    if command.is_some() && args.agent == AgentArg::Copilot {
        opts.event_hint = Some("preToolUse".to_owned());
    }
    let (judgement, encoded) = hookgate_guard::explain(&opts, payload);
    let verdict = &judgement.verdict;
    if verdict.error.is_some() && !judgement.unhandled && judgement.call.is_none() {
        return Err(Failure(verdict.error.clone().unwrap_or_default()));
    }
    // The shell analyzer's own view of the command the policy judged (after any rewrite),
    // shown beside the verdict and never labelled as the policy's.
    let judged_command = judgement
        .call
        .as_ref()
        .and_then(|c| c.tool.as_ref())
        .and_then(|t| t.command.clone());
    let analysis = judged_command.as_deref().map(|c| {
        let mut ctx = Context::new(judgement.project.clone(), std::env::home_dir());
        if let Some(tmp) = std::env::var_os("TMPDIR").map(PathBuf::from) {
            ctx.temp_dirs.push(tmp.clone());
            ctx.tmpdir = Some(tmp);
        }
        hookgate_shell::analyze(c, &ctx)
    });
    if args.json {
        #[derive(Serialize)]
        struct Answer<'a> {
            decision: &'static str,
            exit_code: i32,
            stdout: &'a str,
            stderr: &'a str,
        }
        #[derive(Serialize)]
        struct Report<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            command: Option<&'a str>,
            agent: &'static str,
            event: &'static str,
            project: &'a std::path::Path,
            answer: Answer<'a>,
            verdict: &'a hookgate_guard::Verdict,
            #[serde(skip_serializing_if = "Option::is_none")]
            original_command: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            shell_analyzer: Option<&'a Analysis>,
        }
        print(&to_json(&Report {
            command: judged_command.as_deref().or(command),
            agent: judgement
                .call
                .as_ref()
                .map_or(args.agent.kind(), |c| c.agent)
                .as_str(),
            event: judgement.event.name(),
            project: &judgement.project,
            answer: Answer {
                decision: word(verdict.decision),
                exit_code: encoded.exit_code,
                stdout: &String::from_utf8_lossy(&encoded.stdout),
                stderr: &String::from_utf8_lossy(&encoded.stderr),
            },
            verdict,
            original_command: judgement.original_command.as_deref(),
            shell_analyzer: analysis.as_ref(),
        })?)?;
    } else {
        // The call's text is the agent's: escaped for the terminal, every line of it.
        print(&hookgate_core::term::escape_lines(&render_call(
            &judgement,
            analysis.as_ref(),
        )))?;
    }
    Ok(match verdict.decision {
        Some(Decision::Deny | Decision::Ask) => 2,
        _ => 0,
    })
}

fn word(decision: Option<Decision>) -> &'static str {
    decision.map_or("no opinion", Decision::as_str)
}

fn render_call(j: &hookgate_guard::Judgement, analysis: Option<&Analysis>) -> String {
    let mut s = String::new();
    let v = &j.verdict;
    if let Some(command) = j
        .call
        .as_ref()
        .and_then(|c| c.tool.as_ref())
        .and_then(|t| t.command.as_deref())
    {
        let _ = writeln!(s, "command: {command}");
    }
    if let Some(original) = &j.original_command {
        let _ = writeln!(s, "rewritten by a hook from: {original}");
    }
    let agent = j.call.as_ref().map_or("-", |c| c.agent.as_str());
    let _ = writeln!(s, "project: {}", j.project.display());
    let _ = writeln!(
        s,
        "hook answer ({agent}, {}): {}",
        j.native_event,
        word(v.decision)
    );
    if v.judged != v.decision {
        let _ = writeln!(s, "judged: {}", word(v.judged));
    }
    if !v.determining.is_empty() {
        let _ = writeln!(s, "determined by: {}", v.determining.join(", "));
    }
    if let Some(reason) = &v.reason {
        let _ = writeln!(s, "reason: {reason}");
    }
    if let Some(suggestion) = &v.suggestion {
        let _ = writeln!(s, "suggestion: {suggestion}");
    }
    if let Some(way) = &v.way_through {
        let _ = writeln!(s, "way through: {way}");
    }
    if !v.allowed_by.is_empty() {
        let _ = writeln!(s, "allowed by: {}", v.allowed_by.join(", "));
    }
    if let Some(error) = &v.error {
        let _ = writeln!(s, "error: {error}");
    }
    for note in &v.notes {
        let _ = writeln!(s, "note: {note}");
    }
    for hook in &v.would_run {
        let _ = writeln!(
            s,
            "would run {hook}: not run by explain (it has side effects); its answer could change the decision"
        );
    }
    if !v.actions.is_empty() {
        s.push_str("actions:\n");
        for a in &v.actions {
            let _ = writeln!(s, "  - {} {}", a.kind, a.targets.join(", "));
        }
    }
    if !v.matched.is_empty() {
        s.push_str("matched:\n");
        for m in &v.matched {
            let kind = match m.kind {
                hookgate_policy::MatchedKind::Rule => "rule",
                hookgate_policy::MatchedKind::Invariant => "invariant",
            };
            let mode = match m.mode {
                hookgate_policy::Mode::Enforce => "",
                hookgate_policy::Mode::Monitor => ", monitor only",
            };
            let effect = match m.effect {
                hookgate_policy::Effect::Allow => "allow",
                hookgate_policy::Effect::Approve => "approve",
                hookgate_policy::Effect::Ask => "ask",
                hookgate_policy::Effect::Deny => "deny",
            };
            let allowed = m
                .allowed_by
                .as_ref()
                .map(|a| format!(", allowed by {a}"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "  - {kind} {} ({effect}{mode}{allowed}): {}",
                m.id, m.reason
            );
        }
    }
    if let Some(analysis) = analysis {
        s.push_str("shell analyzer (its own classification; the answer above is the policy's):\n");
        s.push_str(&render_analysis(analysis));
    }
    s
}

fn render_analysis(analysis: &Analysis) -> String {
    let mut s = String::new();
    let parse = match &analysis.parse {
        ParseStatus::Ok => "ok".to_owned(),
        ParseStatus::Empty => "empty".to_owned(),
        ParseStatus::Error(e) => format!("error: {e}"),
        ParseStatus::LimitExceeded(e) => format!("limit exceeded: {e}"),
    };
    let _ = writeln!(s, "  parse: {parse}");
    if analysis.commands.is_empty() {
        s.push_str("  executes: nothing that could be resolved\n");
    } else {
        s.push_str("  executes:\n");
        for c in &analysis.commands {
            let via = if c.via.is_empty() {
                String::new()
            } else {
                format!("  (via {})", c.via.join(" > "))
            };
            let _ = writeln!(s, "    - {}{via}", c.argv.join(" "));
            let v = &c.verdict;
            let category = v
                .category
                .as_deref()
                .map(|c| format!(" [{c}]"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "        {}, blast radius {}{category}: {}",
                class_word(v.class),
                radius_word(v.blast_radius),
                v.reason
            );
            if let Some(flow) = &v.flow {
                let _ = writeln!(s, "        flow: {flow}");
            }
        }
    }
    let v = &analysis.verdict;
    let _ = writeln!(
        s,
        "  worst part: {} (blast radius {}): {}",
        class_word(v.class),
        radius_word(v.blast_radius),
        v.reason
    );
    if let Some(flow) = &v.flow {
        let _ = writeln!(s, "  flow: {flow}");
    }
    s
}

fn class_word(c: hookgate_shell::Class) -> &'static str {
    match c {
        hookgate_shell::Class::Safe => "safe",
        hookgate_shell::Class::Normal => "normal",
        hookgate_shell::Class::Unknown => "unknown",
        hookgate_shell::Class::Dangerous => "dangerous",
    }
}

fn radius_word(r: hookgate_shell::BlastRadius) -> &'static str {
    match r {
        hookgate_shell::BlastRadius::None => "none",
        hookgate_shell::BlastRadius::Low => "low",
        hookgate_shell::BlastRadius::Medium => "medium",
        hookgate_shell::BlastRadius::High => "high",
        hookgate_shell::BlastRadius::Unknown => "unknown",
    }
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
        print(&hookgate_core::term::escape_lines(&s))?;
    }
    Ok(if matches.is_empty() && !resolved.escaped_root {
        0
    } else {
        2
    })
}
