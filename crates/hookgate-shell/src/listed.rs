//! Search tools that print the names of files below their search roots (`rg -l`, `grep -rl`,
//! `git ls-files`, `git grep -l`, `fd`), so `… | xargs sed -i …` edits files the analyzer can
//! place — the same model as `find ROOT | xargs` (issue 8). Only a plain listing is modelled:
//! an option that prints something else (`--format`), runs code (`rg --pre`, `fd -x`,
//! `git grep -O`), changes the directory (`fd --base-directory`, `git -C`) or is unknown
//! keeps the output opaque, judged as before (`fs.overwrite_unresolved_target`). Also the
//! path `mktemp` prints ([`mktemp_output`]), the other producer of names for later writes.

use crate::walk::{Producer, Word};

/// What such a search prints, or `None` when the line is not a plain listing of one root.
/// A tool that skips hidden entries (rg, fd without `--hidden`/`-u`) lists the visible files
/// below its root ([`Producer::VisibleFiles`]): at the workspace root that excludes the
/// hidden directories the protected set lives in (`.claude/`, `.git/`). One that does not
/// (`grep -r`, git's tracked files, `--hidden`) lists every file there
/// ([`Producer::FindPaths`], judged like `find ROOT`).
pub(crate) fn listing(name: &str, args: &[Word]) -> Option<Producer> {
    // Every command reaches here: decide on the name before copying anything.
    if !matches!(
        name,
        "rg" | "grep" | "egrep" | "fgrep" | "fd" | "fdfind" | "git"
    ) || args.iter().any(|w| !w.exact)
    {
        return None;
    }
    let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let (roots, hidden) = match (name, words.as_slice()) {
        ("rg", _) => ripgrep(&words).map(|(r, h)| (vec![r], h))?,
        // grep searches each root it is given (`grep -rl X src tests`).
        ("grep" | "egrep" | "fgrep", _) => (grep(&words)?, true),
        ("fd" | "fdfind", _) => fd(&words).map(|(r, h)| (vec![r], h))?,
        ("git", ["ls-files", rest @ ..]) => (vec![git_ls_files(rest)?], true),
        ("git", ["grep", rest @ ..]) => (vec![git_grep(rest)?], true),
        _ => return None,
    };
    // A hidden directory named as a root (`.claude`, `.codex/hooks`) is where the protected
    // set lives, and the policy judges `Descendants` by the root alone: such a listing stays
    // opaque (asked), as before this model.
    if roots.iter().any(|root| {
        root.split('/')
            .any(|c| c.starts_with('.') && !matches!(c, "." | ".."))
    }) {
        return None;
    }
    match (hidden, roots.as_slice()) {
        (true, _) => Some(Producer::FindPaths(roots)),
        (false, [root]) => Some(Producer::VisibleFiles(root.clone())),
        (false, _) => None,
    }
}

/// Splits `words` into options and positionals after checking every option against
/// `flags` (no value) and `valued` (a value in the next word or after `=`). Short flags
/// may be clustered when every letter is a flag. `None` for an option in neither list.
fn split<'a>(
    words: &[&'a str],
    flags: &[&str],
    valued: &[&str],
) -> Option<(Vec<&'a str>, Vec<&'a str>)> {
    let mut options = Vec::new();
    let mut positionals = Vec::new();
    let mut i = 0;
    let mut ended = false;
    while let Some(&w) = words.get(i) {
        i += 1;
        if ended || !w.starts_with('-') || w == "-" {
            positionals.push(w);
            continue;
        }
        if w == "--" {
            ended = true;
            continue;
        }
        let head = w.split_once('=').map_or(w, |(h, _)| h);
        if valued.contains(&head) {
            // The value is the next word (`-e PAT`, `--glob '*.rs'`) unless given after `=`;
            // it is not an option, so it is not kept with them.
            if head == w {
                words.get(i)?;
                i += 1;
            }
            options.push(head);
            continue;
        }
        if flags.contains(&w) {
            options.push(w);
            continue;
        }
        // A cluster of short flags (`-rl`, `-il`).
        let cluster = w.strip_prefix('-').filter(|c| !c.starts_with('-'))?;
        let mut all = true;
        for c in cluster.chars() {
            let mut buf = [0u8; 4];
            let flag = format!("-{}", c.encode_utf8(&mut buf));
            all &= flags.contains(&flag.as_str());
        }
        if !all {
            return None;
        }
        options.push(w);
    }
    Some((options, positionals))
}

/// Whether a short flag letter is in `options` (alone or in a cluster) or the long name is.
fn has(options: &[&str], short: char, long: &str) -> bool {
    options.iter().any(|o| {
        o.strip_prefix(long)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
            || (o.starts_with('-') && !o.starts_with("--") && o.len() > 1 && o[1..].contains(short))
    })
}

/// The operands after the pattern: all of them when the pattern came from `-e`/`-f`
/// (`--regexp`/`--file`) or the tool takes none (`rg --files`), else all but the first.
fn after_pattern<'a>(
    options: &[&str],
    positionals: &'a [&'a str],
    no_pattern: bool,
) -> Option<&'a [&'a str]> {
    if no_pattern || has(options, 'e', "--regexp") || has(options, 'f', "--file") {
        Some(positionals)
    } else {
        positionals.get(1..)
    }
}

/// The single root, `.` when none is named; `None` for several (not modelled).
fn one_root(roots: &[&str]) -> Option<String> {
    match roots {
        [] => Some(".".to_owned()),
        [one] => Some((*one).to_owned()),
        _ => None,
    }
}

/// `rg -l PATTERN [ROOT]`, `rg --files [ROOT]`: hidden entries only with `--hidden`, `-.`
/// or `-uu`.
fn ripgrep(words: &[&str]) -> Option<(String, bool)> {
    const FLAGS: &[&str] = &[
        "-l",
        "--files-with-matches",
        "--files",
        "-i",
        "--ignore-case",
        "-S",
        "--smart-case",
        "-s",
        "--case-sensitive",
        "-F",
        "--fixed-strings",
        "-w",
        "--word-regexp",
        "-x",
        "--line-regexp",
        "-P",
        "--pcre2",
        "-U",
        "--multiline",
        "-0",
        "--null",
        "--hidden",
        "-.",
        "-u",
        "--no-ignore",
        "--no-ignore-vcs",
        "-L",
        "--follow",
        "--no-messages",
        "-v",
        "--invert-match",
        "-z",
        "--search-zip",
        "--no-config",
        "-a",
        "--text",
        "--sort-files",
    ];
    const VALUED: &[&str] = &[
        "-e",
        "--regexp",
        "-f",
        "--file",
        "-g",
        "--glob",
        "--iglob",
        "-t",
        "--type",
        "-T",
        "--type-not",
        "-d",
        "--max-depth",
        "-m",
        "--max-count",
        "-j",
        "--threads",
        "--sort",
        "--sortr",
        "-E",
        "--encoding",
        "--max-filesize",
        "--ignore-file",
    ];
    let (options, positionals) = split(words, FLAGS, VALUED)?;
    let files = options.contains(&"--files");
    if !files && !has(&options, 'l', "--files-with-matches") {
        return None;
    }
    let roots = after_pattern(&options, &positionals, files)?;
    let u_count: usize = options
        .iter()
        .filter(|o| !o.starts_with("--"))
        .map(|o| o.matches('u').count())
        .sum();
    let hidden = has(&options, '.', "--hidden") || u_count >= 2;
    Some((one_root(roots)?, hidden))
}

/// `grep -rl PATTERN [ROOT…]` (GNU grep searches `.` when `-r` names no file): its roots.
fn grep(words: &[&str]) -> Option<Vec<String>> {
    const FLAGS: &[&str] = &[
        "-l",
        "--files-with-matches",
        "-r",
        "--recursive",
        "-R",
        "--dereference-recursive",
        "-i",
        "--ignore-case",
        "-w",
        "--word-regexp",
        "-x",
        "--line-regexp",
        "-E",
        "--extended-regexp",
        "-F",
        "--fixed-strings",
        "-P",
        "--perl-regexp",
        "-G",
        "--basic-regexp",
        "-s",
        "--no-messages",
        "-I",
        "-Z",
        "--null",
        "-z",
        "-a",
        "--text",
        "-v",
        "--invert-match",
    ];
    const VALUED: &[&str] = &[
        "-e",
        "--regexp",
        "-f",
        "--file",
        "--include",
        "--exclude",
        "--exclude-dir",
        "-m",
        "--max-count",
    ];
    let (options, positionals) = split(words, FLAGS, VALUED)?;
    let recursive =
        has(&options, 'r', "--recursive") || has(&options, 'R', "--dereference-recursive");
    if !recursive || !has(&options, 'l', "--files-with-matches") {
        return None;
    }
    Some(match after_pattern(&options, &positionals, false)? {
        [] => vec![".".to_owned()],
        roots => roots.iter().map(|r| (*r).to_owned()).collect(),
    })
}

/// `fd [PATTERN] [ROOT]`: hidden entries only with `-H`/`--hidden` or `-u`.
fn fd(words: &[&str]) -> Option<(String, bool)> {
    const FLAGS: &[&str] = &[
        "-H",
        "--hidden",
        "-I",
        "--no-ignore",
        "-u",
        "--unrestricted",
        "-s",
        "--case-sensitive",
        "-i",
        "--ignore-case",
        "-g",
        "--glob",
        "--regex",
        "-F",
        "--fixed-strings",
        "-a",
        "--absolute-path",
        "-L",
        "--follow",
        "-p",
        "--full-path",
        "-0",
        "--print0",
    ];
    const VALUED: &[&str] = &[
        "-e",
        "--extension",
        "-t",
        "--type",
        "-E",
        "--exclude",
        "-d",
        "--max-depth",
        "--min-depth",
        "--exact-depth",
        "-S",
        "--size",
        "--changed-within",
        "--changed-before",
        "-j",
        "--threads",
        "--max-results",
    ];
    let (options, positionals) = split(words, FLAGS, VALUED)?;
    let roots = positionals.get(1..).unwrap_or(&[]);
    let hidden = has(&options, 'H', "--hidden") || has(&options, 'u', "--unrestricted");
    Some((one_root(roots)?, hidden))
}

/// A git pathspec that is a plain directory or file name (no glob, no `:(magic)`), so the
/// listing stays below it; any other pathspec may match anywhere in the tree (`'*.py'`).
fn plain_pathspec(p: &str) -> bool {
    !p.is_empty() && !p.starts_with(':') && !p.contains(['*', '?', '[', '\\'])
}

fn pathspec_root(paths: &[&str]) -> Option<String> {
    match paths {
        [one] if plain_pathspec(one) => Some((*one).to_owned()),
        [] | [_] => Some(".".to_owned()),
        _ => paths
            .iter()
            .all(|p| !plain_pathspec(p))
            .then(|| ".".to_owned()),
    }
}

/// `git ls-files [PATHSPEC]`: paths of tracked (or, with `-o`, untracked) files, relative to
/// the current directory.
fn git_ls_files(words: &[&str]) -> Option<String> {
    const FLAGS: &[&str] = &[
        "-c",
        "--cached",
        "-m",
        "--modified",
        "-o",
        "--others",
        "-d",
        "--deleted",
        "--exclude-standard",
        "-z",
        "--deduplicate",
        "--recurse-submodules",
    ];
    const VALUED: &[&str] = &["-x", "--exclude", "-X", "--exclude-from"];
    let (_, positionals) = split(words, FLAGS, VALUED)?;
    pathspec_root(&positionals)
}

/// `git grep -l PATTERN [PATHSPEC]`.
fn git_grep(words: &[&str]) -> Option<String> {
    const FLAGS: &[&str] = &[
        "-l",
        "--files-with-matches",
        "--name-only",
        "-i",
        "--ignore-case",
        "-w",
        "--word-regexp",
        "-E",
        "--extended-regexp",
        "-F",
        "--fixed-strings",
        "-P",
        "--perl-regexp",
        "-z",
        "--null",
        "--untracked",
        "--cached",
        "-I",
        "-v",
        "--invert-match",
    ];
    const VALUED: &[&str] = &["-e", "-f", "--max-depth", "-m", "--max-count"];
    let (options, positionals) = split(words, FLAGS, VALUED)?;
    if !has(&options, 'l', "--files-with-matches") && !options.contains(&"--name-only") {
        return None;
    }
    pathspec_root(after_pattern(&options, &positionals, false)?)
}

/// The path `mktemp` prints: a NEW entry it creates, modelled as a name in the directory it
/// is created in, so writes and deletes under it are judged by that place (temp scratch for
/// `mktemp -d`, `~/.ssh` for `mktemp -p ~/.ssh`). The name keeps the template's `X`s, which
/// mktemp replaces with random characters: no existing file is ever named. GNU rules:
/// `-p DIR`/`--tmpdir[=DIR]`/`-t` put the template in DIR (else `$TMPDIR`, else `/tmp`);
/// no template is `tmp.XXXXXXXXXX` there; a template without those options is relative to
/// the current directory (`mktemp build.XXXX`, `mktemp /var/x.XXXX`). `None` (unknown, as
/// before) for an option not modelled, a value known only at run time, or a `TMPDIR` the
/// line changes.
pub(crate) fn mktemp_output(args: &[Word], tmpdir: Option<&str>) -> Option<String> {
    let mut dir: Option<String> = None;
    let mut in_dir = false;
    let mut template: Option<&str> = None;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        if !w.exact {
            return None;
        }
        let t = w.text.as_str();
        match t {
            "-d" | "--directory" | "-q" | "--quiet" | "-u" | "--dry-run" => {}
            "-t" | "--tmpdir" => in_dir = true,
            "-p" => {
                let v = args.get(i).filter(|v| v.exact)?;
                i += 1;
                dir = Some(v.text.clone());
                in_dir = true;
            }
            _ if t.starts_with("--tmpdir=") => {
                dir = t.strip_prefix("--tmpdir=").map(str::to_owned);
                in_dir = true;
            }
            _ if t.starts_with("-p") && t.len() > 2 => {
                dir = t.get(2..).map(str::to_owned);
                in_dir = true;
            }
            _ if t.starts_with('-') && t.len() > 1 => {
                // Clusters of the flags above (`-dq`, `-dt`, `-qd`).
                let letters = t.get(1..)?;
                if !letters.chars().all(|c| matches!(c, 'd' | 'q' | 'u' | 't')) {
                    return None;
                }
                in_dir |= letters.contains('t');
            }
            _ if template.is_none() => template = Some(t),
            _ => return None,
        }
    }
    let name = template.unwrap_or("tmp.XXXXXXXXXX");
    if name.is_empty() || !name.contains("XXX") {
        return None;
    }
    if template.is_some() && !in_dir {
        return Some(name.to_owned());
    }
    if name.contains('/') {
        // GNU refuses a template with a `/` in DIR (`-t`) or an absolute one (`-p`).
        return None;
    }
    let dir = match dir {
        Some(d) if !d.is_empty() => d,
        _ => tmpdir.unwrap_or("/tmp").to_owned(),
    };
    Some(format!("{}/{name}", dir.trim_end_matches('/')))
}

/// `fd … -x CMD` / `-X CMD` (`--exec`, `--exec-batch`), rewritten as the `find` line it is:
/// `find ROOTS [TESTS] -exec CMD {} ;` (`+` for the batch form), so the command run on each
/// found file gets every judgement `find -exec` has — a deletion of the tree, a credential
/// the search selects sent by `curl -F f=@{}`, the bulk upload of the found files. `None`
/// when there is no exec option (a plain listing, [`listing`]).
///
/// fd's operands are `[PATTERN] [PATH…]`; a pattern other than a catch-all (`.`, `^`, `.*`,
/// an empty one) selects by name, as `-regex`/`-name` do for find (the file's name under
/// `-g`), `-e EXT` is `-name '*.EXT'`, and size, time and owner filters select too. The
/// placeholders `{/}`, `{//}`, `{.}`, `{/.}` are parts of the found path, read as `{}`; a
/// command without one gets `{}` appended, as fd does. `--base-directory DIR` moves the
/// relative roots under DIR.
pub(crate) fn fd_as_find(args: &[Word]) -> Option<Vec<Word>> {
    // Options whose value is the next word (or attached: `-tf`, `--type=f`).
    const VALUED: &[&str] = &[
        "-d",
        "--max-depth",
        "--min-depth",
        "--exact-depth",
        "-E",
        "--exclude",
        "-t",
        "--type",
        "-e",
        "--extension",
        "-S",
        "--size",
        "--changed-within",
        "--changed-before",
        "--change-newer-than",
        "--change-older-than",
        "--newer",
        "--older",
        "-o",
        "--owner",
        "--format",
        "--batch-size",
        "--ignore-file",
        "-c",
        "--color",
        "-j",
        "--threads",
        "--max-results",
        "--base-directory",
        "--path-separator",
        "--search-path",
    ];
    let mut tests: Vec<Word> = Vec::new();
    let mut positionals: Vec<&Word> = Vec::new();
    let mut search_paths: Vec<Word> = Vec::new();
    let mut command: Option<(Vec<Word>, &str)> = None;
    let mut base: Option<Word> = None;
    let mut glob = false;
    let mut ended = false;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        if ended || !w.exact || !t.starts_with('-') || t == "-" {
            positionals.push(w);
            continue;
        }
        if t == "--" {
            ended = true;
            continue;
        }
        let (head, attached) = match t.split_once('=') {
            Some((h, v)) if t.starts_with("--") => (h, Some(v)),
            _ if !t.starts_with("--") && t.len() > 2 => {
                let head = t.get(..2).unwrap_or(t);
                if VALUED.contains(&head) {
                    (head, t.get(2..))
                } else {
                    // A cluster of flags (`-HIx`): judged below by its last letter.
                    (t, None)
                }
            }
            _ => (t, None),
        };
        let exec = match head {
            "-x" | "--exec" => Some(";"),
            "-X" | "--exec-batch" => Some("+"),
            h if h.len() > 2 && !h.starts_with("--") => match h.get(h.len() - 1..) {
                Some("x") => Some(";"),
                Some("X") => Some("+"),
                _ => None,
            },
            _ => None,
        };
        if let Some(end) = exec {
            let start = i;
            while args.get(i).is_some_and(|w| !(w.exact && w.text == ";")) {
                i += 1;
            }
            let mut cmd: Vec<Word> = args.get(start..i).unwrap_or(&[]).to_vec();
            i += 1;
            let mut placed = false;
            for word in &mut cmd {
                for p in ["{//}", "{/.}", "{/}", "{.}"] {
                    if word.text.contains(p) {
                        word.text = word.text.replace(p, "{}");
                    }
                }
                placed |= word.text.contains("{}");
            }
            if !placed {
                cmd.push(Word::lit("{}"));
            }
            command = Some((cmd, end));
            continue;
        }
        if matches!(head, "-g" | "--glob")
            || (head.len() > 2 && !head.starts_with("--") && head.contains('g'))
        {
            glob = true;
        }
        if !VALUED.contains(&head) {
            continue;
        }
        let value = if let Some(v) = attached {
            Word::lit(v)
        } else {
            i += 1;
            args.get(i - 1)?.clone()
        };
        match head {
            "-e" | "--extension" => {
                tests.push(Word::lit("-name"));
                tests.push(Word {
                    text: format!("*.{}", value.text.trim_start_matches('.')),
                    ..value
                });
            }
            "-t" | "--type" => {
                tests.push(Word::lit("-type"));
                tests.push(value);
            }
            "-S"
            | "--size"
            | "-o"
            | "--owner"
            | "--changed-within"
            | "--changed-before"
            | "--change-newer-than"
            | "--change-older-than"
            | "--newer"
            | "--older" => {
                // A filter by size, time or owner: selective, whatever its value.
                tests.push(Word::lit("-newer"));
                tests.push(Word::lit("."));
            }
            "--search-path" => search_paths.push(value),
            "--base-directory" => base = Some(value),
            _ => {}
        }
    }
    let (cmd, end) = command?;
    // The first operand is the pattern; the rest, and `--search-path` values, are roots.
    let mut roots: Vec<Word> = positionals
        .iter()
        .skip(1)
        .map(|w| (*w).clone())
        .chain(search_paths)
        .collect();
    if roots.is_empty() {
        roots.push(Word::lit("."));
    }
    if let Some(base) = &base {
        for root in &mut roots {
            if !root.text.starts_with(['/', '~', '$']) {
                root.text = format!("{}/{}", base.text.trim_end_matches('/'), root.text);
                root.exact &= base.exact;
            }
        }
    }
    let mut find = roots;
    if let Some(p) = positionals
        .first()
        .filter(|p| !matches!(p.text.as_str(), "" | "." | "^" | ".*" | "*"))
    {
        if let Some(name) = literal_regex(&p.text).filter(|_| p.exact && !glob) {
            find.push(Word::lit("-name"));
            find.push(Word::lit(name));
        } else {
            find.push(Word::lit(if glob { "-name" } else { "-regex" }));
            find.push((*p).clone());
        }
    }
    find.extend(tests);
    find.push(Word::lit("-exec"));
    find.extend(cmd);
    find.push(Word::lit(end));
    Some(find)
}

/// fd's default pattern is a regex searched for in the file name; one made of name
/// characters only (`.env`, `^id_`, `credentials$`, `\.pem$`) is the name glob it amounts
/// to (`*.env*`, `id_*`, `*credentials`, `*.pem`), so the search's credential names are
/// seen as find's `-name` shows them. `.` is read as itself (it also matches any character,
/// which selects more files, never fewer of these).
fn literal_regex(pattern: &str) -> Option<String> {
    let (start, rest) = match pattern.strip_prefix('^') {
        Some(r) => (true, r),
        None => (false, pattern),
    };
    let (end, rest) = match rest.strip_suffix('$') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let body = rest.replace("\\.", ".");
    (!body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')))
    .then(|| {
        format!(
            "{}{body}{}",
            if start { "" } else { "*" },
            if end { "" } else { "*" }
        )
    })
}
