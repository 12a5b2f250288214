//! Session provenance: what the session itself created tells the guard what a path holds.
//!
//! The guard judges a path by its name (`.env.test` is a dotenv file, `../build2` lies
//! outside the project). Agents routinely make such paths themselves: `cp .env.example
//! .env.test && sed -i 's/PORT=.*/PORT=4000/' .env.test`, a Write of `.env.development` with
//! placeholder values, `git clone … ../scratch` then `rm -rf ../scratch`. Asking about those
//! protects nothing of the user's. So the session remembers what it created
//! ([`SessionState::created`](crate::SessionState::created)) and a later call — or a later
//! command of the same line — is judged by that:
//!
//! 1. A credential-named file inside the workspace or a temp dir that the session created,
//!    every write to which carried no secret ("secretless"), is read and edited as ordinary:
//!    `no-secret-exposure` and `no-credential-file-creation` leave it, and the analyzer's
//!    `cred.read_secret_file` verdict on a command that touches only such files is set
//!    aside.
//! 2. A delete of paths that lie inside something the session created outside the
//!    workspace (a clone, a build directory) is set aside for the analyzer's place rules:
//!    it loses nothing that was there before the session.
//!
//! Invariants protected:
//! - A path that existed when the creating call was judged is never "created": the user's
//!   own `.env` keeps its protection whatever the session writes to it.
//! - Secretless is lost, never gained back, by any write carrying secret data: a line that
//!   reads a credential (other than secretless session files) or a session secret file
//!   ([`SessionState::secret_files`](crate::SessionState::secret_files)), a flow the
//!   analyzer marks into the file, text with a secret in it (`hookgate-secrets`), the
//!   environment through `envsubst`, or a link made at the path (`ln -s ~/.aws/credentials
//!   .env.test`, `cp -l`). An asked or denied write clears it too (it may be let run).
//! - Only with file-system facts ([`Ctx::follow_symlinks`]): absence is an `lstat`, and a
//!   relaxed read needs the file to be a regular file with one link (not a symlink, not a
//!   hard link to a credential made behind the guard's back). Without them — replay, tests
//!   of the lexical layer, an unreadable state — nothing is relaxed.
//! - Sending a created file to the network (`cred.exfiltrate`), deleting the home, the
//!   workspace or a sensitive location, and a delete through a link keep their verdicts.
//! - A created directory into which the session moved something it did not create
//!   (`mv ~/Documents/x ../build2/`) stops being the session's own.

use std::path::{Path, PathBuf};

use hookgate_core::{PathOp, ToolKind};
use hookgate_paths::{PathContext, is_within};

use crate::Ctx;
use crate::action::Facts;
use crate::invariants::{CREDENTIALS, Judge};
use crate::pattern::base_name;

/// The analyzer rule a secretless session file sets aside: reading a credential file.
/// Sending one (`cred.exfiltrate`) is not set aside.
const READ_RULE: &str = "cred.read_secret_file";

/// What this call's provenance facts are (computed once per judgement, see
/// [`Judge::provenance`]).
#[derive(Debug, Default)]
pub(crate) struct Provenance {
    /// Secretless session files this call may read and edit as ordinary (see the module
    /// doc): remembered ones the line does not taint, and ones the line creates.
    pub benign: Vec<PathBuf>,
    /// Credential-named files the line creates (absent now) without secret data: the
    /// creation is ordinary even when the content is not secretless (the environment of
    /// `envsubst`), since creating a file loses and exposes nothing.
    pub creations: Vec<PathBuf>,
    /// Paths the line creates that are worth remembering, with whether secretless.
    pub created: Vec<(PathBuf, bool)>,
    /// Of those, the ones outside the workspace, with the command (index into the analysis)
    /// that makes each: a later command of the line may act inside them as in one an
    /// earlier call made, the making command itself may not (`echo x > ../new` is the write
    /// outside the workspace it is, not a write into something the session created).
    pub made_outside: Vec<(PathBuf, Option<usize>)>,
    /// Paths the line writes with secret data (or a link): remembered ones lose secretless.
    pub tainted: Vec<PathBuf>,
    /// Analysis commands whose `cred.read_secret_file` verdict only concerns benign or
    /// committed files.
    pub reads_set_aside: Vec<usize>,
    /// Env files this line reads that are committed configuration (`dotenv::committed_query`
    /// answered "tracked, unchanged"): read as ordinary, written as ever.
    pub committed: Vec<PathBuf>,
    /// The questions still to answer for env files this line reads.
    pub committed_wanted: Vec<crate::PathspecState>,
}

/// How the line can bring secret data into the files it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Taint {
    None,
    /// The environment (`envsubst` fills a template from it): not secretless, but a
    /// creation from it exposes nothing by itself.
    Environment,
    /// A credential, a session secret file, or a flow the analyzer marked.
    Secret,
}

fn path_ctx(facts: &Facts<'_>, ctx: &Ctx) -> PathContext {
    PathContext {
        cwd: facts.cwd.clone(),
        workspace: Some(ctx.workspace.clone()),
        home: ctx.home.clone(),
    }
}

/// A credential-catalog match for `p` (lexical: the name is what makes it one).
fn credential_named(p: &Path, pctx: &PathContext) -> bool {
    hookgate_paths::classify(p, pctx)
        .iter()
        .any(|m| CREDENTIALS.contains(&m.category))
}

/// Inside the workspace, not `.git`: where a credential-named file can be the session's
/// own (an env file elsewhere — a sibling project's, one in a shared temp dir — keeps the
/// question, as `dotenv` has it).
fn scratch_place(p: &Path, ctx: &Ctx) -> bool {
    is_within(p, &ctx.workspace) && !is_within(p, &ctx.workspace.join(".git"))
}

/// Outside both the workspace and the temp dirs: where a created path changes how its
/// delete is judged.
fn outside(p: &Path, ctx: &Ctx) -> bool {
    !is_within(p, &ctx.workspace) && !ctx.temp_dirs.iter().any(|t| is_within(p, t))
}

/// Whether nothing is at `p` now (an `lstat` finds no entry; any other error is not absence).
pub(crate) fn absent(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
}

/// Absent, or a regular file with a single link: what a relaxed read may see (a symlink or
/// a second hard link could make the name reach a credential).
fn plain_or_absent(p: &Path) -> bool {
    match std::fs::symlink_metadata(p) {
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        #[cfg(unix)]
        Ok(m) => {
            use std::os::unix::fs::MetadataExt as _;
            m.file_type().is_file() && m.nlink() == 1
        }
        #[cfg(not(unix))]
        Ok(_) => false,
    }
}

/// The path `mkdir -p` or another maker ([`MAKERS`]: `git clone`, `cargo new`, `python3 -m
/// venv`) creates for `p`: its topmost absent ancestor (they make the leading directories
/// too); a plain `mkdir` and any other writer make `p` only.
fn created_root(p: &Path, argv: Option<&[String]>) -> PathBuf {
    let makes_parents = argv.is_some_and(|a| {
        if a.first().is_some_and(|p| base_name(p) == "mkdir") {
            a.iter().skip(1).any(|w| {
                w == "--parents" || (w.starts_with('-') && !w.starts_with("--") && w.contains('p'))
            })
        } else {
            !made_dirs(a).is_empty()
        }
    });
    if !makes_parents {
        return p.to_path_buf();
    }
    let mut top = p.to_path_buf();
    while let Some(parent) = top.parent() {
        if parent.as_os_str().is_empty() || !absent(parent) {
            break;
        }
        top = parent.to_path_buf();
    }
    top
}

/// Computes the call's [`Provenance`] (see the module doc).
pub(crate) fn compute(j: &Judge<'_>) -> Provenance {
    let mut out = Provenance::default();
    let (facts, ctx, state) = (j.facts, j.ctx, j.state);
    if !ctx.follow_symlinks {
        return out;
    }
    let pctx = path_ctx(facts, ctx);
    committed_env_reads(j, &pctx, &mut out);
    // What the line writes, by item (`touch` of an absent file creates it empty).
    let mut written: Vec<(PathBuf, usize)> = Vec::new();
    for (i, item) in facts.items.iter().enumerate() {
        for p in item.paths.iter().filter(|p| p.op == PathOp::Write) {
            for c in facts.candidates(i, p) {
                if !written.iter().any(|(w, k)| *w == c && *k == i) {
                    written.push((c, i));
                }
            }
        }
    }
    // Directories the makers make (`mkdir`, `git clone`, `cargo new`, `python3 -m venv`),
    // which the actions do not list as writes.
    if let Some(analysis) = &facts.analysis {
        for (k, c) in analysis.commands.iter().enumerate() {
            let Some(dir) = c.cwd.path(&facts.cwd) else {
                continue;
            };
            for made in made_dirs(&c.argv) {
                let p = hookgate_paths::normalize(made, dir, ctx.home.as_deref()).path;
                if let Some(i) = facts.items.iter().position(|it| it.command == Some(k)) {
                    if !written.iter().any(|(w, _)| *w == p) {
                        written.push((p, i));
                    }
                } else if outside(&p, ctx) && absent(&p) {
                    // A maker the actions list nothing for (`python3 -m venv ../v`): made
                    // outside the workspace by command `k`.
                    let root = created_root(&p, Some(&c.argv));
                    if !out.created.iter().any(|(r, _)| *r == root) {
                        out.made_outside.push((root.clone(), Some(k)));
                        out.created.push((root, false));
                    }
                }
            }
        }
    }
    let remembered: Vec<PathBuf> = state
        .created
        .iter()
        .filter(|c| c.secretless)
        .map(|c| PathBuf::from(&c.path))
        .collect();
    if written.is_empty() && remembered.is_empty() {
        return out;
    }
    // Credential-named files the line may be making or editing as the session's own.
    let mut candidates: Vec<PathBuf> = remembered.clone();
    let mut creating: Vec<PathBuf> = Vec::new();
    for (p, i) in &written {
        let argv = facts.argv(*i);
        // `.envrc` is shell code direnv runs, not a secret store: its writes keep their
        // own judgement (`dotenv`), whoever made it.
        let code = p.file_name().is_some_and(|n| n == ".envrc");
        if credential_named(p, &pctx) && scratch_place(p, ctx) && !code {
            if !remembered.contains(p) && absent(p) && !creating.contains(p) {
                creating.push(p.clone());
                candidates.push(p.clone());
            }
        } else if outside(p, ctx) && absent(p) {
            let root = created_root(p, argv);
            if !out.created.iter().any(|(c, _)| *c == root) {
                out.made_outside
                    .push((root.clone(), facts.items[*i].command));
                out.created.push((root, false));
            }
        }
    }
    if candidates.is_empty() {
        // Nothing credential-named of the session's own: no catalog reads needed.
        return out;
    }
    let taint = line_taint(j, &candidates);
    let secret_flow: Vec<&PathBuf> = facts
        .analysis
        .as_ref()
        .map(|a| a.secret_files.iter().map(|(p, _)| p).collect())
        .unwrap_or_default();
    // A write of `p` by this line that brings no secret: no taint on the line, no flow the
    // analyzer marks into it, no link made there, and any text it spells out holds none.
    let secretless_write =
        |p: &PathBuf| taint == Taint::None && !secret_flow.contains(&p) && ordinary_text(j, p);
    for (p, _) in &written {
        if !candidates.contains(p) || out.tainted.contains(p) {
            continue;
        }
        if !secretless_write(p) {
            out.tainted.push(p.clone());
        }
    }
    for p in &creating {
        let clean = !out.tainted.contains(p);
        if clean {
            out.benign.push(p.clone());
        }
        if taint < Taint::Secret && !secret_flow.contains(&p) && ordinary_text(j, p) {
            out.creations.push(p.clone());
        }
        out.created.push((p.clone(), clean));
    }
    for p in remembered {
        if !out.tainted.contains(&p) && plain_or_absent(&p) {
            out.benign.push(p);
        }
    }
    let ordinary: Vec<PathBuf> = out.benign.iter().chain(&out.committed).cloned().collect();
    out.reads_set_aside = reads_of_only(j, &ordinary, &pctx);
    out
}

/// Fills [`Provenance::committed`] and [`Provenance::committed_wanted`]: the env files the
/// line reads (read paths, and the words of commands the analyzer judged as reading a
/// credential file) that are committed configuration by the caller's `git status` answer
/// in [`Ctx::pathspecs`] (see `dotenv::committed_query`). Costs nothing on a line that
/// reads no env file.
fn committed_env_reads(j: &Judge<'_>, pctx: &PathContext, out: &mut Provenance) {
    let is_env = |p: &Path| {
        hookgate_paths::classify(p, pctx)
            .iter()
            .any(|m| m.category == hookgate_paths::Category::EnvFile)
    };
    let mut files: Vec<PathBuf> = j
        .read_matches()
        .iter()
        .filter(|m| m.category == hookgate_paths::Category::EnvFile)
        .map(|m| m.path.clone())
        .collect();
    if let Some(analysis) = &j.facts.analysis {
        for c in analysis
            .commands
            .iter()
            .filter(|c| c.verdict.rule_id.as_deref() == Some(READ_RULE))
        {
            let dir = c.cwd.path(&j.facts.cwd).unwrap_or(&j.facts.cwd);
            for w in c.argv.iter().skip(1).filter(|w| !w.starts_with('-')) {
                let p = hookgate_paths::normalize(w, dir, j.ctx.home.as_deref()).path;
                if is_env(&p) && !files.contains(&p) {
                    files.push(p);
                }
            }
        }
    }
    for p in files {
        let Some(q) = crate::dotenv::committed_query(&p, &j.ctx.workspace) else {
            continue;
        };
        let answer =
            j.ctx.pathspecs.iter().find(|s| {
                s.dir == q.dir && s.pathspecs == q.pathspecs && s.untracked == q.untracked
            });
        match answer {
            Some(s) if !s.changed => out.committed.push(p),
            Some(_) => {}
            None => out.committed_wanted.push(q),
        }
    }
    // The session's own files join these when the line has any (see [`compute`]).
    out.reads_set_aside = reads_of_only(j, &out.committed, pctx);
}

/// The facts' items (with their index) that analysis command `k` stands behind.
fn items_of<'f>(
    facts: &'f Facts<'_>,
    k: usize,
) -> impl Iterator<Item = (usize, &'f crate::action::Item)> {
    facts
        .items
        .iter()
        .enumerate()
        .filter(move |(_, item)| item.command == Some(k))
}

/// The analysis commands whose `cred.read_secret_file` verdict concerns only `files`: every
/// credential-named path the command touches is one of them, and nothing it touches is
/// computed at run time or a pattern.
fn reads_of_only(j: &Judge<'_>, files: &[PathBuf], pctx: &PathContext) -> Vec<usize> {
    let Some(analysis) = &j.facts.analysis else {
        return Vec::new();
    };
    if files.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (k, c) in analysis.commands.iter().enumerate() {
        if c.verdict.rule_id.as_deref() != Some(READ_RULE) {
            continue;
        }
        let mut named = 0usize;
        let mut only = true;
        for (i, item) in items_of(j.facts, k) {
            only &= item.unplaced.is_empty();
            for p in &item.paths {
                if p.raw.contains(['*', '?', '[']) {
                    only = false;
                }
                for path in j.facts.candidates(i, p) {
                    if credential_named(&path, pctx) {
                        named += 1;
                        only &= files.contains(&path);
                    }
                }
            }
        }
        // The words themselves: a reader the policy does not model as reading paths (`grep
        // PORT .env.test`) names its files there; an option's value counts too (`grep
        // --file=.env`, `-f.env`), and so does a redirected standard input.
        let dir = c.cwd.path(&j.facts.cwd).unwrap_or(&j.facts.cwd);
        let home = j.ctx.home.as_deref();
        let stdin = analysis
            .stdin_files
            .iter()
            .filter(|(n, _)| *n == k)
            .map(|(_, f)| f.clone());
        let words = c.argv.iter().skip(1).flat_map(|w| option_values(w));
        for path in words
            .map(|w| hookgate_paths::normalize(w, dir, home).path)
            .chain(stdin)
        {
            if credential_named(&path, pctx) {
                named += 1;
                only &= files.contains(&path);
            }
        }
        if only && named > 0 {
            out.push(k);
        }
    }
    out
}

/// What the line writes to `p` is ordinary content: no link is made there, and every text
/// a writer spells out (a Write or Edit tool's content, a shell write's text) is known
/// whole, holds no secret and — for a dotenv file, which shells `source` — only inert
/// settings (`dotenv`: no `BASH_ENV=…`, no expansion). A writer that spells no text copies
/// files (`cp`, `install`, `cat tpl >`), whose reading the line's taint judges.
fn ordinary_text(j: &Judge<'_>, p: &Path) -> bool {
    let fine = |t: &str| {
        hookgate_secrets::scan(t).is_empty() && crate::dotenv::inert_text(p, t, &j.ctx.workspace)
    };
    if j.facts.links.iter().any(|(_, link, _)| link == p) {
        return false;
    }
    if let Some(tool) = j.facts.tool
        && matches!(tool.kind, ToolKind::Write | ToolKind::Edit)
    {
        return tool.content.as_deref().is_none_or(fine);
    }
    let Some(analysis) = &j.facts.analysis else {
        return true;
    };
    j.facts.items.iter().all(|item| {
        let writes_p = item
            .paths
            .iter()
            .any(|u| u.op != PathOp::Read && u.path == p);
        match item.command.and_then(|k| analysis.commands.get(k)) {
            Some(c) if writes_p => c.writes.as_ref().is_none_or(|t| t.exact && fine(&t.text)),
            _ => true,
        }
    })
}

/// A tool that makes a fresh directory named by an operand (a scaffolder): `mkdir DIR…`,
/// `git clone REPO [DIR]`, `git init DIR`, `cargo new|init DIR`, `python3 -m venv DIR…`,
/// `virtualenv DIR`, `uv venv|init DIR`, `poetry new DIR`, `mix new DIR`, `rails new DIR`.
struct Maker {
    /// Program (base name).
    program: &'static str,
    /// The words after the program (git's global options skipped) that select the making
    /// form, matched exactly (`["-m", "venv"]`, `["new"]`).
    form: &'static [&'static str],
    /// Options that take their value as the next word (any other option takes none).
    takes: &'static [&'static str],
    /// Which operands it makes.
    makes: Operands,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Operands {
    /// Every operand (`mkdir a b`, `python3 -m venv a b`).
    All,
    /// The only operand (`cargo new x`); none or several: nothing known.
    One,
    /// `git clone`: the second operand, or the repository's last component.
    Clone,
}

/// Value-taking options of the makers, given as a separate word.
const MKDIR_VALUE: &[&str] = &["-m", "--mode", "--context"];
const CLONE_VALUE: &[&str] = &[
    "-b",
    "--branch",
    "-o",
    "--origin",
    "--depth",
    "--reference",
    "--reference-if-able",
    "-c",
    "--config",
    "--template",
    "--separate-git-dir",
    "-u",
    "--upload-pack",
    "-j",
    "--jobs",
    "--filter",
    "--shallow-since",
    "--shallow-exclude",
    "--server-option",
    "--bundle-uri",
];
const INIT_VALUE: &[&str] = &[
    "-b",
    "--initial-branch",
    "--template",
    "--separate-git-dir",
    "--object-format",
    "--shared",
];
const CARGO_VALUE: &[&str] = &[
    "--name",
    "--vcs",
    "--edition",
    "--registry",
    "--config",
    "-Z",
    "--color",
];
const VENV_VALUE: &[&str] = &["--prompt", "-p", "--python", "--seeder", "--activators"];
const NEW_VALUE: &[&str] = &["--name", "-d", "--database", "--template", "-m", "--module"];

const MAKERS: &[Maker] = &[
    Maker {
        program: "mkdir",
        form: &[],
        takes: MKDIR_VALUE,
        makes: Operands::All,
    },
    Maker {
        program: "git",
        form: &["clone"],
        takes: CLONE_VALUE,
        makes: Operands::Clone,
    },
    Maker {
        program: "git",
        form: &["init"],
        takes: INIT_VALUE,
        makes: Operands::One,
    },
    Maker {
        program: "cargo",
        form: &["new"],
        takes: CARGO_VALUE,
        makes: Operands::One,
    },
    Maker {
        program: "cargo",
        form: &["init"],
        takes: CARGO_VALUE,
        makes: Operands::One,
    },
    // `python3 -m venv DIR`: the analyzer runs the module as the command it is.
    Maker {
        program: "venv",
        form: &[],
        takes: VENV_VALUE,
        makes: Operands::All,
    },
    Maker {
        program: "virtualenv",
        form: &[],
        takes: VENV_VALUE,
        makes: Operands::One,
    },
    Maker {
        program: "uv",
        form: &["venv"],
        takes: VENV_VALUE,
        makes: Operands::One,
    },
    Maker {
        program: "uv",
        form: &["init"],
        takes: NEW_VALUE,
        makes: Operands::One,
    },
    Maker {
        program: "poetry",
        form: &["new"],
        takes: NEW_VALUE,
        makes: Operands::One,
    },
    Maker {
        program: "mix",
        form: &["new"],
        takes: NEW_VALUE,
        makes: Operands::One,
    },
    Maker {
        program: "rails",
        form: &["new"],
        takes: NEW_VALUE,
        makes: Operands::One,
    },
];

/// The directories a maker ([`MAKERS`]) makes (as written, relative to the command's
/// directory). A form not read here (`git -C X clone`, a maker not in the table) makes
/// nothing as far as provenance goes: no relaxation follows. An option this table does not
/// know to take a value could make its value look like an operand: the path it names is
/// remembered only if nothing was there when the call was judged, so what it relaxes is a
/// place the user had nothing in.
fn made_dirs(argv: &[String]) -> Vec<&str> {
    let Some(program) = argv.first() else {
        return Vec::new();
    };
    let prog = base_name(program);
    let after = crate::pattern::args_after_globals(argv);
    if prog == "git" && argv[1..argv.len() - after.len()].iter().any(|g| g == "-C") {
        return Vec::new();
    }
    let Some((maker, rest)) = MAKERS.iter().find_map(|m| {
        (m.program == prog && after.len() >= m.form.len() && after[..m.form.len()] == *m.form)
            .then(|| (m, &after[m.form.len()..]))
    }) else {
        return Vec::new();
    };
    let mut operands = Vec::new();
    let mut skip = false;
    let mut only = false;
    for w in rest {
        if skip {
            skip = false;
        } else if only || !w.starts_with('-') || w == "-" {
            operands.push(w.as_str());
        } else if w == "--" {
            only = true;
        } else if maker.takes.contains(&w.as_str()) {
            skip = true;
        }
    }
    match (maker.makes, operands.as_slice()) {
        (Operands::All, _) => operands,
        (Operands::One, [dir]) | (Operands::Clone, [_, dir]) => vec![*dir],
        (Operands::Clone, [repo]) => {
            // git names the directory after the repository's last component, `.git` and
            // trailing slashes dropped (`https://host/o/app.git` → `app`).
            let name = repo
                .trim_end_matches('/')
                .rsplit(['/', ':'])
                .next()
                .unwrap_or("");
            let name = name.strip_suffix(".git").unwrap_or(name);
            if name.is_empty() || name == "." || name == ".." {
                Vec::new()
            } else {
                vec![name]
            }
        }
        _ => Vec::new(),
    }
}

/// The words of `w` that may name a file: the word itself, and for an option its value
/// (`--file=.env`, the tail of a short cluster `-f.env`).
fn option_values(w: &str) -> Vec<&str> {
    let mut out = vec![w];
    if let Some(rest) = w.strip_prefix("--") {
        if let Some((_, v)) = rest.split_once('=') {
            out.push(v);
        }
    } else if let Some(cluster) = w.strip_prefix('-') {
        // The tail after the first option letter, cut at a character boundary: the letter
        // may be any character (`-щ.env`), and a byte offset inside it would panic.
        let mut letters = cluster.chars();
        if letters.next().is_some() && !letters.as_str().is_empty() {
            out.push(letters.as_str());
        }
    }
    out
}

/// The worst way the line can bring secret data into what it writes, given the credential
/// files it may read as the session's own (`own`).
fn line_taint(j: &Judge<'_>, own: &[PathBuf]) -> Taint {
    let facts = j.facts;
    if j.read_matches()
        .iter()
        .any(|m| CREDENTIALS.contains(&m.category) && !own.contains(&m.path))
    {
        return Taint::Secret;
    }
    let secret_files: Vec<&str> = j
        .state
        .secret_files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    if !secret_files.is_empty()
        && facts
            .read_paths()
            .iter()
            .any(|p| secret_files.contains(&&*p.to_string_lossy()))
    {
        return Taint::Secret;
    }
    let Some(analysis) = &facts.analysis else {
        return Taint::None;
    };
    let pctx = path_ctx(facts, j.ctx);
    let own_reads = reads_of_only(j, own, &pctx);
    let mut taint = Taint::None;
    for (k, c) in analysis.commands.iter().enumerate() {
        let category = c.verdict.category.as_deref();
        if matches!(
            category,
            Some("credential_access" | "credential_exfiltration")
        ) && !own_reads.contains(&k)
        {
            return Taint::Secret;
        }
        if c.argv.first().is_some_and(|p| base_name(p) == "envsubst") {
            taint = Taint::Environment;
        }
    }
    if facts.tool.is_some_and(|t| t.kind == ToolKind::Shell)
        && analysis.secret_files.iter().any(|(p, _)| !own.contains(p))
    {
        // Secret data written somewhere else on the line: the line handles secrets.
        return Taint::Secret;
    }
    taint
}

/// The analyzer rules that judge a write by where it lies, beside the delete ones
/// ([`crate::regenerable::OUTSIDE`]).
const WRITE_OUTSIDE: &str = "fs.overwrite_outside_workspace";

/// The line's commands whose every write and delete lies inside what the session created
/// outside the workspace (or inside the workspace), judged by the analyzer only for where
/// that is: `cp -r dist ../build2/`, `rm -rf ../build2` after `mkdir ../build2`, `rm -rf
/// ../scratch` after `git clone … ../scratch`. Each with a note for the steps. Nothing
/// there predates the session, so nothing of the user's is overwritten or lost.
/// Invariant: a path reached through a link (made earlier or on this line), a sensitive
/// location, the home or the workspace root keep the verdict (see [`inside_created`]).
pub(crate) fn created_only(j: &Judge<'_>) -> (Vec<usize>, Vec<String>) {
    let mut commands = Vec::new();
    let mut notes = Vec::new();
    let Some(analysis) = &j.facts.analysis else {
        return (commands, notes);
    };
    if !j.ctx.follow_symlinks || (j.state.created.is_empty() && j.provenance().created.is_empty()) {
        return (commands, notes);
    }
    let pctx = path_ctx(j.facts, j.ctx);
    for (k, c) in analysis.commands.iter().enumerate() {
        let Some(rule) = c.verdict.rule_id.as_deref() else {
            continue;
        };
        if !(crate::regenerable::OUTSIDE.contains(&rule) || rule == WRITE_OUTSIDE)
            || !c.effects.is_empty()
        {
            continue;
        }
        let mut touched = Vec::new();
        let mut placed = true;
        for (i, item) in items_of(j.facts, k) {
            placed &= item.unplaced.is_empty();
            for p in &item.paths {
                if p.op == PathOp::Read {
                    // A copy of something sensitive into the created place (`cp -r ~/.ssh
                    // ../build2/`) is judged as the read it is: the place verdict may be
                    // what stood for it.
                    placed &= j
                        .facts
                        .candidates(i, p)
                        .iter()
                        .all(|r| hookgate_paths::classify_subtree(r, &pctx).is_empty());
                } else {
                    touched.extend(j.facts.candidates(i, p));
                }
            }
        }
        let inside_ws = |p: &Path| {
            is_within(p, &j.ctx.workspace)
                && p != j.ctx.workspace
                && !is_within(p, &j.ctx.workspace.join(".git"))
        };
        if placed
            && touched.iter().any(|p| !inside_ws(p))
            && touched
                .iter()
                .all(|p| inside_ws(p) || inside_created(j, p, Some(k)))
        {
            commands.push(k);
            notes.push(format!(
                "`{}` touches only what this session created",
                c.argv.join(" ")
            ));
        }
    }
    (commands, notes)
}

/// Whether `p` lies inside a path the session created outside the workspace (remembered,
/// or created by this line), is not itself a sensitive location or above the home or the
/// workspace, and — following links — is where it says.
pub(crate) fn inside_created(j: &Judge<'_>, p: &Path, by: Option<usize>) -> bool {
    let ctx = j.ctx;
    if !ctx.follow_symlinks
        || is_within(&ctx.workspace, p)
        || ctx.home.as_deref().is_some_and(|h| is_within(h, p))
    {
        return false;
    }
    let prov = j.provenance();
    let created = j
        .state
        .created
        .iter()
        .map(|c| PathBuf::from(&c.path))
        .filter(|c| outside(c, ctx))
        .chain(
            prov.made_outside
                .iter()
                .filter(|(_, maker)| by.is_none() || *maker != by)
                .map(|(c, _)| c.clone()),
        )
        .any(|c| is_within(p, &c));
    if !created {
        return false;
    }
    let pctx = path_ctx(j.facts, ctx);
    if !hookgate_paths::classify_subtree(p, &pctx).is_empty() {
        return false;
    }
    // A link on the way (`../build2` → `~/Documents`) makes the delete another place's.
    match hookgate_paths::resolve(&p.to_string_lossy(), &j.facts.cwd, None) {
        Ok(r) => r.physical == p,
        Err(_) => false,
    }
}

/// Updates [`SessionState::created`](crate::SessionState::created) after a judged call (see
/// the module doc): what the line taints loses secretless whatever the answer (an asked or
/// denied line may run anyway); what it creates is remembered only when it `ran`; a created
/// path it deletes or moves away is forgotten; one it moves something of the user's into
/// stops being the session's own.
pub(crate) fn record(j: &Judge<'_>, ran: bool) -> Update {
    let prov = j.provenance();
    let tainted = prov.tainted.clone();
    let created = if ran {
        prov.created.clone()
    } else {
        Vec::new()
    };
    let state = j.state;
    let within_created = |p: &Path| {
        state
            .created
            .iter()
            .any(|c| is_within(p, Path::new(&c.path)))
    };
    let mut gone: Vec<PathBuf> = Vec::new();
    let mut foreign_into: Vec<PathBuf> = Vec::new();
    if !state.created.is_empty() || !created.is_empty() {
        for (i, item) in j.facts.items.iter().enumerate() {
            let moved_foreign = item
                .paths
                .iter()
                .any(|p| p.op == PathOp::Move && !within_created(&p.path));
            for p in &item.paths {
                for c in j.facts.candidates(i, p) {
                    match p.op {
                        PathOp::Delete | PathOp::Move if ran => gone.push(c),
                        PathOp::Write if moved_foreign => foreign_into.push(c),
                        _ => {}
                    }
                }
            }
        }
    }
    Update {
        tainted,
        created,
        gone,
        foreign_into,
    }
}

/// What a judged call changes in the session's provenance (see [`record`]), computed while
/// the state is borrowed for judging and applied after.
#[derive(Debug)]
pub(crate) struct Update {
    tainted: Vec<PathBuf>,
    created: Vec<(PathBuf, bool)>,
    gone: Vec<PathBuf>,
    foreign_into: Vec<PathBuf>,
}

impl Update {
    pub(crate) fn apply(self, state: &mut crate::SessionState) {
        for c in &mut state.created {
            if self.tainted.iter().any(|t| *t == *c.path) {
                c.secretless = false;
            }
        }
        for (p, secretless) in self.created {
            state.note_created(&p.to_string_lossy(), secretless);
        }
        // After the creations: a line that makes and removes a path leaves nothing behind.
        state.created.retain(|c| {
            let p = Path::new(&c.path);
            !self.gone.iter().any(|g| is_within(p, g))
                && !self.foreign_into.iter().any(|d| is_within(d, p))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::option_values;

    #[test]
    fn option_values_cut_short_clusters_at_character_boundaries() {
        // A byte slice at offset 2 would land inside `щ` and panic.
        assert_eq!(option_values("-щ.env"), vec!["-щ.env", ".env"]);
        assert_eq!(option_values("-щ"), vec!["-щ"]);
        assert_eq!(option_values("-f.env"), vec!["-f.env", ".env"]);
        assert_eq!(option_values("--file=.env"), vec!["--file=.env", ".env"]);
        assert_eq!(option_values("-"), vec!["-"]);
    }
}
