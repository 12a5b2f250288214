//! Command hooks: a subprocess per call, via `hookgate-transport`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use hookgate_core::{Contract, HookInput, HookStatus};
use hookgate_transport::{CommandSpec, ExitKind, Limits, Program, run_command};

use super::{interpret_output, preview};
use crate::config::expand::{ProcessEnv, expand_env_refs, expand_path};

/// What the engine needs to spawn one command hook.
pub(crate) struct CommandCall<'a> {
    pub id: &'a str,
    pub contract: &'a Contract,
    pub command: &'a str,
    pub args: Option<&'a [String]>,
    pub env: &'a BTreeMap<String, String>,
    pub working_dir: Option<&'a str>,
    pub shell: &'a Path,
    pub strict: bool,
    pub limits: Limits,
}

/// Resolves the directory a hook runs in: an absolute `working_dir` wins, a relative one joins
/// the event's `cwd` (or the process's when the event has none).
pub(crate) fn resolve_working_dir(
    working_dir: Option<&str>,
    input: &HookInput,
) -> Result<Option<PathBuf>, String> {
    let base = (!input.cwd.is_empty())
        .then(|| PathBuf::from(&input.cwd))
        .filter(|p| p.is_dir());
    let Some(raw) = working_dir else {
        return Ok(base);
    };
    let expanded = expand_path(raw, &ProcessEnv).map_err(|e| format!("working_dir: {e}"))?;
    if expanded.trim().is_empty() {
        return Err(format!("working_dir `{raw}` expanded to nothing"));
    }
    let path = PathBuf::from(expanded);
    if path.is_absolute() {
        return Ok(Some(path));
    }
    let base = match base {
        Some(base) => base,
        None => std::env::current_dir()
            .map_err(|e| format!("working_dir: no current directory: {e}"))?,
    };
    Ok(Some(base.join(path)))
}

pub(crate) fn expand_env(
    env: &BTreeMap<String, String>,
) -> Result<Vec<(OsString, OsString)>, String> {
    env.iter()
        .map(|(key, value)| {
            expand_env_refs(value, &ProcessEnv)
                .map(|v| (OsString::from(key), OsString::from(v)))
                .map_err(|e| format!("env `{key}`: {e}"))
        })
        .collect()
}

/// Runs one command hook and reads its result by the exit-status rules:
/// 0 → stdout is the output; 2 → block with stderr as the reason; anything else (another
/// status, a signal, a timeout, a spawn failure, oversize output) → failure.
pub(crate) async fn run(call: CommandCall<'_>, input: &HookInput, payload: &[u8]) -> HookStatus {
    let working_dir = match resolve_working_dir(call.working_dir, input) {
        Ok(dir) => dir,
        Err(e) => return HookStatus::Failed(e),
    };
    let mut env = match expand_env(call.env) {
        Ok(env) => env,
        Err(e) => return HookStatus::Failed(e),
    };
    env.push(("HOOKGATE_EVENT".into(), call.contract.event.name().into()));
    env.push(("HOOKGATE_HOOK_ID".into(), call.id.into()));
    let program = match call.args {
        Some(args) => Program::Exec {
            program: call.command.to_owned(),
            args: args.to_vec(),
        },
        None => Program::Shell {
            script: call.command.to_owned(),
            shell: call.shell.to_path_buf(),
        },
    };
    let spec = CommandSpec {
        program,
        env,
        working_dir,
    };
    match run_command(&spec, payload, &call.limits).await {
        Err(err) => HookStatus::Failed(err.to_string()),
        Ok(out) => match out.exit {
            ExitKind::Code(0) => interpret_output(call.contract, &out.stdout, call.strict),
            ExitKind::Code(2) => {
                HookStatus::Blocked(String::from_utf8_lossy(&out.stderr).trim().to_owned())
            }
            ExitKind::Code(code) => {
                let stderr = preview(&out.stderr, 300);
                HookStatus::Failed(if stderr.is_empty() {
                    format!("exited with status {code}")
                } else {
                    format!("exited with status {code}: {stderr}")
                })
            }
            ExitKind::Signal(signal) => HookStatus::Failed(format!("killed by signal {signal}")),
        },
    }
}
