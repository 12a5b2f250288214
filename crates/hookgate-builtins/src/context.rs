//! docker-agent's context built-ins: `add_prompt_files`, `add_git_status`, `add_git_diff`,
//! `add_recent_commits`.
//!
//! Each adds text for the model (`additional_context`) and is a no-op where it has nothing to
//! say (outside a git repository, git not installed, no prompt file found): context is a
//! convenience, so its absence is never an error, while a malformed configuration is.
//!
//! Invariants:
//! - git output is capped at [`GIT_OUTPUT_CAP`] bytes, cut on a UTF-8 boundary, with
//!   `... (truncated)` appended, as docker-agent does;
//! - git runs with repository-configured code execution switched off (`core.fsmonitor`,
//!   external diff drivers, textconv), because these built-ins stay active for an untrusted
//!   project and must not become a way to run its code;
//! - `add_prompt_files` reads only files *named* by relative, `..`-free paths, so a config
//!   cannot point it at `~/.ssh/id_rsa` and ship the key to the model; and a file found by
//!   that name is read only if it physically lies inside the directory it was found in and
//!   is not a sensitive location (`hookgate-paths`' catalog), so a cloned repository's
//!   `AGENTS.md` that is a symlink to `~/.ssh/id_rsa` is refused, not read.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hookgate_core::{EventId, HookResponse};
use hookgate_engine::runtime::builtin::no_args;
use hookgate_engine::{ArgsError, Builtin, BuiltinCall, BuiltinError, BuiltinRegistry};
use hookgate_transport::{CommandSpec, ExitKind, Limits, Program, run_command};

use crate::Environment;

/// docker-agent's cap on git output.
pub const GIT_OUTPUT_CAP: usize = 4096;
/// Largest prompt file included (whole); larger files are cut with a note.
const PROMPT_FILE_CAP: usize = 64 * 1024;
/// Bound on one git call (the hook's own timeout bounds the whole built-in too).
const GIT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default `add_recent_commits` count.
const DEFAULT_COMMITS: u64 = 10;

/// Cuts `text` to at most `cap` bytes on a character boundary, marking the cut.
pub(crate) fn cap_utf8(text: &str, cap: usize) -> String {
    if text.len() <= cap {
        return text.to_owned();
    }
    let mut cut = cap;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}\n... (truncated)", &text[..cut])
}

fn context(text: String) -> HookResponse {
    HookResponse {
        additional_context: Some(text),
        ..HookResponse::default()
    }
}

/// Where the built-in works: the hook's `working_dir`, else the event's `cwd`.
pub(crate) fn work_dir(call: &BuiltinCall) -> Option<PathBuf> {
    call.working_dir
        .clone()
        .or_else(|| (!call.input.cwd.is_empty()).then(|| PathBuf::from(&call.input.cwd)))
        .filter(|d| d.is_dir())
}

/// Runs `git ARGS` in the work dir. `Ok(None)`: no repository, or git is not installed.
async fn git(call: &BuiltinCall, args: &[&str]) -> Result<Option<String>, BuiltinError> {
    let Some(dir) = work_dir(call) else {
        return Ok(None);
    };
    let mut full: Vec<String> = [
        "-c",
        "core.fsmonitor=false",
        "-c",
        "core.hooksPath=/dev/null",
        "--no-pager",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    full.extend(args.iter().map(|s| (*s).to_owned()));
    let mut env = call.env.clone();
    env.push((OsString::from("GIT_OPTIONAL_LOCKS"), OsString::from("0")));
    env.push((OsString::from("GIT_TERMINAL_PROMPT"), OsString::from("0")));
    let spec = CommandSpec {
        program: Program::Exec {
            program: "git".to_owned(),
            args: full,
        },
        env,
        working_dir: Some(dir),
    };
    let limits = Limits {
        timeout: GIT_TIMEOUT,
        // Read a little more than the cap so truncation can be reported; more is not needed.
        max_output_bytes: 4 * 1024 * 1024,
        ..Limits::default()
    };
    match run_command(&spec, &[], &limits).await {
        Ok(out) if out.exit == ExitKind::Code(0) => {
            Ok(Some(String::from_utf8_lossy(&out.stdout).into_owned()))
        }
        // Not a repository (128), another git failure, or git not installed: nothing to add.
        Ok(_) | Err(hookgate_transport::TransportError::Spawn { .. }) => Ok(None),
        Err(e) => Err(BuiltinError::failed(
            format!("run git {}", args.join(" ")),
            e,
        )),
    }
}

async fn git_context(
    call: &BuiltinCall,
    title: &str,
    args: &[&str],
) -> Result<Option<HookResponse>, BuiltinError> {
    let Some(out) = git(call, args).await? else {
        return Ok(None);
    };
    let out = out.trim_end();
    if out.is_empty() {
        return Ok(None);
    }
    Ok(Some(context(format!(
        "{title}:\n{}",
        cap_utf8(out, GIT_OUTPUT_CAP)
    ))))
}

/// A prompt file name must be relative and stay below the directory it is looked up in.
fn valid_prompt_file(name: &str) -> bool {
    let path = Path::new(name);
    !name.is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// What the lookup found: files to read, and files refused (with why).
#[derive(Debug, Default)]
struct PromptFiles {
    /// (the name as found, the checked physical path it is read from)
    found: Vec<(PathBuf, PathBuf)>,
    refused: Vec<String>,
}

/// Why the prompt file `candidate`, found in `base`, must not be read: its physical path
/// (symlinks followed) leaves `base`, or is a sensitive location.
fn refusal(candidate: &Path, base: &Path, physical: &Path, home: Option<&Path>) -> Option<String> {
    let root = base.canonicalize().unwrap_or_else(|_| base.to_owned());
    if !hookgate_paths::is_within(physical, &root) {
        return Some(format!(
            "{} resolves to {}, outside {}",
            candidate.display(),
            physical.display(),
            root.display()
        ));
    }
    let ctx = hookgate_paths::PathContext::new(&root, home.map(Path::to_path_buf));
    hookgate_paths::classify(physical, &ctx)
        .into_iter()
        .find(|m| m.access.covers(hookgate_paths::Access::Read))
        .map(|m| format!("{} is sensitive ({})", candidate.display(), m.reason))
}

/// Every existing `name` from the outermost ancestor of `dir` down to `dir`, then in `home`;
/// each file once (by canonical path); files that [`refusal`] names are refused.
fn find_prompt_files(dir: &Path, home: Option<&Path>, names: &[String]) -> PromptFiles {
    let mut out = PromptFiles::default();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut bases: Vec<&Path> = dir.ancestors().collect();
    bases.reverse();
    if let Some(home) = home {
        bases.push(home);
    }
    for name in names {
        for base in &bases {
            let candidate = base.join(name);
            if !candidate.is_file() {
                continue;
            }
            let Ok(physical) = candidate.canonicalize() else {
                out.refused
                    .push(format!("{} cannot be resolved", candidate.display()));
                continue;
            };
            if seen.contains(&physical) {
                continue;
            }
            seen.push(physical.clone());
            match refusal(&candidate, base, &physical, home) {
                Some(why) => out.refused.push(why),
                None => out.found.push((candidate, physical)),
            }
        }
    }
    out
}

fn add_prompt_files(
    call: &BuiltinCall,
    env: &Environment,
) -> Result<Option<HookResponse>, BuiltinError> {
    let Some(dir) = work_dir(call) else {
        return Ok(None);
    };
    let files = find_prompt_files(&dir, env.home.as_deref(), &call.args);
    let mut sections = Vec::new();
    for (path, physical) in files.found {
        // Read where the check looked, not the name again (which could be re-pointed).
        let bytes = std::fs::read(&physical).map_err(|e| BuiltinError::io("read", &path, e))?;
        let text = String::from_utf8_lossy(&bytes);
        sections.push(format!(
            "Contents of {}:\n{}",
            path.display(),
            cap_utf8(text.trim_end(), PROMPT_FILE_CAP)
        ));
    }
    // A refused file is said, never silently dropped: the user put it there for a reason.
    let warning = (!files.refused.is_empty())
        .then(|| format!("add_prompt_files: not read: {}", files.refused.join("; ")));
    if sections.is_empty() && warning.is_none() {
        return Ok(None);
    }
    Ok(Some(HookResponse {
        additional_context: (!sections.is_empty()).then(|| sections.join("\n\n")),
        system_message: warning,
        ..HookResponse::default()
    }))
}

pub(crate) fn register(registry: &mut BuiltinRegistry, env: &Arc<Environment>) {
    let files_env = Arc::clone(env);
    registry.register(
        "add_prompt_files",
        Builtin {
            description: "Adds the contents of each named file found in the working directory, its ancestors and the home directory (args: file names, relative, no `..`).",
            events: &[EventId::TurnStart],
            validate: |args| {
                if args.is_empty() {
                    return Err(ArgsError::shape("needs `args: [FILE, ...]` (e.g. [AGENTS.md])"));
                }
                match args.iter().position(|a| !valid_prompt_file(a)) {
                    Some(i) => Err(ArgsError::value(i, &args[i], "must be a relative file name without `..`")),
                    None => Ok(()),
                }
            },
            run: Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&files_env);
                Box::pin(async move { add_prompt_files(&call, &env) })
            }),
        },
    );
    registry.register(
        "add_git_status",
        Builtin {
            description: "Adds `git status --short --branch` (nothing outside a git repository), capped at 4 KiB.",
            events: &[EventId::TurnStart],
            validate: no_args,
            run: Arc::new(|call: BuiltinCall| {
                Box::pin(async move {
                    git_context(&call, "Git status", &["status", "--short", "--branch"]).await
                })
            }),
        },
    );
    registry.register(
        "add_git_diff",
        Builtin {
            description: "Adds `git diff --stat` (args: [full] for the unified diff), capped at 4 KiB.",
            events: &[EventId::TurnStart],
            validate: |args| match args {
                [] => Ok(()),
                [full] if full == "full" => Ok(()),
                _ => Err(ArgsError::shape("takes no `args`, or `args: [full]`")),
            },
            run: Arc::new(|call: BuiltinCall| {
                Box::pin(async move {
                    let full = call.args.first().is_some_and(|a| a == "full");
                    let args: &[&str] = if full {
                        &["diff", "--no-ext-diff", "--no-textconv", "--no-color"]
                    } else {
                        &["diff", "--no-ext-diff", "--no-textconv", "--no-color", "--stat"]
                    };
                    git_context(&call, "Git diff", args).await
                })
            }),
        },
    );
    registry.register(
        "add_recent_commits",
        Builtin {
            description: "Adds `git log --oneline -n N` (args: [N], default 10), capped at 4 KiB.",
            events: &[EventId::SessionStart],
            validate: |args| match args {
                [] => Ok(()),
                [n] if n.parse::<u64>().is_ok_and(|n| n > 0) => Ok(()),
                _ => Err(ArgsError::shape(
                    "takes no `args`, or `args: [\"N\"]` with N a positive integer",
                )),
            },
            run: Arc::new(|call: BuiltinCall| {
                Box::pin(async move {
                    let n = call
                        .args
                        .first()
                        .and_then(|n| n.parse::<u64>().ok())
                        .unwrap_or(DEFAULT_COMMITS)
                        .to_string();
                    git_context(
                        &call,
                        "Recent commits",
                        &["log", "--oneline", "--no-color", "--no-decorate", "-n", &n],
                    )
                    .await
                })
            }),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_cuts_on_a_character_boundary_and_says_so() {
        let text = "é".repeat(10); // 20 bytes
        let cut = cap_utf8(&text, 5);
        assert_eq!(cut, "éé\n... (truncated)");
        assert_eq!(cap_utf8("short", 5), "short");
    }

    #[test]
    fn prompt_file_names_cannot_escape_their_directory() {
        assert!(valid_prompt_file("AGENTS.md"));
        assert!(valid_prompt_file("docs/PROMPT.md"));
        for bad in [
            "",
            "/etc/passwd",
            "../secret",
            "a/../../b",
            "./x",
            "~/.ssh/id_rsa/..",
        ] {
            assert!(!valid_prompt_file(bad), "{bad}");
        }
    }
}
