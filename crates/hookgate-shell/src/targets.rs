//! Judging the *targets* of deletions, writes and permission changes against the context.
//!
//! Deletion inside the workspace (not its root, not `.git`) or under a temp dir is normal work;
//! the root, home, system dirs and anything else outside the workspace are not. Paths are made
//! absolute and folded with `hookgate_paths::normalize` and compared by component with
//! `hookgate_paths::is_within`, never by string prefix.

use std::path::{Component, Path, PathBuf};

use hookgate_paths::{is_within, normalize};

use crate::model::Context;
use crate::taxonomy::{RuleRef, ids};

/// The directory relative paths resolve against at this point of the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cwd {
    Known(PathBuf),
    /// After `cd "$X"` and the like.
    Unknown,
}

/// A resolved argument as far as target judgement is concerned.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Shape {
    /// A single path.
    Exact,
    /// Contains unquoted glob characters: stands for children of its literal prefix.
    Glob,
    /// Paths *below* this directory (find results, `{}` of `find -exec`).
    Descendants,
}

/// Directories whose content belongs to the system; touching them is never workspace work.
const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc",
    "/root",
    "/run",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/nix",
    "/snap",
    "/home",
    "/Users",
    "/System",
    "/Library",
    "/Applications",
    "/Volumes",
    "/private",
    "/mnt",
    "/media",
];

/// Where a target lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// `/`, home itself, or an ancestor of the workspace or home.
    Critical,
    WorkspaceRoot,
    GitDir,
    InWorkspace,
    TempRoot,
    InTemp,
    System,
    /// Under home but outside the workspace.
    Home,
    Elsewhere,
    Unresolved,
}

fn place(raw: &str, cwd: &Cwd, ctx: &Context) -> (Place, PathBuf) {
    place_as(raw, cwd, ctx, true)
}

/// [`place`], judging a temp path by the catalog for itself only (`subtree: false`: a single
/// file written) or for anything below it too (a delete or chmod that may recurse).
fn place_as(raw: &str, cwd: &Cwd, ctx: &Context, subtree: bool) -> (Place, PathBuf) {
    let absolute = raw.starts_with('/')
        || raw.starts_with('~')
        || raw.starts_with("$HOME")
        || raw.starts_with("${HOME}");
    let base = match cwd {
        Cwd::Known(p) => p.as_path(),
        Cwd::Unknown if absolute => Path::new("/"),
        Cwd::Unknown => return (Place::Unresolved, PathBuf::new()),
    };
    if raw.starts_with('~') && ctx.home.is_none() {
        return (Place::Unresolved, PathBuf::new());
    }
    let n = normalize(raw, base, ctx.home.as_deref());
    if n.escaped_root {
        return (Place::Critical, n.path);
    }
    (classify_as(&n.path, ctx, subtree), n.path)
}

fn classify(path: &Path, ctx: &Context) -> Place {
    classify_as(path, ctx, true)
}

fn classify_as(path: &Path, ctx: &Context, subtree: bool) -> Place {
    let workspace = ctx.cwd.as_path();
    if is_within(workspace, path) {
        // `path` is the workspace root or one of its ancestors.
        return if path == workspace {
            Place::WorkspaceRoot
        } else {
            Place::Critical
        };
    }
    if let Some(home) = &ctx.home
        && is_within(home, path)
    {
        return Place::Critical;
    }
    if is_within(path, workspace) {
        let first = path
            .strip_prefix(workspace)
            .ok()
            .and_then(|rest| rest.components().next());
        return match first {
            Some(Component::Normal(c)) if c == ".git" => Place::GitDir,
            _ => Place::InWorkspace,
        };
    }
    // A sensitive location beats the scratch rule: under the home directory (CI containers
    // often put HOME below /tmp) or covered by the sensitive-path catalog, a path is judged
    // as what it is, not as temp work.
    if let Some(home) = &ctx.home
        && is_within(path, home)
    {
        return Place::Home;
    }
    let temps = ctx.temp_dirs.iter().chain(ctx.tmpdir.iter());
    for temp in temps {
        if path == temp {
            return Place::TempRoot;
        }
        if is_within(path, temp) {
            let pctx = hookgate_paths::PathContext::new(&ctx.cwd, ctx.home.clone());
            // Writing one file only needs the file itself checked; the subtree check is the
            // expensive part of the catalog and only matters for what may recurse.
            let matches = if subtree {
                hookgate_paths::classify_subtree(path, &pctx)
            } else {
                hookgate_paths::classify(path, &pctx)
            };
            return if matches.is_empty() {
                Place::InTemp
            } else {
                Place::Elsewhere
            };
        }
    }
    if SYSTEM_DIRS.iter().any(|d| is_within(path, Path::new(d))) {
        return Place::System;
    }
    Place::Elsewhere
}

/// Splits a glob word into its literal directory prefix and whether the first globbed
/// component may match `..` (in bash before 5.2 a pattern that can match the string `..`
/// does: `.*`, `.?`, `..*`; `.env*` cannot, it needs the letters `env`).
fn glob_base(raw: &str) -> (String, bool) {
    let mut base = String::new();
    for part in raw.split_inclusive('/') {
        if part.contains(['*', '?', '[']) {
            let dotted = may_match_dotdot(part.trim_end_matches('/'));
            if base.is_empty() {
                base.push('.');
            }
            return (base, dotted);
        }
        base.push_str(part);
    }
    (base, false)
}

/// Whether every file a glob word can select lies below a directory of the workspace: its
/// literal base is inside the workspace (not its root, not `.git`) and its first globbed
/// component cannot match `..` (`logs/*.log`, `tmp/cache-*`). Lets a command that resizes
/// or rewrites each match (`truncate -s 0 logs/*.log`) be judged as a write there.
pub(crate) fn glob_in_workspace(raw: &str, cwd: &Cwd, ctx: &Context) -> bool {
    // `logs/*/../../.claude/x` climbs out after the glob: any `..` component disqualifies.
    let (base, dotted) = glob_base(raw);
    !dotted && !raw.split('/').any(|c| c == "..") && place(&base, cwd, ctx).0 == Place::InWorkspace
}

/// Whether a glob whose literal base is a temp dir (or a directory in one) that holds the
/// home directory or the workspace (CI containers put HOME under `/tmp`) can only select
/// scratch: no expansion of the pattern is, holds or lies below the home directory or the
/// workspace (`/tmp/acme-build-*` beside `/tmp/ci-home`). Invariant: a pattern that may
/// reach either (`/tmp/*`, `/tmp/ci-*` with HOME `/tmp/ci-home`, `~/*`) keeps the base's
/// judgement; matching is case-insensitive and `**` recursive, so it errs towards reaching.
fn scratch_glob(raw: &str, base: &Path, cwd: &Cwd, ctx: &Context) -> bool {
    let in_temp = ctx
        .temp_dirs
        .iter()
        .chain(ctx.tmpdir.iter())
        .any(|t| is_within(base, t));
    if !in_temp {
        return false;
    }
    let (_, full) = place(raw, cwd, ctx);
    let Some(pattern) = hookgate_paths::ShellPattern::new(&full) else {
        return false;
    };
    ctx.home
        .iter()
        .chain(std::iter::once(&ctx.cwd))
        .filter(|p| is_within(p, base))
        .all(|p| pattern.reach(p).is_none())
}

/// Whether a component pattern can match the name `..`: a `.` and then something that can
/// match `.` (a wildcard, a class, or `.` itself followed only by `*`).
fn may_match_dotdot(component: &str) -> bool {
    let Some(rest) = component.strip_prefix('.') else {
        return false;
    };
    rest.starts_with(['*', '?', '['])
        || rest
            .strip_prefix('.')
            .is_some_and(|r| r.chars().all(|c| c == '*'))
}

/// Whether a glob at the workspace root may match any name there (`*`, `*.*`, `?*`, `*/`,
/// `[a-z]*`), as opposed to names of one kind (`*.log`, `core.*`, `*~`, `*/node_modules`):
/// its last component has a literal first (after a leading dot) or last character. Invariant: the catch-all kind
/// deletes most of the workspace and stays asked; a kind of file is ordinary cleanup.
fn catch_all_glob(raw: &str) -> bool {
    let last = raw.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let literal = |c: Option<char>| {
        c.is_some_and(|c| {
            !matches!(
                c,
                '*' | '?' | '[' | ']' | '.' | '(' | ')' | '|' | '!' | '@' | '+' | '{' | '}' | '\\'
            )
        })
    };
    // A leading dot only narrows to hidden names; the character after it says which.
    let head = last.strip_prefix('.').unwrap_or(last);
    !(literal(head.chars().next()) || literal(last.chars().last()))
}

/// Whether a pattern's last component (one directory level: the workspace root's entries)
/// matches `.git`, the repository's own directory. As bash without `dotglob`, only a
/// pattern with a leading dot reaches it.
fn selects_git_dir(raw: &str) -> bool {
    let trimmed = raw.trim_end_matches('/');
    let (dir, last) = trimmed.rsplit_once('/').unwrap_or(("", trimmed));
    last.starts_with('.')
        && !dir.contains(is_glob_char)
        && hookgate_paths::Glob::compile(last).is_ok_and(|g| g.matches(&[".git"]))
}

/// Judges a deletion target. `None` means normal work.
/// The destination and the sources of a copy, move or link (`cp a b DEST`, `cp -t DEST a b`,
/// `mv --target-directory=DEST a`, and its abbreviations such as `--targ=DEST`, normalised
/// against the tool's long options). Option values are neither. Invariant: a target directory
/// given by option is the destination, never dropped.
pub(crate) fn copy_parts<'w>(
    name: &str,
    words: &'w [crate::walk::Word],
) -> (Option<crate::walk::Word>, Vec<&'w crate::walk::Word>) {
    use crate::taxonomy::{LongOption, long_option};
    let target_opt = name != "rsync";
    let mut target: Option<crate::walk::Word> = None;
    let mut operands = Vec::new();
    let mut only_operands = false;
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        let t = w.text.as_str();
        if only_operands || !w.exact || !t.starts_with('-') || t == "-" {
            operands.push(w);
            continue;
        }
        if t == "--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (flag, inline) = match long.split_once('=') {
                Some((f, v)) => (format!("--{f}"), Some(v)),
                None => (t.to_owned(), None),
            };
            let names: Vec<&str> = match long_option(name, "", &flag) {
                LongOption::Exact(full) => vec![full],
                LongOption::Ambiguous(all) => all,
                LongOption::Unlisted => vec![],
            };
            let is_target = target_opt && names.contains(&"--target-directory");
            let takes = is_target
                || names.iter().any(|n| {
                    matches!(
                        *n,
                        "--suffix"
                            | "--mode"
                            | "--owner"
                            | "--group"
                            | "--rsh"
                            | "--exclude"
                            | "--filter"
                    )
                });
            let value = match inline {
                Some(v) => Some(crate::walk::Word {
                    text: v.to_owned(),
                    ..w.clone()
                }),
                None if takes => {
                    i += 1;
                    words.get(i - 1).cloned()
                }
                None => None,
            };
            if is_target {
                target = value;
            }
            continue;
        }
        // Short cluster: `-t DIR`, `-tDIR`, `-rt DIR`; `-S SUF`, install's `-m/-o/-g`, rsync's `-e`.
        let letters = t.get(1..).unwrap_or("");
        for (k, ch) in letters.char_indices() {
            let value_letter = (ch == 't' && target_opt)
                || ch == 'S'
                || (name == "install" && matches!(ch, 'm' | 'o' | 'g'))
                || (name == "rsync" && matches!(ch, 'e' | 'f'));
            if !value_letter {
                continue;
            }
            let rest = letters.get(k + ch.len_utf8()..).unwrap_or("");
            let value = if rest.is_empty() {
                i += 1;
                words.get(i - 1).cloned()
            } else {
                Some(crate::walk::Word {
                    text: rest.to_owned(),
                    ..w.clone()
                })
            };
            if ch == 't' && target_opt {
                target = value;
            }
            break;
        }
    }
    match target {
        Some(t) => (Some(t), operands),
        None if operands.len() > 1 => {
            let dest = operands.pop().cloned();
            (dest, operands)
        }
        None => (None, operands),
    }
}

/// `rclone sync|bisync SRC DEST` makes DEST a mirror of SRC, deleting whatever DEST holds that
/// SRC lacks. A mirror *into* a local DEST is judged as deleting DEST's tree (as `rsync
/// --delete` is). Into a remote, WA7 lets a source the agent built pass (a deploy of
/// `./dist`, `./site`): the source is the workspace's and holds files. A source elsewhere — an
/// empty directory made in /tmp or the workspace, home, a system path, another remote, a word
/// known only at run time —
/// says nothing about what the remote should keep, so the mirror may wipe it: asked
/// (`cloud.storage_delete_rclone`). Dry runs (`-n`, `--dry-run`, `-i`) delete nothing.
pub(crate) fn rclone_mirror(
    words: &[crate::walk::Word],
    cwd: &Cwd,
    ctx: &Context,
) -> Option<crate::model::Verdict> {
    let mut positionals = Vec::new();
    for w in words {
        let t = w.text.as_str();
        if w.exact && matches!(t, "-n" | "--dry-run" | "-i" | "--interactive") {
            return None;
        }
        if !(w.exact && t.starts_with('-')) {
            positionals.push(w);
        }
    }
    let [verb, src, dest, ..] = positionals.as_slice() else {
        return None;
    };
    if !(verb.exact && matches!(verb.text.as_str(), "sync" | "bisync")) {
        return None;
    }
    // rclone's remote syntax: `name:path` or `:backend:path`; a local path has no `:` before
    // its first `/` (or starts with `/`, `.`, `~`).
    let remote = |t: &str| {
        !t.starts_with(['/', '.', '~'])
            && t.split('/').next().is_some_and(|first| first.contains(':'))
    };
    if !dest.exact {
        return Some(ids::CLOUD_STORAGE_DELETE_RCLONE.verdict());
    }
    if !remote(&dest.text) {
        return judge_delete(&dest.text, true, dest.shape(), true, cwd, ctx).map(RuleRef::verdict);
    }
    let (src_place, src_path) = place(&src.text, cwd, ctx);
    // An existing empty directory mirrors nothing onto the remote, deleting all it holds. A
    // source not there yet is taken as the build output the line makes (`npm run build &&
    // rclone sync dist remote:site`).
    let holds_files = || std::fs::read_dir(&src_path).map_or(true, |mut e| e.next().is_some());
    let from_workspace = src.exact
        && !remote(&src.text)
        && matches!(src_place, Place::InWorkspace | Place::WorkspaceRoot)
        && holds_files();
    (!from_workspace).then(|| {
        let mut v = ids::CLOUD_STORAGE_DELETE_RCLONE.verdict();
        v.blast_radius = v.blast_radius.min(crate::model::BlastRadius::Medium);
        v.reason = format!(
            "{} (`rclone {}` mirrors `{}`, not a workspace directory holding files, onto the remote: what the remote holds that it lacks is deleted)",
            v.reason, verb.text, src.text
        );
        v
    })
}

pub(crate) fn judge_delete(
    raw: &str,
    exact: bool,
    shape: Shape,
    recursive: bool,
    cwd: &Cwd,
    ctx: &Context,
) -> Option<RuleRef> {
    if !exact {
        return Some(ids::FS_DELETE_UNRESOLVED_TARGET);
    }
    let outside = if recursive {
        ids::FS_DELETE_OUTSIDE_WORKSPACE_RECURSIVE
    } else {
        ids::FS_DELETE_OUTSIDE_WORKSPACE
    };
    match shape {
        Shape::Exact => match place(raw, cwd, ctx).0 {
            Place::Critical | Place::System => Some(ids::FS_DELETE_SYSTEM),
            Place::WorkspaceRoot => Some(ids::FS_DELETE_WORKSPACE_ROOT),
            Place::GitDir => Some(ids::FS_DELETE_GIT_DIR),
            Place::InWorkspace | Place::InTemp => None,
            Place::TempRoot => Some(ids::FS_DELETE_TEMP_ROOT),
            Place::Home | Place::Elsewhere => Some(outside),
            Place::Unresolved => Some(ids::FS_DELETE_UNRESOLVED_TARGET),
        },
        Shape::Glob | Shape::Descendants => {
            let (base, dotted) = match shape {
                Shape::Glob => glob_base(raw),
                _ => (raw.to_owned(), false),
            };
            let (mut where_, path) = place(&base, cwd, ctx);
            if where_ == Place::Critical
                && matches!(shape, Shape::Glob)
                && scratch_glob(raw, &path, cwd, ctx)
            {
                where_ = Place::TempRoot;
            }
            if dotted && where_ != Place::Unresolved {
                // `.*` can match `..`: judge the parent as if deleted itself.
                let parent = path.parent().unwrap_or(Path::new("/"));
                let parent_place = classify(parent, ctx);
                if matches!(
                    parent_place,
                    Place::Critical | Place::System | Place::WorkspaceRoot
                ) {
                    return Some(ids::FS_DELETE_SYSTEM);
                }
            }
            match where_ {
                Place::Critical | Place::System => Some(ids::FS_DELETE_SYSTEM),
                Place::WorkspaceRoot => match shape {
                    Shape::Glob if catch_all_glob(raw) => Some(ids::FS_DELETE_WORKSPACE_GLOB),
                    // `.git*`, `.g*`, `.??*` at the root select the repository itself.
                    Shape::Glob if selects_git_dir(raw) => Some(ids::FS_DELETE_GIT_DIR),
                    _ => None,
                },
                Place::GitDir => Some(ids::FS_DELETE_GIT_DIR),
                Place::InWorkspace | Place::InTemp | Place::TempRoot => None,
                Place::Home | Place::Elsewhere => Some(outside),
                Place::Unresolved => Some(ids::FS_DELETE_UNRESOLVED_TARGET),
            }
        }
    }
}

/// Whether `git clean WORDS` (the words after `git`) is restricted to pathspecs that are all
/// ordinary deletion targets (`git clean -fdx -- dist build`, `git clean -fd tmp/`): git then
/// removes only untracked files below them, a subset of what `rm -rf dist build` removes, so
/// it is never judged stricter. Invariant: no pathspec (the whole tree), a pathspec with magic
/// (`:/`, `:!keep`, which widen the scope), a global option that moves the repository (`-C`,
/// `--git-dir`, `--work-tree`), a run-time word, or any pathspec the deletion rules flag (the
/// workspace root, `.git`, outside it) keeps `git.clean_force`.
pub(crate) fn git_clean_within_workspace(
    words: &[crate::walk::Word],
    cwd: &Cwd,
    ctx: &Context,
) -> bool {
    let mut rest = words;
    // Only config pairs may come before the subcommand.
    while let [first, value, tail @ ..] = rest {
        if !(first.exact && first.text == "-c" && value.exact) {
            break;
        }
        rest = tail;
    }
    let Some((sub, options)) = rest.split_first() else {
        return false;
    };
    if !(sub.exact && sub.text == "clean") {
        return false;
    }
    let mut paths = Vec::new();
    let mut only_paths = false;
    let mut skip_value = false;
    for w in options {
        if !w.exact {
            return false;
        }
        let t = w.text.as_str();
        if skip_value {
            skip_value = false;
        } else if only_paths || !t.starts_with('-') || t == "-" {
            paths.push(t);
        } else if t == "--" {
            only_paths = true;
        } else if t.len() >= 3 && "--exclude".starts_with(t) {
            // `--exclude PATTERN` and its abbreviations (`--excl`).
            skip_value = true;
        } else if let Some(letters) = t.strip_prefix('-').filter(|l| !l.starts_with('-')) {
            // `-e PATTERN`, `-fde PATTERN`, `-fdePATTERN`: the rest of the cluster, or the
            // next word when `e` ends it.
            skip_value = letters.find('e').is_some_and(|k| k + 1 == letters.len());
        }
    }
    !paths.is_empty()
        && paths.iter().all(|p| {
            let shape = if p.contains(['*', '?', '[']) {
                Shape::Glob
            } else {
                Shape::Exact
            };
            let (where_, path) = place(p.trim_end_matches('/'), cwd, ctx);
            !p.starts_with(':')
                && !p.is_empty()
                && where_ == Place::InWorkspace
                && judge_delete(p, true, shape, true, cwd, ctx).is_none()
                // An ignored `.env` or agent config is not build output.
                && !is_secret_normalized(&path, ctx)
                && hookgate_paths::classify_subtree(
                    &path,
                    &hookgate_paths::PathContext::new(&ctx.cwd, ctx.home.clone()),
                )
                .is_empty()
        })
}

/// Devices whose writing destroys a filesystem.
fn is_block_device(path: &Path) -> bool {
    let Ok(rest) = path.strip_prefix("/dev") else {
        return false;
    };
    let name = rest.to_string_lossy();
    // Tape drives and SCSI generic devices (`/dev/st0`, `/dev/nst0`, `/dev/sg4`, FreeBSD's
    // `/dev/sa0`/`/dev/nsa0`, `/dev/rmt/0`): writing one overwrites the archive on the
    // medium. Only with a unit number, so `/dev/stdout` and `/dev/stderr` stay streams.
    let tape = ["st", "nst", "sg", "sa", "nsa", "rmt/", "tape"]
        .iter()
        .any(|p| {
            name.strip_prefix(p)
                .is_some_and(|unit| unit.starts_with(|c: char| c.is_ascii_digit()))
        });
    tape || [
        "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "mapper", "md", "loop", "dm-",
        "mem", "kmem", "port", "sr", "nbd", "zram",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Judges a write/truncate target (redirects, `tee`, `cp`/`mv` destinations, `dd of=`).
pub(crate) fn judge_write(raw: &str, exact: bool, cwd: &Cwd, ctx: &Context) -> Option<RuleRef> {
    if !exact {
        return Some(ids::FS_OVERWRITE_UNRESOLVED_TARGET);
    }
    // A destination with a trailing slash is a directory: what is written is an entry in it
    // (`cp dist/main.js /tmp/` with HOME under /tmp writes /tmp/main.js, not /tmp), judged
    // as one (a name no catalogued entry has).
    let entry;
    let raw = if raw.len() > 1 && raw.ends_with('/') {
        entry = format!("{raw}.hookgate-entry");
        entry.as_str()
    } else {
        raw
    };
    let (where_, path) = place_as(raw, cwd, ctx, false);
    if path.starts_with("/dev") {
        return is_block_device(&path).then_some(ids::DISK_WRITE_BLOCK_DEVICE);
    }
    match where_ {
        // A temp dir itself as a write target is a directory: a redirect to it fails, and a
        // copy or move lands inside it (`cp dist/main.js /tmp/`), which is scratch.
        Place::InWorkspace | Place::InTemp | Place::GitDir | Place::TempRoot => None,
        Place::Critical | Place::System => Some(ids::FS_OVERWRITE_SYSTEM),
        // Servers' public keys: adding one (`ssh-keyscan host >> ~/.ssh/known_hosts`) runs
        // nothing and grants nothing; it is how CI trusts its git host.
        Place::Home if is_known_hosts(&path, ctx) => None,
        Place::Home if is_profile(&path, ctx) => Some(ids::FS_OVERWRITE_SYSTEM),
        Place::Unresolved => Some(ids::FS_OVERWRITE_UNRESOLVED_TARGET),
        _ => Some(ids::FS_OVERWRITE_OUTSIDE_WORKSPACE),
    }
}

/// `~/.ssh/known_hosts` (and `known_hosts2`, `known_hosts.old`).
fn is_known_hosts(path: &Path, ctx: &Context) -> bool {
    ctx.home
        .as_ref()
        .and_then(|home| path.strip_prefix(home.join(".ssh")).ok())
        .and_then(|rest| rest.to_str())
        .is_some_and(|name| !name.contains('/') && name.starts_with("known_hosts"))
}

/// Shell start-up files and SSH config: writing them runs code in every future shell.
fn is_profile(path: &Path, ctx: &Context) -> bool {
    let Some(home) = &ctx.home else { return false };
    let Ok(rest) = path.strip_prefix(home) else {
        return false;
    };
    let first = rest.components().next();
    matches!(first, Some(Component::Normal(c)) if [
        ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv",
        ".zlogin", ".ssh", ".config", ".gitconfig", ".inputrc", ".xinitrc", ".xprofile",
    ].iter().any(|p| c == *p))
}

/// True when `raw` names one file in a scratch place: inside a temp directory and neither
/// the home, the workspace nor a catalogued location ([`Place::InTemp`], the scratch rule of
/// deletions). Unresolved words are never scratch.
///
/// Unlike a deletion (which removes a link, not its target), a client opening the file follows
/// symlinks: the file's real place must be scratch too (`ln -s ~/app.db /tmp/t.db` first). One
/// `canonicalize` of the file when it exists; only database files in temp dirs get here.
pub(crate) fn is_scratch(raw: &str, cwd: &Cwd, ctx: &Context) -> bool {
    let (place, path) = place_as(raw, cwd, ctx, false);
    if place != Place::InTemp {
        return false;
    }
    match std::fs::canonicalize(&path) {
        Ok(real) => real == path || classify_as(&real, ctx, false) == Place::InTemp,
        // A dangling link: the client would create its target, wherever that is.
        Err(_) if std::fs::symlink_metadata(&path).is_ok() => false,
        // Not there (yet): created by the client in the temp dir.
        Err(_) => !path.parent().is_some_and(|d| {
            std::fs::canonicalize(d)
                .is_ok_and(|r| r != d && classify_as(&r, ctx, false) != Place::InTemp)
        }),
    }
}

/// Judges the target of `chmod`/`chown`/`chgrp`.
pub(crate) fn judge_permissions(
    raw: &str,
    exact: bool,
    cwd: &Cwd,
    ctx: &Context,
) -> Option<RuleRef> {
    if !exact {
        return Some(ids::FS_PERMISSIONS_UNRESOLVED_TARGET);
    }
    match place(raw, cwd, ctx).0 {
        // `.git` is the workspace's own metadata (`chmod +x .git/hooks/pre-commit` makes a
        // hook the project wrote runnable); what the hook runs is judged where it is written.
        Place::InWorkspace | Place::InTemp | Place::WorkspaceRoot | Place::GitDir => None,
        Place::Critical | Place::System => Some(ids::FS_PERMISSIONS_SYSTEM),
        Place::Unresolved => Some(ids::FS_PERMISSIONS_UNRESOLVED_TARGET),
        _ => Some(ids::FS_PERMISSIONS_OUTSIDE_WORKSPACE),
    }
}

/// Home-relative credential locations (component prefixes).
const SECRET_UNDER_HOME: &[&str] = &[
    ".ssh",
    // Not `.aws/config`: regions, output formats and profile names (writing it is judged by
    // the path catalog, which knows `credential_process`).
    ".aws/credentials",
    ".aws/sso",
    ".aws/cli",
    // Only gcloud's credential files (the catalog's `gcp-credentials`): `properties` and
    // `configurations/` hold an account, a project and a region.
    ".config/gcloud/application_default_credentials.json",
    ".config/gcloud/credentials.db",
    ".config/gcloud/access_tokens.db",
    ".config/gcloud/legacy_credentials",
    ".azure",
    ".docker/config.json",
    ".kube/config",
    ".npmrc",
    ".pypirc",
    ".netrc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".gnupg",
    ".git-credentials",
    ".config/gh/hosts.yml",
    ".vault-token",
    ".terraform.d/credentials.tfrc.json",
    ".password-store",
    ".config/hub",
    // Cryptocurrency wallets and keystores (the catalog's `crypto-wallets`).
    ".config/solana/id.json",
    ".foundry/keystores",
    ".ethereum/keystore",
    ".bitcoin/wallet.dat",
    ".bitcoin/wallets",
    ".electrum/wallets",
    ".brownie/accounts",
    ".near-credentials",
    ".sui/sui_config/sui.keystore",
    // Shell and REPL histories: every password or token typed on a command line (`mysql
    // -pSECRET`, `export TOKEN=…`) is kept there (the catalog's `shell-history` entry).
    ".bash_history",
    ".zsh_history",
    ".zhistory",
    ".history",
    ".local/share/fish/fish_history",
    ".python_history",
    ".psql_history",
    ".mysql_history",
    ".node_repl_history",
    ".rediscli_history",
    ".sqlite_history",
];

/// First bytes of [`SECRET_UNDER_HOME`]'s entries. A home-relative path can only be at, under
/// or above an entry when it starts with the entry's first byte; most paths checked (the
/// workspace's files, `project/src/…`) are rejected by one load instead of 34 comparisons.
const SECRET_UNDER_HOME_FIRST: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < SECRET_UNDER_HOME.len() {
        let b = SECRET_UNDER_HOME[i].as_bytes();
        if !b.is_empty() {
            t[b[0] as usize] = true;
        }
        i += 1;
    }
    t
};

/// Absolute credential locations.
const SECRET_ABSOLUTE: &[&str] = &[
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/sudoers",
    "/etc/ssl/private",
    "/root/.ssh",
];

/// File names that hold credentials wherever they are.
const SECRET_NAMES: &[&str] = &[
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    ".npmrc",
    ".pypirc",
    ".netrc",
    ".git-credentials",
    "credentials.json",
];

/// `.env` variants that are documentation, not secrets.
const ENV_EXAMPLES: &[&str] = &[
    ".env.example",
    ".env.sample",
    ".env.template",
    ".env.dist",
    ".env.defaults",
];

/// True when `raw` names a credential file or directory. The catalog in `hookgate-paths` is the
/// long-term home of this list; this copy keeps the shell analyzer self-contained.
pub(crate) fn is_secret_path(raw: &str, cwd: &Cwd, ctx: &Context) -> bool {
    // Flags are not paths; this runs for every argument of every reader, so stay cheap.
    if raw.is_empty() || (raw.starts_with('-') && !raw.contains('=')) {
        return false;
    }
    let base = match cwd {
        Cwd::Known(p) => p.as_path(),
        Cwd::Unknown => Path::new("/"),
    };
    is_secret_normalized(&normalize(raw, base, ctx.home.as_deref()).path, ctx)
}

/// A public key or a known-hosts file (`id_ed25519.pub`, `id_*.pub`, `known_hosts`): the
/// public half beside a credential, never one itself — the exclusion [`is_secret_normalized`]
/// makes, for callers that also consult the path catalog.
pub(crate) fn is_public_half(raw: &str) -> bool {
    let name = crate::resolve::basename(raw);
    name.rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("pub"))
        || name.starts_with("known_hosts")
}

/// The home directory itself or a directory above it (`~`, `/home`, `/`): every file of the
/// user is below it, which a data flow counts as credentials sent (`tar czf - ~ | curl …`)
/// but a read naming it (`find ~ -name '*.pub' -exec cat {} \;`) is not a credential read.
pub(crate) fn is_home_or_above(raw: &str, cwd: &Cwd, ctx: &Context) -> bool {
    let base = match cwd {
        Cwd::Known(p) => p.as_path(),
        Cwd::Unknown => Path::new("/"),
    };
    let path = normalize(raw, base, ctx.home.as_deref()).path;
    ctx.home.as_deref().is_some_and(|h| h.starts_with(&path))
}

/// The ssh client's configuration (`.ssh/config`, `.ssh/config.d/…`): host aliases, user
/// names, ports and the paths of keys, never a key itself. Reading it exposes nothing (the
/// catalog's `ssh-client-config` protects writes only, as a write there runs commands); the
/// keys beside it stay secret (`~/.ssh`, `~/.ssh/*`, `~/.ssh/id_ed25519`).
fn is_ssh_client_config(text: &str) -> bool {
    let Some((dir, rest)) = text.rsplit_once("/.ssh/") else {
        return false;
    };
    let _ = dir;
    rest == "config" || rest.starts_with("config.d/")
}

/// [`is_secret_path`] for a path already normalised (absolute, no `.`/`..`/`//`), so callers
/// that need the normalised path too normalise once. Prefixes are compared as strings at
/// component boundaries (exact for a normalised path, and much cheaper than walking
/// `Path::components` for every entry of the lists).
/// Whether a file named `name` could be a credential wherever it is (the name-only part of
/// [`is_secret_normalized`]): `.env` variants and [`SECRET_NAMES`].
pub(crate) fn is_secret_name(name: &str) -> bool {
    ((name == ".env" || name.starts_with(".env.")) && !ENV_EXAMPLES.contains(&name))
        || SECRET_NAMES.contains(&name)
        || glob_aimed_at(name, SECRET_NAMES.iter().chain(ENV_SECRETS), true).is_some()
}

/// Whether `name` (one path component, no pattern) is a key or keystore file by its name
/// alone, wherever it lies (`server.key`, `client.p12`, `deploy.pem`, not `fullchain.pem`):
/// the path catalogue's private-key entries, whose patterns hold in any directory. Lets a
/// search by extension (`find ~ -name '*.key'`) reach what the catalogue calls keys.
///
/// A catalogue lookup costs tens of thousands of instructions; the answer for a name depends
/// only on the catalogue's anywhere-patterns, so it is remembered per thread (bounded: the
/// memory is cleared past 256 names). Invariant: the cache only ever holds what `classify`
/// answered for the same name.
pub(crate) fn is_key_file_name(name: &str, ctx: &Context) -> bool {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static KEY_NAMES: RefCell<HashMap<String, bool>> = RefCell::new(HashMap::new());
    }
    if name.is_empty() || name.contains(['/', '*', '?', '[']) || !name.contains('.') {
        return false;
    }
    if let Some(known) = KEY_NAMES.with(|c| c.borrow().get(name).copied()) {
        return known;
    }
    let pctx = hookgate_paths::PathContext::new(&ctx.cwd, ctx.home.clone());
    let key = hookgate_paths::classify(&Path::new("/").join(name), &pctx)
        .iter()
        .any(|m| m.category == hookgate_paths::Category::PrivateKey);
    KEY_NAMES.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 256 {
            c.clear();
        }
        c.insert(name.to_owned(), key);
    });
    key
}

/// A path a search found that is a credential: by the shell's own lists
/// ([`is_secret_path`]) or, by its name, a key file ([`is_key_file_name`]).
pub(crate) fn is_found_secret(path: &str, cwd: &Cwd, ctx: &Context) -> bool {
    is_secret_path(path, cwd, ctx) || is_key_file_name(crate::resolve::basename(path), ctx)
}

/// Dotenv names a pattern may be aimed at (`.env*`, `.env.prod*`), besides [`SECRET_NAMES`].
const ENV_SECRETS: &[&str] = &[".env", ".env.local", ".env.production", ".env.development"];

/// Whether `c` is a glob character: a name holding one is a pattern the shell (or `find
/// -name`) expands.
fn is_glob_char(c: char) -> bool {
    matches!(c, '*' | '?' | '[')
}

/// The first of `names` that the pattern `glob` (one path component, shell syntax) both
/// matches and, when `aimed`, is aimed at: `.env*` and `id_*` reach `.env` and `id_rsa`, as
/// `cat .env*` or `find ~ -name 'id_*' -exec cat {} +` read them. A pattern is aimed at a
/// name when its literal characters are at least 3 and half the name: `*`, `*.json` or `.*`
/// match `credentials.json` or `.npmrc` too, but anywhere they name every file of a kind, not
/// the credential. Without `aimed` (the names a credential directory holds: `~/.aws/*` is
/// `~/.aws/credentials` among others) matching is enough. As bash without `dotglob`, a
/// leading `*`/`?` never matches a leading dot.
///
/// Invariant protected: a reader's file operand written as a pattern is a credential read
/// when the pattern names a credential, as the literal name is (`grep TOKEN .env*` is `grep
/// TOKEN .env`); only patterns are looked at here, so a plain name costs one scan.
fn glob_aimed_at<'n>(
    glob: &str,
    names: impl IntoIterator<Item = &'n &'n str>,
    aimed: bool,
) -> Option<&'n str> {
    if !glob.contains(is_glob_char) {
        return None;
    }
    let literal = glob.chars().filter(|c| !is_glob_char(*c)).count();
    if aimed && literal < 3 {
        return None;
    }
    let compiled = hookgate_paths::Glob::compile(glob).ok()?;
    names.into_iter().copied().find(|name| {
        (!aimed || literal * 2 >= name.len())
            && (glob.starts_with('.') || !name.starts_with('.'))
            && compiled.matches(&[*name])
    })
}

pub(crate) fn is_secret_normalized(path: &Path, ctx: &Context) -> bool {
    let Some(text) = path.to_str() else {
        return false;
    };
    let name = crate::resolve::basename(text);
    if name.is_empty() {
        return false;
    }
    // A pattern is judged by the names it is aimed at (`.env.example*` names no `.env`), and
    // by the directory it lies in (`~/.ssh/*` is inside a credential directory).
    let pattern = name.contains(is_glob_char);
    if pattern && glob_reaches_secret(text, name, ctx) {
        return true;
    }
    let public = name
        .rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("pub"));
    if public || name.starts_with("known_hosts") || is_ssh_client_config(text) {
        return false;
    }
    if !pattern
        && (((name == ".env" || name.starts_with(".env.")) && !ENV_EXAMPLES.contains(&name))
            || SECRET_NAMES.contains(&name))
    {
        return true;
    }
    if SECRET_ABSOLUTE.iter().any(|s| under(text, s)) {
        return true;
    }
    ctx.home
        .as_ref()
        .and_then(|home| home.to_str())
        .and_then(|home| text.strip_prefix(home.trim_end_matches('/')))
        .and_then(|rest| rest.strip_prefix('/'))
        // A credential location, or a directory below home that holds one (`~/.aws` holds
        // `credentials`, `~/.config/gh` holds `hosts.yml`): read recursively or copied whole,
        // it is read too. Home itself is not counted: that is every file of the user.
        .is_some_and(|rest| {
            rest.bytes()
                .next()
                .is_some_and(|b| SECRET_UNDER_HOME_FIRST[usize::from(b)])
                && SECRET_UNDER_HOME
                    .iter()
                    .any(|s| under(rest, s) || under(s, rest))
        })
}

/// A path whose last component is a pattern (`/w/.env*`, `~/.aws/cred*`, `~/.*_history`):
/// secret when the pattern is aimed at (see [`glob_aimed_at`]) a credential name, or at a
/// credential location of that directory ([`SECRET_UNDER_HOME`], [`SECRET_ABSOLUTE`]) — and
/// the name it reaches there is a credential by the exact rules.
fn glob_reaches_secret(text: &str, name: &str, ctx: &Context) -> bool {
    let dir = text
        .strip_suffix(name)
        .unwrap_or_default()
        .trim_end_matches('/');
    let home = ctx
        .home
        .as_ref()
        .and_then(|h| h.to_str())
        .map(|h| h.trim_end_matches('/'));
    // The names the directory's credential locations have there.
    let in_home = home.and_then(|h| {
        if dir == h {
            Some("")
        } else {
            dir.strip_prefix(h).and_then(|r| r.strip_prefix('/'))
        }
    });
    let local: Vec<&str> = SECRET_UNDER_HOME
        .iter()
        .filter_map(|s| {
            let rel = in_home?;
            let rest = if rel.is_empty() {
                Some(*s)
            } else {
                s.strip_prefix(rel).and_then(|r| r.strip_prefix('/'))
            }?;
            rest.split('/').next()
        })
        .chain(SECRET_ABSOLUTE.iter().filter_map(|s| {
            s.strip_prefix(dir)
                .and_then(|r| r.strip_prefix('/'))
                .and_then(|r| r.split('/').next())
        }))
        .collect();
    let reached = glob_aimed_at(name, SECRET_NAMES.iter().chain(ENV_SECRETS), true)
        .or_else(|| glob_aimed_at(name, local.iter(), false));
    reached.is_some_and(|n| {
        let full = format!("{dir}/{n}");
        !full.contains(is_glob_char) && is_secret_normalized(Path::new(&full), ctx)
    })
}

/// Whether `path`, a path inside another machine or container (`docker cp app:/root/.aws .`),
/// names a credential there: a credential name anywhere, a system credential location, or a
/// location of [`SECRET_UNDER_HOME`] below a conventional home (`/root`, `/home/NAME`), or a
/// directory that holds one. The container's own home is not known; these are where images
/// keep them.
pub(crate) fn is_foreign_secret_path(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        return false;
    }
    if is_secret_name(crate::resolve::basename(path)) {
        return true;
    }
    if SECRET_ABSOLUTE.iter().any(|s| under(path, s)) {
        return true;
    }
    let rest = path.strip_prefix("/root/").or_else(|| {
        path.strip_prefix("/home/")
            .and_then(|r| r.split_once('/'))
            .map(|(_, r)| r)
    });
    rest.is_some_and(|rest| {
        SECRET_UNDER_HOME
            .iter()
            .any(|s| under(rest, s) || under(s, rest))
    })
}

/// `text` is `prefix` or below it (whole components).
fn under(text: &str, prefix: &str) -> bool {
    text.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The entries a `find` expression selects by name or path for the action at `action_at`
/// (an index into `expr`, the words after the roots), as paths relative to a root: `-name
/// .git` selects `.git`, `-path '*/.git/*'` selects `.git/x`, `-name 'id_rsa*'` selects
/// `id_rsa`. Only the tests on the branch that leads to the action count (`-name .git -prune
/// -o -name '*.rs' -exec rm {} +` removes Rust files, not `.git`): a `-o` outside parentheses
/// starts a new branch, negated tests select nothing, and tests inside parentheses are
/// alternatives, each of which may be what the action gets. A `*` is read as nothing and as
/// one character, the two readings that reach a catalogued name.
///
/// Invariant protected: `find`'s `{}` is what the search selects, so a deletion bound to a
/// git directory or a credential by name is judged as the deletion of that entry.
pub(crate) fn find_selected_entries(expr: &[(bool, &str)], action_at: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut depth = 0usize;
    let mut negated = false;
    let mut i = 0;
    while i < action_at.min(expr.len()) {
        let (exact, word) = expr[i];
        i += 1;
        if !exact {
            negated = false;
            continue;
        }
        match word {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            "-o" | "-or" | "," if depth == 0 => out.clear(),
            "!" | "-not" => {
                negated = true;
                continue;
            }
            "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                let Some(&(true, pattern)) = expr.get(i) else {
                    negated = false;
                    continue;
                };
                i += 1;
                if negated || pattern.contains(['?', '[']) {
                    negated = false;
                    continue;
                }
                let by_path = !matches!(word, "-name" | "-iname");
                // A path pattern is matched against `ROOT/…`: its leading `*/` or `./`
                // stands for the root.
                let rel = if by_path {
                    pattern
                        .strip_prefix("*/")
                        .or_else(|| pattern.strip_prefix("./"))
                        .unwrap_or(pattern)
                } else {
                    pattern
                };
                // `-iname .GIT` selects `.git` too: the catalogue's names are lower case.
                let rel = if word.starts_with("-i") {
                    rel.to_ascii_lowercase()
                } else {
                    rel.to_owned()
                };
                for reading in [rel.replace('*', ""), rel.replace('*', "x")] {
                    let reading = reading.trim_end_matches('/').to_owned();
                    if !reading.is_empty()
                        && (by_path || !reading.contains('/'))
                        && !out.contains(&reading)
                    {
                        out.push(reading);
                    }
                    if !pattern.contains('*') {
                        break;
                    }
                }
            }
            _ => {}
        }
        negated = false;
    }
    out
}

/// The first of `entries` (relative to `root`) whose deletion the target rules flag when the
/// deletion of `root`'s descendants is not flagged: the entry the action then really reaches
/// (`find . -name .git -exec rm -rf {} +` deletes `./.git`). `None` keeps the root.
pub(crate) fn find_flagged_entry(
    root: &str,
    entries: &[String],
    cwd: &Cwd,
    ctx: &Context,
) -> Option<(String, RuleRef)> {
    if entries.is_empty() || judge_delete(root, true, Shape::Descendants, true, cwd, ctx).is_some()
    {
        return None;
    }
    entries.iter().find_map(|e| {
        let path = format!("{}/{e}", root.trim_end_matches('/'));
        judge_delete(&path, true, Shape::Exact, true, cwd, ctx).map(|r| (path, r))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Context {
        Context::new("/work/proj", Some(PathBuf::from("/home/u")))
    }

    fn del(raw: &str, shape: Shape) -> Option<&'static str> {
        let c = ctx();
        judge_delete(raw, true, shape, true, &Cwd::Known(c.cwd.clone()), &c).map(|r| r.def().id)
    }

    #[test]
    fn deleting_inside_the_workspace_is_normal_work() {
        assert_eq!(del("build", Shape::Exact), None);
        assert_eq!(del("./target/debug", Shape::Exact), None);
        assert_eq!(del("src/*.o", Shape::Glob), None);
    }

    #[test]
    fn deleting_the_workspace_root_or_git_dir_is_not() {
        assert_eq!(del(".", Shape::Exact), Some("fs.delete_workspace_root"));
        assert_eq!(
            del("src/..", Shape::Exact),
            Some("fs.delete_workspace_root")
        );
        assert_eq!(del(".git", Shape::Exact), Some("fs.delete_git_dir"));
        assert_eq!(del("*", Shape::Glob), Some("fs.delete_workspace_glob"));
        assert_eq!(del(".*", Shape::Glob), Some("fs.delete_system"));
    }

    /// A root glob matching any name deletes most of the workspace; one matching a kind of
    /// file (by a literal first or last character of its last component) is cleanup. A glob
    /// that can match `..` reaches the workspace's parent; one that needs letters after the
    /// dot cannot.
    #[test]
    fn root_globs_for_one_kind_of_file_are_cleanup_and_catch_alls_are_not() {
        for raw in [
            "*", "./*", "*.*", "?*", "*/", "[a-z]*", "*/*", "*.", "@(*)", "+(*)", "{*,.*}",
        ] {
            assert_eq!(
                del(raw, Shape::Glob),
                Some("fs.delete_workspace_glob"),
                "{raw}"
            );
        }
        for raw in [
            "*.log",
            "./*.tmp",
            "core.*",
            "*~",
            "*.egg-info",
            "*/node_modules",
            "build-*",
            ".env*",
            ".coverage*",
            "npm-debug.log*",
        ] {
            assert_eq!(del(raw, Shape::Glob), None, "{raw}");
        }
        for raw in [".*", ".?", "..*", ".[!.]*", "src/.*", "./.*"] {
            assert_eq!(del(raw, Shape::Glob), Some("fs.delete_system"), "{raw}");
        }
    }

    #[test]
    fn deleting_root_home_and_system_dirs_is_high() {
        for raw in [
            "/", "~", "/home/u", "/home", "/etc", "/usr/lib", "..", "../..", "/work",
        ] {
            assert_eq!(del(raw, Shape::Exact), Some("fs.delete_system"), "{raw}");
        }
    }

    #[test]
    fn deleting_under_temp_is_normal_but_not_the_temp_root() {
        assert_eq!(del("/tmp/build", Shape::Exact), None);
        assert_eq!(del("/tmp/*", Shape::Glob), None);
        assert_eq!(del("/var/tmp/x", Shape::Exact), None);
        assert_eq!(del("/tmp", Shape::Exact), Some("fs.delete_temp_root"));
    }

    #[test]
    fn a_sensitive_location_beats_the_scratch_rule() {
        let mut c = Context::new("/tmp/ci/project", Some(PathBuf::from("/tmp/ci/home")));
        c.temp_dirs = vec![PathBuf::from("/tmp")];
        let cwd = Cwd::Known(c.cwd.clone());
        let judge =
            |raw: &str| judge_delete(raw, true, Shape::Exact, true, &cwd, &c).map(|r| r.def().id);
        assert_eq!(
            judge("/tmp/ci/home/.ssh"),
            Some("fs.delete_outside_workspace_recursive")
        );
        assert_eq!(
            judge("$HOME/.aws"),
            Some("fs.delete_outside_workspace_recursive")
        );
        assert_eq!(judge("/tmp/ci/home"), Some("fs.delete_system"));
        assert_eq!(judge("/tmp/ci/project"), Some("fs.delete_workspace_root"));
        assert_eq!(judge("/tmp/scratch-123"), None);
    }

    #[test]
    fn prefix_lookalikes_are_outside() {
        assert_eq!(
            del("/work/project2", Shape::Exact),
            Some("fs.delete_outside_workspace_recursive")
        );
        assert_eq!(
            del("/tmpfoo", Shape::Exact),
            Some("fs.delete_outside_workspace_recursive")
        );
    }

    #[test]
    fn secret_paths_are_recognised_but_examples_are_not() {
        let c = ctx();
        let cwd = Cwd::Known(c.cwd.clone());
        assert!(is_secret_path("~/.ssh/id_rsa", &cwd, &c));
        assert!(is_secret_path("/home/u/.aws/credentials", &cwd, &c));
        assert!(is_secret_path(".env", &cwd, &c));
        assert!(is_secret_path(".env.production", &cwd, &c));
        assert!(!is_secret_path(".env.example", &cwd, &c));
        assert!(!is_secret_path("~/.ssh/id_rsa.pub", &cwd, &c));
        assert!(!is_secret_path("README.md", &cwd, &c));
    }
}
