//! Disguised spellings of R7's own phrases, as a hostile model would write them: invisible
//! characters inside the phrase, decomposed Hangul, full-width and look-alike letters, and
//! mixtures. Issue 9 found 96 of 156 such variants accepted; these tests hold the matcher (and,
//! through `add_habit`, the text checks before it) to refusing every one.

use unicode_normalization::UnicodeNormalization;

use super::{PATTERNS, find_avoidance};

/// One disguised spelling: which trick it uses and the whole text.
#[derive(Debug, Clone)]
pub(crate) struct Variant {
    /// The trick, e.g. `zero-width space`.
    pub(crate) kind: &'static str,
    /// The phrase it disguises.
    pub(crate) phrase: &'static str,
    /// The text, the disguised phrase inside an everyday sentence.
    pub(crate) text: String,
    /// Whether the text only *displays* as the phrase (its stored order differs), so R7's
    /// matcher, which reads the stored order, is not expected to see it; the text checks
    /// refuse it for its bidi controls instead.
    pub(crate) display_only: bool,
}

/// Puts `sep` between every two characters of `s`.
fn interleave(s: &str, sep: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push(c);
    }
    out
}

/// Puts `sep` after the first character of `s`.
fn after_first(s: &str, sep: &str) -> String {
    let mut chars = s.chars();
    let first: String = chars.next().into_iter().collect();
    format!("{first}{sep}{}", chars.as_str())
}

/// ASCII letters, digits and punctuation as their full-width forms, spaces as U+3000.
fn full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ' ' => '\u{3000}',
            '!'..='~' => char::from_u32(u32::from(c) - 0x21 + 0xFF01).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// Latin letters replaced by Cyrillic letters that look the same.
fn cyrillic(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a' => 'а',
            'c' => 'с',
            'e' => 'е',
            'o' => 'о',
            'p' => 'р',
            'x' => 'х',
            'y' => 'у',
            'i' => 'і',
            's' => 'ѕ',
            'j' => 'ј',
            _ => c,
        })
        .collect()
}

/// Upper-case, with the capitals replaced by Cyrillic and Greek capitals that look the same.
fn capital_look_alikes(s: &str) -> String {
    s.chars()
        .map(|c| match c.to_ascii_uppercase() {
            'A' => 'А',
            'B' => 'В',
            'E' => 'Е',
            'K' => 'К',
            'M' => 'М',
            'H' => 'Н',
            'O' => 'О',
            'P' => 'Р',
            'C' => 'С',
            'T' => 'Т',
            'X' => 'Х',
            'I' => 'І',
            'S' => 'Ѕ',
            'N' => 'Ν', // Greek capital nu
            'Z' => 'Ζ', // Greek capital zeta
            upper => upper,
        })
        .collect()
}

/// Latin letters replaced by Greek small letters that look the same.
fn greek(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'o' => 'ο',
            'v' => 'ν',
            'i' => 'ι',
            _ => c,
        })
        .collect()
}

/// Every disguised variant of every pattern, each different from the plain phrase.
pub(crate) fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for pattern in PATTERNS {
        let p = pattern.phrase;
        let reversed: String = p.chars().rev().collect();
        let candidates: [(&'static str, String, bool); 15] = [
            ("zero-width space", interleave(p, "\u{200B}"), false),
            ("zero-width non-joiner", after_first(p, "\u{200C}"), false),
            ("zero-width joiner", after_first(p, "\u{200D}"), false),
            ("word joiner", interleave(p, "\u{2060}"), false),
            ("byte order mark", after_first(p, "\u{FEFF}"), false),
            ("soft hyphen", interleave(p, "\u{00AD}"), false),
            ("hangul filler", after_first(p, "\u{3164}"), false),
            (
                "bidi override inside",
                after_first(p, "\u{202D}") + "\u{202C}",
                false,
            ),
            (
                "bidi isolate inside",
                after_first(p, "\u{2066}") + "\u{2069}",
                false,
            ),
            (
                "bidi override, reversed",
                format!("\u{202E}{reversed}\u{202C}"),
                true,
            ),
            ("decomposed hangul (NFD)", p.nfd().collect(), false),
            ("full-width", full_width(p), false),
            ("cyrillic look-alikes", cyrillic(p), false),
            ("greek look-alikes", greek(p), false),
            ("capital look-alikes", capital_look_alikes(p), false),
        ];
        let mixed = interleave(
            &full_width(&cyrillic(&p.nfd().collect::<String>())),
            "\u{200B}",
        );
        let mixed2 = after_first(&capital_look_alikes(p), "\u{00AD}\u{2060}");
        for (kind, disguised, display_only) in candidates
            .into_iter()
            .chain([("mixed", mixed, false), ("mixed capitals", mixed2, false)])
        {
            if disguised == p {
                continue; // the trick does not apply to this phrase (e.g. full-width Hangul)
            }
            out.push(Variant {
                kind,
                phrase: p,
                text: format!("매일 {disguised}"),
                display_only,
            });
        }
    }
    out
}

#[test]
fn every_disguised_variant_of_a_pattern_is_still_caught() {
    let all = variants();
    let (display_only, matchable): (Vec<_>, Vec<_>) = all.iter().partition(|v| v.display_only);
    let missed: Vec<&Variant> = matchable
        .iter()
        .copied()
        .filter(|v| find_avoidance(&v.text).is_none())
        .collect();
    let mut kinds: Vec<&str> = all.iter().map(|v| v.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    println!(
        "R7 variants: {} generated over {} patterns ({} kinds), {} matchable, {} display-only; {} missed",
        all.len(),
        PATTERNS.len(),
        kinds.len(),
        matchable.len(),
        display_only.len(),
        missed.len()
    );
    for kind in &kinds {
        let of_kind: Vec<&Variant> = all.iter().filter(|v| v.kind == *kind).collect();
        let caught = of_kind
            .iter()
            .filter(|v| find_avoidance(&v.text).is_some())
            .count();
        println!("  {kind}: {caught}/{} caught by the matcher", of_kind.len());
    }
    for v in &missed {
        println!("  missed [{}] {:?} = {:?}", v.kind, v.phrase, v.text);
    }
    assert!(matchable.len() >= 156, "the generator got smaller");
    assert!(
        missed.is_empty(),
        "{} variants slipped past R7",
        missed.len()
    );
}
