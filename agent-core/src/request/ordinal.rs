//! Which item of a list a message points at ("두 번째 거", "the first one", "마지막 거",
//! "그 다음 거"): the words people use for a place in what they were just shown, in Korean
//! and English.

use super::text::Request;

/// A place in a list a message points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ordinal {
    /// The n-th item, from 1.
    Nth(usize),
    /// The last item.
    Last,
    /// The item after the one the conversation was about.
    Next,
}

/// Korean ordinal words, before "번째" or on their own ("둘째").
const KOREAN: [(&str, usize); 10] = [
    ("첫", 1),
    ("두", 2),
    ("세", 3),
    ("네", 4),
    ("다섯", 5),
    ("여섯", 6),
    ("일곱", 7),
    ("여덟", 8),
    ("아홉", 9),
    ("열", 10),
];

/// English ordinal words, as whole words.
const ENGLISH: [(&str, usize); 13] = [
    ("first", 1),
    ("1st", 1),
    ("second", 2),
    ("2nd", 2),
    ("third", 3),
    ("3rd", 3),
    ("fourth", 4),
    ("4th", 4),
    ("fifth", 5),
    ("5th", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
];

impl Request {
    /// The place in a list the message points at, if it names one.
    pub(crate) fn ordinal(&self) -> Option<Ordinal> {
        let text = self.lower();
        let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if let Some(at) = squeezed.find("번째") {
            let before = &squeezed[..at];
            let digits: String = before
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if let Ok(n) = digits.parse::<usize>() {
                return (n > 0).then_some(Ordinal::Nth(n));
            }
            // The longest word that ends right before "번째" ("다섯" before "세").
            return KOREAN
                .iter()
                .filter(|(word, _)| before.ends_with(word))
                .max_by_key(|(word, _)| word.len())
                .map(|&(_, n)| Ordinal::Nth(n));
        }
        for (word, n) in [("첫째", 1), ("둘째", 2), ("셋째", 3), ("넷째", 4)] {
            if squeezed.contains(word) {
                return Some(Ordinal::Nth(n));
            }
        }
        if squeezed.contains("마지막") {
            return Some(Ordinal::Last);
        }
        if squeezed.contains("다음거") || squeezed.contains("그다음") {
            return Some(Ordinal::Next);
        }
        let words: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        if let Some(&(_, n)) = ENGLISH.iter().find(|(word, _)| words.contains(word)) {
            return Some(Ordinal::Nth(n));
        }
        // "last" and "next" point at an item only as one: "the last one", not "last night".
        let said = |word: &str| {
            words.windows(2).any(|pair| {
                (pair[0] == word && pair[1] == "one") || (pair[0] == "the" && pair[1] == word)
            })
        };
        if said("last") {
            return Some(Ordinal::Last);
        }
        if said("next") {
            return Some(Ordinal::Next);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordinal(text: &str) -> Option<Ordinal> {
        Request::new(text).ordinal()
    }

    #[test]
    fn korean_and_english_places_are_read() {
        assert_eq!(ordinal("두 번째 거 자세히 알려줘"), Some(Ordinal::Nth(2)));
        assert_eq!(ordinal("세번째는?"), Some(Ordinal::Nth(3)));
        assert_eq!(ordinal("다섯 번째"), Some(Ordinal::Nth(5)));
        assert_eq!(ordinal("3번째 거"), Some(Ordinal::Nth(3)));
        assert_eq!(ordinal("첫째 거"), Some(Ordinal::Nth(1)));
        assert_eq!(ordinal("그 다음 거는?"), Some(Ordinal::Next));
        assert_eq!(ordinal("마지막 거 추가해줘"), Some(Ordinal::Last));
        assert_eq!(
            ordinal("Tell me more about the first one"),
            Some(Ordinal::Nth(1))
        );
        assert_eq!(ordinal("the 2nd please"), Some(Ordinal::Nth(2)));
    }

    #[test]
    fn ids_and_other_words_are_no_place() {
        assert_eq!(ordinal("3번 습관 오늘 했어"), None);
        assert_eq!(ordinal("세 번 했어"), None);
        assert_eq!(ordinal("오늘 걷기 했어"), None);
        assert_eq!(ordinal("I read last night"), None);
        assert_eq!(ordinal("what about the next one?"), Some(Ordinal::Next));
    }
}
