//! `hookgate scan-secrets`: report (or redact) secrets in files, directories, the git index or
//! stdin.
//!
//! A pre-commit check must see what will be committed, which is the index, not the working
//! tree: `--staged` reads each staged file's blob from git (`git cat-file blob :<path>`), so a
//! secret added and staged, then deleted from the working copy only, is still found.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;
use serde::Serialize;

use hookgate_core::term::escape;

use crate::{Failure, print, print_human, to_json};

#[derive(Debug, Args)]
pub(crate) struct ScanArgs {
    /// Files and directories to scan (directories recursively, without following symlinks
    /// and skipping `.git/`); `-` (the default) reads stdin.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Scan what is staged for the next commit (the git index of the current repository)
    /// instead of PATHs: the blobs that would be committed, not the working-tree files.
    #[arg(long, conflicts_with_all = ["paths", "redact"])]
    staged: bool,
    /// Print the text with every secret replaced by `[REDACTED]` instead of a report (one
    /// file or stdin).
    #[arg(long, conflicts_with = "json")]
    redact: bool,
    /// Print JSON: one object per finding, with the file's `path` (`-` for stdin), `line`,
    /// `column`, `rule_id`, `family`, `span` and `preview`.
    #[arg(long)]
    json: bool,
}

/// One finding where it was found.
#[derive(Serialize)]
struct Located<'a> {
    path: &'a str,
    line: usize,
    column: usize,
    #[serde(flatten)]
    finding: &'a hookgate_secrets::Finding,
}

/// One input: how reports name it, and its bytes.
struct Source {
    name: String,
    bytes: Vec<u8>,
}

pub(crate) fn run(args: &ScanArgs) -> Result<u8, Failure> {
    let sources = if args.staged {
        staged()?
    } else {
        let mut sources = Vec::new();
        let stdin = [PathBuf::from("-")];
        let paths = if args.paths.is_empty() {
            &stdin[..]
        } else {
            &args.paths[..]
        };
        for path in paths {
            collect(path, &mut sources)?;
        }
        sources
    };
    if args.redact {
        let [source] = sources.as_slice() else {
            return Err(Failure(
                "--redact takes one file (or stdin), not several".to_owned(),
            ));
        };
        let text = String::from_utf8_lossy(&source.bytes);
        print(&hookgate_secrets::redact(&text))?;
        return Ok(if hookgate_secrets::scan(&text).is_empty() {
            0
        } else {
            2
        });
    }
    // Secrets are ASCII; invalid UTF-8 elsewhere in a file must not hide them.
    let texts: Vec<(&str, String)> = sources
        .iter()
        .map(|s| {
            (
                s.name.as_str(),
                String::from_utf8_lossy(&s.bytes).into_owned(),
            )
        })
        .collect();
    let findings: Vec<(&str, &str, Vec<hookgate_secrets::Finding>)> = texts
        .iter()
        .map(|(name, text)| (*name, text.as_str(), hookgate_secrets::scan(text)))
        .collect();
    let located: Vec<Located<'_>> = findings
        .iter()
        .flat_map(|(name, text, found)| {
            found.iter().map(|finding| {
                let before = &text[..finding.span.start];
                Located {
                    path: name,
                    line: before.matches('\n').count() + 1,
                    column: before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1,
                    finding,
                }
            })
        })
        .collect();
    if args.json {
        print(&to_json(&located)?)?;
    } else {
        let mut s = String::new();
        for l in &located {
            // File names and the preview come from the scanned files: escaped (a name with an
            // escape sequence or a line break must not repaint the terminal or fake a line).
            let name = if l.path == "-" {
                "<stdin>".into()
            } else {
                escape(l.path)
            };
            let _ = writeln!(
                s,
                "{name}:{}:{}: {} ({}): {}",
                l.line,
                l.column,
                l.finding.rule_id,
                l.finding.family.as_str(),
                escape(&l.finding.preview)
            );
        }
        let _ = writeln!(
            s,
            "{} secret(s) found in {} file(s) scanned",
            located.len(),
            sources.len()
        );
        print_human(&s)?;
    }
    Ok(if located.is_empty() { 0 } else { 2 })
}

/// Adds `path` (stdin for `-`, every regular file below a directory) to `out`.
fn collect(path: &Path, out: &mut Vec<Source>) -> Result<(), Failure> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure(format!("cannot read stdin: {e}")))?;
        out.push(Source {
            name: "-".to_owned(),
            bytes,
        });
        return Ok(());
    }
    let meta = std::fs::metadata(path)
        .map_err(|e| Failure(format!("{}: cannot read: {e}", path.display())))?;
    if meta.is_dir() {
        return walk(path, out);
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Failure(format!("{}: cannot read: {e}", path.display())))?;
    out.push(Source {
        name: path.display().to_string(),
        bytes,
    });
    Ok(())
}

/// Every regular file below `dir`, in name order. Symlinks are not followed (no loops, and no
/// escaping the tree named); `.git/` holds git's own objects, which are compressed and would
/// only be scanned as noise. An unreadable entry is an error, not a silent skip: a scan that
/// says "clean" must have read everything.
fn walk(dir: &Path, out: &mut Vec<Source>) -> Result<(), Failure> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure(format!("{}: cannot read: {e}", dir.display())))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Failure(format!("{}: cannot read: {e}", dir.display())))?;
        paths.push(entry.path());
    }
    paths.sort();
    for path in paths {
        let meta = std::fs::symlink_metadata(&path)
            .map_err(|e| Failure(format!("{}: cannot read: {e}", path.display())))?;
        if meta.is_dir() {
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            walk(&path, out)?;
        } else if meta.is_file() {
            collect(&path, out)?;
        }
    }
    Ok(())
}

fn git(args: &[&str]) -> Result<Vec<u8>, Failure> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| Failure(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(Failure(format!(
            "git {}: {}",
            args.join(" "),
            err.lines().next().unwrap_or("failed")
        )));
    }
    Ok(out.stdout)
}

/// The staged content of every file added, copied, modified or renamed in the index, named by
/// its path from the repository's top level (git's own `-z` list, so any file name works).
fn staged() -> Result<Vec<Source>, Failure> {
    // Outside a repository `git diff --cached` falls back to `--no-index` mode and complains
    // about an unknown option; say what is wrong instead.
    let inside = Command::new("git")
        .args(["rev-parse", "--git-dir"])
        .output()
        .map_err(|e| Failure(format!("cannot run git: {e}")))?;
    if !inside.status.success() {
        return Err(Failure(
            "--staged: not a git repository (it scans the index of the repository containing the current directory)".to_owned(),
        ));
    }
    let list = git(&[
        "diff",
        "--cached",
        "--name-only",
        "-z",
        "--diff-filter=ACMR",
    ])?;
    let mut out = Vec::new();
    for name in list.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name).into_owned();
        let bytes = git(&["cat-file", "blob", &format!(":{name}")])?;
        out.push(Source { name, bytes });
    }
    Ok(out)
}
