//! `hookgate config check`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hookgate_core::EventId;
use hookgate_engine::config::{ConfigNote, Discovery, load_with_notes};
use hookgate_engine::{Engine, HookEntry, RuntimeSpec};
use serde::Serialize;

use crate::{Failure, print, print_human, to_json};

#[derive(Serialize)]
struct Report<'a> {
    files: Vec<String>,
    /// The project's `.hookgate/` and its trust (absent with explicit paths or no project).
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<ProjectReport>,
    /// What untrusted project config asked for and did not get.
    notes: &'a [ConfigNote],
    settings: &'a hookgate_engine::Settings,
    events: Vec<EventHooks<'a>>,
}

#[derive(Serialize)]
struct ProjectReport {
    dir: PathBuf,
    trusted: bool,
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
        RuntimeSpec::Model { model, .. } => format!("model {model}"),
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
    let loaded = load_with_notes(paths, &discovery)?;
    let project = match (&discovery.project_dir, paths.is_empty()) {
        (Some(dir), true) if files.iter().any(|f| Path::new(f).starts_with(dir)) => {
            Some(ProjectReport {
                dir: dir.clone(),
                trusted: discovery.project_trusted,
            })
        }
        _ => None,
    };
    let notes = loaded.notes;
    let config = loaded.config;
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
            project,
            notes: &notes,
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
    if let Some(p) = &project {
        let _ = writeln!(
            s,
            "project config: {} ({})",
            p.dir.display(),
            if p.trusted {
                "trusted"
            } else {
                "untrusted: may only tighten; `hookgate trust` to apply it as written"
            }
        );
    }
    for note in &notes {
        let _ = writeln!(s, "note: {note}");
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
    print_human(&s)?;
    Ok(0)
}
