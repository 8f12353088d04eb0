//! `get_streak`'s arithmetic, as a pure function of the habit's start day, today and its entries
//! (no database, no clock), plus the named tiers. The semantics are documented in the crate docs
//! ("Streaks"); the tests here pin every edge.

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::TrackerValue;

/// Days in the "last 30 days" window, today included.
pub const WINDOW_30D: i64 = 30;
/// Days in phase 42, counted from the day the habit was added (day 1) to day 42.
pub const PHASE_DAYS: i64 = 42;

/// A named stage of the current streak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// 씨앗 — 0–6 days: just planted.
    Seed,
    /// 새싹 — 7–20 days: the first week is behind.
    Sprout,
    /// 뿌리내림 — 21–41 days: taking root.
    Rooting,
    /// 자리잡음 — 42 days or more: a full phase 42 in a row.
    Rooted,
}

impl Tier {
    /// The tier for a current streak of `days`.
    pub fn for_streak(days: u32) -> Self {
        match days {
            0..=6 => Self::Seed,
            7..=20 => Self::Sprout,
            21..=41 => Self::Rooting,
            _ => Self::Rooted,
        }
    }

    /// The Korean name, for a UI.
    pub fn label_ko(self) -> &'static str {
        match self {
            Self::Seed => "씨앗",
            Self::Sprout => "새싹",
            Self::Rooting => "뿌리내림",
            Self::Rooted => "자리잡음",
        }
    }
}

/// `get_streak`'s result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StreakSummary {
    /// Consecutive `done` days ending today, or ending yesterday if today is not logged yet.
    pub current_streak: u32,
    /// The longest run of consecutive `done` days ever.
    pub longest_streak: u32,
    /// `done` days among the last 30 (today and the 29 before).
    pub done_count_30d: u32,
    /// `done` days among the first 42 days since the habit was added.
    pub done_count_phase42: u32,
    /// The tier of `current_streak`.
    pub tier: Tier,
    /// Whether two consecutive days were missed (no entry at all) since the habit was added.
    pub never_miss_twice_broken: bool,
}

/// Computes the summary. Days are day numbers ([`crate::clock`]'s `day_number`): `start` is
/// the day the habit was added, `today` today, `entries` its entries in any order, at most one
/// per day (the store guarantees it; duplicates would only be counted once).
pub(crate) fn summarize(start: i64, today: i64, entries: &[(i64, TrackerValue)]) -> StreakSummary {
    // Entries after today can only exist if the clock moved backwards; they are ignored rather
    // than allowed to count as future "done" days.
    let mut done: Vec<i64> = entries
        .iter()
        .filter(|(day, value)| *value == TrackerValue::Done && *day <= today)
        .map(|(day, _)| *day)
        .collect();
    done.sort_unstable();
    done.dedup();
    let mut logged: Vec<i64> = entries
        .iter()
        .map(|(day, _)| *day)
        .filter(|day| *day <= today)
        .collect();
    logged.sort_unstable();
    logged.dedup();

    // Today is "still open" unless it already has an entry; only then may a streak end yesterday.
    let today_open = logged.last() != Some(&today);
    let current_streak = current_run(&done, today, today_open);
    let longest_streak = longest_run(&done);
    let count_in =
        |from: i64, to: i64| count_u32(done.iter().filter(|d| (from..=to).contains(*d)).count());

    StreakSummary {
        current_streak,
        longest_streak,
        done_count_30d: count_in(today - (WINDOW_30D - 1), today),
        done_count_phase42: count_in(start, start + PHASE_DAYS - 1),
        tier: Tier::for_streak(current_streak),
        never_miss_twice_broken: missed_twice(&logged, start, today - 1),
    }
}

/// The run of consecutive done days ending today, or yesterday when today has no entry yet:
/// the day is not over, so an unlogged today must not zero a live streak. A blank today closes
/// the day, so then the run must end today (and cannot, as today is not done).
fn current_run(done: &[i64], today: i64, today_open: bool) -> u32 {
    let end = match done.last() {
        Some(&last) if last == today || (today_open && last == today - 1) => last,
        _ => return 0,
    };
    let run = done
        .iter()
        .rev()
        .zip(0..)
        .take_while(|(day, back)| **day == end - back)
        .count();
    count_u32(run)
}

fn longest_run(done: &[i64]) -> u32 {
    let mut best = 0usize;
    let mut run = 0usize;
    let mut prev: Option<i64> = None;
    for &day in done {
        run = if prev == Some(day - 1) { run + 1 } else { 1 };
        best = best.max(run);
        prev = Some(day);
    }
    count_u32(best)
}

/// Whether two consecutive days in `first..=last` have no entry. `logged` is sorted and unique.
fn missed_twice(logged: &[i64], first: i64, last: i64) -> bool {
    if last - first < 1 {
        return false; // fewer than two finished days
    }
    let mut prev = first - 1;
    for &day in logged.iter().filter(|d| (first..=last).contains(*d)) {
        // More than two apart: at least two unlogged days lie between them.
        if day - prev > 2 {
            return true;
        }
        prev = day;
    }
    last - prev >= 2
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use TrackerValue::{Blank, Done};

    const START: i64 = 1000;

    fn done_days(days: impl IntoIterator<Item = i64>) -> Vec<(i64, TrackerValue)> {
        days.into_iter().map(|d| (d, Done)).collect()
    }

    #[test]
    fn a_new_habit_with_no_entries() {
        let s = summarize(START, START, &[]);
        assert_eq!(
            s,
            StreakSummary {
                current_streak: 0,
                longest_streak: 0,
                done_count_30d: 0,
                done_count_phase42: 0,
                tier: Tier::Seed,
                never_miss_twice_broken: false,
            }
        );
    }

    #[test]
    fn current_streak_ends_today_or_yesterday() {
        let entries = done_days(START..START + 5); // days 0..=4
        assert_eq!(
            summarize(START, START + 4, &entries).current_streak,
            5,
            "ends today"
        );
        assert_eq!(
            summarize(START, START + 5, &entries).current_streak,
            5,
            "today not logged yet"
        );
        assert_eq!(
            summarize(START, START + 6, &entries).current_streak,
            0,
            "yesterday missed"
        );
    }

    #[test]
    fn a_blank_ends_the_streak_but_is_not_a_miss() {
        let mut entries = done_days([START, START + 1, START + 3, START + 4]);
        entries.push((START + 2, Blank));
        let s = summarize(START, START + 4, &entries);
        assert_eq!(s.current_streak, 2);
        assert_eq!(s.longest_streak, 2);
        assert!(!s.never_miss_twice_broken);
        // A blank today: the streak up to yesterday is not live any more (today was a
        // deliberate rest, not "not yet"), so it ends.
        let mut entries = done_days([START, START + 1]);
        entries.push((START + 2, Blank));
        assert_eq!(summarize(START, START + 2, &entries).current_streak, 0);
    }

    #[test]
    fn longest_streak_is_kept_after_a_break() {
        let mut days: Vec<i64> = (START..START + 10).collect();
        days.extend(START + 12..START + 15);
        let s = summarize(START, START + 14, &done_days(days));
        assert_eq!((s.current_streak, s.longest_streak), (3, 10));
    }

    #[test]
    fn thirty_day_window_includes_today_and_29_days_before() {
        let today = START + 100;
        let entries = done_days([today - 30, today - 29, today - 1, today]);
        assert_eq!(summarize(START, today, &entries).done_count_30d, 3);
    }

    #[test]
    fn phase42_counts_days_1_to_42_only() {
        let entries = done_days([START - 1, START, START + 41, START + 42]);
        let s = summarize(START, START + 60, &entries);
        assert_eq!(s.done_count_phase42, 2);
    }

    #[test]
    fn tiers_change_at_7_21_and_42() {
        let cases = [
            (0, Tier::Seed),
            (6, Tier::Seed),
            (7, Tier::Sprout),
            (20, Tier::Sprout),
            (21, Tier::Rooting),
            (41, Tier::Rooting),
            (42, Tier::Rooted),
            (400, Tier::Rooted),
        ];
        for (days, tier) in cases {
            assert_eq!(Tier::for_streak(days), tier, "{days}");
        }
        let s = summarize(START, START + 41, &done_days(START..START + 42));
        assert_eq!((s.current_streak, s.tier), (42, Tier::Rooted));
        assert_eq!(s.done_count_phase42, 42);
        assert_eq!(Tier::Rooting.label_ko(), "뿌리내림");
    }

    #[test]
    fn never_miss_twice_needs_two_consecutive_finished_missed_days() {
        // Day 1 missed, today (day 2) not over: not broken.
        assert!(!summarize(START, START + 1, &[]).never_miss_twice_broken);
        // Days 1 and 2 missed, today is day 3: broken.
        assert!(summarize(START, START + 2, &[]).never_miss_twice_broken);
        // Missing every other day never breaks it.
        let alternate = done_days((START..START + 20).step_by(2));
        assert!(!summarize(START, START + 20, &alternate).never_miss_twice_broken);
        // A two-day gap in the middle breaks it for good, even with a streak after.
        let mut gap = done_days(START..START + 3);
        gap.extend(done_days(START + 5..START + 10));
        let s = summarize(START, START + 9, &gap);
        assert!(s.never_miss_twice_broken);
        assert_eq!(s.current_streak, 5);
        // Two trailing missed days (yesterday and the day before) break it.
        assert!(summarize(START, START + 5, &done_days(START..START + 3)).never_miss_twice_broken);
        assert!(!summarize(START, START + 4, &done_days(START..START + 3)).never_miss_twice_broken);
    }

    #[test]
    fn blanks_fill_gaps_for_never_miss_twice() {
        let entries = vec![
            (START, Done),
            (START + 1, Blank),
            (START + 2, Blank),
            (START + 3, Done),
        ];
        assert!(!summarize(START, START + 4, &entries).never_miss_twice_broken);
    }

    #[test]
    fn days_before_the_start_do_not_count_as_misses() {
        // A habit added today has no finished days yet, whatever happened before.
        assert!(!summarize(START, START, &[]).never_miss_twice_broken);
    }

    #[test]
    fn entries_after_today_are_ignored() {
        let entries = done_days([START, START + 1, START + 5]);
        let s = summarize(START, START + 1, &entries);
        assert_eq!(
            (s.current_streak, s.longest_streak, s.done_count_30d),
            (2, 2, 2)
        );
    }

    #[test]
    fn a_start_after_today_does_not_panic_or_invent_misses() {
        let s = summarize(START + 10, START, &done_days([START]));
        assert!(!s.never_miss_twice_broken);
        assert_eq!(s.done_count_phase42, 0);
    }
}
