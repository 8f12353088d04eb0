//! Tests of `add_habit`, `list_active_habits` and `archive_habit`: R3, R7, R8, the text rules,
//! the duplicate-protocol guard, persistence, and that every refusal leaves the database as it
//! was.

use super::*;
use crate::coach::test_support::{TODAY, coach, coach_at, keys, new_habit, race, row_counts};

#[test]
fn adds_a_build_habit_with_the_seed_result_shape() {
    let (coach, _) = coach();
    let added = coach.add_habit(new_habit("build.morning-walk")).unwrap();
    assert_eq!(added.title, "아침 10분 걷기");
    assert_eq!(added.habit_type, HabitType::Build);
    assert_eq!(added.frame_level, 2);
    let json = serde_json::to_value(&added).unwrap();
    assert_eq!(keys(&json), ["frame_level", "habit_id", "title", "type"]);
    assert_eq!(json["type"], "build");
}

#[test]
fn adds_a_break_habit_and_lists_both() {
    let (coach, _) = coach();
    let walk = coach.add_habit(new_habit("build.morning-walk")).unwrap();
    let mut snack = new_habit("break.late-night-snacking");
    snack.framed_text = "밤 10시에 허기가 지면 따뜻한 보리차 마시고 양치하기".into();
    snack.anchor_when = Some("  ".into());
    snack.anchor_after_what = None;
    snack.dose_text = Some("".into());
    let snack = coach.add_habit(snack).unwrap();
    assert_eq!(snack.habit_type, HabitType::Break);

    let list = coach.list_active_habits().unwrap();
    assert_eq!(
        (
            list.count,
            list.build_count,
            list.break_count,
            list.build_quota_remaining,
            list.break_quota_remaining
        ),
        (2, 1, 1, 2, 0)
    );
    assert_eq!(list.items[0].id, walk.habit_id);
    assert_eq!(
        list.items[0].anchor_after_what.as_deref(),
        Some("커피를 내린 후")
    );
    assert_eq!(list.items[1].id, snack.habit_id);
    assert_eq!(list.items[1].protocol_id, "break.late-night-snacking");
    // Blank optional text is stored as absent and left out of the result.
    let json = serde_json::to_value(&list).unwrap();
    assert_eq!(
        keys(&json),
        [
            "break_count",
            "break_quota_remaining",
            "build_count",
            "build_quota_remaining",
            "count",
            "items"
        ]
    );
    assert_eq!(
        keys(&json["items"][1]),
        ["framed_text", "id", "protocol_id", "title", "type"]
    );
    assert_eq!(json["items"][0]["type"], "build");
}

#[test]
fn an_empty_list_has_full_quotas() {
    let (coach, _) = coach();
    let list = coach.list_active_habits().unwrap();
    assert_eq!(
        list,
        ActiveHabits {
            count: 0,
            build_count: 0,
            break_count: 0,
            build_quota_remaining: 3,
            break_quota_remaining: 1,
            items: vec![],
        }
    );
}

#[test]
fn r3_allows_three_builds_and_one_break() {
    let (coach, _) = coach();
    for id in [
        "build.morning-walk",
        "build.daily-pushups",
        "build.read-10-pages",
    ] {
        coach.add_habit(new_habit(id)).unwrap();
    }
    let before = row_counts(&coach);
    let err = coach.add_habit(new_habit("build.pomodoro")).unwrap_err();
    assert_eq!(err.code(), "r3_quota");
    assert!(err.to_string().contains("3 active build"), "{err}");
    assert_eq!(row_counts(&coach), before);

    let mut first_break = new_habit("break.snooze");
    first_break.framed_text = "알람이 울리면 발을 바닥에 대고 일어나기".into();
    coach.add_habit(first_break.clone()).unwrap();
    first_break.protocol_id = "break.sugary-drinks".into();
    let err = coach.add_habit(first_break).unwrap_err();
    assert_eq!(err.code(), "r3_quota");
    assert!(err.to_string().contains("1 active break"), "{err}");

    let list = coach.list_active_habits().unwrap();
    assert_eq!(
        (list.build_quota_remaining, list.break_quota_remaining),
        (0, 0)
    );
}

#[test]
fn archiving_frees_a_slot_and_keeps_the_habit() {
    let (coach, _) = coach();
    let ids: Vec<i64> = [
        "build.morning-walk",
        "build.daily-pushups",
        "build.read-10-pages",
    ]
    .into_iter()
    .map(|id| coach.add_habit(new_habit(id)).unwrap().habit_id)
    .collect();
    coach.archive_habit(ids[0]).unwrap();
    coach.archive_habit(ids[0]).unwrap(); // idempotent
    let added = coach.add_habit(new_habit("build.pomodoro")).unwrap();
    let list = coach.list_active_habits().unwrap();
    assert_eq!(list.count, 3);
    assert!(list.items.iter().all(|h| h.id != ids[0]));
    assert!(list.items.iter().any(|h| h.id == added.habit_id));
    assert_eq!(row_counts(&coach).0, 4, "archived habits are kept");
    assert!(coach.get_streak(ids[0]).is_ok());
    assert_eq!(coach.archive_habit(999).unwrap_err().code(), "not_found");
}

#[test]
fn one_active_habit_per_protocol() {
    let (coach, _) = coach();
    let first = coach.add_habit(new_habit("build.morning-walk")).unwrap();
    let err = coach
        .add_habit(new_habit("build.morning-walk"))
        .unwrap_err();
    assert_eq!(err.code(), "duplicate");
    assert!(
        err.to_string()
            .contains(&format!("habit_id {}", first.habit_id)),
        "{err}"
    );
    assert_eq!(row_counts(&coach).0, 1);
    coach.archive_habit(first.habit_id).unwrap();
    assert!(coach.add_habit(new_habit("build.morning-walk")).is_ok());
}

#[test]
fn r8_refuses_diets_and_unknown_ids_are_not_found() {
    let (coach, _) = coach();
    let err = coach
        .add_habit(new_habit("diet.mediterranean"))
        .unwrap_err();
    assert_eq!(err.code(), "r8_xor");
    assert!(err.to_string().contains("diet"), "{err}");
    for id in ["build.unknown", "", "morning-walk", "diet"] {
        assert_eq!(
            coach.add_habit(new_habit(id)).unwrap_err().code(),
            "not_found",
            "{id}"
        );
    }
    assert_eq!(row_counts(&coach), (0, 0));
}

#[test]
fn r7_refuses_avoidance_framing_naming_the_phrase() {
    let (coach, _) = coach();
    for (text, phrase) in [
        ("아침에 휴대폰 안 하기", "안 하기"),
        ("밤에 야식 먹지 않기", "않기"),
        ("Stop snacking after 9", "stop"),
    ] {
        let mut req = new_habit("build.morning-walk");
        req.framed_text = text.into();
        let err = coach.add_habit(req).unwrap_err();
        assert_eq!(err.code(), "r7_avoidance", "{text}");
        assert!(err.to_string().contains(phrase), "{err}");
    }
    // Break habits are framed by their replacement too.
    let mut req = new_habit("break.smoking");
    req.framed_text = "담배 끊기".into();
    assert_eq!(coach.add_habit(req).unwrap_err().code(), "r7_avoidance");
    assert_eq!(row_counts(&coach), (0, 0));
}

#[test]
fn bad_frame_levels_and_texts_change_nothing() {
    let (coach, _) = coach();
    let huge = "가".repeat(1_000_000);
    type Mutation = Box<dyn Fn(&mut NewHabit)>;
    let cases: Vec<(Mutation, &str)> = vec![
        (Box::new(|r| r.frame_level = 0), "invalid_value"),
        (Box::new(|r| r.frame_level = 4), "invalid_value"),
        (Box::new(|r| r.frame_level = -7), "invalid_value"),
        (Box::new(|r| r.framed_text = String::new()), "invalid_text"),
        (Box::new(|r| r.framed_text = " \n ".into()), "invalid_text"),
        (
            Box::new(|r| r.framed_text = "걷".repeat(121)),
            "invalid_text",
        ),
        (
            Box::new(|r| r.framed_text = "걷기\u{1b}[31m".into()),
            "invalid_text",
        ),
        (
            Box::new(move |r| r.framed_text = huge.clone()),
            "invalid_text",
        ),
        (
            Box::new(|r| r.anchor_when = Some("아".repeat(81))),
            "invalid_text",
        ),
        (
            Box::new(|r| r.anchor_after_what = Some("아".repeat(81))),
            "invalid_text",
        ),
        (
            Box::new(|r| r.dose_text = Some("\u{0}".into())),
            "invalid_text",
        ),
    ];
    for (i, (mutate, code)) in cases.iter().enumerate() {
        let mut req = new_habit("build.morning-walk");
        mutate(&mut req);
        let err = coach.add_habit(req).unwrap_err();
        assert_eq!(err.code(), *code, "case {i}: {err}");
        assert!(
            err.to_string().len() < 300,
            "case {i}: the reason stays short"
        );
    }
    assert_eq!(row_counts(&coach), (0, 0));
    // The limits themselves are allowed, and text is stored trimmed.
    let mut req = new_habit("build.morning-walk");
    req.framed_text = format!("  {}  ", "걷".repeat(120));
    req.frame_level = 3;
    coach.add_habit(req).unwrap();
    let list = coach.list_active_habits().unwrap();
    assert_eq!(list.items[0].framed_text, "걷".repeat(120));
}

#[test]
fn habits_survive_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let added = {
        let (coach, _) = coach_at(&path);
        coach.add_habit(new_habit("build.morning-walk")).unwrap()
    };
    let (coach, _) = coach_at(&path);
    let list = coach.list_active_habits().unwrap();
    assert_eq!(list.count, 1);
    assert_eq!(list.items[0].id, added.habit_id);
    assert_eq!(list.items[0].framed_text, "아침 커피를 내린 후 10분 걷기");
}

#[test]
fn r3_holds_when_two_writers_race_for_the_last_slot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("habits.sqlite3");
    let (a, _) = coach_at(&path);
    let (b, _) = coach_at(&path);
    a.add_habit(new_habit("build.morning-walk")).unwrap();
    a.add_habit(new_habit("build.daily-pushups")).unwrap();
    let results = race(
        || a.add_habit(new_habit("build.read-10-pages")),
        || b.add_habit(new_habit("build.pomodoro")),
    );
    let ok = results.iter().filter(|r| r.is_ok()).count();
    let quota = results
        .iter()
        .filter(|r| r.as_ref().is_err_and(|e| e.code() == "r3_quota"))
        .count();
    assert_eq!((ok, quota), (1, 1), "{results:?}");
    assert_eq!(b.list_active_habits().unwrap().build_count, 3);
}

#[test]
fn four_full_habits_list_under_the_cap() {
    let (coach, _) = coach();
    for id in [
        "build.morning-walk",
        "build.daily-pushups",
        "build.read-10-pages",
        "break.snooze",
    ] {
        let mut req = new_habit(id);
        // Realistic, fairly long Korean framings with every optional field set.
        req.framed_text =
            "아침 커피를 내린 뒤 운동화를 신고 동네 공원까지 10분 동안 천천히 걷기".into();
        req.anchor_when = Some("평일 아침 7시 반".into());
        req.anchor_after_what = Some("커피 머신에서 첫 커피를 내린 후".into());
        req.dose_text = Some("최소 10분, 좋은 날은 20분".into());
        coach.add_habit(req).unwrap();
    }
    let json = serde_json::to_string(&coach.list_active_habits().unwrap()).unwrap();
    assert!(json.len() < 2048, "{} bytes", json.len());
}

#[test]
fn created_date_comes_from_the_clock() {
    let (coach, clock) = coach();
    clock.set(jiff::civil::date(2024, 12, 31));
    let added = coach.add_habit(new_habit("build.morning-walk")).unwrap();
    let created: String = coach
        .store()
        .read(|tx| {
            Ok(tx.query_row(
                "SELECT created_on FROM habits WHERE id = ?1",
                [added.habit_id],
                |r| r.get(0),
            )?)
        })
        .unwrap();
    assert_eq!(created, "2024-12-31");
    assert_ne!(TODAY, jiff::civil::date(2024, 12, 31));
}

#[test]
fn texts_are_checked_for_invisible_and_control_characters_and_stored_in_nfc() {
    let (coach, _) = coach();
    type Mutation = Box<dyn Fn(&mut NewHabit)>;
    let cases: Vec<(Mutation, &str)> = vec![
        // Issue 9: only a BOM (or other invisible characters) is empty, not a habit.
        (
            Box::new(|r| r.framed_text = "\u{FEFF}".into()),
            "framed_text: must not be empty",
        ),
        (
            Box::new(|r| r.framed_text = "\u{200B}\u{2060} \u{3164}".into()),
            "framed_text: must not be empty",
        ),
        // Issue 9: newlines forged a dialog under the real one.
        (
            Box::new(|r| r.framed_text = format!("걷기{}┌ 가짜 대화상자", "\n".repeat(40))),
            "framed_text: contains U+000A (line feed) at character 3",
        ),
        (
            Box::new(|r| r.framed_text = "걷기\r\u{1B}[2K".into()),
            "framed_text: contains U+000D (carriage return)",
        ),
        (
            Box::new(|r| r.framed_text = "\u{202E}기걷 분01".into()),
            "framed_text: contains U+202E (bidi override)",
        ),
        (
            Box::new(|r| r.anchor_when = Some("아침\u{200B}".into())),
            "anchor_when: contains U+200B (zero width space)",
        ),
        (
            Box::new(|r| r.anchor_after_what = Some("커피\u{AD}후".into())),
            "anchor_after_what: contains U+00AD (soft hyphen)",
        ),
        (
            Box::new(|r| r.dose_text = Some("10\t분".into())),
            "dose_text: contains U+0009 (tab)",
        ),
    ];
    for (i, (mutate, reason)) in cases.iter().enumerate() {
        let mut req = new_habit("build.morning-walk");
        mutate(&mut req);
        let err = coach.add_habit(req).unwrap_err();
        assert_eq!(err.code(), "invalid_text", "case {i}: {err}");
        assert!(err.to_string().starts_with(reason), "case {i}: {err}");
    }
    assert_eq!(row_counts(&coach), (0, 0));

    // Decomposed Hangul is stored composed; an invisible-only optional text is absent.
    let nfd = |s: &str| -> String { unicode_normalization::UnicodeNormalization::nfd(s).collect() };
    let mut req = new_habit("build.morning-walk");
    req.framed_text = nfd("아침 커피 후 10분 걷기");
    req.anchor_when = Some(nfd("아침"));
    req.dose_text = Some("\u{FEFF}".into());
    coach.add_habit(req).unwrap();
    let habit = &coach.list_active_habits().unwrap().items[0];
    assert_eq!(habit.framed_text, "아침 커피 후 10분 걷기");
    assert_eq!(habit.anchor_when.as_deref(), Some("아침"));
    assert_eq!(habit.dose_text, None);
}

#[test]
fn every_disguised_avoidance_phrase_is_refused() {
    // Issue 9 found 96 of 156 disguised variants of R7's phrases accepted by `add_habit`.
    let variants = crate::rules::avoidance::variants::variants();
    let mut by_code = std::collections::BTreeMap::<String, usize>::new();
    let mut accepted = Vec::new();
    for v in &variants {
        let coach = coach().0;
        let mut req = new_habit("build.morning-walk");
        req.framed_text = v.text.clone();
        match coach.add_habit(req) {
            Ok(_) => accepted.push(v),
            Err(err) => {
                // Shown only when the disguise is the display order: the matcher reads the
                // stored order, and the text checks refuse the bidi controls first anyway.
                if v.display_only {
                    assert_eq!(err.code(), "invalid_text", "{v:?}");
                }
                *by_code.entry(err.code().to_owned()).or_default() += 1;
            }
        }
    }
    println!(
        "add_habit refused {} of {} disguised variants: {by_code:?}; accepted {}",
        variants.len() - accepted.len(),
        variants.len(),
        accepted.len()
    );
    assert!(accepted.is_empty(), "accepted: {accepted:?}");
    assert!(by_code.get("r7_avoidance").is_some_and(|n| *n > 100));
}
