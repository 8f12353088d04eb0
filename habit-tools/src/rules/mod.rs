//! The R-rules that are plain functions of the input, in one place: the R3 quotas, the text
//! limits, the frame-level range, what a stored text may contain ([`text`]) and the R7 pattern
//! list ([`avoidance`]).
//!
//! The rules that need the database (R3's count, R5's uniqueness) are enforced where the write
//! happens, in the same transaction (see `coach`), using the constants defined here.

pub mod avoidance;
pub mod text;

use crate::error::HabitError;
use crate::model::HabitType;

pub use avoidance::find_avoidance;
pub use text::{optional_text, required_text};

/// R3: at most this many active build habits.
pub const MAX_ACTIVE_BUILD: u32 = 3;
/// R3: at most this many active break habits.
pub const MAX_ACTIVE_BREAK: u32 = 1;

/// R3's quota for a habit type.
pub fn quota(habit_type: HabitType) -> u32 {
    match habit_type {
        HabitType::Build => MAX_ACTIVE_BUILD,
        HabitType::Break => MAX_ACTIVE_BREAK,
    }
}

/// The allowed `frame_level` values.
pub const FRAME_LEVELS: std::ops::RangeInclusive<i64> = 1..=3;

/// Longest `framed_text`, in characters. One sentence; 120 Korean characters is already long,
/// and four active habits must fit in one small `list_active_habits` result.
pub const MAX_FRAMED_TEXT_CHARS: usize = 120;
/// Longest `anchor_when`, `anchor_after_what` or `dose_text`, in characters: short phrases.
pub const MAX_SHORT_TEXT_CHARS: usize = 80;
/// Longest tracker `note`, in characters. Never returned to the model, so it may be longer.
pub const MAX_NOTE_CHARS: usize = 280;
/// Longest `keyword` or `category` for `search_catalog`, in characters.
pub const MAX_QUERY_CHARS: usize = 100;

/// Checks `frame_level` is 1, 2 or 3.
pub fn frame_level(value: i64) -> Result<u8, HabitError> {
    if FRAME_LEVELS.contains(&value) {
        // In 1..=3, so the conversion cannot fail; `unwrap_or` only keeps clippy and panics away.
        Ok(u8::try_from(value).unwrap_or(1))
    } else {
        Err(HabitError::InvalidValue {
            field: "frame_level",
            reason: format!("{value} is not 1, 2 or 3"),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn required_text_trims_and_refuses_empty_long_and_control() {
        assert_eq!(required_text("f", "  산책하기 ", 10).unwrap(), "산책하기");
        assert_eq!(
            required_text("f", " \n\t ", 10).unwrap_err().code(),
            "invalid_text"
        );
        assert_eq!(
            required_text("f", "", 10).unwrap_err().code(),
            "invalid_text"
        );
        // Exactly at the limit passes; the limit is in characters, not bytes.
        assert!(required_text("f", &"가".repeat(10), 10).is_ok());
        let err = required_text("f", &"가".repeat(11), 10).unwrap_err();
        assert_eq!(err.code(), "invalid_text");
        assert!(err.to_string().contains("11"), "{err}");
        assert_eq!(
            required_text("f", "a\u{7}b", 10).unwrap_err().code(),
            "invalid_text"
        );
        // A line break could forge lines of the confirmation dialog (issue 9).
        assert_eq!(
            required_text("f", "a\nb", 10).unwrap_err().code(),
            "invalid_text"
        );
    }

    #[test]
    fn optional_text_treats_blank_as_absent() {
        assert_eq!(optional_text("f", None, 5).unwrap(), None);
        assert_eq!(optional_text("f", Some("   "), 5).unwrap(), None);
        assert_eq!(
            optional_text("f", Some(" 아침 "), 5).unwrap().as_deref(),
            Some("아침")
        );
        assert_eq!(
            optional_text("f", Some("123456"), 5).unwrap_err().code(),
            "invalid_text"
        );
    }

    #[test]
    fn frame_level_is_one_to_three() {
        assert_eq!(frame_level(1).unwrap(), 1);
        assert_eq!(frame_level(3).unwrap(), 3);
        for bad in [0, 4, -1, i64::MAX, i64::MIN] {
            assert_eq!(frame_level(bad).unwrap_err().code(), "invalid_value");
        }
    }

    #[test]
    fn quotas_match_r3() {
        assert_eq!(quota(HabitType::Build), 3);
        assert_eq!(quota(HabitType::Break), 1);
    }
}
