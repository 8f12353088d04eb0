//! R7: habits are framed as what to do, never as what to avoid. This file owns the one list of
//! avoidance wording ([`PATTERNS`]) and the matcher over it ([`find_avoidance`]).
//!
//! Why: "야식 안 먹기" keeps the forbidden thing at the centre of attention and gives the brain
//! nothing to do when the urge comes; "밤 9시 이후엔 보리차 마시기" names a behaviour that can
//! be cued, repeated and rewarded. Break habits are framed the same way, by their replacement.
//!
//! How matching works, and the false positives it is built to avoid:
//!
//! - The text is lowercased, typographic apostrophes (`’`, `‘`) become `'`, and runs of
//!   whitespace become one space, so `Don’t`, `DON'T` and `하지  않기` all match.
//! - English patterns match whole words only (no ASCII letter or digit on either side), so
//!   `stop` does not fire inside `nonstop` or `stopwatch`, nor `ban` inside `banana`. A Korean
//!   syllable next to an English word is a boundary: `stop하기` matches.
//! - Korean patterns match as substrings (Korean words take particles and endings, so there are
//!   no useful word boundaries), and are chosen to be specific: `않기` rather than `않` (so
//!   "포기하지 않고 걷기" is fine), `안 하기` rather than `안` (so "집 안 정리하기" is fine).
//! - A pattern may list longer, harmless phrases that contain it (`allowed_in`): `그만큼`
//!   ("that much") contains `그만`, `참기름` (sesame oil) contains `참기`, `bus stop` contains
//!   `stop`. An occurrence inside one of those is not a match.
//!
//! Deliberately **not** listed: `줄이기` (reduce) and `없이` (without), because "설탕 없이 커피
//! 마시기" and "스트레스 줄이려고 산책하기" describe a positive action; `금주` because it also
//! means "this week"; plain `not`/`no`, because they are far more often harmless than not.

/// One avoidance phrase and the rules for matching it.
#[derive(Debug)]
pub struct Pattern {
    /// The phrase, lowercase, single-spaced. Reported to the model when it matches.
    pub phrase: &'static str,
    /// Match whole words only (for English phrases).
    pub whole_word: bool,
    /// Longer harmless phrases containing `phrase`; an occurrence inside one does not count.
    pub allowed_in: &'static [&'static str],
}

const fn ko(phrase: &'static str) -> Pattern {
    Pattern {
        phrase,
        whole_word: false,
        allowed_in: &[],
    }
}

const fn en(phrase: &'static str) -> Pattern {
    Pattern {
        phrase,
        whole_word: true,
        allowed_in: &[],
    }
}

/// The avoidance wording R7 refuses. Order only matters for ties at the same position (the
/// first listed wins), so longer phrases come before phrases they contain.
pub const PATTERNS: &[Pattern] = &[
    // Korean negation of a verb as the habit itself: "X 안 하기", "X하지 않기", "X하지 말기".
    ko("안 하기"),
    ko("안하기"),
    ko("안 먹기"),
    ko("안먹기"),
    ko("안 마시기"),
    ko("안마시기"),
    ko("안 보기"),
    ko("안 피우기"),
    ko("안피우기"),
    ko("하지 않기"),
    ko("하지않기"),
    ko("않기"),
    ko("않겠"),
    ko("지 말기"),
    ko("지말기"),
    ko("지 말자"),
    ko("지말자"),
    // Prohibition and quitting words.
    ko("금지"),
    ko("금연"),
    Pattern {
        phrase: "끊기",
        whole_word: false,
        // "흐름이 끊기지 않게" is about keeping something going.
        allowed_in: &["끊기지"],
    },
    ko("끊자"),
    ko("끊을"),
    ko("끊고"),
    Pattern {
        phrase: "그만",
        whole_word: false,
        // "그만큼" means "that much".
        allowed_in: &["그만큼"],
    },
    ko("멀리하기"),
    ko("피하기"),
    ko("자제하"),
    Pattern {
        phrase: "참기",
        whole_word: false,
        // Sesame oil.
        allowed_in: &["참기름"],
    },
    ko("삼가"),
    // English.
    en("avoid"),
    en("avoids"),
    en("avoiding"),
    Pattern {
        phrase: "stop",
        whole_word: true,
        allowed_in: &["bus stop", "non-stop", "full stop"],
    },
    en("stops"),
    en("stopping"),
    en("quit"),
    en("quits"),
    en("quitting"),
    en("don't"),
    en("dont"),
    en("do not"),
    en("won't"),
    en("will not"),
    Pattern {
        phrase: "never",
        whole_word: true,
        // A commitment to show up, not an avoidance.
        allowed_in: &["never miss"],
    },
    en("no more"),
    en("refrain"),
    en("give up"),
    en("cut out"),
    en("ban"),
    en("forbid"),
    en("forbidden"),
];

/// The first avoidance phrase in `text` (by position), or `None` if it is framed positively.
pub fn find_avoidance(text: &str) -> Option<&'static str> {
    let norm = normalize(text);
    let mut best: Option<(usize, &'static str)> = None;
    for pattern in PATTERNS {
        for (start, _) in norm.match_indices(pattern.phrase) {
            if best.is_some_and(|(pos, _)| pos <= start) {
                break;
            }
            let end = start + pattern.phrase.len();
            if pattern.whole_word && !is_word_boundary(&norm, start, end) {
                continue;
            }
            if pattern
                .allowed_in
                .iter()
                .any(|allowed| covered_by(&norm, start, end, allowed))
            {
                continue;
            }
            best = Some((start, pattern.phrase));
            break;
        }
    }
    best.map(|(_, phrase)| phrase)
}

fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            match c {
                '\u{2019}' | '\u{2018}' | '\u{02BC}' => out.push('\''),
                _ => out.extend(c.to_lowercase()),
            }
        }
    }
    out
}

fn is_word_boundary(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    !is_word(before) && !is_word(after)
}

/// Whether `text[start..end]` lies inside an occurrence of `allowed`.
fn covered_by(text: &str, start: usize, end: usize, allowed: &str) -> bool {
    text.match_indices(allowed)
        .any(|(a_start, _)| a_start <= start && end <= a_start + allowed.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catches_korean_avoidance_framing() {
        let cases = [
            ("야식 안 먹기", "안 먹기"),
            ("밤에 휴대폰 안 하기", "안 하기"),
            ("운동 빼먹지 않기", "않기"),
            ("군것질하지  않기", "하지 않기"),
            ("SNS 하지 말기", "지 말기"),
            ("커피 금지", "금지"),
            ("담배 끊기", "끊기"),
            ("금연하기", "금연"),
            ("밤늦게 게임 그만하기", "그만"),
            ("단 음식 멀리하기", "멀리하기"),
            ("야식 피하기", "피하기"),
            ("음주 자제하기", "자제하"),
            ("간식 참기", "참기"),
        ];
        for (text, phrase) in cases {
            assert_eq!(find_avoidance(text), Some(phrase), "{text}");
        }
    }

    #[test]
    fn catches_english_avoidance_framing_in_any_case_and_apostrophe() {
        let cases = [
            ("Avoid sugar after 9pm", "avoid"),
            ("STOP scrolling in bed", "stop"),
            ("Don’t snack at night", "don't"),
            ("dont skip breakfast", "dont"),
            ("Do  not drink soda", "do not"),
            ("quit smoking", "quit"),
            ("no more late coffee", "no more"),
            ("never eat after 9", "never"),
            ("stop하기", "stop"),
        ];
        for (text, phrase) in cases {
            assert_eq!(find_avoidance(text), Some(phrase), "{text}");
        }
    }

    #[test]
    fn leaves_positive_framing_alone_including_near_misses() {
        for text in [
            "저녁 먹고 10분 산책하기",
            "집 안 정리하기 10분",
            "포기하지 않고 매일 걷기",
            "걸은 그만큼 물 마시기",
            "참기름 대신 올리브유 쓰기",
            "흐름이 끊기지 않게 타이머 켜기",
            "안마 의자에서 5분 스트레칭",
            "설탕 없이 커피 마시기",
            "스트레스 줄이려고 산책하기",
            "use a stopwatch for 25 minutes",
            "walk to the bus stop and back",
            "nonstop reading for 10 minutes",
            "eat a banana after the gym",
            "never miss a Monday workout",
            "read 10 pages before bed",
        ] {
            assert_eq!(find_avoidance(text), None, "{text}");
        }
    }

    #[test]
    fn an_allowed_phrase_does_not_hide_a_real_match_elsewhere() {
        assert_eq!(find_avoidance("그만큼 걷고 야식은 그만"), Some("그만"));
        assert_eq!(
            find_avoidance("walk to the bus stop, then stop eating"),
            Some("stop")
        );
    }

    #[test]
    fn reports_the_earliest_phrase() {
        assert_eq!(find_avoidance("야식 금지, 술도 끊기"), Some("금지"));
        assert_eq!(find_avoidance("stop soda, avoid sugar"), Some("stop"));
    }

    #[test]
    fn patterns_are_normalised_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for p in PATTERNS {
            assert_eq!(
                normalize(p.phrase),
                p.phrase,
                "pattern must be stored normalised"
            );
            assert!(seen.insert(p.phrase), "duplicate pattern {}", p.phrase);
            for allowed in p.allowed_in {
                assert!(
                    allowed.contains(p.phrase),
                    "{allowed} must contain {}",
                    p.phrase
                );
            }
        }
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in [
            "",
            " ",
            "\u{0}",
            "İstanbul stop",
            "ǅ stop",
            &"안".repeat(10_000),
        ] {
            let _ = find_avoidance(text);
        }
        assert_eq!(find_avoidance("İstanbul stop"), Some("stop"));
    }
}
