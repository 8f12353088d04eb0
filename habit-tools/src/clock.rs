//! What day it is, and reading the dates a model sends.
//!
//! All dates in this crate are local calendar dates (`YYYY-MM-DD`, no time, no zone): a habit is
//! done "on Tuesday" wherever the user is. "Today" comes from a [`Clock`] so that tests (and the
//! demo) can pin it; [`SystemClock`] reads the system's local time zone.

use std::fmt;
use std::sync::Mutex;

use jiff::civil::Date;

use crate::error::{HabitError, echo};

/// The source of "today". Implementations must be cheap: it is asked on every call.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Today's local calendar date.
    fn today(&self) -> Date;
}

/// Today in the system's local time zone (falls back to UTC where none is configured).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn today(&self) -> Date {
        jiff::Zoned::now().date()
    }
}

/// A clock that says whatever date it was last set to. For tests and scripted demos.
#[derive(Debug)]
pub struct FixedClock {
    today: Mutex<Date>,
}

impl FixedClock {
    /// A clock stuck at `today`.
    pub fn new(today: Date) -> Self {
        Self {
            today: Mutex::new(today),
        }
    }

    /// Moves the clock to `today`.
    pub fn set(&self, today: Date) {
        *self
            .today
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = today;
    }
}

impl Clock for FixedClock {
    fn today(&self) -> Date {
        *self
            .today
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Parses a strict `YYYY-MM-DD` calendar date (four-digit year, two-digit month and day).
///
/// Strict on purpose: jiff alone would also accept forms like `2024-06-01T10:00` or `20240601`,
/// and a date that silently means something else is worse than a clear error.
pub fn parse_date(input: &str) -> Result<Date, HabitError> {
    let invalid = |reason: &str| HabitError::InvalidDate {
        input: echo(input),
        reason: reason.to_owned(),
    };
    let s = input.trim();
    let b = s.as_bytes();
    let shape_ok = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape_ok {
        return Err(invalid("expected YYYY-MM-DD"));
    }
    let num = |range: std::ops::Range<usize>| -> i32 {
        // Digits were checked above, so this fold cannot meet anything but 0-9.
        s[range]
            .bytes()
            .fold(0, |acc, c| acc * 10 + i32::from(c - b'0'))
    };
    let (year, month, day) = (num(0..4), num(5..7), num(8..10));
    let (Ok(year), Ok(month), Ok(day)) =
        (i16::try_from(year), i8::try_from(month), i8::try_from(day))
    else {
        return Err(invalid("expected YYYY-MM-DD"));
    };
    if year < 1 {
        return Err(invalid("year must be 0001 or later"));
    }
    Date::new(year, month, day).map_err(|_| invalid("no such calendar day"))
}

/// Reads the `date` a model sent for a tracker entry, relative to `today`.
///
/// - absent, empty or blank → today (small models often send `""` for an optional field);
/// - `today` / `오늘` → today, `yesterday` / `어제` → yesterday: a model usually does not know
///   the calendar date, but it does know the user said "어제 했어";
/// - otherwise a strict `YYYY-MM-DD` ([`parse_date`]).
///
/// Future dates are **not** refused here; the caller decides (see `future_date`).
pub fn resolve_date(input: Option<&str>, today: Date) -> Result<Date, HabitError> {
    let Some(raw) = input.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(today);
    };
    match raw.to_lowercase().as_str() {
        "today" | "오늘" => Ok(today),
        "yesterday" | "어제" => today.yesterday().map_err(|_| HabitError::InvalidDate {
            input: echo(raw),
            reason: "no day before the earliest supported date".to_owned(),
        }),
        _ => parse_date(raw),
    }
}

/// Formats a date as `YYYY-MM-DD`.
pub(crate) fn format_date(date: Date) -> String {
    // jiff prints years outside 0..=9999 with a sign; dates here come from `parse_date` (4-digit
    // years) or a clock, so the plain format always applies.
    date.to_string()
}

/// A date as stored in the database: `YYYY-MM-DD` text, read back strictly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct DbDate(pub(crate) Date);

impl rusqlite::types::ToSql for DbDate {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(format_date(self.0).into())
    }
}

impl rusqlite::types::FromSql for DbDate {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        parse_date(text)
            .map(DbDate)
            .map_err(|e| rusqlite::types::FromSqlError::Other(e.to_string().into()))
    }
}

/// Days since 1970-01-01 (negative before). Streak arithmetic works on these plain integers so
/// it needs no fallible date arithmetic at all.
pub(crate) fn day_number(date: Date) -> i64 {
    // Howard Hinnant's days_from_civil, valid for the whole proleptic Gregorian calendar.
    let (y, m, d) = (
        i64::from(date.year()),
        i64::from(date.month()),
        i64::from(date.day()),
    );
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn parses_only_strict_calendar_dates() {
        assert_eq!(parse_date("2024-02-29").unwrap(), date(2024, 2, 29));
        assert_eq!(parse_date(" 2025-12-31 ").unwrap(), date(2025, 12, 31));
        for bad in [
            "",
            "2025-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-1-1",
            "20250101",
            "2025/01/01",
            "2025-01-01T10:00",
            "0000-01-01",
            "tomorrow",
            "２０２５-01-01",
            "2025-01-3\u{0}",
        ] {
            let err = parse_date(bad).unwrap_err();
            assert_eq!(err.code(), "invalid_date", "{bad:?}");
        }
    }

    #[test]
    fn huge_input_is_refused_and_not_echoed_whole() {
        let huge = "9".repeat(100_000);
        let err = parse_date(&huge).unwrap_err();
        assert!(err.to_string().len() < 200, "{err}");
    }

    #[test]
    fn resolves_relative_words_and_defaults_to_today() {
        let today = date(2025, 3, 1);
        assert_eq!(resolve_date(None, today).unwrap(), today);
        assert_eq!(resolve_date(Some("  "), today).unwrap(), today);
        assert_eq!(resolve_date(Some("오늘"), today).unwrap(), today);
        assert_eq!(
            resolve_date(Some("Yesterday"), today).unwrap(),
            date(2025, 2, 28)
        );
        assert_eq!(
            resolve_date(Some("어제"), today).unwrap(),
            date(2025, 2, 28)
        );
        assert_eq!(
            resolve_date(Some("2025-01-05"), today).unwrap(),
            date(2025, 1, 5)
        );
        assert_eq!(
            resolve_date(Some("그저께"), today).unwrap_err().code(),
            "invalid_date"
        );
    }

    #[test]
    fn day_numbers_agree_with_jiff() {
        assert_eq!(day_number(date(1970, 1, 1)), 0);
        assert_eq!(day_number(date(1969, 12, 31)), -1);
        let first = date(1999, 12, 25);
        let base = day_number(first);
        let mut d = first;
        // Walk across leap days and century boundaries one day at a time.
        for i in 1..=800 {
            d = d.tomorrow().unwrap();
            assert_eq!(day_number(d), base + i, "{d}");
        }
        let span = date(1600, 3, 1).until(date(2400, 3, 1)).unwrap();
        assert_eq!(
            day_number(date(2400, 3, 1)) - day_number(date(1600, 3, 1)),
            i64::from(span.get_days())
        );
    }

    #[test]
    fn fixed_clock_can_be_moved() {
        let clock = FixedClock::new(date(2025, 1, 1));
        assert_eq!(clock.today(), date(2025, 1, 1));
        clock.set(date(2025, 1, 9));
        assert_eq!(clock.today(), date(2025, 1, 9));
    }

    #[test]
    fn system_clock_gives_a_plausible_date() {
        assert!(SystemClock.today().year() >= 2024);
    }
}
