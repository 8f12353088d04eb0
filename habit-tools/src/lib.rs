//! The habit coach's domain: a bundled Korean catalog of habit protocols and diets, the user's
//! habits and daily tracker entries in SQLite, and the R-rules that keep them sensible. It is
//! the layer under the nine tools an on-device model calls; each tool is a thin wrapper over one
//! [`Coach`] method.
//!
//! ```no_run
//! use std::sync::Arc;
//! use habit_tools::{Coach, NewEntry, NewHabit, Store, TrackerValue};
//!
//! # fn main() -> Result<(), habit_tools::HabitError> {
//! let coach = Coach::with_system_clock(Arc::new(Store::open_default()?));
//! let added = coach.add_habit(NewHabit {
//!     protocol_id: "build.morning-walk".into(),
//!     frame_level: 2,
//!     framed_text: "아침 커피를 내린 후 동네 10분 걷기".into(),
//!     anchor_when: Some("아침".into()),
//!     anchor_after_what: Some("커피를 내린 후".into()),
//!     dose_text: Some("10분".into()),
//! })?;
//! coach.log_tracker_entry(NewEntry {
//!     habit_id: added.habit_id,
//!     value: TrackerValue::Done,
//!     date: None,
//!     note: None,
//! })?;
//! println!("{}", serde_json::to_string(&coach.get_streak(added.habit_id)?).unwrap_or_default());
//! # Ok(()) }
//! ```
//!
//! # The nine tools
//!
//! [`tools`] declares them with `#[tool]`; [`registry_builder`] registers all nine (in
//! [`TOOL_NAMES`] order) with the coach as their shared dependency, and [`COACH_INSTRUCTIONS`] is
//! the model's system instruction. Descriptions, labels and confirmation summaries are Korean.
//!
//! | tool | label | what it does | needs confirmation | result `data` |
//! |---|---|---|---|---|
//! | `search_catalog(category?, keyword?, limit? 1–10)` | 습관 검색 | searches the catalog | no | `{count, items:[{id, title, category, summary}]}` |
//! | `query_protocol(id)` | 프로토콜 조회 | one catalog entry in full | no | `id, title, category, summary, kind` + the kind's fields |
//! | `list_active_habits()` | 활성 습관 목록 | the active habits and R3 room | no | `{count, build_count, break_count, build_quota_remaining, break_quota_remaining, items:[{id, title, type, protocol_id, framed_text, anchor_when?, anchor_after_what?, dose_text?}]}` |
//! | `get_streak(habit_id)` | 연속 기록 조회 | one habit's streak figures | no | `{current_streak, longest_streak, done_count_30d, done_count_phase42, tier, never_miss_twice_broken}` |
//! | `add_habit(protocol_id, frame_level 1–3, framed_text, anchor_when?, anchor_after_what?, dose_text?)` | 습관 추가 | creates a habit from a build or break protocol | **yes**: "'{framed_text}' 습관을 추가합니다" | `{habit_id, title, type, frame_level}` |
//! | `log_tracker_entry(habit_id, value, date?, note?)` | 기록하기 | records one day of one habit | **yes, except `value: "blank"`**: "3번 습관에 오늘 '완료' 기록을 남깁니다" | `{entry_id, habit_id, date, value}` |
//! | `stop_habit(habit_id)` | 습관 그만두기 | an active habit leaves the list; its entries stay | **yes**: "3번 습관을 그만둡니다(기록은 남아요)" | `{habit_id, framed_text}` |
//! | `update_habit_text(habit_id, framed_text)` | 습관 수정 | rewords an active habit (R7 and the text rules apply) | **yes**: "1번 습관 문장을 '…'(으)로 바꿉니다" | `{habit_id, framed_text, previous_text}` |
//! | `correct_tracker_entry(habit_id, value, date?)` | 기록 고치기 | turns a day's `done` into `blank` or back | **yes**: "1번 습관의 어제 기록을 '쉼'으로 고칩니다" | `{entry_id, habit_id, date, value, previous_value}` |
//!
//! Every write can be taken back ("방금 거 취소해줘"): each destructive tool declares its undo
//! (`undo_add_habit` archives the habit it added, refused once it was logged;
//! `undo_log_tracker_entry` removes the entry, or brings back the blank it replaced with its
//! note; the other three restore what they changed), refused with `state_changed` when the
//! state has moved on. The runtime journals every write that ran in the same SQLite file
//! ([`SqliteJournal`], table `journal`), so the history and the undo survive a restart.
//!
//! Who may call them ([`agent_core::Access`]): seven are `access = trusted`, so an assistant
//! the user connected over MCP (`habit-demo mcp`) can search the catalog, read the habits and
//! streaks, and add, stop or reword a habit — which still asks the person first, through the
//! client. `log_tracker_entry` and `correct_tracker_entry` stay `self_only`, with the app's own
//! agent: a deliberate blank runs
//! without asking (below), so exposing it would let an outside assistant write to the user's
//! record without a person's yes, and what the user did today is theirs to say in the app.
//!
//! Each tool wraps the [`Coach`] method of the same name. The four that touch SQLite run it on
//! Tokio's blocking pool (in place when there is no Tokio runtime); the catalog is in memory.
//! Calls are checked in layers: the JSON Schema first (types, required arguments, `limit` and
//! `frame_level` ranges, text lengths, `value` ∈ {`done`, `blank`}) → error code `validation`;
//! then the confirmation (a denied call answers `cancelled` and writes nothing); then the
//! domain's rules and codes (table below). A deliberate blank needs no confirmation because
//! recording "I chose to rest today" costs the user nothing and is exactly what they said.
//!
//! Every result serialises to exactly the seed's fields and stays under agent-core's 2 KB
//! result cap: a ten-item `search_catalog` result is at most about 1.6 KB, a catalog entry at
//! most 0.7 KB, four habits with everyday texts about 1.5 KB (`tests/tools/cap.rs` measures
//! them). Only `list_active_habits` could outgrow it (four habits with every text at its limit
//! are about 5 KB); it then clips its longest texts with `…` so every habit and id stays
//! visible, rather than letting the cap drop whole habits.
//!
//! Every result type derives `JsonSchema`, so each tool declares the schema of its `data` (an
//! MCP client sees it as `outputSchema`, and the result as `structuredContent` conforming to
//! it; `tests/tools/output.rs` checks real results against it). Staying under the cap matters
//! there too: over MCP, a result the cap would cut is an error instead, since cut it would no
//! longer be what the schema says.
//!
//! ```
//! use std::sync::Arc;
//!
//! use agent_core::{ApproveAll, Dispatcher};
//! use habit_tools::{Coach, Date, FixedClock, Store};
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let clock = Arc::new(FixedClock::new(Date::constant(2025, 3, 10)));
//! let coach = Coach::new(Arc::new(Store::open_in_memory()?), clock);
//! let registry = Arc::new(habit_tools::registry_builder(coach).build()?);
//! let declarations = registry.declarations(); // with COACH_INSTRUCTIONS, the model's prompt
//! assert_eq!(declarations.len(), 9);
//! // An app shows a dialog here (see `agent_core::Confirmer`); `DenyAll` refuses everything.
//! let registry = Dispatcher::new(Arc::clone(&registry), ApproveAll);
//!
//! // What a model's function calls turn into:
//! let added = registry
//!     .dispatch(
//!         "add_habit",
//!         json!({"protocol_id": "build.morning-walk", "frame_level": 2,
//!                "framed_text": "아침 커피 후 10분 걷기"}),
//!     )
//!     .await;
//! let habit_id = added.data().map(|data| data["habit_id"].clone());
//! let logged = registry
//!     .dispatch("log_tracker_entry", json!({"habit_id": habit_id, "value": "done"}))
//!     .await;
//! // What goes back to the model: the wire JSON, within the 2 KB cap.
//! let wire = registry.registry().result_cap().apply(&logged).json;
//! assert_eq!(
//!     wire,
//!     r#"{"status":"ok","data":{"entry_id":1,"habit_id":1,"date":"2025-03-10","value":"done"}}"#
//! );
//!
//! let refused = registry
//!     .dispatch("log_tracker_entry", json!({"habit_id": 1, "value": "done"}))
//!     .await;
//! assert_eq!(refused.as_error().map(|e| e.code()), Some("duplicate")); // R5
//! # Ok(()) }
//! ```
//!
//! # The store
//!
//! [`Store`] is one SQLite file, by default `<user data dir>/habit-coach/habits.sqlite3`
//! ([`Store::default_path`]), or any path, or `:memory:`. Opening it sets WAL mode (readers never
//! wait for the writer), a busy timeout (a second writer waits, 5 s by default, instead of
//! failing), foreign keys, and applies the schema migrations tracked by `user_version`; a file
//! from a newer build is refused rather than guessed at. Every write is one `BEGIN IMMEDIATE`
//! transaction, so a refused or failed call leaves nothing behind. Opening is also the app's
//! start-up check, run before anything is written so the file is left untouched when it fails,
//! each error one line: cannot open (a directory, a missing folder that cannot be made),
//! read-only file or folder ([`StoreError::ReadOnly`]), not a database, damaged by
//! `PRAGMA quick_check` ([`StoreError::Corrupt`]), locked by another writer, newer schema or a
//! schema that does not fit the migrations ([`StoreError::SchemaMismatch`]). An app opens the
//! store before its first question and exits with the error's line if that fails. A `Store` is `Send + Sync`; share it as `Arc<Store>`, and open
//! the same file from as many stores or processes as you like.
//!
//! Tables: `habits` (type, protocol id, title, frame level, framed text, `anchor_when`,
//! `anchor_after_what`, dose, created date, active flag) and `tracker_entries` (habit, date,
//! value, note) with `UNIQUE(habit_id, entry_date)`.
//!
//! # Dates
//!
//! Local calendar dates, `YYYY-MM-DD`. "Today" comes from a [`Clock`]: [`SystemClock`] (the
//! system's local time zone) or [`FixedClock`] (tests, demos). Tracker dates also accept
//! `today`/`오늘` and `yesterday`/`어제`, because a model rarely knows the date but does know
//! what the user said; absent or blank means today. The `date` a model may write is one of
//! today, yesterday and the five days before ([`tools::values::recent_days`]), each known by
//! the words people use for it ("어젯밤", "그저께", "8일 토요일", "3/7").
//!
//! # Rules
//!
//! | rule | what | code |
//! |---|---|---|
//! | R3 | at most 3 active build habits and 1 active break habit | `r3_quota` |
//! | R5 | one tracker entry per habit and day; held by the database's `UNIQUE` constraint, so two racing writers cannot both succeed. A confirmed `done` replaces a same-day `blank` (which ran without asking, so it must not block a confirmed call); a `done` is never overwritten, and a `blank` never replaces anything | `duplicate` |
//! | R7 | `framed_text` says what to do, not what to avoid: one pattern list in [`rules::avoidance`] | `r7_avoidance` |
//! | R8 | a habit comes from a build or a break protocol (exactly one); a diet is refused | `r8_xor` |
//! | — | one active habit per protocol (a retried `add_habit` must not create a twin) | `duplicate` |
//! | — | unknown habit or catalog id | `not_found` |
//! | — | a date that is not a calendar date, or before the habit was added | `invalid_date` |
//! | — | a date after today | `future_date` |
//! | — | required text empty (or only invisible characters); text over its limit; control, line-break or format characters (zero-width, bidi, soft hyphen, BOM) | `invalid_text` |
//! | — | frame level not 1–3, limit not 1–10, unknown category or tracker value | `invalid_value` |
//! | — | the database cannot be opened, read or written | `storage` |
//!
//! Text limits (characters, after trimming, in NFC): `framed_text` 1–120; `anchor_when`,
//! `anchor_after_what`, `dose_text` up to 80; `note` up to 280; search `keyword` and `category`
//! up to 100. Optional text that is blank or only invisible characters counts as absent. Texts
//! are stored in NFC, so decomposed Hangul is stored composed; what is refused and why is in
//! [`rules::text`]. Nothing panics on any input.
//!
//! # Tracker values
//!
//! [`TrackerValue::Done`] — done that day (at least the minimum dose). [`TrackerValue::Blank`] — a
//! **deliberate** blank: the user chose not to do it that day (rest, illness, travel) and said
//! so. A day with no entry at all is a **miss**.
//!
//! # Streaks
//!
//! [`Coach::get_streak`] reports, for one habit:
//!
//! - `current_streak` — consecutive `done` days ending today, or ending yesterday while today has
//!   no entry yet (the day is not over). A `blank` today closes the day, so the streak is 0.
//! - `longest_streak` — the longest run of consecutive `done` days ever.
//! - `done_count_30d` — `done` days in the last 30 days, today included.
//! - `done_count_phase42` — `done` days in the first 42 days, counting the day the habit was
//!   added as day 1.
//! - `tier` — from `current_streak`: `seed` 씨앗 (0–6), `sprout` 새싹 (7–20), `rooting` 뿌리내림
//!   (21–41), `rooted` 자리잡음 (42+, a whole phase 42 in a row). See [`Tier`].
//! - `never_miss_twice_broken` — whether, since the day the habit was added and up to
//!   yesterday, two consecutive days were **missed**. Today never counts (it is not over).
//!
//! A deliberate `blank` ends a streak (it is not done: streaks count repetitions, which is what
//! makes a habit automatic) but is **not a miss** for never-miss-twice. That rule is about
//! drifting away unnoticed; a user who logs a blank has shown up and decided, which is exactly
//! the engagement the rule protects. Logging blank every day is possible, and the counts show it.
//!
//! # The catalog
//!
//! [`catalog()`] is compiled into the crate from `src/catalog/catalog.json` and parsed once:
//! 38 entries in seven display categories (수면 sleep, 운동 exercise, 식습관 nutrition, 마음
//! mindfulness, 생산성 productivity, 디지털 digital, 건강 health), of three kinds — build
//! protocols (`build.…`: cue, routine, reward, minimum dose, suggested anchor), break protocols
//! (`break.…`: trigger, replacement, friction) and diets (`diet.…`: rules, foods to favour and
//! limit, duration, caution). Search matching is described in [`catalog::search`].

pub mod catalog;
pub mod clock;
pub mod coach;
pub mod error;
pub mod model;
pub mod rules;
pub mod store;
pub mod streak;
pub mod tools;

pub use catalog::{CatalogItem, CatalogSearch, ProtocolDetails, ProtocolInfo, catalog};
pub use clock::{Clock, FixedClock, SystemClock};
pub use coach::{
    ActiveHabit, ActiveHabits, AddedHabit, Coach, CorrectedEntry, LoggedEntry, NewEntry, NewHabit,
    StoppedHabit, UndoneEntry, UpdatedHabit,
};
pub use error::{HabitError, StoreError};
pub use jiff::civil::Date;
pub use model::{HabitType, TrackerValue};
pub use store::{SqliteJournal, Store, StoreOptions};
pub use streak::{StreakSummary, Tier};
pub use tools::{COACH_INSTRUCTIONS, TOOL_NAMES, registry_builder};
