//! `hookgate config check`.

use std::fmt::Write as _;
use std::path::PathBuf;

use hookgate_core::EventId;
use hookgate_engine::config::{Discovery, HooksConfig, load_with_notes};
use hookgate_engine::{Engine, HookEntry, RuntimeSpec};
use hookgate_guard::{ConfigPart, IgnoredItem};
use hookgate_project::TrustState;
use serde::Serialize;

use crate::guard::{EXIT_IGNORED, view_options};
use crate::{Failure, print, print_human, to_json};

#[derive(Serialize)]
struct Report<'a> {
    files: Vec<String>,
    /// The project's `.hookgate/` and its trust (absent with explicit paths or no project).
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<ProjectReport>,
    /// What of the config was not applied, and why: from an untrusted project, every hook
    /// that runs code or has effects, its settings, and every file or entry that does not
    /// load (`unloadable`).
    ignored: &'a [IgnoredItem],
    settings: &'a hookgate_engine::Settings,
    events: Vec<EventHooks<'a>>,
}

#[derive(Serialize)]
struct ProjectReport {
    dir: PathBuf,
    trusted: bool,
    trust: TrustState,
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

/// The config `config check` shows: the files, the project, the effective hooks and what
/// was ignored.
struct View {
    files: Vec<String>,
    project: Option<ProjectReport>,
    config: HooksConfig,
    ignored: Vec<IgnoredItem>,
}

/// With no paths, the hook's own view ([`hookgate_guard::effective_hooks`]: the same
/// discovery, snapshot, trust and dropping of untrusted config that does not load); with
/// paths, those files, trusted (the user named them), where any error is an error.
fn view(paths: &[PathBuf]) -> Result<View, Failure> {
    let cwd = std::env::current_dir().map_err(|e| Failure(format!("no current directory: {e}")))?;
    if paths.is_empty() {
        let effective = hookgate_guard::effective_hooks(&view_options(&cwd), &cwd)?;
        let files: Vec<String> =
            Discovery::for_project(&effective.project, crate::guard::config_dir())
                .files()?
                .into_iter()
                .map(|(_, p)| p.display().to_string())
                .collect();
        let project = effective
            .project
            .hookgate_dir
            .clone()
            .map(|dir| ProjectReport {
                dir,
                trusted: effective.trust.is_trusted(),
                trust: effective.trust,
            });
        return Ok(View {
            files,
            project,
            config: effective.hooks.map(|l| l.config).unwrap_or_default(),
            ignored: effective.ignored,
        });
    }
    for path in paths {
        if !path.exists() {
            return Err(Failure(format!(
                "{}: no such file or directory",
                path.display()
            )));
        }
    }
    let loaded = load_with_notes(paths, &Discovery::default())?;
    Ok(View {
        files: paths.iter().map(|p| p.display().to_string()).collect(),
        project: None,
        config: loaded.config,
        ignored: loaded
            .notes
            .iter()
            .map(|note| IgnoredItem {
                part: ConfigPart::Hooks,
                line: note.to_string(),
                unloadable: note.unloadable,
            })
            .collect(),
    })
}

/// `hookgate config check`. Exit 0, or [`EXIT_IGNORED`] when an untrusted project file or
/// entry does not load and is ignored (as the hook ignores it).
pub(crate) fn check(paths: &[PathBuf], json: bool) -> Result<u8, Failure> {
    let View {
        files,
        project,
        config,
        ignored,
    } = view(paths)?;
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
    let unloadable = ignored.iter().filter(|i| i.unloadable).count();
    let code = if unloadable == 0 { 0 } else { EXIT_IGNORED };
    if json {
        print(&to_json(&Report {
            files,
            project,
            ignored: &ignored,
            settings: &config.settings,
            events,
        })?)?;
        return Ok(code);
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
    for item in &ignored {
        let _ = writeln!(s, "ignored: {}", item.line);
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
    s.push_str(&crate::guard::ignored_line(unloadable));
    print_human(&s)?;
    Ok(code)
}
