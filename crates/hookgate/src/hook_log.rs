//! The hook ledger from the command line: `fire` (and `run`) record every hook run,
//! `hookgate log --hooks` shows them.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use hookgate_audit::{HookLedger, HookRun};
use hookgate_core::Outcome;

use crate::{Failure, print, to_json};

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Records the hook runs of `outcomes` (one dispatch, or the lanes of one tool call) in the
/// ledger. A ledger that cannot be written never changes the verdict: the failure is reported
/// on stderr and the caller's answer stands.
pub(crate) fn record(session: &str, outcomes: &[&Outcome]) {
    let time_ms = now_ms();
    let runs: Vec<HookRun> = outcomes
        .iter()
        .flat_map(|outcome| HookRun::from_outcome(session, time_ms, outcome))
        .collect();
    if runs.is_empty() {
        return;
    }
    let written = HookLedger::open(&hookgate_audit::default_home())
        .and_then(|mut ledger| ledger.record(&runs));
    if let Err(e) = written {
        eprintln!("hookgate: warning: hook ledger not written: {e}");
    }
}

/// The ledger writer of `hookgate run`: every dispatch that ran hooks, as it happens, into
/// the same ledger `fire` writes (opened once, on the first dispatch). As with `record`, a
/// ledger that cannot be written is reported once on stderr and never stops the run.
pub(crate) fn sink(home: &Path) -> hookgate_runtime::HookSink {
    let home = home.to_owned();
    let ledger: Mutex<Option<Result<HookLedger, ()>>> = Mutex::new(None);
    Arc::new(move |session: &str, outcome: &Outcome| {
        let runs = HookRun::from_outcome(session, now_ms(), outcome);
        let Ok(mut slot) = ledger.lock() else { return };
        let opened = slot.get_or_insert_with(|| {
            HookLedger::open(&home).map_err(|e| {
                eprintln!("hookgate: warning: hook ledger not written: {e}");
            })
        });
        if let Ok(ledger) = opened
            && let Err(e) = ledger.record(&runs)
        {
            eprintln!("hookgate: warning: hook ledger not written: {e}");
        }
    })
}

/// `hookgate log --hooks`: the newest `limit` hook runs, newest first.
pub(crate) fn show(limit: usize, json: bool) -> Result<u8, Failure> {
    let ledger = HookLedger::open(&hookgate_audit::default_home())?;
    let runs = ledger.recent(limit, None, None)?;
    if json {
        print(&to_json(&runs)?)?;
        return Ok(0);
    }
    let mut text = String::new();
    for run in &runs {
        let reason = run
            .reason
            .as_deref()
            .map(|r| format!(" — {r}"))
            .unwrap_or_default();
        let _ = writeln!(
            text,
            "{}  {:<20} {:<24} {:<10} {:<11} {:>8.1} ms{}",
            run.time_ms,
            run.event,
            run.hook_id,
            run.runtime,
            serde_json::to_value(run.result)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            run.duration_ms,
            reason
        );
    }
    if runs.is_empty() {
        text.push_str("no hook runs recorded\n");
    }
    print(&text)?;
    Ok(0)
}
