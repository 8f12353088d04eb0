//! The domain's small value types shared by the store, the rules and the results: the habit type
//! (build or break) and the tracker value (done or a deliberate blank).

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{HabitError, echo};

/// A habit's type, fixed by the kind of protocol it was created from (R8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HabitType {
    /// A habit to build, from a `build.…` protocol. At most 3 active (R3).
    Build,
    /// A habit to break (replace), from a `break.…` protocol. At most 1 active (R3).
    Break,
}

impl HabitType {
    /// The lowercase name used in results and in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Build => "build",
            Self::Break => "break",
        }
    }

    /// Parses the database spelling; `None` for anything else.
    pub(crate) fn from_db(s: &str) -> Option<Self> {
        match s {
            "build" => Some(Self::Build),
            "break" => Some(Self::Break),
            _ => None,
        }
    }
}

impl fmt::Display for HabitType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a tracker entry records for one habit on one day.
///
/// A day with no entry at all is a **miss**. The two values are:
///
/// - `done` — the habit was done that day (at least its minimum dose). Counts towards streaks,
///   the 30-day count and phase 42.
/// - `blank` — a **deliberate** blank: the user decided not to do it that day (rest day, illness,
///   travel) and said so. It is not done, so it ends a streak of done days; but it is not a miss
///   either, so it never breaks "never miss twice". See the crate docs for why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrackerValue {
    /// Done that day (at least the minimum dose).
    Done,
    /// Deliberately left blank that day (rest, illness, travel): not done, but not a miss.
    Blank,
}

impl TrackerValue {
    /// The lowercase name used in results and in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Done => "done",
            Self::Blank => "blank",
        }
    }

    /// Parses the database spelling; `None` for anything else.
    pub(crate) fn from_db(s: &str) -> Option<Self> {
        match s {
            "done" => Some(Self::Done),
            "blank" => Some(Self::Blank),
            _ => None,
        }
    }
}

impl fmt::Display for TrackerValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Written by hand rather than derived: the derive turns the doc comments above into a long
/// English `oneOf`, while a tool parameter wants a plain two-value `enum` and one short Korean
/// line (it ends up in a small model's prompt).
impl schemars::JsonSchema for TrackerValue {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TrackerValue".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": ["done", "blank"],
            "description": "done = 했음(최소량 이상), blank = 일부러 쉰 날(놓친 날로 치지 않음)"
        })
    }
}

impl FromStr for TrackerValue {
    type Err = HabitError;

    /// Accepts `done` / `blank` in any case and surrounding spaces, plus the Korean words a
    /// model or user is likely to use (`완료`, `했음`, `공란`, `쉼`): a small model writing Korean
    /// may well answer in Korean, and refusing that would only cost a retry.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "done" | "완료" | "했음" | "함" => Ok(Self::Done),
            "blank" | "공란" | "쉼" | "휴식" => Ok(Self::Blank),
            _ => Err(HabitError::InvalidValue {
                field: "value",
                reason: format!("'{}' is not one of: done, blank", echo(s)),
            }),
        }
    }
}

// Database conversions. A value the enum does not know means the file was written by
// something else; it surfaces as a storage error instead of being guessed at.
macro_rules! sql_text_enum {
    ($ty:ty) => {
        impl rusqlite::types::ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(self.as_str().into())
            }
        }

        impl rusqlite::types::FromSql for $ty {
            fn column_result(
                value: rusqlite::types::ValueRef<'_>,
            ) -> rusqlite::types::FromSqlResult<Self> {
                let text = value.as_str()?;
                Self::from_db(text).ok_or_else(|| {
                    rusqlite::types::FromSqlError::Other(
                        format!("unknown {} '{}'", stringify!($ty), echo(text)).into(),
                    )
                })
            }
        }
    };
}

sql_text_enum!(HabitType);
sql_text_enum!(TrackerValue);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracker_value_parses_both_languages_and_rejects_the_rest() {
        assert_eq!(
            " Done ".parse::<TrackerValue>().ok(),
            Some(TrackerValue::Done)
        );
        assert_eq!(
            "완료".parse::<TrackerValue>().ok(),
            Some(TrackerValue::Done)
        );
        assert_eq!(
            "BLANK".parse::<TrackerValue>().ok(),
            Some(TrackerValue::Blank)
        );
        assert_eq!("쉼".parse::<TrackerValue>().ok(), Some(TrackerValue::Blank));
        for bad in ["", "missed", "skip", "don e", "1"] {
            let err = bad.parse::<TrackerValue>().err().map(|e| e.code());
            assert_eq!(err, Some("invalid_value"), "{bad:?}");
        }
    }

    #[test]
    fn names_round_trip_through_the_database_spelling() {
        for v in [TrackerValue::Done, TrackerValue::Blank] {
            assert_eq!(TrackerValue::from_db(v.as_str()), Some(v));
        }
        for t in [HabitType::Build, HabitType::Break] {
            assert_eq!(HabitType::from_db(t.as_str()), Some(t));
        }
        assert_eq!(HabitType::from_db("diet"), None);
    }

    #[test]
    fn json_schema_lists_exactly_the_allowed_values() {
        // A tool parameter typed `TrackerValue` gets this schema, so a grammar-constrained model
        // can only send one of these two.
        let schema = serde_json::to_value(schemars::schema_for!(TrackerValue)).unwrap_or_default();
        assert_eq!(
            schema["enum"],
            serde_json::json!(["done", "blank"]),
            "{schema}"
        );
    }

    #[test]
    fn serialises_lowercase() {
        assert_eq!(
            serde_json::to_string(&TrackerValue::Blank).ok().as_deref(),
            Some("\"blank\"")
        );
        assert_eq!(
            serde_json::to_string(&HabitType::Break).ok().as_deref(),
            Some("\"break\"")
        );
    }
}
