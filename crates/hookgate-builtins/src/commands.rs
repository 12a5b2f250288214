//! `deny_commands` and `require_command`: patterns matched against parsed commands.

use std::path::PathBuf;
use std::sync::Arc;

use hookgate_core::{Decision, HookInput, HookResponse};
use hookgate_engine::{Builtin, BuiltinCall, BuiltinRegistry};
use hookgate_policy::CommandPattern;
use hookgate_shell::{Analysis, Context, ExecutedCommand, ParseStatus};

use crate::{ArgsError, Environment, is_shell_tool};

/// The shell command of a shell tool call, if this is one.
pub(crate) fn shell_command(input: &HookInput) -> Option<&str> {
    let tool = input.tool_name.as_deref()?;
    if !is_shell_tool(tool) {
        return None;
    }
    let args = input.tool_input.as_ref()?;
    args.get("command")
        .or_else(|| args.get("cmd"))
        .and_then(|v| v.as_str())
}

pub(crate) fn context(input: &HookInput, env: &Environment) -> Context {
    let cwd = if input.cwd.is_empty() {
        PathBuf::from("/")
    } else {
        PathBuf::from(&input.cwd)
    };
    let mut ctx = Context::new(cwd, env.home.clone());
    if let Some(tmp) = &env.tmpdir {
        ctx.temp_dirs.push(tmp.clone());
        ctx.tmpdir = Some(tmp.clone());
    }
    ctx
}

/// True when the analysis could not see every command that will run.
fn unresolved(analysis: &Analysis) -> bool {
    !matches!(analysis.parse, ParseStatus::Ok | ParseStatus::Empty)
        || analysis.commands.iter().any(|c| {
            c.argv
                .first()
                .is_none_or(|w| w.contains('$') || w.contains('`'))
        })
}

/// The patterns in `args`, the first of which is argument `offset` of the hook's `args`.
fn parse_patterns(args: &[String], offset: usize) -> Result<Vec<CommandPattern>, ArgsError> {
    args.iter()
        .enumerate()
        .map(|(i, a)| {
            CommandPattern::parse(a)
                .ok_or_else(|| ArgsError::value(offset + i, a, "is an empty pattern"))
        })
        .collect()
}

/// The first executed command that matches one of `patterns`.
fn first_match<'a>(
    analysis: &'a Analysis,
    patterns: &'a [CommandPattern],
) -> Option<(&'a CommandPattern, &'a ExecutedCommand)> {
    analysis.commands.iter().find_map(|command| {
        patterns
            .iter()
            .find(|p| p.matches(command))
            .map(|p| (p, command))
    })
}

fn judge(
    call: &BuiltinCall,
    env: &Environment,
    patterns: &[CommandPattern],
    name: &str,
    deny: impl Fn(&CommandPattern, &ExecutedCommand) -> String,
) -> Option<HookResponse> {
    let command = shell_command(&call.input)?;
    let analysis = hookgate_shell::analyze(command, &context(&call.input, env));
    if let Some((pattern, executed)) = first_match(&analysis, patterns) {
        return crate::respond(Decision::Deny, deny(pattern, executed));
    }
    if unresolved(&analysis) {
        return crate::respond(
            Decision::Ask,
            format!(
                "{name}: the command could not be fully resolved ({}), so a blocked pattern cannot be ruled out",
                analysis.verdict.reason
            ),
        );
    }
    None
}

fn validate_patterns(args: &[String], offset: usize) -> Result<(), ArgsError> {
    if args.is_empty() {
        return Err(ArgsError::shape("needs at least one pattern in `args`"));
    }
    parse_patterns(args, offset).map(|_| ())
}

const REQUIRE_SHAPE: &str = "needs `args: [PREFERRED, PATTERN, ...]`";

pub(crate) fn register(registry: &mut BuiltinRegistry, env: &Arc<Environment>) {
    let deny_env = Arc::clone(env);
    let require_env = Arc::clone(env);
    registry.register(
        "deny_commands",
        Builtin {
            description: "Denies shell commands that run any of the `args` patterns (parsed, wrapper- and quote-aware).",
            events: &[hookgate_core::EventId::PreToolUse, hookgate_core::EventId::ToolGuard],
            validate: |args| validate_patterns(args, 0),
            run: Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&deny_env);
                Box::pin(async move {
                    let patterns = parse_patterns(&call.args, 0)?;
                    Ok(judge(&call, &env, &patterns, "deny_commands", |pattern, executed| {
                        format!("command runs blocked pattern `{}`: `{}`", pattern.as_str(), executed.argv.join(" "))
                    }))
                })
            }),
        },
    );
    registry.register(
        "require_command",
        Builtin {
            description: "args: [PREFERRED, PATTERN...]: denies commands matching a pattern, suggesting PREFERRED instead.",
            events: &[hookgate_core::EventId::PreToolUse, hookgate_core::EventId::ToolGuard],
            validate: |args| match args {
                [_, rest @ ..] if !rest.is_empty() => validate_patterns(rest, 1),
                _ => Err(ArgsError::shape(REQUIRE_SHAPE)),
            },
            run: Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&require_env);
                Box::pin(async move {
                    let (preferred, rest) =
                        call.args.split_first().ok_or(ArgsError::shape(REQUIRE_SHAPE))?;
                    let patterns = parse_patterns(rest, 1)?;
                    let preferred = preferred.clone();
                    Ok(judge(&call, &env, &patterns, "require_command", move |pattern, _| {
                        format!("use {preferred} instead of {}", pattern.as_str())
                    }))
                })
            }),
        },
    );
}
