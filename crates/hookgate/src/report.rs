//! `hookgate report`: the audit store's overview for a window, as text, JSON, or one
//! self-contained HTML page (`hookgate-report` renders it).
//!
//! The counts come from [`hookgate_audit::Store::overview`], which is `stats`' own query, so
//! `report` and `stats` cannot disagree for the same filters.

use std::fmt::Write as _;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::guard::{FilterArgs, point_ms, store, unstored};
use crate::{Failure, print, print_human, to_json};

/// The window when `--since` is not given: a week is what a weekly look at the guard covers,
/// and it bounds the page's size on a long-lived store.
const DEFAULT_SINCE: &str = "7d";

/// `hookgate report`.
#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Write one self-contained HTML page (no network: inline CSS, JS and SVG) to FILE,
    /// readable by the owner only (it holds commands and paths).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Print the report's data (stats, denied stats, sessions with their calls) as JSON.
    #[arg(long)]
    json: bool,
}

/// `report --json`: the overview plus the records the store refused (not in the counts).
#[derive(serde::Serialize)]
struct ReportOut<'a> {
    #[serde(flatten)]
    overview: &'a hookgate_audit::Overview,
    unstored: &'a hookgate_audit::UnstoredSummary,
}

pub(crate) fn run(args: &ReportArgs) -> Result<u8, Failure> {
    let store = store()?;
    let mut filter = args.filter.filter(None)?;
    if filter.since_ms.is_none() {
        filter.since_ms = Some(point_ms("--since", DEFAULT_SINCE)?);
    }
    let overview = store.overview(&filter)?;
    let summary = unstored(&store).summary()?;
    if let Some(path) = &args.html {
        let page = hookgate_report::render_html(
            &overview,
            &hookgate_report::PageInfo {
                generated_ms: hookgate_audit::now_ms(),
                store: &store.home().display().to_string(),
                unstored: Some(&summary),
            },
        )?;
        write_private(path, page.as_bytes())?;
    }
    if args.json {
        return print(&to_json(&ReportOut {
            overview: &overview,
            unstored: &summary,
        })?)
        .map(|()| 0);
    }
    let mut s = String::new();
    let stats = &overview.stats;
    let _ = writeln!(
        s,
        "records: {}  sessions: {}  denied: {}",
        stats.total,
        overview.sessions.len(),
        overview.denied.total
    );
    let mut top: Vec<(&String, &u64)> = overview.denied.by_rule.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    for (rule, n) in top.iter().take(5) {
        let _ = writeln!(s, "  denied by {rule:<40} {n}");
    }
    let l = stats.latency_us;
    let _ = writeln!(
        s,
        "latency: p50 {} µs, p90 {} µs, p99 {} µs, max {} µs",
        l.p50, l.p90, l.p99, l.max
    );
    if let Some(notice) = summary.notice() {
        let _ = writeln!(s, "{notice}");
    }
    match &args.html {
        Some(path) => {
            let _ = writeln!(s, "wrote {}", path.display());
        }
        None => {
            let _ = writeln!(
                s,
                "(--html FILE writes the page with the timeline and sessions)"
            );
        }
    }
    print_human(&s)?;
    Ok(0)
}

/// Writes `bytes` to `path` owner-only, through a temporary file in the same directory and a
/// rename, so a reader (a browser reloading it) never sees half a page and a failed write
/// leaves any earlier page intact.
fn write_private(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| Failure(format!("--html {}: not a file name", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Failure(format!("cannot write {}: {e}", path.display()))
    })
}
