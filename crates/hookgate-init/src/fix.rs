//! `hookgate doctor --fix`: the trust an agent needs before it runs a project's hooks, written
//! where the user would otherwise write it by hand.
//!
//! Codex ignores a project's `.codex/` unless `[projects."<dir>"] trust_level = "trusted"` is in
//! its user `config.toml`, and runs a hook only when `[hooks.state]` holds its hash; Copilot CLI
//! skips `.github/hooks/` unless the folder is in `trustedFolders` of its `config.json`. Each is
//! silent, so the guard would govern nothing. The fix is a [`Plan`] like `init`'s: shown as a
//! diff, applied atomically, editing the files in place (comments and formatting kept).

use std::path::Path;

use hookgate_core::AgentKind;
use serde_json::Value;

use crate::paths::{self, physical};
use crate::plan::{FileChange, Plan, codex_project_trusted, read};
use crate::{InitError, InitOptions, Scope, Target, codex, jsonfile, plan_install};

/// The plan that gives `target`'s agent the trust it needs to run hookgate's hooks; empty when
/// nothing is missing or the agent has no such gate (Claude, Gemini, Cursor, or a global
/// install of Copilot).
pub fn plan_trust_fix(target: &Target, opts: &InitOptions) -> Result<Plan, InitError> {
    match target.agent {
        AgentKind::Codex => codex_fix(target, opts),
        AgentKind::Copilot => copilot_fix(target, opts),
        AgentKind::Claude | AgentKind::Gemini | AgentKind::Cursor => Ok(Plan::default()),
    }
}

/// Hook trust (what `init codex` writes: the current hash of each of our hooks) and, for a
/// project, the project's own trust, in one change of `config.toml`.
fn codex_fix(target: &Target, opts: &InitOptions) -> Result<Plan, InitError> {
    let mut plan = plan_install(target, opts)?;
    let Scope::Project(dir) = &target.scope else {
        return Ok(plan);
    };
    let dir = physical(dir);
    let toml_path = paths::codex_config_toml(target, &opts.homes)?;
    // Start from what the install plan already writes to config.toml, if anything.
    let planned = plan.files.iter().position(|f| f.path == toml_path);
    let current = match planned {
        Some(i) => plan.files[i].after.clone(),
        None => read(&toml_path)?,
    };
    let mut doc = codex::parse_toml(&toml_path, current.as_deref())?;
    if codex_project_trusted(&doc, &dir) {
        return Ok(plan);
    }
    let key = dir.to_string_lossy().into_owned();
    let projects = doc
        .entry("projects")
        .or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        })
        .as_table_mut()
        .ok_or_else(|| InitError::Shape {
            path: toml_path.clone(),
            key: "projects".into(),
            expected: "a table",
        })?;
    let project = projects
        .entry(&key)
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()))
        .as_table_mut()
        .ok_or_else(|| InitError::Shape {
            path: toml_path.clone(),
            key: format!("projects.\"{key}\""),
            expected: "a table",
        })?;
    project.insert("trust_level", toml_edit::value("trusted"));
    let after = Some(doc.to_string());
    match planned {
        Some(i) => plan.files[i].after = after,
        None => plan.files.insert(
            0,
            FileChange {
                path: toml_path,
                before: current,
                after,
            },
        ),
    }
    plan.notes.clear();
    Ok(plan)
}

/// The project folder added to `trustedFolders` in Copilot's `config.json` (the file Copilot
/// manages; its comment header and key order stay).
fn copilot_fix(target: &Target, opts: &InitOptions) -> Result<Plan, InitError> {
    let Scope::Project(dir) = &target.scope else {
        return Ok(Plan::default());
    };
    let dir = physical(dir);
    let path = paths::copilot_config_json(&opts.homes)?;
    let before = read(&path)?;
    let original = jsonfile::parse(&path, before.as_deref())?;
    let mut root = original.clone();
    let folders = root
        .entry("trustedFolders")
        .or_insert_with(|| Value::Array(Vec::new()));
    if folders.is_null() {
        *folders = Value::Array(Vec::new());
    }
    let list = folders.as_array_mut().ok_or_else(|| InitError::Shape {
        path: path.clone(),
        key: "trustedFolders".into(),
        expected: "an array",
    })?;
    let already = list
        .iter()
        .filter_map(Value::as_str)
        .any(|f| physical(Path::new(f)) == dir);
    if already {
        return Ok(Plan::default());
    }
    list.push(Value::String(dir.to_string_lossy().into_owned()));
    let after = jsonfile::render(&path, before.as_deref(), &original, &root)?;
    Ok(Plan {
        files: vec![FileChange {
            path,
            before,
            after: Some(after),
        }],
        notes: Vec::new(),
        warnings: Vec::new(),
    })
}
