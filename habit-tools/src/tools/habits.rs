//! The habit tools: `list_active_habits` (read-only); `add_habit`, `stop_habit` and
//! `update_habit_text` (destructive: the person confirms first; each can be undone); and
//! keeping the list within the result cap.

use agent_core::{Dep, ToolError, UndoCall, tool};

use super::on_blocking_thread;
use super::values::{active_habit_ids, frame_levels, protocol_ids};
use crate::coach::{ActiveHabits, AddedHabit, Coach, NewHabit, StoppedHabit, UpdatedHabit};
use crate::rules;

/// 진행 중인 습관 목록(id 포함)과 남은 자리를 봅니다.
#[tool(
    label = "활성 습관 목록",
    reply = super::replies::habits,
    access = trusted,
    example(request = "지금 내 습관 목록 보여줘"),
    example(request = "나 요즘 무슨 습관 하고 있지?"),
    example(request = "습관 몇 개 더 만들 수 있어?"),
    example(request = "등록된 습관이 뭐였더라")
)]
pub async fn list_active_habits(coach: Dep<Coach>) -> Result<ActiveHabits, ToolError> {
    let list = on_blocking_thread(coach, Coach::list_active_habits).await?;
    Ok(fit_list(list, LIST_BUDGET_BYTES))
}

/// The most `list_active_habits` may serialise to: agent-core's default result cap less room
/// for the `{"status":"ok","data":…}` envelope.
const LIST_BUDGET_BYTES: usize = agent_core::DEFAULT_MAX_BYTES - 128;

/// Texts are never clipped below this many characters.
const MIN_CLIP_CHARS: usize = 12;

/// Shortens the longest texts of the list (halving one at a time, marking it with `…`) until it
/// serialises to at most `budget` bytes. A no-op in normal use: four habits with everyday texts
/// are about 1.5 KB.
///
/// Why here and not left to the result cap: with every text at its limit the list is about
/// 5 KB; the cap shortens only texts over 80 characters before it drops whole items from the
/// end, so it would still hide habits. A model that cannot see a habit's id cannot log to it;
/// a clipped description is harmless.
fn fit_list(mut list: ActiveHabits, budget: usize) -> ActiveHabits {
    // Each round strictly shortens one text, so this ends.
    while serde_json::to_string(&list).map_or(0, |json| json.len()) > budget {
        let longest = list
            .items
            .iter_mut()
            .flat_map(|habit| {
                [
                    Some(&mut habit.framed_text),
                    habit.anchor_when.as_mut(),
                    habit.anchor_after_what.as_mut(),
                    habit.dose_text.as_mut(),
                ]
            })
            .flatten()
            .map(|text| (text.chars().count(), text))
            .filter(|(chars, _)| *chars > 2 * MIN_CLIP_CHARS)
            .max_by_key(|(chars, _)| *chars);
        let Some((chars, text)) = longest else {
            break; // Nothing left worth clipping; the cap has the last word.
        };
        let mut clipped: String = text.chars().take(chars / 2).collect();
        clipped.push('…');
        *text = clipped;
    }
    list
}

/// 카탈로그의 build 또는 break 프로토콜로 새 습관을 추가합니다. 먼저 search_catalog로 id를 찾으세요.
#[tool(
    destructive,
    label = "습관 추가",
    reply = super::replies::added,
    summary = "'{framed_text}' 습관을 추가합니다",
    undo = undo_add_habit,
    access = trusted,
    example(request = "build.read-10-pages로 '출근길에 책 10쪽 읽기' 습관 추가해줘",
            args = { "protocol_id": "build.read-10-pages", "frame_level": 2, "framed_text": "출근길에 책 10쪽 읽기" }),
    example(request = "스트레칭 습관 만들래. 자기 전에 5분 스트레칭",
            args = { "protocol_id": "build.bedtime-stretch", "frame_level": 2, "framed_text": "자기 전에 5분 스트레칭", "anchor_when": "자기 전", "dose_text": "5분" }),
    example(request = "계단 오르기 습관 등록해줘",
            args = { "protocol_id": "build.take-stairs", "frame_level": 1, "framed_text": "계단 오르기" })
)]
pub async fn add_habit(
    coach: Dep<Coach>,
    /// 프로토콜 id(build. 또는 break.으로 시작), 예: build.morning-walk
    #[values(protocol_ids)]
    protocol_id: String,
    /// 습관 문장의 단계. 1=행동(10분 걷기), 2=시점 포함(아침 커피 후 10분 걷기), 3=정체성(나는 걷는 사람)
    #[schemars(range(min = *rules::FRAME_LEVELS.start(), max = *rules::FRAME_LEVELS.end()))]
    #[values(frame_levels)]
    #[from_request]
    frame_level: i64,
    /// 사용자 말로 쓴 습관 문장. 피할 일이 아니라 할 일로 씁니다
    #[schemars(length(min = 1, max = rules::MAX_FRAMED_TEXT_CHARS))]
    #[from_request]
    framed_text: String,
    /// 언제(선택), 예: 아침 7시
    #[schemars(length(max = rules::MAX_SHORT_TEXT_CHARS))]
    #[from_request]
    anchor_when: Option<String>,
    /// 무엇을 한 다음에(선택), 예: 커피를 내린 후
    #[schemars(length(max = rules::MAX_SHORT_TEXT_CHARS))]
    #[from_request]
    anchor_after_what: Option<String>,
    /// 얼마나(선택), 예: 10분
    #[schemars(length(max = rules::MAX_SHORT_TEXT_CHARS))]
    #[from_request]
    dose_text: Option<String>,
) -> Result<AddedHabit, ToolError> {
    let habit = NewHabit {
        protocol_id,
        frame_level,
        framed_text,
        anchor_when,
        anchor_after_what,
        dose_text,
    };
    on_blocking_thread(coach, move |coach| coach.add_habit(habit)).await
}

/// 진행 중인 습관 하나를 그만둡니다(목록에서 빠지고 기록은 남음).
#[tool(
    destructive,
    label = "습관 그만두기",
    reply = super::replies::stopped,
    summary = "{habit_id}번 습관을 그만둡니다(기록은 남아요)",
    undo = undo_stop_habit,
    access = trusted,
    example(request = "3번 습관 이제 그만할래", args = { "habit_id": 3 }),
    example(request = "2번 습관 목록에서 빼줘", args = { "habit_id": 2 }),
    example(request = "1번 습관은 그만둘게요. 지워줘", args = { "habit_id": 1 })
)]
pub async fn stop_habit(
    coach: Dep<Coach>,
    /// 습관 id(list_active_habits의 id)
    #[values(active_habit_ids)]
    habit_id: i64,
) -> Result<StoppedHabit, ToolError> {
    on_blocking_thread(coach, move |coach| coach.stop_habit(habit_id)).await
}

/// Takes back one `stop_habit`: the habit is active again — refused when its slot or its
/// protocol was taken since.
pub async fn undo_stop_habit(call: UndoCall, coach: Dep<Coach>) -> Result<StoppedHabit, ToolError> {
    let stopped: StoppedHabit = call.data()?;
    let habit_id = stopped.habit_id;
    on_blocking_thread(coach, move |coach| coach.undo_stop_habit(habit_id)).await?;
    Ok(stopped)
}

/// 진행 중인 습관의 문장을 새 문장으로 바꿉니다.
#[tool(
    destructive,
    label = "습관 수정",
    reply = super::replies::updated,
    summary = "{habit_id}번 습관 문장을 '{framed_text}'(으)로 바꿉니다",
    undo = undo_update_habit_text,
    access = trusted,
    example(request = "1번 습관 문장을 '점심 먹고 10분 걷기'로 바꿔줘",
            args = { "habit_id": 1, "framed_text": "점심 먹고 10분 걷기" }),
    example(request = "2번 습관 '자기 전 책 5쪽 읽기'로 수정해줘",
            args = { "habit_id": 2, "framed_text": "자기 전 책 5쪽 읽기" }),
    example(request = "3번 습관 문구를 저녁 8시 이후엔 보리차 마시기로 고쳐줘",
            args = { "habit_id": 3, "framed_text": "저녁 8시 이후엔 보리차 마시기" })
)]
pub async fn update_habit_text(
    coach: Dep<Coach>,
    /// 습관 id(list_active_habits의 id)
    #[values(active_habit_ids)]
    habit_id: i64,
    /// 새 습관 문장. 피할 일이 아니라 할 일로 씁니다
    #[schemars(length(min = 1, max = rules::MAX_FRAMED_TEXT_CHARS))]
    #[from_request]
    framed_text: String,
) -> Result<UpdatedHabit, ToolError> {
    on_blocking_thread(coach, move |coach| {
        coach.update_habit_text(habit_id, &framed_text)
    })
    .await
}

/// Takes back one `update_habit_text`: the sentence before comes back — refused when it was
/// changed again since.
pub async fn undo_update_habit_text(
    call: UndoCall,
    coach: Dep<Coach>,
) -> Result<UpdatedHabit, ToolError> {
    let updated: UpdatedHabit = call.data()?;
    let undone = updated.clone();
    on_blocking_thread(coach, move |coach| {
        coach.undo_update_habit_text(
            updated.habit_id,
            &updated.framed_text,
            &updated.previous_text,
        )
    })
    .await?;
    Ok(UpdatedHabit {
        habit_id: undone.habit_id,
        framed_text: undone.previous_text,
        previous_text: undone.framed_text,
    })
}

/// Takes back one `add_habit`: the habit it added leaves the active list (archived, with
/// nothing deleted) — refused once the habit has been logged or is no longer active.
pub async fn undo_add_habit(call: UndoCall, coach: Dep<Coach>) -> Result<UndoneHabit, ToolError> {
    let habit_id: i64 = call.result_field("habit_id")?;
    on_blocking_thread(coach, move |coach| coach.undo_add_habit(habit_id)).await?;
    Ok(UndoneHabit { habit_id })
}

/// What undoing an `add_habit` left: the habit, no longer active.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UndoneHabit {
    /// The habit that left the active list.
    pub habit_id: i64,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::coach::ActiveHabit;
    use crate::model::HabitType;

    fn habit(id: i64, text: &str, extra: Option<&str>) -> ActiveHabit {
        ActiveHabit {
            id,
            title: "제목".into(),
            habit_type: HabitType::Build,
            protocol_id: "build.x".into(),
            framed_text: text.into(),
            anchor_when: extra.map(str::to_owned),
            anchor_after_what: extra.map(str::to_owned),
            dose_text: None,
        }
    }

    fn list(items: Vec<ActiveHabit>) -> ActiveHabits {
        let n = u32::try_from(items.len()).unwrap();
        ActiveHabits {
            count: n,
            build_count: n,
            break_count: 0,
            build_quota_remaining: 3_u32.saturating_sub(n),
            break_quota_remaining: 1,
            items,
        }
    }

    #[test]
    fn a_list_within_budget_is_untouched() {
        let before = list(vec![habit(1, "아침 10분 걷기", Some("아침"))]);
        assert_eq!(fit_list(before.clone(), LIST_BUDGET_BYTES), before);
    }

    #[test]
    fn the_longest_texts_are_clipped_first_and_every_habit_stays() {
        let long = "가".repeat(120);
        let before = list(vec![
            habit(1, &long, Some(&"나".repeat(80))),
            habit(2, "짧은 습관", None),
        ]);
        let budget = 900;
        let after = fit_list(before, budget);
        assert!(serde_json::to_string(&after).unwrap().len() <= budget);
        assert_eq!(after.items.len(), 2);
        assert_eq!(
            after.items[1].framed_text, "짧은 습관",
            "short texts are left alone"
        );
        let first = &after.items[0].framed_text;
        assert!(
            first.ends_with('…') && first.starts_with("가가가"),
            "{first}"
        );
        assert!(first.chars().count() > MIN_CLIP_CHARS);
    }

    #[test]
    fn an_impossible_budget_stops_instead_of_looping() {
        let before = list(vec![habit(1, &"가".repeat(120), None)]);
        let after = fit_list(before, 10);
        assert_eq!(after.items.len(), 1);
        assert!(after.items[0].framed_text.chars().count() <= 2 * MIN_CLIP_CHARS + 1);
    }
}
