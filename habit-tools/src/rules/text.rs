//! Text hygiene: what a text from the model may contain, when it counts as empty, and the form
//! it is stored in. Every stored text (`framed_text`, `anchor_when`, `anchor_after_what`,
//! `dose_text`, a tracker `note`) and every search text (`keyword`, `category`) passes
//! [`required_text`] or [`optional_text`]; a refusal is `invalid_text` naming the field.
//!
//! - **Refused**: control characters (general category Cc: C0 including TAB, LF, CR and ESC,
//!   DEL, C1 including NEL), line and paragraph separators (U+2028, U+2029) and format characters
//!   (Cf: zero-width space and non-joiner, word joiner, soft hyphen, byte order mark, the bidi
//!   marks, embeddings, overrides and isolates U+200E/F, U+202A–202E, U+2066–2069, tag
//!   characters, …). These texts come back to a person — in the confirmation dialog, in the
//!   habit list — and to the model. A line break or an ESC sequence can forge lines of the
//!   dialog; a bidi control shows a text in another order than it is stored; an invisible
//!   character makes two different texts look alike and hides a word from R7. A habit is one
//!   plain line, so none of them is needed. The one exception is U+200D ZERO WIDTH JOINER
//!   between two symbols, which is how emoji such as 🏃‍♀️ are spelled; it joins pictures, not
//!   letters, so it can neither hide a word nor move text.
//! - **Empty**: a text made only of whitespace and invisible characters (format characters and
//!   the other Default_Ignorable code points, such as the Hangul fillers U+3164 and U+115F or
//!   variation selectors) looks empty, so it is treated as empty: `must not be empty` for a
//!   required text, absent for an optional one. This is decided before the refusals above, so
//!   a text of only U+FEFF gets the same answer as `""`.
//! - **Stored in NFC**. The same Korean words can arrive precomposed (`안`, one character) or
//!   decomposed into jamo (`ᄋ`+`ᅡ`+`ᆫ`, NFD: what macOS file names and some input methods
//!   produce, and what a hostile model can send on purpose). They look the same, but as
//!   strings they differ: the decomposed form counts three times against the length limits,
//!   does not match catalog keywords, and some terminals draw it as loose jamo. Composing to
//!   NFC makes text that looks the same the same bytes, so limits, searches and the screen
//!   agree. NFC and not NFKC, because NFKC would rewrite what the user wrote (full-width
//!   letters, `①`, `㎏` → `kg`); NFC only changes how the same characters are encoded. Limits
//!   are counted on the NFC form, in characters.
//!
//! What reaches the terminal is made harmless again by habit-demo's `inert` module, with its
//! own list on purpose: it cannot refuse, only escape, and must handle texts this module never
//! saw (older records, tool names, error messages), so it escapes every character refused here
//! and more (that emoji joiner, private-use and unassigned characters, the Hangul fillers).
//! This list decides what may be stored and must not refuse what people type. A test in
//! `inert` checks that everything refused here is escaped there.
//!
//! Crates: `unicode-general-category` for the Cc/Cf/Zl/Zp classes (already the workspace's
//! choice for the terminal sanitizer), `unicode-normalization` for NFC (the unicode-rs crate
//! everything else builds on), and `unicode-security` for Default_Ignorable_Code_Point (see
//! `is_default_ignorable`).

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

use crate::error::HabitError;

/// Checks a required text field: trimmed, not empty or invisible, free of control, line-break
/// and format characters, at most `max_chars` characters in NFC. Returns the NFC text to store.
pub fn required_text(
    field: &'static str,
    value: &str,
    max_chars: usize,
) -> Result<String, HabitError> {
    clean(field, value, max_chars)?.ok_or_else(|| HabitError::InvalidText {
        field,
        reason: "must not be empty".to_owned(),
    })
}

/// Checks an optional text field. Absent, empty, or only whitespace and invisible characters
/// means "not given" (models often send `""` for an optional parameter); otherwise as
/// [`required_text`].
pub fn optional_text(
    field: &'static str,
    value: Option<&str>,
    max_chars: usize,
) -> Result<Option<String>, HabitError> {
    match value {
        None => Ok(None),
        Some(value) => clean(field, value, max_chars),
    }
}

/// The checks of both: `None` for a text that looks empty.
fn clean(field: &'static str, value: &str, max_chars: usize) -> Result<Option<String>, HabitError> {
    let trimmed = value.trim();
    if trimmed.chars().all(is_invisible) {
        return Ok(None);
    }
    if let Some((position, c)) = first_forbidden(trimmed) {
        return Err(HabitError::InvalidText {
            field,
            reason: forbidden_reason(position, c),
        });
    }
    // Count without collecting: the input may be megabytes long.
    let chars = trimmed.nfc().count();
    if chars > max_chars {
        return Err(HabitError::InvalidText {
            field,
            reason: format!("too long ({chars} characters, at most {max_chars})"),
        });
    }
    Ok(Some(trimmed.nfc().collect()))
}

/// Whitespace, a format character, or another Default_Ignorable code point: drawn as nothing
/// (or as blank space).
pub(crate) fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || get_general_category(c) == GeneralCategory::Format
        || is_default_ignorable(c)
}

/// Whether `c` has the Unicode property Default_Ignorable_Code_Point (drawn as nothing when
/// not supported: U+00AD, U+034F, U+115F–1160, U+200B–200F, U+202A–202E, U+2060–206F, U+3164,
/// U+FE00–FE0F, U+FEFF, U+FFA0, U+E0000–E0FFF, …).
///
/// `unicode-security` keeps its table of this property private, but its UTS #39 [`skeleton`]
/// removes exactly these characters (step 2 of the algorithm) and maps every other character
/// to a non-empty prototype, so an empty skeleton of one character means "ignorable". The
/// unit tests pin this against the property's listed ranges.
///
/// [`skeleton`]: unicode_security::skeleton
pub(crate) fn is_default_ignorable(c: char) -> bool {
    let mut buf = [0; 4];
    unicode_security::skeleton(c.encode_utf8(&mut buf))
        .next()
        .is_none()
}

/// The first character a stored text must not contain, with its 1-based position.
fn first_forbidden(text: &str) -> Option<(usize, char)> {
    // The last character that was not an emoji modifier, for the ZWJ exception.
    let mut base: Option<char> = None;
    let mut chars = text.chars().enumerate().peekable();
    while let Some((index, c)) = chars.next() {
        let forbidden = match get_general_category(c) {
            GeneralCategory::Control
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator => true,
            GeneralCategory::Format if c == '\u{200D}' => {
                let next = chars.peek().map(|&(_, n)| n);
                !(base.is_some_and(is_pictograph) && next.is_some_and(is_pictograph))
            }
            GeneralCategory::Format => true,
            _ => false,
        };
        if forbidden {
            return Some((index + 1, c));
        }
        if !is_emoji_modifier(c) {
            base = Some(c);
        }
    }
    None
}

/// A picture symbol outside ASCII (general category So): what emoji are.
fn is_pictograph(c: char) -> bool {
    !c.is_ascii() && get_general_category(c) == GeneralCategory::OtherSymbol
}

/// Characters that decorate the emoji before them: variation selectors and skin tones.
fn is_emoji_modifier(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}')
}

/// The refusal for a forbidden character: which one, where, and what to do instead.
fn forbidden_reason(position: usize, c: char) -> String {
    let code = format!("U+{:04X}", u32::from(c));
    let named = match char_name(c) {
        Some(name) => format!("{code} ({name})"),
        None => code,
    };
    if get_general_category(c) == GeneralCategory::Format {
        format!(
            "contains {named} at character {position}, an invisible format character; remove it \
             (보이지 않는 서식 문자는 쓸 수 없습니다)"
        )
    } else {
        format!(
            "contains {named} at character {position}, a control character or line break; \
             write one plain line (줄바꿈·탭·제어 문자는 쓸 수 없습니다)"
        )
    }
}

/// Names of the characters most likely to be met, for a readable refusal. Only for the
/// message: which characters are refused is decided by their general category.
fn char_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\t' => "tab",
        '\n' => "line feed",
        '\r' => "carriage return",
        '\u{1B}' => "escape",
        '\u{7F}' => "delete",
        '\u{85}' => "next line",
        '\u{AD}' => "soft hyphen",
        '\u{200B}' => "zero width space",
        '\u{200C}' => "zero width non-joiner",
        '\u{200D}' => "zero width joiner",
        '\u{200E}' => "left-to-right mark",
        '\u{200F}' => "right-to-left mark",
        '\u{202A}'..='\u{202C}' => "bidi embedding",
        '\u{202D}' | '\u{202E}' => "bidi override",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        '\u{2060}' => "word joiner",
        '\u{2066}'..='\u{2069}' => "bidi isolate",
        '\u{FEFF}' => "byte order mark",
        _ => return None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn refusal(value: &str) -> String {
        required_text("framed_text", value, 120)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn control_characters_and_line_breaks_are_refused_with_their_code_point() {
        for (text, named) in [
            ("아침\n걷기", "U+000A (line feed)"),
            ("아침\r걷기", "U+000D (carriage return)"),
            ("아침\t걷기", "U+0009 (tab)"),
            ("아침\u{1B}[2K걷기", "U+001B (escape)"),
            ("아침\u{7}걷기", "U+0007"),
            ("아침\u{85}걷기", "U+0085 (next line)"),
            ("아침\u{9B}걷기", "U+009B"),
            ("아침\u{2028}걷기", "U+2028 (line separator)"),
            ("아침\u{2029}걷기", "U+2029 (paragraph separator)"),
        ] {
            let err = required_text("framed_text", text, 120).unwrap_err();
            assert_eq!(err.code(), "invalid_text", "{text:?}");
            let reason = err.to_string();
            assert!(reason.starts_with("framed_text: "), "{reason}");
            assert!(reason.contains(named), "{reason}");
            assert!(reason.contains("at character 3"), "{reason}");
            assert!(reason.contains("control character"), "{reason}");
            assert!(!reason.contains(['\n', '\r', '\u{1B}']), "{reason:?}");
        }
    }

    #[test]
    fn format_characters_are_refused_wherever_they_are() {
        for c in [
            '\u{AD}',
            '\u{200B}',
            '\u{200C}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{202B}',
            '\u{202C}',
            '\u{202D}',
            '\u{202E}',
            '\u{2060}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{FEFF}',
            '\u{061C}',
            '\u{E0041}',
        ] {
            for text in [
                format!("{c}아침 걷기"),
                format!("아침{c} 걷기"),
                format!("아침 걷기{c}"),
            ] {
                let reason = refusal(&text);
                assert!(reason.contains("invisible format character"), "{reason}");
                assert!(
                    reason.contains(&format!("U+{:04X}", u32::from(c))),
                    "{reason}"
                );
            }
        }
        assert!(refusal("a\u{200B}b").contains("U+200B (zero width space) at character 2"));
        assert!(refusal("a\u{202E}b").contains("(bidi override)"));
    }

    #[test]
    fn text_that_is_only_invisible_counts_as_empty() {
        for text in [
            "",
            " ",
            "\u{FEFF}",
            "\u{200B}",
            "\u{200B}\u{200D}\u{2060}",
            " \u{AD} ",
            "\u{3164}",
            "\u{115F}\u{1160}",
            "\u{FE0F}",
            "\u{202E}\u{202C}",
            "\u{3000}",
            "\n\t",
        ] {
            let err = required_text("framed_text", text, 120).unwrap_err();
            assert_eq!(
                err.to_string(),
                "framed_text: must not be empty",
                "{text:?}"
            );
            assert_eq!(
                optional_text("note", Some(text), 280).unwrap(),
                None,
                "{text:?}"
            );
        }
    }

    #[test]
    fn stored_text_is_nfc_and_limits_count_the_nfc_form() {
        let decomposed: String = "아침 걷기".nfd().collect();
        assert_eq!(decomposed.chars().count(), 11);
        assert_eq!(required_text("f", &decomposed, 5).unwrap(), "아침 걷기");
        let long: String = "가".repeat(10).nfd().collect();
        assert_eq!(required_text("f", &long, 10).unwrap(), "가".repeat(10));
        // NFC, not NFKC: full-width letters and compatibility characters stay as written.
        assert_eq!(required_text("f", "ＡＢ ① ㎏", 10).unwrap(), "ＡＢ ① ㎏");
        assert_eq!(
            optional_text("f", Some(" e\u{301} "), 5)
                .unwrap()
                .as_deref(),
            Some("é")
        );
    }

    #[test]
    fn emoji_keep_their_zero_width_joiner_but_letters_do_not() {
        for ok in [
            "달리기 🏃\u{200D}♀\u{FE0F}",
            "👨\u{200D}👩\u{200D}👧 산책",
            "👋🏽\u{200D}🔥",
        ] {
            assert!(required_text("f", ok, 20).is_ok(), "{ok:?}");
        }
        for bad in [
            "s\u{200D}top",
            "🏃\u{200D}a",
            "a\u{200D}🏃",
            "🏃\u{200D}",
            "안\u{200D}먹기",
        ] {
            assert!(
                refusal(bad).contains("U+200D (zero width joiner)"),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn ordinary_text_passes_unchanged() {
        for text in [
            "아침 커피를 내린 후 10분 걷기",
            "자기 전 책 10쪽 읽기 📚",
            "read 10 pages before bed",
            "Café에서 물 한 컵 (500ml) 마시기!",
            "ＳＮＳ 대신 산책 ① 10분",
            "«나는 걷는 사람» — 매일",
        ] {
            assert_eq!(required_text("f", text, 120).unwrap(), text);
        }
    }

    #[test]
    fn default_ignorable_matches_the_property() {
        // Ranges from DerivedCoreProperties.txt, Default_Ignorable_Code_Point.
        for c in [
            '\u{AD}',
            '\u{34F}',
            '\u{61C}',
            '\u{115F}',
            '\u{1160}',
            '\u{17B4}',
            '\u{180B}',
            '\u{180E}',
            '\u{200B}',
            '\u{200F}',
            '\u{202A}',
            '\u{202E}',
            '\u{2060}',
            '\u{206F}',
            '\u{3164}',
            '\u{FE00}',
            '\u{FE0F}',
            '\u{FEFF}',
            '\u{FFA0}',
            '\u{1D173}',
            '\u{E0001}',
            '\u{E01EF}',
        ] {
            assert!(is_default_ignorable(c), "U+{:04X}", u32::from(c));
            assert!(is_invisible(c), "U+{:04X}", u32::from(c));
        }
        for c in [
            'a', ' ', '가', 'ᄀ', '\u{301}', '\u{2800}', '🏃', '\u{0}', '\u{E000}',
        ] {
            assert!(!is_default_ignorable(c), "U+{:04X}", u32::from(c));
        }
    }
}
