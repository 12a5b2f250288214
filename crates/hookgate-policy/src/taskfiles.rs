//! Build and task files of more ecosystems, read as the command lines they make their runner
//! run (the formats [`crate::loaded`] judges beyond make, just, go-task and the JavaScript and
//! Python task files): `Procfile`, `dvc.yaml`, `pyproject.toml` task tables (poe, pdm, hatch,
//! taskipy, rye), `deno.json(c)` tasks, mise, cargo-make's `Makefile.toml`, `devbox.json`, Nix
//! shell hooks, CMake and Meson commands, Snakemake's `shell:` directives and Tilt's `local`
//! calls.
//!
//! Why: each of these is code run later — written in one call, run by `foreman start`,
//! `poe test` or `cmake -S .` in another — so `transitive-effect-analysis` judges its commands
//! both when the file is written and when its runner is about to load it.
//!
//! Each format is parsed (TOML with `toml`, JSON and JSONC with `serde_json`, YAML with the
//! untrusted-input reader, and small tokenizers for CMake argument lists, Meson and Starlark
//! calls and Nix strings); a text that does not parse contributes nothing, as a file that
//! cannot be read does. `names` selects the tasks a runner was told to run where the format
//! makes that unambiguous (`None`: every task, as for a file written whole).

use crate::loaded::quote;

/// Whether a task of this name is selected (`None` selects all).
fn wanted(names: Option<&[String]>, name: &str) -> bool {
    names.is_none_or(|n| n.iter().any(|x| x == name))
}

/// A command given as a string (a shell line) or a list of words (an argv, quoted).
fn line_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Array(a) => {
            let words: Vec<String> = a.iter().filter_map(|w| w.as_str().map(quote)).collect();
            (!words.is_empty()).then(|| words.join(" "))
        }
        _ => None,
    }
}

/// Each element of a string-or-list field as its own shell line (`run = ["a", "b"]` runs two
/// commands, unlike an argv).
fn lines_of(v: Option<&serde_json::Value>) -> Vec<String> {
    crate::workflow::strings(v)
}

/// TOML read as JSON, so the table walkers below serve TOML and JSON formats alike.
fn toml_json(text: &str) -> Option<serde_json::Value> {
    let table = text.parse::<toml::Table>().ok()?;
    serde_json::to_value(table).ok()
}

// ---------------------------------------------------------------------------------------
// Procfile

/// A `Procfile` (`name: command` per line, `#` comments): the commands of the processes
/// named (all when none is), each run by a shell.
pub(crate) fn procfile(text: &str, names: Option<&[String]>) -> Vec<String> {
    let names = names.filter(|n| !n.is_empty());
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            if l.starts_with('#') {
                return None;
            }
            let (name, cmd) = l.split_once(':')?;
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            (valid && wanted(names, name) && !cmd.trim().is_empty()).then(|| cmd.trim().to_owned())
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// dvc.yaml

/// The `cmd` of every stage of a `dvc.yaml` (a string or a list of commands; `foreach`/`do`
/// and `matrix` stages alike). `dvc repro TARGET` also runs the stages TARGET depends on
/// through its files, which the file does not name: every stage is judged.
pub(crate) fn dvc_stages(text: &str) -> Vec<String> {
    let Some(doc) = crate::workflow::untrusted_yaml(text) else {
        return Vec::new();
    };
    let Some(stages) = doc.get("stages").and_then(|s| s.as_object()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for stage in stages.values() {
        out.extend(lines_of(stage.get("cmd")));
        out.extend(lines_of(stage.get("do").and_then(|d| d.get("cmd"))));
    }
    out
}

// ---------------------------------------------------------------------------------------
// pyproject.toml

/// The command lines of `pyproject.toml`'s task tables: `[tool.poe.tasks]` (a string is a
/// `cmd`; `cmd`/`shell` tables; `sequence` lists; `ref` to another task), `[tool.pdm.scripts]`
/// (a string, `cmd` string or list, `shell`, `composite`, with `pre_`/`post_` hooks),
/// `[tool.hatch.envs.*]` (`scripts`, `pre-install-commands`, `post-install-commands`),
/// `[tool.taskipy.tasks]` (a string or `cmd`, with `pre_`/`post_`) and `[tool.rye.scripts]`
/// (a string, list, `cmd`, `chain`). `runner` picks one tool's table (all when `None`);
/// `script`/`call` entries name Python functions, judged where their modules are.
pub(crate) fn pyproject(text: &str, runner: Option<&str>, names: Option<&[String]>) -> Vec<String> {
    let Some(doc) = toml_json(text) else {
        return Vec::new();
    };
    let tool = |p: &[&str]| {
        p.iter()
            .try_fold(doc.get("tool")?, |v, k| v.get(*k))
            .and_then(|v| v.as_object())
    };
    let on = |r: &str| runner.is_none_or(|x| x == r);
    let mut out = Vec::new();
    // A table of named tasks: the selected ones, their `pre_`/`post_` hooks, and the tasks
    // they refer to by name (one level).
    let mut tasks = |table: Option<&serde_json::Map<String, serde_json::Value>>,
                     hooks: bool,
                     one: &TaskReader| {
        let Some(table) = table else { return };
        for (name, v) in table {
            let base = if hooks {
                name.strip_prefix("pre_")
                    .or_else(|| name.strip_prefix("post_"))
                    .unwrap_or(name)
            } else {
                name
            };
            if !wanted(names, name) && !wanted(names, base) {
                continue;
            }
            let (lines, refs) = one(v);
            out.extend(lines);
            for r in refs {
                match table.get(&r) {
                    Some(t) if names.is_some() => out.extend(one(t).0),
                    Some(_) => {}
                    None => out.push(r),
                }
            }
        }
    };
    if on("poe") {
        tasks(tool(&["poe", "tasks"]), false, &poe_task);
    }
    if on("pdm") {
        tasks(tool(&["pdm", "scripts"]), true, &pdm_script);
    }
    if on("taskipy") {
        tasks(tool(&["taskipy", "tasks"]), true, &|v| {
            (
                line_of(v.get("cmd").unwrap_or(v)).into_iter().collect(),
                Vec::new(),
            )
        });
    }
    if on("rye") {
        tasks(tool(&["rye", "scripts"]), false, &|v| {
            let chain = v
                .get("chain")
                .map(|c| lines_of(Some(c)))
                .unwrap_or_default();
            (
                line_of(v.get("cmd").unwrap_or(v)).into_iter().collect(),
                chain,
            )
        });
    }
    if on("hatch")
        && let Some(envs) = tool(&["hatch", "envs"])
    {
        let mut install = Vec::new();
        for env in envs.values() {
            for key in ["pre-install-commands", "post-install-commands"] {
                install.extend(lines_of(env.get(key)));
            }
            tasks(
                env.get("scripts").and_then(|s| s.as_object()),
                false,
                &|v| (lines_of(Some(v)), Vec::new()),
            );
        }
        out.extend(install);
    }
    out
}

/// Reads one task of a table: its command lines, and the names of tasks it refers to.
type TaskReader = dyn Fn(&serde_json::Value) -> (Vec<String>, Vec<String>);

/// One poe task: its command lines, and the names of tasks it refers to.
fn poe_task(v: &serde_json::Value) -> (Vec<String>, Vec<String>) {
    match v {
        serde_json::Value::String(s) => (vec![s.clone()], Vec::new()),
        // A list is a sequence of tasks, each a command (or a table).
        serde_json::Value::Array(items) => {
            let mut lines = Vec::new();
            for i in items {
                lines.extend(poe_task(i).0);
            }
            (lines, Vec::new())
        }
        serde_json::Value::Object(m) => {
            let mut lines: Vec<String> = ["cmd", "shell"]
                .iter()
                .filter_map(|k| m.get(*k).and_then(line_of))
                .collect();
            if let Some(seq) = m.get("sequence") {
                lines.extend(poe_task(seq).0);
            }
            let refs = m
                .get("ref")
                .and_then(|r| r.as_str())
                .and_then(|r| r.split_whitespace().next())
                .map(str::to_owned)
                .into_iter()
                .collect();
            (lines, refs)
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// One pdm script: its command lines, and the `composite` entries (script names or commands).
fn pdm_script(v: &serde_json::Value) -> (Vec<String>, Vec<String>) {
    if let Some(s) = v.as_str() {
        return (vec![s.to_owned()], Vec::new());
    }
    let lines = ["cmd", "shell"]
        .iter()
        .filter_map(|k| v.get(*k).and_then(line_of))
        .collect();
    (lines, lines_of(v.get("composite")))
}

// ---------------------------------------------------------------------------------------
// JSON with comments: deno.json(c), devbox.json

/// JSON with comments and trailing commas (`deno.jsonc`, `devbox.json`), read by removing
/// both outside strings and parsing the rest as JSON.
pub(crate) fn jsonc(text: &str) -> Option<serde_json::Value> {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            '"' => {
                out.push(c);
                i += 1;
                while let Some(&d) = b.get(i) {
                    out.push(d);
                    i += 1;
                    if d == '\\' {
                        if let Some(&e) = b.get(i) {
                            out.push(e);
                            i += 1;
                        }
                    } else if d == '"' {
                        break;
                    }
                }
            }
            '/' if b.get(i + 1) == Some(&'/') => {
                while b.get(i).is_some_and(|&d| d != '\n') {
                    i += 1;
                }
            }
            '/' if b.get(i + 1) == Some(&'*') => {
                i += 2;
                while b.get(i).is_some() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i += 2;
            }
            ',' => {
                // A trailing comma: the next significant character closes the container.
                let mut j = i + 1;
                while b.get(j).is_some_and(|d| d.is_whitespace()) {
                    j += 1;
                }
                if !matches!(b.get(j), Some(']' | '}')) {
                    out.push(c);
                }
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    serde_json::from_str(&out).ok()
}

/// `deno.json(c)`'s `tasks`: a string, or `{command, dependencies}`; the named tasks with
/// their dependencies (transitively), or all.
pub(crate) fn deno_tasks(text: &str, names: Option<&[String]>) -> Vec<String> {
    let Some(tasks) = jsonc(text).and_then(|d| d.get("tasks").and_then(|t| t.as_object()).cloned())
    else {
        return Vec::new();
    };
    let deps = |t: &serde_json::Value| lines_of(t.get("dependencies"));
    let command = |t: &serde_json::Value| {
        t.as_str()
            .or_else(|| t.get("command").and_then(|c| c.as_str()))
            .map(str::to_owned)
    };
    select_tasks(&tasks, names, command, deps)
}

/// The commands of the named tasks of a table and, transitively, of the tasks they depend on
/// (bounded); every task's when `names` is `None`.
fn select_tasks(
    tasks: &serde_json::Map<String, serde_json::Value>,
    names: Option<&[String]>,
    command: impl Fn(&serde_json::Value) -> Option<String>,
    deps: impl Fn(&serde_json::Value) -> Vec<String>,
) -> Vec<String> {
    let Some(names) = names else {
        return tasks.values().filter_map(&command).collect();
    };
    let mut want: Vec<String> = names.to_vec();
    let mut done: Vec<String> = Vec::new();
    let mut out = Vec::new();
    while let Some(n) = want.pop() {
        if done.contains(&n) || done.len() >= 64 {
            continue;
        }
        if let Some(t) = tasks.get(&n) {
            out.extend(command(t));
            want.extend(deps(t));
        }
        done.push(n);
    }
    out
}

/// `devbox.json`'s `shell.init_hook` (run by every `devbox shell` and `devbox run`) and
/// `shell.scripts` (the named ones for `devbox run NAME`; `Some([])` is `devbox shell`).
///
/// They run as one script after the `env` the file sets (`"GOPATH": "$PWD/.go"`), as devbox
/// runs them, so `export PATH=$GOPATH/bin:$PATH` is read with the value the file gives it.
pub(crate) fn devbox(text: &str, names: Option<&[String]>) -> Vec<String> {
    let Some(doc) = jsonc(text) else {
        return Vec::new();
    };
    let Some(shell) = doc.get("shell") else {
        return Vec::new();
    };
    let mut body = lines_of(shell.get("init_hook"));
    if let Some(scripts) = shell.get("scripts").and_then(|s| s.as_object()) {
        for (name, s) in scripts {
            if wanted(names, name) {
                body.extend(lines_of(Some(s)));
            }
        }
    }
    if body.is_empty() {
        return Vec::new();
    }
    let env = doc.get("env").and_then(|e| e.as_object());
    let exports = env.into_iter().flatten().filter_map(|(k, v)| {
        let valid = !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        // Values are expanded by devbox as a shell would expand a double-quoted word.
        let value = v.as_str()?.replace(['"', '`', '\\'], "");
        valid.then(|| format!("export {k}=\"{value}\""))
    });
    vec![exports.chain(body).collect::<Vec<_>>().join("\n")]
}

// ---------------------------------------------------------------------------------------
// mise

/// Whether `path` is a mise configuration: `mise.toml`, `.mise.toml`, their `.local`
/// variants, `mise/config.toml`, `.mise/config.toml`, `.config/mise.toml`,
/// `.config/mise/config.toml`.
pub(crate) fn is_mise_config(path: &std::path::Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str());
    match name {
        "mise.toml" | ".mise.toml" | "mise.local.toml" | ".mise.local.toml" => true,
        "config.toml" => matches!(parent, Some("mise" | ".mise")),
        _ => false,
    }
}

/// A mise configuration's `[tasks]` (`run` as a string or list of commands; the short
/// `name = "cmd"` form; `depends` followed for named tasks) and its `[hooks]` (`enter`,
/// `leave`, `cd`, `preinstall`, `postinstall`: run by mise itself, judged with every task).
pub(crate) fn mise(text: &str, names: Option<&[String]>) -> Vec<String> {
    let Some(doc) = toml_json(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(hooks) = doc.get("hooks").and_then(|h| h.as_object()) {
        for h in hooks.values() {
            match h {
                serde_json::Value::Object(m) => out.extend(lines_of(m.get("script"))),
                serde_json::Value::Array(a) => {
                    for x in a {
                        out.extend(lines_of(x.get("script").or(Some(x))));
                    }
                }
                other => out.extend(lines_of(Some(other))),
            }
        }
    }
    if let Some(tasks) = doc.get("tasks").and_then(|t| t.as_object()) {
        let runs = |t: &serde_json::Value| {
            if t.is_string() {
                return t.as_str().map(str::to_owned);
            }
            let l = lines_of(t.get("run"));
            (!l.is_empty()).then(|| l.join("\n"))
        };
        let deps = |t: &serde_json::Value| lines_of(t.get("depends"));
        out.extend(select_tasks(tasks, names, runs, deps));
    }
    out
}

// ---------------------------------------------------------------------------------------
// cargo-make

/// A cargo-make `Makefile.toml`: each task's `script` (a string or list of lines; a table
/// `{file = …}` names a file judged where it is run) run by its `script_runner` (the shell by
/// default, `@rust`, or an interpreter such as `python`), `command` with `args`, and the
/// platform overrides (`[tasks.X.linux]`); `[config] load_script`, `init_task` and `end_task`
/// run with any task. Named tasks are followed through `dependencies` and `run_task`.
/// Returns `(command line, whole source file)` pairs.
pub(crate) fn cargo_make(text: &str, names: Option<&[String]>) -> Vec<(String, bool)> {
    let Some(doc) = toml_json(text) else {
        return Vec::new();
    };
    let config = doc.get("config");
    let mut out: Vec<(String, bool)> = lines_of(config.and_then(|c| c.get("load_script")))
        .into_iter()
        .map(|l| (l, false))
        .collect();
    let Some(tasks) = doc.get("tasks").and_then(|t| t.as_object()) else {
        return out;
    };
    let task_out = |t: &serde_json::Value, out: &mut Vec<(String, bool)>| {
        for t in [Some(t), t.get("linux"), t.get("mac"), t.get("windows")]
            .into_iter()
            .flatten()
        {
            let body = lines_of(t.get("script")).join("\n");
            if !body.is_empty() {
                match t.get("script_runner").and_then(|r| r.as_str()) {
                    None | Some("@shell" | "sh" | "bash" | "zsh") => out.push((body, false)),
                    Some("@rust") => out.push((format!("rust-script -e {}", quote(&body)), true)),
                    Some(r) => out.extend(
                        crate::loaded::script_line(Some(r), std::path::Path::new(""), &body)
                            .map(|l| (l, true)),
                    ),
                }
            }
            if let Some(c) = t.get("command").and_then(|c| c.as_str()) {
                let mut words = vec![quote(c)];
                words.extend(
                    crate::workflow::strings(t.get("args"))
                        .iter()
                        .map(|a| quote(a)),
                );
                out.push((words.join(" "), false));
            }
        }
    };
    let deps = |t: &serde_json::Value| {
        let mut d: Vec<String> = t
            .get("dependencies")
            .and_then(|d| d.as_array())
            .into_iter()
            .flatten()
            .filter_map(|x| {
                x.as_str()
                    .or_else(|| x.get("name").and_then(|n| n.as_str()))
            })
            .map(str::to_owned)
            .collect();
        d.extend(lines_of(t.get("run_task")));
        d.extend(lines_of(t.get("run_task").and_then(|r| r.get("name"))));
        d
    };
    match names {
        None => {
            for t in tasks.values() {
                task_out(t, &mut out);
            }
        }
        Some(names) => {
            let mut want: Vec<String> = names.to_vec();
            for k in ["init_task", "end_task"] {
                want.extend(lines_of(config.and_then(|c| c.get(k))));
            }
            let mut done: Vec<String> = Vec::new();
            while let Some(n) = want.pop() {
                if done.contains(&n) || done.len() >= 64 {
                    continue;
                }
                if let Some(t) = tasks.get(&n) {
                    task_out(t, &mut out);
                    want.extend(deps(t));
                }
                done.push(n);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Nix

/// The shell a Nix file hands to the development shell: the strings bound to `shellHook`
/// (`mkShell`, `nix-shell`, `nix develop`), `enterShell`/`enterTest` (devenv) and
/// `scripts.NAME.exec`/`processes.NAME.exec` (devenv). Antiquotations (`${pkgs.curl}`) become
/// the store path they name (`/nix/store/curl`), so the program they run is still seen.
pub(crate) fn nix_hooks(text: &str) -> Vec<String> {
    let toks = nix_tokens(text);
    let mut out = Vec::new();
    for w in toks.windows(3) {
        let [NixTok::Path(p), NixTok::Eq, NixTok::Str(s)] = w else {
            continue;
        };
        let last = p.rsplit('.').next().unwrap_or(p);
        let devenv_exec =
            last == "exec" && (p.starts_with("scripts.") || p.starts_with("processes."));
        if matches!(last, "shellHook" | "enterShell" | "enterTest") || devenv_exec {
            out.push(s.clone());
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum NixTok {
    /// An attribute path or identifier (`shellHook`, `scripts.hello.exec`).
    Path(String),
    /// `=`.
    Eq,
    /// A string's text, antiquotations replaced.
    Str(String),
    /// Anything else.
    Other,
}

fn nix_tokens(text: &str) -> Vec<NixTok> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' {
            while b.get(i).is_some_and(|&d| d != '\n') {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            i += 2;
            while b.get(i).is_some() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            i += 1;
            let mut s = String::new();
            while let Some(&d) = b.get(i) {
                match d {
                    '"' => {
                        i += 1;
                        break;
                    }
                    '\\' => {
                        match b.get(i + 1) {
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some(&e) => s.push(e),
                            None => {}
                        }
                        i += 2;
                    }
                    '$' if b.get(i + 1) == Some(&'{') => i = antiquote(&b, i, &mut s),
                    _ => {
                        s.push(d);
                        i += 1;
                    }
                }
            }
            out.push(NixTok::Str(s));
        } else if c == '\'' && b.get(i + 1) == Some(&'\'') {
            i += 2;
            let mut s = String::new();
            while let Some(&d) = b.get(i) {
                if d == '\'' && b.get(i + 1) == Some(&'\'') {
                    match b.get(i + 2) {
                        Some('\'') => {
                            s.push_str("''");
                            i += 3;
                        }
                        Some('$') => {
                            s.push('$');
                            i += 3;
                        }
                        Some('\\') => {
                            match b.get(i + 3) {
                                Some('n') => s.push('\n'),
                                Some('t') => s.push('\t'),
                                Some(&e) => s.push(e),
                                None => {}
                            }
                            i += 4;
                        }
                        _ => {
                            i += 2;
                            break;
                        }
                    }
                } else if d == '$' && b.get(i + 1) == Some(&'{') {
                    i = antiquote(&b, i, &mut s);
                } else {
                    s.push(d);
                    i += 1;
                }
            }
            out.push(NixTok::Str(s));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let mut s = String::new();
            while let Some(&d) = b.get(i) {
                if d.is_ascii_alphanumeric() || matches!(d, '_' | '-' | '\'' | '.') {
                    // `''` starts a string, not part of a name.
                    if d == '\'' && b.get(i + 1) == Some(&'\'') {
                        break;
                    }
                    s.push(d);
                    i += 1;
                } else {
                    break;
                }
            }
            out.push(NixTok::Path(s));
        } else if c == '=' && b.get(i + 1) != Some(&'=') {
            out.push(NixTok::Eq);
            i += 1;
        } else {
            out.push(NixTok::Other);
            i += 1;
        }
    }
    out
}

/// Reads the antiquotation `${…}` at `i` into `s` as the store path its last name denotes;
/// returns the index after it.
fn antiquote(b: &[char], i: usize, s: &mut String) -> usize {
    let mut j = i + 2;
    let mut depth = 1;
    let mut inner = String::new();
    while let Some(&d) = b.get(j) {
        j += 1;
        match d {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        inner.push(d);
    }
    let last = inner
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .rfind(|w| !w.is_empty())
        .unwrap_or("value");
    let name = last.rsplit('.').next().unwrap_or(last);
    s.push_str("/nix/store/");
    s.push_str(name);
    j
}

// ---------------------------------------------------------------------------------------
// CMake

/// One command invocation of a CMake file: its name (lower-cased, as CMake matches it) and
/// arguments (unquoted arguments split at `;`, as CMake expands them).
type CmakeCall = (String, Vec<String>);

/// The command invocations of a CMake file: `name(args)` with quoted (`"…"`, escapes),
/// bracket (`[[…]]`, `[=[…]=]`) and unquoted arguments, line and bracket comments skipped.
fn cmake_calls(text: &str) -> Vec<CmakeCall> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let bracket_len = |i: usize| -> Option<usize> {
        // `[` `=`* `[` at i: the number of `=`.
        if b.get(i) != Some(&'[') {
            return None;
        }
        let mut j = i + 1;
        while b.get(j) == Some(&'=') {
            j += 1;
        }
        (b.get(j) == Some(&'[')).then_some(j - i - 1)
    };
    // Skips a bracket text at i; returns (content, index after).
    let bracket = |i: usize, n: usize| -> (String, usize) {
        let start = i + n + 2;
        let mut j = start;
        while j < b.len() {
            if b[j] == ']'
                && (1..=n).all(|k| b.get(j + k) == Some(&'='))
                && b.get(j + n + 1) == Some(&']')
            {
                return (b[start..j].iter().collect(), j + n + 2);
            }
            j += 1;
        }
        (b[start.min(b.len())..].iter().collect(), b.len())
    };
    let skip_comment = |i: usize| -> usize {
        if let Some(n) = bracket_len(i + 1) {
            return bracket(i + 1, n).1;
        }
        let mut j = i;
        while b.get(j).is_some_and(|&d| d != '\n') {
            j += 1;
        }
        j
    };
    while let Some(&c) = b.get(i) {
        if c == '#' {
            i = skip_comment(i);
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while b
                .get(i)
                .is_some_and(|d| d.is_ascii_alphanumeric() || *d == '_')
            {
                i += 1;
            }
            let name: String = b[start..i].iter().collect::<String>().to_ascii_lowercase();
            while b.get(i).is_some_and(|d| *d == ' ' || *d == '\t') {
                i += 1;
            }
            if b.get(i) != Some(&'(') {
                continue;
            }
            i += 1;
            let mut args = Vec::new();
            let mut depth = 0usize;
            while let Some(&d) = b.get(i) {
                if d.is_whitespace() {
                    i += 1;
                } else if d == '#' {
                    i = skip_comment(i);
                } else if d == '(' {
                    depth += 1;
                    i += 1;
                } else if d == ')' {
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                } else if d == '"' {
                    i += 1;
                    let mut s = String::new();
                    while let Some(&e) = b.get(i) {
                        i += 1;
                        match e {
                            '"' => break,
                            '\\' => {
                                match b.get(i) {
                                    Some('n') => s.push('\n'),
                                    Some('t') => s.push('\t'),
                                    Some('\n') | None => {}
                                    Some(&x) => s.push(x),
                                }
                                i += 1;
                            }
                            _ => s.push(e),
                        }
                    }
                    args.push(s);
                } else if let Some(n) = bracket_len(i) {
                    let (s, j) = bracket(i, n);
                    args.push(s);
                    i = j;
                } else {
                    let mut s = String::new();
                    while let Some(&e) = b.get(i) {
                        if e.is_whitespace() || matches!(e, '(' | ')' | '"' | '#') {
                            break;
                        }
                        if e == '\\' {
                            if let Some(&x) = b.get(i + 1) {
                                s.push(if x == ';' { '\u{1}' } else { x });
                            }
                            i += 2;
                            continue;
                        }
                        s.push(e);
                        i += 1;
                    }
                    args.extend(
                        s.split(';')
                            .filter(|w| !w.is_empty())
                            .map(|w| w.replace('\u{1}', ";")),
                    );
                }
            }
            out.push((name, args));
        } else {
            i += 1;
        }
    }
    out
}

/// The keywords that end a `COMMAND` list of `execute_process`, `add_custom_command` and
/// `add_custom_target`.
const CMAKE_KEYWORDS: &[&str] = &[
    "OUTPUT",
    "DEPENDS",
    "WORKING_DIRECTORY",
    "COMMENT",
    "MAIN_DEPENDENCY",
    "BYPRODUCTS",
    "IMPLICIT_DEPENDS",
    "DEPFILE",
    "JOB_POOL",
    "JOB_SERVER_AWARE",
    "VERBATIM",
    "APPEND",
    "USES_TERMINAL",
    "COMMAND_EXPAND_LISTS",
    "DEPENDS_EXPLICIT_ONLY",
    "CODEGEN",
    "TARGET",
    "PRE_BUILD",
    "PRE_LINK",
    "POST_BUILD",
    "SOURCES",
    "ALL",
    "TIMEOUT",
    "RESULT_VARIABLE",
    "RESULTS_VARIABLE",
    "OUTPUT_VARIABLE",
    "ERROR_VARIABLE",
    "INPUT_FILE",
    "OUTPUT_FILE",
    "ERROR_FILE",
    "OUTPUT_QUIET",
    "ERROR_QUIET",
    "COMMAND_ECHO",
    "OUTPUT_STRIP_TRAILING_WHITESPACE",
    "ERROR_STRIP_TRAILING_WHITESPACE",
    "ENCODING",
    "ECHO_OUTPUT_VARIABLE",
    "ECHO_ERROR_VARIABLE",
    "COMMAND_ERROR_IS_FATAL",
];

/// Well-known CMake variables naming programs, as the program (`${CMAKE_COMMAND} -E copy` is
/// `cmake -E copy`), so the analyzer sees what runs.
const CMAKE_PROGRAMS: &[(&str, &str)] = &[
    ("${CMAKE_COMMAND}", "cmake"),
    ("${CMAKE_CTEST_COMMAND}", "ctest"),
    ("${CMAKE_CPACK_COMMAND}", "cpack"),
    ("${Python_EXECUTABLE}", "python3"),
    ("${Python3_EXECUTABLE}", "python3"),
    ("${PYTHON_EXECUTABLE}", "python3"),
    ("${Protobuf_PROTOC_EXECUTABLE}", "protoc"),
    ("${GIT_EXECUTABLE}", "git"),
    ("${CMAKE_C_COMPILER}", "cc"),
    ("${CMAKE_CXX_COMPILER}", "c++"),
];

/// The words a shell reads as operators, left unquoted: CMake passes a custom command's
/// words to the build's shell (`COMMAND a | b`, `COMMAND x > out`).
///
/// The project's own directories (`${CMAKE_BINARY_DIR}`, `${PROJECT_SOURCE_DIR}`) are the
/// build tree (`build`) and the source tree (`.`), so `rm -rf ${CMAKE_BINARY_DIR}/gen` is a
/// deletion inside the project, as it is, not one of an unknown target.
fn cmake_word(w: &str, first: bool) -> String {
    if first && let Some((_, p)) = CMAKE_PROGRAMS.iter().find(|(v, _)| *v == w) {
        return (*p).to_owned();
    }
    if matches!(w, "|" | "&&" | "||" | ">" | ">>" | "<" | "2>" | "2>&1") {
        return w.to_owned();
    }
    let mut w = w.to_owned();
    for (var, dir) in CMAKE_DIRS {
        w = w.replace(var, dir);
    }
    quote(&w)
}

/// CMake's variables for the project's source and build trees, as paths relative to the
/// top of the project.
const CMAKE_DIRS: &[(&str, &str)] = &[
    ("${CMAKE_BINARY_DIR}", "build"),
    ("${CMAKE_CURRENT_BINARY_DIR}", "build"),
    ("${PROJECT_BINARY_DIR}", "build"),
    ("${CMAKE_SOURCE_DIR}", "."),
    ("${CMAKE_CURRENT_SOURCE_DIR}", "."),
    ("${PROJECT_SOURCE_DIR}", "."),
    ("${CMAKE_CURRENT_LIST_DIR}", "."),
];

/// The commands a CMake file runs: `execute_process` (at configure time; its `COMMAND`s form
/// one pipeline), `add_custom_command` and `add_custom_target` (at build time; a target's
/// first command may follow its name without `COMMAND`), each as the shell line it amounts
/// to.
pub(crate) fn cmake_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (name, args) in cmake_calls(text) {
        let (skip, pipeline) = match name.as_str() {
            "execute_process" => (0, true),
            "add_custom_command" => (0, false),
            "add_custom_target" => (1, false),
            _ => continue,
        };
        let mut groups: Vec<Vec<String>> = Vec::new();
        let mut current: Option<Vec<String>> = None;
        // The target's name, then its unkeyworded first command.
        if skip == 1 {
            current = Some(Vec::new());
        }
        for a in args.iter().skip(skip) {
            let leading_all = skip == 1
                && a == "ALL"
                && groups.is_empty()
                && current.as_ref().is_some_and(Vec::is_empty);
            if leading_all {
                continue;
            }
            if a == "COMMAND" {
                groups.extend(current.take());
                current = Some(Vec::new());
            } else if CMAKE_KEYWORDS.contains(&a.as_str()) {
                groups.extend(current.take());
            } else if let Some(g) = current.as_mut() {
                let first = g.is_empty();
                g.push(cmake_word(a, first));
            }
        }
        groups.extend(current);
        let groups: Vec<String> = groups
            .into_iter()
            .filter(|g| !g.is_empty())
            .map(|g| g.join(" "))
            .collect();
        if groups.is_empty() {
            continue;
        }
        if pipeline {
            out.push(groups.join(" | "));
        } else {
            out.extend(groups);
        }
    }
    out
}

/// The files a CMake configure reads beyond the top `CMakeLists.txt`: `add_subdirectory(D)`
/// (`D/CMakeLists.txt`) and `include(F.cmake)`, relative to the including file's directory.
pub(crate) fn cmake_includes(text: &str) -> Vec<String> {
    cmake_calls(text)
        .into_iter()
        .filter_map(|(name, args)| {
            let first = args.into_iter().next()?;
            if first.contains("${") {
                return None;
            }
            match name.as_str() {
                "add_subdirectory" => Some(format!("{first}/CMakeLists.txt")),
                "include"
                    if std::path::Path::new(&first)
                        .extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case("cmake")) =>
                {
                    Some(first)
                }
                _ => None,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Python-like call syntax: Meson, Starlark (Tiltfile), Snakemake

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    Ident(String),
    Punct(char),
}

/// Tokens of Python-like source (Meson, Starlark, Snakemake): strings (single, double,
/// triple-quoted, with `r`/`f`/`b` prefixes), identifiers and punctuation; `#` comments
/// skipped.
fn py_tokens(text: &str) -> Vec<Tok> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' {
            while b.get(i).is_some_and(|&d| d != '\n') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while b
                .get(i)
                .is_some_and(|d| d.is_ascii_alphanumeric() || *d == '_')
            {
                i += 1;
            }
            let word: String = b[start..i].iter().collect();
            let prefix = word.len() <= 2
                && word
                    .chars()
                    .all(|x| matches!(x.to_ascii_lowercase(), 'r' | 'f' | 'b' | 'u'));
            if prefix && matches!(b.get(i), Some('"' | '\'')) {
                let raw = word.to_ascii_lowercase().contains('r');
                let (s, j) = py_string(&b, i, raw);
                out.push(Tok::Str(s));
                i = j;
            } else {
                out.push(Tok::Ident(word));
            }
        } else if c == '"' || c == '\'' {
            let (s, j) = py_string(&b, i, false);
            out.push(Tok::Str(s));
            i = j;
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

/// The string literal at `i` (its quote character there) and the index after it.
fn py_string(chars: &[char], at: usize, raw: bool) -> (String, usize) {
    let quote_char = chars[at];
    let is_quote = |k: usize| chars.get(k) == Some(&quote_char);
    let triple = is_quote(at + 1) && is_quote(at + 2);
    let mut pos = if triple { at + 3 } else { at + 1 };
    let mut text = String::new();
    while let Some(&ch) = chars.get(pos) {
        if ch == quote_char && (!triple || (is_quote(pos + 1) && is_quote(pos + 2))) {
            return (text, pos + if triple { 3 } else { 1 });
        }
        if ch == '\\' && !raw {
            match chars.get(pos + 1) {
                Some('n') => text.push('\n'),
                Some('t') => text.push('\t'),
                Some('\n') | None => {}
                Some(&e @ ('\\' | '\'' | '"')) => text.push(e),
                Some(&e) => {
                    text.push('\\');
                    text.push(e);
                }
            }
            pos += 2;
            continue;
        }
        if ch == '\n' && !triple {
            break;
        }
        text.push(ch);
        pos += 1;
    }
    (text, pos)
}

/// A value of a call's argument list.
#[derive(Debug, Clone)]
enum Val {
    /// A string (adjacent and `+`-joined literals concatenated).
    Str(String),
    /// A list of values.
    List(Vec<Val>),
    /// A name (a variable such as a program found earlier, or the program a
    /// `find_program('x')` call names).
    Name(String),
    /// Anything else (an expression computed when run).
    Other,
}

impl Val {
    /// The argv words this value stands for.
    fn words(&self, out: &mut Vec<String>) {
        match self {
            Self::Str(s) => out.push(quote(s)),
            Self::Name(n) => out.push(quote(n)),
            Self::List(l) => l.iter().for_each(|v| v.words(out)),
            Self::Other => out.push("computed-value".to_owned()),
        }
    }
}

/// A call's arguments: positional values, and keyword values (`name = v`, Meson `name: v`).
#[derive(Debug, Default)]
struct Args {
    positional: Vec<Val>,
    keyword: Vec<(String, Val)>,
}

impl Args {
    fn get(&self, key: &str, position: usize) -> Option<&Val> {
        self.keyword
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .or_else(|| self.positional.get(position))
    }
}

/// The value starting at `*i`, up to a `,` or closing bracket at this depth.
fn py_value(t: &[Tok], i: &mut usize) -> Val {
    let start = *i;
    let mut parts: Vec<Val> = Vec::new();
    let mut other = false;
    let mut depth = 0usize;
    while let Some(tok) = t.get(*i) {
        match tok {
            Tok::Punct(',' | ')' | ']' | '}') if depth == 0 => break,
            Tok::Punct('[') if depth == 0 && *i == start => {
                *i += 1;
                let mut items = Vec::new();
                while let Some(tok) = t.get(*i) {
                    match tok {
                        Tok::Punct(']') => {
                            *i += 1;
                            break;
                        }
                        Tok::Punct(',') => *i += 1,
                        _ => {
                            let before = *i;
                            items.push(py_value(t, i));
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
                parts.push(Val::List(items));
                continue;
            }
            Tok::Punct('(' | '[' | '{') => {
                depth += 1;
                other = true;
            }
            Tok::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
            }
            Tok::Str(s) if depth == 0 => match parts.last_mut() {
                Some(Val::Str(p)) => p.push_str(s),
                _ => parts.push(Val::Str(s.clone())),
            },
            Tok::Ident(n) if depth == 0 && *i == start => {
                // `find_program('protoc')`: the program it names.
                if n == "find_program"
                    && t.get(*i + 1) == Some(&Tok::Punct('('))
                    && let Some(Tok::Str(p)) = t.get(*i + 2)
                {
                    parts.push(Val::Name(p.clone()));
                    other = false;
                    *i += 3;
                    let mut d = 1usize;
                    while let Some(tok) = t.get(*i) {
                        *i += 1;
                        match tok {
                            Tok::Punct('(') => d += 1,
                            Tok::Punct(')') => {
                                d -= 1;
                                if d == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                    continue;
                }
                parts.push(Val::Name(n.clone()));
            }
            Tok::Punct('+') if depth == 0 => {}
            _ => other = true,
        }
        *i += 1;
    }
    match (parts.len(), other) {
        (1, false) => parts.pop().unwrap_or(Val::Other),
        (1, true) if matches!(parts.first(), Some(Val::List(_))) => {
            parts.pop().unwrap_or(Val::Other)
        }
        _ => Val::Other,
    }
}

/// Every call of one of `names` (not a method: `x.local(…)` is not `local(…)`), with its
/// arguments; `kw` is the keyword separator (`=` in Starlark, `:` in Meson).
fn py_calls(t: &[Tok], names: &[&str], kw: char) -> Vec<(String, Args)> {
    let mut out = Vec::new();
    for k in 0..t.len() {
        let Some(Tok::Ident(n)) = t.get(k) else {
            continue;
        };
        let method = k > 0 && t.get(k - 1) == Some(&Tok::Punct('.'));
        if method || !names.contains(&n.as_str()) || t.get(k + 1) != Some(&Tok::Punct('(')) {
            continue;
        }
        let mut i = k + 2;
        let mut args = Args::default();
        while let Some(tok) = t.get(i) {
            match tok {
                Tok::Punct(')') => break,
                Tok::Punct(',') => i += 1,
                Tok::Ident(key) if t.get(i + 1) == Some(&Tok::Punct(kw)) => {
                    i += 2;
                    let v = py_value(t, &mut i);
                    args.keyword.push((key.clone(), v));
                }
                _ => {
                    let before = i;
                    args.positional.push(py_value(t, &mut i));
                    if i == before {
                        i += 1;
                    }
                }
            }
        }
        out.push((n.clone(), args));
    }
    out
}

/// The commands a `meson.build` runs: `run_command(prog, args…)` (at setup) and the `command:`
/// of `custom_target`, `run_target`, `generator` and `vcs_tag` (at build), as argv lines.
pub(crate) fn meson_commands(text: &str) -> Vec<String> {
    let t = py_tokens(text);
    let mut out = Vec::new();
    for (name, args) in py_calls(
        &t,
        &[
            "run_command",
            "custom_target",
            "run_target",
            "generator",
            "vcs_tag",
        ],
        ':',
    ) {
        let mut words = Vec::new();
        if name == "run_command" {
            args.positional.iter().for_each(|v| v.words(&mut words));
        } else if let Some((_, v)) = args.keyword.iter().find(|(k, _)| k == "command") {
            v.words(&mut words);
        }
        if !words.is_empty() {
            out.push(words.join(" "));
        }
    }
    out
}

/// A command argument of a Tiltfile call: a string runs under `sh -c`, a list is an argv.
fn tilt_line(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::List(_) => {
            let mut w = Vec::new();
            v.words(&mut w);
            Some(w.join(" "))
        }
        _ => None,
    }
}

/// The commands a `Tiltfile` runs: `local(cmd)` (when the file loads), `local_resource(name,
/// cmd, serve_cmd=…)` and `custom_build(ref, command, …)`.
pub(crate) fn tilt_commands(text: &str) -> Vec<String> {
    let t = py_tokens(text);
    let mut out = Vec::new();
    for (name, args) in py_calls(&t, &["local", "local_resource", "custom_build"], '=') {
        let fields: &[(&str, usize)] = match name.as_str() {
            "local" => &[("command", 0)],
            "local_resource" => &[("cmd", 1), ("serve_cmd", usize::MAX)],
            _ => &[("command", 1)],
        };
        for (key, pos) in fields {
            out.extend(args.get(key, *pos).and_then(tilt_line));
        }
    }
    out
}

/// The shell of a Snakefile: each rule's `shell:` directive (adjacent string literals
/// joined) and `shell(…)` calls in `run:` blocks, with Snakemake's `{{`/`}}` escapes undone.
/// The rest of the file is Python, judged whole by the caller.
pub(crate) fn snakemake_shell(text: &str) -> Vec<String> {
    let t = py_tokens(text);
    let mut out = Vec::new();
    let unescape = |s: &str| s.replace("{{", "{").replace("}}", "}");
    for k in 0..t.len() {
        if t.get(k) != Some(&Tok::Ident("shell".to_owned()))
            || (k > 0 && t.get(k - 1) == Some(&Tok::Punct('.')))
        {
            continue;
        }
        match t.get(k + 1) {
            Some(Tok::Punct(':')) => {
                let mut s = String::new();
                let mut i = k + 2;
                while let Some(Tok::Str(p)) = t.get(i) {
                    s.push_str(p);
                    i += 1;
                }
                if !s.is_empty() {
                    out.push(unescape(&s));
                }
            }
            Some(Tok::Punct('(')) => {
                let mut i = k + 2;
                if let Val::Str(s) = py_value(&t, &mut i) {
                    out.push(unescape(&s));
                }
            }
            _ => {}
        }
    }
    out
}

/// The directories a `meson.build` descends into (`subdir('src')`), whose `meson.build`
/// files a setup reads too.
pub(crate) fn meson_subdirs(text: &str) -> Vec<String> {
    py_calls(&py_tokens(text), &["subdir"], ':')
        .into_iter()
        .filter_map(|(_, a)| match a.positional.first() {
            Some(Val::Str(d)) if !d.contains("..") => Some(d.clone()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmake_and_meson_tokenizers_read_argument_lists() {
        let c = cmake_commands(
            "execute_process(COMMAND sh -c \"a | b\" COMMAND cat OUTPUT_VARIABLE x)\n\
             add_custom_target(gen ALL protoc --x [[a b]] COMMAND ${CMAKE_COMMAND} -E echo hi)",
        );
        assert_eq!(
            c,
            [
                "'sh' '-c' 'a | b' | 'cat'",
                "'protoc' '--x' 'a b'",
                "cmake '-E' 'echo' 'hi'"
            ]
        );
        let m = meson_commands(
            "p = find_program('protoc')\nrun_command('sh', '-c', 'x y', check: false)\n\
             custom_target('g', output: 'o', command: [p, '--a', '@INPUT@'])",
        );
        assert_eq!(m, ["'sh' '-c' 'x y'", "'p' '--a' '@INPUT@'"]);
        let toml = "[tool.pdm.scripts]\ntest = \"pytest\"\nevil = {shell = \"rm -rf ~\"}\n\
                    [tool.hatch.envs.default.scripts]\ncov = [\"coverage run\"]\n";
        assert_eq!(
            pyproject(toml, Some("pdm"), Some(&["evil".to_owned()])),
            ["rm -rf ~"]
        );
        assert_eq!(
            pyproject(toml, Some("hatch"), Some(&["cov".to_owned()])),
            ["coverage run"]
        );
        assert_eq!(
            nix_hooks("{ shellHook = ''\n ${pkgs.curl}/bin/curl x ''${y}\n''; }"),
            ["\n /nix/store/curl/bin/curl x ${y}\n"]
        );
    }
}

/// `pdm run NAME`, `hatch run ENV:NAME`, `rye run NAME`: the script of that name, as
/// [`crate::loaded::runner_loads`] reads it for the line as typed (the analyzer reports the
/// command the wrapper starts, `NAME`, with the wrapper in its `via`).
#[cfg(test)]
mod runner_tests {
    #[test]
    fn python_project_managers_run_their_named_scripts() {
        let dir = std::env::temp_dir().join(format!("hg-taskfiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        std::fs::write(
            dir.join("pyproject.toml"),
            "[tool.pdm.scripts]\nt = {shell = \"make t\"}\n[tool.hatch.envs.ci.scripts]\nt = \"make h\"\n\
             [tool.rye.scripts]\nt = \"make r\"\n",
        )
        .ok();
        let run = |line: &str| -> Vec<String> {
            let argv: Vec<String> = line.split(' ').map(str::to_owned).collect();
            crate::loaded::runner_loads(&argv, &dir, None, None, None)
                .into_iter()
                .map(|l| l.code)
                .collect()
        };
        assert_eq!(run("pdm run t"), ["make t"]);
        assert_eq!(run("hatch run ci:t"), ["make h"]);
        assert_eq!(run("rye run t"), ["make r"]);
        assert!(run("pdm run other").is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Most cells of a notebook read.
const MAX_CELLS: usize = 2000;

/// A Jupyter notebook (`.ipynb`, nbformat 4 JSON) as what executing it runs: `(command line,
/// whole source file)` pairs. The code cells (`cell_type: code`, `source` a string or a list
/// of strings) joined are one source file in the kernel's language
/// (`metadata.kernelspec.language`, else `metadata.language_info.name`; unknown is Python);
/// for an IPython kernel its shell escapes are lines of shell: `!cmd` and `%system`/`%sx`
/// lines, and the bodies of `%%bash`/`%%sh`/`%%script bash|sh`/`%%system` cells. Other line
/// magics are dropped, and cell magics that run their body as Python (`%%time`,
/// `%%capture`, …) keep it; other cell magics (`%%html`, `%%javascript`) run no Python.
/// Text that is not a notebook contributes nothing (as an unreadable file does).
pub(crate) fn notebook(text: &str) -> Vec<(String, bool)> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let lang = v
        .pointer("/metadata/kernelspec/language")
        .or_else(|| v.pointer("/metadata/language_info/name"))
        .and_then(|l| l.as_str())
        .unwrap_or("python")
        .to_ascii_lowercase();
    let ipython = lang.starts_with("python");
    let Some(cells) = v.get("cells").and_then(|c| c.as_array()) else {
        return Vec::new();
    };
    let mut code: Vec<String> = Vec::new();
    let mut shell: Vec<String> = Vec::new();
    for cell in cells.iter().take(MAX_CELLS) {
        if cell.get("cell_type").and_then(|t| t.as_str()) != Some("code") {
            continue;
        }
        let source = match cell.get("source") {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(serde_json::Value::Array(parts)) => {
                parts.iter().filter_map(|p| p.as_str()).collect::<String>()
            }
            _ => continue,
        };
        if !ipython {
            code.push(source);
            continue;
        }
        let (first, body) = source.split_once('\n').unwrap_or((source.as_str(), ""));
        if let Some(magic) = first.trim_start().strip_prefix("%%") {
            let mut words = magic.split_whitespace();
            match (words.next(), words.next()) {
                (Some("bash" | "sh" | "system"), _)
                | (Some("script"), Some("bash" | "sh" | "zsh" | "/bin/bash" | "/bin/sh")) => {
                    shell.push(body.to_owned());
                }
                (Some("time" | "timeit" | "capture" | "prun" | "python" | "python3"), _) => {
                    code.push(python_lines(body, &mut shell));
                }
                _ => {}
            }
            continue;
        }
        code.push(python_lines(&source, &mut shell));
    }
    let mut out: Vec<(String, bool)> = shell.into_iter().map(|s| (s, false)).collect();
    let code = code.join("\n");
    if !code.trim().is_empty() {
        let flag = match lang.as_str() {
            l if l.starts_with("python") => "python3 -c",
            "r" => "Rscript -e",
            "julia" => "julia -e",
            "ruby" => "ruby -e",
            "javascript" | "typescript" => "node -e",
            "scala" => "scala -e",
            "kotlin" => "kotlin -e",
            "java" | "groovy" => "groovy -e",
            "bash" | "sh" | "shell" => {
                out.push((code, false));
                return out;
            }
            // A kernel whose language the analyzer does not read: its code is not judged.
            _ => return out,
        };
        out.push((format!("{flag} {}", crate::loaded::quote(&code)), true));
    }
    out
}

/// The Python of an IPython cell: `!cmd`, `x = !cmd` and `%system`/`%sx` lines go to
/// `shell` (their Python line left empty, so line numbers keep), other `%` line magics are
/// dropped.
fn python_lines(source: &str, shell: &mut Vec<String>) -> String {
    let mut out = Vec::new();
    for line in source.lines() {
        let t = line.trim_start();
        let escape = t
            .strip_prefix("!!")
            .or_else(|| t.strip_prefix('!'))
            .or_else(|| t.strip_prefix("%system "))
            .or_else(|| t.strip_prefix("%sx "))
            .or_else(|| {
                // `files = !ls`: an assignment whose value is a shell escape.
                let (lhs, rhs) = t.split_once('=')?;
                let name = lhs.trim();
                (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                    .then(|| rhs.trim_start().strip_prefix('!'))
                    .flatten()
            });
        if let Some(cmd) = escape {
            shell.push(cmd.to_owned());
            out.push(String::new());
        } else if t.starts_with('%') {
            out.push(String::new());
        } else {
            out.push(line.to_owned());
        }
    }
    out.join("\n")
}
