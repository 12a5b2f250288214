//! What readers ask for ([`Filter`]) and the summary they get back ([`Stats`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use hookgate_core::AgentKind;

use crate::record::{Record, RecordDecision};

/// Which records a query returns. `Filter::default()` matches everything.
///
/// `since_ms`, `until_ms`, `agent`, `decision`, `session`, `tool` and `rule` are answered by
/// SQLite's indexes; `project`, `text` and `hide_lifecycle` are checked by [`Filter::matches`]
/// on each row (one definition for both backends, so a filter never means two things).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only records with `time_ms >= since_ms`.
    pub since_ms: Option<u64>,
    /// Only records with `time_ms < until_ms`.
    pub until_ms: Option<u64>,
    /// Only this agent.
    pub agent: Option<AgentKind>,
    /// Only this decision.
    pub decision: Option<RecordDecision>,
    /// Only this session.
    pub session: Option<String>,
    /// Only this tool (the agent's own tool name, exactly).
    pub tool: Option<String>,
    /// Only records this rule or invariant id determined (exactly one of `rules`).
    pub rule: Option<String>,
    /// Only records whose working directory is this directory or inside it (by path
    /// components, so `/w/a` does not select `/w/ab`).
    pub project: Option<PathBuf>,
    /// Only records whose command, targets, tool, reason or rules contain this text
    /// (case-insensitive): a search for people, never a security decision.
    pub text: Option<String>,
    /// Leave out lifecycle rows without a decision (see [`Record::is_lifecycle`]).
    pub hide_lifecycle: bool,
    /// At most this many records: the *newest* ones. [`crate::Store::stats`] ignores it.
    pub limit: Option<usize>,
}

impl Filter {
    /// Whether `r` is one of the records this filter selects (its `limit` aside).
    pub fn matches(&self, r: &Record) -> bool {
        self.matches_indexed(r) && self.matches_scanned(r)
    }

    /// The part SQLite answers from its columns.
    fn matches_indexed(&self, r: &Record) -> bool {
        self.since_ms.is_none_or(|s| r.time_ms >= s)
            && self.until_ms.is_none_or(|u| r.time_ms < u)
            && self.agent.is_none_or(|a| r.agent.known() == Some(a))
            && self.decision.is_none_or(|d| d == r.decision)
            && self.session.as_ref().is_none_or(|s| *s == r.session)
            && self
                .tool
                .as_ref()
                .is_none_or(|t| r.tool.as_ref() == Some(t))
            && self.rule.as_ref().is_none_or(|id| r.rules.contains(id))
    }

    /// The part checked row by row, after SQLite.
    pub(crate) fn matches_scanned(&self, r: &Record) -> bool {
        self.project
            .as_ref()
            .is_none_or(|p| Path::new(&r.cwd).starts_with(p))
            && self.text.as_ref().is_none_or(|t| r.mentions(t))
            && !(self.hide_lifecycle && r.is_lifecycle())
    }

    /// Only the newest record.
    pub fn newest() -> Self {
        Self {
            limit: Some(1),
            ..Self::default()
        }
    }

    /// The same filter without its limit (for counting).
    pub(crate) fn without_limit(&self) -> Self {
        Self {
            limit: None,
            ..self.clone()
        }
    }

    /// Whether some condition is checked row by row (then SQLite cannot apply the limit).
    pub(crate) fn needs_scan(&self) -> bool {
        self.project.is_some() || self.text.is_some() || self.hide_lifecycle
    }
}

/// Counts and latency percentiles over the records a [`Filter`] matches.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Stats {
    /// Records matched.
    pub total: u64,
    /// Count per decision.
    pub by_decision: BTreeMap<String, u64>,
    /// Count per determining rule or invariant id: each id once per record that it
    /// determined (records without one are not counted here).
    pub by_rule: BTreeMap<String, u64>,
    /// Count per tool (records without one, e.g. session events, are not counted here).
    pub by_tool: BTreeMap<String, u64>,
    /// Count per agent.
    pub by_agent: BTreeMap<String, u64>,
    /// Percentiles of `duration_us`.
    pub latency_us: Percentiles,
}

/// Nearest-rank percentiles: each value is one that was really measured. All zero when no
/// record matched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Percentiles {
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Slowest.
    pub max: u64,
}

/// Accumulates [`Stats`] one row at a time, so both backends share the arithmetic.
#[derive(Debug, Default)]
pub(crate) struct StatsBuilder {
    stats: Stats,
    durations: Vec<u64>,
}

impl StatsBuilder {
    pub(crate) fn add(
        &mut self,
        decision: RecordDecision,
        rules: &[String],
        tool: Option<&str>,
        agent: &str,
        duration_us: u64,
    ) {
        fn bump(map: &mut BTreeMap<String, u64>, key: &str) {
            if let Some(n) = map.get_mut(key) {
                *n += 1;
            } else {
                map.insert(key.to_owned(), 1);
            }
        }
        self.stats.total += 1;
        bump(&mut self.stats.by_decision, decision.as_str());
        let mut seen: Vec<&str> = Vec::with_capacity(rules.len());
        for rule in rules {
            if !seen.contains(&rule.as_str()) {
                seen.push(rule);
                bump(&mut self.stats.by_rule, rule);
            }
        }
        if let Some(tool) = tool {
            bump(&mut self.stats.by_tool, tool);
        }
        bump(&mut self.stats.by_agent, agent);
        self.durations.push(duration_us);
    }

    /// Adds one whole record.
    pub(crate) fn add_record(&mut self, r: &Record) {
        self.add(
            r.decision,
            &r.rules,
            r.tool.as_deref(),
            r.agent.as_str(),
            r.duration_us,
        );
    }

    /// The stats of `records`.
    pub(crate) fn of(records: &[Record]) -> Stats {
        let mut stats = Self::default();
        for r in records {
            stats.add_record(r);
        }
        stats.finish()
    }

    pub(crate) fn finish(mut self) -> Stats {
        self.durations.sort_unstable();
        self.stats.latency_us = Percentiles {
            p50: nearest_rank(&self.durations, 50),
            p90: nearest_rank(&self.durations, 90),
            p99: nearest_rank(&self.durations, 99),
            max: self.durations.last().copied().unwrap_or(0),
        };
        self.stats
    }
}

/// The smallest value with at least `pct` percent of the (sorted) values at or below it.
fn nearest_rank(sorted: &[u64], pct: usize) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (pct * sorted.len()).div_ceil(100).max(1);
    sorted.get(rank - 1).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::nearest_rank;

    #[test]
    fn percentiles_use_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(nearest_rank(&v, 50), 50);
        assert_eq!(nearest_rank(&v, 90), 90);
        assert_eq!(nearest_rank(&v, 99), 99);
        assert_eq!(nearest_rank(&[7], 99), 7);
        assert_eq!(nearest_rank(&[], 50), 0);
        assert_eq!(nearest_rank(&[1, 2, 3], 50), 2);
    }
}
