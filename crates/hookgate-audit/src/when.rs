//! The one reader of dates and durations people type (`--since`, `--older-than`) and the one
//! writer of the times people read (`log`, `inspect`), both in the local time zone.
//!
//! Every command that takes a point in time goes through [`parse_point`], so `log --since
//! yesterday`, `stats --since 1w` and `prune --older-than 90d` can never disagree on what a
//! word means. Parsing is pure over an explicit clock and zone; the `*_now` wrappers supply
//! the system's.

use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp, Zoned};

/// Why a point in time could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SinceError {
    /// Neither a date, a time, a duration, a day word nor epoch milliseconds.
    #[error(
        "cannot read `{0}` (use a duration such as 30m, 2h, 7d or 1w; today or yesterday; an ISO 8601 date or date-time such as 2024-03-01 or 2024-03-01T09:30; or epoch milliseconds)"
    )]
    Unreadable(String),
    /// A duration that reaches outside the calendar.
    #[error("`{0}` reaches outside the supported calendar range")]
    OutOfRange(String),
}

/// Milliseconds since the epoch of the point `text` names, read against `now` in `tz`:
///
/// - a duration back from now: `90s`, `30m`, `2h`, `7d`, `1w`, `2w 3d`, `1 month`
///   (jiff's friendly format, or ISO 8601 `P7D`);
/// - `now`, `today` (local midnight) or `yesterday` (the local midnight before);
/// - an ISO 8601 date (`2024-03-01`, local midnight), a civil date-time
///   (`2024-03-01T09:30`, local), or an instant with an offset (`2024-03-01T09:30:00Z`);
/// - bare digits: epoch milliseconds.
///
/// Never before the epoch: a duration longer than the clock's age is 0.
pub fn parse_point(text: &str, now: Timestamp, tz: &TimeZone) -> Result<u64, SinceError> {
    let t = text.trim();
    let unreadable = || SinceError::Unreadable(text.to_owned());
    let range = |_| SinceError::OutOfRange(text.to_owned());
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse().map_err(|_| unreadable());
    }
    let local_now: Zoned = now.to_zoned(tz.clone());
    let zoned = match t.to_ascii_lowercase().as_str() {
        "now" => local_now,
        "today" => local_now.start_of_day().map_err(range)?,
        "yesterday" => local_now
            .start_of_day()
            .and_then(|d| d.checked_sub(Span::new().days(1)))
            .map_err(range)?,
        _ => {
            if let Ok(ts) = t.parse::<Timestamp>() {
                ts.to_zoned(tz.clone())
            } else if let Ok(dt) = t.parse::<DateTime>() {
                // A date alone also parses as a date-time at midnight; both are local.
                dt.to_zoned(tz.clone()).map_err(range)?
            } else if let Ok(date) = t.parse::<Date>() {
                date.to_zoned(tz.clone()).map_err(range)?
            } else {
                let span: Span = t.parse().map_err(|_| unreadable())?;
                match local_now.checked_sub(span.abs()) {
                    Ok(z) => z,
                    // Further back than the calendar goes is certainly before the epoch.
                    Err(_) => return Ok(0),
                }
            }
        }
    };
    Ok(u64::try_from(zoned.timestamp().as_millisecond()).unwrap_or(0))
}

/// The end, in epoch milliseconds, of a period of `text` (`30m`, `1h`, `7d`, `1w`, ISO 8601
/// `PT1H`) starting at `now` in `tz` (days follow the local calendar across DST changes).
pub fn parse_period_end(text: &str, now: Timestamp, tz: &TimeZone) -> Result<u64, SinceError> {
    let span: Span = text
        .trim()
        .parse()
        .map_err(|_| SinceError::Unreadable(text.to_owned()))?;
    let end = now
        .to_zoned(tz.clone())
        .checked_add(span.abs())
        .map_err(|_| SinceError::OutOfRange(text.to_owned()))?;
    Ok(u64::try_from(end.timestamp().as_millisecond()).unwrap_or(0))
}

/// [`parse_period_end`] from now, in the local time zone.
pub fn parse_period_end_now(text: &str) -> Result<u64, SinceError> {
    parse_period_end(text, Timestamp::now(), &TimeZone::system())
}

/// [`parse_point`] against the system clock and local time zone.
pub fn parse_point_now(text: &str) -> Result<u64, SinceError> {
    parse_point(text, Timestamp::now(), &TimeZone::system())
}

/// `time_ms` as `YYYY-MM-DD HH:MM:SS` in `tz`.
pub fn format_time(time_ms: u64, tz: &TimeZone) -> String {
    strftime(time_ms, tz, "%Y-%m-%d %H:%M:%S")
}

/// `time_ms` as `YYYY-MM-DD HH:MM:SS±HH:MM (ZONE)`: local time with its offset, for views
/// (like `inspect`) where the reader may compare against another machine's clock.
pub fn format_time_with_offset(time_ms: u64, tz: &TimeZone) -> String {
    strftime(time_ms, tz, "%Y-%m-%d %H:%M:%S%:z (%Z)")
}

fn strftime(time_ms: u64, tz: &TimeZone, format: &str) -> String {
    let ms = i64::try_from(time_ms).unwrap_or(i64::MAX);
    match Timestamp::from_millisecond(ms) {
        Ok(ts) => ts.to_zoned(tz.clone()).strftime(format).to_string(),
        Err(_) => format!("{time_ms} ms"),
    }
}

/// The system's local time zone (`TZ`, else `/etc/localtime`, else UTC).
pub fn local_zone() -> TimeZone {
    TimeZone::system()
}

/// The start of a `--since` window (the older name of [`parse_point`], kept for callers).
pub fn since_ms(text: &str, now_ms: u64) -> Result<u64, SinceError> {
    let now = Timestamp::from_millisecond(i64::try_from(now_ms).unwrap_or(i64::MAX))
        .map_err(|_| SinceError::OutOfRange(text.to_owned()))?;
    parse_point(text, now, &TimeZone::system())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: i64) -> Timestamp {
        Timestamp::from_millisecond(ms).unwrap()
    }

    const DAY: u64 = 86_400_000;

    #[test]
    fn durations_go_back_from_the_given_clock() {
        let utc = TimeZone::UTC;
        let now = at(10 * 86_400_000);
        assert_eq!(parse_point("7d", now, &utc), Ok(3 * DAY));
        assert_eq!(parse_point("1w", now, &utc), Ok(3 * DAY));
        assert_eq!(parse_point("2h", now, &utc), Ok(10 * DAY - 2 * 3_600_000));
        assert_eq!(parse_point("30m", now, &utc), Ok(10 * DAY - 1_800_000));
        assert_eq!(parse_point("90s", now, &utc), Ok(10 * DAY - 90_000));
        assert_eq!(parse_point("P7D", now, &utc), Ok(3 * DAY));
        assert_eq!(
            parse_point("99999d", at(5), &utc),
            Ok(0),
            "never before the epoch"
        );
    }

    #[test]
    fn day_words_are_local_midnights() {
        let now = at(10 * 86_400_000 + 5 * 3_600_000); // day 10, 05:00 UTC
        assert_eq!(parse_point("today", now, &TimeZone::UTC), Ok(10 * DAY));
        assert_eq!(parse_point("yesterday", now, &TimeZone::UTC), Ok(9 * DAY));
        // At UTC+09:00 it is already 14:00 on day 10; local midnight is 15:00 UTC of day 9.
        let tokyo = TimeZone::fixed(jiff::tz::offset(9));
        assert_eq!(
            parse_point("yesterday", now, &tokyo),
            Ok(8 * DAY + 15 * 3_600_000)
        );
    }

    #[test]
    fn iso_8601_dates_and_times_read_in_the_local_zone_unless_they_carry_an_offset() {
        let utc = TimeZone::UTC;
        let plus2 = TimeZone::fixed(jiff::tz::offset(2));
        let now = at(0);
        assert_eq!(parse_point("1970-01-02", now, &utc), Ok(DAY));
        assert_eq!(parse_point("2024-03-01", now, &utc), Ok(1_709_251_200_000));
        assert_eq!(
            parse_point("2024-03-01", now, &plus2),
            Ok(1_709_251_200_000 - 7_200_000)
        );
        assert_eq!(
            parse_point("2024-03-01T09:30", now, &utc),
            Ok(1_709_251_200_000 + 34_200_000)
        );
        assert_eq!(
            parse_point("2024-03-01T09:30:00Z", now, &plus2),
            Ok(1_709_251_200_000 + 34_200_000)
        );
        assert_eq!(parse_point("1234", now, &utc), Ok(1234));
    }

    #[test]
    fn unreadable_points_are_errors_not_guesses() {
        let utc = TimeZone::UTC;
        for bad in ["soon", "7 parsecs", "2024-13-01", "", "-5"] {
            assert!(parse_point(bad, at(0), &utc).is_err(), "{bad}");
        }
    }

    #[test]
    fn periods_end_after_the_given_clock() {
        let now = at(0);
        assert_eq!(parse_period_end("1h", now, &TimeZone::UTC), Ok(3_600_000));
        assert_eq!(parse_period_end("1w", now, &TimeZone::UTC), Ok(7 * DAY));
        assert!(parse_period_end("yesterday", now, &TimeZone::UTC).is_err());
    }

    #[test]
    fn times_are_written_in_the_given_zone() {
        let plus2 = TimeZone::fixed(jiff::tz::offset(2));
        assert_eq!(format_time(0, &TimeZone::UTC), "1970-01-01 00:00:00");
        assert_eq!(format_time(0, &plus2), "1970-01-01 02:00:00");
        assert!(format_time_with_offset(0, &plus2).starts_with("1970-01-01 02:00:00+02:00"));
    }
}
