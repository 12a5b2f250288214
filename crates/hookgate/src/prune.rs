//! `hookgate prune`: retention for the audit store.

use clap::Args;

use crate::guard::{point_ms, store};
use crate::{Failure, print, to_json};

/// `hookgate prune`.
#[derive(Debug, Args)]
pub(crate) struct PruneArgs {
    /// Delete records older than this: a duration back from now (`90d`, `12w`), `yesterday`,
    /// an ISO 8601 date or date-time, or epoch milliseconds.
    #[arg(long, value_name = "WHEN")]
    older_than: Option<String>,
    /// Then delete the oldest records until the rest take at most SIZE (`500M`, `2G`, bytes),
    /// counted as their stored JSON. Default: the size cap setting (`max_size` in the user
    /// config dir's `store.yaml`, or `$HOOKGATE_STORE_MAX_SIZE`), which the store also applies
    /// by itself whenever it takes in new records.
    #[arg(long, value_name = "SIZE")]
    max_size: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Report {
    deleted: usize,
    #[serde(flatten)]
    pruned: hookgate_audit::Pruned,
    before_ms: Option<u64>,
    max_bytes: Option<u64>,
}

pub(crate) fn run(args: &PruneArgs) -> Result<u8, Failure> {
    let before_ms = args
        .older_than
        .as_deref()
        .map(|t| point_ms("--older-than", t))
        .transpose()?;
    let max_bytes = match &args.max_size {
        Some(text) => Some(hookgate_audit::parse_size(text).ok_or_else(|| {
            Failure(format!(
                "--max-size: not a size `{text}` (use 500M, 2G or bytes)"
            ))
        })?),
        None => hookgate_audit::max_size_setting()?,
    };
    if before_ms.is_none() && max_bytes.is_none() {
        return Err(Failure(
            "nothing to prune by: give --older-than WHEN or --max-size SIZE (or set max_size in store.yaml in the user config dir)".into(),
        ));
    }
    let pruned = store()?.prune(before_ms, max_bytes)?;
    let report = Report {
        deleted: pruned.sqlite + pruned.jsonl,
        pruned,
        before_ms,
        max_bytes,
    };
    if args.json {
        print(&to_json(&report)?)?;
    } else {
        print(&format!("deleted {} record(s)\n", report.deleted))?;
    }
    Ok(0)
}
