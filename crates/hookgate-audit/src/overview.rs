//! The report's view of the store: the same [`Stats`] `hookgate stats` prints, the denied
//! calls' own [`Stats`] (top denied rules), and the matched records grouped by agent session.
//!
//! Why here and not in the report renderer: the numbers a report shows must be the numbers
//! `stats` shows for the same filter (one source of truth), so every count is made by
//! [`crate::Store::stats`] or by the same [`StatsBuilder`] arithmetic, never re-aggregated by
//! a renderer. Built by [`crate::Reader::overview`], so it reads every backend as `stats` does.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::query::{Filter, Stats, StatsBuilder};
use crate::record::{Record, RecordAgent, RecordDecision};

/// Everything `hookgate report` shows for one [`Filter`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Overview {
    /// The filter's lower bound (epoch ms), if any.
    pub since_ms: Option<u64>,
    /// Counts and latency percentiles over every matched record: exactly `stats`' answer.
    pub stats: Stats,
    /// The same over the matched records whose decision is `deny`; its `by_rule` is the
    /// "top denied rules" table.
    pub denied: Stats,
    /// The matched records grouped by (agent, session), the session seen first first.
    pub sessions: Vec<SessionCalls>,
}

/// One agent session's calls within the report's window.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct SessionCalls {
    /// The agent.
    pub agent: RecordAgent,
    /// The agent's session id.
    pub session: String,
    /// Time of the session's first matched record (epoch ms).
    pub first_ms: u64,
    /// Time of its last matched record (epoch ms).
    pub last_ms: u64,
    /// Counts and percentiles over this session's records (the `stats` arithmetic).
    pub stats: Stats,
    /// Every matched record of the session, oldest first, with its determining ids and trace.
    pub records: Vec<Record>,
}

impl Overview {
    /// Groups `records` (any order) into sessions; `stats` and `denied` come from the store.
    pub(crate) fn assemble(
        since_ms: Option<u64>,
        stats: Stats,
        denied: Stats,
        mut records: Vec<Record>,
    ) -> Self {
        records.sort_by(|a, b| (a.time_ms, &a.id).cmp(&(b.time_ms, &b.id)));
        let mut order: Vec<(RecordAgent, String)> = Vec::new();
        let mut groups: BTreeMap<(RecordAgent, String), Vec<Record>> = BTreeMap::new();
        for r in records {
            let key = (r.agent.clone(), r.session.clone());
            let group = groups.entry(key.clone()).or_default();
            if group.is_empty() {
                order.push(key);
            }
            group.push(r);
        }
        let sessions = order
            .into_iter()
            .filter_map(|key| {
                let records = groups.remove(&key)?;
                let first_ms = records.first()?.time_ms;
                let last_ms = records.last()?.time_ms;
                Some(SessionCalls {
                    agent: key.0,
                    session: key.1,
                    first_ms,
                    last_ms,
                    stats: StatsBuilder::of(&records),
                    records,
                })
            })
            .collect();
        Self {
            since_ms,
            stats,
            denied,
            sessions,
        }
    }
}

/// `filter` narrowed to denied records; `None` when it selects another decision only (no
/// record is both, so the denied view is empty).
pub(crate) fn denied_filter(filter: &Filter) -> Option<Filter> {
    match filter.decision {
        None | Some(RecordDecision::Deny) => Some(Filter {
            decision: Some(RecordDecision::Deny),
            limit: None,
            ..filter.clone()
        }),
        Some(_) => None,
    }
}
