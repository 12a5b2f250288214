//! What readers ask for ([`Filter`]) and the summary they get back ([`Stats`]).

use std::collections::BTreeMap;

use serde::Serialize;

use hookgate_core::AgentKind;

use crate::record::{Record, RecordDecision};

/// Which records a query returns. `Filter::default()` matches everything.
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
    /// At most this many records: the *newest* ones. [`crate::Store::stats`] ignores it.
    pub limit: Option<usize>,
}

impl Filter {
    /// Whether `r` is one of the records this filter selects (its `limit` aside).
    pub fn matches(&self, r: &Record) -> bool {
        self.since_ms.is_none_or(|s| r.time_ms >= s)
            && self.until_ms.is_none_or(|u| r.time_ms < u)
            && self.agent.is_none_or(|a| r.agent.known() == Some(a))
            && self.decision.is_none_or(|d| d == r.decision)
            && self.session.as_ref().is_none_or(|s| *s == r.session)
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

    /// [`StatsBuilder::add`] with a record's own fields.
    pub(crate) fn add_record(&mut self, r: &Record) {
        self.add(
            r.decision,
            &r.rules,
            r.tool.as_deref(),
            r.agent.as_str(),
            r.duration_us,
        );
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

/// Why a `--since` value could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SinceError {
    /// Neither a date, a duration nor epoch milliseconds.
    #[error("cannot read `{0}` (use 30m, 2h, 7d, YYYY-MM-DD or epoch ms)")]
    Unreadable(String),
    /// A number with a unit this reader does not know.
    #[error("unknown unit in `{0}` (use s, m, h or d)")]
    UnknownUnit(String),
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `YYYY-MM-DD` (UTC midnight) as epoch milliseconds.
fn date_ms(text: &str) -> Option<u64> {
    let mut parts = text.split('-');
    let (y, m, d) = (
        parts.next()?.parse().ok()?,
        parts.next()?.parse().ok()?,
        parts.next()?.parse().ok()?,
    );
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    u64::try_from(days_from_civil(y, m, d) * 86_400_000).ok()
}

/// The start of a `--since` window in epoch milliseconds: a duration back from `now_ms`
/// (`30m`, `2h`, `7d`, `90s`), a date `YYYY-MM-DD` (UTC midnight), or epoch milliseconds.
/// Pure (the clock is the caller's), so readers and tests agree on every answer.
pub fn since_ms(text: &str, now_ms: u64) -> Result<u64, SinceError> {
    if let Some(ms) = date_ms(text) {
        return Ok(ms);
    }
    let (digits, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = digits
        .parse()
        .map_err(|_| SinceError::Unreadable(text.to_owned()))?;
    let ms = match unit {
        "" => return Ok(n),
        "s" => n.saturating_mul(1000),
        "m" => n.saturating_mul(60_000),
        "h" => n.saturating_mul(3_600_000),
        "d" => n.saturating_mul(86_400_000),
        _ => return Err(SinceError::UnknownUnit(text.to_owned())),
    };
    Ok(now_ms.saturating_sub(ms))
}

#[cfg(test)]
mod since_tests {
    use super::*;

    #[test]
    fn since_reads_dates_durations_and_epoch_ms_against_the_given_clock() {
        assert_eq!(since_ms("1970-01-02", 0), Ok(86_400_000));
        assert_eq!(since_ms("2024-03-01", 0), Ok(1_709_251_200_000));
        assert_eq!(since_ms("7d", 10 * 86_400_000), Ok(3 * 86_400_000));
        assert_eq!(since_ms("30m", 3_600_000), Ok(1_800_000));
        assert_eq!(since_ms("1234", 99), Ok(1234));
        assert_eq!(since_ms("99999d", 5), Ok(0), "never before the epoch");
        assert!(since_ms("2024-13-01", 0).is_err(), "month 13 is not a date");
        assert!(matches!(
            since_ms("soon", 0),
            Err(SinceError::Unreadable(_))
        ));
        assert!(matches!(
            since_ms("7 parsecs", 0),
            Err(SinceError::UnknownUnit(_))
        ));
    }
}
