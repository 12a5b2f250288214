//! Dotenv and direnv files written as project configuration (issue 8).
//!
//! `no-credential-file-creation` asks about every write of an env file because dotenv files
//! hold application secrets. Most writes agents make are the opposite: `echo "PORT=8080" >>
//! .env`, `printf 'DEBUG=1\n' >> .env.local`, `echo 'PATH_add bin' >> .envrc` add a setting
//! the line spells out. Such a write loses nothing (an append keeps what is there; a file
//! created where none was replaces nothing) and carries no secret, so it is configuration.
//!
//! Invariants protected (`no-credential-file-creation`):
//! - Only shell writes whose text the line holds exactly count (a redirect record or `tee`
//!   with known input); a variable, a command's output (`env >> .env`, `echo "T=$TOKEN"`),
//!   a file tool's write and anything the analysis marks as secret data
//!   ([`hookgate_shell::Analysis::secret_files`]) keep the question.
//! - Text with a secret in it (the `hookgate-secrets` rules) keeps the question.
//! - A dotenv file is also `source`d by shell scripts (`set -a; . .env`), so its text must
//!   be `NAME=value` lines and comments whose values expand nothing and run nothing.
//!   `.envrc` is shell code by design; what it runs is judged when `direnv allow` approves
//!   it, not here (see [`direnv_approvals`]).
//! - Truncating or replacing an existing file (`> .env` over one, `cp x .env`, `mv`) and any
//!   env file outside the workspace keep the question.

use std::path::{Path, PathBuf};

use hookgate_core::PathOp;
use hookgate_shell::ExecutedCommand;

use crate::action::Facts;
use crate::pattern::base_name;

/// The parsed shell commands that write `path` in this call. `None` when something else
/// writes it too (a file tool, a write the analysis could not tie to a command).
pub(crate) fn writers<'f>(facts: &'f Facts<'_>, path: &Path) -> Option<Vec<&'f ExecutedCommand>> {
    let analysis = facts.analysis.as_ref()?;
    let mut out = Vec::new();
    for item in &facts.items {
        if item
            .paths
            .iter()
            .any(|p| p.op != PathOp::Read && p.path == path)
        {
            out.push(analysis.commands.get(item.command?)?);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `command` adds configuration to the env file `path` (see the module doc): it
/// appends — or, where no file is yet (`absent`), creates — text it spells out, inside the
/// `workspace`, that holds no secret and, for a dotenv file, is `NAME=value` lines.
pub(crate) fn adds_configuration(
    facts: &Facts<'_>,
    command: &ExecutedCommand,
    path: &Path,
    workspace: &Path,
    absent: bool,
) -> bool {
    let appends = match command.argv.first().map(String::as_str) {
        Some(">>") => true,
        Some(">") => absent,
        Some(p) if base_name(p) == "tee" => absent || tee_appends(&command.argv),
        // `touch .env` creates an empty file or changes a time: no content either way.
        Some(p) if base_name(p) == "touch" => {
            return hookgate_paths::is_within(path, workspace);
        }
        _ => false,
    };
    let Some(text) = command.writes.as_ref().filter(|t| t.exact) else {
        return false;
    };
    let secret_data = facts
        .analysis
        .as_ref()
        .is_some_and(|a| a.secret_files.iter().any(|(p, _)| p == path));
    appends
        && !secret_data
        && hookgate_paths::is_within(path, workspace)
        && !hookgate_paths::is_within(path, &workspace.join(".git"))
        && hookgate_secrets::scan(&text.text).is_empty()
        && (is_envrc(path) || is_dotenv_text(&text.text, workspace))
}

/// Text that may stand in the env file `path` as configuration: anything for `.envrc`
/// (shell code by design, judged when `direnv allow` approves it; provenance never takes it
/// as the session's own), inert `NAME=value` lines for a dotenv file (see
/// [`is_dotenv_text`]).
pub(crate) fn inert_text(path: &Path, text: &str, workspace: &Path) -> bool {
    is_envrc(path) || is_dotenv_text(text, workspace)
}

/// `tee -a`/`--append`.
fn tee_appends(argv: &[String]) -> bool {
    argv.iter()
        .skip(1)
        .any(|a| a == "--append" || (a.starts_with('-') && !a.starts_with("--") && a.contains('a')))
}

/// Whether every read of the dotenv file `path` in this call is a shell's `source`/`.` of it
/// as the command's sole operand (`set -a; . ./.env.test; set +a`), and the file lies inside
/// the `workspace`. Sourcing assigns the file's `NAME=value` lines to shell variables and
/// prints none of them — what a program does when it loads the file itself (`dotenv run`, a
/// framework's `.env` support) — so `no-secret-exposure` leaves it; the flow rules judge
/// where the variables go. `.envrc` (code), an env file outside the workspace, a read by a
/// file tool or by any printing command (`cat .env; . .env`) keep the question, and so does a
/// symlink when file-system facts are on (it may point at a key, whose lines `.` prints back
/// in its errors). Only with file-system facts (`follow`): the file must be a regular file
/// (not a link) that names none of hookgate's own variables (`HOOKGATE_*`: loading them into
/// the shell is the `export` that `no-governance-self-modification` denies); a file that
/// cannot be read, or is not there yet, keeps the question (a file the session made is the
/// `provenance` module's).
pub(crate) fn only_sourced(facts: &Facts<'_>, path: &Path, workspace: &Path, follow: bool) -> bool {
    use std::io::Read as _;
    let dotenv = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(hookgate_shell::is_dotenv_name);
    if !follow || !dotenv || !hookgate_paths::is_within(path, workspace) {
        return false;
    }
    let regular = std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.file_type().is_file() && m.len() <= MAX_SOURCED_FILE);
    let mut text = Vec::new();
    if !regular
        || std::fs::File::open(path)
            .and_then(|f| f.take(MAX_SOURCED_FILE).read_to_end(&mut text))
            .is_err()
        || text
            .windows(b"HOOKGATE_".len())
            .any(|w| w.eq_ignore_ascii_case(b"HOOKGATE_"))
    {
        return false;
    }
    let Some(analysis) = facts.analysis.as_ref() else {
        return false;
    };
    let mut sourced = false;
    for item in &facts.items {
        if !item
            .paths
            .iter()
            .any(|p| p.op == PathOp::Read && p.path == path)
        {
            continue;
        }
        let argv = item
            .command
            .and_then(|k| analysis.commands.get(k))
            .map(|c| c.argv.as_slice());
        match argv {
            Some([program, _file]) if matches!(program.as_str(), "source" | ".") => sourced = true,
            _ => return false,
        }
    }
    sourced
}

/// The largest dotenv file [`only_sourced`] reads to look for hookgate's own variables; a
/// larger one keeps the question.
const MAX_SOURCED_FILE: u64 = 256 * 1024;

fn is_envrc(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == ".envrc")
}

/// Dotenv text that is inert when a shell sources it: every line blank, a comment, or
/// `[export ]NAME=VALUE` with a value that expands and runs nothing — and a setting that does
/// not change what runs once loaded (`LD_PRELOAD`, `BASH_ENV`, `NODE_OPTIONS=--require …`):
/// `set -a; . .env`, `dotenv-cli`, compose `env_file` and direnv's `dotenv` export it, so
/// each line is judged by the shell analyzer as the `export` it becomes (the same
/// `rce.env_hijack` judgement as on a command line).
fn is_dotenv_text(text: &str, workspace: &Path) -> bool {
    let sctx = hookgate_shell::Context::new(workspace, None);
    text.lines().all(|line| {
        let line = line.trim();
        line.is_empty()
            || line.starts_with('#')
            || (is_inert_assignment(line) && {
                let bare = line.strip_prefix("export ").map_or(line, str::trim_start);
                let a = hookgate_shell::analyze(&format!("export {bare}"), &sctx);
                matches!(
                    a.verdict.class,
                    hookgate_shell::Class::Safe | hookgate_shell::Class::Normal
                )
            })
    })
}

fn is_inert_assignment(line: &str) -> bool {
    let line = line.strip_prefix("export ").map_or(line, str::trim_start);
    let Some((name, value)) = line.split_once('=') else {
        return false;
    };
    let name_ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'));
    name_ok && is_inert_value(value)
}

/// A value that means itself in a dotenv parser and in a shell: single-quoted, double-quoted
/// without expansions or escapes, or unquoted without whitespace, expansions, globs or
/// command syntax.
fn is_inert_value(v: &str) -> bool {
    if let Some(inner) = v.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        return !inner.contains('\'');
    }
    if let Some(inner) = v.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        return !inner.contains(['"', '$', '`', '\\']);
    }
    !v.contains(|c: char| c.is_whitespace() || "$`\\;&|<>(){}'\"*?[]~#!".contains(c))
}

/// Largest `.envrc` read to judge what `direnv allow` approves; a larger one is judged unread.
const MAX_ENVRC: u64 = 256 * 1024;

/// What a `direnv` command of the line approves or loads, for each such command: its
/// index in the analysis and the `.envrc` text as it will be when the command runs (the
/// file on disk, with what the line appends to it before; `None` when that cannot be known).
///
/// direnv refuses to load a changed `.envrc` until `direnv allow` approves it, so writing
/// one runs nothing; the code runs when it is approved or loaded (`direnv allow`/`permit`/
/// `grant`, `direnv exec DIR …`, `direnv export SHELL` — what `eval "$(direnv export bash)"`
/// and the shell hook run). Judging it there, as if it ran, is the same judgement a script
/// gets when written (`transitive-effect-analysis`), made at the moment it takes effect.
pub(crate) fn direnv_approvals(
    facts: &Facts<'_>,
    home: Option<&Path>,
) -> Vec<(usize, PathBuf, Option<String>)> {
    let Some(analysis) = &facts.analysis else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (c, command) in analysis.commands.iter().enumerate() {
        let argv = &command.argv;
        if argv.first().is_none_or(|p| base_name(p) != "direnv") {
            continue;
        }
        let mut words = argv.iter().skip(1).filter(|a| !a.starts_with('-'));
        let dir = match words.next().map(String::as_str) {
            Some("allow" | "permit" | "grant" | "exec") => words.next(),
            Some("export" | "reload") => None,
            _ => continue,
        };
        let Some(cwd) = command.cwd.path(&facts.cwd) else {
            out.push((c, facts.cwd.join(".envrc"), None));
            continue;
        };
        let start = hookgate_paths::normalize(dir.map_or(".", String::as_str), cwd, home).path;
        let envrc = if start.file_name().is_some_and(|n| n == ".envrc") {
            start
        } else {
            // direnv uses the nearest `.envrc` at or above the directory (one the line
            // writes counts: it exists when direnv runs).
            start
                .ancestors()
                .map(|d| d.join(".envrc"))
                .find(|f| f.is_file() || written(facts, f))
                .unwrap_or_else(|| start.join(".envrc"))
        };
        let text = envrc_text(facts, c, &envrc);
        out.push((c, envrc, text));
    }
    out
}

/// Whether some command of the line writes `path`.
fn written(facts: &Facts<'_>, path: &Path) -> bool {
    facts.items.iter().any(|i| {
        i.paths
            .iter()
            .any(|p| p.op != PathOp::Read && p.path == path)
    })
}

/// The text of `envrc` when command `before` runs: the file as it is, after the line's
/// earlier writes to it (appends add their text, a truncating write replaces it). `None`
/// when a write's text is unknown or the file cannot be read. (Also the text of a script the
/// line writes and then runs: `invariants::script_execution`.)
pub(crate) fn envrc_text(facts: &Facts<'_>, before: usize, envrc: &Path) -> Option<String> {
    let analysis = facts.analysis.as_ref()?;
    let mut text = match std::fs::metadata(envrc) {
        Ok(m) if m.len() > MAX_ENVRC => return None,
        Ok(_) => std::fs::read_to_string(envrc).ok()?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(_) => return None,
    };
    for item in &facts.items {
        let Some(c) = item.command.filter(|c| *c < before) else {
            continue;
        };
        if !item
            .paths
            .iter()
            .any(|p| p.op != PathOp::Read && p.path == envrc)
        {
            continue;
        }
        let command = analysis.commands.get(c)?;
        let written = command.writes.as_ref().filter(|t| t.exact)?;
        let appends = match command.argv.first().map(String::as_str) {
            Some(">>") => true,
            Some(">") => false,
            Some(p) if base_name(p) == "tee" => tee_appends(&command.argv),
            _ => return None,
        };
        if !appends {
            text.clear();
        } else if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&written.text);
    }
    Some(text)
}

/// The directory an `.envrc` runs in (direnv loads it from its own directory).
pub(crate) fn envrc_dir(envrc: &Path) -> PathBuf {
    envrc
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
}

/// Why the `.envrc` text would be dangerous to run, or `None`: the shell analyzer's verdict on
/// it, and on each of direnv's own path commands read as the prepend it is (`PATH_add DIR…`
/// puts each DIR before `$PATH`; `path_add VAR DIR…` before `$VAR`), which the analyzer,
/// not knowing direnv's stdlib, sees only as unknown commands.
///
/// The answer is the analyzer's action for it (deny or ask) with the reason.
pub(crate) fn envrc_danger(
    text: &str,
    ctx: &hookgate_shell::Context,
) -> Option<(hookgate_shell::Action, String)> {
    envrc_danger_at(text, ctx, 0)
}

/// What a function of direnv's standard library (`direnv stdlib`) does when an `.envrc` calls
/// it, for what it brings into the shell that loads the file. The analyzer does not know these
/// names (they are shell functions direnv defines), so each is read here as what it amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stdlib {
    /// Downloads a script and sources it (`source_url URL HASH`): code from the network.
    SourcesUrl,
    /// Downloads a file into direnv's cache and prints its path (`fetchurl URL [HASH]`):
    /// sourcing that path runs code from the network.
    Fetches,
    /// Sources another file (a directory's `.envrc`) as shell (`source_env PATH`).
    SourcesFile,
    /// Sources the nearest file of that name (`.envrc` by default) in a parent directory.
    SourcesUp,
    /// `use NAME ARGS…` calls `use_NAME`: `use flake REF` evaluates a flake and runs its
    /// development shell's hook here.
    Use,
    /// Evaluates a flake (`use_flake REF`).
    UsesFlake,
}

/// direnv's standard library functions whose effect reaches beyond the `.envrc`'s own text.
/// The rest (`dotenv`, `dotenv_if_exists`: `KEY=value` files; `layout python`, `use nix`,
/// `watch_file`, `strict_env`, `log_status`, `env_vars_required`, …) set variables or run
/// local, known tooling and are the analyzer's (or `PATH_add`'s below).
const DIRENV_STDLIB: &[(&str, Stdlib)] = &[
    ("source_url", Stdlib::SourcesUrl),
    ("fetchurl", Stdlib::Fetches),
    ("source_env", Stdlib::SourcesFile),
    ("source_env_if_exists", Stdlib::SourcesFile),
    ("source_up", Stdlib::SourcesUp),
    ("source_up_if_exists", Stdlib::SourcesUp),
    ("use", Stdlib::Use),
    ("use_flake", Stdlib::UsesFlake),
];

/// How deep `source_env`/`source_up` are followed into other files.
const MAX_ENVRC_DEPTH: usize = 4;

/// Largest file `source_env`/`source_up` is read from disk to be judged.
const MAX_SOURCED_ENVRC: u64 = 64 * 1024;

/// A flake reference that names code outside this machine (`github:o/r`, `git+https://…`,
/// `https://…/x.tar.gz`, a registry name such as `nixpkgs#hello`); a path (`.`, `./dev`,
/// `path:./x`, `/abs`) is local files.
fn remote_flake(r: &str) -> bool {
    let r = r.split(['#', '?']).next().unwrap_or(r);
    if r.is_empty() || r.starts_with(['.', '/', '~']) {
        return false;
    }
    match r.split_once(':') {
        Some((scheme, _)) => !matches!(scheme, "path" | "git+file" | "file"),
        // A bare word is a flake registry entry, resolved to a remote flake.
        None => true,
    }
}

/// [`envrc_danger`] of a file sourced `depth` levels deep.
fn envrc_danger_at(
    text: &str,
    ctx: &hookgate_shell::Context,
    depth: usize,
) -> Option<(hookgate_shell::Action, String)> {
    let a = hookgate_shell::analyze(text, ctx);
    if a.verdict.class == hookgate_shell::Class::Dangerous {
        return Some((a.action(), a.verdict.reason));
    }
    let ask = |why: String| Some((hookgate_shell::Action::Ask, why));
    // Whether the text downloads with `fetchurl`, whose printed path is then sourced.
    let fetched = a.commands.iter().any(|c| {
        c.argv
            .first()
            .is_some_and(|p| DIRENV_STDLIB.contains(&(p.as_str(), Stdlib::Fetches)))
    });
    for c in &a.commands {
        let Some(first) = c.argv.first() else {
            continue;
        };
        let args = c.argv.get(1..).unwrap_or_default();
        let stdlib = DIRENV_STDLIB
            .iter()
            .find(|(name, _)| name == first)
            .map(|(_, what)| *what);
        match stdlib {
            Some(Stdlib::SourcesUrl) => {
                return ask(format!(
                    "`{}` runs a script downloaded from {}",
                    c.argv.join(" "),
                    args.first().map_or("the network", String::as_str)
                ));
            }
            Some(Stdlib::Use) if args.first().is_some_and(|w| w == "flake") => {
                if let Some(r) = args.get(1).filter(|r| remote_flake(r)) {
                    return ask(format!(
                        "`{}` runs the development shell of the flake {r}, code from outside \
                         this machine",
                        c.argv.join(" ")
                    ));
                }
            }
            Some(Stdlib::UsesFlake) => {
                if let Some(r) = args.first().filter(|r| remote_flake(r)) {
                    return ask(format!(
                        "`{}` runs the development shell of the flake {r}, code from outside \
                         this machine",
                        c.argv.join(" ")
                    ));
                }
            }
            Some(Stdlib::SourcesFile) => {
                let Some(target) = args.first() else { continue };
                let p = hookgate_paths::normalize(target, &ctx.cwd, ctx.home.as_deref()).path;
                let file = if p.is_dir() { p.join(".envrc") } else { p };
                if let Some(v) = sourced_envrc_danger(&file, ctx, depth) {
                    return Some(v);
                }
            }
            Some(Stdlib::SourcesUp) => {
                let name = args.first().map_or(".envrc", String::as_str);
                let found = ctx
                    .cwd
                    .ancestors()
                    .skip(1)
                    .map(|d| d.join(name))
                    .find(|f| f.is_file());
                if let Some(file) = found
                    && let Some(v) = sourced_envrc_danger(&file, ctx, depth)
                {
                    return Some(v);
                }
            }
            // `source "$(fetchurl URL HASH)"`: the path sourced is the download.
            None if fetched
                && matches!(first.as_str(), "source" | "." | "eval" | "bash" | "sh")
                && c.argv.len() > 1 =>
            {
                return ask(format!(
                    "`{}` runs a script downloaded by direnv's fetchurl",
                    c.argv.join(" ")
                ));
            }
            // A download alone runs nothing; `use` of anything but a flake is local tooling.
            Some(Stdlib::Fetches | Stdlib::Use) | None => {}
        }
    }
    for c in &a.commands {
        let (var, dirs) = match c.argv.first().map(String::as_str) {
            Some("PATH_add") => ("PATH", c.argv.get(1..).unwrap_or_default()),
            Some("path_add") => match c.argv.get(1..) {
                Some([var, dirs @ ..]) => (var.as_str(), dirs),
                _ => continue,
            },
            _ => continue,
        };
        let valid_name = !var.is_empty()
            && var
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        if !valid_name {
            return Some((
                hookgate_shell::Action::Ask,
                format!("`{}` names no variable", c.argv.join(" ")),
            ));
        }
        for dir in dirs {
            let quoted = format!("'{}'", dir.replace('\'', "'\\''"));
            let line = format!("export {var}={quoted}:\"${var}\"");
            let v = hookgate_shell::analyze(&line, ctx).verdict;
            if v.class == hookgate_shell::Class::Dangerous {
                return Some((v.action(), format!("`{}`: {}", c.argv.join(" "), v.reason)));
            }
        }
    }
    None
}

/// The danger of a file an `.envrc` sources (`source_env`, `source_up`), read from disk and
/// judged in its own directory; nothing when it cannot be read (direnv then fails to load it).
fn sourced_envrc_danger(
    file: &Path,
    ctx: &hookgate_shell::Context,
    depth: usize,
) -> Option<(hookgate_shell::Action, String)> {
    use std::io::Read as _;
    if depth >= MAX_ENVRC_DEPTH {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(file)
        .ok()?
        .take(MAX_SOURCED_ENVRC)
        .read_to_string(&mut text)
        .ok()?;
    let mut inner = ctx.clone();
    inner.cwd = envrc_dir(file);
    envrc_danger_at(&text, &inner, depth + 1).map(|(action, why)| {
        (
            action,
            format!("it sources {}, where {why}", file.display()),
        )
    })
}

/// Largest env file read to judge whether it is committed configuration.
const MAX_COMMITTED_ENV: u64 = 64 * 1024;

/// The question that tells whether the env file `path` is committed configuration — a
/// variant (`.env.test`, `.env.ci`, `ci.env`; never the bare `.env` nor `.envrc`) inside the
/// `workspace`, a regular single-link file of inert `NAME=value` lines with no secret in
/// them (`hookgate-secrets`) — or `None` when it is not such a file. The caller answers it
/// with `git status` over that one path, untracked and ignored files included: nothing
/// reported means tracked and unchanged since the last commit, so its content is the
/// repository's (the test or CI settings every clone has), not the user's secrets.
///
/// Invariant (`no-secret-exposure`): the user's real `.env` — bare-named, usually ignored,
/// or holding a secret — is never committed configuration, and a file changed since the
/// commit (a secret pasted into `.env.test`) is not either.
pub(crate) fn committed_query(path: &Path, workspace: &Path) -> Option<crate::PathspecState> {
    use std::io::Read as _;
    let name = path.file_name()?.to_str()?;
    if name == ".env"
        || is_envrc(path)
        || !hookgate_paths::is_within(path, workspace)
        || hookgate_paths::is_within(path, &workspace.join(".git"))
    {
        return None;
    }
    let meta = std::fs::symlink_metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if meta.nlink() != 1 {
            return None;
        }
    }
    if !meta.file_type().is_file() || meta.len() > MAX_COMMITTED_ENV {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_COMMITTED_ENV)
        .read_to_string(&mut text)
        .ok()?;
    if !hookgate_secrets::scan(&text).is_empty() || !is_dotenv_text(&text, workspace) {
        return None;
    }
    Some(crate::PathspecState {
        dir: path.parent()?.to_path_buf(),
        pathspecs: vec![name.to_owned()],
        untracked: true,
        changed: true,
    })
}
