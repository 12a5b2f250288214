//! `deny_commands` and `require_command`: patterns matched against parsed commands.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use hookgate_core::{Decision, HookInput, HookResponse};
use hookgate_engine::{Builtin, BuiltinCall, BuiltinRegistry};
use hookgate_shell::{Analysis, Context, ExecutedCommand, ParseStatus};

use crate::SHELL_TOOLS;

/// A command pattern such as `rm -rf`, `git push --force` or `sudo`, parsed into a program
/// name, leading positional words (subcommands) and flags.
///
/// A command matches when its program's base name is the pattern's, its first positional words
/// are the pattern's, and it carries every flag of the pattern, wherever and however combined
/// (`rm -rf`, `rm -fr`, `rm -r -f` and `rm -f -r x` all match `rm -rf`). A pattern that is a
/// wrapper (`sudo`) also matches every command run through it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPattern {
    text: String,
    program: String,
    positionals: Vec<String>,
    short: BTreeSet<char>,
    long: BTreeSet<String>,
}

struct Flags {
    positionals: Vec<String>,
    short: BTreeSet<char>,
    long: BTreeSet<String>,
}

/// Flag spellings that mean the same thing, per program: `(program, alias, canonical short)`.
/// Long forms map onto the short letter so `rm --recursive --force` matches `rm -rf`.
const FLAG_ALIASES: &[(&str, &str, char)] = &[
    ("rm", "R", 'r'),
    ("rm", "recursive", 'r'),
    ("rm", "force", 'f'),
    ("cp", "R", 'r'),
    ("cp", "recursive", 'r'),
    ("cp", "force", 'f'),
    ("git", "force", 'f'),
    ("git", "delete", 'd'),
    ("chmod", "recursive", 'R'),
    ("chown", "recursive", 'R'),
    ("shred", "remove", 'u'),
];

fn canonical_flags(program: &str, flags: &mut Flags) {
    for (p, alias, short) in FLAG_ALIASES {
        if *p != program {
            continue;
        }
        let mut chars = alias.chars();
        let single = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        let present = match single {
            Some(c) => flags.short.remove(&c),
            None => flags.long.remove(*alias),
        };
        if present {
            flags.short.insert(*short);
        }
    }
}

fn split_flags(words: &[String]) -> Flags {
    let mut flags = Flags {
        positionals: Vec::new(),
        short: BTreeSet::new(),
        long: BTreeSet::new(),
    };
    let mut only_positionals = false;
    for word in words {
        if only_positionals {
            flags.positionals.push(word.clone());
        } else if word == "--" {
            only_positionals = true;
        } else if let Some(long) = word.strip_prefix("--") {
            flags
                .long
                .insert(long.split('=').next().unwrap_or(long).to_owned());
        } else if word.len() > 1 && word.starts_with('-') {
            flags
                .short
                .extend(word[1..].chars().filter(char::is_ascii_alphanumeric));
        } else {
            flags.positionals.push(word.clone());
        }
    }
    flags
}

fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

impl CommandPattern {
    /// Parses a pattern; `None` for an empty one.
    pub fn parse(text: &str) -> Option<Self> {
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        let (program, rest) = words.split_first()?;
        let program = base_name(program);
        let mut flags = split_flags(rest);
        canonical_flags(program, &mut flags);
        Some(Self {
            text: words.join(" "),
            program: program.to_owned(),
            positionals: flags.positionals,
            short: flags.short,
            long: flags.long,
        })
    }

    /// The pattern as written (whitespace normalised).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether one executed command matches.
    pub fn matches(&self, command: &ExecutedCommand) -> bool {
        let via_wrapper = command.via.iter().any(|via| {
            via.split_whitespace()
                .next()
                .is_some_and(|w| base_name(w) == self.program)
        }) && self.positionals.is_empty()
            && self.short.is_empty()
            && self.long.is_empty();
        if via_wrapper {
            return true;
        }
        let Some((program, args)) = command.argv.split_first() else {
            return false;
        };
        if base_name(program) != self.program {
            return false;
        }
        let mut flags = split_flags(args);
        canonical_flags(&self.program, &mut flags);
        flags.positionals.len() >= self.positionals.len()
            && flags
                .positionals
                .iter()
                .zip(&self.positionals)
                .all(|(a, b)| a == b)
            && self.short.is_subset(&flags.short)
            && self.long.is_subset(&flags.long)
    }
}

/// The shell command of a shell tool call, if this is one.
pub(crate) fn shell_command(input: &HookInput) -> Option<&str> {
    let tool = input.tool_name.as_deref()?;
    if !SHELL_TOOLS.contains(&tool) {
        return None;
    }
    let args = input.tool_input.as_ref()?;
    args.get("command")
        .or_else(|| args.get("cmd"))
        .and_then(|v| v.as_str())
}

pub(crate) fn context(input: &HookInput) -> Context {
    let cwd = if input.cwd.is_empty() {
        PathBuf::from("/")
    } else {
        PathBuf::from(&input.cwd)
    };
    let mut ctx = Context::new(cwd, std::env::home_dir());
    if let Some(tmp) = std::env::var_os("TMPDIR").map(PathBuf::from) {
        ctx.temp_dirs.push(tmp.clone());
        ctx.tmpdir = Some(tmp);
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

fn parse_patterns(args: &[String]) -> Result<Vec<CommandPattern>, String> {
    args.iter()
        .map(|a| {
            CommandPattern::parse(a).ok_or_else(|| "has an empty pattern in `args`".to_owned())
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
    patterns: &[CommandPattern],
    name: &str,
    deny: impl Fn(&CommandPattern, &ExecutedCommand) -> String,
) -> Option<HookResponse> {
    let command = shell_command(&call.input)?;
    let analysis = hookgate_shell::analyze(command, &context(&call.input));
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

fn validate_patterns(args: &[String]) -> Result<(), String> {
    if args.is_empty() {
        return Err("needs at least one pattern in `args`".to_owned());
    }
    parse_patterns(args).map(|_| ())
}

pub(crate) fn register(registry: &mut BuiltinRegistry) {
    registry.register(
        "deny_commands",
        Builtin {
            description: "Denies shell commands that run any of the `args` patterns (parsed, wrapper- and quote-aware).",
            events: &[hookgate_core::EventId::PreToolUse, hookgate_core::EventId::ToolGuard],
            validate: validate_patterns,
            run: Arc::new(|call: BuiltinCall| {
                Box::pin(async move {
                    let patterns = parse_patterns(&call.args)?;
                    Ok(judge(&call, &patterns, "deny_commands", |pattern, executed| {
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
                [_, rest @ ..] if !rest.is_empty() => validate_patterns(rest),
                _ => Err("needs `args: [PREFERRED, PATTERN, ...]`".to_owned()),
            },
            run: Arc::new(|call: BuiltinCall| {
                Box::pin(async move {
                    let (preferred, rest) = call.args.split_first().ok_or("require_command: missing args")?;
                    let patterns = parse_patterns(rest)?;
                    let preferred = preferred.clone();
                    Ok(judge(&call, &patterns, "require_command", move |pattern, _| {
                        format!("use {preferred} instead of {}", pattern.as_str())
                    }))
                })
            }),
        },
    );
}
