//! `limit_large_tool_results`: docker-agent's always-on guard against tool results that would
//! flood the model's context.
//!
//! On `tool_response_transform`, a result over [`MAX_LINES`] lines or [`MAX_BYTES`] bytes is
//! written whole to a per-session file and replaced by a notice naming that file plus a bounded
//! excerpt: the **head** for reads (the start of a file is what a reader wants), the **tail**
//! otherwise (a build or test log ends with the error). On `session_end` the session's files
//! are deleted.
//!
//! Where: `<data dir>/tool-results/<session>/<call>.txt` — hookgate's own data dir (owner-only,
//! in the protected set), not a predictable name under a shared `$TMPDIR`. Each directory is
//! created 0700 and checked to be a real directory of this user (a symlink planted in its place
//! is refused, never followed); each file is created 0600 with `O_CREAT|O_EXCL|O_NOFOLLOW`, so
//! an existing file or link is never written through. The saved copy is **redacted**
//! (`hookgate-secrets`): it is written to disk, and nothing hookgate writes keeps a detected
//! secret in clear.
//!
//! Invariants: the excerpt is cut on UTF-8 character boundaries; the session id never becomes
//! a path component unless it is a plain token (anything else is hashed), so an agent-supplied
//! id cannot write outside the results directory; a result that cannot be saved is still
//! truncated (the notice says the full output was not kept) — the context limit is the point.

use std::collections::hash_map::DefaultHasher;
use std::fs::{DirBuilder, File, OpenOptions};
use std::hash::{Hash, Hasher};
use std::io::{Error, ErrorKind, Write as _};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hookgate_core::excerpt::Keep;
use hookgate_core::{EventId, HookResponse, ToolKind};
use hookgate_engine::runtime::builtin::no_args;
use hookgate_engine::{Builtin, BuiltinCall, BuiltinError, BuiltinRegistry};
use serde_json::Value;

use crate::Environment;

/// docker-agent's line limit.
pub const MAX_LINES: usize = 2000;
/// docker-agent's byte limit (50 KiB).
pub const MAX_BYTES: usize = 50 * 1024;

/// The first `MAX_LINES` lines / `MAX_BYTES` bytes (head) or the last (tail), by the one
/// excerpt rule in `hookgate_core::excerpt`.
fn excerpt(text: &str, keep: Keep) -> &str {
    hookgate_core::excerpt::excerpt(text, keep, MAX_BYTES, Some(MAX_LINES))
}

/// A path-safe directory name for a session id.
fn session_dir_name(session: &str) -> String {
    let plain = !session.is_empty()
        && session.len() <= 128
        && session
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if plain {
        session.to_owned()
    } else {
        let mut hasher = DefaultHasher::new();
        session.hash(&mut hasher);
        format!("h{:016x}", hasher.finish())
    }
}

/// The session's directory, or `None` without a data dir (nowhere private to keep it).
fn results_dir(env: &Environment, session: &str) -> Option<PathBuf> {
    Some(
        env.data_dir
            .as_ref()?
            .join("tool-results")
            .join(session_dir_name(session)),
    )
}

/// Creates `dir` 0700 if missing and checks that it is a real directory of this user that
/// nobody else can enter: a symlink or someone else's directory in its place is refused.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir()
        || meta.uid() != rustix::process::getuid().as_raw()
        || meta.mode() & 0o077 != 0
    {
        return Err(Error::new(
            ErrorKind::PermissionDenied,
            format!("{} is not a private directory of this user", dir.display()),
        ));
    }
    Ok(())
}

/// Creates a new owner-only file `<stem>.txt` in `dir` (`<stem>-2.txt`, … when taken), never
/// opening an existing file or following a link.
fn new_private_file(dir: &Path, stem: &str) -> std::io::Result<(PathBuf, File)> {
    for n in 1..=100 {
        let name = if n == 1 {
            format!("{stem}.txt")
        } else {
            format!("{stem}-{n}.txt")
        };
        let path = dir.join(name);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed())
            .open(&path)
        {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(Error::new(
        ErrorKind::AlreadyExists,
        format!("{stem}: 100 results under this name already"),
    ))
}

/// Saves `text`, redacted, for the session; returns where.
fn save(env: &Environment, session: &str, stem: &str, text: &str) -> std::io::Result<PathBuf> {
    let dir = results_dir(env, session).ok_or_else(|| {
        Error::new(
            ErrorKind::NotFound,
            "no data directory to keep it in".to_owned(),
        )
    })?;
    if let Some(parent) = dir.parent() {
        private_dir(parent)?;
    }
    private_dir(&dir)?;
    let (path, mut file) = new_private_file(&dir, stem)?;
    file.write_all(hookgate_secrets::redact(text).as_bytes())?;
    Ok(path)
}

fn limit(call: &BuiltinCall, env: &Environment) -> Option<HookResponse> {
    let response = call.input.tool_response.as_ref()?;
    let text = match response {
        Value::String(s) => s.clone(),
        Value::Null => return None,
        other => serde_json::to_string_pretty(other).ok()?,
    };
    let lines = text.lines().count();
    if lines <= MAX_LINES && text.len() <= MAX_BYTES {
        return None;
    }
    let tool = call.input.tool_name.as_deref().unwrap_or_default();
    let keep = if ToolKind::of_tool_name(tool) == ToolKind::Read {
        Keep::Head
    } else {
        Keep::Tail
    };
    let id = call
        .input
        .tool_use_id
        .as_deref()
        .map_or_else(|| session_dir_name(&text), session_dir_name);
    let saved = save(env, &call.input.session_id, &id, &text);
    let part = excerpt(&text, keep);
    let which = match keep {
        Keep::Head => "first",
        Keep::Tail => "last",
    };
    let whereabouts = match saved {
        Ok(file) => format!(
            "the full output (secrets redacted) is in {}; read it in ranges with read_file's `line` and `limit`",
            file.display()
        ),
        Err(e) => format!("the full output could not be saved ({e})"),
    };
    let notice = format!(
        "[tool result truncated: {lines} lines, {} bytes; {whereabouts}; showing the {which} {} lines]\n",
        text.len(),
        part.lines().count()
    );
    let replaced = match keep {
        Keep::Head => format!("{notice}{part}"),
        Keep::Tail => format!("{notice}…\n{part}"),
    };
    Some(HookResponse {
        updated_tool_response: Some(Value::String(replaced)),
        ..HookResponse::default()
    })
}

fn cleanup(call: &BuiltinCall, env: &Environment) -> Result<Option<HookResponse>, BuiltinError> {
    let Some(dir) = results_dir(env, &call.input.session_id) else {
        return Ok(None);
    };
    // remove_dir_all never follows a symlink (a link in the dir's place is itself removed).
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(BuiltinError::io("remove", dir, e)),
    }
}

pub(crate) fn register(registry: &mut BuiltinRegistry, env: &Arc<Environment>) {
    let env = Arc::clone(env);
    registry.register(
        "limit_large_tool_results",
        Builtin {
            description: "Replaces a tool result over 2000 lines or 50 KiB with a notice and its head (reads) or tail (everything else), keeping the whole in a per-session file deleted at session_end.",
            events: &[EventId::ToolResponseTransform, EventId::SessionEnd],
            validate: no_args,
            run: Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&env);
                Box::pin(async move {
                    match EventId::from_native(&call.input.hook_event_name) {
                        Some(EventId::SessionEnd) => cleanup(&call, &env),
                        _ => Ok(limit(&call, &env)),
                    }
                })
            }),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_keeps_the_first_lines_and_the_tail_the_last() {
        let text: String = (1..=3000).fold(String::new(), |mut s, i| {
            s.push_str("line ");
            s.push_str(&i.to_string());
            s.push('\n');
            s
        });
        let head = excerpt(&text, Keep::Head);
        assert!(head.starts_with("line 1\n"));
        assert_eq!(head.lines().count(), MAX_LINES);
        let tail = excerpt(&text, Keep::Tail);
        assert!(
            tail.ends_with("line 3000\n"),
            "{}",
            &tail[tail.len() - 20..]
        );
        assert_eq!(tail.lines().count(), MAX_LINES);
        assert!(tail.starts_with("line 1001\n"));
    }

    #[test]
    fn excerpts_never_split_a_character() {
        let text = "é".repeat(MAX_BYTES); // 2 × MAX_BYTES bytes, one line
        for keep in [Keep::Head, Keep::Tail] {
            let part = excerpt(&text, keep);
            assert!(part.len() <= MAX_BYTES);
            assert!(part.chars().all(|c| c == 'é'));
        }
    }

    #[test]
    fn an_unusual_session_id_never_becomes_a_path() {
        assert_eq!(session_dir_name("abc-123_x"), "abc-123_x");
        for bad in ["../../etc", "a/b", "", "x y"] {
            let name = session_dir_name(bad);
            assert!(
                name.starts_with('h') && !name.contains('/'),
                "{bad}: {name}"
            );
        }
    }
}
