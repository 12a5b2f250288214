//! `hookgate scan-secrets`: report (or redact) secrets in a file or stdin.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::{Failure, print, to_json};

#[derive(Debug, Args)]
pub(crate) struct ScanArgs {
    /// The file to scan; `-` (the default) reads stdin.
    #[arg(default_value = "-")]
    file: PathBuf,
    /// Print the text with every secret replaced by `[REDACTED]` instead of a report.
    #[arg(long, conflicts_with = "json")]
    redact: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Located<'a> {
    line: usize,
    column: usize,
    #[serde(flatten)]
    finding: &'a hookgate_secrets::Finding,
}

pub(crate) fn run(args: &ScanArgs) -> Result<u8, Failure> {
    let bytes = if args.file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure(format!("cannot read stdin: {e}")))?;
        bytes
    } else {
        std::fs::read(&args.file)
            .map_err(|e| Failure(format!("{}: cannot read: {e}", args.file.display())))?
    };
    // Secrets are ASCII; invalid UTF-8 elsewhere in the file must not hide them.
    let text = String::from_utf8_lossy(&bytes);
    let findings = hookgate_secrets::scan(&text);
    if args.redact {
        print(&hookgate_secrets::redact(&text))?;
        return Ok(if findings.is_empty() { 0 } else { 2 });
    }
    let located: Vec<Located<'_>> = findings
        .iter()
        .map(|finding| {
            let before = &text[..finding.span.start];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            Located {
                line,
                column,
                finding,
            }
        })
        .collect();
    if args.json {
        print(&to_json(&located)?)?;
    } else {
        let name = if args.file.as_os_str() == "-" {
            "<stdin>".to_owned()
        } else {
            args.file.display().to_string()
        };
        let mut s = String::new();
        for l in &located {
            let _ = writeln!(
                s,
                "{name}:{}:{}: {} ({:?}): {}",
                l.line, l.column, l.finding.rule_id, l.finding.family, l.finding.preview
            );
        }
        let _ = writeln!(s, "{} secret(s) found", located.len());
        print(&s)?;
    }
    Ok(if findings.is_empty() { 0 } else { 2 })
}
