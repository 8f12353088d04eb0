//! Tests of `log_tracker_entry` and `get_streak` through the [`Coach`]: dates, R5 (including two
//! writers racing on one file), persistence, and that bad input changes nothing.

use std::sync::Arc;

use jiff::civil::date;

use super::*;
use crate::coach::test_support::{
    TODAY, coach, coach_at, entry, keys, new_habit, race, row_counts,
};
use crate::model::TrackerValue::{Blank, Done};
use crate::streak::Tier;

/// A coach with one habit added `days_ago` days before [`TODAY`], the clock back at today.
fn coach_with_habit(days_ago: i64) -> (Coach, Arc<crate::clock::FixedClock>, i64) {
    let (coach, clock) = coach();
    clock.set(TODAY.checked_sub(jiff::Span::new().days(days_ago)).unwrap());
    let id = coach
        .add_habit(new_habit("build.morning-walk"))
        .unwrap()
        .habit_id;
    clock.set(TODAY);
    (coach, clock, id)
}

#[test]
fn logs_today_by_default_with_the_seed_result_shape() {
    let (coach, _, id) = coach_with_habit(0);
    let logged = coach.log_tracker_entry(entry(id, Done, None)).unwrap();
    assert_eq!(logged.habit_id, id);
    assert_eq!(logged.date, "2025-03-10");
    assert_eq!(logged.value, Done);
    let json = serde_json::to_value(&logged).unwrap();
    assert_eq!(keys(&json), ["date", "entry_id", "habit_id", "value"]);
    assert_eq!(json["value"], "done");
}

#[test]
fn accepts_explicit_and_relative_dates() {
    let (coach, _, id) = coach_with_habit(10);
    let cases = [
        (Some("2025-03-01"), "2025-03-01"),
        (Some("어제"), "2025-03-09"),
        (Some("today"), "2025-03-10"),
    ];
    for (input, stored) in cases {
        let logged = coach.log_tracker_entry(entry(id, Blank, input)).unwrap();
        assert_eq!(logged.date, stored);
    }
    // A blank date is today, which is now taken.
    assert_eq!(
        coach
            .log_tracker_entry(entry(id, Blank, Some("")))
            .unwrap_err()
            .code(),
        "duplicate"
    );
}

#[test]
fn r5_one_entry_per_habit_and_day_never_overwritten() {
    let (coach, _, id) = coach_with_habit(3);
    coach
        .log_tracker_entry(entry(id, Done, Some("2025-03-09")))
        .unwrap();
    let err = coach
        .log_tracker_entry(entry(id, Blank, Some("2025-03-09")))
        .unwrap_err();
    assert_eq!(err.code(), "duplicate");
    assert!(err.to_string().contains("as done"), "{err}");
    assert_eq!(row_counts(&coach).1, 1);
    assert_eq!(
        coach.get_streak(id).unwrap().current_streak,
        1,
        "the first value stays"
    );
    // Another day, or the same day for another habit, is fine.
    coach
        .log_tracker_entry(entry(id, Done, Some("2025-03-08")))
        .unwrap();
    let other = coach
        .add_habit(new_habit("build.daily-pushups"))
        .unwrap()
        .habit_id;
    coach.log_tracker_entry(entry(other, Done, None)).unwrap();
}

/// The one row of `habit_id` on `day`: its id, value and note.
fn row_of(coach: &Coach, habit_id: i64, day: &str) -> Vec<(i64, String, Option<String>)> {
    coach
        .store()
        .read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, value, note FROM tracker_entries WHERE habit_id = ?1 AND entry_date = ?2",
            )?;
            let rows = stmt.query_map(rusqlite::params![habit_id, day], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .unwrap()
}

#[test]
fn a_confirmed_done_replaces_a_same_day_blank_keeping_one_row() {
    // Issue 9: a blank runs without confirmation; it must not take the day from a done the
    // user confirmed.
    let (coach, _, id) = coach_with_habit(3);
    let blank = coach
        .log_tracker_entry(NewEntry {
            note: Some("회식".into()),
            ..entry(id, Blank, None)
        })
        .unwrap();
    assert_eq!(coach.get_streak(id).unwrap().current_streak, 0);
    let done = coach
        .log_tracker_entry(NewEntry {
            note: Some("늦게라도 걸었다".into()),
            ..entry(id, Done, Some("오늘"))
        })
        .unwrap();
    assert_eq!(done.value, Done);
    assert_eq!(done.date, "2025-03-10");
    assert_eq!(done.entry_id, blank.entry_id, "the same row");
    assert_eq!(
        row_of(&coach, id, "2025-03-10"),
        [(
            blank.entry_id,
            "done".to_owned(),
            Some("늦게라도 걸었다".to_owned())
        )]
    );
    assert_eq!(row_counts(&coach).1, 1, "R5: still one row for the day");
    assert_eq!(coach.get_streak(id).unwrap().current_streak, 1);
    // Now the day is done: a second done, or a blank, is a duplicate and changes nothing.
    for value in [Done, Blank] {
        let err = coach.log_tracker_entry(entry(id, value, None)).unwrap_err();
        assert_eq!(err.code(), "duplicate", "{value}");
        assert!(err.to_string().contains("as done"), "{err}");
    }
    assert_eq!(row_of(&coach, id, "2025-03-10")[0].1, "done");
}

#[test]
fn a_blank_never_replaces_anything() {
    let (coach, _, id) = coach_with_habit(3);
    coach
        .log_tracker_entry(NewEntry {
            note: Some("아침에 걸음".into()),
            ..entry(id, Done, Some("2025-03-09"))
        })
        .unwrap();
    coach
        .log_tracker_entry(entry(id, Blank, Some("2025-03-08")))
        .unwrap();
    for (day, held) in [("2025-03-09", "done"), ("2025-03-08", "blank")] {
        let before = row_of(&coach, id, day);
        let err = coach
            .log_tracker_entry(NewEntry {
                note: Some("덮어쓰기".into()),
                ..entry(id, Blank, Some(day))
            })
            .unwrap_err();
        assert_eq!(err.code(), "duplicate", "{day}");
        assert!(err.to_string().contains(&format!("as {held}")), "{err}");
        assert_eq!(row_of(&coach, id, day), before, "{day} is unchanged");
    }
    assert_eq!(row_counts(&coach).1, 2);
}

#[test]
fn refuses_bad_dates_unknown_habits_and_long_notes_changing_nothing() {
    let (coach, _, id) = coach_with_habit(5);
    let before = row_counts(&coach);
    let huge = "x".repeat(1_000_000);
    let cases: Vec<(NewEntry, &str)> = vec![
        (entry(id, Done, Some("2025-03-11")), "future_date"),
        (entry(id, Done, Some("2099-01-01")), "future_date"),
        (entry(id, Done, Some("2025-02-30")), "invalid_date"),
        (entry(id, Done, Some("10 March")), "invalid_date"),
        (entry(id, Done, Some("내일")), "invalid_date"),
        (entry(id, Done, Some(&huge)), "invalid_date"),
        (entry(id, Done, Some("2025-03-04")), "invalid_date"), // before the habit was added
        (entry(999, Done, None), "not_found"),
        (entry(-1, Done, None), "not_found"),
        (
            NewEntry {
                note: Some("메".repeat(281)),
                ..entry(id, Done, None)
            },
            "invalid_text",
        ),
    ];
    for (req, code) in cases {
        let shown = format!("{:.60?}", req);
        let err = coach.log_tracker_entry(req).unwrap_err();
        assert_eq!(err.code(), code, "{shown}: {err}");
        assert!(
            err.to_string().len() < 300,
            "{shown}: the reason stays short"
        );
    }
    assert_eq!(row_counts(&coach), before);
    // The day the habit was added and a note at the limit are fine.
    let first_day = NewEntry {
        note: Some("메".repeat(280)),
        ..entry(id, Done, Some("2025-03-05"))
    };
    coach.log_tracker_entry(first_day).unwrap();
}

#[test]
fn future_date_reason_names_today() {
    let (coach, _, id) = coach_with_habit(0);
    let err = coach
        .log_tracker_entry(entry(id, Done, Some("2025-03-11")))
        .unwrap_err();
    assert!(err.to_string().contains("2025-03-10"), "{err}");
}

#[test]
fn archived_habits_can_still_be_logged() {
    let (coach, _, id) = coach_with_habit(1);
    coach.archive_habit(id).unwrap();
    coach.log_tracker_entry(entry(id, Done, None)).unwrap();
    assert_eq!(coach.get_streak(id).unwrap().done_count_30d, 1);
}

#[test]
fn r5_holds_when_two_writers_race_on_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let (a, clock) = coach_at(&path);
    clock.set(date(2025, 1, 1));
    let id = a
        .add_habit(new_habit("build.morning-walk"))
        .unwrap()
        .habit_id;
    clock.set(TODAY);
    // A second store: its own connection to the same file, as another process would have.
    let (b, _) = coach_at(&path);

    // Race on many days so that the two threads really do collide on some of them.
    for day in 1..=20 {
        let day = format!("2025-02-{day:02}");
        let results = race(
            || a.log_tracker_entry(entry(id, Done, Some(&day))),
            || b.log_tracker_entry(entry(id, Done, Some(&day))),
        );
        let ok = results.iter().filter(|r| r.is_ok()).count();
        let dup = results
            .iter()
            .filter(|r| r.as_ref().is_err_and(|e| e.code() == "duplicate"))
            .count();
        assert_eq!((ok, dup), (1, 1), "{day}: {results:?}");
    }
    assert_eq!(row_counts(&a).1, 20);
    assert_eq!(a.get_streak(id).unwrap().longest_streak, 20);
}

#[test]
fn streak_through_the_coach() {
    let (coach, clock, id) = coach_with_habit(60);
    // Added 2025-01-09. Done every day of phase 42 except days 10 and 11 (a double miss), then
    // nothing until a 9-day run ending yesterday.
    let start = date(2025, 1, 9);
    for offset in (0..42).filter(|d| *d != 9 && *d != 10) {
        let day = start.checked_add(jiff::Span::new().days(offset)).unwrap();
        coach
            .log_tracker_entry(entry(id, Done, Some(&day.to_string())))
            .unwrap();
    }
    for offset in 1..=9 {
        let day = TODAY.checked_sub(jiff::Span::new().days(offset)).unwrap();
        coach
            .log_tracker_entry(entry(id, Done, Some(&day.to_string())))
            .unwrap();
    }
    let s = coach.get_streak(id).unwrap();
    assert_eq!(s.current_streak, 9);
    assert_eq!(s.longest_streak, 31, "days 12..=42 of phase 42");
    assert_eq!(s.done_count_phase42, 40);
    // The 30 days from 02-09: phase 42's last 11 days (02-09..=02-19) and the 9-day run.
    assert_eq!(s.done_count_30d, 20);
    assert_eq!(s.tier, Tier::Sprout);
    assert!(s.never_miss_twice_broken);

    // Tomorrow without logging today: yesterday is a single miss, the streak is over.
    clock.set(date(2025, 3, 11));
    assert_eq!(coach.get_streak(id).unwrap().current_streak, 0);

    let json = serde_json::to_value(coach.get_streak(id).unwrap()).unwrap();
    assert_eq!(json["tier"], "seed");
    assert_eq!(json.as_object().unwrap().len(), 6);
}

#[test]
fn a_new_habit_starts_clean() {
    let (coach, _, id) = coach_with_habit(0);
    let s = coach.get_streak(id).unwrap();
    assert_eq!(
        (s.current_streak, s.longest_streak, s.tier),
        (0, 0, Tier::Seed)
    );
    assert!(!s.never_miss_twice_broken);
    assert_eq!(coach.get_streak(12345).unwrap_err().code(), "not_found");
}

#[test]
fn blanks_keep_never_miss_twice_but_end_the_streak() {
    let (coach, _, id) = coach_with_habit(4);
    for (day, value) in [
        ("2025-03-06", Done),
        ("2025-03-07", Blank),
        ("2025-03-08", Blank),
        ("2025-03-09", Done),
    ] {
        coach
            .log_tracker_entry(entry(id, value, Some(day)))
            .unwrap();
    }
    let s = coach.get_streak(id).unwrap();
    assert_eq!((s.current_streak, s.longest_streak), (1, 1));
    assert!(!s.never_miss_twice_broken);
}

#[test]
fn entries_and_streaks_survive_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let (id, before) = {
        let (coach, clock) = coach_at(&path);
        clock.set(date(2025, 3, 1));
        let id = coach
            .add_habit(new_habit("build.morning-walk"))
            .unwrap()
            .habit_id;
        clock.set(TODAY);
        for day in 5..=10 {
            coach
                .log_tracker_entry(entry(id, Done, Some(&format!("2025-03-{day:02}"))))
                .unwrap();
        }
        (id, coach.get_streak(id).unwrap())
    };
    let (coach, _) = coach_at(&path);
    assert_eq!(coach.get_streak(id).unwrap(), before);
    assert_eq!(before.current_streak, 6);
    assert_eq!(
        coach
            .log_tracker_entry(entry(id, Done, Some("2025-03-10")))
            .unwrap_err()
            .code(),
        "duplicate"
    );
}
