//! `hookgate config check`.

use std::fmt::Write as _;
use std::path::PathBuf;

use hookgate_core::EventId;
use hookgate_engine::config::{Discovery, load};
use hookgate_engine::{Engine, HookEntry, RuntimeSpec};
use serde::Serialize;

use crate::{Failure, print, to_json};

#[derive(Serialize)]
struct Report<'a> {
    files: Vec<String>,
    settings: &'a hookgate_engine::Settings,
    events: Vec<EventHooks<'a>>,
}

#[derive(Serialize)]
struct EventHooks<'a> {
    event: EventId,
    hooks: Vec<&'a HookEntry>,
}

fn describe(runtime: &RuntimeSpec) -> String {
    match runtime {
        RuntimeSpec::InProcess { handler } => format!("in_process {handler}"),
        RuntimeSpec::Command {
            command,
            args: Some(args),
            ..
        } => format!("exec {command} {}", args.join(" ")),
        RuntimeSpec::Command {
            command,
            args: None,
            ..
        } => format!("sh -c {command:?}"),
        RuntimeSpec::Http { url, method, .. } => format!("http {method} {url}"),
        RuntimeSpec::Builtin { name, args, .. } if args.is_empty() => format!("builtin {name}"),
        RuntimeSpec::Builtin { name, args, .. } => format!("builtin {name} {}", args.join(" ")),
    }
}

pub(crate) fn check(paths: &[PathBuf], json: bool) -> Result<u8, Failure> {
    let cwd = std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?;
    let discovery = Discovery::from_env(&cwd);
    let files: Vec<String> = if paths.is_empty() {
        discovery
            .files()?
            .into_iter()
            .map(|(_, p)| p.display().to_string())
            .collect()
    } else {
        paths.iter().map(|p| p.display().to_string()).collect()
    };
    for path in paths {
        if !path.exists() {
            return Err(Failure(format!(
                "{}: no such file or directory",
                path.display()
            )));
        }
    }
    let config = load(paths, &discovery)?;
    // Building the engine validates what loading cannot: built-in names and arguments.
    let engine = Engine::with_builtins(config, hookgate_builtins::registry())?;
    let config = engine.config();
    let mut events: Vec<EventHooks<'_>> = Vec::new();
    for event in EventId::ALL {
        let mut hooks: Vec<&HookEntry> = config
            .entries
            .iter()
            .filter(|e| e.event == *event)
            .collect();
        hooks.sort_by_key(|e| e.priority);
        if !hooks.is_empty() {
            events.push(EventHooks {
                event: *event,
                hooks,
            });
        }
    }
    if json {
        print(&to_json(&Report {
            files,
            settings: &config.settings,
            events,
        })?)?;
        return Ok(0);
    }
    let mut s = String::new();
    if files.is_empty() {
        s.push_str("no config files found\n");
    } else {
        s.push_str("files:\n");
        for f in &files {
            let _ = writeln!(s, "  {f}");
        }
    }
    let st = &config.settings;
    let _ = writeln!(
        s,
        "settings: default_timeout_ms={} payload_max_bytes={} background_max_concurrency={} chain={:?} shell={}",
        st.default_timeout_ms,
        st.payload_max_bytes,
        st.background_max_concurrency,
        st.chain,
        st.shell.display()
    );
    for group in &events {
        let _ = writeln!(s, "{}:", group.event);
        for e in &group.hooks {
            let _ = write!(
                s,
                "  {}  priority={} {:?}/{:?}",
                e.id, e.priority, e.mode, e.capability
            );
            if let Some(m) = &e.matcher {
                let _ = write!(s, " matcher={m}");
            }
            if !e.enabled {
                s.push_str(" (disabled)");
            }
            let _ = writeln!(s, "  {}", describe(&e.runtime));
        }
    }
    let _ = writeln!(
        s,
        "ok: {} hook(s) on {} event(s)",
        config.entries.len(),
        events.len()
    );
    print(&s)?;
    Ok(0)
}
