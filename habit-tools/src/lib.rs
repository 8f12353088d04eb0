//! The habit coach's domain: a bundled Korean catalog of habit protocols and diets, the user's
//! habits and daily tracker entries in SQLite, and the R-rules that keep them sensible. It is
//! the layer under the six tools an on-device model calls; each tool is a thin wrapper over one
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
//! # The six tools
//!
//! *To be filled in by the tool wrappers (`#[tool]` fns): name, Korean label, description, and
//! whether the call needs the user's confirmation.* Each wraps one method:
//!
//! | tool | method | result |
//! |---|---|---|
//! | `search_catalog` | [`Coach::search_catalog`] | [`CatalogSearch`] |
//! | `query_protocol` | [`Coach::query_protocol`] | [`ProtocolInfo`] |
//! | `list_active_habits` | [`Coach::list_active_habits`] | [`ActiveHabits`] |
//! | `get_streak` | [`Coach::get_streak`] | [`StreakSummary`] |
//! | `add_habit` | [`Coach::add_habit`] | [`AddedHabit`] |
//! | `log_tracker_entry` | [`Coach::log_tracker_entry`] | [`LoggedEntry`] |
//!
//! Every result serialises to exactly the seed's fields and stays small (a few hundred bytes;
//! the largest possible `search_catalog` result is under 1.9 KB). Every error is a
//! [`HabitError`] with a stable [`code`](HabitError::code) and a readable reason.
//!
//! # The store
//!
//! [`Store`] is one SQLite file, by default `<user data dir>/habit-coach/habits.sqlite3`
//! ([`Store::default_path`]), or any path, or `:memory:`. Opening it sets WAL mode (readers never
//! wait for the writer), a busy timeout (a second writer waits, 5 s by default, instead of
//! failing), foreign keys, and applies the schema migrations tracked by `user_version`; a file
//! from a newer build is refused rather than guessed at. Every write is one `BEGIN IMMEDIATE`
//! transaction, so a refused or failed call leaves nothing behind. Open errors say what is wrong:
//! cannot open (missing permissions, a directory, a read-only disk), not a database, locked by
//! another writer, newer schema. A `Store` is `Send + Sync`; share it as `Arc<Store>`, and open
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
//! what the user said; absent or blank means today.
//!
//! # Rules
//!
//! | rule | what | code |
//! |---|---|---|
//! | R3 | at most 3 active build habits and 1 active break habit | `r3_quota` |
//! | R5 | one tracker entry per habit and day; held by the database's `UNIQUE` constraint, so two racing writers cannot both succeed; an entry is never overwritten | `duplicate` |
//! | R7 | `framed_text` says what to do, not what to avoid: one pattern list in [`rules::avoidance`] | `r7_avoidance` |
//! | R8 | a habit comes from a build or a break protocol (exactly one); a diet is refused | `r8_xor` |
//! | — | one active habit per protocol (a retried `add_habit` must not create a twin) | `duplicate` |
//! | — | unknown habit or catalog id | `not_found` |
//! | — | a date that is not a calendar date, or before the habit was added | `invalid_date` |
//! | — | a date after today | `future_date` |
//! | — | required text empty; text over its limit; control characters | `invalid_text` |
//! | — | frame level not 1–3, limit not 1–10, unknown category or tracker value | `invalid_value` |
//! | — | the database cannot be opened, read or written | `storage` |
//!
//! Text limits (characters, after trimming): `framed_text` 1–120; `anchor_when`,
//! `anchor_after_what`, `dose_text` up to 80; `note` up to 280; search `keyword` and `category`
//! up to 100. Optional text that is blank counts as absent. Nothing panics on any input.
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

pub use catalog::{CatalogItem, CatalogSearch, ProtocolDetails, ProtocolInfo, catalog};
pub use clock::{Clock, FixedClock, SystemClock};
pub use coach::{ActiveHabit, ActiveHabits, AddedHabit, Coach, LoggedEntry, NewEntry, NewHabit};
pub use error::{HabitError, StoreError};
pub use jiff::civil::Date;
pub use model::{HabitType, TrackerValue};
pub use store::{Store, StoreOptions};
pub use streak::{StreakSummary, Tier};
