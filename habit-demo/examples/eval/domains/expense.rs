//! 가계부 — a Korean expense tracker, as a test domain for the tool-choice eval.
//!
//! This file was written the way a developer new to agent-rs would write it, from the README
//! and the `agent_core` crate docs only (the `#[tool]` reference, [`ValueChoice`], [`Example`],
//! [`RegistryBuilder`], [`ToolError`], [`Dep`]) — not tuned on the habit coach's examples or
//! its eval requests. It declares six tools over an in-memory ledger:
//!
//! | tool | kind |
//! |---|---|
//! | `add_expense` | destructive |
//! | `list_expenses` | read-only |
//! | `monthly_summary` | read-only |
//! | `budget_status` | read-only |
//! | `set_budget` | destructive |
//! | `delete_expense` | destructive |
//!
//! Amounts are whole won (`i64`). "Today" is fixed at 2025-03-10 (a Monday) and kept in the
//! store; nothing reads the system clock. [`seeded`] gives the starting state (eight expenses
//! of early March 2025, ids 1–8, and monthly budgets for 식비 and 카페), [`registry_builder`]
//! the tools with eight examples each cut to the first N, plus three requests that need no
//! tool. Eval binaries include it with `#[path = "eval/domains/expense.rs"] mod expense;`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Mutex, MutexGuard};

use agent_core::{Dep, Example, Registry, RegistryBuilder, ToolError, ValueChoice, tool};
use serde_json::{Value, json};

/// The system instruction of the expense assistant.
pub(crate) const INSTRUCTIONS: &str = "당신은 '가계부' 도우미입니다. 사용자가 쓴 돈을 기록하고, \
지우고, 분류별 한 달 예산을 정하고, 지출 내역과 월별 요약, 예산 현황을 보여 줍니다. \
오늘은 2025년 3월 10일 월요일입니다. 금액은 원 단위 숫자로 다룹니다. \
도구 결과에 있는 숫자만 말하고, 한국어로 짧고 친절하게 답하세요. 가계부와 상관없는 말에는 도구 없이 답하세요.";

/// The fixed "today" of this domain.
const TODAY: Day = Day::civil(2025, 3, 10);

/// How many days, today included, an expense may be dated back (`recent_days`).
const RECENT_DAYS: i64 = 14;

/// The expense categories, each with other words people use for it.
const CATEGORIES: [(&str, &[&str]); 8] = [
    (
        "식비",
        &[
            "밥",
            "점심",
            "저녁",
            "아침",
            "식당",
            "배달",
            "장보기",
            "마트",
            "외식",
            "간식",
            "김밥",
            "치킨",
        ],
    ),
    (
        "카페",
        &[
            "커피",
            "아메리카노",
            "라떼",
            "음료",
            "디저트",
            "케이크",
            "빵",
        ],
    ),
    (
        "교통",
        &[
            "버스",
            "지하철",
            "택시",
            "기름",
            "주유",
            "교통카드",
            "기차",
            "KTX",
        ],
    ),
    (
        "쇼핑",
        &["옷", "신발", "운동화", "온라인", "쿠팡", "화장품"],
    ),
    (
        "생활",
        &[
            "관리비",
            "통신비",
            "휴대폰",
            "전기",
            "가스",
            "생필품",
            "세제",
            "월세",
        ],
    ),
    (
        "문화",
        &[
            "문화생활",
            "영화",
            "책",
            "공연",
            "넷플릭스",
            "구독",
            "게임",
            "전시",
        ],
    ),
    ("의료", &["병원", "약국", "약값", "치과"]),
    ("기타", &["선물", "경조사", "축의금"]),
];

// ---------------------------------------------------------------------------------------
// Dates and money
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

    /// Reads `YYYY-MM` as the first day of that month.
    fn parse_month(text: &str) -> Option<Self> {
        let (year, month) = text.split_once('-')?;
        if !digits(year, 4) || !digits(month, 2) {
            return None;
        }
        let year: i64 = year.parse().ok()?;
        let month: i64 = month.parse().ok()?;
        if (1..=12).contains(&month) {
            Some(Self::civil(year, month, 1))
        } else {
            None
        }
    }

    /// The day `days` later (earlier when negative).
    fn plus(self, days: i64) -> Self {
        Self(self.0 + days)
    }

    /// The week it falls in, counted in weeks that start on Monday.
    fn week(self) -> i64 {
        (self.0 + 3).div_euclid(7)
    }

    /// Days since the Monday of its week (0 on Monday, 6 on Sunday).
    fn days_since_monday(self) -> i64 {
        (self.0 + 3).rem_euclid(7)
    }

    /// The day of the week in Korean ("월요일").
    fn weekday(self) -> &'static str {
        match self.days_since_monday() {
            0 => "월요일",
            1 => "화요일",
            2 => "수요일",
            3 => "목요일",
            4 => "금요일",
            5 => "토요일",
            _ => "일요일",
        }
    }

    /// The first day of its month.
    fn first_of_month(self) -> Self {
        let (year, month, _) = self.ymd();
        Self::civil(year, month, 1)
    }

    /// The last day of its month.
    fn last_of_month(self) -> Self {
        let (year, month, _) = self.ymd();
        Self::civil(year, month, days_in_month(year, month))
    }

    /// Its month as `YYYY-MM`.
    fn month_key(self) -> String {
        let (year, month, _) = self.ymd();
        format!("{year:04}-{month:02}")
    }

    /// Its month in words: "2025년 3월".
    fn month_in_words(self) -> String {
        let (year, month, _) = self.ymd();
        format!("{year}년 {month}월")
    }

    /// The day in words: "3월 8일".
    fn in_words(self) -> String {
        let (_, month, day) = self.ymd();
        format!("{month}월 {day}일")
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = self.ymd();
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

/// Whether `text` is exactly `len` ASCII digits.
fn digits(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_digit())
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

/// An amount as people write it: "12,000원".
fn won(amount: i64) -> String {
    let digits = amount.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if amount < 0 { "-" } else { "" };
    format!("{sign}{grouped}원")
}

/// At most 30 characters of what a caller sent, for an error's reason.
fn clip(text: &str) -> String {
    text.chars().take(30).collect()
}

/// Reads a date argument: `today`, `yesterday` (or 오늘, 어제, 그저께) or `YYYY-MM-DD`.
/// Anything else is an `invalid_date` error.
fn resolve_day(today: Day, text: &str) -> Result<Day, ToolError> {
    let text = text.trim();
    let offset = match text.to_lowercase().as_str() {
        "today" | "오늘" => Some(0),
        "yesterday" | "어제" => Some(-1),
        "그저께" | "그제" => Some(-2),
        _ => None,
    };
    if let Some(offset) = offset {
        return Ok(today.plus(offset));
    }
    Day::parse_iso(text).ok_or_else(|| {
        ToolError::new(
            "invalid_date",
            format!(
                "날짜는 today, yesterday 또는 YYYY-MM-DD로 주세요 (받은 값: '{}')",
                clip(text)
            ),
        )
    })
}

/// Reads a month argument (`YYYY-MM`, or `this_month`/`last_month`) as its first day; `None`
/// or empty is this month. Anything else is an `invalid_month` error.
fn resolve_month(today: Day, text: Option<&str>) -> Result<Day, ToolError> {
    let this_month = today.first_of_month();
    match text.map(str::trim).unwrap_or_default() {
        "" | "this_month" | "이번 달" | "이번달" => Ok(this_month),
        "last_month" | "지난달" | "지난 달" => Ok(this_month.plus(-1).first_of_month()),
        other => Day::parse_month(other).ok_or_else(|| {
            ToolError::new(
                "invalid_month",
                format!("달은 YYYY-MM으로 주세요 (받은 값: '{}')", clip(other)),
            )
        }),
    }
}

/// The category named `name`, or an `unknown_category` error listing the categories.
fn category_named(name: &str) -> Result<&'static str, ToolError> {
    let name = name.trim();
    CATEGORIES
        .iter()
        .map(|(category, _)| *category)
        .find(|category| *category == name)
        .ok_or_else(|| {
            let all: Vec<&str> = CATEGORIES.iter().map(|(category, _)| *category).collect();
            ToolError::new(
                "unknown_category",
                format!(
                    "분류는 {} 중 하나예요 (받은 값: '{}')",
                    all.join(", "),
                    clip(name)
                ),
            )
        })
}

// ---------------------------------------------------------------------------------------
// Periods
// ---------------------------------------------------------------------------------------

/// The periods `list_expenses` can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Period {
    /// Today.
    Today,
    /// Yesterday.
    Yesterday,
    /// Monday to Sunday of this week.
    ThisWeek,
    /// Monday to Sunday of last week.
    LastWeek,
    /// This calendar month (the default).
    ThisMonth,
    /// Last calendar month.
    LastMonth,
}

impl Period {
    /// Every period, in the order the provider lists them.
    const ALL: [Self; 6] = [
        Self::Today,
        Self::Yesterday,
        Self::ThisWeek,
        Self::LastWeek,
        Self::ThisMonth,
        Self::LastMonth,
    ];

    /// Its wire name.
    fn value(self) -> &'static str {
        match self {
            Self::Today => "today",
            Self::Yesterday => "yesterday",
            Self::ThisWeek => "this_week",
            Self::LastWeek => "last_week",
            Self::ThisMonth => "this_month",
            Self::LastMonth => "last_month",
        }
    }

    /// Its Korean name.
    fn label(self) -> &'static str {
        match self {
            Self::Today => "오늘",
            Self::Yesterday => "어제",
            Self::ThisWeek => "이번주",
            Self::LastWeek => "지난주",
            Self::ThisMonth => "이번달",
            Self::LastMonth => "지난달",
        }
    }

    /// Other words people use for it.
    fn words(self) -> &'static [&'static str] {
        match self {
            Self::Today => &["오늘"],
            Self::Yesterday => &["어제", "어젯"],
            Self::ThisWeek => &["이번 주", "요번 주"],
            Self::LastWeek => &["지난 주", "저번 주", "저번주"],
            Self::ThisMonth => &["이번 달", "요번 달"],
            Self::LastMonth => &["지난 달", "저번 달", "저번달"],
        }
    }

    /// Reads `period`; `None` or empty is this month.
    fn parse(period: Option<&str>) -> Result<Self, ToolError> {
        let text = period.map(str::trim).unwrap_or_default();
        if text.is_empty() {
            return Ok(Self::ThisMonth);
        }
        Self::ALL
            .into_iter()
            .find(|period| period.value() == text)
            .ok_or_else(|| {
                ToolError::new(
                    "invalid_period",
                    format!(
                        "period는 today, yesterday, this_week, last_week, this_month, last_month 중 하나예요 (받은 값: '{}')",
                        clip(text)
                    ),
                )
            })
    }

    /// The first and last day of the period, seen from `today`.
    fn range(self, today: Day) -> (Day, Day) {
        let monday = today.plus(-today.days_since_monday());
        let first = today.first_of_month();
        match self {
            Self::Today => (today, today),
            Self::Yesterday => (today.plus(-1), today.plus(-1)),
            Self::ThisWeek => (monday, monday.plus(6)),
            Self::LastWeek => (monday.plus(-7), monday.plus(-1)),
            Self::ThisMonth => (first, today.last_of_month()),
            Self::LastMonth => (first.plus(-1).first_of_month(), first.plus(-1)),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------

/// One expense.
#[derive(Debug, Clone)]
struct Expense {
    /// Its id, shown to the user ("3번").
    id: i64,
    /// The day the money was spent.
    date: Day,
    /// One of [`CATEGORIES`].
    category: &'static str,
    /// Whole won, at least 1.
    amount: i64,
    /// What it was for, if the user said.
    memo: Option<String>,
}

impl Expense {
    /// The expense as the tools return it.
    fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "date": self.date.to_string(),
            "category": self.category,
            "amount": self.amount,
            "memo": self.memo,
        })
    }
}

/// The expenses, the monthly budgets and the id the next expense gets.
#[derive(Debug)]
struct Ledger {
    /// Every expense, in the order recorded.
    expenses: Vec<Expense>,
    /// Monthly budget (won) per category; a category without one is absent.
    budgets: BTreeMap<&'static str, i64>,
    /// The id of the next expense recorded.
    next_id: i64,
}

impl Ledger {
    /// The expenses dated `from` to `to` (both included), in the order recorded.
    fn between(&self, from: Day, to: Day) -> impl Iterator<Item = &Expense> {
        self.expenses
            .iter()
            .filter(move |expense| (from..=to).contains(&expense.date))
    }

    /// How much was spent on `category` from `from` to `to`.
    fn spent(&self, category: &str, from: Day, to: Day) -> i64 {
        self.between(from, to)
            .filter(|expense| expense.category == category)
            .map(|expense| expense.amount)
            .sum()
    }
}

/// The expense store the tools share (their `Dep<ExpenseBook>`): the ledger and the fixed
/// "today".
#[derive(Debug)]
pub(crate) struct ExpenseBook {
    /// Today, fixed for the whole session.
    today: Day,
    /// The ledger, behind a lock.
    ledger: Mutex<Ledger>,
}

impl ExpenseBook {
    /// Locks the ledger (a poisoned lock is a `storage` error, not a panic).
    fn lock(&self) -> Result<MutexGuard<'_, Ledger>, ToolError> {
        self.ledger
            .lock()
            .map_err(|_| ToolError::new("storage", "가계부를 읽지 못했어요"))
    }
}

/// The starting state: today is 2025-03-10 (Monday); eight expenses from 2025-03-01 to
/// 2025-03-09 (ids 1–8); monthly budgets of 300,000원 for 식비 and 50,000원 for 카페.
pub(crate) fn seeded() -> ExpenseBook {
    let expense = |id: i64, day: i64, category: &'static str, amount: i64, memo: &str| Expense {
        id,
        date: Day::civil(2025, 3, day),
        category,
        amount,
        memo: Some(memo.to_owned()),
    };
    ExpenseBook {
        today: TODAY,
        ledger: Mutex::new(Ledger {
            expenses: vec![
                expense(1, 1, "식비", 32_000, "마트 장보기"),
                expense(2, 2, "카페", 5_500, "아메리카노"),
                expense(3, 3, "교통", 50_000, "교통카드 충전"),
                expense(4, 4, "식비", 9_000, "점심 김치찌개"),
                expense(5, 5, "문화", 15_000, "영화"),
                expense(6, 7, "생활", 68_000, "휴대폰 요금"),
                expense(7, 8, "카페", 6_800, "라떼와 케이크"),
                expense(8, 9, "식비", 27_000, "저녁 치킨 배달"),
            ],
            budgets: BTreeMap::from([("식비", 300_000), ("카페", 50_000)]),
            next_id: 9,
        }),
    }
}

// ---------------------------------------------------------------------------------------
// Value providers
// ---------------------------------------------------------------------------------------

/// The categories, each labelled with itself and with the other words people use for it
/// (`커피` is about 카페).
fn categories() -> Vec<ValueChoice> {
    CATEGORIES
        .iter()
        .map(|(name, words)| ValueChoice::new(*name, *name).with_words(words.iter().copied()))
        .collect()
}

/// The ways a request writes a day by its number: "8일", "3월 8일", "3/8".
fn day_words(day: Day) -> [String; 3] {
    let (_, month, date) = day.ymd();
    [
        format!("{date}일"),
        format!("{month}월 {date}일"),
        format!("{month}/{date}"),
    ]
}

/// The days an expense may be dated: `today`, `yesterday`, then the twelve days before as
/// `YYYY-MM-DD`, each labelled with its date and weekday ("지난주 금요일" for last week's).
fn recent_days(book: Dep<ExpenseBook>) -> Vec<ValueChoice> {
    let today = book.today;
    (0..RECENT_DAYS)
        .map(|back| {
            let day = today.plus(-back);
            let weekday = day.weekday();
            let choice = match back {
                0 => ValueChoice::new("today", format!("오늘 ({day})")).with_words(["오늘"]),
                1 => ValueChoice::new("yesterday", format!("어제 ({day}, {weekday})"))
                    .with_words(["어제", "어젯"]),
                2 => ValueChoice::new(day.to_string(), format!("그저께 ({day}, {weekday})"))
                    .with_words(["그저께", "그제"]),
                _ if day.week() == today.week() => {
                    ValueChoice::new(day.to_string(), format!("{day} ({weekday})"))
                }
                _ if day.week() + 1 == today.week() => {
                    ValueChoice::new(day.to_string(), format!("{day} (지난주 {weekday})"))
                        .with_words([format!("지난 주 {weekday}"), format!("저번 주 {weekday}")])
                }
                _ => ValueChoice::new(day.to_string(), day.to_string()),
            };
            choice.with_words(day_words(day))
        })
        .collect()
}

/// The periods of `list_expenses`, labelled with their dates; this and last month are also
/// mentioned by their number ("3월").
fn periods(book: Dep<ExpenseBook>) -> Vec<ValueChoice> {
    let today = book.today;
    Period::ALL
        .into_iter()
        .map(|period| {
            let (from, to) = period.range(today);
            let span = if from == to {
                from.to_string()
            } else {
                format!("{from}~{to}")
            };
            let choice = ValueChoice::new(period.value(), format!("{} ({span})", period.label()))
                .with_words(period.words().iter().copied());
            if matches!(period, Period::ThisMonth | Period::LastMonth) {
                let (_, month, _) = from.ymd();
                choice.with_words([format!("{month}월")])
            } else {
                choice
            }
        })
        .collect()
}

/// The months `monthly_summary` may name: this month, last month and the one before, as
/// `YYYY-MM`, labelled "이번달 (2025년 3월)".
fn months(book: Dep<ExpenseBook>) -> Vec<ValueChoice> {
    let this = book.today.first_of_month();
    let last = this.plus(-1).first_of_month();
    let before = last.plus(-1).first_of_month();
    vec![
        ValueChoice::new(
            this.month_key(),
            format!("이번달 ({})", this.month_in_words()),
        )
        .with_words(["이번 달", "요번 달"]),
        ValueChoice::new(
            last.month_key(),
            format!("지난달 ({})", last.month_in_words()),
        )
        .with_words(["지난 달", "저번 달", "저번달"]),
        ValueChoice::new(before.month_key(), before.month_in_words()),
    ]
}

/// Every expense, by id, labelled "3/8 카페 6800원 라떼와 케이크"; its day ("8일", and
/// "오늘"/"어제") mentions it too.
fn expense_ids(book: Dep<ExpenseBook>) -> Result<Vec<ValueChoice>, ToolError> {
    let today = book.today;
    let ledger = book.lock()?;
    Ok(ledger
        .expenses
        .iter()
        .map(|expense| {
            let (_, month, day) = expense.date.ymd();
            let mut label = format!("{month}/{day} {} {}원", expense.category, expense.amount);
            if let Some(memo) = &expense.memo {
                label.push(' ');
                label.push_str(memo);
            }
            let mut words = vec![format!("{day}일"), format!("{month}월 {day}일")];
            if expense.date == today {
                words.push("오늘".to_owned());
            } else if expense.date == today.plus(-1) {
                words.push("어제".to_owned());
            }
            ValueChoice::new(expense.id, label).with_words(words)
        })
        .collect())
}

// ---------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------

/// 지출 한 건을 가계부에 기록합니다. 날짜를 말하지 않으면 오늘 쓴 것으로 기록합니다.
#[tool(
    destructive,
    label = "지출 기록",
    summary = "{category} {amount}원 지출을 기록합니다",
    reply = reply_added
)]
async fn add_expense(
    book: Dep<ExpenseBook>,
    /// 금액(원). 5천원은 5000, 3만원은 30000처럼 숫자로
    #[schemars(range(min = 1, max = 10_000_000))]
    #[from_request]
    amount: i64,
    /// 분류: 식비, 카페, 교통, 쇼핑, 생활, 문화, 의료, 기타 중 하나
    #[values(categories)]
    #[from_request]
    category: String,
    /// 메모(선택): 무엇에 썼는지 짧게
    #[schemars(length(max = 40))]
    #[from_request]
    memo: Option<String>,
    /// 날짜(선택): 생략하면 오늘. 어제는 yesterday, 그 밖의 날은 YYYY-MM-DD
    #[values(recent_days)]
    #[from_request]
    date: Option<String>,
) -> Result<Value, ToolError> {
    let today = book.today;
    if amount < 1 {
        return Err(ToolError::new(
            "invalid_amount",
            "금액은 1원 이상이어야 해요",
        ));
    }
    let category = category_named(&category)?;
    let date = match date.as_deref() {
        Some(text) => resolve_day(today, text)?,
        None => today,
    };
    if date > today {
        return Err(ToolError::new(
            "future_date",
            format!("{date}은(는) 아직 오지 않은 날이에요. 쓴 날을 알려 주세요"),
        ));
    }
    let memo = memo
        .map(|memo| memo.trim().to_owned())
        .filter(|memo| !memo.is_empty());
    let mut ledger = book.lock()?;
    let expense = Expense {
        id: ledger.next_id,
        date,
        category,
        amount,
        memo,
    };
    ledger.next_id += 1;
    let added = expense.to_json();
    ledger.expenses.push(expense);
    let spent = ledger.spent(category, date.first_of_month(), date.last_of_month());
    let budget = ledger.budgets.get(category).copied();
    Ok(json!({
        "added": added,
        "month": date.month_key(),
        "category_spent_this_month": spent,
        "budget": budget,
        "budget_left": budget.map(|budget| budget - spent),
    }))
}

/// 기간과 분류로 지출 내역을 봅니다. 기간을 말하지 않으면 이번 달 내역입니다.
#[tool(label = "지출 내역", reply = reply_list)]
async fn list_expenses(
    book: Dep<ExpenseBook>,
    /// 기간(선택): today, yesterday, this_week, last_week, this_month(기본), last_month
    #[values(periods)]
    #[from_request]
    period: Option<String>,
    /// 분류(선택): 식비, 카페, 교통, 쇼핑, 생활, 문화, 의료, 기타
    #[values(categories)]
    #[from_request]
    category: Option<String>,
) -> Result<Value, ToolError> {
    let period = Period::parse(period.as_deref())?;
    let category = category.as_deref().map(category_named).transpose()?;
    let (from, to) = period.range(book.today);
    let ledger = book.lock()?;
    let mut found: Vec<&Expense> = ledger
        .between(from, to)
        .filter(|expense| category.is_none_or(|category| expense.category == category))
        .collect();
    found.sort_by_key(|expense| (expense.date, expense.id));
    let total: i64 = found.iter().map(|expense| expense.amount).sum();
    let expenses: Vec<Value> = found.iter().map(|expense| expense.to_json()).collect();
    Ok(json!({
        "period": period.value(),
        "from": from.to_string(),
        "to": to.to_string(),
        "category": category,
        "count": expenses.len(),
        "total": total,
        "expenses": expenses,
    }))
}

/// 한 달 동안 쓴 돈의 합계와 분류별 합계를 봅니다. 달을 말하지 않으면 이번 달입니다.
#[tool(label = "월별 요약", reply = reply_summary)]
async fn monthly_summary(
    book: Dep<ExpenseBook>,
    /// 달(선택): YYYY-MM. 생략하면 이번 달
    #[values(months)]
    #[from_request]
    month: Option<String>,
) -> Result<Value, ToolError> {
    let first = resolve_month(book.today, month.as_deref())?;
    let last = first.last_of_month();
    let ledger = book.lock()?;
    let in_month: Vec<&Expense> = ledger.between(first, last).collect();
    let total: i64 = in_month.iter().map(|expense| expense.amount).sum();
    let mut by_category: Vec<(&str, i64, usize)> = Vec::new();
    for (name, _) in CATEGORIES {
        let (sum, count) = in_month
            .iter()
            .filter(|expense| expense.category == name)
            .fold((0_i64, 0_usize), |(sum, count), expense| {
                (sum + expense.amount, count + 1)
            });
        if count > 0 {
            by_category.push((name, sum, count));
        }
    }
    by_category.sort_by_key(|&(_, sum, _)| std::cmp::Reverse(sum));
    let by_category: Vec<Value> = by_category
        .into_iter()
        .map(|(name, sum, count)| {
            json!({
                "category": name,
                "total": sum,
                "count": count,
                "share_percent": (sum * 100).checked_div(total).unwrap_or(0),
            })
        })
        .collect();
    Ok(json!({
        "month": first.month_key(),
        "month_in_words": first.month_in_words(),
        "count": in_month.len(),
        "total": total,
        "by_category": by_category,
    }))
}

/// 이번 달 예산 대비 쓴 돈과 남은 돈을 분류별로 봅니다.
#[tool(label = "예산 현황", reply = reply_budget_status)]
async fn budget_status(
    book: Dep<ExpenseBook>,
    /// 분류(선택): 생략하면 예산을 정한 모든 분류
    #[values(categories)]
    #[from_request]
    category: Option<String>,
) -> Result<Value, ToolError> {
    let today = book.today;
    let (from, to) = (today.first_of_month(), today.last_of_month());
    let wanted = category.as_deref().map(category_named).transpose()?;
    let ledger = book.lock()?;
    if let Some(name) = wanted
        && !ledger.budgets.contains_key(name)
    {
        return Err(ToolError::new(
            "no_budget",
            format!("{name} 예산은 아직 정하지 않았어요"),
        ));
    }
    let budgets: Vec<Value> = ledger
        .budgets
        .iter()
        .filter(|&(name, _)| wanted.is_none_or(|wanted| wanted == *name))
        .map(|(name, budget)| {
            let spent = ledger.spent(name, from, to);
            json!({
                "category": name,
                "budget": budget,
                "spent": spent,
                "remaining": budget - spent,
                "used_percent": (spent * 100).checked_div(*budget).unwrap_or(0),
                "over": spent > *budget,
            })
        })
        .collect();
    Ok(json!({
        "month": today.month_key(),
        "month_in_words": today.month_in_words(),
        "budgets": budgets,
    }))
}

/// The confirmation line of a `set_budget` call.
fn budget_summary(category: &str, amount: i64) -> String {
    if amount == 0 {
        format!("{category} 예산을 없앱니다")
    } else {
        format!("{category} 한 달 예산을 {}으로 정합니다", won(amount))
    }
}

/// 분류 하나의 한 달 예산을 정하거나 바꿉니다. 0원으로 정하면 그 분류의 예산을 없앱니다.
#[tool(
    destructive,
    label = "예산 설정",
    summary = budget_summary(category, *amount),
    reply = reply_budget_set
)]
async fn set_budget(
    book: Dep<ExpenseBook>,
    /// 예산을 정할 분류: 식비, 카페, 교통, 쇼핑, 생활, 문화, 의료, 기타 중 하나
    #[values(categories)]
    #[from_request]
    category: String,
    /// 한 달 예산(원). 30만원은 300000처럼 숫자로, 0이면 예산을 없앱니다
    #[schemars(range(min = 0, max = 100_000_000))]
    #[from_request]
    amount: i64,
) -> Result<Value, ToolError> {
    let today = book.today;
    if amount < 0 {
        return Err(ToolError::new(
            "invalid_amount",
            "예산은 0원 이상이어야 해요",
        ));
    }
    let category = category_named(&category)?;
    let mut ledger = book.lock()?;
    let previous = if amount == 0 {
        ledger.budgets.remove(category)
    } else {
        ledger.budgets.insert(category, amount)
    };
    let spent = ledger.spent(category, today.first_of_month(), today.last_of_month());
    Ok(json!({
        "category": category,
        "budget": (amount > 0).then_some(amount),
        "previous": previous,
        "month": today.month_key(),
        "spent_this_month": spent,
    }))
}

/// 기록한 지출 한 건을 지웁니다. 되돌릴 수 없습니다.
#[tool(
    destructive,
    label = "지출 삭제",
    summary = "{expense_id}번 지출 기록을 삭제합니다",
    reply = reply_deleted
)]
async fn delete_expense(
    book: Dep<ExpenseBook>,
    /// 지울 지출의 id
    #[values(expense_ids)]
    #[from_request]
    expense_id: i64,
) -> Result<Value, ToolError> {
    let mut ledger = book.lock()?;
    let index = ledger
        .expenses
        .iter()
        .position(|expense| expense.id == expense_id)
        .ok_or_else(|| ToolError::new("not_found", format!("{expense_id}번 지출 기록은 없어요")))?;
    let expense = ledger.expenses.remove(index);
    Ok(json!({
        "deleted": expense.to_json(),
        "remaining": ledger.expenses.len(),
    }))
}

// ---------------------------------------------------------------------------------------
// Replies: each tool's own sentence about a successful result
// ---------------------------------------------------------------------------------------

/// "3월 8일 카페 6,800원" for an expense as the tools return it.
fn expense_in_words(expense: &Value) -> Option<String> {
    let date = Day::parse_iso(expense.get("date")?.as_str()?)?;
    let category = expense.get("category")?.as_str()?;
    let amount = expense.get("amount")?.as_i64()?;
    Some(format!("{} {category} {}", date.in_words(), won(amount)))
}

/// `add_expense`: what was recorded, and what is left of the budget.
fn reply_added(data: &Value) -> Option<String> {
    let added = expense_in_words(data.get("added")?)?;
    let left = data.get("budget_left").and_then(Value::as_i64);
    Some(match left {
        Some(left) if left >= 0 => {
            format!(
                "{added}을 기록했어요. 이번 달 예산이 {} 남았어요.",
                won(left)
            )
        }
        Some(left) => format!(
            "{added}을 기록했어요. 이번 달 예산을 {} 넘었어요.",
            won(-left)
        ),
        None => format!("{added}을 기록했어요."),
    })
}

/// `list_expenses`: how many, and the total.
fn reply_list(data: &Value) -> Option<String> {
    let count = data.get("count")?.as_u64()?;
    if count == 0 {
        return Some("그 기간에 기록된 지출이 없어요.".to_owned());
    }
    let total = data.get("total")?.as_i64()?;
    Some(format!("지출 {count}건, 합계 {}예요.", won(total)))
}

/// `monthly_summary`: the month's total and where most of it went.
fn reply_summary(data: &Value) -> Option<String> {
    let month = data.get("month_in_words")?.as_str()?;
    let count = data.get("count")?.as_u64()?;
    if count == 0 {
        return Some(format!("{month}에는 기록된 지출이 없어요."));
    }
    let total = data.get("total")?.as_i64()?;
    let top = data.get("by_category")?.as_array()?.first()?;
    let top_name = top.get("category")?.as_str()?;
    let top_total = top.get("total")?.as_i64()?;
    Some(format!(
        "{month} 지출은 {count}건, 모두 {}예요. 가장 많이 쓴 분류는 {top_name}({})예요.",
        won(total),
        won(top_total)
    ))
}

/// `budget_status`: spent against budget, per category.
fn reply_budget_status(data: &Value) -> Option<String> {
    let budgets = data.get("budgets")?.as_array()?;
    if budgets.is_empty() {
        return Some("정해 둔 예산이 없어요.".to_owned());
    }
    let lines: Vec<String> = budgets
        .iter()
        .filter_map(|budget| {
            let name = budget.get("category")?.as_str()?;
            let spent = budget.get("spent")?.as_i64()?;
            let limit = budget.get("budget")?.as_i64()?;
            let percent = budget.get("used_percent")?.as_i64()?;
            Some(format!(
                "{name} {} / {} ({percent}%)",
                won(spent),
                won(limit)
            ))
        })
        .collect();
    Some(format!("이번 달 예산: {}", lines.join(", ")))
}

/// `set_budget`: the new budget, or that it was removed.
fn reply_budget_set(data: &Value) -> Option<String> {
    let category = data.get("category")?.as_str()?;
    let spent = data.get("spent_this_month")?.as_i64()?;
    Some(match data.get("budget").and_then(Value::as_i64) {
        Some(budget) => format!(
            "{category} 한 달 예산을 {}으로 정했어요. 이번 달에는 {} 썼어요.",
            won(budget),
            won(spent)
        ),
        None => format!("{category} 예산을 없앴어요."),
    })
}

/// `delete_expense`: what was removed.
fn reply_deleted(data: &Value) -> Option<String> {
    let deleted = expense_in_words(data.get("deleted")?)?;
    Some(format!("{deleted} 기록을 지웠어요."))
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
/// the ones written first). Ids, dates and budgets match [`seeded`].
fn tool_examples() -> [Vec<Example>; 6] {
    [
        examples_of(
            "add_expense",
            [
                (
                    "점심 김밥 4500원 썼어",
                    json!({"amount": 4500, "category": "식비", "memo": "점심 김밥"}),
                ),
                (
                    "커피 5천원 기록해줘",
                    json!({"amount": 5000, "category": "카페", "memo": "커피"}),
                ),
                (
                    "어제 택시비 12000원",
                    json!({"amount": 12000, "category": "교통", "memo": "택시비", "date": "yesterday"}),
                ),
                (
                    "마트 장보기 35000원",
                    json!({"amount": 35000, "category": "식비", "memo": "마트 장보기"}),
                ),
                (
                    "3월 8일 영화 14000원 추가",
                    json!({"amount": 14000, "category": "문화", "memo": "영화", "date": "2025-03-08"}),
                ),
                (
                    "약국에서 8천원 썼어",
                    json!({"amount": 8000, "category": "의료", "memo": "약국"}),
                ),
                (
                    "운동화 샀어 89000원",
                    json!({"amount": 89000, "category": "쇼핑", "memo": "운동화"}),
                ),
                (
                    "관리비 120000원 냈어",
                    json!({"amount": 120_000, "category": "생활", "memo": "관리비"}),
                ),
            ],
        ),
        examples_of(
            "list_expenses",
            [
                ("이번 달 지출 내역 보여줘", json!({"period": "this_month"})),
                ("어제 뭐 썼지?", json!({"period": "yesterday"})),
                ("카페에 쓴 돈 내역 보여줘", json!({"category": "카페"})),
                ("지난주 지출 보여줘", json!({"period": "last_week"})),
                (
                    "이번 주 식비 내역",
                    json!({"period": "this_week", "category": "식비"}),
                ),
                ("오늘 쓴 거 있어?", json!({"period": "today"})),
                (
                    "지난달 쇼핑 지출 보여줘",
                    json!({"period": "last_month", "category": "쇼핑"}),
                ),
                ("교통비 쓴 거 다 보여줘", json!({"category": "교통"})),
            ],
        ),
        examples_of(
            "monthly_summary",
            [
                ("이번 달 얼마 썼어?", json!({"month": "2025-03"})),
                ("3월 지출 요약해줘", json!({"month": "2025-03"})),
                ("지난달 총 지출 알려줘", json!({"month": "2025-02"})),
                ("이번 달 카테고리별로 정리해줘", json!({"month": "2025-03"})),
                ("2월에 쓴 돈 합계", json!({"month": "2025-02"})),
                (
                    "이번 달 어디에 제일 많이 썼어?",
                    json!({"month": "2025-03"}),
                ),
                ("가계부 결산해줘", json!({})),
                ("1월 지출 요약", json!({"month": "2025-01"})),
            ],
        ),
        examples_of(
            "budget_status",
            [
                ("예산 얼마 남았어?", json!({})),
                ("식비 예산 얼마나 썼어?", json!({"category": "식비"})),
                ("카페 예산 초과했어?", json!({"category": "카페"})),
                ("예산 현황 보여줘", json!({})),
                ("이번 달 예산 괜찮아?", json!({})),
                ("식비 남은 예산 알려줘", json!({"category": "식비"})),
                ("카페 예산 몇 퍼센트 썼어?", json!({"category": "카페"})),
                ("예산 넘은 거 있어?", json!({})),
            ],
        ),
        examples_of(
            "set_budget",
            [
                (
                    "식비 예산 월 30만원으로 정해줘",
                    json!({"category": "식비", "amount": 300_000}),
                ),
                (
                    "카페 예산 5만원으로 바꿔줘",
                    json!({"category": "카페", "amount": 50_000}),
                ),
                (
                    "교통비 예산 100000원 설정",
                    json!({"category": "교통", "amount": 100_000}),
                ),
                (
                    "쇼핑 예산 20만원으로",
                    json!({"category": "쇼핑", "amount": 200_000}),
                ),
                (
                    "문화생활 예산 한 달 50000원",
                    json!({"category": "문화", "amount": 50_000}),
                ),
                ("카페 예산 없애줘", json!({"category": "카페", "amount": 0})),
                (
                    "생활비 예산 40만원으로 잡아",
                    json!({"category": "생활", "amount": 400_000}),
                ),
                (
                    "식비 예산 35만원으로 올려줘",
                    json!({"category": "식비", "amount": 350_000}),
                ),
            ],
        ),
        examples_of(
            "delete_expense",
            [
                ("3번 지출 삭제해줘", json!({"expense_id": 3})),
                ("어제 치킨 배달 기록 지워줘", json!({"expense_id": 8})),
                (
                    "8일 카페 지출 잘못 넣었어, 지워줘",
                    json!({"expense_id": 7}),
                ),
                ("5번 기록 없애줘", json!({"expense_id": 5})),
                ("영화 본 거 지출에서 빼줘", json!({"expense_id": 5})),
                ("1번 지출 내역 삭제", json!({"expense_id": 1})),
                ("아메리카노 5500원 기록 지워", json!({"expense_id": 2})),
                ("휴대폰 요금 기록 삭제해줘", json!({"expense_id": 6})),
            ],
        ),
    ]
}

/// Requests that need no tool, with the answer's words; always included.
fn chat_examples() -> [Example; 3] {
    [
        Example::new("안녕하세요")
            .answer("안녕하세요! 오늘 쓴 돈을 기록하거나 이번 달 지출을 보여 드릴까요?"),
        Example::new("고마워요").answer("천만에요. 알뜰한 하루 보내세요!"),
        Example::new("돈 아끼는 팁 좀 알려줘").answer(
            "먼저 분류별 예산을 정하고, 작은 지출도 바로 기록해 보세요. 커피값처럼 작은 돈이 모이면 꽤 커요.",
        ),
    ]
}

/// The expense tools, `book` as their dependency, the first `examples_per_tool` examples of
/// each tool (0 to 8) and the three chat examples. Tools are added one by one, not with
/// `discover()`, because other domains live in the same binary.
pub(crate) fn registry_builder(book: ExpenseBook, examples_per_tool: usize) -> RegistryBuilder {
    let builder = Registry::builder()
        .tool::<add_expense>()
        .tool::<list_expenses>()
        .tool::<monthly_summary>()
        .tool::<budget_status>()
        .tool::<set_budget>()
        .tool::<delete_expense>()
        .dependency(book);
    tool_examples()
        .into_iter()
        .flat_map(|examples| examples.into_iter().take(examples_per_tool))
        .chain(chat_examples())
        .fold(builder, RegistryBuilder::example)
}
