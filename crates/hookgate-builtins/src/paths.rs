//! `allow_paths`, `deny_paths`, `redirect_path`: canonical paths compared by component.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hookgate_core::{Decision, EventId, HookInput, HookResponse};
use hookgate_engine::{Builtin, BuiltinCall, BuiltinRegistry};
use hookgate_paths::{Resolved, is_within, normalize, resolve};
use serde_json::{Map, Value};

use crate::{ArgsError, BuiltinError, Environment, PATH_FIELDS, is_shell_tool};

/// The path a file tool acts on: `(field, raw path)`.
fn target(input: &HookInput) -> Option<(&'static str, &str)> {
    if input.tool_name.as_deref().is_some_and(is_shell_tool) {
        return None;
    }
    let args = input.tool_input.as_ref()?;
    PATH_FIELDS.iter().find_map(|field| {
        args.get(*field)
            .and_then(Value::as_str)
            .map(|p| (*field, p))
    })
}

fn cwd(input: &HookInput) -> PathBuf {
    if input.cwd.is_empty() {
        PathBuf::from("/")
    } else {
        PathBuf::from(&input.cwd)
    }
}

/// The roots in `args`, resolved: one that cannot be is a refused argument (a root list with
/// a hole in it would silently guard less).
fn resolve_all(
    raw: &[String],
    cwd: &Path,
    home: Option<&Path>,
) -> Result<Vec<Resolved>, ArgsError> {
    raw.iter()
        .enumerate()
        .map(|(i, r)| {
            resolve(r, cwd, home)
                .map_err(|e| ArgsError::value(i, r, format!("cannot be resolved: {e}")))
        })
        .collect()
}

fn needs_paths(args: &[String]) -> Result<(), ArgsError> {
    if args.is_empty() {
        return Err(ArgsError::shape("needs one or more paths in `args`"));
    }
    match args.iter().position(|a| a.trim().is_empty()) {
        Some(i) => Err(ArgsError::value(i, &args[i], "is an empty path")),
        None => Ok(()),
    }
}

/// Whether `target` lies in `root`, in either form: lexically (as named) or physically (after
/// symlinks). Deny lists use "either"; allow lists require the physical form to be inside.
fn inside_either(target: &Resolved, root: &Resolved) -> bool {
    is_within(&target.physical, &root.physical)
        || is_within(&target.lexical, &root.lexical)
        || is_within(&target.physical, &root.lexical)
        || is_within(&target.lexical, &root.physical)
}

fn allow_paths(
    call: &BuiltinCall,
    env: &Environment,
) -> Result<Option<HookResponse>, BuiltinError> {
    let Some((_, raw)) = target(&call.input) else {
        return Ok(None);
    };
    let cwd = cwd(&call.input);
    let home = env.home.clone();
    let roots = resolve_all(&call.args, &cwd, home.as_deref())?;
    let resolved = match resolve(raw, &cwd, home.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            return Ok(crate::respond(
                Decision::Deny,
                format!("path `{raw}` cannot be resolved ({e}); not in allowed list"),
            ));
        }
    };
    if resolved.escaped_root {
        return Ok(crate::respond(
            Decision::Deny,
            format!("path `{raw}` climbs above the root directory"),
        ));
    }
    // INVARIANT: the *physical* path must be inside an allowed root, so a symlink inside the
    // sandbox pointing outside it does not pass.
    if roots
        .iter()
        .any(|root| is_within(&resolved.physical, &root.physical))
    {
        return Ok(None);
    }
    Ok(crate::respond(
        Decision::Deny,
        format!("path not in allowed list: {}", resolved.physical.display()),
    ))
}

fn deny_paths(call: &BuiltinCall, env: &Environment) -> Result<Option<HookResponse>, BuiltinError> {
    let Some((_, raw)) = target(&call.input) else {
        return Ok(None);
    };
    let cwd = cwd(&call.input);
    let home = env.home.clone();
    let roots = resolve_all(&call.args, &cwd, home.as_deref())?;
    let resolved = match resolve(raw, &cwd, home.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            return Ok(crate::respond(
                Decision::Deny,
                format!("path `{raw}` cannot be resolved ({e})"),
            ));
        }
    };
    match roots
        .iter()
        .zip(&call.args)
        .find(|(root, _)| inside_either(&resolved, root))
    {
        Some((_, listed)) => Ok(crate::respond(
            Decision::Deny,
            format!(
                "path is in denied list: {} (under `{listed}`)",
                resolved.physical.display()
            ),
        )),
        None => Ok(None),
    }
}

fn redirect_path(
    call: &BuiltinCall,
    env: &Environment,
) -> Result<Option<HookResponse>, BuiltinError> {
    let Some((field, raw)) = target(&call.input) else {
        return Ok(None);
    };
    let [from, to] = call.args.as_slice() else {
        return Err(ArgsError::shape(REDIRECT_SHAPE).into());
    };
    let cwd = cwd(&call.input);
    let home = env.home.clone();
    let from = normalize(from, &cwd, home.as_deref()).path;
    let to = normalize(to, &cwd, home.as_deref()).path;
    let path = normalize(raw, &cwd, home.as_deref()).path;
    let Ok(rest) = path.strip_prefix(&from) else {
        return Ok(None);
    };
    let redirected = if rest.as_os_str().is_empty() {
        to
    } else {
        to.join(rest)
    };
    let mut rewrite = Map::new();
    rewrite.insert(
        field.to_owned(),
        Value::String(redirected.display().to_string()),
    );
    let event = EventId::from_native(&call.input.hook_event_name);
    let permission = event.is_some_and(|e| e.contract().permission);
    Ok(Some(HookResponse {
        decision: permission.then_some(Decision::Allow),
        reason: Some(format!(
            "redirected {} to {}",
            path.display(),
            redirected.display()
        )),
        updated_input: Some(rewrite),
        ..HookResponse::default()
    }))
}

type Guard = fn(&BuiltinCall, &Environment) -> Result<Option<HookResponse>, BuiltinError>;

fn builtin(
    env: &Arc<Environment>,
    description: &'static str,
    events: &'static [EventId],
    validate: hookgate_engine::ArgsValidator,
    guard: Guard,
) -> Builtin {
    Builtin {
        description,
        events,
        validate,
        run: {
            let env = Arc::clone(env);
            Arc::new(move |call: BuiltinCall| {
                let env = Arc::clone(&env);
                Box::pin(async move { guard(&call, &env) })
            })
        },
    }
}

const REDIRECT_SHAPE: &str = "needs `args: [FROM, TO]` (two non-empty paths)";

pub(crate) fn register(registry: &mut BuiltinRegistry, env: &Arc<Environment>) {
    let guards: &'static [EventId] = &[EventId::PreToolUse, EventId::ToolGuard];
    registry.register(
        "allow_paths",
        builtin(env, "Denies file-tool paths outside the `args` roots (canonical, symlink-aware, by component).", guards, needs_paths, allow_paths),
    );
    registry.register(
        "deny_paths",
        builtin(env, "Denies file-tool paths inside any of the `args` roots (canonical, symlink-aware, by component).", guards, needs_paths, deny_paths),
    );
    registry.register(
        "redirect_path",
        builtin(
            env,
            "args: [FROM, TO]: rewrites a file tool's path from under FROM to under TO, keeping every other input key.",
            &[EventId::PreToolUse, EventId::ToolInputTransform],
            |args| match args {
                [from, to] if !from.trim().is_empty() && !to.trim().is_empty() => Ok(()),
                _ => Err(ArgsError::shape(REDIRECT_SHAPE)),
            },
            redirect_path,
        ),
    );
}
