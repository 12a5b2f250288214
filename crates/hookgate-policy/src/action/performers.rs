//! The paths each file-changing program may touch, read off its parsed argv.
//!
//! Every function here answers one question for one program family: which paths can this
//! invocation write, delete, move, chmod or replace, and how far does each reach
//! ([`Reach::Tree`] when a whole directory is affected). The answers feed every invariant
//! through [`super::Facts`]; self-protection relies on them being complete, so when an
//! invocation's targets cannot be narrowed (an archive extracted without a member list, an
//! editor running a script from a file) the whole directory it works in is the target.

use hookgate_core::PathOp;

use super::{ActionKind, Described, RawExcept, Reach, Touch, dest_and_sources, operands};
use crate::pattern::split_flags;

/// Words that cannot be a literal path (glob patterns in archive member lists, pathspecs).
fn has_wildcard(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// `dir/name`, or `name` when `dir` is `.`.
fn join(dir: &str, name: &str) -> String {
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

/// `mv`, `cp`, `install`, `ln`: the destination, and `dest/<source name>` for each source
/// (the destination may be a directory). A moved, recursively copied or linked source may be
/// a directory, so those destinations are [`Reach::NewTree`]; copying a directory's
/// *contents* (`cp -r src/. dest`, `cp -rT`, `mv -T`) reaches everything below the
/// destination ([`Reach::Tree`]).
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
    let contents = has('T', "no-target-directory")
        || (program == "cp" && recursive && sources.iter().any(|s| s.ends_with("/.")));
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
    match program {
        "mv" => d = d.with_trees(sources.iter().cloned(), PathOp::Move),
        "ln" => {}
        _ => d = d.with_paths(sources.iter().cloned(), PathOp::Read),
    }
    if let Some(dest) = dest {
        for s in &sources {
            if let Some(name) = last_component(s) {
                d.paths
                    .push(Touch::new(join(&dest, name), PathOp::Write, inner_reach));
            }
        }
        d.paths.push(Touch::new(dest, PathOp::Write, dest_reach));
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
    files: Vec<String>,
    dirs: Vec<String>,
    excludes: Vec<String>,
    members: Vec<String>,
}

impl TarCall {
    fn mode(&mut self, c: char) {
        match c {
            'x' => self.extract = true,
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
            "exclude-from"
            | "use-compress-program"
            | "owner"
            | "group"
            | "mode"
            | "format"
            | "label"
            | "newer"
            | "after-date"
            | "blocking-factor"
            | "record-size"
            | "tape-length"
            | "info-script"
            | "new-volume-script"
            | "volno-file"
            | "rsh-command"
            | "strip-components"
            | "suffix"
            | "checkpoint-action"
            | "occurrence"
            | "quoting-style"
            | "owner-map"
            | "group-map"
            | "mtime"
            | "sort"
            | "warning"
            | "index-file"
            | "level"
            | "listed-incremental" => {
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
            t.long(name, value, &mut iter);
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
        d = d.with_paths(t.files.into_iter().filter(|f| f != "-"), PathOp::Read);
        if t.dirs.is_empty() {
            t.dirs.push(".".to_owned());
        }
        let placeable = !t.unplaceable && !t.members.iter().any(|m| has_wildcard(m));
        d = extraction(d, &t.dirs, &t.members, placeable, &t.excludes);
    } else if t.create {
        d.kind = ActionKind::FileWrite;
        d = d
            .with_paths(t.files.into_iter().filter(|f| f != "-"), PathOp::Write)
            .with_paths(t.members, PathOp::Read);
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
    let mut d = Described::new(ActionKind::ShellExec, argv).with_paths(archive, PathOp::Read);
    if listing {
        return d;
    }
    let placeable = !members.iter().any(|m| has_wildcard(m));
    d = extraction(
        d,
        &[dir.unwrap_or_else(|| ".".to_owned())],
        &members,
        placeable,
        &excludes,
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
                "list" => list = true,
                "directory" => dir = value.or_else(|| iter.next().cloned()),
                "file" => archive_out = value.or_else(|| iter.next().cloned()),
                _ => {}
            }
        } else if a.len() > 1 && a.starts_with('-') {
            let (letters, value) = cluster(a, "DFOIEHRMC", &mut iter);
            for c in letters {
                match c {
                    'i' => extract = true,
                    'p' => pass = true,
                    't' => list = true,
                    _ => {}
                }
            }
            match value {
                Some(('D', v)) => dir = Some(v),
                Some(('O' | 'F', v)) => archive_out = Some(v),
                _ => {}
            }
        } else {
            positionals.push(a.clone());
        }
    }
    let mut d = Described::new(ActionKind::ShellExec, argv);
    if extract && !list {
        d = extraction(d, &[dir.unwrap_or_else(|| ".".to_owned())], &[], false, &[]);
    } else if pass {
        d = extraction(d, &positionals, &[], false, &[]);
    } else if let Some(out) = archive_out {
        d.kind = ActionKind::FileWrite;
        d = d.with_paths([out], PathOp::Write);
    }
    d
}

/// `7z x|e ARCHIVE [-oDIR]` extracts below DIR (the cwd by default).
pub(crate) fn seven_zip(argv: &[String], rest: &[String]) -> Described {
    let d = Described::new(ActionKind::ShellExec, argv);
    let Some(cmd) = rest.first() else { return d };
    if !matches!(cmd.as_str(), "x" | "e") {
        return d;
    }
    let dir = rest
        .iter()
        .find_map(|a| a.strip_prefix("-o"))
        .filter(|v| !v.is_empty())
        .unwrap_or(".")
        .to_owned();
    extraction(d, &[dir], &[], false, &[])
}

/// `find PATHS… -delete`: with no test narrowing what it matches (only depth and traversal
/// options), it deletes every tree it starts from. With tests (`-name`, `-type`, …) the
/// matched files cannot be known without the file list; `recursive-operation-guard` covers
/// those, and `-exec rm …` is judged as the `rm` the analyzer extracts.
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
    let mut iter = rest.iter().peekable();
    // Leading `-H`/`-L`/`-P`/`-D x`/`-O3` come before the start paths.
    while let Some(a) = iter.peek() {
        match a.as_str() {
            "-H" | "-L" | "-P" => {
                iter.next();
            }
            "-D" => {
                iter.next();
                iter.next();
            }
            o if o.starts_with("-O") => {
                iter.next();
            }
            _ => break,
        }
    }
    let mut starts: Vec<String> = Vec::new();
    while let Some(a) =
        iter.next_if(|a| !a.starts_with('-') && !matches!(a.as_str(), "(" | "!" | ","))
    {
        starts.push(a.clone());
    }
    let mut deletes = false;
    let mut filtered = false;
    while let Some(a) = iter.next() {
        if a == "-delete" {
            deletes = true;
        }
        if WITH_VALUE.contains(&a.as_str()) {
            iter.next();
        } else if !NEUTRAL.contains(&a.as_str()) {
            filtered = true;
        }
    }
    if deletes && !filtered {
        if starts.is_empty() {
            starts.push(".".to_owned());
        }
        d.kind = ActionKind::FileDelete;
        d = d.with_trees(starts, PathOp::Delete);
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
    fn find_delete_without_tests_deletes_its_start_trees() {
        let d = describe("find .claude -delete");
        assert!(touches(&d).contains(&(".claude".into(), PathOp::Delete, Reach::Tree)));
        let d = describe("find -L . -mindepth 1 -delete");
        assert!(touches(&d).contains(&(".".into(), PathOp::Delete, Reach::Tree)));
        assert!(describe("find . -name *.pyc -delete").paths.is_empty());
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
