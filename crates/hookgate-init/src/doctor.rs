//! `hookgate doctor`: is the hook installed where the agent reads it, will the agent run it, and
//! does it answer?
//!
//! Every failure mode checked here is one that makes a guard govern nothing without a word: a file
//! the agent cannot parse, entries that point at a binary that moved, a Codex hook whose trust hash
//! does not match, hooks switched off by a toggle, a hook that crashes or talks on stderr.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hookgate_core::AgentKind;
use serde_json::{Map, Value, json};

use crate::codex;
use crate::jsonfile;
use crate::paths::{self, physical};
use crate::plan::{codex_project_trusted, read};
use crate::spec::{self, Layout};
use crate::{InitOptions, Scope, Target};

/// One doctor finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked (`config`, `entries`, `executable`, `codex trust`, `probe: no opinion`, …).
    pub name: String,
    /// Whether it passed.
    pub ok: bool,
    /// What was found, with the file or command concerned.
    pub detail: String,
}

fn check(name: &str, ok: bool, detail: impl Into<String>) -> Check {
    Check {
        name: name.to_owned(),
        ok,
        detail: detail.into(),
    }
}

/// Checks the installation for `target`. Stops early when a later check would only repeat an
/// earlier failure (no file, no entries).
pub fn doctor(target: &Target, opts: &InitOptions) -> Vec<Check> {
    let mut out = Vec::new();
    let agent = target.agent;
    let path = match paths::config_path(target, &opts.homes) {
        Ok(p) => p,
        Err(e) => {
            out.push(check("config", false, e.to_string()));
            return out;
        }
    };
    let root = match read(&path).and_then(|text| match text {
        None => Ok(None),
        Some(text) => jsonfile::parse(&path, Some(&text)).map(Some),
    }) {
        Ok(Some(root)) => root,
        Ok(None) => {
            out.push(check(
                "config",
                false,
                format!(
                    "{} does not exist: run `hookgate init {}`",
                    path.display(),
                    agent.as_str()
                ),
            ));
            return out;
        }
        Err(e) => {
            out.push(check("config", false, e.to_string()));
            return out;
        }
    };
    out.push(check("config", true, format!("{} parses", path.display())));

    let ours = our_handlers(&root, agent, &opts.hookgate_bin);
    let missing: Vec<&str> = spec::events(agent)
        .iter()
        .map(|e| e.name)
        .filter(|name| !ours.iter().any(|(ev, _, _)| ev == name))
        .collect();
    if ours.is_empty() {
        out.push(check(
            "entries",
            false,
            format!(
                "no hookgate entry in {}: run `hookgate init {}`",
                path.display(),
                agent.as_str()
            ),
        ));
        return out;
    }
    let stale = spec::events(agent).iter().any(|event| {
        let want = spec::handler(agent, event, opts);
        ours.iter()
            .any(|(ev, _, h)| *ev == event.name && *h != want)
    });
    let pre_tool = spec::events(agent)[0].name;
    out.push(check(
        "entries",
        !missing.contains(&pre_tool),
        if missing.is_empty() {
            format!(
                "{} events registered{}",
                ours.len(),
                if stale {
                    " (some differ from what `hookgate init` would write now; run it again to update)"
                } else {
                    ""
                }
            )
        } else {
            format!("missing events: {}", missing.join(", "))
        },
    ));

    if let Some((_, _, handler)) = ours.iter().find(|(ev, _, _)| *ev == pre_tool) {
        out.push(timeout_check(agent, handler, opts.guard_deadline_ms));
    }

    // Every program our entries run must exist and be executable (a missing hook binary is a
    // silent allow in Claude and Codex, and a deny of everything in Gemini and Copilot).
    let mut programs: Vec<String> = ours
        .iter()
        .filter_map(|(_, _, h)| spec::handler_argv(h)?.into_iter().next())
        .collect();
    programs.sort();
    programs.dedup();
    for program in &programs {
        let (ok, detail) = executable(Path::new(program));
        out.push(check("executable", ok, detail));
    }

    agent_toggles(&mut out, target, opts, &root, &path);

    if opts.probe_hook
        && let Some((_, _, handler)) = ours.iter().find(|(ev, _, _)| *ev == pre_tool)
    {
        probe(
            &mut out,
            agent,
            handler,
            &probe_dir(target),
            opts.timeout_secs,
        );
    }
    out
}

/// Whether hookgate's hooks are configured for `target` (its file parses and holds at least
/// one handler of ours): how `doctor` finds user-level installs without reporting every agent
/// the user merely has settings for.
pub fn is_installed(target: &Target, opts: &InitOptions) -> bool {
    let Ok(path) = paths::config_path(target, &opts.homes) else {
        return false;
    };
    match read(&path) {
        Ok(Some(text)) => jsonfile::parse(&path, Some(&text))
            .is_ok_and(|root| !our_handlers(&root, target.agent, &opts.hookgate_bin).is_empty()),
        _ => false,
    }
}

/// Our handlers as (event, matcher, handler).
fn our_handlers(
    root: &Map<String, Value>,
    agent: AgentKind,
    bin: &Path,
) -> Vec<(String, Option<String>, Value)> {
    match spec::layout(agent) {
        Layout::Nested => jsonfile::locate(root, agent, bin)
            .into_iter()
            .filter(|l| l.ours)
            .map(|l| (l.event, l.matcher, l.handler))
            .collect(),
        Layout::Flat => root
            .get("hooks")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .flat_map(|(event, hs)| {
                hs.as_array()
                    .into_iter()
                    .flatten()
                    .filter(|h| spec::is_ours(h, agent, bin))
                    .map(|h| (event.clone(), None, h.clone()))
            })
            .collect(),
    }
}

fn executable(program: &Path) -> (bool, String) {
    match std::fs::metadata(program) {
        Ok(meta) if meta.is_file() => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt as _;
                if meta.permissions().mode() & 0o111 == 0 {
                    return (false, format!("{} is not executable", program.display()));
                }
            }
            (true, format!("{} exists", program.display()))
        }
        Ok(_) => (false, format!("{} is not a file", program.display())),
        Err(e) => (false, format!("{}: {e}", program.display())),
    }
}

/// The agent switches that silently turn hooks off, and Codex's trust.
fn agent_toggles(
    out: &mut Vec<Check>,
    target: &Target,
    opts: &InitOptions,
    root: &Map<String, Value>,
    path: &Path,
) {
    match target.agent {
        AgentKind::Claude | AgentKind::Copilot => {
            if target.agent == AgentKind::Copilot {
                copilot_folder_trust(out, target, opts);
            }
            let off = root.get("disableAllHooks") == Some(&Value::Bool(true));
            out.push(check(
                "hooks enabled",
                !off,
                if off {
                    format!("disableAllHooks is true in {}", path.display())
                } else {
                    "no disableAllHooks in this file".to_owned()
                },
            ));
        }
        AgentKind::Gemini => {
            let hc = root.get("hooksConfig");
            let off = hc.and_then(|h| h.get("enabled")) == Some(&Value::Bool(false));
            let disabled = hc
                .and_then(|h| h.get("disabled"))
                .and_then(Value::as_array)
                .is_some_and(|d| d.iter().any(|n| n.as_str() == Some("hookgate")));
            out.push(check(
                "hooks enabled",
                !off && !disabled,
                if off {
                    format!("hooksConfig.enabled is false in {}", path.display())
                } else if disabled {
                    format!("hooksConfig.disabled lists hookgate in {}", path.display())
                } else {
                    "hooksConfig does not disable hookgate".to_owned()
                },
            ));
        }
        AgentKind::Codex => codex_checks(out, target, opts, root, path),
        AgentKind::Cursor => {}
    }
}

/// Copilot CLI runs a project's `.github/hooks/` only in a folder it trusts; elsewhere it skips
/// them without a word (1.0.102, `-p` and interactive alike), so the guard would govern nothing.
/// Trust is the `trustedFolders` list in `$COPILOT_HOME/config.json` (default
/// `~/.copilot/config.json`, a JSON file with `//` comment lines that Copilot manages); `copilot
/// config` refuses that key, so the fix is the interactive trust prompt or an edit of the file.
/// Only an exact (physical) path counts here: whether Copilot extends a folder's trust to its
/// subfolders was not established, and a doctor must not call a guard on when it may be off.
fn copilot_folder_trust(out: &mut Vec<Check>, target: &Target, opts: &InitOptions) {
    let Scope::Project(dir) = &target.scope else {
        return;
    };
    let dir = physical(dir);
    let config = match paths::copilot_config_json(&opts.homes) {
        Ok(p) => p,
        Err(e) => {
            out.push(check("copilot folder trust", false, e.to_string()));
            return;
        }
    };
    let trusted = match read(&config) {
        Ok(None) => Ok(Vec::new()),
        Ok(Some(text)) => copilot_trusted_folders(&config, &text),
        Err(e) => Err(e.to_string()),
    };
    let fix = format!(
        "run `hookgate doctor copilot --fix`, or start `copilot` in {} and answer its trust \
         prompt with \"Yes, and remember\", or add \"{}\" to the \"trustedFolders\" array in {}",
        dir.display(),
        dir.display(),
        config.display()
    );
    match trusted {
        Err(e) => out.push(check(
            "copilot folder trust",
            false,
            format!("{e}; Copilot may not trust {}: {fix}", dir.display()),
        )),
        Ok(list) => {
            let ok = list.iter().any(|f| physical(Path::new(f)) == dir);
            out.push(check(
                "copilot folder trust",
                ok,
                if ok {
                    format!(
                        "{} is in trustedFolders of {}",
                        dir.display(),
                        config.display()
                    )
                } else {
                    format!(
                        "{} is not a trusted folder: Copilot skips its .github/hooks/ there \
                         (without a warning); {fix}",
                        dir.display()
                    )
                },
            ));
        }
    }
}

/// The `trustedFolders` of Copilot's `config.json`, a JSON file with `//` comment lines (Copilot
/// writes "This file is managed automatically."). Anything malformed is an error, not an
/// empty list.
fn copilot_trusted_folders(path: &Path, text: &str) -> Result<Vec<String>, String> {
    let root = jsonfile::parse(path, Some(text)).map_err(|e| e.to_string())?;
    match root.get("trustedFolders") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => Ok(items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()),
        Some(_) => Err(format!(
            "{}: trustedFolders is not an array",
            path.display()
        )),
    }
}

fn codex_checks(
    out: &mut Vec<Check>,
    target: &Target,
    opts: &InitOptions,
    root: &Map<String, Value>,
    path: &Path,
) {
    let trust_path = match paths::codex_config_toml(target, &opts.homes) {
        Ok(p) => p,
        Err(e) => {
            out.push(check("codex trust", false, e.to_string()));
            return;
        }
    };
    let doc =
        match read(&trust_path).and_then(|text| codex::parse_toml(&trust_path, text.as_deref())) {
            Ok(doc) => doc,
            Err(e) => {
                out.push(check("codex trust", false, e.to_string()));
                return;
            }
        };
    let features = doc.get("features");
    let feature_off = ["hooks", "codex_hooks"].iter().find(|k| {
        features
            .and_then(|f| f.get(**k))
            .and_then(toml_edit::Item::as_bool)
            == Some(false)
    });
    out.push(check(
        "hooks enabled",
        feature_off.is_none(),
        match feature_off {
            Some(k) => format!("[features] {k} = false in {}", trust_path.display()),
            None => "hooks feature not disabled".to_owned(),
        },
    ));

    let mut problems = Vec::new();
    let mut trusted = 0;
    for l in jsonfile::locate(root, AgentKind::Codex, &opts.hookgate_bin)
        .iter()
        .filter(|l| l.ours)
    {
        let key = codex::codex_trust_key(path, &l.event, l.group, l.index);
        let Some(want) = codex::codex_trust_hash(&l.event, l.matcher.as_deref(), &l.handler) else {
            continue;
        };
        match codex::state_entry(&doc, &key) {
            None | Some((None, _)) => problems.push(format!("{key}: not trusted")),
            Some((_, Some(false))) => problems.push(format!("{key}: disabled")),
            Some((Some(have), _)) if have != want => {
                problems.push(format!(
                    "{key}: trusted hash {have} is not the current {want}"
                ));
            }
            Some(_) => trusted += 1,
        }
    }
    out.push(check(
        "codex trust",
        problems.is_empty(),
        if problems.is_empty() {
            format!("{trusted} hooks trusted in {}", trust_path.display())
        } else {
            format!(
                "{} (run `hookgate doctor codex --fix` or `hookgate init codex` again, or review \
                 them with /hooks in Codex)",
                problems.join("; ")
            )
        },
    ));
    if let Scope::Project(dir) = &target.scope {
        let dir = physical(dir);
        let ok = codex_project_trusted(&doc, &dir);
        out.push(check(
            "codex project trust",
            ok,
            if ok {
                format!("{} is trusted", dir.display())
            } else {
                format!(
                    "{} is not trusted: Codex ignores its .codex/ folder; run `hookgate doctor \
                     codex --fix` (it adds [projects.\"{}\"] trust_level = \"trusted\" to {}) or \
                     trust it when Codex asks",
                    dir.display(),
                    dir.display(),
                    trust_path.display()
                )
            },
        ));
    }
}

/// Sample pre-tool payloads for `command`, shaped like the ones the real CLIs sent
/// (`shared/e2e/payloads/`).
fn sample_payload(agent: AgentKind, cwd: &Path, command: &str) -> Value {
    let cwd = cwd.to_string_lossy();
    match agent {
        AgentKind::Claude => json!({
            "session_id": "hookgate-doctor", "transcript_path": "", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "hookgate doctor"},
            "tool_use_id": "toolu_hookgate_doctor"
        }),
        AgentKind::Codex => json!({
            "session_id": "hookgate-doctor", "turn_id": "hookgate-doctor",
            "transcript_path": null, "cwd": cwd, "hook_event_name": "PreToolUse",
            "model": "hookgate-doctor", "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "call_hookgate_doctor"
        }),
        AgentKind::Gemini => json!({
            "session_id": "hookgate-doctor", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00.000Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "hookgate doctor"}
        }),
        AgentKind::Copilot => json!({
            "sessionId": "hookgate-doctor", "timestamp": 1_767_225_600_000_u64, "cwd": cwd,
            "toolName": "bash", "toolArgs": {"command": command, "description": "hookgate doctor"}
        }),
        AgentKind::Cursor => json!({
            "conversation_id": "hookgate-doctor", "generation_id": "hookgate-doctor",
            "hook_event_name": "preToolUse", "workspace_roots": [cwd], "tool_name": "Shell",
            "tool_input": {"command": command}
        }),
    }
}

/// What a hook run produced.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

/// Runs a handler the way its agent would: exec form as program + args, shell form through
/// `sh -c`, with the handler's `env`.
fn run_handler(
    handler: &Value,
    cwd: &Path,
    stdin: &[u8],
    timeout: Duration,
) -> Result<Run, String> {
    let obj = handler.as_object().ok_or("handler is not an object")?;
    let exec = (
        obj.get("exec").or_else(|| obj.get("command")),
        obj.get("args").and_then(Value::as_array),
    );
    let mut cmd = if let (Some(Value::String(program)), Some(args)) = exec {
        let mut c = Command::new(program);
        c.args(args.iter().filter_map(Value::as_str));
        c
    } else {
        let line = ["command", "bash"]
            .iter()
            .find_map(|k| obj.get(*k)?.as_str())
            .ok_or("handler has no command")?;
        let mut c = Command::new("sh");
        c.arg("-c").arg(line);
        c
    };
    if let Some(env) = obj.get("env").and_then(Value::as_object) {
        for (k, v) in env {
            if let Some(v) = v.as_str() {
                cmd.env(k, v);
            }
        }
    }
    // A probe is doctor's call, not the agent's: it must not show up in the audit trail as
    // one (`log`, `stats`, `report` would count a denied force push nobody asked for).
    cmd.env("HOOKGATE_STORE", "off");
    let mut child = cmd
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut input = child.stdin.take();
    let payload = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        if let Some(mut i) = input.take() {
            let _ = i.write_all(&payload);
        }
    });
    let reader = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = reader(child.stdout.take().map(|p| Box::new(p) as _));
    let err = reader(child.stderr.take().map(|p| Box::new(p) as _));
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > timeout => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let _ = writer.join();
    Ok(Run {
        code: status.and_then(|s| s.code()),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

/// Whether a hook's answer is a deny in its agent's dialect (exit 2, or a deny decision).
fn is_deny(run: &Run) -> bool {
    if run.code == Some(2) {
        return true;
    }
    let Ok(v) = serde_json::from_str::<Value>(run.stdout.trim()) else {
        return false;
    };
    let s = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    [
        s(v.pointer("/hookSpecificOutput/permissionDecision")),
        s(v.get("permissionDecision")),
        s(v.get("permission")),
        s(v.get("decision")),
    ]
    .iter()
    .flatten()
    .any(|d| d == "deny" || d == "block")
}

/// Whether a hook's answer is "no opinion": exit 0, nothing on stderr, and empty stdout (Cursor's
/// fail-closed hooks may instead say `{}` or `{"permission":"allow"}`).
fn is_no_opinion(agent: AgentKind, run: &Run) -> bool {
    if run.code != Some(0) || !run.stderr.trim().is_empty() {
        return false;
    }
    let stdout = run.stdout.trim();
    stdout.is_empty()
        || (agent == AgentKind::Cursor
            && serde_json::from_str::<Value>(stdout).is_ok_and(|v| {
                v.as_object().is_some_and(Map::is_empty)
                    || v.get("permission").and_then(Value::as_str) == Some("allow")
            }))
}

fn describe(run: &Run) -> String {
    let clip = |s: &str| {
        let s = s.trim();
        if s.chars().count() > 200 {
            format!("{}…", s.chars().take(200).collect::<String>())
        } else {
            s.to_owned()
        }
    };
    if run.timed_out {
        return "timed out".to_owned();
    }
    format!(
        "exit {}, stdout {:?}, stderr {:?}",
        run.code
            .map_or_else(|| "by signal".to_owned(), |c| c.to_string()),
        clip(&run.stdout),
        clip(&run.stderr)
    )
}

/// A probe's expectation on a hook run.
type Expect = fn(AgentKind, &Run) -> bool;

fn probe(out: &mut Vec<Check>, agent: AgentKind, handler: &Value, cwd: &Path, timeout_secs: u32) {
    let timeout = Duration::from_secs(u64::from(timeout_secs.max(1)));
    let cases: [(&str, &str, Expect); 2] = [
        ("probe: no opinion", "ls", is_no_opinion),
        ("probe: deny", "rm -rf /", |_, r| is_deny(r)),
    ];
    for (name, command, expect) in cases {
        let payload = sample_payload(agent, cwd, command).to_string();
        match run_handler(handler, cwd, payload.as_bytes(), timeout) {
            Ok(run) => {
                let ok = !run.timed_out && expect(agent, &run);
                out.push(check(name, ok, format!("`{command}`: {}", describe(&run))));
            }
            Err(e) => out.push(check(name, false, format!("could not run the hook: {e}"))),
        }
    }
}

/// Where the probe runs: the project, or the home directory for a global install.
fn probe_dir(target: &Target) -> PathBuf {
    match &target.scope {
        Scope::Project(dir) => physical(dir),
        Scope::Global(home) => home.clone(),
    }
}

/// Whether the agent gives the pre-tool hook more time than the guard's deadline: a call the
/// guard is still judging when the agent's timeout cuts it is let through by every agent but
/// Cursor with `failClosed`, while the guard's own deadline answers deny. The timeout is read
/// in the agent's unit (Gemini: milliseconds, Copilot: `timeoutSec`), its documented default
/// when absent.
fn timeout_check(agent: AgentKind, handler: &Value, deadline_ms: u64) -> Check {
    let field = |name: &str| handler.get(name).and_then(Value::as_u64);
    let (timeout_ms, fails_closed) = match agent {
        AgentKind::Claude | AgentKind::Codex => {
            (Some(field("timeout").unwrap_or(600) * 1000), false)
        }
        AgentKind::Gemini => (Some(field("timeout").unwrap_or(60_000)), false),
        AgentKind::Copilot => (Some(field("timeoutSec").unwrap_or(30) * 1000), false),
        AgentKind::Cursor => (
            field("timeout").map(|s| s * 1000),
            handler.get("failClosed").and_then(Value::as_bool) == Some(true),
        ),
    };
    let check = |ok: bool, detail: String| Check {
        name: "timeout".to_owned(),
        ok,
        detail,
    };
    match timeout_ms {
        _ if fails_closed => check(
            true,
            "the agent blocks the call when the hook times out (failClosed)".to_owned(),
        ),
        None => check(
            true,
            "no timeout set: the agent's default applies".to_owned(),
        ),
        Some(ms) if ms > deadline_ms => check(
            true,
            format!("{ms} ms, above the guard's deadline ({deadline_ms} ms)"),
        ),
        Some(ms) => check(
            false,
            format!(
                "{ms} ms is not above the guard's deadline ({deadline_ms} ms, $HOOKGATE_DEADLINE_MS): \
                 a call still being judged when the agent gives up is let through; run \
                 `hookgate init {} --timeout N` with a longer timeout or lower the deadline",
                agent.as_str()
            ),
        ),
    }
}
