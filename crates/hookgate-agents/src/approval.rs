//! Each agent's permission mode, reduced to one question: will an `ask` reach a human?
//!
//! Invariant protected: a value is mapped to [`AskScope::Nothing`] or [`AskScope::AllButEdits`]
//! only when the agent's own behaviour in that mode is known (observed with the real CLI, see
//! `PERMISSION_MODES.md` beside this crate); an unknown or misspelt value yields `None`, which
//! the guard treats as "someone asks". The reverse mistake (calling a bypass mode `All`) is what
//! let Claude write `~/.bashrc` under `--dangerously-skip-permissions` after hookgate said `ask`,
//! so every value that does mean "nobody asks" is listed here.
//!
//! Where the payload says nothing (Gemini, Copilot), the mode lives in the agent's command line
//! or environment. Reading those is I/O, which this crate never does: [`approval_from_env`] and
//! [`approval_from_argv`] take the facts as input and the guard supplies them.

use hookgate_core::canonical::{Approval, AskScope};
use serde_json::{Map, Value};

use crate::dialect::Dialect;

fn approval(native: impl Into<String>, asks: AskScope) -> Approval {
    Approval {
        native: native.into(),
        asks,
    }
}

/// Claude Code's `permission_mode` (2.1.330 sends `default`, `plan`, `acceptEdits`, `auto`,
/// `dontAsk`, `bypassPermissions`; `--permission-mode manual` arrives as `default`).
///
/// `auto` hands every permission prompt to Claude's classifier instead of the user;
/// `dontAsk` refuses whatever would prompt; `bypassPermissions` runs everything. In none of
/// them does a person see the question.
fn claude_scope(mode: &str) -> Option<AskScope> {
    match mode {
        "default" | "plan" => Some(AskScope::All),
        "acceptEdits" => Some(AskScope::AllButEdits),
        "auto" | "dontAsk" | "bypassPermissions" => Some(AskScope::Nothing),
        _ => None,
    }
}

/// Codex CLI's `permission_mode` (0.169.0): `bypassPermissions` exactly when the approval
/// policy is `never` (which `codex exec` always uses), `default` for every other policy.
/// Codex's schema also lists Claude's other values; they are read as Claude means them.
fn codex_scope(mode: &str) -> Option<AskScope> {
    match mode {
        "default" | "plan" => Some(AskScope::All),
        "acceptEdits" => Some(AskScope::AllButEdits),
        "dontAsk" | "bypassPermissions" => Some(AskScope::Nothing),
        _ => None,
    }
}

/// The approval a payload states, if its dialect carries a `permission_mode` and the value is
/// known. Copilot's and Cursor's Claude-format payloads carry Claude's field; where present it
/// means what it means for Claude.
pub(crate) fn approval_from_payload(
    dialect: Dialect,
    obj: &Map<String, Value>,
) -> Option<Approval> {
    let mode = obj.get("permission_mode")?.as_str()?;
    let scope = match dialect {
        Dialect::Claude | Dialect::CopilotClaude | Dialect::CursorClaude => claude_scope(mode),
        Dialect::Codex => codex_scope(mode),
        Dialect::Gemini | Dialect::CopilotCamel | Dialect::Cursor => None,
    }?;
    Some(approval(mode, scope))
}

/// Copilot's boolean environment spelling (`copilot help environment`, 1.0.102): `true`, `1`,
/// `yes`, `on`, `y`, case-insensitive, surrounding whitespace ignored.
fn copilot_truthy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "true" | "1" | "yes" | "on" | "y"
    )
}

/// The approval the hook's environment states. `env` looks one variable up (the guard passes
/// `std::env::var`); nothing else is read.
///
/// - Claude Code sets `CLAUDE_CODE_SESSION_ATTENDED=0` for hooks of an unattended session
///   (`claude -p`): nobody is there to answer, and Claude itself refuses an asked call.
/// - Copilot CLI inherits `COPILOT_ALLOW_ALL` (the environment form of `--allow-all-tools`)
///   into its hooks; a truthy value means no tool is asked about.
///
/// Gemini CLI and Codex expose no permission mode in the hook environment.
pub fn approval_from_env(
    dialect: Dialect,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<Approval> {
    match dialect {
        Dialect::Claude => env("CLAUDE_CODE_SESSION_ATTENDED")
            .filter(|v| v.trim() == "0")
            .map(|_| approval("CLAUDE_CODE_SESSION_ATTENDED=0", AskScope::Nothing)),
        Dialect::CopilotCamel | Dialect::CopilotClaude => env("COPILOT_ALLOW_ALL")
            .filter(|v| copilot_truthy(v))
            .map(|v| approval(format!("COPILOT_ALLOW_ALL={}", v.trim()), AskScope::Nothing)),
        Dialect::Codex | Dialect::Gemini | Dialect::Cursor | Dialect::CursorClaude => None,
    }
}

/// The value of a long option in `--name value` or `--name=value` form at `args[i]`, with the
/// index of the next unread argument.
fn option_value<'a>(args: &'a [String], i: usize, name: &str) -> Option<(&'a str, usize)> {
    let arg = args.get(i)?.as_str();
    let rest = arg.strip_prefix(name)?;
    if let Some(value) = rest.strip_prefix('=') {
        Some((value, i + 1))
    } else if rest.is_empty() {
        args.get(i + 1).map(|v| (v.as_str(), i + 2))
    } else {
        None
    }
}

/// A yargs/commander boolean flag: `--flag`, `--flag=true`, `--flag=false`.
fn bool_flag(arg: &str, name: &str) -> Option<bool> {
    let rest = arg.strip_prefix(name)?;
    match rest {
        "" | "=true" => Some(true),
        "=false" => Some(false),
        _ => None,
    }
}

/// Gemini CLI's `--approval-mode` values (0.61.0 `--help`).
fn gemini_scope(mode: &str) -> Option<AskScope> {
    match mode {
        "default" | "plan" => Some(AskScope::All),
        "auto_edit" => Some(AskScope::AllButEdits),
        "yolo" => Some(AskScope::Nothing),
        _ => None,
    }
}

/// The approval a Gemini CLI `settings.json` states in `general.defaultApprovalMode` (or, as
/// Gemini migrates it when that is unset, the older `tools.approvalMode`), mapped with the
/// same table as `--approval-mode`. `text` is the file's content; the guard reads the files
/// (the user's `~/.gemini/settings.json`, the project's `.gemini/settings.json`, the system
/// ones) and only when an `ask` is at stake.
///
/// Gemini reads these files as JSON with comments (comments stripped, then strict JSON), so
/// they are read the same way here; a file Gemini could not read states nothing. Gemini
/// 0.61 ignores `yolo` from settings (only its command line turns yolo on), but it is still
/// mapped to `Nothing`: other versions honour it, and misreading it only turns an ask into
/// the ask-fallback.
pub fn approval_from_gemini_settings(text: &str) -> Option<Approval> {
    let value: Value = serde_json::from_str(&strip_json_comments(text)).ok()?;
    let (key, mode) = match value
        .get("general")
        .and_then(|g| g.get("defaultApprovalMode"))
    {
        Some(mode) => ("general.defaultApprovalMode", mode),
        None => (
            "tools.approvalMode",
            value.get("tools").and_then(|t| t.get("approvalMode"))?,
        ),
    };
    let mode = mode.as_str()?;
    gemini_scope(mode).map(|scope| approval(format!("{key}: {mode}"), scope))
}

/// `text` with its `//` and `/* */` comments outside strings replaced by spaces (newlines
/// kept), as the `strip-json-comments` package Gemini uses does. An unterminated comment or
/// string runs to the end; the JSON parser then rejects what is left.
fn strip_json_comments(text: &str) -> String {
    #[derive(Clone, Copy)]
    enum State {
        Code,
        Str,
        StrEscape,
        Line,
        Block,
    }
    let mut out = String::with_capacity(text.len());
    let mut state = State::Code;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        // (what to write for `c`, whether it also consumes the next character, next state)
        let (keep, pair, after) = match (state, c, next) {
            (State::Code, '/', Some('/')) => (false, true, State::Line),
            (State::Code, '/', Some('*')) => (false, true, State::Block),
            (State::Code, '"', _) | (State::StrEscape, _, _) => (true, false, State::Str),
            (State::Str, '\\', _) => (true, false, State::StrEscape),
            (State::Str, '"', _) | (State::Line, '\n', _) => (true, false, State::Code),
            (State::Block, '*', Some('/')) => (false, true, State::Code),
            (State::Code | State::Str, _, _) => (true, false, state),
            (State::Line | State::Block, _, _) => (c == '\n', false, state),
        };
        out.push(if keep { c } else { ' ' });
        if pair {
            chars.next();
            out.push(' ');
        }
        state = after;
    }
    out
}

/// The approval an agent's own command line states. `argv` is the agent process's argument
/// vector as `/proc/<pid>/cmdline` gives it (the program, and for Gemini `node` and its script,
/// may be included: they are not options). The guard finds the process: the hook's parent, or
/// the parent's parent when the agent ran the hook through `sh -c` (Claude 2.1.330 does);
/// Copilot 1.0.102 runs hooks directly from its native binary
/// `…/@github/copilot-linux-x64/copilot`, Gemini 0.61.0 from `node …/.bin/gemini`.
///
/// - Gemini CLI: `--approval-mode yolo|auto_edit|default|plan`, `-y`/`--yolo`.
///
/// Several occurrences combine to the one that asks least (see [`combine`]): yargs keeps the
/// last, but a prompt word that happens to read `--approval-mode default` must not undo a real
/// `--yolo` before it, and reading a stray word as "nobody asks" only turns an ask into the
/// ask-fallback.
/// - Copilot CLI: `--allow-all-tools`, `--allow-all`, `--yolo` (each auto-approves every
///   tool); `--allow-tool` with a pattern does not, and is not read.
///
/// Words after `--` are arguments, not options, and are ignored. Codex and Claude state their
/// mode in the payload and are not read here.
pub fn approval_from_argv(dialect: Dialect, argv: &[String]) -> Option<Approval> {
    let mut found: Option<Approval> = None;
    let mut note = |next: Option<Approval>| found = combine([found.take(), next]);
    let mut i = 0;
    while i < argv.len() {
        let arg = argv[i].as_str();
        if arg == "--" {
            break;
        }
        match dialect {
            Dialect::Gemini => {
                if let Some((value, next)) = option_value(argv, i, "--approval-mode") {
                    note(gemini_scope(value).map(|s| approval(value, s)));
                    i = next;
                    continue;
                }
                if arg == "-y" || bool_flag(arg, "--yolo") == Some(true) {
                    note(Some(approval("yolo", AskScope::Nothing)));
                }
            }
            Dialect::CopilotCamel | Dialect::CopilotClaude => {
                for flag in ["--allow-all-tools", "--allow-all", "--yolo"] {
                    if bool_flag(arg, flag) == Some(true) {
                        note(Some(approval(
                            flag.trim_start_matches('-'),
                            AskScope::Nothing,
                        )));
                    }
                }
            }
            Dialect::Claude | Dialect::Codex | Dialect::Cursor | Dialect::CursorClaude => {
                return None;
            }
        }
        i += 1;
    }
    found
}

/// Combines what the payload, the environment and the command line say: the source that asks
/// least wins, because each one alone is enough to take the human out of the loop (a
/// `COPILOT_ALLOW_ALL` in the environment auto-approves whatever the flags say). `None` only
/// when no source says anything.
pub fn combine(sources: impl IntoIterator<Item = Option<Approval>>) -> Option<Approval> {
    fn rank(scope: AskScope) -> u8 {
        match scope {
            AskScope::All => 0,
            AskScope::AllButEdits => 1,
            AskScope::Nothing => 2,
        }
    }
    sources
        .into_iter()
        .flatten()
        .fold(None, |best: Option<Approval>, next| match best {
            Some(b) if rank(b.asks) >= rank(next.asks) => Some(b),
            _ => Some(next),
        })
}
