//! `rate_limit`: at most N calls of a tool per window, counted across hook processes.
//!
//! A coding agent starts one hook process per tool call, so the count cannot live in memory: it
//! lives in a small JSON file per session under the state directory, read and rewritten under
//! an exclusive file lock so concurrent hook processes do not lose calls.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::{ArgsError, BuiltinError, Environment};
use hookgate_core::{Decision, EventId, HookResponse};
use hookgate_engine::{Builtin, BuiltinCall, BuiltinRegistry};
use serde_json::{Map, Value};

/// Parses `10`, `10s`, `500ms`, `5m`, `1h`.
fn parse_window(text: &str) -> Option<Duration> {
    let text = text.trim();
    let (digits, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = digits.parse().ok().filter(|n| *n > 0)?;
    match unit {
        "" | "s" => Some(Duration::from_secs(n)),
        "ms" => Some(Duration::from_millis(n)),
        "m" => Some(Duration::from_secs(n.checked_mul(60)?)),
        "h" => Some(Duration::from_secs(n.checked_mul(3600)?)),
        _ => None,
    }
}

struct Limit {
    max: usize,
    window: Duration,
    global: bool,
}

fn parse_args(args: &[String]) -> Result<Limit, ArgsError> {
    let (max, window, scope) = match args {
        [max, window] => (max, window, None),
        [max, window, scope] => (max, window, Some(scope.as_str())),
        _ => {
            return Err(ArgsError::shape(
                "needs `args: [N, WINDOW]` or `[N, WINDOW, session|global]`",
            ));
        }
    };
    let max = max
        .parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ArgsError::value(0, max, "N must be a positive integer"))?;
    let window = parse_window(window).ok_or_else(|| {
        ArgsError::value(
            1,
            window,
            "WINDOW must be like `60s`, `500ms`, `5m` or `1h`",
        )
    })?;
    let global = match scope {
        None | Some("session") => false,
        Some("global") => true,
        Some(other) => {
            return Err(ArgsError::value(
                2,
                other,
                "the scope must be `session` or `global`",
            ));
        }
    };
    Ok(Limit {
        max,
        window,
        global,
    })
}

/// `HOOKGATE_STATE_DIR` from the hook's own `env`, else the [`Environment`]'s state directory
/// (read once from the process when the registry was built).
pub(crate) fn state_dir(call: &BuiltinCall, env: &Environment) -> Option<PathBuf> {
    call.env
        .iter()
        .rev()
        .find(|(k, _)| k == "HOOKGATE_STATE_DIR")
        .map(|(_, v)| PathBuf::from(v))
        .or_else(|| env.state_dir.clone())
}

/// FNV-1a: a stable file name for a session id of any shape.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn state_error(op: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> BuiltinError {
    let path = path.to_path_buf();
    move |source| BuiltinError::io(op, path, source)
}

fn check(call: &BuiltinCall, env: &Environment) -> Result<Option<HookResponse>, BuiltinError> {
    let limit = parse_args(&call.args)?;
    let dir = state_dir(call, env)
        .ok_or(BuiltinError::Unconfigured {
            what: "state directory",
            hint: "set HOOKGATE_STATE_DIR",
        })?
        .join("rate_limit");
    std::fs::create_dir_all(&dir).map_err(state_error("create", &dir))?;
    let key = if limit.global {
        "global".to_owned()
    } else {
        format!("session-{:016x}", fnv1a(&call.input.session_id))
    };
    let path = dir.join(format!("{key}.json"));
    let mut file: File = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(state_error("open", &path))?;
    // Held until `file` is dropped at the end of this function.
    file.lock().map_err(state_error("lock", &path))?;
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(state_error("read", &path))?;
    let mut state: Map<String, Value> = if text.trim().is_empty() {
        Map::new()
    } else {
        // A damaged state file is a failure (which blocks on guard events), not a reset that
        // would silently lift the limit.
        serde_json::from_str(&text).map_err(|source| BuiltinError::Damaged {
            path: path.clone(),
            source: Box::new(source),
        })?
    };
    let tool = call
        .input
        .tool_name
        .clone()
        .unwrap_or_else(|| call.input.hook_event_name.clone());
    let now = now_ms();
    let window_ms = u64::try_from(limit.window.as_millis()).unwrap_or(u64::MAX);
    let mut stamps: Vec<u64> = state
        .get(&tool)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_u64)
                .filter(|t| now.saturating_sub(*t) < window_ms)
                .collect()
        })
        .unwrap_or_default();
    let response = if stamps.len() >= limit.max {
        Some(HookResponse {
            decision: Some(Decision::Deny),
            reason: Some(format!(
                "rate limit: `{tool}` was called {} times in the last {:?} (limit {})",
                stamps.len(),
                limit.window,
                limit.max
            )),
            ..HookResponse::default()
        })
    } else {
        stamps.push(now);
        None
    };
    state.insert(
        tool,
        Value::Array(stamps.into_iter().map(Value::from).collect()),
    );
    let bytes = serde_json::to_vec(&state)
        .map_err(|e| state_error("write", &path)(std::io::Error::from(e)))?;
    file.set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)))
        .and_then(|_| file.write_all(&bytes))
        .map_err(state_error("write", &path))?;
    Ok(response)
}

pub(crate) fn register(registry: &mut BuiltinRegistry, env: &Arc<Environment>) {
    let env = Arc::clone(env);
    registry.register(
        "rate_limit",
        Builtin {
            description: "args: [N, WINDOW, session|global]: denies a tool's calls past N per WINDOW (state shared across hook processes).",
            events: &[EventId::PreToolUse, EventId::ToolGuard],
            validate: |args| parse_args(args).map(|_| ()),
            run: Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&env);
                Box::pin(async move { check(&call, &env) })
            }),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_rate_limit_args_are_typed_errors_naming_what_is_needed() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(matches!(
            parse_args(&args(&["0", "1m"])),
            Err(ArgsError::Value { index: 0, why, .. }) if why.contains("positive integer")
        ));
        assert!(matches!(
            parse_args(&args(&["3", "soon"])),
            Err(ArgsError::Value { index: 1, value, .. }) if value == "soon"
        ));
        assert!(matches!(
            parse_args(&args(&["3", "1m", "team"])),
            Err(ArgsError::Value { index: 2, why, .. }) if why.contains("`session` or `global`")
        ));
        assert!(matches!(
            parse_args(&args(&["3"])),
            Err(ArgsError::Shape { .. })
        ));
        assert!(parse_args(&args(&["3", "1m", "global"])).is_ok());
    }

    #[test]
    fn windows_parse_with_units_and_reject_nonsense() {
        assert_eq!(parse_window("60"), Some(Duration::from_secs(60)));
        assert_eq!(parse_window("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_window("5m"), Some(Duration::from_secs(300)));
        assert_eq!(parse_window("1h"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_window("0s"), None);
        assert_eq!(parse_window("10 parsecs"), None);
        assert!(parse_args(&["0".into(), "1s".into()]).is_err());
        assert!(parse_args(&["3".into(), "1s".into(), "galaxy".into()]).is_err());
    }
}
