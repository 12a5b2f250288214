//! The paths each file-changing program may touch, read off its parsed argv.
//!
//! Every function here answers one question for one program family: which paths can this
//! invocation write, delete, move, chmod or replace, and how far does each reach
//! ([`Reach::Tree`] when a whole directory is affected). The answers feed every invariant
//! through [`super::Facts`]; self-protection relies on them being complete, so when an
//! invocation's targets cannot be narrowed (an archive extracted without a member list, an
//! editor running a script from a file) the whole directory it works in is the target.

use std::sync::Arc;

use hookgate_core::PathOp;
use hookgate_shell::Text;

use super::diff::{DiffPath, diff_paths, strip_components};
use super::find::{FindFilter, Interest};
use super::{ActionKind, Base, Described, RawExcept, Reach, Touch, dest_and_sources, operands};
use crate::archive::ArchiveFormat;
use crate::pattern::split_flags;

/// Words that cannot be a literal path (glob patterns in archive member lists, pathspecs).
fn has_wildcard(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// `dir/name`, or `name` when `dir` is `.`.
pub(crate) fn join(dir: &str, name: &str) -> String {
    if name.starts_with('/') || dir == "." || dir.is_empty() {
        name.to_owned()
    } else {
        format!("{}/{name}", dir.trim_end_matches('/'))
    }
}

fn last_component(p: &str) -> Option<&str> {
    p.trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty() && *n != "." && *n != "..")
}

/// An exclusion as written (`--exclude .claude`, `-e .claude/`, `':!.claude'`): a bare
/// name is left out at any depth, a path relative to `base`. Patterns with wildcards cannot
/// be evaluated without the file list and are not honoured (the operation stays whole).
pub(crate) fn raw_except(pattern: &str, base: &str) -> Option<RawExcept> {
    let p = pattern
        .trim_start_matches("./")
        .trim_end_matches("/**")
        .trim_end_matches("/*")
        .trim_end_matches('/');
    if p.is_empty() || has_wildcard(p) {
        return None;
    }
    if let Some(anchored) = p.strip_prefix('/') {
        Some(RawExcept::Path(join(base, anchored)))
    } else if p.contains('/') {
        Some(RawExcept::Path(join(base, p)))
    } else {
        Some(RawExcept::Name(p.to_owned()))
    }
}

/// `mv`, `cp`, `install`, `ln`: what lands where. With one source and a destination that may
/// or may not be a directory (`cp f DEST`), both readings are touches — DEST itself, and
/// `DEST/<source name>` — each marked ([`Touch::reading`]) so [`super::Facts`] keeps the one
/// the file system confirms and names the right file (`cp key /tmp/notes.txt` writes
/// `/tmp/notes.txt`, not `/tmp/notes.txt/key`). A target directory (`-t DIR`, a trailing `/`,
/// several sources) has only the directory reading; `-T` and a directory's contents
/// (`cp -r src/. dest`) only DEST. A moved, recursively copied or linked source may be a
/// directory, so those destinations are [`Reach::NewTree`]; copying a directory's contents
/// reaches everything below the destination ([`Reach::Tree`]).
pub(crate) fn copy_like(program: &str, argv: &[String], rest: &[String]) -> Described {
    let flags = split_flags(rest);
    let has = |short: char, long: &str| flags.short.contains(&short) || flags.long.contains(long);
    if program == "install" && has('d', "directory") {
        return Described::new(ActionKind::FileWrite, argv).with_paths(
            operands(rest, &["-m", "--mode", "-o", "--owner", "-g", "--group"]),
            PathOp::Write,
        );
    }
    let value_opts: &[&str] = match program {
        "install" => &[
            "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group",
        ],
        _ => &["-S", "--suffix"],
    };
    let (dest, sources) = dest_and_sources(rest, value_opts);
    let recursive = program == "mv"
        || program == "ln"
        || (program == "cp" && (has('r', "recursive") || has('R', "\0") || has('a', "archive")));
    let no_target_dir = has('T', "no-target-directory");
    let contents = no_target_dir
        || (program == "cp" && recursive && sources.iter().any(|s| s.ends_with("/.")));
    let target_dir = rest
        .iter()
        .any(|a| a == "-t" || a == "--target-directory" || a.starts_with("--target-directory="));
    let inner_reach = if recursive {
        Reach::NewTree
    } else {
        Reach::Exact
    };
    let dest_reach = if contents { Reach::Tree } else { inner_reach };
    let kind = if program == "mv" {
        ActionKind::FileMove
    } else {
        ActionKind::FileWrite
    };
    let mut d = Described::new(kind, argv);
    // A link's source is read as a copy's is: whatever reads the link (a web server's static
    // directory, an upload of the folder, the next command) reads the file, so `ln -s
    // ~/.ssh/id_ed25519 public/key.txt` exposes the key as `cp` would.
    match program {
        "mv" => d = d.with_trees(sources.iter().cloned(), PathOp::Move),
        _ => d = d.with_paths(sources.iter().cloned(), PathOp::Read),
    }
    let Some(dest) = dest else { return d };
    let into_dir = target_dir || dest.ends_with('/') || sources.len() > 1;
    let ambiguous = !into_dir && !contents;
    // The file reading first: it is the one named when the file system cannot tell.
    if !into_dir || contents {
        let mut t = Touch::new(dest.clone(), PathOp::Write, dest_reach);
        if ambiguous {
            t.reading = Some((dest.clone(), false));
        }
        d.paths.push(t);
    }
    if !no_target_dir {
        for s in &sources {
            if let Some(name) = last_component(s) {
                let mut t = Touch::new(join(&dest, name), PathOp::Write, inner_reach);
                if ambiguous {
                    t.reading = Some((dest.clone(), true));
                }
                d.paths.push(t);
            }
        }
    }
    d
}

const RSYNC_VALUE_OPTS: &[&str] = &[
    "-e",
    "--rsh",
    "--exclude",
    "--include",
    "--filter",
    "-f",
    "--files-from",
    "--exclude-from",
    "--include-from",
    "--chmod",
    "--chown",
    "--log-file",
    "--partial-dir",
    "--backup-dir",
    "--suffix",
    "-T",
    "--temp-dir",
    "--compare-dest",
    "--copy-dest",
    "--link-dest",
    "--password-file",
    "--port",
    "-B",
    "--block-size",
    "--max-size",
    "--min-size",
    "--timeout",
    "--contimeout",
    "--bwlimit",
    "--out-format",
    "-M",
    "--remote-option",
    "--usermap",
    "--groupmap",
    "--info",
    "--debug",
    "--rsync-path",
    "--iconv",
    "--modify-window",
    "--max-delete",
    "--skip-compress",
    "--sockopts",
    "--outbuf",
    "--protocol",
    "--checksum-choice",
    "--compress-choice",
    "--compress-level",
    "--write-batch",
    "--read-batch",
    "--only-write-batch",
];

fn is_remote_spec(s: &str) -> bool {
    match (s.find(':'), s.find('/')) {
        (Some(c), Some(sl)) => c < sl,
        (Some(_), None) => true,
        _ => s.contains("::"),
    }
}

/// `rsync`: everything below a local destination may be written; `--delete*` also deletes
/// there; `--remove-source-files` deletes the sources. `--exclude NAME` is honoured.
pub(crate) fn rsync(argv: &[String], rest: &[String]) -> Described {
    let mut ops = operands(rest, RSYNC_VALUE_OPTS);
    let dest = ops.pop();
    let mut d = Described::new(ActionKind::FileWrite, argv);
    let mut excludes = Vec::new();
    let mut iter = rest.iter();
    let mut delete = false;
    let mut remove_sources = false;
    while let Some(a) = iter.next() {
        if a == "--exclude" {
            excludes.extend(iter.next().cloned());
        } else if let Some(v) = a.strip_prefix("--exclude=") {
            excludes.push(v.to_owned());
        } else if a.starts_with("--del") {
            delete = true;
        } else if a == "--remove-source-files" {
            remove_sources = true;
        }
    }
    let local_sources: Vec<String> = ops.into_iter().filter(|s| !is_remote_spec(s)).collect();
    if remove_sources {
        d = d.with_trees(local_sources, PathOp::Delete);
    } else {
        d = d.with_paths(local_sources, PathOp::Read);
    }
    if let Some(dest) = dest.filter(|d| !is_remote_spec(d)) {
        let except: Vec<RawExcept> = excludes
            .iter()
            .filter_map(|e| raw_except(e, &dest))
            .collect();
        let mut ops = vec![PathOp::Write];
        if delete {
            ops.push(PathOp::Delete);
        }
        for op in ops {
            let mut t = Touch::new(dest.clone(), op, Reach::Tree);
            t.except.clone_from(&except);
            d.paths.push(t);
        }
    }
    d
}

/// The files `chmod`/`chown`/`chgrp`/`chattr`/`setfacl` change: their operands after the
/// mode/owner word (`chmod -x f` has mode `-x`; `chattr -i f` has mode `-i`).
pub(crate) fn mode_targets(program: &str, rest: &[String]) -> Vec<String> {
    let reference = rest.iter().any(|a| a.starts_with("--reference"));
    let mut out = Vec::new();
    let mut mode_seen = reference || program == "setfacl";
    let mut only = false;
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        if only {
            out.push(a.clone());
            continue;
        }
        if a == "--" {
            only = true;
            continue;
        }
        if a.starts_with("--") {
            if program == "setfacl"
                && matches!(
                    a.as_str(),
                    "--set"
                        | "--set-file"
                        | "--modify"
                        | "--modify-file"
                        | "--remove"
                        | "--remove-file"
                )
            {
                iter.next();
            }
            if a == "--reference" {
                iter.next();
            }
            continue;
        }
        let dash = a.len() > 1 && a.starts_with('-');
        match program {
            "chmod" if dash && !mode_seen && a[1..].chars().any(|c| !"cfvRHLPh".contains(c)) => {
                mode_seen = true;
            }
            "chattr" if !mode_seen && (a.starts_with('+') || a.starts_with('=')) => {
                mode_seen = true;
            }
            "chattr" if dash && a[1..].chars().all(|c| "RVf".contains(c)) => {}
            "chattr" if dash && (a == "-v" || a == "-p") => {
                iter.next();
            }
            "chattr" if dash && !mode_seen => mode_seen = true,
            "setfacl" if dash => {
                if a[1..].chars().any(|c| "mMxX".contains(c)) {
                    iter.next();
                }
            }
            _ if dash => {}
            _ if !mode_seen => mode_seen = true,
            _ => out.push(a.clone()),
        }
    }
    out
}

/// Splits a short-option cluster for programs whose options take values: returns the
/// letters, and for the first letter in `with_value` its value (the rest of the cluster, or
/// the next word, which is then consumed).
fn cluster<'a>(
    word: &'a str,
    with_value: &str,
    next: &mut impl Iterator<Item = &'a String>,
) -> (Vec<char>, Option<(char, String)>) {
    let mut letters = Vec::new();
    for (i, c) in word.char_indices().skip(1) {
        letters.push(c);
        if with_value.contains(c) {
            let attached = &word[i + c.len_utf8()..];
            let value = if attached.is_empty() {
                next.next().cloned().unwrap_or_default()
            } else {
                attached.to_owned()
            };
            return (letters, Some((c, value)));
        }
    }
    (letters, None)
}

/// Where an archive is extracted: each member (`dir/member`, whole subtree) when they are
/// named literally, else the whole directory.
fn extraction(
    mut d: Described,
    dirs: &[String],
    members: &[String],
    placeable: bool,
    except: &[String],
    archive: Option<&ArchiveSource>,
) -> Described {
    for dir in dirs {
        let excepts: Vec<RawExcept> = except.iter().filter_map(|e| raw_except(e, dir)).collect();
        if placeable && !members.is_empty() {
            for m in members {
                d.paths
                    .push(Touch::new(join(dir, m), PathOp::Write, Reach::Tree));
            }
        } else {
            let mut t = Touch::new(dir.clone(), PathOp::Write, Reach::Tree);
            // Excluded members are not modelled in a listing: the whole tree stays.
            if excepts.is_empty() {
                t.archive = archive.cloned();
            }
            t.except = excepts;
            d.paths.push(t);
        }
    }
    d.kind = ActionKind::FileWrite;
    d
}

#[derive(Default)]
struct TarCall {
    extract: bool,
    create: bool,
    to_stdout: bool,
    /// `--transform`/`--files-from`: member names cannot be read off the argv.
    unplaceable: bool,
    /// `--remove-files`: what is archived is deleted.
    remove_files: bool,
    /// `-P`/`--absolute-names`: members keep a leading `/` (and `..`).
    absolute: bool,
    /// `--strip-components=N`.
    strip: usize,
    files: Vec<String>,
    dirs: Vec<String>,
    excludes: Vec<String>,
    members: Vec<String>,
}

impl TarCall {
    fn mode(&mut self, c: char) {
        match c {
            'x' => self.extract = true,
            'P' => self.absolute = true,
            // bsdtar's `-s /old/new/` renames members (GNU's `-s` keeps their order): where
            // they land cannot be read off their names.
            's' => self.unplaceable = true,
            'c' | 'r' | 'u' | 'A' => self.create = true,
            'O' => self.to_stdout = true,
            _ => {}
        }
    }

    fn value(&mut self, c: char, v: String) {
        match c {
            'f' => self.files.push(v),
            // GNU tar: a relative `-C` is relative to the previous one.
            'C' => {
                let next = match self.dirs.last() {
                    Some(prev) if !v.starts_with('/') => join(prev, &v),
                    _ => v,
                };
                self.dirs.push(next);
            }
            'T' => self.unplaceable = true,
            _ => {}
        }
    }

    fn long(&mut self, name: &str, value: Option<&str>, iter: &mut std::slice::Iter<'_, String>) {
        let value_of = |iter: &mut std::slice::Iter<'_, String>| {
            value
                .map(str::to_owned)
                .or_else(|| iter.next().cloned())
                .unwrap_or_default()
        };
        match name {
            "extract" | "get" => self.extract = true,
            "create" | "append" | "update" | "catenate" | "concatenate" => self.create = true,
            "to-stdout" => self.to_stdout = true,
            "remove-files" => self.remove_files = true,
            "absolute-names" => self.absolute = true,
            // Members land below a directory named after the archive (or the value).
            "one-top-level" => self.unplaceable = true,
            "strip-components" | "strip" => {
                // An unreadable count leaves the members unplaceable by name.
                match value_of(iter).parse() {
                    Ok(n) => self.strip = n,
                    Err(_) => self.unplaceable = true,
                }
            }
            "to-command" => {
                self.to_stdout = true;
                value_of(iter);
            }
            "transform" | "xform" | "files-from" => {
                self.unplaceable = true;
                value_of(iter);
            }
            "file" => {
                let v = value_of(iter);
                self.value('f', v);
            }
            "directory" => {
                let v = value_of(iter);
                self.value('C', v);
            }
            "exclude" => {
                let v = value_of(iter);
                self.excludes.push(v);
            }
            // Any other option with a required value takes the next word when not given
            // after `=` (`--pax-option X`, `--owner root`), so that word is not a member.
            _ if hookgate_shell::cli::TAR
                .long_option(name)
                .is_some_and(|o| o.takes_value) =>
            {
                value_of(iter);
            }
            _ => {}
        }
    }
}

/// `tar` (GNU and bsdtar, traditional `tar xf`, dashed and long options): extraction writes
/// below every `-C` directory (the cwd by default); creation writes the `-f` archive.
pub(crate) fn tar(argv: &[String], rest: &[String]) -> Described {
    const VALUE_LETTERS: &str = "fCTXbKNgVLHIF";
    let mut t = TarCall::default();
    let mut iter = rest.iter();
    let mut first = true;
    let mut only = false;
    while let Some(a) = iter.next() {
        let traditional =
            first && !a.starts_with('-') && a.chars().all(|c| c.is_ascii_alphabetic());
        first = false;
        if only {
            t.members.push(a.clone());
        } else if traditional {
            for c in a.chars() {
                t.mode(c);
                if VALUE_LETTERS.contains(c) {
                    let v = iter.next().cloned().unwrap_or_default();
                    t.value(c, v);
                }
            }
        } else if a == "--" {
            only = true;
        } else if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            // argp takes any unique prefix (`--to-comm=sh`, `--dir=x`, `--abs`): read the
            // option it names. One tar does not know, or an ambiguous prefix, makes tar stop
            // before extracting anything.
            match hookgate_shell::cli::TAR.long_option(name) {
                Some(o) => t.long(o.long, value, &mut iter),
                None => t.long(name, value, &mut iter),
            }
        } else if a.len() > 1 && a.starts_with('-') {
            let (letters, value) = cluster(a, VALUE_LETTERS, &mut iter);
            for c in letters {
                t.mode(c);
            }
            if let Some((c, v)) = value {
                t.value(c, v);
            }
        } else {
            t.members.push(a.clone());
        }
    }
    let mut d = Described::new(ActionKind::ShellExec, argv);
    if t.extract && !t.to_stdout {
        d = d.with_paths(t.files.iter().filter(|f| *f != "-").cloned(), PathOp::Read);
        if t.dirs.is_empty() {
            t.dirs.push(".".to_owned());
        }
        let placeable = !t.unplaceable && !t.members.iter().any(|m| has_wildcard(m));
        // The whole archive into one directory, from a file: its member list can be read.
        // (An archive on stdin, `tar -xz -C DIR < x.tgz` or `curl … | tar -xz -C DIR`, is
        // listed when a redirect names it, and is otherwise an archive that cannot be listed.)
        let whole = !t.unplaceable && !t.absolute && t.dirs.len() == 1;
        let listable = match t.files.as_slice() {
            [file] if file != "-" && whole => Some(ArchiveSource {
                raw: file.clone(),
                format: ArchiveFormat::Tar,
                strip: t.strip,
                stdin: false,
                anywhere: false,
            }),
            [] if whole => Some(ArchiveSource::stdin(ArchiveFormat::Tar, t.strip)),
            [file] if file == "-" && whole => {
                Some(ArchiveSource::stdin(ArchiveFormat::Tar, t.strip))
            }
            _ => None,
        };
        d = extraction(
            d,
            &t.dirs,
            &t.members,
            placeable,
            &t.excludes,
            listable.as_ref(),
        );
    } else if t.create {
        d.kind = ActionKind::FileWrite;
        d = d.with_paths(t.files.into_iter().filter(|f| f != "-"), PathOp::Write);
        let base = t.dirs.last().cloned().unwrap_or_else(|| ".".to_owned());
        let members = t.members.into_iter().map(|m| join(&base, &m));
        d = if t.remove_files {
            d.kind = ActionKind::FileDelete;
            d.with_trees(members, PathOp::Delete)
        } else {
            d.with_paths(members, PathOp::Read)
        };
    }
    d
}

/// `unzip`: writes below `-d DIR` (the cwd by default), member by member when they are
/// named literally; list/test/pipe modes write nothing. It overwrites what it extracts
/// (`-o`, or a `y` from stdin), so every extracted path counts as written.
pub(crate) fn unzip(argv: &[String], rest: &[String]) -> Described {
    let mut dir: Option<String> = None;
    let mut archive: Option<String> = None;
    let mut members: Vec<String> = Vec::new();
    let mut excludes: Vec<String> = Vec::new();
    let mut listing = false;
    let mut reshaped = false;
    let mut in_excludes = false;
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        if a.len() > 1 && a.starts_with('-') {
            in_excludes = a == "-x";
            if in_excludes {
                continue;
            }
            let (letters, value) = cluster(a, "dP", &mut iter);
            if letters.iter().any(|c| "ltvzZpc".contains(*c)) {
                listing = true;
            }
            // `-j` drops member directories; `-:` keeps `..` (judged as unlistable below).
            if letters.iter().any(|c| matches!(c, 'j' | ':')) {
                reshaped = true;
            }
            if let Some(('d', v)) = value {
                dir = Some(v);
            }
        } else if in_excludes {
            excludes.push(a.clone());
        } else if archive.is_none() {
            archive = Some(a.clone());
        } else {
            members.push(a.clone());
        }
    }
    let mut d =
        Described::new(ActionKind::ShellExec, argv).with_paths(archive.clone(), PathOp::Read);
    if listing {
        return d;
    }
    let placeable = !members.iter().any(|m| has_wildcard(m));
    let listable = archive
        .filter(|a| a != "-" && !reshaped)
        .map(|raw| ArchiveSource {
            raw,
            format: ArchiveFormat::Zip,
            strip: 0,
            stdin: false,
            anywhere: false,
        });
    d = extraction(
        d,
        &[dir.unwrap_or_else(|| ".".to_owned())],
        &members,
        placeable,
        &excludes,
        listable.as_ref(),
    );
    d
}

/// `cpio -i` extracts below `-D DIR` (the cwd by default); `cpio -p DIR` copies into DIR;
/// `cpio -o -O/-F FILE` writes the archive.
pub(crate) fn cpio(argv: &[String], rest: &[String]) -> Described {
    let mut extract = false;
    let mut pass = false;
    let mut list = false;
    let mut dir: Option<String> = None;
    let mut archive_out: Option<String> = None;
    let mut archive_in: Option<String> = None;
    // Options after which the member names do not land where they say: patterns or a
    // pattern file select some, `-f` the others, renaming asks per member, `--to-stdout`
    // writes none, and without `--no-absolute-filenames` an absolute name is honoured.
    let mut reshaped = false;
    let mut relative_only = false;
    let mut positionals: Vec<String> = Vec::new();
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            match name {
                "extract" => extract = true,
                "pass-through" => pass = true,
                "list" | "to-stdout" => list = true,
                "directory" => dir = value.or_else(|| iter.next().cloned()),
                "file" => archive_out = value.or_else(|| iter.next().cloned()),
                "no-absolute-filenames" => relative_only = true,
                "nonmatching" | "pattern-file" | "rename" | "rename-batch-file" => {
                    reshaped = true;
                }
                _ => {}
            }
        } else if a.len() > 1 && a.starts_with('-') {
            let (letters, value) = cluster(a, "DFOIEHRMC", &mut iter);
            for c in letters {
                match c {
                    'i' => extract = true,
                    'p' => pass = true,
                    't' => list = true,
                    'f' | 'r' | 'E' => reshaped = true,
                    _ => {}
                }
            }
            match value {
                Some(('D', v)) => dir = Some(v),
                Some(('I', v)) => archive_in = Some(v),
                Some(('O' | 'F', v)) => archive_out = Some(v),
                Some(('E', _)) => reshaped = true,
                _ => {}
            }
        } else {
            positionals.push(a.clone());
        }
    }
    let mut d = Described::new(ActionKind::ShellExec, argv);
    if extract && !list {
        // In copy-in mode `-F`/`--file` names the archive read, like `-I`.
        let input = archive_in.or(archive_out);
        let listable = (!reshaped && positionals.is_empty()).then(|| {
            let mut src = match input {
                Some(raw) if raw != "-" => ArchiveSource {
                    raw,
                    format: ArchiveFormat::Cpio,
                    strip: 0,
                    stdin: false,
                    anywhere: false,
                },
                _ => ArchiveSource::stdin(ArchiveFormat::Cpio, 0),
            };
            // A member named `/root/.bashrc` lands there: only a listing without absolute
            // names places the extraction below the directory.
            src.anywhere = !relative_only;
            src
        });
        d = extraction(
            d,
            &[dir.unwrap_or_else(|| ".".to_owned())],
            &[],
            false,
            &[],
            listable.as_ref(),
        );
        if listable.is_none() && !relative_only {
            d.unplaced
                .push("extracts a cpio archive whose member names may be absolute".to_owned());
        }
    } else if pass {
        d = extraction(d, &positionals, &[], false, &[], None);
    } else if let Some(out) = archive_out {
        d.kind = ActionKind::FileWrite;
        d = d.with_paths([out], PathOp::Write);
    }
    d
}

/// `7z x|e ARCHIVE [-oDIR]` extracts below DIR (the cwd by default); `7z a|u ARCHIVE
/// FILES` writes the archive, and with `-sdel` deletes the files it added.
pub(crate) fn seven_zip(argv: &[String], rest: &[String]) -> Described {
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let Some(cmd) = rest.first() else { return d };
    if matches!(cmd.as_str(), "a" | "u" | "d" | "rn") {
        let positionals: Vec<String> = rest[1..]
            .iter()
            .filter(|a| !a.starts_with('-') && !a.starts_with('@'))
            .cloned()
            .collect();
        let Some((archive, files)) = positionals.split_first() else {
            return d;
        };
        d.kind = ActionKind::FileWrite;
        d = d.with_paths([archive.clone()], PathOp::Write);
        if matches!(cmd.as_str(), "a" | "u") && rest.iter().any(|a| a == "-sdel") {
            d.kind = ActionKind::FileDelete;
            d = d.with_trees(files.iter().cloned(), PathOp::Delete);
        }
        return d;
    }
    if !matches!(cmd.as_str(), "x" | "e") {
        return d;
    }
    let dir = rest
        .iter()
        .find_map(|a| a.strip_prefix("-o"))
        .filter(|v| !v.is_empty())
        .unwrap_or(".")
        .to_owned();
    // The whole archive (no member names, wildcards or `-i`/`-x` switches, not from stdin):
    // its members land below DIR (7-Zip drops a leading `/` and `..` in names), which ones
    // the guard does not read (the format's headers are usually compressed; see
    // `ArchiveFormat::SevenZip`).
    let operands: Vec<&String> = rest[1..].iter().filter(|a| !a.starts_with('-')).collect();
    let whole = operands.len() == 1
        && !rest[1..]
            .iter()
            .any(|a| a.starts_with("-i") || a.starts_with("-x") || a.starts_with("-si"));
    let source = whole.then(|| ArchiveSource {
        raw: operands[0].clone(),
        format: ArchiveFormat::SevenZip,
        strip: 0,
        stdin: false,
        anywhere: false,
    });
    extraction(d, &[dir], &[], false, &[], source.as_ref())
}

/// `find PATHS… -delete`: deletes the entries of the trees it starts from that its
/// expression selects. Without tests every entry is selected (the whole trees); with tests
/// the expression is kept as the touch's filter and evaluated against the protected entries
/// (`find . -name '*.pyc' -delete` reaches none of them). `-exec rm …` is judged as the `rm`
/// the analyzer extracts, filtered the same way (see `Facts::shell`).
pub(crate) fn find(argv: &[String], rest: &[String]) -> Described {
    const NEUTRAL: &[&str] = &[
        "-delete",
        "-depth",
        "-d",
        "-xdev",
        "-mount",
        "-maxdepth",
        "-mindepth",
        "-follow",
        "-noleaf",
        "-ignore_readdir_race",
        "-print",
        "-print0",
        "-daystart",
    ];
    const WITH_VALUE: &[&str] = &["-maxdepth", "-mindepth"];
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let (starts, expr) = find_parts(rest);
    if !expr.iter().any(|a| a == "-delete") {
        return d;
    }
    let mut filtered = false;
    let mut iter = expr.iter();
    while let Some(a) = iter.next() {
        if WITH_VALUE.contains(&a.as_str()) {
            iter.next();
        } else if !NEUTRAL.contains(&a.as_str()) {
            filtered = true;
        }
    }
    d.kind = ActionKind::FileDelete;
    let filter = filtered.then(|| Arc::new(FindFilter::parse(&expr, Interest::Delete)));
    for s in starts {
        let mut t = Touch::new(s, PathOp::Delete, Reach::Tree);
        t.filter.clone_from(&filter);
        d.paths.push(t);
    }
    d
}

/// Ex commands that write a file (`:w`, `:wq`, `:x`, `:sav`, `:up`, and their long forms).
const EX_WRITES: &[&str] = &[
    "w",
    "wr",
    "wri",
    "writ",
    "write",
    "wq",
    "wqa",
    "wqall",
    "x",
    "xi",
    "xit",
    "exi",
    "exit",
    "xa",
    "xal",
    "xall",
    "wa",
    "wal",
    "wall",
    "wn",
    "wnext",
    "wN",
    "wNext",
    "wp",
    "wprevious",
    "sav",
    "save",
    "savea",
    "saveas",
    "up",
    "upd",
    "update",
    "wu",
    "wundo",
    "wv",
    "wviminfo",
    "wsh",
    "wshada",
];
/// Ex commands that run code whose writes cannot be read off the command (conservatively
/// writers).
const EX_OPAQUE: &[&str] = &[
    "exe",
    "exec",
    "execute",
    "cal",
    "call",
    "lua",
    "luado",
    "luafile",
    "py",
    "python",
    "py3",
    "python3",
    "pyx",
    "pythonx",
    "pyf",
    "pyfile",
    "pydo",
    "perl",
    "perldo",
    "rub",
    "ruby",
    "rubydo",
    "mz",
    "so",
    "source",
    "ru",
    "runtime",
    "norm",
    "normal",
    "bufdo",
    "windo",
    "tabdo",
    "argdo",
    "cdo",
    "cfdo",
    "ldo",
    "lfdo",
    "g",
    "gl",
    "global",
    "v",
    "vg",
    "vglobal",
    "let",
    "au",
    "autocmd",
    "do",
    "doautocmd",
    "redir",
    "mks",
    "mksession",
    "mkv",
    "mkvimrc",
    "mkvie",
    "mkview",
    "mk",
    "mkexrc",
];

/// What one ex command line does: whether it writes, and an explicit file it writes.
fn ex_writes(line: &str) -> (bool, Vec<String>) {
    let mut writes = false;
    let mut targets = Vec::new();
    for cmd in line.split('|') {
        let cmd = cmd.trim_start_matches([':', ' ', '\t']);
        // A range (`%`, `1,$`, `.`, `'a`) comes before the name.
        let cmd = cmd.trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '%' | ',' | '.' | '$' | ';' | '+' | '-' | ' ')
        });
        let name_len = cmd
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(cmd.len());
        let name = &cmd[..name_len];
        if name.is_empty() {
            continue;
        }
        if EX_OPAQUE.contains(&name) {
            writes = true;
        } else if EX_WRITES.contains(&name) {
            writes = true;
            let arg = cmd[name_len..]
                .trim_start_matches('!')
                .trim()
                .trim_start_matches(">>")
                .trim();
            if !arg.is_empty() && !arg.starts_with('!') && !arg.starts_with('+') {
                targets.push(arg.to_owned());
            }
        }
    }
    (writes, targets)
}

/// `ex`/`vi`/`vim`/`nvim`: when they run commands (`-c`, `--cmd`, `+cmd`, `-S`, `-s
/// scriptin`) that write, or run in ex mode (`ex`, `vim -e/-es`, which exist to script an
/// edit), their files are written, plus any file a `:w FILE`/`:sav FILE` names.
pub(crate) fn editor(program: &str, argv: &[String], rest: &[String]) -> Described {
    let mut ex_mode = program == "ex";
    let mut commands: Vec<String> = Vec::new();
    let mut opaque = false;
    let mut files: Vec<String> = Vec::new();
    let mut scriptout: Vec<String> = Vec::new();
    let mut only = false;
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        if only {
            files.push(a.clone());
        } else if a == "--" {
            only = true;
        } else if let Some(long) = a.strip_prefix("--") {
            match long {
                "cmd" => commands.extend(iter.next().cloned()),
                "servername" | "remote-send" | "remote-expr" | "startuptime" | "listen" | "log"
                | "api-info" => {
                    iter.next();
                }
                _ => {}
            }
        } else if let Some(cmd) = a.strip_prefix('+') {
            if !cmd.is_empty() && !cmd.starts_with('/') && !cmd.chars().all(|c| c.is_ascii_digit())
            {
                commands.push(cmd.to_owned());
            }
        } else if a.len() > 1 && a.starts_with('-') {
            let values = if ex_mode || a.contains(['e', 'E']) {
                "cSuUiTwWtqr"
            } else {
                "cSsuUiTwWtqr"
            };
            let (letters, value) = cluster(a, values, &mut iter);
            if letters.iter().any(|c| matches!(c, 'e' | 'E')) {
                ex_mode = true;
            }
            match value {
                Some(('c', v)) => commands.push(v),
                Some(('S' | 's', _)) => opaque = true,
                Some(('w' | 'W', v)) => scriptout.push(v),
                _ => {}
            }
        } else {
            files.push(a.clone());
        }
    }
    let mut writes = ex_mode || opaque;
    let mut targets = Vec::new();
    for c in &commands {
        let (w, t) = ex_writes(c);
        writes |= w;
        targets.extend(t);
    }
    let mut d = Described::new(ActionKind::ShellExec, argv).with_paths(scriptout, PathOp::Write);
    if writes {
        d.kind = ActionKind::FileWrite;
        d = d
            .with_paths(files, PathOp::Write)
            .with_paths(targets, PathOp::Write);
    } else {
        d = d.with_paths(files, PathOp::Read);
    }
    d
}

/// Splits SQL (or sqlite dot-command text) into statements at `;` outside quotes.
fn sql_statements(sql: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in sql.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, ';') => {
                out.push(&sql[start..i]);
                start = i + 1;
            }
            (None, '\n') if sql[start..i].trim_start().starts_with('.') => {
                out.push(&sql[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&sql[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Whether every statement only reads (`SELECT`, `EXPLAIN`, read-only pragmas and dot
/// commands). Anything else — and anything not recognised — may write the database.
fn sql_read_only(sql: &str) -> bool {
    const READ_DOT: &[&str] = &[
        ".tables",
        ".table",
        ".schema",
        ".dump",
        ".indexes",
        ".indices",
        ".mode",
        ".headers",
        ".header",
        ".quit",
        ".exit",
        ".help",
        ".show",
        ".databases",
        ".dbinfo",
        ".fullschema",
        ".width",
        ".nullvalue",
        ".separator",
        ".timer",
        ".eqp",
        ".stats",
        ".changes",
        ".print",
        ".echo",
        ".bail",
        ".explain",
    ];
    sql_statements(sql).iter().all(|stmt| {
        if stmt.starts_with('.') {
            let name = stmt.split_whitespace().next().unwrap_or("");
            return READ_DOT.contains(&name);
        }
        // Keywords count outside string literals and quoted identifiers only.
        let mut bare = String::with_capacity(stmt.len());
        let mut quote: Option<char> = None;
        for c in stmt.chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if matches!(c, '\'' | '"' | '`') => {
                    quote = Some(c);
                    bare.push(' ');
                }
                None => bare.push(c),
            }
        }
        let upper = bare.to_ascii_uppercase();
        let words: Vec<&str> = upper
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let writes = words.iter().any(|w| {
            matches!(
                *w,
                "INSERT"
                    | "UPDATE"
                    | "DELETE"
                    | "REPLACE"
                    | "DROP"
                    | "CREATE"
                    | "ALTER"
                    | "ATTACH"
                    | "VACUUM"
                    | "REINDEX"
                    | "TRUNCATE"
            )
        });
        let first = words.first().copied().unwrap_or("");
        let reads = match first {
            "SELECT" | "EXPLAIN" | "VALUES" | "WITH" => true,
            "PRAGMA" => !stmt.contains('='),
            _ => false,
        };
        reads && !writes
    })
}

/// `sqlite3 DB [SQL…]`: the database file is written unless the call is read-only
/// (`-readonly`, or only reading statements). No SQL means statements come from stdin or a
/// terminal, which may write.
pub(crate) fn sqlite(argv: &[String], rest: &[String]) -> Described {
    const VALUE_OPTS: &[&str] = &[
        "-cmd",
        "-init",
        "-separator",
        "-newline",
        "-nullvalue",
        "-vfs",
        "-mmap",
        "-maxsize",
        "-pagecache",
        "-lookaside",
        "-heap",
        "-escape",
    ];
    let mut ro_flag = false;
    let mut cmds: Vec<String> = Vec::new();
    let mut positionals: Vec<String> = Vec::new();
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        if a.len() > 1 && a.starts_with('-') {
            let name = format!("-{}", a.trim_start_matches('-'));
            if name == "-readonly" {
                ro_flag = true;
            } else if name == "-cmd" {
                cmds.extend(iter.next().cloned());
            } else if VALUE_OPTS.contains(&name.as_str()) {
                iter.next();
                if name == "-lookaside" || name == "-pagecache" {
                    iter.next();
                }
            }
        } else {
            positionals.push(a.clone());
        }
    }
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let Some((db, sql)) = positionals.split_first() else {
        return d;
    };
    let statements: Vec<&String> = cmds.iter().chain(sql.iter()).collect();
    let read_only = ro_flag || (!sql.is_empty() && statements.iter().all(|s| sql_read_only(s)));
    let op = if read_only {
        PathOp::Read
    } else {
        PathOp::Write
    };
    if op == PathOp::Write {
        d.kind = ActionKind::FileWrite;
    }
    d.paths.push(Touch::new(db.clone(), op, Reach::Exact));
    d
}

/// The value of an option in `args`: `-o F`, `-oF` (short options), `--output=F`, `-out F`.
/// Every occurrence, in order.
fn option_values(args: &[String], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        if a == "--" {
            break;
        }
        for n in names {
            if a == n {
                out.extend(iter.next().cloned());
                break;
            }
            if let Some(v) = a.strip_prefix(n) {
                let long = n.starts_with("--");
                if let Some(v) = v.strip_prefix('=').filter(|_| long) {
                    out.push(v.to_owned());
                    break;
                }
                // A short option with its value attached (`-ofile`); never for one-dash long
                // options (`-out`), whose prefix `-o` would otherwise match.
                if !long && n.len() == 2 && !v.is_empty() && !names.contains(&a.as_str()) {
                    out.push(v.to_owned());
                    break;
                }
            }
        }
    }
    out
}

/// Whether any of `flags` is given (long names exactly or with `=`, one-letter short
/// options also inside a cluster: `-kv`).
fn has_flag(args: &[String], flags: &[&str]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| {
        flags.iter().any(|f| {
            if let Some(long) = f.strip_prefix("--") {
                a.strip_prefix("--")
                    .is_some_and(|x| x == long || x.starts_with(&format!("{long}=")))
            } else if f.len() == 2 && f.starts_with('-') {
                let letter = f.chars().nth(1).unwrap_or(' ');
                a == f
                    || (a.starts_with('-')
                        && !a.starts_with("--")
                        && a.len() > 2
                        && a[1..].chars().all(|c| c.is_ascii_alphabetic())
                        && a[1..].contains(letter))
            } else {
                a == f
            }
        })
    })
}

/// Which file operands a program writes.
#[derive(Clone, Copy)]
enum Operands {
    /// None (outputs come from options only).
    Never,
    /// Every one (the program rewrites its files in place).
    Always,
    /// Every one, when one of these flags is given (`--write`, `-w`, `-i`).
    With(&'static [&'static str]),
    /// The one at this position (`uniq IN OUT`, `xxd IN OUT`).
    At(usize),
}

/// One family of programs that write files named on their command line.
struct WriterSpec {
    names: &'static [&'static str],
    /// Options whose value is a file written (`sort -o F`, `openssl … -out F`).
    outputs: &'static [&'static str],
    /// Other options taking a separate value (so their values are not operands).
    values: &'static [&'static str],
    operands: Operands,
    /// Flags that make the run write nothing (`--check`, `--diff`, `--dry-run`).
    dry: &'static [&'static str],
}

/// Programs that write a file given as an option value, or rewrite their operands in place.
/// Model the family once here; `describe` consults the table for any program it lists.
const WRITERS: &[WriterSpec] = &[
    WriterSpec {
        names: &["sort", "gsort"],
        outputs: &["-o", "--output"],
        values: &[
            "-k",
            "--key",
            "-t",
            "--field-separator",
            "-S",
            "--buffer-size",
            "-T",
            "--temporary-directory",
            "--parallel",
            "--batch-size",
            "--compress-program",
            "--files0-from",
            "--random-source",
        ],
        operands: Operands::Never,
        dry: &[],
    },
    WriterSpec {
        names: &[
            "shuf", "iconv", "base64", "base32", "basenc", "gcc", "g++", "cc", "c++", "clang",
            "clang++", "tcc", "ld", "ld.lld", "ld.gold", "rustc", "go", "javac", "msgfmt",
            "pandoc", "protoc", "wasm-ld", "ar",
        ],
        outputs: &["-o", "--output", "-d"],
        values: &[],
        operands: Operands::Never,
        dry: &[],
    },
    WriterSpec {
        names: &["openssl"],
        outputs: &["-out", "-keyout", "-signature"],
        values: &[],
        operands: Operands::Never,
        dry: &[],
    },
    WriterSpec {
        names: &["uniq"],
        outputs: &[],
        values: &[
            "-f",
            "--skip-fields",
            "-s",
            "--skip-chars",
            "-w",
            "--check-chars",
        ],
        operands: Operands::At(1),
        dry: &[],
    },
    WriterSpec {
        names: &["xxd"],
        outputs: &[],
        values: &[
            "-c",
            "-cols",
            "-g",
            "-groupsize",
            "-l",
            "-len",
            "-o",
            "-offset",
            "-s",
            "-seek",
        ],
        operands: Operands::At(1),
        dry: &[],
    },
    WriterSpec {
        names: &[
            "fallocate",
            "mkfifo",
            "mknod",
            "ed",
            "red",
            "dos2unix",
            "unix2dos",
            "mac2unix",
            "unix2mac",
            "setfattr",
            "mkswap",
            "wipefs",
        ],
        outputs: &[],
        values: &[
            "-o", "--offset", "-l", "--length", "-m", "--mode", "-p", "--prompt", "-n", "--name",
            "-v", "--value", "-x", "--remove", "-L", "--label", "-U", "--uuid",
        ],
        operands: Operands::Always,
        dry: &["--dump", "-d"],
    },
    WriterSpec {
        names: &[
            "strip",
            "objcopy",
            "patchelf",
            "install_name_tool",
            "codesign",
            "upx",
        ],
        outputs: &["-o", "--output"],
        values: &[
            "-R",
            "--remove-section",
            "-K",
            "--keep-symbol",
            "-N",
            "--strip-symbol",
            "-j",
            "--only-section",
            "-O",
            "--output-target",
            "-I",
            "--input-target",
            "--set-interpreter",
            "--set-rpath",
            "--add-rpath",
            "--replace-needed",
            "-s",
            "--sign",
            "-change",
            "-id",
            "-rpath",
            "-add_rpath",
            "-delete_rpath",
        ],
        operands: Operands::Always,
        dry: &[
            "--print-interpreter",
            "--print-rpath",
            "-d",
            "--display",
            "-t",
            "--test",
            "-l",
        ],
    },
    WriterSpec {
        names: &["prettier"],
        outputs: &[],
        values: &[
            "--config",
            "--ignore-path",
            "--plugin",
            "--parser",
            "--log-level",
            "--stdin-filepath",
            "--cache-location",
        ],
        operands: Operands::With(&["--write", "-w"]),
        dry: &[],
    },
    WriterSpec {
        names: &[
            "gofmt",
            "goimports",
            "shfmt",
            "clang-format",
            "autopep8",
            "terraform",
            "stylua",
            "taplo",
        ],
        outputs: &[],
        values: &[
            "-i",
            "--indent",
            "-ln",
            "--language-dialect",
            "--style",
            "-r",
            "-local",
        ],
        operands: Operands::With(&["-w", "--write", "-i", "--in-place", "fmt", "format"]),
        dry: &["-l", "-d", "--check", "--diff", "-n", "--dry-run"],
    },
    WriterSpec {
        names: &["black", "rustfmt", "isort", "yapf-in-place"],
        outputs: &[],
        values: &[
            "-l",
            "--line-length",
            "-t",
            "--target-version",
            "--config",
            "--include",
            "--exclude",
            "--extend-exclude",
            "--force-exclude",
            "-W",
            "--workers",
            "--edition",
            "--config-path",
            "--emit",
            "--settings-path",
            "--profile",
        ],
        operands: Operands::Always,
        dry: &["--check", "--diff", "--check-only", "-c", "--emit"],
    },
    // `hookgate report --html FILE` (its only option that writes a file).
    WriterSpec {
        names: &["hookgate"],
        outputs: &["--html"],
        values: &[],
        operands: Operands::Never,
        dry: &[],
    },
];

/// The writer spec for `program`, if it is in [`WRITERS`].
pub(crate) fn writer_spec(program: &str) -> bool {
    WRITERS.iter().any(|w| w.names.contains(&program))
}

/// A program of [`WRITERS`]: its output options' values, and the operands it rewrites.
pub(crate) fn writer(program: &str, argv: &[String], rest: &[String]) -> Described {
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let Some(spec) = WRITERS.iter().find(|w| w.names.contains(&program)) else {
        return d;
    };
    if has_flag(rest, spec.dry) {
        return d;
    }
    // `go build -o`, `javac -d`: `-d` is an output only for javac.
    let outputs: Vec<&str> = spec
        .outputs
        .iter()
        .copied()
        .filter(|o| *o != "-d" || program == "javac")
        .collect();
    let outs = option_values(rest, &outputs);
    let value_opts: Vec<&str> = spec.values.iter().chain(outputs.iter()).copied().collect();
    let ops = operands(rest, &value_opts);
    let written: Vec<String> = match spec.operands {
        Operands::Always if outs.is_empty() => ops,
        Operands::With(flags)
            if has_flag(rest, flags)
                || flags.iter().any(|f| ops.first().is_some_and(|o| o == f)) =>
        {
            ops.into_iter()
                .filter(|o| !flags.contains(&o.as_str()))
                .collect()
        }
        Operands::At(i) => ops.into_iter().nth(i).into_iter().collect(),
        Operands::Never | Operands::Always | Operands::With(_) => Vec::new(),
    };
    if !outs.is_empty() || !written.is_empty() {
        d.kind = ActionKind::FileWrite;
    }
    d.with_paths(outs, PathOp::Write)
        .with_paths(written, PathOp::Write)
}

/// One compressor: which flags keep, remove or redirect its input.
struct Compressor {
    names: &'static [&'static str],
    /// Names that decompress by default (`gunzip`).
    unpackers: &'static [&'static str],
    /// The input is deleted after a successful run unless kept.
    removes: bool,
    keep: &'static [&'static str],
    remove: &'static [&'static str],
    /// Write to stdout, or only list/test: nothing on disk changes.
    quiet: &'static [&'static str],
    decompress: &'static [&'static str],
    suffix: &'static str,
    values: &'static [&'static str],
}

const COMPRESSORS: &[Compressor] = &[
    Compressor {
        names: &["gzip", "pigz", "gunzip", "unpigz"],
        unpackers: &["gunzip", "unpigz"],
        removes: true,
        keep: &["-k", "--keep"],
        remove: &[],
        quiet: &[
            "-c",
            "--stdout",
            "--to-stdout",
            "-l",
            "--list",
            "-t",
            "--test",
        ],
        decompress: &["-d", "--decompress", "--uncompress"],
        suffix: ".gz",
        values: &["-S", "--suffix", "-b", "--blocksize", "-p", "--processes"],
    },
    Compressor {
        names: &["bzip2", "pbzip2", "lbzip2", "bunzip2"],
        unpackers: &["bunzip2"],
        removes: true,
        keep: &["-k", "--keep"],
        remove: &[],
        quiet: &["-c", "--stdout", "-t", "--test"],
        decompress: &["-d", "--decompress"],
        suffix: ".bz2",
        values: &["-p", "-n"],
    },
    Compressor {
        names: &["xz", "unxz", "lzma", "unlzma"],
        unpackers: &["unxz", "unlzma"],
        removes: true,
        keep: &["-k", "--keep"],
        remove: &[],
        quiet: &[
            "-c",
            "--stdout",
            "--to-stdout",
            "-l",
            "--list",
            "-t",
            "--test",
        ],
        decompress: &["-d", "--decompress", "--uncompress"],
        suffix: ".xz",
        values: &[
            "-S",
            "--suffix",
            "-T",
            "--threads",
            "-F",
            "--format",
            "-C",
            "--check",
            "-M",
            "--memlimit",
        ],
    },
    Compressor {
        names: &["lzip", "plzip"],
        unpackers: &[],
        removes: true,
        keep: &["-k", "--keep"],
        remove: &[],
        quiet: &["-c", "--stdout", "-t", "--test", "-l", "--list"],
        decompress: &["-d", "--decompress"],
        suffix: ".lz",
        values: &["-o", "--output", "-n", "--threads"],
    },
    Compressor {
        names: &["compress", "uncompress"],
        unpackers: &["uncompress"],
        removes: true,
        keep: &[],
        remove: &[],
        quiet: &["-c"],
        decompress: &["-d"],
        suffix: ".Z",
        values: &["-b"],
    },
    Compressor {
        names: &["zstd", "pzstd", "unzstd"],
        unpackers: &["unzstd"],
        removes: false,
        keep: &["-k", "--keep"],
        remove: &["--rm"],
        quiet: &["-c", "--stdout", "-t", "--test", "-l", "--list"],
        decompress: &["-d", "--decompress", "--uncompress"],
        suffix: ".zst",
        values: &[
            "-o",
            "-D",
            "-T",
            "--threads",
            "-B",
            "--memory",
            "--patch-from",
        ],
    },
    Compressor {
        names: &["lz4", "unlz4"],
        unpackers: &["unlz4"],
        removes: false,
        keep: &["-k", "--keep"],
        remove: &["--rm"],
        quiet: &["-c", "--stdout", "-t", "--test", "--list"],
        decompress: &["-d", "--decompress", "--uncompress"],
        suffix: ".lz4",
        values: &["-B"],
    },
    Compressor {
        names: &["lzop"],
        unpackers: &[],
        removes: false,
        keep: &["-k", "--keep"],
        remove: &["-U", "--delete"],
        quiet: &["-c", "--stdout", "-t", "--test", "-l", "--list"],
        decompress: &["-d", "--decompress"],
        suffix: ".lzo",
        values: &["-o", "--output", "-S", "--suffix"],
    },
    Compressor {
        names: &["brotli", "unbrotli"],
        unpackers: &["unbrotli"],
        removes: false,
        keep: &["-k", "--keep"],
        remove: &["-j", "--rm"],
        quiet: &["-c", "--stdout", "-t", "--test"],
        decompress: &["-d", "--decompress"],
        suffix: ".br",
        values: &[
            "-o",
            "--output",
            "-q",
            "--quality",
            "-w",
            "--lgwin",
            "-S",
            "--suffix",
        ],
    },
];

/// Whether `program` is a compressor of [`COMPRESSORS`].
pub(crate) fn is_compressor(program: &str) -> bool {
    COMPRESSORS.iter().any(|c| c.names.contains(&program))
}

/// True when `raw` is a compressor's output named after an item read at run time
/// (`xargs gzip -k` → `{stdin}.gz`): a new file whose name ends in the compressor's own
/// suffix, next to its input. No protected file (settings, hooks, instructions, credentials)
/// has such a name, so where it lands needs no placing; the input's deletion (without `-k`)
/// and an unpacker's output (whose name is the item's own) stay unplaced.
pub(crate) fn runtime_compressed_output(raw: &str) -> bool {
    ["{stdin}", "{}"].iter().any(|item| {
        raw.strip_prefix(item)
            .is_some_and(|suffix| COMPRESSORS.iter().any(|c| c.suffix == suffix))
    })
}

/// `gzip f` replaces `f` by `f.gz` (the input is deleted); `zstd --rm`, `lz4 --rm`,
/// `brotli -j`, `lzop -U` likewise; `gunzip f.gz` writes `f`. Keep and stdout modes change
/// nothing but the output (`-o F` is written).
pub(crate) fn compressor(program: &str, argv: &[String], rest: &[String]) -> Described {
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let Some(c) = COMPRESSORS.iter().find(|c| c.names.contains(&program)) else {
        return d;
    };
    if has_flag(rest, c.quiet) {
        return d;
    }
    let outputs = option_values(rest, &["-o", "--output"]);
    let inputs: Vec<String> = operands(rest, c.values)
        .into_iter()
        .filter(|o| o != "-")
        .collect();
    let unpack = c.unpackers.contains(&program) || has_flag(rest, c.decompress);
    let removes = (c.removes && !has_flag(rest, c.keep)) || has_flag(rest, c.remove);
    let reach = if has_flag(rest, &["-r", "--recursive"]) {
        Reach::Tree
    } else {
        Reach::Exact
    };
    d.kind = ActionKind::FileWrite;
    if removes {
        d.kind = ActionKind::FileDelete;
        for i in &inputs {
            d.paths.push(Touch::new(i.clone(), PathOp::Delete, reach));
        }
    } else {
        d = d.with_paths(inputs.iter().cloned(), PathOp::Read);
    }
    if outputs.is_empty() {
        for i in &inputs {
            let out = if unpack {
                i.strip_suffix(c.suffix)
                    .map_or_else(|| format!("{i}.out"), str::to_owned)
            } else {
                format!("{i}{}", c.suffix)
            };
            d.paths.push(Touch::new(out, PathOp::Write, Reach::Exact));
        }
    }
    d.with_paths(outputs, PathOp::Write)
}

/// `zip [-m] ARCHIVE FILES…`: the archive is written; with `-m` (move into the archive) the
/// files are deleted, recursively with `-r`.
pub(crate) fn zip(argv: &[String], rest: &[String]) -> Described {
    let mut positionals: Vec<String> = Vec::new();
    let mut moves = false;
    let mut recursive = false;
    let mut entries_only = false;
    let mut iter = rest.iter().peekable();
    while let Some(a) = iter.next() {
        if let Some(long) = a.strip_prefix("--") {
            match long {
                "move" => moves = true,
                "recurse-paths" => recursive = true,
                "delete" | "copy-entries" => entries_only = true,
                "exclude" | "include" => while iter.next_if(|w| !w.starts_with('-')).is_some() {},
                _ => {}
            }
        } else if a.len() > 1 && a.starts_with('-') {
            if a == "-x" || a == "-i" {
                while iter.next_if(|w| !w.starts_with('-')).is_some() {}
                continue;
            }
            let (letters, _) = cluster(a, "bntPZsO", &mut iter);
            moves |= letters.contains(&'m');
            recursive |= letters.iter().any(|c| matches!(c, 'r' | 'R'));
            entries_only |= letters.contains(&'d') || letters.contains(&'U');
        } else {
            positionals.push(a.clone());
        }
    }
    let mut d = Described::new(ActionKind::FileWrite, argv);
    let Some((archive, files)) = positionals.split_first() else {
        return d;
    };
    d = d.with_paths([archive.clone()], PathOp::Write);
    if entries_only {
        return d;
    }
    if moves {
        d.kind = ActionKind::FileDelete;
        let reach = if recursive { Reach::Tree } else { Reach::Exact };
        for f in files {
            d.paths.push(Touch::new(f.clone(), PathOp::Delete, reach));
        }
    } else {
        d = d.with_paths(files.iter().cloned(), PathOp::Read);
    }
    d
}

/// `rar m ARCHIVE FILES` and `rar a -df …` move files into the archive (deleting them).
pub(crate) fn rar(argv: &[String], rest: &[String]) -> Described {
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let positionals: Vec<&String> = rest.iter().filter(|a| !a.starts_with('-')).collect();
    let Some((cmd, rest_pos)) = positionals.split_first() else {
        return d;
    };
    let Some((archive, files)) = rest_pos.split_first() else {
        return d;
    };
    if !matches!(cmd.as_str(), "a" | "m" | "mf" | "u" | "f" | "d") {
        return d;
    }
    d.kind = ActionKind::FileWrite;
    d = d.with_paths([(*archive).clone()], PathOp::Write);
    if matches!(cmd.as_str(), "m" | "mf") || rest.iter().any(|a| a == "-df") {
        d.kind = ActionKind::FileDelete;
        d = d.with_trees(files.iter().map(|f| (*f).clone()), PathOp::Delete);
    }
    d
}

/// `awk` (gawk, mawk, nawk, busybox): `-i inplace` rewrites the input files; a program's
/// `print > "file"`/`printf … >> "file"` writes that file, and a redirection to a computed
/// name (`print > $2 ".out"`, `> FILENAME`) writes somewhere only known at run time.
pub(crate) fn awk(argv: &[String], rest: &[String]) -> Described {
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let mut program: Option<String> = None;
    let mut from_file = false;
    let mut in_place = false;
    let mut files: Vec<String> = Vec::new();
    let mut iter = rest.iter();
    let mut only = false;
    while let Some(a) = iter.next() {
        if only || !(a.starts_with('-') && a.len() > 1) {
            if program.is_none() && !from_file {
                program = Some(a.clone());
            } else if !a.contains('=') || a.starts_with('/') || a.starts_with('.') {
                // `var=value` operands are assignments, not files.
                files.push(a.clone());
            }
            continue;
        }
        match a.as_str() {
            "--" => only = true,
            "-i" | "--include" => {
                in_place |= iter.next().is_some_and(|v| v == "inplace");
            }
            "-f" | "--file" => {
                from_file = true;
                iter.next();
            }
            "-v" | "--assign" | "-F" | "--field-separator" | "-E" | "--exec" | "-l" | "--load" => {
                iter.next();
            }
            "--inplace" => in_place = true,
            other => {
                in_place |= other == "-iinplace" || other == "--include=inplace";
                from_file |=
                    other.starts_with("--file=") || (other.starts_with("-f") && other.len() > 2);
            }
        }
    }
    if in_place {
        d.kind = ActionKind::FileWrite;
        d = d.with_paths(files, PathOp::Write);
    }
    if let Some(code) = program.filter(|_| !from_file) {
        let (targets, computed) = awk_redirections(&code);
        if !targets.is_empty() {
            d.kind = ActionKind::FileWrite;
        }
        d = d.with_paths(targets, PathOp::Write);
        if computed {
            d.unplaced
                .push("awk prints to a file whose name is computed at run time".to_owned());
        }
    }
    d
}

/// The files an awk program's `print`/`printf` statements redirect into: string-literal
/// targets, and whether any target is computed. Minimal scanning: string and regex literals
/// and comments are skipped; a `>`/`>>` counts only inside a print statement outside
/// parentheses (elsewhere it is a comparison).
fn awk_redirections(code: &str) -> (Vec<String>, bool) {
    let chars: Vec<char> = code.chars().collect();
    let mut targets = Vec::new();
    let mut computed = false;
    let mut in_print = false;
    let mut parens = 0usize;
    let mut i = 0;
    // Whether a `/` here starts a regex (after an operator or at a statement start).
    let mut regex_ok = true;
    while let Some(&c) = chars.get(i) {
        match c {
            '"' => {
                i += 1;
                while let Some(&x) = chars.get(i) {
                    i += if x == '\\' { 2 } else { 1 };
                    if x == '"' {
                        break;
                    }
                }
                regex_ok = false;
                continue;
            }
            '/' if regex_ok => {
                i += 1;
                while let Some(&x) = chars.get(i) {
                    i += if x == '\\' { 2 } else { 1 };
                    if x == '/' {
                        break;
                    }
                }
                regex_ok = false;
                continue;
            }
            '#' => {
                while chars.get(i).is_some_and(|x| *x != '\n') {
                    i += 1;
                }
                continue;
            }
            ';' | '\n' | '{' | '}' => {
                in_print = false;
                parens = 0;
                regex_ok = true;
            }
            '(' => {
                parens += 1;
                regex_ok = true;
            }
            ')' => {
                parens = parens.saturating_sub(1);
                regex_ok = false;
            }
            '>' if in_print && parens == 0 => {
                i += 1;
                if chars.get(i) == Some(&'>') {
                    i += 1;
                }
                while chars.get(i).is_some_and(|x| *x == ' ' || *x == '\t') {
                    i += 1;
                }
                if chars.get(i) == Some(&'"') {
                    let mut j = i + 1;
                    let mut name = String::new();
                    while let Some(&x) = chars.get(j) {
                        if x == '"' {
                            break;
                        }
                        if x == '\\' {
                            j += 1;
                            if let Some(&e) = chars.get(j) {
                                name.push(e);
                            }
                        } else {
                            name.push(x);
                        }
                        j += 1;
                    }
                    // `"out" suffix` concatenation makes the name computed.
                    let after: String = chars
                        .get(j + 1..)
                        .unwrap_or_default()
                        .iter()
                        .take_while(|x| !matches!(x, ';' | '\n' | '}'))
                        .collect();
                    if after.trim().is_empty() {
                        targets.push(name);
                    } else {
                        computed = true;
                    }
                    i = j + 1;
                } else {
                    computed = true;
                }
                in_print = false;
                continue;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while chars
                    .get(i)
                    .is_some_and(|x| x.is_ascii_alphanumeric() || *x == '_')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if word == "print" || word == "printf" {
                    in_print = true;
                    parens = 0;
                }
                regex_ok = matches!(word.as_str(), "print" | "printf" | "return" | "in");
                continue;
            }
            ' ' | '\t' => {}
            _ => regex_ok = !c.is_ascii_alphanumeric() && c != ']',
        }
        i += 1;
    }
    (targets, computed)
}

/// Libraries shipped with Emacs that batch runs load by name to test, export or build.
const EMACS_LIBRARIES: &[&str] = &[
    "ert",
    "ert-x",
    "org",
    "ox",
    "ox-md",
    "ox-html",
    "ox-latex",
    "ox-ascii",
    "ox-texinfo",
    "ox-man",
    "ox-odt",
    "ob-tangle",
    "package",
    "cl-lib",
    "subr-x",
    "seq",
    "map",
    "json",
    "checkdoc",
    "bytecomp",
    "lisp-mnt",
];

/// `emacs --batch`/`--script`: the visited files may be saved, and Lisp run from the
/// command line (`--eval`, `-l`, `-f`, `--script`) may write anything.
pub(crate) fn emacs(argv: &[String], rest: &[String]) -> Described {
    let mut d = Described::new(ActionKind::ShellExec, argv);
    let mut batch = false;
    let mut code = false;
    let mut files = Vec::new();
    // Every `-l` named a shipped library, and no `-L` changed where libraries come from.
    let mut library_only = true;
    let mut load_dir = false;
    let mut inline = false;
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        let name = a.split('=').next().unwrap_or(a);
        match name {
            "--batch" | "-batch" => batch = true,
            "--script" | "-script" => {
                batch = true;
                code = true;
                library_only = false;
                iter.next();
            }
            // `--eval CODE` too: the shell analyzer's Lisp reader sees named file calls, but
            // Emacs writes through buffers (`find-file` … `save-buffer`), which no call names.
            "--eval" | "-eval" => {
                code = true;
                inline = true;
                if !a.contains('=') {
                    iter.next();
                }
            }
            // `-l FILE` loads Lisp from a file (the project's or one the agent wrote: code as
            // `--eval`'s). `-l NAME` of a library Emacs ships (`-l ert`, `-l org`, `-l ox-md`)
            // is what a test or export run loads — unless `-L DIR` puts a directory the agent
            // can write first on the load path. (Emacs takes `-l NAME` from the current
            // directory when a file of exactly that name, without suffix, is there: a residual
            // the DISAGREEMENTS file names.) `-f FN` calls a named function of what is loaded
            // (`-f ert-run-tests-batch-and-exit`): the files it visits are the operands.
            "-l" | "--load" | "-load" => {
                let value = match a.split_once('=') {
                    Some((_, v)) => Some(v),
                    None => iter.next().map(String::as_str),
                };
                library_only &= value.is_some_and(|v| EMACS_LIBRARIES.contains(&v));
                code = true;
            }
            "-L" | "--directory" => {
                load_dir = true;
                if !a.contains('=') {
                    iter.next();
                }
            }
            // `-f FN` calls a named function of what is loaded; the other options take a
            // value that is no code.
            "-f" | "--funcall" | "-funcall" | "--chdir" | "--insert" | "-t" | "--terminal"
            | "-d" | "--display" | "--init-directory" => {
                if !a.contains('=') {
                    iter.next();
                }
            }
            _ if a.starts_with('+') || a.starts_with('-') => {}
            _ => files.push(a.clone()),
        }
    }
    // A batch run with only libraries and named functions still writes: the files it visits
    // (placed), and nothing else it can name.
    if batch || code {
        d.kind = ActionKind::FileWrite;
        d = d.with_paths(files, PathOp::Write);
        if code && (inline || load_dir || !library_only) {
            d.unplaced
                .push("emacs runs Lisp code whose writes cannot be placed".to_owned());
        }
    }
    d
}

/// `split [IN [PREFIX]]` and `csplit -f PREFIX IN …`: the pieces are written next to the
/// prefix (`PREFIXaa`, `xx00` by default).
pub(crate) fn split(program: &str, argv: &[String], rest: &[String]) -> Described {
    let d = Described::new(ActionKind::FileWrite, argv);
    let first = if program == "csplit" {
        let prefix = option_values(rest, &["-f", "--prefix"])
            .pop()
            .unwrap_or_else(|| "xx".to_owned());
        format!("{prefix}00")
    } else {
        let ops = operands(
            rest,
            &[
                "-a",
                "--suffix-length",
                "-b",
                "--bytes",
                "-C",
                "--line-bytes",
                "-l",
                "--lines",
                "-n",
                "--number",
                "-t",
                "--separator",
                "--additional-suffix",
                "--filter",
            ],
        );
        let prefix = ops.get(1).cloned().unwrap_or_else(|| "x".to_owned());
        format!("{prefix}aa")
    };
    d.with_paths([first], PathOp::Write)
}

/// Options of `patch` that take a value.
const PATCH_VALUE_OPTS: &[&str] = &[
    "-p",
    "--strip",
    "-d",
    "--directory",
    "-i",
    "--input",
    "-o",
    "--output",
    "-r",
    "--reject-file",
    "-B",
    "--prefix",
    "-Y",
    "--basename-prefix",
    "-z",
    "--suffix",
    "-V",
    "--version-control",
    "-F",
    "--fuzz",
    "-D",
    "--ifdef",
    "-g",
    "--get",
    "--quoting-style",
    "--merge",
];

/// The strip level of `-pN`/`-p N`/`--strip=N`.
fn strip_level(args: &[String], short: &str, long: &str) -> Option<usize> {
    option_values(args, &[short, long])
        .pop()
        .and_then(|v| v.parse().ok())
}

/// The archive a whole-archive extraction reads, when it is a file named on the line
/// ([`Touch::archive`]): its member list, looked up by the caller, says what lands where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArchiveSource {
    /// The archive as written.
    pub raw: String,
    /// How to list it.
    pub format: ArchiveFormat,
    /// Leading member components dropped (`--strip-components=N`).
    pub strip: usize,
    /// Read from standard input (`raw` is `-`): listed when a `< FILE` redirect names the
    /// file (`hookgate_shell::Analysis::stdin_files`), otherwise (a pipe) never.
    pub stdin: bool,
    /// Member names may be absolute and are extracted there (`cpio -i` without
    /// `--no-absolute-filenames`): without a listing that shows none, the extraction also
    /// writes where the guard cannot place it.
    pub anywhere: bool,
}

impl ArchiveSource {
    fn stdin(format: ArchiveFormat, strip: usize) -> Self {
        Self {
            raw: "-".to_owned(),
            format,
            strip,
            stdin: true,
            anywhere: false,
        }
    }
}

/// A diff a command applies from a file ([`Described::diff_files`]): where it is and how its
/// header paths become files.
#[derive(Debug, Clone)]
pub(crate) struct DiffFile {
    /// The patch file as written; `None`: the command's standard input (a `< FILE` redirect
    /// the analysis names, see `hookgate_shell::Analysis::stdin_files`).
    pub raw: Option<String>,
    /// Strip levels to try (`-pN`; GNU patch without `-p` may take the base name or the path).
    pub strips: Vec<Option<usize>>,
    /// The directory the stripped paths are relative to, as written (`-d DIR`, `.`).
    pub base: String,
    /// For `git apply`: the paths count from the root of this directory's worktree
    /// ([`Base::RootOf`]), below `--directory`.
    pub git: Option<(String, Option<String>)>,
}

/// Largest diff file read to name the files it changes; a larger one is judged unread.
const MAX_DIFF_FILE: u64 = 8 * 1024 * 1024;

/// The text of a diff file, or `None` when it cannot be read, is too large, or is not text.
pub(crate) fn read_diff(path: &std::path::Path) -> Option<String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).ok()?;
    if file.metadata().ok()?.len() > MAX_DIFF_FILE {
        return None;
    }
    let mut text = String::new();
    file.take(MAX_DIFF_FILE).read_to_string(&mut text).ok()?;
    Some(text)
}

impl DiffFile {
    /// The files the diff `text` names, as touches.
    pub(crate) fn touches(&self, text: &str) -> Vec<Touch> {
        let mut out = diff_touches(text, &self.strips, &self.base);
        if let Some((dir, prefix)) = &self.git {
            for t in &mut out {
                if let Some(p) = prefix {
                    t.raw = join(p, &t.raw);
                }
                t.base = Base::RootOf(dir.clone());
            }
        }
        out
    }
}

/// The files a diff names, as touches relative to `base` after stripping each of `strips`.
fn diff_touches(text: &str, strips: &[Option<usize>], base: &str) -> Vec<Touch> {
    let mut out = Vec::new();
    for p in diff_paths(text) {
        push_stripped(&p, strips, base, &mut out);
    }
    out
}

/// One header path of a diff as touches, one per strip level.
fn push_stripped(p: &DiffPath, strips: &[Option<usize>], base: &str, out: &mut Vec<Touch>) {
    for s in strips {
        let name = match s {
            Some(n) => strip_components(&p.path, *n),
            // No `-p`: GNU patch takes the base name.
            None => p.path.rsplit('/').next().map(str::to_owned),
        };
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            out.push(Touch::new(join(base, &name), p.op, Reach::Exact));
        }
    }
}

/// The files a diff fed on stdin names, as Touches relative to `base` after stripping.
/// Returns `None` when there is no visible diff, or when part of it is only known at run
/// time (an expansion in an unquoted heredoc may add files): the caller then also treats the
/// diff as unread. The files it does name are in `d.paths` in that case.
fn visible_diff(
    stdin: Option<&Text>,
    strips: &[Option<usize>],
    base: &str,
    d: &mut Described,
    what: &str,
) -> Option<Vec<Touch>> {
    let text = stdin?;
    let mut out = Vec::new();
    for p in diff_paths(&text.text) {
        if p.path.contains(['$', '`']) {
            d.unplaced.push(format!(
                "{what} applies a diff naming a file only known at run time"
            ));
            continue;
        }
        push_stripped(&p, strips, base, &mut out);
    }
    if text.exact {
        Some(out)
    } else {
        d.paths.extend(out);
        None
    }
}

/// `patch`: writes the ORIGINALFILE operand, or the `-o` file, or the files the diff names
/// (read from a visible heredoc/here-string, `-p` stripped, below `-d`). A diff in a file
/// (`-i F`, `< F`, a second operand) cannot be read here: the files below the directory it
/// applies in are touched partially (asked about when that directory holds the protected
/// set). `--dry-run` writes nothing.
pub(crate) fn patch(argv: &[String], rest: &[String], stdin: Option<&Text>) -> Described {
    let mut d = Described::new(ActionKind::FileWrite, argv);
    if has_flag(rest, &["--dry-run", "--check"]) {
        d.kind = ActionKind::ShellExec;
        return d;
    }
    let dir = option_values(rest, &["-d", "--directory"])
        .pop()
        .unwrap_or_else(|| ".".to_owned());
    let outputs = option_values(rest, &["-o", "--output"]);
    let rejects = option_values(rest, &["-r", "--reject-file"]);
    d = d.with_paths(rejects.into_iter().filter(|r| r != "-"), PathOp::Write);
    let ops = operands(rest, PATCH_VALUE_OPTS);
    if !outputs.is_empty() {
        return d.with_paths(outputs.into_iter().filter(|o| o != "-"), PathOp::Write);
    }
    if let Some(original) = ops.first() {
        return d.with_paths([join(&dir, original)], PathOp::Write);
    }
    let from_file = !option_values(rest, &["-i", "--input"]).is_empty();
    let strip = strip_level(rest, "-p", "--strip");
    let strips = match strip {
        Some(n) => vec![Some(n)],
        None => vec![None, Some(0)],
    };
    if !from_file && let Some(touches) = visible_diff(stdin, &strips, &dir, &mut d, "patch") {
        d.paths.extend(touches);
        return d;
    }
    let input = option_values(rest, &["-i", "--input"]).pop();
    if input.is_some() || stdin.is_none() {
        d.diff_files.push(DiffFile {
            raw: input.filter(|i| i != "-"),
            strips,
            base: dir.clone(),
            git: None,
        });
    }
    let mut t = Touch::new(dir, PathOp::Write, Reach::Tree);
    t.partial = true;
    d.paths.push(t);
    d
}

/// `git apply` / `git am` (`rest` after the subcommand; `dir` where git runs): the files the
/// diff names, relative to the worktree root, when the diff is visible on stdin; else the
/// whole worktree, partially. `--check`/`--stat`/`--numstat`/`--summary` (without
/// `--apply`) and `--cached` write no file.
pub(crate) fn git_apply(
    sub: &str,
    argv: &[String],
    rest: &[String],
    dir: &str,
    worktree: Touch,
    stdin: Option<&Text>,
) -> Described {
    let mut d = Described::new(ActionKind::FileWrite, argv);
    let read_only = !has_flag(rest, &["--apply"])
        && has_flag(rest, &["--check", "--stat", "--numstat", "--summary"]);
    // `--cached` writes the index only, but the index is the next commit's content: the
    // patch's paths are judged as written (a protected file's entry is the first step of
    // rewriting it through a commit; see the policy's `treemove` module).
    if sub == "apply" && read_only {
        d.kind = ActionKind::GitOther;
        return d;
    }
    if sub == "am" && has_flag(rest, &["--quit", "--show-current-patch"]) {
        d.kind = ActionKind::GitOther;
        return d;
    }
    if has_flag(rest, &["--unsafe-paths"]) {
        d.unplaced
            .push("git apply --unsafe-paths may write outside the worktree".to_owned());
    }
    let prefix = option_values(rest, &["--directory"]).pop();
    let patches = operands(
        rest,
        &[
            "-p",
            "-C",
            "--whitespace",
            "--exclude",
            "--include",
            "--directory",
            "-S",
            "--patch-format",
            "--resolvemsg",
            "--exclude",
            "--include",
        ],
    );
    let strip = strip_level(rest, "-p", "-p").unwrap_or(1);
    let continues = has_flag(
        rest,
        &["--continue", "--skip", "--abort", "--resolved", "-r"],
    );
    if !continues && patches.iter().all(|p| p == "-") {
        let mut root_relative = Described::new(ActionKind::FileWrite, argv);
        let visible = visible_diff(stdin, &[Some(strip)], ".", &mut root_relative, "git apply");
        let complete = visible.is_some();
        for mut t in visible.into_iter().flatten().chain(root_relative.paths) {
            if let Some(p) = &prefix {
                t.raw = join(p, &t.raw);
            }
            t.base = Base::RootOf(dir.to_owned());
            d.paths.push(t);
        }
        d.unplaced.extend(root_relative.unplaced);
        if complete {
            return d;
        }
    }
    if !continues && (stdin.is_none() || patches.iter().any(|p| p != "-")) {
        let from_stdin = patches.is_empty() || patches.iter().any(|p| p == "-");
        d.diff_files.extend(
            patches
                .iter()
                .filter(|p| *p != "-")
                .map(|p| Some(p.clone()))
                .chain(from_stdin.then_some(None))
                .map(|raw| DiffFile {
                    raw,
                    strips: vec![Some(strip)],
                    base: ".".to_owned(),
                    git: Some((dir.to_owned(), prefix.clone())),
                }),
        );
    }
    let mut t = worktree;
    t.op = PathOp::Write;
    t.partial = true;
    d.paths.push(t);
    d
}

/// `ln`, `cp -l`/`-s`, `link`: the links a command creates, as (link path, what it reaches),
/// both as written (a relative symlink target counts from the link's directory). And a hard
/// link to a file shares it: later writes through the link change it unseen, so creating one
/// to a protected file is judged as writing it.
pub(crate) fn links(program: &str, rest: &[String], d: &mut Described) {
    if !matches!(program, "ln" | "cp" | "link") {
        return;
    }
    let flags = split_flags(rest);
    let has = |short: char, long: &str| flags.short.contains(&short) || flags.long.contains(long);
    let symbolic = match program {
        "ln" => has('s', "symbolic"),
        "cp" => has('s', "symbolic-link"),
        "link" => false,
        _ => return,
    };
    if program == "cp" && !symbolic && !has('l', "link") {
        return;
    }
    let (dest, sources) = if program == "link" {
        let ops = operands(rest, &[]);
        (ops.get(1).cloned(), ops.into_iter().take(1).collect())
    } else {
        dest_and_sources(rest, &["-S", "--suffix"])
    };
    let (dest, sources) = match (dest, sources) {
        // `ln -s TARGET` links `./basename(TARGET)`.
        (None, s) if program == "ln" && s.len() == 1 => (Some(".".to_owned()), s),
        other => other,
    };
    let recursive =
        program == "cp" && (has('r', "recursive") || has('R', "\0") || has('a', "archive"));
    for src in &sources {
        if !symbolic {
            let mut t = Touch::new(
                src.clone(),
                PathOp::Write,
                if recursive { Reach::Tree } else { Reach::Exact },
            );
            t.verb = Some("hard-link (writes through the link would change it unseen)");
            d.paths.push(t);
        }
        let Some(dest) = &dest else { continue };
        let mut places = vec![dest.clone()];
        if let Some(name) = last_component(src) {
            places.push(join(dest, name));
        }
        for link in places {
            let target = if symbolic && !src.starts_with('/') && !src.starts_with('~') {
                let parent = link
                    .trim_end_matches('/')
                    .rsplit_once('/')
                    .map_or(".", |(p, _)| if p.is_empty() { "/" } else { p });
                join(parent, src)
            } else {
                src.clone()
            };
            d.links.push((link, target));
        }
    }
}

/// The start paths and the expression words of a find argv (after the program).
pub(crate) fn find_parts(rest: &[String]) -> (Vec<String>, Vec<String>) {
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        match a.as_str() {
            "-H" | "-L" | "-P" => i += 1,
            "-D" => i += 2,
            o if o.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    let mut starts = Vec::new();
    while let Some(a) = rest.get(i) {
        if a.starts_with('-') || matches!(a.as_str(), "(" | "!" | ",") {
            break;
        }
        starts.push(a.clone());
        i += 1;
    }
    if starts.is_empty() {
        starts.push(".".to_owned());
    }
    (starts, rest.get(i..).unwrap_or_default().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn touches(d: &Described) -> Vec<(String, PathOp, Reach)> {
        d.paths
            .iter()
            .map(|t| (t.raw.clone(), t.op, t.reach))
            .collect()
    }

    fn describe(line: &str) -> Described {
        super::super::describe(&v(line), None)
    }

    #[test]
    fn chmod_modes_that_look_like_flags_are_modes() {
        assert_eq!(
            mode_targets("chmod", &v("-x /usr/bin/hookgate")),
            v("/usr/bin/hookgate")
        );
        assert_eq!(mode_targets("chmod", &v("-R 000 .claude")), v(".claude"));
        assert_eq!(mode_targets("chmod", &v("--reference=a b")), v("b"));
        assert_eq!(mode_targets("chattr", &v("-i f")), v("f"));
        assert_eq!(mode_targets("chattr", &v("+i -R f")), v("f"));
        assert_eq!(mode_targets("chown", &v("-R u:g .claude")), v(".claude"));
        assert_eq!(mode_targets("setfacl", &v("-m u:x:rwx f")), v("f"));
    }

    #[test]
    fn archives_write_below_their_extraction_directory() {
        let d = describe("tar -xzf a.tgz -C .claude");
        assert!(touches(&d).contains(&(".claude".into(), PathOp::Write, Reach::Tree)));
        let d = describe("tar xf a.tar");
        assert!(touches(&d).contains(&(".".into(), PathOp::Write, Reach::Tree)));
        let d = describe("tar --extract --file=a.tar --directory=x y/z");
        assert!(touches(&d).contains(&("x/y/z".into(), PathOp::Write, Reach::Tree)));
        let d = describe("tar -tf a.tar");
        assert!(d.paths.iter().all(|t| t.op == PathOp::Read));
        let d = describe("tar -czf out.tgz src");
        assert!(touches(&d).contains(&("out.tgz".into(), PathOp::Write, Reach::Exact)));
        let d = describe("unzip -o a.zip");
        assert!(touches(&d).contains(&(".".into(), PathOp::Write, Reach::Tree)));
        let d = describe("unzip -q a.zip -d out");
        assert!(touches(&d).contains(&("out".into(), PathOp::Write, Reach::Tree)));
        let d = describe("unzip -l a.zip");
        assert!(d.paths.iter().all(|t| t.op == PathOp::Read));
        let d = describe("cpio -idmv");
        assert!(touches(&d).contains(&(".".into(), PathOp::Write, Reach::Tree)));
    }

    /// GNU tar (argp) reads any unique prefix of a long option: the abbreviations name the
    /// same extraction, directory, command and placement as the whole names; an ambiguous or
    /// unknown prefix makes tar stop before extracting.
    #[test]
    fn tar_long_option_abbreviations_are_read_as_tar_reads_them() {
        let d = describe("tar --extr --fil=a.tar --dir=.claude");
        assert!(touches(&d).contains(&(".claude".into(), PathOp::Write, Reach::Tree)));
        let d = describe("tar -x --fi a.tar --direc .claude y/z");
        assert!(touches(&d).contains(&(".claude/y/z".into(), PathOp::Write, Reach::Tree)));
        // `--to-comm` sends members to a command: nothing lands on disk by name.
        let d = describe("tar --to-comm=sh -xf a.tar");
        assert!(
            d.paths.iter().all(|t| t.op == PathOp::Read),
            "{:?}",
            touches(&d)
        );
        // `--abs` keeps absolute names; `--transf`/`--one-top` rename: not listable.
        for line in [
            "tar -xf a.tar --abs",
            "tar -xf a.tar --transf s/a/b/",
            "tar -xf a.tar --one-top",
        ] {
            let d = describe(line);
            assert!(
                d.paths.iter().any(|t| t.raw == "." && t.archive.is_none()),
                "{line}"
            );
        }
        let d = describe("tar -xf a.tar --strip-comp=1 -C out");
        assert!(
            d.paths
                .iter()
                .any(|t| t.archive.as_ref().is_some_and(|a| a.strip == 1))
        );
        // A value-taking option's value is not a member.
        let d = describe("tar -xf a.tar --pax-opt delete=x -C out");
        assert!(!touches(&d).iter().any(|t| t.0.contains("delete=x")));
        // `--c` is ambiguous (create, catenate, compare, …): tar refuses the line.
        assert!(describe("tar --c -f a.tar src").paths.is_empty());
    }

    #[test]
    fn editors_write_only_when_told_to() {
        let d = describe("ex -sc wq f");
        assert!(touches(&d).contains(&("f".into(), PathOp::Write, Reach::Exact)));
        let d = describe("vim +wq f");
        assert!(touches(&d).contains(&("f".into(), PathOp::Write, Reach::Exact)));
        let d = describe("nvim --headless -c w!_other -c q f");
        assert!(d.paths.iter().any(|t| t.op == PathOp::Write));
        let d = describe("vim -c q f");
        assert!(d.paths.iter().all(|t| t.op == PathOp::Read));
        assert_eq!(ex_writes("%s/a/b/|sav /tmp/x").1, v("/tmp/x"));
    }

    #[test]
    fn find_delete_deletes_its_start_trees_where_its_tests_select() {
        let d = describe("find .claude -delete");
        assert!(touches(&d).contains(&(".claude".into(), PathOp::Delete, Reach::Tree)));
        let d = describe("find -L . -mindepth 1 -delete");
        assert!(touches(&d).contains(&(".".into(), PathOp::Delete, Reach::Tree)));
        // With tests the trees are reached only where the expression selects.
        let d = describe("find . -name *.pyc -delete");
        assert!(d.paths.iter().all(|t| t.filter.is_some() && t.raw == "."));
        assert!(describe("find .claude -type f").paths.is_empty());
    }

    #[test]
    fn sqlite_writes_unless_read_only() {
        let w = |l: &str| {
            let d = describe(l);
            d.paths.iter().any(|t| t.op == PathOp::Write)
        };
        assert!(w("sqlite3 audit.db delete_from_x"));
        assert!(!w("sqlite3 -readonly audit.db x"));
        assert!(w("sqlite3 audit.db"));
        assert!(sql_read_only("select count(*) from records; .tables"));
        assert!(!sql_read_only("select 1; delete from records"));
        assert!(!sql_read_only("with x as (select 1) delete from r"));
        assert!(sql_read_only("select ';delete'"));
    }

    #[test]
    fn copies_and_moves_reach_into_a_destination_directory() {
        let d = describe("mv evil.json .claude");
        assert!(touches(&d).contains(&(".claude/evil.json".into(), PathOp::Write, Reach::NewTree)));
        assert!(touches(&d).contains(&("evil.json".into(), PathOp::Move, Reach::Tree)));
        let d = describe("cp settings.json .claude/");
        assert!(touches(&d).contains(&(
            ".claude/settings.json".into(),
            PathOp::Write,
            Reach::Exact
        )));
        let d = describe("ln -sf /bin/true /usr/local/bin/hookgate");
        assert!(touches(&d).contains(&(
            "/usr/local/bin/hookgate".into(),
            PathOp::Write,
            Reach::NewTree
        )));
        let d = describe("cp -r /tmp/evil/. .");
        assert!(touches(&d).contains(&(".".into(), PathOp::Write, Reach::Tree)));
        let d = describe("mv notes.txt .");
        assert!(touches(&d).contains(&(".".into(), PathOp::Write, Reach::NewTree)));
        let d = describe("rsync -a --delete src/ .claude/");
        assert!(touches(&d).contains(&(".claude/".into(), PathOp::Delete, Reach::Tree)));
    }
}
