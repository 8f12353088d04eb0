//! Makes untrusted text inert before a person sees it — in a terminal, a client's form, an
//! app's dialog: the one sanitizer behind [`ConfirmRequest::lines`](crate::ConfirmRequest::lines),
//! which every confirmer shows, and which an app applies to anything else it prints.
//!
//! The model controls every argument string, the answer text and even a tool's name; stored
//! records (a journal, an app's texts) came from earlier calls; an MCP client controls what it
//! sends. A terminal interprets some characters, and a form or a dialog draws some of them:
//! ESC starts sequences that move the cursor, erase lines, set the title or write the
//! clipboard (OSC 52); CR and LF move to the start of a line, so text could draw lines that
//! look like the confirmation dialog; bidi controls (U+202E, U+2066…) reorder what is shown;
//! other format characters (zero-width spaces, U+FEFF) hide text. Here each such character is
//! shown as a visible escape (`\n`, `\u{1b}`, `\u{202e}`) and never written raw:
//!
//! - general categories `Cc` (C0, DEL, C1 — including ESC, CR, LF, TAB), `Cf` (format:
//!   bidi controls, zero-width characters, soft hyphen, BOM), `Zl`/`Zp` (line and paragraph
//!   separators), `Co` (private use) and `Cn` (unassigned — a future terminal may give them a
//!   meaning), from the `unicode-general-category` crate's Unicode tables;
//! - the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), which are letters by category but
//!   draw nothing — a way to make a value look empty in a Korean UI.
//!
//! So a value can never start a new line, and long values are clipped with a visible marker
//! ([`clip`]) or wrapped onto continuation lines the caller prefixes itself ([`wrap`]).

use std::fmt::Write as _;

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_width::UnicodeWidthChar;

/// Whether `c` is shown escaped rather than written.
///
/// It must cope with any text it is handed — stored records, tool names, error messages — one
/// character at a time, and cannot refuse, so it escapes a wide set (a zero width joiner
/// between two emoji included). An app's own rule for stored text (habit-tools' refuses Cc,
/// Cf, Zl and Zp) can be narrower; habit-demo checks that everything it refuses is escaped
/// here.
fn is_unsafe(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
            | GeneralCategory::Unassigned
    ) || matches!(c, '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}')
}

/// How one character of `text` is shown: itself, or its visible escape.
fn shown(c: char) -> std::borrow::Cow<'static, str> {
    if !is_unsafe(c) {
        return String::from(c).into();
    }
    match c {
        '\n' => "\\n".into(),
        '\r' => "\\r".into(),
        '\t' => "\\t".into(),
        other => {
            let mut escape = String::new();
            let _ = write!(escape, "\\u{{{:x}}}", u32::from(other));
            escape.into()
        }
    }
}

/// `text` on one line with every character a terminal could interpret, or that draws nothing,
/// shown as a visible escape.
pub fn inert(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&shown(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// [`inert`] `text`, clipped to at most `max` characters of the original with a visible
/// marker saying how many characters were left out (`…(+120)`: a number, no words, so it
/// reads the same in any app's language).
///
/// For one untrusted value shown as it is (a confirmation's arguments, a stored record, a tool
/// name the model wrote): a line break in it stays visible as `\n`, and the person sees that
/// something was cut and how much.
pub fn clip(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return inert(text);
    }
    let kept: String = text.chars().take(max).collect();
    format!("{}…(+{})", inert(&kept), total - max)
}

/// [`inert`] `text` cut into pieces of at most `columns` terminal columns (Hangul counts two),
/// so that a caller can start every piece with its own frame (`│ `): a long value cannot wrap
/// onto a row of the terminal that does not begin with the dialog's frame.
///
/// Rows break after a space where one is near enough: a word (`search_catalog`, `2026-12-04`)
/// that fits on a row is not split across two, and a space that does not fit on a full row
/// becomes the break (it is not shown). Only a word wider than a row is cut inside.
pub fn wrap(text: &str, columns: usize) -> Vec<String> {
    let columns = columns.max(8);
    let width_of =
        |piece: &str| -> usize { piece.chars().filter_map(UnicodeWidthChar::width).sum() };
    // Words with the spaces after them; an escape (`\u{1b}`) is one piece, kept whole on one
    // row, so it reads as what it stands for.
    let mut words: Vec<Vec<String>> = Vec::new();
    let mut after_space = true;
    for c in text.chars() {
        if after_space && c != ' ' {
            words.push(Vec::new());
        }
        after_space = c == ' ';
        match words.last_mut() {
            Some(word) => word.push(shown(c).into_owned()),
            None => words.push(vec![shown(c).into_owned()]),
        }
    }
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut width = 0;
    for word in words {
        let letters: usize = word
            .iter()
            .filter(|piece| piece.as_str() != " ")
            .map(String::as_str)
            .map(width_of)
            .sum();
        if width > 0 && width + letters > columns && letters <= columns {
            rows.push(std::mem::take(&mut row));
            width = 0;
        }
        for piece in word {
            let w = width_of(&piece);
            if width + w > columns && !row.is_empty() {
                if piece == " " {
                    // A space that does not fit on a full row is the break itself.
                    rows.push(std::mem::take(&mut row));
                    width = 0;
                    continue;
                }
                rows.push(std::mem::take(&mut row));
                width = 0;
            }
            row.push_str(&piece);
            width += w;
        }
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characters a hostile text uses, and what must come out instead.
    const HOSTILE: &[(&str, &str)] = &[
        ("a\nb", "a\\nb"),
        ("a\r\nb", "a\\r\\nb"),
        ("\x1b[2K\x1b[1A", "\\u{1b}[2K\\u{1b}[1A"),
        ("\x1b]52;c;aGk=\x07", "\\u{1b}]52;c;aGk=\\u{7}"),
        ("\u{9b}2J", "\\u{9b}2J"),
        ("\u{202e}kcatta", "\\u{202e}kcatta"),
        ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
        ("\u{feff}", "\\u{feff}"),
        ("a\u{200b}b\u{ad}c", "a\\u{200b}b\\u{ad}c"),
        ("x\u{2028}y\u{2029}", "x\\u{2028}y\\u{2029}"),
        ("\u{3164}", "\\u{3164}"),
        ("\u{e000}", "\\u{e000}"),
        ("\u{7f}", "\\u{7f}"),
        ("\t", "\\t"),
    ];

    #[test]
    fn hostile_characters_are_shown_escaped() {
        for (input, expected) in HOSTILE {
            assert_eq!(inert(input), *expected, "{input:?}");
            assert!(inert(input).chars().all(|c| !is_unsafe(c)));
        }
    }

    #[test]
    fn ordinary_text_is_unchanged() {
        for text in [
            "아침 커피 후 10분 걷기",
            "✓ 추가됨: #1",
            "🤖 좋아요!",
            "a — b · c",
            "全角",
        ] {
            assert_eq!(inert(text), text);
        }
    }

    #[test]
    fn clip_marks_what_it_left_out() {
        assert_eq!(clip("가나다라마", 5), "가나다라마");
        assert_eq!(clip("가나다라마", 2), "가나…(+3)");
        assert_eq!(clip("\n\n\n", 1), "\\n…(+2)");
    }

    #[test]
    fn wrap_keeps_rows_within_their_columns() {
        let text = format!("{}┌ 이 작업을 수행할까요?", "가".repeat(40));
        let rows = wrap(&text, 20);
        assert!(rows.len() > 4);
        for row in &rows {
            let width: usize = row.chars().filter_map(UnicodeWidthChar::width).sum();
            assert!(width <= 20, "{row:?}");
        }
        assert_eq!(rows.concat(), text);
        assert_eq!(wrap("", 10), [""]);
        // Words that fit on a row are not cut; a space past a full row is the break.
        assert_eq!(wrap("abcdefgh ijk", 8), ["abcdefgh", "ijk"]);
        let text = "먼저 search_catalog로 id를 찾으세요.";
        let rows = wrap(text, 20);
        assert_eq!(rows, ["먼저 ", "search_catalog로 ", "id를 찾으세요."]);
        assert_eq!(rows.concat(), text);
        // A word wider than a row is cut inside it.
        assert_eq!(wrap("abcdefghij", 8), ["abcdefgh", "ij"]);
        // Escapes are not split across rows.
        for row in wrap(&"\n\u{1b}".repeat(20), 9) {
            assert!(!row.ends_with('\\') && !row.starts_with('u'), "{row:?}");
        }
    }
}
