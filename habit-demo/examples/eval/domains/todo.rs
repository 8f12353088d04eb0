//! 할 일 도우미 — a Korean to-do app, as a test domain for the tool-choice eval.
//!
//! This file was written the way a developer new to agent-rs would write it, from the README
//! and the `agent_core` crate docs only (the `#[tool]` reference, [`ValueChoice`], [`Example`],
//! [`RegistryBuilder`], [`ToolError`], [`Dep`]) — not tuned on the habit coach's examples or
//! its eval requests. It declares six tools over an in-memory task list:
//!
//! | tool | kind |
//! |---|---|
//! | `list_tasks` | read-only |
//! | `search_tasks` | read-only |
//! | `add_task` | destructive |
//! | `complete_task` | destructive |
//! | `delete_task` | destructive |
//! | `change_due_date` | destructive |
//!
//! "Today" is fixed at 2025-03-10 (a Monday) and kept in the store; nothing reads the system
//! clock. [`seeded`] gives the starting state (six tasks, ids 1–6), [`registry_builder`] the
//! tools with eight examples each cut to the first N, plus three requests that need no tool.
//! Eval binaries include it with `#[path = "eval/domains/todo.rs"] mod todo;`.

use std::fmt;
use std::sync::{Mutex, MutexGuard};

use agent_core::{Dep, Example, Registry, RegistryBuilder, ToolError, ValueChoice, tool};
use serde_json::{Value, json};

/// The system instruction of the to-do assistant.
pub(crate) const INSTRUCTIONS: &str = "당신은 '할 일 도우미'입니다. 사용자의 할 일을 추가하고, \
완료로 표시하고, 지우고, 마감일을 바꾸고, 목록을 보여 줍니다. 오늘은 2025년 3월 10일 월요일입니다. \
도구 결과에 있는 내용만 말하고, 한국어로 짧고 친절하게 답하세요. 할 일이 필요 없는 말에는 도구 없이 답하세요.";

/// The fixed "today" of this domain.
const TODAY: Day = Day::civil(2025, 3, 10);

/// How many days, from today on, a due date may be picked from (`upcoming_days`).
const DUE_DAYS: i64 = 14;

// ---------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------

/// A calendar day, counted in days since 1970-01-01 (proleptic Gregorian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Day(i64);

impl Day {
    /// The day `year-month-day`; the caller makes sure it exists (see [`Day::parse_iso`]).
    const fn civil(year: i64, month: i64, day: i64) -> Self {
        // Howard Hinnant's `days_from_civil`.
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (month + 9) % 12;
        let doy = (153 * mp + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Self(era * 146_097 + doe - 719_468)
    }

    /// `(year, month, day)`.
    fn ymd(self) -> (i64, i64, i64) {
        // Howard Hinnant's `civil_from_days`.
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        (year, month, day)
    }

    /// Reads `YYYY-MM-DD`; `None` for anything else or a day that does not exist.
    fn parse_iso(text: &str) -> Option<Self> {
        let mut parts = text.split('-');
        let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
        let digits = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_digit());
        if parts.next().is_some() || !digits(year, 4) || !digits(month, 2) || !digits(day, 2) {
            return None;
        }
        let year: i64 = year.parse().ok()?;
        let month: i64 = month.parse().ok()?;
        let day: i64 = day.parse().ok()?;
        if !(1..=12).contains(&month) || !(1..=days_in_month(year, month)).contains(&day) {
            return None;
        }
        Some(Self::civil(year, month, day))
    }

    /// The day `days` later (earlier when negative).
    fn plus(self, days: i64) -> Self {
        Self(self.0 + days)
    }

    /// The week it falls in, counted in weeks that start on Monday.
    fn week(self) -> i64 {
        (self.0 + 3).div_euclid(7)
    }

    /// The day of the week in Korean ("월요일").
    fn weekday(self) -> &'static str {
        match (self.0 + 3).rem_euclid(7) {
            0 => "월요일",
            1 => "화요일",
            2 => "수요일",
            3 => "목요일",
            4 => "금요일",
            5 => "토요일",
            _ => "일요일",
        }
    }

    /// The day as a person says it, seen from `today`: "오늘", "내일", "3월 14일 금요일".
    fn spoken(self, today: Day) -> String {
        match self.0 - today.0 {
            0 => "오늘".to_owned(),
            1 => "내일".to_owned(),
            2 => "모레".to_owned(),
            -1 => "어제".to_owned(),
            _ => {
                let (_, month, day) = self.ymd();
                format!("{month}월 {day}일 {}", self.weekday())
            }
        }
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = self.ymd();
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

/// The number of days of `month` in `year`.
fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// At most 30 characters of what a caller sent, for an error's reason.
fn clip(text: &str) -> String {
    text.chars().take(30).collect()
}

/// Reads a date argument: `today`, `tomorrow`, `yesterday` (or 오늘, 내일, 모레, 어제) or
/// `YYYY-MM-DD`. Anything else is an `invalid_date` error.
fn resolve_day(today: Day, text: &str) -> Result<Day, ToolError> {
    let text = text.trim();
    let offset = match text.to_lowercase().as_str() {
        "today" | "오늘" => Some(0),
        "tomorrow" | "내일" => Some(1),
        "모레" => Some(2),
        "yesterday" | "어제" => Some(-1),
        _ => None,
    };
    if let Some(offset) = offset {
        return Ok(today.plus(offset));
    }
    Day::parse_iso(text).ok_or_else(|| {
        ToolError::new(
            "invalid_date",
            format!(
                "날짜는 today, tomorrow, yesterday 또는 YYYY-MM-DD로 주세요 (받은 값: '{}')",
                clip(text)
            ),
        )
    })
}

/// The `past_date` error: a due date before today.
fn past_date(day: Day) -> ToolError {
    ToolError::new(
        "past_date",
        format!("마감일 {day}은(는) 이미 지난 날이에요. 오늘이나 그 뒤의 날을 골라 주세요"),
    )
}

// ---------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------

/// One task of the list.
#[derive(Debug, Clone)]
struct Task {
    /// Its id, shown to the user ("3번").
    id: i64,
    /// What to do, in the user's words.
    title: String,
    /// When it is due, if ever.
    due: Option<Day>,
    /// Whether it is done.
    done: bool,
}

impl Task {
    /// The task as the tools return it.
    fn to_json(&self, today: Day) -> Value {
        json!({
            "id": self.id,
            "title": self.title,
            "due": self.due.map(|day| day.to_string()),
            "due_in_words": self.due.map(|day| day.spoken(today)),
            "done": self.done,
            "overdue": !self.done && self.due.is_some_and(|day| day < today),
        })
    }
}

/// The tasks and the id the next one gets.
#[derive(Debug)]
struct TodoList {
    /// Every task, done or not, in the order added.
    tasks: Vec<Task>,
    /// The id of the next task added.
    next_id: i64,
}

impl TodoList {
    /// The task with this id, or `not_found`.
    fn find_mut(&mut self, id: i64) -> Result<&mut Task, ToolError> {
        self.tasks
            .iter_mut()
            .find(|task| task.id == id)
            .ok_or_else(|| not_found(id))
    }

    /// How many tasks are not done.
    fn open_count(&self) -> usize {
        self.tasks.iter().filter(|task| !task.done).count()
    }
}

/// The `not_found` error for a task id.
fn not_found(id: i64) -> ToolError {
    ToolError::new("not_found", format!("{id}번 할 일은 없어요"))
}

/// The to-do store the tools share (their `Dep<TodoStore>`): the task list and the fixed
/// "today".
#[derive(Debug)]
pub(crate) struct TodoStore {
    /// Today, fixed for the whole session.
    today: Day,
    /// The list, behind a lock.
    list: Mutex<TodoList>,
}

impl TodoStore {
    /// Locks the list (a poisoned lock is a `storage` error, not a panic).
    fn lock(&self) -> Result<MutexGuard<'_, TodoList>, ToolError> {
        self.list
            .lock()
            .map_err(|_| ToolError::new("storage", "할 일 목록을 읽지 못했어요"))
    }
}

/// The starting state: today is 2025-03-10 (Monday) and the list holds six tasks (ids 1–6),
/// two of them done and one overdue.
pub(crate) fn seeded() -> TodoStore {
    let task = |id: i64, title: &str, due: Option<Day>, done: bool| Task {
        id,
        title: title.to_owned(),
        due,
        done,
    };
    TodoStore {
        today: TODAY,
        list: Mutex::new(TodoList {
            tasks: vec![
                task(1, "치과 예약 전화하기", Some(Day::civil(2025, 3, 7)), true),
                task(2, "주간 보고서 제출", Some(Day::civil(2025, 3, 10)), false),
                task(3, "우유, 계란 사기", Some(Day::civil(2025, 3, 11)), false),
                task(
                    4,
                    "엄마 생신 선물 주문",
                    Some(Day::civil(2025, 3, 14)),
                    false,
                ),
                task(5, "도서관 책 반납", Some(Day::civil(2025, 3, 8)), false),
                task(6, "세탁소 코트 찾기", None, true),
            ],
            next_id: 7,
        }),
    }
}

// ---------------------------------------------------------------------------------------
// Value providers
// ---------------------------------------------------------------------------------------

/// Every task, by id, labelled with its title (and "(완료)" when done): `delete_task`'s
/// `task_id`.
fn task_ids(store: Dep<TodoStore>) -> Result<Vec<ValueChoice>, ToolError> {
    let list = store.lock()?;
    Ok(list
        .tasks
        .iter()
        .map(|task| {
            let label = if task.done {
                format!("{} (완료)", task.title)
            } else {
                task.title.clone()
            };
            ValueChoice::new(task.id, label)
        })
        .collect())
}

/// The tasks not done yet, by id, labelled with their titles: `complete_task`'s and
/// `change_due_date`'s `task_id`.
fn open_task_ids(store: Dep<TodoStore>) -> Result<Vec<ValueChoice>, ToolError> {
    let list = store.lock()?;
    Ok(list
        .tasks
        .iter()
        .filter(|task| !task.done)
        .map(|task| ValueChoice::new(task.id, task.title.as_str()))
        .collect())
}

/// The views of `list_tasks`' `status`, with the words people use for them.
fn task_filters() -> Vec<ValueChoice> {
    vec![
        ValueChoice::new("open", "미완료").with_words([
            "남은",
            "안 끝난",
            "아직",
            "해야 할",
            "안 한",
        ]),
        ValueChoice::new("done", "완료됨").with_words(["끝낸", "끝난", "완료", "다 한", "해치운"]),
        ValueChoice::new("overdue", "기한 지남").with_words(["지난", "밀린", "늦은", "넘긴"]),
        ValueChoice::new("all", "전체").with_words(["전부", "모든", "다 보여", "싹 다"]),
    ]
}

/// The ways a request writes a day by its number: "14일", "3월 14일", "3/14".
fn day_words(day: Day) -> [String; 3] {
    let (_, month, date) = day.ymd();
    [
        format!("{date}일"),
        format!("{month}월 {date}일"),
        format!("{month}/{date}"),
    ]
}

/// The due dates a call may name: `today`, `tomorrow`, then the next twelve days as
/// `YYYY-MM-DD`, each labelled with its date and weekday ("다음주 금요일" for next week's).
fn upcoming_days(store: Dep<TodoStore>) -> Vec<ValueChoice> {
    let today = store.today;
    (0..DUE_DAYS)
        .map(|ahead| {
            let day = today.plus(ahead);
            let weekday = day.weekday();
            let choice = match ahead {
                0 => ValueChoice::new("today", format!("오늘 ({day})")).with_words(["오늘"]),
                1 => ValueChoice::new("tomorrow", format!("내일 ({day})"))
                    .with_words(["내일", weekday]),
                2 => ValueChoice::new(day.to_string(), format!("모레 ({day}, {weekday})"))
                    .with_words(["모레"]),
                _ if day.week() == today.week() + 1 => {
                    ValueChoice::new(day.to_string(), format!("{day} (다음주 {weekday})"))
                        .with_words([format!("다음 주 {weekday}"), format!("다음주 {weekday}")])
                }
                _ if day.week() == today.week() => {
                    ValueChoice::new(day.to_string(), format!("{day} ({weekday})"))
                }
                _ => ValueChoice::new(day.to_string(), day.to_string()),
            };
            choice.with_words(day_words(day))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------

/// Which tasks `list_tasks` shows.
#[derive(Debug, Clone, Copy)]
enum Filter {
    /// Not done yet (the default).
    Open,
    /// Done.
    Done,
    /// Not done and due before today.
    Overdue,
    /// Every task.
    All,
}

impl Filter {
    /// Reads `status`; `None` is `open`.
    fn parse(status: Option<&str>) -> Result<Self, ToolError> {
        match status.map(str::trim).unwrap_or_default() {
            "" | "open" => Ok(Self::Open),
            "done" => Ok(Self::Done),
            "overdue" => Ok(Self::Overdue),
            "all" => Ok(Self::All),
            other => Err(ToolError::new(
                "invalid_status",
                format!(
                    "status는 open, done, overdue, all 중 하나예요 (받은 값: '{}')",
                    clip(other)
                ),
            )),
        }
    }

    /// Its wire name.
    fn name(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Done => "done",
            Self::Overdue => "overdue",
            Self::All => "all",
        }
    }

    /// Whether `task` is shown.
    fn keeps(self, task: &Task, today: Day) -> bool {
        match self {
            Self::Open => !task.done,
            Self::Done => task.done,
            Self::Overdue => !task.done && task.due.is_some_and(|day| day < today),
            Self::All => true,
        }
    }
}

/// 할 일 목록을 봅니다. 기본은 아직 안 끝낸 일이고, 끝낸 일·마감이 지난 일·전부를 보거나 마감일 하루로 거를 수 있습니다.
#[tool(label = "할 일 목록", reply = reply_task_list)]
async fn list_tasks(
    store: Dep<TodoStore>,
    /// 어떤 일을 볼지(선택): open=아직 안 끝낸 일(기본), done=끝낸 일, overdue=마감이 지난 일, all=전부
    #[values(task_filters)]
    #[from_request]
    status: Option<String>,
    /// 마감일(선택): 그날이 마감인 일만 봅니다. today, tomorrow 또는 YYYY-MM-DD
    #[values(upcoming_days)]
    #[from_request]
    due: Option<String>,
) -> Result<Value, ToolError> {
    let today = store.today;
    let filter = Filter::parse(status.as_deref())?;
    let due = due
        .as_deref()
        .map(|text| resolve_day(today, text))
        .transpose()?;
    let list = store.lock()?;
    let tasks: Vec<Value> = list
        .tasks
        .iter()
        .filter(|task| filter.keeps(task, today))
        .filter(|task| due.is_none_or(|day| task.due == Some(day)))
        .map(|task| task.to_json(today))
        .collect();
    Ok(json!({
        "today": today.to_string(),
        "status": filter.name(),
        "due": due.map(|day| day.to_string()),
        "count": tasks.len(),
        "tasks": tasks,
    }))
}

/// 제목에 낱말이 들어간 할 일을 찾습니다(끝낸 일도 포함).
#[tool(label = "할 일 검색", reply = reply_search)]
async fn search_tasks(
    store: Dep<TodoStore>,
    /// 찾을 낱말(사용자가 말한 그대로, 제목에서 찾음)
    #[schemars(length(min = 1, max = 20))]
    #[from_request]
    keyword: String,
) -> Result<Value, ToolError> {
    let keyword = keyword.trim();
    if keyword.is_empty() {
        return Err(ToolError::new("empty_keyword", "찾을 낱말이 비어 있어요"));
    }
    let needle = keyword.to_lowercase();
    let list = store.lock()?;
    let tasks: Vec<Value> = list
        .tasks
        .iter()
        .filter(|task| task.title.to_lowercase().contains(needle.as_str()))
        .map(|task| task.to_json(store.today))
        .collect();
    Ok(json!({
        "keyword": keyword,
        "count": tasks.len(),
        "tasks": tasks,
    }))
}

/// 새 할 일을 목록에 추가합니다. 마감일은 선택입니다.
#[tool(
    destructive,
    label = "할 일 추가",
    summary = "'{title}' 할 일을 추가합니다",
    reply = reply_added
)]
async fn add_task(
    store: Dep<TodoStore>,
    /// 할 일 제목(사용자가 말한 그대로, 1~50자)
    #[schemars(length(min = 1, max = 50))]
    #[from_request]
    title: String,
    /// 마감일(선택): today, tomorrow 또는 YYYY-MM-DD. 생략하면 마감 없음
    #[values(upcoming_days)]
    #[from_request]
    due: Option<String>,
) -> Result<Value, ToolError> {
    let today = store.today;
    let title = title.trim();
    if title.is_empty() {
        return Err(ToolError::new("empty_title", "할 일 제목이 비어 있어요"));
    }
    let due = due
        .as_deref()
        .map(|text| resolve_day(today, text))
        .transpose()?;
    if let Some(day) = due
        && day < today
    {
        return Err(past_date(day));
    }
    let mut list = store.lock()?;
    if list
        .tasks
        .iter()
        .any(|task| !task.done && task.title == title)
    {
        return Err(ToolError::new(
            "duplicate",
            format!("'{title}'은(는) 이미 목록에 있어요"),
        ));
    }
    let task = Task {
        id: list.next_id,
        title: title.to_owned(),
        due,
        done: false,
    };
    list.next_id += 1;
    let added = task.to_json(today);
    list.tasks.push(task);
    Ok(json!({
        "added": added,
        "open_count": list.open_count(),
    }))
}

/// 아직 안 끝낸 할 일 하나를 완료로 표시합니다.
#[tool(
    destructive,
    label = "완료 표시",
    summary = "{task_id}번 할 일을 완료로 표시합니다",
    reply = reply_completed
)]
async fn complete_task(
    store: Dep<TodoStore>,
    /// 완료할 할 일의 id(아직 안 끝낸 일)
    #[values(open_task_ids)]
    #[from_request]
    task_id: i64,
) -> Result<Value, ToolError> {
    let today = store.today;
    let mut list = store.lock()?;
    let task = list.find_mut(task_id)?;
    if task.done {
        return Err(ToolError::new(
            "already_done",
            format!("{task_id}번 '{}'은(는) 이미 끝낸 일이에요", task.title),
        ));
    }
    task.done = true;
    let completed = task.to_json(today);
    Ok(json!({
        "completed": completed,
        "open_left": list.open_count(),
    }))
}

/// 할 일 하나를 목록에서 지웁니다. 되돌릴 수 없습니다.
#[tool(
    destructive,
    label = "할 일 삭제",
    summary = "{task_id}번 할 일을 삭제합니다",
    reply = reply_deleted
)]
async fn delete_task(
    store: Dep<TodoStore>,
    /// 지울 할 일의 id
    #[values(task_ids)]
    #[from_request]
    task_id: i64,
) -> Result<Value, ToolError> {
    let mut list = store.lock()?;
    let index = list
        .tasks
        .iter()
        .position(|task| task.id == task_id)
        .ok_or_else(|| not_found(task_id))?;
    let task = list.tasks.remove(index);
    Ok(json!({
        "deleted": task.to_json(store.today),
        "remaining": list.tasks.len(),
    }))
}

/// 아직 안 끝낸 할 일의 마감일을 바꿉니다.
#[tool(
    destructive,
    label = "마감일 변경",
    summary = "{task_id}번 할 일의 마감일을 {due}(으)로 바꿉니다",
    reply = reply_rescheduled
)]
async fn change_due_date(
    store: Dep<TodoStore>,
    /// 마감일을 바꿀 할 일의 id(아직 안 끝낸 일)
    #[values(open_task_ids)]
    #[from_request]
    task_id: i64,
    /// 새 마감일: today, tomorrow 또는 YYYY-MM-DD
    #[values(upcoming_days)]
    #[from_request]
    due: String,
) -> Result<Value, ToolError> {
    let today = store.today;
    let day = resolve_day(today, &due)?;
    if day < today {
        return Err(past_date(day));
    }
    let mut list = store.lock()?;
    let task = list.find_mut(task_id)?;
    if task.done {
        return Err(ToolError::new(
            "already_done",
            format!("{task_id}번 '{}'은(는) 이미 끝낸 일이에요", task.title),
        ));
    }
    let previous = task.due.map(|day| day.to_string());
    task.due = Some(day);
    Ok(json!({
        "task": task.to_json(today),
        "previous_due": previous,
    }))
}

// ---------------------------------------------------------------------------------------
// Replies: each tool's own sentence about a successful result
// ---------------------------------------------------------------------------------------

/// "#2 주간 보고서 제출, #3 우유, 계란 사기 …" for the first three tasks of a list.
fn titles(tasks: &[Value]) -> String {
    let mut names: Vec<String> = tasks
        .iter()
        .take(3)
        .filter_map(|task| {
            let id = task.get("id")?.as_i64()?;
            let title = task.get("title")?.as_str()?;
            Some(format!("#{id} {title}"))
        })
        .collect();
    if tasks.len() > 3 {
        names.push("…".to_owned());
    }
    names.join(", ")
}

/// `list_tasks`: how many, and which.
fn reply_task_list(data: &Value) -> Option<String> {
    let tasks = data.get("tasks")?.as_array()?;
    if tasks.is_empty() {
        return Some("해당하는 할 일이 없어요.".to_owned());
    }
    Some(format!("할 일 {}개: {}", tasks.len(), titles(tasks)))
}

/// `search_tasks`: what was found for the keyword.
fn reply_search(data: &Value) -> Option<String> {
    let keyword = data.get("keyword")?.as_str()?;
    let tasks = data.get("tasks")?.as_array()?;
    if tasks.is_empty() {
        return Some(format!("'{keyword}'이(가) 들어간 할 일은 없어요."));
    }
    Some(format!(
        "'{keyword}'(으)로 {}개 찾았어요: {}",
        tasks.len(),
        titles(tasks)
    ))
}

/// The id and title of the task under `key`.
fn task_of(data: &Value, key: &str) -> Option<(i64, String)> {
    let task = data.get(key)?;
    Some((
        task.get("id")?.as_i64()?,
        task.get("title")?.as_str()?.to_owned(),
    ))
}

/// `add_task`: the new task and its due date.
fn reply_added(data: &Value) -> Option<String> {
    let (id, title) = task_of(data, "added")?;
    let due = data
        .get("added")
        .and_then(|task| task.get("due_in_words"))
        .and_then(Value::as_str);
    Some(match due {
        Some(due) => format!("#{id} '{title}'을(를) 추가했어요 (마감: {due})."),
        None => format!("#{id} '{title}'을(를) 추가했어요."),
    })
}

/// `complete_task`: the task done and how many are left.
fn reply_completed(data: &Value) -> Option<String> {
    let (id, title) = task_of(data, "completed")?;
    let left = data.get("open_left")?.as_u64()?;
    Some(format!(
        "#{id} '{title}' 완료로 표시했어요. 남은 할 일은 {left}개예요."
    ))
}

/// `delete_task`: the task removed.
fn reply_deleted(data: &Value) -> Option<String> {
    let (id, title) = task_of(data, "deleted")?;
    Some(format!("#{id} '{title}'을(를) 목록에서 지웠어요."))
}

/// `change_due_date`: the task and its new due date.
fn reply_rescheduled(data: &Value) -> Option<String> {
    let (id, title) = task_of(data, "task")?;
    let task = data.get("task")?;
    let due = task.get("due")?.as_str()?;
    let words = task.get("due_in_words")?.as_str()?;
    Some(format!(
        "#{id} '{title}'의 마감일을 {words}({due})(으)로 바꿨어요."
    ))
}

// ---------------------------------------------------------------------------------------
// Registry and examples
// ---------------------------------------------------------------------------------------

/// One tool's examples: each request should lead to one call of `tool` with its arguments.
fn examples_of(tool: &str, cases: [(&str, Value); 8]) -> Vec<Example> {
    cases
        .into_iter()
        .map(|(request, args)| Example::new(request).call(tool, args))
        .collect()
}

/// Eight examples per tool, each tool's in the order they were written (the first three are
/// the ones written first). Ids and dates match [`seeded`].
fn tool_examples() -> [Vec<Example>; 6] {
    [
        examples_of(
            "list_tasks",
            [
                ("할 일 목록 보여줘", json!({})),
                ("오늘 할 일 뭐야?", json!({"due": "today"})),
                ("끝낸 일들 보여줘", json!({"status": "done"})),
                ("마감 지난 거 있어?", json!({"status": "overdue"})),
                ("내일 마감인 일 뭐 있어?", json!({"due": "tomorrow"})),
                ("전체 할 일 다 보여줘", json!({"status": "all"})),
                ("14일에 해야 할 일 있나?", json!({"due": "2025-03-14"})),
                ("아직 안 한 일 뭐 남았지?", json!({"status": "open"})),
            ],
        ),
        examples_of(
            "search_tasks",
            [
                ("보고서 관련 할 일 찾아줘", json!({"keyword": "보고서"})),
                ("우유 사는 거 할 일에 있어?", json!({"keyword": "우유"})),
                ("선물 검색해줘", json!({"keyword": "선물"})),
                ("도서관 할 일 있었나?", json!({"keyword": "도서관"})),
                ("치과 들어간 할 일 찾아봐", json!({"keyword": "치과"})),
                ("'코트'로 검색", json!({"keyword": "코트"})),
                ("엄마 관련된 거 뭐 있었지?", json!({"keyword": "엄마"})),
                ("계란 찾아줘", json!({"keyword": "계란"})),
            ],
        ),
        examples_of(
            "add_task",
            [
                ("할 일 추가: 세탁기 청소", json!({"title": "세탁기 청소"})),
                (
                    "내일까지 은행 가기 추가해줘",
                    json!({"title": "은행 가기", "due": "tomorrow"}),
                ),
                (
                    "금요일까지 발표 자료 만들기 추가",
                    json!({"title": "발표 자료 만들기", "due": "2025-03-14"}),
                ),
                (
                    "오늘 할 일로 택배 보내기 넣어줘",
                    json!({"title": "택배 보내기", "due": "today"}),
                ),
                (
                    "3월 20일 마감으로 세금 신고 추가해줘",
                    json!({"title": "세금 신고", "due": "2025-03-20"}),
                ),
                (
                    "잊지 않게 화분 물 주기 적어줘",
                    json!({"title": "화분 물 주기"}),
                ),
                (
                    "모레까지 이력서 수정 할 일 추가",
                    json!({"title": "이력서 수정", "due": "2025-03-12"}),
                ),
                (
                    "할 일에 영양제 사기 추가해줘",
                    json!({"title": "영양제 사기"}),
                ),
            ],
        ),
        examples_of(
            "complete_task",
            [
                ("2번 할 일 완료했어", json!({"task_id": 2})),
                ("우유랑 계란 샀어, 완료 처리해줘", json!({"task_id": 3})),
                ("도서관 책 반납했어", json!({"task_id": 5})),
                ("4번 끝났어", json!({"task_id": 4})),
                ("보고서 제출 끝!", json!({"task_id": 2})),
                ("엄마 선물 주문 완료", json!({"task_id": 4})),
                ("3번 체크해줘", json!({"task_id": 3})),
                ("5번 다 했어", json!({"task_id": 5})),
            ],
        ),
        examples_of(
            "delete_task",
            [
                ("3번 할 일 삭제해줘", json!({"task_id": 3})),
                ("세탁소 할 일 지워줘", json!({"task_id": 6})),
                ("1번 지워", json!({"task_id": 1})),
                ("치과 예약 전화하기는 목록에서 빼줘", json!({"task_id": 1})),
                ("6번 할 일 없애줘", json!({"task_id": 6})),
                (
                    "도서관 책 반납은 이제 필요 없어, 지워줘",
                    json!({"task_id": 5}),
                ),
                ("4번 삭제", json!({"task_id": 4})),
                ("보고서 할 일 목록에서 지워줘", json!({"task_id": 2})),
            ],
        ),
        examples_of(
            "change_due_date",
            [
                (
                    "2번 마감일 내일로 바꿔줘",
                    json!({"task_id": 2, "due": "tomorrow"}),
                ),
                (
                    "엄마 생신 선물 주문 마감을 3월 13일로 변경",
                    json!({"task_id": 4, "due": "2025-03-13"}),
                ),
                (
                    "도서관 책 반납 오늘까지로 미뤄줘",
                    json!({"task_id": 5, "due": "today"}),
                ),
                (
                    "3번은 모레로 미룰게",
                    json!({"task_id": 3, "due": "2025-03-12"}),
                ),
                (
                    "4번 마감 다음 주 월요일로",
                    json!({"task_id": 4, "due": "2025-03-17"}),
                ),
                (
                    "5번 기한을 15일로 바꿔",
                    json!({"task_id": 5, "due": "2025-03-15"}),
                ),
                (
                    "보고서 제출 마감 금요일로 연기해줘",
                    json!({"task_id": 2, "due": "2025-03-14"}),
                ),
                (
                    "우유 사기 날짜 오늘로 당겨줘",
                    json!({"task_id": 3, "due": "today"}),
                ),
            ],
        ),
    ]
}

/// Requests that need no tool, with the answer's words; always included.
fn chat_examples() -> [Example; 3] {
    [
        Example::new("안녕하세요").answer("안녕하세요! 할 일을 추가하거나 목록을 보여 드릴까요?"),
        Example::new("고마워").answer("천만에요. 또 필요하면 불러 주세요."),
        Example::new("너는 뭘 할 수 있어?")
            .answer("할 일을 추가하고, 찾고, 완료로 표시하거나 지우고, 마감일을 바꿀 수 있어요."),
    ]
}

/// The to-do tools, `store` as their dependency, the first `examples_per_tool` examples of
/// each tool (0 to 8) and the three chat examples. Tools are added one by one, not with
/// `discover()`, because other domains live in the same binary.
pub(crate) fn registry_builder(store: TodoStore, examples_per_tool: usize) -> RegistryBuilder {
    let builder = Registry::builder()
        .tool::<list_tasks>()
        .tool::<search_tasks>()
        .tool::<add_task>()
        .tool::<complete_task>()
        .tool::<delete_task>()
        .tool::<change_due_date>()
        .dependency(store);
    tool_examples()
        .into_iter()
        .flat_map(|examples| examples.into_iter().take(examples_per_tool))
        .chain(chat_examples())
        .fold(builder, RegistryBuilder::example)
}
